"""Players: programs that choose marks at a Qwixx table (the arena's contestants).

Every player implements :class:`~qwixx_math.players.base.Player`; the arena
(:mod:`qwixx_math.arena`) is the referee that asks them and checks their answers
through the rules core.
"""

from .base import Player

__all__ = ["Player"]
