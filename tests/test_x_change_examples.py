"""Qwixx X-Change, VARIANTS.md §9.3: both worked examples played as moves through the
public API (83 and -12), the drawings of the track (SVG and text) and the coach on the
pad (issue 34)."""

from __future__ import annotations

import re

import pytest

from qwixx_math.coach.game import CoachGame
from qwixx_math.errors import IllegalMoveError
from qwixx_math.layouts import X_CHANGE
from qwixx_math.model import Colour, Mark, Roll, TurnPlan
from qwixx_math.notation import format_sheet, parse_plan, parse_sheet
from qwixx_math.record import GameRecord, TurnRecord, replay
from qwixx_math.rules import GameState, legal_action1, legal_plans, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.svg import sheet_svg, sheet_text
from qwixx_math.validation import validate_record

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE

#: Example 1 as a solitaire game: (roll, plan) per turn.  Turn 3 uses field 1 (9, 7) for
#: green 9; turn 4 is the example's moment: white 11 offers fields 2 and 7, the player
#: uses field 2 for red 3; turn 6 uses field 5 (8, 6) for blue 6.  Yellow closes in the
#: last turn, the second closed row (R14).
EXAMPLE_1 = (
    ("w:1,1/r:1/y:3/g:1/b:1", "r2/y4"),
    ("w:6,6/r:1/y:1/g:1/b:4", "g12/b10"),
    ("w:3,4/r:1/y:1/g:1/b:4", "g9@x1/b8"),
    ("w:5,6/r:1/y:1/g:1/b:1", "r3@x2/y6"),
    ("w:2,3/r:3/y:1/g:1/b:1", "r5/r6"),
    ("w:4,4/r:1/y:3/g:1/b:1", "b6@x5/y7"),
    ("w:4,4/r:5/y:1/g:1/b:1", "r8/r9"),
    ("w:3,4/r:1/y:1/g:1/b:2", "g7/b5"),
    ("w:5,5/r:1/y:6/g:1/b:1", "y10/y11"),
    ("w:1,2/r:1/y:1/g:1/b:1", "b3/b2"),
    ("w:6,6/r:1/y:1/g:1", "y12/-"),
)


def _play(turns: tuple[tuple[str, str], ...], ruleset: Ruleset | None = None) -> GameState:
    state = new_game(ruleset=ruleset or Ruleset(1), layout=X_CHANGE)
    for roll, plan in turns:
        state = state.play_plan(Roll.parse(roll), parse_plan(plan))
    return state


def test_worked_example_1_total_83() -> None:
    before = _play(EXAMPLE_1[:3]).with_roll(Roll.parse(EXAMPLE_1[3][0]))
    assert before.sheets[0].last_field == 1
    # white sum 11: fields 2 (11, 3) and 7 (11, 9) are eligible; red 3 through field 2
    red = [str(m) for m in legal_action1(before, 0) if m.colour is R]
    assert red == ["r3@x2", "r9@x7", "r11"]
    # using field 7 would lose fields 2-6
    far = before.with_action1([Mark(R, 9, 7)]).sheets[0]
    assert far.last_field == 7 and far.used_fields == (1, 7)
    end = _play(EXAMPLE_1)
    sheet = end.sheets[0]
    assert end.is_over and end.ended_by == "R14"
    assert format_sheet(sheet) == ("x-change|r:2,3,5,6,8,9/y:4,6,7,10,11,12,lock/g:12,9,7/"
                                   "b:10,8,6,5,3,2,lock/x:1,2,5/p:0")
    assert [sheet.row_score(c) for c in (R, Y, G, B)] == [21, 28, 6, 28]
    assert sheet.score == 83


def test_worked_example_1_record_validates_clean() -> None:
    states = [new_game(ruleset=Ruleset(1), layout=X_CHANGE)]
    turns = []
    for roll, text in EXAMPLE_1:
        plan = parse_plan(text)
        turns.append(TurnRecord(0, Roll.parse(roll), (plan.action1,), plan.action2))
        states.append(states[-1].play_plan(Roll.parse(roll), plan))
    record = GameRecord(("Kari",), Ruleset(1), tuple(turns), layout=X_CHANGE)
    assert replay(record)[-1] == states[-1]
    assert validate_record(record).valid


#: Example 2: red 6, yellow 7, green 12 and 5, blue 4 first (no field used); then white
#: sum 8 (turn 4) and four passes.
EXAMPLE_2_START = (
    ("w:3,3/r:1/y:4/g:1/b:1", "r6/y7"),
    ("w:6,6/r:1/y:1/g:1/b:1", "g12/-"),
    ("w:1,4/r:1/y:1/g:1/b:3", "g5/b4"),
)
_WHITE_8 = "w:4,4/r:1/y:1/g:1/b:1"


def test_worked_example_2_total_minus_12() -> None:
    before = _play(EXAMPLE_2_START).with_roll(Roll.parse(_WHITE_8))
    assert format_sheet(before.sheets[0]) == "x-change|r:6/y:7/g:12,5/b:4/x:-/p:0"
    # fields 0 (8, 5) and 5 (8, 6) hold the white sum, but no row takes a 5 or a 6 (XC4)
    assert [str(m) for m in legal_action1(before, 0)] == ["r8", "y8"]
    with pytest.raises(IllegalMoveError, match="XC4"):
        before.with_action1([Mark.spend(0)])
    with pytest.raises(IllegalMoveError, match="R7"):
        before.with_action1([Mark(R, 5, 0)])
    # under xc_field_without_cross field 0 or 5 could be spent alone
    option = _play(EXAMPLE_2_START, Ruleset(1, xc_field_without_cross=True))
    rolled = option.with_roll(Roll.parse(_WHITE_8))
    assert [str(m) for m in legal_action1(rolled, 0)] == ["r8", "y8", "x0", "x5"]
    assert TurnPlan(Mark.spend(5), None) in legal_plans(rolled)
    # the player crosses red 8, then passes four turns: four penalties end the game (R13)
    end = _play((*EXAMPLE_2_START, (_WHITE_8, "r8/-"),
                 *((("w:1,1/r:1/y:1/g:1/b:1", "-/-"),) * 4)))
    assert end.is_over and end.ended_by == "R13"
    sheet = end.sheets[0]
    assert format_sheet(sheet) == "x-change|r:6,8/y:7/g:12,5/b:4/x:-/p:4"
    assert sheet.score == 3 + 1 + 3 + 1 - 20 == -12


# -- drawings ------------------------------------------------------------------------------------

def test_the_text_drawing_shows_the_track() -> None:
    sheet = parse_sheet("x-change|r:3/g:12/x:1,2/p:1")
    text = sheet_text(sheet, plan="g9@x7/-")
    line = next(row for row in text.splitlines() if row.endswith(" used"))
    assert line.split() == ["x-change", ".", "[9/7]", "[11/3]", "7/4", "10/3", "8/6", "10/5",
                            "<11/9>", "6/4", "2", "used"]
    assert "[9/7]" in line and "[11/3]" in line and "<11/9>" in line and "2 used" in line
    assert line.split()[1] == "."   # field 0 is lost (left of field 1, XC2)
    assert "exchanged on X-Change field 7" in text
    assert "x-change" not in sheet_text(parse_sheet("r:3"))


def test_the_svg_drawing_marks_the_used_fields() -> None:
    sheet = parse_sheet("x-change|r:3/g:12/x:1,2/p:1")
    svg = sheet_svg(sheet, plan="g9@x7/-")
    fields = re.findall(r'<g class="field" data-index="(\d)" data-pair="([\d/]+)" '
                        r'data-used="(\w+)" data-lost="(\w+)"( data-plan="1")?>', svg)
    assert len(fields) == 9
    assert [f[1] for f in fields] == [f"{a}/{b}" for a, b in X_CHANGE.exchange]
    assert [i for i, f in enumerate(fields) if f[2] == "true"] == [1, 2]
    assert [i for i, f in enumerate(fields) if f[3] == "true"] == [0]
    assert [i for i, f in enumerate(fields) if f[4]] == [7]
    assert 'class="exchange"' not in sheet_svg(parse_sheet("r:3"))


# -- the coach -----------------------------------------------------------------------------------

def test_the_coach_plays_the_pad_a_tap_exchanges_through_the_leftmost_field() -> None:
    game = CoachGame(2, "x-change", seed=1)
    view = game.view()
    assert "x-change" in view["layouts"]
    assert view["layout"]["exchange"] == [list(f) for f in X_CHANGE.exchange]
    game.roll("w:5,6/r:1/y:1/g:1/b:1")
    game.tap(0, "red", 3)         # not the white sum: the exchange of field 2 (11, 3)
    game.tap(1, "green", 9)       # field 7 (11, 9)
    assert game.view()["pending"] == [{"colour": "red", "number": 3, "field": 2},
                                      {"colour": "green", "number": 9, "field": 7}]
    game.tap(0, "red", 3)         # a second tap takes it back
    assert game.view()["pending"][0] is None
    game.tap(0, "red", 9, field=7)  # a field named
    with pytest.raises(IllegalMoveError) as info:
        game.tap(1, "red", 4)
    assert info.value.rule == "R5"
    game.done()
    game.skip()
    view = game.view()
    assert view["sheets"][0]["exchange"] == [7] and view["sheets"][1]["exchange"] == [7]
    record, _ = game.record_and_state()
    assert validate_record(record, partial=True).valid


def test_turn_probabilities_on_the_pad_count_exchanges() -> None:
    """``prob --layout x-change``: the per-turn chances come from the rules core, so an
    exchange raises the chance to mark a cell (red 3: white sum 3 on the official sheet;
    also 11 through field 2 and 10 through field 4 on the pad)."""
    from qwixx_math.dice.events import turn_events

    pad = turn_events(parse_sheet("x-change|r:2"))
    official = turn_events(parse_sheet("r:2"))
    for who in ("active", "passive"):
        mine, theirs = getattr(pad, who), getattr(official, who)
        assert mine.markable(R, 3) > theirs.markable(R, 3)
        assert mine.markable(R, 12) == theirs.markable(R, 12) == 0  # R8: 1 mark only
