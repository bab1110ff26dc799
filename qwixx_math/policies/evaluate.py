"""Exact policy evaluation: V_pi of every state by backward dynamic programming.

V_pi(s) = sum over white pairs (weight 1 or 2 of 36) of E over the independent
colour dice of V_pi(the state after the plan pi chooses) -- computed over the
solver's state space in the solver's order (tables with more closed rows
first, then levels of fewer marks last), every configuration on its own (no
symmetry: a heuristic's ties are broken by row index, so V_pi need not be
symmetric).  The configurations of one level never read one another, so each
level is one parallel batch.  See :mod:`.engine` for the per-state arithmetic.

:func:`evaluate_table_model` does the same in the **table model** of N players
(docs/table.md; the model of :func:`qwixx_math.solver.solve` with ``players`` = N)
for the policy that is optimal for a table of M players, played at tables of any
N ("playing the wrong strategy", docs/policies.md): every state gets N values,
one per level K (other players' rolls before this player's own), in the solver's
level-major layout.  On its own roll the policy takes the plan of highest value
in the M-table at level M - 1 (what the M-model is at after an own turn).  On
another player's roll, with K - 1 more of them to come before its own, it marks
the white sum (or passes) by the M-table's value at level min(K - 1, M - 1): the
level its own model would be at when it has at least as many other players, and
else the most rolls it knows of (for the solitaire policy, M = 1, level 0: it
values every sheet by its solitaire value).  With M = N this is the table's
optimal policy, and V_pi is the solver's table (the tests check every state).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..errors import ParseError
from ..keys import uses_row_codes
from ..solver.engine import ProgressCallback
from ..solver.variant import Variant
from . import engine
from .geometry import Geometry, geometry, readonly_table
from .spec import PolicySpec

__all__ = ["Evaluation", "TableEvaluation", "evaluate_table_model", "evaluate_tables"]

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
    args = geo.engine_args(action2_after_action1_end)
    if not spec.needs_table and not uses_row_codes(variant.sheet):
        total = sum(len(geo.items(mask)[0]) for mask in geo.masks_backward)
        done = 0
        if progress is not None:
            progress(0, total)
        # decisions read marks and skips only: shared by configurations with the same
        # last positions and lock classes (engine._evaluate_groups)
        for mask in geo.masks_backward:
            open_rows = geo.open_rows(mask)
            for lasts in _lasts_by_level(variant.row_length - variant.lock_cells,
                                         len(open_rows)):
                engine.evaluate_groups(args, int(spec.kind), float(spec.param), table, values,
                                       mask, open_rows, lasts, GROUP_CHUNK)
                done += int(np.prod(np.maximum(lasts + 1, 1), axis=1).sum())
                if progress is not None:
                    progress(min(done, total), total)
        return Evaluation(spec, variant, action2_after_action1_end, values,
                          time.perf_counter() - start)
    # the optimal policy (its choice reads the penalties), and the heuristics on a sheet
    # with double cells (whose row codes are not the single-cell codes the groups assume)
    for mask, open_rows, batch in _backward_batches(geo, progress):
        engine.evaluate_batch(args, int(spec.kind), float(spec.param), table, values, mask,
                              open_rows, batch, CHUNK, len(batch) >= PARALLEL_MIN)
    return Evaluation(spec, variant, action2_after_action1_end, values,
                      time.perf_counter() - start)


@dataclass(frozen=True, eq=False, slots=True)
class TableEvaluation:
    """V_pi of the optimal policy of an M-table at tables of N players (table model)."""

    variant: Variant
    action2_after_action1_end: bool
    #: M: the table the policy is optimal for.
    policy_players: int
    #: ``values[N]``: V_pi at the N-table, flat, level-major (the solver's layout
    #: of ``players`` = N: level K at ``K * level_size``).
    values: dict[int, npt.NDArray[np.float64]]
    level_size: int
    seconds: float

    def seat_values(self, players: int) -> tuple[float, ...]:
        """V_pi of the empty sheet for seats 1..N (seat s: s - 1 other rolls before its own)."""
        values = self.values[players]
        return tuple(float(values[k * self.level_size]) for k in range(players))


def evaluate_table_model(
    variant: Variant,
    action2_after_action1_end: bool,
    vpol: npt.NDArray[np.float64],
    policy_players: int,
    table_players: tuple[int, ...],
    progress: ProgressCallback | None = None,
) -> TableEvaluation:
    """V_pi at tables of each of ``table_players`` (N = 1..5, distinct) of the optimal
    policy of the M-table ``vpol`` (the solver's flat data of ``players`` = M =
    ``policy_players``; see the module docstring).

    All tables are evaluated in one sweep (the own roll's plan choice, the costly
    part, is shared); the memory is ``sum(table_players)`` times the solitaire
    table's (337 MB each in the official game).
    """
    start = time.perf_counter()
    # the table model's passive turns (another player's roll) value lane p only
    variant.sheet.check_no_steps("the table model of the policy engine")
    geo = geometry(variant)
    lay = geo.layout
    size = lay.size
    if not 1 <= policy_players <= 5 or not table_players or len(set(table_players)) != len(
            table_players) or not all(1 <= n <= 5 for n in table_players):
        raise ParseError(f"R3: tables have 1 to 5 players (distinct), not M = {policy_players}, "
                         f"N = {table_players}")
    vpol = readonly_table(vpol, size * policy_players, True)
    vown = vpol[(policy_players - 1) * size:policy_players * size]
    players = np.array(table_players, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(players[:-1]) * size)).astype(np.int64)
    values = np.full(int(players.sum()) * size, np.nan)
    args = geo.engine_args(action2_after_action1_end)
    for mask, open_rows, batch in _backward_batches(geo, progress):
        engine.evaluate_tables_batch(args, vown, vpol, policy_players, size, values, starts,
                                     players, mask, open_rows, batch, CHUNK,
                                     len(batch) >= PARALLEL_MIN)
    out = {int(n): values[int(s):int(s) + int(n) * size] for n, s in zip(players, starts,
                                                                          strict=True)}
    return TableEvaluation(variant, action2_after_action1_end, policy_players, out, size,
                           time.perf_counter() - start)


def _backward_batches(geo: Geometry, progress: ProgressCallback | None
                      ) -> Iterator[tuple[int, npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    """``(mask, open_rows, batch)`` of every level of configurations in the order of the
    backward DP (tables with more closed rows first, then more marks first): the
    configurations of one batch never read one another.  Reports progress after each."""
    total = sum(len(geo.items(mask)[0]) for mask in geo.masks_backward)
    done = 0
    if progress is not None:
        progress(0, total)
    for mask in geo.masks_backward:
        items, level_start = geo.items(mask)
        open_rows = geo.open_rows(mask)
        for level in range(len(level_start) - 2, -1, -1):
            batch = items[level_start[level]:level_start[level + 1]]
            if len(batch) == 0:
                continue
            yield mask, open_rows, batch
            done += len(batch)
            if progress is not None:
                progress(done, total)


def _lasts_by_level(before_lock: int, k: int) -> list[npt.NDArray[np.int64]]:
    """Every vector of the open rows' last positions (-1 = empty, up to ``before_lock`` - 1,
    the cell before the first lock number), in batches of equal sum, highest sum first
    (every mark raises the sum)."""
    grid = np.asarray(np.indices((before_lock + 1,) * k).reshape(k, -1).T - 1, dtype=np.int64)
    sums = grid.sum(axis=1)
    return [np.ascontiguousarray(grid[sums == s]) for s in sorted(set(sums.tolist()),
                                                                  reverse=True)]
