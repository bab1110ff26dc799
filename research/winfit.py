"""Fitting the ``win`` player's evaluator by simulation (the start of win-model.json).

Research code: not installed with the package (research/README.md).

1. Play games through the rules core between players drawn from a pool, on
   seeded dice, for 2 to 5 players.  Before every roll, record the race summary
   of :mod:`qwixx_math.players.race` from every seat's perspective; label each
   record with that seat's final share of the win (1, 0, or 1/k for a k-way tie).
2. Fit :class:`~qwixx_math.players.win.WinModel` (one hidden tanh layer, a
   sigmoid output) by minimising the cross-entropy with Adam, seeded.
3. Iterate (approximate policy iteration): the next round's pool includes the
   ``win`` player of the last model, and the targets become TD(lambda) returns
   (:func:`td_targets`), which are less noisy than bare outcomes.

Everything is deterministic for a seed.  Run ``python -m research.winfit OUT.json``
from the repository's root to redo it (about 6 minutes on a 2-core machine with
another job running).  The games are played by the library's one loop
(:func:`qwixx_math.play.play`), their dice drawn by :class:`qwixx_math.play.Dice` from
the same seeded generator that picks the seats; the shipped model was fitted when the
dice were drawn with ``randint`` (before the loop was one), so a rerun fits a model of
the same recipe on other games, not the same bits.  The shipped model is this fit
tuned further for the decisions by :mod:`research.winsearch` (research/NOTEBOOK.md,
"Policy search on the win rate").
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from qwixx_math.advice import Advisor
from qwixx_math.play import Dice, play
from qwixx_math.players.base import Player
from qwixx_math.players.race import N_FEATURES, RaceSummary, race_vector, terminal_share
from qwixx_math.players.win import WinModel
from qwixx_math.rules import new_game
from qwixx_math.ruleset import Ruleset

__all__ = ["fit", "generate", "log_loss", "td_targets", "train"]

FloatArray = npt.NDArray[np.float64]
Factory = Callable[[Ruleset, int], Player]


def generate(pool: Sequence[Factory], games: int, players: int, seed: int,
             summary: RaceSummary | None = None
             ) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """Feature rows, win shares and successors from ``games`` games of ``players`` from ``pool``.

    ``successor[i]`` is the row of the same seat one turn later in the same game, or -1
    for the last position of a game (for the TD(lambda) targets of :func:`td_targets`).
    """
    rng = random.Random(seed)
    ruleset = Ruleset(players=players)
    summary = summary or RaceSummary(Advisor.for_ruleset(ruleset, progress=False), players)
    rows: list[FloatArray] = []
    labels: list[float] = []
    successor: list[int] = []
    cache: dict[tuple[int, int], Player] = {}
    for _ in range(games):
        seats: list[tuple[int, Player]] = []
        for _s in range(players):
            k = rng.randrange(len(pool))
            slot = (k, len([x for x in seats if x[0] == k]))
            if slot not in cache:
                cache[slot] = pool[k](ruleset, rng.getrandbits(32))
            seats.append((k, cache[slot]))
        team = [p for _, p in seats]
        start = new_game(ruleset=ruleset, first=rng.randrange(players))
        for s, p in enumerate(team):
            p.new_game(s, start)
        game = play(team, start, Dice(rng))  # the dice drawn from rng as the game goes
        state = game.final
        for s, p in enumerate(team):
            p.game_over(s, state)
        records = [([summary.sheet_summary(sh, t.start.closed) for sh in t.start.sheets],
                    len(t.start.closed), t.start.active) for t in game.turns]
        shares = [terminal_share(state.sheets, s) for s in range(players)]
        for t, (summaries, n_closed, active) in enumerate(records):
            for s in range(players):
                successor.append(len(rows) + players if t + 1 < len(records) else -1)
                rows.append(race_vector(summaries, n_closed, s, active))
                labels.append(shares[s])
    return (np.array(rows).reshape(-1, N_FEATURES), np.array(labels),
            np.array(successor, dtype=np.int64))


def td_targets(model: WinModel, x: FloatArray, y: FloatArray, successor: npt.NDArray[np.int64],
               lam: float = 0.7) -> FloatArray:
    """TD(lambda) returns: ``G_t = (1 - lam) * model(x_{t+1}) + lam * G_{t+1}``, ``G = y`` at
    the last position of a game (less noisy than the bare outcome, biased by the model)."""
    pred = model.predict(x)
    out = y.astype(float).copy()
    for i in range(len(y) - 1, -1, -1):
        j = successor[i]
        if j >= 0:
            out[i] = (1 - lam) * pred[j] + lam * out[j]
    return out


def fit(x: FloatArray, y: FloatArray, hidden: int = 24, epochs: int = 30, seed: int = 0,
        lr: float = 3e-3, batch: int = 512, l2: float = 1e-5) -> WinModel:
    """Fit a :class:`WinModel` to rows ``x`` and win shares ``y`` (cross-entropy, Adam)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    n, f = z.shape
    params = [rng.normal(0, 1 / np.sqrt(f), (f, hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), hidden), np.zeros(1)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            xb, yb = z[idx], y[idx]
            w1, b1, w2, b2 = params
            h = np.tanh(xb @ w1 + b1)
            p = 1 / (1 + np.exp(-(h @ w2 + b2[0])))
            g = (p - yb) / len(idx)
            gw2 = h.T @ g + l2 * w2
            gb2 = np.array([g.sum()])
            gh = np.outer(g, w2) * (1 - h * h)
            gw1 = xb.T @ gh + l2 * w1
            gb1 = gh.sum(axis=0)
            t += 1
            for i, grad in enumerate((gw1, gb1, gw2, gb2)):
                m[i] = 0.9 * m[i] + 0.1 * grad
                v[i] = 0.999 * v[i] + 0.001 * grad * grad
                mh = m[i] / (1 - 0.9 ** t)
                vh = v[i] / (1 - 0.999 ** t)
                params[i] = params[i] - lr * mh / (np.sqrt(vh) + 1e-8)
    w1, b1, w2, b2 = params
    return WinModel(w1, b1, w2, float(b2[0]), mean, scale)


def log_loss(model: WinModel, x: FloatArray, y: FloatArray) -> float:
    """Mean cross-entropy of ``model`` on ``(x, y)``."""
    p = np.clip(model.predict(x), 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def _stack(parts: Sequence[tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]]
           ) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
    xs, ys, ss = [], [], []
    off = 0
    for x, y, s in parts:
        xs.append(x)
        ys.append(y)
        ss.append(np.where(s >= 0, s + off, -1))
        off += len(y)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ss)


def train(seed: int = 2026, out: str | None = None, racer_games: dict[int, int] | None = None,
          games: dict[int, int] | None = None, rounds: int = 2, lam: float = 0.7,
          hidden: int = 48, greedy: bool = False) -> WinModel:
    """The recipe of the shipped model; writes it to ``out`` if given.

    Round 0: racer-against-racer games (cheap, many), labelled by the outcome:
    the model learns P(win) when everybody races.  Rounds 1..``rounds``: games of a pool
    of the last model's ``win`` player (twice), the racers and the one-ply solitaire
    player, added to all earlier data; targets are TD(``lam``) returns under the last
    model (:func:`td_targets`), refitted twice.  ``greedy=True`` adds the ``greedy``
    player to both pools (an experiment of research/NOTEBOOK.md; the shipped recipe is without).
    """
    from qwixx_math.arena.registry import factories
    from qwixx_math.players.racer import PLAYERS as RACERS
    from qwixx_math.players.win import SolitairePlayer, WinPlayer

    racer_games = racer_games if racer_games is not None else {2: 6000, 3: 1500, 4: 400,
                                                               5: 300}
    games = games if games is not None else {2: 1500, 3: 400, 4: 120, 5: 80}

    def solitaire(rs: Ruleset, s: int) -> Player:
        return SolitairePlayer(rs)

    racers = [RACERS["racer"], RACERS["racer"], RACERS["racer"], RACERS["racer-markov"],
              RACERS["racer-simple"]]
    if greedy:
        racers.append(factories()["greedy"])
    parts = [generate(racers, g, n, seed + n) for n, g in racer_games.items()]
    x, y, s = _stack(parts)
    model = fit(x, y, hidden=hidden, epochs=10, seed=seed)
    _report(0, model, x, y)
    for r in range(1, rounds + 1):
        def winner(rs: Ruleset, sd: int, fitted: WinModel = model) -> Player:
            return WinPlayer(rs, fitted)
        pool: list[Factory] = [winner, winner, *racers[2:], RACERS["racer"], solitaire]
        parts += [generate(pool, g, n, seed + 100 * r + n) for n, g in games.items()]
        x, y, s = _stack(parts)
        for it in range(2):
            model = fit(x, td_targets(model, x, y, s, lam), hidden=hidden, epochs=10,
                        seed=seed + 10 * r + it)
        _report(r, model, x, y)
    if out is not None:
        with open(out, "w") as fh:
            json.dump(model.to_json(), fh)
    return model


def _report(r: int, model: WinModel, x: FloatArray, y: FloatArray) -> None:
    print(f"round {r}: {len(y)} rows, log loss against outcomes {log_loss(model, x, y):.4f}",
          file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m research.winfit OUT.json [--greedy] [--seed S]``: :func:`train`."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m research.winfit",
                                 description="Fit the win player's model (train's recipe).")
    ap.add_argument("out", help="the fitted WinModel, a JSON file")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--greedy", action="store_true", help="greedy in the pools (an experiment)")
    args = ap.parse_args(argv)
    train(seed=args.seed, out=args.out, greedy=args.greedy)


if __name__ == "__main__":  # pragma: no cover
    main()
