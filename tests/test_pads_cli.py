"""Issue 34 end to end from the command line, pad by pad: a layout file with a malformed
variant field is refused with the pad's rule id and exit code 2, the drawings label the
layouts no source transcribed (VARIANTS.md §0.3), and the pads without an exact value
refuse the solver commands with a pointer to their bounds."""

from __future__ import annotations

import contextlib
import io
import json
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


@pytest.mark.parametrize(("data", "rule", "words"), [
    (_pad("double-a", second_crosses="yes"), None, "'second_crosses'"),
    (_pad("double-a", rows=DOUBLE_B_ROWS), "DA1", "single cells"),
    (_pad("double-b", rows=[{**DOUBLE_B_ROWS[0], "weights": [1, 3, 1, 2, 1, 1, 1, 2, 1, 2, 1]},
                            *DOUBLE_B_ROWS[1:]]),
     None, "'rows[0].weights'"),
    (_pad("bonus-a", bar=BONUS_A_BAR[:5]), "BA1", "'bar'"),
    (_pad("bonus-a", bar=["pink", *BONUS_A_BAR[1:]]), "BA1", "'bar'"),
    (_pad("bonus-b", symbols={k: v for k, v in BONUS_B_SYMBOLS.items() if k != "star"}),
     "BB1", "'symbols'"),
    (_pad("bonus-b", symbols={**BONUS_B_SYMBOLS, "circle": [["yellow", 9]]}),
     "BB1", "'symbols'"),
    (_pad("big-points", bonus_rows=1), "BP1", "'bonus_rows'"),
    (_pad("big-points", steps=_field("connected-steps", "steps")), "BP1",
     "bonus rows"),
    (_pad("connected-chain", chain="R6-Y6"), "CC1", "'chain'"),
    (_pad("connected-chain", chain=[[["red", 4], ["yellow", 4]], [["red", 4], ["green", 4]]]),
     "CC6", "two pairs"),
    (_pad("connected-chain", chain=[[["red", 10], ["yellow", 10]]]), None, "CC4"),
    (_pad("connected-steps", steps=[["red", 0]] * 11), "CS2", "11 distinct cells"),
    (_pad("connected-steps", steps=[["red", 11]] * 11), "CS2", "'steps'"),
    (_pad("x-change", exchange=[[5, 5]]), "XC1", "'exchange'"),
    (_pad("x-change", exchange=[[13, 5]]), "XC1", "'exchange'"),
    (_pad("longo", faces=7), "LG1", "'faces'"),
    (_pad("longo", lock_cells=5), "LG2", "lock_cells"),
    (_pad("longo", lucky=[13, 13]), None, "lucky"),
])
def test_a_malformed_variant_field_exits_2_naming_it(tmp_path: Path, data: dict[str, Any],
                                                     rule: str | None, words: str) -> None:
    """Every variant field of a layout file, malformed, is a clear error before any work:
    exit 2, the field (and the pad's rule id where the field is the pad's), no traceback."""
    path = tmp_path / "house.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for argv in (["show", "--sheet", "p:0"], ["validate", str(ROOT / "examples" /
                                                            "buggy_record.json")]):
        code, out, err = run(*argv, "--layout", str(path))
        assert code == 2 and out == "" and "Traceback" not in err
        assert words in err and (rule is None or f"{rule}: " in err), err


def test_the_drawings_label_reconstructed_and_unknown_layouts(tmp_path: Path) -> None:
    """VARIANTS.md §0.3: the Steps' staircases are reconstructions, a house pad's cells are
    unknown to the project; their drawings say so, a checked or stated pad's do not."""
    for name in ("connected-steps", "connected-steps-s21"):
        code, out, _ = run("show", "--layout", name, "--sheet", "p:0")
        assert code == 0 and out.splitlines()[0] == f"{name} sheet (reconstructed layout)"
        code, out, _ = run("show", "--layout", name, "--sheet", "p:0", "--svg", "-")
        assert code == 0 and f"{name} sheet (reconstructed layout)" in out
    for name in ("double-a", "double-b", "x-change", "big-points"):
        code, out, _ = run("show", "--layout", name, "--sheet", "p:0")
        assert code == 0 and out.splitlines()[0] == f"{name} sheet"
    house = {k: v for k, v in _pad("double-b").items() if k not in ("confidence", "source")}
    path = tmp_path / "house.json"
    path.write_text(json.dumps(house), encoding="utf-8")
    code, out, _ = run("show", "--layout", str(path), "--sheet", "p:0")
    assert code == 0 and out.splitlines()[0] == "house sheet (unknown layout)"


@pytest.mark.parametrize(("pad", "rule"), [("big-points", "BP1")])
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


def test_a_long_solve_is_announced_with_its_measured_cost(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """solve/value/advise on a pad whose table is not cached say first what solving it took
    (Double A: hours and GBs), not a bare progress line; not when cached, quiet, or for a
    pad without measured figures.  (The note is checked by itself: no table is solved.)"""
    from qwixx_math.commands._solitaire import announce_solve, solve_cost
    from qwixx_math.layouts import layout_named
    from qwixx_math.ruleset import Ruleset
    from qwixx_math.solver import Variant
    from qwixx_math.solver.cache import table_filename

    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path))
    solitaire = Ruleset(players=1)
    double_a = layout_named("double-a")
    announce_solve(double_a, solitaire, quiet=False)
    err = capsys.readouterr().err
    assert "double-a sheet is not in the cache" in err and "7.3 GB" in err
    announce_solve(double_a, solitaire, quiet=True)
    announce_solve(layout_named("official"), solitaire, quiet=False)
    assert capsys.readouterr().err == ""
    (tmp_path / table_filename(Variant(double_a), False)).write_bytes(b"")
    announce_solve(double_a, solitaire, quiet=False)
    assert capsys.readouterr().err == ""
    announce_solve(double_a, Ruleset(players=1, action2_after_game_end=True), quiet=False)
    assert "not in the cache" in capsys.readouterr().err   # the R15 option's own table
    announce_solve(double_a, Ruleset(players=1, da_same_turn=False), quiet=False)
    assert "not in the cache" in capsys.readouterr().err   # DA4's other value: its own table
    # every solved variant pad has its figures; the bounds-only pads and Mixx have none
    for name in ("double-b", "double-b-alt", "connected-steps-4", "connected-chain", "longo",
                 "longo:5,13", "x-change", "bonus-a", "bonus-b"):
        assert solve_cost(layout_named(name)) is not None, name
    for name in ("official", "mixx-a", "big-points"):
        assert solve_cost(layout_named(name)) is None, name


@pytest.mark.parametrize(("pad", "rule"), [("double-a", "DA1"), ("x-change", "XC1"),
                                           ("connected-chain", "CC1"), ("bonus-a", "BA1"),
                                           ("bonus-b", "BB1")])
def test_review_of_a_table_game_on_a_solitaire_only_pad_says_how(
        tmp_path: Path, pad: str, rule: str) -> None:
    """A record of 2 players on a pad the table model refuses: exit 2 with the rule id and
    the way to a review (the solitaire model, --players 1), before any table is solved."""
    code, out, _ = run("generate", "--games", "1", "--seed", "5", "--players", "2",
                       "--layout", pad, "--out", str(tmp_path))
    assert code == 0, out
    code, out, err = run("review", str(tmp_path / "game-000001.json"), "--quiet")
    assert code == 2 and out == "" and f"{rule}: " in err
    assert "'review --players 1' judges the record by the solitaire model" in err


@pytest.mark.parametrize(("pad", "down"), [("double-b", "10 8 6 4"),
                                           ("double-b-alt", "11 9 5 3")])
def test_the_double_b_drawings_show_the_double_cells(pad: str, down: str) -> None:
    """VARIANTS.md §7.1: red and yellow 3, 5, 9, 11 are double cells, green and blue
    10, 8, 6, 4 (11, 9, 5, 3 on the alternative); text and SVG show exactly those."""
    code, out, _ = run("show", "--layout", pad, "--sheet", "p:0")
    assert code == 0
    assert (f"double cells (2 crosses each)  red 3 5 9 11  yellow 3 5 9 11  green {down}  "
            f"blue {down}") in out.splitlines()
    code, svg, _ = run("show", "--layout", pad, "--sheet", "p:0", "--svg", "-")
    import xml.etree.ElementTree as ET
    doubles = {(e.get("data-row"), e.get("data-number"))
               for e in ET.fromstring(svg).iter() if e.get("data-double") == "true"}
    expected = {(row, n) for row in ("red", "yellow") for n in ("3", "5", "9", "11")} | \
        {(row, n) for row in ("green", "blue") for n in down.split()}
    assert code == 0 and doubles == expected
    assert svg.count('class="double"') == 16
    code, out, _ = run("show", "--layout", "double-a", "--sheet", "p:0", "--svg", "-")
    assert code == 0 and "data-double" not in out


@pytest.mark.parametrize(("layout", "words"), [
    ("connected-steps", "its cost is not measured: it holds 3 times the values of the "
                        "solitaire table"),
    ("longo", "its cost is not measured"),
    ("official", "157 s wall"),
])
def test_review_of_a_table_game_announces_the_table_model_solve(
        layout: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """review of a 3-player record judges by the table model of 3 players; before that
    table is solved (minutes to hours, unmeasured on most pads) it says which table, for
    how many players and what is known of its cost, as the solitaire solves do.  (The solve
    itself is stopped: review_players is replaced by a refusal.)"""
    from qwixx_math.commands import review
    from qwixx_math.errors import QwixxError
    from qwixx_math.record import random_game
    from qwixx_math.ruleset import Ruleset

    def stop(*args: Any, **kwargs: Any) -> None:
        raise QwixxError("stopped before solving")

    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(review, "review_players", stop)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_game(seed=5, ruleset=Ruleset(players=3),
                                           layout=layout).to_json()), encoding="utf-8")
    code, out, err = run("review", str(path))
    assert code == 2 and out == "" and "stopped before solving" in err
    note = (f"note: the table model's table of the {layout} sheet for a table of 3 players "
            "is not in the cache")
    assert note in err and words in err and err.index(note) < err.index("stopped")
    assert note not in run("review", str(path), "--quiet")[2]
    # --players 1: the solitaire table, announced as before (where measured)
    solitaire = run("review", str(path), "--players", "1")[2]
    assert note not in solitaire
    assert ("not in the cache" in solitaire) == (layout != "official")


def test_the_table_model_note_is_not_given_where_the_model_is_refused_or_cached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from qwixx_math.commands._solitaire import announce_solve
    from qwixx_math.layouts import layout_named
    from qwixx_math.ruleset import Ruleset
    from qwixx_math.solver import Variant
    from qwixx_math.solver.cache import table_filename

    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path))
    table = Ruleset(players=3)
    announce_solve(layout_named("bonus-a"), table, quiet=False, players=3)  # BA1 refuses
    assert capsys.readouterr().err == ""
    steps = layout_named("connected-steps")
    announce_solve(steps, table, quiet=False, players=3)
    assert "for a table of 3 players" in capsys.readouterr().err
    (tmp_path / table_filename(Variant(steps), False, 3)).write_bytes(b"")
    announce_solve(steps, table, quiet=False, players=3)
    assert capsys.readouterr().err == ""
