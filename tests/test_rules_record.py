"""Game records, replay and the seeded random game generator (R3, R12, R13, R14)."""

from __future__ import annotations

import dataclasses

import pytest

from qwixx_math.errors import IllegalMoveError, ParseError
from qwixx_math.notation import parse_mark, parse_roll
from qwixx_math.record import (
    RECORD_FORMAT,
    RECORD_VERSION,
    GameRecord,
    TurnRecord,
    random_game,
    replay,
)
from qwixx_math.rules import Phase
from qwixx_math.ruleset import Ruleset


def test_random_game_is_seeded_and_complete() -> None:
    """The same seed gives the same game; the game is complete (R13/R14) and its result is
    the final state's."""
    a, b = random_game(seed=11), random_game(seed=11)
    assert a == b and a.to_json() == b.to_json()
    assert random_game(seed=12) != a
    assert a.ruleset == Ruleset(4) and a.players == ("P1", "P2", "P3", "P4")
    states = replay(a)
    assert len(states) == len(a.turns) + 1
    final = states[-1]
    assert final.phase is Phase.OVER and a.result is not None
    assert (a.result.scores, a.result.winners, a.result.ended_by) == (
        final.scores, final.winners, final.ended_by)


def test_random_game_turns_follow_r12() -> None:
    """Turn k is played by player (first + k) mod n (R12)."""
    record = random_game(players=3, seed=4)
    assert [t.active for t in record.turns] == [k % 3 for k in range(len(record.turns))]


def test_random_game_arguments() -> None:
    """names must match the player count; players must agree with the ruleset."""
    assert random_game(players=2, seed=1, names=["Kari", "Ola"]).players == ("Kari", "Ola")
    with pytest.raises(ParseError, match="2 names given for 3 players"):
        random_game(players=3, seed=1, names=["Kari", "Ola"])
    with pytest.raises(ParseError, match="contradicts"):
        random_game(players=3, ruleset=Ruleset(2))


def kari_record() -> GameRecord:
    """The Kari/Ola/Mia turn of RULES.md as the first turn of a record (Mia starts with
    nothing, so she may also pass)."""
    turn = TurnRecord(0, parse_roll("w:4,1/r:3/y:6/g:5/b:6"),
                      (parse_mark("y5"), parse_mark("r5"), None), parse_mark("b10"))
    return GameRecord(("Kari", "Ola", "Mia"), Ruleset(3), (turn,))


def test_record_json_round_trip_and_form() -> None:
    """The documented JSON form: format, version, players, ruleset, first, turns."""
    record = kari_record()
    data = record.to_json()
    assert data["format"] == RECORD_FORMAT and data["version"] == RECORD_VERSION
    assert data["turns"][0] == {
        "active": 0, "roll": {"white": [4, 1], "red": 3, "yellow": 6, "green": 5, "blue": 6},
        "action1": [{"colour": "yellow", "number": 5}, {"colour": "red", "number": 5}, None],
        "action2": {"colour": "blue", "number": 10}}
    assert GameRecord.from_json(data) == record
    states = replay(record)
    assert [str(s) for s in states[-1].sheets] == [
        "r:-/y:5/g:-/b:10/p:0", "r:5/y:-/g:-/b:-/p:0", "r:-/y:-/g:-/b:-/p:0"]


@pytest.mark.parametrize(("change", "message"), [
    ({"format": "other"}, "not a game record"),
    ({"version": 2}, "unsupported game record version"),
    ({"players": []}, "non-empty list of names"),
    ({"players": ["a"] * 6}, "3 but 6 players are named"),
    ({"players": ["a"] * 6, "ruleset": {}}, "R3: players must be between 1 and 5"),
    ({"turns": {}}, "record.turns must be a list"),
    ({"first": "0"}, "record.first must be a whole number"),
])
def test_record_from_json_rejects_bad_shapes(change: dict[str, object], message: str) -> None:
    """A malformed record is a ParseError saying which field."""
    data = {**kari_record().to_json(), **change}
    with pytest.raises(ParseError, match=message):
        GameRecord.from_json(data)


def test_replay_rejects_the_wrong_player_and_turns_after_the_end() -> None:
    """replay stops at the first broken rule: a turn by the wrong player (R12), a turn after
    the game ended (R13/R14), an illegal mark (with its rule)."""
    record = kari_record()
    wrong = dataclasses.replace(record, turns=(dataclasses.replace(record.turns[0], active=1),))
    with pytest.raises(IllegalMoveError, match="R12: turn 1 is player 1's"):
        replay(wrong)
    finished = random_game(players=2, seed=3)
    extra = dataclasses.replace(finished, turns=(*finished.turns, finished.turns[-1]))
    with pytest.raises(IllegalMoveError, match=r"R1[34]: turn \d+ is played after the game"):
        replay(extra)
    bad_mark = dataclasses.replace(record, turns=(dataclasses.replace(
        record.turns[0], action2=parse_mark("b11")),))
    with pytest.raises(IllegalMoveError) as err:
        replay(bad_mark)
    assert err.value.rule == "R6"
