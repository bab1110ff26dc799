"""Move advice (issue 5): rankings checked against brute force and the solver's own turn rules."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import small_skip_chooser

from qwixx_math import IllegalMoveError, ParseError
from qwixx_math.advice import UNKNOWN, Advice, Advisor, Unknown, advise
from qwixx_math.cli import main
from qwixx_math.keys import decode_key, sheet_key
from qwixx_math.model import Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import format_roll, format_sheet, parse_sheet
from qwixx_math.rules import GameState, Phase, legal_action1, legal_plans, new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", params=[False, True], ids=["a2end0", "a2end1"])
def advisor(request: pytest.FixtureRequest) -> Advisor:
    return Advisor.for_ruleset(Ruleset(players=1, action2_after_game_end=request.param),
                               progress=False)


@pytest.fixture(scope="module")
def official(request: pytest.FixtureRequest) -> Advisor:
    return Advisor.for_ruleset(Ruleset(players=1), progress=False)


def keyed_value(table: SolverTable, sheet: Sheet, closed: frozenset[Colour],
                before_me: int = 0) -> float:
    """The table value of ``sheet`` read through the compact key (keys.sheet_key, the
    table layout's Layout.locate), independently of the look-up SolverTable and the
    advisor share; a finished game is worth its score."""
    layout = table.variant.sheet
    shut = closed | sheet.locked
    if len(shut) >= layout.closed_rows_to_end or sheet.penalties >= layout.penalty_boxes:
        return float(sheet.score)
    key = decode_key(sheet_key(sheet, shut), layout)
    index, points = table.layout.locate(key.rows, key.penalties, before_me)
    return points + float(table.data[index])


def table_value(table: SolverTable, state: GameState, player: int) -> float:
    """Value of ``player``'s sheet after a turn, through the compact key."""
    sheet = state.sheets[player]
    if state.is_over:
        return float(sheet.score)
    return keyed_value(table, sheet, state.closed)


def brute_force(advisor: Advisor, state: GameState, roll: Roll,
                others: list[Mark | None] | None = None) -> list[tuple[float, TurnPlan]]:
    """Every legal plan from the rules core, played out, valued, ranked."""
    out = []
    for plan in legal_plans(state, roll, others):
        after = state.play_plan(roll, plan, others)
        out.append((table_value(advisor.table, after, state.active), plan))
    out.sort(key=lambda vp: (-vp[0], vp[1].sort_key))
    return out


def brute_force_passive(table: SolverTable, rolled: GameState, player: int,
                        others: list[Mark | None], action2: Mark | Unknown | None = UNKNOWN
                        ) -> list[tuple[float, TurnPlan]]:
    """Every choice of a passive ``player`` (pass or a legal mark), valued after everybody's
    action 1; a known ``action2`` of the active player is played too (none when the choice
    made it illegal), an unknown one is not (no penalty is assumed)."""
    out = []
    for a1 in (None, *legal_action1(rolled, player)):
        choices = list(others)
        choices[player] = a1
        try:
            after = rolled.with_action1(choices)
        except IllegalMoveError:
            continue
        if after.phase is Phase.ACTION2 and not isinstance(action2, Unknown):
            try:
                after = after.with_action2(action2)
            except IllegalMoveError:
                after = after.with_action2(None)
        if after.ended_by is not None:
            value = float(after.sheets[player].score)
        else:
            value = table_value(table, after, player)
        out.append((value, TurnPlan(a1, None)))
    return out


def random_solitaire_state(seed: int, turns: int, ruleset: Ruleset) -> GameState:
    rng = random.Random(seed)
    state = GameState(ruleset, (Sheet.EMPTY,))
    for _ in range(turns):
        roll = random_roll(rng, state.dice_in_play)
        plans = legal_plans(state, roll)
        marking = [p for p in plans if p.action1 is not None or p.action2 is not None]
        pool = marking if marking and rng.random() < 0.85 else plans
        # prefer small skips so that rows fill up and close
        plan = min(pool, key=lambda p: (_skips(state.sheets[0], p), rng.random()))
        after = state.play_plan(roll, plan)
        if after.is_over:
            break
        state = after
    return state


def _skips(sheet: Sheet, plan: TurnPlan) -> int:
    total = 0
    for mark in plan.marks:
        last = sheet.last_number(mark.colour)
        start = -1 if last is None else mark.colour.position(last)
        total += mark.position - start - 1
        sheet = sheet.with_mark(mark.colour, mark.number)
    return total


@SETTINGS
@given(seed=st.integers(0, 10**9), turns=st.integers(0, 40), roll_seed=st.integers(0, 10**9))
def test_advice_equals_brute_force_ranking(advisor: Advisor, seed: int, turns: int,
                                           roll_seed: int) -> None:
    ruleset = Ruleset(players=1, action2_after_game_end=advisor.action2_after_action1_end)
    state = random_solitaire_state(seed, turns, ruleset)
    roll = random_roll(random.Random(roll_seed), state.dice_in_play)
    advice = advisor.advise(state, roll)
    expected = brute_force(advisor, state, roll)
    assert [r.plan for r in advice.plans] == [p for _, p in expected]
    for ranked, (value, _) in zip(advice.plans, expected, strict=True):
        assert ranked.expected_score == pytest.approx(value, abs=1e-9)
        assert ranked.loss >= 0.0
        assert ranked.loss == pytest.approx(advice.best.expected_score - value, abs=1e-9)
    assert advice.best.loss == 0.0


@SETTINGS
@given(seed=st.integers(0, 10**9), turns=st.integers(0, 40), roll_seed=st.integers(0, 10**9))
def test_best_plan_value_is_the_solvers_post_roll_value(advisor: Advisor, seed: int,
                                                        turns: int, roll_seed: int) -> None:
    """SolverTable.plan_values (rules.turn_outcomes, the table's look-up) gives the advisor's
    ranking (its own walk through action 1 and action 2), plan for plan."""
    ruleset = Ruleset(players=1, action2_after_game_end=advisor.action2_after_action1_end)
    state = random_solitaire_state(seed, turns, ruleset)
    roll = random_roll(random.Random(roll_seed), state.dice_in_play)
    solver_plans = advisor.table.plan_values(state, roll)
    advice = advisor.advise(state, roll)
    assert [p.plan for p in solver_plans] == [r.plan for r in advice.plans]
    assert [p.value for p in solver_plans] == pytest.approx(
        [r.expected_score for r in advice.plans], abs=1e-9)


@SETTINGS
@given(seed=st.integers(0, 10**9), players=st.integers(2, 5), turns=st.integers(0, 30),
       data=st.data())
def test_multiplayer_advice_with_others_choices(official: Advisor, seed: int, players: int,
                                                turns: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    state = new_game(players)
    for _ in range(turns):
        roll = random_roll(rng, state.dice_in_play)
        rolled = state.with_roll(roll)
        choices: list[Mark | None] = [
            small_skip_chooser(rolled, i, legal_action1(rolled, i), rng)
            for i in range(players)]
        try:
            after1 = rolled.with_action1(choices)
        except IllegalMoveError:
            break
        if after1.phase is not Phase.ACTION2:
            break
        plans = legal_plans(state, roll, choices)
        nxt = state.play_plan(roll, plans[-1], choices)
        if nxt.is_over:
            break
        state = nxt
    roll = random_roll(rng, state.dice_in_play)
    rolled = state.with_roll(roll)
    others: list[Mark | None] = [
        data.draw(st.sampled_from((None, *legal_action1(rolled, i)))) for i in range(players)]
    try:
        rolled.with_action1(others)
    except IllegalMoveError:
        others = [None] * players
    advice = official.advise(state, roll, others)
    expected = brute_force(official, state, roll, others)
    assert [r.plan for r in advice.plans] == [p for _, p in expected]
    assert [r.expected_score for r in advice.plans] == pytest.approx(
        [v for v, _ in expected], abs=1e-9)
    # passive advice for every other player: pass or mark, ranked by the same values
    for p in range(players):
        if p == state.active:
            continue
        passive = official.advise_passive(state, p, roll, others)
        brute = brute_force_passive(official.table, rolled, p, others)
        brute.sort(key=lambda vp: (-vp[0], vp[1].sort_key))
        assert [r.plan for r in passive.plans] == [plan for _, plan in brute]
        assert all(r.loss >= 0 and not r.penalty for r in passive.plans)


def test_value_lookup_matches_solver_api(official: Advisor) -> None:
    rng = random.Random(5)
    for seed in range(200):
        state = random_solitaire_state(seed, rng.randrange(60), Ruleset(players=1))
        sheet = state.sheets[0]
        assert official.value(sheet, state.closed) == pytest.approx(
            keyed_value(official.table, sheet, state.closed), abs=1e-12)
        assert official.table.value(sheet, state.closed) == official.value(sheet, state.closed)
    # a row another player closed with fewer than 7 of this player's marks
    sheet = Sheet.from_marks({Colour.RED: [2, 3, 4]}, penalties=1)
    closed = frozenset({Colour.RED})
    assert official.value(sheet, closed) == pytest.approx(
        keyed_value(official.table, sheet, closed), abs=1e-12)


def test_start_value_and_module_function(official: Advisor) -> None:
    assert official.value(Sheet.EMPTY) == pytest.approx(official.table.start_value, abs=1e-12)
    roll = Roll.of(3, 4, red=1, yellow=2, green=5, blue=6)
    assert advise(new_game(1), roll) == official.advise(new_game(1), roll)


def test_finished_positions_are_worth_their_score(official: Advisor) -> None:
    sheet = Sheet.from_marks({Colour.RED: [2, 3, 4, 5, 6, 12], Colour.GREEN: [12]},
                             penalties=2)
    assert official.value(sheet, frozenset({Colour.RED, Colour.BLUE})) == sheet.score
    four = Sheet.from_marks({Colour.YELLOW: [5]}, penalties=4)
    assert official.value(four) == four.score == 1 - 20


def test_errors(official: Advisor) -> None:
    roll = Roll.of(3, 4, red=1, yellow=2, green=5, blue=6)
    advice = official.advise(new_game(1), roll)
    with pytest.raises(IllegalMoveError, match="not a legal choice"):
        advice.find(TurnPlan(Mark(Colour.RED, 9), None))
    with pytest.raises(IllegalMoveError, match=r"R4: .*give the roll"):
        official.advise(new_game(1))
    with pytest.raises(ParseError, match="active player"):
        official.advise_passive(new_game(2).with_roll(roll), 0)
    with pytest.raises(ParseError, match="does not exist"):
        official.advise_passive(new_game(2).with_roll(roll), 7)
    with pytest.raises(IllegalMoveError, match="R9"):  # a die for a closed colour
        official.advise(GameState(Ruleset(players=1), (parse_sheet("r:2,3,4,5,6,12,lock"),),
                                  closed=frozenset({Colour.RED})), roll)
    other = Advisor.for_ruleset(Ruleset(action2_after_game_end=True), progress=False)
    with pytest.raises(ParseError, match="R15"):
        other.advise(new_game(1), roll)


# -- the command line ---------------------------------------------------------------------------

def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["advise", "--quiet", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_table_and_json(official: Advisor, capsys: pytest.CaptureFixture[str]) -> None:
    sheet, roll = "r:2,3/y:-/g:12/b:-/p:0", "w:3,4/r:1/y:2/g:5/b:6"
    code, out, _ = run_cli(capsys, "--sheet", sheet, "--roll", roll, "--json")
    assert code == 0
    data = json.loads(out)
    state = GameState(Ruleset(players=1), (Sheet.from_marks(
        {Colour.RED: [2, 3], Colour.GREEN: [12]}),))
    expected = official.advise(state, Roll.of(3, 4, red=1, yellow=2, green=5, blue=6))
    assert [p["plan"] for p in data["plans"]] == [str(r.plan) for r in expected.plans]
    for entry in data["plans"]:
        assert set(entry) >= {"action1", "action2", "penalty", "expected_score", "loss"}
        assert entry["penalty"] is (entry["action1"] is None and entry["action2"] is None)
    assert data["plans"][0]["loss"] == 0.0
    code, out, _ = run_cli(capsys, "--sheet", sheet, "--roll", roll, "--top", "3")
    assert code == 0
    assert "more plans" in out and "opponents are not modelled" in out
    lines = [ln for ln in out.splitlines() if ln.strip()[:1].isdigit()]
    assert len(lines) == 3


def test_cli_passive_and_closed_colours(official: Advisor,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32, item 8: a missing die is an error that names it, never a closed colour;
    a colour another player closed is read off their sheet (one --sheet per seat)."""
    code, out, err = run_cli(capsys, "--sheet", "r:2,3/p:1", "--roll", "w:3,4/r:1/y:2/b:6",
                             "--passive", "--json")
    assert (code, out) == (2, "")
    assert "R4: the roll has no green die" in err and len(err.strip().splitlines()) == 1
    code, out, _ = run_cli(capsys, "--players", "2", "--sheet", "g:12,11,10,9,8/p:0",
                           "--sheet", "r:2,3/p:1", "--me", "2", "--passive",
                           "--roll", "w:3,4/r:1/y:2/g:6/b:6", "--json")
    assert code == 0, out
    plans = json.loads(out)["plans"]
    assert all(p["action2"] is None and p["penalty"] is False for p in plans)
    assert {p["plan"] for p in plans} == {"-/-", "r7/-", "y7/-", "g7/-", "b7/-"}
    code, out, _ = run_cli(capsys, "--players", "2", "--sheet", "g:12,11,10,9,8,2,lock",
                           "--sheet", "r:2,3/p:1", "--me", "2", "--passive",
                           "--roll", "w:3,4/r:1/y:2/b:6", "--json")
    assert code == 0, out
    # green is closed on seat 1's sheet, so its die is left out and there is no green 7
    assert {p["plan"] for p in json.loads(out)["plans"]} == {"-/-", "r7/-", "y7/-", "b7/-"}
    # with one sheet, --closed names the colours the others closed (as value --closed)
    code, out, _ = run_cli(capsys, "--sheet", "r:2,3/p:1", "--roll", "w:3,4/r:1/y:2/b:6",
                           "--passive", "--closed", "g", "--json")
    assert code == 0
    assert {p["plan"] for p in json.loads(out)["plans"]} == {"-/-", "r7/-", "y7/-", "b7/-"}
    for extra in (["--closed", "b"], ["--closed", "g", "--players", "2", "--sheet", "r:-",
                                      "--me", "1"]):
        code, out, err = run_cli(capsys, "--sheet", "r:2,3/p:1", "--roll",
                                 "w:3,4/r:1/y:2/g:5/b:6", *extra)
        assert code == 2 and ("R9: another player closed blue" in err or "--closed" in err)


@pytest.mark.parametrize(("sheet", "roll", "message"), [
    ("r:5,3", "w:1,1/r:1/y:1/g:1/b:1", "R7"),
    ("r:2,3,4,5,12,lock", "w:1,1/r:1/y:1/g:1/b:1", "R8"),
    ("r:2,3,4,5,6,12,lock", "w:1,1/r:1/y:1/g:1/b:1", "R9"),
    ("r:2", "w:1,1/r:1/y:1", "R4: the roll has no green die"),
    ("r:2/p:4", "w:1,1/r:1/y:1/g:1/b:1", "R13"),
    ("r:2", "w:1,7/r:1/y:1/g:1/b:1", "R1"),
    ("q:2", "w:1,1/r:1/y:1/g:1/b:1", "unknown row"),
])
def test_cli_bad_input(official: Advisor, capsys: pytest.CaptureFixture[str], sheet: str,
                       roll: str, message: str) -> None:
    code, out, err = run_cli(capsys, "--sheet", sheet, "--roll", roll)
    assert code == 2
    assert out == ""
    assert message in err and "Traceback" not in err


@settings(max_examples=80, deadline=None)
@given(sheet=st.text(max_size=30), roll=st.text(max_size=30))
def test_cli_fuzz_only_clean_errors(official: Advisor, sheet: str, roll: str) -> None:
    try:
        code = main(["advise", "--quiet", "--sheet", sheet, "--roll", roll, "--json"])
    except SystemExit as exc:  # argparse: e.g. a value that looks like an option
        assert exc.code == 2
        return
    assert code in (0, 2)


def test_cli_round_trips_the_inputs(official: Advisor, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    sheet = Sheet.from_marks({Colour.BLUE: [12, 10]}, penalties=2)
    roll = Roll.of(6, 6, red=6, yellow=1, green=2, blue=3)
    code, out, _ = run_cli(capsys, "--sheet", format_sheet(sheet), "--roll",
                           format_roll(roll), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["sheet"] == format_sheet(sheet) and data["roll"] == format_roll(roll)
    assert isinstance(Advice, type)
