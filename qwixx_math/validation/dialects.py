"""Dialect diagnosis: which Ruleset switch explains the violations of a record.

Many Qwixx programs implement a known variant reading of the rules: the die of a
colour closed in action 1 stays usable in action 2, the end of the game is
checked after each player's mark, only one player may close a colour, the
active player still takes action 2 after the game ended.  The ruleset has a
switch for each (see :mod:`qwixx_math.ruleset`).  :func:`diagnose` replays a
record under every combination of switched values and reports

* the smallest combinations under which the record has **no** violation at all
  (``explains_all``): the program implements that dialect;
* failing that, each single switch that removes some violations and adds none:
  a hint that part of the program implements it.

Switches are relative to the ruleset the record was checked under: from a
non-official ruleset, switching back to the official value is a switch too.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from ..record import GameRecord
from ..ruleset import DieRemoval, EndCheck, Ruleset
from .replay import check_record
from .violations import Violation

__all__ = ["DialectFinding", "Switch", "diagnose", "switches_for"]

#: Each switchable field of Ruleset and the rule whose reading it changes.
_FIELD_RULES = {"die_removal": "R9", "end_check": "R14", "simultaneous_close": "R10",
                "action2_after_game_end": "R15"}

_MEANINGS: dict[tuple[str, str], str] = {
    ("die_removal", "end_of_turn"):
        "the die of a colour closed in action 1 stays usable in action 2 of that turn "
        "(official R9: it leaves play at once)",
    ("die_removal", "immediate"):
        "the die of a colour closed in action 1 leaves play at once (official R9)",
    ("end_check", "sequential"):
        "the end of the game is checked after each player's action-1 mark in turn order, so "
        "later players may not mark (official R14: all action-1 marks count, a third colour "
        "may close at once)",
    ("end_check", "end_of_turn"):
        "the end of the game is checked only at the end of the turn, so the active player "
        "always takes action 2 (official R14/R15: the game ends at once)",
    ("end_check", "after_actions"):
        "the end of the game is checked after all action-1 marks and after action 2 "
        "(official R14)",
    ("simultaneous_close", "false"):
        "only the first player in turn order may close a colour in action 1 "
        "(official R10: several players may close it at once)",
    ("simultaneous_close", "true"):
        "several players may close the same colour at once in action 1 (official R10)",
    ("action2_after_game_end", "true"):
        "the active player still takes action 2 after the game ended in action 1 "
        "(R15 Option; official: no action 2)",
    ("action2_after_game_end", "false"):
        "no action 2 after the game ended in action 1 (R15 Option, official)",
}


@dataclass(frozen=True, slots=True)
class Switch:
    """One Ruleset field set to one value: ``die_removal=end_of_turn``.

    ``value`` is the JSON value as text (``"end_of_turn"``, ``"true"``); ``rule``
    the rule whose reading the field changes.
    """

    field: str
    value: str
    rule: str

    def apply(self, ruleset: Ruleset) -> Ruleset:
        """``ruleset`` with this switch set."""
        current = getattr(ruleset, self.field)
        new: Any
        if isinstance(current, bool):
            new = self.value == "true"
        elif isinstance(current, DieRemoval):
            new = DieRemoval(self.value)
        else:
            new = EndCheck(self.value)
        return replace(ruleset, **{self.field: new})

    @property
    def meaning(self) -> str:
        """What the switched rule says, in plain words."""
        return _MEANINGS[(self.field, self.value)]

    def __str__(self) -> str:
        return f"{self.field}={self.value}"

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "value": self.value, "rule": self.rule,
                "meaning": self.meaning}


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    assert isinstance(value, Enum)
    return str(value.value)


def switches_for(ruleset: Ruleset) -> tuple[tuple[Switch, ...], ...]:
    """For each switchable field (in a fixed order), the switches away from ``ruleset``'s value."""
    out = []
    for name, rule in _FIELD_RULES.items():
        current = getattr(ruleset, name)
        values: list[object]
        if isinstance(current, bool):
            values = [not current]
        else:
            values = [v for v in type(current) if v is not current]
        out.append(tuple(Switch(name, _text(v), rule) for v in values))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class DialectFinding:
    """Switches under which some (``explains_all``: every) violation of a record disappears.

    ``explained`` lists the violations of the original check that disappear.
    """

    switches: tuple[Switch, ...]
    ruleset: Ruleset
    explains_all: bool
    explained: tuple[Violation, ...]

    def describe(self) -> str:
        """One line of plain words."""
        names = " + ".join(f"{s} ({s.rule})" for s in self.switches)
        meanings = "; ".join(s.meaning for s in self.switches)
        if self.explains_all:
            return f"valid under {names}: {meanings}"
        which = ", ".join(f"turn {v.turn} {v.step.label} ({v.rule})" for v in self.explained)
        return f"{names} would explain {len(self.explained)} violation(s) ({which}): {meanings}"

    def to_json(self) -> dict[str, Any]:
        return {"switches": [s.to_json() for s in self.switches],
                "ruleset": self.ruleset.to_json(), "explains_all": self.explains_all,
                "explained": [v.to_json() for v in self.explained]}


def diagnose(record: GameRecord, ruleset: Ruleset, violations: tuple[Violation, ...], *,
             partial: bool = False) -> tuple[DialectFinding, ...]:
    """Which switches away from ``ruleset`` explain ``violations`` (the record's violations
    under ``ruleset``); empty when none does (or there is nothing to explain).
    ``partial``: the record may stop before the game ends (as in the check)."""
    if not violations:
        return ()
    fields = switches_for(ruleset)
    combos: list[tuple[Switch, ...]] = []
    for choice in itertools.product(*[(None, *alts) for alts in fields]):
        chosen = tuple(s for s in choice if s is not None)
        if chosen:
            combos.append(chosen)
    rank = {s: i for i, s in enumerate(s for alts in fields for s in alts)}
    combos.sort(key=lambda c: (len(c), [rank[s] for s in c]))  # fewest switches first
    outcomes: dict[tuple[Switch, ...], tuple[Ruleset, tuple[Violation, ...] | None]] = {}
    for combo in combos:
        switched = ruleset
        for s in combo:
            switched = s.apply(switched)
        # more violations than the original check explains nothing: stop describing there
        replay = check_record(record, switched, limit=len(violations), partial=partial)
        outcomes[combo] = (switched, replay.violations if not replay.omitted else None)
    full = [c for c, (_, found) in outcomes.items() if found == ()]
    minimal = [c for c in full if not any(set(o) < set(c) for o in full)]
    if minimal:
        return tuple(DialectFinding(c, outcomes[c][0], True, violations) for c in minimal)
    base_keys = {v.key for v in violations}
    hints = []
    for combo in combos:
        if len(combo) != 1:
            continue
        switched, found = outcomes[combo]
        if found is None:
            continue
        keys = {v.key for v in found}
        if keys < base_keys:
            gone = tuple(v for v in violations if v.key not in keys)
            hints.append(DialectFinding(combo, switched, False, gone))
    return tuple(hints)
