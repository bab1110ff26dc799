"""The fast solver against the naive reference solver, on every state of small variants.

The naive solver (qwixx_math.solver.naive) enumerates every roll of the dice in
play and every legal plan of the rules core (qwixx_math.rules), with a memoised
recursion over rules-core states; the
fast solver is the numba kernel with the symmetry reduction, the per-state
cache and the expected-maximum merge.  They share nothing but the variant, so
agreement to 1e-9 on every state checks the kernel's rules and arithmetic.
"""

from __future__ import annotations

import pytest

from qwixx_math.ruleset import EndCheck, Ruleset
from qwixx_math.solver import NaiveSolver, Variant, solve, symmetry_group

TOLERANCE = 1e-9

# (letters, row length, lock threshold, penalty boxes, closed rows to end)
FAST_VARIANTS = [
    ("ad", 4, 2, 2, 1),  # flip symmetry; the first close ends the game
    ("ad", 3, 0, 1, 2),  # last number at once; one penalty ends it
    ("aad", 2, 1, 2, 2),  # no flip; one-closed tables in two orbits
    ("a", 6, 2, 3, 1),  # one row: the trivial group
    ("da", 4, 1, 2, 2),  # every row can close; both closed ends it
    ("ad", 5, 3, 2, 1),  # frozen rows: a row with 1 mark on its 4th number is written, not solved
]
# (..., action2_after_game_end)
SLOW_VARIANTS = [
    *((*spec, a2) for spec in [
        ("ad", 5, 2, 2, 2),
        ("ad", 6, 3, 2, 2),
        ("aad", 3, 1, 1, 2),
        ("ada", 3, 2, 2, 1),
        ("aadd", 2, 1, 1, 2),  # the official group of order 8 on a tiny sheet
    ] for a2 in (False, True)),
    ("ad", 11, 5, 1, 1, True),  # full-length rows (2.5 minutes)
]


def check_every_state(letters: str, length: int, threshold: int, boxes: int, to_end: int,
                      action2_after_game_end: bool) -> None:
    variant = Variant.from_letters(letters, length, threshold, boxes, to_end)
    ruleset = Ruleset(players=1, action2_after_game_end=action2_after_game_end)
    fast = solve(ruleset, variant, cache=False)
    naive = NaiveSolver(variant, ruleset)
    checked = 0
    for state in naive.states():
        expected = naive.value(state)
        got = fast.value(state)
        assert abs(got - expected) <= TOLERANCE, (variant.key, state.describe(), got, expected)
        checked += 1
    assert checked > 0
    assert fast.start_value == pytest.approx(naive.start_value(), abs=TOLERANCE)


@pytest.mark.parametrize("action2_after_game_end", [False, True])
@pytest.mark.parametrize("spec", FAST_VARIANTS, ids=lambda s: "-".join(map(str, s)))
def test_fast_solver_equals_naive_solver(spec: tuple[str, int, int, int, int],
                                         action2_after_game_end: bool) -> None:
    check_every_state(*spec, action2_after_game_end)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SLOW_VARIANTS, ids=lambda s: "-".join(map(str, s)))
def test_fast_solver_equals_naive_solver_larger(spec: tuple[str, int, int, int, int, bool]) -> None:
    check_every_state(*spec)


def test_the_r15_option_matters_where_the_sources_say_it_should() -> None:
    """With the first close ending the game, action 2 after it is worth something."""
    variant = Variant.from_letters("ad", 4, 2, 2, 1)
    off = solve(Ruleset(players=1), variant, cache=False).start_value
    on = solve(Ruleset(players=1, action2_after_game_end=True), variant, cache=False).start_value
    assert on > off + 1e-3
    # end_check=END_OF_TURN also gives action 2 after the end: the same game
    dialect = solve(Ruleset(players=1, end_check=EndCheck.END_OF_TURN), variant, cache=False)
    assert dialect.start_value == on


def test_players_does_not_change_the_solitaire_table() -> None:
    variant = Variant.from_letters("ad", 3, 0, 1, 2)
    one = solve(Ruleset(players=1), variant, cache=False)
    two = solve(Ruleset(players=2), variant, cache=False)
    assert one.start_value == two.start_value
    assert (one.data == two.data).all()


def test_frozen_rows_are_found_and_skipped() -> None:
    """The fast solver writes a frozen row's lower codes from its top code
    (engine.frozen_codes); the naive solver knows nothing of it, so the variant above
    checks it on every state.  Here: that it is not vacuous, and the official codes."""
    from qwixx_math.keys import open_code as encode_row
    from qwixx_math.solver.engine import frozen_codes
    from qwixx_math.solver.layout import Layout

    small = Variant.from_letters("ad", 5, 3, 2, 1)
    assert frozen_codes(small, Layout.of(small)) == (encode_row(3, 2), [encode_row(3, 1)], [-2.0])
    table = solve(Ruleset(players=1), small, cache=False)
    assert table.stats is not None and table.stats.frozen_configurations > 0
    official = Variant()
    top, lower, gain = frozen_codes(official, Layout.of(official))
    assert (top, lower) == (encode_row(9, 4), [encode_row(9, m) for m in (1, 2, 3)])
    assert gain == [1.0 - 10.0, 3.0 - 10.0, 6.0 - 10.0]
    tiny = Variant.from_letters("ad", 4, 2, 2, 1)  # lock after 2: only one frozen code
    assert frozen_codes(tiny, Layout.of(tiny))[1] == []


def test_reference_variants_cover_the_interesting_groups() -> None:
    """The fast variants include a trivial group, a swap only, and the flip."""
    orders = {len(symmetry_group(Variant.from_letters(*s))) for s in FAST_VARIANTS}
    assert {1, 2} <= orders
    assert len(symmetry_group(Variant.from_letters("aadd", 2, 1, 1, 2))) == 8
