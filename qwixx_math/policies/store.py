"""Cached results (policy values, score distributions) as small checked JSON files.

They live beside the solver's tables (:func:`qwixx_math.solver.cache_dir`), one
file per variant, R15 option, policy and kind of result:
``policy-v{FORMAT}-{variant.key}-a2end{0|1}-{policy}-{kind}.json``.  A file holds
its identity (format, variant, option, policy, the solver table's format and,
for the optimal policy, the table's start value), the payload and the CRC-32 of
the payload's canonical JSON.  Writes are atomic (temporary file, fsync,
rename).  A file that does not verify is reported with a
:class:`~qwixx_math.solver.CacheWarning` and recomputed.
"""

from __future__ import annotations

import contextlib
import json
import warnings
import zlib
from pathlib import Path
from typing import Any

from ..solver.cache import FORMAT_VERSION as SOLVER_FORMAT
from ..solver.cache import CacheWarning, atomic_write
from ..solver.variant import Variant

__all__ = ["FORMAT_VERSION", "load_result", "result_path", "save_result"]

#: Bump when a cached result's meaning changes.
FORMAT_VERSION = 1


def result_path(directory: Path, variant: Variant, a2_end: bool, policy: str, kind: str) -> Path:
    return directory / (f"policy-v{FORMAT_VERSION}-{variant.key}-a2end{int(a2_end)}-"
                        f"{policy}-{kind}.json")


def _identity(variant: Variant, a2_end: bool, policy: str, kind: str,
              table_start: float | None) -> dict[str, Any]:
    return {"format": FORMAT_VERSION, "solver_format": SOLVER_FORMAT,
            "variant": variant.to_json(), "action2_after_action1_end": a2_end,
            "policy": policy, "kind": kind, "table_start_value": table_start}


def _crc(payload: dict[str, Any]) -> int:
    return zlib.crc32(json.dumps(payload, sort_keys=True).encode("utf-8"))


def load_result(path: Path, variant: Variant, a2_end: bool, policy: str, kind: str,
                table_start: float | None) -> dict[str, Any] | None:
    """The payload of a verified file, or None (missing, or damaged: warned and removed)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        warnings.warn(f"{path}: unreadable ({exc}); recomputing", CacheWarning, stacklevel=3)
        return None
    problem = None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        data = None
        problem = f"corrupt ({exc})"
    if problem is None:
        if not isinstance(data, dict) or not isinstance(data.get("payload"), dict):
            problem = "corrupt (no payload)"
        elif {k: data.get(k) for k in _identity(variant, a2_end, policy, kind, table_start)} \
                != _identity(variant, a2_end, policy, kind, table_start):
            problem = "foreign or stale (another variant, policy or solver table)"
        elif data.get("crc32") != _crc(data["payload"]):
            problem = "corrupt (checksum mismatch)"
    if problem is not None:
        warnings.warn(f"{path}: {problem}; recomputing", CacheWarning, stacklevel=3)
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    assert isinstance(data, dict)
    payload: dict[str, Any] = data["payload"]
    return payload


def save_result(path: Path, variant: Variant, a2_end: bool, policy: str, kind: str,
                table_start: float | None, payload: dict[str, Any]) -> None:
    """Write atomically (a reader sees the old file or the new one, never half of one)."""
    data = _identity(variant, a2_end, policy, kind, table_start)
    data["payload"] = payload
    data["crc32"] = _crc(payload)
    text = json.dumps(data, sort_keys=True).encode("utf-8")
    atomic_write(path, lambda f: f.write(text))
