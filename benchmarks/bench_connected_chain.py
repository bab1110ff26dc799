"""Qwixx Connected, the Chain against the official sheet, by simulation (docs/variants.md).

    PYTHONPATH=. python benchmarks/bench_connected_chain.py [--games N] [--seed S]

The exact solver does not handle chain pairs yet (CC1), so this estimates the solitaire
score of one fixed strategy: the ``greedy`` arena player (fewest skips, docs/policies.md)
plays ``N`` solitaire games on sheet A (``connected-chain``) and on the official sheet,
game ``g`` with dice from ``seed + g`` (the games of ``bench_double_b.py --greedy``).  Unlike
Connected Steps, play changes on the chain sheet (forced partner crosses, CC1-CC3), so
the games differ.  It prints per sheet the mean score with its 95% interval (an ESTIMATE:
mean +- 1.96 standard errors), the mean partner pairs crossed and the mean turns.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench_double_b import greedy_game  # the same greedy solitaire games

from qwixx_math.layouts import CONNECTED_CHAIN, OFFICIAL


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for layout in (OFFICIAL, CONNECTED_CHAIN):
        start = time.perf_counter()
        ends = [greedy_game(layout, args.seed + g) for g in range(args.games)]
        scores = [e.sheets[0].score for e in ends]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        pairs = statistics.fmean(
            sum(all(e.sheets[0].masks[layout.locks[r].index] >> p & 1 for r, p in pair)
                for pair in layout.chain) for e in ends)
        turns = statistics.fmean(e.turn + 1 for e in ends)
        print(f"{layout.name}: greedy solitaire mean score {mean:.2f} (95% interval "
              f"{mean - half:.2f} to {mean + half:.2f}; estimate, {args.games} games), "
              f"{pairs:.2f} chain pairs crossed, {turns:.1f} turns "
              f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
