"""The priority score of a plan: the ONE definition every policy decision goes through.

A policy ranks the legal plans of a roll by ``(h, tie-break)``: the highest
priority ``h`` wins, and among equal ``h`` the plan that comes first in the
rules core's order of legal plans (:func:`qwixx_math.rules.legal_plans`) wins.
:func:`priority` is a compiled (numba) function, so the Python policies
(:meth:`~qwixx_math.policies.base.Policy.choose`) and the compiled engine
(evaluation, score distribution, simulator) call the very same code and
cannot disagree.

Features of a plan (all computable by a person looking at the sheet):

* ``marks``: how many numbers the plan marks (0 for the penalty, 1 or 2);
* ``skip_total``: the numbers passed over by the plan's marks, each mark
  counted from the rightmost mark already in its row (or from the row's start
  for an empty row; the action-2 mark from the action-1 mark when both are in
  the same row).  Marking red 5 in an empty red row skips 2, 3 and 4: 3 numbers;
* ``skip_max``: the largest skip of a single mark;
* ``value``: only for the optimal policy, the optimal expected final score after
  the plan, less the points of the rows closed before the turn (the same for
  every plan, so the ranking does not change; see :mod:`.engine`).
"""

from __future__ import annotations

from enum import IntEnum

from ..jit import jit

__all__ = [
    "FORBIDDEN",
    "PENALTY_LAST",
    "PolicyKind",
    "priority",
    "tie_break",
]

# inlined into the engine's loops; still callable from Python
_jit = jit(inline=True)


class PolicyKind(IntEnum):
    """The families of policies; the integer is what the compiled engine sees."""

    #: argmax of the optimal value (the solver's table).
    OPTIMAL = 0
    #: always mark when possible, fewest skipped numbers (penalty only when forced).
    FEWEST_SKIPS = 1
    #: like FEWEST_SKIPS, but only marks that each skip at most ``t`` numbers (else penalty).
    SKIP_THRESHOLD = 2
    #: fewest skips, but a penalty counts as ``t`` skips (the German rule text's tip: t = 3.5).
    SEED_TIPS = 3


#: Priority of the penalty when a policy takes it only if nothing else is legal.
PENALTY_LAST = -1000.0
#: Priority of a plan a policy never takes (below the always-legal penalty).
FORBIDDEN = -2000.0


@_jit
def priority(kind: int, param: float, marks: int, skip_total: int, skip_max: int,
             value: float) -> float:
    """The priority ``h`` of a plan (higher is better).

    * OPTIMAL: ``h = value``.
    * FEWEST_SKIPS: ``h = marks/8 - skip_total`` for a plan that marks; the penalty
      ``-1000``.  So fewer skipped numbers first, and among equal skips more marks.
    * SKIP_THRESHOLD (``param = t``): as FEWEST_SKIPS, but a plan with a mark that
      skips more than ``t`` numbers gets ``-2000`` (never taken: the penalty is
      always legal and ranks above it).
    * SEED_TIPS (``param = t``, 3.5 by default): as FEWEST_SKIPS, but the penalty is
      worth ``-t``: a plan skipping 4 or more numbers in total loses to the penalty.
    """
    if kind == 0:
        return value
    if marks == 0:
        if kind == 3:
            return -param
        return PENALTY_LAST
    if kind == 2 and skip_max > param:
        return FORBIDDEN
    return 0.125 * marks - skip_total


@_jit
def tie_break(rows: int, length: int, a1_row: int, a1_pos: int, a2_row: int,
              a2_pos: int) -> int:
    """The plan's rank in the rules core's order of legal plans (lower comes first).

    A missing action sorts before any mark, marks by (row, position): the order
    of :attr:`qwixx_math.model.TurnPlan.sort_key`.  ``*_row = -1`` is no mark.
    """
    k1 = 0 if a1_row < 0 else 1 + a1_row * length + a1_pos
    k2 = 0 if a2_row < 0 else 1 + a2_row * length + a2_pos
    return k1 * (rows * length + 1) + k2
