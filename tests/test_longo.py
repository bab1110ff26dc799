"""Qwixx Longo (VARIANTS.md §8, issue 34): eight-sided dice (LG1), rows of 15 cells and the
two lock numbers (LG2) in the values, the rules core and the notation; the parts built for
six-sided dice refuse the layout with LG1."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.layouts import LONGO, OFFICIAL, SheetLayout, layout_named
from qwixx_math.model import Colour, Mark, Roll, Sheet
from qwixx_math.notation import format_roll, parse_roll, parse_sheet
from qwixx_math.rules import legal_action1, new_game, random_roll

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def test_longo_layout_values() -> None:
    assert layout_named("longo") is LONGO
    assert LONGO.faces == 8 and OFFICIAL.faces == 6
    assert LONGO.numbers[0] == tuple(range(2, 17)) == LONGO.numbers[1]
    assert LONGO.numbers[2] == tuple(range(16, 1, -1)) == LONGO.numbers[3]
    assert [LONGO.closes(R, n) for n in (14, 15, 16)] == [False, True, True]
    assert [LONGO.closes(G, n) for n in (4, 3, 2)] == [False, True, True]
    assert LONGO.max_crosses == 15 and LONGO.lock_rule == "LG2" and LONGO.dice_rule == "LG1"
    assert SheetLayout.from_json(LONGO.to_json()) is LONGO


def test_layout_checks_numbers_against_faces() -> None:
    rows = [[(n, R) for n in range(2, 17)]]
    with pytest.raises(ParseError, match=r"2\.\.12"):
        SheetLayout.of_rows("bad", [[(2, R), (13, R)]])
    with pytest.raises(ParseError, match="LG1"):
        SheetLayout.of_rows("bad", rows, faces=7)
    ok = SheetLayout.of_rows("ok", rows, faces=8, lock_cells=2, closed_rows_to_end=1)
    assert ok.row_length(R) == 15
    with pytest.raises(ParseError, match="LG1"):
        _ = ok.key  # no spelled-out key for 8-sided dice yet


def test_lock_rule_lg2_by_brute_force() -> None:
    """The rules core's allowed positions on a Longo row equal the rule read directly: right of
    the last cross (R7), a lock number (positions 13, 14) only with >= 6 crosses and nothing
    after a lock number (LG2); checked on every mask of a 15-cell row."""
    allowed = LONGO.allowed[R.index]
    for mask in range(1 << 15):
        crosses = mask.bit_count()
        locked = mask >> 13 != 0
        want = 0
        for p in range(15):
            if locked or mask >> p:
                continue
            if p >= 13 and crosses < 6:
                continue
            want |= 1 << p
        if mask >> 13 == 0b11:
            continue  # not a sheet (two lock numbers); Sheet refuses it below
        assert allowed[mask] == want, bin(mask)
        assert LONGO.count[R.index][mask] == crosses + locked


def test_two_lock_numbers_are_not_a_sheet() -> None:
    with pytest.raises(InvalidStateError, match="LG2"):
        Sheet(((1 << 15) - 1, 0, 0, 0), 0, LONGO)
    with pytest.raises(InvalidStateError, match="LG2"):
        parse_sheet("longo|r:2,3,4,5,16")


def test_longo_roll_notation_and_lg1() -> None:
    roll = parse_roll("d8|w:7,8/r:1/y:8/g:3/b:4")
    assert roll.faces == 8 and roll.white_sum == 15 and format_roll(roll) == str(roll)
    assert parse_roll(str(roll)) == roll and parse_roll("w:7,8", faces=8).white == (7, 8)
    with pytest.raises(ParseError, match="R1: a die shows 1 to 6"):
        parse_roll("w:7,8")
    with pytest.raises(ParseError, match="LG1: a die shows 1 to 8"):
        parse_roll("d8|w:9,8")
    with pytest.raises(ParseError, match="LG1"):
        parse_roll("d8|w:2,3", faces=6)
    with pytest.raises(ParseError, match="LG1"):
        Roll((9, 1), faces=8)
    # a game checks the dice against its layout: 8-sided dice on the official sheet refused
    with pytest.raises(IllegalMoveError, match="LG1"):
        new_game(2).with_roll(roll)
    # and a Longo game takes a roll read without the prefix
    assert new_game(2, layout="longo").with_roll(parse_roll("w:3,4/r:1/y:1/g:1/b:1")).roll


def test_random_roll_faces() -> None:
    rng = random.Random(5)
    rolls = [random_roll(rng, faces=8) for _ in range(400)]
    faces = {d for r in rolls for d in (*r.white, *(x for x in r.coloured if x is not None))}
    assert faces == set(range(1, 9))
    # the six-sided path is unchanged: the same seed gives the same rolls as before
    a, b = random.Random(3), random.Random(3)
    assert [random_roll(a) for _ in range(5)] == [random_roll(b, faces=6) for _ in range(5)]
    with pytest.raises(ParseError, match="LG1"):
        random_roll(rng, faces=7)


def test_white_sums_of_eight_sided_dice_are_offered() -> None:
    """Every white sum 2..16 of two d8 is a legal action-1 cross on an empty Longo sheet
    except the two lock numbers of each row (LG2: 6 crosses first)."""
    for a, b in product(range(1, 9), repeat=2):
        state = new_game(2, layout="longo").with_roll(Roll((a, b), (1, 1, 1, 1), faces=8))
        s = a + b
        after = [m.colour for m in legal_action1(state, 0)]
        assert all(m.number == s for m in legal_action1(state, 0))
        want = [c for c in (R, Y, G, B) if not LONGO.closes(c, s)]
        assert after == want, s


def test_worked_example_2_lock_refused() -> None:
    """VARIANTS.md §8.3 example 2: yellow 3,5,8,11,13 (5 crosses) cannot take a white 15
    (LG2 needs 6); the final sheet scores 15 + 3 + 6 + 1 - 10 = 15."""
    sheet = parse_sheet("y:3,5,8,11,13", layout="longo")
    game = new_game(2, layout="longo")
    rolled = game.with_roll(parse_roll("d8|w:7,8/r:1/y:1/g:1/b:1"))
    # on the example's sheet the rules refuse yellow 15 with LG2
    reason = sheet.why_not(Y, 15)
    assert reason is not None and reason[0] == "LG2"
    with pytest.raises(IllegalMoveError, match="LG2"):
        sheet.with_mark(Y, 15)
    # on an empty sheet, through the game: also LG2
    with pytest.raises(IllegalMoveError, match="LG2"):
        rolled.with_action1([Mark(Y, 15), None])
    final = parse_sheet("r:2,3/y:3,5,8,11,13/g:16,15,14/b:10/p:2", layout="longo")
    assert [final.row_score(c) for c in (R, Y, G, B)] == [3, 15, 6, 1]
    assert final.score == 15


def test_lock_number_closes_the_row_in_a_game() -> None:
    sheet = parse_sheet("g:16,15,14,13,12,11", layout="longo")
    game = new_game(2, layout="longo")
    game = type(game).make(game.ruleset, (sheet, game.sheets[1]), 0, frozenset(),
                           game.phase, None, None, None, game.turn)
    rolled = game.with_roll(parse_roll("d8|w:1,2/r:1/y:1/g:1/b:1"))
    after = rolled.with_action1([Mark(G, 3), None])
    assert G in after.closed and after.sheets[0].is_locked(G)
    assert after.sheets[0].count(G) == 8 and str(after.sheets[0]).count("lock") == 1
    assert after.sheets[0].why_not(G, 2) is not None  # closed: the other lock number is gone


def test_full_row_scores_t15() -> None:
    sheet = parse_sheet("r:" + ",".join(map(str, range(2, 16))), layout="longo")
    assert sheet.count(R) == 15 and sheet.row_score(R) == 120


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=30), st.sampled_from([None, 6, 8]))
def test_fuzz_parse_roll_faces(text: str, faces: int | None) -> None:
    try:
        roll = parse_roll("d8|" + text if faces is None else text, faces)
    except ParseError:
        return
    assert parse_roll(format_roll(roll)) == roll
    assert all(1 <= d <= roll.faces for d in roll.white)


def test_eight_sided_outcome_table_against_enumeration() -> None:
    """The canonical outcome table of the whites and all four coloured d8 (LG1) against a
    count of all 8**6 ordered rolls: each (sorted whites, colour dice) once per ordering."""
    from collections import Counter

    from qwixx_math.dice.outcomes import outcome_table

    table = outcome_table("rygb", faces=8)
    assert table.total == 8 ** 6 == int(table.weights.sum())
    got = {tuple(row): w for row, w in zip(table.canonical.tolist(), table.weights.tolist(),
                                           strict=True)}
    want = Counter((min(a, b), max(a, b), *rest)
                   for a, b, *rest in product(range(1, 9), repeat=6))
    assert got == dict(want)
    roll, _ = next(iter(table.rolls()))
    assert roll.faces == 8


def test_eight_sided_sum_distributions_against_enumeration() -> None:
    from collections import Counter
    from fractions import Fraction

    from qwixx_math.dice.outcomes import (
        colour_sum_sets,
        outcome_distribution,
        white_sum_distribution,
    )

    sums = Counter(a + b for a, b in product(range(1, 9), repeat=2))
    dist = white_sum_distribution(8)
    assert {s: dist.probability(s) for s in range(2, 17)} == {
        s: Fraction(sums[s], 64) for s in range(2, 17)}
    sets = Counter(tuple(sorted({a + c, b + c})) for a, b, c in product(range(1, 9), repeat=3))
    got = colour_sum_sets(8)
    assert {k: got.probability(k) for k in sets} == {k: Fraction(v, 512) for k, v in sets.items()}
    assert sum(got.probability(k) for k in sets) == 1
    # the official distributions are unchanged
    assert white_sum_distribution().probability(7) == Fraction(1, 6)
    assert outcome_distribution((), lambda r: r.white_sum, faces=8) == dist
    with pytest.raises(ParseError, match="LG1"):
        white_sum_distribution(7)


def test_longo_game_state_json_round_trip() -> None:
    from qwixx_math.rules import GameState

    rolled = new_game(2, layout="longo").with_roll(parse_roll("d8|w:8,8/r:8/y:1/g:2/b:3"))
    after = rolled.with_action1([None, Mark(G, 16)])  # white 16: green's first cell
    back = GameState.from_json(after.to_json())
    assert back == after and back.roll is not None and back.roll.faces == 8


def test_generated_longo_records_roll_eight_sided_dice() -> None:
    """The record generator rolls the layout's dice: a Longo game shows faces above 6."""
    from qwixx_math.record import random_game

    record = random_game(2, seed=4, layout="longo")
    dice = {d for t in record.turns for d in (*t.roll.white, *(x for x in t.roll.coloured
                                                               if x is not None))}
    assert max(dice) > 6 and dice <= set(range(1, 9))


def test_longo_record_json_round_trip_and_replay() -> None:
    from qwixx_math.record import GameRecord, random_game, replay

    for seed in range(3):
        record = random_game(2, seed=seed, layout="longo")
        back = GameRecord.from_json(record.to_json())
        assert back == record
        final = replay(back)[-1]
        assert final.is_over and final.sheets[0].layout is LONGO
