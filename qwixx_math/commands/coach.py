"""``qwixx-math coach``: a local web app that coaches a real table (docs/coach.md)."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import webbrowser

from ..coach.game import CoachGame
from ..coach.server import CoachServer, is_loopback, make_server
from ..errors import ParseError
from ..ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from ..validation import load_record
from ..validation.options import (
    add_ruleset_arguments,
    ruleset_from_args,
)
from ._args import add_layout_argument, ascii_int, layout_from_args, path_arg

#: The port the coach listens on unless told otherwise.
DEFAULT_PORT = 8035


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "coach",
        help="a local web app for a real table: tap the sheets, get advice, review the game",
        description=(
            "Serve the coach page on this computer and open it in the browser: 1 to 5 "
            "players on any sheet, dice typed or rolled, every tap checked by the rules "
            "(an illegal one is refused with its rule id), undo, the advice panel (plans "
            "ranked by the exact table EV, the EV loss coloured like a tutor, the win "
            "model's chance, win rollouts on request), the game recorded as it is played, "
            "and a review at the end. Listens on 127.0.0.1 unless --host says otherwise. "
            "Exit code 0 when stopped with Ctrl-C, 2 for bad arguments or a bad record."),
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=ascii_int(0, 65535), default=DEFAULT_PORT,
                   help=f"the port (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open the browser")
    p.add_argument("--record", metavar="FILE", type=path_arg, default=None,
                   help="the game record file: loaded at start if it exists, written when "
                        "the page saves; the only file the coach reads or writes")
    p.add_argument("--players", type=ascii_int(MIN_PLAYERS, MAX_PLAYERS), default=2,
                   help="players at the table (1-5, default 2); the page can change it")
    p.add_argument("--names", default=None,
                   help="the players' names, comma-separated (default Player 1, ...)")
    p.add_argument("--seed", type=ascii_int(0, 2**63 - 1), default=None,
                   help="seed of the app's dice and of the win rollouts (default: random)")
    p.add_argument("--verbose", action="store_true", help="log every request on stderr")
    add_layout_argument(p, None)
    add_ruleset_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    layout = layout_from_args(args)
    names = None
    if args.names is not None:
        names = tuple(n.strip() for n in args.names.split(","))
        if len(names) != args.players:
            raise ParseError(f"--names gives {len(names)} name(s) for {args.players} "
                             "player(s) (--players)")
    ruleset = ruleset_from_args(args, Ruleset(players=args.players))
    game = CoachGame(args.players, layout.name if layout is not None else "official", names,
                     seed=args.seed, ruleset=ruleset)
    if args.record is not None and os.path.exists(args.record):
        game.load(load_record(args.record))
        game.forget_undo()
    server = make_server(game, args.host, args.port, args.record,
                         seed=args.seed if args.seed is not None else 0,
                         quiet=not args.verbose)
    try:
        serve(server, args.host, args.record, browser=not args.no_browser)
    finally:
        server.server_close()
    return 0


def serve(server: CoachServer, host: str, record: str | None, browser: bool) -> None:
    """Say where the coach listens (with a warning off this computer), open the browser,
    and serve until Ctrl-C."""
    url = server.url
    print(f"qwixx-math coach: serving on {url} (Ctrl-C to stop)", flush=True)
    if not is_loopback(host):
        print(f"qwixx-math coach: warning: listening on {host}, not this computer only: "
              "anyone who can reach this address can see and change the game",
              file=sys.stderr, flush=True)
    if record is not None:
        print(f"qwixx-math coach: the game record is {record}", flush=True)
    if browser:
        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nqwixx-math coach: stopped", flush=True)
