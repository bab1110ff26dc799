"""Qwixx Bonus, pad A: boxed cells, the bonus bar and their forced crosses (VARIANTS.md §2).

A layout with boxed cells and a bonus bar (:attr:`SheetLayout.boxed`,
:attr:`SheetLayout.bar`, :data:`~qwixx_math.layouts.BONUS_A`) plays these rules on top of
R1-R18; the rules core (:mod:`qwixx_math.rules`) calls :func:`cross` for every voluntary
cross and :func:`void_closed` when rows close:

* **BA1** a cross (voluntary or forced) on a boxed cell takes the leftmost bar field that is
  neither taken nor void, and forces a cross in the row of that field's colour;
* **BA2** the forced cross goes on that row's next cell (right of its rightmost cross, R8
  applies); without a next cell the field is still taken and the cross lapses;
* **BA3** a forced cross on a boxed cell triggers BA1 again, depth-first (V4);
* **BA4** a forced cross on the last number closes the row;
* **BA5** with no field left a boxed cell gives nothing;
* **BA6** when a row closes (by anyone), every sheet's untaken fields of its colour become
  void: at once in action 2, when action 1 ends for a close in action 1 (V5).

A forced cross is never a choice: a plan names the voluntary marks only, and the sheet
after it shows the forced ones.  The sheet keeps its bar as two masks, the taken fields
and the void ones (:attr:`Sheet.bar_taken`, :attr:`Sheet.bar_void`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .colours import COLOURS, Colour
from .errors import InvalidStateError
from .layouts import SheetLayout
from .model import MARKS, Mark, Sheet

__all__ = ["check_bar", "check_voids", "cross", "forced_marks", "void_closed", "void_mask"]


def _fields(layout: SheetLayout, colours: Iterable[Colour]) -> int:
    """The mask of the bar fields of ``colours``."""
    shut = frozenset(colours)
    return sum(1 << k for k, colour in enumerate(layout.bar) if colour in shut)


def void_mask(sheet: Sheet, colours: Iterable[Colour]) -> int:
    """The bar fields of ``colours`` on ``sheet`` that are not taken (the fields BA6 makes
    void when those rows close)."""
    return _fields(sheet.layout, colours) & ~sheet.bar_taken


def check_bar(sheet: Sheet) -> None:
    """Raise InvalidStateError unless ``sheet``'s bar is one a game can produce: no bar
    on a pad without one; taken and void fields disjoint, fields of the pad; every field
    left of a taken one taken or void (BA1); per colour, void fields are all its untaken
    fields and lie right of its taken ones (BA6); a field taken per crossed boxed cell,
    fewer only once no field is left (BA1, BA5)."""
    layout = sheet.layout
    taken, void = sheet.bar_taken, sheet.bar_void
    n = len(layout.bar)
    for name, value in (("bar_taken", taken), ("bar_void", void)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1 << n:
            raise InvalidStateError(
                "BA1", f"layout {layout.name} has {n} bonus bar field(s); {name} must be a "
                       f"mask 0..{(1 << n) - 1}, not {value!r}")
    if taken & void:
        raise InvalidStateError("BA6", "a bonus bar field is both taken and void")
    if taken and ~(taken | void) & ((1 << taken.bit_length()) - 1):
        raise InvalidStateError(
            "BA1", "a bonus bar field is free left of a taken one; BA1 takes the leftmost "
                   "free field")
    for colour in set(layout.bar):
        mine = _fields(layout, [colour])
        gone = void & mine
        if gone and (gone != mine & ~taken
                     or (taken & mine).bit_length() > (gone & -gone).bit_length()):
            raise InvalidStateError(
                "BA6", f"the {colour.value} bonus bar fields: when {colour.value} closes, all "
                       "its untaken fields become void at once, and none is taken after")
    boxed = sum((m & b).bit_count() for m, b in zip(sheet.masks, layout.box_mask, strict=True))
    used = taken.bit_count()
    if used > boxed or (used < boxed and (taken | void) != (1 << n) - 1):
        raise InvalidStateError(
            "BA1", f"{boxed} boxed cell(s) crossed but {used} bonus bar field(s) taken; each "
                   "boxed cross takes a field while one is left")
    _check_forced(sheet)


def _check_forced(sheet: Sheet) -> None:
    """Raise InvalidStateError (BA2) if a row holds fewer crosses a forced cross can be than
    its taken bar fields ask for, where no field of its colour can have lapsed.

    A necessary condition, not a sufficient one.  A taken field of colour c forces a cross
    on row c's next cell (BA2): a cross on position 0 or right after a crossed cell, and a
    later cross only lands right of it, so on the final sheet too.  The field lapses only
    when row c has no next cell then: closed on this sheet (it shows the lock) or ended
    where R8 refuses the next cell, which no later cross changes.  Other players' closes
    cannot make a field lapse: a closed colour's free fields are void (BA6), and BA1 skips
    them.  A field is taken by a crossed boxed cell (BA1), one field per cell; when that
    cell is in row c itself it was row c's last cross, so the forced cross stands right
    after it.  So every row c that is neither locked nor stuck holds at least as many
    forced crosses as its colour's taken fields, and at most as many as (a) its crosses
    right after a crossed cell or on its first cell, and (b) its boxed cells with the cell
    right after them crossed, plus the crossed boxed cells of the other rows."""
    layout = sheet.layout
    boxed = [(m & b) for m, b in zip(sheet.masks, layout.box_mask, strict=True)]
    total = sum(b.bit_count() for b in boxed)
    for colour in set(layout.bar):
        ci = colour.index
        mask = sheet.masks[ci]
        if mask & layout.lock_bits[ci] or not layout.allowed[ci][mask] >> mask.bit_length() & 1:
            continue  # a field of this colour may have lapsed (BA2)
        fields = [k for k, c in enumerate(layout.bar) if c is colour and sheet.bar_taken >> k & 1]
        room = (mask & (mask << 1 | 1)).bit_count()  # crosses on position 0 or after a cross
        own = (boxed[ci] & mask >> 1).bit_count()  # own boxed cells with the next one crossed
        room = min(room, own + total - boxed[ci].bit_count())
        if len(fields) > room:
            numbers = layout.numbers[layout.row_of[ci]]
            crossed = ", ".join(str(numbers[p]) for p in range(len(numbers)) if mask >> p & 1)
            name = colour.value
            raise InvalidStateError(
                "BA2", f"bonus bar field(s) {', '.join(map(str, fields))} ({name}) taken, so "
                       f"{len(fields)} forced {name} cross(es) on the row's next cell, but "
                       f"{name} ({crossed or 'no cross'}) can hold {room}: a forced cross "
                       f"stands right after a crossed cell (or on {name} {numbers[0]}), and "
                       f"right after the boxed {name} cell that took its field; {name} "
                       f"{numbers[mask.bit_length()]}, the next cell, is not crossed")


def check_voids(sheet: Sheet, closed: frozenset[Colour], player: int) -> None:
    """Raise InvalidStateError (BA6) unless ``sheet``'s void fields are exactly its untaken
    fields of the ``closed`` colours (a game state between steps)."""
    want = void_mask(sheet, closed)
    if sheet.bar_void != want:
        raise InvalidStateError(
            "BA6", f"player {player}'s void bonus bar fields must be the untaken fields of "
                   f"the closed colours ({', '.join(sorted(c.value for c in closed)) or 'none'})")


def void_closed(sheets: Sequence[Sheet], closed: Iterable[Colour]) -> list[Sheet]:
    """Every sheet with its untaken bar fields of the ``closed`` colours void (BA6)."""
    shut = frozenset(closed)
    out = []
    for sheet in sheets:
        void = sheet.bar_void | void_mask(sheet, shut)
        out.append(sheet if void == sheet.bar_void else Sheet.unchecked(
            sheet.masks, sheet.penalties, sheet.layout, sheet.used_fields, sheet.seconds,
            sheet.bar_taken, void))
    return out


def cross(sheet: Sheet, row: int, position: int, blocked: frozenset[Colour],
          immediate: bool) -> tuple[Sheet, tuple[Mark, ...], frozenset[Colour]]:
    """``sheet`` after a checked cross at ``position`` of the row locked by
    ``COLOURS[row]`` and every forced cross it causes (BA1-BA5, depth-first, V4).

    ``blocked``: the colours closed for forced crosses (action 1: those closed when it
    began, V5; action 2: those closed now).  ``immediate`` (action 2): a row this chain
    closes is closed at once, its untaken fields void before the chain goes on (BA6).
    Returns the sheet, the forced crosses in order, and the colours the crosses closed.
    """
    layout = sheet.layout
    masks = list(sheet.masks)
    taken, void = sheet.bar_taken, sheet.bar_void
    full = (1 << len(layout.bar)) - 1
    lock_bits, box_mask, allowed = layout.lock_bits, layout.box_mask, layout.allowed
    forced: list[Mark] = []
    shut: set[Colour] = set()
    ci, pos = row, position
    while True:
        masks[ci] |= 1 << pos
        if lock_bits[ci] >> pos & 1:  # BA4: the cross closes its row (R8, R9)
            shut.add(COLOURS[ci])
            if immediate:
                void |= _fields(layout, [COLOURS[ci]]) & ~taken
        if not box_mask[ci] >> pos & 1:
            break
        free = ~(taken | void) & full
        if not free:
            break  # BA5: the bar is used up
        field = free & -free
        taken |= field  # BA1
        target = layout.bar[field.bit_length() - 1]
        ti = target.index
        mask = masks[ti]
        nxt = mask.bit_length()
        if target in blocked or (immediate and target in shut) or mask & lock_bits[ti] \
                or not allowed[ti][mask] >> nxt & 1:
            break  # BA2: no next cell, the field is used up and the cross lapses
        forced.append(MARKS[ti][layout.numbers[layout.row_of[ti]][nxt]])
        ci, pos = ti, nxt
    return (Sheet.unchecked((masks[0], masks[1], masks[2], masks[3]), sheet.penalties, layout,
                            sheet.used_fields, sheet.seconds, taken, void),
            tuple(forced), frozenset(shut))


def forced_marks(sheet: Sheet, mark: Mark, blocked: frozenset[Colour],
                 immediate: bool) -> tuple[Mark, ...]:
    """The forced crosses a voluntary ``mark`` (legal on ``sheet``) causes (BA1-BA3)."""
    ci = mark.colour.index
    return cross(sheet, ci, sheet.layout.pos[ci][mark.number], blocked, immediate)[1]
