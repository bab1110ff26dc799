"""``qwixx-math policies``: each policy's exact expected score and its loss against optimal.

    qwixx-math policies [--layout NAME|FILE] [--policy NAME ...] [--json]
                        [--quiet] [--action2-after-game-end]

Values come from exact backward policy evaluation (docs/policies.md), computed
on first use and cached beside the solver's table.  ``--layout`` takes the pads the
policy engine plays (the official sheet, Mixx, Double B, Longo without lucky numbers,
the Steps' staircases); on Double B, Longo and the Steps the exact evaluation of a
heuristic takes tens of minutes or more (docs/policies.md), where ``qwixx-math simulate``
estimates in seconds.
"""

from __future__ import annotations

import argparse
import json

from ..layouts import OFFICIAL
from ..policies import DEFAULT_SPECS, PolicySpec, policy_value
from ._args import add_layout_argument, layout_from_args
from ._solitaire import add_solver_options, solitaire_ruleset

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "policies", help="exact expected score of each policy and its loss against optimal",
        description="The exact expected final score of solitaire Qwixx under the optimal "
                    "policy and the human heuristics (exact policy evaluation, not "
                    "simulation), and each one's loss against optimal play.")
    parser.add_argument("--policy", action="append", default=None, metavar="NAME",
                        help="a policy to list (repeatable; default: "
                             + ", ".join(s.name for s in DEFAULT_SPECS) + ")")
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    add_layout_argument(parser, None)
    add_solver_options(parser, "no progress bars")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    specs = (tuple(PolicySpec.parse(n) for n in args.policy) if args.policy
             else DEFAULT_SPECS)
    ruleset = solitaire_ruleset(args)
    progress = not args.quiet
    layout = layout_from_args(args) or OFFICIAL
    optimal = policy_value(PolicySpec.optimal(), ruleset, progress=progress, layout=layout)
    rows = []
    for spec in specs:
        value = optimal if spec == PolicySpec.optimal() else policy_value(
            spec, ruleset, progress=progress, layout=layout)
        rows.append({"policy": spec.name, "layout": layout.name,
                     "expected_score": value.expected_score,
                     "loss": optimal.expected_score - value.expected_score,
                     "seconds": value.seconds, "cached": value.loaded})
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'policy':<14} {'expected':>10} {'loss':>8}")
    for row in rows:
        print(f"{row['policy']:<14} {row['expected_score']:10.4f} {row['loss']:8.4f}")
    sheet = "" if layout.is_official else f" on the {layout.name} sheet"
    print(f"Exact expected final score of solitaire Qwixx{sheet} (policy evaluation); loss "
          "against the optimal policy.")
    return 0
