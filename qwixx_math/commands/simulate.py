"""``qwixx-math simulate``: seeded solitaire games under a policy, mean with a 95% interval.

    qwixx-math simulate [--layout NAME|FILE] [--policy NAME] [--games N]
                        [--seed S] [--json] [--quiet] [--action2-after-game-end]

``--layout`` takes the pads the policy engine plays (the official sheet, Mixx, Double B,
Longo without lucky numbers, the Steps' staircases); the heuristics need no table,
``--policy optimal`` loads or solves the layout's table first (Longo: minutes and about
3 GB the first time; a staircase of the Steps: about 4 GB).
"""

from __future__ import annotations

import argparse
import json

from ..errors import ParseError
from ..layouts import OFFICIAL
from ..policies import simulate
from ._args import add_layout_argument, ascii_int, layout_from_args
from ._solitaire import add_solver_options, solitaire_ruleset

__all__ = ["register", "run"]

MAX_GAMES = 10_000_000


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play seeded solitaire games under a policy (compiled, all cores)",
        description="Simulate solitaire Qwixx games under a policy with pre-drawn seeded dice "
                    "and report the mean final score with a 95%% Student-t confidence "
                    "interval and the standard deviation.")
    parser.add_argument("--policy", default="optimal",
                        help="optimal (default), seed-tips (the tips in the published rule "
                             "texts), fewest-skips or threshold-T")
    parser.add_argument("--games", type=ascii_int(), default=100_000, help="games (default 100000)")
    parser.add_argument("--seed", type=ascii_int(), default=0, help="seed of the dice (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_layout_argument(parser, None)
    add_solver_options(parser, "no progress bar while solving")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= MAX_GAMES:
        raise ParseError(f"--games must be between 1 and {MAX_GAMES}, not {args.games}")
    if args.seed < 0:
        raise ParseError(f"--seed must be >= 0, not {args.seed}")
    ruleset = solitaire_ruleset(args)
    layout = layout_from_args(args) or OFFICIAL
    result = simulate(args.policy, args.games, args.seed, ruleset,
                      progress=not args.quiet, layout=layout)
    if args.json:
        print(json.dumps({"layout": layout.name, **result.to_json()}))
        return 0
    low, high = result.confidence_interval()
    sheet = "" if layout.is_official else f", {layout.name} sheet"
    print(f"{result.games} games, policy {result.policy}, seed {result.seed}{sheet}")
    print(f"mean score {result.mean:.4f}   95% CI [{low:.4f}, {high:.4f}]   sd {result.sd:.4f}")
    print(f"{result.seconds:.2f} s ({result.games_per_second:,.0f} games/s)")
    return 0
