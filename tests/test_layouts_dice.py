"""Turn-event probabilities on other sheet layouts (issue 13): the per-die computation
against the official closed forms on the official sheet, and against the brute-force
reference (every roll through the rules core) on Qwixx Mixx, a small layout and every
built-in pad (issue 34)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import TINY, random_position, sheets

from qwixx_math.dice import brute_force_events, roll_events, turn_events
from qwixx_math.dice.events import _layout_events, _prepare
from qwixx_math.errors import InvalidStateError, ParseError, QwixxError
from qwixx_math.layouts import LAYOUTS, MIXX_A, MIXX_B, SheetLayout, layout_named
from qwixx_math.model import COLOURS, Colour, Roll, Sheet
from qwixx_math.notation import parse_sheet
from qwixx_math.ruleset import BonusTrigger, CircleCandidates, DieRemoval, EndCheck, Ruleset


@settings(max_examples=60, deadline=None)
@given(sheets(max_penalties=3), st.frozensets(st.sampled_from(COLOURS), max_size=1),
       st.integers(1, 3), st.booleans(), st.sampled_from(list(DieRemoval)),
       st.sampled_from(list(EndCheck)))
def test_per_die_events_equal_the_closed_forms_on_the_official_sheet(
        sheet: Sheet, closed: frozenset[Colour], players: int, a2_after: bool,
        removal: DieRemoval, check: EndCheck) -> None:
    """The layout path, run on official sheets, gives exactly the closed forms' events."""
    rs = Ruleset(players, a2_after, removal, check)
    try:
        prepared = _prepare(sheet, closed, rs)
    except QwixxError:
        return  # a game that is over
    fast = turn_events(sheet, closed, rs)
    general = _layout_events(*prepared)
    assert (general.active, general.passive, general.must_end) == \
        (fast.active, fast.passive, fast.must_end)


@pytest.mark.parametrize(("text", "layout", "closed", "ruleset"), [
    ("r:2,3,4,5,6/y:3,5,6,7,8/g:9/p:3", MIXX_A, "b", Ruleset(2)),
    ("r:2,3/y:12,11/p:2", TINY, "", Ruleset(2, die_removal=DieRemoval.END_OF_TURN)),
])
def test_layout_events_equal_the_brute_force(text: str, layout: SheetLayout, closed: str,
                                             ruleset: Ruleset) -> None:
    """turn_events on Mixx A and the small layout equals the sum over every roll of what the
    rules core allows (brute_force_events)."""
    sheet = parse_sheet(text, layout)
    fast, slow = turn_events(sheet, closed, ruleset), brute_force_events(sheet, closed, ruleset)
    assert (fast.active, fast.passive, fast.must_end) == (slow.active, slow.passive,
                                                          slow.must_end)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "layout", "closed", "ruleset"), [
    ("r:2,3,4,5,6,12/y:4/g:9/p:3", MIXX_A, "", Ruleset(2)),
    ("r:2,3,4,5,6/y:3,5,6,7,8/g:9/p:1", MIXX_A, "b",
     Ruleset(2, die_removal=DieRemoval.END_OF_TURN)),
    ("r:10,6,2,8,3/y:9/p:3", MIXX_B, "g", Ruleset(1)),
    ("-", MIXX_A, "", Ruleset(2)),
])
def test_more_layout_events_equal_the_brute_force(text: str, layout: SheetLayout, closed: str,
                                                  ruleset: Ruleset) -> None:
    """More sheets, four dice included (about a minute)."""
    sheet = Sheet.empty(layout) if text == "-" else parse_sheet(text, layout)
    fast, slow = turn_events(sheet, closed, ruleset), brute_force_events(sheet, closed, ruleset)
    assert (fast.active, fast.passive, fast.must_end) == (slow.active, slow.passive,
                                                          slow.must_end)


def test_mixx_a_first_turn_by_hand() -> None:
    """On an empty Mixx A sheet the first cell of row 1 (yellow 2) can be marked with the
    white sum 2 (1/36) or white + yellow = 2 (both dice 1 otherwise: 11/36 * 1/6 more for
    a white 1 and a yellow 1, the white sum not 2): 1/36 + 10/36 * 1/6 = 2/27, like the
    official red 2; a passive player only with the white sum."""
    ev = turn_events(Sheet.empty(MIXX_A))
    assert ev.active.markable("red", 2) == Fraction(1, 36) + Fraction(10, 36) / 6
    assert ev.passive.markable("red", 2) == Fraction(1, 36)
    assert ev.active.no_mark == 0 and ev.active.can_close == (0, 0, 0, 0)
    data = ev.to_json()
    assert list(data["active"]["markable"]["green"]) == [str(n) for n in range(12, 1, -1)]
    with pytest.raises(ParseError, match="R2"):
        turn_events(Sheet.empty(TINY)).active.markable("red", 12)


def test_roll_events_name_the_cell_die_on_mixx_a() -> None:
    """roll_events on Mixx A: white + blue 5 marks row 1's blue 5; the close of the
    red-lock row (red 12 in row 1) is reported for red."""
    sheet = parse_sheet("r:2,3,4,5,6", layout=MIXX_A)
    ev = roll_events(sheet, Roll.of(6, 1, red=6, yellow=1, green=1, blue=4))
    assert ev.can_close("red")  # white 6 + red 6 = 12, a red cell
    assert not ev.can_close("yellow")


def test_layout_events_reject_finished_games() -> None:
    """Two closed rows (R14) or the layout's last penalty box (R13) end the game; a closed
    colour the layout has no row for is R9."""
    with pytest.raises(InvalidStateError, match="R13: the sheet has 3 penalties"):
        turn_events(Sheet((0, 0, 0, 0), 3, TINY))
    with pytest.raises(InvalidStateError, match="R14"):
        turn_events(Sheet.empty(TINY), "r,y")
    with pytest.raises(InvalidStateError, match="R9: layout tiny has no blue row"):
        turn_events(Sheet.empty(TINY), "b")


# -- every published pad (issue 34) ----------------------------------------------------------------

#: The pads of 8-sided dice are checked in tests/test_longo_dice.py (longo) and
#: tests/test_dice_lucky.py (longo:A,B): their 8**5 or 8**6 rolls take a minute.
EIGHT_SIDED = {"longo"}
#: Options that change which crosses a pad offers, asked of that pad too.
PAD_OPTIONS = {
    "x-change": Ruleset(2, xc_field_without_cross=True),                         # XC4
    "double-a": Ruleset(2, da_same_turn=False),                                  # DA4
    "big-points": Ruleset(2, bp_colour_trigger=BonusTrigger.EITHER_ADJACENT),    # BP3
    "bonus-b": Ruleset(2, bb_fewest_candidates=CircleCandidates.OPEN_ROWS),      # BB2
}
PADS = [name for name in LAYOUTS if name not in EIGHT_SIDED]
#: Pads with crosses beyond a white-sum or white + colour cell (second crosses, bonus
#: crosses, exchanges, the bar, symbols, chains): four dice, in the slow run.
EXTRA_CROSSES = ["double-a", "big-points", "x-change", "bonus-a", "bonus-b", "connected-chain",
                 "double-b"]


def _pad_position(name: str, seed: int) -> tuple[Sheet, frozenset[Colour]]:
    """A late position of a random solitaire game on pad ``name`` (tests/strategies.py)."""
    state = random_position(random.Random(seed), Ruleset(1), layout_named(name))
    return state.sheets[0], state.closed


def _agree(sheet: Sheet, closed: frozenset[Colour], ruleset: Ruleset) -> None:
    fast, slow = turn_events(sheet, closed, ruleset), brute_force_events(sheet, closed, ruleset)
    assert (fast.active, fast.passive, fast.must_end) == (slow.active, slow.passive,
                                                          slow.must_end)


@pytest.mark.parametrize("name", PADS)
def test_every_pad_agrees_with_the_brute_force(name: str) -> None:
    """prob's numbers on each built-in pad of 6-sided dice equal the sum over every roll of
    what the rules core's legal plans allow, on a random late sheet with one more colour
    closed (three coloured dice: 6**5 rolls, a second or two), under the default rules and
    the pad's Option that changes its crosses."""
    sheet, closed = _pad_position(name, 11)
    if not closed:  # another player closed a colour this sheet has not locked
        closed = frozenset({next(c for c in sheet.layout.locks
                                 if not sheet.masks[c.index] & sheet.layout.lock_bits[c.index])})
    for ruleset in (Ruleset(2), PAD_OPTIONS.get(name, Ruleset(2))):
        _agree(sheet, closed, ruleset)


@pytest.mark.slow
@pytest.mark.parametrize("name", EXTRA_CROSSES)
def test_pads_with_extra_crosses_agree_with_the_brute_force_on_four_dice(name: str) -> None:
    """Sheets with all four coloured dice in play (6**6 rolls, 3-10 s each)."""
    for seed in (1, 2, 3):
        sheet, closed = _pad_position(name, seed)
        if not closed:
            _agree(sheet, closed, PAD_OPTIONS.get(name, Ruleset(2)))
            return
    raise AssertionError(f"no sheet with four dice in play on {name}")


def test_every_published_pad_is_checked() -> None:
    """The pads left to the Longo tests are the only built-in layouts of 8-sided dice."""
    assert {name for name in LAYOUTS if layout_named(name).faces != 6} == {"longo"}
    assert all(name in LAYOUTS for name in [*PAD_OPTIONS, *EXTRA_CROSSES])
