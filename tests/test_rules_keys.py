"""The compact integer sheet key (qwixx_math.keys): round-trips, agreement with the sheet, and a
brute-force check that the key keeps exactly what matters for a sheet's future."""

from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import colours, sheets

from qwixx_math.errors import ParseError
from qwixx_math.keys import (
    CLOSED_BASE,
    KEY_SPACE,
    OPEN_CODES,
    ROW_CODES,
    RowState,
    decode_key,
    decode_open_code,
    key_space,
    open_code,
    row_code,
    sheet_from_key,
    sheet_key,
)
from qwixx_math.layouts import DOUBLE_B
from qwixx_math.model import ALLOWED, COLOURS, COUNT, Colour, Sheet

ALL_MASKS = range(1 << 11)
LAST = 1 << 10


def valid(mask: int) -> bool:
    """A row mask R7/R8 allow: the last number only after five marks."""
    return not mask & LAST or (mask & ~LAST).bit_count() >= 5


def future(sheet: Sheet, closed: frozenset[Colour]) -> tuple[object, ...]:
    """What matters for a sheet's future, by plain reasoning: per row whether it is closed
    (then only its count) or open (its count and its rightmost mark), and the penalties."""
    rows: list[object] = []
    for c in COLOURS:
        numbers = sheet.marks(c)
        count = len(numbers) + (1 if sheet.is_locked(c) else 0)
        if c in closed or sheet.is_locked(c):
            rows.append(("closed", count))
        else:
            rows.append(("open", count, numbers[-1] if numbers else None))
    return (*rows, sheet.penalties)


def test_key_space() -> None:
    """69 row codes (56 open, 13 closed) and 5 penalty counts."""
    assert (OPEN_CODES, CLOSED_BASE, ROW_CODES) == (56, 56, 69)
    assert KEY_SPACE == 69 ** 4 * 5


def test_row_codes_exhaustively() -> None:
    """Over every valid row mask: open rows use codes 0..55, each code exactly one (last,
    count) pair; closed rows 56 + count; every legal mark strictly raises the code."""
    seen: dict[int, tuple[int, int]] = {}
    for mask in filter(valid, ALL_MASKS):
        code = row_code(mask)
        if mask & LAST:
            assert code == CLOSED_BASE + COUNT[mask]
        else:
            assert 0 <= code < OPEN_CODES
            pair = (mask.bit_length(), mask.bit_count())
            assert seen.setdefault(code, pair) == pair
            assert row_code(mask, closed=True) == CLOSED_BASE + mask.bit_count()
        for p in range(11):
            if ALLOWED[mask] >> p & 1:
                assert row_code(mask | 1 << p) > code
    assert sorted(seen) == list(range(OPEN_CODES))


@given(st.integers(0, KEY_SPACE - 1))
def test_key_round_trip(key: int) -> None:
    """sheet_key(*sheet_from_key(k)) == k for every key, and the decoded rows agree."""
    sheet, closed = sheet_from_key(key)
    assert sheet_key(sheet, closed) == key
    assert decode_key(key).key == key


@given(sheets(), st.frozensets(colours()))
def test_decoded_key_agrees_with_the_sheet(sheet: Sheet, closed: frozenset[Colour]) -> None:
    """decode_key(sheet_key(s)).rows says what the sheet says about each row."""
    closed = closed | sheet.locked
    decoded = decode_key(sheet_key(sheet, closed))
    assert decoded.penalties == sheet.penalties
    for c, row in zip(COLOURS, decoded.rows, strict=True):
        assert row.count == sheet.count(c)
        assert row.closed == (c in closed)
        if not row.closed:
            last = sheet.last_number(c)
            assert row.last == (None if last is None else c.position(last))
    rep, rep_closed = sheet_from_key(sheet_key(sheet, closed))
    assert rep_closed == closed
    assert future(rep, rep_closed) == future(sheet, closed)


@given(sheets(), sheets(), st.frozensets(colours()))
def test_equal_keys_exactly_when_equal_futures(a: Sheet, b: Sheet,
                                               closed: frozenset[Colour]) -> None:
    """Two sheets (same closed colours) share a key exactly when their futures agree."""
    shut = closed | a.locked | b.locked
    assert (sheet_key(a, shut) == sheet_key(b, shut)) == (future(a, shut) == future(b, shut))


def test_distinct_keys_count_by_brute_force() -> None:
    """Per row, the number of distinct codes over all valid masks and both closed states equals
    the number of distinct futures (56 open + 13 closed)."""
    futures = set()
    codes = set()
    for mask in filter(valid, ALL_MASKS):
        for shut in (False, True):
            if mask & LAST and not shut:
                continue
            count = COUNT[mask]
            futures.add(("closed", count) if shut else ("open", count, mask.bit_length()))
            codes.add(row_code(mask, shut))
    assert len(codes) == len(futures) == ROW_CODES


@pytest.mark.parametrize("bad", [-1, KEY_SPACE, True, "12", 1.0, None])
def test_decode_key_rejects_bad_keys(bad: object) -> None:
    """A key outside 0..KEY_SPACE-1 (or not an int) is a ParseError."""
    with pytest.raises(ParseError, match="a sheet key is an integer"):
        decode_key(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("last", "count", "closed"), [
    (None, 1, False), (10, 1, False), (3, 5, False), (0, 0, False), (2, 0, True),
    (None, 13, True)])
def test_row_state_rejects_impossible_rows(last: int | None, count: int, closed: bool) -> None:
    """RowState validates its fields."""
    with pytest.raises(ParseError):
        RowState(last, count, closed)


def test_open_codes_decode_to_the_row_states_they_encode() -> None:
    """decode_open_code inverts open_code on every open code, and agrees with RowState."""
    seen = set()
    for code in range(OPEN_CODES):
        last, count = decode_open_code(code)
        assert open_code(last, count) == code == RowState(last, count).code
        seen.add((last, count))
    assert len(seen) == OPEN_CODES
    with pytest.raises(ParseError, match="open row code"):
        decode_open_code(OPEN_CODES)


@given(st.integers(0, 10**9))
def test_a_key_of_a_closed_count_no_row_reaches_is_a_parse_error(seed: int) -> None:
    """On a pad whose rows are double cells but for the last number (a layout file may say
    so, DB1), an odd count never closes a row; a key saying it did is refused with a
    ParseError naming DB1, never a bare ValueError (found decoding random keys)."""
    layout = dataclasses.replace(DOUBLE_B, name="all-double",
                                 weights=tuple((2,) * 10 + (1,) for _ in range(4)))
    key = seed % key_space(layout)
    with contextlib.suppress(ParseError):
        sheet_from_key(key, layout)
