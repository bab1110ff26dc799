"""Exact policy values and score distributions against plain-Python references.

* The compiled backward evaluation V_pi equals the naive evaluator (every roll of
  the dice on its own, the Python policy choosing and the rules core playing,
  exact Fractions) on every state of small variants, to 1e-9, for the optimal
  policy and every heuristic, under both R15 options.
* For the optimal policy V_pi equals the solver's V* on every state.
* The forward-propagated score distribution equals the naive exact enumeration
  (Fractions) score by score, sums to 1 and has mean V_pi(start).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from policies_naive import (
    NaivePolicyEvaluator,
    naive_score_distribution,
    solitaire_states,
)
from test_policies_helpers import table_value

from qwixx_math.policies import PolicySpec, PriorityPolicy
from qwixx_math.policies.distribution import forward_distribution
from qwixx_math.policies.evaluate import evaluate_tables
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, Variant, solve

TOLERANCE = 1e-9
POLICIES = ["optimal", "fewest-skips", "seed-tips", "threshold-0", "threshold-1"]
# (letters, row length, lock threshold, penalty boxes, closed rows to end)
FAST = [("ad", 3, 0, 1, 2), ("a", 6, 2, 3, 1)]
SLOW = [("ad", 4, 2, 2, 1), ("aad", 2, 1, 2, 2), ("da", 4, 1, 2, 2), ("ad", 6, 2, 2, 1)]
# for the optimal policy only (no naive evaluator needed): larger variants
OPTIMAL_EVERY_STATE = [("ad", 4, 2, 2, 1), ("aad", 2, 1, 2, 2), ("da", 4, 1, 2, 2),
                       ("ad", 6, 3, 2, 2), ("aad", 3, 1, 1, 2), ("ada", 3, 2, 2, 1),
                       ("aadd", 2, 1, 1, 2), ("ad", 8, 3, 3, 2)]


def table_of(spec: tuple[str, int, int, int, int], a2: bool) -> tuple[Variant, Ruleset,
                                                                      SolverTable]:
    variant = Variant.from_letters(*spec)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    return variant, ruleset, solve(ruleset, variant, cache=False)


def check_values(spec: tuple[str, int, int, int, int], a2: bool, name: str) -> None:
    variant, ruleset, table = table_of(spec, a2)
    policy_spec = PolicySpec.parse(name)
    ev = evaluate_tables(policy_spec, variant, a2, np.asarray(table.data))
    naive = NaivePolicyEvaluator(PriorityPolicy(policy_spec, table), ruleset, variant.sheet)
    checked = 0
    for state in solitaire_states(variant.sheet, ruleset):
        expected = naive.value(state)
        got = table_value(ev.values, variant, state)
        assert abs(got - float(expected)) <= TOLERANCE, (state.describe(), got, expected)
        # never better than optimal play
        assert got <= table_value(np.asarray(table.data), variant, state) + TOLERANCE
        checked += 1
    assert checked > 10
    assert not np.isnan(ev.values).any()


def check_distribution(spec: tuple[str, int, int, int, int], a2: bool, name: str) -> None:
    variant, ruleset, table = table_of(spec, a2)
    policy_spec = PolicySpec.parse(name)
    dist, reached = forward_distribution(policy_spec, variant, a2, np.asarray(table.data))
    exact = naive_score_distribution(PriorityPolicy(policy_spec, table), ruleset,
                                     variant.sheet)
    assert sum(exact.values()) == 1  # exact rationals
    assert reached > 0
    for s, p in zip(dist.scores, dist.probabilities, strict=True):
        assert abs(p - float(exact.get(s, Fraction(0)))) <= 1e-12, (s, p, exact.get(s))
    assert abs(dist.total - 1) <= 1e-12
    ev = evaluate_tables(policy_spec, variant, a2, np.asarray(table.data))
    assert dist.mean == pytest.approx(ev.start_value, abs=1e-9)
    exact_mean = sum(s * p for s, p in exact.items())
    assert dist.mean == pytest.approx(float(exact_mean), abs=1e-12)
    exact_sd = math.sqrt(float(sum((s - exact_mean) ** 2 * p for s, p in exact.items())))
    assert dist.sd == pytest.approx(exact_sd, abs=1e-9)


# (variant, policy, R15 option): every policy on the one-row variant, the others sampled
FAST_CASES = [
    *((FAST[1], name, a2) for name in POLICIES for a2 in (False, True)),
    (FAST[0], "optimal", False), (FAST[0], "seed-tips", True), (FAST[0], "threshold-1", False),
]


@pytest.mark.parametrize(("spec", "name", "a2"), FAST_CASES,
                         ids=lambda x: "-".join(map(str, x)) if isinstance(x, tuple) else str(x))
def test_policy_values_equal_the_naive_evaluator(spec: tuple[str, int, int, int, int],
                                                 name: str, a2: bool) -> None:
    check_values(spec, a2, name)


@pytest.mark.parametrize(("spec", "name", "a2"),
                         [(FAST[1], "optimal", False), (FAST[1], "seed-tips", True),
                          (FAST[1], "threshold-1", False), (FAST[0], "optimal", True),
                          (FAST[0], "fewest-skips", False)],
                         ids=lambda x: "-".join(map(str, x)) if isinstance(x, tuple) else str(x))
def test_distribution_equals_the_naive_enumeration(spec: tuple[str, int, int, int, int],
                                                   name: str, a2: bool) -> None:
    check_distribution(spec, a2, name)


@pytest.mark.parametrize("a2", [False, True], ids=["a2end0", "a2end1"])
@pytest.mark.parametrize("spec", OPTIMAL_EVERY_STATE, ids=lambda s: "-".join(map(str, s)))
def test_optimal_policy_value_is_the_solver_value_on_every_state(
        spec: tuple[str, int, int, int, int], a2: bool) -> None:
    """V_pi of the argmax policy of V* is V* (the two kernels share no arithmetic)."""
    variant, _, table = table_of(spec, a2)
    ev = evaluate_tables(PolicySpec.optimal(), variant, a2, np.asarray(table.data))
    assert np.max(np.abs(ev.values - np.asarray(table.data))) <= TOLERANCE
    assert ev.start_value == pytest.approx(table.start_value, abs=TOLERANCE)


def test_heuristics_differ_from_each_other_and_from_optimal() -> None:
    """The variants above are big enough for the policies to disagree (so the tests bite)."""
    variant, _, table = table_of(("a", 6, 2, 3, 1), False)
    values = {name: evaluate_tables(PolicySpec.parse(name), variant, False,
                                    np.asarray(table.data)).start_value for name in POLICIES}
    assert len({round(v, 9) for v in values.values()}) == len(POLICIES)
    assert all(values[n] < values["optimal"] for n in POLICIES if n != "optimal")


# slow: every policy under the official R15 option, two under the other, on three more
# variants; the heuristics disagree most on the longer rows of the last one
SLOW_CASES = [
    *((spec, name, False) for spec in SLOW[:3] for name in POLICIES),
    *((spec, name, True) for spec in SLOW[:3] for name in ("optimal", "seed-tips")),
    (SLOW[3], "seed-tips", False), (SLOW[3], "threshold-1", True),
]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "name", "a2"), SLOW_CASES,
                         ids=lambda x: "-".join(map(str, x)) if isinstance(x, tuple) else str(x))
def test_policy_values_equal_the_naive_evaluator_larger(spec: tuple[str, int, int, int, int],
                                                        name: str, a2: bool) -> None:
    check_values(spec, a2, name)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "name", "a2"),
                         [(spec, name, a2) for spec in SLOW[:2]
                          for name in ("optimal", "seed-tips", "threshold-1")
                          for a2 in (False, True)],
                         ids=lambda x: "-".join(map(str, x)) if isinstance(x, tuple) else str(x))
def test_distribution_equals_the_naive_enumeration_larger(
        spec: tuple[str, int, int, int, int], name: str, a2: bool) -> None:
    check_distribution(spec, a2, name)
