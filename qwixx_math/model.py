"""Immutable values of the game: colours, the sheet, marks and the roll (RULES.md R1, R2).

A row is stored as an 11-bit mask of marked *positions* (0 = leftmost number,
10 = the last number).  The lock box is not a separate bit: marking the last
number marks the lock too (R8), so a row's mark count is its popcount plus one
when position 10 is set.  The friendly accessors (:meth:`Sheet.marks`,
:meth:`Sheet.count`, ...) speak in numbers; the masks are for speed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from itertools import pairwise
from typing import ClassVar

from .colours import COLOUR_NAMES, COLOURS, Colour, as_colour  # noqa: F401
from .errors import InvalidStateError, ParseError
from .layouts import (
    BP_SCORE_CAP,
    DA_SCORE_CAP,
    FACES,
    MAX_EXCHANGE_FIELDS,
    OFFICIAL,
    SheetLayout,
)

__all__ = [
    "COLOURS",
    "LAST_POSITION",
    "LOCK_THRESHOLD",
    "PENALTY_BOXES",
    "PENALTY_POINTS",
    "ROW_LENGTH",
    "Colour",
    "LuckyMark",
    "Mark",
    "Roll",
    "Sheet",
    "TurnPlan",
    "check_chain_pairs",
    "row_points",
]

#: Numbers per row (2..12).
ROW_LENGTH = 11
#: Position of the last number of a row (red/yellow 12, green/blue 2).
LAST_POSITION = ROW_LENGTH - 1
#: Marks a row must already hold before its last number may be marked (R8).
LOCK_THRESHOLD = 5
#: Penalty boxes on a sheet (R2); the fourth ends the game (R13).
PENALTY_BOXES = 4
#: Points lost per penalty box (R17).
PENALTY_POINTS = 5

_FULL_MASK = (1 << ROW_LENGTH) - 1
#: The largest die (Qwixx Longo's 8-sided dice, LG1) and the largest number it makes.
_MAX_FACES = max(FACES)
_TOP_NUMBER = 2 * _MAX_FACES
_LAST_BIT = 1 << LAST_POSITION


#: T(n) = n(n+1)/2, the points of a row with n marks (R16); up to 23 for the double cells
#: of Qwixx Double B (DB3: at most 16 crosses).
_TRIANGLE = tuple(n * (n + 1) // 2 for n in range(2 * ROW_LENGTH + 2))


def row_points(count: int) -> int:
    """Points of a row holding ``count`` marks, the lock included (R16)."""
    if not (isinstance(count, int) and not isinstance(count, bool)
            and 0 <= count <= ROW_LENGTH + 1):
        raise ParseError(f"a row holds 0 to 12 marks, not {count!r}", rule="R16")
    return _TRIANGLE[count]


def _allowed(mask: int) -> int:
    """Positions a row with marks ``mask`` may take next, by R7 and R8 alone."""
    if mask & _LAST_BIT:
        return 0
    start = mask.bit_length()  # first position right of the last mark
    allowed = ((1 << LAST_POSITION) - 1) & ~((1 << start) - 1)
    if mask.bit_count() >= LOCK_THRESHOLD:
        allowed |= _LAST_BIT
    return allowed


#: ALLOWED[mask]: bit p set when position p may be marked next (R7, R8); closing ignored.
ALLOWED: tuple[int, ...] = tuple(_allowed(m) for m in range(_FULL_MASK + 1))
#: COUNT[mask]: marks of a row (the lock box included) (R16).
COUNT: tuple[int, ...] = tuple(m.bit_count() + (1 if m & _LAST_BIT else 0)
                               for m in range(_FULL_MASK + 1))


@dataclass(frozen=True, slots=True)
class Mark:
    """A cross on ``number`` in the row of ``colour`` (2..12; up to 16 on a Longo sheet, LG1).

    Marks sort by row (red, yellow, green, blue) and then left to right, which
    is the order legal moves are listed in.  ``colour`` names the row by its lock
    colour (:mod:`qwixx_math.layouts`); :attr:`position`, :attr:`closes` and the sort
    order read the *official* sheet: on another layout ask the layout
    (``layout.position(mark.colour, mark.number)``, ``layout.closes(...)``,
    :func:`qwixx_math.rules.mark_key`).

    ``second``: a second cross in the box under ``number`` (Qwixx Double A, DA1), written
    ``r8+``; it is legal only on a sheet whose layout has second-cross boxes.
    """

    colour: Colour
    number: int
    #: Qwixx X-Change (XC1): the X-Change field this action-1 mark uses to exchange the
    #: white sum for ``number``; None for a plain mark.  A field spent alone (XC4 under
    #: ``xc_field_without_cross``) is :meth:`spend`, a mark with ``number`` 0 and no cross.
    field: int | None = None
    #: Qwixx Double A (DA1): a second cross in the box under ``number`` (text ``r8+``).
    second: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise ParseError(f"a mark needs a Colour, not {self.colour!r}")
        if not isinstance(self.second, bool):
            raise ParseError(f"Mark.second must be true or false, not {self.second!r}",
                             rule="DA1")
        if self.field is not None:
            _check_field(self.field)
            if self.second:
                raise ParseError("a second cross (Double A) is not an X-Change exchange: a "
                                 "mark has a field or is a second cross, not both", rule="DA1")
            if self.number == 0 and self.colour is COLOURS[0]:
                return  # a field spent alone (XC4)
        if not (isinstance(self.number, int) and not isinstance(self.number, bool)
                and 2 <= self.number <= _TOP_NUMBER):
            raise ParseError(f"a row holds the numbers 2 to 12 (2 to {_TOP_NUMBER} with "
                             f"{_MAX_FACES}-sided dice, LG1), not {self.number!r}", rule="R2")

    @classmethod
    def spend(cls, field: int) -> Mark:
        """X-Change field ``field`` spent alone, crossing no number (XC4 under the Option
        ``xc_field_without_cross``); text ``x2``."""
        return cls(COLOURS[0], 0, field)

    @property
    def crosses(self) -> bool:
        """False only for an X-Change field spent alone (:meth:`spend`): it crosses no
        number."""
        return self.number != 0

    @property
    def position(self) -> int:
        """Position of the mark in its row (0..10, left to right)."""
        return self.colour.position(self.number)

    @property
    def closes(self) -> bool:
        """Whether this is the row's last number (marking it closes the row, R8)."""
        return self.number == self.colour.last_number

    @property
    def sort_key(self) -> tuple[int, int]:
        if self.field is not None:
            return _exchange_sort_key(self)
        return (self.colour.index, self.position)

    def __lt__(self, other: Mark) -> bool:
        if not isinstance(other, Mark):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        if self.field is not None:
            return _exchange_text(self)
        return f"{self.colour.letter}{self.number}{'+' if self.second else ''}"

    def __repr__(self) -> str:
        extra = "" if self.field is None else f", field={self.field!r}"
        extra += ", second=True" if self.second else ""
        return f"Mark(colour={self.colour!r}, number={self.number!r}{extra})"

    def describe(self) -> str:
        """Plain words: ``"red 8"``; ``"red 3 (X-Change field 2)"``; ``"red 8 (second
        cross)"`` (DA1)."""
        if self.field is not None and not self.crosses:
            return f"X-Change field {self.field} alone"
        where = "" if self.field is None else f" (X-Change field {self.field})"
        if self.second:
            where = " (second cross)"
        return f"{self.colour.value} {self.number}{where}"


def _describe_exchange(mark: Mark) -> str:
    """An X-Change action 1 in plain words (XC1, XC4)."""
    if not mark.crosses:
        return f"spend X-Change field {mark.field} alone"
    return (f"mark {mark.colour.value} {mark.number} for the white sum, exchanged on "
            f"X-Change field {mark.field}")


def _check_field(value: object) -> None:
    """An X-Change field index: 0 .. MAX_EXCHANGE_FIELDS - 1 (XC1)."""
    if not (isinstance(value, int) and not isinstance(value, bool)
            and 0 <= value < MAX_EXCHANGE_FIELDS):
        raise ParseError(f"an X-Change field is numbered 0 to {MAX_EXCHANGE_FIELDS - 1}, "
                         f"not {value!r}", rule="XC1")


def _exchange_sort_key(mark: Mark) -> tuple[int, int]:
    """An exchange mark sorts with its cell (a stable sort keeps the plain mark first, as
    :func:`~qwixx_math.rules.legal_action1` lists them); a field spent alone after every
    row."""
    assert mark.field is not None
    if not mark.crosses:
        return (len(COLOURS), mark.field)
    return (mark.colour.index, mark.colour.positions[mark.number])


def _exchange_text(mark: Mark) -> str:
    return (f"x{mark.field}" if not mark.crosses
            else f"{mark.colour.letter}{mark.number}@x{mark.field}")


@dataclass(frozen=True, slots=True)
class LuckyMark(Mark):
    """Qwixx Longo's lucky cross (VARIANTS.md LG3): in action 1, when the white sum is one
    of the sheet's lucky numbers, the next cell ``number`` of a row ``colour`` with the
    fewest crosses.  It is a player's action-1 choice, in place of a white-sum mark
    (Option ``lg_lucky_mode = instead``, LG4), or after the white-sum mark ``first``
    (``additional``: a second voluntary cross, V3; ``first`` None if there was none).

    Written ``*y10``, or ``r13+*y10`` after a first mark (:func:`qwixx_math.notation.format_mark`).
    A lucky mark never equals the plain :class:`Mark` of its cell.
    """

    first: Mark | None = None

    def __post_init__(self) -> None:
        Mark.__post_init__(self)
        if self.field is not None or self.second is not False:
            raise ParseError(f"a lucky cross is neither an X-Change exchange nor a second "
                             f"cross (field={self.field!r}, second={self.second!r}); write "
                             "its first mark as LuckyMark(colour, number, first=mark)",
                             rule="LG3")
        first = self.first
        if first is not None and (not isinstance(first, Mark) or isinstance(first, LuckyMark)):
            raise ParseError(f"LuckyMark.first must be a plain Mark or None, not {first!r}",
                             rule="LG4")

    @property
    def cells(self) -> tuple[Mark, ...]:
        """The crosses this choice makes, in order: ``first`` (if any), then the lucky cell
        (as a plain :class:`Mark`).  (:attr:`Mark.crosses`, True here, says only that it
        crosses something.)"""
        lucky = Mark(self.colour, self.number)
        return (lucky,) if self.first is None else (self.first, lucky)

    def __str__(self) -> str:
        first = "" if self.first is None else f"{self.first}+"
        return f"{first}*{self.colour.letter}{self.number}"

    def describe(self) -> str:
        """Plain words: ``"lucky yellow 10"``, ``"red 13, then lucky yellow 10"``."""
        lucky = f"lucky {self.colour.value} {self.number}"
        return lucky if self.first is None else f"{self.first.describe()}, then {lucky}"


#: MARKS[colour index][number]: the shared Mark value (numbers 0 and 1 unused).
MARKS: tuple[tuple[Mark, ...], ...] = tuple(
    tuple(Mark(c, max(n, 2)) for n in range(_TOP_NUMBER + 1)) for c in COLOURS)
#: The second crosses (Double A, DA1) likewise: ``SECOND_MARKS[colour index][number]``.
SECOND_MARKS: tuple[tuple[Mark, ...], ...] = tuple(
    tuple(Mark(c, max(n, 2), second=True) for n in range(_TOP_NUMBER + 1)) for c in COLOURS)


@dataclass(frozen=True, slots=True)
class Sheet:
    """One player's score sheet: the marks of its rows and the penalty boxes (R2).

    ``masks[i]`` is the row locked by ``COLOURS[i]`` as a bit mask of marked
    positions (0 for a colour that locks no row of the layout); ``layout`` is the
    printed sheet (:data:`~qwixx_math.layouts.OFFICIAL` unless given), which says
    which number stands at each position.  Prefer the friendly constructors
    :meth:`empty`, :meth:`from_marks` and :func:`qwixx_math.notation.parse_sheet`.  A
    sheet is validated when built: one that no game can produce raises
    :class:`InvalidStateError`.

    >>> from qwixx_math.layouts import MIXX_B
    >>> Sheet.from_marks({Colour.RED: [10, 6]}, layout=MIXX_B).masks
    (3, 0, 0, 0)
    """

    masks: tuple[int, int, int, int] = (0, 0, 0, 0)
    penalties: int = 0
    layout: SheetLayout = OFFICIAL
    #: Qwixx X-Change: the fields of the layout's track this player used, left to right
    #: (XC1, XC2); always () on a layout without a track.
    used_fields: tuple[int, ...] = ()
    #: Qwixx Double A (DA1): ``seconds[i]`` the mask of the positions of the row locked by
    #: ``COLOURS[i]`` whose second-cross box is crossed (a subset of ``masks[i]``).
    seconds: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: Bonus A (VARIANTS.md §2): the taken and the void fields of the bonus bar, as masks
    #: (bit ``k`` = field ``k``, left to right); 0 on a sheet without a bar.  Both are kept
    #: (§2.5's next-field index alone cannot tell a record's taken field from a void one).
    bar_taken: int = 0
    bar_void: int = 0
    #: Qwixx Big Points (BP1, BP4): the crossed cells of the bonus rows RY and GB, as masks of
    #: columns (bit ``i`` = column ``i``, left to right); (0, 0) on a sheet without them.
    bonus_rows: tuple[int, int] = (0, 0)

    EMPTY: ClassVar[Sheet]

    def __post_init__(self) -> None:
        if isinstance(self.masks, str):
            raise ParseError(f"Sheet() takes row masks, not text; read the notation with "
                             f"Sheet.parse({self.masks!r}) (or parse_sheet)")
        masks = self.masks
        layout = self.layout
        if not isinstance(layout, SheetLayout):
            raise ParseError(f"Sheet.layout must be a SheetLayout, not {layout!r}")
        if not (isinstance(masks, tuple) and len(masks) == len(COLOURS)):
            raise ParseError("a sheet has four row masks (red, yellow, green, blue)")
        for colour, mask in zip(COLOURS, masks, strict=True):
            last = layout.last_bit[colour.index]
            full = (last << 1) - 1 if last else 0
            if not isinstance(mask, int) or isinstance(mask, bool) or not 0 <= mask <= full:
                if last == 0 and isinstance(mask, int):
                    raise ParseError(f"layout {layout.name} has no {colour.value} row, so its "
                                     "mask must be 0")
                raise ParseError(f"the {colour.value} row mask must be an integer 0..{full}")
            lock = mask & layout.lock_bits[colour.index]
            extra = _check_seconds(self.seconds, colour, mask, layout)
            if lock & (lock - 1):
                raise InvalidStateError(
                    "LG2", f"crossing a lock number closes the {colour.value} row, so at most "
                           "one of its lock numbers is crossed")
            if lock and layout.count[colour.index][mask & ~lock] + extra < layout.lock_threshold:
                number = layout.numbers[layout.row_of[colour.index]][lock.bit_length() - 1]
                raise InvalidStateError(
                    layout.lock_rule,
                    f"{colour.value} {number} needs {layout.lock_threshold} {_marks(layout)} in "
                    f"{colour.value} before it; this row has "
                    f"{layout.count[colour.index][mask & ~lock] + extra}",
                )
        if layout.chain:
            check_chain_pairs(masks, layout)
        if self.used_fields:
            _check_used_fields(self.used_fields, layout)
        p = self.penalties
        boxes = layout.penalty_boxes
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p <= boxes:
            raise InvalidStateError("R2", f"a sheet has {boxes} penalty boxes; got {p!r}")
        if layout.bar or self.bar_taken or self.bar_void:
            from .bonus import check_bar

            check_bar(self)
        if layout.symbols:
            from .bonus_b import check_symbols

            check_symbols(self)
        if self.bonus_rows != (0, 0) or layout.bonus_rows:
            from .big_points import check_bonus_rows

            check_bonus_rows(self)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def empty(cls, layout: SheetLayout = OFFICIAL) -> Sheet:
        """A fresh sheet (of ``layout``, by default the official sheet)."""
        if layout is OFFICIAL:
            return cls.EMPTY
        # sheets never change, so one empty sheet per layout serves every game (keyed by
        # identity: the sheet keeps its layout alive, and ``is`` tests read the layout)
        sheet = _EMPTY_SHEETS.get(id(layout))
        if sheet is None or sheet.layout is not layout:
            sheet = cls((0, 0, 0, 0), 0, _require_layout(layout))
            if len(_EMPTY_SHEETS) >= _EMPTY_SHEETS_KEPT:
                _EMPTY_SHEETS.clear()
            _EMPTY_SHEETS[id(layout)] = sheet
        return sheet

    @classmethod
    def from_marks(
        cls,
        marks: Mapping[Colour, Iterable[int]] | None = None,
        penalties: int = 0,
        layout: SheetLayout = OFFICIAL,
        used_fields: Iterable[int] = (),
        seconds: Mapping[Colour, Iterable[int]] | None = None,
        bar_taken: int = 0,
        bar_void: int = 0,
    ) -> Sheet:
        """A sheet from the numbers marked in each row, in the order they were marked.

        Rows are keyed by their lock colour (see :mod:`qwixx_math.layouts`); ``seconds``
        names the numbers of each row that hold a second cross (Double A, DA1); on a Bonus A
        sheet ``bar_taken`` and ``bar_void`` are its bar (:attr:`bar_taken`).

        >>> Sheet.from_marks({Colour.RED: [2, 3, 5]}, penalties=1)
        Sheet('r:2,3,5/y:-/g:-/b:-/p:1')
        """
        layout = _require_layout(layout)
        masks = [0, 0, 0, 0]
        if marks is not None and not isinstance(marks, Mapping):
            raise ParseError(f"marks must map each Colour to its numbers, not {marks!r}")
        for colour, numbers in (marks or {}).items():
            if not isinstance(colour, Colour):
                raise ParseError(f"sheet rows are keyed by Colour, not {colour!r}")
            if isinstance(numbers, (str, bytes)) or not isinstance(numbers, Iterable):
                raise ParseError(f"the {colour.value} row must list its numbers, not {numbers!r}")
            numbers = list(numbers)
            if numbers and layout.row_of[colour.index] < 0:
                raise InvalidStateError("R2", f"layout {layout.name} has no {colour.value} row")
            mask = 0
            last: int | None = None
            last_pos = -1
            for number in numbers:
                pos = layout_position(layout, colour, number)
                if last is not None and pos <= last_pos:
                    raise InvalidStateError(
                        "R7",
                        f"{colour.value} {number} is not right of {colour.value} {last}; "
                        "marks in a row go strictly left to right",
                    )
                mask |= 1 << pos
                last, last_pos = number, pos
            masks[colour.index] = mask
        if isinstance(used_fields, (str, bytes)) or not isinstance(used_fields, Iterable):
            raise ParseError(f"used_fields must list X-Change field numbers, not "
                             f"{used_fields!r}", rule="XC1")
        doubled = [0, 0, 0, 0]
        if seconds is not None and not isinstance(seconds, Mapping):
            raise ParseError(f"seconds must map each Colour to its doubled numbers, not "
                             f"{seconds!r}", rule="DA1")
        for colour, numbers in (seconds or {}).items():
            if not isinstance(colour, Colour) or isinstance(numbers, (str, bytes)) \
                    or not isinstance(numbers, Iterable):
                raise ParseError("seconds must map each Colour to its doubled numbers",
                                 rule="DA1")
            if layout.row_of[colour.index] < 0:
                raise InvalidStateError("R2", f"layout {layout.name} has no {colour.value} row")
            for number in numbers:
                doubled[colour.index] |= 1 << layout_position(layout, colour, number)
        return cls((masks[0], masks[1], masks[2], masks[3]), penalties, layout,
                   tuple(used_fields), (doubled[0], doubled[1], doubled[2], doubled[3]),
                   bar_taken, bar_void)

    @classmethod
    def unchecked(cls, masks: tuple[int, int, int, int], penalties: int,
                  layout: SheetLayout = OFFICIAL, used_fields: tuple[int, ...] = (),
                  seconds: tuple[int, int, int, int] = (0, 0, 0, 0), bar_taken: int = 0,
                  bar_void: int = 0, bonus_rows: tuple[int, int] = (0, 0)) -> Sheet:
        """Build without validation; only for values derived from valid ones by legal steps."""
        # the slot descriptors' own setters, as GameState.make: the effect of
        # object.__setattr__, quicker (a sheet is built per cross)
        sheet = object.__new__(cls)
        _SET_MASKS(sheet, masks)
        _SET_PENALTIES(sheet, penalties)
        _SET_LAYOUT(sheet, layout)
        _SET_USED_FIELDS(sheet, used_fields)
        _SET_SECONDS(sheet, seconds)
        _SET_BAR_TAKEN(sheet, bar_taken)
        _SET_BAR_VOID(sheet, bar_void)
        _SET_BONUS_ROWS(sheet, bonus_rows)
        return sheet


    # -- reading ------------------------------------------------------------------------------
    @property
    def last_field(self) -> int:
        """The last X-Change field this player used, -1 if none (XC2: only fields right of
        it remain usable)."""
        return self.used_fields[-1] if self.used_fields else -1

    @property
    def rows(self) -> tuple[Colour, ...]:
        """The rows of the sheet, by lock colour, in order."""
        return self.layout.locks

    def marks(self, colour: Colour | str) -> tuple[int, ...]:
        """The numbers marked in ``colour``'s row, left to right (the lock box not included)."""
        colour = as_colour(colour)
        mask = self.masks[colour.index]
        if not mask:
            return ()
        numbers = self.layout.numbers[self.layout.row_of[colour.index]]
        return tuple(n for p, n in enumerate(numbers) if mask >> p & 1)

    def count(self, colour: Colour | str) -> int:
        """Marks in ``colour``'s row, the lock box included (R16)."""
        ci = as_colour(colour).index
        return self.layout.count[ci][self.masks[ci]] + self.seconds[ci].bit_count()

    def is_locked(self, colour: Colour | str) -> bool:
        """Whether this player marked ``colour``'s last number and lock box (R8)."""
        ci = as_colour(colour).index
        return bool(self.masks[ci] & self.layout.lock_bits[ci])

    @property
    def locked(self) -> frozenset[Colour]:
        """The colours this player closed."""
        last = self.layout.lock_bits
        return frozenset(c for c in COLOURS if self.masks[c.index] & last[c.index])

    def last_number(self, colour: Colour | str) -> int | None:
        """The rightmost number marked in ``colour``'s row, or None."""
        colour = as_colour(colour)
        mask = self.masks[colour.index]
        if not mask:
            return None
        return self.layout.numbers[self.layout.row_of[colour.index]][mask.bit_length() - 1]

    def row_score(self, colour: Colour | str) -> int:
        """Points of ``colour``'s row (R16)."""
        ci = as_colour(colour).index
        if self.layout.second_crosses:
            return _TRIANGLE[min(self.count(colour), DA_SCORE_CAP)]  # DA7
        if self.layout.bonus_rows:  # BP9: the row's crosses and its bonus row's, at most 15
            extra = self.bonus_rows[ci // 2].bit_count()
            return _TRIANGLE[min(self.count(colour) + extra, BP_SCORE_CAP)]
        return _TRIANGLE[self.layout.count[ci][self.masks[ci]]]

    @property
    def score(self) -> int:
        """Total: the rows minus 5 per penalty box (R16, R17), plus T(crossed step cells)
        on a Connected Steps sheet (CS2); on a Bonus B sheet with its symbols' rewards (BB8)."""
        m = self.masks
        layout = self.layout
        if layout.symbols:  # Bonus B: square, octagon, star (BB4-BB6, BB8)
            from .bonus_b import score

            return score(self)
        c = layout.count
        if layout.second_crosses or layout.bonus_rows:  # DA7, BP9: capped, extra crosses
            # row_score of each row, inline: its crosses, its second crosses (DA7) and its
            # bonus row's (BP9; a layout has one or the other, the other masks are 0)
            cap = DA_SCORE_CAP if layout.second_crosses else BP_SCORE_CAP
            seconds, bonus = self.seconds, self.bonus_rows
            total = -PENALTY_POINTS * self.penalties
            for colour in layout.locks:
                i = colour.index
                total += _TRIANGLE[min(c[i][m[i]] + seconds[i].bit_count()
                                       + bonus[i // 2].bit_count(), cap)]
            return total
        total = (_TRIANGLE[c[0][m[0]]] + _TRIANGLE[c[1][m[1]]] + _TRIANGLE[c[2][m[2]]]
                 + _TRIANGLE[c[3][m[3]]] - PENALTY_POINTS * self.penalties)
        if layout.steps:
            total += _TRIANGLE[layout.steps_crossed(m)]
        return total

    @property
    def steps_crossed(self) -> int:
        """Crossed step cells (0 on a sheet without steps, CS2)."""
        return self.layout.steps_crossed(self.masks)

    @property
    def steps_score(self) -> int:
        """Points of the step cells, T(crossed step cells) (CS2; 0 without steps).

        >>> Sheet.parse("connected-steps|r:2,5/y:3").steps_score   # R2, R5, Y3: T(3)
        6
        """
        return _TRIANGLE[self.steps_crossed]

    @property
    def bar_next(self) -> int | None:
        """Bonus A: the index of the leftmost bar field neither taken nor void (BA1), or
        None when no field is left (BA5) or the sheet has no bar."""
        used = self.bar_taken | self.bar_void
        free = ~used & ((1 << len(self.layout.bar)) - 1)
        return (free & -free).bit_length() - 1 if free else None

    @property
    def total_marks(self) -> int:
        """Marks on the whole sheet, lock boxes included."""
        c = self.layout.count
        return sum(c[i][m] + s.bit_count()
                   for i, (m, s) in enumerate(zip(self.masks, self.seconds, strict=True)))

    def open_positions(self, colour: Colour | str) -> int:
        """The mask of the positions R7 and R8 allow next in ``colour``'s row (the lock
        counting second crosses on a Double A sheet, DA5)."""
        return self.open_mask(as_colour(colour).index)

    def open_mask(self, row: int) -> int:
        """:meth:`open_positions` of the row of colour index ``row`` (0 red .. 3 blue),
        for move generators that hold the index already."""
        if row.__class__ is not int or not 0 <= row < 4:
            raise ParseError(f"a row index is 0 (red) to 3 (blue), not {row!r}")
        layout = self.layout
        mask = self.masks[row]
        allowed = layout.allowed[row][mask]
        extra = self.seconds[row]
        if extra and not mask & layout.lock_bits[row] \
                and layout.count[row][mask] + extra.bit_count() >= layout.lock_threshold:
            allowed |= layout.lock_bits[row]
        return allowed

    def second_crosses(self, colour: Colour | str) -> tuple[int, ...]:
        """The numbers of ``colour``'s row whose second-cross box is crossed (DA1)."""
        colour = as_colour(colour)
        seconds = self.seconds[colour.index]
        if not seconds:
            return ()
        numbers = self.layout.numbers[self.layout.row_of[colour.index]]
        return tuple(n for p, n in enumerate(numbers) if seconds >> p & 1)

    def why_not_second(self, colour: Colour | str, number: int) -> tuple[str, str] | None:
        """``None`` if the sheet allows a second cross under ``number`` in ``colour``'s row
        (DA1, DA3: the row's rightmost crossed number, not yet doubled, the row not closed
        by this player), else ``(rule id, reason)``.  Whether the number was rolled, and
        whether the colour is closed in the game, is the rules core's business."""
        colour = as_colour(colour)
        layout = self.layout
        ci = colour.index
        pos = layout_position(layout, colour, number)
        mask = self.masks[ci]
        if layout.second_crosses and mask >> pos & 1 and pos == mask.bit_length() - 1 \
                and not mask & layout.lock_bits[ci] and not self.seconds[ci] >> pos & 1:
            return None  # the common case, before any reason's words are built
        name = colour.value
        if not layout.second_crosses:
            return ("DA1", f"layout {layout.name} has no second-cross boxes")
        if mask & layout.lock_bits[ci]:
            return ("DA1", f"{name} is already closed on this sheet; no second cross in a "
                           "closed row")
        if not mask >> pos & 1:
            return ("DA1", f"{name} {number} is not crossed, so it has no second cross to take")
        if pos != mask.bit_length() - 1:
            last = layout.numbers[layout.row_of[ci]][mask.bit_length() - 1]
            return ("DA3", f"{name} {number} is not the rightmost crossed number of {name} "
                           f"({name} {last} is); only that one may be doubled")
        if self.seconds[ci] >> pos & 1:
            return ("DA1", f"{name} {number} already has its second cross")
        return None

    def with_second(self, colour: Colour | str, number: int) -> Sheet:
        """This sheet with the second cross under ``number`` in ``colour``'s row (DA1);
        IllegalMoveError citing DA1/DA3 when the sheet does not allow it."""
        colour = as_colour(colour)
        reason = self.why_not_second(colour, number)
        if reason is not None:
            from .errors import IllegalMoveError
            from .notation import format_sheet

            raise IllegalMoveError(reason[0], f"{reason[1]} ({format_sheet(self)})")
        return self.seconded(colour.index, self.layout.pos[colour.index][number])

    def seconded(self, row: int, position: int) -> Sheet:
        """This sheet with the second-cross box under ``position`` of row ``row`` (0..3)
        crossed, without checks (for the rules core, DA1)."""
        s = list(self.seconds)
        s[row] |= 1 << position
        return Sheet.unchecked(self.masks, self.penalties, self.layout, self.used_fields,
                               (s[0], s[1], s[2], s[3]), self.bar_taken, self.bar_void,
                               self.bonus_rows)

    def allows(self, colour: Colour | str, number: int) -> bool:
        """Whether R7 and R8 allow ``number`` in ``colour``'s row (whether the colour is
        closed is the game's business, not the sheet's: ask
        :func:`qwixx_math.rules.can_mark` for that).  A number the row does not show
        raises ParseError (R2)."""
        colour = as_colour(colour)
        ci = colour.index
        pos = layout_position(self.layout, colour, number)
        if self.seconds[ci]:
            return bool(self.open_positions(colour) >> pos & 1)
        return bool(self.layout.allowed[ci][self.masks[ci]] >> pos & 1)

    def why_not(self, colour: Colour | str, number: int) -> tuple[str, str] | None:
        """``None`` if :meth:`allows`, else ``(rule id, reason)`` in plain words."""
        colour = as_colour(colour)
        layout = self.layout
        ci = colour.index
        pos = layout_position(layout, colour, number)
        mask = self.masks[ci]
        if layout.allowed[ci][mask] >> pos & 1 or (
                self.seconds[ci] and self.open_positions(colour) >> pos & 1):
            return None
        name = colour.value
        if mask & layout.lock_bits[ci]:
            return ("R9", f"{name} is already closed on this sheet")
        if mask and pos < mask.bit_length():
            last = layout.numbers[layout.row_of[ci]][mask.bit_length() - 1]
            if pos == mask.bit_length() - 1:
                return ("R7", f"{name} {number} is already marked")
            return ("R7", f"{name} {number} is left of {name} {last}, already marked; "
                          "a skipped number can never be marked")
        return (layout.lock_rule, f"{name} {number} needs {layout.lock_threshold} "
                                  f"{_marks(layout)} in {name} before it; this sheet has "
                                  f"{layout.count[ci][mask] + self.seconds[ci].bit_count()}")

    # -- changing (returns new sheets) --------------------------------------------------------
    def with_mark(self, colour: Colour | str, number: int) -> Sheet:
        """This sheet with ``number`` marked in ``colour`` (and the lock, for the last number).

        Raises :class:`IllegalMoveError` citing R7/R8 when the sheet does not allow it.
        """
        colour = as_colour(colour)
        reason = self.why_not(colour, number)
        if reason is not None:
            from .errors import IllegalMoveError
            from .notation import format_sheet

            rule, text = reason
            raise IllegalMoveError(rule, f"{text} ({format_sheet(self)})")
        return self.marked(colour.index, self.layout.pos[colour.index][number])

    def marked(self, row: int, position: int) -> Sheet:
        """This sheet with the cell at ``position`` of row ``row`` (0..3) marked, without
        checks (for the rules core, which has checked the mark); on a Connected Chain
        sheet its chain partner too (CC1), wherever it lies and whether or not its row is
        closed (CC2)."""
        m = list(self.masks)
        m[row] |= 1 << position
        if self.layout.partner:
            partner = self.layout.partner[row][position]
            if partner is not None:
                m[partner[0]] |= 1 << partner[1]
        return Sheet.unchecked((m[0], m[1], m[2], m[3]), self.penalties, self.layout,
                               self.used_fields, self.seconds, self.bar_taken, self.bar_void,
                               self.bonus_rows)

    def with_field(self, field: int) -> Sheet:
        """This sheet with X-Change field ``field`` used, checked against the track only
        (XC1, XC2: the rules core checks the rest of the exchange)."""
        used = (*self.used_fields, field)
        _check_used_fields(used, self.layout)
        return Sheet.unchecked(self.masks, self.penalties, self.layout, used, self.seconds,
                               self.bar_taken, self.bar_void, self.bonus_rows)


    def with_penalty(self) -> Sheet:
        """This sheet with one more penalty box crossed (R11)."""
        boxes = self.layout.penalty_boxes
        if self.penalties >= boxes:
            from .errors import IllegalMoveError
            from .notation import format_sheet

            raise IllegalMoveError(
                "R13", f"all {boxes} penalty boxes are crossed ({format_sheet(self)})")
        return Sheet.unchecked(self.masks, self.penalties + 1, self.layout, self.used_fields,
                               self.seconds, self.bar_taken, self.bar_void, self.bonus_rows)

    # -- notation -----------------------------------------------------------------------------
    def __str__(self) -> str:
        from .notation import format_sheet

        return format_sheet(self)

    def __repr__(self) -> str:
        return f"Sheet({str(self)!r})"

    # -- notation and drawings (issue 35) -----------------------------------------------------
    @classmethod
    def parse(cls, text: str, layout: SheetLayout | str | None = None) -> Sheet:
        """The sheet of a text notation (:func:`qwixx_math.notation.parse_sheet`): the
        python-chess-like constructor.  ``Sheet("r:2,3")`` itself is refused with this hint,
        because the dataclass constructor takes the row masks.

        >>> Sheet.parse("r:2,3/p:1").score
        -2
        """
        from .notation import parse_sheet

        return parse_sheet(text, layout)

    def to_svg(self, *, closed: Iterable[Colour | str] = (), roll: Roll | str | None = None,
               plan: TurnPlan | str | None = None, title: str | None = None) -> str:
        """The sheet drawn as SVG (:func:`qwixx_math.svg.sheet_svg`): the colours
        ``closed`` by anyone, a ``roll`` as dice, a ``plan`` outlined."""
        from .svg import sheet_svg

        return sheet_svg(self, closed=closed, roll=roll, plan=plan, title=title)

    def to_text(self, *, closed: Iterable[Colour | str] = (), roll: Roll | str | None = None,
                plan: TurnPlan | str | None = None) -> str:
        """The sheet drawn as text (:func:`qwixx_math.svg.sheet_text`, the same options)."""
        from .svg import sheet_text

        return sheet_text(self, closed=closed, roll=roll, plan=plan)

    def _repr_svg_(self) -> str:
        """Jupyter shows the sheet as a picture."""
        return self.to_svg()


def check_chain_pairs(masks: tuple[int, ...], layout: SheetLayout) -> None:
    """Raise InvalidStateError naming CC7 if a chain pair of ``layout`` has one cell
    crossed in the row ``masks`` and not the other (CC1 crosses both at once)."""
    for pair in layout.chain:
        cells = [(layout.locks[r], p) for r, p in pair]
        crossed = [bool(masks[c.index] >> p & 1) for c, p in cells]
        if crossed[0] != crossed[1]:
            done, missing = cells if crossed[0] else cells[::-1]
            raise InvalidStateError(
                "CC7", f"{_cell_name(layout, *done)} is crossed but its chain partner "
                       f"{_cell_name(layout, *missing)} is not; a pair has both cells "
                       "crossed or neither")


def _cell_name(layout: SheetLayout, colour: Colour, position: int) -> str:
    return f"{colour.value} {layout.numbers[layout.row_of[colour.index]][position]}"


def _marks(layout: SheetLayout) -> str:
    """What a row's count counts: marks, or crosses where double cells count 2 (DB1) or
    second crosses count (DA5)."""
    if layout.second_crosses:
        return "crosses (second crosses included)"
    return "crosses (a double cell counts 2)" if layout.has_doubles else "marks"


def _check_used_fields(used: object, layout: SheetLayout) -> None:
    """``Sheet.used_fields``: fields of the layout's track (XC1), strictly left to right,
    each once (XC2)."""
    if not (isinstance(used, tuple) and all(
            isinstance(f, int) and not isinstance(f, bool) for f in used)):
        raise ParseError(f"Sheet.used_fields must be a tuple of field numbers, not {used!r}",
                         rule="XC1")
    track = len(layout.exchange)
    if not track:
        raise ParseError(f"layout {layout.name} has no X-Change track, so no field is used",
                         rule="XC1")
    bad = [f for f in used if not 0 <= f < track]
    if bad:
        raise ParseError(f"layout {layout.name}'s X-Change fields are 0 to {track - 1}, not "
                         f"{bad[0]!r}", rule="XC1")
    if any(b <= a for a, b in pairwise(used)):
        raise InvalidStateError(
            "XC2", f"X-Change fields are used left to right, each once; not in the order "
                   f"{', '.join(map(str, used))}")
def _check_seconds(seconds: object, colour: Colour, mask: int, layout: SheetLayout) -> int:
    """The second crosses ``seconds`` (Sheet.seconds) of ``colour``'s row, checked against
    the row's crossed positions ``mask`` (DA1); their count."""
    if not (isinstance(seconds, tuple) and len(seconds) == len(COLOURS) and all(
            isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seconds)):
        raise ParseError("Sheet.seconds holds four masks of doubled positions (DA1)",
                         rule="DA1")
    row = seconds[colour.index]
    if not row:
        return 0
    name = colour.value
    if not layout.second_crosses:
        raise InvalidStateError("DA1", f"layout {layout.name} has no second-cross boxes, but "
                                       f"the {name} row holds second crosses")
    if row & ~mask:
        raise InvalidStateError("DA1", f"a second cross in {name} stands under a number that "
                                       "is not crossed")
    if row & layout.lock_bits[colour.index]:
        raise InvalidStateError("DA1", f"the last number of {name} has no second-cross box")
    return int(row.bit_count())


def _require_layout(layout: object) -> SheetLayout:
    if not isinstance(layout, SheetLayout):
        raise ParseError(f"layout must be a SheetLayout, not {layout!r}")
    return layout


def layout_position(layout: SheetLayout, colour: Colour, number: int) -> int:
    """The position of ``number`` in ``colour``'s row of ``layout``; ParseError (R2) if the
    row does not show it."""
    if layout is OFFICIAL:
        return colour.position(number)
    try:
        pos = layout.pos[colour.index][number] if number >= 0 else -1
    except (IndexError, TypeError):
        pos = -1
    if pos < 0 or isinstance(number, bool):
        if layout.row_of[colour.index] < 0:
            raise ParseError(f"layout {layout.name} has no {colour.value} row", rule="R2")
        shown = ", ".join(str(n) for n in layout.numbers[layout.row_of[colour.index]])
        raise ParseError(f"the {colour.value} row of layout {layout.name} shows {shown}, "
                         f"not {number!r}", rule="R2")
    return pos




(_SET_MASKS, _SET_PENALTIES, _SET_LAYOUT, _SET_USED_FIELDS, _SET_SECONDS, _SET_BAR_TAKEN,
 _SET_BAR_VOID, _SET_BONUS_ROWS) = (getattr(Sheet, f.name).__set__ for f in fields(Sheet))
Sheet.EMPTY = Sheet()
#: Sheet.empty's sheets of the other layouts, by id(layout); cleared when this many are kept.
_EMPTY_SHEETS: dict[int, Sheet] = {}
_EMPTY_SHEETS_KEPT = 64


@dataclass(frozen=True, slots=True)
class Roll:
    """The dice of one roll: two whites (in the order given) and the coloured dice in play.

    ``coloured[i]`` is the die of ``COLOURS[i]``, or None when that colour's die
    is out of play (its row was closed, R9).

    >>> Roll.of(3, 5, red=1, yellow=2, blue=4)
    Roll('w:3,5/r:1/y:2/b:4')
    """

    white: tuple[int, int]
    coloured: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)
    #: The sides of the dice this roll was checked against (6; 8 for Qwixx Longo, LG1).  It
    #: is a bound, not part of the value: a game checks the dice against its own layout's
    #: faces (:attr:`~qwixx_math.layouts.SheetLayout.faces`) when it takes the roll.
    faces: int = field(default=6, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.white, str):
            raise ParseError(f"Roll() takes the dice, not text; read the notation with "
                             f"Roll.parse({self.white!r}) (or parse_roll)")
        if not (isinstance(self.white, tuple) and len(self.white) == 2):
            raise ParseError("a roll has exactly two white dice")
        if not (isinstance(self.coloured, tuple) and len(self.coloured) == len(COLOURS)):
            raise ParseError("a roll lists one entry (a die or None) per colour")
        faces = self.faces
        if not isinstance(faces, int) or isinstance(faces, bool) or faces not in FACES:
            raise ParseError(f"dice have 6 or 8 sides (8: Qwixx Longo), not {faces!r}",
                             rule="LG1")
        for name, die in (("white", self.white[0]), ("white", self.white[1]),
                          *zip((c.value for c in COLOURS), self.coloured, strict=True)):
            if die is None and name != "white":
                continue
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= faces:
                raise ParseError(f"a die shows 1 to {faces}; the {name} die shows {die!r}",
                                 rule="R1" if faces == 6 else "LG1")

    @classmethod
    def unchecked(cls, white: tuple[int, int],
                  coloured: tuple[int | None, int | None, int | None, int | None],
                  faces: int = 6) -> Roll:
        """Build without validation (for dice known to be in range)."""
        roll = object.__new__(cls)
        _SET_WHITE(roll, white)
        _SET_COLOURED(roll, coloured)
        _SET_FACES(roll, faces)
        return roll


    @classmethod
    def of(cls, white1: int, white2: int, *, red: int | None = None,
           yellow: int | None = None, green: int | None = None,
           blue: int | None = None) -> Roll:
        """A roll from keyword dice; leave out the colours not in play."""
        return cls((white1, white2), (red, yellow, green, blue))

    @property
    def white_sum(self) -> int:
        """The sum every player may mark in action 1 (R5)."""
        return self.white[0] + self.white[1]

    @property
    def in_play(self) -> frozenset[Colour]:
        """The colours whose die was rolled."""
        return frozenset(c for c, d in zip(COLOURS, self.coloured, strict=True) if d is not None)

    def die(self, colour: Colour | str) -> int | None:
        """The face of ``colour``'s die, or None when it is out of play."""
        return self.coloured[as_colour(colour).index]

    def action2_numbers(self, colour: Colour | str) -> tuple[int, ...]:
        """The distinct numbers white + ``colour`` can make (R6), ascending; () if out of play."""
        d = self.coloured[as_colour(colour).index]
        if d is None:
            return ()
        a, b = self.white[0] + d, self.white[1] + d
        return (a,) if a == b else (min(a, b), max(a, b))

    def __str__(self) -> str:
        from .notation import format_roll

        return format_roll(self)

    def __repr__(self) -> str:
        return f"Roll({str(self)!r})"

    @classmethod
    def parse(cls, text: str, faces: int | None = None) -> Roll:
        """The roll of a text notation (:func:`qwixx_math.notation.parse_roll`).

        >>> Roll.parse("w:3,5/r:1").white_sum
        8
        >>> Roll.parse("d8|w:7,8/r:1").white_sum
        15
        """
        from .notation import parse_roll

        return parse_roll(text, faces)


_SET_WHITE, _SET_COLOURED, _SET_FACES = (getattr(Roll, f.name).__set__ for f in fields(Roll))


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """The active player's whole turn: the action-1 mark, the action-2 mark, or neither.

    ``TurnPlan(None, None)`` is the penalty (R11).  Plans sort with None before any
    mark, action 1 first: the order in which legal plans are listed.
    """

    action1: Mark | None = None
    action2: Mark | None = None

    def __post_init__(self) -> None:
        if isinstance(self.action1, str):
            raise ParseError(f"TurnPlan() takes marks, not text; read the notation with "
                             f"TurnPlan.parse({self.action1!r}) (or parse_plan)")
        for name in ("action1", "action2"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Mark):
                raise ParseError(f"TurnPlan.{name} must be a Mark or None, not {value!r}")

    @property
    def penalty(self) -> bool:
        """True when the plan marks nothing, which costs a penalty box (R11)."""
        return self.action1 is None and self.action2 is None

    @property
    def marks(self) -> tuple[Mark, ...]:
        """The marks of the plan, in the order they are written."""
        return tuple(m for m in (self.action1, self.action2) if m is not None)

    @property
    def sort_key(self) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        def key(m: Mark | None) -> tuple[int, int, int]:
            return (0, 0, 0) if m is None else (1, *m.sort_key)

        return (key(self.action1), key(self.action2))

    def __lt__(self, other: TurnPlan) -> bool:
        if not isinstance(other, TurnPlan):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        from .notation import format_plan

        return format_plan(self)

    def __repr__(self) -> str:
        return f"TurnPlan({str(self)!r})"

    @classmethod
    def parse(cls, text: str, top: int = 12) -> TurnPlan:
        """The plan of a text notation (:func:`qwixx_math.notation.parse_plan`); numbers
        2..``top`` (16 on Qwixx Longo).

        >>> TurnPlan.parse("r8/-").action1
        Mark(colour=<Colour.RED: 'red'>, number=8)
        """
        from .notation import parse_plan

        return parse_plan(text, top)

    def describe(self, layout: SheetLayout = OFFICIAL) -> str:
        """The plan in plain words; action 2 names the die it uses, the colour of the cell
        on ``layout`` (on the official sheet, the row's colour)."""
        if self.penalty:
            return "mark nothing and take a penalty"
        parts = []
        if self.action1 is not None and self.action1.field is not None:  # X-Change (XC1)
            parts.append(_describe_exchange(self.action1))
        elif self.action1 is not None:
            parts.append(f"mark {self.action1.describe()} with the white sum")
        if self.action2 is not None:
            a2 = self.action2
            die = _require_layout(layout).cell[a2.colour.index][a2.number] or a2.colour
            dice = die.value
            if a2.describe().startswith("bonus "):  # Big Points: either row's die (BP3)
                dice = f"{die.value} or {COLOURS[die.index + 1].value}"
            parts.append(f"{'then ' if parts else ''}mark {a2.describe()} "
                         f"with white + {dice}")
        return ", ".join(parts)
