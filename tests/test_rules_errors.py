"""Bad input: illegal moves raise IllegalMoveError citing the rule and showing the sheet in the
text notation; malformed input raises ParseError saying where and what; nothing is ever
half-applied."""

from __future__ import annotations

import copy
import re

import pytest

from qwixx_math.errors import (
    IllegalMoveError,
    InvalidStateError,
    ParseError,
    QwixxError,
)
from qwixx_math.model import Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import (
    format_sheet,
    parse_colours,
    parse_mark,
    parse_plan,
    parse_roll,
    parse_sheet,
)
from qwixx_math.rules import GameState, Phase, legal_action1, legal_plans, new_game
from qwixx_math.ruleset import Ruleset

RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def state(*sheets: str, closed: str = "", active: int = 0,
          ruleset: Ruleset | None = None) -> GameState:
    rs = ruleset if ruleset is not None else Ruleset(len(sheets))
    shut = frozenset(c for c in Colour if c.letter in closed)
    return GameState(rs, tuple(parse_sheet(s) for s in sheets), active=active, closed=shut)


def marks(text: str) -> list[Mark | None]:
    return [None if t == "-" else parse_mark(t) for t in text.split(",")]


def test_error_types() -> None:
    """IllegalMoveError, ParseError and InvalidStateError are QwixxErrors and ValueErrors."""
    for kind in (IllegalMoveError, ParseError, InvalidStateError):
        assert issubclass(kind, QwixxError) and issubclass(kind, ValueError)
    err = IllegalMoveError("R8", "text", 2)
    assert str(err) == "R8: text" and err.rule == "R8" and err.player == 2


# -- illegal moves: one per rule ------------------------------------------------------------------

# (name, sheets, closed, active, roll, action 1, action 2, rule, player, message start)
ILLEGAL = [
    ("R4 missing die", ("r:-", "r:-"), "", 0, "w:1,2/r:1/y:1/g:1", "-,-", None, "R4", None,
     "R4: the blue die is in play and must be rolled"),
    ("R5 not the white sum", ("r:-", "r:-"), "", 0, "w:1,2/r:1/y:1/g:1/b:1", "-,r4", None,
     "R5", 1, "R5: action 1 marks the white sum 3; player 1 chose red 4"),
    ("R6 not white plus colour", ("r:-", "r:-"), "", 0, "w:1,2/r:1/y:1/g:1/b:1", "-,-", "r9",
     "R6", 0, "R6: white + red makes 2 or 3, not 9"),
    ("R7 left of a mark", ("r:-", "y:9"), "", 1, "w:3,4/r:1/y:1/g:1/b:1", "-,y7", None,
     "R7", 1, "R7: player 1: yellow 7 is left of yellow 9"),
    ("R7 a2 left of a1", ("r:2",), "", 0, "w:3,4/r:2/y:2/g:2/b:2", "r7", "r5", "R7", 0,
     "R7: red 5 is left of red 7"),
    ("R8 a1 lock", ("r:2,3,4,5",), "", 0, "w:6,6/r:6/y:1/g:1/b:1", "r12", None, "R8", 0,
     "R8: player 0: red 12 needs 5 marks in red before it; this sheet has 4"),
    ("R8 a2 lock", ("g:12,11,10",), "", 0, "w:1,3/r:2/y:2/g:1/b:2", "-", "g2", "R8", 0,
     "R8: green 2 needs 5 marks in green before it; this sheet has 3"),
    ("R9 closed row in a1", ("r:2,3,4,5,6,12,lock", "r:-"), "r", 1, "w:1,1/y:1/g:1/b:1",
     "-,r2", None, "R9", 1, "R9: red is closed; player 1 may not mark red 2"),
    ("R9 die out of play", ("b:12,11,10,9,8,2,lock", "r:-"), "b", 1, "w:1,1/r:1/y:1/g:1",
     "-,-", "b2", "R9", 1, "R9: the blue die is not in play"),
    ("R9 closed roll", ("b:12,11,10,9,8,2,lock", "r:-"), "b", 1, "w:1,1/r:1/y:1/g:1/b:1",
     "-,-", None, "R9", None, "R9: blue is closed; its die left play"),
    ("R9 die left play in a1", ("r:2,3,4", "r:2,3,4,5,6"), "", 0, "w:6,6/r:1/y:1/g:1/b:1",
     "-,r12", "r7", "R9", 0, "R9: red was closed in action 1"),
    ("R15 no action 2", ("b:12,11", "r:2,3,4,5,6"), "g", 0, "w:6,6/r:1/y:1/b:1", "-,r12",
     "b7", "R15", 0, "R15: the game ended in action 1; no action 2 (b7) follows"),
]


@pytest.mark.parametrize("case", ILLEGAL, ids=[c[0] for c in ILLEGAL])
def test_illegal_move_cites_the_rule_and_shows_the_sheet(case: tuple[object, ...]) -> None:
    """Every illegal move raises IllegalMoveError whose message starts with the rule id, names
    the player, and ends with the position in text notation that parses back; the state
    is unchanged afterwards (nothing half-applied)."""
    _, sheets, closed, active, roll, a1, a2, rule, player, start = case
    assert isinstance(sheets, tuple) and isinstance(closed, str) and isinstance(active, int)
    assert isinstance(roll, str) and isinstance(a1, str) and isinstance(start, str)
    game = state(*sheets, closed=closed, active=active)
    before = copy.deepcopy(game.to_json())
    with pytest.raises(IllegalMoveError) as err:
        game.play_turn(parse_roll(roll), marks(a1), None if a2 is None else parse_mark(str(a2)))
    message = str(err.value)
    assert message.startswith(start), message
    assert err.value.rule == rule and err.value.player == player
    shown = re.search(r"\(([^()]*)\)$", message)
    assert shown is not None, message
    if player is not None:
        # the sheet as the failing step saw it: after action 1 when action 2 is at fault
        try:
            seen = game.with_roll(parse_roll(roll)).with_action1(marks(a1)).sheets[player]
        except IllegalMoveError:
            seen = game.sheets[player]
        assert shown.group(1) == f"player {player}'s sheet {format_sheet(seen)}"
        assert parse_sheet(shown.group(1).split(" sheet ")[1]) == seen
    else:
        assert shown.group(1) == roll
    assert game.to_json() == before


def test_the_issue_example_message() -> None:
    """The message of the issue's example: R8, the counts, and the sheet in text notation."""
    sheet = parse_sheet("r:2,3,4,5")
    with pytest.raises(IllegalMoveError) as err:
        sheet.with_mark(RED, 12)
    assert str(err.value) == ("R8: red 12 needs 5 marks in red before it; this sheet has 4 "
                              "(r:2,3,4,5/y:-/g:-/b:-/p:0)")


def test_rejected_turn_leaves_every_value_as_it_was() -> None:
    """A turn whose action 2 is illegal after a legal action 1 applies nothing: the state,
    its sheets, and any state derived before are unchanged."""
    game = state("r:2", "y:3")
    rolled = game.with_roll(parse_roll("w:3,4/r:2/y:2/g:2/b:2"))
    after1 = rolled.with_action1(marks("r7,y7"))
    snapshots = [copy.deepcopy(s.to_json()) for s in (game, rolled, after1)]
    with pytest.raises(IllegalMoveError, match="R7"):
        game.play_turn(parse_roll("w:3,4/r:2/y:2/g:2/b:2"), marks("r7,y7"), Mark(RED, 5))
    with pytest.raises(IllegalMoveError, match="R7"):
        after1.with_action2(Mark(RED, 5))
    assert [s.to_json() for s in (game, rolled, after1)] == snapshots
    assert game.sheets == (parse_sheet("r:2"), parse_sheet("y:3"))
    assert after1.phase is Phase.ACTION2
    assert after1.with_action2(None).sheets[0].marks(RED) == (2, 7)


def test_wrong_phase_is_refused() -> None:
    """R4: each step of a turn only in its phase."""
    game = new_game(2)
    with pytest.raises(IllegalMoveError, match="R4: cannot choose action-1 marks in the roll"):
        game.with_action1([None, None])
    with pytest.raises(IllegalMoveError, match="R4: cannot choose the action-2 mark in the roll"):
        game.with_action2(None)


# -- malformed input ------------------------------------------------------------------------------

@pytest.mark.parametrize(("parse", "text", "what", "position"), [
    (parse_sheet, "r:2,3,x", "expected a red number (2 to 12), found 'x'", 6),
    (parse_sheet, "r:2/q:3", "unknown row 'q'", 6),
    (parse_sheet, "r:2/r:3", "the red row is given twice", 6),
    (parse_sheet, "r:2,lock,3", "'lock' must close the red row", 4),
    (parse_sheet, "r:2/p:x", "expected a number of penalties", 6),
    (parse_sheet, "r 2", "expected 'key:value'", 0),
    (parse_roll, "w:3/r:1", "expected two white dice", 2),
    (parse_roll, "w:3,5/z:1", "unknown die 'z'", 8),
    (parse_roll, "r:1/y:2", "a roll needs the two white dice", 0),
    (parse_mark, "q8", "unknown colour 'q'", None),
    (parse_mark, "r13", "R2: a row holds the numbers 2 to 12, not 13", 1),
    (parse_plan, "r8", "expected a plan 'ACTION1/ACTION2'", 0),
    (parse_colours, "rq", "unknown colour 'rq'", None),
])
def test_malformed_text_says_where_and_what(parse: object, text: str, what: str,
                                            position: int | None) -> None:
    """Malformed text raises ParseError (not IllegalMoveError) naming the problem and, where
    there is one, the character position."""
    assert callable(parse)
    with pytest.raises(ParseError) as err:
        parse(text)
    assert what in str(err.value)
    assert not isinstance(err.value, IllegalMoveError)
    assert err.value.position == position
    if position is not None:
        assert f"(at character {position} of {text!r})" in str(err.value)


@pytest.mark.parametrize(("text", "rule"), [
    ("r:2,12,lock", "R8"),
    ("r:2,3,4,5,6,lock", "R8"),
    ("r:5,3", "R7"),
    ("p:5", "R2"),
])
def test_well_formed_but_impossible_sheets(text: str, rule: str) -> None:
    """Text that parses but describes a sheet no game can produce raises InvalidStateError
    with the rule id."""
    with pytest.raises(InvalidStateError) as err:
        parse_sheet(text)
    assert err.value.rule == rule and str(err.value).startswith(f"{rule}: ")


def test_wrong_types_are_parse_errors() -> None:
    """Passing the wrong kind of value to an entry point raises ParseError, not a TypeError."""
    game = new_game(2)
    with pytest.raises(ParseError):
        game.with_roll("w:1,2/r:1/y:1/g:1/b:1")  # type: ignore[arg-type]
    rolled = game.with_roll(parse_roll("w:1,2/r:1/y:1/g:1/b:1"))
    with pytest.raises(ParseError):
        rolled.with_action1("r3,-")  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        rolled.with_action1(["r3", None])  # type: ignore[list-item]
    after1 = rolled.with_action1([None, None])
    with pytest.raises(ParseError):
        after1.with_action2("r3")  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        legal_action1(rolled, 2)
    with pytest.raises(ParseError):
        legal_plans(game, parse_roll("w:1,2/r:1/y:1/g:1/b:1"), [None])
    with pytest.raises(ParseError):
        TurnPlan("r3", None)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        Sheet((0, 0, 0))  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        Roll((1, 2, 3), (1, 1, 1, 1))  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        Mark("red", 3)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kwargs", "rule"), [
    ({"closed": frozenset()}, "R9"),  # a locked row but the colour not closed
    ({"phase": Phase.ACTION1}, "R4"),  # action 1 without a roll
    ({"phase": Phase.OVER}, "R13"),  # over without the rule that ended it
])
def test_inconsistent_states_are_refused(kwargs: dict[str, object], rule: str) -> None:
    """GameState validates itself: an unreachable combination raises InvalidStateError."""
    fields: dict[str, object] = {
        "ruleset": Ruleset(2),
        "sheets": (parse_sheet("r:2,3,4,5,6,12,lock"), Sheet.EMPTY),
        "closed": frozenset({RED}),
    }
    fields.update(kwargs)
    with pytest.raises(InvalidStateError) as err:
        GameState(**fields)  # type: ignore[arg-type]
    assert err.value.rule == rule


def test_check_whole_number_names_the_argument() -> None:
    from qwixx_math.errors import check_whole_number
    assert check_whole_number("games", 7, 1, 10) == 7
    for bad, says in ((True, "a whole number"), (2.0, "a whole number"), ("3", "a whole number"),
                      (None, "a whole number"), (0, "between 1 and 10"), (11, "between 1 and 10")):
        with pytest.raises(ParseError, match=f"games must be {says}"):
            check_whole_number("games", bad, 1, 10)
