"""One broken rule in a game record: the :class:`Violation` value and the steps of a turn."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..display import printable

__all__ = ["Step", "Violation"]


class Step(Enum):
    """Where in the record a violation was found (in the order they are checked)."""

    TURN = "turn"  #: whose turn it is, or a turn played after the game ended (R12, R13, R14)
    ROLL = "roll"  #: the dice rolled (R4, R9)
    ACTION1 = "action1"  #: one player's action-1 choice (R5, R7-R10, R14)
    ACTION2 = "action2"  #: the active player's action-2 choice (R6-R9, R15)
    PENALTIES = "penalties"  #: the turn's claimed penalty boxes (R11)
    SCORES = "scores"  #: the turn's claimed scores (R11, R16, R17)
    END = "end"  #: the record ends before the game does (R13, R14)
    RESULT = "result"  #: the claimed result: how the game ended, scores, winners (R13-R18)

    @property
    def label(self) -> str:
        """Words for the text report (``"action 1"``)."""
        return _LABELS[self]


_LABELS = {Step.TURN: "turn order", Step.ROLL: "roll", Step.ACTION1: "action 1",
           Step.ACTION2: "action 2", Step.PENALTIES: "claimed penalties",
           Step.SCORES: "claimed scores", Step.END: "end of game",
           Step.RESULT: "claimed result"}


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule the record breaks.

    ``turn`` counts from 1 (checks of the record's end and claimed result carry
    the number of the record's last turn, 0 for a record without turns);
    ``player`` is the index of the player whose choice or claim is wrong, or
    None; ``rule`` the rule id (``"R8"``); ``message`` plain words.  For a
    choice, ``attempted`` is the choice in the text notation (``"r12"``) and
    ``legal`` every legal choice instead (``"-"`` = no mark).  A report lists
    violations in the order of the game: by turn, then by :class:`Step`.
    """

    turn: int
    step: Step
    player: int | None
    rule: str
    message: str
    attempted: str | None = None
    legal: tuple[str, ...] | None = None

    @property
    def key(self) -> tuple[int, str, int | None, str]:
        """What identifies the violation across replays: turn, step, player and rule."""
        return (self.turn, self.step.value, self.player, self.rule)

    def to_json(self) -> dict[str, Any]:
        """``{"turn", "player", "rule", "message", "step", "attempted", "legal"}``."""
        return {"turn": self.turn, "player": self.player, "rule": self.rule,
                "message": self.message, "step": self.step.value,
                "attempted": self.attempted,
                "legal": list(self.legal) if self.legal is not None else None}

    def describe(self, names: tuple[str, ...] = ()) -> str:
        """One line: ``turn 5, action 1, player 1 (Ola): R8: ...``."""
        who = ""
        if self.player is not None:
            name = names[self.player] if self.player < len(names) else ""
            who = f", player {self.player}" + (f" ({printable(name)})" if name else "")
        return f"turn {self.turn}, {self.step.label}{who}: {self.rule}: {self.message}"
