"""Qwixx Double B against the official sheet, by simulation (docs/variants.md).

    PYTHONPATH=. python benchmarks/bench_double_b.py [--games N] [--seed S]

The exact solver does not handle double cells yet, so this compares the pads with
one fixed strategy: the ``greedy`` arena player (the fewest-skips policy, docs/policies.md)
plays ``N`` solitaire games on each sheet (official R15 option, the game ends before
action 2), game ``g`` with dice from ``seed + g`` on every sheet.  It prints per sheet the
mean score with its 95% interval (an ESTIMATE: mean +- 1.96 standard errors), the mean
number of turns, the share of games ended by closing two rows (R14, else four penalties,
R13) and the mean crosses per row, and the time taken.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from qwixx_math.layouts import DOUBLE_B, DOUBLE_B_ALT, OFFICIAL, SheetLayout
from qwixx_math.model import COLOURS, Roll
from qwixx_math.players.greedy import make
from qwixx_math.rules import GameState, Phase, new_game
from qwixx_math.ruleset import Ruleset


def play(layout: SheetLayout, seed: int) -> GameState:
    """One greedy solitaire game on ``layout`` with dice from ``seed``."""
    ruleset = Ruleset(1)
    player = make(ruleset, seed)
    rng = random.Random(seed)
    state = new_game(ruleset=ruleset, layout=layout)
    player.new_game(0, state)
    while state.phase is not Phase.OVER:
        dice = {c.value: rng.randint(1, 6) for c in COLOURS if c in state.dice_in_play}
        rolled = state.with_roll(Roll.of(rng.randint(1, 6), rng.randint(1, 6), **dice))
        state = rolled.with_action1([player.action1(0, rolled)])
        if state.phase is Phase.ACTION2:
            state = state.with_action2(player.action2(0, state))
    return state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for layout in (OFFICIAL, DOUBLE_B, DOUBLE_B_ALT):
        start = time.perf_counter()
        ends = [play(layout, args.seed + g) for g in range(args.games)]
        scores = [s.sheets[0].score for s in ends]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        closed = sum(s.ended_by == "R14" for s in ends) / len(ends)
        crosses = statistics.fmean(s.sheets[0].count(c) for s in ends for c in COLOURS)
        print(f"{layout.name}: greedy solitaire mean score {mean:.2f} "
              f"(95% interval {mean - half:.2f} to {mean + half:.2f}; estimate, "
              f"{args.games} games), {statistics.fmean(s.turn for s in ends):.1f} turns, "
              f"{closed:.0%} ended by two closed rows, {crosses:.2f} crosses per row "
              f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
