"""What went wrong with a player during a match: the :class:`Fault` record and the rule ids.

A fault is either a broken rule of RULES.md (the rule id the rules core's
:class:`~qwixx_math.errors.IllegalMoveError` names, ``"R8"``) or a broken
promise of the arena's protocol (docs/arena.md), with one of the ids below.
After any fault the seat passes for that decision; after ``exit`` or ``start``
(and after too many late replies) it passes for the rest of the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import QwixxError

__all__ = [
    "CRASH",
    "EXIT",
    "LATE",
    "MALFORMED",
    "PROTOCOL_RULES",
    "Fault",
    "PlayerFault",
]

#: A reply that is not one JSON object ``{"mark": MARK}`` with MARK null or a mark (JSON
#: nested too deeply to read included).
MALFORMED = "protocol:malformed"
#: No reply within the time limit (``--timeout``).
LATE = "protocol:late"
#: The program ended, closed its pipes or could not be started.
EXIT = "protocol:exit"
#: A built-in (in-process) player raised an exception instead of answering; an external
#: program's problems are always one of the three above.
CRASH = "protocol:crash"
#: Every protocol rule id, in the order docs/arena.md lists them.
PROTOCOL_RULES = (MALFORMED, LATE, EXIT, CRASH)


class PlayerFault(QwixxError):
    """Raised by a player (an external program's adapter) that broke the protocol.

    The referee catches it, records a :class:`Fault` with ``rule`` and the
    message, and lets the seat pass.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.detail = message


@dataclass(frozen=True, slots=True)
class Fault:
    """One violation: in game ``game`` and turn ``turn`` (both counted from 1; turn 0
    is before the first roll), the player of index ``player`` (in the order the players were given)
    sitting in seat ``seat`` broke ``rule`` (``"R8"``, ``"protocol:late"``, ...) while
    answering ``request`` (``new_game``, ``action1``, ``action2``, ``game_over``)."""

    game: int
    turn: int
    seat: int
    player: int
    name: str
    request: str
    rule: str
    message: str

    def describe(self) -> str:
        """``game 3, turn 12, seat 1 (exec:./bot), action1: R8: ...``."""
        return (f"game {self.game}, turn {self.turn}, seat {self.seat} ({self.name}), "
                f"{self.request}: {self.message}")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "turn": self.turn, "seat": self.seat,
                "player": self.player, "name": self.name, "request": self.request,
                "rule": self.rule, "message": self.message}
