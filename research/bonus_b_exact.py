"""Qwixx Bonus, pad B: the EXACT optimal solitaire value (issue 34; research/NOTEBOOK.md,
"Bonus B solved exactly").

**Moved into the package** (2026-12-07): the solver, its index and its moves are
:mod:`qwixx_math.solver.bonus_b` and :mod:`qwixx_math.solver.bonus_b_moves` (``solve``,
``value``, ``advise``, ``review`` with ``--layout bonus-b`` use them).  This module keeps
the research names (:class:`ExactTable`, :func:`exact_table`, :func:`solve_exact`,
:func:`pack`, :func:`unpack`, :func:`status_bits`) over the package's.

**The game.**  Bonus B as the rules core plays it (R1-R15, BB1-BB9) under the default
Options (``bb_fewest_candidates = open_with_next_cell``, ``bb_diamond_order =
colour_order``; the circle's tie to the first tied row in colour order) and the R15 Option
as given, scored by BB8:

    S = sum of the rows' points + [square] * min(rows) + 13 * [octagon]
        - 5 * penalties * [no star].

**The state** (research/bonus_b_state.py, checked there against full sheets): per open
row (last, count), the closed rows, the penalties, per symbol one bit where the frontiers
leave it undecided (``not dead``: a symbol with a cell left of its frontier and one right
of it, and the square and the star with any cell left of it; every other status follows
from the frontiers), and, in the tables with one closed row, that row's count (it enters
the square's minimum).  The octagon is paid when it activates (its 13 is a reward of the
move), so its bit only says whether it still can.  The moves are research/bonus_b_bound.py's
(:func:`~research.bonus_b_bound.plan_list`: every plan with the circle's and diamond's
forced crosses, depth-first), which depend on the circle's and diamond's bits only; the
square's, octagon's and star's bits follow each plan by a bit operation (a plan walked
with them set kills what its crosses skip and activates what they complete: the real
bits are those AND the walk's, the octagon paid only if its bit was set).

**The index** (the notebook's per-frontier layout).  Per closed-row set and frontier
vector (the open rows' last positions) a block of ``prod(counts) x 2^u x C x P`` float64
values: every count combination those frontiers allow (a row whose last cross is at
position l holds 1 .. l + 1 crosses), only the ``u`` undecided bits, ``C`` closed-row
counts (threshold + 2 .. length + 1; 1 with every row open), ``P`` penalties.  Lane
``(bits * C + c) * P + p``, ``bits`` the undecided bits packed low (:func:`pack`).  On
pad B 701,299,776 values, 5.2 GiB, against 13.4 GiB for every bit.

**The solve** (:func:`solve_exact`).  The level order of
:func:`qwixx_math.solver.chain.solve_levels` (every plan adds a mark or closes a row); per
configuration: per circle/diamond bit pair the plans, per lane the look-ups
(:func:`qwixx_math.solver.chain.keep_action1`, ``keep_action2``), then the kernel's
:func:`~qwixx_math.solver.kernel.turn_values` over every lane at once, its fourth-penalty
term the terminal (the square's minimum when active, the star cancelling the penalties,
``step_points``).  A table value ``W`` excludes the closed rows' points and the octagon's
13 once paid (:meth:`ExactTable.value` adds them).
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
