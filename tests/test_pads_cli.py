"""Issue 34 end to end from the command line, pad by pad: a layout file with a malformed
variant field is refused with the pad's rule id and exit code 2, the drawings label the
layouts no source transcribed (VARIANTS.md §0.3), and the pads without an exact value
refuse the solver commands with a pointer to their bounds."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest

from qwixx_math.cli import main
from qwixx_math.layouts import LAYOUTS

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse usage errors (a bad --layout is one)
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def _pad(name: str, **change: Any) -> dict[str, Any]:
    """The published pad ``name`` as a layout file under a house name, with ``change``."""
    return {**LAYOUTS[name].to_json(), "name": "house", **change}


def _field(name: str, field: str) -> Any:
    """A field of the published pad ``name``'s layout file."""
    return LAYOUTS[name].to_json()[field]


BONUS_A_BAR = _field("bonus-a", "bar")
BONUS_B_SYMBOLS = _field("bonus-b", "symbols")
DOUBLE_B_ROWS = _field("double-b", "rows")


@pytest.mark.parametrize(("pad", "rule"), [("big-points", "BP1"), ("bonus-b", "BB1")])
@pytest.mark.parametrize("argv", [
    ["solve"], ["value", "--sheet", "p:0"],
    ["advise", "--sheet", "p:0", "--roll", "w:1,2/r:1/y:2/g:6/b:4"]])
def test_the_bounds_only_pads_refuse_the_solver_pointing_to_their_bounds(
        pad: str, rule: str, argv: list[str]) -> None:
    """No exact value (VARIANTS.md §10.2): a typed refusal, exit 2, that names where the
    pad's proved and estimated bounds are, a section docs/variants.md really has."""
    code, out, err = run(*argv, "--layout", pad)
    assert code == 2 and out == "" and f"{rule}: " in err
    assert "docs/variants.md, 'Bounds for the pads without an exact value'" in err
    docs = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    assert "\n## Bounds for the pads without an exact value\n" in docs
