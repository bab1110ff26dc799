"""Qwixx Connected, the Chain: how small is the state an exact solitaire solver needs?

VARIANTS.md §5.5 puts the solver state of the Chain (CC1-CC9) at about 6.9e8 ("pair
bits, dynamic closed rows").  The argument checked here (research/NOTEBOOK.md, "The
Chain's state"): under CC3 = True (the only Option the library plays) every crossed
cell of a row lies at or left of the row's frontier, so the status of a pair follows
from the two frontiers alone (crossed when a frontier stands on it, uncrossed when
both frontiers are left of it, *pending* when exactly one frontier is past it: its
other cell can still be crossed and brings a partner cross without moving anything,
*dead* when both are past it).  A solver then needs the official state (per open row
its last position and count), the count of every closed row (pending partners still
add to it, CC2) and the penalties.

Two exact solvers, both in :class:`fractions.Fraction` (no floats anywhere):

* :class:`FullSolver`, the reference: memoised recursion over FULL sheets (every
  cell's cross, penalties) through the library's public rules core
  (``qwixx_math.rules.legal_plans`` and ``GameState.play_plan``; the dice from
  ``qwixx_math.dice.outcome_table``).  It knows nothing of the argument.
* :class:`ReducedSolver`: memoised recursion over reduced states
  ``(rows, penalties)``, each row ``(last, count, closed)``, with its own transition
  rules written from the argument: a voluntary cross of a chain cell always crosses its
  partner (the partner is uncrossed, because the chain cell itself is right of its
  row's frontier, CC7); the partner's row gains a cross and its frontier moves only if
  the partner lies right of it (CC3), closed or not (CC2).  It uses the layout's cells
  and numbers and nothing of the rules core.

:func:`reduced_of` maps a full sheet to its reduced state;
``research/tests/test_chain_state.py`` checks that the two solvers agree on the empty
sheet and on every reachable full state of several tiny chain pads.

:func:`count_states` counts the reduced states exactly, closed-row set by closed-row set,
from a characterisation of the reachable ones (a row's count lies between its forced
crosses and its forced plus free cells, pairs coupling two rows' counts); the tests check
it against the reduced images of every reachable full state of the tiny pads.  Run
``python -m research.chain_state`` for sheet A's counts.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import TypeVar

import numpy as np

from qwixx_math.dice import outcome_table
from qwixx_math.layouts import LAYOUTS, SheetLayout
from qwixx_math.model import Sheet
from qwixx_math.rules import GameState, Phase, legal_plans
from qwixx_math.ruleset import Ruleset

__all__ = ["TINY_COLOURS", "FullSolver", "ReducedSolver", "Row", "State", "action2_cells",
           "count_states", "expected_best", "layout_argument", "reduced_of", "reduced_states",
           "rolls", "tiny_chain_layout", "tiny_layout"]

#: One row of a reduced state: (last position or -1, count with the lock box, closed).
Row = tuple[int, int, bool]
#: A reduced state: the rows in layout order and the penalties.
State = tuple[tuple[Row, ...], int]

PENALTY_POINTS = 5


def _triangle(n: int) -> int:
    return n * (n + 1) // 2


#: The rows' colours of the tiny pads, in layout order.
TINY_COLOURS = ("red", "yellow", "green", "blue")


def tiny_layout(name: str, directions: str, length: int, *, lock_threshold: int = 2,
                penalty_boxes: int = 2, closed_rows_to_end: int = 2,
                **fields: object) -> SheetLayout:
    """A small pad through the public layout-file reader: rows of ``length`` cells, read
    ``a``scending (2, 3, ...) or ``d``escending (12, 11, ...), coloured red, yellow, green,
    blue (:data:`TINY_COLOURS`); ``fields``: further layout-file fields (chain, symbols)."""
    rows = []
    for colour, d in zip(TINY_COLOURS, directions, strict=False):
        numbers = list(range(2, 2 + length)) if d == "a" else list(range(12, 12 - length, -1))
        rows.append({"numbers": numbers, "colours": colour})
    return SheetLayout.from_json({
        "name": name, "rows": rows, "lock_threshold": lock_threshold,
        "penalty_boxes": penalty_boxes, "closed_rows_to_end": closed_rows_to_end, **fields})


def tiny_chain_layout(name: str, directions: str, length: int,
                      pairs: Sequence[tuple[tuple[int, int], tuple[int, int]]], *,
                      lock_threshold: int = 2, penalty_boxes: int = 2,
                      closed_rows_to_end: int = 2) -> SheetLayout:
    """A small chain pad (:func:`tiny_layout`); ``pairs`` as ((row index, position),
    (row index, position))."""
    colours = TINY_COLOURS
    chain = [[[colours[r1], p1], [colours[r2], p2]] for (r1, p1), (r2, p2) in pairs]
    return tiny_layout(name, directions, length, lock_threshold=lock_threshold,
                       penalty_boxes=penalty_boxes, closed_rows_to_end=closed_rows_to_end,
                       chain=chain)


# ------------------------------------------------------------------ the full reference

class FullSolver:
    """The exact optimal solitaire value of every FULL sheet of a chain pad, by memoised
    recursion through the rules core (``Fraction``; the R15 Option by ``ruleset``)."""

    def __init__(self, layout: SheetLayout, ruleset: Ruleset | None = None) -> None:
        self.layout = layout
        base = ruleset if ruleset is not None else Ruleset(players=1)
        self.ruleset = Ruleset(players=1, action2_after_game_end=base.action2_after_game_end)
        #: value of every full sheet reached whose game is not over, by (masks, penalties)
        self.memo: dict[tuple[tuple[int, int, int, int], int], Fraction] = {}
        self.sheets: dict[tuple[tuple[int, int, int, int], int], Sheet] = {}

    def start_value(self) -> Fraction:
        return self.value(Sheet.empty(self.layout))

    def terminal(self, sheet: Sheet) -> Fraction:
        """The value of a finished game's sheet: its score (a relaxed game overrides it,
        research/bonus_b_bound.py's reference)."""
        return Fraction(sheet.score)

    def value(self, sheet: Sheet) -> Fraction:
        key = (sheet.masks, sheet.penalties)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        state = GameState(self.ruleset, (sheet,), closed=sheet.locked)
        worth: dict[object, Fraction] = {}
        total = Fraction(0)
        weights = 0
        for roll, weight in outcome_table(state.dice_in_play, self.layout.faces).rolls():
            best: Fraction | None = None
            for plan in legal_plans(state, roll):
                v = worth.get(plan)
                if v is None:
                    after = state.play_plan(roll, plan)
                    mine = after.sheets[0]
                    v = (self.terminal(mine) if after.phase is Phase.OVER
                         else self.value(mine))
                    worth[plan] = v
                if best is None or v > best:
                    best = v
            assert best is not None  # passing is always legal
            total += weight * best
            weights += weight
        result = total / weights
        self.memo[key] = result
        self.sheets[key] = sheet
        return result


def reduced_of(sheet: Sheet) -> State:
    """The reduced state of a full sheet: per row (last position, count, closed), penalties."""
    rows = []
    for colour in sheet.layout.locks:
        mask = sheet.masks[colour.index]
        rows.append((mask.bit_length() - 1, sheet.count(colour), sheet.is_locked(colour)))
    return tuple(rows), sheet.penalties


# ------------------------------------------------------------------ the reduced solver

class ReducedSolver:
    """The exact optimal solitaire value (``Fraction``) over reduced states only, with
    transition rules of its own (module docstring).  Plays layouts of single cells with
    one lock number, 6-sided dice (the tiny pads and sheet A)."""

    def __init__(self, layout: SheetLayout, action2_after_game_end: bool = False) -> None:
        if layout.lock_cells != 1 or layout.has_doubles or layout.steps or layout.exchange:
            raise ValueError("the reduced solver plays single cells, one lock number, chains")
        self.layout = layout
        self.a2_after_end = action2_after_game_end
        self.n = len(layout.numbers)
        self.length = [len(numbers) for numbers in layout.numbers]
        #: position of number s in row r, or -1
        self.pos = [[-1] * 13 for _ in range(self.n)]
        for r, numbers in enumerate(layout.numbers):
            for p, number in enumerate(numbers):
                self.pos[r][number] = p
        #: partner[r][p]: the chain partner (row, position) of cell (r, p), or None
        self.partner: list[list[tuple[int, int] | None]] = [
            [None] * length for length in self.length]
        for (r1, p1), (r2, p2) in layout.chain:
            self.partner[r1][p1] = (r2, p2)
            self.partner[r2][p2] = (r1, p1)
        self.memo: dict[State, Fraction] = {}

    # -- one cross
    def cross(self, rows: list[list[int]], r: int, p: int) -> None:
        """A legal voluntary cross of (r, p) in place, with its partner (CC1-CC5); a cross
        of the last number adds the lock box and marks the row to close (rows[r][2] = 2,
        the closing taking effect when the caller says)."""
        row = rows[r]
        row[0] = p
        row[1] += 1
        if p == self.length[r] - 1:
            row[1] += 1  # the lock box (R8)
            row[2] = 2   # closing
            return
        partner = self.partner[r][p]
        if partner is not None:
            # the partner is uncrossed: (r, p) was right of r's frontier, so uncrossed (CC7)
            r2, p2 = partner
            other = rows[r2]
            other[1] += 1            # counts, closed or not (CC2, CC5)
            if not other[2] and p2 > other[0]:
                other[0] = p2        # CC3: it becomes the frontier

    def can_cross(self, row: list[int], r: int, p: int) -> bool:
        return (p >= 0 and row[2] == 0 and p > row[0]
                and (p < self.length[r] - 1 or row[1] >= self.layout.lock_threshold))

    def score(self, rows: Sequence[Sequence[int]], penalties: int) -> int:
        return sum(_triangle(row[1]) for row in rows) - PENALTY_POINTS * penalties

    @staticmethod
    def freeze(rows: list[list[int]], penalties: int) -> State:
        return tuple((a, b, bool(c)) for a, b, c in rows), penalties

    def start_value(self) -> Fraction:
        return self.value((tuple((-1, 0, False) for _ in range(self.n)), 0))

    def value(self, state: State) -> Fraction:
        cached = self.memo.get(state)
        if cached is not None:
            return cached
        rows0, penalties = state
        result = expected_best(
            [r for r in range(self.n) if not rows0[r][2]],
            lambda white, dice: self._outcomes(rows0, penalties, white, dice),
            lambda outcome: (Fraction(self.score(*outcome[0])) if outcome[1]
                             else self.value(outcome[0])))
        self.memo[state] = result
        return result

    def _outcomes(self, rows0: tuple[Row, ...], penalties: int, white: tuple[int, int],
                  dice: dict[int, int]) -> Iterator[tuple[State, bool]]:
        """Every turn's end: (state, game over)."""
        k = self.layout.closed_rows_to_end
        boxes = self.layout.penalty_boxes
        white_sum = white[0] + white[1]
        for a1 in [None, *range(self.n)]:
            rows = [[a, b, int(c)] for a, b, c in rows0]
            if a1 is not None:
                p = self.pos[a1][white_sum]
                if not self.can_cross(rows[a1], a1, p):
                    continue
                self.cross(rows, a1, p)
            for row in rows:
                if row[2] == 2:
                    row[2] = 1   # closed at the end of action 1 (V5, R9)
            closed = sum(1 for row in rows if row[2])
            if closed >= k:  # R14 after action 1
                yield self.freeze(rows, penalties), True
                if not self.a2_after_end:
                    continue
            elif a1 is not None:
                yield self.freeze(rows, penalties), False
            # action 2: one white and the die of an open row (R6)
            for r, p in action2_cells(rows, white, dice, self.pos, self.can_cross):
                after = [list(row) for row in rows]
                self.cross(after, r, p)
                shut = sum(1 for row in after if row[2])
                for row in after:
                    if row[2] == 2:
                        row[2] = 1
                yield self.freeze(after, penalties), shut >= k
            if a1 is None:  # R11: nothing marked
                yield self.freeze(rows, penalties + 1), penalties + 1 >= boxes


def action2_cells(rows: Sequence[Sequence[int]], white: tuple[int, int], dice: dict[int, int],
                  pos: Sequence[Sequence[int]],
                  can_cross: Callable[[list[int], int, int], bool]
                  ) -> Iterator[tuple[int, int]]:
    """The (row, position) of every legal action-2 cross (R6: one white and the die of an
    open row; ``rows[r][2]``: closed; ``pos[r][number]``: the number's position or -1)."""
    for r in range(len(rows)):
        if rows[r][2] or r not in dice:
            continue
        for p in sorted({pos[r][w + dice[r]] for w in white}):
            if can_cross(list(rows[r]), r, p):
                yield r, p


Outcome = TypeVar("Outcome", bound=Hashable)


def expected_best(in_play: Sequence[int],
                  outcomes: Callable[[tuple[int, int], dict[int, int]], Iterable[Outcome]],
                  worth: Callable[[Outcome], Fraction]) -> Fraction:
    """The mean over every roll (:func:`rolls`, the dice of the rows ``in_play``) of the
    best ``worth`` among the turn's ``outcomes(white, {row: face})``; the worth of one
    outcome is computed once per state."""
    total = Fraction(0)
    weights = 0
    seen: dict[Outcome, Fraction] = {}
    for white, colour_faces, weight in rolls(len(in_play)):
        dice = dict(zip(in_play, colour_faces, strict=True))
        best: Fraction | None = None
        for outcome in outcomes(white, dice):
            v = seen.get(outcome)
            if v is None:
                v = seen[outcome] = worth(outcome)
            if best is None or v > best:
                best = v
        assert best is not None  # passing is always possible
        total += weight * best
        weights += weight
    return total / weights


def rolls(coloured: int) -> Iterator[tuple[tuple[int, int], tuple[int, ...], int]]:
    """The whites unordered with their weight, times every face of ``coloured`` dice."""
    for a in range(1, 7):
        for b in range(a, 7):
            weight = 1 if a == b else 2
            for faces in itertools.product(range(1, 7), repeat=coloured):
                yield (a, b), faces, weight


# ------------------------------------------------------------------ counting the states

def count_states(layout: SheetLayout) -> dict[frozenset[int], int]:
    """The number of reachable reduced states (rows' (last, count, closed); penalties
    not included: multiply by ``layout.penalty_boxes``) of a game not over, per set of
    closed rows (layout row indices).

    A reduced state is counted when some full sheet maps to it whose pairs are consistent
    (CC7), whose crosses are at or left of each row's frontier (CC3 = True) and whose
    closed rows held ``lock_threshold`` crosses besides the last number.  Every such sheet
    is reachable when each pair's two cells have the same position (cross the cells in
    order of position, a closed row's last number last); the tests check the count
    against the reachable states of tiny pads.  Rows must have equal lengths."""
    n = len(layout.numbers)
    length = len(layout.numbers[0])
    if any(len(numbers) != length for numbers in layout.numbers) or any(
            p1 != p2 for (_, p1), (_, p2) in layout.chain):
        raise ValueError("count_states counts pads of equal rows with pairs in one column")
    last = length - 1
    k = layout.closed_rows_to_end
    out: dict[frozenset[int], int] = {}
    for n_closed in range(k):
        for closed in itertools.combinations(range(n), n_closed):
            shut = frozenset(closed)
            frontiers = [[last] if r in shut else list(range(-1, last)) for r in range(n)]
            out[shut] = sum(int(_count_vectors(layout, f, shut).sum())
                            for f in itertools.product(*frontiers))
    return out


def reduced_states(layout: SheetLayout) -> set[tuple[Row, ...]]:
    """The reduced states :func:`count_states` counts, listed (tiny pads only)."""
    n = len(layout.numbers)
    last = len(layout.numbers[0]) - 1
    out: set[tuple[Row, ...]] = set()
    for shut in count_states(layout):
        frontiers = [[last] if r in shut else list(range(-1, last)) for r in range(n)]
        for f in itertools.product(*frontiers):
            for counts in np.argwhere(_count_vectors(layout, f, shut)):
                out.add(tuple((f[r], int(counts[r]), r in shut) for r in range(n)))
    return out


def _count_vectors(layout: SheetLayout, f: tuple[int, ...], shut: frozenset[int]
                   ) -> np.ndarray:
    """The count vectors the frontiers ``f`` allow, as a boolean array indexed by the
    rows' counts (all False if they break CC7)."""
    n = len(f)
    length = len(layout.numbers[0])
    size = length + 2
    union = np.zeros((size,) * n, dtype=bool)
    forced_in = [0] * n
    forced_out = [0] * n
    groups: dict[tuple[int, int], int] = {}
    for (r1, p), (r2, _) in layout.chain:
        f1, f2 = f[r1], f[r2]
        if f1 == p or f2 == p:
            if f1 < p or f2 < p:
                return union          # a frontier on a crossed pair whose partner is uncrossed
            if f1 > p:
                forced_in[r1] += 1
            if f2 > p:
                forced_in[r2] += 1
        elif f1 > p and f2 > p:
            key = (min(r1, r2), max(r1, r2))
            groups[key] = groups.get(key, 0) + 1   # coupled: both or neither
        elif f1 > p:
            forced_out[r1] += 1    # pending: (r2, p) is uncrossed
        elif f2 > p:
            forced_out[r2] += 1
    # per row: count = base + x + (sum of its coupled pairs crossed), 0 <= x <= free
    base = []
    free = []
    low = []   # smallest count allowed
    for r in range(n):
        if f[r] == -1:
            base.append(0)
            free.append(0)
            low.append(0)
            continue
        coupled = sum(m for (a, b), m in groups.items() if r in (a, b))
        below = f[r]   # cells left of the frontier
        free.append(below - forced_in[r] - forced_out[r] - coupled)
        if r in shut:  # last number and lock box; lock_threshold crosses besides (R8)
            base.append(2 + forced_in[r])
            low.append(2 + layout.lock_threshold)
        else:
            base.append(1 + forced_in[r])
            low.append(0)
    keys = list(groups)
    for sums in itertools.product(*(range(groups[key] + 1) for key in keys)):
        extra = [0] * n
        for key, s in zip(keys, sums, strict=True):
            extra[key[0]] += s
            extra[key[1]] += s
        box = np.ones((), dtype=bool)
        for r in range(n):
            ok = np.zeros(size, dtype=bool)
            lo = max(base[r] + extra[r], low[r])
            ok[lo:base[r] + extra[r] + free[r] + 1] = True
            box = np.multiply.outer(box, ok)
        union |= box
    return union


def layout_argument(argv: Sequence[str] | None, default: str, description: str
                    ) -> SheetLayout:
    """The built-in layout a research script's command line names (``--layout``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--layout", default=default, choices=sorted(LAYOUTS))
    return LAYOUTS[parser.parse_args(argv).layout]


def main(argv: Sequence[str] | None = None) -> None:
    layout = layout_argument(argv, "connected-chain", __doc__.split("\n")[0])
    start = time.process_time()
    counts = count_states(layout)
    boxes = layout.penalty_boxes
    names = [c.value for c in layout.locks]
    total = 0
    for shut, number in counts.items():
        label = "+".join(names[r] for r in sorted(shut)) or "none (all open)"
        print(f"closed {label:<16} {number:>12,} x {boxes} penalties = {number * boxes:>13,}")
        total += number * boxes
    print(f"total reachable reduced states: {total:,} ({total:.3g})")
    # the kernel's dense layout (qwixx_math/solver/layout.py): per closed-row set, N open
    # codes per open row (last, count) times the lanes; a closed row adds its count as a lane
    length = len(layout.numbers[0])
    codes = 1 + sum(last + 1 for last in range(length - 1))
    closed_counts = (length - 1) - layout.lock_threshold + 1
    official = dense = 0
    for shut in counts:
        block = codes ** (len(layout.numbers) - len(shut)) * boxes
        official += block
        dense += block * closed_counts ** len(shut)
    print(f"open codes per row {codes}; closed-count values per closed row {closed_counts}")
    print(f"official sheet's dense table (lanes = {boxes} penalties): {official:,} float64")
    print(f"chain dense table (lanes = penalties x closed count): {dense:,} float64 "
          f"({dense * 8 / 2**20:,.0f} MiB)")
    print(f"CPU {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
