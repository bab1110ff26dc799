"""Bonus B's reduced state (research/bonus_b_state.py): the proof check.

On tiny Bonus B pads (built through the public layout reader with all five symbols placed
so that every reward and the nesting occur, solved through the public rules core) the
reduced solver's exact value plus the octagon's points already paid equals the full-state
reference's, on the empty sheet and on every reachable full sheet mapped to its reduced
state, under both R15 Options; and the reachable reduced states lie inside those
:func:`count_states` counts, which are exactly the images of every consistent sheet.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from qwixx_math.layouts import SheetLayout
from qwixx_math.ruleset import Ruleset
from research.bonus_b_state import (
    DEAD,
    ReducedSolver,
    count_states,
    paid,
    reduced_of,
    reduced_of_masks,
    reduced_states,
    table_sizes,
    undecided,
)
from research.chain_state import TINY_COLOURS, FullSolver, tiny_layout

Cells = dict[str, list[tuple[int, int]]]
# two rows of 5: every cell a symbol cell, the star and the diamond on the last numbers
TWO_ROWS: Cells = {"circle": [(0, 1), (1, 1)], "diamond": [(0, 2), (1, 4)],
                   "square": [(0, 0), (1, 2)], "octagon": [(0, 3), (1, 3)],
                   "star": [(0, 4), (1, 0)]}
# two rows of 6: the last numbers free
TWO_ROWS_6: Cells = {"circle": [(0, 1), (1, 2)], "diamond": [(0, 3), (1, 1)],
                     "square": [(0, 2), (1, 4)], "octagon": [(0, 4), (1, 3)],
                     "star": [(0, 0), (1, 0)]}
# three rows of 4: the circle chooses among three rows, the diamond crosses three
THREE_ROWS: Cells = {"circle": [(0, 1), (2, 1)], "diamond": [(1, 0), (2, 2)],
                     "square": [(0, 0), (1, 2)], "octagon": [(0, 2), (2, 0)],
                     "star": [(1, 1), (2, 3)]}


def pad(name: str, directions: str, length: int, cells: Cells, *, penalty_boxes: int = 2,
        closed_rows_to_end: int = 2) -> SheetLayout:
    symbols = {k: [[TINY_COLOURS[r], p] for r, p in v] for k, v in cells.items()}
    return tiny_layout(name, directions, length, lock_threshold=2, penalty_boxes=penalty_boxes,
                       closed_rows_to_end=closed_rows_to_end, symbols=symbols)


def check(layout: SheetLayout, action2_after_game_end: bool) -> Fraction:
    full = FullSolver(layout, Ruleset(players=1, action2_after_game_end=action2_after_game_end))
    reduced = ReducedSolver(layout, action2_after_game_end)
    value = full.start_value()
    assert isinstance(value, Fraction)
    assert reduced.start_value() == value
    assert len(full.memo) > 100  # the recursion went somewhere
    for key, sheet in full.sheets.items():
        assert reduced.value(reduced_of(sheet)) + paid(sheet) == full.memo[key], sheet
    # every symbol activated somewhere, and some inside a nesting of forced crosses (V4)
    assert all(reduced.events[str(k)] > 0 for k in range(5)), reduced.events
    assert reduced.events["nested"] > 0
    assert any(paid(sheet) for sheet in full.sheets.values())
    # fewer reduced states than full sheets
    assert len(reduced.memo) < len(full.memo)
    images = {(reduced_of(sheet)[0], reduced_of(sheet)[2]) for sheet in full.sheets.values()}
    consistent = reduced_states(layout)
    assert images <= consistent
    return value


def test_one_close_ends_the_game() -> None:
    # the fast check: two rows of five, one penalty box, R15 = True
    check(pad("b1", "ad", 5, TWO_ROWS, penalty_boxes=1, closed_rows_to_end=1), True)


@pytest.mark.slow
def test_r15_matters_and_both_options_agree() -> None:
    layout = pad("b1", "ad", 5, TWO_ROWS, penalty_boxes=1, closed_rows_to_end=1)
    assert check(layout, False) != check(layout, True)


@pytest.mark.slow
@pytest.mark.parametrize("a2", [False, True])
def test_a_closed_row_in_the_square(a2: bool) -> None:
    # one row may close and stay in the square's min (two closes end the game)
    check(pad("b2", "ad", 5, TWO_ROWS), a2)


@pytest.mark.slow
def test_last_numbers_free() -> None:
    check(pad("b3", "ad", 6, TWO_ROWS_6), False)


@pytest.mark.slow
def test_three_rows() -> None:
    check(pad("b4", "add", 4, THREE_ROWS), True)


def test_count_states_against_every_consistent_sheet() -> None:
    """The counting against the obvious enumeration of every sheet whose closed rows held
    the lock threshold, mapped to reduced states by :func:`reduced_of`."""
    for name, directions, length, cells, closing in (
            ("b2", "ad", 5, TWO_ROWS, 2), ("b3", "ad", 6, TWO_ROWS_6, 2),
            ("b4", "add", 4, THREE_ROWS, 2), ("b5", "add", 4, THREE_ROWS, 1)):
        layout = pad(name, directions, length, cells, closed_rows_to_end=closing)
        n = len(directions)
        last = length - 1
        masks = [m for m in range(1 << length)
                 if not m >> last & 1 or (m & ~(1 << last)).bit_count() >= 2]
        images = set()
        for combo in itertools.product(masks, repeat=n):
            if sum(m >> last & 1 for m in combo) >= closing:
                continue
            # from the masks: a Sheet refuses some consistent sheets no game reaches (BB3)
            rows, _, status = reduced_of_masks(layout, (*combo, 0, 0), 0)
            images.add((rows, status))
        assert reduced_states(layout) == images
        by_key = Counter((sum(row[2] for row in rows), int(status[2] == DEAD))
                         for rows, status in images)
        assert count_states(layout) == by_key


def test_one_bit_per_undecided_symbol() -> None:
    """The kernel plan's lanes: given the frontiers, each symbol shows at most two statuses
    among the consistent states, two exactly for the symbols :func:`undecided` counts; and
    the per-frontier table holds at least every consistent state."""
    for layout in (pad("b2", "ad", 5, TWO_ROWS), pad("b4", "add", 4, THREE_ROWS)):
        seen: dict[tuple[int, ...], list[set[int]]] = {}
        for rows, status in reduced_states(layout):
            f = tuple(row[0] for row in rows)
            sets = seen.setdefault(f, [set() for _ in status])
            for k, s in enumerate(status):
                sets[k].add(s)
        assert any(undecided(layout, f) for f in seen)
        for f, sets in seen.items():
            assert all(len(s) <= 2 for s in sets), (f, sets)
            assert sum(len(s) == 2 for s in sets) == undecided(layout, f), (f, sets)
        sizes = table_sizes(layout)
        states = sum(count_states(layout).values()) * layout.penalty_boxes
        assert sizes["official"] < states <= sizes["by_frontiers"] <= sizes["dense_bits"]
