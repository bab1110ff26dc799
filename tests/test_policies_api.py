"""Policy names, the Python policies' entry points and errors (fuzzed), the priority
definitions, score-distribution statistics, the result cache and the CLI commands."""

from __future__ import annotations

import importlib.util
import json
import math
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import game_states, rolls

from qwixx_math.cli import main
from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError, QwixxError
from qwixx_math.model import Sheet
from qwixx_math.notation import parse_roll, parse_sheet
from qwixx_math.policies import (
    HeuristicPolicy,
    Policy,
    PolicyKind,
    PolicySpec,
    ScoreDistribution,
    make_policy,
    policy_value,
    priority,
    score_distribution,
    simulate,
)
from qwixx_math.policies.scoring import FORBIDDEN, PENALTY_LAST
from qwixx_math.policies.store import load_result, result_path, save_result
from qwixx_math.rules import GameState, Phase, legal_plans, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import CacheWarning, Variant

SMALL = Variant.from_letters("ada", 5, 2, 2, 2)


# -- names --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["optimal", "fewest-skips", "seed-tips", "threshold-0",
                                  "threshold-3", "threshold-10"])
def test_policy_names_round_trip(name: str) -> None:
    spec = PolicySpec.parse(name)
    assert spec.name == name == str(spec)
    for near in (f"  {name} ", name.upper(), name.capitalize()):  # one rule: exactly
        with pytest.raises(ParseError, match=f"write '{name}'"):
            PolicySpec.parse(near)


@pytest.mark.parametrize("bad", ["", "best", "threshold-", "threshold-11", "threshold--1",
                                 "threshold-1.5", "seed tips"])
def test_unknown_policy_names_are_parse_errors(bad: str) -> None:
    with pytest.raises(ParseError, match="unknown policy"):
        PolicySpec.parse(bad)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20))
def test_policy_name_parser_fuzz(text: str) -> None:
    try:
        spec = PolicySpec.parse(text)
    except ParseError:
        return
    assert PolicySpec.parse(spec.name) == spec


def test_spec_constructor_checks() -> None:
    with pytest.raises(ParseError):
        PolicySpec(PolicyKind.SKIP_THRESHOLD, 1.5)
    with pytest.raises(ParseError):
        PolicySpec.skip_threshold(True)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        PolicySpec(3, 0.0)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        HeuristicPolicy(PolicySpec.optimal())


# -- the priority definitions ------------------------------------------------------------------

def test_fewest_skips_priority() -> None:
    f = PolicyKind.FEWEST_SKIPS
    assert priority(f, 0.0, 0, 0, 0, 0.0) == PENALTY_LAST
    # fewer skips first; among equal skips more marks; any mark beats the penalty
    assert priority(f, 0.0, 1, 0, 0, 0.0) > priority(f, 0.0, 2, 1, 1, 0.0)
    assert priority(f, 0.0, 2, 3, 2, 0.0) > priority(f, 0.0, 1, 3, 3, 0.0)
    assert priority(f, 0.0, 1, 9, 9, 0.0) > PENALTY_LAST


def test_seed_tips_priority_prefers_a_penalty_to_four_skips() -> None:
    s = PolicySpec.seed_tips()
    pen = priority(s.kind, s.param, 0, 0, 0, 0.0)
    for marks in (1, 2):
        for skips in range(0, 12):
            h = priority(s.kind, s.param, marks, skips, skips, 0.0)
            assert (h > pen) == (skips <= 3), (marks, skips)
            assert h != pen  # never a tie with the penalty


def test_threshold_priority_forbids_long_skips() -> None:
    t = PolicySpec.skip_threshold(2)
    assert priority(t.kind, t.param, 2, 3, 2, 0.0) > PENALTY_LAST
    assert priority(t.kind, t.param, 2, 3, 3, 0.0) == FORBIDDEN < PENALTY_LAST


def test_optimal_priority_is_the_value() -> None:
    assert priority(PolicyKind.OPTIMAL, 0.0, 2, 5, 5, 81.25) == 81.25


# -- the Python policies ----------------------------------------------------------------------

def test_choose_examples() -> None:
    policy = make_policy("seed-tips")
    assert isinstance(policy, Policy)
    roll = parse_roll("w:1,2/r:6/y:6/g:6/b:6")
    assert str(policy.choose(new_game(1), roll)) == "r3/-"  # skips red 2 only
    # four skips or more: the penalty instead (the seeds' tip)
    sheet = parse_sheet("r:2/y:2/g:12/b:12/p:0")
    state = GameState(Ruleset(players=1), (sheet,))
    far = parse_roll("w:4,3/r:6/y:6/g:1/b:1")  # 7: red/yellow skip 3..6, green/blue 11..8
    assert policy.choose(state, far).penalty
    assert not make_policy("fewest-skips").choose(state, far).penalty
    assert make_policy("threshold-3").choose(state, far).penalty


def test_choose_rejects_what_is_not_a_solitaire_turn() -> None:
    policy = make_policy("fewest-skips")
    roll = parse_roll("w:1,2/r:6/y:6/g:6/b:6")
    with pytest.raises(InvalidStateError, match="R3"):
        policy.choose(new_game(2), roll)
    rolled = new_game(1).with_roll(roll)
    with pytest.raises(IllegalMoveError, match="R4"):
        policy.choose(rolled, roll)
    with pytest.raises(IllegalMoveError, match="R4"):  # a die of an open colour is missing
        policy.choose(new_game(1), parse_roll("w:1,2/r:6/y:6/g:6"))
    with pytest.raises(ParseError):
        policy.choose("r:-", roll)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(state=game_states([Phase.ROLL]), roll=rolls(), name=st.sampled_from(
    ["seed-tips", "fewest-skips", "threshold-1"]))
def test_choose_fuzz(state: GameState, roll: object, name: str) -> None:
    """Any state and roll: a legal plan, or one of the documented errors."""
    policy = make_policy(name)
    try:
        plan = policy.choose(state, roll)  # type: ignore[arg-type]
    except (ParseError, InvalidStateError, IllegalMoveError):
        return
    assert state.players == 1
    assert plan in legal_plans(state, roll)  # type: ignore[arg-type]


# -- distributions ----------------------------------------------------------------------------

def test_score_distribution_statistics() -> None:
    d = ScoreDistribution("x", "k", False, -2, (0.25, 0.0, 0.5, 0.0, 0.25))  # -2, 0, 2
    assert d.total == 1.0
    assert d.mean == 0.0
    assert d.sd == pytest.approx(math.sqrt(2.0))
    assert d.cdf(-3) == 0.0 and d.cdf(-2) == 0.25 and d.cdf(1) == 0.75 and d.cdf(9) == 1.0
    assert d.percentile(25) == -2 and d.percentile(26) == 0 and d.percentile(75) == 0
    assert d.percentile(76) == 2 and d.percentile(100) == 2
    assert d.support() == (-2, 2) and d.mode == 0
    data = d.to_json()
    assert data["histogram"] == {"-2": 0.25, "0": 0.5, "2": 0.25}
    for bad in (0, 100.5, -1, "50", None, float("nan")):
        with pytest.raises(ParseError):
            d.percentile(bad)  # type: ignore[arg-type]


# -- cached results ---------------------------------------------------------------------------

def test_result_files_round_trip_and_damage(tmp_path: Path) -> None:
    path = result_path(tmp_path, SMALL, False, "seed-tips", "value")
    save_result(path, SMALL, False, "seed-tips", "value", None, {"expected_score": 1.5})
    assert load_result(path, SMALL, False, "seed-tips", "value", None) == {"expected_score": 1.5}
    with pytest.warns(CacheWarning, match="foreign or stale"):
        assert load_result(path, SMALL, True, "seed-tips", "value", None) is None
    assert not path.exists()  # removed, to be rebuilt
    save_result(path, SMALL, False, "seed-tips", "value", None, {"expected_score": 1.5})
    path.write_text(path.read_text().replace("1.5", "2.5"))
    with pytest.warns(CacheWarning, match="checksum"):
        assert load_result(path, SMALL, False, "seed-tips", "value", None) is None
    path.write_text("{not json")
    with pytest.warns(CacheWarning, match="corrupt"):
        assert load_result(path, SMALL, False, "seed-tips", "value", None) is None


def test_policy_value_and_distribution_are_cached(tmp_path: Path) -> None:
    ruleset = Ruleset(players=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = policy_value("threshold-1", ruleset, SMALL, cache=tmp_path)
        again = policy_value("threshold-1", ruleset, SMALL, cache=tmp_path)
    assert not first.loaded and again.loaded
    assert again.expected_score == first.expected_score
    dist = score_distribution("threshold-1", ruleset, SMALL, cache=tmp_path)
    assert dist.mean == pytest.approx(first.expected_score, abs=1e-9)
    assert score_distribution("threshold-1", ruleset, SMALL, cache=tmp_path) == dist
    # the optimal policy's results are tied to the solver's table in the same directory
    opt = policy_value("optimal", ruleset, SMALL, cache=tmp_path, evaluate_optimal=True)
    assert opt.expected_score > first.expected_score
    # by default the optimal value is the solver's V(start)
    assert policy_value("optimal", ruleset, SMALL, cache=tmp_path).expected_score == \
        pytest.approx(opt.expected_score, abs=1e-9)
    files = sorted(p.name for p in tmp_path.glob("policy-*.json"))
    assert len(files) == 3
    damaged = tmp_path / files[0]
    damaged.write_text(damaged.read_text()[:-5])
    with pytest.warns(CacheWarning):
        assert policy_value("optimal", ruleset, SMALL, cache=tmp_path,
                            evaluate_optimal=True) == opt


def test_api_argument_errors() -> None:
    with pytest.raises(ParseError):
        policy_value(3)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        policy_value("seed-tips", ruleset="official")  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        policy_value("seed-tips", variant="aadd")  # type: ignore[arg-type]


# -- the command line -------------------------------------------------------------------------

def test_cli_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--policy", "seed-tips", "--games", "3000", "--seed", "4",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 3000 and data["policy"] == "seed-tips" and data["seed"] == 4
    low, high = data["ci95"]
    assert low < data["mean"] < high and 60 < data["mean"] < 120


def test_cli_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--policy", "threshold-2", "--games", "500"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("500 games, policy threshold-2, seed 0")
    assert "95% CI [" in out and "games/s" in out


@pytest.mark.parametrize("args", [["simulate", "--games", "0"], ["simulate", "--seed", "-1"],
                                  ["simulate", "--policy", "greedy"],
                                  ["policies", "--policy", "nope"],
                                  ["distribution", "--policy", "threshold-x"]])
def test_cli_bad_input_exits_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert "error:" in capsys.readouterr().err


def test_cli_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    real = importlib.util.find_spec

    def no_matplotlib(name: str, *args: object) -> object:
        return None if name == "matplotlib" else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", no_matplotlib)
    assert main(["distribution", "--plot", str(tmp_path / "d.png"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'qwixx_math[plot]'" in err
    assert not (tmp_path / "d.png").exists()


def test_errors_are_qwixx_errors() -> None:
    assert issubclass(ParseError, QwixxError)
    with pytest.raises(QwixxError):
        make_policy("nope")
    assert Sheet.EMPTY.score == 0


def test_plot_draws_a_png(tmp_path: Path) -> None:
    """--plot's drawing writes a PNG (matplotlib, the optional extra ``plot``, is also a
    test dependency so that this runs everywhere)."""
    from qwixx_math.commands.distribution import plot_distribution

    dist = score_distribution("seed-tips", variant=SMALL, cache=False)
    target = tmp_path / "d.png"
    plot_distribution(dist, str(target))
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@settings(max_examples=60, deadline=None)
@given(games=st.one_of(st.integers(-5, 40), st.booleans(), st.floats(), st.text(max_size=3)),
       seed=st.one_of(st.integers(-5, 2**40), st.booleans(), st.none()),
       name=st.sampled_from(["seed-tips", "threshold-0", "bogus"]))
def test_simulate_fuzz(games: object, seed: object, name: str) -> None:
    """Any arguments: a result for the games asked, or a ParseError."""
    try:
        result = simulate(name, games, seed, variant=SMALL, cache=False)  # type: ignore[arg-type]
    except ParseError:
        return
    assert result.games == games and len(result.scores) == games
