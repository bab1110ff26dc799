"""``qwixx-math advise``: issue 32's reproducers (exit code 2, one line on stderr), the
sheets of every seat with ``--me``, and ``--objective win`` from the command line
(issue 35)."""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from qwixx_math.cli import main
from qwixx_math.notation import parse_plan
from qwixx_math.position import MAX_STATE_TURN, position
from qwixx_math.rules import new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.table import TableAdvisor
from qwixx_math.winadvice import MAX_BUDGET, MAX_ROLLOUTS, advise_win_separated

ROOT = Path(__file__).resolve().parent.parent
#: A late two-player position (few turns left: rollouts are cheap).
LATE = ["r:2,3,4,5,6,7/y:2,3,4,5,6,8,10/g:12,11,10/b:12,11,10,9,8/p:2",
        "r:2,3,4,5,6/y:2,3,4,5,6/g:12,11/b:12,11/p:1"]
LATE_ROLL = "w:6,6/r:1/y:2/g:5/b:1"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["advise", "--quiet", *args])
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line on stderr of a refused call (exit code 2, nothing on stdout)."""
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, ""), (args, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


# -- issue 32 -----------------------------------------------------------------------------------

@pytest.mark.parametrize("content", ["[" * 1000, "[" * 200_000, '{"a":' * 1000,
                                     '{"turn": ' + "[" * 3000])
@pytest.mark.parametrize("objective", ["ev", "win"])
def test_deeply_nested_state_files(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   content: str, objective: str) -> None:
    """Item 1: a RecursionError traceback before."""
    path = tmp_path / "nested.json"
    path.write_text(content, encoding="utf-8")
    err = refused(capsys, "--objective", objective, "--state", str(path))
    assert "not a game state" in err


@pytest.mark.slow
def test_deeply_nested_state_on_stdin() -> None:
    """Item 1 through /dev/stdin, as a user types it (two subprocesses: slow)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for objective in ("ev", "win"):
        proc = subprocess.run(
            [sys.executable, "-m", "qwixx_math", "advise", "--objective", objective,
             "--state", "/dev/stdin", "--quiet"],
            input="[" * 1000, capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and "nested too deeply" in proc.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--rollouts", "1000000"], f"--rollouts must be 2 to {MAX_ROLLOUTS}"),
    (["--rollouts", str(MAX_ROLLOUTS + 1)], "--rollouts must be"),
    (["--budget", str(MAX_BUDGET + 1)], f"--budget must be 1 to {MAX_BUDGET}"),
    (["--seed", str(2**63)], "--seed must be"),
    (["--top", "1001"], "--top must be 1 to 1000"),
    (["--top", "0"], "--top must be"),
    (["--players", "1" + "0" * 29], "R3: --players must be 1 to 5, not 1e+29"),
    (["--me", "6"], "--me must be 1 to 5"),
    (["--before-me", "5"], "R12: --before-me must be 0 to 4"),
    (["--player", "9"], "player 9 does not exist"),
])
def test_every_count_has_a_limit_checked_first(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               args: list[str], message: str) -> None:
    """Item 6: --rollouts 1000000 (about 80 hours) was accepted.  The limit is checked
    before the state file is even read (it does not exist here)."""
    err = refused(capsys, "--objective", "win", "--state", str(tmp_path / "none.json"), *args)
    assert message in err


def test_a_missing_die_is_not_a_closed_colour(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 8: the roll without blue's die was valued as if blue were closed (94.5 instead
    of 152.4)."""
    err = refused(capsys, "--players", "2", "--sheet", "r:2,3/g:12", "--roll",
                  "w:3,4/r:1/y:2/g:5")
    assert "R4: the roll has no blue die and no sheet locked blue" in err
    code, out, _ = run(capsys, "--players", "2", "--sheet", "r:2,3/g:12", "--roll",
                       "w:3,4/r:1/y:2/g:5/b:6", "--json")
    assert code == 0
    assert round(json.loads(out)["plans"][0]["expected_score"], 1) == 152.4
    # blue closed by the other player: their sheet says so, and the roll lacks blue's die
    code, out, _ = run(capsys, "--players", "2", "--sheet", "r:2,3/g:12", "--sheet",
                       "b:12,11,10,9,8,2,lock", "--me", "1", "--roll", "w:3,4/r:1/y:2/g:5",
                       "--json")
    assert code == 0
    assert round(json.loads(out)["plans"][0]["expected_score"], 1) == 94.5


def test_a_state_turn_is_bounded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 9 (part): turn = 10**30 was accepted."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps(new_game(2).to_json() | {"turn": 10**30}), encoding="utf-8")
    for objective in ("ev", "win"):
        err = refused(capsys, "--objective", objective, "--state", str(path), "--roll",
                      "w:1,2/r:1/y:1/g:1/b:1")
        assert f"at most {MAX_STATE_TURN} turns" in err


def test_before_me_at_a_table_of_two(capsys: pytest.CaptureFixture[str]) -> None:
    """The newcomer's report: --before-me 2 at a table of 2 said "roll 0 to 1 times"; the
    help says 1 to N-1, and --passive at a table of 2 takes its only legal value."""
    base = ["--players", "2", "--sheet", "r:2", "--roll", "w:1,2/r:1/y:1/g:1/b:1", "--passive"]
    err = refused(capsys, *base, "--before-me", "2")
    assert "R12: at a table of 2 a passive player's --before-me is 1 to 1" in err
    code, default, _ = run(capsys, *base, "--json")
    assert code == 0
    code, one, _ = run(capsys, *base, "--before-me", "1", "--json")
    assert code == 0 and json.loads(default) == json.loads(one)
    assert json.loads(one)["before_me"] == 1


# -- one --sheet per seat -------------------------------------------------------------------------

def test_the_sheets_of_every_seat_match_the_library(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    sheets = ["r:2,3/g:12", "y:2,3,4/p:1", "b:12,11"]
    roll = "w:3,4/r:1/y:2/g:5/b:6"
    advisor = TableAdvisor.for_ruleset(Ruleset(players=3), players=3, progress=False)
    for me, passive, before in ((1, [], 0), (3, ["--passive", "--before-me", "2"], 2),
                                (2, ["--passive", "--before-me", "1"], 1)):
        code, out, _ = run(capsys, "--players", "3", *[a for s in sheets for a in ("--sheet", s)],
                           "--me", str(me), "--roll", roll, *passive, "--json")
        assert code == 0, out
        data = json.loads(out)
        state = position(sheets, roll, active=(me - 1 - before) % 3)
        expected = advisor.advise_player(state, me - 1)
        assert [p["plan"] for p in data["plans"]] == [str(r.plan) for r in expected.plans]
        assert data["me"] == me and data["passive"] is bool(passive)


@pytest.mark.parametrize(("args", "message"), [
    (["--sheet", "r:-", "--sheet", "r:-", "--me", "1"], "give --players 2"),
    (["--players", "3", "--sheet", "r:-", "--sheet", "r:-", "--me", "1"], "R3"),
    (["--players", "2", "--sheet", "r:-", "--sheet", "r:-"], "--me K"),
    (["--players", "2", "--sheet", "r:-", "--sheet", "r:-", "--me", "3"], "R3: --me 3"),
    (["--players", "2", "--sheet", "r:-", "--me", "1"], "--me goes with one --sheet per seat"),
    (["--players", "5", *["--sheet", "r:-"] * 6, "--me", "1"], "R3"),
    (["--objective", "win", "--players", "2", "--sheet", "r:-"], "every sheet"),
    (["--objective", "win", "--players", "2", "--sheet", "r:-", "--sheet", "r:-", "--me",
      "1", "--rollouts", "4", "--budget", "9"], "one of them"),
    (["--players", "2", "--sheet", "r:-", "--sheet", "b:12,11,10,9,8,2,lock", "--me", "1",
      "--roll", "w:1,1/r:1/y:1/g:1/b:1"], "R9: sheet 2 closed blue"),
])
def test_sheet_options_bad_input(capsys: pytest.CaptureFixture[str], args: list[str],
                                 message: str) -> None:
    err = refused(capsys, *args, *([] if "--roll" in args else
                                   ["--roll", "w:1,1/r:1/y:1/g:1/b:1"]))
    assert message in err


# -- --objective win from the command line -----------------------------------------------------

def _win_args(*extra: str) -> list[str]:
    return ["--objective", "win", "--players", "2", "--sheet", LATE[0], "--sheet", LATE[1],
            "--me", "1", "--roll", LATE_ROLL, *extra]


def test_win_from_the_command_line_is_the_library_and_deterministic(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *_win_args("--json", "--budget", "3000"))
    assert code == 0
    data = json.loads(out)
    api = advise_win_separated(position(LATE, LATE_ROLL), 0, budget=3000)
    assert [c["plan"] for c in data["choices"]] == [str(c.plan) for c in api.choices]
    assert [c["win"] for c in data["choices"]] == [c.win for c in api.choices]
    assert data["stopped"] == api.stopped in ("separated", "budget", "exact")
    assert data["sheets"] == LATE and data["seed"] == 0
    for choice in data["choices"]:  # the exact table EV and the model beside the win chance
        assert isinstance(choice["expected_score"], float)
        assert 0.0 <= choice["model_win"] <= 1.0
    code, again, _ = run(capsys, *_win_args("--json", "--budget", "3000"))
    assert json.loads(again) == data  # the same answer without a seed
    code, text, _ = run(capsys, *_win_args("--budget", "3000", "--top", "2"))
    assert code == 0 and "objective: win" in text and "model %" in text
    assert "The rollouts stopped" in text or "Nothing to estimate" in text


def test_win_words_say_the_game_ends(capsys: pytest.CaptureFixture[str]) -> None:
    """Blue is closed; yellow 12 closes a second colour and ends the game at once."""
    sheets = ["r:2,3,4,5,6,7/y:2,3,4,5,6,8,10/g:12,11,10/b:12,11,10,9,8,2,lock/p:2",
              "r:2,3,4,5,6/y:2,3,4,5,6/g:12,11/b:12,11/p:1"]
    code, out, _ = run(capsys, "--objective", "win", "--players", "2", "--sheet", sheets[0],
                       "--sheet", sheets[1], "--me", "1", "--roll", "w:6,6/r:1/y:2/g:5",
                       "--json")
    assert code == 0
    data = json.loads(out)
    words = {c["plan"]: c["description"] for c in data["choices"]}
    assert words["y12/-"].endswith("closes yellow — second colour closed, the game ends: "
                                   "you win 90 to 31")
    assert data["stopped"] == "exact"
    assert parse_plan(data["choices"][0]["plan"]) in (parse_plan("y12/-"), parse_plan("r12/-"))


def test_the_agreement_benchmark_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Smoke only: benchmarks/bench_win_separation.py on two tiny late positions (the
    figure itself comes from running the benchmark, docs/advice.md); a saved reference
    replays to the same tally without playing the reference again."""
    script = ROOT / "benchmarks" / "bench_win_separation.py"
    saved = tmp_path / "ref.json"
    monkeypatch.setattr(sys, "argv", [str(script), "--reference", "8", "--games", "1",
                                      "--from-turn", "20", "--limit", "2", "--sample", "1",
                                      "--players", "2", "--batch", "8",
                                      "--save-reference", str(saved)])
    monkeypatch.syspath_prepend(str(script.parent))
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert "2 decisions of 1 games of win vs win" in out
    assert "positions tried: 2; separated by the reference" in out
    data = json.loads(saved.read_text())
    assert data["args"]["reference"] == 8 and len(data["positions"]) == 2
    monkeypatch.setattr(sys, "argv", [str(script), "--reference-file", str(saved)])
    runpy.run_path(str(script), run_name="__main__")
    again = capsys.readouterr().out
    assert "read from" in again
    tally = [line for line in out.splitlines() if line.startswith("positions tried")]
    assert tally == [line for line in again.splitlines() if line.startswith("positions tried")]
