"""The ``lookahead`` player's solitaire score beside ``greedy``'s, by simulation, per pad.

    PYTHONPATH=. python benchmarks/bench_strong_pads.py [--layout NAME ...] [--games N] [--seed S]
        [--a2 off|on] [--openings]

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

``--a2 on`` plays every game under the R15 option (``action2_after_game_end`` true; default
``off``, the official rule), and the ``lookahead`` player then values positions with the
solitaire tables of that option (the stand-ins' tables too), so its figures are those of the
R15 option.

``--openings`` plays no game: it prints, per pad, the ``lookahead`` evaluation of the empty
sheet after each single legal first cross (every cross one first roll allows, in action 1
or action 2, applied by the rules core with what it brings: a chain partner, a forced cross),
minus the evaluation of the empty sheet, best five first.  On the four pads without an exact
value this is the HEURISTIC evaluation's ranking, not the optimal one; on a solved pad it is
the exact table's (the best opening marks of docs/variants.md).

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
from qwixx_math.layouts import SheetLayout, layout_named
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet
from qwixx_math.players.greedy import GreedyPlayer
from qwixx_math.players.lookahead import Evaluation, LookaheadPlayer, evaluation_for
from qwixx_math.rules import action1_choices, action1_outcomes, legal_action2, new_game
from qwixx_math.ruleset import Ruleset

DEFAULT_PADS = ("double-a", "connected-chain", "bonus-b", "big-points", "official", "double-b")


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half width of its 95% interval (1.96 standard errors)."""
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / len(values) ** 0.5


def openings(layout: SheetLayout, ruleset: Ruleset, evaluation: Evaluation
             ) -> list[tuple[float, str]]:
    """(evaluation of the sheet after that one first cross minus the empty sheet's, the
    cross), best first, for every cross one first roll allows: the white sum in action 1,
    or white + colour in action 2 after passing, every roll of the whites and of the
    colour dice (all colour dice equal: each colour sum is then some such roll's).  The
    rules core applies each cross and what it brings; a cross is listed once."""
    start = new_game(ruleset=ruleset, layout=layout)
    empty = evaluation.value(Sheet.empty(layout), frozenset())
    found: dict[str, float] = {}

    def record(mark: Mark, sheet: Sheet, closed: frozenset[Colour]) -> None:
        found[str(mark)] = evaluation.value(sheet, closed) - empty

    for w1 in range(1, 7):
        for w2 in range(w1, 7):
            for c in range(1, 7):
                dice = {colour.value: c for colour in COLOURS if colour in start.dice_in_play}
                rolled = start.with_roll(Roll.of(w1, w2, **dice))
                for a1, after in action1_outcomes(rolled, 0, action1_choices(rolled, None, 0)):
                    if a1 is None:
                        for a2 in legal_action2(after):
                            done = after.with_action2(a2)
                            record(a2, done.sheets[0], done.closed)
                    else:
                        record(a1, after.sheets[0], after.closed)
    return sorted(((v, m) for m, v in found.items()), key=lambda x: -x[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", action="append", default=None,
                        help=f"a pad's name (repeatable; default: {', '.join(DEFAULT_PADS)})")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--a2", choices=("off", "on"), default="off",
                        help="R15: action2_after_game_end false (off, default) or true (on)")
    parser.add_argument("--openings", action="store_true",
                        help="print the evaluation's best five first crosses per pad, no games")
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
    ruleset = Ruleset(1, action2_after_game_end=args.a2 == "on")
    if args.openings:
        for layout in layouts:
            evaluation = evaluation_for(layout, ruleset, progress=False)
            what = ("exact table: the optimal ranking" if evaluation.exact else
                    "HEURISTIC evaluation's ranking, not the optimal one")
            best = openings(layout, ruleset, evaluation)
            print(f"{layout.name} first crosses (action2_after_game_end "
                  f"{ruleset.action2_after_game_end}; {what}; evaluation after the cross minus "
                  f"the empty sheet's, {len(best)} crosses), best five: " + ", ".join(
                      f"{mark} {delta:+.2f}" for delta, mark in best[:5]), flush=True)
        return 0
    print(f"{args.games} solitaire games per pad, seeds {args.seed} to "
          f"{args.seed + args.games - 1}, action2_after_game_end {args.a2 == 'on'} (R15)")
    for layout in layouts:
        wall, cpu = time.perf_counter(), time.process_time()
        evaluation = evaluation_for(layout, ruleset, progress=False)
        strong = LookaheadPlayer(ruleset, evaluation)
        greedy = GreedyPlayer()
        ours = [float(solitaire_game(strong, layout, args.seed + g, ruleset).sheets[0].score)
                for g in range(args.games)]
        theirs = [float(solitaire_game(greedy, layout, args.seed + g, ruleset).sheets[0].score)
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
