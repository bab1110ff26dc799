"""The one game loop: any seats, from any state, on any dice.

:func:`play` plays a game on from a :class:`~qwixx_math.rules.GameState` with one
:class:`~qwixx_math.players.base.Player` per seat, rolling from a :class:`Dice`,
until the game is over (or for a number of turns).  It is the loop of the arena's
referee (:func:`qwixx_math.arena.play_match`), of the rollouts of ``win-deep``
and of :func:`qwixx_math.winadvice.advise_win`, and of the benchmarks and the
research code.  Each turn:

1. **roll** (a ``ROLL`` state): the dice of the turn from ``dice`` -- the ``k``-th
   roll of this call takes ``dice.roll(k, closed)``, ``k`` counted from 0;
2. **action 1** (an ``ACTION1`` state): every seat is asked from the same state
   (simultaneous, R5) and the choices are applied by the rules core's
   :meth:`~qwixx_math.rules.GameState.with_simultaneous_action1`: a choice the
   core refuses is dropped and that seat passes (the referee's rule);
3. **action 2** (an ``ACTION2`` state): the active seat is asked; a mark the core
   refuses passes (a penalty if action 1 marked nothing, R11).

A state in the ``ACTION1`` or ``ACTION2`` phase is played on from that step.
Seats are asked and nothing else: :func:`play` tells no seat that a game begins or
ends (the arena does, :meth:`Player.new_game`).  A refused choice can be reported
to ``refused`` as it happens (the arena records it as a fault).

:class:`Dice` is the one source of rolls: every roll is all six dice drawn by
:func:`qwixx_math.rules.random_roll` (whites first, then red, yellow, green,
blue), the dice of the closed colours left out (R9), kept per turn so that the
same :class:`Dice` rolls the same turn ``k`` for every game played on it
(common dice).  :meth:`Dice.seeded` draws from ``random.Random(seed)``,
:meth:`Dice.deal` the arena's deal ``d`` of a match seed, :meth:`Dice.scripted`
given rolls (tests).

>>> from qwixx_math.arena.registry import make_player
>>> from qwixx_math.rules import new_game
>>> from qwixx_math.ruleset import Ruleset
>>> seats = [make_player("greedy", Ruleset(2), 0), make_player("greedy", Ruleset(2), 1)]
>>> game = play(seats, new_game(2), Dice.seeded(7))
>>> game.final.is_over, len(game.turns) == game.final.turn + 1, game.rolls == len(game.turns)
(True, True, True)
>>> play(seats, new_game(2), Dice.seeded(7)).final == game.final   # the same dice, the same game
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import IllegalMoveError, ParseError, check_whole_number
from .model import COLOURS, Colour, Mark, Roll
from .players.base import Player
from .rules import GameState, Phase, random_roll

__all__ = ["Dice", "Game", "Refused", "Turn", "play"]

#: ``refused(request, state, seat, mark, error)``: the rules core refused ``seat``'s
#: ``mark`` (``request`` ``"action1"`` or ``"action2"``, asked from ``state``).
Refused = Callable[[str, GameState, int, Mark, IllegalMoveError], None]


class Dice:
    """A source of rolls: :meth:`roll` gives the ``k``-th roll of a game for the colours
    in play, the same every time it is asked (see the module docstring)."""

    __slots__ = ("_rng", "_rolls")

    def __init__(self, rng: random.Random | None = None, rolls: Sequence[Roll] = ()) -> None:
        """Rolls drawn from ``rng`` after the given ``rolls`` (use the class methods)."""
        if rng is not None and not isinstance(rng, random.Random):
            raise ParseError(f"dice draw from a random.Random, not {type(rng).__name__}")
        self._rng = rng
        self._rolls = list(rolls)

    @classmethod
    def seeded(cls, seed: int) -> Dice:
        """The rolls of ``random.Random(seed)`` (``random_roll`` of all six dice each turn)."""
        return cls(random.Random(check_whole_number("seed", seed, 0, 2**64 - 1)))

    @classmethod
    def deal(cls, seed: int, deal: int) -> Dice:
        """The dice of deal ``deal`` of an arena match with ``seed``:
        ``Dice.seeded(game_seed(seed, deal))`` (:func:`qwixx_math.validation.game_seed`)."""
        from .validation.generate import game_seed

        seed = check_whole_number("seed", seed, 0, 2**63 - 1)
        deal = check_whole_number("deal", deal, -(2**63), 2**63 - 1)
        return cls(random.Random(game_seed(seed, deal)))

    @classmethod
    def scripted(cls, rolls: Sequence[Roll]) -> Dice:
        """Exactly ``rolls``, in order (each with the dice of every colour still in play
        when it is used); asking for one more is a :class:`ParseError`."""
        if isinstance(rolls, str) or not isinstance(rolls, Sequence) or \
                not all(isinstance(r, Roll) for r in rolls):
            raise ParseError("scripted dice need a sequence of Rolls")
        return cls(None, rolls)

    def full_roll(self, k: int, faces: int = 6) -> Roll:
        """The ``k``-th roll (from 0) as drawn (drawn on first use, then kept), dice of
        ``faces`` sides (8 on a Longo sheet, LG1)."""
        rolls = self._rolls
        rng = self._rng
        while len(rolls) <= k:
            if rng is None:
                raise ParseError(f"the scripted dice hold {len(rolls)} rolls; roll {k + 1} "
                                 "was asked for")
            rolls.append(random_roll(rng, faces=faces))
        return rolls[k]

    def roll(self, k: int, closed: frozenset[Colour], faces: int = 6) -> Roll:
        """The ``k``-th roll without the dice of the ``closed`` colours (R9), dice of
        ``faces`` sides (the layout's, LG1)."""
        full = self.full_roll(k, faces)
        if not closed:
            return full
        c = tuple(None if colour in closed else die
                  for colour, die in zip(COLOURS, full.coloured, strict=True))
        return Roll.unchecked(full.white, (c[0], c[1], c[2], c[3]), full.faces)


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn (or the rest of one) of :func:`play`.

    ``start`` is the state the turn was played from (``ROLL``, or the step :func:`play`
    began at); ``rolled`` the ``ACTION1`` state, None when the turn began later;
    ``action1`` the seats' answers (None when the turn began in ``ACTION2``);
    ``dropped`` the seats whose action-1 mark the rules core refused; ``action2`` the
    active seat's answer (None if not asked or no mark), ``action2_dropped`` whether the
    core refused it; ``end`` the state after the turn (``ROLL`` or ``OVER``).
    """

    start: GameState
    rolled: GameState | None
    action1: tuple[Mark | None, ...] | None
    dropped: tuple[int, ...]
    action2: Mark | None
    action2_dropped: bool
    end: GameState


@dataclass(frozen=True, slots=True)
class Game:
    """What :func:`play` played: the ``final`` state, every turn, the rolls made and the
    decisions the seats were asked."""

    final: GameState
    turns: tuple[Turn, ...]
    rolls: int
    asked: int


def play(seats: Sequence[Player], state: GameState, dice: Dice, *, turns: int | None = None,
         refused: Refused | None = None) -> Game:
    """Play ``state`` on with ``seats[s]`` in seat ``s`` on ``dice`` until the game is over,
    or until ``turns`` turns have ended (see the module docstring)."""
    if not isinstance(state, GameState):
        raise ParseError(f"play needs a GameState, not {type(state).__name__}")
    n = state.players
    if len(seats) != n:
        raise ParseError(f"play needs one seat per player: {n}, not {len(seats)}")
    if not isinstance(dice, Dice):
        raise ParseError(f"play rolls a Dice, not {type(dice).__name__}")
    if turns is not None:
        turns = check_whole_number("turns", turns, 0, 10**9)
    out: list[Turn] = []
    rolls = asked = 0
    while state.phase is not Phase.OVER and (turns is None or len(out) < turns):
        start = state
        rolled: GameState | None = None
        choices: tuple[Mark | None, ...] | None = None
        dropped: tuple[int, ...] = ()
        if state.phase is Phase.ROLL:
            # the dice the rules core says roll (R4, R9): none for a closed colour, nor
            # for a colour the sheet has no row for
            state = state.with_roll(dice.roll(rolls, frozenset(COLOURS) - state.dice_in_play,
                                              state.sheets[0].layout.faces))
            rolls += 1
        if state.phase is Phase.ACTION1:
            rolled = state
            choices = tuple([seats[s].action1(s, rolled) for s in range(n)])
            asked += n
            state, refusals = rolled.with_simultaneous_action1(choices)
            dropped = tuple(e.player for e in refusals if e.player is not None)
            if refused is not None:
                for e in refusals:
                    assert e.player is not None
                    mark = choices[e.player]
                    assert mark is not None
                    refused("action1", rolled, e.player, mark, e)
        mark2: Mark | None = None
        dropped2 = False
        if state.phase is Phase.ACTION2:
            active = state.active
            mark2 = seats[active].action2(active, state)
            asked += 1
            after = None
            if mark2 is not None:
                try:
                    after = state.with_action2(mark2)
                except IllegalMoveError as exc:
                    dropped2 = True
                    if refused is not None:
                        refused("action2", state, active, mark2, exc)
            state = after if after is not None else state.with_action2(None)
        out.append(Turn(start, rolled, choices, dropped, mark2, dropped2, state))
    return Game(state, tuple(out), rolls, asked)
