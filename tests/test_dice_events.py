"""The fast closed-form turn events against a brute-force oracle built on the rules core.

The oracle enumerates every ordered outcome of the dice in play with
``itertools.product``, builds the :class:`Roll`, and asks the rules core
(``legal_plans``, ``legal_action1``, ``play_plan``) what each player can do.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from qwixx_math.dice import Distribution, brute_force_events, roll_events, turn_events
from qwixx_math.dice.events import forced_penalty_count
from qwixx_math.dice.outcomes import DICE_SETS
from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError, QwixxError
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet
from qwixx_math.notation import parse_sheet
from qwixx_math.rules import GameState, Phase, legal_action1, legal_plans
from qwixx_math.ruleset import DieRemoval, EndCheck, Ruleset

OFFICIAL = Ruleset()

R, Y, G, B = COLOURS


def oracle(sheet: Sheet, closed: frozenset[Colour], ruleset: Ruleset = OFFICIAL) -> dict[str, Any]:
    """Counts over every ordered outcome (out of 6**(2+k)) of what the rules core allows."""
    shut = frozenset(closed) | sheet.locked
    table = ruleset if ruleset.players >= 2 else dataclasses.replace(ruleset, players=2)
    state = GameState(table, (sheet,) * table.players, active=0, closed=shut)
    in_play = [c for c in COLOURS if c not in shut]
    out: dict[str, Any] = {"active": Counter(), "passive": Counter(), "no_mark": 0, "p_no_mark": 0,
                 "marks": Counter(), "can_end": 0, "end_close": 0, "must_end": 0, "p_end": 0,
                 "total": 0}
    for dice in product(range(1, 7), repeat=2 + len(in_play)):
        coloured: list[int | None] = [None] * 4
        for c, d in zip(in_play, dice[2:], strict=True):
            coloured[c.index] = d
        r, y, g, b = coloured
        roll = Roll((dice[0], dice[1]), (r, y, g, b))
        rolled = state.with_roll(roll)
        plans = legal_plans(rolled)
        marks = {m for p in plans for m in p.marks}
        out["total"] += 1
        out["active"].update(marks)
        out["no_mark"] += not marks
        out["marks"][max(len(p.marks) for p in plans)] += 1
        # the game ends only by a close (R14) or a fourth penalty (R13): play those plans out
        ending = [p for p in plans
                  if (p.penalty and sheet.penalties == 3) or any(m.closes for m in p.marks)
                  if state.play_plan(roll, p).is_over]
        out["can_end"] += bool(ending)
        out["end_close"] += any(m.closes for p in ending for m in p.marks)
        out["must_end"] += len(ending) == len(plans)
        passive = legal_action1(rolled, 1)
        out["passive"].update(passive)
        out["p_no_mark"] += not passive
        choices: list[Mark | None] = [None] * table.players
        ends = False
        for m in passive:
            choices[1] = m
            after = rolled.with_action1(choices)
            if after.phase is Phase.ACTION2 and after.ended_by is None:
                after = after.with_action2(None)  # the active player passes too
            ends |= after.ended_by == "R14"
        out["p_end"] += ends
    return out


def check_against_oracle(text: str, closed: frozenset[Colour] = frozenset(),
                         ruleset: Ruleset = OFFICIAL) -> None:
    sheet = parse_sheet(text)
    ev = turn_events(sheet, closed, ruleset)
    o = oracle(sheet, closed, ruleset)
    n = o["total"]
    assert n == 6 ** (2 + len(ev.in_play))
    for c in COLOURS:
        for number in range(2, 13):
            m = Mark(c, number)
            assert ev.active.markable(c, number) == Fraction(o["active"][m], n), m
            assert ev.passive.markable(c, number) == Fraction(o["passive"][m], n), m
        last = Mark(c, c.last_number)
        assert ev.active.closing(c) == Fraction(o["active"][last], n)
        assert ev.passive.closing(c) == Fraction(o["passive"][last], n)
    assert ev.active.no_mark == Fraction(o["no_mark"], n)
    assert ev.passive.no_mark == Fraction(o["p_no_mark"], n)
    assert ev.active.marks == Distribution(dict(o["marks"]))
    assert ev.active.can_end == Fraction(o["can_end"], n)
    assert ev.active.can_end_by_closing == Fraction(o["end_close"], n)
    assert ev.must_end == Fraction(o["must_end"], n)
    assert ev.passive.can_end == Fraction(o["p_end"], n)


# Sheets that reach every closed form with all four dice: red and yellow can both close
# (S = 12 closes red in action 1, white 6 + yellow 6 closes yellow in action 2: two colours);
# green has 4 marks (action 1 in green makes the 5th, action 2 closes it); three penalties.
# FOUR has few open numbers, so that its oracle stays quick enough for the default run.
FOUR = "r:2,3,4,5,9,10/y:2,3,4,5,6,9,10/g:12,11,10,9/b:12,11,10,9,8,5,4/p:3"
BUSY = "r:2,3,4,5,6/y:2,3,4,5,6,7/g:12,11,10,9/b:12,11,10,9,8,7/p:3"


def test_all_four_dice_against_the_oracle() -> None:
    check_against_oracle(FOUR)


@pytest.mark.parametrize(("text", "closed", "ruleset"), [
    # blue closed by another player: closing red in action 1 ends the game (R14, R15)
    ("r:2,3,4,5,6/y:3,5,7,9/g:12,10/p:3", {B}, Ruleset()),
    ("r:2,3,4,5,6/y:3,5,7,9/g:12,10/p:3", {B}, Ruleset(action2_after_game_end=True)),
    ("r:2,3,4,5,6/y:3,5,7,9/g:12,10/p:2", {B},
     Ruleset(end_check=EndCheck.END_OF_TURN, die_removal=DieRemoval.END_OF_TURN)),
    # yellow closed on the sheet itself
    ("y:2,3,4,5,6,12,lock/r:5,6,7,8/g:11,9,7/p:1", set(), Ruleset(players=1)),
    ("g:12,10,8/y:4,6,8/b:7/p:0", {R}, Ruleset(players=4, end_check=EndCheck.SEQUENTIAL)),
    ("b:12,11,10,9,8/r:2,3,4/p:2", {G}, Ruleset(players=3)),
])
def test_three_dice_against_the_oracle(text: str, closed: set[Colour], ruleset: Ruleset) -> None:
    check_against_oracle(text, frozenset(closed), ruleset)


@pytest.mark.slow
@pytest.mark.parametrize("text", [BUSY, "r:-/p:0", "r:2,3,4,10/y:2,3,4,5,6/p:3",
                                  "g:12,11,10,9,8/b:12,11,10,9,8/r:2,3,4,5,6/y:2,3,4,5,6/p:3"])
def test_more_four_dice_sheets_against_the_oracle(text: str) -> None:
    check_against_oracle(text)


@pytest.mark.slow
def test_random_sheets_against_the_oracle() -> None:
    import random

    rng = random.Random(2024)
    for _ in range(12):
        marks = {}
        for c in COLOURS:
            numbers = sorted(rng.sample(range(11), rng.randint(0, 7)))
            marks[c] = [c.number(p) for p in numbers if p < 10]
        sheet = Sheet.from_marks(marks, penalties=rng.randint(0, 3))
        closed = frozenset(rng.sample(COLOURS, rng.randint(0, 1)))
        check_against_oracle(str(sheet), closed,
                             Ruleset(action2_after_game_end=rng.random() < 0.5))


@pytest.mark.slow
def test_library_brute_force_equals_the_closed_forms() -> None:
    for text, closed in ((BUSY, frozenset()), ("r:2,3,4,10/y:5/p:1", frozenset({G}))):
        assert brute_force_events(text, closed) == turn_events(text, closed)


def test_library_brute_force_with_three_dice() -> None:
    text = "r:2,3,4,5,6/y:3,5,7,9/g:12,10/p:3"
    assert brute_force_events(text, {B}) == turn_events(text, {B})


# -- the dice sets --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "in_play", DICE_SETS,
    ids=lambda s: "".join(c.letter for c in sorted(s, key=lambda c: c.index)) or "-")
def test_every_dice_set(in_play: frozenset[Colour]) -> None:
    closed = frozenset(COLOURS) - in_play
    if len(closed) >= 2:  # the game is over: no turn, no probability
        with pytest.raises(InvalidStateError, match="R14"):
            turn_events(Sheet.empty(), closed)
        return
    ev = turn_events(Sheet.empty(), closed)
    assert ev.in_play == tuple(c for c in COLOURS if c in in_play)
    assert set(ev.colour_sums) == in_play
    for c in closed:
        assert all(p == 0 for p in ev.active.table[c.index])
        assert all(p == 0 for p in ev.passive.table[c.index])


# -- hand-derived pins (docs/probability.md derives them) -----------------------------------------

def test_red_two_on_an_empty_sheet() -> None:
    ev = turn_events(Sheet.empty())
    # active: S = 2, or red 1 with a white 1: 1/36 + (1/6)(11/36 - 1/36) = 16/216
    assert ev.active.markable(R, 2) == Fraction(2, 27)
    assert ev.passive.markable(R, 2) == Fraction(1, 36)
    assert ev.active.markable(G, 12) == Fraction(2, 27)  # mirror image
    assert ev.active.no_mark == 0 and ev.passive.no_mark == 0


def test_closing_through_the_action1_mark() -> None:
    # 4 red marks: only white sum 11 in red (the 5th mark) then white 6 + red 6
    ev = turn_events(parse_sheet("r:2,3,4,10"))
    assert ev.active.closing(R) == Fraction(2, 36) * Fraction(1, 6)
    assert ev.passive.closing(R) == 0


def test_closing_with_five_marks() -> None:
    ev = turn_events(parse_sheet("r:2,3,4,5,11"))
    assert ev.active.closing(R) == Fraction(2, 27)
    assert ev.passive.closing(R) == Fraction(1, 36)


def test_only_red_eleven_left() -> None:
    ev = turn_events(parse_sheet("r:10/y:11/g:3/b:3"))
    assert ev.active.markable(R, 11) == Fraction(5, 36)
    assert ev.active.no_mark == Fraction(31, 36)
    assert ev.passive.no_mark == Fraction(17, 18)
    assert ev.active.marks == Distribution({0: 31, 1: 5})


def test_third_penalty_can_always_end_the_game() -> None:
    ev = turn_events(parse_sheet("r:10/y:11/g:3/b:3/p:3"))
    assert ev.active.can_end == 1
    assert ev.active.can_end_by_closing == 0
    assert ev.must_end == Fraction(31, 36)
    assert turn_events(parse_sheet("r:10/y:11/g:3/b:3/p:2")).must_end == 0


# -- invariants on many sheets (hypothesis) -------------------------------------------------------

@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    marks = {}
    for c in COLOURS:
        positions = draw(st.lists(st.integers(0, 10), max_size=8, unique=True))
        positions.sort()
        if 10 in positions and len(positions) < 6:
            positions.remove(10)
        marks[c] = [c.number(p) for p in positions]
    return Sheet.from_marks(marks, draw(st.integers(0, 3)))


@settings(max_examples=150, deadline=None)
@given(sheets(), st.sets(st.sampled_from(COLOURS), max_size=1), st.booleans())
def test_invariants(sheet: Sheet, extra: set[Colour], after: bool) -> None:
    if len(sheet.locked | extra) >= 2:
        with pytest.raises(InvalidStateError, match="R14"):
            turn_events(sheet, extra)
        return
    ev = turn_events(sheet, extra, Ruleset(action2_after_game_end=after))
    for player in (ev.active, ev.passive):
        for c in COLOURS:
            for n in range(2, 13):
                p = player.markable(c, n)
                assert 0 <= p <= 1
                if c in ev.closed or not sheet.allows(c, n):
                    # unreachable unless the action-1 mark makes the 5th (R8)
                    assert p == 0 or (player is ev.active and n == c.last_number
                                      and sheet.count(c) == 4)
        assert sum(player.marks.probabilities().values()) == 1
        assert player.no_mark == player.marks.probability(0)
        assert player.can_end_by_closing <= player.can_end
    # a passive player's options are a subset of the active player's
    for c in COLOURS:
        for n in range(2, 13):
            assert ev.passive.markable(c, n) <= ev.active.markable(c, n)
    assert ev.active.no_mark <= ev.passive.no_mark
    assert ev.must_end <= ev.active.can_end


@settings(max_examples=60, deadline=None)
@given(sheets(), st.tuples(*[st.integers(1, 6)] * 6), st.sampled_from([None, *COLOURS]))
def test_roll_events_agree_with_the_rules_core(sheet: Sheet, dice: tuple[int, ...],
                                               other: Colour | None) -> None:
    extra = frozenset() if other is None else frozenset({other})
    shut = extra | sheet.locked
    if len(shut) >= 2:
        return
    r, y, g, b = (None if c in shut else d for c, d in zip(COLOURS, dice[2:], strict=True))
    roll = Roll((dice[0], dice[1]), (r, y, g, b))
    ev = roll_events(sheet, roll, extra)
    state = GameState(Ruleset(), (sheet, sheet), closed=shut).with_roll(roll)
    plans = legal_plans(state)
    assert ev.plans == plans
    assert set(ev.active_marks) == {m for p in plans for m in p.marks}
    assert ev.passive_marks == legal_action1(state, 1)
    assert ev.no_mark == (plans == (plans[0],) and plans[0].penalty)


# -- bad input ------------------------------------------------------------------------------------

def test_a_die_for_a_closed_colour_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="R9"):
        roll_events(Sheet.empty(), Roll.of(1, 2, red=1, yellow=2, green=3, blue=4), {G})
    with pytest.raises(IllegalMoveError, match="R9"):
        roll_events(parse_sheet("r:2,3,4,5,6,12,lock"),
                    Roll.of(1, 2, red=1, yellow=2, green=3, blue=4))
    with pytest.raises(IllegalMoveError, match="R4"):
        roll_events(Sheet.empty(), Roll.of(1, 2, red=1, yellow=2, green=3))


@pytest.mark.parametrize(("text", "rule"), [
    ("r:5,3", "R7"),                      # marks out of order
    ("r:2,3,12,lock", "R8"),               # a lock without 5 marks before it
    ("r:2,3,4,5,6,lock", "R8"),            # a lock box without the last number
    ("r:2,3,4,5,6,12,lock/g:12,11,10,9,8,2,lock", "R14"),  # two colours closed: game over
    ("p:4", "R13"),                       # four penalties: game over
])
def test_impossible_sheets_get_a_rule_not_a_probability(text: str, rule: str) -> None:
    with pytest.raises(InvalidStateError, match=rule):
        turn_events(text)


def test_wrong_types_are_parse_errors() -> None:
    for bad in (42, None, ["r:2"]):
        with pytest.raises(ParseError):
            turn_events(bad)  # type: ignore[arg-type]
    # closed colours: Colour values or names (issue 10), anything else refused
    assert turn_events(Sheet.empty(), "g").closed == {Colour.GREEN}
    assert turn_events(Sheet.empty(), ["green"]).closed == {Colour.GREEN}
    for bad_closed in ("purple", None, 5, [5], b"g"):
        with pytest.raises(ParseError):
            turn_events(Sheet.empty(), bad_closed)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        turn_events(Sheet.empty(), (), "official")  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        roll_events(Sheet.empty(), "w:1,2")  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="rygbpl:,/-0123456789 ", max_size=40))
def test_fuzz_sheet_text(text: str) -> None:
    try:
        ev = turn_events(text)
    except QwixxError as exc:
        assert isinstance(exc, (ParseError, InvalidStateError))
        return
    assert 0 <= ev.active.no_mark <= 1


# -- the forced penalty alone (the race summary's hot path) ----------------------------------------

@settings(max_examples=200, deadline=None)
@given(sheet=sheets(), closed=st.sets(st.sampled_from(COLOURS), max_size=1))
def test_forced_penalty_count_is_turn_events_no_mark(sheet: Sheet, closed: set[Colour]) -> None:
    shut = frozenset(closed) | sheet.locked
    assume(len(shut) < 2)
    expected = turn_events(sheet, shut).active.no_mark
    assert Fraction(forced_penalty_count(sheet.masks, shut), 6 ** 6) == expected


def test_forced_penalty_count_against_the_oracle() -> None:
    """Hand-made sheets, counted over every roll by the rules core: nothing left to mark
    in any row (every roll a penalty), one number left in one row, and a busy sheet."""
    for text, closed in (("r:11/y:11/g:3/b:3/p:2", frozenset()),
                         ("r:11/y:11/g:3/b:4/p:0", frozenset()),
                         ("r:2,3,4,5,6,7,8,9,10,11/y:11/g:3/b:3", frozenset({B})),
                         (BUSY, frozenset())):
        sheet = parse_sheet(text)
        shut = closed | sheet.locked
        count = forced_penalty_count(sheet.masks, shut)
        assert Fraction(count, 6 ** 6) == Fraction(oracle(sheet, shut)["no_mark"],
                                                   6 ** (2 + 4 - len(shut)))
    assert forced_penalty_count(parse_sheet("r:11/y:11/g:3/b:3").masks, frozenset()) == 6 ** 6
