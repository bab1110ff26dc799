"""``random``: every choice uniform among passing and the legal marks (seeded).

The same chooser as :func:`qwixx_math.record.random_game`'s
(:func:`~qwixx_math.record.uniform_chooser`), so a match against it explores
the rules widely: early closes, penalties, fourth penalties.  Not a baseline of
play; a referee's and a bot's test partner.
"""

from __future__ import annotations

import random

from ..model import Mark
from ..record import uniform_chooser
from ..rules import GameState, legal_action1, legal_action2
from ..ruleset import Ruleset

__all__ = ["RandomPlayer", "make"]


class RandomPlayer:
    """The ``random`` player; its choices depend on ``seed`` and the states it is shown."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def new_game(self, seat: int, state: GameState) -> None:
        pass

    def action1(self, seat: int, state: GameState) -> Mark | None:
        return uniform_chooser(state, seat, legal_action1(state, seat), self.rng)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return uniform_chooser(state, seat, legal_action2(state), self.rng)

    def game_over(self, seat: int, state: GameState) -> None:
        pass


def make(ruleset: Ruleset, seed: int) -> RandomPlayer:
    """The registry's factory."""
    return RandomPlayer(seed)
