"""Strict reading of game records written by other programs (the JSON Schema, in code).

:func:`read_record` accepts exactly the documented record format
(``qwixx_math/data/game-record.schema.json``) plus the relations between fields
that JSON Schema cannot express (one action-1 choice per player, player indices
below the number of players, ``ruleset.players`` equal to the number of names).
It is stricter than :meth:`qwixx_math.record.GameRecord.from_json`, which also
reads the text form of marks and ignores unknown fields: a validator must not
silently skip a misspelt ``"reslt"``.

Every problem raises :class:`RecordError` (a :class:`~qwixx_math.errors.ParseError`)
naming the JSON path of the bad field (``$.turns[3].roll.red``) or, for JSON
syntax errors, the line and column.  Whether the moves are legal is the
validator's business, not the reader's: a die for a closed colour is well
formed, a die showing 7 is not.

Limits: a record may hold at most :data:`MAX_TURNS` turns (2,000; a legal game
has at most 48 per player, since every turn of the active player gives them a
mark or a penalty box: 240 for five players), and a record file at most
:data:`MAX_RECORD_BYTES` (4 MiB: 2,000 turns of 2 KiB; a five-player turn with
every claim, indented by 4, is under 1 KB; a finished five-player game is about
60 KB), checked before a byte is parsed.  The byte limit follows from the turn
limit so that a record refused for its turns is refused before parsing:
Python's JSON objects take about 14 times the text's bytes (a 30 MB record
peaked at 412 MB before it was refused for holding more than 2,000 turns).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..big_points import BONUS_ROW_NAMES, BonusMark
from ..errors import ParseError
from ..files import read_bytes_bounded
from ..layouts import MAX_EXCHANGE_FIELDS, OFFICIAL, layout_named
from ..model import COLOURS, PENALTY_BOXES, LuckyMark, Mark, Roll
from ..record import RECORD_FORMAT, RECORD_VERSION, GameRecord, GameResult, TurnRecord
from ..ruleset import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    BonusTrigger,
    CircleCandidates,
    DiamondOrder,
    DieRemoval,
    EndCheck,
    LuckyCandidates,
    LuckyMode,
    Ruleset,
)

__all__ = ["MAX_RECORD_BYTES", "MAX_TURNS", "RecordError", "load_record", "parse_record_text",
           "read_record"]

#: Most turns a record may hold (a legal game has at most 48 per player).
MAX_TURNS = 2000
#: Largest record file read (checked before reading): room for :data:`MAX_TURNS` turns
#: of 2 KiB.
MAX_RECORD_BYTES = 4 * 1024 * 1024

_TOP_FIELDS = ("format", "version", "players", "ruleset", "first", "seed", "turns", "result",
               "layout")
_TURN_FIELDS = ("active", "roll", "action1", "action2", "scores", "penalties")
_RESULT_FIELDS = ("scores", "winners", "ended_by")
_RULESET_FIELDS = ("players", "action2_after_game_end", "die_removal", "end_check",
                   "simultaneous_close", "xc_field_without_cross", "xc_in_action2", "da_scope",
                   "da_same_turn", "lg_lucky_mode", "lg_lucky_candidates",
                   "bb_fewest_candidates", "bb_diamond_order", "bp_colour_trigger",
                   "bp_lock_marks")
_COLOUR_NAMES = {c.value: c for c in COLOURS}


class RecordError(ParseError):
    """A game record that cannot be read: not JSON, truncated, or not the documented format.

    ``path`` is the JSON path of the bad field (``"$.turns[3].roll.red"``), or
    None for JSON syntax errors; ``line`` and ``column`` (1-based) locate a
    syntax error in the file.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: object) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _turn_path(k: int) -> str:
    return f"$.turns[{k}]"


def _fail(path: str, message: str) -> RecordError:
    turn = ""
    if path.startswith("$.turns["):
        index = path[len("$.turns["):].split("]", 1)[0]
        if index.isdigit():
            turn = f" (turn {int(index) + 1})"
    return RecordError(f"{path}{turn}: {message}", path=path)


def _object(value: object, path: str, fields: tuple[str, ...],
            required: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(path, f"must be a JSON object, not {_kind(value)}")
    unknown = sorted(str(k) for k in value if k not in fields)
    if unknown:
        raise _fail(path, f"unknown field(s) {', '.join(repr(u) for u in unknown)}; "
                          f"expected {', '.join(fields)}")
    missing = [f for f in required if f not in value]
    if missing:
        raise _fail(path, f"missing field(s) {', '.join(repr(m) for m in missing)}")
    return value


def _int(value: object, path: str, low: int | None = None, high: int | None = None,
         what: str = "a whole number") -> int:
    if not _is_int(value):
        raise _fail(path, f"must be {what}, not {_kind(value)} ({value!r})")
    assert isinstance(value, int)
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(path, f"must be {what}, not {value}")
    return value


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, f"must be an array, not {_kind(value)}")
    return value


def _player(value: object, path: str, players: int) -> int:
    if not _is_int(value):
        raise _fail(path, f"must be a player index (0 to {players - 1}), not {_kind(value)}")
    assert isinstance(value, int)
    if not 0 <= value < players:
        raise _fail(path, f"player {value} does not exist; this game has {players} "
                          f"player(s), numbered 0 to {players - 1}")
    return value


def _mark(value: object, path: str, faces: int = 6, lucky: bool = False) -> Mark | None:
    """A mark (numbers 2..12; 2..16 on a record of 8-sided dice, LG1); an action-1 choice
    of such a record (``lucky``) may be a lucky cross (LG3), ``"lucky": true``, with the
    white-sum mark before it as ``"first"`` (LG4)."""
    if value is None:
        return None
    if isinstance(value, dict) and "field" in value:
        return _exchange_mark(value, path)
    if isinstance(value, dict) and "bonus_row" in value:  # Qwixx Big Points (BP1)
        data = _object(value, path, ("bonus_row", "number"), ("bonus_row", "number"))
        if data["bonus_row"] not in BONUS_ROW_NAMES:
            raise _fail(f"{path}.bonus_row", f"must be ry or gb (a Big Points bonus row, "
                                             f"BP1), not {data['bonus_row']!r}")
        return BonusMark.of(data["bonus_row"], _int(data["number"], f"{path}.number", 2, 12,
                                                    "a bonus cell's number, 2 to 12 (BP1)"))
    if lucky and isinstance(value, dict) and "lucky" in value:
        data = _object(value, path, ("colour", "number", "lucky", "first"),
                       ("colour", "number", "lucky"))
        if data["lucky"] is not True:
            raise _fail(f"{path}.lucky", f"must be true (a lucky cross, LG3), not "
                                         f"{data['lucky']!r}")
        cell = _mark({"colour": data["colour"], "number": data["number"]}, path, faces)
        first = _mark(data.get("first"), f"{path}.first", faces)
        assert cell is not None
        return LuckyMark(cell.colour, cell.number, first=first)
    data = _object(value, path, ("colour", "number", "second"), ("colour", "number"))
    colour_raw = data["colour"]
    colour = _COLOUR_NAMES.get(colour_raw) if isinstance(colour_raw, str) else None
    if colour is None:
        raise _fail(f"{path}.colour", f"must be one of red, yellow, green, blue, not "
                                      f"{colour_raw!r}")
    number = _int(data["number"], f"{path}.number", 2, 2 * faces,
                  "a number of the row, 2 to 12 (R2)" if faces == 6 else
                  "a number of the row, 2 to 16 (LG1: 8-sided dice)")
    second = data.get("second", False)
    if not isinstance(second, bool):
        raise _fail(f"{path}.second", f"must be true or false (a second cross, DA1), not "
                                      f"{_kind(second)}")
    return Mark(colour, number, second=second)


def _exchange_mark(value: dict[str, Any], path: str) -> Mark:
    """A Qwixx X-Change mark: ``{"colour", "number", "field"}`` (an exchange, XC1) or
    ``{"field"}`` (a field spent alone, XC4)."""
    field = _int(value["field"], f"{path}.field", 0, MAX_EXCHANGE_FIELDS - 1,
                 f"an X-Change field, 0 to {MAX_EXCHANGE_FIELDS - 1} (XC1)")
    if set(value) == {"field"}:
        return Mark.spend(field)
    plain = _mark({k: v for k, v in value.items() if k != "field"}, path)
    assert plain is not None
    if plain.second:
        raise _fail(f"{path}.second", "a second cross (DA1) is not an X-Change exchange; a "
                                      "mark names a field or is a second cross, not both")
    return Mark(plain.colour, plain.number, field)


def _roll(value: object, path: str, faces: int = 6) -> Roll:
    """A roll of six-sided dice, or of ``faces = 8`` (Qwixx Longo, LG1: it may say
    ``"faces": 8``)."""
    fields = ("white", *(c.value for c in COLOURS)) + (("faces",) if faces != 6 else ())
    data = _object(value, path, fields, ("white",))
    if "faces" in data and data["faces"] != faces:
        raise _fail(f"{path}.faces", f"must be {faces} (the sides of the record's dice, LG1), "
                                     f"not {data['faces']!r}")
    what = "a die, 1 to 6 (R1)" if faces == 6 else "a die, 1 to 8 (LG1: 8-sided dice)"
    white = _list(data["white"], f"{path}.white")
    if len(white) != 2:
        raise _fail(f"{path}.white", f"must hold the two white dice, not {len(white)} value(s)")
    dice = tuple(_int(d, f"{path}.white[{i}]", 1, faces, what)
                 for i, d in enumerate(white))
    coloured: list[int | None] = []
    for colour in COLOURS:
        die = data.get(colour.value)
        coloured.append(None if die is None else
                        _int(die, f"{path}.{colour.value}", 1, faces, what))
    return Roll((dice[0], dice[1]), (coloured[0], coloured[1], coloured[2], coloured[3]),
                faces)


def _ruleset(value: object, players: int) -> Ruleset:
    path = "$.ruleset"
    data = _object(value, path, _RULESET_FIELDS, ())
    if "players" in data:
        claimed = _int(data["players"], f"{path}.players", MIN_PLAYERS, MAX_PLAYERS,
                       f"a number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (R3)")
        if claimed != players:
            raise _fail(f"{path}.players", f"says {claimed} player(s) but $.players names "
                                           f"{players}")
    official = Ruleset(players=players)
    flags: dict[str, bool] = {}
    for name in ("action2_after_game_end", "simultaneous_close", "da_same_turn"):
        value = data.get(name, getattr(official, name))
        if not isinstance(value, bool):
            raise _fail(f"{path}.{name}", f"must be true or false, not {_kind(value)}")
        flags[name] = value
    die_removal = official.die_removal
    end_check = official.end_check
    if "die_removal" in data:
        die_removal = _choice(DieRemoval, data["die_removal"], f"{path}.die_removal")
    if "end_check" in data:
        end_check = _choice(EndCheck, data["end_check"], f"{path}.end_check")
    for name in ("xc_field_without_cross", "xc_in_action2"):  # Qwixx X-Change (XC4, XC5)
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise _fail(f"{path}.{name}", f"must be true or false, not {_kind(value)}")
        flags[name] = value
    if flags["xc_in_action2"]:
        raise _fail(f"{path}.xc_in_action2", "XC5: exchanges in action 2 are not "
                                              "implemented; only false is read")
    mode, candidates = official.lg_lucky_mode, official.lg_lucky_candidates
    if "lg_lucky_mode" in data:
        mode = _choice(LuckyMode, data["lg_lucky_mode"], f"{path}.lg_lucky_mode")
    if "lg_lucky_candidates" in data:
        candidates = _choice(LuckyCandidates, data["lg_lucky_candidates"],
                             f"{path}.lg_lucky_candidates")
    circle, diamond = official.bb_fewest_candidates, official.bb_diamond_order
    if "bb_fewest_candidates" in data:  # Qwixx Bonus B (BB2)
        circle = _choice(CircleCandidates, data["bb_fewest_candidates"],
                         f"{path}.bb_fewest_candidates")
    if "bb_diamond_order" in data:  # Qwixx Bonus B (BB3): only colour_order is played
        diamond = _choice(DiamondOrder, data["bb_diamond_order"], f"{path}.bb_diamond_order")
        if diamond is not official.bb_diamond_order:
            raise _fail(f"{path}.bb_diamond_order", "must be 'colour_order' (BB3: "
                                                    "'player_choice' is not played yet)")
    trigger = official.bp_colour_trigger
    if "bp_colour_trigger" in data:  # Qwixx Big Points (BP3)
        trigger = _choice(BonusTrigger, data["bp_colour_trigger"], f"{path}.bp_colour_trigger")
    lock_marks = official.bp_lock_marks
    if "bp_lock_marks" in data:  # Qwixx Big Points (BP5)
        lock_marks = _int(data["bp_lock_marks"], f"{path}.bp_lock_marks", 5, 6,
                          "5 or 6 (BP5: colour crosses before the last number)")
    scope = data.get("da_scope", official.da_scope)
    if scope != official.da_scope:  # DA2: only 'latest' is played
        raise _fail(f"{path}.da_scope", f"must be 'latest' (DA2: 'own_track' is not played "
                                        f"yet), not {scope!r}")
    return Ruleset(players=players, action2_after_game_end=flags["action2_after_game_end"],
                   die_removal=die_removal, end_check=end_check,
                   simultaneous_close=flags["simultaneous_close"],
                   xc_field_without_cross=flags["xc_field_without_cross"],
                   da_same_turn=flags["da_same_turn"],
                   lg_lucky_mode=mode, lg_lucky_candidates=candidates,
                   bb_fewest_candidates=circle, bb_diamond_order=diamond,
                   bp_colour_trigger=trigger, bp_lock_marks=lock_marks)


def _choice(kind: Any, value: object, path: str) -> Any:
    choices = [m.value for m in kind]
    if not isinstance(value, str) or value not in choices:
        raise _fail(path, f"must be one of {', '.join(choices)}, not {value!r}")
    return kind(value)


def _claims(value: object, path: str, players: int, high: int | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    items = _list(value, path)
    if len(items) != players:
        raise _fail(path, f"must hold one entry per player ({players}), not {len(items)}")
    what = f"a number of penalty boxes, 0 to {high} (R2)" if high is not None else \
        "a whole number"
    return tuple(_int(x, f"{path}[{i}]", 0 if high is not None else None, high, what)
                 for i, x in enumerate(items))


def _turn(value: object, k: int, players: int, boxes: int = PENALTY_BOXES,
          faces: int = 6) -> TurnRecord:
    path = _turn_path(k)
    data = _object(value, path, _TURN_FIELDS, ("active", "roll", "action1", "action2"))
    active = _player(data["active"], f"{path}.active", players)
    roll = _roll(data["roll"], f"{path}.roll", faces)
    choices = _list(data["action1"], f"{path}.action1")
    if len(choices) != players:
        raise _fail(f"{path}.action1", f"must hold one choice per player ({players}), "
                                       f"not {len(choices)}")
    longo = faces != 6  # LG1; lucky crosses only on a sheet of 8-sided dice (LG3)
    action1 = tuple(_mark(m, f"{path}.action1[{i}]", faces, longo)
                    for i, m in enumerate(choices))
    action2 = _mark(data["action2"], f"{path}.action2", faces)
    scores = _claims(data.get("scores"), f"{path}.scores", players, None)
    penalties = _claims(data.get("penalties"), f"{path}.penalties", players, boxes)
    return TurnRecord(active, roll, action1, action2, scores, penalties)


def _result(value: object, players: int) -> GameResult | None:
    if value is None:
        return None
    path = "$.result"
    data = _object(value, path, _RESULT_FIELDS, ("scores", "winners"))
    scores = _claims(_list(data["scores"], f"{path}.scores"), f"{path}.scores", players, None)
    assert scores is not None  # a list always gives a tuple
    winners_raw = _list(data["winners"], f"{path}.winners")
    if not winners_raw:
        raise _fail(f"{path}.winners", "must name at least one winner (R18)")
    winners = tuple(_player(w, f"{path}.winners[{i}]", players)
                    for i, w in enumerate(winners_raw))
    if len(set(winners)) != len(winners):
        raise _fail(f"{path}.winners", "names a player twice")
    ended_by = data.get("ended_by")
    if ended_by not in (None, "R13", "R14"):
        raise _fail(f"{path}.ended_by", f"must be \"R13\", \"R14\" or null, not {ended_by!r}")
    return GameResult(scores, winners, ended_by)


def read_record(data: object) -> GameRecord:
    """The :class:`~qwixx_math.record.GameRecord` of a parsed JSON value, read strictly.

    >>> read_record({"format": "qwixx-math/game-record", "version": 1,
    ...              "players": ["Kari"], "turns": []}).players
    ('Kari',)
    >>> bad = {"format": "qwixx-math/game-record", "version": 1, "players": ["Kari"],
    ...        "turns": [{"active": 0, "roll": {"white": [7, 1]},
    ...                   "action1": [None], "action2": None}]}
    >>> try:
    ...     read_record(bad)
    ... except RecordError as exc:
    ...     print(exc)
    $.turns[0].roll.white[0] (turn 1): must be a die, 1 to 6 (R1), not 7
    """
    # The format before the fields: another format's record is not one of unknown fields.
    if isinstance(data, dict) and "format" in data and data["format"] != RECORD_FORMAT:
        raise _fail("$.format", f"must be {RECORD_FORMAT!r}, not {data['format']!r}: "
                                "this is not a qwixx-math game record")
    top = _object(data, "$", _TOP_FIELDS, ("format", "version", "players", "turns"))
    if not (_is_int(top["version"]) and top["version"] == RECORD_VERSION):
        raise _fail("$.version", f"must be {RECORD_VERSION}, not {top['version']!r} "
                                 "(unsupported version)")
    names = _list(top["players"], "$.players")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise _fail("$.players", f"must name {MIN_PLAYERS} to {MAX_PLAYERS} players (R3), "
                                 f"not {len(names)}")
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise _fail(f"$.players[{i}]", f"must be a name (a string), not {_kind(name)}")
    players = len(names)
    ruleset = _ruleset(top.get("ruleset", {}), players)
    first = 0 if "first" not in top else _player(top["first"], "$.first", players)
    seed = top.get("seed")
    if seed is not None:
        seed = _int(seed, "$.seed")
    turns_raw = _list(top["turns"], "$.turns")
    if len(turns_raw) > MAX_TURNS:
        raise _fail("$.turns", f"holds {len(turns_raw)} turns; at most {MAX_TURNS} are read (a "
                               "legal game has at most 48 turns per player)")
    layout = OFFICIAL
    if "layout" in top:
        if not isinstance(top["layout"], str):
            raise _fail("$.layout", f"must be a layout name (a string), not {_kind(top['layout'])}")
        try:
            layout = layout_named(top["layout"])
        except ParseError as exc:
            raise _fail("$.layout", str(exc)) from None
    turns = tuple(_turn(t, k, players, layout.penalty_boxes, layout.faces)
                  for k, t in enumerate(turns_raw))
    result = _result(top.get("result"), players)
    return GameRecord(tuple(names), ruleset, turns, first, seed, result, layout)


def parse_record_text(text: str, source: str = "<record>") -> GameRecord:
    """Parse a record from JSON text; ``source`` names it in error messages."""
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        hint = ""
        if _unclosed(text):
            hint = " (the text ends inside an unclosed string, object or array: is the " \
                   "record truncated?)"
        elif exc.msg == "Extra data":
            hint = " (a file holds one record; split JSON Lines into one file per record)"
        raise RecordError(f"{source}: not valid JSON at line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg}{hint}", line=exc.lineno, column=exc.colno) from None
    except ValueError as exc:  # NaN / Infinity, or a number too long to convert
        raise RecordError(f"{source}: not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError(f"{source}: not valid JSON: nested too deeply") from None
    try:
        return read_record(data)
    except RecordError as exc:
        raise RecordError(f"{source}: {exc}", path=exc.path) from None


def _unclosed(text: str) -> bool:
    """Whether ``text`` ends inside a string or with an object or array left open."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
    return in_string or depth > 0


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def load_record(path: str | Path) -> GameRecord:
    """Read and parse the record file at ``path`` (UTF-8 JSON, at most
    :data:`MAX_RECORD_BYTES`).

    Raises :class:`RecordError` when the file cannot be read, is too large, is
    not JSON, or is not a record in the documented format.
    """
    source = str(path)
    raw = read_bytes_bounded(path, MAX_RECORD_BYTES, "record", RecordError)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    return parse_record_text(text, source)
