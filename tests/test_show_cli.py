"""``qwixx-math show``: the text drawing, the SVG file (never overwritten without --force),
plans checked by the rules (exit 2 with the rule id), and a fuzz of its arguments."""

from __future__ import annotations

import contextlib
import io
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.cli import main
from qwixx_math.notation import parse_sheet
from qwixx_math.svg import sheet_svg, sheet_text


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse usage errors
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def cells(svg: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == "cell"]


def test_text_drawing_is_printed_without_svg() -> None:
    code, out, err = run("show", "--sheet", "r:2,3/g:12/p:1", "--roll", "w:3,5/r:1/y:2/g:6/b:4",
                         "--plan", "r8/g9")
    assert code == 0 and err == ""
    sheet = parse_sheet("r:2,3/g:12/p:1")
    assert out == sheet_text(sheet, roll="w:3,5/r:1/y:2/g:6/b:4", plan="r8/g9") + "\n"


@pytest.mark.parametrize("sheet", ["r:2,3/g:12,11/p:2", "mixx-a|r:2,5/b:4/p:0",
                                   "mixx-b|r:10,6,2,8,3,4/y:9/p:1"])
def test_svg_file_holds_the_sheet_and_is_never_overwritten(sheet: str, tmp_path: Path) -> None:
    target = tmp_path / "sheet.svg"
    code, out, _ = run("show", "--sheet", sheet, "--svg", str(target))
    assert code == 0 and out == f"wrote {target}\n"
    svg = target.read_text(encoding="utf-8")
    parsed = parse_sheet(sheet)
    assert svg == sheet_svg(parsed) + "\n"
    marked = {(c.get("data-row"), int(c.get("data-number", ""))) for c in cells(svg)
              if c.get("data-marked") == "true"}
    assert marked == {(row.value, n) for row in parsed.rows for n in parsed.marks(row)}
    target.write_text("mine")
    code, _, err = run("show", "--sheet", sheet, "--svg", str(target))
    assert code == 2 and "--force" in err and target.read_text() == "mine"
    code, _, _ = run("show", "--sheet", sheet, "--svg", str(target), "--force")
    assert code == 0 and target.read_text(encoding="utf-8") == svg


def test_svg_to_standard_output() -> None:
    code, out, _ = run("show", "--sheet", "y:2,3", "--svg", "-", "--roll", "w:1,1/r:1/y:1/g:1/b:1")
    assert code == 0
    assert len(cells(out)) == 44


@pytest.mark.parametrize(("plan", "rule"), [
    ("r9/-", "R5"),    # not the white sum (8)
    ("r8/r6", "R7"),   # red 6 (white 5 + red 1) is left of red 8
    ("g8/-", "R9"),    # green is closed (--closed g; its die is not in the roll)
    ("-/b10", "R6"),   # white + blue makes 7 or 9
])
def test_an_illegal_plan_exits_2_with_the_rule(plan: str, rule: str, tmp_path: Path) -> None:
    target = tmp_path / "x.svg"
    code, out, err = run("show", "--sheet", "r:2,3/p:1", "--roll", "w:3,5/r:1/y:2/b:4",
                         "--closed", "g", f"--plan={plan}", "--svg", str(target))
    assert code == 2 and out == ""
    assert err.startswith(f"qwixx-math show: error: {rule}: ") and err.count("\n") == 1
    assert not target.exists()  # nothing half-done


@pytest.mark.parametrize("argv", [
    ["--sheet", "r:2", "--plan", "r3/-"],                     # a plan needs a roll
    ["--sheet", "r:2", "--force"],                            # --force needs --svg
    ["--sheet", "r:2", "--roll", "w:1,1/r:1/y:1/g:1/b:1", "--closed", "g"],  # green's die
    ["--sheet", "r:2", "--roll", "w:1,1/r:1/y:1/g:1"],        # no blue die, blue not closed
    ["--sheet", "r:2,3,4,5,6,12", "--roll", "w:1,1/r:1/y:1/g:1/b:1"],  # red die after the lock
    ["--sheet", "r:2", "--svg", "no/such/dir/x.svg"],
    ["--sheet", "r:2", "--closed", "purple"],
    ["--sheet", "mixx-a|r:2", "--layout", "official"],
    ["--sheet", "r:13"],
])
def test_bad_input_exits_2_with_one_line(argv: list[str], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("show", *argv)
    assert code == 2 and out == ""
    assert err.startswith("qwixx-math show: error: ") and err.count("\n") == 1


def test_closed_colours_without_a_roll() -> None:
    code, out, _ = run("show", "--sheet", "r:2", "--closed", "g,b")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines() if line.endswith("closed")] == \
        ["green", "blue"]


NOTATION = st.sampled_from(["r:2,3/g:12/p:1", "mixx-a|r:2/p:0", "mixx-b|r:10,6", "r:-", "w:3,5",
                            "w:3,5/r:1/y:2/g:6/b:4", "w:1,1", "r8/g9", "-/-", "r8/-", "g,b",
                            "penalty", "\x1b[31m", "\u202e", "official", "mixx-a", "-"])
OPTIONS = st.sampled_from(["--sheet", "--roll", "--plan", "--closed", "--svg", "--force",
                           "--layout"])


@settings(max_examples=int(os.environ.get("QWIXX_FUZZ_EXAMPLES", "25")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(OPTIONS, NOTATION, st.text(max_size=8).filter(
    lambda t: "/" not in t and ".." not in t and not t.startswith("~"))), max_size=8))
def test_fuzz_show(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    """Exit 0 or 2 only, one clean line on stderr for an error, files only in the sandbox."""
    monkeypatch.chdir(tmp_path)
    code, _, err = run("show", *argv)
    assert code in (0, 2), err
    assert "Traceback" not in err and "\x1b" not in err and "\u202e" not in err
