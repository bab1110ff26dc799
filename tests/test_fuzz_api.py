"""Fuzzing the public API with arbitrary Python values (issue 10, "Bad input").

Every public entry point of ``qwixx_math``, ``qwixx_math.dice``, ``qwixx_math.advice``,
``qwixx_math.record``, ``qwixx_math.keys``, ``qwixx_math.notation`` and ``qwixx_math.svg``
(the functions, the constructors and class methods of the classes in their ``__all__``,
and the methods of typical instances) is called with values drawn from ints (huge ones too), floats,
text, bytes, None, lists, dicts, plain objects, members of the wrong enums, and valid
library values (so that calls get past the first check).  The contract: a call
either returns or raises a :class:`~qwixx_math.errors.QwixxError`; a TypeError,
AttributeError, IndexError, bare ValueError... escaping is a bug.

Left out, each for a reason stated in :data:`LEFT_OUT`.  Fast: a few seconds in all.
"""

from __future__ import annotations

import enum
import inspect
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qwixx_math
import qwixx_math.advice
import qwixx_math.dice
import qwixx_math.keys
import qwixx_math.notation
import qwixx_math.record
import qwixx_math.svg
from qwixx_math import (
    Advisor,
    Colour,
    Mark,
    Phase,
    Ruleset,
    Sheet,
    TurnPlan,
    new_game,
    parse_roll,
    parse_sheet,
)
from qwixx_math.dice import Distribution
from qwixx_math.errors import ParseError, QwixxError
from qwixx_math.keys import RowState
from qwixx_math.ruleset import DieRemoval, EndCheck
from qwixx_math.solver import Variant
from qwixx_math.solver.api import solved_variant

MODULES = (qwixx_math, qwixx_math.dice, qwixx_math.advice, qwixx_math.record,
           qwixx_math.keys, qwixx_math.notation, qwixx_math.svg)

#: Public names not fuzzed, and why.
LEFT_OUT = {
    # solving runs for 30 s on a fresh table (solve(cache=False) with any falsy value);
    # the solver's own entry point belongs to the solver's tests
    "solve": "runs the solver",
    # seconds per call by design: the slow reference of turn_events
    "brute_force_events": "the slow reference (seconds per call)",
    # plays as many games as the caller asks (a second by default); its own fuzz test
    # (tests/test_winadvice.py) keeps the rollouts small
    "advise_win": "caller's work (rollouts); fuzzed in tests/test_winadvice.py",
    # result types, built by the library, not input
    "Advice": "result type", "RankedPlan": "result type", "PlayerEvents": "result type",
    "TurnEvents": "result type", "RollEvents": "result type", "FitTest": "result type",
    "FairnessReport": "result type", "CloseTime": "result type",
    "OutcomeTable": "result type", "GameResult": "result type", "WinAdvice": "result type",
}
#: Methods that call the caller's function or do as much work as the caller asks
#: (Distribution.repeat(10**9)): their errors are the caller's.
CALLER_WORK = {"map", "combine", "probability_where", "repeat", "convolve", "max"}
#: The rules core's fast paths, public so that other modules need no private names (issue
#: 33) and documented as doing no input checks: built only from values the library checked.
#: (``Sheet.seconded(row, position)``, Double A's ``marked``, shifts 1 by ``position``: a
#: fuzzed position of 10**11 allocated tens of GB before any error could be raised.)
UNCHECKED = {"unchecked", "make", "marked", "seconded", "end_turn", "after_action1",
             "unchecked_value", "use_table"}


# -- values ---------------------------------------------------------------------------------------

ROLL = parse_roll("w:1,2/r:3/y:4/g:5/b:6")
GAME2 = new_game(2)
ROLLED = GAME2.with_roll(ROLL)
ACTION2 = ROLLED.with_action1([Mark(Colour.RED, 3), None])
RECORD = qwixx_math.random_game(players=2, seed=3)
VALID: list[Any] = [
    Sheet.EMPTY, parse_sheet("r:2,3/g:12/p:1"), parse_sheet("r:2,3,4,5,6,12,lock"), ROLL,
    parse_roll("w:6,6/y:1/g:1/b:1"), Mark(Colour.RED, 3), Mark(Colour.GREEN, 2), TurnPlan(),
    TurnPlan(Mark(Colour.RED, 3), None), GAME2, new_game(1), new_game(3), ROLLED, ACTION2,
    Ruleset(), Ruleset(players=1), Colour.RED, Colour.BLUE, frozenset({Colour.GREEN}),
    [None, None], [Mark(Colour.RED, 9), None], (None,), [Colour.RED, "green"],
    RowState(2, 2), Distribution.die(), random.Random(1), RECORD, RECORD.turns[0],
    RECORD.to_json(), ROLLED.to_json(), ACTION2.to_json(),
]
WRONG: list[Any] = [
    Phase.ROLL, Phase.OVER, DieRemoval.IMMEDIATE, EndCheck.SEQUENTIAL, object(),
    float("nan"), float("inf"), -1.5, 10 ** 40, -(10 ** 40), 2 ** 63, Fraction(1, 3),
    b"red", bytearray(b"r:2"), {"red": [2, 3]}, {"white": [1, 2]}, {"colour": "red"},
    [1, 2, 3], (1, 2), frozenset({1}), set(), range(3), 1j, Colour,
]
TEXT = st.sampled_from([
    "", "-", "red", "r", "g,b", "r8", "-/-", "r8/g9", "w:1,2/r:3/y:4/g:5/b:6", "r:2,3/p:1",
    "r:2,3,4,5,6,12", "r:2,3,4,5,6,12,lock", "official", "R14", "over", "\x00", "٣", "1/2",
]) | st.text(max_size=12)
JSON_KEYS = st.sampled_from([
    "red", "yellow", "green", "blue", "white", "locks", "penalties", "colour", "number",
    "action1", "action2", "penalty", "ruleset", "sheets", "active", "closed", "phase", "roll",
    "ended_by", "turn", "players", "format", "version", "turns", "result", "first", "seed",
]) | st.text(max_size=6)
LEAVES = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10 ** 18)
          | st.floats() | TEXT | st.binary(max_size=4) | st.sampled_from(VALID + WRONG))
VALUES = st.recursive(
    LEAVES,
    lambda kids: (st.lists(kids, max_size=4) | st.tuples(kids, kids)
                  | st.dictionaries(JSON_KEYS, kids, max_size=4)),
    max_leaves=8)


# -- entry points ---------------------------------------------------------------------------------

def _is_error_class(obj: object) -> bool:
    return isinstance(obj, type) and issubclass(obj, BaseException)


def _entry_points() -> list[tuple[str, Callable[..., Any]]]:
    out: dict[str, Callable[..., Any]] = {}
    for module in MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if name in LEFT_OUT or name.startswith("__") or _is_error_class(obj):
                continue
            if isinstance(obj, type):
                if not issubclass(obj, enum.Enum):  # Enum lookup by value is Python's
                    out[name] = obj
                for attr, raw in vars(obj).items():
                    if isinstance(raw, (classmethod, staticmethod)) and not attr.startswith("_") \
                            and attr not in UNCHECKED:
                        out[f"{name}.{attr}"] = getattr(obj, attr)
            elif callable(obj):
                out[name] = obj
    return sorted(out.items())


def _instance_methods() -> list[tuple[str, Callable[..., Any]]]:
    advisor = Advisor.for_ruleset(progress=False)
    instances: list[Any] = [Sheet.EMPTY, parse_sheet("r:2,3,4,5,6/p:3"), ROLL, GAME2, ROLLED,
                            ACTION2, Distribution.die(), advisor, advisor.table,
                            Mark(Colour.RED, 3),
                            RowState(2, 2), qwixx_math.dice.turns_to_close(),
                            qwixx_math.dice.turn_events(Sheet.EMPTY).active, RECORD,
                            RECORD.turns[0]]
    out = []
    for inst in instances:
        for attr in dir(type(inst)):
            if attr.startswith("_") or attr in CALLER_WORK or attr in UNCHECKED:
                continue
            method = getattr(inst, attr)
            if inspect.ismethod(method) and method.__self__ is inst:
                out.append((f"{type(inst).__name__}().{attr}", method))
    return out


ENTRY_POINTS = _entry_points() + _instance_methods()


def _params(func: Callable[..., Any]) -> list[inspect.Parameter]:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):  # pragma: no cover - every entry point has one
        return []
    return [p for p in sig.parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _call(data: st.DataObject, name: str, func: Callable[..., Any]) -> None:
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in _params(func):
        has_default = p.default is not p.empty
        if has_default and data.draw(st.booleans(), label=f"omit {p.name}"):
            continue
        value = data.draw(VALUES, label=p.name)
        by_keyword = p.kind is p.KEYWORD_ONLY or bool(kwargs) or (
            has_default and data.draw(st.booleans(), label=f"{p.name} by keyword"))
        if by_keyword:
            kwargs[p.name] = value
        else:
            args.append(value)
    try:
        func(*args, **kwargs)
    except QwixxError:
        pass
    except Exception as exc:
        raise AssertionError(
            f"{name}(*{args!r}, **{kwargs!r}) raised {type(exc).__name__}: {exc}") from exc


def test_every_module_has_entry_points() -> None:
    names = {n for n, _ in ENTRY_POINTS}
    for expected in ("parse_sheet", "sheet_from_json", "legal_plans", "can_mark", "GameState",
                     "GameState.from_json", "Advisor().advise", "turn_events", "random_game",
                     "RowState", "sheet_key", "Sheet().with_mark", "Colour.of",
                     "SolverTable().value", "SolverTable().plan_values", "decode_open_code"):
        assert expected in names
    assert len(ENTRY_POINTS) > 100


@pytest.mark.parametrize("group", range(8))
@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_only_documented_errors_escape(group: int, data: st.DataObject) -> None:
    """Arbitrary arguments to any public entry point: a result or a QwixxError."""
    points = ENTRY_POINTS[group::8]
    name, func = data.draw(st.sampled_from(points), label="entry point")
    _call(data, name, func)


@settings(max_examples=50, deadline=None)
@given(variant=st.one_of(st.none(), st.integers(), st.text(max_size=5), st.just(Variant())),
       ruleset=st.one_of(st.none(), st.integers(), st.text(max_size=5),
                         st.just(Ruleset(players=1))))
def test_solved_variant_refuses_what_is_not_a_variant_and_a_ruleset(
        variant: object, ruleset: object) -> None:
    """solved_variant (the game solve() names its table by) takes a Variant and a Ruleset;
    anything else is a ParseError, never an AttributeError."""
    if isinstance(variant, Variant) and isinstance(ruleset, Ruleset):
        assert solved_variant(variant, ruleset) == Variant()
        return
    with pytest.raises(ParseError):
        solved_variant(variant, ruleset)  # type: ignore[arg-type]
