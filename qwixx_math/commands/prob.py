"""``qwixx-math prob``: the exact chances of the coming turn for one sheet.

    qwixx-math prob --sheet SHEET [--closed COLOURS] [--roll ROLL] [--layout L] [--json]
                    [--action2-after-game-end] [--xc-field-without-cross]
                    [--lg-lucky-mode M] [--lg-lucky-candidates C] [the other variant
                    Options: --[no-]da-same-turn, --bb-fewest-candidates C, ...]

Prints the markable probability of every (row, number) for the active and for a
passive player, the forced-penalty, closing and game-end probabilities and the
distribution of the number of marks, as exact fractions and decimals.  On a sheet with
lucky numbers (``--layout longo:A,B``, LG3) also the chance of a lucky cross, whose cell
counts among the markable numbers; the LG4 and LG5 Options decide which crosses are
possible, as ``--xc-field-without-cross`` (XC4) does on Qwixx X-Change; every variant
pad's Option has its flag (docs/variants.md, "Options on the command line").  ``--roll``
adds what one given roll offers.  ``--json`` prints fractions as strings ("7/36").
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from ..dice.events import PlayerEvents, RollEvents, TurnEvents, roll_events, turn_events
from ..model import COLOURS
from ..notation import (
    format_colours,
    format_mark,
    format_plan,
    parse_colours,
    parse_roll,
    parse_sheet,
)
from ..ruleset import Ruleset
from ..validation.options import add_variant_arguments, variant_ruleset
from ._args import add_layout_argument, layout_from_args

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "prob", help="exact probabilities of the coming turn for a sheet",
        description="Exact probabilities of the coming turn for a player with SHEET: "
                    "markable numbers, forced penalty, closing, the end of the game.")
    p.add_argument("--sheet", required=True,
                   help="the sheet, e.g. 'r:2,3,5/y:-/g:12,11/b:-/p:1' (see docs/notation.md)")
    p.add_argument("--closed", default="-",
                   help="colours closed by other players, e.g. 'g' or 'green' (default none)")
    p.add_argument("--roll", default=None,
                   help="also show what this roll offers, e.g. 'w:3,5/r:1/y:2/g:6/b:4'")
    p.add_argument("--action2-after-game-end", action="store_true",
                   help="R15 Option: action 2 still follows when the game ends in action 1")
    p.add_argument("--json", action="store_true", help="print JSON (fractions as strings)")
    add_layout_argument(p)
    add_variant_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    sheet = parse_sheet(args.sheet, layout_from_args(args))
    closed = parse_colours(args.closed)
    ruleset = variant_ruleset(
        args, Ruleset(action2_after_game_end=bool(args.action2_after_game_end)))
    events = turn_events(sheet, closed, ruleset)
    one = roll_events(sheet, parse_roll(args.roll, sheet.layout.faces), closed, ruleset) \
        if args.roll is not None else None
    if args.json:
        out = events.to_json()
        if one is not None:
            out["roll"] = _roll_json(one)
        print(json.dumps(out, indent=2))
    else:
        print(_text(events, one))
    return 0


def _roll_json(ev: RollEvents) -> dict[str, Any]:
    return {"roll": str(ev.roll), "plans": [format_plan(p) for p in ev.plans],
            "ending_plans": [format_plan(p) for p in ev.ending_plans],
            "active_marks": [format_mark(m) for m in ev.active_marks],
            "passive_marks": [format_mark(m) for m in ev.passive_marks],
            "active_cells": [format_mark(m) for m in ev.active_cells],
            "passive_cells": [format_mark(m) for m in ev.passive_cells],
            "no_mark": ev.no_mark, "max_marks": ev.max_marks, "lucky": ev.lucky,
            "can_end": ev.can_end, "must_end": ev.must_end}


def _dec(p: Fraction) -> str:
    return f"{float(p):.4f}"


def _both(p: Fraction) -> str:
    return f"{p} = {_dec(p)}"


def _table(player: PlayerEvents, fmt: Any) -> list[str]:
    layout = player.layout
    if not layout.is_official:  # rows of their own numbers: number:probability per cell
        return [f"{c.value:<7} " + " ".join(f"{n}:{fmt(player.markable(c, n))}"
                                            for n in layout.numbers[layout.row_index(c)])
                for c in layout.locks]
    cells = [[fmt(player.markable(c, n)) for n in range(2, 13)] for c in COLOURS]
    width = max(4, *(len(x) for row in cells for x in row))
    lines = ["number  " + " ".join(f"{n:>{width}}" for n in range(2, 13))]
    for c, row in zip(COLOURS, cells, strict=True):
        lines.append(f"{c.value:<7} " + " ".join(f"{x:>{width}}" for x in row))
    return lines


def _player(title: str, player: PlayerEvents, active: bool) -> list[str]:
    lines = [f"{title}: P(number markable this turn), exact", *_table(player, str),
             f"{title}: the same as decimals", *_table(player, _dec)]
    label = "forced penalty (no legal mark)" if active else "no legal mark"
    lines.append(f"{label}: {_both(player.no_mark)}")
    if player.layout.lucky:
        lines.append(f"a lucky cross is possible (LG3): {_both(player.lucky)}")
    lines.append("can close: " + ", ".join(
        f"{c.value} {_both(player.closing(c))}" for c in player.layout.locks))
    lines.append(f"game can end by closing: {_both(player.can_end_by_closing)}")
    if active:
        lines.append(f"game can end (closing or 4th penalty): {_both(player.can_end)}")
        lines.append("most marks possible: " + ", ".join(
            f"{k}: {_both(v)}" for k, v in player.marks.probabilities().items()))
    return lines


def _text(ev: TurnEvents, one: RollEvents | None) -> str:
    dice = ", ".join(["white", "white", *(c.value for c in ev.in_play)])
    lines = [f"sheet {ev.sheet}; closed {format_colours(ev.closed)}; dice in play: {dice}", ""]
    lines += _player("active player", ev.active, True)
    lines.append(f"game must end (every legal plan ends it): {_both(ev.must_end)}")
    lines.append("")
    lines += _player("passive player", ev.passive, False)
    if one is not None:
        lines += ["", f"roll {one.roll}:",
                  "  legal plans: " + " ".join(format_plan(p) for p in one.plans),
                  "  active player can mark: "
                  + (" ".join(format_mark(m) for m in one.active_marks) or "nothing (penalty)"),
                  "  passive player can mark: "
                  + (" ".join(format_mark(m) for m in one.passive_marks) or "nothing"),
                  *([f"  lucky cross possible: {'yes' if one.lucky else 'no'}"]
                    if one.layout.lucky else []),
                  f"  most marks: {one.max_marks}; game can end: {'yes' if one.can_end else 'no'}"
                  f"; must end: {'yes' if one.must_end else 'no'}"]
    return "\n".join(lines)
