"""Benchmark of the table model (issue 11): solve, memory, load and advice for N = 1..5.

    python benchmarks/bench_table.py                  # N = 1..5, official R15
    python benchmarks/bench_table.py --players 2 3 --a2 both --positions 500
    python benchmarks/bench_table.py --values-only    # the docs' Markdown table, from the cache

For each N (each in a fresh process, one at a time, so that the peak memory is
that N's alone):

1. the solve from an empty cache (a temporary cache directory; the file is then
   moved into the user cache if that lacks it): wall seconds, the process's peak RSS;
2. the load of that table from the user cache (``solve()`` memory-maps it; the
   first run on a machine solves and writes it there first), in a fresh process;
3. advice per query: ``TableAdvisor.advise`` and ``advise_passive`` on seeded
   positions of N-player play with a random roll each (mean, median, p99).

Then the exact values of every seat as a Markdown table (the one in
``docs/table.md``).  Goals from the issue: solve <= 1.5x the solitaire solve,
peak <= 2 GB for N = 5, load <= 0.5 s, advice <= 1 ms.  The machine is shared:
the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_math.rules import GameState, Phase, new_game, random_roll  # noqa: E402
from qwixx_math.ruleset import Ruleset  # noqa: E402
from qwixx_math.solver import cache_dir, solve  # noqa: E402
from qwixx_math.table import TableAdvisor  # noqa: E402


def _child(args: list[str]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True,
                         text=True, cwd=ROOT).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def solve_fresh(n: int, a2: bool) -> dict[str, Any]:
    """In this process: a solve into an empty temporary cache, with the peak RSS."""
    with tempfile.TemporaryDirectory(prefix="qwixx-bench-") as tmp:
        start = time.perf_counter()
        table = solve(Ruleset(players=n, action2_after_game_end=a2), players=n, cache=tmp,
                      progress=False)
        seconds = time.perf_counter() - start
        if table.path is not None:  # keep it: the user cache need not solve it again
            target = cache_dir() / table.path.name
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(table.path, target)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB (Linux)
    return {"solve_seconds": seconds, "peak_mib": peak, "seat_values": list(table.seat_values)}


def load_cached(n: int, a2: bool) -> dict[str, Any]:
    """In this process: the table from the user cache (solved there first if missing)."""
    ruleset = Ruleset(players=n, action2_after_game_end=a2)
    solve(ruleset, players=n, progress=False)
    start = time.perf_counter()
    table = solve(ruleset, players=n, progress=False)
    return {"load_seconds": time.perf_counter() - start, "loaded": table.loaded,
            "seat_values": list(table.seat_values)}


def positions(advisor: TableAdvisor, count: int, seed: int) -> list[GameState]:
    """Rolled states (phase ACTION1) of seeded N-player play by the table advice."""
    rng = random.Random(seed)
    n = advisor.players
    out: list[GameState] = []
    while len(out) < count:
        state = new_game(ruleset=Ruleset(players=n))
        for _ in range(rng.randrange(25 * n)):
            rolled = state.with_roll(random_roll(rng, state.dice_in_play))
            plan = advisor.advise(rolled).best.plan
            choices = [None] * n
            choices[state.active] = plan.action1
            after = rolled.with_action1(choices)
            if after.phase is Phase.ACTION2:
                after = after.with_action2(plan.action2)
            if after.is_over:
                break
            state = after
        out.append(state.with_roll(random_roll(rng, state.dice_in_play)))
    return out


def advice_speed(n: int, a2: bool, count: int, seed: int) -> dict[str, Any]:
    advisor = TableAdvisor.for_ruleset(Ruleset(players=n, action2_after_game_end=a2),
                                       players=n, progress=False)
    cases = positions(advisor, count, seed)
    out: dict[str, Any] = {}
    for name in ("advise", "advise_passive"):
        times = []
        for rolled in cases:
            if name == "advise_passive" and n == 1:
                break
            t0 = time.perf_counter()
            if name == "advise":
                advisor.advise(rolled)
            else:
                advisor.advise_passive(rolled, (rolled.active + 1) % n)
            times.append((time.perf_counter() - t0) * 1e3)
        if times:
            times.sort()
            out[name] = {"mean_ms": statistics.fmean(times), "median_ms": times[len(times) // 2],
                         "p99_ms": times[int(len(times) * 0.99)], "queries": len(times)}
    return out


def values_table(rows: list[tuple[int, bool, list[float]]]) -> str:
    width = max(len(v) for _, _, v in rows)
    head = "| N | R15 option | " + " | ".join(f"seat {s}" for s in range(1, width + 1)) + " |"
    sep = "|---|---|" + "---:|" * width
    lines = [head, sep]
    for n, a2, values in rows:
        cells = [f"{v:.6f}" for v in values] + [""] * (width - len(values))
        lines.append(f"| {n} | {'action 2 after the end' if a2 else 'default'} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--a2", choices=["no", "yes", "both"], default="no",
                        help="R15 option: action 2 after the game ended in action 1")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--values-only", action="store_true",
                        help="only the Markdown table of seat values (loads or solves)")
    parser.add_argument("--child", nargs=3, metavar=("WHAT", "N", "A2"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        what, n, a2 = args.child[0], int(args.child[1]), args.child[2] == "1"
        result = (solve_fresh(n, a2) if what == "solve" else load_cached(n, a2)
                  if what == "load" else advice_speed(n, a2, args.positions, args.seed))
        print(json.dumps(result))
        return
    options = {"no": [False], "yes": [True], "both": [False, True]}[args.a2]
    rows: list[tuple[int, bool, list[float]]] = []
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    for a2 in options:
        for n in args.players:
            flag = "1" if a2 else "0"
            if args.values_only:
                rows.append((n, a2, _child(["--child", "load", str(n), flag])["seat_values"]))
                continue
            fresh = _child(["--child", "solve", str(n), flag])
            load = _child(["--child", "load", str(n), flag])
            speed = _child(["--positions", str(args.positions), "--seed", str(args.seed),
                            "--child", "advice", str(n), flag])
            rows.append((n, a2, fresh["seat_values"]))
            line = (f"N={n} a2end={int(a2)}: solve {fresh['solve_seconds']:.1f} s, peak "
                    f"{fresh['peak_mib']:.0f} MiB, cached load {load['load_seconds']:.3f} s")
            for name, s in speed.items():
                line += (f"; {name} mean {s['mean_ms']:.3f} ms, median {s['median_ms']:.3f} "
                         f"ms, p99 {s['p99_ms']:.3f} ms")
            print(line, f"(load average {os.getloadavg()[0]:.2f})", flush=True)
    print()
    print(values_table(rows))


if __name__ == "__main__":
    main()
