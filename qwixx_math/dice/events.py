"""Exact probabilities of the events of one turn, for a given sheet and closed colours.

Everything here is over one roll of the dice in play (R4: the whites and the
coloured dice of the colours not closed), with every outcome equally likely.
The semantics (also in ``docs/probability.md``):

* **markable** (active player): some legal turn plan marks that (row, number), in
  action 1 or action 2; the action-1 mark counts for R8 and for R7's order in the
  same row, a colour closed in action 1 loses its die (R9), and a game that ends
  in action 1 has no action 2 unless the :class:`~qwixx_math.ruleset.Ruleset` says so
  (R15).  The other players are assumed to pass in action 1 (their choices can only
  take options away: a colour they close loses its die).
* **markable** (passive player): the white sum can be marked there (R5), or the
  lucky cross (below) crosses it.
* A (row, number) is a *cell*: a second cross under the number (Double A, DA1) or an
  exchange onto it (X-Change, XC1) crosses it too; a Big Points bonus cross (BP1) is in
  no colour row's table, but is a mark (it avoids the penalty, and counts in ``marks``).
* **no mark**: the player has no legal mark at all; for the active player that is a
  forced penalty (R11).
* **can close X**: some legal plan marks X's last number (R8).
* **can end**: some legal choice ends the game this turn, by closing colours so that
  two are closed (R14) or, for the active player, by a fourth penalty (R13; a player
  with three penalties can always end the game by passing).  **must end**: every
  legal plan of the active player ends the game.
* **marks**: the most cells the active player can cross this turn (0, 1 or 2; 3 with a
  lucky cross after the white sum and an action-2 mark, ``lg_lucky_mode = additional``).
* **lucky** (sheets with lucky numbers, ``longo:A,B``): some legal action-1 choice is a
  lucky cross (LG3-LG5, as the rules core's :func:`~qwixx_math.rules.legal_action1`
  offers them under the Ruleset's Options); its cell (and under ``additional`` the
  white-sum cross before it) counts in the markable table as well.

:func:`turn_events` computes all of it from closed forms over the 21 unordered
white pairs (the coloured dice are independent given the whites); on another
sheet layout (:mod:`qwixx_math.layouts`) it asks the rules core for each white pair
and action-1 choice what each coloured die offers, and combines the dice, which are
independent given the whites and offer disjoint cells (a cell has one colour);
:func:`roll_events` asks the rules core about one roll and
:func:`brute_force_events` adds that up over every roll (slow; the reference).

>>> from qwixx_math.notation import parse_sheet
>>> ev = turn_events(parse_sheet("r:-/p:0"))
>>> ev.active.markable(Colour.RED, 2), ev.passive.markable(Colour.RED, 2)
(Fraction(2, 27), Fraction(1, 36))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

import numpy as np
import numpy.typing as npt

from ..big_points import BonusMark, bonus_action2
from ..errors import InvalidStateError, ParseError
from ..layouts import OFFICIAL, SheetLayout
from ..model import (
    ALLOWED,
    COLOURS,
    LAST_POSITION,
    PENALTY_BOXES,
    ROW_LENGTH,
    Colour,
    LuckyMark,
    Mark,
    Roll,
    Sheet,
    TurnPlan,
)
from ..notation import colour_set, format_sheet, parse_sheet
from ..rules import (
    GameState,
    Phase,
    closes,
    die_options,
    legal_action1,
    legal_plans,
    why_not_mark,
)
from ..ruleset import DieRemoval, LuckyMode, Ruleset
from .distribution import Distribution
from .outcomes import colour_sum_sets, white_sum_distribution

__all__ = [
    "PlayerEvents",
    "RollEvents",
    "TurnEvents",
    "brute_force_events",
    "roll_events",
    "turn_events",
]

IntArray = npt.NDArray[np.int64]

_LAST = LAST_POSITION
_LAST_BIT = 1 << LAST_POSITION
#: Equally likely outcomes of the six dice (closed colours count as a neutral die).
ROLL_COUNT = 6 ** 6
_FACES4 = 6 ** 4


# -- results ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PlayerEvents:
    """One player's chances this turn (active or passive; see the module docstring).

    ``table[colour.index][position]`` is the probability that the number at that
    position of the row (0 = leftmost, on the sheet's ``layout``; an empty tuple for a
    colour that locks no row) is markable; use :meth:`markable` to ask by number.
    """

    table: tuple[tuple[Fraction, ...], ...]
    no_mark: Fraction
    can_close: tuple[Fraction, Fraction, Fraction, Fraction]
    can_end: Fraction
    can_end_by_closing: Fraction
    marks: Distribution[int]
    layout: SheetLayout = OFFICIAL
    #: P(some legal action-1 choice is a lucky cross, LG3); 0 on a layout without lucky
    #: numbers.  The lucky cell is also in ``table`` (it is a cross of that number).
    lucky: Fraction = Fraction(0)

    def markable(self, colour: Colour | str, number: int) -> Fraction:
        """P(``number`` in ``colour``'s row is markable this turn)."""
        colour = Colour.of(colour)
        if self.layout is OFFICIAL:
            return self.table[colour.index][colour.position(number)]
        pos = self.layout.position(colour, number)
        if pos is None:
            raise ParseError(f"the {colour.value} row of layout {self.layout.name} does not "
                             f"show {number!r}", rule="R2")
        return self.table[colour.index][pos]

    def closing(self, colour: Colour | str) -> Fraction:
        """P(this player can close ``colour`` this turn)."""
        return self.can_close[Colour.of(colour).index]

    def to_json(self) -> dict[str, Any]:
        """Fractions as strings (``"7/36"``), rows keyed by colour name and number."""
        rows = COLOURS if self.layout is OFFICIAL else self.layout.locks
        return {
            "markable": {c.value: {str(n): str(self.table[c.index][p])
                                   for p, n in enumerate(self.layout.numbers[
                                       self.layout.row_index(c)])} for c in rows},
            "no_mark": str(self.no_mark),
            "can_close": {c.value: str(self.can_close[c.index]) for c in rows},
            "can_end": str(self.can_end),
            "can_end_by_closing": str(self.can_end_by_closing),
            "marks": {str(k): str(v) for k, v in self.marks.probabilities().items()},
            **({"lucky": str(self.lucky)} if self.layout.lucky else {}),
        }


@dataclass(frozen=True, slots=True)
class TurnEvents:
    """The exact chances of one turn for a player with ``sheet``.

    ``closed`` holds every closed colour (the sheet's own locks included);
    ``active`` is this player as the active player, ``passive`` as a passive one.
    ``must_end`` is P(every legal plan of the active player ends the game).
    """

    sheet: Sheet
    closed: frozenset[Colour]
    ruleset: Ruleset
    active: PlayerEvents
    passive: PlayerEvents
    must_end: Fraction

    @property
    def in_play(self) -> tuple[Colour, ...]:
        """The coloured dice rolled this turn, in sheet order (R4, R9)."""
        return tuple(c for c in self.sheet.layout.locks if c not in self.closed)

    @property
    def white_sum(self) -> Distribution[int]:
        """The distribution of the white sum (R5)."""
        return white_sum_distribution()

    @property
    def colour_sums(self) -> dict[Colour, Distribution[tuple[int, ...]]]:
        """For each colour in play, the distribution of the set of sums white + colour (R6)."""
        return dict.fromkeys(self.in_play, colour_sum_sets())

    def to_json(self) -> dict[str, Any]:
        """The JSON form: every probability as an exact fraction string."""
        layout = {} if self.sheet.layout.is_official else {"layout": self.sheet.layout.key}
        return {
            **layout,
            "sheet": format_sheet(self.sheet),
            "closed": [c.value for c in COLOURS if c in self.closed],
            "dice_in_play": ["white", "white", *(c.value for c in self.in_play)],
            "ruleset": self.ruleset.to_json(),
            "active": self.active.to_json(),
            "passive": self.passive.to_json(),
            "must_end": str(self.must_end),
        }


@dataclass(frozen=True, slots=True)
class RollEvents:
    """What one roll offers a player with the sheet (the per-outcome events).

    ``plans`` are the active player's legal plans (:func:`~qwixx_math.rules.legal_plans`,
    the other players passing); ``active_marks`` every mark some plan makes;
    ``passive_marks`` the action-1 marks a passive player may make (the white sum, and on
    a sheet with lucky numbers the lucky crosses, LG3).  A lucky cross is one mark that
    may cross two cells (its first mark, LG4): :attr:`active_cells` and
    :attr:`passive_cells` are the cells crossed.
    ``ending_plans`` are the plans after which the game is over; ``passive_ending`` the
    passive player's marks that end the game this turn (R14), everyone else passing.
    """

    roll: Roll
    plans: tuple[TurnPlan, ...]
    ending_plans: tuple[TurnPlan, ...]
    active_marks: tuple[Mark, ...]
    passive_marks: tuple[Mark, ...]
    passive_ending: tuple[Mark, ...]
    layout: SheetLayout = OFFICIAL

    @property
    def no_mark(self) -> bool:
        """The active player has no legal mark: a forced penalty (R11)."""
        return not self.active_marks

    @property
    def active_cells(self) -> tuple[Mark, ...]:
        """Every cell some legal plan of the active player crosses, in row order."""
        return _cell_set(self.layout, self.active_marks)

    @property
    def passive_cells(self) -> tuple[Mark, ...]:
        """Every cell some action-1 choice of a passive player crosses, in row order."""
        return _cell_set(self.layout, self.passive_marks)

    @property
    def lucky(self) -> bool:
        """Some legal plan of the active player makes a lucky cross (LG3)."""
        return any(isinstance(m, LuckyMark) for m in self.active_marks)

    @property
    def passive_lucky(self) -> bool:
        """A passive player may make a lucky cross (LG3)."""
        return any(isinstance(m, LuckyMark) for m in self.passive_marks)

    @property
    def max_marks(self) -> int:
        """The most cells one legal plan crosses (0, 1 or 2; 3 with a lucky cross after
        the white sum and an action-2 mark, ``lg_lucky_mode = additional``, LG4)."""
        return max(sum(_crossed(m) for m in p.marks) for p in self.plans)

    @property
    def passive_max_marks(self) -> int:
        """The most cells one action-1 choice of a passive player crosses."""
        return max((_crossed(m) for m in self.passive_marks), default=0)

    @property
    def can_end(self) -> bool:
        """Some legal plan of the active player ends the game."""
        return bool(self.ending_plans)

    @property
    def must_end(self) -> bool:
        """Every legal plan of the active player ends the game."""
        return len(self.ending_plans) == len(self.plans)

    def can_close(self, colour: Colour | str) -> bool:
        """Some legal plan of the active player closes ``colour``."""
        colour = Colour.of(colour)
        return any(m.colour is colour and closes(self.layout, m) for m in self.active_cells)


# -- validation ------------------------------------------------------------------------------------

def _prepare(sheet: Sheet | str, closed: Iterable[Colour | str] | str,
             ruleset: Ruleset | None) -> tuple[Sheet, frozenset[Colour], Ruleset]:
    if isinstance(sheet, str):
        sheet = parse_sheet(sheet)
    if not isinstance(sheet, Sheet):
        raise ParseError(f"expected a Sheet (or its text), not {type(sheet).__name__}")
    extra = colour_set(closed, "closed colours")
    rs = Ruleset() if ruleset is None else ruleset
    if not isinstance(rs, Ruleset):
        raise ParseError(f"expected a Ruleset, not {type(rs).__name__}")
    shut = extra | sheet.locked
    layout = sheet.layout
    stray = shut - frozenset(layout.locks)
    if stray:
        raise InvalidStateError(
            "R9", f"layout {layout.name} has no "
                  f"{', '.join(c.value for c in COLOURS if c in stray)} row to close")
    if len(shut) >= layout.closed_rows_to_end:
        raise InvalidStateError(
            "R14", f"{' and '.join(c.value for c in COLOURS if c in shut)} "
                   f"{'is' if len(shut) == 1 else 'are'} closed: "
                   "the game is over and no turn follows "
                   f"({format_sheet(sheet)})")
    if sheet.penalties >= layout.penalty_boxes:
        raise InvalidStateError(
            "R13", f"the sheet has {layout.penalty_boxes} penalties: the game is over and no "
                   f"turn follows ({format_sheet(sheet)})")
    return sheet, shut, rs


# -- the fast closed forms -------------------------------------------------------------------------

def _single_colour_arrays() -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """Canonical (white pair, colour face) outcomes, pair-major: 21 pairs x 6 faces."""
    pairs = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    a = np.repeat(np.array([p[0] for p in pairs], dtype=np.int64), 6)
    b = np.repeat(np.array([p[1] for p in pairs], dtype=np.int64), 6)
    d = np.tile(np.arange(1, 7, dtype=np.int64), len(pairs))
    wt = np.where(a == b, 1, 2).astype(np.int64)
    wp = np.array([1 if p[0] == p[1] else 2 for p in pairs], dtype=np.int64)
    return a, b, d, wt, wp, a + b


_A, _B, _D, _WT, _WP, _S = _single_colour_arrays()
_WT.setflags(write=False)
_WP.setflags(write=False)
_S_PAIR = _S[::6]
_ALLOWED_NP = np.array(ALLOWED, dtype=np.int64)
_BITS = 1 << np.arange(ROW_LENGTH, dtype=np.int64)


def _positions(colour: Colour, numbers: IntArray) -> IntArray:
    return numbers - 2 if colour.ascending else 12 - numbers


_POS_S = tuple(_positions(c, _S) for c in COLOURS)
_PBITS = tuple((1 << _positions(c, _A + _D)) | (1 << _positions(c, _B + _D)) for c in COLOURS)


@dataclass(frozen=True, slots=True, eq=False)
class _ColourStats:
    """Per colour and row mask: integer counts over the 126 (white pair, face) outcomes."""

    counts: tuple[int, ...]      # markable, active: weight out of 216 per position
    pcounts: tuple[int, ...]     # markable, passive: weight out of 36 per position
    a1: IntArray                 # (21,) 1 when the white sum is legal in this row
    a1c: IntArray                # (21,) 1 when the white sum closes this row
    n_e: IntArray                # (21,) faces with no action-2 option (no action 1 in this row)
    n_f: IntArray                # (21,) faces with no action-2 option after action 1 in this row
    n_ef: IntArray               # (21,) faces with neither
    close_e: IntArray            # (21,) faces where action 2 alone closes the row
    close_any: IntArray          # (21,) faces where some plan closes the row
    all_close_e: IntArray        # (21,) faces where every action-2-alone option closes the row


def _neutral() -> _ColourStats:
    zeros = np.zeros(21, dtype=np.int64)
    six = np.full(21, 6, dtype=np.int64)
    none = (0,) * ROW_LENGTH
    return _ColourStats(none, none, zeros, zeros, six, six, six, zeros, zeros, six)


_NEUTRAL = _neutral()


@lru_cache(maxsize=len(COLOURS) * (1 << ROW_LENGTH))
def _colour_stats(ci: int, mask: int) -> _ColourStats:
    allowed = ALLOWED[mask]
    pos_s = _POS_S[ci]
    pbits = _PBITS[ci]
    a1 = (allowed >> pos_s) & 1
    allowed2 = np.where(a1 == 1, _ALLOWED_NP[mask | (1 << pos_s)], 0)
    e = allowed & pbits
    f = allowed2 & pbits
    bits = (a1 << pos_s) | e | f
    counts = (((bits[:, None] & _BITS) != 0).T.astype(np.int64) @ _WT)
    a1p = a1[::6]
    a1c = a1p * (pos_s[::6] == _LAST)
    pc = np.zeros(ROW_LENGTH, dtype=np.int64)
    np.add.at(pc, pos_s[::6], a1p * _WP)

    def per_pair(x: npt.NDArray[np.bool_] | IntArray) -> IntArray:
        out: IntArray = np.asarray(x, dtype=np.int64).reshape(21, 6).sum(axis=1)
        return out

    return _ColourStats(
        counts=tuple(counts.tolist()),
        pcounts=tuple(pc.tolist()),
        a1=a1p, a1c=a1c,
        n_e=per_pair(e == 0),
        n_f=per_pair(f == 0),
        n_ef=per_pair((e | f) == 0),
        close_e=per_pair((e >> _LAST) & 1),
        close_any=per_pair((bits >> _LAST) & 1),
        all_close_e=per_pair((e & ~_LAST_BIT) == 0),
    )


def _no_mark(any_a1: npt.NDArray[np.bool_] | np.bool_, n_e: IntArray) -> int:
    """The forced penalty (R11): the rolls with no action-1 option in any row and no
    action-2 option in any colour, out of :data:`ROLL_COUNT`."""
    return int(_WP @ (~any_a1 * n_e.prod(axis=0)))


def forced_penalty_count(masks: tuple[int, int, int, int], closed: frozenset[Colour]) -> int:
    """Of the :data:`ROLL_COUNT` = 6**6 equally likely rolls, how many leave the active player
    of an official sheet with these row masks no legal mark (a forced penalty, R11);
    ``closed`` are the closed colours (the sheet's locked rows among them).

    :func:`turn_events`' ``active.no_mark`` without its checks and the rest of its work,
    for the hot path of :mod:`qwixx_math.players.race`: the masks are trusted.  The
    same integer as :func:`_no_mark` of the stacked colour statistics: no action 1 in
    any row is the product over the colours of (1 - a1), so the count is the white
    pairs' weights times the product over the colours of :func:`_no_mark_factor`.

    >>> forced_penalty_count((0, 0, 0, 0), frozenset())
    0
    """
    factors = []
    for c in COLOURS:
        if c in closed:
            factors.append(_NO_MARK_NEUTRAL)
        else:
            ci = c.index
            got = _NO_MARK_FACTORS[ci][masks[ci]]
            factors.append(_no_mark_factor(ci, masks[ci]) if got is None else got)
    r, y, g, b = factors
    return int(_WP @ (r * y * g * b))


def _no_mark_factor(ci: int, mask: int) -> IntArray:
    """Per white pair (21): the coloured faces of colour ``ci`` with no action-2 option,
    or 0 when the white sum is legal in this row (an action 1 exists); kept in
    :data:`_NO_MARK_FACTORS`."""
    stats = _colour_stats(ci, mask)
    out: IntArray = stats.n_e * (1 - stats.a1)
    out.setflags(write=False)
    _NO_MARK_FACTORS[ci][mask] = out
    return out


#: :func:`_no_mark_factor` by colour index and row mask, filled as they are asked.
_NO_MARK_FACTORS: list[list[IntArray | None]] = [[None] * (1 << ROW_LENGTH) for _ in COLOURS]


#: :func:`_no_mark_factor` of a closed colour (no die, no row: six faces, no action 1).
_NO_MARK_NEUTRAL = _NEUTRAL.n_e * (1 - _NEUTRAL.a1)
_NO_MARK_NEUTRAL.setflags(write=False)


def turn_events(sheet: Sheet | str, closed: Iterable[Colour | str] | str = (),
                ruleset: Ruleset | None = None) -> TurnEvents:
    """The exact chances of the coming turn for a player with ``sheet``.

    ``closed`` adds colours other players closed (the sheet's locks are closed
    anyway), as Colour values, names or text (see :func:`~qwixx_math.notation.colour_set`);
    ``ruleset`` (default: the official rules) decides R15.  Raises
    :class:`~qwixx_math.errors.InvalidStateError` for a game that is over (two colours
    closed, R14; four penalties, R13); the sheet itself is validated when built.
    """
    sheet, shut, rs = _prepare(sheet, closed, ruleset)
    if sheet.layout is not OFFICIAL:
        return _layout_events(sheet, shut, rs)
    stats = [(_NEUTRAL if c in shut else _colour_stats(c.index, sheet.masks[c.index]))
             for c in COLOURS]
    a1 = np.stack([s.a1 for s in stats])
    a1c = np.stack([s.a1c for s in stats])
    n_e = np.stack([s.n_e for s in stats])
    any_a1 = a1.any(axis=0)
    wp = _WP
    n_closed = len(shut)

    no_mark = _no_mark(any_a1, n_e)
    p_no_mark = int(wp @ ~any_a1)

    # ending by closing (R14)
    if n_closed >= 1:
        close_any = np.stack([s.close_any for s in stats])
        end_close = int(wp @ (_FACES4 - (6 - close_any).prod(axis=0)))
        p_end = int(wp @ a1c.any(axis=0))
    else:
        close_e = np.stack([s.close_e for s in stats])
        n1 = a1c.sum(axis=0)
        factor = np.where(a1c.astype(bool) & (n1 == 1), 6, 6 - close_e)
        end_close = int(wp @ ((n1 > 0) * (_FACES4 - factor.prod(axis=0))))
        p_end = 0
    third = sheet.penalties == PENALTY_BOXES - 1
    if not third:
        must_end = 0
    elif n_closed == 0:
        must_end = no_mark
    else:
        all_close = np.stack([s.all_close_e for s in stats])
        open_a1 = (a1 & (1 - a1c)).any(axis=0)
        must_end = int(wp @ (~open_a1 * all_close.prod(axis=0)))

    # two marks: an action-1 row c1 (that does not end the game first) and an action-2 option
    ends = a1c if (n_closed >= 1 and not rs.action2_after_action1_end) else 0 * a1c
    ok = (a1 & (1 - ends)).astype(bool)
    n_ok = ok.sum(axis=0)
    n_f = np.stack([s.n_f for s in stats])
    n_ef = np.stack([s.n_ef for s in stats])
    one_row = np.where(ok, n_f, n_e).prod(axis=0)
    many = np.where(ok, n_ef, n_e).prod(axis=0)
    not_two = np.where(n_ok == 0, _FACES4, np.where(n_ok == 1, one_row, many))
    two = int(wp @ (_FACES4 - not_two))

    active = _player(
        tuple(s.counts for s in stats), 216, no_mark, ROLL_COUNT,
        end_close, third, {0: no_mark, 1: ROLL_COUNT - no_mark - two, 2: two})
    passive = _player(
        tuple(s.pcounts for s in stats), 36, p_no_mark, 36, p_end, False,
        {0: p_no_mark, 1: 36 - p_no_mark})
    return TurnEvents(sheet, shut, rs, active, passive, Fraction(must_end, ROLL_COUNT))


def _player(counts: tuple[tuple[int, ...], ...], den: int, no_mark: int, total: int,
            end_close: int, third: bool, marks: dict[int, int],
            layout: SheetLayout = OFFICIAL,
            closing: Sequence[int] | None = None, lucky: int = 0) -> PlayerEvents:
    """``closing``: per colour, the outcomes (out of ``den``) in which some lock number of
    the row is markable, needed when a row has two (Longo, LG2); else the last cell's
    chance is the row's.  ``lucky``: the outcomes (out of ``total``) offering a lucky
    cross (LG3)."""
    table = tuple(tuple(Fraction(x, den) for x in row) for row in counts)
    close = (tuple(row[-1] if row else Fraction(0) for row in table) if closing is None
             else tuple(Fraction(x, den) for x in closing))
    end_c = Fraction(end_close, total)
    return PlayerEvents(
        table=table,
        no_mark=Fraction(no_mark, total),
        can_close=(close[0], close[1], close[2], close[3]),
        can_end=Fraction(1) if third else end_c,
        can_end_by_closing=end_c,
        marks=Distribution(marks),
        layout=layout,
        lucky=Fraction(lucky, total),
    )


def _pairs(faces: int = 6) -> tuple[tuple[tuple[int, int], int], ...]:
    """The unordered white pairs of dice of ``faces`` sides, each with its weight (1 for a
    double, else 2): 21 pairs of six-sided dice, 36 of eight-sided (LG1)."""
    return tuple(((a, b), 1 if a == b else 2)
                 for a in range(1, faces + 1) for b in range(a, faces + 1))


_PAIRS = _pairs()


def _layout_events(sheet: Sheet, shut: frozenset[Colour], rs: Ruleset) -> TurnEvents:
    """:func:`turn_events` on any layout: for each white pair and action-1 choice, the
    rules core's state after action 1 and what each coloured die offers in action 2
    (:func:`qwixx_math.rules.die_options`); the dice are independent given the whites
    and offer disjoint cells, so each event is a sum or product over the dice.  Counts
    are out of F**6 for dice of F sides (6, or 8 on Longo, LG1; a die not rolled counts as
    a neutral die, as in the closed forms)."""
    layout = sheet.layout
    state = _base_state(sheet, shut, rs)
    dice = [c for c in layout.locks if c not in shut]
    sides = layout.faces
    total = sides ** 6
    neutral = sides ** (len(COLOURS) - len(dice))
    coloured = sides ** len(COLOURS)  # outcomes of the four coloured dice per white pair
    to_end = layout.closed_rows_to_end
    third = sheet.penalties == layout.penalty_boxes - 1
    pos = layout.pos
    act = [[0] * len(layout.numbers[layout.row_of[c.index]]) if layout.row_of[c.index] >= 0
           else [] for c in COLOURS]
    pas = [list(row) for row in act]
    p_no_mark = end_close = p_end = must = lucky = 0
    # outcomes in which the active / a passive player can cross at least k cells (k = 0..,
    # three under lg_lucky_mode = additional: the white sum, the lucky cross, action 2)
    most = _most_crosses(layout, rs)
    at_least, p_at_least = [total] + [0] * most, [total] + [0] * (most - 1)
    immediate = rs.die_removal is DieRemoval.IMMEDIATE
    # rows of two lock numbers (Longo, LG2): the outcomes closing each row, for can_close
    locks2 = layout.lock_cells > 1
    a_close, p_close = [0] * len(COLOURS), [0] * len(COLOURS)
    for white, wp in _pairs(sides):
        roll = Roll(white, tuple(1 if c in dice else None for c in COLOURS),  # type: ignore[arg-type]
                    sides)
        rolled = state.with_roll(roll)
        a1s = legal_action1(rolled, 0)
        # the active player's action-1 outcomes: (choice, closed after it, the options
        # of each die face in action 2 (None when no action 2 follows))
        outcomes: list[tuple[Mark | None, frozenset[Colour],
                             dict[Colour, list[tuple[Mark, ...]]] | None]] = []
        for a1 in (None, *a1s):
            after = rolled.with_action1([a1] + [None] * (state.players - 1))
            opts: dict[Colour, list[tuple[Mark, ...]]] | None = None
            if after.phase is Phase.ACTION2:
                gone = after.closed if immediate else shut
                rows = frozenset(dice) - gone
                mine = after.sheets[0]
                if layout.second_crosses:  # Double A: second crosses, DA5's lock count
                    opts = _asked_offers(state, roll, a1, dice, gone)
                else:
                    opts = {c: [die_options(mine, c, d, white, rows)
                                for d in range(1, sides + 1)] for c in dice if c not in gone}
                if layout.bonus_rows:  # Big Points: the bonus crosses of each die (BP3)
                    _add_bonus_offers(opts, mine, roll, gone, rs)
            outcomes.append((a1, after.closed, opts))
        # the cells action 1 can cross (a lucky cross's first mark and its cell, LG3, LG4):
        # markable for every die outcome, by the passive player too (the same sheet)
        by_a1 = {cell for m in a1s for cell in _cells(m)}
        for m in by_a1:
            act[m.colour.index][pos[m.colour.index][m.number]] += wp * coloured
            pas[m.colour.index][pos[m.colour.index][m.number]] += wp * coloured
        if any(isinstance(m, LuckyMark) for m in a1s):
            lucky += wp * coloured
        if next(_passive_ending(rolled, a1s), None) is not None:
            p_end += wp * coloured
        if not a1s:
            p_no_mark += wp * coloured
        p_most = max((_crossed(m) for m in a1s), default=0)
        for k in range(1, p_most + 1):
            p_at_least[k] += wp * coloured
        # markable by the die of the cell's colour
        faces: dict[Mark, set[int]] = {}  # each cell a die may cross: the die's faces
        for _, _, opts in outcomes:
            for per_face in (opts or {}).values():
                for d, offered in enumerate(per_face):
                    for m in offered:
                        for cell in _cells(m):
                            faces.setdefault(cell, set()).add(d)
        for m, ds in faces.items():
            if m not in by_a1:
                act[m.colour.index][pos[m.colour.index][m.number]] += \
                    wp * len(ds) * coloured // sides
        if locks2:
            _count_closing(layout, by_a1, faces, wp, coloured, sides, a_close, p_close)

        # the most crosses (0 to 3): at least k when an action-1 choice crosses k cells, or
        # crosses k - 1 and some die then offers an action-2 mark
        crosses = [0 if a1 is None else _crossed(a1) for a1, _, _ in outcomes]
        for k in range(1, len(at_least)):
            if any(n >= k for n in crosses):
                at_least[k] += wp * coloured
                continue
            then = [opts for n, (_, _, opts) in zip(crosses, outcomes, strict=True)
                    if n == k - 1 and opts is not None]
            if then:
                at_least[k] += wp * (coloured - _faces(dice, neutral, _offers_none(then), sides))
        base = outcomes[0][2] or {}
        # ending by closing (R14)
        if any(len(closed1) >= to_end for a1, closed1, _ in outcomes if a1 is not None):
            end_close += wp * coloured
        else:
            near = [o[2] for o in outcomes if o[2] is not None and len(o[1]) + 1 >= to_end]
            if near:
                end_close += wp * (coloured - _faces(dice, neutral,
                                                     _closes_none(layout, near), sides))
        # every plan ends the game (only with the last penalty box to come, R13): every
        # action-1 mark ends it, and every action-2 mark alone too
        if third and all(len(closed1) >= to_end for a1, closed1, _ in outcomes
                         if a1 is not None):
            if len(shut) + 1 >= to_end:
                must += wp * _faces(dice, neutral, _all_close(layout, base), sides)
            else:
                must += wp * _faces(dice, neutral, _offers_none([base]), sides)
    no_mark = total - at_least[1]
    active = _player(tuple(tuple(r) for r in act), total, no_mark, total, end_close,
                     third, _exactly(at_least), layout, a_close if locks2 else None, lucky)
    passive = _player(tuple(tuple(r) for r in pas), total, p_no_mark, total, p_end, False,
                      _exactly(p_at_least), layout, p_close if locks2 else None, lucky)
    return TurnEvents(sheet, shut, rs, active, passive, Fraction(must, total))


def _cells(mark: Mark) -> tuple[Mark, ...]:
    """The cells of the colour rows a mark crosses, as plain marks (the keys of the
    markable table): a lucky cross's first mark (if any) and its own cell
    (:attr:`~qwixx_math.model.LuckyMark.cells`, LG3, LG4); an exchange's cell (XC1) and a
    second cross's number (DA1) as its cell; none for a Big Points bonus cross (BP1, its
    own row) or an X-Change field spent alone (XC4)."""
    if isinstance(mark, LuckyMark):
        return mark.cells
    if isinstance(mark, BonusMark) or not mark.crosses:
        return ()
    if mark.field is None and not mark.second:
        return (mark,)
    return (Mark(mark.colour, mark.number),)


def _faced(roll: Roll, face: int) -> Roll:
    """``roll`` with every coloured die in it showing ``face``."""
    r, y, g, b = (None if x is None else face for x in roll.coloured)
    return Roll(roll.white, (r, y, g, b), roll.faces)


def _asked_offers(state: GameState, roll: Roll, a1: Mark | None, dice: Sequence[Colour],
                  gone: frozenset[Colour]) -> _Offers:
    """Per die in play (not ``gone``) and face, the action-2 marks white + that die offers
    after the active player's action-1 choice ``a1``, each asked of the rules core
    (:func:`~qwixx_math.rules.why_not_mark`): the cells of the die's colour showing a sum
    it makes, their first and their second boxes (Double A, DA1, DA3-DA5).  A die's marks
    depend on its own face alone, so one roll with every die showing the face serves all."""
    layout = state.layout
    white = roll.white
    out: _Offers = {c: [] for c in dice if c not in gone}
    for d in range(1, layout.faces + 1):
        after = state.with_roll(_faced(roll, d)).with_action1([a1] + [None] * (state.players - 1))
        for c, per_face in out.items():
            offered: list[Mark] = []
            if after.phase is Phase.ACTION2:
                for n in sorted({white[0] + d, white[1] + d}):
                    for row in layout.action2_rows(c, n):
                        offered.extend(Mark(row, n, second=second) for second in (False, True)
                                       if why_not_mark(after, 0, row, n, second=second) is None)
            per_face.append(tuple(offered))
    return out


def _add_bonus_offers(opts: _Offers, sheet: Sheet, roll: Roll, gone: frozenset[Colour],
                      rs: Ruleset) -> None:
    """Add to each die's ``opts`` the Big Points bonus crosses white + that die offers in
    action 2 (:func:`~qwixx_math.big_points.bonus_action2` with every other die out of
    play, BP3).  Two dice may offer the same bonus cross; the events only ask whether a
    die offers something, and a bonus cross is no cell of the markable table."""
    for c, per_face in opts.items():
        others = frozenset(COLOURS) - {c} | gone
        for k, offered in enumerate(per_face):
            per_face[k] = offered + bonus_action2(sheet, _faced(roll, k + 1), others, rs)


def _cell_set(layout: SheetLayout, marks: Iterable[Mark]) -> tuple[Mark, ...]:
    """The cells ``marks`` cross, each once, in row order."""
    return tuple(sorted({cell for m in marks for cell in _cells(m)},
                        key=lambda m: (m.colour.index, layout.pos[m.colour.index][m.number])))


def _crossed(mark: Mark) -> int:
    """How many cells an action-1 choice crosses (two for a lucky cross after the white
    sum, ``lg_lucky_mode = additional``, LG4); any other choice one (a bonus cross or an
    X-Change field spent alone too: a mark, though of no cell of the colour rows)."""
    return len(mark.cells) if isinstance(mark, LuckyMark) else 1


def _most_crosses(layout: SheetLayout, rs: Ruleset) -> int:
    """The most cells the active player can cross in one turn: two (R5, R6), three with
    lucky numbers under ``lg_lucky_mode = additional`` (LG4); a passive player one less."""
    return 3 if layout.lucky and rs.lg_lucky_mode is LuckyMode.ADDITIONAL else 2


def _exactly(at_least: Sequence[int]) -> dict[int, int]:
    """Counts of "at least k" (k = 0, 1, ...) as counts of "exactly k"."""
    return {k: n - (at_least[k + 1] if k + 1 < len(at_least) else 0)
            for k, n in enumerate(at_least)}


def _passive_ending(rolled: GameState, choices: Iterable[Mark]) -> Iterator[Mark]:
    """The action-1 choices of player 1 (a passive player; everyone else passing) that end
    the game this turn by closing rows (R14), asked of the rules core."""
    others: list[Mark | None] = [None] * rolled.players
    for m in choices:
        others[1] = m
        after = rolled.with_action1(others)
        if after.phase is Phase.ACTION2 and after.ended_by is None:
            after = after.with_action2(None)  # end_check=END_OF_TURN: the end comes now
        if after.ended_by == "R14":
            yield m


def _count_closing(layout: SheetLayout, a1s: Iterable[Mark], faces: dict[Mark, set[int]],
                   wp: int, coloured: int, sides: int, active: list[int],
                   passive: list[int]) -> None:
    """Add one white pair's outcomes (weight ``wp``) in which each row can be closed: by an
    action-1 mark (``a1s``, every die outcome; the passive player too), else by a die face
    offering a lock number (``faces``: the faces of its die offering each mark).  The lock
    numbers of a row are taken to be of one die's colour (Longo: the row's own)."""
    for colour in layout.locks:
        ci = colour.index
        if any(m.colour is colour and closes(layout, m) for m in a1s):
            active[ci] += wp * coloured
            passive[ci] += wp * coloured
            continue
        ds: set[int] = set()
        for m, offered in faces.items():
            if m.colour is colour and closes(layout, m):
                ds |= offered
        active[ci] += wp * len(ds) * coloured // sides


_Offers = dict[Colour, list[tuple[Mark, ...]]]


def _faces(dice: Iterable[Colour], neutral: int, ok: Callable[[Colour, int], bool],
           sides: int = 6) -> int:
    """Outcomes of the coloured dice (out of sides**4) where every die in play shows a face
    (index 0..sides-1) that ``ok`` accepts; the dice not rolled count ``neutral`` outcomes."""
    out = neutral
    for c in dice:
        out *= sum(1 for d in range(sides) if ok(c, d))
    return out


def _offers_none(outcomes: list[_Offers]) -> Callable[[Colour, int], bool]:
    """ok(c, d): die ``c`` showing face ``d`` offers no mark after any of ``outcomes``."""
    return lambda c, d: all(not o[c][d] for o in outcomes if c in o)


def _closes_none(layout: SheetLayout, outcomes: list[_Offers]) -> Callable[[Colour, int], bool]:
    """ok(c, d): die ``c`` showing face ``d`` offers no closing mark after any outcome."""
    return lambda c, d: all(not any(closes(layout, m) for m in o[c][d])
                            for o in outcomes if c in o)


def _all_close(layout: SheetLayout, offers: _Offers) -> Callable[[Colour, int], bool]:
    """ok(c, d): every mark die ``c`` showing face ``d`` offers closes a row."""
    return lambda c, d: all(closes(layout, m) for m in offers.get(c, [()] * 8)[d])


# -- the reference: the rules core, one roll at a time ---------------------------------------------

def _base_state(sheet: Sheet, shut: frozenset[Colour], rs: Ruleset) -> GameState:
    # player 0 is active, player 1 a passive player with the same sheet; others pass
    table = rs if rs.players >= 2 else dataclasses.replace(rs, players=2)
    sheets = (sheet,) * table.players
    return GameState(table, sheets, active=0, closed=shut)


def roll_events(sheet: Sheet | str, roll: Roll, closed: Iterable[Colour | str] | str = (),
                ruleset: Ruleset | None = None) -> RollEvents:
    """What ``roll`` offers a player with ``sheet``, asked of the rules core.

    A die given for a closed colour raises :class:`~qwixx_math.errors.IllegalMoveError`
    (R9), a missing die of a colour in play another one (R4).
    """
    sheet, shut, rs = _prepare(sheet, closed, ruleset)
    if not isinstance(roll, Roll):
        raise ParseError(f"expected a Roll, not {type(roll).__name__}")
    return _roll_events(_base_state(sheet, shut, rs), roll)


def _roll_events(state: GameState, roll: Roll) -> RollEvents:
    rolled = state.with_roll(roll)
    plans = legal_plans(rolled)
    # the game ends only by a close (R14) or a fourth penalty (R13): play out only those plans
    layout = state.layout
    third = state.sheets[state.active].penalties == layout.penalty_boxes - 1
    ending = tuple(p for p in plans
                   if ((p.penalty and third) or any(closes(layout, m) for m in p.marks))
                   and state.play_plan(roll, p).is_over)
    marks = sorted({m for p in plans for m in p.marks},
                   key=lambda m: (m.colour.index, layout.pos[m.colour.index][m.number]))
    passive = legal_action1(rolled, 1)
    return RollEvents(roll, plans, ending, tuple(marks), passive,
                      tuple(_passive_ending(rolled, passive)), layout)


def _all_rolls(shut: frozenset[Colour], layout: SheetLayout = OFFICIAL) -> Iterator[Roll]:
    sides = range(1, layout.faces + 1)
    dice = [sides if c not in shut and c in layout.locks else (None,) for c in COLOURS]
    for w1, w2 in product(sides, repeat=2):
        for r, y, g, b in product(*dice):
            yield Roll((w1, w2), (r, y, g, b), layout.faces)


def brute_force_events(sheet: Sheet | str, closed: Iterable[Colour | str] | str = (),
                       ruleset: Ruleset | None = None) -> TurnEvents:
    """:func:`turn_events` by brute force: :func:`roll_events` for every ordered outcome.

    Slow (seconds); the reference the fast closed forms are tested against.
    """
    sheet, shut, rs = _prepare(sheet, closed, ruleset)
    state = _base_state(sheet, shut, rs)
    layout = sheet.layout
    # colours not rolled (closed, or locking no row) count as a neutral die, as in turn_events
    mult = layout.faces ** (len(COLOURS) - len(frozenset(layout.locks) - shut))
    total = layout.faces ** 6
    act = [[0] * (len(layout.numbers[layout.row_of[c.index]])
                  if layout.row_of[c.index] >= 0 else 0) for c in COLOURS]
    pas = [list(row) for row in act]
    pos = layout.pos
    no_mark = p_no_mark = end_close = p_end = must = lucky = p_lucky = 0
    most = _most_crosses(layout, rs)
    marks, p_marks = dict.fromkeys(range(most + 1), 0), dict.fromkeys(range(most), 0)
    a_close, p_close = [0] * len(COLOURS), [0] * len(COLOURS)
    for roll in _all_rolls(shut, layout):
        ev = _roll_events(state, roll)
        passive_cells = ev.passive_cells
        for c in layout.locks:
            a_close[c.index] += mult * ev.can_close(c)
            p_close[c.index] += mult * any(
                m.colour is c and closes(layout, m) for m in passive_cells)
        for m in ev.active_cells:
            act[m.colour.index][pos[m.colour.index][m.number]] += mult
        for m in passive_cells:
            pas[m.colour.index][pos[m.colour.index][m.number]] += mult
        no_mark += mult * ev.no_mark
        p_no_mark += mult * (not ev.passive_marks)
        marks[ev.max_marks] += mult
        p_marks[ev.passive_max_marks] += mult
        lucky += mult * ev.lucky
        p_lucky += mult * ev.passive_lucky
        closing_end = any(
            any(closes(layout, m) for m in p.marks) for p in ev.ending_plans)
        end_close += mult * closing_end
        p_end += mult * bool(ev.passive_ending)
        must += mult * ev.must_end
    third = sheet.penalties == layout.penalty_boxes - 1
    # ``end_close`` counts rolls where some plan that ends the game closes a colour
    active = _player(tuple(tuple(r) for r in act), total, no_mark, total, end_close,
                     third, marks, layout, a_close, lucky)
    passive = _player(tuple(tuple(r) for r in pas), total, p_no_mark, total, p_end, False,
                      p_marks, layout, p_close, p_lucky)
    return TurnEvents(sheet, shut, rs, active, passive, Fraction(must, total))
