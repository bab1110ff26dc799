"""``qwixx-math solve``: the optimal solitaire table and its start value.

    qwixx-math solve [--action2-after-game-end] [--json] [--quiet]

Computes the exact optimal expected final score of solitaire Qwixx (or loads the
table from the cache, ``$QWIXX_MATH_CACHE`` or the user cache directory) and
prints the start value with 6 decimals, the number of states and the seconds
taken.  See ``docs/solver.md``.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..solver import solve
from ._solitaire import add_solver_options, solitaire_ruleset

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "solve", help="solve solitaire Qwixx exactly (expected score of optimal play)",
        description="Compute (or load from the cache) the optimal expected final score of "
                    "solitaire Qwixx from every position, and print the start value.  The "
                    "cache directory is $QWIXX_MATH_CACHE, else the user cache directory.")
    parser.add_argument("--json", action="store_true",
                        help='print {"expected_score", "states", "seconds", "ruleset"} as JSON')
    add_solver_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    ruleset = solitaire_ruleset(args)
    progress = False if args.quiet else sys.stderr.isatty()
    table = solve(ruleset, progress=progress)
    if args.json:
        print(json.dumps({
            "expected_score": table.start_value,
            "states": table.states,
            "seconds": table.seconds,
            "ruleset": ruleset.to_json(),
        }))
    else:
        how = "loaded from the cache" if table.loaded else "solved"
        print(f"expected score: {table.start_value:.6f}")
        print(f"states: {table.states}")
        print(f"seconds: {table.seconds:.2f} ({how})")
    return 0
