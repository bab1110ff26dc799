"""Common dice: every rotation of a deal sees the same rolls, turn by turn.

Deal ``d`` of a match with seed ``S`` rolls :meth:`Dice.deal(S, d)
<qwixx_math.play.Dice.deal>`: ``random.Random(game_seed(S, d))``
(:func:`qwixx_math.validation.game_seed`), turn ``t`` (0-based) takes the ``t``-th
roll of all six dice (:func:`qwixx_math.rules.random_roll`), and the dice of the
colours closed by then are left out (R9).  So the dice depend on the match seed,
the deal and the turn only -- not on who sits where or what anyone marked.

``DealDice(seed, deal)`` is that :class:`~qwixx_math.play.Dice` (the name this
module has always exported).
"""

from __future__ import annotations

from ..play import Dice

__all__ = ["DealDice"]

#: ``DealDice(seed, deal)``: the dice of deal ``deal`` of a match with ``seed``.
DealDice = Dice.deal
