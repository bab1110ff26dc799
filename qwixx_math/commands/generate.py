"""``qwixx-math generate --games N --seed S``: random legal game records for differential tests.

Records go to standard output as JSON Lines (one record per line), or with
``--out DIR`` into ``DIR/game-000001.json``, ... (one pretty-printed file each).

The number of games is checked before any work starts: at most
:data:`MAX_GAMES` to standard output (a line is about 4.2 KB: about 420 MB, a
few CPU minutes) and :data:`MAX_FILES` files with ``--out`` (about 10 KB each:
about 100 MB); ``benchmarks/bench_generate.py`` measures both.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import ParseError
from ..layouts import OFFICIAL
from ..ruleset import Ruleset
from ..validation.generate import generate_records
from ..validation.options import (
    add_ruleset_arguments,
    ruleset_from_args,
)
from ._args import add_layout_argument, ascii_int, layout_from_args, path_arg

__all__ = ["MAX_FILES", "MAX_GAMES", "register", "run"]

#: Most records written to standard output.
MAX_GAMES = 100_000
#: Most record files written with ``--out``.
MAX_FILES = 10_000


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "generate", help="write random legal game records",
        description="Write N random legal game records (every player picks uniformly among "
                    "passing and their legal marks), deterministic in --seed: game k gets "
                    "the seed qwixx_math.validation.game_seed(S, k), stored in its record.")
    parser.add_argument("--games", type=ascii_int(), required=True, metavar="N",
                        help=f"number of records, at most {MAX_GAMES} (at most {MAX_FILES} "
                             "with --out)")
    parser.add_argument("--seed", type=ascii_int(), required=True, metavar="S",
                        help="the run's seed")
    parser.add_argument("--players", type=ascii_int(), default=4, metavar="P",
                        help="players per game, 1 to 5 (default 4)")
    parser.add_argument("--out", metavar="DIR", type=path_arg,
                        help="write DIR/game-000001.json, ... instead of JSON Lines to stdout")
    add_ruleset_arguments(parser)
    add_layout_argument(parser, "each record")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for flag in ("games", "seed", "players"):
        if not isinstance(getattr(args, flag), int):  # argparse reads '--games --' as []
            raise ParseError(f"--{flag} needs a whole number")
    if not 0 <= args.games <= MAX_GAMES:
        raise ParseError(f"--games must be between 0 and {MAX_GAMES}, not {args.games}")
    if args.out is not None and args.games > MAX_FILES:
        raise ParseError(f"--games with --out writes at most {MAX_FILES} files (about 10 KB "
                         f"each), not {args.games}; write more as JSON Lines to standard "
                         f"output (at most {MAX_GAMES})")
    ruleset = ruleset_from_args(args, Ruleset(players=args.players))
    records = generate_records(args.games, args.seed, ruleset,
                               layout_from_args(args) or OFFICIAL)
    if args.out is None:
        for record in records:
            sys.stdout.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
        return 0
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        count = 0
        for count, record in enumerate(records, start=1):
            text = json.dumps(record.to_json(), indent=2) + "\n"
            (out / f"game-{count:06d}.json").write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ParseError(f"cannot write to {out}: {exc.strerror or exc}") from None
    print(f"wrote {count} record(s) to {out}", file=sys.stderr)
    return 0
