"""docs/rules.md stays true: every rule id and switch is mapped, every code reference exists,
every test reference names a real test, and every rule-named test is listed."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from qwixx_math.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rules.md").read_text()
CODE_REF = re.compile(r"`(qwixx_math(?:\.\w+)+):([\w.]+)`")
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def table_rows(first_cell: re.Pattern[str]) -> dict[str, str]:
    rows = {}
    for line in DOC.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and first_cell.fullmatch(cells[0]):
            rows[cells[0]] = line
    return rows


def test_every_rule_has_code_and_tests() -> None:
    """R1..R18 each have a table row naming at least one code location and one test."""
    rows = table_rows(re.compile(r"R\d+"))
    assert sorted(rows, key=lambda r: int(r[1:])) == [f"R{i}" for i in range(1, 19)]
    for rule, line in rows.items():
        assert CODE_REF.search(line), rule
        assert TEST_REF.search(line), rule


def test_every_ruleset_field_is_mapped() -> None:
    """Every field of Ruleset (the Options and the switches) has a row with code and tests."""
    rows = table_rows(re.compile(r"`\w+`"))
    assert {r.strip("`") for r in rows} == set(Ruleset.__dataclass_fields__)
    for field, line in rows.items():
        assert CODE_REF.search(line) and TEST_REF.search(line), field


@pytest.mark.parametrize(("module", "attr"), sorted(set(CODE_REF.findall(DOC))))
def test_code_references_exist(module: str, attr: str) -> None:
    """Each `module:attribute` of the page can be imported."""
    obj: object = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)


@pytest.mark.parametrize(("path", "name"), sorted(set(TEST_REF.findall(DOC))))
def test_test_references_exist(path: str, name: str) -> None:
    """Each `tests/file.py::test` of the page is a test function in that file."""
    source = (ROOT / path).read_text()
    assert re.search(rf"^def {name}\(", source, re.MULTILINE), f"{path}::{name}"


def test_every_rule_named_test_is_listed_under_its_rules() -> None:
    """A test named test_rNN_... (or test_rNN_rMM_...) appears in the rows of those rules."""
    rows = table_rows(re.compile(r"R\d+"))
    for path in sorted((ROOT / "tests").glob("test_rules_*.py")):
        for name in re.findall(r"^def (test_r\d\d\w*)\(", path.read_text(), re.MULTILINE):
            ref = f"`tests/{path.name}::{name}`"
            for number in re.findall(r"r(\d\d)(?=_)", name):
                assert ref in rows[f"R{int(number)}"], f"{ref} missing under R{int(number)}"
