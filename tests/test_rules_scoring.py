"""Scoring: R16 (row points), R17 (total), R18 (winner), with the score examples of RULES.md."""

from __future__ import annotations

import pytest
from hypothesis import given
from strategies import sheets

from qwixx_math.errors import ParseError
from qwixx_math.model import COLOURS, Colour, Sheet, row_points
from qwixx_math.notation import parse_sheet
from qwixx_math.rules import GameState
from qwixx_math.ruleset import Ruleset

RED, YELLOW, GREEN, BLUE = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def test_example_score_79_minus_one_penalty_is_74() -> None:
    """R16, R17 worked example: 6 red (21) + 4 yellow (10) + 9 green including its lock (45)
    + 2 blue (3) = 79; one penalty -> 74."""
    sheet = parse_sheet("r:2,3,4,5,6,7/y:2,3,4,5/g:12,11,10,9,8,7,6,2,lock/b:12,11/p:1")
    assert [sheet.count(c) for c in COLOURS] == [6, 4, 9, 2]
    assert [sheet.row_score(c) for c in COLOURS] == [21, 10, 45, 3]
    assert sheet.score == 74
    assert Sheet(sheet.masks, 0).score == 79


def test_example_score_80_minus_two_penalties_is_70() -> None:
    """R16, R17 worked example: 4 red (10) + 3 yellow (6) + 8 green (36) + 7 blue (28) = 80;
    two penalties -> 70."""
    sheet = parse_sheet("r:2,4,6,8/y:3,5,7/g:12,11,10,9,8,7,6,5/b:12,11,10,9,8,7,6/p:2")
    assert [sheet.row_score(c) for c in COLOURS] == [10, 6, 36, 28]
    assert sheet.score == 70


def test_r16_row_points_table() -> None:
    """R16: n marks score n(n+1)/2: 1, 3, 6, ..., 78 for n = 1..12; 0 for none."""
    assert [row_points(n) for n in range(13)] == [
        0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]
    for bad in (-1, 13, 2.0, True):
        with pytest.raises(ParseError, match="R16"):
            row_points(bad)  # type: ignore[arg-type]


def test_r16_lock_counts_as_a_mark_and_a_closed_row_has_at_least_7() -> None:
    """R16: the lock box counts as a mark; a row this player closed has at least 7 marks, a
    full row 12 (78 points)."""
    closed = parse_sheet("y:2,3,4,5,6,12,lock")
    assert closed.count(YELLOW) == 7 and closed.row_score(YELLOW) == 28
    full = parse_sheet("b:12,11,10,9,8,7,6,5,4,3,2,lock")
    assert full.count(BLUE) == 12 and full.row_score(BLUE) == 78


def test_r09_r16_marks_in_a_row_closed_by_another_keep_counting() -> None:
    """R9, R16: marks in a row someone else closed still score."""
    game = GameState(Ruleset(2), (parse_sheet("r:2,3,4,5,6,12,lock"), parse_sheet("r:2,3,4")),
                     closed=frozenset({RED}))
    assert game.scores == (28, 6)


@given(sheets())
def test_r16_r17_score_is_the_formula(sheet: Sheet) -> None:
    """R16, R17 against a plain recount: numbers plus lock per row, triangular, minus 5 per
    penalty."""
    expected = 0
    for c in COLOURS:
        n = len(sheet.marks(c)) + (1 if sheet.is_locked(c) else 0)
        expected += sum(range(1, n + 1))
    assert sheet.score == expected - 5 * sheet.penalties


def test_r17_four_penalties_cost_20() -> None:
    """R17: each penalty box costs 5 points."""
    assert [Sheet(penalties=p).score for p in range(5)] == [0, -5, -10, -15, -20]


@pytest.mark.parametrize(("texts", "winners"), [
    (("r:2,3", "r:2"), (0,)),
    (("r:2", "r:2,3"), (1,)),
    (("r:2,3", "y:4,5", "p:1"), (0, 1)),
    (("p:1", "p:2", "p:1"), (0, 2)),
    (("r:-",), (0,)),
])
def test_r18_highest_total_wins_and_ties_share(texts: tuple[str, ...],
                                               winners: tuple[int, ...]) -> None:
    """R18: the highest total wins; equal totals share the win."""
    game = GameState(Ruleset(len(texts)), tuple(parse_sheet(t) for t in texts))
    assert game.winners == winners
