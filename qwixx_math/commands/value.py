"""``qwixx-math value``: the exact table value of one sheet.

    qwixx-math value [--players N] --sheet S [--closed C] [--before-me K]
                     [--layout L] [--action2-after-game-end] [--json] [--quiet]

The expected final score of sheet S before the next roll at a table of N
players (default 1, solitaire), when K other players roll before this player's
next own roll (0 = this player rolls next; 0 <= K <= N-1), by the table model of
``docs/table.md`` (the other players never close a row or take a penalty).
``--closed`` lists the colours closed by anyone (``g,b``); the rows the sheet
locked are closed anyway.  A finished game is worth its score.  ``--layout
official|mixx-a|mixx-b`` names the sheet (docs/mixx.md); a sheet text that names
its layout must agree with it, and without ``--layout`` its own layout is used.
"""

from __future__ import annotations

import argparse
import json

from ..notation import format_colours, format_sheet, parse_colours, parse_sheet
from ..table import TableAdvisor, check_before_me, check_players
from ._args import add_layout_argument, ascii_int, layout_from_args
from ._solitaire import add_solver_options, announce_solve, solitaire_ruleset

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "value", help="the exact expected final score of a sheet at a table of N players",
        description="The expected final score of a sheet before the next roll, under optimal "
                    "play, at a table of N players where this player may mark the white sum "
                    "of every other player's roll and the others never close a row or take "
                    "a penalty (docs/table.md).  N = 1 is solitaire.")
    parser.add_argument("--players", type=ascii_int(), default=1, metavar="N",
                        help="players at the table, 1 to 5 (default 1)")
    parser.add_argument("--sheet", required=True, help="the sheet, e.g. 'r:2,3/g:12/p:1'")
    parser.add_argument("--closed", default="-", metavar="C",
                        help="colours closed by anyone, e.g. 'g,b' (default none)")
    parser.add_argument("--before-me", type=ascii_int(), default=0, metavar="K",
                        help="other players' rolls before this player's next own roll, "
                             "0 to N-1 (default 0: this player rolls next)")
    parser.add_argument("--json", action="store_true",
                        help='print {"expected_score", "players", "before_me", "sheet", '
                             '"closed", "model", "ruleset", "layout"} as JSON')
    add_layout_argument(parser)
    add_solver_options(parser, "no progress bar while solving")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    n = check_players(args.players)
    k = check_before_me(args.before_me, n)
    sheet = parse_sheet(args.sheet, layout_from_args(args))
    closed = parse_colours(args.closed) | sheet.locked
    ruleset = solitaire_ruleset(args, n)
    announce_solve(sheet.layout, ruleset, args.quiet, n)
    advisor = TableAdvisor.for_ruleset(ruleset, players=n, layout=sheet.layout,
                                       progress=not args.quiet)
    value = advisor.value(sheet, closed, k)
    if args.json:
        print(json.dumps({"expected_score": value, "players": n, "before_me": k,
                          "sheet": format_sheet(sheet), "closed": format_colours(closed),
                          "model": advisor.model, "ruleset": ruleset.to_json(),
                          "layout": sheet.layout.key}))
    else:
        rolls = "this player rolls next" if k == 0 else \
            f"{k} other roll{'s' if k > 1 else ''} before this player's own"
        print(f"expected final score {value:.6f}: sheet {format_sheet(sheet)}, closed "
              f"{format_colours(closed)}, {rolls}; model: {advisor.model}")
    return 0
