"""The exact solver on chain pads (Qwixx Connected, the Chain, VARIANTS.md §5, CC1-CC9,
CC3 = True; issue 34).

A partner cross makes the solver's state the official one plus the count of a closed row
(the lane, :mod:`qwixx_math.solver.chain`).  Checked here:

* the fast solver against the naive reference solver, which plays every roll through the
  rules core and memoises on the FULL sheet (every cross), on **every** running state the
  rules core reaches from the empty sheet, both R15 options, to 1e-9, on small pads built
  with ``SheetLayout.from_json``: pairs between open rows, pairs across columns, a pair into
  a row that can close (its partner crosses still count, CC2), three rows.  Two full
  sheets with the same reduced state (a pending pair left of a frontier or not) read one
  table value, so this is also the check that the reduced state loses nothing;
* the ``solo`` player in the arena, where other players close rows (any count);
* the CC3 = False Option, the table model and the unsupported chain sheets are refused
  naming their rule;
* the command line (``solve``, ``value``, ``advise``) on a chain pad given as a layout key,
  and ``review_game`` of a chain game;
* Monte-Carlo play of sheet A's optimal policy through the rules core (slow).

Sheet A's solve takes minutes: benchmarks/bench_connected_chain_solve.py.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from test_solver_double import check_optimal_play, check_review
from test_solver_layouts import check_every_state

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import CONNECTED_CHAIN, OFFICIAL, SheetLayout
from qwixx_math.model import Colour, Sheet
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, Variant, solve, symmetry_group
from qwixx_math.solver.engine import solve_tables

COLOURS = ("red", "yellow", "green", "blue")


def chain_pad(name: str, directions: str, length: int, pairs: list[tuple[int, int, int, int]],
              **extra: Any) -> SheetLayout:
    """A small chain pad through the layout-file reader: rows of ``length`` cells read
    ``a``scending or ``d``escending, pairs (row, position, row, position)."""
    rows = [{"numbers": list(range(2, 2 + length)) if d == "a"
             else list(range(12, 12 - length, -1)), "colours": COLOURS[i]}
            for i, d in enumerate(directions)]
    return SheetLayout.from_json({
        "name": name, "rows": rows, "lock_threshold": 2, "penalty_boxes": 2,
        "closed_rows_to_end": 2, **extra,
        "chain": [[[COLOURS[r1], p1], [COLOURS[r2], p2]] for r1, p1, r2, p2 in pairs]})


#: Small chain pads, each exercising something.
PADS = {
    # pairs across columns, one into a row that stays open after the other closed (a
    # closed row's count grows: the lane moves)
    "across": chain_pad("across", "ad", 5, [(0, 1, 1, 1), (0, 3, 1, 2)]),
    # one close ends the game; a partner right of the frontier jumps it (CC3)
    "one-close": chain_pad("one-close", "ad", 5, [(0, 0, 1, 3), (0, 3, 1, 1)],
                           closed_rows_to_end=1),
    # three rows, pairs between different rows, a chain cell left of a lock number
    "three": chain_pad("three", "ada", 4, [(0, 0, 1, 1), (1, 2, 2, 2), (2, 0, 0, 2)]),
    # the first two, shorter (the fast suite's): pairs across columns, a closed row's
    # count growing; one close ending the game
    "across4": chain_pad("across4", "ad", 4, [(0, 1, 1, 0), (0, 2, 1, 1)]),
    "one4": chain_pad("one4", "ad", 4, [(0, 0, 1, 2), (0, 2, 1, 0)], closed_rows_to_end=1),
}


@pytest.mark.parametrize(("name", "a2"), [("across4", False), ("one4", True)])
def test_fast_solver_equals_naive_solver_on_every_state(name: str, a2: bool) -> None:
    """(Two rows: R15 matters only where one close ends the game.)"""
    assert check_every_state(PADS[name], a2) > 30


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2"), [("across", False), ("one-close", True),
                                          ("one-close", False), ("three", False),
                                          ("three", True)])
def test_fast_solver_equals_naive_solver_on_every_state_slow(name: str, a2: bool) -> None:
    assert check_every_state(PADS[name], a2) > 100


def test_the_pairs_change_the_value() -> None:
    """(Else the check above would not see a solver that ignores them.)"""
    pad = PADS["across4"]
    plain = SheetLayout.from_json({**pad.to_json(), "name": "plain", "chain": []})
    assert abs(solve(layout=pad, cache=False).start_value
               - NaiveSolver(Variant(plain)).start_value()) > 0.01


def test_chain_variants_differ_from_the_same_rows_without_pairs() -> None:
    chain, official = Variant(CONNECTED_CHAIN), Variant(OFFICIAL)
    assert chain != official and chain.key == "connected-chain" and not chain.is_plain
    assert chain.to_json()["chain"] and chain.chain_layers == 13
    # the pairs break the official sheet's eight symmetries (R6-Y6 has no image pair)
    assert len(symmetry_group(chain)) == 1 and len(symmetry_group(official)) == 8
    # and keep a swap that maps the pairs onto themselves
    twin = Variant(chain_pad("twin", "aa", 4, [(0, 1, 1, 1)]))
    assert len(symmetry_group(twin)) == 2
    assert len(symmetry_group(Variant(chain_pad("lop", "aa", 4, [(0, 1, 1, 2)])))) == 1


def test_unsupported_chain_sheets_and_the_table_model_are_refused() -> None:
    with pytest.raises(ParseError) as exc:
        Variant(chain_pad("k3", "ada", 4, [(0, 0, 1, 1)], closed_rows_to_end=3))
    assert exc.value.rule == "CC1"
    with pytest.raises(ParseError) as exc:
        solve_tables(Variant(PADS["across"]), False, players=2)
    assert exc.value.rule == "CC1"
    with pytest.raises(ParseError) as exc:
        Ruleset(players=1, cc_partner_moves_frontier=False)
    assert exc.value.rule == "CC3"


def test_the_solo_player_plays_chain_pads_in_the_arena(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """At a table another player closes rows: a row closed so holds any count, and the
    lanes go down to 0 (the solitaire model continues from it, partner crosses counting)."""
    pad = PADS["across"]
    assert main(["arena", "solo", "solo", "--games", "30", "--layout", pad.key, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "crash" not in out and "solo" in out
    table = solve(layout=pad, cache=False)
    # red closed by another player with 0 .. 3 crosses: every count is in the table
    for crosses in ([], [3], [2, 3, 4]):
        marks = {Colour.RED: crosses, Colour.YELLOW: [11] if crosses else []}
        sheet = Sheet.from_marks(marks, layout=pad)
        assert math.isfinite(table.value(sheet, closed=("red",)))


def test_solve_value_and_advise_on_the_command_line(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    pad = PADS["across"]
    table = solve(layout=pad, cache=False)
    for a2, flag in ((False, []), (True, ["--action2-after-game-end"])):
        assert main(["solve", "--layout", pad.key, "--json", "--quiet", *flag]) == 0
        solved = json.loads(capsys.readouterr().out)
        expected = solve(Ruleset(players=1, action2_after_game_end=a2), layout=pad,
                         cache=False).start_value
        assert solved["expected_score"] == pytest.approx(expected, abs=1e-12)
    # red 3 is a chain cell, crossed with its partner yellow 11 (CC7)
    assert main(["value", "--sheet", "r:3/y:11", "--layout", pad.key, "--json",
                 "--quiet"]) == 0
    valued = json.loads(capsys.readouterr().out)
    sheet = Sheet.from_marks({Colour.RED: [3], Colour.YELLOW: [11]}, layout=pad)
    assert valued["expected_score"] == pytest.approx(table.value(sheet), abs=1e-12)
    assert main(["advise", "--sheet", "r:3/y:11", "--roll", "w:1,2/r:1/y:1", "--layout",
                 pad.key,
                 "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)


def test_review_prices_a_chain_game() -> None:
    """A random game loses >= 0 per decision, the table's own plans lose nothing."""
    assert check_review(PADS["across"])


@pytest.mark.slow
@pytest.mark.parametrize("a2", [False, True])
def test_optimal_play_on_sheet_a_matches_the_exact_value(a2: bool) -> None:
    """3,000 games of the table's best plans through the rules core: the mean is within
    4 standard errors of the exact value (a solve in memory and the games: 420 s and 455 s
    at load average 4-8 on 2 shared cores)."""
    check_optimal_play(CONNECTED_CHAIN, a2, seed=34 + a2)
