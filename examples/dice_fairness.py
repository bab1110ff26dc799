"""Fair or loaded?  Test seeded samples of rolls, and measure the power of the test.

    python examples/dice_fairness.py
"""

from __future__ import annotations

import numpy as np

from qwixx_math.dice import dice_fairness
from qwixx_math.model import Roll

LOADED = [3 / 20] * 5 + [1 / 4]  # a die that shows 6 a quarter of the time


def rolls(seed: int, n: int, loaded_red: bool) -> list[Roll]:
    rng = np.random.default_rng(seed)
    dice = rng.integers(1, 7, size=(n, 6))
    if loaded_red:
        dice[:, 2] = rng.choice(np.arange(1, 7), size=n, p=LOADED)
    return [Roll((w1, w2), (r, y, g, b)) for w1, w2, r, y, g, b in dice.tolist()]


def main() -> None:
    print("fair dice, 1000 rolls:  ", dice_fairness(rolls(1, 1000, False)).verdict)
    print("loaded red, 1000 rolls: ", dice_fairness(rolls(2, 1000, True)).verdict)
    reps = 30
    for n in (500, 1000):
        power = sum(not dice_fairness(rolls(s, n, True)).fair for s in range(reps))
        print(f"{n} rolls: the loaded red die is flagged in {power} of {reps} seeded samples")
    alarms = sum(not dice_fairness(rolls(10_000 + s, 1000, False)).fair for s in range(reps))
    print(f"1000 rolls: fair dice are flagged in {alarms} of {reps} seeded samples "
          "(about 5% in the long run; benchmarks/bench_dice.py --power measures 200)")

if __name__ == "__main__":
    main()
