"""Turn events on sheets with lucky numbers (issue 34; VARIANTS.md LG3-LG5): the exact
fractions of :func:`turn_events` against :func:`brute_force_events`, which asks the rules
core's legal plans about every roll of eight-sided dice, under all four Option pairs of
``lg_lucky_mode`` (LG4) and ``lg_lucky_candidates`` (LG5); a few chances by hand; the
``prob`` command's lucky line and flags; the row chain's refusal."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from itertools import product

import pytest

from qwixx_math.cli import main
from qwixx_math.dice.events import brute_force_events, roll_events, turn_events
from qwixx_math.dice.markov import turns_to_close
from qwixx_math.errors import ParseError
from qwixx_math.layouts import SheetLayout, layout_named
from qwixx_math.model import Colour, LuckyMark, Mark, Roll, Sheet
from qwixx_math.notation import parse_sheet
from qwixx_math.ruleset import LuckyCandidates, LuckyMode, Ruleset

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE
#: Longo's red and green rows alone with the lucky numbers 5 and 13: 8**4 rolls, so the
#: brute force takes about a second.
LUCKY_TWO = dataclasses.replace(
    SheetLayout.of_rows("longo-two", [[(n, R) for n in range(2, 17)],
                                      [(n, G) for n in range(16, 1, -1)]],
                        lock_threshold=6, faces=8, lock_cells=2),
    name="longo-two:5,13", lucky=(5, 13))
LONGO_LUCKY = layout_named("longo:5,13")
OPTIONS = [Ruleset(lg_lucky_mode=mode, lg_lucky_candidates=cand)
           for mode, cand in product(LuckyMode, LuckyCandidates)]

SHEETS = [
    ({}, 0),                                               # both rows fewest: r2 and g16
    ({R: [2, 3, 4, 5, 6, 7]}, 0),                           # green fewest; red may lock
    ({R: [2, 3, 4, 5, 6, 7, 14], G: [16, 15, 14, 13, 12, 11, 4]}, 3),  # lucky cross closes
    ({R: [2, 3, 4, 5, 6, 7, 13], G: [16, 15, 14, 13, 12, 11, 4]}, 0),  # close both: the end
    ({R: [14], G: [16, 15, 14]}, 2),     # red fewest without a next cell: LG5 decides
]


@pytest.mark.parametrize("ruleset", OPTIONS, ids=lambda rs: f"{rs.lg_lucky_mode.value}-"
                                                           f"{rs.lg_lucky_candidates.value}")
@pytest.mark.parametrize(("marks", "penalties"), SHEETS)
def test_lucky_events_equal_the_brute_force(marks: dict[Colour, list[int]], penalties: int,
                                            ruleset: Ruleset) -> None:
    sheet = Sheet.from_marks(marks, penalties=penalties, layout=LUCKY_TWO)
    assert turn_events(sheet, ruleset=ruleset) == brute_force_events(sheet, ruleset=ruleset)


@pytest.mark.parametrize("ruleset", [OPTIONS[0], OPTIONS[3]])
def test_lucky_events_with_r15_and_a_closed_row_equal_the_brute_force(
        ruleset: Ruleset) -> None:
    """Two rows closed end the game (R14); here green is closed by another player, so any
    close of red ends it, and under R15 action 2 still follows."""
    three = dataclasses.replace(
        SheetLayout.of_rows("longo-three", [[(n, R) for n in range(2, 17)],
                                            [(n, Y) for n in range(2, 17)],
                                            [(n, G) for n in range(16, 1, -1)]],
                            lock_threshold=6, faces=8, lock_cells=2),
        name="longo-three:4,12", lucky=(4, 12))
    sheet = Sheet.from_marks({R: [2, 3, 4, 5, 6, 7, 13], Y: [2, 3, 4, 5, 6, 7, 8]},
                             penalties=3, layout=three)
    rs = dataclasses.replace(ruleset, action2_after_game_end=True)
    assert turn_events(sheet, "green", rs) == brute_force_events(sheet, "green", rs)


@pytest.mark.slow
def test_lucky_events_on_the_whole_longo_sheet_equal_the_brute_force() -> None:
    """All 8**6 rolls of the Longo pad (VARIANTS.md §8.3's first sheet; about 75 s CPU)."""
    sheet = parse_sheet("r:2,4,5,7,9,10/y:6,9/g:16,15/b:16,12,8/p:3", LONGO_LUCKY)
    rs = OPTIONS[3]  # additional, open_with_next_cell: the most crosses
    assert turn_events(sheet, ruleset=rs) == brute_force_events(sheet, ruleset=rs)


def test_an_empty_lucky_sheet_by_hand() -> None:
    """White sum 5 or 13 (8 of 64 white pairs) offers a lucky cross on an empty sheet: the
    next cell of any row (all have no cross).  A passive player marks yellow 2 with a white
    sum 2 (1/64) or that lucky cross (8/64); red 5 only with the white sum 5 (4/64), the
    lucky cross on red being red 2."""
    ev = turn_events(Sheet.empty(LONGO_LUCKY))
    assert ev.active.lucky == ev.passive.lucky == Fraction(8, 64)
    assert ev.passive.markable(Y, 2) == Fraction(9, 64)
    assert ev.passive.markable(R, 5) == Fraction(4, 64)
    plain = turn_events(Sheet.empty(layout_named("longo")))
    assert plain.passive.markable(Y, 2) == Fraction(1, 64) and plain.active.lucky == 0


def test_the_options_change_the_answer() -> None:
    """Red has the fewest crosses but no legal next cell (15 is a lock number, LG2): under
    open_rows no lucky cross (LG5), under open_with_next_cell green's next cell.  Under
    additional a turn can cross three cells (white sum, lucky cross, action 2)."""
    sheet = Sheet.from_marks({R: [14], G: [16, 15, 14]}, penalties=2, layout=LUCKY_TWO)
    ev = {(rs.lg_lucky_mode, rs.lg_lucky_candidates): turn_events(sheet, ruleset=rs)
          for rs in OPTIONS}
    instead, additional = LuckyMode.INSTEAD, LuckyMode.ADDITIONAL
    rows, next_cell = LuckyCandidates.OPEN_ROWS, LuckyCandidates.OPEN_WITH_NEXT_CELL
    assert ev[instead, rows].active.lucky == ev[additional, rows].active.lucky == 0
    assert ev[instead, next_cell].active.lucky == Fraction(8, 64)
    assert ev[instead, next_cell].active.marks.probability(3) == 0
    assert ev[additional, next_cell].active.marks.probability(3) > 0


def test_roll_events_count_a_lucky_cross_and_its_first_mark() -> None:
    """White 2 + 3 = 5 (lucky) on ``r:2..7/y:2``: under additional, y5 then the lucky
    cross on green or blue (16) is one choice crossing two cells, and with an action-2
    mark three."""
    sheet = parse_sheet("r:2,3,4,5,6,7/y:2", LONGO_LUCKY)
    roll = Roll((2, 3), (1, 1, 1, 1), 8)
    ev = roll_events(sheet, roll, ruleset=OPTIONS[2])
    assert ev.lucky and ev.passive_lucky and ev.max_marks == 3
    assert LuckyMark(G, 16, first=Mark(Y, 5)) in ev.passive_marks
    assert Mark(G, 16) in ev.passive_cells and Mark(B, 16) in ev.active_cells
    instead = roll_events(sheet, roll, ruleset=OPTIONS[0])
    assert instead.max_marks == 2 and Mark(G, 16) in instead.active_cells
    other = roll_events(sheet, Roll((2, 2), (1, 1, 1, 1), 8), ruleset=OPTIONS[0])
    assert not other.lucky and Mark(G, 16) not in other.active_cells


def test_the_row_chain_refuses_lucky_numbers_saying_why() -> None:
    with pytest.raises(ParseError, match=r"LG3.*other rows"):
        turns_to_close("red", layout=LONGO_LUCKY)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


#: Red has the fewest crosses and no legal next cell (15 is a lock number, LG2).
BLOCKED = "r:14/y:2,3,4/g:16,15,14/b:16,15,14/p:2"


def test_prob_on_a_lucky_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "prob", "--sheet", "r:2", "--layout", "longo:5,13")
    assert code == 0, err
    assert out.count("a lucky cross is possible (LG3): 1/8 = 0.1250") == 2
    code, out, err = run(capsys, "prob", "--sheet", BLOCKED, "--layout", "longo:5,13",
                         "--json", "--lg-lucky-mode", "additional",
                         "--lg-lucky-candidates", "open_with_next_cell")
    assert code == 0, err
    data = json.loads(out)
    rs = Ruleset(lg_lucky_mode=LuckyMode.ADDITIONAL,
                 lg_lucky_candidates=LuckyCandidates.OPEN_WITH_NEXT_CELL)
    ev = turn_events(parse_sheet(BLOCKED, LONGO_LUCKY), ruleset=rs)
    assert Fraction(data["active"]["lucky"]) == ev.active.lucky == Fraction(1, 8)
    assert Fraction(data["active"]["marks"]["3"]) == ev.active.marks.probability(3) > 0
    assert data["ruleset"]["lg_lucky_mode"] == "additional"
    # the default Options: red (fewest, no next cell) blocks the lucky cross
    code, out, _ = run(capsys, "prob", "--sheet", BLOCKED, "--layout", "longo:5,13", "--json")
    assert code == 0 and json.loads(out)["active"]["lucky"] == "0"
    code, out, _ = run(capsys, "prob", "--sheet", "r:2", "--json")
    assert "lucky" not in json.loads(out)["active"]  # a sheet without lucky numbers
    code, out, _ = run(capsys, "prob", "--sheet", "r:2", "--layout", "longo:5,13",
                       "--roll", "w:2,3/r:1/y:1/g:1/b:1")
    assert code == 0 and "lucky cross possible: yes" in out and "*y2" in out


def test_prob_lucky_flags_reject_bad_values(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["prob", "--sheet", "r:2", "--layout", "longo:5,13", "--lg-lucky-mode", "both"])
    assert exc.value.code == 2
    assert "--lg-lucky-mode" in capsys.readouterr().err
