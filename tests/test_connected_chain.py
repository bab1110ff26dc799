"""Qwixx Connected, the Chain (issue 34, VARIANTS.md §5): the pad as data (chain pairs in
the layout, its checks, JSON and key forms), the rules CC1-CC9 in the rules core, records,
the validator, drawings and both worked examples of §5.3."""

from __future__ import annotations

import pytest

from qwixx_math.colours import Colour
from qwixx_math.errors import ParseError
from qwixx_math.layouts import CONNECTED_CHAIN, LAYOUTS, OFFICIAL, Confidence, SheetLayout

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
