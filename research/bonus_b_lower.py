"""Qwixx Bonus, pad B: the lower bound's policy played in the REAL game (issue 34;
research/NOTEBOOK.md, "Bonus B: a proved lower bound").

:func:`research.bonus_b_bound.solve_lower` gives V_H, the exact value of the game H whose
final score is h = (the rows' points) - 5 * penalties, a PROVED lower bound on Bonus B's
optimal value.  H's optimal policy pi is a legal Bonus B policy; playing it in Bonus B
itself (the rules core: real forced crosses, real BB8 score) gives games whose mean is an
ESTIMATE (with its 95% interval) of E_pi[BB8 score], a lower bound on Bonus B's value that is
at least V_H.

* :func:`choose` is pi: of the roll's legal plans (the rules core's
  :func:`~qwixx_math.rules.legal_plans`, sorted, the first kept on a tie), the one whose
  result has the highest H value: h of the final sheet when the game is over, else the
  table's value of the sheet.
* With ``one_ply`` it is pi plus a look at the real rewards: each result is valued with
  what the sheet's real score holds beyond h right now (the square's lowest row, the
  octagon's 13, the star's cancelled penalties: ``sheet.score - h(sheet)``, at least 0),
  and a finished game with its real score.  Any policy's mean estimates a lower bound;
  this one is only a heuristic improvement, not an optimum.
* :func:`policy_value` evaluates either policy EXACTLY (``Fraction``, by memoised recursion
  over full sheets through the rules core, like :class:`research.chain_state.FullSolver`)
  on a tiny pad, under h or under the real score: the tests check that pi's value under h
  is V_H (so :func:`choose` is optimal in H) and that its real value lies between V_H and
  Bonus B's exact value.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Protocol

from qwixx_math.dice import outcome_table
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import Roll, Sheet, TurnPlan
from qwixx_math.rules import GameState, Phase, legal_plans, random_roll
from qwixx_math.ruleset import Ruleset
from research.bonus_b_bound import RelaxedTable, lower_terminal

__all__ = ["ValueTable", "choose", "play_game", "policy_value"]


class ValueTable(Protocol):
    """A solved table whose greedy policy :func:`choose` plays: the lower bound's
    (:class:`~research.bonus_b_bound.RelaxedTable`) or the exact one
    (research/bonus_b_exact.py)."""

    @property
    def sheet(self) -> SheetLayout: ...

    def value(self, sheet: Sheet) -> float:
        """The table's value of a running game's ``sheet``."""
        ...

    def final(self, sheet: Sheet) -> float:
        """The table's score of a finished game's ``sheet``."""
        ...


def _start(ruleset: Ruleset, sheet: Sheet) -> GameState:
    """The solitaire game at ``sheet``, its player to roll."""
    return GameState(Ruleset(players=1, action2_after_game_end=ruleset.action2_after_game_end),
                     (sheet,), closed=sheet.locked)


def choose(table: ValueTable, state: GameState, roll: Roll, one_ply: bool = False
           ) -> tuple[TurnPlan, GameState]:
    """The plan pi (or, ``one_ply``, pi with the real rewards' look) plays on ``roll`` at
    ``state``, and the state it leads to."""
    h = table.final
    best: tuple[float, TurnPlan, GameState] | None = None
    for plan in legal_plans(state, roll):
        after = state.play_plan(roll, plan)
        sheet = after.sheets[0]
        if after.phase is Phase.OVER:
            v = float(sheet.score) if one_ply else h(sheet)
        else:
            v = table.value(sheet)
            if one_ply:
                v += float(sheet.score) - h(sheet)
        if best is None or v > best[0]:
            best = (v, plan, after)
    assert best is not None  # the penalty is always legal
    return best[1], best[2]


def play_game(table: ValueTable, ruleset: Ruleset, seed: int, one_ply: bool = False
              ) -> Sheet:
    """One solitaire game of ``table``'s pad played by :func:`choose`, dice from
    ``random.Random(seed)``: the final sheet (its ``score`` is BB8's)."""
    rng = random.Random(seed)
    sheet = Sheet.empty(table.sheet)
    while True:
        state = _start(ruleset, sheet)
        roll = random_roll(rng, state.dice_in_play, table.sheet.faces)
        _, after = choose(table, state, roll, one_ply)
        sheet = after.sheets[0]
        if after.phase is Phase.OVER:
            return sheet


def policy_value(table: RelaxedTable, ruleset: Ruleset, one_ply: bool = False,
                 real: bool = True) -> Fraction:
    """The EXACT expected final score of :func:`choose`'s policy from the empty sheet: the
    real score (BB8) when ``real``, else h (an integer on a final sheet, so exact).  Memoised
    over full sheets: tiny pads only."""
    memo: dict[tuple[tuple[int, int, int, int], int], Fraction] = {}
    final: Callable[[Sheet], Fraction] = (
        (lambda s: Fraction(s.score)) if real
        else (lambda s: Fraction(lower_terminal().of(s))))

    def value(sheet: Sheet) -> Fraction:
        key = (sheet.masks, sheet.penalties)
        cached = memo.get(key)
        if cached is not None:
            return cached
        state = _start(ruleset, sheet)
        total, weights = Fraction(0), 0
        for roll, weight in outcome_table(state.dice_in_play, table.sheet.faces).rolls():
            _, after = choose(table, state, roll, one_ply)
            mine = after.sheets[0]
            total += weight * (final(mine) if after.phase is Phase.OVER else value(mine))
            weights += weight
        memo[key] = total / weights
        return memo[key]

    return value(Sheet.empty(table.sheet))
