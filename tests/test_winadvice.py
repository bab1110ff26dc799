"""Advice that plays to win (:mod:`qwixx_math.winadvice`, ``advise --objective win``).

What is exact is checked against values worked out by hand (a state where every choice
ends the game); what is estimated against an independent plain Monte Carlo of whole
games through the rules core; the common random numbers by watching the dice the
rollout players are shown; bad input is a QwixxError and exit code 2; the entry point
and the command are fuzzed.
"""

from __future__ import annotations

import functools
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games, rulesets

from qwixx_math import advise_win
from qwixx_math.arena.dice import DealDice
from qwixx_math.arena.registry import make_player, player_seed
from qwixx_math.cli import main
from qwixx_math.errors import IllegalMoveError, ParseError, QwixxError
from qwixx_math.model import Colour, Mark, Roll, TurnPlan
from qwixx_math.notation import parse_roll, parse_sheet
from qwixx_math.players.base import Player
from qwixx_math.players.win import WinPlayer
from qwixx_math.rules import GameState, Phase, legal_plans, new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.table import TableAdvisor
from qwixx_math.validation import game_seed
from qwixx_math.winadvice import (
    MAX_AUTO_ROLLOUTS,
    MAX_BUDGET,
    MIN_AUTO_ROLLOUTS,
    RACE_FIRST,
    SEPARATE_FIRST,
    SEPARATE_MODEL_SD,
    SEPARATE_STEP,
    WinAdvice,
    advise_win_separated,
    another_round,
    combined_estimate,
    model_shortlist,
    model_wins,
    position_after,
    race,
    rollout_shares,
    wilson,
)

FUZZ = settings(max_examples=20, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.filter_too_much])


def ending_state() -> GameState:
    """Action 2 of player 0, who passed in action 1 with 3 penalties; red is closed.  With
    white 6 and 6 and yellow 6 the only mark is yellow 12 (green and blue are marked down
    to 5 and 4), which closes the second colour (R14); no mark is the fourth penalty
    (R13).  Player 0 has 15 + 45 + 45 - 15 = 90: yellow 12 makes 28 + 45 + 45 - 15 = 103,
    a tie with player 1's 28 + 3 + 36 + 36 = 103 (1/2); no mark makes 85, a loss."""
    sheets = (parse_sheet("r:-/y:2,3,4,5,6/g:12,11,10,9,8,7,6,5,4/b:12,11,10,9,8,7,6,5,4/p:3"),
              parse_sheet("r:2,3,4,5,6,12,lock/y:2,3/g:12,11,10,9,8,7,6,5/"
                          "b:12,11,10,9,8,7,6,5/p:0"))
    state = GameState(Ruleset(2), sheets, active=0, closed=frozenset({Colour.RED}))
    return state.with_roll(parse_roll("w:6,6/y:6/g:1/b:1")).with_action1([None, None])


@functools.cache
def late_state() -> tuple[GameState, int]:
    """A 2-player position late in a seeded game of racers (action 1, turn >= 12), where
    the passive seat has at least two choices and the game goes on after each."""
    players = [make_player("racer", Ruleset(2), 0), make_player("racer", Ruleset(2), 1)]
    for deal in range(50):
        dice = DealDice(11, deal)
        state = new_game(2)
        while not state.is_over:
            rolled = state.with_roll(dice.roll(state.turn, state.closed))
            passive = 1 - rolled.active
            if rolled.turn >= 12 and not rolled.closed and \
                    len(TableAdvisor.for_ruleset(players=2, progress=False)
                        .advise_player(rolled, passive).plans) >= 2:
                return rolled, passive
            after1 = rolled.with_action1([p.action1(s, rolled) for s, p in enumerate(players)])
            state = after1 if after1.is_over else after1.with_action2(
                players[after1.active].action2(after1.active, after1))
    raise AssertionError("no late position found")  # pragma: no cover


# -- exact where the game ends -------------------------------------------------------------------

def test_choices_that_end_the_game_are_exact() -> None:
    state = ending_state()
    assert state.phase is Phase.ACTION2 and state.ended_by is None
    advice = advise_win(state, 0, rollouts=5, seed=3)
    got = {str(c.plan): c for c in advice.choices}
    assert {k: c.win for k, c in got.items()} == {"-/y12": 0.5, "-/-": 0.0}
    for c in advice.choices:
        assert c.exact and c.se == 0.0 and c.ci95 == (c.win, c.win) and c.se_loss == 0.0
        assert c.shares == (c.win,) * 5
    assert [str(c.plan) for c in advice.choices] == ["-/y12", "-/-"]
    assert got["-/-"].win_loss == 0.5
    # the table EV beside it is the table advice's (a finished game is worth its score)
    table = TableAdvisor.for_ruleset(state.ruleset, players=2, progress=False)
    for ranked in table.advise_action2(state).plans:
        assert advice.find(ranked.plan).expected_score == ranked.expected_score
        assert advice.find(ranked.plan).ev_loss == ranked.loss
    assert (got["-/y12"].expected_score, got["-/-"].expected_score) == (103.0, 85.0)
    with pytest.raises(IllegalMoveError, match="not a legal choice"):
        advice.find(TurnPlan(None, Mark(Colour.BLUE, 2)))


def test_an_estimate_is_not_called_exact() -> None:
    state, passive = late_state()
    advice = advise_win(state, passive, rollouts=6, seed=1, opponents="racer", own="racer")
    assert not any(c.exact for c in advice.choices)
    for c in advice.choices:
        assert c.ci95[0] <= c.win <= c.ci95[1] and c.ci95[1] - c.ci95[0] > 0
        assert c.se == pytest.approx(math.sqrt(
            sum((s - c.win) ** 2 for s in c.shares) / 5 / 6))


def test_wilson_against_its_formula_and_bounds() -> None:
    for mean, n in ((0.0, 4), (0.5, 10), (0.3, 100), (1.0, 7)):
        lo, hi = wilson(mean, n)
        z = 1.959963984540054
        # the interval's ends solve (p - mean)^2 = z^2 p (1 - p) / n
        for p in (lo, hi):
            assert (p - mean) ** 2 == pytest.approx(z * z * p * (1 - p) / n, abs=1e-12)
        assert 0.0 <= lo <= mean <= hi <= 1.0


# -- the estimate against a plain Monte Carlo through the rules core ------------------------------

def plain_monte_carlo(rolled: GameState, player: int, mark: Mark | None, games: int,
                      seed: int, name: str) -> tuple[float, float]:
    """The mean share of ``player`` and its standard error over ``games`` whole games from
    ``rolled`` (phase action1) where ``player`` plays ``mark`` and ``name`` plays every
    seat afterwards, on fresh random dice: only the rules core and the players."""
    players = [make_player(name, rolled.ruleset, s) for s in range(rolled.players)]
    rng = random.Random(seed)
    shares = []
    for _ in range(games):
        choices = [p.action1(s, rolled) for s, p in enumerate(players)]
        choices[player] = mark
        state = rolled.with_action1(choices)
        while not state.is_over:
            if state.phase is Phase.ACTION2:
                state = state.with_action2(players[state.active].action2(state.active, state))
                continue
            state = state.with_roll(random_roll(rng, state.dice_in_play))
            state = state.with_action1([p.action1(s, state) for s, p in enumerate(players)])
        shares.append(1.0 / len(state.winners) if player in state.winners else 0.0)
    mean = sum(shares) / games
    var = sum((x - mean) ** 2 for x in shares) / (games - 1)
    return mean, math.sqrt(var / games)


@pytest.mark.parametrize(("name", "rollouts", "games"), [("racer", 200, 300), ("win", 24, 40)])
def test_the_estimate_agrees_with_a_plain_monte_carlo(name: str, rollouts: int, games: int
                                                      ) -> None:
    rolled, passive = late_state()
    advice = advise_win(rolled, passive, rollouts=rollouts, seed=5, opponents=name, own=name)
    for choice in advice.choices[:2]:
        mean, se = plain_monte_carlo(rolled, passive, choice.plan.action1, games, 99, name)
        both = math.hypot(se, choice.se)
        assert both > 0.0
        assert abs(mean - choice.win) <= 4 * both, (str(choice.plan), mean, choice.win, both)


# -- common random numbers -----------------------------------------------------------------------

class Spy:
    """A player that records every roll it is shown in action 1 (and plays like ``inner``)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = "spy"
        self.seen: list[tuple[int, Roll, frozenset[Colour]]] = []

    def new_game(self, seat: int, state: GameState) -> None:
        self.inner.new_game(seat, state)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        assert state.roll is not None
        self.seen.append((state.turn, state.roll, state.closed))
        return self.inner.action1(seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return self.inner.action2(seat, state)

    def game_over(self, seat: int, state: GameState) -> None:
        self.inner.game_over(seat, state)


def test_every_choice_sees_the_same_dice() -> None:
    rolled, passive = late_state()
    rs = rolled.ruleset
    spy = Spy(make_player("racer", rs, 0))
    players: list[Player] = [spy, make_player("racer", rs, 1)]
    plans = [r.plan for r in TableAdvisor.for_ruleset(players=2, progress=False)
             .advise_player(rolled, passive).plans]
    rollouts = 5
    _, ended = rollout_shares(rolled, passive, plans, players, rollouts, seed=21)
    assert not any(ended)
    # split what the spy saw into the games played: each starts at the next turn
    runs: list[list[tuple[int, Roll, frozenset[Colour]]]] = []
    for turn, roll, closed in spy.seen:
        if turn == rolled.turn:
            continue  # the decision's own roll, asked once per rollout
        if turn == rolled.turn + 1:
            runs.append([])
        runs[-1].append((turn, roll, closed))
    assert len(runs) == rollouts * len(plans)
    for i in range(rollouts):
        dice = DealDice(21, i)
        for c in range(len(plans)):
            for turn, roll, closed in runs[i * len(plans) + c]:
                assert roll == dice.roll(turn - rolled.turn - 1, closed)
        # ... and the dice of rollout i differ from those of rollout i + 1
    assert DealDice(21, 0).full_roll(0) != DealDice(21, 1).full_roll(0) or \
        DealDice(21, 0).full_roll(1) != DealDice(21, 1).full_roll(1)


def test_a_choice_is_played_out_alike_whatever_else_is_asked() -> None:
    rolled, passive = late_state()
    rs = rolled.ruleset
    players = [make_player("win", rs, 0), make_player("win", rs, 1)]
    plans = [r.plan for r in TableAdvisor.for_ruleset(players=2, progress=False)
             .advise_player(rolled, passive).plans]
    alone, _ = rollout_shares(rolled, passive, plans[-1:], players, 6, seed=4)
    together, _ = rollout_shares(rolled, passive, plans, players, 6, seed=4)
    assert together[-1] == alone[0]
    again = advise_win(rolled, passive, rollouts=6, seed=4)
    assert [c.shares for c in again.choices] == \
        [c.shares for c in advise_win(rolled, passive, rollouts=6, seed=4).choices]
    other = advise_win(rolled, passive, rollouts=6, seed=5)
    assert [c.shares for c in other.choices] != [c.shares for c in again.choices]


def test_the_default_count_fits_the_budget() -> None:
    state = ending_state()
    assert advise_win(state, 0).rollouts == MIN_AUTO_ROLLOUTS  # nothing to play out
    rolled, passive = late_state()
    advice = advise_win(rolled, passive, opponents="greedy", own="greedy")
    assert MIN_AUTO_ROLLOUTS <= advice.rollouts <= MAX_AUTO_ROLLOUTS
    assert all(len(c.shares) == advice.rollouts for c in advice.choices)


def test_the_default_count_counts_every_decision_asked() -> None:
    """The budget is spent as the decisions are asked: the rounds stop when one more of
    the mean size so far would not fit, and never before the minimum."""
    rolled, passive = late_state()
    asked = []

    class Counting:
        def __init__(self, inner: Player) -> None:
            self.inner, self.name = inner, inner.name

        def new_game(self, seat: int, state: GameState) -> None:
            return None

        def game_over(self, seat: int, state: GameState) -> None:
            return None

        def action1(self, seat: int, state: GameState) -> Mark | None:
            asked.append(seat)
            return self.inner.action1(seat, state)

        def action2(self, seat: int, state: GameState) -> Mark | None:
            asked.append(seat)
            return self.inner.action2(seat, state)

    plans = [r.plan for r in TableAdvisor.for_ruleset(players=2, progress=False)
             .advise_player(rolled, passive).plans]
    rounds = {}
    for budget in (1, 600):
        asked.clear()
        players = [Counting(make_player("greedy", rolled.ruleset, s)) for s in range(2)]
        shares, _ = rollout_shares(rolled, passive, plans, players, None, seed=2,
                                   budget=budget)
        rounds[budget] = len(shares[0])
        assert not another_round(len(asked), rounds[budget], budget=budget)
        assert len(asked) <= max(budget, 1.5 * len(asked) / rounds[budget] * MIN_AUTO_ROLLOUTS)
    assert rounds[1] == MIN_AUTO_ROLLOUTS < rounds[600]


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "message"), [
    ({"player": 2}, "does not exist"),
    ({"player": -1}, "does not exist"),
    ({"rollouts": 1}, "rollouts"),
    ({"rollouts": 10**7}, "rollouts"),
    ({"rollouts": True}, "rollouts"),
    ({"seed": -1}, "seed"),
    ({"opponents": "exec:python bot.py"}, "built-in"),
    ({"opponents": "nobody"}, "unknown player"),
    ({"opponents": ["win", "win"]}, "one per other seat"),
    ({"own": 3}, "text"),
    ({"progress": "yes"}, "progress"),
    ({"rollouts": None, "budget": 0}, "budget"),
    ({"rollouts": None, "budget": 2.5}, "budget"),
    ({"rollouts": None, "budget": True}, "budget"),
    ({"budget": "3000"}, "budget"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    state, passive = late_state()
    args = {"player": passive, "rollouts": 2, **kwargs}
    with pytest.raises(QwixxError, match=message):
        advise_win(state, **args)


def test_states_without_a_decision_are_refused() -> None:
    with pytest.raises(ParseError, match="R3"):
        advise_win(new_game(1).with_roll(parse_roll("w:1,2/r:3/y:4/g:5/b:6")), rollouts=2)
    with pytest.raises(IllegalMoveError, match=r"R4: .*give the roll"):
        advise_win(new_game(2), rollouts=2)
    over = ending_state().with_action2(None)
    with pytest.raises(IllegalMoveError, match="over"):
        advise_win(over, 0, rollouts=2)
    with pytest.raises(ParseError, match="nothing to decide"):
        advise_win(ending_state(), 1, rollouts=2)
    with pytest.raises(ParseError, match="GameState"):
        advise_win("state", rollouts=2)  # type: ignore[arg-type]


# -- the command ---------------------------------------------------------------------------------

def _write(tmp_path: Path, state: GameState) -> str:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state.to_json()), encoding="utf-8")
    return str(path)


def test_cli_prints_what_the_api_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    rolled, passive = late_state()
    path = _write(tmp_path, rolled)
    code = main(["advise", "--objective", "win", "--state", path, "--player", str(passive),
                 "--rollouts", "4", "--seed", "2", "--opponents", "racer", "--own-player",
                 "racer", "--json", "--quiet"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    api = advise_win(rolled, passive, rollouts=4, seed=2, opponents="racer", own="racer")
    expected = api.to_json()["choices"]
    for got, want in zip(data["choices"], expected, strict=True):
        # the CLI's words add the consequences (what a plan skips, closes and ends)
        assert got.pop("description").startswith(want.pop("description"))
    assert data["choices"] == expected
    assert (data["rollouts"], data["rollout_players"], data["players"]) == (
        4, api.to_json()["rollout_players"], 2)
    code = main(["advise", "--objective", "win", "--state", path, "--player", str(passive),
                 "--rollouts", "4", "--seed", "2", "--opponents", "racer", "--own-player",
                 "racer", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and "objective: win" in out and "table EV" in out
    assert f"{100 * api.best.win:.1f}" in out and str(api.best.plan) in out


def test_cli_exact_choices_are_marked(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    path = _write(tmp_path, ending_state())
    assert main(["advise", "--objective", "win", "--state", path, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.count("= exact") == 2 and " 50.0" in out and "  0.0" in out


@pytest.mark.parametrize("extra", [
    [],                                               # no --state
    ["--state", "STATE", "--player", "2"],
    ["--state", "STATE", "--player", "0", "--rollouts", "1"],
    ["--state", "STATE", "--opponents", "exec:./bot"],
    ["--state", "STATE", "--opponents", "nobody"],
    ["--state", "STATE", "--opponents", "win,win,win"],
    ["--state", "STATE", "--sheet", "r:-"],
    ["--state", "OVER"],
    ["--state", "ONE", "--rollouts", "2"],
    ["--state", "STATE", "--roll", "w:1,2/r:3/y:4/g:5/b:6"],
])
def test_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               extra: list[str]) -> None:
    rolled, _ = late_state()
    files = {"STATE": _write(tmp_path, rolled)}
    (tmp_path / "over.json").write_text(json.dumps(ending_state().with_action2(None).to_json()))
    files["OVER"] = str(tmp_path / "over.json")
    one = new_game(1).with_roll(parse_roll("w:1,2/r:3/y:4/g:5/b:6"))
    (tmp_path / "one.json").write_text(json.dumps(one.to_json()))
    files["ONE"] = str(tmp_path / "one.json")
    argv = ["advise", "--objective", "win", "--quiet", *[files.get(a, a) for a in extra]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


@pytest.mark.parametrize("option", [["--rollouts", "8"], ["--seed", "1"],
                                    ["--opponents", "racer"], ["--own-player", "win"]])
def test_cli_win_options_need_the_win_objective(capsys: pytest.CaptureFixture[str],
                                                option: list[str]) -> None:
    argv = ["advise", "--sheet", "r:-", "--roll", "w:1,2/r:3/y:4/g:5/b:6", "--quiet", *option]
    assert main(argv) == 2
    assert "only with --objective win" in capsys.readouterr().err


# -- fuzz ----------------------------------------------------------------------------------------

#: States of random legal 2-player games, any dialect, any phase, the official R15 (the
#: 3- to 5-player tables, 1 to 1.7 GB each, and the R15 Option's are not loaded in the
#: default run: CI would solve them first).
TWO_PLAYERS = games(ruleset=rulesets(st.just(2)).filter(
    lambda r: not r.action2_after_game_end)).flatmap(lambda g: st.sampled_from(g.states))
NAMES = st.sampled_from(["greedy", "random", "racer", "nobody", "exec:x", "", "win-", "\x00"])
JUNK = st.sampled_from([None, 2.0, "2", True, b"x", [], object(), -1, 2**70])


@FUZZ
@given(state=TWO_PLAYERS | st.just(new_game(1).with_roll(parse_roll("w:1,2/r:3/y:4/g:5/b:6"))),
       player=st.integers(-1, 2) | st.none() | JUNK,
       rollouts=st.integers(-1, 3) | JUNK, seed=st.integers(-1, 2**64) | JUNK,
       opponents=NAMES | st.lists(NAMES, max_size=2) | JUNK, own=NAMES | JUNK,
       budget=st.integers(-1, 40) | JUNK)
def test_fuzz_advise_win(state: GameState, player: Any, rollouts: Any, seed: Any,
                         opponents: Any, own: Any, budget: Any) -> None:
    # rollouts None: the count that fits ``budget`` decisions (small here: the default
    # budget plays for a second, too long for a fuzz); ``budget`` junk must be refused
    # whatever ``rollouts`` says
    try:
        advice = advise_win(state, player, rollouts=rollouts, seed=seed, opponents=opponents,
                            own=own, budget=budget)
    except QwixxError:
        return
    assert isinstance(budget, int) and not isinstance(budget, bool) and budget >= 1
    assert isinstance(advice, WinAdvice)
    assert advice.rollouts == rollouts or (rollouts is None and advice.rollouts >= 2)
    wins = [c.win for c in advice.choices]
    assert wins == sorted(wins, reverse=True)
    for c in advice.choices:
        assert 0.0 <= c.ci95[0] <= c.win <= c.ci95[1] <= 1.0
        assert len(c.shares) == advice.rollouts and (c.se == 0.0 or not c.exact)
    rolled = state
    table = TableAdvisor.for_ruleset(state.ruleset, players=2, progress=False)
    assert {c.plan for c in advice.choices} == {
        r.plan for r in table.advise_player(rolled, advice.player).plans}
    json.dumps(advice.to_json())


@FUZZ
@given(state=TWO_PLAYERS,
       tokens=st.lists(st.sampled_from(
           ["--player", "0", "1", "2", "-1", "--seed", "7", "--top", "2", "--json",
            "--opponents", "greedy", "racer,random", "exec:x", "--roll", "w:1,2/r:3/y:4/g:5/b:6",
            "--players", "3", "--sheet", "r:-", "--passive", "--action2-after-game-end",
            "--rollouts", "x", "\u0663"]), max_size=6))
def test_fuzz_cli_objective_win(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                state: GameState, tokens: list[str]) -> None:
    path = _write(tmp_path, state)
    argv = ["advise", "--objective", "win", "--state", path, "--quiet", *tokens,
            "--rollouts", "2", "--own-player", "greedy"]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    captured = capsys.readouterr()
    assert code in (0, 2), captured.err
    assert "Traceback" not in captured.err
    if code == 0 and "--json" in tokens:
        assert json.loads(captured.out)["objective"] == "win"


# -- until separated (advise --objective win's default) --------------------------------------

def _paired_low(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The low end of the paired 95% interval of mean(a - b), computed plainly."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / len(d)
    var = sum((x - mean) ** 2 for x in d) / (len(d) - 1)
    return mean - 1.959963984540054 * math.sqrt(var / len(d))


def test_until_separated_stops_as_it_says() -> None:
    rolled, passive = late_state()
    stops = set()
    for budget in (1, 400, 30_000):
        advice = advise_win_separated(rolled, passive, seed=3, opponents="greedy",
                                      own="greedy", budget=budget, drop_z=None,
                                      model_keep=None)
        stops.add(advice.stopped)
        assert advice.stopped in ("separated", "budget")
        k = advice.rollouts
        assert all(len(c.shares) == k for c in advice.choices)
        assert all(c.model_win is not None and 0.0 <= c.model_win <= 1.0
                   for c in advice.choices)
        best = advice.choices[0]
        key = position_after(rolled, passive, best.plan)
        second = next(c for c in advice.choices
                      if position_after(rolled, passive, c.plan) != key)
        low = _paired_low(best.shares, second.shares)
        if advice.stopped == "separated":
            assert low > 0.0 and k >= SEPARATE_FIRST
            assert (k - SEPARATE_FIRST) % SEPARATE_STEP == 0
        else:
            assert k >= MIN_AUTO_ROLLOUTS
        if budget == 1:
            assert k == MIN_AUTO_ROLLOUTS and advice.stopped == "budget"
        # the same call gives the same answer: the budget counts decisions, not seconds
        again = advise_win_separated(rolled, passive, seed=3, opponents="greedy",
                                     own="greedy", budget=budget, drop_z=None,
                                     model_keep=None)
        assert again == advice
    assert stops == {"separated", "budget"}  # both ends seen on this position


def test_until_separated_is_exact_when_the_game_ends() -> None:
    advice = advise_win_separated(ending_state(), 0)
    assert advice.stopped == "exact" and advice.rollouts == MIN_AUTO_ROLLOUTS
    assert [(str(c.plan), c.win) for c in advice.choices] == [("-/y12", 0.5), ("-/-", 0.0)]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"budget": 0}, "budget"), ({"budget": MAX_BUDGET + 1}, "budget"),
    ({"budget": True}, "budget"), ({"seed": -1}, "seed"), ({"seed": 2**63}, "seed"),
    ({"player": 5}, "does not exist"), ({"opponents": "nobody"}, "unknown player"),
    ({"drop_z": 0.0}, "drop_z"), ({"drop_z": math.inf}, "drop_z"), ({"drop_z": "3"}, "drop_z"),
    ({"drop_z": True}, "drop_z"), ({"model_keep": 0}, "model_keep"),
    ({"model_keep": 2.5}, "model_keep"), ({"model_sd": 0.0}, "model_sd"),
    ({"model_sd": math.nan}, "model_sd"), ({"model_sd": True}, "model_sd"),
    ({"model_sd": "0.05"}, "model_sd"),
])
def test_until_separated_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    state, passive = late_state()
    with pytest.raises(QwixxError, match=message):
        advise_win_separated(state, **({"player": passive} | kwargs))


@FUZZ
@given(games(players=st.integers(2, 3)), st.data())
def test_model_wins_are_what_the_win_player_maximises(game: Any, data: st.DataObject) -> None:
    """The ``win`` player takes the plan of the highest model value (its own direct route);
    model_wins, built from the positions after each plan, rates that plan highest too."""
    states = [s for s in game.states if s.phase is Phase.ACTION1 and s.ruleset.is_official]
    if not states:
        return
    rolled = data.draw(st.sampled_from(states))
    seat = rolled.active
    plans = legal_plans(rolled)
    values = model_wins(rolled, seat, plans)
    chosen = WinPlayer(rolled.ruleset).action1(seat, rolled)
    assert max(v for p, v in zip(plans, values, strict=True) if p.action1 == chosen) >= \
        max(values) - 1e-9


# -- the race of the default (model shortlist, drops) -----------------------------------------

def _plain_z(a: tuple[float, ...] | list[float], b: tuple[float, ...] | list[float]
             ) -> tuple[float, float]:
    """mean(a - b) over the common rollouts and its standard error, computed plainly."""
    d = [x - y for x, y in zip(a, b, strict=False)]
    mean = sum(d) / len(d)
    return mean, math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1) / len(d))


def test_race_keeps_the_leader_one_choice_per_position_and_drops_by_the_paired_z() -> None:
    rng = random.Random(5)
    plans = [TurnPlan(None, None)] * 7
    for _ in range(200):
        k = rng.randint(3, 12)
        shares = [[rng.choice((0.0, 0.5, 1.0)) if rng.random() < 0.7 else 1.0 * (c % 2)
                   for _ in range(k)] for c in range(7)]
        keys = [rng.choice("abcde") for _ in range(7)]
        evs = [float(rng.randint(0, 2)) for _ in range(7)]
        alive = sorted(rng.sample(range(7), rng.randint(1, 7)))
        z = rng.choice((1.0, 2.0, 3.0))
        kept = race(shares, evs, plans, keys, alive, z)
        # plainly: rank by mean, then EV, then index (equal plans: the rules core's order
        # is the index order of equal plans); the leader stays; one choice per position
        order = sorted(alive, key=lambda c: (-sum(shares[c]) / k, -evs[c], c))
        leader = order[0]
        expect = []
        for c in order:
            if any(keys[d] == keys[c] for d in order[:order.index(c)]):
                continue
            if c != leader:
                mean, se = _plain_z(shares[leader], shares[c])
                if mean - z * se > 1e-12:
                    continue
                if abs(mean - z * se) <= 1e-12:  # too close to call in floats: skip
                    expect = kept
                    break
            expect.append(c)
        assert kept == sorted(expect)
        assert leader in kept and set(kept) <= set(alive)


def test_model_shortlist_is_the_best_positions_by_the_model() -> None:
    rng = random.Random(6)
    plans = [TurnPlan(None, None)] * 9
    for _ in range(200):
        models = [rng.choice((0.1, 0.3, 0.5, 0.9)) for _ in range(9)]
        evs = [float(rng.randint(0, 3)) for _ in range(9)]
        keys = [rng.choice("abcdef") for _ in range(9)]
        keep = rng.randint(1, 9)
        kept = model_shortlist(models, evs, plans, keys, keep)
        # plainly: for every position its best choice; then the best `keep` of those
        best_of = {}
        for c in range(9):
            key = (-models[c], -evs[c], c)
            if keys[c] not in best_of or key < best_of[keys[c]][0]:
                best_of[keys[c]] = (key, c)
        expect = sorted(c for _, c in sorted(best_of.values())[:keep])
        assert kept == expect


@functools.cache
def _raced() -> tuple[GameState, int, WinAdvice]:
    """A mid-game active-seat decision with many choices, raced on a small budget."""
    sheets = ["r:2,3,4,5/y:2,3/g:12,11,10/b:12,11", "r:2,3,4/y:2,3,4,5/g:12,11/b:12,11,10,9"]
    rolled = GameState(Ruleset(2), tuple(parse_sheet(s) for s in sheets)).with_roll(
        parse_roll("w:3,4/r:1/y:2/g:5/b:6"))
    return rolled, 0, advise_win_separated(rolled, 0, seed=2, budget=2500, model_keep=4,
                                           drop_z=1.0)


def test_the_race_replays_the_same_games() -> None:
    """Every rollout of a raced advice is the game a plain replay of that choice alone on
    round r's dice gives: leaving the race changes who plays, never the games played."""
    rolled, seat, advice = _raced()
    assert advice.stopped in ("separated", "budget")
    counts = {c.rollouts for c in advice.choices}
    assert max(counts) == advice.rollouts > RACE_FIRST and min(counts) == MIN_AUTO_ROLLOUTS
    players = [make_player("win", rolled.ruleset, player_seed(2, s)) for s in range(2)]
    for choice in (advice.choices[0], advice.choices[-1]):
        for r in (0, choice.rollouts - 1):
            got, _ = rollout_shares(rolled, seat, [choice.plan], players, 1, game_seed(2, r))
            assert got[0][0] == choice.shares[r]


def test_the_race_ranks_the_choices_that_left_after_the_others() -> None:
    rolled, seat, advice = _raced()
    k = advice.rollouts
    stayed = [c for c in advice.choices if c.rollouts == k]
    assert list(advice.choices[:len(stayed)]) == stayed  # those still in the race first
    ranked_by = [c.win if c.combined is None else c.combined for c in stayed]
    assert ranked_by == sorted(ranked_by, reverse=True)
    left = advice.choices[len(stayed):]
    assert left and all(c.rollouts < k for c in left)
    # the shortlist: after round 2, only the model's 4 best positions went on
    models = [c.model_win for c in advice.choices]
    assert all(m is not None for m in models)
    on = {position_after(rolled, seat, c.plan) for c in advice.choices if c.rollouts > 2}
    assert len(on) <= 4
    best_model = max(c.model_win or 0.0 for c in advice.choices)
    assert any(c.model_win == best_model for c in advice.choices if c.rollouts > 2)
    # losses are paired over the common rollouts
    for c in advice.choices[1:]:
        _, se = _plain_z(advice.best.shares, c.shares)
        assert c.se_loss == pytest.approx(se)
    data = advice.to_json()
    assert [c["rollouts"] for c in data["choices"]] == [c.rollouts for c in advice.choices]
    assert "left the race early" in advice.to_text()
    assert advise_win_separated(rolled, 0, seed=2, budget=2500, model_keep=4,
                                drop_z=1.0) == advice  # deterministic


def test_separation_z_spends_five_percent_over_all_looks() -> None:
    """Against a slow obvious computation: bisect the normal tail for each look's share of
    the 5%, and the shares sum to (almost) 5%."""
    from qwixx_math.winadvice import separation_z

    def tail(z: float) -> float:  # two-sided normal tail, by erfc
        return math.erfc(z / math.sqrt(2.0))

    total = 0.0
    for look in range(1, 2000):
        alpha = 0.05 * 6.0 / (math.pi ** 2 * look ** 2)
        lo, hi = 0.0, 20.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if tail(mid) > alpha else (lo, mid)
        if look < 50:
            assert separation_z(look) == pytest.approx(lo, abs=1e-6)
        total += tail(separation_z(look))
    assert 0.0499 < total <= 0.05 + 1e-9
    assert all(separation_z(j) < separation_z(j + 1) for j in range(1, 30))


def test_plans_that_reach_one_state_share_one_game() -> None:
    """Two plans that mark the same cells play the same games (one game, shared), and a
    plan's shares do not depend on which other plans are asked with it."""
    rolled = GameState(Ruleset(2), (parse_sheet("r:-"), parse_sheet("r:-"))).with_roll(
        parse_roll("w:3,4/r:3/y:2/g:5/b:6"))
    players = [make_player("win", rolled.ruleset, 0), make_player("win", rolled.ruleset, 1)]
    plans = [r.plan for r in TableAdvisor.for_ruleset(players=2, progress=False)
             .advise_player(rolled, 0).plans]
    keys = [position_after(rolled, 0, p) for p in plans]
    twins = [(a, b) for a in range(len(plans)) for b in range(a + 1, len(plans))
             if keys[a] == keys[b]]
    assert twins
    a, b = twins[0]
    both, _ = rollout_shares(rolled, 0, [plans[a], plans[b]], players, 3, seed=8)
    alone, _ = rollout_shares(rolled, 0, [plans[b]], players, 3, seed=8)
    assert both[0] == both[1] == alone[0]


def test_a_budget_stop_ranks_the_race_by_rollouts_and_model_combined() -> None:
    """After a stop at the budget the choices still in the race are ranked by the
    precision-weighted mean of their rollouts and the model's estimate (written out here);
    without the model (model_sd=None) by their rollouts alone, and nothing else changes."""
    rolled, _seat, advice = _raced()
    assert advice.stopped == "budget"
    k = advice.rollouts
    stayed = [c for c in advice.choices if c.rollouts == k]
    assert len(stayed) >= 2
    sd = SEPARATE_MODEL_SD
    for c in advice.choices:
        if c.rollouts < k:
            assert c.combined is None
            continue
        assert c.model_win is not None and c.se > 0.0
        by_hand = (c.win / c.se**2 + c.model_win / sd**2) / (1 / c.se**2 + 1 / sd**2)
        assert c.combined == pytest.approx(by_hand, abs=1e-12)
        assert min(c.win, c.model_win) <= c.combined <= max(c.win, c.model_win)
    plain = advise_win_separated(rolled, 0, seed=2, budget=2500, model_keep=4, drop_z=1.0,
                                 model_sd=None)
    assert all(c.combined is None for c in plain.choices)
    assert [c.win for c in plain.choices[:len(stayed)]] == sorted(
        (c.win for c in stayed), reverse=True)
    # the same rollouts either way: only the order of the choices in the race differs
    assert {(str(c.plan), c.shares) for c in plain.choices} == {
        (str(c.plan), c.shares) for c in advice.choices}
    assert advice.to_json()["choices"][0]["combined"] == advice.best.combined
    assert "combined with the model" in advice.to_text()
    assert combined_estimate(0.3, 0.0, 0.9, sd) == 0.3  # no spread: the rollouts as they are
