"""The validator: replay another program's game record and report every broken rule.

>>> from qwixx_math.record import random_game
>>> report = validate_record(random_game(players=3, seed=5))
>>> report.valid, report.violations
(True, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..display import printable
from ..record import GameRecord
from ..ruleset import Ruleset
from .dialects import DialectFinding, diagnose
from .reader import RecordError, load_record, parse_record_text, read_record
from .replay import check_record
from .violations import Violation

__all__ = ["DIALECT_LIMIT", "MAX_REPORTED", "ValidationReport", "validate_data",
           "validate_file", "validate_record", "validate_text"]

#: Most violations a report describes; the rest are counted (``omitted``).
MAX_REPORTED = 1000
#: More violations than this and the dialect diagnosis (23 more replays) is skipped.
DIALECT_LIMIT = 200


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """What the validator found in one record.

    ``violations`` in the order of the game.  ``scores``, ``winners``,
    ``ended_by`` and ``end_turn`` are the rules' result for the marks the record
    makes (illegal marks included, see :mod:`qwixx_math.validation.replay`);
    ``ended_by`` and ``end_turn`` are None when the game did not end.
    ``dialects`` names the ruleset switches that explain the violations, if any.
    ``omitted`` counts the violations found after the first ``max_violations``
    (:data:`MAX_REPORTED`) and not described; ``dialects_skipped`` is True when
    there were too many violations (more than :data:`DIALECT_LIMIT`) to diagnose
    the dialect.  ``partial``: the record was checked as one that may stop
    before the game ends.  ``adopted_penalties``: per player, the penalty boxes
    the record's turns claim beyond the rules' (negative: fewer), reported as
    violations and then taken into the replay (so that one bug is one violation),
    and so counted in ``scores`` and the end of the game; empty when none were.
    """

    players: tuple[str, ...]
    ruleset: Ruleset
    turns: int
    violations: tuple[Violation, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ended_by: str | None
    end_turn: int | None
    dialects: tuple[DialectFinding, ...] = ()
    omitted: int = 0
    dialects_skipped: bool = False
    partial: bool = False
    adopted_penalties: tuple[int, ...] = ()

    @property
    def valid(self) -> bool:
        """True when the record breaks no rule."""
        return not self.violations and not self.omitted

    @property
    def violation_count(self) -> int:
        """Every violation found, described or not."""
        return len(self.violations) + self.omitted

    def to_json(self) -> dict[str, Any]:
        """``{"valid", "violations": [{"turn", "player", "rule", "message", ...}], ...}``."""
        return {
            "valid": self.valid,
            "violations": [v.to_json() for v in self.violations],
            "violation_count": self.violation_count,
            "omitted_violations": self.omitted,
            "partial": self.partial,
            "players": list(self.players),
            "ruleset": self.ruleset.to_json(),
            "turns": self.turns,
            "reference": {"scores": list(self.scores), "winners": list(self.winners),
                          "ended_by": self.ended_by, "end_turn": self.end_turn,
                          "game_over": self.ended_by is not None,
                          "adopted_penalties": list(self.adopted_penalties) or None},
            "dialects": [d.to_json() for d in self.dialects],
            "dialects_skipped": self.dialects_skipped,
        }

    def to_text(self) -> str:
        """The human-readable report: a verdict line, one line per violation, the
        rules' result and the dialect diagnosis."""
        rules = _describe_ruleset(self.ruleset)
        lines = []
        partial = " (checked as a partial record)" if self.partial else ""
        if self.valid:
            lines.append(f"valid: {self.turns} turn(s) under {rules}{partial}")
        else:
            lines.append(f"INVALID: {self.violation_count:,} violation(s) in {self.turns} "
                         f"turn(s) under {rules}{partial}")
            lines += [v.describe(self.players) for v in self.violations]
            if self.omitted:
                lines.append(f"… and {self.omitted:,} more violation(s) not shown (a report "
                             f"describes the first {len(self.violations):,})")
        scores = ", ".join(f"{printable(name)} {score}"
                           for name, score in zip(self.players, self.scores, strict=True))
        winners = ", ".join(printable(self.players[w]) for w in self.winners)
        if self.ended_by is not None:
            end = f"ended by {self.ended_by} in turn {self.end_turn}"
        else:
            end = "not over"
        adopted = self._adopted_text()
        if adopted:  # not the rules' result: it counts the record's penalty boxes
            lines.append(f"the result of the marks made, with the record's penalty boxes "
                         f"({adopted}): {end}; scores {scores}; winner(s) {winners}")
        else:
            lines.append(f"the rules' result{' of the marks made' if not self.valid else ''}: "
                         f"{end}; scores {scores}; winner(s) {winners}")
        if self.dialects_skipped:
            lines.append(f"dialect: not diagnosed ({self.violation_count:,} violations, more "
                         f"than {DIALECT_LIMIT})")
        elif not self.valid:
            if not self.dialects:
                lines.append("dialect: no Ruleset switch explains these violations")
            for finding in self.dialects:
                lines.append(f"dialect: {finding.describe()}")
        return "\n".join(lines)


    def _adopted_text(self) -> str:
        """``P2: 1 fewer than the rules give``, or "" when no penalty box was adopted."""
        changes = []
        for name, extra in zip(self.players, self.adopted_penalties, strict=False):
            if extra:
                how = "more" if extra > 0 else "fewer"
                changes.append(f"{printable(name)}: {abs(extra)} {how}")
        if not changes:
            return ""
        return f"{', '.join(changes)} than the rules give"


def _describe_ruleset(ruleset: Ruleset) -> str:
    official = Ruleset(players=ruleset.players)
    changed = [f"{name}={_value(getattr(ruleset, name))}"
               for name in ("action2_after_game_end", "die_removal", "end_check",
                            "simultaneous_close", "lg_lucky_mode", "lg_lucky_candidates")
               if getattr(ruleset, name) != getattr(official, name)]
    rules = "the official rules" if not changed else f"the rules with {', '.join(changed)}"
    return f"{rules}, {ruleset.players} player(s)"


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(getattr(value, "value", value))


def validate_record(record: GameRecord, ruleset: Ruleset | None = None, *,
                    dialects: bool = True, partial: bool = False,
                    max_violations: int | None = MAX_REPORTED) -> ValidationReport:
    """Validate ``record`` under ``ruleset`` (default: the record's own).

    ``dialects=False`` skips the dialect diagnosis (it is skipped anyway when
    there are more than :data:`DIALECT_LIMIT` violations).  ``partial=True``
    checks a record that may stop before the game ends (a game in progress):
    its end is not a violation unless its result claims the game ended.
    ``max_violations`` (None: no limit) is the most violations described; the
    rest are counted in ``omitted``.  Raises :class:`RecordError` for a record
    that is not well formed (see :func:`read_record`), or a ruleset for another
    number of players.

    >>> from qwixx_math.record import random_game
    >>> game = random_game(players=2, seed=3)
    >>> started = type(game)(game.players, game.ruleset, game.turns[:4], game.first)
    >>> validate_record(started).violations[0].rule
    'R14'
    >>> validate_record(started, partial=True).valid
    True
    """
    if max_violations is not None and (not isinstance(max_violations, int)
                                       or isinstance(max_violations, bool)
                                       or max_violations < 0):
        raise RecordError(f"max_violations must be a whole number >= 0 or None, not "
                          f"{max_violations!r}")
    if not isinstance(record, GameRecord):
        raise RecordError(f"expected a GameRecord, not {type(record).__name__}")
    try:
        data = record.to_json()
    except (AttributeError, TypeError, ValueError) as exc:
        raise RecordError(f"not a well-formed GameRecord: {exc}") from None
    record = read_record(data)
    rs = record.ruleset if ruleset is None else ruleset
    if not isinstance(rs, Ruleset):
        raise RecordError(f"expected a Ruleset, not {type(rs).__name__}")
    if rs.players != len(record.players):
        raise RecordError(f"the ruleset is for {rs.players} player(s) but the record names "
                          f"{len(record.players)}")
    found = check_record(record, rs, limit=max_violations, partial=bool(partial))
    final = found.final
    too_many = len(found.violations) + found.omitted > DIALECT_LIMIT
    diagnosed = (diagnose(record, rs, found.violations, partial=bool(partial))
                 if dialects and not too_many else ())
    return ValidationReport(
        players=record.players, ruleset=rs, turns=len(record.turns),
        violations=found.violations, scores=final.scores, winners=final.winners,
        ended_by=final.ended_by if final.is_over else None,
        end_turn=found.end_turn, dialects=diagnosed, omitted=found.omitted,
        dialects_skipped=dialects and too_many, partial=bool(partial),
        adopted_penalties=found.adopted_penalties)


def validate_data(data: object, ruleset: Ruleset | None = None, *,
                  dialects: bool = True, partial: bool = False) -> ValidationReport:
    """Validate a parsed JSON record (read strictly, see :func:`read_record`)."""
    return validate_record(read_record(data), ruleset, dialects=dialects, partial=partial)


def validate_text(text: str, ruleset: Ruleset | None = None, *, source: str = "<record>",
                  dialects: bool = True, partial: bool = False) -> ValidationReport:
    """Validate a record given as JSON text; ``source`` names it in error messages."""
    return validate_record(parse_record_text(text, source), ruleset, dialects=dialects,
                           partial=partial)


def validate_file(path: str | Path, ruleset: Ruleset | None = None, *,
                  dialects: bool = True, partial: bool = False) -> ValidationReport:
    """Validate the record file at ``path`` (at most 4 MiB, see :func:`load_record`)."""
    return validate_record(load_record(path), ruleset, dialects=dialects, partial=partial)
