"""Qwixx X-Change: the exact solitaire solve, its values, openings and advice speed
(docs/variants.md, README's pad table).

    PYTHONPATH=. python benchmarks/bench_x_change.py [--cache DIR] [--solve WHICH]
        [--only-tables] [--positions N] [--montecarlo GAMES] [--seed S]

The ``x-change`` table (the official rows, the nine X-Change fields; the state holds the
last field used, VARIANTS.md §9.5) is solved in a fresh process from an empty table
cache (``--cache DIR/x-change``, else a temporary directory; the JIT is warmed up on a
tiny variant first), on every core (2 here), for the R15 options (``action2_after_game_end``
false, then true) and, with ``--solve spend``, for ``xc_field_without_cross=True`` (XC4,
R15 default).  Each table is 3.4 GB: only the R15-default one stays in ``--cache``; the R15
option is solved in a temporary directory and removed after, the XC4 one in memory.
Printed per solve: wall and CPU seconds, peak RSS, the canonical configurations solved
and the optimal expected score (exact up to float64 rounding).  The machine is shared:
the load average is printed with the figures.

Then, with the R15-default table: the symmetry group, the **opening marks** (the value
of the sheet after one mark, before the next roll, minus the start value), the value of
the empty sheet with field f already used, the mean latency of ``Advisor.advise`` over
``--positions`` positions, and ``--montecarlo`` games of that optimal policy through the
rules core (an ESTIMATE: mean, standard error and its distance from the exact value).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_double_b import report_solve, report_table

from qwixx_math.layouts import X_CHANGE
from qwixx_math.model import Sheet
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None,
                        help="solve the R15-default table into DIR/x-change and keep it "
                             "(it must not hold it yet); default a temporary directory")
    parser.add_argument("--solve", choices=("both", "default", "option", "spend"),
                        default="both",
                        help="which tables to solve: both R15 options, one of them, or "
                             "xc_field_without_cross=True (R15 default)")
    parser.add_argument("--only-tables", action="store_true",
                        help="skip the solves: read the R15-default table --cache holds")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--montecarlo", type=int, default=0, metavar="GAMES",
                        help="games of optimal play to check the value (0: none)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    name = X_CHANGE.name
    with tempfile.TemporaryDirectory() as temporary:
        root = args.cache if args.cache is not None else Path(temporary)
        cache = root / name
        if not args.only_tables:
            if args.solve in ("both", "default"):
                report_solve(name, False, cache)
            if args.solve in ("both", "option"):
                with tempfile.TemporaryDirectory() as other:
                    report_solve(name, True, Path(other))
            if args.solve == "spend":  # in memory: no second 3.4 GB file
                report_solve(name, False, None, ", xc_field_without_cross=True")
        if args.solve in ("both", "default") or args.only_tables:
            table = solve(Ruleset(players=1), layout=X_CHANGE, cache=cache, progress=False)
            empty = Sheet.empty(X_CHANGE)
            print(f"{name}: value of the empty sheet with field f already used "
                  "(none, 0..8): " + ", ".join(
                      f"{table.value(empty if f < 0 else empty.with_field(f)):.3f}"
                      for f in range(-1, len(X_CHANGE.exchange))))
            report_table(name, X_CHANGE, cache, args.positions, args.montecarlo, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
