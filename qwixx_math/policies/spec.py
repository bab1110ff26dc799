"""Naming a policy: :class:`PolicySpec` (kind and parameter), parsed from and printed as text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError
from ..parsing import shown
from .scoring import PolicyKind

__all__ = ["DEFAULT_SPECS", "PolicySpec"]

#: The German rule text's tip: a penalty costs less than skipping four numbers.
SEED_PENALTY_SKIPS = 3.5
_THRESHOLD = re.compile(r"threshold-([0-9]{1,2})")  # ASCII digits only, not \d
_NAMES = ("optimal", "fewest-skips", "seed-tips")


@dataclass(frozen=True, slots=True)
class PolicySpec:
    """A policy by kind and parameter: the value the compiled engine is given.

    Text forms (:meth:`parse`, ``str``): ``optimal``, ``fewest-skips``,
    ``threshold-T`` (T = 0..10: marks skipping at most T numbers each), ``seed-tips``.
    """

    kind: PolicyKind
    param: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.kind, PolicyKind):
            raise ParseError(f"PolicySpec.kind must be a PolicyKind, not {self.kind!r}")
        if isinstance(self.param, bool) or not isinstance(self.param, (int, float)):
            raise ParseError(f"PolicySpec.param must be a number, not {self.param!r}")
        if self.kind is PolicyKind.SKIP_THRESHOLD and not (
                float(self.param).is_integer() and 0 <= self.param <= 10):
            raise ParseError(f"a skip threshold is a whole number 0..10, not {self.param!r}")

    @classmethod
    def optimal(cls) -> PolicySpec:
        return cls(PolicyKind.OPTIMAL)

    @classmethod
    def fewest_skips(cls) -> PolicySpec:
        return cls(PolicyKind.FEWEST_SKIPS)

    @classmethod
    def skip_threshold(cls, threshold: int) -> PolicySpec:
        if isinstance(threshold, bool) or not isinstance(threshold, int):
            raise ParseError(f"a skip threshold is a whole number 0..10, not {threshold!r}")
        return cls(PolicyKind.SKIP_THRESHOLD, float(threshold))

    @classmethod
    def seed_tips(cls) -> PolicySpec:
        return cls(PolicyKind.SEED_TIPS, SEED_PENALTY_SKIPS)

    @classmethod
    def parse(cls, text: str) -> PolicySpec:
        """``optimal``, ``fewest-skips``, ``threshold-T`` (T = 0..10 in ASCII digits) or
        ``seed-tips``, written exactly so (lower case, no spaces: docs/notation.md)."""
        if not isinstance(text, str):
            raise ParseError(f"a policy name must be text, not {type(text).__name__}")
        if text == "optimal":
            return cls.optimal()
        if text == "fewest-skips":
            return cls.fewest_skips()
        if text == "seed-tips":
            return cls.seed_tips()
        match = _THRESHOLD.fullmatch(text)
        if match is not None and int(match.group(1)) <= 10:
            return cls.skip_threshold(int(match.group(1)))
        near = text.strip().lower()
        hint = ""
        if near != text and (near in _NAMES or _THRESHOLD.fullmatch(near)):
            hint = f" (names are lower case, without spaces: write {near!r})"
        raise ParseError(f"unknown policy {shown(text)}; expected optimal, fewest-skips, "
                         f"threshold-T (T = 0..10) or seed-tips{hint}")

    @property
    def name(self) -> str:
        if self.kind is PolicyKind.OPTIMAL:
            return "optimal"
        if self.kind is PolicyKind.FEWEST_SKIPS:
            return "fewest-skips"
        if self.kind is PolicyKind.SKIP_THRESHOLD:
            return f"threshold-{int(self.param)}"
        if self.param == SEED_PENALTY_SKIPS:
            return "seed-tips"
        return f"seed-tips({self.param:g})"

    @property
    def needs_table(self) -> bool:
        """Whether the policy's decisions read the optimal solver table."""
        return self.kind is PolicyKind.OPTIMAL

    def __str__(self) -> str:
        return self.name


#: The policies tabulated in docs/policies.md and by ``qwixx-math policies``.
DEFAULT_SPECS: tuple[PolicySpec, ...] = (
    PolicySpec.optimal(),
    PolicySpec.seed_tips(),
    PolicySpec.fewest_skips(),
    PolicySpec.skip_threshold(1),
    PolicySpec.skip_threshold(2),
)
