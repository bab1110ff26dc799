"""Qwixx Connected Steps against the official sheet, by simulation (docs/variants.md).

    PYTHONPATH=. python benchmarks/bench_connected_steps.py [--games N] [--seed S]

The exact solver does not handle step cells yet (CS2), so this measures what the steps
add to one fixed strategy: the ``greedy`` arena player (fewest skips, docs/policies.md)
plays ``N`` solitaire games, game ``g`` with dice from ``seed + g`` (the games of
``bench_double_b.py``).  Play is unchanged on a steps sheet (CS1) and greedy never looks
at the score, so every game is the same on each sheet; only the fifth score group
T(crossed step cells) differs (CS2).  Per staircase it prints the mean crossed step cells
and the mean score with its 95% interval (an ESTIMATE: mean +- 1.96 standard errors).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench_double_b import greedy_game  # the same greedy solitaire games

from qwixx_math.layouts import LAYOUTS, OFFICIAL
from qwixx_math.model import Sheet


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    start = time.perf_counter()
    ends = [greedy_game(OFFICIAL, args.seed + g).sheets[0] for g in range(args.games)]
    sheets = [name for name, la in LAYOUTS.items() if la.steps]
    for name in ["official", *sheets]:
        layout = LAYOUTS[name]
        on = [Sheet(s.masks, s.penalties, layout) for s in ends]
        scores = [s.score for s in on]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        steps = statistics.fmean(s.steps_crossed for s in on)
        print(f"{name}: greedy solitaire mean score {mean:.2f} (95% interval "
              f"{mean - half:.2f} to {mean + half:.2f}; estimate, {args.games} games), "
              f"{steps:.2f} step cells crossed")
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
