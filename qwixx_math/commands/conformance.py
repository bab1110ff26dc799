"""``qwixx-math conformance``: write or check the language-neutral conformance corpus."""

from __future__ import annotations

import argparse

from ..display import printable
from ..validation.conformance import check_corpus, emit_corpus
from ._args import path_arg

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "conformance", help="write or check the conformance corpus",
        description="The conformance corpus (legality.json, transitions.json, manifest.json) "
                    "is generated deterministically by the reference core; docs/validation.md "
                    "describes how another program checks itself against it.")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--emit", metavar="DIR", type=path_arg, help="write a fresh corpus into DIR")
    what.add_argument("--check", metavar="DIR", nargs="?", const="",
                      help="replay a corpus (default: the one shipped with qwixx_math) through "
                           "the reference core; exit code 1 on any disagreement")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.emit is not None:
        paths = emit_corpus(args.emit)
        print(f"wrote {', '.join(p.name for p in paths)} to {printable(args.emit)}")
        return 0
    found = check_corpus(args.check or None)
    where = printable(args.check) if args.check else "the shipped corpus"
    for failure in found.failures:
        print(failure)
    verdict = "all agree with the reference core" if found.ok else \
        f"{len(found.failures)} disagreement(s) with the reference core"
    print(f"{where}: {found.legality} legality cases, {found.transitions} transitions: {verdict}")
    return 0 if found.ok else 1
