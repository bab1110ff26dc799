"""Qwixx Connected, the Chain (issue 34, VARIANTS.md §5): the pad as data (chain pairs in
the layout, its checks, JSON and key forms), the rules CC1-CC9 in the rules core, records,
the validator, drawings and both worked examples of §5.3."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.colours import Colour
from qwixx_math.errors import IllegalMoveError, InvalidStateError, ParseError
from qwixx_math.layouts import CONNECTED_CHAIN, LAYOUTS, OFFICIAL, Confidence, SheetLayout
from qwixx_math.model import Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import parse_roll, parse_sheet
from qwixx_math.rules import (
    GameState,
    legal_action2,
    legal_plans,
    new_game,
    random_roll,
    turn_outcomes,
)
from qwixx_math.ruleset import Ruleset

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


def test_solver_keys_markov_and_policies_refuse_the_chain_naming_cc1() -> None:
    from qwixx_math.dice.markov import turns_to_close
    from qwixx_math.keys import key_space, sheet_key
    from qwixx_math.solver.variant import Variant

    for call in (lambda: Variant(CC), lambda: key_space(CC),
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
