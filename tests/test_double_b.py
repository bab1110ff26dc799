"""Qwixx Double, pad B (VARIANTS.md §7; issue 34): the double cells (DB1), the lock at 7
crosses (DB2) and the score table to 16 crosses (DB3) through the public API; both worked
examples of §7.3; the Option ``db_desc_cells`` as the two layouts ``double-b`` and
``double-b-alt``; notation round trips; records, the validator and ``generate``; the arena's
built-in players playing legal games on the pad."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qwixx_math.arena.registry import open_players
from qwixx_math.cli import main
from qwixx_math.dice import turns_to_close
from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.keys import sheet_key
from qwixx_math.layouts import DOUBLE_B, DOUBLE_B_ALT, LAYOUTS, OFFICIAL, SheetLayout
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet
from qwixx_math.notation import format_sheet, parse_sheet, sheet_from_json, sheet_to_json
from qwixx_math.record import GameRecord, TurnRecord, random_game, replay
from qwixx_math.rules import Phase, legal_action1, new_game, why_not_mark
from qwixx_math.ruleset import Ruleset
from qwixx_math.validation import validate_record

DOUBLES = [DOUBLE_B, DOUBLE_B_ALT]


def crosses_by_hand(layout: SheetLayout, colour: Colour, numbers: list[int]) -> int:
    """VARIANTS.md DB3 read directly: crossed numbers + crossed double cells + lock box."""
    doubles = {"double-b": {"red": (3, 5, 9, 11), "yellow": (3, 5, 9, 11),
                            "green": (10, 8, 6, 4), "blue": (10, 8, 6, 4)},
               "double-b-alt": {"red": (3, 5, 9, 11), "yellow": (3, 5, 9, 11),
                                "green": (11, 9, 5, 3), "blue": (11, 9, 5, 3)}}[layout.name]
    last = 12 if colour in (Colour.RED, Colour.YELLOW) else 2
    return (len(numbers) + sum(n in doubles[colour.value] for n in numbers)
            + (last in numbers))


# -- the worked examples of VARIANTS.md §7.3 --------------------------------------------------

def test_worked_example_1_scores_104() -> None:
    """Red 3,5,6,9,11 (9 crosses) then red 12 + lock: 11 crosses, 66; yellow 2,4,7: 6; green
    12,10,8,7 and blue 6,5,4,3: 6 crosses each, 21; two penalties: 104."""
    sheet = parse_sheet("double-b|r:3,5,6,9,11,12/y:2,4,7/g:12,10,8,7/b:6,5,4,3/p:2")
    assert [sheet.count(c) for c in COLOURS] == [11, 3, 6, 6]
    assert [sheet.row_score(c) for c in COLOURS] == [66, 6, 21, 21]
    assert sheet.score == 104
    # the same sheet played out: red 12 is legal once red 3,5,6,9,11 hold 9 crosses
    state = new_game(1, layout="double-b")
    before = Sheet.from_marks({Colour.RED: [3, 5, 6, 9, 11]}, layout=DOUBLE_B)
    assert before.count("red") == 9 and before.allows("red", 12)
    assert before.with_mark("red", 12).row_score("red") == 66
    assert state.layout is DOUBLE_B


def test_worked_example_2_scores_16_and_the_option_matters() -> None:
    """Green 11,9,7,5,3 holds 5 crosses by default (green 2 refused, DB2) and 9 under
    db_desc_cells = 11,9,5,3 (green 2 allowed); the final default sheet scores 16."""
    green = {Colour.GREEN: [11, 9, 7, 5, 3]}
    default = Sheet.from_marks(green, layout=DOUBLE_B)
    alt = Sheet.from_marks(green, layout=DOUBLE_B_ALT)
    assert default.count("green") == 5 and alt.count("green") == 9
    assert default.why_not("green", 2) == (
        "DB2", "green 2 needs 7 crosses (a double cell counts 2) in green before it; "
               "this sheet has 5")
    assert alt.allows("green", 2) and alt.with_mark("green", 2).count("green") == 11
    final = parse_sheet("double-b|g:11,9,7,5,3/r:3,5/y:9,10/p:3")
    assert [final.row_score(c) for c in COLOURS] == [10, 6, 15, 0]
    assert final.score == 16


# -- DB1-DB3 against a direct reading, on random sheets --------------------------------------

@st.composite
def double_sheets(draw: st.DrawFn) -> Sheet:
    layout = draw(st.sampled_from(DOUBLES))
    marks: dict[Colour, list[int]] = {}
    for colour in COLOURS:
        numbers = list(layout.numbers[layout.row_index(colour)][:-1])
        chosen = sorted(draw(st.sets(st.sampled_from(numbers))),
                        key=lambda n: numbers.index(n))
        sheet = Sheet.from_marks({colour: chosen}, layout=layout)
        if sheet.allows(colour, layout.last_number(colour)) and draw(st.booleans()):
            chosen.append(layout.last_number(colour))
        marks[colour] = chosen
    return Sheet.from_marks(marks, draw(st.integers(0, 4)), layout)


@given(double_sheets())
def test_counts_scores_and_the_lock_follow_db1_to_db3(sheet: Sheet) -> None:
    """Every row's count is DB3's crosses read by hand, the score T(crosses) (at most 16
    crosses, 136); the last number is allowed exactly at 7 crosses or more (DB2)."""
    layout = sheet.layout
    total = -5 * sheet.penalties
    for colour in COLOURS:
        numbers = list(sheet.marks(colour))
        n = crosses_by_hand(layout, colour, numbers)
        assert sheet.count(colour) == n <= 16
        assert sheet.row_score(colour) == n * (n + 1) // 2
        total += n * (n + 1) // 2
        if not sheet.is_locked(colour):
            assert sheet.allows(colour, layout.last_number(colour)) == (n >= 7)
    assert sheet.score == total


@given(double_sheets())
def test_text_and_json_round_trip(sheet: Sheet) -> None:
    """A Double B sheet's text names its layout and reads back; so does its JSON."""
    text = format_sheet(sheet)
    assert text.startswith(f"{sheet.layout.name}|")
    assert parse_sheet(text) == sheet
    assert sheet_from_json(json.loads(json.dumps(sheet_to_json(sheet)))) == sheet


def test_notation_of_the_issue() -> None:
    """'double-b|r:3,5' reads (red 3 and 5 are double cells: 4 crosses, 10 points)."""
    sheet = parse_sheet("double-b|r:3,5")
    assert sheet.layout is DOUBLE_B and sheet.count("red") == 4 and sheet.score == 10
    assert format_sheet(sheet) == "double-b|r:3,5/y:-/g:-/b:-/p:0"
    assert parse_sheet("r:3,5", layout="double-b") == sheet


def test_a_lock_with_six_crosses_is_refused_with_db2() -> None:
    """A sheet, a mark and a game all refuse red 12 after 6 crosses, naming DB2 (not R8)."""
    with pytest.raises(InvalidStateError) as err:
        parse_sheet("double-b|r:3,5,6,7,12")
    assert err.value.rule == "DB2" and str(err.value).startswith("DB2: red 12 needs 7 crosses")
    sheet = parse_sheet("double-b|r:3,5,6,7")
    with pytest.raises(IllegalMoveError, match=r"^DB2: "):
        sheet.with_mark("red", 12)
    rolled = new_game(1, layout="double-b").with_roll(Roll.of(6, 6, red=1, yellow=1, green=1,
                                                              blue=1))
    assert Mark(Colour.RED, 12) not in legal_action1(rolled, 0)
    # six numbers with no double cell: 6 crosses, which would lock an official row
    plain = parse_sheet("double-b|r:2,4,6,7,8,10")
    assert plain.count("red") == 6 and plain.why_not("red", 12)[0] == "DB2"  # type: ignore[index]
    assert parse_sheet("r:2,4,6,7,8,10").allows("red", 12)


def test_official_and_mixx_keep_r8() -> None:
    """The official sheet still cites R8 (the rule id comes from the layout)."""
    assert OFFICIAL.lock_rule == "R8" and OFFICIAL.score_rule == "R16"
    assert DOUBLE_B.lock_rule == "DB2" and DOUBLE_B.score_rule == "DB3"
    assert parse_sheet("r:2,3,4").why_not("red", 12)[0] == "R8"  # type: ignore[index]
    assert all(not la.has_doubles for name, la in LAYOUTS.items() if "double" not in name)
    assert DOUBLE_B.max_crosses == DOUBLE_B_ALT.max_crosses == 16 and OFFICIAL.max_crosses == 12


def test_the_layouts_print_the_cells_of_the_spec() -> None:
    """Double cells red/yellow 3,5,9,11; green/blue 10,8,6,4 (default) or 11,9,5,3 (alt)."""
    for layout, desc in ((DOUBLE_B, (10, 8, 6, 4)), (DOUBLE_B_ALT, (11, 9, 5, 3))):
        assert layout.numbers == OFFICIAL.numbers and layout.colours == OFFICIAL.colours
        assert layout.lock_threshold == 7
        for colour, cells in zip(COLOURS, ((3, 5, 9, 11),) * 2 + (desc,) * 2, strict=True):
            assert {n for n in range(2, 13) if layout.is_double(colour, n)} == set(cells)


def test_spelled_out_keys_carry_double_cells() -> None:
    """A small layout with double cells has a key (capital letter = double cell) that reads
    back; its weights must be 1 or 2 and the last cell single."""
    tiny = SheetLayout.plain("tiny-double", "ad", 4, lock_threshold=3,
                             weights=((1, 2, 1, 1), (2, 1, 1, 1)))
    assert tiny.key == "r2R3r4r5.Ycybyay9-t3-p4-k2"
    assert SheetLayout.from_key(tiny.key) == tiny and tiny != SheetLayout.plain("x", "ad", 4,
                                                                                lock_threshold=3)
    assert parse_sheet("r2R3r4r5.Ycybyay9-t3-p4-k2|r:3,4,5").count("red") == 5
    with pytest.raises(ParseError, match="1 or 2 crosses"):
        SheetLayout.plain("bad", "a", 4, lock_threshold=1, weights=((1, 3, 1, 1),))
    with pytest.raises(ParseError, match="last cell"):
        SheetLayout.plain("bad", "a", 4, lock_threshold=1, weights=((1, 1, 1, 2),))
    with pytest.raises(ParseError, match="lock_threshold"):
        SheetLayout.plain("bad", "a", 3, lock_threshold=4, weights=((2, 1, 1),))


def test_parts_without_double_cells_refuse_with_db1() -> None:
    """The row Markov chain counts marks, not crosses: a typed error naming DB1, not a
    wrong answer.  Sheet keys count crosses (tests/test_solver_double.py)."""
    with pytest.raises(ParseError) as err:
        turns_to_close("red", layout=DOUBLE_B)
    assert err.value.rule == "DB1"
    assert sheet_key(Sheet.empty(DOUBLE_B)) == 0


# -- records, the validator, generate ---------------------------------------------------------

def _roll(a: int, b: int) -> Roll:
    return Roll.of(a, b, red=1, yellow=1, green=1, blue=1)


def _solitaire(sums: list[tuple[int, int, str]], scores: list[int] | None = None
               ) -> GameRecord:
    """A one-player Double B record: each turn the white dice (a, b) and an action-1 mark."""
    turns = []
    for k, (a, b, mark) in enumerate(sums):
        colour, number = Colour.parse(mark[0]), int(mark[1:])
        turns.append(TurnRecord(0, _roll(a, b), (Mark(colour, number),), None,
                                None if scores is None else (scores[k],),
                                None if scores is None else (0,)))
    return GameRecord(("P1",), Ruleset(1), tuple(turns), layout=DOUBLE_B)


def test_the_validator_names_db2_for_a_lock_with_six_crosses() -> None:
    """Red 3, 5, 6, 7 (6 crosses) then red 12: the validator reports DB2 at that turn."""
    record = _solitaire([(1, 2, "r3"), (2, 3, "r5"), (3, 3, "r6"), (3, 4, "r7"), (6, 6, "r12")])
    report = validate_record(record, partial=True, dialects=False)
    assert [(v.turn, v.rule) for v in report.violations] == [(5, "DB2")]
    assert "7 crosses" in report.violations[0].message
    legal = _solitaire([(1, 2, "r3"), (2, 3, "r5"), (3, 3, "r6"), (3, 4, "r7"), (4, 4, "r8"),
                        (6, 6, "r12")])
    assert validate_record(legal, partial=True, dialects=False).valid


def test_the_validator_names_db1_and_db3_for_wrong_scores() -> None:
    """Claimed scores that count double cells once are DB1; other wrong ones DB3; right
    ones (2, 6: red 3 is 2 crosses, then red 5 4 crosses) pass."""
    moves = [(1, 2, "r3"), (2, 3, "r5")]
    assert validate_record(_solitaire(moves, [3, 10]), partial=True, dialects=False).valid
    single = validate_record(_solitaire(moves, [1, 3]), partial=True, dialects=False)
    assert [v.rule for v in single.violations] == ["DB1", "DB1"]
    other = validate_record(_solitaire(moves, [3, 11]), partial=True, dialects=False)
    assert [v.rule for v in other.violations] == ["DB3"]


@pytest.mark.parametrize("layout", DOUBLES, ids=lambda la: la.name)
def test_random_records_round_trip_and_validate(layout: SheetLayout) -> None:
    """Random Double B games name their layout, read back from JSON and validate."""
    for seed in range(3):
        record = random_game(3, seed=seed, layout=layout)
        data = json.loads(json.dumps(record.to_json()))
        assert data["layout"] == layout.name
        back = GameRecord.from_json(data)
        assert back == record and replay(back)[-1].layout == layout
        assert validate_record(back).valid


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_on_the_command_line(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """validate reports DB2 in a Double B record whose lock has 6 crosses (exit 1); a wrong
    --layout is exit 2 (generate --layout double-b: tests/test_layouts_cli.py)."""
    bad = _solitaire([(1, 2, "r3"), (2, 3, "r5"), (3, 3, "r6"), (3, 4, "r7"), (6, 6, "r12")])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad.to_json()), encoding="utf-8")
    code, out, _ = _run(["validate", str(path), "--json", "--no-dialects", "--partial"], capsys)
    assert code == 1
    assert {v["rule"] for v in json.loads(out)["violations"]} == {"DB2"}
    code, _, err = _run(["validate", str(path), "--layout", "mixx-b"], capsys)
    assert code == 2 and re.search("names layout double-b", err)


# -- the arena's built-in players --------------------------------------------------------------

@pytest.mark.parametrize("names", [["greedy", "random"], ["random", "greedy", "greedy"]])
def test_built_in_players_play_legal_double_b_games(names: list[str]) -> None:
    """greedy and random, driven through the Player protocol on Double B sheets, choose only
    marks the rules core allows, and every game ends (the arena's referee plays the
    official sheet; this is its loop on another layout)."""
    n = len(names)
    rng = random.Random(7)
    with open_players(names, Ruleset(n), 3) as players:
        for game in range(4):
            state = new_game(n, layout=DOUBLE_B, first=game % n)
            for seat, player in enumerate(players):
                player.new_game(seat, state)
            while state.phase is not Phase.OVER:
                dice = {c.value: rng.randint(1, 6) for c in COLOURS if c in state.dice_in_play}
                rolled = state.with_roll(Roll.of(rng.randint(1, 6), rng.randint(1, 6), **dice))
                choices = [p.action1(seat, rolled) for seat, p in enumerate(players)]
                for seat, mark in enumerate(choices):
                    assert mark is None or mark in legal_action1(rolled, seat)
                state = rolled.with_action1(choices)
                if state.phase is Phase.ACTION2:
                    mark = players[state.active].action2(state.active, state)
                    assert mark is None or why_not_mark(
                        state, state.active, mark.colour, mark.number) is None
                    state = state.with_action2(mark)
            assert all(s.layout is DOUBLE_B for s in state.sheets)


# -- fuzzing the new inputs --------------------------------------------------------------------

_TINY_DOUBLE = SheetLayout.plain("tiny-double", "ad", 4, lock_threshold=3,
                                 weights=((1, 2, 1, 1), (2, 1, 1, 1)))


@given(st.text("rygbpl0123456789:,/|-doubleat. ", max_size=40),
       st.sampled_from([None, "double-b", "double-b-alt", _TINY_DOUBLE]))
def test_parse_sheet_on_double_layouts_raises_only_typed_errors(
        text: str, layout: SheetLayout | str | None) -> None:
    """Any text on a Double B layout: a sheet or a QwixxError; what parses round-trips."""
    try:
        sheet = parse_sheet(text, layout)
    except (ParseError, InvalidStateError):
        return
    assert parse_sheet(format_sheet(sheet)) == sheet


@given(st.text("rygbRYGB23456789abc.-tpk0123456789", max_size=30)
       | st.sampled_from([_TINY_DOUBLE.key, _TINY_DOUBLE.key.replace("t3", "t9"),
                          "R2r3-t1-p4-k1", "r2R3-t1-p4-k1"]))
def test_layout_keys_with_double_cells_parse_or_raise_parse_error(text: str) -> None:
    """Spelled-out keys with capital (double) cells read back or are a ParseError (a double
    last cell, or a lock threshold above the row's crosses, too)."""
    try:
        layout = SheetLayout.from_key(text)
    except ParseError:
        return
    assert SheetLayout.from_key(layout.key) == layout
