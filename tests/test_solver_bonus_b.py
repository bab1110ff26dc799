"""The exact solver on Bonus B pads (Qwixx Bonus, pad B, VARIANTS.md §5, BB1-BB9; issue 34).

Bonus B's state keeps, beside the rows, one bit per symbol whose status the frontiers leave
open and the closed row's count (:mod:`qwixx_math.solver.bonus_b`).  Checked here:

* the fast solver against an exact-fraction reference that plays every roll through the
  rules core (its forced crosses, BB2, BB3, BB7, and its BB8 score) and memoises on the FULL
  sheet, on **every** running sheet it reaches from the empty one, on tiny Bonus-B-like
  pads (every symbol activates somewhere, a row closes), under both R15 options (one pad
  and option in the fast suite, the others slow);
* the table through the cache (written, memory-mapped back, a truncated file rebuilt);
* ``solve``, ``value``, ``advise``, ``review`` and ``prob`` on that pad as a layout file,
  end to end, against the API;
* the refusals, each with its rule: a pad whose game ends at three closed rows (BB1), the
  table model (BB1), the circle's other Option (BB2), a row closed by another player in
  the solitaire table (BB1).

Pad B's table (5.6 GB, 2,820 s CPU) is benchmarks/bench_bonus_b_solve.py's.
"""

from __future__ import annotations

import json
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from qwixx_math import cli
from qwixx_math.advice import Advisor
from qwixx_math.bonus_b import active_symbols
from qwixx_math.dice import outcome_table
from qwixx_math.errors import ParseError
from qwixx_math.layouts import BONUS_B, SYMBOL_NAMES, SheetLayout
from qwixx_math.model import Colour, Sheet, TurnPlan
from qwixx_math.record import random_game
from qwixx_math.review import review_game
from qwixx_math.rules import GameState, Phase, legal_plans
from qwixx_math.ruleset import CircleCandidates, Ruleset
from qwixx_math.solver import Variant, solve
from qwixx_math.solver.bonus_b import BonusBLayout
from qwixx_math.solver.cache import CacheWarning, table_filename

TOLERANCE = 1e-9


def tiny_pad(name: str = "bb-tiny", to_end: int = 2, penalties: int = 2) -> dict[str, Any]:
    """A Bonus-B-like pad as a layout file's JSON: two rows of five (red 2-6, yellow 12-8),
    every cell a symbol cell, the star and the diamond on the last numbers."""
    cells = {"circle": [("red", 1), ("yellow", 1)], "diamond": [("red", 2), ("yellow", 4)],
             "square": [("red", 0), ("yellow", 2)], "octagon": [("red", 3), ("yellow", 3)],
             "star": [("red", 4), ("yellow", 0)]}
    return {"name": name, "rows": [{"numbers": [2, 3, 4, 5, 6], "colours": "red"},
                                   {"numbers": [12, 11, 10, 9, 8], "colours": "yellow"}],
            "lock_threshold": 2, "penalty_boxes": penalties, "closed_rows_to_end": to_end,
            "symbols": {k: [list(c) for c in v] for k, v in cells.items()}}


TINY = SheetLayout.from_json(tiny_pad())


class Reference:
    """The exact optimal solitaire value of every FULL sheet reached from the empty one, by
    memoised recursion through the rules core (``legal_plans``, ``GameState.play_plan``:
    its forced crosses and its BB8 score), in ``Fraction``s; nothing of the solver."""

    def __init__(self, layout: SheetLayout, a2: bool) -> None:
        self.layout = layout
        self.ruleset = Ruleset(players=1, action2_after_game_end=a2)
        #: value and sheet of every running sheet reached, by (crosses, penalties)
        self.memo: dict[tuple[tuple[int, ...], int], tuple[Fraction, Sheet]] = {}

    def value(self, sheet: Sheet) -> Fraction:
        key = (sheet.masks, sheet.penalties)
        if key in self.memo:
            return self.memo[key][0]
        state = GameState(self.ruleset, (sheet,), closed=sheet.locked)
        worth: dict[TurnPlan, Fraction] = {}
        total = Fraction(0)
        weights = 0
        for roll, weight in outcome_table(state.dice_in_play, self.layout.faces).rolls():
            best: Fraction | None = None
            for plan in legal_plans(state, roll):
                if plan not in worth:
                    after = state.play_plan(roll, plan)
                    mine = after.sheets[0]
                    worth[plan] = (Fraction(mine.score) if after.phase is Phase.OVER
                                   else self.value(mine))
                best = worth[plan] if best is None else max(best, worth[plan])
            assert best is not None  # passing is always legal
            total += weight * best
            weights += weight
        result = total / weights
        self.memo[key] = (result, sheet)
        return result


def check_every_sheet(layout: SheetLayout, a2: bool) -> None:
    """The package's table (``solve``) equals the reference on the empty sheet and on every
    running sheet the reference reached; every symbol activates on some of them, and some
    have a closed row (its count a lane of the table)."""
    table = solve(Ruleset(players=1, action2_after_game_end=a2), layout=layout, cache=False)
    reference = Reference(layout, a2)
    assert abs(table.start_value - reference.value(Sheet.empty(layout))) <= TOLERANCE
    assert len(reference.memo) > 100
    for value, sheet in reference.memo.values():
        assert abs(table.value(sheet) - value) <= TOLERANCE, sheet
    sheets = [sheet for _, sheet in reference.memo.values()]
    assert {s for sheet in sheets for s in active_symbols(sheet)} == set(SYMBOL_NAMES)
    assert any(sheet.locked for sheet in sheets)


def test_fast_solver_equals_the_reference_on_every_sheet() -> None:
    # one penalty box: the fast suite's case (the two-box pad is the slow one's)
    check_every_sheet(SheetLayout.from_json(tiny_pad(penalties=1)), False)


@pytest.mark.slow
@pytest.mark.parametrize("a2", [False, True])
def test_fast_solver_equals_the_reference_with_two_penalty_boxes(a2: bool) -> None:
    check_every_sheet(TINY, a2)


def test_the_index_is_the_research_solvers() -> None:
    """Pad B's index holds 701,299,776 values (research/NOTEBOOK.md), and the table's size
    is it."""
    assert BonusBLayout.of(BONUS_B).size == 701_299_776
    variant = Variant(BONUS_B)
    assert variant.key == "bonus-b" and variant != Variant()  # not the official sheet's file
    assert "symbols" in variant.to_json()


def test_the_cache_round_trip_and_a_truncated_file(tmp_path: Path) -> None:
    solved = solve(layout=TINY, cache=tmp_path, progress=False)
    assert not solved.loaded and solved.path is not None
    assert solved.start_value == pytest.approx(solved.value(Sheet.empty(TINY)), abs=0)
    loaded = solve(layout=TINY, cache=tmp_path, progress=False)
    assert loaded.loaded and loaded.start_value == solved.start_value
    assert np.array_equal(loaded.data, solved.data)
    path = tmp_path / table_filename(Variant(TINY), False)
    assert path == solved.path
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.warns(CacheWarning, match="truncated"):
        again = solve(layout=TINY, cache=tmp_path, progress=False)
    assert not again.loaded and np.array_equal(again.data, solved.data)


def test_refusals_name_their_rule() -> None:
    three = SheetLayout.from_json({**tiny_pad("bb-three", to_end=3),
                                   "rows": [{"numbers": [2, 3, 4, 5, 6], "colours": c}
                                            for c in ("red", "yellow", "green")]})
    with pytest.raises(ParseError, match=r"BB1: .*at most two closed rows"):
        solve(layout=three, cache=False)
    with pytest.raises(ParseError, match=r"BB1: .*table model"):
        solve(layout=TINY, players=2, cache=False)
    with pytest.raises(ParseError, match="BB2"):
        solve(Ruleset(players=1, bb_fewest_candidates=CircleCandidates.OPEN_ROWS),
              layout=TINY, cache=False)
    table = solve(layout=TINY, cache=False)
    with pytest.raises(ParseError, match=r"BB1: .*closed by another player"):
        table.value(Sheet.empty(TINY), closed=[Colour.RED])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_commands_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path / "cache"))
    pad = tmp_path / "pad.json"
    pad.write_text(json.dumps(tiny_pad()), encoding="utf-8")
    table = solve(layout=TINY, cache=False)
    code, out, _ = run(capsys, "solve", "--layout", str(pad), "--quiet")
    assert code == 0 and f"expected score: {table.start_value:.6f}" in out
    sheet = Sheet.from_marks({Colour.RED: [2]}, layout=TINY)
    code, out, _ = run(capsys, "value", "--layout", str(pad), "--sheet", "r:2/y:-/p:0",
                       "--quiet")
    assert code == 0 and f"{table.value(sheet):.6f}" in out
    code, out, _ = run(capsys, "advise", "--layout", str(pad), "--sheet", "r:2/y:-/p:0",
                       "--roll", "w:1,2/r:1/y:3", "--json", "--quiet")
    assert code == 0
    plans = json.loads(out)["plans"]
    after = Sheet.from_marks({Colour.RED: [2, 3]}, layout=TINY)  # white + red or the sum
    assert {p["plan"] for p in plans[:2]} == {"-/r3", "r3/-"}
    assert plans[0]["expected_score"] == pytest.approx(table.value(after), abs=TOLERANCE)
    assert plans[-1]["plan"] == "-/-"  # the penalty, worst here
    code, out, _ = run(capsys, "prob", "--layout", str(pad), "--sheet", "r:2/y:-/p:0")
    assert code == 0 and "red" in out
    record = random_game(players=1, seed=3, layout=TINY)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    code, out, _ = run(capsys, "review", "--layout", str(pad), str(path), "--json", "--quiet")
    assert code == 0
    review = json.loads(out)["reviews"][0]
    expected = review_game(record, 0, Advisor(table))
    assert review["decisions"] == len(expected.decisions) > 0
    assert review["total_loss"] == pytest.approx(expected.total_loss, abs=TOLERANCE)


@pytest.mark.parametrize("argv", [
    ["solve"], ["value", "--sheet", "p:0"],
    ["advise", "--sheet", "p:0", "--roll", "w:1,2/r:1/y:2/g:3"],
    ["value", "--sheet", "p:0", "--players", "2"]])
def test_a_refused_pad_file_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path / "cache"))
    pad = tmp_path / "pad.json"
    refused = argv[-1] != "2"
    data = {**tiny_pad("bb-three", to_end=3),
            "rows": [{"numbers": [2, 3, 4, 5, 6], "colours": c}
                     for c in ("red", "yellow", "green")]} if refused else tiny_pad()
    pad.write_text(json.dumps(data), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, out, err = run(capsys, *argv, "--layout", str(pad), "--quiet")
    assert code == 2 and out == "" and "BB1: " in err and "Traceback" not in err
