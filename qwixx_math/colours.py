"""The four colours of Qwixx (R1, R2): the dice and the lock colours that name the rows.

:class:`Colour` lives apart from :mod:`qwixx_math.model` so that
:mod:`qwixx_math.layouts` (which the sheet reads) can use it;
:mod:`qwixx_math.model` re-exports it.  ``Colour.position`` and
``Colour.number`` describe the *official* sheet; a sheet on another layout asks
its :class:`~qwixx_math.layouts.SheetLayout`.
"""

from __future__ import annotations

from enum import Enum

from .errors import ParseError

__all__ = ["COLOURS", "Colour"]


class Colour(Enum):
    """The four colours, in sheet order (R1, R2).

    Each colour carries ``index`` (0 red, 1 yellow, 2 green, 3 blue: the order of
    rows and dice), ``letter`` (``r``, ``y``, ``g``, ``b``: the text notation),
    ``ascending`` (red and yellow read 2..12, green and blue 12..2) and
    ``last_number`` (12 for red/yellow, 2 for green/blue: the number that closes
    the row, R8).
    """

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"

    index: int
    letter: str
    ascending: bool
    last_number: int
    positions: tuple[int, ...]

    # Members are singletons: identity hashing is correct and much faster than Enum's.
    __hash__ = object.__hash__

    def position(self, number: int) -> int:
        """Position (0..10, left to right) of ``number`` in this colour's row."""
        try:
            pos = self.positions[number] if number >= 0 else -1  # no negative indexing
        except (IndexError, TypeError):
            pos = -1
        if pos < 0 or isinstance(number, bool):
            raise ParseError(f"a row holds the numbers 2 to 12, not {number!r}", rule="R2")
        return pos

    def number(self, position: int) -> int:
        """The number printed at ``position`` (0..10) of this colour's row."""
        return position + 2 if self.ascending else 12 - position

    @classmethod
    def parse(cls, text: str) -> Colour:
        """A colour from its name or letter, case-insensitive (``"r"``, ``"Red"``)."""
        key = text.strip().lower() if isinstance(text, str) else None
        colour = COLOUR_NAMES.get(key) if key is not None else None
        if colour is None:
            raise ParseError(
                f"unknown colour {text!r}; expected one of red, yellow, green, blue (or r, y, g, b)"
            )
        return colour

    @classmethod
    def of(cls, value: Colour | str) -> Colour:
        """``value`` itself when it is a Colour, else the colour it names (:meth:`parse`).

        Every function of the library that takes a colour accepts both.
        """
        if isinstance(value, Colour):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        raise ParseError(f"expected a colour (a Colour or its name), not {value!r}")


for _i, _c in enumerate(Colour):
    _c.index = _i
    _c.letter = _c.value[0]
    _c.ascending = _i < 2
    _c.last_number = 12 if _c.ascending else 2
    _c.positions = tuple(
        -1 if n < 2 else (n - 2 if _c.ascending else 12 - n) for n in range(13))

def as_colour(value: Colour | str) -> Colour:
    """:meth:`Colour.of`, with the common case (a Colour) inline."""
    return value if value.__class__ is Colour else Colour.of(value)


#: The colours in sheet order.
COLOURS: tuple[Colour, ...] = tuple(Colour)
COLOUR_NAMES = {**{c.value: c for c in COLOURS}, **{c.letter: c for c in COLOURS}}
