"""``win``: the player that plays to win, by a learned win probability and one-ply choice.

Every decision (a passive player's white sum, the active player's plan, the
active player's action 2 once everybody's action 1 is known) lists the legal
choices from the rules core, builds the position each leads to (the moment
before the next roll), and takes the one with the highest estimated probability
of winning (ties shared, R18).

* A finished position (as many colours closed as the layout needs, two on the
  printed sheets, R14, or all penalty boxes crossed, R13) is worth its exact share
  of the win.
* Any other position is scored by :class:`WinModel`, a small neural network over
  the race summary of :mod:`qwixx_math.players.race` (scores, solitaire values,
  penalties, closed colours, whose roll, and colour by colour the turns to five,
  closable rows and marks of mine and the opponents'), fitted by simulation
  (``research/winfit.py``, not installed) and tuned on the win rate
  (``research/winsearch.py``).  Its output is an *estimate*: docs/winning.md
  reports the player's measured strength, research/NOTEBOOK.md its calibration.

``win-deep`` spends up to about a second per decision: it keeps the fast
player's best few choices and plays each out many times for a few turns, every
seat played by the fast ``win`` player, on common dice across the choices
(common random numbers), scores the positions reached like the fast player
does, and takes the best average.

The active player chooses action 1 assuming the others pass (their choices are
not known yet, R5: simultaneous), and chooses action 2 again once they are
known.  A passive player assumes the active player's action 2 does not change
its own position (it cannot, except by closing a colour).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from ..advice import Advisor
from ..display import clip
from ..errors import ParseError
from ..files import read_text_bounded
from ..model import Colour, Mark, Sheet
from ..play import Dice, play
from ..rules import GameState, Phase, legal_action1, legal_action2, legal_plans
from ..ruleset import Ruleset
from .base import Player
from .race import (
    N_FEATURES,
    Summary,
    is_finished,
    opponents_summary,
    race_row,
    shared_summary,
    terminal_share,
)

__all__ = ["PLAYERS", "OnePlyPlayer", "WinModel", "WinPlayer", "load_model"]

FloatArray = npt.NDArray[np.float64]
_MODEL_FILE = "win-model.json"
#: The largest model file read (the shipped one, 48 hidden units, is about 43 kB).
MAX_MODEL_BYTES = 16 * 2**20


@dataclass(frozen=True)
class WinModel:
    """A one-hidden-layer network: P(win) = sigmoid(w2 . tanh(W1 x + b1) + b2)."""

    w1: FloatArray
    b1: FloatArray
    w2: FloatArray
    b2: float
    mean: FloatArray
    scale: FloatArray

    def predict(self, x: FloatArray) -> FloatArray:
        """Win probabilities of the rows of ``x`` (shape (n, N_FEATURES))."""
        z = (x - self.mean) / self.scale
        h = np.tanh(z @ self.w1 + self.b1)
        # a logit below -709 overflows exp to inf, and 1 / (1 + inf) is 0.0, the float
        # nearest the true probability: the overflow is exact, not worth a warning
        with np.errstate(over="ignore"):
            out: FloatArray = 1.0 / (1.0 + np.exp(-(h @ self.w2 + self.b2)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"w1": self.w1.tolist(), "b1": self.b1.tolist(), "w2": self.w2.tolist(),
                "b2": self.b2, "mean": self.mean.tolist(), "scale": self.scale.tolist()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WinModel:
        """The model ``to_json`` wrote, with a :class:`~qwixx_math.errors.ParseError` for
        anything else: every field a JSON number or list of them (not a string, not
        ``true``), finite as a float, the shapes of a network with at least one hidden
        unit over :data:`~qwixx_math.players.race.N_FEATURES` features."""
        if not isinstance(data, dict):
            raise ParseError(f"a win model is a JSON object, not {type(data).__name__}")
        missing = [key for key in _MODEL_FIELDS if key not in data]
        if missing:
            raise ParseError(f"a win model needs w1, b1, w2, b2, mean, scale "
                             f"(missing {', '.join(missing)})")
        w1 = _model_numbers(data["w1"], "w1", 2)
        b1, w2 = _model_numbers(data["b1"], "b1", 1), _model_numbers(data["w2"], "w2", 1)
        mean = _model_numbers(data["mean"], "mean", 1)
        scale = _model_numbers(data["scale"], "scale", 1)
        b2 = float(_model_numbers(data["b2"], "b2", 0))
        if w1.shape[0] != N_FEATURES or mean.shape != (N_FEATURES,) \
                or scale.shape != (N_FEATURES,):
            raise ParseError(f"a win model takes {N_FEATURES} features: w1 must be "
                             f"{N_FEATURES} x H, mean and scale {N_FEATURES} long")
        hidden = w1.shape[1]
        if hidden < 1:
            raise ParseError("a win model needs at least one hidden unit (w1 is "
                             f"{N_FEATURES} x 0)")
        if b1.shape != (hidden,) or w2.shape != (hidden,):
            raise ParseError(f"a win model with {hidden} hidden units needs b1 and w2 "
                             f"{hidden} long, not {b1.shape} and {w2.shape}")
        if np.any(scale <= 0):
            raise ParseError("a win model's scale must be positive")
        return cls(w1, b1, w2, b2, mean, scale)

    @classmethod
    def from_file(cls, path: str) -> WinModel:
        """A model saved by ``to_json`` (``winfit``, ``winsearch``), with a
        :class:`~qwixx_math.errors.ParseError` for a file that is missing, too large
        (:func:`~qwixx_math.files.read_text_bounded`, ``MAX_MODEL_BYTES``) or not one."""
        return cls._from_text(read_text_bounded(path, MAX_MODEL_BYTES, "win model"), repr(path))

    @classmethod
    def _from_text(cls, text: str, where: str) -> WinModel:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            # ValueError: not JSON, or an integer past Python's digit limit (a 5,000-digit
            # number); RecursionError: nested too deep
            raise ParseError(f"the win model {where} is not JSON: "
                             f"{clip(str(exc), 100)}") from None
        if not isinstance(data, dict):
            raise ParseError(f"the win model {where} must be a JSON object")
        return cls.from_json(data)


_MODEL_FIELDS = ("w1", "b1", "w2", "b2", "mean", "scale")
#: The most numbers a model field may hold (the shipped w1 is 38 x 48).
_MAX_MODEL_NUMBERS = 1 << 20


def _model_numbers(value: object, key: str, depth: int) -> FloatArray:
    """``value`` as a float array of ``depth`` dimensions (0: a number, 1: a list of
    numbers, 2: a rectangular list of lists), every entry a finite JSON number."""
    where = f"the win model's {key}"
    shape = ("a number" if depth == 0 else "a list of numbers" if depth == 1
             else "a list of equally long lists of numbers")
    rows = [value] if depth < 2 else value
    if depth == 2 and not isinstance(rows, list):
        raise ParseError(f"{where} must be {shape}, not {type(value).__name__}")
    flat: list[float] = []
    widths = set()
    assert isinstance(rows, list)
    for row in rows:
        items = [row] if depth == 0 else row
        if not isinstance(items, list):
            raise ParseError(f"{where} must be {shape}, not {type(row).__name__} inside")
        widths.add(len(items))
        for item in items:
            if isinstance(item, bool) or not isinstance(item, (int, float)):
                shown = clip(repr(item), 30) + " is " if isinstance(item, str) else ""
                raise ParseError(f"{where} must be {shape}; {shown}"
                                 f"{type(item).__name__} is not a number")
            try:
                number = float(item)
            except OverflowError:  # an integer such as 10**400
                number = math.inf
            if not math.isfinite(number):
                raise ParseError(f"a win model's numbers must be finite ({key} holds "
                                 f"{'a huge number' if isinstance(item, int) else item})")
            flat.append(number)
        if len(flat) > _MAX_MODEL_NUMBERS:
            raise ParseError(f"{where} holds more than {_MAX_MODEL_NUMBERS:,} numbers")
    if len(widths) > 1:
        raise ParseError(f"{where} must be {shape} (rows of {sorted(widths)} numbers)")
    array = np.array(flat, dtype=np.float64)
    if depth == 0:
        return array.reshape(())
    if depth == 1:
        return array
    return array.reshape(len(rows), widths.pop() if widths else 0)


@lru_cache(maxsize=1)
def load_model() -> WinModel:
    """The fitted model shipped with the package (qwixx_math/data/win-model.json)."""
    text = resources.files("qwixx_math").joinpath("data").joinpath(_MODEL_FILE).read_text(
        encoding="utf-8")
    return WinModel._from_text(text, _MODEL_FILE)


#: A position before a roll: every sheet and the closed colours.
Position = tuple[tuple[Sheet, ...], frozenset[Colour]]




class OnePlyPlayer:
    """Chooses, at every decision, the legal choice whose position scores best.

    ``score(seat, positions, next_roller)`` returns one number per position (the
    moment before the roll of ``next_roller``); subclasses define it.
    """

    name = "one-ply"

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.decisions = 0

    def score(self, seat: int, positions: Sequence[Position],
              next_roller: int) -> Sequence[float]:
        raise NotImplementedError

    def new_game(self, seat: int, state: GameState) -> None:
        return None

    def game_over(self, seat: int, state: GameState) -> None:
        return None

    def _best(self, seat: int, choices: Sequence[Any], positions: Sequence[Position],
              next_roller: int) -> Any:
        self.decisions += 1
        values = self.score(seat, positions, next_roller)
        best = 0
        for i in range(1, len(values)):
            if values[i] > values[best]:
                best = i
        return choices[best]

    def action1(self, seat: int, state: GameState) -> Mark | None:
        sheets = state.sheets
        n = len(sheets)
        nxt = (state.active + 1) % n
        if seat != state.active:
            choices: list[Mark | None] = [None, *legal_action1(state, seat)]
            positions = [_apply(sheets, state.closed, seat, (m,), False) for m in choices]
            chosen: Mark | None = self._best(seat, choices, positions, nxt)
            return chosen
        plans = legal_plans(state)
        positions = []
        for plan in plans:
            positions.append(_apply(sheets, state.closed, seat, plan.marks, plan.penalty))
        best = self._best(seat, plans, positions, nxt)
        mark: Mark | None = best.action1
        return mark

    def action2(self, seat: int, state: GameState) -> Mark | None:
        assert state.action1 is not None
        sheets = state.sheets
        nxt = (state.active + 1) % len(sheets)
        choices: list[Mark | None] = [None, *legal_action2(state)]
        if len(choices) == 1:
            return None
        penalty = state.action1[seat] is None  # R11, also after an end in action 1 (R15)
        positions = [_apply(sheets, state.closed, seat, (m,), m is None and penalty)
                     for m in choices]
        chosen: Mark | None = self._best(seat, choices, positions, nxt)
        return chosen


def _apply(sheets: tuple[Sheet, ...], closed: frozenset[Colour], seat: int,
           marks: Sequence[Mark | None], penalty: bool) -> Position:
    """``sheets`` with ``seat``'s ``marks`` (and a penalty) written, and the closed colours."""
    sheet = sheets[seat]
    for m in marks:
        if m is not None:
            sheet = sheet.marked(m.colour.index, m.position)
            if m.closes:
                closed = closed | {m.colour}
    if penalty:
        sheet = sheet.with_penalty()
    out = list(sheets)
    out[seat] = sheet
    return (tuple(out), closed)


class WinPlayer(OnePlyPlayer):
    """The fast ``win`` player: one-ply choice by :class:`WinModel` (see the module docstring).

    Its decisions take a direct route: the choices' own sheets are built as row masks
    (no new positions), the opponents are summarised once per decision, and one
    forward pass scores every unfinished choice.  The numbers are those of
    :meth:`score` on the positions :class:`OnePlyPlayer` builds, to the last bit, so
    the choices are the same (tests/test_players_win.py plays both side by side).
    """

    def __init__(self, ruleset: Ruleset, model: WinModel | None = None,
                 name: str = "win") -> None:
        super().__init__(ruleset)
        self.name = name
        self.model = model if model is not None else load_model()
        self.summary = shared_summary(Advisor.for_ruleset(ruleset, progress=False),
                                      ruleset.players)

    def score(self, seat: int, positions: Sequence[Position],
              next_roller: int) -> Sequence[float]:
        out = [0.0] * len(positions)
        rows = []
        where = []
        summary = self.summary.sheet_summary
        for i, (sheets, closed) in enumerate(positions):
            if is_finished(sheets, closed):
                out[i] = terminal_share(sheets, seat)
            else:
                summaries = [summary(s, closed) for s in sheets]
                others = summaries[:seat] + summaries[seat + 1:]
                rows.append(race_row(summaries[seat], opponents_summary(others), len(closed),
                                     next_roller == seat, len(sheets)))
                where.append(i)
        self._predict_into(out, where, rows)
        return out

    def _predict_into(self, out: list[float], where: list[int], rows: list[list[float]]) -> None:
        """``out[where[k]]``: the model's win probability of feature row ``rows[k]``, all in
        one forward pass (its floats depend on the batch: one batch per decision)."""
        if rows:  # one flat pass is faster than np.array's reading of nested lists
            x = np.fromiter(chain.from_iterable(rows), np.float64, len(rows) * len(rows[0]))
            p = self.model.predict(x.reshape(len(rows), len(rows[0])))
            for i, v in zip(where, p, strict=True):
                out[i] = float(v)

    # -- the direct route ---------------------------------------------------------------------
    def action1(self, seat: int, state: GameState) -> Mark | None:
        sheets = state.sheets
        if not self._direct(sheets):
            return super().action1(seat, state)
        nxt = (state.active + 1) % len(sheets)
        if seat != state.active:
            choices: list[Mark | None] = [None, *legal_action1(state, seat)]
            if len(choices) == 1:  # nothing to choose (the one-ply score needs no model)
                self.decisions += 1
                return None
            values = self.choice_values(seat, sheets, state.closed,
                                        [((m,), False) for m in choices], nxt)
            chosen: Mark | None = choices[_argmax(values)]
            self.decisions += 1
            return chosen
        plans = legal_plans(state)
        edits = [((p.action1, p.action2), p.action1 is None and p.action2 is None)
                 for p in plans]
        values = self.choice_values(seat, sheets, state.closed, edits, nxt)
        self.decisions += 1
        mark: Mark | None = plans[_argmax(values)].action1
        return mark

    def action2(self, seat: int, state: GameState) -> Mark | None:
        sheets = state.sheets
        if not self._direct(sheets):
            return super().action2(seat, state)
        assert state.action1 is not None
        choices: list[Mark | None] = [None, *legal_action2(state)]
        if len(choices) == 1:
            return None
        nxt = (state.active + 1) % len(sheets)
        penalty = state.action1[seat] is None  # R11, also after an end in action 1 (R15)
        values = self.choice_values(seat, sheets, state.closed,
                                    [((m,), m is None and penalty) for m in choices], nxt)
        self.decisions += 1
        chosen: Mark | None = choices[_argmax(values)]
        return chosen

    def _direct(self, sheets: tuple[Sheet, ...]) -> bool:
        """Whether the direct route applies: every sheet of the summary's layout (else
        the general route, whose advisor names the wrong layout)."""
        layout = self.summary.layout
        return all(s.layout is layout for s in sheets)

    def choice_values(self, seat: int, sheets: tuple[Sheet, ...], closed: frozenset[Colour],
                      edits: Sequence[tuple[Sequence[Mark | None], bool]],
                      next_roller: int) -> list[float]:
        """:meth:`score` of the positions ``_apply(sheets, closed, seat, marks, penalty)``
        of ``edits``, without building them (sheets of the summary's layout)."""
        summary = self.summary
        n = len(sheets)
        others = sheets[:seat] + sheets[seat + 1:]
        own = sheets[seat]
        to_end = own.layout.closed_rows_to_end
        boxes = own.layout.penalty_boxes
        others_over = any(s.penalties >= boxes for s in others)
        masks0 = own.masks
        pen0 = own.penalties
        my_roll = next_roller == seat
        opp: dict[frozenset[Colour], Summary] = {}
        out = [0.0] * len(edits)
        rows = []
        where = []
        for i, (marks, penalty) in enumerate(edits):
            masks = masks0
            shut = closed
            for m in marks:
                if m is not None:
                    ci = m.colour.index
                    row = masks[ci] | 1 << m.colour.positions[m.number]
                    masks = (row if ci == 0 else masks[0], row if ci == 1 else masks[1],
                             row if ci == 2 else masks[2], row if ci == 3 else masks[3])
                    if m.number == m.colour.last_number:
                        shut = shut | {m.colour}
            pen = pen0 + 1 if penalty else pen0
            if len(shut) >= to_end or others_over or pen >= boxes:
                if pen > boxes:  # as Sheet.with_penalty refuses it
                    own.with_penalty()
                mine = Sheet.unchecked(masks, pen, own.layout)
                out[i] = terminal_share((*sheets[:seat], mine, *sheets[seat + 1:]), seat)
                continue
            agg = opp.get(shut)
            if agg is None:
                agg = opp[shut] = opponents_summary(
                    [summary.sheet_summary(s, shut) for s in others])
            rows.append(race_row(summary.masks_summary(masks, pen, shut), agg, len(shut),
                                 my_roll, n))
            where.append(i)
        self._predict_into(out, where, rows)
        return out


def _argmax(values: Sequence[float]) -> int:
    """The first index of the largest value (:meth:`OnePlyPlayer._best`'s choice)."""
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
    return best


class SolitairePlayer(OnePlyPlayer):
    """One-ply choice by the solitaire value of one's own sheet (the advisor's objective)."""

    def __init__(self, ruleset: Ruleset, name: str = "solitaire") -> None:
        super().__init__(ruleset)
        self.name = name
        self.advisor = Advisor.for_ruleset(ruleset, progress=False)

    def score(self, seat: int, positions: Sequence[Position],
              next_roller: int) -> Sequence[float]:
        value = self.advisor.value
        return [value(sheets[seat], closed) for sheets, closed in positions]


# -- the deep mode: rollouts with common random numbers -------------------------------------------

class DeepWinPlayer(WinPlayer):
    """``win-deep``: the fast player's top choices, each played out ``rollouts`` times."""

    def __init__(self, ruleset: Ruleset, seed: int = 0, rollouts: int = 32, top: int = 3,
                 horizon: int = 4, name: str = "win-deep", margin: float = 0.25,
                 passive: bool = True) -> None:
        super().__init__(ruleset, name=name)
        self.margin = margin
        #: Whether a passive player's choices are searched too (else one-ply, as ``win``).
        self.passive = passive
        self._search = True
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.top = top
        self.horizon = horizon
        self._fast = [WinPlayer(ruleset, self.model) for _ in range(ruleset.players)]

    # Its own decisions take the general route (positions for the rollouts, :meth:`_best`);
    # the rollouts' fast players take the direct one.
    def action1(self, seat: int, state: GameState) -> Mark | None:
        self._search = self.passive or seat == state.active
        return OnePlyPlayer.action1(self, seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        self._search = True
        return OnePlyPlayer.action2(self, seat, state)

    def _best(self, seat: int, choices: Sequence[Any], positions: Sequence[Position],
              next_roller: int) -> Any:
        if not self._search:
            return super()._best(seat, choices, positions, next_roller)
        self.decisions += 1
        values = self.score(seat, positions, next_roller)
        order = sorted(range(len(values)), key=lambda i: -values[i])[: self.top]
        live = [i for i in order if not is_finished(*positions[i])]
        if len(order) < 2 or not live or values[order[0]] >= 1.0 or \
                values[order[0]] - values[order[1]] > self.margin:
            return choices[order[0]]
        seeds = [self.rng.getrandbits(32) for _ in range(self.rollouts)]
        means = {}
        for i in order:
            if is_finished(*positions[i]):
                means[i] = values[i]
                continue
            total = 0.0
            for s in seeds:
                total += self._rollout(seat, positions[i], next_roller, s)
            means[i] = total / len(seeds)
        return choices[max(order, key=lambda i: means[i])]

    def _rollout(self, seat: int, position: Position, next_roller: int, seed: int) -> float:
        """Play ``horizon`` turns from ``position`` with the fast player in every seat, on the
        dice of ``seed``, then score the position reached (exactly if the game is over)."""
        sheets, closed = position
        state = GameState.make(self.ruleset, sheets, next_roller, closed, Phase.ROLL, None,
                                None, None, 0)
        state = play(self._fast, state, Dice.seeded(seed), turns=self.horizon).final
        if state.phase is Phase.OVER:
            return terminal_share(state.sheets, seat)
        return float(self.score(seat, [(state.sheets, state.closed)], state.active)[0])



def _win(ruleset: Ruleset, seed: int) -> Player:
    return WinPlayer(ruleset)


def _deep(ruleset: Ruleset, seed: int) -> Player:
    return DeepWinPlayer(ruleset, seed)


def _solitaire(ruleset: Ruleset, seed: int) -> Player:
    return SolitairePlayer(ruleset)


#: Name -> factory(ruleset, seed) for the arena's registry.
PLAYERS: dict[str, Callable[[Ruleset, int], Player]] = {
    "win": _win,
    "win-deep": _deep,
}
