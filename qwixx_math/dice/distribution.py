"""A small immutable exact probability distribution with integer weights.

:class:`Distribution` maps each outcome to a positive integer *weight*; the
probability of an outcome is its weight over the total, as a
:class:`fractions.Fraction`.  Weights are divided by their greatest common
divisor when the value is built, so two distributions are equal exactly when
they give every outcome the same probability ("equality in lowest terms").
Outcomes iterate in sorted order, so they must be mutually comparable
(numbers, or tuples of numbers).

Floats appear only in :meth:`Distribution.to_floats`, which the caller asks for.

>>> d6 = Distribution.die(6)
>>> two = d6 + d6
>>> two.probability(7), two.mean(), two.variance()
(Fraction(1, 6), Fraction(7, 1), Fraction(35, 6))
>>> two.quantile(Fraction(1, 2))
7
>>> d6.max(d6).probability(6)
Fraction(11, 36)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from numbers import Rational
from typing import Any, Generic, TypeVar

from ..errors import QwixxError

__all__ = ["Distribution", "DistributionError"]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


#: The most sides :meth:`Distribution.die` makes a die with (a bound, not a rule).
_MAX_SIDES = 10_000


class DistributionError(QwixxError, ValueError):
    """A distribution that cannot be built or a question it cannot answer
    (no outcomes, a weight that is not a positive integer, a quantile outside 0..1,
    the mean of outcomes that are not numbers)."""


@dataclass(frozen=True, slots=True, init=False)
class Distribution(Generic[T]):
    """An exact discrete distribution: sorted ``(outcome, weight)`` pairs, weights in lowest terms.

    Build one with ``Distribution({outcome: weight, ...})`` (outcomes of weight 0
    are dropped), :meth:`die`, :meth:`uniform` or :meth:`from_outcomes`.
    """

    items: tuple[tuple[T, int], ...]

    def __init__(self, weights: Mapping[T, int]) -> None:
        if not isinstance(weights, Mapping):
            raise DistributionError("a distribution is built from a mapping outcome -> weight")
        pairs: list[tuple[T, int]] = []
        for outcome, weight in weights.items():
            if not isinstance(weight, int) or isinstance(weight, bool) or weight < 0:
                raise DistributionError(
                    f"the weight of {outcome!r} must be a non-negative integer, not {weight!r}")
            if weight:
                pairs.append((outcome, int(weight)))
        if not pairs:
            raise DistributionError("a distribution needs at least one outcome of positive weight")
        try:
            pairs.sort(key=lambda p: p[0])  # type: ignore[arg-type, return-value]
        except TypeError:
            raise DistributionError(
                "the outcomes of a distribution must be comparable with each other "
                "(numbers, or tuples of numbers)") from None
        g = 0
        for _, w in pairs:
            g = gcd(g, w)
        object.__setattr__(self, "items", tuple((o, w // g) for o, w in pairs))

    # -- constructors -----------------------------------------------------------------------------
    @classmethod
    def die(cls, sides: int = 6) -> Distribution[int]:
        """A fair die showing 1..``sides`` (1 to 10,000 sides)."""
        if not isinstance(sides, int) or isinstance(sides, bool) or not 1 <= sides <= _MAX_SIDES:
            raise DistributionError(f"a die has 1 to {_MAX_SIDES:,} sides, not {sides!r}")
        return Distribution(dict.fromkeys(range(1, sides + 1), 1))

    @classmethod
    def uniform(cls, outcomes: Iterable[U]) -> Distribution[U]:
        """Each distinct outcome equally likely."""
        return cls.from_outcomes(set(_outcomes(outcomes)))

    @classmethod
    def from_outcomes(cls, outcomes: Iterable[U]) -> Distribution[U]:
        """The distribution of equally likely draws (repeats add weight)."""
        counts: dict[U, int] = {}
        for o in _outcomes(outcomes):
            counts[o] = counts.get(o, 0) + 1
        return Distribution(counts)

    # -- reading ----------------------------------------------------------------------------------
    @property
    def total(self) -> int:
        """The sum of the (reduced) weights: the common denominator of every probability."""
        return sum(w for _, w in self.items)

    @property
    def outcomes(self) -> tuple[T, ...]:
        """The outcomes of positive probability, sorted."""
        return tuple(o for o, _ in self.items)

    @property
    def weights(self) -> tuple[int, ...]:
        """The reduced weights, in the order of :attr:`outcomes`."""
        return tuple(w for _, w in self.items)

    def weight(self, outcome: object) -> int:
        """The reduced weight of ``outcome`` (0 if impossible)."""
        for o, w in self.items:
            if o == outcome:
                return w
        return 0

    def probability(self, outcome: object) -> Fraction:
        """P(X = ``outcome``), exactly."""
        return Fraction(self.weight(outcome), self.total)

    def probabilities(self) -> dict[T, Fraction]:
        """Every outcome with its probability, in sorted order."""
        total = self.total
        return {o: Fraction(w, total) for o, w in self.items}

    def probability_where(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(``predicate``(X)), exactly."""
        return Fraction(sum(w for o, w in self.items if predicate(o)), self.total)

    def cdf(self, x: Any) -> Fraction:
        """P(X <= ``x``)."""
        try:
            return Fraction(sum(w for o, w in self.items if not x < o), self.total)
        except TypeError:
            raise DistributionError(f"{x!r} cannot be compared with the outcomes") from None

    def __iter__(self) -> Iterator[T]:
        return iter(self.outcomes)

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, outcome: object) -> bool:
        return self.weight(outcome) > 0

    # -- moments and quantiles (numeric outcomes) -------------------------------------------------
    def _numbers(self) -> list[tuple[Fraction, int]]:
        out: list[tuple[Fraction, int]] = []
        for o, w in self.items:
            if isinstance(o, bool) or not isinstance(o, Rational):
                raise DistributionError(
                    f"mean and variance need rational-number outcomes, not {o!r}")
            out.append((Fraction(o), w))
        return out

    def mean(self) -> Fraction:
        """E[X], exactly (outcomes must be integers or fractions)."""
        return sum((x * w for x, w in self._numbers()), Fraction(0)) / self.total

    def variance(self) -> Fraction:
        """Var[X] = E[(X - E[X])^2], exactly."""
        mu = self.mean()
        return sum(((x - mu) ** 2 * w for x, w in self._numbers()), Fraction(0)) / self.total

    def quantile(self, q: Rational | int | str) -> T:
        """The smallest outcome x with P(X <= x) >= ``q`` (``q`` exact, 0 <= q <= 1).

        ``q`` is an int, a :class:`Fraction` or a string such as ``"1/2"``; floats
        are refused because 0.1 is not 1/10.
        """
        if isinstance(q, (float, bool)):
            raise DistributionError(
                f"give the quantile level exactly (Fraction(1, 10) or '1/10'), not {q!r}")
        try:
            level = Fraction(q) if isinstance(q, (Rational, str)) else None
        except (ValueError, ZeroDivisionError):
            level = None
        if level is None or not 0 <= level <= 1:
            raise DistributionError(f"a quantile level lies between 0 and 1, not {q!r}")
        need = level * self.total
        acc = 0
        for o, w in self.items:
            acc += w
            if acc >= need:
                return o
        return self.items[-1][0]  # pragma: no cover - acc reaches the total

    def median(self) -> T:
        """The lower median, ``quantile(1/2)``."""
        return self.quantile(Fraction(1, 2))

    # -- combining --------------------------------------------------------------------------------
    def map(self, func: Callable[[T], U]) -> Distribution[U]:
        """The distribution of ``func``(X) (outcomes mapped together add their weights)."""
        out: dict[U, int] = {}
        for o, w in self.items:
            k = func(o)
            out[k] = out.get(k, 0) + w
        return Distribution(out)

    def combine(self, other: Distribution[U], func: Callable[[T, U], Any]) -> Distribution[Any]:
        """The distribution of ``func``(X, Y) for X, Y independent."""
        if not isinstance(other, Distribution):
            raise DistributionError(f"can only combine with a Distribution, not {other!r}")
        out: dict[Any, int] = {}
        for a, wa in self.items:
            for b, wb in other.items:
                k = func(a, b)
                out[k] = out.get(k, 0) + wa * wb
        return Distribution(out)

    def convolve(self, other: Distribution[Any]) -> Distribution[Any]:
        """The distribution of X + Y for X, Y independent."""
        return self.combine(other, lambda a, b: a + b)

    def __add__(self, other: Distribution[Any]) -> Distribution[Any]:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.convolve(other)

    def max(self, other: Distribution[Any]) -> Distribution[Any]:
        """The distribution of max(X, Y) for X, Y independent."""
        return self.combine(other, lambda a, b: b if a < b else a)

    def repeat(self, n: int) -> Distribution[Any]:
        """The sum of ``n`` >= 1 independent copies of X."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise DistributionError(f"repeat needs a whole number of copies >= 1, not {n!r}")
        out: Distribution[Any] = self
        for _ in range(n - 1):
            out = out.convolve(self)
        return out

    # -- output -----------------------------------------------------------------------------------
    def to_floats(self) -> dict[T, float]:
        """Probabilities as floats, for plotting or display only (the caller asks for them)."""
        total = self.total
        return {o: w / total for o, w in self.items}

    def to_json(self) -> dict[str, str]:
        """``{"outcome": "p/q", ...}`` (outcomes as text, probabilities as exact fractions)."""
        return {_json_key(o): str(p) for o, p in self.probabilities().items()}

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {w}" for o, w in self.items)
        return f"Distribution({{{inner}}})"


def _outcomes(outcomes: Iterable[U]) -> list[U]:
    """``outcomes`` as a list of hashable values, or DistributionError."""
    if not isinstance(outcomes, Iterable):
        raise DistributionError(f"expected an iterable of outcomes, not {outcomes!r}")
    out = list(outcomes)
    for o in out:
        try:
            hash(o)
        except TypeError:
            raise DistributionError(f"an outcome must be hashable, not {o!r}") from None
    return out


def _json_key(outcome: object) -> str:
    if isinstance(outcome, tuple):
        return ",".join(str(x) for x in outcome)
    return str(outcome)
