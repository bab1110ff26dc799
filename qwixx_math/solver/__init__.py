"""The exact optimal solitaire solver (issue 4; the mathematics is in docs/solver.md).

>>> from qwixx_math.model import Roll, Sheet
>>> from qwixx_math.rules import new_game
>>> from qwixx_math.solver import Variant, solve
>>> table = solve(variant=Variant.from_letters("ad", 4, 2, 2, 1), cache=False)
>>> round(table.start_value, 6)
-4.931228
>>> empty = Sheet.empty(table.variant.sheet)
>>> table.value(empty.with_penalty().with_penalty())  # the game is over: its score
-10.0
>>> game = new_game(1, layout=table.variant.sheet)
>>> str(table.best_plan(game, Roll.of(1, 2, red=3, yellow=6)).plan)
'r3/r4'

Positions and plans are the rules core's (:class:`~qwixx_math.model.Sheet`,
:class:`~qwixx_math.rules.GameState`, :class:`~qwixx_math.model.TurnPlan`;
the compact row states are :mod:`qwixx_math.keys`').

Modules: :mod:`.variant` (the game's shape), :mod:`.symmetry`,
:mod:`.layout` (where values live), :mod:`.kernel` (the numba kernel),
:mod:`.engine` (the solve loop), :mod:`.table` (look-ups and plan values),
:mod:`.cache` (files), :mod:`.api` (``solve``), :mod:`.naive` (the reference solver).
"""

from .api import solve
from .cache import CacheWarning, cache_dir
from .engine import SolveStats
from .naive import NaiveSolver
from .symmetry import symmetry_group
from .table import PlanValue, SolverTable
from .variant import Direction, Variant

__all__ = [
    "CacheWarning",
    "Direction",
    "NaiveSolver",
    "PlanValue",
    "SolveStats",
    "SolverTable",
    "Variant",
    "cache_dir",
    "solve",
    "symmetry_group",
]
