"""Where a bonus-bar solve's kernel time goes (issue 34's 5-minute goal on Bonus A).

    NUMBA_NUM_THREADS=1 PYTHONPATH=. python research/profile_bar_solve.py [bar7|bar8] MODE

Solves a mid-size pad with Bonus A's bar (four rows of 7 or 8 cells, boxed cells in every
row; bar8: 610,173 configurations, 335 MB) with the solve's kernel run as ``MODE`` says:
``full`` (the solve), ``no-max`` (no expected maximum, ``phases=1``), ``no-bar`` (the
boxed-cell plans of ``solver/bar.py`` left out) or ``gather`` (neither).  Only ``full``
gives the right values; the others print the CPU seconds of what is left, so the
differences split the kernel into the gather, the bar's plans and the expected maximum
(CPU seconds: robust on a shared machine; run the modes one after the other).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from qwixx_math.layouts import BONUS_A, SheetLayout
from qwixx_math.solver import Variant, engine, kernel
from qwixx_math.solver.engine import solve_tables

BOXED = {
    7: ((0, 1), (0, 4), (1, 3), (1, 5), (2, 1), (2, 4), (3, 2), (3, 5)),
    8: ((0, 1), (0, 4), (0, 6), (1, 3), (1, 5), (2, 1), (2, 4), (2, 6), (3, 2), (3, 5), (3, 6)),
}


def pad(length: int) -> SheetLayout:
    base = SheetLayout.plain(f"bar{length}", "aadd", length, lock_threshold=4,
                             penalty_boxes=4)
    return dataclasses.replace(base, boxed=BOXED[length], bar=BONUS_A.bar)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    name, mode = sys.argv[1], sys.argv[2]
    phases = 1 if mode in ("no-max", "gather") else 3
    no_bar = mode in ("no-bar", "gather")

    def run_slice(args: tuple[Any, ...], start: int, stop: int) -> None:
        *head, faces, lock_cells, exchange, spend, bar, boxed, lucky, additional, nxt = args
        if no_bar:
            bar = np.zeros(0, dtype=np.int64)
        solve: Callable[..., None] = kernel.solve_batch
        solve(*head, start, stop, phases, faces, lock_cells, exchange, spend,
              bar, boxed, lucky, additional, nxt)

    setattr(engine, "_solve_slice", run_slice)  # (research only)  # noqa: B010
    variant = Variant(pad(int(name.removeprefix("bar"))))
    solve_tables(variant, False)  # compiles the kernel (or loads it)
    wall, cpu = time.perf_counter(), cpu_seconds()
    data, stats = solve_tables(variant, False)
    digest = hashlib.sha1(data.tobytes()).hexdigest()[:16]
    print(f"{name} {mode}: {cpu_seconds() - cpu:.2f} s CPU, {time.perf_counter() - wall:.2f} "
          f"s wall, kernel {stats.seconds_kernel:.2f} s wall, "
          f"{stats.canonical_configurations:,} configurations, values {digest}, load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
