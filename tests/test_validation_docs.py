"""docs/validation.md cannot go stale: its example record is the example file, its options
exist.  (The report it shows is a doctest of the real output, run with the docs.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

from qwixx_math.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "validation.md").read_text(encoding="utf-8")


def test_the_documented_record_is_the_example_file() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC, flags=re.DOTALL)
    assert len(blocks) == 1
    example = (ROOT / "examples" / "buggy_record.json").read_text(encoding="utf-8")
    assert blocks[0] == example
    json.loads(blocks[0])


def test_documented_validate_options_exist() -> None:
    options = re.findall(r"`(--[a-z0-9-]+(?: [a-z_]+)?)`", DOC)
    assert len(options) >= 5
    parser = build_parser()
    for option in options:
        args = parser.parse_args(["validate", "x.json", *option.split()])
        assert args.func is not None


def test_documented_commands_parse() -> None:
    parser = build_parser()
    commands = [c for c in re.findall(r"`(qwixx-math [^`]+)`", DOC) if len(c.split()) > 2]
    assert len(commands) >= 4
    for line in commands:
        argv = ["d" if a == "DIR" else a for a in line.split()[1:] if a != "[DIR]"]
        assert parser.parse_args(argv).func is not None, line
