"""Every outcome of the dice in play, as numpy arrays with exact integer weights (R1, R4, R9).

A roll throws the two white dice and the coloured dice still in play; a colour's
die leaves play when its row is closed (R9), so there are 16 possible sets of
coloured dice.  For a set of ``k`` coloured dice:

* the **ordered** outcomes are all ``6**(2+k)`` tuples ``(white1, white2, colour dice...)``,
  each of weight 1;
* the **canonical** outcomes keep the whites unordered (``white1 <= white2``):
  ``21 * 6**k`` rows, of weight 2 when the whites differ and 1 when they are equal.
  The weights add up to ``6**(2+k)``.

Tables are built once per set of dice and cached; their arrays are read-only.

>>> from qwixx_math.model import Colour
>>> t = outcome_table({Colour.RED})
>>> t.columns, t.ordered.shape, t.canonical.shape, int(t.weights.sum()) == t.total
(('white1', 'white2', 'red'), (216, 3), (126, 3), True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ..errors import ParseError
from ..layouts import FACES
from ..model import COLOURS, Colour, Roll
from ..notation import colour_set
from .distribution import Distribution

__all__ = [
    "DICE_SETS",
    "OutcomeTable",
    "all_outcome_tables",
    "colour_sum_sets",
    "outcome_distribution",
    "outcome_table",
    "weighted_rolls",
    "white_sum_distribution",
]

T = TypeVar("T", bound=Hashable)

#: The 16 sets of coloured dice that can be in play, from all four down to none.
DICE_SETS: tuple[frozenset[Colour], ...] = tuple(
    frozenset(s) for k in range(len(COLOURS), -1, -1) for s in combinations(COLOURS, k))

IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True, eq=False)
class OutcomeTable:
    """The outcomes of one set of dice in play (see the module docstring).

    ``colours`` are the coloured dice in play in sheet order; the columns of
    ``ordered`` and ``canonical`` are ``white1, white2`` and then those dice.
    """

    colours: tuple[Colour, ...]
    ordered: SmallArray
    canonical: SmallArray
    weights: IntArray
    #: The sides of the dice (6; 8 for Qwixx Longo, LG1).
    faces: int = 6

    @property
    def total(self) -> int:
        """The number of equally likely ordered outcomes, ``faces**(2+k)``."""
        return int(self.faces ** (2 + len(self.colours)))

    @property
    def columns(self) -> tuple[str, ...]:
        """Names of the array columns."""
        return ("white1", "white2", *(c.value for c in self.colours))

    def rolls(self) -> Iterator[tuple[Roll, int]]:
        """Each canonical outcome as a :class:`Roll` with its weight."""
        idx = [c.index for c in self.colours]
        for row, w in zip(self.canonical.tolist(), self.weights.tolist(), strict=True):
            coloured: list[int | None] = [None, None, None, None]
            for i, d in zip(idx, row[2:], strict=True):
                coloured[i] = d
            yield (Roll((row[0], row[1]), (coloured[0], coloured[1], coloured[2], coloured[3]),
                        self.faces), w)


def _key(in_play: Iterable[Colour | str] | str) -> int:
    bits = 0
    for c in colour_set(in_play, "the dice in play"):
        bits |= 1 << c.index
    return bits


@lru_cache(maxsize=16)
def weighted_rolls(in_play: frozenset[Colour], faces: int = 6
                   ) -> tuple[tuple[Roll, int], ...]:
    """``tuple(outcome_table(in_play, faces).rolls())``, kept: the naive reference solvers
    walk these rolls once per position."""
    return tuple(outcome_table(in_play, faces).rolls())


def outcome_table(in_play: Iterable[Colour | str] | str = COLOURS,
                  faces: int = 6) -> OutcomeTable:
    """The (cached) outcome table of the whites and the coloured dice ``in_play``, dice of
    ``faces`` sides (6, or 8 for Qwixx Longo: the layout's
    :attr:`~qwixx_math.layouts.SheetLayout.faces`, LG1)."""
    return _table(_key(in_play), _faces(faces))


def _faces(faces: object) -> int:
    if not isinstance(faces, int) or isinstance(faces, bool) or faces not in FACES:
        raise ParseError(f"dice have 6 or 8 sides (8: Qwixx Longo), not {faces!r}", rule="LG1")
    return faces


@lru_cache(maxsize=32)
def _table(bits: int, faces: int = 6) -> OutcomeTable:
    colours = tuple(c for c in COLOURS if bits >> c.index & 1)
    n = 2 + len(colours)
    ordered = (np.indices((faces,) * n, dtype=np.int8).reshape(n, -1).T + 1).astype(np.int8)
    keep = ordered[:, 0] <= ordered[:, 1]
    canonical = np.ascontiguousarray(ordered[keep])
    weights = np.where(canonical[:, 0] == canonical[:, 1], 1, 2).astype(np.int64)
    for a in (ordered, canonical, weights):
        a.setflags(write=False)
    return OutcomeTable(colours, ordered, canonical, weights, faces)


def all_outcome_tables() -> dict[frozenset[Colour], OutcomeTable]:
    """The tables of all 16 sets of dice in play (:data:`DICE_SETS` order)."""
    return {s: outcome_table(s) for s in DICE_SETS}


def outcome_distribution(in_play: Iterable[Colour | str] | str,
                         func: Callable[[Roll], T], faces: int = 6) -> Distribution[T]:
    """The exact distribution of ``func(roll)`` over a roll of the whites and ``in_play``
    (dice of ``faces`` sides).

    >>> outcome_distribution((), lambda r: max(r.white)).probability(6)
    Fraction(11, 36)
    >>> outcome_distribution((), lambda r: max(r.white), faces=8).probability(8)
    Fraction(15, 64)
    """
    if not callable(func):
        raise ParseError(f"func must be a function of a Roll, not {func!r}")
    counts: dict[T, int] = {}
    for roll, w in outcome_table(in_play, faces).rolls():
        k = func(roll)
        counts[k] = counts.get(k, 0) + w
    return Distribution(counts)


def white_sum_distribution(faces: int = 6) -> Distribution[int]:
    """The distribution of the white sum S = white1 + white2 (R5): 2..12, triangular
    (2..16 with Longo's 8-sided dice, ``faces=8``, LG1).

    >>> white_sum_distribution(8).probability(9)
    Fraction(1, 8)
    """
    return _white_sums(_faces(faces))


@lru_cache(maxsize=2)
def _white_sums(faces: int) -> Distribution[int]:
    t = outcome_table((), faces)
    top = 2 * faces
    sums = (t.canonical[:, 0].astype(np.int64) + t.canonical[:, 1])
    counts = np.bincount(sums, weights=t.weights, minlength=top + 1).astype(np.int64)
    return Distribution({s: int(counts[s]) for s in range(2, top + 1)})


def colour_sum_sets(faces: int = 6) -> Distribution[tuple[int, ...]]:
    """The distribution of the set of sums white + colour that action 2 offers in one colour (R6).

    Outcomes are sorted tuples: ``(8,)`` when both whites give 8, ``(5, 9)`` otherwise.
    The same for every colour in play (each coloured die is fair and independent of
    the whites).

    >>> colour_sum_sets().probability((2,))
    Fraction(1, 216)
    """
    return _colour_sums(_faces(faces))


@lru_cache(maxsize=2)
def _colour_sums(faces: int) -> Distribution[tuple[int, ...]]:
    t = outcome_table((Colour.RED,), faces)
    a = t.canonical[:, 0].astype(np.int64) + t.canonical[:, 2]
    b = t.canonical[:, 1].astype(np.int64) + t.canonical[:, 2]
    counts: dict[tuple[int, ...], int] = {}
    for x, y, w in zip(a.tolist(), b.tolist(), t.weights.tolist(), strict=True):
        k = (x,) if x == y else (min(x, y), max(x, y))
        counts[k] = counts.get(k, 0) + w
    return Distribution(counts)
