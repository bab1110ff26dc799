"""Qwixx Bonus, pad B: the moves of the exact solver (:mod:`.bonus_b`): every plan of a
configuration with the circle's and diamond's forced crosses, depth-first (BB1-BB3, BB7,
V4), on the solver's row codes (issue 34; research/NOTEBOOK.md, "Bonus B solved exactly").

The default Options are played (``bb_fewest_candidates = open_with_next_cell``,
``bb_diamond_order = colour_order``) and the R15 Option as given.  :func:`plan_list` lists
every plan with the position it leads to and the symbols' bits after it (a symbol's bit:
not dead, and not yet active unless the caller's ``keep`` holds it); the research solvers
of the proved bounds (research/bonus_b_bound.py) and the exact solver share it.

(numba compiles these kernels; their on-disk cache is keyed on this module's source too,
:func:`qwixx_math.jit.sources_digest`.)
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from ..jit import jit
from ..layouts import SheetLayout

__all__ = ["AFTER", "CIRCLE", "DIAMOND", "DIE", "KEEP", "KIND", "NUMBER", "OCTAGON", "ROW",
           "SQUARE", "STAR", "SUM", "decode", "frontier_index", "pack", "plan_list",
           "plan_scratch", "sides", "status_bits", "symbol_cells", "unpack"]

IntArray = npt.NDArray[np.int64]

#: The symbols, in :data:`qwixx_math.layouts.SYMBOL_NAMES` order (the first two force
#: crosses).
CIRCLE, DIAMOND, SQUARE, OCTAGON, STAR = 0, 1, 2, 3, 4
#: The symbols whose bit stays set when they activate (active is not dead for them).
KEEP = 1 << SQUARE | 1 << STAR

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

def symbol_cells(sheet: SheetLayout, count: int) -> tuple[IntArray, IntArray]:
    """``(sym_row, sym_pos)``: the cells of the first ``count`` symbols of ``sheet``
    (:data:`qwixx_math.layouts.SYMBOL_NAMES` order), ``[symbol, cell]``."""
    return (np.array([[r for r, _ in sheet.symbols[k]] for k in range(count)],
                     dtype=np.int64),
            np.array([[p for _, p in sheet.symbols[k]] for k in range(count)],
                     dtype=np.int64))


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


def frontier_index(rows: int, length: int, boxes: int, masks: tuple[int, ...],
                   code_last: IntArray, code_marks: IntArray, sym_row: IntArray,
                   sym_pos: IntArray, n_counts: int
                   ) -> tuple[IntArray, IntArray, IntArray, int]:
    """Where the exact solver's values live (:mod:`.bonus_b`'s index) on a pad of ``rows``
    rows of ``length`` cells and ``boxes`` penalty boxes, its running tables ``masks``
    (closed-row sets), its row codes ``code_last``/``code_marks``:
    ``(offsets, cstrides, cidx, size)``, ``offsets[mask, key]`` the first value of the
    frontier vector ``key`` (digit r, base ``length``: row r's last position + 1, 0 for a
    closed row) of table ``mask`` (-1: none), ``cstrides[mask, key, r]`` the stride of row
    r's count index ``cidx[code]`` (count - 1; 0 for the empty row) in that block."""
    m = rows
    keys = length ** m
    offsets = np.full((1 << m, keys), -1, dtype=np.int64)
    cstrides = np.zeros((1 << m, keys, m), dtype=np.int64)
    cidx = np.array([max(int(c) - 1, 0) if int(last) >= 0 else 0
                     for last, c in zip(code_last, code_marks, strict=True)],
                    dtype=np.int64)
    size = 0
    front = np.zeros(m, dtype=np.int64)
    for mask in masks:
        open_rows = [r for r in range(m) if not mask >> r & 1]
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


