"""Bonus B's proved lower bound (research/bonus_b_bound.py ``solve_lower``) and its policy
(research/bonus_b_lower.py), against plain references on tiny Bonus B pads (the bound tests'
pads, every symbol placed so that the forced crosses and their nesting occur):

* the REFERENCE for H is ``research.chain_state.FullSolver`` with H's terminal: memoised
  recursion over full sheets through the rules core's ``legal_plans`` and
  ``GameState.play_plan``, exact ``Fraction``s, the final score h = (the rows' points) -
  5 * penalties; the fast solver's V_H equals it, to 1e-9, on the empty sheet and on EVERY
  full sheet the reference reached, under both R15 Options;
* V_H <= Bonus B's exact value (the same FullSolver with the real score, BB8) <= the upper
  bound (``solve_relaxed``), on the empty sheet and V_H <= the exact value on every reached
  sheet;
* the policy pi (``choose``), evaluated EXACTLY over the rules core, is worth V_H in H (so
  it is H's optimal policy, not merely a good one), and in the real game between V_H and
  Bonus B's exact value; so is pi with the one-ply look.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from qwixx_math.layouts import SheetLayout
from qwixx_math.model import Sheet, row_points
from qwixx_math.ruleset import Ruleset
from research.bonus_b_bound import lower_terminal, solve_lower, solve_relaxed
from research.bonus_b_lower import play_game, policy_value
from research.chain_state import FullSolver
from research.tests.test_bonus_b_bound import TOLERANCE, equals_reference, named_pad


class LowerFullSolver(FullSolver):
    """The reference: Bonus B's moves through the rules core, the final score h."""

    def terminal(self, sheet: Sheet) -> Fraction:
        rows = sum(row_points(sheet.count(colour)) for colour in sheet.layout.locks)
        return Fraction(rows - 5 * sheet.penalties)


def check(layout: SheetLayout, a2: bool, policy: bool) -> None:
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    reference = LowerFullSolver(layout, ruleset)
    table = solve_lower(layout, a2)
    start = equals_reference(reference, table)
    real = FullSolver(layout, ruleset)
    for key, sheet in reference.sheets.items():
        assert reference.memo[key] <= real.value(sheet), sheet
    exact = real.start_value()
    assert start < exact < solve_relaxed(layout, a2).start_value()
    if policy:
        assert abs(policy_value(table, ruleset, real=False) - start) <= TOLERANCE
        for one_ply in (False, True):
            assert start <= policy_value(table, ruleset, one_ply) <= exact


def test_lower_bound_equals_reference_one_close() -> None:
    check(named_pad("one-close"), False, False)


def test_terminal_h_and_a_game() -> None:
    # h of a final sheet (two rows of five, one penalty box, one close ends the game), and
    # one simulated game ends with a score at least h
    layout = named_pad("one-close")
    table = solve_lower(layout, False)
    assert table.terminal == lower_terminal()
    sheet = play_game(table, Ruleset(players=1), 3)
    rows = sum(row_points(sheet.count(colour)) for colour in layout.locks)
    assert table.terminal.of(sheet) == rows - 5 * sheet.penalties
    assert sheet.score >= table.terminal.of(sheet)


SLOW_CASES = [("one-close", False, True), ("one-close", True, True), ("two", True, True),
              ("two6", False, False)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2", "policy"), SLOW_CASES)
def test_lower_bound_equals_reference(name: str, a2: bool, policy: bool) -> None:
    check(named_pad(name), a2, policy)
