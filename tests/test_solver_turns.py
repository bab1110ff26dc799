"""The solver's statement of a solitaire turn (solver.plans) against the rules core.

The naive solver and SolverTable.plan_values rely on solver.plans; here it is
checked against qwixx_math.rules (the project's reference core) on random
solitaire positions and rolls of the official game: the same plans, leading to
the same sheets, for both values of the R15 option.  Then the named rules one by one.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet
from qwixx_math.model import TurnPlan as CoreTurnPlan
from qwixx_math.rules import GameState, legal_plans, new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import RowState, TurnPlan, Variant, turn_outcomes
from qwixx_math.solver.plans import Outcome

OFFICIAL = Variant()


def rows_of(sheet: Sheet) -> tuple[RowState, ...]:
    """A solitaire sheet as the solver's row states (closed = locked by this player)."""
    out = []
    for c in COLOURS:
        mask = sheet.masks[c.index]
        if sheet.is_locked(c):
            out.append(RowState.locked(sheet.count(c)))
        elif mask:
            out.append(RowState(marks=mask.bit_count(), last=mask.bit_length() - 1))
        else:
            out.append(RowState())
    return tuple(out)


def solver_roll(roll: Roll) -> tuple[int, int, dict[int, int]]:
    return roll.white[0], roll.white[1], {
        c.index: d for c, d in zip(COLOURS, roll.coloured, strict=True) if d is not None
    }


def solver_plan(plan: CoreTurnPlan) -> TurnPlan:
    def mark(m: object) -> tuple[int, int] | None:
        if m is None:
            return None
        return (m.colour.index, m.number)  # type: ignore[attr-defined]

    return TurnPlan(mark(plan.action1), mark(plan.action2))


def skip(sheet: Sheet, mark: Mark) -> int:
    """How many boxes a mark skips (before the action-1 mark of the same turn)."""
    last = sheet.masks[mark.colour.index].bit_length() - 1
    return mark.colour.position(mark.number) - last - 1


def random_position(rng: random.Random, ruleset: Ruleset) -> GameState:
    """A position, not yet over, of a solitaire game of random (mostly marking) play."""
    state = new_game(ruleset=ruleset)
    seen = []
    while not state.is_over:
        seen.append(state)
        roll = random_roll(rng, state.dice_in_play)
        plans = legal_plans(state, roll)
        marking = [p for p in plans if not p.penalty]
        if not marking:
            choice = plans[0]  # the penalty
        elif rng.random() < 0.85:
            # the plan that skips fewest boxes, so that rows fill up and close
            choice = min(marking, key=lambda p: sum(skip(state.sheets[0], m) for m in p.marks))
        else:
            choice = rng.choice(marking)
        state = state.play_plan(roll, choice)
    # late positions (closing rows, last penalty) are the interesting ones
    return seen[max(0, len(seen) - 1 - int(rng.expovariate(0.15)))]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), a2=st.booleans())
def test_plans_and_outcomes_agree_with_the_rules_core(seed: int, a2: bool) -> None:
    rng = random.Random(seed)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    state = random_position(rng, ruleset)
    roll = random_roll(rng, state.dice_in_play)
    sheet = state.sheets[0]
    rows = rows_of(sheet)
    assert {i for i, r in enumerate(rows) if r.closed} == {c.index for c in state.closed}
    ours = {o.plan: o for o in turn_outcomes(OFFICIAL, ruleset.action2_after_action1_end,
                                             rows, sheet.penalties, solver_roll(roll))}
    core = {solver_plan(p): p for p in legal_plans(state, roll)}
    assert set(ours) == set(core)
    for plan, outcome in ours.items():
        after = state.play_plan(roll, core[plan])
        assert outcome.rows == rows_of(after.sheets[0])
        assert outcome.penalties == after.sheets[0].penalties
        assert outcome.game_over == after.is_over


def outcomes(rows: tuple[RowState, ...], roll: tuple[int, int, dict[int, int]],
             a2: bool = False, penalties: int = 0) -> dict[TurnPlan, Outcome]:
    return {o.plan: o for o in turn_outcomes(OFFICIAL, a2, rows, penalties, roll)}


EMPTY = (RowState(),) * 4
ALL_DICE = {0: 1, 1: 1, 2: 1, 3: 1}


def test_penalty_is_always_a_plan_and_costs_a_box() -> None:
    found = outcomes(EMPTY, (3, 5, ALL_DICE))
    assert found[TurnPlan()].penalties == 1 and found[TurnPlan()].rows == EMPTY
    last = outcomes(EMPTY, (3, 5, ALL_DICE), penalties=3)[TurnPlan()]
    assert last.game_over  # R13


def test_r7_action2_right_of_action1_in_the_same_row() -> None:
    # white 3+5 = 8; red die 1: red 4 or 6 lie left of red 8
    found = outcomes(EMPTY, (3, 5, ALL_DICE))
    assert TurnPlan((0, 8), (0, 4)) not in found
    assert TurnPlan(None, (0, 4)) in found
    # with green 1: green 4, 6 lie right of green 8 (green reads 12..2)
    assert TurnPlan((2, 8), (2, 6)) in found


def test_r8_the_action1_mark_counts_for_the_last_number() -> None:
    four = RowState.open(last=5, marks=4)  # red up to 7, four marks
    rows = (four, RowState(), RowState(), RowState())
    # white 4+4 = 8 in red, then white 6 + red 6 = red 12 with five marks
    found = outcomes(rows, (4, 6, {0: 6, 1: 1, 2: 1, 3: 1}))
    assert TurnPlan((0, 10), (0, 12)) in found
    assert found[TurnPlan((0, 10), (0, 12))].rows[0] == RowState.locked(7)
    assert TurnPlan(None, (0, 12)) not in found  # four marks only


def test_r9_a_row_closed_in_action1_loses_its_die() -> None:
    five = RowState.open(last=8, marks=5)
    rows = (five, RowState(), RowState(), RowState())
    found = outcomes(rows, (6, 6, {0: 6, 1: 6, 2: 1, 3: 1}))
    closing = TurnPlan((0, 12), None)
    assert found[closing].rows[0] == RowState.locked(7)
    assert not [p for p in found if p.action1 == (0, 12) and p.action2 and p.action2[0] == 0]
    assert TurnPlan((0, 12), (1, 12)) not in found  # yellow 12 needs five yellow marks
    assert TurnPlan((0, 12), (1, 11)) not in found  # white 6 + yellow 6 is 12 only
    found = outcomes(rows, (6, 6, {0: 6, 1: 1, 2: 1, 3: 1}))
    assert TurnPlan((0, 12), (1, 7)) in found


@pytest.mark.parametrize("a2", [False, True])
def test_r15_action2_after_the_game_ended_in_action1(a2: bool) -> None:
    five = RowState.open(last=8, marks=5)
    rows = (five, RowState(), RowState.locked(8), RowState())  # green already closed
    found = outcomes(rows, (6, 6, {0: 6, 1: 1, 3: 1}), a2=a2)
    assert found[TurnPlan((0, 12), None)].game_over  # R14: second colour closed
    after = [p for p in found if p.action1 == (0, 12) and p.action2 is not None]
    assert bool(after) == a2
    if a2:
        assert found[TurnPlan((0, 12), (1, 7))].game_over


def test_turn_outcomes_validates_its_input() -> None:
    with pytest.raises(ValueError, match="R4/R9"):
        turn_outcomes(OFFICIAL, False, EMPTY, 0, (1, 1, {0: 1}))
    with pytest.raises(ValueError, match="R1"):
        turn_outcomes(OFFICIAL, False, EMPTY, 0, (1, 7, ALL_DICE))
    with pytest.raises(ValueError, match="game is over"):
        turn_outcomes(OFFICIAL, False, EMPTY, 4, (1, 1, ALL_DICE))
    with pytest.raises(ValueError, match="rows"):
        turn_outcomes(OFFICIAL, False, EMPTY[:3], 0, (1, 1, ALL_DICE))
    with pytest.raises(ValueError, match="R8"):
        turn_outcomes(OFFICIAL, False, (RowState.open(10, 3), *EMPTY[1:]), 0, (1, 1, ALL_DICE))


def test_colour_helpers_match_the_core() -> None:
    for c in Colour:
        for q in range(11):
            assert OFFICIAL.number_at(c.index, q) == c.number(q)
            assert OFFICIAL.position_of(c.index, c.number(q)) == q
