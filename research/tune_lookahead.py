"""Tuning of the lookahead player's parameters FUTURE_SHARE, SYMBOL_SHARE, CHAIN_SHARE
(qwixx_math/players/lookahead.py).

    PYTHONPATH=. python research/tune_lookahead.py --layout big-points --games 300 0.3 0.5 0.7
    PYTHONPATH=. python research/tune_lookahead.py --layout bonus-b --param SYMBOL_SHARE 0 0.5 1

Plays ``--games`` solitaire games per value on seeds 1,000,000 + g (not the benchmark's 2026 +
g, so that the benchmark's figure is not the best of several tries on its own dice) and prints
each value's mean with its 95% interval.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from bench_double_b import solitaire_game

import qwixx_math.players.lookahead as lookahead
from qwixx_math.layouts import layout_named
from qwixx_math.ruleset import Ruleset

SEED = 1_000_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="big-points")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--param", default="FUTURE_SHARE",
                        choices=["FUTURE_SHARE", "SYMBOL_SHARE", "CHAIN_SHARE"])
    parser.add_argument("shares", nargs="+", type=float)
    args = parser.parse_args()
    layout = layout_named(args.layout)
    evaluation = lookahead.evaluation_for(layout, Ruleset(1), progress=False)
    for share in args.shares:
        setattr(lookahead, args.param, share)
        player = lookahead.LookaheadPlayer(Ruleset(1), evaluation)
        scores = [solitaire_game(player, layout, SEED + g).sheets[0].score
                  for g in range(args.games)]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        print(f"{layout.name} {args.param}={share}: {mean:.2f} +- {half:.2f} "
              f"({args.games} games)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
