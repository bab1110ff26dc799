"""Qwixx Bonus, pad A: the exact solitaire solve, its value and best openings
(docs/variants.md, README's pad table).

    PYTHONPATH=. python benchmarks/bench_bonus_a_solve.py [--cache DIR] [--a2 off|on|both]
        [--only-tables] [--positions N] [--montecarlo GAMES] [--seed S] [--compare DIR]

For each R15 option (``action2_after_game_end`` false, then true under ``--a2 both``) the
``bonus-a`` table is solved in a fresh process from an empty table cache (``--cache DIR``
or a temporary directory; the JIT is warmed up on a tiny variant first, so the figure is
the solve, not numba's compile), on every core (2 here).  Printed per solve: wall and CPU
seconds, peak RSS, the stored values and the optimal expected score (exact up to float64
rounding).  The state is the base game's times the bonus bar's lane, 0 .. 12 (the fields
up to the last one taken, qwixx_math/solver/bar.py), so expect about 4.4 GB and tens of
CPU minutes.

Then, with the R15-default table loaded: the opening marks (the value of the sheet after
one voluntary cross and the forced crosses it causes, BA1-BA3, before the next roll, minus
the start value; the best five and the best of each row), the mean latency of
``Advisor.advise`` over ``--positions`` positions (goal <= 1 ms per call) and, with
``--montecarlo``, games
of the optimal policy through the rules core (an ESTIMATE: mean with its standard error);
with ``--compare DIR``, the values it shares with the table in DIR, bit for bit.
The machine is shared: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bench_double_b import (
    advice_latency,
    compare_tables,
    load_average,
    monte_carlo,
    report_solve,
)

from qwixx_math.advice import Advisor
from qwixx_math.bonus import cross
from qwixx_math.layouts import BONUS_A
from qwixx_math.model import Sheet
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, solve

NAME = "bonus-a"


def openings(table: SolverTable) -> list[tuple[float, str, int]]:
    """(value after that one cross and its forced ones minus the start value, row,
    number), best first."""
    layout = BONUS_A
    out = []
    empty = Sheet.empty(layout)
    for colour, numbers in zip(layout.locks, layout.numbers, strict=True):
        for number in numbers[:-1]:  # the lock number cannot open (R8)
            position = layout.pos[colour.index][number]
            sheet = cross(empty, colour.index, position, frozenset(), False)[0]
            out.append((table.value(sheet) - table.start_value, colour.value, number))
    out.sort(key=lambda x: -x[0])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None,
                        help="solve into DIR and keep the tables (it must not hold them "
                             "yet); default a temporary directory")
    parser.add_argument("--a2", choices=("both", "off", "on"), default="off",
                        help="which R15 options to solve (default off: the R15 default)")
    parser.add_argument("--positions", type=int, default=1000,
                        help="positions of the advice latency figure (0: none)")
    parser.add_argument("--montecarlo", type=int, default=0, metavar="GAMES",
                        help="games of optimal play to check the value (default 0: none)")
    parser.add_argument("--only-tables", action="store_true",
                        help="skip the solves: read the tables --cache already holds")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--compare", type=Path, default=None, metavar="DIR",
                        help="compare the R15-default table with the one in DIR (solved "
                             "earlier, e.g. by another commit): the values both solved "
                             "must be bit-equal")
    args = parser.parse_args()
    options = {"both": (False, True), "off": (False,), "on": (True,)}[args.a2]
    with tempfile.TemporaryDirectory() as temporary:
        cache = args.cache if args.cache is not None else Path(temporary)
        for a2 in () if args.only_tables else options:
            report_solve(NAME, a2, cache)
        if False not in options:
            return 0
        table = solve(Ruleset(players=1), layout=BONUS_A, cache=cache, progress=False)
        if args.compare is not None:
            compare_tables(NAME, table, solve(Ruleset(players=1), layout=BONUS_A,
                                              cache=args.compare, progress=False))
        best = openings(table)
        print(f"{NAME} opening marks (value after the cross and its forced crosses minus "
              f"the start value {table.start_value:.6f}, R15 default), best five: "
              + ", ".join(f"{row} {number} {delta:+.2f}" for delta, row, number in best[:5]))
        print(f"{NAME} best opening per row: " + ", ".join(
            f"{row} {number} {delta:+.2f}" for row in (c.value for c in BONUS_A.locks)
            for delta, r, number in [next(x for x in best if x[1] == row)] if r == row))
        if args.positions:
            mean, p99, plans = advice_latency(Advisor(table), args.positions, args.seed)
            print(f"{NAME} advise: mean {mean:.3f} ms, p99 {p99:.3f} ms per call over "
                  f"{args.positions} positions ({plans:.1f} plans each; goal <= 1 ms; load "
                  f"average {load_average()})", flush=True)
        if args.montecarlo:
            mc, se = monte_carlo(Advisor(table), BONUS_A, args.montecarlo, args.seed)
            print(f"{NAME} optimal play through the rules core, {args.montecarlo} games "
                  f"(estimate): mean {mc:.2f} +- {se:.2f} (standard error) against the "
                  f"exact {table.start_value:.6f}: "
                  f"{(mc - table.start_value) / se:+.2f} standard errors", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
