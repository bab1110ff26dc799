"""Qwixx Big Points (VARIANTS.md §1, BP1-BP9): the pad, the bonus rows on the sheet, bonus
crosses in both actions, the lock and the score, through the public API."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.big_points import BonusMark
from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.layouts import BIG_POINTS, LAYOUTS, SheetLayout
from qwixx_math.model import Colour, Mark, TurnPlan
from qwixx_math.notation import (
    format_sheet,
    mark_from_json,
    mark_to_json,
    parse_mark,
    parse_roll,
    parse_sheet,
    sheet_from_json,
    sheet_to_json,
)
from qwixx_math.record import random_game
from qwixx_math.rules import (
    GameState,
    Phase,
    legal_action1,
    legal_action2,
    legal_plans,
    new_game,
)
from qwixx_math.ruleset import BonusTrigger, Ruleset
from qwixx_math.validation import validate_data


def test_the_pad_as_data() -> None:
    assert LAYOUTS["big-points"] is BIG_POINTS
    assert BIG_POINTS.bonus_rows and BIG_POINTS.score_cap == 15
    assert SheetLayout.from_json(BIG_POINTS.to_json()) is BIG_POINTS
    six = SheetLayout.from_json({**BIG_POINTS.to_json(), "name": "bp6", "lock_threshold": 6})
    assert six.key.endswith("-bp") and SheetLayout.from_key(six.key) == six
    with pytest.raises(ParseError, match="BP1"):
        SheetLayout.from_json({**BIG_POINTS.to_json(), "name": "x", "bonus_rows": 1})
    with pytest.raises(ParseError, match="BP1"):
        SheetLayout.from_json({**LAYOUTS["double-a"].to_json(), "name": "x",
                               "bonus_rows": True})


def test_worked_example_1_final_score_155() -> None:
    text = ("big-points|r:2,4,5,7,8,9/y:3,5,6,8/g:12,11,9,8,6,5,3,2,lock/b:10,8,7,3/p:1"
            "/ry:4,5,8/gb:11,8")
    sheet = parse_sheet(text)
    assert str(sheet) == text
    assert [sheet.row_score(c) for c in Colour] == [45, 28, 66, 21]
    assert sheet.score == 155
    assert sheet_from_json(json.loads(json.dumps(sheet_to_json(sheet)))) == sheet


def test_worked_example_2_cap_159() -> None:
    sheet = parse_sheet("big-points|r:2,3,4,5,6,7,8,9,10,11,12,lock/y:3,5,6/b:12,11/p:0"
                        "/ry:2,3,4,5,6")
    assert sheet.row_score("red") == 120 and sheet.score == 159


def test_worked_example_3_legality_and_score_1() -> None:
    sarah = parse_sheet("big-points|r:2,5/y:3/ry:3")
    game = GameState(Ruleset(1), (sarah,))
    rolled = game.with_roll(parse_roll("w:2,3/r:3/y:3/g:1/b:1"))
    assert BonusMark.of("ry", 5) in legal_action1(rolled, 0)       # BP2
    after1 = rolled.with_action1([None])
    a2 = legal_action2(after1)
    assert BonusMark.of("ry", 5) in a2                             # white 2 + red 3 (BP3)
    only_yellow = game.with_roll(parse_roll("w:2,6/r:6/y:3/g:1/b:1")).with_action1([None])
    assert BonusMark.of("ry", 5) not in legal_action2(only_yellow)  # Y5 not crossed
    with pytest.raises(IllegalMoveError, match="BP3"):
        only_yellow.with_action2(BonusMark.of("ry", 5))
    either = GameState(Ruleset(1, bp_colour_trigger=BonusTrigger.EITHER_ADJACENT), (sarah,))
    assert BonusMark.of("ry", 5) in legal_action2(
        either.with_roll(parse_roll("w:2,6/r:6/y:3/g:1/b:1")).with_action1([None]))
    lost = GameState(Ruleset(1), (parse_sheet("big-points|r:2,5,6/y:3/ry:3,6"),))
    with pytest.raises(IllegalMoveError, match="BP4"):
        lost.with_roll(parse_roll("w:2,3/r:3/y:3/g:1/b:1")).with_action1(
            [BonusMark.of("ry", 5)])
    done = after1.with_action2(BonusMark.of("ry", 5))
    assert done.sheets[0].penalties == 0                           # BP7
    assert str(done.sheets[0]) == "big-points|r:2,5/y:3/g:-/b:-/p:0/ry:3,5/gb:-"
    assert parse_sheet("big-points|r:2,5/y:3/p:3/ry:3,5").score == 1


def test_eligibility_needs_an_earlier_adjacent_cross() -> None:
    game = GameState(Ruleset(1), (parse_sheet("big-points|r:2"),))
    rolled = game.with_roll(parse_roll("w:1,2/r:1/y:1/g:1/b:1"))
    with pytest.raises(IllegalMoveError, match="BP1"):
        rolled.with_action1([BonusMark.of("ry", 3)])                # R3/Y3 not crossed
    with pytest.raises(IllegalMoveError, match="BP2"):
        rolled.with_action1([BonusMark.of("ry", 2)])                # 2 is not the white sum
    # R3 in action 1 makes RY3 eligible for action 2 (white 1 + red 2)
    after = rolled.with_action1([Mark(Colour.RED, 3)])
    assert BonusMark.of("ry", 3) in legal_action2(after)
    with pytest.raises(InvalidStateError, match="BP1"):
        parse_sheet("big-points|r:2/gb:5")


def test_bonus_crosses_never_count_for_the_lock() -> None:
    sheet = parse_sheet("big-points|r:2,3,4,5/ry:2,3,4,5")
    assert sheet.why_not("red", 12)[0] == "R8"                     # BP5
    assert sheet.row_score("red") == 36
    with pytest.raises(ParseError, match="BP5"):
        GameState(Ruleset(1, bp_lock_marks=6), (sheet,))
    six = SheetLayout.from_json({**BIG_POINTS.to_json(), "name": "bp6", "lock_threshold": 6})
    GameState(Ruleset(1, bp_lock_marks=6), (parse_sheet("r:2", layout=six),))


def test_marks_round_trip() -> None:
    for text in ("ry5", "gb12", "gb2"):
        mark = parse_mark(text)
        assert isinstance(mark, BonusMark) and str(mark) == text
        assert mark_from_json(mark_to_json(mark)) == mark
        assert mark != Mark(mark.colour, mark.number)
    assert str(TurnPlan(Mark(Colour.RED, 5), BonusMark.of("ry", 5))) == "r5/ry5"


def test_random_games_only_legal_plans_apply() -> None:
    """Random play through legal_plans: every plan listed applies; bonus crosses occur and
    the score always equals BP9 computed from the parts."""
    rng = random.Random(7)
    seen = 0
    for _ in range(15):
        state = GameState(Ruleset(2), (parse_sheet("r:-", layout="big-points"),) * 2)
        while state.phase is not Phase.OVER:
            roll = parse_roll(f"w:{rng.randint(1, 6)},{rng.randint(1, 6)}/" + "/".join(
                f"{c.value[0]}:{rng.randint(1, 6)}" for c in Colour if c not in state.closed))
            plans = legal_plans(state, roll)
            plan = rng.choice(plans[1:] or plans)
            seen += any(isinstance(m, BonusMark) for m in plan.marks)
            state = state.play_plan(roll, plan)
        for sheet in state.sheets:
            total = 0
            for c in Colour:
                extra = sheet.bonus_rows[c.index // 2].bit_count()
                n = min(sheet.count(c) + extra, 15)
                total += n * (n + 1) // 2
            assert sheet.score == total - 5 * sheet.penalties
    assert seen > 0


def test_the_exact_parts_refuse_the_pad_naming_bp1() -> None:
    """VARIANTS.md §1.5: about 1.5e15 states; the solver, keys, Markov chain and policies
    refuse Big Points instead of solving it as if it had no bonus rows."""
    from qwixx_math.dice.markov import turns_to_close
    from qwixx_math.keys import key_space, sheet_key
    from qwixx_math.policies.api import make_policy
    from qwixx_math.solver.variant import Variant

    refusals = [lambda: Variant(BIG_POINTS), lambda: key_space(BIG_POINTS),
                lambda: sheet_key(parse_sheet("r:2", layout="big-points")),
                lambda: turns_to_close("red", layout=BIG_POINTS),
                lambda: make_policy("optimal", layout=BIG_POINTS, cache=False)]
    for refuse in refusals:
        with pytest.raises(ParseError, match="BP1"):
            refuse()


# -- records and the validator --------------------------------------------------------------------

@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_random_games_round_trip_and_validate(seed: int) -> None:
    trigger = list(BonusTrigger)[seed % 2]
    record = random_game(players=2, seed=seed, layout="big-points",
                         ruleset=Ruleset(players=2, bp_colour_trigger=trigger))
    report = validate_data(json.loads(json.dumps(record.to_json())))
    assert report.valid, report.to_text()
    state = new_game(ruleset=record.ruleset, layout="big-points")
    for turn in record.turns:
        state = state.play_turn(turn.roll, turn.action1, turn.action2)
    for sheet in state.sheets:
        assert parse_sheet(format_sheet(sheet)) == sheet
        assert sheet_from_json(sheet_to_json(sheet)) == sheet


def _record(*turns: tuple[list[int], object, object], **extra: object) -> dict[str, object]:
    """A one-player big-points record of ``(white dice, action 1, action 2)`` turns, every
    colour die showing 6 unless the white pair is followed by a red die."""
    out = []
    for dice, a1, a2 in turns:
        roll = {"white": dice[:2], "red": dice[2] if len(dice) > 2 else 6, "yellow": 6,
                "green": 6, "blue": 6}
        out.append({"active": 0, "roll": roll, "action1": [a1], "action2": a2})
    return {"format": "qwixx-math/game-record", "version": 1, "players": ["a"],
            "layout": "big-points", "turns": out, **extra}


@pytest.mark.parametrize(("turns", "rule"), [
    # RY3 without R3 or Y3 (BP1)
    ((([1, 2], {"bonus_row": "ry", "number": 3}, None),), "BP1"),
    # the white sum is 5, not 3 (BP2)
    ((([1, 1], {"colour": "red", "number": 2}, None),
      ([2, 3], {"bonus_row": "ry", "number": 2}, None)), "BP2"),
    # RY2 after RY4 (BP4)
    ((([1, 1], {"colour": "red", "number": 2}, None),
      ([2, 2], {"colour": "red", "number": 4}, None),
      ([2, 2], {"bonus_row": "ry", "number": 4}, None),
      ([1, 1], {"bonus_row": "ry", "number": 2}, None)), "BP4"),
    # white 1 + red 1 = 2 crosses RY2 only if R2 is crossed (BP3, same_colour); Y2 is
    ((([1, 1], {"colour": "yellow", "number": 2}, None),
      ([1, 5, 1], None, {"bonus_row": "ry", "number": 2})), "BP3"),
])
def test_validator_names_the_broken_bp_rule(turns: tuple[tuple[list[int], object, object],
                                                          ...], rule: str) -> None:
    report = validate_data(_record(*turns), partial=True)
    assert not report.valid and rule in {v.rule for v in report.violations}, report.to_text()


def test_validator_reads_a_legal_bonus_cross_and_the_bp9_score() -> None:
    turns = (([1, 1], {"colour": "red", "number": 2}, None),
             ([1, 1], {"bonus_row": "ry", "number": 2}, None))
    assert validate_data(_record(*turns), partial=True).valid
    wrong = _record(*turns, result={"scores": [1], "winners": [0], "ended_by": None})
    report = validate_data(wrong, partial=True)
    assert "BP9" in {v.rule for v in report.violations}, report.to_text()


def test_drawings_show_the_bonus_rows() -> None:
    import xml.etree.ElementTree as ET

    sheet = parse_sheet("big-points|r:2,4,5/y:3/g:12,11/p:0/ry:4,5/gb:11")
    root = ET.fromstring(sheet.to_svg(plan="-/ry8"))
    cells = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
             if g.get("class") == "bonus-cell"]
    assert len(cells) == 22
    marked = {(g.get("data-bonus-row"), g.get("data-number")) for g in cells
              if g.get("data-marked") == "true"}
    assert marked == {("ry", "4"), ("ry", "5"), ("gb", "11")}
    assert [g.get("data-number") for g in cells if g.get("data-plan") == "2"] == ["8"]
    text = sheet.to_text(plan="-/ry8").splitlines()
    assert text[2].startswith("RY") and "[ 4] [ 5]" in text[2] and "< 8>" in text[2]
    assert text[5].startswith("GB") and "[11]" in text[5]
    assert text[-1] == "plan -/ry8: mark bonus RY 8 with white + red or yellow"


_JUNK = st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=6) | st.lists(
    st.integers(-1, 14) | st.text(max_size=3), max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="rygbp0123456789:,/-| ", max_size=40), _JUNK, _JUNK, _JUNK)
def test_fuzz_the_new_parsers_only_typed_errors(text: str, a: object, b: object,
                                                c: object) -> None:
    """Sheet text with ry:/gb: parts, marks ry5, their JSON forms, BonusMark.of and
    sheet_with_bonus: a value or a QwixxError, never another exception."""
    from qwixx_math.big_points import parse_bonus_mark, sheet_with_bonus
    from qwixx_math.errors import QwixxError

    base = parse_sheet("big-points|r:2,3/g:12")
    calls = [lambda: parse_sheet("big-points|" + text), lambda: parse_mark(text),
             lambda: parse_bonus_mark(text), lambda: mark_from_json({"bonus_row": a, "number": b}),
             lambda: sheet_from_json({"layout": "big-points", "bonus_rows": {"ry": a, "gb": b}}),
             lambda: sheet_from_json({"layout": "big-points", "bonus_rows": c}),
             lambda: BonusMark.of(a, b),  # type: ignore[arg-type]
             lambda: sheet_with_bonus(base, a, b),  # type: ignore[arg-type]
             lambda: Ruleset(1, bp_lock_marks=a),  # type: ignore[arg-type]
             lambda: Ruleset.from_json({"bp_colour_trigger": a, "bp_lock_marks": b})]
    for call in calls:
        try:
            call()
        except QwixxError as exc:
            assert str(exc)


def test_an_action2_state_with_an_action1_bonus_cross_round_trips() -> None:
    sarah = parse_sheet("big-points|r:2,5/y:3/ry:3")
    rolled = GameState(Ruleset(2), (sarah, sarah)).with_roll(
        parse_roll("w:2,3/r:3/y:3/g:1/b:1"))
    after = rolled.with_action1([BonusMark.of("ry", 5), None])
    assert after.phase is Phase.ACTION2
    assert GameState.from_json(json.loads(json.dumps(after.to_json()))) == after
