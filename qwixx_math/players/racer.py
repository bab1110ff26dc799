"""The race-to-lock family: players that hurry rows to five marks and close whenever legal.

In the spirit of Blank (2024, section 3.4): a racer takes any mark that keeps a
row *on course* to five marks quickly (R8 needs five before the last number) and
marks a last number whenever it is legal, so that two colours close (R14) before
a patient opponent has scored.  What "on course" means is the parameter of the
family (:class:`RacerParams`):

* ``racer-simple`` (the window rule): a mark may skip at most ``skip`` numbers of
  its row, and never a number that leaves the row unable to reach five marks
  before its last number;
* ``racer-markov`` (the Markov rule): a mark is taken when it lowers the row's
  *expected number of turns until it holds five marks* (:func:`turns_to_five`:
  an exact optimal-stopping computation over the row's own dice, in floats),
  by more than ``slack`` turns;
* ``racer``: the strongest member found by a small simulated parameter search
  (research/NOTEBOOK.md gives the search and its figures).

On its own roll a racer plays the plan with the most racing value (closing
first, then the total time saved, then the fewest skipped numbers); when no mark
qualifies it takes a penalty (R11), unless ``avoid_penalty`` allows the least
skipping legal mark instead.  Passive (R5) it marks the white sum when that
qualifies.  Racers ignore the opponents' sheets entirely.

On another sheet layout (:mod:`qwixx_math.layouts`) a racer reads the positions,
the lock threshold and the crosses of double cells (DB1) off the layout: "five
marks" becomes the layout's lock threshold in crosses.  Its parameters and the
Markov rule's expected turns were found on the official sheet, so it races other
pads less well.

On Qwixx Longo (8-sided dice, rows of 15 cells, two lock numbers per row, LG1-LG2)
either lock number is a close ("close whenever legal"), and "five marks" becomes the
layout's 6 crosses.  The Markov rule's table (:func:`turns_to_five`) is of six-sided
dice and rows of 11 cells, so there ``racer`` and ``racer-markov`` race by the window
rule with their own ``skip`` instead, and say so in their ``note`` (the arena's report
prints it).  A lucky cross (LG3) is weighed as a mark of its cell like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..errors import ParseError
from ..keys import OPEN_CODES, open_code
from ..layouts import OFFICIAL, SheetLayout
from ..model import LAST_POSITION, LOCK_THRESHOLD, Colour, Mark
from ..rules import GameState, closes, legal_action1, legal_action2
from ..ruleset import Ruleset
from .base import Player

__all__ = ["PLAYERS", "Racer", "RacerParams", "markov_fits", "turns_to_five"]

_LAST_BIT = 1 << LAST_POSITION
_INF = float("inf")


# -- the Markov restriction: expected turns until a row holds five marks ------------------------

def _code(last: int, count: int) -> int:
    return open_code(None if last < 0 else last, count)


@lru_cache(maxsize=8)
def turns_to_five(players: int) -> tuple[tuple[float, ...], ...]:
    """``E[k][code]``: expected table turns until one row holds five marks, racing it optimally.

    The row is followed alone (other rows, closes and the game's end ignored).
    ``code`` is the open row code of :func:`qwixx_math.keys.open_code` (its
    rightmost mark and its count); ``k`` (0..players-1) is the number of other
    players' rolls before this player's next own roll, as in the table model: at
    ``k = 0`` the next roll is this player's (white sum, then white + the row's
    die, R5, R6, R7), at ``k >= 1`` another player's (white sum only) and k drops
    by one, from 0 it wraps to ``players - 1``.  Every turn counts one.  Each
    roll the player picks the marks that minimise the expected time left (the
    Bellman equation, solved exactly up to float rounding by iterating each
    row state's cycle of k to its fixed point); a row that can no longer reach
    five marks before its last number is worth ``inf``; five marks or more is 0.
    Positions, not numbers, matter: the die flip makes every colour alike.
    """
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 5:
        raise ParseError(f"R3: players must be 1 to 5, not {players!r}")
    n = players
    value = np.full((n, OPEN_CODES), _INF)
    states: list[tuple[int, int]] = [(-1, 0)] + [
        (last, count) for last in range(LAST_POSITION) for count in range(1, last + 2)]
    states.sort(key=lambda lc: -_code(*lc))
    pos = [n_ - 2 for n_ in range(13)]  # red positions; every colour is alike under the flip
    for last, count in states:
        code = _code(last, count)
        if count + (LAST_POSITION - 1 - last) < LOCK_THRESHOLD:
            continue  # cannot reach five marks: inf
        if count >= LOCK_THRESHOLD:
            value[:, code] = 0.0
            continue

        def after(lc: tuple[int, int], q: int) -> tuple[int, int] | None:
            lst, cnt = lc
            if q <= lst or q >= LAST_POSITION:
                return None
            return (q, cnt + 1)

        def worth(lc: tuple[int, int], k_next: int) -> float:
            if lc[1] >= LOCK_THRESHOLD:
                return 0.0
            return float(value[k_next, _code(*lc)])

        k_act = n - 1 if n > 1 else 0
        # best value of a turn that marks something, per outcome (inf: no mark possible)
        act = []
        for w1 in range(1, 7):
            for w2 in range(1, 7):
                for d in range(1, 7):
                    best = _INF
                    first = after((last, count), pos[w1 + w2])
                    for lc1 in ([(last, count)] + ([first] if first else [])):
                        if lc1 != (last, count):
                            best = min(best, worth(lc1, k_act))
                        for q in (pos[w1 + d], pos[w2 + d]):
                            lc2 = after(lc1, q)
                            if lc2 is not None:
                                best = min(best, worth(lc2, k_act))
                    act.append(best)
        pas: list[tuple[int, int] | None] = []
        for w1 in range(1, 7):
            for w2 in range(1, 7):
                pas.append(after((last, count), pos[w1 + w2]))
        act_arr = np.array(act)
        x = np.full(n, 1e6)
        for _ in range(10_000):
            new = np.empty(n)
            # k = 0: active roll, then k = n-1
            nxt0 = x[k_act]
            new[0] = 1.0 + float(np.minimum(act_arr, nxt0).mean())
            for k in range(1, n):
                nxt = x[k - 1]
                tot = 0.0
                for lp in pas:
                    tot += nxt if lp is None else min(nxt, worth(lp, k - 1))
                new[k] = 1.0 + tot / 36.0
            if float(np.max(np.abs(new - x))) < 1e-12:
                x = new
                break
            x = new
        value[:, code] = x
    return tuple(tuple(float(v) for v in row) for row in value)


def _row_code(mask: int) -> int:
    """The open row code of a row mask (rightmost mark, count)."""
    return _code(mask.bit_length() - 1, mask.bit_count())


# -- the player ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RacerParams:
    """One member of the racer family (see the module docstring).

    ``skip``: most numbers a mark may skip while its row holds fewer than five
    marks (window rule).  ``markov``: use the Markov rule instead of ``skip``;
    ``slack``: turns a mark must save under it.  ``skip_after``: most numbers a
    mark may skip once its row holds five marks (before its last number).
    ``avoid_penalty``: on its own roll with no qualifying mark, take the legal
    mark that skips fewest numbers if it skips at most this many (-1: take the
    penalty).  ``passive``: mark qualifying white sums on other players' rolls.
    """

    skip: int = 1
    markov: bool = False
    slack: float = 0.0
    skip_after: int = 10
    avoid_penalty: int = -1
    passive: bool = True

    def __post_init__(self) -> None:
        for name in ("skip", "skip_after", "avoid_penalty"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not -1 <= v <= LAST_POSITION:
                raise ParseError(f"RacerParams.{name} must be a whole number -1..10, not {v!r}")


@lru_cache(maxsize=16)
def _rows(layout: SheetLayout) -> tuple[tuple[frozenset[int], ...], tuple[tuple[int, ...], ...]]:
    """By lock colour index: the positions of the row that close it (its last one; on
    Longo its two lock numbers, LG2; none: no such row), and ``rest[p]``, the crosses of
    the row's cells from position ``p`` up to its first closing one (excluded): what a
    row could still gather before its lock."""
    closing: list[frozenset[int]] = [frozenset()] * len(_COLOURS)
    rests: list[tuple[int, ...]] = [()] * len(_COLOURS)
    for lock, numbers, weights in zip(layout.locks, layout.numbers, layout.weights,
                                      strict=True):
        ends = frozenset(p for p, n in enumerate(numbers) if layout.closes(lock, n))
        first = min(ends)
        closing[lock.index] = ends
        rests[lock.index] = tuple(sum(weights[p:first]) for p in range(len(weights)))
    return tuple(closing), tuple(rests)


def markov_fits(layout: SheetLayout) -> bool:
    """Whether the Markov rule's table (:func:`turns_to_five`: six-sided dice, open rows
    of at most 11 cells) describes the rows of ``layout``; not on Longo (LG1)."""
    return layout.faces == 6 and all(len(numbers) <= LAST_POSITION + 1
                                     for numbers in layout.numbers)


def _gap(mask: int, position: int) -> int:
    """Numbers skipped by marking ``position`` in a row with marks ``mask``."""
    return position - mask.bit_length()


class Racer:
    """A race-to-lock player (:class:`~qwixx_math.players.base.Player`)."""

    def __init__(self, ruleset: Ruleset, params: RacerParams | None = None,
                 name: str = "racer") -> None:
        self.name = name
        self.params = params if params is not None else RacerParams()
        self._players = ruleset.players
        self._e5 = turns_to_five(ruleset.players) if self.params.markov else None
        #: How it plays the layout of its last game when that is not its own rule
        #: (the arena's report prints it); "" when it plays by its own rule.
        self.note = ""

    # racing value of one mark on a row: None = does not qualify
    def _gain(self, mask: int, position: int, k_after: int, layout: SheetLayout = OFFICIAL,
              ci: int = 0) -> float | None:
        closing, rests = _rows(layout)
        if position in closing[ci]:
            return 1000.0  # close whenever legal
        count = layout.count[ci][mask]  # crosses: marks, double cells counting 2 (DB1)
        gap = _gap(mask, position)
        threshold = layout.lock_threshold
        if count + rests[ci][position] < threshold:
            return None  # the row could never close
        p = self.params
        if count >= threshold:
            return 0.5 - 0.01 * gap if gap <= p.skip_after else None
        if self._e5 is not None and markov_fits(layout):
            row = self._e5[k_after]
            saved = row[_row_code(mask)] - row[_row_code(mask | 1 << position)]
            return saved - 0.001 * gap if saved > p.slack else None
        return 1.0 - 0.01 * gap if gap <= p.skip else None

    def new_game(self, seat: int, state: GameState) -> None:
        layout = state.layout
        if self._e5 is not None and not markov_fits(layout):
            self.note = (f"races the {layout.key} sheet by the window rule (skip "
                         f"{self.params.skip}): the Markov rule's turns-to-five are of "
                         "six-sided dice and rows of 11 cells")

    def game_over(self, seat: int, state: GameState) -> None:
        return None

    def _k_after(self, seat: int, state: GameState) -> int:
        n = self._players
        return (seat - state.active - 1) % n if n > 1 else 0

    def action1(self, seat: int, state: GameState) -> Mark | None:
        if seat != state.active:
            if not self.params.passive:
                return None
            k = self._k_after(seat, state)
            masks = state.sheets[seat].masks
            layout = state.layout
            best: tuple[float, Mark] | None = None
            for m in legal_action1(state, seat):
                ci = m.colour.index
                g = self._gain(masks[ci], layout.pos[ci][m.number], k, layout, ci)
                if g is not None and (best is None or g > best[0]):
                    best = (g, m)
            return best[1] if best else None
        plan = self._plan(seat, state)
        return plan[0]

    def action2(self, seat: int, state: GameState) -> Mark | None:
        masks = state.sheets[seat].masks
        k = self._k_after(seat, state)
        layout = state.layout
        best: tuple[float, Mark] | None = None
        for m in legal_action2(state):
            ci = m.colour.index
            g = self._gain(masks[ci], layout.pos[ci][m.number], k, layout, ci)
            if g is not None and (best is None or g > best[0]):
                best = (g, m)
        if best is not None:
            return best[1]
        assert state.action1 is not None
        if state.action1[seat] is None and self.params.avoid_penalty >= 0:
            return self._least_skip(legal_action2(state), masks, layout)
        return None

    def _least_skip(self, marks: tuple[Mark, ...], masks: tuple[int, ...],
                    layout: SheetLayout) -> Mark | None:
        best: tuple[int, Mark] | None = None
        for m in marks:
            g = _gap(masks[m.colour.index], layout.pos[m.colour.index][m.number])
            if g <= self.params.avoid_penalty and (best is None or g < best[0]):
                best = (g, m)
        return best[1] if best else None

    def _plan(self, seat: int, state: GameState) -> tuple[Mark | None, Mark | None]:
        """The active player's best racing plan (the others assumed to pass)."""
        k = self._k_after(seat, state)
        masks = list(state.sheets[seat].masks)
        roll = state.roll
        assert roll is not None
        closed = state.closed
        layout = state.layout
        pos, allowed = layout.pos, layout.allowed
        best_value = 0.0
        best: tuple[Mark | None, Mark | None] = (None, None)
        options: list[tuple[Mark | None, float]] = [(None, 0.0)]
        for m in legal_action1(state, seat):
            ci = m.colour.index
            g = self._gain(masks[ci], pos[ci][m.number], k, layout, ci)
            if g is not None:
                options.append((m, g))
        for a1, g1 in options:
            after = list(masks)
            gone = set(closed)
            if a1 is not None:
                after[a1.colour.index] |= 1 << pos[a1.colour.index][a1.number]
                if closes(layout, a1):
                    gone.add(a1.colour)
                if g1 > best_value:
                    best_value, best = g1, (a1, None)
                if len(gone) >= 2 and not state.ruleset.action2_after_action1_end:
                    continue
            for c in _COLOURS:
                d = roll.coloured[c.index]
                if d is None or c in gone:
                    continue
                for w in set(roll.white):
                    num = w + d
                    for row in layout.action2_rows(c, num):  # (c,) on the official sheet
                        ri = row.index
                        q = pos[ri][num]
                        mask = after[ri]
                        if row in gone or not allowed[ri][mask] >> q & 1:  # R7, R8, R9
                            continue
                        g2 = self._gain(mask, q, k, layout, ri)
                        if g2 is not None and g1 + g2 > best_value:
                            best_value, best = g1 + g2, (a1, Mark(row, num))
        if best == (None, None) and self.params.avoid_penalty >= 0:
            m1 = self._least_skip(legal_action1(state, seat), tuple(masks), layout)
            if m1 is not None:
                return (m1, None)
        return best


_COLOURS = tuple(Colour)

#: The tuned members kept as baselines (see research/NOTEBOOK.md for the search).
RACERS: dict[str, RacerParams] = {
    "racer": RacerParams(markov=True, avoid_penalty=2),
    "racer-simple": RacerParams(skip=2, avoid_penalty=4),
    "racer-markov": RacerParams(markov=True),
}


def _factory(name: str, params: RacerParams) -> Callable[[Ruleset, int], Player]:
    def make(ruleset: Ruleset, seed: int) -> Player:
        return Racer(ruleset, params, name)
    return make


#: Name -> factory(ruleset, seed) for the arena's registry (racers are deterministic).
PLAYERS: dict[str, Callable[[Ruleset, int], Player]] = {
    name: _factory(name, params) for name, params in RACERS.items()}
