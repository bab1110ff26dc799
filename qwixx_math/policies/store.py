"""Cached results (policy values, score distributions) as small checked JSON files.

They live beside the solver's tables (:func:`qwixx_math.solver.cache_dir`), one
file per variant, R15 option, policy and kind of result:
``policy-v{FORMAT}-{variant.key}-a2end{0|1}-{policy}-{kind}.json``.

Format: one ASCII line ``qwixx-math-result crc32=XXXXXXXX size=N`` (the CRC-32
and the length in bytes of the rest of the file), then the JSON body: the
result's identity (format, variant, option, policy, the solver table's format
and, for the optimal policy, the table's start value) and the payload.  Like the
solver's tables, the checksum is verified on the raw bytes *before* they are
decoded or parsed, so a damaged byte never reaches the JSON parser; a file
larger than :data:`MAX_RESULT_BYTES` is not read at all.  Writes are atomic
(temporary file, fsync, rename).  A file that does not verify is reported with
a :class:`~qwixx_math.solver.CacheWarning`, removed and recomputed; a file that
cannot be written (read-only directory, a file where the directory should be)
is reported with a :class:`~qwixx_math.solver.CacheWarning` and the result is
returned all the same.
"""

from __future__ import annotations

import contextlib
import json
import re
import warnings
import zlib
from pathlib import Path
from typing import Any

from ..solver.cache import FORMAT_VERSION as SOLVER_FORMAT
from ..solver.cache import CacheWarning, atomic_write
from ..solver.variant import Variant

__all__ = ["FORMAT_VERSION", "MAX_RESULT_BYTES", "load_result", "result_path", "save_result"]

#: Bump when a cached result's meaning or format changes (2: CRC of the raw bytes).
FORMAT_VERSION = 2
#: Largest cached result read (a score distribution is a few kilobytes).
MAX_RESULT_BYTES = 1 << 20
_MAGIC = b"qwixx-math-result"
_FIRST_LINE = re.compile(rb"qwixx-math-result crc32=([0-9a-f]{8}) size=([0-9]{1,8})\n")


def result_path(directory: Path, variant: Variant, a2_end: bool, policy: str, kind: str) -> Path:
    return directory / (f"policy-v{FORMAT_VERSION}-{variant.key}-a2end{int(a2_end)}-"
                        f"{policy}-{kind}.json")


def _identity(variant: Variant, a2_end: bool, policy: str, kind: str,
              table_start: float | None) -> dict[str, Any]:
    return {"format": FORMAT_VERSION, "solver_format": SOLVER_FORMAT,
            "variant": variant.to_json(), "action2_after_action1_end": a2_end,
            "policy": policy, "kind": kind, "table_start_value": table_start}


def _read_body(raw: bytes) -> tuple[bytes | None, str | None]:
    """The verified body of a file's bytes, or None and the problem."""
    end = raw.find(b"\n")
    match = _FIRST_LINE.fullmatch(raw[: end + 1]) if 0 <= end < 64 else None
    if match is None:
        return None, ("corrupt or foreign (not a qwixx_math result file)"
                      if not raw.startswith(_MAGIC) else "corrupt (bad first line)")
    body = raw[end + 1:]
    if len(body) != int(match.group(2)):
        return None, f"truncated or corrupt ({len(body)} bytes, expected {int(match.group(2))})"
    if zlib.crc32(body) != int(match.group(1), 16):
        return None, "corrupt (checksum mismatch)"
    return body, None


def _parse(body: bytes) -> tuple[Any, str | None]:
    """The JSON value of a verified body (a forged checksum can still hide anything)."""
    try:
        return json.loads(body.decode("utf-8")), None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # JSONDecodeError too
        return None, f"corrupt ({type(exc).__name__}: {str(exc)[:100]})"


def load_result(path: Path, variant: Variant, a2_end: bool, policy: str, kind: str,
                table_start: float | None) -> dict[str, Any] | None:
    """The payload of a verified file, or None (missing, or damaged: warned and removed)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_RESULT_BYTES + 1)
    except (FileNotFoundError, NotADirectoryError):  # nothing cached (yet)
        return None
    except OSError as exc:
        warnings.warn(f"{path}: unreadable ({exc}); recomputing", CacheWarning, stacklevel=3)
        return None
    wanted = _identity(variant, a2_end, policy, kind, table_start)
    data: Any = None
    problem: str | None
    if len(raw) > MAX_RESULT_BYTES:
        problem = f"corrupt (larger than {MAX_RESULT_BYTES} bytes)"
    else:
        body, problem = _read_body(raw)
        if body is not None:
            data, problem = _parse(body)
    if problem is None:
        if not isinstance(data, dict) or not isinstance(data.get("payload"), dict):
            problem = "corrupt (no payload)"
        elif {k: data.get(k) for k in wanted} != wanted:
            problem = "foreign or stale (another variant, policy or solver table)"
    if problem is not None:
        warnings.warn(f"{path}: {problem}; recomputing", CacheWarning, stacklevel=3)
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    payload: dict[str, Any] = data["payload"]
    return payload


def encode_result(variant: Variant, a2_end: bool, policy: str, kind: str,
                  table_start: float | None, payload: dict[str, Any]) -> bytes:
    """The bytes of a result file (the checksummed first line, then the JSON body)."""
    data = _identity(variant, a2_end, policy, kind, table_start)
    data["payload"] = payload
    body = json.dumps(data, sort_keys=True).encode("utf-8")
    return b"%s crc32=%08x size=%d\n" % (_MAGIC, zlib.crc32(body), len(body)) + body


def save_result(path: Path, variant: Variant, a2_end: bool, policy: str, kind: str,
                table_start: float | None, payload: dict[str, Any]) -> None:
    """Write atomically (a reader sees the old file or the new one, never half of one).

    A cache that cannot be written is warned about (:class:`CacheWarning`), not
    raised: the caller has its result and goes on without caching it.
    """
    text = encode_result(variant, a2_end, policy, kind, table_start, payload)
    try:
        atomic_write(path, lambda f: f.write(text))
    except OSError as exc:  # read-only directory, a file in the way, disk full, ...
        warnings.warn(f"could not write the result to {path} ({exc}); not cached",
                      CacheWarning, stacklevel=3)
