"""Bonus B's exact solver (research/bonus_b_exact.py) against a plain reference.

On the tiny Bonus B pads of research/tests/test_bonus_b_state.py (built through the public
layout reader, every symbol placed so that every reward, the circle's and diamond's forced
crosses and their nesting occur):

* the REFERENCE is ``research.chain_state.FullSolver`` with the REAL score (BB8):
  memoised recursion over full sheets through the rules core's ``legal_plans`` and
  ``GameState.play_plan`` (the forced crosses are the rules core's), exact ``Fraction``s;
* the fast solver's value equals it, to 1e-9, on the empty sheet and on EVERY full sheet
  the reference reached (mapped to its table entry: frontiers, counts, the closed row's
  count, the undecided symbol bits, penalties; the closed rows' points and a paid
  octagon added), under both R15 Options;
* it lies between the proved lower bound's and upper bound's values
  (research/bonus_b_bound.py) on each of those sheets.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwixx_math.errors import ParseError
from qwixx_math.layouts import OFFICIAL
from qwixx_math.ruleset import Ruleset
from research.bonus_b_bound import solve_lower, solve_relaxed
from research.bonus_b_exact import exact_table, solve_exact
from research.chain_state import FullSolver
from research.tests.test_bonus_b_bound import named_pad

TOLERANCE = 1e-9


def check(name: str, a2: bool) -> None:
    layout = named_pad(name)
    reference = FullSolver(layout, Ruleset(players=1, action2_after_game_end=a2))
    table = solve_exact(layout, a2)
    start = reference.start_value()
    assert abs(table.start_value() - start) <= TOLERANCE
    assert len(reference.memo) > 100
    lower, upper = solve_lower(layout, a2), solve_relaxed(layout, a2)
    assert lower.start_value() < table.start_value() < upper.start_value()
    closed = 0
    for key, sheet in reference.sheets.items():
        value = table.value(sheet)
        assert abs(value - reference.memo[key]) <= TOLERANCE, sheet
        assert lower.value(sheet) - TOLERANCE <= value <= upper.value(sheet) + TOLERANCE, sheet
        closed += bool(sheet.locked)
    # the tables with a closed row (its count a lane) were compared where the pad has them
    assert closed > 0 or layout.closed_rows_to_end == 1
    # the table read back from its values (the benchmark's --load) is the same table
    again = exact_table(layout, a2, table.data.copy())
    assert again.start_value() == table.start_value()


def test_two_rows_equal_the_reference() -> None:
    # two rows of five, two closes end the game: one closed row's count enters the square
    check("two", False)


# Every pad, both R15 Options, not every pair (the three-row pad's Fraction reference alone
# takes minutes; the slow suite's time is budgeted).
SLOW_CASES = [("two", True), ("two6", False), ("one-close", False), ("one-close", True),
              ("three", True)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2"), SLOW_CASES)
def test_exact_solver_equals_reference(name: str, a2: bool) -> None:
    check(name, a2)


def test_a_pad_without_symbols_is_refused() -> None:
    with pytest.raises(ParseError, match="BB1"):
        solve_exact(OFFICIAL)


def test_a_table_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ParseError, match="BB1"):
        exact_table(named_pad("one-close"), False, np.zeros(3))
