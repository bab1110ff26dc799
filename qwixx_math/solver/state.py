"""Row states and the integer code of an open row.

What matters for the future of a row is whether it is closed and, when open,
the position of its rightmost mark (``last``) and its number of marks.  The
solver numbers the open states of a row so that every legal mark moves to a
strictly larger number (SOLVER.md):

    empty -> 0,    (last, marks) -> 1 + last(last+1)/2 + (marks-1)

with ``last`` in ``0 .. row_length-2`` (marking the last position closes the
row).  The official row has 56 open states, codes 0..55.  These are the open
codes of :mod:`qwixx_math.keys`: :func:`encode_row` is :func:`~qwixx_math.keys.open_code`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InvalidStateError, ParseError
from ..keys import open_code as encode_row
from .variant import PENALTY_POINTS, Variant, row_points

__all__ = ["RowState", "decode_row", "encode_row", "score"]


@dataclass(frozen=True, slots=True)
class RowState:
    """One row of a sheet, as the solver sees it.

    * ``RowState()``: empty and open.
    * ``RowState(marks=3, last=6)``: open, 3 marks, the rightmost at position 6.
    * ``RowState(marks=8, closed=True)``: closed (by this player, the lock counted
      in ``marks``, or by another player in a multiplayer game, with any number of
      this player's marks); ``last`` is irrelevant and must be None.

    Positions are 0-based from the left (see :class:`~qwixx_math.solver.variant.Variant`).
    """

    marks: int = 0
    last: int | None = None
    closed: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.marks, int) or isinstance(self.marks, bool) or self.marks < 0:
            raise ParseError(f"RowState.marks must be a non-negative integer, not {self.marks!r}")
        if not isinstance(self.closed, bool):
            raise ParseError(f"RowState.closed must be True or False, not {self.closed!r}")
        if self.closed:
            if self.last is not None:
                raise ParseError("a closed RowState has no last position (use last=None)")
            return
        if self.last is None:
            if self.marks != 0:
                raise ParseError(f"an open row with {self.marks} marks needs its last position")
            return
        if not isinstance(self.last, int) or isinstance(self.last, bool) or self.last < 0:
            raise ParseError(f"RowState.last must be a non-negative integer, not {self.last!r}")
        if not 1 <= self.marks <= self.last + 1:
            raise InvalidStateError(
                "R7", f"a row whose rightmost mark is at position {self.last} holds 1 to "
                      f"{self.last + 1} marks, not {self.marks}"
            )

    @classmethod
    def empty(cls) -> RowState:
        """An open row without marks."""
        return cls()

    @classmethod
    def open(cls, last: int, marks: int) -> RowState:
        """An open row with ``marks`` marks, the rightmost at position ``last``."""
        return cls(marks=marks, last=last)

    @classmethod
    def locked(cls, marks: int) -> RowState:
        """A closed row holding ``marks`` of this player's marks (lock included)."""
        return cls(marks=marks, closed=True)

    @property
    def points(self) -> int:
        """R16: the row's points."""
        return row_points(self.marks)

    def check(self, variant: Variant) -> None:
        """Raise ParseError (a ValueError) unless this row state can occur in ``variant``."""
        if not isinstance(variant, Variant):
            raise ParseError(f"expected a Variant, not {type(variant).__name__}")
        if self.closed:
            if self.marks > variant.max_marks:
                raise ParseError(
                    f"a closed row of length {variant.row_length} holds at most "
                    f"{variant.max_marks} marks, not {self.marks}"
                )
            return
        if self.last is not None and self.last > variant.row_length - 2:
            raise InvalidStateError(
                "R8", f"an open row of length {variant.row_length} has its rightmost mark at "
                      f"position 0..{variant.row_length - 2}, not {self.last} (the last number "
                      "closes it)"
            )


def decode_row(code: int) -> tuple[int | None, int]:
    """``(last, marks)`` of an open row's code; ``(None, 0)`` for the empty row."""
    if not isinstance(code, int) or isinstance(code, bool) or code < 0:
        raise ParseError(f"row codes are non-negative whole numbers, not {code!r}")
    if code == 0:
        return None, 0
    last = 0
    rest = code - 1
    while rest > last:
        rest -= last + 1
        last += 1
    return last, rest + 1


def score(rows: Sequence[RowState], penalties: int) -> int:
    """R16-R17: the total of the rows minus 5 per penalty."""
    return sum(r.points for r in rows) - PENALTY_POINTS * penalties
