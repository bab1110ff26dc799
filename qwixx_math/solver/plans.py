"""The solitaire turn in plain Python: the legal plans for a roll and where they lead.

This is the solver's own statement of one solitaire turn (RULES.md R4-R15 with
one player, who is active on every turn).  The naive reference solver and
:meth:`SolverTable.plan_values` use it; the fast kernel does not, so the tests
that compare the two check the kernel's rules against this module.

* A **mark** is ``(row, number)``: the row index and the number printed there.
* A **roll** is ``(white1, white2, {row: die})`` with one coloured die for every
  row still open at the start of the turn (R4, R9): die ``i`` has the colour of
  row ``i``'s lock.
* A **plan** is a :class:`TurnPlan`: the action-1 mark (the white sum, in any
  row) or None, and the action-2 mark (one white die plus a coloured die, in a
  cell of that die's colour: on the official sheet, the die's own row; see
  :meth:`Variant.action2_targets`) or None.  Both None is the penalty (R11).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..errors import ParseError
from .state import RowState
from .variant import Variant

__all__ = ["Mark", "Outcome", "Roll", "TurnPlan", "all_rolls", "is_game_over", "mark_row",
           "turn_outcomes", "unchecked_turn_outcomes"]

#: ``(row index, number)``.
Mark = tuple[int, int]
#: ``(white1, white2, {row index: coloured die})`` for the rows open at the turn's start.
Roll = tuple[int, int, Mapping[int, int]]


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """What the player does with one roll: an action-1 mark and an action-2 mark, each optional."""

    action1: Mark | None = None
    action2: Mark | None = None

    @property
    def is_penalty(self) -> bool:
        """True when the plan marks nothing (and so marks a penalty box, R11)."""
        return self.action1 is None and self.action2 is None

    @property
    def marks(self) -> int:
        """How many numbers the plan marks (0, 1 or 2)."""
        return (self.action1 is not None) + (self.action2 is not None)

    def sort_key(self) -> tuple[int, int, int, int, int]:
        """The documented tie order: fewer marks first, then action 1's (row, number),
        then action 2's (row, number); a missing action sorts before any mark."""
        a1 = self.action1 if self.action1 is not None else (-1, -1)
        a2 = self.action2 if self.action2 is not None else (-1, -1)
        return (self.marks, a1[0], a1[1], a2[0], a2[1])

    def __str__(self) -> str:
        if self.is_penalty:
            return "penalty"
        parts = []
        if self.action1 is not None:
            parts.append(f"action 1: row {self.action1[0]} number {self.action1[1]}")
        if self.action2 is not None:
            parts.append(f"action 2: row {self.action2[0]} number {self.action2[1]}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a plan leads: the rows and penalties after the turn, and whether the game is over."""

    plan: TurnPlan
    rows: tuple[RowState, ...]
    penalties: int
    game_over: bool


def is_game_over(variant: Variant, rows: Sequence[RowState], penalties: int) -> bool:
    """R13/R14: all penalty boxes marked, or ``closed_rows_to_end`` rows closed."""
    closed = sum(1 for r in rows if r.closed)
    return penalties >= variant.penalty_boxes or closed >= variant.closed_rows_to_end


def mark_row(variant: Variant, row: RowState, position: int) -> RowState | None:
    """The row after marking ``position``, or None when R7/R8 forbid it.

    R8 counts the row's marks as they are (for action 2, this turn's action-1 mark
    included).  Marking the last position also marks the lock (closes the row).
    """
    if row.closed:
        return None
    if row.last is not None and position <= row.last:
        return None  # R7: strictly right of every mark
    if position == variant.row_length - 1:
        if row.marks < variant.lock_threshold:
            return None  # R8
        return RowState(marks=row.marks + 2, closed=True)
    return RowState(marks=row.marks + 1, last=position)


def all_rolls(rows: Sequence[RowState]) -> Iterator[tuple[int, int, dict[int, int]]]:
    """Every roll of the dice in play at ``rows``: two white dice and one die per open
    row, each of the 6^(2+k) equally likely outcomes once (white dice first, in
    :func:`itertools.product` order)."""
    open_rows = [i for i, r in enumerate(rows) if not r.closed]
    for dice in itertools.product(range(1, 7), repeat=2 + len(open_rows)):
        yield dice[0], dice[1], dict(zip(open_rows, dice[2:], strict=True))


def _check_roll(rows: Sequence[RowState], roll: Roll) -> None:
    white1, white2, colours = roll
    for die in (white1, white2, *colours.values()):
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise ParseError(f"a die shows 1 to 6, not {die!r}", rule="R1")
    open_rows = {i for i, r in enumerate(rows) if not r.closed}
    if set(colours) != open_rows:
        raise ParseError(
            f"R4/R9: the roll needs one coloured die for each open row {sorted(open_rows)}, "
            f"not for rows {sorted(colours)}"
        )


@lru_cache(maxsize=64)
def _positions(variant: Variant) -> tuple[tuple[int | None, ...], ...]:
    """``_positions(v)[row][number]``: the position of ``number`` (0..12) in ``row``."""
    return tuple(
        tuple(variant.position_of(row, n) if n >= 2 else None for n in range(13))
        for row in range(variant.rows)
    )


def turn_outcomes(
    variant: Variant,
    action2_after_action1_end: bool,
    rows: Sequence[RowState],
    penalties: int,
    roll: Roll,
) -> list[Outcome]:
    """Every legal plan for ``roll`` from a position where the game is not over.

    ``action2_after_action1_end`` is :attr:`Ruleset.action2_after_action1_end` (R15).
    The list holds each distinct plan once (two white dice giving the same action-2
    number are one plan), in no particular order.  Raises ParseError (a ValueError) for a state
    or roll the variant cannot have.
    """
    rows = tuple(rows)
    if len(rows) != variant.rows:
        raise ParseError(f"the variant has {variant.rows} rows, not {len(rows)}")
    for r in rows:
        r.check(variant)
    if not 0 <= penalties <= variant.penalty_boxes:
        raise ParseError(f"penalties must be 0..{variant.penalty_boxes}, not {penalties}")
    if is_game_over(variant, rows, penalties):
        raise ParseError("the game is over: there is no turn to plan")
    _check_roll(rows, roll)
    return unchecked_turn_outcomes(variant, action2_after_action1_end, rows, penalties, roll)


def unchecked_turn_outcomes(
    variant: Variant,
    action2_after_action1_end: bool,
    rows: tuple[RowState, ...],
    penalties: int,
    roll: Roll,
) -> list[Outcome]:
    """:func:`turn_outcomes` without validating its arguments (for the naive solver's loop)."""
    white1, white2, colours = roll
    positions = _positions(variant)
    end_closed = variant.closed_rows_to_end
    end_penalties = variant.penalty_boxes
    closed0 = sum(1 for r in rows if r.closed)

    after_action1: list[tuple[Mark | None, tuple[RowState, ...], int]] = [(None, rows, closed0)]
    white_sum = white1 + white2
    for i, row in enumerate(rows):
        position = positions[i][white_sum]
        if position is None:
            continue
        new = mark_row(variant, row, position)
        if new is not None:
            after_action1.append(
                ((i, white_sum), (*rows[:i], new, *rows[i + 1:]), closed0 + new.closed)
            )

    outcomes: list[Outcome] = []
    for action1, rows1, closed1 in after_action1:
        if action1 is None:
            outcomes.append(
                Outcome(TurnPlan(), rows, penalties + 1, penalties + 1 >= end_penalties)
            )
        else:
            over = closed1 >= end_closed
            outcomes.append(Outcome(TurnPlan(action1), rows1, penalties, over))
            if over and not action2_after_action1_end:
                continue  # R15: the game ended in action 1
        for d, die in sorted(colours.items()):
            if rows1[d].closed:
                continue  # R9: its row closed in action 1, the die has left play
            numbers = (white1 + die,) if white1 == white2 else (white1 + die, white2 + die)
            for number in sorted(numbers):
                for j in variant.action2_targets(d, number):  # cells of die d's colour
                    row = rows1[j]
                    position = positions[j][number]
                    if row.closed or position is None:
                        continue
                    new = mark_row(variant, row, position)
                    if new is None:
                        continue
                    rows2 = (*rows1[:j], new, *rows1[j + 1:])
                    outcomes.append(
                        Outcome(
                            TurnPlan(action1, (j, number)),
                            rows2,
                            penalties,
                            closed1 + new.closed >= end_closed,
                        )
                    )
    return outcomes
