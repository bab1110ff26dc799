"""Move advice: every legal plan ranked by its expected final score under optimal play.

The values come from the solitaire solver (:mod:`qwixx_math.solver`): a plan is
worth the optimal expected final score of the position it leads to (or that
position's score, when the game is over).  The plans themselves come from the
rules core, so the advice never offers an illegal move.

In a multiplayer game the advice is **single-player advice** (model
:data:`SOLITAIRE_MODEL`): it looks at one player's own sheet, respects the
colours closed by anyone and the dice out of play, and then assumes the player
goes on alone.  Opponents are not modelled: neither their chances of closing
rows (which can end the game early) nor the race to win.  The exact value at a
table of N players, with the free marks of the others' rolls, is
:class:`qwixx_math.table.TableAdvisor`'s (``docs/table.md``); both rank with the
methods written here.

Ranking: best expected score first; plans of equal value keep the rules core's
order (action 1 first, then action 2, "no mark" before any mark).

>>> from qwixx_math.advice import Advisor
>>> from qwixx_math.notation import parse_roll
>>> from qwixx_math.rules import new_game
>>> advisor = Advisor.for_ruleset(progress=False)   # loads (or builds) the solver table
>>> advice = advisor.advise(new_game(1), parse_roll("w:1,1/r:1/y:6/g:6/b:1"))
>>> str(advice.best.plan), advice.best.loss        # yellow 2, then red 2 (white 1 + red 1)
('y2/r2', 0.0)
>>> [str(p.plan) for p in advice.plans[1:4]]       # one mark only: 5.12 points less
['-/r2', 'r2/-', 'y2/-']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Any

from .errors import IllegalMoveError, InvalidStateError, ParseError
from .layouts import OFFICIAL, SheetLayout, layout_named
from .model import Colour, LuckyMark, Mark, Roll, Sheet, TurnPlan
from .notation import colour_set, format_plan, format_roll, mark_to_json
from .rules import (
    GameState,
    Phase,
    action1_choices,
    action1_outcomes,
    closes,
    legal_action2,
    plan_key,
    roll_for,
)
from .ruleset import Ruleset
from .solver import SolverTable, Variant, solve
from .solver.lucky import check_lucky_ruleset

__all__ = ["SOLITAIRE_MODEL", "UNKNOWN", "Advice", "Advisor", "RankedPlan", "Unknown", "advise",
           "consequences", "in_words"]

#: The model :class:`Advisor` ranks by (named in every :class:`Advice`).
SOLITAIRE_MODEL = "solitaire (this player alone; opponents not modelled)"


class Unknown(Enum):
    """The type of :data:`UNKNOWN`: a choice that has not been made yet."""

    UNKNOWN = "unknown"


#: The active player's action 2 when it is not known (the default of ``advise_passive``).
UNKNOWN = Unknown.UNKNOWN


@dataclass(frozen=True, slots=True)
class RankedPlan:
    """One choice with the expected final score after it and its loss against the best.

    For a passive player's choice only ``plan.action1`` is set, and passing is
    not a penalty.
    """

    plan: TurnPlan
    expected_score: float
    loss: float
    passive: bool = False

    @property
    def penalty(self) -> bool:
        """True for the active player's plan that marks nothing (R11)."""
        return self.plan.penalty and not self.passive

    def describe(self, layout: SheetLayout = OFFICIAL) -> str:
        """The choice in plain words (action 2 names the die, a cell colour of ``layout``)."""
        if self.passive:
            if self.plan.action1 is None:
                return "let the white sum go (no penalty for a passive player)"
            return f"mark {self.plan.action1.describe()} with the white sum"
        return self.plan.describe(layout)

    def to_json(self, layout: SheetLayout = OFFICIAL) -> dict[str, Any]:
        return {"action1": mark_to_json(self.plan.action1),
                "action2": mark_to_json(self.plan.action2),
                "penalty": self.penalty, "expected_score": self.expected_score,
                "loss": self.loss, "plan": format_plan(self.plan),
                "description": self.describe(layout)}


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal choice of one player for one roll, best first, and the model that ranked
    them (:data:`SOLITAIRE_MODEL` or a table model, :func:`qwixx_math.table.table_model`)."""

    player: int
    passive: bool
    plans: tuple[RankedPlan, ...]
    model: str = SOLITAIRE_MODEL
    #: The sheet the plans are marked on (:mod:`qwixx_math.layouts`).
    layout: SheetLayout = OFFICIAL
    #: The position the advice was given for (the advisors set it; the picture draws the
    #: player's sheet, the roll and the closed colours from it), or None.
    state: GameState | None = field(default=None, compare=False, repr=False)

    @property
    def best(self) -> RankedPlan:
        """The first (optimal) choice."""
        return self.plans[0]

    def find(self, plan: TurnPlan) -> RankedPlan:
        """The ranked entry of ``plan``; IllegalMoveError if it is not a legal choice."""
        for ranked in self.plans:
            if ranked.plan == plan:
                return ranked
        legal = ", ".join(format_plan(r.plan) for r in self.plans)
        raise IllegalMoveError("R5" if self.passive else "R6",
                               f"{format_plan(plan)} is not a legal choice here; legal: {legal}",
                               self.player)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "passive": self.passive,
                               "model": self.model,
                               "plans": [p.to_json(self.layout) for p in self.plans]}
        if not self.layout.is_official:
            out["layout"] = self.layout.key
        return out

    # -- text and picture (issue 35) ----------------------------------------------------------
    def to_text(self, top: int | None = None) -> str:
        """The ranked choices as a table (the ``top`` best, or all), then the model.

        >>> from qwixx_math.model import Mark, Colour
        >>> plans = (RankedPlan(TurnPlan(Mark(Colour.RED, 2)), 70.5, 0.0),
        ...          RankedPlan(TurnPlan(), 61.25, 9.25))
        >>> print(Advice(0, False, plans))
        rank  plan       expected     loss  in words
           1  r2/-         70.500    0.000  mark red 2 with the white sum
           2  -/-          61.250    9.250  mark nothing and take a penalty
        model: solitaire (this player alone; opponents not modelled)
        """
        if top is not None and (not isinstance(top, int) or isinstance(top, bool) or top < 1):
            raise ParseError(f"top must be a whole number >= 1 or None, not {top!r}")
        shown = self.plans if top is None else self.plans[:top]
        lines = [f"{'rank':>4}  {'plan':<9} {'expected':>9} {'loss':>8}  in words"]
        for rank, ranked in enumerate(shown, start=1):
            lines.append(f"{rank:>4}  {ranked.plan!s:<9} {ranked.expected_score:9.3f} "
                         f"{ranked.loss:8.3f}  {ranked.describe(self.layout)}")
        if len(shown) < len(self.plans):
            lines.append(f"({len(self.plans) - len(shown)} more choices)")
        lines.append(f"model: {self.model}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def to_svg(self, top: int = 1) -> str:
        """The player's sheet, the roll and the best plan outlined, the next ``top - 1``
        choices listed under it (:func:`qwixx_math.svg.advice_svg`; needs :attr:`state`)."""
        from .svg import advice_svg

        return advice_svg(self, top)

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the advice as a picture (or as text when its position is unknown)."""
        return None if self.state is None else self.to_svg(top=3)


class Advisor:
    """Ranks plans with one solver table (built for one value of R15's option).

    This class gives solitaire advice (:data:`SOLITAIRE_MODEL`); the table
    advisor (:class:`qwixx_math.table.TableAdvisor`) is a subclass that changes
    only what comes after a roll: the value lookup (``before_me``), the state
    check and the model's name.
    """

    #: The model this advisor ranks by.
    model: str = SOLITAIRE_MODEL

    def __init__(self, table: SolverTable) -> None:
        if not isinstance(table, SolverTable):
            raise ParseError(f"an Advisor needs a SolverTable, not {type(table).__name__}")
        if table.players != 1:
            raise ParseError("Advisor gives solitaire advice from the one-player table; use "
                             "qwixx_math.table.TableAdvisor for a table of more players")
        self.use_table(table)

    def use_table(self, table: SolverTable) -> None:
        """Advise from ``table`` (no checks: the constructors check it)."""
        #: The printed sheet of the table (:mod:`qwixx_math.layouts`): every sheet and
        #: state advised must be of this layout.
        self.sheet_layout: SheetLayout = table.variant.sheet
        self.table = table
        #: The table's value of a sheet, closed colours and ``before_me``, without input
        #: checks (:meth:`SolverTable.unchecked_value`).
        self.lookup = table.unchecked_value

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset | None = None, *, progress: bool | None = None,
                    layout: SheetLayout | str | None = None) -> Advisor:
        """The advisor for ``ruleset`` (default: official) on the sheet ``layout`` (a
        SheetLayout or a published name; default the official sheet), solving or loading
        its table."""
        if ruleset is not None and not isinstance(ruleset, Ruleset):
            raise ParseError(f"ruleset must be a Ruleset, not {type(ruleset).__name__}")
        if progress is not None and not isinstance(progress, bool):
            raise ParseError(f"progress must be True, False or None, not {progress!r}")
        return _advisor(solved_game(ruleset, 1), progress, layout_or_official(layout))

    @property
    def action2_after_action1_end(self) -> bool:
        return self.table.action2_after_action1_end

    def check_ruleset(self, ruleset: Ruleset) -> None:
        """Refuse a ruleset of another R15 option than the table's (its values would be
        wrong)."""
        if not isinstance(ruleset, Ruleset):
            raise ParseError(f"expected a Ruleset, not {type(ruleset).__name__}")
        if ruleset.action2_after_action1_end != self.action2_after_action1_end:
            raise ParseError(
                "this advisor's table was solved with action 2 after the game ends "
                f"{'allowed' if self.action2_after_action1_end else 'forbidden'}; "
                "the game's ruleset says otherwise (use Advisor.for_ruleset(ruleset))",
                rule="R15")
        check_lucky_ruleset(self.table.variant, ruleset)

    def check_layout(self, layout: SheetLayout) -> None:
        """Refuse a sheet of another layout than the table's (its values would be wrong)."""
        if not isinstance(layout, SheetLayout):
            raise ParseError(f"expected a SheetLayout, not {type(layout).__name__}")
        mine = self.sheet_layout
        if layout is not mine and layout != mine:
            raise ParseError(
                f"this advisor's table is of the {mine.name} sheet; the sheet is of layout "
                f"{layout.name} (use Advisor.for_ruleset(..., layout={layout.key!r}))")


    def _check_state(self, state: GameState) -> None:
        """Refuse a state this advisor's model cannot value (here: another R15 option or
        another sheet layout)."""
        self.check_ruleset(state.ruleset)
        self.check_layout(state.layout)

    # -- values -------------------------------------------------------------------------------
    def value(self, sheet: Sheet, closed: Iterable[Colour | str] = frozenset()) -> float:
        """Optimal expected final score of ``sheet`` before a roll, playing on alone.

        ``closed``: colours closed by anyone, as Colour values or names (a row this
        sheet locked counts as closed anyway).  A finished game (two colours closed,
        or four penalties) is worth its score.
        """
        if not isinstance(sheet, Sheet):
            raise ParseError(f"expected a Sheet, not {type(sheet).__name__} "
                             "(parse_sheet reads the text form)")
        self.check_layout(sheet.layout)
        return self.lookup(sheet, colour_set(closed, "closed colours"), 0)

    def _after_turn(self, sheet: Sheet, closed: frozenset[Colour]) -> float:
        """The value of the active player's sheet after their own turn (solitaire: they
        roll next)."""
        return self.lookup(sheet, closed, 0)

    def _before_me_after(self, rolled: GameState, player: int) -> int:
        """Other players' rolls, after this one, before ``player``'s next own roll
        (solitaire: none, the player goes on alone)."""
        return 0

    def state_value(self, state: GameState, player: int) -> float:
        """:meth:`value` of ``player``'s sheet in ``state`` (its score once the game is over)."""
        if not isinstance(state, GameState):
            raise ParseError(f"expected a GameState, not {type(state).__name__}")
        if not (isinstance(player, int) and not isinstance(player, bool)
                and 0 <= player < state.players):
            raise ParseError(f"player {player!r} does not exist")
        if state.is_over:
            return float(state.sheets[player].score)
        return self.value(state.sheets[player], state.closed)

    # -- advice -------------------------------------------------------------------------------
    def advise(self, state: GameState, roll: Roll | None = None,
               others: Sequence[Mark | None] | None = None) -> Advice:
        """Every legal plan of the active player, ranked (see the module docstring).

        ``state`` is in the ``ROLL`` phase with ``roll`` given, or in the ``ACTION1``
        phase.  ``others``: the other players' action-1 choices, one entry per
        player (the active player's ignored); by default they pass.
        """
        rolled = _rolled(state, roll)
        self._check_state(rolled)
        a = rolled.active
        value = self._after_turn
        pos = rolled.layout.pos
        forced = bool(rolled.layout.bar)  # a boxed cell's cross forces more (Bonus A)
        scored: list[tuple[float, TurnPlan]] = []
        for a1, after1 in action1_outcomes(rolled, a, action1_choices(rolled, others)):
            # The sheet and the closed colours settle the value (value() knows when the
            # game is over), so action 2 is applied to the sheet directly, not via
            # with_action2; tests compare this with playing every plan out.
            sheet, closed = after1.sheets[a], after1.closed
            if after1.phase is Phase.OVER:
                scored.append((float(sheet.score), TurnPlan(a1, None)))
                continue
            scored.append((value(sheet.with_penalty() if a1 is None else sheet, closed),
                           TurnPlan(a1, None)))
            for a2 in legal_action2(after1):
                if forced:  # the forced crosses of action 2 (BA1-BA6): the rules core's
                    after = after1.with_action2(a2)
                    mine = after.sheets[a]
                    scored.append((float(mine.score) if after.is_over
                                   else value(mine, after.closed), TurnPlan(a1, a2)))
                    continue
                ci = a2.colour.index
                marked = (sheet.seconded(ci, pos[ci][a2.number]) if a2.second  # DA1
                          else sheet.marked(ci, pos[ci][a2.number]))
                scored.append((value(marked, closed | {a2.colour}
                                     if closes(rolled.layout, a2) else closed),
                               TurnPlan(a1, a2)))
        return Advice(a, False, _rank(scored, rolled.layout, passive=False), self.model,
                      rolled.layout, rolled)

    def advise_passive(self, state: GameState, player: int, roll: Roll | None = None,
                       others: Sequence[Mark | None] | None = None,
                       action2: Mark | Unknown | None = UNKNOWN) -> Advice:
        """A non-active player's choices for the white sum: pass or mark it, ranked.

        Everybody else's action-1 choices are ``others`` (default: they pass); a
        colour they close in this action 1 is closed for the valuation, and may end
        the game (R14), but their sheets are not this player's concern.  The active
        player's action 2 is unknown by default and then **not** applied: no
        penalty is assumed for them (nor the end of the game at their fourth), no
        close.  A known ``action2`` (a mark, or None for "no mark", e.g. in a
        review) is applied when the game goes on after action 1; if this player's
        choice makes it illegal (by closing its colour), that evaluation goes on
        without it.  A known action 2 that is illegal even when this player passes
        (another cell, a number the roll does not give, R6) is refused with
        IllegalMoveError.  The value is that of this player's sheet afterwards, before
        the next roll.

        A state in the ``ACTION2`` phase is refused: every action-1 choice is
        made, so there is nothing left for a passive player to decide.
        """
        if isinstance(state, GameState) and state.phase is Phase.ACTION2 and roll is None:
            raise ParseError(f"the state is in the action2 phase: player {player!r}'s action-1 "
                             "choice is made, so a passive player has nothing to decide")
        rolled = _rolled(state, roll)
        self._check_state(rolled)
        if not (isinstance(player, int) and not isinstance(player, bool)
                and 0 <= player < rolled.players):
            raise ParseError(f"player {player!r} does not exist")
        if player == rolled.active:
            raise ParseError(f"player {player} is the active player; use advise()")
        if action2 is not None and action2 is not UNKNOWN and not isinstance(action2, Mark):
            raise ParseError(f"action2 must be a Mark or None, not {action2!r}")
        before_me = self._before_me_after(rolled, player)
        outcomes = list(action1_outcomes(rolled, player, action1_choices(rolled, others, player)))
        if isinstance(action2, Mark):
            _check_known_action2(outcomes, action2, rolled.active)
        scored: list[tuple[float, TurnPlan]] = []
        for a1, after in outcomes:
            if after.phase is Phase.ACTION2 and after.ended_by is None \
                    and action2 is not UNKNOWN:
                try:
                    after = after.with_action2(action2)
                except IllegalMoveError:
                    after = after.with_action2(None)
            sheet = after.sheets[player]
            if after.ended_by is not None:  # ended in action 1 (or by the known action 2)
                value = float(sheet.score)
            else:
                value = self.lookup(sheet, after.closed, before_me)
            scored.append((value, TurnPlan(a1, None)))
        return Advice(player, True, _rank(scored, rolled.layout, passive=True), self.model,
                      rolled.layout, rolled)

    def advise_action2(self, state: GameState) -> Advice:
        """The active player's action-2 choices once everybody's action 1 is known.

        ``state`` is in the ``ACTION2`` phase (``state.action1`` holds every choice).
        The choices are "no mark" (a penalty only when the active player's action 1
        was none, R11) and each legal action-2 mark, each valued by the position after
        the turn (its score when the game ends, R13, R14, R15).
        """
        if not isinstance(state, GameState):
            raise ParseError(f"advice needs a GameState, not {type(state).__name__}")
        if state.phase is not Phase.ACTION2:
            raise ParseError(f"action-2 advice needs a state in the action2 phase, not "
                             f"{state.phase.value}")
        self._check_state(state)
        roll, action1 = state.roll, state.action1
        assert roll is not None and action1 is not None
        for colour in state.closed:
            if roll.die(colour) is not None and not any(
                    m is not None and closes(state.layout, m) and m.colour is colour
                    for m in action1):
                raise InvalidStateError(
                    "R9", f"{colour.value} was closed before this turn, so its die left play, "
                          f"but the roll shows it ({format_roll(roll)})")
        a = state.active
        a1 = action1[a]
        scored: list[tuple[float, TurnPlan]] = []
        for a2 in (None, *legal_action2(state)):
            after = state.with_action2(a2)
            sheet = after.sheets[a]
            value = (float(sheet.score) if after.is_over
                     else self._after_turn(sheet, after.closed))
            scored.append((value, TurnPlan(a1, a2)))
        return Advice(a, False, _rank(scored, state.layout, passive=False), self.model,
                      state.layout, state)

    def advise_player(self, state: GameState, player: int, roll: Roll | None = None,
                      others: Sequence[Mark | None] | None = None) -> Advice:
        """Whatever ``player`` has to decide in ``state``: the active player's plans
        (:meth:`advise`; ``ROLL`` phase with ``roll``, or ``ACTION1``), a passive
        player's white-sum choices (:meth:`advise_passive`), or, in the ``ACTION2``
        phase, the active player's action-2 choices (:meth:`advise_action2`).  A
        passive player in the ``ACTION2`` phase and a finished game are refused."""
        if not isinstance(state, GameState):
            raise ParseError(f"advice needs a GameState, not {type(state).__name__}")
        if not (isinstance(player, int) and not isinstance(player, bool)
                and 0 <= player < state.players):
            raise ParseError(f"player {player!r} does not exist (the game has "
                             f"{state.players} players, numbered from 0)")
        if state.is_over:
            raise IllegalMoveError(state.ended_by or "R13",
                                   "the game is over; there is nothing to decide")
        if state.phase is Phase.ACTION2:
            if roll is not None:
                raise ParseError("the state in the action2 phase has its roll already")
            if player != state.active:
                return self.advise_passive(state, player)  # refused, with the reason
            return self.advise_action2(state)
        if player == state.active:
            return self.advise(state, roll, others)
        return self.advise_passive(state, player, roll, others)


def _check_known_action2(outcomes: Sequence[tuple[Mark | None, GameState]], action2: Mark,
                         active: int) -> None:
    """Refuse a known action 2 that is illegal whatever the passive player does: it is
    checked after the passive player's pass (a mark of theirs can only close a colour,
    which makes an action 2 illegal, never legal).  Nothing to check when the game ended
    in action 1 (the action 2 is not applied then)."""
    for a1, after in outcomes:
        if a1 is None and after.phase is Phase.ACTION2 and after.ended_by is None:
            try:
                after.with_action2(action2)
            except IllegalMoveError as exc:
                raise IllegalMoveError(
                    exc.rule, f"the active player's action 2 ({action2.describe()}) is not "
                              f"legal here: {str(exc).partition(': ')[2]}", active) from None


def _rolled(state: GameState, roll: Roll | None) -> GameState:
    """``state`` rolled (phase ACTION1); the errors are those of ``rules.legal_plans``."""
    return roll_for(state, roll)[0]


def _rank(scored: list[tuple[float, TurnPlan]], layout: SheetLayout, passive: bool
          ) -> tuple[RankedPlan, ...]:
    if layout is OFFICIAL:
        scored.sort(key=lambda vp: (-vp[0], vp[1].sort_key))
    else:
        scored.sort(key=lambda vp: (-vp[0], plan_key(layout, vp[1])))
    best = scored[0][0]
    return tuple(RankedPlan(plan, value, best - value, passive) for value, plan in scored)


def layout_or_official(layout: SheetLayout | str | None) -> SheetLayout:
    """``layout`` as a SheetLayout (a name is looked up); None is the official sheet."""
    if layout is None:
        return OFFICIAL
    if not isinstance(layout, (SheetLayout, str)):
        raise ParseError(f"layout must be a SheetLayout or a layout name, not {layout!r}")
    return layout_named(layout)




def solved_game(ruleset: Ruleset | None, players: int) -> Ruleset:
    """The part of ``ruleset`` (default: official) a solved table depends on, as a ruleset
    of ``players``: the R15 Option, ``xc_field_without_cross`` (XC4: only on an X-Change
    sheet) and the lucky Options (LG4, LG5: only on a sheet with lucky numbers).  The
    advisors' cache key: two rulesets that differ elsewhere share one table."""
    if ruleset is not None and not isinstance(ruleset, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {type(ruleset).__name__}")
    game = ruleset if ruleset is not None else Ruleset(players=1)
    return Ruleset(players=players, action2_after_game_end=game.action2_after_action1_end,
                   xc_field_without_cross=game.xc_field_without_cross,
                   lg_lucky_mode=game.lg_lucky_mode,
                   lg_lucky_candidates=game.lg_lucky_candidates)


@lru_cache(maxsize=4)
def _advisor(ruleset: Ruleset, progress: bool | None, layout: SheetLayout = OFFICIAL
             ) -> Advisor:
    return Advisor(solve(ruleset, progress=progress, variant=Variant(layout)))


def advise(state: GameState, roll: Roll | None = None,
           others: Sequence[Mark | None] | None = None) -> Advice:
    """:meth:`Advisor.advise` with the table for ``state``'s ruleset (solved on first use)."""
    if not isinstance(state, GameState):
        raise ParseError(f"advice needs a GameState, not {type(state).__name__}")
    return Advisor.for_ruleset(state.ruleset, layout=state.layout).advise(state, roll, others)



# -- words with consequences -------------------------------------------------------------------

def consequences(state: GameState, player: int, plan: TurnPlan) -> tuple[str, ...]:
    """What ``player``'s ``plan`` does beyond its marks, in words, if every other player
    passes this turn: the numbers each mark skips for good (R7), the rows it closes (R8),
    the penalty it takes (R11) and, when the game ends this turn (R13, R14), why and its
    result.  ``state`` is in the ``ACTION1`` phase (a passive player's plan marks action 1
    only; the active player's action 2 is not applied) or the ``ACTION2`` phase (the
    active player's action-2 choice, ``plan.action2``).  IllegalMoveError when the plan is
    not legal there.

    >>> from qwixx_math.notation import parse_plan, parse_roll, parse_sheet
    >>> from qwixx_math.rules import GameState
    >>> from qwixx_math.ruleset import Ruleset
    >>> me, you = parse_sheet("r:2,3,4,5,6/g:12,11,10,9,8,2,lock"), parse_sheet("y:2,3,4/p:1")
    >>> rolled = GameState(Ruleset(players=2), (me, you), closed=frozenset({Colour.GREEN})
    ...                    ).with_roll(parse_roll("w:6,6/r:4/y:1/b:2"))
    >>> for words in consequences(rolled, 0, parse_plan("r12/-")):
    ...     print(words)
    skips red 7, 8, 9, 10 and 11
    closes red
    second colour closed, the game ends: you win 56 to 1
    >>> consequences(rolled, 0, parse_plan("-/-"))
    ('penalty 1 of 4',)
    """
    if not isinstance(state, GameState):
        raise ParseError(f"expected a GameState, not {type(state).__name__}")
    if not isinstance(plan, TurnPlan):
        raise ParseError(f"expected a TurnPlan, not {type(plan).__name__}")
    if not (isinstance(player, int) and not isinstance(player, bool)
            and 0 <= player < state.players):
        raise ParseError(f"player {player!r} does not exist")
    if state.phase is Phase.ACTION2:
        marks: tuple[Mark | None, ...] = (plan.action2,)
        after = state.with_action2(plan.action2)
    elif state.phase is Phase.ACTION1:
        choices: list[Mark | None] = [None] * state.players
        choices[player] = plan.action1
        after = state.with_action1(choices)
        marks = (plan.action1,)
        if player == state.active:
            marks = (plan.action1, plan.action2)
            if after.phase is Phase.ACTION2:
                after = after.with_action2(plan.action2)
        elif plan.action2 is not None:
            raise IllegalMoveError("R5", "a passive player marks the white sum only", player)
    else:
        raise ParseError(f"the state is in the {state.phase.value} phase: nothing to decide")
    words: list[str] = []
    sheet = state.sheets[player]
    layout = sheet.layout
    # (a lucky cross after the white-sum cross is two crosses, LG4: the first one first)
    crosses = [cell for mark in marks if mark is not None
               for cell in (mark.cells if isinstance(mark, LuckyMark) else (mark,))]
    for mark in crosses:
        row = mark.colour
        if mark.second:  # Double A: the rightmost number's second cross skips nothing (DA1)
            sheet = sheet.with_second(row, mark.number)
            continue
        done = sheet.marks(row)
        start = 0 if not done else (layout.position(row, done[-1]) or 0) + 1
        end = layout.position(row, mark.number) or 0
        skipped = [layout.number(row, p) for p in range(start, end)]
        if skipped:
            listed = ", ".join(str(n) for n in skipped[:-1])
            words.append(f"skips {row.value} "
                         + (f"{listed} and {skipped[-1]}" if listed else str(skipped[0])))
        sheet = sheet.with_mark(row, mark.number)
        if sheet.is_locked(row) and row not in state.sheets[player].locked:
            words.append(f"closes {row.value}")
    penalties = after.sheets[player].penalties
    took = penalties > state.sheets[player].penalties
    if after.ended_by is None:
        if took:
            words.append(f"penalty {penalties} of {layout.penalty_boxes}")
        return tuple(words)
    why = (f"{_ordinal(penalties)} penalty" if after.ended_by == "R13" and took
           else f"{_ordinal(layout.closed_rows_to_end)} colour closed"
           if after.ended_by == "R14" else "the game is over")
    return (*words, f"{why}, the game ends: {_result(after, player)}")


def in_words(state: GameState, player: int, ranked: RankedPlan) -> str:
    """``player``'s choice ``ranked`` in plain words (:meth:`RankedPlan.describe` on
    ``state``'s sheet) followed by its :func:`consequences`, each after a dash: "mark
    blue 2 with white + blue — closes blue — second colour closed, the game ends: you
    win 74 to 71"."""
    if not isinstance(ranked, RankedPlan):
        raise ParseError(f"expected a RankedPlan, not {type(ranked).__name__}")
    if not isinstance(state, GameState):
        raise ParseError(f"expected a GameState, not {type(state).__name__}")
    return " — ".join((ranked.describe(state.layout),
                       *consequences(state, player, ranked.plan)))


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def _result(after: GameState, player: int) -> str:
    """"you win 74 to 71", "you lose 60 to 74", "you share the win at 74"."""
    scores = [s.score for s in after.sheets]
    mine = scores[player]
    others = scores[:player] + scores[player + 1:]
    if not others:
        return f"you score {mine}"
    best = max(others)
    if mine > best:
        return f"you win {mine} to {best}"
    if mine == best:
        return f"you share the win at {mine}"
    return f"you lose {mine} to {best}"
