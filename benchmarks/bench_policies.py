"""Benchmark and tables of the policies: exact values, evaluation and forward times, simulator.

    python benchmarks/bench_policies.py [--a2 0|1|both] [--skip-eval] [--skip-forward]
                                        [--skip-sim] [--games N] [--json] [--layout NAME]
                                        [--no-table]

``--policies a,b`` evaluates and simulates only those (default: ``DEFAULT_SPECS``);
``--progress`` prints the evaluation's progress.  ``--layout`` (default ``official``):
a published layout the policies play, e.g.
``double-b`` or ``double-b-alt`` (double cells, DB1: its solver table is solved or
loaded first, about two minutes and 1.5 GB).  On a sheet with double cells the
heuristics are evaluated configuration by configuration (not by groups of last
positions), and the optimal policy's table is compared on the states the solver
stores a value for (codes no row reaches stay NaN in both).  ``longo`` (8-sided dice
and two lock numbers, LG1, LG2; no lucky numbers) has a solver table of minutes and
3 GB: ``--no-table`` skips the solve and plays only the heuristics (no optimal policy,
no loss column, no forward propagation), e.g.
``--layout longo --no-table --a2 0 --skip-eval --policies seed-tips,fewest-skips,threshold-2``
for the simulated figures of docs/variants.md's Longo section.  ``--eval-sample N``
(with ``--no-table``) times the exact evaluation of N configurations of the all-open
table (every row open: the bulk of the states) instead of evaluating every state, and
extrapolates the time of a whole evaluation (an estimate: tables with closed rows have
fewer dice, so cheaper configurations).

For each R15 option (default: both):

1. Exact policy evaluation (backward DP over all 42,147,840 states, no symmetry) of
   every policy of ``DEFAULT_SPECS``: V_pi(start), the loss against optimal, wall
   seconds.  For the optimal policy the whole V_pi table is compared with the
   solver's V* (largest difference over every state).  This prints the markdown
   table of docs/policies.md and stores the values in the policy cache (so
   ``qwixx-math policies`` is instant afterwards).
2. Forward propagation of the optimal policy's state probabilities: wall seconds,
   reachable configurations, the distribution's mean (vs V(start)), sum, sd and
   percentiles (stored in the cache for ``qwixx-math distribution``).
3. The compiled simulator: games per second for each policy over ``--games``
   games (default 100,000; the first, compiling run is timed separately), mean
   with its 95% interval next to the exact value.

Peak RSS of the process and the load average (the machine is shared) are
printed with the figures.  The first run compiles the numba engine (about a
minute, cached on disk afterwards).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_math.layouts import SheetLayout, layout_named  # noqa: E402
from qwixx_math.policies import DEFAULT_SPECS, PolicySpec, engine  # noqa: E402
from qwixx_math.policies.distribution import forward_distribution  # noqa: E402
from qwixx_math.policies.evaluate import evaluate_tables  # noqa: E402
from qwixx_math.policies.geometry import geometry, readonly_table  # noqa: E402
from qwixx_math.policies.simulate import simulate_tables  # noqa: E402
from qwixx_math.policies.store import result_path, save_result  # noqa: E402
from qwixx_math.ruleset import Ruleset  # noqa: E402
from qwixx_math.solver import Variant, cache_dir, solve  # noqa: E402


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _progress(name: str) -> Callable[[int, int], None]:
    """A progress callback printing every tenth of the work to stderr."""
    shown = [-1]

    def report(done: int, total: int) -> None:
        tenth = 10 * done // max(total, 1)
        if tenth != shown[0]:
            shown[0] = tenth
            print(f"  {name}: {done}/{total} ({load_average()})", file=sys.stderr, flush=True)
    return report


def simulate_specs(variant: Variant, a2: bool, specs: tuple[PolicySpec, ...],
                   vstar: npt.NDArray[np.float64] | None, values: dict[str, float],
                   games: int) -> list[dict[str, Any]]:
    """The compiled simulator: ``games`` games (seed 1) of each policy, mean with its 95%
    interval (beside the exact value when ``values`` has it)."""
    sims = []
    for spec in specs:
        t0 = time.perf_counter()
        simulate_tables(spec, variant, a2, 100, 1, vstar)
        first = time.perf_counter() - t0
        res = simulate_tables(spec, variant, a2, games, 1, vstar)
        low, high = res.confidence_interval()
        exact = values.get(spec.name)
        inside = "" if exact is None else f"  exact {exact:.4f} inside: {low <= exact <= high}"
        print(f"simulate {spec.name:<14} {res.games} games {res.seconds:6.2f} s "
              f"({res.games_per_second:,.0f} games/s; first call {first:.1f} s) mean "
              f"{res.mean:.4f} [{low:.4f}, {high:.4f}] sd {res.sd:.3f}{inside} "
              f"(load {load_average()})", flush=True)
        sims.append({"policy": spec.name, "games": res.games, "seconds": res.seconds,
                     "mean": res.mean, "ci95": [low, high], "sd": res.sd})
    return sims


def run(a2: bool, args: argparse.Namespace) -> dict[str, Any]:
    layout = layout_named(args.layout)
    variant = Variant(layout)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    specs = (DEFAULT_SPECS if args.policies is None
             else tuple(PolicySpec.parse(p) for p in args.policies.split(",")))
    if args.no_table:
        return run_heuristics(layout, variant, a2, specs, args)
    table = solve(ruleset, variant)
    vstar = np.asarray(table.data)
    out: dict[str, Any] = {"layout": layout.name, "action2_after_game_end": a2,
                           "v_start": table.start_value}
    print(f"\n=== {layout.name}, R15 option action2_after_game_end={a2}: V*(start) = "
          f"{table.start_value:.6f} (load {load_average()})", flush=True)
    values: dict[str, float] = {}
    if not args.skip_eval:
        print("policy          expected     loss  eval s   (max |V_pi - V*| for optimal)")
        rows = []
        for spec in specs:
            ev = evaluate_tables(spec, variant, a2, vstar,
                                 _progress(spec.name) if args.progress else None)
            values[spec.name] = ev.start_value
            extra = ""
            if spec.needs_table:
                extra = f"   max diff {float(np.nanmax(np.abs(ev.values - vstar))):.2e}"
            print(f"{spec.name:<14} {ev.start_value:9.4f} {table.start_value - ev.start_value:8.4f}"
                  f" {ev.seconds:7.1f}{extra}   (load {load_average()})", flush=True)
            rows.append({"policy": spec.name, "expected_score": ev.start_value,
                         "loss": table.start_value - ev.start_value, "seconds": ev.seconds})
            path = result_path(cache_dir(), variant, a2, spec.name, "value")
            save_result(path, variant, a2, spec.name, "value",
                        table.start_value if spec.needs_table else None,
                        {"expected_score": ev.start_value, "seconds": ev.seconds})
            del ev
        out["evaluation"] = rows
        print("\n| policy | expected final score | loss vs optimal |\n| --- | ---: | ---: |")
        for row in rows:
            print(f"| {row['policy']} | {row['expected_score']:.4f} | {row['loss']:.4f} |")
    if not args.skip_forward:
        spec = PolicySpec.optimal()
        dist, reached = forward_distribution(spec, variant, a2, vstar)
        print(f"\nforward propagation (optimal): {dist.seconds:.1f} s, {reached} reachable "
              f"configurations; mean {dist.mean:.9f} (V {table.start_value:.9f}, diff "
              f"{dist.mean - table.start_value:.1e}), sum - 1 = {dist.total - 1:.1e}, "
              f"sd {dist.sd:.4f}, percentiles {dist.percentiles()}, "
              f"P(score <= 0) = {dist.cdf(0):.3e}, mode {dist.mode} (load {load_average()})",
              flush=True)
        path = result_path(cache_dir(), variant, a2, spec.name, "distribution")
        save_result(path, variant, a2, spec.name, "distribution", table.start_value,
                    {"score_min": dist.score_min, "probabilities": list(dist.probabilities),
                     "seconds": dist.seconds})
        out["distribution"] = {**dist.summary(), "seconds": dist.seconds,
                               "reachable_configurations": reached}
    if not args.skip_sim:
        out["simulation"] = simulate_specs(variant, a2, specs, vstar, values, args.games)
    print(f"peak RSS {peak_rss_mb():.0f} MB", flush=True)
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def time_sample(spec: PolicySpec, variant: Variant, a2: bool, n: int) -> dict[str, Any]:
    """Time the engine's exact evaluation (:func:`engine.evaluate_batch`, all cores) of ``n``
    random configurations of the all-open table and extrapolate to every configuration.
    The values they read are not computed (zeros): only the time counts."""
    geo = geometry(variant)
    lay = geo.layout
    items, _ = geo.items(0)
    total = sum(len(geo.items(mask)[0]) for mask in geo.masks_backward)
    rng = np.random.default_rng(1)
    batch = np.sort(rng.choice(items, size=min(n, len(items)), replace=False))
    values = np.full(lay.size, 0.0)  # every page touched before the timing (no page faults)
    table = readonly_table(None, lay.size, False)
    open_rows = geo.open_rows(0)
    call = (geo.engine_args(a2), int(spec.kind), float(spec.param), table, values, 0, open_rows)
    engine.evaluate_batch(*call, batch[:16], 8, False)  # compile outside the timing
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    engine.evaluate_batch(*call, batch, 8, True)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    estimate = wall / len(batch) * total
    print(f"sample {spec.name:<14} {len(batch):,} all-open configurations: {wall:.1f} s wall, "
          f"{cpu:.1f} s CPU ({len(batch) / wall:,.0f} configurations/s); all {total:,} "
          f"configurations ({len(items):,} all-open): about {estimate / 60:.0f} min wall at "
          f"this load (load {load_average()})", flush=True)
    return {"policy": spec.name, "sample": len(batch), "wall": wall, "cpu": cpu,
            "configurations": total, "all_open": len(items), "estimated_wall": estimate}


def run_heuristics(layout: SheetLayout, variant: Variant, a2: bool,
                   specs: tuple[PolicySpec, ...], args: argparse.Namespace) -> dict[str, Any]:
    """``--no-table``: the heuristics' exact values (unless ``--skip-eval``) and simulated
    means, without the solver's table."""
    if any(spec.needs_table for spec in specs):
        raise SystemExit("--no-table plays the heuristics only: leave out the optimal policy")
    out: dict[str, Any] = {"layout": layout.name, "action2_after_game_end": a2}
    print(f"\n=== {layout.name}, R15 option action2_after_game_end={a2}, heuristics only "
          f"(no solver table; load {load_average()})", flush=True)
    values: dict[str, float] = {}
    if args.eval_sample:
        out["evaluation_sample"] = [time_sample(spec, variant, a2, args.eval_sample)
                                    for spec in specs]
    elif not args.skip_eval:
        rows = []
        for spec in specs:
            ev = evaluate_tables(spec, variant, a2, None,
                                 _progress(spec.name) if args.progress else None)
            values[spec.name] = ev.start_value
            print(f"exact {spec.name:<14} {ev.start_value:9.4f}  {ev.seconds:7.1f} s over "
                  f"{ev.values.size:,} states (load {load_average()}; peak RSS "
                  f"{peak_rss_mb():.0f} MB)", flush=True)
            rows.append({"policy": spec.name, "expected_score": ev.start_value,
                         "seconds": ev.seconds})
            save_result(result_path(cache_dir(), variant, a2, spec.name, "value"), variant, a2,
                        spec.name, "value", None,
                        {"expected_score": ev.start_value, "seconds": ev.seconds})
            del ev
        out["evaluation"] = rows
    if not args.skip_sim:
        out["simulation"] = simulate_specs(variant, a2, specs, None, values, args.games)
    print(f"peak RSS {peak_rss_mb():.0f} MB", flush=True)
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2", choices=["0", "1", "both"], default="both")
    parser.add_argument("--skip-eval", action="store_true")
    parser.add_argument("--skip-forward", action="store_true")
    parser.add_argument("--skip-sim", action="store_true")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--policies", default=None,
                        help="comma-separated policy names (default: DEFAULT_SPECS)")
    parser.add_argument("--progress", action="store_true",
                        help="print the evaluation's progress to stderr")
    parser.add_argument("--layout", default="official",
                        help="a published layout: official, mixx-a, mixx-b, double-b, "
                             "longo, ...")
    parser.add_argument("--no-table", action="store_true",
                        help="heuristics only, without solving the layout's table")
    parser.add_argument("--eval-sample", type=int, default=0, metavar="N",
                        help="with --no-table: time N all-open configurations of the exact "
                             "evaluation and extrapolate, instead of evaluating every state")
    args = parser.parse_args()
    options = [False, True] if args.a2 == "both" else [args.a2 == "1"]
    results = [run(a2, args) for a2 in options]
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
