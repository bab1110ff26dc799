"""Common dice: every rotation of a deal sees the same rolls, turn by turn.

Deal ``d`` of a match with seed ``S`` draws its dice from
``random.Random(game_seed(S, d))`` (:func:`qwixx_math.validation.game_seed`):
turn ``t`` (0-based) takes the ``t``-th roll of all six dice
(:func:`qwixx_math.rules.random_roll`), and the dice of the colours closed by
then are left out (R9).  So the dice depend on the match seed, the deal and the
turn only -- not on who sits where or what anyone marked.
"""

from __future__ import annotations

import random

from ..model import COLOURS, Colour, Roll
from ..rules import random_roll
from ..validation.generate import game_seed

__all__ = ["DealDice"]


class DealDice:
    """The rolls of one deal; :meth:`roll` gives turn ``t``'s roll for the colours in play."""

    __slots__ = ("_rng", "_rolls", "deal", "seed")

    def __init__(self, seed: int, deal: int) -> None:
        self.seed = seed
        self.deal = deal
        self._rng = random.Random(game_seed(seed, deal))
        self._rolls: list[Roll] = []

    def full_roll(self, turn: int) -> Roll:
        """Turn ``turn``'s roll of all six dice (drawn on first use, then kept)."""
        rolls = self._rolls
        while len(rolls) <= turn:
            rolls.append(random_roll(self._rng))
        return rolls[turn]

    def roll(self, turn: int, closed: frozenset[Colour]) -> Roll:
        """Turn ``turn``'s roll without the dice of the ``closed`` colours."""
        full = self.full_roll(turn)
        if not closed:
            return full
        c = tuple(None if colour in closed else die
                  for colour, die in zip(COLOURS, full.coloured, strict=True))
        return Roll.unchecked(full.white, (c[0], c[1], c[2], c[3]))
