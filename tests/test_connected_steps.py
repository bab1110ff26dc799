"""Qwixx Connected, the Steps (VARIANTS.md §4; issue 34): the staircases transcribed from
§4.1, play unchanged (CS1), the fifth score group T(crossed step cells) (CS2) everywhere a
sheet is scored, both worked examples of §4.3, notation and records, the validator naming
CS2, the SVG and text drawings, and the policy commands on the staircases (the exact
solver takes the steps: tests/test_solver_steps.py; the policy engine keeps the step total
too: tests/test_policies_steps.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PlayedGame, games

from qwixx_math.cli import main
from qwixx_math.errors import ParseError
from qwixx_math.layouts import (
    CONNECTED_STEPS,
    CONNECTED_STEPS_S21,
    LAYOUTS,
    OFFICIAL,
    Confidence,
    SheetLayout,
)
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet
from qwixx_math.notation import format_sheet, parse_sheet, sheet_from_json, sheet_to_json
from qwixx_math.record import GameRecord, TurnRecord, replay
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver.variant import Variant
from qwixx_math.svg import sheet_svg, sheet_text
from qwixx_math.validation import validate_record

#: VARIANTS.md §4.1 word for word: each staircase as the cells it names.
SPEC = {
    "connected-steps": "R2 Y3 Y4 R5 G8 B7 B6 G5 R10 Y11 G2",
    "connected-steps-2": "Y2 R3 G10 B9 Y6 G7 R8 B5 G4 B3 Y12",
    "connected-steps-3": "G12 B11 R4 Y5 B8 R7 G6 Y9 B4 R11 G2",
    "connected-steps-4": "B12 G11 Y4 R5 G8 Y7 B6 R9 Y10 G3 B2",
    "connected-steps-5": "R2 G11 B10 Y5 R6 B7 Y8 G5 B4 Y11 R12",
    # S21 "layout A": red p0,1,5; yellow p2,4,6; green p3,7,9; blue p8,10
    "connected-steps-s21": "R2 R3 R7 Y4 Y6 Y8 G9 G5 G3 B4 B2",
}
STEPS_LAYOUTS = [LAYOUTS[name] for name in SPEC]
_LETTER = {"R": Colour.RED, "Y": Colour.YELLOW, "G": Colour.GREEN, "B": Colour.BLUE}


def spec_cells(name: str) -> set[tuple[Colour, int]]:
    return {(_LETTER[cell[0]], int(cell[1:])) for cell in SPEC[name].split()}


def t(n: int) -> int:
    return n * (n + 1) // 2


@pytest.mark.parametrize("name", list(SPEC))
def test_the_staircases_are_the_cells_of_the_spec(name: str) -> None:
    """Each layout's step cells, read back as printed numbers, are §4.1's list; every S2
    and S21 staircase has one step per column; the rows are the official sheet's."""
    layout = LAYOUTS[name]
    cells = {(c, n) for c in COLOURS for n in layout.numbers[c.index] if layout.is_step(c, n)}
    assert cells == spec_cells(name) and len(layout.steps) == 11
    assert sorted(p for _, p in layout.steps) == list(range(11))
    assert layout.numbers == OFFICIAL.numbers and layout.colours == OFFICIAL.colours
    assert layout.confidence is Confidence.RECONSTRUCTED and layout.key == name
    assert layout.score_rule == "CS2" and layout.lock_rule == "R8"


def test_s2_entry_i_is_the_row_of_column_i() -> None:
    """§4.1: entry i of S2 is the row of column i (red/yellow show i+2, green/blue 12-i)."""
    for name in SPEC:
        if name.endswith("s21"):
            continue
        for i, cell in enumerate(SPEC[name].split()):
            colour, number = _LETTER[cell[0]], int(cell[1:])
            assert number == (i + 2 if colour in (Colour.RED, Colour.YELLOW) else 12 - i)


# -- CS2: the worked examples of §4.3 -----------------------------------------------------------

def test_worked_example_1_scores_63() -> None:
    """Red 2,5,7,8,10 (5; steps R2, R5, R10); yellow 3,4,6 (3; Y3, Y4); green 12,8,5,4 (4;
    G8, G5); blue 7 (1; B7); one penalty; 8 steps: 15 + 6 + 10 + 1 + 36 - 5 = 63."""
    sheet = parse_sheet("connected-steps|r:2,5,7,8,10/y:3,4,6/g:12,8,5,4/b:7/p:1")
    assert [sheet.row_score(c) for c in COLOURS] == [15, 6, 10, 1]
    assert sheet.steps_crossed == 8 and sheet.steps_score == 36
    assert sheet.score == 63
    # the same marks on the official sheet score without the fifth group
    assert parse_sheet("r:2,5,7,8,10/y:3,4,6/g:12,8,5,4/b:7/p:1").score == 63 - 36


def test_worked_example_2_scores_128() -> None:
    """All 11 steps (66) and green closed with 7 crosses before its lock: 10 + 10 + 36 + 6
    + 66 = 128; the sheet is reached by legal play through the rules core."""
    text = "connected-steps|r:2,5,10,11/y:3,4,5,11/g:12,10,8,5,4,3,2,lock/b:9,7,6"
    sheet = parse_sheet(text)
    assert [sheet.row_score(c) for c in COLOURS] == [10, 10, 36, 6]
    assert sheet.steps_crossed == 11 and sheet.steps_score == 66 and sheet.score == 128
    built = Sheet.empty(CONNECTED_STEPS)
    for colour in COLOURS:
        for number in sheet.marks(colour):
            assert built.allows(colour, number)   # CS1: R7 and R8 as on the official sheet
            built = built.with_mark(colour, number)
    assert built == sheet


@st.composite
def steps_sheets(draw: st.DrawFn) -> Sheet:
    """A legal sheet of one of the steps layouts (any marks left to right, a lock when R8
    allows it)."""
    layout = draw(st.sampled_from(STEPS_LAYOUTS))
    marks: dict[Colour, list[int]] = {}
    for colour in COLOURS:
        numbers = list(layout.numbers[colour.index][:-1])
        chosen = sorted(draw(st.sets(st.sampled_from(numbers))), key=numbers.index)
        if len(chosen) >= 5 and draw(st.booleans()):
            chosen.append(layout.last_number(colour))
        marks[colour] = chosen
    return Sheet.from_marks(marks, draw(st.integers(0, 4)), layout)


@given(steps_sheets())
def test_cs2_score_is_the_rows_plus_t_of_the_steps(sheet: Sheet) -> None:
    """CS2 read directly: the official rows (a step counts in its row) plus T(steps crossed,
    from §4.1's list), minus 5 per penalty; text and JSON round-trip."""
    steps = spec_cells(sheet.layout.name)
    crossed = sum((c, n) in steps for c in COLOURS for n in sheet.marks(c))
    official = Sheet(sheet.masks, sheet.penalties, OFFICIAL)
    assert sheet.steps_crossed == crossed <= 11
    assert sheet.score == official.score + t(crossed)
    assert [sheet.count(c) for c in COLOURS] == [official.count(c) for c in COLOURS]
    assert parse_sheet(format_sheet(sheet)) == sheet
    assert sheet_from_json(json.loads(json.dumps(sheet_to_json(sheet)))) == sheet


@settings(max_examples=25, deadline=None)
@given(games(layout=st.sampled_from(STEPS_LAYOUTS)))
def test_random_games_score_by_cs2_and_replay(game: PlayedGame) -> None:
    """The rules core on the steps layouts: every state's scores are CS2 recomputed by
    hand; the record reads back from JSON, replays and validates."""
    for state in game.states:
        layout = state.layout
        for sheet in state.sheets:
            rows = sum(t(len(sheet.marks(c)) + sheet.is_locked(c)) for c in COLOURS)
            steps = sum(layout.is_step(c, n) for c in COLOURS for n in sheet.marks(c))
            assert sheet.score == rows + t(steps) - 5 * sheet.penalties
    back = GameRecord.from_json(json.loads(json.dumps(game.record.to_json())))
    assert back == game.record and replay(back)[-1] == game.final
    assert validate_record(back).valid


# -- the step data -------------------------------------------------------------------------------

@pytest.mark.parametrize(("steps", "match"), [
    (CONNECTED_STEPS.steps[:10], "11 distinct cells"),
    ((*CONNECTED_STEPS.steps[:10], CONNECTED_STEPS.steps[0]), "11 distinct cells"),
    ((*CONNECTED_STEPS.steps[:10], (4, 0)), "no row 4"),
    ((*CONNECTED_STEPS.steps[:10], (0, 11)), "the lock box is never a step"),
    ((*CONNECTED_STEPS.steps[:10], (0, True)), "pairs"),
    ("R2", "pairs"),
])
def test_bad_step_data_is_a_parse_error(steps: object, match: str) -> None:
    with pytest.raises(ParseError, match=match) as err:
        SheetLayout("bad", OFFICIAL.numbers, OFFICIAL.colours, steps=steps)  # type: ignore[arg-type]
    assert err.value.rule == "CS2"   # the step cells CS2 scores, as other pads name theirs


def test_any_eleven_cells_are_a_staircase_and_keys_carry_them() -> None:
    """Validators must accept any 11 distinct cells (§4.1); a spelled-out key holds them."""
    cells = tuple((r, p) for r in (0, 3) for p in range(6))[:11]
    layout = SheetLayout("eleven", OFFICIAL.numbers, OFFICIAL.colours, steps=cells)
    assert layout != OFFICIAL and layout.key.endswith("-s" + "".join(
        f"{r}{p:x}" for r, p in sorted(cells)))
    assert SheetLayout.from_key(layout.key) == layout
    sheet = parse_sheet(f"{layout.key}|r:2,3,4/b:12")
    assert sheet.steps_crossed == 4 and sheet.score == 6 + 1 + t(4)
    with pytest.raises(ParseError):
        SheetLayout.from_key(layout.key + "0")


# -- the validator ---------------------------------------------------------------------------------

def _solitaire(moves: list[tuple[int, int, str]], scores: list[int] | None = None
               ) -> GameRecord:
    """A one-player Connected Steps record: each turn action 1 marks the white sum."""
    turns = []
    for k, (a, b, mark) in enumerate(moves):
        colour = Colour.parse(mark[0])
        turns.append(TurnRecord(0, Roll.of(a, b, red=1, yellow=1, green=1, blue=1),
                                (Mark(colour, int(mark[1:])),), None,
                                None if scores is None else (scores[k],),
                                None if scores is None else (0,)))
    return GameRecord(("P1",), Ruleset(1), tuple(turns), layout=CONNECTED_STEPS)


def test_the_validator_names_cs2_for_a_score_without_the_steps() -> None:
    """Red 2 (a step: 1 + T(1) = 2), red 3 (not a step: 3 + 1 = 4), red 5 (a step: 6 + 3 =
    9) are right; claims that leave the steps out (1, 3, 6) are CS2 (reported where the gap
    appears, turn 1, and where it grows, turn 3)."""
    moves = [(1, 1, "r2"), (1, 2, "r3"), (2, 3, "r5")]
    assert validate_record(_solitaire(moves, [2, 4, 9]), partial=True, dialects=False).valid
    report = validate_record(_solitaire(moves, [1, 3, 6]), partial=True, dialects=False)
    assert [(v.turn, v.rule) for v in report.violations] == [(1, "CS2"), (3, "CS2")]
    assert "steps 3 (2 step cells)" in report.violations[-1].message


def test_validate_and_generate_on_the_command_line(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """generate --layout connected-steps writes valid records naming the pad; a final score
    without the steps is exit 1 with CS2."""
    code = main(["generate", "--layout", "connected-steps", "--games", "2", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0
    record = json.loads(out.splitlines()[0])
    assert record["layout"] == "connected-steps"
    final = replay(GameRecord.from_json(record))[-1]
    assert final.scores == tuple(record["result"]["scores"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()
    steps_points = [t(s.steps_crossed) for s in final.sheets]
    record["result"]["scores"] = [s - p for s, p in zip(record["result"]["scores"],
                                                          steps_points, strict=True)]
    for turn in record["turns"]:
        turn.pop("scores", None)
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["validate", str(path), "--json", "--no-dialects"]) == 1
    rules = {v["rule"] for v in json.loads(capsys.readouterr().out)["violations"]}
    assert "CS2" in rules and rules <= {"CS2", "R18"}


# -- drawings --------------------------------------------------------------------------------------

def test_svg_frames_the_step_cells_and_shows_their_total() -> None:
    sheet = parse_sheet("connected-steps|r:2,5/y:3/p:1")
    root = ET.fromstring(sheet_svg(sheet))
    ns = {"s": "http://www.w3.org/2000/svg"}
    cells = root.findall(".//s:g[@class='cell']", ns)
    steps = [(c.get("data-row"), int(c.get("data-number") or 0)) for c in cells
             if c.get("data-step") == "true"]
    assert {(_LETTER[r[0].upper()], n) for r, n in steps} == spec_cells("connected-steps")
    framed = [c for c in cells if c.find("s:rect[@class='step']", ns) is not None]
    assert len(framed) == 11
    texts = {t.get("class"): t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
             if t.get("class")}
    assert texts["steps-score"] == "steps 6" and texts["score"] == "score 5"   # 3 + 1 + 6 - 5
    # no step attributes on a sheet without steps
    assert "data-step" not in sheet_svg(parse_sheet("r:2"))


def test_text_drawing_lists_the_steps() -> None:
    text = sheet_text(parse_sheet("connected-steps-s21|r:2,3/g:9"))
    assert "steps  [R2] [R3] Y4 [G9] Y6 R7 Y8 G5 B4 G3 B2   3 crossed  6 points" in text
    assert text.splitlines()[-1].endswith("score 10")   # 3 + 1 + 6


# -- the exact solver and the policies take them ------------------------------------------------

@pytest.mark.parametrize("layout", [CONNECTED_STEPS, CONNECTED_STEPS_S21], ids=lambda la: la.name)
def test_the_exact_solver_takes_step_cells(layout: SheetLayout) -> None:
    """The solver holds the total of crossed step cells (tests/test_solver_steps.py checks
    its values against the naive solver)."""
    variant = Variant(layout)
    assert variant.has_steps and variant.step_layers == 12 and not variant.is_plain


def test_policy_commands_play_the_steps(capsys: pytest.CaptureFixture[str]) -> None:
    """The simulator scores T(crossed step cells) too (CS2): the games' mean is above the
    same policy's on the official sheet with the same dice."""
    assert main(["simulate", "--layout", "connected-steps", "--policy", "seed-tips",
                 "--games", "400", "--json", "--quiet"]) == 0
    steps = json.loads(capsys.readouterr().out)
    assert main(["simulate", "--policy", "seed-tips", "--games", "400", "--json",
                 "--quiet"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert steps["layout"] == "connected-steps" and steps["mean"] > plain["mean"]
