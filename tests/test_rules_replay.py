"""Seeded random games replay: the same games as stored, and random_turn is the plain steps.

``random_game`` plays each turn through :func:`qwixx_math.rules.random_turn`, which draws
the roll and applies an offered action-2 mark without the checks of ``with_roll`` and
``with_action2`` and lists action 1 straight from the layout's lister.  Two tests hold it:

* the hashes of seeded games on every pad, every chooser and three rulesets (every
  dialect switch and pad Option) are those stored in ``tests/data/replay_hashes.json``,
  written before the quick paths (so a changed legal move, order or roll fails);
* each turn of seeded games equals the same turn played through the public, checked
  steps (``random_roll``, ``with_roll``, ``legal_action1``, ``with_simultaneous_action1``,
  ``legal_action2``, ``with_action2``) with a copy of the generator: same roll, same
  choices, same state after the turn.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replay_cases import PADS, cases, game_hashes

from qwixx_math.errors import IllegalMoveError, ParseError, QwixxError
from qwixx_math.model import Colour, Mark, Roll
from qwixx_math.record import Chooser, uniform_chooser
from qwixx_math.rules import (
    GameState,
    Phase,
    legal_action1,
    legal_action2,
    new_game,
    random_roll,
    random_turn,
)
from qwixx_math.ruleset import Ruleset

STORED = Path(__file__).parent / "data" / "replay_hashes.json"


def test_seeded_games_are_the_stored_games() -> None:
    stored = json.loads(STORED.read_text())
    hashes = game_hashes(stored["games"])
    assert set(hashes) == set(stored["cases"])
    differ = sorted(k for k in hashes if hashes[k] != stored["cases"][k])
    assert not differ, f"seeded games changed: {differ}"


def plain_turn(state: GameState, rng: random.Random, chooser: Chooser,
               refusals: list[IllegalMoveError] | None = None
               ) -> tuple[GameState, Roll, tuple[Mark | None, ...], Mark | None]:
    """A turn of random_game through the public, checked steps (the action-1 choices
    another's forbids, dropped, appended to ``refusals``)."""
    roll = random_roll(rng, state.dice_in_play, state.layout.faces)
    rolled = state.with_roll(roll)
    wanted = [chooser(rolled, i, legal_action1(rolled, i), rng) for i in range(state.players)]
    after, refused = rolled.with_simultaneous_action1(wanted)
    choices = list(wanted)
    if refusals is not None:
        refusals.extend(refused)
    for error in refused:
        assert error.player is not None
        choices[error.player] = None
    if after.phase is not Phase.ACTION2:
        return after, roll, tuple(choices), None
    mark = chooser(after, state.active, legal_action2(after), rng)
    return after.with_action2(mark), roll, tuple(choices), mark


@pytest.mark.parametrize("case", [name for name, *_ in cases()])
def test_random_turn_is_the_plain_steps(case: str) -> None:
    _, layout, ruleset, chooser = next(c for c in cases() if c[0] == case)
    turns = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(ruleset=ruleset, layout=layout, first=seed % ruleset.players)
        while not state.is_over:
            twin = copy.deepcopy(rng)
            got = random_turn(state, rng, chooser)
            want = plain_turn(state, twin, chooser)
            assert got == want, (case, seed, state.describe())
            assert rng.getstate() == twin.getstate()
            state = got[0]
            turns += 1
    assert turns > 0


def test_the_dialect_games_meet_refused_choices() -> None:
    """Under simultaneous_close=False and end_check=sequential the games above meet action-1
    choices that another player's choice forbids (random_turn drops them too)."""
    refusals: list[IllegalMoveError] = []
    for name, layout, ruleset, chooser in cases():
        if "/dialects/" in name:
            for seed in range(3):
                rng = random.Random(seed)
                state = new_game(ruleset=ruleset, layout=layout, first=seed % ruleset.players)
                while not state.is_over:
                    state = plain_turn(state, rng, chooser, refusals)[0]
    assert {e.rule for e in refusals} == {"R10", "R14"}


def test_random_turn_checks_a_mark_it_did_not_offer() -> None:
    """A chooser's action-2 mark that is not one of the listed marks is checked as
    with_action2 checks it: refused when illegal (the same error), applied when equal to
    a legal one."""
    def red_two(state: GameState, player: int, legal: Sequence[Mark], rng: random.Random
                ) -> Mark | None:
        return Mark(Colour.RED, 2) if state.phase is Phase.ACTION2 else None

    refused = 0
    for seed in range(10):
        try:
            plain_turn(new_game(2), random.Random(seed), red_two)
        except IllegalMoveError as plain:
            with pytest.raises(IllegalMoveError) as fast:
                random_turn(new_game(2), random.Random(seed), red_two)
            assert (fast.value.rule, str(fast.value)) == (plain.rule, str(plain))
            refused += 1
    assert refused > 0

    def copied(state: GameState, player: int, legal: Sequence[Mark], rng: random.Random
               ) -> Mark | None:  # an equal mark, not the listed object
        return Mark(legal[0].colour, legal[0].number) if legal else None

    for seed in range(20):
        game = new_game(3)
        assert random_turn(game, random.Random(seed), copied) \
            == plain_turn(game, random.Random(seed), copied)


def test_random_turn_refuses_bad_arguments() -> None:
    game = new_game(2)
    rolled = game.with_roll(random_roll(random.Random(0)))
    with pytest.raises(IllegalMoveError) as info:
        random_turn(rolled, random.Random(0), uniform_chooser)
    assert info.value.rule == "R4"
    with pytest.raises(ParseError):
        random_turn(game, 3, uniform_chooser)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        random_turn("game", random.Random(0), uniform_chooser)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        random_turn(game, random.Random(0), "uniform")  # type: ignore[arg-type]


def test_every_pad_is_replayed() -> None:
    assert {"official", "double-a", "big-points", "x-change", "bonus-a", "bonus-b",
            "connected-chain", "longo", "longo:5,13"} <= set(PADS)
    assert Ruleset(4) in {rs for _, _, rs, _ in cases()}


_JUNK = [None, 0, -1, 2 ** 70, "", "r8", 1.5, b"r", [], (None,), {"a": 1}, object(),
         Colour.RED, Phase.ROLL, Mark(Colour.RED, 3), Ruleset(), random.Random(2)]


@settings(max_examples=200, deadline=None, database=None)
@given(state=st.sampled_from([new_game(2), new_game(1, layout="big-points"),
                              new_game(3).with_roll(random_roll(random.Random(1)))])
       | st.sampled_from(_JUNK),
       rng=st.just(random.Random(5)) | st.sampled_from(_JUNK),
       kind=st.sampled_from(["uniform", "returns", "is"]),
       junk=st.sampled_from(_JUNK))
def test_random_turn_raises_only_documented_errors(state: object, rng: object, kind: str,
                                                   junk: object) -> None:
    """Any state, generator and chooser (the uniform one, a function returning anything,
    or no function at all): a turn is played or a QwixxError says what is wrong."""

    def returns_junk(state: GameState, player: int, legal: Sequence[Mark],
                     rng: random.Random) -> Mark | None:
        return junk  # type: ignore[return-value]

    chooser = {"uniform": uniform_chooser, "returns": returns_junk, "is": junk}[kind]
    try:
        after = random_turn(state, rng, chooser)  # type: ignore[arg-type]
    except QwixxError:
        return
    assert after[0].phase in (Phase.ROLL, Phase.OVER)
