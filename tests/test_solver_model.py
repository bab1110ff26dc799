"""The solver's value types: Variant, RowState, row codes, the symmetry group, the layout."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qwixx_math.solver as solver_package
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Direction, RowState, Variant, solve, symmetry_group
from qwixx_math.solver.layout import Layout
from qwixx_math.solver.state import decode_row, encode_row
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
            last, marks = decode_row(code)
            assert encode_row(last, marks) == code
            seen.add((last, marks))
            if last is not None:
                assert 0 <= last <= length - 2 and 1 <= marks <= last + 1
                for q in range(last + 1, length - 1):  # every mark moves to a larger code
                    assert encode_row(q, marks + 1) > code
        assert len(seen) == len(codes)
    assert decode_row(0) == (None, 0)
    assert decode_row(55) == (9, 10)


@given(last=st.integers(0, 9), data=st.data())
def test_row_codes_round_trip(last: int, data: st.DataObject) -> None:
    marks = data.draw(st.integers(1, last + 1))
    assert decode_row(encode_row(last, marks)) == (last, marks)


def test_row_state_validation() -> None:
    assert RowState() == RowState.empty()
    assert RowState.open(3, 2) == RowState(marks=2, last=3)
    assert RowState.locked(7).points == 28
    with pytest.raises(ValueError, match="R7"):
        RowState(marks=5, last=3)
    with pytest.raises(ValueError, match="last position"):
        RowState(marks=2)
    with pytest.raises(ValueError, match="closed RowState"):
        RowState(marks=7, last=10, closed=True)
    with pytest.raises(ValueError, match="non-negative"):
        RowState(marks=-1)
    with pytest.raises(ValueError, match="R8"):
        RowState.open(10, 6).check(Variant())
    with pytest.raises(ValueError, match="at most 12"):
        RowState.locked(13).check(Variant())


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
    table = solve(Ruleset(players=1), Variant.from_letters("ad", 3, 0, 1, 2), cache=False)
    with pytest.raises(ValueError, match="2 rows"):
        table.value([RowState()], 0)
    with pytest.raises(ValueError, match="penalties"):
        table.value([RowState(), RowState()], 2)
    with pytest.raises(ValueError, match="R8"):
        table.value([RowState.open(2, 1), RowState()], 0)
    with pytest.raises(ValueError, match="RowState"):
        table.value([(0, 1), RowState()], 0)  # type: ignore[list-item]
    assert table.value([RowState(), RowState()], 1) == -5.0  # over: its score
    assert "start_value" in repr(table)


def test_the_package_docstring_examples() -> None:
    assert doctest.testmod(solver_package, raise_on_error=False).failed == 0
