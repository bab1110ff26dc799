"""Command-line options for the ruleset switches, shared by ``validate`` and ``generate``."""

from __future__ import annotations

import argparse
from dataclasses import replace

from ..ruleset import DieRemoval, EndCheck, LuckyCandidates, LuckyMode, Ruleset

__all__ = ["add_ruleset_arguments", "ruleset_from_args"]


def add_ruleset_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--action2-after-game-end``, ``--die-removal``, ``--end-check`` and
    ``--[no-]simultaneous-close``; each left out keeps the base ruleset's value."""
    group = parser.add_argument_group(
        "ruleset", "Options and dialect switches (RULES.md R9, R10, R14, R15); "
                   "each one given overrides the base ruleset")
    group.add_argument("--action2-after-game-end", action=argparse.BooleanOptionalAction,
                       default=None,
                       help="R15 Option: the active player still takes action 2 after the game "
                            "ended in action 1 (official: no)")
    group.add_argument("--die-removal", choices=[d.value for d in DieRemoval], default=None,
                       help="R9: when the die of a colour closed in action 1 leaves play "
                            "(official: immediate)")
    group.add_argument("--end-check", choices=[e.value for e in EndCheck], default=None,
                       help="R14: when the end of the game is checked (official: "
                            "after_actions)")
    group.add_argument("--simultaneous-close", action=argparse.BooleanOptionalAction,
                       default=None,
                       help="R10: several players may close a colour in the same action 1 "
                            "(official: yes)")
    group.add_argument("--lg-lucky-mode", choices=[m.value for m in LuckyMode], default=None,
                       help="Qwixx Longo LG4 (a layout with lucky numbers, longo:A,B): the "
                            "lucky cross instead of the white-sum cross, or additional to it "
                            "(default: instead)")
    group.add_argument("--lg-lucky-candidates", choices=[c.value for c in LuckyCandidates],
                       default=None,
                       help="Qwixx Longo LG5: the rows among which the lucky cross takes the "
                            "fewest crosses (default: open_rows)")


def ruleset_from_args(args: argparse.Namespace, base: Ruleset) -> Ruleset:
    """``base`` with the switches given on the command line."""
    ruleset = base
    if args.action2_after_game_end is not None:
        ruleset = replace(ruleset, action2_after_game_end=args.action2_after_game_end)
    if args.die_removal is not None:
        ruleset = replace(ruleset, die_removal=DieRemoval(args.die_removal))
    if args.end_check is not None:
        ruleset = replace(ruleset, end_check=EndCheck(args.end_check))
    if args.simultaneous_close is not None:
        ruleset = replace(ruleset, simultaneous_close=args.simultaneous_close)
    if getattr(args, "lg_lucky_mode", None) is not None:
        ruleset = replace(ruleset, lg_lucky_mode=LuckyMode(args.lg_lucky_mode))
    if getattr(args, "lg_lucky_candidates", None) is not None:
        ruleset = replace(ruleset, lg_lucky_candidates=LuckyCandidates(args.lg_lucky_candidates))
    return ruleset
