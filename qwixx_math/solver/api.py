"""``solve()``: a table from the cache, or solved (and then cached)."""

from __future__ import annotations

import contextlib
import os
import time
import warnings
from pathlib import Path

from ..errors import CacheError, ParseError
from ..layouts import SheetLayout
from ..ruleset import Ruleset
from .bonus_b import check_bonus_b_ruleset
from .cache import (
    CacheWarning,
    cache_dir,
    file_lock,
    read_table,
    remove_stale_temporaries,
    table_filename,
    write_table,
)
from .engine import check_table_model, solve_tables
from .layout import Layout
from .lucky import lucky_variant
from .progress import progress_bar
from .table import SolverTable
from .variant import Variant, variant_or_layout
from .warmup import solving_label, warm_up

__all__ = ["solve", "solved_variant"]


def solved_variant(variant: Variant, ruleset: Ruleset) -> Variant:
    """The game :func:`solve` solves for ``variant`` under ``ruleset``, whose table file it
    names: ``variant`` with the Options of ``ruleset`` that change the game solved (an
    X-Change field spent alone, XC4; Double A's second cross in the same turn, DA4;
    Longo's lucky Options, LG4, LG5).  Anything else than a Variant and a Ruleset:
    :class:`~qwixx_math.errors.ParseError`."""
    if not isinstance(variant, Variant) or not isinstance(ruleset, Ruleset):
        raise ParseError(f"solved_variant() needs a Variant and a Ruleset, not "
                         f"{type(variant).__name__} and {type(ruleset).__name__}")
    variant = variant.with_field_without_cross(ruleset.xc_field_without_cross)
    variant = variant.with_da_same_turn(ruleset.da_same_turn)
    return lucky_variant(variant, ruleset)


def solve(
    ruleset: Ruleset | None = None,
    variant: Variant | None = None,
    *,
    cache: bool | str | os.PathLike[str] = True,
    progress: bool | None = None,
    players: int = 1,
    layout: SheetLayout | str | None = None,
) -> SolverTable:
    """The optimal solitaire table of ``variant`` under ``ruleset``, or with
    ``players`` = N > 1 the exact table of the **table model** (docs/table.md):
    this player's own rolls alternate with N - 1 rolls of the others, on which this
    player may mark the white sum, and the others never close a row or take a
    penalty.  ``players=1`` is solitaire, the same table as ever.

    ``ruleset`` defaults to ``Ruleset(players=1)``; only
    :attr:`Ruleset.action2_after_action1_end` changes solitaire (R15), and its
    ``players`` is ignored.  ``variant`` defaults to the official game.

    ``layout``: the sheet to solve instead of a ``variant``: a
    :class:`~qwixx_math.layouts.SheetLayout` or a published layout's name
    (``"official"``, ``"mixx-a"``, ``"mixx-b"``); ``solve(layout=L)`` is
    ``solve(variant=Variant(L))``.

    ``cache``: True (the default) uses :func:`~qwixx_math.solver.cache.cache_dir`,
    a path uses that directory, False solves in memory without touching disk.
    A cached table is memory-mapped; a corrupt, truncated or foreign file is
    reported with a :class:`CacheWarning` and rebuilt.  Concurrent callers solving
    the same table wait for one another, so the work is done once.

    ``progress``: draw a progress bar on stderr (None: only when stderr is a terminal).
    """
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 5:
        raise ParseError(f"a table has 1 to 5 players, not {players!r}", rule="R3")
    ruleset = ruleset if ruleset is not None else Ruleset(players=1)
    variant = variant_or_layout(variant, layout)
    variant = variant if variant is not None else Variant()
    if not isinstance(ruleset, Ruleset):
        raise ParseError(f"solve() needs a Ruleset, not {type(ruleset).__name__}")
    if not isinstance(variant, Variant):
        raise ParseError(f"solve() needs a Variant, not {type(variant).__name__}")
    if not (isinstance(cache, (bool, str, os.PathLike))):
        raise ParseError(f"cache must be True, False or a directory, not {cache!r}")
    if progress is not None and not isinstance(progress, bool):
        raise ParseError(f"progress must be True, False or None, not {progress!r}")
    variant = solved_variant(variant, ruleset)
    check_table_model(variant, players)
    check_bonus_b_ruleset(variant, ruleset)
    start = time.perf_counter()
    if cache is False:
        return _solve_now(ruleset, variant, players, start, progress, None)
    directory = cache_dir() if cache is True else Path(cache)
    with contextlib.suppress(OSError):  # what an interrupted write left behind
        remove_stale_temporaries(directory)
    path = directory / table_filename(variant, ruleset.action2_after_action1_end, players)
    table = _load(path, ruleset, variant, players, start, report=False)
    if table is not None:
        return table
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(file_lock(path))
        except OSError as exc:
            warnings.warn(f"cannot use the cache directory {directory} ({exc}); "
                          "solving without it", CacheWarning, stacklevel=2)
            return _solve_now(ruleset, variant, players, start, progress, None)
        # another process may have written it while we waited for the lock
        table = _load(path, ruleset, variant, players, start, report=True)
        if table is not None:
            return table
        return _solve_now(ruleset, variant, players, start, progress, path)
    raise AssertionError("unreachable")  # pragma: no cover


def _load(
    path: Path, ruleset: Ruleset, variant: Variant, players: int, start: float, report: bool
) -> SolverTable | None:
    a2 = ruleset.action2_after_action1_end
    try:
        loaded = read_table(path, variant, a2, Layout.of(variant, players).size, players)
    except FileNotFoundError:
        return None
    except OSError as exc:  # not a directory, no permission, ...: the lock step reports it
        if report:
            warnings.warn(f"cannot read {path} ({exc}); solving again", CacheWarning,
                          stacklevel=3)
        return None
    except CacheError as exc:
        if report:
            warnings.warn(f"{exc}; rebuilding it", CacheWarning, stacklevel=3)
            with contextlib.suppress(OSError):
                path.unlink()
        return None
    return SolverTable(variant, ruleset, loaded.data, loaded.start_value,
                       seconds=time.perf_counter() - start, path=path, loaded=True,
                       players=players)


def _solve_now(
    ruleset: Ruleset, variant: Variant, players: int, start: float, progress: bool | None,
    path: Path | None
) -> SolverTable:
    bar = progress_bar(progress, "preparing the solver")
    try:
        if bar is not None:
            warm_up(bar)
            bar.phase(solving_label(variant, players))
        data, stats = solve_tables(variant, ruleset.action2_after_action1_end, bar,
                                   players=players)
    finally:
        if bar is not None:
            bar.close()
    start_value = float(data[0])  # table of no closed rows, empty rows, no penalty
    if path is not None:
        try:
            write_table(path, variant, ruleset.action2_after_action1_end, data, start_value,
                        {"solve_seconds": stats.seconds_total}, players)
        except OSError as exc:
            warnings.warn(f"could not write the table to {path} ({exc})", CacheWarning,
                          stacklevel=3)
            path = None
    return SolverTable(variant, ruleset, data, start_value,
                       seconds=time.perf_counter() - start, path=path, stats=stats,
                       players=players)
