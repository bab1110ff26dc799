"""How many threads the solver's parallel parts use (the solve, the table checksums)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

__all__ = ["run_in_slices", "solver_threads"]


def solver_threads() -> int:
    """Threads a solve uses: ``NUMBA_NUM_THREADS`` if set (as numba's own parallel code
    would), else every core this process may run on."""
    configured = os.environ.get("NUMBA_NUM_THREADS", "")
    if configured.isascii() and configured.isdigit() and int(configured) > 0:
        return int(configured)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def run_in_slices(pool: ThreadPoolExecutor | None, pieces_per_thread: int, threads: int,
                  smallest: int, solve: Callable[..., object], args: tuple[Any, ...],
                  n: int) -> None:
    """``solve(*args, start, stop)`` over ``0 .. n``: on the calling thread when there is
    no pool or fewer than ``smallest`` items, else in slices on the pool (the kernels
    release the GIL; the slices must write disjoint values)."""
    if pool is None or n < smallest:
        solve(*args, 0, n)
        return
    pieces = min(n, threads * pieces_per_thread)
    bounds = [n * i // pieces for i in range(pieces + 1)]
    futures = [pool.submit(solve, *args, lo, hi)
               for lo, hi in itertools.pairwise(bounds) if hi > lo]
    for future in futures:
        future.result()
