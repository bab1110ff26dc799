"""Shared hypothesis strategies and game drivers for the qwixx_math tests.

Import from a test module as ``from strategies import sheets, games, ...``
(pytest puts ``tests/`` on ``sys.path``).  Everything here builds *legal*
values through the public API unless its name says otherwise.

Values
    :func:`colours`, :func:`numbers`, :func:`marks`, :func:`row_masks`,
    :func:`sheets`, :func:`rolls`, :func:`plans`, :func:`rulesets`
Layouts
    :data:`TINY` (a small plain layout), :data:`RULE_LAYOUTS`, :func:`layouts`,
    :func:`closes`, :func:`position`
Games
    :data:`SWITCHES` (the 24 switch combinations), :func:`all_rulesets`,
    :data:`CHOOSERS` (``uniform``, ``small_skips``), :func:`small_skip_chooser`,
    :func:`trace`, :func:`play_game`, :class:`PlayedGame`, :class:`TurnTrace`,
    :func:`games`, :func:`game_states`
Fuzzing
    :func:`json_values` (arbitrary JSON-like values), :func:`mutated_json`
    (a valid JSON document with one part replaced by garbage)

Why a second chooser: with uniformly random choices a row is almost never
closed (under 1 % of 4-player games end by R14), so the closing rules would go
untested.  :func:`small_skip_chooser` marks only numbers that skip at most one
box (the active player, to dodge a penalty, accepts up to three), so rows fill
up and close: about two thirds of 4-player games then end by R14.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from qwixx_math.layouts import CONNECTED_STEPS, MIXX_A, MIXX_B, OFFICIAL, X_CHANGE, SheetLayout
from qwixx_math.model import (
    COLOURS,
    LAST_POSITION,
    LOCK_THRESHOLD,
    Colour,
    Mark,
    Roll,
    Sheet,
    TurnPlan,
)
from qwixx_math.record import Chooser, GameRecord, TurnRecord, random_game, uniform_chooser
from qwixx_math.rules import GameState, Phase, legal_plans, new_game, random_roll
from qwixx_math.ruleset import DieRemoval, EndCheck, Ruleset

__all__ = [
    "CHOOSERS",
    "RULE_LAYOUTS",
    "SWITCHES",
    "TINY",
    "PlayedGame",
    "TurnTrace",
    "all_rulesets",
    "closes",
    "colours",
    "game_states",
    "games",
    "json_values",
    "layouts",
    "marks",
    "mutated_json",
    "numbers",
    "plans",
    "play_game",
    "position",
    "random_position",
    "rolls",
    "row_masks",
    "rulesets",
    "sheets",
    "skip",
    "small_skip_chooser",
    "trace",
]

# -- layouts --------------------------------------------------------------------------------------

#: A small plain layout: three rows (red 2..7 up, yellow 12..7 down, green 2..7 up), a lock
#: after 2 marks, 3 penalty boxes, the game ends when 2 rows are closed.
TINY = SheetLayout.plain("tiny", "ada", 6, lock_threshold=2, penalty_boxes=3)
#: The layouts the rules properties run on (Connected Steps: play unchanged, CS1; X-Change:
#: the exchanges of legal_action1 too, XC1-XC4).
RULE_LAYOUTS: tuple[SheetLayout, ...] = (OFFICIAL, MIXX_A, MIXX_B, TINY, CONNECTED_STEPS,
                                         X_CHANGE)


def layouts(official_weight: int = 6) -> st.SearchStrategy[SheetLayout]:
    """A layout: the official sheet ``official_weight`` times in 10, else Mixx A, Mixx B
    or :data:`TINY` (so the official game keeps most examples)."""
    rest = 10 - official_weight
    pool = [OFFICIAL] * official_weight + [MIXX_A] * (rest * 2 // 5) + \
        [MIXX_B] * (rest * 2 // 5)
    pool += [TINY] * (10 - len(pool))
    return st.sampled_from(pool)


def closes(layout: SheetLayout, mark: Mark) -> bool:
    """Whether ``mark`` is its row's last number on ``layout`` (R8)."""
    return mark.number == layout.last_number(mark.colour)


def position(layout: SheetLayout, mark: Mark) -> int:
    """The position of ``mark`` in its row of ``layout``."""
    pos = layout.position(mark.colour, mark.number)
    assert pos is not None
    return pos


# -- values ---------------------------------------------------------------------------------------


def colours() -> st.SearchStrategy[Colour]:
    """Any colour."""
    return st.sampled_from(COLOURS)


def numbers() -> st.SearchStrategy[int]:
    """A number printed on a row: 2..12."""
    return st.integers(2, 12)


def marks() -> st.SearchStrategy[Mark]:
    """Any mark (colour and number)."""
    return st.builds(Mark, colours(), numbers())


def row_masks(allow_lock: bool = True) -> st.SearchStrategy[int]:
    """A row as a mask of marked positions that R7/R8 allow (a lock only after 5 marks)."""
    body = st.integers(0, (1 << LAST_POSITION) - 1)
    if not allow_lock:
        return body

    def maybe_lock(mask: int) -> st.SearchStrategy[int]:
        if mask.bit_count() < LOCK_THRESHOLD:
            return st.just(mask)
        return st.sampled_from([mask, mask | 1 << LAST_POSITION])

    return body.flatmap(maybe_lock)


def sheets(max_penalties: int = 4, allow_lock: bool = True) -> st.SearchStrategy[Sheet]:
    """Any valid sheet (every row legal on its own; up to ``max_penalties`` penalties)."""
    return st.builds(
        lambda r, y, g, b, p: Sheet((r, y, g, b), p),
        row_masks(allow_lock), row_masks(allow_lock), row_masks(allow_lock), row_masks(allow_lock),
        st.integers(0, max_penalties),
    )


def rolls(in_play: frozenset[Colour] | None = None) -> st.SearchStrategy[Roll]:
    """A roll of the whites and the coloured dice ``in_play`` (a random subset if None)."""
    die = st.integers(1, 6)
    chosen = st.just(in_play) if in_play is not None else st.frozensets(colours())

    def build(cs: frozenset[Colour]) -> st.SearchStrategy[Roll]:
        dice = [die if c in cs else st.none() for c in COLOURS]
        return st.builds(lambda w1, w2, r, y, g, b: Roll((w1, w2), (r, y, g, b)),
                         die, die, *dice)

    return chosen.flatmap(build)


def plans() -> st.SearchStrategy[TurnPlan]:
    """Any turn plan (legal or not): each action a mark or None."""
    return st.builds(TurnPlan, st.none() | marks(), st.none() | marks())


#: The 24 combinations of the switches: (action2_after_game_end, die_removal, end_check,
#: simultaneous_close).
SWITCHES: tuple[tuple[bool, DieRemoval, EndCheck, bool], ...] = tuple(
    itertools.product((False, True), tuple(DieRemoval), tuple(EndCheck), (True, False)))


def all_rulesets(players: int) -> list[Ruleset]:
    """The 24 rulesets for ``players`` players, the official one first."""
    return [Ruleset(players, a2, dr, ec, sc) for a2, dr, ec, sc in SWITCHES]


def rulesets(players: st.SearchStrategy[int] | None = None) -> st.SearchStrategy[Ruleset]:
    """Any ruleset: 1..5 players (or ``players``) and any of the 24 switch combinations."""
    count = players if players is not None else st.integers(1, 5)
    return st.builds(lambda n, sw: Ruleset(n, *sw), count, st.sampled_from(SWITCHES))


# -- choosers -------------------------------------------------------------------------------------


def skip(sheet: Sheet, mark: Mark) -> int:
    """How many boxes of its row ``mark`` would skip on ``sheet`` (0 for a closing mark)."""
    if closes(sheet.layout, mark):
        return 0
    return position(sheet.layout, mark) - sheet.masks[mark.colour.index].bit_length()


def random_position(rng: random.Random, ruleset: Ruleset,
                    layout: SheetLayout = OFFICIAL) -> GameState:
    """A position, not yet over, of a solitaire game of random (mostly marking) play."""
    state = new_game(ruleset=ruleset, layout=layout)
    seen = []
    while not state.is_over:
        seen.append(state)
        roll = random_roll(rng, state.dice_in_play)
        plans = legal_plans(state, roll)
        marking = [p for p in plans if not p.penalty]
        if not marking:
            choice = plans[0]  # the penalty
        elif rng.random() < 0.85:
            # the plan that skips fewest boxes, so that rows fill up and close
            choice = min(marking, key=lambda p: sum(skip(state.sheets[0], m) for m in p.marks))
        else:
            choice = rng.choice(marking)
        state = state.play_plan(roll, choice)
    # late positions (closing rows, last penalty) are the interesting ones
    return seen[max(0, len(seen) - 1 - int(rng.expovariate(0.15)))]


def small_skip_chooser(state: GameState, player: int, legal: Sequence[Mark],
                       rng: random.Random) -> Mark | None:
    """Take a legal mark that skips at most one box (three for an active player facing a
    penalty), the smallest skip first; pass otherwise and, now and then, anyway."""
    if not legal:
        return None
    sheet = state.sheets[player]
    best = min(legal, key=lambda m: (skip(sheet, m), rng.random()))
    limit = 1
    if state.phase is Phase.ACTION2 and state.action1 is not None and \
            state.action1[player] is None:
        limit = 3
    if skip(sheet, best) <= limit and rng.random() > 0.05:
        return best
    return None


#: The choosers games are played with, by name.
CHOOSERS: dict[str, Chooser] = {"uniform": uniform_chooser, "small_skips": small_skip_chooser}


# -- games ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnTrace:
    """One turn of a traced game: the state before it and after each of its steps."""

    record: TurnRecord
    before: GameState  # phase ROLL
    rolled: GameState  # phase ACTION1
    after1: GameState  # phase ACTION2, or OVER when the game ended in action 1 (R15)
    after: GameState  # phase ROLL (next player) or OVER


@dataclass(frozen=True)
class PlayedGame:
    """A random legal game: its record, every state it went through, and their JSON as first
    seen (``snapshots[i]`` is a deep copy of ``states[i].to_json()`` taken when it was made)."""

    record: GameRecord
    chooser: str
    turns: tuple[TurnTrace, ...]
    states: tuple[GameState, ...]
    snapshots: tuple[dict[str, Any], ...]

    @property
    def ruleset(self) -> Ruleset:
        return self.record.ruleset

    @property
    def final(self) -> GameState:
        return self.states[-1]


def trace(record: GameRecord, chooser: str = "?") -> PlayedGame:
    """Replay ``record`` step by step (with_roll, with_action1, with_action2), keeping every
    state and a snapshot of its JSON taken at once."""
    state = new_game(ruleset=record.ruleset, first=record.first, layout=record.layout)
    states = [state]
    snapshots = [copy.deepcopy(state.to_json())]
    turns = []
    for turn in record.turns:
        rolled = state.with_roll(turn.roll)
        after1 = rolled.with_action1(turn.action1)
        after = after1.with_action2(turn.action2) if after1.phase is Phase.ACTION2 else after1
        turns.append(TurnTrace(turn, state, rolled, after1, after))
        for s in (rolled, after1, after):
            if s is not states[-1]:
                states.append(s)
                snapshots.append(copy.deepcopy(s.to_json()))
        state = after
    return PlayedGame(record, chooser, tuple(turns), tuple(states), tuple(snapshots))


def play_game(ruleset: Ruleset, seed: int, chooser: str = "uniform",
              layout: SheetLayout = OFFICIAL) -> PlayedGame:
    """A seeded random legal game under ``ruleset`` on ``layout``, traced (see :func:`trace`)."""
    record = random_game(ruleset=ruleset, seed=seed, chooser=CHOOSERS[chooser], layout=layout)
    return trace(record, chooser)


def describe_end(game: PlayedGame) -> list[str]:
    """Labels of how the game went, for :func:`hypothesis.event` and coverage counts."""
    final = game.final
    layout = final.layout
    labels = [f"ended by {final.ended_by}"]
    if final.closed:
        labels.append("a colour closed")
    if len(final.closed) >= 3:
        labels.append("three colours closed")
    if any(s.penalties == layout.penalty_boxes for s in final.sheets):
        labels.append("four penalties")
    for t in game.turns:
        closers = [m for m in t.record.action1 if m is not None and closes(layout, m)]
        if len({m.colour for m in closers}) < len(closers):
            labels.append("simultaneous close")
        if t.after1.phase is Phase.ACTION2 and t.after1.ended_by is not None:
            labels.append("action 2 after the game ended")
        if t.record.action2 is not None and t.record.action2.colour in t.after1.closed - \
                t.before.closed:
            labels.append("action 2 in a colour closed in action 1")
    return sorted(set(labels))


@st.composite
def games(draw: st.DrawFn, players: st.SearchStrategy[int] | None = None,
          ruleset: st.SearchStrategy[Ruleset] | None = None,
          chooser: st.SearchStrategy[str] | None = None,
          layout: st.SearchStrategy[SheetLayout] | None = None) -> PlayedGame:
    """A random legal game: any ruleset for 1..5 players, either chooser, a drawn seed, on
    the official sheet (or a layout drawn from ``layout``)."""
    rs = draw(ruleset if ruleset is not None else rulesets(players))
    name = draw(chooser if chooser is not None else st.sampled_from(sorted(CHOOSERS)))
    seed = draw(st.integers(0, 2**32 - 1))
    lay = draw(layout) if layout is not None else OFFICIAL
    game = play_game(rs, seed, name, lay)
    event(f"chooser {name}")
    event(f"layout {lay.name}")
    for label in describe_end(game):
        event(label)
    return game


def game_states(phases: Sequence[Phase] | None = None) -> st.SearchStrategy[GameState]:
    """A state some random legal game passes through (in one of ``phases``, default any)."""
    wanted = tuple(phases) if phases is not None else tuple(Phase)

    def pick(game: PlayedGame) -> st.SearchStrategy[GameState]:
        found = [s for s in game.states if s.phase in wanted]
        return st.sampled_from(found) if found else st.nothing()

    return games().flatmap(pick)


# -- fuzzing --------------------------------------------------------------------------------------


def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Arbitrary JSON-like values (None, bools, ints, floats incl. nan/inf, text, lists, dicts)."""
    leaves = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
              | st.sampled_from(["red", "r", "r8", "w:3,5", "lock", "over", "R14", "-"]))
    return st.recursive(
        leaves,
        lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids,
                                                                   max_size=4),
        max_leaves=max_leaves)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


#: Every path into a JSON value (the value's own path ``()`` first), for tests that edit
#: records field by field.
json_paths = _paths


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


@st.composite
def mutated_json(draw: st.DrawFn, valid: st.SearchStrategy[Any]) -> Any:
    """A valid JSON document from ``valid`` with one part (possibly the whole) replaced by an
    arbitrary JSON value, or one dict key dropped: near-misses that reach deep into a parser."""
    doc = draw(valid)
    path = draw(st.sampled_from(_paths(doc)))
    if path and isinstance(_get(doc, path[:-1]), dict) and draw(st.booleans()):
        out = copy.deepcopy(doc)
        del _get(out, path[:-1])[path[-1]]
        return out
    return _replace(doc, path, draw(json_values()))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value
