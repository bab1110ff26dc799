"""Exception types of qwixx_math.

Every error the library raises on purpose derives from :class:`QwixxError`.  The
ones caused by bad input are also :class:`ValueError`, so ``except ValueError``
keeps working for callers that do not care about the distinction.
"""

from __future__ import annotations

import re

__all__ = [
    "CacheError",
    "IllegalMoveError",
    "InvalidStateError",
    "ParseError",
    "QwixxError",
    "check_whole_number",
]


class QwixxError(Exception):
    """Base class of every error raised by qwixx_math on purpose."""


#: A message's leading rule id (``"R12: ..."``): RULES.md's R1..R18 or a variant id of
#: VARIANTS.md (``"DB2: ..."``).
_RULE_PREFIX = re.compile(r"((?:R|V|BP|BA|BB|CS|CC|DA|DB|LG|XC)\d{1,2}): ")


class ParseError(QwixxError, ValueError):
    """Malformed text or JSON: says what was expected and where.

    ``text`` is the input (or the JSON fragment) that failed, ``position`` the
    character offset of the problem in ``text`` when one is known.  ``rule`` is
    the id of the rule of RULES.md the input contradicts (``"R2"`` for a number
    no row holds), like :class:`IllegalMoveError`'s, or None when the problem is
    the form only; the message then starts with it (``"R2: ..."``).  A message
    that already starts with a rule id (``"R3: a table has ..."``) sets ``rule``.
    """

    def __init__(self, message: str, text: str = "", position: int | None = None, *,
                 rule: str | None = None) -> None:
        if rule is None:
            match = _RULE_PREFIX.match(message)
            if match is not None:
                rule, message = match.group(1), message[match.end():]
        where = f" (at character {position} of {text!r})" if position is not None and text else ""
        super().__init__((f"{rule}: " if rule is not None else "") + message + where)
        self.text = text
        self.position = position
        self.rule = rule


class InvalidStateError(QwixxError, ValueError):
    """A well-formed value that no legal game can produce (e.g. a lock without 5 marks).

    ``rule`` is the id of the rule of RULES.md that the value contradicts.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


class IllegalMoveError(QwixxError, ValueError):
    """A move or turn that the rules forbid; nothing was applied.

    ``rule`` is the rule id (``"R8"``), ``player`` the index of the player whose
    choice broke it (``None`` when the problem is not one player's, e.g. a roll).
    The message ends with the position in the text notation, so that it can be
    pasted back into the command line.
    """

    def __init__(self, rule: str, message: str, player: int | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.player = player


class CacheError(QwixxError):
    """A solver table file that is missing, corrupt, truncated or foreign."""


def check_whole_number(name: str, value: object, low: int, high: int) -> int:
    """``value`` if it is a whole number (not a bool) from ``low`` to ``high``; else a
    :class:`ParseError` that names ``name`` (the arena's, the win advice's and the policy
    search's checks of their counts and seeds)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ParseError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ParseError(f"{name} must be between {low} and {high}, not {value}")
    return value
