"""Text notation and JSON forms of sheets, rolls, marks and turn plans.

The text forms are meant to be typed on a command line without quoting and
round-trip exactly: ``parse_x(format_x(v)) == v``.  See ``docs/notation.md``.

========== ===================================== ==========================================
value      canonical text                        notes
========== ===================================== ==========================================
sheet      ``r:2,3,5/y:-/g:12,11/b:-/p:1``        rows in any order, missing rows are empty,
                                                 ``p`` defaults to 0; a closed row ends in
                                                 ``12,lock`` (``2,lock`` in green/blue);
                                                 ``lock`` may be left out (R8 implies it);
                                                 another layout than the official one is
                                                 named first: ``mixx-a|r:2,3/.../p:0``;
                                                 Qwixx X-Change: the fields used,
                                                 ``x-change|r:3/.../x:2,5/p:0``;
                                                 a Bonus A sheet ends in its bar,
                                                 ``/bar:x-----------`` (x taken, v void)
roll       ``w:3,5/r:1/y:2/g:6/b:4``               leave out the colours not in play
mark       ``r8``                                ``red8``, ``red 8``, ``r:8`` also read;
                                                 X-Change: ``r3@x2`` (red 3 through
                                                 field 2), ``x2`` (field 2 spent alone)
plan       ``r8/g9``, ``r8/-``, ``-/g9``, ``-/-``     ``penalty`` also reads as ``-/-``
colours    ``g,b``                               also ``gb``, ``green,blue``, ``-`` = none
========== ===================================== ==========================================

Errors: malformed text raises :class:`ParseError` (what was expected and the
character position); well-formed text describing something no game can produce
(marks out of order, a lock without five marks before it) raises
:class:`InvalidStateError` with the rule id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from .big_points import (
    BONUS_ROW_NAMES,
    BonusMark,
    bonus_numbers,
    parse_bonus_mark,
    sheet_with_bonus,
)
from .errors import InvalidStateError, ParseError
from .layouts import OFFICIAL, SheetLayout, layout_named
from .model import COLOURS, Colour, LuckyMark, Mark, Roll, Sheet, TurnPlan

__all__ = [
    "colour_set",
    "format_action1",
    "format_bar",
    "format_colours",
    "format_mark",
    "format_plan",
    "format_roll",
    "format_sheet",
    "mark_from_json",
    "mark_to_json",
    "parse_action1",
    "parse_bar",
    "parse_colours",
    "parse_lucky_mark",
    "parse_mark",
    "parse_plan",
    "parse_roll",
    "parse_sheet",
    "plan_from_json",
    "plan_to_json",
    "roll_from_json",
    "roll_to_json",
    "sheet_from_json",
    "sheet_to_json",
]

_NUMBER = re.compile(r"[0-9]+\Z")
# spaces: the ASCII space only, around the separators (docs/notation.md); ``red 8`` too
_MARK = re.compile(r" *([a-z]+)(?:: *| *)([0-9]+)(\+?) *\Z")
_KEY = re.compile(r" *([a-z]+)\Z")
# an X-Change mark: ``r3@x2`` (a mark, ``@x`` and the field) or ``x2`` (a field alone)
_EXCHANGE = re.compile(r" *(?:([a-z]+ *:? *[0-9]+) *@ *)?x *([0-9]+) *\Z")
#: The separators' padding: the ASCII space, not str.strip()'s tab, newline, no-break space.
_SPACE = " "
#: A short example of each notation, for the errors that say what was expected.
SHEET_EXAMPLE = "r:2,3,5/g:12,11/p:1"
ROLL_EXAMPLE = "w:3,5/r:1/y:2/g:6/b:4"
_LOCK_WORDS = ("lock", "l")
_PENALTY_KEYS = ("p", "pen", "penalty", "penalties")


def _require_str(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise ParseError(f"{what} must be text, not {type(text).__name__}")
    return text


def _require(value: object, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        raise ParseError(f"{what} must be a {kind.__name__}, not {type(value).__name__}")


def _segments(text: str, example: str) -> list[tuple[str, str, int]]:
    """Split ``key:body/key:body`` into (key, body, offset of the body); ``example`` is
    the notation shown when a part is not ``key:value``.

    A key is lower-case letters, written right before its colon (spaces may stand
    before it, after a ``/``); whitespace other than the ASCII space is refused
    (docs/notation.md: how text is read)."""
    out: list[tuple[str, str, int]] = []
    offset = 0
    odd = next((i for i, ch in enumerate(text) if ch.isspace() and ch != _SPACE), None)
    if odd is not None:
        raise ParseError(f"unexpected whitespace {text[odd]!r}: only spaces may stand "
                         f"around '/', ',' and ':' (e.g. {example!r})", text, odd)
    for part in text.split("/"):
        colon = part.find(":")
        if colon < 0:
            raise ParseError(f"expected 'key:value' parts separated by '/', such as "
                             f"{example!r}, not {part.strip(_SPACE)!r}", text, offset)
        key = _KEY.fullmatch(part[:colon])
        if key is None:
            raise ParseError(f"expected a lower-case key right before ':' (e.g. {example!r}),"
                             f" not {part[:colon].lstrip(_SPACE)!r}", text, offset)
        out.append((key.group(1), part[colon + 1:], offset + colon + 1))
        offset += len(part) + 1
    return out


def _colour(name: str, what: str = "colour") -> Colour:
    """The colour ``name`` spells exactly as documented (``r`` or ``red``, lower case)."""
    if not isinstance(name, str) or not (name.isascii() and name.islower() and name.isalpha()):
        raise ParseError(f"unknown {what} {name!r}; expected one of red, yellow, green, "
                         "blue (or r, y, g, b), in lower case")
    return Colour.parse(name)


def _int(token: str, text: str, offset: int, what: str) -> int:
    t = token.strip(_SPACE)
    if not _NUMBER.match(t) or len(t) > 3:
        raise ParseError(f"expected {what}, found {t!r}", text, offset)
    return int(t)


# -- sheet ----------------------------------------------------------------------------------------

def format_sheet(sheet: Sheet) -> str:
    """The canonical text of a sheet: ``r:2,3/y:-/g:-/b:-/p:0``.

    A sheet of another layout than the official one starts with the layout's key
    and ``|``, and lists the layout's rows (by lock colour):

    >>> from qwixx_math.layouts import MIXX_A
    >>> format_sheet(Sheet.from_marks({Colour.RED: [2, 5]}, layout=MIXX_A))
    'mixx-a|r:2,5/y:-/g:-/b:-/p:0'
    """
    _require(sheet, Sheet, "a sheet")
    layout = sheet.layout
    parts = []
    for colour in (COLOURS if layout is OFFICIAL else layout.locks):
        doubled = sheet.second_crosses(colour)  # Double A: "6+" (DA1)
        numbers = [f"{n}+" if n in doubled else str(n) for n in sheet.marks(colour)]
        if sheet.is_locked(colour):
            numbers.append("lock")
        parts.append(f"{colour.letter}:{','.join(numbers) or '-'}")
    if layout.exchange:  # Qwixx X-Change: the fields used (XC2)
        parts.append(f"x:{','.join(str(f) for f in sheet.used_fields) or '-'}")
    parts.append(f"p:{sheet.penalties}")
    if layout.bar:
        parts.append(f"bar:{format_bar(sheet)}")
    if layout.bonus_rows:  # Big Points: the bonus rows RY, GB (BP1)
        parts.extend(f"{name}:{','.join(str(n) for n in bonus_numbers(sheet, k)) or '-'}"
                     for k, name in enumerate(BONUS_ROW_NAMES))
    text = "/".join(parts)
    return text if layout.is_official else f"{layout.key}|{text}"


def _split_layout(text: str, layout: SheetLayout | str | None) -> tuple[str, SheetLayout, int]:
    """The text after an optional ``layout|`` prefix, the layout it names (or ``layout``,
    or the official sheet) and the offset of the rest."""
    given = None if layout is None else layout_named(layout)
    bar = text.find("|")
    if bar < 0:
        return text, OFFICIAL if given is None else given, 0
    try:
        named = layout_named(text[:bar].strip(_SPACE))
    except ParseError as err:
        raise ParseError(f"{err}", text, 0) from None
    if given is not None and named != given:
        raise ParseError(f"the sheet names layout {named.name} but layout {given.name} was "
                         "asked for", text, 0)
    return text[bar + 1:], named, bar + 1


def parse_sheet(text: str, layout: SheetLayout | str | None = None) -> Sheet:
    """Read a sheet from its text notation (see the module docstring).

    The layout is the one the text names (``mixx-b|r:10,6/p:0``), else ``layout``,
    else the official sheet; a number its row does not show raises ParseError (R2).

    >>> parse_sheet("r:2,3,5 / g:12,11 / p:1")
    Sheet('r:2,3,5/y:-/g:12,11/b:-/p:1')
    >>> parse_sheet("r:10,6", layout="mixx-b").masks
    (3, 0, 0, 0)
    """
    text = _require_str(text, "a sheet")
    if not text.strip():
        raise ParseError("empty sheet text; an empty sheet is 'r:-/y:-/g:-/b:-/p:0'")
    body_text, layout, start = _split_layout(text, layout)
    if not body_text.strip():
        raise ParseError("empty sheet text after the layout; an empty sheet is "
                         "'r:-/y:-/g:-/b:-/p:0'", text, start)
    rows: dict[Colour, list[int]] = {}
    seconds: dict[Colour, list[int]] = {}
    locks: set[Colour] = set()
    penalties: int | None = None
    used: list[int] | None = None
    bar: tuple[int, int] | None = None
    bonus: dict[str, list[int]] = {}
    for key, body, offset in _segments(body_text, SHEET_EXAMPLE):
        offset += start
        if key in BONUS_ROW_NAMES:  # Big Points: ry:4,5,8 / gb:11,8 (BP1)
            if key in bonus:
                raise ParseError(f"the bonus row {key} is given twice", text, offset)
            if not layout.bonus_rows:
                raise ParseError(f"layout {layout.name} has no bonus rows, so no '{key}:' "
                                 "part", text, offset, rule="BP1")
            items = [t.strip(_SPACE) for t in body.split(",")]
            bonus[key] = [] if items == ["-"] else [
                _int(item, text, offset, f"a bonus {key} number (2 to 12)") for item in items]
            continue
        if key == "bar":
            if bar is not None:
                raise ParseError("the bonus bar given twice", text, offset)
            bar = parse_bar(body, layout, text, offset)
            continue
        if key == "x":
            if used is not None:
                raise ParseError("the X-Change fields are given twice", text, offset)
            used = _used_fields_text(body, text, offset, layout)
            continue
        if key in _PENALTY_KEYS:
            if penalties is not None:
                raise ParseError("penalties given twice", text, offset)
            penalties = _int(body, text, offset, "a number of penalties (0 to 4)")
            continue
        try:
            colour = _colour(key)
        except ParseError:
            raise ParseError(
                f"unknown row {key!r}; expected r, y, g, b or p", text, offset) from None
        if colour in rows:
            raise ParseError(f"the {colour.value} row is given twice", text, offset)
        numbers: list[int] = []
        items = [t.strip(_SPACE) for t in body.split(",")]
        if items != ["-"]:
            pos = offset
            for i, item in enumerate(items):
                if item in _LOCK_WORDS:
                    if i != len(items) - 1:
                        raise ParseError(f"'lock' must close the {colour.value} row", text, pos)
                    locks.add(colour)
                else:
                    top = layout.top_number
                    second = item.endswith("+")  # a second cross under it (DA1)
                    if second and not layout.second_crosses:
                        raise ParseError(f"{item!r}: layout {layout.name} has no second-cross "
                                         "boxes", text, pos, rule="DA1")
                    number = _int(item[:-1] if second else item, text, pos,
                                  f"a {colour.value} number (2 to {top})")
                    if second:
                        seconds.setdefault(colour, []).append(number)
                    if not 2 <= number <= top:
                        raise ParseError(
                            f"{colour.value} numbers run from 2 to {top}, not {number}", text, pos)
                    if not layout.is_official:
                        _check_shown(layout, colour, number, text, pos)
                    numbers.append(number)
                pos += len(item) + 1
        rows[colour] = numbers
    _check_locks(rows, locks, layout)
    sheet = Sheet.from_marks(rows, penalties if penalties is not None else 0, layout,
                             used or (), seconds, *(bar or (0, 0)))
    if bonus:
        return sheet_with_bonus(sheet, bonus.get("ry", ()), bonus.get("gb", ()))
    return sheet


def _used_fields_text(body: str, text: str, offset: int, layout: SheetLayout) -> list[int]:
    """The ``x:2,5`` part of a sheet: the X-Change fields used (``-`` for none, XC1)."""
    if not layout.exchange:
        raise ParseError(f"layout {layout.name} has no X-Change track, so no 'x:' part",
                         text, offset, rule="XC1")
    items = [t.strip(_SPACE) for t in body.split(",")]
    if items == ["-"]:
        return []
    used = []
    for item in items:
        used.append(_int(item, text, offset, f"an X-Change field (0 to "
                                             f"{len(layout.exchange) - 1})"))
        offset += len(item) + 1
    return used


#: The characters of a bonus bar field in the notation: taken, void, free (BA1, BA6).
_BAR_CHARS = {"x": "taken", "v": "void", "-": "free"}


def format_bar(sheet: Sheet) -> str:
    """A Bonus A sheet's bar, one character per field left to right: ``x`` taken, ``v``
    void, ``-`` free (BA1, BA6); ``""`` on a sheet without a bar."""
    _require(sheet, Sheet, "a sheet")
    return "".join("x" if sheet.bar_taken >> k & 1 else "v" if sheet.bar_void >> k & 1
                   else "-" for k in range(len(sheet.layout.bar)))


def parse_bar(body: str, layout: SheetLayout, text: str = "", offset: int | None = None
              ) -> tuple[int, int]:
    """The ``(taken, void)`` masks of a bar written as :func:`format_bar` writes it, on
    ``layout`` (a pad with a bonus bar, BA1)."""
    if not isinstance(body, str):
        raise ParseError(f"a bonus bar is text, not {type(body).__name__}")
    _require(layout, SheetLayout, "the layout of a bonus bar")
    _require_str(text, "the text a bonus bar was read from")
    if offset is not None and (not isinstance(offset, int) or isinstance(offset, bool)):
        raise ParseError(f"a bonus bar's offset is a whole number or None, not {offset!r}")
    if not layout.bar:
        raise ParseError(f"layout {layout.name} has no bonus bar", text or body, offset,
                         rule="BA1")
    chars = body.strip(_SPACE)
    if len(chars) != len(layout.bar) or set(chars) - set(_BAR_CHARS):
        raise ParseError(f"the bonus bar is {len(layout.bar)} characters, one per field: x "
                         f"taken, v void, - free; not {chars[:20]!r}", text or body, offset,
                         rule="BA1")
    taken = sum(1 << k for k, ch in enumerate(chars) if ch == "x")
    void = sum(1 << k for k, ch in enumerate(chars) if ch == "v")
    return taken, void


def _check_shown(layout: SheetLayout, colour: Colour, number: int, text: str = "",
                 pos: int | None = None) -> None:
    """R2: ``number`` must be printed in ``colour``'s row of ``layout``."""
    i = layout.row_of[colour.index]
    if i < 0:
        raise ParseError(f"layout {layout.name} has no {colour.value} row", text, pos, rule="R2")
    if layout.pos[colour.index][number] < 0:
        shown = ", ".join(str(n) for n in layout.numbers[i])
        raise ParseError(f"the {colour.value} row of layout {layout.name} shows {shown}, "
                         f"not {number}", text, pos, rule="R2")


def _check_locks(rows: dict[Colour, list[int]], locks: set[Colour],
                 layout: SheetLayout = OFFICIAL) -> None:
    """R8: a lock box needs its row's last number; the last number implies the lock (so
    ``r:2,3,4,5,6,12`` reads as ``r:2,3,4,5,6,12,lock``)."""
    for colour in locks:
        if layout.row_of[colour.index] < 0:
            raise InvalidStateError("R2", f"layout {layout.name} has no {colour.value} row")
        last = layout.last_number(colour)
        numbers = rows.get(colour, [])
        if not numbers or not layout.closes(colour, numbers[-1]):
            raise InvalidStateError(
                "R8", f"the {colour.value} lock box is marked but {colour.value} "
                      f"{last} is not; only marking the last number marks the lock")


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    """``{"red": [2, 3], "yellow": [], "green": [], "blue": [], "locks": [], "penalties": 0}``.

    A sheet of another layout also carries ``"layout"`` (its key, e.g. ``"mixx-a"``)
    and lists only that layout's rows."""
    _require(sheet, Sheet, "a sheet")
    layout = sheet.layout
    out: dict[str, Any] = {}
    if not layout.is_official:
        out["layout"] = layout.key
    rows = COLOURS if layout.is_official else layout.locks
    out.update({c.value: list(sheet.marks(c)) for c in rows})
    out["locks"] = [c.value for c in rows if sheet.is_locked(c)]
    if layout.exchange:  # Qwixx X-Change: the fields used (XC2)
        out["exchange"] = list(sheet.used_fields)
    out["penalties"] = sheet.penalties
    if any(sheet.seconds):  # Double A (DA1): the doubled numbers of each row
        out["seconds"] = {c.value: list(sheet.second_crosses(c)) for c in rows
                          if sheet.seconds[c.index]}
    if layout.bar:
        out["bar"] = format_bar(sheet)
    if layout.bonus_rows:  # Big Points (BP1): {"ry": [4, 5], "gb": [11]}
        out["bonus_rows"] = {name: list(bonus_numbers(sheet, k))
                             for k, name in enumerate(BONUS_ROW_NAMES)}
    return out


def sheet_from_json(data: object, layout: SheetLayout | str | None = None) -> Sheet:
    """Inverse of :func:`sheet_to_json`; missing rows are empty, missing penalties 0.

    The layout is the one ``data["layout"]`` names, else ``layout``, else the official
    sheet (a contradiction raises ParseError).  Unlike the text form, the JSON form
    states the locks: ``locks`` must list exactly the rows that end in their last
    number (R8).
    """
    if not isinstance(data, dict):
        raise ParseError(f"a sheet must be a JSON object, not {type(data).__name__}")
    known = {c.value for c in COLOURS} | {"locks", "penalties", "layout", "exchange",
                                          "seconds", "bar", "bonus_rows"}
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise ParseError(f"unknown sheet field(s): {', '.join(unknown)}")
    given = None if layout is None else layout_named(layout)
    if "layout" in data:
        if not isinstance(data["layout"], str):
            raise ParseError("sheet.layout must be a layout name")
        named = layout_named(data["layout"])
        if given is not None and named != given:
            raise ParseError(f"the sheet names layout {named.name} but layout {given.name} "
                             "was asked for")
        given = named
    lay = OFFICIAL if given is None else given
    rows: dict[Colour, list[int]] = {}
    for colour in COLOURS:
        numbers = data.get(colour.value, [])
        if not isinstance(numbers, list) or not all(_is_int(n) for n in numbers):
            raise ParseError(f"sheet.{colour.value} must be a list of numbers")
        for n in numbers:
            if not 2 <= n <= lay.top_number:
                raise ParseError(f"{colour.value} numbers run from 2 to {lay.top_number}, not {n}")
            if not lay.is_official:
                _check_shown(lay, colour, n)
        if numbers or lay.row_of[colour.index] >= 0:
            rows[colour] = list(numbers)
    locks_raw = data.get("locks", [])
    if not isinstance(locks_raw, list) or not all(isinstance(x, str) for x in locks_raw):
        raise ParseError("sheet.locks must be a list of colour names")
    locks = {_colour(x) for x in locks_raw}
    for colour in locks:
        if lay.row_of[colour.index] < 0:
            raise InvalidStateError("R2", f"layout {lay.name} has no {colour.value} row")
    for colour, numbers in rows.items():
        last = lay.last_number(colour)
        has_last = bool(numbers) and lay.closes(colour, numbers[-1])
        if has_last != (colour in locks):
            raise InvalidStateError(
                "R8", f"{colour.value} {last} and the {colour.value} lock box "
                      "are marked together or not at all")
    penalties = data.get("penalties", 0)
    if not _is_int(penalties):
        raise ParseError("sheet.penalties must be a number")
    used = data.get("exchange", [])
    if not isinstance(used, list) or not all(_is_int(f) for f in used):
        raise ParseError("sheet.exchange must be a list of X-Change field numbers", rule="XC1")
    if used and not lay.exchange:
        raise ParseError(f"layout {lay.name} has no X-Change track, so sheet.exchange must "
                         "be empty", rule="XC1")
    bar = parse_bar(data["bar"], lay) if "bar" in data else (0, 0)
    sheet = Sheet.from_marks(rows, penalties, lay, used,
                             _seconds_from_json(data.get("seconds", {}), lay), *bar)
    if "bonus_rows" not in data:
        return sheet
    bonus = data["bonus_rows"]
    if not isinstance(bonus, dict) or set(bonus) - set(BONUS_ROW_NAMES) or not all(
            isinstance(v, list) and all(_is_int(n) for n in v) for v in bonus.values()):
        raise ParseError('sheet.bonus_rows must be {"ry": [numbers], "gb": [numbers]}',
                         rule="BP1")
    return sheet_with_bonus(sheet, bonus.get("ry", []), bonus.get("gb", []))


def _seconds_from_json(data: object, layout: SheetLayout) -> dict[Colour, list[int]]:
    """A sheet's ``seconds`` field (Double A, DA1): row name -> numbers with a second cross."""
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and all(_is_int(n) for n in v)
            for k, v in data.items()):
        raise ParseError("sheet.seconds must map row names to lists of numbers", rule="DA1")
    if data and not layout.second_crosses:
        raise ParseError(f"layout {layout.name} has no second-cross boxes (sheet.seconds)",
                         rule="DA1")
    out: dict[Colour, list[int]] = {}
    for key, numbers in data.items():
        colour = _colour(key)
        for n in numbers:
            if not 2 <= n <= layout.top_number:
                raise ParseError(f"{colour.value} numbers run from 2 to {layout.top_number}, "
                                 f"not {n}")
            _check_shown(layout, colour, n)
        out[colour] = list(numbers)
    return out


# -- roll -----------------------------------------------------------------------------------------

def format_roll(roll: Roll) -> str:
    """The canonical text of a roll: ``w:3,5/r:1/y:2/g:6/b:4``."""
    _require(roll, Roll, "a roll")
    parts = [f"w:{roll.white[0]},{roll.white[1]}"]
    parts += [f"{c.letter}:{d}" for c, d in zip(COLOURS, roll.coloured, strict=True)
              if d is not None]
    prefix = "" if roll.faces == 6 else f"d{roll.faces}|"  # Longo's 8-sided dice (LG1)
    return prefix + "/".join(parts)


def parse_roll(text: str, faces: int | None = None) -> Roll:
    """Read a roll: ``w:3,5/r:1/y:2/g:6/b:4`` (colours not in play left out).

    Dice show 1 to 6 unless the text starts with ``d8|`` (Qwixx Longo's eight-sided
    dice, LG1) or ``faces`` says 8 (a caller that knows the game's layout passes its
    :attr:`~qwixx_math.layouts.SheetLayout.faces`); a ``d8|`` text with ``faces=6`` is
    refused.

    >>> parse_roll("w:6,6/r:2/y:3/b:1").in_play == {Colour.RED, Colour.YELLOW, Colour.BLUE}
    True
    >>> parse_roll("d8|w:7,8/r:1")
    Roll('d8|w:7,8/r:1')
    """
    text = _require_str(text, "a roll")
    if faces is not None and (not isinstance(faces, int) or isinstance(faces, bool)
                              or faces not in (6, 8)):
        raise ParseError(f"dice have 6 or 8 sides (8: Qwixx Longo), not {faces!r}", rule="LG1")
    head, bar, rest = text.partition("|")
    if bar and head.strip() in ("d6", "d8"):
        named = int(head.strip()[1])
        if faces is not None and faces != named:
            raise ParseError(f"the roll is of {named}-sided dice but {faces}-sided dice were "
                             "asked for", text, 0, rule="LG1")
        faces = named
        roll = _parse_roll_body(rest, faces)
        return roll
    return _parse_roll_body(text, 6 if faces is None else faces)


def _parse_roll_body(text: str, faces: int) -> Roll:
    """A roll's text without its ``d8|`` prefix, dice of ``faces`` sides."""
    if not text.strip():
        raise ParseError("empty roll text; a roll looks like 'w:3,5/r:1/y:2/g:6/b:4'")
    white: tuple[int, int] | None = None
    coloured: list[int | None] = [None, None, None, None]
    seen: set[str] = set()
    for key, body, offset in _segments(text, ROLL_EXAMPLE):
        if key in ("w", "white"):
            if white is not None:
                raise ParseError("the white dice are given twice", text, offset)
            items = body.split(",")
            if len(items) != 2:
                raise ParseError("expected two white dice, e.g. 'w:3,5'", text, offset)
            a = _die(items[0], text, offset, "white", faces)
            b = _die(items[1], text, offset + len(items[0]) + 1, "white", faces)
            white = (a, b)
            continue
        try:
            colour = _colour(key)
        except ParseError:
            raise ParseError(f"unknown die {key!r}; expected w, r, y, g or b",
                             text, offset) from None
        if colour.value in seen:
            raise ParseError(f"the {colour.value} die is given twice", text, offset)
        seen.add(colour.value)
        coloured[colour.index] = _die(body, text, offset, colour.value, faces)
    if white is None:
        raise ParseError("a roll needs the two white dice, e.g. 'w:3,5'", text, 0)
    return Roll(white, (coloured[0], coloured[1], coloured[2], coloured[3]), faces)


def _die(token: str, text: str, offset: int, name: str, faces: int = 6) -> int:
    value = _int(token, text, offset, f"a {name} die (1 to {faces})")
    if not 1 <= value <= faces:
        raise ParseError(f"a die shows 1 to {faces}; the {name} die shows {value}", text, offset,
                         rule="R1" if faces == 6 else "LG1")
    return value


def roll_to_json(roll: Roll) -> dict[str, Any]:
    """``{"white": [3, 5], "red": 1, ...}`` with only the colours in play (and
    ``"faces": 8`` for Longo's 8-sided dice, LG1)."""
    _require(roll, Roll, "a roll")
    out: dict[str, Any] = {"white": list(roll.white)}
    if roll.faces != 6:
        out["faces"] = roll.faces
    for colour, die in zip(COLOURS, roll.coloured, strict=True):
        if die is not None:
            out[colour.value] = die
    return out


def roll_from_json(data: object, faces: int = 6) -> Roll:
    """Inverse of :func:`roll_to_json`; dice of ``faces`` sides unless the object says
    ``"faces"``."""
    if not isinstance(data, dict):
        raise ParseError(f"a roll must be a JSON object, not {type(data).__name__}")
    known = {"white", "faces"} | {c.value for c in COLOURS}
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise ParseError(f"unknown roll field(s): {', '.join(unknown)}")
    white = data.get("white")
    if not (isinstance(white, list) and len(white) == 2 and all(_is_int(w) for w in white)):
        raise ParseError("roll.white must be a list of two dice")
    coloured: list[int | None] = []
    for colour in COLOURS:
        die = data.get(colour.value)
        if die is not None and not _is_int(die):
            raise ParseError(f"roll.{colour.value} must be a die (1 to 6) or absent")
        coloured.append(die)
    faces = data.get("faces", faces)
    return Roll((white[0], white[1]), (coloured[0], coloured[1], coloured[2], coloured[3]),
                faces)


# -- marks and plans ------------------------------------------------------------------------------

def format_mark(mark: Mark | None) -> str:
    """``r8``, or ``-`` for no mark; a second cross (Double A, DA1) ``r8+``; an X-Change
    exchange ``r3@x2`` or field alone ``x2`` (XC1, XC4); a lucky cross (Qwixx Longo, LG3)
    ``*y10``, after a white-sum mark ``r13+*y10`` (LG4)."""
    if mark is not None:
        _require(mark, Mark, "a mark")
    return "-" if mark is None else str(mark)


def parse_mark(text: str, top: int = 12) -> Mark:
    """Read a mark: ``r8``, ``red 8``, ``G:12``; ``r8+`` is a second cross (Double A,
    DA1); an X-Change exchange ``r3@x2`` (red 3 for the white sum through field 2), a
    field spent alone ``x2`` (XC1, XC4).  Numbers run 2..``top`` (12; a caller that
    knows the layout passes its :attr:`~qwixx_math.layouts.SheetLayout.top_number`, 16
    on Longo, LG1).

    >>> parse_mark("r14", top=16)
    Mark(colour=<Colour.RED: 'red'>, number=14)
    """
    text = _require_str(text, "a mark")
    top = _top(top)
    if "*" in text:
        return parse_lucky_mark(text)
    bonus = parse_bonus_mark(text.strip(_SPACE))  # Big Points: ry5, gb8 (BP1)
    if bonus is not None:
        return bonus
    exchange = _EXCHANGE.match(text)
    if exchange is not None:
        field = _int(exchange.group(2), text, exchange.start(2), "an X-Change field number")
        if exchange.group(1) is None:
            return Mark.spend(field)
        mark = parse_mark(exchange.group(1), top)
        if type(mark) is not Mark or mark.second:  # ry5@x2, r5+@x2 are no row's cell
            raise ParseError(f"an exchange crosses a plain cell of a colour row such as "
                             f"'r3@x2', not {mark} ({text!r})", text, 0, rule="XC1")
        return Mark(mark.colour, mark.number, field)
    match = _MARK.match(text)
    if match is None:
        raise ParseError(f"expected a mark such as 'r8' or 'green 12', not {text!r}", text, 0)
    colour = _colour(match.group(1))
    digits = match.group(2)
    number = int(digits) if len(digits) <= 3 else 0
    if not 2 <= number <= top:
        raise ParseError(f"a row holds the numbers 2 to {top}, not {digits}", text,
                         match.start(2), rule="R2")
    return Mark(colour, number, second=match.group(3) == "+")


def _top(top: object) -> int:
    """``top``, the highest number of a row: 12, or 16 on Qwixx Longo (LG1)."""
    if not isinstance(top, int) or isinstance(top, bool) or top not in (12, 16):
        raise ParseError(f"a row's highest number is 12, or 16 on Qwixx Longo (LG1), not "
                         f"{top!r}")
    return top


def parse_lucky_mark(text: str) -> LuckyMark:
    """Read a lucky cross of Qwixx Longo (LG3): ``*y10``, or ``r13+*y10`` after the
    white-sum mark ``r13`` (``lg_lucky_mode = additional``, LG4); numbers 2 to 16.

    >>> parse_lucky_mark("r13+*y10").describe()
    'red 13, then lucky yellow 10'
    """
    text = _require_str(text, "a lucky mark")
    head, plus, tail = text.rpartition("+")
    star = tail.find("*")
    if star < 0 or tail[:star].strip(_SPACE) or "*" in head:
        raise ParseError(f"expected a lucky mark such as '*y10' or 'r13+*y10', not {text!r}",
                         text, 0, rule="LG3")
    lucky = _longo_mark(tail[star + 1:], text, len(head) + len(plus) + star + 1)
    first = _longo_mark(head, text, 0) if plus else None
    return LuckyMark(lucky.colour, lucky.number, first=first)


def _longo_mark(part: str, text: str, offset: int) -> Mark:
    """The plain mark ``part`` of ``text`` (at ``offset``), numbers 2 to 16 (LG1)."""
    match = _MARK.match(part)
    if match is None:
        raise ParseError(f"expected a mark such as 'y10', not {part!r}", text, offset)
    digits = match.group(2)
    number = int(digits) if len(digits) <= 3 else 0
    if not 2 <= number <= 16:
        raise ParseError(f"a row holds the numbers 2 to 16 (Qwixx Longo), not {digits}", text,
                         offset + match.start(2), rule="R2")
    if match.group(3):  # 'r3+': read, not dropped, so that 'r3++*y4' is no silent r3+*y4
        raise ParseError(f"a lucky cross's marks are plain marks, not the second cross "
                         f"{part.strip(_SPACE)!r} (second crosses are Double A's, lucky "
                         f"crosses Longo's)", text, offset + match.start(3), rule="DA1")
    return Mark(_colour(match.group(1)), number)


def _parse_optional_mark(text: str, top: int = 12) -> Mark | None:
    return None if text.strip(_SPACE) == "-" else parse_mark(text, top)


def format_plan(plan: TurnPlan) -> str:
    """``r8/g9``; ``-`` stands for an action not taken; ``-/-`` is the penalty."""
    _require(plan, TurnPlan, "a plan")
    return f"{format_mark(plan.action1)}/{format_mark(plan.action2)}"


def parse_plan(text: str, top: int = 12) -> TurnPlan:
    """Read a turn plan: ``r8/g9``, ``r8/-``, ``-/g9``, ``-/-`` or ``penalty``; numbers
    2..``top`` as :func:`parse_mark` reads them (16 on Qwixx Longo)."""
    text = _require_str(text, "a plan")
    top = _top(top)
    if text.strip(_SPACE) == "penalty":
        return TurnPlan(None, None)
    parts = text.split("/")
    if len(parts) != 2:
        raise ParseError(
            "expected a plan 'ACTION1/ACTION2' such as 'r8/g9', 'r8/-', '-/g9' or '-/-'", text, 0)
    return TurnPlan(_parse_optional_mark(parts[0], top), _parse_optional_mark(parts[1], top))


def format_action1(choices: Sequence[Mark | None]) -> str:
    """Every player's action-1 choice, comma separated: ``y5,r5,-``."""
    if isinstance(choices, str) or not isinstance(choices, Sequence):
        raise ParseError("action-1 choices must be a sequence of Mark or None")
    return ",".join(format_mark(m) for m in choices)


def parse_action1(text: str) -> tuple[Mark | None, ...]:
    """Inverse of :func:`format_action1`."""
    text = _require_str(text, "action-1 choices")
    if not text.strip():
        raise ParseError("expected one action-1 choice per player, e.g. 'y5,r5,-'", text, 0)
    return tuple(_parse_optional_mark(t) for t in text.split(","))


def mark_to_json(mark: Mark | None) -> dict[str, Any] | None:
    """``{"colour": "red", "number": 8}`` or None; a lucky cross (LG3) adds ``"lucky": true``
    and, after a white-sum mark (LG4), ``"first": {"colour": ..., "number": ...}``; a second
    cross (DA1) adds ``"second": true``."""
    if mark is not None:
        _require(mark, Mark, "a mark")
        if isinstance(mark, BonusMark):  # Big Points (BP1)
            return {"bonus_row": BONUS_ROW_NAMES[mark.row], "number": mark.number}
        if isinstance(mark, LuckyMark):
            out: dict[str, Any] = {"colour": mark.colour.value, "number": mark.number,
                                   "lucky": True}
            if mark.first is not None:
                out["first"] = mark_to_json(mark.first)
            return out
    if mark is not None and mark.field is not None:  # Qwixx X-Change
        if not mark.crosses:
            return {"field": mark.field}
        return {"colour": mark.colour.value, "number": mark.number, "field": mark.field}
    if mark is not None and mark.second:
        return {"colour": mark.colour.value, "number": mark.number, "second": True}
    return None if mark is None else {"colour": mark.colour.value, "number": mark.number}


def mark_from_json(data: object, top: int = 12) -> Mark | None:
    """Inverse of :func:`mark_to_json`; also reads the text form (``"r8"``).  Numbers run
    2..``top`` (12; a caller that knows the layout passes its
    :attr:`~qwixx_math.layouts.SheetLayout.top_number`, 16 on Longo, LG1)."""
    if data is None:
        return None
    if isinstance(data, str):
        return _parse_optional_mark(data, top)
    if isinstance(data, dict) and "lucky" in data and set(data) <= _LUCKY_FIELDS:
        return _lucky_from_json(data, top)
    if isinstance(data, dict) and "field" in data:
        return _exchange_mark_from_json(data, top)
    if isinstance(data, dict) and "bonus_row" in data:  # Big Points (BP1)
        row, number = data["bonus_row"], data.get("number")
        if set(data) != {"bonus_row", "number"} or row not in BONUS_ROW_NAMES \
                or not isinstance(number, int) or isinstance(number, bool):
            raise ParseError('a bonus cross is {"bonus_row": "ry" or "gb", "number": 2..12}',
                             rule="BP1")
        return BonusMark.of(str(row), number)
    if not isinstance(data, dict) or set(data) - {"second"} != {"colour", "number"}:
        raise ParseError('a mark must be null or {"colour": ..., "number": ...}')
    second = data.get("second", False)
    if not isinstance(second, bool):
        raise ParseError('a mark\'s "second" (a second cross, DA1) is true or false',
                         rule="DA1")
    colour, number = data["colour"], data["number"]
    if not isinstance(colour, str) or not _is_int(number):
        raise ParseError('a mark must be {"colour": "red", "number": 8}')
    if number > top:
        raise ParseError(f"a row holds the numbers 2 to {top}, not {number!r}", rule="R2")
    return Mark(_colour(colour), number, second=second)


def _exchange_mark_from_json(data: dict[Any, Any], top: int) -> Mark:
    """``{"colour": "red", "number": 3, "field": 2}`` or ``{"field": 2}`` (XC1, XC4)."""
    field = data["field"]
    if not _is_int(field):
        raise ParseError("mark.field must be an X-Change field number", rule="XC1")
    if set(data) == {"field"}:
        return Mark.spend(field)
    if set(data) != {"colour", "number", "field"}:
        raise ParseError('an X-Change mark is {"colour": ..., "number": ..., "field": ...} '
                         'or {"field": ...}')
    plain = mark_from_json({"colour": data["colour"], "number": data["number"]}, top)
    assert plain is not None
    return Mark(plain.colour, plain.number, field)
_LUCKY_FIELDS = frozenset({"colour", "number", "lucky", "first"})


def _lucky_from_json(data: dict[str, Any], top: int) -> LuckyMark:
    """A lucky cross's JSON form (:func:`mark_to_json`)."""
    if data["lucky"] is not True:
        raise ParseError('a lucky mark says "lucky": true', rule="LG3")
    plain = mark_from_json({k: data.get(k) for k in ("colour", "number")}, top)
    first = data.get("first")
    if first is not None and not (isinstance(first, dict) and set(first) == {"colour", "number"}):
        raise ParseError('a lucky mark\'s "first" is a mark {"colour": ..., "number": ...}',
                         rule="LG4")
    assert plain is not None
    return LuckyMark(plain.colour, plain.number, first=mark_from_json(first, top))


def plan_to_json(plan: TurnPlan) -> dict[str, Any]:
    """``{"action1": mark|null, "action2": mark|null, "penalty": bool}``."""
    _require(plan, TurnPlan, "a plan")
    return {"action1": mark_to_json(plan.action1), "action2": mark_to_json(plan.action2),
            "penalty": plan.penalty}


def plan_from_json(data: object, top: int = 12) -> TurnPlan:
    """Inverse of :func:`plan_to_json` (``penalty`` is optional and checked if given);
    numbers 2..``top`` as :func:`mark_from_json` reads them."""
    if not isinstance(data, dict) or not {"action1", "action2"} <= set(data):
        raise ParseError('a plan must be {"action1": ..., "action2": ...}')
    plan = TurnPlan(mark_from_json(data["action1"], top), mark_from_json(data["action2"], top))
    if "penalty" in data and data["penalty"] is not plan.penalty:
        raise ParseError("plan.penalty must be true exactly when both actions are null")
    return plan


# -- colours --------------------------------------------------------------------------------------

def format_colours(colours: Iterable[Colour | str]) -> str:
    """``g,b`` in sheet order, ``-`` for none."""
    chosen = colour_set(colours)
    return ",".join(c.letter for c in COLOURS if c in chosen) or "-"


_ALL_COLOURS = frozenset(COLOURS)


def colour_set(colours: object, what: str = "colours") -> frozenset[Colour]:
    """The colours given to the library, in every form it accepts: an iterable of
    :class:`Colour` values or colour names (``{Colour.RED, "green"}``), one colour, or
    text for :func:`parse_colours` (``"g,b"``).  Anything else raises ParseError.

    >>> sorted(c.value for c in colour_set(["red", Colour.BLUE]))
    ['blue', 'red']
    """
    if colours.__class__ is frozenset and colours <= _ALL_COLOURS:
        return colours  # the common case, in the hot paths
    if isinstance(colours, str):
        return parse_colours(colours)
    if isinstance(colours, Colour):
        return frozenset((colours,))
    if isinstance(colours, (bytes, bytearray)) or not isinstance(colours, Iterable):
        raise ParseError(f"{what} must be Colour values or colour names, not {colours!r}")
    out = set()
    for c in colours:
        if not isinstance(c, (Colour, str)):
            raise ParseError(f"{what} must be Colour values or colour names, not {c!r}")
        out.add(Colour.of(c))
    return frozenset(out)


def parse_colours(text: str) -> frozenset[Colour]:
    """Read a set of colours: ``g,b``, ``gb``, ``green,blue``, or ``-``/empty for none."""
    text = _require_str(text, "colours")
    stripped = text.strip(_SPACE)
    if stripped in ("", "-"):
        return frozenset()
    out: set[Colour] = set()
    for token in stripped.split(","):
        token = token.strip(_SPACE)
        try:
            out.add(_colour(token))
        except ParseError:
            if token and all(ch in "rygb" for ch in token):
                out.update(_colour(ch) for ch in token)
            else:
                raise
    return frozenset(out)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

