"""The rules core's fast move generators on Double A and Big Points against the rules'
own reasons, the slow obvious definition: a mark is legal exactly when ``why_not_mark`` (or
``why_not_bonus`` / ``why_not_bonus_action2`` for a bonus cross) finds nothing against it,
listed in the documented order.  States come from seeded random games (other players
crossing too), every roll of a random sample."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bonus_a import played_states

from qwixx_math.big_points import (
    BonusMark,
    bonus_action1,
    bonus_action2,
    why_not_bonus,
    why_not_bonus_action2,
)
from qwixx_math.layouts import BIG_POINTS, DOUBLE_A
from qwixx_math.model import COLOURS, Mark
from qwixx_math.rules import (
    GameState,
    Phase,
    legal_action1,
    legal_action2,
    random_roll,
    why_not_mark,
)
from qwixx_math.ruleset import BonusTrigger, Ruleset


def rolled_states(layout_seed: tuple[object, int]) -> list[GameState]:
    """Each state of a seeded game, rolled with a random roll of the dice in play."""
    layout, seed = layout_seed
    rng = random.Random(seed)
    return [game.with_roll(random_roll(rng, game.dice_in_play))
            for game in played_states(layout, seed) if not game.is_over]  # type: ignore[arg-type]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32))
def test_double_a_action1_is_every_mark_the_rules_allow_in_colour_order(seed: int) -> None:
    for rolled in rolled_states((DOUBLE_A, seed)):
        white = rolled.roll.white_sum  # type: ignore[union-attr]
        for player in range(len(rolled.sheets)):
            expected = [Mark(colour, white, second=second) for colour in COLOURS
                        for second in (False, True)
                        if why_not_mark(rolled, player, colour, white, second=second) is None]
            got = list(legal_action1(rolled, player))
            assert got == expected, (str(rolled.sheets[player]), str(rolled.roll))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32))
def test_double_a_action2_is_every_mark_the_rules_allow(seed: int) -> None:
    for rolled in rolled_states((DOUBLE_A, seed)):
        state = rolled.with_action1([None] * len(rolled.sheets))
        if state.phase is not Phase.ACTION2:
            continue
        player = state.active
        expected = {Mark(colour, n, second=second) for colour in COLOURS
                    for n in range(2, 13) for second in (False, True)
                    if why_not_mark(state, player, colour, n, second=second) is None}
        got = legal_action2(state)
        assert set(got) == expected and len(got) == len(expected), str(state.sheets[player])


@pytest.mark.parametrize("trigger", list(BonusTrigger))
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_big_points_bonus_crosses_are_every_one_the_rules_allow(trigger: BonusTrigger,
                                                              seed: int) -> None:
    """Action 1: the white sum's bonus cells, RY then GB; action 2: every bonus cell
    ``why_not_bonus_action2`` allows, RY then GB, left to right."""
    ruleset = Ruleset(2, bp_colour_trigger=trigger)
    every = [BonusMark.of(row, n) for row in (0, 1) for n in range(2, 13)]
    for rolled in rolled_states((BIG_POINTS, seed)):
        roll = rolled.roll
        assert roll is not None
        for sheet in rolled.sheets:
            assert bonus_action1(sheet, roll.white_sum) == tuple(
                mark for mark in every
                if mark.number == roll.white_sum and why_not_bonus(sheet, mark) is None)
            for out in (frozenset(), rolled.closed, frozenset(COLOURS[1:3])):
                got = bonus_action2(sheet, roll, out, ruleset)
                assert got == tuple(
                    mark for mark in sorted(every, key=lambda m: (m.row, m.column))
                    if why_not_bonus_action2(sheet, mark, roll, out, ruleset) is None)


def test_the_sampled_states_offer_the_pads_extra_crosses() -> None:
    """The states above reach what they check: second crosses and bonus crosses offered."""
    seconds = sum(m.second for rolled in rolled_states((DOUBLE_A, 1))
                  for p in (0, 1) for m in legal_action1(rolled, p))
    bonus = sum(len(bonus_action1(sheet, rolled.roll.white_sum))  # type: ignore[union-attr]
                for rolled in rolled_states((BIG_POINTS, 1)) for sheet in rolled.sheets)
    assert seconds > 0 and bonus > 0
