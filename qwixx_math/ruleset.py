"""The :class:`Ruleset`: every Option of RULES.md and the known dialect switches.

The defaults are the official rules.  Each switch other than the RULES.md
Options relaxes (or reinterprets) exactly one rule; they exist so that the
validator can name the dialect another Qwixx program implements.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from .errors import ParseError

__all__ = ["BonusTrigger", "CircleCandidates", "DiamondOrder", "DieRemoval", "EndCheck",
           "LuckyCandidates", "LuckyMode", "Ruleset", "ruleset_for"]

MIN_PLAYERS = 1
MAX_PLAYERS = 5


class DieRemoval(Enum):
    """When the die of a colour closed during a turn leaves play (R9)."""

    #: Official (R9): at once; it cannot be used in the action 2 of the same turn.
    IMMEDIATE = "immediate"
    #: Dialect: at the end of the turn; a colour closed in action 1 can still be
    #: marked by the active player in action 2 of that turn, with its die.
    END_OF_TURN = "end_of_turn"


class EndCheck(Enum):
    """When the end of the game (R13, R14) is checked."""

    #: Official (R5, R14): after all action-1 marks together (so a third colour
    #: may close in the same instant), and again after action 2.
    AFTER_ACTIONS = "after_actions"
    #: Dialect: after each player's action-1 mark, in turn order starting with the
    #: active player; once the game has ended, later players may not mark.
    SEQUENTIAL = "sequential"
    #: Dialect: only at the end of the turn; the active player always gets action 2.
    END_OF_TURN = "end_of_turn"


class LuckyMode(Enum):
    """Qwixx Longo's lucky cross and the action-1 cross (VARIANTS.md LG4, Option
    ``lg_lucky_mode``)."""

    #: Default: the lucky cross *is* the player's action-1 cross, in place of the white sum.
    INSTEAD = "instead"
    #: The lucky cross may follow the player's action-1 cross: a second voluntary cross (V3).
    ADDITIONAL = "additional"


class LuckyCandidates(Enum):
    """The rows among which Qwixx Longo's lucky cross takes the fewest crosses (LG5, Option
    ``lg_lucky_candidates``)."""

    #: Default: the open rows; if no row with the fewest has a legal next cell, no lucky cross.
    OPEN_ROWS = "open_rows"
    #: The open rows that have a legal next cell.
    OPEN_WITH_NEXT_CELL = "open_with_next_cell"


class CircleCandidates(Enum):
    """The rows among which Qwixx Bonus B's circle takes the fewest crosses (BB2, Option
    ``bb_fewest_candidates``)."""

    #: Default: the open rows that have a next cell; fewest among those.
    OPEN_WITH_NEXT_CELL = "open_with_next_cell"
    #: The open rows; if no row with the fewest has a next cell, both crosses lapse.
    OPEN_ROWS = "open_rows"


class DiamondOrder(Enum):
    """The order of Qwixx Bonus B's diamond crosses (BB3, Option ``bb_diamond_order``)."""

    #: Default: red, yellow, green, blue.
    COLOUR_ORDER = "colour_order"
    #: The player orders them: not representable yet (a move names no order), refused (BB3).
    PLAYER_CHOICE = "player_choice"
class BonusTrigger(Enum):
    """Which white + colour sums may cross a Big Points bonus cell in action 2 (BP3, Option
    ``bp_colour_trigger``)."""

    #: Default: the die is one of the bonus row's two colours and the player has crossed
    #: that colour's cell in the bonus cell's column.
    SAME_COLOUR = "same_colour"
    #: The die is one of the two colours and either of the column's two cells is crossed.
    EITHER_ADJACENT = "either_adjacent"


#: Qwixx Big Points, BP5: the crosses a colour row needs before its last number.
BP_LOCK_MARKS = (5, 6)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules a game is played under.  ``Ruleset()`` is the official game for two.

    ``players`` and ``action2_after_game_end`` are the Options of RULES.md (R3,
    R15).  ``die_removal``, ``end_check`` and ``simultaneous_close`` are dialect
    switches that default to the official rule (R9, R13/R14, R10).

    ``cc_partner_moves_frontier`` is the Option CC3 of Qwixx Connected, the Chain
    (VARIANTS.md §5.2): a partner cross right of its row's frontier becomes the new
    frontier.  Only ``True`` (the default) exists: a row is stored as the mask of its
    crossed cells, whose rightmost cross *is* the frontier, so a frontier that stays left
    of a partner cross cannot be represented; ``False`` is refused (ParseError, CC3).  It
    is not written by :meth:`to_json` (it never differs from its default).
    """

    players: int = 2
    action2_after_game_end: bool = False
    die_removal: DieRemoval = DieRemoval.IMMEDIATE
    end_check: EndCheck = EndCheck.AFTER_ACTIONS
    simultaneous_close: bool = True
    cc_partner_moves_frontier: bool = True
    #: Qwixx X-Change, XC4: whether a field may be spent alone, without a cross (VARIANTS.md
    #: §9.2; default False: a field is crossed only with a legal cross of its number).
    xc_field_without_cross: bool = False
    #: Qwixx X-Change, XC5: exchanges in action 2 too.  Only False is implemented; True
    #: raises ParseError naming XC5.
    xc_in_action2: bool = False
    #: Qwixx Longo's Options (VARIANTS.md LG4, LG5); they matter only on a sheet with
    #: lucky numbers.
    lg_lucky_mode: LuckyMode = LuckyMode.INSTEAD
    lg_lucky_candidates: LuckyCandidates = LuckyCandidates.OPEN_ROWS
    #: Qwixx Double A (DA2): which number a second cross may double; only ``latest`` (the
    #: row's rightmost crossed number, DA1) is played: ``own_track`` is refused.
    da_scope: str = "latest"
    #: Qwixx Double A (DA4): whether the active player may double in action 2 the number
    #: they crossed in action 1 of the same turn.
    da_same_turn: bool = True
    #: Qwixx Bonus B's Options (VARIANTS.md BB2, BB3); they matter only on a sheet with
    #: symbols.  ``bb_diamond_order = player_choice`` is refused (ParseError, BB3): a move
    #: cannot name the order yet.
    bb_fewest_candidates: CircleCandidates = CircleCandidates.OPEN_WITH_NEXT_CELL
    bb_diamond_order: DiamondOrder = DiamondOrder.COLOUR_ORDER
    #: Qwixx Big Points (BP3): which white + colour sums may cross a bonus cell in action 2.
    bp_colour_trigger: BonusTrigger = BonusTrigger.SAME_COLOUR
    #: Qwixx Big Points (BP5): the colour crosses a row needs before its last number (5, or
    #: 6 read literally from S7); the sheet's layout must have this lock threshold.
    bp_lock_marks: int = 5

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool):
            raise ParseError(f"players must be an integer, not {self.players!r}", rule="R3")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ParseError(
                f"players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, not {self.players}",
                rule="R3")
        for name in ("action2_after_game_end", "simultaneous_close", "da_same_turn",
                     *_XC_OPTIONS):
            if not isinstance(getattr(self, name), bool):
                raise ParseError(f"Ruleset.{name} must be true or false",
                                 rule="DA4" if name == "da_same_turn" else None)
        if self.xc_in_action2:
            raise ParseError("xc_in_action2=True (an exchange in action 2) is not "
                             "implemented; only the default False (exchanges in action 1 "
                             "only) is played", rule="XC5")
        if self.da_scope != "latest":
            if self.da_scope == "own_track":
                raise ParseError("Ruleset.da_scope own_track (second crosses on their own "
                                 "left-to-right track) is not played yet; only 'latest'",
                                 rule="DA2")
            raise ParseError(f"Ruleset.da_scope must be 'latest', not {self.da_scope!r}",
                             rule="DA2")
        if not isinstance(self.die_removal, DieRemoval):
            raise ParseError(f"Ruleset.die_removal must be a DieRemoval, not {self.die_removal!r}")
        if not isinstance(self.end_check, EndCheck):
            raise ParseError(f"Ruleset.end_check must be an EndCheck, not {self.end_check!r}")
        _check_cc3(self.cc_partner_moves_frontier)
        if not isinstance(self.lg_lucky_mode, LuckyMode):
            raise ParseError(f"Ruleset.lg_lucky_mode must be a LuckyMode, not "
                             f"{self.lg_lucky_mode!r}", rule="LG4")
        if not isinstance(self.lg_lucky_candidates, LuckyCandidates):
            raise ParseError(f"Ruleset.lg_lucky_candidates must be a LuckyCandidates, not "
                             f"{self.lg_lucky_candidates!r}", rule="LG5")
        if not isinstance(self.bb_fewest_candidates, CircleCandidates):
            raise ParseError(f"Ruleset.bb_fewest_candidates must be a CircleCandidates, not "
                             f"{self.bb_fewest_candidates!r}", rule="BB2")
        if not isinstance(self.bb_diamond_order, DiamondOrder):
            raise ParseError(f"Ruleset.bb_diamond_order must be a DiamondOrder, not "
                             f"{self.bb_diamond_order!r}", rule="BB3")
        if self.bb_diamond_order is DiamondOrder.PLAYER_CHOICE:
            raise ParseError("bb_diamond_order=player_choice is not played: a move cannot name "
                             "the order of the diamond's crosses yet; only the default "
                             "colour_order (red, yellow, green, blue)", rule="BB3")
        if not isinstance(self.bp_colour_trigger, BonusTrigger):
            raise ParseError(f"Ruleset.bp_colour_trigger must be a BonusTrigger, not "
                             f"{self.bp_colour_trigger!r}", rule="BP3")
        if not isinstance(self.bp_lock_marks, int) or isinstance(self.bp_lock_marks, bool) \
                or self.bp_lock_marks not in BP_LOCK_MARKS:
            raise ParseError(f"Ruleset.bp_lock_marks must be 5 or 6, not "
                             f"{self.bp_lock_marks!r}", rule="BP5")

    @property
    def is_official(self) -> bool:
        """True when every switch has its official value (any number of players)."""
        return self == Ruleset(players=self.players)

    @property
    def action2_after_action1_end(self) -> bool:
        """Whether the active player still takes action 2 after the game ended in action 1."""
        return self.action2_after_game_end or self.end_check is EndCheck.END_OF_TURN

    def to_json(self) -> dict[str, Any]:
        """The JSON object form (every official field, enum values as strings; a variant
        pad's Option only when it is not its default, so that other rulesets read as
        before)."""
        out: dict[str, Any] = {
            "players": self.players,
            "action2_after_game_end": self.action2_after_game_end,
            "die_removal": self.die_removal.value,
            "end_check": self.end_check.value,
            "simultaneous_close": self.simultaneous_close,
        }
        for name, kind in _VARIANT_OPTIONS.items():
            value = getattr(self, name)
            if value != _DEFAULTS[name]:
                out[name] = value.value if kind is not None else value
        return out

    @classmethod
    def from_json(cls, data: object) -> Ruleset:
        """Parse the JSON object form; missing fields take their official default."""
        if not isinstance(data, dict):
            raise ParseError(f"a ruleset must be a JSON object, not {type(data).__name__}")
        known = {"players", "action2_after_game_end", "die_removal", "end_check",
                 "simultaneous_close", *_VARIANT_OPTIONS}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise ParseError(f"unknown ruleset field(s): {', '.join(unknown)}")
        kwargs: dict[str, Any] = {}
        for name in ("players", "action2_after_game_end", "simultaneous_close"):
            if name in data:
                kwargs[name] = data[name]
        if "die_removal" in data:
            kwargs["die_removal"] = _enum(DieRemoval, data["die_removal"], "die_removal")
        if "end_check" in data:
            kwargs["end_check"] = _enum(EndCheck, data["end_check"], "end_check")
        for name, kind in _VARIANT_OPTIONS.items():
            if name in data:
                kwargs[name] = data[name] if kind is None else _enum(kind, data[name], name)
        return cls(**kwargs)


def _check_cc3(value: object) -> None:
    """The Option CC3 checked: only ``True`` can be played (see :class:`Ruleset`)."""
    if value is not True:
        raise ParseError(
            f"Ruleset.cc_partner_moves_frontier must be True, not {value!r}: the rules core "
            "keeps a row as the mask of its crosses, whose rightmost cross is the frontier, "
            "so a partner cross that does not move the frontier cannot be represented",
            rule="CC3")


#: The Options of Qwixx X-Change (VARIANTS.md §9.2, XC4 and XC5).
_XC_OPTIONS = ("xc_field_without_cross", "xc_in_action2")

#: Every variant pad's Option (VARIANTS.md) with its enum type, or None for a plain value:
#: :meth:`Ruleset.to_json` writes it only when it differs from its default (the ones only
#: their default is played, such as ``cc_partner_moves_frontier``, never), and
#: :meth:`Ruleset.from_json` reads it when present.
_VARIANT_OPTIONS: dict[str, type[Enum] | None] = {
    "cc_partner_moves_frontier": None, **{name: None for name in _XC_OPTIONS},
    "da_scope": None, "da_same_turn": None, "lg_lucky_mode": LuckyMode,
    "lg_lucky_candidates": LuckyCandidates, "bb_fewest_candidates": CircleCandidates,
    "bb_diamond_order": DiamondOrder, "bp_colour_trigger": BonusTrigger,
    "bp_lock_marks": None}
#: Each variant Option's default.
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Ruleset)
                             if f.name in _VARIANT_OPTIONS}


def _enum(kind: type[Enum], value: object, name: str) -> Any:
    choices = [m.value for m in kind]
    if not isinstance(value, str) or value not in choices:
        raise ParseError(f"Ruleset.{name} must be one of {', '.join(choices)}, not {value!r}")
    return kind(value)


def ruleset_for(ruleset: object, players: int) -> Ruleset:
    """``ruleset`` checked for a game of ``players`` players, or the official rules for
    them when it is None; ParseError for a value that is no Ruleset or one for another
    number of players (R3)."""
    if ruleset is None:
        return Ruleset(players=players)
    if not isinstance(ruleset, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {type(ruleset).__name__}")
    if ruleset.players != players:
        raise ParseError(f"R3: the ruleset is for {ruleset.players} player(s), not {players}")
    return ruleset
