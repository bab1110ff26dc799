"""Policies for solitaire Qwixx: the optimal one and human heuristics, their exact values,
the exact distribution of the final score, and a fast seeded simulator.

>>> from qwixx_math.policies import PolicySpec, make_policy
>>> from qwixx_math.rules import new_game
>>> from qwixx_math.notation import parse_roll
>>> policy = make_policy("seed-tips")
>>> str(policy.choose(new_game(1), parse_roll("w:1,2/r:6/y:6/g:6/b:6")))
'r3/-'

See docs/policies.md.
"""

from .api import (
    CrossValue,
    PolicyValue,
    cross_value,
    make_policy,
    policy_value,
    policy_values,
    score_distribution,
    simulate,
)
from .base import HeuristicPolicy, OptimalPolicy, Policy, PriorityPolicy
from .distribution import PERCENTILES, ScoreDistribution
from .scoring import PolicyKind, priority
from .simulate import SimulationResult, play_game, roll_dice
from .spec import DEFAULT_SPECS, PolicySpec

__all__ = [
    "DEFAULT_SPECS",
    "PERCENTILES",
    "CrossValue",
    "HeuristicPolicy",
    "OptimalPolicy",
    "Policy",
    "PolicyKind",
    "PolicySpec",
    "PolicyValue",
    "PriorityPolicy",
    "ScoreDistribution",
    "SimulationResult",
    "cross_value",
    "make_policy",
    "play_game",
    "policy_value",
    "policy_values",
    "priority",
    "roll_dice",
    "score_distribution",
    "simulate",
]
