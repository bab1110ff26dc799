"""The window-rule chain against an independent exact recursion and hand-derived values.

The oracle follows the row as a one-row :class:`Sheet` (legality asked of
``Sheet.allows``), enumerates the dice with ``itertools.product`` on every turn,
and solves each state's small cyclic system (one unknown per seat phase) in
reverse order of the states; P(T <= t) comes from a memoised recursion.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import pairwise, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.dice import turns_to_close
from qwixx_math.errors import InvalidStateError, ParseError
from qwixx_math.keys import sheet_from_key, sheet_key
from qwixx_math.model import COLOURS, LAST_POSITION, Colour, Sheet

R, Y, G, B = COLOURS


def takes(sheet: Sheet, c: Colour, n: int, window: int, safe: bool) -> bool:
    if not sheet.allows(c, n):
        return False
    if n == c.last_number:
        return True
    last = sheet.last_number(c)
    gap = c.position(n) - (c.position(last) if last is not None else -1)
    if gap > window:
        return False
    # safe: after this mark, enough numbers remain before the last one for 5 marks
    remaining = LAST_POSITION - 1 - c.position(n)
    return not (safe and sheet.count(c) + 1 + remaining < 5)


def step(sheet: Sheet, c: Colour, dice: tuple[int, ...], active: bool, window: int,
         safe: bool) -> Sheet:
    s = dice[0] + dice[1]
    if takes(sheet, c, s, window, safe):
        sheet = sheet.with_mark(c, s)
    if active and not sheet.is_locked(c):
        options = sorted({dice[0] + dice[2], dice[1] + dice[2]}, key=c.position)
        taken = [n for n in options if takes(sheet, c, n, window, safe)]
        if c.last_number in taken:
            sheet = sheet.with_mark(c, c.last_number)
        elif taken:
            sheet = sheet.with_mark(c, taken[0])
    return sheet


def key(sheet: Sheet, c: Colour) -> tuple[int, int]:
    """(last position, count): all the future of a row depends on."""
    last = sheet.last_number(c)
    return (c.position(last) if last is not None else -1, sheet.count(c))


def make_oracle(c: Colour, window: int, players: int, seat: int, safe: bool):  # type: ignore[no-untyped-def]
    def active_at(turn: int) -> bool:
        return (turn - seat) % players == 0

    @cache
    def moves(sheet: Sheet, active: bool) -> dict[Sheet, Fraction]:
        out: dict[Sheet, Fraction] = {}
        rolls = list(product(range(1, 7), repeat=3 if active else 2))
        for dice in rolls:
            nxt = canonical(step(sheet, c, dice, active, window, safe))
            out[nxt] = out.get(nxt, Fraction(0)) + Fraction(1, len(rolls))
        return out

    @cache
    def cdf(sheet: Sheet, turn: int, t: int) -> Fraction:
        if sheet.is_locked(c):
            return Fraction(1)
        if t == 0:
            return Fraction(0)
        return sum((p * cdf(nxt, (turn + 1) % players, t - 1)
                    for nxt, p in moves(sheet, active_at(turn)).items()), Fraction(0))

    @cache
    def solve(sheet: Sheet) -> tuple[tuple[Fraction, Fraction | None], ...]:
        """Per phase i: (P(close eventually), E[T] or None) from ``sheet`` at phase i."""
        if sheet.is_locked(c):
            return ((Fraction(1), Fraction(0)),) * players
        stay, h_const, e_const, e_inf = [], [], [], []
        for i in range(players):
            q = Fraction(0)
            h = Fraction(0)
            e = Fraction(1)
            inf = False
            for nxt, p in moves(sheet, active_at(i)).items():
                if key(nxt, c) == key(sheet, c):
                    q += p
                    continue
                hn, en = solve(nxt)[(i + 1) % players]
                h += p * hn
                if en is None:
                    inf = True
                else:
                    e += p * en
            stay.append(q)
            h_const.append(h)
            e_const.append(e)
            e_inf.append(inf)
        out: list[tuple[Fraction, Fraction | None]] = []
        for i in range(players):
            # x_i = a_i + q_i x_{i+1}, around the cycle of phases
            loop = Fraction(1)
            h_acc = Fraction(0)
            e_acc = Fraction(0)
            for j in range(players):
                k = (i + j) % players
                h_acc += loop * h_const[k]
                e_acc += loop * e_const[k]
                loop *= stay[k]
            if loop == 1:
                out.append((Fraction(0), None))
                continue
            h_i = h_acc / (1 - loop)
            finite = h_i == 1 and not any(e_inf)
            out.append((h_i, e_acc / (1 - loop) if finite else None))
        return tuple(out)

    return cdf, solve


def start_sheet(c: Colour, numbers: tuple[int, ...]) -> Sheet:
    return canonical(Sheet.from_marks({c: numbers}))


def canonical(sheet: Sheet) -> Sheet:
    """The core's representative sheet with the same key (same future, fewer states)."""
    return sheet_from_key(sheet_key(sheet))[0]


@pytest.mark.parametrize(("colour", "window", "players", "seat", "safe", "start"), [
    (R, 1, 1, 0, False, ()),
    (G, 2, 1, 0, False, ()),
    (Y, 3, 1, 0, False, ()),
    (B, 10, 1, 0, True, ()),
    (R, 10, 1, 0, False, (2, 3)),
    (R, 2, 2, 0, False, (2,)),
    (G, 3, 3, 1, True, (12,)),
    (B, 4, 4, 3, False, (12, 11, 10)),
    (Y, 10, 5, 2, False, (2, 3, 4, 5)),
])
def test_against_the_oracle(colour: Colour, window: int, players: int, seat: int, safe: bool,
                            start: tuple[int, ...]) -> None:
    ct = turns_to_close(colour, window, players, seat, start, safe)
    cdf, solve = make_oracle(colour, window, players, seat, safe)
    sheet = start_sheet(colour, start)
    assert ct.cdf_sequence(8) == tuple(cdf(sheet, 0, t) for t in range(9))
    h, e = solve(sheet)[0]
    assert ct.p_close == h
    assert ct.expected == e


def test_the_colours_are_mirror_images() -> None:
    laws = [turns_to_close(c, 5, 3) for c in COLOURS]
    assert len({(x.p_close, x.expected, x.cdf(6)) for x in laws}) == 1


def test_hand_derived_geometric() -> None:
    # r:2,3,4,5,11 can only close: 16/216 = 2/27 per active turn, 1/36 per passive turn
    ct = turns_to_close(R, start=(2, 3, 4, 5, 11))
    assert ct.p_close == 1 and ct.expected == Fraction(27, 2)
    assert ct.pmf(1) == Fraction(2, 27) and ct.pmf(2) == Fraction(25, 27) * Fraction(2, 27)
    two = turns_to_close(R, players=2, start=(2, 3, 4, 5, 11))
    a, b = Fraction(25, 27), Fraction(35, 36)
    assert two.expected == (1 + a) / (1 - a * b) == Fraction(1872, 97)
    assert two.survival(3) == a * b * a


def test_distribution_sums_to_the_closing_probability() -> None:
    ct = turns_to_close(R, window=2)
    seq = ct.cdf_sequence(400)
    assert all(x <= y for x, y in pairwise(seq))
    assert ct.p_close == 1 and 1 - seq[-1] < Fraction(1, 10 ** 6)
    # E[T] = sum of P(T > t): the partial sums approach it from below
    partial = sum(1 - x for x in seq)
    assert partial <= ct.expected  # type: ignore[operator]
    assert ct.expected - partial < Fraction(1, 10 ** 4)  # type: ignore[operator]


def test_a_greedy_rule_can_get_stuck() -> None:
    ct = turns_to_close(R, window=10)
    assert ct.p_close < 1 and ct.expected is None
    assert turns_to_close(R, window=10, safe=True).p_close == 1
    stuck = turns_to_close(R, start=(3, 11))  # red 12 needs 5 marks; nothing else is left
    assert stuck.p_close == 0 and stuck.cdf(50) == 0
    done = turns_to_close(R, start=(2, 3, 4, 5, 6, 12))
    assert done.p_close == 1 and done.expected == 0 and done.cdf(0) == 1


@pytest.mark.parametrize("kwargs", [
    {"window": 0}, {"window": 11}, {"players": 6}, {"players": 0}, {"seat": 2, "players": 2},
    {"safe": 1}, {"colour": "purple"}, {"colour": 0}, {"start": "2,3"}, {"start": (1,)},
    {"window": True},
])
def test_bad_parameters(kwargs: dict[str, object]) -> None:
    with pytest.raises(ParseError):
        turns_to_close(**kwargs)  # type: ignore[arg-type]


def test_impossible_starts() -> None:
    with pytest.raises(InvalidStateError, match="R7"):
        turns_to_close(R, start=(5, 3))
    with pytest.raises(InvalidStateError, match="R8"):
        turns_to_close(R, start=(2, 12))
    ct = turns_to_close(R)
    for bad in (-1, 1.5, True, 10 ** 9):
        with pytest.raises(ParseError):
            ct.cdf(bad)  # type: ignore[arg-type]
        with pytest.raises(ParseError):
            ct.pmf(bad)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.sampled_from(COLOURS), st.text(max_size=3)),
       st.one_of(st.integers(-2, 12), st.booleans(), st.none()),
       st.one_of(st.integers(-1, 6), st.floats(allow_nan=True)),
       st.integers(-1, 5),
       st.lists(st.integers(0, 14), max_size=7),
       st.one_of(st.booleans(), st.integers(0, 2)))
def test_fuzz_parameters(colour: object, window: object, players: object, seat: int,
                         start: list[int], safe: object) -> None:
    try:
        ct = turns_to_close(colour, window, players, seat, start, safe)  # type: ignore[arg-type]
    except (ParseError, InvalidStateError):
        return
    assert 0 <= ct.p_close <= 1
    assert (ct.expected is None) == (ct.p_close < 1)
