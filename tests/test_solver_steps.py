"""The exact solver on sheets with step cells (Qwixx Connected, the Steps, VARIANTS.md §4;
issue 34).

The fifth score group T(crossed step cells) (CS2) is not a sum over rows, so a state also
holds the total of crossed step cells (the table's lanes, :mod:`qwixx_math.solver.layout`).
Checked here:

* the fast solver (with and without its symmetry reduction) against the naive reference
  solver, which plays every roll through the rules core and memoises on the compact key
  *and* the step total, on **every** state of small layouts with step cells (every
  placement of the marks that keeps a row's last mark and count: every step total), both
  R15 options, to 1e-9; a step cell on a row's last number (a close that crosses a step)
  is among them;
* the tables of sheets without steps are byte-identical to those before step totals
  (sha256 of small tables, recorded with the solver before this change);
* the symmetry group keeps step cells in place; the key, JSON and cache identity of a
  variant with steps differ from the same sheet without them;
* Monte-Carlo play of a small steps layout's optimal policy through the rules core (slow);
* the command line (``solve``, ``value``, ``advise``) on a steps layout given as a file,
  and ``review_game`` on a small steps layout;
* the policies keep the step total too: tests/test_policies_steps.py.

The full Connected Steps solves take minutes: benchmarks/bench_connected_steps_solve.py.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from test_solver_double import check_optimal_play, check_review, check_table_model
from test_solver_layouts import check_every_state

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import CONNECTED_STEPS, CONNECTED_STEPS_S21, OFFICIAL, SheetLayout
from qwixx_math.model import COLOURS, Sheet
from qwixx_math.solver import NaiveSolver, Variant, solve, symmetry_group
from qwixx_math.solver.engine import solve_tables

TOLERANCE = 1e-9
R, Y, G, B = COLOURS

#: Small sheets with step cells, each exercising something.
SMALL = {
    # a step on yellow's last number: closing yellow crosses a step; one close ends the game
    "last-step": SheetLayout.plain("last-step", "ad", 4, lock_threshold=2, penalty_boxes=2,
                                   closed_rows_to_end=1, steps=((0, 1), (1, 0), (1, 3))),
    # mixed cell colours (action 2 with red marks 7 in either row), steps in both rows
    "mixed": SheetLayout.of_rows("mixed-steps", [
        [(5, Y), (7, R), (9, R), (3, R)], [(7, R), (4, Y), (6, Y), (8, Y)]],
        lock_threshold=2, penalty_boxes=2, closed_rows_to_end=1,
        steps=((0, 0), (0, 2), (1, 1), (1, 2))),
    # the same steps in both rows: the flip (red <-> yellow) is a symmetry
    "flip": SheetLayout.plain("flip-steps", "ad", 4, lock_threshold=2, penalty_boxes=2,
                              steps=((0, 1), (0, 2), (1, 1), (1, 2))),
}

def test_fast_solver_equals_naive_solver_on_every_state() -> None:
    assert check_every_state(SMALL["last-step"], False) > 100


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2"), [("last-step", True), ("mixed", True),
                                          ("flip", False)])
def test_fast_solver_equals_naive_solver_on_every_state_slow(name: str, a2: bool) -> None:
    """(Three rows, ``three-rows-steps`` of length 4, also agree: about 9 minutes of the
    naive solver, too long for the slow suite.)"""
    assert check_every_state(SMALL[name], a2) > 100


def test_the_states_hold_every_step_total() -> None:
    """The naive solver's states are one per key *and* step total: one key, several
    totals (on ``last-step``, red 3 is a step and red 4 is not)."""
    layout = SMALL["last-step"]
    states = list(NaiveSolver(Variant(layout)).states())
    totals = {s.sheets[0].steps_crossed for s in states}
    assert totals == {0, 1, 2}  # three would close red, and one close ends the game
    # red 2 and 4 (one mark left of the last, no step) and red 3 and 4 (a step) are
    # one compact key, two states
    marks = {(s.sheets[0].masks[R.index], s.sheets[0].penalties) for s in states}
    assert (0b101, 0) in marks and (0b110, 0) in marks


@pytest.mark.slow
def test_the_table_model_on_a_steps_layout_equals_the_naive_solver() -> None:
    check_table_model(SMALL["last-step"])


# -- tables without steps are unchanged --------------------------------------------------------

#: sha256 of the value arrays of small variants without steps, solved by the solver before
#: step totals were added (commit a3f20bc): (variant, R15 option, players) -> digest.
UNCHANGED = {
    ("ad-L4-t2-p2-k1", False, 1):
        "2fc6b125402d0af25d6919769409342738938e1e0dc59ee40ce3abe251945a2b",
    ("ad-L4-t2-p2-k1", False, 2):
        "c3f58d9f1ba93e7084d51bf1bfbba9efb768295139757f59ec81c8ff68c8aee8",
    ("ad-L4-t2-p2-k1", True, 1):
        "d0ec7ee1aaf7cfceec0cef124060842919d770e3ef64bcc7f00b055dc6bcb00f",
    ("ad-L4-t2-p2-k1", True, 2):
        "58e5c5675fee0f36c7407bfc9a0f251fdeeacf1bdcf896936af730293acfc5da",
    ("aadd-L6-t2-p2-k2", False, 1):
        "dd89bce2f15bc60add1e9c14e89b12a8998d1da2fef46f37044072da334bdbcc",
    ("aadd-L6-t2-p2-k2", False, 2):
        "96aa4d48dfb8a26abdcd017f19ea8cc391bf29685781003ad367d07fb22f7670",
    ("aadd-L6-t2-p2-k2", True, 1):
        "03b14cf0a7973882937f663c5ad2a9167d800902cb24596f0052788bf7eae8b2",
    ("aadd-L6-t2-p2-k2", True, 2):
        "0a5bacfe0e7021f2c0e07c9bfd8abe80e2dc450ff969a907f2bff1eb750cb460",
    ("uneven", False, 1):
        "2f24da44453365371c23fd5030a995064c4bc320a7ba88563828fc39f937b2fe",
    ("uneven", False, 2):
        "aae90658b734f613d2bf325db6cfc3bc8bba1a3c268e914d5348baf7111da3b3",
    ("uneven", True, 1):
        "c8a7f77878bb47b65bafe9d7d1ffbf61a4639e53af211eabc7be1476d68d8b58",
    ("uneven", True, 2):
        "876afcd406ac3fb9e757eaeefb84f8092782cb819751bdda6b65c0babdc385f6",
}


def small_variant(key: str) -> Variant:
    if key == "uneven":
        return Variant(SheetLayout.plain("uneven", "ad", 4, lock_threshold=2, penalty_boxes=2,
                                         closed_rows_to_end=1,
                                         weights=((1, 2, 1, 1), (2, 1, 1, 1))))
    letters, length, threshold, boxes, to_end = key.split("-")
    return Variant.from_letters(letters, int(length[1:]), int(threshold[1:]), int(boxes[1:]),
                                int(to_end[1:]))


@pytest.mark.parametrize(("key", "a2", "players"), sorted(UNCHANGED))
def test_tables_without_steps_are_byte_identical(key: str, a2: bool, players: int) -> None:
    data, _ = solve_tables(small_variant(key), a2, players=players)
    assert hashlib.sha256(np.asarray(data).tobytes()).hexdigest() == \
        UNCHANGED[(key, a2, players)]


# -- symmetry, identity ------------------------------------------------------------------------

def test_symmetry_keeps_step_cells_in_place() -> None:
    assert len(symmetry_group(Variant(SMALL["flip"]))) == 2
    assert len(symmetry_group(Variant(SMALL["last-step"]))) == 1
    assert len(symmetry_group(Variant(SheetLayout.plain("no-steps", "ad", 4,
                                                        lock_threshold=2)))) == 2
    assert len(symmetry_group(Variant(CONNECTED_STEPS))) == 1


def test_variants_with_steps_have_their_own_key_and_header() -> None:
    steps = Variant(CONNECTED_STEPS)
    assert steps != Variant() and steps != Variant(CONNECTED_STEPS_S21)
    assert not steps.is_plain and steps.has_steps and steps.step_layers == 12
    assert steps.key == CONNECTED_STEPS.key and steps.key != Variant().key
    assert steps.to_json()["steps"] == [list(c) for c in CONNECTED_STEPS.steps]
    assert "steps" not in Variant().to_json() and Variant(OFFICIAL).step_layers == 1
    small = Variant(SMALL["flip"])
    assert small.key != Variant.from_letters("ad", 4, 2, 2, 2).key


def test_a_steps_layout_needs_eleven_steps_on_a_full_sheet() -> None:
    with pytest.raises(ParseError, match="11 distinct"):
        SheetLayout("ten", OFFICIAL.numbers, OFFICIAL.colours, steps=CONNECTED_STEPS.steps[:10])


def test_the_value_reads_the_step_total() -> None:
    """Two sheets of one compact key (red 2, 4 and red 3, 4 on ``last-step``: red 3 is a
    step) have values that differ, each the naive solver's."""
    layout = SMALL["last-step"]
    table = solve(layout=layout, cache=False)
    naive = NaiveSolver(Variant(layout))
    plain = Sheet.from_marks({R: [2, 4]}, layout=layout)
    step = Sheet.from_marks({R: [3, 4]}, layout=layout)
    assert step.steps_crossed == plain.steps_crossed + 1
    assert table.value(step) != table.value(plain)
    for sheet in (plain, step):
        assert abs(table.value(sheet) - naive.value(sheet)) <= TOLERANCE


# -- playing the optimal policy ----------------------------------------------------------------

@pytest.mark.slow
def test_optimal_play_reproduces_the_value_on_a_small_steps_layout() -> None:
    """The advisor's best plan, applied by the rules core, in 3,000 games: the mean score
    (steps included, CS2) is within 4 standard errors of the table's start value."""
    check_optimal_play(SMALL["mixed"], False, 34)


# -- the command line and the parts that count marks -------------------------------------------

def test_solve_value_and_advise_on_the_command_line(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    layout = SMALL["last-step"]
    path = tmp_path / "steps.json"
    path.write_text(json.dumps(layout.to_json()))
    table = solve(layout=layout, cache=False)
    assert main(["solve", "--layout", str(path), "--json", "--quiet"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["expected_score"] == pytest.approx(table.start_value, abs=1e-12)
    assert main(["value", "--sheet", "r:3", "--layout", str(path), "--json", "--quiet"]) == 0
    valued = json.loads(capsys.readouterr().out)
    assert valued["expected_score"] == pytest.approx(
        table.value(Sheet.from_marks({R: [3]}, layout=layout)), abs=1e-12)
    assert main(["advise", "--sheet", "r:3", "--roll", "w:1,2/r:1/y:1", "--layout", str(path),
                 "--json", "--quiet"]) == 0
    advised = json.loads(capsys.readouterr().out)
    assert advised


def test_review_judges_a_game_on_a_steps_layout() -> None:
    """A random solitaire game on a small steps layout, reviewed by its solver table:
    every decision's loss is >= 0, and a game played with the advisor's best plan loses
    nothing."""
    check_review(SMALL["mixed"])
