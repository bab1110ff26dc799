"""qwixx_math: the exact mathematics of the dice game Qwixx.

The rules core is imported eagerly; the solver-backed parts (:class:`Advisor`,
:func:`advise`, :func:`solve`, :class:`TableAdvisor`, :func:`advise_win`) are imported on first
use, so that ``import qwixx_math`` stays quick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import CacheError, IllegalMoveError, InvalidStateError, ParseError, QwixxError
from .keys import sheet_from_key, sheet_key
from .model import COLOURS, Colour, Mark, Roll, Sheet, TurnPlan, row_points
from .notation import (
    colour_set,
    format_action1,
    format_colours,
    format_mark,
    format_plan,
    format_roll,
    format_sheet,
    mark_from_json,
    mark_to_json,
    parse_action1,
    parse_colours,
    parse_mark,
    parse_plan,
    parse_roll,
    parse_sheet,
    plan_from_json,
    plan_to_json,
    roll_from_json,
    roll_to_json,
    sheet_from_json,
    sheet_to_json,
)
from .record import GameRecord, random_game, replay
from .rules import (
    GameState,
    Phase,
    can_mark,
    legal_action1,
    legal_action2,
    legal_plans,
    new_game,
    random_roll,
    turn_outcomes,
    why_not_mark,
)
from .ruleset import DieRemoval, EndCheck, Ruleset

if TYPE_CHECKING:
    from .advice import Advisor, advise
    from .solver import solve
    from .table import TableAdvisor
    from .winadvice import WinAdvice, advise_win

__version__ = "0.1.0"

_LAZY = {"Advisor": "advice", "advise": "advice", "solve": "solver", "TableAdvisor": "table",
         "WinAdvice": "winadvice", "advise_win": "winadvice"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'qwixx_math' has no attribute {name!r}")


__all__ = [
    "COLOURS",
    "Advisor",
    "CacheError",
    "Colour",
    "DieRemoval",
    "EndCheck",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "InvalidStateError",
    "Mark",
    "ParseError",
    "Phase",
    "QwixxError",
    "Roll",
    "Ruleset",
    "Sheet",
    "TableAdvisor",
    "TurnPlan",
    "WinAdvice",
    "__version__",
    "advise",
    "advise_win",
    "can_mark",
    "colour_set",
    "format_action1",
    "format_colours",
    "format_mark",
    "format_plan",
    "format_roll",
    "format_sheet",
    "legal_action1",
    "legal_action2",
    "legal_plans",
    "mark_from_json",
    "mark_to_json",
    "new_game",
    "parse_action1",
    "parse_colours",
    "parse_mark",
    "parse_plan",
    "parse_roll",
    "parse_sheet",
    "plan_from_json",
    "plan_to_json",
    "random_game",
    "random_roll",
    "replay",
    "roll_from_json",
    "roll_to_json",
    "row_points",
    "sheet_from_json",
    "sheet_from_key",
    "sheet_key",
    "sheet_to_json",
    "solve",
    "turn_outcomes",
    "why_not_mark",
]
