"""Advice that plays to win: every legal choice with its estimated probability of winning.

:func:`advise_win` takes a game state in which a decision is due (the ``ACTION1``
phase for any seat, the ``ACTION2`` phase for the active seat; a ``ROLL`` state
with its ``roll``) and one seat, and lists every legal choice of that seat (the
plans, marks and passes of the table advice, :mod:`qwixx_math.table`) with

* its **share of the win** (R18, ties shared), *estimated* by ``rollouts`` games
  played out from the choice to the end: the rest of this turn and every later
  turn are played by fast players from the arena's registry (``win`` in every
  seat by default, the advised seat included), and the result is read off the
  final sheets through the rules core.  Every choice is played out on the **same
  dice**: rollout ``i`` rolls the dice of deal ``i`` of an arena match with the
  advice's seed (:class:`qwixx_math.arena.dice.DealDice`: turn ``t`` after the
  decision takes the ``t``-th roll of all six dice, the closed colours' dice
  left out), and the other seats' simultaneous action-1 choices of this turn
  are asked once per rollout and shared by every choice (common random
  numbers: the differences between choices are much more precise than each
  estimate).  Each estimate comes with its standard error (the sample standard
  deviation over ``sqrt(rollouts)``) and a 95% Wilson score interval (valid for
  shares in [0, 1]: their variance is at most p(1-p)); ``win_loss`` is its
  distance to the best choice with the *paired* standard error ``se_loss``;
* its **exact table EV**, the expected final score in the table model of
  :class:`qwixx_math.table.TableAdvisor` for this number of players (exact for
  that model: the others never close a row nor take a penalty), and its EV loss
  against the best EV.

What is exact: the list of choices (from the rules core), the table EV, the dice
distribution of every rollout, the result of every game once it is over (R16 to
R18), and the value of a choice after which the game ends within this turn
(``exact=True``: every rollout ended before another roll with the same share,
so the share is 0, 1/k or 1 with no uncertainty; for an action-1 choice this is
given the other seats' simultaneous choices, which their rollout players make).
What is estimated: every other win probability.  It is the win probability
*when the rest of the game is played by the rollout players*, not under optimal
play: a stronger or weaker opponent than ``win`` changes it, and the
``opponents`` argument says who plays.

The advised seat's choice is applied as given.  When another seat's
simultaneous action-1 choice makes a part of it illegal (another player closes
the colour of the plan's action 2, R9; or, under the dialect switches, R10 or
R14 sequential), that part is dropped as the arena's referee would drop it:
an action 1 passes, and an action 2 is chosen again by the advised seat's
rollout player.  Deterministic for a seed (rollout players with randomness of
their own, ``random``, are seeded from it too).

>>> from qwixx_math.notation import parse_roll
>>> from qwixx_math.rules import new_game
>>> state = new_game(2).with_roll(parse_roll("w:6,6/r:1/y:2/g:3/b:4"))
>>> advice = advise_win(state, player=1, rollouts=8, seed=1)   # the passive seat
>>> sorted(str(c.plan) for c in advice.choices), advice.rollouts, advice.rollout_players
(['-/-', 'b12/-', 'g12/-'], 8, ('win', 'win'))
>>> best = advice.best
>>> best.exact, best.ci95[0] <= best.win <= best.ci95[1], best.expected_score > 130
(False, True, True)
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .advice import Advice, RankedPlan
from .arena.external import PREFIX
from .arena.registry import make_player, player_seed
from .errors import IllegalMoveError, ParseError, check_whole_number
from .model import Colour, Mark, Roll, Sheet, TurnPlan
from .play import Dice, play
from .players.base import Player
from .rules import GameState, Phase
from .ruleset import MAX_PLAYERS
from .table import TableAdvisor
from .validation import game_seed

__all__ = ["DEFAULT_BUDGET", "MAX_AUTO_ROLLOUTS", "MAX_BUDGET", "MAX_ROLLOUTS",
           "MIN_AUTO_ROLLOUTS", "RACE_FIRST", "RACE_STEP", "ROLLOUT_PLAYER",
           "SEPARATE_BUDGET", "SEPARATE_DROP_Z", "SEPARATE_FIRST", "SEPARATE_LEVEL",
           "SEPARATE_MODEL_KEEP", "SEPARATE_MODEL_SD",
           "SEPARATE_STEP", "WinAdvice", "WinChoice", "advise_win", "advise_win_separated",
           "another_round", "combined_estimate", "model_shortlist", "model_wins", "paired",
           "position_after", "race", "rollout_shares", "separation_z", "wilson"]

#: Players' decisions all rollouts of one advice may ask for by default (``rollouts=None``),
#: counted as they are asked: under a second on one core with the ``win`` player in every
#: seat, the slowest decisions included (``benchmarks/bench_win_advice.py``; docs/winning.md).
DEFAULT_BUDGET = 3000
#: Rollouts per choice by default: at least this many, whatever the budget (two: a sample
#: standard deviation needs two; a decision with dozens of choices early in the game spends
#: the budget on them).
MIN_AUTO_ROLLOUTS = 2
#: Rollouts per choice by default: at most this many.
MAX_AUTO_ROLLOUTS = 400
#: The most rollouts per choice one call may ask for: about three minutes on one core for
#: the slowest decisions (200 rollouts of an early decision took 7.7 s).
MAX_ROLLOUTS = 5_000
#: The most players' decisions one call may spend (``budget``): about five minutes.
MAX_BUDGET = 1_000_000
#: :func:`advise_win_separated`: players' decisions its rollouts may spend by default,
#: about two seconds on one core (``benchmarks/bench_win_separation.py`` prints the time).
SEPARATE_BUDGET = 18_000
#: :func:`advise_win_separated`: after a stop at the budget, the choices still in the race
#: are ranked by their rollouts combined with the ``win`` model's estimate, the model taken
#: as a prior of this standard deviation (in shares of the win: 5 points) around its
#: estimate (:func:`combined_estimate`).
SEPARATE_MODEL_SD = 0.05
#: :func:`advise_win_separated`: rounds (one rollout of every choice) before the first test.
SEPARATE_FIRST = 16
#: :func:`advise_win_separated`: the confidence of the separation over all its tests
#: (:func:`separation_z`).
SEPARATE_LEVEL = 0.95
#: :func:`advise_win_separated`: rounds between two tests.
SEPARATE_STEP = 8
#: :func:`advise_win_separated`: positions (by the ``win`` model's estimate) that stay in
#: the race after the first rounds.
SEPARATE_MODEL_KEEP = 6
#: :func:`advise_win_separated`: rounds before the race's first look.
RACE_FIRST = 8
#: :func:`advise_win_separated`: rounds between two looks of the race.
RACE_STEP = 4
#: :func:`advise_win_separated`: a choice leaves the race when its paired difference to
#: the first lies this many standard errors below 0 (about 1 in 740 by chance per look).
SEPARATE_DROP_Z = 3.0
#: The player who plays every seat of the rollouts by default.
ROLLOUT_PLAYER = "win"
#: z of a two-sided 95% interval.
_Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class WinChoice:
    """One legal choice: its share of the win (estimated, or exact) beside its table EV.

    ``ranked`` is the choice's entry in the table advice (plan, exact table EV,
    EV loss).  ``win`` is the mean share of the win over the rollouts, ``se`` its
    standard error, ``ci95`` its 95% Wilson interval; ``exact`` says that the
    game ends within this turn after the choice, so ``win`` is exact and
    ``se == 0``.  ``win_loss`` is the best choice's ``win`` minus this one's and
    ``se_loss`` the standard error of that difference, paired over the common
    rollouts.  ``shares`` holds the share of every rollout, in order.
    """

    ranked: RankedPlan
    win: float
    se: float
    ci95: tuple[float, float]
    exact: bool
    win_loss: float = 0.0
    se_loss: float = 0.0
    shares: tuple[float, ...] = field(default=(), repr=False)
    #: The ``win`` player's model's win probability of the position after the choice
    #: (:func:`model_wins`: at once, no rollout), or None when it was not asked.
    model_win: float | None = None
    #: :func:`combined_estimate` of ``win`` and ``model_win``: what ranked the choices still
    #: in the race when :func:`advise_win_separated` stopped at its budget; else None.
    combined: float | None = None

    @property
    def plan(self) -> TurnPlan:
        return self.ranked.plan

    @property
    def expected_score(self) -> float:
        """The exact table EV after this choice (:class:`~qwixx_math.table.TableAdvisor`)."""
        return self.ranked.expected_score

    @property
    def ev_loss(self) -> float:
        """The best table EV minus this choice's."""
        return self.ranked.loss

    @property
    def rollouts(self) -> int:
        """How many rollouts this choice's estimate has (fewer than the advice's when it
        left :func:`advise_win_separated`'s race early)."""
        return len(self.shares)

    def describe(self) -> str:
        return self.ranked.describe()

    def to_json(self) -> dict[str, Any]:
        out = self.ranked.to_json()
        out["ev_loss"] = out.pop("loss")
        out.update({"win": self.win, "se": self.se, "ci95": list(self.ci95),
                    "exact": self.exact, "win_loss": self.win_loss, "se_loss": self.se_loss,
                    "model_win": self.model_win, "combined": self.combined,
                    "rollouts": self.rollouts})
        return out


@dataclass(frozen=True, slots=True)
class WinAdvice:
    """Every legal choice of one seat, best estimated share of the win first.

    Ties in ``win`` go to the higher table EV, then to the rules core's order.
    ``rollout_players`` names the player of every seat in the rollouts (the
    advised seat's included); ``ev_model`` is the table model of the EVs.
    ``stopped`` says why the rollouts stopped: ``"count"`` (the ``rollouts`` asked
    for, or the budget of :func:`another_round`), ``"separated"`` (the first choice
    was separated from the second at 95%, :func:`advise_win_separated`),
    ``"budget"`` (the budget ran out first), ``"exact"`` (nothing to estimate: every
    choice ends the game this turn, all choices lead to one position, or one wins for
    sure).
    """

    player: int
    passive: bool
    phase: Phase
    choices: tuple[WinChoice, ...]
    rollouts: int
    seed: int
    rollout_players: tuple[str, ...]
    ev_model: str
    stopped: str = "count"

    @property
    def best(self) -> WinChoice:
        return self.choices[0]

    def find(self, plan: TurnPlan) -> WinChoice:
        """The entry of ``plan``; IllegalMoveError if it is not a legal choice here
        (:meth:`qwixx_math.advice.Advice.find`'s error)."""
        ranked = Advice(self.player, self.passive, tuple(c.ranked for c in self.choices)
                        ).find(plan)
        return next(c for c in self.choices if c.ranked is ranked)

    def to_json(self) -> dict[str, Any]:
        return {"objective": "win", "player": self.player, "passive": self.passive,
                "phase": self.phase.value, "rollouts": self.rollouts, "seed": self.seed,
                "rollout_players": list(self.rollout_players), "ev_model": self.ev_model,
                "stopped": self.stopped, "choices": [c.to_json() for c in self.choices]}

    def to_text(self, top: int | None = None, words: Sequence[str] | None = None) -> str:
        """A ranked table in the manner of GNU Backgammon's: win % with one standard error
        and its 95% interval (``= exact`` for an exact value), the win loss against the
        best with the paired standard error, the ``win`` model's estimate when it was
        asked, the table EV and the EV loss.  ``words``: the text of the "in words"
        column, one per choice in rank order (default: each choice's description)."""
        shown = self.choices if top is None else self.choices[:top]
        said = [c.describe() for c in shown] if words is None else list(words)[:len(shown)]
        if len(said) < len(shown) or not all(isinstance(w, str) for w in said):
            raise ParseError(f"words: one text per choice shown ({len(shown)})")
        with_model = any(c.model_win is not None for c in shown)
        model_head = f" {'model %':>7}" if with_model else ""
        lines = [f"{'rank':>4}  {'plan':<9} {'win %':>6} {'± se':>5}  {'95% CI':<13} "
                 f"{'win loss ± se':>13}{model_head} {'table EV':>9} {'EV loss':>8}  in words"]
        for rank, (c, text) in enumerate(zip(shown, said, strict=True), start=1):
            if c.exact:
                se, ci = "0", "= exact"
            else:
                se, ci = f"{100 * c.se:.1f}", f"[{100 * c.ci95[0]:.1f}, {100 * c.ci95[1]:.1f}]"
            loss = "" if rank == 1 else f"{100 * c.win_loss:.1f} ± {100 * c.se_loss:.1f}"
            model = "" if not with_model else (
                f" {'':>7}" if c.model_win is None else f" {100 * c.model_win:7.1f}")
            lines.append(f"{rank:>4}  {c.plan!s:<9} {100 * c.win:6.1f} {se:>5}  {ci:<13} "
                         f"{loss:>13}{model} {c.expected_score:9.3f} {c.ev_loss:8.3f}  {text}")
        if len(shown) < len(self.choices):
            lines.append(f"({len(self.choices) - len(shown)} more choices; drop --top to see "
                         "them)")
        players = ", ".join(f"seat {s} {name}{' (you)' if s == self.player else ''}"
                            for s, name in enumerate(self.rollout_players))
        lines.append(f"win %: share of the win (ties shared), estimated by {self.rollouts} "
                     f"rollouts per choice on common dice (seed {self.seed}) played by "
                     f"{players}; in percentage points.")
        fewer = sum(1 for c in self.choices if c.rollouts < self.rollouts)
        if fewer:
            lines.append(f"{fewer} choice(s) left the race early (fewer rollouts: outside the "
                         "win model's first positions, the same position as a better choice, "
                         "or standard errors behind the first) and are ranked after the "
                         "others.")
        if self.stopped != "count":  # a count asked for needs no explanation
            lines.append(_STOPPED.get(self.stopped, f"The rollouts stopped: {self.stopped}."))
        if with_model:
            lines.append("model %: the win player's model's estimate of the position after "
                         "the choice, at once (no rollout).")
        lines.append(f"table EV: exact expected final score, {self.ev_model}.")
        return "\n".join(lines)


_STOPPED = {
    "separated": "The rollouts stopped when the first choice was separated from the second "
                 "at 95% (paired, on common dice).",
    "budget": "The rollouts stopped at the budget of players' decisions: the first choice is "
              "NOT separated from the second at 95%; treat them as close. The choices still "
              "in the race are ranked by their win % combined with the model % (a prior of "
              "5 points' standard deviation), so a later one may show a higher win %.",
    "exact": "Nothing to estimate: every choice ends the game this turn, all lead to the same "
             "position, or one wins for sure this turn.",
}


class _Counting:
    """A player that counts the decisions it is asked (the budget is counted in them)."""

    def __init__(self, inner: Player, counter: list[int]) -> None:
        self.inner, self.name, self.counter = inner, inner.name, counter

    def new_game(self, seat: int, state: GameState) -> None:
        self.inner.new_game(seat, state)

    def game_over(self, seat: int, state: GameState) -> None:
        self.inner.game_over(seat, state)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        self.counter[0] += 1
        return self.inner.action1(seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        self.counter[0] += 1
        return self.inner.action2(seat, state)


def _rollout_names(players: int, player: int, opponents: str | Sequence[str], own: str
                   ) -> tuple[str, ...]:
    """The rollout player of every seat: ``own`` for ``player``, ``opponents`` (one name for
    every other seat, or one per other seat in seat order) for the others."""
    if isinstance(opponents, str):
        others = [opponents] * (players - 1)
    elif isinstance(opponents, Sequence) and len(opponents) == players - 1:
        others = list(opponents)
    else:
        raise ParseError(f"opponents: one player name for every other seat, or {players - 1} "
                         f"name(s), one per other seat in seat order; not {opponents!r}")
    names = [*others[:player], own, *others[player:]]
    for name in names:
        if not isinstance(name, str):
            raise ParseError(f"a rollout player is named by text, not {name!r}")
        if name.startswith(PREFIX):
            raise ParseError(f"rollout players are built-in players, not {name!r} (an "
                             "external program would be asked thousands of times)")
    return tuple(names)


def advise_win(state: GameState, player: int | None = None, *, roll: Roll | None = None,
               rollouts: int | None = None, seed: int = 0,
               opponents: str | Sequence[str] = ROLLOUT_PLAYER,
               own: str = ROLLOUT_PLAYER, progress: bool | None = False,
               budget: int = DEFAULT_BUDGET) -> WinAdvice:
    """Every legal choice of ``player`` (default: the active seat) in ``state``, ranked by
    its share of the win, estimated by ``rollouts`` rollouts per choice on common dice
    from ``seed`` (at most :data:`MAX_ROLLOUTS`), beside its exact table EV (see the
    module docstring).  By default (``rollouts=None``) the count fits a budget of
    :data:`DEFAULT_BUDGET` players' decisions (:func:`another_round`: under a second
    with ``win`` players), at least :data:`MIN_AUTO_ROLLOUTS` (``budget``: another
    number of decisions, at most :data:`MAX_BUDGET`); ``WinAdvice.rollouts`` says how
    many were played.  :func:`advise_win_separated` plays until the first choice is
    separated from the second instead.

    ``state`` is in the ``ACTION1`` phase (any seat), the ``ACTION2`` phase (the active
    seat) or the ``ROLL`` phase with ``roll``; 2 to 5 players.  ``opponents``: the arena
    name of the rollout player of every other seat, or one name per other seat in seat
    order; ``own``: the rollout player of ``player``'s later decisions.  ``progress``:
    a progress bar if the table must be solved first (``None``: on a terminal).
    """
    if rollouts is not None:
        rollouts = check_whole_number("rollouts", rollouts, 2, MAX_ROLLOUTS)
    advice, rolled, seat, names, players = _prepare(state, player, roll, seed, opponents, own,
                                                    progress, budget)
    plans = [r.plan for r in advice.plans]
    shares, ended = rollout_shares(rolled, seat, plans, players, rollouts, seed, budget)
    return _advice(advice, rolled, seat, names, seed, shares, ended, "count", None)


def advise_win_separated(state: GameState, player: int | None = None, *,
                         roll: Roll | None = None, seed: int = 0,
                         opponents: str | Sequence[str] = ROLLOUT_PLAYER,
                         own: str = ROLLOUT_PLAYER, progress: bool | None = False,
                         budget: int = SEPARATE_BUDGET,
                         drop_z: float | None = SEPARATE_DROP_Z,
                         model_keep: int | None = SEPARATE_MODEL_KEEP,
                         model_sd: float | None = SEPARATE_MODEL_SD) -> WinAdvice:
    """:func:`advise_win`, with as many rollouts as it takes to separate the first choice
    from the second at 95%, within ``budget`` players' decisions (default
    :data:`SEPARATE_BUDGET`, about two seconds with ``win`` players; at most
    :data:`MAX_BUDGET`), and every choice's :func:`model_wins` estimate beside.

    Rounds (one rollout of every choice still in the race, on the same dice) are played
    one by one, round ``r`` on the dice of ``DealDice(game_seed(seed, r), 0)``.

    * After :data:`MIN_AUTO_ROLLOUTS` rounds (``model_keep``, default
      :data:`SEPARATE_MODEL_KEEP`; ``None``: every choice stays): only the ``model_keep``
      best positions by the ``win`` model's estimate stay in the race, one choice each
      (:func:`model_shortlist`).
    * After :data:`RACE_FIRST` rounds and then every :data:`RACE_STEP` (``drop_z``,
      default :data:`SEPARATE_DROP_Z`; ``None``: no race): a choice that leads to the
      same position as a better one (two plans that mark the same cells, ``-/r2`` and
      ``r2/-``) leaves the race, and so does a choice whose paired difference to the
      first one, on the common dice, lies ``drop_z`` standard errors below 0
      (:func:`race`).
    * After :data:`SEPARATE_FIRST` rounds and then every :data:`SEPARATE_STEP`, the
      first choice is compared with the second, the best one still in the race that
      leads to another position: the rounds stop (``stopped="separated"``) when the
      paired 95% interval of their difference excludes 0, or when no other position is
      left in the race.

    A choice that left the race keeps the rollouts it had (``WinChoice.rollouts`` says how
    many) and is ranked after every choice still in it. After a stop at the budget the
    choices still in the race are ranked by :func:`combined_estimate` of their rollouts and
    the model's estimate, the model a prior of standard deviation ``model_sd`` (default
    :data:`SEPARATE_MODEL_SD`; ``None``: by the rollouts alone), and each gets its
    ``WinChoice.combined``.  The rounds stop at the budget
    (``stopped="budget"``) when another round of the size of the last one would not fit it
    (after at least :data:`MIN_AUTO_ROLLOUTS` rounds; at most :data:`MAX_ROLLOUTS`), or
    after :data:`MIN_AUTO_ROLLOUTS` rounds when there is nothing to estimate (``"exact"``:
    every choice ends the game this turn, all choices lead to one position, or a choice wins
    for sure this turn, which no choice can beat). Ties in ``win`` go to an exact value
    first, then to the higher table EV. The budget counts decisions, not seconds, so the
    answer depends on ``seed`` and the position only: the same call gives the same advice on
    any machine at any load. The tests are repeated, so the separation is at 95% per look,
    not overall; ``benchmarks/bench_win_separation.py`` prints how often the first choice
    agrees with that of 5,000 rollouts.
    """
    if drop_z is not None and not (isinstance(drop_z, (int, float))
                                   and not isinstance(drop_z, bool)
                                   and 0.0 < drop_z < math.inf):
        raise ParseError(f"drop_z must be a positive number or None, not {drop_z!r}")
    if model_keep is not None:
        model_keep = check_whole_number("model_keep", model_keep, 1, 10**6)
    if model_sd is not None and not (isinstance(model_sd, (int, float))
                                     and not isinstance(model_sd, bool)
                                     and 0.0 < model_sd < math.inf):
        raise ParseError(f"model_sd must be a positive number or None, not {model_sd!r}")
    advice, rolled, seat, names, players = _prepare(state, player, roll, seed, opponents, own,
                                                    progress, budget, MAX_BUDGET)
    plans = [r.plan for r in advice.plans]
    evs = [r.expected_score for r in advice.plans]
    keys = [position_after(rolled, seat, plan) for plan in plans]
    models = model_wins(rolled, seat, plans)
    spent = [0]
    counted = [_Counting(p, spent) for p in players]
    shares: list[list[float]] = [[] for _ in plans]
    ended = [True] * len(plans)
    alive = list(range(len(plans)))
    rounds = looks = 0
    stopped = "budget"
    while True:
        before = spent[0]
        more, now = rollout_shares(rolled, seat, [plans[c] for c in alive], counted, 1,
                                   game_seed(seed, rounds))
        rounds += 1
        for c, got, done in zip(alive, more, now, strict=True):
            shares[c].extend(got)
            ended[c] = ended[c] and done
        if all(ended) or len(set(keys)) == 1 or any(
                e and all(x == 1.0 for x in sh) for e, sh in zip(ended, shares, strict=True)):
            stopped = "exact"
            if rounds >= MIN_AUTO_ROLLOUTS:
                break
            continue
        if model_keep is not None and rounds == MIN_AUTO_ROLLOUTS:
            alive = model_shortlist(models, evs, plans, keys, model_keep)
        if drop_z is not None and rounds >= RACE_FIRST and \
                (rounds - RACE_FIRST) % RACE_STEP == 0:
            alive = race(shares, evs, plans, keys, alive, drop_z)
        if rounds >= SEPARATE_FIRST and (rounds - SEPARATE_FIRST) % SEPARATE_STEP == 0:
            looks += 1
            if _separated(shares, evs, plans, keys, alive, separation_z(looks)):
                stopped = "separated"
                break
        if rounds >= MIN_AUTO_ROLLOUTS and (
                rounds >= MAX_ROLLOUTS or spent[0] + (spent[0] - before) > budget):
            break
    return _advice(advice, rolled, seat, names, seed, shares, ended, stopped, models,
                   set(alive), model_sd if stopped == "budget" else None)


def model_shortlist(models: Sequence[float], evs: Sequence[float], plans: Sequence[TurnPlan],
                    keys: Sequence[object], keep: int) -> list[int]:
    """The choices that stay in :func:`advise_win_separated`'s race after its first
    :data:`MIN_AUTO_ROLLOUTS` rounds: the ``keep`` best positions by the ``win`` model's
    estimate (``models``; ties to the higher table EV, then the rules core's order), one
    choice per position.

    >>> from qwixx_math.model import TurnPlan
    >>> model_shortlist([0.2, 0.5, 0.5, 0.4], [0.0] * 4, [TurnPlan(None, None)] * 4,
    ...                 ["a", "b", "b", "c"], 2)
    [1, 3]
    """
    order = sorted(range(len(plans)), key=lambda c: (-models[c], -evs[c], plans[c].sort_key))
    kept: list[int] = []
    seen: set[object] = set()
    for c in order:
        if keys[c] not in seen and len(kept) < keep:
            seen.add(keys[c])
            kept.append(c)
    return sorted(kept)


def _ranked(shares: Sequence[Sequence[float]], evs: Sequence[float],
            plans: Sequence[TurnPlan], among: Sequence[int]) -> list[int]:
    """``among`` by mean share, then table EV, then the rules core's order."""
    means = {c: math.fsum(shares[c]) / len(shares[c]) for c in among}
    return sorted(among, key=lambda c: (-means[c], -evs[c], plans[c].sort_key))


def paired(first: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """The mean of ``first - other`` over their common rollouts (the shorter one's) and its
    standard error (the sample standard deviation over the square root of the count).

    >>> paired([1.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0])
    (0.3333333333333333, 0.33333333333333337)
    """
    diffs = [b - c for b, c in zip(first, other, strict=False)]
    k = len(diffs)
    mean = math.fsum(diffs) / k
    var = math.fsum((d - mean) ** 2 for d in diffs) / (k - 1)
    return mean, math.sqrt(var / k)


def race(shares: Sequence[Sequence[float]], evs: Sequence[float],
         plans: Sequence[TurnPlan], keys: Sequence[object], alive: Sequence[int],
         drop_z: float) -> list[int]:
    """The choices of ``alive`` that stay in :func:`advise_win_separated`'s race: the
    best of every position (by mean share, then table EV, then the rules core's order),
    less those whose paired difference to the first lies ``drop_z`` standard errors
    below 0.  The first choice always stays.

    >>> from qwixx_math.model import TurnPlan
    >>> plans = [TurnPlan(None, None)] * 3
    >>> race([[1.0, 1.0, 0.0] * 4, [0.0, 0.0, 0.0] * 4, [1.0, 0.0, 0.0] * 4],
    ...      [0.0, 0.0, 0.0], plans, ["a", "b", "c"], [0, 1, 2], 3.0)
    [0, 2]
    """
    order = _ranked(shares, evs, plans, alive)
    best = order[0]
    seen: set[object] = set()
    kept = []
    for c in order:
        if keys[c] in seen:
            continue
        seen.add(keys[c])
        if c != best:
            mean, se = paired(shares[best], shares[c])
            if mean - drop_z * se > 0.0:
                continue
        kept.append(c)
    return sorted(kept)


def separation_z(look: int) -> float:
    """The z of :func:`advise_win_separated`'s ``look``-th separation test (1, 2, ...): the
    tests spend the 5% error between them (``look`` gets 5% x 6 / (pi^2 look^2), and
    those sum to 5%), so that the first choice is separated at 95% over all the looks,
    not only per look.

    >>> [round(separation_z(j), 2) for j in (1, 2, 3, 10)]
    [2.16, 2.67, 2.93, 3.61]
    """
    alpha = (1.0 - SEPARATE_LEVEL) * 6.0 / (math.pi ** 2 * look ** 2)
    return statistics.NormalDist().inv_cdf(1.0 - alpha / 2.0)


def _separated(shares: Sequence[Sequence[float]], evs: Sequence[float],
               plans: Sequence[TurnPlan], keys: Sequence[object],
               alive: Sequence[int], z: float = _Z95) -> bool:
    """Whether the first choice of ``alive`` is separated from the second (the best that
    leads to another position): their paired difference lies ``z`` standard errors above
    0, or no other position is left."""
    order = _ranked(shares, evs, plans, alive)
    best = order[0]
    second = next((c for c in order if keys[c] != keys[best]), None)
    if second is None:
        return True
    mean, se = paired(shares[best], shares[second])
    return mean - z * se > 0.0


def position_after(rolled: GameState, seat: int, plan: TurnPlan
                   ) -> tuple[Sheet, frozenset[Colour]]:
    """``seat``'s sheet and the closed colours after ``seat``'s own marks of ``plan`` (in
    the ``ACTION2`` phase only its action 2; the others' choices not applied), with the
    active seat's penalty (R11)."""
    sheet = rolled.sheets[seat]
    closed = rolled.closed
    if rolled.phase is Phase.ACTION2:
        assert rolled.action1 is not None
        marks: tuple[Mark | None, ...] = (plan.action2,)
        penalty = plan.action2 is None and rolled.action1[seat] is None
    else:
        marks = (plan.action1, plan.action2)
        penalty = seat == rolled.active and plan.penalty
    for m in marks:
        if m is not None:
            sheet = sheet.with_mark(m.colour, m.number)
            if sheet.is_locked(m.colour):
                closed = closed | {m.colour}
    return (sheet.with_penalty() if penalty else sheet), closed


def model_wins(rolled: GameState, seat: int, plans: Sequence[TurnPlan]) -> list[float]:
    """The ``win`` player's model's win probability (:class:`qwixx_math.players.win.
    WinPlayer`, an *estimate*: docs/winning.md reports its calibration) of the position
    after each of ``seat``'s ``plans`` in ``rolled`` (phase ``ACTION1`` or ``ACTION2``),
    before the next player's roll, the others' choices of this turn not applied: at
    once, no rollout.  A position where the game is over is worth its exact share."""
    from .players.win import WinPlayer

    n = rolled.players
    positions = []
    for plan in plans:
        sheet, closed = position_after(rolled, seat, plan)
        positions.append((tuple(sheet if s == seat else rolled.sheets[s] for s in range(n)),
                          closed))
    return [float(v) for v in
            WinPlayer(rolled.ruleset).score(seat, positions, (rolled.active + 1) % n)]


def _prepare(state: GameState, player: int | None, roll: Roll | None, seed: int,
             opponents: str | Sequence[str], own: str, progress: bool | None, budget: int,
             max_budget: int = MAX_BUDGET
             ) -> tuple[Advice, GameState, int, tuple[str, ...], list[Player]]:
    """The checks shared by the advice functions; the table advice, the rolled state, the
    seat, the rollout players' names and the players."""
    if not isinstance(state, GameState):
        raise ParseError(f"win advice needs a GameState, not {type(state).__name__}")
    n = state.players
    if not 2 <= n <= MAX_PLAYERS:
        raise ParseError(f"R3: win advice is for 2 to {MAX_PLAYERS} players; this game has "
                         f"{n} (a player alone always wins)")
    seed = check_whole_number("seed", seed, 0, 2**63 - 1)
    budget = check_whole_number("budget", budget, 1, max_budget)
    seat = state.active if player is None else player
    if progress is not None and not isinstance(progress, bool):
        raise ParseError(f"progress must be True, False or None, not {progress!r}")
    advisor = TableAdvisor.for_ruleset(state.ruleset, players=n, progress=progress)
    advice = advisor.advise_player(state, seat, roll)  # every check of the state and seat
    rolled = state if roll is None else state.with_roll(roll)
    names = _rollout_names(n, seat, opponents, own)
    players = [make_player(name, rolled.ruleset, player_seed(seed, s))
               for s, name in enumerate(names)]
    return advice, rolled, seat, names, players


def _advice(advice: Advice, rolled: GameState, seat: int, names: tuple[str, ...], seed: int,
            shares: Sequence[Sequence[float]], ended: Sequence[bool], stopped: str,
            models: Sequence[float] | None, alive: set[int] | None = None,
            model_sd: float | None = None) -> WinAdvice:
    """The ranked :class:`WinAdvice` of the rollouts' ``shares``; the choices of ``alive``
    (default: all) first; ``model_sd``: the choices of ``alive`` ranked by
    :func:`combined_estimate` with this prior standard deviation."""
    estimates = [_estimate(ranked, s, e) for ranked, s, e
                 in zip(advice.plans, shares, ended, strict=True)]
    if models is not None:
        estimates = [dataclasses.replace(c, model_win=m)
                     for c, m in zip(estimates, models, strict=True)]
    left = {id(estimates[c]) for c in range(len(estimates))
            if alive is not None and c not in alive}
    if models is not None and model_sd is not None:
        estimates = [c if id(c) in left else dataclasses.replace(
            c, combined=combined_estimate(c.win, c.se, models[k], model_sd))
            for k, c in enumerate(estimates)]
        left = {id(c) for c in estimates if c.combined is None and alive is not None}
    if models is None:
        estimates.sort(key=lambda c: (-c.win, -c.expected_score, c.plan.sort_key))
    else:  # an exact value first among equal estimates (a sure win beats a likely one)
        estimates.sort(key=lambda c: (id(c) in left,
                                      -(c.win if c.combined is None else c.combined),
                                      not c.exact, -c.expected_score, c.plan.sort_key))
    best = estimates[0]
    choices = tuple(_with_loss(c, best) for c in estimates)
    return WinAdvice(seat, advice.passive, rolled.phase, choices,
                     max(len(s) for s in shares), seed, names, advice.model, stopped)


def combined_estimate(win: float, se: float, model: float, model_sd: float) -> float:
    """The rollouts' mean share ``win`` (standard error ``se``) combined with the model's
    estimate ``model`` taken as a prior of standard deviation ``model_sd``: the mean of the
    two weighted by their precisions (the normal posterior mean).  A rollout mean with no
    spread (``se == 0``: an exact value, or every rollout alike) is taken as it is.

    >>> round(combined_estimate(0.4, 0.05, 0.5, 0.05), 12), combined_estimate(0.4, 0.0, 0.9, 0.05)
    (0.45, 0.4)
    """
    if se <= 0.0:
        return win
    w_rollouts, w_model = 1.0 / (se * se), 1.0 / (model_sd * model_sd)
    return (w_rollouts * win + w_model * model) / (w_rollouts + w_model)


def _estimate(ranked: RankedPlan, shares: Sequence[float], ended_now: bool) -> WinChoice:
    k = len(shares)
    mean = math.fsum(shares) / k
    if ended_now and all(s == shares[0] for s in shares):
        return WinChoice(ranked, shares[0], 0.0, (shares[0], shares[0]), True,
                         shares=tuple(shares))
    var = math.fsum((s - mean) ** 2 for s in shares) / (k - 1)
    return WinChoice(ranked, mean, math.sqrt(var / k), wilson(mean, k), False,
                     shares=tuple(shares))


def _with_loss(choice: WinChoice, best: WinChoice) -> WinChoice:
    """``choice`` with its loss against ``best``, paired over their common rollouts."""
    _, se = paired(best.shares, choice.shares)
    return dataclasses.replace(choice, win_loss=best.win - choice.win, se_loss=se)


def wilson(mean: float, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a mean of ``n`` outcomes in [0, 1].

    Exact-binomial reasoning is not needed: an outcome in [0, 1] with mean p has a
    variance of at most p(1-p), so the interval is conservative for shared wins.

    >>> lo, hi = wilson(1.0, 10)
    >>> round(lo, 3), hi
    (0.722, 1.0)
    """
    z2n = z * z / n
    centre = (mean + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(max(0.0, mean * (1 - mean)) / n + z2n / (4 * n))
    lo = 0.0 if mean <= 0.0 else max(0.0, centre - half)  # the ends are 0 and 1 exactly there
    hi = 1.0 if mean >= 1.0 else min(1.0, centre + half)
    return (lo, hi)


# -- the rollouts ----------------------------------------------------------------------------

def rollout_shares(rolled: GameState, player: int, plans: Sequence[TurnPlan],
                   players: Sequence[Player], rollouts: int | None, seed: int,
                   budget: int = DEFAULT_BUDGET) -> tuple[list[list[float]], list[bool]]:
    """Play every plan out ``rollouts`` times; ``player``'s share of the win per plan and
    rollout, and per plan whether every rollout ended within this turn.

    ``rollouts=None``: rounds (one rollout of every plan) while another fits ``budget``
    players' decisions in all, counted as they are asked (:func:`another_round`).

    ``rolled`` is in the ``ACTION1`` phase (``plans`` are the active seat's plans, or a
    passive seat's white-sum choices as ``TurnPlan(mark, None)``) or the ``ACTION2``
    phase (the active seat's action-2 choices as ``TurnPlan(action1, mark)``).
    ``players[s]`` plays seat ``s`` afterwards; players must keep no state between games
    (every built-in one).  Rollout ``i`` rolls the dice of ``Dice.deal(seed, i)`` from the
    next turn on, for every plan, in the one game loop (:func:`qwixx_math.play.play`).
    """
    n = rolled.players
    shares: list[list[float]] = [[] for _ in plans]
    ended = [True] * len(plans)
    spent = 0
    i = 0
    while True:
        others: list[Mark | None] = [None] * n
        decisions = 0
        if rolled.phase is Phase.ACTION1:  # simultaneous: shared by every plan
            others = [None if s == player else players[s].action1(s, rolled)
                      for s in range(n)]
            decisions += n - 1
        dice = Dice.deal(seed, i)  # drawn once, read by every plan: the same rolls
        played: dict[GameState, tuple[float, bool]] = {}
        for c, plan in enumerate(plans):
            after = _finish_turn(rolled, player, plan, others)
            if after not in played:  # plans that reach one state play one game on the dice
                state, now = after, True
                if not state.is_over:
                    game = play(players, state, dice)  # the rest of this turn, then the game
                    decisions += game.asked
                    now = game.rolls == 0
                    state = game.final
                winners = state.winners
                played[after] = (1.0 / len(winners) if player in winners else 0.0, now)
            share, now = played[after]
            ended[c] = ended[c] and now
            shares[c].append(share)
        i += 1
        spent += decisions
        if rollouts is not None:
            if i >= rollouts:
                break
        elif not another_round(spent, i, all(ended), budget):
            break
    return shares, ended


def another_round(spent: int, rounds: int, ended: bool = False,
                  budget: int = DEFAULT_BUDGET) -> bool:
    """Whether the default count plays another round (one rollout of every choice) after
    ``rounds`` rounds that asked the players ``spent`` decisions in all: at least
    :data:`MIN_AUTO_ROLLOUTS` rounds, at most :data:`MAX_AUTO_ROLLOUTS`, and beyond the
    minimum only while a round of the mean size so far still fits ``budget``.  ``ended``:
    every choice ended the game this turn (exact: nothing to estimate, the minimum).
    Deterministic: it depends on the games' lengths only.

    >>> another_round(2600, 1), another_round(5200, 2), another_round(1800, 2)
    (True, False, True)
    >>> another_round(3300, 3), another_round(40, 400), another_round(0, 2, ended=True)
    (False, False, False)
    """
    if rounds < MIN_AUTO_ROLLOUTS:
        return True
    if ended or rounds >= MAX_AUTO_ROLLOUTS:
        return False
    return spent + spent / rounds <= budget


def _finish_turn(rolled: GameState, player: int, plan: TurnPlan,
                 others: Sequence[Mark | None]) -> GameState:
    """This turn with ``player``'s ``plan`` and the others' choices applied, as far as they
    go: an ``ACTION2`` state when the active seat's action 2 is still to be asked (it is
    not the plan's, or another seat's simultaneous choice forbids the plan's, R9), else
    the state after the turn."""
    if rolled.phase is Phase.ACTION2:
        return rolled.with_action2(plan.action2)
    choices = list(others)
    choices[player] = plan.action1
    state, _ = rolled.with_simultaneous_action1(choices)
    if state.phase is Phase.ACTION2 and player == state.active:
        try:
            return state.with_action2(plan.action2)
        except IllegalMoveError:  # another seat's simultaneous choice forbids it (R9)
            pass
    return state
