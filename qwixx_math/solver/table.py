"""The solved table: values of positions, and the value of every plan for a roll.

A :class:`SolverTable` answers, for its variant and ruleset:

* :meth:`~SolverTable.value`: the optimal expected final score of a position
  before its roll (closed rows may hold any count, so a sheet whose rows were
  closed by other players of a multiplayer game can be looked up too);
* :meth:`~SolverTable.plan_values`: every legal plan for a roll with the
  expected final score after it (the value of the position the plan leads
  to), best first;
* :meth:`~SolverTable.best_plan`: the first of those.

The values are exact float64 results of the solve (the table is stored in
float64 as well).

A table of the **table model** (``players`` = N > 1, docs/table.md) holds, for
every position, the value when K = 0 .. N-1 other players roll before this
player's next own roll (``before_me``); :meth:`~SolverTable.plan_values` values
the positions after this player's own turn at K = N - 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..ruleset import Ruleset
from .engine import SolveStats
from .layout import Layout
from .plans import Roll, TurnPlan, is_game_over, turn_outcomes
from .state import RowState, score
from .variant import Variant

__all__ = ["PlanValue", "SolverTable"]


@dataclass(frozen=True, slots=True)
class PlanValue:
    """A plan and the expected final score after it (the roll already known)."""

    plan: TurnPlan
    value: float


class SolverTable:
    """The optimal solitaire values of every position of a variant under a ruleset."""

    def __init__(
        self,
        variant: Variant,
        ruleset: Ruleset,
        data: npt.NDArray[np.float64],
        start_value: float,
        *,
        seconds: float = 0.0,
        path: Path | None = None,
        loaded: bool = False,
        stats: SolveStats | None = None,
        players: int = 1,
    ) -> None:
        self.variant = variant
        self.ruleset = ruleset
        #: The players of the table model (1 = solitaire).
        self.players = players
        self.layout = Layout.of(variant, players)
        if data.shape != (self.layout.size,):
            raise ValueError(f"a table of {variant.key} holds {self.layout.size} values, "
                             f"not {data.shape}")
        self._data = data
        #: The optimal expected final score from the empty sheet (float64); in the
        #: table model, of the player who rolls first (seat 1).
        self.start_value = float(start_value)
        #: Wall seconds the table took to solve or to load.
        self.seconds = seconds
        #: The cache file it came from or went to (None when not cached).
        self.path = path
        #: True when it was loaded from the cache rather than solved.
        self.loaded = loaded
        #: Timings of the solve (None when loaded).
        self.stats = stats

    @property
    def states(self) -> int:
        """The number of positions stored: every set of closed rows that leaves the
        game running, times every open-row configuration, times 0..P-1 penalties
        (times the N levels of the table model)."""
        return self.layout.size

    @property
    def seat_values(self) -> tuple[float, ...]:
        """The value of the empty sheet for seats 1..N (seat s: s - 1 rolls before its first)."""
        empty = (RowState(),) * self.variant.rows
        return tuple(self._value(empty, 0, k) for k in range(self.players))

    @property
    def action2_after_action1_end(self) -> bool:
        """The only ruleset switch that matters in solitaire (R15)."""
        return self.ruleset.action2_after_action1_end

    @property
    def data(self) -> npt.NDArray[np.float64]:
        """The flat value array (read-only view; see :mod:`qwixx_math.solver.layout`)."""
        view = self._data.view()
        view.flags.writeable = False
        return view

    # -------------------------------------------------------------- positions

    def _check(self, rows: Sequence[RowState], penalties: int, before_me: int = 0
               ) -> tuple[RowState, ...]:
        if (not isinstance(before_me, int) or isinstance(before_me, bool)
                or not 0 <= before_me < self.players):
            raise ValueError(f"before_me (other players' rolls before this player's) must be "
                             f"0..{self.players - 1} at a table of {self.players}, "
                             f"not {before_me!r}")
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
            raise ValueError(f"rows must be a sequence of RowState values, not {rows!r}")
        rows = tuple(rows)
        if len(rows) != self.variant.rows:
            raise ValueError(f"the variant has {self.variant.rows} rows, not {len(rows)}")
        for r in rows:
            if not isinstance(r, RowState):
                raise ValueError(f"rows must be RowState values, not {r!r}")
            r.check(self.variant)
        if (
            not isinstance(penalties, int)
            or isinstance(penalties, bool)
            or not 0 <= penalties <= self.variant.penalty_boxes
        ):
            raise ValueError(
                f"penalties must be 0..{self.variant.penalty_boxes}, not {penalties!r}"
            )
        return rows

    def value(self, rows: Sequence[RowState], penalties: int, before_me: int = 0) -> float:
        """The optimal expected final score of the position, before its roll.

        ``rows``: one :class:`RowState` per row of the variant; ``penalties``: the
        marked penalty boxes (0..penalty_boxes).  A finished game is worth its score.
        ``before_me`` (table model): how many other players roll before this player's
        next own roll, 0..players-1.
        """
        rows = self._check(rows, penalties, before_me)
        return self._value(rows, penalties, before_me)

    def _value(self, rows: tuple[RowState, ...], penalties: int, before_me: int = 0) -> float:
        if is_game_over(self.variant, rows, penalties):
            return float(score(rows, penalties))
        index, closed_points = self.layout.locate(rows, penalties, before_me)
        return closed_points + float(self._data[index])

    # ------------------------------------------------------------------ turns

    def plan_values(
        self, rows: Sequence[RowState], penalties: int, roll: Roll
    ) -> list[PlanValue]:
        """Every legal plan for ``roll`` with its value, best first.

        ``roll`` is ``(white1, white2, {row: die})`` with one die for every open row.
        The value of a plan is the value of the position after the turn (its
        score if the game is over; in the table model, at ``before_me = players - 1``).
        Ties are ordered by :meth:`TurnPlan.sort_key`:
        fewer marks first, then action 1's (row, number), then action 2's.
        """
        rows = self._check(rows, penalties)
        outcomes = turn_outcomes(
            self.variant, self.action2_after_action1_end, rows, penalties, roll
        )
        after = self.players - 1
        plans = [PlanValue(o.plan, self._value(o.rows, o.penalties, after)) for o in outcomes]
        plans.sort(key=lambda pv: (-pv.value, pv.plan.sort_key()))
        return plans

    def best_plan(self, rows: Sequence[RowState], penalties: int, roll: Roll) -> PlanValue:
        """The optimal plan for ``roll`` (the first of :meth:`plan_values`)."""
        return self.plan_values(rows, penalties, roll)[0]

    def __repr__(self) -> str:
        return (
            f"SolverTable(variant={self.variant.key}, players={self.players}, "
            f"action2_after_action1_end={self.action2_after_action1_end}, "
            f"start_value={self.start_value:.6f}, states={self.states})"
        )
