"""Agreement of ``advise --objective win``'s default with 5,000 rollouts (issue 35).

    python benchmarks/bench_win_separation.py                 # as recorded in docs/winning.md
    python benchmarks/bench_win_separation.py --games 1 --limit 3 --reference 200   # a smoke run
    python benchmarks/bench_win_separation.py --timing     # the default's CPU seconds only

``--timing`` prints the CPU seconds of the default on the opening roll and on a mid-game
roll (where the budget binds) and stops.

Positions: the decisions (a passive seat's white sum, the active seat's plan, the
active seat's action 2) of ``--games`` seeded games of ``win`` against ``win`` for
each number of players of ``--players`` (``bench_win_advice.positions``), each kept
with probability ``--sample``, then shuffled with ``--seed`` so that the opening,
mid and late game come in a mixed order (a run cut short is still a fair sample).
Stage: opening before turn 8, mid game before turn 20, late game from turn 20.

The reference (5,000 rollouts per choice, on common dice, with ``win`` players in
every seat, on another seed than the default's) is played as a race so that it is
affordable without being weakened where it matters:

* one choice per position (plans that mark the same cells lead to the same
  position: their rollouts are the same games);
* batches of ``--batch`` rollouts (the first a quarter of it) of every choice still in
  the race; after each, a choice whose paired difference to the leader lies ``--ref-
  drop-z`` (default 4) standard errors below 0 leaves the race (by chance about 3 in
  100,000 per look: it cannot be the first choice, and the first is separated from it
  far beyond the 95% that 5,000 rollouts ask for);
* a position whose race needs more than ``--cap`` CPU seconds is counted as undecided
  and printed (the price of an affordable run: it leaves out positions whose leading
  choices are very close, the hardest; the run says how many);
* the race ends when one choice is left (the reference separates it: every other
  one is 4 standard errors behind, which more rollouts would only confirm, up to the
  chance above) or when the choices left have ``--reference`` rollouts each: then the
  reference separates its first choice when the paired 95% interval against the
  second excludes 0 and the first is separated at 95% from every choice that left,
  over their common rollouts.

Each position the reference separates is advised by the default of the command line
(``advise_win_separated`` with its default arguments and seed 0, i.e. what ``qwixx-math
advise --objective win`` prints) and by the previous default (``--old-budget``
decisions, every choice in every round, no race), both timed in CPU seconds.  A
default agrees when its first choice is the reference's or leads to the same position.

Printed after every separated position: the running tally.  At the end: positions
tried, separated by the reference (and how: race left one / 5,000 rollouts), agreed
by each default, the share with its 95% Wilson interval, by stage and number of
players, how each default stopped, and its CPU seconds (median, largest).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_win_advice import positions

from qwixx_math.arena.registry import make_player, player_seed
from qwixx_math.position import position
from qwixx_math.rules import GameState
from qwixx_math.table import TableAdvisor
from qwixx_math.validation import game_seed
from qwixx_math.winadvice import (
    SEPARATE_BUDGET,
    advise_win_separated,
    paired,
    position_after,
    rollout_shares,
    wilson,
)

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054
#: The reference's seed (the default's is 0).
REF_SEED = 10**9 + 7


#: Positions timed first: the opening roll (37 choices) and a mid-game roll (29 choices).
TIMED = (("opening", ["r:-", "r:-"], "w:3,4/r:1/y:2/g:5/b:6"),
         ("mid-game", ["r:2,3,4,5/y:2,3/g:12,11,10/b:12,11",
                       "r:2,3,4/y:2,3,4,5/g:12,11/b:12,11,10,9"], "w:3,4/r:1/y:2/g:5/b:6"))


def timing() -> None:
    """The CPU seconds of the default on two early positions (where the budget binds)."""
    advise_win_separated(position(*TIMED[1][1:]), 0, budget=10)  # warm the caches
    for name, sheets, roll in TIMED:
        start = time.process_time()
        advice = advise_win_separated(position(sheets, roll), 0)
        print(f"{name}: {time.process_time() - start:.2f} s CPU, {advice.rollouts} rounds, "
              f"{sum(c.rollouts for c in advice.choices)} rollouts of "
              f"{len(advice.choices)} choices, stopped: {advice.stopped}", flush=True)


def stage(state: GameState) -> str:
    return "opening" if state.turn < 8 else "mid" if state.turn < 20 else "late"


def reference(state: GameState, seat: int, rollouts: int, batch: int, drop_z: float,
              cap: float) -> tuple[object, str, int] | str | None:
    """(the reference's first position, how it was separated, rollouts played in all), or
    None when the reference does not separate its first choice, or ``"cap"`` when it
    needed more than ``cap`` CPU seconds."""
    start = time.process_time()
    advice = TableAdvisor.for_ruleset(state.ruleset, players=state.players,
                                      progress=False).advise_player(state, seat)
    plans, keys, seen = [], [], set()
    for r in advice.plans:
        key = position_after(state, seat, r.plan)
        if key not in seen:
            seen.add(key)
            plans.append(r.plan)
            keys.append(key)
    if len(plans) < 2:
        return None
    players = [make_player("win", state.ruleset, player_seed(REF_SEED, s))
               for s in range(state.players)]
    shares: list[list[float]] = [[] for _ in plans]
    alive = list(range(len(plans)))
    b = played = 0
    while True:
        size = batch if b else max(2, batch // 4)  # a small first batch: many choices
        got, _ = rollout_shares(state, seat, [plans[c] for c in alive], players,
                                min(size, rollouts - len(shares[alive[0]])),
                                game_seed(REF_SEED, b))
        b += 1
        for c, g in zip(alive, got, strict=True):
            shares[c].extend(g)
            played += len(g)
        mean = {c: math.fsum(shares[c]) / len(shares[c]) for c in alive}
        leader = max(alive, key=lambda c: mean[c])
        alive = [c for c in alive if c == leader or (
            lambda m_se: m_se[0] - drop_z * m_se[1] <= 0.0)(paired(shares[leader], shares[c]))]
        if len(alive) == 1:
            return keys[leader], "race", played
        if time.process_time() - start > cap:
            return "cap"
        if len(shares[leader]) >= rollouts:
            order = sorted(alive, key=lambda c: -mean[c])
            best = order[0]
            for c in range(len(plans)):
                if c != best:
                    m, se = paired(shares[best], shares[c])
                    if m - Z95 * se <= 0.0:
                        return None
            return keys[best], "5000" if rollouts == 5000 else f"{rollouts}", played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=int, default=5000,
                        help="rollouts per choice of the reference (default 5000)")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--ref-drop-z", type=float, default=4.0)
    parser.add_argument("--games", type=int, default=3, help="games per number of players")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--sample", type=float, default=0.3)
    parser.add_argument("--limit", type=int, default=0, help="at most this many positions")
    parser.add_argument("--seed", type=int, default=35, help="the games' and shuffle's seed")
    parser.add_argument("--cap", type=float, default=60.0,
                        help="CPU seconds of the reference per position, at most (a position "
                             "that needs more is counted as undecided, not used)")
    parser.add_argument("--deadline", type=float, default=0.0,
                        help="wall seconds after which no new position is tried (0: none)")
    parser.add_argument("--from-turn", type=int, default=0,
                        help="only positions from this turn on")
    parser.add_argument("--timing", action="store_true",
                        help="only time the default on the opening and a mid-game roll")
    parser.add_argument("--old-budget", type=int, default=9000,
                        help="the previous default's budget (0: do not run it)")
    args = parser.parse_args()
    if args.timing:
        TableAdvisor.for_ruleset(players=2, progress=False)
        timing()
        return
    found = []
    for n in args.players:
        TableAdvisor.for_ruleset(players=n, progress=False)
        found += [(n, k, s, seat) for k, s, seat in positions(n, args.games, args.sample,
                                                              args.seed)]
    found = [f for f in found if f[2].turn >= args.from_turn]
    random.Random(args.seed).shuffle(found)
    if args.limit:
        found = found[: args.limit]
    print(f"{len(found)} decisions of {args.games} games of win vs win per number of players "
          f"{args.players}: {dict(Counter(stage(s) for _, _, s, _ in found))}; reference "
          f"{args.reference} rollouts per choice (race, drop at z={args.ref_drop_z}), default "
          f"budget {SEPARATE_BUDGET} decisions", flush=True)
    advise_win_separated(found[0][2], found[0][3], budget=10)  # warm the caches
    wall = time.time()
    tried = separated = 0
    how: Counter[str] = Counter()
    agreed: dict[str, int] = defaultdict(int)
    groups: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    stops: dict[str, Counter[str]] = defaultdict(Counter)
    times: dict[str, list[float]] = defaultdict(list)
    variants = {"new": {}}
    if args.old_budget:
        variants["old"] = {"budget": args.old_budget, "drop_z": None, "model_keep": None}
    capped = 0
    for n, kind, state, seat in found:
        if args.deadline and time.time() - wall > args.deadline:
            print(f"deadline: {len(found) - tried} positions not tried", flush=True)
            break
        tried += 1
        start = time.process_time()
        ref = reference(state, seat, args.reference, args.batch, args.ref_drop_z, args.cap)
        ref_s = time.process_time() - start
        if isinstance(ref, str):
            capped += 1
            print(f"  {n}p {stage(state):<7} turn {state.turn:>2} {kind:<7}: undecided at the "
                  f"cap ({ref_s:.0f} s)", flush=True)
            continue
        if ref is None:
            print(f"  {n}p {stage(state):<7} turn {state.turn:>2} {kind:<7}: not separated "
                  f"({ref_s:.0f} s)", flush=True)
            continue
        key, way, played = ref
        separated += 1
        how[way] += 1
        line = []
        for name, kw in variants.items():
            start = time.process_time()
            default = advise_win_separated(state, seat, **kw)  # type: ignore[arg-type]
            times[name].append(time.process_time() - start)
            stops[name][default.stopped] += 1
            same = position_after(state, seat, default.best.plan) == key
            agreed[name] += same
            if name == "new":
                for g in (stage(state), f"{n}p"):
                    groups[(name, g)][0] += same
                    groups[(name, g)][1] += 1
            line.append(f"{name} {default.best.plan!s} {default.stopped}"
                        f"{'' if same else ' DISAGREES'}")
        print(f"  {n}p {stage(state):<7} turn {state.turn:>2} {kind:<7}: separated ({way}, "
              f"{played} rollouts, {ref_s:.0f} s); " + "; ".join(line)
              + f"; so far {agreed['new']}/{separated} new, {agreed['old']}/{separated} old "
              f"of {tried} tried, {time.time() - wall:.0f} s", flush=True)
    print(f"positions tried: {tried}; separated by the reference: {separated} ({dict(how)}); "
          f"undecided at the cap of {args.cap:g} CPU s: {capped}")
    if not separated:
        print("no position was separated by the reference")
        return
    for name in variants:
        k = agreed[name]
        lo, hi = wilson(k / separated, separated)
        print(f"{name} default: picked the reference's first choice in {k} of {separated} = "
              f"{100 * k / separated:.1f}% (95% CI {100 * lo:.1f} to {100 * hi:.1f}); "
              f"stopped: {dict(stops[name])}; CPU seconds median "
              f"{statistics.median(times[name]):.2f}, largest {max(times[name]):.2f}")
    print("new default by group: " + ", ".join(
        f"{g} {a}/{t}" for (name, g), (a, t) in sorted(groups.items())))


if __name__ == "__main__":
    main()
