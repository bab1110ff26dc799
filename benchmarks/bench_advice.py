"""Benchmark of move advice: latency of one ``Advisor.advise`` call once the table is loaded.

    python benchmarks/bench_advice.py                  # 2000 positions, best of 3
    python benchmarks/bench_advice.py --positions 500 --repeat 1

Positions are drawn by seeded play (solitaire, 0-40 turns of near-optimal
play) with a random roll each, so they cover empty, mid-game and late sheets.
Prints the time to load the table (``Advisor.for_ruleset``, from the cache; the
first run on a machine solves it instead), then the mean and the 50th/99th
percentile latency of ``advise`` over the positions, and the mean number of
plans ranked.  Goal: <= 1 ms per call.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from qwixx_math.advice import Advisor
from qwixx_math.model import Roll
from qwixx_math.rules import GameState, new_game, random_roll


def positions(advisor: Advisor, count: int, seed: int) -> list[tuple[GameState, Roll]]:
    """``count`` positions on the advisor's sheet and rules, drawn by seeded play of the best
    or second-best plan for 0-40 turns, each with a random roll (bench_double_b uses them too)."""
    rng = random.Random(seed)
    faces = advisor.sheet_layout.faces  # 8-sided dice on Longo (LG1)
    out: list[tuple[GameState, Roll]] = []
    while len(out) < count:
        state = new_game(ruleset=advisor.table.ruleset, layout=advisor.sheet_layout)
        for _ in range(rng.randrange(41)):
            roll = random_roll(rng, state.dice_in_play, faces=faces)
            plans = advisor.advise(state, roll).plans
            after = state.play_plan(roll, plans[min(len(plans) - 1, int(rng.random() * 2))].plan)
            if after.is_over:
                break
            state = after
        out.append((state, random_roll(rng, state.dice_in_play, faces=faces)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    start = time.perf_counter()
    advisor = Advisor.for_ruleset(progress=False)
    load = time.perf_counter() - start
    cases = positions(advisor, args.positions, args.seed)
    print(f"load average {os.getloadavg()[0]:.2f}; table {advisor.table.path} "
          f"({'loaded' if advisor.table.loaded else 'solved'} in {load:.2f} s)")
    best: list[float] | None = None
    plans = 0
    for _ in range(args.repeat):
        times = []
        plans = 0
        for state, roll in cases:
            t0 = time.perf_counter()
            advice = advisor.advise(state, roll)
            times.append(time.perf_counter() - t0)
            plans += len(advice.plans)
        if best is None or statistics.fmean(times) < statistics.fmean(best):
            best = times
    assert best is not None
    best.sort()
    ms = [t * 1e3 for t in best]
    print(f"advise: mean {statistics.fmean(ms):.3f} ms, median {ms[len(ms) // 2]:.3f} ms, "
          f"p99 {ms[int(len(ms) * 0.99)]:.3f} ms over {len(ms)} positions "
          f"({plans / len(ms):.1f} plans each on average); goal <= 1 ms")


if __name__ == "__main__":
    main()
