"""The public entry points: a policy by name, its exact value, the score distribution, simulation.

Everything defaults to the official solitaire game under the official ruleset
(R15: no action 2 after the game ended in action 1); pass
``Ruleset(players=1, action2_after_game_end=True)`` for the other option, and a
solver :class:`~qwixx_math.solver.Variant` for the small test variants.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..errors import ParseError
from ..ruleset import Ruleset
from ..solver import SolverTable, cache_dir, solve
from ..solver.progress import progress_bar
from ..solver.variant import Variant
from .base import HeuristicPolicy, OptimalPolicy, PriorityPolicy
from .distribution import ScoreDistribution, forward_distribution
from .evaluate import evaluate_tables
from .simulate import SimulationResult, simulate_tables
from .spec import DEFAULT_SPECS, PolicySpec
from .store import load_result, result_path, save_result

__all__ = ["PolicyValue", "make_policy", "policy_value", "policy_values", "score_distribution",
           "simulate"]

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


def _setup(ruleset: Ruleset | None, variant: Variant | None) -> tuple[Ruleset, Variant]:
    ruleset = ruleset if ruleset is not None else Ruleset(players=1)
    variant = variant if variant is not None else Variant()
    if not isinstance(ruleset, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {ruleset!r}")
    if not isinstance(variant, Variant):
        raise ParseError(f"variant must be a solver Variant, not {variant!r}")
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
                cache: CacheArg = True, progress: bool | None = None) -> PriorityPolicy:
    """The Python policy (``choose(state, roll)``); the optimal one loads or solves the table
    of the official game for ``ruleset``'s R15 option."""
    spec = _spec(policy)
    ruleset, variant = _setup(ruleset, None)
    table = _table(spec, ruleset, variant, cache, progress)
    return OptimalPolicy(table) if table is not None else HeuristicPolicy(spec)


def policy_value(policy: PolicySpec | str, ruleset: Ruleset | None = None,
                 variant: Variant | None = None, *, cache: CacheArg = True,
                 progress: bool | None = None, evaluate_optimal: bool = False) -> PolicyValue:
    """The exact expected final score of ``policy`` by backward policy evaluation (cached).

    The optimal policy's value is the solver's V(start) unless ``evaluate_optimal``
    (then the policy-evaluation engine computes it too: minutes on the official game;
    the tests check on every state that both agree).
    """
    spec = _spec(policy)
    ruleset, variant = _setup(ruleset, variant)
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


def policy_values(specs: tuple[PolicySpec, ...] = DEFAULT_SPECS,
                  ruleset: Ruleset | None = None, variant: Variant | None = None, *,
                  cache: CacheArg = True, progress: bool | None = None) -> list[PolicyValue]:
    """:func:`policy_value` of each policy."""
    return [policy_value(s, ruleset, variant, cache=cache, progress=progress) for s in specs]


def score_distribution(policy: PolicySpec | str = "optimal", ruleset: Ruleset | None = None,
                       variant: Variant | None = None, *, cache: CacheArg = True,
                       progress: bool | None = None) -> ScoreDistribution:
    """The exact distribution of the final score under ``policy`` (cached)."""
    spec = _spec(policy)
    ruleset, variant = _setup(ruleset, variant)
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
             cache: CacheArg = True, progress: bool | None = None) -> SimulationResult:
    """Play ``games`` seeded solitaire games under ``policy`` (compiled, all cores)."""
    spec = _spec(policy)
    ruleset, variant = _setup(ruleset, variant)
    table = _table(spec, ruleset, variant, cache, progress)
    return simulate_tables(spec, variant, ruleset.action2_after_action1_end, games, seed,
                           _data(table))
