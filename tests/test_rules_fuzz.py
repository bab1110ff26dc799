"""Hypothesis fuzzing of every parser and entry point of the rules core: arbitrary text,
arbitrary JSON-like values and near-miss JSON documents (games on every layout of
``strategies.RULE_LAYOUTS``).  Only the documented error types
(ParseError, InvalidStateError, IllegalMoveError) may escape; anything else is a bug."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import (
    PlayedGame,
    games,
    json_values,
    layouts,
    marks,
    mutated_json,
    plans,
    rolls,
    sheets,
)

from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.keys import decode_key, sheet_from_key
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import (
    mark_from_json,
    parse_action1,
    parse_colours,
    parse_mark,
    parse_plan,
    parse_roll,
    parse_sheet,
    plan_from_json,
    roll_from_json,
    sheet_from_json,
)
from qwixx_math.record import GameRecord, TurnRecord, replay
from qwixx_math.rules import GameState, Phase, legal_action1, legal_plans, turn_outcomes
from qwixx_math.ruleset import Ruleset

DOCUMENTED: tuple[type[Exception], ...] = (ParseError, InvalidStateError, IllegalMoveError)

TEXT_PARSERS: list[Callable[[Any], object]] = [
    parse_sheet, parse_roll, parse_mark, parse_plan, parse_action1, parse_colours, Colour.parse]
JSON_PARSERS: list[Callable[[Any], object]] = [
    sheet_from_json, roll_from_json, mark_from_json, plan_from_json, Ruleset.from_json,
    GameState.from_json, GameRecord.from_json, TurnRecord.from_json, decode_key, sheet_from_key]

#: Characters of the notation, so that fuzzed text often gets deep into the parsers.
NOTATION = st.text(alphabet="rygbwpRYGBWP:,/-0123456789 lockpenaltyred\t\n", max_size=40)


def only_documented(func: Callable[[Any], object], value: object) -> None:
    with contextlib.suppress(*DOCUMENTED):
        func(value)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TEXT_PARSERS), st.text(max_size=40) | NOTATION)
def test_text_parsers_raise_only_documented_errors(parse: Callable[[Any], object],
                                                   text: str) -> None:
    """Every text parser, on arbitrary text."""
    only_documented(parse, text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TEXT_PARSERS + JSON_PARSERS), json_values())
def test_parsers_on_arbitrary_json_values(parse: Callable[[Any], object], value: Any) -> None:
    """Every parser, on arbitrary JSON-like values of the wrong shape or type."""
    only_documented(parse, value)


def valid_documents() -> st.SearchStrategy[tuple[Callable[[Any], object], Any]]:
    """(parser, a valid JSON document for it) pairs, from random values and games."""
    def from_game(game: PlayedGame) -> st.SearchStrategy[tuple[Callable[[Any], object], Any]]:
        return st.sampled_from(
            [(GameRecord.from_json, game.record.to_json())]
            + [(GameState.from_json, s.to_json()) for s in game.states[-4:]]
            + [(TurnRecord.from_json, t.to_json()) for t in game.record.turns[-2:]])

    return st.one_of(
        games(layout=layouts()).flatmap(from_game),
        sheets().map(lambda s: (sheet_from_json, _sheet_json(s))),
        rolls().map(lambda r: (roll_from_json, _roll_json(r))),
        plans().map(lambda p: (plan_from_json, _plan_json(p))),
        st.sampled_from([(Ruleset.from_json, Ruleset(3).to_json())]),
    )


def _sheet_json(sheet: Sheet) -> Any:
    from qwixx_math.notation import sheet_to_json

    return sheet_to_json(sheet)


def _roll_json(roll: Roll) -> Any:
    from qwixx_math.notation import roll_to_json

    return roll_to_json(roll)


def _plan_json(plan: TurnPlan) -> Any:
    from qwixx_math.notation import plan_to_json

    return plan_to_json(plan)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_parsers_on_near_miss_json(data: st.DataObject) -> None:
    """A valid document with one part replaced by garbage (or one key dropped) reaches deep
    into the parsers; still only documented errors.  Records that parse are also replayed."""
    parse, doc = data.draw(valid_documents(), label="document")
    mutated = data.draw(mutated_json(st.just(doc)), label="mutated")
    try:
        value = parse(mutated)
    except DOCUMENTED:
        return
    if isinstance(value, GameRecord):
        only_documented(replay, value)


@settings(max_examples=100, deadline=None)
@given(games(layout=layouts()), st.data())
def test_turn_entry_points_on_arbitrary_choices(game: PlayedGame, data: st.DataObject) -> None:
    """play_turn, play_plan, legal_plans and turn_outcomes on states of real games with
    arbitrary rolls and choices (legal or not): only documented errors."""
    ready = [s for s in game.states if s.phase is Phase.ROLL]
    state = data.draw(st.sampled_from(ready), label="state")
    n = state.players
    roll = data.draw(rolls() | rolls(state.dice_in_play), label="roll")
    choices = data.draw(st.lists(st.none() | marks(), min_size=max(0, n - 1), max_size=n + 1),
                        label="action1")
    a2 = data.draw(st.none() | marks(), label="action2")
    plan = data.draw(plans(), label="plan")
    player = data.draw(st.integers(-1, n) | json_values(max_leaves=1), label="player")
    only_documented(lambda c: state.play_turn(roll, c, a2), choices)
    only_documented(lambda c: state.play_plan(roll, plan, c), choices)
    only_documented(lambda c: legal_plans(state, roll, c), choices)
    only_documented(lambda c: turn_outcomes(state, roll, c), choices)
    only_documented(lambda p: legal_action1(state, p, roll), player)


@given(st.sampled_from(COLOURS), st.integers(-20, 20) | json_values(max_leaves=2))
def test_sheet_entry_points_on_arbitrary_numbers(colour: Colour, number: Any) -> None:
    """Sheet.allows / why_not / with_mark and Mark on any number or value."""
    sheet = Sheet.from_marks({c: [c.number(0), c.number(1)] for c in COLOURS})
    only_documented(lambda n: sheet.allows(colour, n), number)
    only_documented(lambda n: sheet.why_not(colour, n), number)
    only_documented(lambda n: sheet.with_mark(colour, n), number)
    only_documented(lambda n: Mark(colour, n), number)
