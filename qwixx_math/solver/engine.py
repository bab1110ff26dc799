"""The solve loop: which batches the kernel runs, in which order.

Every mark moves a row to a larger code, and a close moves to a table with more
closed rows, so the solver runs the tables with more closed rows first and,
inside a table, the levels (sum of the open rows' codes) from the highest down;
the penalty counts of one configuration are solved together, most penalties
first.  The configurations of one level never read one another, so each level
is one parallel batch: its slices are solved by the compiled kernel, which
releases the GIL, from one Python thread per core.  Only one representative per
symmetry orbit is computed (its value is scattered to the other images), and
only one table per orbit of closed sets (the others are copies with permuted
axes).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ParseError
from . import kernel
from .bar import bar_arrays
from .bonus_b import solve_bonus_b
from .chain import solve_chain
from .double_a import solve_double_a
from .layout import Layout
from .symmetry import closed_set_orbits, stabiliser, symmetry_group, trivial_group
from .threads import run_in_slices, solver_threads
from .variant import Variant

__all__ = [
    "SolveStats",
    "check_table_model",
    "frozen_codes",
    "frozen_step_range",
    "solve_tables",
    "without_frozen",
]

#: Slices per thread of a parallel batch (more slices balance the load better).
SLICES_PER_THREAD = 4
#: Batches smaller than this run on the calling thread (handing out slices costs more).
PARALLEL_MIN = 256


#: ``progress(done, total)``, in units of solved configurations.
ProgressCallback = Callable[[int, int], None]


@dataclass(slots=True)
class SolveStats:
    """Where the time of a solve went (seconds) and how much was computed."""

    canonical_configurations: int = 0
    #: Canonical configurations not solved because a frozen row (:func:`frozen_codes`)
    #: has fewer marks than ``frozen_top``: their values are written from one that is.
    frozen_configurations: int = 0
    seconds_setup: float = 0.0
    seconds_kernel: float = 0.0
    seconds_derive: float = 0.0
    seconds_total: float = 0.0
    #: Kernel seconds per table mask that was computed.
    kernel_by_table: dict[int, float] = field(default_factory=dict)


def frozen_codes(variant: Variant, layout: Layout) -> tuple[int, list[int], list[float]]:
    """The codes of a **frozen** row: its last mark on the last number before the lock
    number (before the two lock numbers on Longo, LG2), with
    fewer marks than the lock needs (R8), so that it can never be marked again (its only
    cell left is the lock's number) nor close; its marks only add their points (R16),
    whatever the other rows and the dice (its die stays in play, R9).

    Returns ``(top, lower, gain)``: the frozen code with the most marks, the other
    frozen codes, and for each the points it scores less than ``top`` (``-1, [], []``
    when no row can freeze).  A configuration with a frozen row at a ``lower`` code is
    worth the same configuration with that row at ``top``, plus the ``gain``.

    On a sheet with double cells the codes are shared by rows that reach different
    pairs (:func:`qwixx_math.keys.row_codes`); the top code must then be one every row
    reaches (else no row is treated as frozen).

    On a sheet with lucky numbers no row is frozen: its crosses decide which rows have
    the fewest (LG3, V9), so fewer of them is not just fewer points.
    """
    if variant.lucky:  # a row that cannot be marked still counts for the fewest (LG3)
        return -1, [], []
    length = variant.row_length
    frozen = [code for code in range(variant.open_codes)
              if length > variant.lock_cells
              and int(layout.code_last[code]) == length - 1 - variant.lock_cells
              and int(layout.code_marks[code]) < variant.lock_threshold]
    if not frozen:
        return -1, [], []
    top = max(frozen, key=lambda code: int(layout.code_marks[code]))
    if layout.row_skip[:, top].any():
        return -1, [], []
    lower = [code for code in frozen if code != top]
    top_points = float(layout.points[layout.code_marks[top]])
    gain = [float(layout.points[layout.code_marks[code]]) - top_points for code in lower]
    return top, lower, gain


def frozen_step_range(layout: Layout, top: int, lower: list[int]
                      ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The step totals a row can hold at each code (:attr:`Layout.step_lo`,
    :attr:`Layout.step_hi`), widened at the frozen ``top`` code to those of every
    ``lower`` frozen code: a configuration solved with a row at ``top`` is written for
    that row at the lower codes too (:func:`frozen_codes`), whose step totals may differ
    (Qwixx Connected, the Steps, CS2)."""
    lo = layout.step_lo.copy()
    hi = layout.step_hi.copy()
    if top >= 0 and lower:
        lo[:, top] = lo[:, [top, *lower]].min(axis=1)
        hi[:, top] = hi[:, [top, *lower]].max(axis=1)
    return lo, hi


def without_frozen(items: npt.NDArray[np.int64], level_start: npt.NDArray[np.int64],
                   n_codes: int, k: int, lower: list[int]
                   ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(items, level_start)`` of :func:`kernel.canonical_items` without the
    configurations that have a row at one of the ``lower`` frozen codes."""
    if not lower:
        return items, level_start
    skip = np.zeros(n_codes, dtype=np.bool_)
    skip[lower] = True
    keep = np.empty(len(items), dtype=np.bool_)
    chunk = 1 << 20  # a few MB of temporaries at a time, not hundreds
    for lo in range(0, len(items), chunk):
        rest = items[lo:lo + chunk].copy()
        part = np.ones(len(rest), dtype=np.bool_)
        for _ in range(k):
            part &= ~skip[rest % n_codes]
            rest //= n_codes
        keep[lo:lo + chunk] = part
    counts = np.concatenate(([0], np.cumsum(keep)))
    return items[keep], np.asarray(counts[level_start], dtype=np.int64)


def check_table_model(variant: Variant, players: int) -> None:
    """Refuse (ParseError naming the rule) the table model (``players`` > 1) on a sheet it
    does not play: the bonus bar (BA1), chain pairs (CC1), second crosses (DA1), Bonus
    B's symbols (BB1), exchanges (XC1) and lucky crosses (LG3); the solitaire game plays
    them all.
    :func:`~qwixx_math.solver.api.solve` calls it before its cache, :func:`solve_tables`
    before solving."""
    if players == 1:
        return
    refused = (
        (variant.has_bar, "the bonus bar (forced crosses on other players' rolls)", "BA1"),
        (variant.has_chain, "chain pairs (partner crosses on other players' rolls)", "CC1"),
        (variant.has_second_crosses, "second crosses (Qwixx Double A)", "DA1"),
        (bool(variant.sheet.symbols), "Bonus B's symbols yet (forced crosses on other "
         "players' rolls)", "BB1"),
        (variant.has_exchange, "exchanges yet (every player may exchange, XC1)", "XC1"),
        (bool(variant.lucky), "lucky crosses yet (every player may take one, LG3)", "LG3"),
    )
    for plays, what, rule in refused:
        if plays:
            raise ParseError(f"layout {variant.sheet.name}: the table model does not play "
                             f"{what}; solve it solitaire", rule=rule)


def solve_tables(
    variant: Variant,
    action2_after_action1_end: bool,
    progress: ProgressCallback | None = None,
    symmetry: bool = True,
    players: int = 1,
) -> tuple[npt.NDArray[np.float64], SolveStats]:
    """Solve every table of ``variant``; returns the flat value array and timings.

    ``players``: the table model of that many players (1 = solitaire; see
    :mod:`.kernel`): every configuration gets one value per level and penalty count.

    ``symmetry=False`` solves every state on its own (the check that the
    symmetry reduction changes nothing; about |group| times slower).
    """
    check_table_model(variant, players)
    start = time.perf_counter()
    stats = SolveStats()
    layout = Layout.of(variant, players)
    threads = solver_threads()
    pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None
    try:
        if variant.has_chain:  # its own plans and lanes (:mod:`.chain`)
            data, stats.canonical_configurations = solve_chain(
                layout, action2_after_action1_end, pool, threads, progress)
            stats.seconds_kernel = stats.seconds_total = time.perf_counter() - start
            return data, stats
        if variant.sheet.symbols:  # its own index and tables (:mod:`.bonus_b`)
            data, stats.canonical_configurations, _ = solve_bonus_b(
                variant.sheet, action2_after_action1_end, pool, threads, progress)
            stats.seconds_kernel = stats.seconds_total = time.perf_counter() - start
            return data, stats
        if variant.has_second_crosses:  # its own codes and tables (:mod:`.double_a`)
            data, stats.canonical_configurations, _ = solve_double_a(
                variant.sheet, action2_after_action1_end, variant.da_same_turn, pool,
                threads, progress)
            stats.seconds_kernel = stats.seconds_total = time.perf_counter() - start
            return data, stats
        data, plan = _prepare(variant, layout, symmetry, pool, threads, stats)
        stats.seconds_setup = time.perf_counter() - start
        _solve_plan(variant, layout, data, plan, pool, threads, stats, progress,
                    action2_after_action1_end, players)
    finally:
        if pool is not None:
            pool.shutdown()
    stats.seconds_total = time.perf_counter() - start
    return data, stats


#: One table to compute: its closed set, the closed sets derived from it (with the
#: permutation), its open rows, its stabiliser, its items by level, the products table.
_Planned = tuple[int, list[tuple[int, tuple[int, ...]]], npt.NDArray[np.int64],
                 npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64],
                 npt.NDArray[np.int64]]


def _prepare(variant: Variant, layout: Layout, symmetry: bool,
             pool: ThreadPoolExecutor | None, threads: int, stats: SolveStats
             ) -> tuple[npt.NDArray[np.float64], list[_Planned]]:
    """The value array (NaN: not solved yet) and the list of tables to compute.

    Both are serial work before the first batch (on Mixx B: 0.9 s to fill the 337 MB,
    most of it the kernel's first touch of the pages, and 0.4 s for the items), so the
    fill runs in slices on the pool, beside the items of every table.
    """
    data = np.empty(layout.size)
    parts = np.array_split(data, max(1, threads))
    fills = [] if pool is None else [pool.submit(part.fill, np.nan) for part in parts]
    if pool is None:
        data.fill(np.nan)

    group = symmetry_group(variant) if symmetry else trivial_group(variant)
    lower = frozen_codes(variant, layout)[1]
    # the configurations written, not solved, and (double cells) those no row reaches
    skip = layout.row_skip.copy()
    skip[:, lower] = True
    orbits = closed_set_orbits(variant, group)

    def items_of(rep: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                    npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
        open_rows = np.array(layout.open_rows(rep), dtype=np.int64)
        perms = np.array(stabiliser(variant, rep, group), dtype=np.int64)
        perms = perms.reshape(-1, variant.rows)
        items, level_start, canonical = kernel.level_items(
            layout.strides[rep], open_rows, perms, layout.code_marks, skip)
        return open_rows, perms, items, level_start, canonical

    if pool is None:
        found = [items_of(rep) for rep, _ in orbits]
    else:  # the kernel releases the GIL: tables side by side
        found = list(pool.map(items_of, [rep for rep, _ in orbits]))
    plan: list[_Planned] = []
    for (rep, members), (open_rows, perms, items, level_start, canonical) in zip(
            orbits, found, strict=True):
        stats.frozen_configurations += canonical - len(items)
        products = kernel.count_products(len(open_rows), 8 if variant.faces == 6 else 16)
        plan.append((rep, members, open_rows, perms, items, level_start, products))
    stats.canonical_configurations = sum(len(p[4]) for p in plan)
    for future in fills:
        future.result()
    return data, plan


def _solve_plan(variant: Variant, layout: Layout, data: npt.NDArray[np.float64],
                plan: list[_Planned], pool: ThreadPoolExecutor | None, threads: int,
                stats: SolveStats, progress: ProgressCallback | None,
                action2_after_action1_end: bool, players: int) -> None:
    """Run the planned tables' batches, level by level, and derive their images."""
    n_codes = variant.open_codes
    top, lower, gain = frozen_codes(variant, layout)
    frozen_lower = np.array(lower, dtype=np.int64)
    frozen_gain = np.array(gain, dtype=np.float64)
    step_lo, step_hi = frozen_step_range(layout, top, lower)
    exchange = np.array(variant.sheet.exchange, dtype=np.int64).reshape(-1, 2)
    bar, boxed = bar_arrays(variant)
    lucky = np.array(variant.lucky, dtype=np.int64)
    total = stats.canonical_configurations
    done = 0
    if progress is not None:
        progress(0, total)
    for rep, members, open_rows, perms, items, level_start, products in plan:
        t0 = time.perf_counter()
        for level in range(len(level_start) - 2, -1, -1):
            batch = items[level_start[level] : level_start[level + 1]]
            if len(batch) == 0:
                continue
            args = (
                data, layout.offsets, layout.strides, layout.code_last, layout.code_marks,
                layout.row_next_code, layout.number_at, layout.die_at, layout.points,
                n_codes, variant.row_length, variant.lock_threshold, layout.lanes,
                players, layout.level_size, action2_after_action1_end, rep, open_rows,
                perms, batch, products, top, frozen_lower, frozen_gain,
                variant.penalty_boxes, layout.step_shift, layout.step_points, step_lo,
                step_hi, layout.closed_steps, variant.faces, variant.lock_cells,
                exchange, variant.field_without_cross, bar, boxed,
                lucky, variant.lucky_additional, variant.lucky_next_cell,
            )
            # one level's batch: on the calling thread when it is small, else in slices
            run_in_slices(pool, SLICES_PER_THREAD, threads, PARALLEL_MIN, _solve_slice,
                          (args,), len(batch))
            done += len(batch)
            if progress is not None:
                progress(done, total)
        t1 = time.perf_counter()
        stats.kernel_by_table[rep] = t1 - t0
        stats.seconds_kernel += t1 - t0
        for mask, g in members:
            if mask == rep:
                continue
            kernel.derive_table(
                data, layout.offsets, layout.strides, rep, mask,
                np.array(g, dtype=np.int64), open_rows, n_codes, layout.lanes,
                players, layout.level_size,
            )
        stats.seconds_derive += time.perf_counter() - t1


def _solve_slice(args: tuple[Any, ...], start: int, stop: int) -> None:
    solve: Callable[..., None] = kernel.solve_batch
    # (8-sided dice, two lock numbers: Longo; the X-Change track and XC4; Bonus A's bar;
    # Longo's lucky numbers, LG4 additional and LG5 open_with_next_cell)
    *head, faces, lock_cells, exchange, spend, bar, boxed, lucky, lucky_additional, \
        lucky_next_cell = args
    solve(*head, start, stop, 3, faces, lock_cells, exchange, spend, bar, boxed, lucky,
          lucky_additional, lucky_next_cell)
