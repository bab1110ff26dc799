"""The exact solver on sheets with double cells (Qwixx Double B, VARIANTS.md §7; issue 34).

A row's state is (last position, crosses), a double cell counting 2 (DB1); the lock
needs ``lock_threshold`` crosses (DB2) and a row scores T(crosses) (DB3).  Checked here:

* the fast solver (with and without its symmetry reduction) against the naive
  reference solver, which plays every roll through the rules core, on **every** state
  of small layouts with double cells, both R15 options, to 1e-9;
* the symmetry groups: a double cell only maps to a double cell (Double B keeps
  red <-> yellow and green <-> blue; the die flip only on ``double-b-alt``);
* sheet keys of double layouts: round trips through decode and a representative sheet;
* Monte-Carlo play of a small double layout's optimal policy through the rules core;
* the command line (``solve``, ``value``, ``advise``) on a spelled-out double layout;
* (the policies on double cells: tests/test_policies_double.py).

The full Double B solve takes a minute or more: benchmarks/bench_double_b.py runs it.
"""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_review import optimal_game
from test_solver_layouts import check_every_state

from qwixx_math.advice import Advisor
from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.keys import (
    RowState,
    SheetKey,
    decode_key,
    key_space,
    row_codes,
    sheet_from_key,
    sheet_key,
)
from qwixx_math.layouts import DOUBLE_B, DOUBLE_B_ALT, OFFICIAL, SheetLayout
from qwixx_math.model import COLOURS, Sheet
from qwixx_math.record import GameRecord, TurnRecord, random_game
from qwixx_math.review import review_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, SolverTable, Variant, solve, symmetry_group
from qwixx_math.solver.engine import solve_tables

TOLERANCE = 1e-9
R, Y, G, B = COLOURS

#: Small sheets with double cells, each exercising something.
SMALL = {
    # rows doubled at different positions (no symmetry); one close ends the game, so R15
    # matters; the lock needs 2 crosses: one double cell reaches it alone
    "uneven": SheetLayout.plain("uneven", "ad", 4, lock_threshold=2, penalty_boxes=2,
                                closed_rows_to_end=1, weights=((1, 2, 1, 1), (2, 1, 1, 1))),
    # the same positions doubled in both rows: the flip (red <-> yellow) is a symmetry
    "flip": SheetLayout.plain("flip", "ad", 4, lock_threshold=3, penalty_boxes=2,
                              weights=((1, 2, 1, 1), (1, 2, 1, 1))),
    # mixed cell colours (action 2 with red marks 7 in either row) and double cells
    "mixed": SheetLayout.of_rows("mixed", [
        [(5, Y), (7, R), (9, R), (3, R)], [(7, R), (4, Y), (6, Y), (8, Y)]],
        lock_threshold=3, penalty_boxes=2, closed_rows_to_end=1,
        weights=((2, 1, 2, 1), (1, 2, 1, 1))),
}
#: Three rows, for the slow run.
LARGER = {
    "three-rows": SheetLayout.plain("three-rows", "aad", 4, lock_threshold=3, penalty_boxes=1,
                                    weights=((1, 2, 1, 1), (1, 2, 1, 1), (2, 1, 2, 1))),
}


@pytest.mark.parametrize(("name", "a2"), [("uneven", False), ("mixed", True)])
def test_fast_solver_equals_naive_solver_on_every_state(name: str, a2: bool) -> None:
    assert check_every_state(SMALL[name], a2) > 40


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2"), [
    ("uneven", True), ("flip", False), ("mixed", False), ("three-rows", False)])
def test_fast_solver_equals_naive_solver_on_every_state_slow(name: str, a2: bool) -> None:
    assert check_every_state({**SMALL, **LARGER}[name], a2) > 40


def test_the_states_count_crosses() -> None:
    """The naive solver's states (one per key) reach crosses a single-cell row cannot:
    the codes really are (last, crosses)."""
    layout = SMALL["uneven"]
    counts = {(state.sheets[0].count("red"), state.sheets[0].masks[R.index])
              for state in NaiveSolver(Variant(layout)).states()}
    assert (3, 0b011) in counts  # red 2 and the double red 3: 3 crosses from 2 marks
    # by hand: red (1,2,1) reaches (0,1) (1,2..3) (2,1..4); yellow (2,1,1) (0,2) (1,1),(1,3)
    # (2,1..4); together the empty row and 2 + 3 + 4 pairs
    assert row_codes(layout).open == 1 + 2 + 3 + 4
    assert [sum(v) for v in row_codes(layout).valid] == [1 + 1 + 2 + 4, 1 + 1 + 2 + 4]


def test_symmetry_keeps_double_cells_in_place() -> None:
    assert set(symmetry_group(Variant(DOUBLE_B))) == {
        (0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2), (1, 0, 3, 2)}
    assert len(symmetry_group(Variant(DOUBLE_B_ALT))) == 8
    assert len(symmetry_group(Variant(SMALL["uneven"]))) == 1
    assert len(symmetry_group(Variant(SMALL["flip"]))) == 2
    # the same sheet without its double cells has the flip
    assert len(symmetry_group(Variant(SheetLayout.plain("single", "ad", 4,
                                                        lock_threshold=2)))) == 2


def test_variants_with_double_cells_have_their_own_key_and_header() -> None:
    """A double layout is never the plain variant with the same numbers (its cache file
    and header say so); the official ones keep theirs."""
    double = Variant(DOUBLE_B)
    assert double != Variant() and double != Variant(DOUBLE_B_ALT)
    assert not double.is_plain and double.has_doubles
    assert double.key == "double-b" and Variant(DOUBLE_B_ALT).key == "double-b-alt"
    assert double.to_json()["weights"] == [list(w) for w in DOUBLE_B.weights]
    assert Variant().key == "aadd-L11-t5-p4-k2" and "weights" not in Variant().to_json()
    assert double.open_codes == 78 and Variant(DOUBLE_B_ALT).open_codes == 72
    assert double.max_marks == 16


def test_layout_locates_row_states_with_crosses() -> None:
    """Layout.locate reads crosses; the table's own look-up (from the sheet) agrees."""
    layout = SMALL["flip"]
    table = solve(variant=Variant(layout), cache=False)
    sheet = Sheet.from_marks({R: [3, 4], Y: [11]}, penalties=1, layout=layout)
    decoded = decode_key(sheet_key(sheet), layout)
    assert decoded.rows[0] == RowState(2, 3, crosses=True)  # red 3 (double), red 4
    index, points = table.layout.locate(decoded.rows, decoded.penalties)
    assert points == 0 and table.data[index] == table.value(sheet)


# -- sheet keys ---------------------------------------------------------------------------------

@st.composite
def keyed_sheets(draw: st.DrawFn, layouts: list[SheetLayout], most_marks: int
                 ) -> tuple[Sheet, frozenset[object]]:
    """A legal sheet of one of ``layouts``, built through the rules core with up to
    ``most_marks`` marks, and the colours closed (those it locked, and maybe one more);
    test_solver_longo draws its Longo sheets here too."""
    layout = draw(st.sampled_from(layouts))
    sheet = Sheet.empty(layout)
    for _ in range(draw(st.integers(0, most_marks))):
        options = [(c, n) for c in layout.locks for n in layout.numbers[layout.row_index(c)]
                   if sheet.allows(c, n)]
        if not options:
            break
        colour, number = draw(st.sampled_from(options))
        sheet = sheet.with_mark(colour, number)
    penalties = draw(st.integers(0, layout.penalty_boxes))
    sheet = Sheet(sheet.masks, penalties, layout)
    closed = set(sheet.locked)
    if draw(st.booleans()):
        closed.add(draw(st.sampled_from(layout.locks)))
    return sheet, frozenset(closed)


def check_key_round_trip(sheet: Sheet, closed: frozenset[object]) -> None:
    """The sheet's key decodes to its rows (counted in crosses) and penalties, and the
    sheet the key gives back has the same key and closed colours."""
    layout = sheet.layout
    key = sheet_key(sheet, closed)  # type: ignore[arg-type]
    assert 0 <= key < key_space(layout)
    decoded = decode_key(key, layout)
    assert decoded.key == key and decoded.penalties == sheet.penalties
    for colour, row in zip(layout.locks, decoded.rows, strict=True):
        assert row.crosses and row.count == sheet.count(colour)
        assert row.closed == (colour in closed)
    again, shut = sheet_from_key(key, layout)
    assert sheet_key(again, shut) == key and shut == closed
    assert [again.count(c) for c in layout.locks] == [sheet.count(c) for c in layout.locks]


@settings(max_examples=150, deadline=None)
@given(keyed_sheets([DOUBLE_B, DOUBLE_B_ALT, SMALL["uneven"], SMALL["mixed"]], 14))
def test_sheet_keys_round_trip_on_double_layouts(case: tuple[Sheet, frozenset[object]]
                                                 ) -> None:
    check_key_round_trip(*case)


def test_impossible_row_states_are_refused_with_db1() -> None:
    with pytest.raises(ParseError) as err:  # red 2 alone: 1 cross, not 2
        SheetKey((RowState(0, 2, crosses=True),) + (RowState(None, 0, crosses=True),) * 3, 0,
                 DOUBLE_B)
    assert err.value.rule == "DB1"
    with pytest.raises(ParseError):
        RowState(1, 5, crosses=True)  # two marks, at most 4 crosses
    with pytest.raises(ParseError, match="layout's code"):
        _ = RowState(1, 3, crosses=True).code
    assert SheetKey((RowState(None, 16, True, crosses=True),) + (
        RowState(None, 0, crosses=True),) * 3, 0, DOUBLE_B).key > 0  # a full red row
    with pytest.raises(ParseError):
        decode_key(key_space(DOUBLE_B), DOUBLE_B)
    assert key_space(OFFICIAL) == 69 ** 4 * 5  # single-cell keys unchanged


# -- playing the optimal policy -----------------------------------------------------------------

@pytest.mark.parametrize("a2", [False, True])
def test_optimal_play_reproduces_the_value_on_a_small_double_layout(a2: bool) -> None:
    """The advisor's best plan, applied by the rules core, in 3,000 games: the mean score
    is within 4 standard errors of the table's start value."""
    check_optimal_play(SMALL["mixed"], a2, 34 + a2)


def check_optimal_play(layout: SheetLayout, a2: bool, seed: int) -> None:
    """3,000 games of the advisor's best plan on ``layout``: the mean score is within 4
    standard errors of the table's start value (test_solver_steps uses it too)."""
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    advisor = Advisor(solve(ruleset, layout=layout, cache=False))
    rng = random.Random(seed)
    scores = [optimal_game(advisor, rng)[0] for _ in range(3000)]
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / math.sqrt(len(scores))
    assert abs(mean - advisor.table.start_value) < 4 * se


# -- the command line and the parts that count marks -------------------------------------------

def test_solve_value_and_advise_on_the_command_line(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    layout = SMALL["uneven"]
    key = layout.key  # a spelled-out layout key with double cells
    table = solve(layout=layout, cache=False)
    assert main(["solve", "--layout", key, "--json", "--quiet"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["expected_score"] == pytest.approx(table.start_value, abs=1e-12)
    assert main(["value", "--sheet", "r:3", "--layout", key, "--json", "--quiet"]) == 0
    valued = json.loads(capsys.readouterr().out)
    assert valued["expected_score"] == pytest.approx(
        table.value(Sheet.from_marks({R: [3]}, layout=layout)), abs=1e-12)
    assert main(["advise", "--sheet", "r:3", "--roll", "w:1,2/r:1/y:1", "--layout", key,
                 "--json", "--quiet"]) == 0
    advised = json.loads(capsys.readouterr().out)
    assert advised


def test_review_judges_a_game_on_a_double_layout() -> None:
    """A random solitaire game on a small double layout, reviewed by its solver table:
    every decision's loss is the best plan's value minus the chosen one's (>= 0), and a
    game replayed with the advisor's best plan loses nothing."""
    check_review(SMALL["mixed"])


def check_review(layout: SheetLayout) -> list[TurnRecord]:
    """A random solitaire game on ``layout`` reviewed by its table loses >= 0 per
    decision; a game of the advisor's best plans (returned) loses nothing
    (test_solver_steps and test_solver_longo too)."""
    ruleset = Ruleset(players=1)
    advisor = Advisor(solve(ruleset, layout=layout, cache=False))
    record = random_game(1, seed=3, ruleset=ruleset, layout=layout)
    review = review_game(record, advisor=advisor)
    assert review.decisions and all(d.loss >= -1e-9 for d in review.decisions)
    turns = optimal_game(advisor, random.Random(5))[1]
    best = review_game(GameRecord(("P1",), ruleset, tuple(turns), layout=layout),
                       advisor=advisor)
    assert all(abs(d.loss) <= 1e-9 for d in best.decisions)
    return turns


@pytest.mark.slow
def test_the_table_model_on_a_double_layout_equals_the_naive_solver() -> None:
    check_table_model(SMALL["uneven"])


def check_table_model(layout: SheetLayout) -> None:
    """The 2-player table model of ``layout`` equals the naive solver's on every state
    (test_solver_steps uses it too)."""
    variant = Variant(layout)
    ruleset = Ruleset(players=1)
    naive = NaiveSolver(variant, ruleset, players=2)
    data, _ = solve_tables(variant, False, players=2)
    table = SolverTable(variant, ruleset, data, float(data[0]), players=2)
    for state in naive.states():
        for before_me in (0, 1):
            expected = naive.value(state, before_me)
            got = table.value(state.sheets[0], state.closed, before_me)
            assert abs(got - expected) <= TOLERANCE, (state.describe(), before_me)
