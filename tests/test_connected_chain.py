"""Qwixx Connected, the Chain (issue 34, VARIANTS.md §5): the pad as data (chain pairs in
the layout, its checks, JSON and key forms), the rules CC1-CC9 in the rules core, records,
the validator, drawings and both worked examples of §5.3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PlayedGame, games

from qwixx_math.cli import main
from qwixx_math.colours import Colour
from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.layouts import CONNECTED_CHAIN, LAYOUTS, OFFICIAL, Confidence, SheetLayout
from qwixx_math.model import Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import (
    format_sheet,
    parse_mark,
    parse_roll,
    parse_sheet,
    sheet_from_json,
    sheet_to_json,
)
from qwixx_math.record import GameRecord, TurnRecord, replay
from qwixx_math.rules import (
    GameState,
    can_mark,
    legal_action2,
    legal_plans,
    new_game,
    random_roll,
    turn_outcomes,
)
from qwixx_math.ruleset import Ruleset
from qwixx_math.svg import sheet_svg, sheet_text
from qwixx_math.validation import validate_record

#: VARIANTS.md §5.1, sheet A, as (colour, number) pairs: R6-Y6, R11-Y11, Y3-G11, Y8-G6,
#: G9-B9, G4-B4.
SHEET_A = {(("red", 6), ("yellow", 6)), (("red", 11), ("yellow", 11)),
           (("yellow", 3), ("green", 11)), (("yellow", 8), ("green", 6)),
           (("green", 9), ("blue", 9)), (("green", 4), ("blue", 4))}


def _chain_layout(chain: object, name: str = "house-chain") -> SheetLayout:
    return SheetLayout(name, OFFICIAL.numbers, OFFICIAL.colours,
                       chain=chain)  # type: ignore[arg-type]


# -- 1. the pad as data ------------------------------------------------------------------------

def test_sheet_a_is_the_transcribed_pairs() -> None:
    la = LAYOUTS["connected-chain"]
    assert la is CONNECTED_CHAIN and la.confidence is Confidence.CHECKED
    assert "S5" in la.source and "unknown" in la.source
    assert la.numbers == OFFICIAL.numbers and la.colours == OFFICIAL.colours
    found = set()
    for pair in la.chain:
        cells = tuple((la.locks[r].value, la.numbers[r][p]) for r, p in pair)
        found.add(cells)
        # each pair lies in one column of two adjacent rows
        (r1, p1), (r2, p2) = pair
        assert p1 == p2 and r2 == r1 + 1
    assert found == SHEET_A
    for (c1, n1), (c2, n2) in SHEET_A:
        assert la.chain_partner(c1, n1) == (Colour.of(c2), n2)
        assert la.chain_partner(c2, n2) == (Colour.of(c1), n1)
    assert la.chain_partner("red", 2) is None and OFFICIAL.chain_partner("red", 6) is None


def test_chain_pairs_take_part_in_equality_hash_and_key() -> None:
    same = _chain_layout(tuple(reversed([(b, a) for a, b in CONNECTED_CHAIN.chain])))
    assert same == CONNECTED_CHAIN and hash(same) == hash(CONNECTED_CHAIN)
    fewer = _chain_layout(CONNECTED_CHAIN.chain[1:])
    assert fewer != CONNECTED_CHAIN and fewer != OFFICIAL
    assert SheetLayout.from_key(same.key) == CONNECTED_CHAIN and "-c0414" in same.key
    key = fewer.key
    assert "-c" in key and SheetLayout.from_key(key) == fewer
    assert SheetLayout.from_key(key).chain == fewer.chain


def test_json_form_round_trips() -> None:
    data = CONNECTED_CHAIN.to_json()
    assert data["chain"][0] == [["red", 4], ["yellow", 4]]
    assert SheetLayout.from_json(data) is CONNECTED_CHAIN
    data = dict(data, name="my-chain-b")
    data["chain"] = [[["red", 1], ["blue", 1]], [["green", 5], ["yellow", 9]]]
    la = SheetLayout.from_json(data)
    assert la.chain_partner("blue", 11) == (Colour.RED, 3)
    assert SheetLayout.from_json(la.to_json()) == la


@pytest.mark.parametrize(("chain", "rule", "words"), [
    ([[["red", 10], ["yellow", 10]]], "CC4", "last number"),
    ([[["red", 3], ["yellow", 10]]], "CC4", "last number"),
    ([[["red", 3], ["yellow", 3]], [["red", 3], ["green", 3]]], "CC6", "two pairs"),
    ([[["red", 3], ["red", 3]]], "CC6", "paired with itself"),
    ([[["red", 3], ["yellow", 11]]], "CC1", "positions 0 to 10"),
    ([[["purple", 3], ["yellow", 1]]], "CC1", "no 'purple' row"),
    ([[["red", 3]]], "CC1", "pairs"),
    ([["red", 3, "yellow", 3]], "CC1", "pairs"),
    ("red", "CC1", "pairs"),
])
def test_malformed_chain_fields_are_named(chain: object, rule: str, words: str) -> None:
    data = dict(OFFICIAL.to_json(), name="bad-chain", chain=chain)
    with pytest.raises(ParseError, match=f"^{rule}: .*{words}") as exc:
        SheetLayout.from_json(data)
    assert exc.value.rule == rule


@pytest.mark.parametrize(("chain", "rule"), [
    ((((0, 10), (1, 10)),), "CC4"),
    ((((0, 4), (1, 4)), ((1, 4), (2, 4))), "CC6"),
    ((((0, 4), (4, 4)),), "CC1"),
    ((((0, 4), (1, -1)),), "CC1"),
    ((((0, 4),),), "CC1"),
    ((((0, True), (1, 1)),), "CC1"),
])
def test_malformed_chain_values_are_refused(chain: object, rule: str) -> None:
    with pytest.raises(ParseError) as exc:
        _chain_layout(chain)
    assert exc.value.rule == rule


def test_key_with_a_broken_chain_part_is_refused() -> None:
    key = _chain_layout(CONNECTED_CHAIN.chain[1:]).key
    with pytest.raises(ParseError, match="CC1: a layout key's chain part"):
        SheetLayout.from_key(key + "04")
    with pytest.raises(ParseError, match="CC4"):
        SheetLayout.from_key(key.split("-c")[0] + "-c0a1a")


# -- 2. the rules core -------------------------------------------------------------------------

CC = CONNECTED_CHAIN


def _sheet(text: str, penalties: int = 0) -> Sheet:
    sheet = parse_sheet(f"connected-chain|{text or 'r:-'}")
    return Sheet(sheet.masks, penalties, CC)


def _game(*sheets: Sheet, closed: frozenset[Colour] = frozenset()) -> GameState:
    return GameState(Ruleset(len(sheets)), tuple(sheets), closed=closed)


def test_cc1_a_chain_cell_crosses_its_partner_in_action_1_for_every_player() -> None:
    game = _game(_sheet(""), _sheet("r:2"))
    rolled = game.with_roll(parse_roll("w:3,3/r:1/y:1/g:1/b:1"))
    after = rolled.with_action1([Mark(Colour.YELLOW, 6), Mark(Colour.RED, 6)])
    assert after.sheets[0] == _sheet("r:6/y:6")
    assert after.sheets[1] == _sheet("r:2,6/y:6")


def test_cc1_in_action_2_and_the_partner_ignores_r7_cc2() -> None:
    # green 12,10,9 (frontier p3, G9 crossed with its partner B9); white + yellow 8 (Y8)
    # forces G6 right of green's frontier, and yellow 3 forces G11 left of it (CC2)
    game = _game(_sheet("g:12,10,9/b:9"))
    rolled = game.with_roll(parse_roll("w:1,2/r:1/y:1/g:1/b:1"))
    after1 = rolled.with_action1([Mark(Colour.YELLOW, 3)])   # white sum 3: Y3 -> G11
    assert after1.sheets[0] == _sheet("y:3/g:12,11,10,9/b:9")
    end = after1.with_action2(None)
    assert end.sheets[0].penalties == 0  # a voluntary cross was made (V6)


def test_cc2_a_partner_cross_lands_in_a_closed_row_and_changes_its_score() -> None:
    # player 1 closed yellow; player 0 has yellow closed too (by player 1's lock);
    # player 0's green 6 forces yellow 8 though yellow is closed (VARIANTS.md §5.3, 2)
    locked = _sheet("y:2,4,5,7,9,10,12")
    mine = _sheet("y:2,4,5,7,9,10,12/g:12,10,8")
    game = _game(mine, locked, closed=frozenset({Colour.YELLOW}))
    rolled = game.with_roll(parse_roll("w:1,2/r:1/g:4/b:1"))
    before = mine.score
    state = rolled.with_action1([None, None]).with_action2(Mark(Colour.GREEN, 6))
    sheet = state.sheets[0]
    assert sheet.marks(Colour.YELLOW) == (2, 4, 5, 7, 8, 9, 10, 12)
    assert sheet.count(Colour.YELLOW) == 9 and sheet.row_score(Colour.YELLOW) == 45
    assert sheet.score - before == (45 - 36) + (10 - 6)
    assert state.closed == frozenset({Colour.YELLOW})


def test_cc3_the_partner_moves_the_frontier_and_the_jumped_cells_are_lost() -> None:
    game = _game(_sheet("r:2,3,4/y:2,3/g:11"))
    rolled = game.with_roll(parse_roll("w:3,3/r:2/y:1/g:1/b:1"))
    after1 = rolled.with_action1([Mark(Colour.YELLOW, 6)])
    assert after1.sheets[0].last_number(Colour.RED) == 6
    # white + red makes 5 and 5: red 5 is now left of the frontier (lost)
    assert Mark(Colour.RED, 5) not in legal_action2(after1)
    with pytest.raises(IllegalMoveError) as exc:
        after1.with_action2(Mark(Colour.RED, 5))
    assert exc.value.rule == "R7"


def test_cc3_option_false_is_refused_naming_cc3() -> None:
    assert Ruleset().cc_partner_moves_frontier is True
    with pytest.raises(ParseError, match=r"^CC3: .*cannot be represented"):
        Ruleset(cc_partner_moves_frontier=False)
    with pytest.raises(ParseError, match=r"^CC3"):
        Ruleset.from_json({"cc_partner_moves_frontier": False})
    assert Ruleset.from_json({"cc_partner_moves_frontier": True}) == Ruleset()
    assert "cc_partner_moves_frontier" not in Ruleset().to_json()


def test_cc4_cc5_a_partner_counts_for_the_lock_but_never_locks() -> None:
    # red 2,3,4,5 + R6 forced by Y6 = 5 crosses: red 12 may close the row (CC5)
    sheet = _sheet("r:2,3,4,5")
    assert not sheet.allows(Colour.RED, 12)
    after = sheet.with_mark(Colour.YELLOW, 6)
    assert after.count(Colour.RED) == 5 and after.allows(Colour.RED, 12)
    assert after.locked == frozenset()  # the partner cross locked nothing (CC4)
    game = _game(sheet)
    state = game.play_plan(parse_roll("w:3,3/r:1/y:1/g:1/b:1"), TurnPlan.parse("y6/-"))
    assert state.closed == frozenset() and state.sheets[0].count(Colour.RED) == 5
    state = state.play_plan(parse_roll("w:6,6/r:1/y:1/g:1/b:1"), TurnPlan.parse("r12/-"))
    assert state.closed == frozenset({Colour.RED})
    assert state.sheets[0].count(Colour.RED) == 7 and state.sheets[0].row_score("red") == 28


def test_cc7_a_sheet_with_half_a_pair_is_refused() -> None:
    with pytest.raises(InvalidStateError) as exc:
        parse_sheet("connected-chain|y:3")
    assert exc.value.rule == "CC7" and "green 11" in str(exc.value)
    with pytest.raises(InvalidStateError, match="CC7"):
        Sheet((0, 1 << 1, 0, 0), 0, CC)


def test_keys_and_markov_refuse_the_chain_naming_cc1() -> None:
    """(The exact solver plays the chain: tests/test_solver_chain.py.)"""
    from qwixx_math.dice.markov import turns_to_close
    from qwixx_math.keys import key_space, sheet_key

    for call in (lambda: key_space(CC),
                 lambda: sheet_key(Sheet.empty(CC)),
                 lambda: turns_to_close(Colour.RED, layout=CC)):
        with pytest.raises(ParseError) as exc:
            call()
        assert exc.value.rule == "CC1" and "chain pairs" in str(exc.value)


def _naive_plans(state: GameState, roll: Roll) -> set[TurnPlan]:
    """Every plan that the rules core plays without refusal: passing or any mark of the
    white sum, then passing or any mark of the sheet's numbers (the slow obvious way)."""
    layout = state.layout
    marks = [Mark(c, n) for c in layout.locks for n in layout.numbers[layout.row_index(c)]]
    out = set()
    for a1 in (None, *[m for m in marks if m.number == roll.white_sum]):
        for a2 in (None, *marks):
            try:
                state.play_plan(roll, TurnPlan(a1, a2))
            except IllegalMoveError:
                continue
            out.add(TurnPlan(a1, a2))
    return out


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_legal_plans_are_the_plans_the_core_accepts(rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    state = new_game(2, layout=CC)
    for _ in range(rng.randrange(0, 25)):  # a random position of a random legal game
        roll = random_roll(rng, state.dice_in_play)
        outcomes = list(turn_outcomes(state, roll))
        state = rng.choice(outcomes)
        if state.is_over:
            return
    roll = random_roll(rng, state.dice_in_play)
    plans = legal_plans(state, roll)
    assert set(plans) == _naive_plans(state, roll)
    for after in turn_outcomes(state, roll):
        for sheet in after.sheets:  # every sheet a turn leaves keeps its pairs whole (CC7)
            Sheet(sheet.masks, sheet.penalties, CC)


# -- 3. notation, records, validator -----------------------------------------------------------

def _partners_whole(sheet: Sheet) -> bool:
    return all(len({bool(sheet.masks[CC.locks[r].index] >> p & 1) for r, p in pair}) == 1
               for pair in CC.chain)


@settings(max_examples=12, deadline=None)
@given(games(layout=st.just(CC)))
def test_random_games_keep_pairs_whole_and_round_trip(game: PlayedGame) -> None:
    """Every state of a random game keeps each pair whole (CC7); every sheet reads back
    from its text and JSON; the record reads back from JSON, replays and validates."""
    for state in game.states:
        for sheet in state.sheets:
            assert _partners_whole(sheet)
            assert parse_sheet(format_sheet(sheet)) == sheet
            assert sheet_from_json(json.loads(json.dumps(sheet_to_json(sheet)))) == sheet
        assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
    back = GameRecord.from_json(json.loads(json.dumps(game.record.to_json())))
    assert back == game.record and replay(back)[-1] == game.final
    assert validate_record(back).valid


def _solitaire(moves: list[tuple[str, str, str]], scores: list[int] | None = None
               ) -> GameRecord:
    """A one-player Connected Chain record: each turn a roll, an action-1 and an action-2
    mark (``-`` none)."""
    turns = []
    for k, (roll, a1, a2) in enumerate(moves):
        turns.append(TurnRecord(0, parse_roll(roll),
                                (None if a1 == "-" else parse_mark(a1),),
                                None if a2 == "-" else parse_mark(a2),
                                None if scores is None else (scores[k],), None))
    return GameRecord(("P1",), Ruleset(1), tuple(turns), layout=CC)


_ALL = "/r:1/y:1/g:1/b:1"


def test_the_validator_names_cc1_for_a_score_without_the_partner() -> None:
    """Yellow 3 forces green 11: 1 + 1 = 2 points, not 1 (CC1); yellow 6 then forces red 6."""
    moves = [("w:1,2" + _ALL, "y3", "-"), ("w:3,3" + _ALL, "y6", "-")]
    assert validate_record(_solitaire(moves, [2, 5]), partial=True, dialects=False).valid
    report = validate_record(_solitaire(moves, [1, 3]), partial=True, dialects=False)
    assert [(v.turn, v.rule) for v in report.violations] == [(1, "CC1"), (2, "CC1")]
    assert "of the chain pair yellow 3 / green 11" in report.violations[0].message


def test_the_validator_names_cc2_for_a_partner_left_out_of_a_closed_row() -> None:
    """Yellow closed with 2,4,5,7,9,10,12 (8 crosses, 36); green 6 forces yellow 8 into
    the closed row: 45 + 1 (VARIANTS.md §5.3, example 2)."""
    moves = [(f"w:{a},{b}" + _ALL, m, "-") for a, b, m in (
        (1, 1, "y2"), (2, 2, "y4"), (2, 3, "y5"), (3, 4, "y7"), (4, 5, "y9"), (5, 5, "y10"),
        (6, 6, "y12"))]
    moves.append(("w:3,3/r:1/g:1/b:1", "g6", "-"))
    scores = [1, 3, 6, 10, 15, 21, 36, 46]
    assert validate_record(_solitaire(moves, scores), partial=True, dialects=False).valid
    report = validate_record(_solitaire(moves, [*scores[:-1], 37]), partial=True,
                             dialects=False)
    assert [(v.turn, v.rule) for v in report.violations] == [(8, "CC2")]
    assert "yellow 8" in report.violations[0].message


def test_the_validator_names_cc3_for_a_cell_the_partner_jumped() -> None:
    """Red 2, 3, 4; yellow 6 forces red 6 (CC3: red 5 is lost); red 5 then is refused
    citing CC3, with the pair named."""
    moves = [("w:1,1" + _ALL, "r2", "-"), ("w:1,2" + _ALL, "r3", "-"),
             ("w:2,2" + _ALL, "r4", "-"), ("w:3,3" + _ALL, "y6", "-"),
             ("w:2,3" + _ALL, "r5", "-")]
    report = validate_record(_solitaire(moves), partial=True, dialects=False)
    assert [(v.turn, v.rule) for v in report.violations] == [(5, "CC3")]
    assert "chain partner of yellow 6" in report.violations[0].message
    # in one turn: yellow 6 in action 1, then white + red 5 in action 2
    one_turn = [*moves[:3], ("w:3,3/r:2/y:1/g:1/b:1", "y6", "r5")]
    report = validate_record(_solitaire(one_turn), partial=True, dialects=False)
    assert [(v.turn, v.step.value, v.rule) for v in report.violations] == [
        (4, "action2", "CC3")]
    # crossing red 6 itself, voluntarily, leaves red 5 behind under plain R7
    moves[3] = ("w:3,3" + _ALL, "r6", "-")
    report = validate_record(_solitaire(moves), partial=True, dialects=False)
    assert [(v.turn, v.rule) for v in report.violations] == [(5, "R7")]


def test_generate_writes_chain_games_that_validate(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["generate", "--layout", "connected-chain", "--games", "3", "--seed", "4"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and len(lines) == 3
    for k, line in enumerate(lines):
        record = json.loads(line)
        assert record["layout"] == "connected-chain"
        final = replay(GameRecord.from_json(record))[-1]
        assert final.scores == tuple(record["result"]["scores"])
        assert all(_partners_whole(s) for s in final.sheets)
        path = tmp_path / f"game{k}.json"
        path.write_text(line, encoding="utf-8")
        assert main(["validate", str(path)]) == 0
    capsys.readouterr()


def test_the_corpus_has_legal_and_illegal_chain_cases() -> None:
    from qwixx_math.validation.corpus_cases import HAND_CHAIN_LEGALITY, HAND_CHAIN_TRANSITIONS

    for rule in ("CC1", "CC2", "CC3", "CC5"):
        cases = [c for c in HAND_CHAIN_LEGALITY if rule in c.rules]
        assert any(c.expect == "legal" for c in cases) or any(
            rule in t.rules for t in HAND_CHAIN_TRANSITIONS), rule
        assert any(c.expect != "legal" for c in cases), rule
    for rule in ("CC1", "CC2", "CC3", "CC4", "CC7"):
        assert any(rule in t.rules for t in HAND_CHAIN_TRANSITIONS), rule


_CELLS = [(r, p) for r in range(4) for p in range(10)]


@st.composite
def chain_pairs(draw: st.DrawFn) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    cells = draw(st.lists(st.sampled_from(_CELLS), min_size=2, max_size=16, unique=True))
    cells = cells[:len(cells) // 2 * 2]
    return tuple((cells[i], cells[i + 1]) for i in range(0, len(cells), 2))


@settings(max_examples=60, deadline=None)
@given(chain_pairs(), st.data())
def test_any_chain_round_trips_through_json_key_and_sheets(
        pairs: tuple[tuple[tuple[int, int], tuple[int, int]], ...], data: st.DataObject) -> None:
    layout = _chain_layout(pairs)
    assert SheetLayout.from_json(json.loads(json.dumps(layout.to_json()))) == layout
    assert SheetLayout.from_key(layout.key) == layout
    # crossing any cells with their partners gives a sheet that reads back
    sheet = Sheet.empty(layout)
    for row, p in data.draw(st.lists(st.sampled_from(_CELLS), max_size=8)):
        sheet = sheet.marked(layout.locks[row].index, p)
    checked = Sheet(sheet.masks, 0, layout)  # no half pair (CC7)
    assert parse_sheet(format_sheet(checked)) == checked
    assert sheet_from_json(json.loads(json.dumps(sheet_to_json(checked)))) == checked


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=4), max_leaves=12))
def test_fuzzed_chain_fields_raise_parse_errors_only(chain: object) -> None:
    data = dict(OFFICIAL.to_json(), name="fuzz-chain", chain=chain)
    try:
        layout = SheetLayout.from_json(data)
    except ParseError:
        return
    assert SheetLayout.from_json(layout.to_json()) == layout


# -- 4. worked examples and drawings -----------------------------------------------------------

def _play_solitaire(turns: list[tuple[str, str, str]]) -> GameState:
    """A one-player game on sheet A through the public API: each turn a roll and a plan."""
    state = new_game(1, layout="connected-chain")
    for roll, a1, a2 in turns:
        state = state.play_plan(parse_roll(roll), TurnPlan.parse(f"{a1}/{a2}"))
    return state


def test_worked_example_1_frontier_jump_scores_59() -> None:
    """VARIANTS.md §5.3 example 1, played turn by turn: yellow 6 forces red 6 past red 5."""
    a = "/r:1/y:1/g:1/b:1"
    start = _play_solitaire([("w:1,1" + a, "r2", "-"), ("w:1,2" + a, "r3", "-"),
                             ("w:2,2" + a, "r4", "-"), ("w:1,1" + a, "y2", "-"),
                             ("w:1,2" + a, "y3", "-")])   # y3 forces g11
    assert start.sheets[0].marks(Colour.GREEN) == (11,)
    jumped = start.play_plan(parse_roll("w:3,3" + a), TurnPlan.parse("y6/-"))
    assert jumped.sheets[0].marks(Colour.RED) == (2, 3, 4, 6)
    assert not can_mark(jumped, 0, "red", 5)  # lost (CC3)
    rest = [("w:3,4" + a, "y7", "-"), ("w:4,5" + a, "g9", "-"),   # g9 forces b9
            ("w:4,4" + a, "y8", "-"),                            # y8 forces g6
            ("w:2,2" + a, "g4", "-"),                            # g4 forces b4
            ("w:5,6" + a, "y11", "-"),                           # y11 forces r11
            ("w:6,6" + a, "y12", "-"),                           # yellow closed
            ("w:1,1/r:1/g:1/b:1", "-", "-")]                     # one penalty
    state = jumped
    for roll, a1, a2 in rest:
        state = state.play_plan(parse_roll(roll), TurnPlan.parse(f"{a1}/{a2}"))
    sheet = state.sheets[0]
    assert sheet == parse_sheet("connected-chain|r:2,3,4,6,11/y:2,3,6,7,8,11,12,lock/"
                                "g:11,9,6,4/b:9,4/p:1")
    assert [sheet.row_score(c) for c in CC.locks] == [15, 36, 10, 3]
    assert sheet.score == 15 + 36 + 10 + 3 - 5 == 59
    assert _partners_whole(sheet)


def test_worked_example_2_into_a_closed_row_scores_73() -> None:
    """VARIANTS.md §5.3 example 2: yellow closed with 8 crosses; green 6 later forces
    yellow 8 into it: 9 crosses, 45 points."""
    a, no_y = "/r:1/y:1/g:1/b:1", "/r:1/g:1/b:1"
    state = _play_solitaire(
        [(f"w:{x},{y}" + a, m, "-") for x, y, m in (
            (1, 1, "y2"), (2, 2, "y4"), (2, 3, "y5"), (3, 4, "y7"), (4, 5, "y9"),
            (5, 5, "y10"), (6, 6, "y12"))]
        + [(f"w:{x},{y}" + no_y, m, "-") for x, y, m in (
            (1, 1, "r2"), (1, 2, "r3"), (2, 2, "r4"), (2, 3, "r5"), (3, 4, "r7"),
            (6, 6, "g12"), (5, 5, "g10"), (6, 6, "b12"), (5, 6, "b11"), (4, 4, "g8"))])
    assert state.closed == frozenset({Colour.YELLOW}) and state.sheets[0].score == 60
    state = state.play_plan(parse_roll("w:3,3" + no_y), TurnPlan.parse("g6/-"))
    sheet = state.sheets[0]
    assert sheet.marks(Colour.YELLOW) == (2, 4, 5, 7, 8, 9, 10, 12)
    assert [sheet.row_score(c) for c in CC.locks] == [15, 45, 10, 3]
    assert sheet.score == 73 and state.closed == frozenset({Colour.YELLOW})


def test_svg_circles_the_chain_cells_and_links_the_pairs() -> None:
    import xml.etree.ElementTree as ET

    sheet = parse_sheet("connected-chain|r:2,6/y:6/p:1")
    root = ET.fromstring(sheet_svg(sheet))
    ns = {"s": "http://www.w3.org/2000/svg"}
    cells = root.findall(".//s:g[@class='cell']", ns)
    partners = {(c.get("data-row"), int(c.get("data-number", ""))): c.get("data-partner")
                for c in cells if c.get("data-partner")}
    expected = {}
    for (c1, n1), (c2, n2) in SHEET_A:
        expected[(c1, n1)], expected[(c2, n2)] = f"{c2} {n2}", f"{c1} {n1}"
    assert partners == expected
    for cell in cells:
        circled = cell.findall("s:circle[@class='chain-cell']", ns)
        assert len(circled) == (cell.get("data-partner") is not None)
    lines = root.findall(".//s:line[@class='chain']", ns)
    found = {}
    for line in lines:
        first, second = (tuple(x.rsplit(" ", 1)) for x in line.get("data-cells", "").split("/"))
        found[(first[0], int(first[1])), (second[0], int(second[1]))] = line.get("data-crossed")
        # each pair of sheet A is one column of two adjacent rows: a short vertical line
        assert line.get("x1") == line.get("x2")
        assert 0 < float(line.get("y2", "")) - float(line.get("y1", "")) < 40
    assert set(found) == SHEET_A
    assert {k for k, v in found.items() if v == "true"} == {(("red", 6), ("yellow", 6))}
    assert "chain  [R6-Y6] R11-Y11" in sheet_text(sheet)
    assert "chain-cell" not in sheet_svg(parse_sheet("r:2"))


@pytest.mark.slow
def test_turn_events_on_a_chain_sheet_equal_the_brute_force_count() -> None:
    """The turn-event calculator asks the rules core after each action-1 choice, so a
    partner cross that moves a frontier (yellow 6 -> red 6) shapes action 2's chances;
    the fast sums equal the count over every roll."""
    from qwixx_math.dice import brute_force_events, turn_events

    # blue closed, so five dice roll (7,776 outcomes for the brute force)
    sheet = parse_sheet("connected-chain|r:2,3,4/y:2,3/g:11,9/b:12,11,10,9,8,2,lock")
    assert turn_events(sheet) == brute_force_events(sheet)


def test_the_table_model_refuses_the_chain_with_exit_2(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """(Solitaire solves it: tests/test_solver_chain.py.)"""
    for argv in (["solve", "--layout", "connected-chain", "--players", "2"],):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "CC1" in err[0] and "chain pairs" in err[0]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="rygb:0123456789,/-lockp ", max_size=40))
def test_fuzzed_chain_sheet_text_raises_typed_errors_only(text: str) -> None:
    """Sheet text on sheet A: a sheet, or a ParseError / InvalidStateError (CC7 for half a
    pair), never another exception; a sheet read back is whole (CC7) and round-trips."""
    from qwixx_math.errors import QwixxError

    try:
        sheet = parse_sheet(f"connected-chain|{text}")
    except QwixxError:
        return
    assert _partners_whole(sheet) and parse_sheet(format_sheet(sheet)) == sheet
