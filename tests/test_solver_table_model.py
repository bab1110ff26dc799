"""The table model (issue 11): the fast solver against the naive one, for N = 1..3 players.

The naive solver enumerates every roll of this player's own turns (all dice) and
the 36 white pairs of every other player's roll, with a memoised recursion; the
fast solver is the numba kernel with its level chain.  They share nothing but the
layout (the naive solver plays through the rules core), so agreement to 1e-9 on
every state and every level checks the kernel's passive steps, the level it
reads after an own turn and the penalty transition into level N - 1.
"""

from __future__ import annotations

import contextlib
import functools
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.errors import ParseError, QwixxError
from qwixx_math.model import Roll, Sheet
from qwixx_math.rules import new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, Variant, solve
from qwixx_math.solver.engine import solve_tables
from qwixx_math.solver.layout import Layout
from qwixx_math.solver.table import SolverTable

TOLERANCE = 1e-9

# (letters, row length, lock threshold, penalty boxes, closed rows to end)
FAST = ("ad", 4, 2, 2, 1)  # flip symmetry; the first close ends the game
SHORT = ("da", 3, 1, 2, 2)  # every row can close; both closed ends it, also on a passive roll
SLOW = ("aad", 3, 1, 2, 2)  # three rows, no flip; a passive close can end the game


def _table(variant: Variant, ruleset: Ruleset, players: int, symmetry: bool) -> SolverTable:
    data, _ = solve_tables(variant, ruleset.action2_after_action1_end, symmetry=symmetry,
                           players=players)
    return SolverTable(variant, ruleset, data, float(data[0]), players=players)


@functools.lru_cache(maxsize=8)
def _naive(spec: tuple[str, int, int, int, int], a2: bool, players: int) -> NaiveSolver:
    return NaiveSolver(Variant.from_letters(*spec),
                       Ruleset(players=1, action2_after_game_end=a2), players=players)


def check_every_state(spec: tuple[str, int, int, int, int], a2: bool, players: int,
                      symmetry: bool) -> None:
    variant = Variant.from_letters(*spec)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    fast = _table(variant, ruleset, players, symmetry)
    naive = _naive(spec, a2, players)
    checked = 0
    for state in naive.states():
        for before_me in range(players):
            expected = naive.value(state, before_me)
            got = fast.value(state, before_me=before_me)
            assert abs(got - expected) <= TOLERANCE, (state.describe(), before_me, got, expected)
            checked += 1
    assert checked > 0
    empty = Sheet.empty(variant.sheet)
    assert fast.seat_values == pytest.approx(
        [naive.value(empty, k) for k in range(players)], abs=TOLERANCE)


@pytest.mark.parametrize("symmetry", [True, False], ids=["symmetry", "no-symmetry"])
@pytest.mark.parametrize("players", [1, 2, 3])
@pytest.mark.parametrize("a2", [False, True], ids=["r15", "a2-after-end"])
def test_fast_table_equals_naive_table(a2: bool, players: int, symmetry: bool) -> None:
    check_every_state(FAST, a2, players, symmetry)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("a2", [False, True], ids=["r15", "a2-after-end"])
def test_fast_table_equals_naive_table_with_passive_closes(a2: bool, players: int) -> None:
    check_every_state(SHORT, a2, players, True)


@pytest.mark.slow
@pytest.mark.parametrize("symmetry", [True, False], ids=["symmetry", "no-symmetry"])
@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("a2", [False, True], ids=["r15", "a2-after-end"])
def test_fast_table_equals_naive_table_on_three_rows(a2: bool, players: int,
                                                     symmetry: bool) -> None:
    check_every_state(SLOW, a2, players, symmetry)


def test_one_player_is_the_solitaire_table() -> None:
    variant = Variant.from_letters("ad", 4, 2, 2, 1)
    solitaire, _ = solve_tables(variant, False)
    table, _ = solve_tables(variant, False, players=1)
    assert (solitaire == table).all()
    assert Layout.of(variant, 1).size == Layout.of(variant).size


def test_more_passive_rolls_never_hurt() -> None:
    """Passing is free and the others never end the game in this model, so an extra
    roll by another player before this player's own can only add options: the value
    never falls with ``before_me`` nor from N to N + 1 players at the same position."""
    variant = Variant.from_letters(*SHORT)
    ruleset = Ruleset(players=1)
    tables = {n: _table(variant, ruleset, n, True) for n in (1, 2, 3)}
    naive = NaiveSolver(variant, ruleset)
    strict = 0
    for state in naive.states():
        for n in (1, 2, 3):
            values = [tables[n].value(state, before_me=k) for k in range(n)]
            assert all(a <= b + 1e-12 for a, b in itertools.pairwise(values))
            if n < 3:
                more = tables[n + 1].value(state, before_me=n)
                assert values[-1] <= more + 1e-12
                strict += values[-1] < more - 1e-9
    assert strict > 0  # and free marks are worth something somewhere


def test_plan_values_read_the_level_after_an_own_turn() -> None:
    variant = Variant.from_letters("ad", 4, 2, 2, 1)
    ruleset = Ruleset(players=1)
    table = _table(variant, ruleset, 3, True)
    game = new_game(1, layout=variant.sheet)
    roll = Roll.of(1, 2, red=3, yellow=6)
    plans = table.plan_values(game, roll)
    for pv in plans:  # each plan is worth its sheet after the turn, two rolls before the next
        after = game.play_plan(roll, pv.plan)
        assert pv.value == table.value(after.sheets[0], before_me=2)
    assert table.best_plan(game, roll) == plans[0]
    assert plans[0].value == max(pv.value for pv in plans)


@pytest.mark.parametrize("players", [0, 6, -1, True, 2.0, "2", None])
def test_players_outside_one_to_five_are_refused(players: object) -> None:
    with pytest.raises(ParseError, match="R3"):
        solve(players=players, cache=False)  # type: ignore[arg-type]


@pytest.mark.parametrize("before_me", [-1, 3, True, 1.0, None])
def test_before_me_outside_the_table_is_refused(before_me: object) -> None:
    variant = Variant.from_letters("ad", 4, 2, 2, 1)
    table = _table(variant, Ruleset(players=1), 3, True)
    with pytest.raises(ParseError, match="before_me"):
        table.value(Sheet.empty(variant.sheet), before_me=before_me)  # type: ignore[arg-type]


def test_table_files_are_cached_per_player_count(tmp_path: object) -> None:
    from pathlib import Path

    directory = Path(str(tmp_path))
    variant = Variant.from_letters("ad", 4, 2, 2, 1)
    two = solve(None, variant, cache=directory, players=2, progress=False)
    one = solve(None, variant, cache=directory, players=1, progress=False)
    assert two.path is not None and two.path.name.startswith("table2-")
    assert one.path is not None and one.path.name.startswith("solitaire-")
    again = solve(None, variant, cache=directory, players=2, progress=False)
    assert again.loaded and again.seat_values == two.seat_values
    # a file of another player count under this name is foreign: rebuilt with a warning
    two.path.unlink()
    one.path.rename(two.path)
    with pytest.warns(UserWarning, match="foreign"):
        rebuilt = solve(None, variant, cache=directory, players=2, progress=False)
    assert not rebuilt.loaded and rebuilt.seat_values == two.seat_values


_ANYTHING = st.one_of(st.none(), st.integers(-10, 10), st.text(max_size=5), st.floats(),
                      st.lists(st.integers(-2, 8), max_size=4), st.tuples(st.integers(-1, 7)),
                      st.dictionaries(st.integers(-1, 3), st.integers(-1, 7), max_size=3))
_LAYOUT = Variant.from_letters(*FAST).sheet
#: Values of the right types, some of them wrong for the table: another layout's sheet,
#: states of another R15 option or phase, rolls with the wrong dice.
_VALUES = st.one_of(
    _ANYTHING,
    st.sampled_from([Sheet.EMPTY, Sheet.empty(_LAYOUT), new_game(1, layout=_LAYOUT),
                     new_game(2, layout=_LAYOUT), new_game(1),
                     new_game(ruleset=Ruleset(players=1, action2_after_game_end=True),
                              layout=_LAYOUT),
                     new_game(1, layout=_LAYOUT).with_roll(Roll.of(1, 2, red=3, yellow=4)),
                     Roll.of(1, 2, red=3, yellow=4), Roll.of(1, 2, red=3), Roll.of(1, 1),
                     Roll.of(6, 6, red=1, yellow=1, green=1, blue=1), "red", "r,y", "g"]))


@settings(max_examples=150, deadline=None)
@given(position=_VALUES, closed=_VALUES, before_me=_VALUES, roll=_VALUES)
def test_table_lookups_refuse_bad_input_with_typed_errors(position: object, closed: object,
                                                          before_me: object,
                                                          roll: object) -> None:
    table = _fuzz_table()
    for call in (lambda: table.value(position, closed, before_me),  # type: ignore[arg-type]
                 lambda: table.value(position),  # type: ignore[arg-type]
                 lambda: table.plan_values(position, roll)):  # type: ignore[arg-type]
        with contextlib.suppress(QwixxError):
            call()


@functools.lru_cache(maxsize=1)
def _fuzz_table() -> SolverTable:
    return _table(Variant.from_letters(*FAST), Ruleset(players=1), 2, True)
