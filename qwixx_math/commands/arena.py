"""``qwixx-math arena``: a seeded, seat-rotated match between players (docs/arena.md).

    qwixx-math arena PLAYER PLAYER [PLAYER ...] [--games N] [--seed S] [--json]
                     [--timeout SECONDS] [--quiet] [--ruleset JSON] [ruleset switches]

A PLAYER is a built-in name (``greedy``, ``random``, ``solo``, ``policy:optimal``, ...) or
``exec:COMMAND`` for an external program speaking the arena's line protocol.
Exit code 0: the match was played without faults; 1: some player broke a rule
or the protocol (each fault is listed); 2: bad input.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from ..arena.external import DEFAULT_TIMEOUT
from ..arena.match import MAX_GAMES, MAX_PLAYERS, MIN_PLAYERS, check_games, play_match
from ..arena.registry import open_players
from ..arena.report import report
from ..errors import ParseError
from ..ruleset import Ruleset
from ..solver.progress import progress_bar
from ..validation.options import add_ruleset_arguments, ruleset_from_args

__all__ = ["register", "run"]

#: Exit code of a match in which some player broke a rule or the protocol.
EXIT_FAULTS = 1
#: Games of a match by default: a multiple of 2, 3, 4 and 5 players.
DEFAULT_GAMES = 120
#: The longest time limit for a reply (seconds).
MAX_TIMEOUT = 3600.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "arena", help="a seeded match between players, seats rotated on common dice",
        description="Play a seeded match of 2 to 5 players through the reference rules: "
                    "every deal of dice is played once with each player in each seat, and "
                    "the rules core referees every choice.  Reports wins (ties shared), "
                    "the win rate with a 95% confidence interval paired by deal, scores, "
                    "game lengths, how games ended and every fault (a rule or protocol "
                    "broken, with its rule id, game, turn and seat).  A PLAYER is a "
                    "built-in name or exec:COMMAND, an external program speaking the line "
                    "protocol of docs/arena.md.  Exit code 0: no faults; 1: faults; "
                    "2: bad input.")
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help="greedy, random, solo, win, policy:NAME, ... or exec:COMMAND "
                             "(2 to 5 players)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                        help=f"games, a multiple of the number of players "
                             f"(default {DEFAULT_GAMES})")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the dice and of the players (default 0)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"time limit of an external program's reply "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--ruleset", metavar="JSON", default=None,
                        help='the base ruleset as a JSON object (docs/notation.md), e.g. '
                             '\'{"action2_after_game_end": true}\'; "players" may be left '
                             "out; the switches below override it")
    add_ruleset_arguments(parser)
    parser.set_defaults(func=run)


def _ruleset(args: argparse.Namespace, players: int) -> Ruleset:
    base = Ruleset(players=players)
    if args.ruleset is not None:
        try:
            data = json.loads(args.ruleset)
        except ValueError as exc:
            raise ParseError(f"--ruleset is not JSON: {exc}") from None
        if isinstance(data, dict) and "players" not in data:
            data = {**data, "players": players}
        base = Ruleset.from_json(data)
        if base.players != players:
            raise ParseError(f"R3: --ruleset is for {base.players} players, the match has "
                             f"{players}")
    return ruleset_from_args(args, base)


def run(args: argparse.Namespace) -> int:
    names: list[str] = args.players
    n = len(names)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ParseError(f"R3: an arena match is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {n}")
    if not 1 <= args.games <= MAX_GAMES:
        raise ParseError(f"--games must be between 1 and {MAX_GAMES}, not {args.games}")
    check_games(args.games, n)
    if not 0 <= args.seed < 2**63:
        raise ParseError(f"--seed must be a whole number 0 to 2**63 - 1, not {args.seed}")
    if not (math.isfinite(args.timeout) and 0 < args.timeout <= MAX_TIMEOUT):
        raise ParseError(f"--timeout must be a number of seconds in (0, {MAX_TIMEOUT:g}], "
                         f"not {args.timeout}")
    ruleset = _ruleset(args, n)
    with open_players(names, ruleset, args.seed, args.timeout) as players:
        bar = progress_bar(False if args.quiet else None, "arena")
        try:
            result = play_match(players, args.games, args.seed, ruleset, progress=bar,
                                names=names)
        finally:
            if bar is not None:
                bar.close()
    summary = report(result)
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(summary.to_text())
        print(f"{result.seconds:.2f} s ({len(result.games) / max(result.seconds, 1e-9):,.0f} "
              "games/s)", file=sys.stderr)
    return EXIT_FAULTS if result.faults else 0
