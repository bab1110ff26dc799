"""qwixx_math: the exact mathematics of the dice game Qwixx."""

from .errors import CacheError, IllegalMoveError, InvalidStateError, ParseError, QwixxError
from .ruleset import DieRemoval, EndCheck, Ruleset

__version__ = "0.1.0"

__all__ = [
    "CacheError",
    "DieRemoval",
    "EndCheck",
    "IllegalMoveError",
    "InvalidStateError",
    "ParseError",
    "QwixxError",
    "Ruleset",
    "__version__",
]
