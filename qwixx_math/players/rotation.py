"""Seat-rotated games on common dice: the measurement of benchmarks/bench_win.py.

A **deal** is a seed: game ``play(players, ruleset, seed)`` draws all six dice every
turn from ``random.Random(seed)`` (a closed colour's die is drawn and ignored), so
the dice of a deal do not depend on the players.  :func:`rotated` plays one deal
once per cyclic rotation of the seats, so each player sits in every seat on the
same luck; a player's share of the win (ties shared, R18) averaged over the
rotations is one paired observation.  Used by ``benchmarks/bench_win.py`` (the
figures of docs/winning.md) and by the policy search
(:mod:`qwixx_math.players.winsearch`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..model import COLOURS, Colour, Roll
from ..rules import GameState, Phase, new_game
from ..ruleset import Ruleset
from .base import Player

__all__ = ["next_roll", "play", "rotated"]


def next_roll(rng: random.Random, closed: frozenset[Colour]) -> Roll:
    """The next roll of a deal: all six dice drawn from ``rng`` (white, white, then the
    colours in order), a closed colour's die ignored."""
    d = [rng.randint(1, 6) for _ in range(6)]
    return Roll.unchecked((d[0], d[1]), (
        None if COLOURS[0] in closed else d[2],
        None if COLOURS[1] in closed else d[3],
        None if COLOURS[2] in closed else d[4],
        None if COLOURS[3] in closed else d[5]))


def play(players: Sequence[Player], ruleset: Ruleset, seed: int,
         timer: list[float] | None = None, timed: int = -1) -> GameState:
    """One game on the dice of ``seed``; times seat ``timed``'s decisions into ``timer``."""
    rng = random.Random(seed)
    state = new_game(ruleset=ruleset)
    for s, p in enumerate(players):
        p.new_game(s, state)
    clock = time.perf_counter
    while state.phase is not Phase.OVER:
        state = state.with_roll(next_roll(rng, state.closed))
        choices = []
        for s, p in enumerate(players):
            t = clock()
            choices.append(p.action1(s, state))
            if s == timed and timer is not None:
                timer.append(clock() - t)
        state = state.with_action1(choices)
        if state.phase is Phase.ACTION2:
            t = clock()
            state = state.with_action2(players[state.active].action2(state.active, state))
            if state.active == timed and timer is not None:
                timer.append(clock() - t)
    for s, p in enumerate(players):
        p.game_over(s, state)
    return state


def rotated(players: Sequence[Player], ruleset: Ruleset,
            seed: int) -> tuple[list[float], list[list[int]]]:
    """The deal ``seed`` played once per cyclic rotation of the seats.

    Returns each player's share of the win averaged over the rotations (they sum to 1)
    and each player's final score in every rotation.
    """
    k = len(players)
    got = [0.0] * k
    scores: list[list[int]] = [[] for _ in range(k)]
    for r in range(k):
        order = [(i + r) % k for i in range(k)]
        final = play([players[i] for i in order], ruleset, seed)
        winners = final.winners
        for s, i in enumerate(order):
            if s in winners:
                got[i] += 1 / len(winners)
            scores[i].append(final.sheets[s].score)
    return [g / k for g in got], scores
