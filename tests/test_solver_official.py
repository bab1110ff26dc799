"""The official game's table (slow: one full solve per ruleset option, then cached).

* Monte-Carlo: the optimal policy, played through the reference rules core
  (qwixx_math.rules) for 20,000 games, reproduces V(start) within 4 standard errors.
* On samples of the official table: a penalty never helps, dead states are
  worth their score minus the remaining penalties, and the value of a position
  is the expectation over all rolls of its best plan's value.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import random
import statistics
from pathlib import Path

import pytest
from test_solver_turns import random_position, rows_of, solver_roll

from qwixx_math.model import MARKS
from qwixx_math.model import TurnPlan as CoreTurnPlan
from qwixx_math.rules import new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import RowState, SolverTable, Variant, cache_dir, solve
from qwixx_math.solver.plans import is_game_over, mark_row
from qwixx_math.solver.state import decode_row, score

pytestmark = pytest.mark.slow

GAMES = 10_000


@pytest.fixture(scope="module")
def cache() -> Path:
    """The shared table cache (QWIXX_MATH_CACHE or the user cache), as every official test
    uses: a private copy would cost a 20 s solve and 337 MB per ruleset option."""
    return cache_dir()


@pytest.fixture(scope="module", params=[False, True], ids=["a2end0", "a2end1"])
def table(request: pytest.FixtureRequest, cache: Path) -> SolverTable:
    return solve(Ruleset(players=1, action2_after_game_end=request.param), cache=cache)


def test_start_values(cache: Path) -> None:
    off = solve(Ruleset(players=1), cache=cache).start_value
    on = solve(Ruleset(players=1, action2_after_game_end=True), cache=cache).start_value
    assert 100 < off < on < 130  # more choice never hurts
    # regression guard: the figures docs/solver.md reports
    assert off == pytest.approx(115.483126, abs=5e-7)
    assert on == pytest.approx(115.910815, abs=5e-7)


def _play(args: tuple[str, bool, int, int]) -> list[int]:
    """Play ``games`` solitaire games with the table's best plans through the rules core."""
    directory, a2, seed, games = args
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    table = solve(ruleset, cache=directory)
    assert table.loaded
    rng = random.Random(seed)
    scores = []
    for _ in range(games):
        state = new_game(ruleset=ruleset)
        while not state.is_over:
            roll = random_roll(rng, state.dice_in_play)
            sheet = state.sheets[0]
            plan = table.best_plan(rows_of(sheet), sheet.penalties, solver_roll(roll)).plan
            a1 = None if plan.action1 is None else MARKS[plan.action1[0]][plan.action1[1]]
            a2_mark = None if plan.action2 is None else MARKS[plan.action2[0]][plan.action2[1]]
            state = state.play_plan(roll, CoreTurnPlan(a1, a2_mark))
        scores.append(state.scores[0])
    return scores


def test_monte_carlo_reproduces_the_start_value(table: SolverTable, cache: Path) -> None:
    a2 = table.action2_after_action1_end
    jobs = [(str(cache), a2, seed, GAMES // 2) for seed in (2024, 2025)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        scores = [s for part in pool.map(_play, jobs) for s in part]
    assert len(scores) == GAMES
    mean = statistics.fmean(scores)
    standard_error = statistics.stdev(scores) / math.sqrt(len(scores))
    assert abs(mean - table.start_value) <= 4 * standard_error, (mean, standard_error)


def sample_positions(n: int, seed: int) -> list[tuple[tuple[RowState, ...], int]]:
    rng = random.Random(seed)
    ruleset = Ruleset(players=1)
    out = []
    while len(out) < n:
        state = random_position(rng, ruleset)
        out.append((rows_of(state.sheets[0]), state.sheets[0].penalties))
    return out


def test_a_penalty_never_helps_on_samples(table: SolverTable) -> None:
    for rows, p in sample_positions(2000, 1):
        for q in range(p, 4):
            assert table.value(rows, q) >= table.value(rows, q + 1)


def test_dead_positions_are_worth_their_score_minus_the_remaining_boxes(
    table: SolverTable,
) -> None:
    variant = Variant()
    rng = random.Random(7)
    dead_rows = [RowState(marks=m, last=9) for m in range(1, 5)] + [RowState.locked(0)]
    checked = 0
    for _ in range(500):
        rows = tuple(rng.choice(dead_rows) for _ in range(4))
        p = rng.randrange(4)
        assert all(
            r.closed or all(mark_row(variant, r, q) is None for q in range(11)) for r in rows
        )
        if is_game_over(variant, rows, p):
            continue
        assert table.value(rows, p) == pytest.approx(score(rows, 4), abs=1e-9)
        checked += 1
    assert checked > 100


def test_values_are_the_expected_best_plan_over_all_rolls(table: SolverTable) -> None:
    positions = [
        ((RowState(), RowState(), RowState(), RowState()), 3),
        ((RowState.open(6, 5), RowState.locked(8), RowState.open(3, 2), RowState()), 1),
        ((RowState.open(9, 4), RowState.open(8, 5), RowState.open(9, 7), RowState.locked(9)), 2),
    ]
    for rows, p in positions:
        open_rows = [i for i, r in enumerate(rows) if not r.closed]
        total = 0.0
        for w1, w2 in itertools.combinations_with_replacement(range(1, 7), 2):
            weight = 1 if w1 == w2 else 2
            for dice in itertools.product(range(1, 7), repeat=len(open_rows)):
                roll = (w1, w2, dict(zip(open_rows, dice, strict=True)))
                total += weight * table.best_plan(rows, p, roll).value
        expected = total / (36 * 6 ** len(open_rows))
        assert table.value(rows, p) == pytest.approx(expected, abs=1e-9), rows


def test_every_state_of_the_stored_tables_is_finite(table: SolverTable) -> None:
    import numpy as np

    data = table.data
    assert np.isfinite(data).all()
    assert data.min() >= -20 and data.max() <= 4 * 78


def test_open_row_codes_cover_the_official_row() -> None:
    assert [decode_row(c) for c in (0, 1, 55)] == [(None, 0), (0, 1), (9, 10)]
