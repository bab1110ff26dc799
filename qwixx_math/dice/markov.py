"""Turns until a row is closed under a simple marking rule: an absorbing Markov chain, exactly.

One row (one colour) is followed alone; the other rows and the other players'
sheets are ignored (no other colour closes, the game does not end otherwise).
The row's future depends only on its rightmost marked position and its mark
count (see :mod:`qwixx_math.keys`), so the chain has the 56 open row states plus
*closed*, which absorbs.

**The marking rule** (``window`` = k, 1..10): on every turn the player may mark
the white sum in this row (action 1, R5); when active, also white + this colour
(action 2, R6), after the action-1 mark (which counts for R7 and R8).  A number is
*taken* when it is legal (R7, R8) and either lies at most ``k`` places right of
the last mark (an empty row counts its last mark at place -1, so k=1 from empty
takes only the first number) or is the row's last number (closing is always
taken).  In action 2 the closing number is preferred, else the leftmost number
taken.  With ``safe=True`` the rule also skips a number that would leave fewer
than 5 marks possible before the last number (so the row can always still close).

**Time**: turns are counted at the table.  Solitaire (``players=1``): you are active
on every turn.  With ``players=n`` you are active on turns ``seat+1, seat+1+n, ...``
and passive (action 1 only) on the others.  ``T`` is the turn on which the row
is closed; ``T = oo`` when the row can never close (e.g. a mark on the next-to-last
number with fewer than 5 marks, which a rule with ``window >= 3`` can make).

Exact arithmetic: the transition counts are integers (out of 216 outcomes of
white, white, colour on an active turn, 36 on a passive one); the expectation
and the probability of closing at all solve ``(I - B) x = w`` for the transient
block matrix ``B`` of one round of ``n`` turns, by back substitution in
:class:`~fractions.Fraction` (every transition moves a row to a state with a
larger code or leaves it where it is, so ``B`` is upper triangular).

**Other layouts** (``layout``, :mod:`qwixx_math.layouts`): the row is the one locked
by ``colour``; its numbers, length and lock threshold are the layout's, and action 2
takes white + the die of a cell's colour in a cell of that colour (on Qwixx Mixx A a
row has cells of four colours, so an active turn has 36 * 6**4 outcomes; every die
is taken to be in play, the other rows never closing).  Among the options of all
dice the rule takes the closing number, else the leftmost.

>>> ct = turns_to_close(window=10, safe=True)
>>> ct.p_close
Fraction(1, 1)
>>> ct.cdf(1), ct.pmf(1)
(Fraction(0, 1), Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from math import gcd

from ..errors import InvalidStateError, ParseError
from ..keys import OPEN_CODES
from ..layouts import OFFICIAL, SheetLayout, layout_named
from ..model import LAST_POSITION, LOCK_THRESHOLD, Colour

__all__ = ["CloseTime", "turns_to_close"]

#: Index of the absorbing "closed" state.
CLOSED = OPEN_CODES
_N = OPEN_CODES + 1
_MAX_HORIZON = 100_000

Matrix = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class _Row:
    """A row as the chain sees it: its length, lock threshold, the position of each number
    (-1: not printed), and for each die colour the position of each number in a cell of
    that colour (-1: none)."""

    length: int
    threshold: int
    pos: tuple[int, ...]
    die_pos: tuple[tuple[Colour, tuple[int, ...]], ...]
    #: Qwixx Longo (LG1, LG2): the sides of the dice and the lock numbers at the row's end.
    faces: int = 6
    lock_cells: int = 1

    @property
    def last(self) -> int:
        return self.length - 1

    @property
    def first_lock(self) -> int:
        """The position of the row's first lock number (its last cell; on Longo the
        next-to-last, LG2): crossing any cell from here closes the row."""
        return self.length - self.lock_cells

    @property
    def open_codes(self) -> int:
        return 1 + (self.length - 1) * self.length // 2


def _row(layout: SheetLayout, colour: Colour) -> _Row:
    layout.check_single_cells("the row Markov chain")
    layout.check_no_second_crosses("the row Markov chain")
    layout.check_no_exchange("the row Markov chain")
    layout.check_no_chain("the row Markov chain")
    if layout.lucky:  # a lucky cross depends on the other rows' crosses (LG3)
        raise ParseError(f"the row Markov chain follows one row alone, but a lucky cross goes "
                         f"to a row with the fewest crosses, so whether this row gets one "
                         f"depends on the other rows: not a chain of this row's state (layout "
                         f"{layout.name}); use the layout without lucky numbers, or prob for "
                         f"one turn", rule="LG3")
    layout.check_no_bonus("the row Markov chain")
    layout.check_no_bonus_rows("the row Markov chain")
    i = layout.row_index(colour)
    numbers, cells = layout.numbers[i], layout.colours[i]
    size = layout.top_number + 1
    pos = [-1] * size
    die_pos: dict[Colour, list[int]] = {}
    for p, (n, c) in enumerate(zip(numbers, cells, strict=True)):
        pos[n] = p
        die_pos.setdefault(c, [-1] * size)[n] = p
    dies = tuple((c, tuple(die_pos[c])) for c in sorted(die_pos, key=lambda c: c.index))
    return _Row(len(numbers), layout.lock_threshold, tuple(pos), dies, layout.faces,
                layout.lock_cells)


def _code(last: int, count: int) -> int:
    """:func:`qwixx_math.keys.open_code` for a row of any length (Longo's 15 cells): the
    same numbers, without its bound of the official row's 11 cells."""
    return 1 + last * (last + 1) // 2 + count - 1


def _state_list(length: int = LAST_POSITION + 1) -> list[tuple[int, int]]:
    """(last, count) of each open code of a row of ``length`` cells; last = -1 for the
    empty row."""
    out = [(-1, 0)] * (1 + (length - 1) * length // 2)
    for last in range(length - 1):
        for count in range(1, last + 2):
            out[_code(last, count)] = (last, count)
    return out


_STATES = _state_list()


def _takes(last: int, count: int, q: int, window: int, safe: bool,
           row_last: int = LAST_POSITION, threshold: int = LOCK_THRESHOLD,
           first_lock: int | None = None) -> bool:
    """Whether the rule takes position ``q`` in a row at (last, count); the lock numbers
    are the positions from ``first_lock`` (default: the last one, R8; Longo's two, LG2)."""
    lock = row_last if first_lock is None else first_lock
    if q < 0 or q <= last:
        return False  # not printed, or R7
    if q >= lock:
        return count >= threshold  # R8 / LG2; closing is always taken
    if q - last > window:
        return False
    return not (safe and count + 1 + (lock - 1 - q) < threshold)


def _after(state: int, q: int, states: list[tuple[int, int]] = _STATES,
           row_last: int = LAST_POSITION, first_lock: int | None = None) -> int:
    if q >= (row_last if first_lock is None else first_lock):
        return len(states)  # closed
    _, count = states[state]
    return _code(q, count + 1)


@lru_cache(maxsize=64)
def _matrices(colour: Colour, window: int, safe: bool,
              layout: SheetLayout = OFFICIAL) -> tuple[Matrix, Matrix]:
    """Integer transition counts: active (out of F**2 * F**k for the k die colours of the
    row's cells, F the sides of a die: 216 on the official sheet, 512 on Longo) and passive
    (out of F**2: 36, or 64 on Longo)."""
    row = _row(layout, colour)
    states = _state_list(row.length)
    n_open = len(states)
    closed = n_open
    size = n_open + 1
    sides = range(1, row.faces + 1)
    whites = row.faces ** 2
    faces = row.faces ** len(row.die_pos)
    active: list[list[int]] = [[0] * size for _ in range(size)]
    passive: list[list[int]] = [[0] * size for _ in range(size)]
    active[closed][closed] = whites * faces
    passive[closed][closed] = whites
    pos, rl, lock = row.pos, row.last, row.first_lock

    def takes(state: int, q: int) -> bool:
        last, count = states[state]
        return _takes(last, count, q, window, safe, rl, row.threshold, lock)

    for s in range(n_open):
        for w1 in sides:
            for w2 in sides:
                q = pos[w1 + w2]
                t = _after(s, q, states, rl, lock) if takes(s, q) else s
                passive[s][t] += 1
                if t == closed:
                    active[s][closed] += faces
                    continue
                # each die: the key of its best option (closing first, then leftmost),
                # ``size`` for none; the rule takes the smallest key over the dice
                best: dict[int, int] = {size: 1}  # no die yet: no option
                for _, dpos in row.die_pos:
                    per_face: dict[int, int] = {}
                    for d in sides:
                        taken = [x for x in {dpos[w1 + d], dpos[w2 + d]} if takes(t, x)]
                        key = size if not taken else (-1 if max(taken) >= lock
                                                      else min(taken))
                        per_face[key] = per_face.get(key, 0) + 1
                    combined: dict[int, int] = {}
                    for k1, c1 in best.items():
                        for k2, c2 in per_face.items():
                            k = min(k1, k2)
                            combined[k] = combined.get(k, 0) + c1 * c2
                    best = combined
                for key, count in best.items():
                    u = t if key == size else _after(t, rl if key == -1 else key, states, rl,
                                                     lock)
                    active[s][u] += count
    return (tuple(tuple(r) for r in active), tuple(tuple(r) for r in passive))


def _matmul(a: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    n = len(a)
    out = [[Fraction(0)] * n for _ in range(n)]
    for i in range(n):
        ai = a[i]
        oi = out[i]
        for k in range(n):
            x = ai[k]
            if x:
                bk = b[k]
                for j in range(n):
                    if bk[j]:
                        oi[j] += x * bk[j]
    return out


@dataclass(frozen=True, slots=True)
class CloseTime:
    """The exact law of T, the turn on which the row is closed (see the module docstring).

    ``p_close`` = P(T < oo); ``expected`` = E[T], or None when P(T = oo) > 0.
    :meth:`pmf`, :meth:`cdf` and :meth:`survival` give P(T = t), P(T <= t) and
    P(T > t) for any t >= 0.
    """

    colour: Colour
    window: int
    players: int
    seat: int
    safe: bool
    start: tuple[int, ...]
    p_close: Fraction
    expected: Fraction | None
    layout: SheetLayout = OFFICIAL

    def _round(self, t: int) -> list[tuple[Matrix, int]]:
        active, passive = _matrices(self.colour, self.window, self.safe, self.layout)
        den = active[-1][-1]  # the closed state keeps every outcome
        return [((active, den) if (k - self.seat) % self.players == 0
                 else (passive, passive[-1][-1])) for k in range(t)]

    def cdf(self, t: int) -> Fraction:
        """P(T <= t)."""
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t <= _MAX_HORIZON:
            raise ParseError(f"a number of turns is a whole number 0..{_MAX_HORIZON}, not {t!r}")
        return self.cdf_sequence(t)[t]

    def cdf_sequence(self, horizon: int) -> tuple[Fraction, ...]:
        """(P(T <= 0), P(T <= 1), ..., P(T <= horizon))."""
        if not isinstance(horizon, int) or isinstance(horizon, bool) or \
                not 0 <= horizon <= _MAX_HORIZON:
            raise ParseError(
                f"a horizon is a whole number of turns 0..{_MAX_HORIZON}, not {horizon!r}")
        size = _row(self.layout, self.colour).open_codes + 1
        closed = size - 1
        vec = [0] * size
        vec[_start_state(self.colour, self.start, self.layout)] = 1
        den = 1
        out = [Fraction(vec[closed], den)]
        for matrix, d in self._round(horizon):
            new = [0] * size
            for i, v in enumerate(vec):
                if v:
                    row = matrix[i]
                    for j in range(i, size):
                        if row[j]:
                            new[j] += v * row[j]
            den *= d
            g = den
            for v in new:
                g = gcd(g, v)
                if g == 1:
                    break
            vec = [v // g for v in new]
            den //= g
            out.append(Fraction(vec[closed], den))
        return tuple(out)

    def pmf(self, t: int) -> Fraction:
        """P(T = t)."""
        if t == 0:
            return self.cdf(0)
        seq = self.cdf_sequence(t) if isinstance(t, int) and not isinstance(t, bool) \
            and 0 < t <= _MAX_HORIZON else None
        if seq is None:
            raise ParseError(f"a number of turns is a whole number 0..{_MAX_HORIZON}, not {t!r}")
        return seq[t] - seq[t - 1]

    def survival(self, t: int) -> Fraction:
        """P(T > t) (including T = oo)."""
        return 1 - self.cdf(t)


def _start_state(colour: Colour, start: tuple[int, ...],
                 layout: SheetLayout = OFFICIAL) -> int:
    if not start:
        return 0
    row = _row(layout, colour)
    last = row.pos[start[-1]]
    if last >= row.first_lock:
        return row.open_codes  # closed
    return _code(last, len(start))


def turns_to_close(colour: Colour | str = Colour.RED, window: int = 10, players: int = 1,
                   seat: int = 0, start: Iterable[int] = (), safe: bool = False,
                   layout: SheetLayout | str = OFFICIAL) -> CloseTime:
    """The law of the number of turns until ``colour``'s row is closed under the window rule.

    ``start`` lists the numbers already marked in the row, left to right; ``layout`` is
    the sheet (a SheetLayout or its name), the row the one ``colour`` locks.
    """
    colour = Colour.of(colour)
    layout = layout_named(layout)
    row = _row(layout, colour)
    for name, value, lo, hi in (("window", window, 1, max(row.last, 1)),
                                ("players", players, 1, 5)):
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ParseError(f"{name} must be a whole number {lo}..{hi}, not {value!r}")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ParseError(f"seat must be a whole number 0..{players - 1}, not {seat!r}")
    if not isinstance(safe, bool):
        raise ParseError("safe must be true or false")
    if isinstance(start, (str, bytes)) or not isinstance(start, Iterable):
        raise ParseError("start lists the numbers marked in the row, e.g. (2, 3, 5)")
    numbers = tuple(start)
    if layout is OFFICIAL:
        positions = [colour.position(n) for n in numbers]
    else:
        positions = [_layout_position(layout, colour, n) for n in numbers]
    if any(b <= a for a, b in pairwise(positions)):
        raise InvalidStateError("R7", f"the {colour.value} marks {numbers} are not left to right")
    if any(p >= row.first_lock for p in positions[:-1]):
        raise InvalidStateError("R9", f"the {colour.value} marks {numbers} go on after a lock "
                                      "number closed the row")
    if positions and positions[-1] >= row.first_lock and len(positions) - 1 < row.threshold:
        raise InvalidStateError(
            layout.lock_rule, f"{colour.value} {numbers[-1]} needs {row.threshold} marks "
                              "before it")
    p_close, expected = _solve(colour, window, players, seat, safe,
                               _start_state(colour, numbers, layout), layout)
    return CloseTime(colour, window, players, seat, safe, numbers, p_close, expected, layout)


def _layout_position(layout: SheetLayout, colour: Colour, number: object) -> int:
    pos = layout.position(colour, number) if isinstance(number, int) else None
    if pos is None:
        raise ParseError(f"the {colour.value} row of layout {layout.name} does not show "
                         f"{number!r}", rule="R2")
    return pos


def _solve(colour: Colour, window: int, players: int, seat: int, safe: bool,
           start: int, layout: SheetLayout = OFFICIAL) -> tuple[Fraction, Fraction | None]:
    active, passive = _matrices(colour, window, safe, layout)
    n = len(active) - 1  # transient states 0..n-1
    if start == n:
        return Fraction(1), Fraction(0)
    den = active[n][n]
    qa = [[Fraction(active[i][j], den) for j in range(n)] for i in range(n)]
    qp = [[Fraction(passive[i][j], passive[n][n]) for j in range(n)] for i in range(n)]
    order = [qa if (k - seat) % players == 0 else qp for k in range(players)]
    # survival within one round: w = sum over i < players of (Q_1 ... Q_i) 1
    prefix = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    w = [Fraction(1)] * n
    for q in order[:-1]:
        prefix = _matmul(prefix, q)
        for i in range(n):
            w[i] += sum(prefix[i])
    b = _matmul(prefix, order[-1])
    # closing within one round from each state (at the round's start)
    r = [1 - sum(b[i]) for i in range(n)]
    h = [Fraction(0)] * n   # P(close eventually)
    x = [Fraction(0)] * n   # E[T] where finite
    for i in range(n - 1, -1, -1):
        stay = 1 - b[i][i]
        if stay == 0:
            continue  # stuck: never leaves, never closes
        h[i] = (r[i] + sum(b[i][j] * h[j] for j in range(i + 1, n))) / stay
        x[i] = (w[i] + sum(b[i][j] * x[j] for j in range(i + 1, n))) / stay
    p = h[start]
    return p, (x[start] if p == 1 else None)

