"""The seeded simulator: game by game against the rules core, determinism, and agreement of
the simulated mean with the exact policy value."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from qwixx_math.errors import ParseError
from qwixx_math.policies import HeuristicPolicy, PolicySpec, PriorityPolicy, play_game, roll_dice
from qwixx_math.policies.evaluate import evaluate_tables
from qwixx_math.policies.simulate import BLOCK, max_turns, simulate_tables
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve

OFFICIAL = Variant()


@pytest.mark.parametrize("a2", [False, True], ids=["a2end0", "a2end1"])
@pytest.mark.parametrize("name", ["seed-tips", "fewest-skips", "threshold-1"])
def test_simulator_equals_the_rules_core_game_by_game(name: str, a2: bool) -> None:
    """The same dice through policy.choose + GameState.play_plan give the same final score
    (and the same number of turns) as the compiled simulator."""
    spec = PolicySpec.parse(name)
    games = 150
    dice = roll_dice(games, seed=17)
    sim = simulate_tables(spec, OFFICIAL, a2, games, 17, dice=dice)
    policy = HeuristicPolicy(spec)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    for g in range(games):
        final = play_game(policy, ruleset, dice[g])
        assert final.scores[0] == sim.scores[g], g
        assert final.turn + 1 == sim.turns[g], g
    assert len(set(sim.scores.tolist())) > 20  # the games differ


def test_simulator_equals_the_rules_core_with_the_optimal_policy_on_a_variant() -> None:
    """The optimal policy (it needs a table) on a small layout, through the rules core."""
    variant = Variant.from_letters("ad", 6, 2, 2, 1)
    ruleset = Ruleset(players=1)
    table = solve(ruleset, variant, cache=False)
    dice = roll_dice(200, seed=3, variant=variant)
    sim = simulate_tables(PolicySpec.optimal(), variant, False, 200, 3,
                          vstar=np.asarray(table.data), dice=dice)
    policy = PriorityPolicy(PolicySpec.optimal(), table)
    for g in range(200):
        final = play_game(policy, ruleset, dice[g], variant.sheet)
        assert final.scores[0] == sim.scores[g], g
        assert final.turn + 1 == sim.turns[g], g


def test_dice_and_results_depend_on_the_seed_only() -> None:
    a = roll_dice(BLOCK + 10, seed=5)
    b = roll_dice(BLOCK + 10, seed=5)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, roll_dice(BLOCK + 10, seed=6))
    assert a.shape == (BLOCK + 10, max_turns(OFFICIAL), 6)
    assert a.min() == 1 and a.max() == 6
    # the first block does not depend on how many games follow
    assert np.array_equal(roll_dice(100, seed=5), a[:100])
    spec = PolicySpec.seed_tips()
    threads = numba.get_num_threads()
    first = simulate_tables(spec, OFFICIAL, False, 3000, 9)
    try:
        numba.set_num_threads(1)
        single = simulate_tables(spec, OFFICIAL, False, 3000, 9)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(first.scores, single.scores)


@pytest.mark.parametrize("name", ["optimal", "seed-tips", "threshold-2"])
def test_exact_value_lies_in_the_simulation_interval_on_a_variant(name: str) -> None:
    variant = Variant.from_letters("ada", 6, 2, 3, 2)
    ruleset = Ruleset(players=1)
    table = solve(ruleset, variant, cache=False)
    spec = PolicySpec.parse(name)
    exact = evaluate_tables(spec, variant, False, np.asarray(table.data)).start_value
    sim = simulate_tables(spec, variant, False, 40_000, 2024, vstar=np.asarray(table.data))
    low, high = sim.confidence_interval(0.999)
    assert low <= exact <= high, (exact, low, high)
    assert high - low < 0.5  # the interval is informative
    assert sim.sd > 0


def test_result_summary() -> None:
    sim = simulate_tables(PolicySpec.fewest_skips(), OFFICIAL, False, 500, 1)
    data = sim.to_json()
    assert data["games"] == 500 and data["policy"] == "fewest-skips"
    low, high = sim.confidence_interval()
    assert low < sim.mean < high
    assert data["ci95"] == [low, high]
    assert sim.sd == pytest.approx(float(np.std(sim.scores, ddof=1)))
    assert sim.turns.min() >= 4  # four penalties at least


@pytest.mark.parametrize("bad", [0, -1, True, 2.5])
def test_bad_arguments_are_parse_errors(bad: object) -> None:
    with pytest.raises(ParseError):
        roll_dice(bad, 1)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        roll_dice(10, bad if bad != 0 else -3)  # type: ignore[arg-type]


def test_dice_that_run_out_are_reported() -> None:
    with pytest.raises(ParseError, match="ran out"):
        play_game(HeuristicPolicy(PolicySpec.seed_tips()), Ruleset(players=1),
                  roll_dice(1, 1)[0][:3])
