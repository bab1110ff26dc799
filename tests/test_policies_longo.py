"""Policies on 8-sided dice with two lock numbers (Qwixx Longo, VARIANTS.md §8, LG1, LG2;
issue 34).

The policy engine reads the dice's faces (white sums 2..16, F^2 * F^k rolls) and the lock
cells (either of a row's last two numbers closes it) from the layout.  On the small 8-sided
layouts of tests/test_solver_longo.py, with the checks shared with Double B
(tests/policies_checks.py):

* the compiled engine's plans and successors equal the rules core's on every state;
* its choice and priorities equal the Python policies' (``ranked``) on every state;
* the sweep's weights (which plan each of the 8^(2+k) rolls leads to) equal a brute-force
  count over every roll;
* V_pi of the compiled backward evaluation equals the naive evaluator (every roll of the
  8-sided dice through the rules core, exact Fractions) on every state, and the optimal
  policy's V_pi is the solver's table on every state;
* the forward score distribution equals the naive exact enumeration (slow);
* the simulator plays game by game what the Python policy plays, and its mean is within
  4 standard errors of the exact value (slow);
* the table model (docs/table.md): the N-table's policy at its own table is the solver's
  N-table, and the solitaire policy at a 2-table equals the naive evaluator (slow);
* on the published pad: the simulator and the CLI play the heuristics (no table: the
  optimal policy would solve the full Longo table, minutes, so no test asks for it),
  game by game as the Python policy; lucky numbers (LG3) are refused.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from policies_checks import (
    check_choices,
    check_distribution,
    check_optimal_values,
    check_simulation_mean,
    check_simulator,
    check_sweep_weights,
    check_values,
)
from policies_naive import NaiveTableEvaluator, solitaire_states
from test_policies_engine import check_rolls_on_every_state
from test_policies_helpers import table_value
from test_solver_longo import LARGER, SMALL

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import LONGO
from qwixx_math.policies import (
    OptimalPolicy,
    PolicySpec,
    PriorityPolicy,
    policy_value,
    simulate,
)
from qwixx_math.policies.evaluate import evaluate_table_model
from qwixx_math.policies.simulate import play_game, roll_dice, simulate_tables
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve
from qwixx_math.solver.cache import cache_dir, table_filename


@pytest.mark.parametrize("name", list(SMALL))
def test_engine_plans_equal_the_rules_core_on_every_state(name: str) -> None:
    assert check_rolls_on_every_state(SMALL[name], 4, 5) > 100


@pytest.mark.parametrize("name", list(SMALL))
def test_engine_choice_equals_the_python_policies(name: str) -> None:
    assert check_choices(SMALL[name], 23) > 100


@pytest.mark.parametrize("which", ["optimal", "seed-tips", "threshold-1"])
def test_sweep_weights_equal_a_count_over_every_roll(which: str) -> None:
    """Which plan each roll of the 8-sided dice leads to: the sweep's integer weights
    (units of 1 / (8^2 * 8^k)) against a count over all 8^(2+k) rolls."""
    assert check_sweep_weights(SMALL["mixed"], which, 10, 13) == 20


#: The naive evaluator walks 36 x 8^k rolls per state: one case per R15 option here,
#: the others in the slow run.
VALUE_CASES = [("high", "seed-tips", False), ("high", "fewest-skips", True)]
VALUE_CASES_SLOW = [("mixed", "optimal", True), ("two-up", "threshold-1", False),
                    ("high5", "seed-tips", True), ("mixed5", "threshold-2", False)]


@pytest.mark.parametrize(("name", "policy_name", "a2"), VALUE_CASES)
def test_policy_values_equal_the_naive_evaluator(name: str, policy_name: str, a2: bool) -> None:
    assert check_values(SMALL[name], a2, policy_name) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("name", "policy_name", "a2"), VALUE_CASES_SLOW)
def test_policy_values_equal_the_naive_evaluator_slow(name: str, policy_name: str,
                                                      a2: bool) -> None:
    assert check_values({**SMALL, **LARGER}[name], a2, policy_name) > 20


@pytest.mark.parametrize(("name", "a2"), [(n, a2) for n in SMALL for a2 in (False, True)])
def test_optimal_policy_value_is_the_solver_value_on_every_state(name: str, a2: bool) -> None:
    assert check_optimal_values(SMALL[name], a2) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("name", "policy_name", "a2"), [
    ("high", "optimal", False), ("mixed", "seed-tips", True)])
def test_distribution_equals_the_naive_enumeration(name: str, policy_name: str,
                                                   a2: bool) -> None:
    check_distribution(SMALL[name], policy_name, a2)


@pytest.mark.parametrize(("name", "policy_name", "a2"), [
    ("high", "seed-tips", True), ("mixed", "optimal", False), ("two-up", "threshold-1", False)])
def test_simulator_plays_what_the_python_policy_plays(name: str, policy_name: str,
                                                      a2: bool) -> None:
    check_simulator(SMALL[name], policy_name, a2, 150, 8)


@pytest.mark.slow
@pytest.mark.parametrize("policy_name", ["optimal", "seed-tips"])
def test_simulation_mean_within_four_standard_errors(policy_name: str) -> None:
    """Monte-Carlo play on a small 8-sided sheet against its exact value."""
    check_simulation_mean(LARGER["mixed5"], policy_name, 21)


def test_the_dice_of_longo_have_eight_faces() -> None:
    dice = roll_dice(500, 4, Variant(LONGO))
    assert dice.min() == 1 and dice.max() == 8


def test_the_python_policy_plays_longo_as_the_engine() -> None:
    """Game by game on the published pad (no table: heuristics)."""
    variant = Variant(LONGO)
    for spec in (PolicySpec.seed_tips(), PolicySpec.skip_threshold(2)):
        dice = roll_dice(30, 5, variant)
        sim = simulate_tables(spec, variant, False, 30, 5, None, dice)
        policy = PriorityPolicy(spec)
        for g in range(30):
            final = play_game(policy, Ruleset(players=1), dice[g], LONGO)
            assert int(sim.scores[g]) == final.scores[0], (spec.name, g)
            assert int(sim.turns[g]) == final.turn + 1, (spec.name, g)


def test_simulate_on_longo_through_the_api_and_the_cli(
        capsys: pytest.CaptureFixture[str]) -> None:
    sim = simulate("seed-tips", 2_000, 3, layout="longo", cache=False)
    assert sim.games == 2_000 and 0 < sim.mean <= 4 * 120
    assert int(sim.scores.max()) > 78  # a Longo row of 13+ crosses scores beyond 78
    assert main(["simulate", "--layout", "longo", "--policy", "fewest-skips", "--games",
                 "300", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["layout"] == "longo" and out["games"] == 300


def test_lucky_numbers_are_refused_with_lg3(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ParseError, match=r"LG3: the policy engine"):
        policy_value("seed-tips", layout="longo:5,13", cache=False)
    with pytest.raises(ParseError, match="LG3"):
        simulate("seed-tips", 10, layout=LONGO.with_lucky((5, 13)), cache=False)
    assert main(["simulate", "--layout", "longo:5,13", "--policy", "seed-tips", "--games",
                 "10", "--quiet"]) == 2
    assert "LG3" in capsys.readouterr().err


def test_cli_policies_on_longo(capsys: pytest.CaptureFixture[str]) -> None:
    """``qwixx-math policies --layout longo --policy optimal`` reads the Longo table from the
    cache (skipped unless it is there: a fast test never solves the pad) and prints the
    solver's V(start) with no loss."""
    variant = Variant(LONGO)
    if not (cache_dir() / table_filename(variant, False)).exists():
        pytest.skip("the longo table is not in the cache")
    table = solve(Ruleset(players=1), variant, progress=False)
    assert main(["policies", "--layout", "longo", "--policy", "optimal", "--json",
                 "--quiet"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["layout"] == "longo" and row["loss"] == 0
    assert row["expected_score"] == pytest.approx(table.start_value, abs=1e-9)


@pytest.mark.parametrize("a2", [False, True], ids=["a2end0", "a2end1"])
@pytest.mark.parametrize("name", ["high", "two-up"])
def test_table_policy_at_its_own_table_is_the_solver_table(name: str, a2: bool) -> None:
    """The table model (docs/table.md) with 8-sided dice: the argmax policy of the N-table
    evaluated at the N-table is the solver's N-table at every level (another player's roll
    weighs the 64 white pairs, sums 2..16)."""
    variant = Variant(SMALL[name])
    for n in (1, 2, 3):
        data = np.asarray(solve(Ruleset(players=1, action2_after_game_end=a2), variant,
                                cache=False, players=n).data)
        values = evaluate_table_model(variant, a2, data, n, (n,)).values[n]
        assert np.array_equal(np.isnan(values), np.isnan(data))
        assert np.nanmax(np.abs(values - data)) <= 1e-9, n


@pytest.mark.slow
def test_cross_values_equal_the_naive_evaluator() -> None:
    """The solitaire policy at a 2-table on every state and level of a small 8-sided layout,
    against the naive evaluator (every white pair of 8-sided dice on its own)."""
    layout = SMALL["high"]
    variant = Variant(layout)
    ruleset = Ruleset(players=1)
    solo = solve(ruleset, variant, cache=False)
    values = evaluate_table_model(variant, False, np.asarray(solo.data), 1, (2,)).values[2]
    naive = NaiveTableEvaluator(OptimalPolicy(solo), 2, ruleset, layout)
    size = solo.layout.level_size
    checked = 0
    for state in solitaire_states(layout, ruleset):
        for before_me in range(2):
            got = table_value(values[before_me * size:(before_me + 1) * size], variant, state)
            assert abs(got - float(naive.value(state, before_me))) <= 1e-9
            checked += 1
    assert checked > 20
