"""Qwixx Connected, the Chain, in the solver (VARIANTS.md §5, CC1-CC9; CC3 = True).

**The state** (research/NOTEBOOK.md, "The Chain's state").  Under CC3 = True every
crossed cell of a row lies at or left of its frontier, so a voluntary cross (always right
of its own row's frontier) finds its partner uncrossed (CC7) and crosses it: the partner
row gains a cross (CC2, CC5), and its frontier moves there if the partner lies right of
it (CC3).  The pairs' states follow from the frontiers, so a position is the official
state (per open row its last mark and count) plus the count of each closed row (it still
gains partner crosses) and the penalties.  The solver stores that count as the **lane**
(:mod:`qwixx_math.solver.layout`): lane ``c * P + p`` for a closed row of ``c`` crosses
and ``p`` penalties, every count 0 .. L + 1 (a row another player closed holds any); the
table of open rows has ``P`` lanes only.
A table ``W_C`` excludes the closed rows' points, as on every sheet: a partner cross into
a closed row adds ``T(c + 1) - T(c)`` to the plan's value.  The solver plays a pad on
which at most one row is closed while the game runs (sheet A ends at two closed rows).

**The solve** (:func:`solve_chain`).  The tables with a closed row first, then the table
of open rows; inside a table the configurations by their number of marks, most first
(every cross adds a mark to an open row: a partner cross comes with a voluntary one), as
:mod:`.engine` does.  No symmetry survives the pairs.  Per configuration and lane,
:func:`_chain_plans` plays every plan (action 1 alone, action 2 alone, action 1 then
action 2) with its partner crosses and looks up where it leads: ``one`` and ``m2`` as
:func:`qwixx_math.solver.kernel.turn_values` reads them, which takes the expected maximum
over the dice as on every sheet.  Action 1's closes take effect after action 1 (V5): its
die and cells are out of action 2 (R9), a partner cross into that row still counts.

(numba compiles these kernels; their on-disk cache is keyed on this module's source too,
:func:`qwixx_math.jit.sources_digest`.)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from ..jit import jit
from ..keys import open_code
from ..model import PENALTY_POINTS
from .kernel import count_products, level_items, turn_values
from .layout import Layout
from .threads import run_in_slices

__all__ = ["batch_scratch", "chain_arrays", "clear_lanes", "keep_action1", "keep_action2",
           "solve_chain", "solve_chain_batch", "solve_levels"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Points lost per penalty box (R17), as the float the kernel computes with.
PENALTY = float(PENALTY_POINTS)
#: Configurations of one level below which the batch runs on the calling thread.
PARALLEL_MIN = 256


def chain_arrays(layout: Layout) -> tuple[IntArray, IntArray, IntArray]:
    """``(partner_row, partner_pos, partner_code)``: the partner of row r's cell q
    (``partner_row[r, q]`` = -1: no partner), and ``partner_code[r, c, p]``, open row r's
    code after a partner cross at position p from code c: one more cross, the frontier at
    p if right of it (CC3).  A code whose count cannot grow (no state reaches it with an
    uncrossed cell at p) keeps its code."""
    variant = layout.variant
    m, length, n_codes = variant.rows, variant.row_length, variant.open_codes
    partner_row = np.full((m, length), -1, dtype=np.int64)
    partner_pos = np.full((m, length), -1, dtype=np.int64)
    for (r1, p1), (r2, p2) in variant.sheet.chain:
        partner_row[r1, p1], partner_pos[r1, p1] = r2, p2
        partner_row[r2, p2], partner_pos[r2, p2] = r1, p1
    partner_code = np.zeros((m, n_codes, length), dtype=np.int64)
    for c in range(n_codes):
        last, marks = int(layout.code_last[c]), int(layout.code_marks[c])
        for p in range(length):
            front = max(last, p)
            ok = p < length - 1 and marks + 1 <= front + 1 and p != last
            partner_code[:, c, p] = open_code(front, marks + 1) if ok else c
    return partner_row, partner_pos, partner_code


@jit(inline=True)
def _cross(codes: IntArray, marks: IntArray, row: int, q: int, mask: int, shut: int,
           cc: int, last_q: int, next_code: IntArray, code_marks: IntArray,
           partner_row: IntArray, partner_pos: IntArray, partner_code: IntArray
           ) -> tuple[int, int]:
    """A legal voluntary cross of ``row`` at ``q`` in place, with its partner cross
    (CC1-CC5): returns ``(shut, cc)``, the rows closed this turn (the lock number marks
    the lock box, R8, R9) and the count of the row closed before the turn (``mask``)."""
    if q >= last_q:
        marks[row] += 2
        return shut | (1 << row), cc
    codes[row] = next_code[row, codes[row], q]
    marks[row] = code_marks[codes[row]]
    r2 = partner_row[row, q]
    if r2 < 0:
        return shut, cc
    if mask >> r2 & 1:
        return shut, cc + 1  # CC2: a closed row still gains the cross
    if shut >> r2 & 1:
        marks[r2] += 1  # closed in action 1: counts, no frontier (V5, CC2)
        return shut, cc
    codes[r2] = partner_code[r2, codes[r2], partner_pos[row, q]]
    marks[r2] = code_marks[codes[r2]]
    return shut, cc


@jit(inline=True)
def _copy(open_rows: IntArray, codes: IntArray, marks: IntArray, to_codes: IntArray,
          to_marks: IntArray) -> None:
    """The open rows' ``codes`` and ``marks`` into ``to_codes`` and ``to_marks``."""
    for r in open_rows:
        to_codes[r] = codes[r]
        to_marks[r] = marks[r]


@jit(inline=True)
def _where(offsets: IntArray, strides: IntArray, points: FloatArray, boxes: int,
           mask: int, open_rows: IntArray, codes: IntArray, marks: IntArray, shut: int,
           cc: int, cc0: int, layers: int) -> tuple[int, float]:
    """``(index, points)`` of the position after a turn: its value with x penalties is
    ``points + data[index + x]`` (the points of the rows closed this turn and the closed
    row's partner crosses, plus the table value), index -1 when the game is over, whose
    score is ``points - 5x``."""
    new_mask = mask | shut
    total = 0.0
    if mask != 0:
        total += points[cc] - points[cc0]
    if offsets[new_mask] < 0:
        for t in range(open_rows.shape[0]):
            total += points[marks[open_rows[t]]]
        return -1, total
    layer = cc  # (0 with every row open)
    for t in range(open_rows.shape[0]):
        r = open_rows[t]
        if shut >> r & 1:
            total += points[marks[r]]
            layer = marks[r]
    layer = min(max(layer, 0), layers - 1)  # (only unreachable states leave the range)
    idx = offsets[new_mask] + layer * boxes
    for t in range(open_rows.shape[0]):
        r = open_rows[t]
        if not shut >> r & 1:
            idx += strides[new_mask, r] * codes[r]
    return idx, total


@jit(inline=True)
def clear_lanes(one: FloatArray, m2: FloatArray, lane0: int, boxes: int, one_stride: int,
                n_sums: int) -> None:
    """Set the lanes ``lane0`` .. ``lane0 + boxes`` of ``one`` and ``m2`` (laid out as
    :func:`qwixx_math.solver.kernel.turn_values` reads them) to -inf: no plan yet."""
    for x in range(lane0 * one_stride, (lane0 + boxes) * one_stride):
        one[np.uintp(x)] = -np.inf
    for x in range(lane0 * n_sums * one_stride, (lane0 + boxes) * n_sums * one_stride):
        m2[np.uintp(x)] = -np.inf


@jit(inline=True)
def keep_action1(one: FloatArray, m2: FloatArray, data: FloatArray, idx: int, total: float,
                 penalty: float, boxes: int, lane0: int, one_stride: int, n_sums: int,
                 ii: int, s: int, d: int) -> None:
    """Keep a plan of one cross at white sum ``s + 2`` in open row ``ii``, leading to
    ``(idx, total)`` (its value with x penalties ``total + data[idx + x]``, or ``total -
    penalty * x`` when the game is over): in ``one`` as action 1 alone, and, on a cell
    of die ``d`` (>= 0), in ``m2`` as the same cross made as action 2 alone, whatever the
    white sum (the caller's sheet says they lead to the same place)."""
    for x in range(boxes):
        v = total + data[np.uintp(idx + x)] if idx >= 0 else total - penalty * x
        c = np.uintp((lane0 + x) * one_stride + ii * n_sums + s)
        one[c] = max(one[c], v)  # action 1 alone
        if d >= 0:
            for w in range(n_sums):
                c = np.uintp(((lane0 + x) * n_sums + w) * one_stride + d * n_sums + s)
                m2[c] = max(m2[c], v)


@jit(inline=True)
def keep_action2(m2: FloatArray, data: FloatArray, idx: int, total: float, penalty: float,
                 boxes: int, lane0: int, one_stride: int, n_sums: int, s: int, d2: int,
                 n: int) -> None:
    """Keep, in ``m2``, a plan of action 1 at white sum ``s + 2`` then action 2 with die
    ``d2`` on number ``n + 2``, leading to ``(idx, total)`` (as :func:`keep_action1`)."""
    for x in range(boxes):
        v = total + data[np.uintp(idx + x)] if idx >= 0 else total - penalty * x
        c = np.uintp(((lane0 + x) * n_sums + s) * one_stride + d2 * n_sums + n)
        m2[c] = max(m2[c], v)


@jit()
def _chain_plans(data: FloatArray, offsets: IntArray, strides: IntArray,
                 code_last: IntArray, code_marks: IntArray, next_code: IntArray,
                 number_at: IntArray, dcell: IntArray, points: FloatArray, length: int,
                 threshold: int, boxes: int, a2_after_end: bool, mask: int,
                 open_rows: IntArray, codes: IntArray, one: FloatArray, m2: FloatArray,
                 layer: int, layers: int, n_sums: int,
                 partner_row: IntArray, partner_pos: IntArray, partner_code: IntArray,
                 work: IntArray) -> None:
    """Fill the lanes of ``layer`` of ``one`` and ``m2`` (laid out as
    :func:`qwixx_math.solver.kernel.turn_values` reads them) for the configuration
    ``codes`` of table ``mask``: every plan, partner crosses included."""
    k = open_rows.shape[0]
    m = codes.shape[0]
    last_q = length - 1
    one_stride = k * n_sums
    lane0 = layer * boxes
    cc0 = layer
    clear_lanes(one, m2, lane0, boxes, one_stride, n_sums)
    codes1 = work[0:m]
    marks1 = work[m:2 * m]
    codes2 = work[2 * m:3 * m]
    marks2 = work[3 * m:4 * m]
    marks0 = work[4 * m:5 * m]
    for t in range(k):
        marks0[open_rows[t]] = code_marks[codes[open_rows[t]]]
    for ii in range(k):
        i = open_rows[ii]
        for a in range(code_last[codes[i]] + 1, length):
            if a >= last_q and marks0[i] < threshold:
                continue  # R8
            _copy(open_rows, codes, marks0, codes1, marks1)
            shut1, cc1 = _cross(codes1, marks1, i, a, mask, 0, cc0, last_q, next_code,
                                code_marks, partner_row, partner_pos, partner_code)
            idx, total = _where(offsets, strides, points, boxes, mask, open_rows, codes1,
                                marks1, shut1, cc1, cc0, layers)
            s = number_at[i, a] - 2
            d = dcell[i, a]
            # (as action 2 alone too: the same partner cross, the same sheet)
            keep_action1(one, m2, data, idx, total, PENALTY, boxes, lane0, one_stride,
                         n_sums, ii, s, d)
            closed1 = mask | shut1
            if offsets[closed1] < 0 and not a2_after_end:
                continue  # R15: the game ended in action 1
            for jj in range(k):
                j = open_rows[jj]
                if shut1 >> j & 1:
                    continue  # closed in action 1 (V5)
                for q in range(code_last[codes1[j]] + 1, length):
                    if q >= last_q and marks1[j] < threshold:
                        continue  # R8, the action-1 crosses counted
                    d2 = dcell[j, q]
                    if d2 < 0 or shut1 >> open_rows[d2] & 1:
                        continue  # R9: the die left play with its row
                    _copy(open_rows, codes1, marks1, codes2, marks2)
                    shut2, cc2 = _cross(codes2, marks2, j, q, mask, shut1, cc1, last_q,
                                        next_code, code_marks, partner_row, partner_pos,
                                        partner_code)
                    idx, total = _where(offsets, strides, points, boxes, mask, open_rows,
                                        codes2, marks2, shut2, cc2, cc0, layers)
                    keep_action2(m2, data, idx, total, PENALTY, boxes, lane0, one_stride,
                                 n_sums, s, d2, number_at[j, q] - 2)


@jit(inline=True)
def _consistent(codes: IntArray, open_rows: IntArray, mask: int, code_last: IntArray,
                code_marks: IntArray, partner_row: IntArray, partner_pos: IntArray,
                length: int) -> bool:
    """False when no sheet of consistent pairs (CC7, every cross at or left of its row's
    frontier: CC3) has the open rows at ``codes`` (a closed row's frontier is its last
    number): a frontier on a chain cell needs its partner crossed (the partner row's
    frontier at or past it), and a row's count lies between its frontier plus the cells
    left of it that must be crossed (partner at the partner row's frontier) and that
    plus the cells that may be (no partner, or a partner left of its row's frontier; a
    cell whose partner is right of its row's frontier is uncrossed).  No state a game
    reaches fails it, so the solve skips the configurations that do (about two thirds
    on sheet A, research/NOTEBOOK.md)."""
    for r in open_rows:
        f = code_last[codes[r]]
        lo = 1
        hi = 1
        for p in range(f + 1):
            r2 = partner_row[r, p]
            f2 = -1
            if r2 >= 0:
                f2 = length - 1 if mask >> r2 & 1 else code_last[codes[r2]]
            if p == f:
                if r2 >= 0 and f2 < partner_pos[r, p]:
                    return False
            elif r2 < 0 or f2 > partner_pos[r, p]:
                hi += 1  # free
            elif f2 == partner_pos[r, p]:
                lo += 1  # forced
                hi += 1
        if f >= 0 and not lo <= code_marks[codes[r]] <= hi:
            return False
    return True


@jit()
def batch_scratch(lanes: int, n_sums: int, length: int, die_at: IntArray,
                  open_rows: IntArray
                  ) -> tuple[IntArray, FloatArray, FloatArray, FloatArray, FloatArray,
                             IntArray, FloatArray, IntArray, IntArray, FloatArray]:
    """The scratch of a batch kernel that fills ``one`` and ``m2`` itself and calls
    :func:`~qwixx_math.solver.kernel.turn_values` (this module's, and research's relaxed
    Bonus B solver): ``dcell[r, q]``, the open-row index of the die of cell (r, q) (-1:
    none in play), then ``one``, ``m2``, ``vals``, ``zv``, ``zd``, ``sv``, ``sd``, an
    empty exchange table and ``a1x``, sized for ``lanes`` lanes."""
    k = open_rows.shape[0]
    m = die_at.shape[0]
    dcell = np.empty((m, length), dtype=np.int64)
    for r in range(m):
        for q in range(length):
            dcell[r, q] = -1
            for t in range(k):
                if open_rows[t] == die_at[r, q]:
                    dcell[r, q] = t
    return (dcell, np.empty(lanes * k * n_sums), np.empty(lanes * n_sums * k * n_sums),
            np.empty(lanes), np.empty(6 * k + 1), np.empty(6 * k + 1, dtype=np.int64),
            np.empty(6 * k + 1), np.empty(6 * k + 1, dtype=np.int64),
            np.zeros((0, 2), dtype=np.int64), np.empty(lanes * n_sums))


@jit()
def solve_chain_batch(data: FloatArray, offsets: IntArray, strides: IntArray,
                      code_last: IntArray, code_marks: IntArray, next_code: IntArray,
                      number_at: IntArray, die_at: IntArray, points: FloatArray,
                      n_codes: int, length: int, threshold: int, lanes: int, boxes: int,
                      a2_after_end: bool, mask: int, open_rows: IntArray, items: IntArray,
                      products: IntArray, partner_row: IntArray,
                      partner_pos: IntArray, partner_code: IntArray, start: int,
                      stop: int) -> None:
    """Solve the configurations ``items[start:stop]`` of table ``mask`` (the open rows'
    codes read as a base-``n_codes`` number, first open row most significant), every lane
    a state of the table can hold: the first ``boxes`` with every row open, every
    closed-row count with a row closed.  Every value they read must be final."""
    n_sums = 11
    k = open_rows.shape[0]
    m = strides.shape[1]
    layers = lanes // boxes
    layer_hi = layers if mask != 0 else 1
    dcell, one, m2, vals, zv, zd, sv, sd, no_fields, a1x = batch_scratch(
        lanes, n_sums, length, die_at, open_rows)
    step_points = np.zeros(layers + 2)  # (W_C holds no closed row's points)
    codes = np.zeros(m, dtype=np.int64)
    work = np.zeros(5 * m, dtype=np.int64)
    for it in range(start, stop):
        rest = items[it]
        for t in range(k):  # the last open row's code is the lowest digit
            r = open_rows[k - 1 - t]
            codes[r] = rest % n_codes
            rest //= n_codes
        if not _consistent(codes, open_rows, mask, code_last, code_marks, partner_row,
                           partner_pos, length):
            continue  # no game reaches it: its values stay NaN, and none reads them
        base = offsets[mask] + np.sum(strides[mask][open_rows] * codes[open_rows])
        score = np.sum(points[code_marks[codes[open_rows]]])
        for layer in range(layer_hi):
            _chain_plans(data, offsets, strides, code_last, code_marks, next_code,
                         number_at, dcell, points, length, threshold, boxes, a2_after_end,
                         mask, open_rows, codes, one, m2, layer, layers, n_sums,
                         partner_row, partner_pos, partner_code, work)
        turn_values(lanes, 1, k, score, one, m2, vals, zv, zd, sv, sd, products, boxes, 0,
                    layer_hi * boxes, step_points, n_sums, 6, 8, no_fields, False, a1x)
        for p in range(layer_hi * boxes):  # (P lanes with every row open)
            data[base + p] = vals[p]


#: ``progress(done, total)``, in units of solved configurations.
Progress = Callable[[int, int], None]


def solve_chain(layout: Layout, action2_after_action1_end: bool,
                pool: ThreadPoolExecutor | None, threads: int,
                progress: Progress | None = None) -> tuple[FloatArray, int]:
    """Every table of the chain pad ``layout.variant`` (solitaire): the flat value array
    and the number of configurations solved."""
    variant = layout.variant
    data = np.full(layout.size, np.nan)
    partner_row, partner_pos, partner_code = chain_arrays(layout)
    skip = np.zeros((variant.rows, variant.open_codes), dtype=np.bool_)

    def args_of(mask: int, open_rows: IntArray, batch: IntArray, products: IntArray
                ) -> tuple[object, ...]:
        return (data, layout.offsets, layout.strides, layout.code_last,
                layout.code_marks, layout.row_next_code, layout.number_at,
                layout.die_at, layout.points, variant.open_codes, variant.row_length,
                variant.lock_threshold, layout.lanes, variant.penalty_boxes,
                action2_after_action1_end, mask, open_rows, batch, products,
                partner_row, partner_pos, partner_code)

    total = solve_levels(layout, skip, solve_chain_batch, args_of, pool, threads, progress)
    return data, total


def solve_levels(layout: Layout, skip: npt.NDArray[np.bool_], kernel: Callable[..., None],
                 args_of: Callable[[int, IntArray, IntArray, IntArray], tuple[object, ...]],
                 pool: ThreadPoolExecutor | None, threads: int,
                 progress: Progress | None = None) -> int:
    """Run a batch ``kernel`` (``kernel(*args_of(mask, open_rows, batch, products),
    start, stop)`` solves ``batch[start:stop]``) over every table of ``layout``, the
    tables with the most closed rows first, inside a table the configurations by their
    number of marks, most first (every plan adds a mark or closes a row), without
    symmetry and without the codes ``skip`` marks; the configurations of one level in
    pieces on ``pool``.  Returns the number of configurations solved."""
    no_perms = np.arange(layout.variant.rows, dtype=np.int64).reshape(1, -1)
    order = sorted(layout.masks, key=lambda mask: -mask.bit_count())
    plans = []
    for mask in order:
        open_rows = np.array(layout.open_rows(mask), dtype=np.int64)
        items, level_start, _ = level_items(layout.strides[mask], open_rows, no_perms,
                                            layout.code_marks, skip)
        plans.append((mask, open_rows, items, level_start))
    total = sum(len(p[2]) for p in plans)
    done = 0
    if progress is not None:
        progress(0, total)
    for mask, open_rows, items, level_start in plans:
        products = count_products(len(open_rows), 8)
        for level in range(len(level_start) - 2, -1, -1):
            batch = items[level_start[level]:level_start[level + 1]]
            args = args_of(mask, open_rows, batch, products)
            n = len(batch)
            run_in_slices(pool, 4, threads, PARALLEL_MIN, kernel, args, n)
            done += n
            if progress is not None:
                progress(done, total)
    return total
