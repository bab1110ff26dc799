"""The official game's exact table values for N = 2..5 players, both R15 options (slow).

Each table is solved from an empty cache (or loaded: CI's slow run shares its
cache with the other slow suites) and its seat values are pinned to 1e-6, the
figures docs/table.md gives.  They rise with the seat (a later seat has more
free passive rolls before its first own roll) and with N, and seat 1 of N
players equals seat 1 of the value read through ``value(before_me=0)``.
"""

from __future__ import annotations

import itertools

import pytest

from qwixx_math.model import Sheet
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import solve

pytestmark = pytest.mark.slow

#: (players, action2_after_game_end): seat 1 .. seat N.
SEAT_VALUES = {
    (2, False): (130.501362, 131.132702),
    (3, False): (142.419149, 143.007898, 143.603105),
    (4, False): (152.298876, 152.841455, 153.390299, 153.944133),
    (5, False): (160.694668, 161.191591, 161.695038, 162.203674, 162.716295),
    (2, True): (130.898132, 131.531622),
    (3, True): (142.790073, 143.380614, 143.977595),
    (4, True): (152.648143, 153.192311, 153.742722, 154.298102),
    (5, True): (161.025535, 161.523899, 162.028768, 162.538805, 163.052806),
}


@pytest.mark.parametrize(("players", "a2"), sorted(SEAT_VALUES))
def test_official_seat_values(players: int, a2: bool) -> None:
    table = solve(Ruleset(players=1, action2_after_game_end=a2), players=players, progress=False)
    assert table.seat_values == pytest.approx(SEAT_VALUES[players, a2], abs=1e-6)
    seats = table.seat_values
    assert all(a < b for a, b in itertools.pairwise(seats))
    assert table.value(Sheet.EMPTY, before_me=0) == table.start_value == seats[0]
    if players > 2:
        assert SEAT_VALUES[players - 1, a2][-1] < seats[-1]
