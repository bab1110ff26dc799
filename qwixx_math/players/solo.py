"""``solo``: today's solitaire advice (:class:`~qwixx_math.advice.Advisor`) at a table.

Every choice maximises the optimal expected final score of the player's own
sheet, playing on alone (the solver's table); opponents are not modelled.

* **Active player, action 1**: the action 1 of :meth:`Advisor.advise`'s best plan
  (the others assumed to pass, since their choices are not known yet).
* **Passive player**: :meth:`Advisor.advise_passive`'s best choice.
* **Active player, action 2**, once everybody's action 1 is known: every legal
  action-2 mark and "no mark" (a penalty when action 1 marked nothing) is valued
  by :meth:`Advisor.value` of the sheet it leaves, with the colours then closed;
  the best is taken, ties to "no mark" and then the rules core's order.

The table is the one of the game's R15 option (solved on first use, then loaded
from the cache in about 0.1 s) of the sheet layout the factory is given (the arena's
``--layout``; the official sheet by default).
"""

from __future__ import annotations

from ..advice import Advisor
from ..layouts import OFFICIAL, SheetLayout
from ..model import Mark
from ..rules import GameState, closes, legal_action2
from ..ruleset import Ruleset

__all__ = ["SoloPlayer", "make"]


class SoloPlayer:
    """The ``solo`` player: ``SoloPlayer(Advisor.for_ruleset(ruleset))``."""

    name = "solo"

    def __init__(self, advisor: Advisor) -> None:
        self.advisor = advisor

    def new_game(self, seat: int, state: GameState) -> None:
        pass

    def action1(self, seat: int, state: GameState) -> Mark | None:
        if seat == state.active:
            return self.advisor.advise(state).best.plan.action1
        return self.advisor.advise_passive(state, seat).best.plan.action1

    def action2(self, seat: int, state: GameState) -> Mark | None:
        sheet = state.sheets[seat]
        closed = state.closed
        value = self.advisor.value
        played = state.action1 is not None and state.action1[seat] is not None
        layout = state.layout
        pos = layout.pos
        best: Mark | None = None
        best_value = value(sheet if played else sheet.with_penalty(), closed)
        for mark in legal_action2(state):
            ci = mark.colour.index
            after = (sheet.seconded(ci, pos[ci][mark.number]) if mark.second  # DA1
                     else sheet.marked(ci, pos[ci][mark.number]))
            v = value(after, closed | {mark.colour} if closes(layout, mark) else closed)
            if v > best_value:
                best, best_value = mark, v
        return best

    def game_over(self, seat: int, state: GameState) -> None:
        pass


def make(ruleset: Ruleset, seed: int, progress: bool | None = None,
         layout: SheetLayout = OFFICIAL) -> SoloPlayer:
    """The registry's factory (deterministic: ``seed`` is not used), for sheets of
    ``layout``."""
    return SoloPlayer(Advisor.for_ruleset(ruleset, progress=progress, layout=layout))
