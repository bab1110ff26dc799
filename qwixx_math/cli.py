"""The ``qwixx-math`` command line.

Each sub-command lives in its own module under :mod:`qwixx_math.commands` and
exposes ``register(subparsers)``, which adds its parser and sets ``func`` (a
callable taking the parsed namespace and returning the exit code).  Modules are
discovered, so adding a command never touches this file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from . import commands
from .display import clip, printable
from .errors import QwixxError
from .solver.progress import lines_off_terminal

__all__ = ["build_parser", "main"]

#: Exit code for bad input (unreadable or malformed arguments, files, records).
EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors echo the arguments escaped and clipped
    (the sub-commands' parsers are of the same class)."""

    def error(self, message: str) -> NoReturn:
        super().error(printable(clip(message)))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every discovered sub-command."""
    parser: argparse.ArgumentParser = _Parser(
        prog="qwixx-math",
        description="The exact mathematics of the dice game Qwixx.",
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"qwixx-math {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None] = (
            module.register
        )
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    lines_off_terminal(True)  # progress of long work, also in a log or a pipe
    try:
        return func(args)
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback
        print(f"qwixx-math {args.command}: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except QwixxError as exc:
        # the one place that shortens echoed input (a 250 KB --sheet) and escapes it
        print(f"qwixx-math {args.command}: error: {printable(clip(str(exc)))}",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. `qwixx-math ... | head`
        return 0
    finally:
        lines_off_terminal(False)  # main() called from Python leaves the default as it was


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
