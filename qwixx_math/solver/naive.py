"""A deliberately naive reference solver, for checking the fast one on small variants.

Plain Python and no cleverness: for a state it enumerates every roll of the
dice in play (two white dice and one die per open row, each of the 6^(2+k)
outcomes on its own), every legal plan of :func:`~qwixx_math.solver.plans.turn_outcomes`
for that roll, takes the best, and averages; values of later states come from
a memoised recursion.  No symmetry, no expected-maximum trick, no tables.

It is exponentially slow in the number of rows and only meant for tiny
variants (2-3 rows, short rows): ``NaiveSolver(Variant.from_letters("ad", 4, 2, 2, 1))``.

With ``players`` = N > 1 it solves the table model (docs/table.md) the same
plain way: ``value(rows, penalties, before_me)`` with ``before_me`` = K other
players' rolls before this player's own; on each of those it enumerates the 36
white pairs and takes the best of passing and marking the white sum in each row
(:func:`~qwixx_math.solver.plans.mark_row`), no penalty either way.  After this
player's own turn, N - 1 other rolls follow.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from ..ruleset import Ruleset
from .plans import all_rolls, is_game_over, mark_row, unchecked_turn_outcomes
from .state import RowState, decode_row, score
from .variant import Variant

__all__ = ["NaiveSolver"]

State = tuple[tuple[RowState, ...], int]
Key = tuple[tuple[RowState, ...], int, int]


class NaiveSolver:
    """Memoised exhaustive solver: ``NaiveSolver(variant, ruleset).value(rows, penalties)``."""

    def __init__(self, variant: Variant, ruleset: Ruleset | None = None, players: int = 1
                 ) -> None:
        self.variant = variant
        self.ruleset = ruleset if ruleset is not None else Ruleset(players=1)
        self.players = players
        self._memo: dict[Key, float] = {}

    def value(self, rows: Sequence[RowState], penalties: int, before_me: int = 0) -> float:
        """The optimal expected final score from this position (before the roll), when
        ``before_me`` other players roll before this player's own next roll."""
        rows = tuple(rows)
        if is_game_over(self.variant, rows, penalties):
            return float(score(rows, penalties))
        key = (rows, penalties, before_me)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        result = self._passive(rows, penalties, before_me) if before_me else self._active(
            rows, penalties)
        self._memo[key] = result
        return result

    def _active(self, rows: tuple[RowState, ...], penalties: int) -> float:
        a2_after_end = self.ruleset.action2_after_action1_end
        after = self.players - 1
        total = 0.0
        rolls = 0
        for roll in all_rolls(rows):
            outcomes = unchecked_turn_outcomes(self.variant, a2_after_end, rows, penalties, roll)
            total += max(
                float(score(o.rows, o.penalties))
                if o.game_over
                else self.value(o.rows, o.penalties, after)
                for o in outcomes
            )
            rolls += 1
        return total / rolls

    def _passive(self, rows: tuple[RowState, ...], penalties: int, before_me: int) -> float:
        v = self.variant
        total = 0.0
        for white1 in range(1, 7):
            for white2 in range(1, 7):
                best = self.value(rows, penalties, before_me - 1)  # let the white sum go
                for i, row in enumerate(rows):
                    position = v.position_of(i, white1 + white2)
                    new = None if position is None else mark_row(v, row, position)
                    if new is not None:
                        marked = (*rows[:i], new, *rows[i + 1:])
                        best = max(best, self.value(marked, penalties, before_me - 1))
                total += best
        return total / 36

    def states(self) -> Iterator[State]:
        """Every position of the variant in which the game is not over.

        Open rows take every open state; closed rows every count a solitaire row
        can close with (lock_threshold+2 .. row_length+1).
        """
        v = self.variant
        choices: list[RowState] = []
        for code in range(v.open_codes):
            last, marks = decode_row(code)
            choices.append(RowState(marks=marks, last=last))
        for marks in range(v.lock_threshold + 2, v.max_marks + 1):
            choices.append(RowState(marks=marks, closed=True))
        for rows in itertools.product(choices, repeat=v.rows):
            for penalties in range(v.penalty_boxes):
                if not is_game_over(v, rows, penalties):
                    yield rows, penalties

    def start_value(self) -> float:
        """The value of the empty sheet."""
        return self.value((RowState(),) * self.variant.rows, 0)
