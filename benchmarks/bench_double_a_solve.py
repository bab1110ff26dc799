"""Qwixx Double A: the exact solitaire solve, its value, openings and advice speed
(docs/variants.md, README's pad table; issue 34).

    PYTHONPATH=. python benchmarks/bench_double_a_solve.py [--cache DIR]
        [--only-tables] [--a2 both|off|on] [--positions N] [--montecarlo GAMES] [--seed S]
        [--compare DIR]

The same command line and report as bench_connected_steps_solve.py (its ``pads_main``),
on the published second-cross pad (``double-a``, ``da_scope = latest``, ``da_same_turn``
True: the defaults, DA2, DA4): per R15 option, a solve in a fresh process from an empty
table cache after a JIT warm-up, on every core (2 here), with its wall and CPU seconds,
peak RSS (goals: <= 5 minutes wall, <= 8 GB) and exact value (second crosses counted to
16, DA5, DA7; the row state adds the crosses and whether the last number is doubled, the
table of open rows is stored by orbits of its symmetry group,
:mod:`qwixx_math.solver.double_a`); then, with the R15-default table loaded, the opening
marks, the mean ``Advisor.advise`` latency (goal <= 1 ms) and optimal play through the
rules core (an ESTIMATE, with its standard error; it checks the exact value, which must
also lie above the lookahead player's lower bound, 274.75-278.65, docs/variants.md).
With ``--a2 on`` (or both) the same Monte-Carlo check runs under the R15 option against
that option's table.
The Double A solve does not fit the slow test suite (its minutes, 6.3 GB): this
benchmark's Monte-Carlo run is its check, and ``--compare DIR`` compares each table it
solved with the one in ``DIR/double-a`` (e.g. solved by an older commit) bit for bit:
a faster solver must not change a value.  The machine is shared: the load average is
printed with the figures.
"""

from __future__ import annotations

import sys

from bench_connected_steps_solve import pads_main

from qwixx_math.layouts import LAYOUTS

SECOND_CROSS_PADS = tuple(name for name, layout in LAYOUTS.items() if layout.second_crosses)

if __name__ == "__main__":
    sys.exit(pads_main(__doc__ or "", SECOND_CROSS_PADS))
