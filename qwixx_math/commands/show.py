"""``qwixx-math show``: draw a sheet, as text or as an SVG picture (docs/drawing.md).

    qwixx-math show --sheet S [--layout L] [--roll R [--plan P] | --closed C]
                    [--svg FILE [--force]]

Without ``--svg`` the sheet is printed as text (:func:`qwixx_math.svg.sheet_text`);
``--svg FILE`` writes the picture (:func:`qwixx_math.svg.sheet_svg`) to FILE, ``--svg -``
to standard output.  An existing FILE is never overwritten unless ``--force`` is given
(exit 2 otherwise).  ``--roll`` draws the dice; the colours whose die is missing from it
are closed, as in ``advise``.  ``--plan`` (with ``--roll``) outlines the plan's cells
after the rules core has checked it: an illegal plan exits 2 naming the rule it breaks.
``--closed`` names colours closed by other players when no roll is given.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

from ..errors import ParseError
from ..model import Colour, Roll, Sheet, TurnPlan
from ..notation import parse_colours, parse_plan, parse_sheet
from ..position import sheet_position
from ..rules import Phase
from ..svg import sheet_svg, sheet_text
from ._args import add_layout_argument, layout_from_args, path_arg

__all__ = ["checked_position", "register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "show",
        help="draw a sheet (with a roll and a plan) as text or as an SVG picture",
        description=(
            "Draw a sheet of any layout: its marks, locks, penalties and closed colours, "
            "optionally the roll as dice and a plan's cells outlined. Without --svg the "
            "drawing is printed as text. --plan is checked against the rules first (an "
            "illegal plan exits 2 with the rule it breaks). --svg never overwrites an "
            "existing file unless --force is given. See docs/drawing.md."),
    )
    p.add_argument("--sheet", required=True, help="the sheet, e.g. 'r:2,3/y:-/g:12/b:-/p:0'")
    p.add_argument("--roll", help="the roll, e.g. 'w:3,5/r:1/y:2/g:6/b:4': a die for every "
                                  "open colour, none for a closed one (R4, R9)")
    p.add_argument("--plan", help="with --roll: a plan to outline, e.g. 'r8/g9', 'r8/-' "
                                  "or '-/-' (checked against the rules)")
    p.add_argument("--closed", help="colours closed by another player, e.g. 'g,b'")
    p.add_argument("--svg", type=path_arg, metavar="FILE",
                   help="write the SVG picture to FILE ('-': standard output)")
    p.add_argument("--force", action="store_true", help="with --svg: overwrite FILE")
    add_layout_argument(p, "the sheet text")
    p.set_defaults(func=run)


def checked_position(sheet: Sheet, roll_text: str, plan_text: str | None,
                     closed: frozenset[Colour]) -> tuple[Roll, TurnPlan | None]:
    """The roll, checked against the closed colours (the sheet's locks and ``closed``,
    never a missing die: :func:`~qwixx_math.position.sheet_position`), and the plan,
    checked by playing it (IllegalMoveError with the rule id if illegal)."""
    others = closed - sheet.locked
    rolled = sheet_position(sheet, roll_text, players=2 if others else 1, closed=others)
    roll = rolled.roll
    assert roll is not None
    plan = None
    if plan_text is not None:
        plan = parse_plan(plan_text, sheet.layout.top_number)
        before = dataclasses.replace(rolled, phase=Phase.ROLL, roll=None)
        before.play_plan(roll, plan)  # raises IllegalMoveError (R5..R15) for an illegal one
    return roll, plan


def run(args: argparse.Namespace) -> int:
    if args.force and args.svg is None:
        raise ParseError("--force goes with --svg FILE")
    sheet = parse_sheet(args.sheet, layout_from_args(args))
    roll: Roll | None = None
    plan: TurnPlan | None = None
    closed = sheet.locked
    if args.closed is not None:
        closed = closed | parse_colours(args.closed)
        stray = closed - frozenset(sheet.layout.locks)
        if stray:
            raise ParseError(f"layout {sheet.layout.name} has no "
                             f"{', '.join(sorted(c.value for c in stray))} row to close",
                             rule="R9")
    if args.roll is not None:
        roll, plan = checked_position(sheet, args.roll, args.plan, closed)
    elif args.plan is not None:
        raise ParseError("--plan needs --roll: a plan is checked against the roll (R5, R6)")
    if args.svg is None:
        print(sheet_text(sheet, closed=closed, roll=roll, plan=plan))
        return 0
    svg = sheet_svg(sheet, closed=closed, roll=roll, plan=plan)
    if args.svg == "-":
        sys.stdout.write(svg + "\n")
        return 0
    try:
        with open(args.svg, "w" if args.force else "x", encoding="utf-8") as out:
            out.write(svg + "\n")
    except FileExistsError:
        raise ParseError(f"--svg {args.svg!r} exists; give --force to overwrite it") from None
    except OSError as exc:
        raise ParseError(f"--svg {args.svg!r}: cannot write: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ParseError(f"--svg {args.svg!r}: cannot write: {exc}") from None
    print(f"wrote {args.svg}")
    return 0
