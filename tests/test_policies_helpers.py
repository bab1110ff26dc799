"""Helpers shared by the policy tests (no tests here): the compiled engine on the rules core's
positions (one-player :class:`GameState` of any layout), and random positions."""

from __future__ import annotations

from collections import Counter

import numpy as np
import numpy.typing as npt

from qwixx_math.keys import row_code, row_codes, table_index, uses_row_codes
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import Mark, Roll, TurnPlan
from qwixx_math.policies import engine
from qwixx_math.policies.geometry import geometry
from qwixx_math.policies.spec import PolicySpec
from qwixx_math.rules import GameState
from qwixx_math.solver import Variant

FloatArray = npt.NDArray[np.float64]
NO_TABLE = np.zeros(1)
NO_TABLE.flags.writeable = False


def engine_state(variant: Variant, state: GameState) -> tuple[int, npt.NDArray[np.int64]]:
    """(closed-row mask, open codes) of a one-player position, by the layout's rows."""
    sheet = state.sheets[0]
    mask = 0
    codes = np.zeros(variant.rows, dtype=np.int64)
    per_row = uses_row_codes(state.layout)  # double cells: the per-layout codes (DB1)
    for r, colour in enumerate(state.layout.locks):
        if colour in state.closed:
            mask |= 1 << r
        elif per_row:
            codes[r] = row_codes(state.layout).by_mask[r][sheet.masks[colour.index]]
        else:
            codes[r] = row_code(sheet.masks[colour.index])
    return mask, codes


def flat_index(variant: Variant, state: GameState) -> int:
    """Where a running position's value lives in the engine's flat table
    (:func:`qwixx_math.keys.table_index` on the geometry's offsets and strides; on a sheet
    with step cells, CS2, the open codes' strides plus the lane of the crossed step cells
    and the penalties, as :mod:`qwixx_math.solver.layout` lays them out)."""
    lay = geometry(variant).layout
    mask, codes = engine_state(variant, state)
    sheet = state.sheets[0]
    if state.layout.steps:
        return int(lay.offsets[mask] + sum(int(lay.strides[mask, r]) * int(codes[r])
                                           for r in range(variant.rows) if not mask >> r & 1)
                   + sheet.steps_crossed * variant.penalty_boxes + sheet.penalties)
    return table_index(sheet, mask, [int(x) for x in lay.offsets],
                       [[int(x) for x in row] for row in lay.strides])


def table_value(values: FloatArray, variant: Variant, state: GameState) -> float:
    """The value of a running position in a flat table of values of open rows: the points
    of its closed rows plus the table's entry."""
    sheet = state.sheets[0]
    closed = sum(sheet.row_score(c) for c in state.closed)
    return closed + float(values[flat_index(variant, state)])


def plan_of(layout: SheetLayout, plan_id: int) -> TurnPlan:
    """The rules core's plan of an engine plan id (marks as (row, position))."""
    rows, length = layout.rows, len(layout.numbers[0])
    a1r, a1q, a2r, a2q = engine.decode_plan(plan_id, rows, length)

    def mark(r: int, q: int) -> Mark | None:
        return None if r < 0 else Mark(layout.locks[r], layout.numbers[r][q])

    return TurnPlan(mark(a1r, a1q), mark(a2r, a2q))


def engine_dice(state: GameState, roll: Roll) -> npt.NDArray[np.int64]:
    """The engine's dice of ``roll``: white 1, white 2, the die of each row (1 if not
    rolled)."""
    locks = state.layout.locks
    dice = np.ones(2 + len(locks), dtype=np.int64)
    dice[0], dice[1] = roll.white
    for r, colour in enumerate(locks):
        face = roll.coloured[colour.index]
        if face is not None:
            dice[2 + r] = face
    return dice


def engine_roll(spec: PolicySpec, variant: Variant, state: GameState, roll: Roll,
                vstar: FloatArray | None = None) -> tuple[dict[TurnPlan, float], TurnPlan]:
    """Every legal plan of the roll with its priority, and the engine's choice."""
    geo = geometry(variant)
    mask, codes = engine_state(variant, state)
    a2 = state.ruleset.action2_after_action1_end
    size = engine.max_plans(variant.rows)
    plans = np.empty(size, dtype=np.int64)
    hs = np.empty(size)
    n, best = engine.roll_choice(
        geo.engine_args(a2), int(spec.kind), float(spec.param),
        vstar if vstar is not None else NO_TABLE, mask, codes, state.sheets[0].penalties,
        state.sheets[0].steps_crossed, engine_dice(state, roll), plans, hs)
    layout = state.layout
    found = {plan_of(layout, int(plans[x])): float(hs[x]) for x in range(n)}
    assert len(found) == n, "a plan listed twice"
    return found, plan_of(layout, int(plans[best]))


def engine_weights(spec: PolicySpec, variant: Variant, state: GameState,
                   vstar: FloatArray | None = None) -> Counter[TurnPlan]:
    """How many of the F^2 * F^k equally likely rolls (F faces, k open rows) lead to each
    plan (engine's sweep)."""
    geo = geometry(variant)
    mask, codes = engine_state(variant, state)
    open_rows = geo.open_rows(mask)
    k = len(open_rows)
    n_layers = geo.layout.lanes if spec.needs_table else 1
    cell_h, cell_tb, cell_out, weights = engine._cell_scratch(n_layers, k, variant.faces)
    engine.config_weights(
        geo.engine_args(state.ruleset.action2_after_action1_end), int(spec.kind),
        float(spec.param), vstar if vstar is not None else NO_TABLE, mask, open_rows, codes,
        n_layers, cell_h, cell_tb, cell_out, weights, *engine._sweep_scratch(k, variant.faces))
    sheet = state.sheets[0]
    layer = (sheet.steps_crossed * variant.penalty_boxes + sheet.penalties
             if n_layers > 1 else 0)
    out: Counter[TurnPlan] = Counter()
    for cell in range(weights.shape[1]):
        w = int(weights[layer, cell])
        if w:
            out[plan_of(state.layout, int(cell_tb[layer, cell]))] += w
    return out
