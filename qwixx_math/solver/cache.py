"""Solver tables on disk: where they live, the file format, safe writing and checked loading.

Directory: ``$QWIXX_MATH_CACHE`` if set, else the user cache directory
(``$XDG_CACHE_HOME/qwixx_math`` or ``~/.cache/qwixx_math`` on Linux,
``~/Library/Caches/qwixx_math`` on macOS, ``%LOCALAPPDATA%\\qwixx_math\\Cache``
on Windows).

File name: ``solitaire-v{FORMAT_VERSION}-{variant.key}-a2end{0|1}.qxt``, and for the
table model of N > 1 players ``table{N}-v...`` (same rest); only the part of the
ruleset that changes the values (:attr:`Ruleset.action2_after_action1_end`) is in
it, so rulesets that play the same game share a file.

Format (little endian)::

    0   8 bytes   MAGIC
    8   uint32    length H of the JSON header
    12  uint32    CRC-32 of the JSON header
    16  H bytes   JSON header: format, variant, ruleset key, start value, counts,
                  payload offset, payload CRC-32 (whole, and per 64 MiB block,
                  checked on every core when loading)
    ..  zero padding to a multiple of 64
    ..  payload   float64 values of every table (see :mod:`.layout`)

Writes go to a temporary file in the same directory that is flushed, synced and
renamed over the target, so a reader never sees half a file.  A ``.lock`` file
(``fcntl.flock``, where available) serialises solvers of the same table, so a
second process waits for the first and then loads its result.  Loading checks
the magic, both checksums, the sizes and that the header describes the wanted
table; any failure raises :class:`~qwixx_math.errors.CacheError` with the file
name and the problem, and the caller rebuilds the file.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import struct
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from ..errors import CacheError
from .threads import solver_threads
from .variant import Variant

__all__ = [
    "FORMAT_VERSION",
    "CacheWarning",
    "LoadedTable",
    "atomic_write",
    "cache_dir",
    "crc32_of_blocks",
    "file_lock",
    "read_table",
    "table_filename",
    "write_table",
]

#: Bump when the layout or the meaning of the values changes.
FORMAT_VERSION = 1
MAGIC = b"QWXSOLV\x00"
_PREFIX = struct.Struct("<8sII")
_ALIGN = 64
#: Largest header we accept (a foreign file could claim anything).
_MAX_HEADER = 1 << 20
_CHUNK = 1 << 24
#: Bytes per checksummed block of a table's payload (``payload_block_crc32``).
_BLOCK = 1 << 26


class CacheWarning(UserWarning):
    """A cached table was unusable (corrupt, truncated or foreign) and is rebuilt."""


def cache_dir() -> Path:
    """The directory solver tables are cached in (not created here)."""
    override = os.environ.get("QWIXX_MATH_CACHE")
    if override:
        return Path(override).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        base = Path(local) if local else home / "AppData" / "Local"
        return base / "qwixx_math" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "qwixx_math"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache"
    return base / "qwixx_math"


def table_filename(variant: Variant, action2_after_action1_end: bool, players: int = 1
                   ) -> str:
    """The cache file name of a table: model, format version, variant and ruleset key."""
    model = "solitaire" if players == 1 else f"table{players}"
    return (f"{model}-v{FORMAT_VERSION}-{variant.key}"
            f"-a2end{int(action2_after_action1_end)}.qxt")


def _header_identity(variant: Variant, action2_after_action1_end: bool, players: int = 1
                     ) -> dict[str, Any]:
    identity: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "variant": variant.to_json(),
        "action2_after_action1_end": action2_after_action1_end,
    }
    if players != 1:  # solitaire files keep the header they always had
        identity["players"] = players
    return identity


def _as_bytes(array: npt.NDArray[Any]) -> memoryview:
    """The raw bytes of a contiguous array, without a copy."""
    buffer: Any = array
    return memoryview(buffer).cast("B")


def _crc32(array: npt.NDArray[Any]) -> int:
    """CRC-32 of a (possibly memory-mapped) array's bytes, in chunks."""
    view = _as_bytes(array)
    crc = 0
    for start in range(0, len(view), _CHUNK):
        crc = zlib.crc32(view[start : start + _CHUNK], crc)
    return crc


def _block_crc32s(array: npt.NDArray[Any]) -> list[int]:
    """CRC-32 of every :data:`_BLOCK` bytes of an array, computed on every core.

    zlib releases the GIL on large buffers, so threads check the blocks of a
    memory-mapped table at once: a 1.7 GB table of 5 players loads in about half
    the time of one running checksum.
    """
    view = _as_bytes(array)
    starts = range(0, len(view), _BLOCK)
    with ThreadPoolExecutor(max_workers=solver_threads()) as pool:
        return list(pool.map(lambda start: zlib.crc32(view[start : start + _BLOCK]), starts))


def _gf2_times(matrix: list[int], vector: int) -> int:
    """The GF(2) product of a 32x32 bit matrix (one column per entry) and a vector."""
    total = 0
    i = 0
    while vector:
        if vector & 1:
            total ^= matrix[i]
        vector >>= 1
        i += 1
    return total


def _crc32_shift(length: int) -> list[int]:
    """The GF(2) matrix that advances a CRC-32 register over ``length`` zero bytes
    (zlib's ``crc32_combine`` operator, by repeated squaring)."""
    power = [0xEDB88320] + [1 << n for n in range(31)]  # one zero bit
    for _ in range(3):  # eight zero bits: one byte
        power = [_gf2_times(power, column) for column in power]
    result = [1 << n for n in range(32)]  # the identity
    while length:
        if length & 1:
            result = [_gf2_times(power, column) for column in result]
        length >>= 1
        if length:
            power = [_gf2_times(power, column) for column in power]
    return result


def crc32_of_blocks(blocks: list[int], size: int, block: int) -> int:
    """The CRC-32 of ``size`` bytes from the CRC-32 of each of their ``block``-byte
    blocks (the last one shorter), as ``zlib.crc32`` of the whole would give it:
    ``crc(A + B) = shift_len(B)(crc(A)) ^ crc(B)`` (zlib's ``crc32_combine``), so the
    whole payload's checksum costs no second pass over the table."""
    if len(blocks) != -(-size // block) or block < 1:
        raise ValueError(f"{len(blocks)} blocks of {block} bytes cannot hold {size} bytes")
    if not blocks:
        return 0
    full = _crc32_shift(block)
    crc = blocks[0]
    for crc_block in blocks[1:-1]:
        crc = _gf2_times(full, crc) ^ crc_block
    if len(blocks) > 1:
        tail = size - block * (len(blocks) - 1)
        last = full if tail == block else _crc32_shift(tail)
        crc = _gf2_times(last, crc) ^ blocks[-1]
    return crc


def _write_payload(f: BinaryIO, view: memoryview, offset: int) -> None:
    """Write ``view`` at byte ``offset`` of the open file ``f`` (its buffered bytes
    before): in :data:`_BLOCK` pieces on every core with ``os.pwrite`` where there is
    one (the kernel's page-cache work per page, most of a big table's write, runs on
    both cores then), else in one go."""
    f.flush()
    pwrite = getattr(os, "pwrite", None)
    if pwrite is None or len(view) <= _BLOCK:  # pragma: no cover - not on POSIX
        f.seek(offset)
        f.write(view)
        return
    fd = f.fileno()

    def put(start: int) -> None:
        piece = view[start : start + _BLOCK]
        done = 0
        while done < len(piece):  # (a write may be partial)
            done += pwrite(fd, piece[done:], offset + start + done)

    with ThreadPoolExecutor(max_workers=solver_threads()) as pool:
        for _ in pool.map(put, range(0, len(view), _BLOCK)):
            pass
    f.seek(offset + len(view))


def write_table(
    path: Path,
    variant: Variant,
    action2_after_action1_end: bool,
    data: npt.NDArray[np.float64],
    start_value: float,
    extra: dict[str, Any] | None = None,
    players: int = 1,
) -> None:
    """Write a table atomically (temporary file, fsync, rename)."""
    payload = np.ascontiguousarray(data, dtype="<f8")
    header: dict[str, Any] = _header_identity(variant, action2_after_action1_end, players)
    header.update(extra or {})
    blocks = _block_crc32s(payload)  # on every core; the whole one from them
    header.update(
        {
            "start_value": float(start_value),
            "count": int(payload.size),
            "dtype": "<f8",
            "payload_crc32": crc32_of_blocks(blocks, payload.nbytes, _BLOCK),
            "payload_block_bytes": _BLOCK,
            "payload_block_crc32": blocks,
        }
    )
    # the payload offset depends on the header length, which depends on the offset
    offset = 0
    while True:
        header["payload_offset"] = offset
        text = json.dumps(header, sort_keys=True).encode("utf-8")
        needed = -(-(_PREFIX.size + len(text)) // _ALIGN) * _ALIGN
        if needed == offset:
            break
        offset = needed
    prefix = _PREFIX.pack(MAGIC, len(text), zlib.crc32(text))
    padding = b"\x00" * (offset - _PREFIX.size - len(text))

    def write(f: BinaryIO) -> None:
        f.write(prefix)
        f.write(text)
        f.write(padding)
        _write_payload(f, _as_bytes(payload), offset)

    atomic_write(path, write)


#: Temporary files of :func:`atomic_write` are named ``qwixx-tmp.{pid}.{random}.{target}``.
TEMP_PREFIX = "qwixx-tmp."
#: A temporary file this old is stale even if a process with its writer's pid runs.
STALE_SECONDS = 3600.0


def _pid_alive(pid: int) -> bool:
    """Whether a process with ``pid`` runs on this machine (True when unsure)."""
    if sys.platform == "win32" or pid <= 0:  # os.kill(pid, 0) would terminate it on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it runs, as another user
        return True
    return True


def remove_stale_temporaries(directory: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files an interrupted :func:`atomic_write` left in ``directory``
    (a ``kill -9`` during a 337 MB table write leaves 337 MB behind); returns them.

    A temporary file is stale when the process that wrote it (its name holds the
    pid) no longer runs, or when it is older than :data:`STALE_SECONDS`.  The
    temporaries of format-1 writers (``{target}.{random}.tmp``, no pid) are
    stale after :data:`STALE_SECONDS`.  Never raises: a file that cannot be
    examined or removed is left alone.
    """
    import time

    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if name.startswith(TEMP_PREFIX):
            pid_text = name[len(TEMP_PREFIX):].split(".", 1)[0]
            pid = int(pid_text) if pid_text.isascii() and pid_text.isdigit() else -1
        elif name.endswith(".tmp") and (name.startswith("solitaire-") or
                                        name.startswith("policy-")):
            pid = -1  # an older writer's name: the age decides
        else:
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            age = now - entry.stat(follow_symlinks=False).st_mtime
            dead = pid > 0 and pid != os.getpid() and not _pid_alive(pid)
            if dead or age > STALE_SECONDS:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def check_padding(path: Path, header_length: int, payload_offset: int) -> None:
    """Verify that the bytes between a table file's JSON header and its payload are zero
    (the header's CRC does not cover them); raises CacheError naming the file.

    ``header_length`` is the JSON header's length from the prefix, ``payload_offset``
    the header's ``payload_offset``.
    """
    start = _PREFIX.size + header_length
    if not start <= payload_offset < start + _ALIGN:
        raise CacheError(f"{path}: corrupt header (payload offset {payload_offset} does not "
                         f"follow the {header_length}-byte header)")
    with open(path, "rb") as f:
        f.seek(start)
        padding = f.read(payload_offset - start)
    if len(padding) != payload_offset - start:
        raise CacheError(f"{path}: truncated (header padding cut short)")
    if padding.count(0) != len(padding):
        raise CacheError(f"{path}: corrupt header padding (not zero)")


def atomic_write(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` atomically: ``write`` fills a temporary file in the same directory,
    which is flushed, fsynced and renamed over ``path``, so a reader sees the old file or
    the new one, never half of one.  A failure removes the temporary file; the stale
    temporaries of writers that were killed are removed first
    (:func:`remove_stale_temporaries`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path.parent)
    fd, tmp_name = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}.",
                                    suffix="." + path.name, dir=path.parent)
    tmp = Path(tmp_name)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; make it a normal cache file
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if hasattr(os, "O_DIRECTORY"):  # make the rename itself durable
        with contextlib.suppress(OSError):
            dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)


@dataclass(frozen=True, slots=True)
class LoadedTable:
    """A verified table file: its header and its memory-mapped payload (read-only)."""

    path: Path
    header: dict[str, Any]
    data: npt.NDArray[np.float64]

    @property
    def start_value(self) -> float:
        return float(self.header["start_value"])


def read_table(
    path: Path, variant: Variant, action2_after_action1_end: bool, count: int,
    players: int = 1,
) -> LoadedTable:
    """Load and verify a table file; raises CacheError naming the file and the problem.

    ``count`` is the number of values the table must hold.  FileNotFoundError
    propagates unchanged (a missing file is not a problem to report).
    """
    with open(path, "rb") as f:
        prefix = f.read(_PREFIX.size)
        if len(prefix) < _PREFIX.size:
            raise CacheError(f"{path}: truncated (no complete header)")
        magic, length, header_crc = _PREFIX.unpack(prefix)
        if magic != MAGIC:
            raise CacheError(f"{path}: not a qwixx_math solver table (bad magic)")
        if length > _MAX_HEADER:
            raise CacheError(f"{path}: corrupt header (claims {length} bytes)")
        text = f.read(length)
        size = os.fstat(f.fileno()).st_size
    if len(text) < length:
        raise CacheError(f"{path}: truncated (header cut short)")
    if zlib.crc32(text) != header_crc:
        raise CacheError(f"{path}: corrupt header (checksum mismatch)")
    try:
        header = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        # ValueError: bad JSON, or an integer past Python's digit limit; RecursionError:
        # nesting deeper than the parser goes.  A forged header can have a valid checksum.
        raise CacheError(f"{path}: corrupt header ({type(exc).__name__}: "
                         f"{str(exc)[:100]})") from None
    if not isinstance(header, dict):
        raise CacheError(f"{path}: corrupt header (not an object)")
    wanted = _header_identity(variant, action2_after_action1_end, players)
    found = {key: header.get(key) for key in wanted}
    if found != wanted or header.get("players", 1) != players:
        raise CacheError(f"{path}: foreign table (holds {_clipped(found, 200)}, "
                         f"wanted {wanted})")
    offset = _header_int(path, header, "payload_offset", 1 << 62)
    stored = _header_int(path, header, "count", 1 << 62)
    payload_crc = _header_int(path, header, "payload_crc32", 0xFFFFFFFF)
    start_value = header.get("start_value")
    if isinstance(start_value, bool) or not isinstance(start_value, (int, float)) \
            or not -1e6 < start_value < 1e6:
        raise CacheError(f"{path}: corrupt header (start_value {_clipped(start_value)} "
                         "is not a finite number)")
    if header.get("dtype") != "<f8" or stored != count:
        dtype = _clipped(header.get("dtype"))
        raise CacheError(f"{path}: foreign table ({stored} values of {dtype}, "
                         f"wanted {count} of <f8)")
    expected_size = offset + 8 * count
    if size < expected_size:
        raise CacheError(f"{path}: truncated ({size} bytes, expected {expected_size})")
    if size > expected_size:
        raise CacheError(f"{path}: corrupt ({size - expected_size} unexpected trailing bytes)")
    check_padding(path, length, offset)
    data = _map_payload(path, offset, count)
    blocks = header.get("payload_block_crc32")
    if header.get("payload_block_bytes") == _BLOCK and isinstance(blocks, list):
        intact = _block_crc32s(data) == blocks  # checked on every core
    else:  # a file written before the block checksums
        intact = _crc32(data) == payload_crc
    if not intact:
        del data
        raise CacheError(f"{path}: corrupt payload (checksum mismatch)")
    return LoadedTable(path, header, data)


def _clipped(value: object, width: int = 40) -> str:
    """``repr(value)`` cut to ``width`` characters (a forged header can be 1 MB)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past the digit limit, deep nesting
        return "a huge number"
    return text if len(text) <= width else text[:width - 3] + "..."


def _header_int(path: Path, header: dict[str, Any], key: str, high: int) -> int:
    """The header's field ``key``, a JSON whole number in ``0..high``, else CacheError.

    A forged header can hold anything under a valid checksum (``1e999``, a
    5,000-digit number, a string): every such value is a corrupt header, so the
    caller rebuilds the file instead of failing on every run.
    """
    value = header.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise CacheError(f"{path}: corrupt header ({key} {_clipped(value)} is not a whole "
                         f"number 0..{high})")
    return value


def _map_payload(path: Path, offset: int, count: int) -> npt.NDArray[np.float64]:
    """The payload as a read-only array over a memory map of the file.

    On Linux the map is populated up front (MAP_POPULATE): the checksum reads
    every page anyway, and one bulk fault is faster than one per page.
    """
    with open(path, "rb") as f:
        populate = getattr(mmap, "MAP_POPULATE", 0)
        if populate and hasattr(mmap, "MAP_SHARED"):
            mapped = mmap.mmap(f.fileno(), 0, flags=mmap.MAP_SHARED | populate,
                               prot=mmap.PROT_READ)
        else:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    data: npt.NDArray[np.float64] = np.frombuffer(mapped, dtype="<f8", count=count,
                                                  offset=offset)
    return data


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` + ``.lock`` (waits for other holders).

    Without ``fcntl`` (Windows) this does not lock; atomic renames still keep
    the cache consistent, at worst two processes solve the same table.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    lock_path = path.with_name(path.name + ".lock")
    with open(lock_path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
