"""Qwixx Longo in the text a user types (LG1): a roll and a plan read with the dice and the
numbers of the sheet's layout, so that ``--layout longo`` takes ``w:7,8/...`` and ``r14/-``
as typed (before, every command but ``advise`` refused a 7 on a white die unless the roll
was written ``d8|...``, and ``show --plan r14/-`` refused the 14)."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.model import Colour, Mark, TurnPlan
from qwixx_math.notation import mark_from_json, parse_mark, parse_plan, parse_sheet
from qwixx_math.position import position, sheet_position
from qwixx_math.svg import sheet_svg, sheet_text

ROLL = "w:7,7/r:1/y:2/g:5/b:8"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_show_and_prob_read_a_longo_roll_and_plan_as_typed() -> None:
    code, out, err = run("show", "--layout", "longo", "--sheet", "r:2", "--roll", ROLL,
                         "--plan", "r14/-")
    assert code == 0, err
    assert "plan r14/-: mark red 14 with the white sum" in out
    code, out, err = run("prob", "--layout", "longo", "--sheet", "r:2", "--roll", ROLL)
    assert code == 0, err
    assert "r14" in out and "b15" in out


def test_a_plan_beyond_the_layout_still_exits_2_with_r2() -> None:
    code, _, err = run("show", "--sheet", "r:2", "--roll", "w:6,6/r:1/y:2/g:5/b:6",
                       "--plan", "r14/-")
    assert code == 2 and "R2" in err and "2 to 12" in err
    code, _, err = run("show", "--layout", "longo", "--sheet", "r:2", "--roll", ROLL,
                       "--plan", "r17/-")
    assert code == 2 and "R2" in err and "2 to 16" in err


def test_an_explicit_six_sided_roll_on_longo_is_refused_with_lg1() -> None:
    code, _, err = run("show", "--layout", "longo", "--sheet", "r:2",
                       "--roll", "d6|w:6,6/r:1/y:2/g:5/b:6")
    assert code == 2 and "LG1" in err


def test_positions_read_the_roll_with_the_layouts_dice() -> None:
    state = sheet_position("r:2", ROLL, layout="longo")
    assert state.roll is not None and state.roll.white_sum == 14
    table = position(["r:2", "r:3"], ROLL, layout="longo")
    assert table.roll == state.roll
    with pytest.raises(ParseError, match="R1"):  # the official sheet keeps six sides
        sheet_position("r:2", ROLL)


def test_drawings_read_the_roll_and_plan_with_the_layout() -> None:
    sheet = parse_sheet("r:2", "longo")
    assert "plan r14/-" in sheet_text(sheet, roll=ROLL, plan="r14/-")
    assert "<svg" in sheet_svg(sheet, roll=ROLL, plan="r14/-")


@given(st.sampled_from(list(Colour)), st.integers(2, 16), st.sampled_from([12, 16]))
def test_text_marks_take_the_layouts_top_number(colour: Colour, number: int, top: int
                                                ) -> None:
    text = f"{colour.value[0]}{number}"
    if number <= top:
        assert parse_mark(text, top) == Mark(colour, number)
        assert mark_from_json(text, top) == Mark(colour, number)  # the text form of JSON
        assert parse_plan(f"-/{text}", top) == TurnPlan(None, Mark(colour, number))
        assert TurnPlan.parse(f"{text}/-", top) == TurnPlan(Mark(colour, number), None)
    else:
        for read in (lambda: parse_mark(text, top), lambda: mark_from_json(text, top),
                     lambda: parse_plan(f"{text}/-", top)):
            with pytest.raises(ParseError, match="R2"):
                read()


@pytest.mark.parametrize("top", [0, 13, True, "16", None, 16.0])
def test_a_top_number_that_no_layout_has_is_refused(top: object) -> None:
    with pytest.raises(ParseError, match="highest number"):
        parse_mark("r8", top)  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="highest number"):
        parse_plan("r8/-", top)  # type: ignore[arg-type]


def test_eight_sided_dice_are_drawn_with_numerals() -> None:
    svg = sheet_svg(parse_sheet("r:2", "longo"), roll="w:7,8/r:1/y:2/g:5/b:8")
    dice = [part for part in svg.split("<g") if 'class="die"' in part]
    assert len(dice) == 6
    assert all("<circle" not in die for die in dice)
    assert ">7</text>" in dice[0] and ">8</text>" in dice[1] and ">8</text>" in dice[5]
    official = sheet_svg(parse_sheet("r:2"), roll="w:6,6/r:1/y:2/g:5/b:6")
    assert official.count("<circle") >= 6 + 6 + 1 + 2 + 5 + 6
