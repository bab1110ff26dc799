"""The row-closing Markov chain on other layouts (issue 13): its transition counts against
a direct enumeration of every outcome of the dice, for some states of Mixx A and B rows."""

from __future__ import annotations

from itertools import product

import pytest
from strategies import TINY

from qwixx_math.dice.markov import _matrices, _state_list, turns_to_close
from qwixx_math.errors import InvalidStateError, ParseError
from qwixx_math.keys import open_code
from qwixx_math.layouts import MIXX_A, MIXX_B, OFFICIAL, SheetLayout
from qwixx_math.model import COLOURS, Colour


def _direct(layout: SheetLayout, colour: Colour, window: int, safe: bool,
            last: int, count: int) -> dict[int, int]:
    """Active transitions from the row state (last, count), over every outcome of the two
    whites and the four coloured dice (a die whose colour has no cell in the row is a
    neutral die): the chain's rule read plainly."""
    i = layout.row_index(colour)
    numbers, cells = layout.numbers[i], layout.colours[i]
    end = len(numbers) - 1
    t = layout.lock_threshold
    states = _state_list(len(numbers))
    closed = len(states)

    def takes(la: int, co: int, q: int) -> bool:
        if q <= la:
            return False
        if q == end:
            return co >= t
        if q - la > window:
            return False
        return not (safe and co + 1 + (end - 1 - q) < t)

    out: dict[int, int] = {}
    for w1, w2, *dice in product(range(1, 7), repeat=6):
        la, co, shut = last, count, False
        s = w1 + w2
        if s in numbers and takes(la, co, numbers.index(s)):
            q = numbers.index(s)
            shut = q == end
            la, co = q, co + 1
        if not shut:
            options = [p for p, (n, c) in enumerate(zip(numbers, cells, strict=True))
                       if n in (w1 + dice[c.index], w2 + dice[c.index]) and takes(la, co, p)]
            if options:
                q = end if end in options else min(options)
                shut = q == end
                la, co = q, co + 1
        key = closed if shut else (0 if la < 0 else open_code(la, co))
        out[key] = out.get(key, 0) + 1
    return out


@pytest.mark.parametrize(("layout", "colour", "window", "safe"), [
    (MIXX_A, Colour.RED, 10, False), (MIXX_A, Colour.BLUE, 2, True),
    (MIXX_B, Colour.GREEN, 3, False), (TINY, Colour.YELLOW, 2, True)])
def test_transitions_equal_a_direct_enumeration(layout: SheetLayout, colour: Colour,
                                                window: int, safe: bool) -> None:
    """From a few states (empty, mid-row, near the lock), the chain's active counts times
    the neutral dice equal the plain enumeration of all 6**6 outcomes."""
    active, _ = _matrices(colour, window, safe, layout)
    states = _state_list(layout.row_length(colour))
    kinds = {c for c in layout.colours[layout.row_index(colour)]}
    neutral = 6 ** (len(COLOURS) - len(kinds))
    for s in (0, len(states) // 2, len(states) - 1):
        last, count = states[s]
        direct = _direct(layout, colour, window, safe, last, count)
        chain = {j: n * neutral for j, n in enumerate(active[s]) if n}
        assert chain == direct


def test_official_rows_are_the_official_layout() -> None:
    """Passing the official layout changes nothing."""
    a = turns_to_close("green", 3, 2, 1, (12, 10), True)
    assert turns_to_close("green", 3, 2, 1, (12, 10), True, layout=OFFICIAL) == a


def test_mixx_rows_close_and_start_states_read_the_layout() -> None:
    """Mixx B's red row starts 10, 6, ...: a start (10, 6) is left to right there, not on
    the official sheet; numbers a row does not show are R2, a wrong order R7."""
    ct = turns_to_close("red", 10, 1, 0, (10, 6), True, layout="mixx-b")
    assert ct.p_close == 1 and ct.expected is not None and ct.cdf(1) == 0
    with pytest.raises(InvalidStateError, match="R7"):
        turns_to_close("red", 10, 1, 0, (10, 6))
    with pytest.raises(ParseError, match="R2"):
        turns_to_close("red", 3, 1, 0, (12,), layout=TINY)
    assert turns_to_close("red", 10, 1, 0, (), True, layout=MIXX_A).expected == \
        turns_to_close("green", 10, 1, 0, (), True, layout=MIXX_A).expected  # mirror rows
