"""Qwixx Longo: the exact solitaire solve, its values, openings and advice speed
(docs/variants.md, README's pad table).

    PYTHONPATH=. python benchmarks/bench_longo.py [--cache DIR] [--only-tables]
        [--positions N] [--montecarlo GAMES] [--seed S]

For both R15 options (``action2_after_game_end`` false, then true) the ``longo`` table
(8-sided dice, rows of 15 cells, two lock numbers, no lucky numbers) is solved in a
fresh process from an empty table cache (``--cache DIR/longo`` or a temporary
directory; the JIT is warmed up on a tiny variant first), on every core (2 here).
Printed per solve: wall and CPU seconds, peak RSS (goals: <= 5 minutes wall, <= 8 GB),
the canonical configurations solved and the optimal expected score (exact up to float64
rounding).  The machine is shared: the load average is printed with the figures.

Then, with the R15-default table loaded: the symmetry group, the **opening marks** (the
value of the sheet after one mark, before the next roll, minus the start value), the
mean latency of ``Advisor.advise`` over ``--positions`` positions drawn by seeded
near-optimal play with 8-sided dice (goal <= 1 ms per call), and ``--montecarlo`` games
(default 1,000) of that optimal policy through the rules core: their mean with its
standard error and how many standard errors it lies from the exact value (an ESTIMATE).
``--only-tables`` skips the solves and reads the tables ``--cache`` holds; ``--solve
default|option`` solves and reads back one of them (the R15-default table must be solved
or in ``--cache``: the openings and the play use it).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_double_b import openings, report_solve, report_table

from qwixx_math.layouts import LONGO
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None,
                        help="solve into DIR/longo and keep the tables (it must not hold "
                             "them yet); default a temporary directory")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--montecarlo", type=int, default=1000, metavar="GAMES",
                        help="games of optimal play to check the value (0: none)")
    parser.add_argument("--only-tables", action="store_true",
                        help="skip the solves: read the tables --cache already holds")
    parser.add_argument("--solve", choices=("both", "default", "option"), default="both",
                        help="which R15 tables to solve and read back (the R15-default one "
                        "must be solved or in --cache: the openings and play use it)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    name = LONGO.name
    with tempfile.TemporaryDirectory() as temporary:
        root = args.cache if args.cache is not None else Path(temporary)
        cache = root / name
        wanted = {"both": (False, True), "default": (False,), "option": (True,)}[args.solve]
        for a2 in () if args.only_tables else wanted:
            report_solve(name, a2, cache)
        for a2 in wanted:  # the tables this run solved (or, --only-tables, found)
            table = solve(Ruleset(players=1, action2_after_game_end=a2), layout=LONGO,
                          cache=cache, progress=False)
            assert table.loaded
            print(f"{name} (action2_after_game_end={a2}): start value "
                  f"{table.start_value:.6f} (read from the table)")
        report_table(name, LONGO, cache, args.positions, args.montecarlo, args.seed)
        table = solve(Ruleset(players=1), layout=LONGO, cache=cache, progress=False)
        print(f"{name} worst opening: " + ", ".join(
            f"{row} {number} {delta:+.2f}" for delta, row, number in openings(table, LONGO)[-1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
