"""The rules core's quick paths on every pad against the slow, obvious rule checks.

``legal_action1`` and ``legal_action2`` read masks and lookup tables (the official sheet's
way of listing action 2 serves every pad whose cells have their row's colour; Double A
lists its second crosses row by row); a mark is legal exactly when ``why_not_mark`` (for
a bonus cross ``why_not_bonus`` / ``why_not_bonus_action2``) finds nothing against it,
and the list is in the documented order (``mark_key``).  The reason functions answer
None early without building their words: that early answer is checked against the
rules' plain definitions (the rightmost crossed number for a second cross, DA1/DA3; the
bonus row's crosses and the cells beside it, BP1/BP4).  States come from seeded random
games of 2 to 4 players under several rulesets, every player's action 1 chosen at
random, so that action 2 meets crosses of this turn (DA4) and closed rows.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from qwixx_math.big_points import (
    BonusMark,
    bonus_numbers,
    why_not_bonus,
    why_not_bonus_action2,
)
from qwixx_math.errors import IllegalMoveError
from qwixx_math.layouts import LAYOUTS, MIXX_A, SheetLayout
from qwixx_math.model import COLOURS, LuckyMark, Mark, Sheet
from qwixx_math.rules import (
    GameState,
    Phase,
    legal_action1,
    legal_action2,
    mark_key,
    new_game,
    random_roll,
    why_not_mark,
)
from qwixx_math.ruleset import BonusTrigger, DieRemoval, EndCheck, Ruleset

#: Second crosses on a pad whose cells are not all of their row's colour: Double A's
#: general route (white + a die marks cells of its colour in any row).
MIXED_SECONDS = dataclasses.replace(MIXX_A, name="mixx-a-seconds", second_crosses=True,
                                    lock_threshold=7)
PADS: dict[str, SheetLayout] = {**LAYOUTS, MIXED_SECONDS.name: MIXED_SECONDS}
RULESETS = (
    Ruleset(2),
    Ruleset(4, da_same_turn=False, bp_colour_trigger=BonusTrigger.EITHER_ADJACENT),
    Ruleset(3, die_removal=DieRemoval.END_OF_TURN, end_check=EndCheck.END_OF_TURN),
)


def states(layout: SheetLayout, ruleset: Ruleset, seed: int
           ) -> Iterator[tuple[GameState, GameState]]:
    """(rolled state, the state after everybody's action 1) of each turn of a seeded game:
    every player (and the active player in action 2) picks a mark skipping at most one
    cell most of the time, so that rows close, else passes or picks one at random."""
    rng = random.Random(seed)
    game = new_game(ruleset=ruleset, layout=layout)
    while not game.is_over:
        rolled = game.with_roll(random_roll(rng, game.dice_in_play, layout.faces))
        choices = [pick(rng, rolled.sheets[p], legal_action1(rolled, p))
                   for p in range(ruleset.players)]
        after, _ = rolled.with_simultaneous_action1(choices)
        yield rolled, after
        if after.phase is Phase.ACTION2:
            after = after.with_action2(pick(rng, after.sheets[after.active],
                                            legal_action2(after)))
        game = after


def pick(rng: random.Random, sheet: Sheet, options: tuple[Mark, ...]) -> Mark | None:
    def skipped(mark: Mark) -> int:
        if isinstance(mark, BonusMark) or not mark.crosses:
            return 0
        ci = mark.colour.index
        return sheet.layout.pos[ci][mark.number] - sheet.masks[ci].bit_length()

    if options and rng.random() < 0.7:
        best = min(options, key=skipped)
        return best if skipped(best) <= 1 else None
    return rng.choice(options) if options and rng.random() < 0.5 else None


def row_numbers(layout: SheetLayout) -> list[tuple[int, int]]:
    """(colour index, number) of every cell of ``layout``."""
    return [(c.index, n) for c in layout.locks for n in layout.numbers[layout.row_of[c.index]]]


def every_bonus_cross() -> list[BonusMark]:
    return [BonusMark.of(row, n) for row in (0, 1) for n in range(2, 13)]


def expected_action1(state: GameState, player: int) -> list[Mark]:
    """Every plain, second and bonus cross of the white sum the rules allow ``player``,
    in ``mark_key`` order."""
    assert state.roll is not None
    white = state.roll.white_sum
    layout = state.layout
    found = [Mark(COLOURS[ci], n, second=second) for ci, n in row_numbers(layout)
             if n == white for second in (False, True)[:1 + layout.second_crosses]
             if why_not_mark(state, player, COLOURS[ci], n, second=second) is None]
    if layout.bonus_rows:
        sheet = state.sheets[player]
        found += [m for m in every_bonus_cross()
                  if m.number == white and why_not_bonus(sheet, m) is None]
    return sorted(found, key=lambda m: mark_key(layout, m))


def expected_action2(state: GameState) -> list[Mark]:
    """Every action-2 mark the rules allow the active player, in ``mark_key`` order."""
    assert state.roll is not None
    layout = state.layout
    active = state.active
    found = [Mark(COLOURS[ci], n, second=second) for ci, n in row_numbers(layout)
             for second in (False, True)[:1 + layout.second_crosses]
             if why_not_mark(state, active, COLOURS[ci], n, second=second) is None]
    if layout.bonus_rows:
        gone = state.closed if state.ruleset.die_removal is DieRemoval.IMMEDIATE \
            else frozenset()
        found += [m for m in every_bonus_cross() if why_not_bonus_action2(
            state.sheets[active], m, state.roll, gone, state.ruleset) is None]
    return sorted(found, key=lambda m: mark_key(layout, m))


@pytest.mark.parametrize("pad", list(PADS))
def test_legal_marks_are_every_mark_the_rules_allow_in_order(pad: str) -> None:
    layout = PADS[pad]
    offered = 0
    for k, ruleset in enumerate(RULESETS):
        if layout.bonus_rows and ruleset.bp_lock_marks != layout.lock_threshold:
            continue
        for rolled, after in (pair for seed in range(4)
                              for pair in states(layout, ruleset, seed=10 * seed + k)):
            for player in range(ruleset.players):
                got = [m for m in legal_action1(rolled, player)
                       if m.field is None and not isinstance(m, LuckyMark)]
                assert got == expected_action1(rolled, player), (
                    pad, str(rolled.sheets[player]), str(rolled.roll))
            if after.phase is Phase.ACTION2:
                got2 = legal_action2(after)
                assert list(got2) == expected_action2(after), (
                    pad, after.describe())
                offered += len(got2)
    assert offered > 0


def test_the_sampled_states_reach_second_crosses_and_closed_rows() -> None:
    """The games above offer second crosses in action 2 (also on the mixed pad) and close
    rows, so the quick paths' special cases are met."""
    for layout in (LAYOUTS["double-a"], MIXED_SECONDS):
        seconds = closed = 0
        for k, ruleset in enumerate(RULESETS):
            for _, after in states(layout, ruleset, seed=k):
                closed += bool(after.closed)
                if after.phase is Phase.ACTION2:
                    seconds += sum(m.second for m in legal_action2(after))
        assert seconds > 0 and closed > 0, layout.name


def played_sheets(pad: str) -> Iterator[Sheet]:
    layout = LAYOUTS[pad]
    for k, ruleset in enumerate(RULESETS[:2]):
        for rolled, _ in states(layout, ruleset, seed=10 + k):
            yield from rolled.sheets


def test_why_not_second_is_the_rightmost_crossed_number_not_doubled() -> None:
    """DA1, DA3: a second cross goes under the row's rightmost crossed number, once, and
    not in a row the player closed."""
    for sheet in played_sheets("double-a"):
        for colour in COLOURS:
            marks = sheet.marks(colour)
            for number in range(2, 13):
                plain = bool(marks) and marks[-1] == number and not sheet.is_locked(colour) \
                    and number not in sheet.second_crosses(colour)
                assert (sheet.why_not_second(colour, number) is None) == plain, (
                    str(sheet), colour, number)


def test_why_not_bonus_is_the_bonus_row_and_the_cells_beside() -> None:
    """BP1, BP4: a bonus cell needs a crossed colour cell of its number beside it (red or
    yellow for RY, green or blue for GB) and no bonus cross at or right of it (RY reads
    2..12, GB 12..2)."""
    for sheet in played_sheets("big-points"):
        for mark in every_bonus_cross():
            upper, lower = (COLOURS[0], COLOURS[1]) if mark.row == 0 else (COLOURS[2],
                                                                           COLOURS[3])
            beside = mark.number in sheet.marks(upper) + sheet.marks(lower)
            crossed = bonus_numbers(sheet, mark.row)
            right = [n for n in crossed if (n >= mark.number if mark.row == 0
                                            else n <= mark.number)]
            assert (why_not_bonus(sheet, mark) is None) == (beside and not right), (
                str(sheet), str(mark))


@pytest.mark.parametrize("pad", ["double-a", "big-points"])
def test_score_is_the_sum_of_the_row_scores(pad: str) -> None:
    """The capped pads' score (DA7, BP9) is computed inline: it is the rows' scores minus
    the penalties."""
    for sheet in played_sheets(pad):
        assert sheet.score == sum(sheet.row_score(c) for c in sheet.layout.locks) \
            - 5 * sheet.penalties


def test_empty_sheets_are_kept_per_layout_and_name_their_own_layout() -> None:
    for layout in [*LAYOUTS.values(), MIXED_SECONDS]:
        sheet = Sheet.empty(layout)
        assert sheet == Sheet((0, 0, 0, 0), 0, layout) and sheet.layout is layout
        assert Sheet.empty(layout) is sheet
    twin = dataclasses.replace(MIXED_SECONDS)  # equal, but another object
    assert twin == MIXED_SECONDS and Sheet.empty(twin).layout is twin


def test_an_illegal_bonus_cross_in_action_1_names_the_player_and_the_rule() -> None:
    """The core applies a bonus cross through with_bonus's own check; a refusal still
    names BP1 and the player."""
    game = new_game(2, layout="big-points")
    rolled = game.with_roll(random_roll(random.Random(0), game.dice_in_play))
    assert rolled.roll is not None
    mark = BonusMark.of("ry", rolled.roll.white_sum)
    with pytest.raises(IllegalMoveError) as info:
        rolled.with_action1([None, mark])
    assert info.value.rule == "BP1" and info.value.player == 1
