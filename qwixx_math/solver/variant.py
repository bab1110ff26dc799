"""The :class:`Variant`: the solitaire game the solver solves, read from a sheet layout.

A variant is a :class:`~qwixx_math.layouts.SheetLayout` (the number and colour
of every cell, the locks, the lock threshold, the penalty boxes and how many
closed rows end the game) seen the way the solver needs it: rows by index
(row ``i`` is the layout's ``i``-th row, locked by its ``i``-th lock colour, and
its die is die ``i``), positions ``0 .. L-1`` left to right, and for every cell
the die whose colour it has.

The official game is ``Variant()`` (= :meth:`Variant.official`, the
:data:`~qwixx_math.layouts.OFFICIAL` sheet); ``Variant(MIXX_A)`` and
``Variant(MIXX_B)`` are the two Qwixx Mixx pads; :meth:`Variant.from_letters`
builds the small one-colour test variants (:meth:`SheetLayout.plain`) that the
naive reference solver can check the fast one on (see :mod:`.naive`).

>>> from qwixx_math.layouts import MIXX_A
>>> mixx = Variant(MIXX_A)
>>> mixx.number_at(0, 3), mixx.die_at(0, 3)  # row 1 (red lock): 5 is a blue cell
(5, 3)
>>> mixx.action2_targets(3, 5)  # white + blue making 5: the red row's cell only
(0,)
>>> Variant.from_letters("ad", 4, 2, 2, 1).key
'ad-L4-t2-p2-k1'

Positions.  Every row of a variant has the same length ``L``.  Position ``L-1``
is the row's last number (R8): it may be marked only when the row already holds
``lock_threshold`` marks, and marking it also marks the lock box, which closes
the row (R9), adds 2 to its count and takes die ``i`` out of play.  Action 1
(the white sum) may be marked in any open row; action 2 with die ``d`` at
number ``n`` in any open row whose cell showing ``n`` has die ``d``'s colour
(:meth:`Variant.action2_targets`).

**Double cells** (Qwixx Double B, VARIANTS.md §7): a cell may give two crosses
(:meth:`Variant.weight_at`, DB1); a row's count is then its crosses, the lock
needs ``lock_threshold`` crosses (DB2) and a row scores T(crosses) (DB3).  The
open row states are (last, crosses) pairs (:func:`qwixx_math.keys.row_codes`).

>>> from qwixx_math.layouts import DOUBLE_B
>>> double = Variant(DOUBLE_B)
>>> double.key, double.open_codes, double.weight_at(0, 1), double.is_plain
('double-b', 78, 2, False)

**Step cells** (Qwixx Connected, the Steps, VARIANTS.md §4): the sheet scores a fifth
group T(crossed step cells) (CS2), so a state also holds the total of crossed step
cells, 0 .. :attr:`Variant.step_layers` - 1 (:mod:`.layout`).

>>> from qwixx_math.layouts import CONNECTED_STEPS
>>> steps = Variant(CONNECTED_STEPS)
>>> steps.has_steps, steps.step_layers, steps.is_step_at(0, 0), steps.is_step_at(0, 1)
(True, 12, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ..errors import ParseError
from ..keys import row_codes, uses_row_codes
from ..layouts import LAYOUTS, OFFICIAL, SYMBOL_NAMES, SheetLayout, layout_named
from ..model import PENALTY_POINTS

__all__ = ["PENALTY_POINTS", "Direction", "Variant", "check_symbol_cells", "check_symbol_sheet",
           "row_points", "variant_or_layout"]

#: Largest number of rows a variant may have (the lock colours of a sheet).
MAX_ROWS = 4
#: Largest row length: the numbers 2..12 of two six-sided dice.
MAX_ROW_LENGTH = 11


class Direction(Enum):
    """The reading direction of a one-colour row (R2)."""

    #: 2, 3, ..., 12 from left to right (red and yellow).
    ASCENDING = "ascending"
    #: 12, 11, ..., 2 from left to right (green and blue).
    DESCENDING = "descending"

    @property
    def letter(self) -> str:
        """``"a"`` or ``"d"``: the letter used in variant keys and file names."""
        return "a" if self is Direction.ASCENDING else "d"

    @property
    def flipped(self) -> Direction:
        """The other direction (what the die flip d -> 7-d turns this one into)."""
        return Direction.DESCENDING if self is Direction.ASCENDING else Direction.ASCENDING


def row_points(marks: int) -> int:
    """R16: a row with ``marks`` marks (the lock included) scores marks(marks+1)/2."""
    return marks * (marks + 1) // 2


#: The geometry a variant is compared and hashed by (its layout without the name).
_Identity = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int, int, int,
                  tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...], int, int,
                  tuple[tuple[int, int], ...], bool, tuple[tuple[int, int], ...],
                  tuple[int, ...], tuple[int, ...], bool, bool,
                  tuple[tuple[tuple[int, int], tuple[int, int]], ...], bool, bool,
                  tuple[tuple[tuple[int, int], ...], ...]]


@dataclass(frozen=True, slots=True)
class Variant:
    """A solitaire Qwixx game on the sheet ``sheet`` (default: the official one).

    Two variants are equal when their sheets agree cell for cell (numbers, dice,
    crosses per cell, lock threshold, penalty boxes, closed rows that end the game),
    whatever the sheets are called.
    """

    sheet: SheetLayout = field(default=OFFICIAL, compare=False)
    #: The Option ``xc_field_without_cross`` (XC4: an X-Change field may be spent alone
    #: as the action-1 cross); it only matters on a sheet with an X-Change track.
    field_without_cross: bool = field(default=False, compare=False)
    #: The Option ``lg_lucky_mode`` = ``additional`` (LG4: the lucky cross may follow the
    #: white-sum cross); it only matters on a sheet with lucky numbers.
    lucky_additional: bool = field(default=False, compare=False)
    #: The Option ``lg_lucky_candidates`` = ``open_with_next_cell`` (LG5: the fewest
    #: crosses among the rows with a next cell); only on a sheet with lucky numbers.
    lucky_next_cell: bool = field(default=False, compare=False)
    #: The Option ``da_same_turn`` (DA4: the number crossed in action 1 may be doubled in
    #: action 2 of the same turn); it only matters on a sheet with second crosses.
    da_same_turn: bool = field(default=True, compare=False)
    _numbers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _dice: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _targets: tuple[tuple[tuple[int, ...], ...], ...] = field(
        init=False, repr=False, compare=False)
    _identity: _Identity = field(init=False, repr=False)

    def __post_init__(self) -> None:
        sheet = self.sheet
        if not isinstance(sheet, SheetLayout):
            raise ParseError(f"a Variant is made from a SheetLayout, not {sheet!r}")
        _check_chain_sheet(sheet)
        check_second_cross_sheet(sheet)
        if not isinstance(self.da_same_turn, bool):
            raise ParseError(f"da_same_turn must be True or False, not "
                             f"{self.da_same_turn!r}", rule="DA4")
        if not isinstance(self.field_without_cross, bool):
            raise ParseError(f"field_without_cross must be True or False, not "
                             f"{self.field_without_cross!r}", rule="XC4")
        for name, rule in (("lucky_additional", "LG4"), ("lucky_next_cell", "LG5")):
            if not isinstance(getattr(self, name), bool):
                raise ParseError(f"{name} must be True or False, not "
                                 f"{getattr(self, name)!r}", rule=rule)
        if sheet.steps and sheet.exchange:  # no pad has both; both would be lanes
            raise ParseError(f"layout {sheet.name}: the exact solver does not handle step "
                             "cells and an X-Change track on one sheet", rule="XC1")
        if sheet.steps and uses_row_codes(sheet):  # no pad has both; the step ranges
            # are worked out on the official row codes (one mark per cell, one lock number)
            raise ParseError(f"layout {sheet.name}: the exact solver does not handle step "
                             "cells on a sheet with double cells, 8-sided dice or two lock "
                             "numbers", rule="CS2")
        if sheet.symbols:  # Bonus B: its own index and tables (:mod:`.bonus_b`)
            check_symbol_sheet(sheet)
        if sheet.bar and (sheet.steps or sheet.exchange or uses_row_codes(sheet)):
            raise ParseError(f"layout {sheet.name}: the exact solver plays a bonus bar only "
                             "on single cells of 6-sided dice without steps or an X-Change "
                             "track (each would be a lane)", rule="BA1")
        sheet.check_no_bonus_rows("the exact solver")
        lengths = {len(r) for r in sheet.numbers}
        if len(lengths) != 1:
            raise ParseError(f"layout {sheet.name}: the solver needs rows of one length, not "
                             f"{sorted(lengths)}")
        locks = sheet.locks
        dice = tuple(
            tuple(locks.index(c) if c in locks else -1 for c in cols) for cols in sheet.colours)
        targets: list[list[list[int]]] = [[[] for _ in range(sheet.top_number + 1)]
                                          for _ in locks]
        for r, (row, cells) in enumerate(zip(sheet.numbers, dice, strict=True)):
            for n, d in zip(row, cells, strict=True):
                if d >= 0:
                    targets[d][n].append(r)
        object.__setattr__(self, "_numbers", sheet.numbers)
        object.__setattr__(self, "_dice", dice)
        object.__setattr__(self, "_targets",
                           tuple(tuple(tuple(t) for t in die) for die in targets))
        object.__setattr__(self, "_identity", (
            sheet.numbers, dice, sheet.lock_threshold, sheet.penalty_boxes,
            sheet.closed_rows_to_end, sheet.weights, sheet.steps, sheet.faces,
            sheet.lock_cells, sheet.exchange,
            bool(sheet.exchange) and self.field_without_cross, sheet.boxed,
            tuple(locks.index(c) for c in sheet.bar), sheet.lucky,
            bool(sheet.lucky) and self.lucky_additional,
            bool(sheet.lucky) and self.lucky_next_cell, sheet.chain,
            sheet.second_crosses, sheet.second_crosses and self.da_same_turn,
            sheet.symbols))

    @classmethod
    def official(cls) -> Variant:
        """The official game: rows a, a, d, d of length 11, lock after 5, 4 penalties, 2 closes."""
        return cls()

    @classmethod
    def from_letters(
        cls,
        letters: str,
        row_length: int = 11,
        lock_threshold: int = 5,
        penalty_boxes: int = 4,
        closed_rows_to_end: int = 2,
    ) -> Variant:
        """A variant of one-colour rows spelled as letters (``a``scending 2, 3, ...,
        ``d``escending 12, 11, ...): ``Variant.from_letters("ad", 5, 2, 2, 1)``."""
        if not isinstance(letters, str) or not letters or set(letters) - {"a", "d"}:
            raise ParseError(f"row directions are spelled with 'a' and 'd', not {letters!r}")
        if len(letters) > MAX_ROWS:
            raise ParseError(f"a variant has 1 to {MAX_ROWS} rows, not {len(letters)}")
        for name, value in (("row_length", row_length), ("lock_threshold", lock_threshold),
                            ("penalty_boxes", penalty_boxes),
                            ("closed_rows_to_end", closed_rows_to_end)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ParseError(f"Variant {name} must be an integer, not {value!r}")
        if not 1 <= row_length <= MAX_ROW_LENGTH:
            raise ParseError(f"Variant row_length must be between 1 and {MAX_ROW_LENGTH}, "
                             f"not {row_length}")
        key = f"{letters}-L{row_length}-t{lock_threshold}-p{penalty_boxes}-k{closed_rows_to_end}"
        return cls(SheetLayout.plain(key, letters, row_length, lock_threshold=lock_threshold,
                                     penalty_boxes=penalty_boxes,
                                     closed_rows_to_end=closed_rows_to_end))

    # ----------------------------------------------------------------- geometry

    @property
    def rows(self) -> int:
        """The number of rows (and of coloured dice)."""
        return len(self._numbers)

    @property
    def row_length(self) -> int:
        """The number of cells of every row."""
        return len(self._numbers[0])

    @property
    def lock_threshold(self) -> int:
        """Marks a row needs before its last number (R8)."""
        return self.sheet.lock_threshold

    @property
    def penalty_boxes(self) -> int:
        """The game ends when all of them are marked (R13)."""
        return self.sheet.penalty_boxes

    @property
    def closed_rows_to_end(self) -> int:
        """The game ends when this many rows are closed (R14)."""
        return self.sheet.closed_rows_to_end

    @property
    def has_doubles(self) -> bool:
        """Whether some cell gives two crosses (Qwixx Double B, DB1)."""
        return self.sheet.has_doubles

    @property
    def has_steps(self) -> bool:
        """Whether the sheet has step cells (Qwixx Connected, the Steps, CS2)."""
        return bool(self.sheet.steps)

    @property
    def step_layers(self) -> int:
        """The totals of crossed step cells a state can hold, 0 .. the number of step
        cells (1 on a sheet without steps: the total is always 0)."""
        return len(self.sheet.steps) + 1

    @property
    def has_exchange(self) -> bool:
        """Whether the sheet has an X-Change track (Qwixx X-Change, XC1)."""
        return bool(self.sheet.exchange)

    @property
    def field_layers(self) -> int:
        """The values the last X-Change field used can take: none, or a field 0 .. 8 of
        the track (10 on the X-Change pad; 1 on a sheet without a track)."""
        return len(self.sheet.exchange) + 1

    @property
    def has_bar(self) -> bool:
        """Whether the sheet has boxed cells and a bonus bar (Qwixx Bonus, pad A, BA1)."""
        return bool(self.sheet.bar)

    @property
    def bar_layers(self) -> int:
        """The values the bonus bar's lane takes: 0 .. the number of fields (the fields up
        to the last one taken, :mod:`.bar`; 1 on a sheet without a bar)."""
        return len(self.sheet.bar) + 1

    @property
    def bar_rows(self) -> tuple[int, ...]:
        """Each bar field's row (the row its colour locks), left to right (BA1)."""
        return self._identity[12]

    @property
    def has_chain(self) -> bool:
        """Whether the sheet has chain pairs (Qwixx Connected, the Chain, CC1)."""
        return bool(self.sheet.chain)

    @property
    def chain_layers(self) -> int:
        """The counts a closed row of a chain pad may hold, 0 .. every number and the lock
        (it still gains partner crosses, CC2, and a row another player closed holds any
        count: :mod:`.chain`); 1 on other sheets."""
        return self.row_length + 2 if self.has_chain else 1

    def is_boxed_at(self, row: int, position: int) -> bool:
        """Whether the cell at ``position`` of ``row`` is a boxed cell (BA1)."""
        self.number_at(row, position)
        return (row, position) in self.sheet.boxed

    def with_field_without_cross(self, spend: bool) -> Variant:
        """This variant under the Option ``xc_field_without_cross`` = ``spend`` (XC4);
        itself on a sheet without an X-Change track (the Option changes nothing there)."""
        if not self.has_exchange or spend == self.field_without_cross:
            return self
        return Variant(self.sheet, spend, self.lucky_additional, self.lucky_next_cell,
                       self.da_same_turn)

    @property
    def lucky(self) -> tuple[int, ...]:
        """The sheet's lucky numbers (Qwixx Longo, LG3), ``()`` for none."""
        return self.sheet.lucky

    def with_lucky_options(self, additional: bool, next_cell: bool) -> Variant:
        """This variant under the Options ``lg_lucky_mode`` (``additional``: True for
        ``additional``, LG4) and ``lg_lucky_candidates`` (``next_cell``: True for
        ``open_with_next_cell``, LG5); itself on a sheet without lucky numbers (the
        Options change nothing there)."""
        if not self.lucky or (additional, next_cell) == (self.lucky_additional,
                                                        self.lucky_next_cell):
            return self
        return Variant(self.sheet, self.field_without_cross, additional, next_cell,
                       self.da_same_turn)

    @property
    def has_second_crosses(self) -> bool:
        """Whether the sheet has second-cross boxes (Qwixx Double A, DA1)."""
        return self.sheet.second_crosses

    def with_da_same_turn(self, same_turn: bool) -> Variant:
        """This variant under the Option ``da_same_turn`` (DA4); itself on a sheet without
        second crosses (the Option changes nothing there)."""
        if not self.sheet.second_crosses or same_turn == self.da_same_turn:
            return self
        return Variant(self.sheet, self.field_without_cross, self.lucky_additional,
                       self.lucky_next_cell, same_turn)

    def is_step_at(self, row: int, position: int) -> bool:
        """Whether the cell at ``position`` of ``row`` is a step cell (CS2)."""
        self.number_at(row, position)
        return (row, position) in self.sheet.steps

    def weight_at(self, row: int, position: int) -> int:
        """The crosses the cell at ``position`` of ``row`` gives (1, or 2: DB1)."""
        self.number_at(row, position)
        return self.sheet.weights[row][position]

    @property
    def open_codes(self) -> int:
        """The number of open states of one row: empty plus every (last, count), the
        count in crosses on a sheet with double cells (:func:`qwixx_math.keys.row_codes`:
        every pair some row of the sheet reaches)."""
        if uses_row_codes(self.sheet):
            return row_codes(self.sheet).open
        return 1 + self.row_length * (self.row_length - 1) // 2

    @property
    def faces(self) -> int:
        """The sides of every die (6; 8 on Qwixx Longo, LG1)."""
        return self.sheet.faces

    @property
    def lock_cells(self) -> int:
        """The lock numbers at the end of every row (1; 2 on Qwixx Longo, LG2): the open
        positions are ``0 .. row_length - lock_cells - 1``."""
        return self.sheet.lock_cells

    @property
    def top_number(self) -> int:
        """The largest sum of two dice: 12, or 16 with 8-sided dice (LG1)."""
        return 2 * self.sheet.faces

    @property
    def max_marks(self) -> int:
        """The most marks (crosses, on a sheet with double cells) a row can hold: every
        number and the lock."""
        return self.sheet.max_crosses

    @property
    def is_official(self) -> bool:
        """True for the official game."""
        return self == Variant()

    @property
    def directions(self) -> tuple[Direction | None, ...]:
        """Each row's :class:`Direction` when it reads 2, 3, ... or 12, 11, ... (else None)."""
        out: list[Direction | None] = []
        for row in self._numbers:
            if row == tuple(range(2, 2 + len(row))):
                out.append(Direction.ASCENDING)
            elif row == tuple(range(12, 12 - len(row), -1)):
                out.append(Direction.DESCENDING)
            else:
                out.append(None)
        return tuple(out)

    @property
    def is_plain(self) -> bool:
        """True when every row reads up or down from 2 or 12, is one die's colour only
        and has no double cell, step cell nor bonus bar, of 6-sided dice and one lock number (the
        official sheet and :meth:`from_letters`' variants)."""
        return not uses_row_codes(self.sheet) and not self.has_steps \
            and not self.sheet.second_crosses \
            and not self.has_exchange and not self.has_bar and not self.has_chain \
            and not self.sheet.symbols \
            and None not in self.directions and all(
            all(d == r for d in cells) for r, cells in enumerate(self._dice))

    def number_at(self, row: int, position: int) -> int:
        """The number printed at ``position`` of ``row``."""
        self._check_row(row)
        if not isinstance(position, int) or isinstance(position, bool) or \
                not 0 <= position < self.row_length:
            raise ParseError(f"position {position} is outside a row of length {self.row_length}")
        return self._numbers[row][position]

    def position_of(self, row: int, number: int) -> int | None:
        """The position of ``number`` in ``row``, or None when the row does not show it."""
        self._check_row(row)
        if not isinstance(number, int) or isinstance(number, bool):
            raise ParseError(f"a row's numbers are whole numbers, not {number!r}")
        try:
            return self._numbers[row].index(number)
        except ValueError:
            return None

    def die_at(self, row: int, position: int) -> int:
        """The die (= the row it locks) whose colour the cell has, -1 if no die has it."""
        self.number_at(row, position)
        return self._dice[row][position]

    def action2_targets(self, die: int, number: int) -> tuple[int, ...]:
        """The rows whose cell showing ``number`` has die ``die``'s colour: where
        white + that die may mark ``number`` (R6), open or not."""
        self._check_row(die)
        if not isinstance(number, int) or isinstance(number, bool) or \
                not 0 <= number <= self.top_number:
            return ()
        return self._targets[die][number]

    def _check_row(self, row: int) -> None:
        if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < self.rows:
            raise ParseError(f"row {row} does not exist in a variant with {self.rows} rows")

    # ------------------------------------------------------------- description

    @property
    def key(self) -> str:
        """A short unique name, used in cache file names: ``aadd-L11-t5-p4-k2`` for a plain
        variant (the official one included), the layout's name for the published Mixx
        pads (``mixx-a``), else the layout's spelled-out key."""
        if self.is_plain:
            letters = "".join(d.letter for d in self.directions if d is not None)
            return (f"{letters}-L{self.row_length}-t{self.lock_threshold}"
                    f"-p{self.penalty_boxes}-k{self.closed_rows_to_end}")
        for name, sheet in LAYOUTS.items():
            if not (sheet.has_doubles or sheet.steps or sheet.exchange or sheet.chain
                    or sheet.second_crosses or sheet.bar or sheet.symbols or sheet.bonus_rows) \
                    and sheet.faces == 6 and sheet.lock_cells == 1 and Variant(sheet) == self:
                return name
        if self.sheet.faces != 6 or self.sheet.lock_cells != 1:
            return _longo_key(self.sheet.without_lucky()) + self._lucky_key()
        if self.sheet.second_crosses:  # DA4 = False changes the game
            return self.sheet.key + ("" if self.da_same_turn else "-da4f")
        if self.has_exchange:  # the published pad by name; XC4 changes the game
            return self.sheet.key + ("-xc4" if self.field_without_cross else "")
        return self.sheet.key

    def _lucky_key(self) -> str:
        """The key's part of the lucky numbers and their Options (LG3-LG5): ``-lucky5.13``,
        then ``-lgadd`` (``additional``) and ``-lgnext`` (``open_with_next_cell``)."""
        if not self.lucky:
            return ""
        return (f"-lucky{'.'.join(str(n) for n in self.lucky)}"
                + ("-lgadd" if self.lucky_additional else "")
                + ("-lgnext" if self.lucky_next_cell else ""))

    def to_json(self) -> dict[str, object]:
        """The JSON object form (a plain variant keeps the form it always had)."""
        if self.is_plain:
            return {
                "directions": [d.value for d in self.directions if d is not None],
                "row_length": self.row_length,
                "lock_threshold": self.lock_threshold,
                "penalty_boxes": self.penalty_boxes,
                "closed_rows_to_end": self.closed_rows_to_end,
            }
        return {
            "layout": self.key,
            "numbers": [list(r) for r in self._numbers],
            "dice": [list(d) for d in self._dice],
            "lock_threshold": self.lock_threshold,
            "penalty_boxes": self.penalty_boxes,
            "closed_rows_to_end": self.closed_rows_to_end,
            **({"weights": [list(w) for w in self.sheet.weights]} if self.has_doubles
               else {}),
            **({"steps": [list(c) for c in self.sheet.steps]} if self.has_steps else {}),
            **({"faces": self.faces, "lock_cells": self.lock_cells}
               if self.faces != 6 or self.lock_cells != 1 else {}),
            **({"exchange": [list(f) for f in self.sheet.exchange],
                "xc_field_without_cross": self.field_without_cross}
               if self.has_exchange else {}),
            **({"boxed": [list(c) for c in self.sheet.boxed],
                "bar": [c.value for c in self.sheet.bar]} if self.has_bar else {}),
            **({"chain": [[list(c) for c in pair] for pair in self.sheet.chain]}
               if self.has_chain else {}),
            **({"symbols": [[list(c) for c in pair] for pair in self.sheet.symbols]}
               if self.sheet.symbols else {}),
            **({"lucky": list(self.lucky),
                "lg_lucky_mode": "additional" if self.lucky_additional else "instead",
                "lg_lucky_candidates": ("open_with_next_cell" if self.lucky_next_cell
                                        else "open_rows")}
               if self.lucky else {}),
        }


def _check_chain_sheet(sheet: SheetLayout) -> None:
    """The chain pads the exact solver plays (:mod:`.chain`): single cells of 6-sided dice,
    one lock number, no other feature, at most one closed row while the game runs (its
    count is the lane); else a ParseError naming CC1."""
    if not sheet.chain:
        return
    if (uses_row_codes(sheet) or sheet.steps or sheet.exchange or sheet.bar or sheet.lucky
            or sheet.symbols or sheet.bonus_rows or sheet.second_crosses
            or sheet.closed_rows_to_end > 2):
        raise ParseError(f"layout {sheet.name}: the exact solver plays chain pairs only on "
                         "single cells of 6-sided dice with one lock number, no other "
                         "feature, and a game that ends at 1 or 2 closed rows", rule="CC1")


def check_second_cross_sheet(sheet: SheetLayout) -> None:
    """The second-cross pads the exact solver plays (:mod:`.double_a`): rows of one length
    whose cells have their own row's colour, single cells of 6-sided dice, one lock
    number, no other feature; else a ParseError naming DA1."""
    if not sheet.second_crosses:
        return
    own = len(sheet.colours) == len(sheet.locks) and all(
        all(c is lock for c in cols) for cols, lock in zip(sheet.colours, sheet.locks,
                                                           strict=True))
    if (not own or sheet.has_doubles or sheet.steps or sheet.exchange or sheet.bar
            or sheet.chain or sheet.lucky or sheet.symbols or sheet.bonus_rows
            or sheet.faces != 6 or sheet.lock_cells != 1
            or len({len(r) for r in sheet.numbers}) != 1):
        raise ParseError(f"layout {sheet.name}: the exact solver plays second crosses only on "
                         "rows of one length whose cells have the row's colour, single cells "
                         "of 6-sided dice with one lock number and no other feature",
                         rule="DA1")


def check_symbol_cells(sheet: SheetLayout, what: str) -> None:
    """Refuse (ParseError naming BB1) a pad that is not Bonus B's five symbols on single
    cells of 6-sided dice with one lock number: what the moves of the Bonus B solvers
    (:mod:`.bonus_b_moves`) play."""
    if len(sheet.symbols) != len(SYMBOL_NAMES):
        raise ParseError(f"layout {sheet.name}: {what} needs Bonus B's five symbols",
                         rule="BB1")
    if sheet.has_doubles or sheet.lock_cells != 1 or sheet.faces != 6:
        raise ParseError(f"layout {sheet.name}: {what} plays single cells, one lock "
                         f"number and 6-sided dice", rule="BB1")


def check_symbol_sheet(sheet: SheetLayout, what: str = "the exact solver") -> None:
    """Refuse (ParseError naming BB1) a pad with symbols that ``what`` cannot play: it
    needs Bonus B's five symbols on single cells of 6-sided dice with one lock number,
    rows of one length and no other feature, and a game that ends at one or two closed
    rows (one closed row's count is kept, the square's minimum reads it)."""
    check_symbol_cells(sheet, what)
    if (sheet.steps or sheet.exchange or sheet.bar or sheet.chain or sheet.lucky
            or sheet.second_crosses or sheet.bonus_rows
            or len({len(r) for r in sheet.numbers}) != 1):
        raise ParseError(f"layout {sheet.name}: {what} plays Bonus B's symbols only on rows "
                         "of one length without another feature", rule="BB1")
    if sheet.closed_rows_to_end > 2:
        raise ParseError(f"layout {sheet.name}: {what} keeps one closed row's count, so at "
                         "most two closed rows may end the game", rule="BB1")


def _longo_key(sheet: SheetLayout) -> str:
    """The cache key of a layout of 8-sided dice or two lock numbers: its published name,
    else its rows (numbers in hexadecimal, colour letters) and parameters."""
    if LAYOUTS.get(sheet.name) == sheet:
        return sheet.name
    rows = ".".join(
        "".join(f"{c.letter.upper() if w == 2 else c.letter}{n:x}"
                for n, c, w in zip(r, cs, ws, strict=True))
        for r, cs, ws in zip(sheet.numbers, sheet.colours, sheet.weights, strict=True))
    return (f"{rows}-t{sheet.lock_threshold}-p{sheet.penalty_boxes}"
            f"-k{sheet.closed_rows_to_end}-f{sheet.faces}-l{sheet.lock_cells}")


def variant_or_layout(variant: Variant | None, layout: SheetLayout | str | None
                      ) -> Variant | None:
    """The variant an entry point taking ``variant=`` or ``layout=`` (a SheetLayout or a
    published layout's name) works on: ``Variant(layout)`` when a layout is given, else
    ``variant`` unchanged (None for the official game is the caller's default to fill;
    the caller checks the type of what it gets)."""
    if layout is None:
        return variant
    if variant is not None:
        raise ParseError("pass a variant or a layout, not both")
    if not isinstance(layout, (SheetLayout, str)):
        raise ParseError(f"layout must be a SheetLayout or a layout name, not {layout!r}")
    return Variant(layout_named(layout))
