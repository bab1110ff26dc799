"""Qwixx Double A in the solver: second crosses (VARIANTS.md §6, DA1-DA7; issue 34).

**The row state.**  Under ``da_scope = latest`` (DA2) only a row's rightmost crossed
number can take its second cross, once (DA1, DA3), so an open row's future depends on its
last position, its crosses (numbers, second crosses: DA5, DA7) and whether the rightmost
number is doubled already.  Crosses beyond 16 score nothing (DA7) and any count from the
threshold up unlocks the last number (DA5), so the count is capped at 16: the codes

    0 = empty,   then (last, flag, crosses) for last 0 .. L-2, flag 0/1,
    crosses 1 .. min(2 last + 1, 16) (flag 0) or 2 .. min(2 last + 2, 16) (flag 1)

number **191** open states of a row of 11 numbers (:func:`row_codes`).  A new cross at q
right of the last one leads to (q, 0, crosses + 1); a second cross to (last, 1,
crosses + 1); the last number (crosses >= threshold) closes the row with its lock box
(crosses + 2).  ``h(code) = 2 (last + 1) + flag`` grows with every cross, so the
configurations of one sum of ``h`` (a **level**) never read one another.

**The tables.**  As on every sheet (:mod:`.layout`), ``W_C`` over the open rows' codes and
the penalty lanes, the closed rows' points outside.  A table with a closed row is dense
(191^3 x 4 values).  The table of open rows of the Double A pad would hold 191^4 x 4 =
5.3e9 values (42 GB); its symmetry group (:func:`.symmetry.symmetry_group`: red <-> yellow,
green <-> blue, the two pairs with the die flip) is S2 wr S2, of order 8, and every
symmetry keeps each row's code (positions map to positions), so its orbits on the codes
(a, b, c, d) are the unordered pairs of unordered pairs {{a, b}, {c, d}}.  That table is
stored **canonically** (:func:`canonical_index`): pair index P(a, b) = T(max) + min over
the 191 codes (18,336 pairs), then T(max pair) + min pair: 168,113,616 configurations x 4
lanes, 5.4 GB.  Look-ups into it canonicalise (two min/max, two triangular numbers); the
solve computes each canonical configuration once, and writes nothing else.

**The turn** (:func:`_plans`): every action 1 (the white sum as a new number, the lock
number or a second cross, in any open row), every action 2 after it (white + the row's
die, R6, R7, R9, R15; the second cross of the number crossed in action 1 only under
``da_same_turn``, DA4), each looked up, into the ``one`` and ``m2`` arrays that
:func:`qwixx_math.solver.kernel.turn_values` reads: the expected maximum over the dice is
the kernel's (:func:`_turn_values`: its operations, specialised to this solver's calls).
The table model is not played (DA1 refuses it).

(numba compiles these kernels; their on-disk cache is keyed on this module's source too,
:func:`qwixx_math.jit.sources_digest`.)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..errors import ParseError
from ..jit import jit
from ..layouts import DA_SCORE_CAP, SheetLayout
from ..model import PENALTY_POINTS, Colour, Sheet
from .kernel import count_products, expected_max
from .threads import run_in_slices
from .variant import check_second_cross_sheet

__all__ = [
    "DoubleALayout",
    "canonical_index",
    "solve_double_a",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Points lost per penalty box (R17), as the float the kernel computes with.
PENALTY = float(PENALTY_POINTS)
#: Configurations of one level below which the batch runs on the calling thread.
PARALLEL_MIN = 256
#: Slices per thread of a parallel batch.
SLICES_PER_THREAD = 4
#: The table of open rows is stored canonically when dense it would hold more values.
CANONICAL_ABOVE = 1 << 28


def row_codes(length: int, cap: int = DA_SCORE_CAP) -> list[tuple[int, int, int]]:
    """The open states ``(last, flag, crosses)`` of a row of ``length`` numbers, in code
    order (code 0, the empty row, is ``(-1, 0, 0)``)."""
    codes = [(-1, 0, 0)]
    for last in range(length - 1):
        for flag in (0, 1):
            lo, hi = (1, 2 * last + 1) if flag == 0 else (2, 2 * last + 2)
            codes.extend((last, flag, n) for n in range(lo, min(hi, cap) + 1))
    return codes


@dataclass(frozen=True, eq=False, slots=True)
class DoubleALayout:
    """Where every value of a second-cross pad lives, and the row-code arrays."""

    rows: int
    length: int
    penalties: int
    n_codes: int
    #: Whether the table of open rows is stored canonically (:func:`canonical_index`).
    canonical: bool
    masks: tuple[int, ...]
    offsets: IntArray
    strides: IntArray
    size: int
    code_last: IntArray
    code_flag: IntArray
    code_cnt: IntArray
    #: ``next_new[c, q]``: the code after a new cross at q (-1: not right of the last).
    next_new: IntArray
    #: ``next_sec[c]``: the code after the second cross of the last number (-1: none).
    next_sec: IntArray
    #: ``level_of[c]`` = 2 (last + 1) + flag.
    level_of: IntArray
    #: ``points[n]`` = T(min(n, 16)) (DA7).
    points: FloatArray
    number_at: IntArray
    index: dict[tuple[int, int, int], int]

    @classmethod
    def of(cls, sheet: SheetLayout, canonical: bool | None = None) -> DoubleALayout:
        """The layout of ``sheet``'s tables; ``canonical`` None: the canonical table of
        open rows when the sheet has the S2 wr S2 symmetry and the dense table would hold
        more than :data:`CANONICAL_ABOVE` values (the Double A pad)."""
        check_second_cross_sheet(sheet)
        m = len(sheet.numbers)
        length = len(sheet.numbers[0])
        p = sheet.penalty_boxes
        states = row_codes(length)
        n = len(states)
        index = {s: c for c, s in enumerate(states)}
        wreath = _is_wreath(sheet)
        if canonical is None:
            canonical = wreath and n**m * p > CANONICAL_ABOVE
        if canonical and not wreath:
            raise ParseError(f"layout {sheet.name}: the canonical table needs the symmetry "
                             "of the official rows (red <-> yellow, green <-> blue, the two "
                             "pairs with the die flip)", rule="DA1")
        masks = tuple(x for x in range(1 << m) if x.bit_count() < sheet.closed_rows_to_end)
        offsets = np.full(1 << m, -1, dtype=np.int64)
        strides = np.zeros((1 << m, m), dtype=np.int64)
        size = 0
        for mask in masks:
            offsets[mask] = size
            stride = p
            for r in reversed([r for r in range(m) if not mask >> r & 1]):
                strides[mask, r] = stride
                stride *= n
            if mask == 0 and canonical:
                pairs = n * (n + 1) // 2
                stride = pairs * (pairs + 1) // 2 * p
            size += stride
        last = np.array([s[0] for s in states], dtype=np.int64)
        flag = np.array([s[1] for s in states], dtype=np.int64)
        cnt = np.array([s[2] for s in states], dtype=np.int64)
        next_new = np.full((n, length), -1, dtype=np.int64)
        next_sec = np.full(n, -1, dtype=np.int64)
        for c, (lc, fc, nc) in enumerate(states):
            for q in range(lc + 1, length - 1):
                next_new[c, q] = index[(q, 0, min(nc + 1, DA_SCORE_CAP))]
            if lc >= 0 and not fc:
                next_sec[c] = index[(lc, 1, min(nc + 1, DA_SCORE_CAP))]
        points = np.array([min(x, DA_SCORE_CAP) * (min(x, DA_SCORE_CAP) + 1) // 2
                           for x in range(DA_SCORE_CAP + 3)], dtype=np.float64)
        number_at = np.array(sheet.numbers, dtype=np.int64)
        return cls(m, length, p, n, canonical, masks, offsets, strides, size, last, flag,
                   cnt, next_new, next_sec, 2 * (last + 1) + flag, points, number_at, index)

    def row_code(self, sheet: Sheet, row: int) -> tuple[int, int]:
        """``(code, crosses)`` of an open row of ``sheet`` (crosses uncapped)."""
        colour = sheet.layout.locks[row]
        ci = colour.index
        mask = sheet.masks[ci]
        crosses = sheet.count(colour)
        if not mask:
            return 0, 0
        last = mask.bit_length() - 1
        flag = sheet.seconds[ci] >> last & 1
        return self.index[(last, flag, min(crosses, DA_SCORE_CAP))], crosses

    def locate(self, sheet: Sheet, closed: frozenset[Colour]) -> tuple[int, float] | None:
        """``(index, closed points)`` of a running position's values (its lane 0), or None
        when the game is over (R13, R14)."""
        mask = 0
        points = 0.0
        for r, colour in enumerate(sheet.layout.locks):
            if sheet.masks[colour.index] & sheet.layout.lock_bits[colour.index] \
                    or colour in closed:
                mask |= 1 << r
                points += sheet.row_score(colour)
        if self.offsets[mask] < 0 or sheet.penalties >= self.penalties:
            return None
        codes = [0 if mask >> r & 1 else self.row_code(sheet, r)[0] for r in range(self.rows)]
        if mask == 0 and self.canonical:
            a, b, c, d = codes
            index = canonical_pair(canonical_pair(a, b), canonical_pair(c, d)) \
                * self.penalties
        else:
            index = int(self.offsets[mask]) + sum(
                int(self.strides[mask, r]) * code for r, code in enumerate(codes))
        return index + sheet.penalties, points


def canonical_pair(a: int, b: int) -> int:
    """The index of the unordered pair {a, b}: T(max) + min (in Python, for look-ups)."""
    return a * (a + 1) // 2 + b if a >= b else b * (b + 1) // 2 + a


def _is_wreath(sheet: SheetLayout) -> bool:
    """Whether ``sheet`` has four rows, rows 0 and 1 alike, rows 2 and 3 alike, and rows
    2, 3 the die flip (n -> 14 - n) of rows 0, 1: S2 wr S2 keeps every row's code."""
    rows = sheet.numbers
    return (len(rows) == 4 and rows[0] == rows[1] and rows[2] == rows[3]
            and tuple(14 - x for x in rows[0]) == rows[2])


@jit(inline=True)
def canonical_index(a: int, b: int, c: int, d: int) -> int:
    """The configuration index of the open codes ``(a, b, c, d)`` in the canonical table:
    the same for every image under S2 wr S2 (swap a, b; swap c, d; swap the pairs)."""
    p1 = a * (a + 1) // 2 + b if a >= b else b * (b + 1) // 2 + a
    p2 = c * (c + 1) // 2 + d if c >= d else d * (d + 1) // 2 + c
    return p1 * (p1 + 1) // 2 + p2 if p1 >= p2 else p2 * (p2 + 1) // 2 + p1


@jit(inline=True)
def _tri(a: int, b: int) -> int:
    """The index of the unordered pair {a, b}: T(max) + min (:func:`canonical_index`'s)."""
    return a * (a + 1) // 2 + b if a >= b else b * (b + 1) // 2 + a


@jit(inline=True)
def _index(offsets: IntArray, strides: IntArray, canonical: bool, mask: int, codes: IntArray,
           n_codes: int) -> int:
    """Where the values (lane 0) of the running configuration ``codes`` of table ``mask``
    start."""
    if mask == 0 and canonical:
        return int(offsets[0] + canonical_index(codes[0], codes[1], codes[2],
                                                codes[3]) * strides[0, 3])
    idx = int(offsets[mask])
    for r in range(codes.shape[0]):
        if not mask >> r & 1:
            idx += int(strides[mask, r] * codes[r])
    return idx


@jit(inline=True)
def _into(out: FloatArray, data: FloatArray, offsets: IntArray, strides: IntArray,
          canonical: bool, n_codes: int, points: FloatArray, P: int, mask: int, shut: int,
          open_rows: IntArray, codes: IntArray, cnt: IntArray) -> None:
    """``out[x]``: W of the current table after a turn that leaves the open rows at
    ``codes`` (their crosses ``cnt``; the rows of ``shut`` closed this turn), x penalties."""
    new_mask = mask | shut
    total = 0.0
    if offsets[new_mask] < 0:  # enough rows closed: the game is over
        for t in range(open_rows.shape[0]):
            total += points[min(cnt[open_rows[t]], points.shape[0] - 1)]
        for x in range(P):
            out[x] = total - PENALTY * x
        return
    for t in range(open_rows.shape[0]):
        r = open_rows[t]
        if shut >> r & 1:
            total += points[min(cnt[r], points.shape[0] - 1)]
    idx = _index(offsets, strides, canonical, new_mask, codes, n_codes)
    for x in range(P):
        out[x] = total + data[np.uintp(idx + x)]


@jit(inline=True)
def _mark(codes: IntArray, cnt: IntArray, row: int, q: int, code_last: IntArray,
          code_flag: IntArray, code_cnt: IntArray, next_new: IntArray, next_sec: IntArray,
          length: int, threshold: int) -> int:
    """Cross position ``q`` of open ``row`` in place: 1 a new number, 2 a second cross,
    3 the last number (the row closes, its lock box too), 0 if not legal (R7, R8, DA1,
    DA3, DA5)."""
    c = codes[row]
    last = code_last[c]
    if q == last:
        if code_flag[c] != 0:
            return 0
        codes[row] = next_sec[c]
        cnt[row] = code_cnt[codes[row]]
        return 2
    if q < last:
        return 0
    if q == length - 1:
        if cnt[row] < threshold:
            return 0
        cnt[row] += 2
        return 3
    codes[row] = next_new[c, q]
    cnt[row] = code_cnt[codes[row]]
    return 1


@jit()
def _plans(data: FloatArray, offsets: IntArray, strides: IntArray, canonical: bool,
           n_codes: int, code_last: IntArray, code_flag: IntArray, code_cnt: IntArray,
           next_new: IntArray, next_sec: IntArray, number_at: IntArray, points: FloatArray,
           length: int, threshold: int, P: int, a2_after_end: bool, same_turn: bool,
           mask: int, open_rows: IntArray, codes: IntArray, one: FloatArray, m2: FloatArray,
           tmp: FloatArray, work: IntArray, lk_index: IntArray, lk_target: IntArray,
           lk_values: FloatArray) -> None:
    """Fill ``one`` and ``m2`` (as :func:`qwixx_math.solver.kernel.turn_values` reads them)
    for the configuration ``codes`` of table ``mask``: every plan, looked up.

    Two marks in different rows i < j lead to one state whichever comes first, so it is
    looked up once and serves both orders (each as legal as its first mark lets it be:
    R15 after a close that ends the game).  Each single mark is played once (its kind and
    code kept in ``work``); a plan that closes no row stays in table ``mask`` and is one
    look-up at the index of its codes (:func:`_index`), without :func:`_into`'s points.
    ``m2`` starts as action 2 alone (``one``'s value for every white sum), which is the
    -inf start and the max over it in one store.  (Every value is a table value plus
    +0.0 or a sum of points: no NaN and no -0.0, so the order of the maxima is free.)
    Those look-ups are listed (``lk_index``; ``lk_target``: the two ``m2`` cells, lane 0,
    the value competes for, the same cell twice for one order only), then loaded, then
    maximised, as :func:`qwixx_math.solver.kernel.solve_batch` gathers."""
    n_sums = 11
    k = open_rows.shape[0]
    m = codes.shape[0]
    one_stride = k * n_sums
    m2_stride = n_sums * one_stride
    for x in range(P * one_stride):
        one[np.uintp(x)] = -np.inf
    codes1 = work[0:m]
    cnt1 = work[m:2 * m]
    codes2 = work[2 * m:3 * m]
    cnt2 = work[3 * m:4 * m]
    cnt0 = work[4 * m:5 * m]
    # per single mark (r, q) at r * length + q: whether it ends the game (R15), its kind
    # (:func:`_mark`), and the row's code and crosses after it
    ended = work[5 * m:5 * m + m * length]
    kinds = work[5 * m + m * length:5 * m + 2 * m * length]
    after = work[5 * m + 2 * m * length:5 * m + 3 * m * length]
    after_cnt = work[5 * m + 3 * m * length:5 * m + 4 * m * length]
    keys = work[5 * m + 4 * m * length:5 * m + 5 * m * length]
    # where a plan that closes no row is: in the canonical table the index of the pair
    # of codes of rows 0, 1 and of rows 2, 3 (``keys``: a single mark's pair with its
    # row's new code), in a dense one ``base`` plus each mark's change (``keys``)
    use_canonical = canonical and mask == 0
    stride = strides[0, m - 1]
    if use_canonical:
        base = int(offsets[0])
        pair_of_0 = _tri(codes[0], codes[1])
        pair_of_1 = _tri(codes[2], codes[3])
    else:
        base = _index(offsets, strides, canonical, mask, codes, n_codes)
        pair_of_0 = pair_of_1 = 0
    for t in range(m):
        cnt0[t] = code_cnt[codes[t]]
        codes1[t] = codes[t]
        cnt1[t] = cnt0[t]
    for ii in range(k):
        i = open_rows[ii]
        for a in range(max(code_last[codes[i]], 0), length):
            w = i * length + a
            kind = _mark(codes1, cnt1, i, a, code_last, code_flag, code_cnt, next_new,
                         next_sec, length, threshold)
            kinds[w] = kind
            ended[w] = 0
            after[w] = codes1[i]
            after_cnt[w] = cnt1[i]
            if kind == 0:
                continue
            codes1[i] = codes[i]
            cnt1[i] = cnt0[i]
            s = number_at[i, a] - 2
            if kind != 3:  # no row closes: one look-up in this table
                key = (_tri(after[w], codes[i ^ 1]) if use_canonical
                       else strides[mask, i] * (after[w] - codes[i]))
                keys[w] = key
                idx = base + _tri(key, pair_of_1 if i < 2 else pair_of_0) * stride \
                    if use_canonical else base + key
                for x in range(P):
                    c = np.uintp(x * one_stride + ii * n_sums + s)
                    one[c] = max(one[c], 0.0 + data[np.uintp(idx + x)])  # action 1 alone
                continue
            ended[w] = offsets[mask | (1 << i)] < 0
            codes1[i] = after[w]
            cnt1[i] = after_cnt[w]
            _into(tmp, data, offsets, strides, canonical, n_codes, points, P, mask, 1 << i,
                  open_rows, codes1, cnt1)
            codes1[i] = codes[i]
            cnt1[i] = cnt0[i]
            for x in range(P):
                c = np.uintp(x * one_stride + ii * n_sums + s)
                one[c] = max(one[c], tmp[x])  # action 1 alone
    for x in range(P):  # the same cross as action 2 alone (die i), whatever the white sum
        for w in range(n_sums):
            for y in range(one_stride):
                m2[np.uintp((x * n_sums + w) * one_stride + y)] = \
                    one[np.uintp(x * one_stride + y)]
    n_lk = 0
    for ii in range(k):
        i = open_rows[ii]
        other_pair = pair_of_1 if i < 2 else pair_of_0
        for a in range(max(code_last[codes[i]], 0), length):
            wi = i * length + a
            kind = kinds[wi]
            if kind == 0:
                continue
            c1 = after[wi]
            n1 = after_cnt[wi]
            key1 = keys[wi]
            shut1 = (1 << i) if kind == 3 else 0
            first_ok = a2_after_end or not ended[wi]  # R15
            s = number_at[i, a] - 2
            if kind != 3 and first_ok:  # (R9: a row closed in action 1 takes its die out)
                # the same row again: right of the action-1 mark (R7), or its second cross
                for q in range(max(code_last[c1], 0), length):
                    if q == code_last[c1]:
                        if code_flag[c1] != 0 or (q == a and kind == 1 and not same_turn):
                            continue  # DA3; DA4: the number crossed in action 1
                        c2 = next_sec[c1]
                    elif q == length - 1:
                        if n1 < threshold:
                            continue  # R8
                        for t in range(m):  # the lock number closes row i
                            codes2[t] = codes[t]
                            cnt2[t] = cnt0[t]
                        codes2[i] = c1
                        cnt2[i] = n1 + 2
                        _into(tmp, data, offsets, strides, canonical, n_codes, points, P,
                              mask, 1 << i, open_rows, codes2, cnt2)
                        for x in range(P):
                            c = np.uintp(((x * n_sums + s) * k + ii) * n_sums
                                         + number_at[i, q] - 2)
                            m2[c] = max(m2[c], tmp[x])
                        continue
                    else:
                        c2 = next_new[c1, q]
                    t1 = (s * k + ii) * n_sums + number_at[i, q] - 2
                    lk_index[np.uintp(n_lk)] = (
                        base + _tri(_tri(c2, codes[i ^ 1]), other_pair) * stride
                        if use_canonical else base + strides[mask, i] * (c2 - codes[i]))
                    lk_target[np.uintp(2 * n_lk)] = t1
                    lk_target[np.uintp(2 * n_lk + 1)] = t1
                    n_lk += 1
            for jj in range(ii + 1, k):
                j = open_rows[jj]
                for q in range(max(code_last[codes[j]], 0), length):
                    wj = j * length + q
                    kind2 = kinds[wj]
                    if kind2 == 0:
                        continue
                    other_ok = a2_after_end or not ended[wj]
                    if not first_ok and not other_ok:
                        continue
                    n = number_at[j, q] - 2
                    if kind != 3 and kind2 != 3:  # no row closes: one look-up, listed
                        if not use_canonical:
                            idx = base + key1 + keys[wj]
                        elif i >> 1 != j >> 1:
                            idx = base + _tri(key1, keys[wj]) * stride
                        else:  # rows 0, 1 or rows 2, 3: one pair changes
                            idx = base + _tri(_tri(c1, after[wj]), other_pair) * stride
                        t1 = (s * k + jj) * n_sums + n
                        lk_index[np.uintp(n_lk)] = idx
                        lk_target[np.uintp(2 * n_lk)] = t1
                        lk_target[np.uintp(2 * n_lk + 1)] = \
                            (n * k + ii) * n_sums + s if other_ok else t1
                        n_lk += 1
                        continue
                    for t in range(m):
                        codes2[t] = codes[t]
                        cnt2[t] = cnt0[t]
                    codes2[i] = c1
                    cnt2[i] = n1
                    codes2[j] = after[wj]
                    cnt2[j] = after_cnt[wj]
                    shut2 = shut1 | ((1 << j) if kind2 == 3 else 0)
                    _into(tmp, data, offsets, strides, canonical, n_codes, points, P, mask,
                          shut2, open_rows, codes2, cnt2)
                    if first_ok:  # action 1 (i, a), action 2 (j, q)
                        for x in range(P):
                            c = np.uintp(((x * n_sums + s) * k + jj) * n_sums + n)
                            m2[c] = max(m2[c], tmp[x])
                    if other_ok:  # action 1 (j, q), action 2 (i, a)
                        for x in range(P):
                            c = np.uintp(((x * n_sums + n) * k + ii) * n_sums + s)
                            m2[c] = max(m2[c], tmp[x])
    # the listed look-ups: all loads first (independent: the memory system serves many at
    # once), then the maxima
    for y in range(n_lk):
        idx = lk_index[np.uintp(y)]
        for x in range(P):
            lk_values[np.uintp(y * P + x)] = 0.0 + data[np.uintp(idx + x)]
    for y in range(n_lk):
        t1 = lk_target[np.uintp(2 * y)]
        t2 = lk_target[np.uintp(2 * y + 1)]
        for x in range(P):
            v = lk_values[np.uintp(y * P + x)]
            c = np.uintp(t1 + x * m2_stride)
            m2[c] = max(m2[c], v)
            c = np.uintp(t2 + x * m2_stride)
            m2[c] = max(m2[c], v)


@jit()
def _turn_values(P: int, k: int, score: float, one: FloatArray, m2: FloatArray,
                 vals: FloatArray, zv: FloatArray, zd: IntArray, sv: FloatArray,
                 sd: IntArray, products: IntArray) -> None:
    """:func:`qwixx_math.solver.kernel.turn_values` for this solver's calls only
    (solitaire, six-sided dice, every lane of ``P`` penalty boxes, no steps, no X-Change
    track): the same floating-point operations in the same order, so the same bits, with
    the dice, the sums and the digit base constants the compiler can use.  A double reads
    its one window twice (``max(y, y)`` is ``y``: no NaN) instead of testing per face."""
    one_stride = k * 11
    faces = 1
    for _ in range(k):
        faces *= 6
    for p in range(P - 1, -1, -1):
        # R11: a turn without a mark costs a penalty box (R13: the last one ends the game)
        pen = vals[p + 1] if p + 1 < P else score + 0.0 - PENALTY * P
        total = 0.0
        for w1 in range(1, 7):
            for w2 in range(w1, 7):
                s = w1 + w2 - 2
                b = pen
                for ii in range(k):
                    b = max(b, one[np.uintp(p * one_stride + ii * 11 + s)])
                # the faces that beat b, compacted branch-free, the others counted
                nz = 0
                idx = 0
                for jj in range(k):
                    first = (p * 11 + s) * one_stride + jj * 11 + w1 - 1
                    second = first + w2 - w1
                    at_most = 1
                    for c in range(6):
                        y = max(m2[np.uintp(first + c)], m2[np.uintp(second + c)])
                        zv[np.uintp(nz)] = y
                        zd[np.uintp(nz)] = 1 << 3 * jj
                        above = y > b
                        nz += above
                        at_most += 1 - above
                    idx += at_most << 3 * jj
                acc = expected_max(zv, zd, sv, sd, nz, idx, b, products)
                total += acc if w1 == w2 else 2.0 * acc
        vals[p] = total / (36.0 * faces)


@jit()
def solve_double_a_batch(data: FloatArray, offsets: IntArray, strides: IntArray,
                         canonical: bool, n_codes: int, code_last: IntArray,
                         code_flag: IntArray, code_cnt: IntArray, next_new: IntArray,
                         next_sec: IntArray, number_at: IntArray, points: FloatArray,
                         length: int, threshold: int, P: int, a2_after_end: bool,
                         same_turn: bool, mask: int, open_rows: IntArray, items: IntArray,
                         products: IntArray, pair_lo: IntArray, pair_hi: IntArray,
                         start: int, stop: int) -> None:
    """Solve the configurations ``items[start:stop]`` of table ``mask``: in a dense table
    the open rows' codes read as a base-``n_codes`` number (first open row most
    significant); in the canonical table a pair of pair indices ``lo * pairs + hi``
    (rows 0, 1 the pair ``lo``, rows 2, 3 the pair ``hi``, ``pair_lo``/``pair_hi`` the
    codes of a pair).  Every value they read must be final."""
    n_sums = 11
    k = open_rows.shape[0]
    m = strides.shape[1]
    pairs = pair_lo.shape[0]
    one = np.empty(P * k * n_sums)
    m2 = np.empty(P * n_sums * k * n_sums)
    vals = np.empty(P)
    tmp = np.empty(P)
    zv = np.empty(6 * k + 1)
    zd = np.empty(6 * k + 1, dtype=np.int64)
    sv = np.empty(6 * k + 1)
    sd = np.empty(6 * k + 1, dtype=np.int64)
    codes = np.zeros(m, dtype=np.int64)
    work = np.zeros(5 * m + 5 * m * length, dtype=np.int64)
    lk_index = np.empty((k * length) ** 2, dtype=np.int64)
    lk_target = np.empty(2 * lk_index.shape[0], dtype=np.int64)
    lk_values = np.empty(P * lk_index.shape[0])
    use_canonical = canonical and mask == 0
    for it in range(start, stop):
        item = items[it]
        if use_canonical:
            lo = item // pairs
            hi = item % pairs
            codes[0] = pair_lo[lo]
            codes[1] = pair_hi[lo]
            codes[2] = pair_lo[hi]
            codes[3] = pair_hi[hi]
        else:
            rest = item
            for t in range(k):
                r = open_rows[k - 1 - t]
                codes[r] = rest % n_codes
                rest //= n_codes
        score = 0.0
        for t in range(k):
            score += points[code_cnt[codes[open_rows[t]]]]
        _plans(data, offsets, strides, canonical, n_codes, code_last, code_flag, code_cnt,
               next_new, next_sec, number_at, points, length, threshold, P, a2_after_end,
               same_turn, mask, open_rows, codes, one, m2, tmp, work, lk_index, lk_target,
               lk_values)
        _turn_values(P, k, score, one, m2, vals, zv, zd, sv, sd, products)
        base = _index(offsets, strides, canonical, mask, codes, n_codes)
        for p in range(P):
            data[np.uintp(base + p)] = vals[p]


@jit()
def _canonical_level(pair_level: IntArray, order: IntArray, level_start: IntArray,
                     level: int, pairs: int) -> IntArray:
    """The canonical configurations ``lo * pairs + hi`` (pair ``lo`` <= pair ``hi``) whose
    two pairs' levels sum to ``level``; ``order`` lists the pairs by level,
    ``level_start[h]`` where level h starts in it."""
    top = level_start.shape[0] - 1
    count = 0
    for h1 in range(max(0, level - top + 1), min(level, top - 1) + 1):
        h2 = level - h1
        if h2 < h1 or h2 >= top:
            continue
        n1 = level_start[h1 + 1] - level_start[h1]
        n2 = level_start[h2 + 1] - level_start[h2]
        count += n1 * (n1 + 1) // 2 if h1 == h2 else n1 * n2
    out = np.empty(count, dtype=np.int64)
    x = 0
    for h1 in range(max(0, level - top + 1), min(level, top - 1) + 1):
        h2 = level - h1
        if h2 < h1 or h2 >= top:
            continue
        for u in range(level_start[h1], level_start[h1 + 1]):
            p1 = order[u]
            for v in range(level_start[h2], level_start[h2 + 1]):
                p2 = order[v]
                if h1 == h2 and p2 < p1:
                    continue
                out[x] = min(p1, p2) * pairs + max(p1, p2)
                x += 1
    return out


#: ``progress(done, total)``, in units of solved configurations.
Progress = Callable[[int, int], None]


def _dense_levels(lay: DoubleALayout, k: int) -> tuple[IntArray, IntArray]:
    """Every configuration of ``k`` open rows, sorted by level, and where each level
    starts."""
    total = lay.n_codes**k
    level = np.zeros(total, dtype=np.int64)
    rest = np.arange(total, dtype=np.int64)
    for _ in range(k):
        level += lay.level_of[rest % lay.n_codes]
        rest //= lay.n_codes
    items = np.argsort(level, kind="stable").astype(np.int64)
    counts = np.bincount(level, minlength=int(level.max()) + 1)
    return items, np.concatenate(([0], np.cumsum(counts))).astype(np.int64)


class _Levels:
    """The configurations of one table, level by level (dense: all sorted at once;
    canonical: each level built when asked, :func:`_canonical_level`)."""

    def __init__(self, lay: DoubleALayout, mask: int, k: int, pair_lo: IntArray,
                 pair_hi: IntArray) -> None:
        self.canonical = mask == 0 and lay.canonical
        if self.canonical:
            self.pair_level = lay.level_of[pair_lo] + lay.level_of[pair_hi]
            self.order = np.argsort(self.pair_level, kind="stable").astype(np.int64)
            counts = np.bincount(self.pair_level)
            self.starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
            self.pairs = len(pair_lo)
            self.top = 2 * (len(self.starts) - 2)
        else:
            self.items, self.starts = _dense_levels(lay, k)
            self.top = len(self.starts) - 2

    def batch(self, level: int) -> IntArray:
        """The configurations of ``level``."""
        if self.canonical:
            return _canonical_level(self.pair_level, self.order, self.starts, level,
                                    self.pairs)
        return self.items[self.starts[level]:self.starts[level + 1]]


def solve_double_a(sheet: SheetLayout, action2_after_action1_end: bool, same_turn: bool,
                   pool: ThreadPoolExecutor | None, threads: int,
                   progress: Progress | None = None, canonical: bool | None = None
                   ) -> tuple[FloatArray, int, DoubleALayout]:
    """Every table of the second-cross pad ``sheet`` (solitaire): the flat value array, the
    number of configurations solved, and the layout.  ``canonical``: see
    :meth:`DoubleALayout.of`."""
    lay = DoubleALayout.of(sheet, canonical)
    data = np.empty(lay.size)
    data.fill(np.nan)
    n = lay.n_codes
    pair_lo = np.array([b for a in range(n) for b in range(a + 1)], dtype=np.int64)
    pair_hi = np.array([a for a in range(n) for b in range(a + 1)], dtype=np.int64)
    order_masks = sorted(lay.masks, key=lambda x: -x.bit_count())
    total = 0
    for mask in order_masks:
        k = lay.rows - mask.bit_count()
        if mask == 0 and lay.canonical:
            total += len(pair_lo) * (len(pair_lo) + 1) // 2
        else:
            total += n**k
    done = 0
    if progress is not None:
        progress(0, total)
    for mask in order_masks:
        open_rows = np.array([r for r in range(lay.rows) if not mask >> r & 1],
                             dtype=np.int64)
        k = len(open_rows)
        products = count_products(k, 8)
        levels = _Levels(lay, mask, k, pair_lo, pair_hi)
        for level in range(levels.top, -1, -1):
            batch = levels.batch(level)
            if len(batch) == 0:
                continue
            args = (data, lay.offsets, lay.strides, lay.canonical, n, lay.code_last,
                    lay.code_flag, lay.code_cnt, lay.next_new, lay.next_sec, lay.number_at,
                    lay.points, lay.length, sheet.lock_threshold, lay.penalties,
                    action2_after_action1_end, same_turn, mask, open_rows, batch, products,
                    pair_lo, pair_hi)
            size = len(batch)
            run_in_slices(pool, SLICES_PER_THREAD, threads, PARALLEL_MIN,
                          solve_double_a_batch, args, size)
            done += size
            if progress is not None:
                progress(done, total)
    return data, total, lay
