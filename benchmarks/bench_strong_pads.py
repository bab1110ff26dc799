"""The ``lookahead`` player's solitaire score beside ``greedy``'s, by simulation, per pad.

    PYTHONPATH=. python benchmarks/bench_strong_pads.py [--layout NAME ...] [--games N] [--seed S]

The four pads the exact solver does not play (Double A, Connected Chain, Bonus B, Big Points,
VARIANTS.md §10.2) have no exact value; the optimal expected score is at least the expected
score of any policy, so the simulated mean of a policy is an ESTIMATE of a LOWER BOUND of the
optimal value, printed with its 95% interval (mean +- 1.96 standard errors).  The
``lookahead`` player (qwixx_math/players/lookahead.py) values each plan's sheet with the
nearest solved table; ``greedy`` is the fewest-skips arena player.  Game ``g`` of every pad
and of both players is played with dice from ``random.Random(seed + g)`` drawn as in
``bench_double_b.py --greedy`` (common dice; the dice of closed rows are not drawn, so the
rolls part once the players close different rows).  The paired difference (lookahead minus
greedy, game by game) is printed with its own 95% interval.

Sanity check (default pads include them): on the official sheet and on Double B the
evaluation is the pad's own exact table, so ``lookahead`` is the optimal solitaire policy
there and its mean must come out near the exact value, which is printed beside it.

Each line gives the CPU and wall seconds of that pad and the load average when it ended
(the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from bench_double_b import solitaire_game  # the dice of the greedy solitaire games

from qwixx_math import QwixxError
from qwixx_math.layouts import layout_named
from qwixx_math.model import Sheet
from qwixx_math.players.greedy import GreedyPlayer
from qwixx_math.players.lookahead import LookaheadPlayer, evaluation_for
from qwixx_math.ruleset import Ruleset

DEFAULT_PADS = ("double-a", "connected-chain", "bonus-b", "big-points", "official", "double-b")


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half width of its 95% interval (1.96 standard errors)."""
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / len(values) ** 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", action="append", default=None,
                        help=f"a pad's name (repeatable; default: {', '.join(DEFAULT_PADS)})")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games must be at least 2 (a standard error needs two games)")
    try:
        layouts = [layout_named(name) for name in args.layout or DEFAULT_PADS]
    except QwixxError as error:
        parser.error(str(error))
    for layout in layouts:
        if layout.faces != 6:
            parser.error(f"{layout.name}: these games roll 6-sided dice")
    ruleset = Ruleset(1)
    print(f"{args.games} solitaire games per pad, seeds {args.seed} to "
          f"{args.seed + args.games - 1}")
    for layout in layouts:
        wall, cpu = time.perf_counter(), time.process_time()
        evaluation = evaluation_for(layout, ruleset, progress=False)
        strong = LookaheadPlayer(ruleset, evaluation)
        greedy = GreedyPlayer()
        ours = [float(solitaire_game(strong, layout, args.seed + g).sheets[0].score)
                for g in range(args.games)]
        theirs = [float(solitaire_game(greedy, layout, args.seed + g).sheets[0].score)
                  for g in range(args.games)]
        mean, half = interval(ours)
        g_mean, g_half = interval(theirs)
        d_mean, d_half = interval([a - b for a, b in zip(ours, theirs, strict=True)])
        if evaluation.exact:
            exact = evaluation.value(Sheet.empty(layout), frozenset())
            what = (f"lookahead = the optimal policy here (exact table), exact value "
                    f"{exact:.2f}; simulated mean")
        else:
            what = "ESTIMATE of a lower bound of the optimal value: lookahead mean"
        print(f"{layout.name}: {what} {mean:.2f} (95% interval {mean - half:.2f} to "
              f"{mean + half:.2f}); greedy {g_mean:.2f} ({g_mean - g_half:.2f} to "
              f"{g_mean + g_half:.2f}); lookahead - greedy {d_mean:+.2f} "
              f"(+-{d_half:.2f}); {time.process_time() - cpu:.0f} s CPU, "
              f"{time.perf_counter() - wall:.0f} s wall, load {os.getloadavg()[0]:.1f}")
        print(f"    evaluation: {evaluation.name}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
