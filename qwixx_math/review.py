"""Reviewing a played game: the expected-score cost of each decision against optimal play.

For every turn of a game record, the reviewed player's decision (their whole
plan when active, their action-1 choice when passive) is compared with the best
choice for that roll.  Each choice is valued by :class:`~qwixx_math.advice.Advisor`:
the optimal expected final score of the position it leads to, with everything
else in the turn (the other players' action-1 choices, the active player's action
2) as recorded.  The loss of a decision is the best value minus the chosen value
(0 for an optimal decision).

Solitaire records are reviewed exactly.  In a multiplayer record each decision is
judged from the reviewed player's sheet alone, as if they played on by
themselves: opponents' future closes and the race to win are not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .advice import Advice, Advisor
from .display import printable
from .errors import IllegalMoveError, ParseError
from .layouts import OFFICIAL, SheetLayout
from .model import Roll, Sheet, TurnPlan
from .notation import format_plan, format_roll, format_sheet, mark_to_json
from .record import GameRecord
from .rules import new_game

__all__ = ["Decision", "Review", "review_game"]

MULTIPLAYER_NOTE = ("multiplayer game: each decision is judged from this player's sheet "
                    "alone, as if they played on by themselves; opponents are not modelled")


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed player and what it cost."""

    turn: int  #: 1-based turn number in the record
    active: bool
    sheet: str  #: the player's sheet before the turn (text notation)
    roll: Roll
    chosen: TurnPlan
    chosen_value: float
    best: TurnPlan
    best_value: float
    options: int

    @property
    def loss(self) -> float:
        """Expected final score given up by this decision (>= 0)."""
        return self.best_value - self.chosen_value

    @property
    def optimal(self) -> bool:
        return self.chosen_value >= self.best_value

    def to_json(self) -> dict[str, Any]:
        def plan(p: TurnPlan) -> dict[str, Any]:
            out: dict[str, Any] = {"action1": mark_to_json(p.action1), "plan": format_plan(p)}
            if self.active:
                out["action2"] = mark_to_json(p.action2)
                out["penalty"] = p.penalty
            return out

        return {"turn": self.turn, "active": self.active, "sheet": self.sheet,
                "roll": format_roll(self.roll), "chosen": plan(self.chosen),
                "chosen_value": self.chosen_value, "best": plan(self.best),
                "best_value": self.best_value, "loss": self.loss, "options": self.options}


@dataclass(frozen=True, slots=True)
class Review:
    """All decisions of one player in one game, with the totals."""

    player: int
    name: str
    players: int
    decisions: tuple[Decision, ...]
    final_score: int
    #: The sheet the game was played on (:mod:`qwixx_math.layouts`).
    layout: SheetLayout = OFFICIAL

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def mean_loss(self) -> float:
        """Mean loss per decision (0 for a game without decisions)."""
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    @property
    def optimal_decisions(self) -> int:
        return sum(1 for d in self.decisions if d.loss <= 1e-9)

    def costliest(self, n: int = 5) -> tuple[Decision, ...]:
        """The ``n`` decisions with the largest loss (losses > 0 only), costliest first."""
        costly = [d for d in self.decisions if d.loss > 1e-9]
        costly.sort(key=lambda d: (-d.loss, d.turn))
        return tuple(costly[:n])

    @property
    def note(self) -> str | None:
        return MULTIPLAYER_NOTE if self.players > 1 else None

    def to_json(self, top: int = 5) -> dict[str, Any]:
        out = {"player": self.name, "player_index": self.player,
               "final_score": self.final_score, "decisions": len(self.decisions),
               "optimal_decisions": self.optimal_decisions, "total_loss": self.total_loss,
               "mean_loss": self.mean_loss,
               "costliest": [d.to_json() for d in self.costliest(top)],
               "all_decisions": [d.to_json() for d in self.decisions], "note": self.note}
        if not self.layout.is_official:
            out["layout"] = self.layout.key
        return out

    def to_text(self, top: int = 5) -> str:
        lines = [f"{printable(self.name)}: {len(self.decisions)} decisions, "
                 f"{self.optimal_decisions} optimal; expected-score loss "
                 f"{self.total_loss:.3f} in total, {self.mean_loss:.3f} per decision; "
                 f"final score {self.final_score}"]
        if self.note:
            lines.append(f"  note: {self.note}")
        costly = self.costliest(top)
        if costly:
            lines.append("  costliest decisions:")
            for d in costly:
                role = "active" if d.active else "passive"
                lines.append(
                    f"    turn {d.turn:>3} ({role}) roll {format_roll(d.roll)} sheet {d.sheet}: "
                    f"played {_words(d.chosen, d.active, self.layout)} ({d.chosen_value:.3f}); "
                    f"better {_words(d.best, d.active, self.layout)} ({d.best_value:.3f}); "
                    f"loss {d.loss:.3f}")
        else:
            lines.append("  every decision was optimal")
        return "\n".join(lines)


def _words(plan: TurnPlan, active: bool, layout: SheetLayout = OFFICIAL) -> str:
    if active:
        return f"{format_plan(plan)} [{plan.describe(layout)}]"
    return "pass" if plan.action1 is None else f"{plan.action1.describe()} with the white sum"


def _player_index(record: GameRecord, player: str | int | None) -> int:
    if player is None:
        return 0
    if isinstance(player, int) and not isinstance(player, bool):
        if 0 <= player < len(record.players):
            return player
        raise ParseError(f"player {player} does not exist (the record has "
                         f"{len(record.players)})")
    if player in record.players:
        return record.players.index(player)
    raise ParseError(f"no player named {player!r}; the record has "
                     f"{', '.join(printable(repr(p)) for p in record.players)}")


def review_game(record: GameRecord, player: str | int | None = None,
                advisor: Advisor | None = None) -> Review:
    """Review ``player``'s decisions (a name or index; default the first player).

    The record must be legal (see ``qwixx-math validate``): the first illegal turn
    raises :class:`IllegalMoveError` naming it.
    """
    p = _player_index(record, player)
    advisor = advisor if advisor is not None else Advisor.for_ruleset(record.ruleset,
                                                                      layout=record.layout)
    state = new_game(ruleset=record.ruleset, first=record.first, layout=record.layout)
    decisions: list[Decision] = []
    for k, turn in enumerate(record.turns, start=1):
        if state.is_over:
            raise IllegalMoveError(state.ended_by or "R13",
                                   f"turn {k} is played after the game ended")
        try:
            if len(turn.action1) != state.players:
                raise ParseError(f"turn {k} gives {len(turn.action1)} action-1 choices for "
                                 f"{state.players} players")
            after = state.play_turn(turn.roll, turn.action1, turn.action2)  # the exact rule
            rolled = state.with_roll(turn.roll)
            if p == state.active:
                advice = advisor.advise(rolled, None, turn.action1)
                chosen = TurnPlan(turn.action1[p], turn.action2)
            else:
                advice = advisor.advise_passive(rolled, p, None, turn.action1, turn.action2)
                chosen = TurnPlan(turn.action1[p], None)
            ranked = advice.find(chosen)
        except IllegalMoveError as exc:
            reason = str(exc).removeprefix(f"{exc.rule}: ")
            raise IllegalMoveError(exc.rule, f"turn {k}: {reason} (review needs a legal "
                                             "record; run 'qwixx-math validate' on it)",
                                   exc.player) from None
        decisions.append(_decision(k, state.sheets[p], turn.roll, advice, ranked.plan,
                                   ranked.expected_score))
        state = after
    return Review(p, record.players[p], len(record.players), tuple(decisions),
                  state.sheets[p].score, record.layout)


def _decision(turn: int, sheet: Sheet, roll: Roll, advice: Advice, chosen: TurnPlan,
              chosen_value: float) -> Decision:
    best = advice.best
    return Decision(turn, not advice.passive, format_sheet(sheet), roll, chosen, chosen_value,
                    best.plan, best.expected_score, len(advice.plans))


def review_players(record: GameRecord, players: Sequence[str | int] | None = None,
                   advisor: Advisor | None = None) -> tuple[Review, ...]:
    """:func:`review_game` for several players (default: every player)."""
    chosen = list(players) if players is not None else list(range(len(record.players)))
    advisor = advisor if advisor is not None else Advisor.for_ruleset(record.ruleset,
                                                                      layout=record.layout)
    return tuple(review_game(record, p, advisor) for p in chosen)
