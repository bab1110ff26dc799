"""The validator on Qwixx X-Change records (issue 34): generated games validate clean, a
broken exchange is reported with its rule id (XC1, XC2, XC4, XC5), and
``generate --layout x-change`` writes legal games."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from test_layouts_cli import run

from qwixx_math.layouts import X_CHANGE
from qwixx_math.model import Mark
from qwixx_math.record import GameRecord, TurnRecord, random_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.validation import (
    RecordError,
    generate_records,
    read_record,
    validate_data,
    validate_record,
)
from qwixx_math.validation.reader import parse_record_text


@pytest.mark.parametrize("ruleset", [Ruleset(3), Ruleset(2, xc_field_without_cross=True)],
                         ids=["default", "spend"])
def test_generated_records_of_the_pad_validate_clean(ruleset: Ruleset) -> None:
    exchanges = 0
    for record in generate_records(6, 34, ruleset, X_CHANGE):
        report = validate_record(record)
        assert report.valid, report.violations
        exchanges += sum(m is not None and m.field is not None
                         for t in record.turns for m in t.action1)
    assert exchanges > 0


def _first_exchange(record: GameRecord) -> tuple[int, int, Mark]:
    """The turn, the player and the mark of the record's first exchange."""
    for k, turn in enumerate(record.turns):
        for player, mark in enumerate(turn.action1):
            if mark is not None and mark.field is not None:
                return k, player, mark
    raise AssertionError("no exchange in the record")


def _with_choice(record: GameRecord, k: int, player: int, mark: Mark | None,
                 ruleset: Ruleset | None = None) -> GameRecord:
    turns = list(record.turns)
    turn = turns[k]
    choices = list(turn.action1)
    choices[player] = mark
    turns[k] = TurnRecord(turn.active, turn.roll, tuple(choices), turn.action2)
    return dataclasses.replace(record, turns=tuple(turns), result=None,
                               ruleset=ruleset or record.ruleset)


RECORD = random_game(players=2, seed=34, layout=X_CHANGE)


def _rules(record: GameRecord) -> list[str]:
    return [v.rule for v in validate_record(record, partial=True).violations]


def test_xc1_an_exchange_of_a_pair_without_the_white_sum() -> None:
    k, player, mark = _first_exchange(RECORD)
    s = RECORD.turns[k].roll.white_sum
    assert mark.field is not None
    wrong = next(f for f, pair in enumerate(X_CHANGE.exchange) if s not in pair
                 and f > mark.field)
    rules = _rules(_with_choice(RECORD, k, player, Mark(mark.colour, mark.number, wrong)))
    assert rules[0] == "XC1"


def test_xc1_an_exchange_for_the_wrong_number() -> None:
    k, player, mark = _first_exchange(RECORD)
    other = next(n for n in range(2, 13) if n not in X_CHANGE.exchange[mark.field or 0])
    rules = _rules(_with_choice(RECORD, k, player, Mark(mark.colour, other, mark.field)))
    assert rules[0] == "XC1"


def test_xc2_a_field_left_of_the_last_used_one() -> None:
    """The record's second exchange of one player moved to a field left of the first."""
    seen: dict[int, int] = {}
    for k, turn in enumerate(RECORD.turns):
        for player, mark in enumerate(turn.action1):
            if mark is None or mark.field is None:
                continue
            if player in seen:
                s = turn.roll.white_sum
                left = [f for f, pair in enumerate(X_CHANGE.exchange)
                        if f <= seen[player] and s in pair]
                if left:
                    pair = X_CHANGE.exchange[left[0]]
                    number = pair[1] if pair[0] == s else pair[0]
                    bad = Mark(mark.colour, number, left[0])
                    rules = _rules(_with_choice(RECORD, k, player, bad))
                    assert rules[0] == "XC2"
                    return
            seen[player] = mark.field
    pytest.skip("no second exchange with a field left of the first in this record")


def test_xc4_a_field_alone_without_the_option() -> None:
    k, player, mark = _first_exchange(RECORD)
    assert mark.field is not None
    spend = Mark.spend(mark.field)
    assert _rules(_with_choice(RECORD, k, player, spend))[0] == "XC4"
    # the same record under the Option is clean up to that turn
    option = Ruleset(2, xc_field_without_cross=True)
    allowed = _with_choice(RECORD, k, player, spend, option)
    assert "XC4" not in _rules(allowed)


def test_xc5_a_record_with_exchanges_in_action2_is_refused() -> None:
    data = RECORD.to_json()
    data["ruleset"]["xc_in_action2"] = True
    with pytest.raises(RecordError, match="XC5"):
        read_record(data)
    turn = RECORD.turns[0]
    bad = dataclasses.replace(RECORD, turns=(TurnRecord(turn.active, turn.roll, turn.action1,
                                                        Mark(X_CHANGE.locks[0], 3, 2)),),
                              result=None)
    assert "XC5" in _rules(bad)


def test_a_wrong_claimed_score_on_the_pad_is_r16() -> None:
    data = RECORD.to_json()
    data["result"]["scores"][0] += 1
    report = validate_data(data)
    assert [v.rule for v in report.violations] == ["R16"]


def test_generate_layout_x_change_writes_games_that_validate_clean(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["generate", "--layout", "x-change", "--games", "2", "--seed", "3",
                        "--players", "3"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    for i, line in enumerate(lines):
        record = parse_record_text(line)
        assert record.layout == X_CHANGE and validate_record(record).valid
        path = tmp_path / f"g{i}.json"
        path.write_text(json.dumps(json.loads(line)), encoding="utf-8")
        code, out, err = run(["validate", str(path)], capsys)
        assert code == 0 and "valid" in out, err
