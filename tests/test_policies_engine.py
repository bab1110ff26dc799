"""The compiled engine's turn against the rules core's turn.

* ``roll_choice`` (the simulator's per-roll step, built on ``apply_plan``) lists
  exactly the rules core's ``legal_plans``, leading to the same positions
  (``GameState.play_plan``), on random official positions and on every state of
  small layouts, under both R15 options.
* The engine's choice and priorities equal the Python policies' (``ranked`` and
  ``choose`` on the rules core's GameState).
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
from policies_naive import solitaire_states
from strategies import random_position
from test_policies_helpers import (
    engine_roll,
    engine_state,
    engine_weights,
    flat_index,
)

from qwixx_math.dice import outcome_table
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import Roll, TurnPlan
from qwixx_math.policies import HeuristicPolicy, PolicySpec, PriorityPolicy, engine
from qwixx_math.policies.geometry import geometry
from qwixx_math.rules import GameState, legal_plans, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve

OFFICIAL = Variant()
HEURISTICS = [PolicySpec.fewest_skips(), PolicySpec.seed_tips(), PolicySpec.skip_threshold(0),
              PolicySpec.skip_threshold(2)]
SMALL = [("ad", 4, 2, 2, 1), ("aad", 2, 1, 2, 2), ("da", 4, 1, 2, 2), ("a", 6, 2, 3, 1),
         ("ad", 3, 0, 1, 2)]


def plain(spec: tuple[str, int, int, int, int]) -> SheetLayout:
    """The small one-colour layout of (letters, row length, lock threshold, penalty boxes,
    closed rows to end)."""
    return Variant.from_letters(*spec).sheet


def check_roll(variant: Variant, state: GameState, roll: Roll) -> None:
    """The engine's plans are the rules core's legal plans, and each leads where
    ``play_plan`` does."""
    found, _ = engine_roll(PolicySpec.fewest_skips(), variant, state, roll)
    plans = legal_plans(state, roll)
    assert set(found) == set(plans), (state.describe(), str(roll))
    lay = geometry(variant).layout
    layout = state.layout
    mask, codes = engine_state(variant, state)
    sheet = state.sheets[0]
    penalties = sheet.penalties
    steps = sheet.steps_crossed  # CS2: 0 on a sheet without step cells
    step_points = geometry(variant).step_points
    closed_before = sum(sheet.row_score(c) for c in state.closed)
    a2 = state.ruleset.action2_after_action1_end
    for plan in plans:
        if plan.penalty:
            continue
        q = [(-1, -1) if m is None else (layout.row_of[m.colour.index],
                                         layout.pos[m.colour.index][m.number])
             for m in (plan.action1, plan.action2)]
        status, succ, pts, final, new_mask, n, _, _ = engine.apply_plan(
            lay.offsets, lay.strides, lay.code_last, lay.code_marks, lay.row_next_code,
            lay.die_at, geometry(variant).points, geometry(variant).step_at,
            variant.penalty_boxes, variant.row_length, variant.lock_cells,
            variant.lock_threshold, variant.closed_rows_to_end, a2, mask, codes, q[0][0], q[0][1],
            q[1][0], q[1][1])
        assert n == len(plan.marks)
        after = state.play_plan(roll, plan)
        mine = after.sheets[0]
        if after.is_over:
            assert status == engine.GAME_OVER
            # the successor slot holds the step cells the plan crossed
            assert (final + int(step_points[steps + succ]) - engine.PENALTY * penalties
                    == mine.score - closed_before)
        else:
            assert status == engine.GOES_ON
            assert succ + steps * variant.penalty_boxes + penalties == flat_index(variant, after)
            assert new_mask == engine_state(variant, after)[0]
            assert pts == sum(mine.row_score(c) for c in after.closed) - closed_before


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), a2=st.booleans())
def test_engine_plans_equal_the_rules_core(seed: int, a2: bool) -> None:
    rng = random.Random(seed)
    state = random_position(rng, Ruleset(players=1, action2_after_game_end=a2))
    check_roll(OFFICIAL, state, random_roll(rng, state.dice_in_play))


@pytest.mark.parametrize("spec", SMALL, ids=lambda s: "-".join(map(str, s)))
def test_engine_plans_on_every_state_of_small_variants(spec: tuple[str, int, int, int, int]
                                                       ) -> None:
    assert check_rolls_on_every_state(plain(spec), 6, 3) > 100


def check_rolls_on_every_state(layout: SheetLayout, per_state: int, seed: int) -> int:
    """:func:`check_roll` on ``per_state`` random rolls of every state, both R15 options;
    returns how many were checked."""
    rng = random.Random(seed)
    variant = Variant(layout)
    checked = 0
    for a2 in (False, True):
        for state in solitaire_states(layout, Ruleset(players=1, action2_after_game_end=a2)):
            for _ in range(per_state):
                check_roll(variant, state, random_roll(rng, state.dice_in_play, layout.faces))
                checked += 1
    return checked


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), a2=st.booleans(), which=st.sampled_from(HEURISTICS))
def test_engine_choice_equals_the_python_policies(seed: int, a2: bool,
                                                  which: PolicySpec) -> None:
    rng = random.Random(seed)
    state = random_position(rng, Ruleset(players=1, action2_after_game_end=a2))
    roll = random_roll(rng, state.dice_in_play)
    policy = HeuristicPolicy(which)
    found, chosen = engine_roll(which, OFFICIAL, state, roll)
    ranked = policy.ranked(state, roll)
    assert chosen == ranked[0][0] == policy.choose(state, roll)
    assert {plan: h for plan, h, _ in ranked} == found  # the same priorities, plan by plan


def test_engine_choice_equals_the_optimal_python_policy_on_small_variants() -> None:
    for spec in SMALL:
        layout = plain(spec)
        variant = Variant(layout)
        for a2 in (False, True):
            ruleset = Ruleset(players=1, action2_after_game_end=a2)
            table = solve(ruleset, variant, cache=False)
            policy = PriorityPolicy(PolicySpec.optimal(), table)
            vstar = np.asarray(table.data)
            rng = random.Random(5)
            for state in solitaire_states(layout, ruleset):
                roll = random_roll(rng, state.dice_in_play)
                found, chosen = engine_roll(PolicySpec.optimal(), variant, state, roll, vstar)
                ranked = policy.ranked(state, roll)
                assert chosen == ranked[0][0]
                assert {plan: h for plan, h, _ in ranked} == found
                # the optimal choice is worth the best plan's value (the table after it)
                values = {plan: policy.table_value(after.sheets[0], after.closed)
                          for plan in legal_plans(state, roll)
                          for after in [state.play_plan(roll, plan)]}
                assert values[chosen] == pytest.approx(max(values.values()), abs=1e-12)


def brute_force_counts(policy: PriorityPolicy, state: GameState) -> Counter[TurnPlan]:
    """How many of the F^(2+k) rolls (F: the layout's faces) lead the Python policy to each
    plan (the canonical rolls of :func:`qwixx_math.dice.outcome_table`, each with its
    weight 1 or 2)."""
    counts: Counter[TurnPlan] = Counter()
    for roll, weight in outcome_table(state.dice_in_play, state.layout.faces).rolls():
        counts[policy.choose(state, roll)] += weight
    return counts


@pytest.mark.parametrize("which", ["optimal", "seed-tips", "threshold-1"])
def test_sweep_weights_equal_a_count_over_every_roll(which: str) -> None:
    """Which plan each roll leads to: the sweep's integer weights against all 6^(2+k) rolls."""
    spec = PolicySpec.parse(which)
    layout = plain(("ad", 6, 2, 2, 1))
    variant = Variant(layout)
    rng = random.Random(11)
    for a2 in (False, True):
        ruleset = Ruleset(players=1, action2_after_game_end=a2)
        table = solve(ruleset, variant, cache=False)
        policy = PriorityPolicy(spec, table)
        vstar = np.asarray(table.data)
        states = list(solitaire_states(layout, ruleset))
        for state in rng.sample(states, 12):
            assert engine_weights(spec, variant, state, vstar) == \
                brute_force_counts(policy, state)


def test_sweep_weights_on_official_positions() -> None:
    """Official positions late in the game (few open rows keep the brute force small)."""
    rng = random.Random(2)
    checked = 0
    spec = PolicySpec.seed_tips()
    while checked < 4:
        state = random_position(rng, Ruleset(players=1))
        if len(state.dice_in_play) > 3:
            continue
        assert engine_weights(spec, OFFICIAL, state) == \
            brute_force_counts(HeuristicPolicy(spec), state)
        checked += 1
