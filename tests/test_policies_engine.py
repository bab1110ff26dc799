"""The compiled engine's turn against the solver's plain-Python turn and the rules core.

* ``roll_choice`` (the simulator's per-roll step, built on ``apply_plan``) lists
  exactly the plans of ``solver.plans.turn_outcomes`` and of the rules core's
  ``legal_plans``, leading to the same states, on random official positions and
  on every state of small variants.
* The engine's choice equals the Python policies' choice (``choose_rows`` on the
  solver's representation, ``choose`` on the rules core's GameState).
* The per-state weights of the expected-maximum sweep (which plan each of the
  36 * 6^k rolls leads to) equal a brute-force count over every roll with the
  Python policy.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_policies_helpers import engine_roll, engine_weights, flat_index, state_of
from test_solver_turns import random_position, rows_of, solver_plan, solver_roll

from qwixx_math.policies import HeuristicPolicy, PolicySpec, PriorityPolicy, engine
from qwixx_math.policies.geometry import geometry
from qwixx_math.rules import legal_plans, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, RowState, Variant, solve, turn_outcomes
from qwixx_math.solver.plans import all_rolls
from qwixx_math.solver.state import score

OFFICIAL = Variant()
HEURISTICS = [PolicySpec.fewest_skips(), PolicySpec.seed_tips(), PolicySpec.skip_threshold(0),
              PolicySpec.skip_threshold(2)]
SMALL = [("ad", 4, 2, 2, 1), ("aad", 2, 1, 2, 2), ("da", 4, 1, 2, 2), ("a", 6, 2, 3, 1),
         ("ad", 3, 0, 1, 2)]


def check_roll(variant: Variant, a2: bool, rows: tuple[RowState, ...], penalties: int,
               roll: tuple[int, int, dict[int, int]]) -> None:
    """The engine's plans and successors equal turn_outcomes'."""
    outcomes = {o.plan: o for o in turn_outcomes(variant, a2, rows, penalties, roll)}
    found, _ = engine_roll(PolicySpec.fewest_skips(), variant, a2, rows, penalties, roll)
    assert set(found) == set(outcomes), (rows, penalties, roll)
    lay = geometry(variant).layout
    mask, codes = state_of(variant, rows)
    closed_before = sum(r.points for r in rows if r.closed)
    for plan, o in outcomes.items():
        if plan.is_penalty:
            continue
        marks = [m for m in (plan.action1, plan.action2) if m is not None]
        assert marks
        q = [(-1, -1) if m is None else (m[0], variant.position_of(*m))
             for m in (plan.action1, plan.action2)]
        status, succ, pts, final, new_mask, n, _, _ = engine.apply_plan(
            lay.offsets, lay.strides, lay.code_last, lay.code_marks, lay.next_code, lay.die_at,
            geometry(variant).points, variant.row_length, variant.lock_threshold,
            variant.closed_rows_to_end, a2, mask, codes, q[0][0], q[0][1], q[1][0], q[1][1])
        assert n == len(marks)
        if o.game_over:
            assert status == engine.GAME_OVER
            assert final - engine.PENALTY * penalties == score(o.rows, o.penalties) - closed_before
        else:
            assert status == engine.GOES_ON
            assert succ + penalties == flat_index(variant, o.rows, o.penalties)
            assert new_mask == state_of(variant, o.rows)[0]
            assert pts == sum(r.points for r in o.rows if r.closed) - closed_before


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), a2=st.booleans())
def test_engine_plans_equal_the_rules_core_and_turn_outcomes(seed: int, a2: bool) -> None:
    rng = random.Random(seed)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    state = random_position(rng, ruleset)
    roll = random_roll(rng, state.dice_in_play)
    sheet = state.sheets[0]
    rows = rows_of(sheet)
    found, _ = engine_roll(PolicySpec.fewest_skips(), OFFICIAL, a2, rows, sheet.penalties,
                           solver_roll(roll))
    assert set(found) == {solver_plan(p) for p in legal_plans(state, roll)}
    check_roll(OFFICIAL, a2, rows, sheet.penalties, solver_roll(roll))


@pytest.mark.parametrize("spec", SMALL, ids=lambda s: "-".join(map(str, s)))
def test_engine_plans_on_every_state_of_small_variants(spec: tuple[str, int, int, int, int]
                                                       ) -> None:
    assert check_rolls_on_every_state(Variant.from_letters(*spec), 6, 3) > 100


def check_rolls_on_every_state(variant: Variant, per_state: int, seed: int) -> int:
    """:func:`check_roll` on ``per_state`` random rolls of every state, both R15 options;
    returns how many were checked."""
    rng = random.Random(seed)
    checked = 0
    for a2 in (False, True):
        ruleset = Ruleset(players=1, action2_after_game_end=a2)
        for rows, penalties in NaiveSolver(variant, ruleset).states():
            open_rows = [i for i, r in enumerate(rows) if not r.closed]
            for _ in range(per_state):
                roll = (rng.randint(1, 6), rng.randint(1, 6),
                        {i: rng.randint(1, 6) for i in open_rows})
                check_roll(variant, a2, rows, penalties, roll)
                checked += 1
    return checked


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), a2=st.booleans(), which=st.sampled_from(HEURISTICS))
def test_engine_choice_equals_the_python_policies(seed: int, a2: bool,
                                                  which: PolicySpec) -> None:
    rng = random.Random(seed)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    state = random_position(rng, ruleset)
    roll = random_roll(rng, state.dice_in_play)
    sheet = state.sheets[0]
    rows = rows_of(sheet)
    policy = HeuristicPolicy(which)
    found, chosen = engine_roll(which, OFFICIAL, a2, rows, sheet.penalties, solver_roll(roll))
    ranked = policy.ranked_rows(OFFICIAL, a2, rows, sheet.penalties, solver_roll(roll))
    assert chosen == ranked[0][0].plan
    assert {o.plan: h for o, h, _ in ranked} == found  # the same priorities, plan by plan
    assert solver_plan(policy.choose(state, roll)) == chosen


def test_engine_choice_equals_the_optimal_python_policy_on_small_variants() -> None:
    for spec in SMALL:
        variant = Variant.from_letters(*spec)
        for a2 in (False, True):
            ruleset = Ruleset(players=1, action2_after_game_end=a2)
            table = solve(ruleset, variant, cache=False)
            policy = PriorityPolicy(PolicySpec.optimal(), table)
            vstar = np.asarray(table.data)
            rng = random.Random(5)
            for rows, penalties in NaiveSolver(variant, ruleset).states():
                open_rows = [i for i, r in enumerate(rows) if not r.closed]
                roll = (rng.randint(1, 6), rng.randint(1, 6),
                        {i: rng.randint(1, 6) for i in open_rows})
                _, chosen = engine_roll(PolicySpec.optimal(), variant, a2, rows, penalties,
                                        roll, vstar)
                best = table.best_plan(rows, penalties, roll)
                assert chosen == policy.choose_rows(variant, a2, rows, penalties, roll)
                # the optimal choice is worth the solver's best plan value
                values = {pv.plan: pv.value for pv in table.plan_values(rows, penalties, roll)}
                assert values[chosen] == pytest.approx(best.value, abs=1e-12)


def brute_force_counts(policy: PriorityPolicy, variant: Variant, a2: bool,
                       rows: tuple[RowState, ...], penalties: int) -> Counter[object]:
    counts: Counter[object] = Counter()
    for roll in all_rolls(rows):
        counts[policy.choose_rows(variant, a2, rows, penalties, roll)] += 1
    return counts


@pytest.mark.parametrize("which", ["optimal", "seed-tips", "threshold-1"])
def test_sweep_weights_equal_a_count_over_every_roll(which: str) -> None:
    """Which plan each roll leads to: the sweep's integer weights against all 6^(2+k) rolls."""
    spec = PolicySpec.parse(which)
    variant = Variant.from_letters("ad", 6, 2, 2, 1)
    rng = random.Random(11)
    for a2 in (False, True):
        ruleset = Ruleset(players=1, action2_after_game_end=a2)
        table = solve(ruleset, variant, cache=False)
        policy = PriorityPolicy(spec, table)
        vstar = np.asarray(table.data)
        states = list(NaiveSolver(variant, ruleset).states())
        for rows, penalties in rng.sample(states, 12):
            assert engine_weights(spec, variant, a2, rows, penalties, vstar) == \
                brute_force_counts(policy, variant, a2, rows, penalties)


def test_sweep_weights_on_official_positions() -> None:
    """Official positions late in the game (few open rows keep the brute force small)."""
    rng = random.Random(2)
    checked = 0
    while checked < 4:
        state = random_position(rng, Ruleset(players=1))
        if len(state.dice_in_play) > 3:
            continue
        rows = rows_of(state.sheets[0])
        spec = PolicySpec.seed_tips()
        assert engine_weights(spec, OFFICIAL, False, rows, state.sheets[0].penalties) == \
            brute_force_counts(HeuristicPolicy(spec), OFFICIAL, False, rows,
                               state.sheets[0].penalties)
        checked += 1
