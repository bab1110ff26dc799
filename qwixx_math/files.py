"""Reading the user's files with a size limit, checked before a byte is read.

A command given a 2 GB file by mistake must refuse it at once with a clear
error, not spend minutes and gigabytes parsing it.  The limits themselves are
set where each kind of file is read (a game record: 4 MiB, see
:mod:`qwixx_math.validation.reader`; recorded rolls: 32 MB, see
:mod:`qwixx_math.dice.fairness`).
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import ParseError

__all__ = ["read_bytes_bounded", "read_text_bounded"]


def read_bytes_bounded(path: str | Path, limit: int, what: str,
                       error: type[ParseError] = ParseError) -> bytes:
    """The bytes of the file at ``path`` (``"-"`` is not special here), refusing one
    larger than ``limit`` bytes before reading it; ``error`` says what went wrong,
    naming the file and ``what`` it should hold."""
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        # open() would take an int as a file descriptor (0: standard input)
        raise error(f"the {what} file name must be text or a path, not "
                    f"{type(path).__name__}")
    source = str(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            raw = b"" if size > limit else f.read(limit + 1)  # a pipe may not know its size
    except OSError as exc:
        raise error(f"{source}: cannot read the {what}: {exc.strerror or exc}") from None
    except ValueError as exc:  # an embedded NUL character in the name
        raise error(f"cannot read the {what} {source!r}: {exc}") from None
    if size > limit or len(raw) > limit:
        how_big = f"{size:,} bytes" if size > limit else f"more than {limit:,} bytes"
        raise error(f"{source}: the {what} file is {how_big}; at most {limit:,} bytes "
                    f"({limit / 2**20:g} MiB) are read")
    return raw


def read_text_bounded(path: str | Path, limit: int, what: str,
                      error: type[ParseError] = ParseError) -> str:
    """:func:`read_bytes_bounded` decoded as UTF-8 (a leading byte-order mark is dropped)."""
    raw = read_bytes_bounded(path, limit, what, error)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: the {what} file is not UTF-8 text (byte {exc.start})") from None
