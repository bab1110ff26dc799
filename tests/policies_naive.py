"""Deliberately naive references for small layouts: plain Python on the rules core, exact
rationals (the policies' test oracle; a test module, not part of the package).

Positions are the rules core's one-player :class:`~qwixx_math.rules.GameState`
(``new_game(players=1, ruleset=..., layout=...)``) and a turn is what the rules
core says it is: the policy chooses one of :func:`~qwixx_math.rules.legal_plans`
(:meth:`~qwixx_math.policies.base.PriorityPolicy.choose`) and
:meth:`GameState.play_plan` plays it.

* :func:`solitaire_states`: every position of a layout in which the solitaire game
  is still running, one per compact key (:func:`qwixx_math.keys.sheet_key`).
* :class:`NaivePolicyEvaluator`: V_pi by memoised recursion (memo: the compact key)
  over every roll of the dice in play (:func:`qwixx_math.dice.outcome_table`: the
  canonical rolls with their exact weights; the order of the white dice changes no
  legal plan), the policy choosing for each.
* :func:`naive_score_distribution`: the exact final-score distribution by pushing
  probability mass forward position by position, the same way.
* :class:`NaiveTableEvaluator`: V_pi in the table model of N players of the optimal
  policy of an M-table: own rolls as above (the policy ranks plans by the M-table at
  level M - 1), and on each other player's roll every white pair on its own, the
  policy passing or marking the white sum (one of
  :func:`~qwixx_math.rules.legal_action1`, played by the rules core) by the
  M-table's value at level min(K - 1, M - 1).

No cell cache, no expected-maximum sweep, no flat layout: they share only the
policy's priority function (and, for the optimal policy, the table look-up) with
the compiled engine.  Exponentially slow; only for layouts with 2-3 short rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from functools import lru_cache

from qwixx_math.dice import outcome_table
from qwixx_math.dice.outcomes import weighted_rolls
from qwixx_math.errors import ParseError
from qwixx_math.keys import key_space, sheet_from_key, sheet_key
from qwixx_math.layouts import OFFICIAL, SheetLayout, layout_named
from qwixx_math.model import COLOURS, Colour, Mark, Roll
from qwixx_math.policies.base import PriorityPolicy
from qwixx_math.rules import GameState, Phase, legal_action1, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, Variant

__all__ = ["NaivePolicyEvaluator", "NaiveTableEvaluator", "naive_score_distribution",
           "solitaire_states"]


def solitaire_states(layout: SheetLayout | str, ruleset: Ruleset) -> Iterator[GameState]:
    """Every position (before a roll) of solitaire games on ``layout`` in which the game is
    not over, one for each compact key, in key order: open rows in every state (rightmost
    mark and count), locked rows with every count a row can close with (the lock
    threshold + 2 up to the row's length + 1), every penalty count below the last box.

    The position of a key is :func:`~qwixx_math.keys.sheet_from_key`'s representative
    sheet (marks packed to the left), which has the same future as any sheet of that key.
    On a sheet with step cells (CS2) the total of crossed step cells matters too: one
    position per key and total (the naive solver's :meth:`NaiveSolver.states`).
    """
    layout = layout_named(layout)
    if not isinstance(ruleset, Ruleset) or ruleset.players != 1:
        raise ParseError(f"solitaire states need a one-player Ruleset, not {ruleset!r}")
    if layout.steps:  # CS2: one position per key *and* total of crossed step cells
        yield from NaiveSolver(Variant(layout), ruleset).states()
        return
    for key in range(key_space(layout)):
        try:
            sheet, closed = sheet_from_key(key, layout)
        except ParseError:
            continue  # a closed count no row of this layout can have
        if closed - sheet.locked:
            continue  # a row closed by another player: not a solitaire position
        if len(closed) >= layout.closed_rows_to_end or sheet.penalties >= layout.penalty_boxes:
            continue  # the game is over (R13, R14)
        yield GameState(ruleset, (sheet,), closed=closed)


def _start(ruleset: Ruleset, layout: SheetLayout | str) -> tuple[Ruleset, SheetLayout]:
    if not isinstance(ruleset, Ruleset) or ruleset.players != 1:
        raise ParseError(f"the naive evaluators play solitaire: a one-player Ruleset, not "
                         f"{ruleset!r}")
    return ruleset, layout_named(layout)


def _key(state: GameState) -> tuple[int, int]:
    """The compact key and the crossed step cells (CS2: the fifth score group reads their
    total, which the key does not hold; 0 on a sheet without steps)."""
    sheet = state.sheets[0]
    return sheet_key(sheet, state.closed), sheet.steps_crossed


def _rolls(state: GameState) -> tuple[tuple[Roll, int], ...]:
    """Every roll of the dice in play with its weight (out of F^(2 + dice in play), dice of
    the layout's F faces: 8 on Qwixx Longo, LG1)."""
    return weighted_rolls(state.dice_in_play, state.layout.faces)


@lru_cache(maxsize=16)
def _white_rolls(in_play: frozenset[Colour], sides: int = 6) -> tuple[tuple[Roll, int], ...]:
    """Every pair of white dice of ``sides`` faces with its weight (out of sides^2), as
    rolls of another player: the coloured dice ``in_play`` show 1 (they do not enter
    anyone's action 1)."""
    faces = tuple(1 if c in in_play else None for c in COLOURS)
    coloured = (faces[0], faces[1], faces[2], faces[3])
    return tuple((Roll(r.white, coloured, sides), w)
                 for r, w in outcome_table((), sides).rolls())


def _check(state: object, ruleset: Ruleset, layout: SheetLayout) -> GameState:
    """``state`` (None: the start of the game) if it is a position of ``layout`` under
    ``ruleset``; ParseError otherwise."""
    if state is None:
        return new_game(players=1, ruleset=ruleset, layout=layout)
    if not isinstance(state, GameState) or state.ruleset != ruleset or state.layout != layout:
        raise ParseError(f"this evaluator values one-player positions of the {layout.name} "
                         f"sheet under its ruleset, not {state!r}")
    return state


def _mean(outcomes: Iterable[tuple[GameState, int]],
          value: Callable[[GameState], Fraction]) -> Fraction:
    """The mean of ``value`` over the positions ``outcomes`` lead to, each with its integer
    weight (each distinct position, by compact key or final score, valued once)."""
    weights: dict[tuple[bool, object], tuple[GameState, int]] = {}
    for after, weight in outcomes:
        to = (after.is_over, after.sheets[0].score if after.is_over else _key(after))
        held = weights.get(to)
        weights[to] = (after, weight if held is None else held[1] + weight)
    return Fraction(sum(w * value(after) for after, w in weights.values()),
                    sum(w for _, w in weights.values()))


class NaivePolicyEvaluator:
    """``NaivePolicyEvaluator(policy, ruleset, layout).value(state)``: V_pi of a running
    solitaire position, exact (a Fraction for every policy: the optimal policy's decisions
    read float values, but its V_pi is still a rational combination of integer scores).
    ``value()`` is the empty sheet's."""

    def __init__(self, policy: PriorityPolicy, ruleset: Ruleset,
                 layout: SheetLayout | str = OFFICIAL) -> None:
        self.policy = policy
        self.ruleset, self.layout = _start(ruleset, layout)
        self._memo: dict[tuple[int, int], Fraction] = {}

    def value(self, state: GameState | None = None) -> Fraction:
        """V_pi of ``state`` (default: the start of the game); its score once it is over."""
        return self._value(_check(state, self.ruleset, self.layout))

    def _value(self, state: GameState) -> Fraction:
        if state.is_over:
            return Fraction(state.sheets[0].score)
        key = _key(state)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        result = _mean(((state.play_plan(roll, self.policy.choose(state, roll)), weight)
                        for roll, weight in _rolls(state)), self._value)
        self._memo[key] = result
        return result


class NaiveTableEvaluator:
    """``NaiveTableEvaluator(policy, players, ruleset, layout).value(state, k)``: V_pi (an
    exact Fraction) in the table model of ``players`` = N, when ``k`` other players roll
    before this player's own, of ``policy`` (an optimal policy on a solver table of M
    players: :class:`~qwixx_math.policies.base.OptimalPolicy`)."""

    def __init__(self, policy: PriorityPolicy, players: int, ruleset: Ruleset,
                 layout: SheetLayout | str = OFFICIAL) -> None:
        if policy.table is None:
            raise ParseError("the table model's policy is the optimal policy of a solver table")
        self.policy = policy
        self.players = players
        self.policy_players = policy.table.players
        self.ruleset, self.layout = _start(ruleset, layout)
        self._memo: dict[tuple[tuple[int, int], int], Fraction] = {}

    def value(self, state: GameState | None = None, before_me: int = 0) -> Fraction:
        """V_pi of ``state`` (default: the start) with ``before_me`` other rolls first."""
        return self._value(_check(state, self.ruleset, self.layout), before_me)

    def _value(self, state: GameState, before_me: int) -> Fraction:
        if state.is_over:
            return Fraction(state.sheets[0].score)
        key = (_key(state), before_me)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if before_me == 0:  # an own roll: N - 1 others roll before the next one
            result = _mean(((state.play_plan(roll, self.policy.choose(state, roll)), weight)
                            for roll, weight in _rolls(state)),
                           lambda after: self._value(after, self.players - 1))
        else:  # another player's roll: only its white dice matter to this player
            result = _mean(((self.passive_choice(state, roll, before_me), weight)
                            for roll, weight in _white_rolls(state.dice_in_play,
                                                             state.layout.faces)),
                           lambda after: self._value(after, before_me - 1))
        self._memo[key] = result
        return result

    def passive_choice(self, state: GameState, roll: Roll, before_me: int) -> GameState:
        """The position after the policy's choice on another player's ``roll`` (the white
        sum, action 1: pass or one of :func:`~qwixx_math.rules.legal_action1`), ``before_me``
        >= 1 such rolls before its own, this one included: the first best by the M-table's
        value at level min(before_me - 1, M - 1), passing first."""
        level = min(before_me - 1, self.policy_players - 1)
        sheet = state.sheets[0]
        closed_before = sum(sheet.row_score(c) for c in state.layout.locks if c in state.closed)
        best = state
        best_value = self.policy.relative_value(sheet, state.closed, closed_before, level)
        for mark in legal_action1(state, 0, roll):
            marked = _mark_white_sum(state, roll, mark)
            value = self.policy.relative_value(marked.sheets[0], marked.closed,
                                               closed_before, level)
            if value > best_value:
                best, best_value = marked, value
        return best


def _mark_white_sum(state: GameState, roll: Roll, mark: Mark) -> GameState:
    """``state`` after this player marks ``mark`` (the white sum) in action 1 of a roll that
    is not their own: the rules core's action 1 and an action 2 that marks nothing (no
    penalty: action 1 marked).  A row it closes is closed for everyone (R9); the game may
    end (R14)."""
    after = state.with_roll(roll).with_action1([mark])
    if after.phase is Phase.ACTION2:
        after = after.with_action2(None)
    return after


def naive_score_distribution(policy: PriorityPolicy, ruleset: Ruleset,
                             layout: SheetLayout | str = OFFICIAL) -> dict[int, Fraction]:
    """The exact distribution of the final score from the empty sheet: ``{score: P}``."""
    ruleset, layout = _start(ruleset, layout)
    start = new_game(players=1, ruleset=ruleset, layout=layout)
    # every turn adds a mark or a penalty, so (marks + penalties) orders the positions
    buckets: dict[int, dict[tuple[int, int], tuple[GameState, Fraction]]] = defaultdict(dict)
    buckets[0][_key(start)] = (start, Fraction(1))
    hist: dict[int, Fraction] = defaultdict(Fraction)
    level = 0
    while buckets:
        states = buckets.pop(level, None)
        level += 1
        if states is None:
            continue
        for state, mass in states.values():
            rolls = _rolls(state)
            total = sum(w for _, w in rolls)
            for roll, weight in rolls:
                share = mass * weight / total
                after = state.play_plan(roll, policy.choose(state, roll))
                sheet = after.sheets[0]
                if after.is_over:
                    hist[sheet.score] += share
                    continue
                bucket = buckets[sheet.total_marks + sheet.penalties]
                key = _key(after)
                held = bucket.get(key)
                bucket[key] = (after, share if held is None else held[1] + share)
    return dict(sorted(hist.items()))

