"""Qwixx Bonus, pad A (VARIANTS.md §2; issue 34): the boxed cells and the bonus bar as layout
data (§2.1), the bar on the sheet, the forced crosses of the rules core (BA1-BA7), notation,
both worked examples of §2.3, the drawings, and the typed refusals of the solver side."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values, mutated_json

from qwixx_math import bonus
from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.layouts import BONUS_A, LAYOUTS, OFFICIAL, Confidence, SheetLayout
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import format_sheet, parse_sheet, sheet_from_json, sheet_to_json
from qwixx_math.rules import (
    GameState,
    legal_action1,
    legal_plans,
    new_game,
    random_roll,
)
from qwixx_math.ruleset import Ruleset

R, Y, G, B = COLOURS

#: VARIANTS.md §2.1 word for word: the boxed cells as printed numbers, and the bar.
SPEC_BOXED = "R3 R6 R9 Y5 Y8 Y11 G11 G7 G4 B10 B8 B5"
SPEC_BAR = "red yellow green blue green red blue yellow red yellow blue green"
_LETTER = {"R": R, "Y": Y, "G": G, "B": B}


# -- 1. the pad as data ---------------------------------------------------------------------------

def test_the_pad_is_the_data_of_the_spec() -> None:
    boxed = {(_LETTER[c[0]], int(c[1:])) for c in SPEC_BOXED.split()}
    assert {(c, n) for c in COLOURS for n in range(2, 13) if BONUS_A.is_boxed(c, n)} == boxed
    assert [c.value for c in BONUS_A.bar] == SPEC_BAR.split()
    assert BONUS_A.numbers == OFFICIAL.numbers and BONUS_A.colours == OFFICIAL.colours
    assert BONUS_A.confidence is Confidence.CHECKED and "S2" in BONUS_A.source \
        and "S5" in BONUS_A.source
    assert LAYOUTS["bonus-a"] is BONUS_A and BONUS_A != OFFICIAL


def test_equality_hash_json_and_key() -> None:
    house = dataclasses.replace(BONUS_A, name="house")
    assert house == BONUS_A and hash(house) == hash(BONUS_A)
    other = dataclasses.replace(BONUS_A, name="house", bar=BONUS_A.bar[::-1])
    assert other != BONUS_A
    assert SheetLayout.from_json(json.loads(json.dumps(BONUS_A.to_json()))) is BONUS_A
    data = {**BONUS_A.to_json(), "name": "house"}
    assert SheetLayout.from_json(data) == BONUS_A
    key = other.key
    assert key.endswith("-b010407131619212528323437.gbyrybrgbgyr")
    assert SheetLayout.from_key(key) == other and SheetLayout.from_key(house.key) == BONUS_A


@pytest.mark.parametrize(("change", "field"), [
    ({"boxed": []}, "'boxed' and 'bar'"),
    ({"bar": ["red"] * 11}, "'boxed' and 'bar'"),
    ({"bar": ["red"] * 12 + ["blue"]}, "'boxed' and 'bar'"),
    ({"bar": ["purple"] * 12}, "'bar'"),
    ({"bar": "rygb"}, "'bar'"),
    ({"boxed": [["red", 11]]}, "'boxed'"),
    ({"boxed": [["pink", 1]]}, "'boxed'"),
    ({"boxed": [["red", True]]}, "'boxed'"),
    ({"boxed": "R3"}, "'boxed'"),
])
def test_each_malformed_bonus_field_is_named(change: dict[str, Any], field: str) -> None:
    data = {**BONUS_A.to_json(), "name": "house", **change}
    with pytest.raises(ParseError, match=re.escape(field)) as err:
        SheetLayout.from_json(data)
    assert err.value.rule == "BA1"


def test_a_bonus_cell_twice_and_a_bar_without_its_row() -> None:
    with pytest.raises(ParseError, match=r"BA1: .*boxed twice"):
        dataclasses.replace(BONUS_A, boxed=((0, 1), (0, 1)))
    two = SheetLayout.plain("two", "ad")
    with pytest.raises(ParseError, match=r"BA1: .*locks no row"):
        dataclasses.replace(two, boxed=((0, 1),), bar=(G,) * 12)


@settings(max_examples=100, deadline=None)
@given(json_values() | mutated_json(st.just(BONUS_A.to_json())))
def test_any_json_is_a_bonus_layout_or_a_parse_error(data: object) -> None:
    try:
        layout = SheetLayout.from_json(data)
    except ParseError:
        return
    assert SheetLayout.from_json(layout.to_json()) == layout


def test_the_markov_chain_and_the_policies_look_up_refuse_the_pad_naming_ba1() -> None:
    """(The exact solver plays the pad: tests/test_solver_bonus_a.py.)"""
    from qwixx_math.dice.markov import turns_to_close
    from qwixx_math.keys import table_index

    with pytest.raises(ParseError, match="BA1") as err:
        turns_to_close(Colour.RED, layout=BONUS_A)
    assert err.value.rule == "BA1"
    with pytest.raises(ParseError, match="BA1"):
        table_index(Sheet.empty(BONUS_A), 0, (), ())


# -- 2. the rules core: forced crosses (BA1-BA7), the worked examples of §2.3 --------

def roll(white: str, game: GameState) -> Roll:
    """The roll of whites ``"a,b"``, every coloured die in play showing 1 (unless given)."""
    a, b = (int(x) for x in white.split(","))
    return Roll((a, b), tuple(1 if c in game.dice_in_play else None for c in COLOURS))  # type: ignore[arg-type]


def dice(white: str, game: GameState, **faces: int) -> Roll:
    base = roll(white, game)
    return Roll(base.white, tuple(faces.get(c.value, d) if d is not None else None  # type: ignore[arg-type]
                                  for c, d in zip(COLOURS, base.coloured, strict=True)))


def mark(text: str) -> Mark:
    return Mark(_LETTER[text[0]], int(text[1:]))


def test_worked_example_1_a_four_link_chain_and_a_total_of_50() -> None:
    """§2.3 example 1, played as moves in a solitaire game: R6 (boxed) forces Y5, G11, B12;
    R9 forces G10; Y8 forces R12, which closes red; 36 + 15 + 6 + 3 - 10 = 50."""
    game = new_game(1, layout=BONUS_A)

    def play(white: str, a1: str | None, a2: str | None = None) -> None:
        nonlocal game
        game = game.play_plan(roll(white, game), TurnPlan(a1 and mark(a1), a2 and mark(a2)))

    play("1,2", "R3")  # boxed: field 0 (red) -> forced R4
    assert format_sheet(game.sheets[0]).endswith("r:3,4/y:-/g:-/b:-/p:0/bar:x-----------")
    for white, a1 in (("1,1", "Y2"), ("1,2", "Y3"), ("2,2", "Y4"), ("6,6", "G12")):
        play(white, a1)
    before = game.sheets[0]
    assert before == parse_sheet("bonus-a|r:3,4/y:2,3,4/g:12/p:0/bar:x-----------")
    assert before.bar_next == 1
    plans = legal_plans(game, roll("3,3", game))
    assert TurnPlan(mark("R6"), None) in plans  # a plan names the voluntary cross only
    play("3,3", "R6")
    assert game.sheets[0] == parse_sheet(
        "bonus-a|r:3,4,6/y:2,3,4,5/g:12,11/b:12/p:0/bar:xxxx--------")
    assert game.sheets[0].bar_next == 4
    play("3,4", "R7")
    play("4,5", "R9")  # field 4 (green) -> forced G10
    play("5,6", "R11")
    play("4,4", "Y8")  # field 5 (red) -> forced R12: 6 red crosses before it, red closes
    assert game.closed == frozenset({R}) and game.sheets[0].is_locked(R)
    assert roll("5,6", game).die(R) is None
    play("5,6", "B11")
    play("1,1", None)
    play("1,1", None)
    final = game.sheets[0]
    assert final == parse_sheet(
        "bonus-a|r:3,4,6,7,9,11,12,lock/y:2,3,4,5,8/g:12,11,10/b:12,11/p:2/bar:xxxxxx--v---")
    assert [final.row_score(c) for c in COLOURS] == [36, 15, 6, 3]
    assert final.score == 50


def test_worked_example_2_void_fields_and_a_lapse_total_29() -> None:
    """§2.3 example 2, played as moves by two players: player 1 closes blue in action 1,
    player 0's blue fields 6 and 10 become void when action 1 ends, and player 0's G7 in
    action 2 skips them, takes field 7 (yellow), whose cross Y12 lapses (R8: 4 crosses)."""
    other = Sheet.from_marks({B: [12, 11, 9, 7, 6]}, layout=BONUS_A)  # no boxed cell
    game = GameState(Ruleset(2), (Sheet.empty(BONUS_A), other))
    steps: list[tuple[str, dict[str, int], str | None, str | None, str | None]] = [
        # whites, dice, player 0's action 1, player 1's action 1, the active's action 2
        ("1,2", {}, "R3", None, None),        # turn of 0: R3 -> field 0 -> R4
        ("1,1", {}, "Y2", "R2", None),        # turn of 1
        ("2,3", {}, "Y5", None, None),        # turn of 0: Y5 -> field 1 -> Y6
        ("5,6", {"red": 1}, "Y11", None, "R6"),  # turn of 1: Y11 -> field 2 -> G12
        ("4,4", {}, "B8", None, None),        # turn of 0: B8 -> field 3 -> B7
        ("3,3", {"red": 5}, "R6", None, "R8"),   # turn of 1: R6 -> 4 -> G11 -> 5 -> R7
    ]
    for white, faces, mine, theirs, a2 in steps:
        r = dice(white, game, **faces)
        choices = [mine and mark(mine), theirs and mark(theirs)]
        game = game.play_turn(r, choices, a2 and mark(a2))
    assert game.sheets[0] == parse_sheet(
        "bonus-a|r:3,4,6,7/y:2,5,6,11/g:12,11/b:8,7/p:0/bar:xxxxxx------")
    # player 0's turn: player 1 closes blue with B2 in action 1
    rolled = game.with_roll(dice("1,1", game, green=6))
    after1 = rolled.with_action1([None, mark("B2")])
    assert after1.closed == frozenset({B})
    assert format_sheet(after1.sheets[0]).endswith("/bar:xxxxxxv---v-")
    assert after1.sheets[0].bar_next == 7
    final = after1.with_action2(mark("G7")).sheets[0]
    assert final == parse_sheet(
        "bonus-a|r:3,4,6,7/y:2,5,6,11/g:12,11,7/b:8,7/p:0/bar:xxxxxxvx--v-")
    assert [final.row_score(c) for c in COLOURS] == [10, 10, 6, 3]
    assert final.score == 29


def test_forced_crosses_lapse_on_a_closed_row_and_an_empty_bar_gives_nothing() -> None:
    """BA2: a closed row has no next cell (the field is used up); BA5: no field left."""
    # player 1 closed yellow earlier; player 0 crosses R3: field 0 is red, R4 is forced
    game = GameState(Ruleset(2), (Sheet.empty(BONUS_A), Sheet.empty(BONUS_A)))
    after = game.play_turn(roll("1,2", game), [mark("R3"), None])
    assert after.sheets[0].marks(R) == (3, 4)
    # a full bar: a boxed cross takes nothing and forces nothing
    full = Sheet.unchecked((0, 0, 0, 0), 0, BONUS_A, bar_taken=(1 << 12) - 1)
    sheet, forced, shut = bonus.cross(full, 0, 1, frozenset(), False)
    assert forced == () and shut == frozenset() and sheet.marks(R) == (3,)
    # the target row closed when action 1 began: the field is used, the cross lapses
    sheet, forced, _ = bonus.cross(Sheet.empty(BONUS_A), 0, 1, frozenset({R}), False)
    assert forced == () and sheet.bar_taken == 1


def test_a_forced_cross_that_closes_a_second_row_ends_the_game() -> None:
    """BA4, BA7: Y8 forces R12 (red's sixth cross before it), closing red; with green
    closed already that is the second closed row and the game ends (R14)."""
    me = parse_sheet("bonus-a|r:2,3,4,5,6,7,9,11/y:2,5/g:12,11,10,9,8,2/b:12/p:0/bar:xxxxx------v")
    assert me.bar_next == 5
    game = GameState(Ruleset(1), (me,), closed=frozenset({G}))
    over = game.play_plan(roll("4,4", game), TurnPlan(mark("Y8"), None))
    assert over.is_over and over.ended_by == "R14" and over.closed == frozenset({R, G})
    assert over.sheets[0].marks(R)[-1] == 12 and over.sheets[0].is_locked(R)


def test_sheets_and_states_that_no_game_gives_name_the_ba_rule() -> None:
    with pytest.raises(InvalidStateError, match="BA1"):
        parse_sheet("bonus-a|r:3")  # a boxed cross with no field taken
    with pytest.raises(InvalidStateError, match="BA1"):
        parse_sheet("bonus-a|r:2/bar:-x----------")  # a free field left of a taken one
    with pytest.raises(InvalidStateError, match="BA6"):
        parse_sheet("bonus-a|r:2/bar:---v--------")  # blue 3 void, blue 6 and 10 not
    with pytest.raises(ParseError, match="BA1"):
        parse_sheet("bonus-a|r:2/bar:xx")
    with pytest.raises(ParseError, match="BA1"):
        parse_sheet("r:2/bar:------------")
    # blue closed by someone: every sheet's untaken blue fields are void
    blue = parse_sheet("bonus-a|b:12,11,9,7,6,2,lock")
    with pytest.raises(InvalidStateError, match="BA6"):
        GameState(Ruleset(2), (Sheet.empty(BONUS_A), blue), closed=frozenset({B}))
    void = parse_sheet("bonus-a|p:0/bar:---v--v---v-")
    GameState(Ruleset(2), (void, parse_sheet("bonus-a|b:12,11,9,7,6,2,lock/bar:---v--v---v-")),
              closed=frozenset({B}))


def played_states(layout: SheetLayout, seed: int) -> Iterator[GameState]:
    """Every state after a turn of a seeded 2-player game on ``layout``: random legal plans
    from the upper half of the list, the other player crossing half the time too."""
    rng = random.Random(seed)
    game = new_game(2, layout=layout)
    while not game.is_over:
        r = random_roll(rng, game.dice_in_play)
        rolled = game.with_roll(r)
        others: list[Mark | None] = [None, None]
        other = 1 - game.active
        options = legal_action1(rolled, other)
        if options and rng.random() < 0.5:
            others[other] = rng.choice(options)
        plans = legal_plans(game, r, others)
        game = game.play_plan(r, rng.choice(plans[len(plans) // 2:]), others)
        yield game


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_are_legal_and_their_sheets_round_trip(seed: int) -> None:
    """Random legal plans (other players crossing too) on the pad: every state is valid
    (GameState re-validates its JSON form), every sheet reads back from its text and JSON,
    every cross is voluntary or forced by a boxed cell (taken fields = boxed crosses)."""
    for game in played_states(BONUS_A, seed):
        assert GameState.from_json(json.loads(json.dumps(game.to_json()))) == game
        for sheet in game.sheets:
            assert parse_sheet(format_sheet(sheet)) == sheet
            assert sheet_from_json(sheet_to_json(sheet)) == sheet


# -- 4. drawings ---------------------------------------------------------------------

def test_the_svg_and_text_drawings_show_the_boxed_cells_and_the_bar() -> None:
    import xml.etree.ElementTree as ET

    from qwixx_math.svg import sheet_svg, sheet_text

    sheet = parse_sheet("bonus-a|r:3,4,6,7/y:2,5,6,11/g:12,11,7/b:8,7/bar:xxxxxxvx--v-")
    root = ET.fromstring(sheet_svg(sheet, closed="b"))
    groups = list(root.iter("{http://www.w3.org/2000/svg}g"))
    cells = [g for g in groups if g.get("class") == "cell"]
    boxed = {(g.get("data-row"), int(g.get("data-number", ""))) for g in cells
             if g.get("data-boxed") == "true"}
    assert boxed == {(c.value, n) for c in COLOURS for n in range(2, 13)
                     if BONUS_A.is_boxed(c, n)}
    assert sum(1 for g in cells for e in g if e.get("class") == "boxed") == 12
    fields = [g for g in groups if g.get("class") == "bar-field"]
    assert [g.get("data-colour") for g in fields] == SPEC_BAR.split()
    assert "".join({"taken": "x", "void": "v", "free": "-"}[g.get("data-state", "")]
                   for g in fields) == "xxxxxxvx--v-"
    assert "bonus  Rx Yx Gx Bx Gx Rx Bv Yx R- Y- Bv G-" in sheet_text(sheet)


# -- 3. records: generated games validate; the validator derives the forced crosses --------------

def test_generated_records_validate_and_a_score_without_forced_crosses_is_ba1(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from qwixx_math.cli import main
    from qwixx_math.record import GameRecord, replay

    assert main(["generate", "--layout", "bonus-a", "--games", "3", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    path = tmp_path / "game.json"
    for line in lines:
        record = json.loads(line)
        assert record["layout"] == "bonus-a"
        path.write_text(line, encoding="utf-8")
        assert main(["validate", str(path)]) == 0
        capsys.readouterr()
    # a record whose claimed final scores leave a forced cross out (one point less):
    # the validator derives the forced crosses and names BA1
    record = json.loads(lines[0])
    finals = replay(GameRecord.from_json(record))[-1].sheets
    taken = [s.bar_taken.bit_count() for s in finals]
    assert any(taken)
    record["result"]["scores"] = [s.score - 1 if n else s.score
                                  for s, n in zip(finals, taken, strict=True)]
    for turn in record["turns"]:
        turn.pop("scores", None)
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["validate", str(path), "--json", "--no-dialects"]) == 1
    rules = {v["rule"] for v in json.loads(capsys.readouterr().out)["violations"]}
    assert "BA1" in rules and rules <= {"BA1", "R18"}


def test_a_record_that_writes_a_forced_cross_as_a_voluntary_one_is_refused() -> None:
    """A plan names voluntary crosses only: Y5 after R6 forced it is already crossed (R7)."""
    before = parse_sheet("bonus-a|r:3,4/y:2,3,4/g:12/p:0/bar:x-----------")
    game = GameState(Ruleset(1), (before,))
    after = game.play_plan(roll("3,3", game), TurnPlan(mark("R6"), None))
    with pytest.raises(IllegalMoveError, match="R7"):
        after.play_plan(roll("2,3", after), TurnPlan(mark("Y5"), None))


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="xv- ,/:rygbp0123456789lockbar", max_size=30), st.booleans())
def test_any_bar_text_is_a_sheet_or_one_typed_error(body: str, as_json: bool) -> None:
    """Fuzz the new parser paths: a bonus-a sheet's text or JSON with any bar is a sheet
    that round-trips, or one ParseError / InvalidStateError (never another exception)."""
    try:
        if as_json:
            sheet = sheet_from_json({"layout": "bonus-a", "red": [2], "bar": body})
        else:
            sheet = parse_sheet(f"bonus-a|r:2/bar:{body}")
    except (ParseError, InvalidStateError):
        return
    assert parse_sheet(format_sheet(sheet)) == sheet


@pytest.mark.parametrize(("change", "rule"), [
    ({"second_crosses": True}, "DA1"),
    ({"chain": LAYOUTS["connected-chain"].chain}, "BA1"),
    ({"exchange": LAYOUTS["x-change"].exchange}, "BA1"),
])
def test_the_bar_is_not_combined_with_other_pads_forced_or_extra_crosses(
        change: dict[str, Any], rule: str) -> None:
    """Since the merges: a bonus bar beside second crosses, chain pairs or an X-Change track
    (combinations no branch plays) is refused, not played half right."""
    with pytest.raises(ParseError, match=rule):
        dataclasses.replace(BONUS_A, name="mixed", **change)
