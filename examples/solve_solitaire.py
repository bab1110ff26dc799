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

from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import RowState, Variant, solve

COLOURS = ("red", "yellow", "green", "blue")


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

    table = solve(Ruleset(players=1), variant, cache=not small)
    if small:
        # red 2 3, yellow 2, green 11 (the rows read 2..6 and 12..8)
        rows = (RowState.open(last=1, marks=2), RowState.open(last=0, marks=1),
                RowState.open(last=1, marks=1), RowState())
        roll = (2, 3, {0: 2, 1: 1, 2: 6, 3: 5})
    else:
        # red 2 3 5 6, yellow 4, green 12 11 (and closed blue would be RowState.locked(n))
        rows = (RowState.open(last=4, marks=4), RowState.open(last=2, marks=1),
                RowState.open(last=1, marks=2), RowState())
        roll = (3, 4, {0: 2, 1: 5, 2: 6, 3: 1})
    print(f"\nposition {rows}, 1 penalty: expected final score {table.value(rows, 1):.4f}")
    print(f"roll: white {roll[0]} and {roll[1]}, colours {roll[2]}")
    for plan_value in table.plan_values(rows, 1, roll):
        plan = plan_value.plan
        parts = []
        for name, mark in (("action 1", plan.action1), ("action 2", plan.action2)):
            if mark is not None:
                parts.append(f"{name}: {COLOURS[mark[0]]} {mark[1]}")
        print(f"  {plan_value.value:9.4f}  {', '.join(parts) or 'penalty'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
