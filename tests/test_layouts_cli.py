"""``--layout official|mixx-a|mixx-b`` on prob, validate and generate, and the validator on
Qwixx Mixx records (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from strategies import TINY

from qwixx_math.cli import main
from qwixx_math.layouts import MIXX_A, MIXX_B, layout_named
from qwixx_math.record import GameRecord, random_game
from qwixx_math.validation import validate_record


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_prob_reads_the_sheet_on_its_layout(capsys: pytest.CaptureFixture[str]) -> None:
    """prob --layout mixx-b reads red 10, 6 in Mixx B's order and prints each row's numbers
    in print order; the JSON names the layout."""
    code, out, _ = run(["prob", "--sheet", "r:10,6", "--layout", "mixx-b", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["layout"] == "mixx-b" and data["sheet"].startswith("mixx-b|r:10,6/")
    assert list(data["active"]["markable"]["red"])[:3] == ["10", "6", "2"]
    assert data["active"]["markable"]["red"]["10"] == "0"  # already marked
    code, text, _ = run(["prob", "--sheet", "mixx-a|r:2,5"], capsys)
    assert code == 0 and "red     2:0 3:0 4:0 5:0 6:19/54" in text


@pytest.mark.parametrize("argv", [
    ["prob", "--sheet", "r:2", "--layout", "mixx-c"],
    ["prob", "--sheet", "mixx-b|r:10", "--layout", "mixx-a"],
    ["prob", "--sheet", "r:6,10", "--layout", "mixx-b"],
])
def test_prob_rejects_bad_layouts_with_exit_2(argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown layout, a sheet naming another layout, or marks out of the layout's order
    exit with code 2 and a message, no traceback."""
    code, _, err = run(argv, capsys)
    assert code == 2 and "Traceback" not in err and err.strip()


def test_validate_mixx_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A random Mixx A record is valid; one action-2 mark moved to a cell of another colour
    is an R6 violation; --layout contradicting the record is exit 2."""
    record = random_game(2, seed=3, layout=MIXX_A)
    good = write(tmp_path / "good.json", record.to_json())
    assert run(["validate", good], capsys)[0] == 0
    data = record.to_json()
    # a turn whose action 2 is a mark: move it to the same number in another row whose cell
    # has another colour than the die's
    for turn in data["turns"]:
        a2 = turn["action2"]
        if a2 is None:
            continue
        row = a2["colour"]
        die = MIXX_A.cell_colour(row, a2["number"])
        others = [c for c in MIXX_A.locks if MIXX_A.cell_colour(c, a2["number"]) is not die]
        turn["action2"] = {"colour": others[0].value, "number": a2["number"]}
        break
    bad = write(tmp_path / "bad.json", data)
    code, out, _ = run(["validate", bad, "--json", "--no-dialects"], capsys)
    assert code == 1
    rules = {v["rule"] for v in json.loads(out)["violations"]}
    assert "R6" in rules
    code, _, err = run(["validate", good, "--layout", "mixx-b"], capsys)
    assert code == 2 and "names layout mixx-a" in err


def test_validate_layout_for_a_record_that_names_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Mixx B record written without its layout field is invalid on the official sheet
    and valid with --layout mixx-b."""
    data = random_game(2, seed=11, layout=MIXX_B).to_json()
    del data["layout"]
    path = write(tmp_path / "bare.json", data)
    assert run(["validate", path, "--no-dialects"], capsys)[0] == 1
    assert run(["validate", path, "--layout", "mixx-b"], capsys)[0] == 0


@pytest.mark.parametrize("name", ["mixx-b", "double-b"])
def test_generate_writes_records_of_the_layout(name: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """generate --layout NAME writes records naming NAME that validate."""
    code, out, _ = run(["generate", "--games", "2", "--seed", "5", "--players", "2",
                        "--layout", name], capsys)
    assert code == 0
    for line in out.splitlines():
        record = GameRecord.from_json(json.loads(line))
        assert record.layout == layout_named(name) and validate_record(record).valid


def test_a_mark_the_row_does_not_show_is_reported_not_crashed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The validator on a record of a small layout (named by its spelled-out key): a red 12
    where the red row prints 2..7 is a violation (R5, or R2 when 12 is the white sum), and
    nothing crashes."""
    record = random_game(1, seed=2, layout=TINY)
    data = record.to_json()
    assert data["layout"] == TINY.key
    data["turns"][0]["action1"] = [{"colour": "red", "number": 12}]
    path = write(tmp_path / "tiny.json", data)
    code, out, _ = run(["validate", path, "--json", "--no-dialects"], capsys)
    assert code == 1
    assert {v["rule"] for v in json.loads(out)["violations"]} & {"R2", "R5"}
