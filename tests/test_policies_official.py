"""The official game (slow): exact values, the optimal score distribution, the simulator.

The solver's tables come from the shared cache (``solve(ruleset)``, the default
cache directory; CI sets ``QWIXX_MATH_CACHE``), as do the cached policy results
(The optimal score distribution and the CLI that reads it are in
test_policies_official_distribution.py: a file of its own, so that the slow run's
``--dist loadfile`` gives it a worker of its own.)

* The optimal policy's V_pi (exact policy evaluation, no symmetry) equals the
  solver's V* on every one of the 42,147,840 states.
* Each heuristic's exact value lies within the confidence interval of 100,000
  simulated games; so does V(start) for the simulated optimal policy.
* The Python OptimalPolicy and the compiled simulator play the same games.
"""

from __future__ import annotations

import numpy as np
import pytest

from qwixx_math.policies import (
    OptimalPolicy,
    PolicySpec,
    play_game,
    policy_value,
    roll_dice,
    simulate,
)
from qwixx_math.policies.evaluate import evaluate_tables
from qwixx_math.policies.simulate import simulate_tables
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, Variant, solve

pytestmark = pytest.mark.slow


def solitaire(a2: bool) -> Ruleset:
    return Ruleset(players=1, action2_after_game_end=a2)


OFFICIAL = Variant()


def test_optimal_policy_value_is_v_star_on_every_state(official_table: SolverTable) -> None:
    ev = evaluate_tables(PolicySpec.optimal(), OFFICIAL, False, np.asarray(official_table.data))
    assert not np.isnan(ev.values).any()
    assert float(np.max(np.abs(ev.values - np.asarray(official_table.data)))) <= 1e-9
    assert ev.start_value == pytest.approx(official_table.start_value, abs=1e-9)


@pytest.mark.parametrize("a2", [False, True], ids=["a2end0", "a2end1"])
@pytest.mark.parametrize("name", ["seed-tips", "fewest-skips", "threshold-2"])
def test_heuristic_value_lies_in_the_simulation_interval(name: str, a2: bool) -> None:
    exact = policy_value(name, solitaire(a2)).expected_score
    sim = simulate(name, 100_000, seed=7, ruleset=solitaire(a2))
    low, high = sim.confidence_interval(0.999)
    assert low <= exact <= high, (name, exact, low, high)
    assert exact < solve(solitaire(a2)).start_value


def test_simulated_optimal_policy_reproduces_v_start(official_table: SolverTable) -> None:
    sim = simulate("optimal", 100_000, seed=8, ruleset=solitaire(False))
    low, high = sim.confidence_interval(0.999)
    assert low <= official_table.start_value <= high


def test_python_optimal_policy_plays_the_simulator_games(official_table: SolverTable) -> None:
    dice = roll_dice(60, seed=12)
    sim = simulate_tables(PolicySpec.optimal(), OFFICIAL, False, 60, 12,
                          vstar=np.asarray(official_table.data), dice=dice)
    policy = OptimalPolicy(official_table)
    for g in range(60):
        assert play_game(policy, solitaire(False), dice[g]).scores[0] == sim.scores[g], g


def test_optimal_policy_agrees_with_the_advisor(official_table: SolverTable) -> None:
    """On random positions the optimal policy's plan is one the lead's Advisor ranks best
    (loss 0; the two may differ only between plans of equal value)."""
    import random

    from strategies import random_position

    from qwixx_math.advice import Advisor
    from qwixx_math.rules import random_roll

    advisor = Advisor(official_table)
    policy = OptimalPolicy(official_table)
    rng = random.Random(21)
    for _ in range(300):
        state = random_position(rng, solitaire(False))
        roll = random_roll(rng, state.dice_in_play)
        advice = advisor.advise(state, roll)
        chosen = advice.find(policy.choose(state, roll))
        assert chosen.loss <= 1e-9, (state.describe(), str(roll), str(chosen.plan))
