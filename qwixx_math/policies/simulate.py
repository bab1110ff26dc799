"""A seeded simulator of solitaire games under any table-driven policy.

The dice are drawn first, as one array per block of games (numpy
``Generator(PCG64(...))``, block ``b`` seeded by ``SeedSequence(seed,
spawn_key=(b,))``), so a run depends on ``(seed, games)`` only -- not on the
number of threads or how they share the games.  The games are then played by
the compiled engine (:func:`qwixx_math.policies.engine.simulate_games`, numba,
parallel over games) with the policy's priority function.  The mean comes with
a Student-t confidence interval (``scipy.stats``).

:func:`play_game` plays one game of the same dice through the rules core
(:class:`~qwixx_math.rules.GameState`) with a Python policy's ``choose``; the
tests check that both give the same final score, game by game.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from scipy import stats  # type: ignore[import-untyped]

from ..errors import ParseError
from ..layouts import OFFICIAL, SheetLayout
from ..model import COLOURS, Roll
from ..rules import GameState, new_game
from ..ruleset import Ruleset
from ..solver.variant import Variant
from . import engine
from .base import Policy
from .geometry import geometry, readonly_table
from .spec import PolicySpec

__all__ = ["BLOCK", "SimulationResult", "max_turns", "play_game", "roll_dice", "simulate_tables"]

#: Games per block of dice (one child seed each).
BLOCK = 8192
#: Games per work unit of a thread.
CHUNK = 256


def max_turns(variant: Variant) -> int:
    """An upper bound on a game's turns: each turn marks a number or a penalty box."""
    return variant.rows * variant.row_length + variant.penalty_boxes


def roll_dice(games: int, seed: int, variant: Variant | None = None) -> npt.NDArray[np.int8]:
    """``dice[g, t]`` = (white 1, white 2, die of row 0, row 1, ...) of turn ``t`` of game ``g``."""
    variant = variant if variant is not None else Variant()
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ParseError(f"the number of games must be a whole number >= 1, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ParseError(f"a seed must be a whole number >= 0, not {seed!r}")
    turns = max_turns(variant)
    width = 2 + variant.rows
    dice = np.empty((games, turns, width), dtype=np.int8)
    for b, first in enumerate(range(0, games, BLOCK)):
        n = min(BLOCK, games - first)
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(b,))))
        dice[first:first + n] = rng.integers(1, variant.faces + 1, size=(n, turns, width),
                                             dtype=np.int8)
    return dice


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Final scores of simulated games and their summary."""

    policy: str
    games: int
    seed: int
    action2_after_action1_end: bool
    scores: npt.NDArray[np.int64] = field(repr=False, compare=False)
    turns: npt.NDArray[np.int64] = field(repr=False, compare=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def mean(self) -> float:
        return float(np.mean(self.scores))

    @property
    def sd(self) -> float:
        """The sample standard deviation (n - 1)."""
        return float(np.std(self.scores, ddof=1)) if self.games > 1 else 0.0

    def confidence_interval(self, level: float = 0.95) -> tuple[float, float]:
        """Student-t interval for the mean score."""
        if not 0 < level < 1:
            raise ParseError(f"a confidence level is in (0, 1), not {level!r}")
        if self.games < 2 or self.sd == 0.0:
            return self.mean, self.mean
        low, high = stats.t.interval(level, self.games - 1, loc=self.mean,
                                     scale=self.sd / math.sqrt(self.games))
        return float(low), float(high)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_json(self) -> dict[str, object]:
        low, high = self.confidence_interval()
        return {
            "policy": self.policy, "games": self.games, "seed": self.seed,
            "action2_after_game_end": self.action2_after_action1_end,
            "mean": self.mean, "sd": self.sd, "ci95": [low, high],
            "mean_turns": float(np.mean(self.turns)), "seconds": self.seconds,
        }


def simulate_tables(
    spec: PolicySpec,
    variant: Variant,
    action2_after_action1_end: bool,
    games: int,
    seed: int,
    vstar: npt.NDArray[np.float64] | None = None,
    dice: npt.NDArray[np.int8] | None = None,
) -> SimulationResult:
    """Play ``games`` games (dice from :func:`roll_dice` unless given)."""
    start = time.perf_counter()
    geo = geometry(variant)
    table = readonly_table(vstar, geo.layout.size, spec.needs_table)
    if dice is None:
        dice = roll_dice(games, seed, variant)
    scores = np.zeros(dice.shape[0], dtype=np.int64)
    turns = np.zeros(dice.shape[0], dtype=np.int64)
    engine.simulate_games(geo.engine_args(action2_after_action1_end), int(spec.kind),
                          float(spec.param), table, dice, scores, turns, CHUNK)
    return SimulationResult(spec.name, int(dice.shape[0]), seed, action2_after_action1_end,
                            scores, turns, time.perf_counter() - start)


def play_game(policy: Policy, ruleset: Ruleset, dice: npt.NDArray[np.int8],
              layout: SheetLayout | str = OFFICIAL) -> GameState:
    """One solitaire game on ``layout`` through the rules core: turn ``t`` rolls ``dice[t]``
    (white 1, white 2, then the die of each of the layout's rows, as :func:`roll_dice`
    draws them; the dice of closed rows are not rolled), the policy chooses,
    ``GameState.play_plan`` applies."""
    state = new_game(ruleset=ruleset, layout=layout)
    locks = state.layout.locks
    for row in dice:
        if state.is_over:
            break
        faces: list[int | None] = [None] * len(COLOURS)
        for r, c in enumerate(locks):
            if c not in state.closed:
                faces[c.index] = int(row[2 + r])
        roll = Roll((int(row[0]), int(row[1])), (faces[0], faces[1], faces[2], faces[3]),
                    state.layout.faces)
        state = state.play_plan(roll, policy.choose(state, roll))
    if not state.is_over:
        raise ParseError("the dice ran out before the game ended")
    return state
