"""Structural properties of the solved values, exhaustively on small variants.

* V(state) >= V(the same state with one more penalty);
* states related by a symmetry of the variant have equal values, checked on a
  solve that does not use the symmetry (so the check is not circular), and the
  symmetric solve equals it on every state;
* a state in which no mark can ever be made again is worth its score minus 5
  per remaining penalty box;
* the value is the expectation over the rolls of the best plan's value;
* never marking scores -5 * penalty_boxes, and optimal play does no worse.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest

from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import RowState, SolverTable, Variant, solve, symmetry_group
from qwixx_math.solver.engine import solve_tables
from qwixx_math.solver.plans import all_rolls, is_game_over, mark_row, turn_outcomes
from qwixx_math.solver.state import decode_row, score

VARIANTS = [
    Variant.from_letters("ad", 5, 2, 3, 2),
    Variant.from_letters("aad", 3, 1, 2, 2),
    Variant.from_letters("adad", 3, 1, 2, 2),
    Variant.from_letters("aadd", 4, 2, 2, 2),
    Variant.from_letters("dda", 4, 0, 2, 1),
]
IDS = [v.key for v in VARIANTS]


def row_choices(variant: Variant, closed_counts: range | None = None) -> list[RowState]:
    """Every open row state, and closed rows with the given counts (default: any count,
    as when another player closed the row)."""
    if closed_counts is None:
        closed_counts = range(variant.max_marks + 1)
    out = [RowState(marks=m, last=last) for last, m in map(decode_row, range(variant.open_codes))]
    out += [RowState.locked(m) for m in closed_counts]
    return out


def all_states(
    variant: Variant, closed_counts: range | None = None
) -> Iterator[tuple[tuple[RowState, ...], int]]:
    for rows in itertools.product(row_choices(variant, closed_counts), repeat=variant.rows):
        for p in range(variant.penalty_boxes + 1):
            yield rows, p


@pytest.fixture(scope="module", params=[False, True], ids=["a2end0", "a2end1"])
def tables(request: pytest.FixtureRequest) -> dict[Variant, SolverTable]:
    ruleset = Ruleset(players=1, action2_after_game_end=request.param)
    return {v: solve(ruleset, v, cache=False) for v in VARIANTS}


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_a_penalty_never_helps(tables: dict[Variant, SolverTable], variant: Variant) -> None:
    table = tables[variant]
    for rows, p in all_states(variant):
        if p < variant.penalty_boxes:
            assert table.value(rows, p) >= table.value(rows, p + 1), (rows, p)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@pytest.mark.parametrize("a2", [False, True])
def test_symmetry_reduction_changes_nothing(variant: Variant, a2: bool) -> None:
    plain, _ = solve_tables(variant, a2, symmetry=False)
    reduced, _ = solve_tables(variant, a2, symmetry=True)
    assert not np.isnan(plain).any()
    assert np.abs(plain - reduced).max() <= 1e-12


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_symmetric_states_have_equal_values(variant: Variant) -> None:
    plain, _ = solve_tables(variant, False, symmetry=False)
    table = SolverTable(variant, Ruleset(players=1), plain, float(plain[0]))
    group = symmetry_group(variant)
    assert len(group) > 1
    for rows, p in all_states(variant, range(variant.lock_threshold + 2, variant.max_marks + 1)):
        v = table.value(rows, p)
        for g in group:
            image = [RowState()] * variant.rows
            for i, j in enumerate(g):
                image[j] = rows[i]
            assert table.value(image, p) == pytest.approx(v, abs=1e-12), (rows, g)


def is_dead(variant: Variant, rows: tuple[RowState, ...]) -> bool:
    """No row can ever take another mark (whatever the dice)."""
    return all(
        r.closed or all(mark_row(variant, r, q) is None for q in range(variant.row_length))
        for r in rows
    )


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_dead_states_are_worth_their_score_minus_the_remaining_penalties(
    tables: dict[Variant, SolverTable], variant: Variant
) -> None:
    table = tables[variant]
    dead = 0
    for rows, p in all_states(variant):
        if is_dead(variant, rows):
            expected = score(rows, variant.penalty_boxes) if not is_game_over(
                variant, rows, p) else score(rows, p)
            assert table.value(rows, p) == pytest.approx(expected, abs=1e-9), (rows, p)
            dead += 1
    assert dead > 0


@pytest.mark.parametrize("variant", VARIANTS[:2], ids=IDS[:2])
def test_value_is_the_expected_best_plan_over_the_rolls(
    tables: dict[Variant, SolverTable], variant: Variant
) -> None:
    table = tables[variant]
    checked = 0
    for rows, p in all_states(variant):
        if is_game_over(variant, rows, p) or checked >= 25:
            continue
        if (sum(r.marks for r in rows) + p) % 4:  # a spread-out sample of the states
            continue
        expected = 0.0
        weight = 1.0 / 6 ** (2 + sum(not r.closed for r in rows))
        for roll in all_rolls(rows):
            plans = table.plan_values(rows, p, roll)
            assert [pv.value for pv in plans] == sorted((pv.value for pv in plans), reverse=True)
            expected += weight * plans[0].value
        assert table.value(rows, p) == pytest.approx(expected, abs=1e-9)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_never_marking_scores_minus_five_per_box(
    tables: dict[Variant, SolverTable], variant: Variant
) -> None:
    table = tables[variant]
    rows: tuple[RowState, ...] = (RowState(),) * variant.rows
    p = 0
    roll = (6, 6, dict.fromkeys(range(variant.rows), 6))
    while not is_game_over(variant, rows, p):
        (penalty,) = [o for o in turn_outcomes(variant, table.action2_after_action1_end,
                                               rows, p, roll) if o.plan.is_penalty]
        rows, p = penalty.rows, penalty.penalties
    assert score(rows, p) == -5 * variant.penalty_boxes
    assert table.value(rows, p) == -5 * variant.penalty_boxes
    assert table.start_value >= -5 * variant.penalty_boxes


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_closed_rows_of_any_count_add_their_points(
    tables: dict[Variant, SolverTable], variant: Variant
) -> None:
    """A row closed by someone else: its points are a constant on top of the rest."""
    table = tables[variant]
    others = (RowState(),) * (variant.rows - 1)
    base = table.value((RowState.locked(0), *others), 0)
    for m in range(variant.max_marks + 1):
        got = table.value((RowState.locked(m), *others), 0)
        if variant.closed_rows_to_end == 1:
            assert got == score((RowState.locked(m), *others), 0)
        else:
            assert got == pytest.approx(base + m * (m + 1) // 2, abs=1e-12)
