"""Qwixx Bonus, pad B: the EXACT optimal solitaire value (issue 34; research/NOTEBOOK.md,
"Bonus B solved exactly").

**The game.**  Bonus B as the rules core plays it (R1-R15, BB1-BB9) under the default
Options (``bb_fewest_candidates = open_with_next_cell``, ``bb_diamond_order =
colour_order``; the circle's tie to the first tied row in colour order) and the R15 Option
as given, scored by BB8:

    S = sum of the rows' points + [square] * min(rows) + 13 * [octagon]
        - 5 * penalties * [no star].

**The state** (research/bonus_b_state.py, checked there against full sheets): per open
row (last, count), the closed rows, the penalties, per symbol one bit where the frontiers
leave it undecided (``not dead``: a symbol with a cell left of its frontier and one right
of it, and the square and the star with any cell left of it; every other status follows
from the frontiers), and, in the tables with one closed row, that row's count (it enters
the square's minimum).  The octagon is paid when it activates (its 13 is a reward of the
move), so its bit only says whether it still can.  The moves are research/bonus_b_bound.py's
(:func:`~research.bonus_b_bound.plan_list`: every plan with the circle's and diamond's
forced crosses, depth-first), which depend on the circle's and diamond's bits only; the
square's, octagon's and star's bits follow each plan by a bit operation (a plan walked
with them set kills what its crosses skip and activates what they complete: the real
bits are those AND the walk's, the octagon paid only if its bit was set).

**The index** (the notebook's per-frontier layout).  Per closed-row set and frontier
vector (the open rows' last positions) a block of ``prod(counts) x 2^u x C x P`` float64
values: every count combination those frontiers allow (a row whose last cross is at
position l holds 1 .. l + 1 crosses), only the ``u`` undecided bits, ``C`` closed-row
counts (threshold + 2 .. length + 1; 1 with every row open), ``P`` penalties.  Lane
``(bits * C + c) * P + p``, ``bits`` the undecided bits packed low (:func:`pack`).  On
pad B 701,299,776 values, 5.2 GiB, against 13.4 GiB for every bit.

**The solve** (:func:`solve_exact`).  The level order of
:func:`qwixx_math.solver.chain.solve_levels` (every plan adds a mark or closes a row); per
configuration: per circle/diamond bit pair the plans, per lane the look-ups
(:func:`qwixx_math.solver.chain.keep_action1`, ``keep_action2``), then the kernel's
:func:`~qwixx_math.solver.kernel.turn_values` over every lane at once, its fourth-penalty
term the terminal (the square's minimum when active, the star cancelling the penalties,
``step_points``).  A table value ``W`` excludes the closed rows' points and the octagon's
13 once paid (:meth:`ExactTable.value` adds them).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from qwixx_math.bonus_b import OCTAGON_POINTS
from qwixx_math.errors import ParseError
from qwixx_math.jit import jit
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import PENALTY_POINTS, Sheet
from qwixx_math.solver.chain import (
    batch_scratch,
    clear_lanes,
    keep_action1,
    keep_action2,
    solve_levels,
)
from qwixx_math.solver.kernel import turn_values
from qwixx_math.solver.layout import Layout
from research.bonus_b_bound import (
    AFTER,
    DIE,
    KIND,
    NUMBER,
    ROW,
    SUM,
    decode,
    geometry,
    plan_list,
    plan_scratch,
    sides,
    symbol_cells,
)

__all__ = ["ExactTable", "exact_table", "pack", "solve_exact", "status_bits", "unpack"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Symbols, in :data:`qwixx_math.layouts.SYMBOL_NAMES` order.
SQUARE, OCTAGON, STAR = 2, 3, 4
#: The symbols whose bit stays set when they activate (active is not dead for them).
KEEP = 1 << SQUARE | 1 << STAR
PENALTY = float(PENALTY_POINTS)
OCTAGON_REWARD = float(OCTAGON_POINTS)


@jit(inline=True)
def status_bits(front: IntArray, sym_row: IntArray, sym_pos: IntArray) -> tuple[int, int]:
    """``(undecided, decided)`` given the rows' frontiers (a closed row's: its last cell):
    the bits of the symbols whose status the frontiers leave open (a cell left of its
    frontier and one right of it; for the square and the star any cell left of it: active
    or dead), and the bits of the others (set: live, or the square or star active; clear:
    a circle, diamond or octagon spent)."""
    undecided = 0
    decided = 0
    for k in range(sym_row.shape[0]):
        right, left = sides(front, sym_row, sym_pos, k)
        if k in (SQUARE, STAR):
            if left > 0:
                undecided |= 1 << k
            else:
                decided |= 1 << k
        elif left > 0 and right > 0:
            undecided |= 1 << k
        elif right > 0:
            decided |= 1 << k
    return undecided, decided


@jit(inline=True)
def _move(bits: int, undecided: int, packing: bool) -> int:
    out = 0
    j = 0
    for k in range(5):
        if undecided >> k & 1:
            src, dst = (k, j) if packing else (j, k)
            out |= (bits >> src & 1) << dst
            j += 1
    return out


@jit(inline=True)
def pack(bits: int, undecided: int) -> int:
    """The bits of ``bits`` at the set bits of ``undecided``, packed low (a lane number)."""
    return _move(bits, undecided, True)


@jit(inline=True)
def unpack(lane: int, undecided: int) -> int:
    """The inverse of :func:`pack`: ``lane``'s bits at the set bits of ``undecided``."""
    return _move(lane, undecided, False)


@jit(inline=True)
def _done(front: IntArray, sym_row: IntArray, sym_pos: IntArray, k: int) -> bool:
    """Both cells of symbol ``k`` at or left of their frontiers (crossed, with its bit)."""
    return bool(sym_pos[k, 0] <= front[sym_row[k, 0]]) \
        and bool(sym_pos[k, 1] <= front[sym_row[k, 1]])


@jit(inline=True)
def _base(offsets: IntArray, cstrides: IntArray, cidx: IntArray, mask: int,
          codes: IntArray, front: IntArray, length: int) -> int:
    """The first value of the configuration ``codes`` (frontiers ``front``) of table
    ``mask``."""
    m = codes.shape[0]
    key = 0
    scale = 1
    for r in range(m):
        if not mask >> r & 1:
            key += (front[r] + 1) * scale
        scale *= length
    base = int(offsets[mask, key])
    for r in range(m):
        if not mask >> r & 1:
            base += cstrides[mask, key, r] * cidx[codes[r]]
    return base


@jit()
def _successors(plans: IntArray, n: int, offsets: IntArray, cstrides: IntArray,
                cidx: IntArray, code_last: IntArray, points: FloatArray, length: int,
                boxes: int, n_counts: int, count0: int, ended: npt.NDArray[np.bool_],
                mask: int, sym_row: IntArray, sym_pos: IntArray, front: IntArray,
                succ: IntArray, succ_points: FloatArray) -> None:
    """Per plan ``t < n``, what its look-up needs beside the symbols' bits: ``succ[t]`` =
    (first value of the position it leads to or -1 when the game is over, that position's
    undecided bits, its closed-count lanes, the lane offset of its closed count; over: the
    square's and star's cells all crossed (given their bits)), ``succ_points[t]`` = (the
    points of the rows closed this turn, and when over every row's points but the
    earlier closed one's and this turn's, and the lowest of them but the earlier closed
    one)."""
    m = front.shape[0]
    last_q = length - 1
    for t in range(n):
        after = plans[t, AFTER:]
        shut = after[2 * m]
        new = mask | shut
        for r in range(m):
            front[r] = last_q if new >> r & 1 else code_last[after[r]]
        closed = 0.0
        for r in range(m):
            if shut >> r & 1:
                closed += points[after[m + r]]
        succ_points[t, 0] = closed
        if ended[new]:
            rows = 0.0  # (the rows closed this turn are in ``closed``)
            low = np.inf
            for r in range(m):
                if not mask >> r & 1:
                    low = min(low, points[after[m + r]])
                    if not shut >> r & 1:
                        rows += points[after[m + r]]
            succ[t, 0] = -1
            succ[t, 3] = _done(front, sym_row, sym_pos, SQUARE)
            succ[t, 4] = _done(front, sym_row, sym_pos, STAR)
            succ_points[t, 1] = rows
            succ_points[t, 2] = low
            continue
        succ[t, 0] = _base(offsets, cstrides, cidx, new, after[:m], front, length)
        succ[t, 1], _ = status_bits(front, sym_row, sym_pos)
        succ[t, 2] = n_counts if new else 1
        succ[t, 3] = 0
        if mask == 0 and new != 0:  # the row closed this turn: its count is the lane
            for r in range(m):
                if shut >> r & 1:
                    succ[t, 3] = (after[m + r] - count0) * boxes


@jit()
def solve_exact_batch(data: FloatArray, offsets: IntArray, cstrides: IntArray,
                      cidx: IntArray, code_last: IntArray, code_marks: IntArray,
                      next_code: IntArray, number_at: IntArray, die_at: IntArray,
                      points: FloatArray, n_codes: int, length: int, threshold: int,
                      boxes: int, n_counts: int, a2_after_end: bool,
                      ended: npt.NDArray[np.bool_], mask: int, open_rows: IntArray,
                      items: IntArray, products: IntArray, sym_row: IntArray,
                      sym_pos: IntArray, start: int, stop: int) -> None:
    """Solve the configurations ``items[start:stop]`` of table ``mask``, every lane (module
    docstring).  Every value they read must be final."""
    n_sums = 11
    k = open_rows.shape[0]
    m = die_at.shape[0]
    count0 = threshold + 2  # a closed row's fewest crosses: the lock's and its box
    counts = n_counts if mask else 1
    block = counts * boxes  # lanes per bit pattern
    lanes = 32 * block
    one_stride = k * n_sums
    dcell, one, m2, vals, zv, zd, sv, sd, no_fields, a1x = batch_scratch(
        lanes, n_sums, length, die_at, open_rows)
    step_points = np.zeros(32 * counts + 2)
    codes = np.zeros(m, dtype=np.int64)
    front = np.full(m, length - 1, dtype=np.int64)  # a closed row: all decided
    front2 = np.zeros(m, dtype=np.int64)
    work, frames, plans = plan_scratch(m, k, length)
    succ = np.zeros((plans.shape[0], 5), dtype=np.int64)
    succ_points = np.zeros((plans.shape[0], 3))
    for it in range(start, stop):
        decode(items[it], open_rows, n_codes, code_last, codes, front)
        base = _base(offsets, cstrides, cidx, mask, codes, front, length)
        undecided, decided = status_bits(front, sym_row, sym_pos)
        n_lanes = 1
        for b in range(5):
            n_lanes <<= undecided >> b & 1
        score = 0.0
        low = np.inf
        for t in range(k):
            v = points[code_marks[codes[open_rows[t]]]]
            score += v
            low = min(low, v)
        square = _done(front, sym_row, sym_pos, SQUARE)
        star = _done(front, sym_row, sym_pos, STAR)
        for lane in range(n_lanes):  # the fourth penalty ends the game (R13): BB4, BB6
            bits = decided | unpack(lane, undecided)
            for c in range(counts):
                least = low if mask == 0 else min(low, points[count0 + c])
                step_points[lane * counts + c] = (
                    (least if square and bits >> SQUARE & 1 else 0.0)
                    + (PENALTY * boxes if star and bits >> STAR & 1 else 0.0))
        for cd in range(4):  # the circle's and diamond's bits: the moves
            if (cd ^ decided) & ~undecided & 3:
                continue  # the frontiers decide them otherwise
            walk = ((decided | undecided) & ~3) | cd
            n = plan_list(code_last, code_marks, next_code, number_at, dcell, length,
                          threshold, a2_after_end, ended, mask, open_rows, codes, front,
                          walk, sym_row, sym_pos, KEEP, work, frames, plans)
            _successors(plans, n, offsets, cstrides, cidx, code_last, points, length,
                        boxes, n_counts, count0, ended, mask, sym_row, sym_pos, front2,
                        succ, succ_points)
            for lane in range(n_lanes):
                bits = decided | unpack(lane, undecided)
                if bits & 3 != cd:
                    continue
                lane0 = lane * block
                clear_lanes(one, m2, lane0, block, one_stride, n_sums)
                for t in range(n):
                    after_bits = plans[t, AFTER + 2 * m + 1] & (bits | 3)
                    total = succ_points[t, 0]
                    if plans[t, AFTER + 2 * m + 2] >> OCTAGON & 1 and bits >> OCTAGON & 1:
                        total += OCTAGON_REWARD
                    idx = succ[t, 0]
                    if idx >= 0:
                        idx += pack(after_bits, succ[t, 1]) * succ[t, 2] * boxes + succ[t, 3]
                        _keep(one, m2, data, plans, t, idx, total, 0.0, block, lane0,
                              one_stride, n_sums)
                        continue
                    total += succ_points[t, 1]
                    pen = 0.0 if succ[t, 4] and after_bits >> STAR & 1 else PENALTY
                    square_on = succ[t, 3] and after_bits >> SQUARE & 1
                    for c in range(counts):
                        least = succ_points[t, 2] if mask == 0 else min(
                            succ_points[t, 2], points[count0 + c])
                        end = total + least if square_on else total
                        _keep(one, m2, data, plans, t, -1, end, pen, boxes,
                              lane0 + c * boxes, one_stride, n_sums)
        turn_values(lanes, 1, k, score, one, m2, vals, zv, zd, sv, sd, products, boxes, 0,
                    n_lanes * block, step_points, n_sums, 6, 8, no_fields, False, a1x)
        for p in range(n_lanes * block):
            data[base + p] = vals[p]


@jit(inline=True)
def _keep(one: FloatArray, m2: FloatArray, data: FloatArray, plans: IntArray, t: int,
          idx: int, total: float, penalty: float, width: int, lane0: int, one_stride: int,
          n_sums: int) -> None:
    """Keep plan ``t`` of ``plans`` (its value in lane ``lane0 + x``, ``x < width``:
    ``total + data[idx + x]``, or ``total - penalty * x`` when over)."""
    if plans[t, KIND] == 0:
        keep_action1(one, m2, data, idx, total, penalty, width, lane0, one_stride, n_sums,
                     plans[t, ROW], plans[t, SUM], plans[t, DIE])
    else:
        keep_action2(m2, data, idx, total, penalty, width, lane0, one_stride, n_sums,
                     plans[t, SUM], plans[t, DIE], plans[t, NUMBER])


def _index(layout: Layout, sym_row: IntArray, sym_pos: IntArray, n_counts: int
           ) -> tuple[IntArray, IntArray, IntArray, int]:
    """``(offsets, cstrides, cidx, size)``: ``offsets[mask, key]`` the first value of the
    frontier vector ``key`` (digit r, base ``length``: row r's last position + 1, 0 for a
    closed row) of table ``mask`` (-1: none), ``cstrides[mask, key, r]`` the stride of row
    r's count index ``cidx[code]`` (count - 1; 0 for the empty row) in that block."""
    variant = layout.variant
    m, length, boxes = variant.rows, variant.row_length, variant.penalty_boxes
    keys = length ** m
    offsets = np.full((1 << m, keys), -1, dtype=np.int64)
    cstrides = np.zeros((1 << m, keys, m), dtype=np.int64)
    cidx = np.array([max(int(c) - 1, 0) if int(last) >= 0 else 0
                     for last, c in zip(layout.code_last, layout.code_marks, strict=True)],
                    dtype=np.int64)
    size = 0
    front = np.zeros(m, dtype=np.int64)
    for mask in layout.masks:
        open_rows = layout.open_rows(mask)
        counts = n_counts if mask else 1
        for digits in itertools.product(range(length), repeat=len(open_rows)):
            key = 0
            front[:] = length - 1
            for r, d in zip(open_rows, digits, strict=True):
                key += d * length ** r
                front[r] = d - 1
            undecided, _ = status_bits(front, sym_row, sym_pos)
            stride = (1 << int(undecided).bit_count()) * counts * boxes
            offsets[mask, key] = size
            for r, d in reversed(list(zip(open_rows, digits, strict=True))):
                cstrides[mask, key, r] = stride
                stride *= max(d, 1)
            size += stride
    return offsets, cstrides, cidx, size


@dataclass(frozen=True, slots=True)
class ExactTable:
    """Bonus B's exact values (module docstring) on one pad and R15 Option."""

    sheet: SheetLayout
    action2_after_game_end: bool
    layout: Layout
    #: The flat value array (module docstring's index).
    data: FloatArray
    offsets: IntArray
    cstrides: IntArray
    cidx: IntArray
    #: The symbols' cells, ``[symbol, cell]`` (:func:`bonus_b_bound.symbol_cells`), kept so
    #: that :meth:`value` does not build them again on every call.
    sym_row: IntArray
    sym_pos: IntArray
    configurations: int

    def start_value(self) -> float:
        """Bonus B's optimal solitaire value: the empty sheet's."""
        return self.value(Sheet.empty(self.sheet))

    def final(self, sheet: Sheet) -> float:
        """A finished game's score (BB8)."""
        return float(sheet.score)

    def value(self, sheet: Sheet) -> float:
        """The optimal expected final score (BB8) of a running game's ``sheet``: the table's
        value plus the points it holds for good (closed rows, a paid octagon)."""
        layout = self.sheet
        m = len(layout.locks)
        length = self.layout.variant.row_length
        mask = 0
        held = 0.0
        count = 0
        front = np.zeros(m, dtype=np.int64)
        codes = np.zeros(m, dtype=np.int64)
        for r, colour in enumerate(layout.locks):
            marks = sheet.masks[colour.index]
            front[r] = marks.bit_length() - 1
            if sheet.is_locked(colour):
                mask |= 1 << r
                count = sheet.count(colour)
                held += float(self.layout.points[count])
                front[r] = length - 1
            else:
                codes[r] = int(self.layout.code_by_mask[r][marks])
        bits = 0
        for k in range(5):
            cells = layout.symbols[k]
            crossed = [bool(sheet.masks[layout.locks[r].index] >> p & 1) for r, p in cells]
            dead = any(not c and p <= front[r] for c, (r, p) in zip(crossed, cells,
                                                                    strict=True))
            bits |= (not dead) << k
            if k == OCTAGON and all(crossed):
                held += OCTAGON_REWARD
        undecided, _ = status_bits(front, self.sym_row, self.sym_pos)
        counts = self.n_counts() if mask else 1
        threshold = self.layout.variant.lock_threshold
        lane = (pack(bits, undecided) * counts + (count - threshold - 2 if mask else 0)) \
            * layout.penalty_boxes + sheet.penalties
        index = _base(self.offsets, self.cstrides, self.cidx, mask, codes, front, length)
        return float(self.data[index + lane]) + held

    def n_counts(self) -> int:
        """The closed-row counts a lane holds: lock threshold + 2 .. row length + 1."""
        variant = self.layout.variant
        return variant.row_length - variant.lock_threshold


def _prepare(sheet: SheetLayout) -> tuple[Layout, IntArray, IntArray, int, IntArray,
                                          IntArray, IntArray, int]:
    """``(layout, sym_row, sym_pos, n_counts, offsets, cstrides, cidx, size)`` of the pad
    ``sheet``, or its refusal (BB1)."""
    variant, layout = geometry(sheet, "the exact solver")
    if variant.closed_rows_to_end > 2:
        raise ParseError(f"layout {sheet.name}: the exact solver keeps one closed row's "
                         f"count, so at most two closed rows may end the game", rule="BB1")
    sym_row, sym_pos = symbol_cells(sheet, 5)
    n_counts = variant.row_length - variant.lock_threshold
    offsets, cstrides, cidx, size = _index(layout, sym_row, sym_pos, n_counts)
    return layout, sym_row, sym_pos, n_counts, offsets, cstrides, cidx, size


def exact_table(sheet: SheetLayout, action2_after_game_end: bool, data: FloatArray
                ) -> ExactTable:
    """The table of ``sheet`` holding ``data`` (a solve's :attr:`ExactTable.data`, saved and
    loaded again: ``benchmarks/bench_bonus_b_bound.py --exact --load``)."""
    layout, sym_row, sym_pos, _, offsets, cstrides, cidx, size = _prepare(sheet)
    if data.shape != (size,):
        raise ParseError(f"layout {sheet.name}: the exact table holds {size:,} values, "
                         f"not {data.size:,}", rule="BB1")
    return ExactTable(sheet, action2_after_game_end, layout, data, offsets, cstrides, cidx,
                      sym_row, sym_pos, 0)


def solve_exact(sheet: SheetLayout, action2_after_game_end: bool = False, threads: int = 1,
                progress: Callable[[int, int], None] | None = None) -> ExactTable:
    """Solve the Bonus B pad ``sheet`` exactly (default Options BB2, BB3; the R15 Option
    as given) on ``threads`` threads; ``progress(done, total)`` is called after every level
    of configurations."""
    layout, sym_row, sym_pos, n_counts, offsets, cstrides, cidx, size = _prepare(sheet)
    variant = layout.variant
    data = np.full(size, np.nan)
    ended = np.array([m.bit_count() >= variant.closed_rows_to_end
                      for m in range(1 << variant.rows)], dtype=np.bool_)
    skip = np.zeros((variant.rows, variant.open_codes), dtype=np.bool_)

    def args_of(mask: int, open_rows: IntArray, batch: IntArray, products: IntArray
                ) -> tuple[object, ...]:
        return (data, offsets, cstrides, cidx, layout.code_last, layout.code_marks,
                layout.row_next_code, layout.number_at, layout.die_at, layout.points,
                variant.open_codes, variant.row_length, variant.lock_threshold,
                variant.penalty_boxes, n_counts, action2_after_game_end, ended, mask,
                open_rows, batch, products, sym_row, sym_pos)

    with ThreadPoolExecutor(threads) as pool:
        total = solve_levels(layout, skip, solve_exact_batch, args_of,
                             pool if threads > 1 else None, threads, progress)
    return ExactTable(sheet, action2_after_game_end, layout, data, offsets, cstrides, cidx,
                      sym_row, sym_pos, total)
