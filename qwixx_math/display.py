"""Untrusted text made safe to show: control and bidi characters escaped, long text clipped.

Player names come from other programs' records and error messages echo the
user's input, so neither reaches a terminal raw: :func:`printable` escapes every
control, format (bidi overrides, zero-width) and unencodable (surrogate) character
the way ``repr`` does, and :func:`clip` shortens an overlong message in the middle.

>>> printable("Kari\\x1b[31m\\u202e")
'Kari\\\\x1b[31m\\\\u202e'
>>> clip("x" * 50, 20)
'xxxxxxxx… (38 characters not shown) …xxxx'
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_MESSAGE", "clip", "printable"]

#: Longest error message the command line prints (longer ones are clipped in the middle).
MAX_MESSAGE = 1000
_UNSAFE = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, keep_newlines: bool = False) -> str:
    """``text`` with control, format, surrogate, private-use and unassigned characters
    escaped (``\\x1b``, ``\\u202e``); ``keep_newlines`` leaves ``\\n`` as it is."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        ch if (ch == "\n" and keep_newlines) or unicodedata.category(ch) not in _UNSAFE
        else _escape(ch) for ch in text)


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` shortened in the middle to about ``limit`` characters, saying how much
    was left out (the start says what is wrong, the end often where)."""
    if len(text) <= limit:
        return text
    head = max(limit * 2 // 5, 1)
    tail = max(limit // 5, 1)
    omitted = len(text) - head - tail
    return f"{text[:head]}… ({omitted} characters not shown) …{text[-tail:]}"
