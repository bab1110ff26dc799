"""The arena on every sheet layout (issue 34, "Play"): every built-in player plays every
published pad without a fault, a player that cannot play a pad is played by a named
stand-in that the report names, the report and the ``exec:`` protocol name the layout."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qwixx_math.arena import open_players, play_match, report
from qwixx_math.arena.external import layout_to_json
from qwixx_math.arena.match import check_layout
from qwixx_math.arena.registry import OFFICIAL_ONLY, StandIn, make_player
from qwixx_math.cli import main
from qwixx_math.colours import Colour
from qwixx_math.errors import ParseError
from qwixx_math.layouts import DOUBLE_B, LONGO, MIXX_A, OFFICIAL, SheetLayout
from qwixx_math.layouts import LAYOUTS as ALL_LAYOUTS
from qwixx_math.model import Mark
from qwixx_math.notation import format_mark
from qwixx_math.policies.geometry import check_no_lucky, check_policy_sheet
from qwixx_math.rules import GameState, legal_action1, legal_action2
from qwixx_math.ruleset import LuckyCandidates, LuckyMode, Ruleset, ruleset_for
from qwixx_math.solver import solve
from qwixx_math.solver.cache import cache_dir, table_filename
from qwixx_math.solver.variant import Variant

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "arena_bot.py"
#: A pad the solver refuses for good (rows of different lengths): the players built on a
#: solver table are played by their stand-ins on it.
UNEVEN = "r2r3r4r5r6r7.y2y3y4y5y6y7y8-t2-p4-k2"

#: Players that read the layout off the state (cheap to make on any pad).
CHEAP = ("greedy", "random", "racer", "racer-simple", "racer-markov", "policy:fewest-skips",
         "policy:seed-tips", "policy:threshold-4")
#: Players built on a solver table of the layout (solitaire, or the table of N players).
TABLED = {"solo": 1, "policy:optimal": 1, "table": 2}
#: Players that need the layout's own solver table (its players) where the solver plays it:
#: TABLED, and ``lookahead`` (which stands other tables in only on the pads the solver refuses).
OWN_TABLE = {**TABLED, "lookahead": 1}

#: The pads the arena plays: every published one, and Longo with lucky numbers too.
LAYOUTS = {**ALL_LAYOUTS, "longo:5,13": LONGO.with_lucky((5, 13))}


def solver_refusal(name: str, layout: SheetLayout) -> ParseError | None:
    """The error with which the solver (or the policy engine) refuses to make ``name``'s
    table on ``layout``, None when it makes one (the table model refuses lucky numbers,
    LG3, and the bonus bar, BA1, before any solve)."""
    try:
        if name.startswith("policy:"):
            check_no_lucky(layout)  # LG3 in the policy engine's name, before the solver's
        variant = Variant(layout)
        if name.startswith("policy:"):
            check_policy_sheet(variant)
        if OWN_TABLE[name] > 1 and (variant.lucky or variant.has_bar):  # LG3, BA1
            solve(Ruleset(OWN_TABLE[name]), layout=layout, players=OWN_TABLE[name], cache=False)
    except ParseError as exc:
        return exc
    return None


def table_ready(name: str, layout: SheetLayout) -> bool:
    """Whether ``name`` can be made on ``layout`` without solving a table: the solver
    refuses the layout (the stand-in plays), or the table is in the cache already."""
    if solver_refusal(name, layout) is not None:
        return True  # the solver or the policy engine refuses (LG3, CS2): a stand-in
    variant = Variant(layout)
    return (cache_dir() / table_filename(variant, False, OWN_TABLE[name])).exists()


def _match(names: list[str], layout: SheetLayout | str, games: int = 2, seed: int = 5):
    with open_players(names, Ruleset(len(names)), seed, layout=layout) as players:
        return play_match(players, games, seed, names=names, layout=layout)


def _check_clean(result: object, layout: SheetLayout) -> None:
    from qwixx_math.arena import MatchResult

    assert isinstance(result, MatchResult)
    assert result.faults == ()
    assert result.layout == layout
    for game in result.games:
        assert game.final.layout == layout
        assert all(sheet.layout == layout for sheet in game.final.sheets)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", CHEAP)
def test_cheap_players_play_every_layout(name: str, layout: str) -> None:
    _check_clean(_match([name, "greedy"], layout), LAYOUTS[layout])


@pytest.mark.parametrize("layout", [la for la in LAYOUTS if la != "official"])
@pytest.mark.parametrize("name", sorted(OFFICIAL_ONLY))
def test_official_only_players_play_every_other_layout_by_stand_in(name: str, layout: str
                                                                   ) -> None:
    result = _match([name, "random"], layout)
    _check_clean(result, LAYOUTS[layout])
    assert result.notes[0].startswith(f"plays as {OFFICIAL_ONLY[name]} on the {layout} sheet")
    assert result.notes[1] == ""


def test_win_plays_the_official_sheet_itself() -> None:
    with open_players(["win", "greedy"], Ruleset(2), 1) as players:
        assert not isinstance(players[0], StandIn)
        result = play_match(players, 2, 1, names=["win", "greedy"])
    _check_clean(result, OFFICIAL)
    assert result.notes == ("", "")


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", sorted(TABLED))
def test_tabled_players_play_every_layout(name: str, layout: str) -> None:
    """solo, table and policy:optimal on every pad whose table is cached (the tests never
    solve one) or that the solver refuses (then a stand-in plays, its note says so)."""
    la = LAYOUTS[layout]
    if not table_ready(name, la):
        pytest.skip(f"the {layout} table of {name} is not in the cache")
    result = _match([name, "greedy"], la)
    _check_clean(result, la)
    # double cells and Longo play (DB1, LG1); steps stand in for the policies, lucky
    # numbers for the policies and the table model (LG3)
    exc = solver_refusal(name, la)
    if exc is not None:
        assert result.notes[0].startswith("plays as ") and str(exc) in result.notes[0]
    else:
        assert result.notes[0] == ""


@pytest.mark.parametrize("name,instead", [("solo", "greedy"), ("table", "greedy"),
                                          ("policy:optimal", "policy:fewest-skips")])
def test_a_pad_without_a_solver_is_played_by_a_named_stand_in(name: str, instead: str,
                                                               capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    layout = check_layout(UNEVEN)
    with pytest.raises(ParseError):
        Variant(layout)  # the premise: the solver refuses this pad
    result = _match([name, instead], layout, games=4)
    _check_clean(result, layout)
    note = result.notes[0]
    assert note.startswith(f"plays as {instead} on the {layout.key} sheet: no solver table")
    # the stand-in plays exactly as the player it names: same dice, same choices
    assert [g.scores[0] for g in result.games[::2]] == [g.scores[1] for g in result.games[1::2]]
    text = report(result).to_text()
    assert f"note: {name}: {note}" in text.splitlines()
    assert report(result).to_json()["notes"] == [note, ""]


def test_report_names_the_layout() -> None:
    result = _match(["greedy", "random"], "double-b")
    summary = report(result)
    assert summary.to_text().splitlines()[0] == (
        "arena: 2 games (1 deals x 2 seats), seed 5, official rules for 2 players, "
        "on the double-b sheet")
    data = summary.to_json()
    assert data["layout"] == "double-b" and data["notes"] == ["", ""]
    official = report(_match(["greedy", "random"], "official"))
    assert official.to_json()["layout"] == "official"
    assert "sheet" not in official.to_text().splitlines()[0]  # as before layouts came


def test_seats_rotate_on_common_dice_on_any_layout() -> None:
    """Two copies of one deterministic player: the rotations of a deal are the same game
    with the seats swapped."""
    result = _match(["greedy", "greedy"], MIXX_A, games=4)
    assert [g.seats for g in result.games] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    for a, b in zip(result.games[::2], result.games[1::2], strict=True):
        assert a.scores == b.scores[::-1] and a.turns == b.turns


def test_layout_is_checked_up_front() -> None:
    with pytest.raises(ParseError, match="unknown layout 'double'; expected one of official, "
                                         "mixx-a, mixx-b, double-b, double-b-alt"):
        play_match([], 2, 1, layout="double")  # before the players are looked at
    with pytest.raises(ParseError, match="a layout is a SheetLayout"):
        check_layout(3)
    with pytest.raises(ParseError, match="unknown layout"):
        make_player("solo", Ruleset(2), 0, layout="nope")  # before any table is made
    with pytest.raises(ParseError, match="unknown player"):
        make_player("nobody", Ruleset(2), 0, layout=DOUBLE_B)


def test_cli_layout(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "greedy", "random", "--games", "2", "--quiet", "--json",
                 "--layout", "mixx-b"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["layout"] == "mixx-b"
    with pytest.raises(SystemExit) as exc:
        main(["arena", "greedy", "random", "--games", "2", "--layout", "mixx"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "unknown layout 'mixx'" in err and "official, mixx-a, mixx-b" in err
    assert "Traceback" not in err


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=40))
def test_fuzz_layout_argument(text: str) -> None:
    """Any text as a layout: a typed error, or a match on the layout it names."""
    try:
        layout = check_layout(text)
    except ParseError:
        return
    _check_clean(_match(["greedy", "greedy"], text), layout)


def _layout_from_json(data: dict[str, object]) -> SheetLayout:
    """The layout a new_game message describes, rebuilt cell by cell."""
    rows = data["rows"]
    assert isinstance(rows, list)
    return SheetLayout.of_rows(
        str(data["name"]),
        [[(n, Colour.parse(c)) for n, c in zip(r["numbers"], r["colours"], strict=True)]
         for r in rows],
        lock_threshold=int(str(data["lock_threshold"])),
        penalty_boxes=int(str(data["penalty_boxes"])),
        closed_rows_to_end=int(str(data["closed_rows_to_end"])),
        weights=tuple(tuple(r["weights"]) for r in rows))


@pytest.mark.parametrize("layout", [OFFICIAL, MIXX_A, DOUBLE_B, check_layout(UNEVEN)])
def test_layout_to_json_describes_every_cell(layout: SheetLayout) -> None:
    data = layout_to_json(layout)
    assert data["name"] == layout.key
    assert [r["lock"] for r in data["rows"]] == [c.value for c in layout.locks]
    rebuilt = _layout_from_json(json.loads(json.dumps(data)))
    assert rebuilt == layout  # numbers, colours, weights, threshold, boxes, rows to end


def _exec(*argv: str | Path) -> str:
    return "exec:" + shlex.join([sys.executable, *map(str, argv)])


@pytest.mark.parametrize("layout", ["official", "mixx-a", "double-b"])
def test_new_game_message_carries_the_layout(layout: str, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    script = tmp_path / "logger.py"
    script.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'new_game':\n"
        "        log.write(line); log.flush()\n"
        "    if message['type'] in ('action1', 'action2'):\n"
        "        print('{\"mark\": null}', flush=True)\n", encoding="utf-8")
    result = _match([_exec(script), "greedy"], layout)
    assert result.faults == ()
    messages = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert len(messages) == 2
    for m in messages:
        assert set(m) == {"type", "seat", "state", "layout"}
        assert _layout_from_json(m["layout"]) == LAYOUTS[layout]
        sheets = m["state"]["sheets"]
        # the state names the layout too, as it always did off the official sheet
        assert all(s.get("layout", "official") == layout for s in sheets)


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_example_bot_plays_every_layout_cleanly(layout: str) -> None:
    """The example bot works out its legal marks from the layout of the new_game message:
    no fault on any pad (double cells and Mixx colours included)."""
    result = _match(["greedy", _exec(BOT)], layout, games=6, seed=2)
    _check_clean(result, LAYOUTS[layout])


def test_ruleset_for() -> None:
    assert ruleset_for(None, 3) == Ruleset(3)
    rs = Ruleset(2, action2_after_game_end=True)
    assert ruleset_for(rs, 2) is rs
    with pytest.raises(ParseError, match="R3: the ruleset is for 2 player"):
        ruleset_for(rs, 3)
    with pytest.raises(ParseError, match="ruleset must be a Ruleset, not str"):
        ruleset_for("official", 2)
    with pytest.raises(ParseError, match="R3: the ruleset is for 3 player"):
        play_match([make_player("greedy", Ruleset(2), 0)] * 2, 2, 1, Ruleset(3))


def _load_bot() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location("arena_bot_under_test", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _BotChecker:
    """A random player that checks, at every choice, that the example bot's legal marks
    (its ``marks`` with no limit on skips) are exactly the rules core's."""

    name = "checker"

    def __init__(self, seed: int) -> None:
        import random

        self.bot: object = _load_bot()
        self.rng = random.Random(seed)
        self.checked = 0
        self.exchanges = 0  # X-Change marks among the legal ones checked (XC1, XC4)
        self.layout: dict[str, object] = {}

    def new_game(self, seat: int, state: GameState) -> None:
        self.layout = layout_to_json(state.layout, state.ruleset)

    def _check(self, kind: str, seat: int, state: GameState, legal: tuple[Mark, ...]
               ) -> Mark | None:
        data = json.loads(json.dumps(state.to_json()))
        found = self.bot.legal(kind, seat, data, self.layout)  # type: ignore[attr-defined]
        # every mark: plain, second (b6+), bonus (ry5), lucky (*y10, r13+*y10) and X-Change
        # (r3@x2, and x2 under xc_field_without_cross)
        texts = sorted(format_mark(m) for m in legal)
        assert sorted(m for _, m in found) == texts, (kind, state.to_text())
        choice = self.bot.choose(kind, seat, data, self.layout)  # type: ignore[attr-defined]
        assert choice is None or choice in texts
        self.checked += 1
        self.exchanges += sum(m.field is not None for m in legal)
        options: list[Mark | None] = [None, *legal]
        return self.rng.choice(options)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        return self._check("action1", seat, state, legal_action1(state, seat))

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return self._check("action2", seat, state, legal_action2(state))

    def game_over(self, seat: int, state: GameState) -> None:
        pass


@pytest.mark.parametrize("layout", [*LAYOUTS, UNEVEN])
def test_example_bot_finds_exactly_the_legal_marks(layout: str) -> None:
    """The bot's own reading of the rules (R5-R9, DB2, LG2-LG5, DA1-DA5; on Bonus A and B
    the forced crosses in the states it is shown) against the rules core's, on random
    games of every pad; the bot's choice is also computed, without error."""
    checkers = [_BotChecker(1), _BotChecker(2), _BotChecker(3)]
    result = play_match(checkers, 6, 11, layout=layout)
    assert result.faults == ()
    assert sum(c.checked for c in checkers) > 100


@pytest.mark.parametrize("ruleset", [
    Ruleset(3, lg_lucky_mode=LuckyMode.ADDITIONAL),
    Ruleset(3, lg_lucky_candidates=LuckyCandidates.OPEN_WITH_NEXT_CELL),
    Ruleset(3, lg_lucky_mode=LuckyMode.ADDITIONAL,
            lg_lucky_candidates=LuckyCandidates.OPEN_WITH_NEXT_CELL)])
def test_example_bot_finds_exactly_the_lucky_crosses_under_the_options(ruleset: Ruleset
                                                                       ) -> None:
    """Longo with lucky numbers under the Options LG4 and LG5: the bot reads them off
    the layout message and STATE's ruleset and lists exactly the core's marks."""
    checkers = [_BotChecker(4), _BotChecker(5), _BotChecker(6)]
    result = play_match(checkers, 6, 12, ruleset, layout=LAYOUTS["longo:5,13"])
    assert result.faults == ()
    assert sum(c.checked for c in checkers) > 100


def test_example_bot_finds_exactly_the_second_crosses_without_same_turn() -> None:
    """Double A under da_same_turn=False (DA4): the bot reads the Option off the layout
    message and leaves out the second cross under its own action-1 number in action 2,
    exactly as the rules core does."""
    checkers = [_BotChecker(10), _BotChecker(11), _BotChecker(12)]
    result = play_match(checkers, 6, 14, Ruleset(3, da_same_turn=False),
                        layout=LAYOUTS["double-a"])
    assert result.faults == ()
    assert sum(c.checked for c in checkers) > 100


@pytest.mark.parametrize("alone", [False, True], ids=["default", "field_without_cross"])
def test_example_bot_finds_exactly_the_exchanges(alone: bool) -> None:
    """X-Change under both values of xc_field_without_cross (XC4): the bot reads the track
    and the Option off the layout message and the fields used off STATE's sheets, and lists
    exactly the core's exchanges (r3@x2) and fields spent alone (x2)."""
    checkers = [_BotChecker(15), _BotChecker(16), _BotChecker(17)]
    result = play_match(checkers, 6, 15, Ruleset(3, xc_field_without_cross=alone),
                        layout=LAYOUTS["x-change"])
    assert result.faults == ()
    assert sum(c.checked for c in checkers) > 100
    assert sum(c.exchanges for c in checkers) > 20  # the premise: exchanges were listed


def test_example_bot_finds_exactly_the_bonus_crosses_either_adjacent() -> None:
    """Big Points under bp_colour_trigger either_adjacent (BP3): the bot reads the Option off
    the layout message and lists exactly the core's marks, bonus crosses included."""
    from qwixx_math.ruleset import BonusTrigger

    checkers = [_BotChecker(7), _BotChecker(8), _BotChecker(9)]
    result = play_match(checkers, 6, 13, Ruleset(3, bp_colour_trigger=BonusTrigger.EITHER_ADJACENT),
                        layout=LAYOUTS["big-points"])
    assert result.faults == ()
    assert sum(c.checked for c in checkers) > 100


def test_example_bot_knows_a_colour_closed_in_action_1_leaves_play() -> None:
    """Mixx A: green closed in action 1 takes its die out at once (R9), so white + green
    may not mark a green cell of the yellow row in action 2 (a fault the bot once made)."""
    from qwixx_math.model import Sheet
    from qwixx_math.notation import parse_roll

    sheet = Sheet.from_marks({Colour.GREEN: [11, 10, 9, 7, 5]}, layout=MIXX_A)
    rolled = GameState(Ruleset(2), (sheet, Sheet.empty(MIXX_A))).with_roll(
        parse_roll("w:1,1/r:1/y:1/g:4/b:1"))
    state = rolled.with_action1([Mark(Colour.GREEN, 2), None])
    assert state.closed == frozenset({Colour.GREEN})
    bot = _load_bot()
    data = json.loads(json.dumps(state.to_json()))
    found = bot.legal("action2", 0, data, layout_to_json(MIXX_A))  # type: ignore[attr-defined]
    assert "y5" not in [m for _, m in found]  # white 1 + green 4 in a green cell
    assert sorted(m for _, m in found) == sorted(
        f"{m.colour.value[0]}{m.number}" for m in legal_action2(state))
