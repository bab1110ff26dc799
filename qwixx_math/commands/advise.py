"""``qwixx-math advise``: rank every legal plan for a sheet and a roll."""

from __future__ import annotations

import argparse
import json
import sys

from ..advice import Advice, Advisor
from ..errors import IllegalMoveError, ParseError
from ..model import COLOURS, Sheet
from ..notation import format_roll, format_sheet, parse_roll, parse_sheet
from ..rules import GameState
from ..ruleset import Ruleset
from ._solitaire import add_solver_options, solitaire_ruleset


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "advise",
        help="rank every legal plan for a sheet and a roll by expected final score",
        description=(
            "Rank every legal plan (action-1 mark, action-2 mark, or neither = penalty) "
            "by the expected final score under optimal solitaire play afterwards. "
            "Colours whose die is missing from the roll are taken as closed (by another "
            "player when the sheet has no lock there). Opponents are not modelled. "
            "The solver table is built on first use (about a minute) and cached."
        ),
    )
    p.add_argument("--sheet", required=True, help="the sheet, e.g. 'r:2,3/y:-/g:12/b:-/p:0'")
    p.add_argument("--roll", required=True, help="the roll, e.g. 'w:3,5/r:1/y:2/g:6/b:4'")
    p.add_argument("--passive", action="store_true",
                   help="advise a non-active player (white sum only, no penalty)")
    p.add_argument("--top", type=int, default=None, metavar="N",
                   help="show only the N best plans")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_solver_options(p, "no progress bar while solving")
    p.set_defaults(func=run)


def position(sheet: Sheet, roll_text: str, ruleset: Ruleset, passive: bool = False
             ) -> GameState:
    """The state of ``sheet`` after ``roll`` (closed colours read off the roll).

    Active: a one-player game.  Passive: the sheet is player 1's in a two-player
    game whose active player 0 has an empty sheet (which cannot change what this
    player may do).
    """
    roll = parse_roll(roll_text)
    closed = frozenset(c for c in COLOURS if roll.die(c) is None)
    for colour in sheet.locked:
        if colour not in closed:
            raise IllegalMoveError(
                "R9", f"the sheet closed {colour.value}, so its die left play, but the roll "
                      f"has it ({format_roll(roll)})")
    if passive:
        state = GameState(Ruleset(players=2, action2_after_game_end=ruleset.action2_after_game_end),
                          (Sheet.EMPTY, sheet), closed=closed | sheet.locked)
    else:
        state = GameState(ruleset, (sheet,), closed=closed | sheet.locked)
    return state.with_roll(roll)


def run(args: argparse.Namespace) -> int:
    if args.top is not None and args.top < 1:
        raise ParseError("--top must be at least 1")
    ruleset = solitaire_ruleset(args)
    sheet = parse_sheet(args.sheet)
    rolled = position(sheet, args.roll, ruleset, args.passive)
    advisor = Advisor.for_ruleset(ruleset, progress=False if args.quiet else None)
    advice = (advisor.advise_passive(rolled, 1) if args.passive else advisor.advise(rolled))
    shown = advice.plans if args.top is None else advice.plans[: args.top]
    if args.json:
        out = Advice(advice.player, advice.passive, shown).to_json()
        del out["player"]
        out["sheet"] = format_sheet(sheet)
        out["roll"] = format_roll(rolled.roll) if rolled.roll is not None else None
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return 0
    print(f"sheet {format_sheet(sheet)}   roll "
          f"{format_roll(rolled.roll) if rolled.roll is not None else '-'}"
          f"{'   (passive player)' if advice.passive else ''}")
    print(f"{'rank':>4}  {'plan':<9} {'expected':>9} {'loss':>8}  in words")
    for rank, ranked in enumerate(shown, start=1):
        print(f"{rank:>4}  {ranked.plan!s:<9} {ranked.expected_score:9.3f} "
              f"{ranked.loss:8.3f}  {ranked.describe()}")
    if args.top is not None and len(shown) < len(advice.plans):
        print(f"({len(advice.plans) - len(shown)} more plans; drop --top to see them)")
    print("Expected final score under optimal solitaire play afterwards; opponents are "
          "not modelled.")
    return 0
