"""Policies for solitaire Qwixx: a heuristic's choice, exact values, the score distribution,
and a seeded simulation.

    python examples/policies.py

Quick by design: the exact values and the distribution are computed on a small
variant (two rows of eight numbers), where they take a second; the simulation
plays 20,000 games of the official game.  For the official game's exact figures
run ``qwixx-math policies`` and ``qwixx-math distribution`` (minutes the first
time, then cached), or read docs/policies.md.
"""

from __future__ import annotations

from qwixx_math.notation import parse_roll, parse_sheet
from qwixx_math.policies import make_policy, policy_value, score_distribution, simulate
from qwixx_math.rules import GameState
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import Variant

NAMES = ["optimal", "seed-tips", "fewest-skips", "threshold-2", "threshold-1"]


def main() -> None:
    # 1. What the tips in the published rule texts do with one roll of the official game
    ruleset = Ruleset(players=1)
    state = GameState(ruleset, (parse_sheet("r:2,4/y:-/g:12,10/b:-/p:1"),))
    roll = parse_roll("w:3,5/r:2/y:6/g:1/b:4")
    policy = make_policy("seed-tips")
    print(f"sheet r:2,4/y:-/g:12,10/b:-/p:1, roll {roll}")
    print("seed-tips (the tips in the published rule texts) rank the plans by priority")
    print("(marks/8 - skipped numbers; penalty -3.5):")
    for plan, h, _ in policy.ranked(state, roll)[:4]:
        print(f"  {plan!s:<7} {h:7.3f}  {plan.describe()}")
    print(f"  ... chosen: {policy.choose(state, roll)}")

    # 2. Exact values and the optimal score distribution on a small variant
    variant = Variant.from_letters("ad", 8, 3, 3, 2)
    print(f"\nsmall variant {variant.key} (rows of 8 numbers, lock after 3, 3 penalty boxes):")
    best = policy_value("optimal", variant=variant, cache=False).expected_score
    for name in NAMES:
        value = policy_value(name, variant=variant, cache=False).expected_score
        print(f"  {name:<13} exact expected score {value:8.4f}   loss {best - value:7.4f}")
    dist = score_distribution("optimal", variant=variant, cache=False)
    pct = dist.percentiles((5, 25, 50, 75, 95))
    print(f"  optimal play: mean {dist.mean:.4f} (= V(start)), sd {dist.sd:.3f}, "
          f"percentiles 5/25/50/75/95 = {'/'.join(str(v) for v in pct.values())}, "
          f"P(score <= 0) = {dist.cdf(0):.4f}")

    # 3. A seeded simulation of the official game
    result = simulate("seed-tips", games=20_000, seed=1)
    low, high = result.confidence_interval()
    print(f"\n20,000 official games with the rule texts' tips: mean {result.mean:.3f}, "
          f"95% CI [{low:.3f}, {high:.3f}], sd {result.sd:.2f}")


if __name__ == "__main__":
    main()
