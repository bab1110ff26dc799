"""``qwixx-math review``: the cost of each decision of a played game, by the advice's model.

    qwixx-math review RECORD.json [--player NAME] [--players N] [--top N] [--json]
    qwixx-math review RECORD.json --objective win [--rollouts K] [--seed S]
                      [--opponents NAME[,NAME...]] [--own-player NAME] ...

``--players N`` is the model: the record's own number of players (the default:
the table model, what ``advise --players N --state`` ranks by, each decision
judged with what the player knew then) or 1 (the solitaire model, the review of
a table game before issue 35).  ``--objective win`` adds the win chance lost per
decision, estimated by the win advice's rollouts (docs/review.md).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import ParseError
from ..review import MAX_REVIEW_ROLLOUTS, review_players
from ..validation import load_record
from ._args import (
    add_layout_argument,
    add_rollout_arguments,
    ascii_int,
    path_arg,
    record_with_layout,
    rollout_players,
)
from ._solitaire import announce_solve


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "review",
        help="the expected-score (and win chance) loss of each decision in a game record",
        description=(
            "Replay a game record (the rules core's JSON format) and judge every decision "
            "of a player by the same model as 'qwixx-math advise': the loss of each "
            "decision against the advice's best choice at that moment, the total, the "
            "proficiency figure (mean loss per decision) and the costliest decisions with "
            "the better alternative. A record of N players is judged by the table model of "
            "N players (as 'advise --players N --state'), each decision with what the "
            "player knew when deciding; --players 1 judges by the solitaire model (each "
            "player's sheet alone, with the rest of the turn as recorded). --objective win "
            "adds the win chance lost per decision, estimated by the win advice's rollouts "
            "(slow: seconds per decision by default). Exit code 0 on success, 2 for "
            "an unreadable or illegal record or bad options (docs/review.md)."
        ),
    )
    p.add_argument("record", metavar="RECORD.json", type=path_arg,
                   help="the game record (at most 4 MiB, 2,000 turns)")
    p.add_argument("--player", metavar="NAME", default=None,
                   help="the player to review (default: every player)")
    p.add_argument("--players", type=ascii_int(), default=None, metavar="N",
                   help="the model: the record's number of players (default: the table "
                        "model, as advise --players N) or 1 (the solitaire model)")
    p.add_argument("--objective", choices=("ev", "win"), default="ev",
                   help="ev (default): expected-score loss; win: also the win chance lost "
                        "per decision, estimated by rollouts (a table of 2 to 5 players, "
                        "official sheet)")
    add_rollout_arguments(
        p, f"rollouts per choice at every decision (2 to {MAX_REVIEW_ROLLOUTS}; default: the "
           "win advice's own budget, under a second per ranking)", "the reviewed seat")
    p.add_argument("--top", type=ascii_int(), default=5, metavar="N",
                   help="how many costliest decisions to list (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar while solving")
    add_layout_argument(p, "the record")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.top < 0:
        raise ParseError("--top must be 0 or more")
    if args.objective != "win":
        given = [flag for flag, value in (("--rollouts", args.rollouts), ("--seed", args.seed),
                                          ("--opponents", args.opponents),
                                          ("--own-player", args.own_player))
                 if value is not None]
        if given:
            raise ParseError(f"{', '.join(given)}: only with --objective win")
    record = record_with_layout(args, load_record(args.record), args.record)
    players = [args.player] if args.player is not None else None
    opponents, own = rollout_players(args)
    size = len(record.players) if args.players is None else args.players
    if size in (1, len(record.players)):  # else review_players refuses it (R3)
        announce_solve(record.layout, record.ruleset, args.quiet, size)
    try:
        reviews = review_players(  # a QwixxError: cli.main, exit 2
            record, players, table_size=args.players, objective=args.objective,
            rollouts=args.rollouts, seed=0 if args.seed is None else args.seed,
            progress=not args.quiet, opponents=opponents, own=own)
    except ParseError as exc:  # a pad only the solitaire solver plays: say how to get there
        if args.players is not None or "the table model does not play" not in str(exc):
            raise
        raise ParseError(f"{exc}; 'review --players 1' judges the record by the solitaire "
                         "model") from None
    if args.json:
        json.dump({"reviews": [r.to_json(args.top) for r in reviews]}, sys.stdout)
        sys.stdout.write("\n")
    else:
        print("\n\n".join(r.to_text(args.top) for r in reviews))
    return 0
