"""Argument types shared by the commands: ASCII whole numbers and decimals, usable paths.

``int`` and ``float`` accept any Unicode digit (``int("\\u0663")``, an Arabic-Indic
three, is 3) and underscores (``int("1_000")``); a command-line number is ASCII
digits only (an optional sign, at most :data:`MAX_DIGITS` digits).  A path may
not be empty (``--out ''`` would silently mean the current directory) nor hold
a NUL character.  Each type raises :class:`argparse.ArgumentTypeError`, so
argparse prints the usage and the problem and exits with code 2.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from ..display import clip, printable

__all__ = ["MAX_DIGITS", "ascii_float", "ascii_int", "path_arg"]

#: Longest whole number accepted (no count or seed of this library needs more).
MAX_DIGITS = 30
_INT = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_FLOAT = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})"
                    r"(?:[eE][+-]?[0-9]{1,3})?")


def _shown(text: str) -> str:
    return printable(clip(repr(text), 60))


def ascii_int(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """The argparse type of a whole number written in ASCII digits, ``low <= n <= high``."""

    def parse(text: str) -> int:
        if not _INT.fullmatch(text):
            raise argparse.ArgumentTypeError(
                f"expected a whole number in ASCII digits 0-9 (at most {MAX_DIGITS}), "
                f"not {_shown(text)}")
        value = int(text)
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = (f"between {low} and {high}" if low is not None and high is not None
                      else f"at least {low}" if low is not None else f"at most {high}")
            raise argparse.ArgumentTypeError(f"must be {bounds}, not {value}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


def ascii_float(text: str) -> float:
    """The argparse type of a finite decimal number written in ASCII (``0.05``, ``1e-3``)."""
    if not _FLOAT.fullmatch(text) or not math.isfinite(value := float(text)):
        raise argparse.ArgumentTypeError(
            f"expected a decimal number in ASCII (e.g. 0.05), not {_shown(text)}")
    return value


def path_arg(text: str) -> str:
    """The argparse type of a file or directory name: not empty, no NUL character."""
    if not text:
        raise argparse.ArgumentTypeError("a file or directory name may not be empty "
                                         "(write '.' for the current directory)")
    if "\x00" in text:
        raise argparse.ArgumentTypeError(f"a file name may not hold a NUL character: "
                                         f"{_shown(text)}")
    return text
