"""The one way qwixx_math compiles numba kernels: ``njit`` that keeps the function's type.

``numba.njit`` is untyped for mypy; :func:`jit` casts the compiled dispatcher back to
the decorated function's type, so callers stay checked.  Every kernel is compiled
with ``nogil=True`` and, where possible, numba's on-disk cache (``cache=True``).

Where numba's cache lives: numba's default is the ``__pycache__`` folder next to
the sources, which inside ``site-packages`` is never removed by ``pip uninstall``
(a leftover folder later turns ``qwixx_math`` into an empty namespace package).
So, unless the user set ``NUMBA_CACHE_DIR``, the kernels are cached under the
library's own cache directory, :func:`numba_cache_dir` (``numba`` inside
:func:`~qwixx_math.solver.cache.cache_dir`, which honours ``QWIXX_MATH_CACHE``).
If that directory cannot be created or written, the kernels are compiled in memory
on every run, with one :class:`~qwixx_math.solver.cache.CacheWarning`.

numba keys a cached kernel on its own source file only, while a kernel compiles in the
kernels it calls from other modules (the solver's ``solve_batch`` in ``kernel.py`` plays
the bonus bar's plans of ``bar.py``): an edit of ``bar.py`` alone would leave the old
chains in the cached ``solve_batch``.  So our directory holds one folder per version of
the compiled sources, :func:`sources_digest` (every module of the package with an
``@jit`` kernel, and this one): an edit of any of them compiles every kernel afresh, in
a new folder.  (Under ``NUMBA_CACHE_DIR`` numba's own keys apply.)
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

__all__ = ["caches_on_disk", "jit", "numba_cache_dir", "sources_digest"]

F = TypeVar("F", bound=Callable[..., Any])

_config: Any = numba.config  # untyped module attributes

_lock = threading.RLock()
#: None: not decided yet; "" : numba's own setting (NUMBA_CACHE_DIR); a path: ours;
#: False: no usable directory, compile in memory.
_decided: str | bool | None = None


def numba_cache_dir() -> Path:
    """Where qwixx_math keeps numba's compiled kernels unless ``NUMBA_CACHE_DIR`` is set."""
    from .solver.cache import cache_dir  # late: the solver package imports this module

    return cache_dir() / "numba"


def sources_digest() -> str:
    """A digest of the sources numba compiles: every module of the package that defines
    an ``@jit`` kernel, and this one (16 hex digits; the name of the kernels' folder)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if b"@jit(" in text or path == Path(__file__).resolve():
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + text + b"\0")
    return digest.hexdigest()[:16]


def _decide() -> str | bool:
    """Decide once per process where the kernels are cached (see the module docstring)."""
    global _decided
    with _lock:
        if _decided is not None:
            return _decided
        if os.environ.get("NUMBA_CACHE_DIR") or _config.CACHE_DIR:
            _decided = ""  # the user's choice: numba handles it
            return _decided
        directory = numba_cache_dir() / sources_digest()
        if _decided is not None:  # decided while the import above ran (a kernel module)
            return _decided
        try:
            directory.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=directory).close()  # writable? (numba's own test)
        except OSError as exc:
            from .solver.cache import CacheWarning

            warnings.warn(
                f"cannot keep compiled solver code in {directory} ({exc}); it is compiled "
                "again on every run (10 to 20 s); set QWIXX_MATH_CACHE or NUMBA_CACHE_DIR "
                "to a writable directory", CacheWarning, stacklevel=4)
            _decided = False
            return _decided
        _decided = str(directory)
        return _decided


def caches_on_disk() -> bool:
    """Whether compiled kernels are kept on disk (False: compiled again on every run)."""
    return _decide() is not False


def _njit(func: Any, parallel: bool, inline: str) -> Any:
    where = _decide()
    options: dict[str, Any] = {"parallel": parallel, "nogil": True, "inline": inline}
    if where is False:
        return numba.njit(cache=False, **options)(func)
    if where == "":
        return numba.njit(cache=True, **options)(func)
    # numba picks the function's cache directory when it is decorated, from
    # numba.config.CACHE_DIR: point it at ours for this decoration only, so that
    # other numba users in the process keep their own setting.
    with _lock:
        saved = _config.CACHE_DIR
        _config.CACHE_DIR = where
        try:
            return numba.njit(cache=True, **options)(func)
        finally:
            _config.CACHE_DIR = saved


def jit(parallel: bool = False, inline: bool = False) -> Callable[[F], F]:
    """``numba.njit(cache=True, nogil=True, parallel=parallel)``, typed for mypy.

    ``inline``: numba inlines the function into its compiled callers (small helpers
    in innermost loops, where a call's reference counting of array arguments would
    cost more than the work).
    """

    def decorate(func: F) -> F:
        return cast(F, _njit(func, parallel, "always" if inline else "never"))

    return decorate
