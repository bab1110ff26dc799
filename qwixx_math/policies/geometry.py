"""The arrays the compiled engine reads, for one variant (built on the solver's layout)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..errors import ParseError
from ..solver import kernel as solver_kernel
from ..solver.layout import Layout
from ..solver.symmetry import trivial_group
from ..solver.variant import PENALTY_POINTS, Variant, row_points

__all__ = ["Geometry", "geometry", "readonly_table"]

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
    #: Lowest and highest final score (R17).
    score_min: int
    score_max: int

    def open_rows(self, mask: int) -> IntArray:
        return np.array(self.layout.open_rows(mask), dtype=np.int64)

    def items(self, mask: int) -> tuple[IntArray, IntArray]:
        """Every configuration of table ``mask`` by level (number of marks): ``(items,
        level_start)``, level ``l`` being ``items[level_start[l]:level_start[l + 1]]``."""
        return _items(self.variant, mask)

    def engine_args(self) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray,
                                   IntArray, IntArray, IntArray]:
        """(offsets, strides, code_last, code_marks, next_code, pos_of, number_at, die_at,
        points): ``die_at[row, q]`` is the die (the row it locks) whose colour the cell has,
        -1 for none (the sheet's layout, issue 13)."""
        lay = self.layout
        return (lay.offsets, lay.strides, lay.code_last, lay.code_marks, lay.next_code,
                lay.pos_of, lay.number_at, lay.die_at, self.points)


@lru_cache(maxsize=8)
def geometry(variant: Variant) -> Geometry:
    """The (cached) geometry of ``variant`` (not of a sheet with double cells: the
    policies' engine counts a row's marks, one per cell; a ParseError names DB1)."""
    variant.sheet.check_single_cells("the policy engine")
    variant.sheet.check_no_steps("the policy engine")  # it scores row by row (CS2)
    variant.sheet.check_no_chain("the policy engine")
    variant.sheet.check_no_second_crosses("the policy engine")
    variant.sheet.check_no_bonus("the policy engine")
    variant.sheet.check_no_bonus_rows("the policy engine")
    layout = Layout.of(variant)
    m = variant.rows
    length = variant.row_length
    points = layout.points.astype(np.int64)
    masks = sorted(layout.masks, key=lambda mk: (-mk.bit_count(), mk))
    # closed-points sums: up to closed_rows_to_end - 1 rows, each closed with
    # lock_threshold + 2 .. row_length + 1 marks
    single = sorted({row_points(c) for c in range(variant.lock_threshold + 2, length + 2)})
    sums = {0}
    for _ in range(variant.closed_rows_to_end - 1):
        sums |= {s + t for s in sums for t in single}
    cp_value = np.array(sorted(sums), dtype=np.int64)
    slot = {int(v): i for i, v in enumerate(cp_value)}
    max_delta = m * row_points(length + 1)
    cp_add = np.full((len(cp_value), max_delta + 1), -1, dtype=np.int64)
    for i, v in enumerate(cp_value):
        for d in range(max_delta + 1):
            cp_add[i, d] = slot.get(int(v) + d, -1)
    return Geometry(
        variant=variant,
        layout=layout,
        points=points,
        masks_backward=tuple(masks),
        cp_value=cp_value,
        cp_add=cp_add,
        score_min=-PENALTY_POINTS * variant.penalty_boxes,
        score_max=m * row_points(length + 1),
    )


@lru_cache(maxsize=16)
def _items(variant: Variant, mask: int) -> tuple[IntArray, IntArray]:
    geo = geometry(variant)
    layout = geo.layout
    open_rows = geo.open_rows(mask)
    perms = np.array(trivial_group(variant), dtype=np.int64).reshape(-1, variant.rows)
    items, level_start = solver_kernel.canonical_items(
        layout.strides[mask], open_rows, perms, layout.code_marks)
    return items, level_start
