"""External players (``exec:COMMAND``): the example bot, and every protocol violation
reported with its rule id, game, turn and seat -- never a traceback or a hang."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.arena import ExternalPlayer, MatchResult, open_players, play_match, report
from qwixx_math.arena.external import parse_reply
from qwixx_math.arena.faults import EXIT, LATE, MALFORMED, PlayerFault
from qwixx_math.cli import main
from qwixx_math.errors import ParseError, QwixxError
from qwixx_math.model import Mark
from qwixx_math.notation import mark_to_json
from qwixx_math.rules import GameState
from qwixx_math.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "arena_bot.py"


def exec_name(*argv: str | Path) -> str:
    return "exec:" + shlex.join([sys.executable, *map(str, argv)])


def bot_script(tmp_path: Path, name: str, body: str) -> str:
    """``exec:`` of a Python script that answers every action request with
    ``reply(message, count)`` (count: requests answered so far)."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        "import json, sys, time\n"
        f"{body}\n"
        "count = 0\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] in ('action1', 'action2'):\n"
        "        sys.stdout.write(reply(message, count) + '\\n')\n"
        "        sys.stdout.flush()\n"
        "        count += 1\n", encoding="utf-8")
    return exec_name(path)


def match(names: list[str], games: int = 2, seed: int = 1, timeout: float = 10.0
          ) -> MatchResult:
    n = len(names)
    with open_players(names, Ruleset(n), seed, timeout) as players:
        return play_match(players, games, seed, names=names)


def test_example_bot_plays_a_clean_match() -> None:
    """The example bot finds only legal marks: a match against greedy has no faults, and
    it is deterministic."""
    names = ["greedy", exec_name(BOT)]
    a = match(names, 6, 3)
    assert a.faults == ()
    assert a == match(names, 6, 3)
    assert report(a).to_json()["players"] == names


def test_example_bot_three_players_with_dialects() -> None:
    names = [exec_name(BOT), "random", exec_name(BOT)]
    ruleset = Ruleset(3, True)
    with open_players(names, ruleset, 2) as players:
        result = play_match(players, 6, 2, ruleset, names=names)
    assert result.faults == ()


def test_malformed_replies(tmp_path: Path) -> None:
    """Not JSON, not an object with exactly "mark", not a mark: protocol:malformed with the
    game, turn and seat; the seat passes and the match goes on."""
    replies = ['hello', '[1, 2]', '{"mark": "r8", "extra": 1}', '{"mark": "purple 3"}',
               '{"mark": 8}', '{}']
    name = bot_script(tmp_path, "garbage",
                      f"REPLIES = {replies!r}\n"
                      "def reply(message, count):\n"
                      "    return REPLIES[count % len(REPLIES)]\n")
    result = match(["greedy", name], 2)
    assert result.faults
    assert {f.rule for f in result.faults} == {MALFORMED}
    for f in result.faults:
        game = result.games[f.game - 1]
        assert f.player == 1 and game.seats[f.seat] == 1 and 1 <= f.turn <= game.turns
        assert f.message.startswith(MALFORMED)
    for r in replies:
        assert any(f"the reply {r!r}" in f.message for f in result.faults), r


def test_illegal_marks_name_the_rule(tmp_path: Path) -> None:
    """A bot that always answers red 2: the rules core refuses it with R5 (not the white
    sum) or R7 (already marked); in action 2 with R6 (not white + red) or R7."""
    name = bot_script(tmp_path, "red2", "def reply(message, count):\n"
                                        "    return json.dumps({'mark': 'r2'})\n")
    result = match([name, "random"], 4)
    assert result.faults
    rules = {(f.request, f.rule) for f in result.faults}
    assert ("action1", "R5") in rules
    assert rules <= {("action1", "R5"), ("action1", "R7"), ("action2", "R6"),
                     ("action2", "R7"), ("action2", "R9")}
    for f in result.faults:
        assert f.player == 0 and f.message.startswith(f.rule + ": ")
        if f.rule == "R5":
            assert "action 1 marks the white sum" in f.message


def test_a_late_reply_is_skipped_and_play_goes_on(tmp_path: Path) -> None:
    """A bot late once (its first reply, by 0.5 s): one protocol:late; the late reply is
    skipped when it comes, so the bot's later (legal) answers stay in step: no other fault
    (the second request's limit, counted from that request, is not reached)."""
    name = bot_script(
        tmp_path, "slow_once",
        f"sys.path.insert(0, {str(BOT.parent)!r})\n"
        "import arena_bot\n"
        "def reply(message, count):\n"
        "    if count == 0:\n"
        "        time.sleep(1.5)\n"
        "    mark = arena_bot.choose(message['type'], message['seat'], message['state'])\n"
        "    return json.dumps({'mark': mark})\n")
    result = match(["greedy", name], 2, timeout=1.0)
    assert [f.rule for f in result.faults] == [LATE]
    late = result.faults[0]
    assert late.game == 1 and late.turn == 1 and late.request == "action1"
    assert "within 1 s" in late.message


def test_a_sleeping_bot_is_stopped(tmp_path: Path) -> None:
    """A bot that never answers in time: three protocol:late faults, then it is stopped and
    its seat passes for the rest of the match (no hang, no more faults)."""
    name = bot_script(tmp_path, "sleeper", "def reply(message, count):\n"
                                           "    time.sleep(30)\n"
                                           "    return '{\"mark\": null}'\n")
    result = match([name, "greedy"], 2, timeout=0.2)
    assert [f.rule for f in result.faults] == [LATE] * 3
    assert "stopped after 3 late replies" in result.faults[-1].message
    assert all(g.final.is_over for g in result.games)


def test_a_bot_that_exits(tmp_path: Path) -> None:
    """A program that exits after its first message: one protocol:exit with its exit code;
    its seat then passes (penalties end the games) without more faults."""
    name = exec_name("-c", "import sys; sys.stdin.readline(); sys.exit(3)")
    result = match(["greedy", name], 4)
    assert [f.rule for f in result.faults] == [EXIT]
    f = result.faults[0]
    assert f.player == 1 and f.game == 1 and f.turn == 1
    assert "exited with code 3" in f.message
    assert all(g.ended_by == "R13" for g in result.games[1:])


def test_a_bot_that_does_not_read(tmp_path: Path) -> None:
    """A program that answers without reading its input: its input pipe fills up; the
    arena does not block on it (protocol:late, then the program is stopped)."""
    name = exec_name("-c", "import sys, time\n"
                           "while True:\n"
                           "    sys.stdout.write('{\"mark\": null}\\n'); sys.stdout.flush()\n"
                           "    time.sleep(0.001)\n")
    result = match([name, "greedy"], 12, timeout=0.5)
    assert all(g.final.is_over for g in result.games)
    assert [f.rule for f in result.faults] == [LATE]
    assert "did not read its input for 0.5 s" in result.faults[0].message


def test_cannot_start() -> None:
    with pytest.raises(QwixxError, match="cannot start 'no-such-program-here'"):
        ExternalPlayer("no-such-program-here")
    with pytest.raises(ParseError, match="empty"):
        ExternalPlayer("  ")
    with pytest.raises(ParseError, match="cannot read the command"):
        ExternalPlayer("'unbalanced")
    with pytest.raises(ParseError, match="time limit"):
        ExternalPlayer("true", timeout=0)


def test_cli_cannot_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "exec:no-such-program-here", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "cannot start 'no-such-program-here'" in err and "Traceback" not in err


def test_messages_follow_the_protocol(tmp_path: Path) -> None:
    """The program receives exactly the documented messages: new_game, action1 (every seat,
    the same ACTION1 state), action2 (active seat only), game_over; STATE is
    GameState.to_json() of a state the rules core accepts."""
    log = tmp_path / "log.jsonl"
    name = bot_script(tmp_path, "logger",
                      f"LOG = open({str(log)!r}, 'w')\n"
                      "_real = json.loads\n"
                      "def reply(message, count):\n"
                      "    return '{\"mark\": null}'\n"
                      "def _logging_loads(line):\n"
                      "    LOG.write(line if line.endswith('\\n') else line + '\\n')\n"
                      "    LOG.flush()\n"
                      "    return _real(line)\n"
                      "json.loads = _logging_loads\n")
    result = match([name, "greedy"], 2)
    messages = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds.count("new_game") == kinds.count("game_over") == 2
    assert set(kinds) == {"new_game", "action1", "action2", "game_over"}
    for m in messages:
        # new_game also names the sheet layout (a field bots of before ignore)
        assert set(m) == {"type", "seat", "state"} | ({"layout"} if m["type"] == "new_game"
                                                      else set())
        state = GameState.from_json(m["state"])
        assert state.to_json() == m["state"]
        assert state.phase.value == {"new_game": "roll", "action1": "action1",
                                     "action2": "action2", "game_over": "over"}[m["type"]]
        if m["type"] == "action2":
            assert m["seat"] == state.active
    assert kinds.count("action1") == sum(g.turns for g in result.games)
    assert result.faults == ()  # passing is always legal


def test_a_deeply_nested_reply_is_malformed(tmp_path: Path) -> None:
    """A reply nested too deeply for the JSON reader is protocol:malformed, not a crash
    (it was recorded as protocol:crash: RecursionError, issue 32); the match goes on."""
    name = bot_script(tmp_path, "nested", "def reply(message, count):\n"
                                          "    d = 5000 if count % 2 else 500\n"
                                          "    return '{\"mark\": ' + '[' * d + ']' * d + '}'\n")
    result = match(["greedy", name], 2)
    assert result.faults and {f.rule for f in result.faults} == {MALFORMED}
    messages = [f.message for f in result.faults]
    assert any("nested too deeply" in m for m in messages)
    assert any("has no mark" in m for m in messages)  # depth 500: read, but not a mark


REPLY_LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6) | \
    st.sampled_from(["r8", "y2", "g12", "b2", "r13", "purple 3", "R8", " r8", "red", ""])
REPLY_VALUES = st.recursive(
    REPLY_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["mark", "colour", "number", "x"]), inner, max_size=3), max_leaves=10)
REPLY_LINES = (REPLY_VALUES.map(lambda v: json.dumps({"mark": v}))
               | REPLY_VALUES.map(json.dumps)
               | st.builds(lambda head, d, tail: head + "[" * d + tail,
                           st.sampled_from(["", '{"mark": ', '{"mark": {"colour": ']),
                           st.integers(0, 200_000), st.sampled_from(["", "]", "}", "1"]))
               | st.text(max_size=40))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=REPLY_LINES)
def test_fuzz_parse_reply(line: str) -> None:
    """Any reply line: a mark (or None) that reads back from its own text, or a
    PlayerFault protocol:malformed naming the reply; never another exception."""
    try:
        mark = parse_reply(line)
    except PlayerFault as exc:
        assert exc.rule == MALFORMED and str(exc).startswith(MALFORMED + ": the reply ")
        return
    assert mark is None or isinstance(mark, Mark)
    assert parse_reply(json.dumps({"mark": mark_to_json(mark)})) == mark
