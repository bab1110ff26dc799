"""Qwixx Connected, the Chain: the exact solitaire solve of sheet A, its value, openings
and advice speed (docs/variants.md, README's pad table; issue 34).

    PYTHONPATH=. python benchmarks/bench_connected_chain_solve.py [--cache DIR]
        [--only-tables] [--a2 both|off|on] [--positions N] [--montecarlo GAMES] [--seed S]
        [--compare DIR]

The same command line and report as bench_connected_steps_solve.py (its ``pads_main``),
on the published chain pads (``connected-chain``, CC3 = True, the only Option played):
per R15 option, a solve in a fresh process from an empty table cache after a JIT warm-up,
one at a time, on every core (2 here), with its wall and CPU seconds, peak RSS (goals:
<= 5 minutes wall, <= 8 GB) and exact value (partner crosses included, CC1-CC5; the state
adds the closed row's count, :mod:`qwixx_math.solver.chain`); then, with the R15-default
table loaded, the opening marks, the mean ``Advisor.advise`` latency (goal <= 1 ms) and
optimal play through the rules core (an ESTIMATE, with its standard error).  The machine
is shared: the load average is printed with the figures.
"""

from __future__ import annotations

import sys

from bench_connected_steps_solve import pads_main

from qwixx_math.layouts import LAYOUTS

CHAIN_PADS = tuple(name for name, layout in LAYOUTS.items() if layout.chain)

if __name__ == "__main__":
    sys.exit(pads_main(__doc__ or "", CHAIN_PADS))
