"""Benchmark of the solitaire solver on every published sheet layout (issue 13).

    python benchmarks/bench_solver_layouts.py [--layout official|mixx-a|mixx-b|double-b|...]
        [--a2] [--cold]

Solves each layout from an empty table cache in a fresh process (the JIT
already warm; with ``--cold`` the numba cache is empty too, so the figures include
importing the solver and compiling its kernels, as a first run on a new machine
does) and prints wall time, CPU time, peak RSS, the number of
canonical configurations solved (the symmetry group's effect), those written from
a configuration with more marks in its frozen rows instead of solved, and the start
value.  The machine is shared: the load average is printed with the figures.
Without ``--layout`` it runs official, mixx-a and mixx-b; the Qwixx Double B pads
(``double-b``, ``double-b-alt``, minutes each) only when named
(benchmarks/bench_double_b.py prints their values, openings and advice speed too).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import time
cpu0 = time.process_time()
t0 = time.perf_counter()
import json, resource
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve, symmetry_group
if not {cold!r}:
    solve(variant=Variant.from_letters("aadd", 6, 2, 2, 2), cache=False)  # JIT warm-up
    cpu0 = time.process_time()
    t0 = time.perf_counter()
table = solve(Ruleset(players=1, action2_after_game_end={a2}), layout={layout!r},
              cache={cache!r}, progress=False)
wall = time.perf_counter() - t0
print(json.dumps({{
    "layout": {layout!r}, "wall": wall, "cpu": time.process_time() - cpu0,
    "start_value": table.start_value, "group_order": len(symmetry_group(table.variant)),
    "canonical": table.stats.canonical_configurations if table.stats else None,
    "frozen": table.stats.frozen_configurations if table.stats else None,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}}))
"""


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def bench(layout: str, a2: bool, cold: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        if cold:  # an empty numba cache: every kernel is compiled in the measured run
            env["NUMBA_CACHE_DIR"] = str(Path(cache) / "numba")
        code = textwrap.dedent(CHILD.format(a2=a2, layout=layout, cache=cache, cold=cold))
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", action="append",
                        choices=("official", "mixx-a", "mixx-b", "double-b", "double-b-alt"))
    parser.add_argument("--a2", action="store_true", help="action2_after_game_end=True")
    parser.add_argument("--cold", action="store_true",
                        help="empty numba cache: include the import and the kernels' compile")
    args = parser.parse_args()
    for layout in args.layout or ("official", "mixx-a", "mixx-b"):
        before = load_average()
        r = bench(layout, args.a2, args.cold)
        jit = "cold numba cache" if args.cold else "kernels compiled"
        print(f"{layout} (R15 option {args.a2}, {jit}): {r['wall']:.1f} s wall, "
              f"{r['cpu']:.1f} s CPU, "
              f"peak RSS {r['peak_rss_mb']:.0f} MB; group of order {r['group_order']}, "
              f"{r['canonical']} canonical configurations solved ({r['frozen']} more "
              f"written from a frozen row's top code); start value "
              f"{r['start_value']:.6f} (load average before {before}, after "
              f"{load_average()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
