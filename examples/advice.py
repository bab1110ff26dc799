"""Move advice on the position of docs/advice.md, then a review of a random solitaire game.

    python examples/advice.py [--seed S]

The first run on a machine builds the solver's table (about half a minute) and caches it.
"""

from __future__ import annotations

import argparse

from qwixx_math import Advisor, GameState, Ruleset, parse_roll, parse_sheet, random_game
from qwixx_math.review import review_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the reviewed game")
    args = parser.parse_args()

    advisor = Advisor.for_ruleset(progress=False)
    print(f"optimal expected score of an empty sheet: {advisor.table.start_value:.3f}\n")

    sheet = parse_sheet("r:2,3/y:4,5,6,7,8/g:10,8/b:12,10")
    roll = parse_roll("w:6,6/r:5/y:3/g:6/b:3")
    state = GameState(Ruleset(players=1), (sheet,))
    print(f"sheet {sheet}, roll {roll}: yellow could close now, but")
    for rank, ranked in enumerate(advisor.advise(state, roll).plans, start=1):
        print(f"  {rank}. {ranked.plan!s:7} {ranked.expected_score:8.3f}  "
              f"loss {ranked.loss:6.3f}  {ranked.describe()}")

    print()
    review = review_game(random_game(players=1, seed=args.seed), advisor=advisor)
    print("a random player, reviewed:")
    print(review.to_text(top=3))


if __name__ == "__main__":
    main()
