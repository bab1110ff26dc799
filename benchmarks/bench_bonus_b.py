"""Qwixx Bonus, pad B against the official sheet, by simulation (docs/variants.md).

    PYTHONPATH=. python benchmarks/bench_bonus_b.py [--games N] [--seed S]

The exact solver does not handle Bonus B's symbols (BB1), so this estimates the solitaire
score of one fixed strategy: the ``greedy`` arena player (fewest skips, docs/policies.md)
plays ``N`` solitaire games on ``bonus-b`` and on the official sheet, game ``g`` with dice
from ``seed + g`` (the games of ``bench_double_b.py --greedy``).  The greedy player does not
aim for symbols; forced crosses (BB2, BB3) change play, so the games differ.  It prints per
sheet the mean score with its 95% interval (an ESTIMATE: mean +- 1.96 standard errors), how
often each symbol activated, and the mean turns.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench_double_b import greedy_game  # the same greedy solitaire games

from qwixx_math.bonus_b import active_symbols
from qwixx_math.layouts import BONUS_B, OFFICIAL, SYMBOL_NAMES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for layout in (OFFICIAL, BONUS_B):
        start = time.perf_counter()
        ends = [greedy_game(layout, args.seed + g) for g in range(args.games)]
        scores = [e.sheets[0].score for e in ends]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        turns = statistics.fmean(e.turn + 1 for e in ends)
        active = [active_symbols(e.sheets[0]) for e in ends]
        rates = ", ".join(f"{name} {sum(name in a for a in active) / len(ends):.0%}"
                          for name in SYMBOL_NAMES) if layout.symbols else "no symbols"
        print(f"{layout.name}: greedy solitaire mean score {mean:.2f} (95% interval "
              f"{mean - half:.2f} to {mean + half:.2f}; estimate, {args.games} games), "
              f"{turns:.1f} turns; symbols active at the end: {rates} "
              f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
