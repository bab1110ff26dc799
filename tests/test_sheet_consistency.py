"""Typed sheets that no game can reach are refused (issue 34; the error contract): on the
pads with forced or paired crosses a sheet typed in text or JSON must hold the crosses
its other crosses force, as far as the sheet alone settles them (Bonus A BA2, Bonus B
BB3, the Chain CC7, Big Points BP1), and no sheet a game reaches is refused."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_pads_cli import run

from qwixx_math.errors import InvalidStateError
from qwixx_math.layouts import LAYOUTS
from qwixx_math.notation import format_sheet, parse_sheet, sheet_from_json, sheet_to_json
from qwixx_math.record import random_game, replay
from qwixx_math.ruleset import Ruleset

#: Games per pad and players: 18 pads x 2 table sizes x 8 games = 288 seeded games.
GAMES = 8


def round_trip_every_sheet(layout: str, players: int, seed: int) -> int:
    """Play a seeded random game on ``layout`` and read every sheet of every state back
    from its text and its JSON; the number of sheets read."""
    record = random_game(seed=seed, ruleset=Ruleset(players=players), layout=layout)
    read = 0
    for state in replay(record):
        for sheet in state.sheets:
            assert parse_sheet(format_sheet(sheet)) == sheet, (layout, seed, str(sheet))
            data = json.loads(json.dumps(sheet_to_json(sheet)))
            assert sheet_from_json(data) == sheet, (layout, seed, str(sheet))
            read += 1
    return read


@pytest.mark.parametrize("players", [1, 3])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_no_sheet_a_game_reaches_is_refused(layout: str, players: int) -> None:
    """Random legal games of every pad, alone and at a table of 3 (other players close
    rows, BA6): every sheet after every turn parses back from its notation and its JSON,
    the consistency checks included."""
    rng = random.Random(f"{layout}/{players}")
    read = sum(round_trip_every_sheet(layout, players, rng.getrandbits(32))
               for _ in range(GAMES))
    assert read > GAMES * players * 5  # the games were played, not empty


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["bonus-a", "bonus-b", "connected-chain", "big-points"]),
       st.integers(1, 4), st.integers(0, 2**32))
def test_random_games_on_the_forced_cross_pads_give_sheets_the_checks_accept(
        layout: str, players: int, seed: int) -> None:
    """The property behind the checks (each states a necessary condition): whatever the
    seed and table size, no sheet a game reaches is refused."""
    assert round_trip_every_sheet(layout, players, seed) > 0


#: Sheets no game reaches: text, the rule, a word of the message (the cell), and the
#: nearest sheet a game does reach (the forced cross added), which is accepted.
UNREACHABLE = [
    # the audit's sheet: boxed red 3 took field 0 (red), so red 4 was forced (BA1, BA2)
    ("bonus-a|r:3/p:0/bar:x-----------", "BA2", "red 4", "bonus-a|r:3,4/p:0/bar:x-----------"),
    # red 3 is the only boxed cross, so it took field 0 (red) and forced red 4, right
    # after it: red 2 before it cannot be that cross
    ("bonus-a|r:2,3/p:0/bar:x-----------", "BA2", "red 4", "bonus-a|r:2,3,4/p:0/bar:x-----------"),
    # boxed yellow 5 took field 0 (red); red is empty, so red 2 was forced
    ("bonus-a|y:2,3,4,5/bar:x-----------", "BA2", "red 2",
     "bonus-a|r:2/y:2,3,4,5/bar:x-----------"),
    # boxed red 3 and yellow 5 took fields 0 (red) and 1 (yellow): red 4 is there, but
    # no yellow cross stands right after another (yellow 3 skipped yellow 2)
    ("bonus-a|r:3,4/y:3,5/bar:xx----------", "BA2", "yellow 6",
     "bonus-a|r:3,4/y:3,5,6/bar:xx----------"),
    # the diamond (Y7, B7) is complete: the cross that completed it forced Y8 or B6 (BB3)
    ("bonus-b|y:7/b:7", "BB3", "yellow 8 or blue 6", "bonus-b|y:7/b:7,6"),
    ("bonus-b|r:2/y:2,7,9/b:12,7", "BB3", "yellow 8 or blue 6", "bonus-b|r:2/y:2,7,8,9/b:12,7"),
    # a chain cell without its partner (CC1, CC7)
    ("connected-chain|r:6", "CC7", "yellow 6", "connected-chain|r:6/y:6"),
    ("connected-chain|g:9,4/b:4", "CC7", "blue 9", "connected-chain|g:9,4/b:9,4"),
    # a bonus cell with neither colour cell beside it crossed (BP1)
    ("big-points|r:2/ry:3", "BP1", "RY 3", "big-points|r:2,3/ry:3"),
]


@pytest.mark.parametrize(("text", "rule", "cell", "fixed"), UNREACHABLE)
def test_an_unreachable_sheet_is_refused_with_its_rule_and_cell(
        text: str, rule: str, cell: str, fixed: str) -> None:
    with pytest.raises(InvalidStateError, match=rule) as info:
        parse_sheet(text)
    assert info.value.rule == rule and cell in str(info.value)
    near = parse_sheet(fixed)  # the forced cross added: a sheet a game reaches
    data = sheet_to_json(near)
    assert sheet_from_json(data) == near
    # the JSON form of the unreachable sheet (the reachable one's, less the forced
    # cross): the same refusal
    bad = {**data, **{colour: [n for n in data[colour] if n in _numbers(text, colour)]
                      for colour in ("red", "yellow", "green", "blue")}}
    assert bad != data
    with pytest.raises(InvalidStateError, match=rule):
        sheet_from_json(bad)


def _numbers(text: str, colour: str) -> set[int]:
    """The numbers ``text`` lists for ``colour``'s row (its first letter)."""
    body = text.split("|", 1)[1]
    for part in body.split("/"):
        key, _, numbers = part.partition(":")
        if key == colour[0]:
            return {int(n) for n in numbers.split(",") if n.isdigit()}
    return set()


@pytest.mark.parametrize(("text", "rule", "cell", "fixed"), UNREACHABLE[::2])
@pytest.mark.parametrize("command", ["show", "value"])
def test_the_cli_refuses_an_unreachable_sheet_with_exit_code_2(
        command: str, text: str, rule: str, cell: str, fixed: str) -> None:
    code, out, err = run(command, "--sheet", text)
    assert code == 2 and "Traceback" not in err + out
    assert f"{rule}:" in err and cell in err
    if command == "show":  # the reachable neighbour is drawn
        code, out, err = run("show", "--sheet", fixed)
        assert code == 0 and out, err
