"""The ``prob`` and ``dice-test`` sub-commands: output, JSON, exit codes, fuzzed arguments."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.cli import main
from qwixx_math.dice import turn_events
from qwixx_math.model import COLOURS
from qwixx_math.notation import parse_sheet


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_prob_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "prob", "--sheet", "r:-/p:0")
    assert code == 0
    assert "forced penalty (no legal mark): 0 = 0.0000" in out
    red = next(line for line in out.splitlines() if line.startswith("red "))
    assert red.split()[1] == "2/27"  # red 2, active
    assert "0.0741" in out


def test_prob_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    sheet = "r:2,3,4,10/y:2,3,4,5,6/p:3"
    code, out, _ = run(capsys, "prob", "--sheet", sheet, "--closed", "blue", "--json")
    assert code == 0
    data = json.loads(out)
    ev = turn_events(parse_sheet(sheet), {COLOURS[3]})
    assert data == ev.to_json()
    assert data["active"]["can_close"]["red"] == "1/108"
    assert data["closed"] == ["blue"]
    for c in COLOURS:
        for n, p in data["active"]["markable"][c.value].items():
            assert Fraction(p) == ev.active.markable(c, int(n))


def test_prob_with_a_roll(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "prob", "--sheet", "r:2,3,4,10", "--roll",
                       "w:5,6/r:6/y:1/g:1/b:1", "--json")
    assert code == 0
    roll = json.loads(out)["roll"]
    assert "r11/r12" in roll["plans"] and "r12" in roll["active_marks"]
    assert roll["max_marks"] == 2 and roll["no_mark"] is False
    code, out, _ = run(capsys, "prob", "--sheet", "r:2,3,4,10", "--roll", "w:5,6/r:6/y:1/g:1/b:1")
    assert "active player can mark: r11 r12" in out


@pytest.mark.parametrize(("argv", "rule"), [
    (["--sheet", "r:-", "--closed", "g", "--roll", "w:1,2/r:1/y:1/g:1/b:1"], "R9"),
    (["--sheet", "r:-", "--roll", "w:1,2/r:1/y:1/g:1"], "R4"),
    (["--sheet", "r:-", "--closed", "g,b"], "R14"),
    (["--sheet", "r:5,3"], "R7"),
    (["--sheet", "r:2,3,12,lock"], "R8"),
    (["--sheet", "r:2,3,4,5,6,lock"], "R8"),
    (["--sheet", "p:4"], "R13"),
    (["--sheet", "r:2,3/q:4"], "unknown row"),
    (["--sheet", "r:-", "--closed", "purple"], "unknown colour"),
])
def test_prob_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], rule: str) -> None:
    code, out, err = run(capsys, "prob", *argv)
    assert code == 2 and not out
    assert rule in err and "Traceback" not in err


def write_rolls(path: Path, seed: int, n: int, biased: bool) -> None:
    rng = np.random.default_rng(seed)
    dice = rng.integers(1, 7, size=(n, 6))
    if biased:
        dice[:, 4] = rng.choice(np.arange(1, 7), size=n, p=[3 / 20] * 5 + [1 / 4])
    lines = ["white1,white2,red,yellow,green,blue"]
    for k, row in enumerate(dice.tolist()):
        cells = [str(x) for x in row]
        if k >= n // 2:
            cells[2] = ""  # red closed half-way
        lines.append(",".join(cells))
    path.write_text("\n".join(lines) + "\n")


def test_dice_test_exit_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fair, biased = tmp_path / "fair.csv", tmp_path / "biased.csv"
    write_rolls(fair, 1, 1000, False)
    write_rolls(biased, 2, 1000, True)
    code, out, _ = run(capsys, "dice-test", str(fair))
    assert code == 0 and "verdict: fair" in out and "red die" in out
    code, out, _ = run(capsys, "dice-test", str(biased))
    assert code == 1 and "verdict: NOT fair: green die" in out
    code, out, _ = run(capsys, "dice-test", str(biased), "--json", "--method", "g",
                       "--alpha", "0.01")
    data = json.loads(out)
    assert code == 1 and data["fair"] is False and data["method"] == "g"
    red = next(t for t in data["tests"] if t["name"] == "red die")
    assert red["rolls"] == 500 and Fraction(red["expected"][0]) == Fraction(500, 6)


def test_dice_test_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("white1,white2\n1,2\n3,0\n")
    code, _, err = run(capsys, "dice-test", str(bad))
    assert code == 2 and "line 3" in err
    code, _, err = run(capsys, "dice-test", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in err
    code, _, err = run(capsys, "dice-test", str(bad), "--format", "json")
    assert code == 2 and "JSON" in err
    code, _, err = run(capsys, "dice-test", str(tmp_path / "none.json"), "--format", "csv")
    assert code == 2 and "cannot read" in err
    good = tmp_path / "good.csv"
    good.write_text("white1,white2\n1,2\n")
    code, _, err = run(capsys, "dice-test", str(good), "--alpha", "2")
    assert code == 2 and "alpha" in err


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="rygbpl:,/-0123456789 ", min_size=1, max_size=30),
       st.sampled_from(["-", "r", "g", "b,y", "x", ""]),
       st.one_of(st.none(), st.text(alphabet="wrygb:,/0123456789", max_size=20)))
def test_fuzz_prob(sheet: str, closed: str, roll: str | None) -> None:
    argv = ["prob", f"--sheet={sheet}", f"--closed={closed}", "--json"]
    if roll is not None:
        argv.append(f"--roll={roll}")
    assert main(argv) in (0, 2)  # 2: a QwixxError, printed


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet="white12,3456789redylogbu\n[]{}\":", max_size=60),
       st.sampled_from([[], ["--format", "json"], ["--format", "csv"], ["--method", "g"]]))
def test_fuzz_dice_test(tmp_path: Path, content: str, extra: list[str]) -> None:
    path = tmp_path / "rolls.dat"
    path.write_text(content)
    assert main(["dice-test", str(path), *extra]) in (0, 1, 2)


def test_prob_takes_the_xc4_option(capsys: pytest.CaptureFixture[str]) -> None:
    """On Qwixx X-Change a field spent alone (XC4) is a mark, so the forced penalty is
    rarer with the Option; the CLI answers as turn_events under that Ruleset."""
    from qwixx_math.ruleset import Ruleset

    sheet = "x-change|r:3,7,10/y:6,10/g:12,7,4,3/b:8,7,6,4/x:5,6/p:0"
    code, out, _ = run(capsys, "prob", "--sheet", sheet, "--json")
    plain = Fraction(json.loads(out)["active"]["no_mark"])
    code, out, _ = run(capsys, "prob", "--sheet", sheet, "--json", "--xc-field-without-cross")
    xc4 = Fraction(json.loads(out)["active"]["no_mark"])
    assert code == 0 and xc4 < plain
    assert xc4 == turn_events(parse_sheet(sheet), ruleset=Ruleset(
        xc_field_without_cross=True)).active.no_mark
