"""The arena: seeded, seat-rotated matches between players, refereed by the rules core.

>>> from qwixx_math.arena import open_players, play_match, report
>>> from qwixx_math.ruleset import Ruleset
>>> with open_players(["greedy", "random"], Ruleset(2), seed=1) as players:
...     result = play_match(players, games=4, seed=1, names=["greedy", "random"])
>>> [g.seats for g in result.games]          # player 0 sits in seat 0, then in seat 1
[(0, 1), (1, 0), (0, 1), (1, 0)]
>>> report(result).to_json()["players"]
['greedy', 'random']

See docs/arena.md for the protocol of external players and the statistics.
"""

from .dice import DealDice
from .external import DEFAULT_TIMEOUT, ExternalPlayer
from .faults import Fault, PlayerFault
from .match import GameResult, MatchResult, play_match
from .registry import BUILTIN, PlayerFactory, make_player, open_players, player_names
from .report import MatchReport, PlayerStats, paired_ci, report

__all__ = [
    "BUILTIN",
    "DEFAULT_TIMEOUT",
    "DealDice",
    "ExternalPlayer",
    "Fault",
    "GameResult",
    "MatchReport",
    "MatchResult",
    "PlayerFactory",
    "PlayerFault",
    "PlayerStats",
    "make_player",
    "open_players",
    "paired_ci",
    "play_match",
    "player_names",
    "report",
]
