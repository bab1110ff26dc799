"""The solver's value types: Variant, row codes, the symmetry group, the layout, the look-ups."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qwixx_math.solver as solver_package
from qwixx_math.errors import ParseError, QwixxError
from qwixx_math.keys import RowState, decode_open_code, open_code
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import Colour, Roll, Sheet
from qwixx_math.rules import legal_plans, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Direction, Variant, solve, symmetry_group
from qwixx_math.solver.layout import Layout
from qwixx_math.solver.symmetry import closed_set_orbits, map_mask, stabiliser

A, D = Direction.ASCENDING, Direction.DESCENDING


def test_the_official_variant() -> None:
    v = Variant()
    assert v == Variant.official() == Variant.from_letters("aadd")
    assert v.is_official and v.rows == 4 and v.open_codes == 56 and v.max_marks == 12
    assert v.key == "aadd-L11-t5-p4-k2"
    assert [v.number_at(0, q) for q in (0, 10)] == [2, 12]
    assert [v.number_at(3, q) for q in (0, 10)] == [12, 2]
    assert v.position_of(2, 12) == 0 and v.position_of(2, 13) is None


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("",), "'a' and 'd'"),
        (("aaddd",), "1 to 4 rows"),
        ((("a", "d"),), "'a' and 'd'"),
        (("ad", 12), "row_length"),
        (("ad", 0), "row_length"),
        (("ad", 11, 11), "lock_threshold"),
        (("ad", 11, -1), "lock_threshold"),
        (("ad", 11, 5, 0), "penalty"),
        (("ad", 11, 5, 4, 5), "closed_rows_to_end"),
        (("ad", 11, 5, 4, 0), "closed_rows_to_end"),
        (("ad", 5.0), "integer"),
        (("ad", 11, 5, True), "integer"),
    ],
)
def test_variant_validation(args: tuple[object, ...], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Variant.from_letters(*args)  # type: ignore[arg-type]


def test_variant_letters() -> None:
    assert Variant.from_letters("ad", 5, 2, 2, 1).directions == (A, D)
    with pytest.raises(ValueError, match="'a' and 'd'"):
        Variant.from_letters("ax")


def test_the_open_codes_of_a_row_are_numbered_in_mark_order() -> None:
    for length in range(1, 12):
        codes = range(1 + length * (length - 1) // 2)
        seen = set()
        for code in codes:
            last, marks = decode_open_code(code)
            assert open_code(last, marks) == code
            seen.add((last, marks))
            if last is not None:
                assert 0 <= last <= length - 2 and 1 <= marks <= last + 1
                for q in range(last + 1, length - 1):  # every mark moves to a larger code
                    assert open_code(q, marks + 1) > code
        assert len(seen) == len(codes)
    assert decode_open_code(0) == (None, 0)
    assert decode_open_code(55) == (9, 10)


@given(last=st.integers(0, 9), data=st.data())
def test_row_codes_round_trip(last: int, data: st.DataObject) -> None:
    marks = data.draw(st.integers(1, last + 1))
    assert decode_open_code(open_code(last, marks)) == (last, marks)


@pytest.mark.parametrize("code", [-1, 56, True, 1.0, "3", None])
def test_bad_open_codes_are_refused(code: object) -> None:
    with pytest.raises(ParseError, match="open row code"):
        decode_open_code(code)  # type: ignore[arg-type]


def test_layout_locate_reads_the_compact_row_states() -> None:
    layout = Layout.of(Variant())
    rows = (RowState(2, 2), RowState(None, 8, closed=True), RowState(None, 0), RowState(9, 4))
    index, points = layout.locate(rows, 1)
    assert points == 36
    assert index == layout.offsets[2] + 1 + sum(
        int(layout.strides[2, i]) * rows[i].code for i in (0, 2, 3))


def test_symmetry_groups() -> None:
    official = symmetry_group(Variant())
    assert len(official) == 8
    assert set(official) == {
        (0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2), (1, 0, 3, 2),
        (2, 3, 0, 1), (3, 2, 0, 1), (2, 3, 1, 0), (3, 2, 1, 0),
    }
    assert official[0] == (0, 1, 2, 3)
    assert len(symmetry_group(Variant.from_letters("aad", 3, 1, 1, 2))) == 2
    assert len(symmetry_group(Variant.from_letters("ad", 3, 1, 1, 2))) == 2
    assert len(symmetry_group(Variant.from_letters("a", 3, 1, 1, 1))) == 1
    assert len(symmetry_group(Variant.from_letters("aaad", 3, 1, 1, 2))) == 6
    # a group: closed under composition
    for g, h in itertools.product(official, repeat=2):
        assert tuple(h[g[i]] for i in range(4)) in official


def test_closed_set_orbits_of_the_official_game() -> None:
    orbits = closed_set_orbits(Variant())
    assert [rep for rep, _ in orbits] == [1, 0]  # one closed row first, then none
    (_, members), _ = orbits
    assert sorted(mask for mask, _ in members) == [1, 2, 4, 8]
    for mask, g in members:
        assert map_mask(g, 1) == mask
    assert stabiliser(Variant(), 1) == ((0, 1, 2, 3), (0, 1, 3, 2))


def test_layout_sizes() -> None:
    layout = Layout.of(Variant())
    assert layout.masks == (0, 1, 2, 4, 8)
    assert layout.size == 56**4 * 4 + 4 * 56**3 * 4
    assert layout.table_size(0) == 56**4 * 4
    assert list(layout.strides[0]) == [56**3 * 4, 56**2 * 4, 56 * 4, 4]
    assert list(layout.strides[1]) == [0, 56**2 * 4, 56 * 4, 4]
    assert layout.offsets[3] == -1  # two closed rows end the game


def test_table_lookup_validation() -> None:
    variant = Variant.from_letters("ad", 3, 0, 1, 2)
    table = solve(Ruleset(players=1), variant, cache=False)
    empty = Sheet.empty(variant.sheet)
    with pytest.raises(ParseError, match="layout"):
        table.value(Sheet.EMPTY)  # an official sheet
    with pytest.raises(ParseError, match="Sheet or a GameState"):
        table.value("r:2")  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="Sheet or a GameState"):
        table.value([RowState(None, 0)] * 2)  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="R9"):
        table.value(empty, {Colour.GREEN})  # the layout has no green row
    with pytest.raises(ParseError, match="closed colours"):
        table.value(empty, closed=5)  # type: ignore[arg-type]
    game = new_game(1, layout=variant.sheet)
    with pytest.raises(ParseError, match="closed="):
        table.value(game, {Colour.RED})
    with pytest.raises(ParseError, match="action1 phase"):
        table.value(game.with_roll(Roll.of(1, 2, red=3, yellow=4)))
    with pytest.raises(ParseError, match="R15"):
        table.value(new_game(ruleset=Ruleset(players=1, action2_after_game_end=True),
                             layout=variant.sheet))
    with pytest.raises(ParseError, match="GameState"):
        table.plan_values(empty, Roll.of(1, 2, red=3, yellow=4))  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="layout"):
        table.plan_values(new_game(1), Roll.of(1, 2, red=3, yellow=4, green=5, blue=6))
    with pytest.raises(QwixxError, match="R4"):
        table.plan_values(game, Roll.of(1, 2, red=3))  # the yellow die is in play
    assert table.value(empty.with_penalty()) == -5.0  # over: its score
    assert table.value(empty) == table.value(game) == table.start_value
    assert table.value(empty, "r") == table.value(empty, {Colour.RED})
    assert "start_value" in repr(table)


def test_a_table_reads_a_sheet_of_an_equal_layout_under_another_name() -> None:
    variant = Variant.from_letters("ad", 3, 0, 1, 2)
    table = solve(Ruleset(players=1), variant, cache=False)
    twin = SheetLayout.plain("twin", "ad", 3, lock_threshold=0, penalty_boxes=1)
    assert twin.name != variant.sheet.name
    assert table.value(Sheet.empty(twin)) == table.start_value
    # the same cells locked by green and blue: the same game, but not the table's sheet
    green_blue = SheetLayout.of_rows("green-blue", [
        [(n, Colour.GREEN) for n in (2, 3, 4)], [(n, Colour.BLUE) for n in (12, 11, 10)]],
        lock_threshold=0, penalty_boxes=1)
    assert Variant(green_blue) == variant
    with pytest.raises(ParseError, match="layout"):
        table.value(Sheet.from_marks({Colour.GREEN: [2]}, layout=green_blue))


def test_plan_values_are_the_rules_cores_plans() -> None:
    """plan_values lists exactly the rules core's legal plans, ties in its order."""
    variant = Variant.from_letters("ad", 3, 0, 1, 2)
    table = solve(Ruleset(players=1), variant, cache=False)
    game = new_game(1, layout=variant.sheet)
    roll = Roll.of(2, 2, red=1, yellow=6)
    plans = table.plan_values(game, roll)
    legal = legal_plans(game, roll)
    assert sorted(pv.plan for pv in plans) == sorted(legal)
    for a, b in itertools.pairwise(plans):
        assert a.value > b.value or legal.index(a.plan) < legal.index(b.plan)


def test_the_package_docstring_examples() -> None:
    assert doctest.testmod(solver_package, raise_on_error=False).failed == 0
