"""Advice at a real table of N players: the exact table value (issue 11, ``docs/table.md``).

The model (:func:`table_model` names it): between two of this player's own rolls
come N-1 rolls by the others, on which this player may mark the white sum in one
open row or pass at no cost (R5, R11).  **The other players never close a row
and never take a penalty**, so the game ends at this player's fourth penalty or
when two rows are closed (R13, R14; a passive mark can close the second).  The
objective is this player's expected final score.  ``before_me`` (K) is the
number of other players' rolls before this player's next own roll: 0 when this
player rolls next, N-1 right after their own turn; seat s (1 = rolls first)
starts at K = s-1.  Values are "before the next roll".  N = 1 is solitaire.

Every choice is valued by the exact table value of the position it leads to:

* the active player's plan (:meth:`TableAdvisor.advise`): their sheet after the
  turn at K = N-1, or its score when the game ends;
* a passive player's white-sum choice (:meth:`TableAdvisor.advise_passive`): their
  sheet after everybody's action 1 at K = (player - active - 1) mod N, the
  rolls still to come before theirs (play passes to increasing index, R12).  The
  active player's action 2 is unknown and not applied (no penalty, no close is
  assumed); known action-1 choices of the others that close a colour close it
  for the valuation, and can end the game (R14);
* the active player's action 2 once everybody's action 1 is known
  (:meth:`TableAdvisor.advise_action2`).

>>> from qwixx_math.notation import parse_roll
>>> from qwixx_math.rules import new_game
>>> advisor = TableAdvisor.for_ruleset(players=2, progress=False)
>>> advisor.players, advisor.model
(2, 'table (2 players, opponents never close or take penalties)')
>>> advice = advisor.advise(new_game(2), parse_roll("w:1,1/r:1/y:6/g:6/b:1"))
>>> str(advice.best.plan), advice.model == advisor.model
('y2/r2', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .advice import Advice, Advisor, layout_or_official, solved_game
from .errors import ParseError
from .layouts import OFFICIAL, SheetLayout
from .model import Colour, Sheet
from .notation import colour_set
from .rules import GameState, Phase
from .ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from .solver import SolverTable, Variant, solve

__all__ = ["TableAdvisor", "advise", "before_me_after", "check_before_me", "check_players",
           "seat_values", "table_model"]


def table_model(players: int) -> str:
    """The name of the table model for ``players`` (what every table :class:`Advice` says)."""
    if players == 1:
        return "table (1 player: solitaire)"
    return f"table ({players} players, opponents never close or take penalties)"


def check_players(players: object) -> int:
    """``players`` if it is a table size the solver knows (1 to 5), else ParseError (R3)."""
    if not isinstance(players, int) or isinstance(players, bool) \
            or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ParseError(f"R3: a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {players!r}")
    return players


def check_before_me(before_me: object, players: int) -> int:
    """``before_me`` if it is 0..players-1, else ParseError (R12: N-1 others roll between
    two of this player's own rolls)."""
    if not isinstance(before_me, int) or isinstance(before_me, bool) \
            or not 0 <= before_me < players:
        raise ParseError(f"R12: at a table of {players} the other players roll 0 to "
                         f"{players - 1} times before this player's next own roll; "
                         f"before_me {before_me!r} is not one of those")
    return before_me


def before_me_after(active: int, player: int, players: int) -> int:
    """The other players' rolls still to come, after ``active``'s roll, before ``player``'s
    own next roll (R12: play passes to the next index, mod ``players``).

    >>> [before_me_after(0, p, 4) for p in (1, 2, 3)], before_me_after(0, 0, 4)
    ([0, 1, 2], 3)
    """
    return (player - active - 1) % players


class TableAdvisor(Advisor):
    """Ranks choices by the exact table value of one N-player table (one R15 option).

    Everything but the look-up after a roll is :class:`~qwixx_math.advice.Advisor`'s:
    the same plans from the rules core, the same ranking and ties.  The game
    states it advises must have N players.
    """

    def __init__(self, table: SolverTable) -> None:
        if not isinstance(table, SolverTable):
            raise ParseError(f"a TableAdvisor needs a SolverTable, not {type(table).__name__}")
        self.use_table(table)
        #: N, the number of players at the table.
        self.players: int = table.players
        self.model = table_model(self.players)

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset | None = None, *, players: int | None = None,
                    progress: bool | None = None, layout: SheetLayout | str | None = None
                    ) -> TableAdvisor:
        """The advisor for an N-player table under ``ruleset`` (only its R15 option counts)
        on the sheet ``layout`` (default the official sheet; ``"mixx-a"``, ``"mixx-b"``).

        ``players`` defaults to ``ruleset.players`` (to 2, the official game, without a
        ruleset).  The table is loaded from the cache or solved once (20-60 s)."""
        if ruleset is not None and not isinstance(ruleset, Ruleset):
            raise ParseError(f"expected a Ruleset, not {type(ruleset).__name__}")
        if progress is not None and not isinstance(progress, bool):
            raise ParseError(f"progress must be True, False or None, not {progress!r}")
        if players is None:
            players = ruleset.players if ruleset is not None else Ruleset().players
        return _table_advisor(solved_game(ruleset, check_players(players)), progress,
                              layout_or_official(layout))

    def _check_state(self, state: GameState) -> None:
        self.check_ruleset(state.ruleset)
        self.check_layout(state.layout)
        if state.players != self.players:
            raise ParseError(f"this advisor's table is for {self.players} player(s); the "
                             f"game has {state.players} (use TableAdvisor.for_ruleset("
                             f"players={state.players}))", rule="R3")

    def value(self, sheet: Sheet, closed: Iterable[Colour | str] = frozenset(),
              before_me: int = 0) -> float:
        """The exact table value of ``sheet`` before the next roll, with ``before_me``
        other players' rolls before this player's own (0..N-1).  ``closed``: colours
        closed by anyone, as Colour values or names.  A finished game is worth its score."""
        if not isinstance(sheet, Sheet):
            raise ParseError(f"value needs a Sheet, not {type(sheet).__name__}")
        self.check_layout(sheet.layout)
        return self.lookup(sheet, colour_set(closed, "closed colours"),
                           check_before_me(before_me, self.players))

    def state_value(self, state: GameState, player: int) -> float:
        """The table value of ``player``'s sheet in ``state`` (phase ``ROLL``; K from the
        seats: ``(player - active) mod N``), or its score once the game is over."""
        if state.is_over:
            return float(state.sheets[player].score)
        self._check_state(state)
        if state.phase is not Phase.ROLL:
            raise ParseError(f"a table value is taken before a roll; the state is in the "
                             f"{state.phase.value} phase (rank the choices with advise_player)")
        return self.lookup(state.sheets[player], state.closed,
                           (player - state.active) % self.players)

    def _after_turn(self, sheet: Sheet, closed: frozenset[Colour]) -> float:
        return self.lookup(sheet, closed, self.players - 1)

    @property
    def seat_values(self) -> tuple[float, ...]:
        """The value of the empty sheet for seats 1..N (seat s: s - 1 rolls before its
        first): :func:`seat_values` of this advisor's table."""
        return self.table.seat_values

    def _before_me_after(self, rolled: GameState, player: int) -> int:
        return before_me_after(rolled.active, player, self.players)


@lru_cache(maxsize=4)
def _table_advisor(ruleset: Ruleset, progress: bool | None, layout: SheetLayout = OFFICIAL
                   ) -> TableAdvisor:
    return TableAdvisor(solve(ruleset, players=ruleset.players, progress=progress,
                              variant=Variant(layout)))


def seat_values(players: int = 2, ruleset: Ruleset | None = None, *,
                layout: SheetLayout | str | None = None,
                progress: bool | None = None) -> tuple[float, ...]:
    """The expected final score of the empty sheet for seats 1..N at a table of
    ``players`` (seat 1 rolls first) in the table model, one call away: the table is
    loaded from the cache or solved once (``progress``: a bar on stderr; None draws it on
    a terminal only).  ``ruleset`` counts for its R15 option only.

    >>> [round(v, 2) for v in seat_values(2, progress=False)]
    [130.5, 131.13]
    """
    advisor = TableAdvisor.for_ruleset(ruleset, players=check_players(players),
                                       progress=progress, layout=layout)
    return advisor.seat_values


def advise(state: GameState, player: int | None = None) -> Advice:
    """Whatever ``player`` (default: the active player) has to decide in ``state``, ranked
    by the table of ``state``'s size and ruleset (:meth:`Advisor.advise_player`)."""
    if not isinstance(state, GameState):
        raise ParseError(f"advice needs a GameState, not {type(state).__name__}")
    advisor = TableAdvisor.for_ruleset(state.ruleset, players=state.players,
                                       layout=state.layout)
    return advisor.advise_player(state, state.active if player is None else player)
