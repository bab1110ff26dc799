"""Qwixx Bonus, pad B (VARIANTS.md §3; issue 34): the symbol cells as layout data (§3.1), the
rules core's activations and forced crosses (BB1-BB3, BB7, BB9), the end-game rewards
(BB4-BB6, BB8), both worked examples of §3.3 played as moves, records, drawings, and the
typed refusals of the solver side (BB1)."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values, mutated_json
from test_bonus_a import played_states

from qwixx_math import bonus_b
from qwixx_math.errors import IllegalMoveError, ParseError
from qwixx_math.layouts import BONUS_B, LAYOUTS, OFFICIAL, SYMBOL_NAMES, Confidence, SheetLayout
from qwixx_math.model import COLOURS, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import format_sheet, parse_sheet, sheet_from_json, sheet_to_json
from qwixx_math.rules import GameState, legal_plans
from qwixx_math.ruleset import CircleCandidates, DiamondOrder, Ruleset

R, Y, G, B = COLOURS
_LETTER = {"R": R, "Y": Y, "G": G, "B": B}

#: VARIANTS.md §3.1 word for word: each symbol's two cells as printed numbers.
SPEC = {"circle": "Y11 G9", "diamond": "Y7 B7", "square": "R8 B10", "octagon": "R6 B4",
        "star": "Y3 G5"}


def mark(text: str) -> Mark:
    return Mark(_LETTER[text[0]], int(text[1:]))


def roll(white: str, game: GameState, **faces: int) -> Roll:
    """The roll of whites ``"a,b"``, every coloured die in play showing 1 unless given."""
    a, b = (int(x) for x in white.split(","))
    return Roll((a, b), tuple(faces.get(c.value, 1) if c in game.dice_in_play else None  # type: ignore[arg-type]
                              for c in COLOURS))


# -- 1. the pad as data ---------------------------------------------------------------------------

def test_the_pad_is_the_data_of_the_spec() -> None:
    for name, cells in SPEC.items():
        want = {(_LETTER[c[0]], int(c[1:])) for c in cells.split()}
        assert {(c, n) for c in COLOURS for n in range(2, 13)
                if BONUS_B.symbol_of(c, n) == name} == want
    assert tuple(SPEC) == SYMBOL_NAMES
    assert BONUS_B.numbers == OFFICIAL.numbers and BONUS_B.colours == OFFICIAL.colours
    # checked, but from one source only (S2): the source text says so
    assert BONUS_B.confidence is Confidence.CHECKED and "one source only (S2" in BONUS_B.source
    assert LAYOUTS["bonus-b"] is BONUS_B and BONUS_B != OFFICIAL


def test_equality_hash_json_and_key() -> None:
    house = dataclasses.replace(BONUS_B, name="house")
    assert house == BONUS_B and hash(house) == hash(BONUS_B)
    swapped = dataclasses.replace(BONUS_B, name="house", symbols=(
        BONUS_B.symbols[1], BONUS_B.symbols[0], *BONUS_B.symbols[2:]))
    assert swapped != BONUS_B and hash(swapped) != hash(BONUS_B)
    assert SheetLayout.from_json(json.loads(json.dumps(BONUS_B.to_json()))) is BONUS_B
    assert SheetLayout.from_json({**BONUS_B.to_json(), "name": "house"}) == BONUS_B
    assert house.key.endswith("-o19231535063204381127")
    assert SheetLayout.from_key(swapped.key) == swapped
    assert SheetLayout.from_key(house.key) == BONUS_B
    # a cell pair given either way round is the same pad
    turned = dataclasses.replace(BONUS_B, symbols=tuple((b, a) for a, b in BONUS_B.symbols))
    assert turned == BONUS_B


@pytest.mark.parametrize(("change", "words"), [
    ({"symbols": []}, "'symbols': an object"),
    ({"symbols": {"circle": [["yellow", 9], ["green", 3]]}}, "exactly the keys"),
    ({"symbols": {**BONUS_B.to_json()["symbols"], "moon": []}}, "exactly the keys"),  # type: ignore[dict-item]
    ({"symbols": {**BONUS_B.to_json()["symbols"], "star": [["yellow", 1]]}}, "star needs two"),  # type: ignore[dict-item]
    ({"symbols": {**BONUS_B.to_json()["symbols"], "star": [["pink", 1], ["green", 7]]}},  # type: ignore[dict-item]
     "no cell"),
    ({"symbols": {**BONUS_B.to_json()["symbols"], "star": [["yellow", 11], ["green", 7]]}},  # type: ignore[dict-item]
     "no cell"),
    ({"symbols": {**BONUS_B.to_json()["symbols"], "star": [["yellow", True], ["green", 7]]}},  # type: ignore[dict-item]
     "star needs two"),
    ({"symbols": {**BONUS_B.to_json()["symbols"], "star": [["yellow", 9], ["green", 7]]}},  # type: ignore[dict-item]
     "two symbols"),
])
def test_each_malformed_symbols_field_is_named(change: dict[str, Any], words: str) -> None:
    data = {**BONUS_B.to_json(), "name": "house", **change}
    with pytest.raises(ParseError, match=re.escape(words)) as err:
        SheetLayout.from_json(data)
    assert err.value.rule == "BB1"


@pytest.mark.parametrize("change", [
    {"symbols": BONUS_B.symbols[:4]},
    {"symbols": (((0, 0), (0, 11)), *BONUS_B.symbols[1:])},
    {"symbols": "circle"},
    {"bar": LAYOUTS["bonus-a"].bar, "boxed": LAYOUTS["bonus-a"].boxed},
    {"second_crosses": True},
    {"chain": LAYOUTS["connected-chain"].chain},
])
def test_a_malformed_or_mixed_pad_is_refused_naming_bb1(change: dict[str, Any]) -> None:
    with pytest.raises(ParseError, match=r"BB1|DA1"):
        dataclasses.replace(BONUS_B, name="mixed", **change)


@settings(max_examples=100, deadline=None)
@given(json_values() | mutated_json(st.just(BONUS_B.to_json())))
def test_any_json_is_a_symbols_layout_or_a_parse_error(data: object) -> None:
    try:
        layout = SheetLayout.from_json(data)
    except ParseError:
        return
    assert SheetLayout.from_json(layout.to_json()) == layout


def test_the_options_and_their_refusal() -> None:
    rs = Ruleset(bb_fewest_candidates=CircleCandidates.OPEN_ROWS)
    assert Ruleset.from_json(rs.to_json()) == rs and "bb_fewest_candidates" in rs.to_json()
    assert "bb_fewest_candidates" not in Ruleset().to_json()
    with pytest.raises(ParseError, match="BB3"):
        Ruleset(bb_diamond_order=DiamondOrder.PLAYER_CHOICE)
    with pytest.raises(ParseError, match="BB3"):
        Ruleset.from_json({"bb_diamond_order": "player_choice"})
    with pytest.raises(ParseError, match="bb_fewest_candidates"):
        Ruleset.from_json({"bb_fewest_candidates": "weakest"})


def test_the_parts_without_symbols_refuse_the_pad_naming_bb1() -> None:
    """The row Markov chain and the policies' table look-up refuse the pad (BB1); the
    exact solver plays it (tests/test_solver_bonus_b.py)."""
    from qwixx_math.dice.markov import turns_to_close
    from qwixx_math.keys import table_index

    with pytest.raises(ParseError, match="BB1") as err:
        turns_to_close(R, layout=BONUS_B)
    assert err.value.rule == "BB1"
    with pytest.raises(ParseError, match="BB1"):
        table_index(Sheet.empty(BONUS_B), 0, (), ())


# -- 2. the rules core: the worked examples of §3.3 and the details -------------------------------

def test_worked_example_1_circle_square_star_total_47() -> None:
    """§3.3 example 1, played as moves in a solitaire game: G9 activates the circle; blue has
    the fewest crosses (1): forced B11, then B10, which completes the square (BB7); later
    G5 completes the star.  15 + 2 * 6 + 10 + 10 = 47, the penalties worth 0."""
    start = Sheet.from_marks({R: [2, 4, 8], Y: [3, 5, 11], G: [12], B: [12]}, layout=BONUS_B)
    game = GameState(Ruleset(1), (start,))

    def play(white: str, a1: str | None) -> None:
        nonlocal game
        game = game.play_plan(roll(white, game), TurnPlan(a1 and mark(a1), None))

    assert TurnPlan(mark("G9"), None) in legal_plans(game, roll("4,5", game))
    play("4,5", "G9")
    assert game.sheets[0] == parse_sheet("bonus-b|r:2,4,8/y:3,5,11/g:12,9/b:12,11,10")
    assert bonus_b.active_symbols(game.sheets[0]) == ("circle", "square")
    for white, a1 in (("4,5", "R9"), ("5,5", "R10"), ("2,3", "G5"), ("2,2", "G4"),
                      ("3,3", "B6"), ("1,1", None), ("1,1", None), ("1,1", None)):
        play(white, a1)
    final = game.sheets[0]
    assert final == parse_sheet("bonus-b|r:2,4,8,9,10/y:3,5,11/g:12,9,5,4/b:12,11,10,6/p:3")
    assert bonus_b.active_symbols(final) == ("circle", "square", "star")
    assert bonus_b.active_symbols(Sheet.empty(OFFICIAL)) == ()
    assert [final.row_score(c) for c in COLOURS] == [15, 6, 10, 10]
    assert final.score == 47
    without_star = Sheet.from_marks({R: [2, 4, 8, 9, 10], Y: [3, 5, 11], G: [12, 9, 4],
                                     B: [12, 11, 10, 6]}, penalties=3, layout=BONUS_B)
    assert without_star.score == 15 + 12 + 6 + 10 - 15  # square still, no star


def test_worked_example_2_diamond_total_74() -> None:
    """§3.3 example 2, played by two players: green closed by player 1; player 0 crosses B7
    in action 2, completing the diamond: forced R6 (octagon cell, B4 not yet crossed), Y8,
    green skipped (closed), B6.  Later B4 completes the octagon: 21 + 21 + 3 + 21 + 13 - 5."""
    mine = Sheet.from_marks({R: [2, 3, 4, 5], Y: [2, 7], G: [12, 10], B: [12, 11, 9]},
                            layout=BONUS_B)
    other = parse_sheet("bonus-b|g:12,11,10,9,8,2,lock")
    game = GameState(Ruleset(2), (mine, other), closed=frozenset({G}))
    game = game.play_turn(roll("3,4", game, blue=4), [None, None], mark("B7"))
    assert game.sheets[0] == parse_sheet("bonus-b|r:2,3,4,5,6/y:2,7,8/g:12,10/b:12,11,9,7,6")
    assert bonus_b.active_symbols(game.sheets[0]) == ("diamond",)
    for white, mine_a1, theirs in (("4,4", "R8", "R8"), ("4,5", "Y9", None),
                                   ("5,5", "Y10", "Y10"), ("5,6", "Y11", None),
                                   ("5,6", None, "Y11"), ("2,2", "B4", None),
                                   ("4,5", None, "B9"), ("1,1", None, None)):
        game = game.play_turn(roll(white, game), [mine_a1 and mark(mine_a1),
                                                  theirs and mark(theirs)], None)
    final = game.sheets[0]
    assert final == parse_sheet(
        "bonus-b|r:2,3,4,5,6,8/y:2,7,8,9,10,11/g:12,10/b:12,11,9,7,6,4/p:1")
    assert bonus_b.active_symbols(final) == ("diamond", "octagon")
    assert final.score == 74


def test_circle_ties_take_the_first_row_in_colour_order_and_the_option() -> None:
    """BB2, V9: red and yellow tie with one cross: the circle's crosses go to red (the
    first in colour order: a move cannot name the choice).  Under the default, a row with
    the fewest crosses but no next cell is no candidate; under open_rows it makes both
    crosses lapse."""
    sheet = Sheet.from_marks({R: [2], Y: [11], G: [12, 11, 10], B: [12, 11]}, layout=BONUS_B)
    after, forced, shut = bonus_b.cross(sheet, G.index, 3, frozenset(), False)  # G9
    assert forced == (Mark(R, 3), Mark(R, 4)) and shut == frozenset()
    assert after.marks(G) == (12, 11, 10, 9)
    # yellow ends at its 11 with 1 cross: Y12 needs 5 (R8), so yellow has no next cell
    lone = Sheet.from_marks({Y: [11], G: [12, 11], R: [2, 3], B: [12, 11]}, layout=BONUS_B)
    forced = bonus_b.forced_marks(lone, Mark(G, 9), frozenset(), False)
    assert forced == (Mark(R, 4), Mark(R, 5))  # red, green, blue tie at 2 once G9 is in
    assert bonus_b.forced_marks(lone, Mark(G, 9), frozenset(), False,
                                CircleCandidates.OPEN_ROWS) == ()
    # ...and through the rules core, which passes the ruleset's Option
    game = GameState(Ruleset(1, bb_fewest_candidates=CircleCandidates.OPEN_ROWS), (lone,))
    assert game.play_plan(roll("4,5", game), TurnPlan(mark("G9"), None)).sheets[0] == \
        lone.with_mark(G, 9)


def test_a_forced_cross_that_closes_a_second_row_ends_the_game_after_the_nesting() -> None:
    """BB3, BB7, BB9: the diamond's red cross is R12 (10 crosses before it), closing red;
    with green closed that ends the game (R14) once the whole nesting is done (Y8, B6)."""
    mine = Sheet.from_marks({R: list(range(2, 12)), Y: [2, 7], B: [12]}, layout=BONUS_B)
    other = parse_sheet("bonus-b|g:12,11,10,9,8,2,lock")
    game = GameState(Ruleset(2), (mine, other), closed=frozenset({G}))
    over = game.play_turn(roll("1,2", game, blue=6), [None, None], mark("B7"))
    assert over.is_over and over.ended_by == "R14" and over.closed == frozenset({R, G})
    assert over.sheets[0] == parse_sheet(
        "bonus-b|r:2,3,4,5,6,7,8,9,10,11,12,lock/y:2,7,8/b:12,7,6")


def test_in_action1_a_row_the_player_closed_has_no_next_cell_but_stays_open() -> None:
    """V5: in action 1 the diamond's red cross R12 closes red for the player; red is closed
    for everybody when action 1 ends; the diamond still crosses yellow and blue."""
    mine = Sheet.from_marks({R: list(range(2, 12)), Y: [2, 7], B: [12]}, layout=BONUS_B)
    game = GameState(Ruleset(1), (mine,))
    after = game.with_roll(roll("3,4", game)).with_action1([mark("B7")])
    assert after.closed == frozenset({R})
    assert after.sheets[0].marks(Y) == (2, 7, 8) and after.sheets[0].marks(B) == (12, 7, 6)


def test_scoring_square_octagon_star() -> None:
    """BB4: the lowest row (closed ones included) is doubled; BB5 +13; BB6 penalties 0."""
    square = parse_sheet("bonus-b|r:8,9/y:2,4,5/g:12/b:10/p:1")
    assert square.score == 3 + 6 + 1 + 1 + 1 - 5
    octagon = parse_sheet("bonus-b|r:6/b:12,4/p:2")
    assert octagon.score == 1 + 3 + 13 - 10
    star = parse_sheet("bonus-b|y:3/g:5/p:4")
    assert star.score == 2


def test_a_record_that_writes_a_forced_cross_as_a_voluntary_one_is_refused() -> None:
    start = Sheet.from_marks({R: [2, 4, 8], Y: [3, 5, 11], G: [12], B: [12]}, layout=BONUS_B)
    game = GameState(Ruleset(1), (start,))
    after = game.play_plan(roll("4,5", game), TurnPlan(mark("G9"), None))
    with pytest.raises(IllegalMoveError, match="R7"):
        after.play_plan(roll("5,6", after), TurnPlan(mark("B11"), None))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_are_legal_and_their_sheets_round_trip(seed: int) -> None:
    """Random legal plans (other players crossing too): every state is valid, every sheet
    reads back from its text and JSON, and its score is the BB8 formula recomputed here."""
    for game in played_states(BONUS_B, seed):
        assert GameState.from_json(json.loads(json.dumps(game.to_json()))) == game
        for sheet in game.sheets:
            assert parse_sheet(format_sheet(sheet)) == sheet
            assert sheet_from_json(sheet_to_json(sheet)) == sheet
            rows = [sheet.row_score(c) for c in COLOURS]
            on = {name for name, pair in zip(SYMBOL_NAMES, BONUS_B.symbols, strict=True)
                  if all(sheet.masks[BONUS_B.locks[r].index] >> p & 1 for r, p in pair)}
            assert set(bonus_b.active_symbols(sheet)) == on
            assert sheet.score == (sum(rows) + (min(rows) if "square" in on else 0)
                                   + (13 if "octagon" in on else 0)
                                   - (0 if "star" in on else 5 * sheet.penalties))


# -- 3. records and drawings ----------------------------------------------------------------------

def test_generated_records_validate_and_a_score_without_rewards_is_bb8(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from qwixx_math.cli import main
    from qwixx_math.record import GameRecord, replay

    assert main(["generate", "--layout", "bonus-b", "--games", "3", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    path = tmp_path / "game.json"
    for line in lines:
        assert json.loads(line)["layout"] == "bonus-b"
        path.write_text(line, encoding="utf-8")
        assert main(["validate", str(path)]) == 0
        capsys.readouterr()
    record = json.loads(lines[0])
    finals = replay(GameRecord.from_json(record))[-1].sheets
    record["result"]["scores"] = [s.score - 1 for s in finals]
    for turn in record["turns"]:
        turn.pop("scores", None)
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["validate", str(path), "--json", "--no-dialects"]) == 1
    rules = {v["rule"] for v in json.loads(capsys.readouterr().out)["violations"]}
    assert "BB8" in rules and rules <= {"BB8", "R18"}


def test_the_svg_and_text_drawings_mark_the_symbol_cells() -> None:
    import xml.etree.ElementTree as ET

    from qwixx_math.svg import sheet_svg, sheet_text

    sheet = parse_sheet("bonus-b|r:2,4,8/y:3,5,11/g:12,9/b:12,11,10")
    root = ET.fromstring(sheet_svg(sheet))
    cells = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "cell"]
    found = {(g.get("data-row"), int(g.get("data-number", ""))): g.get("data-symbol")
             for g in cells if g.get("data-symbol")}
    assert found == {(_LETTER[c[0]].value, int(c[1:])): name
                     for name, cells_ in SPEC.items() for c in cells_.split()}
    text = sheet_text(sheet)
    assert "symbols" in text and "circle Y11 G9 active" in text and "star Y3 G5 -" in text


_CELLS = [(r, p) for r in range(4) for p in range(11)]


@settings(max_examples=60, deadline=None)
@given(st.permutations(_CELLS).map(lambda cells: cells[:10]))
def test_any_symbol_placement_round_trips_through_key_and_json(cells: list[tuple[int, int]]
                                                               ) -> None:
    """Ten distinct cells in any order are a pad whose key and JSON read back to it, and
    whose symbol_of names exactly those cells (BB1)."""
    pairs = tuple((cells[i], cells[i + 1]) for i in range(0, 10, 2))
    pad = dataclasses.replace(BONUS_B, name="house", symbols=pairs)
    assert SheetLayout.from_key(pad.key) == pad
    assert SheetLayout.from_json(json.loads(json.dumps(pad.to_json()))) == pad
    named = {(r, p): pad.symbol_of(pad.locks[r], pad.numbers[r][p]) for r, p in _CELLS}
    assert {c for c, name in named.items() if name} == set(cells)
    for name, pair in zip(SYMBOL_NAMES, pairs, strict=True):
        assert all(named[c] == name for c in pair)
