"""The greedy player's solitaire score on any 6-sided pad, by simulation (docs/variants.md).

    PYTHONPATH=. python benchmarks/bench_greedy_pads.py [--layout NAME ...] [--games N] [--seed S]

For pads the exact solver does not play, the mean score of one fixed strategy is an honest
figure: the optimal expected score is at least the expected score of any policy, so the
simulated mean of the ``greedy`` arena player (fewest skips, docs/policies.md) is an
ESTIMATE of a lower bound, printed with its 95% interval (mean +- 1.96 standard errors).
Game ``g`` is played with dice from ``seed + g`` on every pad (the games of
``bench_double_b.py --greedy``).  Besides the score it prints the mean turns and, on
Qwixx Double A, the mean number of second crosses (DA1).  Default pads: the official sheet
and Double A.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench_double_b import greedy_game  # the same greedy solitaire games

from qwixx_math import QwixxError
from qwixx_math.layouts import layout_named


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", action="append", default=None,
                        help="a pad's name (repeatable; default: official and double-a)")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games must be at least 2 (a standard error needs two games)")
    try:
        layouts = [layout_named(name) for name in args.layout or ("official", "double-a")]
    except QwixxError as error:
        parser.error(str(error))
    for layout in layouts:
        if layout.faces != 6:
            parser.error(f"{layout.name}: the greedy games roll 6-sided dice (see bench_longo.py)")
        start = time.perf_counter()
        ends = [greedy_game(layout, args.seed + g) for g in range(args.games)]
        scores = [e.sheets[0].score for e in ends]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        seconds = statistics.fmean(sum(bin(m).count("1") for m in e.sheets[0].seconds)
                                   for e in ends)
        extra = f", {seconds:.2f} second crosses" if layout.second_crosses else ""
        print(f"{layout.name}: greedy solitaire mean score {mean:.2f} (95% interval "
              f"{mean - half:.2f} to {mean + half:.2f}; estimate, {args.games} games), "
              f"{statistics.fmean(e.turn + 1 for e in ends):.1f} turns{extra} "
              f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
