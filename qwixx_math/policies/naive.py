"""Deliberately naive references for small variants: plain Python, exact rationals.

* :class:`NaivePolicyEvaluator`: V_pi by memoised recursion over every roll of the
  dice in play (each of the 6^(2+k) outcomes on its own), the policy's
  :meth:`~qwixx_math.policies.base.PriorityPolicy.choose_rows` on the solver's
  :func:`~qwixx_math.solver.turn_outcomes` for each.
* :func:`naive_score_distribution`: the exact final-score distribution by
  pushing probability mass forward state by state, the same way.
* :class:`NaiveTableEvaluator`: V_pi in the table model of N players of the
  optimal policy of an M-table: own rolls as above (the policy ranks plans by the
  M-table at level M - 1), and on each other player's roll every one of the 36
  white pairs on its own, the policy passing or marking the white sum
  (:func:`~qwixx_math.solver.plans.mark_row`) by the M-table's value at level
  min(K - 1, M - 1).

No cell cache, no expected-maximum sweep, no flat layout: they share only the
policy's priority function with the compiled engine.  Exponentially slow; only
for variants with 2-3 short rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from ..ruleset import Ruleset
from ..solver.plans import Outcome, all_rolls, is_game_over, mark_row
from ..solver.state import RowState, score
from ..solver.variant import Variant
from .base import PriorityPolicy

__all__ = ["NaivePolicyEvaluator", "NaiveTableEvaluator", "naive_score_distribution"]

State = tuple[tuple[RowState, ...], int]
Key = tuple[tuple[RowState, ...], int, int]


def _chosen(policy: PriorityPolicy, variant: Variant, a2_end: bool, rows: tuple[RowState, ...],
            penalties: int, roll: tuple[int, int, dict[int, int]]) -> Outcome:
    return policy.ranked_rows(variant, a2_end, rows, penalties, roll)[0][0]


class NaivePolicyEvaluator:
    """``NaivePolicyEvaluator(variant, ruleset, policy).value(rows, penalties)``: exact
    (a Fraction for heuristics; the optimal policy's decisions read float values, but
    its V_pi is still a rational combination of integer scores)."""

    def __init__(self, variant: Variant, ruleset: Ruleset, policy: PriorityPolicy) -> None:
        self.variant = variant
        self.a2_end = ruleset.action2_after_action1_end
        self.policy = policy
        self._memo: dict[State, Fraction] = {}

    def value(self, rows: Sequence[RowState], penalties: int) -> Fraction:
        rows = tuple(rows)
        if is_game_over(self.variant, rows, penalties):
            return Fraction(score(rows, penalties))
        key = (rows, penalties)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        total = Fraction(0)
        count = 0
        for roll in all_rolls(rows):
            o = _chosen(self.policy, self.variant, self.a2_end, rows, penalties, roll)
            total += (Fraction(score(o.rows, o.penalties)) if o.game_over
                      else self.value(o.rows, o.penalties))
            count += 1
        result = total / count
        self._memo[key] = result
        return result


class NaiveTableEvaluator:
    """``NaiveTableEvaluator(variant, ruleset, policy, players).value(rows, penalties, k)``:
    V_pi (exact Fraction) in the table model of ``players`` = N, when ``k`` other players
    roll before this player's own, of ``policy`` (an optimal policy on a solver table of
    M players: :class:`~qwixx_math.policies.base.OptimalPolicy`)."""

    def __init__(self, variant: Variant, ruleset: Ruleset, policy: PriorityPolicy,
                 players: int) -> None:
        assert policy.table is not None, "the optimal policy of a solver table"
        self.variant = variant
        self.a2_end = ruleset.action2_after_action1_end
        self.policy = policy
        self.players = players
        self.policy_players = policy.table.players
        self._memo: dict[Key, Fraction] = {}

    def value(self, rows: Sequence[RowState], penalties: int, before_me: int = 0) -> Fraction:
        rows = tuple(rows)
        if is_game_over(self.variant, rows, penalties):
            return Fraction(score(rows, penalties))
        key = (rows, penalties, before_me)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        total = Fraction(0)
        count = 0
        if before_me == 0:
            after = self.players - 1
            for roll in all_rolls(rows):
                o = _chosen(self.policy, self.variant, self.a2_end, rows, penalties, roll)
                total += (Fraction(score(o.rows, o.penalties)) if o.game_over
                          else self.value(o.rows, o.penalties, after))
                count += 1
        else:
            for white1 in range(1, 7):
                for white2 in range(1, 7):
                    chosen = self.passive_choice(rows, penalties, white1 + white2, before_me)
                    total += self.value(chosen, penalties, before_me - 1)
                    count += 1
        result = total / count
        self._memo[key] = result
        return result

    def passive_choice(self, rows: tuple[RowState, ...], penalties: int, white_sum: int,
                       before_me: int) -> tuple[RowState, ...]:
        """The rows after the policy's choice on another player's roll of ``white_sum``
        (``before_me`` >= 1 such rolls before its own, this one included)."""
        v = self.variant
        level = min(before_me - 1, self.policy_players - 1)
        closed_before = sum(r.points for r in rows if r.closed)
        best = rows  # pass: first in the rules core's order
        best_value = self.policy._relative_rows_value(rows, penalties, False, closed_before,
                                                      level)
        for i, row in enumerate(rows):
            position = v.position_of(i, white_sum)
            new = None if position is None else mark_row(v, row, position)
            if new is None:
                continue
            marked = (*rows[:i], new, *rows[i + 1:])
            value = self.policy._relative_rows_value(
                marked, penalties, is_game_over(v, marked, penalties), closed_before, level)
            if value > best_value:
                best, best_value = marked, value
        return best


def naive_score_distribution(variant: Variant, ruleset: Ruleset,
                             policy: PriorityPolicy) -> dict[int, Fraction]:
    """The exact distribution of the final score from the empty sheet: ``{score: P}``."""
    a2_end = ruleset.action2_after_action1_end
    start: State = ((RowState(),) * variant.rows, 0)
    # every transition adds a mark or a penalty, so (marks + penalties) orders the states
    buckets: dict[int, dict[State, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    buckets[0][start] = Fraction(1)
    hist: dict[int, Fraction] = defaultdict(Fraction)
    level = 0
    while buckets:
        states = buckets.pop(level, None)
        level += 1
        if states is None:
            continue
        for (rows, penalties), mass in states.items():
            rolls = list(all_rolls(rows))
            share = mass / len(rolls)
            for roll in rolls:
                o = _chosen(policy, variant, a2_end, rows, penalties, roll)
                if o.game_over:
                    hist[score(o.rows, o.penalties)] += share
                else:
                    key = sum(r.marks for r in o.rows) + o.penalties
                    buckets[key][(o.rows, o.penalties)] += share
    return dict(sorted(hist.items()))
