"""Exact dice mathematics of Qwixx: outcomes, exact distributions, turn events, multi-turn
chains and dice-fairness tests.  See ``docs/probability.md``.

>>> from qwixx_math.notation import parse_sheet
>>> turn_events(parse_sheet("r:-/p:0")).active.no_mark
Fraction(0, 1)
"""

from typing import TYPE_CHECKING, Any

from .distribution import Distribution, DistributionError
from .events import (
    PlayerEvents,
    RollEvents,
    TurnEvents,
    brute_force_events,
    roll_events,
    turn_events,
)
from .markov import CloseTime, turns_to_close
from .outcomes import (
    DICE_SETS,
    OutcomeTable,
    all_outcome_tables,
    colour_sum_sets,
    outcome_distribution,
    outcome_table,
    white_sum_distribution,
)

if TYPE_CHECKING:
    from .fairness import FairnessReport, FitTest, dice_fairness, parse_rolls, read_rolls

#: The fairness tests import scipy.stats (about a second), which nothing else needs:
#: they are imported on first use, so that every command does not pay for it.
_LAZY = frozenset({"FairnessReport", "FitTest", "dice_fairness", "parse_rolls", "read_rolls"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import fairness

        return getattr(fairness, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "DICE_SETS",
    "CloseTime",
    "Distribution",
    "DistributionError",
    "FairnessReport",
    "FitTest",
    "OutcomeTable",
    "PlayerEvents",
    "RollEvents",
    "TurnEvents",
    "all_outcome_tables",
    "brute_force_events",
    "colour_sum_sets",
    "dice_fairness",
    "outcome_distribution",
    "outcome_table",
    "parse_rolls",
    "read_rolls",
    "roll_events",
    "turn_events",
    "turns_to_close",
    "white_sum_distribution",
]
