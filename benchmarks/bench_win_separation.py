"""Agreement of ``advise --objective win``'s default with many rollouts (issue 35).

    python benchmarks/bench_win_separation.py                       # as specified: 5,000
    python benchmarks/bench_win_separation.py --reference 1000 --games 4 --from-turn 24

Positions: the decisions (a passive seat's white sum, the active seat's plan, the
active seat's action 2) of ``--games`` seeded games of ``win`` against ``win``
(``bench_win_advice.positions``), kept with probability ``--sample`` from turn
``--from-turn`` on (late positions: their rollouts are short, so the reference is
affordable).  Each is advised twice:

* the reference: ``advise_win`` with ``--reference`` rollouts per choice (5,000 as
  issue 35 says) on another seed; a position counts only when its first choice is
  separated from the second (the best one that leads to another position) at 95%,
  paired over the common dice;
* the default of the command line: ``advise_win_separated`` with its default
  budget and seed, i.e. what ``qwixx-math advise --objective win`` prints.

Printed first: the CPU seconds of the default on the opening roll and on a mid-game
roll (where the budget binds).  Then: how many positions were separated by the
reference, in how many the default picked the reference's first choice (or a plan that
leads to the same position), that share with its 95% Wilson interval, how the default
stopped (separated, budget, exact), and the CPU seconds of the default (median,
largest).  The goal: >= 95%.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_win_advice import positions

from qwixx_math.position import position
from qwixx_math.table import TableAdvisor
from qwixx_math.winadvice import (
    SEPARATE_BUDGET,
    advise_win,
    advise_win_separated,
    position_after,
    wilson,
)

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


#: Positions timed first: the opening roll (37 choices) and a mid-game roll (29 choices).
TIMED = (("opening", ["r:-", "r:-"], "w:3,4/r:1/y:2/g:5/b:6"),
         ("mid-game", ["r:2,3,4,5/y:2,3/g:12,11,10/b:12,11",
                       "r:2,3,4/y:2,3,4,5/g:12,11/b:12,11,10,9"], "w:3,4/r:1/y:2/g:5/b:6"))


def timing(budget: int) -> None:
    """The CPU seconds of the default on early positions (where the budget binds)."""
    for name, sheets, roll in TIMED:
        state = position(sheets, roll)
        start = time.process_time()
        advice = advise_win_separated(state, 0, budget=budget)
        print(f"{name}: {time.process_time() - start:.2f} s CPU, {advice.rollouts} rounds of "
              f"{len(advice.choices)} choices, stopped: {advice.stopped}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=int, default=5000,
                        help="rollouts per choice of the reference (default 5000)")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--sample", type=float, default=0.25)
    parser.add_argument("--from-turn", type=int, default=20)
    parser.add_argument("--limit", type=int, default=0, help="at most this many positions")
    parser.add_argument("--seed", type=int, default=91, help="the games' seed")
    parser.add_argument("--skip-timing", action="store_true",
                        help="do not time the default on the two early positions first")
    parser.add_argument("--budget", type=int, default=SEPARATE_BUDGET,
                        help="the default's budget of players' decisions")
    args = parser.parse_args()
    TableAdvisor.for_ruleset(players=args.players, progress=False)
    if not args.skip_timing:
        advise_win_separated(position(*TIMED[0][1:]), 1, budget=10)  # warm the caches
        timing(args.budget)
    found = [(k, s, seat) for k, s, seat in positions(args.players, args.games, args.sample,
                                                      args.seed)
             if s.turn >= args.from_turn]
    if args.limit:
        found = found[: args.limit]
    print(f"{len(found)} decisions from turn {args.from_turn} of {args.games} games of win vs "
          f"win, {args.players} players; reference {args.reference} rollouts per choice, "
          f"default budget {args.budget} decisions", flush=True)
    separated = agreed = 0
    stops: Counter[str] = Counter()
    times: list[float] = []
    for kind, state, seat in found:
        ref = advise_win(state, seat, rollouts=args.reference, seed=10**9 + 7)
        best = ref.best
        key = position_after(state, seat, best.plan)
        others = [c for c in ref.choices[1:] if position_after(state, seat, c.plan) != key]
        if not others:
            continue
        second = others[0]
        if second.win_loss - Z95 * second.se_loss <= 0.0:
            continue
        separated += 1
        start = time.process_time()
        default = advise_win_separated(state, seat, budget=args.budget)
        times.append(time.process_time() - start)
        stops[default.stopped] += 1
        same = position_after(state, seat, default.best.plan) == key
        agreed += same
        print(f"  {kind:<8} turn {state.turn:>2}: reference {best.plan!s:<8} "
              f"{100 * best.win:5.1f}% vs {second.plan!s:<8} {100 * second.win:5.1f}%; "
              f"default {default.best.plan!s:<8} after {default.rollouts} rollouts "
              f"({default.stopped}){'' if same else '  DISAGREES'}", flush=True)
    if not separated:
        print("no position was separated by the reference")
        return
    lo, hi = wilson(agreed / separated, separated)
    print(f"separated by the reference: {separated} of {len(found)}; the default picked its "
          f"first choice in {agreed} = {100 * agreed / separated:.1f}% "
          f"(95% CI {100 * lo:.1f} to {100 * hi:.1f})")
    print(f"the default stopped: {dict(stops)}; CPU seconds median "
          f"{statistics.median(times):.2f}, largest {max(times):.2f}")


if __name__ == "__main__":
    main()
