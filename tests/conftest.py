"""Fixtures shared by several test files."""

from __future__ import annotations

import pytest

from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, solve


@pytest.fixture(scope="module")
def official_table() -> SolverTable:
    """The official solitaire table (R15 default), solved or read from the cache."""
    return solve(Ruleset(players=1))
