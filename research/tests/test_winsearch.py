"""The policy search of ``win`` (research/winsearch.py) and the seat-rotated games it plays."""


from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.errors import ParseError, QwixxError
from qwixx_math.players.race import N_FEATURES
from qwixx_math.players.racer import PLAYERS as RACERS
from qwixx_math.players.win import WinModel, WinPlayer, load_model
from qwixx_math.ruleset import Ruleset
from research.winsearch import (
    Generation,
    deal_shares,
    flatten,
    group_scales,
    main,
    rank_weights,
    search,
    table_shares,
    unflatten,
)

pytestmark = pytest.mark.slow  # research code: the slow suite covers it


def test_flatten_shapes_and_round_trip() -> None:
    model = load_model()
    head, full = flatten(model, "head"), flatten(model, "all")
    assert head.shape == (97,) and full.shape == (1921,)
    assert group_scales(model, "all").shape == (1921,)
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
    shares = deal_shares(players, rs, 12345)
    assert sum(shares) == pytest.approx(1.0)
    assert all(4 * s == int(4 * s) for s in shares)  # two games, ties shared by two
    assert table_shares(load_model(), "racer", [12345]) == [shares[0]]


def test_a_tiny_search_is_deterministic_and_writes_a_model(tmp_path: Path) -> None:
    start = load_model()
    runs = []
    for workers in (1, 2, 1):
        trace: list[Generation] = []
        out = search(start, 2, seed=4, pairs=2, games=4, workers=workers, trace=trace,
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


JUNK: st.SearchStrategy[object] = st.sampled_from(
    [None, "2", 2.5, True, [], float("nan"), float("inf"), -1, 2**70])


@settings(max_examples=25, deadline=None, derandomize=True)
@given(generations=st.integers(0, 1) | JUNK, seed=st.integers(0, 5) | JUNK,
       group=st.sampled_from(["head", "all", "nobody", ""]) | JUNK,
       sigma=st.sampled_from([0.1, 0.0, -1.0]) | JUNK, lr=st.sampled_from([1.0, 0]) | JUNK,
       pairs=st.integers(0, 1) | JUNK, games=st.integers(1, 2) | JUNK,
       tables=st.lists(st.sampled_from(["racer", "greedy", "3p", "x"]), max_size=2) | JUNK,
       workers=st.just(1) | JUNK)
def test_fuzz_search_refuses_bad_arguments_by_name(generations: object, seed: object,
                                                   group: object, sigma: object, lr: object,
                                                   pairs: object, games: object,
                                                   tables: object, workers: object) -> None:
    """Any argument: a WinModel or a QwixxError, never another exception (tiny runs)."""
    try:
        out = search(load_model(), generations, seed, group, sigma, lr,  # type: ignore[arg-type]
                     pairs, games, tables, workers)  # type: ignore[arg-type]
    except QwixxError:
        return
    assert isinstance(out, WinModel)


def test_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for argv in ([str(tmp_path / "o.json"), "--start", str(tmp_path / "missing.json")],
                 [str(tmp_path / "o.json"), "--start", str(bad)],
                 [str(tmp_path / "o.json"), "--generations", "0", "--games", "1"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert "Traceback" not in capsys.readouterr().err


def test_input_gains_and_shifts_are_the_normalisation_written_out() -> None:
    """The derived group: zeros are the model itself; a gain g and a shift d turn each
    normalised input z into exp(g) z + d, checked on the hidden layer directly."""
    model = load_model()
    zero = flatten(model, "inputs")
    assert zero.shape == (76,) and not zero.any()
    assert (group_scales(model, "inputs") == 1).all()
    assert flatten(model, "inputs+head").shape == (173,)
    same = unflatten(model, "inputs", zero)
    assert np.array_equal(same.mean, model.mean) and np.array_equal(same.scale, model.scale)
    rng = np.random.default_rng(3)
    g, d = rng.normal(0, 0.3, N_FEATURES), rng.normal(0, 0.5, N_FEATURES)
    moved = unflatten(model, "inputs", np.concatenate([g, d]))
    x = rng.normal(0, 1, (7, N_FEATURES)) * model.scale + model.mean
    z = (x - model.mean) / model.scale
    want = 1 / (1 + np.exp(-(np.tanh((np.exp(g) * z + d) @ model.w1 + model.b1) @ model.w2
                             + model.b2)))
    assert np.allclose(moved.predict(x), want, rtol=1e-12, atol=1e-12)
    assert np.array_equal(moved.w1, model.w1) and np.array_equal(moved.b1, model.b1)
