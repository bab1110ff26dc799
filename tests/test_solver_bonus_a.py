"""The exact solver on sheets with boxed cells and a bonus bar (Qwixx Bonus, pad A,
VARIANTS.md §2; issue 34).

The state gains the bar's lane, the fields up to the last one taken (0 .. 12, beside the
penalty count: qwixx_math/solver/bar.py), and a cross on a boxed cell plays its chain of
forced crosses on the whole sheet inside the kernel.  Checked here:

* the kernel's chain (:func:`qwixx_math.solver.bar.chain`) equals the rules core's
  (:func:`qwixx_math.bonus.cross`) on thousands of random crosses of the pad, in action
  1 and in action 2, with rows closed by the player and by others;
* the fast solver equals the naive reference solver (the rules core's legal plans and
  forced crosses) on every state of small layouts with a bar that a game reaches (found
  by playing every roll and plan from the empty sheet through the rules core), both R15
  options; the states it leaves unsolved (-inf: bar lanes :func:`bar_lanes` proves no
  game reaches) are among those no game reaches, and on the pad every position of
  thousands of random games has its lane kept (some right at the bound);
* the advice ranks action 2's forced crosses (it once valued action 2 on a boxed cell
  without them), the Variant and the symmetry group see the bar, the table model refuses
  it naming BA1 once, the command line solves, values, advises and reviews such a sheet
  and ``prob`` reads the pad;
* (slow) optimal play through the rules core reproduces the value of a small layout.

The full pad is not solved here (about 4.4 GB and tens of CPU minutes:
benchmarks/bench_bonus_a_solve.py).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from test_solver_double import check_optimal_play, check_review

from qwixx_math import bonus
from qwixx_math.advice import Advisor
from qwixx_math.cli import main
from qwixx_math.dice.outcomes import weighted_rolls
from qwixx_math.errors import InvalidStateError, ParseError
from qwixx_math.keys import sheet_key
from qwixx_math.layouts import BONUS_A, SheetLayout
from qwixx_math.model import COLOURS, Colour, Mark, Sheet
from qwixx_math.record import GameRecord
from qwixx_math.rules import GameState, new_game, random_roll, random_turn, turn_outcomes
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, SolverTable, Variant, solve, symmetry_group
from qwixx_math.solver.bar import bar_arrays, bar_lanes, chain
from qwixx_math.solver.engine import solve_tables
from qwixx_math.solver.layout import Layout

TOLERANCE = 1e-9
R, Y, G, B = COLOURS


def small(name: str, letters: str, length: int, threshold: int,
          boxed: tuple[tuple[int, int], ...], bar: tuple[Colour, ...], to_end: int = 2,
          penalties: int = 2) -> SheetLayout:
    base = SheetLayout.plain(name, letters, length, lock_threshold=threshold,
                             penalty_boxes=penalties, closed_rows_to_end=to_end)
    return dataclasses.replace(base, boxed=boxed, bar=bar)


SMALL = {
    # two rows of 4: chains between the rows, closes inside a chain, a used-up bar; red's
    # lock number is boxed, so a chain goes on after a close (BA6: in action 1 a field of
    # the colour it closed is taken and lapses, in action 2 it is void and skipped)
    "two-rows": small("ba-two-rows", "ad", 4, 2, ((0, 1), (0, 3), (1, 0), (1, 2)),
                      (Y, R, Y, R, R, Y, Y, R, Y, R, R, Y)),
    # two rows of 5, three penalty boxes, boxed cells next to each other (long chains)
    "long-chains": small("ba-long-chains", "ad", 5, 2,
                         ((0, 0), (0, 1), (0, 3), (1, 1), (1, 2), (1, 3)),
                         (Y, R, Y, Y, R, Y, Y, R, Y, R, R, Y), penalties=3),
    # two rows of 5 read the same way, the game ends at the first close (R14)
    "one-close": small("ba-one-close", "aa", 5, 2, ((0, 2), (0, 3), (1, 0), (1, 3)),
                       (R, Y, Y, R, Y, R, R, Y, Y, R, Y, R), to_end=1),
}


# -- 1. the kernel's chain is the rules core's ---------------------------------------------------

def _kernel_chain(sheet: Sheet, row: int, q: int, blocked: frozenset[Colour],
                  immediate: bool) -> tuple[list[int], list[int], int, int]:
    """The kernel's chain from ``sheet``: (codes, marks, closed rows, bar lane)."""
    variant = Variant(sheet.layout)
    layout = Layout.of(variant)
    bar, boxed = bar_arrays(variant)
    codes = np.zeros(4, dtype=np.int64)
    marks = np.zeros(4, dtype=np.int64)
    for r, colour in enumerate(sheet.layout.locks):
        if not sheet.is_locked(colour):
            codes[r] = layout.code_by_mask[r][sheet.masks[colour.index]]
            marks[r] = layout.code_marks[codes[r]]
    bits = sum(1 << r for r, c in enumerate(sheet.layout.locks) if c in blocked)
    shut, lane = chain(codes, marks, 0, sheet.bar_taken.bit_length(), row, q, bits,
                       immediate, bar, boxed, variant.row_length - 1,
                       variant.lock_threshold, layout.row_next_code, layout.code_marks,
                       layout.code_last)
    return [int(c) for c in codes], [int(m) for m in marks], int(shut), int(lane)


def test_the_kernels_chain_is_the_rules_cores_on_random_crosses() -> None:
    """Random walks on the pad: each voluntary cross (any legal cell, action 1 or 2, rows
    closed by the player or by another) through both; the rows, the closes and the bar
    lane agree.  Thousands of crosses, hundreds with forced crosses, dozens with 2+."""
    rng = random.Random(34)
    variant = Variant(BONUS_A)
    layout = Layout.of(variant)
    crosses = chains = links = 0
    while crosses < 3000:
        sheet = Sheet.empty(BONUS_A)
        closed: frozenset[Colour] = frozenset()
        while len(closed) < 2:
            if rng.random() < 0.03:  # another player closes a row (BA6)
                other = rng.choice([c for c in COLOURS if c not in closed])
                closed |= {other}
                sheet = bonus.void_closed([sheet], closed)[0]
                continue
            cells = [(c, p) for c in COLOURS if c not in closed
                     for p in range(11) if sheet.masks[c.index] >> p == 0
                     and BONUS_A.allowed[c.index][sheet.masks[c.index]] >> p & 1]
            if not cells:
                break
            colour, p = rng.choice(cells)
            immediate = rng.random() < 0.5
            after, forced, shut = bonus.cross(sheet, colour.index, p, closed, immediate)
            codes, marks, bits, lane = _kernel_chain(sheet, colour.index, p, closed,
                                                     immediate)
            assert lane == after.bar_taken.bit_length()
            assert bits == sum(1 << c.index for c in shut)
            for r, c in enumerate(BONUS_A.locks):
                if c in closed:
                    continue
                if c in shut:
                    assert layout.points[marks[r]] == after.row_score(c)
                else:
                    assert codes[r] == layout.code_by_mask[r][after.masks[c.index]]
                    assert marks[r] == after.count(c)
            crosses += 1
            chains += bool(forced)
            links += len(forced) >= 2
            sheet = bonus.void_closed([after], shut)[0]
            closed |= shut
    assert chains > 500 and links > 50


# -- 2. the fast solver against the naive one --------------------------------------------------

def _position_key(state: GameState) -> tuple[int, int, int]:
    """A position's compact key and bar: its future is the same for every sheet with these
    (each row's last mark and count, the penalties, the closed rows, the bar fields)."""
    sheet = state.sheets[0]
    return sheet_key(sheet, state.closed), sheet.bar_taken, sheet.bar_void


def reached_positions(layout: SheetLayout, ruleset: Ruleset) -> set[tuple[int, int, int]]:
    """The :func:`_position_key` of every running position some game reaches from the empty
    sheet: every roll and every legal plan of the rules core (forced crosses and all)."""
    naive = NaiveSolver(Variant(layout), ruleset)
    start = naive.position(Sheet.empty(layout))
    seen = {_position_key(start)}
    todo = [start]
    while todo:
        state = todo.pop()
        for after in {after for roll, _ in weighted_rolls(state.dice_in_play, layout.faces)
                      for after in turn_outcomes(state, roll)}:
            if after.is_over:
                continue
            after = naive.position(after.sheets[0])
            key = _position_key(after)
            if key not in seen:
                seen.add(key)
                todo.append(after)
    return seen


def check_every_state(layout: SheetLayout, a2: bool) -> tuple[int, int]:
    """The fast solver equals the naive one on every running state of ``layout`` that a
    game reaches (through the rules core), and every state it leaves unsolved (-inf: a bar
    lane no game reaches, :func:`qwixx_math.solver.bar.bar_lanes`) is one no game reaches;
    returns the states checked and the states left unsolved."""
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    variant = Variant(layout)
    naive = NaiveSolver(variant, ruleset)
    data, _ = solve_tables(variant, a2)
    table = SolverTable(variant, ruleset, data, float(data[0]))
    reached = reached_positions(layout, ruleset)
    checked = unsolved = 0
    lanes = set()
    listed = set()
    for state in naive.states():
        expected = naive.value(state)
        key = _position_key(state)
        listed.add(key)
        try:
            got = table.value(state)
        except InvalidStateError as error:  # refused: the solve skipped it (-inf)
            assert error.rule == "BA2"
            assert table.unchecked_value(state.sheets[0], state.closed) == -np.inf
            assert key not in reached, (layout.name, str(state.sheets[0]), state.closed)
            unsolved += 1
            continue
        assert abs(got - expected) <= TOLERANCE, (layout.name, str(state.sheets[0]),
                                                  state.closed, got, expected)
        lanes.add(state.sheets[0].bar_taken.bit_length())
        checked += 1
    assert reached <= listed  # the naive solver's list holds every reached state
    assert len(lanes) >= 4  # the bar was exercised
    return checked, unsolved


@pytest.mark.parametrize("a2", [False, True])
def test_fast_solver_equals_naive_solver_on_every_state(a2: bool) -> None:
    checked, unsolved = check_every_state(SMALL["two-rows"], a2)
    # the sheets of the bar lanes no game reaches are refused as sheets now (BA2,
    # bonus.check_bar), so the naive solver lists none of them and none is left unsolved
    assert checked > 150 and unsolved == 0


def test_the_lanes_games_reach_on_the_pad_are_solved() -> None:
    """Random games on the pad through the rules core (forced crosses and all): every
    running position's bar lane lies in the lanes :func:`bar_lanes` keeps for its rows (a
    lane it drops would be read as -inf), with rows open and closed, bars up to full."""
    variant = Variant(BONUS_A)
    layout = Layout.of(variant)
    bar, _ = bar_arrays(variant)
    rng = random.Random(34)

    def eager(state: GameState, player: int, legal: Sequence[Mark], rng: random.Random
              ) -> Mark | None:  # the mark that skips the fewest cells, mostly: full bars
        if not legal or rng.random() < 0.1:
            return None
        if rng.random() < 0.3:
            return rng.choice(legal)
        masks = state.sheets[player].masks
        return min(legal, key=lambda mark: BONUS_A.pos[mark.colour.index][mark.number]
                   - masks[mark.colour.index].bit_length())

    positions = 0
    closed_seen = top_lane = at_bound = 0
    while positions < 3000:
        state = new_game(1, Ruleset(players=1), layout=BONUS_A)
        while True:
            state = random_turn(state, rng, eager)[0]
            if state.is_over:
                break
            sheet = state.sheets[0]
            mask = sum(1 << r for r, c in enumerate(BONUS_A.locks) if c in state.closed)
            open_rows = np.array([r for r in range(4) if not mask >> r & 1], dtype=np.int64)
            codes = np.zeros(4, dtype=np.int64)
            lo, hi = 0, int(layout.closed_steps[mask])
            for r in open_rows:
                codes[r] = layout.code_by_mask[r][sheet.masks[BONUS_A.locks[r].index]]
                lo += int(layout.step_lo[r, codes[r]])
                hi += int(layout.step_hi[r, codes[r]])
            lo, hi = bar_lanes(lo, hi, mask, open_rows, codes, layout.code_last,
                               layout.code_marks, variant.row_length - 1, bar)
            lane = sheet.bar_taken.bit_length()
            assert lo <= lane <= hi, (str(sheet), state.closed, lo, hi)
            positions += 1
            closed_seen += mask != 0
            top_lane = max(top_lane, lane)
            at_bound += lane == hi < 12
    # rows closed, long bars, and lanes right at the bound (one lane less would fail)
    assert closed_seen > 200 and top_lane >= 8 and at_bound > 100


@pytest.mark.slow
@pytest.mark.parametrize("name", ["long-chains", "one-close"])
@pytest.mark.parametrize("a2", [False, True])
def test_fast_solver_equals_naive_solver_on_every_state_slow(name: str, a2: bool) -> None:
    # (150: the sheets no game reaches that the sheet checks refuse, BA2, are not listed)
    assert check_every_state(SMALL[name], a2)[0] > 150


# -- 3. advice, the variant, the symmetry group, refusals ---------------------------------------

def test_advice_values_action2s_forced_crosses() -> None:
    """Every plan's advised value equals the value of the state the rules core reaches by
    playing it (action 2 on a boxed cell forces crosses; the advice once left them out),
    over many random rolls of random positions."""
    layout = SMALL["long-chains"]
    table = solve(Ruleset(players=1), layout=layout, cache=False, progress=False)
    advisor = Advisor(table)
    rng = random.Random(7)
    boxed_a2 = 0
    for _ in range(60):
        state = new_game(ruleset=Ruleset(players=1), layout=layout)
        while not state.is_over:
            roll = random_roll(rng, state.dice_in_play, faces=6)
            advice = advisor.advise(state, roll)
            for ranked in advice.plans:
                after = state.play_plan(roll, ranked.plan)
                want = (float(after.sheets[0].score) if after.is_over
                        else table.value(after))
                assert abs(ranked.expected_score - want) <= TOLERANCE, (str(state.sheets[0]),
                                                               str(ranked.plan))
                a2 = ranked.plan.action2
                boxed_a2 += a2 is not None and layout.is_boxed(a2.colour, a2.number)
            state = state.play_plan(roll, advice.plans[rng.randrange(len(advice.plans))].plan)
    assert boxed_a2 > 50


def test_the_variant_and_the_symmetry_group_see_the_bar() -> None:
    pad = Variant(BONUS_A)
    assert pad.has_bar and pad.bar_layers == 13 and not pad.is_plain
    assert pad.bar_rows == (0, 1, 2, 3, 2, 0, 3, 1, 0, 1, 3, 2)
    assert pad != Variant() and pad.key != Variant().key
    assert len(symmetry_group(pad)) == 1  # the bar pins every colour
    assert len(symmetry_group(Variant())) == 8
    assert Layout.of(pad).lanes == 4 * 13
    # the same rows and bar with the boxed cells elsewhere are another game
    moved = dataclasses.replace(BONUS_A, name="moved", boxed=((0, 2), *BONUS_A.boxed[1:]))
    assert Variant(moved) != pad and Variant(moved).key != pad.key


def test_the_table_model_refuses_the_bar_naming_ba1_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ParseError) as err:
        solve(layout=BONUS_A, players=2, cache=False, progress=False)
    assert err.value.rule == "BA1" and str(err.value).count("BA1") == 1
    assert main(["solve", "--layout", "bonus-a", "--players", "3"]) == 2
    message = capsys.readouterr().err
    assert message.count("BA1") == 1 and "table model" in message


def test_prob_reads_the_pad(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prob", "--layout", "bonus-a", "--sheet", "r:-/y:-/g:-/b:-",
                 "--json"]) == 0
    text = capsys.readouterr().out
    assert main(["prob", "--sheet", "r:-/y:-/g:-/b:-", "--json"]) == 0
    official = capsys.readouterr().out
    # the bar changes what a turn can cross, not which numbers are markable
    assert "7" in text and json.loads(text)["active"] == json.loads(official)["active"]


# -- 4. review and the command line -----------------------------------------------------------

def test_review_of_optimal_play_loses_nothing() -> None:
    check_review(SMALL["two-rows"])


def test_solve_value_advise_review_and_prob_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layout = SMALL["two-rows"]
    path = tmp_path / "bar.json"
    path.write_text(json.dumps(layout.to_json()))
    table = solve(Ruleset(players=1), layout=layout, cache=False)
    assert main(["solve", "--layout", str(path), "--json", "--quiet"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["expected_score"] == pytest.approx(table.start_value, abs=1e-12)
    # red 3 is boxed: field 0 (yellow) forces yellow 12, boxed too: field 1 forces red 4
    text = "r:3,4/y:12/bar:xx----------"
    assert main(["value", "--sheet", text, "--layout", str(path), "--json"]) == 0
    valued = json.loads(capsys.readouterr().out)
    sheet = Sheet.from_marks({R: [3, 4], Y: [12]}, layout=layout, bar_taken=3)
    assert sheet == bonus.cross(Sheet.empty(layout), 0, 1, frozenset(), False)[0]
    assert valued["expected_score"] == pytest.approx(table.value(sheet), abs=1e-12)
    assert main(["advise", "--sheet", text, "--roll", "w:1,3/r:1/y:1", "--layout",
                 str(path), "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(["prob", "--sheet", text, "--layout", str(path)]) == 0
    capsys.readouterr()
    turns = check_review(layout)
    record = GameRecord(("P1",), Ruleset(players=1), tuple(turns), layout=layout)
    game = tmp_path / "game.json"
    game.write_text(json.dumps(record.to_json()))
    assert main(["review", str(game), "--layout", str(path), "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)


# -- 5. slow: optimal play through the rules core ------------------------------------------------

@pytest.mark.slow
def test_optimal_play_through_the_rules_core_reproduces_the_value() -> None:
    check_optimal_play(SMALL["long-chains"], False, 34)
