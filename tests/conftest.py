"""Fixtures shared by several test files, and the solver cache the tests use.

Tests never write outside a temporary directory: unless ``QWIXX_MATH_CACHE`` is set,
the whole test session (every pytest-xdist worker, and every subprocess a test
starts, since they inherit the environment) uses one temporary cache directory,
removed when the session ends.  So the official table (about 30 s to build, 337 MB)
is built once per run, not once per worker, and numba's compiled kernels, which
follow ``QWIXX_MATH_CACHE`` (:func:`qwixx_math.jit.numba_cache_dir`), land there
too.  Two workers that need the same table at once are serialised by the solver's
own lock file (:func:`qwixx_math.solver.cache.file_lock`): the second waits and
loads the first one's table.

Set ``QWIXX_MATH_CACHE`` yourself to keep the tables between runs (e.g. to your
usual cache directory); it is then used as it is and never removed.

This runs when pytest imports the file, before any test module imports
qwixx_math (numba decides its cache directory when the kernels are imported).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from qwixx_math.solver import SolverTable

#: The temporary cache this process made (None: the user's, or the controller's).
_TEMPORARY_CACHE: str | None = None

if not os.environ.get("QWIXX_MATH_CACHE"):
    # The xdist controller imports this file before it starts its workers, which
    # inherit the variable; a worker that did not (a remote one) makes its own.
    _TEMPORARY_CACHE = tempfile.mkdtemp(prefix="qwixx-math-tests-")
    os.environ["QWIXX_MATH_CACHE"] = _TEMPORARY_CACHE


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's temporary cache (the controller's, after its workers)."""
    if _TEMPORARY_CACHE is not None:
        shutil.rmtree(_TEMPORARY_CACHE, ignore_errors=True)


@pytest.fixture(scope="module")
def official_table() -> SolverTable:
    """The official solitaire table (R15 default), solved or read from the cache."""
    from qwixx_math.ruleset import Ruleset
    from qwixx_math.solver import solve

    return solve(Ruleset(players=1))
