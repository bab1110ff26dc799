"""Agreement of ``advise --objective win``'s default with 5,000 rollouts (issue 35).

    python benchmarks/bench_win_separation.py                 # as recorded in docs/winning.md
    python benchmarks/bench_win_separation.py --games 1 --limit 3 --reference 200   # a smoke run
    python benchmarks/bench_win_separation.py --timing     # the default's CPU seconds only

Iterating is cheap with a saved reference (the reference does not depend on the default):

    nice python benchmarks/bench_win_separation.py --cap 60 --limit 91 --deadline 2700 \
        --save-reference research/win_separation_reference.json --reference-only
    python benchmarks/bench_win_separation.py \
        --reference-file research/win_separation_reference.json   # the default only

``--save-reference FILE`` rewrites FILE (JSON: the arguments that choose the positions and
the reference, and each position tried with its result) after every position, so a run
cut short keeps what it played; position i of the file is position i of the same
arguments with ``--limit i+1``. ``--reference-file FILE`` replays the default on those
positions without playing the reference again (its arguments replace the command line's).

``--timing`` prints the CPU seconds of the default on the opening roll and on a mid-game
roll (where the budget binds) and stops.  ``--budget D`` and ``--model-sd S`` measure
another budget of decisions and another prior standard deviation of the model after a
budget stop (``--model-sd 0``: the rollouts alone), for ``--timing`` too.

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
import json
import math
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_win_advice import positions

from qwixx_math.arena.registry import make_player, player_seed
from qwixx_math.model import TurnPlan
from qwixx_math.notation import format_plan, parse_plan
from qwixx_math.position import position
from qwixx_math.rules import GameState
from qwixx_math.table import TableAdvisor
from qwixx_math.validation import game_seed
from qwixx_math.winadvice import (
    SEPARATE_BUDGET,
    SEPARATE_MODEL_SD,
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


def timing(budget: int = SEPARATE_BUDGET) -> None:
    """The CPU seconds of the default (or of ``budget`` decisions) on two early positions
    (where the budget binds)."""
    advise_win_separated(position(*TIMED[1][1:]), 0, budget=10)  # warm the caches
    for name, sheets, roll in TIMED:
        start = time.process_time()
        advice = advise_win_separated(position(sheets, roll), 0, budget=budget)
        print(f"{name}: {time.process_time() - start:.2f} s CPU, budget {budget}, "
              f"{advice.rollouts} rounds, "
              f"{sum(c.rollouts for c in advice.choices)} rollouts of "
              f"{len(advice.choices)} choices, stopped: {advice.stopped}", flush=True)


def stage(state: GameState) -> str:
    return "opening" if state.turn < 8 else "mid" if state.turn < 20 else "late"


def reference(state: GameState, seat: int, rollouts: int, batch: int, drop_z: float,
              cap: float) -> tuple[TurnPlan, str, int] | str | None:
    """(the reference's first choice, how it was separated, rollouts played in all), or
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
            return plans[leader], "race", played
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
            return plans[best], "5000" if rollouts == 5000 else f"{rollouts}", played


#: The arguments that decide the positions and the reference (saved with it, checked on load).
SAVED_ARGS = ("reference", "batch", "ref_drop_z", "games", "players", "sample", "limit", "seed",
              "cap", "from_turn", "skip")


def _load_reference(path: str, args: argparse.Namespace) -> dict[int, dict[str, Any]]:
    """The saved reference results of ``path`` by position index; the file's arguments
    replace the command line's."""
    data = json.loads(Path(path).read_text())
    for name in SAVED_ARGS:
        if name in data["args"]:  # files written before --skip have none (0)
            setattr(args, name, data["args"][name])
    return {r["index"]: r for r in data["positions"]}


def _save_reference(path: str, args: argparse.Namespace, saved: list[dict[str, Any]]) -> None:
    """Write the reference results so far (whole file, replaced atomically)."""
    out = Path(path)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(json.dumps({"args": {name: getattr(args, name) for name in SAVED_ARGS},
                               "positions": saved}, indent=1) + "\n")
    tmp.replace(out)


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
    parser.add_argument("--skip", type=int, default=0,
                        help="leave out the first SKIP positions (numbered as without it: a "
                             "reference of positions a saved file does not hold)")
    parser.add_argument("--from-turn", type=int, default=0,
                        help="only positions from this turn on")
    parser.add_argument("--timing", action="store_true",
                        help="only time the default on the opening and a mid-game roll")
    parser.add_argument("--budget", type=int, default=SEPARATE_BUDGET,
                        help="the new default's budget of players' decisions (default: the "
                             "library's, SEPARATE_BUDGET)")
    parser.add_argument("--model-sd", type=float, default=SEPARATE_MODEL_SD,
                        help="the new default's prior standard deviation of the model after a "
                             "budget stop (0: rank by the rollouts alone)")
    parser.add_argument("--old-budget", type=int, default=0,
                        help="also run the default before the race with this budget (0: no)")
    parser.add_argument("--save-reference", metavar="FILE",
                        help="write the reference's result of every position tried to FILE "
                             "(JSON, rewritten after each position)")
    parser.add_argument("--reference-only", action="store_true",
                        help="with --save-reference: play the reference only, no default")
    parser.add_argument("--reference-file", metavar="FILE",
                        help="read the reference's results from FILE (written by "
                             "--save-reference; its arguments replace these) instead of "
                             "playing them: only the default is played")
    args = parser.parse_args()
    if args.timing:
        TableAdvisor.for_ruleset(players=2, progress=False)
        timing(args.budget)
        return
    loaded = _load_reference(args.reference_file, args) if args.reference_file else None
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
          f"{args.reference} rollouts per choice (race, drop at z={args.ref_drop_z}"
          f"{', read from ' + args.reference_file if args.reference_file else ''}), default "
          f"budget {args.budget} decisions, model prior sd {args.model_sd:g}", flush=True)
    advise_win_separated(found[0][2], found[0][3], budget=10)  # warm the caches
    wall = time.time()
    tried = separated = 0
    how: Counter[str] = Counter()
    agreed: dict[str, int] = defaultdict(int)
    groups: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    stops: dict[str, Counter[str]] = defaultdict(Counter)
    times: dict[str, list[float]] = defaultdict(list)
    new: dict[str, Any] = {}
    if args.budget != SEPARATE_BUDGET:
        new["budget"] = args.budget
    if args.model_sd != SEPARATE_MODEL_SD:
        new["model_sd"] = args.model_sd or None
    variants: dict[str, dict[str, Any]] = {} if args.reference_only else {"new": new}
    if args.old_budget and not args.reference_only:
        variants["old"] = {"budget": args.old_budget, "drop_z": None, "model_keep": None}
    saved: list[dict[str, Any]] = []
    capped = 0
    for index, (n, kind, state, seat) in enumerate(found):
        if index < args.skip:
            continue
        if loaded is not None and index not in loaded:
            break  # the saved run stopped here
        if args.deadline and time.time() - wall > args.deadline:
            print(f"deadline: {len(found) - tried} positions not tried", flush=True)
            break
        tried += 1
        where = f"  {n}p {stage(state):<7} turn {state.turn:>2} {kind:<7}"
        if loaded is None:
            start = time.process_time()
            ref = reference(state, seat, args.reference, args.batch, args.ref_drop_z,
                            args.cap)
            ref_s = time.process_time() - start
            saved.append({"index": index, "players": n, "turn": state.turn, "kind": kind,
                          "seat": seat, "seconds": round(ref_s, 1),
                          "result": ref if ref is None or isinstance(ref, str) else
                          {"plan": format_plan(ref[0]), "way": ref[1], "played": ref[2]}})
            if args.save_reference:
                _save_reference(args.save_reference, args, saved)
        else:
            row = loaded[index]
            if (row["players"], row["turn"], row["kind"], row["seat"]) != (
                    n, state.turn, kind, seat):
                raise SystemExit(f"{args.reference_file}: position {index} is not the one of "
                                 "these arguments")
            ref_s = row["seconds"]
            result = row["result"]
            ref = result if result is None or isinstance(result, str) else (
                parse_plan(result["plan"]), result["way"], result["played"])
        if isinstance(ref, str):
            capped += 1
            print(f"{where}: undecided at the cap ({ref_s:.0f} s)", flush=True)
            continue
        if ref is None:
            print(f"{where}: not separated ({ref_s:.0f} s)", flush=True)
            continue
        plan, way, played = ref
        key = position_after(state, seat, plan)
        separated += 1
        how[way] += 1
        line = []
        for name, kw in variants.items():
            start = time.process_time()
            default = advise_win_separated(state, seat, **kw)
            times[name].append(time.process_time() - start)
            stops[name][default.stopped] += 1
            same = position_after(state, seat, default.best.plan) == key
            agreed[name] += same
            if name == "new":
                for g in (stage(state), f"{n}p"):
                    groups[(name, g)][0] += same
                    groups[(name, g)][1] += 1
            line.append(f"{name} {default.best.plan!s} {default.stopped} "
                        f"{default.rollouts} rounds{'' if same else ' DISAGREES'}")
        print(f"{where}: separated ({way} {plan!s}, {played} rollouts, {ref_s:.0f} s); "
              + "; ".join(line) + "; so far " + ", ".join(
                  f"{agreed[name]}/{separated} {name}" for name in variants)
              + f" of {tried} tried, {time.time() - wall:.0f} s", flush=True)
    print(f"positions tried: {tried}; separated by the reference: {separated} ({dict(how)}); "
          f"undecided at the cap of {args.cap:g} CPU s: {capped}")
    if not separated or not variants:
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
