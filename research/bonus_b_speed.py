"""Bonus B's exact solve (qwixx_math/solver/bonus_b.py): CPU per level, and old code against
new, bit for bit, each in its own process (the old code from another checkout's
``PYTHONPATH``).

    PYTHONPATH=TREE python research/bonus_b_speed.py partial [--a2] [--configs N]
        [--threads T] [--out FILE]
    PYTHONPATH=TREE python research/bonus_b_speed.py pads --out PREFIX
    python research/bonus_b_speed.py same FILE FILE
    PYTHONPATH=. python research/bonus_b_speed.py time [--base COMMIT] [--sample N]
        [--levels MASK:L,...] [--repeat R] [--a2]
    PYTHONPATH=. python research/bonus_b_speed.py profile [--sample N] [--levels ...]

``partial``: pad B's solve in the solve's own order (:func:`.chain.solve_levels`: the
tables with a closed row first, most marks first), stopped after the first level that
brings the configurations solved to ``--configs`` (default: every one); per table and
level its configurations and CPU seconds (``time.process_time``, every thread), and at the
end the SHA-256 of the whole value array (NaN where not solved yet) and, when written,
the array (``--out``, .npy).  The same command under two ``PYTHONPATH``s compares two codes
on the same levels: equal digests, bit-equal tables.

``pads``: every table of the tiny research pads (research/tests/test_bonus_b_bound.py's
``named_pad``), both R15 options, solved whole, saved as ``PREFIX-NAME-a2X.npy`` with
their CPU seconds.  ``same``: two saved arrays bit for bit equal (NaNs in the same places)?

``time``: per (table, level) ``--sample`` consecutive configurations of the solve's own
order from a seeded random start, solved by ``solve_bonus_b_batch`` of ``--base`` (the old
code: ``qwixx_math/solver/bonus_b.py`` as of that commit, loaded from git, the rest of the
package this tree's) and of this tree, in turn ``--repeat`` times, the fastest CPU time of
each kept; the values they write compared bit for bit.  The table read holds seeded
random numbers, every page touched (a level's CPU time does not need the real values, and
a table of zeros would read one page from cache, hiding the misses of a real solve).  So
its bit-equality holds only between codes that do not rely on equalities of the real
table: the dead square's closed counts, solved once since 3bb0b49, differ on random
numbers (its evidence is ``partial``'s digests and ``pads``).

``profile``: where the time goes, by subtraction: this tree's batch, copied with switches
(its source rewritten under the temporary directory), run on the same samples with the
plan listing only, + ``_successors``, + the per-lane look-ups, + ``turn_values`` (all),
and the listing + ``turn_values``; microseconds of CPU per configuration, the fastest of
``--repeat`` (a table of zeros: the look-ups hit the cache).

The machine may be shared: compare CPU seconds, and mind the printed load average.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import re
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from qwixx_math.layouts import BONUS_B, SheetLayout
from qwixx_math.solver import bonus_b
from qwixx_math.solver.bonus_b_moves import decode, status_bits
from qwixx_math.solver.kernel import count_products, level_items
from research.double_a_speed import load_base


class Stop(Exception):
    """The configurations asked for are solved."""


def partial(sheet: SheetLayout, a2: bool, configs: int, threads: int) -> np.ndarray:
    """Pad ``sheet``'s solve, its first levels up to ``configs`` configurations, with a
    line per level."""
    state: dict[str, float] = {"done": 0, "cpu": time.process_time(),
                               "wall": time.perf_counter()}
    out: dict[str, np.ndarray] = {}
    real_levels = bonus_b.solve_levels

    def levels(layout: Any, skip: Any, kernel: Any, args_of: Any, pool: Any, threads_: int,
               progress: Any = None) -> int:
        def args_spy(mask: int, open_rows: Any, batch: Any, products: Any
                     ) -> tuple[object, ...]:
            state["mask"] = mask
            args = args_of(mask, open_rows, batch, products)
            out["data"] = args[0]  # type: ignore[assignment]
            return args

        def report(done: int, total: int) -> None:
            cpu, wall = time.process_time(), time.perf_counter()
            if done:
                print(f"mask {state.get('mask', '?')}: {done - state['done']:8d} "
                      f"configurations, {cpu - state['cpu']:8.2f} s CPU "
                      f"{wall - state['wall']:7.2f} s wall ({done:,} of {total:,})",
                      flush=True)
            state.update(done=done, cpu=cpu, wall=wall)
            if done >= configs:
                raise Stop
        total: int = real_levels(layout, skip, kernel, args_spy, pool, threads_, report)
        return total

    bonus_b.solve_levels = levels  # type: ignore[assignment]
    t0, w0 = time.process_time(), time.perf_counter()
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    try:
        data, _, _ = bonus_b.solve_bonus_b(sheet, a2, pool, threads)
    except Stop:
        data = out["data"]
    finally:
        bonus_b.solve_levels = real_levels  # type: ignore[assignment]
        if pool is not None:
            pool.shutdown()
    print(f"total {time.process_time() - t0:.1f} s CPU, {time.perf_counter() - w0:.1f} s "
          f"wall", flush=True)
    return data


def slots_of(lay: bonus_b.BonusBLayout, mask: int, open_rows: np.ndarray,
             items: np.ndarray) -> np.ndarray:
    """Every value the configurations ``items`` of table ``mask`` write."""
    variant = lay.layout.variant
    length = variant.row_length
    m = variant.rows
    counts = lay.n_counts if mask else 1
    out = []
    for item in items.tolist():
        codes = np.zeros(m, dtype=np.int64)
        front = np.full(m, length - 1, dtype=np.int64)
        decode(item, open_rows, variant.open_codes, lay.layout.code_last, codes, front)
        base = bonus_b._base(lay.offsets, lay.cstrides, lay.cidx, mask, codes, front,
                             length)
        undecided, _ = status_bits(front, lay.sym_row, lay.sym_pos)
        width = (1 << int(undecided).bit_count()) * counts * variant.penalty_boxes
        out.append(np.arange(base, base + width))
    return np.concatenate(out)


def batch_args(lay: bonus_b.BonusBLayout, data: np.ndarray, mask: int, level: int,
               sample: int, a2: bool, rng: np.random.Generator
               ) -> tuple[tuple[Any, ...], int, int]:
    """``solve_bonus_b_batch``'s arguments for ``sample`` consecutive configurations of
    level ``level`` of table ``mask`` from a random start; their number; the level's."""
    layout = lay.layout
    variant = layout.variant
    ended = np.array([m.bit_count() >= variant.closed_rows_to_end
                      for m in range(1 << variant.rows)], dtype=np.bool_)
    no_perms = np.arange(variant.rows, dtype=np.int64).reshape(1, -1)
    skip = np.zeros((variant.rows, variant.open_codes), dtype=np.bool_)
    open_rows = np.array(layout.open_rows(mask), dtype=np.int64)
    items, starts, _ = level_items(layout.strides[mask], open_rows, no_perms,
                                   layout.code_marks, skip)
    batch = items[starts[level]:starts[level + 1]]
    size = min(sample, len(batch))
    first = int(rng.integers(0, len(batch) - size + 1))
    chosen = np.ascontiguousarray(batch[first:first + size])
    args = (data, lay.offsets, lay.cstrides, lay.cidx, layout.code_last,
            layout.code_marks, layout.row_next_code, layout.number_at, layout.die_at,
            layout.points, variant.open_codes, variant.row_length,
            variant.lock_threshold, variant.penalty_boxes, lay.n_counts, a2, ended,
            mask, open_rows, chosen, count_products(len(open_rows), 8), lay.sym_row,
            lay.sym_pos)
    return args, size, len(batch)


def time_levels(base: str, sample: int, levels: str, repeat: int, a2: bool,
                seed: int) -> bool:
    """Old against new per sampled level: CPU microseconds per configuration, bit-equal?"""
    old = load_base(base, "bonus_b")
    lay = bonus_b.BonusBLayout.of(BONUS_B)
    data = np.random.default_rng(seed).random(lay.size)  # (touched: real cache misses)
    rng = np.random.default_rng(seed)
    ok = True
    sums = {"old": 0.0, "new": 0.0}
    for spec in levels.split(","):
        mask, level = (int(x) for x in spec.split(":"))
        args, size, total = batch_args(lay, data, mask, level, sample, a2, rng)
        open_rows, chosen = args[18], args[19]
        slots = slots_of(lay, mask, open_rows, chosen)
        truth = data[slots].copy()
        best = {"old": np.inf, "new": np.inf}
        got = {}
        for _ in range(repeat):
            for name, module in (("old", old), ("new", bonus_b)):
                module.solve_bonus_b_batch(*args, 0, min(size, 4))  # compiled
                t0 = time.process_time()
                module.solve_bonus_b_batch(*args, 0, size)
                best[name] = min(best[name], time.process_time() - t0)
                got[name] = data[slots].copy()
                data[slots] = truth
        same = got["old"].tobytes() == got["new"].tobytes()
        ok &= same
        sums["old"] += best["old"] * total / size
        sums["new"] += best["new"] * total / size
        print(f"mask {mask} level {level:2d}: {size} of {total} configurations, "
              f"old {best['old'] / size * 1e6:7.1f} us, new {best['new'] / size * 1e6:7.1f} "
              f"us CPU each ({best['old'] / best['new']:.2f}x), bit-equal: {same}",
              flush=True)
    print(f"the sampled levels whole: old {sums['old']:.1f} s, new {sums['new']:.1f} s CPU "
          f"({sums['old'] / sums['new']:.2f}x)")
    return ok


PROFILE_HEAD = """
from qwixx_math.jit import jit
from qwixx_math.solver.bonus_b import *  # noqa: F403
from qwixx_math.solver.bonus_b import (OCTAGON_REWARD, PENALTY, FloatArray, IntArray,
    _base, _done, _keep, _successors)
from qwixx_math.solver.bonus_b_moves import *  # noqa: F403
from qwixx_math.solver.chain import batch_scratch, clear_lanes
from qwixx_math.solver.kernel import turn_values
import numpy as np
import numpy.typing as npt

"""


def profiled_batch() -> Any:
    """This tree's ``solve_bonus_b_batch`` with a first argument ``parts``: bit 0 runs
    ``_successors``, bit 1 the look-ups (needs bit 0), bit 2 ``turn_values``."""
    source = Path(bonus_b.__file__).read_text()
    start = source.index("@jit()\ndef solve_bonus_b_batch(")
    body = source[start:source.index("\n\n\n", start)]
    lookups = "            for lane in range(n_lanes):\n                bits = decided | unpack("
    assert lookups in body
    body = (body.replace("def solve_bonus_b_batch(", "def solve_parts(parts: int, ")
            .replace(lookups, "            if not parts & 2:\n                continue\n"
                     + lookups, 1))
    # (a call's continuation lines are inside its parentheses: any indent will do)
    body = re.sub(r"^( *)_successors\(", r"\1if parts & 1:\n\1    _successors(", body,
                  flags=re.M)
    body = re.sub(r"^( *)turn_values\(", r"\1if parts & 4:\n\1    turn_values(", body,
                  flags=re.M)
    path = Path(tempfile.mkdtemp()) / "bonus_b_parts.py"
    path.write_text(PROFILE_HEAD + body + "\n")
    spec = importlib.util.spec_from_file_location("bonus_b_parts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.solve_parts


def profile(sample: int, levels: str, repeat: int, a2: bool, seed: int) -> None:
    """Microseconds of CPU per configuration of each part (module docstring)."""
    solve_parts = profiled_batch()
    lay = bonus_b.BonusBLayout.of(BONUS_B)
    data = np.zeros(lay.size)
    rng = np.random.default_rng(seed)
    print("table level: plans, + successors, + look-ups, all, plans + turn_values "
          "(us CPU per configuration)")
    for spec in levels.split(","):
        mask, level = (int(x) for x in spec.split(":"))
        args, size, total = batch_args(lay, data, mask, level, sample, a2, rng)
        res = {}
        solve_parts(7, *args, 0, size)  # compiled, and the pages read mapped
        for parts in (0, 1, 3, 7, 4):
            best = np.inf
            for _ in range(repeat):
                t0 = time.process_time()
                solve_parts(parts, *args, 0, size)
                best = min(best, time.process_time() - t0)
            res[parts] = best / size * 1e6
        print(f"mask {mask} level {level:2d} ({size} of {total}): {res[0]:.1f}, {res[1]:.1f}, "
              f"{res[3]:.1f}, {res[7]:.1f}, {res[4]:.1f}", flush=True)


def digest(data: np.ndarray) -> str:
    h = hashlib.sha256()
    step = 1 << 24
    for i in range(0, len(data), step):
        h.update(data[i:i + step].tobytes())
    return h.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("partial")
    p.add_argument("--a2", action="store_true")
    p.add_argument("--configs", type=int, default=1 << 62)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", type=Path)
    q = sub.add_parser("pads")
    q.add_argument("--out", required=True)
    t = sub.add_parser("time")
    t.add_argument("--base", default="614b5ae")
    f = sub.add_parser("profile")
    for sampled, sample in ((t, 1000), (f, 1500)):
        sampled.add_argument("--sample", type=int, default=sample)
        sampled.add_argument("--levels", default="0:35,0:25,0:15,0:8,1:20,1:12,1:6")
        sampled.add_argument("--repeat", type=int, default=2)
        sampled.add_argument("--a2", action="store_true")
        sampled.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("same")
    s.add_argument("files", nargs=2, type=Path)
    ns = parser.parse_args()
    print(f"load {Path('/proc/loadavg').read_text().strip()}", flush=True)
    if ns.cmd == "partial":
        data = partial(BONUS_B, ns.a2, ns.configs, ns.threads)
        print(f"solved {int(np.count_nonzero(~np.isnan(data))):,} of {len(data):,} "
              f"values; sha256 {digest(data)}", flush=True)
        if ns.out is not None:
            np.save(ns.out, data)
    elif ns.cmd == "time":
        if not time_levels(ns.base, ns.sample, ns.levels, ns.repeat, ns.a2, ns.seed):
            return 1
    elif ns.cmd == "profile":
        profile(ns.sample, ns.levels, ns.repeat, ns.a2, ns.seed)
    elif ns.cmd == "pads":
        from research.tests.test_bonus_b_bound import named_pad
        for name in ("two", "two6", "one-close", "three"):
            for a2 in (False, True):
                t0 = time.process_time()
                data, _, _ = bonus_b.solve_bonus_b(named_pad(name), a2, None, 1)
                path = f"{ns.out}-{name}-a2{int(a2)}.npy"
                np.save(path, data)
                print(f"{name} a2end {int(a2)}: {len(data):,} values, "
                      f"{time.process_time() - t0:.2f} s CPU, {path}", flush=True)
    else:
        a, b = (np.load(f) for f in ns.files)
        same = a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        print(f"{ns.files[0]} == {ns.files[1]} bit for bit: {same}")
        return 0 if same else 1
    print(f"load {Path('/proc/loadavg').read_text().strip()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
