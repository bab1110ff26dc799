"""The arena's referee loop: determinism, seat rotation, common dice, ties, the paired CI,
in-process faults and the registry."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from qwixx_math.arena import (
    DealDice,
    GameResult,
    MatchResult,
    match,
    open_players,
    paired_ci,
    play_match,
    player_names,
    registry,
    report,
)
from qwixx_math.arena.faults import CRASH, MALFORMED
from qwixx_math.arena.registry import BUILTIN, make_player, player_seed
from qwixx_math.errors import ParseError
from qwixx_math.model import Colour, Mark
from qwixx_math.players.base import Player
from qwixx_math.players.uniform import RandomPlayer
from qwixx_math.rules import GameState, Phase, legal_action1, new_game
from qwixx_math.ruleset import EndCheck, Ruleset


@dataclass
class Recorder:
    """Wraps a player and records every state it is shown."""

    inner: Player
    name: str = "recorder"
    shown: list[tuple[str, int, GameState]] = field(default_factory=list)

    def new_game(self, seat: int, state: GameState) -> None:
        self.shown.append(("new_game", seat, state))
        self.inner.new_game(seat, state)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        self.shown.append(("action1", seat, state))
        return self.inner.action1(seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        self.shown.append(("action2", seat, state))
        return self.inner.action2(seat, state)

    def game_over(self, seat: int, state: GameState) -> None:
        self.shown.append(("game_over", seat, state))
        self.inner.game_over(seat, state)


def random_match(games: int, seed: int, n: int = 2) -> MatchResult:
    with open_players(["random"] * n, Ruleset(n), seed) as players:
        return play_match(players, games, seed)


def test_deterministic_for_a_seed() -> None:
    """The same seed gives the same match (seeded random players: every choice counts);
    another seed another one."""
    a, b = random_match(12, 5, 3), random_match(12, 5, 3)
    assert a == b
    assert [g.final for g in a.games] == [g.final for g in b.games]
    assert random_match(12, 6, 3).games != a.games


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_seat_rotation(n: int) -> None:
    """Game g is deal (g-1)//n, rotation (g-1)%n, player i in seat (i + r) % n: every
    player sits in every seat equally often, once per deal."""
    result = random_match(2 * n, 1, n)
    assert len(result.games) == 2 * n and result.deals == 2
    seats = Counter()
    for g in result.games:
        assert g.deal == (g.game - 1) // n and g.rotation == (g.game - 1) % n
        for seat, player in enumerate(g.seats):
            assert seat == (player + g.rotation) % n
            seats[player, seat] += 1
        assert sorted(g.seats) == list(range(n))
    assert set(seats.values()) == {2} and len(seats) == n * n


def test_common_dice() -> None:
    """Every rotation of a deal rolls the same dice turn by turn (the colours still in play
    of the deal's roll); the dice are DealDice(seed, deal)'s; other deals roll others."""
    rec = [Recorder(RandomPlayer(s)) for s in (1, 2, 3)]
    result = play_match(rec, 9, 7, names=["a", "b", "c"])
    rolls: dict[tuple[int, int], dict[int, tuple[int | None, ...]]] = {}
    # the recorder of player 0 saw every game, in order
    games_seen: list[list[GameState]] = [[]]
    for kind, _, state in rec[0].shown:
        if kind == "new_game" and games_seen[-1]:
            games_seen.append([])
        if kind == "action1":
            games_seen[-1].append(state)
    assert len(games_seen) == 9
    for g, states in zip(result.games, games_seen, strict=True):
        dice = DealDice(7, g.deal)
        assert [s.turn for s in states] == list(range(g.turns))
        for s in states:
            assert s.roll == dice.roll(s.turn, s.closed)
            full = dice.full_roll(s.turn)
            rolls.setdefault((g.deal, s.turn), {})[g.rotation] = (*full.white, *full.coloured)
            assert s.roll is not None and s.roll.white == full.white
    for (deal, turn), by_rotation in rolls.items():
        assert len(set(by_rotation.values())) == 1, (deal, turn)
    first = [DealDice(7, 0).full_roll(t) for t in range(20)]
    assert first != [DealDice(7, 1).full_roll(t) for t in range(20)]
    assert first == [DealDice(7, 0).full_roll(t) for t in range(20)]


def test_players_are_shown_the_referees_states() -> None:
    """Every seat is asked action 1 from the same ACTION1 state; only the active seat is
    asked action 2, from the ACTION2 state; new_game shows the first ROLL state and
    game_over the final state."""
    rec = [Recorder(RandomPlayer(s)) for s in (1, 2)]
    result = play_match(rec, 4, 3)
    by_player = [r.shown for r in rec]
    for shown in by_player:
        kinds = [k for k, _, _ in shown]
        assert kinds.count("new_game") == kinds.count("game_over") == 4
        for kind, seat, state in shown:
            if kind == "new_game":
                assert state.phase is Phase.ROLL and state.turn == 0
            elif kind == "action1":
                assert state.phase is Phase.ACTION1
            elif kind == "action2":
                assert state.phase is Phase.ACTION2 and state.active == seat
            else:
                assert state.is_over
    a1 = [[s for k, _, s in shown if k == "action1"] for shown in by_player]
    assert len(a1[0]) == len(a1[1]) == sum(g.turns for g in result.games)
    assert all(x is y for x, y in zip(a1[0], a1[1], strict=True))


def game_result(game: int, n: int, winners: tuple[int, ...], scores: tuple[int, ...] | None
                = None) -> GameResult:
    state = new_game(n)
    return GameResult(game, (game - 1) // n, (game - 1) % n, tuple(range(n)),
                      scores or tuple(10 if i in winners else 0 for i in range(n)), winners,
                      30, "R13", (), (0,) * n, state)


def test_ties_are_shared() -> None:
    g = game_result(1, 3, (0, 2))
    assert (g.share(0), g.share(1), g.share(2)) == (0.5, 0.0, 0.5)
    result = MatchResult(("a", "b", "c"), 0, Ruleset(3),
                         (g, game_result(2, 3, (1,)), game_result(3, 3, (0, 1, 2))), ())
    rep = report(result)
    assert [s.wins for s in rep.stats] == [0.5 + 1 / 3, 1 + 1 / 3, 0.5 + 1 / 3]
    assert math.isclose(sum(s.wins for s in rep.stats), 3)
    assert rep.stats[0].win_rate == pytest.approx((0.5 + 1 / 3) / 3)


def test_ci_against_a_hand_computation() -> None:
    """Four deals of two games: player 0's block shares 0.5, 0.75, 0.25, 0.5 (mean 0.5,
    sd sqrt(0.125/3)); the interval is 0.5 -/+ t(0.975, 3) sd / 2 with t = 3.182446305."""
    winners = [(0,), (1,), (0,), (0, 1), (1,), (0, 1), (0,), (1,)]
    result = MatchResult(("a", "b"), 0, Ruleset(2),
                         tuple(game_result(i + 1, 2, w) for i, w in enumerate(winners)), ())
    rep = report(result)
    sd = math.sqrt((0 + 0.25**2 + 0.25**2 + 0) / 3)
    half = 3.182446305284263 * sd / math.sqrt(4)
    assert rep.stats[0].win_rate == 0.5
    assert rep.stats[0].ci95 == pytest.approx((0.5 - half, 0.5 + half), abs=1e-9)
    assert rep.stats[1].ci95 == pytest.approx((0.5 - half, 0.5 + half), abs=1e-9)
    # the pairing matters: the same 8 games taken as independent give another interval
    shares = [1, 0, 1, 0.5, 0, 0.5, 1, 0]
    m = sum(shares) / 8
    naive = 2.3646242510102993 * math.sqrt(sum((x - m) ** 2 for x in shares) / 7 / 8)
    assert not math.isclose(half, naive)


def test_paired_ci_edges() -> None:
    assert paired_ci([0.5]) == (0.0, 1.0)  # one block: the spread is unknown
    assert paired_ci([]) == (0.0, 1.0)
    assert paired_ci([0.5, 0.5, 0.5]) == (0.5, 0.5)
    low, high = paired_ci([0.0, 1.0])
    assert (low, high) == (0.0, 1.0)  # clipped
    low, high = paired_ci([0.2, 0.4, 0.3])
    assert 0 < low < 0.3 < high < 1


class Cheater:
    """Always answers red 12 (R5, or R8 when the white sum is 12)."""

    name = "cheater"

    def new_game(self, seat: int, state: GameState) -> None: ...

    def action1(self, seat: int, state: GameState) -> Mark | None:
        return Mark(Colour.RED, 12)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return Mark(Colour.RED, 12)

    def game_over(self, seat: int, state: GameState) -> None: ...


class Garbage(Cheater):
    name = "garbage"

    def action1(self, seat: int, state: GameState) -> Mark | None:
        return "r8"  # type: ignore[return-value]

    def action2(self, seat: int, state: GameState) -> Mark | None:
        raise RuntimeError("boom")


def test_builtin_illegal_marks_are_faults_with_the_rule_id() -> None:
    """An in-process player's illegal answer is a fault naming the rules core's rule, the
    game, turn and seat; the seat passes (so penalties end the games by R13)."""
    with open_players(["greedy"], Ruleset(2), 1) as (greedy,):
        result = play_match([greedy, Cheater()], 4, 1)
    assert result.faults
    for f in result.faults:
        game = result.games[f.game - 1]
        assert f.player == 1 and f.name == "cheater" and game.seats[f.seat] == 1
        assert 1 <= f.turn <= game.turns
        assert f.message.startswith(f.rule + ":")
        if f.request == "action1":
            assert f.rule in ("R5", "R8")
        else:
            assert f.request == "action2" and f.rule in ("R6", "R8")
    assert {f.rule for f in result.faults} >= {"R5"}
    assert all(g.scores[1] <= 0 for g in result.games)  # it never marked anything
    assert report(result).stats[1].faults == len(result.faults)


def test_builtin_garbage_and_crash_are_faults() -> None:
    with open_players(["random"], Ruleset(2), 1) as (rnd,):
        result = play_match([rnd, Garbage()], 2, 1)
    rules = Counter((f.request, f.rule) for f in result.faults)
    assert set(rules) == {("action1", MALFORMED), ("action2", CRASH)}
    assert all("boom" in f.message for f in result.faults if f.rule == CRASH)


class LateCloser:
    """Closes red with its fifth-or-later mark whenever it can (to provoke R10)."""

    name = "closer"

    def __init__(self, seed: int) -> None:
        self.inner = RandomPlayer(seed)

    def new_game(self, seat: int, state: GameState) -> None: ...

    def action1(self, seat: int, state: GameState) -> Mark | None:
        legal = legal_action1(state, seat)
        closing = [m for m in legal if m.closes]
        if closing:
            return closing[0]
        small = [m for m in legal if m.position - state.sheets[seat].masks[m.colour.index]
                 .bit_length() <= 0]
        return small[0] if small else None

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return self.inner.action2(seat, state)

    def game_over(self, seat: int, state: GameState) -> None: ...


@pytest.mark.parametrize("ruleset", [Ruleset(5, simultaneous_close=False),
                                     Ruleset(5, end_check=EndCheck.SEQUENTIAL)])
def test_dialects_refuse_without_faults(ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """Under the dialects a mark legal on its own may be refused because of another seat's
    simultaneous choice (R10, R14): the seat passes, and it is not a fault."""
    refused = []

    def spy(state: GameState, seat: int) -> tuple[Mark, ...]:
        refused.append(seat)  # the referee asks only about a refused choice
        return legal_action1(state, seat)

    monkeypatch.setattr(match, "legal_action1", spy)
    players = [LateCloser(s) for s in range(5)]
    result = play_match(players, 50, 2, ruleset)
    assert refused
    assert result.faults == ()
    assert all(g.final.is_over for g in result.games)


def test_results_and_report_fields() -> None:
    result = random_match(20, 3, 2)
    for g in result.games:
        final = g.final
        assert final.is_over and final.ended_by == g.ended_by and g.turns == final.turn + 1
        for player, seat in ((p, g.seats.index(p)) for p in range(2)):
            assert g.scores[player] == final.sheets[seat].score
            assert g.rows_closed[player] == len(final.sheets[seat].locked)
        assert set(g.winners) == {g.seats[s] for s in final.winners}
        if g.ended_by == "R13":
            assert all(final.sheets[g.seats.index(p)].penalties == 4 for p in g.enders)
            assert g.enders
    js = report(result).to_json()
    assert js["games"] == 20 and js["players"] == ["random", "random"]
    assert len(js["win_rate"]) == len(js["ci95"]) == len(js["mean_score"]) == 2
    assert math.isclose(sum(js["win_rate"]), 1.0)
    assert js["ended"]["R13"] + js["ended"]["R14"] == 20
    assert all(lo <= w <= hi for w, (lo, hi) in zip(js["win_rate"], js["ci95"], strict=True))


def test_enders_of_a_closing_end() -> None:
    """In greedy games ended by R14 the enders closed a colour in the last turn."""
    with open_players(["greedy", "greedy"], Ruleset(2), 0) as players:
        result = play_match(players, 20, 4)
    r14 = [g for g in result.games if g.ended_by == "R14"]
    assert r14
    for g in r14:
        assert g.enders and len(g.final.closed) >= 2
        assert all(g.rows_closed[p] >= 1 for p in g.enders)


def test_bad_arguments() -> None:
    with open_players(["greedy", "greedy"], Ruleset(2), 0) as players:
        with pytest.raises(ParseError, match="multiple of the 2 players"):
            play_match(players, 3, 0)
        with pytest.raises(ParseError, match="R3"):
            play_match(players[:1], 2, 0)
        with pytest.raises(ParseError, match="R3"):
            play_match(players * 3, 6, 0)
        with pytest.raises(ParseError, match="seed"):
            play_match(players, 2, -1)
        with pytest.raises(ParseError, match="R3"):
            play_match(players, 2, 0, Ruleset(3))
        with pytest.raises(ParseError, match="not a Player"):
            play_match([players[0], object()], 2, 0)  # type: ignore[list-item]


def test_registry() -> None:
    names = player_names()
    assert {"greedy", "random", "solo", "table"} <= set(names)
    assert set(BUILTIN) <= set(names)
    with pytest.raises(ParseError, match="unknown player 'nobody'"):
        make_player("nobody", Ruleset(2), 0)
    assert make_player("table", Ruleset(2), 0).name == "table"  # qwixx_math.players.table
    assert make_player("greedy", Ruleset(2), 0).name == "greedy"
    assert isinstance(make_player("random", Ruleset(2), 0), Player)
    assert player_seed(1, 0) != player_seed(1, 1) != player_seed(2, 1)
    # the players of a match have their own seeds: two random players differ
    result = random_match(10, 9, 2)
    assert any(g.scores[0] != g.scores[1] for g in result.games)


def test_optional_modules_register_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    """A module of PLAYER_MODULES that exists adds its PLAYERS and its lookup(name) for
    names with parameters; one that does not exist is skipped."""
    (tmp_path / "fake_racers.py").write_text(
        "from qwixx_math.players.greedy import GreedyPlayer\n"
        "class Named(GreedyPlayer):\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n"
        "PLAYERS = {'fake': lambda ruleset, seed: Named('fake')}\n"
        "def lookup(name):\n"
        "    if name.startswith('fake-'):\n"
        "        return lambda ruleset, seed: Named(name)\n"
        "    return None\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "PLAYER_MODULES", ("no_such_module_here", "fake_racers"))
    assert "fake" in player_names()
    assert make_player("fake", Ruleset(2), 0).name == "fake"
    assert make_player("fake-7", Ruleset(2), 0).name == "fake-7"
    with pytest.raises(ParseError, match="unknown player 'fak'"):
        make_player("fak", Ruleset(2), 0)
