"""Policies: who picks the plan of a solitaire turn, and how.

A :class:`Policy` maps a solitaire position before its roll and the roll to one of
the legal plans (``choose(state, roll) -> TurnPlan``, one of
:func:`qwixx_math.rules.legal_plans`).  Every policy shipped here is a
*priority policy*: each legal plan gets a priority ``h``
(:func:`qwixx_math.policies.scoring.priority`, the one definition the compiled
engine uses too) and the policy takes the plan with the highest ``h``; ties go
to the plan listed first by :func:`~qwixx_math.rules.legal_plans` (action 1
before action 2, "no mark" before any mark, marks by row red, yellow, green,
blue and then left to right).

* :class:`OptimalPolicy`: ``h`` is the optimal expected final score after the
  plan (the solver's table).
* :class:`HeuristicPolicy`: ``h`` from features a person can compute (marks,
  skipped numbers); see :class:`~qwixx_math.policies.spec.PolicySpec`.

Both also play the solver's small variants (:meth:`PriorityPolicy.choose_rows`,
on :class:`~qwixx_math.solver.RowState` rows and the solver's plans), so that
the compiled engine can be checked against plain Python on every state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..errors import IllegalMoveError, InvalidStateError, ParseError
from ..keys import table_index
from ..model import COLOURS, ROW_LENGTH, Roll, TurnPlan
from ..rules import GameState, Phase, legal_plans
from ..solver import SolverTable
from ..solver import TurnPlan as SolverPlan
from ..solver.plans import Mark as SolverMark
from ..solver.plans import Outcome, turn_outcomes
from ..solver.plans import Roll as SolverRoll
from ..solver.state import RowState, score
from ..solver.variant import Variant
from .scoring import PolicyKind, priority, tie_break
from .spec import PolicySpec

__all__ = ["HeuristicPolicy", "OptimalPolicy", "Policy", "PriorityPolicy", "RankedChoice"]

#: ``(plan, priority, tie-break rank)``.
RankedChoice = tuple[TurnPlan, float, int]
#: A mark as ``(row index, position)``.
_Placed = tuple[int, int]


@runtime_checkable
class Policy(Protocol):
    """Chooses the plan of a solitaire turn."""

    @property
    def name(self) -> str:
        """A short name (``optimal``, ``seed-tips``, ...)."""
        ...

    def choose(self, state: GameState, roll: Roll) -> TurnPlan:
        """One of ``legal_plans(state, roll)`` for a one-player state in the ROLL phase."""
        ...


def _check_solitaire(state: GameState) -> None:
    if not isinstance(state, GameState):
        raise ParseError(f"a policy needs a GameState, not {type(state).__name__}")
    if state.players != 1:
        raise InvalidStateError("R3", f"policies play solitaire; this game has {state.players} "
                                      "players")
    if state.phase is not Phase.ROLL:
        raise IllegalMoveError(state.ended_by or "R4",
                               f"a policy chooses before the roll; the state is in the "
                               f"{state.phase.value} phase")


class PriorityPolicy:
    """A policy that takes the legal plan of highest priority (see the module docstring).

    ``table`` (the solver's table of the game played) is needed by the optimal
    policy only.
    """

    def __init__(self, spec: PolicySpec, table: SolverTable | None = None) -> None:
        if not isinstance(spec, PolicySpec):
            raise ParseError(f"a policy needs a PolicySpec, not {spec!r}")
        if spec.needs_table and table is None:
            raise ParseError("the optimal policy needs the solver's table (solve())")
        self.spec = spec
        self.table = table if spec.needs_table else None
        self._data: npt.NDArray[np.float64] | None = None
        if self.table is not None:
            self._data = self.table.data
            # a table of the table model (players = M > 1) values the position after an
            # own turn at its level M - 1 (M - 1 other players roll next)
            self._after = (self.table.players - 1) * self.table.layout.level_size
            # the layout as Python ints, for keys.table_index (as the Advisor keeps it)
            self._offsets = [int(x) for x in self.table.layout.offsets]
            self._strides = [[int(x) for x in row] for row in self.table.layout.strides]

    @property
    def name(self) -> str:
        return self.spec.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec.name!r})"

    # -- the official game (rules core) ----------------------------------------------------------
    def ranked(self, state: GameState, roll: Roll) -> list[RankedChoice]:
        """Every legal plan with its priority and tie-break rank, the chosen plan first."""
        _check_solitaire(state)
        if self.table is not None:
            if self.table.variant != Variant():
                raise ParseError("GameState play needs the table of the official game")
            if self.table.action2_after_action1_end != state.ruleset.action2_after_action1_end:
                raise ParseError("the table was solved for the other value of "
                                 "action2_after_game_end than this game's ruleset", rule="R15")
        plans = legal_plans(state, roll)
        sheet = state.sheets[0]
        closed_before = sum(sheet.row_score(c) for c in COLOURS if c in state.closed)
        lasts = [mask.bit_length() - 1 for mask in sheet.masks]
        out: list[RankedChoice] = []
        for plan in plans:
            a1, a2 = ((None if m is None else (m.colour.index, m.position))
                      for m in (plan.action1, plan.action2))
            value = 0.0
            if self._data is not None:
                after = state.play_plan(roll, plan)
                value = self._relative_value(after, closed_before)
            out.append((plan, self._priority(len(plan.marks), a1, a2, lasts, value),
                        _rank(len(COLOURS), ROW_LENGTH, a1, a2)))
        out.sort(key=lambda c: (-c[1], c[2]))
        return out

    def choose(self, state: GameState, roll: Roll) -> TurnPlan:
        """The legal plan of highest priority (ties: the first in legal_plans order)."""
        return self.ranked(state, roll)[0][0]

    def _relative_value(self, after: GameState, closed_before: int) -> float:
        """Optimal value of ``after`` less the points of the rows closed before the turn,
        with the engine's arithmetic (closed points + table value, in float64)."""
        sheet = after.sheets[0]
        if after.is_over:
            return float(sheet.score - closed_before)
        assert self._data is not None
        mask = 0
        closed_now = 0
        for c in COLOURS:
            if c in after.closed:
                mask |= 1 << c.index
                closed_now += sheet.row_score(c)
        index = table_index(sheet, mask, self._offsets, self._strides)
        return float(closed_now - closed_before) + float(self._data[self._after + index])

    # -- the solver's variants (row states) ------------------------------------------------------
    def ranked_rows(self, variant: Variant, action2_after_action1_end: bool,
                    rows: Sequence[RowState], penalties: int,
                    roll: SolverRoll) -> list[tuple[Outcome, float, int]]:
        """:meth:`ranked` on the solver's representation of a variant's position: every
        legal plan's outcome (:func:`qwixx_math.solver.turn_outcomes`) with its priority
        and tie-break rank, the chosen one first."""
        if self.table is not None and (self.table.variant != variant or
                                       self.table.action2_after_action1_end
                                       != action2_after_action1_end):
            raise ParseError("the table was solved for another variant or R15 option")
        rows = tuple(rows)
        outcomes = turn_outcomes(variant, action2_after_action1_end, rows, penalties, roll)
        closed_before = sum(r.points for r in rows if r.closed)
        lasts = [-1 if r.last is None else r.last for r in rows]
        out: list[tuple[Outcome, float, int]] = []
        for o in outcomes:
            plan = o.plan
            a1, a2 = (_placed(variant, m) for m in (plan.action1, plan.action2))
            value = 0.0
            if self._data is not None:
                value = self._relative_rows_value(o.rows, o.penalties, o.game_over,
                                                  closed_before)
            out.append((o, self._priority(plan.marks, a1, a2, lasts, value),
                        _rank(variant.rows, variant.row_length, a1, a2)))
        out.sort(key=lambda c: (-c[1], c[2]))
        return out

    def choose_rows(self, variant: Variant, action2_after_action1_end: bool,
                    rows: Sequence[RowState], penalties: int, roll: SolverRoll) -> SolverPlan:
        """:meth:`choose` on the solver's representation of a variant's position."""
        return self.ranked_rows(variant, action2_after_action1_end, rows, penalties,
                                roll)[0][0].plan

    def _relative_rows_value(self, rows: tuple[RowState, ...], penalties: int,
                             game_over: bool, closed_before: int,
                             before_me: int | None = None) -> float:
        """The table's value of the position less ``closed_before``, at level
        ``before_me`` (default: after an own turn, the table's players - 1)."""
        if game_over:
            return float(score(rows, penalties) - closed_before)
        assert self.table is not None and self._data is not None
        level = self.table.players - 1 if before_me is None else before_me
        index, closed_now = self.table.layout.locate(rows, penalties, level)
        return float(closed_now - closed_before) + float(self._data[index])

    # -- shared by both representations ----------------------------------------------------------
    def _priority(self, marks: int, a1: _Placed | None, a2: _Placed | None,
                  lasts: Sequence[int], value: float) -> float:
        """:func:`priority` of a plan marking ``a1`` and ``a2`` (each ``(row, position)`` or
        None), ``lasts[row]`` being each row's rightmost mark before the turn (-1: none).

        Each mark skips the numbers between it and the rightmost mark of its row; the
        action-2 mark counts from the action-1 mark when both are in the same row.
        """
        skips = []
        if a1 is not None:
            skips.append(a1[1] - lasts[a1[0]] - 1)
        if a2 is not None:
            last = a1[1] if a1 is not None and a1[0] == a2[0] else lasts[a2[0]]
            skips.append(a2[1] - last - 1)
        return priority(int(self.spec.kind), float(self.spec.param), marks, sum(skips),
                        max((0, *skips)), value)


def _placed(variant: Variant, mark: SolverMark | None) -> _Placed | None:
    """A solver mark ``(row, number)`` as ``(row, position)``."""
    if mark is None:
        return None
    pos = variant.position_of(*mark)
    assert pos is not None
    return mark[0], pos


def _rank(rows: int, length: int, a1: _Placed | None, a2: _Placed | None) -> int:
    """:func:`tie_break` of a plan marking ``a1`` and ``a2`` (its place in legal_plans order)."""
    k1 = (-1, -1) if a1 is None else a1
    k2 = (-1, -1) if a2 is None else a2
    return int(tie_break(rows, length, k1[0], k1[1], k2[0], k2[1]))


class HeuristicPolicy(PriorityPolicy):
    """A human rule of thumb (no table): ``HeuristicPolicy(PolicySpec.seed_tips())``."""

    def __init__(self, spec: PolicySpec) -> None:
        if spec.kind is PolicyKind.OPTIMAL:
            raise ParseError("the optimal policy is OptimalPolicy(table)")
        super().__init__(spec)


class OptimalPolicy(PriorityPolicy):
    """The argmax of the optimal value (ties: legal_plans order): ``OptimalPolicy(solve())``."""

    def __init__(self, table: SolverTable) -> None:
        if not isinstance(table, SolverTable):
            raise ParseError(f"OptimalPolicy needs a SolverTable, not {table!r}")
        super().__init__(PolicySpec.optimal(), table)
