"""Every published pad is played whole through the coach's HTTP API (issues 34 and 35).

For each pad of :data:`qwixx_math.LAYOUTS` (and Longo with lucky numbers, and the Options
that add a kind of move) a 2-player game is played to its end through a real server: the
dice come from a seeded generator and are typed as text, every choice is a legal move the
rules core lists (:func:`legal_action1`, :func:`legal_action2`), the pad's own kind of
move preferred when there is one (a Big Points bonus cross ``ry5``, a Double A second
cross ``b6+``, a Longo lucky cross ``*y10``, an X-Change exchange ``r3@x2`` or field
``x2``).  Player 0 taps as the page does (a cell, a bonus cell, the X-Change field);
player 1 sends each mark in its JSON form.  The coach must accept every such tap as the
very mark the core listed, write the turn as the core plays it (Bonus A's and B's forced
crosses and the Chain's partner crosses made by the core itself), and keep a record
that validates and replays to the coach's own final state.

Then Big Points' bonus cells alone: an illegal bonus tap is refused with its BP rule id
and changes nothing, a tap is taken back by a second tap and by undo, and the review
says why it has no values (no table for the pad) instead of failing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from test_coach import Call, caller, start

from qwixx_math.big_points import BonusMark
from qwixx_math.coach import CoachGame
from qwixx_math.coach.server import CoachServer
from qwixx_math.layouts import LAYOUTS
from qwixx_math.model import LuckyMark, Mark
from qwixx_math.notation import format_roll, mark_to_json, sheet_to_json
from qwixx_math.record import replay
from qwixx_math.rules import GameState, Phase, legal_action1, legal_action2, random_roll
from qwixx_math.validation import read_record, validate_record


@pytest.fixture(scope="module")
def server() -> Iterator[CoachServer]:
    srv = start(CoachGame(2, seed=5))
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture()
def call(server: CoachServer) -> Call:
    return caller(server)


def kind(mark: Mark) -> str | None:
    """The pad's own kind of move ``mark`` is, or None for a plain cross."""
    if isinstance(mark, BonusMark):
        return "bonus"
    if isinstance(mark, LuckyMark):
        return "lucky after a cross" if mark.first is not None else "lucky"
    if mark.second:
        return "second"
    if mark.field is not None:
        return "exchange" if mark.crosses else "field alone"
    return None


def choose(rng: random.Random, marks: tuple[Mark, ...]) -> Mark | None:
    """A legal choice: a special move when there is one (three times in four), else any
    mark or none."""
    special = [m for m in marks if kind(m) is not None]
    if special and rng.random() < 0.75:
        return rng.choice(special)
    return rng.choice((None, *marks))


def page_taps(player: int, mark: Mark) -> list[dict[str, Any]]:
    """The taps the page sends for ``mark``: a Big Points bonus cell, an X-Change field
    alone, or the cells (a Longo lucky choice after a cross: that cross, then the lucky
    cell; a second cross and an exchange: the cell itself)."""
    if isinstance(mark, BonusMark):
        return [{"player": player, "bonus_row": str(mark)[:2], "number": mark.number}]
    if not mark.crosses:
        return [{"player": player, "field": mark.field}]
    cells = [mark.first] if isinstance(mark, LuckyMark) and mark.first is not None else []
    cells.append(mark)
    return [{"player": player, "colour": m.colour.value, "number": m.number} for m in cells]


def tap(call: Call, server: CoachServer, player: int, mark: Mark, as_page: bool
        ) -> dict[str, Any]:
    bodies = page_taps(player, mark) if as_page else [{"player": player, **mark_to_json(mark)}]
    if as_page and kind(mark) == "exchange":
        bodies = [{**bodies[0], "field": mark.field}]  # the page picks the leftmost field
    view: dict[str, Any] = {}
    for body in bodies:
        status, view = call("/api/tap", body)
        assert status == 200, (body, view)
    return view


PADS = [(name, {}) for name in LAYOUTS] + [
    ("longo:5,13", {}),
    ("longo:5,13", {"lg_lucky_mode": "additional"}),
    ("x-change", {"xc_field_without_cross": True}),
    ("big-points", {"bp_colour_trigger": "either_adjacent"}),
]
#: The special moves a game on the pad must have played (the seeds below make sure).
EXPECTED = {"double-a": {"second"}, "x-change": {"exchange"}, "big-points": {"bonus"},
            "longo:5,13": {"lucky"}}


@pytest.mark.parametrize("name,options", PADS, ids=[f"{n}{'-' if o else ''}{'-'.join(o)}"
                                                     for n, o in PADS])
def test_a_whole_game_on_every_pad_through_the_api(call: Call, server: CoachServer, name: str,
                                                   options: dict[str, Any]) -> None:
    status, view = call("/api/new", {"players": 2, "layout": name, "ruleset": options,
                                     "names": ["Kari", "Ola"]})
    assert status == 200, view
    rng = random.Random(f"{name}{options}")
    played: set[str] = set()
    while view["phase"] != "over":
        state: GameState = server.game.state
        roll = random_roll(rng, state.dice_in_play, state.layout.faces)
        status, view = call("/api/roll", {"roll": format_roll(roll)})
        assert status == 200, view
        state = server.game.state
        choices: list[Mark | None] = []
        for player in (0, 1):
            mark = choose(rng, legal_action1(state, player))
            choices.append(mark)
            if mark is not None:
                view = tap(call, server, player, mark, as_page=player == 0)
                played.add(kind(mark) or "plain")
        assert server.game.snapshot.pending == tuple(choices)
        assert view["pending"] == [mark_to_json(m) for m in choices]
        expected = state.with_action1(choices)
        status, view = call("/api/done", {})
        assert status == 200, view
        if view["phase"] == "over":
            assert server.game.state == expected
            break
        assert server.game.state == expected
        mark = choose(rng, legal_action2(expected))
        if mark is None:
            status, view = call("/api/skip", {})
            assert status == 200, view
        else:
            view = tap(call, server, expected.active, mark, as_page=expected.active == 0)
            played.add(kind(mark) or "plain")
        assert server.game.state == expected.with_action2(mark)

    assert EXPECTED.get(name, set()) <= played, played
    if options.get("lg_lucky_mode") == "additional":
        assert "lucky after a cross" in played, played
    if options.get("xc_field_without_cross"):
        assert "field alone" in played, played
    final = server.game.state
    assert final.phase is Phase.OVER
    assert view["sheets"] == [sheet_to_json(s) for s in final.sheets]
    status, data = call("/api/record")
    assert status == 200
    record = read_record(data)
    assert validate_record(record).valid
    assert replay(record)[-1] == final
    assert record.result is not None and list(record.result.scores) == view["scores"]


@pytest.fixture()
def big_points(call: Call) -> Call:
    """A Big Points game where Kari has red 2 crossed and Ola nothing, in Kari's action 1
    of the second turn with the white sum 2."""
    status, _ = call("/api/new", {"players": 2, "layout": "big-points",
                                  "names": ["Kari", "Ola"]})
    assert status == 200
    for path, body in [("/api/roll", {"roll": "w:1,1/r:1/y:1/g:1/b:1"}),
                       ("/api/tap", {"player": 0, "colour": "red", "number": 2}),
                       ("/api/done", {}), ("/api/skip", {}),
                       ("/api/roll", {"roll": "w:1,1/r:6/y:6/g:6/b:6"}),
                       ("/api/state", None)]:
        status, view = call(path, body)
        assert status == 200, view
    assert view["phase"] == "action1" and view["active"] == 1
    assert view["sheets"][0]["red"] == [2] and view["sheets"][0]["bonus_rows"] == {
        "ry": [], "gb": []}
    return call


def test_the_bonus_rows_are_drawn_for_the_page(big_points: Call) -> None:
    _, view = big_points("/api/state")
    rows = view["layout"]["bonus_rows"]
    assert [(r["name"], r["after"]) for r in rows] == [("ry", "red"), ("gb", "green")]
    assert rows[0]["numbers"] == list(range(2, 13))
    assert rows[1]["numbers"] == list(range(12, 1, -1))
    _, plain = big_points("/api/new", {"players": 2})
    assert plain["layout"]["bonus_rows"] == []


@pytest.mark.parametrize("body,rule,text", [
    # Ola has no cross beside bonus RY 2 (BP1)
    ({"player": 1, "bonus_row": "ry", "number": 2}, "BP1", "needs red 2 or yellow 2"),
    # the white sum is 2, not 3 (BP2)
    ({"player": 0, "bonus_row": "ry", "number": 3}, "BP2", "white sum 2"),
    # Kari has nothing crossed beside bonus GB 2 (BP1)
    ({"player": 0, "bonus_row": "gb", "number": 2}, "BP1", "needs green 2 or blue 2"),
])
def test_an_illegal_bonus_tap_is_refused_with_its_bp_rule(big_points: Call,
                                                          body: dict[str, Any], rule: str,
                                                          text: str) -> None:
    _, before = big_points("/api/state")
    status, err = big_points("/api/tap", body)
    assert status == 409 and err["rule"] == rule, err
    assert err["error"].startswith(f"{rule}: ") and text in err["error"], err
    assert big_points("/api/state")[1] == before


def test_a_bonus_tap_is_taken_back_undone_and_played(big_points: Call,
                                                     server: CoachServer) -> None:
    tap = {"player": 0, "bonus_row": "ry", "number": 2}
    status, view = big_points("/api/tap", tap)
    assert status == 200 and view["pending"][0] == {"bonus_row": "ry", "number": 2}
    # the plain cell under it is another tap, not this one taken back
    status, err = big_points("/api/tap", {"player": 0, "colour": "red", "number": 2})
    assert status == 409 and err["rule"] == "R7"
    assert big_points("/api/tap", tap)[1]["pending"][0] is None  # tapped again: taken back
    assert big_points("/api/undo", {})[1]["pending"][0] == {"bonus_row": "ry", "number": 2}
    status, view = big_points("/api/done", {})
    assert status == 200 and view["sheets"][0]["bonus_rows"] == {"ry": [2], "gb": []}
    # BP9: the RY cross counts for red (1 + 1 crosses) and for yellow (0 + 1): 3 + 1
    assert view["scores"][0] == server.game.state.scores[0] == 4
    # action 2 is Ola's (the active player): Kari's bonus tap is refused (R6)
    status, err = big_points("/api/tap", {"player": 0, "bonus_row": "ry", "number": 12})
    assert status == 409 and err["rule"] == "R6"
    status, err = big_points("/api/tap", {"player": 1, "bonus_row": "ry", "number": 12})
    assert status == 409 and err["rule"] == "BP1"
    _, view = big_points("/api/skip", {})
    status, data = big_points("/api/record")
    record = read_record(data)
    assert str(record.turns[1].action1[0]) == "ry2" and validate_record(record, partial=True).valid
    status, review = big_points("/api/review")
    assert status == 200 and review["reviews"] == [] and review["rule"] == "BP1"
    assert review["unavailable"].startswith("no review here: BP1: ")
