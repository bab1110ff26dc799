"""Benchmark of the optimal solitaire solver: solve, load, profile, numpy prototype.

    python benchmarks/bench_solver.py [--a2] [--skip-compile] [--json] [--cache DIR]

1. JIT compile time of the kernel, cold (empty numba cache, fresh process) and
   warm (cache load), measured on a tiny variant.
2. A full official solve from an empty table cache, in a fresh process: wall
   time, CPU time, peak RSS, and where the time went (setup, kernel per table,
   deriving the tables of symmetric closed sets, writing the file).
3. Loading the cached table in a fresh process (best of 3), and the share of
   it spent verifying the checksum.
4. A profile of the kernel on sample levels of the all-open table, on one
   thread: gather (look-ups) versus the expected-maximum step, in microseconds
   per configuration.
5. A numpy-vectorised prototype of one level batch (the same computation, the
   same values), timed and extrapolated to the whole solve: the measurement that
   justified writing the kernel with numba.

The machine is shared: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_math.ruleset import Ruleset  # noqa: E402
from qwixx_math.solver import Variant, kernel, solve  # noqa: E402
from qwixx_math.solver.engine import frozen_codes, without_frozen  # noqa: E402
from qwixx_math.solver.layout import Layout  # noqa: E402
from qwixx_math.solver.symmetry import stabiliser  # noqa: E402

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_child(code: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run python code in a fresh process; it prints one JSON object last."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full_env,
                         capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


# --------------------------------------------------------------------------- 1. compile

COMPILE_CHILD = """
import json, time
t0 = time.perf_counter()
from qwixx_math.solver import Variant, solve
t1 = time.perf_counter()
solve(variant=Variant.from_letters("aadd", 6, 2, 2, 2), cache=False)
t2 = time.perf_counter()
solve(variant=Variant.from_letters("aadd", 6, 2, 2, 2), cache=False)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t2 - t1, "second": t3 - t2}))
"""


def bench_compile() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as numba_cache:
        cold = run_child(COMPILE_CHILD, {"NUMBA_CACHE_DIR": numba_cache})
        warm = run_child(COMPILE_CHILD, {"NUMBA_CACHE_DIR": numba_cache})
    return {
        "import_seconds": warm["import"],
        "compile_cold_seconds": cold["first"] - cold["second"],
        "jit_cache_load_seconds": warm["first"] - warm["second"],
    }


# --------------------------------------------------------------------------- 2. full solve

SOLVE_CHILD = """
import json, resource, time
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve
solve(variant=Variant.from_letters("aadd", 6, 2, 2, 2), cache=False)  # JIT warm-up
cpu0 = time.process_time()
t0 = time.perf_counter()
ruleset = Ruleset(players=1, action2_after_game_end={a2})
table = solve(ruleset, cache={cache!r}, progress=False)
wall = time.perf_counter() - t0
cpu = time.process_time() - cpu0
s = table.stats
print(json.dumps({{
    "wall": wall, "cpu": cpu, "start_value": table.start_value, "states": table.states,
    "canonical": s.canonical_configurations, "setup": s.seconds_setup,
    "kernel": s.seconds_kernel, "derive": s.seconds_derive,
    "kernel_by_table": {{str(k): v for k, v in s.kernel_by_table.items()}},
    "write": wall - s.seconds_total,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}}))
"""

LOAD_CHILD = """
import json, time
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import solve
from qwixx_math.solver.cache import _crc32
t0 = time.perf_counter()
table = solve(Ruleset(players=1, action2_after_game_end={a2}), cache={cache!r})
t1 = time.perf_counter()
assert table.loaded
t2 = time.perf_counter()
_crc32(table.data)
t3 = time.perf_counter()
print(json.dumps({{"load": t1 - t0, "crc_again": t3 - t2, "start_value": table.start_value}}))
"""


def bench_full(cache: str, a2: bool) -> dict[str, Any]:
    return run_child(SOLVE_CHILD.format(a2=a2, cache=cache))


def bench_load(cache: str, a2: bool) -> dict[str, Any]:
    runs = [run_child(LOAD_CHILD.format(a2=a2, cache=cache)) for _ in range(3)]
    return min(runs, key=lambda r: r["load"])


# --------------------------------------------------------------------------- 4. profile


def sample_levels(layout: Layout) -> tuple[IntArray, IntArray, IntArray]:
    open_rows = np.arange(4, dtype=np.int64)
    perms = np.array(stabiliser(layout.variant, 0), dtype=np.int64)
    items, level_start = kernel.canonical_items(layout.strides[0], open_rows, perms,
                                                layout.code_marks)
    _, lower, _ = frozen_codes(layout.variant, layout)  # as the solver: no lower frozen rows
    items, level_start = without_frozen(items, level_start, layout.variant.open_codes, 4, lower)
    return items, level_start, perms


def run_kernel(layout: Layout, data: FloatArray, batch: IntArray, perms: IntArray,
               phases: int, parallel: bool = False) -> None:
    v = layout.variant
    del parallel  # the kernel runs one slice per call; the engine runs slices on threads
    top, lower, gain = frozen_codes(v, layout)
    kernel.solve_batch(data, layout.offsets, layout.strides, layout.code_last, layout.code_marks,
        layout.row_next_code, layout.number_at, layout.die_at, layout.points, v.open_codes,
        v.row_length, v.lock_threshold, v.penalty_boxes, 1, layout.level_size, False, 0,
        np.arange(4, dtype=np.int64), perms, batch, kernel.count_products(4), top,
        np.array(lower, dtype=np.int64), np.array(gain), v.penalty_boxes, layout.step_shift,
        layout.step_points, layout.step_lo, layout.step_hi, layout.closed_steps, 0, len(batch),
        phases)


def bench_profile(data: FloatArray) -> dict[str, float]:
    """Microseconds per all-open configuration, one thread, on every 4th level."""
    layout = Layout.of(Variant())
    items, level_start, perms = sample_levels(layout)
    scratch = data.copy()  # the gather-only runs write meaningless values
    batches = [items[level_start[lv]:level_start[lv + 1]] for lv in range(2, 38, 4)]
    n = sum(len(b) for b in batches)
    run_kernel(layout, scratch, batches[0][:50], perms, 3)  # compile/load
    best: dict[int, float] = {}
    for _ in range(3):
        for phases in (3, 1):
            np.copyto(scratch, data)
            t0 = time.process_time()
            for b in batches:
                run_kernel(layout, scratch, b, perms, phases)
            per_item = (time.process_time() - t0) / n * 1e6
            best[phases] = min(best.get(phases, per_item), per_item)
    return {"items": n, "full_us": best[3], "gather_us": best[1],
            "expected_max_us": best[3] - best[1]}


# --------------------------------------------------------------------------- 5. numpy prototype


def numpy_level(layout: Layout, data: FloatArray, configs: IntArray) -> FloatArray:
    """One batch of all-open official configurations with numpy only: values[B, P].

    The same Bellman update as the kernel (same gather, same expected maximum over
    the sorted faces), vectorised over the batch; loops remain over rows,
    positions, white pairs and penalty counts.  R15 plays no part in this table.
    """
    v = layout.variant
    k, n_sums, length, pen = 4, 11, v.row_length, v.penalty_boxes
    last_q = length - 1
    neg = -np.inf
    n_codes = v.open_codes
    batch = len(configs)
    codes = np.stack([(configs // n_codes ** (k - 1 - t)) % n_codes for t in range(k)], 1)
    marks = layout.code_marks[codes]
    pts = layout.points
    score = pts[marks].sum(1)
    st = layout.strides[0]
    base = (codes * st).sum(1)
    ps = np.arange(pen)

    def read(idx: IntArray, ok: npt.NDArray[np.bool_]) -> FloatArray:
        safe = np.where(ok, idx, 0)
        return np.where(ok[:, None], data[safe[:, None] + ps], neg)

    def closed_read(row: int, new_codes: IntArray, ok: npt.NDArray[np.bool_]) -> FloatArray:
        """Value after ``row`` closes with the other rows at new_codes (table {row})."""
        m1 = 1 << row
        idx = layout.offsets[m1] + (new_codes * layout.strides[m1]).sum(1)
        return read(idx, ok)

    one = np.full((batch, k, n_sums, pen), neg)
    for j in range(k):
        for q in range(last_q):
            nc = layout.next_code[codes[:, j], q]
            one[:, j, layout.number_at[j, q] - 2] = read(base + st[j] * (nc - codes[:, j]),
                                                         nc >= 0)
        ok = marks[:, j] >= v.lock_threshold
        one[:, j, layout.number_at[j, last_q] - 2] = (
            pts[marks[:, j] + 2][:, None] + closed_read(j, codes, ok))
    m2 = np.repeat(one[:, None], n_sums, axis=1)

    def merge(s: int, j: int, n: int, vals: FloatArray) -> None:
        np.maximum(m2[:, s, j, n], vals, out=m2[:, s, j, n])

    for i in range(k):
        for a in range(last_q):
            c1 = layout.next_code[codes[:, i], a]
            ok1 = c1 >= 0
            c1s = np.where(ok1, c1, 0)
            s = layout.number_at[i, a] - 2
            for j in range(k):
                for q in range(length):
                    n = layout.number_at[j, q] - 2
                    if j == i and q <= a:
                        continue
                    if q < last_q:
                        cj = c1s if j == i else codes[:, j]
                        c2 = layout.next_code[cj, q]
                        idx = base + st[i] * (c1s - codes[:, i])
                        idx = idx + st[j] * (c2 - cj)
                        merge(s, j, n, read(idx, ok1 & (c2 >= 0)))
                    else:  # action 2 closes row j
                        after = codes.copy()
                        after[:, i] = c1s
                        mj = marks[:, j] + (1 if j == i else 0)
                        ok = ok1 & (mj >= v.lock_threshold)
                        merge(s, j, n, pts[mj + 2][:, None] + closed_read(j, after, ok))
        # action 1 closes row i (the game goes on: one closed row), action 2 elsewhere
        ok_i = marks[:, i] >= v.lock_threshold
        s = layout.number_at[i, last_q] - 2
        gain_i = pts[marks[:, i] + 2][:, None]
        for j in range(k):
            if j == i:
                continue
            for q in range(length):
                n = layout.number_at[j, q] - 2
                if q < last_q:
                    c2 = layout.next_code[codes[:, j], q]
                    after = codes.copy()
                    after[:, j] = np.where(c2 >= 0, c2, 0)
                    merge(s, j, n, gain_i + closed_read(i, after, ok_i & (c2 >= 0)))
                else:  # second close: the game is over
                    ok = ok_i & (marks[:, j] >= v.lock_threshold)
                    end = (score - pts[marks[:, i]] - pts[marks[:, j]]
                           + pts[marks[:, i] + 2] + pts[marks[:, j] + 2])
                    merge(s, j, n, np.where(ok[:, None], end[:, None] - 5.0 * ps, neg))

    values = np.empty((batch, pen))
    onehot = np.repeat(np.eye(k, dtype=np.int64), 6, axis=0)  # face -> die
    for p in range(pen - 1, -1, -1):
        penalty = values[:, p + 1] if p + 1 < pen else score - 5.0 * pen
        total = np.zeros(batch)
        for w1 in range(1, 7):
            for w2 in range(w1, 7):
                s = w1 + w2 - 2
                b = np.maximum(penalty, one[:, :, s, p].max(1))
                y = np.maximum(m2[:, s, :, w1 - 1:w1 + 5, p], m2[:, s, :, w2 - 1:w2 + 5, p])
                z = np.maximum(y, b[:, None, None]).reshape(batch, 6 * k)
                order = np.argsort(z, axis=1, kind="stable")
                zs = np.take_along_axis(z, order, 1)
                counts = np.cumsum(onehot[order], axis=1)  # faces <= each sorted value
                g = counts.prod(axis=2) / 6.0**k
                e = zs[:, 0] * g[:, 0] + (zs[:, 1:] * np.diff(g, axis=1)).sum(1)
                total += e if w1 == w2 else 2 * e
        values[:, p] = total / 36
    return values


def bench_prototype(data: FloatArray, canonical_total: int) -> dict[str, float]:
    layout = Layout.of(Variant())
    items, level_start, perms = sample_levels(layout)
    rng = np.random.default_rng(0)
    configs = np.sort(rng.choice(items[level_start[10]:level_start[30]], 4000, replace=False))
    t0 = time.process_time()
    got = numpy_level(layout, data, configs)
    seconds = time.process_time() - t0
    scratch = data.copy()
    run_kernel(layout, scratch, configs, perms, 3)
    strides = layout.strides[0]
    codes = np.stack([(configs // 56 ** (3 - t)) % 56 for t in range(4)], 1)
    idx = (codes * strides).sum(1)
    kernel_values = scratch[idx[:, None] + np.arange(4)]
    per_item = seconds / len(configs)
    return {
        "items": len(configs),
        "us_per_item": per_item * 1e6,
        "max_abs_diff_to_kernel": float(np.abs(got - kernel_values).max()),
        "extrapolated_full_solve_seconds": per_item * canonical_total,
    }


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2", action="store_true", help="action2_after_game_end=True")
    parser.add_argument("--skip-compile", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cache", help="table cache directory (default: a fresh temporary one)")
    args = parser.parse_args()
    results: dict[str, Any] = {"load_average_before": load_average()}
    if not args.skip_compile:
        results["jit"] = bench_compile()
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or tmp
        results["full_solve"] = bench_full(cache, args.a2)
        results["load"] = bench_load(cache, args.a2)
        table = solve(Ruleset(players=1, action2_after_game_end=args.a2), cache=cache)
        data = np.array(table.data)  # in memory: the profile must not read the page cache
        del table
    results["profile_one_thread"] = bench_profile(data)
    results["numpy_prototype"] = bench_prototype(
        data, results["full_solve"]["canonical"])
    results["load_average_after"] = load_average()
    results["peak_rss_this_process_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    full, load = results["full_solve"], results["load"]
    prof, proto = results["profile_one_thread"], results["numpy_prototype"]
    print(f"load average before: {results['load_average_before']}")
    if "jit" in results:
        jit = results["jit"]
        print(f"import qwixx_math.solver: {jit['import_seconds']:.2f} s; kernel compile (cold): "
              f"{jit['compile_cold_seconds']:.1f} s; JIT cache load: "
              f"{jit['jit_cache_load_seconds']:.2f} s")
    print(f"full solve (R15 option {args.a2}): {full['wall']:.1f} s wall, {full['cpu']:.1f} s CPU, "
          f"peak RSS {full['peak_rss_mb']:.0f} MB")
    print(f"  start value {full['start_value']:.6f}; {full['states']} states, "
          f"{full['canonical']} canonical configurations computed")
    tables = ", ".join(f"table {k}: {v:.1f} s" for k, v in full["kernel_by_table"].items())
    print(f"  setup {full['setup']:.2f} s, kernel {full['kernel']:.1f} s ({tables}), "
          f"derive {full['derive']:.2f} s, write {full['write']:.2f} s")
    print(f"load from cache: {load['load']:.3f} s (checksum alone {load['crc_again']:.3f} s)")
    print(f"kernel profile, one thread, {prof['items']} configurations: "
          f"{prof['full_us']:.1f} us each = gather {prof['gather_us']:.1f} + "
          f"expected maximum {prof['expected_max_us']:.1f}")
    print(f"numpy prototype: {proto['us_per_item']:.0f} us per configuration "
          f"(kernel values matched to {proto['max_abs_diff_to_kernel']:.1e}); "
          f"extrapolated full solve {proto['extrapolated_full_solve_seconds'] / 60:.0f} min "
          f"on one core")
    print(f"load average after: {results['load_average_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
