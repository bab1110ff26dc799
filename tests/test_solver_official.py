"""The official game's table (slow: one full solve per ruleset option, then cached).

* Monte-Carlo: the optimal policy, played through the reference rules core
  (qwixx_math.rules) for 20,000 games, reproduces V(start) within 4 standard errors.
* On samples of the official table: a penalty never helps, dead states are
  worth their score minus the remaining penalties, and the value of a position
  is the expectation over all rolls of its best plan's value.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
from pathlib import Path

import pytest
from strategies import random_position

from qwixx_math.dice.outcomes import outcome_table
from qwixx_math.keys import RowState, SheetKey, decode_open_code, sheet_from_key
from qwixx_math.model import COLOURS, Sheet
from qwixx_math.rules import GameState, new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, cache_dir, solve

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
            state = state.play_plan(roll, table.best_plan(state, roll).plan)
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


def sample_positions(n: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    ruleset = Ruleset(players=1)
    return [random_position(rng, ruleset) for _ in range(n)]


def test_a_penalty_never_helps_on_samples(table: SolverTable) -> None:
    for state in sample_positions(2000, 1):
        sheet = state.sheets[0]
        for _ in range(sheet.penalties, 4):
            assert table.value(sheet) >= table.value(sheet.with_penalty())
            sheet = sheet.with_penalty()


def test_dead_positions_are_worth_their_score_minus_the_remaining_boxes(
    table: SolverTable,
) -> None:
    rng = random.Random(7)
    # up to 4 marks, the rightmost on the 10th number: only the last number is right of
    # it, and it needs 5 marks (R8); or a row another player closed, without marks
    dead_masks = [((1 << (m - 1)) - 1) | 1 << 9 for m in range(1, 5)] + [None]
    checked = 0
    for _ in range(500):
        choice = [rng.choice(dead_masks) for _ in COLOURS]
        masks = tuple(m or 0 for m in choice)
        closed = frozenset(c for c, m in zip(COLOURS, choice, strict=True) if m is None)
        sheet = Sheet((masks[0], masks[1], masks[2], masks[3]), rng.randrange(4))
        assert not any(sheet.allows(c, n) for c in COLOURS if c not in closed
                       for n in range(2, 13))
        if len(closed) >= 2:
            continue  # the game is over
        expected = sheet.score - 5 * (4 - sheet.penalties)
        assert table.value(sheet, closed) == pytest.approx(expected, abs=1e-9)
        checked += 1
    assert checked > 100


def test_values_are_the_expected_best_plan_over_all_rolls(table: SolverTable) -> None:
    """The kernel's turn against the rules core's: a position's value is the average
    over every roll of the best plan of the rules core, valued by the table."""
    ruleset = Ruleset(players=1, action2_after_game_end=table.action2_after_action1_end)
    positions = [
        ((RowState(None, 0), RowState(None, 0), RowState(None, 0), RowState(None, 0)), 3),
        ((RowState(6, 5), RowState(None, 8, True), RowState(3, 2), RowState(None, 0)), 1),
        ((RowState(9, 4), RowState(8, 5), RowState(9, 7), RowState(None, 9, True)), 2),
    ]
    for rows, p in positions:
        sheet, closed = sheet_from_key(SheetKey(rows, p).key)
        state = GameState(ruleset, (sheet,), closed=closed)
        total = 0.0
        weights = 0
        for roll, weight in outcome_table(state.dice_in_play).rolls():
            total += weight * table.best_plan(state, roll).value
            weights += weight
        assert weights == 6 ** (2 + len(state.dice_in_play))
        assert table.value(state) == pytest.approx(total / weights, abs=1e-9), rows


def test_every_state_of_the_stored_tables_is_finite(table: SolverTable) -> None:
    import numpy as np

    data = table.data
    assert np.isfinite(data).all()
    assert data.min() >= -20 and data.max() <= 4 * 78


def test_open_row_codes_cover_the_official_row() -> None:
    assert [decode_open_code(c) for c in (0, 1, 55)] == [(None, 0), (0, 1), (9, 10)]
