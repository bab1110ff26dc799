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
default|option`` solves one of them (the other must be in ``--cache`` already).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_double_b import advice_latency, load_average, monte_carlo, openings, solve_in_child

from qwixx_math.advice import Advisor
from qwixx_math.layouts import LONGO
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import solve, symmetry_group


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
                        help="which R15 tables to solve (the other must be in --cache)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    name = LONGO.name
    with tempfile.TemporaryDirectory() as temporary:
        root = args.cache if args.cache is not None else Path(temporary)
        cache = root / name
        wanted = {"both": (False, True), "default": (False,), "option": (True,)}[args.solve]
        for a2 in () if args.only_tables else wanted:
            before = load_average()
            r = solve_in_child(name, a2, cache)
            assert not r["loaded"], "the table cache was not empty"
            print(f"{name} (action2_after_game_end={a2}): optimal expected score "
                  f"{r['start_value']:.6f}; solved from an empty table cache in "
                  f"{r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU, peak RSS "
                  f"{r['peak_rss_mb']:.0f} MB (goals 300 s, 8000 MB); {r['states']:,} "
                  f"stored states, {r['canonical']:,} canonical configurations solved "
                  f"({r['frozen']:,} written from a frozen row); load average before "
                  f"{before}, after {load_average()}", flush=True)
        for a2 in (False, True):
            table = solve(Ruleset(players=1, action2_after_game_end=a2), layout=LONGO,
                          cache=cache, progress=False)
            assert table.loaded
            print(f"{name} (action2_after_game_end={a2}): start value "
                  f"{table.start_value:.6f} (read from the table)")
        table = solve(Ruleset(players=1), layout=LONGO, cache=cache, progress=False)
        print(f"{name}: symmetry group of order {len(symmetry_group(table.variant))}")
        best = openings(table, LONGO)
        print(f"{name} opening marks (value after the mark minus the start value, R15 "
              f"default), best five: " + ", ".join(
                  f"{row} {number} {delta:+.2f}" for delta, row, number in best[:5]))
        print(f"{name} best opening per row: " + ", ".join(
            f"{row} {number} {delta:+.2f}" for row in (c.value for c in LONGO.locks)
            for delta, r, number in [next(x for x in best if x[1] == row)] if r == row))
        print(f"{name} worst opening: " + ", ".join(
            f"{row} {number} {delta:+.2f}" for delta, row, number in best[-1:]))
        advisor = Advisor(table)
        mean, p99, plans = advice_latency(advisor, args.positions, 1)
        print(f"{name} advise: mean {mean:.3f} ms, p99 {p99:.3f} ms per call over "
              f"{args.positions} positions ({plans:.1f} plans each; goal <= 1 ms; load "
              f"average {load_average()})", flush=True)
        if args.montecarlo:
            mc, se = monte_carlo(advisor, LONGO, args.montecarlo, args.seed)
            gap = (mc - table.start_value) / se
            print(f"{name} optimal play through the rules core, {args.montecarlo} games "
                  f"(estimate): mean {mc:.2f} +- {se:.2f} (standard error) against the "
                  f"exact {table.start_value:.6f}: {gap:+.2f} standard errors", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
