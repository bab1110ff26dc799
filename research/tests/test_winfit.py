"""The fitting of the ``win`` evaluator (research/winfit.py): its data and targets.

* ``generate`` is deterministic for a seed; every game's rows chain seat by seat
  through ``successor`` to a last row (-1), and every row of a seat carries that
  seat's final share of the win (1, 0 or 1/k, the shares of a game summing to 1).
* ``td_targets`` equals the TD(lambda) return written out as its explicit sum over
  the rest of the game (a slow, obvious formula), not the recursion it uses.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from qwixx_math.play import Dice, play
from qwixx_math.players.race import N_FEATURES
from qwixx_math.players.racer import PLAYERS as RACERS
from qwixx_math.players.win import WinModel, WinPlayer, load_model
from qwixx_math.rules import new_game
from qwixx_math.ruleset import Ruleset
from research.winfit import generate, td_targets, train

pytestmark = pytest.mark.slow  # research code: the slow suite covers it

POOL = [RACERS["racer"], RACERS["racer-simple"]]


def test_generate_is_deterministic_and_labels_are_shares() -> None:
    x, y, succ = generate(POOL, 4, 3, seed=9)
    x2, y2, succ2 = generate(POOL, 4, 3, seed=9)
    assert np.array_equal(x, x2) and np.array_equal(y, y2) and np.array_equal(succ, succ2)
    assert x.shape == (len(y), N_FEATURES) and succ.shape == y.shape
    # follow every chain from its first row: one chain per seat and game
    firsts = set(range(len(y))) - {int(j) for j in succ if j >= 0}
    chains = []
    for i in sorted(firsts):
        chain = [i]
        while succ[chain[-1]] >= 0:
            assert succ[chain[-1]] > chain[-1]
            chain.append(int(succ[chain[-1]]))
        chains.append(chain)
    assert len(chains) == 4 * 3
    assert sorted(i for c in chains for i in c) == list(range(len(y)))  # each row once
    for c in chains:
        assert len({float(y[i]) for i in c}) == 1  # the seat's final share throughout
        assert Fraction(float(y[c[0]])).limit_denominator(6) in {
            Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3)}
    # the three seats of a game share one win (chains of a game start together)
    by_start = sorted(chains)
    for g in range(4):
        assert abs(sum(float(y[c[0]]) for c in by_start[3 * g:3 * g + 3]) - 1.0) < 1e-12


def test_td_targets_is_the_explicit_lambda_return() -> None:
    x, y, succ = generate(POOL, 2, 2, seed=4)
    model = load_model()
    pred = model.predict(x)
    lam = 0.7
    got = td_targets(model, x, y, succ, lam)
    for i in range(len(y)):
        # G_i = sum_{n>=1} (1 - lam) lam^(n-1) pred(x_{i+n}) + lam^T y, over the T later rows
        later = []
        j = int(succ[i])
        while j >= 0:
            later.append(j)
            j = int(succ[j])
        if not later:
            assert got[i] == y[i]
            continue
        want = sum((1 - lam) * lam ** n * pred[r] for n, r in enumerate(later))
        want += lam ** len(later) * y[later[-1]]
        assert abs(got[i] - want) < 1e-12


def test_a_tiny_training_writes_a_model_the_player_reads(tmp_path: Path) -> None:
    """train's recipe on a handful of games: a model file that WinModel.from_file reads and
    that plays; the same file for the same seed."""
    out = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in out:
        train(seed=3, out=str(path), racer_games={2: 6, 3: 2}, games={2: 2}, rounds=1,
              hidden=4)
    assert out[0].read_text() == out[1].read_text()
    model = WinModel.from_file(str(out[0]))
    assert model.w1.shape == (N_FEATURES, 4)
    rs = Ruleset(players=2)
    game = play([WinPlayer(rs, model), RACERS["racer"](rs, 1)], new_game(2), Dice.seeded(1))
    assert game.final.is_over
