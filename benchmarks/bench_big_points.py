"""Qwixx Big Points: a lower bound on the optimal solitaire expected score (docs/variants.md).

    PYTHONPATH=. python benchmarks/bench_big_points.py [--games N] [--seed S]

The exact solver refuses Big Points (BP1: about 1.5e15 states, VARIANTS.md §1.5), so no
exact value exists.  Any policy's expected score is a **lower bound** on the optimal one;
this benchmark estimates that of a simple policy, ``bp-fewest-skips``, by playing
``--games`` solitaire games (every plan applied by the rules core, dice from ``--seed``):
each turn it takes the plan of :func:`qwixx_math.rules.turn_outcomes` that skips the fewest
cells over the four colour rows and both bonus rows (RY, GB), then makes the most crosses
(``h = crosses/8 - skipped``), the penalty only when nothing can be crossed.  Printed: the
mean score with its 95% interval (an ESTIMATE), the mean bonus crosses, and, on the same
dice, the same policy on the official sheet (the pad's bonus rows are the only difference).
The lower bound is the mean's 95% interval's lower end.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from qwixx_math.layouts import BIG_POINTS, OFFICIAL, SheetLayout
from qwixx_math.model import COLOURS, Roll, Sheet
from qwixx_math.rules import GameState, Phase, new_game, turn_outcomes
from qwixx_math.ruleset import Ruleset


def _masks(sheet: Sheet) -> tuple[int, ...]:
    return (*sheet.masks, *sheet.bonus_rows)


def priority(before: Sheet, after: Sheet) -> float:
    """``crosses/8 - skipped`` of the turn from ``before`` to ``after`` (colour rows and
    bonus rows); the penalty scores below every plan that crosses something."""
    if after.penalties > before.penalties:
        return -100.0
    crosses = skipped = 0
    for old, new in zip(_masks(before), _masks(after), strict=True):
        gained = (new & ~old).bit_count()
        crosses += gained
        skipped += new.bit_length() - old.bit_length() - gained
    return crosses / 8 - skipped


def game(layout: SheetLayout, seed: int) -> GameState:
    """One solitaire game of ``bp-fewest-skips`` on ``layout`` with dice from ``seed``."""
    rng = random.Random(seed)
    state = new_game(ruleset=Ruleset(1), layout=layout)
    while state.phase is not Phase.OVER:
        dice = {c.value: rng.randint(1, 6) for c in COLOURS if c in state.dice_in_play}
        roll = Roll.of(rng.randint(1, 6), rng.randint(1, 6), **dice)
        before = state.sheets[0]
        state = max(turn_outcomes(state, roll), key=lambda s: priority(before, s.sheets[0]))
    return state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for layout in (BIG_POINTS, OFFICIAL):
        start = time.perf_counter()
        ends = [game(layout, args.seed + g) for g in range(args.games)]
        scores = [s.sheets[0].score for s in ends]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        bonus = statistics.fmean(sum(m.bit_count() for m in s.sheets[0].bonus_rows)
                                 for s in ends)
        print(f"{layout.name}: bp-fewest-skips solitaire mean score {mean:.2f} (95% interval "
              f"{mean - half:.2f} to {mean + half:.2f}; an ESTIMATE, {args.games} games, seed "
              f"{args.seed}), {statistics.fmean(s.turn + 1 for s in ends):.1f} turns, "
              f"{bonus:.2f} bonus crosses ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
