"""Options shared by the commands that use the solitaire solver's table
(``advise``, ``distribution``, ``policies``, ``simulate``, ``solve``)."""

from __future__ import annotations

import argparse

from ..ruleset import Ruleset

__all__ = ["add_solver_options", "solitaire_ruleset"]


def add_solver_options(parser: argparse.ArgumentParser, quiet_help: str = "no progress bar"
                       ) -> None:
    """Add ``--action2-after-game-end`` (the R15 Option), ``--xc-field-without-cross``
    (the XC4 Option) and ``--quiet``."""
    parser.add_argument("--action2-after-game-end", action="store_true",
                        help="R15 Option: the active player still takes action 2 after "
                             "action 1 ended the game")
    parser.add_argument("--xc-field-without-cross", action="store_true",
                        help="XC4 Option (Qwixx X-Change): an X-Change field may be spent "
                             "alone as the action-1 cross")
    parser.add_argument("--quiet", action="store_true", help=quiet_help)


def solitaire_ruleset(args: argparse.Namespace, players: int = 1) -> Ruleset:
    """The ruleset the options of :func:`add_solver_options` describe (one player
    unless ``players`` says otherwise)."""
    return Ruleset(players=players, action2_after_game_end=args.action2_after_game_end,
                   xc_field_without_cross=args.xc_field_without_cross)
