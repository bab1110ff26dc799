"""``qwixx-math dice-test``: are the dice of recorded rolls fair?

    qwixx-math dice-test ROLLS_FILE [--format json|csv] [--alpha A] [--method chi2|g] [--json]

Chi-square and G goodness-of-fit tests per die, for the white sum and for each
white + colour pairing, against the exact distributions, with Holm's correction in
the verdict (see ``docs/probability.md``).  Exit code 0 when no test rejects fair
dice, 1 when some test does, 2 for an unreadable or malformed file.
"""

from __future__ import annotations

import argparse
import json

from ..dice.fairness import (
    MAX_ROLLS_BYTES,
    FairnessReport,
    dice_fairness,
    parse_rolls,
    read_rolls,
)
from ..files import read_text_bounded
from ._args import ascii_float, path_arg

__all__ = ["EXIT_NOT_FAIR", "register", "run"]

#: Exit code when the dice are flagged as not fair.
EXIT_NOT_FAIR = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "dice-test", help="goodness-of-fit tests of recorded rolls against fair dice",
        description="Test recorded rolls (JSON: a list of rolls or a game record; CSV: "
                    "white1,white2,red,yellow,green,blue with empty cells for dice not in "
                    "play) for fair dice.  Exit code 0: fair, 1: not fair, 2: bad input.")
    p.add_argument("rolls_file", metavar="ROLLS_FILE", type=path_arg,
                   help="the rolls, JSON or CSV (at most 32 MB and 1,000,000 rolls)")
    p.add_argument("--format", choices=("json", "csv"), default=None,
                   help="file format (default: by extension, else by the first character)")
    p.add_argument("--alpha", type=ascii_float, default=0.05,
                   help="family-wise significance level (default 0.05)")
    p.add_argument("--method", choices=("chi2", "g"), default="chi2",
                   help="statistic of the verdict: Pearson chi-square or G-test (default chi2)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.format is None:
        rolls = read_rolls(args.rolls_file)
    else:
        text = read_text_bounded(args.rolls_file, MAX_ROLLS_BYTES, "rolls")
        rolls = parse_rolls(text, args.format)
    report = dice_fairness(rolls, alpha=args.alpha, method=args.method)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_report(report))
    return 0 if report.fair or not report.tests else EXIT_NOT_FAIR


def format_report(report: FairnessReport) -> str:
    """The report as a plain-text table."""
    lines = [f"{report.rolls} rolls"]
    head = (f"{'test':<20} {'values':>6} {'cells':>5} {'chi2':>9} {'p':>9} {'G':>9} "
            f"{'p(G)':>9} {'Holm p':>9}  verdict")
    lines.append(head)
    for t in report.tests:
        mark = "REJECT" if t.rejected else "ok"
        merged = "*" if t.merged else " "
        lines.append(f"{t.name:<20} {t.rolls:>6} {len(t.cells):>4}{merged} {t.chi2:>9.3f} "
                     f"{t.chi2_p:>9.4f} {t.g:>9.3f} {t.g_p:>9.4f} {t.adjusted_p:>9.4f}  {mark}")
    if any(t.merged for t in report.tests):
        lines.append("* cells merged so that each expects at least 5 rolls")
    lines += [f"note: {n}" for n in report.notes]
    lines.append(f"verdict: {report.verdict}")
    return "\n".join(lines)
