"""Benchmark of the arena: games per second between built-in players on one core.

    python benchmarks/bench_arena.py [--games N] [--seed S] [--players NAME ...] [--profile]
                                     [--layout NAME] [--pads [--pad NAME ...]]

Plays ``--games`` games (default 2,000) of each pairing (default: greedy-greedy,
greedy-random, random-random heads-up, then greedy x 4) through the referee
(:func:`qwixx_math.arena.play_match`: the rules core checks every choice) and
prints games per second (wall clock, and per second of this process's CPU time,
which a shared machine disturbs less), mean turns per game and CPU microseconds
per turn, with the load average.  ``--players`` times one pairing of your
choice instead; ``--profile`` prints the top of a cProfile of it; ``--layout`` plays
on another sheet (``double-b``, ...).  ``--pads`` plays a short match of greedy
against each player that reads the layout itself (racer, the example bot) on
every published pad (and ``longo:5,13``, Longo with lucky numbers; ``--pad NAME`` for
only some) and prints each one's mean score and win rate with its 95% interval
(issue 34: the figures of docs/arena.md).  The goal of issue 12: >= 200
two-player games per second between built-in fast players.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_math.arena import open_players, play_match, report  # noqa: E402
from qwixx_math.layouts import LAYOUTS  # noqa: E402
from qwixx_math.ruleset import Ruleset  # noqa: E402

PAIRINGS = (("greedy", "greedy"), ("greedy", "random"), ("random", "random"),
            ("greedy", "greedy", "greedy", "greedy"))


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


#: The example bot, as an arena name.
BOT = f"exec:{sys.executable} {ROOT / 'examples' / 'arena_bot.py'}"


#: The pads of ``--pads``: every published one, and Longo with lucky numbers.
PADS = (*LAYOUTS, "longo:5,13")


def pads(games: int, seed: int, only: list[str] | None = None) -> None:
    """Greedy against each player that reads the layout itself, on every pad (or those of
    ``only``)."""
    for layout in only or PADS:
        for other in ("racer", BOT):
            names = ["greedy", other]
            with open_players(names, Ruleset(2), seed, layout=layout) as players:
                summary = report(play_match(players, games, seed, names=names,
                                            layout=layout))
            shown = "example bot" if other == BOT else other
            for p in summary.stats:
                print(f"{layout:<13} {shown:<12} {p.name if p.name != BOT else 'example bot':<12}"
                      f" mean score {p.mean_score:6.1f}  win rate {100 * p.win_rate:5.1f}% "
                      f"[{100 * p.ci95[0]:.1f}, {100 * p.ci95[1]:.1f}]  "
                      f"faults {p.faults}", flush=True)


def bench(names: tuple[str, ...], games: int, seed: int, profile: bool = False,
          layout: str = "official") -> None:
    n = len(names)
    games -= games % n
    with open_players(names, Ruleset(n), seed, layout=layout) as players:
        play_match(players, n, seed, layout=layout)  # warm-up (imports, first calls)
        profiler = cProfile.Profile() if profile else None
        start, cpu = time.perf_counter(), time.process_time()
        if profiler is not None:
            profiler.enable()
        result = play_match(players, games, seed, layout=layout)
        if profiler is not None:
            profiler.disable()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    turns = sum(g.turns for g in result.games)
    on = "" if layout == "official" else f" ({layout})"
    print(f"{' vs '.join(names) + on:<36} {games:5d} games {games / seconds:7.1f} games/s wall, "
          f"{games / cpu:7.1f} per CPU s  {turns / games:5.1f} turns/game "
          f"{1e6 * cpu / turns:6.1f} CPU us/turn  faults {len(result.faults)}  "
          f"(load {load_average()})", flush=True)
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", nargs="+", default=None)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--layout", default="official", choices=list(LAYOUTS))
    parser.add_argument("--pads", action="store_true")
    parser.add_argument("--pad", action="append", choices=PADS, default=None,
                        help="with --pads: only this pad (repeatable)")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, one core, seed {args.seed}")
    if args.pads:
        pads(args.games, args.seed, args.pad)
        return
    for names in [tuple(args.players)] if args.players else PAIRINGS:
        bench(names, args.games, args.seed, args.profile, args.layout)


if __name__ == "__main__":
    main()
