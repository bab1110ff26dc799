"""The arena plays Qwixx Longo (issue 34, "Play"): 8-sided dice, two lock numbers per row,
lucky crosses.  Every built-in player plays ``longo`` and ``longo:5,13`` (both
``lg_lucky_mode`` values), and every game is checked by replaying its record through the
validator; the ``exec:`` protocol announces the dice, the lock numbers, the lucky numbers
and their Options, and reads a bot's lucky cross."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_arena_layouts import OWN_TABLE, table_ready

from qwixx_math.arena import open_players, play_match
from qwixx_math.arena.external import layout_to_json, parse_reply
from qwixx_math.arena.faults import MALFORMED, PlayerFault
from qwixx_math.arena.match import check_layout
from qwixx_math.arena.registry import player_names
from qwixx_math.cli import main
from qwixx_math.colours import Colour
from qwixx_math.layouts import LAYOUTS, LONGO, OFFICIAL, SheetLayout
from qwixx_math.model import LuckyMark, Mark, Roll
from qwixx_math.record import GameRecord, GameResult, TurnRecord
from qwixx_math.rules import GameState
from qwixx_math.ruleset import LuckyCandidates, LuckyMode, Ruleset
from qwixx_math.validation import validate_record

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "arena_bot.py"
LUCKY = LONGO.with_lucky((5, 13))
ADDITIONAL = Ruleset(2, lg_lucky_mode=LuckyMode.ADDITIONAL)


class _Log:
    """The turns of the game being played, gathered from every seat's recorder: the roll
    and the active seat of each turn, every seat's answers."""

    def __init__(self) -> None:
        self.turns: dict[int, dict[str, object]] = {}
        self.records: list[GameRecord] = []
        self.lucky = 0

    def turn(self, state: GameState) -> dict[str, object]:
        return self.turns.setdefault(state.turn, {"active": state.active, "roll": state.roll,
                                                  "action1": {}, "action2": None})

    def record(self, final: GameState) -> GameRecord:
        n = len(final.sheets)
        turns = []
        for k in sorted(self.turns):
            t = self.turns[k]
            action1: dict[int, Mark | None] = t["action1"]  # type: ignore[assignment]
            roll = t["roll"]
            assert isinstance(roll, Roll)
            turns.append(TurnRecord(int(str(t["active"])), roll,
                                    tuple(action1.get(s) for s in range(n)),
                                    t["action2"]))  # type: ignore[arg-type]
        self.turns = {}
        return GameRecord(tuple(f"seat{s}" for s in range(n)), final.ruleset, tuple(turns),
                          0, None, GameResult.of(final), final.layout)


class _Recorder:
    """A player that plays as ``player`` and writes its answers in ``log``."""

    def __init__(self, player: object, log: _Log) -> None:
        self.player = player
        self.log = log
        self.name = str(getattr(player, "name", "?"))

    @property
    def note(self) -> str:
        return str(getattr(self.player, "note", ""))

    def new_game(self, seat: int, state: GameState) -> None:
        self.player.new_game(seat, state)  # type: ignore[attr-defined]

    def action1(self, seat: int, state: GameState) -> Mark | None:
        mark: Mark | None = self.player.action1(seat, state)  # type: ignore[attr-defined]
        self.log.turn(state)["action1"][seat] = mark  # type: ignore[index]
        self.log.lucky += isinstance(mark, LuckyMark)
        return mark

    def action2(self, seat: int, state: GameState) -> Mark | None:
        mark: Mark | None = self.player.action2(seat, state)  # type: ignore[attr-defined]
        self.log.turn(state)["action2"] = mark
        return mark

    def game_over(self, seat: int, state: GameState) -> None:
        self.player.game_over(seat, state)  # type: ignore[attr-defined]
        if seat == 0:
            self.log.records.append(self.log.record(state))


def _validated(names: list[str], layout: SheetLayout, ruleset: Ruleset, games: int = 2,
               seed: int = 3) -> _Log:
    """A seeded match of ``names`` on ``layout``; every game's record replayed through the
    validator, which must find it legal with the match's scores."""
    log = _Log()
    with open_players(names, ruleset, seed, layout=layout) as players:
        result = play_match([_Recorder(p, log) for p in players], games, seed,
                            ruleset=ruleset, names=names, layout=layout)  # type: ignore[misc]
    assert result.faults == ()
    assert len(log.records) == games
    for game, record in zip(result.games, log.records, strict=True):
        assert record.layout == layout and game.final.layout == layout
        report = validate_record(record, dialects=False)
        assert report.valid, report.violations[:3]
        assert report.scores == game.final.scores
    return log


#: Every built-in player by name, with the parametrised families' documented members.
BUILT_IN = sorted({*player_names(), "policy:threshold-4"})


@pytest.mark.parametrize("layout", [LONGO, LUCKY], ids=["longo", "longo:5,13"])
def test_every_built_in_player_plays_longo_legally(layout: SheetLayout) -> None:
    """Every built-in player; one built on a solver table only when the table is cached
    or the solver refuses the layout (the tests never solve a Longo table: minutes)."""
    for name in BUILT_IN:
        if name in OWN_TABLE and not table_ready(name, layout):
            continue
        _validated([name, "random"], layout, Ruleset(2))


@pytest.mark.parametrize("ruleset", [Ruleset(2), ADDITIONAL,
                                     Ruleset(2, lg_lucky_candidates=LuckyCandidates.
                                             OPEN_WITH_NEXT_CELL)],
                         ids=["instead", "additional", "open_with_next_cell"])
def test_lucky_crosses_are_played_legally_under_every_option(ruleset: Ruleset) -> None:
    log = _validated(["random", "greedy"], LUCKY, ruleset, games=4)
    assert log.lucky > 0  # the premise: lucky crosses were made and checked
    firsts = [m for r in log.records for t in r.turns for m in t.action1
              if isinstance(m, LuckyMark) and m.first is not None]
    assert bool(firsts) == (ruleset.lg_lucky_mode is LuckyMode.ADDITIONAL)


def test_the_replay_would_catch_a_wrong_lucky_cross() -> None:
    """The check is real: a recorded lucky cross moved one cell right is a violation."""
    log = _validated(["random", "random"], LUCKY, Ruleset(2), games=4)
    record, k, seat, mark = next(
        (r, k, s, m) for r in log.records for k, t in enumerate(r.turns)
        for s, m in enumerate(t.action1) if isinstance(m, LuckyMark) and m.number not in (2, 16))
    step = 1 if LUCKY.position(mark.colour, mark.number + 1) == \
        LUCKY.position(mark.colour, mark.number) + 1 else -1  # one cell right
    wrong = LuckyMark(mark.colour, mark.number + step, first=mark.first)
    turn = record.turns[k]
    action1 = tuple(wrong if s == seat else m for s, m in enumerate(turn.action1))
    turns = (*record.turns[:k], TurnRecord(turn.active, turn.roll, action1, turn.action2),
             *record.turns[k + 1:])
    bad = GameRecord(record.players, record.ruleset, turns, 0, None, None, record.layout)
    report = validate_record(bad, dialects=False)
    assert not report.valid and report.violations[0].turn == k + 1


def test_cli_plays_longo_under_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    """The report names a Longo Option (its key is in the ruleset's JSON only when set)."""
    code = main(["arena", "racer", "greedy", "--games", "2", "--quiet", "--layout",
                 "longo:5,13", "--ruleset", '{"lg_lucky_mode": "additional"}'])
    first = capsys.readouterr().out.splitlines()[0]
    assert code == 0
    assert first.endswith('2 players, lg_lucky_mode="additional", on the longo:5,13 sheet')


def test_racers_say_they_race_longo_by_the_window_rule() -> None:
    with open_players(["racer", "racer-simple"], Ruleset(2), 1, layout=LONGO) as players:
        result = play_match(players, 2, 1, layout=LONGO)
    assert result.faults == ()
    assert result.notes[0].startswith("races the longo sheet by the window rule (skip 1)")
    assert result.notes[1] == ""  # racer-simple's own rule is the window rule


def test_check_layout_takes_longo() -> None:
    assert check_layout("longo") is LONGO
    assert check_layout("longo:5,13") == LUCKY


# -- the exec: protocol ---------------------------------------------------------------------

def test_layout_message_announces_longo_and_nothing_new_elsewhere() -> None:
    pad = layout_to_json(LUCKY, ADDITIONAL)
    assert (pad["faces"], pad["lock_cells"], pad["lucky"]) == (8, 2, [5, 13])
    assert (pad["lucky_mode"], pad["lucky_candidates"]) == ("additional", "open_rows")
    assert pad["lock_threshold"] == 6 and pad["rows"][0]["numbers"] == list(range(2, 17))
    plain = layout_to_json(LONGO, Ruleset(2))
    assert "lucky" not in plain and "lucky_mode" not in plain and plain["faces"] == 8
    for name, layout in LAYOUTS.items():  # the other pads: the fields they always had
        if layout.faces == 6:  # Big Points adds its bonus rows (BP1, BP3); Double A, Bonus
            # A and B their extra crosses (DA1, DA4, BA1, BB1-BB3), the Steps, the Chain and
            # X-Change their cells and track (CS2, CC1, XC1, XC4; tests/test_arena_pads.py)
            extra = {"bonus_rows", "bonus_trigger"} if layout.bonus_rows else set()
            extra |= {"steps"} if layout.steps else set()
            extra |= {"chain"} if layout.chain else set()
            extra |= {"exchange", "xc_field_without_cross"} if layout.exchange else set()
            extra |= {"second_crosses", "da_same_turn"} if layout.second_crosses else set()
            extra |= {"boxed", "bar"} if layout.boxed else set()
            extra |= {"symbols", "fewest_candidates", "diamond_order"} if layout.symbols \
                else set()
            assert set(layout_to_json(layout, Ruleset(2))) == {
                "name", "rows", "lock_threshold", "penalty_boxes", "closed_rows_to_end",
                *extra}, name


def _exec(*argv: str | Path) -> str:
    return "exec:" + shlex.join([sys.executable, *map(str, argv)])


def test_an_exec_bot_makes_a_lucky_cross(tmp_path: Path) -> None:
    """A bot that answers the first lucky cell it is offered, in the text form: the
    referee applies it (the sheet holds the cell), no fault."""
    log = tmp_path / "log.jsonl"
    script = tmp_path / "lucky.py"
    script.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        "layout = None\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'new_game':\n"
        "        layout = m['layout']; log.write(json.dumps(layout) + '\\n'); log.flush()\n"
        "    elif m['type'] == 'action1':\n"
        "        s = m['state']; w = sum(s['roll']['white'])\n"
        "        sheet = s['sheets'][m['seat']]\n"
        "        rows = [r for r in layout['rows'] if r['lock'] not in s['closed']]\n"
        "        fewest = min(len(sheet[r['lock']]) for r in rows)\n"
        "        mark = None\n"
        "        for r in rows:\n"
        "            done = [r['numbers'].index(n) for n in sheet[r['lock']]]\n"
        "            p = max(done) + 1 if done else 0\n"
        "            if w in layout['lucky'] and len(done) == fewest and p < 13:\n"
        "                mark = '*' + r['lock'][0] + str(r['numbers'][p]); break\n"
        "        if mark: log.write(json.dumps([s['turn'], m['seat'], mark]) + '\\n')\n"
        "        print(json.dumps({'mark': mark}), flush=True)\n"
        "    elif m['type'] == 'action2':\n"
        "        print('{\"mark\": null}', flush=True)\n", encoding="utf-8")
    name = _exec(script)
    with open_players([name, "greedy"], Ruleset(2), 4, layout=LUCKY) as players:
        result = play_match(players, 2, 4, names=[name, "greedy"], layout=LUCKY)
    assert result.faults == ()
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    layouts = [x for x in lines if isinstance(x, dict)]
    assert layouts and all(x["lucky"] == [5, 13] and x["faces"] == 8 for x in layouts)
    crosses = [x for x in lines if isinstance(x, list)]
    assert crosses  # the premise: the bot made lucky crosses, and none was refused
    for game in result.games:
        sheet = game.final.sheets[game.seats.index(0)]
        assert sheet.layout == LUCKY and sum(len(sheet.marks(c)) for c in LUCKY.locks) > 0


@pytest.mark.parametrize("layout", [LONGO, LUCKY], ids=["longo", "longo:5,13"])
@pytest.mark.parametrize("ruleset", [Ruleset(2), ADDITIONAL], ids=["instead", "additional"])
def test_example_bot_plays_longo_cleanly(layout: SheetLayout, ruleset: Ruleset) -> None:
    names = ["greedy", _exec(BOT)]
    with open_players(names, ruleset, 2, layout=layout) as players:
        result = play_match(players, 4, 2, ruleset=ruleset, names=names, layout=layout)
    assert result.faults == ()


def test_parse_reply_reads_longo_marks() -> None:
    assert parse_reply('{"mark": "b16"}', LONGO) == Mark(Colour.BLUE, 16)
    assert parse_reply('{"mark": " red 13 "}', LONGO) == Mark(Colour.RED, 13)
    assert parse_reply('{"mark": {"colour": "green", "number": 14}}', LONGO) == \
        Mark(Colour.GREEN, 14)
    assert parse_reply('{"mark": "*g3"}', LUCKY) == LuckyMark(Colour.GREEN, 3)
    lucky = parse_reply('{"mark": {"colour": "yellow", "number": 14, "lucky": true, '
                        '"first": {"colour": "red", "number": 15}}}', LUCKY)
    assert isinstance(lucky, LuckyMark) and str(lucky) == "r15+*y14"
    with pytest.raises(PlayerFault, match=MALFORMED):
        parse_reply('{"mark": "r17"}', LONGO)
    with pytest.raises(PlayerFault, match=MALFORMED):
        parse_reply('{"mark": "r13"}', OFFICIAL)  # the official sheet's numbers end at 12
    with pytest.raises(PlayerFault, match=MALFORMED):
        parse_reply('{"mark": "r13+y10"}', LONGO)


_MARK_TEXT = st.one_of(
    st.text(max_size=12),
    st.builds(lambda p, c, n, q: f"{p}{c}{n}{q}", st.sampled_from(["", "*", "r13+*", "+", "**"]),
              st.sampled_from(["r", "y", "g", "b", "x", "red "]),
              st.integers(-3, 20), st.sampled_from(["", "+", "@x2", "+*y4", " "])))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_MARK_TEXT, st.sampled_from([OFFICIAL, LONGO, LUCKY]), st.booleans())
def test_fuzz_parse_reply_on_longo(text: str, layout: SheetLayout, as_json: bool) -> None:
    """Any mark text: a Mark (numbers within the layout's) or None, or protocol:malformed;
    never another exception."""
    line = json.dumps({"mark": text}) if as_json else text
    try:
        mark = parse_reply(line, layout)
    except PlayerFault as exc:
        assert exc.rule == MALFORMED
        return
    if mark is not None and mark.crosses:  # not an X-Change field spent alone (x2)
        assert 2 <= mark.number <= layout.top_number
        if isinstance(mark, LuckyMark) and mark.first is not None:
            assert 2 <= mark.first.number <= layout.top_number
