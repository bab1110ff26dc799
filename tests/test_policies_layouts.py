"""Policies on sheet layouts other than the official one (issue 13).

On the small layouts of tests/test_solver_layouts.py (a die with two target rows,
Mixx A's flip, Mixx B's permuted numbers, cells whose colour has no die):

* the compiled engine's plans and successors (``roll_choice``, ``apply_plan``)
  equal the rules core's (``legal_plans``, ``GameState.play_plan``) on every state,
  and its choice and priorities equal the Python policy's (``ranked`` on the rules
  core's GameState);
* the sweep's integer weights equal a count over every roll;
* V_pi of the compiled backward evaluation equals the naive evaluator (every roll
  on its own, exact Fractions) on every state to 1e-9, and the optimal policy's
  V_pi is the solver's table;
* the forward score distribution equals the naive exact enumeration;
* the simulator plays game by game what the Python policy plays on the same dice,
  and its mean is within 4 standard errors of the exact value.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from policies_checks import (
    POLICIES,
    TOLERANCE,
    check_distribution,
    check_simulation_mean,
    check_simulator,
    check_values,
    table_of,
)
from policies_naive import (
    solitaire_states,
)
from test_policies_engine import brute_force_counts, check_rolls_on_every_state
from test_policies_helpers import engine_roll, engine_weights
from test_solver_layouts import LARGER, SMALL

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import MIXX_A, MIXX_B, SheetLayout
from qwixx_math.model import Colour, Mark, Roll
from qwixx_math.policies import (
    PolicySpec,
    PriorityPolicy,
    make_policy,
    policy_value,
    score_distribution,
    simulate,
)
from qwixx_math.policies.evaluate import evaluate_table_model, evaluate_tables
from qwixx_math.rules import new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve
from qwixx_math.solver.cache import table_filename, write_table
from qwixx_math.solver.layout import Layout


@pytest.mark.parametrize("name", list(SMALL))
def test_engine_plans_equal_turn_outcomes_on_every_state(name: str) -> None:
    assert check_rolls_on_every_state(SMALL[name], 8, 7) > 200


@pytest.mark.parametrize("name", list(SMALL))
def test_engine_choice_equals_the_python_policies(name: str) -> None:
    variant = Variant(SMALL[name])
    rng = random.Random(9)
    for a2 in (False, True):
        table = table_of(SMALL[name], a2)
        vstar = np.asarray(table.data)
        ruleset = Ruleset(players=1, action2_after_game_end=a2)
        for policy_name in POLICIES:
            spec = PolicySpec.parse(policy_name)
            policy = PriorityPolicy(spec, table)
            for state in solitaire_states(SMALL[name], ruleset):
                roll = random_roll(rng, state.dice_in_play)
                found, chosen = engine_roll(spec, variant, state, roll, vstar)
                ranked = policy.ranked(state, roll)
                assert chosen == ranked[0][0], (name, policy_name, state.describe(), str(roll))
                assert {plan: h for plan, h, _ in ranked} == found


@pytest.mark.parametrize("name", ["two-targets", "mixx-a-like", "no-die"])
def test_sweep_weights_equal_a_count_over_every_roll(name: str) -> None:
    variant = Variant(SMALL[name])
    rng = random.Random(11)
    for a2 in (False, True):
        table = table_of(SMALL[name], a2)
        states = list(solitaire_states(SMALL[name], Ruleset(players=1,
                                                            action2_after_game_end=a2)))
        for policy_name in ("optimal", "seed-tips"):
            spec = PolicySpec.parse(policy_name)
            policy = PriorityPolicy(spec, table)
            for state in rng.sample(states, 8):
                assert engine_weights(spec, variant, state, np.asarray(table.data)) == \
                    brute_force_counts(policy, state)


#: Every layout and every policy at least once, and both R15 options, in the default run
#: (about 4 s each); all the rest slow.
VALUE_CASES = [("two-targets", "optimal", False), ("mixx-a-like", "fewest-skips", False),
               ("mixx-a-like", "threshold-1", True), ("mixx-b-like", "threshold-0", False),
               ("no-die", "seed-tips", False)]
VALUE_CASES_SLOW = [(n, p, a2) for n in SMALL for p in POLICIES for a2 in (False, True)
                    if (n, p, a2) not in VALUE_CASES]


@pytest.mark.parametrize(("name", "policy_name", "a2"), VALUE_CASES)
def test_policy_values_equal_the_naive_evaluator(name: str, policy_name: str, a2: bool) -> None:
    assert check_values(SMALL[name], a2, policy_name, complete=True) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("name", "policy_name", "a2"), VALUE_CASES_SLOW)
def test_policy_values_equal_the_naive_evaluator_every_policy(name: str, policy_name: str,
                                                              a2: bool) -> None:
    assert check_values(SMALL[name], a2, policy_name, complete=True) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("name", "policy_name"), [
    # the three-row layout (about 40 s per policy) with the optimal policy only: the
    # heuristics run through the same engine steps on the two four-cell layouts
    (n, p) for n in LARGER for p in ("optimal", "seed-tips", "threshold-1")
    if n != "three-rows" or p == "optimal"])
def test_policy_values_equal_the_naive_evaluator_larger(name: str, policy_name: str) -> None:
    check_values(LARGER[name], False, policy_name)


@pytest.mark.parametrize(("name", "a2"), [(n, a2) for n in SMALL for a2 in (False, True)])
def test_optimal_policy_value_is_the_solver_value_on_every_state(name: str, a2: bool) -> None:
    variant = Variant(SMALL[name])
    table = table_of(SMALL[name], a2)
    ev = evaluate_tables(PolicySpec.optimal(), variant, a2, np.asarray(table.data))
    assert np.max(np.abs(ev.values - np.asarray(table.data))) <= TOLERANCE
    assert ev.start_value == pytest.approx(table.start_value, abs=TOLERANCE)


def test_the_table_model_policy_on_a_mixed_layout_is_the_solver_table() -> None:
    """The optimal policy of the 2-player table model, evaluated at its own table: V_pi
    is the solver's 2-player table on every state and level (passive turns included)."""
    variant = Variant(SMALL["two-targets"])
    table = solve(Ruleset(players=1), variant, cache=False, players=2)
    ev = evaluate_table_model(variant, False, np.asarray(table.data), 2, (2,))
    assert np.max(np.abs(ev.values[2] - np.asarray(table.data))) <= TOLERANCE


#: Rows locked by yellow and blue (no red or green row): the table's rows 0 and 1 are the
#: colours 1 and 3 of the rules core, so a look-up by colour index would miss them.
YELLOW_BLUE = SheetLayout.of_rows("yellow-blue", [
    [(5, Colour.RED), (7, Colour.YELLOW), (9, Colour.YELLOW)],
    [(8, Colour.BLUE), (4, Colour.YELLOW), (6, Colour.BLUE)]], lock_threshold=1,
    penalty_boxes=2)


def test_the_optimal_policy_on_rows_of_other_lock_colours() -> None:
    """The optimal policy reads the table by the layout's rows (keys.table_index): on a
    sheet whose rows lock yellow and blue, the engine's choice and priorities (its own
    flat indices) equal the Python policy's on every state, and V_pi is the table."""
    variant = Variant(YELLOW_BLUE)
    table = table_of(YELLOW_BLUE, True)
    policy = PriorityPolicy(PolicySpec.optimal(), table)
    ev = evaluate_tables(PolicySpec.optimal(), variant, True, np.asarray(table.data))
    assert np.max(np.abs(ev.values - np.asarray(table.data))) <= TOLERANCE
    rng = random.Random(3)
    ruleset = Ruleset(players=1, action2_after_game_end=True)
    for state in solitaire_states(YELLOW_BLUE, ruleset):
        roll = random_roll(rng, state.dice_in_play)
        found, chosen = engine_roll(PolicySpec.optimal(), variant, state, roll,
                                    np.asarray(table.data))
        ranked = policy.ranked(state, roll)
        assert chosen == ranked[0][0] and {p: h for p, h, _ in ranked} == found


def test_the_layouts_make_the_policies_differ() -> None:
    """Not a copy of the official rules: the same letters on a plain sheet give other values."""
    layout = SMALL["two-targets"]
    values = {p: evaluate_tables(PolicySpec.parse(p), Variant(layout), False,
                                 np.asarray(table_of(layout, False).data)).start_value
              for p in POLICIES}
    assert all(values[p] <= values["optimal"] + TOLERANCE for p in POLICIES)
    assert len({round(v, 9) for v in values.values()}) >= 3


@pytest.mark.parametrize(("name", "policy_name", "a2"), [
    ("two-targets", "optimal", False), ("no-die", "fewest-skips", True),
    pytest.param("mixx-a-like", "seed-tips", True, marks=pytest.mark.slow),
    pytest.param("mixx-b-like", "threshold-1", False, marks=pytest.mark.slow)])
def test_distribution_equals_the_naive_enumeration(name: str, policy_name: str,
                                                   a2: bool) -> None:
    check_distribution(SMALL[name], policy_name, a2)


@pytest.mark.parametrize(("name", "policy_name", "a2"), [
    ("mixx-a-like", "optimal", False), ("two-targets", "seed-tips", True),
    ("no-die", "threshold-0", False), ("mixx-b-like", "optimal", True)])
def test_simulator_plays_what_the_python_policy_plays(name: str, policy_name: str,
                                                      a2: bool) -> None:
    check_simulator(SMALL[name], policy_name, a2, 150, 4)


@pytest.mark.parametrize("policy_name", ["optimal", "seed-tips"])
def test_simulation_mean_within_four_standard_errors(policy_name: str) -> None:
    """Monte-Carlo play on a Mixx-A-like sheet (four cells a row, the flip symmetry)."""
    check_simulation_mean(LARGER["mixx-a-like-4"], policy_name, 13)


def test_the_api_takes_a_layout() -> None:
    layout = SMALL["mixx-a-like"]
    value = policy_value("seed-tips", layout=layout, cache=False)
    table = table_of(layout, False)
    expected = evaluate_tables(PolicySpec.seed_tips(), Variant(layout), False,
                               np.asarray(table.data)).start_value
    assert value.expected_score == pytest.approx(expected, abs=1e-12)
    assert value.variant_key == Variant(layout).key
    assert policy_value("optimal", layout=layout, cache=False).expected_score == \
        pytest.approx(table.start_value, abs=1e-12)
    dist = score_distribution("seed-tips", layout=layout, cache=False)
    assert dist.mean == pytest.approx(expected, abs=1e-9)
    sim = simulate("seed-tips", 500, 1, layout=layout, cache=False)
    assert sim.games == 500
    policy = make_policy("optimal", layout=layout, cache=False)
    assert policy.table is not None and policy.table.variant == Variant(layout)
    with pytest.raises(ParseError, match="not both"):
        policy_value("seed-tips", variant=Variant(), layout=layout, cache=False)
    with pytest.raises(ParseError, match="unknown layout"):
        policy_value("seed-tips", layout="mixx-c", cache=False)
    with pytest.raises(ParseError, match="SheetLayout"):
        simulate("seed-tips", 10, layout=3, cache=False)  # type: ignore[arg-type]


def test_python_policies_play_mixx_a_rows() -> None:
    """On the published Mixx A pad: the heuristic's action 2 goes to a cell of its die's
    colour, and the engine agrees with the Python policy's choice."""
    variant = Variant(MIXX_A)
    spec = PolicySpec.fewest_skips()
    policy = PriorityPolicy(spec)
    state = new_game(1, layout=MIXX_A)
    roll = Roll((1, 1), (1, 1, 1, 1))  # white 2, every die + white: 2
    found, chosen = engine_roll(spec, variant, state, roll)
    assert chosen == policy.choose(state, roll)
    # 2 is the first cell of row 1 (the red lock's row, a yellow cell) and of row 2 (the
    # yellow lock's, a red cell): action 1 takes one, the yellow die or the red die the other
    assert chosen.action1 == Mark(Colour.RED, 2) and chosen.action2 == Mark(Colour.YELLOW, 2)
    assert MIXX_A.cell_colour(Colour.YELLOW, 2) is Colour.RED
    # every action 2 marks a 2 (white + any die), in a cell of its die's colour: the first
    # cells of rows 1 and 2 (the 2s of rows 3 and 4 close them and need 5 marks first)
    assert {p.action2 for p in found if p.action2 is not None} == {
        Mark(Colour.RED, 2), Mark(Colour.YELLOW, 2)}


@pytest.fixture(scope="module")
def mixx_b_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding a (fake) Mixx B table whose every value is 99.0."""
    directory = tmp_path_factory.mktemp("policies-mixx-cache")
    mixx = Variant(MIXX_B)
    data = np.full(Layout.of(mixx).size, 99.0)
    write_table(directory / table_filename(mixx, False), mixx, False, data, 99.0)
    return directory


def test_cli_policies_takes_a_layout(mixx_b_cache: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(mixx_b_cache))
    assert main(["policies", "--layout", "mixx-b", "--policy", "optimal", "--json",
                 "--quiet"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["layout"] == "mixx-b" and row["expected_score"] == 99.0 and row["loss"] == 0
    assert main(["policies", "--layout", "mixx-b", "--policy", "optimal", "--quiet"]) == 0
    assert "mixx-b sheet" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:  # names are read exactly (docs/notation.md)
        main(["policies", "--layout", "MIXX-B", "--policy", "optimal", "--quiet"])
    assert stop.value.code == 2 and "write 'mixx-b'" in capsys.readouterr().err


def test_cli_simulate_takes_a_layout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--layout", "mixx-b", "--policy", "seed-tips", "--games", "300",
                 "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["layout"] == "mixx-b" and out["games"] == 300
    # the same dice on the official sheet score otherwise
    assert main(["simulate", "--policy", "seed-tips", "--games", "300", "--json",
                 "--quiet"]) == 0
    official = json.loads(capsys.readouterr().out)
    assert official["layout"] == "official" and official["mean"] != out["mean"]


@pytest.mark.parametrize("command", ["policies", "distribution", "simulate"])
def test_cli_rejects_an_unknown_layout(command: str, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--layout", "mixx-c", "--quiet"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "mixx-c" in err and "Traceback" not in err
