"""``qwixx-math review``: the expected-score cost of each decision of a played game."""

from __future__ import annotations

import argparse
import json
import sys

from ..advice import Advisor
from ..errors import ParseError
from ..review import review_players
from ..validation import load_record
from ._args import add_layout_argument, ascii_int, path_arg, record_with_layout


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "review",
        help="the expected-score loss of each decision in a game record",
        description=(
            "Replay a game record (the rules core's JSON format) and value every "
            "decision of a player against optimal solitaire play: the loss of each "
            "decision, the total and mean loss, and the costliest decisions with the "
            "better alternative. Multiplayer records are judged from that player's "
            "sheet alone (opponents are not modelled). Exit code 0 on success, 2 for "
            "an unreadable or illegal record."
        ),
    )
    p.add_argument("record", metavar="RECORD.json", type=path_arg,
                   help="the game record (at most 4 MiB, 2,000 turns)")
    p.add_argument("--player", metavar="NAME", default=None,
                   help="the player to review (default: every player)")
    p.add_argument("--top", type=ascii_int(), default=5, metavar="N",
                   help="how many costliest decisions to list (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar while solving")
    add_layout_argument(p, "the record")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.top < 0:
        raise ParseError("--top must be 0 or more")
    record = record_with_layout(args, load_record(args.record), args.record)
    players = [args.player] if args.player is not None else None
    advisor = Advisor.for_ruleset(record.ruleset, progress=False if args.quiet else None,
                                  layout=record.layout)
    reviews = review_players(record, players, advisor)  # a QwixxError: cli.main, exit 2
    if args.json:
        json.dump({"reviews": [r.to_json(args.top) for r in reviews]}, sys.stdout)
        sys.stdout.write("\n")
    else:
        print("\n\n".join(r.to_text(args.top) for r in reviews))
    return 0
