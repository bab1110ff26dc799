"""Double A's exact solve, per configuration: old code vs new, on samples of the real pad.

    PYTHONPATH=. python research/double_a_speed.py TABLE [--base COMMIT] [--sample N]
        [--levels L,L,...] [--dense-levels L,...] [--dense-masks M,...] [--seed S]
        [--option] [--option-table TABLE] [--repeat R] [--pads LENGTHS]

``TABLE`` is the finished R15-default table of the published pad
(``solitaire-v1-double-a-a2end0.qxt``, :mod:`qwixx_math.solver.cache`), opened
copy-on-write: the file is never written.  Per level of the table of open rows (and of
the dense tables with one row closed, ``--dense-masks``, ``--dense-levels``) it takes ``--sample``
consecutive configurations of the solve's own order from a random start (so the look-ups
have the locality the solve has), recomputes them with ``solve_double_a_batch`` of the
code at ``--base`` (a git commit: the old code, loaded from git) and of this worktree
(the new code), on the calling thread, and prints both CPU times (``time.process_time``)
per configuration and whether every value written is bit-equal to the stored one.
Items of one level never read one another, and the stored values are put back after
each run, so the runs read exactly the finished table.  Last, the projected CPU seconds of
the whole solve (R15 default) by either code: every level's configurations (every table's)
times the time per configuration of the nearest level sampled in a table of that shape
(the dense tables of masks 2 and 8 as those of 1 and 4: the same rows), an estimate.

``--option``: also the R15 option (``action2_after_action1_end`` on).  With
``--option-table`` (the finished R15-option table, ``...-a2end1.qxt``, opened the same way)
both codes read that table and every value is compared with it too; without it the old and
the new code are compared with each other only (both read the default table: the function
of its inputs is the same).

``--pads 4,5,6``: first, every table of small four-row pads (rows ascending, ascending,
descending, descending, of each length L; lock after L - 2 crosses, 4 penalty boxes) solved whole
by both codes, both R15 options, both DA4 values, canonical and dense: bit for bit equal?

The machine is shared (a background solve runs): compare CPU seconds of the same sample
in the same run, and mind the printed load average.  ``--repeat R`` runs the old and the
new code in turn R times each and keeps each one's fastest run: at a load of 4 on 2 cores
runs one after the other drift by 10 to 20%, more than a small gain.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import struct
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from qwixx_math.layouts import SheetLayout, layout_named
from qwixx_math.solver import double_a
from qwixx_math.solver.kernel import count_products

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def load_base(commit: str, name: str = "double_a") -> types.ModuleType:
    """``qwixx_math/solver/NAME.py`` (default Double A's) as of ``commit``, as a module of
    the package (its relative imports resolve), compiled from a copy under the temporary
    directory."""
    source = subprocess.run(["git", "show", f"{commit}:qwixx_math/solver/{name}.py"],
                            check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.gettempdir()) / f"{name}_{commit[:12]}.py"
    path.write_text(source)
    module_name = f"qwixx_math.solver.{name}_{commit[:12]}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def open_table(path: Path) -> tuple[FloatArray, FloatArray]:
    """The payload copy-on-write (writes stay in this process) and read-only."""
    with path.open("rb") as f:
        _, length, _ = struct.unpack("<8sII", f.read(16))
        header = json.loads(f.read(length))
    offset, count = int(header["payload_offset"]), int(header["count"])
    cow = np.memmap(path, dtype="<f8", mode="c", offset=offset, shape=(count,))
    ro = np.memmap(path, dtype="<f8", mode="r", offset=offset, shape=(count,))
    return cow, ro


def written(lay: Any, mask: int, open_rows: IntArray, items: IntArray, pair_lo: IntArray,
            pair_hi: IntArray) -> IntArray:
    """Where each item's lane 0 lives (as the batch computes it)."""
    pairs = len(pair_lo)
    out = np.empty(len(items), dtype=np.int64)
    for t, item in enumerate(items.tolist()):
        codes = [0] * lay.rows
        if mask == 0 and lay.canonical:
            lo, hi = divmod(item, pairs)
            codes = [int(pair_lo[lo]), int(pair_hi[lo]), int(pair_lo[hi]), int(pair_hi[hi])]
            out[t] = double_a.canonical_index(*codes) * lay.penalties
        else:
            rest = item
            idx = int(lay.offsets[mask])
            for r in reversed(open_rows.tolist()):
                idx += int(lay.strides[mask, r]) * (rest % lay.n_codes)
                rest //= lay.n_codes
            out[t] = idx
    return out


def run(batch: Callable[..., None], args: tuple[Any, ...], n: int) -> float:
    """CPU seconds of one call over ``n`` items."""
    t0 = time.process_time()
    batch(*args, 0, n)
    return time.process_time() - t0


def small_pad(length: int) -> SheetLayout:
    """Four rows of ``length`` numbers with the official rows' symmetry."""
    rows = [{"numbers": list(range(2, 2 + length)) if d == "a"
             else list(range(12, 12 - length, -1)), "colours": colour}
            for d, colour in zip("aadd", ("red", "yellow", "green", "blue"), strict=True)]
    return SheetLayout.from_json({
        "name": f"da-check-{length}", "rows": rows, "lock_threshold": length - 2,
        "penalty_boxes": 4, "closed_rows_to_end": 2, "second_crosses": True})


def check_pads(old: types.ModuleType, lengths: list[int]) -> bool:
    """Whole solves of :func:`small_pad` by both codes: every value bit-equal?"""
    ok = True
    for length in lengths:
        pad = small_pad(length)
        for a2, same_turn, canonical in itertools.product((False, True), repeat=3):
            t0 = time.process_time()
            want, count, _ = old.solve_double_a(pad, a2, same_turn, None, 1,
                                                canonical=canonical)
            t1 = time.process_time()
            got, _, _ = double_a.solve_double_a(pad, a2, same_turn, None, 1,
                                                canonical=canonical)
            t2 = time.process_time()
            same = want.tobytes() == got.tobytes()
            ok &= same
            print(f"pad of length {length}, a2end {int(a2)}, same turn {int(same_turn)}, "
                  f"canonical {int(canonical)}: {count} configurations, old {t1 - t0:.2f} "
                  f"s, new {t2 - t1:.2f} s CPU, bit-equal: {same}", flush=True)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", type=Path)
    parser.add_argument("--base", default="f11540a")
    parser.add_argument("--sample", type=int, default=20000)
    parser.add_argument("--levels", default="40,30,20,55")
    parser.add_argument("--dense-levels", default="32,44,52")
    parser.add_argument("--dense-masks", default="1,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="store_true")
    parser.add_argument("--option-table", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--pads", default="")
    ns = parser.parse_args()
    old = load_base(ns.base)
    ok = check_pads(old, [int(x) for x in ns.pads.split(",") if x])
    sheet = layout_named("double-a")
    lay = double_a.DoubleALayout.of(sheet)
    data, stored = open_table(ns.table)
    tables = {False: (data, stored)}
    if ns.option_table is not None:
        tables[True] = open_table(ns.option_table)
    if len(data) != lay.size:
        raise SystemExit(f"{ns.table}: {len(data)} values, the layout has {lay.size}")
    n = lay.n_codes
    pair_lo = np.array([b for a in range(n) for b in range(a + 1)], dtype=np.int64)
    pair_hi = np.array([a for a in range(n) for b in range(a + 1)], dtype=np.int64)
    rng = np.random.default_rng(ns.seed)
    runs = [(0, int(x)) for x in ns.levels.split(",") if x] + \
        [(int(mask), int(x)) for mask in ns.dense_masks.split(",") if mask
         for x in ns.dense_levels.split(",") if x]
    per_config: dict[tuple[str, int, int], float] = {}
    sizes: dict[int, IntArray] = {}
    options = (False, True) if ns.option else (False,)
    totals = {"old": 0.0, "new": 0.0, "n": 0}
    print(f"load {Path('/proc/loadavg').read_text().strip()}")
    for mask, level in runs:
        open_rows = np.array([r for r in range(lay.rows) if not mask >> r & 1],
                             dtype=np.int64)
        k = len(open_rows)
        levels = double_a._Levels(lay, mask, k, pair_lo, pair_hi)
        if mask not in sizes:
            sizes[mask] = np.array([len(levels.batch(h)) for h in range(levels.top + 1)],
                                   dtype=np.int64)
        batch = levels.batch(level)
        size = min(ns.sample, len(batch))
        start = int(rng.integers(0, len(batch) - size + 1))
        items = np.ascontiguousarray(batch[start:start + size])
        where = written(lay, mask, open_rows, items, pair_lo, pair_hi)
        slots = (where[:, None] + np.arange(lay.penalties)).ravel()
        for option in options:
            data, stored = tables.get(option, tables[False])
            truth = np.array(stored[slots])
            args = (data, lay.offsets, lay.strides, lay.canonical, n, lay.code_last,
                    lay.code_flag, lay.code_cnt, lay.next_new, lay.next_sec, lay.number_at,
                    lay.points, lay.length, sheet.lock_threshold, lay.penalties, option,
                    True, mask, open_rows, items, count_products(k, 8), pair_lo, pair_hi)
            got = {}
            for module in (old, double_a):  # compile, and map the pages read
                run(module.solve_double_a_batch, args, size)
            codes = (("old", old), ("new", double_a))
            times: dict[str, float] = {name: np.inf for name, _ in codes}
            for _ in range(ns.repeat):  # old and new in turn: the load drifts
                for name, module in codes:
                    data[slots] = truth
                    times[name] = min(times[name],
                                      run(module.solve_double_a_batch, args, size))
                    got[name] = np.array(data[slots])
                    data[slots] = truth
            for name, best in times.items():
                if not option:
                    totals[name] += best
                    per_config[(name, mask, level)] = best / size
                print(f"mask {mask} level {level:2d} a2end {int(option)} {name}: "
                      f"{size} configurations (of {len(batch)}), "
                      f"{best / size * 1e6:6.2f} us CPU each", flush=True)
            if option and option not in tables:
                same = got["old"].tobytes() == got["new"].tobytes()
                print(f"  new == old, bit for bit: {same}")
            elif option:
                same = got["old"].tobytes() == truth.tobytes() == got["new"].tobytes()
                print(f"  old == stored (option table) == new, bit for bit: {same}")
            else:
                same = got["old"].tobytes() == truth.tobytes() == got["new"].tobytes()
                print(f"  old == stored == new, bit for bit: {same}")
                totals["n"] += size
            ok &= same
    if totals["n"]:
        print(f"all R15-default samples: old {totals['old'] / totals['n'] * 1e6:.2f} us, "
              f"new {totals['new'] / totals['n'] * 1e6:.2f} us CPU per configuration "
              f"(speed-up {totals['old'] / totals['new']:.2f}x)")
    shapes = {m: m if m in sizes else {2: 1, 8: 4}.get(m, -1) for m in lay.masks}
    if all(m in sizes for m in shapes.values()):
        for name in ("old", "new"):
            seconds = 0.0
            for shape in shapes.values():
                sampled = [h for (nm, mk, h) in per_config if nm == name and mk == shape]
                for h, count in enumerate(sizes[shape].tolist()):
                    near = min(sampled, key=lambda x: abs(x - h))
                    seconds += count * per_config[(name, shape, near)]
            print(f"projected whole solve, {name} code: {seconds:,.0f} CPU s "
                  f"(one thread, this load; an estimate)")
    print(f"load {Path('/proc/loadavg').read_text().strip()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
