"""Reviewing played games (issue 5): every decision's loss against brute-force valuations."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_advice import brute_force_passive, table_value

from qwixx_math import IllegalMoveError, ParseError
from qwixx_math.advice import Advisor
from qwixx_math.cli import main
from qwixx_math.model import Colour, Mark, TurnPlan
from qwixx_math.record import GameRecord, TurnRecord, random_game
from qwixx_math.review import MULTIPLAYER_NOTE, TABLE_NOTE, review_game, review_players
from qwixx_math.rules import legal_plans, new_game, random_roll
from qwixx_math.ruleset import Ruleset


@pytest.fixture(scope="module")
def advisor() -> Advisor:
    return Advisor.for_ruleset(Ruleset(players=1), progress=False)


def optimal_game(advisor: Advisor, rng: random.Random) -> tuple[int, list[TurnRecord]]:
    """A solitaire game on the advisor's sheet and rules in which every plan is the
    advisor's best, applied by the rules core: its final score and its turns (also used by
    test_solver_double)."""
    state = new_game(ruleset=advisor.table.ruleset, layout=advisor.sheet_layout)
    turns = []
    while not state.is_over:
        roll = random_roll(rng, state.dice_in_play, faces=state.layout.faces)
        plan = advisor.advise(state, roll).best.plan
        turns.append(TurnRecord(0, roll, (plan.action1,), plan.action2))
        state = state.play_plan(roll, plan)
    return state.scores[0], turns


def optimal_record(advisor: Advisor, seed: int) -> GameRecord:
    """A solitaire game in which every plan is the advisor's best."""
    return GameRecord(("Solo",), Ruleset(players=1),
                      tuple(optimal_game(advisor, random.Random(seed))[1]))


def test_optimal_play_loses_nothing(advisor: Advisor) -> None:
    for seed in range(3):
        review = review_game(optimal_record(advisor, seed), advisor=advisor)
        assert review.decisions and review.total_loss == pytest.approx(0.0, abs=1e-9)
        assert review.optimal_decisions == len(review.decisions)
        assert review.costliest() == ()
        assert review.note is None
        assert "every decision was optimal" in review.to_text()


def brute_losses(advisor: Advisor, record: GameRecord, p: int) -> list[float]:
    """Each decision's loss, valuing every alternative by playing the turn out."""
    state = new_game(ruleset=record.ruleset)
    losses = []
    for turn in record.turns:
        rolled = state.with_roll(turn.roll)
        values: dict[TurnPlan, float] = {}
        if p == state.active:
            for plan in legal_plans(state, turn.roll, list(turn.action1)):
                after = state.play_plan(turn.roll, plan, list(turn.action1))
                values[plan] = table_value(advisor.table, after, p)
            chosen = TurnPlan(turn.action1[p], turn.action2)
        else:
            for value, plan in brute_force_passive(advisor.table, rolled, p,
                                                   list(turn.action1), turn.action2):
                values[plan] = value
            chosen = TurnPlan(turn.action1[p], None)
        losses.append(max(values.values()) - values[chosen])
        state = state.play_turn(turn.roll, turn.action1, turn.action2)
    return losses


@pytest.mark.parametrize(("players", "seed"), [(1, 1), (1, 2), (3, 4), (4, 5)])
def test_losses_match_brute_force(advisor: Advisor, players: int, seed: int) -> None:
    record = random_game(players=players, seed=seed)
    for p in range(players):
        review = review_game(record, p, advisor)
        expected = brute_losses(advisor, record, p)
        assert [d.loss for d in review.decisions] == pytest.approx(expected, abs=1e-9)
        assert review.total_loss == pytest.approx(sum(expected), abs=1e-9)
        assert review.mean_loss == pytest.approx(sum(expected) / len(expected), abs=1e-9)
        assert all(d.loss >= 0 for d in review.decisions)
        assert [d.active for d in review.decisions] == [t.active == p for t in record.turns]
        costly = review.costliest(3)
        assert [d.loss for d in costly] == sorted((x for x in expected if x > 1e-9),
                                                  reverse=True)[:3]
        assert (review.note == MULTIPLAYER_NOTE) is (players > 1)
        assert review.final_score == record.result.scores[p]  # type: ignore[union-attr]


def test_player_selection_and_errors(advisor: Advisor) -> None:
    record = random_game(players=3, seed=9, names=["Kari", "Ola", "Mia"])
    assert review_game(record, "Ola", advisor).player == 1
    assert [r.name for r in review_players(record, advisor=advisor)] == ["Kari", "Ola", "Mia"]
    with pytest.raises(ParseError, match="no player named 'Per'"):
        review_game(record, "Per", advisor)
    with pytest.raises(ParseError, match="does not exist"):
        review_game(record, 5, advisor)
    turns = list(record.turns)
    first = turns[0]
    unmakeable = next(n for n in range(2, 13) if n not in first.roll.action2_numbers(Colour.RED))
    bad = TurnRecord(first.active, first.roll, first.action1, Mark(Colour.RED, unmakeable))
    with pytest.raises(IllegalMoveError, match=r"^R6: turn 1: white \+ red makes .*validate"):
        review_game(GameRecord(record.players, record.ruleset, (bad, *turns[1:])), 0, advisor)


def test_cli(advisor: Advisor, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = random_game(players=2, seed=11, names=["A", "B"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()))
    assert main(["review", str(path), "--player", "B", "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    (rev,) = data["reviews"]
    expected = review_game(record, "B")  # a table game: the table model by default
    assert rev["player"] == "B" and rev["decisions"] == len(expected.decisions)
    assert rev["total_loss"] == pytest.approx(expected.total_loss)
    assert rev["note"] == TABLE_NOTE and rev["table_size"] == 2
    assert main(["review", str(path), "--player", "B", "--json", "--quiet",
                 "--players", "1"]) == 0  # the solitaire model, as before issue 35
    (rev,) = json.loads(capsys.readouterr().out)["reviews"]
    assert rev["total_loss"] == pytest.approx(review_game(record, "B", advisor).total_loss)
    assert rev["note"] == MULTIPLAYER_NOTE and rev["table_size"] == 1
    assert main(["review", str(path), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("A: ") and "\n\nB: " in text
    assert main(["review", str(path), "--player", "Z", "--quiet"]) == 2
    assert "no player named 'Z'" in capsys.readouterr().err
    path.write_text("{not json")
    assert main(["review", str(path), "--quiet"]) == 2
    assert "not valid JSON" in capsys.readouterr().err

