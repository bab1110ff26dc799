"""The exact optimal solitaire solver (issue 4; the mathematics is in docs/solver.md).

>>> from qwixx_math.solver import RowState, Variant, solve
>>> table = solve(variant=Variant.from_letters("ad", 4, 2, 2, 1), cache=False)
>>> round(table.start_value, 6)
-4.931228
>>> table.value([RowState(), RowState()], 2)  # the game is over: its score
-10.0
>>> table.best_plan([RowState(), RowState()], 0, (1, 2, {0: 3, 1: 6})).plan
TurnPlan(action1=(0, 3), action2=(0, 4))

Modules: :mod:`.variant` (the game's shape), :mod:`.state` (row states and
codes), :mod:`.plans` (one turn in plain Python), :mod:`.symmetry`,
:mod:`.layout` (where values live), :mod:`.kernel` (the numba kernel),
:mod:`.engine` (the solve loop), :mod:`.table` (look-ups and plan values),
:mod:`.cache` (files), :mod:`.api` (``solve``), :mod:`.naive` (the reference solver).
"""

from .api import solve
from .cache import CacheWarning, cache_dir
from .engine import SolveStats
from .naive import NaiveSolver
from .plans import Mark, Outcome, Roll, TurnPlan, turn_outcomes
from .state import RowState
from .symmetry import symmetry_group
from .table import PlanValue, SolverTable
from .variant import Direction, Variant

__all__ = [
    "CacheWarning",
    "Direction",
    "Mark",
    "NaiveSolver",
    "Outcome",
    "PlanValue",
    "Roll",
    "RowState",
    "SolveStats",
    "SolverTable",
    "TurnPlan",
    "Variant",
    "cache_dir",
    "solve",
    "symmetry_group",
    "turn_outcomes",
]
