"""The command line of the validation toolkit: ``validate``, ``generate``, ``conformance``.

Exit codes are exactly 0 (valid), 1 (violations), 2 (unreadable record or bad
arguments); ``--json`` has the issue's shape.  Hypothesis writes arbitrary JSON
files and checks that the command never shows a traceback.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.cli import main
from qwixx_math.record import GameRecord, random_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.validation import game_seed, validate_record

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "buggy_record.json"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# -- validate --------------------------------------------------------------------------------------

def test_valid_record_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "ok.json", random_game(players=3, seed=2).to_json())
    code, out, err = run(["validate", path], capsys)
    assert code == 0 and err == ""
    assert out.startswith(f"{path}: valid: ")


def test_violations_exit_1_with_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["validate", str(EXAMPLE)], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith("INVALID: 4 violation(s) in 10 turn(s) under the official rules, "
                             "2 player(s)")
    assert sum(line.startswith("turn ") for line in lines) == 4


def test_json_output_has_the_issue_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["validate", str(EXAMPLE), "--json"], capsys)
    assert code == 1
    data = json.loads(out)
    assert data["valid"] is False
    assert [(v["turn"], v["player"], v["rule"]) for v in data["violations"]] == [
        (7, 0, "R9"), (8, 0, "R9"), (9, 1, "R11"), (10, 0, "R8")]
    for v in data["violations"]:
        assert isinstance(v["turn"], int) and isinstance(v["message"], str)
        assert v["rule"].startswith("R")
    assert data["dialects"][0]["switches"][0]["field"] == "die_removal"
    code, out, _ = run(["validate", str(EXAMPLE), "--json", "--no-dialects"], capsys)
    assert json.loads(out)["dialects"] == []


def test_ruleset_options_override_the_record(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["validate", str(EXAMPLE), "--die-removal", "end_of_turn", "--json"],
                       capsys)
    data = json.loads(out)
    assert code == 1 and len(data["violations"]) == 3
    assert data["ruleset"]["die_removal"] == "end_of_turn" and data["ruleset"]["players"] == 2


def test_switched_record_checked_with_its_switch(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Solitaire: red 2-6 and 12, yellow 2-6, then yellow 12 (a second colour closes in action
    1) followed by an action 2: legal only if action 2 follows the end (R15 Option)."""
    turns = []
    for text in ["r2", "r3", "r4", "r5", "r6", "r12", "y2", "y3", "y4", "y5", "y6", "y12"]:
        n = int(text[1:])
        roll: dict[str, Any] = {"white": [min(6, n - 1), n - min(6, n - 1)], "yellow": 2,
                                "green": 1, "blue": 1}
        if len(turns) < 6:
            roll["red"] = 1
        turns.append({"active": 0, "roll": roll,
                      "action1": [{"colour": "red" if text[0] == "r" else "yellow",
                                   "number": n}], "action2": None})
    turns[-1]["action2"] = {"colour": "green", "number": 7}  # white 6 + green 1
    path = write(tmp_path / "a2.json", {"format": "qwixx-math/game-record", "version": 1,
                                        "players": ["Solo"], "turns": turns})
    assert run(["validate", path], capsys)[0] == 1
    assert run(["validate", path, "--action2-after-game-end"], capsys)[0] == 0
    assert run(["validate", path, "--end-check", "end_of_turn"], capsys)[0] == 0
    assert run(["validate", path, "--no-action2-after-game-end"], capsys)[0] == 1


def test_standard_input(monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(EXAMPLE.read_text()))
    code, out, _ = run(["validate", "-"], capsys)
    assert code == 1 and out.startswith("-: INVALID")


@pytest.mark.parametrize(("content", "words"), [
    ('{"format": "qwixx-math/game-record", "version": 1, "players": ["A"], "tur',
     "line 1, column 70: Unterminated string"),
    ("", "line 1, column 1"),
    ('{"format": "other"}', "$.format"),
    ('{"format": "qwixx-math/game-record", "version": 1, "players": ["A", "B"], "turns": '
     '[{"active": 2, "roll": {"white": [1, 1]}, "action1": [null, null], "action2": null}]}',
     "player 2 does not exist"),
    ('{"format": "qwixx-math/game-record", "version": 1, "players": ["A"], "turns": '
     '[{"active": 0, "roll": {"white": [1, 8]}, "action1": [null], "action2": null}]}',
     "$.turns[0].roll.white[1] (turn 1): must be a die, 1 to 6 (R1), not 8"),
])
def test_unreadable_records_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   content: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run(["validate", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"qwixx-math validate: error: {path}: ") and words in err


def test_missing_file_and_bad_options_exit_2(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["validate", str(tmp_path / "nope.json")], capsys)
    assert code == 2 and "cannot read the record" in err
    with pytest.raises(SystemExit) as info:
        main(["validate", str(EXAMPLE), "--die-removal", "never"])
    assert info.value.code == 2
    capsys.readouterr()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=12)


@st.composite
def record_like(draw: st.DrawFn) -> Any:
    """Arbitrary JSON, often close to a record: a real record with a field replaced."""
    if draw(st.booleans()):
        return draw(json_values)
    data: dict[str, Any] = random_game(players=draw(st.integers(1, 5)),
                                       seed=draw(st.integers(0, 50))).to_json()
    key = draw(st.sampled_from(sorted(data)))
    if key == "turns" and data["turns"] and draw(st.booleans()):
        turn = data["turns"][draw(st.integers(0, len(data["turns"]) - 1))]
        turn[draw(st.sampled_from(sorted(turn)))] = draw(json_values)
    else:
        data[key] = draw(json_values)
    return data


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(record_like())
def test_fuzzed_files_give_exit_codes_never_tracebacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any) -> None:
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(data))
    code = main(["validate", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    if code == 2:
        assert out == "" and err.startswith("qwixx-math validate: error: ")
    else:
        report = json.loads(out)
        assert report["valid"] is (code == 0)


def test_no_traceback_in_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text(EXAMPLE.read_text()[:500])
    proc = subprocess.run([sys.executable, "-m", "qwixx_math", "validate", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "truncated" in proc.stderr


# -- generate --------------------------------------------------------------------------------------

def test_generate_json_lines_deterministic_and_valid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["generate", "--games", "5", "--seed", "42", "--players", "3"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 5
    records = [GameRecord.from_json(json.loads(line)) for line in lines]
    assert [r.seed for r in records] == [game_seed(42, k) for k in range(5)]
    for record in records:
        assert record.ruleset == Ruleset(players=3)
        assert record == random_game(seed=record.seed, ruleset=record.ruleset)
        assert validate_record(record).valid
    assert run(["generate", "--games", "5", "--seed", "42", "--players", "3"], capsys)[1] == out
    assert run(["generate", "--games", "5", "--seed", "43", "--players", "3"], capsys)[1] != out


def test_generate_files_with_a_dialect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["generate", "--games", "3", "--seed", "1", "--players", "2", "--out",
                        str(tmp_path / "games"), "--no-simultaneous-close",
                        "--end-check", "sequential"], capsys)
    assert code == 0 and "wrote 3 record(s)" in err
    files = sorted((tmp_path / "games").iterdir())
    assert [f.name for f in files] == ["game-000001.json", "game-000002.json",
                                       "game-000003.json"]
    for f in files:
        code, out, _ = run(["validate", str(f)], capsys)
        assert code == 0, out
        rs = json.loads(f.read_text())["ruleset"]
        assert rs["simultaneous_close"] is False and rs["end_check"] == "sequential"


@pytest.mark.parametrize("args", [["--players", "6"], ["--players", "0"], ["--games", "-1"]])
def test_generate_bad_arguments_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["generate", "--games", "1", "--seed", "1", *args]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and "error" in err


# -- conformance -----------------------------------------------------------------------------------

def test_conformance_emit_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["conformance", "--emit", str(tmp_path / "c")], capsys)
    assert code == 0 and "legality.json" in out
    shipped = ROOT / "qwixx_math" / "data" / "conformance"
    for name in ("legality.json", "transitions.json", "manifest.json"):
        assert (tmp_path / "c" / name).read_bytes() == (shipped / name).read_bytes()
    code, out, _ = run(["conformance", "--check"], capsys)
    assert code == 0 and out.strip().endswith("all agree with the reference core")
    (tmp_path / "c" / "transitions.json").write_text("[]\n")
    code, out, _ = run(["conformance", "--check", str(tmp_path / "c")], capsys)
    assert code == 1 and "disagreement" in out
    code, _, err = run(["conformance", "--check", str(tmp_path / "nothing")], capsys)
    assert code == 2 and "cannot read" in err
