"""End of the game: R13 (fourth penalty), R14 (second colour), R15 (mid-turn end), and the
choices the core takes where RULES.md is silent (see the ``qwixx_math.rules`` docstring)."""

from __future__ import annotations

import pytest

from qwixx_math.errors import IllegalMoveError, InvalidStateError
from qwixx_math.model import Colour, Mark
from qwixx_math.notation import format_sheet, parse_mark, parse_roll, parse_sheet
from qwixx_math.rules import GameState, Phase, legal_action2, legal_plans
from qwixx_math.ruleset import EndCheck, Ruleset

RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE
ROLL = parse_roll("w:6,6/r:1/y:1/g:1/b:1")


def state(*sheets: str, closed: str = "", active: int = 0,
          ruleset: Ruleset | None = None) -> GameState:
    rs = ruleset if ruleset is not None else Ruleset(len(sheets))
    shut = frozenset(c for c in Colour if c.letter in closed)
    return GameState(rs, tuple(parse_sheet(s) for s in sheets), active=active, closed=shut)


def marks(text: str) -> list[Mark | None]:
    return [None if t == "-" else parse_mark(t) for t in text.split(",")]


# -- R13 fourth penalty ---------------------------------------------------------------------------


def test_r13_fourth_penalty_ends_the_game_at_once() -> None:
    """R13: the active player's fourth penalty ends the game; nobody rolls again."""
    game = state("p:3", "p:0", active=0)
    after = game.play_turn(ROLL, [None, None])
    assert after.is_over and after.phase is Phase.OVER and after.ended_by == "R13"
    assert after.sheets[0].penalties == 4 and after.scores == (-20, 0)
    assert after.active == 0  # the game ended in player 0's turn
    with pytest.raises(IllegalMoveError, match="R13: the game is over; nobody may roll"):
        after.with_roll(ROLL)


def test_r13_three_penalties_do_not_end_the_game() -> None:
    """R13: only the fourth penalty box ends the game."""
    after = state("p:2", "p:3", active=0).play_turn(ROLL, [None, None])
    assert not after.is_over and [s.penalties for s in after.sheets] == [3, 3]


def test_r13_a_game_about_to_roll_cannot_hold_four_penalties() -> None:
    """R13: a state in the roll phase with a four-penalty sheet is not a reachable state."""
    with pytest.raises(InvalidStateError, match="R13"):
        state("p:4", "p:0")


# -- R14 second colour ----------------------------------------------------------------------------


def test_r14_second_colour_closed_in_action2_ends_the_game() -> None:
    """R14: the game ends at once when a second colour is closed (here in action 2)."""
    game = state("r:2,3,4,5,6", "g:12,11,10,9,8,2,lock", closed="g")
    roll = parse_roll("w:6,1/r:6/y:1/b:1")
    after = game.play_turn(roll, [None, None], Mark(RED, 12))
    assert after.is_over and after.ended_by == "R14" and after.closed == {RED, GREEN}


def test_r14_whoever_closes_it() -> None:
    """R14: a passive player closing the second colour in action 1 ends the game too."""
    game = state("r:-", "r:2,3,4,5,6", closed="g")
    after = game.play_turn(parse_roll("w:6,6/r:1/y:1/b:1"), marks("-,r12"))
    assert after.is_over and after.ended_by == "R14"


def test_r14_two_colours_closed_in_the_same_action1() -> None:
    """R14: two players closing two different colours in one action 1 (none closed before)
    end the game at once."""
    game = state("r:-", "r:2,3,4,5,6", "y:2,3,4,5,6")
    after = game.play_turn(ROLL, marks("-,r12,y12"))
    assert after.is_over and after.ended_by == "R14" and after.closed == {RED, YELLOW}


def test_r14_one_closed_colour_does_not_end_the_game() -> None:
    """R14: the first closed colour only takes its die out of play."""
    after = state("r:2,3,4,5,6", "y:-").play_turn(ROLL, marks("r12,-"))
    assert not after.is_over and after.closed == {RED} and after.phase is Phase.ROLL


def test_r14_a_game_about_to_roll_cannot_have_two_closed_colours() -> None:
    """R14: two closed colours mean the game is over, so no roll phase follows."""
    with pytest.raises(InvalidStateError, match="R14"):
        state("r:2,3,4,5,6,12,lock", "g:12,11,10,9,8,2,lock", closed="rg")


# -- R15 mid-turn end -----------------------------------------------------------------------------


def test_r15_default_game_ends_before_action2() -> None:
    """R15 (Option action2_after_game_end=False): when the second colour closes in action 1,
    the game ends before action 2; asking for action 2 is refused."""
    game = state("b:12,11,10,9,8", "r:2,3,4,5,6", closed="g")
    roll = parse_roll("w:6,6/r:1/y:1/b:1")  # white + blue would make blue 7
    after1 = game.with_roll(roll).with_action1(marks("-,r12"))
    assert after1.phase is Phase.OVER and after1.ended_by == "R14"
    with pytest.raises(IllegalMoveError, match="R14: the game is over"):
        legal_action2(after1)  # as legal_action1 does (issue 10)
    with pytest.raises(IllegalMoveError, match="R15: the game ended in action 1; no action 2 "
                                               r"\(b7\) follows"):
        game.play_turn(roll, marks("-,r12"), Mark(BLUE, 7))
    with pytest.raises(IllegalMoveError, match="R14: the game is over"):
        after1.with_action2(None)


def test_r15_option_action2_after_game_end() -> None:
    """R15 (Option action2_after_game_end=True): the active player still takes action 2 after
    the second colour closed in action 1; then the game is over."""
    rs = Ruleset(2, action2_after_game_end=True)
    game = state("b:12,11,10,9,8", "r:2,3,4,5,6", closed="g", ruleset=rs)
    roll = parse_roll("w:6,6/r:1/y:1/b:1")
    after1 = game.with_roll(roll).with_action1(marks("-,r12"))
    assert after1.phase is Phase.ACTION2 and after1.ended_by == "R14"
    assert Mark(BLUE, 7) in legal_action2(after1)
    after = after1.with_action2(Mark(BLUE, 7))
    assert after.is_over and after.ended_by == "R14"
    assert format_sheet(after.sheets[0]) == "r:-/y:-/g:-/b:12,11,10,9,8,7/p:0"


def test_r15_option_state_validation() -> None:
    """R15: an action-2 phase after the game ended exists only under the Option."""
    rs_json = Ruleset(2, action2_after_game_end=True).to_json()
    game = state("b:12,11,10,9,8", "r:2,3,4,5,6", closed="g",
                 ruleset=Ruleset.from_json(rs_json))
    after1 = game.with_roll(parse_roll("w:6,6/r:1/y:1/b:1")).with_action1(marks("-,r12"))
    data = after1.to_json()
    data["ruleset"]["action2_after_game_end"] = False
    with pytest.raises(InvalidStateError, match="R15"):
        GameState.from_json(data)


# -- decisions where RULES.md is silent (rules.py docstring) --------------------------------------


def test_decision_no_penalty_when_the_game_ends_in_action1_without_action2() -> None:
    """Decision: the game ends in action 1 with no action 2 following (R15 default); the
    active player marked nothing but takes no penalty (their turn was cut short)."""
    game = state("p:3", "r:2,3,4,5,6", closed="g")
    after = game.play_turn(parse_roll("w:6,6/r:1/y:1/b:1"), marks("-,r12"))
    assert after.is_over and after.ended_by == "R14"
    assert after.sheets[0].penalties == 3
    plans = legal_plans(game, parse_roll("w:6,6/r:1/y:1/b:1"), marks("-,r12"))
    assert all(p.action2 is None for p in plans)


def test_decision_penalty_applies_when_action2_follows_the_end() -> None:
    """Decision: when action 2 does follow the end (Option action2_after_game_end), the turn is
    completed normally, R11 included; the game stays ended by R14 even if this is the fourth
    penalty."""
    rs = Ruleset(2, action2_after_game_end=True)
    game = state("p:3", "r:2,3,4,5,6", closed="g", ruleset=rs)
    after = game.play_turn(parse_roll("w:6,6/r:1/y:1/b:1"), marks("-,r12"), None)
    assert after.sheets[0].penalties == 4
    assert after.is_over and after.ended_by == "R14"


def test_decision_r14_is_named_when_both_ends_happen_in_one_turn() -> None:
    """Decision: when one turn both closes the second colour and crosses a fourth penalty
    (possible when action 2 follows the close: end_check=end_of_turn), the game is recorded as
    ended by R14 (R14 is checked before R13)."""
    rs = Ruleset(2, end_check=EndCheck.END_OF_TURN)
    game = state("p:3", "r:2,3,4,5,6", closed="g", ruleset=rs)
    after = game.play_turn(parse_roll("w:6,6/r:1/y:1/b:1"), marks("-,r12"), None)
    assert after.sheets[0].penalties == 4 and after.closed == {RED, GREEN}
    assert after.is_over and after.ended_by == "R14"
