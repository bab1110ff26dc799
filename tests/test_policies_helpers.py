"""Helpers shared by the policy tests (no tests here): the compiled engine on row states."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from qwixx_math.policies import PriorityPolicy, engine
from qwixx_math.policies.geometry import geometry
from qwixx_math.policies.spec import PolicySpec
from qwixx_math.solver import RowState, TurnPlan, Variant
from qwixx_math.solver.plans import turn_outcomes
from qwixx_math.solver.state import encode_row, score

FloatArray = npt.NDArray[np.float64]
NO_TABLE = np.zeros(1)
NO_TABLE.flags.writeable = False


def state_of(variant: Variant, rows: Sequence[RowState]) -> tuple[int, npt.NDArray[np.int64]]:
    """(closed mask, codes) of row states."""
    mask = 0
    codes = np.zeros(variant.rows, dtype=np.int64)
    for i, r in enumerate(rows):
        if r.closed:
            mask |= 1 << i
        else:
            codes[i] = encode_row(r.last, r.marks)
    return mask, codes


def flat_index(variant: Variant, rows: Sequence[RowState], penalties: int) -> int:
    return geometry(variant).layout.locate(rows, penalties)[0]


def plan_of(variant: Variant, plan_id: int) -> TurnPlan:
    """The solver plan (row, number marks) of an engine plan id."""
    a1r, a1q, a2r, a2q = engine.decode_plan(plan_id, variant.rows, variant.row_length)
    a1 = None if a1r < 0 else (a1r, variant.number_at(a1r, a1q))
    a2 = None if a2r < 0 else (a2r, variant.number_at(a2r, a2q))
    return TurnPlan(a1, a2)


def engine_roll(spec: PolicySpec, variant: Variant, a2: bool, rows: Sequence[RowState],
                penalties: int, roll: tuple[int, int, dict[int, int]],
                vstar: FloatArray | None = None) -> tuple[dict[TurnPlan, float], TurnPlan]:
    """Every legal plan of the roll with its priority, and the engine's choice."""
    geo = geometry(variant)
    lay = geo.layout
    mask, codes = state_of(variant, rows)
    dice = np.ones(2 + variant.rows, dtype=np.int64)
    dice[0], dice[1] = roll[0], roll[1]
    for row, die in roll[2].items():
        dice[2 + row] = die
    size = engine.max_plans(variant.rows)
    plans = np.empty(size, dtype=np.int64)
    hs = np.empty(size)
    n, best = engine.roll_choice(
        lay.offsets, lay.strides, lay.code_last, lay.code_marks, lay.next_code, lay.pos_of,
        lay.die_at, geo.points, variant.row_length, variant.lock_threshold, variant.penalty_boxes,
        variant.closed_rows_to_end, a2, int(spec.kind), float(spec.param),
        vstar if vstar is not None else NO_TABLE, mask, codes, penalties, dice, plans, hs)
    found = {plan_of(variant, int(plans[x])): float(hs[x]) for x in range(n)}
    assert len(found) == n, "a plan listed twice"
    return found, plan_of(variant, int(plans[best]))


def engine_weights(spec: PolicySpec, variant: Variant, a2: bool, rows: Sequence[RowState],
                   penalties: int, vstar: FloatArray | None = None) -> Counter[TurnPlan]:
    """How many of the 36 * 6^k equally likely rolls lead to each plan (engine's sweep)."""
    geo = geometry(variant)
    mask, codes = state_of(variant, rows)
    open_rows = geo.open_rows(mask)
    k = len(open_rows)
    n_layers = variant.penalty_boxes if spec.needs_table else 1
    cell_h, cell_tb, cell_out, weights = engine._cell_scratch(n_layers, k)
    engine.config_weights(
        *geo.engine_args(), variant.row_length, variant.lock_threshold, variant.penalty_boxes,
        variant.closed_rows_to_end, a2, int(spec.kind), float(spec.param),
        vstar if vstar is not None else NO_TABLE, mask, open_rows, codes, n_layers,
        cell_h, cell_tb, cell_out, weights, *engine._sweep_scratch(k))
    layer = penalties if n_layers > 1 else 0
    out: Counter[TurnPlan] = Counter()
    for cell in range(weights.shape[1]):
        w = int(weights[layer, cell])
        if w:
            out[plan_of(variant, int(cell_tb[layer, cell]))] += w
    return out


def rows_game_score(policy: PriorityPolicy, variant: Variant, a2: bool,
                    dice: npt.NDArray[np.int8]) -> int:
    """One game on the solver's rows with the dice ``dice[t]`` of turn t (white 1, white 2,
    one die per row; a closed row's die unused), the Python policy choosing
    (``choose_rows``), the solver's ``turn_outcomes`` applying: the final score."""
    rows = (RowState(),) * variant.rows
    penalties = 0
    for turn in dice:
        roll = (int(turn[0]), int(turn[1]),
                {i: int(turn[2 + i]) for i, r in enumerate(rows) if not r.closed})
        chosen = policy.choose_rows(variant, a2, rows, penalties, roll)
        outcome = next(o for o in turn_outcomes(variant, a2, rows, penalties, roll)
                       if o.plan == chosen)
        rows, penalties = outcome.rows, outcome.penalties
        if outcome.game_over:
            return score(rows, penalties)
    raise AssertionError("the dice ran out before the game ended")
