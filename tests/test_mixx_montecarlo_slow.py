"""Monte-Carlo play of the optimal Mixx policies through the rules core (slow).

On each Qwixx Mixx pad, solitaire games are played with real dice: the advisor of
that pad's solver table picks every plan and the rules core (not the solver's own
statement of the turn, nor the policy engine) applies it, on a sheet of that
layout.  The mean final score must reproduce the table's start value within 4
standard errors.  The tables are the ones tests/test_solver_mixx_slow.py pins (the
shared cache, so they are solved once per run).
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from qwixx_math.advice import Advisor
from qwixx_math.layouts import MIXX_A, MIXX_B, SheetLayout
from qwixx_math.rules import new_game, random_roll
from qwixx_math.ruleset import Ruleset

pytestmark = pytest.mark.slow

#: Games per pad and R15 option: the standard error of the mean is about 0.6 points.
GAMES = 2_000


@pytest.mark.parametrize("a2", [False, True], ids=["r15", "a2-after-end"])
@pytest.mark.parametrize("layout", [MIXX_A, MIXX_B], ids=lambda la: la.name)
def test_optimal_mixx_play_reproduces_the_start_value(layout: SheetLayout, a2: bool) -> None:
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    advisor = Advisor.for_ruleset(ruleset, progress=False, layout=layout)
    rng = random.Random(7 + 2 * a2 + (layout is MIXX_B))
    scores = []
    for _ in range(GAMES):
        state = new_game(ruleset=ruleset, layout=layout)
        while not state.is_over:
            roll = random_roll(rng, state.dice_in_play)
            plan = advisor.advise(state, roll).best.plan
            state = state.play_plan(roll, plan)
        assert state.sheets[0].layout == layout
        scores.append(state.scores[0])
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / math.sqrt(GAMES)
    exact = advisor.table.start_value
    assert abs(mean - exact) < 4 * se, (layout.name, a2, mean, se, exact)
