"""The exact Distribution type, checked against icepool (a test-only oracle) and by hand."""

from __future__ import annotations

import contextlib
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.dice import Distribution, DistributionError

weights = st.dictionaries(st.integers(-20, 20), st.integers(1, 50), min_size=1, max_size=8)


def as_icepool(d: Distribution[int]) -> icepool.Die:
    return icepool.Die(dict(d.items))


def same(d: Distribution[int], die: icepool.Die) -> bool:
    total = die.denominator()
    return d.probabilities() == {o: Fraction(q, total) for o, q in die.items() if q}


def test_two_dice_against_icepool() -> None:
    d6 = Distribution.die(6)
    assert same(d6 + d6, icepool.d6 + icepool.d6)
    assert same(d6.max(d6), icepool.highest(icepool.d6, icepool.d6))
    assert same(d6.repeat(3), 3 @ icepool.d6)


@settings(max_examples=100, deadline=None)
@given(weights, weights)
def test_operations_against_icepool(a: dict[int, int], b: dict[int, int]) -> None:
    x, y = Distribution(a), Distribution(b)
    ix, iy = as_icepool(x), as_icepool(y)
    assert same(x, ix)
    assert same(x + y, ix + iy)
    assert same(x.convolve(y), ix + iy)
    assert same(x.max(y), icepool.highest(ix, iy))
    assert same(x.map(lambda v: v * v % 7), ix.map(lambda v: v * v % 7))
    assert x.mean() == Fraction(ix.mean())
    assert x.variance() == Fraction(ix.variance())
    # quantiles: the smallest outcome whose cdf reaches the level
    for q in (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(9, 10), Fraction(1)):
        brute = min(o for o in x.outcomes if x.cdf(o) >= q)
        assert x.quantile(q) == brute
    assert sum(x.probabilities().values()) == 1


@settings(max_examples=100, deadline=None)
@given(weights, st.integers(1, 9))
def test_equality_is_in_lowest_terms(a: dict[int, int], k: int) -> None:
    x = Distribution(a)
    y = Distribution({o: w * k for o, w in a.items()})
    assert x == y and hash(x) == hash(y)
    assert all(w > 0 for w in x.weights)
    assert list(x) == sorted(a)


def test_reading() -> None:
    d = Distribution({3: 2, 1: 1, 2: 0})
    assert list(d) == [1, 3] and len(d) == 2 and 2 not in d and 3 in d
    assert d.probability(3) == Fraction(2, 3) and d.probability(99) == 0
    assert d.cdf(2) == Fraction(1, 3) and d.median() == 3
    assert d.probability_where(lambda x: x > 1) == Fraction(2, 3)
    assert d.to_floats() == {1: 1 / 3, 3: 2 / 3}
    assert d.to_json() == {"1": "1/3", "3": "2/3"}
    assert repr(d) == "Distribution({1: 1, 3: 2})"
    assert Distribution.uniform("aab") == Distribution({"a": 1, "b": 1})
    assert Distribution.from_outcomes("aab") == Distribution({"a": 2, "b": 1})


def test_tuple_outcomes() -> None:
    d = Distribution({(5, 9): 2, (7,): 1})
    assert d.outcomes == ((5, 9), (7,)) and d.to_json() == {"5,9": "2/3", "7": "1/3"}
    with pytest.raises(DistributionError, match="rational"):
        d.mean()


@pytest.mark.parametrize("bad", [{}, {1: 0}, {1: -1}, {1: 1.5}, {1: True}, [1, 2]])
def test_bad_weights(bad: object) -> None:
    with pytest.raises(DistributionError):
        Distribution(bad)  # type: ignore[arg-type]


def test_bad_questions() -> None:
    d = Distribution.die()
    for q in (0.5, -1, 2, "x", "3/2", True):
        with pytest.raises(DistributionError):
            d.quantile(q)  # type: ignore[arg-type]
    assert d.quantile("1/2") == 3
    with pytest.raises(DistributionError):
        Distribution({1: 1, "a": 1})
    with pytest.raises(DistributionError):
        d.repeat(0)
    with pytest.raises(DistributionError):
        Distribution.die(0)
    with pytest.raises(DistributionError):
        d.combine([1, 2], max)  # type: ignore[arg-type]
    assert issubclass(DistributionError, ValueError)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.one_of(st.integers(), st.text(max_size=2), st.tuples(st.integers())),
                       st.one_of(st.integers(-3, 5), st.floats(), st.booleans(), st.none()),
                       max_size=5),
       st.one_of(st.integers(-2, 3), st.fractions(), st.text(max_size=4), st.floats()))
def test_fuzz_construction_and_questions(weights: dict[object, object], q: object) -> None:
    try:
        d = Distribution(weights)  # type: ignore[arg-type]
    except DistributionError:
        return
    assert sum(d.probabilities().values()) == 1
    with contextlib.suppress(DistributionError):
        assert d.quantile(q) in d  # type: ignore[arg-type]
    with contextlib.suppress(DistributionError):
        assert min(d.outcomes) <= d.mean() <= max(d.outcomes)  # type: ignore[operator]
