"""A compact summary of the race at a table, the input of the win-probability evaluator.

A *position* here is the moment before a roll: every sheet, the closed colours
and who rolls next.  :class:`RaceSummary` turns it into a short vector of
numbers seen from one seat (its *perspective*):

* exact quantities: the current scores (R16, R17), the penalties, the closed
  colours, whose roll it is, the marks made so far, and for each player the
  probability that their own next roll offers no legal mark (a forced penalty,
  R11; :func:`qwixx_math.dice.events.forced_penalty_count`, float);
* solitaire values: each player's optimal expected final score playing on alone
  (:meth:`qwixx_math.advice.Advisor.value`, exact for that model, float);
* the race, colour by colour: for my row and the opponents' rows of the same
  colour, the expected turns until the row holds five marks when raced optimally
  (:func:`qwixx_math.players.racer.turns_to_five`, exact up to float rounding),
  whether it may close now (five marks, R8) and its scored marks.  The colours are
  listed sorted by these numbers: the four colours are alike by the rules, so the
  evaluator need not learn each one apart.

Opponents are summarised by the strongest of them (highest score, highest
solitaire value, most penalties, per colour the fastest row and the most marks),
so the vector has the same length for 2 to 5 players.  :func:`terminal_share` is
the exact result of a finished game (R18: ties share the win).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..advice import Advisor
from ..dice.events import ROLL_COUNT, forced_penalty_count, turn_events
from ..keys import open_code
from ..model import COLOURS, COUNT, LAST_POSITION, LOCK_THRESHOLD, Colour, Sheet
from .racer import turns_to_five

__all__ = ["FEATURES", "N_FEATURES", "RaceSummary", "Summary", "is_finished",
           "opponents_summary", "race_row", "race_vector", "shared_summary",
           "terminal_share"]

FloatArray = npt.NDArray[np.float64]

_LAST_BIT = 1 << LAST_POSITION
#: Turns-to-five beyond this are clipped (a row that cannot reach five is worth this).
_E5_CAP = 30.0

#: The race of one colour, in the feature vector: (turns to five /10, the row may
#: close, scored marks /10), for me and then for the opponents.
_PER_COLOUR = ("e5", "opp_e5", "lockable", "opp_lockable", "marks", "opp_marks")

#: Names of the feature vector's entries, in order.
FEATURES: tuple[str, ...] = (
    "score_lead",        # my score minus the best opponent's, /10
    "value_lead",        # my solitaire value minus the best opponent's, /10
    "my_score", "my_value", "opp_score", "opp_value",   # /100
    "my_pen", "opp_pen",  # penalties (opponents: the most)
    "closed",             # colours closed
    "my_roll",            # 1 if this seat rolls next
    "progress",           # marks per player so far, /10
    "players",            # players at the table, /5
    "my_forced", "opp_forced",  # P(no legal mark on one's own roll: a forced penalty,
                                # R11), exact; the opponents: the most likely
    # then colour by colour, the colours sorted by these six numbers (so that the four
    # colours, alike by the rules, read alike): my row's turns to five and the
    # opponents' fastest row of that colour (/10, capped), whether each may close
    # (five marks, R8; the opponents: any), and the scored marks of each (/10; the
    # opponents: the most)
    *(f"{name}_{k}" for k in range(1, 5) for name in _PER_COLOUR),
)
N_FEATURES = len(FEATURES)


def terminal_share(sheets: Sequence[Sheet], seat: int) -> float:
    """This seat's share of the win of a finished game (R18)."""
    scores = [s.score for s in sheets]
    best = max(scores)
    if scores[seat] != best:
        return 0.0
    return 1.0 / scores.count(best)


#: One row's race: (turns to five, 1.0 if it may close else 0.0, scored marks).
Row = tuple[float, float, float]


def _row(mask: int, e5: tuple[float, ...]) -> Row:
    """The race of one row of an open colour: a locked row cannot be raced (turns
    capped, may not close); five marks or more may close (turns 0); else its turns to
    five, capped.  The marks are the scored ones (the lock counts, R16)."""
    marks = float(COUNT[mask])
    if mask & _LAST_BIT:
        return (_E5_CAP, 0.0, marks)
    if mask.bit_count() >= LOCK_THRESHOLD:
        return (0.0, 1.0, marks)
    t = e5[open_code(None if mask == 0 else mask.bit_length() - 1, mask.bit_count())]
    return (min(t, _E5_CAP), 0.0, marks)


def _closed(marks: float) -> Row:
    """The race of a row of a closed colour: it cannot be raced (turns capped, may not
    close), its scored marks kept."""
    return (_E5_CAP, 0.0, marks)


def _race(sheet: Sheet, closed: frozenset[Colour], e5: tuple[float, ...]) -> list[Row]:
    """The race of one sheet, colour by colour, straight from the definitions (the
    reference of :func:`_race_rows`): a closed colour cannot be raced either."""
    return [_closed(float(COUNT[sheet.masks[c.index]])) if c in closed
            else _row(sheet.masks[c.index], e5) for c in COLOURS]


def _row_times(e5: tuple[float, ...]) -> tuple[Row, ...]:
    """Per row mask: :func:`_row`, a table."""
    return tuple(_row(m, e5) for m in range(_LAST_BIT << 1))


def _race_rows(masks: tuple[int, int, int, int], closed: frozenset[Colour],
               rows_of: tuple[Row, ...]) -> list[Row]:
    """:func:`_race` by the per-mask table of :func:`_row_times` (the same numbers)."""
    out = [rows_of[m] for m in masks]
    for c in closed:
        out[c.index] = _closed(out[c.index][2])
    return out


def _flat(score: float, value: float, penalties: float, race: Sequence[Row],
          forced: float) -> Summary:
    """A sheet's summary from its parts (see :meth:`RaceSummary.sheet_summary`)."""
    return (score, value, penalties, sum(r[2] for r in race),
            *(r[0] for r in race), *(r[1] for r in race), *(r[2] for r in race), forced)


#: A sheet's summary (see :meth:`RaceSummary.sheet_summary`).
Summary = tuple[float, ...]
#: The summary standing in for the opponents of a solitaire game.
_NOBODY: Summary = (0.0, 0.0, 0.0, 0.0, *([_E5_CAP] * 4), *([0.0] * 9))
#: The cache key of a sheet of the summary's layout: its row masks, penalties, closed colours.
_Key = tuple[tuple[int, int, int, int], int, frozenset[Colour]]


class RaceSummary:
    """Computes the feature vector with one advisor and per-sheet caches.

    The cache is keyed by a sheet's row masks, penalties and the closed colours (a
    sheet of the advisor's layout is nothing else; cheaper to hash than the sheet):
    a summary is computed once per distinct key, the same numbers every time.
    """

    def __init__(self, advisor: Advisor, players: int) -> None:
        self.advisor = advisor
        self.players = players
        self.layout = advisor.sheet_layout
        self._e5 = turns_to_five(players)[0]
        self._times = _row_times(self._e5)
        self._cache: dict[_Key, Summary] = {}

    def sheet_summary(self, sheet: Sheet, closed: frozenset[Colour]) -> Summary:
        """(score, value, penalties, marks in all, then per colour of :data:`COLOURS` the
        turns to five, then whether the row may close, then the row's scored marks, then
        the probability of a forced penalty on its own roll) of one sheet (see
        :func:`_race`)."""
        if sheet.layout is not self.layout:  # uncached: the advisor refuses another layout
            return self._summarise(sheet, closed)
        key = (sheet.masks, sheet.penalties, closed)
        got = self._cache.get(key)
        if got is None:
            got = self._store(key, sheet, closed)
        return got

    def masks_summary(self, masks: tuple[int, int, int, int], penalties: int,
                      closed: frozenset[Colour]) -> Summary:
        """:meth:`sheet_summary` of the sheet of the advisor's layout with these row masks
        and penalties (built only if the cache does not hold it)."""
        key = (masks, penalties, closed)
        got = self._cache.get(key)
        if got is None:
            got = self._store(key, Sheet.unchecked(masks, penalties, self.layout), closed)
        return got

    def _store(self, key: _Key, sheet: Sheet, closed: frozenset[Colour]) -> Summary:
        if len(self._cache) > 200_000:
            self._cache.clear()
        masks = sheet.masks
        times = self._times
        if closed:
            r, y, g, b = _race_rows(masks, closed, times)
        else:
            r, y, g, b = times[masks[0]], times[masks[1]], times[masks[2]], times[masks[3]]
        value = self.advisor.lookup(sheet, closed, 0)  # Advisor.value, the sheet checked
        forced = forced_penalty_count(masks, closed) / ROLL_COUNT
        # _flat's tuple, written out (the marks are whole numbers: their sum is exact)
        got = (float(sheet.score), value, float(sheet.penalties), r[2] + y[2] + g[2] + b[2],
               r[0], y[0], g[0], b[0], r[1], y[1], g[1], b[1], r[2], y[2], g[2], b[2], forced)
        self._cache[key] = got
        return got

    def _summarise(self, sheet: Sheet, closed: frozenset[Colour]) -> Summary:
        """The summary straight from the definitions (sheets of another layout, which the
        advisor refuses, and the reference of the cached one)."""
        value = self.advisor.value(sheet, closed)
        forced = float(turn_events(sheet, closed).active.no_mark)
        return _flat(float(sheet.score), value, float(sheet.penalties),
                     _race(sheet, closed, self._e5), forced)

    def features(self, sheets: Sequence[Sheet], closed: frozenset[Colour], seat: int,
                 next_roller: int) -> FloatArray:
        """The feature vector of a position before a roll, seen from ``seat``."""
        summaries = [self.sheet_summary(s, closed) for s in sheets]
        return race_vector(summaries, len(closed), seat, next_roller)


@lru_cache(maxsize=8)
def shared_summary(advisor: Advisor, players: int) -> RaceSummary:
    """One :class:`RaceSummary` per advisor and table size, shared by every player that
    asks (its summaries depend on nothing else): rollouts with a player in every seat,
    and one advice after another, fill one cache."""
    return RaceSummary(advisor, players)


def opponents_summary(summaries: Sequence[Summary]) -> Summary:
    """What the feature vector reads of the opponents' summaries, in the layout of a
    sheet's: the best score, the best value, the most penalties, their marks in all,
    then per colour the fastest row, whether any row may close and the most marks, then
    the likeliest forced penalty; no opponents (solitaire) read as :data:`_NOBODY`."""
    if len(summaries) == 1:
        return summaries[0]
    if not summaries:
        return _NOBODY
    return (max(o[0] for o in summaries), max(o[1] for o in summaries),
            max(o[2] for o in summaries), sum(o[3] for o in summaries),
            *(min(o[k] for o in summaries) for k in range(4, 8)),
            *(max(o[k] for o in summaries) for k in range(8, 17)))


def race_row(me: Summary, opp: Summary, n_closed: int, my_roll: bool,
             players: int) -> list[float]:
    """:data:`FEATURES` from one's own summary and :func:`opponents_summary` of the others.

    The marks are whole numbers, so their sum is exact in any order: the same numbers
    as :func:`race_vector`'s to the last bit."""
    out = [
        (me[0] - opp[0]) / 10.0,
        (me[1] - opp[1]) / 10.0,
        me[0] / 100.0, me[1] / 100.0, opp[0] / 100.0, opp[1] / 100.0,
        me[2], opp[2],
        float(n_closed),
        1.0 if my_roll else 0.0,
        (me[3] + opp[3]) / players / 10.0,
        players / 5.0,
        me[16], opp[16],
    ]
    for t, ot, lk, olk, mk, omk in sorted([
            (me[4], opp[4], me[8], opp[8], me[12], opp[12]),
            (me[5], opp[5], me[9], opp[9], me[13], opp[13]),
            (me[6], opp[6], me[10], opp[10], me[14], opp[14]),
            (me[7], opp[7], me[11], opp[11], me[15], opp[15])]):
        out += (t / 10.0, ot / 10.0, lk, olk, mk / 10.0, omk / 10.0)
    return out


def race_vector(summaries: Sequence[Summary], n_closed: int, seat: int,
                next_roller: int) -> FloatArray:
    """:data:`FEATURES` from per-sheet summaries (see :meth:`RaceSummary.sheet_summary`)."""
    others = [s for j, s in enumerate(summaries) if j != seat]
    return np.array(race_row(summaries[seat], opponents_summary(others), n_closed,
                             next_roller == seat, len(summaries)))


def is_finished(sheets: Sequence[Sheet], closed: frozenset[Colour]) -> bool:
    """Whether a position is the end of the game (R13, R14): as many closed colours as the
    sheets' layout needs (:attr:`SheetLayout.closed_rows_to_end`), or a sheet with all its
    penalty boxes crossed; the rules core's end check (:meth:`GameState.end_turn`)."""
    layout = sheets[0].layout
    return len(closed) >= layout.closed_rows_to_end \
        or any(s.penalties >= layout.penalty_boxes for s in sheets)
