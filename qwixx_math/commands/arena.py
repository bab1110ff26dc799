"""``qwixx-math arena``: a seeded, seat-rotated match between players (docs/arena.md).

    qwixx-math arena PLAYER PLAYER [PLAYER ...] [--games N] [--seed S] [--json]
                     [--timeout SECONDS] [--quiet] [--layout NAME] [--ruleset JSON]
                     [ruleset switches]

A PLAYER is a built-in name (``greedy``, ``random``, ``solo``, ``policy:optimal``, ...) or
``exec:COMMAND`` for an external program speaking the arena's line protocol.
Exit code 0: the match was played without faults; 1: some player broke a rule
or the protocol (each fault is listed); 2: bad input; 130 (SIGINT, Ctrl-C) or
143 (SIGTERM): stopped, every external program ended, no report.
"""

from __future__ import annotations

import argparse
import atexit
import json
import math
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from ..arena.external import DEFAULT_TIMEOUT, close_all
from ..arena.match import MAX_PLAYERS, MIN_PLAYERS, check_games, play_match
from ..arena.registry import open_players
from ..arena.report import report
from ..errors import ParseError
from ..layouts import OFFICIAL
from ..ruleset import Ruleset
from ..solver.progress import progress_bar
from ..validation.options import add_ruleset_arguments, ruleset_from_args
from ._args import add_layout_argument, ascii_float, ascii_int, layout_from_args

__all__ = ["register", "run"]

#: Exit code of a match in which some player broke a rule or the protocol.
EXIT_FAULTS = 1
#: Games of a match by default: a multiple of 2, 3, 4 and 5 players.
DEFAULT_GAMES = 120
#: The longest time limit for a reply (seconds).
MAX_TIMEOUT = 3600.0
#: Most games of a match on the command line: the report keeps about 1.3 KB per game
#: (130 MB), and greedy against greedy takes about 2.5 CPU minutes (docs/arena.md).
CLI_MAX_GAMES = 100_000
#: Largest seed.
MAX_SEED = 2**63 - 1
#: The signals that stop a match (exit code 128 + the signal's number).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _Stopped(BaseException):
    """Raised by the signal handler: not an ``Exception``, so that no player's fault
    handling records it; the players' ``finally`` blocks end the programs."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: FrameType | None) -> None:
    for sig in STOP_SIGNALS:  # a second Ctrl-C must not interrupt the ending
        signal.signal(sig, signal.SIG_IGN)
    raise _Stopped(signum)


@contextmanager
def _ending_programs_on_exit() -> Iterator[None]:
    """While a match runs: SIGINT and SIGTERM raise :class:`_Stopped`, and the
    interpreter's exit ends every external program still running.  The previous
    handlers come back afterwards (the command may run inside another program)."""
    atexit.register(close_all)
    previous = {}
    if threading.current_thread() is threading.main_thread():
        # a signal ignored from the start (a background job's SIGINT) stays ignored
        previous = {sig: signal.signal(sig, _stop) for sig in STOP_SIGNALS
                    if signal.getsignal(sig) is not signal.SIG_IGN}
    stopped: _Stopped | None = None
    try:
        yield
    finally:
        try:
            close_all()  # what an interrupted close() left running
        except _Stopped as exc:  # a signal during the ending; the handler now ignores them
            stopped = exc
            close_all()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        atexit.unregister(close_all)
    if stopped is not None:
        raise stopped


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
                    "2: bad input; 130 or 143: stopped by SIGINT (Ctrl-C) or SIGTERM, "
                    "every external program ended.")
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help="greedy, random, solo, win, policy:NAME, ... or exec:COMMAND "
                             "(2 to 5 players)")
    parser.add_argument("--games", type=ascii_int(), default=DEFAULT_GAMES, metavar="N",
                        help=f"games, a multiple of the number of players, at most "
                             f"{CLI_MAX_GAMES} (default {DEFAULT_GAMES})")
    parser.add_argument("--seed", type=ascii_int(), default=0, metavar="S",
                        help="seed of the dice and of the players, 0 to 2**63 - 1 (default 0)")
    parser.add_argument("--timeout", type=ascii_float, default=DEFAULT_TIMEOUT,
                        metavar="SECONDS",
                        help=f"time limit of an external program's reply, at most "
                             f"{MAX_TIMEOUT:g} (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--ruleset", metavar="JSON", default=None,
                        help='the base ruleset as a JSON object (docs/notation.md), e.g. '
                             '\'{"action2_after_game_end": true}\'; "players" may be left '
                             "out; the switches below override it")
    add_layout_argument(parser, None)
    add_ruleset_arguments(parser)
    parser.set_defaults(func=run)


def _ruleset(args: argparse.Namespace, players: int) -> Ruleset:
    base = Ruleset(players=players)
    if args.ruleset is not None:
        try:
            data = json.loads(args.ruleset)
        except ValueError as exc:  # JSONDecodeError, or a number too long to convert
            raise ParseError(f"--ruleset is not JSON: {exc}") from None
        except RecursionError:
            raise ParseError("--ruleset is not JSON: nested too deeply") from None
        if isinstance(data, dict) and "players" not in data:
            data = {**data, "players": players}
        base = Ruleset.from_json(data)
        if base.players != players:
            raise ParseError(f"R3: --ruleset is for {base.players} players, the match has "
                             f"{players}")
    return ruleset_from_args(args, base)


def run(args: argparse.Namespace) -> int:
    try:
        with _ending_programs_on_exit():
            return _play(args, args.players, _checked(args))
    except _Stopped as stop:
        name = signal.Signals(stop.signum).name
        how = " (Ctrl-C)" if stop.signum == signal.SIGINT else ""
        print(f"qwixx-math arena: stopped by {name}{how}; every external player was ended; "
              "no report", file=sys.stderr)
        return 128 + stop.signum


def _checked(args: argparse.Namespace) -> Ruleset:
    """The match's ruleset, once every argument is checked (ParseError otherwise)."""
    n = len(args.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ParseError(f"R3: an arena match is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {n}")
    if not 1 <= args.games <= CLI_MAX_GAMES:
        raise ParseError(f"--games must be between 1 and {CLI_MAX_GAMES}, not {args.games}")
    check_games(args.games, n)
    if not 0 <= args.seed <= MAX_SEED:
        raise ParseError(f"--seed must be a whole number 0 to 2**63 - 1, not {args.seed}")
    if not (math.isfinite(args.timeout) and 0 < args.timeout <= MAX_TIMEOUT):
        raise ParseError(f"--timeout must be a number of seconds in (0, {MAX_TIMEOUT:g}], "
                         f"not {args.timeout}")
    return _ruleset(args, n)


def _play(args: argparse.Namespace, names: list[str], ruleset: Ruleset) -> int:
    """Play the match, print its report; the exit code."""
    layout = layout_from_args(args) or OFFICIAL
    with open_players(names, ruleset, args.seed, args.timeout, layout=layout) as players:
        bar = progress_bar(not args.quiet, "arena")
        try:
            result = play_match(players, args.games, args.seed, ruleset, progress=bar,
                                names=names, layout=layout)
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
