"""Command-line options for the ruleset switches and every variant pad's Option (VARIANTS.md
§10.1), shared by ``validate``, ``generate``, ``coach``, ``arena`` and (the Options only)
``prob``.

An Option given with a layout it does not concern (``--no-da-same-turn --layout official``)
is accepted and changes nothing, as a :class:`~qwixx_math.ruleset.Ruleset` and a record do.
A value the library does not play (``--da-scope own_track``, ``--bb-diamond-order
player_choice``, ``--no-cc-partner-moves-frontier``, ``--xc-in-action2``) is accepted by the
parser and refused by the Ruleset: a ParseError naming the rule (DA2, BB3, CC3, XC5), exit
code 2.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from ..ruleset import (
    BP_LOCK_MARKS,
    BonusTrigger,
    CircleCandidates,
    DiamondOrder,
    DieRemoval,
    EndCheck,
    LuckyCandidates,
    LuckyMode,
    Ruleset,
)

__all__ = ["VARIANT_FLAGS", "add_ruleset_arguments", "add_variant_arguments",
           "ruleset_from_args", "variant_ruleset"]


def add_ruleset_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--action2-after-game-end``, ``--die-removal``, ``--end-check``,
    ``--[no-]simultaneous-close`` and the variant Options (:func:`add_variant_arguments`);
    each left out keeps the base ruleset's value."""
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
    add_variant_arguments(parser)


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
    return variant_ruleset(args, ruleset)


#: Each variant Option's flag, its choices (None: a yes/no switch, ``--no-...`` for no) and
#: its help, by its Ruleset field (VARIANTS.md §10.1).
_VARIANT_OPTIONS: dict[str, tuple[list[str] | None, str]] = {
    "da_scope": (["latest", "own_track"],
                 "Qwixx Double A DA2: which number a second cross doubles (default latest; "
                 "own_track is not played)"),
    "da_same_turn": (None, "Qwixx Double A DA4: the active player may double in action 2 "
                           "the number crossed in action 1 (default yes)"),
    "bp_colour_trigger": ([t.value for t in BonusTrigger],
                          "Qwixx Big Points BP3: which white + colour sums cross a bonus cell "
                          "(default same_colour)"),
    "bp_lock_marks": ([str(n) for n in BP_LOCK_MARKS],
                      "Qwixx Big Points BP5: colour crosses before a row's last number "
                      "(default 5; a Big Points layout must have it as its lock threshold)"),
    "bb_fewest_candidates": ([c.value for c in CircleCandidates],
                             "Qwixx Bonus B BB2: the rows among which the circle takes the "
                             "fewest crosses (default open_with_next_cell)"),
    "bb_diamond_order": ([d.value for d in DiamondOrder],
                         "Qwixx Bonus B BB3: the order of the diamond's crosses (default "
                         "colour_order; player_choice is not played)"),
    "cc_partner_moves_frontier": (None, "Qwixx Connected CC3: a partner cross right of the "
                                        "frontier moves it (default yes; no is not played)"),
    "xc_field_without_cross": (None, "Qwixx X-Change XC4: an X-Change field may be spent "
                                     "alone as the action-1 cross (default no)"),
    "xc_in_action2": (None, "Qwixx X-Change XC5: exchanges in action 2 too (default no; yes "
                            "is not played)"),
    "lg_lucky_mode": ([m.value for m in LuckyMode],
                      "Qwixx Longo LG4 (a layout with lucky numbers, longo:A,B): the lucky "
                      "cross instead of the white-sum cross, or additional to it (default "
                      "instead)"),
    "lg_lucky_candidates": ([c.value for c in LuckyCandidates],
                            "Qwixx Longo LG5: the rows among which the lucky cross takes the "
                            "fewest crosses (default open_rows)"),
}

#: Each variant Option's flag, by its Ruleset field (``--[no-]`` marks a yes/no switch).
VARIANT_FLAGS: dict[str, str] = {
    name: ("--" if choices is not None else "--[no-]") + name.replace("_", "-")
    for name, (choices, _) in _VARIANT_OPTIONS.items()}

def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    """Add a flag for every variant pad's Option (:data:`VARIANT_FLAGS`); each left out
    keeps the base ruleset's value."""
    group = parser.add_argument_group(
        "variant Options", "the Options of the variant pads (VARIANTS.md §10.1); each "
        "matters only on its pad's layout and changes nothing on another; a value marked "
        "'not played' is refused with the rule's id")
    for name, (choices, text) in _VARIANT_OPTIONS.items():
        flag = "--" + name.replace("_", "-")
        if choices is None:
            group.add_argument(flag, action=argparse.BooleanOptionalAction, default=None,
                               help=text)
        else:
            group.add_argument(flag, choices=choices, default=None, help=text)


def variant_ruleset(args: argparse.Namespace, base: Ruleset) -> Ruleset:
    """``base`` with the variant Options given on the command line
    (:func:`add_variant_arguments`); ParseError naming the rule for a value not played."""
    changes: dict[str, Any] = {}
    for name in VARIANT_FLAGS:
        value = getattr(args, name, None)
        if value is not None:
            changes[name] = int(value) if name == "bp_lock_marks" else value
    # the Ruleset's own JSON reading turns the enums' values into enums
    return Ruleset.from_json({**base.to_json(), **changes}) if changes else base
