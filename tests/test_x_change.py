"""Qwixx X-Change as layout data (issue 34, VARIANTS.md §9): the nine X-Change fields on
``SheetLayout.exchange``, their JSON form and spelled-out key, the checked pad
:data:`X_CHANGE`, and the typed XC1 refusals of every part that does not offer exchanges
(the row Markov chain; the exact solver's table model).  The exchange as moves is
tests/test_x_change_play.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import mutated_json
from test_layouts_cli import run, write

from qwixx_math.errors import ParseError
from qwixx_math.layouts import (
    LAYOUTS,
    MAX_EXCHANGE_FIELDS,
    OFFICIAL,
    X_CHANGE,
    X_CHANGE_FIELDS,
    Confidence,
    SheetLayout,
    read_layout_file,
)
from qwixx_math.model import Colour, Mark, Sheet
from qwixx_math.notation import parse_mark
from qwixx_math.rules import new_game
from qwixx_math.solver.variant import Variant

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def _copy(exchange: tuple[tuple[int, int], ...], name: str = "house-x") -> SheetLayout:
    """The official rows with the X-Change fields ``exchange`` (not a published name)."""
    return SheetLayout(name, OFFICIAL.numbers, OFFICIAL.colours, exchange=exchange)


# -- the pad -------------------------------------------------------------------------------------

def test_the_pad_has_the_nine_checked_fields_of_variants_md() -> None:
    """§9.1: (8,5), (9,7), (11,3), (7,4), (10,3), (8,6), (10,5), (11,9), (6,4), left to
    right, labelled checked; the colour rows are the official ones (R2)."""
    assert X_CHANGE.exchange == X_CHANGE_FIELDS == (
        (8, 5), (9, 7), (11, 3), (7, 4), (10, 3), (8, 6), (10, 5), (11, 9), (6, 4))
    assert X_CHANGE.confidence is Confidence.CHECKED and "§9.1" in X_CHANGE.source
    assert X_CHANGE.numbers == OFFICIAL.numbers and X_CHANGE.colours == OFFICIAL.colours
    # the track is part of the pad: it differs from the official sheet, hash included
    assert X_CHANGE != OFFICIAL and hash(X_CHANGE) != hash(OFFICIAL)
    assert _copy(X_CHANGE_FIELDS) == X_CHANGE and _copy(X_CHANGE_FIELDS[:8]) != X_CHANGE
    # published now that the rules core plays it (--layout x-change)
    assert LAYOUTS["x-change"] is X_CHANGE and OFFICIAL.exchange == ()


def test_the_track_scores_nothing_worked_examples_of_9_3() -> None:
    """XC6 / §9.3: the final sheets of both worked examples score 83 and -12 on the
    X-Change pad, exactly as on the official sheet (the used fields score nothing)."""
    first = Sheet.from_marks({R: [2, 3, 5, 6, 8, 9], Y: [4, 6, 7, 10, 11, 12],
                              G: [12, 9, 7], B: [10, 8, 6, 5, 3, 2]}, layout=X_CHANGE)
    assert [first.row_score(c) for c in (R, Y, G, B)] == [21, 28, 6, 28]
    assert first.score == 83
    second = Sheet.from_marks({R: [6, 8], Y: [7], G: [12, 5], B: [4]}, penalties=4,
                              layout=X_CHANGE)
    assert second.score == 3 + 1 + 3 + 1 - 20 == -12
    for sheet in (first, second):
        official = Sheet(sheet.masks, sheet.penalties)
        assert sheet.score == official.score


def test_a_sheet_of_the_pad_round_trips_through_its_notation() -> None:
    """The sheet's text names its pad (published: by name; a copy under another name by
    the spelled-out key, the track included) and the fields used (``x:``)."""
    sheet = Sheet.from_marks({R: [3, 5], G: [12]}, 1, layout=X_CHANGE)
    text = str(sheet)
    assert text == "x-change|r:3,5/y:-/g:12/b:-/x:-/p:1"
    back = Sheet.parse(text)
    assert back == sheet and back.layout.exchange == X_CHANGE_FIELDS
    house = Sheet.from_marks({R: [3, 5]}, layout=_copy(X_CHANGE_FIELDS, "mine"),
                             used_fields=(1, 4))
    text = str(house)
    assert "-x8597b374a386a5b964|" in text and text.endswith("/x:1,4/p:0")
    assert Sheet.parse(text) == house


# -- JSON form and key ---------------------------------------------------------------------------

def test_json_form_names_the_fields_and_reads_back() -> None:
    data = json.loads(json.dumps(X_CHANGE.to_json()))
    assert data["exchange"] == [list(f) for f in X_CHANGE_FIELDS]
    assert "exchange" not in OFFICIAL.to_json()
    assert SheetLayout.from_json(data) == X_CHANGE
    assert SheetLayout.from_json({**data, "name": "mine"}).exchange == X_CHANGE_FIELDS


def test_the_spelled_out_key_carries_the_track() -> None:
    key = _copy(X_CHANGE_FIELDS).key
    assert key.endswith("-x8597b374a386a5b964")
    assert SheetLayout.from_key(key) == X_CHANGE
    assert "-x" not in _copy(()).key and SheetLayout.from_key(_copy(()).key) == OFFICIAL


@pytest.mark.parametrize("exchange", [
    ((5, 5),), ((1, 5),), ((8, 13),), ((True, 5),), ((8,),), ((8, 5, 3),),
    ((8, 5),) * (MAX_EXCHANGE_FIELDS + 1), [(8, 5)], ((8.0, 5),),
])
def test_malformed_fields_are_refused_citing_xc1(exchange: Any) -> None:
    with pytest.raises(ParseError) as info:
        _copy(exchange)
    assert info.value.rule == "XC1" and "exchange" in str(info.value)


@pytest.mark.parametrize("value", [
    [[5, 5]], [[8, 13]], [[8]], [[8, 5, 3]], "85", [[8, True]], [[8, 5.0]], [(8, 5)] * 12,
    {"8": 5},
])
def test_malformed_json_fields_name_the_field(value: Any) -> None:
    data = {**X_CHANGE.to_json(), "name": "mine", "exchange": value}
    with pytest.raises(ParseError) as info:
        SheetLayout.from_json(data)
    assert "'exchange'" in str(info.value) and info.value.rule == "XC1"


_FIELDS = st.lists(
    st.tuples(st.integers(2, 12), st.integers(2, 12)).filter(lambda f: f[0] != f[1]),
    max_size=MAX_EXCHANGE_FIELDS).map(tuple)


@settings(max_examples=60, deadline=None)
@given(_FIELDS)
def test_any_track_round_trips_through_json_and_key(exchange: tuple[tuple[int, int], ...]
                                                    ) -> None:
    layout = _copy(exchange)
    assert SheetLayout.from_json(json.loads(json.dumps(layout.to_json()))) == layout
    back = SheetLayout.from_key(layout.key)
    assert back == layout and back.exchange == exchange


@settings(max_examples=80, deadline=None)
@given(mutated_json(st.just({**X_CHANGE.to_json(), "name": "mine"})))
def test_fuzzed_layout_json_with_a_track_raises_only_parse_errors(data: Any) -> None:
    try:
        layout = SheetLayout.from_json(data)
    except ParseError:
        return
    assert SheetLayout.from_json(layout.to_json()) == layout


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="-x0123456789abcdefrygb.tpk", max_size=20))
def test_fuzzed_key_suffixes_raise_only_parse_errors(suffix: str) -> None:
    try:
        layout = SheetLayout.from_key(_copy(()).key + suffix)
    except ParseError:
        return
    assert SheetLayout.from_key(layout.key) == layout


# -- the refusals of the parts that do not play exchanges ----------------------------------------

def test_the_rules_core_plays_the_pad() -> None:
    """The rules core no longer refuses the pad (tests/test_x_change_play.py plays it)."""
    assert new_game(2, layout=X_CHANGE).layout is X_CHANGE


def test_the_exact_solver_takes_the_pad_solitaire_only() -> None:
    """The solver solves the pad (tests/test_solver_x_change.py); its table model, in
    which every player may exchange, refuses it citing XC1."""
    from qwixx_math.solver import solve

    assert Variant(X_CHANGE).field_layers == 10
    with pytest.raises(ParseError) as info:
        solve(layout=X_CHANGE, players=2, cache=False)
    assert info.value.rule == "XC1"


def test_the_row_markov_chain_refuses_the_pad_citing_xc1() -> None:
    from qwixx_math.dice.markov import turns_to_close

    with pytest.raises(ParseError) as info:
        turns_to_close(Colour.RED, layout=X_CHANGE)
    assert info.value.rule == "XC1"


def test_a_layout_file_with_a_track_reads_and_the_table_model_refuses_it_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """(Solitaire solves it: minutes, tests/test_solver_x_change.py on small tracks.)"""
    path = write(tmp_path / "xc.json", {**X_CHANGE.to_json(), "name": "my-xc"})
    assert read_layout_file(path) == X_CHANGE
    code, _, err = run(["solve", "--layout", path, "--players", "2"], capsys)
    assert code == 2 and err.count("\n") == 1 and "XC1" in err


@pytest.mark.parametrize("text", ["ry5@x2", "gb8@x1", "*y10@x2", "r5+@x2", "b6+ @x3"])
def test_an_exchange_names_a_plain_cell_of_a_colour_row(text: str) -> None:
    """A bonus cross, a lucky cross or a second cross is no cell an exchange can cross:
    the notation refuses it instead of reading a plain mark out of it (``ry5@x2`` was
    read as red 5 through field 2)."""
    with pytest.raises(ParseError):
        parse_mark(text)
    assert parse_mark("r5@x2") == Mark(Colour.RED, 5, 2)
