"""Reviewing a played game: what each decision cost, judged by the same model as the advice.

For every turn of a game record, the reviewed player's decision is compared with
the best choice the advice gives **at that moment**, and its loss is the best
value minus the chosen one's (0 for a choice the advice ranks first).  The model
(``table_size``, the CLI's ``--players``) is one of:

* **the table model of N players** (:class:`~qwixx_math.table.TableAdvisor`, the
  default for a record of N >= 2 players): every decision is judged with what the
  player knew when deciding, exactly as ``qwixx-math advise --players N --state``
  ranks it in the state of the game at that moment (the colours closed then, not
  later).  A passive player's white-sum choice is ranked before anybody's action 1
  is known (the others pass in the valuation, the active player's action 2 is not
  applied: :meth:`~qwixx_math.advice.Advisor.advise_passive`).  The active
  player's turn is two moments: the action-1 choice, made before the others'
  choices are known, is worth the best plan that starts with it
  (:meth:`~qwixx_math.advice.Advisor.advise`, the others pass); the action-2 choice
  is made once everybody's action 1 is known
  (:meth:`~qwixx_math.advice.Advisor.advise_action2`).  The turn's loss is the
  sum of the two parts (``Decision.action2_loss`` is the second).  When nobody
  else closes a colour in action 1, the sum is the whole plan's loss in the
  advice at action 1.
* **the solitaire model** (``table_size=1``; a one-player record, or the review
  before issue 35 of a table game): each choice is valued by
  :class:`~qwixx_math.advice.Advisor` with everything else in the turn as recorded
  (the other players' action-1 choices, the active player's action 2); in a
  multiplayer record each decision is judged from the reviewed player's sheet
  alone, as if they played on by themselves, with hindsight of the others'
  choices of that turn.

Values are floats read from the solver's tables (``docs/solver.md``): the losses
are exact differences of those values, to the solver's float precision.

``objective="win"`` adds the **win chance lost** per decision: each moment is
ranked by :func:`~qwixx_math.winadvice.advise_win` (an estimate by rollouts on
common dice), and the loss is the share of the win of the choice that advice
ranks first minus that of the chosen one (0 when the chosen one is first or tied
with it), measured on **fresh rollouts** of those two choices (common dice, a
seed of their own, ``seed + 2**62``): the rollouts that ranked the choices would
overstate it, as the best of several noisy estimates leans high.  The advice's
own figure is kept as ``Decision.win_loss_advice``.  The moment of turn ``t``
ranks with the seed ``seed + 2 * (t - 1) + part`` (part 0 for action 1 or a
passive choice, 1 for the active player's action 2), so a review is
deterministic for a seed and each ranking can be replayed with
``qwixx-math advise --objective win --seed``.  The active player's turn is judged
in two parts as above, except when every other player passed in action 1:
nothing was learned between the two actions then, and the whole plan is judged
at action 1 by one set of rollouts (two sets would add noise, not information).
The two parts of a turn come from two sets of rollouts: their standard errors
add in quadrature.

>>> from qwixx_math.record import random_game
>>> review = review_game(random_game(players=1, seed=1))   # a solitaire record: exact
>>> review.table_size, len(review.decisions), review.optimal_decisions
(1, 12, 5)
>>> round(review.mean_loss, 3)
8.998
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .advice import SOLITAIRE_MODEL, Advisor
from .arena.registry import make_player, player_seed
from .display import printable
from .errors import IllegalMoveError, ParseError, check_whole_number
from .layouts import OFFICIAL, SheetLayout
from .model import Mark, Roll, TurnPlan
from .notation import format_plan, format_roll, format_sheet, mark_to_json
from .record import GameRecord, TurnRecord
from .rules import GameState, Phase, new_game
from .table import TableAdvisor, check_players
from .winadvice import ROLLOUT_PLAYER, WinAdvice, WinChoice, advise_win, rollout_shares

__all__ = ["MAX_REVIEW_ROLLOUTS", "MULTIPLAYER_NOTE", "OBJECTIVES", "TABLE_NOTE", "Decision",
           "Review", "review_game", "review_players"]

MULTIPLAYER_NOTE = ("multiplayer game: each decision is judged from this player's sheet "
                    "alone, as if they played on by themselves; opponents are not modelled")
TABLE_NOTE = ("each decision is judged with what the player knew then, as 'advise --players "
              "N --state' ranks it: a white-sum choice before the others' choices are known, "
              "the active player's action 1 likewise, their action 2 once every action 1 is")
#: The objectives a review judges by.
OBJECTIVES = ("ev", "win")
#: The most rollouts per choice a win review may ask for (each decision of the game is
#: ranked with that many rollouts of every legal choice).
MAX_REVIEW_ROLLOUTS = 1000
#: z of a two-sided 95% interval.
_Z95 = 1.959963984540054
#: Losses at most this large count as optimal (float noise of the solver's values).
_TOL = 1e-9


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed player and what it cost.

    ``best``/``best_value`` are the advice's first choice and its value (expected final
    score) at the moment of the decision; ``chosen_value`` is ``best_value`` minus the
    loss.  For the active player's turn in the table model, when the action-1 choice
    cost nothing, they are those of the action-2 moment (``action2_loss`` is the part of
    the loss charged there).  ``win_loss``/``win_se``/``win_best`` are set by a review
    with ``objective="win"``: the estimated share of the win lost and its standard error
    (both parts of an active turn added, their errors in quadrature), and the win
    advice's first choice; ``seed``/``rollouts`` say how it was estimated.
    """

    turn: int  #: 1-based turn number in the record
    active: bool
    sheet: str  #: the player's sheet before the turn (text notation)
    roll: Roll
    chosen: TurnPlan
    chosen_value: float
    best: TurnPlan
    best_value: float
    options: int
    action2_loss: float = 0.0
    win_loss: float | None = None
    win_se: float | None = None
    win_best: TurnPlan | None = None
    seed: int | None = None
    rollouts: int | None = None
    #: The win advice's own estimate of ``win_loss`` (the rollouts that ranked the choices,
    #: as ``advise --objective win --seed`` shows it): it leans high.
    win_loss_advice: float | None = None

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

        out = {"turn": self.turn, "active": self.active, "sheet": self.sheet,
               "roll": format_roll(self.roll), "chosen": plan(self.chosen),
               "chosen_value": self.chosen_value, "best": plan(self.best),
               "best_value": self.best_value, "loss": self.loss, "options": self.options}
        if self.active:
            out["action2_loss"] = self.action2_loss
        if self.win_loss is not None:
            assert self.win_best is not None
            out.update({"win_loss": self.win_loss, "win_se": self.win_se,
                        "win_best": plan(self.win_best), "seed": self.seed,
                        "rollouts": self.rollouts, "win_loss_advice": self.win_loss_advice})
        return out


@dataclass(frozen=True, slots=True)
class Review:
    """All decisions of one player in one game, with the totals and the proficiency figures.

    ``table_size`` is the model's number of players (1: solitaire) and ``model`` its
    name; ``objective`` is ``"ev"`` or ``"win"`` (then every decision has a win loss).
    """

    player: int
    name: str
    players: int
    decisions: tuple[Decision, ...]
    final_score: int
    #: The sheet the game was played on (:mod:`qwixx_math.layouts`).
    layout: SheetLayout = OFFICIAL
    table_size: int = 1
    model: str = SOLITAIRE_MODEL
    objective: str = "ev"
    seed: int | None = None
    #: Rollouts per choice asked for (None: each decision's default count).
    rollouts: int | None = None
    #: The rollout players (win objective): of the other seats, and of this seat's later
    #: decisions (:func:`~qwixx_math.winadvice.advise_win`'s ``opponents`` and ``own``).
    opponents: str | tuple[str, ...] | None = None
    own: str | None = None

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def mean_loss(self) -> float:
        """Mean expected-score loss per decision (0 for a game without decisions)."""
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    @property
    def optimal_decisions(self) -> int:
        return sum(1 for d in self.decisions if d.loss <= _TOL)

    # -- the win objective ----------------------------------------------------------------
    def _win_losses(self) -> list[tuple[float, float]]:
        return [(d.win_loss, d.win_se or 0.0) for d in self.decisions if d.win_loss is not None]

    @property
    def total_win_loss(self) -> float | None:
        """The estimated shares of the win lost, added up (None without the win objective)."""
        if self.objective != "win":
            return None
        return math.fsum(w for w, _ in self._win_losses())

    @property
    def mean_win_loss(self) -> float | None:
        """The mean estimated share of the win lost per decision (None without the win
        objective; 0 for a game without decisions)."""
        total = self.total_win_loss
        if total is None:
            return None
        return total / len(self.decisions) if self.decisions else 0.0

    @property
    def mean_win_se(self) -> float | None:
        """The standard error of :attr:`mean_win_loss`: the decisions' rollouts are
        independent (a seed each), so their variances add."""
        if self.objective != "win":
            return None
        n = len(self.decisions)
        return math.sqrt(math.fsum(s * s for _, s in self._win_losses())) / n if n else 0.0

    @property
    def mean_win_ci95(self) -> tuple[float, float] | None:
        """The 95% interval of :attr:`mean_win_loss` (normal approximation)."""
        mean, se = self.mean_win_loss, self.mean_win_se
        if mean is None or se is None:
            return None
        return (mean - _Z95 * se, mean + _Z95 * se)

    def costliest(self, n: int = 5) -> tuple[Decision, ...]:
        """The ``n`` decisions with the largest loss (losses > 0 only), costliest first: the
        expected-score loss, or for the win objective the win chance lost."""
        if self.objective == "win":
            def key(d: Decision) -> float:
                return d.win_loss or 0.0
        else:
            def key(d: Decision) -> float:
                return d.loss
        costly = [d for d in self.decisions if key(d) > _TOL]
        costly.sort(key=lambda d: (-key(d), d.turn))
        return tuple(costly[:n])

    @property
    def note(self) -> str | None:
        if self.table_size > 1:
            return TABLE_NOTE
        return MULTIPLAYER_NOTE if self.players > 1 else None

    def proficiency(self) -> dict[str, Any]:
        """The proficiency figures (``docs/review.md``): decisions, the mean and total
        expected-score loss, and for the win objective the mean win chance lost with its
        standard error and 95% interval; ``meaning``: :meth:`proficiency_text`."""
        out: dict[str, Any] = {"decisions": len(self.decisions),
                               "mean_ev_loss": self.mean_loss, "total_ev_loss": self.total_loss}
        if self.objective == "win":
            ci = self.mean_win_ci95
            assert ci is not None
            out.update({"mean_win_loss": self.mean_win_loss, "mean_win_se": self.mean_win_se,
                        "mean_win_ci95": list(ci), "total_win_loss": self.total_win_loss})
        out["meaning"] = self.proficiency_text()
        return out

    def proficiency_text(self) -> str:
        """The proficiency figures with their meaning, in words (the report's and a
        coach's line)."""
        n = len(self.decisions)
        text = (f"proficiency: mean loss {self.mean_loss:.3f} points per decision over {n} "
                f"decisions: on average each choice gave up {self.mean_loss:.3f} points of "
                f"expected final score against the model's best choice at that moment")
        if self.objective == "win":
            mean, ci = self.mean_win_loss, self.mean_win_ci95
            assert mean is not None and ci is not None
            how = (f"{self.rollouts} rollouts" if self.rollouts is not None
                   else "the advice's default rollouts")
            text += (f"; win chance lost {100 * mean:.2f} percentage points per decision, "
                     f"95% interval [{100 * ci[0]:.2f}, {100 * ci[1]:.2f}] (estimated by "
                     f"{how} per choice, seed {self.seed}; the rest of each game played by "
                     f"{self.own} for this seat, {_names(self.opponents)} for the others)")
        return text

    def to_json(self, top: int = 5) -> dict[str, Any]:
        out = {"player": self.name, "player_index": self.player,
               "final_score": self.final_score, "decisions": len(self.decisions),
               "optimal_decisions": self.optimal_decisions, "total_loss": self.total_loss,
               "mean_loss": self.mean_loss, "table_size": self.table_size,
               "model": self.model, "objective": self.objective,
               "proficiency": self.proficiency(),
               "costliest": [d.to_json() for d in self.costliest(top)],
               "all_decisions": [d.to_json() for d in self.decisions], "note": self.note}
        if self.objective == "win":
            opponents = self.opponents
            out.update({"seed": self.seed, "rollouts": self.rollouts, "own": self.own,
                        "opponents": opponents if isinstance(opponents, str | None)
                        else list(opponents)})
        if not self.layout.is_official:
            out["layout"] = self.layout.key
        return out

    def to_text(self, top: int = 5) -> str:
        lines = [f"{printable(self.name)}: {len(self.decisions)} decisions, "
                 f"{self.optimal_decisions} optimal; expected-score loss "
                 f"{self.total_loss:.3f} in total, {self.mean_loss:.3f} per decision; "
                 f"final score {self.final_score}",
                 f"  model: {self.model}",
                 f"  {self.proficiency_text()}"]
        if self.note:
            lines.append(f"  note: {self.note}")
        costly = self.costliest(top)
        if costly:
            lines.append("  costliest decisions:")
            for d in costly:
                role = "active" if d.active else "passive"
                line = (f"    turn {d.turn:>3} ({role}) roll {format_roll(d.roll)} sheet "
                        f"{d.sheet}: played {_words(d.chosen, d.active, self.layout)} "
                        f"({d.chosen_value:.3f}); better "
                        f"{_words(d.best, d.active, self.layout)} ({d.best_value:.3f}); "
                        f"loss {d.loss:.3f}")
                if d.win_loss is not None and d.win_best is not None:
                    line += (f"; win chance lost {100 * d.win_loss:.1f} ± "
                             f"{100 * (d.win_se or 0.0):.1f} points (win advice: "
                             f"{_words(d.win_best, d.active, self.layout)})")
                lines.append(line)
        else:
            lines.append("  every decision was optimal")
        return "\n".join(lines)


def _names(names: str | tuple[str, ...] | None) -> str:
    return names if isinstance(names, str) else ", ".join(names or ())


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
    raise ParseError(f"no player named {printable(repr(player))}; the record has "
                     f"{', '.join(printable(repr(p)) for p in record.players)}")


# -- the replay -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Moment:
    """One turn of the record replayed: the state before the roll, after the roll, and
    after everybody's action 1 (phase ACTION2, or OVER when no action 2 follows)."""

    turn: int
    record: TurnRecord
    before: GameState
    rolled: GameState
    after1: GameState


def _replay(record: GameRecord) -> tuple[list[_Moment], GameState]:
    """Every turn of ``record`` checked by the rules core (IllegalMoveError naming the first
    illegal turn), and the final state."""
    state = new_game(ruleset=record.ruleset, first=record.first, layout=record.layout)
    moments: list[_Moment] = []
    for k, turn in enumerate(record.turns, start=1):
        if state.is_over:
            raise IllegalMoveError(state.ended_by or "R13",
                                   f"turn {k} is played after the game ended")
        try:
            if len(turn.action1) != state.players:
                raise ParseError(f"turn {k} gives {len(turn.action1)} action-1 choices for "
                                 f"{state.players} players")
            after = state.play_turn(turn.roll, turn.action1, turn.action2)  # the exact rule
        except IllegalMoveError as exc:
            raise _in_turn(exc, k) from None
        rolled = state.with_roll(turn.roll)
        moments.append(_Moment(k, turn, state, rolled, rolled.with_action1(turn.action1)))
        state = after
    return moments, state


def _in_turn(exc: IllegalMoveError, turn: int) -> IllegalMoveError:
    reason = str(exc).removeprefix(f"{exc.rule}: ")
    return IllegalMoveError(exc.rule, f"turn {turn}: {reason} (review needs a legal record; run "
                                      "'qwixx-math validate' on it)", exc.player)


# -- the judges -------------------------------------------------------------------------------

def _solitaire_decision(advisor: Advisor, m: _Moment, p: int) -> Decision:
    """The solitaire review: every choice valued with the rest of the turn as recorded."""
    turn = m.record
    try:
        if p == m.rolled.active:
            advice = advisor.advise(m.rolled, None, turn.action1)
            chosen = TurnPlan(turn.action1[p], turn.action2)
        else:
            advice = advisor.advise_passive(m.rolled, p, None, turn.action1, turn.action2)
            chosen = TurnPlan(turn.action1[p], None)
        ranked = advice.find(chosen)
    except IllegalMoveError as exc:
        raise _in_turn(exc, m.turn) from None
    best = advice.best
    return Decision(m.turn, not advice.passive, format_sheet(m.before.sheets[p]), turn.roll,
                    ranked.plan, ranked.expected_score, best.plan, best.expected_score,
                    len(advice.plans))


def _action1_part(plans: Sequence[tuple[TurnPlan, float]], action1: Mark | None
                  ) -> tuple[int, float]:
    """The index of the best-valued plan (``plans`` are best first) that starts with
    ``action1``, and the loss of choosing that action 1: the value of the best plan minus
    the best value of a plan that starts with it."""
    for i, (plan, value) in enumerate(plans):
        if plan.action1 == action1:
            return i, plans[0][1] - value
    raise AssertionError("a legal action 1 starts some legal plan")


def _table_decision(advisor: TableAdvisor, m: _Moment, p: int) -> Decision:
    """The table review: each moment ranked as ``advise --players N --state`` ranks it."""
    turn, sheet = m.record, format_sheet(m.before.sheets[p])
    a1 = turn.action1[p]
    advice = advisor.advise_player(m.rolled, p)
    best = advice.best
    if p != m.rolled.active:
        ranked = advice.find(TurnPlan(a1, None))
        return Decision(m.turn, False, sheet, turn.roll, ranked.plan, ranked.expected_score,
                        best.plan, best.expected_score, len(advice.plans))
    _, loss1 = _action1_part([(r.plan, r.expected_score) for r in advice.plans], a1)
    chosen = TurnPlan(a1, turn.action2)
    if m.after1.phase is not Phase.ACTION2:  # the game ended in action 1: no action 2
        return Decision(m.turn, True, sheet, turn.roll, chosen, best.expected_score - loss1,
                        best.plan, best.expected_score, len(advice.plans))
    advice2 = advisor.advise_player(m.after1, p)
    ranked2 = advice2.find(chosen)
    loss2 = ranked2.loss
    if loss1 > 0:
        return Decision(m.turn, True, sheet, turn.roll, chosen,
                        best.expected_score - loss1 - loss2, best.plan, best.expected_score,
                        len(advice.plans), loss2)
    return Decision(m.turn, True, sheet, turn.roll, chosen, ranked2.expected_score,
                    advice2.best.plan, advice2.best.expected_score, len(advice.plans), loss2)


def _decision_seed(seed: int, turn: int, part: int) -> int:
    return (seed + 2 * (turn - 1) + part) % 2**63


def _advise_win(judge: _Judge, state: GameState, p: int, seed: int) -> WinAdvice:
    return advise_win(state, p, rollouts=judge.rollouts, seed=seed, progress=judge.progress,
                      opponents=judge.opponents, own=judge.own)


def _win_part(decision: Decision, m: _Moment, p: int, judge: _Judge) -> Decision:
    """``decision`` with the win chance lost at its moment(s): the choice to compare with
    is :func:`advise_win`'s first, the loss is measured on fresh rollouts (:func:`_fresh`)."""
    turn = m.record
    a1 = turn.action1[p]
    s1 = _decision_seed(judge.seed, m.turn, 0)
    win1 = _advise_win(judge, m.rolled, p, s1)
    chosen = TurnPlan(a1, turn.action2)
    # (state, its win advice, the choice compared with the advice's first, the seed)
    parts: list[tuple[GameState, WinAdvice, WinChoice, int]]
    if p != m.rolled.active:
        parts = [(m.rolled, win1, win1.find(TurnPlan(a1, None)), s1)]
    elif m.after1.phase is Phase.ACTION2 and all(
            mark is None for s, mark in enumerate(turn.action1) if s != p):
        # every other seat passed: nothing was learned between the two actions, so the
        # turn is the whole plan at action 1 (one set of rollouts, not two)
        parts = [(m.rolled, win1, win1.find(chosen), s1)]
    else:
        i, _ = _action1_part([(c.plan, c.win) for c in win1.choices], a1)
        parts = [(m.rolled, win1, win1.choices[i], s1)]
        if m.after1.phase is Phase.ACTION2:
            s2 = _decision_seed(judge.seed, m.turn, 1)
            win2 = _advise_win(judge, m.after1, p, s2)
            parts.append((m.after1, win2, win2.find(chosen), s2))
    loss = var = in_sample = 0.0
    for state, advice, choice, seed in parts:
        in_sample += choice.win_loss
        if choice.win_loss > 0:  # a choice tied with the first costs nothing
            part_loss, part_se = _fresh(judge, state, p, advice.best.plan, choice.plan, seed)
            loss += part_loss
            var += part_se * part_se
    shown = next((a.best.plan for _, a, c, _ in parts if c.win_loss > 0), parts[-1][1].best.plan)
    return Decision(decision.turn, decision.active, decision.sheet, decision.roll,
                    decision.chosen, decision.chosen_value, decision.best, decision.best_value,
                    decision.options, decision.action2_loss, loss, math.sqrt(var), shown, s1,
                    min(a.rollouts for _, a, _, _ in parts), in_sample)


#: Added (mod 2**63) to a decision's seed for the rollouts that measure its win loss, a
#: stream apart from those that ranked the choices.
EVALUATION_SEED_OFFSET = 2**62


def _fresh(judge: _Judge, state: GameState, p: int, best: TurnPlan, chosen: TurnPlan,
           seed: int) -> tuple[float, float]:
    """The win advice's first choice's share of the win minus the chosen one's, on rollouts
    of their own (common dice, another seed), and the paired standard error: the rollouts
    that ranked the choices are not reused, as the best of several noisy estimates leans
    high (the winner's curse)."""
    n = state.players
    others = ([judge.opponents] * (n - 1) if isinstance(judge.opponents, str)
              else list(judge.opponents))
    names = [*others[:p], judge.own, *others[p:]]
    seed = (seed + EVALUATION_SEED_OFFSET) % 2**63
    players = [make_player(name, state.ruleset, player_seed(seed, s))
               for s, name in enumerate(names)]
    shares, _ = rollout_shares(state, p, [best, chosen], players, judge.rollouts, seed)
    diffs = [b - c for b, c in zip(shares[0], shares[1], strict=True)]
    k = len(diffs)
    mean = math.fsum(diffs) / k
    var = math.fsum((d - mean) ** 2 for d in diffs) / (k - 1)
    return mean, math.sqrt(var / k)


# -- the entry points -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Judge:
    """The checked options of a review: the model's advisor and the objective."""

    advisor: Advisor
    table_size: int
    objective: str
    rollouts: int | None
    seed: int
    progress: bool | None
    opponents: str | tuple[str, ...] = ROLLOUT_PLAYER
    own: str = ROLLOUT_PLAYER

    @property
    def model(self) -> str:
        return self.advisor.model

    def decisions(self, moments: Sequence[_Moment], p: int) -> Iterator[Decision]:
        advisor = self.advisor
        for m in moments:
            if isinstance(advisor, TableAdvisor):
                d = _table_decision(advisor, m, p)
            else:
                d = _solitaire_decision(advisor, m, p)
            if self.objective == "win":
                d = _win_part(d, m, p, self)
            yield d


def _judge(record: GameRecord, advisor: Advisor | None, table_size: int | None,
           objective: str, rollouts: int | None, seed: int, progress: bool | None,
           opponents: str | Sequence[str], own: str) -> _Judge:
    if not isinstance(record, GameRecord):
        raise ParseError(f"review needs a GameRecord, not {type(record).__name__}")
    if objective not in OBJECTIVES:
        raise ParseError(f"objective must be one of {', '.join(OBJECTIVES)}, not "
                         f"{printable(repr(objective))}")
    if advisor is not None and not isinstance(advisor, Advisor):
        raise ParseError(f"advisor must be an Advisor, not {type(advisor).__name__}")
    if progress is not None and not isinstance(progress, bool):
        raise ParseError(f"progress must be True, False or None, not {progress!r}")
    n = len(record.players)
    if table_size is None:
        table_size = (advisor.players if isinstance(advisor, TableAdvisor)
                      else 1 if advisor is not None else n)
    table_size = check_players(table_size)
    if table_size not in (1, n):
        raise ParseError(f"R3: --players {table_size}: the record has {n} players; a review "
                         f"judges by the table of its own size ({n}) or by the solitaire "
                         "model (1)")
    if objective == "win":
        if table_size == 1:
            raise ParseError("R3: the win objective needs a table of 2 to 5 players (a player "
                             "alone always wins); review the record's table size")
        if not record.layout.is_official:
            raise ParseError(f"the win objective works on the official sheet only (its "
                             f"rollouts play the arena's players); the record is of layout "
                             f"{record.layout.name}")
        if rollouts is not None:
            rollouts = check_whole_number("rollouts", rollouts, 2, MAX_REVIEW_ROLLOUTS)
        seed = check_whole_number("seed", seed, 0, 2**63 - 1)
    elif rollouts is not None:
        raise ParseError("rollouts: only with the win objective")
    if advisor is None:
        if table_size == 1:
            advisor = Advisor.for_ruleset(record.ruleset, progress=progress,
                                          layout=record.layout)
        else:
            advisor = TableAdvisor.for_ruleset(record.ruleset, players=table_size,
                                               progress=progress, layout=record.layout)
    elif table_size > 1 and not (isinstance(advisor, TableAdvisor)
                                 and advisor.players == table_size):
        raise ParseError(f"R3: a review by the table of {table_size} players needs "
                         f"TableAdvisor.for_ruleset(players={table_size}), not this advisor "
                         f"({advisor.model})")
    elif table_size == 1 and isinstance(advisor, TableAdvisor) and advisor.players != n:
        raise ParseError(f"R3: this advisor's table is for {advisor.players} players; the "
                         f"record has {n}")
    others = opponents if isinstance(opponents, str) or not isinstance(
        opponents, Sequence) else tuple(opponents)  # advise_win checks the names
    return _Judge(advisor, table_size, objective, rollouts, seed, progress, others, own)


def _review(judge: _Judge, record: GameRecord, moments: Sequence[_Moment], final: GameState,
            player: str | int | None) -> Review:
    p = _player_index(record, player)
    decisions = tuple(judge.decisions(moments, p))
    win = judge.objective == "win"
    return Review(p, record.players[p], len(record.players), decisions,
                  final.sheets[p].score, record.layout, judge.table_size, judge.model,
                  judge.objective, judge.seed if win else None, judge.rollouts,
                  judge.opponents if win else None, judge.own if win else None)


def review_game(record: GameRecord, player: str | int | None = None,
                advisor: Advisor | None = None, *, table_size: int | None = None,
                objective: str = "ev", rollouts: int | None = None, seed: int = 0,
                progress: bool | None = None, opponents: str | Sequence[str] = ROLLOUT_PLAYER,
                own: str = ROLLOUT_PLAYER) -> Review:
    """Review ``player``'s decisions (a name or index; default the first player).

    ``table_size``: the model's number of players, the record's own (the table model,
    what ``advise --players N`` ranks by) or 1 (the solitaire model).  By default the
    advisor's (a :class:`~qwixx_math.table.TableAdvisor`'s N, 1 for a plain
    :class:`~qwixx_math.advice.Advisor`), else the record's number of players.
    ``objective="win"`` adds the win chance lost per decision, estimated by
    :func:`~qwixx_math.winadvice.advise_win` with ``rollouts`` per choice (2 to
    :data:`MAX_REVIEW_ROLLOUTS`; None: the advice's default budget) from ``seed``.
    ``opponents``/``own``: the rollout players of the other seats and of the reviewed
    seat's later decisions (:func:`~qwixx_math.winadvice.advise_win`'s, default ``win``).
    ``progress``: a progress bar while a solver table is built (None: on a terminal).

    The record must be legal (see ``qwixx-math validate``): the first illegal turn
    raises :class:`IllegalMoveError` naming it.
    """
    judge = _judge(record, advisor, table_size, objective, rollouts, seed, progress,
                   opponents, own)
    _player_index(record, player)  # a wrong name is refused before any work
    moments, final = _replay(record)
    return _review(judge, record, moments, final, player)


def review_players(record: GameRecord, players: Sequence[str | int] | None = None,
                   advisor: Advisor | None = None, *, table_size: int | None = None,
                   objective: str = "ev", rollouts: int | None = None, seed: int = 0,
                   progress: bool | None = None,
                   opponents: str | Sequence[str] = ROLLOUT_PLAYER,
                   own: str = ROLLOUT_PLAYER) -> tuple[Review, ...]:
    """:func:`review_game` for several players (default: every player)."""
    judge = _judge(record, advisor, table_size, objective, rollouts, seed, progress,
                   opponents, own)
    chosen = list(players) if players is not None else list(range(len(record.players)))
    for p in chosen:
        _player_index(record, p)
    moments, final = _replay(record)
    return tuple(_review(judge, record, moments, final, p) for p in chosen)

