"""Solve solitaire Qwixx exactly and ask the table for advice.

    python examples/solve_solitaire.py --official   # the real game: 20-60 s the first
                                                    # time, then loaded from the cache
    python examples/solve_solitaire.py              # a tiny variant, in about a second

Prints the optimal expected score from the empty sheet under both values of
the R15 option, the value of a position in the middle of a game, and every
legal plan for one roll with the expected final score after it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from qwixx_math.model import Colour, Roll, Sheet
from qwixx_math.rules import GameState
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--official", action="store_true",
                        help="the real game (default: a tiny variant, four rows of five "
                             "numbers, solved in memory)")
    args = parser.parse_args()
    small = not args.official
    variant = Variant.from_letters("aadd", 5, 2, 3, 2) if small else Variant()

    for a2 in (False, True):
        ruleset = Ruleset(players=1, action2_after_game_end=a2)
        table = solve(ruleset, variant, cache=not small, progress=None)
        how = "loaded" if table.loaded else "solved"
        print(f"action2_after_game_end={a2}: optimal expected score {table.start_value:.6f} "
              f"({table.states:,} states, {how} in {table.seconds:.2f} s)")

    ruleset = Ruleset(players=1)
    table = solve(ruleset, variant, cache=not small)
    if small:
        # the rows read 2..6 (red, yellow) and 12..8 (green, blue)
        marks = {Colour.RED: [2, 3], Colour.YELLOW: [2], Colour.GREEN: [11]}
        roll = Roll.of(2, 3, red=2, yellow=1, green=6, blue=5)
    else:
        marks = {Colour.RED: [2, 3, 5, 6], Colour.YELLOW: [4], Colour.GREEN: [12, 11]}
        roll = Roll.of(3, 4, red=2, yellow=5, green=6, blue=1)
    sheet = Sheet.from_marks(marks, penalties=1, layout=variant.sheet)
    state = GameState(ruleset, (sheet,))
    print(f"\nsheet {sheet}: expected final score {table.value(sheet):.4f}")
    print(f"roll {roll}")
    for plan_value in table.plan_values(state, roll):
        plan = plan_value.plan
        print(f"  {plan_value.value:9.4f}  {plan!s:8}  {plan.describe(variant.sheet)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
