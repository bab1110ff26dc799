"""The game-record JSON Schema and the strict record reader (validation toolkit, issue 6).

The schema is checked with ``jsonschema`` (a test-only dependency) against the
records the core writes, against hand-made malformed records, and against the
reader itself under Hypothesis mutations: whatever the reader accepts the
schema accepts, and whatever the schema rejects the reader rejects.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.errors import ParseError
from qwixx_math.record import GameRecord, random_game
from qwixx_math.ruleset import DieRemoval, EndCheck, Ruleset
from qwixx_math.validation import (
    RecordError,
    load_record,
    parse_record_text,
    read_record,
    record_schema,
)

VALIDATOR = jsonschema.Draft202012Validator(record_schema())

RULESETS = [
    Ruleset(players=1),
    Ruleset(players=2),
    Ruleset(players=5),
    Ruleset(players=3, die_removal=DieRemoval.END_OF_TURN, action2_after_game_end=True),
    Ruleset(players=4, end_check=EndCheck.SEQUENTIAL, simultaneous_close=False),
    Ruleset(players=2, end_check=EndCheck.END_OF_TURN),
]


def schema_ok(data: object) -> bool:
    return VALIDATOR.is_valid(data)


def reader_error(data: object) -> RecordError | None:
    try:
        read_record(data)
    except RecordError as exc:
        return exc
    return None


def base_record(players: int = 2, seed: int = 3) -> dict[str, Any]:
    data = random_game(seed=seed, ruleset=Ruleset(players=players)).to_json()
    assert isinstance(data, dict)
    return data


def with_claims(data: dict[str, Any]) -> dict[str, Any]:
    """The record with per-turn claimed scores and penalties (made up, well formed)."""
    out = copy.deepcopy(data)
    n = len(out["players"])
    for k, turn in enumerate(out["turns"]):
        turn["scores"] = [k - i for i in range(n)]
        turn["penalties"] = [min(4, k % 5)] * n
    return out


# -- the schema against records the core writes ----------------------------------------------------

def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(record_schema())
    assert record_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.players}p")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_generated_record_validates(ruleset: Ruleset, seed: int) -> None:
    record = random_game(seed=seed, ruleset=ruleset)
    data = record.to_json()
    assert list(VALIDATOR.iter_errors(data)) == []
    assert schema_ok(with_claims(data))
    assert read_record(data) == record
    assert read_record(json.loads(json.dumps(data))) == record


def test_reader_agrees_with_core_reader_on_canonical_records() -> None:
    for seed in range(5):
        data = with_claims(base_record(players=1 + seed, seed=seed))
        assert read_record(data) == GameRecord.from_json(data)


def test_optional_fields_may_be_left_out_or_null() -> None:
    data = base_record()
    for key in ("ruleset", "first", "seed", "result"):
        data.pop(key, None)
    data["turns"][0]["scores"] = None
    assert schema_ok(data)
    record = read_record(data)
    assert record.first == 0 and record.seed is None and record.result is None
    assert record.ruleset == Ruleset(players=2)
    data["result"] = None
    data["seed"] = None
    assert schema_ok(data) and read_record(data).result is None


# -- malformed records: schema and reader reject them, the reader names the path -------------------

def _set(data: dict[str, Any], path: list[Any], value: Any) -> None:
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _delete(data: dict[str, Any], path: list[Any]) -> None:
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]


MALFORMED = [
    # (what, mutation path, new value or "DELETE", expected JSON path of the error)
    ("die 7", ["turns", 2, "roll", "red"], 7, "$.turns[2].roll.red"),
    ("die 0", ["turns", 0, "roll", "white", 1], 0, "$.turns[0].roll.white[1]"),
    ("die as text", ["turns", 0, "roll", "blue"], "4", "$.turns[0].roll.blue"),
    ("die true", ["turns", 0, "roll", "green"], True, "$.turns[0].roll.green"),
    ("die 2.5", ["turns", 0, "roll", "green"], 2.5, "$.turns[0].roll.green"),
    ("three whites", ["turns", 0, "roll", "white"], [1, 2, 3], "$.turns[0].roll.white"),
    ("unknown die", ["turns", 0, "roll", "purple"], 3, "$.turns[0].roll"),
    ("unknown colour", ["turns", 1, "action1", 0], {"colour": "purple", "number": 7},
     "$.turns[1].action1[0].colour"),
    ("colour letter", ["turns", 1, "action1", 0], {"colour": "r", "number": 7},
     "$.turns[1].action1[0].colour"),
    ("number 13", ["turns", 1, "action1", 1], {"colour": "red", "number": 13},
     "$.turns[1].action1[1].number"),
    ("number 1", ["turns", 1, "action2"], {"colour": "blue", "number": 1},
     "$.turns[1].action2.number"),
    ("mark as text", ["turns", 1, "action2"], "r8", "$.turns[1].action2"),
    ("extra mark field", ["turns", 1, "action2"], {"colour": "red", "number": 8, "x": 1},
     "$.turns[1].action2"),
    ("missing action2", ["turns", 0, "action2"], "DELETE", "$.turns[0]"),
    ("missing roll", ["turns", 3, "roll"], "DELETE", "$.turns[3]"),
    ("misspelt field", ["turns", 0, "acton2"], None, "$.turns[0]"),
    ("turn not an object", ["turns", 0], [1, 2], "$.turns[0]"),
    ("action1 not a list", ["turns", 0, "action1"], None, "$.turns[0].action1"),
    ("negative penalties claim", ["turns", 0, "penalties"], [0, -1], "$.turns[0].penalties[1]"),
    ("five penalties claimed", ["turns", 0, "penalties"], [5, 0], "$.turns[0].penalties[0]"),
    ("misspelt top field", ["reslt"], {}, "$"),
    ("wrong format", ["format"], "qwixx/record", "$.format"),
    ("version 2", ["version"], 2, "$.version"),
    ("version true", ["version"], True, "$.version"),
    ("no players", ["players"], [], "$.players"),
    ("six players", ["players"], ["a", "b", "c", "d", "e", "f"], "$.players"),
    ("player name a number", ["players", 1], 7, "$.players[1]"),
    ("turns missing", ["turns"], "DELETE", "$"),
    ("turns not a list", ["turns"], {}, "$.turns"),
    ("unknown ruleset field", ["ruleset", "bonus"], True, "$.ruleset"),
    ("bad die_removal", ["ruleset", "die_removal"], "later", "$.ruleset.die_removal"),
    ("bad end_check", ["ruleset", "end_check"], "never", "$.ruleset.end_check"),
    ("flag as text", ["ruleset", "simultaneous_close"], "yes", "$.ruleset.simultaneous_close"),
    ("seed as text", ["seed"], "7", "$.seed"),
    ("result not an object", ["result"], [1], "$.result"),
    ("result without winners", ["result", "winners"], "DELETE", "$.result"),
    ("ended_by R12", ["result", "ended_by"], "R12", "$.result.ended_by"),
    ("no winners", ["result", "winners"], [], "$.result.winners"),
    ("a winner twice", ["result", "winners"], [0, 0], "$.result.winners"),
    ("score as text", ["result", "scores"], ["1", 2], "$.result.scores[0]"),
]


@pytest.mark.parametrize(("what", "path", "value", "where"), MALFORMED,
                         ids=[m[0] for m in MALFORMED])
def test_malformed_records_fail_schema_and_reader(what: str, path: list[Any], value: Any,
                                                  where: str) -> None:
    data = base_record()
    if value == "DELETE":
        _delete(data, path)
    else:
        _set(data, path, value)
    assert not schema_ok(data), what
    error = reader_error(data)
    assert error is not None, what
    assert error.path == where
    assert str(error).startswith(where)


#: Relations between fields that JSON Schema cannot state: the schema accepts these, the
#: reader rejects them with the path and a message naming the player count.
CROSS_FIELD = [
    ("player 2 of 2 active", ["turns", 0, "active"], 2, "$.turns[0].active", "does not exist"),
    ("first player 3 of 2", ["first"], 3, "$.first", "does not exist"),
    ("winner 4 of 2", ["result", "winners"], [4], "$.result.winners[0]", "does not exist"),
    ("three action-1 choices for 2", ["turns", 0, "action1"], [None, None, None],
     "$.turns[0].action1", "one choice per player"),
    ("three scores for 2", ["result", "scores"], [1, 2, 3], "$.result.scores",
     "one entry per player"),
    ("one penalty claim for 2", ["turns", 1, "penalties"], [0], "$.turns[1].penalties",
     "one entry per player"),
    ("ruleset for 3", ["ruleset", "players"], 3, "$.ruleset.players", "says 3 player(s)"),
]


@pytest.mark.parametrize(("what", "path", "value", "where", "words"), CROSS_FIELD,
                         ids=[c[0] for c in CROSS_FIELD])
def test_cross_field_errors_are_caught_by_the_reader(what: str, path: list[Any], value: Any,
                                                     where: str, words: str) -> None:
    data = base_record()
    _set(data, path, value)
    assert schema_ok(data), what
    error = reader_error(data)
    assert error is not None and error.path == where and words in str(error)


def test_turn_errors_name_the_turn_number() -> None:
    data = base_record()
    data["turns"][4]["roll"]["white"] = [9, 1]
    with pytest.raises(RecordError, match=r"^\$\.turns\[4\]\.roll\.white\[0\] \(turn 5\): "
                                          r"must be a die, 1 to 6 \(R1\), not 9$"):
        read_record(data)


# -- the schema and the reader agree under random mutations ----------------------------------------

_CROSS_FIELD_WORDS = ("does not exist", "one choice per player", "one entry per player",
                      "player(s) but $.players names")

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 15),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x != int(x)),
    st.sampled_from(["red", "yellow", "green", "blue", "white", "R13", "R14", "", "x",
                     "qwixx-math/game-record", "immediate", "end_of_turn", "sequential",
                     "after_actions", "colour", "number"]),
)
json_values = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["colour", "number", "white", "red", "green", "active",
                                         "x", "scores", "winners"]), inner, max_size=3)),
    max_leaves=8)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


@st.composite
def mutated_records(draw: st.DrawFn) -> Any:
    players = draw(st.integers(1, 5))
    seed = draw(st.integers(0, 3))
    data: Any = random_game(seed=seed, ruleset=Ruleset(players=players)).to_json()
    data["turns"] = data["turns"][:draw(st.integers(0, 4))]  # short: the schema is slow
    if draw(st.booleans()):
        data = with_claims(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        kind = draw(st.sampled_from(["replace", "delete", "add", "nudge", "nudge"]))
        if not path:
            if kind == "replace":
                data = draw(json_values)
            continue
        parent: Any = data
        for key in path[:-1]:
            parent = parent[key]
        value = parent[path[-1]]
        if kind == "nudge" and isinstance(value, int) and not isinstance(value, bool):
            # just across a boundary: dice 1..6, numbers 2..12, players, penalties 0..4
            parent[path[-1]] = value + draw(st.sampled_from([-1, 1, 2, 5, 6, 11]))
        elif kind in ("replace", "nudge"):
            parent[path[-1]] = draw(json_values)
        elif kind == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["x", "seed", "first", "result", "penalties",
                                         "scores", "ended_by"]))] = draw(json_values)
        else:
            parent.append(draw(json_values))
    return data


def _agree(data: Any) -> None:
    error = reader_error(data)
    if error is None:
        assert schema_ok(data), json.dumps(data)[:300]
    elif schema_ok(data):
        assert any(words in str(error) for words in _CROSS_FIELD_WORDS), str(error)


_ODD_VALUES: list[Any] = [None, True, "x", "R12", 2.5, [], {}, -1, 0, 1, 5, 7, 13]


def test_schema_and_reader_agree_field_by_field() -> None:
    """Every field of a small record (five players, claims, a result) replaced by each odd
    value, or deleted, or (objects, arrays) given one more entry: schema and reader agree."""
    data = with_claims(base_record(players=5, seed=11))
    data["turns"] = data["turns"][:1]
    data["turns"][0]["action2"] = {"colour": "green", "number": 2}
    data["ruleset"]["players"] = 5
    checked = 0
    for path in _paths(data):
        if not path:
            continue
        node: Any = data
        for key in path:
            node = node[key]
        edits: list[Any] = [*_ODD_VALUES, "DELETE"]
        if isinstance(node, dict | list):
            edits.append("GROW")
        for value in edits:
            trial = copy.deepcopy(data)
            if value == "DELETE":
                _delete(trial, list(path))
            elif value == "GROW":
                target: Any = trial
                for key in path:
                    target = target[key]
                if isinstance(target, list):
                    target.append(copy.deepcopy(target[-1]) if target else 1)
                else:
                    target["extra"] = 1
            else:
                _set(trial, list(path), value)
            _agree(trial)
            checked += 1
    assert checked > 500


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_schema_and_reader_agree_on_mutated_records(data: Any) -> None:
    _agree(data)


# -- JSON text and files ---------------------------------------------------------------------------

def test_syntax_errors_give_line_and_column() -> None:
    text = '{"format": "qwixx-math/game-record",\n "version": 1,\n "players": ["A"] "turns": []}'
    with pytest.raises(RecordError) as info:
        parse_record_text(text, "game.json")
    assert info.value.line == 3 and info.value.column == 19  # the quote of "turns"
    assert str(info.value).startswith("game.json: not valid JSON at line 3, column 19")


def test_truncated_record_is_named_truncated() -> None:
    text = json.dumps(base_record(), indent=1)
    for cut in (len(text) // 3, len(text) // 2, len(text) - 2):
        with pytest.raises(RecordError, match="truncated"):
            parse_record_text(text[:cut], "cut.json")


def test_two_records_in_one_text_are_rejected_with_a_hint() -> None:
    line = json.dumps(base_record())
    with pytest.raises(RecordError, match="one record"):
        parse_record_text(line + "\n" + line)


@pytest.mark.parametrize("text", ["", "   ", "NaN", '{"a": NaN}', "[" * 100_000,
                                  '"qwixx"', "null", "[]", "1e999999"])
def test_odd_json_texts_give_record_errors(text: str) -> None:
    with pytest.raises(RecordError):
        parse_record_text(text)


def test_files_missing_not_utf8_or_with_bom(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(RecordError, match="not UTF-8"):
        load_record(bad)
    bom = tmp_path / "bom.json"
    data = base_record()
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode())
    assert load_record(bom) == read_record(data)


def test_record_errors_are_parse_errors() -> None:
    assert issubclass(RecordError, ParseError) and issubclass(RecordError, ValueError)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_gives_a_record_or_a_record_error(text: str) -> None:
    try:
        record = parse_record_text(text)
    except RecordError:
        return
    assert isinstance(record, GameRecord)


def test_a_record_too_large_for_the_turn_limit_is_refused_before_parsing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32: a 30 MB record was parsed (412 MB peak) before the 2,000-turn cap refused
    it; now the file size refuses it before a byte is parsed."""
    from qwixx_math.validation import reader

    turn = random_game(5, seed=1).to_json()["turns"][0]
    data = random_game(5, seed=1).to_json()
    data["turns"] = [turn] * (reader.MAX_RECORD_BYTES // 200)
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert path.stat().st_size > reader.MAX_RECORD_BYTES

    def no_parsing(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed a record that is too large")

    monkeypatch.setattr(reader.json, "loads", no_parsing)
    with pytest.raises(RecordError, match=f"at most {reader.MAX_RECORD_BYTES:,} bytes"):
        load_record(path)


def test_the_byte_limit_holds_a_record_of_the_most_turns() -> None:
    """The byte limit is no tighter than the turn limit: MAX_TURNS five-player turns with
    every claim (3-digit scores), indented by 4, fit in MAX_RECORD_BYTES."""
    from qwixx_math.validation import reader

    data = random_game(5, seed=2).to_json()
    turns = []
    for k in range(reader.MAX_TURNS):
        turn = dict(data["turns"][k % len(data["turns"])])
        turn["scores"] = [-20, 131, 250, 99, 110]
        turn["penalties"] = [4, 3, 2, 1, 0]
        turn["action1"] = [{"colour": "yellow", "number": 12}] * 5
        turns.append(turn)
    data["turns"] = turns
    text = json.dumps(data, indent=4)
    assert len(text.encode()) <= reader.MAX_RECORD_BYTES
    assert len(read_record(json.loads(text)).turns) == reader.MAX_TURNS
    data["turns"].append(turns[0])
    with pytest.raises(RecordError, match="holds 2001 turns; at most 2000"):
        read_record(data)
