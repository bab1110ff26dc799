"""Exact chances of one turn, and the turns it takes to close a row.

    python examples/dice_probabilities.py
"""

from __future__ import annotations

from functools import partial

from qwixx_math.dice import turn_events, turns_to_close, white_sum_distribution
from qwixx_math.model import Colour
from qwixx_math.notation import parse_sheet


def main() -> None:
    ws = white_sum_distribution()
    print("white sum: P(7) =", ws.probability(7), " mean", ws.mean(), " variance", ws.variance())

    sheet = parse_sheet("r:2,3,4,10/y:2,3,4,5,6/g:12,11/p:3")
    ev = turn_events(sheet, closed={Colour.BLUE})
    print(f"\nsheet {sheet} (blue closed by another player)")
    for colour in ev.in_play:
        best = max(range(2, 13), key=partial(ev.active.markable, colour))
        print(f"  {colour.value:<6} most markable: {best} "
              f"({ev.active.markable(colour, best)}), can close: {ev.active.closing(colour)}")
    print("  forced penalty:", ev.active.no_mark, " game can end by closing:",
          ev.active.can_end_by_closing, " must end:", ev.must_end)
    print("  most marks possible:", {k: str(v) for k, v in ev.active.marks.probabilities().items()})

    print("\nturns until red is closed (window rule, safe), exact expectation:")
    for players in (1, 2, 4):
        ct = turns_to_close(Colour.RED, window=3, players=players, safe=True)
        assert ct.expected is not None
        print(f"  {players} player(s): E[T] = {float(ct.expected):6.2f} turns, "
              f"P(T <= 20) = {float(ct.cdf(20)):.3f}")


if __name__ == "__main__":
    main()
