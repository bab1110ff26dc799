"""The one rule by which qwixx_math reads numbers and names from text (docs/notation.md).

Strict, everywhere (command-line options, policy specs, layout names, the sheet,
roll and mark notation, record files):

* A **number** is written in ASCII digits ``0``-``9``, with an optional leading
  ``-`` or ``+``, at most :data:`MAX_DIGITS` digits, and nothing else: no
  surrounding whitespace, no ``_`` (``int("1_000")``), no digits of other scripts
  (``int("\\u0663")``, an Arabic-Indic three, is 3 for Python, an error here).
* A **name** (a layout, a policy, a choice of a command-line option) is one of its
  documented spellings exactly: lower case, no surrounding whitespace.

Each helper raises :class:`~qwixx_math.errors.ParseError` naming what was being
read and the accepted spelling; the command-line wrappers in
:mod:`qwixx_math.commands._args` turn it into argparse's usage error (exit 2).

>>> parse_count("12", "--games", 1)
12
>>> try:
...     parse_count(" 2", "--games", 1)
... except ParseError as exc:
...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
--games: expected a whole number in ASCII digits 0-9 (at most 30, no spaces),
not ' 2'
>>> parse_name("mixx-a", "layout", ("official", "mixx-a", "mixx-b"))
'mixx-a'
>>> try:
...     parse_name("Official", "layout", ("official", "mixx-a", "mixx-b"))
... except ParseError as exc:
...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
unknown layout 'Official'; expected one of official, mixx-a, mixx-b
(names are lower case, without spaces: write 'official')
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from .display import clip, printable
from .errors import ParseError

__all__ = ["MAX_DIGITS", "is_count_text", "parse_count", "parse_decimal", "parse_name",
           "shown", "spelling_hint"]

#: Longest whole number accepted (no count or seed of this library needs more).
MAX_DIGITS = 30
_COUNT = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})"
                      r"(?:[eE][+-]?[0-9]{1,3})?")


def shown(text: object, width: int = 60) -> str:
    """``repr(text)`` clipped and made printable, for an error message."""
    return printable(clip(repr(text), width))


def is_count_text(text: object) -> bool:
    """Whether ``text`` is a whole number written by the rule (bounds aside)."""
    return isinstance(text, str) and _COUNT.fullmatch(text) is not None


def parse_count(text: str, what: str, low: int | None = None, high: int | None = None
                ) -> int:
    """The whole number ``text`` (ASCII digits, optional sign), ``low <= n <= high``.

    ``what`` names the value in the error (``"--games"``, ``"a skip threshold"``).
    Usable as it is by any command: ``parse_count(text, "--games", 1)``.
    """
    if not is_count_text(text):
        raise ParseError(f"{what}: expected a whole number in ASCII digits 0-9 (at most "
                         f"{MAX_DIGITS}, no spaces), not {shown(text)}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (f"between {low} and {high}" if low is not None and high is not None
                  else f"at least {low}" if low is not None else f"at most {high}")
        raise ParseError(f"{what}: must be {bounds}, not {value}")
    return value


def parse_decimal(text: str, what: str) -> float:
    """The finite decimal number ``text`` in ASCII (``0.05``, ``1e-3``, optional sign)."""
    if not isinstance(text, str) or not _DECIMAL.fullmatch(text) \
            or not math.isfinite(value := float(text)):
        raise ParseError(f"{what}: expected a decimal number in ASCII (e.g. 0.05), "
                         f"not {shown(text)}")
    return value


def parse_name(text: str, what: str, choices: Iterable[str]) -> str:
    """``text`` if it is one of ``choices`` exactly, else a ParseError naming them (and,
    for a near miss such as ``'Optimal'`` or ``'optimal '``, the spelling to write)."""
    names = list(choices)
    if isinstance(text, str) and text in names:
        return text
    raise ParseError(f"unknown {what} {shown(text)}; expected one of {', '.join(names)}"
                     f"{spelling_hint(text, names)}")


def spelling_hint(text: object, names: Iterable[str]) -> str:
    """``" (names are lower case, without spaces: write 'optimal')"`` when ``text`` is one
    of ``names`` but for case and surrounding whitespace, else ``""``."""
    if isinstance(text, str):
        near = text.strip().lower()
        if near != text and near in set(names):
            return f" (names are lower case, without spaces: write {near!r})"
    return ""
