"""The exact solver on second-cross pads (Qwixx Double A, VARIANTS.md §6, DA1-DA7; issue 34).

A second cross makes a row's state (last position, crosses capped at 16, whether the
last number is doubled: :mod:`qwixx_math.solver.double_a`).  Checked here:

* the fast solver against the naive reference solver, which plays every roll through the
  rules core and memoises on the FULL sheet (every cross and second cross), on **every**
  running state the rules core reaches from the empty sheet, both R15 options and both
  values of DA4 (``da_same_turn``), on small pads built with ``SheetLayout.from_json``;
* the canonical table of open rows (unordered pairs of unordered pairs of codes, the
  orbits of S2 wr S2) against the dense one on every state of small four-row pads with
  the official rows' symmetry, and against the naive solver on states near the end;
* the table model, another DA4 value than the table's and the unsupported second-cross
  sheets are refused naming their rule.

The Double A pad's solve (5.4 GB) is benchmarks/bench_double_a_solve.py's.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_solver_layouts import check_every_state

from qwixx_math.advice import Advisor
from qwixx_math.errors import ParseError
from qwixx_math.layouts import DOUBLE_A, SheetLayout
from qwixx_math.model import Colour, Roll, Sheet
from qwixx_math.players.solo import SoloPlayer
from qwixx_math.rules import Phase, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, Variant, double_a, solve
from qwixx_math.solver.double_a import DoubleALayout, canonical_index, row_codes, solve_double_a

COLOURS = ("red", "yellow", "green", "blue")
TOLERANCE = 1e-9


def second_cross_pad(name: str, directions: str, length: int, threshold: int,
                     penalties: int = 2, to_end: int = 2, **extra: Any) -> SheetLayout:
    """A small second-cross pad through the layout-file reader: rows of ``length`` cells
    read ``a``scending or ``d``escending."""
    rows = [{"numbers": list(range(2, 2 + length)) if d == "a"
             else list(range(12, 12 - length, -1)), "colours": COLOURS[i]}
            for i, d in enumerate(directions)]
    return SheetLayout.from_json({
        "name": name, "rows": rows, "lock_threshold": threshold, "penalty_boxes": penalties,
        "closed_rows_to_end": to_end, "second_crosses": True, **extra})


#: Two ascending rows of 3 (a lock number in action 1 can be followed by an action-2
#: cross in the other row, so R15 matters), the lock after 2 crosses (second crosses
#: included, DA5), one close ends the game.
SMALL = second_cross_pad("da-small", "aa", 3, 2, to_end=1)


@pytest.mark.parametrize(("a2", "same_turn"), [
    (True, False), pytest.param(False, True, marks=pytest.mark.slow)])
def test_fast_solver_equals_naive_solver_on_every_state(a2: bool, same_turn: bool) -> None:
    rules = Ruleset(players=1, action2_after_game_end=a2, da_same_turn=same_turn)
    assert check_every_state(SMALL, a2, rules) > 30


def test_both_options_change_the_value() -> None:
    """R15 and DA4 each change the game on this pad (so the tests above check them)."""
    pad = SMALL
    values = {(a2, st): solve(Ruleset(players=1, action2_after_game_end=a2, da_same_turn=st),
                              layout=pad, cache=False).start_value
              for a2 in (False, True) for st in (False, True)}
    assert len({round(v, 9) for v in values.values()}) == 4


def test_row_codes_of_the_double_a_pad() -> None:
    """VARIANTS.md §6.5: 191 open states per row of 11 numbers."""
    codes = row_codes(11)
    assert len(codes) == 191
    assert len(set(codes)) == 191
    assert DoubleALayout.of(DOUBLE_A).canonical


def test_canonical_index_is_the_orbit_of_the_wreath_group() -> None:
    """Equal exactly on the images under swap(a, b), swap(c, d), swap of the pairs, and
    a bijection onto 0 .. T(T(n)) - 1."""
    n = 6
    seen: dict[int, frozenset[tuple[int, int, int, int]]] = {}
    for a, b, c, d in itertools.product(range(n), repeat=4):
        orbit = frozenset({(x, y, z, w) for (x, y), (z, w) in
                           [((a, b), (c, d)), ((c, d), (a, b))]
                           for x, y in [(x, y)] for z, w in [(z, w)]}
                          | {(b, a, c, d), (a, b, d, c), (b, a, d, c), (c, d, a, b),
                             (d, c, a, b), (c, d, b, a), (d, c, b, a)})
        index = canonical_index(a, b, c, d)
        assert seen.setdefault(index, orbit) == orbit
    pairs = n * (n + 1) // 2
    assert sorted(seen) == list(range(pairs * (pairs + 1) // 2))


def test_canonical_table_equals_the_dense_one_on_every_state() -> None:
    pad = second_cross_pad("da-four", "aadd", 3, 1)
    dense, _, lay_d = solve_double_a(pad, False, True, None, 1, canonical=False)
    canon, _, lay_c = solve_double_a(pad, False, True, None, 1, canonical=True)
    assert lay_c.size < lay_d.size
    assert not np.isnan(dense).any() and not np.isnan(canon).any()
    n, p = lay_d.n_codes, lay_d.penalties
    for a, b, c, d in itertools.product(range(n), repeat=4):
        i = ((a * n + b) * n + c) * n + d
        j = canonical_index(a, b, c, d)
        assert np.allclose(dense[i * p:(i + 1) * p], canon[j * p:(j + 1) * p],
                           rtol=0, atol=TOLERANCE)
    # the tables with a closed row are dense in both
    assert np.array_equal(dense[lay_d.offsets[1]:], canon[lay_c.offsets[1]:])


def test_canonical_table_equals_the_naive_solver_near_the_end() -> None:
    """States whose naive values are cheap: four rows of 3, a row or two close to full."""
    pad = second_cross_pad("da-four", "aadd", 3, 1, penalties=1)
    data, _, lay = solve_double_a(pad, True, True, None, 1, canonical=True)
    naive = NaiveSolver(Variant(pad), Ruleset(players=1, action2_after_game_end=True))
    full = Sheet.from_marks({Colour.RED: [2, 3], Colour.YELLOW: [3], Colour.GREEN: [11],
                             Colour.BLUE: [12, 11]}, layout=pad)
    for sheet in (full.with_second(Colour.RED, 3).with_second(Colour.BLUE, 11)
                  .with_second(Colour.YELLOW, 3),
                  full.with_second(Colour.GREEN, 11).with_second(Colour.BLUE, 11)):
        located = lay.locate(sheet, frozenset())
        assert located is not None
        index, points = located
        assert abs(points + data[index] - naive.value(sheet)) <= TOLERANCE


def test_refusals_name_their_rule() -> None:
    with pytest.raises(ParseError, match="DA1"):
        solve(layout=DOUBLE_A, players=2, cache=False)
    table = solve(Ruleset(players=1), layout=SMALL, cache=False)
    with pytest.raises(ParseError, match="DA4"):
        table.value(new_game(1, Ruleset(players=1, da_same_turn=False), layout=SMALL))
    mixed = SheetLayout.from_json({
        "name": "da-mixed", "rows": [{"numbers": [2, 3, 4], "colours": ["red", "yellow",
                                                                         "red"]},
                                     {"numbers": [12, 11, 10], "colours": "yellow"}],
        "lock_threshold": 2, "penalty_boxes": 2, "closed_rows_to_end": 1,
        "second_crosses": True})
    with pytest.raises(ParseError, match="DA1"):
        Variant(mixed)


def test_advice_and_the_solo_player_value_second_crosses_as_the_table_does() -> None:
    """The Advisor applies action 2 to the sheet itself (not through the rules core): a
    second cross must land as one (its values equal :meth:`SolverTable.plan_values`, which
    plays every plan through the rules core), and the solo player's action 2 too."""
    table = solve(Ruleset(players=1), layout=SMALL, cache=False)
    advisor = Advisor(table)
    solo = SoloPlayer(advisor)
    rng = random.Random(34)
    seconds = 0
    state = new_game(1, Ruleset(players=1), layout=SMALL)
    for _ in range(200):
        if state.is_over:
            state = new_game(1, Ruleset(players=1), layout=SMALL)
        roll = Roll.of(rng.randint(1, 6), rng.randint(1, 6), red=rng.randint(1, 6),
                       yellow=rng.randint(1, 6))
        expected = {pv.plan: pv.value for pv in table.plan_values(state, roll)}
        ranked = advisor.advise(state, roll).plans
        assert {r.plan: r.expected_score for r in ranked} == pytest.approx(expected, abs=TOLERANCE)
        seconds += sum(1 for p in expected if p.action2 is not None and p.action2.second)
        rolled = state.with_roll(roll)
        best = ranked[0].plan
        after1 = rolled.with_action1([best.action1])
        if after1.phase is Phase.ACTION2:
            chosen = solo.action2(0, after1)
            assert table.value(after1.with_action2(chosen)) == pytest.approx(
                ranked[0].expected_score, abs=TOLERANCE)
        # on with a random plan (the optimal ones would end the game fast)
        state = state.play_plan(roll, rng.choice(sorted(expected, key=str)))
    assert seconds >= 3


def test_a_canonical_table_goes_through_the_cache_and_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve`` stores the table of open rows canonically where the dense one would be
    too big (the Double A pad); made to do so on a small four-row pad, the table it writes,
    reads back (memory-mapped) and looks up equals the dense one on every state."""
    pad = second_cross_pad("da-four", "aadd", 3, 1)
    rules = Ruleset(players=1)
    dense = solve(rules, layout=pad, cache=False)
    monkeypatch.setattr(double_a, "CANONICAL_ABOVE", 0)
    assert DoubleALayout.of(pad).canonical
    solved = solve(rules, layout=pad, cache=tmp_path)
    loaded = solve(rules, layout=pad, cache=tmp_path)
    assert loaded.loaded and not solved.loaded
    assert loaded.states < dense.states
    rng = random.Random(34)
    state = new_game(1, rules, layout=pad)
    for _ in range(300):
        if state.is_over:
            state = new_game(1, rules, layout=pad)
        assert loaded.value(state) == pytest.approx(dense.value(state), abs=TOLERANCE)
        dice = {c.value: rng.randint(1, 6) for c in state.dice_in_play}
        roll = Roll.of(rng.randint(1, 6), rng.randint(1, 6), **dice)
        plans = sorted({pv.plan for pv in dense.plan_values(state, roll)}, key=str)
        state = state.play_plan(roll, rng.choice(plans))
