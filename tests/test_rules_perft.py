"""Perft-style regression table: the library against an independent brute force (R4-R15).

``tests/data/perft.json`` is written by ``tests/data/make_perft.py``, which
enumerates moves and plays turns with its own code straight from RULES.md (it
does not import ``qwixx_math``).  Here every figure is recomputed with the
library (``legal_plans``, ``turn_outcomes``).  On a mismatch the failure message
is a "perft divide": each plan with the position the oracle and the library
reach, or, for the depth counts, the count per white sum of the first roll.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from qwixx_math.model import COLOURS, Roll
from qwixx_math.notation import (
    format_plan,
    format_sheet,
    parse_action1,
    parse_colours,
    parse_roll,
    parse_sheet,
)
from qwixx_math.rules import GameState, legal_plans, turn_outcomes
from qwixx_math.ruleset import Ruleset

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())
TURNS: list[dict[str, Any]] = DATA["turns"]
DEPTHS: list[dict[str, Any]] = DATA["depths"]

#: Depth cases that take more than a few seconds through the library (run by .ci, not by default).
SLOW_DEPTHS = {"d1-empty-solitaire", "d2-late-solitaire", "d2-late-solitaire-a2",
               "d2-two-player-endgame"}


def position_text(state: GameState) -> str:
    """The oracle's position text (see make_perft.py) of a library state."""
    sheets = " | ".join(format_sheet(s) for s in state.sheets)
    closed = "".join(c.letter for c in COLOURS if c in state.closed) or "-"
    nxt = f"over {state.ended_by}" if state.is_over else "roll"
    return f"{sheets} ; closed:{closed} ; active:{state.active} ; {nxt}"


def start_state(entry: dict[str, Any]) -> GameState:
    ruleset = Ruleset.from_json(entry["ruleset"])
    state = GameState(ruleset, tuple(parse_sheet(s) for s in entry["sheets"]),
                      active=entry["active"], closed=parse_colours(entry["closed"]))
    assert position_text(state) == entry["start"]
    return state


def divide_report(expected: dict[str, str], got: dict[str, str]) -> str:
    lines = ["perft divide (plan: oracle position / library position):"]
    for plan in sorted(set(expected) | set(got)):
        e, g = expected.get(plan, "(illegal)"), got.get(plan, "(illegal)")
        flag = "   " if e == g else "!! "
        lines.append(f"{flag}{plan}: {e}")
        if e != g:
            lines.append(f"   {' ' * len(plan)}  library: {g}")
    return "\n".join(lines)


@pytest.mark.parametrize("entry", TURNS, ids=[e["name"] for e in TURNS])
def test_perft_turn_outcomes(entry: dict[str, Any]) -> None:
    """R5-R15: legal plans and distinct outcomes for a fixed position and roll match the oracle."""
    state = start_state(entry)
    roll = parse_roll(entry["roll"])
    others = parse_action1(",".join(entry["others"]))
    plans = legal_plans(state, roll, others)
    outcomes = turn_outcomes(state, roll, others)
    got = {format_plan(p): position_text(after)
           for after, ps in outcomes.items() for p in ps}
    report = divide_report(entry["divide"], got)
    assert len(plans) == entry["plans"], report
    assert len(outcomes) == entry["outcomes"], report
    assert got == entry["divide"], report
    assert sorted(format_plan(p) for p in plans) == sorted(entry["divide"]), report
    if all(m is None for m in others):  # legal_plans' direct route for others passing
        assert legal_plans(state, roll) == plans


def all_rolls(state: GameState) -> list[Roll]:
    """All 6^(2+k) ordered rolls of the whites and the k coloured dice in play."""
    in_play = [c for c in COLOURS if c not in state.closed]
    rolls = []
    for dice in itertools.product(range(1, 7), repeat=2 + len(in_play)):
        faces = dict(zip(in_play, dice[2:], strict=True))
        coloured = tuple(faces.get(c) for c in COLOURS)
        rolls.append(Roll((dice[0], dice[1]), (coloured[0], coloured[1], coloured[2],
                                               coloured[3])))
    return rolls


def successors(state: GameState, cache: dict[GameState, set[GameState]]) -> set[GameState]:
    """Every state one turn after ``state`` over all rolls (others pass); a finished game stays."""
    if state not in cache:
        if state.is_over:
            cache[state] = {state}
        else:
            nxt: set[GameState] = set()
            for roll in all_rolls(state):
                nxt.update(turn_outcomes(state, roll))
            cache[state] = nxt
    return cache[state]


def after_turns(starts: set[GameState], depth: int,
                cache: dict[GameState, set[GameState]]) -> set[str]:
    """Positions after ``depth`` more turns (others pass); finished games stay as they are."""
    frontier = starts
    for _ in range(depth):
        frontier = set().union(*(successors(s, cache) for s in frontier))
    return {position_text(s) for s in frontier}


def depth_params() -> list[Any]:
    return [pytest.param(e, id=e["name"],
                         marks=[pytest.mark.slow] if e["name"] in SLOW_DEPTHS else [])
            for e in DEPTHS]


@pytest.mark.parametrize("entry", depth_params())
def test_perft_reachable_positions(entry: dict[str, Any]) -> None:
    """R4, R9, R13-R15: distinct positions after 1-2 turns over every roll match the oracle."""
    state = start_state(entry)
    assert len(all_rolls(state)) == entry["rolls_per_turn"]
    by_sum: dict[int, set[GameState]] = {}
    for roll in all_rolls(state):
        by_sum.setdefault(roll.white_sum, set()).update(turn_outcomes(state, roll))
    cache: dict[GameState, set[GameState]] = {}
    final = after_turns(set().union(*by_sum.values()), entry["depth"] - 1, cache)
    breakdown = {str(s): len(after_turns(firsts, entry["depth"] - 1, cache))
                 for s, firsts in sorted(by_sum.items())}
    report = "\n".join(f"white sum {s}: oracle {entry['by_first_white_sum'][s]}, library {n}"
                       for s, n in breakdown.items())
    assert breakdown == entry["by_first_white_sum"], report
    assert len(final) == entry["positions"], report
    sheets = {text.split(" ; ")[0] for text in final}
    assert len(sheets) == entry["sheets_reached"]
    assert sum(text.endswith(("over R13", "over R14")) for text in final) == entry["over"]
