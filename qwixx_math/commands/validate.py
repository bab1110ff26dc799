"""``qwixx-math validate RECORD.json``: check another program's game record against the rules.

Exit code 0 when the record is valid, 1 when it breaks rules (each violation
is listed), 2 when it cannot be read (not JSON, truncated, not the documented
format; the message names the line and column or the JSON path).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..display import printable
from ..validation.options import add_ruleset_arguments, ruleset_from_args
from ..validation.reader import MAX_RECORD_BYTES, RecordError, load_record, parse_record_text
from ..validation.validate import validate_record
from ._args import add_layout_argument, path_arg, record_with_layout

__all__ = ["register", "run"]

EXIT_VALID = 0
EXIT_VIOLATIONS = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "validate", help="check a game record against the rules and report every violation",
        description="Replay a game record (qwixx-math/game-record JSON) through the reference "
                    "rules and report every violation with its turn, player and rule id, the "
                    "claimed scores, end of game and winners included, and which ruleset "
                    "switch (dialect) explains them.  Limits: a record of at most 4 MiB and "
                    "2,000 turns; the first 1,000 violations are described, the rest "
                    "counted; no dialect diagnosis beyond 200 violations.  Exit code 0: "
                    "valid; 1: violations; 2: unreadable record.")
    parser.add_argument("record", metavar="RECORD.json", type=path_arg,
                        help="the game record file ('-' reads standard input), at most "
                             "4 MiB")
    parser.add_argument("--json", action="store_true",
                        help='print {"valid": ..., "violations": [...], ...} as JSON')
    parser.add_argument("--no-dialects", action="store_true",
                        help="skip the dialect diagnosis")
    parser.add_argument("--partial", action="store_true",
                        help="the record may stop before the game ends (a game in progress): "
                             "its end is not a violation unless its result claims one")
    add_ruleset_arguments(parser)
    add_layout_argument(parser, "the record")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.record == "-":
        buffer = getattr(sys.stdin, "buffer", None)  # None: a text stream (tests)
        try:
            raw = (buffer.read(MAX_RECORD_BYTES + 1) if buffer is not None
                   else sys.stdin.read(MAX_RECORD_BYTES + 1))
            text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as exc:
            raise RecordError(f"<stdin>: not UTF-8 text (byte {exc.start})") from None
        if len(raw) > MAX_RECORD_BYTES:
            raise RecordError(f"<stdin>: the record is larger than {MAX_RECORD_BYTES:,} bytes, "
                              "the most that is read")
        record = parse_record_text(text, "<stdin>")
    else:
        record = load_record(args.record)
    record = record_with_layout(args, record, args.record)
    ruleset = ruleset_from_args(args, record.ruleset)
    report = validate_record(record, ruleset, dialects=not args.no_dialects,
                             partial=args.partial)
    if args.json:
        out: dict[str, Any] = report.to_json()
        print(json.dumps(out, indent=2, sort_keys=False))
    else:
        print(f"{printable(args.record)}: {report.to_text()}")
    return EXIT_VALID if report.valid else EXIT_VIOLATIONS
