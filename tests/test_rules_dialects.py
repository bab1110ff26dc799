"""The Ruleset switches: each shown on a position where the official rule and the switched
rule differ (R9 die_removal, R13/R14 end_check, R10 simultaneous_close, R15
action2_after_game_end), plus the Ruleset value itself."""

from __future__ import annotations

import pytest
from strategies import SWITCHES, all_rulesets

from qwixx_math.errors import IllegalMoveError, ParseError
from qwixx_math.model import Colour, Mark
from qwixx_math.notation import format_sheet, parse_mark, parse_roll, parse_sheet
from qwixx_math.record import random_game, replay
from qwixx_math.rules import GameState, Phase, legal_action2, legal_plans
from qwixx_math.ruleset import DieRemoval, EndCheck, Ruleset

RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def state(ruleset: Ruleset, *sheets: str, closed: str = "", active: int = 0) -> GameState:
    shut = frozenset(c for c in Colour if c.letter in closed)
    return GameState(ruleset, tuple(parse_sheet(s) for s in sheets), active=active, closed=shut)


def marks(text: str) -> list[Mark | None]:
    return [None if t == "-" else parse_mark(t) for t in text.split(",")]


# -- die_removal (R9) -----------------------------------------------------------------------------

DIE_SHEETS = ("r:2,3,4/y:5", "r:2,3,4,5,6")
DIE_ROLL = parse_roll("w:6,6/r:1/y:1/g:1/b:1")  # player 1 closes red; white + red = red 7


def test_die_removal_immediate_is_official() -> None:
    """R9 (official, die_removal=immediate): the red die leaves play as red closes in action 1;
    the active player cannot mark red 7 with it in action 2."""
    game = state(Ruleset(2), *DIE_SHEETS)
    with pytest.raises(IllegalMoveError, match="R9: red was closed in action 1"):
        game.play_turn(DIE_ROLL, marks("-,r12"), Mark(RED, 7))
    assert Mark(RED, 7) not in {p.action2 for p in legal_plans(game, DIE_ROLL, marks("-,r12"))}


def test_die_removal_end_of_turn_keeps_the_die_for_action2() -> None:
    """Switch die_removal=end_of_turn: the die of a colour closed in action 1 stays for the
    active player's action 2 of that turn, even in the row that was just closed."""
    rs = Ruleset(2, die_removal=DieRemoval.END_OF_TURN)
    game = state(rs, *DIE_SHEETS)
    after1 = game.with_roll(DIE_ROLL).with_action1(marks("-,r12"))
    assert Mark(RED, 7) in legal_action2(after1)
    after = after1.with_action2(Mark(RED, 7))
    assert format_sheet(after.sheets[0]) == "r:2,3,4,7/y:5/g:-/b:-/p:0"
    assert after.closed == {RED} and after.dice_in_play == {YELLOW, GREEN, BLUE}


def test_die_removal_end_of_turn_lets_the_active_player_close_too() -> None:
    """Switch die_removal=end_of_turn: with 5 red marks, the active player may close red in
    action 2 after another player closed it in action 1 (both get the lock)."""
    rs = Ruleset(2, die_removal=DieRemoval.END_OF_TURN)
    game = state(rs, "r:2,3,4,5,6/y:11", "r:2,3,4,5,6")
    after = game.play_turn(parse_roll("w:6,6/r:6/y:1/g:1/b:1"), marks("-,r12"), Mark(RED, 12))
    assert after.sheets[0].is_locked(RED) and after.sheets[1].is_locked(RED)
    official = state(Ruleset(2), "r:2,3,4,5,6/y:11", "r:2,3,4,5,6")
    with pytest.raises(IllegalMoveError, match="R9"):
        official.play_turn(parse_roll("w:6,6/r:6/y:1/g:1/b:1"), marks("-,r12"), Mark(RED, 12))


# -- end_check (R13, R14) -------------------------------------------------------------------------

TRIPLE = ("r:2/y:2/g:12,11,10,9,8,2,lock", "r:2,3,4,5,6", "y:2,3,4,5,6,7")
TRIPLE_ROLL = parse_roll("w:6,6/r:1/y:1/b:1")


def test_end_check_after_actions_is_official() -> None:
    """R14 (official, end_check=after_actions): both action-1 closes stand (three colours
    closed) and the game ends before action 2."""
    after = state(Ruleset(3), *TRIPLE, closed="g").play_turn(TRIPLE_ROLL, marks("-,r12,y12"))
    assert after.closed == {RED, YELLOW, GREEN} and after.ended_by == "R14"


@pytest.mark.parametrize(("active", "winner", "refused"), [(0, 1, 2), (2, 2, 1)])
def test_end_check_sequential_stops_at_the_second_close(active: int, winner: int,
                                                        refused: int) -> None:
    """Switch end_check=sequential: action-1 marks are checked in turn order from the active
    player; after the mark that closes the second colour later players may not mark."""
    rs = Ruleset(3, end_check=EndCheck.SEQUENTIAL)
    game = state(rs, *TRIPLE, closed="g", active=active)
    with pytest.raises(IllegalMoveError, match=f"R14: the game ended when player {winner}'s "
                                               "mark closed a second colour") as err:
        game.play_turn(TRIPLE_ROLL, marks("-,r12,y12"))
    assert err.value.player == refused
    choices = marks("-,r12,y12")
    choices[refused] = None
    after = game.play_turn(TRIPLE_ROLL, choices)
    assert after.is_over and after.ended_by == "R14" and len(after.closed) == 2


def test_end_check_sequential_allows_marks_before_the_end() -> None:
    """Switch end_check=sequential: players earlier in turn order than the closing mark still
    mark (the game has not ended yet for them)."""
    rs = Ruleset(3, end_check=EndCheck.SEQUENTIAL)
    game = state(rs, *TRIPLE, closed="g", active=0)
    after = game.play_turn(TRIPLE_ROLL, marks("b12,r12,-"))
    assert after.sheets[0].marks(BLUE) == (12,) and after.ended_by == "R14"


def test_end_check_end_of_turn_gives_action2_after_the_close() -> None:
    """Switch end_check=end_of_turn: the end is checked only when the turn is over, so the
    active player takes action 2 after the second colour closed in action 1."""
    sheets = ("r:3,4,5/b:12,11,10,9,8/y:2,3", "r:2,3,4,5,6/g:12,11,10,9,8,2,lock")
    roll = parse_roll("w:6,6/r:5/y:1/b:1")
    official = state(Ruleset(2), *sheets, closed="g")
    assert official.with_roll(roll).with_action1(marks("-,r12")).phase is Phase.OVER
    rs = Ruleset(2, end_check=EndCheck.END_OF_TURN)
    game = state(rs, *sheets, closed="g")
    after1 = game.with_roll(roll).with_action1(marks("-,r12"))
    assert after1.phase is Phase.ACTION2 and after1.ended_by is None
    assert legal_action2(after1) == (Mark(YELLOW, 7), Mark(BLUE, 7))
    after = after1.with_action2(Mark(BLUE, 7))
    assert after.is_over and after.ended_by == "R14"
    assert rs.action2_after_action1_end and not Ruleset(2).action2_after_action1_end


# -- simultaneous_close (R10) ---------------------------------------------------------------------

SIM = ("r:2,3,4,5,6", "r:3,4,5,6,7")


def test_simultaneous_close_is_official() -> None:
    """R10 (official, simultaneous_close=True): both players close red in action 1."""
    after = state(Ruleset(2), *SIM).play_turn(parse_roll("w:6,6/r:1/y:1/g:1/b:1"),
                                              marks("r12,r12"))
    assert after.sheets[0].is_locked(RED) and after.sheets[1].is_locked(RED)


@pytest.mark.parametrize(("active", "refused"), [(0, 1), (1, 0)])
def test_simultaneous_close_false_first_closer_in_turn_order_wins(active: int,
                                                                 refused: int) -> None:
    """Switch simultaneous_close=False: only the first closer in turn order (from the active
    player) closes the colour; a second closer is refused with R10."""
    rs = Ruleset(2, simultaneous_close=False)
    game = state(rs, *SIM, active=active)
    roll = parse_roll("w:6,6/r:1/y:1/g:1/b:1")
    with pytest.raises(IllegalMoveError, match=r"R10: player \d closes red first") as err:
        game.play_turn(roll, marks("r12,r12"))
    assert err.value.player == refused
    choices = marks("r12,r12")
    choices[refused] = None
    after = game.play_turn(roll, choices)
    assert after.sheets[1 - refused].is_locked(RED) and not after.sheets[refused].is_locked(RED)


# -- action2_after_game_end (R15) -----------------------------------------------------------------


def test_action2_after_game_end_switch_on_one_position() -> None:
    """R15 Option: the same turn is over after action 1 (default) or continues to action 2."""
    sheets = ("y:2,3,4,5,6,7,8/p:3", "r:2,3,4,5,6")
    roll = parse_roll("w:6,6/r:1/y:4/b:1")
    off = state(Ruleset(2), *sheets, closed="g").with_roll(roll).with_action1(marks("-,r12"))
    on = state(Ruleset(2, action2_after_game_end=True), *sheets, closed="g")
    on1 = on.with_roll(roll).with_action1(marks("-,r12"))
    assert off.phase is Phase.OVER and on1.phase is Phase.ACTION2
    assert off.sheets[0].penalties == 3
    assert legal_action2(on1) == (Mark(YELLOW, 10), Mark(BLUE, 7))  # red's die left play
    assert on1.with_action2(None).sheets[0].penalties == 4


# -- the Ruleset value ----------------------------------------------------------------------------


def test_ruleset_defaults_are_the_official_rules() -> None:
    """The defaults are the official rules (R9, R10, R14, R15) for two players."""
    rs = Ruleset()
    assert rs.players == 2 and rs.is_official
    assert (rs.action2_after_game_end, rs.die_removal, rs.end_check, rs.simultaneous_close) == (
        False, DieRemoval.IMMEDIATE, EndCheck.AFTER_ACTIONS, True)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_every_ruleset_round_trips_through_json(players: int) -> None:
    """All 24 switch combinations x 1..5 players survive to_json/from_json."""
    for rs in all_rulesets(players):
        assert Ruleset.from_json(rs.to_json()) == rs
    assert len(SWITCHES) == 24


@pytest.mark.parametrize(("field", "value"), [
    ("die_removal", "later"), ("end_check", 3), ("simultaneous_close", "yes"),
    ("action2_after_game_end", None), ("players", 1.5), ("colour", "red")])
def test_ruleset_json_rejects_bad_fields(field: str, value: object) -> None:
    """A bad or unknown ruleset field is a ParseError naming the field."""
    with pytest.raises(ParseError, match=field):
        Ruleset.from_json({field: value})


@pytest.mark.parametrize("k", range(len(SWITCHES)))
def test_random_games_replay_under_every_ruleset(k: int) -> None:
    """Every switch combination plays complete games that replay to the same result."""
    rs = Ruleset(4, *SWITCHES[k])
    record = random_game(ruleset=rs, seed=k)
    final = replay(record)[-1]
    assert final.is_over and record.result is not None
    assert final.scores == record.result.scores
