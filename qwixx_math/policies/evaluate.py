"""Exact policy evaluation: V_pi of every state by backward dynamic programming.

V_pi(s) = sum over white pairs (weight 1 or 2 of 36) of E over the independent
colour dice of V_pi(the state after the plan pi chooses) -- computed over the
solver's state space in the solver's order (tables with more closed rows
first, then levels of fewer marks last), every configuration on its own (no
symmetry: a heuristic's ties are broken by row index, so V_pi need not be
symmetric).  The configurations of one level never read one another, so each
level is one parallel batch.  See :mod:`.engine` for the per-state arithmetic.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..solver.engine import ProgressCallback
from ..solver.variant import Variant
from . import engine
from .geometry import geometry, readonly_table
from .spec import PolicySpec

__all__ = ["Evaluation", "evaluate_tables"]

CHUNK = 8
PARALLEL_MIN = 128
GROUP_CHUNK = 4


@dataclass(frozen=True, eq=False, slots=True)
class Evaluation:
    """V_pi over the solver's layout (flat float64, like the solver's table)."""

    spec: PolicySpec
    variant: Variant
    action2_after_action1_end: bool
    values: npt.NDArray[np.float64]
    seconds: float

    @property
    def start_value(self) -> float:
        """V_pi of the empty sheet."""
        return float(self.values[0])


def evaluate_tables(
    spec: PolicySpec,
    variant: Variant,
    action2_after_action1_end: bool,
    vstar: npt.NDArray[np.float64] | None = None,
    progress: ProgressCallback | None = None,
) -> Evaluation:
    """V_pi of every state.  ``vstar`` (the solver's flat table) is needed by the
    optimal policy only."""
    start = time.perf_counter()
    geo = geometry(variant)
    lay = geo.layout
    table = readonly_table(vstar, lay.size, spec.needs_table)
    values = np.full(lay.size, np.nan)
    args = geo.engine_args()
    total = sum(len(geo.items(mask)[0]) for mask in geo.masks_backward)
    done = 0
    if progress is not None:
        progress(0, total)
    if not spec.needs_table:
        # decisions read marks and skips only: shared by configurations with the same
        # last positions and lock classes (engine._evaluate_groups)
        for mask in geo.masks_backward:
            open_rows = geo.open_rows(mask)
            for lasts in _lasts_by_level(variant.row_length, len(open_rows)):
                engine.evaluate_groups(
                    *args, variant.open_codes, variant.row_length, variant.lock_threshold,
                    variant.penalty_boxes, variant.closed_rows_to_end,
                    action2_after_action1_end, int(spec.kind), float(spec.param), table,
                    values, mask, open_rows, lasts, GROUP_CHUNK)
                done += int(np.prod(np.maximum(lasts + 1, 1), axis=1).sum())
                if progress is not None:
                    progress(min(done, total), total)
        return Evaluation(spec, variant, action2_after_action1_end, values,
                          time.perf_counter() - start)
    for mask in geo.masks_backward:
        items, level_start = geo.items(mask)
        open_rows = geo.open_rows(mask)
        for level in range(len(level_start) - 2, -1, -1):
            batch = items[level_start[level]:level_start[level + 1]]
            if len(batch) == 0:
                continue
            engine.evaluate_batch(
                *args, variant.open_codes, variant.row_length, variant.lock_threshold,
                variant.penalty_boxes, variant.closed_rows_to_end, action2_after_action1_end,
                int(spec.kind), float(spec.param), table, values, mask, open_rows, batch, CHUNK,
                len(batch) >= PARALLEL_MIN)
            done += len(batch)
            if progress is not None:
                progress(done, total)
    return Evaluation(spec, variant, action2_after_action1_end, values,
                      time.perf_counter() - start)


def _lasts_by_level(length: int, k: int) -> list[npt.NDArray[np.int64]]:
    """Every vector of the open rows' last positions (-1 = empty, up to length - 2), in
    batches of equal sum, highest sum first (every mark raises the sum)."""
    grid = np.asarray(np.indices((length,) * k).reshape(k, -1).T - 1, dtype=np.int64)
    sums = grid.sum(axis=1)
    return [np.ascontiguousarray(grid[sums == s]) for s in sorted(set(sums.tolist()),
                                                                  reverse=True)]
