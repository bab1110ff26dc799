"""The validator on Qwixx Longo records (issue 34): its reader takes 8-sided dice, numbers
to 16 and lucky crosses on a Longo record only, and the replay names LG1-LG5."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from strategies import json_paths

from qwixx_math.record import random_game
from qwixx_math.ruleset import LuckyMode, Ruleset
from qwixx_math.validation import RecordError, read_record, validate_data

EXAMPLE_1 = [{"colour": "red", "number": n} for n in (2, 4, 5, 7, 9, 10)] + \
    [{"colour": "yellow", "number": n} for n in (6, 9)] + \
    [{"colour": "green", "number": n} for n in (16, 15)] + \
    [{"colour": "blue", "number": n} for n in (16, 12, 8)]


def longo_record(layout: str = "longo:5,13", seed: int = 4,
                 mode: LuckyMode = LuckyMode.INSTEAD) -> dict[str, Any]:
    data = random_game(players=2, seed=seed, ruleset=Ruleset(2, lg_lucky_mode=mode),
                       layout=layout).to_json()
    return json.loads(json.dumps(data))  # type: ignore[no-any-return]


@pytest.mark.parametrize("layout", ["longo", "longo:5,13", "longo:2,16"])
@pytest.mark.parametrize("mode", list(LuckyMode))
def test_generated_longo_records_validate_clean(layout: str, mode: LuckyMode) -> None:
    for seed in range(3):
        report = validate_data(longo_record(layout, seed, mode))
        assert report.valid, [v.describe() for v in report.violations]


def _official_record() -> dict[str, Any]:
    return json.loads(json.dumps(random_game(players=2, seed=1).to_json()))  # type: ignore[no-any-return]


@pytest.mark.parametrize(("longo", "path", "value", "match"), [
    (False, ("roll", "white", 0), 7, "R1"),  # six-sided records keep refusing 7 and 13
    (False, ("action2",), {"colour": "red", "number": 13}, "R2"),
    (False, ("action1", 0), {"colour": "red", "number": 5, "lucky": True}, "unknown field"),
    (True, ("roll", "white", 0), 9, "LG1"),
    (True, ("action2",), {"colour": "red", "number": 17}, "LG1"),
    (True, ("roll", "faces"), 6, "faces"),
    (True, ("action1", 0), {"colour": "red", "number": 5, "lucky": False}, "lucky"),
])
def test_reader_bounds(longo: bool, path: tuple[Any, ...], value: Any, match: str) -> None:
    bad = longo_record() if longo else _official_record()
    node: Any = bad["turns"][0]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(RecordError, match=match):
        read_record(bad)


def one_turn(action1: list[Any], ruleset: dict[str, Any] | None = None,
             sheet_marks: list[Any] | None = None) -> dict[str, Any]:
    """A one-player Longo record: turns that cross ``sheet_marks`` one per turn (legal
    action-2 crosses), then a turn of white sum 13 with ``action1``."""
    turns = []
    for mark in sheet_marks or []:
        # the first white die and the colour die make the wanted number (dice 1..8)
        white = max(1, mark["number"] - 8)
        roll = {"white": [white, 1], "faces": 8, "red": 1, "yellow": 1, "green": 1, "blue": 1}
        roll[mark["colour"]] = mark["number"] - white
        turns.append({"active": 0, "roll": roll, "action1": [None], "action2": mark})
    turns.append({"active": 0, "roll": {"white": [5, 8], "faces": 8, "red": 1, "yellow": 2,
                                        "green": 3, "blue": 4},
                  "action1": action1, "action2": None})
    return {"format": "qwixx-math/game-record", "version": 1, "players": ["P"],
            "ruleset": {"players": 1, **(ruleset or {})}, "layout": "longo:5,13",
            "turns": turns}


def rules_of(data: dict[str, Any]) -> list[str]:
    report = validate_data(data, partial=True)
    return [v.rule for v in report.violations]


def test_replay_names_lg3_lg4_on_the_worked_example() -> None:
    assert rules_of(one_turn([{"colour": "green", "number": 14, "lucky": True}],
                             sheet_marks=EXAMPLE_1)) == []
    assert rules_of(one_turn([{"colour": "blue", "number": 7, "lucky": True}],
                             sheet_marks=EXAMPLE_1)) == ["LG3"]
    second = {"colour": "yellow", "number": 10, "lucky": True,
              "first": {"colour": "red", "number": 13}}
    assert rules_of(one_turn([second], sheet_marks=EXAMPLE_1)) == ["LG4"]
    assert rules_of(one_turn([second], {"lg_lucky_mode": "additional"},
                             sheet_marks=EXAMPLE_1)) == []


def test_replay_names_lg2_and_lg5() -> None:
    no_next = [{"colour": "red", "number": 13}, {"colour": "red", "number": 14},
               *({"colour": c, "number": n} for c, ns in (("yellow", (2, 3, 4)),
                                                           ("green", (16, 15, 14)),
                                                           ("blue", (16, 15, 14)))
                 for n in ns)]
    lucky_y5 = [{"colour": "yellow", "number": 5, "lucky": True}]
    assert rules_of(one_turn(lucky_y5, sheet_marks=no_next)) == ["LG5"]
    assert rules_of(one_turn(lucky_y5, {"lg_lucky_candidates": "open_with_next_cell"},
                             sheet_marks=no_next)) == []
    five = [{"colour": "yellow", "number": n} for n in (3, 5, 8, 11, 12)]
    data = one_turn([None], sheet_marks=five)
    data["turns"][-1]["roll"] = {"white": [7, 8], "faces": 8, "red": 1, "yellow": 1,
                                 "green": 1, "blue": 1}
    data["turns"][-1]["action1"] = [{"colour": "yellow", "number": 15}]
    assert rules_of(data) == ["LG2"]


_CROSS_FIELD = ("does not exist", "one choice per player", "one entry per player",
                "player(s) but $.players names")


def test_schema_and_reader_agree_on_longo_records() -> None:
    """Every field of a short Longo record with a lucky cross, replaced by each odd value
    or deleted: the JSON Schema and the strict reader accept and refuse alike."""
    import jsonschema

    from qwixx_math.validation import record_schema

    schema = jsonschema.Draft202012Validator(record_schema())
    second = {"colour": "yellow", "number": 10, "lucky": True,
              "first": {"colour": "red", "number": 13}}
    data = one_turn([second], {"lg_lucky_mode": "additional"},
                    sheet_marks=[{"colour": "green", "number": 16}])
    assert schema.is_valid(data)
    read_record(data)
    checked = 0
    for path in json_paths(data):
        if not path:
            continue
        for value in (None, True, "x", 0, 1, 8, 9, 12, 13, 16, 17, {}, [], "DELETE"):
            trial = copy.deepcopy(data)
            parent: Any = trial
            for key in path[:-1]:
                parent = parent[key]
            if value == "DELETE":
                del parent[path[-1]]
            else:
                parent[path[-1]] = value
            try:
                read_record(trial)
                error = None
            except RecordError as exc:
                error = exc
            if error is None:
                assert schema.is_valid(trial), (path, value)
            elif schema.is_valid(trial):
                assert any(w in str(error) for w in _CROSS_FIELD), (path, value, str(error))
            checked += 1
    assert checked > 300
