"""Pads as data (issue 34): a layout's JSON form (``SheetLayout.to_json``/``from_json``),
layout files (``read_layout_file``, ``--layout FILE``), the provenance labels of the
published layouts (VARIANTS.md §0.3), and records of a pad of one's own."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values, mutated_json
from test_layouts_cli import run, write

from qwixx_math.cli import main
from qwixx_math.errors import ParseError, QwixxError
from qwixx_math.layouts import (
    CONNECTED_STEPS,
    DOUBLE_B,
    LAYOUTS,
    MIXX_A,
    OFFICIAL,
    Confidence,
    SheetLayout,
    layout_named,
    read_layout_file,
)
from qwixx_math.model import COLOURS, Colour
from qwixx_math.notation import format_sheet, parse_sheet
from qwixx_math.record import GameRecord, random_game
from qwixx_math.validation import validate_record

#: A house pad: the official sheet with a lock after 4 marks, 3 penalty boxes, a blue row
#: with two double cells and step cells (the CS2 score group).
HOUSE: dict[str, Any] = {
    "name": "house",
    "confidence": "unknown",
    "source": "our kitchen table",
    "rows": [
        {"numbers": list(range(2, 13)), "colours": "red"},
        {"numbers": list(range(2, 13)), "colours": "yellow"},
        {"numbers": list(range(12, 1, -1)), "colours": "green"},
        {"numbers": list(range(12, 1, -1)), "colours": "blue",
         "weights": [1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1]},
    ],
    "lock_threshold": 4,
    "penalty_boxes": 3,
    "closed_rows_to_end": 2,
    "steps": [["red", p] for p in range(6)] + [["green", p] for p in range(5)],
}


# -- the JSON form -------------------------------------------------------------------------------

def test_the_house_pad_reads_field_by_field() -> None:
    layout = SheetLayout.from_json(HOUSE)
    assert layout.name == "house" and layout.confidence is Confidence.UNKNOWN
    assert layout.source == "our kitchen table"
    assert layout.numbers == OFFICIAL.numbers and layout.colours == OFFICIAL.colours
    assert (layout.lock_threshold, layout.penalty_boxes, layout.closed_rows_to_end) == (4, 3, 2)
    assert layout.is_double("blue", 11) and layout.is_double("blue", 5)
    assert not layout.is_double("blue", 10)
    assert layout.is_step("red", 7) and not layout.is_step("red", 8)
    assert layout.is_step("green", 8) and not layout.is_step("green", 7)
    assert SheetLayout.from_json(layout.to_json()) == layout


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_published_layouts_round_trip_with_their_labels(name: str) -> None:
    """Each published layout's JSON reads back as that very layout (labels included)."""
    layout = LAYOUTS[name]
    data = json.loads(json.dumps(layout.to_json()))
    assert data["name"] == name and data["confidence"] == layout.confidence.value
    assert SheetLayout.from_json(data) is layout


def test_provenance_labels_follow_variants_md() -> None:
    """VARIANTS.md §0.3: the official sheet and Mixx checked; Double B checked with its
    disputed Option named; the Connected Steps staircases reconstructed."""
    labels = {name: la.confidence.value for name, la in LAYOUTS.items()}
    assert labels["official"] == labels["mixx-a"] == labels["mixx-b"] == "checked"
    assert labels["double-b"] == "checked" and "db_desc_cells" in DOUBLE_B.source
    assert labels["double-b-alt"] == "stated"
    steps = [name for name in LAYOUTS if name.startswith("connected-steps")]
    assert len(steps) == 6 and all(labels[n] == "reconstructed" for n in steps)
    assert "unverified" in LAYOUTS["connected-steps-s21"].source
    assert all(la.source for la in LAYOUTS.values())
    # labels are not part of the pad: equality ignores them
    assert SheetLayout.from_json({**HOUSE, "confidence": "stated", "source": ""}) \
        == SheetLayout.from_json(HOUSE)


@st.composite
def json_layouts(draw: st.DrawFn) -> dict[str, Any]:
    """A valid layout JSON: 1 to 4 rows of distinct numbers, any cell colours (each row's
    last cell a distinct lock colour, in order), weights, maybe 11 step cells."""
    n = draw(st.integers(1, 4))
    locks = sorted(draw(st.lists(st.sampled_from(COLOURS), min_size=n, max_size=n,
                                 unique=True)), key=lambda c: c.index)
    rows = []
    for lock in locks:
        numbers = draw(st.lists(st.integers(2, 12), min_size=2, max_size=11, unique=True))
        colours = [draw(st.sampled_from(COLOURS)).value for _ in numbers[:-1]] + [lock.value]
        row: dict[str, Any] = {"numbers": numbers, "colours": colours}
        if draw(st.booleans()):
            row["weights"] = [draw(st.integers(1, 2)) for _ in numbers[:-1]] + [1]
        rows.append(row)
    least = min(sum(r.get("weights", [1] * len(r["numbers"]))[:-1]) for r in rows)
    data: dict[str, Any] = {
        "name": draw(st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True)),
        "rows": rows, "lock_threshold": draw(st.integers(0, least)),
        "penalty_boxes": draw(st.integers(1, 6)),
        "closed_rows_to_end": draw(st.integers(1, n)),
        "confidence": draw(st.sampled_from([c.value for c in Confidence])),
        "source": draw(st.text(max_size=20)),
    }
    cells = [[lock.value, p] for lock, r in zip(locks, rows, strict=True)
             for p in range(len(r["numbers"]))]
    if len(cells) >= 11 and draw(st.booleans()):
        data["steps"] = draw(st.permutations(cells))[:11]
    return data


@settings(max_examples=60)
@given(json_layouts())
def test_json_round_trip(data: dict[str, Any]) -> None:
    """from_json(to_json(x)) == x, labels included; the key spells the same pad out."""
    try:
        layout = SheetLayout.from_json(data)
    except ParseError as exc:  # a name that happens to be a published one
        assert data["name"] in LAYOUTS and "published layout" in str(exc)
        return
    back = SheetLayout.from_json(json.loads(json.dumps(layout.to_json())))
    assert back == layout and back.name == layout.name
    assert (back.confidence, back.source) == (layout.confidence, layout.source)
    assert SheetLayout.from_key(layout.key) == layout


@pytest.mark.parametrize(("change", "field"), [
    ({"name": ""}, "'name'"),
    ({"name": "House Pad"}, "'name'"),
    ({"name": "r2r3-t1-p4-k1"}, "'name'"),
    ({"name": "official"}, "'name'"),
    ({"confidence": "sure"}, "'confidence'"),
    ({"source": 3}, "'source'"),
    ({"rows": []}, "'rows'"),
    ({"rows": "official"}, "'rows'"),
    ({"lock_threshold": True}, "'lock_threshold'"),
    ({"lock_threshold": 11}, "lock_threshold"),
    ({"penalty_boxes": "4"}, "'penalty_boxes'"),
    ({"penalty_boxes": 0}, "penalty box"),
    ({"closed_rows_to_end": 5}, "closed_rows_to_end"),
    ({"steps": [["red", 0]] * 11}, "steps"),
    ({"steps": [["red", 11], *HOUSE["steps"][1:]]}, "'steps'"),
    ({"steps": [["purple", 0], *HOUSE["steps"][1:]]}, "'steps'"),
    ({"steps": HOUSE["steps"][:10]}, "steps"),
    ({"steps": "R2"}, "'steps'"),
    ({"lock": 5}, "unknown layout field"),
])
def test_each_malformed_field_is_named(change: dict[str, Any], field: str) -> None:
    with pytest.raises(ParseError, match=re.escape(field)):
        SheetLayout.from_json({**HOUSE, **change})


@pytest.mark.parametrize(("row", "field"), [
    ({"numbers": [2, 3, 3], "colours": "red"}, "row 1"),
    ({"numbers": [2, 13], "colours": "red"}, "'rows[0].numbers'"),
    ({"numbers": [2, 3], "colours": ["red"]}, "'rows[0].colours'"),
    ({"numbers": [2, 3], "colours": "pink"}, "'rows[0].colours'"),
    ({"numbers": [2, 3], "colours": "red", "weights": [2, 2]}, "last cell"),
    ({"numbers": [2, 3], "colours": "red", "weights": [1, 3]}, "'rows[0].weights'"),
    ({"numbers": [2, 3], "colours": "red", "weights": [1]}, "'rows[0].weights'"),
    ({"numbers": [2, 3], "colour": "red"}, "'rows[0]'"),
    ([2, 3], "'rows[0]'"),
])
def test_each_malformed_row_field_is_named(row: Any, field: str) -> None:
    data = {"name": "one", "rows": [row], "lock_threshold": 0, "closed_rows_to_end": 1}
    with pytest.raises(ParseError, match=re.escape(field)):
        SheetLayout.from_json(data)


def test_rows_out_of_lock_order_and_a_published_name() -> None:
    swapped = {**HOUSE, "rows": [HOUSE["rows"][1], HOUSE["rows"][0], *HOUSE["rows"][2:]]}
    with pytest.raises(ParseError, match="order of their lock colours"):
        SheetLayout.from_json({k: v for k, v in swapped.items() if k != "steps"})
    # a file that restates a published layout under its name is that layout
    assert SheetLayout.from_json({**CONNECTED_STEPS.to_json(), "source": "x"}) \
        is CONNECTED_STEPS
    # another name for the same pad is allowed (a house name for the official sheet)
    same = SheetLayout.from_json({**OFFICIAL.to_json(), "name": "ours"})
    assert same == OFFICIAL and same.name == "ours"


@settings(max_examples=150)
@given(json_values() | mutated_json(st.just(HOUSE)) | mutated_json(st.just(MIXX_A.to_json())))
def test_any_json_is_a_layout_or_a_parse_error(data: object) -> None:
    """Fuzz: any JSON value is a layout that round-trips, or one ParseError."""
    try:
        layout = SheetLayout.from_json(data)
    except ParseError as exc:
        assert "\n" not in str(exc)
        return
    assert SheetLayout.from_json(layout.to_json()) == layout


# -- files and the command line --------------------------------------------------------------------

def test_read_layout_file_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "house.json", HOUSE)
    assert read_layout_file(path) == SheetLayout.from_json(HOUSE)
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(ParseError, match=r"bad\.json: the layout file is not JSON"):
        read_layout_file(tmp_path / "bad.json")
    big = tmp_path / "big.json"
    big.write_text(" " * (65 * 1024), encoding="utf-8")
    with pytest.raises(ParseError, match="at most 65,536 bytes"):
        read_layout_file(big)
    with pytest.raises(ParseError, match=r"odd\.json: unknown layout field"):
        read_layout_file(write(tmp_path / "odd.json", {**HOUSE, "colour": 1}))
    # layout_named never reads a file: a record cannot make the library open one
    with pytest.raises(ParseError, match="unknown layout"):
        layout_named(path)


def test_layout_file_on_the_command_line(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """prob and show read --layout FILE; generate writes records that name the pad by its
    spelled-out key, so they validate with or without the file; a wrong file is exit 2."""
    path = write(tmp_path / "house.json", HOUSE)
    code, out, _ = run(["show", "--sheet", "r:2,3/b:11", "--layout", path], capsys)
    # red 3 + blue 3 (11 is doubled) + T(2 steps) 3
    assert code == 0 and "house sheet" in out and "score 9" in out
    code, out, _ = run(["generate", "--layout", path, "--games", "2", "--seed", "1"], capsys)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    layout = SheetLayout.from_json(HOUSE)
    assert all(r["layout"] == layout.key for r in records)
    record_path = write(tmp_path / "game.json", records[0])
    assert run(["validate", record_path], capsys)[0] == 0
    assert run(["validate", record_path, "--layout", path], capsys)[0] == 0
    code, _, err = run(["validate", record_path, "--layout", "official"], capsys)
    assert code == 2 and "Traceback" not in err
    for bad in ({**HOUSE, "penalty_boxes": -1}, [1, 2], {**HOUSE, "name": "mixx-a"}):
        code, _, err = run(["prob", "--sheet", "r:2", "--layout",
                            write(tmp_path / "bad.json", bad)], capsys)
        last = err.strip().splitlines()[-1]
        assert code == 2 and "Traceback" not in err and "bad.json" in last
    code, _, err = run(["prob", "--sheet", "r:2", "--layout", "house"], capsys)
    assert code == 2 and "ends in .json" in err


def test_a_custom_record_reads_back_without_the_file(tmp_path: Path) -> None:
    """A record of a file layout names its key: it reads back and validates as it is."""
    layout = read_layout_file(write(tmp_path / "house.json", HOUSE))
    record = random_game(2, seed=4, layout=layout)
    back = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert back == record and back.layout == layout
    assert validate_record(back).valid
    sheet = parse_sheet("r:2,3,4/y:5", layout=layout)
    assert parse_sheet(format_sheet(sheet)) == sheet and sheet.steps_crossed == 3


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=200) | json_values().map(lambda v: json.dumps(v).encode()))
def test_fuzz_layout_files_on_the_command_line(content: bytes) -> None:
    """Any file bytes as --layout FILE: exit 0 or 2, never a traceback."""
    import contextlib
    import io
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pad.json"
        path.write_bytes(content)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main(["prob", "--sheet", "r:2", "--layout", str(path)])
            except SystemExit as exc:
                code = int(exc.code or 0)
            except QwixxError as exc:  # pragma: no cover - the failure this test hunts
                raise AssertionError(f"escaped: {exc}") from None
        assert code in (0, 2) and "Traceback" not in err.getvalue()


def test_colour_names_in_steps_follow_the_lock_colours() -> None:
    """Steps name rows by their lock colour (Mixx A's row 1 is 'red', whatever its cells)."""
    data = {**MIXX_A.to_json(), "name": "mixx-a-steps",
            "steps": [["red", p] for p in range(11)]}
    layout = SheetLayout.from_json(data)
    assert layout.steps_crossed((0b111, 0, 0, 0)) == 3
    assert layout.is_step(Colour.RED, 2) and not layout.is_step(Colour.YELLOW, 2)


def test_the_layouts_command_lists_the_labels_and_shows_a_layout(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`layouts` lists every published pad with its label; --show prints a layout file's
    JSON (which reads back as the pad), checks a file, and refuses a bad one (exit 2)."""
    code, out, _ = run(["layouts"], capsys)
    assert code == 0
    for name, layout in LAYOUTS.items():
        assert re.search(rf"^{re.escape(name)} +{layout.confidence.value} ", out, re.M)
    assert re.search(r"^mixx-a +checked +colours mixed$", out, re.M)
    assert re.search(r"^connected-steps-s21 +reconstructed +11 step cells$", out, re.M)
    code, out, _ = run(["layouts", "--json"], capsys)
    assert code == 0 and [la["name"] for la in json.loads(out)] == list(LAYOUTS)
    code, out, _ = run(["layouts", "--show", "double-b"], capsys)
    assert code == 0 and SheetLayout.from_json(json.loads(out)) is DOUBLE_B
    code, out, _ = run(["layouts", "--show", write(tmp_path / "house.json", HOUSE)], capsys)
    assert code == 0 and json.loads(out) == SheetLayout.from_json(HOUSE).to_json()
    code, _, err = run(["layouts", "--show", write(tmp_path / "bad.json", {"name": "x"})],
                       capsys)
    assert code == 2 and "needs the field 'rows'" in err
