"""The arrays the compiled engine reads, for one variant (built on the solver's layout)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..errors import ParseError
from ..layouts import SheetLayout
from ..solver import kernel as solver_kernel
from ..solver.layout import Layout
from ..solver.symmetry import trivial_group
from ..solver.variant import PENALTY_POINTS, Variant, row_points
from .engine import EngineArgs

__all__ = ["Geometry", "check_no_lucky", "check_policy_sheet", "geometry", "readonly_table"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def readonly_table(vstar: FloatArray | None, size: int, needed: bool) -> FloatArray:
    """The solver table as the engine takes it: a read-only contiguous float64 array (a
    one-element dummy when the policy does not read it).  Always read-only, so numba
    compiles the engine once for every policy and caller."""
    if needed:
        if vstar is None or vstar.shape != (size,):
            raise ParseError("the optimal policy needs the solver's table of this variant")
        table = np.ascontiguousarray(vstar, dtype=np.float64).view()
    else:
        table = np.zeros(1)
    table.flags.writeable = False
    return table


@dataclass(frozen=True, eq=False, slots=True)
class Geometry:
    """The solver's layout plus what policies need: integer row points, every
    configuration of every table in level order, and the closed-points slots of
    the forward propagation."""

    variant: Variant
    layout: Layout
    #: ``points[marks]`` as integers (R16; the layout's are floats).
    points: IntArray
    #: The tables in backward order (more closed rows first).
    masks_backward: tuple[int, ...]
    #: ``distinct sums of the points of closed rows`` (index 0 is 0 points).
    cp_value: IntArray
    #: ``cp_add[cp, d]``: the slot of ``cp_value[cp] + d`` (-1 if impossible).
    cp_add: IntArray
    #: Lowest and highest final score (R17; with T(every step cell), CS2).
    score_min: int
    score_max: int
    #: ``step_at[row, q]``: 1 on a step cell (CS2), else 0.
    step_at: IntArray
    #: ``step_points[s]``: T(s) for s = 0 .. steps + 1 (all 0 on a sheet without steps,
    #: whose only step total is 0): the engine's lanes are P times ``len - 2`` totals.
    step_points: IntArray

    def open_rows(self, mask: int) -> IntArray:
        return np.array(self.layout.open_rows(mask), dtype=np.int64)

    def items(self, mask: int) -> tuple[IntArray, IntArray]:
        """Every configuration of table ``mask`` by level (number of marks): ``(items,
        level_start)``, level ``l`` being ``items[level_start[l]:level_start[l + 1]]``."""
        return _items(self.variant, mask)

    def engine_args(self, action2_after_action1_end: bool) -> EngineArgs:
        """The variant as every kernel of :mod:`.engine` takes it (:data:`.engine.EngineArgs`):
        the solver's layout (``die_at[row, q]`` is the die, the row it locks, whose colour
        the cell has, -1 for none: the sheet's layout, issue 13), the integer row points,
        the step arrays that place the step cells and bound the step totals a configuration
        holds (CS2; the solver's :class:`~qwixx_math.solver.layout.Layout`), and the rules'
        numbers, R15's option ``action2_after_action1_end`` last."""
        lay = self.layout
        v = self.variant
        return (lay.offsets, lay.strides, lay.code_last, lay.code_marks, lay.row_next_code,
                lay.pos_of, lay.number_at, lay.die_at, self.points, self.step_at,
                self.step_points, lay.step_lo, lay.step_hi, lay.closed_steps, v.open_codes,
                v.row_length, v.faces, v.lock_cells, v.lock_threshold, v.penalty_boxes,
                v.closed_rows_to_end, action2_after_action1_end)


def check_no_lucky(sheet: SheetLayout) -> None:
    """Refuse (ParseError, LG3) a layout with lucky numbers: a lucky white sum changes
    action 1, which the policy engine does not play (the entry points call it before
    building the solver's Variant, which refuses them too, in the solver's name)."""
    if sheet.lucky:
        raise ParseError(f"the policy engine does not play lucky numbers (layout {sheet.name} "
                         f"has {sheet.lucky!r}); play the layout without them (e.g. "
                         f"{sheet.without_lucky().key})", rule="LG3")


def check_policy_sheet(variant: Variant) -> None:
    """Refuse (ParseError naming the rule) a sheet the policy engine does not play: chains,
    second crosses, bonus bars and lucky numbers (LG3: they change action 1).  Single and
    double cells (DB1) are both played, and so are Longo's 8-sided dice and two lock
    numbers (LG1, LG2: the dice's faces and the lock cells come from the layout) and the
    step cells of Qwixx Connected, the Steps (CS2: the step total is in the state, as in
    the solver's lanes)."""
    sheet = variant.sheet
    check_no_lucky(sheet)
    sheet.check_no_chain("the policy engine")
    sheet.check_no_second_crosses("the policy engine")
    sheet.check_no_bonus("the policy engine")
    sheet.check_no_bonus_rows("the policy engine")
    sheet.check_no_exchange("the policy engine")


@lru_cache(maxsize=8)
def geometry(variant: Variant) -> Geometry:
    """The (cached) geometry of ``variant``.  A sheet with double cells (DB1) reads the
    solver's per-row codes (a double cell adds two crosses); step cells (CS2) are lanes of
    the step total beside the penalties; chains, second crosses, bonus bars,
    Big Points' bonus rows, X-Change tracks and lucky numbers (LG3)
    are refused with a ParseError naming them (:func:`check_policy_sheet`)."""
    check_policy_sheet(variant)
    layout = Layout.of(variant)
    m = variant.rows
    points = layout.points.astype(np.int64)
    masks = sorted(layout.masks, key=lambda mk: (-mk.bit_count(), mk))
    # closed-points sums: up to closed_rows_to_end - 1 rows, each closed from an open code
    # with at least lock_threshold crosses (R8, DB2) plus the lock cell and its bonus
    marks = [int(n) for n in layout.code_marks[:variant.open_codes]]
    closes = [n + 2 for n in marks if n >= variant.lock_threshold]
    single = sorted({row_points(c) for c in closes})
    most = max([*closes, *marks])
    sums = {0}
    for _ in range(variant.closed_rows_to_end - 1):
        sums |= {s + t for s in sums for t in single}
    cp_value = np.array(sorted(sums), dtype=np.int64)
    slot = {int(v): i for i, v in enumerate(cp_value)}
    max_delta = m * row_points(most)
    cp_add = np.full((len(cp_value), max_delta + 1), -1, dtype=np.int64)
    for i, v in enumerate(cp_value):
        for d in range(max_delta + 1):
            cp_add[i, d] = slot.get(int(v) + d, -1)
    n_steps = variant.step_layers - 1  # 0 on a sheet without steps
    step_at = np.zeros((m, variant.row_length), dtype=np.int64)
    for r in range(m):
        for q in range(variant.row_length):
            step_at[r, q] = int(variant.is_step_at(r, q))
    step_points = np.array([row_points(s) if n_steps else 0 for s in range(n_steps + 3)],
                           dtype=np.int64)
    return Geometry(
        variant=variant,
        layout=layout,
        points=points,
        masks_backward=tuple(masks),
        cp_value=cp_value,
        cp_add=cp_add,
        score_min=-PENALTY_POINTS * variant.penalty_boxes,
        score_max=m * row_points(most) + row_points(n_steps),
        step_at=step_at,
        step_points=step_points,
    )


@lru_cache(maxsize=16)
def _items(variant: Variant, mask: int) -> tuple[IntArray, IntArray]:
    geo = geometry(variant)
    layout = geo.layout
    open_rows = geo.open_rows(mask)
    perms = np.array(trivial_group(variant), dtype=np.int64).reshape(-1, variant.rows)
    # without the codes a row cannot reach (double cells: the codes are the pairs of
    # (last, crosses) any row reaches, keys.row_codes); levels count crosses
    items, level_start, _ = solver_kernel.level_items(
        layout.strides[mask], open_rows, perms, layout.code_marks, layout.row_skip)
    return items, level_start
