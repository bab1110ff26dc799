"""Qwixx Bonus, pad A (VARIANTS.md §2; issue 34): the boxed cells and the bonus bar as layout
data (§2.1), the bar on the sheet, the forced crosses of the rules core (BA1-BA7), notation,
both worked examples of §2.3, the drawings, and the typed refusals of the solver side."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values, mutated_json

from qwixx_math.errors import ParseError
from qwixx_math.layouts import BONUS_A, LAYOUTS, OFFICIAL, Confidence, SheetLayout
from qwixx_math.model import COLOURS, Colour, Sheet

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


def test_the_solver_side_refuses_the_pad_naming_ba1() -> None:
    from qwixx_math.dice.markov import turns_to_close
    from qwixx_math.keys import table_index
    from qwixx_math.solver.variant import Variant

    with pytest.raises(ParseError, match="BA1") as err:
        Variant(BONUS_A)
    assert err.value.rule == "BA1"
    with pytest.raises(ParseError, match="BA1"):
        turns_to_close(Colour.RED, layout=BONUS_A)
    with pytest.raises(ParseError, match="BA1"):
        table_index(Sheet.empty(BONUS_A), 0, (), ())
