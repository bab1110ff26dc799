"""A compact summary of the race at a table, the input of the win-probability evaluator.

A *position* here is the moment before a roll: every sheet, the closed colours
and who rolls next.  :class:`RaceSummary` turns it into a short vector of
numbers seen from one seat (its *perspective*):

* exact quantities: the current scores (R16, R17), the penalties, the closed
  colours, the number of rows each player may close (five marks, R8), whose roll
  it is, the marks made so far;
* solitaire values: each player's optimal expected final score playing on alone
  (:meth:`qwixx_math.advice.Advisor.value`, exact for that model, float);
* the race: for each player the two open rows nearest to five marks, by the
  expected turns until the row holds five marks when raced optimally
  (:func:`qwixx_math.players.racer.turns_to_five`, exact up to float rounding).

Opponents are summarised by the strongest of them (highest score, highest
solitaire value, fastest race, most penalties), so the vector has the same
length for 2 to 5 players.  :func:`terminal_share` is the exact result of a
finished game (R18: ties share the win).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..advice import Advisor
from ..keys import open_code
from ..model import COLOURS, COUNT, LAST_POSITION, LOCK_THRESHOLD, PENALTY_BOXES, Colour, Sheet
from .racer import turns_to_five

__all__ = ["FEATURES", "N_FEATURES", "RaceSummary", "Summary", "is_finished",
           "opponents_summary", "race_row", "race_vector", "shared_summary",
           "terminal_share"]

FloatArray = npt.NDArray[np.float64]

_LAST_BIT = 1 << LAST_POSITION
#: Turns-to-five beyond this are clipped (a row that cannot reach five is worth this).
_E5_CAP = 30.0

#: Names of the feature vector's entries, in order.
FEATURES: tuple[str, ...] = (
    "score_lead",        # my score minus the best opponent's, /10
    "value_lead",        # my solitaire value minus the best opponent's, /10
    "my_score", "my_value", "opp_score", "opp_value",   # /100
    "my_pen", "opp_pen",  # penalties (opponents: the most)
    "my_lockable", "opp_lockable",  # open rows with five marks (opponents: the most)
    "my_e5a", "my_e5b", "opp_e5a", "opp_e5b",  # race: two fastest rows, /10
    "closed",             # colours closed
    "my_roll",            # 1 if this seat rolls next
    "progress",           # marks per player so far, /10
    "players",            # players at the table, /5
    "my_e5c", "my_e5d", "opp_e5c", "opp_e5d",  # race: the other two rows, /10
)
N_FEATURES = len(FEATURES)


def terminal_share(sheets: Sequence[Sheet], seat: int) -> float:
    """This seat's share of the win of a finished game (R18)."""
    scores = [s.score for s in sheets]
    best = max(scores)
    if scores[seat] != best:
        return 0.0
    return 1.0 / scores.count(best)


def _race(sheet: Sheet, closed: frozenset[Colour],
          e5: tuple[float, ...]) -> tuple[float, float, float, float, int]:
    """The race of one sheet, straight from the definitions (the reference of
    :func:`_race_rows`)."""
    times = []
    lockable = 0
    for c in COLOURS:
        m = sheet.masks[c.index]
        if c in closed or m & _LAST_BIT:
            continue
        if m.bit_count() >= LOCK_THRESHOLD:
            lockable += 1
            times.append(0.0)
            continue
        t = e5[open_code(None if m == 0 else m.bit_length() - 1, m.bit_count())]
        times.append(min(t, _E5_CAP))
    times.sort()
    times += [_E5_CAP] * 4
    return times[0], times[1], times[2], times[3], lockable


def _row_times(e5: tuple[float, ...]) -> tuple[float | None, ...]:
    """Per row mask: what :func:`_race` reads of an open row (None: the row is locked,
    0.0: five marks or more, else its turns to five, capped)."""
    out: list[float | None] = []
    for m in range(_LAST_BIT << 1):
        if m & _LAST_BIT:
            out.append(None)
        elif m.bit_count() >= LOCK_THRESHOLD:
            out.append(0.0)
        else:
            out.append(min(e5[open_code(None if m == 0 else m.bit_length() - 1,
                                        m.bit_count())], _E5_CAP))
    return tuple(out)


def _race_rows(masks: tuple[int, int, int, int], closed: frozenset[Colour],
               times_of: tuple[float | None, ...]) -> tuple[float, float, float, float, int]:
    """:func:`_race` by the per-mask table of :func:`_row_times` (the same numbers)."""
    times = []
    lockable = 0
    for c in COLOURS:
        if c in closed:
            continue
        t = times_of[masks[c.index]]
        if t is None:
            continue
        if t == 0.0:
            lockable += 1
        times.append(t)
    times.sort()
    times += [_E5_CAP] * 4
    return times[0], times[1], times[2], times[3], lockable


#: The summary standing in for the opponents of a solitaire game.
_NOBODY = (0.0, 0.0, 0.0, 0.0, _E5_CAP, _E5_CAP, 0.0, _E5_CAP, _E5_CAP)

#: A sheet's summary (see :meth:`RaceSummary.sheet_summary`).
Summary = tuple[float, ...]
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
        """(score, value, penalties, lockable, e5a, e5b, marks, e5c, e5d) of one sheet."""
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
            got = self._store(key, Sheet._unchecked(masks, penalties, self.layout), closed)
        return got

    def _store(self, key: _Key, sheet: Sheet, closed: frozenset[Colour]) -> Summary:
        if len(self._cache) > 200_000:
            self._cache.clear()
        masks = sheet.masks
        a, b, c, d, lockable = _race_rows(masks, closed, self._times)
        value = self.advisor._lookup(sheet, closed, 0)  # Advisor.value, the sheet checked
        marks = COUNT[masks[0]] + COUNT[masks[1]] + COUNT[masks[2]] + COUNT[masks[3]]
        got = (float(sheet.score), value, float(sheet.penalties), float(lockable), a, b,
               float(marks), c, d)
        self._cache[key] = got
        return got

    def _summarise(self, sheet: Sheet, closed: frozenset[Colour]) -> Summary:
        """The summary straight from the definitions (sheets of another layout, which the
        advisor refuses, and the reference of the cached one)."""
        a, b, c, d, lockable = _race(sheet, closed, self._e5)
        value = self.advisor.value(sheet, closed)
        marks = sum(COUNT[m] for m in sheet.masks)
        return (float(sheet.score), value, float(sheet.penalties), float(lockable), a, b,
                float(marks), c, d)

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
    """What the feature vector reads of the opponents' summaries: (best score, best
    value, most penalties, most rows with five marks, the fastest first to fourth rows,
    their marks in all); no opponents (solitaire) read as :data:`_NOBODY`."""
    if len(summaries) == 1:
        o = summaries[0]
        return (o[0], o[1], o[2], o[3], o[4], o[5], o[7], o[8], o[6])
    if not summaries:
        o = _NOBODY
        return (o[0], o[1], o[2], o[3], o[4], o[5], o[7], o[8], 0.0)
    return (max(o[0] for o in summaries), max(o[1] for o in summaries),
            max(o[2] for o in summaries), max(o[3] for o in summaries),
            min(o[4] for o in summaries), min(o[5] for o in summaries),
            min(o[7] for o in summaries), min(o[8] for o in summaries),
            sum(o[6] for o in summaries))


def race_row(me: Summary, opp: Summary, n_closed: int, my_roll: bool,
             players: int) -> list[float]:
    """:data:`FEATURES` from one's own summary and :func:`opponents_summary` of the others.

    The marks are whole numbers, so their sum is exact in any order: the same numbers
    as :func:`race_vector`'s to the last bit."""
    return [
        (me[0] - opp[0]) / 10.0,
        (me[1] - opp[1]) / 10.0,
        me[0] / 100.0, me[1] / 100.0, opp[0] / 100.0, opp[1] / 100.0,
        me[2], opp[2],
        me[3], opp[3],
        me[4] / 10.0, me[5] / 10.0, opp[4] / 10.0, opp[5] / 10.0,
        float(n_closed),
        1.0 if my_roll else 0.0,
        (me[6] + opp[8]) / players / 10.0,
        players / 5.0,
        me[7] / 10.0, me[8] / 10.0, opp[6] / 10.0, opp[7] / 10.0,
    ]


def race_vector(summaries: Sequence[Summary], n_closed: int, seat: int,
                next_roller: int) -> FloatArray:
    """:data:`FEATURES` from per-sheet summaries (see :meth:`RaceSummary.sheet_summary`)."""
    others = [s for j, s in enumerate(summaries) if j != seat]
    return np.array(race_row(summaries[seat], opponents_summary(others), n_closed,
                             next_roller == seat, len(summaries)))


def is_finished(sheets: Sequence[Sheet], closed: frozenset[Colour]) -> bool:
    """Whether a position is the end of the game (R13, R14)."""
    return len(closed) >= 2 or any(s.penalties >= PENALTY_BOXES for s in sheets)
