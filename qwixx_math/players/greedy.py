"""``greedy``: mark whenever possible, skipping as few numbers as possible.

The priority of a choice is the fewest-skips policy's (docs/policies.md):
``h = marks/8 - skipped``, where ``skipped`` counts the numbers a mark passes
over, from the rightmost mark already in its row (or the row's start; an
action-2 mark in the row of this turn's action-1 mark counts from that mark).
The highest ``h`` is taken; ties go to the choice the rules core lists first
(no mark before any mark, marks by row red, yellow, green, blue, then left to
right; plans by action 1, then action 2).

* **Active player, action 1**: the action-1 mark of the best whole plan of
  :func:`~qwixx_math.rules.legal_plans` (the others assumed to pass).  The
  penalty plan ``-/-`` is taken only when no plan marks anything.
* **Active player, action 2**: the best completion of the action 1 actually
  played (a second mark only when it skips nothing; the penalty only when
  nothing is markable).
* **Passive player**: passing costs nothing (``h = 0``), so the white sum is
  marked only where it skips no number (``h = 1/8``).

In solitaire this is exactly the ``fewest-skips`` policy of
:mod:`qwixx_math.policies` (the tests check it).  The player reads the layout of
the game's sheets (positions, R7/R8, the lock, R14), so it plays any sheet
layout (docs/mixx.md), and the arena deals any (``--layout``).
"""

from __future__ import annotations

from ..layouts import OFFICIAL, SheetLayout
from ..model import COLOURS, ROW_LENGTH, Mark
from ..rules import GameState, closes, legal_action1, legal_action2
from ..ruleset import Ruleset

__all__ = ["MARK_WEIGHT", "GreedyPlayer", "make", "skipped"]

#: The weight of one mark against one skipped number (marks only break ties of skips).
MARK_WEIGHT = 0.125
#: The priority of the penalty: below every plan that marks (a plan skips at most 20).
PENALTY = -float(2 * ROW_LENGTH)


def skipped(masks: tuple[int, int, int, int], mark: Mark, layout: SheetLayout = OFFICIAL
            ) -> int:
    """Numbers ``mark`` passes over on a sheet of ``layout`` with row masks ``masks``."""
    ci = mark.colour.index
    return layout.pos[ci][mark.number] - masks[ci].bit_length()


def _best_action1(state: GameState, seat: int) -> Mark | None:
    """The active player's action 1 of the best plan, the others assumed to pass (their
    choices are not known yet).  Plans are visited in legal_plans order (action 1: none
    first, then by mark), so the first of equal priority wins.  The action-2 marks are
    read off the sheet and the dice (R6-R8; a row locked by action 1 allows nothing, and
    no action 2 follows a game ended in action 1, R15), as
    :func:`~qwixx_math.rules.legal_action2` would list them; the tests check the result
    against every plan of :func:`~qwixx_math.rules.legal_plans`."""
    roll = state.roll
    assert roll is not None
    w1, w2 = roll.white
    masks = state.sheets[seat].masks
    closed = len(state.closed)
    a2_after_end = state.ruleset.action2_after_action1_end
    layout = state.layout
    pos_of, allowed = layout.pos, layout.allowed
    to_end = layout.closed_rows_to_end
    if not layout.is_official:
        return _best_action1_any(state, seat)
    # the positions white + each colour can mark, and each row's best action 2 as it is
    reach: list[tuple[int, int] | None] = []
    row_best: list[float] = []
    for colour in COLOURS:
        ci = colour.index
        die = roll.coloured[ci]
        if die is None:
            reach.append(None)
            row_best.append(-float("inf"))
        else:
            both = (pos_of[ci][w1 + die], pos_of[ci][w2 + die])
            reach.append(both)
            row_best.append(_best_a2(masks[ci], both, allowed[ci]))
    best: Mark | None = None
    best_h = max(row_best)  # no action 1: the best action 2, or else the penalty
    if best_h < PENALTY:
        best_h = PENALTY
    for a1 in legal_action1(state, seat):
        if not a1.crosses:  # an X-Change field spent alone (XC4): greedy never spends one
            continue
        row = a1.colour.index
        pos = pos_of[row][a1.number]
        mask = masks[row]
        h = MARK_WEIGHT - (pos - mask.bit_length())
        if not (closes(layout, a1) and closed + 1 >= to_end and not a2_after_end):
            ps = reach[row]
            gain = (_best_a2(mask | 1 << pos, ps, allowed[row]) if ps is not None
                    else -float("inf"))
            for other in range(len(row_best)):
                if other != row and row_best[other] > gain:
                    gain = row_best[other]
            if gain > 0:
                h += gain
        if h > best_h:
            best, best_h = a1, h
    return best


def _best_action1_any(state: GameState, seat: int) -> Mark | None:
    """:func:`_best_action1` on any layout, by the obvious route: the priority of every
    plan of :func:`~qwixx_math.rules.legal_plans` (the others passing), the best plan's
    action 1 (first of equal priority, in the rules core's order)."""
    from ..rules import legal_plans

    layout = state.layout
    masks = state.sheets[seat].masks
    best: Mark | None = None
    best_h = -float("inf")
    for plan in legal_plans(state):
        if plan.action1 is None and plan.action2 is None:
            h = PENALTY
        else:
            h = 0.0
            after = list(masks)
            for mark in (plan.action1, plan.action2):
                if mark is not None and mark.crosses:  # (a field spent alone skips nothing)
                    ci = mark.colour.index
                    h += MARK_WEIGHT - skipped((after[0], after[1], after[2], after[3]),
                                               mark, layout)
                    after[ci] |= 1 << layout.pos[ci][mark.number]
        if h > best_h:
            best, best_h = plan.action1, h
    return best


def _best_a2(mask: int, positions: tuple[int, int], row_allowed: tuple[int, ...]) -> float:
    """The best ``MARK_WEIGHT - skipped`` of the two positions white + a colour reaches in a
    row with marks ``mask`` (-inf when neither is allowed, R7, R8; a position -1 is a
    number the row does not show)."""
    allowed = row_allowed[mask]
    start = mask.bit_length()
    best = -float("inf")
    for p in positions:
        if p >= 0 and allowed >> p & 1 and MARK_WEIGHT - (p - start) > best:
            best = MARK_WEIGHT - (p - start)
    return best


class GreedyPlayer:
    """The ``greedy`` player (see the module docstring); deterministic."""

    name = "greedy"

    def new_game(self, seat: int, state: GameState) -> None:
        pass

    def action1(self, seat: int, state: GameState) -> Mark | None:
        masks = state.sheets[seat].masks
        if seat != state.active:
            for mark in legal_action1(state, seat):
                if skipped(masks, mark, state.layout) == 0:
                    return mark
            return None
        return _best_action1(state, seat)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        masks = state.sheets[seat].masks  # the action-1 mark is on the sheet already
        played = state.action1 is not None and state.action1[seat] is not None
        # priorities relative to the action 1 played: no second mark 0, or the penalty
        best: Mark | None = None
        best_h = 0.0 if played else PENALTY
        for mark in legal_action2(state):
            h = MARK_WEIGHT - skipped(masks, mark, state.layout)
            if h > best_h:
                best, best_h = mark, h
        return best

    def game_over(self, seat: int, state: GameState) -> None:
        pass


def make(ruleset: Ruleset, seed: int) -> GreedyPlayer:
    """The registry's factory (the player is deterministic: ``seed`` is not used)."""
    return GreedyPlayer()
