"""R1 (dice), R2 (sheet), R3 (players): the components of the game."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import sheets

from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet
from qwixx_math.notation import parse_roll, parse_sheet
from qwixx_math.rules import GameState, new_game, random_roll
from qwixx_math.ruleset import Ruleset

RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


# -- R1 dice ----------------------------------------------------------------------------------


def test_r01_six_dice_two_white_and_one_per_colour() -> None:
    """R1: a full roll has two white dice and one die of each of the four colours."""
    roll = Roll.of(1, 2, red=3, yellow=4, green=5, blue=6)
    assert len(roll.white) == 2
    assert roll.in_play == frozenset(COLOURS)
    assert [roll.die(c) for c in COLOURS] == [3, 4, 5, 6]


@pytest.mark.parametrize("bad", [0, 7, -1, 13])
def test_r01_a_die_shows_one_to_six(bad: int) -> None:
    """R1: a face outside 1..6 is rejected with the rule id, in values and in text."""
    with pytest.raises(ParseError, match="R1: a die shows 1 to 6"):
        Roll.of(bad, 3, red=1, yellow=1, green=1, blue=1)
    with pytest.raises(ParseError, match="R1: a die shows 1 to 6"):
        Roll.of(3, 3, red=bad, yellow=1, green=1, blue=1)
    with pytest.raises(ParseError, match="R1" if bad >= 0 else "expected a white die"):
        parse_roll(f"w:3,{bad}/r:1/y:1/g:1/b:1")


def test_r01_random_roll_is_uniform_over_faces_and_rolls_only_dice_in_play() -> None:
    """R1, R4: random_roll gives faces 1..6 with roughly equal frequency and only the dice
    in play (a seeded count, so deterministic)."""
    rng = random.Random(5)
    faces: Counter[int] = Counter()
    for _ in range(6000):
        roll = random_roll(rng, frozenset({RED, BLUE}))
        assert roll.in_play == {RED, BLUE}
        faces.update((*roll.white, roll.die(RED) or 0, roll.die(BLUE) or 0))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(3600 <= n <= 4400 for n in faces.values())  # 4000 expected per face
    assert random_roll(random.Random(1)).in_play == frozenset(COLOURS)


# -- R2 sheet -------------------------------------------------------------------------------


def test_r02_row_orientation() -> None:
    """R2: red and yellow read 2..12 left to right, green and blue 12..2."""
    for c in (RED, YELLOW):
        assert [c.number(p) for p in range(11)] == list(range(2, 13))
        assert c.ascending and c.last_number == 12
    for c in (GREEN, BLUE):
        assert [c.number(p) for p in range(11)] == list(range(12, 1, -1))
        assert not c.ascending and c.last_number == 2
    for c in COLOURS:
        assert [c.position(c.number(p)) for p in range(11)] == list(range(11))


@pytest.mark.parametrize("number", [0, 1, 13, 17, -1, -2, -11])
def test_r02_numbers_run_from_2_to_12(number: int) -> None:
    """R2: a row holds 2..12 only (negative numbers once indexed the position table from the
    end, so ``with_mark(RED, -1)`` marked red 12)."""
    # a bare Mark may show 13..16, Longo's numbers (LG1); every official sheet refuses them
    if not 13 <= number <= 16:
        with pytest.raises(ParseError, match="R2"):
            Mark(RED, number)
    full = parse_sheet("r:2,3,4,5,6/g:12,11,10,9,8")
    for c in COLOURS:
        with pytest.raises(ParseError, match="R2"):
            c.position(number)
        with pytest.raises(ParseError, match="R2"):
            full.allows(c, number)
        with pytest.raises(ParseError, match="R2"):
            full.with_mark(c, number)


def test_r02_sheet_has_four_rows_lock_boxes_and_four_penalty_boxes() -> None:
    """R2: four rows in the order red, yellow, green, blue, a lock box per row (marked with
    the last number) and four penalty boxes."""
    sheet = parse_sheet("r:2,3,4,5,6,12,lock/p:4")
    assert sheet.is_locked(RED) and sheet.locked == {RED}
    assert sheet.count(RED) == 7  # six numbers and the lock
    assert [c.value for c in COLOURS] == ["red", "yellow", "green", "blue"]
    with pytest.raises(InvalidStateError, match="R2: a sheet has 4 penalty boxes"):
        Sheet(penalties=5)
    with pytest.raises(IllegalMoveError, match="R13"):
        sheet.with_penalty()


@given(sheets())
def test_r02_generated_sheets_are_valid_and_counted(sheet: Sheet) -> None:
    """R2, R16: a sheet's count per row is its numbers plus one for a lock."""
    for c in COLOURS:
        assert sheet.count(c) == len(sheet.marks(c)) + (1 if sheet.is_locked(c) else 0)
        assert sheet.last_number(c) == (sheet.marks(c)[-1] if sheet.marks(c) else None)


# -- R3 players -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_r03_one_to_five_players(players: int) -> None:
    """R3: the library supports 1 (solitaire) to 5 players."""
    game = new_game(players)
    assert game.players == players and game.sheets == (Sheet.EMPTY,) * players
    assert game.active == 0


@pytest.mark.parametrize("players", [0, 6, -1])
def test_r03_other_player_counts_are_rejected(players: int) -> None:
    """R3: Option players is 1..5."""
    with pytest.raises(ParseError, match="R3"):
        Ruleset(players=players)
    with pytest.raises(ParseError, match="R3"):
        new_game(players)


def test_r03_sheets_must_match_the_player_count() -> None:
    """R3: a state has one sheet per player of its ruleset."""
    with pytest.raises(InvalidStateError, match="R3"):
        GameState(Ruleset(3), (Sheet.EMPTY,) * 2)


@given(st.lists(st.integers(1, 6), min_size=6, max_size=6))
def test_r03_solitaire_player_is_active_every_turn(dice: list[int]) -> None:
    """R3: in solitaire the single player is the active player on every turn."""
    game = new_game(1)
    roll = Roll((dice[0], dice[1]), (dice[2], dice[3], dice[4], dice[5]))
    after = game.play_turn(roll, [None])
    assert after.active == 0 and after.sheets[0].penalties == 1
