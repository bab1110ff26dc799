"""Monte-Carlo play of the table policy through the rules core (issue 11, slow).

At a table of N players, player ``me`` (seat s = me + 1; player 0 rolls first) follows
the table advice on every roll, their own (:meth:`TableAdvisor.advise`) and the
others' (:meth:`TableAdvisor.advise_passive`), with real dice and the rules core
applying every step.  The other players never mark, and their penalty boxes are
wiped after each of their turns, so the model's assumption (they never close a row
and never take a penalty) holds exactly.  The mean final score of ``me`` must
reproduce the table's value of seat s within 4 standard errors, for every seat of
N = 2..5 (official R15).
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from qwixx_math.model import Mark, Sheet
from qwixx_math.rules import GameState, Phase, new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.table import TableAdvisor

pytestmark = pytest.mark.slow

#: Games per seat (14 seats in all): about 4 minutes on one idle core, the standard error
#: of each mean about 1.3 points.
GAMES = 500


def play(advisor: TableAdvisor, me: int, rng: random.Random) -> int:
    """One game; ``me``'s final score."""
    n = advisor.players
    ruleset = Ruleset(players=n)
    state = new_game(ruleset=ruleset)
    while True:
        roll = random_roll(rng, state.dice_in_play)
        rolled = state.with_roll(roll)
        if state.active == me:
            state = state.play_plan(roll, advisor.advise(rolled).best.plan)
        else:
            choices: list[Mark | None] = [None] * n
            choices[me] = advisor.advise_passive(rolled, me).best.plan.action1
            after = rolled.with_action1(choices)
            if after.phase is Phase.ACTION2:
                after = after.with_action2(None)  # the active opponent marks nothing
            state = after
            if not state.is_over:  # wipe the opponents' penalties: they never take one
                sheets = tuple(s if i == me else Sheet.EMPTY
                               for i, s in enumerate(state.sheets))
                state = GameState(ruleset, sheets, state.active, state.closed,
                                  turn=state.turn)
        if state.is_over:
            return state.sheets[me].score


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_table_policy_reproduces_every_seat_value(n: int) -> None:
    advisor = TableAdvisor.for_ruleset(players=n, progress=False)
    for me in range(n):
        rng = random.Random(1000 * n + me)
        scores = [play(advisor, me, rng) for _ in range(GAMES)]
        mean = statistics.fmean(scores)
        se = statistics.stdev(scores) / math.sqrt(GAMES)
        exact = advisor.table.seat_values[me]
        assert abs(mean - exact) < 4 * se, (n, me + 1, mean, se, exact)
