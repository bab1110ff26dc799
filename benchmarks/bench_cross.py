"""Benchmark and figures: what playing the strategy of the wrong table costs (issue 11).

    python benchmarks/bench_cross.py [--a2 0|1|both] [--players 2,3,4,5]
                                     [--only at-tables|solo] [--json FILE]

Exact policy evaluation in the table model (docs/table.md) of the official game,
for each R15 option (default: the official one, then the other):

* the solitaire-optimal policy (M = 1) played at an N-table, N = 2..5: its value
  for every seat, beside the N-table's optimal values (the solver's), and the loss;
  two tables per sweep (2 and 5, then 3 and 4: the own roll's plan choice is
  computed once for both);
* the N-table's optimal policy (M = N) played solo (N = 1), beside the solitaire
  optimum; the same sweep evaluates it at its own table too, and prints the
  largest difference from the solver's table over every state and level (the
  identity check on the official game: the two share no arithmetic).

Every sweep prints its wall seconds, the peak RSS of the process so far and the
load average (the machine is shared).  The N-tables come from the cache
(``solve(players=N)``; built when missing, a minute or two each).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_policies import load_average, peak_rss_mb  # noqa: E402

from qwixx_math.policies.evaluate import evaluate_table_model  # noqa: E402
from qwixx_math.ruleset import Ruleset  # noqa: E402
from qwixx_math.solver import Variant, solve  # noqa: E402


def fmt(values: tuple[float, ...]) -> str:
    return ", ".join(f"{v:.6f}" for v in values)


def run(a2: bool, players: list[int], only: str | None = None) -> dict[str, Any]:
    variant = Variant()
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    out: dict[str, Any] = {"action2_after_game_end": a2, "solitaire_policy_at": {},
                           "table_policy_solo": {}}
    print(f"\n== R15 option: action2_after_game_end={a2} ==", flush=True)
    solo = solve(ruleset, variant)
    optimum = {1: solo.seat_values}
    # the solitaire policy at N-tables, two tables per sweep (memory: sum(N) * 337 MB)
    groups = [g for g in ([2, 5], [3, 4]) if any(n in players for n in g)]
    if only == "solo":
        groups = []
    for group in groups:
        tables = tuple(n for n in group if n in players)
        start = time.perf_counter()
        ev = evaluate_table_model(variant, a2, np.asarray(solo.data), 1, tables)
        seconds = time.perf_counter() - start
        print(f"solitaire policy at tables {tables}: {seconds:.1f} s, peak RSS "
              f"{peak_rss_mb():.0f} MB, load {load_average()}", flush=True)
        for n in tables:
            table = solve(ruleset, variant, players=n)
            optimum[n] = table.seat_values
            got = ev.seat_values(n)
            loss = tuple(o - g for o, g in zip(optimum[n], got, strict=True))
            print(f"  N={n}: solitaire policy {fmt(got)}", flush=True)
            print(f"       {n}-table optimum  {fmt(optimum[n])}  (loss {fmt(loss)})", flush=True)
            out["solitaire_policy_at"][n] = {"seat_values": list(got),
                                             "optimal_seat_values": list(optimum[n]),
                                             "seconds": seconds}
            del table
        del ev
    # the N-table policy solo, and at its own table (the identity check)
    for n in ([] if only == "at-tables" else players):
        table = solve(ruleset, variant, players=n)
        start = time.perf_counter()
        ev = evaluate_table_model(variant, a2, np.asarray(table.data), n, (1, n))
        seconds = time.perf_counter() - start
        worst = float(np.max(np.abs(ev.values[n] - np.asarray(table.data))))
        got = ev.seat_values(1)[0]
        print(f"{n}-table policy solo: {got:.6f} (solitaire optimum {solo.start_value:.6f}, "
              f"loss {solo.start_value - got:.6f}); at its own table max |V_pi - V*| = "
              f"{worst:.2e} over {ev.values[n].size} values; {seconds:.1f} s, peak RSS "
              f"{peak_rss_mb():.0f} MB, load {load_average()}", flush=True)
        out["table_policy_solo"][n] = {"expected_score": got,
                                       "solitaire_optimum": solo.start_value,
                                       "own_table_max_abs_diff": worst, "seconds": seconds}
        del ev, table
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2", choices=["0", "1", "both"], default="both")
    parser.add_argument("--players", default="2,3,4,5",
                        help="the N-tables, comma-separated (2..5)")
    parser.add_argument("--only", choices=["at-tables", "solo"],
                        help="only the solitaire policy at the tables, or only the tables' "
                             "policies solo")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    players = sorted({int(x) for x in args.players.split(",")})
    if not players or not all(2 <= n <= 5 for n in players):
        parser.error("--players: numbers 2..5")
    options = [False, True] if args.a2 == "both" else [args.a2 == "1"]
    results = []
    for a2 in options:
        results.append(run(a2, players, args.only))
        if args.json is not None:
            args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
