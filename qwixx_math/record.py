"""Game records (every roll and every choice of a game) and a seeded random game generator.

The JSON form of a record (``docs/notation.md`` documents it; ``validation``
checks records written by other programs)::

    {"format": "qwixx-math/game-record", "version": 1,
     "players": ["Kari", "Ola"], "ruleset": {...}, "first": 0, "seed": 7,
     "turns": [{"active": 0, "roll": {"white": [4, 1], "red": 3, ...},
                "action1": [{"colour": "yellow", "number": 5}, null],
                "action2": {"colour": "blue", "number": 10}}, ...],
     "result": {"scores": [..], "winners": [..], "ended_by": "R13"}}

``seed`` and ``result`` are optional; ``result`` is what the writing program
claims: :func:`replay` checks the moves only, the validator
(``qwixx-math validate``) also checks the claims.  A turn may also carry the writing program's
claimed ``"scores"`` and ``"penalties"`` (every player's total and penalty boxes
after the turn); they are optional and checked by the validator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from .errors import IllegalMoveError, ParseError, QwixxError
from .layouts import OFFICIAL, SheetLayout, layout_named
from .model import Mark, Roll
from .notation import mark_from_json, mark_to_json, roll_from_json, roll_to_json
from .rules import GameState, Phase, RandomChooser, new_game, random_turn
from .rules import uniform_chooser as uniform_chooser  # re-exported: its home was here
from .ruleset import Ruleset

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GameRecord",
    "GameResult",
    "TurnRecord",
    "random_game",
    "replay",
]

RECORD_FORMAT = "qwixx-math/game-record"
RECORD_VERSION = 1
_RECORD_FIELDS = frozenset(
    {"format", "version", "players", "ruleset", "first", "seed", "turns", "result", "layout"})


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn: who rolled, the roll, every player's action-1 choice, the action-2 choice.

    ``scores`` and ``penalties`` are optional claims of the program that wrote the
    record: every player's total and penalty boxes after the turn.
    """

    active: int
    roll: Roll
    action1: tuple[Mark | None, ...]
    action2: Mark | None
    scores: tuple[int, ...] | None = None
    penalties: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not _is_int(self.active):
            raise ParseError(f"TurnRecord.active must be a player index, not {self.active!r}")
        if not isinstance(self.roll, Roll):
            raise ParseError(f"TurnRecord.roll must be a Roll, not {self.roll!r}")
        if not (isinstance(self.action1, tuple)
                and all(m is None or isinstance(m, Mark) for m in self.action1)):
            raise ParseError("TurnRecord.action1 must be a tuple of Mark or None")
        if self.action2 is not None and not isinstance(self.action2, Mark):
            raise ParseError(f"TurnRecord.action2 must be a Mark or None, not {self.action2!r}")
        for name in ("scores", "penalties"):
            value = getattr(self, name)
            if value is not None and not _int_tuple(value):
                raise ParseError(f"TurnRecord.{name} must be a tuple of whole numbers or None")

    @classmethod
    def unchecked(cls, active: int, roll: Roll, action1: tuple[Mark | None, ...],
                  action2: Mark | None) -> TurnRecord:
        """Build without validation; only for the turns of a game the rules core played."""
        # the slot descriptors' own setters, as GameState.make: the effect of
        # object.__setattr__, quicker (a record is built per turn of a random game)
        turn = object.__new__(cls)
        _SET_ACTIVE(turn, active)
        _SET_ROLL(turn, roll)
        _SET_ACTION1(turn, action1)
        _SET_ACTION2(turn, action2)
        _SET_SCORES(turn, None)
        _SET_PENALTIES(turn, None)
        return turn


    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"active": self.active, "roll": roll_to_json(self.roll),
                               "action1": [mark_to_json(m) for m in self.action1],
                               "action2": mark_to_json(self.action2)}
        if self.scores is not None:
            out["scores"] = list(self.scores)
        if self.penalties is not None:
            out["penalties"] = list(self.penalties)
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "turn") -> TurnRecord:
        if not isinstance(data, dict):
            raise ParseError(f"{where} must be a JSON object")
        missing = sorted({"active", "roll", "action1", "action2"} - set(data))
        if missing:
            raise ParseError(f"{where} lacks field(s): {', '.join(missing)}")
        active = data["active"]
        if not isinstance(active, int) or isinstance(active, bool):
            raise ParseError(f"{where}.active must be a player index")
        choices = data["action1"]
        if not isinstance(choices, list):
            raise ParseError(f"{where}.action1 must be a list with one entry per player")
        claims: list[tuple[int, ...] | None] = []
        for name in ("scores", "penalties"):
            value = data.get(name)
            if value is not None and not (
                    isinstance(value, list)
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
                raise ParseError(f"{where}.{name} must be a list of whole numbers")
            claims.append(tuple(value) if value is not None else None)
        try:
            roll = roll_from_json(data["roll"])
            top = 2 * roll.faces  # marks of a roll of 8-sided dice run to 16 (LG1)
            return cls(active, roll, tuple(mark_from_json(m, top) for m in choices),
                       mark_from_json(data["action2"], top), claims[0], claims[1])
        except ParseError as exc:
            raise ParseError(f"{where}: {exc}") from None


(_SET_ACTIVE, _SET_ROLL, _SET_ACTION1, _SET_ACTION2, _SET_SCORES, _SET_PENALTIES) = (
    getattr(TurnRecord, f.name).__set__ for f in fields(TurnRecord))


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: every score, the winners (R18), the rule that ended it."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ended_by: str | None

    def __post_init__(self) -> None:
        if not (_int_tuple(self.scores) and _int_tuple(self.winners)):
            raise ParseError("GameResult.scores and .winners must be tuples of whole numbers")
        if self.ended_by not in (None, "R13", "R14"):
            raise ParseError(f"GameResult.ended_by must be R13, R14 or None, not {self.ended_by!r}")

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners),
                "ended_by": self.ended_by}

    @classmethod
    def of(cls, state: GameState) -> GameResult:
        return cls(state.scores, state.winners, state.ended_by)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game as played: its players, ruleset, turns and (claimed) result, on the
    sheet ``layout`` (the official one unless given; the JSON form names any other as
    ``"layout": "mixx-a"``)."""

    players: tuple[str, ...]
    ruleset: Ruleset
    turns: tuple[TurnRecord, ...]
    first: int = 0
    seed: int | None = None
    result: GameResult | None = None
    layout: SheetLayout = OFFICIAL

    def __post_init__(self) -> None:
        if not (isinstance(self.players, tuple) and all(isinstance(p, str) for p in self.players)):
            raise ParseError("GameRecord.players must be a tuple of names")
        if not isinstance(self.ruleset, Ruleset):
            raise ParseError(f"GameRecord.ruleset must be a Ruleset, not {self.ruleset!r}")
        if not (isinstance(self.turns, tuple)
                and all(isinstance(t, TurnRecord) for t in self.turns)):
            raise ParseError("GameRecord.turns must be a tuple of TurnRecord")
        if not _is_int(self.first) or (self.seed is not None and not _is_int(self.seed)):
            raise ParseError("GameRecord.first and .seed must be whole numbers")
        if self.result is not None and not isinstance(self.result, GameResult):
            raise ParseError(f"GameRecord.result must be a GameResult, not {self.result!r}")
        if not isinstance(self.layout, SheetLayout):
            raise ParseError(f"GameRecord.layout must be a SheetLayout, not {self.layout!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION,
                               "players": list(self.players), "ruleset": self.ruleset.to_json(),
                               "first": self.first}
        if not self.layout.is_official:
            out["layout"] = self.layout.key
        if self.seed is not None:
            out["seed"] = self.seed
        out["turns"] = [t.to_json() for t in self.turns]
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """Read a record; checks its shape only (:func:`replay` checks the rules)."""
        if not isinstance(data, dict):
            raise ParseError("a game record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise ParseError(f"not a game record: 'format' must be {RECORD_FORMAT!r}")
        version = data.get("version")
        if type(version) is not int or version != RECORD_VERSION:
            raise ParseError(f"unsupported game record version {version!r}")
        unknown = sorted(str(k) for k in data if k not in _RECORD_FIELDS)
        if unknown:
            raise ParseError(f"unknown game record field(s): {', '.join(unknown)}")
        players = data.get("players")
        if not (isinstance(players, list) and players
                and all(isinstance(p, str) for p in players)):
            raise ParseError("record.players must be a non-empty list of names")
        ruleset_raw = data.get("ruleset", {})
        if not isinstance(ruleset_raw, dict):
            raise ParseError("record.ruleset must be a JSON object")
        ruleset = Ruleset.from_json({"players": len(players), **ruleset_raw})
        if ruleset.players != len(players):
            raise ParseError(f"record.ruleset.players is {ruleset.players} but "
                             f"{len(players)} players are named")
        first = data.get("first", 0)
        seed = data.get("seed")
        for name, value in (("first", first), ("seed", seed)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise ParseError(f"record.{name} must be a whole number")
        if first is None or not 0 <= first < len(players):
            raise ParseError(f"record.first must name a player (0 to {len(players) - 1}), "
                             f"not {first}")
        turns_raw = data.get("turns")
        if not isinstance(turns_raw, list):
            raise ParseError("record.turns must be a list")
        turns = tuple(TurnRecord.from_json(t, f"turn {k + 1}") for k, t in enumerate(turns_raw))
        result = None
        if data.get("result") is not None:
            result = _result_from_json(data["result"])
        layout_raw = data.get("layout", OFFICIAL.name)
        if not isinstance(layout_raw, str):
            raise ParseError("record.layout must be a layout name such as 'mixx-a'")
        return cls(tuple(players), ruleset, turns, first, seed, result, layout_named(layout_raw))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_tuple(value: object) -> bool:
    return isinstance(value, tuple) and all(_is_int(x) for x in value)


def _result_from_json(data: object) -> GameResult:
    if not isinstance(data, dict):
        raise ParseError("record.result must be a JSON object")
    scores, winners = data.get("scores"), data.get("winners")
    for name, value in (("scores", scores), ("winners", winners)):
        if not (isinstance(value, list)
                and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
            raise ParseError(f"record.result.{name} must be a list of whole numbers")
    ended_by = data.get("ended_by")
    if ended_by not in (None, "R13", "R14"):
        raise ParseError("record.result.ended_by must be \"R13\", \"R14\" or null")
    assert isinstance(scores, list) and isinstance(winners, list)
    return GameResult(tuple(scores), tuple(winners), ended_by)


def replay(record: GameRecord) -> list[GameState]:
    """Every state of the game: the start, then the state after each turn.

    Raises :class:`IllegalMoveError` at the first rule the record breaks (the
    validation toolkit reports them all instead).
    """
    if not isinstance(record, GameRecord):
        raise ParseError(f"replay needs a GameRecord, not {type(record).__name__} "
                         "(GameRecord.from_json reads the JSON form)")
    state = new_game(ruleset=record.ruleset, first=record.first, layout=record.layout)
    states = [state]
    for k, turn in enumerate(record.turns):
        if state.is_over:
            raise IllegalMoveError(state.ended_by or "R13",
                                   f"turn {k + 1} is played after the game ended")
        if turn.active != state.active:
            raise IllegalMoveError("R12", f"turn {k + 1} is player {turn.active}'s, but it is "
                                          f"player {state.active}'s turn")
        state = state.play_turn(turn.roll, turn.action1, turn.action2)
        states.append(state)
    return states


#: A player's choice function: (state in the ACTION1 or ACTION2 phase, player, legal marks,
#: rng) -> the chosen mark or None.
Chooser = RandomChooser


def random_game(players: int | None = None, seed: int | None = None, ruleset: Ruleset | None = None,
                chooser: Chooser = uniform_chooser, names: Sequence[str] | None = None,
                max_turns: int = 10_000, layout: SheetLayout | str = OFFICIAL) -> GameRecord:
    """Play a complete random legal game and return its record (with the result).

    Four players by default.  Every player picks uniformly among passing and
    their legal marks (or as ``chooser`` says); the same ``seed`` always gives
    the same game; ``layout`` is the sheet (a SheetLayout or its name).  A game still
    going after ``max_turns`` turns raises
    :class:`~qwixx_math.errors.QwixxError`; with the default none does (each turn the
    active player marks a number or a penalty box, R11, so a game lasts at most 48
    turns per player).

    >>> rec = random_game(players=3, seed=1)
    >>> rec == random_game(players=3, seed=1) and rec.result is not None
    True
    """
    rs = ruleset if ruleset is not None else Ruleset(players=4 if players is None else players)
    if not isinstance(rs, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {type(rs).__name__}")
    if players is not None and players != rs.players:
        raise ParseError(f"players={players!r} contradicts ruleset.players={rs.players}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ParseError(f"seed must be a whole number or None, not {seed!r}")
    if not callable(chooser):
        raise ParseError(f"chooser must be a function, not {chooser!r}")
    if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
        raise ParseError(f"max_turns must be a whole number >= 1, not {max_turns!r}")
    if names is not None and (isinstance(names, str) or not isinstance(names, Sequence)
                              or not all(isinstance(x, str) for x in names)):
        raise ParseError(f"names must be a sequence of player names, not {names!r}")
    n = rs.players
    player_names = tuple(names) if names is not None else tuple(f"P{i + 1}" for i in range(n))
    if len(player_names) != n:
        raise ParseError(f"{len(player_names)} names given for {n} players")
    rng = random.Random(seed)
    lay = layout_named(layout)
    state = new_game(ruleset=rs, layout=lay)
    turns: list[TurnRecord] = []
    unchecked = TurnRecord.unchecked
    while state.phase is not Phase.OVER:
        if len(turns) >= max_turns:
            raise QwixxError(f"the game did not end within max_turns={max_turns} turns")
        active = state.active
        state, roll, choices, a2 = random_turn(state, rng, chooser)
        turns.append(unchecked(active, roll, choices, a2))
    return GameRecord(player_names, rs, tuple(turns), 0, seed, GameResult.of(state), lay)
