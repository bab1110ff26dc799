"""Benchmark of the ``win`` players: decision latency and seat-rotated matches.

    python benchmarks/bench_win.py                       # latency + the goal matches
    python benchmarks/bench_win.py --games 2000 --only racer
    python benchmarks/bench_win.py --latency-only --deep
    python benchmarks/bench_win.py --no-latency --only racer greedy --model CANDIDATE.json
    python benchmarks/bench_win.py --no-latency --only racer --player deep-8-2-1-25
    python benchmarks/bench_win.py --no-latency --model CANDIDATE.json --paired BASE.json

(From a worktree, put it first: ``PYTHONPATH=. python benchmarks/bench_win.py``.)

Latency: positions from seeded 2- and 3-player games between ``win`` and
``racer``; every decision the player makes there is timed (median and 99th
percentile; goal <= 5 ms median for ``win``, <= 1 s for ``win-deep``).

Matches: arena matches (:func:`qwixx_math.arena.play_match`, the match seed
``--seed``): every deal is played once per seat rotation on the same dice
(common random numbers, :meth:`qwixx_math.play.Dice.deal`), so each player sits in
every seat on the same luck; ``qwixx-math arena win racer --games 2N --seed S``
plays the same deals.  The win rate counts ties as shared wins; its 95% interval is
over deals (the rotations of one deal are one paired observation; "games" below
counts deals).  Opponents: ``racer`` (the tuned
racer, heads-up, goal >= 60%), ``racer-simple`` and ``racer-markov`` (other
registered racers, in the fitting's pool), ``racer-wide`` and ``racer-lazy``
(members of the family it has never seen), the arena registry's real ``solo``
and ``greedy`` (goals >= 75% and >= 85%), 3-player ``win`` vs ``racer`` vs
``greedy`` (goal >= 45%) and vs ``racer`` and ``racer-simple``.  ``--player``
measures another player in ``win``'s place (``win-deep``, or ``deep-R-K-H-M``:
win-deep with R rollouts of the K best choices for H turns, searched when they
are within M% of each other; ``adeep-...``: the active player's choices only;
``sim-...``: ``win`` that predicts the others' simultaneous white-sum marks, see
:func:`_simultaneous`).  ``--paired BASE.json`` plays a second model in ``win``'s
place on the same deals and prints the paired difference of the shares (a tighter
comparison of two models).
``--save-shares FILE`` writes the measured player's share of every game, per match,
and ``--against-shares FILE`` prints the paired difference against such a file: the
pairing across two versions of the library whose models read different summaries
(run the saving side from the other checkout, ``PYTHONPATH=OTHER python
benchmarks/bench_win.py ... --save-shares FILE``; the deals are the same for a seed).
Run it with ``nice``; the figures are in docs/winning.md (earlier ones, on the dice of
the harness before the one game loop, in research/NOTEBOOK.md).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Callable, Sequence

from qwixx_math.arena import play_match
from qwixx_math.arena.registry import factories
from qwixx_math.model import Mark
from qwixx_math.play import Dice, play
from qwixx_math.players import Player
from qwixx_math.players.racer import PLAYERS as RACERS
from qwixx_math.players.racer import Racer, RacerParams
from qwixx_math.players.win import PLAYERS as WINNERS
from qwixx_math.players.win import DeepWinPlayer, SolitairePlayer, WinModel, WinPlayer, _argmax
from qwixx_math.rules import GameState, legal_action1, legal_plans, new_game
from qwixx_math.ruleset import Ruleset

Factory = Callable[[Ruleset, int], Player]


def _solitaire(rs: Ruleset, seed: int) -> Player:
    return SolitairePlayer(rs)


#: The arena's registry (its real ``greedy`` and ``solo``, the racers, ``win``), plus
#: ``solitaire`` (one-ply on the advisor's values) for comparison.
REGISTRY: dict[str, Factory] = {**factories(), **RACERS, **WINNERS, "solitaire": _solitaire}

#: Racers of the family that neither the registry nor the fitting (research/winfit.py) uses:
#: checks of play against racers ``win`` has never seen.
UNSEEN: dict[str, RacerParams] = {
    "racer-wide": RacerParams(skip=3, avoid_penalty=6),
    "racer-lazy": RacerParams(markov=True, slack=0.5, passive=False),
}


def _unseen(name: str, params: RacerParams) -> Factory:
    def make(rs: Ruleset, seed: int) -> Player:
        return Racer(rs, params, name)
    return make


REGISTRY.update({name: _unseen(name, params) for name, params in UNSEEN.items()})


class SimultaneousWinPlayer(WinPlayer):
    """``win`` whose action-1 choice sees the other seats' white-sum marks of the same
    roll, as predicted by ``predict(seat, state)`` (research/NOTEBOOK.md, "The others'
    simultaneous white sums"): each choice is scored on the position after the
    predicted marks too (a colour they close is closed, and a plan's action 2 in it is
    dropped, R9).  ``win`` itself assumes that the others pass."""

    def __init__(self, rs: Ruleset, name: str,
                 predict: Callable[[int, GameState], Mark | None]) -> None:
        super().__init__(rs, name=name)
        self.predict = predict

    def action1(self, seat: int, state: GameState) -> Mark | None:
        sheets = list(state.sheets)
        closed = state.closed
        for other in range(len(sheets)):
            mark = None if other == seat else self.predict(other, state)
            if mark is not None:
                sheets[other] = sheets[other].marked(mark.colour.index, mark.position)
                closed = closed | {mark.colour} if mark.closes else closed
        if closed == state.closed and tuple(sheets) == state.sheets:
            return super().action1(seat, state)
        nxt = (state.active + 1) % len(sheets)
        if seat != state.active:
            marks: list[Mark | None] = [None, *legal_action1(state, seat)]
            values = self.choice_values(seat, tuple(sheets), closed,
                                        [((m,), False) for m in marks], nxt)
            return marks[_argmax(values)]
        plans = legal_plans(state)
        edits = []
        for plan in plans:
            a2 = plan.action2
            if a2 is not None and a2.colour in closed and a2.colour not in state.closed:
                a2 = None  # closed by another seat's simultaneous mark (R9)
            edits.append(((plan.action1, a2), plan.action1 is None and a2 is None))
        values = self.choice_values(seat, tuple(sheets), closed, edits, nxt)
        return plans[_argmax(values)].action1


def _simultaneous(name: str) -> Factory:
    """``sim-self`` (the others predicted by ``win`` itself, each as if the rest passed),
    ``sim-self-close`` (only their closing marks kept), ``sim-close-any`` (every seat
    that can close a colour with the white sum does), ``sim-oracle-NAME`` (the real
    player NAME's answer: the opponent's policy, which a player does not have)."""
    kind = name[len("sim-"):]

    def make(rs: Ruleset, seed: int) -> Player:
        base = WinPlayer(rs)
        if kind.startswith("oracle-"):
            oracle = REGISTRY[kind[len("oracle-"):]](rs, seed)
            return SimultaneousWinPlayer(rs, name, oracle.action1)

        def predict(other: int, state: GameState) -> Mark | None:
            if kind == "close-any":
                return next((m for m in legal_action1(state, other) if m.closes), None)
            mark = base.action1(other, state)
            return mark if kind == "self" or mark is None or mark.closes else None
        if kind not in ("self", "self-close", "close-any"):
            raise SystemExit(f"unknown player {name!r}")
        return SimultaneousWinPlayer(rs, name, predict)
    return make


def match(names: Sequence[str], games: int, seed: int, every: int = 0,
          per_game: list[list[float]] | None = None) -> list[tuple[str, float, float, float]]:
    """(name, win rate, 95% half-width, mean score) per player, seats rotated.

    ``games`` deals of an arena match (:func:`qwixx_math.arena.play_match`, the match's
    ``seed``): every deal is played once per seat rotation on the same dice, and a
    player's share of the win averaged over a deal's rotations is one observation.
    ``every`` > 0 prints the progress after every ``every`` deals (long matches);
    ``per_game``, if given, receives every player's share of each deal.
    """
    k = len(names)
    rs = Ruleset(players=k)
    objs = [REGISTRY[n](rs, seed + i) for i, n in enumerate(names)]
    share: list[list[float]] = [[] for _ in range(k)]
    scores: list[list[int]] = [[] for _ in range(k)]

    def progress(done: int, total: int) -> None:
        g = done // k
        if every > 0 and done % k == 0 and g % every == 0 and g < games:
            print(f"  {g} of {games} games played", flush=True)

    result = play_match(objs, games * k, seed, rs, progress if every > 0 else None)
    for d in range(games):
        deal = result.games[d * k:(d + 1) * k]
        for i in range(k):
            share[i].append(sum(g.share(i) for g in deal) / k)
            scores[i].extend(g.scores[i] for g in deal)
    if per_game is not None:
        per_game.extend(share)
    out = []
    for i in range(k):
        m = statistics.fmean(share[i])
        half = 1.96 * statistics.stdev(share[i]) / math.sqrt(games) if games > 1 else math.nan
        out.append((names[i], m, half, statistics.fmean(scores[i])))
    return out


class _Timed:
    """A seat whose decisions are timed into ``timer``."""

    def __init__(self, player: Player, timer: list[float]) -> None:
        self.player, self.timer, self.name = player, timer, player.name

    def new_game(self, seat: int, state: GameState) -> None:
        self.player.new_game(seat, state)

    def game_over(self, seat: int, state: GameState) -> None:
        self.player.game_over(seat, state)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        t = time.perf_counter()
        mark = self.player.action1(seat, state)
        self.timer.append(time.perf_counter() - t)
        return mark

    def action2(self, seat: int, state: GameState) -> Mark | None:
        t = time.perf_counter()
        mark = self.player.action2(seat, state)
        self.timer.append(time.perf_counter() - t)
        return mark


def latency(name: str, games: int, players: int, seed: int) -> list[float]:
    """Every decision of ``name`` in seat 0 of ``games`` games against ``racer``s, timed."""
    rs = Ruleset(players=players)
    timer: list[float] = []
    for g in range(games):
        team = [_Timed(REGISTRY[name](rs, seed), timer)] + [
            REGISTRY["racer"](rs, seed) for _ in range(players - 1)]
        play(team, new_game(ruleset=rs), Dice.deal(seed, g))
    return timer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="*", default=None,
                    help="opponents: racer racer-simple racer-markov solo greedy 3p "
                    "racer-wide racer-lazy 3p-racers")
    ap.add_argument("--player", default="win", help="the player measured (default win)")
    ap.add_argument("--model", default=None, help="a WinModel JSON file for win (a candidate)")
    ap.add_argument("--paired", default=None, metavar="BASE.json",
                    help="also play a WinModel file BASE.json in win's place on the same deals "
                    "and print the paired difference (candidate - base)")
    ap.add_argument("--save-shares", default=None, metavar="FILE",
                    help="write the measured player's share of every game, per match (JSON)")
    ap.add_argument("--against-shares", default=None, metavar="FILE",
                    help="print the paired difference against the shares in FILE "
                    "(written by --save-shares on the same seed and games)")
    ap.add_argument("--latency-only", action="store_true")
    ap.add_argument("--no-latency", action="store_true", help="matches only")
    ap.add_argument("--deep", action="store_true", help="also time win-deep (slow)")
    ap.add_argument("--every", type=int, default=0,
                    help="print the progress every N games (long matches)")
    args = ap.parse_args()
    name = args.player
    if name.startswith(("deep-", "adeep-")):
        # [a]deep-ROLLOUTS-TOP-HORIZON-MARGIN%: win-deep's parameters (adeep: the active
        # player's choices only, passive ones one-ply)
        r, k, h, m = (int(v) for v in name.split("-")[1:])

        def deep(rs: Ruleset, seed: int) -> Player:
            return DeepWinPlayer(rs, seed, rollouts=r, top=k, horizon=h, name=name,
                                 margin=m / 100, passive=not name.startswith("a"))
        REGISTRY[name] = deep
    if name.startswith("sim-"):
        REGISTRY[name] = _simultaneous(name)
    if args.model is not None:
        model = WinModel.from_file(args.model)

        def candidate(rs: Ruleset, seed: int) -> Player:
            return WinPlayer(rs, model)
        REGISTRY["win"] = candidate
    if args.paired is not None:
        base = WinModel.from_file(args.paired)

        def based(rs: Ruleset, seed: int) -> Player:
            return WinPlayer(rs, base, name="win-base")
        REGISTRY["win-base"] = based
    for players in (() if args.no_latency else (2, 3)):
        t = latency("win", 20, players, args.seed)
        print(f"win latency, {players} players: median {statistics.median(t) * 1e3:.2f} ms, "
              f"p99 {sorted(t)[int(0.99 * len(t))] * 1e3:.2f} ms over {len(t)} decisions")
    if args.deep:
        t = latency("win-deep", 2, 2, args.seed)
        print(f"win-deep latency, 2 players: median {statistics.median(t) * 1e3:.1f} ms, "
              f"max {max(t) * 1e3:.1f} ms over {len(t)} decisions")
    if args.latency_only:
        return
    me = args.player
    saved: dict[str, list[float]] = {}
    against: dict[str, list[float]] = {}
    if args.against_shares is not None:
        with open(args.against_shares) as fh:
            against = json.load(fh)
    tables = {"racer": [me, "racer"], "racer-simple": [me, "racer-simple"],
              "racer-markov": [me, "racer-markov"], "solo": [me, "solo"],
              "greedy": [me, "greedy"], "3p": [me, "racer", "greedy"],
              "racer-wide": [me, "racer-wide"], "racer-lazy": [me, "racer-lazy"],
              "3p-racers": [me, "racer", "racer-simple"]}
    for key, names in tables.items():
        if args.only is not None and key not in args.only:
            continue
        start = time.perf_counter()
        games = args.games if len(names) == 2 else max(2, args.games // 2)
        mine: list[list[float]] = []
        res = match(names, games, args.seed, args.every, mine)
        text = "  ".join(f"{n} {m:.3f} ± {h:.3f} (mean {s:.1f})" for n, m, h, s in res)
        print(f"{' vs '.join(names)}, {games} games x {len(names)} seatings, "
              f"{time.perf_counter() - start:.0f} s: {text}", flush=True)
        saved[key] = mine[0]
        if args.save_shares is not None:  # after every match, so a stopped run keeps them
            with open(args.save_shares, "w") as fh:
                json.dump(saved, fh)
        if key in against:
            if len(against[key]) != games:
                raise SystemExit(f"{args.against_shares}: {len(against[key])} games of "
                                 f"{key}, not {games}")
            diff = [a - b for a, b in zip(mine[0], against[key], strict=True)]
            print(f"  saved {statistics.fmean(against[key]):.3f} on the same deals; paired "
                  f"difference {statistics.fmean(diff):+.3f} ± "
                  f"{1.96 * statistics.stdev(diff) / math.sqrt(games):.3f}", flush=True)
        if args.paired is not None:
            theirs: list[list[float]] = []
            res = match(["win-base", *names[1:]], games, args.seed, 0, theirs)
            diff = [a - b for a, b in zip(mine[0], theirs[0], strict=True)]
            print(f"  base {res[0][1]:.3f} ± {res[0][2]:.3f} (mean {res[0][3]:.1f}) on the same "
                  f"deals; paired difference {statistics.fmean(diff):+.3f} ± "
                  f"{1.96 * statistics.stdev(diff) / math.sqrt(games):.3f}", flush=True)


if __name__ == "__main__":
    main()
