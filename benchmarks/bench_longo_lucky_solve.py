"""Qwixx Longo with lucky numbers (``longo:A,B``, VARIANTS.md LG3-LG5): the exact solitaire
solve of one lucky pair under the lucky Options, its value, cost and best openings
(docs/variants.md, README's pad table).

    PYTHONPATH=. python benchmarks/bench_longo_lucky_solve.py [--lucky A,B]
        [--lg-lucky-mode instead|additional]
        [--lg-lucky-candidates open_rows|open_with_next_cell] [--r15-option]
        [--cache DIR] [--montecarlo GAMES] [--seed S]

The table of ``longo:A,B`` (default ``longo:5,13``) under the Options ``lg_lucky_mode``
(LG4, default ``instead``) and ``lg_lucky_candidates`` (LG5, default ``open_rows``), R15
default (``--r15-option``: ``action2_after_game_end`` true), is solved in a fresh process
from an empty table cache (``--cache DIR`` or a temporary directory; the JIT is warmed up
on a tiny variant first) on every core (2 here).  Printed: the optimal expected score
(exact up to float64 rounding), wall and CPU seconds, peak RSS, the load average before
and after (the machine is shared); then, from the table: the symmetry group, the best
opening marks (value after one mark minus the start value) and, with ``--montecarlo``,
that many games of the optimal policy through the rules core against the exact value
(an ESTIMATE).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_double_b import load_average, monte_carlo, openings, solve_in_child

from qwixx_math.advice import Advisor
from qwixx_math.layouts import layout_named
from qwixx_math.ruleset import LuckyCandidates, LuckyMode, Ruleset
from qwixx_math.solver import solve, symmetry_group


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lucky", default="5,13", help="the lucky pair A,B (default 5,13)")
    parser.add_argument("--lg-lucky-mode", choices=[m.value for m in LuckyMode],
                        default=LuckyMode.INSTEAD.value)
    parser.add_argument("--lg-lucky-candidates", choices=[c.value for c in LuckyCandidates],
                        default=LuckyCandidates.OPEN_ROWS.value)
    parser.add_argument("--r15-option", action="store_true",
                        help="action2_after_game_end=True (R15 option)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="solve into DIR and keep the table (DIR must not hold it yet); "
                             "default a temporary directory")
    parser.add_argument("--montecarlo", type=int, default=0, metavar="GAMES",
                        help="games of optimal play to check the value (default 0: none)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    name = f"longo:{args.lucky}"
    layout = layout_named(name)
    mode = LuckyMode(args.lg_lucky_mode)
    candidates = LuckyCandidates(args.lg_lucky_candidates)
    ruleset = Ruleset(players=1, action2_after_game_end=args.r15_option, lg_lucky_mode=mode,
                      lg_lucky_candidates=candidates)
    spelled = f"lg_lucky_mode={mode.value}, lg_lucky_candidates={candidates.value}"
    enums = "__import__('qwixx_math.ruleset').ruleset"
    options = (f", lg_lucky_mode={enums}.LuckyMode({mode.value!r}), "
               f"lg_lucky_candidates={enums}.LuckyCandidates({candidates.value!r})")
    with tempfile.TemporaryDirectory() as temporary:
        cache = args.cache if args.cache is not None else Path(temporary)
        before = load_average()
        r = solve_in_child(name, args.r15_option, cache, options)
        assert not r["loaded"], "the table cache was not empty"
        print(f"{name} (action2_after_game_end={args.r15_option}, {spelled}): optimal "
              f"expected score {r['start_value']:.6f}; solved from an empty table cache in "
              f"{r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU, peak RSS "
              f"{r['peak_rss_mb']:.0f} MB; {r['states']:,} stored values, "
              f"{r['canonical']:,} canonical configurations solved; load average before "
              f"{before}, after {load_average()}", flush=True)
        table = solve(ruleset, layout=layout, cache=cache, progress=False)
        assert table.loaded
        print(f"{name}: symmetry group of order {len(symmetry_group(table.variant))}")
        best = openings(table, layout)
        print(f"{name} opening marks (value after the mark minus the start value), best "
              f"five: " + ", ".join(f"{row} {number} {delta:+.2f}"
                                   for delta, row, number in best[:5])
              + f"; worst: {best[-1][1]} {best[-1][2]} {best[-1][0]:+.2f}", flush=True)
        if args.montecarlo:
            mc, se = monte_carlo(Advisor(table), layout, args.montecarlo, args.seed)
            print(f"{name} optimal play through the rules core, {args.montecarlo} games "
                  f"(estimate): mean {mc:.2f} +- {se:.2f} (standard error) against the exact "
                  f"{table.start_value:.6f}: {(mc - table.start_value) / se:+.2f} standard "
                  "errors", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
