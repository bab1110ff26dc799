"""The solver kernel: one Bellman update per configuration, compiled with numba.

This is the only implementation of the fast solver's arithmetic (the naive
solver in :mod:`.naive` is a separate plain-Python reference).  For one row
configuration (the codes of the open rows of table ``mask``) it computes the
value for every penalty count at once, in three steps (docs/solver.md):

1. **Gather** (look-ups, the memory-bound part), :func:`_gather`.
   ``one[p, j, n]``: the value after marking number n in open row j only.
   ``m2[p, S, j, n]``: the best value after action 1 at white sum S (in any
   row, or none) and then number n as action 2 with die j, in a cell of die j's
   colour (on the official sheet: in row j; on Qwixx Mixx A in whichever row
   has that cell; a row closed in action 1 takes its die out of play, R9, and
   its cells too).  Both depend on the
   sums only, not on the individual dice, so they are gathered once per
   configuration (R7, R8 with the action-1 mark counted, R9 and R15 apply here).
2. **Expected maximum** per white pair (w1 <= w2, weight 1 or 2 of 36),
   :func:`_turn_values`.  With ``b`` the best of the penalty and every
   action-1-only plan, the turn's value is ``E[max(b, Y_1(c_1), ..., Y_k(c_k))]``
   where ``Y_j(c)`` is the best use of colour die j showing c (either white,
   any action 1).  The dice are independent, so with the faces that beat ``b``
   sorted, ``E[max] = sum t * (G(t) - G(t-))``, ``G(t) = prod_j #{c: Z_j(c) <= t} / 6``:
   a merge of at most 6k values, not 6^k outcomes.
3. **Scatter** the values to every image of the configuration under the
   table's symmetry group, so that look-ups never canonicalise.

**The table model** (``players`` = N > 1, docs/table.md): between two of this
player's own rolls the other N - 1 players roll, and on each of those rolls this
player may mark the white sum in one row or pass, at no cost; the others never
close a row or take a penalty.  Every configuration has N values per penalty count
(level L: L other players' rolls before this player's own), each level a copy of
the solitaire layout (level L at ``L * level_size``), so that the own turn's
look-ups, all in level N - 1, are as local as in solitaire.  Level 0 is the
Bellman step above, reading level N - 1 of what it leads to; level L >= 1 is
``E over the white sum of max(pass: level L - 1 here, a mark: level L - 1 there)``,
computed right after level 0 of the same penalty count (cheap beside it: the
one-mark values of every level come from the same gather).  N = 1 is solitaire.

Table values exclude closed rows (``W_C`` of :mod:`qwixx_math.solver.layout`);
a row that closes during the turn adds its points and continues in the table
of the larger closed set, or ends the game (that set's offset is -1).

:func:`solve_batch` solves a slice of a batch of independent configurations
without the GIL, so the engine runs slices on every core from Python threads.
(numba's ``parallel=True`` would do the same, but compiling it costs about 13 s
more on the first run; threads cost nothing to compile.)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..jit import jit
from ..model import PENALTY_POINTS
from .bar import bar_lanes, bar_plans, bar_scratch

__all__ = [
    "canonical_items",
    "count_products",
    "derive_table",
    "expected_max",
    "level_items",
    "solve_batch",
    "turn_values",
]


IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Numbers 2..12 index the action-1 white sum.
N_SUMS = 11
#: Points lost per penalty box (R17), as the float the kernel computes with.
PENALTY = float(PENALTY_POINTS)


@jit()
def _after_value(
    out: FloatArray,
    data: FloatArray,
    offsets: IntArray,
    strides: IntArray,
    points: FloatArray,
    penalties: int,
    roff: int,
    new_mask: int,
    open_rows: IntArray,
    acodes: IntArray,
    amarks: IntArray,
    boxes: int,
    shift: int,
    step_points: FloatArray,
) -> None:
    """``out[x]``: W of the current table's rows after a turn that closed at least one row,
    for every lane x (``penalties`` lanes: step total ``x // boxes``, penalty count
    ``x % boxes``; one lane per penalty count on a sheet without steps).

    ``acodes``/``amarks`` hold every row's code and marks after the turn; the rows
    of ``new_mask`` that are open in the current table were closed this turn.
    ``roff`` selects the level read (``L * level_size``: the values when ``L``
    other players roll before this player's next own roll).  ``shift``: the lanes the
    turn's marks moved by (``boxes`` per step cell crossed); lanes past the last step
    total are -inf (no state reaches them).  ``step_points[s]`` = T(s) (CS2).  A
    ``shift`` of every lane (a boxed cell's, :mod:`.bar`) leaves every lane -inf.
    """
    if shift >= penalties:  # a plan the kernel leaves to another pass (:mod:`.bar`)
        for x in range(penalties):
            out[x] = -np.inf
        return
    if offsets[new_mask] < 0:  # enough rows closed: the game is over
        total = 0.0
        for t in range(open_rows.shape[0]):
            total += points[amarks[open_rows[t]]]
        for x in range(penalties):
            out[x] = total + step_points[(x + shift) // boxes] - PENALTY * (x % boxes)
        return
    total = 0.0
    idx = offsets[new_mask]
    for t in range(open_rows.shape[0]):
        r = open_rows[t]
        if new_mask >> r & 1:
            total += points[amarks[r]]
        else:
            idx += strides[new_mask, r] * acodes[r]
    idx += roff + shift
    for x in range(penalties - shift):
        out[x] = total + data[idx + x]
    for x in range(max(0, penalties - shift), penalties):
        out[x] = -np.inf


@jit()
def _max_into(m2: FloatArray, target: int, stride: int, source: FloatArray) -> None:
    """``m2[target + p * stride] = max(that, source[p])`` for every p."""
    for p in range(source.shape[0]):
        m2[target + p * stride] = max(m2[target + p * stride], source[p])


@jit()
def _gather(
    data: FloatArray,
    offsets: IntArray,
    strides: IntArray,
    code_last: IntArray,
    code_marks: IntArray,
    next_code: IntArray,
    number_at: IntArray,
    dcell: IntArray,
    identity: bool,
    points: FloatArray,
    length: int,
    threshold: int,
    penalties: int,
    players: int,
    level_size: int,
    a2_after_end: bool,
    mask: int,
    open_rows: IntArray,
    codes: IntArray,
    base: int,
    one: FloatArray,
    m2: FloatArray,
    acodes: IntArray,
    amarks: IntArray,
    tmp: FloatArray,
    lk_index: IntArray,
    lk_target: IntArray,
    lk_values: FloatArray,
    lk_shift: IntArray,
    boxes: int,
    step_shift: IntArray,
    step_points: FloatArray,
    lane_lo: int,
    lane_hi: int,
    n_sums: int,
    lock_cells: int,
    exchange: IntArray,
    spend: bool,
    a1x: FloatArray,
) -> None:
    """Step 1: fill ``one`` and ``m2`` for the configuration ``codes`` (at flat index ``base``).

    Both are flat with the penalty count outermost and numbers indexed by n - 2:
    ``one[((L * P + p) * k + j) * N_SUMS + n]`` is the value at level L after
    marking number n in open row j only (-inf if illegal), for every level
    L < ``players``; ``m2[((p * N_SUMS + S) * k + j) * N_SUMS + n]`` is
    the best value after action 1 at white sum S (in any row, or none) and then
    action 2 with die j at number n (in any open row whose cell showing n has die
    j's colour: ``dcell[r, q]`` is the open index of the die of row r's cell q, -1
    when that die is out of play; ``identity`` says every cell has its own row's
    die, as on the official sheet).  ``lk_*`` are scratch space for the look-up list.
    ``next_code[r, c, q]`` is row r's code after marking position q from code c (on a
    sheet with double cells the count is in crosses, DB1, so it depends on the row).
    ``penalties`` is the number of **lanes** (penalty counts times step totals,
    :mod:`qwixx_math.solver.layout`); a mark at row r's cell q reads the lanes
    ``step_shift[r, q]`` further on (``boxes`` for a step cell, CS2), and the lanes that
    would pass the last step total stay -inf (no state reaches them).  Only the lanes
    ``lane_lo <= p < lane_hi`` (the step totals the configuration can hold) are gathered;
    the others of ``one`` and ``m2`` are left undefined (:func:`_turn_values` reads none).
    ``n_sums`` is the number of sums (11; 15 with 8-sided dice, LG1) and ``lock_cells``
    the lock numbers ending every row (1; 2 on Longo, LG2): positions ``last_q =
    length - lock_cells`` and up close the row, any of them (a row closes once).
    ``exchange`` (one line per X-Change field: its pair; none on a sheet without a
    track) adds the exchanges of action 1 (XC1, XC2) to ``m2`` and to ``a1x``
    (:func:`_exchange`); ``spend``: the Option ``xc_field_without_cross`` (XC4).
    """
    N_SUMS = n_sums
    defer = exchange.shape[0] > 0  # action 2 alone joins m2 after the exchanges
    k = open_rows.shape[0]
    P = penalties
    last_q = length - lock_cells  # the first lock number's position
    one_stride = k * N_SUMS  # one penalty count's slice of ``one``
    level_stride = P * one_stride  # and one level's
    m2_stride = N_SUMS * k * N_SUMS  # one penalty count's slice of ``m2``
    ra = (players - 1) * level_size  # an own turn leads to players - 1 rolls by the others
    for t in range(k):
        r = open_rows[t]
        acodes[r] = codes[r]
        amarks[r] = code_marks[codes[r]]
    for level in range(players):
        for x in range(level * level_stride + lane_lo * one_stride,
                       level * level_stride + lane_hi * one_stride):
            one[np.uintp(x)] = -np.inf
    for x in range(lane_lo * m2_stride, lane_hi * m2_stride):
        m2[np.uintp(x)] = -np.inf

    # --- one mark (action 1 only, action 2 only, or a passive player's white sum),
    # read at every level L: the own turn uses level players - 1, the other
    # players' roll before level L + 1 uses level L.  When die j marks row j only
    # (``identity``: the official sheet, Mixx B), action 2 alone in row j is the same
    # plan whatever the white sum, so the own turn's values go into m2 for every sum
    # right here, value by value (copying ``one`` into m2 afterwards, in wide loads of
    # values just stored one by one, waited on those stores: a third of the gather).
    for level in range(players):
        roff = level * level_size
        lbase = level * level_stride
        spread = identity and level == players - 1 and not defer
        for jj in range(k):
            j = open_rows[jj]
            cj = codes[j]
            nj = code_marks[cj]
            sj = strides[mask, j]
            for q in range(code_last[cj] + 1, last_q):
                sh = step_shift[np.uintp(j), np.uintp(q)]
                idx = (base + sj * (next_code[np.uintp(j), np.uintp(cj), np.uintp(q)] - cj)
                       + roff + sh)
                col = jj * N_SUMS + number_at[np.uintp(j), np.uintp(q)] - 2
                for p in range(lane_lo, min(lane_hi, P - sh)):
                    v = data[np.uintp(idx + p)]
                    one[np.uintp(lbase + col + p * one_stride)] = v
                    if spread:
                        for s in range(N_SUMS):
                            m2[np.uintp((p * N_SUMS + s) * one_stride + col)] = v
            if nj >= threshold:  # R8: a lock number closes the row (either of two, LG2)
                amarks[j] = nj + 2
                done = -1  # the step shift ``tmp`` holds the values of
                for lq in range(last_q, length):
                    if step_shift[j, lq] != done:
                        done = step_shift[j, lq]
                        _after_value(tmp, data, offsets, strides, points, P, roff,
                                     mask | (1 << j), open_rows, acodes, amarks, boxes,
                                     done, step_points)
                    col = jj * N_SUMS + number_at[j, lq] - 2
                    for p in range(lane_lo, lane_hi):
                        one[lbase + col + p * one_stride] = tmp[p]
                        if spread:
                            for s in range(N_SUMS):
                                m2[np.uintp((p * N_SUMS + s) * one_stride + col)] = tmp[p]
                amarks[j] = nj

    # action 2 alone is available whatever the white sum
    active = (players - 1) * level_stride
    if not identity and not defer:  # die d marks the cells of its colour, in any row
        for p in range(lane_lo, lane_hi):
            for s in range(N_SUMS):
                _action2_alone(m2, (p * N_SUMS + s) * one_stride, one,
                               active + p * one_stride, open_rows, dcell, number_at,
                               length, N_SUMS)

    # --- two marks that close nothing.  First the list of look-ups (index, and the
    # two m2 cells the value competes for), then all loads, then the maxima: the
    # loads are independent, so the memory system can serve many at once.
    n_lk = 0
    for ii in range(k):
        i = open_rows[ii]
        ci = codes[i]
        si = strides[mask, i]
        for a in range(code_last[ci] + 1, last_q):
            na = number_at[i, a] - 2
            c1 = next_code[i, ci, a]
            bi = base + si * (c1 - ci)
            da = dcell[i, a]
            # same row: action 2 right of the action-1 mark (R7); one cell, listed twice
            ui = np.uintp(i)
            uc1 = np.uintp(c1)
            for q in range(a + 1, last_q):
                uq = np.uintp(q)
                dq = dcell[ui, uq]
                if dq < 0:
                    continue
                lk_index[np.uintp(n_lk)] = base + si * (next_code[ui, uc1, uq] - ci)
                lk_shift[np.uintp(n_lk)] = step_shift[ui, np.uintp(a)] + step_shift[ui, uq]
                cell = (na * k + dq) * N_SUMS + number_at[ui, uq] - 2
                lk_target[np.uintp(2 * n_lk)] = cell
                lk_target[np.uintp(2 * n_lk + 1)] = cell
                n_lk += 1
            # rows i < j: the state serves action 1 in i then 2 in j, and 1 in j then 2 in i
            for jj in range(ii + 1, k):
                j = open_rows[jj]
                cj = codes[j]
                sj = strides[mask, j]
                uj = np.uintp(j)
                ucj = np.uintp(cj)
                for q in range(code_last[cj] + 1, last_q):
                    uq = np.uintp(q)
                    dq = dcell[uj, uq]
                    if dq < 0 and da < 0:
                        continue
                    nq = number_at[uj, uq] - 2
                    t1 = (na * k + dq) * N_SUMS + nq
                    t2 = (nq * k + da) * N_SUMS + na
                    lk_index[np.uintp(n_lk)] = bi + sj * (next_code[uj, ucj, uq] - cj)
                    lk_shift[np.uintp(n_lk)] = step_shift[ui, np.uintp(a)] + step_shift[uj, uq]
                    lk_target[np.uintp(2 * n_lk)] = t1 if dq >= 0 else t2
                    lk_target[np.uintp(2 * n_lk + 1)] = t2 if da >= 0 else t1
                    n_lk += 1
    # (unsigned indices: numba checks signed ones for negative-index wraparound)
    for x in range(n_lk):
        sh = lk_shift[x]
        idx = lk_index[x] + ra + sh
        for p in range(lane_lo, min(lane_hi, P - sh)):
            lk_values[np.uintp(x * P + p)] = data[np.uintp(idx + p)]
        for p in range(max(lane_lo, P - sh), lane_hi):
            lk_values[np.uintp(x * P + p)] = -np.inf
    for x in range(n_lk):
        t1 = lk_target[2 * x]
        t2 = lk_target[2 * x + 1]
        for p in range(lane_lo, lane_hi):
            v = lk_values[np.uintp(x * P + p)]
            c1 = np.uintp(t1 + p * m2_stride)
            c2 = np.uintp(t2 + p * m2_stride)
            m2[c1] = max(m2[c1], v)
            m2[c2] = max(m2[c2], v)

    # --- action 1 in row i, then action 2 closes row i (R8 counts the action-1 mark,
    # a double cell's two crosses, DB1, DB2); the value depends on the crosses after
    # action 1 only, so it is found once per count (once per row on single cells)
    for ii in range(k):
        i = open_rows[ii]
        ci = codes[i]
        ni = code_marks[ci]
        found = -1
        for a in range(code_last[ci] + 1, last_q):
            na = code_marks[next_code[i, ci, a]]
            if na < threshold:
                continue
            # the lock numbers have the row's lock colour: die i (either closes, LG2)
            for lq in range(last_q, length):
                sh = step_shift[i, a] + step_shift[i, lq]
                if na * (2 * P + 1) + sh != found:
                    amarks[i] = na + 2
                    _after_value(tmp, data, offsets, strides, points, P, ra,
                                 mask | (1 << i), open_rows, acodes, amarks, boxes, sh,
                                 step_points)
                    amarks[i] = ni
                    found = na * (2 * P + 1) + sh
                cell = ((number_at[i, a] - 2) * k + ii) * N_SUMS + number_at[i, lq] - 2
                _max_into(m2, cell, m2_stride, tmp)

    # --- action 1 in row i without closing it, action 2 closes another row j.  While
    # the game goes on, the value is row j's points plus one look-up in table
    # mask | {j}, whose index differs from row i's empty plan by row i's new code only.
    for jj in range(k):
        j = open_rows[jj]
        nj = code_marks[codes[j]]
        if nj < threshold:
            continue
        maskj = mask | (1 << j)
        for lq in range(last_q, length):  # either lock number (LG2)
            nclose = number_at[j, lq] - 2
            if offsets[maskj] >= 0:
                gain = points[nj + 2]
                idxj = offsets[maskj] + ra
                for t in range(k):
                    if t != jj:
                        idxj += strides[maskj, open_rows[t]] * codes[open_rows[t]]
                for ii in range(k):
                    if ii == jj:
                        continue
                    i = open_rows[ii]
                    ci = codes[i]
                    si = strides[maskj, i]
                    for a in range(code_last[ci] + 1, last_q):
                        sh = step_shift[np.uintp(i), np.uintp(a)] + step_shift[j, lq]
                        idx = (idxj + si * (next_code[np.uintp(i), np.uintp(ci), np.uintp(a)] - ci)
                               + sh)
                        na = number_at[np.uintp(i), np.uintp(a)] - 2
                        cell = (na * k + jj) * N_SUMS + nclose
                        # (the lanes past the last total stay -inf)
                        for p in range(lane_lo, min(lane_hi, P - sh)):
                            v = gain + data[np.uintp(idx + p)]
                            c = np.uintp(cell + p * m2_stride)
                            m2[c] = max(m2[c], v)
                continue
            amarks[j] = nj + 2
            for ii in range(k):
                i = open_rows[ii]
                if i == j:
                    continue
                ci = codes[i]
                ni = code_marks[ci]
                for a in range(code_last[ci] + 1, last_q):
                    acodes[i] = next_code[i, ci, a]
                    amarks[i] = code_marks[acodes[i]]
                    _after_value(tmp, data, offsets, strides, points, P, ra,
                                 maskj, open_rows, acodes, amarks, boxes,
                                 step_shift[i, a] + step_shift[j, lq], step_points)
                    _max_into(m2, ((number_at[i, a] - 2) * k + jj) * N_SUMS + nclose,
                              m2_stride, tmp)
                acodes[i] = ci
                amarks[i] = ni
            amarks[j] = nj

    # --- action 1 closes row i (R8); its die leaves play (R9)
    for ii in range(k):
        i = open_rows[ii]
        ni = code_marks[codes[i]]
        if ni < threshold:
            continue
        mask1 = mask | (1 << i)
        if offsets[mask1] < 0 and not a2_after_end:
            continue  # R15: the game ended in action 1
        for lq in range(last_q, length):  # either lock number (LG2)
            s = number_at[i, lq] - 2
            amarks[i] = ni + 2
            # while the game goes on, action 2 in row j is one look-up in table mask1
            # that differs from no action 2 by row j's code only
            going_on = offsets[mask1] >= 0
            gain = points[ni + 2]
            idx1 = offsets[mask1] + ra
            for t in range(k):
                if t != ii:
                    idx1 += strides[mask1, open_rows[t]] * codes[open_rows[t]]
            for jj in range(k):
                j = open_rows[jj]
                if j == i:
                    continue
                cj = codes[j]
                nj = code_marks[cj]
                sj = strides[mask1, j]
                for q in range(code_last[cj] + 1, last_q):
                    d = dcell[j, q]
                    if d < 0 or d == ii:
                        continue  # R9: die i left play with its row (or no die has this colour)
                    cell = (s * k + d) * N_SUMS + number_at[j, q] - 2
                    sh = step_shift[i, lq] + step_shift[j, q]
                    if going_on:
                        idx = (idx1 + sj * (next_code[np.uintp(j), np.uintp(cj), np.uintp(q)] - cj)
                               + sh)
                        for p in range(lane_lo, min(lane_hi, P - sh)):
                            v = gain + data[np.uintp(idx + p)]
                            c = np.uintp(cell + p * m2_stride)
                            m2[c] = max(m2[c], v)
                        continue
                    acodes[j] = next_code[j, cj, q]
                    amarks[j] = code_marks[acodes[j]]
                    _after_value(tmp, data, offsets, strides, points, P, ra,
                                 mask1, open_rows, acodes, amarks, boxes, sh, step_points)
                    _max_into(m2, cell, m2_stride, tmp)
                if nj >= threshold:
                    acodes[j] = cj
                    amarks[j] = nj + 2
                    done = -1  # the step shift ``tmp`` holds the values of
                    for lq2 in range(last_q, length):
                        sh = step_shift[i, lq] + step_shift[j, lq2]
                        if sh != done:
                            done = sh
                            _after_value(tmp, data, offsets, strides, points, P, ra,
                                         mask1 | (1 << j), open_rows, acodes, amarks, boxes,
                                         sh, step_points)
                        _max_into(m2, (s * k + jj) * N_SUMS + number_at[j, lq2] - 2,
                                  m2_stride, tmp)
                acodes[j] = cj
                amarks[j] = nj
            amarks[i] = ni

    if defer:  # the exchanges read m2 of two marks only, then action 2 alone joins
        _exchange(m2, one, a1x, exchange, spend, active, P, boxes, open_rows, dcell,
                  number_at, length, N_SUMS)
        for p in range(lane_lo, lane_hi):
            for s in range(N_SUMS):
                _action2_alone(m2, (p * N_SUMS + s) * one_stride, one,
                               active + p * one_stride, open_rows, dcell, number_at,
                               length, N_SUMS)


@jit()
def _action2_alone(m2: FloatArray, target: int, one: FloatArray, source: int,
                   open_rows: IntArray, dcell: IntArray, number_at: IntArray, length: int,
                   n_sums: int) -> None:
    """Action 2 alone into one (lane, white sum) slice of ``m2`` at ``target``, read from
    one lane of ``one`` at ``source``: die d may mark the cells of its colour, in any row."""
    for jj in range(open_rows.shape[0]):
        j = open_rows[jj]
        for q in range(length):
            d = dcell[j, q]
            if d < 0:
                continue
            n = number_at[j, q] - 2
            cell = np.uintp(target + d * n_sums + n)
            m2[cell] = max(m2[cell], one[np.uintp(source + jj * n_sums + n)])


@jit()
def _exchange(m2: FloatArray, one: FloatArray, a1x: FloatArray, exchange: IntArray,
              spend: bool, active: int, P: int, boxes: int, open_rows: IntArray,
              dcell: IntArray, number_at: IntArray, length: int, n_sums: int) -> None:
    """The exchanges of action 1 (Qwixx X-Change, XC1, XC2): in lane p (last field used
    ``p // boxes - 1``, penalties ``p % boxes``), white sum S may cross the other number
    o of any field f right of the last one used whose pair holds S, and the lane becomes
    q = ``(f + 1) * boxes + p % boxes``; the cross is the active player's (XC6, V6).

    ``m2`` must hold the values of two marks only (action 1 crossing a number, then
    action 2): ``m2[p, S] = max(m2[p, S], m2[q, o])``, lanes in increasing order so that
    lane q (a later field) is still untouched.  ``a1x[p * n_sums + S - 2]``: the best
    action-1-only exchange, ``one``'s lane q at o in any row.  ``spend`` (XC4): the
    field spent alone, then action 2 alone in lane q (its action-1-only value, the same
    configuration in lane q, is :func:`_turn_values`'s)."""
    k = open_rows.shape[0]
    one_stride = k * n_sums
    for x in range(P * n_sums):
        a1x[x] = -np.inf
    for p in range(P):
        for f in range(p // boxes, exchange.shape[0]):  # fields right of the last used
            q = (f + 1) * boxes + p % boxes
            for side in range(2):
                s = exchange[f, side] - 2
                o = exchange[f, 1 - side] - 2
                sx = np.uintp(p * n_sums + s)
                for jj in range(k):
                    a1x[sx] = max(a1x[sx], one[np.uintp(active + q * one_stride
                                                        + jj * n_sums + o)])
                target = (p * n_sums + s) * one_stride
                source = (q * n_sums + o) * one_stride
                for c in range(one_stride):
                    m2[np.uintp(target + c)] = max(m2[np.uintp(target + c)],
                                                   m2[np.uintp(source + c)])
                if spend:
                    _action2_alone(m2, target, one, active + q * one_stride, open_rows,
                                   dcell, number_at, length, n_sums)


@jit(inline=True)
def expected_max(zv: FloatArray, zd: IntArray, sv: FloatArray, sd: IntArray, nz: int,
                 idx: int, b: float, products: IntArray) -> float:
    """``E[max(b, Y_1, ..., Y_k)]`` in units of 6^-k: the ``nz`` faces that beat ``b`` are
    ``zv[:nz]`` (their die's digit step ``zd``), ``idx`` the digits of every die's count
    of faces at or below ``b`` (plus one), ``products`` :func:`count_products`'s.

    The faces are sorted stably (few: about 6 on average): each goes to its rank, the
    values below it plus the equal ones before it.  Of two faces exactly one counts the
    other (no NaN beats b), so the ranks are a permutation, the order a stable insertion
    sort gives, and the sum adds the same terms in the same order; branch-free, it is
    faster than the insertion sort, whose shifts mispredict.  ``sv``, ``sd``: scratch."""
    for t in range(nz):
        y = zv[np.uintp(t)]
        r = 0
        for u in range(t):
            r += zv[np.uintp(u)] <= y
        for u in range(t + 1, nz):
            r += zv[np.uintp(u)] < y
        sv[np.uintp(r)] = y
        sd[np.uintp(r)] = zd[np.uintp(t)]
    # E[max] = sum over sorted values t of t * (G(t) - G(t-))
    prod = products[np.uintp(idx)]
    acc = b * prod
    for t in range(nz):
        idx += sd[np.uintp(t)]
        new = products[np.uintp(idx)]
        acc += sv[np.uintp(t)] * (new - prod)
        prod = new
    return float(acc)


@jit()
def _turn_values(
    penalties: int,
    players: int,
    k: int,
    score: float,
    one: FloatArray,
    m2: FloatArray,
    vals: FloatArray,
    zv: FloatArray,
    zd: IntArray,
    sv: FloatArray,
    sd: IntArray,
    products: IntArray,
    boxes: int,
    lane_lo: int,
    lane_hi: int,
    step_points: FloatArray,
    n_sums: int,
    die_faces: int,
    digit_base: int,
    exchange: IntArray,
    spend: bool,
    a1x: FloatArray,
) -> None:
    """Step 2: ``vals[L * penalties + p]`` for every level L and lane p (a penalty count
    ``p % boxes`` and a step total ``p // boxes``, :mod:`qwixx_math.solver.layout`).

    Only the lanes ``lane_lo <= p < lane_hi`` are computed (the step totals the
    configuration can hold, CS2; every lane on a sheet without steps); the others are
    -inf, and no state reaches them.

    Level 0 is this player's own roll (the Bellman step of ``one``'s level
    ``players - 1`` and ``m2``); level L >= 1 is another player's roll, on which
    this player may mark the white sum in one row (``one``'s level L - 1) or pass
    (this configuration's level L - 1) at no cost.  Per penalty count, most first:
    the penalty of the own roll leads to level ``players - 1`` of p + 1.

    ``products[idx]`` is the product of (digit - 1) over the base-8 digits of idx
    (a 0 digit counts 1): with die j's count of faces at or below the current
    value stored as digit j (count + 1), it is G(t) in units of 6^-k.
    With 8-sided dice (LG1) the faces run 1..``die_faces``, the sums over ``n_sums``
    numbers and the digits are base ``digit_base`` (:func:`count_products`).
    On a sheet with an X-Change track (``exchange`` not empty) action 1 alone may also
    be an exchange (``a1x``, :func:`_exchange`) or, under ``spend`` (XC4), a field f
    spent alone: this configuration's value in lane ``(f + 1) * boxes + p % boxes``,
    found before lane p (the lanes run down).
    """
    N_SUMS = n_sums
    F = die_faces
    P = penalties
    one_stride = k * N_SUMS
    level_stride = P * one_stride
    active = (players - 1) * level_stride
    last = (players - 1) * P
    faces = 1
    for _ in range(k):
        faces *= F
    for p in range(P):
        if p < lane_lo or p >= lane_hi:
            for level in range(players):
                vals[level * P + p] = -np.inf
    for p in range(lane_hi - 1, lane_lo - 1, -1):
        # R11: a turn without a mark costs a penalty box (R13: the last one ends the game)
        pen = (vals[last + p + 1] if (p + 1) % boxes != 0
               else score + step_points[p // boxes] - PENALTY * boxes)
        total = 0.0
        for w1 in range(1, F + 1):
            for w2 in range(w1, F + 1):
                s = w1 + w2 - 2
                b = pen
                for ii in range(k):
                    b = max(b, one[np.uintp(active + p * one_stride + ii * N_SUMS + s)])
                if exchange.shape[0] > 0:
                    b = max(b, a1x[np.uintp(p * N_SUMS + s)])
                    if spend:
                        for f in range(p // boxes, exchange.shape[0]):
                            if exchange[f, 0] == s + 2 or exchange[f, 1] == s + 2:
                                b = max(b, vals[last + (f + 1) * boxes + p % boxes])
                # Z_j(c) = max(b, Y_j(c)): keep the faces that beat b (branch-free
                # compaction, with their die's digit step), count the others
                nz = 0
                idx = 0
                step = 1
                for jj in range(k):
                    # number w + c sits at index w + c - 2: faces c = 1..6 start at w - 1
                    row = (p * N_SUMS + s) * one_stride + jj * N_SUMS
                    first = row + w1 - 1
                    second = row + w2 - 1
                    below = 1
                    for c in range(F):
                        # unsigned indices: no negative-index wraparound in the hot loop
                        y = m2[np.uintp(first + c)]
                        if w1 != w2:  # (a double: the same face twice)
                            y = max(y, m2[np.uintp(second + c)])
                        above = y > b
                        zv[np.uintp(nz)] = y
                        zd[np.uintp(nz)] = step
                        nz += above
                        below += 1 - above
                    idx += below * step
                    step *= digit_base
                acc = expected_max(zv, zd, sv, sd, nz, idx, b, products)
                total += acc if w1 == w2 else 2.0 * acc
        vals[p] = total / (float(F * F) * faces)
        # the other players' rolls: mark the white sum S (s + 2, in (s+1 or 11-s) of
        # the 36 white pairs) in the best row, or pass
        for level in range(1, players):
            stay = vals[(level - 1) * P + p]
            row = (level - 1) * level_stride + p * one_stride
            acc = 0.0
            for s in range(N_SUMS):
                best = stay
                for ii in range(k):
                    best = max(best, one[np.uintp(row + ii * N_SUMS + s)])
                acc += (s + 1 if s < F else N_SUMS - s) * best
            vals[level * P + p] = acc / float(F * F)


#: Step 2 under its public name, for the kernels of other modules (:mod:`.chain`).
turn_values = _turn_values


@jit()
def solve_batch(
    data: FloatArray,
    offsets: IntArray,
    strides: IntArray,
    code_last: IntArray,
    code_marks: IntArray,
    next_code: IntArray,
    number_at: IntArray,
    die_at: IntArray,
    points: FloatArray,
    n_codes: int,
    length: int,
    threshold: int,
    penalties: int,
    players: int,
    level_size: int,
    a2_after_end: bool,
    mask: int,
    open_rows: IntArray,
    perms: IntArray,
    items: IntArray,
    products: IntArray,
    frozen_top: int,
    frozen_lower: IntArray,
    frozen_gain: FloatArray,
    boxes: int,
    step_shift: IntArray,
    step_points: FloatArray,
    step_lo: IntArray,
    step_hi: IntArray,
    closed_steps: IntArray,
    start: int,
    stop: int,
    phases: int,
    die_faces: int = 6,
    lock_cells: int = 1,
    exchange: IntArray | None = None,
    spend: bool = False,
    bar: IntArray | None = None,
    boxed: IntArray | None = None,
    lucky: IntArray | None = None,
    lucky_additional: bool = False,
    lucky_next_cell: bool = False,
) -> None:
    """Solve the configurations ``items[start:stop]`` of table ``mask``, one after the other.

    ``items`` are configuration numbers (the open rows' codes read as a base-``n_codes``
    number, first open row most significant); every value they read must be final,
    so the items of one level (see :func:`canonical_items`) are independent and
    threads may solve disjoint slices of them at once (the kernel runs without the
    GIL; :func:`qwixx_math.solver.engine.solve_tables` does that on every core).
    ``die_at[r, q]`` is the die (the row it locks) whose colour row r's cell q has,
    -1 for none; ``next_code[r, c, q]`` row r's code after marking position q from c
    (:attr:`qwixx_math.solver.layout.Layout.row_next_code`).
    ``perms`` (one symmetry per line, ``perms[g, r]`` the image of row ``r``) are the
    table's stabiliser; each computed value is written to all its images.
    ``products`` is :func:`count_products` of the table's number of open rows.
    **Frozen rows** (:func:`qwixx_math.solver.engine.frozen_codes`): a row whose last
    mark is on its last number but one and that has fewer marks than the lock
    needs can never be marked again, so its marks only add their points.  The items
    hold such a row only with the most marks, ``frozen_top``; each value is also
    written, plus ``frozen_gain[x]``, for that row at ``frozen_lower[x]`` instead
    (every combination over the frozen rows), so those configurations, at lower
    levels than their item, are never solved.  ``frozen_lower`` empty: none.
    **Lanes**: ``penalties`` is the number of values per configuration, the penalty
    counts (``boxes``) times the step totals (:mod:`qwixx_math.solver.layout`); a
    configuration is solved in the lanes of the step totals its rows can hold
    (``step_lo``/``step_hi`` per row and code, plus ``closed_steps[mask]`` for the
    closed rows), the others are -inf.  ``step_shift``/``step_points``: see :func:`_gather`.
    ``phases`` is 3 (gather and expected maximum) except when profiling: 1 runs
    the gather only and writes meaningless values.
    ``die_faces``: the dice's sides (8 on Qwixx Longo, LG1: sums 2..16, ``products`` of
    ``count_products(k, 16)``); ``lock_cells``: the lock numbers ending every row (2 on
    Longo, LG2).
    ``exchange``: the X-Change fields' pairs, one line per field (Qwixx X-Change, XC1;
    None or no line: no track), the lanes then being the last field used
    (:mod:`qwixx_math.solver.layout`); ``spend``: the Option ``xc_field_without_cross``
    (XC4).
    ``bar``: the bonus bar's fields, each its row (Qwixx Bonus, pad A, BA1; None or
    empty: no bar), ``boxed[r, q]`` 1 on a boxed cell; the lanes then hold the bar too,
    and the plans that cross a boxed cell are played by :func:`.bar.bar_plans`
    (solitaire only).
    ``lucky``: the sheet's lucky numbers (Qwixx Longo, LG3; None or empty: none), played by
    :func:`_lucky_gather` under the Options ``lg_lucky_mode`` (``lucky_additional``: the
    lucky cross may follow the white-sum cross, LG4) and ``lg_lucky_candidates``
    (``lucky_next_cell``: the fewest among the rows with a next cell, LG5); the table
    model (``players`` > 1) does not play them.
    """
    N_SUMS = 2 * die_faces - 1
    fields = np.zeros((0, 2), dtype=np.int64) if exchange is None else exchange
    bar_fields = np.zeros(0, dtype=np.int64) if bar is None else bar
    boxed_cells = np.zeros((0, 0), dtype=np.int64) if boxed is None else boxed
    bar_work, bar_queue, bar_values = bar_scratch(
        strides.shape[1], open_rows.shape[0] if bar_fields.shape[0] > 0 else 0, length, boxes)
    lucky_sums = np.zeros(0, dtype=np.int64) if lucky is None else lucky
    lucky_scratch = np.empty(4 * open_rows.shape[0] + 2, dtype=np.int64)
    a1x = np.empty(penalties * N_SUMS)
    digit_base = 8 if die_faces == 6 else 16
    k = open_rows.shape[0]
    m = strides.shape[1]
    block = penalties * players
    # dcell[r, q]: the open index of the die of row r's cell q, -1 when out of play
    dcell = np.empty((m, length), dtype=np.int64)
    foreign = 0  # cells whose die is not their own row's
    for r in range(m):
        for q in range(length):
            d = die_at[r, q]
            foreign += d != r
            dcell[r, q] = -1
            for t in range(k):
                if open_rows[t] == d:
                    dcell[r, q] = t
    # (a comparison, not ``identity = True`` updated in the loop: numba typed that as
    # the literal True at first and compiled ``_gather`` twice, about 10 s more on a
    # cold cache)
    identity = foreign == 0
    one = np.empty(block * k * N_SUMS)
    m2 = np.empty(penalties * N_SUMS * k * N_SUMS)
    lk_cap = k * k * length * length
    lk_index = np.empty(lk_cap, dtype=np.int64)
    lk_target = np.empty(2 * lk_cap, dtype=np.int64)
    lk_values = np.empty(lk_cap * penalties)
    lk_shift = np.empty(lk_cap, dtype=np.int64)
    codes = np.zeros(m, dtype=np.int64)
    acodes = np.zeros(m, dtype=np.int64)
    amarks = np.zeros(m, dtype=np.int64)
    tmp = np.empty(penalties)
    vals = np.empty(block)
    zv = np.empty(die_faces * k + 1)
    zd = np.empty(die_faces * k + 1, dtype=np.int64)
    sv = np.empty(die_faces * k + 1)  # the faces that beat b, in sorted order
    sd = np.empty(die_faces * k + 1, dtype=np.int64)
    n_lower = frozen_lower.shape[0]
    frozen_stride = np.empty(k, dtype=np.int64)
    for it in range(start, stop):
        config = items[it]
        for t in range(k - 1, -1, -1):
            codes[open_rows[t]] = config % n_codes
            config //= n_codes
        base = offsets[mask]
        score = 0.0
        lo = 0
        hi = closed_steps[mask]
        for t in range(k):
            r = open_rows[t]
            base += strides[mask, r] * codes[r]
            score += points[code_marks[codes[r]]]
            lo += step_lo[r, codes[r]]
            hi += step_hi[r, codes[r]]
        if bar_fields.shape[0] > 0:  # the bar lanes no game reaches (:func:`.bar.bar_lanes`)
            lo, hi = bar_lanes(lo, hi, mask, open_rows, codes, code_last, code_marks,
                               length - 1, bar_fields)
        if lo <= hi:  # (else no lane to gather: :func:`_turn_values` writes -inf)
            _gather(data, offsets, strides, code_last, code_marks, next_code, number_at,
                    dcell, identity, points, length, threshold, penalties, players,
                    level_size, a2_after_end, mask, open_rows, codes, base, one, m2, acodes,
                    amarks, tmp, lk_index, lk_target, lk_values, lk_shift, boxes, step_shift,
                    step_points, lo * boxes, min(penalties, (hi + 1) * boxes), N_SUMS,
                    lock_cells, fields, spend, a1x)
        if bar_fields.shape[0] > 0 and lo <= hi:
            bar_plans(data, offsets, strides, code_last, code_marks, next_code, number_at,
                      dcell, points, length, threshold, boxes, a2_after_end, mask,
                      open_rows, codes, one, m2, lo * boxes,
                      min(penalties, (hi + 1) * boxes), N_SUMS, bar_fields, boxed_cells,
                      bar_work, bar_queue, bar_values)
        if lucky_sums.shape[0] > 0:
            _lucky_gather(data, offsets, strides, code_last, code_marks, next_code, number_at,
                          dcell, points, length, threshold, penalties,
                          (players - 1) * level_size, a2_after_end, mask, open_rows, codes,
                          m2, acodes, amarks, tmp, boxes, step_shift, step_points,
                          lo * boxes, min(penalties, (hi + 1) * boxes), N_SUMS, lock_cells,
                          lucky_sums, lucky_additional, lucky_next_cell, lucky_scratch)
        if phases & 2:
            _turn_values(penalties, players, k, score, one, m2, vals, zv, zd, sv, sd, products,
                         boxes, lo * boxes, min(penalties, (hi + 1) * boxes), step_points,
                         N_SUMS, die_faces, digit_base, fields, spend, a1x)
        else:
            vals[:] = 0.0
        for g in range(perms.shape[0]):
            idx = offsets[mask]
            for t in range(k):
                r = open_rows[t]
                idx += strides[mask, perms[g, r]] * codes[r]
            for level in range(players):
                for p in range(penalties):
                    data[idx + level * level_size + p] = vals[level * penalties + p]
            if n_lower == 0:
                continue
            # the same configuration with fewer marks in its frozen rows
            n_frozen = 0
            for t in range(k):
                r = open_rows[t]
                if codes[r] == frozen_top:
                    frozen_stride[n_frozen] = strides[mask, perms[g, r]]
                    n_frozen += 1
            combos = 1
            for _ in range(n_frozen):
                combos *= n_lower + 1
            for combo in range(1, combos):  # digit f: frozen row f's code, 0 = frozen_top
                rest = combo
                shift = 0
                gain = 0.0
                for f in range(n_frozen):
                    digit = rest % (n_lower + 1)
                    rest //= n_lower + 1
                    if digit > 0:
                        shift += frozen_stride[f] * (frozen_lower[digit - 1] - frozen_top)
                        gain += frozen_gain[digit - 1]
                for level in range(players):
                    for p in range(penalties):
                        data[idx + shift + level * level_size + p] = (
                            vals[level * penalties + p] + gain)


@jit()
def _lucky_gather(
    data: FloatArray,
    offsets: IntArray,
    strides: IntArray,
    code_last: IntArray,
    code_marks: IntArray,
    next_code: IntArray,
    number_at: IntArray,
    dcell: IntArray,
    points: FloatArray,
    length: int,
    threshold: int,
    penalties: int,
    ra: int,
    a2_after_end: bool,
    mask: int,
    open_rows: IntArray,
    codes: IntArray,
    m2: FloatArray,
    acodes: IntArray,
    amarks: IntArray,
    tmp: FloatArray,
    boxes: int,
    step_shift: IntArray,
    step_points: FloatArray,
    lane_lo: int,
    lane_hi: int,
    n_sums: int,
    lock_cells: int,
    lucky: IntArray,
    additional: bool,
    next_cell: bool,
    scratch: IntArray,
) -> None:
    """Qwixx Longo's lucky crosses (VARIANTS.md LG3-LG5, V9) into ``m2`` (see :func:`_gather`),
    after :func:`_gather` filled it, for the configuration ``codes``.

    At a lucky white sum S the active player may cross the next cell of a row with the
    fewest crosses (``lucky_cells`` of :mod:`qwixx_math.rules`): instead of crossing S,
    or under ``additional`` (LG4) also after crossing S, the fewest then counted on the
    sheet after that cross (a row it locked is still a candidate, with its crosses but
    no next cell).  ``next_cell`` (LG5, ``open_with_next_cell``): the fewest among the
    rows that have a next cell; else among every open row, and a tied row without a next
    cell offers nothing.  A next cell is the one right of the row's last cross; a lock
    number needs the threshold's crosses (LG2) and closes the row.  Each such action 1
    (one or two crosses) is followed by every legal action 2 (R7-R9, R15) into
    ``m2[p, S]``.

    Action 1 alone is maxed into every die and number of ``m2[p, S]``: with ``k >= 1``
    dice, ``E[max(b, v, Y_1, ..., Y_k)]`` is ``E[max(b, Y_1', ..., Y_k')]`` with every
    ``Y_j' = max(Y_j, v)``, so :func:`_turn_values` needs nothing of its own.  Every value
    is one :func:`_after_value` (a few times slower than :func:`_gather`'s incremental
    look-ups, but only at the two lucky sums).  ``scratch``: ``4 k + 2`` integers.
    ``ra``: the level read (the table model does not play lucky crosses; 0 in solitaire).
    """
    k = open_rows.shape[0]
    last_q = length - lock_cells
    one_stride = k * n_sums
    m2_stride = n_sums * one_stride
    cells = scratch[: 2 * k]  # per open row: crosses, next cell (-1: none)
    firsts = scratch[2 * k:]  # the action-1 crosses before the lucky cross: (row, position)
    for t in range(k):
        r = open_rows[t]
        acodes[r] = codes[r]
        amarks[r] = code_marks[codes[r]]
    for li in range(lucky.shape[0]):
        s = lucky[li] - 2
        # none (LG4 instead, or additional without a white-sum cross), or under
        # additional the white sum S in row i
        firsts[0] = -1
        firsts[1] = -1
        n_first = 1
        for ii in range(k if additional else 0):
            i = open_rows[ii]
            ci = codes[i]
            for a in range(code_last[ci] + 1, length):
                if number_at[i, a] == s + 2 and (a < last_q or code_marks[ci] >= threshold):
                    firsts[2 * n_first] = i
                    firsts[2 * n_first + 1] = a
                    n_first += 1
        for f in range(n_first):
            i = firsts[2 * f]
            a = firsts[2 * f + 1]
            mask1 = mask
            shift1 = 0
            if i >= 0:
                ci = codes[i]
                shift1 = step_shift[i, a]
                if a >= last_q:  # a lock number: the row closes (R8, LG2)
                    amarks[i] = code_marks[ci] + 2
                    mask1 = mask | (1 << i)
                else:
                    acodes[i] = next_code[i, ci, a]
                    amarks[i] = code_marks[acodes[i]]
            fewest = 1 << 30
            for t in range(k):
                r = open_rows[t]
                if mask1 >> r & 1:  # locked by this action 1: its crosses, no next cell
                    crosses = amarks[r] - 1
                    nxt = -1
                else:
                    crosses = amarks[r]
                    nxt = code_last[acodes[r]] + 1
                    if nxt >= length or (nxt >= last_q and crosses < threshold):
                        nxt = -1
                cells[2 * t] = crosses
                cells[2 * t + 1] = nxt
                if nxt >= 0 or not next_cell:
                    fewest = min(fewest, crosses)
            for t in range(k):
                r = open_rows[t]
                q = cells[2 * t + 1]
                if q < 0 or cells[2 * t] != fewest:
                    continue
                cr = acodes[r]
                nr = amarks[r]
                mask2 = mask1
                if q >= last_q:
                    amarks[r] = nr + 2
                    mask2 = mask1 | (1 << r)
                else:
                    acodes[r] = next_code[r, cr, q]
                    amarks[r] = code_marks[acodes[r]]
                shift2 = shift1 + step_shift[r, q]
                # action 1 alone
                _after_value(tmp, data, offsets, strides, points, penalties, ra, mask2,
                             open_rows, acodes, amarks, boxes, shift2, step_points)
                for p in range(lane_lo, lane_hi):
                    target = (p * n_sums + s) * one_stride
                    for x in range(one_stride):
                        u = np.uintp(target + x)
                        m2[u] = max(m2[u], tmp[p])
                # then action 2 (R15: not once the game ended in action 1, by default)
                for jj in range(k if offsets[mask2] >= 0 or a2_after_end else 0):
                    j = open_rows[jj]
                    if mask2 >> j & 1:
                        continue  # closed in action 1: its cells and its die are out (R9)
                    cj = acodes[j]
                    nj = amarks[j]
                    for q2 in range(code_last[cj] + 1, length):
                        d = dcell[j, q2]
                        if d < 0 or mask2 >> open_rows[d] & 1:
                            continue
                        mask3 = mask2
                        if q2 >= last_q:
                            if nj < threshold:
                                continue
                            amarks[j] = nj + 2
                            mask3 = mask2 | (1 << j)
                        else:
                            acodes[j] = next_code[j, cj, q2]
                            amarks[j] = code_marks[acodes[j]]
                        _after_value(tmp, data, offsets, strides, points, penalties, ra,
                                     mask3, open_rows, acodes, amarks, boxes,
                                     shift2 + step_shift[j, q2], step_points)
                        cell = (s * k + d) * n_sums + number_at[j, q2] - 2
                        for p in range(lane_lo, lane_hi):
                            u = np.uintp(cell + p * m2_stride)
                            m2[u] = max(m2[u], tmp[p])
                        acodes[j] = cj
                        amarks[j] = nj
                acodes[r] = cr
                amarks[r] = nr
            if i >= 0:
                acodes[i] = codes[i]
                amarks[i] = code_marks[codes[i]]


@jit()
def canonical_items(
    strides_row: IntArray,
    open_rows: IntArray,
    perms: IntArray,
    code_marks: IntArray,
) -> tuple[IntArray, IntArray]:
    """The canonical configurations of a table, sorted by level.

    The level of a configuration is its number of marks: every mark raises it,
    and it is invariant under the symmetries, so the configurations of one level
    never depend on one another.  (Within a level, neighbours in the sorted order
    often differ in the last row only, so their look-ups share cache lines.)

    A configuration is canonical when its flat index is the smallest among its
    images under ``perms``.  Returns ``(items, level_start)``: the items of level
    ``l`` are ``items[level_start[l]:level_start[l + 1]]``, in increasing order.
    ``strides_row`` is the table's line of the stride array.
    """
    skip = np.zeros((strides_row.shape[0], code_marks.shape[0]), dtype=np.bool_)
    items, level_start, _ = level_items(strides_row, open_rows, perms, code_marks, skip)
    return items, level_start


@jit()
def level_items(
    strides_row: IntArray,
    open_rows: IntArray,
    perms: IntArray,
    code_marks: IntArray,
    skip: npt.NDArray[np.bool_],
) -> tuple[IntArray, IntArray, int]:
    """:func:`canonical_items` without the configurations that have a row ``r`` at a
    code ``c`` with ``skip[r, c]`` (the lower frozen codes, :func:`.engine.frozen_codes`,
    and on a sheet with double cells the codes row ``r`` cannot reach).

    Returns ``(items, level_start, canonical)``, ``canonical`` counting the canonical
    configurations skipped too.  The configurations are enumerated with a digit
    counter (one digit per open row, the last one fastest), so the level, the
    skipped digits and the flat index change by one digit's share per step: no
    division per configuration (it cost most of the solve's serial setup).
    """
    k = open_rows.shape[0]
    n_codes = code_marks.shape[0]
    total = 1
    for _ in range(k):
        total *= n_codes
    # (plain loops, not ``.max()``, ``np.full`` or ``np.cumsum``: each of those is
    # compiled on its own, seconds of a cold start)
    most = 0
    for c in range(n_codes):
        most = max(most, code_marks[c])
    n_levels = k * most + 1
    counts = np.zeros(n_levels + 1, dtype=np.int64)
    level_of = np.empty(total, dtype=np.int16)  # -1: not solved
    codes = np.zeros(k, dtype=np.int64)
    level = k * code_marks[0]
    skipped = 0
    for t in range(k):
        skipped += int(skip[open_rows[t], 0])
    canonical = 0
    for config in range(total):
        own = 0
        for t in range(k):
            own += strides_row[open_rows[t]] * codes[t]
        best = True
        for g in range(perms.shape[0]):
            image = 0
            for t in range(k):
                image += strides_row[perms[g, open_rows[t]]] * codes[t]
            if image < own:
                best = False
                break
        level_of[config] = -1
        if best:
            canonical += 1
            if skipped == 0:
                level_of[config] = level
                counts[level + 1] += 1
        # the next configuration: increment the digits, last one first
        t = k - 1
        while t >= 0:
            c = codes[t]
            row = open_rows[t]
            level -= code_marks[c]
            skipped -= skip[row, c]
            if c + 1 < n_codes:
                codes[t] = c + 1
                level += code_marks[c + 1]
                skipped += skip[row, c + 1]
                break
            codes[t] = 0
            level += code_marks[0]
            skipped += skip[row, 0]
            t -= 1
    level_start = np.zeros(n_levels + 1, dtype=np.int64)
    fill = np.zeros(n_levels, dtype=np.int64)
    for level in range(n_levels):
        level_start[level + 1] = level_start[level] + counts[level + 1]
        fill[level] = level_start[level]
    items = np.empty(level_start[n_levels], dtype=np.int64)
    for config in range(total):
        level = level_of[config]
        if level >= 0:
            items[fill[level]] = config
            fill[level] += 1
    return items, level_start, canonical


def count_products(k: int, base: int = 8) -> IntArray:
    """``products[idx]``: the product over k base-8 digits d of idx of (d - 1), d = 0 counting 1
    (base 16 for 8-sided dice: a digit counts up to 9).

    The expected-maximum merge keeps die j's number of faces at or below the
    running value as digit j (plus one), so one look-up replaces k multiplications.
    """
    digits = np.indices((base,) * k).reshape(k, -1)[::-1]  # digit j of every idx
    factors = np.where(digits == 0, 1, digits - 1)
    return np.asarray(factors.prod(axis=0), dtype=np.int64)


@jit()
def derive_table(
    data: FloatArray,
    offsets: IntArray,
    strides: IntArray,
    src_mask: int,
    dst_mask: int,
    perm: IntArray,
    open_rows: IntArray,
    n_codes: int,
    penalties: int,
    players: int,
    level_size: int,
) -> None:
    """Fill table ``dst_mask = perm(src_mask)`` from the solved table ``src_mask``,
    at every level.

    ``W_{g(C)}(g x) = W_C(x)``: row ``r``'s code moves to row ``perm[r]``.
    """
    k = open_rows.shape[0]
    total = 1
    for _ in range(k):
        total *= n_codes
    for config in range(total):
        rest = config
        src = offsets[src_mask]
        dst = offsets[dst_mask]
        for t in range(k - 1, -1, -1):
            code = rest % n_codes
            rest //= n_codes
            r = open_rows[t]
            src += strides[src_mask, r] * code
            dst += strides[dst_mask, perm[r]] * code
        for level in range(players):
            shift = level * level_size
            for p in range(penalties):
                data[dst + shift + p] = data[src + shift + p]
