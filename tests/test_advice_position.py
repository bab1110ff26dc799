"""Building positions (:mod:`qwixx_math.position`), the known action 2 of passive advice,
and the words with consequences (:func:`qwixx_math.advice.consequences`).

Issue 32 items 1, 7, 8 and 9 and issue 33 ("no game logic in the CLI") as regression
tests; the new entry points fuzzed with Hypothesis; the consequences checked against
the rules core played step by step.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import game_states, rolls, sheets

from qwixx_math.advice import Advisor, consequences, in_words
from qwixx_math.errors import IllegalMoveError, ParseError, QwixxError
from qwixx_math.model import COLOURS, Colour, Mark, Sheet, TurnPlan
from qwixx_math.notation import parse_plan, parse_roll, parse_sheet
from qwixx_math.position import (
    MAX_STATE_TURN,
    position,
    read_state,
    sheet_position,
    state_from_text,
)
from qwixx_math.rules import GameState, Phase, legal_action2, legal_plans, new_game
from qwixx_math.ruleset import Ruleset

FUZZ = settings(max_examples=30, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

BLUE_CLOSED = "b:12,11,10,9,8,2,lock"


@pytest.fixture(scope="module")
def official() -> Advisor:
    return Advisor.for_ruleset(progress=False)


# -- position ---------------------------------------------------------------------------------

def test_closed_colours_are_the_sheets_locks() -> None:
    state = position(["r:2,3/g:12", BLUE_CLOSED], "w:3,4/r:1/y:2/g:5", active=1)
    assert state.closed == frozenset({Colour.BLUE})
    assert (state.players, state.active, state.phase, state.turn) == (2, 1, Phase.ACTION1, 0)
    assert state.sheets[0] == parse_sheet("r:2,3/g:12")
    # a roll that lacks the die of a colour the sheets closed is accepted: it must lack it
    assert sheet_position(BLUE_CLOSED, "w:1,1/r:1/y:1/g:1").closed == {Colour.BLUE}


def test_colours_closed_by_players_whose_sheets_are_not_given() -> None:
    state = sheet_position("r:2,3", "w:1,2/r:1/y:1/b:1", players=3, seat=1, closed=["green"])
    assert state.closed == {Colour.GREEN} and state.sheets[1] == parse_sheet("r:2,3")
    with pytest.raises(IllegalMoveError, match="R9: a player alone"):
        sheet_position("r:2,3", "w:1,2/r:1/y:1/b:1", closed="g")
    with pytest.raises(IllegalMoveError, match="R9: another player closed green"):
        sheet_position("r:2,3", "w:1,2/r:1/y:1/g:1/b:1", players=2, closed="g")
    with pytest.raises(ParseError):
        sheet_position("r:2,3", "w:1,2/r:1/y:1/b:1", players=2, closed=7)  # type: ignore[arg-type]


def test_a_missing_die_is_an_error_that_names_it() -> None:
    """Issue 32, item 8: the roll without blue's die was read as blue closed."""
    with pytest.raises(IllegalMoveError, match="R4: the roll has no blue die") as info:
        sheet_position("r:2,3/g:12", "w:3,4/r:1/y:2/g:5", players=2)
    assert info.value.rule == "R4"
    with pytest.raises(IllegalMoveError, match="no green die"):
        position(["r:-", "r:-"], "w:3,4/r:1/y:2/b:5")


def test_a_die_of_a_closed_colour_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="R9: sheet 2 closed blue"):
        position(["r:-", BLUE_CLOSED], "w:3,4/r:1/y:2/g:5/b:1")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: position([], "w:1,1/r:1/y:1/g:1/b:1"), "R3"),
    (lambda: position(["r:-"] * 6, "w:1,1/r:1/y:1/g:1/b:1"), "R3"),
    (lambda: position("r:-", "w:1,1/r:1/y:1/g:1/b:1"), "one sheet per seat"),
    (lambda: position(["r:-", "r:-"], "w:1,1/r:1/y:1/g:1/b:1", active=2), "active"),
    (lambda: position(["r:-", "r:-"], "w:1,1/r:1/y:1/g:1/b:1", ruleset=Ruleset(players=3)),
     "R3"),
    (lambda: position(["r:-", "mixx-a|p:0"], "w:1,1/r:1/y:1/g:1/b:1"), "one layout"),
    (lambda: position([3], "w:1,1/r:1/y:1/g:1/b:1"), "Sheet"),
    (lambda: position(["r:-"], 7), "roll"),
    (lambda: position([BLUE_CLOSED, "g:12,11,10,9,8,2,lock"], "w:1,1/r:1/y:1"), "R14"),
    (lambda: sheet_position("r:-", "w:1,1/r:1/y:1/g:1/b:1", players=2, seat=2), "seat"),
])
def test_bad_positions_are_refused(call: Any, message: str) -> None:
    with pytest.raises(QwixxError, match=message):
        call()


@FUZZ
@given(st.lists(sheets(max_penalties=3), min_size=1, max_size=5), rolls(),
       st.integers(0, 4))
def test_position_reads_the_closed_colours_off_the_sheets(sheet_list: list[Sheet], roll: Any,
                                                          active: int) -> None:
    """Whatever the sheets and the roll: a state whose closed colours are the union of
    the locks and whose roll is the one given, or a QwixxError (never a closed colour
    read off a missing die)."""
    try:
        state = position(sheet_list, roll, active=active)
    except QwixxError:
        locked = frozenset().union(*(s.locked for s in sheet_list))
        shown = {c for c in COLOURS if roll.die(c) is not None}
        assert (active >= len(sheet_list) or shown != set(COLOURS) - locked
                or len(locked) >= 2 or any(s.penalties >= 4 for s in sheet_list))
        return
    assert state.closed == frozenset().union(*(s.locked for s in sheet_list))
    assert state.roll == roll and state.sheets == tuple(sheet_list)
    assert {c for c in COLOURS if roll.die(c) is None} == set(state.closed)


@FUZZ
@given(st.one_of(st.none(), st.integers(), st.text(max_size=20), st.lists(st.integers()),
                 st.dictionaries(st.text(max_size=3), st.integers())),
       st.one_of(st.none(), st.integers(), st.text(max_size=20)),
       st.one_of(st.integers(), st.none(), st.text(max_size=2)))
def test_position_answers_any_value(sheets_arg: Any, roll: Any, active: Any) -> None:
    with contextlib.suppress(QwixxError):
        position(sheets_arg, roll, active=active)
    with contextlib.suppress(QwixxError):
        sheet_position(sheets_arg, roll, players=active)


# -- state files -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "message"), [
    ("[" * 1000, "nested too deeply"), ("[" * 100_000, "nested too deeply"),
    ('{"a":' * 1000, "nested too deeply"), ("[" * 500 + "]" * 500, "JSON object"),
    ("NaN", "NaN"), ('{"turn": NaN}', "NaN"), ("1" * 5000, "not a game state"),
    ("", "not JSON"), ("{not json", "not JSON"),
])
def test_state_text_that_is_no_state_is_a_parse_error(text: str, message: str) -> None:
    """Issue 32, item 1: deeply nested JSON raised RecursionError."""
    with pytest.raises(ParseError, match=message):
        state_from_text(text)


def test_a_state_turn_is_bounded(tmp_path: Any) -> None:
    """Issue 32, item 9 (part): ``turn`` = 10**30 was accepted."""
    data = new_game(2).to_json()
    for turn, ok in ((MAX_STATE_TURN, True), (MAX_STATE_TURN + 1, False), (10**30, False)):
        path = tmp_path / f"s{turn}.json"
        path.write_text(json.dumps(data | {"turn": turn}), encoding="utf-8")
        if ok:
            assert read_state(path).turn == turn
        else:
            with pytest.raises(ParseError, match=f"at most {MAX_STATE_TURN} turns"):
                read_state(path)


@FUZZ
@given(st.text(max_size=200))
def test_state_from_text_answers_any_text(text: str) -> None:
    try:
        state = state_from_text(text)
    except ParseError:
        return
    assert isinstance(state, GameState)


@FUZZ
@given(game_states())
def test_state_from_text_reads_what_to_json_writes(state: GameState) -> None:
    if state.turn > MAX_STATE_TURN:
        return
    assert state_from_text(json.dumps(state.to_json())) == state


# -- a known action 2 -------------------------------------------------------------------------

def test_an_illegal_known_action2_is_refused(official: Advisor) -> None:
    """Issue 32, item 7: red 12 on an empty sheet with white 6+6 and red 1 was dropped."""
    roll = parse_roll("w:6,6/r:1/y:2/g:3/b:4")
    with pytest.raises(IllegalMoveError, match=r"R6: the active player's action 2 \(red 12\)"):
        official.advise_passive(new_game(2), 1, roll, None, Mark(Colour.RED, 12))
    with pytest.raises(IllegalMoveError, match="R6"):  # what with_action2 says
        new_game(2).with_roll(roll).with_action1([None, None]).with_action2(
            Mark(Colour.RED, 12))
    legal = official.advise_passive(new_game(2), 1, roll, None, Mark(Colour.RED, 7))
    assert legal.best.plan == TurnPlan(Mark(Colour.GREEN, 12), None)


@FUZZ
@given(game_states(phases=[Phase.ACTION1]), st.sampled_from(COLOURS), st.integers(2, 12))
def test_a_known_action2_is_refused_exactly_when_the_rules_forbid_it(
        state: GameState, colour: Colour, number: int) -> None:
    """Refused iff it is not among the legal action-2 marks once everybody passes (the
    passive player's own mark can only close colours, which never makes it legal)."""
    if state.players < 2 or state.ruleset.action2_after_game_end is not False:
        return
    official = Advisor.for_ruleset(state.ruleset, progress=False)
    passive = (state.active + 1) % state.players
    mark = Mark(colour, number)
    passed = state.with_action1([None] * state.players)
    forbidden = (passed.phase is Phase.ACTION2 and passed.ended_by is None
                 and mark not in legal_action2(passed))
    try:
        official.advise_passive(state, passive, action2=mark)
    except IllegalMoveError as exc:
        assert forbidden, exc
        return
    assert not forbidden


# -- words with consequences -------------------------------------------------------------------

def _rolled(sheet_texts: list[str], roll: str, closed: set[Colour] | None = None,
            active: int = 0) -> GameState:
    sheet_list = tuple(parse_sheet(t) for t in sheet_texts)
    locked = frozenset().union(*(s.locked for s in sheet_list))
    return GameState(Ruleset(players=len(sheet_list)), sheet_list, active=active,
                     closed=locked | frozenset(closed or ())).with_roll(parse_roll(roll))


def test_words_say_what_closes_and_ends() -> None:
    state = _rolled(["r:2,3/y:2/b:12,11,10,9,8/p:1", "g:12,11,10,9,8,7,6,5,4,3,2,lock/p:1"],
                    "w:1,1/r:6/y:1/b:1")
    plan = parse_plan("-/b2")
    assert consequences(state, 0, plan) == (
        "skips blue 7, 6, 5, 4 and 3", "closes blue",
        "second colour closed, the game ends: you lose 27 to 73")
    assert in_words(state, 0, Advisor.for_ruleset(progress=False).advise(state).find(plan)
                    ) == ("mark blue 2 with white + blue — skips blue 7, 6, 5, 4 and 3 — "
                          "closes blue — second colour closed, the game ends: you lose 27 "
                          "to 73")
    four = _rolled(["r:2,3/p:3", "r:4"], "w:1,1/r:6/y:6/g:6/b:6")
    assert consequences(four, 0, parse_plan("-/-")) == (
        "fourth penalty, the game ends: you lose -17 to 1",)
    assert consequences(four, 1, parse_plan("y2/-")) == ()  # a passive player
    assert consequences(four, 1, TurnPlan(None, None)) == ()
    with pytest.raises(IllegalMoveError):
        consequences(four, 1, parse_plan("r12/-"))


@FUZZ
@given(game_states(phases=[Phase.ACTION1]), st.data())
def test_the_words_agree_with_the_rules_core(state: GameState, data: st.DataObject) -> None:
    """For a legal plan of the active player: "closes X" for each row it locks, a
    penalty or a game end exactly when the rules core played with the others passing
    says so."""
    plans = legal_plans(state)
    plan = data.draw(st.sampled_from(plans))
    words = consequences(state, state.active, plan)
    a = state.active
    after = state.with_action1([plan.action1 if s == a else None for s in range(state.players)])
    if after.phase is Phase.ACTION2:
        after = after.with_action2(plan.action2)
    newly = after.sheets[a].locked - state.sheets[a].locked
    assert {w.removeprefix("closes ") for w in words if w.startswith("closes ")} == \
        {c.value for c in newly}
    ends = [w for w in words if "the game ends" in w]
    assert bool(ends) == (after.ended_by is not None)
    if ends:
        mine = after.sheets[a].score
        assert str(mine) in ends[0]
    elif plan.penalty:
        assert words[-1] == f"penalty {after.sheets[a].penalties} of 4"
