"""Qwixx Bonus, pad B: the proved upper bound, the exact value of a relaxed game, and with
``--lower`` the proved lower bound and its policy's simulated score (docs/variants.md,
"Bounds for the pads without an exact value"; issue 34).

    PYTHONPATH=. python benchmarks/bench_bonus_b_bound.py [--a2 both|off|on] [--threads T]
    PYTHONPATH=. python benchmarks/bench_bonus_b_bound.py --lower [--games N] [--seed S] ...

The relaxed game (research/bonus_b_bound.py) has Bonus B's moves, forced crosses and end
(default Options ``bb_fewest_candidates = open_with_next_cell``, ``bb_diamond_order =
colour_order``) and the final score 5/4 x (the four rows' points) + 13, which is at least
Bonus B's on every final sheet; its optimal solitaire value is therefore an upper bound on
Bonus B's.  Per R15 option, a solve in a fresh process (after a JIT warm-up on a tiny pad in
that process), on ``T`` threads: the bound, the configurations solved, CPU and wall
seconds, peak RSS, and the load average before and after (the machine is shared).

``--lower`` solves instead the game H with the same moves and the final score h = (the rows'
points) - 5 x penalties, at most Bonus B's on every final sheet: its exact value V_H is a
PROVED lower bound (research/bonus_b_bound.py, ``solve_lower``).  Then ``N`` games (seeds
``S`` to ``S + N - 1``) of H's optimal policy pi in the real game through the rules core
(research/bonus_b_lower.py), and of pi with a look at the real rewards (``one-ply``), on the
same dice: each mean (the real BB8 score) is an ESTIMATE of a lower bound of Bonus B's value,
with its 95% interval (1.96 standard errors), printed beside V_H and the upper bound.

``--exact`` solves Bonus B itself, exactly (research/bonus_b_exact.py): the value, CPU and
wall seconds, peak RSS, load average; ``--save PREFIX`` writes the start value and the
table to ``PREFIX-off.txt`` / ``PREFIX-off.npy`` (``-on`` under the R15 option), ``--load
PREFIX`` reads them instead of solving.  ``--montecarlo GAMES`` then plays that many games
(seeds ``S`` ...) of the table's best plan through the rules core (``GameState.play_plan``,
research/bonus_b_lower.py's ``play_game``): mean, standard error, and the distance of the
mean from the exact value in standard errors.

    PYTHONPATH=. python benchmarks/bench_bonus_b_bound.py --exact [--a2 ...] [--threads T]
        [--save PREFIX | --load PREFIX] [--montecarlo GAMES] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_double_b import openings

from qwixx_math.model import Sheet
from qwixx_math.ruleset import Ruleset
from research.bonus_b_bound import RelaxedTable, solve_lower, solve_relaxed
from research.bonus_b_exact import ExactTable, exact_table, solve_exact
from research.bonus_b_lower import play_game
from research.chain_state import tiny_layout


def _warm_up() -> None:
    """Compile the kernels on a tiny Bonus B pad (two rows of five)."""
    symbols = {"circle": [["red", 1], ["yellow", 1]], "diamond": [["red", 2], ["yellow", 4]],
               "square": [["red", 0], ["yellow", 2]], "octagon": [["red", 3], ["yellow", 3]],
               "star": [["red", 4], ["yellow", 0]]}
    solve_relaxed(tiny_layout("warm", "ad", 5, symbols=symbols))


#: The upper bounds this benchmark printed (research/NOTEBOOK.md), per R15 option.
UPPER = {False: 193.934261, True: 194.680747}


def _interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:.2f} (95% interval {mean - half:.2f} to {mean + half:.2f})"


def _games(table: RelaxedTable, a2: bool, games: int, seed: int) -> None:
    """``games`` games of pi and of pi with the one-ply look, the same seeds: the means of
    the real score with their 95% intervals, and the paired difference."""
    ruleset = Ruleset(1, action2_after_game_end=a2)
    cpu, wall = time.process_time(), time.perf_counter()
    found = {name: [float(play_game(table, ruleset, seed + g, name == "one-ply").score)
                    for g in range(games)] for name in ("pi", "one-ply")}
    for name, scores in found.items():
        print(f"  {name} in the real game: mean {_interval(scores)}, an ESTIMATE of a lower "
              f"bound; proved: {table.start_value():.2f} to {UPPER[a2]:.2f}", flush=True)
    diff = [a - b for a, b in zip(found["one-ply"], found["pi"], strict=True)]
    print(f"  one-ply - pi: {_interval(diff)}; {games:,} games each, seeds {seed} to "
          f"{seed + games - 1}; {time.process_time() - cpu:.0f} s CPU, "
          f"{time.perf_counter() - wall:.0f} s wall, load average {os.getloadavg()[0]:.1f}",
          flush=True)


def _progress(cpu: float, wall: float) -> Callable[[int, int], None]:
    """A solve's ``progress``: a line on stderr at most once a minute (configurations, CPU
    and wall seconds since ``cpu``, ``wall``, load average)."""
    shown = [0.0]

    def progress(done: int, total: int) -> None:
        if time.perf_counter() - shown[0] >= 60 or done == total:
            shown[0] = time.perf_counter()
            print(f"  {done:,} of {total:,} configurations, {time.process_time() - cpu:.0f} s "
                  f"CPU, {time.perf_counter() - wall:.0f} s wall, load average "
                  f"{os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)

    return progress


def _one(a2: bool, threads: int, lower: bool = False, games: int = 0, seed: int = 0) -> None:
    from qwixx_math.layouts import BONUS_B

    _warm_up()
    load = os.getloadavg()
    cpu, wall = time.process_time(), time.perf_counter()
    progress = _progress(cpu, wall)
    table = (solve_lower if lower else solve_relaxed)(BONUS_B, a2, threads, progress)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"bonus-b, R15 option {'on' if a2 else 'off'}: {'lower' if lower else 'upper'} "
          f"bound (proved: exact value of a relaxed game) {table.start_value():.6f}; "
          f"{table.configurations:,} "
          f"configurations, {table.data.size:,} values; {cpu:.1f} s CPU, {wall:.1f} s wall, "
          f"{threads} threads; peak RSS {rss:,.0f} MB; load average {load[0]:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after", flush=True)
    if lower and games:
        _games(table, a2, games, seed)


def _montecarlo(table: ExactTable, a2: bool, games: int, seed: int) -> None:
    """``games`` games of the exact table's best plan in the real game: the mean score, its
    standard error and its distance from the exact value in standard errors."""
    ruleset = Ruleset(1, action2_after_game_end=a2)
    cpu, wall = time.process_time(), time.perf_counter()
    scores = [float(play_game(table, ruleset, seed + g).score) for g in range(games)]
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / len(scores) ** 0.5
    exact = table.start_value()
    print(f"  optimal play through the rules core: {mean:.2f} +- {se:.2f} (standard error), "
          f"{(mean - exact) / se:+.2f} SE from the exact {exact:.6f}; {games:,} games, seeds "
          f"{seed} to {seed + games - 1}; {time.process_time() - cpu:.0f} s CPU, "
          f"{time.perf_counter() - wall:.0f} s wall, load average {os.getloadavg()[0]:.1f}",
          flush=True)


def _exact(a2: bool, threads: int, games: int, seed: int, save: str | None,
           load: str | None) -> None:
    from qwixx_math.layouts import BONUS_B

    option = "on" if a2 else "off"
    if load is not None:
        table = exact_table(BONUS_B, a2, np.load(f"{load}-{option}.npy", mmap_mode="r"))
        print(f"bonus-b, R15 option {option}: exact value {table.start_value():.6f} "
              f"(the table {load}-{option}.npy)", flush=True)
    else:
        _warm_up()
        load_before = os.getloadavg()
        cpu, wall = time.process_time(), time.perf_counter()
        table = solve_exact(BONUS_B, a2, threads, _progress(cpu, wall))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        nan = int(np.isnan(table.data).sum())
        print(f"bonus-b, R15 option {option}: EXACT value {table.start_value():.6f}; "
              f"{table.configurations:,} configurations, {table.data.size:,} values "
              f"({nan:,} NaN: lanes no game reaches); {cpu:.1f} s CPU, {wall:.1f} s wall, "
              f"{threads} threads; peak RSS {rss:,.0f} MB; load average "
              f"{load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after", flush=True)
        if save is not None:
            np.save(f"{save}-{option}.npy", table.data)
            Path(f"{save}-{option}.txt").write_text(f"{table.start_value():.9f}\n")
    _report_openings(table, option)
    if games:
        _montecarlo(table, a2, games, seed)


class _Opened:
    """An :class:`ExactTable` as :func:`bench_double_b.openings` reads a table."""

    def __init__(self, table: ExactTable) -> None:
        self.table = table
        self.start_value = table.start_value()

    def value(self, sheet: Sheet) -> float:
        return self.table.value(sheet)


def _report_openings(table: ExactTable, option: str) -> None:
    """The best opening marks: the value after one cross (no symbol completes with one)
    before the next roll, minus the start value; the best five and the best of each row."""
    ranked = openings(_Opened(table), table.sheet)
    print(f"bonus-b, R15 option {option}: opening marks, best five: " + ", ".join(
        f"{row} {number} {delta:+.2f}" for delta, row, number in ranked[:5]), flush=True)
    best: dict[str, tuple[float, int]] = {}
    for delta, row, number in ranked:
        best.setdefault(row, (delta, number))
    print(f"bonus-b, R15 option {option}: best opening per row: " + ", ".join(
        f"{row} {number} {delta:+.2f}" for row, (delta, number) in best.items()), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2", choices=("both", "off", "on"), default="both")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--lower", action="store_true",
                        help="the proved lower bound and its policy's games")
    parser.add_argument("--games", type=int, default=2000,
                        help="with --lower: games per policy (0: none)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--exact", action="store_true", help="solve Bonus B exactly")
    parser.add_argument("--montecarlo", type=int, default=0, metavar="GAMES",
                        help="with --exact: games of the exact table's best plan")
    parser.add_argument("--save", metavar="PREFIX", help="with --exact: write the table")
    parser.add_argument("--load", metavar="PREFIX", help="with --exact: read the table")
    parser.add_argument("--one", choices=("off", "on"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.games == 1 or args.games < 0:
        parser.error("--games must be 0 or at least 2 (a standard error needs two games)")
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    if args.montecarlo == 1 or args.montecarlo < 0:
        parser.error("--montecarlo must be 0 or at least 2")
    if not args.exact and (args.montecarlo or args.save or args.load):
        parser.error("--montecarlo, --save and --load need --exact")
    if args.save and args.load:
        parser.error("--save and --load exclude each other")
    if args.one is not None:
        if args.exact:
            _exact(args.one == "on", args.threads, args.montecarlo, args.seed, args.save,
                   args.load)
        else:
            _one(args.one == "on", args.threads, args.lower, args.games, args.seed)
        return 0
    for a2 in {"both": ("off", "on"), "off": ("off",), "on": ("on",)}[args.a2]:
        extra = ["--lower"] * args.lower
        if args.exact:
            extra += ["--exact", "--montecarlo", str(args.montecarlo)]
            extra += ["--save", args.save] if args.save else []
            extra += ["--load", args.load] if args.load else []
        subprocess.run([sys.executable, __file__, "--one", a2, "--threads", str(args.threads),
                        "--games", str(args.games), "--seed", str(args.seed), *extra],
                       check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
