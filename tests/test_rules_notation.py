"""Text notation and JSON forms of sheets, rolls, marks, plans, colours, states and records
(docs/notation.md): the documented forms, the accepted variants, and round-trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import colours, game_states, marks, plans, rolls, sheets

from qwixx_math.errors import InvalidStateError, ParseError
from qwixx_math.model import Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import (
    format_action1,
    format_colours,
    format_mark,
    format_plan,
    format_roll,
    format_sheet,
    mark_from_json,
    mark_to_json,
    parse_action1,
    parse_colours,
    parse_mark,
    parse_plan,
    parse_roll,
    parse_sheet,
    plan_from_json,
    plan_to_json,
    roll_from_json,
    roll_to_json,
    sheet_from_json,
    sheet_to_json,
)
from qwixx_math.rules import GameState, new_game

RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def via_json(value: object) -> object:
    """Through real JSON text."""
    return json.loads(json.dumps(value))


# -- documented forms -----------------------------------------------------------------------------


def test_sheet_canonical_text_and_variants() -> None:
    """Sheets: rows in any order, missing rows empty, p defaults to 0, a closed row ends in
    ``lock``; the canonical form lists all rows and p."""
    sheet = parse_sheet("g:12,11 / r:2,3,5 / p:1")
    assert format_sheet(sheet) == "r:2,3,5/y:-/g:12,11/b:-/p:1"
    assert parse_sheet("red:2,3,5/green:12,11/penalties:1") == sheet
    for strayed in ("R:2,3,5/G:12,11/P:1", "red :2", "r:2\n/y:3", "r:2/\ty:3",
                    "r:2,\u00a03", "r:\u0662"):  # one rule: docs/notation.md
        with pytest.raises(ParseError):
            parse_sheet(strayed)
    assert format_sheet(Sheet.EMPTY) == "r:-/y:-/g:-/b:-/p:0"
    assert parse_sheet("r:-") == Sheet.EMPTY
    locked = parse_sheet("b:12,11,10,9,8,2,l")
    assert format_sheet(locked) == "r:-/y:-/g:-/b:12,11,10,9,8,2,lock/p:0"
    assert str(locked) == format_sheet(locked) and repr(locked) == f"Sheet({str(locked)!r})"


def test_sheet_json_form() -> None:
    """Sheet JSON: one list per colour, ``locks`` and ``penalties``."""
    sheet = parse_sheet("r:2,3,4,5,6,12,lock/g:11/p:2")
    assert sheet_to_json(sheet) == {"red": [2, 3, 4, 5, 6, 12], "yellow": [], "green": [11],
                                    "blue": [], "locks": ["red"], "penalties": 2}
    assert sheet_from_json({"green": [11]}) == parse_sheet("g:11")
    with pytest.raises(InvalidStateError, match="R8"):
        sheet_from_json({"red": [2, 3, 4, 5, 6, 12]})  # the lock is missing
    with pytest.raises(ParseError, match="unknown sheet field"):
        sheet_from_json({"purple": []})


def test_roll_text_and_json() -> None:
    """Rolls: ``w:a,b`` then the coloured dice in play; JSON lists only dice in play."""
    roll = parse_roll("w:3,5/r:1/y:2/g:6/b:4")
    assert roll == Roll.of(3, 5, red=1, yellow=2, green=6, blue=4)
    assert format_roll(roll) == "w:3,5/r:1/y:2/g:6/b:4"
    assert parse_roll("b:4/white:3,5/red:1") == Roll.of(3, 5, red=1, blue=4)
    assert roll_to_json(Roll.of(6, 6, yellow=1)) == {"white": [6, 6], "yellow": 1}
    assert roll.white == (3, 5) and parse_roll("w:5,3").white == (5, 3)  # order is kept


def test_mark_and_plan_forms() -> None:
    """Marks: ``r8`` (also ``red8``, ``red 8``, ``r:8``, lower case); plans ``a1/a2`` with
    ``-`` for an action not taken; ``penalty`` reads as ``-/-``."""
    for text in ("r8", "red8", "red 8", "r:8", " r: 8 "):
        assert parse_mark(text) == Mark(RED, 8)
    for text in ("R8", "Red 8", "r :8", "r\t8", "r\u0668"):
        with pytest.raises(ParseError):
            parse_mark(text)
    assert format_mark(Mark(GREEN, 12)) == "g12" and format_mark(None) == "-"
    assert mark_to_json(Mark(BLUE, 2)) == {"colour": "blue", "number": 2}
    assert mark_from_json("y5") == Mark(YELLOW, 5) and mark_from_json(None) is None
    assert parse_plan("r8/g9") == TurnPlan(Mark(RED, 8), Mark(GREEN, 9))
    assert parse_plan("penalty") == parse_plan("-/-") == TurnPlan()
    assert format_plan(TurnPlan(None, Mark(GREEN, 9))) == "-/g9"
    assert plan_to_json(TurnPlan()) == {"action1": None, "action2": None, "penalty": True}
    with pytest.raises(ParseError, match="penalty"):
        plan_from_json({"action1": "r8", "action2": None, "penalty": True})


def test_action1_and_colours_forms() -> None:
    """Every player's action-1 choice: ``y5,r5,-``; colour sets: ``g,b``, ``gb``, ``-``."""
    choices = (Mark(YELLOW, 5), Mark(RED, 5), None)
    assert format_action1(choices) == "y5,r5,-" and parse_action1("y5, r5, -") == choices
    assert parse_colours("g,b") == parse_colours("gb") == parse_colours("green,blue") == {
        GREEN, BLUE}
    assert parse_colours("-") == parse_colours("") == frozenset()
    assert format_colours({BLUE, RED}) == "r,b" and format_colours(()) == "-"
    assert Colour.parse(" Yellow ") is YELLOW and Colour.parse("b") is BLUE


def test_state_json_form() -> None:
    """GameState JSON has exactly the documented fields and is validated when read."""
    data = new_game(2).to_json()
    assert sorted(data) == ["action1", "active", "closed", "ended_by", "phase", "roll",
                            "ruleset", "sheets", "turn"]
    assert data["phase"] == "roll" and data["closed"] == [] and data["turn"] == 0
    with pytest.raises(ParseError, match="lacks field"):
        GameState.from_json({k: v for k, v in data.items() if k != "turn"})
    with pytest.raises(ParseError, match="unknown game state field"):
        GameState.from_json({**data, "extra": 1})


# -- round trips ----------------------------------------------------------------------------------


@given(sheets())
def test_sheet_round_trips(sheet: Sheet) -> None:
    """parse_sheet(format_sheet(s)) == s and the JSON form round-trips."""
    assert parse_sheet(format_sheet(sheet)) == sheet
    assert sheet_from_json(via_json(sheet_to_json(sheet))) == sheet


@given(rolls())
def test_roll_round_trips(roll: Roll) -> None:
    """Rolls (any dice in play) round-trip through text and JSON."""
    assert parse_roll(format_roll(roll)) == roll
    assert roll_from_json(via_json(roll_to_json(roll))) == roll


@given(marks())
def test_mark_round_trips(mark: Mark) -> None:
    """Marks round-trip through text, words and JSON."""
    assert parse_mark(format_mark(mark)) == mark
    assert parse_mark(mark.describe()) == mark
    assert mark_from_json(via_json(mark_to_json(mark))) == mark


@given(plans())
def test_plan_round_trips(plan: TurnPlan) -> None:
    """Plans round-trip through text and JSON."""
    assert parse_plan(format_plan(plan)) == plan
    assert plan_from_json(via_json(plan_to_json(plan))) == plan


@given(st.lists(st.none() | marks(), min_size=1, max_size=5))
def test_action1_round_trips(choices: list[Mark | None]) -> None:
    """Action-1 choices round-trip through text."""
    assert parse_action1(format_action1(choices)) == tuple(choices)


@given(st.frozensets(colours()))
def test_colours_round_trip(chosen: frozenset[Colour]) -> None:
    """Colour sets and single colours round-trip."""
    assert parse_colours(format_colours(chosen)) == chosen
    for c in chosen:
        assert Colour.parse(c.value) is c and Colour.parse(c.letter) is c


@settings(max_examples=40, deadline=None)
@given(game_states())
def test_state_json_round_trips(state: GameState) -> None:
    """Any state of a random game (any phase, any ruleset) round-trips through JSON text."""
    assert GameState.from_json(via_json(state.to_json())) == state
