"""Qwixx Double, pad A (issue 34, VARIANTS.md §6): the pad as data, the rules core,
notation and records with second crosses."""

from __future__ import annotations

import pytest

from qwixx_math.errors import ParseError
from qwixx_math.layouts import DOUBLE_A, LAYOUTS, OFFICIAL, Confidence, SheetLayout


def test_the_pad_is_data() -> None:
    assert LAYOUTS["double-a"] is DOUBLE_A and DOUBLE_A.second_crosses
    assert DOUBLE_A.numbers == OFFICIAL.numbers and DOUBLE_A.colours == OFFICIAL.colours
    assert DOUBLE_A.lock_threshold == 7 and DOUBLE_A.score_cap == 16
    assert DOUBLE_A.lock_rule == "DA5" and DOUBLE_A.score_rule == "DA7"
    assert DOUBLE_A.confidence is Confidence.STATED and "§6.1" in DOUBLE_A.source
    assert not DOUBLE_A.has_doubles and OFFICIAL.score_cap is None


def test_second_crosses_take_part_in_equality_hash_json_and_key() -> None:
    plain = SheetLayout("x", DOUBLE_A.numbers, DOUBLE_A.colours, lock_threshold=7)
    assert plain != DOUBLE_A
    same = SheetLayout("y", DOUBLE_A.numbers, DOUBLE_A.colours, lock_threshold=7,
                       second_crosses=True)
    assert same == DOUBLE_A and hash(same) == hash(DOUBLE_A)
    assert same.key.endswith("-d") and not plain.key.endswith("-d")
    assert SheetLayout.from_key(same.key) == DOUBLE_A
    assert SheetLayout.from_key(plain.key) == plain
    assert SheetLayout.from_json(DOUBLE_A.to_json()) is DOUBLE_A
    assert DOUBLE_A.to_json()["second_crosses"] is True
    assert "second_crosses" not in OFFICIAL.to_json()
    house = {**same.to_json(), "name": "house-da"}
    assert SheetLayout.from_json(house) == DOUBLE_A


@pytest.mark.parametrize(("change", "words"), [
    ({"second_crosses": 1}, "second_crosses"),
    ({"second_crosses": "yes"}, "second_crosses"),
    ({"faces": 8, "lock_cells": 2, "lock_threshold": 6,
      "rows": [{"numbers": list(range(2, 17)), "colours": "red"}]}, "DA1"),
])
def test_bad_second_crosses_fields_are_refused(change: dict[str, object], words: str) -> None:
    data = {**DOUBLE_A.to_json(), "name": "house-da", **change}
    with pytest.raises(ParseError, match=words):
        SheetLayout.from_json(data)


def test_second_crosses_on_double_cells_are_refused_with_da1() -> None:
    from qwixx_math.layouts import DOUBLE_B
    with pytest.raises(ParseError, match="DA1"):
        SheetLayout("x", DOUBLE_B.numbers, DOUBLE_B.colours, lock_threshold=7,
                    weights=DOUBLE_B.weights, second_crosses=True)
