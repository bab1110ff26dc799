"""Qwixx Double, pad A (issue 34, VARIANTS.md §6): the pad as data, the rules core,
notation and records with second crosses."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.layouts import DOUBLE_A, LAYOUTS, OFFICIAL, Confidence, SheetLayout
from qwixx_math.model import Colour, Mark, Sheet
from qwixx_math.notation import (
    format_mark,
    format_sheet,
    mark_from_json,
    mark_to_json,
    parse_mark,
    parse_roll,
    parse_sheet,
    sheet_from_json,
    sheet_to_json,
)
from qwixx_math.record import random_game
from qwixx_math.rules import (
    GameState,
    legal_action1,
    legal_action2,
    legal_plans,
    new_game,
    turn_outcomes,
    why_not_mark,
)
from qwixx_math.ruleset import Ruleset
from qwixx_math.validation import validate_data


def test_the_pad_is_data() -> None:
    assert LAYOUTS["double-a"] is DOUBLE_A and DOUBLE_A.second_crosses
    assert DOUBLE_A.numbers == OFFICIAL.numbers and DOUBLE_A.colours == OFFICIAL.colours
    assert DOUBLE_A.lock_threshold == 7 and DOUBLE_A.score_cap == 16
    assert DOUBLE_A.lock_rule == "DA5" and DOUBLE_A.score_rule == "DA7"
    assert DOUBLE_A.confidence is Confidence.STATED and "§6.1" in DOUBLE_A.source
    assert not DOUBLE_A.has_doubles and OFFICIAL.score_cap is None


def test_second_crosses_take_part_in_equality_hash_json_and_key() -> None:
    plain = SheetLayout("x", DOUBLE_A.numbers, DOUBLE_A.colours, lock_threshold=7)
    assert plain != DOUBLE_A
    same = SheetLayout("y", DOUBLE_A.numbers, DOUBLE_A.colours, lock_threshold=7,
                       second_crosses=True)
    assert same == DOUBLE_A and hash(same) == hash(DOUBLE_A)
    assert same.key.endswith("-d") and not plain.key.endswith("-d")
    assert SheetLayout.from_key(same.key) == DOUBLE_A
    assert SheetLayout.from_key(plain.key) == plain
    assert SheetLayout.from_json(DOUBLE_A.to_json()) is DOUBLE_A
    assert DOUBLE_A.to_json()["second_crosses"] is True
    assert "second_crosses" not in OFFICIAL.to_json()
    house = {**same.to_json(), "name": "house-da"}
    assert SheetLayout.from_json(house) == DOUBLE_A


@pytest.mark.parametrize(("change", "words"), [
    ({"second_crosses": 1}, "second_crosses"),
    ({"second_crosses": "yes"}, "second_crosses"),
    ({"faces": 8, "lock_cells": 2, "lock_threshold": 6,
      "rows": [{"numbers": list(range(2, 17)), "colours": "red"}]}, "DA1"),
])
def test_bad_second_crosses_fields_are_refused(change: dict[str, object], words: str) -> None:
    data = {**DOUBLE_A.to_json(), "name": "house-da", **change}
    with pytest.raises(ParseError, match=words):
        SheetLayout.from_json(data)


def test_second_crosses_on_double_cells_are_refused_with_da1() -> None:
    from qwixx_math.layouts import DOUBLE_B
    with pytest.raises(ParseError, match="DA1"):
        SheetLayout("x", DOUBLE_B.numbers, DOUBLE_B.colours, lock_threshold=7,
                    weights=DOUBLE_B.weights, second_crosses=True)


# -- rules core (DA1-DA7) ------------------------------------------------------------------

B, R = Colour.BLUE, Colour.RED


def one_player(sheet: str, **rules: object) -> GameState:
    return GameState(Ruleset(players=1, **rules), (parse_sheet(sheet, "double-a"),))  # type: ignore[arg-type]


def test_worked_example_1_totals_208() -> None:
    """VARIANTS.md §6.3 example 1."""
    sheet = Sheet.from_marks(
        {R: [3, 5, 6, 8, 9, 10, 12], Colour.YELLOW: [4, 6, 7],
         Colour.GREEN: list(range(12, 2, -1)), B: [9]}, penalties=1, layout=DOUBLE_A,
        seconds={R: [5, 8], Colour.YELLOW: [4, 6, 7], Colour.GREEN: list(range(12, 2, -1))})
    assert [sheet.count(c) for c in (R, Colour.YELLOW, Colour.GREEN, B)] == [10, 6, 20, 1]
    assert [sheet.row_score(c) for c in (R, Colour.YELLOW, Colour.GREEN, B)] == [55, 21, 136, 1]
    assert sheet.score == 208
    assert parse_sheet(format_sheet(sheet)) == sheet


def test_worked_example_2_totals_22_through_play() -> None:
    """VARIANTS.md §6.3 example 2, played: B6 doubled, then B5: blue 2 becomes legal."""
    start = one_player("r:2,3/g:12/b:12,10,9,8,6/p:2")
    assert why_not_mark(start, 0, "blue", 2)[0] == "DA5"  # type: ignore[index]
    rolled = start.with_roll(parse_roll("w:3,3/r:1/y:1/g:1/b:1"))
    assert Mark(B, 6, second=True) in legal_action1(rolled, 0)
    after = rolled.with_action1([Mark(B, 6, second=True)]).with_action2(None)
    assert after.sheets[0].penalties == 2  # a second cross is a cross (DA6)
    assert after.sheets[0].count(B) == 6
    rolled = after.with_roll(parse_roll("w:2,3/r:1/y:1/g:1/b:1"))
    done = rolled.with_action1([Mark(B, 5)]).with_action2(None)
    sheet = done.sheets[0]
    assert sheet.count(B) == 7 and sheet.allows(B, 2) and sheet.score == 22
    late = done.with_roll(parse_roll("w:4,5/r:1/y:1/g:1/b:1"))
    assert Mark(B, 9, second=True) not in legal_action1(late, 0)
    assert why_not_mark(late, 0, "blue", 9, second=True)[0] == "DA3"  # type: ignore[index]


def test_action2_and_da4() -> None:
    for same_turn, legal in ((True, True), (False, False)):
        state = one_player("b:12,10,9,8", da_same_turn=same_turn)
        a2 = state.with_roll(parse_roll("w:3,3/r:1/y:1/g:1/b:3")).with_action1([Mark(B, 6)])
        assert (Mark(B, 6, second=True) in legal_action2(a2)) is legal
        if not legal:
            with pytest.raises(IllegalMoveError, match="DA4"):
                a2.with_action2(Mark(B, 6, second=True))
    plans = legal_plans(one_player("b:12,10,9,8"), parse_roll("w:3,3/r:1/y:1/g:1/b:3"))
    assert "b6/b6+" in {str(p) for p in plans}
    outcomes = turn_outcomes(one_player("b:12,10,9,8"), parse_roll("w:3,3/r:1/y:1/g:1/b:3"))
    assert any(s.sheets[0].second_crosses(B) == (6,) for s in outcomes)


def test_illegal_second_crosses_cite_da_ids() -> None:
    rolled = one_player("r:2,3/b:12,10,9,8,6+").with_roll(parse_roll("w:3,3/r:1/y:1/g:1/b:1"))
    with pytest.raises(IllegalMoveError, match="DA1"):
        rolled.with_action1([Mark(R, 6, second=True)])  # not crossed
    with pytest.raises(IllegalMoveError, match="DA1"):
        rolled.with_action1([Mark(B, 6, second=True)])  # already doubled
    with pytest.raises(IllegalMoveError, match="DA1"):
        new_game(1).with_roll(parse_roll("w:3,3/r:1/y:1/g:1/b:1")).with_action1(
            [Mark(R, 6, second=True)])  # the official sheet has no boxes
    with pytest.raises(InvalidStateError, match="DA5"):
        parse_sheet("b:12,10,9,8,6+,2", "double-a")
    with pytest.raises(ParseError, match="DA1"):
        parse_sheet("r:2+")
    with pytest.raises(ParseError, match="DA2"):
        Ruleset(da_scope="own_track")


def test_notation_round_trips() -> None:
    assert format_mark(Mark(B, 6, second=True)) == "b6+"
    assert parse_mark("b6+") == Mark(B, 6, second=True)
    assert mark_from_json(mark_to_json(Mark(B, 6, second=True))) == Mark(B, 6, second=True)
    assert mark_to_json(Mark(B, 6)) == {"colour": "blue", "number": 6}
    sheet = parse_sheet("double-a|b:12,10+,9,8,6+")
    assert sheet_from_json(sheet_to_json(sheet)) == sheet
    assert "seconds" not in sheet_to_json(parse_sheet("r:2"))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_random_games_round_trip_and_validate(seed: int) -> None:
    record = random_game(players=2, seed=seed, layout="double-a",
                         ruleset=Ruleset(players=2, da_same_turn=seed % 2 == 0))
    report = validate_data(record.to_json())
    assert report.valid, report.to_text()
    state = new_game(ruleset=record.ruleset, layout="double-a")
    for turn in record.turns:
        state = state.play_turn(turn.roll, turn.action1, turn.action2)
    for sheet in state.sheets:
        assert parse_sheet(format_sheet(sheet)) == sheet
        assert sheet_from_json(sheet_to_json(sheet)) == sheet


def test_validator_names_the_broken_rule() -> None:
    record = {"format": "qwixx-math/game-record", "version": 1, "players": ["a"],
              "layout": "double-a", "turns": [
                  {"active": 0, "roll": {"white": [3, 3], "red": 1, "yellow": 1, "green": 1,
                                         "blue": 1},
                   "action1": [{"colour": "red", "number": 6}], "action2": None},
                  {"active": 0, "roll": {"white": [4, 4], "red": 1, "yellow": 1, "green": 1,
                                         "blue": 1},
                   "action1": [{"colour": "red", "number": 8}], "action2": None},
                  {"active": 0, "roll": {"white": [3, 3], "red": 1, "yellow": 1, "green": 1,
                                         "blue": 1},
                   "action1": [{"colour": "red", "number": 6, "second": True}],
                   "action2": None}]}
    report = validate_data(record)
    assert not report.valid and "DA3" in report.to_text()


def test_drawings_show_second_cross_boxes() -> None:
    import xml.etree.ElementTree as ET

    sheet = parse_sheet("double-a|r:3,5+,6,8+,9,10,12/b:12,10,9,8,6+,5/p:1")
    root = ET.fromstring(sheet.to_svg())
    boxes = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
             if g.get("class") == "second"]
    assert len(boxes) == 40  # under positions 0..9 of four rows
    assert sum(g.get("data-second") == "true" for g in boxes) == 3
    text = sheet.to_text()
    assert "{ 5}" in text and "{ 6}" in text and "[ 6]" in text
    assert "second" not in parse_sheet("r:2").to_svg()


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.sampled_from(["colour", "number", "second", "blue",
                                                        "red", "x"]), inner, max_size=4),
                     max_leaves=10)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="rygbp:,/+-0123456789lock| ", max_size=40), _JSON, _JSON)
def test_new_parser_paths_raise_only_typed_errors(text: str, mark: object,
                                                  seconds: object) -> None:
    from qwixx_math.errors import QwixxError

    for call in (lambda: parse_sheet(text, "double-a"), lambda: parse_mark(text),
                 lambda: mark_from_json(mark),
                 lambda: sheet_from_json({"layout": "double-a", "seconds": seconds}),
                 lambda: Ruleset.from_json({"da_same_turn": mark, "da_scope": seconds})):
        try:
            call()
        except QwixxError as exc:
            assert str(exc)


def test_a_mark_is_an_exchange_or_a_second_cross_not_both() -> None:
    """Since the merge with X-Change: Mark(colour, number, field, second) never holds both."""
    with pytest.raises(ParseError, match="DA1"):
        Mark(R, 3, 2, True)
    with pytest.raises(ParseError):
        mark_from_json({"colour": "red", "number": 3, "field": 2, "second": True})
    with pytest.raises(ParseError):
        parse_mark("r3+@x2")
    assert str(Mark(R, 3, 2)) == "r3@x2" and str(Mark(R, 3, second=True)) == "r3+"
    assert repr(Mark(R, 3, second=True)).endswith("number=3, second=True)")
