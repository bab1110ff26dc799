"""Benchmark of advice that plays to win (``advise_win``): time per decision, CI widths.

    python benchmarks/bench_win_advice.py                    # default count, 8 and 32
    python benchmarks/bench_win_advice.py --rollouts 0 16 64 --games 8 --players 3

Positions: every decision (a passive seat's white sum, the active seat's plan, the
active seat's action 2) met in ``--games`` seeded games of ``win`` against ``win``
is kept with probability ``--sample``.  Each is advised with every rollout count
given (``0`` = the default count, which fits a budget of players' decisions), the
``win`` player in every seat of the rollouts.  Printed per count: the CPU seconds
per decision (median, 90th and 99th percentiles, largest; also for the active seat's plans
alone, the slowest kind), the rollouts played, and the precision: the mean width
of the best choice's 95% interval and the mean standard error of the difference
between the two best choices (common dice make it much smaller than the interval).
Run it with ``nice``; the figures are in docs/winning.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from qwixx_math.arena.registry import make_player
from qwixx_math.model import Mark
from qwixx_math.play import Dice, play
from qwixx_math.players.base import Player
from qwixx_math.rules import GameState, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.table import TableAdvisor
from qwixx_math.winadvice import DEFAULT_BUDGET, advise_win


class _Sampling:
    """A seat that keeps each decision it is asked with probability ``sample``."""

    def __init__(self, player: Player, rng: random.Random, sample: float,
                 out: list[tuple[str, GameState, int]]) -> None:
        self.player, self.rng, self.sample, self.out = player, rng, sample, out
        self.name = player.name

    def new_game(self, seat: int, state: GameState) -> None: ...

    def game_over(self, seat: int, state: GameState) -> None: ...

    def action1(self, seat: int, state: GameState) -> Mark | None:
        if self.rng.random() < self.sample:
            self.out.append(("plan" if seat == state.active else "passive", state, seat))
        return self.player.action1(seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        if self.rng.random() < self.sample:
            self.out.append(("action2", state, seat))
        return self.player.action2(seat, state)


def positions(players: int, games: int, sample: float, seed: int
              ) -> list[tuple[str, GameState, int]]:
    """(kind, state, seat) of sampled decisions of seeded ``win`` games (the one loop, on
    the dice of the deals of an arena match with ``seed``)."""
    rs = Ruleset(players)
    rng = random.Random(seed)
    out: list[tuple[str, GameState, int]] = []
    seats = [_Sampling(make_player("win", rs, s), rng, sample, out) for s in range(players)]
    for g in range(games):
        play(seats, new_game(ruleset=rs), Dice.deal(seed, g))
    return out


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, nargs="+", default=[0, 8, 32],
                        help="rollouts per choice to try (0: the default count)")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--sample", type=float, default=0.12)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                        help="players' decisions of the default count (0 in --rollouts)")
    args = parser.parse_args()
    TableAdvisor.for_ruleset(players=args.players, progress=False)
    found = positions(args.players, args.games, args.sample, args.seed)
    kinds = {k: sum(1 for f in found if f[0] == k) for k in ("plan", "passive", "action2")}
    print(f"{len(found)} decisions from {args.games} games of win vs win, {args.players} "
          f"players: {kinds}")
    advise_win(*found[0][1:], rollouts=2)  # warm the caches (tables, the model)
    print(f"{'rollouts':>8} {'median s':>9} {'p90 s':>7} {'p99 s':>7} {'max s':>7} "
          f"{'plan med':>9} "
          f"{'plan max':>9} {'played':>7} {'CI width':>9} {'se diff':>8}")
    for k in args.rollouts:
        times: list[float] = []
        plan_times: list[float] = []
        played: list[int] = []
        widths: list[float] = []
        se_diff: list[float] = []
        for kind, state, seat in found:
            start = time.process_time()
            advice = advise_win(state, seat, rollouts=k or None, seed=1,
                                budget=args.budget)
            spent = time.process_time() - start
            times.append(spent)
            if kind == "plan":
                plan_times.append(spent)
            played.append(advice.rollouts)
            best = advice.best
            if not best.exact:
                widths.append(best.ci95[1] - best.ci95[0])
            if len(advice.choices) > 1 and not advice.choices[1].exact:
                se_diff.append(advice.choices[1].se_loss)
        label = "default" if k == 0 else str(k)
        print(f"{label:>8} {statistics.median(times):9.3f} {_q(times, 0.9):7.3f} "
              f"{_q(times, 0.99):7.3f} "
              f"{max(times):7.3f} {statistics.median(plan_times or [0.0]):9.3f} "
              f"{max(plan_times or [0.0]):9.3f} {statistics.median(played):7.0f} "
              f"{statistics.mean(widths or [0.0]):9.3f} {statistics.mean(se_diff or [0.0]):8.3f}",
              flush=True)


if __name__ == "__main__":
    main()
