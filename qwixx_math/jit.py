"""The one way qwixx_math compiles numba kernels: ``njit`` that keeps the function's type.

``numba.njit`` is untyped for mypy; :func:`jit` casts the compiled dispatcher back to
the decorated function's type, so callers stay checked.  Every kernel is compiled
with ``cache=True`` (numba's on-disk cache, ``NUMBA_CACHE_DIR``) and ``nogil=True``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["jit"]

F = TypeVar("F", bound=Callable[..., Any])


def jit(parallel: bool = False, inline: bool = False) -> Callable[[F], F]:
    """``numba.njit(cache=True, nogil=True, parallel=parallel)``, typed for mypy.

    ``inline``: numba inlines the function into its compiled callers (small helpers
    in innermost loops, where a call's reference counting of array arguments would
    cost more than the work).
    """

    def decorate(func: F) -> F:
        return cast(F, numba.njit(cache=True, parallel=parallel, nogil=True,
                                  inline="always" if inline else "never")(func))

    return decorate
