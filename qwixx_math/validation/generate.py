"""Random legal game records for differential testing (``qwixx-math generate``).

Game ``k`` (from 0) of a run with seed ``S`` is ``random_game(seed=game_seed(S, k))``
(:func:`qwixx_math.record.random_game`: every player picks uniformly among
passing and their legal marks); the record carries that seed, so each game can be
regenerated on its own.

>>> [r.seed for r in generate_records(2, seed=7, ruleset=Ruleset(players=2))]
[1433908865244808387, 5191817404984187379]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from ..errors import ParseError
from ..layouts import OFFICIAL, SheetLayout
from ..record import GameRecord, random_game
from ..ruleset import Ruleset

__all__ = ["MAX_GAMES", "game_seed", "generate_records"]

#: The most records one call generates.
MAX_GAMES = 1_000_000


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with ``seed``: the first 63 bits of
    SHA-256 of ``"qwixx-math/generate/{seed}/{index}"``."""
    digest = hashlib.sha256(f"qwixx-math/generate/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def generate_records(games: int, seed: int, ruleset: Ruleset,
                     layout: SheetLayout = OFFICIAL) -> Iterator[GameRecord]:
    """``games`` random legal records under ``ruleset`` on ``layout``, deterministic in
    ``seed``."""
    for name, value in (("games", games), ("seed", seed)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ParseError(f"{name} must be a whole number, not {value!r}")
    if not 0 <= games <= MAX_GAMES:
        raise ParseError(f"games must be between 0 and {MAX_GAMES}, not {games}")
    if not isinstance(ruleset, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {ruleset!r}")
    for index in range(games):
        yield random_game(seed=game_seed(seed, index), ruleset=ruleset, layout=layout)
