"""Bonus B's proved upper bound (research/bonus_b_bound.py): the relaxed game's fast solver
against a plain reference, and the bound against Bonus B's true value.

On tiny Bonus B pads (built through the public layout reader, every symbol placed so that
the circle's and diamond's forced crosses and their nesting occur):

* the REFERENCE is ``research.chain_state.FullSolver`` with the relaxed terminal: memoised
  recursion over full sheets through the rules core's ``legal_plans`` and
  ``GameState.play_plan`` (the forced crosses are the rules core's, ``qwixx_math.bonus_b``),
  exact ``Fraction``s; only the final score is replaced by (n + 1) / n of the n rows' points + 13
  (5/4 on pad B; the lowest of n rows is at most their mean);
* the fast solver's value equals it, to 1e-9, on the empty sheet and on EVERY full sheet
  the reference reached (mapped to its table entry: codes, closed rows, live bits,
  penalties), under both R15 Options;
* the relaxed value is at least Bonus B's true value (the same FullSolver with the real
  score, BB8) on every one of those sheets, and strictly more on the empty sheet.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from qwixx_math.errors import ParseError
from qwixx_math.layouts import OFFICIAL, SheetLayout
from qwixx_math.model import Sheet, row_points
from qwixx_math.ruleset import Ruleset
from research.bonus_b_bound import RelaxedTable, solve_relaxed
from research.chain_state import FullSolver
from research.tests.test_bonus_b_state import THREE_ROWS, TWO_ROWS, TWO_ROWS_6, pad

TOLERANCE = 1e-9


class RelaxedFullSolver(FullSolver):
    """The reference: Bonus B's moves through the rules core, the relaxed final score."""

    def terminal(self, sheet: Sheet) -> Fraction:
        n = len(sheet.layout.locks)
        rows = sum(row_points(sheet.count(colour)) for colour in sheet.layout.locks)
        return Fraction(n + 1, n) * rows + 13


def named_pad(name: str) -> SheetLayout:
    """The tiny Bonus B pads of these tests (and of research/tests/test_bonus_b_lower.py)."""
    return {
        "two": lambda: pad("b2", "ad", 5, TWO_ROWS),
        "two6": lambda: pad("b6", "ad", 6, TWO_ROWS_6),
        "three": lambda: pad("b3", "ada", 4, THREE_ROWS),
        "one-close": lambda: pad("b1", "ad", 5, TWO_ROWS, penalty_boxes=1,
                                 closed_rows_to_end=1),
    }[name]()


def equals_reference(reference: FullSolver, table: RelaxedTable) -> Fraction:
    """Assert that the fast ``table`` equals the ``reference`` on the empty sheet and on every
    sheet the reference reached; its start value."""
    start = reference.start_value()
    assert abs(table.start_value() - start) <= TOLERANCE
    assert len(reference.memo) > 100
    for key, sheet in reference.sheets.items():
        assert abs(table.value(sheet) - reference.memo[key]) <= TOLERANCE, sheet
    return start


def check(layout: SheetLayout, a2: bool, true_value: bool = True) -> int:
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    reference = RelaxedFullSolver(layout, ruleset)
    start = equals_reference(reference, solve_relaxed(layout, a2))
    if true_value:
        real = FullSolver(layout, ruleset)
        assert start > real.start_value()
        for key, sheet in reference.sheets.items():
            assert reference.memo[key] >= real.value(sheet), sheet
    return len(reference.memo)


def test_one_close_ends_the_game() -> None:
    # two rows of five, one penalty box, one close ends the game
    check(named_pad("one-close"), True)


# Which pad under which R15 Option: every pad and both Options appear, not every pair (the
# Fraction reference on the three-row pad alone takes several minutes, and the slow suite's
# time is budgeted); the three-row pad checks the relaxed value only (``relaxed >= true`` is
# checked on the two-row pads, the one-close pad in the default suite too).
SLOW_CASES = [("two", False, True), ("two", True, True), ("two6", False, True),
              ("one-close", False, True), ("three", True, False)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2", "true_value"), SLOW_CASES)
def test_relaxed_solver_equals_reference(name: str, a2: bool, true_value: bool) -> None:
    check(named_pad(name), a2, true_value)


def test_a_pad_without_symbols_is_refused() -> None:
    with pytest.raises(ParseError, match="BB1"):
        solve_relaxed(OFFICIAL)
