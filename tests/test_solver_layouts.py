"""The solver on sheet layouts other than the official one (issue 13).

Small layouts with mixed cell colours, permuted numbers, a number two rows may
take with the same die, and cells of a colour whose die is not rolled: the fast
solver (with and without its symmetry reduction) against the naive reference
solver on every state, to 1e-9.  Then the symmetry search: the official group
comes out as the hand-made one, Qwixx Mixx A has the flip, Mixx B nothing, and
relabelling a position by a symmetry leaves its value unchanged.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.errors import ParseError
from qwixx_math.layouts import MIXX_A, MIXX_B, OFFICIAL, SheetLayout
from qwixx_math.model import COLOURS, Roll, Sheet
from qwixx_math.rules import GameState, legal_plans, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, SolverTable, Variant, solve, symmetry_group
from qwixx_math.solver.engine import solve_tables
from qwixx_math.solver.lucky import lucky_variant
from qwixx_math.solver.symmetry import is_symmetry

TOLERANCE = 1e-9
R, Y, G, B = COLOURS

#: Small sheets, each exercising one thing the official sheet does not have.
SMALL = {
    # die red may mark 7 in both rows; rows mix red and yellow cells
    "two-targets": SheetLayout.of_rows("two-targets", [
        [(5, Y), (7, R), (9, R)], [(7, R), (4, Y), (6, Y)]], lock_threshold=1, penalty_boxes=2),
    # like Mixx A: the flip with rows swapped and colours swapped is a symmetry
    "mixx-a-like": SheetLayout.of_rows("mixx-a-like", [
        [(2, Y), (3, R), (4, R)], [(12, R), (11, Y), (10, Y)]], lock_threshold=1,
        penalty_boxes=2),
    # like Mixx B: one-colour rows, numbers in a permuted order
    "mixx-b-like": SheetLayout.of_rows("mixx-b-like", [
        [(n, R) for n in (6, 2, 9)], [(n, Y) for n in (3, 10, 7)]],
        lock_threshold=1, penalty_boxes=2, closed_rows_to_end=1),
    # green cells, but no green die: those cells take the white sum only
    "no-die": SheetLayout.of_rows("no-die", [
        [(4, G), (7, Y), (9, R)], [(8, R), (3, G), (6, Y)]], lock_threshold=1, penalty_boxes=2),
}
#: Longer ones, for the slow run.
LARGER = {
    "mixx-a-like-4": SheetLayout.of_rows("mixx-a-like-4", [
        [(2, Y), (3, R), (4, Y), (5, R)], [(12, R), (11, Y), (10, R), (9, Y)]],
        lock_threshold=1, penalty_boxes=2),
    "mixx-b-like-4": SheetLayout.of_rows("mixx-b-like-4", [
        [(n, R) for n in (6, 2, 9, 4)], [(n, Y) for n in (3, 10, 7, 5)]],
        lock_threshold=2, penalty_boxes=2, closed_rows_to_end=1),
    "three-rows": SheetLayout.of_rows("three-rows", [
        [(7, B), (4, G), (8, R)], [(6, R), (9, B), (5, Y)], [(3, Y), (8, R), (10, G)]],
        lock_threshold=1, penalty_boxes=1),
}


def fast_table(variant: Variant, ruleset: Ruleset, symmetry: bool, players: int = 1
               ) -> SolverTable:
    data, _ = solve_tables(variant, ruleset.action2_after_action1_end, symmetry=symmetry,
                           players=players)
    return SolverTable(variant, ruleset, data, float(data[0]), players=players)


@pytest.mark.parametrize(("name", "a2"), [
    ("two-targets", False), ("two-targets", True), ("mixx-a-like", False),
    ("mixx-b-like", True), ("no-die", False), ("no-die", True)])
def test_fast_solver_equals_naive_solver_on_small_layouts(name: str, a2: bool) -> None:
    check_every_state(SMALL[name], a2)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a2"), [(n, a2) for n in LARGER for a2 in (False, True)])
def test_fast_solver_equals_naive_solver_on_larger_layouts(name: str, a2: bool) -> None:
    check_every_state(LARGER[name], a2)


def check_every_state(layout: SheetLayout, a2: bool, rules: Ruleset | None = None) -> int:
    """The fast solver, with and without its symmetry reduction, against the naive one on
    every running state of ``layout``; returns how many states were checked.  ``rules``
    (default: R15 option ``a2``): the ruleset, whose lucky Options (LG4, LG5) the solved
    variant takes (test_solver_longo_lucky)."""
    name = layout.name
    ruleset = rules if rules is not None else Ruleset(players=1, action2_after_game_end=a2)
    variant = lucky_variant(Variant(layout), ruleset).with_da_same_turn(ruleset.da_same_turn)
    naive = NaiveSolver(variant, ruleset)
    tables = [fast_table(variant, ruleset, symmetry) for symmetry in (True, False)]
    checked = 0
    for state in naive.states():
        expected = naive.value(state)
        for table in tables:
            got = table.value(state)
            assert abs(got - expected) <= TOLERANCE, (name, state.describe(), got, expected)
        checked += 1
    assert checked > 20
    return checked


def test_the_table_model_on_a_mixed_layout_equals_the_naive_solver() -> None:
    variant = Variant(SMALL["two-targets"])
    ruleset = Ruleset(players=1)
    naive = NaiveSolver(variant, ruleset, players=2)
    table = fast_table(variant, ruleset, symmetry=True, players=2)
    for state in naive.states():
        for before_me in (0, 1):
            expected = naive.value(state, before_me)
            got = table.value(state.sheets[0], state.closed, before_me)
            assert abs(got - expected) <= TOLERANCE, (state.describe(), before_me)


def test_action2_goes_to_the_cells_of_the_die_colour() -> None:
    """The rules core's turn on Mixx A, which the naive solver and plan_values read."""
    game = new_game(1, layout=MIXX_A)
    plans = {p.action2 for p in legal_plans(game, Roll.of(1, 2, red=3, yellow=1, green=1,
                                                              blue=4))}
    marks = {(m.colour, m.number) for m in plans if m is not None}
    # blue + white: 5 and 6; blue 5 and 6 are cells of row 1 (the red lock)
    assert (R, 5) in marks and (R, 6) in marks
    assert (B, 5) not in marks  # row 4's 5 is yellow
    for m in filter(None, plans):  # every action 2 is in a cell of a rolled die
        assert MIXX_A.cell_colour(m.colour, m.number) is not None
    # a row closed in action 1 takes its die out of play: no blue action 2 then
    closing = Sheet.from_marks({B: [12, 11, 10, 9, 8]}, layout=MIXX_A)
    game = GameState(game.ruleset, (closing,))
    for plan in legal_plans(game, Roll.of(1, 1, red=1, yellow=1, green=1, blue=1)):
        if plan.action1 is not None and plan.action1.colour is B:
            assert plan.action1.number == 2
            assert plan.action2 is None or MIXX_A.cell_colour(
                plan.action2.colour, plan.action2.number) is not B


def test_symmetry_groups_are_found_by_search() -> None:
    assert set(symmetry_group(Variant(OFFICIAL))) == {
        (0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2), (1, 0, 3, 2),
        (2, 3, 0, 1), (3, 2, 0, 1), (2, 3, 1, 0), (3, 2, 1, 0),
    }
    assert symmetry_group(Variant(MIXX_A)) == ((0, 1, 2, 3), (2, 3, 0, 1))
    assert is_symmetry(Variant(MIXX_A), (2, 3, 0, 1), flip=True)
    assert not is_symmetry(Variant(MIXX_A), (2, 3, 0, 1), flip=False)
    assert symmetry_group(Variant(MIXX_B)) == ((0, 1, 2, 3),)
    assert len(symmetry_group(Variant(SMALL["mixx-a-like"]))) == 2
    assert len(symmetry_group(Variant(SMALL["mixx-b-like"]))) == 1
    for layout in (OFFICIAL, MIXX_A):  # a group: closed under composition
        group = symmetry_group(Variant(layout))
        for g, h in itertools.product(group, repeat=2):
            assert tuple(h[g[i]] for i in range(4)) in group


@pytest.fixture(scope="module")
def mixx_a_like_table() -> SolverTable:
    return solve(Ruleset(players=1), Variant(SMALL["mixx-a-like"]), cache=False)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_relabelling_by_a_symmetry_keeps_every_value(mixx_a_like_table: SolverTable,
                                                     data: st.DataObject) -> None:
    table = mixx_a_like_table
    variant = table.variant
    naive = list(NaiveSolver(variant).states())
    sheet = data.draw(st.sampled_from(naive)).sheets[0]
    locks = variant.sheet.locks
    for g in symmetry_group(variant):
        masks = [0, 0, 0, 0]
        for i, colour in enumerate(locks):  # row i's marked positions go to row g[i]
            masks[locks[g[i]].index] = sheet.masks[colour.index]
        image = Sheet((masks[0], masks[1], masks[2], masks[3]), sheet.penalties, sheet.layout)
        assert table.value(image) == pytest.approx(table.value(sheet), abs=TOLERANCE)


def test_variants_compare_by_their_cells() -> None:
    assert Variant() == Variant(OFFICIAL) == Variant.from_letters("aadd")
    assert hash(Variant()) == hash(Variant.from_letters("aadd"))
    assert Variant(MIXX_A) != Variant() and Variant(MIXX_A).key == "mixx-a"
    assert Variant(MIXX_B).key == "mixx-b"
    assert Variant().key == "aadd-L11-t5-p4-k2"  # the cache file name of the official table
    assert Variant(SMALL["no-die"]).die_at(0, 0) == -1
    assert Variant(SMALL["two-targets"]).action2_targets(0, 7) == (0, 1)
    uneven = SheetLayout.of_rows("uneven", [[(2, R), (3, R)], [(4, Y)]], lock_threshold=0)
    with pytest.raises(ParseError, match="one length"):
        Variant(uneven)
    with pytest.raises(ParseError, match="SheetLayout"):
        Variant("mixx-a")  # type: ignore[arg-type]


def test_solve_takes_a_layout() -> None:
    small = SMALL["mixx-b-like"]
    by_layout = solve(layout=small, cache=False)
    assert by_layout.variant == Variant(small)
    assert by_layout.start_value == solve(variant=Variant(small), cache=False).start_value
    with pytest.raises(ParseError, match="not both"):
        solve(variant=Variant(), layout=small, cache=False)
    with pytest.raises(ParseError, match="unknown layout"):
        solve(layout="mixx-c", cache=False)


@settings(max_examples=50, deadline=None)
@given(name=st.one_of(st.text(max_size=12), st.integers(), st.none(), st.just("MIXX-A ")))
def test_solve_rejects_bad_layouts_with_a_typed_error(name: object) -> None:
    if name is None or (isinstance(name, str) and name.strip().lower() in
                        {"official", "mixx-a", "mixx-b"}):
        return  # a valid request (solving it is the slow test's business)
    with pytest.raises(ParseError):
        solve(layout=name, cache=False)  # type: ignore[arg-type]
