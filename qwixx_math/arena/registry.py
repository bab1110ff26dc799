"""Player names -> players: the built-in players, the optional player modules, ``exec:``.

A **factory** makes one player for one match: ``factory(ruleset, seed) -> Player``
(``ruleset`` is the match's, for its number of players; ``seed`` is the player's
own seed, :func:`player_seed`).  Names:

* the built-in players of :data:`BUILTIN`: ``greedy``, ``random``, ``solo``;
* the names that the optional modules :data:`PLAYER_MODULES` register, when they
  exist (imported on first use, so the arena works without them).  Such a module
  exports ``PLAYERS: Mapping[str, PlayerFactory]`` (exact names) and may export
  ``lookup(name: str) -> PlayerFactory | None`` for names with parameters
  (``racer-5``);
* ``policy:NAME``: a solitaire policy in a seat (:mod:`qwixx_math.players.policy`;
  NAME as :meth:`~qwixx_math.policies.spec.PolicySpec.parse` reads it: ``optimal``,
  ``fewest-skips``, ``threshold-T``, ``seed-tips``);
* ``exec:COMMAND``: an external program (:class:`~qwixx_math.arena.external.ExternalPlayer`).

**Sheet layouts.**  A match on another sheet than the official one (``layout``,
:mod:`qwixx_math.layouts`) gets players made for it.  Most players read the
layout off the states they are shown and need nothing more (``greedy``,
``random``, the racers, the heuristic ``policy:`` seats, ``exec:``).  The ones
built on a solver table (``solo``, ``table``, ``policy:optimal``) are made with
the table of that layout (solved on first use, as for the official sheet); where
the solver refuses the layout (today, e.g.: the table model and the policy engine on Qwixx
Longo's lucky numbers, LG3, and the table model on step cells, CS2; both play double cells,
DB1, Longo's 8-sided dice, LG1, and the policy engine the Steps' step cells), and for
``win`` and ``win-deep`` (whose model and features are of the official sheet) on
any other layout, the seat is played by a named simple player instead, a
:class:`StandIn` whose ``note`` says so; the match report prints the note.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import ModuleType

from ..errors import ParseError, QwixxError
from ..layouts import OFFICIAL, SheetLayout
from ..model import Mark
from ..players.base import Player
from ..rules import GameState
from ..ruleset import Ruleset
from ..validation.generate import game_seed
from .external import DEFAULT_TIMEOUT, PREFIX, ExternalPlayer
from .match import check_layout

__all__ = ["BUILTIN", "OFFICIAL_ONLY", "PLAYER_MODULES", "PlayerFactory", "StandIn",
           "factories", "make_player", "open_players", "player_names", "player_seed"]

#: Makes a player for a match: ``factory(ruleset, seed)``.
PlayerFactory = Callable[[Ruleset, int], Player]


def _greedy(ruleset: Ruleset, seed: int) -> Player:
    from ..players import greedy

    return greedy.make(ruleset, seed)


def _random(ruleset: Ruleset, seed: int) -> Player:
    from ..players import uniform

    return uniform.make(ruleset, seed)


def _solo(ruleset: Ruleset, seed: int) -> Player:
    from ..players import solo  # imports the solver (numba): only when asked for

    return solo.make(ruleset, seed)


#: The built-in players that need no optional module.
BUILTIN: dict[str, PlayerFactory] = {"greedy": _greedy, "random": _random, "solo": _solo}
#: Modules that may register players (each is optional).
PLAYER_MODULES = ("qwixx_math.players.racer", "qwixx_math.players.win",
                  "qwixx_math.players.table", "qwixx_math.players.policy",
                  "qwixx_math.players.lookahead")


def _optional(name: str) -> ModuleType | None:
    try:
        found = importlib.util.find_spec(name) is not None
    except (ModuleNotFoundError, ValueError):  # no parent package; a module without spec
        found = False
    return importlib.import_module(name) if found else None


def _modules() -> Iterator[ModuleType]:
    for name in PLAYER_MODULES:
        module = _optional(name)
        if module is not None:
            yield module


def factories() -> dict[str, PlayerFactory]:
    """Every player name with a fixed name, and its factory (imports the optional modules)."""
    out = dict(BUILTIN)
    for module in _modules():
        registered: Mapping[str, PlayerFactory] = getattr(module, "PLAYERS", {})
        for name, factory in registered.items():
            out.setdefault(name, factory)
    return out


def player_names() -> list[str]:
    """The names :func:`make_player` knows (``exec:COMMAND`` aside), sorted."""
    return sorted(factories())


def _factory(name: str) -> PlayerFactory:
    found = BUILTIN.get(name)
    if found is not None:
        return found
    known = factories()
    if name in known:
        return known[name]
    for module in _modules():
        lookup: Callable[[str], PlayerFactory | None] | None = getattr(module, "lookup", None)
        if lookup is not None:
            factory = lookup(name)
            if factory is not None:
                return factory
    raise ParseError(f"unknown player {name!r}; expected one of {', '.join(sorted(known))} "
                     f"or {PREFIX}COMMAND")


#: Players whose model is of the official sheet only, and the player that takes their seat
#: on another layout.
OFFICIAL_ONLY: dict[str, str] = {"win": "greedy", "win-deep": "greedy"}
#: The player that takes the seat of a player built on a solver table where the solver
#: refuses the layout.
TABLE_FALLBACK: dict[str, str] = {"solo": "greedy", "table": "greedy",
                                  "policy:optimal": "policy:fewest-skips"}


class StandIn:
    """The player ``player`` in the seat of another one (``name``), with a ``note`` saying
    why (see the module docstring); it plays exactly as ``player``."""

    def __init__(self, player: Player, name: str, note: str) -> None:
        self.player = player
        self.name = name
        self.note = note

    def new_game(self, seat: int, state: GameState) -> None:
        self.player.new_game(seat, state)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        return self.player.action1(seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return self.player.action2(seat, state)

    def game_over(self, seat: int, state: GameState) -> None:
        self.player.game_over(seat, state)


def _stand_in(name: str, instead: str, ruleset: Ruleset, seed: int, layout: SheetLayout,
              why: str) -> StandIn:
    player = _made(instead, _factory(instead)(ruleset, seed))
    return StandIn(player, name, f"plays as {instead} on the {layout.key} sheet: {why}")


def _on_layout(name: str, ruleset: Ruleset, seed: int, layout: SheetLayout) -> Player | None:
    """The player ``name`` made for a match on ``layout`` (not the official sheet) when
    it needs the layout to be made; None when its plain factory will do."""
    if name in OFFICIAL_ONLY:
        return _stand_in(name, OFFICIAL_ONLY[name], ruleset, seed, layout,
                         "its model was fitted on features of the official sheet")
    if name in ("solo", "table"):
        from ..players import solo, table

        def build() -> Player:
            if name == "solo":
                return solo.make(ruleset, seed, layout=layout)
            return table.make(ruleset, seed, layout)
    elif name.startswith("policy:"):
        from ..players import policy
        from ..policies.spec import PolicySpec

        spec = PolicySpec.parse(name[len("policy:"):])
        if not spec.needs_table:
            return None

        def build() -> Player:
            return policy.make_on(spec, ruleset, layout)
    else:
        return None
    try:
        return build()
    except ParseError as exc:  # the solver refuses the layout (e.g. lucky numbers, LG3)
        instead = TABLE_FALLBACK.get(name, "greedy")
        return _stand_in(name, instead, ruleset, seed, layout, f"no solver table ({exc})")


def _made(name: str, player: object) -> Player:
    if not isinstance(player, Player):
        raise QwixxError(f"the factory of {name!r} made {player!r}, not a Player")
    return player


def player_seed(seed: int, index: int) -> int:
    """The seed of player ``index`` (0-based, in the order given) of a match with ``seed``:
    :func:`~qwixx_math.validation.game_seed` at ``-1 - index`` (deals use 0, 1, ...)."""
    return game_seed(seed, -1 - index)


def make_player(name: str, ruleset: Ruleset, seed: int,
                timeout: float = DEFAULT_TIMEOUT,
                layout: SheetLayout | str = OFFICIAL) -> Player:
    """The player called ``name`` (see the module docstring) for a match under ``ruleset``
    on sheets of ``layout`` (default the official sheet)."""
    if not isinstance(name, str):
        raise ParseError(f"a player name must be text, not {name!r}")
    layout = check_layout(layout)
    if name.startswith(PREFIX):
        return ExternalPlayer(name[len(PREFIX):], timeout)
    factory = _factory(name)  # an unknown name is refused before any table is solved
    if not layout.is_official:
        player = _on_layout(name, ruleset, seed, layout)
        if player is not None:
            return player
    return _made(name, factory(ruleset, seed))


@contextmanager
def open_players(names: Sequence[str], ruleset: Ruleset, seed: int,
                 timeout: float = DEFAULT_TIMEOUT,
                 layout: SheetLayout | str = OFFICIAL) -> Iterator[list[Player]]:
    """The players of a match on sheets of ``layout``, one per name (player ``i`` seeded
    with ``player_seed(seed, i)``); the ones with a ``close()`` (external programs) are
    closed at the end, also when making a later one fails."""
    layout = check_layout(layout)
    players: list[Player] = []
    try:
        for index, name in enumerate(names):
            players.append(make_player(name, ruleset, player_seed(seed, index), timeout,
                                       layout))
        yield players
    finally:
        for player in players:
            close: Callable[[], None] | None = getattr(player, "close", None)
            if close is not None:
                close()
