"""The variant pads' Options on the command line (VARIANTS.md §10.1, issue 34).

Every Option's flag reaches the Ruleset of each command that builds one from the layout
(``prob``, ``validate``, ``generate``, ``arena``: the ruleset each echoes in its JSON;
``coach``: the ruleset it hands its game), a value the library does not play is refused
with its rule id (exit code 2), and the flags change what must change: a record legal only
under an Option validates with its flag and not without, and ``prob`` on a Double A sheet
equals the exact events of the API under the Option and differs from the default's.  The
solver commands take none of the new flags (their solver does not play them).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from qwixx_math.cli import build_parser, main
from qwixx_math.dice import turn_events
from qwixx_math.layouts import layout_named
from qwixx_math.notation import parse_sheet
from qwixx_math.record import random_game
from qwixx_math.ruleset import BonusTrigger, Ruleset
from qwixx_math.validation import generate_records, validate_record

#: Each flag given with a value other than its default, and what the ruleset's JSON then
#: says (a variant Option is written only when it differs from its default).
FLAGS: list[tuple[list[str], str, Any]] = [
    (["--no-da-same-turn"], "da_same_turn", False),
    (["--bp-colour-trigger", "either_adjacent"], "bp_colour_trigger", "either_adjacent"),
    (["--bp-lock-marks", "6"], "bp_lock_marks", 6),
    (["--bb-fewest-candidates", "open_rows"], "bb_fewest_candidates", "open_rows"),
    (["--xc-field-without-cross"], "xc_field_without_cross", True),
    (["--lg-lucky-mode", "additional"], "lg_lucky_mode", "additional"),
    (["--lg-lucky-candidates", "open_with_next_cell"], "lg_lucky_candidates",
     "open_with_next_cell"),
]
#: The values only the default of is played: accepted, the ruleset unchanged.
DEFAULTS = [["--da-scope", "latest"], ["--da-same-turn"], ["--bb-diamond-order", "colour_order"],
            ["--cc-partner-moves-frontier"], ["--no-xc-in-action2"],
            ["--bp-colour-trigger", "same_colour"], ["--bp-lock-marks", "5"]]
#: The values the library does not play, with the rule its refusal names.
REFUSED = [(["--da-scope", "own_track"], "DA2"), (["--bb-diamond-order", "player_choice"], "BB3"),
           (["--no-cc-partner-moves-frontier"], "CC3"), (["--xc-in-action2"], "XC5")]

DA_SHEET = "r:2,3/y:-/g:-/b:-/p:0"


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


class _Captured(Exception):
    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__("captured")
        self.ruleset = ruleset


def _coach_ruleset(monkeypatch: pytest.MonkeyPatch, flags: list[str]) -> Ruleset:
    """The ruleset ``coach`` hands its game (the game is not built, no server started)."""
    def fake_game(*_args: Any, ruleset: Ruleset, **_kwargs: Any) -> None:
        raise _Captured(ruleset)

    monkeypatch.setattr("qwixx_math.commands.coach.CoachGame", fake_game)
    with pytest.raises(_Captured) as caught:
        main(["coach", "--no-browser", *flags])
    return caught.value.ruleset


def _ruleset_json(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                  tmp_path: Path, command: str, flags: list[str]) -> tuple[int, Any]:
    """The exit code and the JSON ruleset ``command`` used with ``flags`` on the official
    layout."""
    if command == "coach":
        return 0, _coach_ruleset(monkeypatch, flags).to_json()
    if command == "prob":
        argv = ["prob", "--sheet", "r:2/y:-/g:-/b:-/p:0", "--json"]
    elif command == "validate":
        path = tmp_path / "game.json"
        path.write_text(json.dumps(random_game(players=2, seed=7).to_json()))
        argv = ["validate", str(path), "--json", "--no-dialects"]
    elif command == "generate":
        argv = ["generate", "--games", "1", "--seed", "3", "--players", "2"]
    else:
        argv = ["arena", "greedy", "random", "--games", "2", "--json", "--quiet"]
    code, out, err = _run(capsys, argv + flags)
    if code == 2:
        return code, err
    data = json.loads(out.splitlines()[0] if command == "generate" else out)
    return code, data["ruleset"]


COMMANDS = ["prob", "validate", "generate", "arena", "coach"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("flags", "field", "value"), FLAGS,
                         ids=[f[0][0] for f in FLAGS])
def test_each_flag_reaches_the_ruleset(command: str, flags: list[str], field: str, value: Any,
                                       capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, ruleset = _ruleset_json(capsys, monkeypatch, tmp_path, command, flags)
    assert code in (0, 1), ruleset
    assert ruleset[field] == value
    others = {name: v for name, v in ruleset.items() if name != field}
    assert others == Ruleset(players=ruleset["players"]).to_json()


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("flags", DEFAULTS, ids=[" ".join(f) for f in DEFAULTS])
def test_a_default_value_is_accepted_and_changes_nothing(
        command: str, flags: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, ruleset = _ruleset_json(capsys, monkeypatch, tmp_path, command, flags)
    assert code in (0, 1), ruleset
    assert Ruleset.from_json(ruleset) == Ruleset(players=ruleset["players"])


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("flags", "rule"), REFUSED, ids=[r[1] for r in REFUSED])
def test_a_value_not_played_is_refused_with_its_rule(
        command: str, flags: list[str], rule: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("qwixx_math.commands.coach.CoachGame", None)  # never reached
    code, err = _ruleset_json(capsys, monkeypatch, tmp_path, command, flags) \
        if command != "coach" else (main(["coach", "--no-browser", *flags]),
                                    capsys.readouterr()[1])
    assert code == 2
    assert f"error: {rule}: " in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["solve", "value", "advise", "review", "policies",
                                     "simulate", "distribution"])
def test_the_solver_commands_take_no_option_their_solver_does_not_play(command: str) -> None:
    subparsers = next(a for a in build_parser()._actions if a.choices and command in a.choices)
    assert isinstance(subparsers.choices, dict)
    options = {s for a in subparsers.choices[command]._actions for s in a.option_strings}
    for flag in ("--da-same-turn", "--no-da-same-turn", "--bp-colour-trigger",
                 "--bp-lock-marks", "--bb-fewest-candidates", "--bb-diamond-order",
                 "--da-scope", "--cc-partner-moves-frontier", "--xc-in-action2"):
        assert flag not in options


def _write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_validate_a_big_points_record_legal_only_under_either_adjacent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A random game played under BP3 ``either_adjacent`` whose record is then stripped of
    the Option: a BP3 violation without the flag, valid with it."""
    played = Ruleset(players=2, bp_colour_trigger=BonusTrigger.EITHER_ADJACENT)
    record = next(iter(generate_records(1, 7, played, layout_named("big-points"))))
    data = record.to_json()
    assert data["ruleset"].pop("bp_colour_trigger") == "either_adjacent"
    path = _write(tmp_path, data)
    code, out, _ = _run(capsys, ["validate", path, "--json", "--no-dialects"])
    assert code == 1 and {v["rule"] for v in json.loads(out)["violations"]} == {"BP3"}
    code, out, _ = _run(capsys, ["validate", path, "--bp-colour-trigger", "either_adjacent"])
    assert code == 0, out


def test_validate_with_no_da_same_turn_finds_a_same_turn_double(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Random Double A games under the default DA4 (doubling the action-1 number allowed):
    one that doubles it is valid as recorded and a DA4 violation with --no-da-same-turn."""
    records = list(generate_records(3, 7, Ruleset(players=2), layout_named("double-a")))
    doubled = [r for r in records
               if not validate_record(r, replace(r.ruleset, da_same_turn=False),
                                      dialects=False).valid]
    assert doubled, "no game doubled its action-1 number"
    path = _write(tmp_path, doubled[0].to_json())
    code, out, _ = _run(capsys, ["validate", path, "--no-dialects"])
    assert code == 0, out
    code, out, _ = _run(capsys, ["validate", path, "--json", "--no-dialects",
                                 "--no-da-same-turn"])
    assert code == 1 and "DA4" in {v["rule"] for v in json.loads(out)["violations"]}


def test_generate_with_no_da_same_turn_plays_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Double A records generated with --no-da-same-turn carry the Option and are valid
    under it (the referee played it)."""
    code, out, _ = _run(capsys, ["generate", "--games", "3", "--seed", "7", "--players", "2",
                                 "--layout", "double-a", "--no-da-same-turn"])
    assert code == 0
    from qwixx_math.validation import parse_record_text
    for line in out.splitlines():
        record = parse_record_text(line, "<generated>")
        assert record.ruleset.da_same_turn is False
        assert validate_record(record, dialects=False).valid


def test_generate_with_bb_open_rows_records_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Bonus B records generated with --bb-fewest-candidates open_rows carry the Option,
    read back and are valid under it (the record reader used to refuse the field)."""
    from qwixx_math.ruleset import CircleCandidates
    from qwixx_math.validation import parse_record_text
    code, out, _ = _run(capsys, ["generate", "--games", "3", "--seed", "7", "--players", "2",
                                 "--layout", "bonus-b", "--bb-fewest-candidates", "open_rows"])
    assert code == 0
    for line in out.splitlines():
        record = parse_record_text(line, "<generated>")
        assert record.ruleset.bb_fewest_candidates is CircleCandidates.OPEN_ROWS
        assert validate_record(record, dialects=False).valid


def test_a_record_refuses_the_diamond_order_not_played() -> None:
    """A record's ruleset with bb_diamond_order = player_choice (BB3) is a clear error."""
    from qwixx_math.errors import ParseError
    from qwixx_math.validation import parse_record_text
    record = random_game(2, seed=1, layout=layout_named("bonus-b")).to_json()
    record["ruleset"]["bb_diamond_order"] = "player_choice"
    with pytest.raises(ParseError, match="BB3"):
        parse_record_text(json.dumps(record), "<edited>")


def test_prob_on_double_a_follows_da_same_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """``prob`` under --no-da-same-turn is the API's exact events under that Ruleset, and
    not the default's."""
    layout = layout_named("double-a")
    sheet = parse_sheet(DA_SHEET, layout)
    default = turn_events(sheet, frozenset(), Ruleset()).to_json()
    without = turn_events(sheet, frozenset(), Ruleset(da_same_turn=False)).to_json()
    assert default["active"] != without["active"]
    code, out, _ = _run(capsys, ["prob", "--layout", "double-a", "--sheet", DA_SHEET, "--json",
                                 "--no-da-same-turn"])
    assert code == 0 and json.loads(out) == json.loads(json.dumps(without))
    code, out, _ = _run(capsys, ["prob", "--layout", "double-a", "--sheet", DA_SHEET, "--json"])
    assert code == 0 and json.loads(out) == json.loads(json.dumps(default))


def test_prob_refuses_a_lock_threshold_the_big_points_layout_lacks(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, ["prob", "--layout", "big-points", "--sheet",
                                 "r:2/y:-/g:-/b:-/p:0", "--bp-lock-marks", "6"])
    assert code == 2 and "BP5" in err
