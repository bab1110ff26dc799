"""Benchmarks of the exact dice maths (issue 3).  Prints figures; asserts nothing.

    python benchmarks/bench_dice.py [--quick]

* the cold build of the outcome tables of all 16 dice sets (budget 50 ms);
* one full event table (:func:`turn_events`) for a sheet, cold (per-row caches
  emptied) and warm (budget 2 ms), and the brute-force reference
  (:func:`brute_force_events`: the rules core on every ordered outcome) for the
  same sheet, with the speed-up;
* for scale: the window-rule chain and a dice-fairness report.

``--quick`` skips the four-dice brute force (tens of seconds); ``--power`` also
measures the power and the false-alarm rate of the dice-fairness test over 200
seeded samples at 500 and 1000 rolls (a die with P(6) = 1/4; about a minute).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from qwixx_math.dice import (
    all_outcome_tables,
    brute_force_events,
    dice_fairness,
    turn_events,
    turns_to_close,
)
from qwixx_math.dice import events as _events
from qwixx_math.dice import markov as _markov
from qwixx_math.dice import outcomes as _outcomes
from qwixx_math.model import COLOURS
from qwixx_math.notation import parse_sheet
from qwixx_math.rules import random_roll

SHEETS = [
    ("empty sheet, 4 dice", "r:-/p:0", frozenset()),
    ("busy sheet, 4 dice", "r:2,3,4,5,6/y:2,3,4,5,6,7/g:12,11,10,9/b:12,11,10,9,8,7/p:3",
     frozenset()),
    ("blue closed, 3 dice", "r:2,3,4,5,6/y:3,5,7,9/g:12,10/p:3", frozenset({COLOURS[3]})),
]


def timed(func: Callable[[], object], repeat: int, setup: Callable[[], None] | None = None
          ) -> tuple[float, float]:
    """(median, best) seconds of ``repeat`` calls, ``setup`` before each."""
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def ms(x: float) -> str:
    return f"{x * 1e3:8.3f} ms"


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    print("Exact dice maths benchmarks (medians; best in brackets)")
    med, best = timed(all_outcome_tables, 20, _outcomes._table.cache_clear)
    print(f"outcome tables, all 16 dice sets, cold : {ms(med)} ({ms(best)})   budget 50 ms")
    for name, text, closed in SHEETS:
        sheet = parse_sheet(text)
        call = partial(turn_events, sheet, closed)
        cold, cold_best = timed(call, 30, _events._colour_stats.cache_clear)
        warm, warm_best = timed(call, 200)
        print(f"event table, {name:<22}: cold {ms(cold)} ({ms(cold_best)}), "
              f"warm {ms(warm)} ({ms(warm_best)})   budget 2 ms")
        if quick and not closed:
            continue
        t0 = time.perf_counter()
        brute = brute_force_events(sheet, closed)
        slow = time.perf_counter() - t0
        assert brute == turn_events(sheet, closed), "fast and brute force disagree"
        print(f"  brute force (rules core, every ordered outcome): {slow:8.2f} s  -> "
              f"speed-up x{slow / cold:,.0f} over cold, x{slow / warm:,.0f} over warm")
    med, _ = timed(lambda: turns_to_close(window=3, players=4, safe=True), 5,
                   _markov._matrices.cache_clear)
    print(f"window chain (4 players, exact E[T])      : {ms(med)}")
    import random

    rng = random.Random(1)
    rolls = [random_roll(rng) for _ in range(1000)]
    med, _ = timed(lambda: dice_fairness(rolls), 5)
    print(f"dice-fairness report, 1000 rolls, 15 tests : {ms(med)}")
    if "--power" in argv:
        power()
    return 0


def power(reps: int = 200) -> None:
    import numpy as np

    from qwixx_math.model import Roll

    def sample(seed: int, n: int, loaded: bool) -> list[Roll]:
        rng = np.random.default_rng(seed)
        dice = rng.integers(1, 7, size=(n, 6))
        if loaded:
            dice[:, 2] = rng.choice(np.arange(1, 7), size=n, p=[3 / 20] * 5 + [1 / 4])
        return [Roll((a, b), (r, y, g, u)) for a, b, r, y, g, u in dice.tolist()]

    for n in (500, 1000):
        hits = sum(not dice_fairness(sample(s, n, True)).fair for s in range(reps))
        alarms = sum(not dice_fairness(sample(50_000 + s, n, False)).fair for s in range(reps))
        print(f"dice-test power, {n} rolls, red P(6) = 1/4: flagged {hits}/{reps} "
              f"= {hits / reps:.3f}; fair dice flagged {alarms}/{reps} = {alarms / reps:.3f}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
