"""How many threads the solver's parallel parts use (the solve, the table checksums)."""

from __future__ import annotations

import os

__all__ = ["solver_threads"]


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
