"""A deliberately naive reference solver, for checking the fast one on small layouts.

Plain Python on the rules core and no cleverness of its own: a position is a
one-player :class:`~qwixx_math.rules.GameState` of the variant's layout (its
sheet and the colours it closed).  For a position it enumerates every outcome
of the dice in play (:func:`qwixx_math.dice.outcome_table`: the two whites
unordered, each pair with its weight, times every face of every coloured die),
takes every legal plan (:func:`qwixx_math.rules.legal_plans`) and the value of
the position it leads to (:meth:`~qwixx_math.rules.GameState.play_plan`), the best
of those, and averages; values of later positions come from a
recursion memoised by the compact key (:func:`qwixx_math.keys.sheet_key`).  No
symmetry, no expected-maximum trick, no tables: the fast solver shares nothing
with it but the layout, so agreement on every state checks the kernel's rules
against the rules core.

It is exponentially slow in the number of rows and only meant for tiny layouts
(2-3 rows, short rows): ``NaiveSolver(Variant.from_letters("ad", 4, 2, 2, 1))``.

With ``players`` = N > 1 it solves the table model (docs/table.md) the same
plain way: ``value(position, before_me)`` with ``before_me`` = K other players'
rolls before this player's own; on each of those it enumerates the white pairs
and takes the best of passing and every mark :func:`qwixx_math.rules.legal_action1`
offers this player as a non-active player (the other player at the table has an
empty sheet and marks nothing; the turn ends as the rules core ends it).  After
this player's own turn, N - 1 other rolls follow.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator

from ..dice.outcomes import weighted_rolls as _rolls
from ..errors import InvalidStateError, ParseError, QwixxError
from ..keys import key_space, sheet_from_key, sheet_key
from ..model import COLOURS, Roll, Sheet, TurnPlan
from ..rules import GameState, Phase, legal_action1, legal_plans
from ..ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from .variant import Variant

__all__ = ["NaiveSolver"]


class NaiveSolver:
    """Memoised exhaustive solver: ``NaiveSolver(variant, ruleset).value(state)``."""

    def __init__(self, variant: Variant, ruleset: Ruleset | None = None, players: int = 1
                 ) -> None:
        if not isinstance(variant, Variant):
            raise ParseError(f"NaiveSolver needs a Variant, not {type(variant).__name__}")
        self.variant = variant
        self.layout = variant.sheet
        base = ruleset if ruleset is not None else Ruleset(players=1)
        if not isinstance(base, Ruleset):
            raise ParseError(f"ruleset must be a Ruleset, not {type(base).__name__}")
        #: The one-player ruleset of this player's own turns (only R15 and the dialect
        #: switches of ``ruleset`` count).
        self.ruleset = dataclasses.replace(base, players=1)
        #: A table of two for the other players' rolls: this player is player 0.
        self._passive_ruleset = dataclasses.replace(base, players=2)
        if not (isinstance(players, int) and not isinstance(players, bool)
                and MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ParseError(f"R3: a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {players!r}")
        self.players = players
        self._memo: dict[tuple[int, int, int, int, int, int], float] = {}

    # ---------------------------------------------------------------- positions

    def position(self, sheet: Sheet) -> GameState:
        """The one-player state of ``sheet`` before its roll (the colours it locked closed),
        or the finished game (phase ``over``) when the rules say it has ended."""
        try:
            return GameState(self.ruleset, (sheet,), closed=sheet.locked)
        except InvalidStateError as error:
            if error.rule not in ("R13", "R14"):
                raise
            ended = "R14" if len(sheet.locked) >= self.layout.closed_rows_to_end else "R13"
            return GameState(self.ruleset, (sheet,), closed=sheet.locked, phase=Phase.OVER,
                             ended_by=ended)

    def value(self, position: GameState | Sheet, before_me: int = 0) -> float:
        """The optimal expected final score from ``position`` (a one-player state of the
        layout before its roll, or its sheet), when ``before_me`` other players roll before
        this player's own next roll.  A finished game is worth its score."""
        state = self._check(position)
        if not (isinstance(before_me, int) and not isinstance(before_me, bool)
                and 0 <= before_me < self.players):
            raise ParseError(f"before_me must be 0..{self.players - 1}, not {before_me!r}")
        return self._value(state, before_me)

    def _check(self, position: GameState | Sheet) -> GameState:
        if isinstance(position, Sheet):
            if position.layout != self.layout:
                raise ParseError(f"the naive solver plays layout {self.layout.name}, not "
                                 f"{position.layout.name}")
            return self.position(position)
        if not isinstance(position, GameState):
            raise ParseError(f"a position is a Sheet or a GameState, not "
                             f"{type(position).__name__}")
        if (position.players != 1 or position.layout != self.layout
                or position.phase not in (Phase.ROLL, Phase.OVER)
                or position.ruleset.action2_after_action1_end
                != self.ruleset.action2_after_action1_end
                or position.ruleset.xc_field_without_cross
                != self.ruleset.xc_field_without_cross
                or position.ruleset.lg_lucky_mode != self.ruleset.lg_lucky_mode
                or position.ruleset.lg_lucky_candidates != self.ruleset.lg_lucky_candidates
                or position.ruleset.da_same_turn != self.ruleset.da_same_turn):
            raise ParseError("the naive solver values one-player states of its layout and "
                             "R15, XC4, LG4, LG5 and DA4 options before a roll")
        return position

    def _value(self, state: GameState, before_me: int) -> float:
        if state.is_over:
            return float(state.sheets[0].score)
        sheet = state.sheets[0]
        # (the compact key holds each row's last mark and count, not which cells are
        # steps: a sheet with step cells also needs their total, CS2, and one with an
        # X-Change track the last field used, XC2, and one with a bonus bar the bar, BA1)
        key = (self._key(sheet, state), sheet.steps_crossed, sheet.last_field,
               sheet.bar_taken, sheet.bar_void, before_me)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        result = self._passive(state, before_me) if before_me else self._active(state)
        self._memo[key] = result
        return result

    def _key(self, sheet: Sheet, state: GameState) -> int:
        """The memo's key of a position: the compact key (:func:`qwixx_math.keys.sheet_key`),
        or on a sheet with chain pairs, whose compact key would lose the pairs (CC1), with
        second crosses (DA1) or with Bonus B's symbols (BB1: which cells are crossed
        decides them), every cross of the sheet, its penalties and closed colours."""
        if not self.layout.chain and not self.layout.second_crosses \
                and not self.layout.symbols:
            return sheet_key(sheet, state.closed)
        packed = sheet.penalties
        for mask in sheet.masks:
            packed = (packed << 16) | mask
        for seconds in sheet.seconds:  # Double A's second crosses (DA1)
            packed = (packed << 16) | seconds
        return (packed << 4) | sum(1 << c.index for c in state.closed)

    def _active(self, state: GameState) -> float:
        """This player's own roll: every outcome of the dice in play, the best legal plan.

        Where a plan leads does not depend on the roll that offers it, so each plan's
        value is found once per position (by playing it, :meth:`GameState.play_plan`)."""
        after_k = self.players - 1
        worth: dict[TurnPlan, float] = {}
        total = 0.0
        weights = 0
        for roll, weight in _rolls(state.dice_in_play, self.layout.faces):
            best = -math.inf
            for plan in legal_plans(state, roll):
                value = worth.get(plan)
                if value is None:
                    value = worth[plan] = self._value(state.play_plan(roll, plan), after_k)
                best = max(best, value)
            total += weight * best
            weights += weight
        return total / weights

    def _passive(self, state: GameState, before_me: int) -> float:
        """Another player's roll: pass, or mark the white sum as the rules allow a
        non-active player (R5); nothing else happens to this player's sheet."""
        sheet = state.sheets[0]
        table = GameState(self._passive_ruleset, (sheet, Sheet.empty(self.layout)), active=1,
                          closed=state.closed)
        dice = tuple(1 if c in state.dice_in_play else None for c in COLOURS)
        total = 0.0
        weights = 0
        for white, weight in _rolls(frozenset()):
            roll = Roll(white.white, (dice[0], dice[1], dice[2], dice[3]))
            rolled = table.with_roll(roll)
            best = self._value(state, before_me - 1)  # let the white sum go
            for mark in legal_action1(rolled, 0):
                after = rolled.with_action1([mark, None])
                if after.phase is Phase.ACTION2:
                    after = after.with_action2(None)  # the other player's turn ends
                mine = after.sheets[0]
                value = (float(mine.score) if after.is_over
                         else self._value(self.position(mine), before_me - 1))
                best = max(best, value)
            total += weight * best
            weights += weight
        return total / weights

    def states(self) -> Iterator[GameState]:
        """Every position of the layout in which the game is not over: one sheet per
        compact key (:func:`qwixx_math.keys.sheet_from_key`) whose closed rows this player
        locked, every penalty count that leaves the game running; on a sheet with chain
        pairs (CC1), second crosses (DA1) or Bonus B's symbols (BB1) every sheet the rules
        core reaches from the empty one; on a sheet with step
        cells (CS2), one sheet per key and total of crossed step cells; on a sheet with
        an X-Change track (XC2), one sheet per key and last field used."""
        if self.layout.exchange:
            for state in self._key_states():
                sheet = state.sheets[0]
                yield state
                for field in range(len(self.layout.exchange)):
                    yield self.position(Sheet.unchecked(
                        sheet.masks, sheet.penalties, self.layout, (field,)))
            return
        if self.layout.bar:
            yield from self._bar_states()
            return
        if self.layout.chain or self.layout.second_crosses or self.layout.symbols:
            yield from self._reached_states()
            return
        if not self.layout.steps:
            yield from self._key_states()
            return
        seen: set[tuple[int, int]] = set()
        for state in self._key_states():
            for sheet in self._same_key(state.sheets[0]):
                found = (sheet_key(sheet, state.closed), sheet.steps_crossed)
                if found not in seen:
                    seen.add(found)
                    yield self.position(sheet)

    def _reached_states(self) -> Iterator[GameState]:
        """Every running position reached from the empty sheet by some rolls and legal
        plans of the rules core (on a sheet with chain pairs, whose compact keys cannot
        spell a sheet, CC1), each once."""
        start = self.position(Sheet.empty(self.layout))
        seen = {self._key(start.sheets[0], start)}
        todo = [start]
        while todo:
            state = todo.pop()
            yield state
            for roll, _ in _rolls(state.dice_in_play, self.layout.faces):
                for plan in legal_plans(state, roll):
                    after = state.play_plan(roll, plan)
                    if after.is_over:
                        continue
                    after = self.position(after.sheets[0])
                    key = self._key(after.sheets[0], after)
                    if key not in seen:
                        seen.add(key)
                        todo.append(after)

    def _bar_states(self) -> Iterator[GameState]:
        """Every sheet of every compact key (the marks moved, :meth:`_same_key`) with every
        bonus bar the rules allow it (BA1, BA6: :func:`qwixx_math.bonus.check_bar`), one
        per key and bar."""
        seen: set[tuple[int, int, int]] = set()
        fields = len(self.layout.bar)
        # the keys and the marks of the sheet without its bar (a bare sheet with a boxed
        # cell crossed is no sheet of the pad: its bar is missing)
        bare = NaiveSolver(Variant(dataclasses.replace(self.layout, boxed=(), bar=())),
                           self.ruleset)
        for state in bare._key_states():
            closed = state.closed
            shut = sum(1 << k for k, c in enumerate(self.layout.bar) if c in closed)
            for sheet in bare._same_key(state.sheets[0]):
                for top in range(fields + 1):
                    # the fields left of the last taken one that may be void (closed colours)
                    spare = shut & ((1 << max(0, top - 1)) - 1)
                    sub = spare
                    while True:
                        taken = ((1 << top) - 1) & ~sub
                        void = shut & ~taken
                        found = (sheet_key(sheet, closed), taken, void)
                        if found not in seen:
                            try:
                                bar_sheet = Sheet(sheet.masks, sheet.penalties, self.layout,
                                                  bar_taken=taken, bar_void=void)
                            except QwixxError:
                                bar_sheet = None
                            if bar_sheet is not None:
                                seen.add(found)
                                yield self.position(bar_sheet)
                        if sub == 0:
                            break
                        sub = (sub - 1) & spare

    def _same_key(self, sheet: Sheet) -> Iterator[Sheet]:
        """Every sheet with the marks of ``sheet`` moved but each row's last mark, count and
        lock kept (the sheets of one compact key)."""
        choices: list[list[int]] = []
        for colour in COLOURS:
            mask = sheet.masks[colour.index]
            bits = len(self.layout.numbers[self.layout.row_of[colour.index]]) \
                if self.layout.row_of[colour.index] >= 0 else 0
            choices.append([m for m in range(1 << bits) if m.bit_count() == mask.bit_count()
                            and m.bit_length() == mask.bit_length()])
        for masks in itertools.product(*choices):
            try:
                yield Sheet((masks[0], masks[1], masks[2], masks[3]), sheet.penalties,
                            self.layout)
            except QwixxError:
                continue  # a lock without the marks it needs (R8)

    def _key_states(self) -> Iterator[GameState]:
        for key in range(key_space(self.layout)):
            try:
                sheet, closed = sheet_from_key(key, self.layout)
            except ParseError:
                continue  # no row has this code
            if closed != sheet.locked:
                continue  # closed by another player: not a solitaire position
            state = self.position(sheet)
            if not state.is_over:
                yield state

    def start_value(self) -> float:
        """The value of the empty sheet."""
        return self.value(Sheet.empty(self.layout))
