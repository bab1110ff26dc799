"""Qwixx Bonus, pad B, in the solver: its EXACT optimal solitaire value (VARIANTS.md §5,
BB1-BB9; issue 34; research/NOTEBOOK.md, "Bonus B solved exactly").

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
from the frontiers, :func:`.bonus_b_moves.status_bits`), and, in the tables with one
closed row, that row's count (it enters the square's minimum).  So at most two closed
rows may end the game (BB1 refuses other pads).  The octagon is paid when it activates
(its 13 is a reward of the move), so its bit only says whether it still can.  The moves
are :func:`.bonus_b_moves.plan_list`'s (every plan with the circle's and diamond's forced
crosses, depth-first), which depend on the circle's and diamond's bits only; the
square's, octagon's and star's bits follow each plan by a bit operation (a plan walked
with them set kills what its crosses skip and activates what they complete: the real
bits are those AND the walk's, the octagon paid only if its bit was set).

**The index** (:func:`.bonus_b_moves.frontier_index`).  Per closed-row set and frontier
vector (the open rows' last positions) a block of ``prod(counts) x 2^u x C x P`` float64
values: every count combination those frontiers allow (a row whose last cross is at
position l holds 1 .. l + 1 crosses), only the ``u`` undecided bits, ``C`` closed-row
counts (threshold + 2 .. length + 1; 1 with every row open), ``P`` penalties.  Lane
``(bits * C + c) * P + p``, ``bits`` the undecided bits packed low
(:func:`.bonus_b_moves.pack`).  On pad B 701,299,776 values, 5.2 GiB, against 13.4 GiB
for every bit.

**The solve** (:func:`solve_bonus_b`).  The level order of
:func:`.chain.solve_levels` (every plan adds a mark or closes a row); per configuration:
per circle/diamond bit pair the plans, per lane the look-ups (:func:`.chain.keep_action1`,
``keep_action2``), then the kernel's :func:`.kernel.turn_values` over every lane at once,
its fourth-penalty term the terminal (the square's minimum when active, the star
cancelling the penalties, ``step_points``).  In a table with a closed row, a bit pattern
whose square is dead has ``C`` equal closed-count lanes (the count enters the score only
through the square's minimum, and every plan keeps the square dead): its first count's
lanes are solved and copied to the others, bit for bit the values a solve of each gives
(research/NOTEBOOK.md, "Bonus B's solve: where the time goes").  A table value ``W``
excludes the closed rows' points and the octagon's 13 once paid
(:meth:`BonusBLayout.locate` gives them).  Pad B's
whole solve measured 2,820 s CPU and 5.6 GB (docs/variants.md); the table model is not
played (BB1 refuses it).

(numba compiles these kernels; their on-disk cache is keyed on this module's source too,
:func:`qwixx_math.jit.sources_digest`.)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..bonus_b import OCTAGON_POINTS
from ..errors import ParseError
from ..jit import jit
from ..layouts import SYMBOL_NAMES, SheetLayout
from ..model import PENALTY_POINTS, Colour, Sheet
from ..ruleset import CircleCandidates, Ruleset
from .bonus_b_moves import (
    AFTER,
    DIE,
    KEEP,
    KIND,
    NUMBER,
    OCTAGON,
    ROW,
    SQUARE,
    STAR,
    SUM,
    decode,
    frontier_index,
    pack,
    plan_list,
    plan_scratch,
    status_bits,
    symbol_cells,
    unpack,
)
from .chain import (
    batch_scratch,
    clear_lanes,
    keep_action1,
    keep_action2,
    solve_levels,
)
from .kernel import turn_values
from .layout import Layout
from .variant import Variant, check_symbol_cells, check_symbol_sheet

__all__ = ["BonusBLayout", "check_bonus_b_ruleset", "geometry", "solve_bonus_b"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

PENALTY = float(PENALTY_POINTS)
OCTAGON_REWARD = float(OCTAGON_POINTS)


def check_bonus_b_ruleset(variant: Variant, ruleset: Ruleset) -> None:
    """Refuse (ParseError naming BB2) a solve of a pad with symbols under the Option
    ``bb_fewest_candidates = open_rows``: the solver plays the default only."""
    if variant.sheet.symbols and \
            ruleset.bb_fewest_candidates is not CircleCandidates.OPEN_WITH_NEXT_CELL:
        raise ParseError(f"layout {variant.sheet.name}: the exact solver plays the circle's "
                         "default Option only (bb_fewest_candidates = open_with_next_cell)",
                         rule="BB2")


def geometry(sheet: SheetLayout, what: str) -> tuple[Variant, Layout]:
    """The solver's view of the Bonus B pad ``sheet`` (its rows, without the symbols), or
    the refusal (BB1) of a pad ``what`` (a research bound's relaxed game, the exact solver)
    cannot play."""
    check_symbol_cells(sheet, what)
    variant = Variant(dataclasses.replace(sheet, symbols=()))  # (the geometry only)
    return variant, Layout.of(variant)


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
def solve_bonus_b_batch(data: FloatArray, offsets: IntArray, cstrides: IntArray,
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
                # a dead square: the closed count enters nothing (BB8), the block's
                # counts hold equal values, and the first one's are solved for all
                width = block if bits >> SQUARE & 1 else boxes
                clear_lanes(one, m2, lane0, width, one_stride, n_sums)
                for t in range(n):
                    after_bits = plans[t, AFTER + 2 * m + 1] & (bits | 3)
                    total = succ_points[t, 0]
                    if plans[t, AFTER + 2 * m + 2] >> OCTAGON & 1 and bits >> OCTAGON & 1:
                        total += OCTAGON_REWARD
                    idx = succ[t, 0]
                    if idx >= 0:
                        idx += pack(after_bits, succ[t, 1]) * succ[t, 2] * boxes + succ[t, 3]
                        _keep(one, m2, data, plans, t, idx, total, 0.0, width, lane0,
                              one_stride, n_sums)
                        continue
                    total += succ_points[t, 1]
                    pen = 0.0 if succ[t, 4] and after_bits >> STAR & 1 else PENALTY
                    square_on = succ[t, 3] and after_bits >> SQUARE & 1
                    for c in range(width // boxes):
                        least = succ_points[t, 2] if mask == 0 else min(
                            succ_points[t, 2], points[count0 + c])
                        end = total + least if square_on else total
                        _keep(one, m2, data, plans, t, -1, end, pen, boxes,
                              lane0 + c * boxes, one_stride, n_sums)
        if mask == 0:
            turn_values(lanes, 1, k, score, one, m2, vals, zv, zd, sv, sd, products, boxes,
                        0, n_lanes * block, step_points, n_sums, 6, 8, no_fields, False,
                        a1x)
            for p in range(n_lanes * block):
                data[base + p] = vals[p]
            continue
        for lane in range(n_lanes):  # block by block: a dead square's first count only
            bits = decided | unpack(lane, undecided)
            lo = lane * block
            hi = lo + (block if bits >> SQUARE & 1 else boxes)
            turn_values(hi, 1, k, score, one, m2, vals, zv, zd, sv, sd, products, boxes,
                        lo, hi, step_points, n_sums, 6, 8, no_fields, False, a1x)
            for p in range(block):  # (the lanes below lo are -inf now: written already)
                data[base + lo + p] = vals[lo + p if lo + p < hi else lo + p % boxes]


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


@dataclass(frozen=True, eq=False, slots=True)
class BonusBLayout:
    """Where every value of a Bonus B pad lives (module docstring's index), and the
    geometry its solve and look-ups need."""

    sheet: SheetLayout
    #: The rows' geometry (codes, numbers, dice) without the symbols.
    layout: Layout
    offsets: IntArray
    cstrides: IntArray
    cidx: IntArray
    #: The symbols' cells, ``[symbol, cell]`` (:func:`.bonus_b_moves.symbol_cells`).
    sym_row: IntArray
    sym_pos: IntArray
    #: The closed-row counts a lane holds: lock threshold + 2 .. row length + 1.
    n_counts: int
    size: int

    @classmethod
    def of(cls, sheet: SheetLayout) -> BonusBLayout:
        """The index of ``sheet`` (built once per pad and process), or its refusal (BB1)."""
        return _layout_of(sheet)

    def locate(self, sheet: Sheet, closed: Iterable[Colour] = ()) -> tuple[int, float]:
        """``(index, held)`` of a running game's ``sheet``: where its value lives, and the
        points it holds for good (its closed rows', a paid octagon's 13); its value is
        their sum.  A row closed by another player (in ``closed``, not locked on the
        sheet) is refused (BB1): the solitaire table keeps the closed row's count."""
        layout = self.sheet
        m = len(layout.locks)
        length = self.layout.variant.row_length
        mask = 0
        held = 0.0
        count = 0
        front = np.zeros(m, dtype=np.int64)
        codes = np.zeros(m, dtype=np.int64)
        shut = frozenset(closed)
        for r, colour in enumerate(layout.locks):
            marks = sheet.masks[colour.index]
            front[r] = marks.bit_length() - 1
            if sheet.is_locked(colour):
                mask |= 1 << r
                count = sheet.count(colour)
                held += float(self.layout.points[count])
                front[r] = length - 1
            elif colour in shut:
                raise ParseError(f"layout {layout.name}: the solitaire table of Bonus B has "
                                 f"no row closed by another player ({colour.value})",
                                 rule="BB1")
            else:
                codes[r] = int(self.layout.code_by_mask[r][marks])
        bits = 0
        for k in range(len(SYMBOL_NAMES)):
            cells = layout.symbols[k]
            crossed = [bool(sheet.masks[layout.locks[r].index] >> p & 1) for r, p in cells]
            dead = any(not c and p <= front[r] for c, (r, p) in zip(crossed, cells,
                                                                    strict=True))
            bits |= (not dead) << k
            if k == OCTAGON and all(crossed):
                held += OCTAGON_REWARD
        undecided, _ = status_bits(front, self.sym_row, self.sym_pos)
        counts = self.n_counts if mask else 1
        threshold = self.layout.variant.lock_threshold
        lane = (pack(bits, undecided) * counts + (count - threshold - 2 if mask else 0)) \
            * layout.penalty_boxes + sheet.penalties
        index = _base(self.offsets, self.cstrides, self.cidx, mask, codes, front, length)
        return index + lane, held


@functools.lru_cache(maxsize=4)
def _layout_of(sheet: SheetLayout) -> BonusBLayout:
    check_symbol_sheet(sheet)
    _, layout = geometry(sheet, "the exact solver")
    variant = layout.variant
    sym_row, sym_pos = symbol_cells(sheet, len(SYMBOL_NAMES))
    n_counts = variant.row_length - variant.lock_threshold
    offsets, cstrides, cidx, size = frontier_index(
        variant.rows, variant.row_length, variant.penalty_boxes, layout.masks,
        layout.code_last, layout.code_marks, sym_row, sym_pos, n_counts)
    return BonusBLayout(sheet, layout, offsets, cstrides, cidx, sym_row, sym_pos, n_counts,
                        size)


#: ``progress(done, total)``, in units of solved configurations.
Progress = Callable[[int, int], None]


def solve_bonus_b(sheet: SheetLayout, action2_after_game_end: bool,
                  pool: ThreadPoolExecutor | None, threads: int,
                  progress: Progress | None = None) -> tuple[FloatArray, int, BonusBLayout]:
    """Every table of the Bonus B pad ``sheet`` (solitaire; default Options BB2, BB3; the
    R15 Option as given): the flat value array, the number of configurations solved, and
    the index.  ``progress(done, total)`` is called after every level."""
    lay = BonusBLayout.of(sheet)
    layout = lay.layout
    variant = layout.variant
    data = np.empty(lay.size)
    data.fill(np.nan)
    ended = np.array([m.bit_count() >= variant.closed_rows_to_end
                      for m in range(1 << variant.rows)], dtype=np.bool_)
    skip = np.zeros((variant.rows, variant.open_codes), dtype=np.bool_)

    def args_of(mask: int, open_rows: IntArray, batch: IntArray, products: IntArray
                ) -> tuple[object, ...]:
        return (data, lay.offsets, lay.cstrides, lay.cidx, layout.code_last,
                layout.code_marks, layout.row_next_code, layout.number_at, layout.die_at,
                layout.points, variant.open_codes, variant.row_length,
                variant.lock_threshold, variant.penalty_boxes, lay.n_counts,
                action2_after_game_end, ended, mask, open_rows, batch, products,
                lay.sym_row, lay.sym_pos)

    total = solve_levels(layout, skip, solve_bonus_b_batch, args_of, pool, threads,
                         progress)
    return data, total, lay
