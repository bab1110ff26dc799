"""Policy search for the ``win`` player: evolution strategies on the win rate itself.

Research code: not installed with the package (research/README.md).

The TD fit of :mod:`research.winfit` makes :class:`~qwixx_math.players.win.WinModel`
a calibrated estimate of P(win); ``win`` only uses it to *rank* choices.  This module
tunes the model's parameters for the decisions directly: the fitness of a parameter
vector is the win rate of its ``win`` player at the table.

* **Parameters searched**: a named subset (:data:`GROUPS`), counted for the shipped
  model (38 inputs, 48 hidden units): ``head`` = the hidden biases ``b1``, the output
  weights ``w2`` and bias ``b2`` (97 numbers); ``all`` = those and the input weights
  ``w1`` (1921); ``inputs`` = a log gain and a shift of each normalised input (76,
  relative to the starting model: ``z' = exp(g) z + d``, which rescales a row of ``w1``
  and moves the hidden biases with it); ``inputs+head`` = those and ``head`` (173).
* **Perturbations**: antithetic Gaussian pairs ``theta +- sigma * s * eps``, where
  ``s`` is the root mean square of each parameter's group in the starting model (so
  ``sigma`` is relative to the weights' scale).
* **Fitness**: the mean share of the win (ties shared) of the candidate's ``win``
  player in seat-rotated games on common dice (:func:`deal_shares`: one deal of the arena,
  :func:`qwixx_math.arena.play_match`, per deal seed)
  against each opponent table of :data:`TABLES` (``racer`` and ``greedy`` heads-up;
  optionally 3 players ``win``/``racer``/``greedy``), the tables weighted equally.
  Every generation draws **fresh deals** (from the seed and the generation), the same
  for every candidate of that generation, so the candidates are compared on the same
  luck and no deal set is learnt by heart.  The deals are arena matches whose seeds
  are 48-bit numbers drawn from the search's seed, so they do not meet
  ``benchmarks/bench_win.py``'s (the deals of one match with a small seed).
* **Update** (rank-based, in the spirit of OpenAI-ES): the ``2 n`` fitnesses are
  replaced by centred ranks in ``[-0.5, 0.5]``, the step is
  ``lr * sigma * s * sum_i (u_i+ - u_i-) eps_i / n`` (plain gradient ascent on the
  smoothed, rank-transformed objective).  Each generation also plays the current
  centre and the starting model on the same deals: ``centre - start`` is the
  search's progress on deals it has not been updated on yet (the trace).
* **Output**: the centre after the last generation (not the best sampled candidate,
  whose fitness is biased upwards by the selection), as a WinModel JSON file
  (rewritten after every generation, so a stopped run keeps its last centre), and a
  trace (one JSON line per generation) if asked.

Deterministic for a seed (the workers' results are collected in order).  Run::

    python -m research.winsearch OUT.json --seed 5 --generations 30 \\
        --pairs 12 --games 300 --sigma 0.1 --group head --workers 2 --trace TRACE.jsonl

A measurement of the result on unseen deals is ``benchmarks/bench_win.py --model
OUT.json``; research/NOTEBOOK.md ("Policy search") has the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from qwixx_math.arena import play_match
from qwixx_math.arena.registry import factories
from qwixx_math.errors import ParseError, QwixxError, check_whole_number
from qwixx_math.players.base import Player
from qwixx_math.players.race import N_FEATURES
from qwixx_math.players.win import WinModel, WinPlayer, load_model
from qwixx_math.ruleset import Ruleset

__all__ = ["GROUPS", "TABLES", "Generation", "Search", "flatten", "group_scales", "rank_weights",
           "search", "table_shares", "unflatten"]

FloatArray = npt.NDArray[np.float64]

#: Parameter subsets by name, in the order of the flat vector.
GROUPS: dict[str, tuple[str, ...]] = {"head": ("b1", "w2", "b2"),
                                      "all": ("w1", "b1", "w2", "b2"),
                                      "inputs": ("gain", "shift"),
                                      "inputs+head": ("gain", "shift", "b1", "w2", "b2")}
#: The derived parameters: per input, a log gain ``g`` and a shift ``d`` of the normalised
#: input, ``z' = exp(g) z + d`` (written back as the model's ``mean`` and ``scale``).  They
#: are relative to the model they are read from (:func:`flatten` gives zeros), so a search
#: starts from them at 0 with a unit of 1.
_DERIVED = ("gain", "shift")
#: Opponent tables by name: the seats after the candidate's ``win`` (seat 0 of rotation 0).
TABLES: dict[str, tuple[str, ...]] = {"racer": ("racer",), "greedy": ("greedy",),
                                      "3p": ("racer", "greedy")}


def _parts(model: WinModel, group: str) -> list[FloatArray]:
    """The arrays of ``group``; the one check of a group's name (a ParseError that lists
    the groups)."""
    if not isinstance(group, str) or group not in GROUPS:
        raise ParseError(f"unknown parameter group {group!r}; expected one of "
                         f"{', '.join(GROUPS)}")
    names = GROUPS[group]
    return [np.zeros(N_FEATURES) if n in _DERIVED
            else np.atleast_1d(np.asarray(getattr(model, n), dtype=float)) for n in names]


def flatten(model: WinModel, group: str) -> FloatArray:
    """The parameters of ``group`` (:data:`GROUPS`) of ``model`` as one flat vector."""
    return np.concatenate([p.ravel() for p in _parts(model, group)])


def unflatten(model: WinModel, group: str, vector: FloatArray) -> WinModel:
    """``model`` with the parameters of ``group`` taken from ``vector`` (see :func:`flatten`)."""
    parts = _parts(model, group)
    if vector.shape != (sum(p.size for p in parts),):
        raise ParseError(f"group {group!r} has {sum(p.size for p in parts)} parameters, "
                         f"not {vector.shape}")
    new: dict[str, Any] = {}
    at = 0
    for name, p in zip(GROUPS[group], parts, strict=True):
        chunk = vector[at:at + p.size].reshape(p.shape)
        at += p.size
        new[name] = float(chunk[0]) if name == "b2" else chunk.copy()
    mean, scale = model.mean, model.scale
    if "gain" in new or "shift" in new:  # z' = exp(g) z + d = (x - mean') / scale'
        scale = scale * np.exp(-new.get("gain", np.zeros(N_FEATURES)))
        mean = mean - new.get("shift", np.zeros(N_FEATURES)) * scale
    return WinModel(new.get("w1", model.w1), new.get("b1", model.b1), new.get("w2", model.w2),
                    new.get("b2", model.b2), mean, scale)


def group_scales(model: WinModel, group: str) -> FloatArray:
    """Per parameter, the root mean square of its array in ``model`` (``b2``: its size, at
    least 0.1): the unit of the perturbations."""
    parts = _parts(model, group)
    out = []
    for name, p in zip(GROUPS[group], parts, strict=True):
        if name in _DERIVED:
            out.append(np.ones(p.size))
            continue
        rms = float(np.sqrt(np.mean(p * p)))
        out.append(np.full(p.size, max(rms, 0.1) if p.size == 1 else max(rms, 1e-3)))
    return np.concatenate(out)


def rank_weights(fitness: Sequence[float]) -> FloatArray:
    """Centred ranks in [-0.5, 0.5] (ties get their mean rank): the rank-based fitness."""
    f = np.asarray(fitness, dtype=float)
    n = len(f)
    if n < 2:
        return np.zeros(n)
    order = np.argsort(f, kind="stable")
    ranks = np.empty(n)
    ranks[order] = np.arange(n, dtype=float)
    for v in np.unique(f):  # mean rank for ties
        same = f == v
        ranks[same] = ranks[same].mean()
    out: FloatArray = ranks / (n - 1) - 0.5
    return out


def table_shares(model: WinModel, table: str, deals: Sequence[int]) -> list[float]:
    """The candidate ``win`` player's share of the win on each deal of ``deals``, seats
    rotated, against the opponents of ``TABLES[table]`` (opponent i made with seed
    2 + i)."""
    others = TABLES[table]
    rs = Ruleset(players=1 + len(others))
    known = factories()
    players = [WinPlayer(rs, model), *(known[n](rs, 2 + i) for i, n in enumerate(others))]
    return [deal_shares(players, rs, d)[0] for d in deals]


def deal_shares(players: Sequence[Player], ruleset: Ruleset, seed: int) -> list[float]:
    """Each player's share of the win (ties shared) averaged over the seat rotations of one
    deal: the arena's match of ``len(players)`` games with ``seed`` (its deal 0, on
    :meth:`qwixx_math.play.Dice.deal`)."""
    result = play_match(players, len(players), seed, ruleset)
    k = len(players)
    return [sum(g.share(i) for g in result.games) / k for i in range(k)]


# -- the worker side: the base model is sent once, each task is (vector, table, deals) --------

_BASE: tuple[WinModel, str] | None = None


def _init(base: dict[str, Any], group: str) -> None:
    global _BASE
    _BASE = (WinModel.from_json(base), group)


def _task(args: tuple[list[float], str, list[int]]) -> list[float]:
    assert _BASE is not None
    vector, table, deals = args
    model = unflatten(_BASE[0], _BASE[1], np.array(vector, dtype=float))
    return table_shares(model, table, deals)


@dataclass(frozen=True)
class Generation:
    """One generation's record (a line of the trace)."""

    generation: int
    #: Mean fitness of the centre, of the starting model, on this generation's deals.
    centre: float
    start: float
    #: The paired difference centre - start and its 95% half-width over deals.
    gain: float
    gain_half: float
    best: float
    mean: float
    step_norm: float
    seconds: float


@dataclass
class Search:
    """The state of a search: the centre and the settings."""

    start: WinModel
    group: str
    sigma: float
    lr: float
    pairs: int
    games: int
    tables: tuple[str, ...]
    seed: int
    centre: FloatArray

    @property
    def model(self) -> WinModel:
        """The centre as a model."""
        return unflatten(self.start, self.group, self.centre)


def _deals(seed: int, generation: int, table: str, games: int) -> list[int]:
    rng = random.Random(f"winsearch/{seed}/{generation}/{table}")
    return [rng.getrandbits(48) for _ in range(games)]


def _fitnesses(vectors: Sequence[FloatArray], search: Search, generation: int,
               mapper: Any) -> list[list[float]]:
    """Per vector, its per-deal shares over every table (tables equally weighted: the
    per-deal list of each table, averaged deal by deal)."""
    deals = {t: _deals(search.seed, generation, t, search.games) for t in search.tables}
    tasks = [(v.tolist(), t, deals[t]) for v in vectors for t in search.tables]
    results: Iterator[list[float]] = iter(mapper(_task, tasks))
    out = []
    for _ in vectors:
        per_table = [next(results) for _ in search.tables]
        out.append([statistics.fmean(col) for col in zip(*per_table, strict=True)])
    return out


def step(search: Search, generation: int, mapper: Any) -> Generation:
    """One generation: ``pairs`` antithetic pairs around the centre, plus the centre and
    the starting model, on fresh common deals; the centre moves by the rank-based step."""
    t0 = time.perf_counter()
    rng = np.random.default_rng([search.seed, generation])
    scale = group_scales(search.start, search.group) * search.sigma
    eps = rng.standard_normal((search.pairs, len(search.centre)))
    vectors = [search.centre, flatten(search.start, search.group)]
    for e in eps:
        vectors += [search.centre + scale * e, search.centre - scale * e]
    shares = _fitnesses(vectors, search, generation, mapper)
    fit = [statistics.fmean(s) for s in shares]
    u = rank_weights(fit[2:])
    grad = ((u[0::2] - u[1::2])[:, None] * eps).sum(axis=0) / search.pairs
    move = search.lr * scale * grad
    search.centre = search.centre + move
    diff = [a - b for a, b in zip(shares[0], shares[1], strict=True)]
    half = 1.96 * statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else float("nan")
    return Generation(generation, fit[0], fit[1], statistics.fmean(diff), half, max(fit[2:]),
                      statistics.fmean(fit[2:]), float(np.linalg.norm(move / scale)),
                      time.perf_counter() - t0)


def search(start: WinModel, generations: int, seed: int, group: str = "head",
           sigma: float = 0.1, lr: float = 1.0, pairs: int = 8, games: int = 100,
           tables: Sequence[str] = ("racer", "greedy"), workers: int = 1,
           trace: list[Generation] | None = None, log: Any = None,
           checkpoint: str | None = None) -> WinModel:
    """Run the search from ``start`` for ``generations``; the final centre (a WinModel).

    ``workers`` > 1 plays the games in that many processes (the same result).  Each
    generation's record is appended to ``trace`` and, as a JSON line, written to ``log``;
    the centre after every generation is written to the file ``checkpoint`` if given.
    """
    if isinstance(tables, str) or not isinstance(tables, Sequence) or not tables:
        raise ParseError(f"tables must be a non-empty list of names, not {tables!r}")
    for t in tables:
        if not isinstance(t, str) or t not in TABLES:
            raise ParseError(f"unknown table {t!r}; expected one of {', '.join(TABLES)}")
    generations = check_whole_number("generations", generations, 0, 10**6)
    seed = check_whole_number("seed", seed, 0, 2**63 - 1)
    pairs = check_whole_number("pairs", pairs, 1, 10**4)
    games = check_whole_number("games", games, 2, 10**7)
    workers = check_whole_number("workers", workers, 1, 256)
    for name, x in (("sigma", sigma), ("lr", lr)):
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
            raise ParseError(f"{name} must be a finite number, not {x!r}")
    if sigma <= 0:
        raise ParseError(f"sigma must be above 0, not {sigma!r}")
    if not isinstance(start, WinModel):
        raise ParseError(f"start must be a WinModel, not {type(start).__name__}")
    state = Search(start, group, sigma, lr, pairs, games, tuple(tables), seed,
                   flatten(start, group))  # flatten checks the group's name
    base = start.to_json()
    if workers > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers, initializer=_init, initargs=(base, group)) as pool:
            def mapper(f: Any, xs: list[Any]) -> list[Any]:
                return pool.map(f, xs, chunksize=1)
            _run(state, generations, mapper, trace, log, checkpoint)
    else:
        _init(base, group)
        _run(state, generations, lambda f, xs: [f(x) for x in xs], trace, log, checkpoint)
    return state.model


def _run(state: Search, generations: int, mapper: Any, trace: list[Generation] | None,
         log: Any, checkpoint: str | None) -> None:
    for g in range(generations):
        rec = step(state, g, mapper)
        if trace is not None:
            trace.append(rec)
        if log is not None:
            print(json.dumps(rec.__dict__), file=log, flush=True)
        if checkpoint is not None:
            with open(checkpoint, "w") as fh:
                json.dump(state.model.to_json(), fh)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("out", help="the centre, a WinModel JSON file (rewritten every generation)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", default=None, help="starting model file (default: shipped)")
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=8, help="antithetic pairs per generation")
    ap.add_argument("--games", type=int, default=100, help="deals per table per candidate")
    ap.add_argument("--sigma", type=float, default=0.1,
                    help="perturbation, relative to each group's RMS")
    ap.add_argument("--lr", type=float, default=1.0, help="step, in units of sigma")
    ap.add_argument("--group", default="head", choices=sorted(GROUPS))
    ap.add_argument("--tables", nargs="+", default=["racer", "greedy"], choices=sorted(TABLES))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--trace", default=None, help="one JSON line per generation")
    args = ap.parse_args(argv)
    try:
        start = load_model() if args.start is None else WinModel.from_file(args.start)
        log = open(args.trace, "w") if args.trace else sys.stderr  # noqa: SIM115
        try:
            search(start, args.generations, args.seed, args.group, args.sigma, args.lr,
                   args.pairs, args.games, args.tables, args.workers, log=log,
                   checkpoint=args.out)
        finally:
            if args.trace:
                log.close()
    except (QwixxError, OSError, json.JSONDecodeError) as exc:  # a clear line, exit code 2
        print(f"winsearch: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":  # pragma: no cover
    main()
