"""The printed sheet: the number and colour of every cell, the locks and the boxes.

One :class:`SheetLayout` value states what a score sheet looks like; the rules
core, notation, dice mathematics, solver, advice, policies and validator all
read it (issue 13).  Five layouts are published (:data:`OFFICIAL`, the two
pads of Qwixx Mixx, :data:`MIXX_A` and :data:`MIXX_B`, and the Qwixx Double pad B,
:data:`DOUBLE_B` with its alternative :data:`DOUBLE_B_ALT`); smaller ones exist so
that a naive reference solver can check the fast one on every state.

**Double cells** (Qwixx Double, pad B, VARIANTS.md §7).  ``weights[i][p]`` is the
number of crosses the cell at position ``p`` of row ``i`` gives (1, or 2 for a
double cell, DB1); every table below counts crosses with these weights.  A layout
with a double cell cites the Double B rule ids: the lock (R8's threshold) is
``DB2``, the score (R16) ``DB3`` (:attr:`SheetLayout.lock_rule`,
:attr:`SheetLayout.score_rule`).

**Rows are named by their lock.**  Every row ends in a lock box whose colour is
the colour of its last cell, and closing the row takes the die of that colour
out of play (R9).  The locks of a layout have distinct colours, so a row is
named by its lock colour everywhere in the library: on the official sheet and
on Mixx B that is simply the row's colour; on Mixx A, row 1 (2..12, ending in
the red cells 11 and 12) is "the red row", row 2 the yellow one, row 3 the green
one and row 4 the blue one.  ``rows[i]`` is the row of the ``i``-th lock colour
of :data:`~qwixx_math.model.COLOURS` that the layout uses.

**Action 2** (white die + coloured die, R6) may be marked in a cell of that
die's colour, in any open row (on the official sheet and Mixx B that cell is in
the row of the die's colour).  **Action 1** (the white sum, R5) may be marked in
any open row, whatever the colour of the cell.

**Step cells** (Qwixx Connected, the Steps, VARIANTS.md §4).  ``steps`` lists the
eleven framed cells ``(row index, position)`` of a staircase; they are ordinary cells
in play (CS1), and the sheet scores a fifth group T(crossed step cells) (CS2,
:attr:`SheetLayout.score_rule`).  :data:`CONNECTED_STEPS` is S2's sheet 1, a
reconstruction (no official sheet could be read); ``connected-steps-2`` to ``-5`` and
``connected-steps-s21`` are the other reconstructions VARIANTS.md lists.

**Chain pairs** (Qwixx Connected, the Chain, VARIANTS.md §5).  ``chain`` lists the
disjoint pairs of circled cells joined by a printed line, each ``((row, position), (row,
position))``; crossing one cell of a pair forces the cross of its partner (CC1, applied by
:meth:`qwixx_math.model.Sheet.marked`), which ignores R7 and a closed row (CC2), may move the
row's frontier (CC3), never sits on a row's last number and so never locks a row (CC4).
:data:`CONNECTED_CHAIN` is sheet A (checked); the other sheets of the pad are unknown and
not shipped: give one as a layout file (docs/layouts.md).

**X-Change fields** (Qwixx X-Change, VARIANTS.md §9).  ``exchange`` lists the fields of
the X-Change track left to right, each a pair of numbers usable both ways (XC1, XC2); the
track scores nothing.  :data:`X_CHANGE` is the checked pad (``--layout x-change``).  The
rules core plays exchanges (:mod:`qwixx_math.rules`); the exact solver, the row Markov
chain and the table keys refuse such a sheet (:meth:`SheetLayout.check_no_exchange`, XC1).

**Boxed cells and the bonus bar** (Qwixx Bonus, pad A, VARIANTS.md §2).  ``boxed`` lists
the boxed (trigger) cells ``(row index, position)`` and ``bar`` the twelve fields of the
bonus bar, left to right, each the lock colour of a row: a cross on a boxed cell uses the
next free field and forces a cross in that field's row (BA1-BA3, played by
:mod:`qwixx_math.bonus`).  :data:`BONUS_A` is the checked pad.

**Symbols** (Qwixx Bonus, pad B, VARIANTS.md §3).  ``symbols`` gives the two cells of each
of the five symbols (:data:`SYMBOL_NAMES`); crossing both activates it (BB1-BB9, played by
:mod:`qwixx_math.bonus_b`).  :data:`BONUS_B` is the pad, its cells checked from one source
only (S2).

**Provenance.**  Each layout says how sure the project is that it is the printed pad
(:class:`Confidence`, VARIANTS.md §0.3) and where it comes from (``source``); neither
takes part in equality.

**Layout files.**  :meth:`SheetLayout.to_json` and :meth:`SheetLayout.from_json` are the
JSON form of a layout (docs/layouts.md); :func:`read_layout_file` reads one from a file
(``--layout FILE`` on the command line).
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .colours import COLOURS, Colour
from .errors import ParseError
from .files import read_text_bounded
from .parsing import shown, spelling_hint

__all__ = [
    "BAR_FIELDS",
    "BIG_POINTS",
    "BONUS_A",
    "BONUS_A_BAR",
    "BONUS_A_BOXED",
    "BONUS_B",
    "BONUS_B_SYMBOLS",
    "BONUS_ROW_CELLS",
    "BP_SCORE_CAP",
    "CONNECTED_CHAIN",
    "CONNECTED_STEPS",
    "CONNECTED_STEPS_S21",
    "DA_SCORE_CAP",
    "DOUBLE_A",
    "DOUBLE_B",
    "DOUBLE_B_ALT",
    "FACES",
    "LAYOUTS",
    "LAYOUT_FILE_LIMIT",
    "LONGO",
    "MAX_EXCHANGE_FIELDS",
    "MIXX_A",
    "MIXX_B",
    "OFFICIAL",
    "STEPS_CELLS",
    "SYMBOL_NAMES",
    "X_CHANGE",
    "X_CHANGE_FIELDS",
    "Confidence",
    "SheetLayout",
    "layout_named",
    "read_layout_file",
]

#: The die sizes a layout may have: six-sided, or eight-sided for Qwixx Longo (LG1).
FACES = (6, 8)

#: The most crosses a Double A row scores (DA7, V7: T(min(crosses, 16))).
DA_SCORE_CAP = 16

#: The number of step cells of a Connected Steps sheet (VARIANTS.md §4.1).
STEPS_CELLS = 11
#: The most X-Change fields a layout may have (the pad has 9, VARIANTS.md §9.1).
MAX_EXCHANGE_FIELDS = 11
#: The fields of a Bonus A bonus bar (VARIANTS.md §2.1).
BAR_FIELDS = 12
#: The five symbols of Qwixx Bonus, pad B, in the order of :attr:`SheetLayout.symbols`
#: (VARIANTS.md §3.1; S2's names for the printed icons).
SYMBOL_NAMES = ("circle", "diamond", "square", "octagon", "star")
#: Where a refusal of the exact parts on Big Points sends the user: what is known of its
#: value (proved and estimated bounds, docs/variants.md).
_BOUNDS_SECTION = "docs/variants.md, 'Bounds for the pads without an exact value'"
_BOUNDS_POINTER = f"its value's known bounds: {_BOUNDS_SECTION}"
#: The official rows' numbers (R2), beside which Big Points' bonus rows stand (BP1).
_OFFICIAL_NUMBERS = (tuple(range(2, 13)),) * 2 + (tuple(range(12, 1, -1)),) * 2
#: Qwixx Big Points: the cells of a bonus row (BP1) and the most crosses a row scores (BP9).
BONUS_ROW_CELLS = 11
BP_SCORE_CAP = 15


class Confidence(enum.Enum):
    """How sure the project is that a layout is the printed pad (VARIANTS.md §0.3)."""

    #: A source transcribed it from the official sheet (or it is RULES.md's own sheet).
    CHECKED = "checked"
    #: Given in a rules text or review rather than transcribed from a sheet.
    STATED = "stated"
    #: A source's own invention that respects the known structural facts.
    RECONSTRUCTED = "reconstructed"
    #: No usable source (a house pad, a placeholder).
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """What a score sheet looks like.

    ``numbers[i]``: the numbers of row ``i``, left to right (the last is the
    number that closes the row, R8).  ``colours[i]``: the colour of each of
    those cells; the last one is the row's lock colour.  Rows are listed in the
    order of their lock colours (red, yellow, green, blue), and no two rows
    share a lock colour.

    >>> OFFICIAL.cell_colour(Colour.GREEN, 7)
    <Colour.GREEN: 'green'>
    >>> MIXX_A.cell_colour(Colour.RED, 5), MIXX_A.numbers[0][:3]
    (<Colour.BLUE: 'blue'>, (2, 3, 4))
    >>> MIXX_A.action2_rows(Colour.BLUE, 5)
    (<Colour.RED: 'red'>,)
    """

    name: str = field(compare=False)
    numbers: tuple[tuple[int, ...], ...]
    colours: tuple[tuple[Colour, ...], ...]
    lock_threshold: int = 5
    penalty_boxes: int = 4
    closed_rows_to_end: int = 2
    #: Crosses per cell (1, or 2 for a double cell, DB1), row by row; ``()`` = all 1.
    weights: tuple[tuple[int, ...], ...] = ()
    #: Connected Steps: the step cells as (row index, position), sorted; ``()`` = none (CS2).
    steps: tuple[tuple[int, int], ...] = ()
    #: X-Change: the fields of the track, left to right, each a pair of numbers (XC1, XC2);
    #: ``()`` = no track.
    exchange: tuple[tuple[int, int], ...] = ()
    #: How sure the project is that this is the printed pad, and where it comes from.
    confidence: Confidence = field(default=Confidence.UNKNOWN, compare=False)
    source: str = field(default="", compare=False)
    #: The sides of every die (6; 8 for Qwixx Longo, LG1): numbers run 2..2·faces and a row
    #: holds at most 2·faces - 1 cells.
    faces: int = 6
    #: How many cells at the end of each row are lock numbers (1; 2 for Longo, LG2): each
    #: needs ``lock_threshold`` crosses, crossing one closes the row (so at most one is crossed).
    lock_cells: int = 1
    #: Connected Chain: the pairs of chain cells, each ((row, position), (row, position)),
    #: sorted; ``()`` = none (CC1).
    chain: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()
    #: Qwixx Longo: the sheet's two lucky numbers ``(a, b)``, ``2 <= a < b <= 16`` (LG3);
    #: ``()`` = none (the published ``longo`` layout: its printed pairs are unknown).
    lucky: tuple[int, ...] = ()
    #: Qwixx Double, pad A: a second-cross box under every number but each row's last
    #: (DA1); ``False`` = no second crosses.
    second_crosses: bool = False
    #: Bonus A: the boxed (trigger) cells as (row index, position), sorted (BA1); ``()`` = none.
    boxed: tuple[tuple[int, int], ...] = ()
    #: Bonus A: the bonus bar, left to right, each field the lock colour of a row (BA1);
    #: ``()`` = no bar; a pad has both boxed cells and a bar of 12 fields, or neither.
    bar: tuple[Colour, ...] = ()
    #: Bonus B: the two cells ((row, position), (row, position)) of each symbol, in the
    #: order of :data:`SYMBOL_NAMES` (circle, diamond, square, octagon, star); ``()`` = none
    #: (BB1).
    symbols: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()
    #: Qwixx Big Points (BP1): two bonus rows of 11 cells, RY between red and yellow (2..12)
    #: and GB between green and blue (12..2); ``False`` = none.
    bonus_rows: bool = False
    _position: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _a2: dict[tuple[Colour, int], tuple[Colour, ...]] = field(
        init=False, repr=False, compare=False)
    # Cell look-ups for the rules core (public, read-only, no input checks), indexed by a
    # row's lock colour index ci (0..3; a colour that locks no row has an empty row), see
    # _tables(): row_of[ci] the row index (-1: none); pos[ci][n] the position of number n
    # (-1: not in the row); cell[ci][n] the colour of that cell (None: not in the row);
    # last_bit[ci] the mask bit of the row's last cell; allowed[ci][mask] the mask of the
    # positions R7/R8 allow after the marks ``mask``; count[ci][mask] the row's mark count
    # with the lock (R8), double cells counting 2 (DB1).
    row_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    pos: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    cell: tuple[tuple[Colour | None, ...], ...] = field(init=False, repr=False, compare=False)
    last_bit: tuple[int, ...] = field(init=False, repr=False, compare=False)
    allowed: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    count: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    #: lock_bits[ci]: the mask of the positions whose cross closes the row locked by
    #: COLOURS[ci] (its last cell; the last two on Longo, LG2).
    lock_bits: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: step_mask[ci]: the mask of the step positions of the row locked by COLOURS[ci] (CS2).
    step_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: partner[ci]: for each position of the row locked by COLOURS[ci], its chain partner as
    #: (lock colour index, position), or None (CC1); ``()`` on a layout without pairs.
    partner: tuple[tuple[tuple[int, int] | None, ...], ...] = field(
        init=False, repr=False, compare=False)
    #: box_mask[ci]: the mask of the boxed positions of the row locked by COLOURS[ci] (BA1).
    box_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: symbol_at[ci]: for each position of the row locked by COLOURS[ci], the index of its
    #: symbol in :data:`SYMBOL_NAMES`, or -1 (BB1); ``()`` on a layout without symbols.
    symbol_at: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)
    _locks: tuple[Colour, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ParseError(f"a layout needs a name, not {self.name!r}")
        numbers, colours = self.numbers, self.colours
        if not (isinstance(numbers, tuple) and isinstance(colours, tuple)
                and 1 <= len(numbers) <= len(COLOURS) and len(colours) == len(numbers)):
            raise ParseError(
                f"layout {self.name}: 1 to {len(COLOURS)} rows, each with its numbers and "
                "their colours")
        faces = self.faces
        if not isinstance(faces, int) or isinstance(faces, bool) or faces not in FACES:
            raise ParseError(f"layout {self.name}: faces (the sides of a die) must be 6 or 8, "
                             f"not {faces!r}", rule="LG1")
        if not isinstance(self.lock_cells, int) or isinstance(self.lock_cells, bool) \
                or self.lock_cells not in (1, 2):
            raise ParseError(f"layout {self.name}: lock_cells must be 1 or 2, not "
                             f"{self.lock_cells!r}", rule="LG2")
        top, cells = 2 * faces, 2 * faces - 1
        locks: list[Colour] = []
        positions: list[tuple[int, ...]] = []
        for i, (row, cols) in enumerate(zip(numbers, colours, strict=True)):
            if not (isinstance(row, tuple) and isinstance(cols, tuple)
                    and self.lock_cells <= len(row) <= cells and len(cols) == len(row)):
                raise ParseError(f"layout {self.name}: row {i + 1} needs {self.lock_cells} to "
                                 f"{cells} cells, each with a number and a colour")
            if not all(isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= top
                       for n in row) or len(set(row)) != len(row):
                raise ParseError(f"layout {self.name}: row {i + 1} must show distinct numbers "
                                 f"2..{top}, not {row!r}")
            if not all(isinstance(c, Colour) for c in cols):
                raise ParseError(f"layout {self.name}: row {i + 1}'s cells need Colours")
            locks.append(cols[-1])
            pos = [-1] * (top + 1)
            for p, n in enumerate(row):
                pos[n] = p
            positions.append(tuple(pos))
        order = [c.index for c in locks]
        if order != sorted(set(order)):
            raise ParseError(
                f"layout {self.name}: rows must be listed in the order of their lock colours "
                f"(red, yellow, green, blue), each lock colour once; got "
                f"{', '.join(c.value for c in locks)}")
        for name in ("lock_threshold", "penalty_boxes", "closed_rows_to_end"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ParseError(f"layout {self.name}: {name} must be an integer, not {value!r}")
        weights = self._checked_weights()
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "steps", self._checked_steps())
        object.__setattr__(self, "exchange", self._checked_exchange())
        object.__setattr__(self, "chain", self._checked_chain())
        if not isinstance(self.second_crosses, bool):
            raise ParseError(f"layout {self.name}: second_crosses must be true or false, not "
                             f"{self.second_crosses!r}", rule="DA1")
        if self.second_crosses and (self.has_doubles or self.steps or self.exchange or self.chain
                                    or self.bar or self.faces != 6 or self.lock_cells != 1):
            raise ParseError(f"layout {self.name}: second crosses (Double A) only on a pad of "
                             "single cells, six-sided dice and one lock number per row, without "
                             "steps, an X-Change track, chain pairs or a bonus bar", rule="DA1")
        self._check_bonus(locks)
        self._check_symbols(locks)
        self._check_bonus_rows()
        if not isinstance(self.confidence, Confidence):
            raise ParseError(f"layout {self.name}: confidence must be a Confidence, not "
                             f"{self.confidence!r}")
        if not isinstance(self.source, str):
            raise ParseError(f"layout {self.name}: source must be text, not {self.source!r}")
        if not 0 <= self.lock_threshold <= min(sum(w[:-self.lock_cells]) for w in weights):
            raise ParseError(f"layout {self.name}: lock_threshold {self.lock_threshold} must be "
                             "0 to the crosses of a row's cells before its last one")
        if self.penalty_boxes < 1:
            raise ParseError(f"layout {self.name}: at least one penalty box")
        if not 1 <= self.closed_rows_to_end <= len(numbers):
            raise ParseError(f"layout {self.name}: closed_rows_to_end must be 1 to the number "
                             f"of rows, not {self.closed_rows_to_end}")
        object.__setattr__(self, "_position", tuple(positions))
        object.__setattr__(self, "_locks", tuple(locks))
        a2: dict[tuple[Colour, int], list[Colour]] = {}
        for lock, row, cols in zip(locks, numbers, colours, strict=True):
            for n, c in zip(row, cols, strict=True):
                a2.setdefault((c, n), []).append(lock)
        object.__setattr__(self, "_a2", {k: tuple(v) for k, v in a2.items()})
        self._tables(locks)
        self._check_lucky()
        object.__setattr__(self, "_hash", hash((self.numbers, self.colours, self.lock_threshold,
                                                self.penalty_boxes, self.closed_rows_to_end,
                                                self.weights, self.steps, self.exchange,
                                                self.faces, self.lock_cells, self.chain,
                                                self.lucky, self.second_crosses, self.boxed,
                                                self.bar, self.symbols, self.bonus_rows)))

    def __hash__(self) -> int:
        return self._hash

    def _check_lucky(self) -> None:
        """``lucky`` is ``()`` or two different numbers 2..16, ascending, on a layout of
        8-sided dice (LG3: the lucky numbers are a Longo rule)."""
        lucky = self.lucky
        if lucky == ():
            return
        if not (isinstance(lucky, tuple) and len(lucky) == 2 and all(
                isinstance(n, int) and not isinstance(n, bool) for n in lucky)
                and 2 <= lucky[0] < lucky[1] <= self.top_number):
            raise ParseError(f"layout {self.name}: the lucky numbers are two different numbers "
                             f"2..{self.top_number}, smaller first, not {lucky!r}", rule="LG3")
        if self.faces != 8:
            raise ParseError(f"layout {self.name}: lucky numbers belong to a layout of 8-sided "
                             "dice (Qwixx Longo)", rule="LG3")

    def _check_bonus_rows(self) -> None:
        """``bonus_rows`` is a bool, and True only on the official rows of six-sided dice
        without any other variant's cells (BP1: a bonus cell sits between the cells of one
        column of two adjacent rows, red/yellow and green/blue)."""
        if not isinstance(self.bonus_rows, bool):
            raise ParseError(f"layout {self.name}: bonus_rows must be true or false, not "
                             f"{self.bonus_rows!r}", rule="BP1")
        if self.bonus_rows and (
                self.numbers != _OFFICIAL_NUMBERS or self.has_doubles or self.steps
                or self.exchange or self.chain or self.bar or self.second_crosses
                or self.symbols or self.faces != 6 or self.lock_cells != 1):
            raise ParseError(f"layout {self.name}: bonus rows (Big Points) only beside the "
                             "official rows (red, yellow 2..12, green, blue 12..2) of single "
                             "cells and six-sided dice, without steps, an X-Change track, "
                             "chain pairs, second crosses, a bonus bar or symbols",
                             rule="BP1")

    def check_no_bonus_rows(self, what: str) -> None:
        """Raise ParseError naming BP1 if this layout has Big Points bonus rows, whose
        per-column eligibility ``what`` (the exact solver, the keys, the row Markov chain,
        the policies) does not handle (VARIANTS.md §1.5: about 1.5e15 states)."""
        if self.bonus_rows:
            raise ParseError(f"{what} does not handle Big Points bonus rows (their per-column "
                             f"eligibility: about 1.5e15 states, VARIANTS.md §1.5) (layout "
                             f"{self.name}); {_BOUNDS_POINTER}", rule="BP1")

    def with_lucky(self, lucky: Sequence[int]) -> SheetLayout:
        """This layout with the lucky numbers ``lucky`` (two numbers, or none; LG3), named
        by its key: ``LONGO.with_lucky((5, 13)).name == "longo:5,13"``.

        >>> LONGO.with_lucky((13, 5)).lucky, LONGO.with_lucky((5, 13)).key
        ((5, 13), 'longo:5,13')
        """
        if isinstance(lucky, (str, bytes)) or not isinstance(lucky, Sequence):
            raise ParseError(f"lucky numbers must be two numbers, not {shown(lucky)}",
                             rule="LG3")
        pair = tuple(sorted(lucky)) if all(
            isinstance(n, int) and not isinstance(n, bool) for n in lucky) else tuple(lucky)
        key = self.without_lucky().key
        name = key if not pair else f"{key}:{','.join(str(n) for n in pair)}"
        return replace(self, name=name, lucky=pair)

    def without_lucky(self) -> SheetLayout:
        """This layout without lucky numbers (itself when it has none)."""
        if not self.lucky:
            return self
        return replace(self, name=self.name.partition(":")[0], lucky=())

    def same_pad(self, other: SheetLayout) -> bool:
        """Whether ``other`` is this layout apart from the lucky numbers (VARIANTS.md V1:
        players of one Longo game may hold sheets with different lucky numbers)."""
        return self == other or (isinstance(other, SheetLayout)
                                 and self.without_lucky() == other.without_lucky())

    def _checked_weights(self) -> tuple[tuple[int, ...], ...]:
        """``weights`` checked (1 or 2 per cell, 1 on the last cell), ``()`` read as all 1."""
        if self.weights == ():
            return tuple((1,) * len(row) for row in self.numbers)
        weights = self.weights
        if not (isinstance(weights, tuple) and len(weights) == len(self.numbers) and all(
                isinstance(w, tuple) and len(w) == len(row)
                and all(isinstance(x, int) and not isinstance(x, bool) and x in (1, 2)
                        for x in w)
                for w, row in zip(weights, self.numbers, strict=True))):
            raise ParseError(f"layout {self.name}: weights give each cell 1 or 2 crosses, row "
                             f"by row, not {weights!r}")
        if any(w[-1] != 1 for w in weights):
            raise ParseError(f"layout {self.name}: a row's last cell cannot be a double cell")
        return weights

    def _checked_steps(self) -> tuple[tuple[int, int], ...]:
        """``steps`` checked (none, or 11 distinct cells of the layout) and sorted."""
        steps = self.steps
        if steps == ():
            return ()
        if not (isinstance(steps, tuple) and all(
                isinstance(c, tuple) and len(c) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in c)
                for c in steps)):
            raise ParseError(f"layout {self.name}: steps are (row index, position) pairs, "
                             f"not {shown(steps)}", rule="CS2")
        for row, p in steps:
            if not 0 <= row < len(self.numbers):
                raise ParseError(f"layout {self.name}: step ({row}, {p}): no row {row} "
                                 f"(rows 0 to {len(self.numbers) - 1})", rule="CS2")
            if not 0 <= p < len(self.numbers[row]):
                raise ParseError(f"layout {self.name}: step ({row}, {p}): row {row} has "
                                 f"positions 0 to {len(self.numbers[row]) - 1} (the lock box "
                                 "is never a step)", rule="CS2")
        # a full pad has 11 (VARIANTS.md §4.1); a smaller sheet (the solver's test sheets,
        # rows shorter than 11 or fewer than four) may have fewer
        full = len(self.numbers) == len(COLOURS) and all(len(r) == 11 for r in self.numbers)
        if len(set(steps)) != len(steps) or (len(steps) != STEPS_CELLS and (
                full or len(steps) > STEPS_CELLS)):
            raise ParseError(f"layout {self.name}: steps must be {STEPS_CELLS} distinct cells "
                             f"(VARIANTS.md §4.1), not {len(steps)} with "
                             f"{len(set(steps))} distinct", rule="CS2")
        return tuple(sorted(steps))

    def _checked_exchange(self) -> tuple[tuple[int, int], ...]:
        """``exchange`` checked: none, or 1 to 11 fields, each two distinct numbers 2..12."""
        fields = self.exchange
        if not (isinstance(fields, tuple) and len(fields) <= MAX_EXCHANGE_FIELDS and all(
                isinstance(f, tuple) and len(f) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 12
                        for n in f) and f[0] != f[1]
                for f in fields)):
            raise ParseError(f"layout {self.name}: exchange fields are 0 to "
                             f"{MAX_EXCHANGE_FIELDS} pairs of two different numbers 2..12 "
                             f"(VARIANTS.md §9.1), not {shown(fields)}", rule="XC1")
        return fields

    def _checked_chain(self) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
        """``chain`` checked (pairs of two cells of the layout, disjoint, never on a row's
        last number: CC4) and sorted, each pair's cells in order."""
        pairs = self.chain
        if pairs == ():
            return ()
        if not (isinstance(pairs, tuple) and all(
                isinstance(pair, tuple) and len(pair) == 2 and all(
                    isinstance(c, tuple) and len(c) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in c)
                    for c in pair) for pair in pairs)):
            raise ParseError(f"layout {self.name}: chain pairs are ((row, position), (row, "
                             f"position)) pairs of cells, not {shown(pairs)}", rule="CC1")
        seen: set[tuple[int, int]] = set()
        for pair in pairs:
            for row, p in pair:
                if not 0 <= row < len(self.numbers) or not 0 <= p < len(self.numbers[row]):
                    raise ParseError(f"layout {self.name}: chain cell ({row}, {p}) is not a "
                                     "cell of the layout", rule="CC1")
                if p >= len(self.numbers[row]) - self.lock_cells:
                    raise ParseError(f"layout {self.name}: chain cell ({row}, {p}) is the "
                                     f"{self.colours[row][-1].value} row's last number; a "
                                     "partner cross may never lock a row", rule="CC4")
                if (row, p) in seen:
                    raise ParseError(f"layout {self.name}: chain cell ({row}, {p}) is in two "
                                     "pairs (or paired with itself); pairs are disjoint",
                                     rule="CC6")
                seen.add((row, p))
        return tuple(sorted((min(a, b), max(a, b)) for a, b in pairs))

    def _check_bonus(self, locks: Sequence[Colour]) -> None:
        """``boxed`` and ``bar`` checked (both empty, or boxed cells of the layout and a bar
        of 12 lock colours), ``boxed`` sorted (BA1)."""
        boxed, bar = self.boxed, self.bar
        if not (isinstance(boxed, tuple) and all(
                isinstance(c, tuple) and len(c) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in c)
                for c in boxed)):
            raise ParseError(f"layout {self.name}: boxed cells are (row index, position) "
                             f"pairs, not {shown(boxed)}", rule="BA1")
        for row, p in boxed:
            if not (0 <= row < len(self.numbers) and 0 <= p < len(self.numbers[row])):
                raise ParseError(f"layout {self.name}: boxed cell ({row}, {p}) is not a cell "
                                 f"of the layout", rule="BA1")
        if len(set(boxed)) != len(boxed):
            raise ParseError(f"layout {self.name}: a cell is boxed twice", rule="BA1")
        if not (isinstance(bar, tuple) and all(isinstance(c, Colour) for c in bar)):
            raise ParseError(f"layout {self.name}: the bonus bar is a tuple of Colours, not "
                             f"{shown(bar)}", rule="BA1")
        stray = [c.value for c in bar if c not in locks]
        if stray:
            raise ParseError(f"layout {self.name}: a bonus bar field is {stray[0]}, a colour "
                             f"that locks no row", rule="BA1")
        if bool(boxed) != bool(bar) or (bar and len(bar) != BAR_FIELDS):
            raise ParseError(f"layout {self.name}: Bonus A needs boxed cells and a bonus bar "
                             f"of {BAR_FIELDS} fields, or neither; got {len(boxed)} boxed "
                             f"cell(s) and {len(bar)} field(s)", rule="BA1")
        if bar and (self.chain or self.exchange):
            raise ParseError(f"layout {self.name}: boxed cells and a bonus bar (Bonus A) are not "
                             "played with chain pairs or an X-Change track", rule="BA1")
        object.__setattr__(self, "boxed", tuple(sorted(boxed)))

    def _check_symbols(self, locks: Sequence[Colour]) -> None:
        """``symbols`` checked: none, or five pairs of two cells each, ten distinct cells of
        the layout, on a pad of single-lock rows, six-sided dice and no other forced or extra
        crosses (BB1)."""
        pairs = self.symbols
        if pairs == ():
            object.__setattr__(self, "symbol_at", ())
            return
        if not (isinstance(pairs, tuple) and len(pairs) == len(SYMBOL_NAMES) and all(
                isinstance(pair, tuple) and len(pair) == 2 and all(
                    isinstance(c, tuple) and len(c) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in c)
                    for c in pair) for pair in pairs)):
            raise ParseError(f"layout {self.name}: symbols are {len(SYMBOL_NAMES)} pairs of "
                             f"cells ((row, position), (row, position)), one per symbol "
                             f"({', '.join(SYMBOL_NAMES)}), not {shown(pairs)}", rule="BB1")
        cells = [c for pair in pairs for c in pair]
        for row, p in cells:
            if not (0 <= row < len(self.numbers) and 0 <= p < len(self.numbers[row])):
                raise ParseError(f"layout {self.name}: symbol cell ({row}, {p}) is not a cell "
                                 "of the layout", rule="BB1")
        if len(set(cells)) != len(cells):
            raise ParseError(f"layout {self.name}: a cell carries two symbols (the "
                             f"{2 * len(SYMBOL_NAMES)} symbol cells are distinct)", rule="BB1")
        if (self.bar or self.chain or self.exchange or self.steps or self.second_crosses
                or self.faces != 6 or self.lock_cells != 1):
            raise ParseError(f"layout {self.name}: symbols (Bonus B) are played on a pad of "
                             "six-sided dice and one lock number per row, without a bonus bar, "
                             "chain pairs, an X-Change track, steps or second crosses",
                             rule="BB1")
        at = [[-1] * len(row) for row in self.numbers]
        for k, pair in enumerate(pairs):
            for row, p in pair:
                at[row][p] = k
        object.__setattr__(self, "symbols", tuple((min(a, b), max(a, b)) for a, b in pairs))
        by_lock: list[tuple[int, ...]] = [()] * len(COLOURS)
        for i, lock in enumerate(locks):
            by_lock[lock.index] = tuple(at[i])
        object.__setattr__(self, "symbol_at", tuple(by_lock))

    def _tables(self, locks: Sequence[Colour]) -> None:
        """The rules core's tables, by lock colour index: the row index (-1: no such row),
        each number's position (-1: not printed) and cell colour, the last position's bit,
        and, for every mask of marked positions, the positions R7 and R8 allow next and
        the mark count with the lock box (R16)."""
        size = 2 * self.faces + 1
        row_of = [-1] * len(COLOURS)
        pos: list[tuple[int, ...]] = [(-1,) * size] * len(COLOURS)
        cell: list[tuple[Colour | None, ...]] = [(None,) * size] * len(COLOURS)
        last_bit = [0] * len(COLOURS)
        lock_bits = [0] * len(COLOURS)
        allowed: list[tuple[int, ...]] = [(0,)] * len(COLOURS)
        count: list[tuple[int, ...]] = [(0,)] * len(COLOURS)
        for i, lock in enumerate(locks):
            ci = lock.index
            row_of[ci] = i
            pos[ci] = self._position[i]
            cells: list[Colour | None] = [None] * size
            for n, c in zip(self.numbers[i], self.colours[i], strict=True):
                cells[n] = c
            cell[ci] = tuple(cells)
            length = len(self.numbers[i])
            last = 1 << (length - 1)
            last_bit[ci] = last
            lock_mask = ((1 << self.lock_cells) - 1) << (length - self.lock_cells)
            lock_bits[ci] = lock_mask
            allowed[ci], count[ci] = _row_tables(self.weights[i], self.lock_threshold,
                                                 lock_mask)
        step_mask = [0] * len(COLOURS)
        for row, p in self.steps:
            step_mask[locks[row].index] |= 1 << p
        partner: list[list[tuple[int, int] | None]] = [
            [None] * len(self.numbers[row_of[ci]]) if row_of[ci] >= 0 else []
            for ci in range(len(COLOURS))] if self.chain else []
        for a, b in self.chain:
            for (r1, p1), (r2, p2) in ((a, b), (b, a)):
                partner[locks[r1].index][p1] = (locks[r2].index, p2)
        object.__setattr__(self, "partner", tuple(tuple(row) for row in partner))
        box_mask = [0] * len(COLOURS)
        for row, p in self.boxed:
            box_mask[locks[row].index] |= 1 << p
        for name, value in (("row_of", tuple(row_of)), ("pos", tuple(pos)),
                            ("lock_bits", tuple(lock_bits)), ("box_mask", tuple(box_mask)),
                            ("step_mask", tuple(step_mask)),
                            ("cell", tuple(cell)), ("last_bit", tuple(last_bit)),
                            ("allowed", tuple(allowed)), ("count", tuple(count))):
            object.__setattr__(self, name, value)

    # ------------------------------------------------------------------ reading
    @property
    def rows(self) -> int:
        """The number of rows."""
        return len(self.numbers)

    @property
    def locks(self) -> tuple[Colour, ...]:
        """Each row's lock colour, in row order: the colours whose dice are rolled (R4)."""
        return self._locks

    def row_index(self, row: Colour | str) -> int:
        """The index of the row locked by ``row`` (a Colour or its name)."""
        colour = Colour.of(row)
        for i, cols in enumerate(self.colours):
            if cols[-1] is colour:
                return i
        raise ParseError(f"layout {self.name} has no {colour.value} row")

    def position(self, row: Colour | str, number: int) -> int | None:
        """The position (0 = leftmost) of ``number`` in ``row``, or None if it is not printed."""
        pos = self._position[self.row_index(row)]
        if not isinstance(number, int) or isinstance(number, bool) \
                or not 0 <= number < len(pos):
            return None
        p = pos[number]
        return p if p >= 0 else None

    def number(self, row: Colour | str, position: int) -> int:
        """The number printed at ``position`` of ``row``."""
        cells = self.numbers[self.row_index(row)]
        if not isinstance(position, int) or isinstance(position, bool) \
                or not 0 <= position < len(cells):
            raise ParseError(f"layout {self.name}: no position {position!r} in a row of "
                             f"{len(cells)} cells")
        return cells[position]

    def last_number(self, row: Colour | str) -> int:
        """The number that closes ``row`` (R8)."""
        return self.numbers[self.row_index(row)][-1]

    def closes(self, row: Colour | str, number: int) -> bool:
        """Whether ``number`` is the last number of ``row`` (marking it closes the row, R8)."""
        p = self.position(row, number)
        return p is not None and bool(self.lock_bits[Colour.of(row).index] >> p & 1)

    def cell_colour(self, row: Colour | str, number: int) -> Colour:
        """The colour of the cell showing ``number`` in ``row``."""
        i = self.row_index(row)
        p = self.position(row, number)
        if p is None:
            raise ParseError(f"layout {self.name}: the {Colour.of(row).value} row does not "
                             f"show {number!r}", rule="R2")
        return self.colours[i][p]

    def action2_rows(self, die: Colour | str, number: int) -> tuple[Colour, ...]:
        """The rows (by lock colour) with a cell of ``die``'s colour showing ``number``:
        where white + that die may be marked (R6), open or not."""
        return self._a2.get((Colour.of(die), number), ())

    @property
    def has_doubles(self) -> bool:
        """Whether some cell gives two crosses (a Qwixx Double B sheet, DB1)."""
        return any(w != 1 for row in self.weights for w in row)

    @property
    def lock_rule(self) -> str:
        """The rule id of the lock threshold: ``R8``, ``DB2`` on a sheet with double
        cells, or ``LG2`` on a sheet with two lock numbers per row (Longo)."""
        if self.second_crosses:
            return "DA5"
        return "LG2" if self.lock_cells == 2 else "DB2" if self.has_doubles else "R8"

    @property
    def dice_rule(self) -> str:
        """The rule id of the dice: ``R1`` (six-sided), or ``LG1`` (eight-sided, Longo)."""
        return "R1" if self.faces == 6 else "LG1"

    @property
    def top_number(self) -> int:
        """The largest number a white sum or a white + colour sum can make, 2·faces (12;
        16 on Longo, LG1)."""
        return 2 * self.faces

    def check_six_faces(self, what: str) -> None:
        """Raise ParseError naming LG1 (or LG2) if this layout is not of six-sided dice
        with one lock number per row, which ``what`` (a part of the library built for
        the 6-sided pads: the exact solver, the keys, the policies) does not handle."""
        if self.faces != 6:
            raise ParseError(f"{what} does not handle {self.faces}-sided dice (Qwixx Longo) "
                             f"yet (layout {self.name})", rule="LG1")
        if self.lock_cells != 1:
            raise ParseError(f"{what} does not handle rows with {self.lock_cells} lock numbers "
                             f"yet (layout {self.name})", rule="LG2")

    @property
    def score_rule(self) -> str:
        """The rule id of the score: ``R16``, ``DB3`` on a sheet with double cells, or
        ``CS2`` on a sheet with step cells (its fifth group)."""
        if self.second_crosses:
            return "DA7"
        return "CS2" if self.steps else "DB3" if self.has_doubles else "R16"

    def is_step(self, row: Colour | str, number: int) -> bool:
        """Whether the cell of ``row`` showing ``number`` is a step cell (CS2).

        >>> CONNECTED_STEPS.is_step("red", 2), CONNECTED_STEPS.is_step("red", 3)
        (True, False)
        """
        p = self.position(row, number)
        return p is not None and bool(self.step_mask[Colour.of(row).index] >> p & 1)

    def steps_crossed(self, masks: Sequence[int]) -> int:
        """The step cells among the marked positions ``masks`` (one mask per lock colour,
        as :attr:`qwixx_math.model.Sheet.masks`)."""
        return sum((m & s).bit_count() for m, s in zip(masks, self.step_mask, strict=True))

    def check_no_steps(self, what: str) -> None:
        """Raise ParseError naming CS2 if this layout has step cells, whose fifth score
        group ``what`` (a part of the library that scores a sheet row by row) does not
        handle."""
        if self.steps:
            raise ParseError(f"{what} does not handle step cells (their fifth score group) "
                             f"yet (layout {self.name})", rule="CS2")

    def check_no_chain(self, what: str) -> None:
        """Raise ParseError naming CC1 if this layout has chain pairs, whose forced partner
        crosses ``what`` (a part of the library that models a row by its own marks alone:
        the exact solver, the keys, the row Markov chain, the policies) does not handle."""
        if self.chain:
            raise ParseError(f"{what} does not handle chain pairs (their forced partner "
                             f"crosses) yet (layout {self.name})", rule="CC1")

    def chain_partner(self, row: Colour | str, number: int) -> tuple[Colour, int] | None:
        """The chain partner of the cell of ``row`` showing ``number``, as (row by its
        lock colour, number), or None (CC1).

        >>> CONNECTED_CHAIN.chain_partner("yellow", 6)
        (<Colour.RED: 'red'>, 6)
        """
        p = self.position(row, number)
        if p is None or not self.partner:
            return None
        found = self.partner[Colour.of(row).index][p]
        if found is None:
            return None
        ci, q = found
        return COLOURS[ci], self.numbers[self.row_of[ci]][q]

    def check_no_exchange(self, what: str) -> None:
        """Raise ParseError naming XC1 if this layout has an X-Change track, whose exchanges
        ``what`` (a part of the library that plays or solves a sheet) does not offer."""
        if self.exchange:
            raise ParseError(f"{what} does not handle X-Change exchanges yet (layout "
                             f"{self.name})", rule="XC1")

    def check_no_bonus(self, what: str) -> None:
        """Raise ParseError naming BA1 if this layout has boxed cells and a bonus bar
        (Bonus A), whose forced crosses ``what`` (the exact solver, the Markov chain, the
        keys, the policies) does not handle."""
        if self.bar:
            raise ParseError(f"{what} does not handle boxed cells and the bonus bar (their "
                             f"forced crosses) yet (layout {self.name})", rule="BA1")
        if self.symbols:
            raise ParseError(f"{what} does not handle Bonus B's symbols (their forced crosses "
                             f"and end-game rewards) yet (layout {self.name}); the exact "
                             "solitaire table does: solve, value, advise and review --layout "
                             "(docs/variants.md, 'Qwixx Bonus, pad B')", rule="BB1")

    def symbol_of(self, row: Colour | str, number: int) -> str | None:
        """The symbol (one of :data:`SYMBOL_NAMES`) on the cell of ``row`` showing
        ``number``, or None (BB1).

        >>> BONUS_B.symbol_of("green", 9), BONUS_B.symbol_of("green", 10)
        ('circle', None)
        """
        p = self.position(row, number)
        if p is None or not self.symbols:
            return None
        k = self.symbol_at[Colour.of(row).index][p]
        return SYMBOL_NAMES[k] if k >= 0 else None

    def is_boxed(self, row: Colour | str, number: int) -> bool:
        """Whether the cell of ``row`` showing ``number`` is a boxed cell (BA1).

        >>> BONUS_A.is_boxed("red", 3), BONUS_A.is_boxed("red", 4)
        (True, False)
        """
        p = self.position(row, number)
        return p is not None and bool(self.box_mask[Colour.of(row).index] >> p & 1)

    def crosses(self, row: Colour | str, mask: int) -> int:
        """The crosses of the marked positions ``mask`` of ``row``, double cells counting
        2 (DB1) and the lock box 1 (R16).

        >>> DOUBLE_B.crosses("red", 0b11)   # red 2 and red 3 (a double cell)
        3
        """
        ci = Colour.of(row).index
        if self.row_of[ci] < 0 or not isinstance(mask, int) or isinstance(mask, bool) \
                or not 0 <= mask < len(self.count[ci]):
            raise ParseError(f"layout {self.name}: no row mask {mask!r} in {Colour.of(row).value}")
        return self.count[ci][mask]

    def is_double(self, row: Colour | str, number: int) -> bool:
        """Whether the cell of ``row`` showing ``number`` is a double cell (DB1)."""
        p = self.position(row, number)
        return p is not None and self.weights[self.row_index(row)][p] == 2

    def check_single_cells(self, what: str) -> None:
        """Raise ParseError naming DB1 if this layout has double cells, which ``what`` (a
        part of the library that counts a row's marks by position) does not handle."""
        if self.has_doubles:
            raise ParseError(f"{what} does not handle double cells yet (layout {self.name})",
                             rule="DB1")

    def check_no_second_crosses(self, what: str) -> None:
        """Raise ParseError naming DA1 if this layout has second-cross boxes (Double A),
        whose row state (doubled numbers) ``what`` does not handle."""
        if self.second_crosses:
            raise ParseError(f"{what} does not handle second crosses (Qwixx Double A) yet "
                             f"(layout {self.name})", rule="DA1")

    @property
    def score_cap(self) -> int | None:
        """The most crosses a row scores (16 on Double A, DA7: T(min(crosses, 16)); 15 on
        Big Points, BP9), or None where every cross scores."""
        if self.bonus_rows:
            return BP_SCORE_CAP
        return DA_SCORE_CAP if self.second_crosses else None

    @property
    def max_crosses(self) -> int:
        """The most crosses a row can hold, the lock included (12 on the official sheet,
        16 on Double B, DB3; 22 on Double A, DA7, which scores at most 16)."""
        if self.second_crosses:
            return max(2 * len(w) for w in self.weights)
        if self.bonus_rows:  # a row's 11 numbers, its lock and its bonus row's 11 cells
            return max(sum(w) + 1 + BONUS_ROW_CELLS for w in self.weights)
        return max(sum(w) - self.lock_cells + 2 for w in self.weights)

    @property
    def is_official(self) -> bool:
        """True for the official sheet."""
        return self == OFFICIAL

    @property
    def key(self) -> str:
        """A short unique name: the published layouts' names, else a spelled-out key."""
        if self.name in LAYOUTS and LAYOUTS[self.name] == self:
            return self.name
        if self.lucky:  # a published pad with lucky numbers: 'longo:5,13' (LG3)
            return f"{self.without_lucky().key}:{self.lucky[0]},{self.lucky[1]}"
        self.check_six_faces("a spelled-out layout key")
        rows = ".".join(
            "".join(f"{c.letter.upper() if w == 2 else c.letter}{n:x}"
                    for n, c, w in zip(r, cs, ws, strict=True))
            for r, cs, ws in zip(self.numbers, self.colours, self.weights, strict=True))
        steps = "".join(f"{r}{p:x}" for r, p in self.steps)
        exchange = "".join(f"{a:x}{b:x}" for a, b in self.exchange)
        chain = "".join(f"{r}{p:x}" for pair in self.chain for r, p in pair)
        bonus = ("".join(f"{r}{p:x}" for r, p in self.boxed) + "."
                 + "".join(c.letter for c in self.bar))
        symbols = "".join(f"{r}{p:x}" for pair in self.symbols for r, p in pair)
        return (f"{rows}-t{self.lock_threshold}-p{self.penalty_boxes}-k{self.closed_rows_to_end}"
                + (f"-s{steps}" if steps else "") + (f"-x{exchange}" if exchange else "")
                + (f"-c{chain}" if chain else "") + (f"-b{bonus}" if self.bar else "")
                + (f"-o{symbols}" if symbols else "")
                + ("-d" if self.second_crosses else "") + ("-bp" if self.bonus_rows else ""))

    def shows(self, row: Colour | str, number: int) -> bool:
        """Whether ``row`` (a lock colour the layout has) prints ``number``."""
        return self.position(row, number) is not None

    def row_length(self, row: Colour | str) -> int:
        """The number of cells of ``row``."""
        return len(self.numbers[self.row_index(row)])

    # ---------------------------------------------------------------- building
    @classmethod
    def from_key(cls, key: str) -> SheetLayout:
        """The layout whose :attr:`key` is ``key`` (a published name or a spelled-out key).

        >>> SheetLayout.from_key(SheetLayout.plain("tiny", "ad", 3, lock_threshold=2).key).numbers
        ((2, 3, 4), (12, 11, 10))
        """
        if not isinstance(key, str):
            raise ParseError(f"a layout key must be text, not {type(key).__name__}")
        text = key  # read as written (docs/notation.md): 'OFFICIAL' or ' mixx-a' is no name
        if text in LAYOUTS:
            return LAYOUTS[text]
        match = _KEY.fullmatch(text)
        if match is None:
            raise ParseError(f"unknown layout {shown(key)}; expected one of "
                             f"{', '.join(LAYOUTS)} or a layout key such as "
                             f"'r2r3r4.ycybya-t1-p4-k2'{spelling_hint(key, LAYOUTS)}")
        rows = []
        weights = []
        for part in match.group(1).split("."):
            cells = []
            for i in range(0, len(part), 2):
                cells.append((int(part[i + 1], 16), Colour.parse(part[i].lower())))
            rows.append(cells)
            weights.append(tuple(2 if part[i].isupper() else 1 for i in range(0, len(part), 2)))
        doubled = any(w == 2 for ws in weights for w in ws)
        step_text = match.group(5) or ""
        steps = tuple((int(step_text[i]), int(step_text[i + 1], 16))
                      for i in range(0, len(step_text), 2))
        x_text = match.group(6) or ""
        exchange = tuple((int(x_text[i], 16), int(x_text[i + 1], 16))
                         for i in range(0, len(x_text), 2))
        b_text = match.group(8) or ""
        boxed = tuple((int(b_text[i]), int(b_text[i + 1], 16))
                      for i in range(0, len(b_text), 2))
        bar = tuple(Colour.parse(letter) for letter in match.group(9) or "")
        o_text = match.group(10) or ""
        marked = [(int(o_text[i]), int(o_text[i + 1], 16)) for i in range(0, len(o_text), 2)]
        symbols = tuple((marked[i], marked[i + 1]) for i in range(0, len(marked), 2))
        return cls.of_rows(text, rows, lock_threshold=int(match.group(2)),
                           penalty_boxes=int(match.group(3)),
                           closed_rows_to_end=int(match.group(4)),
                           weights=tuple(weights) if doubled else (), steps=steps,
                           exchange=exchange, chain=_key_chain(match.group(7) or ""),
                           second_crosses=match.group(11) is not None, boxed=boxed, bar=bar,
                           symbols=symbols, bonus_rows=match.group(12) is not None)

    @classmethod
    def of_rows(cls, name: str, rows: Sequence[Sequence[tuple[int, Colour]]], *,
                lock_threshold: int = 5, penalty_boxes: int = 4,
                closed_rows_to_end: int = 2,
                weights: tuple[tuple[int, ...], ...] = (),
                steps: tuple[tuple[int, int], ...] = (),
                exchange: tuple[tuple[int, int], ...] = (),
                confidence: Confidence = Confidence.UNKNOWN, source: str = "",
                faces: int = 6, lock_cells: int = 1,
                chain: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (),
                second_crosses: bool = False,
                boxed: tuple[tuple[int, int], ...] = (),
                bar: tuple[Colour, ...] = (),
                symbols: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (),
                bonus_rows: bool = False) -> SheetLayout:
        """A layout from each row's cells as ``(number, colour)`` pairs, left to right
        (``weights``: the crosses of each cell, ``steps`` the step cells, ``exchange`` the
        X-Change fields, see :class:`SheetLayout`)."""
        shape = (f"layout {name!r}: rows must list each row's cells as (number, Colour) "
                 f"pairs, not {rows!r}")
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
            raise ParseError(shape)
        numbers: list[tuple[int, ...]] = []
        colours: list[tuple[Colour, ...]] = []
        for row in rows:
            if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or not all(
                    isinstance(cell, tuple) and len(cell) == 2 for cell in row):
                raise ParseError(shape)
            numbers.append(tuple(n for n, _ in row))
            colours.append(tuple(c for _, c in row))
        return cls(name, tuple(numbers), tuple(colours),
                   lock_threshold, penalty_boxes, closed_rows_to_end, weights, steps,
                   exchange, confidence, source, faces, lock_cells, chain=chain,
                   second_crosses=second_crosses, boxed=boxed, bar=bar, symbols=symbols,
                   bonus_rows=bonus_rows)

    @classmethod
    def plain(cls, name: str, directions: str, row_length: int = 11, *,
              lock_threshold: int = 5, penalty_boxes: int = 4,
              closed_rows_to_end: int = 2,
              weights: tuple[tuple[int, ...], ...] = (),
              steps: tuple[tuple[int, int], ...] = (),
              confidence: Confidence = Confidence.UNKNOWN, source: str = "") -> SheetLayout:
        """One-colour rows read ``a``scending (2, 3, ...) or ``d``escending (12, 11, ...),
        coloured red, yellow, green, blue in order: the official sheet is
        ``plain("official", "aadd")``; the solver's small test variants are the others."""
        if not isinstance(directions, str) or not 1 <= len(directions) <= len(COLOURS) \
                or set(directions) - {"a", "d"}:
            raise ParseError(f"row directions are 1 to 4 letters a/d, not {directions!r}")
        if not isinstance(row_length, int) or not 1 <= row_length <= 11:
            raise ParseError(f"row_length must be 1..11, not {row_length!r}")
        rows = []
        for colour, d in zip(COLOURS, directions, strict=False):
            numbers = range(2, 2 + row_length) if d == "a" else range(12, 12 - row_length, -1)
            rows.append([(n, colour) for n in numbers])
        return cls.of_rows(name, rows, lock_threshold=lock_threshold,
                           penalty_boxes=penalty_boxes, closed_rows_to_end=closed_rows_to_end,
                           weights=weights, steps=steps, confidence=confidence, source=source)

    # ------------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, object]:
        """The JSON form of the layout (docs/layouts.md); :meth:`from_json` reads it back.

        >>> SheetLayout.from_json(CONNECTED_STEPS.to_json()) == CONNECTED_STEPS
        True
        """
        rows: list[dict[str, object]] = []
        for numbers, colours, weights in zip(self.numbers, self.colours, self.weights,
                                             strict=True):
            row: dict[str, object] = {"numbers": list(numbers)}
            row["colours"] = (colours[0].value if len(set(colours)) == 1
                              else [c.value for c in colours])
            if any(w != 1 for w in weights):
                row["weights"] = list(weights)
            rows.append(row)
        out: dict[str, object] = {
            "name": self.without_lucky().name, "confidence": self.confidence.value,
            "source": self.source,
            "rows": rows, "lock_threshold": self.lock_threshold,
            "penalty_boxes": self.penalty_boxes, "closed_rows_to_end": self.closed_rows_to_end}
        if self.steps:
            out["steps"] = [[self.locks[r].value, p] for r, p in self.steps]
        if self.exchange:
            out["exchange"] = [list(f) for f in self.exchange]
        if self.chain:
            out["chain"] = [[[self.locks[r].value, p] for r, p in pair] for pair in self.chain]
        if self.faces != 6:
            out["faces"] = self.faces
        if self.lock_cells != 1:
            out["lock_cells"] = self.lock_cells
        if self.lucky:
            out["lucky"] = list(self.lucky)
        if self.second_crosses:
            out["second_crosses"] = True
        if self.bar:
            out["boxed"] = [[self.locks[r].value, p] for r, p in self.boxed]
            out["bar"] = [c.value for c in self.bar]
        if self.symbols:
            out["symbols"] = {name: [[self.locks[r].value, p] for r, p in pair]
                              for name, pair in zip(SYMBOL_NAMES, self.symbols, strict=True)}
        if self.bonus_rows:
            out["bonus_rows"] = True
        return out

    @classmethod
    def from_json(cls, data: object) -> SheetLayout:
        """The layout of the JSON form ``data`` (:meth:`to_json`, docs/layouts.md), checked
        field by field: a malformed field raises ParseError naming it.  A layout named like
        a published one must be that layout (which is returned, with its labels)."""
        if not isinstance(data, Mapping):
            raise ParseError(f"a layout must be a JSON object, not {type(data).__name__}")
        unknown = sorted(str(k) for k in data if k not in _JSON_FIELDS)
        if unknown:
            raise ParseError(f"unknown layout field(s) {shown(', '.join(unknown))}; expected "
                             f"{', '.join(_JSON_FIELDS)}")
        for required in ("name", "rows"):
            if required not in data:
                raise ParseError(f"a layout needs the field {required!r}")
        name = data["name"]
        if not isinstance(name, str) or _NAME.fullmatch(name) is None:
            raise ParseError(f"layout field 'name': 1 to 40 characters a-z, 0-9, '.', '_', "
                             f"'-', starting with a letter or digit, not {shown(name)}")
        if _KEY.fullmatch(name):
            raise ParseError(f"layout field 'name': {shown(name)} reads as a layout key; "
                             "choose another name")
        confidence = data.get("confidence", Confidence.UNKNOWN.value)
        labels = [c.value for c in Confidence]
        if not isinstance(confidence, str) or confidence not in labels:
            raise ParseError(f"layout field 'confidence': one of {', '.join(labels)}, not "
                             f"{shown(confidence)}")
        source = data.get("source", "")
        if not isinstance(source, str) or len(source) > 1000:
            raise ParseError(f"layout field 'source': text of at most 1000 characters, not "
                             f"{shown(source)}")
        ints = {}
        for key, default in (("lock_threshold", 5), ("penalty_boxes", 4),
                             ("closed_rows_to_end", 2), ("faces", 6), ("lock_cells", 1)):
            value = data.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
                raise ParseError(f"layout field {key!r}: a whole number 0 to 99, not "
                                 f"{shown(value)}")
            ints[key] = value
        rows, weights = _json_rows(data["rows"], 2 * ints["faces"] if ints["faces"] in FACES
                                   else 2 * max(FACES))
        locks = [cells[-1][1] for cells in rows]
        steps = _json_steps(data.get("steps", []), locks, [len(r) for r in rows])
        exchange = _json_exchange(data.get("exchange", []))
        chain = _json_chain(data.get("chain", []), locks, [len(r) for r in rows])
        boxed, bar = _json_bonus(data.get("boxed", []), data.get("bar", []), locks,
                                 [len(r) for r in rows])
        symbols = _json_symbols(data.get("symbols", {}), locks, [len(r) for r in rows])
        doubled = any(w != 1 for ws in weights for w in ws)
        second = data.get("second_crosses", False)
        if not isinstance(second, bool):
            raise ParseError(f"layout field 'second_crosses': true or false, not {shown(second)}")
        bonus_rows = data.get("bonus_rows", False)
        if not isinstance(bonus_rows, bool):
            raise ParseError(f"layout field 'bonus_rows': true or false, not {shown(bonus_rows)}",
                             rule="BP1")
        try:
            if ints["faces"] not in FACES:
                raise ParseError(f"layout field 'faces': 6 or 8 (8: Qwixx Longo), not "
                                 f"{ints['faces']}", rule="LG1")
            layout = cls.of_rows(name, rows, weights=tuple(weights) if doubled else (),
                                 steps=steps, exchange=exchange, chain=chain,
                                 boxed=boxed, bar=bar, symbols=symbols,
                                 confidence=Confidence(confidence), source=source,
                                 second_crosses=second, bonus_rows=bonus_rows, **ints)
            if "lucky" in data:
                layout = replace(layout, lucky=tuple(
                    _json_int_list(data["lucky"], "lucky", 2, 2 * max(FACES))))
        except ParseError as exc:
            raise ParseError(f"{exc}") from None
        if name in LAYOUTS and layout.lucky and LAYOUTS[name] == layout.without_lucky():
            return LAYOUTS[name].with_lucky(layout.lucky)
        if name in LAYOUTS:
            if LAYOUTS[name] != layout:
                raise ParseError(f"layout field 'name': {name!r} is a published layout and "
                                 "this one differs from it; choose another name")
            return LAYOUTS[name]
        return layout


_JSON_FIELDS = ("name", "confidence", "source", "rows", "lock_threshold", "penalty_boxes",
                "closed_rows_to_end", "steps", "exchange", "faces", "lock_cells", "chain",
                "lucky", "second_crosses", "boxed", "bar", "symbols", "bonus_rows")
_ROW_FIELDS = ("numbers", "colours", "weights")
_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,39}")
#: The largest layout file read (a layout is about 1 KB of JSON).
LAYOUT_FILE_LIMIT = 64 * 1024


def _json_int_list(value: object, where: str, low: int, high: int) -> list[int]:
    if not isinstance(value, list) or not value or len(value) > 15 or not all(
            isinstance(x, int) and not isinstance(x, bool) and low <= x <= high
            for x in value):
        raise ParseError(f"layout field {where!r}: a list of 1 to 15 whole numbers {low} to "
                         f"{high}, not {shown(value)}")
    return value


def _json_rows(value: object, top: int = 12
               ) -> tuple[list[list[tuple[int, Colour]]], list[tuple[int, ...]]]:
    """The rows of a layout's JSON form as (number, colour) cells (numbers 2..``top``), and
    their weights."""
    if not isinstance(value, list) or not 1 <= len(value) <= len(COLOURS):
        raise ParseError(f"layout field 'rows': a list of 1 to {len(COLOURS)} rows, not "
                         f"{shown(value)}")
    rows: list[list[tuple[int, Colour]]] = []
    weights: list[tuple[int, ...]] = []
    names = [c.value for c in COLOURS]
    for i, row in enumerate(value):
        where = f"rows[{i}]"
        if not isinstance(row, dict):
            raise ParseError(f"layout field {where!r}: an object with numbers and colours, not "
                             f"{shown(row)}")
        unknown = sorted(str(k) for k in row if k not in _ROW_FIELDS)
        if unknown or "numbers" not in row or "colours" not in row:
            raise ParseError(f"layout field {where!r}: the fields numbers, colours and "
                             f"optionally weights, not {shown(sorted(map(str, row)))}")
        numbers = _json_int_list(row["numbers"], f"{where}.numbers", 2, top)
        colours = row["colours"]
        if isinstance(colours, str):
            colours = [colours] * len(numbers)
        if not isinstance(colours, list) or len(colours) != len(numbers) or not all(
                isinstance(c, str) and c in names for c in colours):
            raise ParseError(f"layout field '{where}.colours': one of {', '.join(names)}, or a "
                             f"list of them, one per number, not {shown(row['colours'])}")
        ws = row.get("weights", [1] * len(numbers))
        ws = _json_int_list(ws, f"{where}.weights", 1, 2)
        if len(ws) != len(numbers):
            raise ParseError(f"layout field '{where}.weights': one weight (1 or 2) per number, "
                             f"not {len(ws)} for {len(numbers)}")
        rows.append([(n, Colour.parse(c)) for n, c in zip(numbers, colours, strict=True)])
        weights.append(tuple(ws))
    return rows, weights


def _json_steps(value: object, locks: Sequence[Colour], lengths: Sequence[int]
                ) -> tuple[tuple[int, int], ...]:
    """The step cells of a layout's JSON form: ``[row colour, position]`` pairs."""
    shape = (f"layout field 'steps': a list of [row, position] pairs (row: the colour of its "
             f"lock, one of {', '.join(c.value for c in locks)}; position: 0 = leftmost), "
             f"not {shown(value)}")
    if not isinstance(value, list):
        raise ParseError(shape, rule="CS2")
    out: list[tuple[int, int]] = []
    for cell in value:
        if not (isinstance(cell, list) and len(cell) == 2 and isinstance(cell[0], str)
                and isinstance(cell[1], int) and not isinstance(cell[1], bool)):
            raise ParseError(shape, rule="CS2")
        names = [c.value for c in locks]
        if cell[0] not in names:
            raise ParseError(f"layout field 'steps': no {shown(cell[0])} row; the rows are "
                             f"{', '.join(names)}", rule="CS2")
        row = names.index(cell[0])
        if not 0 <= cell[1] < lengths[row]:
            raise ParseError(f"layout field 'steps': the {cell[0]} row has positions 0 to "
                             f"{lengths[row] - 1}, not {cell[1]} (the lock box is never a "
                             f"step)", rule="CS2")
        out.append((row, cell[1]))
    return tuple(out)


def _json_chain(value: object, locks: Sequence[Colour], lengths: Sequence[int]
                ) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """The chain pairs of a layout's JSON form: ``[[row, position], [row, position]]``
    pairs of cells (CC1), each cell as in ``steps``."""
    shape = (f"layout field 'chain': a list of pairs [[row, position], [row, position]] "
             f"(row: the colour of its lock, one of {', '.join(c.value for c in locks)}; "
             f"position: 0 = leftmost), not {shown(value)}")
    if not isinstance(value, list) or len(value) > 22:
        raise ParseError(shape, rule="CC1")
    names = [c.value for c in locks]
    pairs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2 and all(
                isinstance(cell, list) and len(cell) == 2 and isinstance(cell[0], str)
                and isinstance(cell[1], int) and not isinstance(cell[1], bool)
                for cell in pair)):
            raise ParseError(shape, rule="CC1")
        cells = []
        for name, p in pair:
            if name not in names:
                raise ParseError(f"layout field 'chain': no {shown(name)} row; the rows are "
                                 f"{', '.join(names)}", rule="CC1")
            row = names.index(name)
            if not 0 <= p < lengths[row]:
                raise ParseError(f"layout field 'chain': the {name} row has positions 0 to "
                                 f"{lengths[row] - 1}, not {p}", rule="CC1")
            cells.append((row, p))
        pairs.append((cells[0], cells[1]))
    return tuple(pairs)


def _key_chain(text: str) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """The chain pairs of a spelled-out key's ``-c`` part: 4 characters a pair, each cell
    its row index and hexadecimal position."""
    if len(text) % 4:
        raise ParseError(f"a layout key's chain part (-c) has 4 characters a pair (row, "
                         f"position, row, position), not {shown(text)}", rule="CC1")
    return tuple(((int(text[i]), int(text[i + 1], 16)), (int(text[i + 2]), int(text[i + 3], 16)))
                 for i in range(0, len(text), 4))


def _json_exchange(value: object) -> tuple[tuple[int, int], ...]:
    """The X-Change fields of a layout's JSON form: ``[number, number]`` pairs, left to
    right (XC1, XC2)."""
    if not (isinstance(value, list) and len(value) <= MAX_EXCHANGE_FIELDS and all(
            isinstance(f, list) and len(f) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 12 for n in f)
            and f[0] != f[1] for f in value)):
        raise ParseError(f"layout field 'exchange': a list of 0 to {MAX_EXCHANGE_FIELDS} "
                         f"[number, number] pairs, two different numbers 2 to 12 each, not "
                         f"{shown(value)}", rule="XC1")
    return tuple((f[0], f[1]) for f in value)


_KEY = re.compile(
    r"((?:[rygbRYGB][2-9a-c])+(?:\.(?:[rygbRYGB][2-9a-c])+){0,3})"
    r"-t([0-9]{1,2})-p([0-9]{1,2})-k([0-9])(?:-s((?:[0-3][0-9a]){1,44}))?"
    r"(?:-x((?:[2-9a-c]{2}){1,11}))?"
    r"(?:-c((?:[0-3][0-9a]){2,44}))?"
    r"(?:-b((?:[0-3][0-9a]){1,44})\.([rygb]{12}))?"
    r"(?:-o((?:[0-3][0-9a]){10}))?(-d)?(-bp)?")


def _json_bonus(boxed: object, bar: object, locks: Sequence[Colour], lengths: Sequence[int]
                ) -> tuple[tuple[tuple[int, int], ...], tuple[Colour, ...]]:
    """The boxed cells (``[row colour, position]`` pairs) and the bonus bar (colour names,
    left to right) of a layout's JSON form (BA1)."""
    names = [c.value for c in locks]
    if not (isinstance(boxed, list) and len(boxed) <= 44 and all(
            isinstance(c, list) and len(c) == 2 and isinstance(c[0], str)
            and isinstance(c[1], int) and not isinstance(c[1], bool) for c in boxed)):
        raise ParseError(f"layout field 'boxed': a list of [row, position] pairs (row: the "
                         f"colour of its lock, one of {', '.join(names)}; position: 0 = "
                         f"leftmost), not {shown(boxed)}", rule="BA1")
    cells: list[tuple[int, int]] = []
    for colour, p in boxed:
        if colour not in names or not 0 <= p < lengths[names.index(colour)]:
            raise ParseError(f"layout field 'boxed': no cell [{shown(colour)}, {p}]; the rows "
                             f"are {', '.join(names)}, positions from 0", rule="BA1")
        cells.append((names.index(colour), p))
    if not (isinstance(bar, list) and all(isinstance(c, str) and c in names for c in bar)):
        raise ParseError(f"layout field 'bar': a list of {BAR_FIELDS} row colours (each one of "
                         f"{', '.join(names)}), left to right, not {shown(bar)}", rule="BA1")
    if bool(cells) != bool(bar) or (bar and len(bar) != BAR_FIELDS):
        raise ParseError(f"layout fields 'boxed' and 'bar': Bonus A needs both (and "
                         f"{BAR_FIELDS} bar fields) or neither; got {len(cells)} boxed "
                         f"cell(s) and {len(bar)} field(s)", rule="BA1")
    return tuple(cells), tuple(Colour.parse(c) for c in bar)


def _json_symbols(value: object, locks: Sequence[Colour], lengths: Sequence[int]
                  ) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """The symbol cells of a layout's JSON form: an object naming each of the five symbols
    with its two ``[row colour, position]`` cells, or ``{}`` for none (BB1)."""
    names = [c.value for c in locks]
    if not isinstance(value, Mapping):
        raise ParseError(f"layout field 'symbols': an object with the keys "
                         f"{', '.join(SYMBOL_NAMES)}, each two [row, position] cells, not "
                         f"{shown(value)}", rule="BB1")
    if not value:
        return ()
    if sorted(str(k) for k in value) != sorted(SYMBOL_NAMES):
        raise ParseError(f"layout field 'symbols': exactly the keys {', '.join(SYMBOL_NAMES)}, "
                         f"not {shown(', '.join(sorted(str(k) for k in value)))}", rule="BB1")
    out: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for name in SYMBOL_NAMES:
        pair = value[name]
        if not (isinstance(pair, list) and len(pair) == 2 and all(
                isinstance(c, list) and len(c) == 2 and isinstance(c[0], str)
                and isinstance(c[1], int) and not isinstance(c[1], bool) for c in pair)):
            raise ParseError(f"layout field 'symbols': {name} needs two [row, position] cells "
                             f"(row: the colour of its lock, one of {', '.join(names)}; "
                             f"position: 0 = leftmost), not {shown(pair)}", rule="BB1")
        cells = []
        for colour, p in pair:
            if colour not in names or not 0 <= p < lengths[names.index(colour)]:
                raise ParseError(f"layout field 'symbols': {name}: no cell [{shown(colour)}, "
                                 f"{p}]; the rows are {', '.join(names)}, positions from 0",
                                 rule="BB1")
            cells.append((names.index(colour), p))
        out.append((cells[0], cells[1]))
    return tuple(out)


def _crosses(weights: Sequence[int]) -> tuple[int, ...]:
    """``crosses[mask]``: the crosses of the marked positions ``mask`` (DB1), lock excluded."""
    out = [0] * (1 << len(weights))
    for m in range(1, len(out)):
        low = (m & -m).bit_length() - 1
        out[m] = out[m & (m - 1)] + weights[low]
    return tuple(out)


_ROW_TABLES: dict[tuple[tuple[int, ...], int, int],
                  tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _row_tables(weights: tuple[int, ...], threshold: int, lock: int
                ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(allowed, count)`` of a row of cells ``weights`` whose lock positions are the mask
    ``lock``: for every mask of marked positions, the positions R7 and R8 (DB2, LG2) allow
    next and the crosses with the lock box.  Shared by rows of one shape (Longo's rows
    have 2**15 masks)."""
    key = (weights, threshold, lock)
    cached = _ROW_TABLES.get(key)
    if cached is None:
        crosses = _crosses(weights)
        length = len(weights)
        cached = _ROW_TABLES[key] = (
            tuple(_allowed(m, length, threshold, crosses[m], lock) for m in range(1 << length)),
            tuple(crosses[m] + (1 if m & lock else 0) for m in range(1 << length)))
    return cached


def _allowed(mask: int, length: int, threshold: int, crosses: int, lock: int) -> int:
    """Positions a row of ``length`` cells with marks ``mask`` (worth ``crosses``) may take
    next, by R7 and R8 (DB2, LG2); ``lock``: the mask of its lock positions."""
    if mask & lock:
        return 0
    out = ((1 << length) - 1) & ~((1 << mask.bit_length()) - 1)
    if crosses < threshold:
        out &= ~lock
    return out


def _segments(numbers: Sequence[int], *parts: tuple[Colour, int]) -> list[tuple[int, Colour]]:
    """Cells of a row coloured in segments: ``parts`` are (colour, cell count), left to right."""
    colours = [c for c, k in parts for _ in range(k)]
    assert len(colours) == len(numbers)
    return list(zip(numbers, colours, strict=True))


_R, _Y, _G, _B = COLOURS
_UP = range(2, 13)
_DOWN = range(12, 1, -1)

#: The official sheet (R2): red and yellow 2..12, green and blue 12..2.
OFFICIAL = SheetLayout.plain("official", "aadd", confidence=Confidence.CHECKED,
                             source="RULES.md R2: the official sheet")

#: Qwixx Mixx, pad A ("colours mixed"): every row keeps its numbers, its cells are
#: coloured in segments; row 1 locks red, row 2 yellow, row 3 green, row 4 blue.
MIXX_A = SheetLayout.of_rows("mixx-a", [
    _segments(_UP, (_Y, 3), (_B, 3), (_G, 3), (_R, 2)),    # row 1: Y 2-4, B 5-7, G 8-10, R 11-12
    _segments(_UP, (_R, 2), (_G, 4), (_B, 2), (_Y, 3)),    # row 2: R 2-3, G 4-7, B 8-9, Y 10-12
    _segments(_DOWN, (_B, 3), (_Y, 3), (_R, 3), (_G, 2)),  # row 3: B 12-10, Y 9-7, R 6-4, G 3-2
    _segments(_DOWN, (_G, 2), (_R, 4), (_Y, 2), (_B, 3)),  # row 4: G 12-11, R 10-7, Y 6-5, B 4-2
], confidence=Confidence.CHECKED, source="docs/mixx.md: the Qwixx Mixx pad A")

#: Qwixx Mixx, pad B ("numbers mixed"): every row keeps its colour; its numbers are
#: printed in this order, the last one closing the row.
MIXX_B = SheetLayout.of_rows("mixx-b", [
    [(n, _R) for n in (10, 6, 2, 8, 3, 4, 12, 5, 9, 7, 11)],
    [(n, _Y) for n in (9, 12, 4, 6, 7, 2, 5, 8, 11, 3, 10)],
    [(n, _G) for n in (8, 2, 10, 12, 6, 9, 7, 4, 5, 11, 3)],
    [(n, _B) for n in (5, 7, 11, 9, 12, 3, 8, 10, 2, 6, 4)],
], confidence=Confidence.CHECKED, source="docs/mixx.md: the Qwixx Mixx pad B")


def _doubles(asc: tuple[int, ...], desc: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Weights of an official-looking sheet whose double cells are the numbers ``asc`` in
    red and yellow and ``desc`` in green and blue (DB1)."""
    return tuple(tuple(2 if n in cells else 1 for n in numbers)
                 for numbers, cells in zip(OFFICIAL.numbers, (asc, asc, desc, desc),
                                           strict=True))


#: Qwixx Double, pad B (VARIANTS.md §7): the official sheet with double cells red and
#: yellow 3, 5, 9, 11 and green and blue 10, 8, 6, 4 (Option ``db_desc_cells``, default);
#: the lock needs 7 crosses (DB2); rows score T(crosses), at most 16 (DB3).
DOUBLE_B = SheetLayout(
    "double-b", OFFICIAL.numbers, OFFICIAL.colours, lock_threshold=7,
    weights=_doubles((3, 5, 9, 11), (10, 8, 6, 4)), confidence=Confidence.CHECKED,
    source="VARIANTS.md §7.1: red and yellow double cells checked (S1, S9); green and blue "
           "disputed, Option db_desc_cells (default 10, 8, 6, 4: S1, S2 manual)")

#: Double B under ``db_desc_cells = 11,9,5,3``: green and blue doubled at 11, 9, 5, 3
#: (the same positions as red and yellow).
DOUBLE_B_ALT = SheetLayout(
    "double-b-alt", OFFICIAL.numbers, OFFICIAL.colours, lock_threshold=7,
    weights=_doubles((3, 5, 9, 11), (11, 9, 5, 3)), confidence=Confidence.STATED,
    source="VARIANTS.md §7.1: Option db_desc_cells = 11,9,5,3, what S2's code applies "
           "(its own manual says 10, 8, 6, 4)")


#: Qwixx Double, pad A (VARIANTS.md §6): the official rows with a second-cross box under
#: every number but the last (DA1); the lock needs 7 crosses, second crosses included
#: (DA5); rows score T(min(crosses, 16)) (DA7).
DOUBLE_A = SheetLayout(
    "double-a", OFFICIAL.numbers, OFFICIAL.colours, lock_threshold=7, second_crosses=True,
    confidence=Confidence.STATED,
    source="VARIANTS.md §6.1: rows as R2 (S5, S8); second-cross boxes under positions 0-9 "
           "of every row (S8, S5); score table to 16 crosses (S5 quoting the English rules, "
           "S1); no source transcribed the printed pad")


def _staircase(name: str, rows: str, source: str) -> SheetLayout:
    """The official sheet with one step cell per column: ``rows[i]`` is the letter of the
    row holding the step of column (position) ``i`` (VARIANTS.md §4.1)."""
    steps = tuple((Colour.parse(letter).index, p) for p, letter in enumerate(rows))
    return SheetLayout(name, OFFICIAL.numbers, OFFICIAL.colours, steps=steps,
                       confidence=Confidence.RECONSTRUCTED, source=source)


_S2 = ("VARIANTS.md §4.1: reconstruction S2 (0x0079/Qwixx board.ts), sheet {}; the official "
       "Connected Steps sheets are unknown")
#: Qwixx Connected, the Steps (VARIANTS.md §4): S2's sheet 1, R2 Y3 Y4 R5 G8 B7 B6 G5 R10
#: Y11 G2 — the default ``steps_cells``, a reconstruction, not an official sheet.
CONNECTED_STEPS = _staircase("connected-steps", "ryyrgbbgryg", _S2.format(1))
_CONNECTED_MORE = (
    _staircase("connected-steps-2", "yrgbygrbgby", _S2.format(2)),  # Y2 R3 G10 B9 Y6 G7 ...
    _staircase("connected-steps-3", "gbrybrgybrg", _S2.format(3)),  # G12 B11 R4 Y5 B8 R7 ...
    _staircase("connected-steps-4", "bgyrgybrygb", _S2.format(4)),  # B12 G11 Y4 R5 G8 Y7 ...
    _staircase("connected-steps-5", "rgbyrbygbyr", _S2.format(5)),  # R2 G11 B10 Y5 R6 B7 ...
)
#: S21's "layout A" (VARIANTS.md §4.1): R2 R3 Y4 G9 Y6 R7 Y8 G5 B4 G3 B2, reconstructed and
#: unverified.
CONNECTED_STEPS_S21 = _staircase(
    "connected-steps-s21", "rryg" "yryg" "bgb",
    "VARIANTS.md §4.1: reconstruction S21 ('layout A', an unidentified Dutch implementation "
    "citing BGG/Thimble Toys), unverified")

#: Qwixx Connected, the Chain (VARIANTS.md §5.1): sheet "A", six pairs, each in one column
#: of two adjacent rows: R6-Y6, R11-Y11, Y3-G11, Y8-G6, G9-B9, G4-B4 (checked, S5).
CONNECTED_CHAIN = SheetLayout(
    "connected-chain", OFFICIAL.numbers, OFFICIAL.colours,
    chain=(((0, 4), (1, 4)), ((0, 9), (1, 9)), ((1, 1), (2, 1)), ((1, 6), (2, 6)),
           ((2, 3), (3, 3)), ((2, 8), (3, 8))),
    confidence=Confidence.CHECKED,
    source="VARIANTS.md §5.1: sheet A, S5 (from a photo and a render of the physical sheet; "
           "S2's sheet 1 equals it minus G9-B9; S11 counts twelve circled cells); the other "
           "sheets of the pad are unknown")

#: The fields of the X-Change track, left to right (VARIANTS.md §9.1, checked: S2 and S5 agree).
X_CHANGE_FIELDS: tuple[tuple[int, int], ...] = (
    (8, 5), (9, 7), (11, 3), (7, 4), (10, 3), (8, 6), (10, 5), (11, 9), (6, 4))
#: Qwixx X-Change (VARIANTS.md §9): the official rows and the nine X-Change fields.  The
#: rules core plays exchanges (XC1-XC4, XC6); the exact solver refuses the pad (XC1).
X_CHANGE = SheetLayout(
    "x-change", OFFICIAL.numbers, OFFICIAL.colours, exchange=X_CHANGE_FIELDS,
    confidence=Confidence.CHECKED,
    source="VARIANTS.md §9.1: colour rows as R2; the nine X-Change fields checked (S2 and S5 "
           "agree); the product's second pad (S18) is unknown and not part of this layout")

#: Qwixx Longo (VARIANTS.md §8): eight-sided dice (LG1), rows of 15 cells, red and yellow
#: 2..16, green and blue 16..2; the last two numbers of a row (15, 16 / 3, 2) are lock
#: numbers, each needing 6 crosses and closing the row (LG2); rows score T(crosses), at
#: most T(15) = 120 (LG6).  Its printed lucky numbers are unknown: ``longo`` has none, and
#: ``longo:A,B`` (:meth:`SheetLayout.with_lucky`) is Longo with the lucky numbers A, B (LG3).
LONGO = SheetLayout.of_rows("longo", [
    [(n, c) for n in (range(2, 17) if c in (_R, _Y) else range(16, 1, -1))] for c in COLOURS
], lock_threshold=6, faces=8, lock_cells=2, confidence=Confidence.CHECKED,
    source="VARIANTS.md §8.1: rows, lock numbers and the lock rule agree in S1, S14-S17, "
           "S22; the printed lucky numbers are unknown and not part of this layout")

#: Qwixx Bonus, pad A (VARIANTS.md §2.1, checked: S2 and S5 agree): the boxed cells, as
#: (row index, position): red 3, 6, 9; yellow 5, 8, 11; green 11, 7, 4; blue 10, 8, 5.
BONUS_A_BOXED: tuple[tuple[int, int], ...] = (
    (0, 1), (0, 4), (0, 7), (1, 3), (1, 6), (1, 9), (2, 1), (2, 5), (2, 8), (3, 2), (3, 4), (3, 7))
#: The bonus bar of pad A, left to right (VARIANTS.md §2.1).
BONUS_A_BAR: tuple[Colour, ...] = (_R, _Y, _G, _B, _G, _R, _B, _Y, _R, _Y, _B, _G)
#: Qwixx Bonus, pad A (VARIANTS.md §2): the official rows with 12 boxed cells; crossing one
#: uses the next bonus-bar field and forces a cross in that field's row (BA1-BA8).
BONUS_A = SheetLayout(
    "bonus-a", OFFICIAL.numbers, OFFICIAL.colours, boxed=BONUS_A_BOXED, bar=BONUS_A_BAR,
    confidence=Confidence.CHECKED,
    source="VARIANTS.md §2.1: colour rows as R2; the boxed cells and the bonus bar checked "
           "(S2 and S5 agree)")

#: Qwixx Bonus, pad B (VARIANTS.md §3.1): the two cells of each symbol, as (row index,
#: position), in the order of SYMBOL_NAMES: circle Y11, G9; diamond Y7, B7; square R8, B10;
#: octagon R6, B4; star Y3, G5.
BONUS_B_SYMBOLS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((1, 9), (2, 3)), ((1, 5), (3, 5)), ((0, 6), (3, 2)), ((0, 4), (3, 8)), ((1, 1), (2, 7)))
#: Qwixx Bonus, pad B (VARIANTS.md §3): the official rows with five symbols on two cells
#: each; crossing both cells of a symbol activates it (BB1-BB9, :mod:`qwixx_math.bonus_b`).
#: Confidence "checked" from ONE source only (S2), not corroborated by a second.
BONUS_B = SheetLayout(
    "bonus-b", OFFICIAL.numbers, OFFICIAL.colours, symbols=BONUS_B_SYMBOLS,
    confidence=Confidence.CHECKED,
    source="VARIANTS.md §3.1: colour rows as R2; the symbol cells and the symbol-to-reward "
           "pairing checked from one source only (S2, which claims the official sheet), not "
           "corroborated")
#: Qwixx Big Points (VARIANTS.md §1): the official rows and two bonus rows of 11 cells, RY
#: between red and yellow (2..12) and GB between green and blue (12..2) (BP1-BP9); rows
#: score T(min(own crosses + bonus row crosses, 15)) (BP9).
BIG_POINTS = SheetLayout(
    "big-points", OFFICIAL.numbers, OFFICIAL.colours, bonus_rows=True,
    confidence=Confidence.STATED,
    source="VARIANTS.md §1.1: colour rows as R2 (S7); bonus rows RY 2..12 and GB 12..2 "
           "between the rows they join, no lock (stated, S7; S2, S5 agree); score table to "
           "15 crosses (S7; S2/S3, S5)")

#: The published layouts by name (``--layout official|mixx-a|mixx-b|double-b|...``).
LAYOUTS: dict[str, SheetLayout] = {
    la.name: la for la in (OFFICIAL, MIXX_A, MIXX_B, DOUBLE_B, DOUBLE_B_ALT, DOUBLE_A,
                           CONNECTED_STEPS, *_CONNECTED_MORE, CONNECTED_STEPS_S21, LONGO,
                           CONNECTED_CHAIN, X_CHANGE, BONUS_A, BONUS_B, BIG_POINTS)}


def read_layout_file(path: str | Path) -> SheetLayout:
    """The layout in the JSON file at ``path`` (:meth:`SheetLayout.from_json`, at most
    64 KiB); errors name the file.

    This is what ``--layout FILE`` reads.  :func:`layout_named` never reads a file: a
    sheet or record names its layout by its :attr:`~SheetLayout.key`, which spells out
    a layout of a file, so records of a house pad are complete without the file.
    """
    text = read_text_bounded(path, LAYOUT_FILE_LIMIT, "layout")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ParseError(f"{path}: the layout file is not JSON: {shown(str(exc), 80)}"
                         ) from None
    try:
        return SheetLayout.from_json(data)
    except ParseError as exc:
        raise ParseError(f"{path}: {exc}") from None


def layout_named(name: str | SheetLayout) -> SheetLayout:
    """The published layout called ``name`` (``official``, ``mixx-a``, ``mixx-b``,
    ``double-b``, ``double-b-alt``, ``double-a``, ``connected-steps``, ``connected-steps-2``
    to ``-5``, ``connected-steps-s21``, ``longo``, ``connected-chain``, ``x-change``,
    ``bonus-a``, ``bonus-b``, ``big-points``), or the layout a spelled-out
    :attr:`SheetLayout.key` describes."""
    if isinstance(name, SheetLayout):
        return name
    if not isinstance(name, str):
        raise ParseError(f"unknown layout {shown(name)}; expected one of {', '.join(LAYOUTS)}")
    if name not in LAYOUTS:
        if ":" in name:
            return _lucky_layout(name)
        return SheetLayout.from_key(name)
    return LAYOUTS[name]


_LUCKY_NAME = re.compile(r"([^:]+):([0-9]{1,2}),([0-9]{1,2})")


def _lucky_layout(name: str) -> SheetLayout:
    """The layout ``BASE:A,B``: the layout ``BASE`` with the lucky numbers A and B (LG3),
    e.g. ``longo:5,13``."""
    match = _LUCKY_NAME.fullmatch(name)
    if match is None:
        raise ParseError(f"unknown layout {shown(name)}; a layout with lucky numbers is "
                         "written LAYOUT:A,B, e.g. 'longo:5,13'", rule="LG3")
    base = layout_named(match.group(1))
    a, b = int(match.group(2)), int(match.group(3))
    if a >= b:
        raise ParseError(f"layout {shown(name)}: the lucky numbers are two different numbers, "
                         "smaller first ('longo:5,13')", rule="LG3")
    return base.with_lucky((a, b))
