"""The ``lookahead`` player (qwixx_math/players/lookahead.py): legal on every pad (each game
replayed through the validator), deterministic for a seed, and on the official sheet its
evaluation is the solver's value and its choices the solver's best plans.  No score or
win-rate assertion: its figures are benchmarks/bench_strong_pads.py's."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from test_arena_layouts import LAYOUTS
from test_arena_longo import _Log, _Recorder

from qwixx_math.arena import play_match
from qwixx_math.arena.registry import make_player, player_names
from qwixx_math.errors import ParseError
from qwixx_math.layouts import (
    BIG_POINTS,
    BONUS_B,
    CONNECTED_CHAIN,
    DOUBLE_A,
    DOUBLE_B,
    OFFICIAL,
    SheetLayout,
)
from qwixx_math.model import Colour, Sheet
from qwixx_math.players import lookahead
from qwixx_math.players.base import Player
from qwixx_math.players.lookahead import (
    CHAIN_SHARE,
    Evaluation,
    LookaheadPlayer,
    evaluation_for,
    stand_in_name,
)
from qwixx_math.rules import GameState, Phase, new_game, random_roll
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import SolverTable, Variant, cache_dir
from qwixx_math.solver.cache import table_filename
from qwixx_math.validation import validate_record

#: The pads whose evaluation stands on the official table (cheap: the tests solve it once).
ON_OFFICIAL = {"connected-chain": CONNECTED_CHAIN, "bonus-b": BONUS_B,
               "big-points": BIG_POINTS}


def _score(sheet: Sheet, closed: frozenset[Colour]) -> float:
    return float(sheet.score)


#: An evaluation without a table (the legality of a choice never depends on its value).
BY_SCORE = Evaluation("the sheet's score now", False, _score)


def _double_b_cached() -> bool:
    return (cache_dir() / table_filename(Variant(DOUBLE_B), False, 1)).exists()


def _validated(players: list[Player], layout: SheetLayout, ruleset: Ruleset, games: int = 2,
               seed: int = 3) -> None:
    """A seeded match of ``players`` on ``layout``: no fault (the referee found every answer
    legal), and every game's record replays clean through the validator with its scores."""
    log = _Log()
    result = play_match([_Recorder(p, log) for p in players], games, seed,  # type: ignore[misc]
                        ruleset=ruleset, layout=layout)
    assert result.faults == ()
    assert len(log.records) == games
    for game, record in zip(result.games, log.records, strict=True):
        report = validate_record(record, dialects=False)
        assert report.valid, report.violations[:3]
        assert report.scores == game.final.scores


def solitaire(player: Player, layout: SheetLayout, seed: int) -> GameState:
    """A solitaire game through the rules core, which raises on any illegal choice."""
    rng = random.Random(seed)
    state = new_game(ruleset=Ruleset(1), layout=layout)
    player.new_game(0, state)
    while state.phase is not Phase.OVER:
        rolled = state.with_roll(random_roll(rng, state.dice_in_play, layout.faces))
        state = rolled.with_action1([player.action1(0, rolled)])
        if state.phase is Phase.ACTION2:
            state = state.with_action2(player.action2(0, state))
    return state


def test_registered() -> None:
    assert "lookahead" in player_names()
    player = make_player("lookahead", Ruleset(2), 0)
    assert isinstance(player, LookaheadPlayer) and player.name == "lookahead"


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_plays_every_pad_legally(name: str) -> None:
    """Its moves come from the rules core on any pad: with a table-free evaluation, two
    seats of it against greedy (active and passive choices), validated."""
    layout = LAYOUTS[name]
    players: list[Player] = [LookaheadPlayer(evaluation=BY_SCORE),
                             make_player("greedy", Ruleset(3), 0, layout=layout),
                             LookaheadPlayer(evaluation=BY_SCORE)]
    _validated(players, layout, Ruleset(3), games=3)


@pytest.mark.parametrize("name", [*ON_OFFICIAL, "official"])
def test_registered_player_plays_the_stand_in_pads_legally(name: str) -> None:
    """The registered player, its evaluation built from the official table, at a table of
    two (solitaire games, through the rules core, are test_deterministic_for_a_seed's)."""
    layout = ON_OFFICIAL.get(name, OFFICIAL)
    _validated([make_player("lookahead", Ruleset(2), 0), make_player("greedy", Ruleset(2), 0)],
               layout, Ruleset(2), games=2, seed=11)


@pytest.mark.skipif(not _double_b_cached(), reason="the double-b table is not in the cache "
                    "(the tests never solve it: minutes)")
def test_registered_player_plays_double_a_legally() -> None:
    _validated([make_player("lookahead", Ruleset(2), 0), make_player("greedy", Ruleset(2), 0)],
               DOUBLE_A, Ruleset(2), games=2, seed=13)
    evaluation = evaluation_for(DOUBLE_A)
    assert not evaluation.exact and "double-b" in evaluation.name


@pytest.mark.parametrize("name", [*ON_OFFICIAL, "official"])
def test_deterministic_for_a_seed(name: str) -> None:
    """Two solitaire games on the same dice, each choice checked by the rules core (which
    raises on an illegal one), end alike."""
    layout = ON_OFFICIAL.get(name, OFFICIAL)
    for seed in (1, 2):
        one = solitaire(LookaheadPlayer(Ruleset(1)), layout, seed)
        two = solitaire(LookaheadPlayer(Ruleset(1)), layout, seed)
        assert one == two and one.sheets == two.sheets


def test_evaluation_on_the_official_sheet_is_the_solvers_value(
        official_table: SolverTable) -> None:
    """Positions of random games: the evaluation is the table's value, and the active
    player's plan is one the solver ranks best (another tied plan only on an exact tie)."""
    evaluation = evaluation_for(OFFICIAL, Ruleset(1))
    assert evaluation.exact
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = new_game(1)
        greedy = make_player("greedy", Ruleset(1), 0)
        while state.phase is not Phase.OVER:
            closed = state.closed
            sheet = state.sheets[0]
            assert evaluation.value(sheet, closed) == official_table.value(sheet, closed)
            roll = random_roll(rng, state.dice_in_play)
            rolled = state.with_roll(roll)
            mine = LookaheadPlayer(Ruleset(1), evaluation).action1(0, rolled)
            ranked = official_table.plan_values(rolled)
            best = ranked[0].value
            assert mine in {pv.plan.action1 for pv in ranked if pv.value == best}
            checked += 1
            a1 = greedy.action1(0, rolled) if seed % 2 else mine  # also off the best path
            state = rolled.with_action1([a1])
            if state.phase is Phase.ACTION2:
                state = state.with_action2(greedy.action2(0, state))
    assert checked > 50


def test_stand_in_values_read_the_official_table(official_table: SolverTable,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Chain: the official value of the same crosses (and, by CHAIN_SHARE, more for free
    partner crosses to come); Bonus B: plus the symbols' points
    now (and, by SYMBOL_SHARE, more for symbols still to complete); Big Points without
    bonus crosses: the official value."""
    masks = (0b1011, 0b10010, 0b1000010, 0)  # red 2,3,5; yellow 3,6; green 11,6
    plain = Sheet(masks, 1)
    want = official_table.value(plain, {Colour.BLUE})
    chain = Sheet.parse("connected-chain|r:2,3,5,6/y:3,6/g:11/p:1")  # pairs y3-g11, r6-y6
    assert evaluation_for(CONNECTED_CHAIN).value(chain, frozenset({Colour.BLUE})) \
        == official_table.value(Sheet(chain.masks, 1), {Colour.BLUE})
    bonus = Sheet(masks, 1, BONUS_B)
    hoping = evaluation_for(BONUS_B).value(bonus, frozenset({Colour.BLUE}))
    skipped = Sheet.parse("connected-chain|y:2,7/p:1")  # y6 and y3 passed over, not crossed
    free = evaluation_for(CONNECTED_CHAIN).value(skipped, frozenset())
    monkeypatch.setattr(lookahead, "SYMBOL_SHARE", 0.0)
    monkeypatch.setattr(lookahead, "CHAIN_SHARE", 0.0)
    # r6 and g11 would bring y6 and y3 free (CC2), each the third yellow cross: 3 + 3
    assert free - evaluation_for(CONNECTED_CHAIN).value(skipped, frozenset()) \
        == pytest.approx(6 * CHAIN_SHARE)
    assert evaluation_for(BONUS_B).value(bonus, frozenset({Colour.BLUE})) \
        == want + bonus.score - plain.score < hoping  # the star (Y3, G5) can still come
    big = Sheet(masks, 1, BIG_POINTS)
    assert evaluation_for(BIG_POINTS).value(big, frozenset({Colour.BLUE})) == want


def test_bad_input_is_refused() -> None:
    with pytest.raises(ParseError):
        evaluation_for("no-such-pad")
    with pytest.raises(ParseError):
        evaluation_for(3)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        evaluation_for(OFFICIAL, "official")  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        LookaheadPlayer(evaluation=_score)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        LookaheadPlayer("r")  # type: ignore[arg-type]


def test_stand_ins_follow_the_feature_not_the_name() -> None:
    """Another Chain sheet (a layout file with five of sheet A's pairs) gets the Chain's
    stand-in and is played legally; the published pads get theirs; solved pads none."""
    data = CONNECTED_CHAIN.to_json()
    data["name"] = "chain-five"
    data["chain"] = data["chain"][:5]  # type: ignore[index]
    five = SheetLayout.from_json(data)
    assert five != CONNECTED_CHAIN and stand_in_name(five) == "connected-chain"
    assert [stand_in_name(la) for la in (DOUBLE_A, CONNECTED_CHAIN, BONUS_B, BIG_POINTS)] \
        == ["double-a", "connected-chain", "bonus-b", "big-points"]
    assert all(stand_in_name(LAYOUTS[n]) is None
               for n in ("official", "double-b", "longo", "bonus-a", "x-change"))
    _validated([make_player("lookahead", Ruleset(2), 0), make_player("greedy", Ruleset(2), 0)],
               five, Ruleset(2), games=2, seed=14)
    with pytest.raises(ParseError):
        stand_in_name("connected-chain")  # type: ignore[arg-type]


def _bench_openings(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[tuple[float, str]]]:
    """benchmarks/bench_strong_pads.py's ``openings`` (the benchmark is not in the package)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_strong_pads

    return bench_strong_pads.openings


def test_openings_on_the_official_sheet_are_the_tables(
        official_table: SolverTable, monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's first crosses (found through the rules core, on every first roll) are
    the 40 cells that are not a lock number, each valued as the exact table values the
    sheet with that one cross (Sheet.from_marks), minus the start value."""
    openings = _bench_openings(monkeypatch)
    found = openings(OFFICIAL, Ruleset(1), evaluation_for(OFFICIAL, Ruleset(1)))
    expected = {
        f"{colour.letter}{number}":
            official_table.value(Sheet.from_marks({colour: [number]})) - official_table.start_value
        for colour, numbers in zip(OFFICIAL.locks, OFFICIAL.numbers, strict=True)
        for number in numbers[:-1]}
    assert len(found) == 40
    assert {mark: value for value, mark in found} == pytest.approx(expected, abs=1e-9)
    assert [value for value, _ in found] == sorted(expected.values(), reverse=True)
    assert {mark for _, mark in found[:4]} == {"r2", "y2", "g12", "b12"}


def test_openings_apply_the_chain_partner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Valued by the score, a first cross on a Chain cell scores 2 (its partner crossed too,
    CC2), any other non-lock cell 1: the rules core applies the partner."""
    openings = _bench_openings(monkeypatch)
    found = {mark: value for value, mark in openings(CONNECTED_CHAIN, Ruleset(1), BY_SCORE)}
    chained = {cell for pair in CONNECTED_CHAIN.chain for cell in pair}
    expected = {
        f"{colour.letter}{numbers[position]}": 2.0 if (row, position) in chained else 1.0
        for row, (colour, numbers) in enumerate(zip(CONNECTED_CHAIN.locks,
                                                    CONNECTED_CHAIN.numbers, strict=True))
        for position in range(len(numbers) - 1)}
    assert found == expected
