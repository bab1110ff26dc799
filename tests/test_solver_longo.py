"""The exact solver on 8-sided dice with two lock numbers (Qwixx Longo, VARIANTS.md §8;
issue 34).

Dice have faces 1..8 (LG1): white sums and white + colour sums run 2..16, 36 unordered
white pairs, 8 faces per colour die.  The last two numbers of a row are lock numbers
(LG2): either needs ``lock_threshold`` crosses and crossing either closes the row, so a
row is open while its last mark is before them.  Checked here:

* the fast solver (with and without its symmetry reduction) against the naive reference
  solver, which plays every roll of 8-sided dice through the rules core, on **every**
  state of small 8-sided layouts with two lock numbers, both R15 options, to 1e-9;
* the row codes and sheet keys of such layouts (92 open codes per Longo row);
* the symmetry groups (the die flip is d -> 9 - d: 2..16 reads as 16..2);
* Monte-Carlo play of a small layout's optimal policy through the rules core (slow);
* the command line (``solve``, ``value``, ``advise``) on a small 8-sided layout;
* (lucky numbers, LG3-LG5: tests/test_solver_longo_lucky.py).

The full Longo solve takes minutes: benchmarks/bench_longo.py runs it.
"""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest
from hypothesis import given, settings
from test_review import optimal_game
from test_solver_double import check_key_round_trip, check_review, keyed_sheets
from test_solver_layouts import check_every_state

from qwixx_math.advice import Advisor
from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.keys import row_codes
from qwixx_math.layouts import LAYOUTS, LONGO, SheetLayout
from qwixx_math.model import COLOURS, Sheet
from qwixx_math.notation import parse_roll
from qwixx_math.rules import GameState
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve, symmetry_group
from qwixx_math.solver.variant import variant_or_layout

R, Y, G, B = COLOURS


def _row(colour: object, numbers: range) -> list[tuple[int, object]]:
    return [(n, colour) for n in numbers]


def longo_like(name: str, rows: list[list[tuple[int, object]]], threshold: int,
               penalties: int, to_end: int) -> SheetLayout:
    """A small 8-sided layout with two lock numbers per row."""
    return SheetLayout.of_rows(name, rows, lock_threshold=threshold,  # type: ignore[arg-type]
                               penalty_boxes=penalties, closed_rows_to_end=to_end,
                               faces=8, lock_cells=2)


#: Small 8-sided sheets with two lock numbers, each exercising something.
SMALL = {
    # red 13..16 (locks 15, 16), yellow 5..2 (locks 3, 2): sums up to 16, the flip
    # d -> 9 - d with red <-> yellow; one close ends the game, so R15 matters
    "high": longo_like("high", [_row(R, range(13, 17)), _row(Y, range(5, 1, -1))], 1, 2, 1),
    # mixed cell colours (action 2 with red marks 14 in either row)
    "mixed": longo_like("mixed", [
        [(11, Y), (14, R), (15, R), (16, R)], [(14, R), (7, Y), (3, Y), (2, Y)]], 1, 2, 1),
    # two ascending rows, no flip, the game ends at two closed rows
    "two-up": longo_like("two-up", [_row(R, range(9, 14)), _row(Y, range(12, 17))], 1, 1, 2),
}
#: Longer rows, more penalty boxes, a frozen row, for the slow run.
LARGER = {
    "high5": longo_like("high5", [_row(R, range(12, 17)), _row(Y, range(6, 1, -1))], 2, 2, 1),
    "mixed5": longo_like("mixed5", [
        [(9, Y), (11, R), (14, R), (15, R), (16, R)],
        [(11, R), (7, Y), (5, Y), (3, Y), (2, Y)]], 2, 2, 1),
}


def test_fast_solver_equals_naive_solver_on_every_state() -> None:
    """The naive solver walks 36 x 8 x 8 rolls per state: one small case here, the
    others in the slow run."""
    assert check_every_state(SMALL["high"], False) == 4 * 4 * 2  # 4 open codes per row


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2"), [
    ("high", True), ("mixed", True), ("two-up", False), ("high5", True), ("mixed5", False)])
def test_fast_solver_equals_naive_solver_on_every_state_slow(name: str, a2: bool) -> None:
    assert check_every_state({**SMALL, **LARGER}[name], a2) > 20


def test_longo_rows_have_92_open_codes() -> None:
    """An open Longo row: empty, or its last mark at 0..12 with 1..last+1 crosses."""
    variant = Variant(LONGO)
    assert variant.open_codes == row_codes(LONGO).open == 1 + 13 * 14 // 2 == 92
    assert variant.faces == 8 and variant.lock_cells == 2 and variant.top_number == 16
    assert variant.max_marks == 15 and variant.key == "longo" and not variant.is_plain
    assert variant.to_json()["faces"] == 8 and variant.to_json()["lock_cells"] == 2
    # either lock number closes the row: the codes of both masks are closed codes
    codes = row_codes(LONGO)
    six = 0b111111
    assert codes.by_mask[0][six | 1 << 13] == codes.by_mask[0][six | 1 << 14] == 92 + 8
    assert codes.by_mask[0][1 << 12] < 92  # red 14 alone: an open row


def test_longo_variants_are_told_apart() -> None:
    """A small 8-sided layout has its own cache key, unlike any six-sided variant."""
    high = Variant(SMALL["high"])
    assert high.key.endswith("-f8-l2") and high != Variant(SMALL["mixed"])
    assert Variant().key == "aadd-L11-t5-p4-k2" and "faces" not in Variant().to_json()
    assert variant_or_layout(None, "longo") == Variant(LONGO)


def test_symmetry_uses_the_flip_of_eight_sided_dice() -> None:
    assert len(symmetry_group(Variant(LONGO))) == 8
    assert len(symmetry_group(Variant(SMALL["high"]))) == 2
    assert len(symmetry_group(Variant(SMALL["two-up"]))) == 1


@settings(max_examples=100, deadline=None)
@given(keyed_sheets([LONGO, LARGER["mixed5"]], 20))
def test_sheet_keys_round_trip_on_longo_layouts(case: tuple[Sheet, frozenset[object]]) -> None:
    check_key_round_trip(*case)


def test_a_table_values_both_lock_numbers_alike() -> None:
    """Crossing either lock number closes the row with the same crosses: the same value."""
    layout = SMALL["two-up"]
    table = solve(layout=layout, cache=False)
    first = Sheet.from_marks({R: [9, 12]}, layout=layout)
    second = Sheet.from_marks({R: [9, 13]}, layout=layout)
    assert first.locked and second.locked
    assert table.value(first) == table.value(second)


@pytest.mark.slow
@pytest.mark.parametrize("a2", [False, True])
def test_optimal_play_reproduces_the_value_on_a_small_longo_layout(a2: bool) -> None:
    """The advisor's best plan, applied by the rules core with 8-sided dice, in 2,000
    games: the mean score is within 4 standard errors of the table's start value."""
    layout = LARGER["mixed5"]
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    advisor = Advisor(solve(ruleset, layout=layout, cache=False))
    rng = random.Random(8 + a2)
    scores = [optimal_game(advisor, rng)[0] for _ in range(2000)]
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / math.sqrt(len(scores))
    assert abs(mean - advisor.table.start_value) < 4 * se


def test_solve_value_and_advise_on_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    """``--layout NAME`` of a small 8-sided layout, registered as a published one for the
    test (as ``longo`` is; the full Longo solve is the benchmark's), and an 8-sided roll."""
    layout = SMALL["high"]
    monkeypatch.setitem(LAYOUTS, "high", layout)
    table = solve(layout=layout, cache=False)
    assert main(["solve", "--layout", "high", "--json", "--quiet"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["expected_score"] == pytest.approx(table.start_value, abs=1e-12)
    assert main(["value", "--sheet", "r:14", "--layout", "high", "--json", "--quiet",
                 ]) == 0
    valued = json.loads(capsys.readouterr().out)
    assert valued["expected_score"] == pytest.approx(
        table.value(Sheet.from_marks({R: [14]}, layout=layout)), abs=1e-12)
    assert main(["advise", "--sheet", "r:14", "--roll", "d8|w:7,8/r:8/y:1", "--layout",
                 "high", "--json", "--quiet"]) == 0
    advised = json.loads(capsys.readouterr().out)
    state = GameState(Ruleset(players=1), (Sheet.from_marks({R: [14]}, layout=layout),))
    best = table.best_plan(state, parse_roll("d8|w:7,8/r:8/y:1"))
    assert advised["plans"][0]["expected_score"] == pytest.approx(best.value, abs=1e-12)
    assert advised["plans"][0]["plan"] == "-/r15"  # 7 + 8 closes red (15 or 16, LG2)


def test_review_judges_a_game_on_a_longo_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """A random solitaire game of 8-sided dice on a small layout (registered as a published
    one: a record names its layout), reviewed by its table: every decision's loss is
    >= 0, and the advisor's own game loses nothing."""
    layout = SMALL["mixed"]
    monkeypatch.setitem(LAYOUTS, "mixed", layout)
    turns = check_review(layout)
    assert any(max(t.roll.white) > 6 for t in turns)  # the game's dice have 8 sides


def test_step_cells_on_an_eight_sided_layout_are_refused_with_cs2() -> None:
    """Step totals (CS2, the Connected Steps solver) are worked out on six-sided rows of one
    lock number; a layout with both is refused rather than solved untested."""
    steps = SheetLayout.of_rows("steps8", [_row(R, range(13, 17)), _row(Y, range(5, 1, -1))],
                                lock_threshold=1, penalty_boxes=2, closed_rows_to_end=1,
                                faces=8, lock_cells=2, steps=((0, 1),))
    with pytest.raises(ParseError) as err:
        Variant(steps)
    assert err.value.rule == "CS2"
