"""Review by the same model as the advice (issue 35): the table model and the win objective.

Every loss of the table review is recomputed here by brute force: each legal choice at
the moment of the decision is played out through the rules core (the other players'
simultaneous action-1 choices unknown, so they pass; the active player's action 2 once
everybody's action 1 is known) and valued through the compact key
(``test_advice.keyed_value``), not the advisor's look-up.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_advice import keyed_value

from qwixx_math import IllegalMoveError, ParseError, QwixxError
from qwixx_math.advice import Advisor
from qwixx_math.arena.registry import make_player, player_seed
from qwixx_math.cli import main
from qwixx_math.model import Colour, Mark, TurnPlan
from qwixx_math.notation import format_plan
from qwixx_math.record import GameRecord, TurnRecord, random_game
from qwixx_math.review import MAX_REVIEW_ROLLOUTS, TABLE_NOTE, review_game, review_players
from qwixx_math.rules import (
    GameState,
    Phase,
    legal_action1,
    legal_action2,
    legal_plans,
    new_game,
    random_roll,
)
from qwixx_math.ruleset import Ruleset
from qwixx_math.table import TableAdvisor
from qwixx_math.winadvice import advise_win, rollout_shares


@pytest.fixture(scope="module")
def table2() -> TableAdvisor:
    return TableAdvisor.for_ruleset(Ruleset(players=2), players=2, progress=False)


def _value(advisor: TableAdvisor, after: GameState, player: int, k: int) -> float:
    sheet = after.sheets[player]
    if after.is_over or after.ended_by is not None:
        return float(sheet.score)
    return keyed_value(advisor.table, sheet, after.closed, k)


def brute_losses(advisor: TableAdvisor, record: GameRecord, p: int) -> list[float]:
    """Each of ``p``'s decisions' loss with what ``p`` knew then, by playing every choice out."""
    n = len(record.players)
    state = new_game(ruleset=record.ruleset, first=record.first)
    losses = []
    for turn in record.turns:
        rolled = state.with_roll(turn.roll)
        a = rolled.active
        a1 = turn.action1[p]
        if p != a:  # the others' choices unknown: they pass; no action 2 applied
            values: dict[Mark | None, float] = {}
            for choice in (None, *legal_action1(rolled, p)):
                marks: list[Mark | None] = [None] * n
                marks[p] = choice
                values[choice] = _value(advisor, rolled.with_action1(marks), p,
                                        (p - a - 1) % n)
            losses.append(max(values.values()) - values[a1])
        else:
            plans = {plan: _value(advisor, state.play_plan(turn.roll, plan), p, n - 1)
                     for plan in legal_plans(state, turn.roll)}
            loss = max(plans.values()) - max(v for q, v in plans.items() if q.action1 == a1)
            after1 = rolled.with_action1(turn.action1)
            if after1.phase is Phase.ACTION2:
                a2s = {m: _value(advisor, after1.with_action2(m), p, n - 1)
                       for m in (None, *legal_action2(after1))}
                loss += max(a2s.values()) - a2s[turn.action2]
            losses.append(loss)
        state = state.play_turn(turn.roll, turn.action1, turn.action2)
    return losses


@pytest.mark.parametrize(("seed", "a2end"), [(3, False), (11, False), (6, True)])
def test_table_losses_match_brute_force(table2: TableAdvisor, seed: int, a2end: bool) -> None:
    """Both R15 options (with the option, the active player still takes action 2 when
    action 1 ended the game)."""
    ruleset = Ruleset(players=2, action2_after_game_end=a2end)
    if a2end:
        table2 = TableAdvisor.for_ruleset(ruleset, progress=False)
    record = random_game(players=2, seed=seed, ruleset=ruleset)
    for p in range(2):
        review = review_game(record, p, table2)
        assert review == review_game(record, p)  # the advisor the record's ruleset picks
        expected = brute_losses(table2, record, p)
        assert review.table_size == 2 and review.model == table2.model
        assert [d.loss for d in review.decisions] == pytest.approx(expected, abs=1e-9)
        assert review.mean_loss == pytest.approx(sum(expected) / len(expected), abs=1e-9)
        assert all(d.loss >= -1e-12 and 0 <= d.action2_loss <= d.loss + 1e-9
                   for d in review.decisions)
        assert review.note == TABLE_NOTE
        prof = review.to_json()["proficiency"]
        assert prof["decisions"] == len(record.turns)
        assert prof["total_ev_loss"] == pytest.approx(sum(expected), abs=1e-9)
        assert f"mean loss {review.mean_loss:.3f} points per decision" in prof["meaning"]
        assert prof["meaning"] in review.to_text()


def advised_record(advisor: TableAdvisor, seed: int, penalties_of: int | None = None
                   ) -> GameRecord:
    """A 2-player game in which every decision is the table advice's first choice at its
    moment (``penalties_of``: that seat takes a penalty on each of its own turns instead,
    which ends the game after its fourth turn)."""
    rng = random.Random(seed)
    state = new_game(2)
    turns = []
    while not state.is_over:
        roll = random_roll(rng, state.dice_in_play)
        rolled = state.with_roll(roll)
        a = rolled.active
        marks = [advisor.advise_player(rolled, s).best.plan.action1 for s in range(2)]
        if a == penalties_of:
            marks[a] = None
        after1 = rolled.with_action1(marks)
        a2 = None
        if after1.phase is Phase.ACTION2 and a != penalties_of:
            a2 = advisor.advise_player(after1, a).best.plan.action2
        turns.append(TurnRecord(a, roll, tuple(marks), a2))
        state = after1 if after1.is_over else after1.with_action2(a2)
    return GameRecord(("A", "B"), Ruleset(players=2), tuple(turns))


def test_advised_play_costs_nothing_but_the_solitaire_model_charges_it(
        table2: TableAdvisor) -> None:
    """The issue's case: choices 'advise --players 2' ranks first cost nothing in
    'review --players 2'; the solitaire model (with hindsight) charged some of them."""
    solo = Advisor.for_ruleset(progress=False)
    charged_passes = 0
    for seed in (1, 2):
        record = advised_record(table2, seed)
        for p in range(2):
            review = review_game(record, p)  # default: the record's table size
            assert review.table_size == 2
            assert review.total_loss == 0.0 and review.optimal_decisions == len(record.turns)
            old = review_game(record, p, solo)
            assert old.table_size == 1
            charged_passes += sum(1 for d, t in zip(old.decisions, record.turns, strict=True)
                                  if d.loss > 1e-9 and not d.active and t.action1[p] is None)
    assert charged_passes > 0


def test_review_charges_what_advise_cli_ranks(table2: TableAdvisor, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A passive pass that 'advise --players 2 --state' ranks first: review --json charges 0;
    a passive choice it does not rank first is charged its loss there."""
    record = random_game(players=2, seed=5, names=["A", "B"])
    rpath = tmp_path / "game.json"
    rpath.write_text(json.dumps(record.to_json()))
    assert main(["review", str(rpath), "--json", "--quiet", "--players", "2"]) == 0
    reviews = json.loads(capsys.readouterr().out)["reviews"]
    state = new_game(2)
    checked = 0
    for k, turn in enumerate(record.turns[:4]):
        rolled = state.with_roll(turn.roll)
        spath = tmp_path / "state.json"
        spath.write_text(json.dumps(rolled.to_json()))
        for p in range(2):
            if p == rolled.active:
                continue
            assert main(["advise", "--state", str(spath), "--player", str(p), "--json",
                         "--quiet"]) == 0
            plans = json.loads(capsys.readouterr().out)["plans"]
            chosen = format_plan(TurnPlan(turn.action1[p], None))
            entry = next(x for x in plans if x["plan"] == chosen)
            decision = reviews[p]["all_decisions"][k]
            assert decision["turn"] == k + 1 and not decision["active"]
            assert decision["loss"] == pytest.approx(entry["loss"], abs=1e-9)
            checked += 1
        state = state.play_turn(turn.roll, turn.action1, turn.action2)
    assert checked == 4


def test_model_selection_and_errors(table2: TableAdvisor) -> None:
    record = random_game(players=2, seed=4)
    assert review_game(record, 0, table_size=1).table_size == 1
    assert review_game(record, 0, table2, table_size=2).table_size == 2
    with pytest.raises(ParseError, match="R3: --players 3"):
        review_game(record, 0, table_size=3)
    with pytest.raises(ParseError, match="R3"):
        review_game(record, 0, table_size=0)
    with pytest.raises(ParseError, match="TableAdvisor"):
        review_game(record, 0, Advisor.for_ruleset(progress=False), table_size=2)
    with pytest.raises(ParseError, match="objective"):
        review_game(record, 0, objective="score")
    with pytest.raises(ParseError, match="only with the win objective"):
        review_game(record, 0, rollouts=4)
    with pytest.raises(ParseError, match="win objective needs a table"):
        review_game(random_game(players=1, seed=1), objective="win")
    with pytest.raises(ParseError, match="rollouts must be between 2"):
        review_game(record, 0, objective="win", rollouts=1)
    with pytest.raises(ParseError, match="rollouts must be between"):
        review_game(record, 0, objective="win", rollouts=MAX_REVIEW_ROLLOUTS + 1)
    with pytest.raises(ParseError, match="seed"):
        review_game(record, 0, objective="win", rollouts=2, seed=-1)
    with pytest.raises(ParseError, match="GameRecord"):
        review_game("game.json", 0)  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="no player named"):
        review_players(record, ["nobody"])
    turns = list(record.turns)
    first = turns[0]
    unmakeable = next(n for n in range(2, 13) if n not in first.roll.action2_numbers(Colour.RED))
    bad = TurnRecord(first.active, first.roll, first.action1, Mark(Colour.RED, unmakeable))
    illegal = GameRecord(record.players, record.ruleset, (bad, *turns[1:]))
    for model in (1, 2):
        with pytest.raises(IllegalMoveError, match=r"^R6: turn 1: .*validate"):
            review_game(illegal, 0, table_size=model)


# -- the win objective ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def short_record(table2: TableAdvisor) -> GameRecord:
    """Seat A takes a penalty on every own turn: the game ends after 7 turns."""
    record = advised_record(table2, 7, penalties_of=0)
    assert len(record.turns) == 7
    return record


#: Fast rollout players for the fast tests (the plumbing is under test, not the players).
FAST = {"opponents": "random", "own": "random"}


def fresh_loss(state: GameState, p: int, best: TurnPlan, chosen: TurnPlan, rollouts: int,
               seed: int, name: str) -> tuple[float, float]:
    """``best``'s share of the win minus ``chosen``'s on rollouts of their own (seed + 2**62),
    every seat played by ``name``: the mean and the paired standard error."""
    seed = (seed + 2**62) % 2**63
    players = [make_player(name, state.ruleset, player_seed(seed, s))
               for s in range(state.players)]
    shares, _ = rollout_shares(state, p, [best, chosen], players, rollouts, seed)
    diffs = [b - c for b, c in zip(*shares, strict=True)]
    mean = sum(diffs) / len(diffs)
    var = sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1)
    return mean, math.sqrt(var / len(diffs))


def expected_win_loss(state: GameState, p: int, chosen: TurnPlan, by_action1: bool,
                      rollouts: int, seed: int, name: str) -> tuple[float, float, float]:
    """(loss, se, the advice's own loss) of one moment: the advice's first choice against
    ``chosen`` (or, ``by_action1``, against the best-estimated plan that starts with
    ``chosen.action1``)."""
    win = advise_win(state, p, rollouts=rollouts, seed=seed, opponents=name, own=name)
    if by_action1:
        choice = max((c for c in win.choices if c.plan.action1 == chosen.action1),
                     key=lambda c: c.win)
    else:
        choice = win.find(chosen)
    if choice.win_loss <= 0:
        return 0.0, 0.0, choice.win_loss
    return (*fresh_loss(state, p, win.best.plan, choice.plan, rollouts, seed, name),
            choice.win_loss)


def check_win_review(record: GameRecord, p: int, rollouts: int, seed: int,
                     name: str = "win") -> None:
    """Every win loss of ``p``'s review is recomputed from the win advice at that moment and
    seed and fresh rollouts of the two choices; the proficiency figures are the mean, its
    standard error and interval."""
    review = review_game(record, p, objective="win", rollouts=rollouts, seed=seed,
                         opponents=name, own=name)
    assert review.objective == "win" and review.seed == seed and review.rollouts == rollouts
    state = new_game(2)
    for k, (d, turn) in enumerate(zip(review.decisions, record.turns, strict=True)):
        rolled = state.with_roll(turn.roll)
        assert d.seed == seed + 2 * k and d.rollouts == rollouts
        assert d.win_loss is not None and d.win_se is not None and d.win_se >= 0
        a1 = turn.action1[p]
        after1 = rolled.with_action1(turn.action1)
        others_passed = all(m is None for s, m in enumerate(turn.action1) if s != p)
        if not d.active:
            parts = [expected_win_loss(rolled, p, TurnPlan(a1, None), False, rollouts,
                                       seed + 2 * k, name)]
        elif others_passed and after1.phase is Phase.ACTION2:  # the whole plan at action 1
            parts = [expected_win_loss(rolled, p, TurnPlan(a1, turn.action2), False,
                                       rollouts, seed + 2 * k, name)]
        else:  # two moments: action 1 (the best plan starting with it), then action 2
            parts = [expected_win_loss(rolled, p, TurnPlan(a1, None), True, rollouts,
                                       seed + 2 * k, name)]
            if after1.phase is Phase.ACTION2:
                parts.append(expected_win_loss(after1, p, TurnPlan(a1, turn.action2), False,
                                               rollouts, seed + 2 * k + 1, name))
        assert d.win_loss == pytest.approx(sum(x[0] for x in parts), abs=1e-12)
        assert d.win_se == pytest.approx(math.sqrt(sum(x[1] ** 2 for x in parts)), abs=1e-12)
        assert d.win_loss_advice == pytest.approx(sum(x[2] for x in parts), abs=1e-12)
        state = state.play_turn(turn.roll, turn.action1, turn.action2)
    n = len(review.decisions)
    mean = sum(d.win_loss or 0.0 for d in review.decisions) / n
    se = math.sqrt(sum((d.win_se or 0.0) ** 2 for d in review.decisions)) / n
    assert review.mean_win_loss == pytest.approx(mean)
    assert review.mean_win_se == pytest.approx(se)
    lo, hi = review.mean_win_ci95 or (0.0, 0.0)
    assert lo == pytest.approx(mean - 1.959963984540054 * se)
    assert hi == pytest.approx(mean + 1.959963984540054 * se)
    prof = review.to_json()["proficiency"]
    assert prof["mean_win_loss"] == review.mean_win_loss and prof["mean_win_ci95"] == [lo, hi]
    assert "win chance lost" in review.to_text() and "95% interval" in review.to_text()
    # the EV figures of a win review are the table review's
    table = review_game(record, p)
    assert [d.loss for d in review.decisions] == [d.loss for d in table.decisions]
    assert table.mean_win_loss is None and "win chance" not in table.to_text()


@pytest.mark.parametrize("p", [0, 1])
def test_win_review_is_the_win_advice_at_each_moment(short_record: GameRecord, p: int) -> None:
    check_win_review(short_record, p, 3, 9, "random")


def test_win_review_when_the_other_seat_marks(table2: TableAdvisor) -> None:
    """A record in which the passive seat marks the white sum: the active turns are judged
    in two moments (random players: the plumbing under test, fast)."""
    record = random_game(players=2, seed=11)
    part = GameRecord(record.players, record.ruleset, record.turns[:6])
    assert any(t.action1[1 - t.active] is not None for t in part.turns)
    check_win_review(part, 0, 2, 1, "random")
    check_win_review(part, 1, 2, 1, "random")


@pytest.mark.slow
def test_win_review_with_the_win_players(short_record: GameRecord) -> None:
    """The default rollout players (win in every seat), as the CLI uses them."""
    check_win_review(short_record, 1, 2, 0)


def test_cli_flags(short_record: GameRecord, tmp_path: Path,
                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(short_record.to_json()))
    assert main(["review", str(path), "--player", "B", "--objective", "win", "--rollouts", "2",
                 "--seed", "4", "--json", "--quiet", "--opponents", "random",
                 "--own-player", "random"]) == 0
    (rev,) = json.loads(capsys.readouterr().out)["reviews"]
    expected = review_game(short_record, "B", objective="win", rollouts=2, seed=4, **FAST)
    assert rev["objective"] == "win" and rev["seed"] == 4 and rev["rollouts"] == 2
    assert rev["own"] == "random" and rev["opponents"] == "random"
    assert rev["proficiency"]["mean_win_loss"] == pytest.approx(expected.mean_win_loss)
    assert main(["review", str(path), "--players", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "model: solitaire" in out and "proficiency: mean loss" in out
    for argv, message in [
            (["--players", "3"], "R3: --players 3"),
            (["--players", "0"], "R3"),
            (["--rollouts", "5"], "--rollouts: only with --objective win"),
            (["--seed", "5"], "--seed: only with --objective win"),
            (["--opponents", "random"], "--opponents: only with --objective win"),
            (["--objective", "win", "--opponents", "nobody", "--rollouts", "2"], "nobody"),
            (["--objective", "win", "--players", "1"], "win objective needs a table"),
            (["--objective", "win", "--rollouts", "1"], "rollouts must be between 2"),
            (["--objective", "win", "--rollouts", "1001"], "rollouts must be between 2")]:
        assert main(["review", str(path), "--quiet", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, (argv, err)


FLAGS = st.lists(st.one_of(
    st.sampled_from(["--players", "--objective", "--rollouts", "--seed", "--player", "--top",
                     "--opponents", "--own-player", "ev", "win", "A", "B", "--json",
                     "random", "greedy,random"]),
    st.integers(-2, 6).map(str), st.sampled_from(["", "x", "1e3", "\u0663", "2.5"])),
    max_size=6)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(FLAGS)
def test_fuzz_review_flags(short_record: GameRecord, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    """The new flags in any order and value: exit 0 or 2 with one clean line, no traceback
    (with "win" drawn, 2 rollouts by random players are appended so that each example stays
    fast)."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(short_record.to_json()))
    argv = ["review", str(path), "--quiet", *flags]
    if "win" in flags:  # fast rollouts (flags given twice: argparse keeps the last)
        argv += ["--rollouts", "2", "--opponents", "random", "--own-player", "random"]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    assert code in (0, 2), (argv, captured.err)
    assert "Traceback" not in captured.err
    if code == 2 and not captured.err.startswith("usage:"):
        assert len(captured.err.strip().splitlines()) == 1, captured.err


def _mostly(valid: list[object], invalid: list[object]) -> st.SearchStrategy[object]:
    """Mostly a valid value (so that some examples get past the other keywords; the valid
    combinations are the other tests' business)."""
    return st.one_of(*[st.sampled_from(valid)] * 4, st.sampled_from(invalid))


@given(st.fixed_dictionaries({
    "player": _mostly([None, 0, 1, "A"], [2, -1, "Z", True, 1.0]),
    "table_size": _mostly([None, 2], [1, 3, 0, "2", True, 2.0]),
    "objective": _mostly(["ev", "win"], ["EV", "", None, 1]),
    "rollouts": _mostly([None, None, None, 2], [1, 0, -1, 1001, "2", 2.0, True]),
    "seed": _mostly([0, 5], [-1, 2**63, "0", 1.5, None]),
    "opponents": _mostly(["random", ["random"]], [("random", "random"), "nobody", 5,
                                                 "external:x"]),
    "own": _mostly(["random"], ["", 3, "nobody"]),
    "progress": _mostly([False, None], ["no"]),
}))
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_fuzz_review_api(short_record: GameRecord, kwargs: dict[str, object]) -> None:
    """Any value of the new keywords: a Review, or a QwixxError that names the problem."""
    record = GameRecord(short_record.players, short_record.ruleset, short_record.turns[:2])
    player = kwargs.pop("player")
    try:
        review = review_game(record, player, **kwargs)  # type: ignore[arg-type]
    except QwixxError as exc:
        assert str(exc).strip()
        return
    assert len(review.decisions) == 2
    assert review.objective == kwargs["objective"]
    assert review.table_size == (kwargs["table_size"] or 2)
    json.dumps(review.to_json())

