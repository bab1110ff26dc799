"""Policies on sheets with step cells (Qwixx Connected, the Steps, VARIANTS.md §4, CS2).

The fifth score group T(crossed step cells) is not a sum over rows, so the policy engine
keeps the step total in its state, as the solver's lanes do (``s * P + p``,
:mod:`qwixx_math.solver.layout`): a plan that crosses step cells moves the lane, a game that
ends scores T(total).  On the small step layouts of tests/test_solver_steps.py (a step on a
row's last number among them), with the checks shared with Longo and Double B
(tests/policies_checks.py), on **every** state (one per compact key *and* step total:
tests/policies_naive.py):

* the compiled engine's plans and successors (lane included) equal the rules core's;
* its choice and priorities equal the Python policies' (``ranked``);
* the sweep's weights equal a brute-force count over every roll;
* V_pi of the compiled backward evaluation equals the naive evaluator (every roll through
  the rules core, exact Fractions), and the optimal policy's V_pi is the solver's table;
* the forward score distribution equals the naive exact enumeration;
* the simulator plays game by game what the Python policy plays, and its mean is within
  4 standard errors of the exact value;
* on the published staircases: the simulator and the CLI play the heuristics (no table:
  the optimal policy would solve the full Steps table, minutes, so no fast test asks for
  it), game by game as the Python policy; the table model (``cross_value``) still refuses
  step cells with CS2.
"""

from __future__ import annotations

import json
from pathlib import Path

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
from policies_naive import solitaire_states
from test_policies_engine import check_rolls_on_every_state
from test_solver_steps import SMALL

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import CONNECTED_STEPS, SheetLayout, layout_named
from qwixx_math.policies import (
    PolicySpec,
    PriorityPolicy,
    cross_value,
    policy_value,
    score_distribution,
    simulate,
)
from qwixx_math.policies.simulate import play_game, roll_dice, simulate_tables
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant

#: The published staircases (VARIANTS.md §4.1: reconstructions).
STAIRCASES = [layout_named(n) for n in ("connected-steps", "connected-steps-2",
                                        "connected-steps-3", "connected-steps-4",
                                        "connected-steps-5", "connected-steps-s21")]


@pytest.mark.parametrize("name", list(SMALL))
def test_engine_plans_equal_the_rules_core_on_every_state(name: str) -> None:
    assert check_rolls_on_every_state(SMALL[name], 4, 5) > 100


def test_every_step_total_is_a_state() -> None:
    """The premise of the checks below: one key, several step totals (on ``last-step``)."""
    states = list(solitaire_states(SMALL["last-step"], Ruleset(players=1)))
    totals = {s.sheets[0].steps_crossed for s in states}
    assert totals == {0, 1, 2}  # the third step is a lock number: crossing it ends the game
    keys = [(s.sheets[0].masks, s.sheets[0].penalties) for s in states]
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("name", list(SMALL))
def test_engine_choice_equals_the_python_policies(name: str) -> None:
    assert check_choices(SMALL[name], 23) > 100


@pytest.mark.parametrize("which", ["optimal", "seed-tips", "threshold-1"])
def test_sweep_weights_equal_a_count_over_every_roll(which: str) -> None:
    """Which plan each roll leads to, with the step total in the state (the optimal policy
    decides per lane): the sweep's integer weights against a count over every roll."""
    assert check_sweep_weights(SMALL["mixed"], which, 6, 13) == 12


#: The naive evaluator walks 36 x 6^k rolls per state (every step total): one case per
#: layout here (10-25 s each on the shared machine), the optimal policy in the slow run
#: (its choices and values are checked on every state above and below without it).
VALUE_CASES = [("flip", "seed-tips", True), ("mixed", "threshold-0", True),
               ("last-step", "fewest-skips", False)]
VALUE_CASES_SLOW = [("last-step", "optimal", False), ("flip", "optimal", False),
                    ("last-step", "seed-tips", True)]


@pytest.mark.parametrize(("name", "policy_name", "a2"), VALUE_CASES)
def test_policy_values_equal_the_naive_evaluator(name: str, policy_name: str, a2: bool) -> None:
    assert check_values(SMALL[name], a2, policy_name) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("name", "policy_name", "a2"), VALUE_CASES_SLOW)
def test_policy_values_equal_the_naive_evaluator_slow(name: str, policy_name: str,
                                                      a2: bool) -> None:
    assert check_values(SMALL[name], a2, policy_name) > 20


@pytest.mark.parametrize(("name", "a2"), [(n, a2) for n in SMALL for a2 in (False, True)])
def test_optimal_policy_value_is_the_solver_value_on_every_state(name: str, a2: bool) -> None:
    assert check_optimal_values(SMALL[name], a2) > 20


def test_distribution_equals_the_naive_enumeration() -> None:
    check_distribution(SMALL["mixed"], "seed-tips", True)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2"), [("last-step", False), ("flip", True)])
def test_optimal_distribution_equals_the_naive_enumeration(name: str, a2: bool) -> None:
    check_distribution(SMALL[name], "optimal", a2)


@pytest.mark.parametrize(("name", "policy_name", "a2"), [
    ("last-step", "seed-tips", True), ("mixed", "optimal", False), ("flip", "threshold-1", False),
    ("flip", "optimal", True)])
def test_simulator_plays_what_the_python_policy_plays(name: str, policy_name: str,
                                                      a2: bool) -> None:
    check_simulator(SMALL[name], policy_name, a2, 200, 8)


@pytest.mark.parametrize("policy_name", ["optimal", "seed-tips"])
def test_simulation_mean_within_four_standard_errors(policy_name: str) -> None:
    """Monte-Carlo play on a small steps sheet against its exact value."""
    check_simulation_mean(SMALL["flip"], policy_name, 21)


@pytest.mark.parametrize("layout", STAIRCASES, ids=lambda la: la.name)
def test_the_python_policy_plays_every_staircase_as_the_engine(layout: SheetLayout) -> None:
    """Game by game on the published staircases (no table: heuristics); the scores count
    T(crossed step cells)."""
    variant = Variant(layout)
    for spec in (PolicySpec.seed_tips(), PolicySpec.skip_threshold(1)):
        dice = roll_dice(20, 5, variant)
        sim = simulate_tables(spec, variant, False, 20, 5, None, dice)
        policy = PriorityPolicy(spec)
        for g in range(20):
            final = play_game(policy, Ruleset(players=1), dice[g], layout)
            assert int(sim.scores[g]) == final.scores[0], (layout.name, spec.name, g)
            assert int(sim.turns[g]) == final.turn + 1, (layout.name, spec.name, g)


def test_simulate_on_the_steps_through_the_api_and_the_cli(
        capsys: pytest.CaptureFixture[str]) -> None:
    sim = simulate("seed-tips", 2_000, 3, layout="connected-steps", cache=False)
    assert sim.games == 2_000 and sim.mean > 0
    assert main(["simulate", "--layout", "connected-steps-s21", "--policy", "fewest-skips",
                 "--games", "300", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["layout"] == "connected-steps-s21" and out["games"] == 300


def _layout_file(tmp_path: Path, layout: SheetLayout) -> Path:
    path = tmp_path / "steps.json"
    path.write_text(json.dumps(layout.to_json()))
    return path


def test_the_three_commands_on_a_small_steps_layout_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``policies``, ``distribution`` and ``simulate`` on a steps layout given as a file (its
    table solves in a moment), against the library's exact values."""
    layout = SMALL["flip"]
    path = _layout_file(tmp_path, layout)
    cache = tmp_path / "cache"
    exact = policy_value("seed-tips", layout=layout, cache=cache).expected_score
    optimal = policy_value("optimal", layout=layout, cache=cache).expected_score
    assert optimal >= exact
    assert main(["policies", "--layout", str(path), "--policy", "optimal", "--policy",
                 "seed-tips", "--json", "--quiet"]) == 0
    rows = {r["policy"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["seed-tips"]["expected_score"] == pytest.approx(exact, abs=1e-9)
    assert rows["optimal"]["expected_score"] == pytest.approx(optimal, abs=1e-9)
    assert main(["distribution", "--layout", str(path), "--policy", "seed-tips", "--json",
                 "--quiet"]) == 0
    dist = json.loads(capsys.readouterr().out)
    assert dist["mean"] == pytest.approx(exact, abs=1e-9)
    assert score_distribution("seed-tips", layout=layout, cache=cache).mean == pytest.approx(
        exact, abs=1e-9)
    assert main(["simulate", "--layout", str(path), "--policy", "optimal", "--games", "500",
                 "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 500


def test_the_table_model_still_refuses_step_cells_with_cs2() -> None:
    with pytest.raises(ParseError) as err:
        cross_value(1, 2, layout=CONNECTED_STEPS, cache=False)
    assert err.value.rule == "CS2"
