"""Benchmark of ``review``: the proficiency figures of arena players, and what a review costs.

    python benchmarks/bench_review.py                       # 4 games of greedy vs solo
    python benchmarks/bench_review.py --games 10 --players greedy,win --win-rollouts 0

Plays ``--games`` seeded 2-player games between the arena players named by
``--players`` (dice from ``random.Random(seed + game)``), records them, and
reviews every seat by the table model of 2 players (``review --players 2``, the
default) and by the solitaire model (``--players 1``).  Prints per player the mean
expected-score loss per decision under both models (pooled over the games, with
the spread of the per-game means), and the time of one table review.  With
``--win-rollouts K`` > 0 it also reviews the first game's seat 0 with the win
objective (K rollouts per choice; 0: the win advice's default budget, None skips)
and prints its mean win chance lost with the 95% interval, the win advice's own
(in-sample) estimate of it, and the time it took.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from qwixx_math.arena.registry import make_player, player_seed
from qwixx_math.players.base import with_simultaneous_action1
from qwixx_math.record import GameRecord, TurnRecord
from qwixx_math.review import review_game
from qwixx_math.rules import Phase, new_game, random_roll
from qwixx_math.ruleset import Ruleset


def play(names: list[str], seed: int) -> GameRecord:
    """One game between the named arena players, recorded."""
    ruleset = Ruleset(players=len(names))
    players = [make_player(name, ruleset, player_seed(seed, s)) for s, name in enumerate(names)]
    rng = random.Random(seed)
    state = new_game(len(names))
    for s, player in enumerate(players):
        player.new_game(s, state)
    turns = []
    while not state.is_over:
        roll = random_roll(rng, state.dice_in_play)
        rolled = state.with_roll(roll)
        choices = [p.action1(s, rolled) for s, p in enumerate(players)]
        after = with_simultaneous_action1(rolled, choices)  # choices: what was applied
        a2 = None
        if after.phase is Phase.ACTION2:
            a2 = players[after.active].action2(after.active, after)
            try:
                state = after.with_action2(a2)
            except Exception:  # an illegal action 2 passes (the referee's rule)
                a2 = None
                state = after.with_action2(None)
        else:
            state = after
        turns.append(TurnRecord(rolled.active, roll, tuple(choices), a2))
    return GameRecord(tuple(f"{n}{s}" for s, n in enumerate(names)), ruleset, tuple(turns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="greedy,solo")
    parser.add_argument("--win-rollouts", type=int, default=None)
    args = parser.parse_args()
    names = args.players.split(",")
    per: dict[str, dict[str, list[float]]] = {}
    losses: dict[str, dict[str, list[float]]] = {}
    timing = []
    for g in range(args.games):
        record = play(names, args.seed + g)
        for s, name in enumerate(names):
            for model in (2, 1):
                t = time.perf_counter()
                review = review_game(record, s, table_size=model, progress=False)
                if model == 2:
                    timing.append(time.perf_counter() - t)
                key = f"--players {model}"
                per.setdefault(name, {}).setdefault(key, []).append(review.mean_loss)
                losses.setdefault(name, {}).setdefault(key, []).extend(
                    d.loss for d in review.decisions)
    for name in names:
        for key in ("--players 2", "--players 1"):
            games = per[name][key]
            spread = statistics.stdev(games) if len(games) > 1 else 0.0
            print(f"{name:>8} {key}: mean EV loss {statistics.fmean(losses[name][key]):.3f} "
                  f"points per decision over {len(losses[name][key])} decisions "
                  f"({len(games)} games; per-game means sd {spread:.3f})")
    print(f"table review of one seat: mean {statistics.fmean(timing):.3f} s over "
          f"{len(timing)} reviews (table loaded)")
    if args.win_rollouts is not None:
        record = play(names, args.seed)
        rollouts = args.win_rollouts or None
        t = time.perf_counter()
        review = review_game(record, 0, objective="win", rollouts=rollouts, seed=args.seed,
                             progress=False)
        took = time.perf_counter() - t
        ci = review.mean_win_ci95
        assert review.mean_win_loss is not None and ci is not None
        print(f"win review of {record.players[0]} ({len(review.decisions)} decisions, "
              f"rollouts {rollouts or 'default'}): win chance lost "
              f"{100 * review.mean_win_loss:.2f} percentage points per decision, 95% interval "
              f"[{100 * ci[0]:.2f}, {100 * ci[1]:.2f}]; {took:.1f} s")
        advice = [d.win_loss_advice or 0.0 for d in review.decisions]
        print(f"  the win advice's own estimate (the rollouts that ranked the choices): "
              f"{100 * statistics.fmean(advice):.2f} percentage points per decision")


if __name__ == "__main__":
    main()
