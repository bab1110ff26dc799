"""Qwixx Longo's lucky numbers in the exact solver (VARIANTS.md LG3-LG5): the ruleset's
Options as the solved game's, and the check that a table answers for a ruleset.

The lucky crosses themselves are played by the kernel (``_lucky_gather`` in
:mod:`qwixx_math.solver.kernel`); the lucky pair is part of the sheet
(:attr:`~qwixx_math.layouts.SheetLayout.lucky`), and the Options ``lg_lucky_mode``
(LG4) and ``lg_lucky_candidates`` (LG5) are fields of the
:class:`~qwixx_math.solver.variant.Variant` solved, so that its cache key tells the
four games of one pair apart:

>>> from qwixx_math.layouts import LONGO
>>> from qwixx_math.ruleset import LuckyMode, Ruleset
>>> variant = lucky_variant(Variant(LONGO.with_lucky((5, 13))),
...                         Ruleset(players=1, lg_lucky_mode=LuckyMode.ADDITIONAL))
>>> variant.key
'longo-lucky5.13-lgadd'
"""

from __future__ import annotations

from ..errors import ParseError
from ..ruleset import LuckyCandidates, LuckyMode, Ruleset
from .variant import Variant

__all__ = ["check_lucky_ruleset", "lucky_options", "lucky_variant"]


def lucky_options(ruleset: Ruleset) -> tuple[bool, bool]:
    """``(additional, next_cell)``: whether ``ruleset`` has ``lg_lucky_mode = additional``
    (LG4) and ``lg_lucky_candidates = open_with_next_cell`` (LG5)."""
    return (ruleset.lg_lucky_mode is LuckyMode.ADDITIONAL,
            ruleset.lg_lucky_candidates is LuckyCandidates.OPEN_WITH_NEXT_CELL)


def lucky_variant(variant: Variant, ruleset: Ruleset) -> Variant:
    """``variant`` under the lucky Options of ``ruleset`` (itself on a sheet without lucky
    numbers, where they change nothing)."""
    return variant.with_lucky_options(*lucky_options(ruleset))


def check_lucky_ruleset(variant: Variant, ruleset: Ruleset) -> None:
    """ParseError (LG4 or LG5) when a table solved for ``variant`` does not answer for a game
    under ``ruleset``: a sheet with lucky numbers and another lucky Option."""
    if not variant.lucky:
        return
    additional, next_cell = lucky_options(ruleset)
    if additional != variant.lucky_additional:
        raise ParseError(
            "this table was solved with lg_lucky_mode="
            f"{'additional' if variant.lucky_additional else 'instead'}; the game's ruleset "
            f"says {ruleset.lg_lucky_mode.value}", rule="LG4")
    if next_cell != variant.lucky_next_cell:
        raise ParseError(
            "this table was solved with lg_lucky_candidates="
            f"{'open_with_next_cell' if variant.lucky_next_cell else 'open_rows'}; the "
            f"game's ruleset says {ruleset.lg_lucky_candidates.value}", rule="LG5")
