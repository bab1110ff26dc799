"""The exact solitaire values of Qwixx Mixx stated in docs/mixx.md (slow: each Mixx
solve takes minutes of CPU from an empty cache; the tables are cached afterwards).

The values are read from the table in docs/mixx.md, so the prose cannot drift
from what the solver computes; the opening-mark claims are checked too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qwixx_math.layouts import MIXX_A, MIXX_B, OFFICIAL, SheetLayout
from qwixx_math.model import Sheet
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, solve, symmetry_group

DOC = Path(__file__).resolve().parent.parent / "docs" / "mixx.md"
LAYOUTS = {"official": OFFICIAL, "mixx-a": MIXX_A, "mixx-b": MIXX_B}


def documented() -> dict[str, tuple[float, float, int]]:
    rows = re.findall(r"^\| (official|mixx-a|mixx-b) \| ([\d.]+) \| ([\d.]+) \| (\d+) \|$",
                      DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {name: (float(a), float(b), int(order)) for name, a, b, order in rows}


def test_the_doc_states_every_layout() -> None:
    assert set(documented()) == set(LAYOUTS)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LAYOUTS))
@pytest.mark.parametrize("a2", [False, True])
def test_documented_values(name: str, a2: bool) -> None:
    default, option, order = documented()[name]
    table = solve(Ruleset(players=1, action2_after_game_end=a2), layout=LAYOUTS[name])
    assert round(table.start_value, 6) == (option if a2 else default)
    assert len(symmetry_group(table.variant)) == order


def opening(table: SolverTable, layout: SheetLayout, row: int, number: int) -> float:
    """The value after one opening mark (before the next roll), minus the start value."""
    sheet = Sheet.from_marks({layout.locks[row]: [number]}, layout=layout)
    return table.value(sheet) - table.start_value


@pytest.mark.slow
def test_documented_opening_marks() -> None:
    a = solve(Ruleset(players=1), layout=MIXX_A)
    b = solve(Ruleset(players=1), layout=MIXX_B)
    assert round(opening(a, MIXX_A, 1, 2), 1) == 6.5  # a 2 in the row locked yellow (2..12)
    assert round(opening(a, MIXX_A, 0, 7), 0) == -25
    # Mixx B: the leftmost cells are the best openings, 2 and 12 lose
    assert [round(opening(b, MIXX_B, r, n), 1) for r, n in
            ((0, 10), (1, 9), (3, 5), (2, 8))] == [2.5, 1.7, 1.2, 0.1]
    best2 = max(opening(b, MIXX_B, r, 2) for r in range(4))
    best12 = max(opening(b, MIXX_B, r, 12) for r in range(4))
    assert round(best2, 1) == -3.0 and round(best12, 1) == -1.2
