"""Argument types shared by the commands: ASCII whole numbers and decimals, usable paths.

:func:`add_layout_argument` gives a command the shared ``--layout
official|mixx-a|mixx-b`` option (:func:`layout_from_args` reads it).

Numbers and names follow the project's one rule (:mod:`qwixx_math.parsing`,
docs/notation.md): ``int`` and ``float`` accept any Unicode digit (``int("\\u0663")``,
an Arabic-Indic three, is 3), underscores (``int("1_000")``) and surrounding
whitespace; a command-line number is ASCII digits only (an optional sign, at most
:data:`MAX_DIGITS` digits, no spaces), a name one of its documented spellings
exactly.  A path may not be empty (``--out ''`` would silently mean the current
directory) nor hold a NUL character.  Each type raises
:class:`argparse.ArgumentTypeError`, so argparse prints the usage and the problem
and exits with code 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Callable

from ..display import printable
from ..errors import ParseError
from ..layouts import LAYOUTS, SheetLayout, layout_named, read_layout_file
from ..parsing import MAX_DIGITS, parse_count, parse_decimal, shown
from ..record import GameRecord
from ..validation.reader import RecordError

__all__ = ["MAX_DIGITS", "add_layout_argument", "ascii_float", "ascii_int", "check_layout",
           "is_layout_file", "layout_arg", "layout_from_args", "path_arg", "record_with_layout"]


def _shown(text: str) -> str:
    return shown(text)


def _without_subject(exc: ParseError, what: str) -> str:
    """The message of ``exc`` without its ``what: `` prefix (argparse names the option)."""
    message = str(exc)
    return message[len(what) + 2:] if message.startswith(what + ": ") else message


def ascii_int(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """The argparse type of a whole number written in ASCII digits, ``low <= n <= high``
    (:func:`qwixx_math.parsing.parse_count`)."""

    def parse(text: str) -> int:
        try:
            return parse_count(text, "number", low, high)
        except ParseError as exc:
            raise argparse.ArgumentTypeError(_without_subject(exc, "number")) from None

    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


def ascii_float(text: str) -> float:
    """The argparse type of a finite decimal number written in ASCII (``0.05``, ``1e-3``)
    (:func:`qwixx_math.parsing.parse_decimal`)."""
    try:
        return parse_decimal(text, "number")
    except ParseError as exc:
        raise argparse.ArgumentTypeError(_without_subject(exc, "number")) from None


def path_arg(text: str) -> str:
    """The argparse type of a file or directory name: not empty, no NUL character."""
    if not text:
        raise argparse.ArgumentTypeError("a file or directory name may not be empty "
                                         "(write '.' for the current directory)")
    if "\x00" in text:
        raise argparse.ArgumentTypeError(f"a file name may not hold a NUL character: "
                                         f"{_shown(text)}")
    return text


def is_layout_file(text: str) -> bool:
    """Whether ``--layout text`` names a layout file rather than a layout: a name ending in
    ``.json`` or holding a directory separator (``./house.json``, ``pads/house.json``)."""
    return text.endswith(".json") or "/" in text or os.sep in text


def layout_arg(text: str) -> SheetLayout:
    """The argparse type of a sheet layout: a published name (``official``, ``mixx-a``,
    ``double-b``, ``connected-steps``, ...), a spelled-out layout key, or a layout file
    (a name ending in ``.json`` or holding a ``/``: :func:`qwixx_math.layouts.read_layout_file`,
    docs/layouts.md)."""
    try:
        if is_layout_file(text):
            return read_layout_file(text)
        return layout_named(text)
    except ParseError as exc:
        message = str(exc)
        if not is_layout_file(text) and message.startswith("unknown layout"):
            message += " (a layout file's name ends in .json)"
        raise argparse.ArgumentTypeError(message) from None


layout_arg.__name__ = "layout"


def add_layout_argument(parser: argparse.ArgumentParser, what: str | None = "the sheet"
                        ) -> None:
    """Add ``--layout NAME|FILE`` (default: the official sheet, or the layout
    ``what`` names itself, e.g. a ``mixx-a|...`` sheet; None for a command that reads no
    sheet, such as ``solve``)."""
    named = f"; {what} may also name it" if what is not None else ""
    parser.add_argument(
        "--layout", type=layout_arg, default=None, metavar="NAME|FILE",
        help=f"the printed sheet: official (default), mixx-a (colours mixed), mixx-b "
             f"(numbers mixed), see docs/mixx.md; double-a (second crosses), double-b "
             f"(double cells; double-b-alt: green and blue doubled at 11, 9, 5, 3), "
             f"connected-steps (also -2 to -5, -s21: step cells, reconstructed), "
             f"connected-chain (sheet A's chain pairs), longo (8-sided dice, 15-cell rows; "
             f"longo:A,B with the lucky numbers A and B), bonus-a (the bonus bar), bonus-b "
             f"(paired symbols), big-points (bonus rows), x-change (the X-Change track), "
             f"see docs/variants.md for what each command does on each; or a layout file "
f"FILE.json, see docs/layouts.md{named}; all names: {', '.join(LAYOUTS)}")


def layout_from_args(args: argparse.Namespace) -> SheetLayout | None:
    """The layout ``--layout`` gave, or None when the option was left out."""
    layout = getattr(args, "layout", None)
    return layout if isinstance(layout, SheetLayout) else None


def check_layout(args: argparse.Namespace, layout: SheetLayout, what: str) -> None:
    """ParseError unless ``--layout`` was left out or names ``layout``, the layout of
    ``what`` (e.g. "the state")."""
    given = layout_from_args(args)
    if given is not None and given != layout:
        raise ParseError(f"{what} is of layout {layout.name}, not {given.name} (--layout)")


def record_with_layout(args: argparse.Namespace, record: GameRecord, source: str
                       ) -> GameRecord:
    """``record`` on the layout of ``--layout``: a record that names a layout must name
    that one (RecordError otherwise); a record that names none (the official sheet's
    JSON form) takes it."""
    layout = layout_from_args(args)
    if layout is not None and layout != record.layout:
        if not record.layout.is_official:
            raise RecordError(f"{printable(source)}: the record names layout "
                              f"{record.layout.name}, not {layout.name} (--layout)")
        record = dataclasses.replace(record, layout=layout)
    return record


def add_rollout_arguments(parser: argparse.ArgumentParser, rollouts_help: str, seat: str,
                          budget_help: str | None = None) -> None:
    """The win rollouts' options of ``advise`` and ``review`` (``--objective win``):
    ``--rollouts`` (``rollouts_help``), ``--budget`` (when ``budget_help`` is given),
    ``--seed``, ``--opponents`` and ``--own-player`` (of ``seat``, e.g. "the advised
    seat"); :func:`rollout_players` reads the players back."""
    parser.add_argument("--rollouts", type=ascii_int(), default=None, metavar="K",
                        help=f"with --objective win: {rollouts_help}")
    if budget_help is not None:
        parser.add_argument("--budget", type=ascii_int(), default=None, metavar="D",
                            help=f"with --objective win: {budget_help}")
    parser.add_argument("--seed", type=ascii_int(), default=None, metavar="S",
                        help="with --objective win: the seed of the rollouts' dice (default 0)")
    parser.add_argument("--opponents", default=None, metavar="NAME[,NAME...]",
                        help="with --objective win: the arena player (e.g. win, racer, greedy) "
                             "of every other seat in the rollouts, or one per other seat in "
                             "seat order (default win)")
    parser.add_argument("--own-player", default=None, metavar="NAME",
                        help=f"with --objective win: the arena player of {seat}'s later "
                             "decisions in the rollouts (default win)")


def rollout_players(args: argparse.Namespace) -> tuple[str | list[str], str]:
    """The rollout players of :func:`add_rollout_arguments`' options: the opponents (one
    name for every other seat, or one per seat) and the seat's own later player."""
    opponents: str | list[str] = "win"
    if args.opponents is not None:
        names = [name.strip() for name in args.opponents.split(",")]
        opponents = names[0] if len(names) == 1 else names
    return opponents, "win" if args.own_player is None else args.own_player
