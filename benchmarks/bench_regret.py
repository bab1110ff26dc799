"""How much a one-step search over ``win`` could still gain: the regret of its choices.

    python benchmarks/bench_regret.py                         # against greedy, 20 deals
    python benchmarks/bench_regret.py --against racer --deals 12 --seed 5
    python benchmarks/bench_regret.py --deals 4 --rollouts 40 --top 3 --every 4   # quick

``win`` plays seat-rotated games against one opponent, each deal on the dice of
``Dice.seeded(seed * 1_000_003 + g)`` (the one game loop, :func:`qwixx_math.play.play`;
the figures of research/NOTEBOOK.md were measured on the dice of the harness before
it, drawn with ``randint``).  At
every ``--every``-th decision of ``win``'s seat in the action-1 phase that has two
choices or more (the active seat's plan, a passive seat's white sum), the ``--top``
choices that ``win``'s model ranks highest are each played out ``2 * --rollouts`` times
to the end of the game on common dice, by
:func:`qwixx_math.winadvice.rollout_shares` (the rollouts of ``advise_win``): ``win``
plays its own seat's later decisions and the **real opponent** plays the other seat (an
oracle of the opponent's policy, which ``win`` itself does not have).

The **regret** of a decision is what the rollouts' best choice gains over ``win``'s own
choice.  Choosing the best on the same rollouts that measure it biases the gain upwards
(the largest of noisy means), so two figures are printed:

* **split** (unbiased for a player that searches with ``--rollouts`` rollouts): the
  best choice by its mean over the first half of the rollouts, its gain over ``win``'s
  choice measured on the second half;
* **max** (biased upwards, an upper estimate): the largest mean over all the rollouts
  minus ``win``'s choice's mean.

Summed over a game's decisions (times ``--every``, for the decisions not sampled), the
regret estimates how much a player that replaced each of ``win``'s choices by the
rollouts' best would win more, per game (the performance-difference identity: the sum of
one-step advantages along the games, read here along ``win``'s own games).  The 95%
intervals are over games.  A decision whose gain is more than 3 paired standard errors
is printed as a blunder.  The figures are in research/NOTEBOOK.md ("How much search could
still gain").
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence

from qwixx_math.arena.registry import make_player
from qwixx_math.model import Mark, TurnPlan
from qwixx_math.notation import format_colours, format_plan, format_roll, format_sheet
from qwixx_math.play import Dice, play
from qwixx_math.players.base import Player
from qwixx_math.players.win import WinPlayer
from qwixx_math.rules import GameState, legal_action1, legal_plans, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.winadvice import rollout_shares


def ranked_choices(win: WinPlayer, state: GameState, seat: int) -> list[tuple[TurnPlan, float]]:
    """``seat``'s choices in the ACTION1 ``state`` with ``win``'s values, best first (ties in
    the rules core's order, as ``win`` breaks them): the active seat's plans, a passive
    seat's white sums as ``TurnPlan(mark, None)``."""
    nxt = (state.active + 1) % state.players
    plans: list[TurnPlan]
    edits: list[tuple[Sequence[Mark | None], bool]]
    if seat == state.active:
        plans = list(legal_plans(state))
        edits = [((p.action1, p.action2), p.penalty) for p in plans]
    else:
        marks: list[Mark | None] = [None, *legal_action1(state, seat)]
        plans = [TurnPlan(m, None) for m in marks]
        edits = [((m,), False) for m in marks]
    values = win.choice_values(seat, state.sheets, state.closed, edits, nxt)
    order = sorted(range(len(plans)), key=lambda i: (-values[i], i))
    return [(plans[i], values[i]) for i in order]


def regret(state: GameState, seat: int, plans: list[TurnPlan], players: list[Player],
           rollouts: int, seed: int) -> tuple[float, float, float, TurnPlan, TurnPlan]:
    """(split regret, max regret, z of the max's paired difference, win's plan, the
    rollouts' best plan) of ``seat``'s decision in ``state`` among ``plans`` (two or
    more, ``win``'s choice first)."""
    shares, _ = rollout_shares(state, seat, plans, players, 2 * rollouts, seed)
    first = [statistics.fmean(s[:rollouts]) for s in shares]
    pick = max(range(len(plans)), key=lambda i: (first[i], -i))
    split = statistics.fmean(a - b for a, b in zip(shares[pick][rollouts:],
                                                  shares[0][rollouts:], strict=True))
    full = [statistics.fmean(s) for s in shares]
    best = max(range(len(plans)), key=lambda i: (full[i], -i))
    diff = [a - b for a, b in zip(shares[best], shares[0], strict=True)]
    sd = statistics.stdev(diff)
    z = statistics.fmean(diff) / (sd / math.sqrt(len(diff))) if sd > 0 else 0.0
    return split, full[best] - full[0], z, plans[0], plans[best]


class _Sampler:
    """``win`` in ``seat``: at every ``--every``-th of its action-1 decisions with two choices
    or more, the regret of its choice is measured (:func:`regret`) before it answers."""

    def __init__(self, win: WinPlayer, seat: int, players: list[Player],
                 args: argparse.Namespace, g: int, deal: int) -> None:
        self.win, self.seat, self.players, self.args = win, seat, players, args
        self.g, self.deal, self.name = g, deal, win.name
        self.asked = self.blunders = 0
        self.splits: list[float] = []
        self.maxes: list[float] = []

    def new_game(self, seat: int, state: GameState) -> None: ...

    def game_over(self, seat: int, state: GameState) -> None: ...

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return self.win.action2(seat, state)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        args = self.args
        ranked = ranked_choices(self.win, state, seat)
        if len(ranked) >= 2:
            self.asked += 1
            if self.asked % args.every == 0:
                split, top_gain, z, mine, best = regret(
                    state, seat, [p for p, _ in ranked[:args.top]], self.players,
                    args.rollouts, self.deal * 1000 + self.asked)
                self.splits.append(split)
                self.maxes.append(top_gain)
                if z > 3:
                    self.blunders += 1
                    roll = state.roll
                    assert roll is not None
                    print(f"  blunder: deal {self.g}, seat {seat} "
                          f"({'active' if seat == state.active else 'passive'}), "
                          f"win {format_plan(mine)}, rollouts {format_plan(best)} "
                          f"+{top_gain:.3f} (z {z:.1f}); roll "
                          f"{format_roll(roll)}, closed "
                          f"{format_colours(state.closed)}, sheets "
                          + " | ".join(format_sheet(sh) for sh in state.sheets),
                          flush=True)
        return self.win.action1(seat, state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", default="greedy", help="the opponent (an arena name)")
    ap.add_argument("--deals", type=int, default=20, help="deals, each in both seatings")
    ap.add_argument("--seed", type=int, default=5, help="deals seed * 1_000_003 + g")
    ap.add_argument("--rollouts", type=int, default=100,
                    help="rollouts per half (each choice is played out twice as often)")
    ap.add_argument("--top", type=int, default=5, help="win's best choices compared")
    ap.add_argument("--every", type=int, default=2, help="sample every N-th decision")
    args = ap.parse_args()
    rs = Ruleset(players=2)
    win = WinPlayer(rs)
    splits: list[float] = []
    maxes: list[float] = []
    per_game_split: list[float] = []
    per_game_max: list[float] = []
    blunders = 0
    start = time.perf_counter()
    for g in range(args.deals):
        deal = args.seed * 1_000_003 + g
        for seat in (0, 1):
            players: list[Player] = [win, win]
            players[1 - seat] = make_player(args.against, rs, 1)
            sampler = _Sampler(win, seat, players, args, g, deal)
            seats = list(players)
            seats[seat] = sampler
            play(seats, new_game(ruleset=rs), Dice.seeded(deal))
            splits.extend(sampler.splits)
            maxes.extend(sampler.maxes)
            blunders += sampler.blunders
            per_game_split.append(args.every * sum(sampler.splits))
            per_game_max.append(args.every * sum(sampler.maxes))
        n = len(per_game_split)
        print(f"after {g + 1} deals ({n} games, {len(splits)} decisions, "
              f"{time.perf_counter() - start:.0f} s): per game split "
              f"{_mean_ci(per_game_split)}, max {_mean_ci(per_game_max)}; "
              f"blunders {blunders}", flush=True)
    print(f"win vs {args.against}: {len(splits)} decisions sampled (every {args.every}), "
          f"{args.rollouts} + {args.rollouts} rollouts of the top {args.top}; gain per game "
          f"of the one-step search: split {_mean_ci(per_game_split)} (unbiased), "
          f"max {_mean_ci(per_game_max)} (upper estimate); per decision split "
          f"{statistics.fmean(splits):+.4f}, max {statistics.fmean(maxes):+.4f}")


def _mean_ci(values: list[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:+.3f}" if values else "-"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):+.3f} ± {half:.3f}"


if __name__ == "__main__":
    main()
