"""A compact integer key for a sheet, for the solver's tables (beside the friendly :class:`Sheet`).

Only this matters for a row's future: whether it is closed (by anyone) and its
mark count, or, while open, the position of its rightmost mark and its count.
Each row gets a *row code*:

* ``0`` for an empty open row;
* ``1 + last*(last+1)/2 + (count-1)`` for an open row whose rightmost mark is at
  position ``last`` (0..9) with ``count`` marks (1..last+1): codes 1..55.  Every
  legal mark moves a row to a strictly larger code (SOLVER.md);
* ``56 + count`` for a closed row with ``count`` marks, the lock included
  (0..12; below 7 only when another player closed the colour): codes 56..68.

The sheet key is ``(((r*69 + y)*69 + g)*69 + b)*5 + penalties``.  It forgets
which numbers were skipped, so :func:`sheet_from_key` returns a representative
sheet (marks packed to the left) with the same key and the same future.

**Other layouts.**  Only positions and counts enter a key, so a sheet of Qwixx
Mixx A or B (four rows of 11 cells, like the official one) has a key in the same
space, with the same codes.  A layout with other rows counts each of its rows (by
lock colour, in order) with the codes of a row of its length ``L``: open codes
``0 .. L(L-1)/2``, then closed codes ``OPEN + count`` for counts 0..L+1; its key
space is :func:`key_space`.  :func:`decode_key` and :func:`sheet_from_key` take the
layout; :func:`sheet_key` reads the sheet's.

**Double cells** (Qwixx Double B, VARIANTS.md §7): a row's count is its number of
*crosses*, a double cell counting 2 (DB1), and the open states are the pairs
(last, crosses) some row of the layout can reach (:func:`row_codes`: 72 per row on
Double B instead of 56; on ``double-b`` the red and green rows reach different pairs,
so the layout's codes are the 78 pairs either reaches).  The code of an open row is
its pair's index in that list (the empty row first, then by last position, then by
crosses, so every mark still raises the code); a closed row's code is ``OPEN +
crosses``.  Row states of such a layout are ``RowState(..., crosses=True)``.

**Longo** (VARIANTS.md §8: 8-sided dice, rows of 15 cells, two lock numbers, LG1,
LG2): a row is open while neither lock number is crossed, so its open states are the
pairs (last, count) with last 0..12, 92 codes per row.  Such a layout uses the same
per-layout codes as a sheet with double cells (:func:`uses_row_codes`, :func:`row_codes`
without the lock numbers), its row states ``RowState(..., crosses=True)`` too (a cross
is a mark there).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import ParseError
from .layouts import OFFICIAL, SheetLayout
from .model import COLOURS, COUNT, LAST_POSITION, PENALTY_BOXES, Colour, Sheet
from .notation import colour_set

__all__ = [
    "CLOSED_BASE",
    "KEY_SPACE",
    "OPEN_CODES",
    "ROW_CODES",
    "RowCodes",
    "RowState",
    "SheetKey",
    "decode_key",
    "decode_open_code",
    "key_space",
    "open_code",
    "row_code",
    "row_codes",
    "sheet_from_key",
    "sheet_key",
    "table_index",
    "uses_row_codes",
]

#: Number of open row codes (empty + 55 (last, count) pairs).
OPEN_CODES = 1 + LAST_POSITION * (LAST_POSITION + 1) // 2
#: First closed row code (``CLOSED_BASE + count``).
CLOSED_BASE = OPEN_CODES
#: Number of row codes.
ROW_CODES = CLOSED_BASE + LAST_POSITION + 3
#: Number of distinct sheet keys (keys run from 0 to KEY_SPACE - 1).
KEY_SPACE = ROW_CODES ** len(COLOURS) * (PENALTY_BOXES + 1)
_LAST_BIT = 1 << LAST_POSITION
#: Open row states counting crosses have their last mark at 0.._MOST_OPEN - 1 (Longo's
#: rows: 15 cells, the last two lock numbers, LG2).
_MOST_OPEN = 13


@dataclass(frozen=True, slots=True, repr=False)
class RowState:
    """What matters of a row: closed or not, its mark count, and (open) its rightmost position.

    ``crosses=True``: the row is on a sheet with double cells and ``count`` counts its
    crosses, a double cell 2 (DB1): up to twice the marks (an open row), up to 16 (a
    closed row, DB3); which counts a row can reach is its layout's business
    (:class:`SheetKey` checks it).
    """

    last: int | None
    count: int
    closed: bool = False
    crosses: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.closed, bool):
            raise ParseError(f"RowState.closed must be True or False, not {self.closed!r}")
        if not isinstance(self.crosses, bool):
            raise ParseError(f"RowState.crosses must be True or False, not {self.crosses!r}")
        if self.crosses:
            self._check_crosses()
            return
        for name in ("last", "count"):
            value = getattr(self, name)
            if not (_is_int(value) or (name == "last" and value is None)):
                raise ParseError(f"RowState.{name} must be a whole number, not {value!r}")
        if self.closed:
            if self.last is not None or not 0 <= self.count <= LAST_POSITION + 2:
                raise ParseError("a closed row state has last=None and a count of 0 to 12")
        elif self.last is None:
            if self.count != 0:
                raise ParseError("an open row with no mark has count 0")
        elif not (0 <= self.last < LAST_POSITION and 1 <= self.count <= self.last + 1):
            raise ParseError(
                f"an open row state needs last in 0..{LAST_POSITION - 1} and count in "
                f"1..last+1, not last={self.last}, count={self.count}")

    def __repr__(self) -> str:
        crosses = ", crosses=True" if self.crosses else ""  # (the repr it always had)
        return (f"RowState(last={self.last!r}, count={self.count!r}, "
                f"closed={self.closed!r}{crosses})")

    def _check_crosses(self) -> None:
        """The bounds of a row state counting crosses (DB1, DB3)."""
        for name in ("last", "count"):
            value = getattr(self, name)
            if not (_is_int(value) or (name == "last" and value is None)):
                raise ParseError(f"RowState.{name} must be a whole number, not {value!r}")
        if self.closed:
            ok = self.last is None and 0 <= self.count <= 2 * LAST_POSITION + 2
        elif self.last is None:
            ok = self.count == 0
        else:
            ok = 0 <= self.last < _MOST_OPEN and 1 <= self.count <= 2 * self.last + 2
        if not ok:
            raise ParseError(f"no row with double cells has last={self.last}, "
                             f"crosses={self.count}, closed={self.closed}", rule="DB1")

    @property
    def code(self) -> int:
        """The row code (see the module docstring); a row counting crosses has its
        layout's code (:meth:`RowCodes.code`)."""
        if self.crosses:
            raise ParseError("a row with double cells has its layout's code "
                             "(row_codes(layout).code(row, state))", rule="DB1")
        if self.closed:
            return CLOSED_BASE + self.count
        return open_code(self.last, self.count)


@dataclass(frozen=True, slots=True)
class SheetKey:
    """The friendly form of a sheet key: the row states (one per row of ``layout``, by lock
    colour; four on the official sheet) and the penalties."""

    rows: tuple[RowState, ...]
    penalties: int
    layout: SheetLayout = OFFICIAL

    def __post_init__(self) -> None:
        if not isinstance(self.layout, SheetLayout):
            raise ParseError(f"SheetKey.layout must be a SheetLayout, not {self.layout!r}")
        self.layout.check_no_chain("a sheet key")
        n = self.layout.rows
        if not (isinstance(self.rows, tuple) and len(self.rows) == n
                and all(isinstance(r, RowState) for r in self.rows)):
            raise ParseError(f"SheetKey.rows must be a tuple of {n} RowState")
        if uses_row_codes(self.layout):
            space = row_codes(self.layout)
            for i, row in enumerate(self.rows):
                space.code(i, row)  # raises unless the row can be in this state
        else:
            for row, cells in zip(self.rows, self.layout.numbers, strict=True):
                _check_row_state(row, len(cells), self.layout.lock_threshold)
        boxes = self.layout.penalty_boxes
        if not (_is_int(self.penalties) and 0 <= self.penalties <= boxes):
            raise ParseError(f"SheetKey.penalties must be 0..{boxes}, not {self.penalties!r}")

    @property
    def key(self) -> int:
        if uses_row_codes(self.layout):
            space = row_codes(self.layout)
            k = 0
            for i, row in enumerate(self.rows):
                k = k * space.size + space.code(i, row)
            return k * (self.layout.penalty_boxes + 1) + self.penalties
        if self.layout is OFFICIAL:
            k = 0
            for row in self.rows:
                k = k * ROW_CODES + row.code
            return k * (PENALTY_BOXES + 1) + self.penalties
        k = 0
        for row, cells in zip(self.rows, self.layout.numbers, strict=True):
            open_codes, codes = _codes(len(cells))
            k = k * codes + (open_codes + row.count if row.closed else row.code)
        return k * (self.layout.penalty_boxes + 1) + self.penalties


def _codes(length: int) -> tuple[int, int]:
    """(open codes, row codes) of a row of ``length`` cells."""
    open_codes = 1 + (length - 1) * length // 2
    return open_codes, open_codes + length + 2


def _check_row_state(row: RowState, length: int, threshold: int) -> None:
    """ParseError unless some row of ``length`` cells (lock after ``threshold`` marks) has
    this state."""
    if row.closed:
        ok = row.count <= length + 1 and (row.count >= threshold + 2 or row.count <= length - 1)
    else:
        ok = row.last is None or row.last < length - 1
    if not ok:
        raise ParseError(f"no row of {length} cells (lock after {threshold} marks) has "
                         f"last={row.last}, count={row.count}, closed={row.closed}")


def key_space(layout: SheetLayout = OFFICIAL) -> int:
    """The number of distinct sheet keys of ``layout`` (keys run from 0 to this - 1).

    >>> from qwixx_math.layouts import MIXX_A
    >>> key_space() == key_space(MIXX_A) == KEY_SPACE
    True
    """
    if not isinstance(layout, SheetLayout):
        raise ParseError(f"layout must be a SheetLayout, not {layout!r}")
    layout.check_no_chain("a sheet key")
    layout.check_no_second_crosses("sheet keys")
    layout.check_no_bonus_rows("sheet keys")
    if uses_row_codes(layout):
        return int(row_codes(layout).size ** layout.rows * (layout.penalty_boxes + 1))
    space = layout.penalty_boxes + 1
    for cells in layout.numbers:
        space *= _codes(len(cells))[1]
    return space


def open_code(last: int | None, count: int) -> int:
    """The code of an open row: 0 when empty, else ``1 + last(last+1)/2 + count - 1``.

    ``last`` is 0..9 and ``count`` 1..last+1; anything else raises ParseError.
    """
    if last is None:
        return 0
    if not (_is_int(last) and _is_int(count) and 0 <= last < LAST_POSITION
            and 1 <= count <= last + 1):
        raise ParseError(f"an open row has last in 0..{LAST_POSITION - 1} and count in "
                         f"1..last+1, not last={last!r}, count={count!r}")
    return 1 + last * (last + 1) // 2 + count - 1


def decode_open_code(code: int) -> tuple[int | None, int]:
    """``(last, count)`` of an open row's code (the inverse of :func:`open_code`):
    ``(None, 0)`` for the empty row.

    >>> decode_open_code(0), decode_open_code(55), open_code(*decode_open_code(17))
    ((None, 0), (9, 10), 17)
    """
    if not (_is_int(code) and 0 <= code < OPEN_CODES):
        raise ParseError(f"an open row code is a whole number 0..{OPEN_CODES - 1}, not {code!r}")
    row = _row_state(code)
    return row.last, row.count


def row_code(mask: int, closed: bool = False) -> int:
    """The code of a row given as a mask of marked positions (see :class:`Sheet`)."""
    if not (_is_int(mask) and 0 <= mask < 1 << (LAST_POSITION + 1)):
        raise ParseError(f"a row mask is a whole number 0..2047, not {mask!r}")
    if not isinstance(closed, bool):
        raise ParseError(f"closed must be True or False, not {closed!r}")
    if closed or mask & _LAST_BIT:
        return CLOSED_BASE + COUNT[mask]
    if not mask:
        return 0
    return open_code(mask.bit_length() - 1, mask.bit_count())


def table_index(sheet: Sheet, closed_mask: int, offsets: Sequence[int],
                strides: Sequence[Sequence[int]]) -> int:
    """Where ``sheet`` stands in a solver table laid out by ``offsets`` and ``strides``
    (:class:`qwixx_math.solver.layout.Layout`'s, as Python ints): the rows in
    ``closed_mask`` are outside the table, every other row adds its stride times its
    open code, and the penalties are innermost.

    Rows are the rows of the sheet's layout in order (row ``r`` is locked by
    ``sheet.layout.locks[r]``), and bit ``r`` of ``closed_mask`` is row ``r``: on the
    official sheet and on Mixx A and B that is bit ``colour.index``; a layout with fewer
    rows has fewer bits and strides.

    On a sheet with double cells (DB1) or of Qwixx Longo (LG1, LG2) a row's open code is
    its per-layout code (:func:`row_codes`, as the solver's layout stores it)."""
    locks = sheet.layout.locks if isinstance(sheet, Sheet) else COLOURS
    by_mask: Sequence[Sequence[int]] = (ROW_CODE_BY_MASK,) * len(locks)
    if isinstance(sheet, Sheet):
        sheet.layout.check_no_steps("table_index (the policies' table look-up)")
        sheet.layout.check_no_second_crosses("table_index (the policies' table look-up)")
        sheet.layout.check_no_exchange("table_index (the policies' table look-up)")
        sheet.layout.check_no_chain("table_index (the policies' table look-up)")
        sheet.layout.check_no_bonus("table_index (the policies' table look-up)")
        sheet.layout.check_no_bonus_rows("table_index (the policies' table look-up)")
        if uses_row_codes(sheet.layout):
            by_mask = row_codes(sheet.layout).by_mask
    if closed_mask.__class__ is not int or not 0 <= closed_mask < 1 << len(locks):
        raise ParseError(f"closed_mask is a whole number 0..{(1 << len(locks)) - 1}, "
                         f"not {closed_mask!r}")
    try:
        row_strides = strides[closed_mask]
        index = offsets[closed_mask] + sheet.penalties
        masks = sheet.masks
        for r, colour in enumerate(locks):
            if not closed_mask >> r & 1:
                index += row_strides[r] * by_mask[r][masks[colour.index]]
    except (AttributeError, TypeError, IndexError, KeyError):
        raise ParseError("table_index needs a Sheet, a closed-row mask and a "
                         "layout's offsets and strides") from None
    if not isinstance(index, int):
        raise ParseError("table_index needs a layout's offsets and strides as whole numbers")
    return index


def sheet_key(sheet: Sheet, closed: Iterable[Colour] = ()) -> int:
    """The integer key of ``sheet`` in a game where the colours ``closed`` are closed.

    >>> from qwixx_math.notation import parse_sheet
    >>> k = sheet_key(parse_sheet("r:2,4/p:1"))
    >>> decode_key(k).rows[0]
    RowState(last=2, count=2, closed=False)
    """
    if not isinstance(sheet, Sheet):
        raise ParseError(f"expected a Sheet, not {type(sheet).__name__}")
    shut = colour_set(closed, "closed colours")
    layout = sheet.layout
    layout.check_no_chain("a sheet key")
    layout.check_no_second_crosses("sheet keys")
    layout.check_no_bonus_rows("sheet keys")
    if uses_row_codes(layout):
        space = row_codes(layout)
        k = 0
        for i, colour in enumerate(layout.locks):
            mask = sheet.masks[colour.index]
            if colour in shut and not mask & layout.lock_bits[colour.index]:
                code = space.open + layout.count[colour.index][mask]
            else:
                code = space.by_mask[i][mask]
            k = k * space.size + code
        return k * (layout.penalty_boxes + 1) + sheet.penalties
    if layout is not OFFICIAL:
        k = 0
        for colour, cells in zip(layout.locks, layout.numbers, strict=True):
            ci = colour.index
            mask = sheet.masks[ci]
            open_codes, codes = _codes(len(cells))
            if colour in shut or mask & layout.last_bit[ci]:
                code = open_codes + layout.count[ci][mask]
            else:
                code = open_code(mask.bit_length() - 1, mask.bit_count()) if mask else 0
            k = k * codes + code
        return k * (layout.penalty_boxes + 1) + sheet.penalties
    k = 0
    for colour, mask in zip(COLOURS, sheet.masks, strict=True):
        k = k * ROW_CODES + row_code(mask, colour in shut)
    return k * (PENALTY_BOXES + 1) + sheet.penalties


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: ROW_CODE_BY_MASK[mask]: :func:`row_code` of an open-or-locked row (for table_index).
ROW_CODE_BY_MASK: tuple[int, ...] = tuple(row_code(m) for m in range(1 << (LAST_POSITION + 1)))


def decode_key(key: int, layout: SheetLayout = OFFICIAL) -> SheetKey:
    """The :class:`SheetKey` of an integer key (of a sheet of ``layout``)."""
    if layout is not OFFICIAL:
        return _decode_layout_key(key, layout)
    if not isinstance(key, int) or isinstance(key, bool) or not 0 <= key < KEY_SPACE:
        raise ParseError(f"a sheet key is an integer from 0 to {KEY_SPACE - 1}, not {key!r}")
    key, penalties = divmod(key, PENALTY_BOXES + 1)
    codes = []
    for _ in COLOURS:
        key, code = divmod(key, ROW_CODES)
        codes.append(code)
    rows = tuple(_row_state(code) for code in reversed(codes))
    return SheetKey((rows[0], rows[1], rows[2], rows[3]), penalties)


def _decode_layout_key(key: int, layout: SheetLayout) -> SheetKey:
    if not isinstance(layout, SheetLayout):
        raise ParseError(f"layout must be a SheetLayout, not {layout!r}")
    space = key_space(layout)
    if not isinstance(key, int) or isinstance(key, bool) or not 0 <= key < space:
        raise ParseError(f"a sheet key of layout {layout.name} is an integer from 0 to "
                         f"{space - 1}, not {key!r}")
    key, penalties = divmod(key, layout.penalty_boxes + 1)
    rows: list[RowState] = []
    if uses_row_codes(layout):
        doubled = row_codes(layout)
        for _ in layout.numbers:
            key, code = divmod(key, doubled.size)
            rows.append(doubled.state(code))
        return SheetKey(tuple(reversed(rows)), penalties, layout)
    for cells in reversed(layout.numbers):
        open_codes, codes = _codes(len(cells))
        key, code = divmod(key, codes)
        rows.append(_row_state(code, open_codes))
    return SheetKey(tuple(reversed(rows)), penalties, layout)


def _row_state(code: int, closed_base: int = CLOSED_BASE) -> RowState:
    if code >= closed_base:
        return RowState(None, code - closed_base, True)
    if code == 0:
        return RowState(None, 0)
    c = code - 1
    last = 0
    while (last + 1) * (last + 2) // 2 <= c:
        last += 1
    return RowState(last, c - last * (last + 1) // 2 + 1)


def sheet_from_key(key: int, layout: SheetLayout = OFFICIAL
                   ) -> tuple[Sheet, frozenset[Colour]]:
    """A representative sheet (of ``layout``) with this key, and the closed colours the key
    implies.

    Open rows get their marks packed to the left of the rightmost one; a closed
    row with 7 or more marks (the lock threshold + 2) becomes a row this player
    locked, one with fewer a row another player closed.
    """
    if layout is not OFFICIAL:
        return _layout_sheet_from_key(key, layout)
    decoded = decode_key(key)
    masks = []
    closed = set()
    for colour, row in zip(COLOURS, decoded.rows, strict=True):
        if row.closed:
            closed.add(colour)
            if row.count >= 7:  # five or more marks, the last number and the lock
                masks.append(((1 << (row.count - 2)) - 1) | _LAST_BIT)
            else:
                masks.append((1 << row.count) - 1)
        elif row.last is None:
            masks.append(0)
        else:
            masks.append(((1 << (row.count - 1)) - 1) | (1 << row.last))
    return Sheet((masks[0], masks[1], masks[2], masks[3]), decoded.penalties), frozenset(closed)


def _layout_sheet_from_key(key: int, layout: SheetLayout) -> tuple[Sheet, frozenset[Colour]]:
    decoded = decode_key(key, layout)
    masks = [0, 0, 0, 0]
    closed = set()
    if uses_row_codes(layout):
        codes = row_codes(layout)
        for i, (colour, row) in enumerate(zip(layout.locks, decoded.rows, strict=True)):
            if row.closed:
                closed.add(colour)
            masks[colour.index] = codes.sheet_mask(i, row)
        return (Sheet((masks[0], masks[1], masks[2], masks[3]), decoded.penalties, layout),
                frozenset(closed))
    for colour, row in zip(layout.locks, decoded.rows, strict=True):
        last_bit = layout.last_bit[colour.index]
        if row.closed:
            closed.add(colour)
            if row.count >= layout.lock_threshold + 2:
                mask = ((1 << (row.count - 2)) - 1) | last_bit
            else:
                mask = (1 << row.count) - 1
        elif row.last is None:
            mask = 0
        else:
            mask = ((1 << (row.count - 1)) - 1) | (1 << row.last)
        masks[colour.index] = mask
    return (Sheet((masks[0], masks[1], masks[2], masks[3]), decoded.penalties, layout),
            frozenset(closed))


@dataclass(frozen=True, eq=False, slots=True)
class RowCodes:
    """The row codes of a layout with double cells (see the module docstring).

    ``states[code]``: the (last, crosses) of open code ``code`` (``(None, 0)``: empty),
    for every pair some row reaches; ``valid[row][code]``: whether row ``row`` can
    reach it; ``by_mask[row][mask]``: the code of row ``row`` holding the marks ``mask``
    (``open + crosses`` once it is locked); ``examples[row][code]``: the smallest mask
    of row ``row`` with that open code (-1: none).

    >>> from qwixx_math.layouts import DOUBLE_B, DOUBLE_B_ALT
    >>> codes = row_codes(DOUBLE_B)
    >>> codes.open, [sum(v) for v in codes.valid], row_codes(DOUBLE_B_ALT).open
    (78, [72, 72, 72, 72], 72)
    >>> codes.states[codes.by_mask[0][0b11]]   # red 2 and red 3 (a double cell)
    (1, 3)
    """

    layout: SheetLayout
    states: tuple[tuple[int | None, int], ...]
    valid: tuple[tuple[bool, ...], ...]
    by_mask: tuple[tuple[int, ...], ...]
    examples: tuple[tuple[int, ...], ...]
    index: dict[tuple[int | None, int], int]

    @property
    def open(self) -> int:
        """The number of open codes (the first closed code)."""
        return len(self.states)

    @property
    def size(self) -> int:
        """Codes per row: the open ones, then closed with 0 .. the most crosses."""
        return self.open + self.layout.max_crosses + 1

    def code(self, row: int, state: RowState) -> int:
        """The code of ``state`` in row ``row``; ParseError (DB1) if no such row has it."""
        weights = self.layout.weights[row]
        if state.closed:
            count = state.count
            most = sum(weights[:-self.layout.lock_cells])
            if state.last is None and (0 <= count <= most
                                       or self.layout.lock_threshold + 2 <= count <= most + 2):
                return self.open + count
        else:
            code = self.index.get((state.last, state.count), -1)
            if code >= 0 and self.valid[row][code]:
                return code
        raise ParseError(f"row {row + 1} of layout {self.layout.name} cannot hold "
                         f"last={state.last}, crosses={state.count}, closed={state.closed}",
                         rule="LG2" if self.layout.lock_cells == 2 else "DB1")

    def state(self, code: int) -> RowState:
        """The row state of a code (open or closed)."""
        if code >= self.open:
            return RowState(None, code - self.open, True, crosses=True)
        last, count = self.states[code]
        return RowState(last, count, crosses=True)

    def sheet_mask(self, row: int, state: RowState) -> int:
        """A mask of marked positions of row ``row`` in ``state``: the smallest with its
        code; a closed row with at least ``lock_threshold + 2`` crosses is locked, one
        with fewer was closed by another player."""
        code = self.code(row, state)
        if code < self.open:
            return self.examples[row][code]
        layout = self.layout
        crosses = layout.count[layout.locks[row].index]  # without the last cell: its crosses
        last = 1 << (len(layout.numbers[row]) - 1)
        count = state.count
        locked = count >= layout.lock_threshold + 2
        want = count - 2 if locked else count
        found = [m for m in range(last) if crosses[m] == want]
        if not found:  # e.g. an odd count on a row of double cells only
            raise ParseError(f"no {layout.locks[row].value} row of layout {layout.name} "
                             f"holds {count} crosses when closed", rule="DB1")
        return min(found) | last if locked else min(found)


def uses_row_codes(layout: SheetLayout) -> bool:
    """Whether ``layout``'s rows have per-layout codes (:func:`row_codes`): a sheet with
    double cells (DB1), with two lock numbers per row (LG2) or of 8-sided dice (LG1)."""
    if not isinstance(layout, SheetLayout):  # the API fuzz found an AttributeError
        raise ParseError(f"layout must be a SheetLayout, not {layout!r}")
    return layout.has_doubles or layout.lock_cells != 1 or layout.faces != 6


def row_codes(layout: SheetLayout) -> RowCodes:
    """The :class:`RowCodes` of a layout (with double cells or not: on single cells the
    open codes are those of :func:`open_code` for its row length)."""
    if not isinstance(layout, SheetLayout):
        raise ParseError(f"layout must be a SheetLayout, not {layout!r}")
    return _row_codes(layout)


@lru_cache(maxsize=16)
def _row_codes(layout: SheetLayout) -> RowCodes:
    reached: list[dict[tuple[int, int], int]] = []
    for colour, numbers in zip(layout.locks, layout.numbers, strict=True):
        crosses = layout.count[colour.index]  # without the last cell: the marks' crosses
        found: dict[tuple[int, int], int] = {}
        for m in range(1, 1 << (len(numbers) - layout.lock_cells)):
            found.setdefault((m.bit_length() - 1, crosses[m]), m)
        reached.append(found)
    pairs = sorted(set().union(*reached))
    states: tuple[tuple[int | None, int], ...] = ((None, 0), *pairs)
    index = {pair: code for code, pair in enumerate(states)}
    valid = tuple(tuple(code == 0 or states[code] in found for code in range(len(states)))
                  for found in reached)
    examples = tuple(tuple(0 if code == 0 else found.get(states[code], -1)  # type: ignore[arg-type]
                           for code in range(len(states))) for found in reached)
    by_mask = []
    for row, (colour, weights) in enumerate(zip(layout.locks, layout.weights, strict=True)):
        counts = layout.count[colour.index]
        last_bit = layout.lock_bits[colour.index]
        row_map = []
        for m in range(1 << len(weights)):
            if m & last_bit:
                row_map.append(len(states) + counts[m])
            else:
                row_map.append(index[(m.bit_length() - 1, counts[m])] if m else 0)
        by_mask.append(tuple(row_map))
        assert all(valid[row][c] for c in row_map if c < len(states))
    return RowCodes(layout, states, valid, tuple(by_mask), examples, index)
