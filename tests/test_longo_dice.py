"""Qwixx Longo's turn events and row Markov chain (issue 34, LG1, LG2): 8-sided dice,
checked against a brute-force enumeration of every roll, never against themselves."""

from __future__ import annotations

from itertools import product

import pytest

from qwixx_math.dice.events import brute_force_events, turn_events
from qwixx_math.dice.markov import _matrices, _state_list, turns_to_close
from qwixx_math.errors import ParseError
from qwixx_math.layouts import LONGO, SheetLayout, layout_named
from qwixx_math.model import Colour, Sheet
from qwixx_math.ruleset import Ruleset

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE
#: Longo's red and green rows alone: 8**4 rolls, so the brute force takes a second or two.
TWO_ROWS = SheetLayout.of_rows("longo-two", [[(n, R) for n in range(2, 17)],
                                             [(n, G) for n in range(16, 1, -1)]],
                               lock_threshold=6, faces=8, lock_cells=2)


@pytest.mark.parametrize(("marks", "penalties", "ruleset"), [
    ({G: [16, 14, 12, 10, 8, 6], R: [2, 3, 4, 5, 6, 7]}, 3, Ruleset()),  # last penalty to come
    ({R: [2, 4, 6, 8, 10, 12], G: [16, 15, 14, 13, 12, 11]}, 0,
     Ruleset(action2_after_game_end=True)),                      # both rows close to end
])
def test_turn_events_on_eight_sided_dice_equal_brute_force(
        marks: dict[Colour, list[int]], penalties: int, ruleset: Ruleset) -> None:
    sheet = Sheet.from_marks(marks, penalties=penalties, layout=TWO_ROWS)
    fast = turn_events(sheet, ruleset=ruleset)
    assert fast == brute_force_events(sheet, ruleset=ruleset)
    # red's lock numbers: two cells, so closing red is more likely than its last cell alone
    if len(marks.get(R, [])) >= 6:
        assert fast.active.can_close[R.index] > fast.active.markable(R, 16)


@pytest.mark.slow
def test_turn_events_on_longo_equal_brute_force() -> None:
    """The whole Longo sheet, blue closed (8**5 rolls; about 30 s)."""
    sheet = Sheet.from_marks({R: [2, 3, 4, 5, 6, 7], Y: [3]}, layout=LONGO)
    assert turn_events(sheet, "blue") == brute_force_events(sheet, "blue")


def test_the_chain_refuses_lucky_numbers() -> None:
    """The turn events handle them (tests/test_dice_lucky.py); the one-row chain cannot."""
    lucky = layout_named("longo:5,13")
    with pytest.raises(ParseError, match="LG3"):
        turns_to_close("red", layout=lucky)


def _direct(colour: Colour, window: int, safe: bool, last: int, count: int
            ) -> dict[int, int]:
    """Active transitions of a Longo row from (last, count) over every roll of the two
    whites and the row's die (8**3), legality asked of the sheet (R7, LG2) and the
    chain's rule (window, safe, closing first, else leftmost) read plainly."""
    i = LONGO.row_index(colour)
    numbers = LONGO.numbers[i]
    states = _state_list(len(numbers))
    closed = len(states)
    first_lock = len(numbers) - 2
    base = [numbers[p] for p in range(count - 1)] + ([numbers[last]] if last >= 0 else [])

    def takes(marked: list[int], q: int) -> bool:
        sheet = Sheet.from_marks({colour: marked}, layout=LONGO)
        if not sheet.allows(colour, numbers[q]):
            return False
        if q >= first_lock:
            return True
        at = numbers.index(marked[-1]) if marked else -1
        if q - at > window:
            return False
        return not (safe and len(marked) + 1 + (first_lock - 1 - q) < 6)

    out: dict[int, int] = {}
    for w1, w2, d in product(range(1, 9), repeat=3):
        marked, shut = list(base), False
        if w1 + w2 in numbers and takes(marked, numbers.index(w1 + w2)):
            marked.append(w1 + w2)
            shut = numbers.index(w1 + w2) >= first_lock
        if not shut:
            options = [numbers.index(n) for n in {w1 + d, w2 + d}
                       if n in numbers and takes(marked, numbers.index(n))]
            if options:
                q = max(options) if max(options) >= first_lock else min(options)
                marked.append(numbers[q])
                shut = q >= first_lock
        if shut:
            key = closed
        elif not marked:
            key = 0
        else:
            at = numbers.index(marked[-1])
            key = 1 + at * (at + 1) // 2 + len(marked) - 1
        out[key] = out.get(key, 0) + 1
    return out


@pytest.mark.parametrize(("colour", "window", "safe"), [(R, 15, False), (G, 3, True),
                                                        (Y, 2, False)])
def test_longo_chain_equals_a_direct_enumeration(colour: Colour, window: int,
                                                 safe: bool) -> None:
    active, passive = _matrices(colour, window, safe, LONGO)
    assert active[-1][-1] == 8 ** 3 and passive[-1][-1] == 8 ** 2
    # empty, early, mid-row, one short of the lock, and at the threshold next to the locks
    for last, count in ((-1, 0), (2, 2), (7, 4), (11, 5), (12, 6), (12, 7)):
        s = 0 if last < 0 else 1 + last * (last + 1) // 2 + count - 1
        chain = {j: n for j, n in enumerate(active[s]) if n}
        assert chain == _direct(colour, window, safe, last, count), (last, count)


def test_longo_chain_start_checks_name_lg2() -> None:
    from qwixx_math.errors import InvalidStateError

    with pytest.raises(InvalidStateError, match="LG2"):
        turns_to_close("red", start=(2, 3, 4, 5, 15), layout=LONGO)
    closed = turns_to_close("red", start=(2, 3, 4, 5, 6, 7, 16), layout=LONGO)
    assert closed.p_close == 1 and closed.expected == 0
