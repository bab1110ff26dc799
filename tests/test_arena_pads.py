"""Every published pad over the ``exec:`` protocol (issue 34, "Play"): the layout message
announces each pad's extra crosses (Double A's second-cross boxes, Bonus A's boxed cells and
bar, Bonus B's symbols, the Steps' step cells, the Chain's pairs, X-Change's track and XC4),
the states carry them (second crosses, the bar, the fields used, forced crosses and chain
partners), a bot's second cross or exchange is read and refereed (a fault naming DA1/DA3/DA4
or XC1/XC2 when illegal), a malformed one is ``protocol:malformed`` naming the rule, and the
example bot plays every pad legally (exchanges included): every game of a short match per pad
is replayed through the validator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_arena_external import bot_script, exec_name
from test_arena_layouts import _load_bot
from test_arena_longo import _validated

from qwixx_math.arena import open_players, play_match
from qwixx_math.arena.external import layout_to_json, parse_reply
from qwixx_math.arena.faults import MALFORMED, PlayerFault
from qwixx_math.colours import Colour
from qwixx_math.layouts import (
    BIG_POINTS,
    BONUS_A,
    BONUS_B,
    CONNECTED_CHAIN,
    CONNECTED_STEPS,
    DOUBLE_A,
    LAYOUTS,
    LONGO,
    OFFICIAL,
    X_CHANGE,
    SheetLayout,
)
from qwixx_math.model import LuckyMark, Mark, Sheet
from qwixx_math.notation import format_mark, mark_to_json, parse_roll
from qwixx_math.rules import GameState, legal_action1
from qwixx_math.ruleset import CircleCandidates, Ruleset

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "arena_bot.py"
#: Every published pad (qwixx_math.LAYOUTS), and Longo with lucky numbers.
PADS = {**LAYOUTS, "longo:5,13": LONGO.with_lucky((5, 13))}


@pytest.mark.parametrize("name", list(PADS))
def test_example_bot_plays_every_pad_legally_over_exec(name: str) -> None:
    """The example bot against greedy, two games (one deal, both seats) on each pad: no
    fault, and every game's record replays clean through the validator with the match's
    scores (forced crosses and second crosses included)."""
    _validated(["greedy", exec_name(BOT)], PADS[name], Ruleset(2), games=2, seed=7)


def _marks(log: object) -> list[Mark]:
    out: list[Mark] = []
    for record in log.records:  # type: ignore[attr-defined]
        for turn in record.turns:
            out += [m for m in (*turn.action1, turn.action2) if m is not None]
    return out


def test_example_bot_takes_second_crosses_on_double_a() -> None:
    """Two copies of the example bot (so every mark is the bot's): second crosses are
    played, refereed and validated (DA1-DA7), under both values of da_same_turn (DA4)."""
    names = [exec_name(BOT), exec_name(BOT)]
    for ruleset in (Ruleset(2), Ruleset(2, da_same_turn=False)):
        log = _validated(names, DOUBLE_A, ruleset, games=4, seed=3)
        assert any(m.second for m in _marks(log))  # the premise: the bot doubled


@pytest.mark.parametrize("layout", [BONUS_A, BONUS_B], ids=["bonus-a", "bonus-b"])
def test_example_bot_crosses_trigger_cells_on_bonus_pads(layout: SheetLayout) -> None:
    """Two copies of the example bot on Bonus A and B: the boxed or symbol cells it
    crosses set off forced crosses the validator re-derives."""
    names = [exec_name(BOT), exec_name(BOT)]
    log = _validated(names, layout, Ruleset(2), games=2, seed=4)
    cells = [c for c in (*layout.boxed, *(x for s in layout.symbols for x in s))]
    triggers = {(layout.locks[r], layout.numbers[r][p]) for r, p in cells}
    assert any((m.colour, m.number) in triggers for m in _marks(log))


@pytest.mark.parametrize("alone", [False, True], ids=["default", "field_without_cross"])
def test_example_bot_exchanges_on_x_change(alone: bool) -> None:
    """Two copies of the example bot on X-Change, under both values of
    xc_field_without_cross (XC4): exchanges (r3@x2) are played, refereed and validated
    (XC1, XC2: the fields used in the records' sheets, left to right)."""
    names = [exec_name(BOT), exec_name(BOT)]
    log = _validated(names, X_CHANGE, Ruleset(2, xc_field_without_cross=alone), games=4,
                     seed=5)
    exchanges = [m for m in _marks(log) if m.field is not None]
    assert any(m.crosses for m in exchanges)  # the premise: the bot exchanged
    if not alone:
        assert all(m.crosses for m in exchanges)


def test_example_bot_spends_a_field_alone_rather_than_a_penalty() -> None:
    """Under xc_field_without_cross (XC4) the active bot with no mark in either action
    spends the first field whose pair holds the white sum ("x0"), sparing a penalty (V6);
    under the default it passes."""
    bot = _load_bot()
    sheet = Sheet.from_marks({Colour.RED: [11], Colour.YELLOW: [11], Colour.GREEN: [3],
                              Colour.BLUE: [3]}, layout=X_CHANGE)  # only lock numbers left
    for alone, reply in ((True, "x0"), (False, None)):
        state = GameState(Ruleset(2, xc_field_without_cross=alone),
                          (sheet, Sheet.empty(X_CHANGE))).with_roll(
            parse_roll("w:4,4/r:1/y:1/g:1/b:1"))
        data = json.loads(json.dumps(state.to_json()))
        layout = layout_to_json(X_CHANGE, state.ruleset)
        choice = bot.choose("action1", 0, data, layout)  # type: ignore[attr-defined]
        assert choice == reply
        assert choice in [None, *map(format_mark, legal_action1(state, 0))]


@pytest.mark.parametrize("layout", [CONNECTED_CHAIN, CONNECTED_STEPS],
                         ids=["connected-chain", "connected-steps"])
def test_example_bot_crosses_chain_and_step_cells(layout: SheetLayout) -> None:
    """Two copies of the example bot on the Chain and the Steps: the chain cells it crosses
    bring their partners (CC1-CC3, re-derived by the validator), the step cells it crosses
    score the fifth group (CS2, in the validated scores)."""
    names = [exec_name(BOT), exec_name(BOT)]
    log = _validated(names, layout, Ruleset(2), games=4, seed=6)
    cells = layout.steps or tuple(c for pair in layout.chain for c in pair)
    special = {(layout.locks[r], layout.numbers[r][p]) for r, p in cells}
    assert any((m.colour, m.number) in special for m in _marks(log))


def test_example_bot_plays_bonus_b_under_open_rows() -> None:
    """Bonus B under bb_fewest_candidates=open_rows (BB2), refereed without a fault (a
    record does not carry Bonus B's Options yet, so no replay here)."""
    names = ["greedy", exec_name(BOT)]
    ruleset = Ruleset(2, bb_fewest_candidates=CircleCandidates.OPEN_ROWS)
    with open_players(names, ruleset, 4, layout=BONUS_B) as players:
        result = play_match(players, 4, 4, ruleset, names=names, layout=BONUS_B)
    assert result.faults == ()


# -- the layout message --------------------------------------------------------------------

def _cells(layout: SheetLayout, pairs: list[list[object]]) -> tuple[tuple[int, int], ...]:
    """``[lock colour, number]`` pairs back to ``(row index, position)``."""
    out = []
    for lock, number in pairs:
        row = layout.locks.index(Colour.parse(str(lock)))
        out.append((row, layout.numbers[row].index(int(str(number)))))
    return tuple(out)


def test_layout_message_announces_the_extra_crosses() -> None:
    """Each pad's fields name exactly the layout's cells (rebuilt from the JSON), with the
    Options of the ruleset; no new field on the other pads."""
    data = json.loads(json.dumps(layout_to_json(DOUBLE_A, Ruleset(2, da_same_turn=False))))
    assert data["second_crosses"] is True and data["da_same_turn"] is False
    for row in data["rows"]:
        assert row["second_boxes"] == [p < len(row["numbers"]) - 1
                                       for p in range(len(row["numbers"]))]
    data = json.loads(json.dumps(layout_to_json(BONUS_A, Ruleset(2))))
    assert _cells(BONUS_A, data["boxed"]) == BONUS_A.boxed
    assert tuple(Colour.parse(c) for c in data["bar"]) == BONUS_A.bar
    assert {"second_crosses", "symbols"}.isdisjoint(data)
    data = json.loads(json.dumps(layout_to_json(
        BONUS_B, Ruleset(2, bb_fewest_candidates=CircleCandidates.OPEN_ROWS))))
    assert list(data["symbols"]) == ["circle", "diamond", "square", "octagon", "star"]
    assert tuple(_cells(BONUS_B, cells) for cells in data["symbols"].values()) == BONUS_B.symbols
    assert data["fewest_candidates"] == "open_rows" and data["diamond_order"] == "colour_order"
    assert {"boxed", "bar", "second_crosses"}.isdisjoint(data)
    assert "fewest_candidates" not in layout_to_json(BONUS_B)  # no ruleset, no Options
    new = {"second_crosses", "da_same_turn", "boxed", "bar", "symbols", "fewest_candidates",
           "diamond_order", "steps", "chain", "exchange", "xc_field_without_cross"}
    for name, layout in PADS.items():
        if layout not in (DOUBLE_A, BONUS_A, BONUS_B, X_CHANGE, CONNECTED_CHAIN) \
                and not layout.steps:
            pad = layout_to_json(layout, Ruleset(2))
            assert new.isdisjoint(pad), name
            assert all(set(r) == {"lock", "numbers", "colours", "weights"} for r in pad["rows"])


@pytest.mark.parametrize("name", [n for n, la in LAYOUTS.items() if la.steps])
def test_layout_message_announces_the_steps(name: str) -> None:
    """Every staircase (connected-steps, -2 to -5, -s21): ``steps`` names exactly the
    layout's step cells, and nothing of the other pads."""
    layout = LAYOUTS[name]
    data = json.loads(json.dumps(layout_to_json(layout, Ruleset(2))))
    assert len(data["steps"]) == 11 and _cells(layout, data["steps"]) == layout.steps
    assert {"chain", "exchange", "boxed", "symbols", "second_crosses"}.isdisjoint(data)


def test_layout_message_announces_the_chain_and_the_exchange_track() -> None:
    """The Chain's pairs and the X-Change track, rebuilt from the JSON, are the layout's;
    the Option XC4 comes with a ruleset only."""
    data = json.loads(json.dumps(layout_to_json(CONNECTED_CHAIN, Ruleset(2))))
    assert tuple(_cells(CONNECTED_CHAIN, pair) for pair in data["chain"]) \
        == CONNECTED_CHAIN.chain
    assert {"steps", "exchange", "xc_field_without_cross"}.isdisjoint(data)
    for alone in (False, True):
        data = json.loads(json.dumps(layout_to_json(
            X_CHANGE, Ruleset(2, xc_field_without_cross=alone))))
        assert tuple(tuple(pair) for pair in data["exchange"]) == X_CHANGE.exchange
        assert data["xc_field_without_cross"] is alone
        assert {"steps", "chain"}.isdisjoint(data)
    assert "xc_field_without_cross" not in layout_to_json(X_CHANGE)


def _logger(tmp_path: Path) -> tuple[str, Path]:
    """An exec: bot that passes and logs every message it is sent."""
    log = tmp_path / "log.jsonl"
    script = tmp_path / "logger.py"
    script.write_text(
        "import sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    if '\"type\": \"action' in line[:20]:\n"
        "        print('{\"mark\": null}', flush=True)\n", encoding="utf-8")
    return exec_name(script), log


@pytest.mark.parametrize("layout", [DOUBLE_A, BONUS_A, BONUS_B, X_CHANGE, CONNECTED_CHAIN],
                         ids=["double-a", "bonus-a", "bonus-b", "x-change", "connected-chain"])
def test_states_sent_carry_the_crosses_made(layout: SheetLayout, tmp_path: Path) -> None:
    """The messages a bot is sent: the new_game layout with the pad's fields, and states
    whose sheets show the other seat's second crosses (Double A), every sheet's bar (Bonus
    A), the X-Change fields used and the forced crosses (chain partners included), exactly
    as the referee's state (its JSON)."""
    name, log = _logger(tmp_path)
    names = ["greedy", name]
    with open_players(names, Ruleset(2), 1, layout=layout) as players:
        result = play_match(players, 2, 1, names=names, layout=layout)
    assert result.faults == ()
    messages = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    layouts = [m["layout"] for m in messages if m["type"] == "new_game"]
    assert layouts == [layout_to_json(layout, Ruleset(2))] * 2
    overs = [m["state"] for m in messages if m["type"] == "game_over"]
    assert overs == [json.loads(json.dumps(g.final.to_json())) for g in result.games]
    sheets = [s for m in messages for s in m["state"]["sheets"]]
    if layout is DOUBLE_A:  # greedy doubles sometimes: the bot sees it
        assert any(s.get("seconds") for s in sheets)
    if layout is BONUS_A:
        assert all("bar" in s for s in sheets) and any("x" in s["bar"] for s in sheets)
    if layout is X_CHANGE:  # greedy exchanges sometimes: the fields it used, left to right
        assert all("exchange" in s for s in sheets) and any(s["exchange"] for s in sheets)
        assert all(s["exchange"] == sorted(set(s["exchange"])) for s in sheets)


# -- replies: second crosses ---------------------------------------------------------------

def test_an_exec_bot_second_cross_is_refereed(tmp_path: Path) -> None:
    """A bot that answers the second cross of the white sum in red, always: refused with
    DA1 on a pad without second-cross boxes; on Double A legal when red's rightmost number
    is the white sum (a second cross lands), else refused naming DA1 or DA3 (or R5/R6)."""
    name = bot_script(tmp_path, "doubler",
                      "def reply(message, count):\n"
                      "    s = message['state']\n"
                      "    if message['type'] == 'action2':\n"
                      "        return json.dumps({'mark': {'colour': 'red', 'number': "
                      "s['roll']['white'][0] + s['roll']['red'], 'second': True}})\n"
                      "    return json.dumps({'mark': 'r%d+' % sum(s['roll']['white'])})\n")
    with open_players([name, "greedy"], Ruleset(2), 2, layout=OFFICIAL) as players:
        result = play_match(players, 2, 2, names=[name, "greedy"])
    assert result.faults and {f.rule for f in result.faults} == {"DA1"}
    assert all("has no second-cross boxes" in f.message for f in result.faults)
    names = [name, "random"]
    with open_players(names, Ruleset(2), 2, layout=DOUBLE_A) as players:
        result = play_match(players, 6, 2, names=names, layout=DOUBLE_A)
    rules = {f.rule for f in result.faults}
    assert "DA1" in rules and rules <= {"DA1", "DA3", "R5", "R6", "R9"}
    assert all(f.player == 0 and f.message.startswith(f.rule + ": ") for f in result.faults)


def test_parse_reply_reads_second_crosses() -> None:
    second = Mark(Colour.BLUE, 6, second=True)
    assert parse_reply('{"mark": "b6+"}', DOUBLE_A) == second
    assert parse_reply('{"mark": {"colour": "blue", "number": 6, "second": true}}',
                       DOUBLE_A) == second
    assert parse_reply('{"mark": {"colour": "blue", "number": 6, "second": false}}',
                       DOUBLE_A) == Mark(Colour.BLUE, 6)


@pytest.mark.parametrize("reply,rule", [
    ('{"mark": {"colour": "blue", "number": 6, "second": "yes"}}', "DA1"),
    ('{"mark": {"colour": "blue", "number": 6, "second": 1}}', "DA1"),
    ('{"mark": {"colour": "blue", "number": 6, "second": true, "field": 2}}', None),
    ('{"mark": "b6++"}', None),
    ('{"mark": "b+6"}', None),
    ('{"mark": "r13++*y10"}', "DA1"),  # a lucky cross's first mark is plain: not dropped
    ('{"mark": "b6+", "seconds": ["b6"]}', None),
    ('{"mark": "b17+"}', "R2"),  # beyond Longo's 16 too
])
def test_malformed_second_crosses(reply: str, rule: str | None) -> None:
    """protocol:malformed naming the reply, and the rule where there is one."""
    for layout in (DOUBLE_A, LONGO.with_lucky((5, 13))):
        with pytest.raises(PlayerFault) as info:
            parse_reply(reply, layout)
        assert info.value.rule == MALFORMED
        message = str(info.value)
        assert message.startswith(f"{MALFORMED}: the reply ")
        if rule is not None and not (rule == "R2" and layout.top_number > 12):
            assert f"{rule}: " in message, message


def test_malformed_second_cross_over_exec(tmp_path: Path) -> None:
    """The same replies from a program: faults, never a traceback; the match goes on."""
    replies = ['{"mark": {"colour": "blue", "number": 6, "second": "yes"}}', '{"mark": "b6++"}']
    name = bot_script(tmp_path, "bad", f"REPLIES = {replies!r}\n"
                                       "def reply(message, count):\n"
                                       "    return REPLIES[count % 2]\n")
    with open_players(["greedy", name], Ruleset(2), 1, layout=DOUBLE_A) as players:
        result = play_match(players, 2, 1, names=["greedy", name], layout=DOUBLE_A)
    assert result.faults and {f.rule for f in result.faults} == {MALFORMED}
    assert any("DA1: " in f.message for f in result.faults)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=4),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
_OBJECTS = st.fixed_dictionaries(
    {"colour": st.sampled_from(["red", "blue", "b", "purple", 3])},
    optional={"number": st.integers(-1, 17) | _JSON, "second": _JSON | st.booleans(),
              "field": _JSON, "lucky": _JSON, "bonus": _JSON})
_TEXTS = st.builds(lambda c, n, q: f"{c}{n}{q}", st.sampled_from(["r", "b", "*g", "r5+*y", "ry"]),
                   st.integers(-1, 17), st.sampled_from(["", "+", "++", "+ ", "+@x2", "+*y4"]))


def _read_back(mark: object, layout: SheetLayout) -> Mark | None:
    """The reply ``{"mark": mark}`` read: a mark (or None) that reads back from its own
    JSON; a protocol:malformed fault naming the reply is None too (any other exception
    fails the test)."""
    try:
        parsed = parse_reply(json.dumps({"mark": mark}), layout)
    except PlayerFault as exc:
        assert exc.rule == MALFORMED and str(exc).startswith(f"{MALFORMED}: the reply ")
        return None
    assert parsed is None or isinstance(parsed, Mark)
    assert parse_reply(json.dumps({"mark": mark_to_json(parsed)}), layout) == parsed
    return parsed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mark=_OBJECTS | _TEXTS | _JSON,
       layout=st.sampled_from([OFFICIAL, DOUBLE_A, BONUS_A, BONUS_B, LONGO.with_lucky((5, 13))]))
def test_fuzz_second_cross_replies(mark: object, layout: SheetLayout) -> None:
    """Any mark about the new fields: a mark that reads back from its own JSON, or
    protocol:malformed naming the reply; never another exception."""
    parsed = _read_back(mark, layout)
    if isinstance(parsed, LuckyMark):
        assert not parsed.second and (parsed.first is None or not parsed.first.second)


# -- replies: X-Change exchanges -----------------------------------------------------------

def test_parse_reply_reads_exchanges() -> None:
    """Every form of an exchange the example bot (or another) may send, read with the
    layout: the text and object forms of an exchange and of a field spent alone."""
    exchange, alone = Mark(Colour.RED, 3, 2), Mark.spend(2)
    for reply, mark in (('"r3@x2"', exchange), ('"red 3@x2"', exchange),
                        ('{"colour": "red", "number": 3, "field": 2}', exchange),
                        ('"x2"', alone), ('{"field": 2}', alone)):
        assert parse_reply(f'{{"mark": {reply}}}', X_CHANGE) == mark
    assert parse_reply('{"mark": "r15@x2"}', LONGO) == Mark(Colour.RED, 15, 2)  # top=16


@pytest.mark.parametrize("reply,rule", [
    ('{"mark": "r3@x"}', None),
    ('{"mark": "@x2"}', None),
    ('{"mark": "x"}', None),
    ('{"mark": "x-1"}', None),
    ('{"mark": "r3@x2@x3"}', None),
    ('{"mark": "r3+@x2"}', None),
    ('{"mark": "r3@x2+"}', None),
    ('{"mark": "*y10@x2"}', None),
    ('{"mark": "ry5@x2"}', "XC1"),  # a bonus cross (BP1) is no exchange
    ('{"mark": "r17@x2"}', "R2"),
    ('{"mark": "x99999999999999999999"}', None),
    ('{"mark": {"field": "2"}}', "XC1"),
    ('{"mark": {"field": true}}', "XC1"),
    ('{"mark": {"field": -1}}', "XC1"),
    ('{"mark": {"field": 11}}', "XC1"),
    ('{"mark": {"field": 2, "colour": "red"}}', None),
    ('{"mark": {"field": 2, "colour": "red", "number": 3, "second": true}}', None),
    ('{"mark": {"field": 2, "colour": "red", "number": "3"}}', None),
    ('{"mark": "r3@x2", "field": 2}', None),
])
def test_malformed_exchanges(reply: str, rule: str | None) -> None:
    """protocol:malformed naming the reply, and the rule where there is one, on every
    layout (the official sheet, X-Change, Longo)."""
    for layout in (OFFICIAL, X_CHANGE, LONGO):
        with pytest.raises(PlayerFault) as info:
            parse_reply(reply, layout)
        assert info.value.rule == MALFORMED
        message = str(info.value)
        assert message.startswith(f"{MALFORMED}: the reply ")
        if rule is not None:
            assert f"{rule}: " in message, message


def test_exec_bot_exchanges_are_refereed(tmp_path: Path) -> None:
    """A bot that always answers a malformed exchange, then one through field 0 for the
    white sum's partner number whatever the sum: the first is protocol:malformed, the
    second a fault naming XC1, XC2 or a row rule (R7-R9) when illegal and played when legal;
    never a traceback, and the match goes on."""
    name = bot_script(tmp_path, "exchanger",
                      "def reply(message, count):\n"
                      "    if count % 2 == 0 or message['type'] == 'action2':\n"
                      "        return '{\"mark\": \"r3@x\"}'\n"
                      "    return json.dumps({'mark': 'r5@x0'})\n")
    names = [name, "greedy"]
    with open_players(names, Ruleset(2), 3, layout=X_CHANGE) as players:
        result = play_match(players, 4, 3, names=names, layout=X_CHANGE)
    rules = {f.rule for f in result.faults}
    assert MALFORMED in rules and "XC1" in rules
    assert rules <= {MALFORMED, "XC1", "XC2", "R7", "R8", "R9"}
    assert all(f.player == 0 for f in result.faults)
    # r5@x0 landed in some game (a white 8 while red 5 was open): field 0 used
    assert any(g.final.sheets[g.seats.index(0)].used_fields == (0,) for g in result.games)


_FIELDS = st.integers(-2, 12) | _JSON
_EXCHANGE_OBJECTS = st.fixed_dictionaries(
    {"field": _FIELDS},
    optional={"colour": st.sampled_from(["red", "blue", "ry", "x"]) | _JSON,
              "number": st.integers(-1, 17) | _JSON, "second": _JSON, "lucky": _JSON})
_EXCHANGE_TEXTS = st.builds(
    lambda head, k, tail: f"{head}{k}{tail}",
    st.sampled_from(["", "r3@x", "r3 @ x", "red 3@x", "b17@x", "ry5@x", "gb8@x", "*y10@x",
                     "r3+@x", "x", "@x", "r@x", "x x"]),
    st.integers(-2, 12) | st.text("0123456789x@+ ", max_size=3),
    st.sampled_from(["", "+", "@x1", " ", "*y4"]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mark=_EXCHANGE_OBJECTS | _EXCHANGE_TEXTS,
       layout=st.sampled_from([OFFICIAL, X_CHANGE, LONGO, BIG_POINTS]))
def test_fuzz_exchange_replies(mark: object, layout: SheetLayout) -> None:
    """Any exchange-like reply: a mark that reads back from its own JSON, with no bonus
    cross (BP1) inside an exchange, or protocol:malformed naming the reply; never another
    exception."""
    parsed = _read_back(mark, layout)
    if parsed is not None and parsed.field is not None:
        assert type(parsed) is Mark and not parsed.second
        assert parsed.number <= layout.top_number
        assert not (isinstance(mark, str) and mark.lstrip(" ").startswith(("ry", "gb")))
