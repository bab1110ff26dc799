"""The :class:`Variant`: the shape of the solitaire game the solver solves.

The official game is ``Variant()`` (= :meth:`Variant.official`): four rows read
2..12, 2..12, 12..2, 12..2, the last number of a row needs 5 marks before it,
four penalty boxes, and the game ends when two rows are closed.  Smaller
variants exist so that a deliberately naive reference solver can check the fast
one on every state (see :mod:`qwixx_math.solver.naive`).

Positions.  A row of length ``L`` has positions ``0 .. L-1`` read left to right.
An ascending row shows the number ``2 + p`` at position ``p``, a descending row
``12 - p``.  Position ``L-1`` is the row's last number (R8): it may be marked
only when the row already holds ``lock_threshold`` marks, and marking it also
marks the lock box, which closes the row (R9) and adds 2 to its count.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..errors import ParseError
from ..model import PENALTY_POINTS

__all__ = ["PENALTY_POINTS", "Direction", "Variant", "row_points"]

#: Largest number of rows a variant may have (the solver's tables grow as 56^rows).
MAX_ROWS = 6
#: Largest row length: the numbers 2..12 of two six-sided dice.
MAX_ROW_LENGTH = 11


class Direction(Enum):
    """The reading direction of a row (R2)."""

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


_OFFICIAL_DIRECTIONS = (
    Direction.ASCENDING,
    Direction.ASCENDING,
    Direction.DESCENDING,
    Direction.DESCENDING,
)


@dataclass(frozen=True, slots=True)
class Variant:
    """A solitaire Qwixx variant.  The defaults are the official game.

    ``directions``: one :class:`Direction` per row (row ``i`` is the ``i``-th entry).
    ``row_length``: numbers per row (1..11); the row holds ``row_length + 1``
    marks at most (every number and the lock).
    ``lock_threshold``: marks a row needs before its last number (R8), 0..row_length-1.
    ``penalty_boxes``: the game ends when all of them are marked (R13).
    ``closed_rows_to_end``: the game ends when this many rows are closed (R14).
    """

    directions: tuple[Direction, ...] = _OFFICIAL_DIRECTIONS
    row_length: int = 11
    lock_threshold: int = 5
    penalty_boxes: int = 4
    closed_rows_to_end: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.directions, tuple) or not all(
            isinstance(d, Direction) for d in self.directions
        ):
            raise ParseError(
                f"Variant.directions must be a tuple of Direction, not {self.directions!r}"
            )
        if not 1 <= len(self.directions) <= MAX_ROWS:
            raise ParseError(
                f"Variant.directions must name 1 to {MAX_ROWS} rows, not {len(self.directions)}"
            )
        for name in ("row_length", "lock_threshold", "penalty_boxes", "closed_rows_to_end"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ParseError(f"Variant.{name} must be an integer, not {value!r}")
        if not 1 <= self.row_length <= MAX_ROW_LENGTH:
            raise ParseError(
                f"Variant.row_length must be between 1 and {MAX_ROW_LENGTH}, "
                f"not {self.row_length}"
            )
        if not 0 <= self.lock_threshold <= self.row_length - 1:
            raise ParseError(
                f"Variant.lock_threshold must be between 0 and row_length-1 = "
                f"{self.row_length - 1}, not {self.lock_threshold}"
            )
        if self.penalty_boxes < 1:
            raise ParseError(f"Variant.penalty_boxes must be at least 1, not {self.penalty_boxes}")
        if not 1 <= self.closed_rows_to_end <= len(self.directions):
            raise ParseError(
                f"Variant.closed_rows_to_end must be between 1 and the number of rows "
                f"({len(self.directions)}), not {self.closed_rows_to_end}"
            )

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
        """A variant with rows spelled as letters: ``Variant.from_letters("ad", 5, 2, 2, 1)``."""
        table = {"a": Direction.ASCENDING, "d": Direction.DESCENDING}
        try:
            if not isinstance(letters, str):
                raise KeyError(letters)
            directions = tuple(table[c] for c in letters)
        except KeyError as exc:
            raise ParseError(
                f"row directions are spelled with 'a' and 'd', not {letters!r}"
            ) from exc
        return cls(directions, row_length, lock_threshold, penalty_boxes, closed_rows_to_end)

    # ----------------------------------------------------------------- geometry

    @property
    def rows(self) -> int:
        """The number of rows."""
        return len(self.directions)

    @property
    def open_codes(self) -> int:
        """The number of open states of one row: empty plus every (last, count)."""
        return 1 + self.row_length * (self.row_length - 1) // 2

    @property
    def max_marks(self) -> int:
        """The most marks a row can hold: every number and the lock."""
        return self.row_length + 1

    @property
    def is_official(self) -> bool:
        """True for the official game."""
        return self == Variant()

    def number_at(self, row: int, position: int) -> int:
        """The number printed at ``position`` of ``row``."""
        self._check_row(row)
        if not isinstance(position, int) or isinstance(position, bool) or \
                not 0 <= position < self.row_length:
            raise ParseError(f"position {position} is outside a row of length {self.row_length}")
        if self.directions[row] is Direction.ASCENDING:
            return 2 + position
        return 12 - position

    def position_of(self, row: int, number: int) -> int | None:
        """The position of ``number`` in ``row``, or None when the row does not show it."""
        self._check_row(row)
        if not isinstance(number, int) or isinstance(number, bool):
            raise ParseError(f"a row's numbers are whole numbers, not {number!r}")
        position = number - 2 if self.directions[row] is Direction.ASCENDING else 12 - number
        return position if 0 <= position < self.row_length else None

    def _check_row(self, row: int) -> None:
        if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < self.rows:
            raise ParseError(f"row {row} does not exist in a variant with {self.rows} rows")

    # ------------------------------------------------------------- description

    @property
    def key(self) -> str:
        """A short unique name, used in cache file names: ``aadd-L11-t5-p4-k2``."""
        letters = "".join(d.letter for d in self.directions)
        return (
            f"{letters}-L{self.row_length}-t{self.lock_threshold}"
            f"-p{self.penalty_boxes}-k{self.closed_rows_to_end}"
        )

    def to_json(self) -> dict[str, object]:
        """The JSON object form."""
        return {
            "directions": [d.value for d in self.directions],
            "row_length": self.row_length,
            "lock_threshold": self.lock_threshold,
            "penalty_boxes": self.penalty_boxes,
            "closed_rows_to_end": self.closed_rows_to_end,
        }
