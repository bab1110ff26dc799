"""The one game loop (qwixx_math.play): its dice, its steps, the rules core's drop rule, and
that the arena, advise_win's rollouts and win-deep play the same game on the same dice."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_arena import Cheater, LateCloser

from qwixx_math import winadvice
from qwixx_math.arena import match, open_players, play_match
from qwixx_math.errors import IllegalMoveError, ParseError, QwixxError
from qwixx_math.model import Colour, Mark, TurnPlan
from qwixx_math.notation import parse_roll
from qwixx_math.play import Dice, Game, play
from qwixx_math.players import win
from qwixx_math.players.base import with_simultaneous_action1
from qwixx_math.players.uniform import RandomPlayer
from qwixx_math.players.win import DeepWinPlayer, WinPlayer
from qwixx_math.rules import GameState, Phase, new_game, random_roll
from qwixx_math.ruleset import EndCheck, Ruleset

# -- the dice --------------------------------------------------------------------------------


def test_dice_are_random_roll_of_all_six_and_kept() -> None:
    """Dice.seeded(s) rolls random_roll(random.Random(s)) turn by turn, the same every time
    a turn is asked; closed colours' dice are left out; Dice.deal is the arena's deal."""
    rng = random.Random(9)
    expected = [random_roll(rng) for _ in range(5)]
    dice = Dice.seeded(9)
    assert [dice.full_roll(k) for k in (4, 0, 1, 2, 3)] == [expected[4], *expected[:4]]
    assert dice.full_roll(2) == expected[2]
    shut = dice.roll(1, frozenset({Colour.YELLOW}))
    assert shut.white == expected[1].white
    assert shut.coloured == (expected[1].coloured[0], None, *expected[1].coloured[2:])
    from qwixx_math.validation import game_seed
    assert Dice.deal(3, 2).full_roll(7) == Dice.seeded(game_seed(3, 2)).full_roll(7)
    assert match.Dice is Dice


def test_scripted_dice() -> None:
    rolls = [parse_roll("w:1,2/r:3/y:4/g:5/b:6"), parse_roll("w:6,6/r:1/y:1/g:1/b:1")]
    dice = Dice.scripted(rolls)
    assert [dice.full_roll(0), dice.full_roll(1)] == rolls
    with pytest.raises(ParseError, match="hold 2 rolls; roll 3"):
        dice.full_roll(2)
    with pytest.raises(ParseError):
        Dice.scripted("w:1,2")  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        Dice(rng=3)  # type: ignore[arg-type]


# -- the loop ---------------------------------------------------------------------------------


def _reference(seats: list[Any], state: GameState, dice: Dice) -> GameState:
    """The loop written out plainly, for comparison: roll, ask all, drop refused marks one
    at a time, ask the active seat, pass an illegal action 2."""
    k = 0
    while not state.is_over:
        rolled = state.with_roll(dice.roll(k, state.closed))
        k += 1
        choices = [p.action1(s, rolled) for s, p in enumerate(seats)]
        while True:
            try:
                after = rolled.with_action1(choices)
                break
            except IllegalMoveError as exc:
                assert exc.player is not None and choices[exc.player] is not None
                choices[exc.player] = None
        if after.phase is Phase.ACTION2:
            mark = seats[after.active].action2(after.active, after)
            try:
                after = after.with_action2(mark)
            except IllegalMoveError:
                after = after.with_action2(None)
        state = after
    return state


class Counting:
    """Wraps a player and counts the decisions it is asked."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = "counting"
        self.asked = 0

    def new_game(self, seat: int, state: GameState) -> None: ...

    def action1(self, seat: int, state: GameState) -> Mark | None:
        self.asked += 1
        mark: Mark | None = self.inner.action1(seat, state)
        return mark

    def action2(self, seat: int, state: GameState) -> Mark | None:
        self.asked += 1
        mark: Mark | None = self.inner.action2(seat, state)
        return mark

    def game_over(self, seat: int, state: GameState) -> None: ...


def _seats(ruleset: Ruleset, seed: int) -> list[Any]:
    return [Counting(RandomPlayer(seed * 10 + s) if s % 2 else LateCloser(s))
            for s in range(ruleset.players)]


@pytest.mark.parametrize("ruleset", [Ruleset(3), Ruleset(5, simultaneous_close=False),
                                     Ruleset(5, end_check=EndCheck.SEQUENTIAL)])
def test_play_matches_a_plain_loop(ruleset: Ruleset) -> None:
    for seed in range(6):
        seats = _seats(ruleset, seed)
        game = play(seats, new_game(ruleset=ruleset), Dice.seeded(seed))
        assert game.final == _reference(_seats(ruleset, seed), new_game(ruleset=ruleset),
                                        Dice.seeded(seed))
        assert game.final.is_over and game.rolls == len(game.turns) == game.final.turn + 1
        assert game.asked == sum(s.asked for s in seats)
        assert all(t.rolled is not None and t.rolled.roll == Dice.seeded(seed).roll(
            k, t.start.closed) for k, t in enumerate(game.turns))


def test_turns_trace_and_start_phases() -> None:
    """``turns`` stops after that many turns; a state in ACTION1 or ACTION2 is played on from
    that step (the rest of the turn is one Turn); dropped choices are in the trace."""
    rs = Ruleset(2)
    seats = [RandomPlayer(1), RandomPlayer(2)]
    dice = Dice.seeded(4)
    three = play(seats, new_game(2), dice, turns=3)
    assert len(three.turns) == 3 and three.rolls == 3 and three.final.phase is Phase.ROLL
    assert three.final.turn == 3 and three.turns[1].start == three.turns[0].end
    assert play(seats, new_game(2), dice, turns=0).final == new_game(2)
    rolled = new_game(ruleset=rs).with_roll(parse_roll("w:3,4/r:1/y:1/g:1/b:1"))
    cheat = play([Cheater(), RandomPlayer(3)], rolled, dice, turns=1)
    first = cheat.turns[0]
    assert cheat.rolls == 0 and first.rolled == rolled and first.dropped == (0,)
    assert first.action1 is not None and first.action1[0] is not None
    assert first.end.sheets[0].penalties == 1  # R11: seat 0 marked nothing and passed action 2
    after1 = rolled.with_action1([None, None])
    rest = play(seats, after1, dice, turns=1)
    assert rest.turns[0].rolled is None and rest.turns[0].action1 is None and rest.asked == 1


def test_refused_reports_every_dropped_choice() -> None:
    seen: list[tuple[str, int, str]] = []

    def refused(request: str, state: GameState, seat: int, mark: Mark,
                exc: IllegalMoveError) -> None:
        seen.append((request, seat, exc.rule))

    game = play([Cheater(), RandomPlayer(1)], new_game(2), Dice.seeded(2), refused=refused)
    dropped = [(s, "action1") for t in game.turns for s in t.dropped] + \
        [(t.end.active if t.end.phase is Phase.OVER else (t.end.active - 1) % 2, "action2")
         for t in game.turns if t.action2_dropped]
    assert sorted((s, r) for r, s, _ in seen) == sorted(dropped)
    assert {rule for _, _, rule in seen} >= {"R5"}


def test_bad_arguments() -> None:
    seats = [RandomPlayer(1), RandomPlayer(2)]
    with pytest.raises(ParseError, match="one seat per player"):
        play(seats[:1], new_game(2), Dice.seeded(1))
    with pytest.raises(ParseError, match="GameState"):
        play(seats, "state", Dice.seeded(1))  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="Dice"):
        play(seats, new_game(2), random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="turns"):
        play(seats, new_game(2), Dice.seeded(1), turns=-1)


# -- the drop rule in the rules core ------------------------------------------------------------


def test_with_simultaneous_action1_drops_only_refused_marks() -> None:
    """R10 under simultaneous_close=False: the second closer's mark is refused and dropped,
    the first's kept; an illegal mark is dropped too; the old name agrees."""
    from qwixx_math.notation import parse_sheet

    rs = Ruleset(3, simultaneous_close=False)
    sheet = parse_sheet("r:2,3,4,5,6")
    state = GameState(rs, (sheet, sheet, parse_sheet("r:-/y:-/g:-/b:-/p:0")),
                      active=0, closed=frozenset(),
                      phase=Phase.ROLL)
    rolled = state.with_roll(parse_roll("w:6,6/r:1/y:1/g:1/b:1"))
    r12, g12 = Mark(Colour.RED, 12), Mark(Colour.GREEN, 12)
    after, refused = rolled.with_simultaneous_action1([r12, r12, Mark(Colour.RED, 11)])
    assert [(e.player, e.rule) for e in refused] == [(1, "R10"), (2, "R5")]
    assert after.action1 == (r12, None, None)
    choices: list[Mark | None] = [r12, r12, g12]
    assert with_simultaneous_action1(rolled, choices) == \
        rolled.with_simultaneous_action1([r12, r12, g12])[0]
    assert choices == [r12, None, g12]
    with pytest.raises(ParseError):
        rolled.with_simultaneous_action1("r12")  # type: ignore[arg-type]


# -- the arena's dice stream, pinned ------------------------------------------------------------

#: Per-game (scores, turns, end) of play_match, recorded before the arena moved onto the
#: one loop (same seeds): the arena's dice and referee must not change.
PINNED = {
    (("greedy", "random"), 4, 3): [((70, 13), 24, "R13"), ((37, -2), 17, "R13"),
                                   ((26, -7), 16, "R13"), ((30, -7), 15, "R13")],
    (("greedy", "random", "racer"), 6, 5): [
        ((24, -8, 42), 20, "R13"), ((43, -9, 61), 21, "R13"), ((42, 8, 88), 28, "R13"),
        ((62, 44, 76), 19, "R14"), ((17, 38, 62), 19, "R14"), ((32, 0, 79), 25, "R13")],
    (("win", "greedy"), 4, 11): [((78, 37), 18, "R14"), ((121, 73), 26, "R14"),
                                 ((91, 45), 21, "R14"), ((104, 75), 29, "R14")],
}


@pytest.mark.parametrize("key", list(PINNED))
def test_arena_results_are_pinned(key: tuple[tuple[str, ...], int, int]) -> None:
    names, games, seed = key
    with open_players(names, Ruleset(len(names)), seed) as players:
        result = play_match(players, games, seed)
    assert [(g.scores, g.turns, g.ended_by) for g in result.games] == PINNED[key]
    assert result.faults == ()


def test_arena_faults_are_pinned() -> None:
    """A cheater's faults: the same games, turns, seats and rules, in the same order."""
    with open_players(["greedy"], Ruleset(2), 1) as (greedy,):
        result = play_match([greedy, Cheater()], 4, 1)
    assert [(g.scores, g.turns) for g in result.games] == [((8, -20), 8), ((6, -20), 7),
                                                           ((16, -20), 8), ((9, -20), 7)]
    assert len(result.faults) == 46
    assert [(f.game, f.turn, f.seat, f.request, f.rule) for f in result.faults[:6]] == [
        (1, 1, 1, "action1", "R5"), (1, 2, 1, "action1", "R5"), (1, 2, 1, "action2", "R6"),
        (1, 3, 1, "action1", "R5"), (1, 4, 1, "action1", "R5"), (1, 4, 1, "action2", "R6")]


def test_dialect_matches_are_pinned() -> None:
    result = play_match([LateCloser(s) for s in range(5)], 5, 2,
                        Ruleset(5, simultaneous_close=False))
    assert [g.scores for g in result.games] == [(24, 17, 33, 67, 0), (9, 0, 35, 37, 39),
                                                (39, 17, 30, 47, 6), (89, 16, 33, 37, 16),
                                                (58, 27, 19, 24, 31)]
    result = play_match([LateCloser(s) for s in range(5)], 5, 2,
                        Ruleset(5, end_check=EndCheck.SEQUENTIAL))
    assert [g.scores[:4] for g in result.games][:4] == [(37, 17, 33, 67), (9, 0, 35, 37),
                                                        (39, 17, 30, 47), (89, 16, 33, 24)]


# -- one game, three callers ------------------------------------------------------------------


class _Script:
    """Stands in for the Dice class in a caller's module: every Dice it makes rolls ``rolls``."""

    def __init__(self, rolls: list[Any]) -> None:
        self.rolls = rolls

    def deal(self, seed: int, deal: int) -> Dice:
        return Dice.scripted(self.rolls)

    def seeded(self, seed: int) -> Dice:
        return Dice.scripted(self.rolls)


def _capture(module: Any, monkeypatch: pytest.MonkeyPatch) -> list[Game]:
    """Every Game the one loop returns to ``module``'s callers (the loop itself unchanged)."""
    games: list[Game] = []

    def spy(*args: Any, **kwargs: Any) -> Game:
        game = play(*args, **kwargs)
        games.append(game)
        return game

    monkeypatch.setattr(module, "play", spy)
    return games


def test_arena_rollouts_and_win_deep_play_the_same_game(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """The same seats (``win`` everywhere) on the same dice: the arena's game, the
    rollout of advise_win's machinery for the plan the arena's seat played in turn 1, and
    a rollout of win-deep from the position after turn 1 end in the same sheets."""
    rs = Ruleset(2)
    first = parse_roll("w:3,4/r:1/y:2/g:5/b:6")
    later = Dice.seeded(17)
    rest = [later.full_roll(k) for k in range(120)]
    seats = [WinPlayer(rs), WinPlayer(rs)]

    # the arena: deal 0 on the first roll and then the rest
    monkeypatch.setattr(match, "Dice", _Script([first, *rest]))
    arena = play_match(seats, 2, 0).games[0]
    assert arena.seats == (0, 1)
    reference = play(seats, new_game(2), Dice.scripted([first, *rest]))
    assert arena.final == reference.final
    turn1 = reference.turns[0]
    assert turn1.action1 is not None
    plan = TurnPlan(turn1.action1[0], turn1.action2)

    # advise_win's rollouts: the plan of seat 0 from the rolled state, then the rest
    monkeypatch.setattr(winadvice, "Dice", _Script(rest))
    rollouts = _capture(winadvice, monkeypatch)
    shares, ended = winadvice.rollout_shares(turn1.rolled, 0, [plan], seats, 2, seed=0)
    assert len(rollouts) == 2 and not ended[0]
    for game in rollouts:
        assert game.final.sheets == arena.final.sheets
        assert game.final.ended_by == arena.final.ended_by
    assert shares == [[arena.share(0)] * 2]

    # win-deep's rollouts: from the position after turn 1, to the end (a long horizon)
    monkeypatch.setattr(win, "Dice", _Script(rest))
    deep_games = _capture(win, monkeypatch)
    deep = DeepWinPlayer(rs, horizon=1000)
    after1 = turn1.end
    share = deep._rollout(0, (after1.sheets, after1.closed), after1.active, seed=0)
    (game,) = deep_games
    assert game.final.sheets == arena.final.sheets and game.final.ended_by == arena.final.ended_by
    assert share == arena.share(0)


_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
                  st.text(max_size=8), st.lists(st.integers(0, 7), max_size=3))


@given(seed=_JUNK, rolls=_JUNK, turns=_JUNK, seats=st.integers(0, 3))
@settings(max_examples=150, deadline=None)
def test_fuzz_entry_points(seed: Any, rolls: Any, turns: Any, seats: int) -> None:
    """The loop's entry points take anything: a result, or a QwixxError naming the
    problem (never another exception)."""
    for make in (lambda: Dice.seeded(seed), lambda: Dice.scripted(rolls),
                 lambda: Dice.deal(3, seed)):
        with contextlib.suppress(QwixxError):
            make().full_roll(0)
    players = [RandomPlayer(s) for s in range(seats)]
    try:
        game = play(players, new_game(2), Dice.seeded(1), turns=turns)
    except QwixxError:
        return
    assert seats == 2
    assert game.final.is_over if turns is None else len(game.turns) <= turns
