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
configuration and layer every plan is played with its forced crosses (:func:`_put`,
:func:`_resolve`) and its look-up written into ``one`` and ``m2``; the kernel's
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

import dataclasses
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from qwixx_math.bonus_b import OCTAGON_POINTS
from qwixx_math.errors import ParseError
from qwixx_math.jit import jit
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import PENALTY_POINTS, Sheet, row_points
from qwixx_math.solver import Variant
from qwixx_math.solver.bar import where_after
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

#: Symbols with forced crosses, in :data:`qwixx_math.layouts.SYMBOL_NAMES` order.
CIRCLE, DIAMOND = 0, 1


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


@jit(inline=True)
def _put(codes: IntArray, marks: IntArray, front: IntArray, row: int, q: int, shut: int,
         live: int, last_q: int, next_code: IntArray, code_marks: IntArray,
         sym_row: IntArray, sym_pos: IntArray, keep: int) -> tuple[int, int, int]:
    """Cross ``(row, q)`` (legal, right of the row's frontier) in place: the row's code,
    marks (a lock number adds the lock box and closes the row, R8, R9, BB7) and frontier,
    and the symbols' bits ``live`` (symbol k of ``sym_row``/``sym_pos``, bit k: not dead,
    and not yet active unless ``keep`` holds bit k): a symbol whose cell the cross skips
    dies; one whose other cell is crossed and whose cell this is now activates (BB1).
    Returns ``(shut, live, fired)``, ``fired`` the symbol activated or -1 (a symbol's cells
    at or left of their frontiers are crossed while its bit is set,
    research/bonus_b_state.py)."""
    old = front[row]
    front[row] = q
    if q >= last_q:
        marks[row] += 2
        shut |= 1 << row
    else:
        codes[row] = next_code[row, codes[row], q]
        marks[row] = code_marks[codes[row]]
    fired = -1
    for k in range(sym_row.shape[0]):
        if not live >> k & 1:
            continue
        both = True
        hit = False
        for e in range(2):
            rc = sym_row[k, e]
            pc = sym_pos[k, e]
            if rc == row and old < pc < q:
                live &= ~(1 << k)  # skipped: dead (BB1 never)
                both = False
                break
            if pc > front[rc]:
                both = False
            hit = hit or (rc == row and pc == q)
        if both and hit:
            if not keep >> k & 1:
                live &= ~(1 << k)  # active: its forced crosses follow, then it is spent
            fired = k
    return shut, live, fired


@jit(inline=True)
def _next(marks: IntArray, front: IntArray, r: int, closed: int, last_q: int,
          threshold: int) -> int:
    """The next cell of row ``r`` for a forced cross (§0.1), -1 without one: the row is
    closed (``closed``: before the action, or by this turn; in action 1 such a row has
    its lock crossed and no next cell, V5) or R8 forbids its lock number."""
    if closed >> r & 1:
        return -1
    nxt = int(front[r]) + 1
    if nxt > last_q or (nxt == last_q and marks[r] < threshold):
        return -1
    return nxt


@jit(inline=True)
def _resolve(fired: int, codes: IntArray, marks: IntArray, front: IntArray, shut: int,
             live: int, blocked: int, m: int, last_q: int, threshold: int,
             next_code: IntArray, code_marks: IntArray, sym_row: IntArray,
             sym_pos: IntArray, keep: int, frames: IntArray) -> tuple[int, int, int]:
    """The forced crosses of the symbol ``fired`` (the circle or the diamond) and of
    everything they fire in turn, depth-first (BB2, BB3, BB7, V4), on a stack of ``frames``
    (kind, target or rows, crosses left or next row).  ``blocked``: the rows closed for
    this action.  Circle (default ``open_with_next_cell``): two crosses on the first row,
    in row order, with the fewest crosses among the open rows that have a next cell, the
    row fixed at activation; diamond (``colour_order``): one on every row open at
    activation, in row order.  Returns ``(shut, live, activated)``, ``activated`` the bits
    of the symbols the forced crosses activated."""
    depth = 0
    k = fired
    activated = 0
    while True:
        if k >= 0:  # open a frame for the symbol k just fired
            closed = blocked | shut
            frames[depth, 0] = k
            if k == CIRCLE:
                best = -1
                least = 1 << 30
                for r in range(m):
                    if _next(marks, front, r, closed, last_q, threshold) >= 0 \
                            and marks[r] < least:
                        least = marks[r]
                        best = r
                frames[depth, 1] = best
                frames[depth, 2] = 2 if best >= 0 else 0
            else:
                frames[depth, 1] = ~closed & ((1 << m) - 1)
                frames[depth, 2] = 0
            k = -1
        if depth < 0:
            return shut, live, activated
        r = -1
        if frames[depth, 0] == CIRCLE:
            if frames[depth, 2] > 0:
                frames[depth, 2] -= 1
                r = frames[depth, 1]
        else:
            t = frames[depth, 2]
            while t < m and not frames[depth, 1] >> t & 1:
                t += 1
            if t < m:
                r = t
                t += 1
            frames[depth, 2] = t
        if r < 0:
            depth -= 1
            if depth < 0:
                return shut, live, activated
            continue
        nxt = _next(marks, front, r, blocked | shut, last_q, threshold)
        if nxt < 0:
            continue  # the cross lapses
        shut, live, k = _put(codes, marks, front, r, nxt, shut, live, last_q, next_code,
                             code_marks, sym_row, sym_pos, keep)
        if k > DIAMOND:
            activated |= 1 << k  # (no forced crosses)
            k = -1
        elif k >= 0:
            activated |= 1 << k
            depth += 1


@jit(inline=True)
def _cross(codes: IntArray, marks: IntArray, front: IntArray, row: int, q: int, shut: int,
           live: int, blocked: int, m: int, last_q: int, threshold: int,
           next_code: IntArray, code_marks: IntArray, sym_row: IntArray, sym_pos: IntArray,
           keep: int, frames: IntArray) -> tuple[int, int, int]:
    """A voluntary cross ``(row, q)`` and the forced crosses it causes (:func:`_put`,
    :func:`_resolve`): ``(shut, live, activated)``."""
    shut, live, k = _put(codes, marks, front, row, q, shut, live, last_q, next_code,
                         code_marks, sym_row, sym_pos, keep)
    if k < 0:
        return shut, live, 0
    if k > DIAMOND:
        return shut, live, 1 << k
    shut, live, more = _resolve(k, codes, marks, front, shut, live, blocked, m, last_q,
                                threshold, next_code, code_marks, sym_row, sym_pos, keep,
                                frames)
    return shut, live, more | 1 << k


@jit(inline=True)
def _start(open_rows: IntArray, codes: IntArray, marks: IntArray, front: IntArray,
           to_codes: IntArray, to_marks: IntArray, to_front: IntArray) -> None:
    for r in open_rows:
        to_codes[r] = codes[r]
        to_marks[r] = marks[r]
        to_front[r] = front[r]


#: Columns of :func:`plan_list`'s ``plans``: the plan's kind (0: action 1, and the same
#: cross as action 2 alone; 1: action 1 then action 2), the open-row index of action 1's
#: row (kind 0), the white sum - 2, the open-row index of the die (action 1's cell's, -1
#: none in play; action 2's), action 2's number - 2; then, from :data:`AFTER`, the
#: position it leads to: the rows' codes and marks (``m`` each), the closed rows it adds,
#: the symbols' bits, the symbols it activated.
KIND, ROW, SUM, DIE, NUMBER, AFTER = 0, 1, 2, 3, 4, 5


@jit()
def plan_scratch(rows: int, open_rows: int, length: int) -> tuple[IntArray, IntArray,
                                                                  IntArray]:
    """``(work, frames, plans)`` for :func:`plan_list`: room for every plan of one
    configuration."""
    cap = open_rows * length * (open_rows * length + 1) + 1
    return (np.zeros(7 * rows, dtype=np.int64), np.zeros((4, 3), dtype=np.int64),
            np.zeros((cap, AFTER + 2 * rows + 3), dtype=np.int64))


@jit()
def plan_list(code_last: IntArray, code_marks: IntArray, next_code: IntArray,
              number_at: IntArray, dcell: IntArray, length: int, threshold: int,
              a2_after_end: bool, ended: npt.NDArray[np.bool_], mask: int,
              open_rows: IntArray, codes: IntArray, front0: IntArray, live0: int,
              sym_row: IntArray, sym_pos: IntArray, keep: int, work: IntArray,
              frames: IntArray, plans: IntArray) -> int:
    """Every plan of the configuration ``codes`` (frontiers ``front0``, a closed row's
    the last cell) of table ``mask`` with the symbols' bits ``live0``, forced crosses
    included, into the rows of ``plans`` (columns :data:`KIND` ...); their number.
    ``ended[mask]``: the closed rows ``mask`` end the game (R14).  A cross as action 2
    alone is action 1's row (kind 0) with its die: nothing is closed before it, and a row
    its nesting closes has no next cell in either action (default
    ``bb_fewest_candidates``), so it leads to the same sheet."""
    k = open_rows.shape[0]
    m = codes.shape[0]
    last_q = length - 1
    codes1 = work[0:m]
    marks1 = work[m:2 * m]
    front1 = work[2 * m:3 * m]
    codes2 = work[3 * m:4 * m]
    marks2 = work[4 * m:5 * m]
    front2 = work[5 * m:6 * m]
    marks0 = work[6 * m:7 * m]
    for r in range(m):
        front1[r] = front0[r]
        front2[r] = front0[r]
    for t in range(k):
        marks0[open_rows[t]] = code_marks[codes[open_rows[t]]]
    n = 0
    for ii in range(k):
        i = open_rows[ii]
        for a in range(code_last[codes[i]] + 1, length):
            if a >= last_q and marks0[i] < threshold:
                continue  # R8
            _start(open_rows, codes, marks0, front0, codes1, marks1, front1)
            shut1, live1, act1 = _cross(codes1, marks1, front1, i, a, 0, live0, mask, m,
                                        last_q, threshold, next_code, code_marks, sym_row,
                                        sym_pos, keep, frames)
            s = number_at[i, a] - 2
            _record(plans, n, 0, ii, s, dcell[i, a], 0, codes1, marks1, shut1, live1, act1)
            n += 1
            closed1 = mask | shut1
            if ended[closed1] and not a2_after_end:
                continue  # R15: the game ended in action 1
            for jj in range(k):
                j = open_rows[jj]
                if shut1 >> j & 1:
                    continue  # closed in action 1 (V5)
                for q in range(front1[j] + 1, length):
                    if q >= last_q and marks1[j] < threshold:
                        continue  # R8, the action-1 crosses counted
                    d2 = dcell[j, q]
                    if d2 < 0 or shut1 >> open_rows[d2] & 1:
                        continue  # R9: the die left play with its row
                    _start(open_rows, codes1, marks1, front1, codes2, marks2, front2)
                    shut2, live2, act2 = _cross(codes2, marks2, front2, j, q, shut1, live1,
                                                closed1, m, last_q, threshold, next_code,
                                                code_marks, sym_row, sym_pos, keep, frames)
                    _record(plans, n, 1, jj, s, d2, number_at[j, q] - 2, codes2, marks2,
                            shut2, live2, act1 | act2)
                    n += 1
    return n


@jit(inline=True)
def _record(plans: IntArray, n: int, kind: int, row: int, s: int, die: int, number: int,
            codes: IntArray, marks: IntArray, shut: int, live: int, activated: int) -> None:
    m = codes.shape[0]
    plans[n, KIND] = kind
    plans[n, ROW] = row
    plans[n, SUM] = s
    plans[n, DIE] = die
    plans[n, NUMBER] = number
    for r in range(m):
        plans[n, AFTER + r] = codes[r]
        plans[n, AFTER + m + r] = marks[r]
    plans[n, AFTER + 2 * m] = shut
    plans[n, AFTER + 2 * m + 1] = live
    plans[n, AFTER + 2 * m + 2] = activated


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
def sides(front: IntArray, sym_row: IntArray, sym_pos: IntArray, k: int) -> tuple[int, int]:
    """How many cells of symbol ``k`` lie right of their rows' frontiers and how many left
    (the others are on them)."""
    right = 0
    left = 0
    for e in range(2):
        f = front[sym_row[k, e]]
        p = sym_pos[k, e]
        right += p > f
        left += p < f
    return right, left


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


@jit(inline=True)
def decode(item: int, open_rows: IntArray, n_codes: int, code_last: IntArray,
           codes: IntArray, front: IntArray) -> None:
    """The open rows' ``codes`` and frontiers ``front`` of the configuration ``item`` (the
    codes read as a base-``n_codes`` number, the first open row most significant)."""
    rest = item
    k = open_rows.shape[0]
    for t in range(k):  # the last open row's code is the lowest digit
        r = open_rows[k - 1 - t]
        codes[r] = rest % n_codes
        rest //= n_codes
        front[r] = code_last[codes[r]]


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


def geometry(sheet: SheetLayout, what: str) -> tuple[Variant, Layout]:
    """The solver's view of the Bonus B pad ``sheet`` (its rows, without the symbols), or
    the refusal (BB1) of a pad ``what`` (the relaxed game, the exact solver) cannot play."""
    if len(sheet.symbols) != 5:
        raise ParseError(f"layout {sheet.name}: {what} needs Bonus B's five symbols",
                         rule="BB1")
    if sheet.has_doubles or sheet.lock_cells != 1 or sheet.faces != 6:
        raise ParseError(f"layout {sheet.name}: {what} plays single cells, one lock "
                         f"number and 6-sided dice", rule="BB1")
    variant = Variant(dataclasses.replace(sheet, symbols=()))  # (the geometry only)
    return variant, Layout.of(variant)


def symbol_cells(sheet: SheetLayout, count: int) -> tuple[IntArray, IntArray]:
    """``(sym_row, sym_pos)``: the cells of the first ``count`` symbols of ``sheet``
    (:data:`qwixx_math.layouts.SYMBOL_NAMES` order), ``[symbol, cell]``."""
    return (np.array([[r for r, _ in sheet.symbols[k]] for k in range(count)],
                     dtype=np.int64),
            np.array([[p for _, p in sheet.symbols[k]] for k in range(count)],
                     dtype=np.int64))


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
