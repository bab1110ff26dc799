"""The policy search of ``win`` (players/winsearch.py) and the seat-rotated games it plays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from qwixx_math.errors import ParseError
from qwixx_math.players.racer import PLAYERS as RACERS
from qwixx_math.players.rotation import rotated
from qwixx_math.players.win import WinModel, WinPlayer, load_model
from qwixx_math.players.winsearch import (
    Generation,
    flatten,
    group_scales,
    rank_weights,
    search,
    table_shares,
    unflatten,
)
from qwixx_math.ruleset import Ruleset


def test_flatten_shapes_and_round_trip() -> None:
    model = load_model()
    head, full = flatten(model, "head"), flatten(model, "all")
    assert head.shape == (65,) and full.shape == (769,)
    assert group_scales(model, "all").shape == (769,)
    assert (group_scales(model, "head") > 0).all()
    for group, vec in (("head", head), ("all", full)):
        same = unflatten(model, group, vec)
        for name in ("w1", "b1", "w2", "mean", "scale"):
            assert np.array_equal(getattr(same, name), getattr(model, name))
        assert same.b2 == model.b2
    with pytest.raises(ParseError):
        unflatten(model, "head", head[:-1])
    with pytest.raises(ParseError):
        flatten(model, "w1-only")


def test_a_perturbed_model_round_trips_through_its_file() -> None:
    model = load_model()
    vec = flatten(model, "all")
    vec = vec + 0.1 * np.random.default_rng(1).standard_normal(vec.shape)
    moved = unflatten(model, "all", vec)
    back = WinModel.from_json(json.loads(json.dumps(moved.to_json())))
    assert np.array_equal(flatten(back, "all"), vec)
    x = np.random.default_rng(2).standard_normal((5, len(model.mean))) * model.scale + model.mean
    assert np.array_equal(back.predict(x), moved.predict(x))
    assert not np.array_equal(moved.predict(x), model.predict(x))


def test_rank_weights_are_centred_ranks() -> None:
    assert rank_weights([0.3, 0.1, 0.2]).tolist() == [0.5, -0.5, 0.0]
    assert rank_weights([0.1, 0.1, 0.9]).tolist() == [-0.25, -0.25, 0.5]
    assert rank_weights([0.4]).tolist() == [0.0]


def test_rotated_shares_sum_to_one() -> None:
    rs = Ruleset(players=2)
    players = [WinPlayer(rs), RACERS["racer"](rs, 2)]
    shares, scores = rotated(players, rs, 12345)
    assert sum(shares) == pytest.approx(1.0)
    assert all(len(s) == 2 for s in scores)
    assert table_shares(load_model(), "racer", [12345]) == [shares[0]]


def test_a_tiny_search_is_deterministic_and_writes_a_model(tmp_path: Path) -> None:
    start = load_model()
    runs = []
    for workers in (1, 2, 1):
        trace: list[Generation] = []
        out = search(start, 2, seed=4, pairs=2, games=2, workers=workers, trace=trace,
                     checkpoint=str(tmp_path / f"{workers}.json"))
        runs.append((flatten(out, "all").tolist(), trace))
        saved = WinModel.from_json(json.loads((tmp_path / f"{workers}.json").read_text()))
        assert flatten(saved, "all").tolist() == runs[-1][0]
    assert runs[0][0] == runs[1][0] == runs[2][0]
    assert [g.centre for g in runs[0][1]] == [g.centre for g in runs[1][1]]
    first = runs[0][1][0]
    assert first.gain == 0.0 and first.centre == first.start  # the centre starts at start
    out = unflatten(start, "all", np.array(runs[0][0]))
    assert not np.array_equal(out.b1, start.b1) and np.array_equal(out.w1, start.w1)
    WinModel.from_json(json.loads(json.dumps(out.to_json())))
    with pytest.raises(ParseError):
        search(start, 1, seed=0, tables=("nobody",))
