"""Drawn sheets (qwixx_math.svg): the SVG parsed and checked on every layout against the marks
the sheet was built from, the text drawing, the pictures of GameState and Advice."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from qwixx_math import (
    LAYOUTS,
    MIXX_A,
    Colour,
    Mark,
    ParseError,
    QwixxError,
    Roll,
    Sheet,
    SheetLayout,
    TurnPlan,
    new_game,
    parse_plan,
    parse_roll,
    parse_sheet,
    random_game,
    replay,
)
from qwixx_math.errors import InvalidStateError
from qwixx_math.svg import advice_svg, sheet_svg, sheet_text, state_svg

SVG = "{http://www.w3.org/2000/svg}"


def elements(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return [e for e in root.iter() if e.get("class") == cls]


@st.composite
def marked_sheets(draw: st.DrawFn, layout: SheetLayout
                  ) -> tuple[Sheet, set[tuple[Colour, int]], frozenset[Colour]]:
    """A sheet built from marks drawn per row (left to right), the set of (row, number)
    it was built from, and some other colours closed."""
    rows: dict[Colour, list[int]] = {}
    expected: set[tuple[Colour, int]] = set()
    for numbers, colours in zip(layout.numbers, layout.colours, strict=True):
        row = colours[-1]
        positions = sorted(draw(st.sets(st.integers(0, len(numbers) - 1))))
        # R8 (LG2): a lock number needs enough marks before it and ends the row; Longo
        # has two lock numbers, at most one of them crossed
        locks = [p for p in positions if p >= len(numbers) - layout.lock_cells]
        for p in locks[1:]:
            positions.remove(p)
        if locks and len(positions) - 1 < layout.lock_threshold:
            positions.remove(locks[0])
        rows[row] = [numbers[p] for p in positions]
        expected |= {(row, numbers[p]) for p in positions}
    for pair in layout.chain:  # Connected Chain: both cells of a pair or neither (CC7)
        cells = [(layout.locks[r], layout.numbers[r][p]) for r, p in pair]
        if any(cell in expected for cell in cells):
            for row, number in cells:
                if (row, number) not in expected:
                    expected.add((row, number))
                    rows[row] = sorted([*rows[row], number],
                                       key=lambda n, r=row: layout.position(r, n) or 0)
    penalties = draw(st.integers(0, layout.penalty_boxes))
    # Bonus A: a field taken per crossed boxed cell, while fields last (BA1)
    boxed = sum(layout.box_mask[c.index] >> layout.pos[c.index][n] & 1 for c, n in expected)
    try:
        sheet = Sheet.from_marks(rows, penalties, layout,
                                 bar_taken=(1 << min(boxed, len(layout.bar))) - 1)
    except InvalidStateError as error:  # a forced cross missing (BA2, BB3): no game's sheet
        assert error.rule in ("BA2", "BB3"), error
        assume(False)
    others = frozenset(draw(st.sets(st.sampled_from(layout.locks))))
    return sheet, expected, others


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_one_cell_element_per_cell_and_marks_where_the_sheet_has_them(name: str) -> None:
    layout = LAYOUTS[name]

    @settings(max_examples=30, deadline=None)
    @given(marked_sheets(layout))
    def check(case: tuple[Sheet, set[tuple[Colour, int]], frozenset[Colour]]) -> None:
        sheet, expected, others = case
        svg = sheet_svg(sheet, closed=others)
        cells = elements(svg, "cell")
        assert len(cells) == sum(len(row) for row in layout.numbers)
        seen = set()
        for cell in cells:
            row, number = Colour(cell.get("data-row")), int(cell.get("data-number", ""))
            position = int(cell.get("data-position", ""))
            seen.add((row, number))
            i = layout.locks.index(row)
            assert layout.numbers[i][position] == number
            assert cell.get("data-colour") == layout.colours[i][position].value
            marked = cell.get("data-marked") == "true"
            assert marked == ((row, number) in expected)
            # a marked cell holds a cross, an unmarked one none
            assert len([e for e in cell.iter() if e.get("class") == "mark"]) == int(marked)
        assert len(seen) == len(cells)  # no cell drawn twice
        for lock in elements(svg, "lock"):
            row = Colour(lock.get("data-row"))
            lock_numbers = layout.numbers[layout.locks.index(row)][-layout.lock_cells:]
            assert (lock.get("data-locked") == "true") == any(
                (row, n) in expected for n in lock_numbers)
        closed = others | {r for r in layout.locks if any(
            (r, n) in expected for n in layout.numbers[layout.locks.index(r)][-layout.lock_cells:])}
        rows = elements(svg, "row")
        assert [Colour(r.get("data-row")) for r in rows] == list(layout.locks)
        assert {Colour(r.get("data-row")) for r in rows if r.get("data-closed") == "true"} \
            == closed
        boxes = elements(svg, "penalty")
        assert len(boxes) == layout.penalty_boxes
        assert sum(b.get("data-marked") == "true" for b in boxes) == sheet.penalties

    check()


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_markable_cells_are_the_ones_the_rules_allow(name: str) -> None:
    """``data-markable`` agrees with the rules core's why_not_mark on a random game's sheets."""
    from qwixx_math.rules import why_not_mark

    states = replay(random_game(players=2, seed=3, layout=name))
    state = states[len(states) // 2]
    for player, sheet in enumerate(state.sheets):
        for cell in elements(sheet_svg(sheet, closed=state.closed), "cell"):
            row, number = Colour(cell.get("data-row")), int(cell.get("data-number", ""))
            allowed = why_not_mark(state, player, row, number) is None
            assert (cell.get("data-markable") == "true") == allowed, (row, number)


def test_the_plan_is_outlined_and_the_roll_drawn_as_dice() -> None:
    sheet = parse_sheet("r:2,3/g:12/p:1")
    svg = sheet_svg(sheet, roll="w:3,5/r:1/y:2/b:4", plan="r8/b9")
    planned = {(c.get("data-row"), c.get("data-number"), c.get("data-plan"))
               for c in elements(svg, "cell") if c.get("data-plan")}
    assert planned == {("red", "8", "1"), ("blue", "9", "2")}
    dice = [(d.get("data-colour"), d.get("data-face")) for d in elements(svg, "die")]
    assert dice == [("white", "3"), ("white", "5"), ("red", "1"), ("yellow", "2"),
                    ("blue", "4")]
    for die in elements(svg, "die"):  # as many pips as the face shows
        assert len(die.findall(f"{SVG}circle")) == int(die.get("data-face", ""))
    penalty = sheet_svg(sheet, plan=TurnPlan())
    assert [b.get("data-index") for b in elements(penalty, "penalty")
            if b.get("data-plan") == "penalty"] == ["1"]  # the next box
    assert not [c for c in elements(penalty, "cell") if c.get("data-plan")]


def test_a_mixx_a_row_mixes_cell_colours() -> None:
    cells = elements(sheet_svg(Sheet.empty(MIXX_A)), "cell")
    red_row = [c.get("data-colour") for c in cells if c.get("data-row") == "red"]
    assert red_row == ["yellow"] * 3 + ["blue"] * 3 + ["green"] * 3 + ["red"] * 2


def test_text_is_escaped() -> None:
    svg = sheet_svg(Sheet.EMPTY, title='<b>"Kari" & co</b>')
    titles = elements(svg, "title")
    assert [t.text for t in titles] == ['<b>"Kari" & co</b>']


def test_bad_arguments_are_qwixx_errors() -> None:
    for call in (lambda: sheet_svg("r:2"),  # type: ignore[arg-type]
                 lambda: sheet_svg(Sheet.EMPTY, plan="r13/-"),
                 lambda: sheet_svg(Sheet.EMPTY, roll="w:9,9"),
                 lambda: sheet_svg(Sheet.EMPTY, closed=["purple"]),
                 lambda: sheet_svg(Sheet.EMPTY, plan=3),  # type: ignore[arg-type]
                 lambda: sheet_svg(Sheet.EMPTY, title=3),  # type: ignore[arg-type]
                 lambda: state_svg(Sheet.EMPTY),
                 lambda: state_svg(new_game(2), player=2),
                 lambda: sheet_text(Sheet.EMPTY, plan="-/x")):
        with pytest.raises(QwixxError):
            call()
    tiny = SheetLayout.plain("tiny", "ad", 3, lock_threshold=1)
    with pytest.raises(ParseError, match="R2"):  # a plan on a cell the layout lacks
        sheet_svg(Sheet.empty(tiny), plan="r8/-")


def test_text_drawing_shows_marks_skipped_cells_plan_and_closed_rows() -> None:
    sheet = parse_sheet("r:2,4/g:12,11,10,9,8,2/p:2")
    text = sheet_text(sheet, closed="b", plan="r5/y3")
    lines = text.splitlines()
    red, yellow, green, blue = lines[:4]
    assert red.startswith("red") and red.count("[") == 2 and "<" in red and " . " in red
    assert "<" in yellow and "[" not in yellow
    assert green.count("[") == 6 + 1 and "[lock]" in green and "closed" in green  # + lock
    assert "closed" in blue and "closed" not in red
    assert lines[4] == "penalties [x] [x] [ ] [ ]   score 21"  # 3 + 28 - 10
    assert lines[5].startswith("plan r5/y3: mark red 5 with the white sum")
    mixx = sheet_text(Sheet.from_marks({Colour.RED: [2]}, layout=MIXX_A))
    assert mixx.splitlines()[1].startswith("red    [ y2]")


def test_sheet_state_and_advice_show_themselves() -> None:
    sheet = parse_sheet("r:2,3/p:1")
    assert sheet._repr_svg_() == sheet_svg(sheet)
    assert sheet.to_svg(plan="r4/-") == sheet_svg(sheet, plan="r4/-")
    assert sheet.to_text() == sheet_text(sheet)
    state = new_game(3).with_roll(parse_roll("w:1,2/r:1/y:1/g:1/b:1"))
    svg = state._repr_svg_()
    assert len(elements(svg, "sheet")) == 3
    assert len(elements(svg, "die")) == 6
    assert len(elements(state.to_svg(player=1), "sheet")) == 1
    assert state.to_text().count("penalties") == 3
    assert state_svg(state) == svg


def test_advice_text_and_picture() -> None:
    from qwixx_math.advice import Advice, Advisor

    advisor = Advisor.for_ruleset(progress=False)
    state = new_game(1)
    roll = parse_roll("w:1,1/r:1/y:6/g:6/b:1")
    advice = advisor.advise(state, roll)
    text = str(advice)
    lines = text.splitlines()
    assert len(lines) == 1 + len(advice.plans) + 1
    assert lines[1].split()[:2] == ["1", str(advice.best.plan)]
    assert lines[-1] == f"model: {advice.model}"
    assert advice.to_text(top=2).splitlines()[3] == f"({len(advice.plans) - 2} more choices)"
    with pytest.raises(ParseError):
        advice.to_text(top=0)
    svg = advice._repr_svg_()
    assert svg is not None
    planned = {(c.get("data-row"), c.get("data-number"), c.get("data-plan"))
               for c in elements(svg, "cell") if c.get("data-plan")}
    best = advice.best.plan
    assert planned == {(m.colour.value, str(m.number), str(i))
                       for i, m in ((1, best.action1), (2, best.action2)) if m is not None}
    assert len(elements(svg, "caption")) == 1 + 2  # the plan in words, choices 2 and 3
    assert advice == Advice(advice.player, advice.passive, advice.plans, advice.model,
                            advice.layout)  # the state does not change equality
    bare = Advice(0, False, advice.plans)
    assert bare._repr_svg_() is None
    with pytest.raises(ParseError, match="sheet_svg"):
        advice_svg(bare)


def test_sheet_roll_and_plan_refuse_text_with_the_one_line_alternative() -> None:
    with pytest.raises(ParseError, match=r"Sheet\.parse\('r:2,3'\)"):
        Sheet("r:2,3")  # type: ignore[arg-type]
    with pytest.raises(ParseError, match=r"Roll\.parse\('w:3,5'\)"):
        Roll("w:3,5")  # type: ignore[arg-type]
    with pytest.raises(ParseError, match=r"TurnPlan\.parse\('r8/-'\)"):
        TurnPlan("r8/-")  # type: ignore[arg-type]
    assert Sheet.parse("r:2,3") == parse_sheet("r:2,3")
    assert Sheet.parse("r:10,6", layout="mixx-b") == parse_sheet("mixx-b|r:10,6")
    assert Roll.parse("w:3,5/r:1") == Roll.of(3, 5, red=1)
    assert TurnPlan.parse("r8/g9") == parse_plan("r8/g9") == TurnPlan(
        Mark(Colour.RED, 8), Mark(Colour.GREEN, 9))


SHEETS = [Sheet.EMPTY, parse_sheet("r:2,3,4,5,6,12/g:12/p:4"), parse_sheet("mixx-a|r:2,5/p:1"),
          parse_sheet("mixx-b|b:5,7,11/p:0"),
          Sheet.empty(SheetLayout.plain("t", "ad", 3, lock_threshold=1))]  # red, yellow only
ANY = st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=10), st.sampled_from([
    "g,b", "r", "purple", "w:3,5/r:1/y:2/g:6/b:4", "w:6,6", "r8/g9", "-/-", "r12/-", "b2/-",
    "g12/y7", Colour.RED, TurnPlan(), TurnPlan(Mark(Colour.BLUE, 5)), Roll.of(1, 1),
    frozenset({Colour.GREEN}), [Colour.RED, "b"], ["purple"], b"r", object(), *SHEETS]))


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.sampled_from(SHEETS), ANY), ANY, ANY, ANY, ANY, st.booleans())
def test_fuzz_the_drawings(sheet: object, closed: object, roll: object, plan: object,
                           title: object, text: bool) -> None:
    """Arbitrary arguments: a well-formed drawing or a QwixxError, nothing else."""
    try:
        if text:
            sheet_text(sheet, closed=closed, roll=roll, plan=plan)  # type: ignore[arg-type]
        else:
            svg = sheet_svg(sheet, closed=closed, roll=roll, plan=plan,  # type: ignore[arg-type]
                            title=title)  # type: ignore[arg-type]
            ET.fromstring(svg)
    except QwixxError:
        pass
