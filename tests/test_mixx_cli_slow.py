"""advise, value and review on the real Qwixx Mixx tables (slow: each table is solved
once, into the shared cache that tests/test_solver_mixx_slow.py also reads, as the
official slow suites share theirs).

The default run checks the same commands with fake tables
(tests/test_advice_layouts.py); here the values are the solver's: the empty
sheet's ``value`` is the table's start value, and every plan ``advise`` lists is
valued as the advisor of that table values it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from qwixx_math import advice as advice_module
from qwixx_math import table as table_module
from qwixx_math.cli import main
from qwixx_math.layouts import MIXX_A, MIXX_B, SheetLayout
from qwixx_math.record import random_game
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import solve
from qwixx_math.solver.cache import cache_dir

pytestmark = pytest.mark.slow

ROLL = "w:3,5/r:1/y:2/g:6/b:4"


@pytest.fixture(scope="module")
def mixx_cache() -> Iterator[Path]:
    directory = cache_dir()
    advice_module._advisor.cache_clear()
    table_module._table_advisor.cache_clear()
    yield directory
    advice_module._advisor.cache_clear()
    table_module._table_advisor.cache_clear()


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("layout", [MIXX_A, MIXX_B])
def test_advise_value_review_on_real_mixx_tables(
        mixx_cache: Path, layout: SheetLayout, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    name = layout.name
    start = solve(Ruleset(players=1), layout=layout, progress=False).start_value
    code, out = _run(capsys, "value", "--layout", name, "--sheet", "p:0", "--json", "--quiet")
    assert code == 0
    assert json.loads(out)["expected_score"] == pytest.approx(start, abs=1e-9)
    code, out = _run(capsys, "advise", "--layout", name, "--sheet", "p:0", "--roll", ROLL,
                     "--json", "--quiet")
    assert code == 0
    plans = json.loads(out)["plans"]
    assert plans[0]["loss"] == 0.0 and all(p["loss"] >= 0 for p in plans)
    # optimal play from the start: the best plan of the first roll is worth at most the
    # start value's best case and at least the penalty plan's value
    assert plans[-1]["expected_score"] <= plans[0]["expected_score"]
    code, out = _run(capsys, "advise", "--sheet", f"{name}|p:0", "--roll", ROLL, "--quiet")
    assert code == 0 and f"{name}|" in out
    record = random_game(1, seed=1, layout=layout)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()))
    code, out = _run(capsys, "review", str(path), "--layout", name, "--json", "--quiet")
    assert code == 0
    review = json.loads(out)["reviews"][0]
    assert review["decisions"] == len(record.turns) and review["total_loss"] >= 0
