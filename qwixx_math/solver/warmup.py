"""Getting the solver's compiled code ready before a solve, and saying what that was.

numba compiles a kernel the first time it is called with given argument types,
which on a fresh machine is 10 to 20 s in the middle of the first solve; later
runs load the compiled code from numba's cache (about a second).  :func:`warm_up`
does that step on its own, before the solve, so that a progress bar can say which
it is: it solves a tiny variant in memory, which runs every kernel of the official
solve with the same argument types (numba specialises on types, not on sizes), so
the official solve then compiles nothing.

Whether numba really compiles is seen, not guessed: numba announces every
compilation (event ``numba:compile``; loading from its cache is not one), and the
bar switches from "loading the solver" to "compiling the solver (first run only)"
the moment the first one starts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from numba.core import event

from ..jit import caches_on_disk
from ..layouts import LAYOUTS
from .engine import solve_tables
from .progress import ProgressBar
from .variant import Variant

__all__ = [
    "COMPILING",
    "COMPILING_EVERY_RUN",
    "LOADING",
    "WARM_UP_VARIANT",
    "WarmUp",
    "solving_label",
    "warm_up",
]

#: The smallest variant whose solve runs every kernel of the official one: two
#: ascending and two descending rows (so symmetric tables are derived), a lock,
#: penalties and the end after two closed rows.
WARM_UP_VARIANT = Variant.from_letters("aadd", 3, 1, 1, 2)

#: The bar's texts while :func:`warm_up` runs.
LOADING = "loading the solver"
COMPILING = "compiling the solver (first run only)"
COMPILING_EVERY_RUN = "compiling the solver (no writable cache: on every run)"


@dataclass(frozen=True, slots=True)
class WarmUp:
    """What :func:`warm_up` did: ``compiled`` (numba compiled at least one function;
    False: everything came from numba's cache or was already in memory) and how long
    it took."""

    compiled: bool
    seconds: float


class _CompileWatch(event.Listener):
    """Counts numba's compilations and tells the bar when the first one starts."""

    def __init__(self, bar: ProgressBar | None) -> None:
        super().__init__()
        self.bar = bar
        self.compilations = 0

    def on_start(self, event: Any) -> None:
        self.compilations += 1
        if self.compilations == 1 and self.bar is not None:
            self.bar.phase(COMPILING if caches_on_disk() else COMPILING_EVERY_RUN)

    def on_end(self, event: Any) -> None:
        pass


def warm_up(bar: ProgressBar | None = None) -> WarmUp:
    """Compile (or load from numba's cache) every kernel a solve runs, before the solve.

    With ``bar``, the bar's phase is :data:`LOADING`, switched to :data:`COMPILING`
    when numba starts compiling.  Cheap when the kernels are already in memory
    (a solve of a few hundred states).
    """
    start = time.perf_counter()
    if bar is not None:
        bar.phase(LOADING)
    watch = _CompileWatch(bar)
    with event.install_listener("numba:compile", watch):
        solve_tables(WARM_UP_VARIANT, False)
    return WarmUp(compiled=watch.compilations > 0, seconds=time.perf_counter() - start)


def solving_label(variant: Variant, players: int = 1) -> str:
    """The bar's text while ``variant`` is solved, in a player's words (no internal key)."""
    if variant.is_official:
        game = "the official game"
    elif variant.key in LAYOUTS:
        game = {"mixx-a": "Qwixx Mixx A (colours mixed)",
                "mixx-b": "Qwixx Mixx B (numbers mixed)"}.get(variant.key, variant.key)
    else:
        game = (f"a game of {variant.rows} rows of {variant.row_length} numbers "
                f"and {variant.penalty_boxes} penalties")
    table = "" if players == 1 else f" at a table of {players} players"
    return f"solving {game}{table}"
