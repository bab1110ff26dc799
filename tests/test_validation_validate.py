"""The validator: every violation of a record, with turn, player and rule id (issue 6).

Small records are written by hand in the text notation, with the bug and the
expected violations worked out from RULES.md.  A differential test compares the
first violation with the first error of the core's strict replay on randomly
corrupted legal games.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.errors import IllegalMoveError
from qwixx_math.model import COLOURS
from qwixx_math.notation import mark_to_json, parse_action1, parse_mark, parse_roll, roll_to_json
from qwixx_math.record import GameRecord, GameResult, TurnRecord, random_game, replay
from qwixx_math.rules import new_game
from qwixx_math.ruleset import DieRemoval, EndCheck, Ruleset
from qwixx_math.validation import (
    RecordError,
    Step,
    ValidationReport,
    check_record,
    validate_data,
    validate_file,
    validate_record,
)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "buggy_record.json"

Key = tuple[int, str, int | None, str]


def turn(active: int, roll: str, action1: str, action2: str = "-",
         penalties: Sequence[int] | None = None,
         scores: Sequence[int] | None = None) -> TurnRecord:
    return TurnRecord(active, parse_roll(roll), parse_action1(action1),
                      None if action2 == "-" else parse_mark(action2),
                      tuple(scores) if scores is not None else None,
                      tuple(penalties) if penalties is not None else None)


def game(turns: Sequence[TurnRecord], players: int = 1, result: GameResult | None = None,
         ruleset: Ruleset | None = None) -> GameRecord:
    rs = ruleset if ruleset is not None else Ruleset(players=players)
    names = tuple(f"P{i}" for i in range(rs.players))
    return GameRecord(names, rs, tuple(turns), 0, None, result)


def keys(report: ValidationReport) -> list[Key]:
    return [(v.turn, v.step.value, v.player, v.rule) for v in report.violations]


def whites(total: int) -> str:
    """White dice that sum to ``total``."""
    a = min(6, total - 1)
    return f"w:{a},{total - a}"


def solo_marks(marks: str, closed: str = "") -> list[TurnRecord]:
    """Solitaire turns marking each of ``marks`` (``"r2 r3 ..."``) with the white sum; the
    colours in ``closed`` are left out of the rolls."""
    out = []
    for text in marks.split():
        mark = parse_mark(text)
        dice = "/".join(f"{c.letter}:1" for c in COLOURS if c.letter not in closed)
        out.append(turn(0, f"{whites(mark.number)}/{dice}", text))
        if mark.closes:
            closed += mark.colour.letter
    return out


RED_CLOSED = "r2 r3 r4 r5 r6 r12"


# -- legal records ---------------------------------------------------------------------------------

ALL_RULESETS = [Ruleset(players=p, die_removal=d, end_check=e, simultaneous_close=s,
                        action2_after_game_end=a)
                for p in (1, 2, 4) for d in DieRemoval for e in EndCheck
                for s in (True, False) for a in (False, True)]


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: str(ALL_RULESETS.index(r)))
def test_legal_games_are_valid_and_replay_like_the_core(ruleset: Ruleset) -> None:
    for seed in range(3):
        record = random_game(seed=seed, ruleset=ruleset)
        found = check_record(record)
        assert found.violations == ()
        assert found.final == replay(record)[-1]
        report = validate_record(record)
        assert report.valid and report.dialects == ()
        assert record.result is not None
        assert report.scores == record.result.scores
        assert report.winners == record.result.winners
        assert report.ended_by == record.result.ended_by
        assert report.end_turn == len(record.turns)


def test_claims_that_match_are_valid() -> None:
    record = random_game(players=3, seed=9)
    states = replay(record)
    claimed = tuple(TurnRecord(t.active, t.roll, t.action1, t.action2, s.scores,
                               tuple(sh.penalties for sh in s.sheets))
                    for t, s in zip(record.turns, states[1:], strict=True))
    report = validate_record(GameRecord(record.players, record.ruleset, claimed, 0, 1,
                                        record.result))
    assert report.valid


# -- one bug, one violation ------------------------------------------------------------------------

def test_r08_lock_with_four_marks_does_not_cascade() -> None:
    """The program let the player close red with 4 marks and then left the red die out of
    every roll: one R8 violation, no R4 for the rolls that follow (the evident state)."""
    turns = solo_marks("r2 r3 r4 r5 r12 y2 y3")  # rolls without red after red 12
    report = validate_record(game(turns))
    assert keys(report) == [(5, "action1", 0, "R8"), (7, "end", None, "R14")]
    first = report.violations[0]
    assert first.attempted == "r12" and first.legal == ("-", "g12", "b12")
    assert "needs 5 marks in red before it; this sheet has 4" in first.message


def test_r12_wrong_player_once() -> None:
    turns = [turn(0, "w:1,1/r:1/y:1/g:1/b:1", "r2,-,-"),
             turn(2, "w:1,2/r:1/y:1/g:1/b:1", "-,-,r3"),
             turn(0, "w:2,2/r:1/y:1/g:1/b:1", "r4,-,-"),
             turn(1, "w:2,3/r:1/y:1/g:1/b:1", "-,r5,-")]
    report = validate_record(game(turns, players=3))
    assert keys(report) == [(2, "turn", 2, "R12"), (4, "end", None, "R14")]
    assert "it is player 1's turn" in report.violations[0].message


def test_roll_with_a_closed_die_and_a_missing_die() -> None:
    turns = solo_marks(RED_CLOSED)
    turns.append(turn(0, "w:1,1/r:4/y:1/g:1/b:1", "y2", "r5"))  # red die rolled and used
    turns.append(turn(0, "w:1,2/g:1/b:1", "y3"))  # no red (right), no yellow (R4)
    report = validate_record(game(turns))
    assert keys(report) == [(7, "roll", 0, "R9"), (7, "action2", 0, "R9"),
                            (8, "roll", 0, "R4"), (8, "end", None, "R14")]
    assert "red was closed in turn 6" in report.violations[0].message
    assert report.violations[1].legal == ("-",)


def test_every_illegal_action1_choice_of_a_turn() -> None:
    turns = [turn(0, "w:3,5/r:1/y:1/g:1/b:1", "r9,r8,g7")]
    report = validate_record(game(turns, players=3))
    assert keys(report)[:2] == [(1, "action1", 0, "R5"), (1, "action1", 2, "R5")]
    assert report.violations[0].legal == ("-", "r8", "y8", "g8", "b8")


@pytest.mark.parametrize(("roll", "a1", "a2", "rule", "step"), [
    ("w:3,3/r:2/y:1/g:4/b:1", "r6", "r5", "R7", "action2"),  # left of the action-1 mark
    ("w:3,3/r:3/y:1/g:4/b:1", "r6", "r6", "R7", "action2"),  # the same number twice
    ("w:3,3/r:2/y:1/g:4/b:1", "-", "g10", "R6", "action2"),  # white + green makes 7
    ("w:3,3/r:2/y:1/g:4/b:1", "r7", "-", "R5", "action1"),   # the white sum is 6
])
def test_single_move_errors(roll: str, a1: str, a2: str, rule: str, step: str) -> None:
    report = validate_record(game([turn(0, roll, a1, a2)]))
    assert keys(report) == [(1, step, 0, rule), (1, "end", None, "R14")]


def test_r09_closed_colour_marked_by_another_player() -> None:
    """Both players mark red 2..6; player 1 closes red; player 0 then marks red 7."""
    turns = [turn(k % 2, f"{whites(n)}/r:1/y:1/g:1/b:1", f"r{n},r{n}") for k, n in
             enumerate((2, 3, 4, 5, 6))]
    turns.append(turn(1, "w:6,6/r:1/y:1/g:1/b:1", "-,r12"))
    turns.append(turn(0, "w:3,4/y:1/g:1/b:1", "r7,-", "b5"))
    report = validate_record(game(turns, players=2))
    assert keys(report) == [(7, "action1", 0, "R9"), (7, "end", None, "R14")]
    assert "red is closed; player 0 may not mark red 7" in report.violations[0].message
    assert report.violations[0].legal == ("-", "y7", "g7", "b7")


# -- the end of the game ---------------------------------------------------------------------------

def test_r15_action2_after_the_game_ended_in_action1() -> None:
    turns = solo_marks(RED_CLOSED) + solo_marks("y2 y3 y4 y5 y6", closed="r")
    turns.append(turn(0, "w:6,6/y:2/g:1/b:1", "y12", "g7"))
    report = validate_record(game(turns))
    assert keys(report) == [(12, "action2", 0, "R15")]
    assert report.ended_by == "R14" and report.end_turn == 12
    assert report.scores == (28 + 28 + 1,)  # the program evidently marked green 7
    assert [str(s) for d in report.dialects for s in d.switches] == [
        "end_check=end_of_turn", "action2_after_game_end=true"]
    assert all(d.explains_all for d in report.dialects)
    relaxed = validate_record(game(turns, ruleset=Ruleset(1, action2_after_game_end=True)))
    assert relaxed.valid


def test_turns_after_the_end_are_one_violation() -> None:
    turns = solo_marks(RED_CLOSED) + solo_marks("y2 y3 y4 y5 y6 y12 g12 g11", closed="r")
    report = validate_record(game(turns, result=GameResult((56,), (0,), "R14")))
    assert keys(report) == [(13, "turn", None, "R14")]
    assert "the game ended in turn 12" in report.violations[0].message
    assert "2 more turn(s)" in report.violations[0].message


def test_record_ending_before_the_game_does() -> None:
    turns = solo_marks("r2 r3")
    report = validate_record(game(turns, result=GameResult((3,), (0,), "R13")))
    assert keys(report) == [(2, "end", None, "R13")]
    assert "the game is not over" in report.violations[0].message
    assert not report.valid and report.ended_by is None


def test_fourth_penalty_ends_the_game() -> None:
    turns = [turn(0, "w:1,1/r:1/y:1/g:1/b:1", "-") for _ in range(4)]
    report = validate_record(game(turns, result=GameResult((-20,), (0,), "R13")))
    assert report.valid and report.ended_by == "R13" and report.end_turn == 4


# -- claimed results -------------------------------------------------------------------------------

def _finished(players: int = 3, seed: int = 4) -> tuple[GameRecord, GameResult]:
    record = random_game(players=players, seed=seed)
    assert record.result is not None
    return record, record.result


def test_claimed_end_and_winners() -> None:
    record, result = _finished()
    other = "R13" if result.ended_by == "R14" else "R14"
    wrong = GameRecord(record.players, record.ruleset, record.turns, 0, None,
                       GameResult(result.scores, result.winners, other))
    assert keys(validate_record(wrong)) == [(len(record.turns), "result", None,
                                             result.ended_by or "")]
    losers = tuple(i for i in range(3) if i not in result.winners)
    assert losers
    wrong = GameRecord(record.players, record.ruleset, record.turns, 0, None,
                       GameResult(result.scores, losers, result.ended_by))
    assert keys(validate_record(wrong)) == [(len(record.turns), "result", None, "R18")]


def test_claimed_score_off_by_a_lock() -> None:
    record, result = _finished()
    scores = list(result.scores)
    scores[1] -= 7  # e.g. a closed row of 7 marks counted as 6
    wrong = GameRecord(record.players, record.ruleset, record.turns, 0, None,
                       GameResult(tuple(scores), result.winners, result.ended_by))
    report = validate_record(wrong)
    found = [v for v in report.violations if v.player == 1]
    assert [(v.step, v.rule) for v in found] == [(Step.RESULT, "R16")]
    assert "by -7" in found[0].message and "lock box counting as a mark" in found[0].message


def test_passive_penalty_seen_in_the_final_scores_only() -> None:
    """Without per-turn claims, 5 points fewer for a player who passed as a passive player
    is reported as a penalty the rules do not give (R11)."""
    record, result = _finished()
    scores = list(result.scores)
    scores[2] -= 5
    wrong = GameRecord(record.players, record.ruleset, record.turns, 0, None,
                       GameResult(tuple(scores), result.winners, result.ended_by))
    found = [v for v in validate_record(wrong).violations if v.player == 2]
    assert [(v.step, v.rule) for v in found] == [(Step.RESULT, "R11")]
    assert "non-active players never take a penalty" in found[0].message


def test_per_turn_penalty_claims_pin_the_turn() -> None:
    turns = [turn(0, "w:1,1/r:1/y:1/g:1/b:1", "r2,-", penalties=[0, 0]),
             turn(1, "w:1,2/r:1/y:1/g:1/b:1", "-,-", "r2", penalties=[0, 0]),
             turn(0, "w:2,2/r:1/y:1/g:1/b:1", "r4,-", penalties=[0, 1]),  # passive penalised
             turn(1, "w:2,3/r:1/y:1/g:1/b:1", "-,-", penalties=[0, 1])]   # no penalty given
    report = validate_record(game(turns, players=2))
    assert keys(report) == [(3, "penalties", 1, "R11"), (4, "penalties", 1, "R11"),
                            (4, "end", None, "R14")]
    assert "was not the active player" in report.violations[0].message
    assert "marked nothing in either action" in report.violations[1].message


def test_adopted_penalties_let_the_program_end_the_game() -> None:
    """The program penalises the passive player 1 whenever player 0 is active: its game ends
    by R13 with player 1's fourth box in turn 7, and the validator follows it there (four
    R11 violations, no 'turn after the end', no score differences)."""
    turns = []
    for k in range(7):
        marks = ["-", "-"]
        marks[k % 2] = f"b{12 - k}"  # the active player marks blue 12, 11, 10, ...
        turns.append(turn(k % 2, f"{whites(12 - k)}/r:1/y:1/g:1/b:1", ",".join(marks),
                          penalties=[0, k // 2 + 1]))
    report = validate_record(game(turns, players=2, result=GameResult((10, -14), (0,), "R13")))
    assert keys(report) == [(k, "penalties", 1, "R11") for k in (1, 3, 5, 7)]
    assert report.ended_by == "R13" and report.end_turn == 7
    assert report.scores == (10, -14)


def test_score_claims_are_compared_turn_by_turn() -> None:
    turns = [turn(0, "w:1,1/r:1/y:1/g:1/b:1", "r2", scores=[1]),
             turn(0, "w:1,2/r:1/y:1/g:1/b:1", "r3", scores=[4]),   # 3 by the rules
             turn(0, "w:2,2/r:1/y:1/g:1/b:1", "r4", scores=[7])]   # +3: consistent
    report = validate_record(game(turns, result=GameResult((7,), (0,), "R13")))
    assert keys(report) == [(2, "scores", 0, "R16"), (3, "end", None, "R13")]
    assert "changes by +3 this turn; the rules give +2" in report.violations[0].message


# -- the documented example ------------------------------------------------------------------------

def test_documented_buggy_record() -> None:
    report = validate_file(EXAMPLE)
    assert keys(report) == [(7, "action2", 0, "R9"), (8, "action1", 0, "R9"),
                            (9, "penalties", 1, "R11"), (10, "action1", 0, "R8")]
    assert [(str(d.switches[0]), d.explains_all) for d in report.dialects] == [
        ("die_removal=end_of_turn", False)]
    assert report.scores == (27, 25) and report.winners == (0,) and report.ended_by == "R14"


# -- differential: the first violation is the core's first error -----------------------------------

def core_first_error(record: GameRecord) -> tuple[int, str] | None:
    """Replay with the core, strictly: the (turn, rule) of the first error, or None."""
    state = new_game(ruleset=record.ruleset, first=record.first)
    for k, t in enumerate(record.turns, start=1):
        if state.is_over:
            return k, state.ended_by or ""
        if t.active != state.active:
            return k, "R12"
        try:
            state = state.play_turn(t.roll, t.action1, t.action2)
        except IllegalMoveError as exc:
            return k, exc.rule
    return None


MOVE_STEPS = {Step.TURN, Step.ROLL, Step.ACTION1, Step.ACTION2}


def corrupt(data: dict[str, Any], rng: random.Random) -> None:
    turns = data["turns"]
    n = len(data["players"])
    k = rng.randrange(len(turns))
    t = turns[k]
    kind = rng.randrange(7)
    colour = COLOURS[rng.randrange(4)].value
    if kind == 0:
        t["action1"][rng.randrange(n)] = {"colour": colour, "number": rng.randint(2, 12)}
    elif kind == 1:
        t["action2"] = {"colour": colour, "number": rng.randint(2, 12)}
    elif kind == 2:
        t["roll"][colour] = rng.randint(1, 6)
    elif kind == 3:
        t["roll"].pop(colour, None)
    elif kind == 4:
        t["active"] = rng.randrange(n)
    elif kind == 5:
        turns.append(copy.deepcopy(turns[-1]))
    else:
        del turns[k:]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 5), st.integers(0, 10**6), st.integers(1, 3),
       st.sampled_from(ALL_RULESETS[::5]))
def test_first_violation_is_the_cores_first_error(players: int, seed: int, bugs: int,
                                                  switches: Ruleset) -> None:
    ruleset = Ruleset(players, switches.action2_after_game_end, switches.die_removal,
                      switches.end_check, switches.simultaneous_close)
    data = random_game(seed=seed, ruleset=ruleset).to_json()
    rng = random.Random(seed)
    for _ in range(bugs):
        if data["turns"]:
            corrupt(data, rng)
    report = validate_data(data, dialects=False)
    record = GameRecord.from_json(data)
    first = core_first_error(record)
    moves = [v for v in report.violations if v.step in MOVE_STEPS]
    if first is None:
        assert moves == []
        states = replay(record)
        if report.valid:
            assert states[-1].is_over and record.result is not None
            assert states[-1].scores == record.result.scores
    else:
        assert moves, report.to_text()
        assert (moves[0].turn, moves[0].rule) == first, report.to_text()
    json.dumps(report.to_json())
    assert report.to_text()


@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_well_formed_records_never_crash(data: st.DataObject) -> None:
    """Records of random rolls and random marks: a report, never an exception."""
    players = data.draw(st.integers(1, 5))
    turns = []
    for _ in range(data.draw(st.integers(0, 8))):
        roll = {"white": [data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))]}
        for c in COLOURS:
            if data.draw(st.integers(0, 4)):
                roll[c.value] = data.draw(st.integers(1, 6))
        mark = st.one_of(st.none(), st.builds(
            lambda c, n: {"colour": c, "number": n},
            st.sampled_from([c.value for c in COLOURS]), st.integers(2, 12)))
        entry: dict[str, Any] = {
            "active": data.draw(st.integers(0, players - 1)), "roll": roll,
            "action1": [data.draw(mark) for _ in range(players)], "action2": data.draw(mark)}
        if data.draw(st.booleans()):
            entry["penalties"] = [data.draw(st.integers(0, 4)) for _ in range(players)]
        if data.draw(st.booleans()):
            entry["scores"] = [data.draw(st.integers(-20, 100)) for _ in range(players)]
        turns.append(entry)
    record: dict[str, Any] = {"format": "qwixx-math/game-record", "version": 1,
                              "players": [f"P{i}" for i in range(players)], "turns": turns}
    if data.draw(st.booleans()):
        record["result"] = {"scores": [data.draw(st.integers(-20, 100))
                                       for _ in range(players)],
                            "winners": [0], "ended_by": data.draw(st.sampled_from(
                                [None, "R13", "R14"]))}
    report = validate_data(record)
    assert report.valid == (report.violations == ())
    assert [v.turn for v in report.violations] == sorted(v.turn for v in report.violations)
    json.dumps(report.to_json())


def test_hand_built_records_with_bad_shapes_raise_record_errors() -> None:
    record = random_game(players=2, seed=1)
    bad = GameRecord(record.players, record.ruleset,
                     (TurnRecord(0, record.turns[0].roll, (None,), None),), 0)
    with pytest.raises(RecordError, match="one choice per player"):
        validate_record(bad)
    with pytest.raises(RecordError, match="ruleset is for 3"):
        validate_record(record, Ruleset(players=3))
    with pytest.raises(RecordError):
        validate_record("not a record")  # type: ignore[arg-type]


def test_text_report_lists_violations_and_result() -> None:
    report = validate_file(EXAMPLE)
    text = report.to_text().splitlines()
    assert text[0] == ("INVALID: 4 violation(s) in 10 turn(s) under the official rules, "
                       "2 player(s)")
    assert text[1].startswith("turn 7, action 2, player 0 (Kari): R9: ")
    assert text[5] == ("the result of the marks made, with the record's penalty boxes (Ola: 1 "
                       "more than the rules give): ended by R14 in turn 10; "
                       "scores Kari 27, Ola 25; winner(s) Kari")
    assert text[6].startswith("dialect: die_removal=end_of_turn (R9) would explain 1")


def test_mark_json_helpers_round_trip() -> None:
    """The helpers of this file write what the notation reads (guards the hand records)."""
    t = turn(0, "w:3,5/r:1/y:2/g:6/b:4", "r8", "g9")
    assert roll_to_json(t.roll) == {"white": [3, 5], "red": 1, "yellow": 2, "green": 6,
                                    "blue": 4}
    assert mark_to_json(t.action2) == {"colour": "green", "number": 9}


# -- issue 32: a dropped penalty, the result line, the winners' names ---------------------------

def _dropped_penalty(result: GameResult | None) -> GameRecord:
    """Player 1, active in turn 2, marks nothing: the rules give a penalty box, the record's
    turn claims give none."""
    return game([turn(0, "w:1,1/r:1/y:1/g:1/b:1", "r2,-", penalties=[0, 0]),
                 turn(1, "w:1,2/r:1/y:1/g:1/b:1", "-,-", penalties=[0, 0])],
                players=2, result=result)


def test_a_dropped_penalty_is_one_violation_when_the_result_counts_it() -> None:
    """The result claims the rules' total (-5): no second violation blaming penalties for
    passing as a non-active player, which the record's turn claims cannot explain."""
    report = validate_record(_dropped_penalty(GameResult((1, -5), (0,), None)), partial=True)
    assert keys(report) == [(2, "penalties", 1, "R11")]
    assert "marked nothing in either action" in report.violations[0].message


def test_a_result_counting_the_records_penalties_is_not_blamed_on_passes() -> None:
    """With a penalty claim every turn, a final score gap is no penalty box: R16, not R11
    'non-active players never take a penalty'."""
    # player 0 passed as a non-active player in turn 2, and every turn claims 0 boxes
    report = validate_record(_dropped_penalty(GameResult((-4, -5), (0,), None)), partial=True)
    found = [v for v in report.violations if v.step.value == "result"]
    assert [(v.player, v.rule) for v in found] == [(0, "R16")]
    assert "non-active" not in found[0].message


def test_the_result_line_says_when_it_counts_the_records_penalty_boxes() -> None:
    report = validate_record(_dropped_penalty(GameResult((1, 0), (0,), None)), partial=True)
    assert report.adopted_penalties == (0, -1)
    assert report.scores == (1, 0)  # the replay took the record's boxes (one bug, one report)
    text = report.to_text()
    assert "the rules' result" not in text
    assert ("the result of the marks made, with the record's penalty boxes (P1: 1 fewer than "
            "the rules give): not over; scores P0 1, P1 0") in text
    assert report.to_json()["reference"]["adopted_penalties"] == [0, -1]
    clean = validate_record(game([turn(0, "w:1,1/r:1/y:1/g:1/b:1", "r2,-")], players=2),
                            partial=True)
    assert clean.adopted_penalties == () and "the rules' result: not over" in clean.to_text()


def test_the_winners_line_names_the_players() -> None:
    record, result = _finished()
    losers = tuple(i for i in range(3) if i not in result.winners)
    wrong = GameRecord(record.players, record.ruleset, record.turns, 0, None,
                       GameResult(result.scores, losers, result.ended_by))
    [found] = [v for v in validate_record(wrong).violations if v.rule == "R18"]
    for i in (*losers, *result.winners):
        assert f"player {i} ({record.players[i]})" in found.message
