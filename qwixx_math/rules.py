"""The reference rules core: the game state, legal moves and applying turns (RULES.md).

A turn goes through three phases, each a method returning a new
:class:`GameState` (nothing is ever mutated, so a rejected step leaves every
value as it was):

``ROLL``    --:meth:`GameState.with_roll`-->     ``ACTION1`` (R4)
``ACTION1`` --:meth:`GameState.with_action1`-->  ``ACTION2`` or ``OVER`` (R5, R8-R10, R14, R15)
``ACTION2`` --:meth:`GameState.with_action2`-->  ``ROLL`` (next player, R12) or ``OVER``
(R6-R9, R11, R13, R14)

:meth:`GameState.play_turn` does all three.  Illegal choices raise
:class:`~qwixx_math.errors.IllegalMoveError` naming the rule.

Order of legal moves: marks sort by row (red, yellow, green, blue) and then
left to right; turn plans sort by action 1 and then action 2, "no mark" before
any mark (so the penalty plan ``-/-`` comes first).

On another sheet layout (:mod:`qwixx_math.layouts`, docs/mixx.md) every rule reads
the layout of the sheets: rows are named by their lock colour, action 1 marks the
white sum in any open row that shows it, action 2 marks white + the die of colour
``c`` in a cell of colour ``c`` of any open row, closing a row takes the die of its
lock colour out of play (R9), and R8, R13 and R14 use the layout's lock threshold,
penalty boxes and closed rows to end.

Where RULES.md is silent:

* when the game ends in action 1 and no action 2 follows (R15 default), the
  turn is over at once and the active player takes no penalty, even if they
  marked nothing (the game ended before their turn was complete);
* when action 2 does follow the end (``action2_after_game_end`` or
  ``end_check=END_OF_TURN``), the turn is completed normally, R11 included.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

from . import big_points
from .big_points import BonusMark
from .bonus import check_voids, void_closed
from .bonus import cross as bonus_cross
from .bonus_b import cross as symbols_cross
from .errors import IllegalMoveError, InvalidStateError, ParseError
from .layouts import FACES, OFFICIAL, SheetLayout
from .model import (
    ALLOWED,
    COLOURS,
    LAST_POSITION,
    MARKS,
    SECOND_MARKS,
    Colour,
    LuckyMark,
    Mark,
    Roll,
    Sheet,
    TurnPlan,
    layout_position,
)
from .notation import (
    colour_set,
    format_action1,
    format_mark,
    format_roll,
    format_sheet,
    mark_from_json,
    mark_to_json,
    roll_from_json,
    roll_to_json,
    sheet_from_json,
    sheet_to_json,
)
from .ruleset import DieRemoval, EndCheck, LuckyCandidates, LuckyMode, Ruleset

__all__ = [
    "COLOURS_TO_END",
    "GameState",
    "Phase",
    "can_mark",
    "exchange_action1",
    "legal_action1",
    "legal_action2",
    "legal_plans",
    "lucky_cells",
    "mark_key",
    "new_game",
    "plan_key",
    "random_roll",
    "random_turn",
    "second_cross_options",
    "turn_outcomes",
    "why_not_exchange",
    "why_not_lucky",
    "why_not_mark",
]

#: Closed colours that end the official game (R14); a layout says its own
#: (:attr:`SheetLayout.closed_rows_to_end`).
COLOURS_TO_END = OFFICIAL.closed_rows_to_end
_LAST_BIT = 1 << LAST_POSITION
_EVERY_COLOUR = frozenset(COLOURS)
_RED, _YELLOW, _GREEN, _BLUE = COLOURS

_Action1Table = tuple[tuple[tuple[int, int, Colour, Mark], ...], ...]


def _action1_table(layout: SheetLayout) -> _Action1Table:
    """[white sum]: (row, position bit, colour, mark) of that number in each row of
    ``layout`` that shows it, in row order (a lookup table for legal_action1)."""
    return tuple(
        tuple((c.index, 1 << layout.pos[c.index][s], c, MARKS[c.index][s])
              for c in layout.locks if layout.pos[c.index][s] >= 0)
        if 2 <= s <= layout.top_number else () for s in range(layout.top_number + 1))


_ACTION1: _Action1Table = _action1_table(OFFICIAL)
_ACTION1_TABLES: dict[SheetLayout, _Action1Table] = {OFFICIAL: _ACTION1}


def _action1_for(layout: SheetLayout) -> _Action1Table:
    table = _ACTION1_TABLES.get(layout)
    if table is None:
        table = _ACTION1_TABLES[layout] = _action1_table(layout)
    return table


#: [die index][white + die sum]: (sort key, row, position bit, row colour, mark) of each
#: cell of the die's colour showing that sum (R6), a lookup table for legal_action2.
_Action2Table = tuple[tuple[tuple[tuple[int, int, int, Colour, Mark], ...], ...], ...]
_ACTION2_TABLES: dict[SheetLayout, _Action2Table] = {}


#: Per white sum: the exchange crosses (XC1) of the layout's X-Change track, each
#: (sort key, field, colour index, position bit, colour, mark), sorted by cell then field
#: (the sort key puts each after the plain cross of its cell, key * 16); and the fields
#: whose pair holds the sum, each with its field spent alone (XC4).
_ExchangeTable = tuple[
    tuple[tuple[tuple[int, int, int, int, Colour, Mark], ...], ...],
    tuple[tuple[tuple[int, Mark], ...], ...]]
_EXCHANGE_TABLES: dict[SheetLayout, _ExchangeTable] = {}


def _exchange_for(layout: SheetLayout) -> _ExchangeTable:
    table = _EXCHANGE_TABLES.get(layout)
    if table is None:
        crosses: list[tuple[tuple[int, int, int, int, Colour, Mark], ...]] = []
        fields: list[tuple[tuple[int, Mark], ...]] = []
        for s in range(2 * layout.faces + 1):
            found: list[tuple[int, int, int, int, Colour, Mark]] = []
            spends: list[tuple[int, Mark]] = []
            for k, (a, b) in enumerate(layout.exchange):
                if s not in (a, b):
                    continue
                spends.append((k, Mark.spend(k)))
                other = b if a == s else a
                for c in layout.locks:
                    ci = c.index
                    pos = layout.pos[ci][other] if other < len(layout.pos[ci]) else -1
                    if pos >= 0:
                        found.append(((ci * 64 + pos) * 16 + k + 1, k, ci, 1 << pos, c,
                                      Mark(c, other, k)))
            found.sort(key=lambda entry: entry[0])
            crosses.append(tuple(found))
            fields.append(tuple(spends))
        table = _EXCHANGE_TABLES[layout] = (tuple(crosses), tuple(fields))
    return table


def _exchanges(ruleset: Ruleset, sheet: Sheet, closed: frozenset[Colour], white_sum: int
               ) -> tuple[list[tuple[int, Mark]], list[Mark]]:
    """The exchange crosses ``sheet`` may make for ``white_sum`` with their sort keys, and
    the fields it may spend alone (see :func:`exchange_action1`)."""
    crosses, fields = _exchange_for(sheet.layout)
    if not 0 <= white_sum < len(crosses):
        return [], []
    last, masks, allowed = sheet.last_field, sheet.masks, sheet.layout.allowed
    found = [(key, mark) for key, k, ci, bit, colour, mark in crosses[white_sum]
             if k > last and colour not in closed and allowed[ci][masks[ci]] & bit]
    spends = [mark for k, mark in fields[white_sum] if k > last] \
        if ruleset.xc_field_without_cross else []
    return found, spends


def _with_exchanges(ruleset: Ruleset, sheet: Sheet, closed: frozenset[Colour],
                    white_sum: int, plain: tuple[Mark, ...]) -> tuple[Mark, ...]:
    """``plain`` (the white-sum marks, in order) with the exchange marks merged in, each
    after the plain mark of its cell, and the fields spent alone last (XC1, XC4)."""
    found, spends = _exchanges(ruleset, sheet, closed, white_sum)
    if not found and not spends:
        return plain
    pos = sheet.layout.pos
    found += [((m.colour.index * 64 + pos[m.colour.index][m.number]) * 16, m) for m in plain]
    found.sort(key=_first)
    return tuple([m for _, m in found] + spends)


def _action2_for(layout: SheetLayout) -> _Action2Table:
    table = _ACTION2_TABLES.get(layout)
    if table is None:
        top = layout.top_number
        table = _ACTION2_TABLES[layout] = tuple(
            tuple(tuple((r.index * 64 + layout.pos[r.index][n], r.index,
                         1 << layout.pos[r.index][n], r, MARKS[r.index][n])
                        for r in layout.action2_rows(die, n)) if 2 <= n <= top else ()
                  for n in range(top + 1))
            for die in COLOURS)
    return table


class Phase(Enum):
    """Where in the turn a :class:`GameState` stands."""

    ROLL = "roll"  #: waiting for the active player's roll
    ACTION1 = "action1"  #: rolled; every player's action-1 choice is next
    ACTION2 = "action2"  #: action 1 done; the active player's action-2 choice is next
    OVER = "over"  #: the game has ended


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game between two steps: every sheet, whose turn, closed colours, phase.

    ``closed`` holds the colours closed by anyone (R9).  ``roll`` is set in the
    ``ACTION1`` and ``ACTION2`` phases, ``action1`` (every player's choice) in
    ``ACTION2``.  ``ended_by`` is the rule that ended the game (``"R13"`` or
    ``"R14"``); it is also set during an ``ACTION2`` phase that follows an end in
    action 1 (R15 Option).  ``turn`` counts the turns begun before this one.
    """

    ruleset: Ruleset
    sheets: tuple[Sheet, ...]
    active: int = 0
    closed: frozenset[Colour] = field(default_factory=frozenset)
    phase: Phase = Phase.ROLL
    roll: Roll | None = None
    action1: tuple[Mark | None, ...] | None = None
    ended_by: str | None = None
    turn: int = 0

    def __post_init__(self) -> None:
        self._validate()

    # -- construction & validation ------------------------------------------------------------
    def _validate(self) -> None:
        rs = self.ruleset
        if not isinstance(rs, Ruleset):
            raise ParseError(f"GameState.ruleset must be a Ruleset, not {rs!r}")
        if not (isinstance(self.sheets, tuple) and all(isinstance(s, Sheet) for s in self.sheets)):
            raise ParseError("GameState.sheets must be a tuple of Sheet")
        if len(self.sheets) != rs.players:
            raise InvalidStateError(
                "R3", f"the ruleset has {rs.players} player(s) but {len(self.sheets)} sheet(s)")
        if not (_is_int(self.active) and 0 <= self.active < rs.players):
            raise InvalidStateError("R12", f"active player {self.active!r} does not exist")
        if not (_is_int(self.turn) and self.turn >= 0):
            raise ParseError(f"GameState.turn must be a whole number >= 0, not {self.turn!r}")
        if not (isinstance(self.closed, frozenset)
                and all(isinstance(c, Colour) for c in self.closed)):
            raise ParseError("GameState.closed must be a frozenset of Colour")
        if not isinstance(self.phase, Phase):
            raise ParseError(f"GameState.phase must be a Phase, not {self.phase!r}")
        layout = self.sheets[0].layout
        for i, sheet in enumerate(self.sheets):
            if sheet.layout is not layout and sheet.layout != layout \
                    and not layout.same_pad(sheet.layout):  # V1: lucky pairs
                raise InvalidStateError(
                    "R2", f"player {i}'s sheet is of layout {sheet.layout.name}, player 0's of "
                          f"{layout.name}: every player plays the same sheet")
        if layout.bonus_rows:
            big_points.check_lock_marks(layout, rs)  # BP5
        stray = self.closed - frozenset(layout.locks)
        if stray:
            raise InvalidStateError(
                "R9", f"layout {layout.name} has no "
                      f"{', '.join(c.value for c in COLOURS if c in stray)} row to close")
        if layout.bar:  # Bonus A: the closed colours' untaken bar fields are void (BA6)
            for i, sheet in enumerate(self.sheets):
                check_voids(sheet, self.closed, i)
        for i, sheet in enumerate(self.sheets):
            missing = sheet.locked - self.closed
            if missing:
                names = ", ".join(sorted(c.value for c in missing))
                raise InvalidStateError(
                    "R9", f"player {i} closed {names} but the game does not list it as closed")
        phase = self.phase
        if (self.roll is None) != (phase in (Phase.ROLL, Phase.OVER)):
            need = "needs a" if self.roll is None else "has no"
            raise InvalidStateError("R4", f"phase {phase.value} {need} roll")
        if (self.action1 is None) != (phase is not Phase.ACTION2):
            raise InvalidStateError("R5", "only the action2 phase carries the action-1 choices")
        if self.ended_by not in (None, "R13", "R14"):
            raise ParseError(f"GameState.ended_by must be R13, R14 or None, not {self.ended_by!r}")
        if phase is Phase.OVER and self.ended_by is None:
            raise InvalidStateError("R13", "a game that is over needs the rule that ended it")
        if phase in (Phase.ROLL, Phase.ACTION1) and self.ended_by is not None:
            raise InvalidStateError(self.ended_by, "the game has ended; no turn can follow")
        if phase is Phase.ACTION2 and self.ended_by is not None and \
                not rs.action2_after_action1_end:
            raise InvalidStateError("R15", "the game ended in action 1; there is no action 2")
        four = any(s.penalties >= layout.penalty_boxes for s in self.sheets)
        to_end = layout.closed_rows_to_end
        if phase is not Phase.OVER:
            if four:  # the fourth penalty is taken at the end of a turn and ends it (R11, R13)
                raise InvalidStateError(
                "R13", f"a player has {_penalties_word(layout.penalty_boxes)}: the game is over")
            if len(self.closed) >= to_end and self.ended_by is None and (
                    phase is not Phase.ACTION2 or rs.end_check is not EndCheck.END_OF_TURN):
                raise InvalidStateError(
                    "R14", f"{_colours_word(to_end)} closed: the game is over")
        if self.ended_by == "R13" and not four:
            raise InvalidStateError(
                "R13", "the game ended by a fourth penalty, but no player has four")
        if self.ended_by == "R14" and len(self.closed) < to_end:
            raise InvalidStateError(
                "R14", f"the game ended by a second closed colour, but {len(self.closed)} "
                       f"colour(s) are closed")
        if rs.players == 1 and not self.closed <= self.sheets[0].locked:
            names = ", ".join(c.value for c in COLOURS if c in self.closed - self.sheets[0].locked)
            raise InvalidStateError(
                "R9", f"{names} is closed, but in a one-player game only the player closes "
                      "colours, and the sheet has not locked it")
        if self.roll is not None and not isinstance(self.roll, Roll):
            raise ParseError(f"GameState.roll must be a Roll, not {self.roll!r}")
        if self.action1 is not None and not (
                isinstance(self.action1, tuple) and len(self.action1) == rs.players
                and all(m is None or isinstance(m, Mark) for m in self.action1)):
            raise ParseError("GameState.action1 must hold one Mark or None per player")
        if phase is Phase.ACTION1:
            assert self.roll is not None
            _check_roll_dice(self.roll, self.closed, layout)
        elif phase is Phase.ACTION2:
            assert self.roll is not None and self.action1 is not None
            self._check_action1(self.roll, self.action1)

    def _check_action1(self, roll: Roll, action1: tuple[Mark | None, ...]) -> None:
        """An action-2 state: every action-1 mark is the white sum (R5) and on its player's
        sheet, and the roll shows the dice of the colours not closed before this turn (R4, R9:
        a colour closed in action 1 was rolled)."""
        layout = self.sheets[0].layout
        for i, mark in enumerate(action1):
            if isinstance(mark, LuckyMark):  # the lucky cross, after the white sum (LG3, LG4)
                _check_lucky_on_sheet(self.sheets[i], i, mark, roll.white_sum)
                mark = mark.first
            if mark is None:
                continue
            if isinstance(mark, BonusMark):  # a bonus cross of the white sum (BP2)
                if mark.number != roll.white_sum or not (
                        self.sheets[i].bonus_rows[mark.row] >> mark.column & 1):
                    raise InvalidStateError(
                        "BP2", f"player {i}'s action-1 bonus cross {mark} is not the white sum "
                               f"{roll.white_sum} crossed on their sheet "
                               f"{format_sheet(self.sheets[i])}")
                continue
            if mark.field is not None:
                if mark.field not in self.sheets[i].used_fields:
                    raise InvalidStateError(
                        "XC1", f"player {i}'s action-1 mark {mark.describe()} uses a field "
                               f"their sheet does not show used: {format_sheet(self.sheets[i])}")
                if not mark.crosses:
                    continue
            elif mark.number != roll.white_sum:
                raise InvalidStateError(
                    "R5", f"player {i}'s action-1 mark {mark.describe()} is not the white sum "
                          f"{roll.white_sum}")
            pos = layout.pos[mark.colour.index][mark.number]
            crossed = (self.sheets[i].seconds if mark.second else self.sheets[i].masks)
            if pos < 0 or not crossed[mark.colour.index] >> pos & 1:
                raise InvalidStateError(
                    "R5", f"player {i}'s action-1 mark {mark.describe()} is not on their sheet "
                          f"{format_sheet(self.sheets[i])}")
        closed_now = {m.colour for m in _action1_marks(action1) if closes(layout, m)}
        if layout.bar or layout.symbols:  # a forced cross may have closed a rolled colour
            # in action 1 (BA4, BB7)
            closed_now |= {c for c in self.closed if roll.die(c) is not None}
        _check_roll_dice(roll, self.closed - closed_now, layout)

    @classmethod
    def make(cls, ruleset: Ruleset, sheets: tuple[Sheet, ...], active: int,
             closed: frozenset[Colour], phase: Phase, roll: Roll | None,
             action1: tuple[Mark | None, ...] | None, ended_by: str | None,
             turn: int) -> GameState:
        """Build a state derived from a valid one by legal steps, skipping validation."""
        # The slot descriptors' own setters: the same effect as object.__setattr__
        # (which the frozen dataclass leaves as the only way in), 40% quicker.
        state = object.__new__(cls)
        _SET_RULESET(state, ruleset)
        _SET_SHEETS(state, sheets)
        _SET_ACTIVE(state, active)
        _SET_CLOSED(state, closed)
        _SET_PHASE(state, phase)
        _SET_ROLL(state, roll)
        _SET_ACTION1(state, action1)
        _SET_ENDED_BY(state, ended_by)
        _SET_TURN(state, turn)
        return state


    # -- reading ------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        """Number of players (R3)."""
        return len(self.sheets)

    @property
    def layout(self) -> SheetLayout:
        """The sheet every player plays on (:mod:`qwixx_math.layouts`)."""
        return self.sheets[0].layout

    @property
    def is_over(self) -> bool:
        """True once the game has ended (R13, R14)."""
        return self.phase is Phase.OVER

    @property
    def dice_in_play(self) -> frozenset[Colour]:
        """The coloured dice the next roll must show (R4, R9)."""
        locks = self.sheets[0].layout.locks
        if not self.closed and len(locks) == len(COLOURS):  # a row per colour, all open
            return _EVERY_COLOUR
        return frozenset(locks) - self.closed

    @property
    def scores(self) -> tuple[int, ...]:
        """Every player's current total (R16, R17)."""
        return tuple(s.score for s in self.sheets)

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the highest total; ties share the win (R18)."""
        scores = self.scores
        best = max(scores)
        return tuple(i for i, s in enumerate(scores) if s == best)

    def describe(self) -> str:
        """A one-line human description: phase, active player, closed colours, sheets."""
        closed = ",".join(c.letter for c in COLOURS if c in self.closed) or "-"
        sheets = " | ".join(format_sheet(s) for s in self.sheets)
        extra = f" roll {format_roll(self.roll)}" if self.roll is not None else ""
        if self.action1 is not None:
            extra += f" action1 {format_action1(self.action1)}"
        return (f"turn {self.turn + 1}, {self.phase.value}, active player {self.active}, "
                f"closed {closed}{extra}: {sheets}")

    # -- the three steps of a turn ------------------------------------------------------------
    def with_roll(self, roll: Roll) -> GameState:
        """The state after the active player rolls ``roll`` (R4): phase ``ACTION1``."""
        self._expect(Phase.ROLL, "roll the dice")
        if not isinstance(roll, Roll):
            raise ParseError(f"a roll must be a Roll, not {roll!r}")
        _check_roll_dice(roll, self.closed, self.sheets[0].layout)
        return GameState.make(self.ruleset, self.sheets, self.active, self.closed,
                              Phase.ACTION1, roll, None, None, self.turn)

    def with_action1(self, choices: Sequence[Mark | None]) -> GameState:
        """The state after every player's action-1 choice (R5, R7-R10, R14, R15).

        ``choices[i]`` is player ``i``'s mark of the white sum, or None to pass.
        """
        if self.phase is not Phase.ACTION1:
            self._expect(Phase.ACTION1, "choose action-1 marks")
        roll = self.roll
        assert roll is not None
        rs = self.ruleset
        n = len(self.sheets)
        if (choices.__class__ is not list and (  # a list, the common case, is a Sequence
                not isinstance(choices, Sequence) or isinstance(choices, str))) \
                or len(choices) != n:
            raise ParseError(f"action 1 needs one choice (a Mark or None) for each of {n} players")
        for mark in choices:
            if mark is not None:
                break
        else:  # everybody passes: nothing to check or write
            return self.after_action1(self.sheets, self.closed, tuple(choices))
        s = roll.white[0] + roll.white[1]
        sheets = list(self.sheets)
        layout = sheets[0].layout
        lpos = layout.pos
        allowed_t = layout.allowed
        lock_bits = layout.lock_bits
        to_end = layout.closed_rows_to_end
        sequential = rs.end_check is EndCheck.SEQUENTIAL
        closed = set(self.closed)
        closers: dict[Colour, int] = {}
        ended_at: int | None = None  # player whose mark ended the game (sequential check)
        active = self.active
        for k in range(n):
            i = (active + k) % n
            mark = choices[i]
            if mark is None:
                continue
            if ended_at is not None:
                if not isinstance(mark, Mark):
                    raise ParseError(f"player {i}'s action-1 choice must be a Mark or None")
                raise self._illegal(
                    "R14", f"the game ended when player {ended_at}'s mark closed a second "
                           f"colour; player {i} may not mark {mark.describe()} "
                           "(end_check=sequential)", i)
            lucky: LuckyMark | None = None
            if mark.__class__ is not Mark:  # a plain mark, the common case, is a Mark
                if not isinstance(mark, Mark):
                    raise ParseError(f"player {i}'s action-1 choice must be a Mark or None")
                if isinstance(mark, BonusMark):  # Big Points: a bonus cell of the white sum
                    sheets[i] = self._bonus_cross1(i, sheets[i], mark, s)  # (BP2)
                    continue
                if isinstance(mark, LuckyMark):  # Longo's lucky cross (LG3-LG5)
                    lucky = mark
                    if mark.first is None:
                        sheets[i] = self._lucky_cross(i, sheets[i], mark, closed, closers)
                        if sequential and len(closed) >= to_end:
                            ended_at = i
                        continue
                    mark = mark.first
            if mark.field is not None:  # an exchange (XC1-XC4): the field is used
                sheets[i] = self._exchanged(i, mark, sheets[i], s)
                if not mark.crosses:
                    continue
            elif mark.number != s:
                raise self._illegal(
                    "R5", f"action 1 marks the white sum {s}; player {i} chose "
                          f"{mark.describe()}", i)
            colour = mark.colour
            if colour in self.closed:
                raise self._illegal("R9", f"{colour.value} is closed; player {i} may not mark "
                                          f"{mark.describe()}", i)
            sheet = sheets[i]
            pos = lpos[colour.index][mark.number]
            if pos < 0:
                raise self._illegal("R2", f"layout {layout.name}'s {colour.value} row does not "
                                          f"show {mark.number}; player {i} may not mark it", i)
            if mark.second:  # a second cross (Double A, DA1): never closes a row
                reason = sheet.why_not_second(colour, mark.number)
                if reason is not None:
                    raise self._illegal(reason[0], f"player {i}: {reason[1]}", i)
                sheets[i] = sheet.seconded(colour.index, pos)
                continue
            if not allowed_t[colour.index][sheet.masks[colour.index]] >> pos & 1:
                reason = sheet.why_not(colour, mark.number)
                if reason is not None:  # None: second crosses reach the lock (DA5)
                    raise self._illegal(reason[0], f"player {i}: {reason[1]}", i)
            if 1 << pos & lock_bits[colour.index]:  # the last number closes the row (R8, LG2)
                if colour in closers and not rs.simultaneous_close:
                    raise self._illegal(
                        "R10", f"player {closers[colour]} closes {colour.value} first; "
                               f"player {i} may not close it too (simultaneous_close=False)", i)
                closers.setdefault(colour, i)
                closed.add(colour)
            if layout.bar:  # Bonus A: the forced crosses, against the closed at the start (V5)
                sheets[i], _, shut = bonus_cross(sheet, colour.index, pos, self.closed, False)
                closed |= shut
            elif layout.symbols:  # Bonus B: the nesting, against the closed at the start (V5)
                sheets[i], _, shut = symbols_cross(sheet, colour.index, pos, self.closed, False,
                                                   rs.bb_fewest_candidates)
                closed |= shut
            else:
                sheets[i] = sheet.marked(colour.index, pos)
            if lucky is not None:
                sheets[i] = self._lucky_cross(i, sheets[i], lucky, closed, closers)
            if sequential and len(closed) >= to_end:
                ended_at = i
        if layout.bar and len(closed) > len(self.closed):  # closed in action 1: void (BA6)
            return self.after_action1(void_closed(sheets, closed), frozenset(closed),
                                      tuple(choices))
        return self.after_action1(sheets, frozenset(closed) if closers or (
            layout.symbols and len(closed) > len(self.closed)) else self.closed,  # BB7
            tuple(choices))

    def _bonus_cross1(self, i: int, sheet: Sheet, mark: BonusMark, white_sum: int) -> Sheet:
        """Player ``i``'s ``sheet`` after the action-1 bonus cross ``mark`` (BP2: the white
        sum; BP1, BP4 on the sheet as action 1 began)."""
        if mark.number != white_sum:
            raise self._illegal("BP2", f"action 1 crosses a bonus cell showing the white sum "
                                       f"{white_sum}; player {i} chose {mark.describe()}", i)
        try:  # with_bonus checks the cross (why_not_bonus): once, on the common path
            return big_points.with_bonus(sheet, mark)
        except IllegalMoveError:
            reason = big_points.why_not_bonus(sheet, mark)
            assert reason is not None
            raise self._illegal(reason[0], f"player {i}: {reason[1]}", i) from None

    def _lucky_cross(self, i: int, sheet: Sheet, lucky: LuckyMark, closed: set[Colour],
                     closers: dict[Colour, int]) -> Sheet:
        """Player ``i``'s ``sheet`` after the lucky cross ``lucky`` (LG3-LG5), checked against
        the colours closed as action 1 began (V5); a lock number it crosses closes the row
        (LG2), entered in ``closed`` and ``closers`` as :meth:`with_action1` does."""
        assert self.roll is not None
        reason = why_not_lucky(self.ruleset, sheet, self.closed, self.roll.white_sum, lucky)
        if reason is not None:
            raise self._illegal(reason[0], f"player {i}: {reason[1]}", i)
        colour = lucky.colour
        layout = sheet.layout
        pos = layout.pos[colour.index][lucky.number]
        if 1 << pos & layout.lock_bits[colour.index]:
            if colour in closers and not self.ruleset.simultaneous_close:
                raise self._illegal(
                    "R10", f"player {closers[colour]} closes {colour.value} first; "
                           f"player {i} may not close it too (simultaneous_close=False)", i)
            closers.setdefault(colour, i)
            closed.add(colour)
        return sheet.marked(colour.index, pos)

    def with_simultaneous_action1(self, choices: Sequence[Mark | None]
                                  ) -> tuple[GameState, tuple[IllegalMoveError, ...]]:
        """Every player's action-1 choice applied at once, as a referee applies them: a
        choice that :meth:`with_action1` refuses is dropped (that player passes) and the
        others are applied again, until all that are left are accepted.

        Returns the state and the refusals in the order they were found, one per dropped
        choice (``error.player`` is its player).  A choice can be refused on its own (an
        illegal mark) or, under the dialect switches ``simultaneous_close=False`` (R10)
        and ``end_check=sequential`` (R14), because of another player's simultaneous
        choice.  A refusal that names no player cannot be dropped and is raised, as is
        a malformed ``choices`` (:class:`~qwixx_math.errors.ParseError`).

        >>> from qwixx_math.notation import parse_roll
        >>> from qwixx_math.model import Colour, Mark
        >>> rolled = new_game(2).with_roll(parse_roll("w:3,4/r:1/y:1/g:1/b:1"))
        >>> after, refused = rolled.with_simultaneous_action1([Mark(Colour.RED, 7),
        ...                                                   Mark(Colour.RED, 8)])
        >>> after.action1, [(e.player, e.rule) for e in refused]
        ((Mark(colour=<Colour.RED: 'red'>, number=7), None), [(1, 'R5')])
        """
        if not isinstance(choices, Sequence) or isinstance(choices, str):
            return self.with_action1(choices), ()  # raises its ParseError
        left = list(choices)
        refused: list[IllegalMoveError] = []
        while True:
            try:
                return self.with_action1(left), tuple(refused)
            except IllegalMoveError as exc:
                seat = exc.player
                if seat is None or left[seat] is None:
                    raise
                refused.append(exc)
                left[seat] = None

    def after_action1(self, sheets: Sequence[Sheet], closed: frozenset[Colour],
                       choices: tuple[Mark | None, ...]) -> GameState:
        """This rolled state once ``choices`` are written, giving ``sheets`` and ``closed``:
        the end check after action 1 (R14 unless end_check=end_of_turn), then action 2
        or, when the game ended and no action 2 follows (R15), the end.  No checks of the
        choices (:meth:`with_action1` checks them)."""
        rs = self.ruleset
        if rs.end_check is not EndCheck.END_OF_TURN and \
                len(closed) >= sheets[0].layout.closed_rows_to_end:
            if not rs.action2_after_game_end:
                return GameState.make(rs, tuple(sheets), self.active, closed, Phase.OVER,
                                      None, None, "R14", self.turn)
            return GameState.make(rs, tuple(sheets), self.active, closed, Phase.ACTION2,
                                  self.roll, choices, "R14", self.turn)
        return GameState.make(rs, tuple(sheets), self.active, closed, Phase.ACTION2,
                              self.roll, choices, None, self.turn)


    def with_action2(self, mark: Mark | None) -> GameState:
        """The state after the active player's action-2 choice (R6-R9, R11, R13, R14)."""
        self._expect(Phase.ACTION2, "choose the action-2 mark")
        if mark is not None:
            a = self.active
            if not isinstance(mark, Mark):
                raise ParseError("the action-2 choice must be a Mark or None")
            if isinstance(mark, LuckyMark):
                raise self._illegal("LG3", f"a lucky cross ({mark}) is made in action 1 only; a "
                                           "white + colour sum never triggers it", a)
            if isinstance(mark, BonusMark):  # Big Points (BP3)
                reason = self._why_not_bonus_action2(mark)
            else:
                reason = self._why_not_action2(mark)
            if reason is not None:
                raise self._illegal(reason[0], reason[1], a)
        return self._applied_action2(mark)

    def _applied_action2(self, mark: Mark | None) -> GameState:
        """:meth:`with_action2` of a legal ``mark`` (or None), without its checks."""
        a = self.active
        sheets = list(self.sheets)
        closed = self.closed
        if mark is None:
            assert self.action1 is not None
            if self.action1[a] is None:
                sheets[a] = sheets[a].with_penalty()  # R11
            return self.end_turn(sheets, closed)
        if isinstance(mark, BonusMark):  # Big Points (BP3): no close, no penalty (BP7)
            sheets[a] = big_points.with_bonus(sheets[a], mark)
            return self.end_turn(sheets, closed)
        layout = sheets[a].layout
        ci = mark.colour.index
        pos = layout.pos[ci][mark.number]
        if mark.second:  # DA1: a second cross never closes a row
            sheets[a] = sheets[a].seconded(ci, pos)
        elif layout.bar:  # Bonus A: forced crosses; a close takes effect at once (V5, BA6)
            sheets[a], _, shut = bonus_cross(sheets[a], ci, pos, closed, True)
            if shut - closed:  # closed at once, its fields void at once (BA6)
                closed = closed | shut
                sheets = void_closed(sheets, closed)
        elif layout.symbols:  # Bonus B: the nesting; a close takes effect at once (V5)
            sheets[a], _, shut = symbols_cross(sheets[a], ci, pos, closed, True,
                                               self.ruleset.bb_fewest_candidates)
            closed = closed | shut
        else:
            sheets[a] = sheets[a].marked(ci, pos)
        # closes(layout, mark), from the position: a lock number closes its row (R8,
        # LG2; the action-2 mark is a plain or a second cross, never an exchange)
        if not mark.second and 1 << pos & layout.lock_bits[ci]:
            closed = closed | {mark.colour}
        return self.end_turn(sheets, closed)

    def end_turn(self, sheets: Sequence[Sheet], closed: frozenset[Colour]) -> GameState:
        """The end of this turn, with ``sheets`` and ``closed`` after action 2: the end
        check (R13, R14) unless the game already ended, then the next player's roll.  No
        checks of ``sheets`` and ``closed`` (for the rules core and the replay of records)."""
        ended_by = self.ended_by
        if ended_by is None:
            layout = sheets[0].layout
            if len(closed) >= layout.closed_rows_to_end:
                ended_by = "R14"
            else:
                boxes = layout.penalty_boxes
                for sheet in sheets:
                    if sheet.penalties >= boxes:
                        ended_by = "R13"
                        break
        if ended_by is not None:
            return GameState.make(self.ruleset, tuple(sheets), self.active, closed, Phase.OVER,
                                  None, None, ended_by, self.turn)
        return GameState.make(self.ruleset, tuple(sheets), (self.active + 1) % len(sheets),
                              closed, Phase.ROLL, None, None, None, self.turn + 1)


    def play_turn(self, roll: Roll, action1: Sequence[Mark | None],
                  action2: Mark | None = None) -> GameState:
        """A whole turn: the roll, every player's action-1 choice, the active player's action 2.

        When the game ends in action 1 and no action 2 follows (R15), ``action2``
        must be None.
        """
        state = self.with_roll(roll).with_action1(action1)
        if state.phase is Phase.OVER:
            if action2 is not None:
                raise state._illegal(
                    "R15", f"the game ended in action 1; no action 2 ({format_mark(action2)}) "
                           "follows (Ruleset.action2_after_game_end is False)", self.active)
            return state
        return state.with_action2(action2)

    def play_plan(self, roll: Roll, plan: TurnPlan,
                  others: Sequence[Mark | None] | None = None) -> GameState:
        """The active player's ``plan`` with the other players' action-1 ``others``.

        ``others`` has one entry per player (the active player's is ignored); by
        default every other player passes.
        """
        if not isinstance(plan, TurnPlan):
            raise ParseError(f"a plan must be a TurnPlan, not {type(plan).__name__}")
        choices = action1_choices(self, others)
        choices[self.active] = plan.action1
        return self.play_turn(roll, choices, plan.action2)

    # -- helpers ------------------------------------------------------------------------------
    def _expect(self, phase: Phase, doing: str, hint: str = "") -> None:
        if self.phase is not phase:
            if self.phase is Phase.OVER:
                raise self._illegal(self.ended_by or "R13",
                                    f"the game is over; nobody may {doing}")
            raise self._illegal("R4", f"cannot {doing} in the {self.phase.value} phase "
                                      f"(expected {phase.value}){hint}")

    def _illegal(self, rule: str, message: str, player: int | None = None) -> IllegalMoveError:
        if player is not None:
            where = f"player {player}'s sheet {format_sheet(self.sheets[player])}"
        else:
            where = self.describe()
        return IllegalMoveError(rule, f"{message} ({where})", player)

    def _exchanged(self, player: int, mark: Mark, sheet: Sheet, white_sum: int) -> Sheet:
        """``sheet`` with the field of the exchange ``mark`` used, once XC1, XC2 and XC4
        allow it (the cross itself is checked as any action-1 cross)."""
        reason = why_not_exchange(sheet, mark, white_sum, self.ruleset)
        if reason is not None:
            raise self._illegal(reason[0], f"player {player}: {reason[1]}", player)
        assert mark.field is not None
        return sheet.with_field(mark.field)

    def _why_not_action2(self, mark: Mark) -> tuple[str, str] | None:
        """Why the active player may not mark ``mark`` in action 2, or None.

        The die is the one of the cell's colour (on the official sheet, the row's);
        the row must still be open (its own die in play), and so must the die."""
        roll = self.roll
        assert roll is not None
        if mark.field is not None:
            return ("XC5", f"{mark.describe()}: an exchange is made in action 1 only "
                           "(xc_in_action2=False)")
        layout = self.sheets[0].layout
        colour = mark.colour
        ci = colour.index
        # the reasons' words are built only on the way out: legal marks (most of the
        # calls, every action 2 applied) cost a few lookups
        die = layout.cell[ci][mark.number]
        if die is None:
            if layout.row_of[ci] < 0:
                return ("R2", f"layout {layout.name} has no {colour.value} row")
            return ("R2", f"the {colour.value} row of layout {layout.name} does not show "
                          f"{mark.number}")
        coloured = roll.coloured
        if coloured[ci] is None:
            name = colour.value
            return ("R9", f"the {name} die is not in play, so no action 2 in {name}")
        immediate = self.ruleset.die_removal is DieRemoval.IMMEDIATE
        if immediate and colour in self.closed:
            return ("R9", f"{colour.value} was closed in action 1; its die left play at once")
        face = coloured[die.index]
        if die is not colour:
            dname, name = die.value, colour.value
            if face is None:
                return ("R9", f"the {dname} die is not in play, so no action 2 in a {dname} "
                              f"cell ({name} {mark.number} is {dname})")
            if immediate and die in self.closed:
                return ("R9", f"{dname} was closed in action 1; its die left play at once, so "
                              f"no action 2 in a {dname} cell ({name} {mark.number} is {dname})")
        assert face is not None
        w1, w2 = roll.white
        if mark.number != w1 + face and mark.number != w2 + face:
            made = " or ".join(str(x) for x in roll.action2_numbers(die))
            where = "" if die is colour else f" ({colour.value} {mark.number} is a " \
                                             f"{die.value} cell)"
            return ("R6", f"white + {die.value} makes {made}, not {mark.number}{where}")
        if mark.second:
            return self._why_not_second_action2(mark)
        return self.sheets[self.active].why_not(colour, mark.number)

    def _why_not_bonus_action2(self, mark: BonusMark) -> tuple[str, str] | None:
        """Why the active player may not take the bonus cross ``mark`` in action 2 (BP3,
        BP1, BP4; a die of a colour closed in action 1 left play at once, R9, BP6), or
        None."""
        assert self.roll is not None
        gone = (self.closed if self.ruleset.die_removal is DieRemoval.IMMEDIATE
                else frozenset())
        return big_points.why_not_bonus_action2(self.sheets[self.active], mark, self.roll,
                                                gone, self.ruleset)

    def _why_not_second_action2(self, mark: Mark) -> tuple[str, str] | None:
        """Why the active player may not take the second cross ``mark`` in action 2 (its
        number already made by white + the row's die, R6): DA1, DA3 on the sheet, and
        under ``da_same_turn=False`` not the number they crossed in action 1 (DA4)."""
        assert self.action1 is not None
        first = self.action1[self.active]
        if not self.ruleset.da_same_turn and first is not None and not first.second \
                and first.colour is mark.colour and first.number == mark.number:
            return ("DA4", f"{mark.colour.value} {mark.number} was crossed in action 1 of "
                           "this turn; its second cross needs a later action "
                           "(da_same_turn=False)")
        return self.sheets[self.active].why_not_second(mark.colour, mark.number)

    # -- JSON ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The complete JSON form (see docs/notation.md)."""
        return {
            "ruleset": self.ruleset.to_json(),
            "sheets": [sheet_to_json(s) for s in self.sheets],
            "active": self.active,
            "closed": [c.value for c in COLOURS if c in self.closed],
            "phase": self.phase.value,
            "roll": roll_to_json(self.roll) if self.roll is not None else None,
            "action1": ([mark_to_json(m) for m in self.action1]
                        if self.action1 is not None else None),
            "ended_by": self.ended_by,
            "turn": self.turn,
        }

    @classmethod
    def from_json(cls, data: object) -> GameState:
        """Inverse of :meth:`to_json`; the result is validated like any new state."""
        if not isinstance(data, dict):
            raise ParseError(f"a game state must be a JSON object, not {type(data).__name__}")
        required = {"ruleset", "sheets", "active", "closed", "phase", "roll", "action1",
                    "ended_by", "turn"}
        missing = sorted(required - set(data))
        if missing:
            raise ParseError(f"game state lacks field(s): {', '.join(missing)}")
        unknown = sorted(str(k) for k in data if k not in required)
        if unknown:
            raise ParseError(f"unknown game state field(s): {', '.join(unknown)}")
        ruleset = Ruleset.from_json(data["ruleset"])
        sheets_raw, closed_raw = data["sheets"], data["closed"]
        if not isinstance(sheets_raw, list):
            raise ParseError("state.sheets must be a list")
        if not isinstance(closed_raw, list) or not all(isinstance(c, str) for c in closed_raw):
            raise ParseError("state.closed must be a list of colour names")
        phase_raw = data["phase"]
        if phase_raw not in [p.value for p in Phase]:
            raise ParseError(f"state.phase must be one of {', '.join(p.value for p in Phase)}")
        action1_raw = data["action1"]
        if action1_raw is not None and not isinstance(action1_raw, list):
            raise ParseError("state.action1 must be a list or null")
        for name in ("active", "turn"):
            if not _is_int(data[name]):
                raise ParseError(f"state.{name} must be a whole number")
        ended_by = data["ended_by"]
        if ended_by is not None and not isinstance(ended_by, str):
            raise ParseError("state.ended_by must be a rule id or null")
        sheets = tuple(sheet_from_json(s) for s in sheets_raw)
        faces, top = ((sheets[0].layout.faces, sheets[0].layout.top_number) if sheets
                      else (6, 12))
        return cls(
            ruleset=ruleset,
            sheets=sheets,
            active=data["active"],
            closed=frozenset(Colour.parse(c) for c in closed_raw),
            phase=Phase(phase_raw),
            roll=roll_from_json(data["roll"], faces) if data["roll"] is not None else None,
            action1=(tuple(mark_from_json(m, top) for m in action1_raw)
                     if action1_raw is not None else None),
            ended_by=ended_by,
            turn=data["turn"],
        )

    # -- drawings (issue 35) ------------------------------------------------------------------
    def to_svg(self, player: int | None = None) -> str:
        """Every sheet (or only ``player``'s) drawn as SVG with the closed colours and the
        roll of the turn (:func:`qwixx_math.svg.state_svg`)."""
        from .svg import state_svg

        return state_svg(self, player)

    def to_text(self) -> str:
        """The turn, the phase, the closed colours and the roll, then every sheet drawn as
        text (:func:`qwixx_math.svg.sheet_text`)."""
        from .svg import sheet_text

        closed = ",".join(c.letter for c in COLOURS if c in self.closed) or "-"
        lines = [f"turn {self.turn + 1}, {self.phase.value}, closed {closed}"
                 + (f", roll {format_roll(self.roll)}" if self.roll is not None else "")]
        for i, sheet in enumerate(self.sheets):
            lines.append(f"player {i}{' (active)' if i == self.active else ''}")
            lines.append(sheet_text(sheet, closed=self.closed))
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        """Jupyter shows the game as a picture of its sheets."""
        return self.to_svg()


def _slot_setter(name: str) -> Any:
    return getattr(GameState, name).__set__


(_SET_RULESET, _SET_SHEETS, _SET_ACTIVE, _SET_CLOSED, _SET_PHASE, _SET_ROLL, _SET_ACTION1,
 _SET_ENDED_BY, _SET_TURN) = (_slot_setter(f.name) for f in fields(GameState))
_SET_PLAN_A1, _SET_PLAN_A2 = (getattr(TurnPlan, f.name).__set__ for f in fields(TurnPlan))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def closes(layout: SheetLayout, mark: Mark) -> bool:
    """Whether ``mark`` is its row's last number on ``layout`` (R8), or one of its two lock
    numbers on Longo (LG2)."""
    if isinstance(mark, BonusMark):  # a bonus row never closes (BP6, BP8)
        return False
    if layout is OFFICIAL:
        return mark.closes
    return mark.crosses and not mark.second and layout.closes(mark.colour, mark.number)




def _colours_word(n: int) -> str:
    return {1: "a colour is", 2: "two colours are", 3: "three colours are",
            4: "four colours are"}.get(n, f"{n} colours are")


def _penalties_word(n: int) -> str:
    return {1: "one penalty", 4: "four penalties"}.get(n, f"{n} penalties")


def _check_roll_dice(roll: Roll, closed: frozenset[Colour],
                     layout: SheetLayout = OFFICIAL) -> None:
    if roll.faces > layout.faces and max(
            [*roll.white, *(d for d in roll.coloured if d is not None)]) > layout.faces:
        raise IllegalMoveError(
            "LG1", f"layout {layout.name} is played with {layout.faces}-sided dice; this roll "
                   f"of {roll.faces}-sided dice shows more ({format_roll(roll)})")
    c = roll.coloured
    if (c[0] is None) is (_RED in closed) and (c[1] is None) is (_YELLOW in closed) \
            and (c[2] is None) is (_GREEN in closed) and (c[3] is None) is (_BLUE in closed) \
            and layout.rows == len(COLOURS):
        return  # the common case: the dice of the open colours, and only those
    if layout.rows < len(COLOURS):  # a colour that locks no row has no die
        for colour, die in zip(COLOURS, roll.coloured, strict=True):
            if die is not None and layout.row_of[colour.index] < 0:
                raise IllegalMoveError(
                    "R4", f"layout {layout.name} has no {colour.value} row, so there is no "
                          f"{colour.value} die ({format_roll(roll)})")
        closed = closed | frozenset(COLOURS) - frozenset(layout.locks)
    for colour, die in zip(COLOURS, roll.coloured, strict=True):
        if die is None and colour not in closed:
            raise IllegalMoveError(
                "R4", f"the {colour.value} die is in play and must be rolled ({format_roll(roll)})")
        if die is not None and colour in closed:
            raise IllegalMoveError(
                "R9", f"{colour.value} is closed; its die left play and cannot be rolled "
                      f"({format_roll(roll)})")


def new_game(players: int | None = None, ruleset: Ruleset | None = None,
             first: int = 0, layout: SheetLayout | str = OFFICIAL) -> GameState:
    """A game at its start: empty sheets of ``layout`` (a SheetLayout or a layout name,
    by default the official sheet), player ``first`` to roll.

    >>> new_game(3).players
    3
    >>> new_game(1, layout="mixx-a").layout.name
    'mixx-a'
    """
    from .layouts import layout_named

    layout = layout_named(layout)
    if ruleset is None:
        ruleset = Ruleset(players=2 if players is None else players)
    elif not isinstance(ruleset, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {type(ruleset).__name__}")
    elif players is not None and players != ruleset.players:
        raise ParseError(f"players={players} contradicts ruleset.players={ruleset.players}")
    return GameState(ruleset, (Sheet.empty(layout),) * ruleset.players, active=first)


# -- legal moves ----------------------------------------------------------------------------------

def roll_for(state: GameState, roll: Roll | None) -> tuple[GameState, Roll]:
    """The state in phase ACTION1 for ``roll`` (or the state's own roll).

    Without a roll, a state in another phase raises the error
    :func:`legal_action2` raises for a state not in the ACTION2 phase."""
    _require_state(state)
    if roll is not None:
        return state.with_roll(roll), roll
    state._expect(Phase.ACTION1, "list action-1 moves", "; give the roll")
    assert state.roll is not None
    return state, state.roll




def _require_state(state: object) -> None:
    if not isinstance(state, GameState):
        raise ParseError(f"expected a GameState, not {type(state).__name__}")


def legal_action1(state: GameState, player: int, roll: Roll | None = None) -> tuple[Mark, ...]:
    """Player ``player``'s legal action-1 marks for ``roll``, sorted (R5, R7-R9).

    Each is legal on its own; under the dialect switches ``simultaneous_close=False``
    and ``end_check=sequential`` another player's earlier choice can still forbid
    one (:meth:`GameState.with_action1` checks that).
    """
    if roll is None and state.__class__ is GameState and state.phase is Phase.ACTION1:
        roll = state.roll  # the common case, without a call
        assert roll is not None
    else:
        state, roll = roll_for(state, roll)
    sheets = state.sheets
    if not (player.__class__ is int or _is_int(player)) or not 0 <= player < len(sheets):
        raise ParseError(f"player {player!r} does not exist")
    sheet = sheets[player]
    layout = sheet.layout
    lister = _ACTION1_LISTERS.get(layout) or _action1_lister(layout)
    return lister(sheet, roll.white[0] + roll.white[1], state.closed, state.ruleset)


#: A layout's way of listing the legal action-1 marks: (sheet, white sum, closed colours,
#: ruleset) -> the marks, sorted (the body of :func:`legal_action1`).
_Action1Lister = Callable[[Sheet, int, frozenset[Colour], Ruleset], tuple[Mark, ...]]


def _official_action1(sheet: Sheet, white_sum: int, closed: frozenset[Colour],
                      ruleset: Ruleset) -> tuple[Mark, ...]:
    masks = sheet.masks
    marks = []
    for row, bit, colour, mark in _ACTION1[white_sum]:
        if ALLOWED[masks[row]] & bit and colour not in closed:
            marks.append(mark)
    return tuple(marks)


_ACTION1_LISTERS: dict[SheetLayout, _Action1Lister] = {OFFICIAL: _official_action1}


def _action1_lister(layout: SheetLayout) -> _Action1Lister:
    """How :func:`legal_action1` lists ``layout``'s action-1 marks, chosen once per layout:
    the white sum in each open row that allows it (R5, R7-R9, from a lookup table), then
    Big Points' bonus cells (BP2), X-Change's exchanges (XC1) or Longo's lucky crosses."""
    if layout.second_crosses:
        lister = _da_lister(layout)
    else:
        table = _action1_for(layout)
        allowed = layout.allowed
        bonus_cells = big_points.bonus_cells_action1

        # (a loop, not a comprehension: the lists are short, and a comprehension is a
        # call of its own)
        def plain(sheet: Sheet, white_sum: int, closed: frozenset[Colour],
                  ruleset: Ruleset) -> tuple[Mark, ...]:
            masks = sheet.masks
            marks = []
            for row, bit, colour, mark in table[white_sum]:
                if allowed[row][masks[row]] & bit and colour not in closed:
                    marks.append(mark)
            return tuple(marks)

        def bonus(sheet: Sheet, white_sum: int, closed: frozenset[Colour],
                  ruleset: Ruleset) -> tuple[Mark, ...]:
            marks = plain(sheet, white_sum, closed, ruleset)
            # Big Points: the bonus cells of the white sum after (BP2)
            crosses = bonus_cells(sheet, white_sum)
            return marks + crosses if crosses else marks

        # the last field of the track whose pair holds each white sum (-1: none): a sheet
        # that used it, or a field right of it, has no exchange left for that sum (XC2)
        fields = _exchange_for(layout)[1]
        top = tuple(max((k for k, _ in spends), default=-1) for spends in fields)

        def exchange(sheet: Sheet, white_sum: int, closed: frozenset[Colour],
                     ruleset: Ruleset) -> tuple[Mark, ...]:
            marks = plain(sheet, white_sum, closed, ruleset)
            used = sheet.used_fields
            if used and used[-1] >= top[white_sum]:
                return marks
            # exchange marks after the plain one of the same cell (XC1)
            return _with_exchanges(ruleset, sheet, closed, white_sum, marks)

        def lucky(sheet: Sheet, white_sum: int, closed: frozenset[Colour],
                  ruleset: Ruleset) -> tuple[Mark, ...]:
            marks = plain(sheet, white_sum, closed, ruleset)
            return marks + _lucky_action1(ruleset, sheet, closed, white_sum, marks)

        lister = (bonus if layout.bonus_rows else exchange if layout.exchange
                  else lucky if layout.lucky else plain)
    _ACTION1_LISTERS[layout] = lister
    return lister


def why_not_exchange(sheet: Sheet, mark: Mark, white_sum: int,
                     ruleset: Ruleset) -> tuple[str, str] | None:
    """Why the X-Change track of ``sheet`` does not allow the exchange ``mark``
    (``mark.field`` set) of ``white_sum``, as ``(rule id, reason)``, or None: the field
    exists (XC1), lies right of the last field used (XC2), its pair holds the white sum
    and ``mark`` crosses the pair's other number (XC1); a field spent alone needs the
    Option ``xc_field_without_cross`` (XC4).  Whether the row takes the cross is R7-R9's
    business, as for any action-1 mark."""
    _require_exchange_args(sheet, white_sum, ruleset)
    if not isinstance(mark, Mark):
        raise ParseError(f"mark must be a Mark, not {mark!r}")
    track = sheet.layout.exchange
    k = mark.field
    if k is None:
        return None
    if not track:
        return ("XC1", f"layout {sheet.layout.name} has no X-Change track; "
                       f"{mark.describe()} exchanges nothing")
    if k >= len(track):
        return ("XC1", f"the X-Change track has fields 0 to {len(track) - 1}, not {k}")
    if k <= sheet.last_field:
        return ("XC2", f"X-Change field {k} is not right of field {sheet.last_field}, the "
                       "last one used; fields are used left to right, each once, and "
                       "skipped fields are lost")
    a, b = track[k]
    if white_sum not in (a, b):
        return ("XC1", f"X-Change field {k} exchanges {a} and {b}; the white sum "
                       f"{white_sum} is neither")
    if not mark.crosses:
        if not ruleset.xc_field_without_cross:
            return ("XC4", f"X-Change field {k} is crossed only together with a cross of "
                           f"{b if a == white_sum else a} (xc_field_without_cross=False)")
        return None
    other = b if a == white_sum else a
    if mark.number != other:
        return ("XC1", f"X-Change field {k} exchanges the white sum {white_sum} for "
                       f"{other}, not {mark.number}")
    return None


def _require_exchange_args(sheet: object, white_sum: object, ruleset: object) -> None:
    if not isinstance(sheet, Sheet):
        raise ParseError(f"sheet must be a Sheet, not {type(sheet).__name__}")
    if not (_is_int(white_sum) and 0 <= white_sum <= 2 * max(FACES)):  # type: ignore[operator]
        raise ParseError(f"white_sum must be a sum of two dice, not {white_sum!r}")
    if not isinstance(ruleset, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {type(ruleset).__name__}")


def exchange_action1(sheet: Sheet, white_sum: int, closed: frozenset[Colour],
                     ruleset: Ruleset) -> tuple[Mark, ...]:
    """The exchange marks (XC1-XC4) ``sheet`` may make in action 1 for ``white_sum``,
    the colours ``closed`` out of reach (R9): for each field right of the last one used
    whose pair holds the white sum, the pair's other number in every row R7 and R8
    allow; with the Option ``xc_field_without_cross``, each such field spent alone too
    (:meth:`Mark.spend`, after every cross).  Sorted by cell, then field."""
    _require_exchange_args(sheet, white_sum, ruleset)
    closed = colour_set(closed, "closed")
    found, spends = _exchanges(ruleset, sheet, closed, white_sum)
    return tuple([m for _, m in found] + spends)


def legal_action2(state: GameState) -> tuple[Mark, ...]:
    """The active player's legal action-2 marks in a state in the ``ACTION2`` phase, sorted.

    A state in another phase raises :class:`IllegalMoveError` (R4, or the rule that ended
    the game), as :func:`legal_action1` does without a roll.
    """
    if state.__class__ is not GameState or state.phase is not Phase.ACTION2:
        _require_state(state)
        state._expect(Phase.ACTION2, "list action-2 marks")
    return _action2_marks(state)


def _action2_marks(state: GameState) -> tuple[Mark, ...]:
    """:func:`legal_action2` of a state in the ACTION2 phase, without its checks."""
    roll = state.roll
    assert roll is not None
    sheet = state.sheets[state.active]
    masks = sheet.masks
    gone = state.closed if state.ruleset.die_removal is DieRemoval.IMMEDIATE else frozenset()
    layout = sheet.layout
    if layout.second_crosses:
        return _da_action2(state, sheet, roll, gone)
    if _OWN_COLOURS.get(layout) or _own_colours(layout):
        marks = tuple(_own_colour_action2(layout, masks, roll, gone))
    else:
        marks = _layout_action2(sheet, roll, gone)
    if layout.bonus_rows:  # Big Points: the bonus crosses after (BP3)
        crosses = big_points.bonus_action2(sheet, roll, gone, state.ruleset)
        return marks + crosses if crosses else marks
    return marks


#: Whether every cell of each row of a layout has its row's colour (_own_colours).
_OWN_COLOURS: dict[SheetLayout, bool] = {OFFICIAL: True}


def _own_colours(layout: SheetLayout) -> bool:
    """Whether every cell of ``layout`` has the colour of its row's lock (the official
    sheet and most pads; not Mixx A or Longo): then white + the die of a colour marks
    only in that colour's row, and :func:`_own_colour_action2` lists action 2."""
    own = _OWN_COLOURS.get(layout)
    if own is None:
        own = _OWN_COLOURS[layout] = all(
            cell is lock for lock, cells in zip(layout.locks, layout.colours, strict=True)
            for cell in cells)
    return own


def _own_colour_action2(layout: SheetLayout, masks: Sequence[int], roll: Roll,
                        gone: frozenset[Colour], seconds: Sheet | None = None,
                        first: Mark | None = None) -> list[Mark]:
    """:func:`legal_action2` on a layout whose cells have their row's colour
    (:func:`_own_colours`), row ``masks``, the dice of ``gone`` out of use: white + the die
    of each colour in play in its own row (R6-R8), by row and left to right (a row shows a
    number at most once, so two different sums are two different cells).

    ``seconds``, a Double A sheet (the Double A pad, :func:`_da_action2`): each row's
    second cross too, under its rightmost cross if white + the row's die makes that
    number, not doubled yet, the row not closed by this player and not the number
    ``first`` crossed in this action 1 (DA1, DA3, DA4); it comes before the row's new
    numbers, all right of it; and the lock counts the second crosses (DA5)."""
    w1, w2 = roll.white
    coloured = roll.coloured
    allowed, lock_bits = layout.allowed, layout.lock_bits
    by_whites = _OWN_CELLS.get(layout) or _own_cells(layout)
    cells = by_whites[w1 * (layout.faces + 1) + w2]
    out: list[Mark] = []
    if seconds is not None:
        doubled = seconds.seconds
        rightmost = _RIGHTMOST.get(layout) or _rightmost(layout)
        count, threshold = layout.count, layout.lock_threshold
    for ci, c in _INDEXED_COLOURS:
        d = coloured[ci]
        if d is None or c in gone:
            continue
        mask = masks[ci]
        open_ = allowed[ci][mask]
        if seconds is not None:
            top, number = rightmost[ci][mask]
            if top:  # the row has crosses and this player has not closed it
                extra = doubled[ci]
                if not extra & top and (number == w1 + d or number == w2 + d) and not (
                        first is not None and first.colour is c and first.number == number):
                    out.append(SECOND_MARKS[ci][number])
                if extra and count[ci][mask] + extra.bit_count() >= threshold:
                    open_ |= lock_bits[ci]  # Sheet.open_mask: the lock reached (DA5)
        for bit, mark in cells[ci][d]:
            if open_ & bit:
                out.append(mark)
    return out


_INDEXED_COLOURS = tuple((c.index, c) for c in COLOURS)
#: [colour index][row mask]: (bit, number) of the row's rightmost cross, (0, 0) for an
#: empty row or one whose lock is crossed (a Double A second cross goes there, DA1, DA3).
_RIGHTMOST: dict[SheetLayout, tuple[tuple[tuple[int, int], ...], ...]] = {}


def _rightmost(layout: SheetLayout) -> tuple[tuple[tuple[int, int], ...], ...]:
    table = tuple(
        tuple((1 << mask.bit_length() >> 1,
               layout.numbers[layout.row_of[ci]][mask.bit_length() - 1])
              if mask and not mask & layout.lock_bits[ci] else (0, 0)
              for mask in range(len(layout.allowed[ci])))
        for ci in range(len(COLOURS)))
    _RIGHTMOST[layout] = table
    return table
_OwnCells = tuple[tuple[tuple[tuple[tuple[int, Mark], ...], ...], ...], ...]
#: Per layout whose cells have their row's colour, for :func:`_own_colour_action2`.
_OWN_CELLS: dict[SheetLayout, _OwnCells] = {}


def _own_cells(layout: SheetLayout) -> _OwnCells:
    """[w1 * (faces + 1) + w2][colour index][die d]: (position bit, mark) of the cells
    the row of that colour shows for w1 + d and w2 + d, left to right, each once (R6; a
    row shows a number at most once, so two different sums are two different cells)."""
    faces = layout.faces
    table = []
    for w1 in range(faces + 1):
        for w2 in range(faces + 1):
            per_colour = []
            for c in COLOURS:
                ci = c.index
                per_die = []
                for d in range(faces + 1):
                    sums = {w1 + d, w2 + d} if w1 and w2 and d else set()
                    found = sorted((layout.pos[ci][n], n) for n in sums
                                   if n < len(layout.pos[ci]) and layout.pos[ci][n] >= 0)
                    per_die.append(tuple((1 << p, MARKS[ci][n]) for p, n in found))
                per_colour.append(tuple(per_die))
            table.append(tuple(per_colour))
    _OWN_CELLS[layout] = out = tuple(table)
    return out


def _layout_action2(sheet: Sheet, roll: Roll, gone: frozenset[Colour]) -> tuple[Mark, ...]:
    """:func:`legal_action2` on any layout: white + the die of colour ``c`` in a cell of
    colour ``c`` of any row still open (its lock colour's die rolled, not ``gone``),
    the die itself in play and not ``gone``; R7 and R8 per row (as :func:`die_options`,
    from a lookup table)."""
    masks = sheet.masks
    allowed = sheet.layout.allowed
    found = [(key, mark) for key, ri, bit, mark in _action2_cells(sheet.layout, roll, gone)
             if allowed[ri][masks[ri]] & bit]
    found.sort(key=_first)
    return tuple([mark for _, mark in found])


def _action2_cells(layout: SheetLayout, roll: Roll, gone: frozenset[Colour]
                   ) -> Iterator[tuple[int, int, int, Mark]]:
    """Every cell that white + the die of colour ``c`` names in a cell of colour ``c``,
    that die in play and not ``gone`` (R6, R9), in a row still rolled and not ``gone``:
    ``(sort key, row index, cell bit, mark)`` from :func:`_action2_for`, before R7/R8."""
    coloured = roll.coloured
    w1, w2 = roll.white
    table = _action2_for(layout)
    for c in COLOURS:
        d = coloured[c.index]
        if d is None or c in gone:
            continue
        cells = table[c.index]
        for n in (w1 + d,) if w1 == w2 else (w1 + d, w2 + d):
            for key, ri, bit, row, mark in cells[n]:
                if coloured[ri] is not None and row not in gone:
                    yield key, ri, bit, mark


def second_cross_options(sheet: Sheet, numbers: Iterable[int],
                         rows: Iterable[Colour]) -> tuple[Mark, ...]:
    """The second crosses (Double A, DA1, DA3) ``sheet`` allows on one of ``numbers`` in
    the ``rows`` given: each row's rightmost crossed number, not doubled yet, the row not
    closed by this player; by row.  None on a sheet without second-cross boxes."""
    layout = sheet.layout
    if not layout.second_crosses:
        return ()
    wanted = set(numbers)
    out: list[Mark] = []
    for colour in rows:
        ci = colour.index
        mask = sheet.masks[ci]
        if not mask or mask & layout.lock_bits[ci]:
            continue
        last = mask.bit_length() - 1
        number = layout.numbers[layout.row_of[ci]][last]
        if number in wanted and not sheet.seconds[ci] >> last & 1:
            out.append(Mark(colour, number, second=True))
    return tuple(out)


def _da_lister(layout: SheetLayout) -> _Action1Lister:
    """:func:`legal_action1` on a Double A layout: the white sum as a new number (R5, R7,
    the lock counting second crosses, DA5) or as a second cross (DA1), open rows only."""
    lock_bits, allowed = layout.lock_bits, layout.allowed
    count, threshold = layout.count, layout.lock_threshold
    # each sum's cells in colour order, which is the sort order (row, position, a plain
    # cross before a second one): (row, bit, (position, colour, mark, second cross,
    # whether the cell is the row's lock))
    table = tuple(
        tuple((row, bit, (bit.bit_length() - 1, colour, mark, SECOND_MARKS[row][s],
                          bool(bit & lock_bits[row])))
              for row, bit, colour, mark in sorted(cells))
        for s, cells in enumerate(_action1_for(layout)))
    # [row][mask]: the cells that may take a cross (plain, or the lock with the second
    # crosses counted) or a second cross: the open ones, the rightmost cross and the lock
    maybe = tuple(tuple(open_ | (1 << mask.bit_length() >> 1) | lock_bits[row]
                        for mask, open_ in enumerate(allowed[row]))
                  for row in range(len(COLOURS)))

    def double_a(sheet: Sheet, white_sum: int, closed: frozenset[Colour],
                 ruleset: Ruleset) -> tuple[Mark, ...]:
        masks, seconds = sheet.masks, sheet.seconds
        marks: list[Mark] = []
        # a row shows the sum at most once: its plain cross if open (R7/R8, or the lock
        # reached with the second crosses counted, DA5), else its second cross if the sum
        # is the row's rightmost cross, not doubled, the row not closed (DA1, DA3;
        # second_cross_options)
        for row, bit, cell in table[white_sum]:
            mask = masks[row]
            if not maybe[row][mask] & bit:
                continue
            position, colour, mark, second, is_lock = cell
            if colour in closed:
                continue
            if allowed[row][mask] & bit:
                marks.append(mark)
            elif mask >> position == 1:  # the row's rightmost cross
                if not seconds[row] & bit and not mask & lock_bits[row]:
                    marks.append(second)
            elif is_lock and seconds[row] and not mask & lock_bits[row] \
                    and count[row][mask] + seconds[row].bit_count() >= threshold:
                marks.append(mark)
        return tuple(marks)

    return double_a


def _da_action2(state: GameState, sheet: Sheet, roll: Roll, gone: frozenset[Colour]
                ) -> tuple[Mark, ...]:
    """:func:`legal_action2` on a Double A sheet: white + the die of a cell's colour as a
    new number (R6, R7, DA5) or as a second cross (DA1, DA4; on the Double A pad the
    cell's colour is the row's), that die and the row's in play."""
    layout = sheet.layout
    if _own_colours(layout):  # the Double A pad
        assert state.action1 is not None
        first = state.action1[state.active]  # DA4: not the number crossed in action 1
        if state.ruleset.da_same_turn or first is None or first.second:
            first = None
        return tuple(_own_colour_action2(layout, sheet.masks, roll, gone, sheet, first))
    coloured = roll.coloured
    w1, w2 = roll.white
    masks, seconds, lock_bits = sheet.masks, sheet.seconds, layout.lock_bits
    allowed, count, threshold = layout.allowed, layout.count, layout.lock_threshold
    # (sort key, mark): by row, position, a cell's plain cross before its second cross
    found: list[tuple[int, Mark]] = []
    for key, ri, bit, mark in _action2_cells(layout, roll, gone):
        mask = masks[ri]
        lock = lock_bits[ri]
        if allowed[ri][mask] & bit or (  # Sheet.open_mask, inline (DA5)
                bit & lock and seconds[ri] and not mask & lock
                and count[ri][mask] + seconds[ri].bit_count() >= threshold):
            found.append((2 * key, mark))
    # the second crosses: each row's rightmost cross, not doubled, the row not closed by
    # this player (DA1, DA3) nor in the game with its die gone, made by white + the die
    # of its cell (R6, R9), and not the number crossed in this action 1 under
    # da_same_turn=False (DA4): GameState._why_not_action2's checks, without the words
    assert state.action1 is not None
    first = state.action1[state.active]
    if state.ruleset.da_same_turn or first is None or first.second:
        first = None
    for colour in layout.locks:
        ci = colour.index
        mask = masks[ci]
        if not mask or mask & lock_bits[ci] or coloured[ci] is None or colour in gone:
            continue
        last = mask.bit_length() - 1
        if seconds[ci] >> last & 1:
            continue
        number = layout.numbers[layout.row_of[ci]][last]
        die = layout.cell[ci][number]
        assert die is not None
        face = coloured[die.index]
        if face is None or die in gone or (number != w1 + face and number != w2 + face):
            continue
        if first is not None and first.colour is colour and first.number == number:
            continue
        found.append((2 * (ci * 64 + last) + 1, SECOND_MARKS[ci][number]))
    if len(found) > 1:
        found.sort(key=_first)
    return tuple([mark for _, mark in found])


def _first(item: tuple[int, Mark]) -> int:
    return item[0]


def die_options(sheet: Sheet, die: Colour, face: int, white: tuple[int, int],
                rows: frozenset[Colour]) -> tuple[Mark, ...]:
    """The action-2 marks white + ``die`` (showing ``face``) offers on ``sheet`` (R6-R8):
    the cells of the die's colour showing a white + ``face`` sum in the open ``rows``
    that R7 and R8 allow.  Different dice offer disjoint marks (a cell has one colour)."""
    layout = sheet.layout
    masks = sheet.masks
    allowed, pos = layout.allowed, layout.pos
    out: list[Mark] = []
    for n in {white[0] + face, white[1] + face}:
        for row in layout.action2_rows(die, n):
            ri = row.index
            if row in rows and allowed[ri][masks[ri]] >> pos[ri][n] & 1:
                out.append(MARKS[ri][n])
    return tuple(out)




def lucky_cells(sheet: Sheet, closed: frozenset[Colour],
                candidates: LuckyCandidates = LuckyCandidates.OPEN_ROWS) -> tuple[Mark, ...]:
    """The cells a lucky cross may take on ``sheet`` (VARIANTS.md LG3, LG5, V9), ``closed``
    the colours closed as action 1 began (V5): the next cell of each row with the fewest
    crosses, in row order.

    The candidates are the rows not in ``closed`` (``open_rows``: a tied row without a
    legal next cell offers nothing) or only those with a legal next cell
    (``open_with_next_cell``).  A row's crosses are its crossed cells (a row this player
    locked earlier in the same action 1 is still open, without its lock box, and has no
    next cell).  The next cell is the one right of the row's last cross, if R7 and LG2
    allow it.  Sheets without lucky numbers are read the same way (the caller checks the
    white sum).

    >>> from qwixx_math.notation import parse_sheet
    >>> sheet = parse_sheet("longo:5,13|r:2,4,5,7,9,10/y:6,9/g:16,15/b:16,12,8")
    >>> [str(m) for m in lucky_cells(sheet, frozenset())]     # VARIANTS.md §8.3, example 1
    ['y10', 'g14']
    """
    layout = sheet.layout
    rows: list[tuple[int, int, int]] = []  # (colour index, crosses, next position or -1)
    for colour in layout.locks:
        if colour in closed:
            continue
        ci = colour.index
        mask = sheet.masks[ci]
        locked = mask & layout.lock_bits[ci] != 0
        nxt = mask.bit_length()
        if locked or not layout.allowed[ci][mask] >> nxt & 1:
            nxt = -1
        rows.append((ci, layout.count[ci][mask] - locked, nxt))
    if candidates is LuckyCandidates.OPEN_WITH_NEXT_CELL:
        rows = [row for row in rows if row[2] >= 0]
    if not rows:
        return ()
    fewest = min([crosses for _, crosses, _ in rows])
    return tuple([MARKS[ci][layout.numbers[layout.row_of[ci]][nxt]]
                  for ci, crosses, nxt in rows if crosses == fewest and nxt >= 0])


def why_not_lucky(ruleset: Ruleset, sheet: Sheet, closed: frozenset[Colour], white_sum: int,
                  mark: Mark) -> tuple[str, str] | None:
    """None when ``mark`` (a :class:`~qwixx_math.model.LuckyMark`, or the plain mark of its
    cell) is a legal lucky cross on ``sheet`` for the white sum ``white_sum``, ``closed``
    the colours closed as action 1 began; else ``(rule id, reason)`` naming LG3, LG4 or
    LG5.  Under ``lg_lucky_mode = additional`` the sheet is the one after the mark's
    ``first`` cross (:meth:`GameState.with_action1` passes it)."""
    layout = sheet.layout
    where = f"{mark.colour.value} {mark.number}"
    if not layout.lucky:
        return ("LG3", f"layout {layout.name} has no lucky numbers, so no lucky cross ({where})")
    if white_sum not in layout.lucky:
        pair = " and ".join(str(n) for n in layout.lucky)
        return ("LG3", f"the white sum {white_sum} is not a lucky number of the sheet ({pair}), "
                       f"so no lucky cross ({where})")
    if isinstance(mark, LuckyMark) and mark.first is not None \
            and ruleset.lg_lucky_mode is LuckyMode.INSTEAD:
        return ("LG4", f"the lucky cross is taken instead of the white-sum cross "
                       f"(lg_lucky_mode=instead), not after {mark.first.describe()}")
    cells = lucky_cells(sheet, closed, ruleset.lg_lucky_candidates)
    plain = MARKS[mark.colour.index][mark.number]
    if plain in cells:
        return None
    if mark.colour in closed:
        return ("R9", f"{mark.colour.value} is closed; nobody may mark it any more")
    if not cells:
        return ("LG5", f"no row with the fewest crosses has a legal next cell "
                       f"(lg_lucky_candidates={ruleset.lg_lucky_candidates.value}): no lucky "
                       f"cross ({where})")
    if mark.colour in {m.colour for m in cells}:
        return ("LG3", f"the lucky cross takes the next cell of its row, "
                       f"{', '.join(m.describe() for m in cells if m.colour is mark.colour)}, "
                       f"not {mark.number}")
    options = ", ".join(m.describe() for m in cells)
    return ("LG3", f"{mark.colour.value} is not a row with the fewest crosses that has a next "
                   f"cell; the lucky cross may take {options}, not {where}")


def _lucky_action1(ruleset: Ruleset, sheet: Sheet, closed: frozenset[Colour], white_sum: int,
                   marks: tuple[Mark, ...]) -> tuple[Mark, ...]:
    """The lucky crosses :func:`legal_action1` adds to the white-sum ``marks`` on a sheet
    with lucky numbers (LG3, LG4): none unless the white sum is lucky; the lucky cells
    alone, and under ``additional`` each white-sum mark followed by a lucky cell of the
    sheet it leaves."""
    if white_sum not in sheet.layout.lucky:
        return ()
    out: list[Mark] = [_LUCKY_MARKS[m.colour.index][m.number] or _lucky_mark(m)
                       for m in lucky_cells(sheet, closed, ruleset.lg_lucky_candidates)]
    if ruleset.lg_lucky_mode is LuckyMode.ADDITIONAL:
        layout = sheet.layout
        for first in marks:
            after = sheet.marked(first.colour.index, layout.pos[first.colour.index][first.number])
            out.extend(LuckyMark(m.colour, m.number, first=first) for m in lucky_cells(
                after, closed, ruleset.lg_lucky_candidates))
    return tuple(out)


#: The lucky cross of each cell (LuckyMark(colour, number)), made once: a mark is a value.
#: [colour index][number], None until first asked.
_LUCKY_MARKS: list[list[LuckyMark | None]] = [[None] * (2 * max(FACES) + 1) for _ in COLOURS]


def _lucky_mark(cell: Mark) -> LuckyMark:
    mark = _LUCKY_MARKS[cell.colour.index][cell.number] = LuckyMark(cell.colour, cell.number)
    return mark


def _check_lucky_on_sheet(sheet: Sheet, player: int, mark: LuckyMark, white_sum: int) -> None:
    """An action-2 state's lucky action-1 cross: its white sum is lucky and its cell is
    crossed on the player's sheet (LG3)."""
    layout = sheet.layout
    if white_sum not in layout.lucky:
        raise InvalidStateError(
            "LG3", f"player {player}'s action-1 lucky cross {mark} needs a lucky white sum, "
                   f"not {white_sum}")
    pos = layout.pos[mark.colour.index][mark.number]
    if pos < 0 or not sheet.masks[mark.colour.index] >> pos & 1:
        raise InvalidStateError(
            "LG3", f"player {player}'s action-1 lucky cross {mark} is not on their sheet "
                   f"{format_sheet(sheet)}")


def _action1_marks(action1: Sequence[Mark | None]) -> list[Mark]:
    """Every cross of the action-1 choices: a lucky cross and the mark before it (LG4)."""
    out: list[Mark] = []
    for mark in action1:
        if isinstance(mark, LuckyMark):
            out.extend(mark.cells)
        elif mark is not None:
            out.append(mark)
    return out


def mark_key(layout: SheetLayout, mark: Mark | None) -> tuple[int, int, int]:
    """The order of marks on ``layout``: none first, then by row (red, yellow, green,
    blue) and left to right (on the official sheet, ``Mark.sort_key``'s order)."""
    if mark is None:
        return (0, 0, 0)
    if isinstance(mark, BonusMark):  # after every colour cell: RY, then GB (BP1)
        return (1, len(COLOURS) + 1 + mark.row, mark.column)
    if not mark.crosses:  # an X-Change field spent alone (XC4), after every cross
        return (1, len(COLOURS), mark.field or 0)
    return (1, mark.colour.index, layout.pos[mark.colour.index][mark.number])


def plan_key(layout: SheetLayout, plan: TurnPlan) -> tuple[tuple[int, int, int],
                                                            tuple[int, int, int]]:
    """The order of turn plans on ``layout`` (:meth:`TurnPlan.sort_key`'s, on the
    layout's positions): by action 1, then action 2, no mark first."""
    return (mark_key(layout, plan.action1), mark_key(layout, plan.action2))


def why_not_mark(state: GameState, player: int, colour: Colour | str,
                 number: int, field: int | None = None, *,
                 second: bool = False) -> tuple[str, str] | None:
    """None when ``player`` may mark ``number`` in ``colour``'s row now, else
    ``(rule id, reason)``.

    Unlike :meth:`Sheet.why_not`, this asks the game, closed colours included (R9):

    * before the roll (phase ``roll``): whether the sheet (R7, R8) and the closed
      colours allow the mark, i.e. whether some roll of the coming turn can offer it;
    * in the ``action1`` phase: also whether ``number`` is the white sum (R5);
    * in the ``action2`` phase: only the active player marks (R6), a number white +
      ``colour`` makes, with that colour's die still in play (R9);
    * once the game is over, nobody marks (the rule that ended it).

    ``field`` asks about an exchange on a Qwixx X-Change sheet (``r3@x2``, XC1-XC5): the
    track must allow it (:func:`why_not_exchange`; before the roll, whatever the white
    sum) and the row the cross.

    ``second=True`` asks about the second cross under ``number`` (Double A, DA1, DA3, DA4).
    """
    _require_state(state)
    if not (_is_int(player) and 0 <= player < len(state.sheets)):
        raise ParseError(f"player {player!r} does not exist")
    colour = Colour.of(colour)
    layout_position(state.sheets[0].layout, colour, number)  # R2: a number the row holds
    phase = state.phase
    if phase is Phase.OVER:
        return (state.ended_by or "R13", "the game is over; nobody marks any more")
    if phase is Phase.ACTION2:
        if player != state.active:
            return ("R6", f"only the active player (player {state.active}) marks in action 2")
        if field is not None:
            return state._why_not_action2(Mark(colour, number, field, second is True))
        return state._why_not_action2(Mark(colour, number, second=second is True))
    if field is not None:
        reason = _why_not_exchange_now(state, player,
                                       Mark(colour, number, field, second is True))
        if reason is not None:
            return reason
    elif phase is Phase.ACTION1:
        assert state.roll is not None
        if number != state.roll.white_sum:
            sheet = state.sheets[player]
            if state.roll.white_sum in sheet.layout.lucky:  # a lucky cross (LG3)
                return why_not_lucky(state.ruleset, sheet, state.closed, state.roll.white_sum,
                                     LuckyMark(colour, number))
            return ("R5", f"action 1 marks the white sum {state.roll.white_sum}, not {number}")
    if colour in state.closed:
        return ("R9", f"{colour.value} is closed; nobody may mark it any more")
    if second is True:
        return state.sheets[player].why_not_second(colour, number)
    return state.sheets[player].why_not(colour, number)


def _why_not_exchange_now(state: GameState, player: int, mark: Mark
                          ) -> tuple[str, str] | None:
    """:func:`why_not_exchange` for ``player`` in ``state`` (phase ROLL or ACTION1): before
    the roll, for a white sum the field's pair holds (either one that exchanges for
    ``mark.number``)."""
    sheet = state.sheets[player]
    if state.roll is not None:
        return why_not_exchange(sheet, mark, state.roll.white_sum, state.ruleset)
    track = sheet.layout.exchange
    k = mark.field
    if track and k is not None and k < len(track) and mark.number in track[k]:
        a, b = track[k]
        return why_not_exchange(sheet, mark, b if a == mark.number else a, state.ruleset)
    return why_not_exchange(sheet, mark, 0, state.ruleset)


def can_mark(state: GameState, player: int, colour: Colour | str, number: int,
             field: int | None = None) -> bool:
    """Whether ``player`` may mark ``number`` in ``colour``'s row now (see :func:`why_not_mark`).

    >>> from qwixx_math.notation import parse_sheet
    >>> game = GameState(Ruleset(2), (parse_sheet("r:2,3,4,5,6,12,lock"), parse_sheet("r:4")),
    ...                  closed=frozenset({Colour.RED}))
    >>> game.sheets[1].allows(Colour.RED, 9), can_mark(game, 1, "red", 9)
    (True, False)
    >>> why_not_mark(game, 1, "red", 9)
    ('R9', 'red is closed; nobody may mark it any more')
    """
    return why_not_mark(state, player, colour, number, field) is None


def action1_choices(state: GameState, others: Sequence[Mark | None] | None,
                    player: int | None = None) -> list[Mark | None]:
    """Every player's action-1 choice as ``others`` gives them (one entry per player;
    by default everybody passes), as a new list.

    The entry of ``player`` (default: the active player) is the one the caller
    chooses.  In the ACTION1 phase the other entries must be legal together
    (with ``player`` passing); an illegal one raises :class:`IllegalMoveError`
    naming the rule and the player."""
    n = len(state.sheets)
    if others is None:
        return [None] * n
    if isinstance(others, (str, bytes)) or not isinstance(others, Sequence) \
            or len(others) != n:
        raise ParseError(f"others needs one entry (a Mark or None) for each of {n} players, "
                         f"not {others!r}")
    choices = list(others)
    for i, mark in enumerate(choices):
        if mark is not None and not isinstance(mark, Mark):
            raise ParseError(f"others[{i}] must be a Mark or None, not {mark!r}")
    if state.phase is Phase.ACTION1 and any(m is not None for m in choices):
        check = list(choices)
        check[state.active if player is None else player] = None
        state.with_action1(check)
    return choices




def action1_outcomes(state: GameState, player: int, others: Sequence[Mark | None]
                     ) -> Iterator[tuple[Mark | None, GameState]]:
    """``player``'s action-1 choices in ``state`` (phase ACTION1): passing, then each of
    :func:`legal_action1`, with the state after everybody's action 1, the other players
    choosing as ``others`` says.  A choice that another player's choice forbids
    (dialect switches) is left out."""
    for a1 in (None, *legal_action1(state, player)):
        choices = list(others)
        choices[player] = a1
        try:
            after = state.with_action1(choices)
        except IllegalMoveError:
            continue
        yield a1, after




def _official_plan_key(plan: TurnPlan) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """:attr:`TurnPlan.sort_key` (the order of ``TurnPlan.__lt__``) of a legal plan, computed
    once per plan instead of twice per comparison."""
    a, b = plan.action1, plan.action2
    return ((0, 0, 0) if a is None else (1, a.colour.index, a.colour.positions[a.number]),
            (0, 0, 0) if b is None else (1, b.colour.index, b.colour.positions[b.number]))


def legal_plans(state: GameState, roll: Roll | None = None,
                others: Sequence[Mark | None] | None = None) -> tuple[TurnPlan, ...]:
    """Every legal turn plan of the active player, sorted (penalty ``-/-`` first).

    ``others`` gives the other players' action-1 choices (one entry per player,
    the active player's ignored); by default they all pass.  Distinct plans can
    lead to the same sheet (e.g. ``r8/g8`` and ``g8/r8``); see :func:`turn_outcomes`.
    """
    state, roll = roll_for(state, roll)
    layout = state.sheets[0].layout
    rs = state.ruleset
    if others is None and layout is OFFICIAL and not rs.action2_after_game_end \
            and rs.die_removal is DieRemoval.IMMEDIATE and rs.end_check is not EndCheck.END_OF_TURN:
        return _official_plans(state, roll)
    plans: list[TurnPlan] = []
    for a1, after in action1_outcomes(state, state.active, action1_choices(state, others)):
        plans.append(TurnPlan(a1, None))
        if after.phase is Phase.ACTION2:
            plans.extend(TurnPlan(a1, a2) for a2 in legal_action2(after))
    if layout is OFFICIAL:
        plans.sort(key=_official_plan_key)
    else:
        plans.sort(key=lambda plan: plan_key(layout, plan))
    return tuple(plans)


def _official_plans(state: GameState, roll: Roll) -> tuple[TurnPlan, ...]:
    """:func:`legal_plans` with the others passing, on the official sheet, the dice of
    closed colours removed at once and the game's end checked after action 1 (no action
    2 after it, R15): the general route's plans, straight from the tables (the tests
    compare the two).  Passing, then each legal white-sum mark (R5, R7-R9), each
    followed by nothing or a legal action 2 on the sheet it leaves, the colour it
    closes out of use (R9); a mark that closes the last colour needed ends the game
    (R14) and no action 2 follows."""
    sheet = state.sheets[state.active]
    masks = sheet.masks
    closed = state.closed
    make = _plan
    plans = [make(None, None)]
    plans.extend(make(None, m) for m in _own_colour_action2(OFFICIAL, masks, roll, closed))
    for row, bit, colour, mark in _ACTION1[roll.white[0] + roll.white[1]]:
        if not ALLOWED[masks[row]] & bit or colour in closed:
            continue
        plans.append(make(mark, None))
        shut = closed
        if bit == _LAST_BIT:
            shut = closed | {colour}
            if len(shut) >= COLOURS_TO_END:
                continue
        after = list(masks)
        after[row] |= bit
        plans.extend(make(mark, m) for m in _own_colour_action2(OFFICIAL, after, roll, shut))
    plans.sort(key=_official_plan_key)
    return tuple(plans)


def _plan(action1: Mark | None, action2: Mark | None) -> TurnPlan:
    """A TurnPlan of legal marks, built without the checks of its constructor."""
    plan = object.__new__(TurnPlan)
    _SET_PLAN_A1(plan, action1)
    _SET_PLAN_A2(plan, action2)
    return plan


def turn_outcomes(state: GameState, roll: Roll | None = None,
                  others: Sequence[Mark | None] | None = None) -> dict[GameState, list[TurnPlan]]:
    """The distinct states the active player's legal plans lead to, with the plans to each."""
    state, roll = roll_for(state, roll)
    out: dict[GameState, list[TurnPlan]] = {}
    base = action1_choices(state, others)
    for plan in legal_plans(state, None, base):
        choices = list(base)
        choices[state.active] = plan.action1
        after = state.with_action1(choices)
        if after.phase is not Phase.OVER:
            after = after.with_action2(plan.action2)
        out.setdefault(after, []).append(plan)
    return out


#: A player's choice in a random game (:data:`qwixx_math.record.Chooser`): (state in the
#: ACTION1 or ACTION2 phase, player, legal marks, rng) -> the chosen mark or None.
RandomChooser = Callable[[GameState, int, Sequence[Mark], random.Random], Mark | None]


def uniform_chooser(state: GameState, player: int, legal: Sequence[Mark],
                    rng: random.Random) -> Mark | None:
    """Pick uniformly among passing and every legal mark (the default chooser of
    :func:`~qwixx_math.record.random_game`)."""
    k = int(rng.random() * (len(legal) + 1))
    return legal[k - 1] if k else None


def random_turn(state: GameState, rng: random.Random, chooser: RandomChooser
                ) -> tuple[GameState, Roll, tuple[Mark | None, ...], Mark | None]:
    """One turn of a random game from ``state`` (phase ROLL), as
    :func:`~qwixx_math.record.random_game` plays it: the active player rolls the dice in
    play (:func:`random_roll` with ``rng``); each player in seat order chooses
    ``chooser(rolled, player, legal_action1(rolled, player), rng)``; a choice that another
    player's choice forbids (the dialect switches ``simultaneous_close=False`` and
    ``end_check=sequential``) becomes a pass; then, unless the game ended in action 1
    (R15), the active player chooses ``chooser(after, active, legal_action2(after), rng)``.

    Returns the state after the turn, the roll, every player's action-1 choice and the
    action-2 choice.  A choice that is not one of the legal marks offered is checked
    as :meth:`GameState.with_action1` / :meth:`GameState.with_action2` check any choice
    (IllegalMoveError); one of them is applied without checking it again.
    """
    if state.__class__ is not GameState or state.phase is not Phase.ROLL:
        _require_state(state)
        state._expect(Phase.ROLL, "roll the dice")
    if not isinstance(rng, random.Random):
        raise ParseError(f"rng must be a random.Random, not {type(rng).__name__}")
    if not callable(chooser):
        raise ParseError(f"chooser must be a function, not {chooser!r}")
    sheets = state.sheets
    n = len(sheets)
    layout = sheets[0].layout
    closed = state.closed
    roll = _draw(rng.random, _EVERY_COLOUR if not closed and len(layout.locks) == len(COLOURS)
                 else frozenset(layout.locks) - closed, layout.faces)  # dice_in_play
    # with_roll without its checks: the roll shows exactly the dice in play
    rolled = GameState.make(state.ruleset, sheets, state.active, closed, Phase.ACTION1,
                            roll, None, None, state.turn)
    lister = _ACTION1_LISTERS.get(layout) or _action1_lister(layout)  # legal_action1's
    white_sum = roll.white[0] + roll.white[1]
    rs = state.ruleset
    choices: list[Mark | None]
    if chooser is uniform_chooser:  # its body, inline: the same draws, the same picks
        r = rng.random
        choices = []
        append = choices.append
        for sheet in sheets:
            listed = lister(sheet, white_sum, closed, rs)
            k = int(r() * (len(listed) + 1))
            append(listed[k - 1] if k else None)
    else:
        choices = [chooser(rolled, i, lister(sheets[i], white_sum, closed, rs), rng)
                   for i in range(n)]
    while True:  # dialect switches can make a later player's choice illegal
        try:
            after1 = rolled.with_action1(choices)
            break
        except IllegalMoveError as exc:
            if exc.player is None:  # pragma: no cover - a bug, not a dialect clash
                raise
            choices[exc.player] = None
    if after1.phase is not Phase.ACTION2:
        return after1, roll, tuple(choices), None
    legal = _action2_marks(after1)  # legal_action2, the phase known
    if chooser is uniform_chooser:  # a listed mark or None
        k = int(rng.random() * (len(legal) + 1))
        mark = legal[k - 1] if k else None
        return after1._applied_action2(mark), roll, tuple(choices), mark
    mark = chooser(after1, state.active, legal, rng)
    if mark is None:
        return after1._applied_action2(None), roll, tuple(choices), None
    for offered in legal:
        if offered is mark:  # one of the legal marks, as listed: no need to check it
            return after1._applied_action2(mark), roll, tuple(choices), mark
    return after1.with_action2(mark), roll, tuple(choices), mark


def random_roll(rng: random.Random, in_play: frozenset[Colour] | None = None,
                faces: int = 6) -> Roll:
    """A uniformly random roll of the whites and the coloured dice ``in_play`` (default all),
    dice of ``faces`` sides (6, or 8 for Qwixx Longo: pass the layout's
    :attr:`~qwixx_math.layouts.SheetLayout.faces`, LG1)."""
    if not isinstance(rng, random.Random):
        raise ParseError(f"rng must be a random.Random, not {type(rng).__name__}")
    if in_play is not None:
        in_play = colour_set(in_play, "in_play")
    if faces != 6 and (not isinstance(faces, int) or isinstance(faces, bool)
                       or faces not in FACES):
        raise ParseError(f"dice have 6 or 8 sides (8: Qwixx Longo), not {faces!r}", rule="LG1")
    return _draw(rng.random, in_play, faces)


def _draw(r: Callable[[], float], in_play: frozenset[Colour] | None, faces: int) -> Roll:
    """:func:`random_roll` without its checks: ``r`` is the generator's ``random``."""
    if faces != 6:  # the same draws in the same order as the six-sided dice below
        w = (int(r() * faces) + 1, int(r() * faces) + 1)
        if in_play is None:
            in_play = _EVERY_COLOUR
        return Roll.unchecked(w, (int(r() * faces) + 1 if _RED in in_play else None,
                                  int(r() * faces) + 1 if _YELLOW in in_play else None,
                                  int(r() * faces) + 1 if _GREEN in in_play else None,
                                  int(r() * faces) + 1 if _BLUE in in_play else None), faces)
    w = (int(r() * 6) + 1, int(r() * 6) + 1)
    if in_play is None or in_play is _EVERY_COLOUR:
        return Roll.unchecked(w, (int(r() * 6) + 1, int(r() * 6) + 1, int(r() * 6) + 1,
                                  int(r() * 6) + 1))
    # the dice in play, in colour order (each r() in the same order as ever, so seeded
    # games replay), written out instead of a generator
    return Roll.unchecked(w, (int(r() * 6) + 1 if _RED in in_play else None,
                              int(r() * 6) + 1 if _YELLOW in in_play else None,
                              int(r() * 6) + 1 if _GREEN in in_play else None,
                              int(r() * 6) + 1 if _BLUE in in_play else None))
