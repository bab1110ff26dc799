"""The rules core on every sheet layout (issue 13): the published pads' cells against the
issue's lists, a brute-force check of the legal plans on Qwixx Mixx against a direct
reading of the Mixx rule, notation and key round trips, and typed errors for sheets a
layout cannot hold."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import RULE_LAYOUTS, TINY

from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.keys import decode_key, key_space, sheet_from_key, sheet_key
from qwixx_math.layouts import MIXX_A, MIXX_B, OFFICIAL, SheetLayout, layout_named
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import format_sheet, parse_sheet, sheet_from_json, sheet_to_json
from qwixx_math.record import GameRecord, random_game, replay
from qwixx_math.rules import GameState, legal_action1, legal_plans, new_game, why_not_mark
from qwixx_math.ruleset import DieRemoval, EndCheck, Ruleset

# -- the issue's lists, as printed there ------------------------------------------------------

MIXX_A_TEXT = """
Row 1 (2..12): yellow 2-4, blue 5-7, green 8-10, red 11-12.
Row 2 (2..12): red 2-3, green 4-7, blue 8-9, yellow 10-12.
Row 3 (12..2): blue 12-10, yellow 9-7, red 6-4, green 3-2.
Row 4 (12..2): green 12-11, red 10-7, yellow 6-5, blue 4-2.
"""
MIXX_B_TEXT = """
Red: 10 6 2 8 3 4 12 5 9 7 11.
Yellow: 9 12 4 6 7 2 5 8 11 3 10.
Green: 8 2 10 12 6 9 7 4 5 11 3.
Blue: 5 7 11 9 12 3 8 10 2 6 4.
"""


def _mixx_a_rows() -> list[list[tuple[int, Colour]]]:
    """Each Mixx A row as (number, colour) cells, left to right, read from the issue text."""
    rows = []
    for line in MIXX_A_TEXT.strip().splitlines():
        m = re.fullmatch(r"Row \d \((\d+)\.\.(\d+)\): (.*)\.", line)
        assert m is not None
        first, last = int(m.group(1)), int(m.group(2))
        step = 1 if last > first else -1
        numbers = list(range(first, last + step, step))
        colour_of: dict[int, Colour] = {}
        for seg in m.group(3).split(", "):
            name, span = seg.split(" ")
            a, b = (int(x) for x in span.split("-"))
            for n in range(min(a, b), max(a, b) + 1):
                colour_of[n] = Colour.parse(name)
        rows.append([(n, colour_of[n]) for n in numbers])
    return rows


def _mixx_b_rows() -> list[list[tuple[int, Colour]]]:
    rows = []
    for line in MIXX_B_TEXT.strip().splitlines():
        name, numbers = line.rstrip(".").split(": ")
        rows.append([(int(n), Colour.parse(name)) for n in numbers.split()])
    return rows


#: The cells of each pad by lock colour (the colour of a row's last cell), straight from the
#: issue: {lock colour: [(number, cell colour), ...]}.
ISSUE_CELLS: dict[str, dict[Colour, list[tuple[int, Colour]]]] = {
    "mixx-a": {row[-1][1]: row for row in _mixx_a_rows()},
    "mixx-b": {row[-1][1]: row for row in _mixx_b_rows()},
}


@pytest.mark.parametrize("layout", [MIXX_A, MIXX_B], ids=lambda la: la.name)
def test_published_cells_are_the_issues_lists(layout: SheetLayout) -> None:
    """Every cell of both Mixx pads (number, colour, order) and the lock colours are the
    issue's; every row has 11 distinct numbers 2..12 and the four locks differ."""
    cells = ISSUE_CELLS[layout.name]
    assert set(cells) == set(COLOURS)
    assert layout.locks == COLOURS
    for lock, row in cells.items():
        assert sorted(n for n, _ in row) == list(range(2, 13))
        i = layout.row_index(lock)
        assert list(zip(layout.numbers[i], layout.colours[i], strict=True)) == row
        for p, (n, c) in enumerate(row):
            assert layout.position(lock, n) == p
            assert layout.cell_colour(lock, n) is c
        assert layout.last_number(lock) == row[-1][0]
        assert layout.closes(lock, row[-1][0]) and not layout.closes(lock, row[0][0])
    assert MIXX_A.numbers == OFFICIAL.numbers  # Mixx A keeps the numbers, mixes colours
    assert all(set(cs) == {cs[0]} for cs in MIXX_B.colours)  # Mixx B keeps the colours


def test_official_layout_agrees_with_the_colour_helpers() -> None:
    """The official layout states what Colour.position/number/last_number say (R2)."""
    for c in COLOURS:
        assert OFFICIAL.last_number(c) == c.last_number
        for n in range(2, 13):
            assert OFFICIAL.position(c, n) == c.position(n)
            assert OFFICIAL.cell_colour(c, n) is c
            assert OFFICIAL.action2_rows(c, n) == (c,)
    assert OFFICIAL.is_official and not MIXX_A.is_official


# -- a direct reading of the Mixx rule --------------------------------------------------------

def _reference_plans(cells: dict[Colour, list[tuple[int, Colour]]], marks: dict[Colour, list[int]],
                     closed: frozenset[Colour], roll: Roll,
                     die_removal: DieRemoval) -> set[tuple[Mark | None, Mark | None]]:
    """The active player's plans in a 2-player game, straight from the issue: action 1 the
    white sum in any open row; action 2 white + die c in a cell of colour c of any open row;
    left to right (R7), the last number after 5 marks (R8); closing a row takes its lock
    colour's die out (R9, at once officially); two closed rows end the game (R14)."""
    def numbers(row: Colour) -> list[int]:
        return [n for n, _ in cells[row]]

    def can(held: dict[Colour, list[int]], row: Colour, n: int) -> bool:
        seq = numbers(row)
        if n not in seq:
            return False
        p = seq.index(n)
        done = [seq.index(x) for x in held[row]]
        if done and (p <= max(done) or max(done) == len(seq) - 1):
            return False
        return p != len(seq) - 1 or len(done) >= 5

    s = roll.white_sum
    out: set[tuple[Mark | None, Mark | None]] = set()
    a1s: list[Mark | None] = [None] + [Mark(r, s) for r in COLOURS
                                       if r not in closed and can(marks, r, s)]
    for a1 in a1s:
        held = {r: list(v) for r, v in marks.items()}
        shut = set(closed)
        if a1 is not None:
            held[a1.colour].append(a1.number)
            if a1.number == numbers(a1.colour)[-1]:
                shut.add(a1.colour)
        out.add((a1, None))
        if len(shut) >= 2:
            continue  # R14 in action 1, no action 2 (R15)
        gone = shut if die_removal is DieRemoval.IMMEDIATE else set(closed)
        for c in COLOURS:
            d = roll.die(c)
            if d is None or c in gone:
                continue
            for w in roll.white:
                for r in COLOURS:
                    if r in gone or (w + d, c) not in cells[r]:
                        continue
                    if can(held, r, w + d):
                        out.add((a1, Mark(r, w + d)))
    return out


@st.composite
def mixx_positions(draw: st.DrawFn, layout: SheetLayout
                   ) -> tuple[dict[Colour, list[int]], frozenset[Colour], Roll, DieRemoval]:
    """A Mixx sheet (each row a legal sequence, often near its lock), at most one closed row,
    a roll of the dice in play and a die-removal rule."""
    marks: dict[Colour, list[int]] = {}
    for c in COLOURS:
        seq = list(layout.numbers[layout.row_index(c)])
        k = draw(st.integers(0, 10))
        chosen = sorted(draw(st.sets(st.integers(0, 9), max_size=k)))
        marks[c] = [seq[p] for p in chosen]
    locked = [c for c in COLOURS if len(marks[c]) >= 5 and draw(st.booleans())]
    for c in locked[:1]:
        marks[c].append(layout.last_number(c))
    closed = frozenset(locked[:1]) or frozenset(
        draw(st.sampled_from([(), *[(c,) for c in COLOURS]])))
    die = st.integers(1, 6)
    coloured = tuple(None if c in closed else draw(die) for c in COLOURS)
    roll = Roll((draw(die), draw(die)), coloured)  # type: ignore[arg-type]
    return marks, closed, roll, draw(st.sampled_from(list(DieRemoval)))


@settings(max_examples=250, deadline=None)
@given(st.sampled_from([MIXX_A, MIXX_B]).flatmap(
    lambda la: st.tuples(st.just(la), mixx_positions(la))))
def test_legal_plans_on_mixx_are_the_direct_reading(
        case: tuple[SheetLayout, tuple[dict[Colour, list[int]], frozenset[Colour], Roll,
                                       DieRemoval]]) -> None:
    """legal_plans on Mixx A and B equals the brute-force reading of the issue's rule, with
    no duplicates and in the layout's order."""
    layout, (marks, closed, roll, removal) = case
    sheet = Sheet.from_marks(marks, layout=layout)
    state = GameState(Ruleset(2, die_removal=removal), (sheet, Sheet.empty(layout)),
                      closed=closed | sheet.locked)
    plans = legal_plans(state, roll)
    got = {(p.action1, p.action2) for p in plans}
    assert len(got) == len(plans)
    assert got == _reference_plans(ISSUE_CELLS[layout.name], marks, state.closed, roll, removal)
    positions = [tuple((-1, -1) if m is None else (m.colour.index,
                                                   layout.position(m.colour, m.number) or 0)
                       for m in (p.action1, p.action2)) for p in plans]
    assert positions == sorted(positions)


def test_mixx_a_white_sum_anywhere_coloured_die_in_its_colour() -> None:
    """On Mixx A the white sum 5 may go in any row (row 1's 5 is a blue cell), white + blue
    only in blue cells; closing the red-lock row takes the red die out, while row 2's red
    cells 2 and 3 still take the white sum."""
    game = new_game(1, layout=MIXX_A).with_roll(Roll.of(2, 3, red=1, yellow=1, green=1, blue=3))
    assert legal_action1(game, 0) == tuple(Mark(c, 5) for c in COLOURS)
    after = game.with_action1([None])
    assert why_not_mark(after, 0, "red", 5) is None  # white 2 + blue 3 in row 1's blue 5
    assert why_not_mark(after, 0, "yellow", 5) is not None  # row 2's 5 is green
    assert why_not_mark(after, 0, "yellow", 5)[0] == "R6"  # type: ignore[index]
    sheet = parse_sheet("r:2,3,4,5,6,12", layout=MIXX_A)  # the red-lock row ends in red 12
    closed = GameState(Ruleset(1), (sheet,), closed=frozenset({Colour.RED}))
    assert closed.dice_in_play == frozenset(COLOURS) - {Colour.RED}
    rolled = closed.with_roll(Roll.of(1, 2, yellow=1, green=1, blue=1))
    assert Mark(Colour.YELLOW, 3) in legal_action1(rolled, 0)  # a red cell, white sum
    with pytest.raises(IllegalMoveError, match="R9"):
        closed.with_roll(Roll.of(1, 2, red=1, yellow=1, green=1, blue=1))


# -- notation, JSON, keys, records -----------------------------------------------------------

@st.composite
def layout_sheets(draw: st.DrawFn, layout: SheetLayout) -> Sheet:
    """Any valid sheet of ``layout``."""
    masks = [0, 0, 0, 0]
    for c, cells in zip(layout.locks, layout.numbers, strict=True):
        last = 1 << (len(cells) - 1)
        mask = draw(st.integers(0, last - 1))
        if mask.bit_count() >= layout.lock_threshold and draw(st.booleans()):
            mask |= last
        masks[c.index] = mask
    return Sheet((masks[0], masks[1], masks[2], masks[3]),
                 draw(st.integers(0, layout.penalty_boxes)), layout)


ANY_LAYOUT_SHEET = st.sampled_from(RULE_LAYOUTS).flatmap(layout_sheets)


@given(ANY_LAYOUT_SHEET, st.frozensets(st.sampled_from(COLOURS)))
def test_sheet_text_json_and_key_round_trip(sheet: Sheet, closed: frozenset[Colour]) -> None:
    """Text and JSON of a sheet of any layout round-trip and name the layout (the official
    sheet's text has no prefix); its key round-trips and keeps its future."""
    layout = sheet.layout
    text = format_sheet(sheet)
    assert text.startswith(f"{layout.key}|") != layout.is_official
    assert parse_sheet(text) == sheet
    data = json.loads(json.dumps(sheet_to_json(sheet)))
    assert ("layout" in data) != layout.is_official
    assert sheet_from_json(data) == sheet
    shut = (closed & frozenset(layout.locks)) | sheet.locked
    key = sheet_key(sheet, shut)
    assert 0 <= key < key_space(layout)
    rep, rep_closed = sheet_from_key(key, layout)
    assert rep_closed == shut and sheet_key(rep, rep_closed) == key
    for c, row in zip(layout.locks, decode_key(key, layout).rows, strict=True):
        assert row.count == sheet.count(c) == rep.count(c) and row.closed == (c in shut)
        if not row.closed:
            assert rep.last_number(c) is None or layout.position(c, rep.last_number(c)) == \
                layout.position(c, sheet.last_number(c))  # type: ignore[arg-type]


@pytest.mark.parametrize("layout", RULE_LAYOUTS, ids=lambda la: la.name)
@given(data=st.data())
def test_every_key_round_trips(layout: SheetLayout, data: st.DataObject) -> None:
    """sheet_key(*sheet_from_key(k, layout)) == k for keys of every layout."""
    key = data.draw(st.integers(0, key_space(layout) - 1))
    sheet, closed = sheet_from_key(key, layout)
    assert sheet.layout == layout and sheet_key(sheet, closed) == key
    assert decode_key(key, layout).key == key


def test_mixx_keys_share_the_official_key_space() -> None:
    """Mixx A and B rows have 11 cells like the official ones: the same codes, one space."""
    assert key_space(MIXX_A) == key_space(MIXX_B) == key_space(OFFICIAL)
    a = parse_sheet("r:2,5/g:12,9/p:1", layout=MIXX_A)
    assert sheet_key(a) == sheet_key(parse_sheet("r:2,5/g:12,9/p:1"))


@pytest.mark.parametrize(("text", "layout", "rule", "match"), [
    ("b:5", TINY, "R2", "has no blue row"),
    ("r:9", TINY, "R2", "shows 2, 3, 4, 5, 6, 7, not 9"),
    ("mixx-b|r:10,6", MIXX_A, None, "names layout mixx-b but layout mixx-a"),
    ("mixx-c|r:2", None, None, "unknown layout"),
    ("mixx-b|r:6,10", None, "R7", "not right of"),
    ("mixx-b|r:10,11", None, "R8", "needs 5 marks"),
    ("mixx-a|p:5", None, "R2", "4 penalty boxes"),
])
def test_sheet_text_errors_name_the_rule(text: str, layout: SheetLayout | None, rule: str | None,
                                         match: str) -> None:
    """A sheet its layout cannot hold is a typed error naming the rule (R2 for a number its
    row does not show)."""
    with pytest.raises((ParseError, InvalidStateError)) as err:
        parse_sheet(text, layout)
    assert getattr(err.value, "rule", None) == rule
    assert re.search(match, str(err.value))


def test_game_state_checks_the_layout() -> None:
    """All sheets of a game share a layout (R2); a layout's missing colours have no die
    (R4) and no closed row (R9); its boxes and closed rows to end rule R13 and R14."""
    with pytest.raises(InvalidStateError, match=r"R2: .*same sheet"):
        GameState(Ruleset(2), (Sheet.empty(MIXX_A), Sheet.empty()))
    tiny = new_game(2, layout=TINY)
    assert tiny.dice_in_play == frozenset(COLOURS[:3])
    with pytest.raises(IllegalMoveError, match="R4: layout tiny has no blue row"):
        tiny.with_roll(Roll.of(1, 1, red=1, yellow=1, green=1, blue=1))
    with pytest.raises(InvalidStateError, match="R9"):
        GameState(Ruleset(2), tiny.sheets, closed=frozenset({Colour.BLUE}))
    three = Sheet((0, 0, 0, 0), 3, TINY)
    with pytest.raises(InvalidStateError, match="R13: a player has 3 penalties"):
        GameState(Ruleset(1), (three,))
    with pytest.raises(InvalidStateError, match="R2: a sheet has 3 penalty boxes"):
        Sheet((0, 0, 0, 0), 4, TINY)
    # R8 with the layout's threshold: the third cell locks after two marks
    sheet = parse_sheet("r:2,3,4,5,6,7", layout=TINY)
    assert sheet.is_locked("red") and sheet.count("red") == 7
    with pytest.raises(InvalidStateError, match="R8: red 7 needs 2 marks"):
        parse_sheet("r:2,7", layout=TINY)


@pytest.mark.parametrize("layout", RULE_LAYOUTS, ids=lambda la: la.name)
def test_records_replay_on_every_layout(layout: SheetLayout) -> None:
    """A random game's record names its layout in JSON and replays to the same end."""
    record = random_game(3, seed=5, layout=layout)
    data = json.loads(json.dumps(record.to_json()))
    assert data.get("layout", "official") == layout.key
    back = GameRecord.from_json(data)
    assert back == record and replay(back)[-1].layout == layout
    assert layout_named(layout.key) == layout


def test_plans_describe_the_die_of_the_cell() -> None:
    """A plan on Mixx A names the die it uses: the cell's colour, not the row's."""
    plan = TurnPlan(None, Mark(Colour.RED, 5))
    assert plan.describe(MIXX_A) == "mark red 5 with white + blue"
    assert plan.describe() == "mark red 5 with white + red"


def test_closing_the_second_row_ends_a_tiny_game() -> None:
    """On the tiny layout (lock after 2 marks) closing a second row ends the game by R14, in
    action 1 officially and at the end of the turn under end_check=end_of_turn."""
    sheet = parse_sheet("r:2,3,7/y:12,11", layout=TINY)
    roll = Roll.of(3, 4, yellow=1, green=1)  # white sum 7: yellow's last number
    for check, phase_after1 in ((EndCheck.AFTER_ACTIONS, "over"),
                                (EndCheck.END_OF_TURN, "action2")):
        state = GameState(Ruleset(1, end_check=check), (sheet,), closed=sheet.locked)
        after1 = state.with_roll(roll).with_action1([Mark(Colour.YELLOW, 7)])
        assert after1.phase.value == phase_after1
        end = after1 if after1.is_over else after1.with_action2(None)
        assert end.is_over and end.ended_by == "R14"
        assert end.sheets[0].score == 10 + 10  # 4 marks with the lock in each row


# -- fuzzing ------------------------------------------------------------------------------------

_SHEET_ALPHABET = "rygbpl0123456789:,/|-ximxab. "


@given(st.text(_SHEET_ALPHABET, max_size=40),
       st.sampled_from([None, "official", "mixx-a", "mixx-b", TINY]))
def test_parse_sheet_on_layouts_raises_only_typed_errors(text: str,
                                                        layout: SheetLayout | str | None) -> None:
    """Any text, on any layout: a sheet of that layout or a QwixxError, never another
    exception; what parses round-trips."""
    try:
        sheet = parse_sheet(text, layout)
    except (ParseError, InvalidStateError):
        return
    assert parse_sheet(format_sheet(sheet)) == sheet


@given(st.text(max_size=30) | st.sampled_from(["official", "MIXX-A", " mixx-b ", TINY.key,
                                               TINY.key.replace("t2", "t9"), "r2-t0-p1-k1"]))
def test_layout_names_and_keys_parse_or_raise_parse_error(text: str) -> None:
    """layout_named reads the published names and spelled-out keys; anything else is a
    ParseError (a key describing an impossible layout too)."""
    try:
        layout = layout_named(text)
    except ParseError:
        return
    assert layout_named(layout.key) == layout


@given(st.dictionaries(st.sampled_from(["layout", "red", "yellow", "locks", "penalties"]),
                       st.none() | st.integers(-2, 13) | st.text(max_size=6)
                       | st.lists(st.integers(0, 13), max_size=4), max_size=4))
def test_sheet_json_with_layouts_raises_only_typed_errors(data: dict[str, object]) -> None:
    """Garbage sheet JSON, layout field included: a sheet or a QwixxError."""
    try:
        sheet = sheet_from_json(data)
    except (ParseError, InvalidStateError):
        return
    assert sheet_from_json(sheet_to_json(sheet)) == sheet
