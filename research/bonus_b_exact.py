"""Qwixx Bonus, pad B: the EXACT optimal solitaire value (issue 34; research/NOTEBOOK.md,
"Bonus B solved exactly").

**Moved into the package** (2026-12-07): the solver, its index and its moves are
:mod:`qwixx_math.solver.bonus_b` and :mod:`qwixx_math.solver.bonus_b_moves` (``solve``,
``value``, ``advise``, ``review`` with ``--layout bonus-b`` use them).  This module keeps
the research names (:class:`ExactTable`, :func:`exact_table`, :func:`solve_exact`,
:func:`pack`, :func:`unpack`, :func:`status_bits`) over the package's.

The game, the state, the index and the solve are described in the package module's
docstring (:mod:`qwixx_math.solver.bonus_b`); what was measured, in research/NOTEBOOK.md.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from qwixx_math.errors import ParseError
from qwixx_math.layouts import SheetLayout
from qwixx_math.model import Sheet
from qwixx_math.solver.bonus_b import BonusBLayout, solve_bonus_b
from qwixx_math.solver.bonus_b_moves import pack, status_bits, unpack
from qwixx_math.solver.layout import Layout

__all__ = ["ExactTable", "exact_table", "pack", "solve_exact", "status_bits", "unpack"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class ExactTable:
    """Bonus B's exact values (module docstring) on one pad and R15 Option."""

    sheet: SheetLayout
    action2_after_game_end: bool
    index: BonusBLayout
    #: The flat value array (module docstring's index).
    data: FloatArray
    configurations: int

    @property
    def layout(self) -> Layout:
        """The rows' geometry (without the symbols)."""
        return self.index.layout

    def start_value(self) -> float:
        """Bonus B's optimal solitaire value: the empty sheet's."""
        return self.value(Sheet.empty(self.sheet))

    def final(self, sheet: Sheet) -> float:
        """A finished game's score (BB8)."""
        return float(sheet.score)

    def value(self, sheet: Sheet) -> float:
        """The optimal expected final score (BB8) of a running game's ``sheet``: the table's
        value plus the points it holds for good (closed rows, a paid octagon)."""
        index, held = self.index.locate(sheet)
        return float(self.data[index]) + held

    def n_counts(self) -> int:
        """The closed-row counts a lane holds: lock threshold + 2 .. row length + 1."""
        return self.index.n_counts


def exact_table(sheet: SheetLayout, action2_after_game_end: bool, data: FloatArray
                ) -> ExactTable:
    """The table of ``sheet`` holding ``data`` (a solve's :attr:`ExactTable.data`, saved and
    loaded again: ``benchmarks/bench_bonus_b_bound.py --exact --load``)."""
    index = BonusBLayout.of(sheet)
    if data.shape != (index.size,):
        raise ParseError(f"layout {sheet.name}: the exact table holds {index.size:,} values, "
                         f"not {data.size:,}", rule="BB1")
    return ExactTable(sheet, action2_after_game_end, index, data, 0)


def solve_exact(sheet: SheetLayout, action2_after_game_end: bool = False, threads: int = 1,
                progress: Callable[[int, int], None] | None = None) -> ExactTable:
    """Solve the Bonus B pad ``sheet`` exactly (default Options BB2, BB3; the R15 Option
    as given) on ``threads`` threads; ``progress(done, total)`` is called after every level
    of configurations."""
    index = BonusBLayout.of(sheet)  # (the refusal, BB1, before the pool)
    with ThreadPoolExecutor(threads) as pool:
        data, total, _ = solve_bonus_b(sheet, action2_after_game_end,
                                       pool if threads > 1 else None, threads, progress)
    return ExactTable(sheet, action2_after_game_end, index, data, total)
