"""Benchmark of ``qwixx-math generate``: records per CPU second and their size on disk.

    python benchmarks/bench_generate.py [--games N] [--seed S] [--players P]

Generates ``--games`` random legal records (default 1,000, 4 players) as the
command does and prints records per second of this process's CPU time, the mean
size of a record as a JSON Lines line and as an ``--out`` file (pretty-printed),
and what the command's limits (:data:`qwixx_math.commands.generate.MAX_GAMES`
lines, :data:`~qwixx_math.commands.generate.MAX_FILES` files) therefore mean in
bytes and CPU time (docs/validation.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_math.commands.generate import MAX_FILES, MAX_GAMES  # noqa: E402
from qwixx_math.ruleset import Ruleset  # noqa: E402
from qwixx_math.validation import generate_records  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    start = time.process_time()
    line_bytes = file_bytes = 0
    for record in generate_records(args.games, args.seed, Ruleset(players=args.players)):
        data = record.to_json()
        line_bytes += len(json.dumps(data, separators=(",", ":"))) + 1
        file_bytes += len((json.dumps(data, indent=2) + "\n").encode())
    cpu = time.process_time() - start
    rate = args.games / cpu
    line, file = line_bytes / args.games, file_bytes / args.games
    print(f"{args.games} records of {args.players} players, seed {args.seed}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{rate:,.0f} records per CPU second (generation and JSON, no disk)")
    print(f"a JSON Lines line: {line:,.0f} bytes; an --out file: {file:,.0f} bytes")
    print(f"limit {MAX_GAMES:,} lines: {MAX_GAMES * line / 1e6:,.0f} MB, "
          f"{MAX_GAMES / rate / 60:.1f} CPU minutes")
    print(f"limit {MAX_FILES:,} files: {MAX_FILES * file / 1e6:,.0f} MB, "
          f"{MAX_FILES / rate / 60:.1f} CPU minutes")


if __name__ == "__main__":
    main()
