"""Policies on sheets with double cells (Qwixx Double B, VARIANTS.md §7, DB1-DB4; issue 34).

A double cell gives two crosses (DB1): the policy engine reads the solver's per-row codes
(``keys.row_codes``: (last position, crosses)), so R8/DB2 and the score (DB3) count
crosses; the heuristics' features count the cells marked and the numbers skipped, as on
every sheet.  On the small double-cell layouts of tests/test_solver_double.py:

* the compiled engine's plans and successors equal the rules core's on every state;
* its choice and priorities equal the Python policies' (``ranked``);
* V_pi of the compiled backward evaluation equals the naive evaluator
  (tests/policies_naive.py: every roll through the rules core, exact Fractions) on every
  state, and the optimal policy's V_pi is the solver's table on every state;
* the forward score distribution equals the naive exact enumeration;
* the simulator plays game by game what the Python policy plays, and its mean is within
  4 standard errors of the exact value (slow);
* ``keys.table_index`` finds every state's value where the solver's layout stores it;
* the API and the CLI take ``double-b`` (the optimal policy only from a cached table:
  no full solve in a test).
"""

from __future__ import annotations

import json

import pytest
from policies_checks import (
    check_choices,
    check_distribution,
    check_optimal_values,
    check_simulation_mean,
    check_simulator,
    check_values,
)
from test_policies_engine import check_rolls_on_every_state
from test_solver_double import LARGER, SMALL

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.keys import row_codes, table_index
from qwixx_math.layouts import DOUBLE_B, DOUBLE_B_ALT, LONGO, SheetLayout
from qwixx_math.model import Sheet
from qwixx_math.policies import PolicySpec, PriorityPolicy, policy_value, simulate
from qwixx_math.policies.simulate import play_game, roll_dice, simulate_tables
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve
from qwixx_math.solver.cache import cache_dir, table_filename
from qwixx_math.solver.layout import Layout


@pytest.mark.parametrize("name", list(SMALL))
def test_engine_plans_equal_the_rules_core_on_every_state(name: str) -> None:
    assert check_rolls_on_every_state(SMALL[name], 6, 5) > 200


@pytest.mark.parametrize("name", list(SMALL))
def test_engine_choice_equals_the_python_policies(name: str) -> None:
    assert check_choices(SMALL[name], 17) > 100


#: One case in the fast run (about 10 s each); every small layout, the optimal policy and
#: both R15 options in the slow run (the slow suite's budget is small: the choice tests
#: above check every policy's decisions on every state of every small layout).
VALUE_CASES = [("mixed", "seed-tips", True)]
VALUE_CASES_SLOW = [("uneven", "optimal", True), ("flip", "fewest-skips", False),
                    ("uneven", "threshold-1", False)]


@pytest.mark.parametrize(("name", "policy_name", "a2"), VALUE_CASES)
def test_policy_values_equal_the_naive_evaluator(name: str, policy_name: str, a2: bool) -> None:
    assert check_values(SMALL[name], a2, policy_name) > 20


@pytest.mark.slow
@pytest.mark.parametrize(("name", "policy_name", "a2"), VALUE_CASES_SLOW)
def test_policy_values_equal_the_naive_evaluator_every_policy(name: str, policy_name: str,
                                                              a2: bool) -> None:
    assert check_values(SMALL[name], a2, policy_name) > 20


@pytest.mark.parametrize(("name", "a2"), [(n, a2) for n in SMALL for a2 in (False, True)])
def test_optimal_policy_value_is_the_solver_value_on_every_state(name: str, a2: bool) -> None:
    assert check_optimal_values(SMALL[name], a2) > 40


@pytest.mark.parametrize(("name", "policy_name", "a2"), [
    pytest.param("uneven", "optimal", False, marks=pytest.mark.slow),
    pytest.param("flip", "seed-tips", True, marks=pytest.mark.slow)])
def test_distribution_equals_the_naive_enumeration(name: str, policy_name: str,
                                                   a2: bool) -> None:
    check_distribution(SMALL[name], policy_name, a2)


@pytest.mark.parametrize(("name", "policy_name", "a2"), [
    ("uneven", "seed-tips", True), ("flip", "optimal", False), ("mixed", "threshold-1", False)])
def test_simulator_plays_what_the_python_policy_plays(name: str, policy_name: str,
                                                      a2: bool) -> None:
    check_simulator(SMALL[name], policy_name, a2, 150, 8)


@pytest.mark.slow
@pytest.mark.parametrize("policy_name", ["optimal", "seed-tips"])
def test_simulation_mean_within_four_standard_errors(policy_name: str) -> None:
    """Monte-Carlo play on a three-row double-cell sheet against its exact value."""
    check_simulation_mean(LARGER["three-rows"], policy_name, 21)


@pytest.mark.parametrize("layout", [DOUBLE_B, DOUBLE_B_ALT, LONGO], ids=lambda x: x.name)
def test_table_index_round_trips_the_row_codes(layout: SheetLayout) -> None:
    """Every open code of every row (its smallest mask): ``table_index`` puts the sheet at
    ``offsets + sum(strides * code) + penalties`` of the solver's layout, with the
    per-layout codes (a double cell counting two crosses, DB1; Longo's rows of 15 cells
    and two lock numbers, LG1, LG2), one index per (row, code), and its crosses are the
    code's."""
    lay = Layout.of(Variant(layout))
    offsets = [int(x) for x in lay.offsets]
    strides = [[int(x) for x in row] for row in lay.strides]
    codes = row_codes(layout)
    seen = set()
    for r, colour in enumerate(layout.locks):
        for code, example in enumerate(codes.examples[r]):
            if example < 0:
                continue
            masks = [0, 0, 0, 0]
            masks[colour.index] = example
            sheet = Sheet(tuple(masks), 1, layout=layout)  # type: ignore[arg-type]
            index = table_index(sheet, 0, offsets, strides)
            assert index == offsets[0] + strides[0][r] * code + 1
            assert code == 0 or lay.code_marks[code] == sheet.count(colour)
            seen.add(index)
    assert len(seen) == sum(sum(v) for v in codes.valid) - (layout.rows - 1)  # empty: one


def test_the_policies_refuse_chains() -> None:
    """(Longo's refusal of lucky numbers, LG3: tests/test_policies_longo.py; step cells are
    played: tests/test_policies_steps.py.)"""
    with pytest.raises(ParseError, match="CC1"):
        policy_value("seed-tips", layout="connected-chain", cache=False)


def test_cli_policies_on_double_b(capsys: pytest.CaptureFixture[str]) -> None:
    """``qwixx-math policies --layout double-b --policy optimal`` reads the Double B table
    from the cache (skipped unless it is there: a fast test never solves the pad)."""
    variant = Variant(DOUBLE_B)
    if not (cache_dir() / table_filename(variant, False)).exists():
        pytest.skip("the double-b table is not in the cache")
    table = solve(Ruleset(players=1), variant, progress=False)
    assert main(["policies", "--layout", "double-b", "--policy", "optimal", "--json",
                 "--quiet"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["layout"] == "double-b" and row["loss"] == 0
    assert row["expected_score"] == pytest.approx(table.start_value, abs=1e-9)


def test_simulate_on_double_b_through_the_api_and_the_cli(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The heuristics need no table: the simulator plays the published pad."""
    sim = simulate("seed-tips", 2_000, 3, layout="double-b", cache=False)
    assert sim.games == 2_000 and 0 < sim.mean < 16 * 17 // 2 * 4
    # the same dice score otherwise on the official sheet (the double cells count)
    official = simulate("seed-tips", 2_000, 3, cache=False)
    assert official.mean != sim.mean
    assert main(["simulate", "--layout", "double-b", "--policy", "fewest-skips", "--games",
                 "300", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["layout"] == "double-b" and out["games"] == 300


def test_the_python_policy_plays_double_b_as_the_engine() -> None:
    """Game by game on the published pad (no table: a heuristic)."""
    variant = Variant(DOUBLE_B)
    spec = PolicySpec.seed_tips()
    dice = roll_dice(40, 5, variant)
    sim = simulate_tables(spec, variant, False, 40, 5, None, dice)
    policy = PriorityPolicy(spec)
    for g in range(40):
        final = play_game(policy, Ruleset(players=1), dice[g], DOUBLE_B)
        assert int(sim.scores[g]) == final.scores[0], g
