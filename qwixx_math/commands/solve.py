"""``qwixx-math solve``: the optimal table and its start value.

    qwixx-math solve [--layout official|mixx-a|mixx-b] [--players N]
                     [--action2-after-game-end] [--json] [--quiet]

Computes the exact optimal expected final score of solitaire Qwixx on the
official sheet or a Qwixx Mixx pad (``--layout``, docs/mixx.md), or with
``--players N`` of the table model of N players (docs/table.md), or loads the
table from the cache (``$QWIXX_MATH_CACHE`` or the user cache directory), and
prints the start value of every seat with 6 decimals, the number of states and
the seconds taken.  See ``docs/solver.md``.
"""

from __future__ import annotations

import argparse
import json

from ..layouts import OFFICIAL
from ..solver import solve
from ._args import add_layout_argument, layout_from_args
from ._solitaire import add_solver_options, announce_solve, solitaire_ruleset

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "solve", help="solve Qwixx exactly (expected score of optimal play), solitaire or at "
                      "a table of N players",
        description="Compute (or load from the cache) the optimal expected final score "
                    "from every position, and print the start value of every seat.  Without "
                    "--players: solitaire.  With --players N: the table model of N players "
                    "(the other players' rolls give free white-sum marks; they never close a "
                    "row or take a penalty; docs/table.md).  The cache directory is "
                    "$QWIXX_MATH_CACHE, else the user cache directory.")
    parser.add_argument("--players", type=_players, default=1, metavar="N",
                        help="players at the table, 1 to 5 (default 1: solitaire)")
    add_layout_argument(parser, None)
    parser.add_argument("--json", action="store_true",
                        help='print {"layout", "players", "seat_values", "expected_score", '
                             '"states", "seconds", "ruleset"} as JSON')
    add_solver_options(parser)
    parser.set_defaults(func=run)


def _players(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 5:
        raise argparse.ArgumentTypeError(f"R3: a table has 1 to 5 players, not {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    ruleset = solitaire_ruleset(args)
    progress = not args.quiet
    layout = layout_from_args(args) or OFFICIAL
    if args.players == 1:
        announce_solve(layout, ruleset, args.quiet)
    table = solve(ruleset, progress=progress, players=args.players, layout=layout)
    seats = table.seat_values
    if args.json:
        print(json.dumps({
            "layout": layout.name,
            "players": table.players,
            "seat_values": list(seats),
            "expected_score": table.start_value,
            "states": table.states,
            "seconds": table.seconds,
            "ruleset": ruleset.to_json(),
        }))
    else:
        how = "loaded from the cache" if table.loaded else "solved"
        if not layout.is_official:
            print(f"layout: {layout.name}")
        print(f"expected score: {table.start_value:.6f}")
        if table.players > 1:
            print("seat values: " + ", ".join(
                f"seat {s + 1}: {v:.6f}" for s, v in enumerate(seats)))
        print(f"states: {table.states}")
        print(f"seconds: {table.seconds:.2f} ({how})")
    return 0
