"""Options shared by the commands that use the solitaire solver's table
(``advise``, ``distribution``, ``policies``, ``simulate``, ``solve``)."""

from __future__ import annotations

import argparse

from ..ruleset import LuckyCandidates, LuckyMode, Ruleset

__all__ = ["add_lucky_options", "add_solver_options", "solitaire_ruleset"]


def add_solver_options(parser: argparse.ArgumentParser, quiet_help: str = "no progress bar"
                       ) -> None:
    """Add ``--action2-after-game-end`` (the R15 Option), ``--xc-field-without-cross``
    (the XC4 Option), the lucky Options (:func:`add_lucky_options`) and ``--quiet``."""
    parser.add_argument("--action2-after-game-end", action="store_true",
                        help="R15 Option: the active player still takes action 2 after "
                             "action 1 ended the game")
    parser.add_argument("--xc-field-without-cross", action="store_true",
                        help="XC4 Option (Qwixx X-Change): an X-Change field may be spent "
                             "alone as the action-1 cross")
    add_lucky_options(parser)
    parser.add_argument("--quiet", action="store_true", help=quiet_help)


def add_lucky_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--lg-lucky-mode`` and ``--lg-lucky-candidates`` (the LG4 and LG5 Options of
    Qwixx Longo's lucky numbers, ``--layout longo:A,B``)."""
    parser.add_argument("--lg-lucky-mode", choices=[m.value for m in LuckyMode],
                        default=LuckyMode.INSTEAD.value,
                        help="LG4 Option (Qwixx Longo, --layout longo:A,B): the lucky cross "
                             "is the action-1 cross (instead, the default) or may follow it "
                             "(additional)")
    parser.add_argument("--lg-lucky-candidates", choices=[c.value for c in LuckyCandidates],
                        default=LuckyCandidates.OPEN_ROWS.value,
                        help="LG5 Option (Qwixx Longo): the fewest crosses among the open "
                             "rows (open_rows, the default) or among those with a next cell "
                             "(open_with_next_cell)")


def solitaire_ruleset(args: argparse.Namespace, players: int = 1) -> Ruleset:
    """The ruleset the options of :func:`add_solver_options` describe (one player
    unless ``players`` says otherwise)."""
    return Ruleset(players=players, action2_after_game_end=args.action2_after_game_end,
                   xc_field_without_cross=args.xc_field_without_cross,
                   lg_lucky_mode=LuckyMode(args.lg_lucky_mode),
                   lg_lucky_candidates=LuckyCandidates(args.lg_lucky_candidates))
