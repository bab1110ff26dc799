"""Exact policy evaluation across tables (issue 11): the optimal policy of an M-table
played at an N-table, in the table model, against plain Python.

* The compiled evaluation (:func:`evaluate_table_model`) equals the naive evaluator
  (every roll of an own turn and every white pair of another player's roll on its
  own, the Python policy deciding, exact Fractions) on every state and every level
  of small variants, to 1e-9, for M, N in 1..3.
* The N-table's optimal policy evaluated at its own table is the solver's table,
  on every state and level (N = 1..5; the official game in a slow test).
* The wrong strategy never beats the right one, and on these variants it loses.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from policies_naive import NaiveTableEvaluator, solitaire_states
from test_policies_helpers import table_value

from qwixx_math.errors import ParseError
from qwixx_math.policies import CrossValue, OptimalPolicy, PolicySpec, cross_value
from qwixx_math.policies.evaluate import evaluate_table_model, evaluate_tables
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, Variant, solve

TOLERANCE = 1e-9
# (letters, row length, lock threshold, penalty boxes, closed rows to end)
ONE_ROW = ("a", 6, 2, 3, 1)  # a passive close ends the game
SHORT = ("da", 3, 1, 2, 2)  # every row can close; a passive close may or may not end it
LARGER = ("ad", 4, 2, 2, 1)
EVERY_STATE = [ONE_ROW, SHORT, LARGER, ("aad", 2, 1, 2, 2), ("ad", 6, 3, 2, 2),
               ("aadd", 2, 1, 1, 2)]


@functools.lru_cache(maxsize=32)
def table(spec: tuple[str, int, int, int, int], a2: bool, players: int) -> SolverTable:
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    return solve(ruleset, Variant.from_letters(*spec), cache=False, players=players)


def evaluated(spec: tuple[str, int, int, int, int], a2: bool, policy_players: int,
              tables: tuple[int, ...]) -> dict[int, np.ndarray]:  # type: ignore[type-arg]
    ev = evaluate_table_model(Variant.from_letters(*spec), a2,
                              np.asarray(table(spec, a2, policy_players).data), policy_players,
                              tables)
    return ev.values


def check_against_naive(spec: tuple[str, int, int, int, int], a2: bool, policy_players: int,
                        players: int) -> None:
    variant = Variant.from_letters(*spec)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    values = evaluated(spec, a2, policy_players, (players,))[players]
    optimum = table(spec, a2, players)
    naive = NaiveTableEvaluator(OptimalPolicy(table(spec, a2, policy_players)), players, ruleset,
                                variant.sheet)
    level_size = optimum.layout.level_size
    checked = 0
    for state in solitaire_states(variant.sheet, ruleset):
        for before_me in range(players):
            level = values[before_me * level_size:(before_me + 1) * level_size]
            got = table_value(level, variant, state)
            expected = naive.value(state, before_me)
            assert abs(got - float(expected)) <= TOLERANCE, (state.describe(), before_me, got,
                                                              expected)
            checked += 1
    assert checked > 10
    assert not np.isnan(values).any()


# (variant, R15 option, M, N): the solitaire policy at tables, table policies solo,
# a table policy at a bigger table; the passive closes of SHORT (one case: on the rules
# core the naive evaluator takes ~5 s a SHORT case; every SHORT case runs in the slow run)
FAST_CASES = [
    (ONE_ROW, False, 1, 2), (ONE_ROW, False, 1, 3), (ONE_ROW, False, 2, 1),
    (ONE_ROW, False, 3, 1), (ONE_ROW, False, 2, 3), (ONE_ROW, True, 3, 2),
    (SHORT, False, 1, 2),
]
SLOW_CASES = [
    *((SHORT, a2, m, n) for a2 in (False, True) for m in (1, 2, 3) for n in (1, 2, 3)),
    (LARGER, False, 1, 3), (LARGER, False, 3, 1), (LARGER, True, 2, 3),
]


def _id(case: tuple[tuple[str, int, int, int, int], bool, int, int]) -> str:
    spec, a2, m, n = case
    return f"{'-'.join(map(str, spec))}-a2end{int(a2)}-M{m}-N{n}"


@pytest.mark.parametrize("case", FAST_CASES, ids=_id)
def test_cross_values_equal_the_naive_evaluator(
        case: tuple[tuple[str, int, int, int, int], bool, int, int]) -> None:
    check_against_naive(*case)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW_CASES, ids=_id)
def test_cross_values_equal_the_naive_evaluator_larger(
        case: tuple[tuple[str, int, int, int, int], bool, int, int]) -> None:
    check_against_naive(*case)


@pytest.mark.parametrize("a2", [False, True], ids=["a2end0", "a2end1"])
@pytest.mark.parametrize("spec", EVERY_STATE, ids=lambda s: "-".join(map(str, s)))
def test_table_policy_at_its_own_table_is_the_solver_table(
        spec: tuple[str, int, int, int, int], a2: bool) -> None:
    """V_pi of the argmax policy of the N-table, at the N-table, is the N-table, at every
    level (the solver's kernel and the policy engine share no arithmetic)."""
    for n in range(1, 6):
        values = evaluated(spec, a2, n, (n,))[n]
        assert np.max(np.abs(values - np.asarray(table(spec, a2, n).data))) <= TOLERANCE, n


def test_one_sweep_equals_one_table_at_a_time() -> None:
    """Several tables in one sweep share the plan choice and nothing else."""
    together = evaluated(SHORT, False, 2, (3, 1, 2))
    for n in (1, 2, 3):
        alone = evaluated(SHORT, False, 2, (n,))[n]
        assert np.array_equal(together[n], alone)


@pytest.mark.parametrize("spec", [SHORT, LARGER], ids=lambda s: "-".join(map(str, s)))
def test_solitaire_is_the_solitaire_evaluation(spec: tuple[str, int, int, int, int]) -> None:
    """M = N = 1 is today's evaluation of the optimal policy, to the last bit."""
    variant = Variant.from_letters(*spec)
    solo = evaluate_tables(PolicySpec.optimal(), variant, False,
                           np.asarray(table(spec, False, 1).data))
    assert np.array_equal(evaluated(spec, False, 1, (1,))[1], solo.values)


@pytest.mark.parametrize("spec", [SHORT, LARGER, ("ad", 6, 3, 2, 2)],
                         ids=lambda s: "-".join(map(str, s)))
def test_the_wrong_strategy_never_wins_and_here_loses(spec: tuple[str, int, int, int, int]
                                                      ) -> None:
    for m, n in [(1, 2), (1, 3), (2, 1), (3, 1), (2, 3), (3, 2)]:
        values = evaluated(spec, False, m, (n,))[n]
        optimum = np.asarray(table(spec, False, n).data)
        assert np.all(values <= optimum + TOLERANCE), (m, n)
        assert np.max(optimum - values) > 1e-6, (m, n)  # the policies really differ


def test_cross_value_api() -> None:
    variant = Variant.from_letters(*SHORT)
    result = cross_value(1, 3, variant=variant, cache=False, progress=False)
    assert isinstance(result, CrossValue)
    assert (result.policy_players, result.table_players) == (1, 3)
    assert result.seat_values == evaluate_table_model(
        variant, False, np.asarray(table(SHORT, False, 1).data), 1, (3,)).seat_values(3)
    assert result.optimal_seat_values == table(SHORT, False, 3).seat_values
    assert result.expected_score == result.seat_values[0]
    assert all(loss > 0 for loss in result.losses)
    same = cross_value(2, 2, variant=variant, cache=False, progress=False)
    assert same.seat_values == pytest.approx(same.optimal_seat_values, abs=TOLERANCE)


@pytest.mark.parametrize(("m", "n"), [(0, 2), (2, 6), (True, 2), (2, "3"), (1.0, 2)])
def test_players_outside_one_to_five_are_refused(m: object, n: object) -> None:
    with pytest.raises(ParseError, match="R3"):
        cross_value(m, n, variant=Variant.from_letters(*SHORT), cache=False)  # type: ignore[arg-type]


def test_bad_tables_are_refused() -> None:
    variant = Variant.from_letters(*SHORT)
    data = np.asarray(table(SHORT, False, 2).data)
    with pytest.raises(ParseError, match="R3"):
        evaluate_table_model(variant, False, data, 2, (2, 2))
    with pytest.raises(ParseError, match="R3"):
        evaluate_table_model(variant, False, data, 2, ())
    with pytest.raises(ParseError):  # the data of a 2-table is not a 3-table
        evaluate_table_model(variant, False, data, 3, (1,))


@pytest.mark.slow
def test_official_two_player_policy_is_the_two_player_table() -> None:
    """The identity on the official game (minutes): the 2-table's optimal policy at the
    2-table is the solver's 2-table on every state and level; solo it loses."""
    two = solve(Ruleset(players=1), Variant(), players=2)
    ev = evaluate_table_model(Variant(), False, np.asarray(two.data), 2, (1, 2))
    assert np.max(np.abs(ev.values[2] - np.asarray(two.data))) <= TOLERANCE
    solo = solve(Ruleset(players=1), Variant())
    assert ev.seat_values(1)[0] < solo.start_value
