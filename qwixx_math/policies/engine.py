"""The compiled policy engine: one solitaire turn, exact evaluation, forward propagation,
simulation (numba).

Every function here works on the solver's flat table layout
(:mod:`qwixx_math.solver.layout`): a state is a set of closed rows ``mask``, the
codes of the open rows and the penalties ``p``; its flat index is
``offsets[mask] + sum(strides[mask, r] * code[r]) + p``.

**One turn, one place.**  :func:`apply_plan` is the only statement of the turn's
rules in the engine (R5-R9, R11, R13-R15): given a state and a plan
(action-1 mark, action-2 mark as (row, position), ``-1`` for none) it says
whether the plan is legal and where it leads: the successor's flat index (for
``p = 0``), the points of the rows it closes, or the final points of the open
rows when the game ends, and the plan's features (marks, skips) for the
priority score of :func:`qwixx_math.policies.scoring.priority`.  The simulator's
per-roll choice (:func:`roll_choice`) calls it for every plan.  The per-state
option cache below calls it for every plan that marks a row's last number, and
takes a fast path for plain marks only (R7 as loop bounds; the successor is the
configuration's index plus each moved code's stride), which the tests check
against :func:`roll_choice` and the plain-Python references on every state of
small variants.

**Policies and the engine.**  ``kind`` and ``param`` are a
:class:`~qwixx_math.policies.spec.PolicySpec`; ``vstar`` is the solver's table
(read-only; a dummy for the heuristics).  Plans are integer ids, their rank in
the rules core's order (:func:`~qwixx_math.policies.scoring.tie_break`).

**Options per state.**  For one configuration the plans of every roll are
grouped in *cells* that depend on the white sum only (SOLVER.md's per-state
cache): the penalty; ``A1[S, i]``, mark the white sum ``S`` in row ``i`` only;
``C[S, j, n]``, the best (by priority, then tie-break) of every plan whose
action 2 marks number ``n`` in row ``j`` after the white sum ``S`` (action 1
anywhere, or nowhere).  A roll's best plan is the best of the penalty, the
``A1[S, .]`` cells and, for every open row ``j``, the cell of its colour die.

**Which cell wins, exactly.**  Given the whites, the colour dice are independent
and uniform, so (SOLVER.md's expected maximum, with ranks instead of values):
sort the colour options that beat the best base option (penalty or action 1
only); option ``(j, c)`` is the roll's choice with probability
``1/F * prod over k != j of (#faces of die k whose option ranks below it) / F``,
and the base option with ``prod_k (#faces of die k below it) / F``, for dice of
``F`` faces (6; 8 on Qwixx Longo, LG1: ``faces`` comes from the layout, as the
lock cells do, ``lock_cells``: either of a row's last ``lock_cells`` numbers
closes it, LG2).  These are integers in units of ``F^-k``; with the weight 1 or
2 of the white pair they add up to ``F^2 * F^k`` per state (``36 * 6^k`` with
six-sided dice), exactly.

**Step cells** (Qwixx Connected, the Steps, CS2: a fifth group scores T(total of
crossed step cells)).  The engine reads the solver's layout, whose values of one
configuration are its *lanes* ``s * P + p`` (step total ``s``, ``p`` penalties; ``s``
is always 0 on a sheet without steps).  ``step_at[row, position]`` is 1 on a step
cell; a plan that crosses ``a`` of them leads ``a * P`` lanes further
(:func:`apply_plan` adds that to its successor), a game that ends scores
``T(s + a)`` (``step_points``), and every loop over a configuration's values runs
over the step totals it can hold (:func:`step_range`, from the solver's
``step_lo``, ``step_hi`` and ``closed_steps``).

Policies whose priority ignores the penalty count and the step total (the
heuristics) decide once per configuration (one *layer*); the optimal policy decides
per lane (``P`` layers, times the step totals on a sheet with steps).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from ..jit import jit
from ..model import PENALTY_POINTS
from .scoring import priority, tie_break

__all__ = [
    "EngineArgs",
    "apply_plan",
    "cell_count",
    "config_weights",
    "decode_plan",
    "evaluate_batch",
    "evaluate_groups",
    "evaluate_tables_batch",
    "forward_active",
    "forward_scatter",
    "forward_weights",
    "max_plans",
    "n_lanes",
    "penalty_value",
    "plan_value",
    "roll_choice",
    "simulate_games",
    "step_range",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The variant as the engine reads it, one argument of every kernel that plays a turn
#: (:meth:`qwixx_math.policies.geometry.Geometry.engine_args`): the solver's layout
#: ``(offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at)``,
#: the rows' integer ``points``, the step cells ``(step_at, step_points, step_lo,
#: step_hi, closed_steps)`` (CS2), then ``n_codes`` (the codes of an open row),
#: ``length`` (a row's cells), ``faces`` (LG1), ``lock_cells`` (LG2), ``threshold``
#: (R8), ``penalties`` (the penalty boxes, R13), ``to_end`` (the closed rows that end
#: the game, R14) and ``a2_after_end`` (R15's option).  Each kernel unpacks it in the
#: same order; numba passes a tuple's fields as separate arguments, so this costs nothing.
EngineArgs = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray,
                   IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray,
                   int, int, int, int, int, int, int, bool]

#: Points per penalty box (R17), an integer here (the solver's kernel works in floats).
PENALTY = PENALTY_POINTS
#: ``apply_plan`` status values.
ILLEGAL = -1
GOES_ON = 0
GAME_OVER = 1


_ILLEGAL = (ILLEGAL, 0, 0, 0, 0, 0, 0, 0)


@jit()
def apply_plan(
    offsets: IntArray, strides: IntArray, code_last: IntArray, code_marks: IntArray,
    next_code: IntArray, die_at: IntArray, points: IntArray, step_at: IntArray, boxes: int,
    length: int, lock_cells: int, threshold: int,
    to_end: int, a2_after_end: bool, mask: int, codes: IntArray,
    a1_row: int, a1_pos: int, a2_row: int, a2_pos: int,
) -> tuple[int, int, int, int, int, int, int, int]:
    """One plan that marks something, from a state before its roll (the dice are assumed
    to allow the numbers; legality of the marks themselves is checked here).

    Returns ``(status, successor, closed_points, final_points, new_mask, marks,
    skip_total, skip_max)``: ``status`` is ILLEGAL, GOES_ON (``successor`` is the
    flat index of the state after the turn in the lane of no penalty and the same step
    total, moved by ``boxes`` lanes per step cell the plan crosses; ``closed_points`` the
    points of the rows this turn closed) or GAME_OVER (``final_points``: the points
    of every row that was open before the turn, after it; ``successor``: the step cells
    the plan crosses, whose points T(total) the caller adds, CS2).

    ``step_at[row, position]`` is 1 on a step cell (Qwixx Connected, the Steps, CS2), else
    0; ``boxes`` the penalty boxes (the lanes of one step total, :mod:`..solver.layout`).

    ``die_at[row, position]`` is the die (the row it locks) whose colour a cell has, -1
    for none: action 2 at a cell uses that die, which must still be in play after
    action 1 (R6, R9; on the official sheet the cell's own row's die).
    ``next_code[row, code, q]`` is the row's code after marking position q: per row, since
    on a sheet with double cells a mark may add two crosses (DB1), which R8 and R16 count.
    """
    m = codes.shape[0]
    new_mask = mask
    skip_total = 0
    skip_max = 0
    n_marks = 0
    closed_points = 0
    crossed = 0  # step cells (CS2)
    c1 = -1
    k1 = 0
    if a1_row >= 0:
        if (mask >> a1_row) & 1:
            return _ILLEGAL  # R9: the row is closed
        c = codes[a1_row]
        last = code_last[c]
        n = code_marks[c]
        if a1_pos <= last or a1_pos >= length:
            return _ILLEGAL  # R7
        s = a1_pos - last - 1
        if a1_pos >= length - lock_cells:  # a lock number (LG2: either of the last two)
            if n < threshold:
                return _ILLEGAL  # R8
            new_mask |= 1 << a1_row
            k1 = n + 2
            closed_points += points[k1]
        else:
            c1 = next_code[a1_row, c, a1_pos]
            k1 = code_marks[c1]  # a double cell gives two crosses (DB1)
        skip_total += s
        skip_max = s
        n_marks = 1
        crossed += step_at[a1_row, a1_pos]
        if a2_row >= 0 and not a2_after_end:
            closed = 0
            for r in range(m):
                closed += (new_mask >> r) & 1
            if closed >= to_end:
                return _ILLEGAL  # R15: the game ended in action 1
    c2 = -1
    k2 = 0
    if a2_row >= 0:
        if (new_mask >> a2_row) & 1:
            return _ILLEGAL  # R9: closed before, or in action 1 (its die left play)
        if a2_row == a1_row:
            c = c1
            last = a1_pos
            n = k1
        else:
            c = codes[a2_row]
            last = code_last[c]
            n = code_marks[c]
        if a2_pos <= last or a2_pos >= length:
            return _ILLEGAL  # R7 (the action-1 mark is written first)
        die = die_at[a2_row, a2_pos]
        if die < 0 or (new_mask >> die) & 1:
            return _ILLEGAL  # R6/R9: no die has the cell's colour, or it left play
        s = a2_pos - last - 1
        if a2_pos >= length - lock_cells:
            if n < threshold:
                return _ILLEGAL  # R8 (the action-1 mark counts)
            new_mask |= 1 << a2_row
            k2 = n + 2
            closed_points += points[k2]
        else:
            c2 = next_code[a2_row, c, a2_pos]
            k2 = code_marks[c2]
        skip_total += s
        skip_max = max(skip_max, s)
        n_marks += 1
        crossed += step_at[a2_row, a2_pos]
    closed = 0
    for r in range(m):
        closed += (new_mask >> r) & 1
    if closed >= to_end:  # R14
        final = 0
        for r in range(m):
            if (mask >> r) & 1:
                continue
            if r == a2_row:
                final += points[k2]
            elif r == a1_row:
                final += points[k1]
            else:
                final += points[code_marks[codes[r]]]
        return (GAME_OVER, crossed, 0, final, new_mask, n_marks, skip_total, skip_max)
    successor = offsets[new_mask] + crossed * boxes
    for r in range(m):
        if (new_mask >> r) & 1:
            continue
        if r == a2_row:
            code = c2
        elif r == a1_row:
            code = c1
        else:
            code = codes[r]
        successor += strides[new_mask, r] * code
    return (GOES_ON, successor, closed_points, 0, new_mask, n_marks, skip_total, skip_max)


@jit(inline=True)
def decode_plan(plan: int, rows: int, length: int) -> tuple[int, int, int, int]:
    """``(a1_row, a1_pos, a2_row, a2_pos)`` of a plan id (its :func:`tie_break` rank)."""
    k1 = plan // (rows * length + 1)
    k2 = plan % (rows * length + 1)
    a1r = -1
    a1q = -1
    a2r = -1
    a2q = -1
    if k1 > 0:
        a1r = (k1 - 1) // length
        a1q = (k1 - 1) % length
    if k2 > 0:
        a2r = (k2 - 1) // length
        a2q = (k2 - 1) % length
    return a1r, a1q, a2r, a2q


@jit(inline=True)
def plan_value(status: int, successor: int, closed_points: int, final_points: int, lane: int,
               boxes: int, step_points: IntArray, vstar: FloatArray) -> float:
    """The optimal policy's ``value`` feature of a marking plan in ``lane`` (step total
    ``lane // boxes``, ``lane % boxes`` penalties; the lane is the penalty count on a sheet
    without steps): the optimal expected final score after it, less the points of rows
    closed before.  A plan that ends the game scores T(step total after it) (CS2)."""
    if status == GAME_OVER:
        return float(final_points + step_points[lane // boxes + successor]
                     - PENALTY * (lane % boxes))
    return float(closed_points + vstar[successor + lane])


@jit(inline=True)
def penalty_value(base: int, lane: int, boxes: int, open_points: int, step_points: IntArray,
                  vstar: FloatArray) -> float:
    """The same for the penalty (R11; the last box ends the game, R13)."""
    p = lane % boxes
    if p + 1 >= boxes:
        return float(open_points + step_points[lane // boxes] - PENALTY * (p + 1))
    return float(vstar[base + lane + 1])


@jit(inline=True)
def step_range(step_lo: IntArray, step_hi: IntArray, closed_steps: IntArray, mask: int,
               open_rows: IntArray, codes: IntArray) -> tuple[int, int]:
    """The step totals (CS2) a configuration can hold, ``(lowest, highest)``: its open rows'
    (:attr:`qwixx_math.solver.layout.Layout.step_lo`, ``step_hi``) plus up to every step
    cell of its closed rows; ``(0, 0)`` on a sheet without steps."""
    lo = 0
    hi = closed_steps[mask]
    for t in range(open_rows.shape[0]):
        r = open_rows[t]
        lo += step_lo[r, codes[r]]
        hi += step_hi[r, codes[r]]
    return lo, hi


@jit(inline=True)
def n_sums(faces: int) -> int:
    """The number of white sums (and of white + colour sums): 11 with six-sided dice, 15
    with Qwixx Longo's eight-sided ones (LG1)."""
    return 2 * faces - 1


@jit(inline=True)
def cell_count(k: int, faces: int) -> int:
    """The number of cells of a configuration with ``k`` open rows (see :func:`_gather`)."""
    ns = n_sums(faces)
    return 1 + ns * k + ns * k * ns


@jit(inline=True)
def _better(h1: float, t1: int, h2: float, t2: int) -> bool:
    """Whether (h1, t1) ranks above (h2, t2): higher priority, then earlier plan."""
    return h1 > h2 or (h1 == h2 and t1 < t2)


@jit(inline=True)
def _offer(cell_h: FloatArray, cell_tb: IntArray, cell_out: IntArray, cell: int,
           lane_lo: int, lane_hi: int, boxes: int, step_points: IntArray,
           kind: int, param: float, vstar: FloatArray, status: int,
           successor: int, closed_points: int, final_points: int, new_mask: int, n_marks: int,
           skip_total: int, skip_max: int, tb: int) -> None:
    """Let a legal plan compete for ``cell`` in every layer (the optimal policy: one per lane
    ``lane_lo`` .. ``lane_hi`` - 1; a heuristic: layer 0); the winner's outcome is kept in
    ``cell_out[layer, cell]`` = (status, successor or, when the game ends, the step cells
    crossed, closed or final points, new mask)."""
    for p in range(lane_lo, lane_hi):
        v = plan_value(status, successor, closed_points, final_points, p, boxes, step_points,
                       vstar) if kind == 0 else 0.0
        h = priority(kind, param, n_marks, skip_total, skip_max, v)
        if _better(h, tb, cell_h[p, cell], cell_tb[p, cell]):
            cell_h[p, cell] = h
            cell_tb[p, cell] = tb
            cell_out[p, cell, 0] = status
            cell_out[p, cell, 1] = successor
            cell_out[p, cell, 2] = closed_points if status == GOES_ON else final_points
            cell_out[p, cell, 3] = new_mask


@jit()
def _gather(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray,
    mask: int, open_rows: IntArray, codes: IntArray, base: int, open_points: int,
    lane_lo: int, lane_hi: int, cell_h: FloatArray, cell_tb: IntArray, cell_out: IntArray,
) -> None:
    """Fill the cells of one configuration (see the module docstring): the layers
    ``lane_lo`` .. ``lane_hi`` - 1 (the optimal policy's lanes; 0 .. 1 for a heuristic).

    Cell 0 is the penalty, ``1 + S*k + t`` is A1[S, open row t], and
    ``1 + ns*k + (S*k + t)*ns + n - 2`` is C[S, open row t, n] (``ns`` = 2F - 1 sums:
    11 with six-sided dice, 15 with eight-sided ones).

    Plain marks (no row closes: the same table, one or two codes move up) take a
    fast path here: R7 is the loop bounds, the successor is ``base`` plus the
    stride of each moved code (plus ``penalties`` lanes per step cell marked, CS2).
    Every plan that marks a row's last number goes through :func:`apply_plan` (R8, R9,
    R14, R15).
    """
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    k = open_rows.shape[0]
    m = codes.shape[0]
    n_cells = cell_count(k, faces)
    ns = n_sums(faces)
    last_q = length - lock_cells  # the first lock number (LG2: Longo has two)
    for layer in range(lane_lo, lane_hi):
        for cell in range(n_cells):
            cell_h[layer, cell] = -np.inf
            cell_tb[layer, cell] = 1 << 62
    # the penalty (R11)
    pen_h = priority(kind, param, 0, 0, 0, 0.0)
    for layer in range(lane_lo, lane_hi):
        if kind == 0:
            pen_h = priority(kind, param, 0, 0, 0,
                             penalty_value(base, layer, penalties, open_points, step_points,
                                           vstar))
        cell_h[layer, 0] = pen_h
        cell_tb[layer, 0] = 0
    c_start = 1 + ns * k
    # action 2 only: the same for every white sum; computed into S = 0, then copied.
    # The cell of a mark is that of the die whose colour it has (die_t), which on the
    # official sheet is the row's own die; a cell of a colour not rolled takes no action 2.
    for tj in range(k):
        j = open_rows[tj]
        cj = codes[j]
        lj = code_last[cj]
        sj = strides[mask, j]
        for q in range(lj + 1, last_q):
            dq = _die_index(die_at, open_rows, j, q)
            if dq < 0:
                continue
            cell = c_start + dq * ns + number_at[j, q] - 2
            _offer(cell_h, cell_tb, cell_out, cell, lane_lo, lane_hi, penalties, step_points,
                   kind, param, vstar, GOES_ON,
                   base + sj * (next_code[j, cj, q] - cj) + penalties * step_at[j, q], 0, 0,
                   mask, 1, q - lj - 1, q - lj - 1,
                   tie_break(m, length, -1, -1, j, q))
        if code_marks[cj] >= threshold:  # the lock cells have the row's lock colour: die tj
            for lq in range(last_q, length):
                r = apply_plan(offsets, strides, code_last, code_marks, next_code, die_at,
                               points, step_at, penalties, length, lock_cells, threshold, to_end,
                               a2_after_end,
                               mask, codes, -1, -1, j, lq)
                if r[0] != ILLEGAL:
                    cell = c_start + tj * ns + number_at[j, lq] - 2
                    _offer(cell_h, cell_tb, cell_out, cell, lane_lo, lane_hi, penalties,
                           step_points, kind, param, vstar,
                           r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
                           tie_break(m, length, -1, -1, j, lq))
    block = k * ns
    for s in range(1, ns):
        for layer in range(lane_lo, lane_hi):
            for x in range(block):
                cell_h[layer, c_start + s * block + x] = cell_h[layer, c_start + x]
                cell_tb[layer, c_start + s * block + x] = cell_tb[layer, c_start + x]
                for y in range(4):
                    cell_out[layer, c_start + s * block + x, y] = cell_out[layer, c_start + x, y]
    # action 1 (the white sum s + 2 in row i), alone or followed by action 2
    for s in range(ns):
        for ti in range(k):
            i = open_rows[ti]
            q1 = pos_of[i, s + 2]
            ci = codes[i]
            li = code_last[ci]
            if q1 <= li:
                continue  # not in this row (-1), or R7
            if q1 >= last_q:  # action 1 closes row i: the general path for every plan
                if code_marks[ci] < threshold:
                    continue  # R8
                r = apply_plan(offsets, strides, code_last, code_marks, next_code, die_at,
                               points, step_at, penalties, length, lock_cells, threshold, to_end,
                               a2_after_end, mask,
                               codes,
                               i, q1, -1, -1)
                if r[0] == ILLEGAL:
                    continue
                _offer(cell_h, cell_tb, cell_out,
                       1 + s * k + ti, lane_lo, lane_hi, penalties, step_points, kind, param,
                       vstar, r[0],
                       r[1], r[2], r[3], r[4], r[5], r[6], r[7],
                       tie_break(m, length, i, q1, -1, -1))
                for tj in range(k):
                    j = open_rows[tj]
                    for q in range(code_last[codes[j]] + 1, length):
                        dq = _die_index(die_at, open_rows, j, q)
                        if dq < 0:
                            continue
                        r2 = apply_plan(offsets, strides, code_last, code_marks, next_code,
                                        die_at, points, step_at, penalties, length, lock_cells,
                                        threshold, to_end,
                                        a2_after_end, mask, codes, i, q1, j, q)
                        if r2[0] == ILLEGAL:
                            continue  # R9 (row i and its die left play), R7, R8, R15
                        cell = c_start + (s * k + dq) * ns + number_at[j, q] - 2
                        _offer(cell_h, cell_tb, cell_out, cell, lane_lo, lane_hi, penalties,
                               step_points, kind, param, vstar,
                               r2[0], r2[1], r2[2], r2[3], r2[4], r2[5], r2[6], r2[7],
                               tie_break(m, length, i, q1, j, q))
                continue
            c1 = next_code[i, ci, q1]
            b1 = base + strides[mask, i] * (c1 - ci) + penalties * step_at[i, q1]
            skip1 = q1 - li - 1
            _offer(cell_h, cell_tb, cell_out,
                   1 + s * k + ti, lane_lo, lane_hi, penalties, step_points, kind, param, vstar,
                   GOES_ON, b1,
                   0, 0, mask, 1, skip1, skip1, tie_break(m, length, i, q1, -1, -1))
            cells_s = c_start + s * k * ns - 2
            for tj in range(k):
                j = open_rows[tj]
                if j == i:
                    cj = c1
                    lj = q1
                else:
                    cj = codes[j]
                    lj = code_last[cj]
                sj = strides[mask, j]
                for q in range(lj + 1, last_q):
                    dq = _die_index(die_at, open_rows, j, q)
                    if dq < 0:
                        continue
                    skip2 = q - lj - 1
                    _offer(cell_h, cell_tb, cell_out,
                           cells_s + dq * ns + number_at[j, q], lane_lo, lane_hi, penalties,
                           step_points, kind, param,
                           vstar, GOES_ON,
                           b1 + sj * (next_code[j, cj, q] - cj) + penalties * step_at[j, q],
                           0, 0, mask, 2,
                           skip1 + skip2, max(skip1, skip2), tie_break(m, length, i, q1, j, q))
                if code_marks[cj] < threshold:
                    continue  # R8 (the action-1 mark counts): j may not close
                for lq in range(last_q, length):
                    r2 = apply_plan(offsets, strides, code_last, code_marks, next_code, die_at,
                                    points, step_at, penalties, length, lock_cells, threshold,
                                    to_end,
                                    a2_after_end, mask, codes, i, q1, j, lq)
                    if r2[0] != ILLEGAL:
                        _offer(cell_h, cell_tb, cell_out,
                               cells_s + tj * ns + number_at[j, lq], lane_lo, lane_hi, penalties,
                               step_points,
                               kind, param, vstar, r2[0], r2[1], r2[2], r2[3], r2[4], r2[5],
                               r2[6], r2[7], tie_break(m, length, i, q1, j, lq))


@jit(inline=True)
def _die_index(die_at: IntArray, open_rows: IntArray, row: int, position: int) -> int:
    """The open index of the die whose colour the cell (``row``, ``position``) has: -1 when
    no die has that colour or its row was closed before the turn (R9)."""
    die = die_at[row, position]
    for t in range(open_rows.shape[0]):
        if open_rows[t] == die:
            return t
    return -1


@jit()
def _sweep(k: int, faces: int, lane_lo: int, lane_hi: int, cell_h: FloatArray,
           cell_tb: IntArray,
weights: IntArray,
           zh: FloatArray, zt: IntArray, zj: IntArray, zc: IntArray, below: IntArray) -> None:
    """Integer weights (units of 1 / (F^2 * F^k), F = ``faces``) of every cell being the
    roll's choice."""
    n_cells = weights.shape[1]
    for layer in range(lane_lo, lane_hi):
        for cell in range(n_cells):
            weights[layer, cell] = 0
    ns = n_sums(faces)
    c_start = 1 + ns * k
    for w1 in range(1, faces + 1):
        for w2 in range(w1, faces + 1):
            s = w1 + w2 - 2
            mult = 1 if w1 == w2 else 2
            for layer in range(lane_lo, lane_hi):
                bh = cell_h[layer, 0]
                bt = cell_tb[layer, 0]
                bcell = 0
                for t in range(k):
                    cell = 1 + s * k + t
                    if _better(cell_h[layer, cell], cell_tb[layer, cell], bh, bt):
                        bh = cell_h[layer, cell]
                        bt = cell_tb[layer, cell]
                        bcell = cell
                nz = 0
                for tj in range(k):
                    row = c_start + (s * k + tj) * ns
                    count = 0
                    for c in range(1, faces + 1):
                        ca = row + w1 + c - 2
                        yh = cell_h[layer, ca]
                        yt = cell_tb[layer, ca]
                        yc = ca
                        if w2 != w1:
                            cb = row + w2 + c - 2
                            if _better(cell_h[layer, cb], cell_tb[layer, cb], yh, yt):
                                yh = cell_h[layer, cb]
                                yt = cell_tb[layer, cb]
                                yc = cb
                        if _better(yh, yt, bh, bt):
                            # insertion into the ascending list of options above the base
                            u = nz
                            while u > 0 and _better(zh[u - 1], zt[u - 1], yh, yt):
                                zh[u] = zh[u - 1]
                                zt[u] = zt[u - 1]
                                zj[u] = zj[u - 1]
                                zc[u] = zc[u - 1]
                                u -= 1
                            zh[u] = yh
                            zt[u] = yt
                            zj[u] = tj
                            zc[u] = yc
                            nz += 1
                        else:
                            count += 1
                    below[tj] = count
                prod = 1
                for tj in range(k):
                    prod *= below[tj]
                weights[layer, bcell] += mult * prod
                for u in range(nz):
                    tj = zj[u]
                    others = 1
                    for t in range(k):
                        if t != tj:
                            others *= below[t]
                    weights[layer, zc[u]] += mult * others
                    below[tj] += 1


@jit()
def _n_rolls(k: int, faces: int) -> float:
    """The number of ordered rolls with ``k`` coloured dice of F = ``faces`` sides: F^2 * F^k
    (36 * 6^k with six-sided dice)."""
    total = float(faces * faces)
    for _ in range(k):
        total *= faces
    return total


@jit()
def _config_base(offsets: IntArray, strides: IntArray, code_marks: IntArray, points: IntArray,
                 mask: int, open_rows: IntArray, codes: IntArray) -> tuple[int, int]:
    """``(base, open_points)`` of the configuration ``codes`` of table ``mask``: its flat
    index at ``p = 0`` and the points of its open rows."""
    base = offsets[mask]
    open_points = 0
    for t in range(open_rows.shape[0]):
        r = open_rows[t]
        base += strides[mask, r] * codes[r]
        open_points += points[code_marks[codes[r]]]
    return base, open_points


@jit()
def _cell_scratch(n_layers: int, k: int, faces: int) -> tuple[FloatArray, IntArray, IntArray,
IntArray]:
    """Work arrays of :func:`config_weights` for ``k`` open rows:
    ``(cell_h, cell_tb, cell_out, weights)``."""
    n_cells = cell_count(k, faces)
    return (np.empty((n_layers, n_cells)), np.empty((n_layers, n_cells), dtype=np.int64),
            np.empty((n_layers, n_cells, 4), dtype=np.int64),
            np.empty((n_layers, n_cells), dtype=np.int64))


@jit()
def _sweep_scratch(k: int, faces: int) -> tuple[FloatArray, IntArray, IntArray, IntArray, IntArray]:
    """Work arrays of :func:`_sweep` for ``k`` open rows: ``(zh, zt, zj, zc, below)``."""
    n = faces * k + 1
    return (np.empty(n), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
            np.empty(n, dtype=np.int64), np.empty(max(k, 1), dtype=np.int64))


@jit()
def config_weights(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray,
    mask: int, open_rows: IntArray, codes: IntArray,
    n_layers: int, cell_h: FloatArray, cell_tb: IntArray, cell_out: IntArray,
    weights: IntArray,
    zh: FloatArray, zt: IntArray, zj: IntArray, zc: IntArray, below: IntArray,
) -> tuple[int, int, int, int]:
    """The cells and their weights for the configuration ``codes`` of table ``mask``.

    Returns ``(base, open_points, s_lo, s_hi)``: the flat index at ``p = 0`` and no step
    cell, the points of the open rows and the step totals the configuration can hold
    (:func:`step_range`; 0, 0 on a sheet without steps).  Cell ``x`` of layer ``l`` is
    chosen with probability ``weights[l, x] / (F^2 * F^k)`` (F = ``faces``); its plan is
    ``cell_tb[l, x]`` (a plan id).  ``n_layers`` > 1 (the optimal policy): a layer per
    lane (``s * penalties + p``), filled for the lanes of ``s_lo`` .. ``s_hi`` only.
    """
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    k = open_rows.shape[0]
    base, open_points = _config_base(offsets, strides, code_marks, points, mask, open_rows,
                                     codes)
    s_lo, s_hi = step_range(step_lo, step_hi, closed_steps, mask, open_rows, codes)
    lane_lo = s_lo * penalties if n_layers > 1 else 0
    lane_hi = (s_hi + 1) * penalties if n_layers > 1 else 1
    _gather(sh, kind, param, vstar, mask, open_rows, codes, base, open_points, lane_lo,
            lane_hi, cell_h, cell_tb, cell_out)
    _sweep(k, faces, lane_lo, lane_hi, cell_h, cell_tb, weights, zh, zt, zj, zc, below)
    return base, open_points, s_lo, s_hi


@jit()
def _decode_config(config: int, open_rows: IntArray, n_codes: int, codes: IntArray) -> None:
    for t in range(open_rows.shape[0] - 1, -1, -1):
        codes[open_rows[t]] = config % n_codes
        config //= n_codes


@jit()
def _evaluate_items(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray, values: FloatArray,
    mask: int, open_rows: IntArray, items: IntArray, start: int, stop: int,
) -> None:
    """V_pi of ``items[start:stop]`` (configurations of table ``mask``), one after another."""
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    k = open_rows.shape[0]
    m = strides.shape[1]
    n_layers = n_lanes(penalties, step_points) if kind == 0 else 1
    cell_h, cell_tb, cell_out, weights = _cell_scratch(n_layers, k, faces)
    n_cells = cell_h.shape[1]
    zh, zt, zj, zc, below = _sweep_scratch(k, faces)
    codes = np.zeros(m, dtype=np.int64)
    total = _n_rolls(k, faces)
    for it in range(start, stop):
        _decode_config(items[it], open_rows, n_codes, codes)
        base, open_points, s_lo, s_hi = config_weights(
            sh, kind, param, vstar, mask, open_rows, codes, n_layers, cell_h, cell_tb, cell_out,
            weights, zh, zt, zj, zc, below)
        for s in range(s_lo, s_hi + 1):
            for p in range(penalties - 1, -1, -1):
                lane = s * penalties + p
                layer = lane if n_layers > 1 else 0
                values[base + lane] = _own_turn(weights, cell_out, layer, n_cells, values, 0,
                                                base, lane, penalties, open_points,
                                                step_points) / total


@jit(inline=True)
def n_lanes(penalties: int, step_points: IntArray) -> int:
    """The lanes of one configuration: penalty counts times step totals (CS2; the step
    totals are 0 .. len(step_points) - 3, one on a sheet without steps)."""
    return int(penalties * (step_points.shape[0] - 2))


@jit(inline=True)
def _own_turn(weights: IntArray, cell_out: IntArray, layer: int, n_cells: int,
              values: FloatArray, shift: int, base: int, lane: int, penalties: int,
              open_points: int, step_points: IntArray) -> float:
    """The weighted sum (units of 1 / (F^2 * F^k)) of V_pi after the own roll of the
    configuration at ``base`` in ``lane`` (step total ``lane // penalties``, ``lane %
    penalties`` penalties), the cells of ``layer`` deciding: the values after the turn are
    read at ``values[shift + index]`` (``shift`` = 0 in solitaire; in the table model,
    where level N - 1 of the evaluated table starts).  A game that ends scores the points
    T(step total) of its step cells (CS2)."""
    acc = 0.0
    p = lane % penalties
    s = lane // penalties
    w = weights[layer, 0]
    if w != 0:
        if p + 1 >= penalties:
            acc += w * float(open_points + step_points[s] - PENALTY * (p + 1))
        else:
            acc += w * values[shift + base + lane + 1]
    for cell in range(1, n_cells):
        w = weights[layer, cell]
        if w == 0:
            continue
        if cell_out[layer, cell, 0] == GAME_OVER:
            acc += w * float(cell_out[layer, cell, 2] + step_points[s + cell_out[layer, cell, 1]]
                             - PENALTY * p)
        else:
            acc += w * (cell_out[layer, cell, 2]
                        + values[shift + cell_out[layer, cell, 1] + lane])
    return acc


@jit(parallel=True)
def evaluate_batch(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray, values: FloatArray,
    mask: int, open_rows: IntArray, items: IntArray, chunk: int, parallel: bool,
) -> None:
    """V_pi of the independent configurations ``items`` of table ``mask``: with
    ``parallel`` on all cores, ``chunk`` items at a time, else on the calling thread
    (small batches, where waking the thread pool costs more than the work).

    Every value they read (later levels, tables with more closed rows) must be final.
    """
    n_items = items.shape[0]
    if not parallel:
        _evaluate_items(sh, kind, param, vstar, values, mask, open_rows, items, 0, n_items)
        return
    n_chunks = (n_items + chunk - 1) // chunk
    for ch in numba.prange(n_chunks):
        _evaluate_items(sh, kind, param, vstar, values, mask, open_rows, items,
                        ch * chunk, min(n_items, (ch + 1) * chunk))


@jit(inline=True)
def _sum_weight(s: int, faces: int) -> int:
    """The ordered white pairs (of F^2, F = ``faces``) whose sum is ``s + 2``: 1, 2, ..,
    F, .., 2, 1."""
    return faces - abs(s + 1 - faces)


@jit()
def _passive_choices(
    sh: EngineArgs, vpol: FloatArray, policy_players: int, level_size: int,
    mask: int, open_rows: IntArray, codes: IntArray, base: int,
    opt: IntArray, choice: IntArray,
) -> None:
    """The optimal-for-M policy's choice on another player's roll (table model), for every
    white sum ``S``, policy level ``L`` (0 .. M - 1) and penalty count ``p``.

    ``opt[S, t]`` = (status, successor, closed or final points) of marking the white
    sum in open row ``t`` (apply_plan with action 1 only: R7, R8, R14), status ILLEGAL
    when the sum cannot be marked there.  ``choice[L, p, S]`` is -1 (pass) or the open
    row ``t`` whose mark has the highest value ``vpol`` at level ``L`` (the M-table's
    values; the score when the mark ends the game); ties go to passing, then to the
    lowest row (the rules core's order: no mark first, then marks by row).  The table
    model plays sheets without step cells (CS2): lane = penalties.
    """
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    k = open_rows.shape[0]
    m = codes.shape[0]
    ns = n_sums(faces)
    for s in range(ns):
        for t in range(k):
            i = open_rows[t]
            q = pos_of[i, s + 2]
            opt[s, t, 0] = ILLEGAL
            if q < 0:
                continue
            r = apply_plan(offsets, strides, code_last, code_marks, next_code, die_at, points,
            step_at, penalties,
                           length, lock_cells,
                           threshold, to_end, False, mask, codes, i, q, -1, -1)
            opt[s, t, 0] = r[0]
            opt[s, t, 1] = r[1]
            opt[s, t, 2] = r[2] if r[0] == GOES_ON else r[3]
    for level in range(policy_players):
        shift = level * level_size
        for p in range(penalties):
            for s in range(ns):
                best_h = vpol[shift + base + p]
                best_tb = 0
                best = -1
                for t in range(k):
                    st = opt[s, t, 0]
                    if st == ILLEGAL:
                        continue
                    i = open_rows[t]
                    succ = opt[s, t, 1] if st == GAME_OVER else shift + opt[s, t, 1]
                    h = plan_value(st, succ, opt[s, t, 2], opt[s, t, 2], p, penalties,
                                   step_points, vpol)
                    tb = tie_break(m, length, i, pos_of[i, s + 2], -1, -1)
                    if _better(h, tb, best_h, best_tb):
                        best_h = h
                        best_tb = tb
                        best = t
                choice[level, p, s] = best


@jit()
def _evaluate_items_tables(
    sh: EngineArgs, vown: FloatArray, vpol: FloatArray, policy_players: int,
    level_size: int, values: FloatArray, table_start: IntArray, table_players: IntArray,
    mask: int, open_rows: IntArray, items: IntArray, start: int, stop: int,
) -> None:
    """V_pi of ``items[start:stop]`` at every level of every evaluated table, for the
    policy that is optimal for a table of M = ``policy_players`` (see
    :func:`evaluate_tables_batch`)."""
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    k = open_rows.shape[0]
    m = strides.shape[1]
    n_layers = penalties
    cell_h, cell_tb, cell_out, weights = _cell_scratch(n_layers, k, faces)
    n_cells = cell_h.shape[1]
    zh, zt, zj, zc, below = _sweep_scratch(k, faces)
    codes = np.zeros(m, dtype=np.int64)
    ns = n_sums(faces)
    opt = np.empty((ns, max(k, 1), 3), dtype=np.int64)
    choice = np.empty((policy_players, penalties, ns), dtype=np.int64)
    total = _n_rolls(k, faces)
    for it in range(start, stop):
        _decode_config(items[it], open_rows, n_codes, codes)
        base, open_points, _, _ = config_weights(
            sh, 0, 0.0, vown, mask, open_rows, codes, n_layers, cell_h, cell_tb, cell_out,
            weights, zh, zt, zj, zc, below)
        need_passive = False
        for x in range(table_players.shape[0]):
            need_passive = need_passive or table_players[x] > 1
        if need_passive:
            _passive_choices(sh, vpol, policy_players, level_size, mask, open_rows, codes, base,
                             opt, choice)
        for x in range(table_players.shape[0]):
            n_players = table_players[x]
            first = table_start[x]
            for p in range(penalties - 1, -1, -1):
                # this player's own roll (level 0): then the others roll n_players - 1 times
                values[first + base + p] = _own_turn(
                    weights, cell_out, p, n_cells, values,
                    first + (n_players - 1) * level_size, base, p, penalties,
                    open_points, step_points) / total
                # another player's roll (level K >= 1), leading to level K - 1; the
                # policy decides at its own level min(K - 1, M - 1)
                for lev in range(1, n_players):
                    shift = first + (lev - 1) * level_size
                    plev = min(lev - 1, policy_players - 1)
                    acc = 0.0
                    for s in range(ns):
                        t = choice[plev, p, s]
                        if t < 0:
                            v = values[shift + base + p]
                        elif opt[s, t, 0] == GAME_OVER:
                            v = float(opt[s, t, 2] - PENALTY * p)
                        else:
                            v = opt[s, t, 2] + values[shift + opt[s, t, 1] + p]
                        acc += _sum_weight(s, faces) * v
                    values[first + lev * level_size + base + p] = acc / (faces * faces)


@jit(parallel=True)
def evaluate_tables_batch(
    sh: EngineArgs, vown: FloatArray, vpol: FloatArray, policy_players: int,
    level_size: int, values: FloatArray, table_start: IntArray, table_players: IntArray,
    mask: int, open_rows: IntArray, items: IntArray, chunk: int, parallel: bool,
) -> None:
    """V_pi in the table model (docs/table.md) of the optimal policy of a table of
    M = ``policy_players``, played at tables of ``table_players[x]`` players, for the
    independent configurations ``items`` of table ``mask`` (as :func:`evaluate_batch`).

    ``vpol`` is the M-table (``M * level_size`` values, level-major) and ``vown`` its
    level M - 1 (the values after the policy's own turn, by which it ranks its plans).
    Table ``x``'s values, N = ``table_players[x]`` levels of ``level_size`` each, start at
    ``values[table_start[x]]``: level 0 is this player's own roll (the same plan
    choice whatever N, so the cells are gathered once for every table), level K >= 1
    another player's roll, on which the policy marks the white sum in a row or passes
    (:func:`_passive_choices`, at its level min(K - 1, M - 1)).
    """
    n_items = items.shape[0]
    if not parallel:
        _evaluate_items_tables(sh, vown, vpol, policy_players, level_size,
                               values, table_start, table_players, mask, open_rows, items,
                               0, n_items)
        return
    n_chunks = (n_items + chunk - 1) // chunk
    for ch in numba.prange(n_chunks):
        _evaluate_items_tables(sh, vown, vpol, policy_players, level_size,
                               values, table_start, table_players, mask, open_rows, items,
                               ch * chunk, min(n_items, (ch + 1) * chunk))


@jit()
def forward_active(
    offsets: IntArray, strides: IntArray, n_codes: int, lanes: int,
    mass: FloatArray, fwd_offsets: IntArray, n_cp: IntArray,
    mask: int, open_rows: IntArray, items: IntArray,
) -> IntArray:
    """The configurations among ``items`` that the game reaches (some probability mass in
    one of its ``lanes``: penalty counts times step totals)."""
    k = open_rows.shape[0]
    m = strides.shape[1]
    codes = np.zeros(m, dtype=np.int64)
    ncp = n_cp[mask]
    out = np.empty(items.shape[0], dtype=np.int64)
    n = 0
    for it in range(items.shape[0]):
        _decode_config(items[it], open_rows, n_codes, codes)
        base = offsets[mask]
        for t in range(k):
            base += strides[mask, open_rows[t]] * codes[open_rows[t]]
        first = fwd_offsets[mask] + (base - offsets[mask]) * ncp
        for x in range(lanes * ncp):
            if mass[first + x] != 0.0:
                out[n] = items[it]
                n += 1
                break
    return out[:n]


@jit(parallel=True)
def forward_weights(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray,
    mask: int, open_rows: IntArray, configs: IntArray,
    buf_weights: IntArray, buf_out: IntArray, buf_tb: IntArray, chunk: int,
) -> None:
    """The cells' weights and outcomes of every configuration in ``configs`` (independent
    work, on all cores): ``buf_weights[i]``, ``buf_out[i]`` for ``configs[i]``."""
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    k = open_rows.shape[0]
    m = strides.shape[1]
    n_layers = buf_weights.shape[1]
    n_cells = buf_weights.shape[2]
    n = configs.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ch in numba.prange(n_chunks):
        cell_h = np.empty((n_layers, n_cells))
        zh, zt, zj, zc, below = _sweep_scratch(k, faces)
        codes = np.zeros(m, dtype=np.int64)
        for i in range(ch * chunk, min(n, (ch + 1) * chunk)):
            _decode_config(configs[i], open_rows, n_codes, codes)
            config_weights(sh, kind, param, vstar, mask, open_rows, codes, n_layers, cell_h,
                           buf_tb[i], buf_out[i], buf_weights[i], zh, zt, zj, zc, below)


@jit()
def forward_scatter(
    sh: EngineArgs,
    mass: FloatArray, fwd_offsets: IntArray, n_cp: IntArray, cp_value: IntArray,
    cp_add: IntArray, hist: FloatArray, score_min: int,
    mask: int, open_rows: IntArray, configs: IntArray,
    buf_weights: IntArray, buf_out: IntArray,
) -> None:
    """Push the probability of ``configs`` (cells from :func:`forward_weights`) to their
    successors, on the calling thread (two configurations may feed the same state).

    ``mass`` holds, for every state and closed-points slot ``cp`` (the points of
    the rows closed so far, ``cp_value[cp]``), the probability that the game
    passes through it: index ``fwd_offsets[mask] + (flat - offsets[mask]) *
    n_cp[mask] + cp`` (``flat`` in the lane of the step total and penalties).  A game
    that ends adds its probability to ``hist[score - score_min]`` (the score counts
    T(step total), CS2).
    """
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    k = open_rows.shape[0]
    m = strides.shape[1]
    n_layers = buf_weights.shape[1]
    n_cells = buf_weights.shape[2]
    codes = np.zeros(m, dtype=np.int64)
    ncp = n_cp[mask]
    total = _n_rolls(k, faces)
    for i in range(configs.shape[0]):
        _decode_config(configs[i], open_rows, n_codes, codes)
        base, open_points = _config_base(offsets, strides, code_marks, points, mask,
                                         open_rows, codes)
        s_lo, s_hi = step_range(step_lo, step_hi, closed_steps, mask, open_rows, codes)
        first = fwd_offsets[mask] + (base - offsets[mask]) * ncp
        weights = buf_weights[i]
        cell_out = buf_out[i]
        for lane in range(s_lo * penalties, (s_hi + 1) * penalties):
            # ascending: the penalty feeds the next lane (p + 1) of this configuration
            p = lane % penalties
            s = lane // penalties
            layer = lane if n_layers > 1 else 0
            for cp in range(ncp):
                here = mass[first + lane * ncp + cp]
                if here == 0.0:
                    continue
                w = weights[layer, 0]
                if w != 0:
                    prob = here * (w / total)
                    if p + 1 >= penalties:  # R13
                        hist[cp_value[cp] + open_points + step_points[s] - PENALTY * (p + 1)
                             - score_min] += prob
                    else:
                        mass[first + (lane + 1) * ncp + cp] += prob
                for cell in range(1, n_cells):
                    w = weights[layer, cell]
                    if w == 0:
                        continue
                    prob = here * (w / total)
                    if cell_out[layer, cell, 0] == GAME_OVER:
                        hist[cp_value[cp] + cell_out[layer, cell, 2]
                             + step_points[s + cell_out[layer, cell, 1]] - PENALTY * p
                             - score_min] += prob
                    else:
                        nm = cell_out[layer, cell, 3]
                        ncp2 = n_cp[nm]
                        cp2 = cp_add[cp, cell_out[layer, cell, 2]] if ncp2 > 1 else 0
                        target = (fwd_offsets[nm]
                                  + (cell_out[layer, cell, 1] + lane - offsets[nm]) * ncp2 + cp2)
                        mass[target] += prob


@jit(inline=True)
def max_plans(rows: int) -> int:
    """An upper bound on the legal plans of one roll: the penalty, then per action 1 (none
    or one per row) no action 2 or one per die, white die and row."""
    return 1 + (rows + 1) * (2 * rows * rows + 1)


@jit()
def roll_choice(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray,
    mask: int, codes: IntArray, p: int, crossed: int, dice: IntArray,
    plans_out: IntArray, h_out: FloatArray,
) -> tuple[int, int]:
    """Every legal plan of one roll and the policy's choice, from the state ``mask``,
    ``codes``, ``p`` penalties and ``crossed`` step cells (CS2; 0 on a sheet without steps).

    ``dice`` = (white1, white2, die of row 0, die of row 1, ...) (die ``d`` has row
    ``d``'s lock colour; dice of closed rows are ignored).  Action 2 with die ``d`` marks
    a cell of its colour in any open row (``die_at``).  Writes the legal plan ids to
    ``plans_out`` (room for :func:`max_plans`) and their priorities to ``h_out``; returns
    ``(number of legal plans, index of the chosen one)``.
    """
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    m = codes.shape[0]
    w1 = dice[0]
    w2 = dice[1]
    s = w1 + w2
    base = offsets[mask]
    open_points = 0
    for r in range(m):
        if not (mask >> r) & 1:
            base += strides[mask, r] * codes[r]
            open_points += points[code_marks[codes[r]]]
    lane = crossed * penalties + p
    # the penalty
    v = penalty_value(base, lane, penalties, open_points, step_points, vstar) \
        if kind == 0 else 0.0
    best_h = priority(kind, param, 0, 0, 0, v)
    best_t = 0
    best = 0
    plans_out[0] = 0
    h_out[0] = best_h
    n = 1
    for a1 in range(-1, m):
        q1 = -1
        if a1 >= 0:
            if (mask >> a1) & 1:
                continue
            q1 = pos_of[a1, s]
            if q1 < 0:
                continue
        # action 2: white die wi + the die of row d, in a cell of that die's colour (row r)
        for d in range(-1, m):
            for wi in range(2):
                if d < 0:
                    if wi == 1:
                        break
                elif (mask >> d) & 1:
                    break  # not rolled (R9)
                elif wi == 1 and w1 == w2:
                    break  # both whites make the same number: one plan
                number = (w1 if wi == 0 else w2) + dice[2 + d] if d >= 0 else 0
                for r in range(-1, m):
                    q2 = -1
                    if d >= 0:
                        if r < 0 or (mask >> r) & 1:
                            continue
                        q2 = pos_of[r, number]
                        if q2 < 0 or die_at[r, q2] != d:
                            continue
                    elif r >= 0:
                        break
                    if a1 < 0 and d < 0:
                        continue
                    res = apply_plan(offsets, strides, code_last, code_marks, next_code, die_at,
                                     points, step_at, penalties, length, lock_cells, threshold,
                                     to_end, a2_after_end,
                                     mask,
                                     codes, a1, q1, r, q2)
                    if res[0] == ILLEGAL:
                        continue
                    v = (plan_value(res[0], res[1], res[2], res[3], lane, penalties,
                                    step_points, vstar) if kind == 0 else 0.0)
                    h = priority(kind, param, res[5], res[6], res[7], v)
                    tb = tie_break(m, length, a1, q1, r, q2)
                    plans_out[n] = tb
                    h_out[n] = h
                    if _better(h, tb, best_h, best_t):
                        best_h = h
                        best_t = tb
                        best = n
                    n += 1
    return n, best


@jit()
def _play_games(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray, dice: npt.NDArray[np.int8],
    scores: IntArray, turns: IntArray, start: int, stop: int,
) -> None:
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    m = strides.shape[1]
    codes = np.zeros(m, dtype=np.int64)
    roll = np.zeros(2 + m, dtype=np.int64)
    plans = np.empty(max_plans(m), dtype=np.int64)
    hs = np.empty(max_plans(m))
    max_turns = dice.shape[1]
    for g in range(start, stop):
        for r in range(m):
            codes[r] = 0
        mask = 0
        p = 0
        crossed = 0
        closed_points = 0
        score = -(1 << 40)
        for t in range(max_turns):
            for x in range(2 + m):
                roll[x] = dice[g, t, x]
            _n, best = roll_choice(sh, kind, param, vstar, mask, codes, p, crossed, roll, plans, hs)
            plan = plans[best]
            if plan == 0:  # the penalty (R11)
                p += 1
                if p >= penalties:  # R13
                    open_points = 0
                    for r in range(m):
                        if not (mask >> r) & 1:
                            open_points += points[code_marks[codes[r]]]
                    score = closed_points + open_points + step_points[crossed] - PENALTY * p
                    turns[g] = t + 1
                    break
                continue
            a1r, a1q, a2r, a2q = decode_plan(plan, m, length)
            res = apply_plan(offsets, strides, code_last, code_marks, next_code, die_at, points,
            step_at, penalties,
                             length, lock_cells, threshold, to_end, a2_after_end, mask, codes,
                             a1r, a1q, a2r, a2q)
            if res[0] == GAME_OVER:
                score = closed_points + res[3] + step_points[crossed + res[1]] - PENALTY * p
                turns[g] = t + 1
                break
            closed_points += res[2]
            # the new codes: read them back from the successor index
            new_mask = res[4]
            rest = res[1] - offsets[new_mask]
            for r in range(m):
                if (new_mask >> r) & 1:
                    codes[r] = 0
                else:
                    codes[r] = rest // strides[new_mask, r]
                    rest = rest % strides[new_mask, r]
            crossed += rest // penalties  # the lanes the step cells moved (CS2)
            mask = new_mask
        scores[g] = score


@jit(parallel=True)
def simulate_games(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray, dice: npt.NDArray[np.int8],
    scores: IntArray, turns: IntArray, chunk: int,
) -> None:
    """Play ``dice.shape[0]`` solitaire games, game ``g`` with the rolls ``dice[g]``
    (turn by turn: white1, white2, then one die per row; a closed row's die is
    ignored), and write each final score and number of turns.  Games are
    independent, so the result does not depend on how threads share them."""
    n_games = dice.shape[0]
    n_chunks = (n_games + chunk - 1) // chunk
    for ch in numba.prange(n_chunks):
        _play_games(sh, kind, param, vstar, dice, scores, turns, ch * chunk,
                    min(n_games, (ch + 1) * chunk))


@jit()
def _count_class_range(last: int, cls: int, threshold: int) -> tuple[int, int]:
    """The mark counts of an open row with its rightmost mark at ``last`` (-1: empty) in
    lock class ``cls``: 0 (count + 1 < threshold: no close this turn), 1 (count + 1 ==
    threshold: a close after this turn's action-1 mark in the row), 2 (count >= threshold).
    Returns ``(lo, hi)``, empty when lo > hi."""
    lo = 0 if last < 0 else 1
    hi = 0 if last < 0 else last + 1
    if cls == 0:
        hi = min(hi, threshold - 2)
    elif cls == 1:
        lo = max(lo, threshold - 1)
        hi = min(hi, threshold - 1)
    else:
        lo = max(lo, threshold)
    return lo, hi


@jit()
def _evaluate_groups(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray, values: FloatArray,
    mask: int, open_rows: IntArray, lasts: IntArray, start: int, stop: int,
) -> None:
    """V_pi of every configuration whose open rows have the rightmost marks ``lasts[g]``,
    for g in start..stop, for a policy whose priority reads only marks and skips.

    Such a policy's choice depends on a configuration only through each row's last
    position and lock class (:func:`_count_class_range`): the cells, their winning
    plans and their weights are computed once per class and shared by all its
    configurations.  A plain mark moves a code by an amount that does not depend on
    the count (code = 1 + last(last+1)/2 + count - 1), so the successor of a plain
    plan is the configuration's index plus the same offset; plans that close a row
    (whose points depend on the count) go through :func:`apply_plan` per configuration.
    """
    (offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at, points,
     step_at, step_points, step_lo, step_hi, closed_steps, n_codes, length, faces, lock_cells,
     threshold, penalties, to_end, a2_after_end) = sh
    k = open_rows.shape[0]
    m = strides.shape[1]
    cell_h, cell_tb, cell_out, weights = _cell_scratch(1, k, faces)
    n_cells = cell_h.shape[1]
    zh, zt, zj, zc, below = _sweep_scratch(k, faces)
    codes = np.zeros(m, dtype=np.int64)
    lo = np.zeros(max(k, 1), dtype=np.int64)
    hi = np.zeros(max(k, 1), dtype=np.int64)
    cnt = np.zeros(max(k, 1), dtype=np.int64)
    # the chosen cells of one class: plain (offset) and closing (plan id) ones
    plain_w = np.empty(n_cells, dtype=np.int64)
    plain_d = np.empty(n_cells, dtype=np.int64)
    close_w = np.empty(n_cells, dtype=np.int64)
    close_plan = np.empty(n_cells, dtype=np.int64)
    close_st = np.empty(n_cells, dtype=np.int64)
    close_succ = np.empty(n_cells, dtype=np.int64)
    close_pts = np.empty(n_cells, dtype=np.int64)
    total = _n_rolls(k, faces)
    n_classes = 1
    for _ in range(k):
        n_classes *= 3
    for g in range(start, stop):
        for cl in range(n_classes):
            rest = cl
            empty = False
            for t in range(k):
                a, b = _count_class_range(lasts[g, t], rest % 3, threshold)
                rest //= 3
                lo[t] = a
                hi[t] = b
                if a > b:
                    empty = True
            if empty:
                continue
            # the class's representative: the lowest counts
            for t in range(k):
                last = lasts[g, t]
                codes[open_rows[t]] = 0 if last < 0 else 1 + last * (last + 1) // 2 + lo[t] - 1
            base0, _, _, _ = config_weights(
                sh, kind, param, vstar, mask, open_rows, codes, 1, cell_h, cell_tb, cell_out,
                weights, zh, zt, zj, zc, below)
            pen_w = weights[0, 0]
            n_plain = 0
            n_close = 0
            for cell in range(1, n_cells):
                w = weights[0, cell]
                if w == 0:
                    continue
                if cell_out[0, cell, 0] == GOES_ON and cell_out[0, cell, 3] == mask:
                    plain_w[n_plain] = w
                    plain_d[n_plain] = cell_out[0, cell, 1] - base0
                    n_plain += 1
                else:
                    close_w[n_close] = w
                    close_plan[n_close] = cell_tb[0, cell]
                    n_close += 1
            # every configuration of the class (an odometer over the rows' counts)
            for t in range(k):
                cnt[t] = lo[t]
            while True:
                base = offsets[mask]
                open_points = 0
                for t in range(k):
                    r = open_rows[t]
                    last = lasts[g, t]
                    code = 0 if last < 0 else 1 + last * (last + 1) // 2 + cnt[t] - 1
                    codes[r] = code
                    base += strides[mask, r] * code
                    open_points += points[cnt[t]]
                for x in range(n_close):
                    a1r, a1q, a2r, a2q = decode_plan(close_plan[x], m, length)
                    res = apply_plan(offsets, strides, code_last, code_marks, next_code, die_at,
                                     points, step_at, penalties,
                                     length, lock_cells, threshold, to_end, a2_after_end, mask,
                                     codes,
                                     a1r, a1q, a2r, a2q)
                    close_st[x] = res[0]
                    close_succ[x] = res[1]
                    close_pts[x] = res[2] if res[0] == GOES_ON else res[3]
                s_lo, s_hi = step_range(step_lo, step_hi, closed_steps, mask, open_rows, codes)
                for lane in range((s_hi + 1) * penalties - 1, s_lo * penalties - 1, -1):
                    p = lane % penalties
                    steps = step_points[lane // penalties]
                    acc = 0.0
                    if pen_w != 0:
                        if p + 1 >= penalties:
                            acc += pen_w * float(open_points + steps - PENALTY * (p + 1))
                        else:
                            acc += pen_w * values[base + lane + 1]
                    for x in range(n_plain):
                        acc += plain_w[x] * values[base + plain_d[x] + lane]
                    for x in range(n_close):
                        if close_st[x] == GAME_OVER:
                            acc += close_w[x] * float(
                                close_pts[x] + step_points[lane // penalties + close_succ[x]]
                                - PENALTY * p)
                        else:
                            acc += close_w[x] * (close_pts[x] + values[close_succ[x] + lane])
                    values[base + lane] = acc / total
                # next counts
                t = k - 1
                while t >= 0:
                    cnt[t] += 1
                    if cnt[t] <= hi[t]:
                        break
                    cnt[t] = lo[t]
                    t -= 1
                if t < 0:
                    break


@jit(parallel=True)
def evaluate_groups(
    sh: EngineArgs, kind: int, param: float, vstar: FloatArray, values: FloatArray,
    mask: int, open_rows: IntArray, lasts: IntArray, chunk: int,
) -> None:
    """:func:`_evaluate_groups` of independent groups (one level of the sum of the rows'
    last positions; every mark moves a last position right) on all cores."""
    n = lasts.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for ch in numba.prange(n_chunks):
        _evaluate_groups(sh, kind, param, vstar, values, mask, open_rows, lasts, ch * chunk,
                         min(n, (ch + 1) * chunk))
