"""The official game (slow): the optimal policy's exact final-score distribution.

A file of its own (beside test_policies_official.py) because it is one of the slow
run's longest tests, and ``--dist loadfile`` runs each file on one worker.

* The optimal policy's final-score distribution sums to 1 (to 1e-12) and its
  mean equals V(start) (to 1e-6).
* The command line prints the same figures, read from the policy cache that the
  first test filled (so the order of the two tests matters).
"""

from __future__ import annotations

import json

import pytest

from qwixx_math.cli import main
from qwixx_math.policies import score_distribution
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable

pytestmark = pytest.mark.slow


def test_optimal_score_distribution(official_table: SolverTable) -> None:
    dist = score_distribution("optimal", Ruleset(players=1))
    assert abs(dist.total - 1) <= 1e-12
    assert dist.mean == pytest.approx(official_table.start_value, abs=1e-6)
    assert min(dist.probabilities) >= 0
    pct = dist.percentiles()
    assert list(pct.values()) == sorted(pct.values())
    assert pct[1] < pct[50] < pct[99]
    low, high = dist.support()
    assert low >= -20 and high <= 312
    # the same figures from the command line (read from the cache)
    assert main(["distribution", "--json", "--quiet"]) == 0


def test_cli_policies_and_distribution_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["policies", "--json", "--quiet", "--policy", "optimal",
                 "--policy", "seed-tips"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["policy"] for r in rows] == ["optimal", "seed-tips"]
    assert rows[0]["loss"] == 0.0 and rows[1]["loss"] > 5
    assert main(["distribution", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "mean 115.4831" in out and "percentiles" in out
