"""``qwixx-math arena``: output, exit codes, ruleset options, and a fuzz of the arguments."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(["arena", *argv, "--quiet"])
    except SystemExit as exc:  # argparse: an argument of the wrong type
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["greedy", "random", "greedy", "--games", "6", "--seed", "4",
                        "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 6 and data["deals"] == 2 and data["seed"] == 4
    assert data["players"] == ["greedy", "random", "greedy"]
    for key in ("win_rate", "ci95", "mean_score", "sd_score", "wins"):
        assert len(data[key]) == 3
    assert data["ruleset"]["players"] == 3
    # deterministic for a seed: the same command prints the same figures
    code, again, _ = run(["greedy", "random", "greedy", "--games", "6", "--seed", "4",
                          "--json"], capsys)
    again_data = json.loads(again)
    data.pop("seconds"), again_data.pop("seconds")
    assert again_data == data


def test_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["greedy", "random", "--games", "4"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "arena: 4 games (2 deals x 2 seats), seed 0, official rules for 2 players"
    assert lines[2].endswith("  greedy") and lines[3].endswith("  random")
    assert lines[-1] == "faults: none"


def test_ruleset_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["greedy", "greedy", "--games", "2", "--json", "--ruleset",
                        '{"action2_after_game_end": true}', "--end-check", "sequential"],
                       capsys)
    assert code == 0
    rs = json.loads(out)["ruleset"]
    assert rs["action2_after_game_end"] is True and rs["end_check"] == "sequential"
    code, out, _ = run(["greedy", "greedy", "--games", "2", "--no-simultaneous-close"], capsys)
    assert code == 0 and "simultaneous_close=false" in out.splitlines()[0]


@pytest.mark.parametrize(("argv", "message"), [
    (["greedy"], "2 to 5 players, not 1"),
    (["greedy"] * 6, "2 to 5 players, not 6"),
    (["greedy", "nobody"], "unknown player 'nobody'"),
    (["greedy", "greedy", "--games", "3"], "multiple of the 2 players"),
    (["greedy", "greedy", "--games", "0"], "--games must be between 1 and 100000"),
    (["greedy", "greedy", "--games", "100002"], "--games must be between 1 and 100000"),
    (["greedy", "greedy", "--games", "10000000"], "--games must be between 1 and 100000"),
    (["greedy", "greedy", "--games", " 2"], "ASCII digits"),
    (["greedy", "greedy", "--games", "2 "], "ASCII digits"),
    (["greedy", "greedy", "--games", "\u0662"], "ASCII digits"),  # an Arabic-Indic two
    (["greedy", "greedy", "--games", "1_0"], "ASCII digits"),
    (["greedy", "greedy", "--seed", "-1"], "--seed"),
    (["greedy", "greedy", "--seed", " 1"], "ASCII digits"),
    (["greedy", "greedy", "--seed", str(2**63)], "--seed"),
    (["greedy", "greedy", "--timeout", "0"], "--timeout"),
    (["greedy", "greedy", "--timeout", "inf"], "--timeout"),
    (["greedy", "greedy", "--timeout", " 1"], "decimal number in ASCII"),
    (["greedy", "greedy", "--timeout", "\u0661"], "decimal number in ASCII"),
    (["greedy", "greedy", "--timeout", "3601"], "--timeout"),
    (["greedy", "greedy", "--ruleset", "{"], "--ruleset is not JSON"),
    (["greedy", "greedy", "--ruleset", "[" * 1000], "--ruleset is not JSON: nested too deeply"),
    (["greedy", "greedy", "--ruleset", '{"a": ' * 100_000], "nested too deeply"),
    (["greedy", "greedy", "--ruleset", '{"players": 3}'], "R3"),
    (["greedy", "greedy", "--ruleset", '{"colour": 1}'], "unknown ruleset field"),
    (["greedy", "greedy", "--ruleset", "[]"], "ruleset must be a JSON object"),
    (["greedy", "exec:"], "empty"),
])
def test_bad_input_exits_2(argv: list[str], message: str,
                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()[-1]) > 0  # argparse prints its usage first


def test_faults_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    """A match with faults prints its report, lists the faults and exits with 1."""
    import shlex
    import sys

    bot = "exec:" + shlex.join([sys.executable, "-c", "import sys; sys.stdin.readline()"])
    code, out, err = run(["greedy", bot, "--games", "2"], capsys)
    assert code == 1 and "Traceback" not in err
    assert "faults: 1" in out and "protocol:exit" in out


def test_largest_counts_are_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    """The limits themselves are allowed: the largest seed, a whole-second timeout."""
    code, out, _ = run(["greedy", "greedy", "--games", "2", "--seed", str(2**63 - 1),
                        "--timeout", "3600", "--json"], capsys)
    assert code == 0 and json.loads(out)["seed"] == 2**63 - 1


# the --ruleset texts: JSON of any shape, nested deeply or not, and some near misses
JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.sampled_from(
    ["official", "sequential", "end_of_turn", "immediate"])
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["players", "action2_after_game_end", "die_removal", "end_check",
                     "simultaneous_close", "x"]), inner, max_size=3), max_leaves=8)
NESTED = st.builds(lambda o, d, c: o * d + c, st.sampled_from(["[", '{"a":', '[{"b":']),
                   st.integers(1, 5000), st.sampled_from(["", "]", "1", "}"]))
RULESET_TEXTS = JSON_VALUES.map(json.dumps) | NESTED | st.text(max_size=20)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=RULESET_TEXTS)
def test_fuzz_ruleset(text: str) -> None:
    """Any --ruleset text: a 2-game match (exit 0) or exit 2 with one line; never a
    traceback (a RecursionError was one, issue 32)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(["arena", "greedy", "greedy", "--games", "2", "--quiet", "--json",
                         f"--ruleset={text}"])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().count("\n") == 1 and "error" in err.getvalue()


NAMES = st.sampled_from(["greedy", "random", "nobody", "exec:", "exec:'", "table", ""])
NUMBERS = st.integers(-3, 12).map(str) | st.sampled_from(
    ["x", "1e3", "", "99999999999", "-0", "nan", "inf", "0.5", "2**63", " 2", "2 ", "\u0662",
     "\u0664", "+4", "1_0", "100002", "\uff14"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.lists(NAMES, min_size=0, max_size=7), games=st.none() | NUMBERS,
       seed=st.none() | NUMBERS, timeout=st.none() | NUMBERS, as_json=st.booleans())
def test_fuzz_arguments(players: list[str], games: str | None, seed: str | None,
                        timeout: str | None, as_json: bool) -> None:
    """Any arguments: exit 0 with a report, or exit 2 with a message; never a traceback."""
    argv = ["arena", *players, "--quiet"]
    for flag, value in (("--games", games), ("--seed", seed), ("--timeout", timeout)):
        if value is not None:
            argv.append(f"{flag}={value}")
    if as_json:
        argv.append("--json")
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: unparsable numbers, no players
        code = exc.code if isinstance(exc.code, int) else 2
    assert code in (0, 2)  # built-in players make no faults
