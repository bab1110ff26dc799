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
from ..model import COLOURS, COUNT, LAST_POSITION, ROW_LENGTH, Roll, TurnPlan
from ..rules import GameState, Phase, legal_plans
from ..solver import SolverTable
from ..solver import TurnPlan as SolverPlan
from ..solver.layout import Layout
from ..solver.plans import Outcome, turn_outcomes
from ..solver.plans import Roll as SolverRoll
from ..solver.state import RowState, score
from ..solver.variant import Variant
from .scoring import PolicyKind, priority, tie_break
from .spec import PolicySpec

__all__ = ["HeuristicPolicy", "OptimalPolicy", "Policy", "PriorityPolicy", "RankedChoice"]

_LAST_BIT = 1 << LAST_POSITION
_TRIANGLE = tuple(n * (n + 1) // 2 for n in range(ROW_LENGTH + 2))

#: ``(plan, priority, tie-break rank)``.
RankedChoice = tuple[TurnPlan, float, int]


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
        self._data: npt.NDArray[np.float64] | None = (
            table.data if table is not None and spec.needs_table else None)

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
                raise ParseError("R15: the table was solved for the other value of "
                                 "action2_after_game_end than this game's ruleset")
        plans = legal_plans(state, roll)
        sheet = state.sheets[0]
        closed_before = sum(_TRIANGLE[COUNT[sheet.masks[c.index]]] for c in COLOURS
                            if c in state.closed)
        out: list[RankedChoice] = []
        for plan in plans:
            skip_total = 0
            skip_max = 0
            a1_pos = -1
            for mark in plan.marks:
                pos = mark.position
                if mark is plan.action2 and plan.action1 is not None \
                        and plan.action1.colour is mark.colour:
                    last = a1_pos
                else:
                    last = sheet.masks[mark.colour.index].bit_length() - 1
                if mark is plan.action1:
                    a1_pos = pos
                skip = pos - last - 1
                skip_total += skip
                skip_max = max(skip_max, skip)
            value = 0.0
            if self._data is not None:
                after = state.play_plan(roll, plan)
                value = self._relative_value(after, closed_before)
            h = priority(int(self.spec.kind), float(self.spec.param), len(plan.marks),
                         skip_total, skip_max, value)
            out.append((plan, h, _core_rank(plan)))
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
        assert self.table is not None and self._data is not None
        layout = self.table.layout
        mask = 0
        closed_now = 0
        for c in COLOURS:
            if c in after.closed:
                mask |= 1 << c.index
                closed_now += _TRIANGLE[COUNT[sheet.masks[c.index]]]
        index = int(layout.offsets[mask]) + sheet.penalties
        for c in COLOURS:
            m = sheet.masks[c.index]
            if not mask >> c.index & 1 and m:
                last = m.bit_length() - 1
                index += int(layout.strides[mask, c.index]) * (last * (last + 1) // 2
                                                                + m.bit_count())
        return float(closed_now - closed_before) + float(self._data[index])

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
        out: list[tuple[Outcome, float, int]] = []
        for o in outcomes:
            plan = o.plan
            skip_total = 0
            skip_max = 0
            q1 = -1
            keys: list[tuple[int, int]] = []
            for which, mark in (("a1", plan.action1), ("a2", plan.action2)):
                if mark is None:
                    keys.append((-1, -1))
                    continue
                row, number = mark
                pos = variant.position_of(row, number)
                assert pos is not None
                if which == "a2" and plan.action1 is not None and plan.action1[0] == row:
                    last = q1
                else:
                    row_last = rows[row].last
                    last = -1 if row_last is None else row_last
                if which == "a1":
                    q1 = pos
                skip = pos - last - 1
                skip_total += skip
                skip_max = max(skip_max, skip)
                keys.append((row, pos))
            value = 0.0
            if self._data is not None:
                value = self._relative_rows_value(variant, o.rows, o.penalties, o.game_over,
                                                  closed_before)
            h = priority(int(self.spec.kind), float(self.spec.param), plan.marks, skip_total,
                         skip_max, value)
            rank = tie_break(variant.rows, variant.row_length, keys[0][0], keys[0][1],
                             keys[1][0], keys[1][1])
            out.append((o, h, rank))
        out.sort(key=lambda c: (-c[1], c[2]))
        return out

    def choose_rows(self, variant: Variant, action2_after_action1_end: bool,
                    rows: Sequence[RowState], penalties: int, roll: SolverRoll) -> SolverPlan:
        """:meth:`choose` on the solver's representation of a variant's position."""
        return self.ranked_rows(variant, action2_after_action1_end, rows, penalties,
                                roll)[0][0].plan

    def _relative_rows_value(self, variant: Variant, rows: tuple[RowState, ...],
                             penalties: int, game_over: bool, closed_before: int) -> float:
        if game_over:
            return float(score(rows, penalties) - closed_before)
        assert self._data is not None
        layout = Layout.of(variant) if self.table is None else self.table.layout
        index, closed_now = layout.locate(rows, penalties)
        return float(closed_now - closed_before) + float(self._data[index])


def _core_rank(plan: TurnPlan) -> int:
    """:func:`tie_break` of a rules-core plan (its place in legal_plans order)."""
    k = [(-1, -1) if m is None else (m.colour.index, m.position)
         for m in (plan.action1, plan.action2)]
    return int(tie_break(len(COLOURS), ROW_LENGTH, k[0][0], k[0][1], k[1][0], k[1][1]))


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
