"""The one interface every player implements, built-in or external.

The arena calls a player once per game with :meth:`Player.new_game`, then for
every roll :meth:`Player.action1` (every seat, active or not, from the same
``ACTION1`` state, simultaneously), then :meth:`Player.action2` (the active seat
only, from the ``ACTION2`` state that holds everybody's action 1), and at the end
:meth:`Player.game_over`.  Seats are 0-based indexes into ``state.sheets``.  A
player answers a :class:`~qwixx_math.model.Mark` or ``None`` (no mark); the arena,
not the player, decides whether the answer is legal.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..model import Mark
from ..rules import GameState

__all__ = ["Player", "with_simultaneous_action1"]


@runtime_checkable
class Player(Protocol):
    """A Qwixx player: one object per seat for a whole match."""

    #: A short name for reports (``"greedy"``, ``"win"``, ``"exec:./bot"``).
    name: str

    def new_game(self, seat: int, state: GameState) -> None:
        """A game begins; ``state`` is its first ``ROLL`` state."""

    def action1(self, seat: int, state: GameState) -> Mark | None:
        """This seat's white-sum choice; ``state`` is in the ``ACTION1`` phase."""

    def action2(self, seat: int, state: GameState) -> Mark | None:
        """The active seat's white-plus-colour choice; ``state`` is in ``ACTION2``."""

    def game_over(self, seat: int, state: GameState) -> None:
        """The game has ended; ``state`` is in the ``OVER`` phase."""


def with_simultaneous_action1(rolled: GameState, choices: list[Mark | None]) -> GameState:
    """:meth:`qwixx_math.rules.GameState.with_simultaneous_action1`
    (the rules core's drop-and-retry rule) for callers of this older name: the state,
    with ``choices`` changed in place to what was applied."""
    state, refused = rolled.with_simultaneous_action1(choices)
    for exc in refused:
        assert exc.player is not None
        choices[exc.player] = None
    return state
