"""Issue 10's bad-input cases for files, caches and the command line, one test each.

Damaged cached results, unwritable caches, stale temporary files, huge numbers, byte-order
marks, empty paths, non-ASCII digits, names with terminal escapes, overlong echoed input,
capped validator reports and partial records.  The slow, large versions (a 2 GB file, 2,000
turns of violations, a ``kill -9`` during a write) are in ``test_limits_slow.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from qwixx_math.cli import main
from qwixx_math.commands._args import ascii_float, ascii_int, path_arg
from qwixx_math.display import clip, printable
from qwixx_math.errors import ParseError
from qwixx_math.files import read_bytes_bounded
from qwixx_math.policies import policy_value, score_distribution
from qwixx_math.policies.store import encode_result, load_result, result_path, save_result
from qwixx_math.record import random_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import CacheWarning, Variant
from qwixx_math.solver.cache import TEMP_PREFIX, atomic_write, remove_stale_temporaries
from qwixx_math.validation import RecordError, validate_record
from qwixx_math.validation.reader import MAX_TURNS, read_record

SMALL = Variant.from_letters("ada", 5, 2, 2, 2)
ROOT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# -- item 1: cached results ---------------------------------------------------------------------

def _load(path: Path) -> dict[str, Any] | None:
    return load_result(path, SMALL, False, "seed-tips", "value", None)


def _forged(path: Path, body: bytes) -> None:
    """A file whose checksum is right for a body that is not valid JSON of a result."""
    import zlib
    path.write_bytes(b"qwixx-math-result crc32=%08x size=%d\n" % (zlib.crc32(body), len(body))
                     + body)


@pytest.mark.parametrize("damage", ["byte", "digits", "brackets", "utf8", "huge", "empty"])
def test_a_damaged_result_file_is_warned_about_removed_and_recomputed(
        tmp_path: Path, damage: str) -> None:
    path = result_path(tmp_path, SMALL, False, "seed-tips", "value")
    save_result(path, SMALL, False, "seed-tips", "value", None, {"expected_score": 1.5})
    assert _load(path) == {"expected_score": 1.5}
    raw = bytearray(path.read_bytes())
    if damage == "byte":  # one bad byte anywhere in the body
        raw[len(raw) // 2] ^= 0x80
        path.write_bytes(bytes(raw))
    elif damage == "digits":
        _forged(path, b'{"payload": {"expected_score": ' + b"9" * 5000 + b"}}")
    elif damage == "brackets":
        _forged(path, b"[" * 100_000)
    elif damage == "utf8":
        _forged(path, b'{"payload": "\xff"}')
    elif damage == "huge":
        path.write_bytes(b"x" * (2 << 20))
    else:
        path.write_bytes(b"")
    with pytest.warns(CacheWarning, match="corrupt"):
        assert _load(path) is None
    assert not path.exists()


def test_the_result_checksum_covers_every_byte(tmp_path: Path) -> None:
    text = encode_result(SMALL, False, "seed-tips", "value", None, {"expected_score": 1.5})
    path = tmp_path / "r.json"
    for i in range(0, len(text), 7):  # every seventh byte flipped, one at a time
        damaged = bytearray(text)
        damaged[i] ^= 0x01
        path.write_bytes(bytes(damaged))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert _load(path) is None, i
        assert caught and issubclass(caught[0].category, CacheWarning)


# -- item 2: a cache that cannot be written -----------------------------------------------------

def test_results_are_returned_when_the_cache_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    ruleset = Ruleset(players=1)
    with pytest.warns(CacheWarning, match="could not write"):
        value = policy_value("threshold-1", ruleset, SMALL, cache=blocker)
    with pytest.warns(CacheWarning, match="could not write"):
        dist = score_distribution("threshold-1", ruleset, SMALL, cache=blocker)
    assert dist.mean == pytest.approx(value.expected_score, abs=1e-9)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes into read-only directories")
def test_results_are_returned_when_the_cache_is_read_only(tmp_path: Path) -> None:
    tmp_path.chmod(0o555)
    try:
        with pytest.warns(CacheWarning, match="could not write"):
            policy_value("threshold-1", Ruleset(players=1), SMALL, cache=tmp_path)
    finally:
        tmp_path.chmod(0o755)


# -- item 10: stale temporary files -------------------------------------------------------------

def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_temporaries_are_removed_when_the_cache_is_next_written(tmp_path: Path) -> None:
    dead = tmp_path / f"{TEMP_PREFIX}{_dead_pid()}.abc123.solitaire-v1-x.qxt"
    live = tmp_path / f"{TEMP_PREFIX}{os.getppid()}.def456.solitaire-v1-x.qxt"
    old = tmp_path / f"{TEMP_PREFIX}{os.getppid()}.ghi789.policy-v2-x.json"
    legacy = tmp_path / "solitaire-v1-x.qxt.k2j3h4.tmp"
    unrelated = tmp_path / "notes.tmp"
    for p in (dead, live, old, legacy, unrelated):
        p.write_bytes(b"half a table")
    hours_ago = time.time() - 7200
    for p in (old, legacy, unrelated):
        os.utime(p, (hours_ago, hours_ago))
    atomic_write(tmp_path / "fresh.bin", lambda f: f.write(b"data"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [live.name, unrelated.name, "fresh.bin"])
    assert remove_stale_temporaries(tmp_path / "missing") == []


def test_a_failed_write_leaves_no_temporary(tmp_path: Path) -> None:
    def broken(f: Any) -> None:
        f.write(b"part")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic_write(tmp_path / "t.bin", broken)
    assert list(tmp_path.iterdir()) == []


# -- items 4, 6 and 12: dice-test ---------------------------------------------------------------

def test_dice_test_refuses_huge_numbers_and_absurd_players(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    digits = tmp_path / "digits.json"
    digits.write_text('[{"white": [' + "9" * 5000 + ", 1]}]")
    code, _, err = run(capsys, "dice-test", str(digits))
    assert code == 2 and "not valid JSON" in err and len(err) < 1500
    record = random_game(players=2, seed=1).to_json()
    record["turns"][0]["active"] = 10**30
    absurd = tmp_path / "absurd.json"
    absurd.write_text(json.dumps(record))
    code, _, err = run(capsys, "dice-test", str(absurd))
    assert code == 2 and "does not exist" in err


def test_dice_test_accepts_a_byte_order_mark_in_csv_and_json(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rows = "white1,white2\n" + "".join(f"{a},{b}\n" for a in range(1, 7) for b in range(1, 7))
    reports = []
    for name, text in (("r.csv", rows), ("r.json", json.dumps(
            [{"white": [a, b]} for a in range(1, 7) for b in range(1, 7)]))):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        code, out, err = run(capsys, "dice-test", str(path), "--json")
        assert code in (0, 1), err
        reports.append(json.loads(out)["tests"])
    assert reports[0] == reports[1]


def test_oversized_files_are_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 101)
    with pytest.raises(ParseError, match="101 bytes; at most 100"):
        read_bytes_bounded(path, 100, "record")
    assert read_bytes_bounded(path, 101, "record") == b"x" * 101
    with pytest.raises(ParseError, match="null byte"):
        read_bytes_bounded("a\x00b", 100, "record")


# -- item 12: arguments, names, echoed input ----------------------------------------------------

@pytest.mark.parametrize("text", ["\u0663", "1_0", " 3", "+", "", "1.5", "9" * 31])
def test_numbers_are_ascii_digits_only(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        ascii_int()(text)
    assert ascii_int()("-12") == -12 and ascii_int(0, 9)("+7") == 7
    with pytest.raises(argparse.ArgumentTypeError, match="between 0 and 9"):
        ascii_int(0, 9)("10")


@pytest.mark.parametrize("text", ["\u0663.5", "nan", "inf", "1e999", "", "0x1p-2", "1_0.5"])
def test_decimals_are_ascii_and_finite(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        ascii_float(text)
    assert ascii_float("0.05") == 0.05 and ascii_float("1e-3") == 0.001


def test_paths_may_not_be_empty() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="empty"):
        path_arg("")
    with pytest.raises(argparse.ArgumentTypeError, match="NUL"):
        path_arg("a\x00b")
    assert path_arg(".") == "."


@pytest.mark.parametrize("argv", [
    ["review", "x.json", "--top", "\u0663"],
    ["simulate", "--games", "\u0665"],
    ["generate", "--games", "1", "--seed", "1", "--out", ""],
    ["conformance", "--emit", ""],
    ["dice-test", ""],
    ["dice-test", "x.csv", "--alpha", "nan"],
    ["distribution", "--plot", ""],
])
def test_the_cli_refuses_bad_arguments_with_exit_2(
        capsys: pytest.CaptureFixture[str], argv: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2 and "error" in err
    assert list(tmp_path.iterdir()) == []  # nothing written into the current directory


def test_distribution_checks_the_plot_path_before_the_work(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_: Any, **__: Any) -> None:
        raise AssertionError("the distribution was computed before the --plot check")

    monkeypatch.setattr("qwixx_math.commands.distribution.score_distribution", never)
    (tmp_path / "dir.png").mkdir()
    for plot, words in ((str(tmp_path / "no" / "x.png"), "does not exist"),
                        (str(tmp_path / "x.txt"), "must end in"),
                        (str(tmp_path / "dir.png"), "is a directory")):
        code, _, err = run(capsys, "distribution", "--plot", plot, "--quiet")
        assert code == 2 and words in err, err


def test_errors_echo_at_most_a_screenful(capsys: pytest.CaptureFixture[str]) -> None:
    sheet = "r:" + "2," * 125_000
    code, _, err = run(capsys, "prob", "--sheet", sheet)
    assert code == 2 and len(err) < 1200 and "characters not shown" in err


def test_names_from_records_are_escaped(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    record = random_game(players=2, seed=4).to_json()
    record["players"] = ["\x1b[31mEve\x1b[0m", "Bob\u202e"]
    record["turns"][0]["action2"] = {"colour": "red", "number": 7}  # a violation, names shown
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "validate", str(path))
    assert code in (1, 2), err
    assert "\x1b" not in out + err and "\u202e" not in out + err
    assert "\\x1b[31mEve" in out + err


def test_printable_and_clip() -> None:
    assert printable("Kari") == "Kari" and printable("Åse Ødegård") == "Åse Ødegård"
    assert printable("a\x1bb\u202ec\udcff") == "a\\x1bb\\u202ec\\udcff"
    assert printable("a\nb", keep_newlines=True) == "a\nb"
    assert clip("abc", 10) == "abc"
    long = clip("x" * 10_000, 100)
    assert len(long) < 130 and "9940 characters not shown" in long


def test_a_non_utf8_path_does_not_crash_the_output(tmp_path: Path) -> None:
    if sys.platform == "win32":
        pytest.skip("POSIX file names")
    name = os.fsencode(tmp_path) + b"/\xff-record.json"
    with open(name, "w") as f:
        json.dump(random_game(players=2, seed=2).to_json(), f)
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "qwixx_math", "validate", name],
                          capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr and b"\\udcff-record.json: valid" in done.stdout


# -- item 7 and the validator's API items -------------------------------------------------------

def _illegal_turns(turns: int) -> dict[str, Any]:
    """A five-player record whose every turn has five illegal action-1 marks (R5)."""
    colours = ["red", "yellow", "green", "blue"]
    return {"format": "qwixx-math/game-record", "version": 1, "players": list("ABCDE"),
            "turns": [{"active": k % 5,
                       "roll": {"white": [1, 1], "red": 1, "yellow": 1, "green": 1, "blue": 1},
                       "action1": [{"colour": colours[(k + p) % 4],
                                    "number": 3 + (k * 7 + p) % 8} for p in range(5)],
                       "action2": None} for k in range(turns)]}


def test_many_violations_are_counted_not_all_described() -> None:
    record = read_record(_illegal_turns(60))  # 300 illegal marks and the early end
    report = validate_record(record, max_violations=50)
    assert len(report.violations) == 50 and report.omitted == 251
    assert report.violation_count == 301 and not report.valid
    assert report.dialects_skipped and report.dialects == ()
    text = report.to_text()
    assert "… and 251 more violation(s) not shown" in text and "not diagnosed" in text
    data = report.to_json()
    assert data["violation_count"] == 301 and data["omitted_violations"] == 251
    # the first ones are the same as without a limit
    full = validate_record(record, max_violations=None, dialects=False)
    assert full.violations[:50] == report.violations and full.omitted == 0
    with pytest.raises(RecordError, match="max_violations"):
        validate_record(record, max_violations=-1)


def test_the_reader_bounds_the_number_of_turns() -> None:
    data = _illegal_turns(MAX_TURNS + 1)
    with pytest.raises(RecordError, match=f"at most {MAX_TURNS}"):
        read_record(data)


def test_partial_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = random_game(players=3, seed=11).to_json()
    del game["result"]
    game["turns"] = game["turns"][:5]
    path = tmp_path / "started.json"
    path.write_text(json.dumps(game))
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1 and "the game is not over" in out
    code, out, _ = run(capsys, "validate", str(path), "--partial")
    assert code == 0 and "partial" in out
    # a partial record whose result claims the game ended is still faulted
    game["result"] = {"scores": [0, 0, 0], "winners": [0, 1, 2], "ended_by": "R14"}
    path.write_text(json.dumps(game))
    code, out, _ = run(capsys, "validate", str(path), "--partial", "--json")
    assert code == 1 and "end" in [v["step"] for v in json.loads(out)["violations"]]


def test_a_refused_close_is_named_as_the_left_out_mark() -> None:
    roll = {"white": [6, 6], "red": 1, "yellow": 1, "green": 1, "blue": 1}
    for claimed in (-5, 0):  # with and without the penalty box for the refused mark
        data = {"format": "qwixx-math/game-record", "version": 1, "players": ["A", "B"],
                "turns": [{"active": 0, "roll": roll, "action2": None,
                           "action1": [{"colour": "red", "number": 12}, None],
                           "scores": [claimed, 0]}]}
        report = validate_record(read_record(data), partial=True)
        rules = [(v.step.value, v.rule) for v in report.violations]
        assert rules == [("action1", "R8"), ("scores", "R16")]
        message = report.violations[1].message
        assert "leaves out this player's action-1 mark red 12" in message
        assert "lock box counting as a mark" not in message


def test_the_header_padding_of_a_table_must_be_zero(tmp_path: Path) -> None:
    import struct

    import numpy as np

    from qwixx_math.errors import CacheError
    from qwixx_math.solver.cache import check_padding, write_table

    path = tmp_path / "t.qxt"
    write_table(path, SMALL, False, np.zeros(3), 0.0)
    raw = bytearray(path.read_bytes())
    _, length, _ = struct.unpack("<8sII", raw[:16])
    offset = json.loads(raw[16:16 + length])["payload_offset"]
    if offset == 16 + length:
        pytest.skip("this header needs no padding")
    check_padding(path, length, offset)
    raw[offset - 1] = 1
    path.write_bytes(bytes(raw))
    with pytest.raises(CacheError, match="padding"):
        check_padding(path, length, offset)
    with pytest.raises(CacheError, match="does not follow"):
        check_padding(path, length, offset + 64)
