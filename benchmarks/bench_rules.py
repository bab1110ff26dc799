"""Benchmark of the reference rules core: random legal 4-player games, single process.

    python benchmarks/bench_rules.py                 # every pad, 2000 games per chooser, best of 3
    python benchmarks/bench_rules.py --games 500 --repeat 1 --players 2 --layout official
    python benchmarks/bench_rules.py --layout big-points --chooser uniform   # the goal's figure

Prints, for each chooser, games per second, turns per second, the mean number
of turns per game and how the games ended.  ``uniform`` is the library's
``uniform_chooser`` (everyone picks uniformly among passing and each legal
mark): it almost never closes a row, so games end by four penalties (R13).
``small-skips`` marks only numbers that skip at most one box (three for an
active player facing a penalty), so rows close and games are longer.

The figure is the best of ``--repeat`` runs (the machine is shared; the load
average is printed too), in games per second of wall-clock time and, steadier on a
loaded machine, per second of this process's CPU time.  The goal for the uniform
chooser is >= 1,000 games/s on every pad (issue 34): ``--layout`` names one pad (or a
layout file), ``all`` (the default) runs every pad of :data:`~qwixx_math.layouts.LAYOUTS`
in turn.  ``benchmarks/bench_rules_instructions.py`` counts the instructions a game takes
(valgrind's cachegrind), a figure the load does not move.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections import Counter
from collections.abc import Sequence

from qwixx_math.layouts import LAYOUTS, SheetLayout, layout_named
from qwixx_math.model import Mark
from qwixx_math.record import Chooser, GameRecord, random_game, uniform_chooser
from qwixx_math.rules import GameState, Phase, closes
from qwixx_math.ruleset import Ruleset


def small_skips(state: GameState, player: int, legal: Sequence[Mark],
                rng: random.Random) -> Mark | None:
    """The legal mark skipping the fewest boxes, if it skips at most 1 (3 to avoid a penalty)."""
    if not legal:
        return None
    sheet = state.sheets[player]
    layout = state.layout

    def skipped(mark: Mark) -> int:
        position = layout.position(mark.colour, mark.number)
        if closes(layout, mark) or position is None:
            return 0
        return position - sheet.masks[layout.row_index(mark.colour)].bit_length()

    best = min(legal, key=skipped)
    facing_penalty = (state.phase is Phase.ACTION2 and state.action1 is not None
                      and state.action1[player] is None)
    return best if skipped(best) <= (3 if facing_penalty else 1) else None


CHOOSERS: dict[str, Chooser] = {"uniform": uniform_chooser, "small-skips": small_skips}


def run(ruleset: Ruleset, chooser: Chooser, games: int, seed0: int,
        layout: SheetLayout) -> tuple[float, float, list[GameRecord]]:
    """Wall and CPU seconds of ``games`` seeded games, and their records."""
    start, cpu = time.perf_counter(), time.process_time()
    records = [random_game(ruleset=ruleset, seed=seed0 + k, chooser=chooser, layout=layout)
               for k in range(games)]
    return time.perf_counter() - start, time.process_time() - cpu, records


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--layout", default="all",
                        help="a pad's name or layout file, or 'all' (every pad, the default)")
    parser.add_argument("--chooser", default="all", choices=[*CHOOSERS, "all"],
                        help="the chooser to run (default: all)")
    args = parser.parse_args(argv)
    choosers = CHOOSERS if args.chooser == "all" else {args.chooser: CHOOSERS[args.chooser]}
    ruleset = Ruleset(args.players)
    layouts = list(LAYOUTS.values()) if args.layout == "all" else [layout_named(args.layout)]
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"rules core benchmark: {args.players} players, official rules, {args.games} games "
          f"per run, best of {args.repeat}; Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    slowest = slowest_cpu = float("inf")
    for layout in layouts:
        print(f"pad {layout.name}:")
        for name, chooser in choosers.items():
            best = best_cpu = float("inf")
            records: list[GameRecord] = []
            for _ in range(args.repeat):
                elapsed, cpu, records = run(ruleset, chooser, args.games, 0, layout)
                best, best_cpu = min(best, elapsed), min(best_cpu, cpu)
            turns = sum(len(r.turns) for r in records)
            ends = Counter(r.result.ended_by if r.result else None for r in records)
            ended = ", ".join(f"{rule} {n}/{len(records)}"
                              for rule, n in sorted(ends.items(), key=lambda kv: str(kv[0])))
            print(f"  {name:<12} {args.games / best:8.0f} games/s  "
                  f"({args.games / best_cpu:5.0f} per CPU second)  {turns / best:8.0f} "
                  f"turns/s  {turns / len(records):5.1f} turns/game  ended by: {ended}",
                  flush=True)
            if name == "uniform":
                slowest = min(slowest, args.games / best)
                slowest_cpu = min(slowest_cpu, args.games / best_cpu)
    print(f"slowest pad, uniform chooser: {slowest:.0f} games/s, {slowest_cpu:.0f} per CPU "
          "second (goal >= 1,000 games/s; on a loaded machine the wall-clock figure falls and "
          "the CPU figure is the steadier one)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
