"""The exact solver on Qwixx Longo sheets with lucky numbers (VARIANTS.md LG3-LG5, V9;
issue 34).

At a lucky white sum the active player may cross the next cell of a row with the fewest
crosses, instead of the white-sum cross (``lg_lucky_mode = instead``) or also after it
(``additional``), the fewest taken over the open rows (``lg_lucky_candidates =
open_rows``) or over those with a next cell (``open_with_next_cell``).  Checked here:

* the fast solver (with and without its symmetry reduction) against the naive reference
  solver, which plays every roll through the rules core (whose ``legal_action1`` offers
  the lucky crosses), on **every** state of small 8-sided layouts with lucky numbers,
  under all four combinations of the Options and both R15 options, to 1e-9;
* that the Options change the game (different values) and its cache key, that the flip
  symmetry needs a flip-symmetric pair, and that the table model refuses lucky sheets;
* that a table refuses a game of other lucky Options (LG4, LG5);
* the command line (``solve``, ``value``, ``advise``, ``review``) with
  ``--lg-lucky-mode``/``--lg-lucky-candidates``, and ``prob``'s refusal;
* Monte-Carlo play of the solved policy through the rules core.

The full ``longo:A,B`` solves take minutes: benchmarks/bench_longo_lucky_solve.py runs them.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import statistics
from pathlib import Path

import pytest
from test_review import optimal_game
from test_solver_layouts import check_every_state
from test_solver_longo import LARGER, SMALL

from qwixx_math.advice import Advisor
from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import LAYOUTS, LONGO, SheetLayout
from qwixx_math.model import COLOURS, LuckyMark, Sheet
from qwixx_math.notation import parse_roll
from qwixx_math.record import GameRecord, random_game
from qwixx_math.review import review_game
from qwixx_math.rules import GameState
from qwixx_math.ruleset import LuckyCandidates, LuckyMode, Ruleset
from qwixx_math.solver import Variant, solve, symmetry_group
from qwixx_math.table import TableAdvisor

R, Y, G, B = COLOURS
INSTEAD, ADDITIONAL = LuckyMode.INSTEAD, LuckyMode.ADDITIONAL
OPEN_ROWS, NEXT_CELL = LuckyCandidates.OPEN_ROWS, LuckyCandidates.OPEN_WITH_NEXT_CELL


def lucky(layout: SheetLayout, pair: tuple[int, int], name: str | None = None) -> SheetLayout:
    """``layout`` with the lucky numbers ``pair`` (a small layout has no published key for
    :meth:`SheetLayout.with_lucky` to name it by)."""
    return dataclasses.replace(layout, name=name or f"{layout.name}:{pair[0]},{pair[1]}",
                               lucky=pair)


def ruleset(mode: LuckyMode = INSTEAD, candidates: LuckyCandidates = OPEN_ROWS,
            a2: bool = False) -> Ruleset:
    return Ruleset(players=1, action2_after_game_end=a2, lg_lucky_mode=mode,
                   lg_lucky_candidates=candidates)


#: high5 (threshold 2: a row whose last cross is before the lock numbers with one cross
#: has no next cell, so the two LG5 Options differ) with a flip-symmetric pair; mixed5
#: (mixed cell colours) with a pair the flip does not keep.
HIGH5 = lucky(LARGER["high5"], (6, 12))
MIXED5 = lucky(LARGER["mixed5"], (7, 14))


@pytest.mark.parametrize(("mode", "candidates", "a2"), [
    (INSTEAD, OPEN_ROWS, False), (ADDITIONAL, NEXT_CELL, True)])
def test_fast_solver_equals_naive_solver_on_every_state(mode: LuckyMode,
                                                         candidates: LuckyCandidates,
                                                         a2: bool) -> None:
    rules = ruleset(mode, candidates, a2)
    assert check_every_state(HIGH5, a2, rules) == 98


@pytest.mark.slow
@pytest.mark.parametrize("layout", [HIGH5, MIXED5, lucky(SMALL["high"], (5, 13))],
                         ids=lambda layout: layout.name)
def test_fast_solver_equals_naive_solver_on_every_state_slow(layout: SheetLayout) -> None:
    """Every combination of the Options and R15 on three layouts; the Options change the
    value (LG4 additional only adds choices; LG5 open_with_next_cell only adds lucky
    crosses)."""
    for a2 in (False, True):
        values = {}
        for mode in LuckyMode:
            for candidates in LuckyCandidates:
                rules = ruleset(mode, candidates, a2)
                check_every_state(layout, a2, rules)
                values[mode, candidates] = solve(rules, layout=layout, cache=False).start_value
        for candidates in LuckyCandidates:
            assert values[ADDITIONAL, candidates] > values[INSTEAD, candidates]
        for mode in LuckyMode:
            assert values[mode, NEXT_CELL] >= values[mode, OPEN_ROWS]


def test_the_options_change_the_value() -> None:
    """On high5 each Option changes the start value, and a lucky pair beats none."""
    values = {(mode, candidates): solve(ruleset(mode, candidates), layout=HIGH5,
                                        cache=False).start_value
              for mode in LuckyMode for candidates in LuckyCandidates}
    plain = solve(ruleset(), layout=LARGER["high5"], cache=False).start_value
    assert len(set(values.values())) == 4
    assert min(values.values()) > plain
    assert values[ADDITIONAL, OPEN_ROWS] > values[INSTEAD, OPEN_ROWS]
    assert values[INSTEAD, NEXT_CELL] > values[INSTEAD, OPEN_ROWS]


def test_keys_and_symmetry_of_lucky_sheets() -> None:
    """The pair and the Options are in the variant's key (the cache file's name); the flip
    d -> 9 - d keeps a pair only if it maps it onto itself (S -> 18 - S)."""
    layout = LONGO.with_lucky((5, 13))
    base = Variant(layout)
    assert base.key == "longo-lucky5.13" and base.lucky == (5, 13)
    additional = base.with_lucky_options(True, False)
    both = base.with_lucky_options(True, True)
    assert additional.key == "longo-lucky5.13-lgadd" and both.key == "longo-lucky5.13-lgadd-lgnext"
    assert len({base, additional, both, Variant(LONGO)}) == 4
    assert Variant(LONGO).with_lucky_options(True, True) == Variant(LONGO)  # no lucky numbers
    assert additional.to_json()["lg_lucky_mode"] == "additional"
    assert base.to_json()["lucky"] == [5, 13]
    assert len(symmetry_group(base)) == 8  # 18 - 5 = 13
    assert len(symmetry_group(Variant(LONGO.with_lucky((8, 10))))) == 8
    assert len(symmetry_group(Variant(LONGO.with_lucky((5, 12))))) == 4  # no flip


def test_the_table_model_refuses_lucky_numbers() -> None:
    with pytest.raises(ParseError) as err:
        solve(ruleset(), layout=HIGH5, players=2, cache=False)
    assert err.value.rule == "LG3"


def test_a_table_refuses_a_game_of_other_lucky_options() -> None:
    """A table answers for its own Options only (its values would be another game's)."""
    table = solve(ruleset(), layout=HIGH5, cache=False)
    sheet = Sheet.empty(HIGH5)
    for rules, rule in ((ruleset(ADDITIONAL), "LG4"), (ruleset(INSTEAD, NEXT_CELL), "LG5")):
        with pytest.raises(ParseError) as err:
            table.plan_values(GameState(rules, (sheet,)), parse_roll("d8|w:2,4/r:1/y:1"))
        assert err.value.rule == rule
        with pytest.raises(ParseError) as err:
            Advisor(table).check_ruleset(rules)
        assert err.value.rule == rule


def test_the_advisors_carry_the_lucky_options() -> None:
    """``for_ruleset`` solves the table of the ruleset's lucky Options (a table of the
    default Options would answer for another game)."""
    rules = ruleset(ADDITIONAL, NEXT_CELL)
    expected = solve(rules, layout=HIGH5, cache=False).start_value
    advisor = Advisor.for_ruleset(rules, layout=HIGH5, progress=False)
    table = TableAdvisor.for_ruleset(rules, players=1, layout=HIGH5, progress=False)
    assert advisor.table.variant.lucky_additional and advisor.table.variant.lucky_next_cell
    assert advisor.table.start_value == pytest.approx(expected, abs=1e-12)
    assert table.table.start_value == pytest.approx(expected, abs=1e-12)


def test_the_plans_include_the_lucky_crosses() -> None:
    """Empty high5 sheet (red 12..16, yellow 6..2), white sum 6 (lucky): the plans include
    the lucky crosses of both rows (each has the fewest, 0), R12 and Y6, valued as the
    sheet they leave."""
    rules = ruleset()
    table = solve(rules, layout=HIGH5, cache=False)
    plans = {str(pv.plan): pv.value for pv in table.plan_values(
        GameState(rules, (Sheet.empty(HIGH5),)), parse_roll("d8|w:2,4/r:8/y:8"))}
    assert plans["*r12/-"] == table.value(Sheet.from_marks({R: [12]}, layout=HIGH5))
    assert plans["*y6/-"] == table.value(Sheet.from_marks({Y: [6]}, layout=HIGH5))


def test_solve_value_advise_and_review_on_the_command_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """``--layout`` of a small lucky layout (registered as a published one for the test, as
    ``longo:A,B`` is) with the lucky Options as flags: the values are the solver's for those
    Options, and ``--lg-lucky-mode additional`` changes the value."""
    layout = lucky(LARGER["high5"], (6, 12), name="hl")
    monkeypatch.setitem(LAYOUTS, "hl", layout)
    values = {}
    for flags, rules in (([], ruleset()), (["--lg-lucky-mode", "additional"],
                                           ruleset(ADDITIONAL)),
                         (["--lg-lucky-candidates", "open_with_next_cell"],
                          ruleset(INSTEAD, NEXT_CELL))):
        table = solve(rules, layout=layout, cache=False)
        assert main(["solve", "--layout", "hl", "--json", "--quiet", *flags]) == 0
        solved = json.loads(capsys.readouterr().out)
        assert solved["expected_score"] == pytest.approx(table.start_value, abs=1e-12)
        assert main(["value", "--sheet", "r:13", "--layout", "hl", "--json", "--quiet",
                     *flags]) == 0
        valued = json.loads(capsys.readouterr().out)
        sheet = Sheet.from_marks({R: [13]}, layout=layout)
        assert valued["expected_score"] == pytest.approx(table.value(sheet), abs=1e-12)
        values[tuple(flags)] = valued["expected_score"]
        roll = "d8|w:2,4/r:8/y:1"  # white sum 6: lucky
        assert main(["advise", "--sheet", "r:13", "--roll", roll, "--layout", "hl", "--json",
                     "--quiet", *flags]) == 0
        advised = json.loads(capsys.readouterr().out)
        best = table.best_plan(GameState(rules, (sheet,)), parse_roll(roll))
        assert advised["plans"][0]["expected_score"] == pytest.approx(best.value, abs=1e-12)
        assert advised["plans"][0]["plan"] == str(best.plan)
    assert len(set(values.values())) == 3
    # review reads the Options from the record's ruleset
    rules = ruleset(ADDITIONAL)
    record = random_game(1, seed=4, ruleset=rules, layout=layout)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()))
    assert main(["review", str(path), "--json", "--quiet"]) == 0
    (rev,) = json.loads(capsys.readouterr().out)["reviews"]
    advisor = Advisor(solve(rules, layout=layout, cache=False))
    assert rev["total_loss"] == pytest.approx(review_game(record, 0, advisor).total_loss)


def test_prob_answers_on_lucky_sheets(capsys: pytest.CaptureFixture[str]) -> None:
    """``prob`` on a lucky sheet (it refused them until the turn-event calculator counted
    lucky crosses; its exact figures are checked against brute force in
    tests/test_dice_lucky.py): exit 0, with the lucky cross's own line."""
    assert main(["prob", "--layout", "longo:5,13", "--sheet", "r:2"]) == 0
    out = capsys.readouterr().out
    assert "a lucky cross is possible (LG3)" in out


def test_review_of_lucky_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A random game (on high5 registered as a published layout: a record names its
    layout) reviewed by its table loses >= 0 per decision; a game of the advisor's best
    plans, lucky crosses among them, loses nothing."""
    layout = lucky(LARGER["high5"], (6, 12), name="hl")
    monkeypatch.setitem(LAYOUTS, "hl", layout)
    rules = ruleset(ADDITIONAL, NEXT_CELL)
    advisor = Advisor(solve(rules, layout=layout, cache=False))
    review = review_game(random_game(1, seed=9, ruleset=rules, layout=layout), 0, advisor)
    assert review.decisions and all(d.loss >= -1e-9 for d in review.decisions)
    turns = [t for seed in range(10) for t in optimal_game(advisor, random.Random(seed))[1]]
    assert any(isinstance(t.action1[0], LuckyMark) for t in turns)
    game = optimal_game(advisor, random.Random(9))[1]  # (y6+*r12 in turn 2)
    best = review_game(GameRecord(("P1",), rules, tuple(game), layout=layout), 0, advisor)
    assert all(abs(d.loss) <= 1e-9 for d in best.decisions)


@pytest.mark.parametrize(("mode", "candidates"), [(INSTEAD, OPEN_ROWS), (ADDITIONAL, NEXT_CELL)])
def test_optimal_play_reproduces_the_value(mode: LuckyMode,
                                           candidates: LuckyCandidates) -> None:
    """The advisor's best plan, applied by the rules core (which plays the lucky crosses),
    in 4,000 games (short ones: one closed row or two penalties end them; about 3 s): the
    mean score is within 4 standard errors of the table's value."""
    rules = ruleset(mode, candidates)
    advisor = Advisor(solve(rules, layout=MIXED5, cache=False))
    rng = random.Random(34)
    scores = [optimal_game(advisor, rng)[0] for _ in range(4000)]
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / math.sqrt(len(scores))
    assert abs(mean - advisor.table.start_value) < 4 * se
