"""The bonus bar of Qwixx Bonus, pad A, in the solver (VARIANTS.md §2, BA1-BA8).

**The lane.**  The bar is one number per state, ``b`` = 0 .. 12: the fields up to the
last one taken (``Sheet.bar_taken.bit_length()``).  Every field left of ``b`` is taken
or void, and a field at or right of ``b`` is void exactly when its colour is closed
(BA6), so ``b`` and the closed rows give the next free field: the first field at or
right of ``b`` of an open colour.  The solver stores it as a lane
(:mod:`qwixx_math.solver.layout`): lane ``b * P + p`` for ``p`` penalties.

**What the kernel does with it.**  A mark on a cell that is not boxed leaves ``b`` where
it is, so the kernel's usual gather (:func:`qwixx_math.solver.kernel._gather`) serves
every plan whose crosses are on plain cells, lane by lane.  A plan with a cross on a
boxed cell (action 1 or action 2) sets off a chain of forced crosses (BA1-BA3) that
depends on ``b`` and may touch every row and close some (BA4): the gather leaves those
plans out (``step_shift`` of a boxed cell is the number of lanes, which sends it past
the last lane) and :func:`bar_plans` plays them here, chain and all, on the whole sheet,
for every lane of the configuration.  Action 1's chain sees the rows closed when the
turn began as closed, and a row it closes itself stays open but gives no next cell, so
a field of that colour is taken and its cross lapses (V5, BA6); action 2's chain sees a
row it closes as closed at once, its fields void and skipped.

**Work shared** (most of Bonus A's solve is here).  Per configuration the boxed cells it
can cross are listed once; per lane each one's chain is played once, as action 2 alone,
and kept: action 2 on that cell after action 1 on a plain cell of another row that the
chain never reaches is the same chain plus that cross, one addition to its look-up.  The
pair in the other order (action 1 on the boxed cell, action 2 on the plain one) then
leads to the same sheet and shares the look-up.  The look-ups of a lane are queued and
loaded together.

**The lanes a configuration can hold.**  With every row open no field is void, so ``b``
is the number of boxed cells crossed: between the fewest and the most boxed cells an
open row at its code can hold (:func:`bar_geometry`, summed over the rows, as the step
totals of Qwixx Connected).  Once a row is closed a field may be void, so ``b`` may pass
that sum.  Every taken field of an open colour forced a cross in its row, so a row's
crosses bound ``b`` from above, and while a field of an open colour is left no boxed
cross found the bar used up, which bounds it from below (:func:`bar_lanes`): Bonus A's
solve skips about half of the lanes so (no game reaches them; their values are -inf).

(numba compiles :func:`bar_plans` into the kernel's ``solve_batch``; the on-disk cache
of compiled kernels is keyed on this module's source too, :func:`qwixx_math.jit.sources_digest`.)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..jit import jit
from ..model import PENALTY_POINTS
from .variant import Variant

__all__ = ["bar_arrays", "bar_geometry", "bar_lanes", "bar_plans", "bar_scratch", "chain",
           "where_after"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Points lost per penalty box (R17), as the float the kernel computes with.
PENALTY = float(PENALTY_POINTS)


def bar_geometry(variant: Variant, n_codes: int, lanes: int
                 ) -> tuple[IntArray, IntArray, IntArray]:
    """``(lo, hi, excluded)`` for a sheet with a bonus bar: ``lo[row, code]`` and
    ``hi[row, code]`` the fewest and most boxed cells an open row at ``code`` holds (the
    empty row: 0), ``excluded[row, q]`` = ``lanes`` on a boxed cell, else 0 (the kernel's
    ``step_shift``: the usual gather leaves a boxed cell's plans to :func:`bar_plans`)."""
    from ..keys import decode_open_code  # (the solver's row codes: one cross per cell)

    m, length = variant.rows, variant.row_length
    box = [[int(variant.is_boxed_at(r, q)) for q in range(length)] for r in range(m)]
    lo = np.zeros((m, n_codes), dtype=np.int64)
    hi = np.zeros((m, n_codes), dtype=np.int64)
    for r in range(m):
        for code in range(1, n_codes):
            last, marks = decode_open_code(code)
            assert last is not None
            before = sum(box[r][:last])  # boxed cells left of the last mark
            others = marks - 1  # marks left of the last mark
            lo[r, code] = box[r][last] + max(0, others - (last - before))
            hi[r, code] = box[r][last] + min(others, before)
    excluded = np.array(box, dtype=np.int64).reshape(m, length) * lanes
    return lo, hi, excluded


def bar_arrays(variant: Variant) -> tuple[IntArray, IntArray]:
    """``(bar, boxed)``, the kernel's view of the bar: each field's row, left to right,
    and ``boxed[row, q]`` = 1 on a boxed cell (both empty on a sheet without a bar)."""
    if not variant.has_bar:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.int64)
    boxed = [[int(variant.is_boxed_at(r, q)) for q in range(variant.row_length)]
             for r in range(variant.rows)]
    return (np.array(variant.bar_rows, dtype=np.int64),
            np.array(boxed, dtype=np.int64).reshape(variant.rows, variant.row_length))


@jit()
def bar_lanes(lo: int, hi: int, mask: int, open_rows: IntArray, codes: IntArray,
              code_last: IntArray, code_marks: IntArray, last_q: int, bar: IntArray
              ) -> tuple[int, int]:
    """The bar lanes ``lo`` .. ``hi`` (inclusive) a configuration can hold, narrowed to
    those some game reaches: ``lo``/``hi`` the kernel's bounds (with every row open the
    fewest and most boxed cells the rows hold, :func:`bar_geometry`; ``lo`` the same sum
    over the open rows of a table with closed rows ``mask``), ``codes`` the open rows'.

    **Forced crosses** (BA1, BA2).  A field of an open colour is never void (BA6: only a
    closed colour's fields are), so every such field left of lane ``b`` was taken, and
    taking it forced a cross on the next cell of its row, a new cross (its row was open
    then too); the cross lapses only when that next cell is the lock number and the row
    lacks the crosses to lock (R8), that is when the row's last cross is on the cell
    before the lock number.  So an open row whose last cross is further left (or that
    has none) holds at least one cross per field of its colour left of ``b``, and one
    more when its crosses are not its first cells (a forced cross takes the cell right
    of the last one, so a cross that left a cell free was a voluntary one): ``b`` is at
    most the position of its colour's field number ``forced + 1``, ``forced`` the crosses
    that may have been forced (no bound when its colour has no more fields).

    **Every boxed cross took a field** while a non-void field was left (BA1, BA5).  With
    rows closed, while some field of an open colour lies at or right of ``b``, no boxed
    cross ever found the bar used up (that field was free then), so each took a field
    left of ``b``: ``b`` is at least the boxed cells the open rows hold (``lo``), unless
    ``b`` is past the last field of an open colour.

    The lanes outside stay -inf, as those outside ``lo`` .. ``hi`` always did: a plan
    from a state a game reaches leads to one a game reaches, so none is read
    (``tests/test_solver_bonus_a.py`` checks every state reached through the rules core
    on small pads is solved)."""
    for t in range(open_rows.shape[0]):
        r = open_rows[t]
        c = codes[r]
        if code_last[c] + 1 >= last_q:
            continue  # a forced cross may have lapsed (R8)
        crosses = code_marks[c]
        if code_last[c] >= crosses:
            crosses -= 1  # a cell left free: one cross was voluntary
        for f in range(bar.shape[0]):
            if bar[f] == r:
                if crosses == 0:
                    hi = min(hi, f)
                    break
                crosses -= 1
    if mask != 0:
        last_open = -1
        for f in range(bar.shape[0]):
            if not mask >> bar[f] & 1:
                last_open = f
        lo = min(lo, last_open + 1)
    return lo, hi


@jit(inline=True)
def chain(codes: IntArray, marks: IntArray, shut: int, b: int, row: int, q: int,
          blocked: int, immediate: bool, bar: IntArray, boxed: IntArray, last_q: int,
          threshold: int, next_code: IntArray, code_marks: IntArray, code_last: IntArray
          ) -> tuple[int, int]:
    """Cross position ``q`` of ``row`` (legal) and every forced cross it causes (BA1-BA4),
    in place on the rows' ``codes`` and ``marks`` (a closed row's marks count its lock).

    ``shut``: the rows closed earlier this turn (bits); ``b`` the bar lane; ``blocked``
    the rows closed for this action (action 1: those closed when the turn began; action
    2: also those closed in action 1), whose untaken fields are void; ``immediate``
    (action 2): a row this chain closes is closed at once, its fields void (BA6).
    Returns ``(shut, b)`` after the chain."""
    n_fields = bar.shape[0]
    while True:
        if q >= last_q:  # the lock number: the cross and the lock box (R8, R9, BA4)
            marks[row] += 2
            shut |= 1 << row
        else:
            codes[row] = next_code[row, codes[row], q]
            marks[row] = code_marks[codes[row]]
        if boxed[row, q] == 0:
            return shut, b
        void = blocked | shut if immediate else blocked
        f = b
        while f < n_fields and void >> bar[f] & 1:
            f += 1  # void fields are skipped (BA6)
        if f == n_fields:
            return shut, b  # BA5: no field left
        b = f + 1  # BA1: the field is taken
        t = bar[f]
        if (blocked | shut) >> t & 1:
            return shut, b  # BA2: a closed row has no next cell; the cross lapses
        nxt = code_last[codes[t]] + 1
        if nxt >= last_q and marks[t] < threshold:
            return shut, b  # R8: the lock needs more crosses; the cross lapses
        row, q = t, nxt  # BA2, BA3: the next cell, and on if it is boxed


@jit(inline=True)
def _where(offsets: IntArray, strides: IntArray, points: FloatArray, boxes: int, mask: int,
           open_rows: IntArray, codes: IntArray, marks: IntArray, shut: int, b: int
           ) -> tuple[int, float]:
    """``(index, points)`` of the position after a turn that leaves the open rows of table
    ``mask`` at ``codes``/``marks``, the rows ``shut`` closed and the bar at lane ``b``:
    its value with x penalties is ``points + data[index + x]`` (the points of the rows the
    turn closed, plus the table value); index -1 when the game is over (R14), whose
    score is ``points - 5x``."""
    new_mask = mask | shut
    total = 0.0
    if offsets[new_mask] < 0:
        for t in range(open_rows.shape[0]):
            total += points[marks[open_rows[t]]]
        return -1, total
    idx = offsets[new_mask] + b * boxes
    for t in range(open_rows.shape[0]):
        r = open_rows[t]
        if shut >> r & 1:
            total += points[marks[r]]
        else:
            idx += strides[new_mask, r] * codes[r]
    return idx, total


#: :func:`_where` under a public name, for other kernels whose lane is one number per
#: state too (research/bonus_b_bound.py: the circle's and diamond's live bits).
where_after = _where


@jit()
def bar_scratch(rows: int, open_rows: int, length: int, boxes: int
                ) -> tuple[IntArray, IntArray, FloatArray]:
    """Scratch space for :func:`bar_plans` (``work``, ``queue``, ``values``): room for
    every plan of one lane, action 1 alone and action 1 then action 2."""
    cap = open_rows * length * (open_rows * length + 2)
    return (np.zeros(6 * rows + 4 * rows * length, dtype=np.int64),
            np.zeros((4, cap), dtype=np.int64),
            np.zeros(cap * (boxes + 1)))


@jit()
def bar_plans(data: FloatArray, offsets: IntArray, strides: IntArray, code_last: IntArray,
              code_marks: IntArray, next_code: IntArray, number_at: IntArray,
              dcell: IntArray, points: FloatArray, length: int, threshold: int,
              boxes: int, a2_after_end: bool, mask: int, open_rows: IntArray,
              codes: IntArray, one: FloatArray, m2: FloatArray, lane_lo: int, lane_hi: int,
              n_sums: int, bar: IntArray, boxed: IntArray, work: IntArray,
              queue: IntArray, values: FloatArray) -> None:
    """Add the plans with a cross on a boxed cell to ``one`` and ``m2`` (solitaire; laid
    out as :func:`qwixx_math.solver.kernel._gather` says), in the lanes ``lane_lo`` ..
    ``lane_hi`` (whole bar lanes of ``boxes`` penalty counts), for the configuration
    ``codes`` of table ``mask``: action 1 alone on a boxed cell (``one``), action 2
    alone on one (``m2``, every white sum), and action 1 then action 2 when either is
    on a boxed cell (``m2``).  ``work``, ``queue``, ``values``: scratch
    (:func:`bar_scratch`)."""
    k = open_rows.shape[0]
    m = codes.shape[0]
    last_q = length - 1
    one_stride = k * n_sums
    codes1 = work[0:m]
    marks1 = work[m:2 * m]
    codes2 = work[2 * m:3 * m]
    marks2 = work[3 * m:4 * m]
    marks0 = work[4 * m:5 * m]
    # per boxed cell (row j, position q), from ``codes`` in this lane: the look-up of
    # its chain, -1 when the chain closes a row or the game ends (the slow way then),
    # and the rows the chain crossed (bits)
    al_index = work[6 * m:6 * m + m * length]
    al_rows = work[6 * m + m * length:6 * m + 2 * m * length]
    # the boxed cells this configuration can cross (row, position), in every lane
    bx_row = work[6 * m + 2 * m * length:6 * m + 3 * m * length]
    bx_pos = work[6 * m + 3 * m * length:6 * m + 4 * m * length]
    n_bx = 0
    for jj in range(k):
        j = open_rows[jj]
        for q in range(code_last[codes[j]] + 1, length):
            if boxed[j, q] != 0:
                bx_row[n_bx] = j
                bx_pos[n_bx] = q
                n_bx += 1
    for t in range(k):
        marks0[open_rows[t]] = code_marks[codes[open_rows[t]]]
    # the look-ups of one lane's plans are listed first and loaded together (independent
    # loads: the memory system serves many at once), then the maxima are taken
    cap = queue.shape[1]
    q_index = queue[0]
    q_cell = queue[1]
    q_in_one = queue[2]
    q_cell2 = queue[3]  # a second m2 cell the same value competes for (-1: none)
    q_points = values[:cap]
    q_values = values[cap:]
    m2_lane = n_sums * one_stride  # one lane's slice of m2
    for b0 in range(lane_lo // boxes, (lane_hi + boxes - 1) // boxes):
        lane = b0 * boxes
        n_q = 0
        # action 2 alone on a boxed cell, whatever the white sum; and the chain of every
        # boxed cell, kept: action 2 on a boxed cell after an action 1 on a plain cell of
        # another row that this chain never reaches is this chain plus that cross
        for e in range(n_bx):
            j = bx_row[e]
            q = bx_pos[e]
            for t in range(k):
                codes2[open_rows[t]] = codes[open_rows[t]]
                marks2[open_rows[t]] = marks0[open_rows[t]]
            shut2, b2 = chain(codes2, marks2, 0, b0, j, q, mask, True, bar, boxed,
                              last_q, threshold, next_code, code_marks, code_last)
            crossed = 0
            for t in range(k):
                if codes2[open_rows[t]] != codes[open_rows[t]]:
                    crossed |= 1 << open_rows[t]
            idx, total = _where(offsets, strides, points, boxes, mask, open_rows,
                                codes2, marks2, shut2, b2)
            al_rows[j * length + q] = crossed
            al_index[j * length + q] = idx if shut2 == 0 else -1
            d = dcell[j, q]
            if d < 0 or (q >= last_q and marks0[j] < threshold):
                continue  # R9, R8
            q_index[n_q] = idx
            q_points[n_q] = total
            q_cell[n_q] = lane * n_sums * one_stride + d * n_sums + number_at[j, q] - 2
            q_in_one[n_q] = 2  # every white sum
            q_cell2[n_q] = -1
            n_q += 1
        # action 1 in row i at position a, then maybe action 2
        for ii in range(k):
            i = open_rows[ii]
            for a in range(code_last[codes[i]] + 1, length):
                if a >= last_q and marks0[i] < threshold:
                    continue  # R8
                for t in range(k):
                    codes1[open_rows[t]] = codes[open_rows[t]]
                    marks1[open_rows[t]] = marks0[open_rows[t]]
                shut1, b1 = chain(codes1, marks1, 0, b0, i, a, mask, False, bar, boxed,
                                  last_q, threshold, next_code, code_marks, code_last)
                on_box = boxed[i, a] != 0
                s = number_at[i, a] - 2
                if on_box:  # action 1 alone
                    q_index[n_q], q_points[n_q] = _where(
                        offsets, strides, points, boxes, mask, open_rows, codes1, marks1,
                        shut1, b1)
                    q_cell[n_q] = lane * one_stride + ii * n_sums + s
                    q_in_one[n_q] = 1
                    q_cell2[n_q] = -1
                    n_q += 1
                closed1 = mask | shut1
                if offsets[closed1] < 0 and not a2_after_end:
                    continue  # R15: the game ended in action 1
                # (after a plain cell only the boxed ones: the rest is the kernel's own
                # gather; the same order as every open cell, boxed or not)
                for e2 in range(k * length if on_box else n_bx):
                    if on_box:
                        jj = e2 // length
                        j = open_rows[jj]
                        q = e2 % length
                    else:
                        j = bx_row[e2]
                        q = bx_pos[e2]
                    if closed1 >> j & 1 or q <= code_last[codes1[j]]:
                        continue
                    if q >= last_q and marks1[j] < threshold:
                        continue  # R8
                    d = dcell[j, q]
                    if d < 0 or closed1 >> open_rows[d] & 1:
                        continue  # R9: the die left play with its row
                    # the same plan in the other order, listed below with the
                    # action 2 in row i at a: see the note there
                    if (on_box and j != i and not boxed[j, q] and q < last_q - 1
                            and shut1 == 0 and codes1[j] == codes[j]
                            and dcell[i, a] >= 0):
                        continue
                    cell = (lane * n_sums * one_stride
                            + (s * k + d) * n_sums + number_at[j, q] - 2)
                    if not on_box and j != i and a < last_q - 1:
                        fast = al_index[j * length + q]
                        if fast >= 0 and not al_rows[j * length + q] >> i & 1:
                            # this chain as action 2 alone plays it, plus (i, a): see
                            # the note below
                            q_index[n_q] = fast + strides[mask, i] * (codes1[i] - codes[i])
                            q_points[n_q] = 0.0
                            q_cell[n_q] = cell
                            q_in_one[n_q] = 0
                            q_cell2[n_q] = -1
                            if dcell[i, a] >= 0:
                                q_cell2[n_q] = (lane * n_sums * one_stride
                                                + ((number_at[j, q] - 2) * k
                                                   + dcell[i, a]) * n_sums + s)
                            n_q += 1
                            continue
                    for t in range(k):
                        codes2[open_rows[t]] = codes1[open_rows[t]]
                        marks2[open_rows[t]] = marks1[open_rows[t]]
                    shut2, b2 = chain(codes2, marks2, shut1, b1, j, q, closed1, True,
                                      bar, boxed, last_q, threshold, next_code,
                                      code_marks, code_last)
                    q_index[n_q], q_points[n_q] = _where(
                        offsets, strides, points, boxes, mask, open_rows, codes2,
                        marks2, shut2, b2)
                    q_cell[n_q] = cell
                    q_in_one[n_q] = 0
                    q_cell2[n_q] = -1
                    # action 1 on the plain cell (i, a), then action 2 on the boxed
                    # (j, q) of another row, is also the plan in the other order
                    # when the chain from (j, q) never reaches row i and closes
                    # nothing: it takes the same path either way (it reads only
                    # the rows it reaches), so the sheets are the same.  With
                    # ``a`` before the last number but one, a chain that reaches
                    # row i crosses it (its next cell is no lock number), so
                    # "row i unchanged" is "not reached" in both orders.
                    if (not on_box and j != i and a < last_q - 1 and shut2 == 0
                            and codes2[i] == codes1[i] and dcell[i, a] >= 0):
                        q_cell2[n_q] = (lane * n_sums * one_stride
                                        + ((number_at[j, q] - 2) * k + dcell[i, a])
                                        * n_sums + s)
                    n_q += 1
        for e in range(n_q):
            idx = q_index[e]
            for x in range(boxes):
                q_values[np.uintp(e * boxes + x)] = (
                    q_points[e] + data[np.uintp(idx + x)] if idx >= 0
                    else q_points[e] - PENALTY * x)
        for e in range(n_q):
            cell = q_cell[e]
            step = one_stride if q_in_one[e] == 1 else m2_lane
            for x in range(boxes):
                c = np.uintp(cell + x * step)
                v = q_values[np.uintp(e * boxes + x)]
                if q_in_one[e] == 2:  # action 2 alone: every white sum
                    for s in range(n_sums):
                        c2 = np.uintp(cell + x * step + s * one_stride)
                        m2[c2] = max(m2[c2], v)
                elif q_in_one[e] == 1:
                    one[c] = max(one[c], v)
                else:
                    m2[c] = max(m2[c], v)
                    if q_cell2[e] >= 0:
                        c = np.uintp(q_cell2[e] + x * step)
                        m2[c] = max(m2[c], v)
