"""``qwixx-math value`` and ``qwixx-math advise --players/--state`` (issue 11): outputs equal
the Python API's, bad input is a clean typed error with the rule id and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.cli import main
from qwixx_math.model import Colour, Mark, Roll, Sheet
from qwixx_math.notation import parse_roll, parse_sheet
from qwixx_math.rules import GameState, Phase, new_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.table import TableAdvisor, table_model

FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def two() -> TableAdvisor:
    return TableAdvisor.for_ruleset(players=2, progress=False)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args[:1], "--quiet", *args[1:]])
    out, err = capsys.readouterr()
    return code, out, err


# -- value -----------------------------------------------------------------------------------------

def test_value_json_and_line(two: TableAdvisor, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = "r:2,3/g:12/p:1"
    code, out, _ = run(capsys, "value", "--players", "2", "--sheet", sheet, "--closed", "b",
                       "--before-me", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["expected_score"] == two.value(parse_sheet(sheet), frozenset({Colour.BLUE}), 1)
    assert (data["players"], data["before_me"], data["closed"]) == (2, 1, "b")
    assert data["model"] == table_model(2)
    code, out, _ = run(capsys, "value", "--players", "2", "--sheet", sheet, "--closed", "b",
                       "--before-me", "1")
    assert code == 0 and f"{data['expected_score']:.6f}" in out and "1 other roll" in out
    code, out, _ = run(capsys, "value", "--players", "2", "--sheet", "r:-", "--json")
    assert json.loads(out)["expected_score"] == two.table.seat_values[0]


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "0", "--sheet", "r:-"], "R3"),
    (["--players", "6", "--sheet", "r:-"], "R3"),
    (["--players", "2", "--sheet", "r:-", "--before-me", "2"], "R12"),
    (["--players", "2", "--sheet", "r:-", "--before-me", "-1"], "R12"),
    (["--sheet", "r:-", "--before-me", "1"], "R12"),
    (["--players", "2", "--sheet", "r:5,3"], "R7"),
    (["--players", "2", "--sheet", "r:2,3,4,5,12,lock"], "R8"),
    (["--players", "2", "--sheet", "r:-", "--closed", "x"], "colour"),
])
def test_value_bad_input(two: TableAdvisor, capsys: pytest.CaptureFixture[str],
                         args: list[str], message: str) -> None:
    code, out, err = run(capsys, "value", *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


@FUZZ
@given(sheet=st.text(max_size=25), closed=st.text(max_size=8), k=st.integers(-3, 4))
def test_value_fuzz_only_clean_errors(two: TableAdvisor, sheet: str, closed: str,
                                      k: int) -> None:
    try:
        code = main(["value", "--quiet", "--players", "2", "--sheet", sheet, "--closed",
                     closed, "--before-me", str(k), "--json"])
    except SystemExit as exc:  # argparse: a value that looks like an option
        assert exc.code == 2
        return
    assert code in (0, 2)
    assert code == 2 or 0 <= k <= 1


# -- advise --players ------------------------------------------------------------------------------

def test_advise_players_active_and_passive(two: TableAdvisor,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    sheet, roll = "r:2,3/g:12/p:1", "w:3,4/r:1/y:2/g:5/b:6"
    code, out, _ = run(capsys, "advise", "--players", "2", "--sheet", sheet, "--roll", roll,
                       "--json")
    assert code == 0
    data = json.loads(out)
    state = GameState(Ruleset(players=2), (parse_sheet(sheet), Sheet.EMPTY))
    expected = two.advise(state, parse_roll(roll))
    assert [p["plan"] for p in data["plans"]] == [str(r.plan) for r in expected.plans]
    assert [p["expected_score"] for p in data["plans"]] == \
        [r.expected_score for r in expected.plans]
    assert data["model"] == table_model(2) and data["before_me"] == 0
    # passive, one roll (this one) before mine: I am player 1 of 2
    code, out, _ = run(capsys, "advise", "--players", "2", "--sheet", sheet, "--roll", roll,
                       "--passive", "--before-me", "1", "--json")
    assert code == 0
    data = json.loads(out)
    state = GameState(Ruleset(players=2), (Sheet.EMPTY, parse_sheet(sheet)))
    expected = two.advise_passive(state, 1, parse_roll(roll))
    assert [(p["plan"], p["expected_score"]) for p in data["plans"]] == \
        [(str(r.plan), r.expected_score) for r in expected.plans]
    assert data["passive"] is True
    code, out, _ = run(capsys, "advise", "--players", "2", "--sheet", sheet, "--roll", roll,
                       "--passive", "--before-me", "1", "--top", "2")
    assert code == 0 and table_model(2) in out and "passive player" in out


def test_advise_without_players_stays_solitaire(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "advise", "--sheet", "r:2", "--roll", "w:1,2/r:1/y:1/g:1/b:1",
                       "--json")
    assert code == 0 and json.loads(out)["model"].startswith("solitaire")


# -- advise --state --------------------------------------------------------------------------------

def write_state(tmp_path: Path, state: GameState) -> str:
    path = tmp_path / f"state-{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps(state.to_json()), encoding="utf-8")
    return str(path)


def test_advise_state_in_every_phase(two: TableAdvisor, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    start = GameState(Ruleset(players=2), (parse_sheet("r:2,3/p:1"), parse_sheet("g:12,11")),
                      active=1, turn=5)
    roll = "w:3,4/r:1/y:2/g:5/b:6"
    rolled = start.with_roll(parse_roll(roll))
    after1 = rolled.with_action1([Mark(Colour.RED, 7), None])
    cases = [
        (start, ["--roll", roll], two.advise(rolled)),
        (start, ["--roll", roll, "--player", "0"], two.advise_passive(rolled, 0)),
        (rolled, [], two.advise(rolled)),
        (rolled, ["--player", "0"], two.advise_passive(rolled, 0)),
        (after1, [], two.advise_action2(after1)),
    ]
    for state, extra, expected in cases:
        code, out, err = run(capsys, "advise", "--state", write_state(tmp_path, state),
                             *extra, "--json")
        assert code == 0, err
        data = json.loads(out)
        assert data["player"] == expected.player and data["passive"] == expected.passive
        assert [(p["plan"], p["expected_score"]) for p in data["plans"]] == \
            [(str(r.plan), r.expected_score) for r in expected.plans]
        assert data["model"] == table_model(2)
    code, out, _ = run(capsys, "advise", "--state", write_state(tmp_path, after1))
    assert code == 0 and "player 1" in out and table_model(2) in out


def test_advise_state_errors(two: TableAdvisor, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    start = new_game(2)
    roll = Roll.of(3, 4, red=1, yellow=2, green=5, blue=6)
    after1 = start.with_roll(roll).with_action1([None, None])
    over = GameState(Ruleset(players=2), (Sheet.EMPTY,) * 2, phase=Phase.OVER, ended_by="R14",
                     closed=frozenset({Colour.RED, Colour.BLUE}))
    bad_roll = start.to_json() | {"phase": "action1", "closed": ["red"],
                                  "roll": {"white": [3, 4], "red": 1, "yellow": 2,
                                           "green": 5, "blue": 6}}
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad_roll), encoding="utf-8")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    cases = [
        ([write_state(tmp_path, start)], "give --roll"),
        ([write_state(tmp_path, after1), "--player", "1"], "nothing to decide"),
        ([write_state(tmp_path, over)], "R14"),
        ([write_state(tmp_path, start), "--roll", "w:1,1/r:1/y:1/g:1/b:1", "--players", "3"],
         "R3"),
        ([str(bad_path)], "R9"),
        ([str(garbage)], "not JSON"),
        ([str(tmp_path / "missing.json")], "cannot read"),
        ([write_state(tmp_path, start), "--roll", "w:1,1/r:1/y:1/g:1/b:1", "--player", "5"],
         "does not exist"),
    ]
    for args, message in cases:
        code, out, err = run(capsys, "advise", "--state", *args)
        assert code == 2 and out == "", (args, out)
        assert message in err and "Traceback" not in err, (args, err)


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "6"], "R3"),
    (["--players", "0"], "R3"),
    (["--players", "3", "--passive"], "--before-me"),
    (["--players", "2", "--passive", "--before-me", "0"], "R12"),
    (["--players", "2", "--passive", "--before-me", "2"], "R12"),
    (["--players", "2", "--before-me", "1"], "R12"),
    (["--before-me", "1"], "--players"),
])
def test_advise_players_bad_input(two: TableAdvisor, capsys: pytest.CaptureFixture[str],
                                  args: list[str], message: str) -> None:
    code, out, err = run(capsys, "advise", "--sheet", "r:2", "--roll",
                         "w:1,2/r:1/y:1/g:1/b:1", *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(("sheet", "roll", "message"), [
    ("r:5,3", "w:1,1/r:1/y:1/g:1/b:1", "R7"),
    ("r:2,3,4,5,12,lock", "w:1,1/r:1/y:1/g:1/b:1", "R8"),
    ("r:2,3,4,5,6,12,lock", "w:1,1/r:1/y:1/g:1/b:1", "R9"),
    ("r:2", "w:1,1/r:1/y:1", "R4: the roll has no green die"),  # never read as closed
    ("r:2/p:4", "w:1,1/r:1/y:1/g:1/b:1", "R13"),
])
def test_advise_players_impossible_positions(two: TableAdvisor,
                                             capsys: pytest.CaptureFixture[str],
                                             sheet: str, roll: str, message: str) -> None:
    code, out, err = run(capsys, "advise", "--players", "2", "--sheet", sheet, "--roll", roll)
    assert code == 2 and out == "" and message in err


@FUZZ
@given(data=st.dictionaries(st.sampled_from(["ruleset", "sheets", "active", "closed", "phase",
                                             "roll", "action1", "ended_by", "turn", "x"]),
                            st.one_of(st.none(), st.integers(-2, 6), st.text(max_size=6),
                                      st.lists(st.integers(0, 7), max_size=4))),
       player=st.integers(-1, 3))
def test_advise_state_fuzz_only_clean_errors(two: TableAdvisor, tmp_path: Path,
                                             data: dict[str, object], player: int) -> None:
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(new_game(2).to_json() | data), encoding="utf-8")
    try:
        code = main(["advise", "--quiet", "--state", str(path), "--player", str(player),
                     "--roll", "w:1,2/r:1/y:1/g:1/b:1", "--json"])
    except SystemExit as exc:
        assert exc.code == 2
        return
    assert code in (0, 2)


@FUZZ
@given(sheet=st.text(max_size=25), roll=st.text(max_size=25), n=st.integers(-1, 6),
       k=st.integers(-1, 5), passive=st.booleans())
def test_advise_players_fuzz_only_clean_errors(two: TableAdvisor, sheet: str, roll: str,
                                               n: int, k: int, passive: bool) -> None:
    args = ["advise", "--quiet", "--players", str(n), "--sheet", sheet, "--roll", roll,
            "--before-me", str(k), "--json"]
    try:
        code = main([*args, "--passive"] if passive else args)
    except SystemExit as exc:
        assert exc.code == 2
        return
    assert code in (0, 2)
    assert code == 2 or n in (1, 2)
