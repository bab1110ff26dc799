"""Checks of the policy engine on every state of a small layout, shared by the tests of the
pads added to it (tests/test_policies_double.py: double cells; tests/test_policies_longo.py:
8-sided dice and two lock numbers).  No tests here.

Each check compares the compiled engine with a slow, obvious reference on the rules core:

* :func:`check_choices`: the engine's plans, priorities and choice equal the Python
  policies' (``ranked``) on a random roll of every state;
* :func:`check_sweep_weights`: which plan each roll leads to, by the sweep's integer
  weights, equals a count over every roll with the Python policy;
* :func:`check_values`: V_pi of the compiled backward evaluation equals the naive evaluator
  (tests/policies_naive.py: every roll through the rules core, exact Fractions) on every
  state, and never exceeds the solver's optimal value;
* :func:`check_optimal_values`: the optimal policy's V_pi is the solver's table on every
  state;
* :func:`check_distribution`: the forward score distribution equals the naive exact
  enumeration;
* :func:`check_simulator`: the simulator plays game by game what the Python policy plays.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from policies_naive import NaivePolicyEvaluator, naive_score_distribution, solitaire_states
from test_policies_engine import brute_force_counts
from test_policies_helpers import engine_roll, engine_weights, table_value

from qwixx_math.layouts import SheetLayout
from qwixx_math.policies import PolicySpec, PriorityPolicy
from qwixx_math.policies.distribution import forward_distribution
from qwixx_math.policies.evaluate import evaluate_tables
from qwixx_math.policies.simulate import play_game, roll_dice, simulate_tables
from qwixx_math.rules import random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, Variant, solve

__all__ = [
    "POLICIES",
    "TOLERANCE",
    "check_choices",
    "check_distribution",
    "check_optimal_values",
    "check_simulation_mean",
    "check_simulator",
    "check_sweep_weights",
    "check_values",
    "table_of",
]

TOLERANCE = 1e-9
POLICIES = ["optimal", "fewest-skips", "seed-tips", "threshold-0", "threshold-1"]

_TABLES: dict[tuple[SheetLayout, bool], SolverTable] = {}


def table_of(layout: SheetLayout, a2: bool) -> SolverTable:
    """The solitaire table of ``layout`` (solved once per test process; keyed by the layout
    itself, since the small layouts of several test files share names)."""
    key = (layout, a2)
    if key not in _TABLES:
        _TABLES[key] = solve(Ruleset(players=1, action2_after_game_end=a2), Variant(layout),
                             cache=False)
    return _TABLES[key]


def check_choices(layout: SheetLayout, seed: int) -> int:
    """Every policy's choice and priorities by the engine against ``PriorityPolicy.ranked``
    on a random roll (of the layout's dice) of every state, both R15 options; returns how
    many rolls were checked."""
    variant = Variant(layout)
    rng = random.Random(seed)
    checked = 0
    for a2 in (False, True):
        table = table_of(layout, a2)
        vstar = np.asarray(table.data)
        ruleset = Ruleset(players=1, action2_after_game_end=a2)
        for policy_name in POLICIES:
            spec = PolicySpec.parse(policy_name)
            policy = PriorityPolicy(spec, table)
            for state in solitaire_states(layout, ruleset):
                roll = random_roll(rng, state.dice_in_play, layout.faces)
                found, chosen = engine_roll(spec, variant, state, roll, vstar)
                ranked = policy.ranked(state, roll)
                assert chosen == ranked[0][0], (layout.name, policy_name, state.describe(),
                                                str(roll))
                assert {plan: h for plan, h, _ in ranked} == found
                checked += 1
    return checked


def check_sweep_weights(layout: SheetLayout, policy_name: str, samples: int, seed: int) -> int:
    """The sweep's integer weights (units of 1 / (F^2 * F^k)) of ``samples`` random states,
    both R15 options, against a count over all F^(2+k) rolls; returns how many states."""
    spec = PolicySpec.parse(policy_name)
    variant = Variant(layout)
    rng = random.Random(seed)
    checked = 0
    for a2 in (False, True):
        table = table_of(layout, a2)
        policy = PriorityPolicy(spec, table)
        states = list(solitaire_states(layout, Ruleset(players=1, action2_after_game_end=a2)))
        for state in rng.sample(states, samples):
            counts = engine_weights(spec, variant, state, np.asarray(table.data))
            assert counts == brute_force_counts(policy, state)
            assert sum(counts.values()) == layout.faces ** (2 + len(state.dice_in_play))
            checked += 1
    return checked


def check_values(layout: SheetLayout, a2: bool, policy_name: str,
                 complete: bool = False) -> int:
    """V_pi of the compiled evaluation against the naive evaluator on every state, never
    above the optimal value; returns how many states were checked.  ``complete``: every
    stored state has a value (single-cell rows: every code is reachable)."""
    variant = Variant(layout)
    table = table_of(layout, a2)
    spec = PolicySpec.parse(policy_name)
    ev = evaluate_tables(spec, variant, a2, np.asarray(table.data))
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    naive = NaivePolicyEvaluator(PriorityPolicy(spec, table), ruleset, layout)
    checked = 0
    for state in solitaire_states(layout, ruleset):
        expected = naive.value(state)
        got = table_value(ev.values, variant, state)
        assert abs(got - float(expected)) <= TOLERANCE, (layout.name, policy_name,
                                                         state.describe(), got, expected)
        assert got <= table_value(np.asarray(table.data), variant, state) + TOLERANCE
        checked += 1
    assert abs(ev.start_value - float(naive.value())) <= TOLERANCE
    assert not complete or not np.isnan(ev.values).any()
    return checked


def check_optimal_values(layout: SheetLayout, a2: bool) -> int:
    """The optimal policy's V_pi by the engine against the solver's table on every state
    (the layout stores codes no row reaches: neither side values them); returns how many
    states were checked."""
    variant = Variant(layout)
    table = table_of(layout, a2)
    data = np.asarray(table.data)
    ev = evaluate_tables(PolicySpec.optimal(), variant, a2, data)
    checked = 0
    for state in solitaire_states(layout, Ruleset(players=1, action2_after_game_end=a2)):
        assert abs(table_value(ev.values, variant, state)
                   - table_value(data, variant, state)) <= TOLERANCE, state.describe()
        checked += 1
    assert ev.start_value == pytest.approx(table.start_value, abs=TOLERANCE)
    return checked


def check_distribution(layout: SheetLayout, policy_name: str, a2: bool) -> None:
    """The forward distribution against the naive exact enumeration, to 1e-12 per score;
    its mean is the policy's exact value."""
    variant = Variant(layout)
    table = table_of(layout, a2)
    spec = PolicySpec.parse(policy_name)
    dist, reached = forward_distribution(spec, variant, a2, np.asarray(table.data))
    exact = naive_score_distribution(PriorityPolicy(spec, table),
                                     Ruleset(players=1, action2_after_game_end=a2), layout)
    assert sum(exact.values()) == 1 and reached > 0
    assert set(exact) <= set(dist.scores)
    for s, p in zip(dist.scores, dist.probabilities, strict=True):
        assert abs(p - float(exact.get(s, Fraction(0)))) <= 1e-12, (s, p, exact.get(s))
    ev = evaluate_tables(spec, variant, a2, np.asarray(table.data))
    assert dist.mean == pytest.approx(ev.start_value, abs=1e-9)


def check_simulator(layout: SheetLayout, policy_name: str, a2: bool, games: int,
                    seed: int) -> None:
    """The compiled simulator's score and turns against the rules core's game under the
    Python policy, game by game on the same dice."""
    variant = Variant(layout)
    table = table_of(layout, a2)
    spec = PolicySpec.parse(policy_name)
    dice = roll_dice(games, seed, variant)
    assert int(dice.max()) <= layout.faces
    sim = simulate_tables(spec, variant, a2, games, seed, np.asarray(table.data), dice)
    policy = PriorityPolicy(spec, table)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    for g in range(games):
        final = play_game(policy, ruleset, dice[g], layout)
        assert int(sim.scores[g]) == final.scores[0], (layout.name, g)
        assert int(sim.turns[g]) == final.turn + 1, (layout.name, g)


def check_simulation_mean(layout: SheetLayout, policy_name: str, seed: int) -> None:
    """40,000 simulated games (R15 default) against the policy's exact value: within four
    standard errors."""
    variant = Variant(layout)
    table = table_of(layout, False)
    spec = PolicySpec.parse(policy_name)
    exact = evaluate_tables(spec, variant, False, np.asarray(table.data)).start_value
    sim = simulate_tables(spec, variant, False, 40_000, seed, np.asarray(table.data))
    se = sim.sd / math.sqrt(sim.games)
    assert se > 0
    assert abs(sim.mean - exact) <= 4 * se, (sim.mean, exact, se)
