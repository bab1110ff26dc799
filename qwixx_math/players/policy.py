"""``policy:NAME``: a solitaire :class:`~qwixx_math.policies.base.Policy` in a seat.

A policy chooses the plan of a solitaire turn (``choose(state, roll)`` on a
one-player ``ROLL`` state).  :class:`PolicyPlayer` adapts one to the seat
interface :class:`~qwixx_math.players.base.Player`, so that the exact solitaire
policies (``optimal``, ``fewest-skips``, ``threshold-T``, ``seed-tips``;
:class:`~qwixx_math.policies.spec.PolicySpec`) sit at an arena table:

* **Active seat, action 1**: the policy's plan for the seat's own sheet, the
  colours closed so far and the roll; its action 1 is the answer, and the plan is
  kept for action 2.
* **Active seat, action 2**: the kept plan's action 2 if the rules core still
  allows it once everybody's action 1 is known (another seat may have closed its
  colour, R9), else no mark.
* **Passive seat**: a policy has no passive decision; the seat marks the white
  sum exactly when the plan it would play had it rolled marks it in action 1 (an
  approximation: the plan may have counted on an action-2 mark it cannot make).

The policy sees its own sheet alone: the others' sheets do not enter it, as in
solitaire.  A colour another seat closed is closed for it too.

>>> from qwixx_math.arena.registry import make_player
>>> from qwixx_math.ruleset import Ruleset
>>> make_player("policy:fewest-skips", Ruleset(2), 0).name
'policy:fewest-skips'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..errors import ParseError
from ..layouts import OFFICIAL, SheetLayout
from ..model import Mark, TurnPlan
from ..policies.base import Policy
from ..policies.spec import PolicySpec
from ..rules import GameState, Phase, legal_action2
from ..ruleset import Ruleset
from .base import Player

__all__ = ["PLAYERS", "PREFIX", "PolicyPlayer", "lookup", "make_on"]

#: Arena names of policy seats: ``policy:`` and a policy name.
PREFIX = "policy:"


class PolicyPlayer:
    """A seat that plays the solitaire ``policy`` (see the module docstring)."""

    def __init__(self, policy: Policy, name: str | None = None) -> None:
        if not isinstance(policy, Policy):
            raise ParseError(f"PolicyPlayer needs a Policy, not {policy!r}")
        self.policy = policy
        self.name = name if name is not None else PREFIX + policy.name
        self._plan: tuple[GameState, TurnPlan] | None = None

    def new_game(self, seat: int, state: GameState) -> None:
        self._plan = None

    def game_over(self, seat: int, state: GameState) -> None:
        self._plan = None

    def _choose(self, seat: int, rolled: GameState) -> TurnPlan:
        """The policy's plan for ``seat``'s sheet alone, before ``rolled``'s roll."""
        assert rolled.roll is not None
        alone = GameState.make(dataclasses.replace(rolled.ruleset, players=1),
                                (rolled.sheets[seat],), 0, rolled.closed, Phase.ROLL, None,
                                None, None, rolled.turn)
        return self.policy.choose(alone, rolled.roll)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        plan = self._choose(seat, state)
        if seat == state.active:
            self._plan = (state, plan)
        return plan.action1

    def action2(self, seat: int, state: GameState) -> Mark | None:
        kept = self._plan
        self._plan = None
        if kept is None or kept[0].turn != state.turn or kept[1].action2 is None:
            return None
        mark = kept[1].action2
        return mark if mark in legal_action2(state) else None


def _factory(spec: PolicySpec) -> Callable[[Ruleset, int], Player]:
    def make(ruleset: Ruleset, seed: int) -> Player:
        return make_on(spec, ruleset, OFFICIAL)

    return make


def make_on(spec: PolicySpec, ruleset: Ruleset, layout: SheetLayout) -> PolicyPlayer:
    """The seat of ``spec`` at a table under ``ruleset`` on sheets of ``layout``: a policy
    that needs a solver table gets the table of ``layout``; the others read the layout
    off the states they are shown."""
    from ..policies.api import make_policy

    solitaire = dataclasses.replace(ruleset, players=1)
    if spec.needs_table:
        return PolicyPlayer(make_policy(spec, solitaire, progress=False, layout=layout))
    return PolicyPlayer(make_policy(spec, solitaire, progress=False))


def lookup(name: str) -> Callable[[Ruleset, int], Player] | None:
    """The factory of ``policy:NAME`` for any policy name :meth:`PolicySpec.parse` reads
    (``policy:threshold-4``), or None for a name without the prefix."""
    if not isinstance(name, str) or not name.startswith(PREFIX):
        return None
    return _factory(PolicySpec.parse(name[len(PREFIX):]))


#: The policies of docs/policies.md as arena names.
PLAYERS: dict[str, Callable[[Ruleset, int], Player]] = {
    PREFIX + spec.name: _factory(spec)
    for spec in (PolicySpec.optimal(), PolicySpec.fewest_skips(), PolicySpec.seed_tips())}
