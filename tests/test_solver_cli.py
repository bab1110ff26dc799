"""``qwixx-math solve``: output forms, the cache it reads, the progress bar.

The fast tests give the command a cached official table with known contents
(the command loads, it does not solve); the slow test solves for real.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

from qwixx_math.cli import main
from qwixx_math.layouts import MIXX_B
from qwixx_math.solver import Variant
from qwixx_math.solver.cache import table_filename, write_table
from qwixx_math.solver.layout import Layout
from qwixx_math.solver.progress import ProgressBar, progress_bar

OFFICIAL_STATES = 56**4 * 4 + 4 * 56**3 * 4


@pytest.fixture(scope="module")
def fake_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding official tables whose start values are 123.25 and 124.5."""
    directory = tmp_path_factory.mktemp("cli-cache")
    size = Layout.of(Variant()).size
    for a2, start in ((False, 123.25), (True, 124.5)):
        data = np.full(size, start)
        write_table(directory / table_filename(Variant(), a2), Variant(), a2, data, start)
    # a 2-player table: level 0 (seat 1) 130.0, level 1 (seat 2) 131.5
    two = Layout.of(Variant(), 2)
    data = np.full(two.size, 130.0)
    data[two.level_size:] = 131.5
    write_table(directory / table_filename(Variant(), False, 2), Variant(), False, data, 130.0,
                players=2)
    # a Mixx B table (its own file name: the official file must not be read for it)
    mixx = Variant(MIXX_B)
    data = np.full(Layout.of(mixx).size, 99.0)
    write_table(directory / table_filename(mixx, False), mixx, False, data, 99.0)
    return directory


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["solve", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_json_output(fake_cache: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(fake_cache))
    code, out, err = run(capsys, "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"layout", "players", "seat_values", "expected_score", "states",
                           "seconds", "ruleset"}
    assert result["layout"] == "official"
    assert result["players"] == 1 and result["seat_values"] == [123.25]
    assert result["expected_score"] == 123.25
    assert result["states"] == OFFICIAL_STATES
    assert isinstance(result["seconds"], float) and 0 <= result["seconds"] < 5
    assert result["ruleset"]["players"] == 1
    assert result["ruleset"]["action2_after_game_end"] is False
    assert "\r" not in err and "Traceback" not in err  # not a terminal: plain lines at most


def test_players_selects_the_table_model(fake_cache: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(fake_cache))
    code, out, _ = run(capsys, "--players", "2", "--json", "--quiet")
    assert code == 0
    result = json.loads(out)
    assert result["players"] == 2
    assert result["seat_values"] == [130.0, 131.5]
    assert result["expected_score"] == 130.0
    assert result["states"] == 2 * OFFICIAL_STATES
    code, out, _ = run(capsys, "--players", "2", "--quiet")
    assert code == 0 and "seat 1: 130.000000, seat 2: 131.500000" in out


@pytest.mark.parametrize("players", ["0", "6", "two", "\u0663", "-1", ""])
def test_players_outside_one_to_five_exit_2(players: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--players", players])
    assert exc.value.code == 2
    assert "1 to 5 players" in capsys.readouterr().err


def test_the_r15_switch_selects_the_other_table(fake_cache: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(fake_cache))
    code, out, _ = run(capsys, "--action2-after-game-end", "--json", "--quiet")
    assert code == 0
    result = json.loads(out)
    assert result["expected_score"] == 124.5
    assert result["ruleset"]["action2_after_game_end"] is True


def test_text_output(fake_cache: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(fake_cache))
    code, out, _ = run(capsys, "--quiet")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "expected score: 123.250000"
    assert lines[1] == f"states: {OFFICIAL_STATES}"
    assert lines[2].startswith("seconds: ") and "loaded from the cache" in lines[2]


def test_progress_bar_only_on_terminals() -> None:
    assert progress_bar(None, "x", io.StringIO()) is None
    assert progress_bar(False, "x", io.StringIO()) is None

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    bar = progress_bar(None, "solving", stream)
    assert isinstance(bar, ProgressBar)
    bar(0, 10)
    bar(10, 10)
    bar.close()
    text = stream.getvalue()
    assert text.startswith("\rsolving ") and "\rsolving [" in text and "100%" in text
    assert text.endswith("\n")


@pytest.mark.slow
def test_solve_for_real_then_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path))
    code, out, _ = run(capsys, "--json", "--quiet")
    assert code == 0
    solved = json.loads(out)
    assert 100 < solved["expected_score"] < 130
    code, out, _ = run(capsys, "--json", "--quiet")
    loaded = json.loads(out)
    assert loaded["expected_score"] == solved["expected_score"]
    assert loaded["seconds"] < 0.5 * solved["seconds"]


def test_layout_option(fake_cache: Path, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(fake_cache))
    code, out, _ = run(capsys, "--layout", "mixx-b", "--json", "--quiet")
    assert code == 0
    result = json.loads(out)
    assert result["layout"] == "mixx-b" and result["expected_score"] == 99.0
    code, out, _ = run(capsys, "--layout", "mixx-b", "--quiet")
    assert code == 0 and "layout: mixx-b" in out and "99.000000" in out
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--layout", "mixx-c"])
    assert exc.value.code == 2
