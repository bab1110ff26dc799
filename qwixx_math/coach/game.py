"""The coach's game session: one game at a real table, played step by step, with undo.

Everything here is plain Python (no HTTP): :mod:`qwixx_math.coach.server` calls it
for every request, and the fast tests call it directly too.  The game itself is the
rules core's :class:`~qwixx_math.rules.GameState`; every step goes through it, so an
illegal tap raises its :class:`~qwixx_math.errors.IllegalMoveError` (with the rule id)
and leaves the session as it was.

A turn at the table, as the page plays it:

1. ``roll``: the dice as typed (``w:3,4/r:1/y:2/g:6/b:5``) or rolled by the app;
2. ``tap`` on any player's sheet in the ``action1`` phase: that player's white-sum
   choice, checked at once (:func:`~qwixx_math.rules.why_not_mark`) but written only
   when the table is done (``done``: :meth:`GameState.with_action1` with every
   player's choice, R5 simultaneous); tapping the same cell again takes it back;
3. ``tap`` on the active player's sheet in the ``action2`` phase (or ``skip``, a
   penalty when the active player marked nothing in action 1, R11) ends the turn.

``undo`` takes back the last step of any kind.  Completed turns make the game
record (:class:`~qwixx_math.record.GameRecord`), which ``qwixx-math validate``
accepts.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any

from ..big_points import BONUS_ROW_NAMES, BonusMark, bonus_number
from ..errors import IllegalMoveError, ParseError
from ..layouts import BONUS_ROW_CELLS, LAYOUTS, SheetLayout, layout_named
from ..model import COLOURS, Colour, LuckyMark, Mark, Roll
from ..notation import (
    format_roll,
    mark_from_json,
    mark_to_json,
    parse_roll,
    roll_from_json,
    sheet_to_json,
)
from ..record import GameRecord, GameResult, TurnRecord, replay
from ..rules import GameState, Phase, legal_action1, new_game, random_roll, why_not_mark
from ..ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset

__all__ = ["MAX_NAME", "MAX_UNDO", "CoachGame", "Snapshot", "layout_json"]

#: The longest player name kept (longer ones are refused).
MAX_NAME = 40
#: The most steps ``undo`` can take back (older ones are forgotten).
MAX_UNDO = 2000
#: The keys of a tap on a cell (:meth:`CoachGame.tap`) besides ``player``.
_CELL_KEYS = frozenset({"colour", "number", "field"})


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a step changes: the state, the pending action-1 choices, the turns played,
    the players' names and the first player."""

    state: GameState
    pending: tuple[Mark | None, ...]
    turns: tuple[TurnRecord, ...]
    names: tuple[str, ...]
    first: int = 0

    def step(self, state: GameState, pending: tuple[Mark | None, ...] | None = None,
             turns: tuple[TurnRecord, ...] | None = None) -> Snapshot:
        """This snapshot with a new state (no pending choices unless given) and turns."""
        return Snapshot(state, pending if pending is not None else (None,) * state.players,
                        self.turns if turns is None else turns, self.names, self.first)


def exchange_field(state: GameState, player: int, row: Colour, number: int) -> int | None:
    """The X-Change field a tap on ``row``, ``number`` uses in action 1: None when the
    white sum marks the cell itself (or nothing does), else the leftmost field whose
    exchange crosses it (XC1, XC2)."""
    if why_not_mark(state, player, row, number) is None:
        return None
    fields = [m.field for m in legal_action1(state, player)
              if m.field is not None and m.crosses and (m.colour, m.number) == (row, number)]
    return min((f for f in fields if f is not None), default=None)


def layout_json(layout: SheetLayout) -> dict[str, Any]:
    """What the page needs to draw a sheet of ``layout``: each row's lock colour, numbers
    left to right, the colour of each cell and whether it is a double cell (DB1), the
    X-Change track (XC1), the Big Points bonus rows (BP1), whether the cells have
    second-cross boxes (DA1) and the lucky numbers (LG3)."""
    return {"name": layout.name, "penalty_boxes": layout.penalty_boxes,
            "lock_threshold": layout.lock_threshold,
            "rows": [{"lock": lock.value, "numbers": list(layout.numbers[i]),
                      "colours": [c.value for c in layout.colours[i]],
                      "doubles": [layout.is_double(lock, n) for n in layout.numbers[i]]}
                     for i, lock in enumerate(layout.locks)],
            # Qwixx X-Change: the track's fields, left to right (empty on other pads)
            "exchange": [list(pair) for pair in layout.exchange],
            # Qwixx Big Points: each bonus row, the colour row it is drawn under and its
            # numbers by column (BP1; empty on other pads)
            "bonus_rows": [{"name": name, "after": BonusMark.of(k, 2).colour.value,
                            "numbers": [bonus_number(k, i) for i in range(BONUS_ROW_CELLS)]}
                           for k, name in enumerate(BONUS_ROW_NAMES)] if layout.bonus_rows
            else [],
            # Qwixx Double A: second-cross boxes (DA1); Qwixx Longo: the lucky numbers (LG3)
            "second_crosses": layout.second_crosses, "lucky": list(layout.lucky)}


def _names(raw: object, players: int) -> tuple[str, ...]:
    if raw is None:
        return tuple(f"Player {i + 1}" for i in range(players))
    if not isinstance(raw, list) or len(raw) != players:
        raise ParseError(f"names must be a list of {players} player names")
    names = []
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME \
                or not name.isprintable():
            raise ParseError(f"names[{i}] must be printable text of 1 to {MAX_NAME} characters")
        names.append(name.strip())
    return tuple(names)


def _taken_back(taken: Mark, row: Colour, number: int, field: object
                ) -> tuple[bool, Mark | None]:
    """Whether a tap on ``row``, ``number`` (``field``) is on a cell of the pending choice
    ``taken``, and what it leaves of it: the choice without its last cross (the first mark
    of a Longo lucky choice whose lucky cell is tapped, LG4), or None."""
    if isinstance(taken, LuckyMark) and taken.first is not None:
        if (taken.colour, taken.number) == (row, number) and field is None:
            return True, taken.first
        taken = taken.first
    return (taken.colour, taken.number) == (row, number) and field in (None, taken.field), None


def _player(raw: object, players: int) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < players:
        raise ParseError(f"player must be a seat number from 0 to {players - 1}, not {raw!r}")
    return raw


def _ruleset(raw: object, players: int) -> Ruleset:
    """The ruleset of a new game: ``raw`` is None (the official rules) or the JSON object of
    :meth:`Ruleset.to_json`, whose ``players``, if given, must be the table's."""
    if raw is None:
        return Ruleset(players=players)
    if not isinstance(raw, dict):
        raise ParseError("ruleset must be an object such as {\"action2_after_game_end\": true, "
                         "\"die_removal\": \"end_of_turn\"}")
    if raw.get("players", players) != players:
        raise ParseError(f"R3: the ruleset says {raw['players']!r} players; the table has "
                         f"{players}")
    return Ruleset.from_json({**raw, "players": players})


def _roll(raw: object, faces: int = 6) -> Roll:
    """The roll the page sent, dice of the game's ``faces`` sides (8 on Longo, LG1)."""
    if isinstance(raw, str):
        return parse_roll(raw, faces if not raw.lstrip().startswith("d") else None)
    if isinstance(raw, dict):
        return roll_from_json(raw, faces)
    raise ParseError("roll must be text such as 'w:3,4/r:1/y:2/g:6/b:5', a roll object, "
                     "or null to let the app roll")


class CoachGame:
    """One game at the table, with its undo stack; safe to share between threads
    (every method takes the session's lock)."""

    def __init__(self, players: int = 2, layout: SheetLayout | str = "official",
                 names: tuple[str, ...] | None = None, seed: int | None = None,
                 ruleset: Ruleset | None = None) -> None:
        self._lock = threading.RLock()
        self._rng = random.Random(seed)
        self._history: list[Snapshot] = []
        self._now = Snapshot(new_game(2), (None, None), (), ("", ""))
        self.new({"players": players, "layout": layout if isinstance(layout, str)
                  else layout.name, "names": list(names) if names is not None else None,
                  "ruleset": None if ruleset is None else ruleset.to_json()})
        self._history.clear()

    # -- reading ------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self._now.state

    @property
    def snapshot(self) -> Snapshot:
        return self._now

    @property
    def names(self) -> tuple[str, ...]:
        return self._now.names

    def record_and_state(self) -> tuple[GameRecord, GameState]:
        """The game so far as a game record (with its result once it is over), and the state
        it has reached."""
        with self._lock:
            now = self._now
            state = now.state
            result = GameResult.of(state) if state.is_over else None
            return GameRecord(now.names, state.ruleset, now.turns, now.first, None, result,
                              state.layout), state

    def view(self) -> dict[str, Any]:
        """The whole session as JSON for the page."""
        with self._lock:
            now = self._now
            s = now.state
            return {
                "players": list(now.names),
                "layout": layout_json(s.layout),
                "layouts": list(LAYOUTS),
                "ruleset": s.ruleset.to_json(),
                "phase": s.phase.value,
                "active": s.active,
                "turn": s.turn + 1,
                "roll": format_roll(s.roll) if s.roll is not None else None,
                "white_sum": s.roll.white_sum if s.roll is not None else None,
                "dice_in_play": [c.value for c in COLOURS if c in s.dice_in_play],
                "closed": [c.value for c in COLOURS if c in s.closed],
                "sheets": [sheet_to_json(sh) for sh in s.sheets],
                "scores": list(s.scores),
                "pending": [mark_to_json(m) for m in now.pending],
                "action1": ([mark_to_json(m) for m in s.action1]
                            if s.action1 is not None else None),
                "ended_by": s.ended_by,
                "winners": list(s.winners) if s.is_over else None,
                "turns": len(now.turns),
                "can_undo": bool(self._history),
            }

    # -- steps --------------------------------------------------------------------------------
    def _push(self, after: Snapshot) -> None:
        self._history.append(self._now)
        if len(self._history) > MAX_UNDO:
            del self._history[0]
        self._now = after

    def new(self, body: dict[str, Any]) -> None:
        """A new game: ``players`` (1 to 5), ``layout`` (a name), ``names`` (optional),
        ``ruleset`` (optional: the R15 Option and dialect switches of
        :meth:`Ruleset.from_json`, missing ones official)."""
        players = body.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) \
                or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ParseError(f"R3: a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {players!r}")
        raw_layout = body.get("layout", "official")
        if not isinstance(raw_layout, str) or (
                raw_layout not in LAYOUTS and raw_layout.partition(":")[0] not in LAYOUTS):
            raise ParseError(f"layout must be one of {', '.join(LAYOUTS)} (a pad with lucky "
                             f"numbers A, B: longo:A,B), not {raw_layout!r}")
        names = _names(body.get("names"), players)
        state = new_game(ruleset=_ruleset(body.get("ruleset"), players),
                         layout=layout_named(raw_layout))
        with self._lock:
            self._push(Snapshot(state, (None,) * players, (), names))

    def roll(self, raw: object) -> None:
        """The active player's roll: the dice given (text or JSON), or None to roll them."""
        with self._lock:
            state = self._now.state
            roll = (random_roll(self._rng, state.dice_in_play, state.sheets[0].layout.faces)
                    if raw is None else _roll(raw, state.sheets[0].layout.faces))
            rolled = state.with_roll(roll)
            self._push(self._now.step(rolled))

    def tap(self, player: object, colour: object, number: object,
            field: object = None) -> None:
        """A tap on ``player``'s sheet at ``colour``'s row, ``number``: an action-1 choice
        (or taking one back) or the active player's action 2.

        The tap is the cross of that cell the rules allow now, tried in this order:

        * the plain cross; on a Qwixx X-Change sheet an action-1 tap on a cell the white
          sum cannot mark but an exchange can (XC1) is that exchange, through the leftmost
          field that allows it (the one that loses fewest fields, XC2); ``field`` names
          another one;
        * Qwixx Double A: the second cross under the number (DA1), when the cell itself
          is already crossed;
        * Qwixx Longo: the lucky cross of the cell (LG3) when the white sum is a lucky
          number; under ``lg_lucky_mode = additional`` after the player's pending
          white-sum cross (LG4), else alone.

        None allowed: refused with the plain cross's reason (its rule id).  Tapping a cell
        of the pending choice again takes back its last cross."""
        with self._lock:
            now = self._now
            state = now.state
            p = _player(player, state.players)
            if not isinstance(colour, str):
                raise ParseError(f"colour must be a colour name, not {colour!r}")
            row = Colour.parse(colour)
            if not isinstance(number, int) or isinstance(number, bool):
                raise ParseError(f"number must be a whole number, not {number!r}")
            if field is not None and (not isinstance(field, int) or isinstance(field, bool)):
                raise ParseError(f"field must be an X-Change field number, not {field!r}")
            taken = now.pending[p] if state.phase is Phase.ACTION1 else None
            if taken is not None and not isinstance(taken, BonusMark):
                hit, left = _taken_back(taken, row, number, field)
                if hit:
                    self._set_pending(p, left)
                    return
            if field is None and state.phase is Phase.ACTION1 and state.layout.exchange:
                field = exchange_field(state, p, row, number)
            reason = why_not_mark(state, p, row, number, field)
            for mark in (Mark(row, number, field), *self._other_crosses(p, row, number, field)):
                why = self._why_not(p, mark)
                if why is None:
                    self._play(p, mark)
                    return
                reason = reason or why
            assert reason is not None
            raise IllegalMoveError(reason[0], f"{self.names[p]} may not mark "
                                              f"{row.value} {number}: {reason[1]}", p)

    def _other_crosses(self, player: int, row: Colour, number: int,
                       field: int | None) -> list[Mark]:
        """The crosses of a tapped cell other than its plain cross: Double A's second
        cross (DA1), Longo's lucky cross (LG3, LG4), in the order :meth:`tap` tries them."""
        state = self._now.state
        layout = state.layout
        out: list[Mark] = []
        if field is not None:
            return out
        if layout.second_crosses and state.phase in (Phase.ACTION1, Phase.ACTION2):
            out.append(Mark(row, number, second=True))
        if state.phase is Phase.ACTION1 and state.roll is not None \
                and state.roll.white_sum in layout.lucky and 2 <= number <= layout.top_number:
            first = self._now.pending[player]
            if first is not None and type(first) is Mark and not first.second \
                    and first.field is None:
                out.append(LuckyMark(row, number, first=first))
            out.append(LuckyMark(row, number))
        return out

    def tap_json(self, body: dict[str, Any]) -> None:
        """A tap as ``POST /api/tap`` sends it: ``player`` and either a cell (``colour``,
        ``number``, an X-Change ``field``: :meth:`tap`) or any mark in the JSON of
        :func:`~qwixx_math.notation.mark_to_json`, e.g. a Big Points bonus cell
        ``{"bonus_row": "ry", "number": 5}``, a second cross (``"second": true``), a
        lucky cross (``"lucky": true``) or an X-Change field alone (``{"field": 2}``):
        :meth:`tap_mark`."""
        rest = {k: v for k, v in body.items() if k != "player"}
        if "colour" in rest and "number" in rest and set(rest) <= _CELL_KEYS:
            self.tap(body.get("player"), rest["colour"], rest["number"], rest.get("field"))
            return
        self.tap_mark(body.get("player"), mark_from_json(rest, self.state.layout.top_number))

    def tap_mark(self, player: object, mark: object) -> None:
        """``player``'s choice ``mark`` (any :class:`Mark`: a Big Points bonus cross
        ``ry5``, a second cross ``b6+``, a lucky cross ``*y10``, an exchange ``r3@x2`` or
        a field spent alone ``x2``), checked by the rules core as it will be applied: in
        the ``action1`` phase it becomes the player's pending choice (the same choice
        again takes it back), in ``action2`` the active player's action 2.  An illegal one
        is refused with the core's rule id and changes nothing."""
        if not isinstance(mark, Mark):
            raise ParseError(f"a tap's mark must be a Mark, not {type(mark).__name__}")
        with self._lock:
            state = self._now.state
            p = _player(player, state.players)
            if state.phase is Phase.ACTION1 and self._now.pending[p] == mark:
                self._set_pending(p, None)
                return
            reason = self._why_not(p, mark)
            if reason is not None:
                raise IllegalMoveError(reason[0], f"{self.names[p]} may not mark "
                                                  f"{mark.describe()}: {reason[1]}", p)
            self._play(p, mark)

    def _why_not(self, player: int, mark: Mark) -> tuple[str, str] | None:
        """None when the rules core applies ``player``'s ``mark`` now (action 1 with the
        others passing, or the active player's action 2), else (rule id, reason)."""
        state = self._now.state
        if state.phase is Phase.ROLL:
            return ("R4", "roll the dice first")
        if state.phase is Phase.OVER:
            return (state.ended_by or "R13", "the game is over; nobody marks any more")
        if state.phase is Phase.ACTION2 and player != state.active:
            return ("R6", f"only the active player ({self.names[state.active]}) marks in "
                          "action 2")
        try:
            if state.phase is Phase.ACTION1:
                choices: list[Mark | None] = [None] * state.players
                choices[player] = mark
                state.with_action1(choices)
            else:
                state.with_action2(mark)
        except IllegalMoveError as exc:
            return (exc.rule, str(exc).removeprefix(f"{exc.rule}: "))
        return None

    def _play(self, player: int, mark: Mark) -> None:
        """Write ``player``'s checked ``mark``: the pending action-1 choice, or the action 2
        that ends the turn."""
        state = self._now.state
        if state.phase is Phase.ACTION1:
            self._set_pending(player, mark)
        else:  # ACTION2, the active player (checked by the caller)
            self._finish_turn(state.with_action2(mark), mark)

    def _set_pending(self, player: int, mark: Mark | None) -> None:
        pending = list(self._now.pending)
        pending[player] = mark
        self._push(self._now.step(self._now.state, tuple(pending)))

    def skip(self) -> None:
        """The active player marks nothing in action 2 (R11: a penalty without an action-1
        mark)."""
        with self._lock:
            state = self._now.state
            if state.phase is not Phase.ACTION2:
                raise IllegalMoveError("R4", f"there is no action 2 to skip in the "
                                             f"{state.phase.value} phase")
            self._finish_turn(state.with_action2(None), None)

    def done(self) -> None:
        """Every player's action-1 choice is made: write them (R5, R7-R10, R14, R15)."""
        with self._lock:
            now = self._now
            after = now.state.with_action1(now.pending)
            if after.phase is Phase.OVER:  # ended in action 1; no action 2 (R15)
                self._finish_turn(after, None)
            else:
                self._push(now.step(after, now.pending))

    def _finish_turn(self, after: GameState, action2: Mark | None) -> None:
        """Record the turn of the current (rolled) state, which led to ``after``."""
        now = self._now
        before = now.state
        assert before.roll is not None
        action1 = before.action1 if before.action1 is not None else now.pending
        turn = TurnRecord(before.active, before.roll, tuple(action1), action2)
        self._push(now.step(after, None, (*now.turns, turn)))

    def forget_undo(self) -> None:
        """Start the undo stack afresh (after the game loaded at start-up)."""
        with self._lock:
            self._history.clear()

    def undo(self) -> None:
        """Take back the last step."""
        with self._lock:
            if not self._history:
                raise ParseError("nothing to undo")
            self._now = self._history.pop()

    def load(self, record: GameRecord) -> None:
        """Replace the game by ``record`` replayed (the load is one step: undo restores)."""
        if not isinstance(record, GameRecord):
            raise ParseError(f"load needs a GameRecord, not {type(record).__name__}")
        states = replay(record)  # IllegalMoveError at the first illegal turn
        state = states[-1]
        with self._lock:
            self._push(Snapshot(state, (None,) * state.players, record.turns, record.players,
                                record.first))
