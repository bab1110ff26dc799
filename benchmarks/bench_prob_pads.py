"""``prob`` on every built-in pad (issue 34): the CPU time of one :func:`turn_events`
call per pad, over the same ten late positions of seeded random solitaire games
(tests/strategies.py's ``random_position``).  Prints figures; asserts nothing.

    python benchmarks/bench_prob_pads.py [--brute]

``--brute`` also times :func:`brute_force_events` (the rules core on every roll) on the
first position of each pad: seconds per pad of six-sided dice, a minute or more on the
Longo pads.  The machine is shared: the load is printed with the figures.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from strategies import random_position  # noqa: E402

from qwixx_math.dice import brute_force_events, turn_events  # noqa: E402
from qwixx_math.layouts import LAYOUTS, layout_named  # noqa: E402
from qwixx_math.ruleset import LuckyMode, Ruleset  # noqa: E402

POSITIONS = 10


def main() -> None:
    brute = "--brute" in sys.argv[1:]
    print(f"load average {os.getloadavg()[0]:.1f}; {POSITIONS} positions per pad")
    names = [*LAYOUTS, "longo:5,13"]
    for name in names:
        layout = layout_named(name)
        states = [random_position(random.Random(seed), Ruleset(1), layout)
                  for seed in range(POSITIONS)]
        rulesets = [Ruleset(2)] if not layout.lucky else [
            Ruleset(2), Ruleset(2, lg_lucky_mode=LuckyMode.ADDITIONAL)]
        for rs in rulesets:
            start = time.process_time()
            for state in states:
                turn_events(state.sheets[0], state.closed, rs)
            per_call = (time.process_time() - start) / POSITIONS * 1000
            line = f"{name:<20} {rs.lg_lucky_mode.value if layout.lucky else '':<10} " \
                   f"turn_events {per_call:7.1f} ms CPU per call"
            if brute:
                start = time.process_time()
                brute_force_events(states[0].sheets[0], states[0].closed, rs)
                line += f"; brute force {time.process_time() - start:6.1f} s CPU"
            print(line, flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
