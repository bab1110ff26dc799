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

import functools
from collections.abc import Iterator

import numpy as np
import pytest

from qwixx_math.dice.outcomes import outcome_table
from qwixx_math.errors import ParseError
from qwixx_math.keys import key_space, sheet_from_key
from qwixx_math.model import Colour, Roll, Sheet, TurnPlan
from qwixx_math.rules import GameState, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, Variant, solve, symmetry_group
from qwixx_math.solver.engine import solve_tables

VARIANTS = [
    Variant.from_letters("ad", 5, 2, 3, 2),
    Variant.from_letters("aad", 3, 1, 2, 2),
    Variant.from_letters("adad", 3, 1, 2, 2),
    Variant.from_letters("aadd", 4, 2, 2, 2),
    Variant.from_letters("dda", 4, 0, 2, 1),
]
IDS = [v.key for v in VARIANTS]


def all_states(variant: Variant, solitaire: bool = False
               ) -> Iterator[tuple[Sheet, frozenset[Colour]]]:
    """Every sheet of the variant with the colours closed (one per compact key, finished
    games included): closed rows with any count, as when another player closed the row,
    or (``solitaire``) only rows this player locked."""
    for sheet, closed in _keyed_sheets(variant):
        if not solitaire or closed == sheet.locked:
            yield sheet, closed


@functools.lru_cache(maxsize=len(VARIANTS))
def _keyed_sheets(variant: Variant) -> tuple[tuple[Sheet, frozenset[Colour]], ...]:
    out = []
    for key in range(key_space(variant.sheet)):
        try:
            out.append(sheet_from_key(key, variant.sheet))
        except ParseError:
            continue  # no row has this code
    return tuple(out)


def is_over(variant: Variant, sheet: Sheet, closed: frozenset[Colour]) -> bool:
    return (len(closed) >= variant.closed_rows_to_end
            or sheet.penalties >= variant.penalty_boxes)


@pytest.fixture(scope="module", params=[False, True], ids=["a2end0", "a2end1"])
def tables(request: pytest.FixtureRequest) -> dict[Variant, SolverTable]:
    ruleset = Ruleset(players=1, action2_after_game_end=request.param)
    return {v: solve(ruleset, v, cache=False) for v in VARIANTS}


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_a_penalty_never_helps(tables: dict[Variant, SolverTable], variant: Variant) -> None:
    table = tables[variant]
    for sheet, closed in all_states(variant):
        if sheet.penalties < variant.penalty_boxes:
            assert table.value(sheet, closed) >= table.value(sheet.with_penalty(), closed), \
                (sheet, closed)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@pytest.mark.parametrize("a2", [False, True])
def test_symmetry_reduction_changes_nothing(variant: Variant, a2: bool) -> None:
    plain, _ = solve_tables(variant, a2, symmetry=False)
    reduced, _ = solve_tables(variant, a2, symmetry=True)
    assert not np.isnan(plain).any()
    assert np.abs(plain - reduced).max() <= 1e-12


def relabel(sheet: Sheet, g: tuple[int, ...], locks: tuple[Colour, ...]) -> Sheet:
    """``sheet`` (of a layout locked by ``locks``) with row i's marked positions moved to
    row g[i]."""
    masks = [0, 0, 0, 0]
    for i, colour in enumerate(locks):
        masks[locks[g[i]].index] = sheet.masks[colour.index]
    return Sheet((masks[0], masks[1], masks[2], masks[3]), sheet.penalties, sheet.layout)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_symmetric_states_have_equal_values(variant: Variant) -> None:
    plain, _ = solve_tables(variant, False, symmetry=False)
    table = SolverTable(variant, Ruleset(players=1), plain, float(plain[0]))
    group = symmetry_group(variant)
    assert len(group) > 1
    locks = variant.sheet.locks
    for sheet, _ in all_states(variant, solitaire=True):
        v = table.value(sheet)
        for g in group:
            assert abs(table.value(relabel(sheet, g, locks)) - v) <= 1e-12, (sheet, g)


def is_dead(sheet: Sheet, closed: frozenset[Colour]) -> bool:
    """No row can ever take another mark (whatever the dice)."""
    layout = sheet.layout
    return all(colour in closed or sheet.is_locked(colour)
               or not any(sheet.allows(colour, n) for n in layout.numbers[i])
               for i, colour in enumerate(layout.locks))


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_dead_states_are_worth_their_score_minus_the_remaining_penalties(
    tables: dict[Variant, SolverTable], variant: Variant
) -> None:
    table = tables[variant]
    dead = 0
    for sheet, closed in all_states(variant):
        if is_dead(sheet, closed):
            expected = sheet.score
            if not is_over(variant, sheet, closed | sheet.locked):
                expected -= 5 * (variant.penalty_boxes - sheet.penalties)
            assert table.value(sheet, closed) == pytest.approx(expected, abs=1e-9), sheet
            dead += 1
    assert dead > 0


@pytest.mark.parametrize("variant", VARIANTS[:2], ids=IDS[:2])
def test_value_is_the_expected_best_plan_over_the_rolls(
    tables: dict[Variant, SolverTable], variant: Variant
) -> None:
    """The kernel's turn against the rules core's: the table's value of a position is the
    average over every roll of the best plan the rules core offers, valued by the table."""
    table = tables[variant]
    ruleset = Ruleset(players=1, action2_after_game_end=table.action2_after_action1_end)
    checked = 0
    for sheet, closed in all_states(variant, solitaire=True):
        if is_over(variant, sheet, closed) or checked >= 12:
            continue
        if (sheet.total_marks + sheet.penalties) % 4:  # a spread-out sample of the states
            continue
        state = GameState(ruleset, (sheet,), closed=closed)
        expected = 0.0
        weights = 0
        for roll, weight in outcome_table(state.dice_in_play).rolls():
            plans = table.plan_values(state, roll)
            assert [pv.value for pv in plans] == sorted((pv.value for pv in plans), reverse=True)
            expected += weight * plans[0].value
            weights += weight
        assert weights == 6 ** (2 + len(state.dice_in_play))
        assert table.value(state) == pytest.approx(expected / weights, abs=1e-9)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_never_marking_scores_minus_five_per_box(
    tables: dict[Variant, SolverTable], variant: Variant
) -> None:
    table = tables[variant]
    ruleset = Ruleset(players=1, action2_after_game_end=table.action2_after_action1_end)
    state = new_game(ruleset=ruleset, layout=variant.sheet)
    roll = Roll((6, 6), tuple(6 if c in state.dice_in_play else None  # type: ignore[arg-type]
                              for c in Colour))
    while not state.is_over:
        state = state.play_plan(roll, TurnPlan())
    assert state.sheets[0].score == -5 * variant.penalty_boxes
    assert table.value(state) == -5 * variant.penalty_boxes
    assert table.start_value >= -5 * variant.penalty_boxes


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_closed_rows_of_any_count_add_their_points(
    tables: dict[Variant, SolverTable], variant: Variant
) -> None:
    """A row closed by someone else: its points are a constant on top of the rest."""
    table = tables[variant]
    first = variant.sheet.locks[0]
    closed = frozenset({first})
    base = table.value(Sheet.empty(variant.sheet), closed)
    counts = set()
    for sheet, shut in all_states(variant):
        if shut != closed or sheet.penalties or any(
                sheet.masks[c.index] for c in variant.sheet.locks[1:]):
            continue
        m = sheet.count(first)
        counts.add(m)
        got = table.value(sheet, closed)
        if variant.closed_rows_to_end == 1:
            assert got == sheet.score
        else:
            assert got == pytest.approx(base + m * (m + 1) // 2, abs=1e-12)
    assert {0, variant.max_marks} <= counts
