"""The public entry points: a policy by name, its exact value, the score distribution, simulation.

Everything defaults to the official solitaire game under the official ruleset
(R15: no action 2 after the game ended in action 1); pass
``Ruleset(players=1, action2_after_game_end=True)`` for the other option, and
``layout`` (a :class:`~qwixx_math.layouts.SheetLayout` or a published layout's
name: ``"official"``, ``"mixx-a"``, ``"mixx-b"``) or a solver
:class:`~qwixx_math.solver.Variant` for another sheet (docs/mixx.md, "Policies on Mixx").
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..errors import ParseError
from ..layouts import SheetLayout, layout_named
from ..ruleset import Ruleset
from ..solver import SolverTable, cache_dir, solve
from ..solver.progress import progress_bar
from ..solver.variant import Variant, variant_or_layout
from .base import HeuristicPolicy, OptimalPolicy, PriorityPolicy
from .distribution import ScoreDistribution, forward_distribution
from .evaluate import evaluate_table_model, evaluate_tables
from .geometry import check_no_lucky, check_policy_sheet
from .simulate import SimulationResult, simulate_tables
from .spec import DEFAULT_SPECS, PolicySpec
from .store import load_result, result_path, save_result

__all__ = ["CrossValue", "PolicyValue", "cross_value", "make_policy", "policy_value",
           "policy_values", "score_distribution", "simulate"]

CacheArg = bool | str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class PolicyValue:
    """A policy's exact expected final score from the empty sheet (V_pi(start))."""

    policy: str
    variant_key: str
    action2_after_action1_end: bool
    expected_score: float
    seconds: float = field(default=0.0, compare=False)
    loaded: bool = field(default=False, compare=False)


def _spec(policy: PolicySpec | str) -> PolicySpec:
    if isinstance(policy, PolicySpec):
        return policy
    if isinstance(policy, str):
        return PolicySpec.parse(policy)
    raise ParseError(f"a policy is a PolicySpec or a name, not {policy!r}")


LayoutArg = SheetLayout | str | None


def _setup(ruleset: Ruleset | None, variant: Variant | None,
           layout: LayoutArg = None) -> tuple[Ruleset, Variant]:
    ruleset = ruleset if ruleset is not None else Ruleset(players=1)
    if isinstance(layout, (SheetLayout, str)):
        check_no_lucky(layout_named(layout))  # LG3 in the policy engine's name
    variant = variant_or_layout(variant, layout)
    variant = variant if variant is not None else Variant()
    if not isinstance(ruleset, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {ruleset!r}")
    if not isinstance(variant, Variant):
        raise ParseError(f"variant must be a solver Variant, not {variant!r}")
    check_policy_sheet(variant)  # double cells (DB1), Longo (LG1, LG2), steps (CS2) yes
    return ruleset, variant


def _table(spec: PolicySpec, ruleset: Ruleset, variant: Variant, cache: CacheArg,
           progress: bool | None) -> SolverTable | None:
    if not spec.needs_table:
        return None
    return solve(ruleset, variant, cache=cache, progress=progress)


def _directory(cache: CacheArg) -> Path | None:
    if cache is False:
        return None
    return cache_dir() if cache is True else Path(cache)


def _data(table: SolverTable | None) -> npt.NDArray[np.float64] | None:
    return None if table is None else np.asarray(table.data)


def make_policy(policy: PolicySpec | str, ruleset: Ruleset | None = None, *,
                cache: CacheArg = True, progress: bool | None = None,
                layout: LayoutArg = None) -> PriorityPolicy:
    """The Python policy (``choose(state, roll)``); the optimal one loads or solves the table
    of the official game (or of ``layout``) for ``ruleset``'s R15 option.  It plays the
    rules core's one-player GameStates of that layout (``new_game(1, layout=...)``)."""
    spec = _spec(policy)
    ruleset, variant = _setup(ruleset, None, layout)
    table = _table(spec, ruleset, variant, cache, progress)
    return OptimalPolicy(table) if table is not None else HeuristicPolicy(spec)


def policy_value(policy: PolicySpec | str, ruleset: Ruleset | None = None,
                 variant: Variant | None = None, *, cache: CacheArg = True,
                 progress: bool | None = None, evaluate_optimal: bool = False,
                 layout: LayoutArg = None) -> PolicyValue:
    """The exact expected final score of ``policy`` by backward policy evaluation (cached).

    The optimal policy's value is the solver's V(start) unless ``evaluate_optimal``
    (then the policy-evaluation engine computes it too: minutes on the official game;
    the tests check on every state that both agree).  ``layout``: the sheet instead of
    a ``variant`` (see the module docstring).
    """
    spec = _spec(policy)
    ruleset, variant = _setup(ruleset, variant, layout)
    a2 = ruleset.action2_after_action1_end
    table = _table(spec, ruleset, variant, cache, progress)
    table_start = None if table is None else table.start_value
    if table is not None and not evaluate_optimal:
        return PolicyValue(spec.name, variant.key, a2, table.start_value, table.seconds,
                           loaded=table.loaded)
    directory = _directory(cache)
    path = (None if directory is None
            else result_path(directory, variant, a2, spec.name, "value"))
    if path is not None:
        payload = load_result(path, variant, a2, spec.name, "value", table_start)
        if payload is not None and isinstance(payload.get("expected_score"), float):
            return PolicyValue(spec.name, variant.key, a2, payload["expected_score"],
                               float(payload.get("seconds", 0.0)), loaded=True)
    bar = progress_bar(progress, f"evaluating {spec.name}")
    try:
        ev = evaluate_tables(spec, variant, a2, _data(table), bar)
    finally:
        if bar is not None:
            bar.close()
    value = PolicyValue(spec.name, variant.key, a2, ev.start_value, ev.seconds)
    if path is not None:
        save_result(path, variant, a2, spec.name, "value", table_start,
                    {"expected_score": value.expected_score, "seconds": value.seconds})
    return value


@dataclass(frozen=True, slots=True)
class CrossValue:
    """The exact value, for every seat, of the optimal policy of a table of
    ``policy_players`` = M played at a table of ``table_players`` = N (the table
    model of docs/table.md: the others never close a row or take a penalty), beside
    the N-table's optimal values."""

    policy_players: int
    table_players: int
    variant_key: str
    action2_after_action1_end: bool
    #: V_pi of the empty sheet for seats 1..N (seat s: s - 1 other rolls before its own).
    seat_values: tuple[float, ...]
    #: The N-table's optimal seat values (the solver's).
    optimal_seat_values: tuple[float, ...]
    seconds: float = field(default=0.0, compare=False)

    @property
    def expected_score(self) -> float:
        """Seat 1's value."""
        return self.seat_values[0]

    @property
    def losses(self) -> tuple[float, ...]:
        """What the wrong strategy costs per seat (optimal minus V_pi; 0 when M = N)."""
        return tuple(o - v for o, v in zip(self.optimal_seat_values, self.seat_values,
                                           strict=True))


def _players(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 5:
        raise ParseError(f"R3: {name} must be 1 to 5 players, not {value!r}")
    return value


def cross_value(policy_players: int, table_players: int, ruleset: Ruleset | None = None,
                variant: Variant | None = None, *, cache: CacheArg = True,
                progress: bool | None = None, layout: LayoutArg = None) -> CrossValue:
    """The exact value of playing the optimal strategy of an M-table at an N-table
    (M = ``policy_players``, N = ``table_players``, 1..5; 1 is solitaire): e.g.
    ``cross_value(1, 2)`` is the solitaire strategy at a 2-player table and
    ``cross_value(2, 1)`` the 2-player strategy played solo.

    The policy ranks its own plans by the M-table's values after its turn and, on
    another player's roll, marks the white sum or passes by the M-table's value at
    level min(K - 1, M - 1) (see :mod:`qwixx_math.policies.evaluate`); ties go to
    the rules core's order of plans.  V_pi comes from backward evaluation over every
    state and level of the N-table (minutes on the official game; not cached).
    The solver tables of M and N players are loaded or solved (``cache``).
    """
    m = _players("policy_players", policy_players)
    n = _players("table_players", table_players)
    ruleset, variant = _setup(ruleset, variant, layout)
    variant.sheet.check_no_steps("cross_value (the table model of the policy engine)")
    a2 = ruleset.action2_after_action1_end
    policy_table = solve(ruleset, variant, cache=cache, progress=progress, players=m)
    optimum = (policy_table if m == n
               else solve(ruleset, variant, cache=cache, progress=progress, players=n))
    bar = progress_bar(progress, f"evaluating the {m}-table policy at {n}")
    try:
        ev = evaluate_table_model(variant, a2, np.asarray(policy_table.data), m, (n,), bar)
    finally:
        if bar is not None:
            bar.close()
    return CrossValue(m, n, variant.key, a2, ev.seat_values(n), optimum.seat_values,
                      ev.seconds)


def policy_values(specs: tuple[PolicySpec, ...] = DEFAULT_SPECS,
                  ruleset: Ruleset | None = None, variant: Variant | None = None, *,
                  cache: CacheArg = True, progress: bool | None = None,
                  layout: LayoutArg = None) -> list[PolicyValue]:
    """:func:`policy_value` of each policy."""
    ruleset, variant = _setup(ruleset, variant, layout)
    return [policy_value(s, ruleset, variant, cache=cache, progress=progress) for s in specs]


def score_distribution(policy: PolicySpec | str = "optimal", ruleset: Ruleset | None = None,
                       variant: Variant | None = None, *, cache: CacheArg = True,
                       progress: bool | None = None,
                       layout: LayoutArg = None) -> ScoreDistribution:
    """The exact distribution of the final score under ``policy`` (cached)."""
    spec = _spec(policy)
    ruleset, variant = _setup(ruleset, variant, layout)
    a2 = ruleset.action2_after_action1_end
    table = _table(spec, ruleset, variant, cache, progress)
    table_start = None if table is None else table.start_value
    directory = _directory(cache)
    path = (None if directory is None
            else result_path(directory, variant, a2, spec.name, "distribution"))
    if path is not None:
        payload = load_result(path, variant, a2, spec.name, "distribution", table_start)
        if payload is not None:
            try:
                return ScoreDistribution(spec.name, variant.key, a2, int(payload["score_min"]),
                                         tuple(float(x) for x in payload["probabilities"]),
                                         float(payload["seconds"]))
            except (KeyError, TypeError, ValueError):
                pass  # recompute below
    bar = progress_bar(progress, f"score distribution of {spec.name}")
    try:
        dist, _ = forward_distribution(spec, variant, a2, _data(table), bar)
    finally:
        if bar is not None:
            bar.close()
    if path is not None:
        save_result(path, variant, a2, spec.name, "distribution", table_start,
                    {"score_min": dist.score_min, "probabilities": list(dist.probabilities),
                     "seconds": dist.seconds})
    return dist


def simulate(policy: PolicySpec | str = "optimal", games: int = 100_000, seed: int = 0,
             ruleset: Ruleset | None = None, variant: Variant | None = None, *,
             cache: CacheArg = True, progress: bool | None = None,
             layout: LayoutArg = None) -> SimulationResult:
    """Play ``games`` seeded solitaire games under ``policy`` (compiled, all cores)."""
    spec = _spec(policy)
    ruleset, variant = _setup(ruleset, variant, layout)
    table = _table(spec, ruleset, variant, cache, progress)
    return simulate_tables(spec, variant, ruleset.action2_after_action1_end, games, seed,
                           _data(table))
