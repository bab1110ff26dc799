"""The turn the solver tables are read with is the rules core's (issue 13).

SolverTable.plan_values lists the rules core's legal plans (qwixx_math.rules) and
values each by the table value of the position GameState.play_plan leads to; the
naive reference solver plays the same rules core.  Checked here on random
solitaire positions of the official game (the cached table) for both values of
the R15 option, and on positions where the game ends in the turn.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import random_position

from qwixx_math.model import Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.rules import GameState, legal_plans, new_game, plan_key, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, solve

R, Y, G, B = Colour


@functools.lru_cache(maxsize=2)
def official_table(a2: bool) -> SolverTable:
    return solve(Ruleset(players=1, action2_after_game_end=a2), progress=False)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), a2=st.booleans())
def test_plan_values_are_the_rules_cores_plans_and_outcomes(seed: int, a2: bool) -> None:
    rng = random.Random(seed)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    table = official_table(a2)
    state = random_position(rng, ruleset)
    roll = random_roll(rng, state.dice_in_play)
    plans = table.plan_values(state, roll)
    legal = legal_plans(state, roll)
    assert sorted(pv.plan for pv in plans) == sorted(legal)
    for pv in plans:
        after = state.play_plan(roll, pv.plan)
        expected = float(after.sheets[0].score) if after.is_over else table.value(after)
        assert pv.value == expected
    keys = [(-pv.value, plan_key(state.layout, pv.plan)) for pv in plans]
    assert keys == sorted(keys)
    assert table.best_plan(state, roll) == plans[0]


@pytest.mark.parametrize("a2", [False, True])
def test_a_plan_that_ends_the_game_is_worth_its_score(a2: bool) -> None:
    """R14 (R15): red closes as the second colour in action 1; action 2 follows only
    with the option, and every plan that closes red is then worth the final score."""
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    table = official_table(a2)
    sheet = Sheet.from_marks({R: [2, 3, 4, 5, 6], G: [12, 11, 10, 9, 8, 2]})
    state = GameState(ruleset, (sheet,), closed=frozenset({G}))
    roll = Roll.of(6, 6, red=1, yellow=1, blue=1)
    closing = [pv for pv in table.plan_values(state, roll) if pv.plan.action1 == Mark(R, 12)]
    assert {pv.plan.action2 is not None for pv in closing} == ({False, True} if a2 else {False})
    for pv in closing:
        after = state.play_plan(roll, pv.plan)
        assert after.is_over and pv.value == after.sheets[0].score


def test_the_penalty_plan_is_valued_at_one_more_penalty() -> None:
    table = official_table(False)
    state = new_game(1)
    roll = Roll.of(3, 5, red=1, yellow=1, green=1, blue=1)
    (penalty,) = [pv for pv in table.plan_values(state, roll) if pv.plan == TurnPlan()]
    assert penalty.value == table.value(Sheet.EMPTY.with_penalty())
