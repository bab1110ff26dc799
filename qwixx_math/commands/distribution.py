"""``qwixx-math distribution``: the exact distribution of the final score under optimal play.

    qwixx-math distribution [--layout NAME|FILE] [--policy NAME] [--json]
                            [--plot FILE.png] [--quiet] [--action2-after-game-end]

Forward propagation of state probabilities through the solver's state space
(see docs/policies.md); computed once (a few minutes) and cached beside the
solver's table.  ``--layout`` takes the pads the policy engine plays (as ``qwixx-math
simulate``); on a staircase of the Steps the probabilities are kept per step total too
(CS2): a 5.7 GB array, against 0.47 GB on the official sheet.  ``--plot`` needs
matplotlib: ``pip install 'qwixx_math[plot]'``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..display import printable
from ..errors import ParseError
from ..layouts import OFFICIAL
from ..policies import PERCENTILES, ScoreDistribution, score_distribution
from ._args import add_layout_argument, layout_from_args, path_arg
from ._solitaire import add_solver_options, solitaire_ruleset

__all__ = ["PLOT_FORMATS", "check_plot_path", "plot_distribution", "register", "run"]

PLOT_HINT = "--plot needs matplotlib: pip install 'qwixx_math[plot]'"
#: The file types --plot draws (by the file name's extension).
PLOT_FORMATS = (".png", ".pdf", ".svg")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "distribution", help="exact distribution of the final score under optimal play",
        description="The exact probability of every final score of solitaire Qwixx under the "
                    "optimal policy (or another --policy), by forward propagation of state "
                    "probabilities: mean, standard deviation, percentiles, the histogram.  "
                    "Computed once and cached beside the solver's table.")
    parser.add_argument("--policy", default="optimal",
                        help="optimal (default), seed-tips (the tips in the published rule "
                             "texts), fewest-skips or threshold-T")
    parser.add_argument("--json", action="store_true",
                        help="print the summary and the histogram as one JSON object")
    parser.add_argument("--plot", metavar="FILE.png", default=None, type=path_arg,
                        help="also draw the histogram to FILE.png, .pdf or .svg (needs "
                             "matplotlib); the directory must exist and be writable")
    add_layout_argument(parser, None)
    add_solver_options(parser)
    parser.set_defaults(func=run)


def plot_distribution(dist: ScoreDistribution, path: str) -> None:
    """Draw the histogram with the mean and the 5/50/95th percentiles (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    dist.plot(ax, edgecolor="none")
    ax.set_title(f"Solitaire Qwixx, {ax.get_title()}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def check_plot_path(path: str) -> None:
    """Refuse a --plot file that could not be written, before minutes of work: a type
    other than :data:`PLOT_FORMATS`, a missing or read-only directory, a directory."""
    target = Path(path)
    if target.suffix.lower() not in PLOT_FORMATS:
        raise ParseError(f"--plot {path!r}: the file name must end in "
                         f"{', '.join(PLOT_FORMATS)}")
    folder = target.parent
    if not folder.is_dir():
        raise ParseError(f"--plot {path!r}: the directory {str(folder)!r} "
                         "does not exist")
    if target.is_dir():
        raise ParseError(f"--plot {path!r} is a directory")
    try:  # a real write: permissions, read-only file systems, quotas (root passes os.access)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise ParseError(f"--plot {path!r}: cannot write to {str(folder)!r}: "
                         f"{exc.strerror or exc}") from None
    if target.exists() and not os.access(target, os.W_OK):
        raise ParseError(f"--plot {path!r}: the file exists and cannot be written")


def run(args: argparse.Namespace) -> int:
    if args.plot is not None:
        if importlib.util.find_spec("matplotlib") is None:
            print(f"qwixx-math distribution: error: {PLOT_HINT}", file=sys.stderr)
            return 2
        check_plot_path(args.plot)
    ruleset = solitaire_ruleset(args)
    layout = layout_from_args(args) or OFFICIAL
    dist = score_distribution(args.policy, ruleset, progress=not args.quiet,
                              layout=layout)
    if args.plot is not None:
        try:
            plot_distribution(dist, args.plot)
        except OSError as exc:  # the checks above passed, but the disk said no
            raise ParseError(f"--plot {args.plot!r}: cannot write the plot: "
                             f"{exc.strerror or exc}") from None
    if args.json:
        out: dict[str, Any] = dist.to_json()
        out["layout"] = layout.name
        out["seconds"] = dist.seconds
        print(json.dumps(out))
        return 0
    pct = dist.percentiles()
    sheet = "" if layout.is_official else f" ({layout.name} sheet)"
    print(f"final score of solitaire Qwixx{sheet}, {dist.policy} policy "
          f"(action 2 after the game ends: {'yes' if args.action2_after_game_end else 'no'})")
    print(f"mean {dist.mean:.6f}   sd {dist.sd:.4f}   total probability {dist.total:.15f}")
    print("percentiles  " + "  ".join(f"{q}%: {pct[q]}" for q in PERCENTILES))
    low, high = dist.support()
    print(f"mode {dist.mode}   range {low}..{high}   P(score <= 0) = {dist.cdf(0):.3e}   "
          f"P(score >= 150) = {1 - dist.cdf(149):.4f}")
    if args.plot is not None:
        print(f"histogram drawn to {printable(args.plot)}")
    return 0
