"""The exact solver on sheets with an X-Change track (Qwixx X-Change, VARIANTS.md §9).

The state gains the last field used (none, 0 .. n-1: the lanes beside the penalty count,
qwixx_math/solver/layout.py), and action 1 may exchange the white sum through any field
right of it (XC1, XC2), or under ``xc_field_without_cross`` spend such a field alone
(XC4).  Checked here:

* the fast solver, with and without its symmetry reduction, against the naive reference
  solver (the rules core's legal plans, exchanges included) on every state of small
  layouts with small tracks, both R15 options and both XC4 options;
* a field used can only cost: the empty sheet is worth less with a later field used;
* the symmetry group drops the die flip unless every pair is flip-invariant;
* the Options reach the table (XC4 mismatch is refused), the table model refuses the
  track, and the command line solves, values, advises and reviews such a sheet;
* (slow) optimal play through the rules core reproduces the value.

The official, Mixx, Double B, steps and Longo tables are pinned byte for byte by
tests/test_solver_steps.py, test_solver_double.py and test_solver_longo.py.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import pytest
from test_solver_double import check_optimal_play, check_review

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import OFFICIAL, X_CHANGE, SheetLayout
from qwixx_math.model import Colour, Sheet
from qwixx_math.rules import new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, SolverTable, Variant, solve, symmetry_group
from qwixx_math.solver.cache import cache_dir, table_filename
from qwixx_math.solver.engine import solve_tables

TOLERANCE = 1e-9


def small(name: str, letters: str, length: int, threshold: int,
          exchange: tuple[tuple[int, int], ...]) -> SheetLayout:
    base = SheetLayout.plain(name, letters, length, lock_threshold=threshold,
                             penalty_boxes=2, closed_rows_to_end=1)
    return dataclasses.replace(base, exchange=exchange)


SMALL = {
    # one row 2..6; 9 is on no row, so field 2 only exchanges 9 for 4
    "one-row": small("xc-one-row", "a", 5, 2, ((3, 5), (2, 6), (4, 9))),
    # two rows, no pair flip-invariant but (3, 11): no flip symmetry
    "two-rows": small("xc-two-rows", "ad", 3, 1, ((3, 11), (2, 10), (4, 12))),
    # two rows whose pairs all sum to 14: the flip (red <-> yellow) stays a symmetry
    "flip": small("xc-flip", "ad", 3, 1, ((3, 11), (2, 12), (4, 10))),
}


def check_every_state(layout: SheetLayout, a2: bool, spend: bool) -> int:
    """The fast solver (with and without its symmetry reduction) equals the naive one on
    every running state of ``layout`` (every last field used); returns the states checked."""
    ruleset = Ruleset(players=1, action2_after_game_end=a2, xc_field_without_cross=spend)
    variant = Variant(layout, spend)
    naive = NaiveSolver(variant, ruleset)
    tables = []
    for symmetry in (True, False):
        data, _ = solve_tables(variant, a2, symmetry=symmetry)
        tables.append(SolverTable(variant, ruleset, data, float(data[0])))
    checked = 0
    fields = set()
    for state in naive.states():
        expected = naive.value(state)
        for table in tables:
            got = table.value(state)
            assert abs(got - expected) <= TOLERANCE, (layout.name, state.describe(), got,
                                                      expected)
        fields.add(state.sheets[0].last_field)
        checked += 1
    assert fields == set(range(-1, len(layout.exchange)))
    return checked


@pytest.mark.parametrize("spend", [False, True])
def test_fast_solver_equals_naive_solver_on_every_state(spend: bool) -> None:
    assert check_every_state(SMALL["one-row"], False, spend) > 50


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2", "spend"), [
    ("two-rows", True, False), ("two-rows", False, True), ("flip", True, True)])
def test_fast_solver_equals_naive_solver_on_every_state_slow(name: str, a2: bool,
                                                             spend: bool) -> None:
    assert check_every_state(SMALL[name], a2, spend) > 100


def test_a_field_used_only_costs_and_spending_alone_only_helps() -> None:
    """From the empty sheet, the later the last field used the fewer exchanges remain:
    the value never rises (and the first field used costs something); the Option of
    spending a field alone (XC4) only adds plans."""
    layout = SMALL["one-row"]
    plain = solve(Ruleset(players=1), layout=layout, cache=False)
    spend = solve(Ruleset(players=1, xc_field_without_cross=True), layout=layout, cache=False)
    empty = Sheet.empty(layout)
    values = [plain.value(empty)] + [plain.value(empty.with_field(f))
                                     for f in range(len(layout.exchange))]
    assert all(a >= b - TOLERANCE for a, b in itertools.pairwise(values))
    assert values[0] > values[-1] + 0.01
    assert spend.start_value > plain.start_value + 0.01
    assert spend.variant.key == plain.variant.key + "-xc4"


def test_the_variant_sees_the_track() -> None:
    official, pad = Variant(OFFICIAL), Variant(X_CHANGE)
    assert pad != official and not pad.is_plain
    assert pad.field_layers == 10 and official.field_layers == 1
    assert pad.key == "x-change"
    assert pad.with_field_without_cross(True).key == "x-change-xc4"
    assert official.with_field_without_cross(True) is official  # no track: no Option
    assert len(symmetry_group(official)) == 8
    assert len(symmetry_group(pad)) == 4  # the pairs are not flip-invariant: no flip
    assert len(symmetry_group(Variant(SMALL["flip"]))) == 2
    assert len(symmetry_group(Variant(SMALL["two-rows"]))) == 1


def test_the_options_must_match_the_table() -> None:
    layout = SMALL["one-row"]
    table = solve(Ruleset(players=1), layout=layout, cache=False)
    state = new_game(ruleset=Ruleset(players=1, xc_field_without_cross=True), layout=layout)
    with pytest.raises(ParseError, match="XC4"):
        table.value(state)
    with pytest.raises(ParseError, match="XC1"):
        solve_tables(Variant(layout), False, players=2)
    with pytest.raises(ParseError, match="XC4"):
        Variant(layout, "yes")  # type: ignore[arg-type]


def test_review_of_optimal_play_loses_nothing() -> None:
    check_review(SMALL["one-row"])


def test_solve_value_advise_and_review_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layout = SMALL["one-row"]
    path = tmp_path / "xc.json"
    path.write_text(json.dumps(layout.to_json()))
    table = solve(Ruleset(players=1), layout=layout, cache=False)
    assert main(["solve", "--layout", str(path), "--json", "--quiet"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["expected_score"] == pytest.approx(table.start_value, abs=1e-12)
    assert main(["value", "--sheet", "r:3/x:1", "--layout", str(path), "--json"]) == 0
    valued = json.loads(capsys.readouterr().out)
    sheet = Sheet.from_marks({Colour.RED: [3]}, layout=layout, used_fields=(1,))
    assert valued["expected_score"] == pytest.approx(table.value(sheet), abs=1e-12)
    # white 4 + 5 = 9: only field 2 (4, 9) turns it into a red 4, the best plan here
    assert main(["advise", "--sheet", "r:3/x:1", "--roll", "w:4,5/r:6", "--layout",
                 str(path), "--json", "--quiet"]) == 0
    advised = json.dumps(json.loads(capsys.readouterr().out))
    assert "@x2" in advised and advised.index("@x2") < advised.index("/-")
    assert main(["prob", "--sheet", "r:3/x:1", "--layout", str(path)]) == 0
    capsys.readouterr()
    spend = solve(Ruleset(players=1, xc_field_without_cross=True), layout=layout, cache=False)
    assert main(["value", "--sheet", "r:-", "--layout", str(path), "--json",
                 "--xc-field-without-cross"]) == 0
    valued = json.loads(capsys.readouterr().out)
    assert valued["expected_score"] == pytest.approx(spend.start_value, abs=1e-12)


@pytest.mark.slow
def test_optimal_play_through_the_rules_core_reproduces_the_value() -> None:
    check_optimal_play(SMALL["one-row"], False, 7)


def test_the_cached_pad_table_loses_value_with_each_field() -> None:
    """The full x-change table (3.4 GB, minutes of solving; benchmarks/bench_x_change.py
    solves it) is checked only when it is cached: the tests never solve it."""
    variant = Variant(X_CHANGE)
    if not (cache_dir() / table_filename(variant, False)).exists():
        pytest.skip("the x-change table is not in the cache")
    table = solve(Ruleset(players=1), layout=X_CHANGE, progress=False)
    empty = Sheet.empty(X_CHANGE)
    values = [table.value(empty)] + [table.value(empty.with_field(f)) for f in range(9)]
    assert values[0] == table.start_value
    assert all(a >= b - TOLERANCE for a, b in itertools.pairwise(values))
    # with every field gone the pad is the official game
    official = cache_dir() / table_filename(Variant(OFFICIAL), False)
    if official.exists():
        assert values[-1] == pytest.approx(solve(Ruleset(players=1)).start_value, abs=1e-9)
