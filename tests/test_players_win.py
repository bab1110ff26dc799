"""The ``win`` players: legal answers, determinism, exact terminal values, the model file."""

from __future__ import annotations

import json
from itertools import product

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import game_states, rulesets

from qwixx_math.errors import ParseError
from qwixx_math.model import Colour, Sheet
from qwixx_math.notation import parse_roll, parse_sheet
from qwixx_math.players import Player
from qwixx_math.players.race import FEATURES, N_FEATURES, RaceSummary, terminal_share
from qwixx_math.players.win import PLAYERS, DeepWinPlayer, WinModel, WinPlayer, load_model
from qwixx_math.rules import GameState, Phase, legal_action1, legal_action2
from qwixx_math.ruleset import Ruleset

_PHASES = (Phase.ACTION1, Phase.ACTION2)


def _answers(player: Player, state: GameState) -> list[object]:
    if state.phase is Phase.ACTION1:
        out: list[object] = []
        for seat in range(state.players):
            mark = player.action1(seat, state)
            assert mark is None or mark in legal_action1(state, seat), (seat, mark)
            out.append(mark)
        return out
    mark = player.action2(state.active, state)
    assert mark is None or mark in legal_action2(state), mark
    return [mark]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(_PHASES))
def test_win_answers_only_legal_marks_and_is_deterministic(state: GameState) -> None:
    a = PLAYERS["win"](state.ruleset, 1)
    b = PLAYERS["win"](state.ruleset, 2)
    assert _answers(a, state) == _answers(b, state)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(_PHASES).filter(lambda s: s.players >= 2))
def test_win_deep_answers_only_legal_marks_and_is_deterministic(state: GameState) -> None:
    a = DeepWinPlayer(state.ruleset, seed=5, rollouts=2, top=2)
    b = DeepWinPlayer(state.ruleset, seed=5, rollouts=2, top=2)
    assert _answers(a, state) == _answers(b, state)


def test_terminal_share_is_r18_by_brute_force() -> None:
    scores = [parse_sheet(t) for t in ("r:2,3/p:0", "r:2/y:2,3/p:1", "y:2,3/p:0", "p:0")]
    for combo in product(scores, repeat=3):
        totals = [s.score for s in combo]
        for seat in range(3):
            winners = [i for i, t in enumerate(totals) if t == max(totals)]
            want = 1 / len(winners) if seat in winners else 0.0
            assert terminal_share(combo, seat) == want


def test_a_finished_position_is_valued_exactly() -> None:
    """Closing the second colour while ahead wins for sure: the player takes it."""
    rs = Ruleset(players=2)
    me = parse_sheet("r:2,3,4,5,6/y:2,3,4,5,6,7/g:12,11/p:0")
    them = parse_sheet("g:12,11,10,9,8,2,lock/p:0")
    state = GameState(rs, (me, them), closed=them.locked)
    rolled = state.with_roll(parse_roll("w:6,6/r:1/y:1/b:1"))
    assert me.with_mark(Colour.RED, 12).score > them.score
    player = WinPlayer(rs)
    assert str(player.action1(0, rolled)) in ("r12", "y12")


def test_features_have_the_documented_length() -> None:
    rs = Ruleset(players=3)
    summary = RaceSummary(WinPlayer(rs).summary.advisor, 3)
    x = summary.features((Sheet.EMPTY,) * 3, frozenset(), 0, 0)
    assert x.shape == (N_FEATURES,) == (len(FEATURES),)
    assert x[FEATURES.index("score_lead")] == 0.0
    assert x[FEATURES.index("my_roll")] == 1.0


def test_the_model_round_trips_and_bad_models_are_rejected() -> None:
    model = load_model()
    again = WinModel.from_json(json.loads(json.dumps(model.to_json())))
    x = np.zeros((2, N_FEATURES))
    assert np.array_equal(model.predict(x), again.predict(x))
    assert ((model.predict(x) > 0) & (model.predict(x) < 1)).all()
    with pytest.raises(ParseError):
        WinModel.from_json({"w1": [[1.0]]})
    bad = model.to_json()
    bad["mean"] = [0.0]
    with pytest.raises(ParseError):
        WinModel.from_json(bad)


@settings(max_examples=10, deadline=None)
@given(rs=rulesets(st.integers(2, 5)))
def test_every_factory_builds_a_player(rs: Ruleset) -> None:
    for name, make in PLAYERS.items():
        player = make(rs, 0)
        assert isinstance(player, Player) and player.name == name


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states((Phase.ACTION1,)).filter(lambda s: s.players >= 2))
def test_win_deep_without_passive_search_plays_passive_choices_like_win(
        state: GameState) -> None:
    deep = DeepWinPlayer(state.ruleset, seed=5, rollouts=2, top=2, margin=1.0, passive=False)
    fast = WinPlayer(state.ruleset)
    for seat in range(state.players):
        if seat != state.active:
            assert deep.action1(seat, state) == fast.action1(seat, state)
