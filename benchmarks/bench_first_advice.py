"""Benchmark: time to first advice on a fresh machine (install excluded).

    python benchmarks/bench_first_advice.py [--json] [--skip-profile] [--from-json FILE]

A newcomer's first ``qwixx-math advise`` compiles the solver (numba), solves the
official game, writes the table and then advises.  Every step runs in a fresh
process with empty temporary caches (``QWIXX_MATH_CACHE`` and ``NUMBA_CACHE_DIR``):

1. **whole**: the README's advise example (read from README.md's first command)
   as ``python -m qwixx_math advise ...``, from nothing to the printed advice.
2. **parts**, each in a fresh process, with fresh caches again:
   - *compile*: the solver's kernels compiled, by a solve of a tiny variant
     (:func:`qwixx_math.solver.warmup.warm_up`);
   - *solve*: the official solve and the table written, the kernels now loaded
     from numba's cache (the time to load them is part of it, and given);
   - *advice*: the same advise command again, everything cached.
3. **compile profile** (unless ``--skip-profile``): which compiled functions cost
   the compile time, from numba's own compile events (exclusive seconds: a
   function's compile minus the compiles of the functions it calls).

The machine may be shared: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def readme_advise_args() -> list[str]:
    """The arguments of ``qwixx-math`` in README.md's first command (the advise example)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```", 2)[1]
    first = block.splitlines()[1]
    command = first.split("&&")[-1]
    words = shlex.split(command)
    assert words[0].endswith("qwixx-math") and words[1] == "advise", first
    return words[1:]


def fresh_env(root: Path) -> dict[str, str]:
    """Empty caches under ``root``; this checkout's qwixx_math."""
    tables, numba_dir = root / "tables", root / "numba"
    tables.mkdir(parents=True, exist_ok=True)
    numba_dir.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "PYTHONPATH": str(ROOT), "QWIXX_MATH_CACHE": str(tables),
            "NUMBA_CACHE_DIR": str(numba_dir)}


def timed(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall seconds of a fresh process, and its stdout."""
    start = time.perf_counter()
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - start, out.stdout


def child(code: str, env: dict[str, str]) -> dict[str, Any]:
    """Run python code in a fresh process; it prints one JSON object last."""
    _, out = timed([sys.executable, "-c", textwrap.dedent(code)], env)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


ADVISE = [sys.executable, "-m", "qwixx_math", *readme_advise_args()]

COMPILE = """
    import json, time
    t0 = time.perf_counter()
    from qwixx_math.solver.warmup import warm_up
    t1 = time.perf_counter()
    w = warm_up()
    print(json.dumps({"import": t1 - t0, "compile": w.seconds, "compiled": w.compiled}))
"""

SOLVE = """
    import json, time
    t0 = time.perf_counter()
    from qwixx_math.solver import solve
    from qwixx_math.solver.warmup import warm_up
    t1 = time.perf_counter()
    w = warm_up()
    t2 = time.perf_counter()
    table = solve(progress=False)
    t3 = time.perf_counter()
    print(json.dumps({"import": t1 - t0, "load_kernels": t2 - t1, "compiled": w.compiled,
                      "solve_and_write": t3 - t2, "solve_kernel": table.stats.seconds_total}))
"""

# Exclusive compile seconds per function, from numba's compile events.
PROFILE = """
    import json, time
    from collections import defaultdict
    from numba.core import event
    from qwixx_math.solver.warmup import warm_up

    inclusive = defaultdict(float)
    exclusive = defaultdict(float)
    stack = []

    class Watch(event.Listener):
        def on_start(self, ev):
            stack.append([ev.data["dispatcher"].py_func, time.perf_counter(), 0.0])
        def on_end(self, ev):
            func, start, children = stack.pop()
            spent = time.perf_counter() - start
            name = func.__module__.replace("qwixx_math.", "") + "." + func.__qualname__
            inclusive[name] += spent
            exclusive[name] += spent - children
            if stack:
                stack[-1][2] += spent

    t0 = time.perf_counter()
    with event.install_listener("numba:compile", Watch()):
        warm_up()
    total = time.perf_counter() - t0
    print(json.dumps({"total": total, "exclusive": exclusive, "inclusive": inclusive}))
"""

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--skip-profile", action="store_true",
                        help="skip the per-function compile profile")
    parser.add_argument("--from-json", metavar="FILE", default=None,
                        help="only print the figures of an earlier --json run in words")
    args = parser.parse_args()
    if args.from_json:
        report(json.loads(Path(args.from_json).read_text(encoding="utf-8")))
        return
    figures: dict[str, Any] = {"load_average_before": load_average(),
                               "cpus": os.cpu_count(), "command": " ".join(ADVISE[1:])}

    with tempfile.TemporaryDirectory() as tmp:
        env = fresh_env(Path(tmp) / "whole")
        figures["whole"], _ = timed(ADVISE, env)

        env = fresh_env(Path(tmp) / "parts")
        figures["compile"] = child(COMPILE, env)
        figures["solve"] = child(SOLVE, env)
        figures["advice"], out = timed(ADVISE, env)
        figures["advice_output_lines"] = len(out.splitlines())

        if not args.skip_profile:
            profile = child(PROFILE, fresh_env(Path(tmp) / "profile"))
            figures["compile_profile"] = profile
    figures["load_average_after"] = load_average()

    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        report(figures)


def report(figures: dict[str, Any]) -> None:
    """The figures in words."""
    c, s = figures["compile"], figures["solve"]
    print(f"machine: {figures['cpus']} CPUs, load average {figures['load_average_before']} "
          f"(before) / {figures['load_average_after']} (after)")
    print(f"command: {figures['command']}")
    print(f"whole, empty caches:          {figures['whole']:6.1f} s")
    print("parts, each a fresh process:")
    print(f"  compile (tiny solve):       {c['compile']:6.1f} s  (+ import {c['import']:.1f} s)")
    print(f"  solve official + write:     {s['solve_and_write']:6.1f} s  (kernel loop "
          f"{s['solve_kernel']:.1f} s; kernels loaded from numba's cache in "
          f"{s['load_kernels']:.1f} s, import {s['import']:.1f} s)")
    print(f"  advice, everything cached:  {figures['advice']:6.1f} s")
    parts = c["compile"] + c["import"] + s["solve_and_write"] + figures["advice"]
    print(f"  sum:                        {parts:6.1f} s")
    if "compile_profile" in figures:
        p = figures["compile_profile"]
        print(f"compile profile (warm-up, {p['total']:.1f} s in all), exclusive seconds:")
        for name, sec in sorted(p["exclusive"].items(), key=lambda kv: -kv[1]):
            print(f"  {sec:6.2f} s  {name}  (with callees {p['inclusive'][name]:.2f} s)")


if __name__ == "__main__":
    main()
