"""Qwixx Bonus, pad B: the proved upper bound, the exact value of a relaxed game
(docs/variants.md, "Bounds for the pads without an exact value"; issue 34).

    PYTHONPATH=. python benchmarks/bench_bonus_b_bound.py [--a2 both|off|on] [--threads T]

The relaxed game (research/bonus_b_bound.py) has Bonus B's moves, forced crosses and end
(default Options ``bb_fewest_candidates = open_with_next_cell``, ``bb_diamond_order =
colour_order``) and the final score 5/4 x (the four rows' points) + 13, which is at least
Bonus B's on every final sheet; its optimal solitaire value is therefore an upper bound on
Bonus B's.  Per R15 option, a solve in a fresh process (after a JIT warm-up on a tiny pad in
that process), on ``T`` threads: the bound, the configurations solved, CPU and wall
seconds, peak RSS, and the load average before and after (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

from research.bonus_b_bound import solve_relaxed
from research.chain_state import tiny_layout


def _warm_up() -> None:
    """Compile the kernels on a tiny Bonus B pad (two rows of five)."""
    symbols = {"circle": [["red", 1], ["yellow", 1]], "diamond": [["red", 2], ["yellow", 4]],
               "square": [["red", 0], ["yellow", 2]], "octagon": [["red", 3], ["yellow", 3]],
               "star": [["red", 4], ["yellow", 0]]}
    solve_relaxed(tiny_layout("warm", "ad", 5, symbols=symbols))


def _one(a2: bool, threads: int) -> None:
    from qwixx_math.layouts import BONUS_B

    _warm_up()
    load = os.getloadavg()
    cpu, wall = time.process_time(), time.perf_counter()
    shown = [0.0]

    def progress(done: int, total: int) -> None:
        if time.perf_counter() - shown[0] >= 60 or done == total:
            shown[0] = time.perf_counter()
            print(f"  {done:,} of {total:,} configurations, {time.process_time() - cpu:.0f} s "
                  f"CPU", file=sys.stderr, flush=True)

    table = solve_relaxed(BONUS_B, a2, threads, progress)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"bonus-b, R15 option {'on' if a2 else 'off'}: upper bound (proved: exact value of "
          f"a relaxed game) {table.start_value():.6f}; {table.configurations:,} "
          f"configurations, {table.data.size:,} values; {cpu:.1f} s CPU, {wall:.1f} s wall, "
          f"{threads} threads; peak RSS {rss:,.0f} MB; load average {load[0]:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2", choices=("both", "off", "on"), default="both")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--one", choices=("off", "on"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        _one(args.one == "on", args.threads)
        return 0
    for a2 in {"both": ("off", "on"), "off": ("off",), "on": ("on",)}[args.a2]:
        subprocess.run([sys.executable, __file__, "--one", a2, "--threads",
                        str(args.threads)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
