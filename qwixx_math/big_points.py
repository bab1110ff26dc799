"""Qwixx Big Points: the two bonus rows (VARIANTS.md §1, BP1-BP9).

A layout with ``bonus_rows`` (:data:`~qwixx_math.layouts.BIG_POINTS`) has, besides the
official rows, two bonus rows of 11 cells: **RY** between red and yellow (column ``i``
shows ``i + 2``) and **GB** between green and blue (column ``i`` shows ``12 - i``).  The
rules core (:mod:`qwixx_math.rules`) asks this module about bonus crosses:

* **BP1** a bonus cell at column ``i`` is eligible only if the player crossed one of its two
  adjacent colour cells before the current action;
* **BP2** action 1: any player may cross an eligible bonus cell showing the white sum,
  instead of a colour cell;
* **BP3** action 2: the active player may cross an eligible bonus cell showing white +
  a die of one of the two adjacent colours (Option ``bp_colour_trigger``: ``same_colour``,
  the die's own cell at that column crossed; ``either_adjacent``, either one);
* **BP4** each bonus row goes left to right on its own (skipped cells are lost);
* **BP5** bonus crosses never count for the lock (the layout's ``lock_threshold`` is the
  Option ``bp_lock_marks``); **BP6** bonus rows never close; **BP7** a bonus cross is a
  voluntary cross; **BP8** the end is unchanged;
* **BP9** a colour row scores T(min(its crosses + its bonus row's crosses, 15)).

A bonus cross is a :class:`BonusMark`, written ``ry5`` / ``gb8``; a sheet keeps its bonus
rows as two masks of columns (:attr:`Sheet.bonus_rows`), written ``/ry:4,5,8/gb:11,8``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .colours import COLOURS, Colour
from .errors import InvalidStateError, ParseError
from .layouts import BONUS_ROW_CELLS, SheetLayout
from .model import Mark, Roll, Sheet
from .ruleset import BonusTrigger, Ruleset

__all__ = [
    "BONUS_ROW_NAMES",
    "BonusMark",
    "bonus_action1",
    "bonus_action2",
    "bonus_cells_action1",
    "bonus_column",
    "bonus_number",
    "bonus_numbers",
    "check_bonus_rows",
    "check_lock_marks",
    "parse_bonus_mark",
    "sheet_with_bonus",
    "why_not_bonus",
    "why_not_bonus_action2",
    "with_bonus",
]

#: The bonus rows by index: 0 RY (between red and yellow), 1 GB (between green and blue).
BONUS_ROW_NAMES = ("ry", "gb")
#: The two colour rows each bonus row joins (BP1), by their lock colour.
_ADJACENT: tuple[tuple[Colour, Colour], ...] = ((COLOURS[0], COLOURS[1]),
                                                (COLOURS[2], COLOURS[3]))
_FULL = (1 << BONUS_ROW_CELLS) - 1
_RED, _YELLOW, _GREEN, _BLUE = COLOURS


def bonus_number(row: int, column: int) -> int:
    """The number bonus row ``row`` (0 RY, 1 GB) shows at ``column`` (0..10)."""
    return column + 2 if row == 0 else 12 - column


def bonus_column(row: int, number: int) -> int:
    """The column of ``number`` (2..12) in bonus row ``row``."""
    return number - 2 if row == 0 else 12 - number


@dataclass(frozen=True, slots=True)
class BonusMark(Mark):
    """A cross on the cell showing ``number`` of a Big Points bonus row (BP1-BP4): ``colour``
    names the bonus row by its upper colour row, red for **RY**, green for **GB**.  Written
    ``ry5`` / ``gb8`` (:func:`parse_bonus_mark`); it never equals the plain :class:`Mark` of
    the colour cell above it.

    >>> str(BonusMark(Colour.RED, 5)), BonusMark.of("gb", 8).column
    ('ry5', 4)
    """

    def __post_init__(self) -> None:
        Mark.__post_init__(self)
        if self.colour not in (COLOURS[0], COLOURS[2]) or self.field is not None \
                or self.second is not False or self.number > 12:
            raise ParseError(f"a bonus cross names its bonus row by red (RY) or green (GB) and "
                             f"a number 2..12, and is no exchange or second cross, not "
                             f"{self.colour!r}, {self.number!r}", rule="BP1")

    @classmethod
    def of(cls, row: str | int, number: int) -> BonusMark:
        """The bonus cross of ``number`` in bonus row ``row`` (``"ry"``/``"gb"`` or 0/1)."""
        if row in BONUS_ROW_NAMES:
            row = BONUS_ROW_NAMES.index(str(row))
        if row not in (0, 1) or isinstance(row, bool):
            raise ParseError(f"a bonus row is ry or gb, not {row!r}", rule="BP1")
        return cls(_ADJACENT[int(row)][0], number)

    @property
    def row(self) -> int:
        """The bonus row: 0 RY, 1 GB."""
        return 0 if self.colour is _RED else 1

    @property
    def column(self) -> int:
        """The column (0..10) of the cell, which is the position of the colour cells it
        sits between (:func:`bonus_column`, inline)."""
        return self.number - 2 if self.colour is _RED else 12 - self.number

    def __str__(self) -> str:
        return f"{BONUS_ROW_NAMES[self.row]}{self.number}"

    def __repr__(self) -> str:
        return f"BonusMark.of({BONUS_ROW_NAMES[self.row]!r}, {self.number!r})"

    def describe(self) -> str:
        """Plain words: ``"bonus RY 5"``."""
        return f"bonus {BONUS_ROW_NAMES[self.row].upper()} {self.number}"


def parse_bonus_mark(text: str) -> BonusMark | None:
    """The bonus cross written ``ry5`` / ``gb12``, or None when ``text`` does not start with
    a bonus row's name (then it is no bonus cross)."""
    head = text[:2]
    if head not in BONUS_ROW_NAMES or not text[2:].isdigit() or not text[2:].isascii() \
            or len(text) > 4:
        return None
    return BonusMark.of(head, int(text[2:]))


def bonus_numbers(sheet: Sheet, row: int) -> tuple[int, ...]:
    """The crossed numbers of bonus row ``row`` (0 RY, 1 GB), left to right."""
    mask = sheet.bonus_rows[row]
    return tuple(bonus_number(row, i) for i in range(BONUS_ROW_CELLS) if mask >> i & 1)


def _adjacent_crossed(sheet: Sheet, row: int, column: int) -> tuple[bool, bool]:
    """Whether the two colour cells beside column ``column`` of bonus row ``row`` are
    crossed (upper, lower)."""
    a, b = _ADJACENT[row]
    return bool(sheet.masks[a.index] >> column & 1), bool(sheet.masks[b.index] >> column & 1)


def check_bonus_rows(sheet: Sheet) -> None:
    """Raise ParseError or InvalidStateError unless ``sheet.bonus_rows`` is two masks of
    11 columns (none on a layout without bonus rows) whose every crossed cell has a crossed
    colour cell beside it (BP1: that cross was made before it and is never undone)."""
    value = sheet.bonus_rows
    layout = sheet.layout
    if not (isinstance(value, tuple) and len(value) == 2 and all(
            isinstance(m, int) and not isinstance(m, bool) and 0 <= m <= _FULL for m in value)):
        raise ParseError(f"Sheet.bonus_rows holds two masks 0..{_FULL} of crossed bonus "
                         f"columns (RY, GB), not {value!r}", rule="BP1")
    if not layout.bonus_rows:
        if value != (0, 0):
            raise InvalidStateError("BP1", f"layout {layout.name} has no bonus rows")
        return
    for row in (0, 1):
        for column in range(BONUS_ROW_CELLS):
            if value[row] >> column & 1 and not any(_adjacent_crossed(sheet, row, column)):
                a, b = _ADJACENT[row]
                raise InvalidStateError(
                    "BP1", f"bonus {BONUS_ROW_NAMES[row].upper()} "
                           f"{bonus_number(row, column)} is crossed but neither {a.value} nor "
                           f"{b.value} {layout.numbers[layout.row_of[a.index]][column]} is")


def sheet_with_bonus(sheet: Sheet, ry: Iterable[int] = (), gb: Iterable[int] = ()) -> Sheet:
    """``sheet`` with the bonus crosses ``ry`` and ``gb`` (numbers, in the order crossed:
    strictly left to right, BP4), checked (:func:`check_bonus_rows`)."""
    masks = [0, 0]
    for row, numbers in enumerate((ry, gb)):
        if isinstance(numbers, (str, bytes)) or not isinstance(numbers, Iterable):
            raise ParseError(f"bonus row {BONUS_ROW_NAMES[row]} must list its numbers, not "
                             f"{numbers!r}", rule="BP1")
        last = -1
        for number in numbers:
            if not isinstance(number, int) or isinstance(number, bool) \
                    or not 2 <= number <= 12:
                raise ParseError(f"bonus row {BONUS_ROW_NAMES[row]} shows 2..12, not "
                                 f"{number!r}", rule="BP1")
            column = bonus_column(row, number)
            if column <= last:
                raise InvalidStateError(
                    "BP4", f"bonus {BONUS_ROW_NAMES[row].upper()} {number} is not right of "
                           f"{bonus_number(row, last)}; a bonus row goes left to right")
            masks[row] |= 1 << column
            last = column
    if masks != [0, 0] and not sheet.layout.bonus_rows:
        raise InvalidStateError("BP1", f"layout {sheet.layout.name} has no bonus rows")
    return Sheet(sheet.masks, sheet.penalties, sheet.layout, sheet.used_fields, sheet.seconds,
                 sheet.bar_taken, sheet.bar_void, (masks[0], masks[1]))


def why_not_bonus(sheet: Sheet, mark: BonusMark) -> tuple[str, str] | None:
    """``None`` if ``sheet`` allows the bonus cross ``mark`` (BP1 eligibility from the
    crosses on the sheet, BP4 left to right), else ``(rule id, reason)``.  Whether the
    number was rolled is the rules core's business."""
    layout = sheet.layout
    if not layout.bonus_rows:
        return ("BP1", f"layout {layout.name} has no bonus rows")
    mask, column = sheet.bonus_rows[mark.row], mark.column
    if not mask >> column and _beside_crossed(sheet, mark.row, column):
        return None  # the common case, before any reason's words are built
    name = f"bonus {BONUS_ROW_NAMES[mark.row].upper()} {mark.number}"
    if mask >> column:
        last = bonus_number(mark.row, mask.bit_length() - 1)
        if mask >> column & 1 and mask.bit_length() - 1 == column:
            return ("BP4", f"{name} is already crossed")
        return ("BP4", f"{name} is left of bonus {BONUS_ROW_NAMES[mark.row].upper()} {last}, "
                       "already crossed; a skipped bonus cell is lost")
    if not any(_adjacent_crossed(sheet, mark.row, column)):
        a, b = _ADJACENT[mark.row]
        n = layout.numbers[layout.row_of[a.index]][column]
        m = layout.numbers[layout.row_of[b.index]][column]
        return ("BP1", f"{name} needs {a.value} {n} or {b.value} {m} crossed before this "
                       "action")
    return None


def _beside_crossed(sheet: Sheet, row: int, column: int) -> bool:
    """Whether either colour cell beside column ``column`` of bonus row ``row`` is
    crossed (BP1)."""
    a, b = _ADJACENT[row]
    masks = sheet.masks
    return bool((masks[a.index] | masks[b.index]) >> column & 1)


def with_bonus(sheet: Sheet, mark: BonusMark) -> Sheet:
    """``sheet`` with the bonus cross ``mark``, checked by :func:`why_not_bonus`
    (IllegalMoveError naming BP1 or BP4)."""
    reason = why_not_bonus(sheet, mark)
    if reason is not None:
        from .errors import IllegalMoveError

        raise IllegalMoveError(reason[0], f"{reason[1]} ({sheet})")
    rows = [sheet.bonus_rows[0], sheet.bonus_rows[1]]
    rows[mark.row] |= 1 << mark.column
    return Sheet.unchecked(sheet.masks, sheet.penalties, sheet.layout, sheet.used_fields,
                           sheet.seconds, sheet.bar_taken, sheet.bar_void, (rows[0], rows[1]))


#: The 22 bonus crosses, ``_BONUS_MARKS[row][number]``: the move generators hand out these
#: values instead of building and checking a new mark per candidate.
_BONUS_MARKS: tuple[dict[int, BonusMark], ...] = tuple(
    {number: BonusMark(_ADJACENT[row][0], number) for number in range(2, 13)} for row in (0, 1))


#: [bonus row][column]: the bonus cross of that cell, for bonus_action2.
_COLUMN_MARKS: tuple[tuple[BonusMark, ...], ...] = tuple(
    tuple(_BONUS_MARKS[row][bonus_number(row, column)] for column in range(BONUS_ROW_CELLS))
    for row in (0, 1))


def bonus_action1(sheet: Sheet, white_sum: int) -> tuple[BonusMark, ...]:
    """The bonus crosses ``sheet`` allows for the white sum in action 1 (BP2): RY, then GB.

    A cell is open when nothing is crossed at or right of its column in its bonus row
    (BP4) and a colour cell beside it is crossed (BP1): :func:`why_not_bonus`'s test,
    without its words (the tests compare the two)."""
    if not sheet.layout.bonus_rows or not 2 <= white_sum <= 12:
        return ()
    return bonus_cells_action1(sheet, white_sum)


def bonus_cells_action1(sheet: Sheet, white_sum: int) -> tuple[BonusMark, ...]:
    """:func:`bonus_action1` of a Big Points ``sheet`` and a white sum 2 to 12, without
    checking either (the rules core's lister, which knows both)."""
    rows, masks = sheet.bonus_rows, sheet.masks
    ry, gb = white_sum - 2, 12 - white_sum  # the columns (bonus_column) of RY and GB
    if not rows[0] >> ry and (masks[0] | masks[1]) >> ry & 1:
        if not rows[1] >> gb and (masks[2] | masks[3]) >> gb & 1:
            return (_BONUS_MARKS[0][white_sum], _BONUS_MARKS[1][white_sum])
        return (_BONUS_MARKS[0][white_sum],)
    if not rows[1] >> gb and (masks[2] | masks[3]) >> gb & 1:
        return (_BONUS_MARKS[1][white_sum],)
    return ()


def why_not_bonus_action2(sheet: Sheet, mark: BonusMark, roll: Roll,
                          dice_out: frozenset[Colour], ruleset: Ruleset
                          ) -> tuple[str, str] | None:
    """Why the active player's ``sheet`` may not take the bonus cross ``mark`` in action 2
    with ``roll`` (BP3: white + a die of one of the bonus row's two colours, that die not
    out of play, ``dice_out``; under ``same_colour`` the die's own cell at the column
    crossed; BP1, BP4 on the sheet), or None."""
    reason = why_not_bonus(sheet, mark)
    if reason is not None:
        return reason
    row, column, number = mark.row, mark.column, mark.number
    either = ruleset.bp_colour_trigger is BonusTrigger.EITHER_ADJACENT
    w1, w2 = roll.white
    made: list[str] = []
    for die in _ADJACENT[row]:
        face = roll.coloured[die.index]
        if face is None or die in dice_out:
            continue
        if number == w1 + face or number == w2 + face:
            if either or sheet.masks[die.index] >> column & 1:
                return None
            made.append(die.value)
    a, b = _ADJACENT[row]
    if not made:
        return ("BP3", f"{mark.describe()}: white + {a.value} or white + {b.value} (dice in "
                       f"play) does not make {number}")
    return ("BP3", f"{mark.describe()}: white + {' or '.join(made)} makes {number}, but "
                   f"the {' or '.join(made)} cell of that column is not crossed "
                   "(bp_colour_trigger=same_colour)")


def bonus_action2(sheet: Sheet, roll: Roll, dice_out: frozenset[Colour],
                  ruleset: Ruleset) -> tuple[BonusMark, ...]:
    """The bonus crosses ``sheet`` allows in action 2 (BP3), RY then GB, left to right."""
    if not sheet.layout.bonus_rows:
        return ()
    either = ruleset.bp_colour_trigger is BonusTrigger.EITHER_ADJACENT
    w1, w2 = roll.white
    red, yellow, green, blue = roll.coloured
    m = sheet.masks
    # white + d shows in column w + d - 2 of RY and 12 - w - d of GB (bonus_column): the
    # two white faces as bits, shifted by d, are the columns a die of face d makes; each
    # die triggers the columns where its own colour cell is crossed (same_colour) or
    # either cell beside (either_adjacent, BP3), while it is in play
    up, down = 1 << w1 | 1 << w2, 1 << 12 - w1 | 1 << 12 - w2
    ry = gb = 0
    if red is not None and _RED not in dice_out:
        ry = (up << red) >> 2 & (m[0] | m[1] if either else m[0])
    if yellow is not None and _YELLOW not in dice_out:
        ry |= (up << yellow) >> 2 & (m[0] | m[1] if either else m[1])
    if green is not None and _GREEN not in dice_out:
        gb = down >> green & (m[2] | m[3] if either else m[2])
    if blue is not None and _BLUE not in dice_out:
        gb |= down >> blue & (m[2] | m[3] if either else m[3])
    rows = sheet.bonus_rows  # open: right of the bonus row's last cross (BP4)
    ry &= -1 << rows[0].bit_length()
    gb &= -1 << rows[1].bit_length()
    if not ry | gb:
        return ()
    out: list[BonusMark] = []
    for made, marks in ((ry, _COLUMN_MARKS[0]), (gb, _COLUMN_MARKS[1])):
        while made:
            low = made & -made
            out.append(marks[low.bit_length() - 1])
            made ^= low
    return tuple(out)


def check_lock_marks(layout: SheetLayout, ruleset: Ruleset) -> None:
    """Raise ParseError naming BP5 unless a Big Points ``layout``'s lock threshold is the
    ruleset's Option ``bp_lock_marks`` (a Big Points sheet needing 6 crosses before its last
    number is the layout ``big-points`` with ``lock_threshold`` 6, e.g. a layout file)."""
    if layout.bonus_rows and layout.lock_threshold != ruleset.bp_lock_marks:
        raise ParseError(f"bp_lock_marks={ruleset.bp_lock_marks} but layout {layout.name}'s "
                         f"last numbers need {layout.lock_threshold} crosses; play a Big "
                         f"Points layout whose lock_threshold is {ruleset.bp_lock_marks}",
                         rule="BP5")
