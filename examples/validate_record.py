"""Validate game records written by another Qwixx program (see docs/validation.md).

    python examples/validate_record.py [RECORD.json ...]

Without arguments it validates ``buggy_record.json`` (a record with four common bugs, next
to this script) and a random legal game; with arguments, each given record file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from qwixx_math.record import random_game
from qwixx_math.validation import RecordError, validate_file, validate_record


def main(paths: list[str]) -> int:
    if not paths:
        paths = [str(Path(__file__).with_name("buggy_record.json"))]
        legal = random_game(players=3, seed=2024)
        print(f"a random legal game of {len(legal.turns)} turns:")
        print(validate_record(legal).to_text())
        print()
    worst = 0
    for path in paths:
        try:
            report = validate_file(path)
        except RecordError as exc:  # not JSON, truncated, or not a game record
            print(f"{path}: unreadable: {exc}")
            worst = 2
            continue
        print(f"{path}:")
        print(report.to_text())
        for violation in report.violations:
            if violation.attempted is not None:
                print(f"  turn {violation.turn}: attempted {violation.attempted}, "
                      f"legal were {', '.join(violation.legal or ())}")
        print()
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
