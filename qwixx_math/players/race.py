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

import numpy as np
import numpy.typing as npt

from ..advice import Advisor
from ..keys import open_code
from ..model import COLOURS, COUNT, LAST_POSITION, LOCK_THRESHOLD, PENALTY_BOXES, Colour, Sheet
from .racer import turns_to_five

__all__ = ["FEATURES", "N_FEATURES", "RaceSummary", "is_finished", "race_vector",
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


#: The summary standing in for the opponents of a solitaire game.
_NOBODY = (0.0, 0.0, 0.0, 0.0, _E5_CAP, _E5_CAP, 0.0, _E5_CAP, _E5_CAP)


class RaceSummary:
    """Computes the feature vector with one advisor and per-sheet caches."""

    def __init__(self, advisor: Advisor, players: int) -> None:
        self.advisor = advisor
        self.players = players
        self._e5 = turns_to_five(players)[0]
        self._cache: dict[tuple[Sheet, frozenset[Colour]], tuple[float, ...]] = {}

    def sheet_summary(self, sheet: Sheet, closed: frozenset[Colour]) -> tuple[float, ...]:
        """(score, value, penalties, lockable, e5a, e5b, marks, e5c, e5d) of one sheet."""
        key = (sheet, closed)
        got = self._cache.get(key)
        if got is None:
            if len(self._cache) > 200_000:
                self._cache.clear()
            a, b, c, d, lockable = _race(sheet, closed, self._e5)
            value = self.advisor.value(sheet, closed)
            marks = sum(COUNT[m] for m in sheet.masks)
            got = (float(sheet.score), value, float(sheet.penalties), float(lockable), a, b,
                   float(marks), c, d)
            self._cache[key] = got
        return got

    def features(self, sheets: Sequence[Sheet], closed: frozenset[Colour], seat: int,
                 next_roller: int) -> FloatArray:
        """The feature vector of a position before a roll, seen from ``seat``."""
        summaries = [self.sheet_summary(s, closed) for s in sheets]
        return race_vector(summaries, len(closed), seat, next_roller)


def race_vector(summaries: Sequence[tuple[float, ...]], n_closed: int, seat: int,
                next_roller: int) -> FloatArray:
    """:data:`FEATURES` from per-sheet summaries (see :meth:`RaceSummary.sheet_summary`)."""
    me = summaries[seat]
    opps = [s for j, s in enumerate(summaries) if j != seat] or [_NOBODY]
    opp_score = max(o[0] for o in opps)
    opp_value = max(o[1] for o in opps)
    n = len(summaries)
    return np.array([
        (me[0] - opp_score) / 10.0,
        (me[1] - opp_value) / 10.0,
        me[0] / 100.0, me[1] / 100.0, opp_score / 100.0, opp_value / 100.0,
        me[2], max(o[2] for o in opps),
        me[3], max(o[3] for o in opps),
        me[4] / 10.0, me[5] / 10.0, min(o[4] for o in opps) / 10.0, min(o[5] for o in opps) / 10.0,
        float(n_closed),
        1.0 if next_roller == seat else 0.0,
        sum(s[6] for s in summaries) / n / 10.0,
        n / 5.0,
        me[7] / 10.0, me[8] / 10.0, min(o[7] for o in opps) / 10.0, min(o[8] for o in opps) / 10.0,
    ])


def is_finished(sheets: Sequence[Sheet], closed: frozenset[Colour]) -> bool:
    """Whether a position is the end of the game (R13, R14)."""
    return len(closed) >= 2 or any(s.penalties >= PENALTY_BOXES for s in sheets)
