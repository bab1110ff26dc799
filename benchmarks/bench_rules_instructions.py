"""Instructions per random 4-player game through the rules core, under valgrind's cachegrind.

    python benchmarks/bench_rules_instructions.py                      # the slowest pads
    python benchmarks/bench_rules_instructions.py --layout official --games 200

The figure of ``benchmarks/bench_rules.py`` (games per CPU second) moves with the load of
a shared machine; the number of instructions a game takes does not.  For each pad this
runs ``random_game`` (uniform chooser, seeds 0 to ``--games`` - 1) under ``valgrind
--tool=cachegrind`` twice, once with no game, and prints (instructions of the run with
the games - instructions of the run without) / games: the interpreter's start, the
imports and the pad's lookup tables (built by one warm-up game in both runs) cancel out.
``PYTHONHASHSEED`` is fixed so that the two runs hash alike.  Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence

#: One warm-up game, then ``games`` seeded games; argv: layout, games.
PROGRAM = """
import sys
from qwixx_math.record import random_game
from qwixx_math.ruleset import Ruleset
layout, games, rs = sys.argv[1], int(sys.argv[2]), Ruleset(4)
random_game(ruleset=rs, seed=10**6, layout=layout)
for seed in range(games):
    random_game(ruleset=rs, seed=seed, layout=layout)
"""

SLOWEST = ("big-points", "double-a", "x-change", "official")


def instructions(layout: str, games: int) -> int:
    """Instructions cachegrind counts for PROGRAM with ``games`` games."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", PROGRAM, layout, str(games)],
        capture_output=True, text=True, env=env, check=True)
    match = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if match is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(match.group(1).replace(",", ""))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", action="append",
                        help=f"a pad (repeat for more; default: {', '.join(SLOWEST)})")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed", file=sys.stderr)
        return 2
    print(f"instructions per random 4-player game (uniform chooser, {args.games} games, "
          "valgrind cachegrind)")
    for layout in args.layout or SLOWEST:
        per_game = (instructions(layout, args.games) - instructions(layout, 0)) / args.games
        print(f"  {layout:<20} {per_game / 1e6:6.2f}M", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
