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
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import ModuleType

from ..errors import ParseError, QwixxError
from ..players.base import Player
from ..ruleset import Ruleset
from ..validation.generate import game_seed
from .external import DEFAULT_TIMEOUT, PREFIX, ExternalPlayer

__all__ = ["BUILTIN", "PLAYER_MODULES", "PlayerFactory", "factories", "make_player",
           "open_players", "player_names", "player_seed"]

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
                  "qwixx_math.players.table", "qwixx_math.players.policy")


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


def player_seed(seed: int, index: int) -> int:
    """The seed of player ``index`` (0-based, in the order given) of a match with ``seed``:
    :func:`~qwixx_math.validation.game_seed` at ``-1 - index`` (deals use 0, 1, ...)."""
    return game_seed(seed, -1 - index)


def make_player(name: str, ruleset: Ruleset, seed: int,
                timeout: float = DEFAULT_TIMEOUT) -> Player:
    """The player called ``name`` (see the module docstring) for a match under ``ruleset``."""
    if not isinstance(name, str):
        raise ParseError(f"a player name must be text, not {name!r}")
    if name.startswith(PREFIX):
        return ExternalPlayer(name[len(PREFIX):], timeout)
    player = _factory(name)(ruleset, seed)
    if not isinstance(player, Player):
        raise QwixxError(f"the factory of {name!r} made {player!r}, not a Player")
    return player


@contextmanager
def open_players(names: Sequence[str], ruleset: Ruleset, seed: int,
                 timeout: float = DEFAULT_TIMEOUT) -> Iterator[list[Player]]:
    """The players of a match, one per name (player ``i`` seeded with
    ``player_seed(seed, i)``); the ones with a ``close()`` (external programs) are
    closed at the end, also when making a later one fails."""
    players: list[Player] = []
    try:
        for index, name in enumerate(names):
            players.append(make_player(name, ruleset, player_seed(seed, index), timeout))
        yield players
    finally:
        for player in players:
            close: Callable[[], None] | None = getattr(player, "close", None)
            if close is not None:
                close()
