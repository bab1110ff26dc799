"""``table``: the exact table values of issue 11 (:class:`~qwixx_math.table.TableAdvisor`).

Every choice maximises the exact expected final score of the player's own sheet
in the table model of the game's N players (the others' rolls give free
white-sum marks; the others are assumed never to close a row or take a
penalty; docs/table.md).  Like ``solo``, it does not play to win: it is the
expected-score baseline at a real table.

* **Active player, action 1**: the action 1 of :meth:`TableAdvisor.advise`'s best
  plan (the others' simultaneous choices are not known yet, so assumed to pass).
* **Passive player**: :meth:`TableAdvisor.advise_passive`'s best choice (valued
  at the number of other rolls left before this player's own).
* **Active player, action 2**: :meth:`TableAdvisor.advise_action2`'s best choice,
  with everybody's action 1 known.
"""

from __future__ import annotations

from collections.abc import Callable

from ..layouts import OFFICIAL, SheetLayout
from ..model import Mark
from ..rules import GameState
from ..ruleset import Ruleset
from ..table import TableAdvisor
from .base import Player
from .solo import SoloPlayer

__all__ = ["PLAYERS", "TablePlayer", "make"]


class TablePlayer(SoloPlayer):
    """The ``table`` player: ``TablePlayer(TableAdvisor.for_ruleset(ruleset))``."""

    name = "table"

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return self.advisor.advise_action2(state).best.plan.action2


def make(ruleset: Ruleset, seed: int, layout: SheetLayout = OFFICIAL) -> Player:
    """The registry's factory (deterministic: ``seed`` is not used); N is ``ruleset.players``;
    the table of sheets of ``layout``."""
    return TablePlayer(TableAdvisor.for_ruleset(ruleset, players=ruleset.players,
                                                progress=False, layout=layout))


PLAYERS: dict[str, Callable[[Ruleset, int], Player]] = {"table": make}
