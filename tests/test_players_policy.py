"""policy:NAME: a solitaire policy in an arena seat (qwixx_math.players.policy)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.arena import open_players, play_match
from qwixx_math.arena.registry import make_player, player_names
from qwixx_math.errors import ParseError
from qwixx_math.play import Dice, play
from qwixx_math.players.policy import PolicyPlayer, lookup
from qwixx_math.policies import make_policy
from qwixx_math.rules import GameState, Phase, legal_action1, legal_action2, new_game
from qwixx_math.ruleset import Ruleset


def test_names() -> None:
    names = player_names()
    assert {"policy:optimal", "policy:fewest-skips", "policy:seed-tips"} <= set(names)
    assert make_player("policy:threshold-4", Ruleset(3), 0).name == "policy:threshold-4"
    with pytest.raises(ParseError, match="lower case"):  # names are read strictly
        make_player("policy:Fewest-Skips", Ruleset(2), 0)
    with pytest.raises(ParseError, match="unknown policy 'bogus'"):
        make_player("policy:bogus", Ruleset(2), 0)
    with pytest.raises(ParseError):
        make_player("policy:threshold-11", Ruleset(2), 0)
    assert lookup("greedy") is None
    with pytest.raises(ParseError):
        PolicyPlayer("optimal")  # type: ignore[arg-type]


@given(st.text(max_size=20))
@settings(max_examples=60, deadline=None)
def test_fuzz_policy_names(text: str) -> None:
    """Any text after policy: is a player or a clear ParseError."""
    try:
        player = make_player("policy:" + text, Ruleset(2), 0)
    except ParseError:
        return
    assert player.name.startswith("policy:")


def _solitaire(state: GameState, seat: int) -> GameState:
    """``seat``'s sheet alone before the roll (no colour closed by another seat)."""
    return GameState(Ruleset(1), (state.sheets[seat],), active=0, closed=state.closed,
                     phase=Phase.ROLL, turn=state.turn)


def test_seats_play_the_policys_plans() -> None:
    """On a 3-player game: every active action 1 is the policy's plan's action 1 on the
    seat's sheet alone, every passive one its action 1 too, and every action 2 the plan's
    action 2 when still legal; all answers are legal."""
    policy = make_policy("fewest-skips")
    seats = [PolicyPlayer(policy) for _ in range(3)]
    game = play(seats, new_game(3), Dice.seeded(5))
    checked = 0
    for turn in game.turns:
        rolled = turn.rolled
        assert rolled is not None and turn.action1 is not None and turn.dropped == ()
        assert not turn.action2_dropped
        for seat in range(3):
            if not all(c in rolled.sheets[seat].locked for c in rolled.closed):
                continue  # a colour another seat closed: not a one-player state
            plan = policy.choose(_solitaire(rolled, seat), rolled.roll)  # type: ignore[arg-type]
            assert turn.action1[seat] == plan.action1
            assert plan.action1 is None or plan.action1 in legal_action1(rolled, seat)
            if seat == rolled.active and turn.end.phase is not Phase.OVER:
                after1, _ = rolled.with_simultaneous_action1(turn.action1)
                want = plan.action2 if plan.action2 in legal_action2(after1) else None
                assert turn.action2 == want
            checked += 1
    assert checked > 30 and game.final.is_over


def test_policy_seats_in_the_arena_make_no_faults() -> None:
    with open_players(["policy:seed-tips", "greedy", "policy:threshold-2"], Ruleset(3),
                      4) as players:
        result = play_match(players, 12, 4)
    assert result.faults == ()
    assert all(g.final.is_over for g in result.games)
    assert any(g.scores[0] > 0 for g in result.games)


def test_optimal_seat() -> None:
    player = make_player("policy:optimal", Ruleset(2), 0)
    greedy = make_player("greedy", Ruleset(2), 1)
    result = play_match([player, greedy], 4, 2)
    assert result.faults == () and len(result.games) == 4
