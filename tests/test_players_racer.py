"""The race-to-lock family: legal answers, determinism, and the exact Markov restriction."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import game_states

from qwixx_math.errors import ParseError
from qwixx_math.keys import OPEN_CODES, open_code
from qwixx_math.model import LAST_POSITION, LOCK_THRESHOLD
from qwixx_math.players import Player
from qwixx_math.players.racer import PLAYERS, RACERS, Racer, RacerParams, turns_to_five
from qwixx_math.rules import GameState, Phase, legal_action1, legal_action2
from qwixx_math.ruleset import Ruleset

_PHASES = (Phase.ACTION1, Phase.ACTION2)


def _check_legal(player: Player, state: GameState) -> None:
    if state.phase is Phase.ACTION1:
        for seat in range(state.players):
            mark = player.action1(seat, state)
            assert mark is None or mark in legal_action1(state, seat), (seat, mark)
    else:
        mark = player.action2(state.active, state)
        assert mark is None or mark in legal_action2(state), mark


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(_PHASES), name=st.sampled_from(sorted(PLAYERS)))
def test_racers_answer_only_legal_marks(state: GameState, name: str) -> None:
    player = PLAYERS[name](state.ruleset, 0)
    assert isinstance(player, Player)
    _check_legal(player, state)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(_PHASES),
       params=st.builds(RacerParams, skip=st.integers(0, 4), markov=st.booleans(),
                        slack=st.floats(-1, 3), skip_after=st.integers(0, 10),
                        avoid_penalty=st.integers(-1, 5), passive=st.booleans()))
def test_every_member_answers_legally_and_deterministically(state: GameState,
                                                            params: RacerParams) -> None:
    a, b = Racer(state.ruleset, params), Racer(state.ruleset, params)
    _check_legal(a, state)
    if state.phase is Phase.ACTION1:
        assert [a.action1(s, state) for s in range(state.players)] == \
            [b.action1(s, state) for s in range(state.players)]
    else:
        assert a.action2(state.active, state) == b.action2(state.active, state)


def test_a_racer_closes_whenever_legal() -> None:
    from qwixx_math.notation import parse_roll, parse_sheet

    rs = Ruleset(players=2)
    sheet = parse_sheet("r:2,3,4,5,6/p:0")
    state = GameState(rs, (sheet, sheet)).with_roll(parse_roll("w:6,6/r:1/y:1/g:1/b:1"))
    for name in RACERS:
        racer = Racer(rs, RACERS[name])
        assert str(racer.action1(0, state)) == "r12"
        assert str(racer.action1(1, state)) == "r12"


def test_params_are_checked() -> None:
    with pytest.raises(ParseError):
        RacerParams(skip=11)
    with pytest.raises(ParseError):
        turns_to_five(6)


# -- the Markov restriction against exact hand-made chains ----------------------------------------

def _red_pos(n: int) -> int:
    return n - 2


def _p_any(targets: set[int], active: bool) -> Fraction:
    """P(some number at a position in ``targets`` is markable this roll), by enumeration."""
    hits = total = 0
    for dice in product(range(1, 7), repeat=3 if active else 2):
        w1, w2 = dice[0], dice[1]
        options = {_red_pos(w1 + w2)}
        if active:
            options |= {_red_pos(w1 + dice[2]), _red_pos(w2 + dice[2])}
        hits += bool(options & targets)
        total += 1
    return Fraction(hits, total)


@pytest.mark.parametrize("last", [3, 5, 7])
def test_one_mark_short_matches_the_closed_form(last: int) -> None:
    """Four marks, rightmost at ``last``: any mark in last+1..9 reaches five, so the time is
    geometric (solitaire) or a two-phase geometric chain (two players)."""
    code = open_code(last, 4)
    targets = set(range(last + 1, LAST_POSITION))
    pa, pp = _p_any(targets, True), _p_any(targets, False)
    assert turns_to_five(1)[0][code] == pytest.approx(float(1 / pa), rel=1e-12)
    # E0 = 1 + (1 - pa) E1, E1 = 1 + (1 - pp) E0
    e0 = (1 + (1 - pa)) / (1 - (1 - pa) * (1 - pp))
    e1 = 1 + (1 - pp) * e0
    table = turns_to_five(2)
    assert table[0][code] == pytest.approx(float(e0), rel=1e-12)
    assert table[1][code] == pytest.approx(float(e1), rel=1e-12)


def _bellman(table: tuple[tuple[float, ...], ...], players: int) -> list[list[float]]:
    """One application of the Bellman operator, written out naively over every roll."""
    states = [(-1, 0)] + [(p, c) for p in range(LAST_POSITION) for c in range(1, p + 2)]

    def val(k: int, last: int, count: int) -> float:
        if count >= LOCK_THRESHOLD:
            return 0.0
        return table[k][open_code(None if last < 0 else last, count)]

    out = [[0.0] * OPEN_CODES for _ in range(players)]
    for last, count in states:
        code = open_code(None if last < 0 else last, count)
        for k in range(players):
            if count >= LOCK_THRESHOLD or count + LAST_POSITION - 1 - last < LOCK_THRESHOLD:
                out[k][code] = table[k][code]
                continue
            nk = players - 1 if k == 0 else k - 1
            total = 0.0
            rolls = list(product(range(1, 7), repeat=3 if k == 0 else 2))
            for dice in rolls:
                best = val(nk, last, count)  # no mark
                s = _red_pos(dice[0] + dice[1])
                firsts = [(last, count)] + ([(s, count + 1)] if last < s < LAST_POSITION else [])
                for l1, c1 in firsts:
                    best = min(best, val(nk, l1, c1))
                    if k == 0:
                        for w in (dice[0], dice[1]):
                            q = _red_pos(w + dice[2])
                            if l1 < q < LAST_POSITION:
                                best = min(best, val(nk, q, c1 + 1))
                total += best
            out[k][code] = 1 + total / len(rolls)
    return out


@pytest.mark.parametrize("players", [1, 2, 3])
def test_turns_to_five_is_the_bellman_fixed_point(players: int) -> None:
    table = turns_to_five(players)
    again = _bellman(table, players)
    for k in range(players):
        for code in range(OPEN_CODES):
            a, b = table[k][code], again[k][code]
            assert a == b or a == pytest.approx(b, rel=1e-9), (k, code)
    # an empty row can always reach five marks
    assert 0 < table[0][0] < float("inf")
