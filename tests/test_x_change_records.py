"""Qwixx X-Change notation and records (issue 34): the used fields of a sheet in its text
(``x:2,5``) and JSON (``"exchange": [2, 5]``), exchange marks (``r3@x2``, a field spent
alone ``x2``), GameState JSON, game records and their schema; round trips on the pad
(Hypothesis) and fuzzing of the new parser paths for the error contract."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import mutated_json

from qwixx_math.errors import InvalidStateError, ParseError, QwixxError
from qwixx_math.layouts import X_CHANGE
from qwixx_math.model import COLOURS, Colour, Mark, Sheet, TurnPlan
from qwixx_math.notation import (
    format_mark,
    format_plan,
    format_sheet,
    mark_from_json,
    mark_to_json,
    parse_mark,
    parse_plan,
    parse_sheet,
    plan_from_json,
    plan_to_json,
    sheet_from_json,
    sheet_to_json,
)
from qwixx_math.record import GameRecord, random_game, replay
from qwixx_math.rules import GameState, new_game, random_roll, turn_outcomes
from qwixx_math.ruleset import Ruleset
from qwixx_math.validation import read_record, record_schema

R, G = Colour.RED, Colour.GREEN
TRACK = len(X_CHANGE.exchange)


@st.composite
def pad_sheets(draw: st.DrawFn) -> Sheet:
    """Any legal sheet of the pad: rows as R7/R8 allow, any used fields left to right."""
    marks: dict[Colour, list[int]] = {}
    for colour in COLOURS:
        numbers = sorted(draw(st.sets(st.integers(0, 9), max_size=6)))
        marks[colour] = [X_CHANGE.numbers[colour.index][p] for p in numbers]
    used = sorted(draw(st.sets(st.integers(0, TRACK - 1), max_size=TRACK)))
    return Sheet.from_marks(marks, draw(st.integers(0, 4)), X_CHANGE, used)


def exchange_marks() -> st.SearchStrategy[Mark]:
    cross = st.builds(Mark, st.sampled_from(COLOURS), st.integers(2, 12),
                      st.none() | st.integers(0, 10))
    return cross | st.builds(Mark.spend, st.integers(0, 10))


# -- round trips -----------------------------------------------------------------------------------

def test_the_documented_forms() -> None:
    sheet = Sheet.from_marks({R: [3, 5], G: [12]}, 1, X_CHANGE, (2, 5))
    assert format_sheet(sheet) == "x-change|r:3,5/y:-/g:12/b:-/x:2,5/p:1"
    assert sheet_to_json(sheet)["exchange"] == [2, 5]
    assert format_mark(Mark(R, 3, 2)) == "r3@x2" and format_mark(Mark.spend(4)) == "x4"
    assert mark_to_json(Mark(R, 3, 2)) == {"colour": "red", "number": 3, "field": 2}
    assert mark_to_json(Mark.spend(4)) == {"field": 4}
    assert parse_plan("r3@x2/g9") == TurnPlan(Mark(R, 3, 2), Mark(G, 9))
    assert parse_mark("red 3 @ x 2") == Mark(R, 3, 2) == mark_from_json("r3@x2")
    # a sheet of a pad without a track has no x: part, and its JSON no "exchange"
    assert "x:" not in format_sheet(Sheet.from_marks({R: [3]}))
    assert "exchange" not in sheet_to_json(Sheet.from_marks({R: [3]}))


@settings(max_examples=80, deadline=None)
@given(pad_sheets())
def test_pad_sheets_round_trip_through_text_and_json(sheet: Sheet) -> None:
    assert parse_sheet(format_sheet(sheet)) == sheet
    assert sheet_from_json(json.loads(json.dumps(sheet_to_json(sheet)))) == sheet
    assert Sheet.parse(str(sheet)).used_fields == sheet.used_fields


@settings(max_examples=80, deadline=None)
@given(exchange_marks(), exchange_marks() | st.none())
def test_marks_and_plans_round_trip(mark: Mark, other: Mark | None) -> None:
    assert parse_mark(format_mark(mark)) == mark
    assert mark_from_json(json.loads(json.dumps(mark_to_json(mark)))) == mark
    plan = TurnPlan(mark, other)
    assert parse_plan(format_plan(plan)) == plan
    assert plan_from_json(json.loads(json.dumps(plan_to_json(plan)))) == plan


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([Ruleset(2), Ruleset(
    3, xc_field_without_cross=True)]))
def test_game_states_and_records_of_the_pad_round_trip(seed: int, ruleset: Ruleset) -> None:
    """A random game of the pad: every state's JSON reads back equal; its record reads
    back (GameRecord.from_json and the strict reader), matches the schema and replays
    to the same end."""
    record = random_game(seed=seed, ruleset=ruleset, layout=X_CHANGE)
    data = json.loads(json.dumps(record.to_json()))
    assert GameRecord.from_json(data) == record
    assert read_record(data) == record
    jsonschema.validate(data, record_schema())
    states = replay(record)
    for state in states[::4]:
        assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
    assert states[-1].scores == record.result.scores  # type: ignore[union-attr]


def test_random_records_of_the_pad_hold_exchanges() -> None:
    """The generator picks among the legal marks, exchanges included (not a test that
    could pass with no exchange at all)."""
    found = 0
    for seed in range(5):
        record = random_game(players=2, seed=seed, layout=X_CHANGE)
        found += sum(m is not None and m.field is not None
                     for t in record.turns for m in t.action1)
    assert found > 0


def test_the_schema_refuses_what_the_reader_refuses() -> None:
    record = random_game(players=2, seed=3, layout=X_CHANGE).to_json()
    schema = record_schema()
    for bad_mark in ({"colour": "red", "number": 3, "field": 11},
                     {"colour": "red", "field": 2}, {"field": -1}, {"field": 2, "x": 1}):
        bad = json.loads(json.dumps(record))
        bad["turns"][0]["action1"][0] = bad_mark
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
        with pytest.raises(ParseError):
            read_record(bad)
    bad = {**record, "ruleset": {"players": 2, "xc_in_action2": True}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
    with pytest.raises(ParseError, match="XC5"):
        read_record(bad)


# -- error contract --------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "rule"), [
    ("x-change|x:3,1", "XC2"), ("x-change|x:1,1", "XC2"), ("x-change|x:9", "XC1"),
    ("r:3/x:1", "XC1"), ("mixx-a|x:-", "XC1"),
])
def test_bad_used_fields_name_the_rule(text: str, rule: str) -> None:
    with pytest.raises((ParseError, InvalidStateError)) as info:
        parse_sheet(text)
    assert info.value.rule == rule


@pytest.mark.parametrize("text", ["r3@x", "r3@x11", "r3@y2", "@x2", "x", "x-1", "r3@x2@x3",
                                  "x11", "g0@x1"])
def test_bad_exchange_marks_are_parse_errors(text: str) -> None:
    with pytest.raises(ParseError):
        parse_mark(text)


_FUZZ_TEXT = st.text(alphabet="rygbx@:,/-|0123456789 pchange", max_size=24)


@settings(max_examples=150, deadline=None)
@given(_FUZZ_TEXT)
def test_fuzzed_mark_and_sheet_text_raise_only_documented_errors(text: str) -> None:
    for parse in (parse_mark, parse_plan, lambda t: parse_sheet(t, X_CHANGE)):
        try:
            value = parse(text)
        except QwixxError:
            continue
        assert parse(str(value)) == value


@settings(max_examples=60, deadline=None)
@given(mutated_json(st.just(sheet_to_json(Sheet.from_marks({R: [3, 5]}, 1, X_CHANGE,
                                                           (2, 5))))))
def test_fuzzed_sheet_json_raises_only_documented_errors(data: Any) -> None:
    try:
        sheet = sheet_from_json(data)
    except QwixxError:
        return
    assert sheet_from_json(sheet_to_json(sheet)) == sheet


@settings(max_examples=50, deadline=None)
@given(mutated_json(st.just({"colour": "red", "number": 3, "field": 2}))
       | mutated_json(st.just({"field": 2})))
def test_fuzzed_mark_json_raises_only_documented_errors(data: Any) -> None:
    try:
        mark = mark_from_json(data)
    except QwixxError:
        return
    assert mark_from_json(mark_to_json(mark)) == mark


def _record_json() -> dict[str, Any]:
    record = random_game(players=2, seed=11, layout=X_CHANGE)
    return json.loads(json.dumps(record.to_json()))  # type: ignore[no-any-return]


@settings(max_examples=40, deadline=None)
@given(mutated_json(st.just(_record_json())))
def test_fuzzed_records_of_the_pad_raise_only_documented_errors(data: Any) -> None:
    try:
        record = read_record(data)
    except QwixxError:
        return
    with contextlib.suppress(QwixxError):
        replay(record)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6))
def test_fuzzed_game_state_json_of_the_pad(seed: int) -> None:
    """A state of a random game with one part of its JSON replaced: a state or a
    documented error."""
    rng = random.Random(seed)
    state = new_game(2, layout=X_CHANGE)
    for _ in range(rng.randrange(1, 12)):
        if state.is_over:
            break
        rolled = state.with_roll(random_roll(rng, state.dice_in_play))
        state = rng.choice(sorted(turn_outcomes(rolled), key=str))
    data = state.to_json()
    sheet = data["sheets"][0]
    sheet["exchange"] = rng.choice([[9], [3, 1], "2", [True], [0, 0], [], [8]])
    try:
        back = GameState.from_json(data)
    except QwixxError:
        return
    assert GameState.from_json(back.to_json()) == back
