"""Qwixx Bonus, pad B, through the package: its exact table in the solver cache, the value
``solve``/``value`` print, the best openings and the advice latency with the table loaded
(docs/variants.md, "Qwixx Bonus, pad B"; issue 34).

    PYTHONPATH=. QWIXX_MATH_CACHE=DIR python benchmarks/bench_bonus_b_solve.py
        [--a2 off|on] [--from-npy FILE] [--positions N] [--seed S]

``--from-npy FILE`` first writes the cache file of pad B's table (R15 option ``--a2``) from
a value array saved by ``benchmarks/bench_bonus_b_bound.py --exact --save PREFIX``
(``PREFIX-off.npy``; read memory-mapped, never changed): the array must hold exactly the
package's index (:class:`qwixx_math.solver.bonus_b.BonusBLayout`), which the script checks.
Without it the table is read from the cache, or solved there when missing (2,820 s CPU,
5.6 GB: about 24 minutes on 2 idle cores).  Then, printed: the load time, the start value,
the five best openings, and the mean and 99th-percentile wall milliseconds of
``Advisor.advise`` over ``N`` positions of seeded play (``bench_advice.positions``, as
``bench_double_b.py``'s ``advice_latency``), with the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_double_b import advice_latency, openings

from qwixx_math.advice import Advisor
from qwixx_math.layouts import BONUS_B
from qwixx_math.model import Sheet
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant, solve
from qwixx_math.solver.bonus_b import BonusBLayout
from qwixx_math.solver.cache import cache_dir, table_filename, write_table


def convert(path: Path, a2: bool) -> Path:
    """Write the cache file of pad B's table (R15 option ``a2``) from the saved array at
    ``path`` (memory-mapped, read only); its path."""
    data = np.load(path, mmap_mode="r")
    index = BonusBLayout.of(BONUS_B)
    size = index.size
    if data.shape != (size,) or data.dtype != np.float64:
        raise SystemExit(f"{path}: {data.shape} values of {data.dtype}, the package's index "
                         f"holds ({size},) of float64")
    variant = Variant(BONUS_B)
    target = cache_dir() / table_filename(variant, a2)
    target.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    empty, held = index.locate(Sheet.empty(BONUS_B))  # the start value the header keeps
    write_table(target, variant, a2, data, float(data[empty]) + held,
                {"converted_from": str(path)})
    print(f"wrote {target} ({target.stat().st_size:,} bytes) in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2", choices=["off", "on"], default="off")
    parser.add_argument("--from-npy", type=Path, default=None)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    a2 = args.a2 == "on"
    print(f"load average before: {os.getloadavg()}", flush=True)
    if args.from_npy is not None:
        convert(args.from_npy, a2)
    t0 = time.perf_counter()
    table = solve(Ruleset(players=1, action2_after_game_end=a2), layout=BONUS_B,
                  progress=False)
    print(f"table {'loaded' if table.loaded else 'solved'} in "
          f"{time.perf_counter() - t0:.1f} s wall: {table.states:,} values", flush=True)
    print(f"bonus-b, R15 option {args.a2}: exact value {table.start_value:.6f}", flush=True)
    ranked = openings(table, BONUS_B)
    print("best openings: " + ", ".join(f"{row} {number} {gain:+.2f}"
                                        for gain, row, number in ranked[:5]), flush=True)
    mean, p99, plans = advice_latency(Advisor(table), args.positions, args.seed)
    print(f"advice latency over {args.positions} positions: mean {mean:.3f} ms, "
          f"p99 {p99:.3f} ms, {plans:.1f} plans per call", flush=True)
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
