"""Writing a solver table to the cache: the last phase of every solve (README's measured
figures, issue 34's 5-minute goal).

    PYTHONPATH=. python benchmarks/bench_table_write.py [--layout bonus-a] [--repeat 2]
        [--dir DIR]

Writes a table of the layout's solitaire size (Bonus A: 4.38 GB) with
``qwixx_math.solver.cache.write_table`` into ``--dir`` (default a temporary directory,
removed afterwards) ``--repeat`` times and prints, per write, the wall and CPU seconds of
this process and the load average (the machine is shared).  The values are arbitrary
(not a solve): the write's cost depends on the size only.  Peak memory is the table.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from qwixx_math.layouts import LAYOUTS
from qwixx_math.solver import Variant
from qwixx_math.solver.cache import table_filename, write_table
from qwixx_math.solver.layout import Layout


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="bonus-a", choices=sorted(LAYOUTS))
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    variant = Variant(LAYOUTS[args.layout])
    size = Layout.of(variant).size
    data = np.empty(size)
    data[:] = 0.25  # every page touched before the timing
    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        path = Path(directory) / table_filename(variant, False)
        for _ in range(args.repeat):
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            wall, cpu = time.perf_counter(), cpu_seconds()
            write_table(path, variant, False, data, 0.0)
            print(f"{args.layout}: table write of {data.nbytes / 1e9:.2f} GB: "
                  f"{time.perf_counter() - wall:.1f} s wall, {cpu_seconds() - cpu:.1f} s CPU "
                  f"on {os.cpu_count()} cores (load average before {load})", flush=True)
            path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
