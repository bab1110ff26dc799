"""Qwixx Connected, the Steps: the exact solitaire solves, their values, openings and
advice speed (docs/variants.md, README's pad table).

    PYTHONPATH=. python benchmarks/bench_connected_steps_solve.py
        [--layout connected-steps ...] [--cache DIR] [--only-tables] [--a2 both|off|on]
        [--positions N] [--montecarlo GAMES] [--seed S] [--compare DIR]

For each layout (default ``connected-steps`` and ``connected-steps-s21``) and each R15
option (``action2_after_game_end`` false, then true) the table is solved in a fresh
process from an empty table cache (``--cache DIR/LAYOUT`` or a temporary directory; the
JIT is warmed up on a tiny variant first, so the figure is the solve, not numba's
compile), on every core (2 here), **one solve at a time**.  Printed per solve: wall and
CPU seconds, peak RSS (goals: <= 5 minutes wall, <= 8 GB), the stored values and the
optimal expected score (exact up to float64 rounding; the steps' fifth group, CS2,
included).

Then, with the R15-default table loaded: the opening marks (the value of the sheet after
one mark, before the next roll, minus the start value; the best five and the best of each
row), the mean latency of ``Advisor.advise`` over ``--positions`` positions (goal <= 1 ms
per call) and ``--montecarlo`` games of the optimal policy through the rules core (an
ESTIMATE: mean with its standard error, and how many standard errors from the exact
value).  With ``--compare DIR``, each solved table is compared with the one in
``DIR/LAYOUT`` (solved earlier, e.g. by another commit), every value bit for bit; the
exit code is 1 if any differs or is missing.  The machine is shared: the load average is
printed with the figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bench_double_b import compare_tables, report_option_play, report_solve, report_table

from qwixx_math.layouts import LAYOUTS, SheetLayout, layout_named
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve
from qwixx_math.solver.cache import table_filename

STEPS_PADS = tuple(name for name, layout in LAYOUTS.items() if layout.steps)


def main() -> int:
    return pads_main(__doc__ or "", STEPS_PADS)


def compare_with(name: str, layout: SheetLayout, a2: bool, cache: Path, other: Path
                 ) -> bool:
    """Compare the table of ``layout`` (R15 option ``a2``) in ``cache`` with the one in
    ``other`` (:func:`bench_double_b.compare_tables`); False if they differ or ``other``
    does not hold it (it is not solved there)."""
    label = f"{name} (action2_after_game_end={a2})"
    if not (other / table_filename(Variant(layout), a2)).is_file():
        print(f"{label}: {other} holds no table to compare with", flush=True)
        return False
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    return compare_tables(label, solve(ruleset, layout=layout, cache=cache, progress=False),
                          solve(ruleset, layout=layout, cache=other, progress=False))


def pads_main(doc: str, pads: tuple[str, ...]) -> int:
    """Solve and report the layouts ``pads`` (the command line of ``doc``'s benchmark;
    bench_connected_chain_solve.py uses it too)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--layout", action="append", choices=pads)
    parser.add_argument("--cache", type=Path, default=None,
                        help="solve into DIR/LAYOUT and keep the tables (it must not hold "
                             "them yet); default a temporary directory")
    parser.add_argument("--a2", choices=("both", "off", "on"), default="both",
                        help="which R15 options to solve (default both)")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--montecarlo", type=int, default=1000, metavar="GAMES",
                        help="games of optimal play to check the value (0: none)")
    parser.add_argument("--only-tables", action="store_true",
                        help="skip the solves: read the tables --cache already holds")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--compare", type=Path, default=None, metavar="DIR",
                        help="compare each table with the one in DIR/LAYOUT (solved "
                             "earlier, e.g. by another commit): every value bit for bit")
    args = parser.parse_args()
    options = {"both": (False, True), "off": (False,), "on": (True,)}[args.a2]
    agree = True
    with tempfile.TemporaryDirectory() as temporary:
        root = args.cache if args.cache is not None else Path(temporary)
        for name in args.layout or pads:
            layout = layout_named(name)
            cache = root / name
            for a2 in () if args.only_tables else options:
                report_solve(name, a2, cache)
            for a2 in options if args.compare is not None else ():
                agree &= compare_with(name, layout, a2, cache, args.compare / name)
            if True in options and args.montecarlo:
                report_option_play(name, layout, cache, args.montecarlo, args.seed)
            if False not in options:
                continue
            report_table(name, layout, cache, args.positions, args.montecarlo, args.seed)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
