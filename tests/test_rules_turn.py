"""A turn: R4 (roll) to R12 (next turn), with the worked examples of RULES.md."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import game_states, rolls

from qwixx_math.errors import IllegalMoveError, ParseError
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import format_sheet, parse_mark, parse_plan, parse_roll, parse_sheet
from qwixx_math.rules import (
    GameState,
    Phase,
    legal_action1,
    legal_action2,
    legal_plans,
    new_game,
)
from qwixx_math.ruleset import Ruleset

RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def state(*sheets: str, closed: frozenset[Colour] = frozenset(), active: int = 0) -> GameState:
    """A game in the ROLL phase with the given sheets (text notation)."""
    return GameState(Ruleset(len(sheets)), tuple(parse_sheet(s) for s in sheets),
                     active=active, closed=closed)


def marks(text: str) -> list[Mark | None]:
    return [None if t == "-" else parse_mark(t) for t in text.split(",")]


def sheets_text(game: GameState) -> list[str]:
    return [format_sheet(s) for s in game.sheets]


# -- worked examples of RULES.md ------------------------------------------------------------------


def test_example_white_3_5_everyone_may_mark_8_and_white_5_green_4_makes_green_9() -> None:
    """R5, R6 worked example: white 3 and 5 -> every player may mark an 8 (in any row);
    white 5 with green 4 -> the active player may mark green 9."""
    game = new_game(3)
    roll = Roll.of(3, 5, red=1, yellow=1, green=4, blue=1)
    rolled = game.with_roll(roll)
    for player in range(3):
        assert legal_action1(rolled, player) == tuple(Mark(c, 8) for c in COLOURS)
    after1 = rolled.with_action1([None, None, None])
    assert Mark(GREEN, 9) in legal_action2(after1)
    assert {m for m in legal_action2(after1) if m.colour is GREEN} == {Mark(GREEN, 9),
                                                                       Mark(GREEN, 7)}
    after = after1.with_action2(Mark(GREEN, 9))
    assert after.sheets[0].marks(GREEN) == (9,)


def test_example_kari_ola_mia_turn() -> None:
    """R5, R6, R7, R11 worked example: Kari rolls white 4, 1, red 3, yellow 6, green 5, blue 6.
    Kari marks yellow 5, Ola red 5, Mia (red 6 marked) passes at no cost; Kari combines white 4
    with blue 6 for blue 10, losing blue 12 and 11."""
    kari, ola, mia = 0, 1, 2
    game = state("r:-", "r:-", "r:6")
    roll = parse_roll("w:4,1/r:3/y:6/g:5/b:6")
    rolled = game.with_roll(roll)
    assert roll.white_sum == 5
    assert Mark(RED, 5) not in legal_action1(rolled, mia)  # red 5 is left of her red 6 (R7)
    after1 = rolled.with_action1(marks("y5,r5,-"))
    assert Mark(BLUE, 10) in legal_action2(after1)
    after = after1.with_action2(Mark(BLUE, 10))
    assert sheets_text(after) == [
        "r:-/y:5/g:-/b:10/p:0",
        "r:5/y:-/g:-/b:-/p:0",
        "r:6/y:-/g:-/b:-/p:0",
    ]
    assert not after.sheets[kari].allows(BLUE, 12) and not after.sheets[kari].allows(BLUE, 11)
    assert after.sheets[kari].allows(BLUE, 9)
    assert after.sheets[mia].penalties == 0
    assert after.active == ola and after.phase is Phase.ROLL  # R12: Ola's turn next
    assert game.play_plan(roll, parse_plan("y5/b10"), marks("-,r5,-")) == after


def test_example_red_5_then_red_7_loses_2_3_4_and_6() -> None:
    """R7 worked example: after red 5 and red 7, red 2, 3, 4 and 6 are gone for good."""
    sheet = Sheet.EMPTY.with_mark(RED, 5).with_mark(RED, 7)
    assert [n for n in range(2, 13) if sheet.allows(RED, n)] == [8, 9, 10, 11]
    for n in (2, 3, 4, 6):
        reason = sheet.why_not(RED, n)
        assert reason is not None and reason[0] == "R7"
        with pytest.raises(IllegalMoveError, match=rf"^R7: red {n} is left of red 7"):
            sheet.with_mark(RED, n)
    assert sheet.why_not(RED, 12) == (
        "R8", "red 12 needs 5 marks in red before it; this sheet has 2")


def test_example_green_closed_two_white_sixes_close_red_and_yellow() -> None:
    """R10, R14 worked example: green is closed, the active player rolls two white sixes; one
    player closes red with red 12 while another closes yellow with yellow 12; the game ends
    with three colours closed."""
    game = state("g:12,11,10,9,8,2,lock", "r:2,3,4,5,6", "y:3,4,5,6,7", closed=frozenset({GREEN}))
    roll = parse_roll("w:6,6/r:1/y:2/b:3")
    after = game.play_turn(roll, marks("-,r12,y12"))
    assert after.is_over and after.ended_by == "R14"
    assert after.closed == {RED, YELLOW, GREEN}
    assert after.sheets[1].is_locked(RED) and after.sheets[2].is_locked(YELLOW)
    assert after.sheets[1].count(RED) == 7 and after.sheets[2].count(YELLOW) == 7
    assert after.sheets[0].penalties == 0  # the game ended before action 2 (R15)


# -- R4 roll --------------------------------------------------------------------------------------


def test_r04_every_die_in_play_must_be_rolled() -> None:
    """R4: the roll shows both whites and every coloured die still in play."""
    game = new_game(2)
    with pytest.raises(IllegalMoveError, match="R4: the blue die is in play and must be rolled"):
        game.with_roll(parse_roll("w:1,2/r:3/y:4/g:5"))
    closed = state("r:2,3,4,5,6,12,lock", "r:-", closed=frozenset({RED}))
    with pytest.raises(IllegalMoveError, match="R9: red is closed; its die left play"):
        closed.with_roll(parse_roll("w:1,2/r:3/y:4/g:5/b:6"))
    assert closed.dice_in_play == {YELLOW, GREEN, BLUE}
    assert closed.with_roll(parse_roll("w:1,2/y:4/g:5/b:6")).phase is Phase.ACTION1


def test_r04_one_roll_per_turn() -> None:
    """R4: after the roll the turn is in action 1; a second roll is refused."""
    rolled = new_game(2).with_roll(parse_roll("w:1,2/r:3/y:4/g:5/b:6"))
    with pytest.raises(IllegalMoveError, match="R4: cannot roll the dice in the action1 phase"):
        rolled.with_roll(parse_roll("w:1,2/r:3/y:4/g:5/b:6"))


# -- R5 action 1 ----------------------------------------------------------------------------------


@given(rolls(frozenset(COLOURS)))
def test_r05_every_player_may_mark_the_white_sum_in_one_row(roll: Roll) -> None:
    """R5: on empty sheets every player may mark the white sum in any one row; nothing else."""
    rolled = new_game(4).with_roll(roll)
    s = roll.white_sum
    for player in range(4):
        assert legal_action1(rolled, player) == tuple(Mark(c, s) for c in COLOURS
                                                      if s != c.last_number)


def test_r05_action1_must_be_the_white_sum() -> None:
    """R5: a different number in action 1 is refused, naming the player."""
    rolled = new_game(3).with_roll(parse_roll("w:3,5/r:1/y:1/g:1/b:1"))
    with pytest.raises(IllegalMoveError, match="R5: action 1 marks the white sum 8; player 2 "
                                               "chose red 9") as err:
        rolled.with_action1(marks("-,-,r9"))
    assert err.value.player == 2


def test_r05_action1_is_optional_and_simultaneous() -> None:
    """R5: every player, the active one included, may pass; the marks are made together (each
    player's own sheet only)."""
    rolled = new_game(3, first=1).with_roll(parse_roll("w:3,5/r:1/y:1/g:1/b:1"))
    after1 = rolled.with_action1(marks("r8,r8,-"))
    assert sheets_text(after1)[:2] == ["r:8/y:-/g:-/b:-/p:0"] * 2
    assert after1.sheets[2] == Sheet.EMPTY
    with pytest.raises(ParseError, match="one choice"):
        rolled.with_action1(marks("r8,-"))


# -- R6 action 2 ----------------------------------------------------------------------------------


def test_r06_action2_is_white_plus_colour_in_that_colour() -> None:
    """R6: the active player may mark white1 + colour or white2 + colour in that colour's row."""
    after1 = new_game(1).with_roll(parse_roll("w:1,6/r:1/y:2/g:3/b:4")).with_action1([None])
    assert legal_action2(after1) == tuple(parse_mark(t) for t in (
        "r2", "r7", "y3", "y8", "g9", "g4", "b10", "b5"))
    with pytest.raises(IllegalMoveError, match="R6: white \\+ red makes 2 or 7, not 5"):
        after1.with_action2(Mark(RED, 5))


def test_r06_only_the_active_player_takes_action2() -> None:
    """R6: action 2 marks the active player's sheet only."""
    game = new_game(3, first=2)
    after = game.play_turn(parse_roll("w:1,6/r:1/y:2/g:3/b:4"), [None] * 3, Mark(RED, 2))
    assert after.sheets[2].marks(RED) == (2,)
    assert after.sheets[0] == after.sheets[1] == Sheet.EMPTY
    with pytest.raises(IllegalMoveError, match="R4: cannot list action-2 marks in the roll"):
        legal_action2(game)  # not in the action2 phase: refused, as legal_action1 does


def test_r06_action2_is_optional() -> None:
    """R6: the active player who marked in action 1 may skip action 2 without penalty."""
    game = new_game(2)
    after = game.play_turn(parse_roll("w:1,6/r:1/y:2/g:3/b:4"), marks("y7,-"), None)
    assert after.sheets[0].marks(YELLOW) == (7,) and after.sheets[0].penalties == 0


# -- R7 left to right -----------------------------------------------------------------------------


def test_r07_new_mark_strictly_right_of_every_mark() -> None:
    """R7: a new mark must lie strictly right of every mark in its row (also in green/blue,
    which read 12..2)."""
    sheet = parse_sheet("r:4/g:10")
    assert not sheet.allows(RED, 4) and not sheet.allows(RED, 3) and sheet.allows(RED, 5)
    assert not sheet.allows(GREEN, 11) and not sheet.allows(GREEN, 10) and sheet.allows(GREEN, 9)
    with pytest.raises(IllegalMoveError, match="R7: red 4 is already marked"):
        sheet.with_mark(RED, 4)


def test_r07_action2_in_the_same_row_must_be_right_of_action1() -> None:
    """R7: action 1 is written first; an action-2 mark in the same row must lie right of it."""
    game = state("r:2")
    roll = parse_roll("w:3,4/r:2/y:2/g:2/b:2")  # white sum 7; white + red makes 5 or 6
    with pytest.raises(IllegalMoveError, match="R7: red 5 is left of red 7") as err:
        game.play_turn(roll, marks("r7"), Mark(RED, 5))
    assert err.value.player == 0
    roll2 = parse_roll("w:3,4/r:5/y:2/g:2/b:2")  # white + red makes 8 or 9
    after = game.play_turn(roll2, marks("r7"), Mark(RED, 9))
    assert after.sheets[0].marks(RED) == (2, 7, 9)
    assert TurnPlan(Mark(RED, 7), Mark(RED, 9)) in legal_plans(game, roll2)
    assert TurnPlan(Mark(RED, 7), Mark(RED, 5)) not in legal_plans(game, roll)


# -- R8 last number -------------------------------------------------------------------------------


def test_r08_last_number_needs_five_marks() -> None:
    """R8: red 12 with only 4 red marks is refused, citing R8 and showing the sheet."""
    game = state("r:2,3,4,5")
    roll = parse_roll("w:6,6/r:6/y:1/g:1/b:1")
    with pytest.raises(IllegalMoveError) as err:
        game.play_turn(roll, marks("r12"))
    assert str(err.value) == ("R8: player 0: red 12 needs 5 marks in red before it; this sheet "
                              "has 4 (player 0's sheet r:2,3,4,5/y:-/g:-/b:-/p:0)")
    assert err.value.rule == "R8" and isinstance(err.value, ValueError)
    with pytest.raises(IllegalMoveError, match=r"^R8: red 12 needs 5 marks in red before it; "
                                               r"this sheet has 4 \(player 0's sheet "):
        game.play_turn(roll, [None], Mark(RED, 12))


@pytest.mark.parametrize("colour", list(COLOURS))
def test_r08_last_number_with_five_marks_closes_the_row_and_marks_the_lock(
        colour: Colour) -> None:
    """R8: with 5 marks, the last number may be marked; it also marks the lock box (the row is
    closed by that player)."""
    first5 = [colour.number(p) for p in range(5)]
    sheet = Sheet.from_marks({colour: first5})
    assert sheet.allows(colour, colour.last_number)
    closed = sheet.with_mark(colour, colour.last_number)
    assert closed.is_locked(colour) and closed.count(colour) == 7
    assert not any(closed.allows(colour, n) for n in range(2, 13))
    assert not Sheet.from_marks({colour: first5[:4]}).allows(colour, colour.last_number)


def test_r08_action1_mark_counts_for_action2() -> None:
    """R8: with 4 red marks, marking red 11 in action 1 makes red 12 legal in action 2."""
    game = state("r:2,3,5,7")
    roll = parse_roll("w:5,6/r:6/y:1/g:2/b:3")  # white sum 11; white 6 + red 6 = 12
    after = game.play_turn(roll, marks("r11"), Mark(RED, 12))
    assert format_sheet(after.sheets[0]) == "r:2,3,5,7,11,12,lock/y:-/g:-/b:-/p:0"
    assert after.closed == {RED}
    assert TurnPlan(None, Mark(RED, 12)) not in legal_plans(game, roll)
    assert TurnPlan(Mark(RED, 11), Mark(RED, 12)) in legal_plans(game, roll)


# -- R9 closing a colour --------------------------------------------------------------------------


def test_r09_nobody_marks_a_closed_colour_and_its_die_leaves_play() -> None:
    """R9: once red is closed nobody may mark red (even a player with no red marks), and the
    red die is no longer rolled; marks already in the row keep counting."""
    game = state("r:2,3,4,5,6,12,lock", "r:-", closed=frozenset({RED}), active=1)
    rolled = game.with_roll(parse_roll("w:1,1/y:1/g:1/b:1"))
    assert Mark(RED, 2) not in legal_action1(rolled, 1)
    with pytest.raises(IllegalMoveError, match="R9: red is closed; player 1 may not mark red 2"):
        rolled.with_action1(marks("-,r2"))
    assert game.sheets[0].row_score(RED) == 28


def test_r09_die_of_a_colour_closed_in_action1_cannot_be_used_in_action2() -> None:
    """R9: a colour closed in action 1 (here by another player) leaves play at once: its die
    cannot be used in the same turn's action 2."""
    game = state("r:2,3,4/y:5", "r:2,3,4,5,6")
    roll = parse_roll("w:6,6/r:1/y:1/g:1/b:1")  # white + red would make red 7
    after1 = game.with_roll(roll).with_action1(marks("-,r12"))
    assert after1.closed == {RED} and after1.phase is Phase.ACTION2
    assert all(m.colour is not RED for m in legal_action2(after1))
    with pytest.raises(IllegalMoveError, match="R9: red was closed in action 1; its die left "
                                               "play at once"):
        after1.with_action2(Mark(RED, 7))


def test_r09_closing_in_action2_closes_for_everyone() -> None:
    """R9: a close in action 2 closes the colour for every player from the next turn on."""
    game = state("b:12,11,10,9,8", "b:-")
    after = game.play_turn(parse_roll("w:1,5/r:1/y:1/g:1/b:1"), [None, None], Mark(BLUE, 2))
    assert after.closed == {BLUE} and after.sheets[0].is_locked(BLUE)
    assert after.dice_in_play == {RED, YELLOW, GREEN}
    rolled = after.with_roll(parse_roll("w:6,6/r:1/y:1/g:1"))
    assert all(m.colour is not BLUE for m in legal_action1(rolled, 1))


# -- R10 simultaneous closing ---------------------------------------------------------------------


def test_r10_several_players_close_the_same_colour_at_once() -> None:
    """R10: in action 1 several players with 5 marks close the same colour; each gets the
    lock box."""
    game = state("g:12,11,10,9,8", "g:12,10,9,7,5", "g:3")
    after = game.play_turn(parse_roll("w:1,1/r:1/y:1/g:1/b:1"), marks("g2,g2,-"))
    assert after.sheets[0].is_locked(GREEN) and after.sheets[1].is_locked(GREEN)
    assert after.closed == {GREEN} and not after.is_over


def test_r10_fewer_than_five_marks_may_not_close_even_while_another_closes() -> None:
    """R10: a player with fewer than 5 marks may not mark the last number, even while another
    player closes the row."""
    game = state("g:12,11,10,9,8", "g:12,11,10,9")
    rolled = game.with_roll(parse_roll("w:1,1/r:1/y:1/g:1/b:1"))
    assert Mark(GREEN, 2) in legal_action1(rolled, 0)
    assert Mark(GREEN, 2) not in legal_action1(rolled, 1)
    with pytest.raises(IllegalMoveError, match="R8: player 1: green 2 needs 5 marks") as err:
        rolled.with_action1(marks("g2,g2"))
    assert err.value.player == 1


# -- R11 penalty ----------------------------------------------------------------------------------


def test_r11_active_player_marking_nothing_takes_a_penalty() -> None:
    """R11: the active player who marks nothing in both actions marks a penalty box, also when
    a legal mark was available; passive players who pass never do."""
    game = new_game(3, first=1)
    roll = parse_roll("w:3,5/r:1/y:1/g:1/b:1")
    assert len(legal_plans(game, roll)) > 1  # marks were available
    after = game.play_turn(roll, [None] * 3, None)
    assert [s.penalties for s in after.sheets] == [0, 1, 0]
    assert TurnPlan(None, None).penalty and TurnPlan(None, None) in legal_plans(game, roll)


@pytest.mark.parametrize("plan", ["y8/-", "-/g4", "y8/g6"])
def test_r11_any_mark_avoids_the_penalty(plan: str) -> None:
    """R11: a mark in action 1 or in action 2 (or both) avoids the penalty."""
    game = new_game(2)
    after = game.play_plan(parse_roll("w:3,5/r:1/y:1/g:1/b:1"), parse_plan(plan))
    assert after.sheets[0].penalties == 0


# -- R12 next turn --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "first"), [(1, 0), (2, 1), (3, 0), (5, 4)])
def test_r12_play_passes_to_the_left(players: int, first: int) -> None:
    """R12: after a turn the next player (index + 1, wrapping round) is active."""
    game = new_game(players, first=first)
    roll = parse_roll("w:3,5/r:1/y:1/g:1/b:1")
    seen = []
    for _ in range(players + 1):
        seen.append(game.active)
        game = game.play_turn(roll, [None] * players)
    assert seen == [(first + k) % players for k in range(players + 1)]
    assert game.turn == players + 1


@given(st.integers(0, 4))
def test_r12_active_player_must_exist(active: int) -> None:
    """R12: the active player is one of the players."""
    if active < 3:
        assert GameState(Ruleset(3), (Sheet.EMPTY,) * 3, active=active).active == active
    else:
        with pytest.raises(ValueError, match="R12"):
            GameState(Ruleset(3), (Sheet.EMPTY,) * 3, active=active)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states((Phase.ACTION1,)))
def test_legal_plans_direct_route_is_the_general_one(state: GameState) -> None:
    """With the others passing, legal_plans takes a direct route on the official sheet (no
    successor states); giving the passes explicitly takes the general one, through
    with_action1 and legal_action2: the same plans in the same order, every ruleset."""
    general = legal_plans(state, others=[None] * state.players)
    assert legal_plans(state) == general
