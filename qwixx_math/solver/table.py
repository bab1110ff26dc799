"""The solved table: values of positions, and the value of every plan for a roll.

A :class:`SolverTable` answers, for its variant and ruleset, in the rules core's
values (:mod:`qwixx_math.model`, :mod:`qwixx_math.rules`), as
:class:`~qwixx_math.advice.Advisor` reads it:

* ``table.value(sheet, closed=(), before_me=0)``: the optimal expected final score
  of a :class:`~qwixx_math.model.Sheet` of the table's layout before its roll, the
  colours in ``closed`` closed by anyone (a row closed by another player of a
  multiplayer game may hold any count); ``table.value(state)`` reads the sheet of a
  :class:`~qwixx_math.rules.GameState`'s active player and its closed colours;
* ``table.plan_values(state, roll)``: every legal
  :class:`~qwixx_math.model.TurnPlan` of the active player for the roll (from
  :func:`qwixx_math.rules.turn_outcomes`, the other players passing) with the
  expected final score after it (the value of the position the plan leads to),
  best first; ``table.best_plan(state, roll)``: the first of those.

The values are exact float64 results of the solve (the table is stored in
float64 as well).

A table of the **table model** (``players`` = N > 1, docs/table.md) holds, for
every position, the value when K = 0 .. N-1 other players roll before this
player's next own roll (``before_me``); :meth:`~SolverTable.plan_values` values
the positions after this player's own turn at K = N - 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..errors import InvalidStateError, ParseError
from ..layouts import SheetLayout
from ..model import Colour, Roll, Sheet, TurnPlan
from ..notation import colour_set
from ..rules import GameState, Phase, plan_key, turn_outcomes
from ..ruleset import Ruleset
from .bonus_b import BonusBLayout, check_bonus_b_ruleset
from .double_a import DoubleALayout
from .engine import SolveStats
from .layout import Layout
from .lucky import check_lucky_ruleset
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
            raise ParseError(f"a table of {variant.key} holds {self.layout.size} values, "
                             f"not {data.shape}")
        self._data = data
        sheet = variant.sheet
        # the look-up's constants: (table row, colour index, lock colour, last position's
        # bit, code of each mask) of each row, the layout's offsets and strides as Python
        # ints
        self._rows = tuple((r, c.index, c, sheet.lock_bits[c.index], self.layout.code_by_mask[r])
                           for r, c in enumerate(sheet.locks))
        self._offsets = [int(x) for x in self.layout.offsets]
        self._strides = [[int(x) for x in row] for row in self.layout.strides]
        self._level_size = int(self.layout.level_size)
        self._to_end = sheet.closed_rows_to_end
        self._boxes = sheet.penalty_boxes
        self._steps = bool(sheet.steps)
        self._exchange = bool(sheet.exchange)
        self._bar = bool(sheet.bar)
        self._chain = bool(sheet.chain)
        #: Double A's codes and canonical table (:mod:`.double_a`), None on other sheets.
        self._double_a = DoubleALayout.of(sheet) if sheet.second_crosses else None
        #: Bonus B's index (:mod:`.bonus_b`), None on other sheets.
        self._bonus_b = BonusBLayout.of(sheet) if sheet.symbols else None
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
        empty = Sheet.empty(self.variant.sheet)
        return tuple(self.unchecked_value(empty, frozenset(), k) for k in range(self.players))

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

    def _check_layout(self, layout: SheetLayout) -> None:
        mine = self.variant.sheet
        if layout is not mine and layout != mine:
            raise ParseError(f"this table is of the {mine.name} sheet, not of layout "
                             f"{layout.name} (solve(layout={layout.key!r}) solves that one)")

    def _check_ruleset(self, ruleset: Ruleset) -> None:
        if ruleset.action2_after_action1_end != self.action2_after_action1_end:
            raise ParseError(
                "this table was solved with action 2 after the game ends "
                f"{'allowed' if self.action2_after_action1_end else 'forbidden'}; "
                "the game's ruleset says otherwise", rule="R15")
        if self._exchange and ruleset.xc_field_without_cross != self.variant.field_without_cross:
            raise ParseError(
                "this table was solved with an X-Change field spent alone "
                f"{'allowed' if self.variant.field_without_cross else 'forbidden'}; "
                "the game's ruleset says otherwise", rule="XC4")
        check_lucky_ruleset(self.variant, ruleset)
        check_bonus_b_ruleset(self.variant, ruleset)
        if self._double_a is not None and ruleset.da_same_turn != self.variant.da_same_turn:
            raise ParseError(
                "this table was solved with the number crossed in action 1 "
                f"{'doubled' if self.variant.da_same_turn else 'not doubled'} in action 2 "
                "of the same turn; the game's ruleset says otherwise", rule="DA4")

    def _position(self, position: Sheet | GameState, closed: Iterable[Colour | str]
                  ) -> tuple[Sheet, frozenset[Colour]]:
        """The sheet and the closed colours of ``position`` (checked)."""
        if isinstance(position, GameState):
            if colour_set(closed, "closed colours"):
                raise ParseError("a GameState carries its closed colours; do not pass "
                                 "closed= with it")
            if position.phase not in (Phase.ROLL, Phase.OVER):
                raise ParseError(f"a value is taken before a roll; the state is in the "
                                 f"{position.phase.value} phase (use plan_values)")
            self._check_ruleset(position.ruleset)
            sheet, shut = position.sheets[position.active], position.closed
        elif isinstance(position, Sheet):
            sheet, shut = position, colour_set(closed, "closed colours")
        else:
            raise ParseError(f"a table values a Sheet or a GameState, not "
                             f"{type(position).__name__} (parse_sheet reads the text form)")
        self._check_layout(sheet.layout)
        stray = shut - frozenset(self.variant.sheet.locks)
        if stray:
            raise ParseError(f"layout {self.variant.sheet.name} has no "
                             f"{', '.join(sorted(c.value for c in stray))} row to close",
                             rule="R9")
        return sheet, shut

    def value(self, position: Sheet | GameState, closed: Iterable[Colour | str] = (),
              before_me: int = 0) -> float:
        """The optimal expected final score of a position, before its roll.

        ``position``: a :class:`~qwixx_math.model.Sheet` of the table's layout, with
        ``closed`` the colours closed by anyone (Colour values or names; a row the sheet
        locked counts as closed anyway), or a :class:`~qwixx_math.rules.GameState` in
        the ``roll`` phase (its active player's sheet and its closed colours).  A
        finished game is worth its score.  ``before_me`` (table model): how many other
        players roll before this player's next own roll, 0..players-1.

        On a sheet with a bonus bar (Qwixx Bonus, pad A) a sheet whose crosses cannot
        hold the forced crosses of its bar (BA2: a field taken forces a cross in its row)
        is refused, InvalidStateError naming BA2: no game reaches it, and the solve skips
        it (:func:`qwixx_math.solver.bar.bar_lanes`).
        """
        sheet, shut = self._position(position, closed)
        if (not isinstance(before_me, int) or isinstance(before_me, bool)
                or not 0 <= before_me < self.players):
            raise ParseError(f"before_me (other players' rolls before this player's) must be "
                             f"0..{self.players - 1} at a table of {self.players}, "
                             f"not {before_me!r}")
        value = self.unchecked_value(sheet, shut, before_me)
        if value == -np.inf and self._bar:
            raise InvalidStateError(
                "BA2", f"no game reaches {sheet}: each bonus bar field taken forces a cross "
                       "in its row, and its crosses cannot hold those of its bar")
        return value

    def unchecked_value(self, sheet: Sheet, closed: frozenset[Colour], before_me: int = 0) -> float:
        """The table's value of ``sheet`` (of the table's layout) with the colours ``closed``
        closed and ``before_me`` other players' rolls before this player's next own roll,
        or its score once the game is over (R13, R14).  No input checks.  The levels
        ``before_me`` = 0, 1, ... are copies of one layout, ``level_size`` values apart
        (:mod:`qwixx_math.solver.layout`); an open row's code is its mask's
        (:func:`qwixx_math.keys.row_code`; on a sheet with double cells
        :func:`qwixx_math.keys.row_codes`); on a sheet with step cells the crossed step
        cells pick the lane (:mod:`qwixx_math.solver.layout`), on a sheet with an X-Change
        track the last field used, on a sheet with a bonus bar its fields up to the last
        one taken (:mod:`qwixx_math.solver.bar`)."""
        masks = sheet.masks
        mask = 0
        points = 0
        n_closed = 0
        for r, _, colour, last, _ in self._rows:
            if masks[colour.index] & last or colour in closed:
                mask |= 1 << r
                points += sheet.row_score(colour)
                n_closed += 1
        if n_closed >= self._to_end or sheet.penalties >= self._boxes:
            return float(sheet.score)
        if self._bonus_b is not None:  # Bonus B: its own index (:mod:`.bonus_b`)
            index, held = self._bonus_b.locate(sheet, closed)
            return held + float(self._data[index])
        if self._double_a is not None:  # second crosses: its own codes (:mod:`.double_a`)
            found = self._double_a.locate(sheet, closed)
            assert found is not None
            return found[1] + float(self._data[found[0]])
        strides = self._strides[mask]
        index = self._offsets[mask] + sheet.penalties
        if self._steps:  # the lane of the crossed step cells (CS2)
            index += sheet.steps_crossed * self._boxes
        if self._exchange:  # the lane of the last X-Change field used (XC2)
            index += (sheet.last_field + 1) * self._boxes
        if self._bar:  # the bonus bar's lane: the fields up to the last taken (BA1)
            index += sheet.bar_taken.bit_length() * self._boxes
        if self._chain and mask:  # the closed row's count (CC2, :mod:`.chain`)
            index += sum(sheet.count(colour) for r, _, colour, _, _ in self._rows
                         if mask >> r & 1) * self._boxes
        for r, ci, _, _, code in self._rows:
            if not mask >> r & 1:
                index += strides[r] * code[masks[ci]]
        return points + float(self._data[before_me * self._level_size + index])

    # ------------------------------------------------------------------ turns

    def plan_values(self, state: GameState, roll: Roll | None = None) -> list[PlanValue]:
        """Every legal plan of the active player for ``roll`` with its value, best first.

        ``state`` is in the ``roll`` phase with ``roll`` given, or in the ``action1``
        phase (its own roll); the other players pass.  The plans and where they lead
        are :func:`qwixx_math.rules.turn_outcomes`'; the value of a plan is the value
        of the active player's sheet after the turn (its score if the game is over; in
        the table model, at ``before_me = players - 1``).  Ties keep the rules core's
        order (:func:`qwixx_math.rules.plan_key`: action 1 first, no mark first).
        """
        if not isinstance(state, GameState):
            raise ParseError(f"plan_values needs a GameState, not {type(state).__name__}")
        self._check_layout(state.layout)
        self._check_ruleset(state.ruleset)
        a = state.active
        after_k = self.players - 1
        plans: list[PlanValue] = []
        for after, found in turn_outcomes(state, roll).items():
            sheet = after.sheets[a]
            value = (float(sheet.score) if after.is_over
                     else self.unchecked_value(sheet, after.closed, after_k))
            plans.extend(PlanValue(plan, value) for plan in found)
        layout = state.layout
        plans.sort(key=lambda pv: (-pv.value, plan_key(layout, pv.plan)))
        return plans

    def best_plan(self, state: GameState, roll: Roll | None = None) -> PlanValue:
        """The optimal plan for ``roll`` (the first of :meth:`plan_values`)."""
        return self.plan_values(state, roll)[0]

    def __repr__(self) -> str:
        return (
            f"SolverTable(variant={self.variant.key}, players={self.players}, "
            f"action2_after_action1_end={self.action2_after_action1_end}, "
            f"start_value={self.start_value:.6f}, states={self.states})"
        )
