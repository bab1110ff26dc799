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

Both play every sheet layout (:mod:`qwixx_math.layouts`: the official sheet, Qwixx
Mixx A and B, and the small test layouts) on the rules core's :class:`GameState`,
so that the compiled engine can be checked against plain Python
(``tests/policies_naive.py``) on every state of small layouts.  The optimal
policy needs the table of the game's layout and R15 option.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..errors import IllegalMoveError, InvalidStateError, ParseError
from ..keys import table_index
from ..layouts import SheetLayout
from ..model import Colour, Mark, Roll, Sheet, TurnPlan
from ..rules import GameState, Phase, legal_plans, turn_outcomes
from ..solver import SolverTable
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
            # a table of the table model (players = M > 1) holds M levels of this size and
            # values the position after an own turn at level M - 1 (M - 1 others roll next)
            self._level_size = int(self.table.layout.level_size)
            # the layout as Python ints, for keys.table_index (as the Advisor keeps it)
            self._offsets = [int(x) for x in self.table.layout.offsets]
            self._strides = [[int(x) for x in row] for row in self.table.layout.strides]

    @property
    def name(self) -> str:
        return self.spec.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec.name!r})"

    def ranked(self, state: GameState, roll: Roll) -> list[RankedChoice]:
        """Every legal plan with its priority and tie-break rank, the chosen plan first."""
        out = self._scored(state, roll)
        out.sort(key=_order)
        return out

    def choose(self, state: GameState, roll: Roll) -> TurnPlan:
        """The legal plan of highest priority (ties: the first in legal_plans order)."""
        return min(self._scored(state, roll), key=_order)[0]

    def _scored(self, state: GameState, roll: Roll) -> list[RankedChoice]:
        """Every legal plan with its priority and tie-break rank, in no particular order."""
        _check_solitaire(state)
        layout = state.layout
        if self.table is not None:
            self._check_table(state)
        sheet = state.sheets[0]
        closed_before = sum(sheet.row_score(c) for c in layout.locks if c in state.closed)
        if self._data is None:
            valued = [(plan, 0.0) for plan in legal_plans(state, roll)]
        else:  # the value of the position each plan leads to (the rules core plays it)
            valued = []
            for after, plans in turn_outcomes(state, roll).items():
                value = self.relative_value(after.sheets[0], after.closed, closed_before)
                valued.extend((plan, value) for plan in plans)
        # each row's rightmost mark (-1: none), by table row (the layout's row order)
        lasts = [sheet.masks[c.index].bit_length() - 1 for c in layout.locks]
        rows, length = layout.rows, max(len(r) for r in layout.numbers)
        out: list[RankedChoice] = []
        for plan, value in valued:
            a1, a2 = _placed(layout, plan.action1), _placed(layout, plan.action2)
            out.append((plan, self._priority(len(plan.marks), a1, a2, lasts, value),
                        _rank(rows, length, a1, a2)))
        return out

    def _check_table(self, state: GameState) -> None:
        assert self.table is not None
        if self.table.variant.sheet != state.layout:
            raise ParseError(f"the table was solved for the {self.table.variant.sheet.name} "
                             f"sheet; this game is played on the {state.layout.name} sheet")
        if self.table.action2_after_action1_end != state.ruleset.action2_after_action1_end:
            raise ParseError("the table was solved for the other value of "
                             "action2_after_game_end than this game's ruleset", rule="R15")

    def table_value(self, sheet: Sheet, closed: frozenset[Colour],
                    before_me: int | None = None) -> float:
        """The table's value of a solitaire position (``sheet``, the rows ``closed``) before
        a roll: the points of the closed rows plus the table's value of the open ones, at
        level ``before_me`` (default: after an own turn, the table's players - 1); the
        final score once the game is over (R13, R14).  Only for the optimal policy."""
        return self.relative_value(sheet, closed, 0, before_me)

    def relative_value(self, sheet: Sheet, closed: frozenset[Colour], closed_before: int,
                       before_me: int | None = None) -> float:
        """:meth:`table_value` less ``closed_before``, with the engine's arithmetic (the
        points of the closed rows less ``closed_before``, plus the table's value, in
        float64; the final score less ``closed_before`` once the game is over)."""
        if self._data is None or self.table is None:
            raise ParseError("only the optimal policy reads the solver's table")
        layout = sheet.layout
        mask = 0
        closed_now = 0
        n_closed = 0
        for r, c in enumerate(layout.locks):
            if c in closed:
                mask |= 1 << r
                closed_now += sheet.row_score(c)
                n_closed += 1
        if n_closed >= layout.closed_rows_to_end or sheet.penalties >= layout.penalty_boxes:
            return float(sheet.score - closed_before)
        level = self.table.players - 1 if before_me is None else before_me
        index = (self._step_index(sheet, mask) if layout.steps
                 else table_index(sheet, mask, self._offsets, self._strides))
        return float(closed_now - closed_before) + float(
            self._data[level * self._level_size + index])

    def _step_index(self, sheet: Sheet, mask: int) -> int:
        """:func:`~qwixx_math.keys.table_index` on a sheet with step cells: the lane of its
        crossed step cells (CS2) beside the penalties, as the solver's layout stores it."""
        assert self.table is not None
        layout = self.table.layout
        strides = self._strides[mask]
        index = (self._offsets[mask] + sheet.penalties
                 + sheet.steps_crossed * sheet.layout.penalty_boxes)
        for r, colour in enumerate(sheet.layout.locks):
            if not mask >> r & 1:
                index += strides[r] * int(layout.code_by_mask[r][sheet.masks[colour.index]])
        return index


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


def _order(choice: RankedChoice) -> tuple[float, int]:
    """Highest priority first, then the lowest tie-break rank."""
    return (-choice[1], choice[2])


def _placed(layout: SheetLayout, mark: Mark | None) -> _Placed | None:
    """A mark as ``(row, position)`` on ``layout`` (row: the index of its lock colour
    among the layout's rows)."""
    if mark is None:
        return None
    ci = mark.colour.index
    return layout.row_of[ci], layout.pos[ci][mark.number]


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
