"""Building a position to advise on: the game state of typed sheets and a roll, or of a file.

A position is a :class:`~qwixx_math.rules.GameState`: every sheet, whose roll it
is, the closed colours and the roll.  :func:`position` builds it from the sheets
of every seat (in seat order) and the roll; :func:`sheet_position` from one
player's sheet alone, the other seats empty (an empty sheet cannot change what
this player may do, and the table model values the others' sheets as if empty
anyway); :func:`read_state` reads a game state file (the JSON form of
docs/notation.md) with every limit checked.

**Closed colours are a fact of the sheets** (R9): a colour is closed when some
sheet locked its row (``r:2,3,4,5,6,12,lock``, or the last number, which marks
the lock with it).  A missing die never closes a colour: the roll must show the
die of every open colour (R4) and no die of a closed one (R9), and an error names
the die.  To say that another player closed a colour, give that player's sheet (or,
with :func:`sheet_position`, name the colour in ``closed``: the colours closed by
players whose sheets are not given).

>>> from qwixx_math.errors import IllegalMoveError
>>> from qwixx_math.position import position, sheet_position
>>> state = position(["r:2,3/g:12", "b:12,11,10,9,8,2,lock/p:1"], "w:3,4/r:1/y:2/g:5",
...                  active=0)
>>> sorted(c.value for c in state.closed), state.players, state.active, state.phase.value
(['blue'], 2, 0, 'action1')
>>> try:
...     position(["r:2,3/g:12", "r:-"], "w:3,4/r:1/y:2/g:5")
... except IllegalMoveError as exc:
...     print(str(exc)[:53])
R4: the roll has no blue die and no sheet locked blue
>>> lone = sheet_position("r:2,3/g:12", "w:3,4/r:1/y:2/g:5/b:6", players=3, seat=2)
>>> lone.players, lone.active, str(lone.sheets[2])
(3, 0, 'r:2,3/y:-/g:12/b:-/p:0')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from .errors import IllegalMoveError, ParseError, check_whole_number
from .files import read_text_bounded
from .layouts import SheetLayout
from .model import COLOURS, Colour, Roll, Sheet
from .notation import colour_set, format_colours, format_roll, parse_roll, parse_sheet
from .rules import GameState
from .ruleset import MAX_PLAYERS, Ruleset, ruleset_for
from .validation.reader import MAX_TURNS

__all__ = ["MAX_STATE_BYTES", "MAX_STATE_TURN", "position", "read_state", "sheet_position",
           "state_from_text"]

#: Largest game-state file read (a state is a few hundred bytes).
MAX_STATE_BYTES = 1 << 20
#: Largest ``turn`` of a game state read from a file: the record reader's limit of turns
#: (a legal game has at most 48 turns per player, 240 for five players).
MAX_STATE_TURN = MAX_TURNS


def _sheet(value: Sheet | str, layout: SheetLayout | str | None, what: str) -> Sheet:
    if isinstance(value, Sheet):
        return value
    if isinstance(value, str):
        return parse_sheet(value, layout)
    raise ParseError(f"{what} must be a Sheet or a sheet text, not {type(value).__name__}")


def _roll(value: Roll | str, layout: SheetLayout) -> Roll:
    """The roll (text is read with the dice of ``layout``: 8-sided on Longo, LG1)."""
    if isinstance(value, Roll):
        return value
    if isinstance(value, str):
        return parse_roll(value, layout.faces)
    raise ParseError(f"the roll must be a Roll or a roll text, not {type(value).__name__}")


def position(sheets: Sequence[Sheet | str], roll: Roll | str, *, active: int = 0,
             ruleset: Ruleset | None = None,
             layout: SheetLayout | str | None = None) -> GameState:
    """The state of a table with ``sheets`` (one per seat, in seat order; Sheets or sheet
    texts) right after player ``active`` (0-based) rolled ``roll`` (a Roll or its text):
    phase ``ACTION1``, turn 0.

    The closed colours are the colours some sheet locked (R9).  The roll must show the
    die of every open colour (else IllegalMoveError R4, naming the die) and no die of a
    closed one (R9).  ``ruleset``: default the official rules for ``len(sheets)``
    players; one of another number of players is refused (R3).  ``layout``: the sheet
    layout of sheet texts that name none (default the official sheet); every sheet must
    be of one layout.
    """
    if isinstance(sheets, (str, Sheet)) or not isinstance(sheets, Sequence):
        raise ParseError("sheets: one sheet per seat, in seat order (a list), not "
                         f"{type(sheets).__name__}")
    if not 1 <= len(sheets) <= MAX_PLAYERS:
        raise ParseError(f"R3: a table has 1 to {MAX_PLAYERS} players; {len(sheets)} sheets "
                         "given")
    parsed = tuple(_sheet(s, layout, f"sheet {i + 1}") for i, s in enumerate(sheets))
    first = parsed[0].layout
    for i, s in enumerate(parsed):
        if s.layout != first:
            raise ParseError(f"every sheet of a table is of one layout; sheet 1 is of "
                             f"{first.name}, sheet {i + 1} of {s.layout.name}")
    ruleset = ruleset_for(ruleset, len(parsed))
    active = check_whole_number("active", active, 0, len(parsed) - 1)
    return _rolled(parsed, _roll(roll, first), active, ruleset, frozenset())


def _rolled(parsed: tuple[Sheet, ...], rolled: Roll, active: int, ruleset: Ruleset,
            others_closed: frozenset[Colour]) -> GameState:
    """The checks of the roll against the closed colours, and the state."""
    first = parsed[0].layout
    closed = frozenset().union(others_closed, *(s.locked for s in parsed))
    for colour in COLOURS:
        if colour in first.locks and colour not in closed and rolled.die(colour) is None:
            raise IllegalMoveError(
                "R4", f"the roll has no {colour.value} die and no sheet locked "
                      f"{colour.value}: give its die, or say who closed it (a lock on a sheet, "
                      f"or closed colours for another player's sheet not given, R9)")
        if colour in closed and rolled.die(colour) is not None:
            who = ", ".join(str(i + 1) for i, s in enumerate(parsed) if colour in s.locked)
            by = f"sheet {who}" if who else "another player"
            raise IllegalMoveError(
                "R9", f"{by} closed {colour.value}, so its die left play, but the "
                      f"roll has it ({format_roll(rolled)})")
    state = GameState(ruleset, parsed, active=active, closed=closed)
    return state.with_roll(rolled)


def sheet_position(sheet: Sheet | str, roll: Roll | str, *, players: int = 1, seat: int = 0,
                   active: int = 0, ruleset: Ruleset | None = None,
                   layout: SheetLayout | str | None = None,
                   closed: Iterable[Colour | str] | str = ()) -> GameState:
    """:func:`position` of a table of ``players`` where ``sheet`` is at ``seat`` and every
    other sheet is empty.  ``closed``: colours the other players closed, whose sheets
    are not given (Colours, names or text such as ``"g,b"``; at a table of one there is
    nobody else, R9); the closed colours are those and the ones ``sheet`` locked.

    >>> state = sheet_position("r:2,3", "w:1,2/r:1/y:1/b:1", players=2, closed="g")
    >>> sorted(c.value for c in state.closed)
    ['green']
    """
    players = check_whole_number("players", players, 1, MAX_PLAYERS)
    seat = check_whole_number("seat", seat, 0, players - 1)
    active = check_whole_number("active", active, 0, players - 1)
    own = _sheet(sheet, layout, "the sheet")
    others = colour_set(closed, "closed colours") - own.locked
    if others and players == 1:
        raise IllegalMoveError("R9", f"a player alone closes only their own rows; "
                                     f"{format_colours(others)} is not locked on the sheet")
    for colour in others:
        if colour not in own.layout.locks:
            raise ParseError(f"layout {own.layout.name} has no {colour.value} row to close")
    ruleset = ruleset_for(ruleset, players)
    empty = Sheet.empty(own.layout)
    sheets = tuple(own if i == seat else empty for i in range(players))
    return _rolled(sheets, _roll(roll, own.layout), active, ruleset, others)


def state_from_text(text: str, source: str = "<state>") -> GameState:
    """The game state of JSON ``text`` (docs/notation.md); ParseError for text that is not
    JSON, nested too deeply, holds NaN or a number too long to read, or a ``turn``
    beyond :data:`MAX_STATE_TURN`; ``source`` names it in the errors.

    >>> state_from_text("[" * 5000)
    Traceback (most recent call last):
    ...
    qwixx_math.errors.ParseError: <state>: not a game state: the JSON is nested too deeply
    """
    if not isinstance(text, str):
        raise ParseError(f"a game state text must be a str, not {type(text).__name__}")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ParseError(f"{source}: not a game state: not JSON: {exc}") from None
    except ValueError as exc:  # NaN/Infinity, or a number too long to convert
        raise ParseError(f"{source}: not a game state: {exc}") from None
    except RecursionError:
        raise ParseError(f"{source}: not a game state: the JSON is nested too deeply") from None
    if isinstance(data, dict):
        turn = data.get("turn")
        if isinstance(turn, int) and not isinstance(turn, bool) and turn > MAX_STATE_TURN:
            raise ParseError(f"{source}: state.turn is {turn:.3g}; a game has at most "
                             f"{MAX_STATE_TURN} turns")
    try:
        return GameState.from_json(data)
    except RecursionError:  # pragma: no cover - json.loads refuses such depth first
        raise ParseError(f"{source}: not a game state: nested too deeply") from None


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


def read_state(path: str | Path) -> GameState:
    """The game state in the file at ``path`` (at most :data:`MAX_STATE_BYTES`; see
    :func:`state_from_text`)."""
    text = read_text_bounded(path, MAX_STATE_BYTES, "game state")
    return state_from_text(text, str(path))
