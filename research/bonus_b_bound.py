"""Qwixx Bonus, pad B: a PROVED UPPER BOUND on the optimal solitaire value, as the exact value
of a relaxed game (issue 34; research/NOTEBOOK.md, "Bonus B: a proved upper bound").

**The relaxed game.**  The moves of Bonus B exactly (R1-R15 and BB1-BB3, BB7, BB9: the same
legal plans, the same forced crosses of the circle and the diamond, depth-first, the same
closes and end of the game, a fourth penalty still ending it), under the default Options
(``bb_fewest_candidates = open_with_next_cell``, ``bb_diamond_order = colour_order``), and
the R15 Option as given; only the final score is replaced by

    R(sheet) = (n + 1) / n * (sum of the n rows' points) + 13     (5/4 on pad B's 4 rows).

On every final sheet Bonus B's score (BB8) is sum + min(rows) * [square] + 13 * [octagon]
- 5 * penalties * [no star] <= sum + sum / n + 13 + 0 = R (the minimum of n numbers is
at most their mean, and row points are never negative; the penalty term is 0 or
negative).  A policy plays the same moves in
both games, so every policy's expected R is at least its expected Bonus B score, and the
relaxed game's optimum bounds Bonus B's from above (docs/variants.md).

**Its state.**  The square, octagon and star change no move (they only score), and R is a
sum over rows, so the relaxed game needs per open row its (last, count) (the official
codes), the penalties, and whether the circle and the diamond are still *live* (neither
cell decided uncrossed, not both crossed) or *spent* (active or dead: either way they
cause nothing more; research/bonus_b_state.py's argument).  A closed row's points are
added when it closes (``W_C`` excludes them, as on every sheet).  Lane ``b * P + p``:
``b`` = circle live + 2 * diamond live, ``p`` penalties.  Given the frontiers a symbol's
status is often decided; only the layers the frontiers allow are solved (the rest stay
NaN and no reachable state reads them).

**The solve** (:func:`solve_relaxed`).  As :mod:`qwixx_math.solver.chain`: per
configuration and layer every plan is played with its forced crosses
(:func:`qwixx_math.solver.bonus_b_moves.plan_list`, moved into the package on
2026-12-07 with the exact solver) and its look-up written into ``one`` and ``m2``; the kernel's
:func:`qwixx_math.solver.kernel.turn_values` takes the expected maximum over the dice.  The
points are the rows' points times (n + 1) / n (5/4 on pad B, exact in binary floating
point; the tiny test pads of 2 and 3 rows take 3/2 and 4/3), the penalty costs nothing
(the kernel's fourth-penalty term is cancelled through its ``step_points``), and the
constant 13 is added to the start value.

**Other terminals.**  The solver takes any final score of the form ``scale * (sum of the
rows' points) - penalty * penalties + constant`` (:class:`Terminal`): the upper bound's
above (:func:`upper_terminal`), and h = sum - 5 * penalties, whose exact value is a PROVED
LOWER bound (:func:`solve_lower`, the proof in its docstring).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from qwixx_math.bonus_b import OCTAGON_POINTS
from qwixx_math.jit import jit
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import PENALTY_POINTS, Sheet, row_points
from qwixx_math.solver import Variant
from qwixx_math.solver.bar import where_after
from qwixx_math.solver.bonus_b import geometry
from qwixx_math.solver.bonus_b_moves import (
    AFTER,
    CIRCLE,
    DIAMOND,
    DIE,
    KIND,
    NUMBER,
    ROW,
    SUM,
    decode,
    plan_list,
    plan_scratch,
    sides,
    symbol_cells,
)
from qwixx_math.solver.chain import (
    batch_scratch,
    clear_lanes,
    keep_action1,
    keep_action2,
    solve_levels,
)
from qwixx_math.solver.kernel import turn_values
from qwixx_math.solver.layout import Layout

__all__ = ["AFTER", "DIE", "KIND", "NUMBER", "ROW", "SUM", "RelaxedTable", "Terminal",
           "decode", "geometry", "lower_terminal", "plan_list", "plan_scratch",
           "relaxed_scale", "sides", "solve_lower", "solve_relaxed", "symbol_cells",
           "upper_terminal"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def relaxed_scale(sheet: SheetLayout) -> float:
    """The relaxed terminal's factor on the rows' points, (n + 1) / n for n rows (BB4:
    the lowest of n row scores is at most their mean)."""
    n = len(sheet.numbers)
    return (n + 1) / n


@dataclass(frozen=True, slots=True)
class Terminal:
    """A relaxed game's final score, ``scale * (sum of the rows' points) - penalty *
    penalties + constant``: a sum over rows, so the solver's state needs no symbol but the
    circle's and diamond's live bits (module docstring)."""

    scale: float
    penalty: float
    constant: float

    def of(self, sheet: Sheet) -> float:
        """The terminal's value of a finished game's ``sheet``."""
        rows = sum(float(row_points(sheet.count(colour))) for colour in sheet.layout.locks)
        return self.scale * rows - self.penalty * sheet.penalties + self.constant


def upper_terminal(sheet: SheetLayout) -> Terminal:
    """The upper bound's terminal: (n + 1) / n of the rows' points, penalties free, + 13
    (at least BB8's score on every final sheet, module docstring)."""
    return Terminal(relaxed_scale(sheet), 0.0, float(OCTAGON_POINTS))


def lower_terminal() -> Terminal:
    """The lower bound's terminal h: the rows' points, 5 per penalty (at most BB8's score on
    every final sheet, :func:`solve_lower`)."""
    return Terminal(1.0, float(PENALTY_POINTS), 0.0)



@jit()
def _plans(data: FloatArray, offsets: IntArray, strides: IntArray, code_last: IntArray,
           code_marks: IntArray, next_code: IntArray, number_at: IntArray,
           dcell: IntArray, points: FloatArray, length: int, threshold: int, boxes: int,
           a2_after_end: bool, mask: int, open_rows: IntArray, codes: IntArray,
           front0: IntArray, one: FloatArray, m2: FloatArray, live0: int, n_sums: int,
           sym_row: IntArray, sym_pos: IntArray, work: IntArray, frames: IntArray,
           plans: IntArray, ended: npt.NDArray[np.bool_], penalty: float) -> None:
    """Fill layer ``live0`` of ``one`` and ``m2`` (laid out as
    :func:`qwixx_math.solver.kernel.turn_values` reads them) for the configuration
    ``codes`` of table ``mask``: every plan (:func:`plan_list`); a game that ends costs
    ``penalty`` per penalty box (the terminal's, :class:`Terminal`)."""
    k = open_rows.shape[0]
    m = codes.shape[0]
    one_stride = k * n_sums
    lane0 = live0 * boxes
    clear_lanes(one, m2, lane0, boxes, one_stride, n_sums)
    n = plan_list(code_last, code_marks, next_code, number_at, dcell, length, threshold,
                  a2_after_end, ended, mask, open_rows, codes, front0, live0, sym_row,
                  sym_pos, 0, work, frames, plans)
    for t in range(n):
        after = plans[t, AFTER:]
        idx, total = where_after(offsets, strides, points, boxes, mask, open_rows,
                                 after[:m], after[m:2 * m], after[2 * m], after[2 * m + 1])
        if plans[t, KIND] == 0:
            keep_action1(one, m2, data, idx, total, penalty, boxes, lane0, one_stride,
                         n_sums, plans[t, ROW], plans[t, SUM], plans[t, DIE])
        else:
            keep_action2(m2, data, idx, total, penalty, boxes, lane0, one_stride, n_sums,
                         plans[t, SUM], plans[t, DIE], plans[t, NUMBER])


@jit(inline=True)
def _layers(front: IntArray, sym_row: IntArray, sym_pos: IntArray) -> int:
    """The live-bit layers (bits) the frontiers allow: a symbol can be live only with a
    cell right of its frontier, spent only with a cell left of it or both on it."""
    allowed = 0
    for b in range(4):
        ok = True
        for k in range(2):
            right, left = sides(front, sym_row, sym_pos, k)
            possible = right > 0 if b >> k & 1 else (left > 0 or right + left == 0)
            ok = ok and possible
        if ok:
            allowed |= 1 << b
    return allowed



@jit()
def solve_relaxed_batch(data: FloatArray, offsets: IntArray, strides: IntArray,
                        code_last: IntArray, code_marks: IntArray, next_code: IntArray,
                        number_at: IntArray, die_at: IntArray, points: FloatArray,
                        n_codes: int, length: int, threshold: int, lanes: int, boxes: int,
                        a2_after_end: bool, mask: int, open_rows: IntArray, items: IntArray,
                        products: IntArray, sym_row: IntArray, sym_pos: IntArray,
                        penalty: float, start: int, stop: int) -> None:
    """Solve the configurations ``items[start:stop]`` of table ``mask``, every layer the
    frontiers allow, a penalty box costing ``penalty`` at the end.  Every value they read
    must be final."""
    n_sums = 11
    k = open_rows.shape[0]
    m = strides.shape[1]
    dcell, one, m2, vals, zv, zd, sv, sd, no_fields, a1x = batch_scratch(
        lanes, n_sums, length, die_at, open_rows)
    # the fourth penalty's term is score + step_points - 5 * boxes: make it - penalty * boxes
    step_points = np.full(lanes // boxes + 2, (PENALTY_POINTS - penalty) * boxes)
    codes = np.zeros(m, dtype=np.int64)
    front = np.full(m, length - 1, dtype=np.int64)  # a closed row: all decided
    work, frames, plans = plan_scratch(m, k, length)
    ended = offsets < 0
    for it in range(start, stop):
        decode(items[it], open_rows, n_codes, code_last, codes, front)
        base = offsets[mask] + np.sum(strides[mask][open_rows] * codes[open_rows])
        score = np.sum(points[code_marks[codes[open_rows]]])
        allowed = _layers(front, sym_row, sym_pos)
        for live in range(4):
            if not allowed >> live & 1:
                continue
            _plans(data, offsets, strides, code_last, code_marks, next_code, number_at,
                   dcell, points, length, threshold, boxes, a2_after_end, mask, open_rows,
                   codes, front, one, m2, live, n_sums, sym_row, sym_pos, work, frames,
                   plans, ended, penalty)
            turn_values(lanes, 1, k, score, one, m2, vals, zv, zd, sv, sd, products, boxes,
                        live * boxes, (live + 1) * boxes, step_points, n_sums, 6, 8,
                        no_fields, False, a1x)
            for p in range(live * boxes, (live + 1) * boxes):
                data[base + p] = vals[p]


@dataclass(frozen=True, slots=True)
class RelaxedTable:
    """The relaxed game's values (module docstring) on one Bonus B pad and R15 Option, under
    ``terminal`` (the upper bound's or the lower bound's)."""

    sheet: SheetLayout
    terminal: Terminal
    layout: Layout
    #: The flat value array: table ``mask`` at ``offsets[mask]``, lanes ``b * P + p``.
    data: FloatArray
    offsets: IntArray
    strides: IntArray
    configurations: int

    def start_value(self) -> float:
        """The relaxed game's optimal value of the empty sheet: the bound."""
        return float(self.data[self.offsets[0] + 3 * self.sheet.penalty_boxes]) \
            + self.terminal.constant

    def final(self, sheet: Sheet) -> float:
        """The terminal's value of a finished game's ``sheet``."""
        return self.terminal.of(sheet)

    def value(self, sheet: Sheet) -> float:
        """The relaxed value of a running game's sheet (the points of its closed rows,
        scaled, and the terminal's constant included)."""
        layout = self.sheet
        mask = 0
        closed_points = 0.0
        front = []
        for r, colour in enumerate(layout.locks):
            m = sheet.masks[colour.index]
            front.append(m.bit_length() - 1)
            if sheet.is_locked(colour):
                mask |= 1 << r
                closed_points += float(self.layout.points[sheet.count(colour)])
                front[-1] = len(layout.numbers[r]) - 1
        live = 0
        for k in (CIRCLE, DIAMOND):
            cells = layout.symbols[k]
            crossed = [bool(sheet.masks[layout.locks[r].index] >> p & 1) for r, p in cells]
            decided = [p < front[r] or bool(mask >> r & 1) for r, p in cells]
            if not all(crossed) and not any(d and not c for c, d in zip(crossed, decided,
                                                                        strict=True)):
                live |= 1 << k
        index = int(self.offsets[mask]) + live * layout.penalty_boxes + sheet.penalties
        for r, colour in enumerate(layout.locks):
            if not mask >> r & 1:
                code = int(self.layout.code_by_mask[r][sheet.masks[colour.index]])
                index += int(self.strides[mask, r]) * code
        return (float(self.data[index]) + self.terminal.scale * closed_points
                + self.terminal.constant)


def _tables(variant: Variant, lanes: int) -> tuple[IntArray, IntArray, int]:
    """``(offsets, strides, size)`` of the relaxed game's tables: every closed-row set
    that leaves the game running, ``lanes`` values per configuration."""
    m, n_codes = variant.rows, variant.open_codes
    offsets = np.full(1 << m, -1, dtype=np.int64)
    strides = np.zeros((1 << m, m), dtype=np.int64)
    size = 0
    for mask in range(1 << m):
        if mask.bit_count() >= variant.closed_rows_to_end:
            continue
        offsets[mask] = size
        stride = lanes
        for r in reversed([r for r in range(m) if not mask >> r & 1]):
            strides[mask, r] = stride
            stride *= n_codes
        size += stride
    return offsets, strides, size



def solve_relaxed(sheet: SheetLayout, action2_after_game_end: bool = False,
                  threads: int = 1, progress: Callable[[int, int], None] | None = None,
                  terminal: Terminal | None = None) -> RelaxedTable:
    """Solve the relaxed game of the Bonus B pad ``sheet`` (default Options BB2, BB3; the
    R15 Option as given) under ``terminal`` (default :func:`upper_terminal`: the upper
    bound), on ``threads`` threads; ``progress(done, total)`` is called after every level
    of configurations."""
    if terminal is None:
        terminal = upper_terminal(sheet)
    variant, layout = geometry(sheet, "the relaxed game")
    boxes = variant.penalty_boxes
    lanes = 4 * boxes
    offsets, strides, size = _tables(variant, lanes)
    data = np.full(size, np.nan)
    sym_row, sym_pos = symbol_cells(sheet, 2)
    points = layout.points * terminal.scale
    skip = np.zeros((variant.rows, variant.open_codes), dtype=np.bool_)

    def args_of(mask: int, open_rows: IntArray, batch: IntArray, products: IntArray
                ) -> tuple[object, ...]:
        return (data, offsets, strides, layout.code_last, layout.code_marks,
                layout.row_next_code, layout.number_at, layout.die_at, points,
                variant.open_codes, variant.row_length, variant.lock_threshold, lanes, boxes,
                action2_after_game_end, mask, open_rows, batch, products, sym_row, sym_pos,
                terminal.penalty)

    with ThreadPoolExecutor(threads) as pool:
        total = solve_levels(layout, skip, solve_relaxed_batch, args_of,
                             pool if threads > 1 else None, threads, progress)
    return RelaxedTable(sheet, terminal, layout, data, offsets, strides, total)


def solve_lower(sheet: SheetLayout, action2_after_game_end: bool = False, threads: int = 1,
                progress: Callable[[int, int], None] | None = None) -> RelaxedTable:
    """A PROVED LOWER BOUND on Bonus B's optimal solitaire value: the exact value V_H of the
    game H with Bonus B's moves (as :func:`solve_relaxed`) and the final score

        h(sheet) = (sum of the rows' points) - 5 * penalties.

    **Proof.**  On every final sheet BB8's score is sum + min(rows) * [square] + 13 *
    [octagon] - 5 * penalties * [no star] >= sum - 5 * penalties = h (row points are never
    negative, the octagon adds 13 or 0, and the penalty term is -5 * penalties or 0).  H's
    state (per open row its code, the closed rows, the penalties, the circle's and
    diamond's live bits) is a function of Bonus B's, and H has Bonus B's positions, legal
    plans and successors (its moves ARE Bonus B's, module docstring), so H's optimal policy
    pi, read through that function, is a legal Bonus B policy whose games have the same
    distribution of final sheets in both games.  Hence, V the optimal Bonus B value,

        V >= E_pi[BB8 score] >= E_pi[h] = V_H.

    The same holds from every position (the bound of a running game's sheet is
    :meth:`RelaxedTable.value`).  QED.  Simulating pi in the real game (real score)
    estimates E_pi[BB8 score], a lower bound of V at least V_H
    (``benchmarks/bench_bonus_b_bound.py --lower``)."""
    return solve_relaxed(sheet, action2_after_game_end, threads, progress, lower_terminal())
