"""Advice, values, review and the table model on sheet layouts other than the official one.

On small layouts (solved in memory, ``cache=False``, a fraction of a second) the
advisor's ranking is checked against brute force: every legal plan of the rules
core played out with ``GameState`` and valued through the compact key
(keys.sheet_key and the table layout's ``Layout.locate``, not the advisor's
look-up).  The CLI runs on Mixx A and Mixx B with constant fake tables
(no big solve in the default run; the real tables: tests/test_mixx_cli_slow.py).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from test_advice import keyed_value

from qwixx_math import advice as advice_module
from qwixx_math import table as table_module
from qwixx_math.advice import Advisor
from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import MIXX_A, MIXX_B, OFFICIAL, SheetLayout
from qwixx_math.model import COLOURS, Sheet
from qwixx_math.notation import format_sheet
from qwixx_math.players.greedy import GreedyPlayer, _best_action1, _best_action1_any
from qwixx_math.players.solo import SoloPlayer
from qwixx_math.record import random_game, replay
from qwixx_math.review import review_game
from qwixx_math.rules import GameState, Phase, legal_plans, new_game, random_roll, turn_outcomes
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, Variant, solve
from qwixx_math.table import TableAdvisor

R, Y, G, B = COLOURS

#: Small sheets (as in tests/test_solver_layouts.py): mixed colours, a number two rows
#: take with one die, permuted numbers, rows locked by green and blue only.
SMALL = {
    "two-targets": SheetLayout.of_rows("two-targets", [
        [(5, Y), (7, R), (9, R)], [(7, R), (4, Y), (6, Y)]], lock_threshold=1, penalty_boxes=2),
    "mixx-b-like": SheetLayout.of_rows("mixx-b-like", [
        [(n, R) for n in (6, 2, 9)], [(n, Y) for n in (3, 10, 7)]],
        lock_threshold=1, penalty_boxes=2, closed_rows_to_end=1),
    "green-blue": SheetLayout.of_rows("green-blue", [
        [(8, B), (4, G), (6, G), (10, G)], [(5, G), (9, B), (7, B), (3, B)]],
        lock_threshold=1, penalty_boxes=2),
}


def _brute_value(table: SolverTable, layout: SheetLayout, state: GameState, player: int,
                 before_me: int) -> float:
    """``player``'s value in ``state`` read through the compact key (keys.sheet_key and the
    table layout), not the look-up the advisor shares with SolverTable."""
    assert table.variant.sheet == layout
    if state.is_over:
        return float(state.sheets[player].score)
    return keyed_value(table, state.sheets[player], state.closed, before_me)


def _states(layout: SheetLayout, players: int, seed: int, count: int
            ) -> Iterator[GameState]:
    """States of random legal games (ROLL phase, game running) on ``layout``."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        record = random_game(players, seed=rng.randrange(1 << 30), layout=layout)
        for state in replay(record):
            if not state.is_over and made < count:
                made += 1
                yield state


@pytest.fixture(scope="module")
def tables() -> dict[tuple[str, bool, int], SolverTable]:
    out = {}
    for name, layout in SMALL.items():
        for a2 in (False, True):
            for players in (1, 2):
                ruleset = Ruleset(players=players, action2_after_game_end=a2)
                out[name, a2, players] = solve(ruleset, layout=layout, cache=False,
                                               progress=False, players=players)
    return out


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("a2", [False, True])
def test_best_plan_equals_brute_force_over_legal_plans(
        tables: dict[tuple[str, bool, int], SolverTable], name: str, a2: bool) -> None:
    layout = SMALL[name]
    table = tables[name, a2, 1]
    advisor = Advisor(table)
    assert advisor.sheet_layout == layout
    rng = random.Random(7)
    ruleset = Ruleset(players=1, action2_after_game_end=a2)
    checked = 0
    for state in _states(layout, 1, 11, 60):
        state = GameState(ruleset, state.sheets, closed=state.closed)
        roll = random_roll(rng, state.dice_in_play)
        advice = advisor.advise(state, roll)
        outcomes = turn_outcomes(state, roll)
        brute = {plan: _brute_value(table, layout, after, 0, 0)
                 for after, plans in outcomes.items() for plan in plans}
        assert {r.plan for r in advice.plans} == set(brute) == set(legal_plans(state, roll))
        for ranked in advice.plans:
            assert ranked.expected_score == pytest.approx(brute[ranked.plan], abs=1e-9)
        assert advice.best.expected_score == pytest.approx(max(brute.values()), abs=1e-9)
        assert advisor.state_value(state, 0) == pytest.approx(
            _brute_value(table, layout, state, 0, 0), abs=1e-9)
        checked += 1
    assert checked == 60


@pytest.mark.parametrize("name", sorted(SMALL))
def test_table_model_advice_equals_brute_force(
        tables: dict[tuple[str, bool, int], SolverTable], name: str) -> None:
    """Two players: the active player's plans at K = 1 after the turn, the passive
    player's white-sum choices at K = 0, each against the table's own value."""
    layout = SMALL[name]
    table = tables[name, False, 2]
    advisor = TableAdvisor(table)
    rng = random.Random(3)
    for state in _states(layout, 2, 5, 40):
        roll = random_roll(rng, state.dice_in_play)
        active = advisor.advise(state, roll)
        for after, plans in turn_outcomes(state, roll).items():
            want = _brute_value(table, layout, after, state.active, 1)
            for plan in plans:
                assert active.find(plan).expected_score == pytest.approx(want, abs=1e-9)
        passive = 1 - state.active
        rolled = state.with_roll(roll)
        advice = advisor.advise_passive(rolled, passive)
        for ranked in advice.plans:
            choices = [None, None]
            choices[passive] = ranked.plan.action1
            after = rolled.with_action1(choices)
            sheet = after.sheets[passive]
            if after.ended_by is not None:
                want = float(sheet.score)
            else:
                want = _brute_value(table, layout, GameState(
                    after.ruleset, after.sheets, closed=after.closed, active=after.active),
                    passive, 0)
            assert ranked.expected_score == pytest.approx(want, abs=1e-9)


def test_a_sheet_of_another_layout_is_refused(
        tables: dict[tuple[str, bool, int], SolverTable]) -> None:
    advisor = Advisor(tables["two-targets", False, 1])
    with pytest.raises(ParseError, match="layout official"):
        advisor.value(Sheet.EMPTY)
    with pytest.raises(ParseError, match="two-targets sheet"):
        advisor.advise(new_game(1), random_roll(random.Random(1)))
    other = Sheet.empty(SMALL["mixx-b-like"])
    with pytest.raises(ParseError, match="mixx-b-like"):
        advisor.value(other)
    table_advisor = TableAdvisor(tables["two-targets", False, 2])
    with pytest.raises(ParseError, match="layout official"):
        table_advisor.value(Sheet.EMPTY, before_me=1)
    with pytest.raises(ParseError, match="layout"):
        table_advisor.state_value(new_game(2), 0)


def test_for_ruleset_takes_a_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Advisor/TableAdvisor.for_ruleset solve the table of the layout they are given."""
    seen: list[tuple[Variant, int]] = []

    def small_solve(ruleset: Ruleset, *, progress: bool | None = None, players: int = 1,
                    variant: Variant) -> SolverTable:
        seen.append((variant, players))
        return solve(ruleset, variant, cache=False, progress=False, players=players)

    layout = SMALL["green-blue"]
    monkeypatch.setattr(advice_module, "solve", small_solve)
    monkeypatch.setattr(table_module, "solve", small_solve)
    advice_module._advisor.cache_clear()
    table_module._table_advisor.cache_clear()
    try:
        a = Advisor.for_ruleset(Ruleset(players=1), layout=layout, progress=False)
        t = TableAdvisor.for_ruleset(Ruleset(players=2), layout=layout, progress=False)
        assert a.sheet_layout == layout and t.sheet_layout == layout
        assert seen == [(Variant(layout), 1), (Variant(layout), 2)]
        with pytest.raises(ParseError, match="unknown layout"):
            Advisor.for_ruleset(layout="mixx-c")
        with pytest.raises(ParseError, match="layout must be"):
            Advisor.for_ruleset(layout=3)  # type: ignore[arg-type]
        # the module function picks the table of the state's layout
        state = new_game(1, layout=layout)
        roll = random_roll(random.Random(2), state.dice_in_play)
        assert advice_module.advise(state, roll) == a.advise(state, roll)
    finally:
        advice_module._advisor.cache_clear()
        table_module._table_advisor.cache_clear()


def test_review_on_a_small_layout(tables: dict[tuple[str, bool, int], SolverTable]) -> None:
    """A game the advisor plays itself loses nothing; a random game's losses are the
    brute-force best value minus the chosen plan's value."""
    layout = SMALL["two-targets"]
    table = tables["two-targets", False, 1]
    advisor = Advisor(table)
    record = random_game(1, seed=4, layout=layout)
    review = review_game(record, 0, advisor)
    assert review.layout == layout and review.to_json()["layout"] == layout.key
    states = replay(record)
    assert len(review.decisions) == len(record.turns)
    for decision, state, turn in zip(review.decisions, states, record.turns, strict=False):
        outcomes = turn_outcomes(state, turn.roll)
        values = {plan: _brute_value(table, layout, after, 0, 0)
                  for after, plans in outcomes.items() for plan in plans}
        assert decision.best_value == pytest.approx(max(values.values()), abs=1e-9)
        assert decision.chosen_value == pytest.approx(values[decision.chosen], abs=1e-9)
        assert decision.sheet.startswith(layout.key + "|")
    mismatched = random_game(1, seed=4)
    with pytest.raises(ParseError, match="layout"):
        review_game(mismatched, 0, advisor)


def test_solo_player_plays_a_small_layout(
        tables: dict[tuple[str, bool, int], SolverTable]) -> None:
    """solo's action 2 is the advisor's best completion (by the layout's positions)."""
    layout = SMALL["green-blue"]
    player = SoloPlayer(Advisor(tables["green-blue", False, 1]))
    rng = random.Random(9)
    for state in _states(layout, 1, 2, 30):
        rolled = state.with_roll(random_roll(rng, state.dice_in_play))
        a1 = player.action1(0, rolled)
        after = rolled.with_action1([a1])
        if after.phase is Phase.ACTION2:
            a2 = player.action2(0, after)
            best = player.advisor.advise_action2(after).best
            assert best.plan.action2 == a2 or best.loss == 0


def test_greedy_on_any_layout_equals_its_fast_path_on_the_official_sheet() -> None:
    """The layout path of greedy (every legal plan scored) agrees with the official fast
    path, and greedy plays Mixx games to the end with legal marks."""
    rng = random.Random(5)
    for state in _states(OFFICIAL, 2, 8, 150):
        rolled = state.with_roll(random_roll(rng, state.dice_in_play))
        assert _best_action1_any(rolled, rolled.active) == _best_action1(rolled, rolled.active)
    for layout in (MIXX_A, MIXX_B, SMALL["green-blue"]):
        player = GreedyPlayer()
        state = new_game(2, layout=layout)
        while not state.is_over:
            rolled = state.with_roll(random_roll(rng, state.dice_in_play))
            choices = [player.action1(s, rolled) for s in range(2)]
            after = rolled.with_action1(choices)  # raises on an illegal choice
            state = after if after.is_over else after.with_action2(player.action2(
                after.active, after))


# --------------------------------------------------------------------- the CLI (fake tables)

@pytest.fixture
def fake_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Variant]]:
    """advice/table ``solve`` answering constant tables (99.0 everywhere) without memory:
    the CLI's layout plumbing is under test here, not the values."""
    asked: list[Variant] = []

    def fake_solve(ruleset: Ruleset, *, progress: bool | None = None, players: int = 1,
                   variant: Variant) -> SolverTable:
        from qwixx_math.solver.layout import Layout
        asked.append(variant)
        size = Layout.of(variant, players).size
        return SolverTable(variant, ruleset, np.broadcast_to(np.float64(99.0), (size,)),
                           99.0, players=players)

    monkeypatch.setattr(advice_module, "solve", fake_solve)
    monkeypatch.setattr(table_module, "solve", fake_solve)
    advice_module._advisor.cache_clear()
    table_module._table_advisor.cache_clear()
    yield asked
    advice_module._advisor.cache_clear()
    table_module._table_advisor.cache_clear()


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


MIXX_ROLL = "w:3,5/r:1/y:2/g:6/b:4"


@pytest.mark.parametrize("layout", [MIXX_A, MIXX_B])
def test_advise_value_review_cli_on_mixx(fake_tables: list[Variant], layout: SheetLayout,
                                         capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    name = layout.name
    code, out, _ = _run(capsys, "advise", "--layout", name, "--sheet", "p:0", "--roll",
                        MIXX_ROLL, "--json", "--quiet")
    assert code == 0
    got = json.loads(out)
    assert got["sheet"].startswith(f"{name}|") and got["plans"] and got["layout"] == name
    for plan in got["plans"]:  # action 2 names the die: the cell's colour on this sheet
        a2 = plan["action2"]
        if a2 is not None:
            die = layout.cell_colour(a2["colour"], a2["number"])
            words = plan["description"].split(" — ")[0]  # then its consequences
            assert words.endswith(f"with white + {die.value}")
    assert fake_tables[-1] == Variant(layout)
    # the sheet names its layout: no --layout needed
    code, out, _ = _run(capsys, "advise", "--sheet", f"{name}|p:0", "--roll", MIXX_ROLL,
                        "--players", "2", "--quiet")
    assert code == 0 and f"{name}|" in out
    code, out, _ = _run(capsys, "advise", "--layout", name, "--sheet", "p:1", "--roll",
                        MIXX_ROLL, "--passive", "--quiet")
    assert code == 0
    code, out, _ = _run(capsys, "value", "--layout", name, "--sheet", "p:1", "--json",
                        "--quiet")
    assert code == 0
    got = json.loads(out)
    assert got["layout"] == name and got["expected_score"] == 99.0
    # a state file of the layout
    state = new_game(2, layout=layout)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state.to_json()))
    code, out, _ = _run(capsys, "advise", "--state", str(path), "--roll", MIXX_ROLL,
                        "--layout", name, "--quiet", "--json")
    assert code == 0 and json.loads(out)["plans"]
    # a record of the layout
    record = random_game(2, seed=1, layout=layout)
    rpath = tmp_path / "game.json"
    rpath.write_text(json.dumps(record.to_json()))
    for extra in ((), ("--layout", name)):
        code, out, _ = _run(capsys, "review", str(rpath), "--json", "--quiet", *extra)
        assert code == 0
        reviews = json.loads(out)["reviews"]
        assert len(reviews) == 2 and reviews[0]["decisions"] == len(record.turns)
        assert reviews[0]["layout"] == name


def test_mismatched_layouts_exit_2(fake_tables: list[Variant],
                                   capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, "advise", "--layout", "mixx-b", "--sheet", "mixx-a|p:0",
                        "--roll", MIXX_ROLL, "--quiet")
    assert code == 2 and "mixx-a" in err
    code, _, err = _run(capsys, "value", "--layout", "official", "--sheet", "mixx-b|p:0",
                        "--quiet")
    assert code == 2 and "mixx-b" in err
    state_path = tmp_path / "state.json"
    state_path.write_text(json.dumps(new_game(2, layout=MIXX_A).to_json()))
    code, _, err = _run(capsys, "advise", "--state", str(state_path), "--roll", MIXX_ROLL,
                        "--layout", "mixx-b", "--quiet")
    assert code == 2 and "mixx-a" in err and "mixx-b" in err
    code, _, err = _run(capsys, "advise", "--state", str(state_path), "--roll", MIXX_ROLL,
                        "--objective", "win", "--quiet")
    assert code == 2 and "official sheet only" in err
    record_path = tmp_path / "game.json"
    record_path.write_text(json.dumps(random_game(2, seed=2, layout=MIXX_B).to_json()))
    code, _, err = _run(capsys, "review", str(record_path), "--layout", "mixx-a", "--quiet")
    assert code == 2 and "mixx-b" in err
    # an official record (it names no layout) read as Mixx A: its first illegal mark is
    # refused with the rule, exit 2 (or it happens to be legal there: exit 0)
    official = tmp_path / "official.json"
    official.write_text(json.dumps(random_game(1, seed=3).to_json()))
    code, _, err = _run(capsys, "review", str(official), "--layout", "mixx-a", "--quiet")
    assert code in (0, 2)
    assert fake_tables  # the fake tables were used, nothing was solved
    assert format_sheet(Sheet.empty(MIXX_A)).startswith("mixx-a|")
