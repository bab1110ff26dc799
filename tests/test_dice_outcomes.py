"""Outcome tables of all 16 dice sets, and the white-sum and colour-sum distributions,
against itertools.product enumeration and icepool."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import partial
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.dice import (
    DICE_SETS,
    Distribution,
    all_outcome_tables,
    colour_sum_sets,
    outcome_distribution,
    outcome_table,
    white_sum_distribution,
)
from qwixx_math.errors import ParseError
from qwixx_math.model import COLOURS, Colour, Roll

IDS = ["".join(c.letter for c in sorted(s, key=lambda c: c.index)) or "-" for s in DICE_SETS]


def test_sixteen_distinct_sets() -> None:
    assert len(DICE_SETS) == 16 and len(set(DICE_SETS)) == 16
    assert set(all_outcome_tables()) == set(DICE_SETS)


@pytest.mark.parametrize("in_play", DICE_SETS, ids=IDS)
def test_tables_against_product(in_play: frozenset[Colour]) -> None:
    t = outcome_table(in_play)
    k = len(in_play)
    assert t.colours == tuple(c for c in COLOURS if c in in_play)
    assert t.total == 6 ** (2 + k)
    brute = list(product(range(1, 7), repeat=2 + k))
    assert [tuple(r) for r in t.ordered.tolist()] == brute  # every ordered outcome, once
    # canonical form: whites unordered, integer multiplicities
    want = Counter(tuple(sorted(o[:2])) + o[2:] for o in brute)
    got = {tuple(r): w for r, w in zip(t.canonical.tolist(), t.weights.tolist(), strict=True)}
    assert len(got) == len(t.weights)  # outcomes distinct
    assert got == dict(want)
    # chance invariants
    assert all(w > 0 for w in got.values())
    assert sum(Fraction(w, t.total) for w in got.values()) == 1
    assert not t.ordered.flags.writeable and not t.weights.flags.writeable
    assert outcome_table(in_play) is t  # cached
    rolls = list(t.rolls())
    assert sum(w for _, w in rolls) == t.total
    assert all(r.in_play == in_play for r, _ in rolls)


def test_white_sum_against_product_and_icepool() -> None:
    brute = Counter(a + b for a, b in product(range(1, 7), repeat=2))
    assert white_sum_distribution() == Distribution(dict(brute))
    die = icepool.d6 + icepool.d6
    assert white_sum_distribution().probabilities() == {
        o: Fraction(q, die.denominator()) for o, q in die.items()}


def sum_set(a: int, b: int, c: int) -> tuple[int, ...]:
    return tuple(sorted({a + c, b + c}))


def test_colour_sum_sets_against_product_and_icepool() -> None:
    brute = Counter(sum_set(a, b, c) for a, b, c in product(range(1, 7), repeat=3))
    assert colour_sum_sets() == Distribution(dict(brute))
    die = icepool.map(sum_set, icepool.d6, icepool.d6, icepool.d6)
    assert colour_sum_sets().probabilities() == {
        o: Fraction(q, die.denominator()) for o, q in die.items()}
    assert colour_sum_sets().probability((7,)) == Fraction(6, 216)


@pytest.mark.parametrize("in_play", DICE_SETS, ids=IDS)
def test_event_distributions_for_every_dice_set(in_play: frozenset[Colour]) -> None:
    """White sum and every colour's sum set, summed over the whole table of that dice set."""
    t = outcome_table(in_play)
    rows = t.canonical.tolist()
    weights = t.weights.tolist()
    ws: Counter[int] = Counter()
    sets: dict[Colour, Counter[tuple[int, ...]]] = {c: Counter() for c in t.colours}
    for row, w in zip(rows, weights, strict=True):
        ws[row[0] + row[1]] += w
        for c, d in zip(t.colours, row[2:], strict=True):
            sets[c][sum_set(row[0], row[1], d)] += w
    assert Distribution(dict(ws)) == white_sum_distribution()
    for c in t.colours:
        assert Distribution(dict(sets[c])) == colour_sum_sets()
    if len(in_play) <= 1:  # the generic helper, through Roll values
        assert outcome_distribution(in_play, lambda r: r.white_sum) == white_sum_distribution()
        for c in in_play:
            assert outcome_distribution(in_play, partial(Roll.action2_numbers, colour=c)) \
                == colour_sum_sets()


def test_bad_dice_sets() -> None:
    # colours as Colour values or names, as everywhere in the library (issue 10)
    assert outcome_table("rg") is outcome_table([Colour.RED, "green"]) \
        is outcome_table({Colour.RED, Colour.GREEN})
    for bad in ([1], "rq", None, 5, [None]):
        with pytest.raises(ParseError):
            outcome_table(bad)  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(COLOURS), st.integers(), st.text(max_size=2)),
                max_size=5))
def test_fuzz_dice_sets(items: list[object]) -> None:
    try:
        t = outcome_table(items)  # type: ignore[arg-type]
    except ParseError:
        assert not all(isinstance(x, Colour) or _names_colour(x) for x in items)
        return
    assert set(t.colours) == {Colour.of(x) for x in items}  # type: ignore[arg-type]


def _names_colour(x: object) -> bool:
    try:
        Colour.of(x)  # type: ignore[arg-type]
    except ParseError:
        return False
    return True
