"""The Chain's reduced state (research/chain_state.py): the proof check.

On tiny chain pads (built through the public layout reader, solved through the public
rules core) the reduced solver's exact value equals the full-state reference's on the
empty sheet and on every reachable full sheet mapped to its reduced state, under both
R15 Options; and the reduced states :func:`count_states` counts are exactly the images
of the reachable full sheets.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import NaiveSolver, Variant
from research.chain_state import (
    FullSolver,
    ReducedSolver,
    count_states,
    reduced_of,
    reduced_states,
    tiny_chain_layout,
)

# name, directions, row length, pairs ((row, position), (row, position)), layout fields
ONE_PAIR = ("c1", "ad", 4, [((0, 1), (1, 1))], {"lock_threshold": 2, "penalty_boxes": 2})
ONE_TO_END = ("c3", "aa", 5, [((0, 0), (1, 0)), ((0, 2), (1, 2))],
              {"lock_threshold": 3, "penalty_boxes": 2, "closed_rows_to_end": 1})
TWO_PAIRS = ("c2", "ad", 5, [((0, 1), (1, 1)), ((0, 3), (1, 3))],
             {"lock_threshold": 2, "penalty_boxes": 2})
SKEW = ("c4", "ad", 5, [((0, 1), (1, 3))], {"lock_threshold": 2, "penalty_boxes": 3})
THREE_ROWS = ("c5", "add", 4, [((0, 1), (1, 1)), ((1, 2), (2, 2))],
              {"lock_threshold": 2, "penalty_boxes": 2})


def check(case: tuple[object, ...], action2_after_game_end: bool) -> Fraction:
    name, directions, length, pairs, fields = case
    layout = tiny_chain_layout(name, directions, length, pairs, **fields)  # type: ignore[arg-type]
    full = FullSolver(layout, Ruleset(players=1, action2_after_game_end=action2_after_game_end))
    reduced = ReducedSolver(layout, action2_after_game_end)
    value = full.start_value()
    assert reduced.start_value() == value
    assert isinstance(value, Fraction)
    assert len(full.memo) > 50  # the recursion went somewhere
    for key, sheet in full.sheets.items():
        assert reduced.value(reduced_of(sheet)) == full.memo[key], sheet
    # fewer states than full sheets: several sheets share a reduced state
    assert len(reduced.memo) < len(full.memo)
    if all(p1 == p2 for (_, p1), (_, p2) in layout.chain):
        images = {reduced_of(sheet)[0] for sheet in full.sheets.values()}
        assert images == reduced_states(layout)
        by_closed = Counter(frozenset(r for r, row in enumerate(rows) if row[2])
                            for rows in images)
        assert count_states(layout) == {shut: by_closed[shut] for shut in count_states(layout)}
    return value


@pytest.mark.parametrize("a2", [False, True])
def test_one_pair(a2: bool) -> None:
    check(ONE_PAIR, a2)


def test_one_closed_row_ends_under_both_r15_options() -> None:
    # both Options checked, and they play differently here (so the check sees R15 matter)
    assert check(ONE_TO_END, False) != check(ONE_TO_END, True)


@pytest.mark.slow
@pytest.mark.parametrize("a2", [False, True])
def test_two_pairs(a2: bool) -> None:
    check(TWO_PAIRS, a2)


@pytest.mark.slow
def test_pair_across_columns() -> None:
    check(SKEW, False)


@pytest.mark.slow
def test_three_rows_two_row_pairs() -> None:
    check(THREE_ROWS, True)


def test_without_pairs_the_reduced_solver_is_the_naive_solver() -> None:
    # the reduced solver's own rules on a plain pad against the library's naive solver
    plain = Variant.from_letters("ad", 4, 2, 2, 2)
    layout = tiny_chain_layout("plain", "ad", 4, [], lock_threshold=2, penalty_boxes=2)
    assert layout == plain.sheet
    value = ReducedSolver(layout).start_value()
    assert float(value) == pytest.approx(NaiveSolver(plain).start_value(), abs=1e-9)


def test_the_pairs_change_the_value() -> None:
    chained = tiny_chain_layout("c1", "ad", 4, [((0, 1), (1, 1))], lock_threshold=2,
                                penalty_boxes=2)
    plain = tiny_chain_layout("plain", "ad", 4, [], lock_threshold=2, penalty_boxes=2)
    assert ReducedSolver(chained).start_value() != ReducedSolver(plain).start_value()


def test_count_states_refuses_pairs_across_columns() -> None:
    name, directions, length, pairs, fields = SKEW
    with pytest.raises(ValueError, match="one column"):
        count_states(tiny_chain_layout(name, directions, length, pairs, **fields))


def test_count_states_against_every_consistent_sheet_of_a_four_row_pad() -> None:
    """The counting formula against the obvious enumeration of every full sheet of a
    four-row pad whose pairs are consistent (CC7) and whose closed rows held the lock
    threshold (the sheets the tiny pads above find reachable), mapped to reduced states."""
    pairs = [((0, 1), (1, 1)), ((0, 3), (1, 3)), ((1, 2), (2, 2)), ((2, 1), (3, 1)),
             ((2, 3), (3, 3))]
    layout = tiny_chain_layout("c6", "adad", 5, pairs, lock_threshold=2, penalty_boxes=2)
    last = 4
    row_masks = []
    for mask in range(1 << 5):
        closed = bool(mask >> last & 1)
        if closed and (mask & ~(1 << last)).bit_count() < 2:
            continue
        row_masks.append((mask, (mask.bit_length() - 1, mask.bit_count() + closed, closed)))
    images: set[tuple[tuple[int, int, bool], ...]] = set()
    for combo in itertools.product(row_masks, repeat=4):
        if sum(row[1][2] for row in combo) >= layout.closed_rows_to_end:
            continue
        if all((combo[r1][0] >> p1 & 1) == (combo[r2][0] >> p2 & 1)
               for (r1, p1), (r2, p2) in pairs):
            images.add(tuple(row[1] for row in combo))
    assert reduced_states(layout) == images
    assert sum(count_states(layout).values()) == len(images)
