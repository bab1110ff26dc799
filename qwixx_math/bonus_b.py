"""Qwixx Bonus, pad B: paired symbols, their forced crosses and end-game rewards
(VARIANTS.md §3, rules BB1-BB9).

A layout with symbols (:attr:`SheetLayout.symbols`, :data:`~qwixx_math.layouts.BONUS_B`)
plays these rules on top of R1-R18; the rules core (:mod:`qwixx_math.rules`) calls
:func:`cross` for every voluntary cross, and :attr:`Sheet.score` calls :func:`score`:

* **BB1** a symbol activates when both its cells are crossed, by any cross (voluntary or
  forced); a cell is crossed once, so a symbol activates once.  Activation is *derived from
  the crosses* (:func:`active_symbols`): the sheet stores nothing new;
* **BB2** circle: two forced crosses on the next cell of a row with the fewest crosses
  (V9; Option ``bb_fewest_candidates``).  A tie is the player's choice (V9), which a move
  cannot name yet: the rules core takes the first tied row in colour order (red, yellow,
  green, blue), and so does the validator;
* **BB3** diamond: one forced cross on the next cell of every row open at activation, in
  colour order (Option ``bb_diamond_order``; ``player_choice`` is refused);
* **BB4** square: the lowest row score is doubled at game end;
* **BB5** octagon: +13 at game end;
* **BB6** star: penalty boxes score 0 (a fourth one still ends the game, R13);
* **BB7** forced crosses may activate further symbols: resolved depth-first (V4); they may
  close rows;
* **BB8** total = rows (with BB4) + 13 * octagon - 5 * penalties * (no star);
* **BB9** R14 is checked after the whole nesting (the rules core does so).

A forced cross is never a choice: a plan names the voluntary marks only, and the sheet after
it shows the forced ones.
"""

from __future__ import annotations

from .colours import COLOURS, Colour
from .errors import InvalidStateError
from .layouts import SYMBOL_NAMES, SheetLayout
from .model import MARKS, PENALTY_POINTS, Mark, Sheet, row_points
from .ruleset import CircleCandidates

__all__ = ["OCTAGON_POINTS", "active_symbols", "check_symbols", "cross", "forced_marks",
           "score"]

#: The octagon's end-game points (BB5).
OCTAGON_POINTS = 13
_CIRCLE, _DIAMOND, _SQUARE, _OCTAGON, _STAR = range(len(SYMBOL_NAMES))


def _active(layout: SheetLayout, masks: tuple[int, ...] | list[int]) -> list[bool]:
    out = []
    for pair in layout.symbols:
        out.append(all(masks[layout.locks[r].index] >> p & 1 for r, p in pair))
    return out


def active_symbols(sheet: Sheet) -> tuple[str, ...]:
    """The symbols active on ``sheet`` (both cells crossed, BB1), in the order of
    :data:`~qwixx_math.layouts.SYMBOL_NAMES`; ``()`` on a sheet without symbols.

    >>> from qwixx_math.model import Sheet
    >>> active_symbols(Sheet.parse("bonus-b|r:6/b:4"))
    ('octagon',)
    """
    layout = sheet.layout
    if not layout.symbols:
        return ()
    return tuple(name for name, on in zip(SYMBOL_NAMES, _active(layout, sheet.masks),
                                          strict=True) if on)


def check_symbols(sheet: Sheet) -> None:
    """Raise InvalidStateError (BB3) if ``sheet``'s diamond is active but the forced cross
    it certainly caused is missing.

    A necessary condition, checked only where the sheet alone settles it.  The diamond
    activates when the second of its cells is crossed; that cell's row is open then (no
    cross of any kind lands in a closed row), so BB3's cross in that row goes on its next
    cell, the cell right of the diamond cell, or lands further right after a nested cross
    filled it first.  Either way the cell right of one of the two diamond cells is crossed.
    Which cell came second, and so which row, the sheet does not say; where the cell right
    of a diamond cell is a lock number (R8 may refuse it) nothing is checked.  The other
    rows' diamond crosses and the circle's (BB2: the row with the fewest crosses at the
    time) depend on the order of the crosses and on other players' closes, so they are not
    checked."""
    layout = sheet.layout
    if not layout.symbols:
        return
    cells = layout.symbols[_DIAMOND]
    masks = sheet.masks
    if not all(masks[layout.locks[r].index] >> p & 1 for r, p in cells):
        return
    after = []
    for r, p in cells:
        ci = layout.locks[r].index
        if layout.lock_bits[ci] >> (p + 1) & 1 or not layout.last_bit[ci] >> (p + 1):
            return  # R8 may refuse that cell: nothing certain
        after.append((ci, p + 1))
    if any(masks[ci] >> p & 1 for ci, p in after):
        return
    name = [f"{COLOURS[ci].value} {layout.numbers[layout.row_of[ci]][p]}" for ci, p in after]
    done = [f"{layout.locks[r].value} {layout.numbers[r][p]}" for r, p in cells]
    raise InvalidStateError(
        "BB3", f"the diamond ({done[0]}, {done[1]}) is active, so the cross that completed it "
               f"forced its row's next cell: {name[0]} or {name[1]} must be crossed, and "
               "neither is")


def score(sheet: Sheet) -> int:
    """``sheet``'s total under BB8: the four rows, the lowest doubled by an active square
    (BB4), +13 for an active octagon (BB5), minus 5 per penalty box unless the star is
    active (BB6)."""
    layout = sheet.layout
    rows = [row_points(layout.count[c.index][sheet.masks[c.index]]) for c in layout.locks]
    on = _active(layout, sheet.masks)
    total = sum(rows) + (min(rows) if on[_SQUARE] else 0)
    total += OCTAGON_POINTS if on[_OCTAGON] else 0
    return total - (0 if on[_STAR] else PENALTY_POINTS * sheet.penalties)


class _Play:
    """One voluntary cross and its nesting of forced crosses (BB1-BB3, BB7), on masks."""

    def __init__(self, sheet: Sheet, blocked: frozenset[Colour], immediate: bool,
                 fewest: CircleCandidates) -> None:
        self.layout = sheet.layout
        self.masks = list(sheet.masks)
        self.blocked, self.immediate, self.fewest = blocked, immediate, fewest
        self.forced: list[Mark] = []
        self.shut: set[Colour] = set()

    def open(self, ci: int) -> bool:
        """Whether the row locked by COLOURS[ci] is open (V5): not closed for this action;
        in action 2 a row this nesting closed is closed at once."""
        colour = COLOURS[ci]
        return self.layout.row_of[ci] >= 0 and colour not in self.blocked and not (
            self.immediate and colour in self.shut)

    def next_cell(self, ci: int) -> int | None:
        """The next cell of that row (§0.1), or None: the row is closed, ended at its last
        number, or R8 forbids the cell."""
        mask = self.masks[ci]
        layout = self.layout
        if not self.open(ci) or mask & layout.lock_bits[ci]:
            return None
        nxt = mask.bit_length()
        return nxt if layout.allowed[ci][mask] >> nxt & 1 else None

    def crosses(self, ci: int) -> int:
        """The row's crosses for V9: its colour cells crossed (no lock box)."""
        mask = self.masks[ci]
        return self.layout.count[ci][mask] - (1 if mask & self.layout.lock_bits[ci] else 0)

    def put(self, ci: int, pos: int) -> None:
        """Cross (ci, pos) and resolve what it activates, depth-first (V4, BB7)."""
        layout = self.layout
        self.masks[ci] |= 1 << pos
        if layout.lock_bits[ci] >> pos & 1:  # the cross closes its row (R8, R9, BB7)
            self.shut.add(COLOURS[ci])
        k = layout.symbol_at[ci][pos]
        if k < 0:
            return
        other = [c for c in layout.symbols[k] if layout.locks[c[0]].index != ci or c[1] != pos]
        row, p = other[0]
        if not self.masks[layout.locks[row].index] >> p & 1:
            return  # BB1: the symbol's other cell is not crossed yet
        if k == _CIRCLE:
            self.circle()
        elif k == _DIAMOND:
            for ti in [c.index for c in layout.locks if self.open(c.index)]:  # BB3
                self.forced_cross(ti)

    def circle(self) -> None:
        """BB2: two forced crosses in a row with the fewest crosses (V9)."""
        rows = [c.index for c in self.layout.locks if self.open(c.index)]
        if self.fewest is CircleCandidates.OPEN_WITH_NEXT_CELL:
            rows = [ci for ci in rows if self.next_cell(ci) is not None]
        if not rows:
            return
        least = min(self.crosses(ci) for ci in rows)
        # a tie is the player's choice (V9); a move cannot name it: the first in colour order
        tied = [ci for ci in rows if self.crosses(ci) == least and self.next_cell(ci) is not None]
        if not tied:
            return  # open_rows: no row with the fewest has a next cell, both crosses lapse
        for _ in range(2):
            self.forced_cross(tied[0])

    def forced_cross(self, ci: int) -> None:
        """A forced cross on the row's next cell as it stands now; it lapses without one."""
        nxt = self.next_cell(ci)
        if nxt is None:
            return
        layout = self.layout
        self.forced.append(MARKS[ci][layout.numbers[layout.row_of[ci]][nxt]])
        self.put(ci, nxt)


def cross(sheet: Sheet, row: int, position: int, blocked: frozenset[Colour], immediate: bool,
          fewest: CircleCandidates = CircleCandidates.OPEN_WITH_NEXT_CELL
          ) -> tuple[Sheet, tuple[Mark, ...], frozenset[Colour]]:
    """``sheet`` after a checked cross at ``position`` of the row locked by ``COLOURS[row]``
    and every forced cross it causes (BB1-BB3, BB7, depth-first, V4).

    ``blocked``: the colours closed for forced crosses (action 1: those closed when it
    began, V5; action 2: those closed now).  ``immediate`` (action 2): a row the nesting
    closes is closed at once.  ``fewest``: the Option ``bb_fewest_candidates`` (BB2).
    Returns the sheet, the forced crosses in order, and the colours the crosses closed.
    """
    play = _Play(sheet, blocked, immediate, fewest)
    play.put(row, position)
    m = play.masks
    return (Sheet.unchecked((m[0], m[1], m[2], m[3]), sheet.penalties, sheet.layout,
                            sheet.used_fields, sheet.seconds, sheet.bar_taken, sheet.bar_void),
            tuple(play.forced), frozenset(play.shut))


def forced_marks(sheet: Sheet, mark: Mark, blocked: frozenset[Colour], immediate: bool,
                 fewest: CircleCandidates = CircleCandidates.OPEN_WITH_NEXT_CELL
                 ) -> tuple[Mark, ...]:
    """The forced crosses a voluntary ``mark`` (legal on ``sheet``) causes (BB1-BB3, BB7)."""
    ci = mark.colour.index
    return cross(sheet, ci, sheet.layout.pos[ci][mark.number], blocked, immediate, fewest)[1]
