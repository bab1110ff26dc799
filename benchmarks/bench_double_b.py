"""Qwixx Double B: the exact solitaire solve, its values, openings and advice speed
(docs/variants.md).

    PYTHONPATH=. python benchmarks/bench_double_b.py [--layout double-b|double-b-alt]
        [--cache DIR] [--only-tables] [--positions N] [--montecarlo GAMES]
        [--greedy] [--games N] [--seed S]

For each layout (default both) and both R15 options (``action2_after_game_end`` false,
then true) the table is solved in a fresh process from an empty table cache (a new
directory, ``--cache DIR/LAYOUT`` or a temporary one; the JIT is warmed up on a tiny
variant first, as in bench_solver_layouts.py, so the figure is the solve, not numba's
compile), on every core (2 here).  Printed per solve: wall and CPU seconds, peak RSS
(goals: <= 5 minutes wall, <= 8 GB), the canonical configurations solved and the
optimal expected score (exact up to float64 rounding).

Then, with the R15-default table loaded: the mean latency of ``Advisor.advise`` over
``--positions`` positions drawn by seeded near-optimal play (goal <= 1 ms per call),
and the **opening marks**: the value of the sheet after one mark, before the next roll,
minus the start value, for every cell of every row (the best five, and the best of each
row).  The machine is shared: the load average is printed with the figures.

Then ``--montecarlo`` games (default 2,000) of that optimal policy, every plan applied by
the rules core: their mean score with its standard error, and how many standard errors
it lies from the exact value (an ESTIMATE; issue 34 asks for less than 4).
``--only-tables`` skips the solves and reads the tables ``--cache`` holds.

``--greedy`` also plays the ``greedy`` arena player ``--games`` solitaire games on the
official sheet and each Double B sheet (same dice seeds on every sheet; an ESTIMATE with
its 95% interval), the comparison docs/variants.md gave before the exact values.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any, Protocol

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_advice import positions

from qwixx_math.advice import Advisor
from qwixx_math.layouts import DOUBLE_B, DOUBLE_B_ALT, OFFICIAL, SheetLayout, layout_named
from qwixx_math.model import COLOURS, Roll, Sheet
from qwixx_math.players.base import Player
from qwixx_math.players.greedy import make
from qwixx_math.rules import GameState, Phase, new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, solve, symmetry_group

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, time
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve
solve(variant=Variant.from_letters("aadd", 6, 2, 2, 2), cache=False)  # JIT warm-up
cpu0 = time.process_time()
t0 = time.perf_counter()
table = solve(Ruleset(players=1, action2_after_game_end={a2}{options}), layout={layout!r},
              cache={cache}, progress=False)
print(json.dumps({{
    "wall": time.perf_counter() - t0, "cpu": time.process_time() - cpu0,
    "start_value": table.start_value, "loaded": table.loaded,
    "canonical": table.stats.canonical_configurations if table.stats else None,
    "frozen": table.stats.frozen_configurations if table.stats else None,
    "phases": [table.stats.seconds_setup, table.stats.seconds_kernel,
               table.stats.seconds_derive, table.stats.seconds_total] if table.stats else None,
    "states": table.states,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}}))
"""


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def solve_in_child(layout: str, a2: bool, cache: Path | None, options: str = ""
                   ) -> dict[str, Any]:
    """Solve one table in a fresh process into the (empty) directory ``cache`` (None: in
    memory, no file); ``options``: more Ruleset keywords, spelled ``", name=value"``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = textwrap.dedent(CHILD.format(a2=a2, layout=layout, options=options,
                                        cache=False if cache is None else repr(str(cache))))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def advice_latency(advisor: Advisor, count: int, seed: int
                   ) -> tuple[float, float, float]:
    """(mean ms, p99 ms, plans per call) of ``advise`` over ``count`` positions of
    ``bench_advice.positions`` (seeded play of the best or second-best plan, 0-40 turns)."""
    cases = positions(advisor, count, seed)
    times = []
    plans = 0
    for state, roll in cases:
        t0 = time.perf_counter()
        advice = advisor.advise(state, roll)
        times.append((time.perf_counter() - t0) * 1e3)
        plans += len(advice.plans)
    times.sort()
    return statistics.fmean(times), times[int(len(times) * 0.99)], plans / len(times)


class Valued(Protocol):
    """What :func:`openings` reads of a table: a :class:`SolverTable`, or research's
    exact Bonus B table through an adapter (bench_bonus_b_bound.py)."""

    @property
    def start_value(self) -> float: ...

    def value(self, sheet: Sheet) -> float: ...


def openings(table: Valued, layout: SheetLayout) -> list[tuple[float, str, int]]:
    """(value after that one mark minus the start value, row, number), best first."""
    out = []
    for colour, numbers in zip(layout.locks, layout.numbers, strict=True):
        for number in numbers[:-layout.lock_cells]:  # a lock number cannot open (DB2, LG2)
            # (marked: a chain cell crosses its partner too, CC1)
            sheet = Sheet.empty(layout).marked(colour.index, layout.pos[colour.index][number])
            out.append((table.value(sheet) - table.start_value, colour.value, number))
    out.sort(key=lambda x: -x[0])
    return out


def monte_carlo(advisor: Advisor, layout: SheetLayout, games: int, seed: int
                ) -> tuple[float, float]:
    """(mean, standard error) of the final score of ``games`` solitaire games in which
    the advisor's best plan is applied by the rules core every turn (an ESTIMATE)."""
    rng = random.Random(seed)
    scores = []
    for _ in range(games):
        state = new_game(ruleset=advisor.table.ruleset, layout=layout)
        while not state.is_over:
            roll = random_roll(rng, state.dice_in_play, faces=layout.faces)
            state = state.play_plan(roll, advisor.advise(state, roll).best.plan)
        scores.append(state.scores[0])
    return statistics.fmean(scores), statistics.stdev(scores) / len(scores) ** 0.5


def report_solve(name: str, a2: bool, cache: Path | None, options: str = "") -> None:
    """Solve layout ``name`` (R15 option ``a2``, more Ruleset ``options`` as in
    :func:`solve_in_child`) in a fresh process into the empty ``cache`` (None: in
    memory) and print its
    value, wall and CPU time, peak RSS and sizes (the steps, Longo and X-Change
    benchmarks print the same)."""
    before = load_average()
    r = solve_in_child(name, a2, cache, options)
    assert not r["loaded"], "the table cache was not empty"
    print(f"{name} (action2_after_game_end={a2}{options}): optimal expected score "
          f"{r['start_value']:.6f}; solved from an empty table cache in "
          f"{r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU, peak RSS "
          f"{r['peak_rss_mb']:.0f} MB (goals 300 s, 8000 MB); {r['states']:,} "
          f"stored values ({r['states'] * 8 / 1e9:.2f} GB), {r['canonical']:,} canonical "
          f"configurations solved "
          f"({r['frozen']:,} written from a frozen row); load average before "
          f"{before}, after {load_average()}", flush=True)
    if r["phases"]:
        setup, kernel, derive, total = r["phases"]
        print(f"{name}: wall seconds by phase: setup {setup:.1f}, kernel {kernel:.1f}, "
              f"derive {derive:.1f}, writing the table and the rest "
              f"{r['wall'] - total:.1f}", flush=True)


def report_table(name: str, layout: SheetLayout, cache: Path, positions: int,
                 montecarlo: int, seed: int) -> None:
    """Print what a solved (R15 default) table of ``layout`` in ``cache`` says: its symmetry
    group, the best opening marks, the advice latency over ``positions`` positions and, if
    ``montecarlo``, optimal play through the rules core against the exact value (the steps
    and Longo benchmarks print the same)."""
    table = solve(Ruleset(players=1), layout=layout, cache=cache, progress=False)
    assert table.loaded
    print(f"{name}: symmetry group of order {len(symmetry_group(table.variant))}")
    best = openings(table, layout)
    print(f"{name} opening marks (value after the mark minus the start value, R15 "
          f"default), best five: " + ", ".join(
              f"{row} {number} {delta:+.2f}" for delta, row, number in best[:5]))
    print(f"{name} best opening per row: " + ", ".join(
        f"{row} {number} {delta:+.2f}" for row in (c.value for c in layout.locks)
        for delta, r, number in [next(x for x in best if x[1] == row)] if r == row))
    advisor = Advisor(table)
    mean, p99, plans = advice_latency(advisor, positions, 1)
    print(f"{name} advise: mean {mean:.3f} ms, p99 {p99:.3f} ms per call over "
          f"{positions} positions ({plans:.1f} plans each; goal <= 1 ms; load "
          f"average {load_average()})", flush=True)
    if montecarlo:
        mc, se = monte_carlo(advisor, layout, montecarlo, seed)
        gap = (mc - table.start_value) / se
        print(f"{name} optimal play through the rules core, {montecarlo} games "
              f"(estimate): mean {mc:.2f} +- {se:.2f} (standard error) against the "
              f"exact {table.start_value:.6f}: {gap:+.2f} standard errors", flush=True)


def compare_tables(name: str, table: SolverTable, other: SolverTable) -> bool:
    """Print how ``table`` and ``other`` (the same pad and options, solved apart, e.g. by
    two commits) differ, and whether they agree: the values both solved (finite) must be
    bit-equal; the others are -inf or NaN, values a solve skipped (Bonus A's bar lanes no
    game reaches, ``qwixx_math/solver/bar.py``), and must be the same on both sides."""
    a, b = table.data, other.data
    if a.shape != b.shape:
        print(f"{name}: the tables differ in size: {a.size:,} and {b.size:,} values",
              flush=True)
        return False
    equal = differ = only_a = only_b = 0
    chunk = 1 << 24
    for lo in range(0, len(a), chunk):
        x, y = np.asarray(a[lo:lo + chunk]), np.asarray(b[lo:lo + chunk])
        fx, fy = np.isfinite(x), np.isfinite(y)
        both = fx & fy
        same = x.view(np.int64)[both] == y.view(np.int64)[both]
        equal += int(same.sum())
        differ += int((~same).sum())
        only_a += int((fx & ~fy).sum())
        only_b += int((fy & ~fx).sum())
    print(f"{name}: against the table in the other directory: {equal:,} values both solved "
          f"and bit-equal, {differ:,} different; {only_a:,} solved here only, {only_b:,} "
          f"there only (start values {table.start_value!r} and {other.start_value!r})",
          flush=True)
    return differ == only_a == only_b == 0


def report_option_play(name: str, layout: SheetLayout, cache: Path, games: int,
                       seed: int) -> None:
    """Optimal play through the rules core under the R15 option (``action2_after_game_end``)
    against that option's solved table in ``cache``, as :func:`report_table` does for the
    default (an ESTIMATE with its standard error)."""
    table = solve(Ruleset(players=1, action2_after_game_end=True), layout=layout,
                  cache=cache, progress=False)
    assert table.loaded
    mc, se = monte_carlo(Advisor(table), layout, games, seed)
    print(f"{name} (action2_after_game_end=True) optimal play through the rules core, "
          f"{games} games, seed {seed} (estimate): mean {mc:.2f} +- {se:.2f} (standard "
          f"error) against the exact {table.start_value:.6f}: "
          f"{(mc - table.start_value) / se:+.2f} standard errors", flush=True)


def greedy_game(layout: SheetLayout, seed: int) -> GameState:
    """One greedy solitaire game on ``layout`` with dice from ``seed``."""
    return solitaire_game(make(Ruleset(1), seed), layout, seed)


def solitaire_game(player: Player, layout: SheetLayout, seed: int,
                   ruleset: Ruleset | None = None) -> GameState:
    """One solitaire game of ``player`` on ``layout`` with dice from ``seed`` (the same
    draws for every player until the players close different rows), under ``ruleset``
    (default: solitaire, R15 default)."""
    ruleset = Ruleset(1) if ruleset is None else ruleset
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


def greedy(games: int, seed: int) -> None:
    for layout in (OFFICIAL, DOUBLE_B, DOUBLE_B_ALT):
        start = time.perf_counter()
        ends = [greedy_game(layout, seed + g) for g in range(games)]
        scores = [s.sheets[0].score for s in ends]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        closed = sum(s.ended_by == "R14" for s in ends) / len(ends)
        crosses = statistics.fmean(s.sheets[0].count(c) for s in ends for c in COLOURS)
        print(f"{layout.name}: greedy solitaire mean score {mean:.2f} "
              f"(95% interval {mean - half:.2f} to {mean + half:.2f}; estimate, "
              f"{games} games), {statistics.fmean(s.turn for s in ends):.1f} turns, "
              f"{closed:.0%} ended by two closed rows, {crosses:.2f} crosses per row "
              f"({time.perf_counter() - start:.0f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", action="append", choices=("double-b", "double-b-alt"))
    parser.add_argument("--cache", type=Path, default=None,
                        help="solve into DIR/LAYOUT and keep the tables (it must not hold "
                             "them yet); default a temporary directory")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--montecarlo", type=int, default=2000, metavar="GAMES",
                        help="games of optimal play to check the value (0: none)")
    parser.add_argument("--only-tables", action="store_true",
                        help="skip the solves: read the tables --cache already holds")
    parser.add_argument("--greedy", action="store_true")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        root = args.cache if args.cache is not None else Path(temporary)
        for name in args.layout or ("double-b", "double-b-alt"):
            layout = layout_named(name)
            cache = root / name
            for a2 in () if args.only_tables else (False, True):
                report_solve(name, a2, cache)
            report_table(name, layout, cache, args.positions, args.montecarlo, args.seed)
    if args.greedy:
        greedy(args.games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
