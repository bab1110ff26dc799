"""Qwixx Bonus, pad B: how small is the state an exact solitaire solver needs?

VARIANTS.md §3.5 puts the all-open state of Bonus B (BB1-BB9) at about 1.2e9: per row
(last, count) and one bit per symbol cell left of the row's frontier.  The argument
checked here (research/NOTEBOOK.md, "Bonus B's state"), under the default Options
(``bb_fewest_candidates = open_with_next_cell``, ``bb_diamond_order = colour_order``):

* every cross, voluntary or forced, lies right of its row's frontier (a forced cross takes
  the row's *next* cell, §0.1), so a cell right of the frontier is uncrossed, the frontier
  is crossed, and a cell left of it is decided for good;
* a symbol therefore is **live** (none of its cells is decided uncrossed: it may still
  activate), **dead** (a cell of it left of its frontier, or in a closed row, is
  uncrossed: it never activates) or **active** (both cells crossed).  Given the
  frontiers, at most two of the three are possible (a cell right of its frontier and one
  left: live or dead; a cell on its frontier or left of it and the other left of its
  frontier: active or dead; otherwise one), so it is one bit per symbol at most;
* the circle and the diamond pay at once (forced crosses, BB2, BB3): once active they are
  spent, exactly like dead ones; so are the octagon's +13 (BB5): it does not change play,
  so it is paid at activation as a reward of the move and the state forgets it.  Only the
  square (BB4) and the star (BB6) keep "active" apart from "dead";
* the square's min is over the four rows' final scores: with all rows open the game ends
  on a move whose result shows every row, so the terminal value is computed there; with one
  row closed (the game ends at two, so at most one) its count stays in the state (it still
  enters the min), as the Chain's closed counts do.

So a reduced state is ``(rows, penalties, status)``: per row (last position, count with
the lock box, closed), the penalties, and per symbol (circle, diamond, square, octagon,
star) LIVE, DEAD or ACTIVE (ACTIVE only for square and star).

Two exact solvers, both in :class:`fractions.Fraction`:

* ``research.chain_state.FullSolver``, the reference: memoised recursion over FULL sheets
  through the library's public rules core (``legal_plans``, ``GameState.play_plan``,
  ``outcome_table``; the forced crosses are the rules core's, ``qwixx_math.bonus_b``);
* :class:`ReducedSolver`: memoised recursion over reduced states, with transition rules
  of its own from the argument (a cross moves its row's (last, count); skipped symbol cells
  kill live symbols; a cross completing a live symbol activates it; the circle, the
  diamond and their nesting, V4, play forced crosses on next cells computed from the
  rows' (last, count) alone).

:func:`reduced_of` maps a full sheet to its reduced state; the full value is the reduced
value plus 13 if the octagon is active (:func:`paid`).  ``research/tests/
test_bonus_b_state.py`` checks the two agree on the empty sheet and on every reachable
full sheet of tiny pads.

:func:`count_states` counts the *consistent* reduced states (the images of every sheet
whose crosses are a frontier and cells left of it, closed rows holding the lock
threshold): an upper bound on the reachable ones (forced crosses make some consistent
sheets unreachable, e.g. an active circle with every row empty); the tests check the
reachable images lie inside.  Run ``python -m research.bonus_b_state`` for pad B.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction

import numpy as np

from qwixx_math.bonus_b import OCTAGON_POINTS
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import PENALTY_POINTS, Sheet, row_points
from research.chain_state import Row, action2_cells, expected_best, layout_argument

__all__ = ["ACTIVE", "DEAD", "LIVE", "ReducedSolver", "State", "count_states", "paid",
           "reduced_of", "reduced_of_masks", "reduced_states", "table_sizes", "undecided"]

LIVE, DEAD, ACTIVE = 0, 1, 2
CIRCLE, DIAMOND, SQUARE, OCTAGON, STAR = range(5)
#: Symbols whose activation is paid at once (their ACTIVE is DEAD: nothing more to come).
SPENT_WHEN_ACTIVE = (CIRCLE, DIAMOND, OCTAGON)
#: A reduced state: the rows in layout order, the penalties, the five symbols' status.
State = tuple[tuple[Row, ...], int, tuple[int, ...]]


def _status(k: int, crossed: Sequence[bool], decided: Sequence[bool]) -> int:
    """Symbol k's status from its two cells: crossed, and decided (left of the row's
    frontier or in a closed row)."""
    if all(crossed):
        return DEAD if k in SPENT_WHEN_ACTIVE else ACTIVE
    if any(d and not c for c, d in zip(crossed, decided, strict=True)):
        return DEAD
    return LIVE


def reduced_of(sheet: Sheet) -> State:
    """The reduced state of a full Bonus B sheet (module docstring)."""
    return reduced_of_masks(sheet.layout, sheet.masks, sheet.penalties)


def reduced_of_masks(layout: SheetLayout, masks: Sequence[int], penalties: int) -> State:
    """:func:`reduced_of` of the sheet with these row ``masks`` (no second crosses: Bonus B
    has none), without building a :class:`Sheet`, which refuses some sheets no game reaches
    (BB3's check): the consistent states counted here include those."""
    rows: list[Row] = []
    for colour in layout.locks:
        mask = masks[colour.index]
        rows.append((mask.bit_length() - 1, layout.count[colour.index][mask],
                     bool(mask & layout.lock_bits[colour.index])))
    status = []
    for k, pair in enumerate(layout.symbols):
        crossed = [bool(masks[layout.locks[r].index] >> p & 1) for r, p in pair]
        decided = [p < rows[r][0] or rows[r][2] for r, p in pair]
        status.append(_status(k, crossed, decided))
    return tuple(rows), penalties, tuple(status)


def paid(sheet: Sheet) -> int:
    """The points a full sheet's rewards already paid that its reduced state forgets: the
    octagon's 13 (BB5) when it is active."""
    layout = sheet.layout
    (r1, p1), (r2, p2) = layout.symbols[OCTAGON]
    on = (sheet.masks[layout.locks[r1].index] >> p1 & 1
          and sheet.masks[layout.locks[r2].index] >> p2 & 1)
    return OCTAGON_POINTS if on else 0


class ReducedSolver:
    """The exact optimal solitaire value (``Fraction``) of Bonus B over reduced states, with
    transition rules of its own (module docstring); default Options, the R15 Option by
    ``action2_after_game_end``.  The value of a state excludes the octagon's points if it
    is already paid."""

    def __init__(self, layout: SheetLayout, action2_after_game_end: bool = False) -> None:
        if len(layout.symbols) != 5 or layout.has_doubles or layout.lock_cells != 1:
            raise ValueError("the reduced solver plays Bonus B pads: five symbols, single "
                             "cells, one lock number")
        self.layout = layout
        self.a2_after_end = action2_after_game_end
        self.n = len(layout.numbers)
        self.final = [len(numbers) - 1 for numbers in layout.numbers]
        self.pos = [[-1] * 13 for _ in range(self.n)]
        for r, numbers in enumerate(layout.numbers):
            for p, number in enumerate(numbers):
                self.pos[r][number] = p
        #: symbol_at[r][p]: the symbol on cell (r, p), or -1
        self.symbol_at = [[-1] * len(numbers) for numbers in layout.numbers]
        for k, pair in enumerate(layout.symbols):
            for r, p in pair:
                self.symbol_at[r][p] = k
        self.memo: dict[State, Fraction] = {}
        #: activations seen while solving, by symbol index, and those inside a nesting
        self.events: Counter[str] = Counter()

    # -- crosses (rows: [last, count, closed: 0 open, 1 closed, 2 closing now])
    def next_cell(self, rows: list[list[int]], r: int) -> int | None:
        """The row's next cell for a forced cross (§0.1, R8), or None (closed or closing:
        the row of action 1's closes has its lock crossed, V5)."""
        last, count, closed = rows[r]
        if closed:
            return None
        nxt = last + 1
        if nxt == self.final[r] and count < self.layout.lock_threshold:
            return None
        return nxt

    def can_cross(self, row: list[int], r: int, p: int) -> bool:
        return (p >= 0 and row[2] == 0 and p > row[0]
                and (p < self.final[r] or row[1] >= self.layout.lock_threshold))

    def put(self, rows: list[list[int]], status: list[int], r: int, p: int,
            forced: bool = False) -> int:
        """Cross (r, p) and resolve what it activates, depth-first (V4); returns the
        points paid at once (the octagon's)."""
        old = rows[r][0]
        row = rows[r]
        row[0] = p
        row[1] += 1
        if p == self.final[r]:
            row[1] += 1   # the lock box (R8)
            row[2] = 2    # closing
        fired = -1
        for k, pair in enumerate(self.layout.symbols):
            if status[k] != LIVE:
                continue
            # live: every cell of it at or left of its frontier is crossed (before this cross)
            crossed = [(rc, pc) == (r, p) or pc <= (old if rc == r else rows[rc][0])
                       for rc, pc in pair]
            decided = [pc < rows[rc][0] or rows[rc][2] != 0 for rc, pc in pair]
            status[k] = _status(k, crossed, decided)
            if all(crossed):
                fired = k
        if fired < 0:
            return 0
        self.events[str(fired)] += 1
        if forced:
            self.events["nested"] += 1
        if fired == CIRCLE:
            return self.circle(rows, status)
        if fired == DIAMOND:  # BB3: every open row, in colour (layout) order
            return sum(self.forced_cross(rows, status, t) for t in range(self.n))
        return OCTAGON_POINTS if fired == OCTAGON else 0

    def circle(self, rows: list[list[int]], status: list[int]) -> int:
        """BB2 (open_with_next_cell): two forced crosses on the first row, in layout order,
        with the fewest crosses among the open rows that have a next cell."""
        candidates = [r for r in range(self.n) if self.next_cell(rows, r) is not None]
        if not candidates:
            return 0
        least = min(rows[r][1] for r in candidates)
        target = next(r for r in candidates if rows[r][1] == least)
        return sum(self.forced_cross(rows, status, target) for _ in range(2))

    def forced_cross(self, rows: list[list[int]], status: list[int], r: int) -> int:
        nxt = self.next_cell(rows, r)
        return 0 if nxt is None else self.put(rows, status, r, nxt, forced=True)

    def score(self, state: State) -> int:
        """The final total of a state (BB8), without the octagon already paid."""
        rows, penalties, status = state
        points = [row_points(row[1]) for row in rows]
        total = sum(points) + (min(points) if status[SQUARE] == ACTIVE else 0)
        return total - (0 if status[STAR] == ACTIVE else PENALTY_POINTS * penalties)

    @staticmethod
    def freeze(rows: list[list[int]], penalties: int, status: list[int]) -> State:
        return tuple((a, b, bool(c)) for a, b, c in rows), penalties, tuple(status)

    def start_value(self) -> Fraction:
        return self.value((tuple((-1, 0, False) for _ in range(self.n)), 0, (LIVE,) * 5))

    def value(self, state: State) -> Fraction:
        cached = self.memo.get(state)
        if cached is not None:
            return cached
        result = expected_best(
            [r for r in range(self.n) if not state[0][r][2]],
            lambda white, dice: self._outcomes(state, white, dice),
            lambda outcome: outcome[2] + (Fraction(self.score(outcome[0])) if outcome[1]
                                          else self.value(outcome[0])))
        self.memo[state] = result
        return result

    def _outcomes(self, state: State, white: tuple[int, int], dice: dict[int, int]
                  ) -> Iterator[tuple[State, bool, int]]:
        """Every turn's end: (state, game over, points paid on the way)."""
        rows0, penalties, status0 = state
        k = self.layout.closed_rows_to_end
        white_sum = white[0] + white[1]
        for a1 in [None, *range(self.n)]:
            rows = [[a, b, int(c)] for a, b, c in rows0]
            status = list(status0)
            bonus = 0
            if a1 is not None:
                p = self.pos[a1][white_sum]
                if not self.can_cross(rows[a1], a1, p):
                    continue
                bonus = self.put(rows, status, a1, p)
            for row in rows:
                if row[2] == 2:
                    row[2] = 1   # closed at the end of action 1 (V5, R9)
            if sum(1 for row in rows if row[2]) >= k:  # R14 after the nesting (BB9)
                yield self.freeze(rows, penalties, status), True, bonus
                if not self.a2_after_end:
                    continue
            elif a1 is not None:
                yield self.freeze(rows, penalties, status), False, bonus
            for r, p in action2_cells(rows, white, dice, self.pos, self.can_cross):
                after = [list(row) for row in rows]
                status2 = list(status)
                gain = self.put(after, status2, r, p)
                shut = sum(1 for row in after if row[2])
                yield self.freeze(after, penalties, status2), shut >= k, bonus + gain
            if a1 is None:  # R11: nothing marked
                yield (self.freeze(rows, penalties + 1, status),
                       penalties + 1 >= self.layout.penalty_boxes, 0)


# ------------------------------------------------------------------ counting the states

def _frontiers(layout: SheetLayout) -> Iterator[tuple[int, ...]]:
    """Every frontier vector of a game not over for its closed rows (frontier = last
    position: the row is closed)."""
    finals = [len(numbers) - 1 for numbers in layout.numbers]
    for f in itertools.product(*(range(-1, last + 1) for last in finals)):
        if sum(1 for r, x in enumerate(f) if x == finals[r]) < layout.closed_rows_to_end:
            yield f


def _images(layout: SheetLayout, f: tuple[int, ...]
            ) -> dict[tuple[int, ...], np.ndarray]:
    """For the frontier vector ``f``: each symbol-status vector a consistent sheet with
    these frontiers can show, with the count vectors it allows (a boolean array indexed by
    the rows' counts)."""
    n = len(f)
    finals = [len(numbers) - 1 for numbers in layout.numbers]
    size = max(finals) + 3
    cells = [c for pair in layout.symbols for c in pair]
    left = [[c for c in cells if c[0] == r and c[1] < f[r]] for r in range(n)]
    # the count of row r with s of its symbol cells left of f crossed: an interval
    ranges: list[list[tuple[int, int]]] = []
    for r in range(n):
        options = []
        for s in range(len(left[r]) + 1):
            if f[r] == -1:
                options.append((0, 0))
                continue
            free = f[r] - len(left[r])   # plain cells left of the frontier
            if f[r] == finals[r]:        # closed: last number and lock box, R8 threshold
                options.append((2 + max(s, layout.lock_threshold), 2 + s + free))
            else:
                options.append((1 + s, 1 + s + free))
        ranges.append(options)
    out: dict[tuple[int, ...], np.ndarray] = {}
    flat = [c for r in range(n) for c in left[r]]
    for bits in itertools.product((False, True), repeat=len(flat)):
        crossed_left = {c for c, b in zip(flat, bits, strict=True) if b}
        status = []
        for k, pair in enumerate(layout.symbols):
            crossed = [c[1] == f[c[0]] or c in crossed_left for c in pair]
            decided = [c[1] < f[c[0]] for c in pair]
            status.append(_status(k, crossed, decided))
        box = np.ones((), dtype=bool)
        for r in range(n):
            lo, hi = ranges[r][sum(1 for c in left[r] if c in crossed_left)]
            ok = np.zeros(size, dtype=bool)
            ok[lo:hi + 1] = True
            box = np.multiply.outer(box, ok)
        key = tuple(status)
        if key in out:
            out[key] |= box
        else:
            out[key] = box
    return out


def count_states(layout: SheetLayout) -> Counter[tuple[int, int]]:
    """The consistent reduced states (rows, status; penalties not included: multiply by
    ``layout.penalty_boxes``) of a game not over, by (closed rows, square dead) ->
    number.  An upper bound on the reachable states (module docstring)."""
    out: Counter[tuple[int, int]] = Counter()
    finals = [len(numbers) - 1 for numbers in layout.numbers]
    for f in _frontiers(layout):
        closed = sum(1 for r, x in enumerate(f) if x == finals[r])
        for status, counts in _images(layout, f).items():
            out[closed, int(status[SQUARE] == DEAD)] += int(counts.sum())
    return out


def reduced_states(layout: SheetLayout) -> set[tuple[tuple[Row, ...], tuple[int, ...]]]:
    """The reduced states (without penalties) :func:`count_states` counts (tiny pads)."""
    finals = [len(numbers) - 1 for numbers in layout.numbers]
    out: set[tuple[tuple[Row, ...], tuple[int, ...]]] = set()
    for f in _frontiers(layout):
        for status, counts in _images(layout, f).items():
            for c in np.argwhere(counts):
                out.add((tuple((f[r], int(c[r]), f[r] == finals[r]) for r in range(len(f))),
                         status))
    return out


def undecided(layout: SheetLayout, f: Sequence[int]) -> int:
    """How many symbols the frontier vector ``f`` leaves undecided (two statuses possible,
    one bit each; the module docstring): a cell right of its frontier and the other left
    of its own (live or dead), or, for the square and the star, both cells at or left of
    their frontiers, one strictly left (active or dead)."""
    out = 0
    for k, pair in enumerate(layout.symbols):
        where = sorted((p > f[r]) - (p < f[r]) for r, p in pair)   # 1 right, 0 on, -1 left
        if where == [-1, 1] or (k in (SQUARE, STAR) and where[0] == -1 and where[1] <= 0):
            out += 1
    return out


def table_sizes(layout: SheetLayout) -> dict[str, int]:
    """Values (float64) of three table layouts for the kernel (research/NOTEBOOK.md):
    ``official``: the plain sheet's W_C (open codes x penalties); ``dense_bits``: the same
    with 2^5 symbol-bit lanes and a closed row's count (its final count values) as lanes;
    ``by_frontiers``: only the bits the frontiers leave undecided, per frontier vector
    (every count 1..last+1 of an open row, every final count of a closed row)."""
    finals = [len(numbers) - 1 for numbers in layout.numbers]
    boxes = layout.penalty_boxes
    n = len(finals)
    codes = [1 + sum(last + 1 for last in range(final)) for final in finals]
    closed_counts = [final + 2 - (layout.lock_threshold + 2) + 1 for final in finals]
    official = dense = compact = 0
    for shut in itertools.chain.from_iterable(
            itertools.combinations(range(n), c) for c in range(layout.closed_rows_to_end)):
        block = boxes * int(np.prod([codes[r] for r in range(n) if r not in shut]))
        official += block
        dense += block * 2 ** len(layout.symbols) * int(np.prod(
            [closed_counts[r] for r in shut]))
    for f in _frontiers(layout):
        counts = [closed_counts[r] if x == finals[r] else max(x + 1, 1)
                  for r, x in enumerate(f)]
        compact += boxes * int(np.prod(counts)) * 2 ** undecided(layout, f)
    return {"official": official, "dense_bits": dense, "by_frontiers": compact}


def main(argv: Sequence[str] | None = None) -> None:
    layout = layout_argument(argv, "bonus-b", __doc__.split("\n")[0])
    start = time.process_time()
    counts = count_states(layout)
    boxes = layout.penalty_boxes
    total = 0
    for (closed, square_dead), number in sorted(counts.items()):
        print(f"closed rows {closed}, square {'dead' if square_dead else 'live/active'}: "
              f"{number:>14,} x {boxes} penalties = {number * boxes:>15,}")
        total += number * boxes
    print(f"total consistent reduced states: {total:,} ({total:.3g})")
    for name, values in table_sizes(layout).items():
        print(f"table {name:<13} {values:>15,} float64 ({values * 8 / 2**20:>9,.0f} MiB)")
    print(f"CPU {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
