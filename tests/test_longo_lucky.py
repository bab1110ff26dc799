"""Qwixx Longo's lucky numbers (VARIANTS.md §8, LG3-LG5, V1, V3, V9): the layout
parameter, the Options, the lucky cross in action 1, its notation and records."""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.errors import IllegalMoveError, ParseError, QwixxError
from qwixx_math.layouts import LONGO, SheetLayout, layout_named
from qwixx_math.model import Colour, LuckyMark, Mark, Sheet
from qwixx_math.notation import (
    format_mark,
    mark_from_json,
    mark_to_json,
    parse_lucky_mark,
    parse_mark,
    parse_plan,
    parse_roll,
    parse_sheet,
)
from qwixx_math.record import GameRecord, random_game, replay
from qwixx_math.rules import (
    GameState,
    Phase,
    legal_action1,
    legal_plans,
    lucky_cells,
    turn_outcomes,
    why_not_mark,
)
from qwixx_math.ruleset import LuckyCandidates, LuckyMode, Ruleset
from qwixx_math.validation import record_schema

LUCKY = layout_named("longo:5,13")
ADDITIONAL = LuckyMode.ADDITIONAL
R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def rolled(sheets: str | list[str], roll: str, **options: object) -> GameState:
    texts = [sheets] if isinstance(sheets, str) else sheets
    state = GameState(Ruleset(len(texts), **options),  # type: ignore[arg-type]
                      tuple(parse_sheet(t) for t in texts))
    return state.with_roll(parse_roll(roll))


# -- the layout parameter --

def test_lucky_layout_names_and_json() -> None:
    assert LUCKY.lucky == (5, 13) and LUCKY.key == "longo:5,13" and LONGO.lucky == ()
    assert LUCKY != LONGO and LUCKY.same_pad(LONGO) and not LUCKY.same_pad(layout_named("official"))
    assert LONGO.with_lucky((13, 5)) == LUCKY and LUCKY.without_lucky() is not LUCKY
    assert LUCKY.without_lucky() == LONGO
    data = LUCKY.to_json()
    assert data["name"] == "longo" and data["lucky"] == [5, 13]
    assert SheetLayout.from_json(data) == LUCKY
    assert str(parse_sheet("longo:5,13|r:2")) == "longo:5,13|r:2/y:-/g:-/b:-/p:0"


@pytest.mark.parametrize("name", ["longo:13,5", "longo:5,5", "longo:1,5", "longo:5,17",
                                  "longo:5", "official:5,6", "longo:a,b"])
def test_bad_lucky_layouts_name_lg3(name: str) -> None:
    with pytest.raises(ParseError, match="LG3"):
        layout_named(name)


def test_ruleset_options_json() -> None:
    rs = Ruleset(2, lg_lucky_mode=ADDITIONAL,
                 lg_lucky_candidates=LuckyCandidates.OPEN_WITH_NEXT_CELL)
    assert Ruleset.from_json(rs.to_json()) == rs
    assert "lg_lucky_mode" not in Ruleset().to_json()  # defaults are left out
    with pytest.raises(ParseError, match="lg_lucky_mode"):
        Ruleset.from_json({"lg_lucky_mode": "both"})
    with pytest.raises(ParseError, match="LG5"):
        Ruleset(lg_lucky_candidates="open_rows")  # type: ignore[arg-type]


# -- VARIANTS.md §8.3, example 1 --

def test_worked_example_1_total_176() -> None:
    before = "longo:5,13|r:2,4,5,7,9,10/y:6,9/g:16,15/b:16,12,8"
    state = rolled(before, "d8|w:5,8/r:1/y:2/g:3/b:4")
    lucky = [m for m in legal_action1(state, 0) if isinstance(m, LuckyMark)]
    # instead of a 13: the next yellow cell (Y10) or the next green cell (G14), tied at 2
    assert lucky == [LuckyMark(Y, 10), LuckyMark(G, 14)]
    assert why_not_mark(state, 0, "yellow", 10) is None
    assert why_not_mark(state, 0, "blue", 4)[0] == "LG3"  # type: ignore[index]
    after = state.with_action1([LuckyMark(G, 14)]).with_action2(None)
    assert after.sheets[0].marks(G) == (16, 15, 14) and after.sheets[0].penalties == 0
    final = parse_sheet("longo:5,13|r:2,4,5,7,9,10,12,15,lock/y:6,9,10,12/"
                        "g:16,15,14,13,12,11,10,9,8,7,6,5,4,3,lock/b:16,12,8/p:1")
    assert [final.row_score(c) for c in (R, Y, G, B)] == [45, 10, 120, 6]
    assert final.score == 176


# -- the rules: instead, additional, fewest --

def test_instead_is_the_action1_cross_and_refuses_a_second() -> None:
    state = rolled("longo:5,13|r:2,4/y:3/g:16/b:16,15", "d8|w:1,4/r:1/y:1/g:1/b:1")
    assert [format_mark(m) for m in legal_action1(state, 0)] == ["r5", "y5", "g5", "b5",
                                                                 "*y4", "*g15"]
    with pytest.raises(IllegalMoveError, match="LG4"):
        state.with_action1([LuckyMark(Y, 4, first=Mark(R, 5))])
    with pytest.raises(IllegalMoveError, match="R5"):  # a plain mark is the white sum
        state.with_action1([Mark(Y, 4)])
    with pytest.raises(IllegalMoveError, match="LG3"):
        state.with_action1([LuckyMark(R, 6)])  # red has 2 crosses, not the fewest
    after = state.with_action1([LuckyMark(Y, 4)])
    assert after.sheets[0].marks(Y) == (3, 4)
    assert after.with_action2(None).sheets[0].penalties == 0  # a voluntary cross (V6)


def test_additional_is_a_second_cross_after_the_white_sum() -> None:
    state = rolled("longo:5,13|r:2,4/y:3/g:16/b:16,15", "d8|w:1,4/r:1/y:1/g:1/b:1",
                   lg_lucky_mode=ADDITIONAL)
    got = [format_mark(m) for m in legal_action1(state, 0)]
    # after y5, yellow has 2 crosses: green alone is fewest (evaluated after that cross)
    assert got == ["r5", "y5", "g5", "b5", "*y4", "*g15", "r5+*y4", "r5+*g15", "y5+*g15",
                   "g5+*y4", "b5+*y4", "b5+*g15"]
    after = state.with_action1([LuckyMark(G, 15, first=Mark(Y, 5))])
    assert after.sheets[0].marks(Y) == (3, 5) and after.sheets[0].marks(G) == (16, 15)
    with pytest.raises(IllegalMoveError, match="LG3"):  # yellow no longer among the fewest
        state.with_action1([LuckyMark(Y, 6, first=Mark(Y, 5))])
    with pytest.raises(IllegalMoveError, match="R5"):  # the first cross is the white sum
        state.with_action1([LuckyMark(G, 15, first=Mark(R, 6))])
    plans = {str(p) for p in legal_plans(state)}
    assert {"y5+*g15/-", "*y4/-", "-/-"} <= plans


def test_not_a_lucky_sum_and_action2_never_lucky() -> None:
    state = rolled("longo:5,13|r:2,4/y:3/g:16/b:16,15", "d8|w:1,5/r:1/y:1/g:1/b:1")
    assert not any(isinstance(m, LuckyMark) for m in legal_action1(state, 0))
    with pytest.raises(IllegalMoveError, match="LG3"):
        state.with_action1([LuckyMark(Y, 4)])
    assert why_not_mark(state, 0, "yellow", 4)[0] == "R5"  # type: ignore[index]
    a2 = rolled("longo:5,13|r:2,4/y:3/g:16/b:16,15", "d8|w:1,4/r:1/y:1/g:1/b:1")
    a2 = a2.with_action1([None])
    with pytest.raises(IllegalMoveError, match="LG3"):
        a2.with_action2(LuckyMark(Y, 4))
    unlucky = rolled("longo|r:2,4/y:3/g:16/b:16,15", "d8|w:1,4/r:1/y:1/g:1/b:1")
    with pytest.raises(IllegalMoveError, match="LG3"):
        unlucky.with_action1([LuckyMark(Y, 4)])


def test_fewest_without_next_cell_lg5_and_the_option() -> None:
    # red (2 crosses: 13, 14) is fewest, but its next cell 15 is a lock number (LG2: 6)
    sheet = "longo:5,13|r:13,14/y:2,3,4/g:16,15,14/b:16,15,14"
    state = rolled(sheet, "d8|w:1,4/r:1/y:1/g:1/b:1")
    assert not any(isinstance(m, LuckyMark) for m in legal_action1(state, 0))
    with pytest.raises(IllegalMoveError, match="LG5"):
        state.with_action1([LuckyMark(Y, 5)])
    wider = rolled(sheet, "d8|w:1,4/r:1/y:1/g:1/b:1",
                   lg_lucky_candidates=LuckyCandidates.OPEN_WITH_NEXT_CELL)
    assert [format_mark(m) for m in legal_action1(wider, 0)
            if isinstance(m, LuckyMark)] == ["*y5", "*g13", "*b13"]


def test_closed_rows_are_no_candidates_and_a_lucky_lock_closes() -> None:
    # player 0 locked red; for player 1 blue (6 crosses) has the fewest: B3 is a lock number
    p0 = "longo:5,13|r:2,3,4,5,6,7,16,lock/y:2,3,4,5,6,7,8/g:16,15,14,13,12,11,10/b:16"
    p1 = "longo:5,13|r:2/y:2,3,4,5,6,7,8/g:16,15,14,13,12,11,10/b:16,15,14,13,12,4"
    state = GameState(Ruleset(2), (parse_sheet(p0), parse_sheet(p1)), closed=frozenset({R}))
    state = state.with_roll(parse_roll("d8|w:6,7/y:1/g:1/b:1"))
    assert [m for m in legal_action1(state, 1) if isinstance(m, LuckyMark)] == [
        LuckyMark(B, 3)]
    after = state.with_action1([None, LuckyMark(B, 3)])
    assert B in after.closed and after.sheets[1].is_locked(B)


def test_players_hold_different_lucky_numbers_v1() -> None:
    state = rolled(["longo:5,13|r:2", "longo:2,4|r:2"], "d8|w:2,3/r:1/y:1/g:1/b:1")
    assert any(isinstance(m, LuckyMark) for m in legal_action1(state, 0))
    assert not any(isinstance(m, LuckyMark) for m in legal_action1(state, 1))
    with pytest.raises(QwixxError, match="R2"):  # but not a six-sided sheet beside Longo
        GameState(Ruleset(2), (parse_sheet("longo:5,13|r:2"),
                               Sheet.empty(layout_named("official"))))


def _slow_lucky_cells(sheet: Sheet, closed: frozenset[Colour],
                      candidates: LuckyCandidates) -> list[Mark]:
    """LG3/LG5/V9 read off the friendly accessors, cell by cell."""
    layout = sheet.layout
    rows = []
    for colour in layout.locks:
        if colour in closed:
            continue
        marks = sheet.marks(colour)
        crosses = len(marks)  # colour cells crossed, no lock box (V9)
        numbers = layout.numbers[layout.row_index(colour)]
        nxt = None
        if not sheet.is_locked(colour):
            index = numbers.index(marks[-1]) + 1 if marks else 0
            if index < len(numbers) and sheet.allows(colour, numbers[index]):
                nxt = Mark(colour, numbers[index])
        rows.append((crosses, nxt))
    if candidates is LuckyCandidates.OPEN_WITH_NEXT_CELL:
        rows = [r for r in rows if r[1] is not None]
    if not rows:
        return []
    low = min(c for c, _ in rows)
    return [m for c, m in rows if c == low and m is not None]


def test_lucky_cells_against_a_slow_reading() -> None:
    checked = 0
    for seed in range(12):
        record = random_game(players=2, seed=seed, layout="longo:5,13")
        for state in replay(record):
            for sheet in state.sheets:
                for cand in LuckyCandidates:
                    assert list(lucky_cells(sheet, state.closed, cand)) == \
                        _slow_lucky_cells(sheet, state.closed, cand)
                    checked += 1
    assert checked > 500


# -- notation, records, schema --

def test_lucky_notation_round_trips() -> None:
    for mark in (LuckyMark(Y, 10), LuckyMark(G, 14, first=Mark(R, 13)),
                 LuckyMark(B, 2, first=Mark(B, 16))):
        assert parse_mark(format_mark(mark)) == mark == parse_lucky_mark(str(mark))
        assert mark_from_json(json.loads(json.dumps(mark_to_json(mark))), 16) == mark
        assert mark != Mark(mark.colour, mark.number)
    assert str(parse_plan("r13+*y10/g9")) == "r13+*y10/g9"
    for bad in ("*y17", "y10+r13", "*y10+*g4", "+*y10", "r13+*", "**y10"):
        with pytest.raises(ParseError):
            parse_mark(bad)
    with pytest.raises(ParseError, match="LG3"):
        mark_from_json({"colour": "red", "number": 5, "lucky": False}, 16)


@given(st.text(alphabet="rygb*+ 0123456789-:", max_size=12))
@settings(max_examples=300, deadline=None)
def test_fuzz_parse_lucky_mark(text: str) -> None:
    try:
        mark = parse_lucky_mark(text)
    except ParseError:
        return
    assert parse_lucky_mark(str(mark)) == mark


@pytest.mark.parametrize("mode", list(LuckyMode))
def test_lucky_records_replay_and_fit_the_schema(mode: LuckyMode) -> None:
    schema = jsonschema.Draft202012Validator(record_schema())
    seen = 0
    for seed in range(6):
        record = random_game(seed=seed, ruleset=Ruleset(3, lg_lucky_mode=mode),
                             layout="longo:5,13")
        data = json.loads(json.dumps(record.to_json()))
        schema.validate(data)
        assert data["layout"] == "longo:5,13"
        again = GameRecord.from_json(data)
        assert again == record and replay(again)[-1].phase is Phase.OVER
        seen += sum(isinstance(m, LuckyMark) for t in record.turns for m in t.action1)
    assert seen > 0


def test_turn_outcomes_merge_lucky_and_plain_paths() -> None:
    state = rolled("longo:5,13|r:2,4/y:3/g:16/b:16,15", "d8|w:1,4/r:1/y:1/g:1/b:1")
    outcomes = turn_outcomes(state)
    plans = [p for ps in outcomes.values() for p in ps]
    assert len(plans) == len(legal_plans(state))
    assert any(isinstance(p.action1, LuckyMark) for p in plans)


@given(st.text(alphabet="longoficalx0123456789:,- ", max_size=14))
@settings(max_examples=300, deadline=None)
def test_fuzz_lucky_layout_names(text: str) -> None:
    """A layout name with lucky numbers is read, or refused with a ParseError."""
    try:
        layout = layout_named(text)
    except ParseError:
        return
    assert layout_named(layout.key) == layout
