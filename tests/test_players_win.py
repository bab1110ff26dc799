"""The ``win`` players: legal answers, determinism, exact terminal values, the model file."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import game_states, rulesets, skip

from qwixx_math.advice import Advisor
from qwixx_math.dice.events import turn_events
from qwixx_math.errors import ParseError
from qwixx_math.layouts import MIXX_A, OFFICIAL, SheetLayout
from qwixx_math.model import Colour, Mark, Sheet, TurnPlan
from qwixx_math.notation import parse_roll, parse_sheet
from qwixx_math.play import Dice, play
from qwixx_math.players import Player, race
from qwixx_math.players.race import FEATURES, N_FEATURES, RaceSummary, terminal_share
from qwixx_math.players.racer import PLAYERS as RACERS
from qwixx_math.players.racer import turns_to_five
from qwixx_math.players.win import (
    PLAYERS,
    DeepWinPlayer,
    OnePlyPlayer,
    Position,
    WinModel,
    WinPlayer,
    _apply,
    load_model,
)
from qwixx_math.rules import (
    GameState,
    Phase,
    legal_action1,
    legal_action2,
    legal_plans,
    new_game,
    random_roll,
)
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


def test_each_colour_reads_its_race_by_hand() -> None:
    """race._race on a hand-made sheet: five marks may close (0 turns), a locked row and
    a closed colour are out of the race (30 turns, may not close), marks are scored
    marks (the lock counts, R16), an open row reads its turns to five."""
    e5 = turns_to_five(2)[0]
    sheet = parse_sheet("r:2,3,4,5,6/y:2,3,4,5,6,12/g:12,11/b:-/p:0")
    rows = race._race(sheet, frozenset({Colour.GREEN}), e5)
    assert rows[0] == (0.0, 1.0, 5.0)
    assert rows[1] == (30.0, 0.0, 7.0)
    assert rows[2] == (30.0, 0.0, 2.0)
    assert rows[3] == (min(e5[0], 30.0), 0.0, 0.0) and 0.0 < rows[3][0] < 30.0
    # the same sheet from an opponent's seat and from one's own
    x = dict(zip(FEATURES, race_vector_of(sheet, Colour.GREEN), strict=True))
    assert x["progress"] == (5 + 7 + 2) / 2 / 10
    assert sorted((x[f"e5_{k}"], x[f"lockable_{k}"]) for k in range(1, 5)) == [
        (0.0, 1.0), (rows[3][0] / 10, 0.0), (3.0, 0.0), (3.0, 0.0)]
    assert sorted(x[f"opp_e5_{k}"] for k in range(1, 5)) == [rows[3][0] / 10] * 3 + [3.0]


def test_the_forced_penalty_reads_by_hand() -> None:
    """Every row at its last number but one, without five marks: no roll offers a mark, so
    my own roll is a sure penalty (R11); the empty sheet across the table never is; and
    from the other seat the two swap."""
    stuck = parse_sheet("r:11/y:11/g:3/b:3/p:1")
    rs = Ruleset(players=2)
    summary = RaceSummary(Advisor.for_ruleset(rs, progress=False), 2)
    for seat, mine, theirs in ((0, 1.0, 0.0), (1, 0.0, 1.0)):
        x = dict(zip(FEATURES, summary.features((stuck, Sheet.EMPTY), frozenset(), seat, 0),
                     strict=True))
        assert (x["my_forced"], x["opp_forced"]) == (mine, theirs)


def race_vector_of(sheet: Sheet, closed: Colour) -> np.ndarray:
    """The features of seat 0 holding ``sheet`` against an empty sheet, ``closed`` closed."""
    rs = Ruleset(players=2)
    summary = RaceSummary(Advisor.for_ruleset(rs, progress=False), 2)
    return summary.features((sheet, Sheet.EMPTY), frozenset({closed}), 0, 0)


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


@pytest.mark.parametrize("field, value", [
    ("b1", [0.0] * 5),                       # not one per hidden unit
    ("w2", [0.0] * 49),
    ("scale", [1.0] * 37),
    ("w1", [0.0] * 38),                      # a vector, not a matrix
    ("scale", [0.0] + [1.0] * 37),           # a zero scale would divide by zero
    ("b2", float("nan")),
])
def test_a_model_of_the_wrong_shape_is_a_parse_error_not_a_numpy_error(
        field: str, value: Any) -> None:
    data = load_model().to_json()
    data[field] = value
    with pytest.raises(ParseError):
        WinModel.from_json(data)


def test_a_model_file_round_trips_and_a_bad_file_is_a_parse_error(tmp_path: Any) -> None:
    model = load_model()
    good = tmp_path / "model.json"
    good.write_text(json.dumps(model.to_json()), encoding="utf-8")
    x = np.ones((1, N_FEATURES))
    assert np.array_equal(WinModel.from_file(str(good)).predict(x), model.predict(x))
    (tmp_path / "text.json").write_text("not json", encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    for name in ("missing.json", "text.json", "list.json"):
        with pytest.raises(ParseError, match="win model"):
            WinModel.from_file(str(tmp_path / name))


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=20)


def _loaded_or_refused(load: Callable[[], WinModel]) -> None:
    """``load`` gives a model that predicts probabilities, or raises ParseError (only)."""
    try:
        model = load()
    except ParseError:
        return
    p = model.predict(np.zeros((1, N_FEATURES)))
    assert ((p >= 0) & (p <= 1)).all()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200) | _JSON.map(lambda v: json.dumps(v).encode()),
       field=st.sampled_from(["w1", "b1", "w2", "b2", "mean", "scale"]), value=_JSON)
def test_any_model_file_loads_or_is_a_parse_error(tmp_path: Any, raw: bytes, field: str,
                                                 value: Any) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(raw)
    _loaded_or_refused(lambda: WinModel.from_file(str(path)))
    data = load_model().to_json()   # the shipped model with one field replaced
    data[field] = value
    _loaded_or_refused(lambda: WinModel.from_json(data))
    if not isinstance(value, str):  # anything but a path as a path (an int is no descriptor)
        _loaded_or_refused(lambda: WinModel.from_file(value))


def _with(field: str, value: Any) -> dict[str, Any]:
    data = load_model().to_json()
    data[field] = value
    return data


@pytest.mark.parametrize(("data", "words"), [
    (_with("w2", [10**400] + [0.0] * 47), "finite"),            # OverflowError before
    (_with("b2", 10**400), "finite"),
    (_with("b2", True), "bool is not a number"),                # accepted as 1.0 before
    (_with("b2", "0.5"), "'0.5' is str"),                       # numbers as strings
    (_with("mean", ["1"] * N_FEATURES), "str is not a number"),
    (_with("w1", [[1.0, 2.0]] + [[1.0]] * (N_FEATURES - 1)), "equally long"),
    ({**_with("w1", [[]] * N_FEATURES), "b1": [], "w2": []}, "at least one hidden unit"),
    ({"w1": [[1.0]]}, "missing b1, w2, b2, mean, scale"),
    ([1, 2], "JSON object"),
])
def test_bad_model_data_is_a_parse_error_naming_the_problem(data: Any, words: str) -> None:
    with pytest.raises(ParseError, match=words):
        WinModel.from_json(data)


@pytest.mark.parametrize("path", [None, 0, 3.5, b"model.json"])
def test_a_model_path_that_is_no_path_is_a_parse_error(path: Any) -> None:
    with pytest.raises(ParseError, match="file name must be text or a path"):
        WinModel.from_file(path)


@pytest.mark.parametrize("text", ["9" * 5000, "[" * 5000, '{"w1": 1e999}'])
def test_a_model_file_beyond_json_limits_is_a_parse_error(tmp_path: Any, text: str) -> None:
    path = tmp_path / "model.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ParseError, match="win model"):
        WinModel.from_file(str(path))


def test_predict_saturates_without_an_overflow_warning() -> None:
    """A logit of +-2000 is a probability of 1 or 0, not a RuntimeWarning from exp."""
    import warnings

    model = load_model()
    big = WinModel(model.w1, model.b1, model.w2 * 0, 0.0, model.mean, model.scale)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for b2, expected in ((2000.0, 1.0), (-2000.0, 0.0), (0.0, 0.5)):
            shifted = WinModel(big.w1, big.b1, big.w2, b2, big.mean, big.scale)
            assert shifted.predict(np.zeros((1, N_FEATURES)))[0] == expected
    x = np.random.default_rng(1).normal(size=(50, N_FEATURES)) * 3
    reference = 1.0 / (1.0 + np.exp(-(np.tanh((x - model.mean) / model.scale @ model.w1
                                               + model.b1) @ model.w2 + model.b2)))
    assert np.array_equal(model.predict(x), reference)


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


# -- the fast route against the straightforward one ------------------------------------------------

def _reference_vector(summaries: list[tuple[float, float, float, list[race.Row], float]],
                      n_closed: int, seat: int, next_roller: int) -> np.ndarray:
    """The feature vector straight from FEATURES' comments: per sheet (score, solitaire
    value, penalties, the race of each colour by race._race, the forced penalty by
    turn_events)."""
    me = summaries[seat]
    opps = [s for j, s in enumerate(summaries) if j != seat]
    opp_score = max((o[0] for o in opps), default=0.0)
    opp_value = max((o[1] for o in opps), default=0.0)
    n = len(summaries)
    out = [
        (me[0] - opp_score) / 10.0,
        (me[1] - opp_value) / 10.0,
        me[0] / 100.0, me[1] / 100.0, opp_score / 100.0, opp_value / 100.0,
        me[2], max((o[2] for o in opps), default=0.0),
        float(n_closed),
        1.0 if next_roller == seat else 0.0,
        sum(r[2] for s in summaries for r in s[3]) / n / 10.0,
        n / 5.0,
        me[4], max((o[4] for o in opps), default=0.0),
    ]
    colours = []
    for k in range(4):
        t, lk, mk = me[3][k]
        colours.append((t, min((o[3][k][0] for o in opps), default=30.0),
                        lk, max((o[3][k][1] for o in opps), default=0.0),
                        mk, max((o[3][k][2] for o in opps), default=0.0)))
    for t, ot, lk, olk, mk, omk in sorted(colours):
        out += [t / 10.0, ot / 10.0, lk, olk, mk / 10.0, omk / 10.0]
    return np.array(out)


class ReferenceWin(OnePlyPlayer):
    """``win`` the straightforward way: the position of every choice built with the rules
    core's general route (legal_plans given the passes), every summary computed from its
    definitions (race._race, Advisor.value), no caches, the model's formula."""

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.model = load_model()
        self.advisor = Advisor.for_ruleset(ruleset, progress=False)
        self.e5 = turns_to_five(ruleset.players)[0]

    def sheet_summary(self, sheet: Sheet, closed: frozenset[Colour]
                      ) -> tuple[float, float, float, list[race.Row], float]:
        return (float(sheet.score), self.advisor.value(sheet, closed), float(sheet.penalties),
                race._race(sheet, closed, self.e5),
                float(turn_events(sheet, closed).active.no_mark))

    def features(self, sheets: Sequence[Sheet], closed: frozenset[Colour], seat: int,
                 next_roller: int) -> np.ndarray:
        return _reference_vector([self.sheet_summary(s, closed) for s in sheets], len(closed),
                                 seat, next_roller)

    def score(self, seat: int, positions: Sequence[Position],
              next_roller: int) -> Sequence[float]:
        out = [0.0] * len(positions)
        rows, where = [], []
        for i, (sheets, closed) in enumerate(positions):
            if len(closed) >= 2 or any(s.penalties >= 4 for s in sheets):
                out[i] = terminal_share(sheets, seat)
            else:
                rows.append(self.features(sheets, closed, seat, next_roller))
                where.append(i)
        if rows:
            m = self.model
            x = np.array(rows)
            h = np.tanh((x - m.mean) / m.scale @ m.w1 + m.b1)
            p = 1.0 / (1.0 + np.exp(-(h @ m.w2 + m.b2)))
            for i, v in zip(where, p, strict=True):
                out[i] = float(v)
        return out

    def action1(self, seat: int, state: GameState) -> Mark | None:
        if seat != state.active:
            return super().action1(seat, state)
        plans = legal_plans(state, others=[None] * state.players)
        positions = [_apply(state.sheets, state.closed, seat, p.marks, p.penalty) for p in plans]
        best: TurnPlan = self._best(seat, plans, positions, (state.active + 1) % state.players)
        return best.action1


def _decisions(state: GameState) -> list[tuple[int, Sequence[Mark | None],
                                               list[tuple[tuple[Mark | None, ...], bool]]]]:
    """(seat, choices, edits) of every decision in ``state``, as the players list them."""
    out = []
    n = state.players
    if state.phase is Phase.ACTION1:
        for seat in range(n):
            if seat == state.active:
                plans = legal_plans(state, others=[None] * n)
                out.append((seat, [p.action1 for p in plans],
                            [(p.marks, p.penalty) for p in plans]))
            else:
                choices = [None, *legal_action1(state, seat)]
                out.append((seat, choices, [((m,), False) for m in choices]))
    else:
        assert state.action1 is not None
        penalty = state.action1[state.active] is None
        choices = [None, *legal_action2(state)]
        out.append((state.active, choices, [((m,), m is None and penalty) for m in choices]))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(_PHASES).filter(lambda s: s.players >= 1))
def test_win_direct_route_scores_every_choice_to_the_last_bit(state: GameState) -> None:
    """The direct route's values (no positions built, cached summaries, opponents summed up
    once) are the straightforward route's, bit for bit, and so are the answers."""
    fast = WinPlayer(state.ruleset)
    ref = ReferenceWin(state.ruleset)
    nxt = (state.active + 1) % state.players
    for seat, _choices, edits in _decisions(state):
        positions = [_apply(state.sheets, state.closed, seat, marks, pen) for marks, pen in edits]
        want = ref.score(seat, positions, nxt)
        assert fast.choice_values(seat, state.sheets, state.closed, edits, nxt) == want
        assert fast.score(seat, positions, nxt) == want
        for s, closed in positions:
            if race.is_finished(s, closed):  # scored exactly; no features (turn_events
                continue                     # refuses a finished game)
            for k in range(state.players):
                assert np.array_equal(fast.summary.features(s, closed, k, nxt),
                                      ref.features(s, closed, k, nxt))
    if state.players >= 2:
        assert _answers(fast, state) == _answers(ref, state)


class _Lockstep:
    """A seat whose every decision is asked of a reference player too, and must agree."""

    def __init__(self, player: Player, ref: Player | None) -> None:
        self.player, self.ref, self.name, self.asked = player, ref, player.name, 0

    def new_game(self, seat: int, state: GameState) -> None: ...

    def game_over(self, seat: int, state: GameState) -> None: ...

    def action1(self, seat: int, state: GameState) -> Mark | None:
        mark = self.player.action1(seat, state)
        if self.ref is not None:
            assert self.ref.action1(seat, state) == mark, (seat, state.describe())
            self.asked += 1
        return mark

    def action2(self, seat: int, state: GameState) -> Mark | None:
        mark = self.player.action2(seat, state)
        if self.ref is not None:
            assert self.ref.action2(seat, state) == mark, (seat, state.describe())
            self.asked += 1
        return mark


def _lockstep(players: list[Player], refs: dict[int, Player], rs: Ruleset, dice: Dice) -> int:
    """A game on ``dice`` (the one loop, :func:`qwixx_math.play.play`); every
    decision of the seats in ``refs`` is asked of the reference too and must be the same.
    The number of decisions compared."""
    seats = [_Lockstep(p, refs.get(s)) for s, p in enumerate(players)]
    play(seats, new_game(ruleset=rs), dice)
    return sum(seat.asked for seat in seats)


def test_win_decides_like_the_reference_on_the_bench_deals() -> None:
    """The first 20 deals of benchmarks/bench_win.py's ``win`` vs ``racer`` match (seed 1,
    both seatings): the same answer as the straightforward route at every decision."""
    rs = Ruleset(players=2)
    fast, ref, racer = WinPlayer(rs), ReferenceWin(rs), RACERS["racer"](rs, 2)
    asked = 0
    for g in range(20):
        asked += _lockstep([fast, racer], {0: ref}, rs, Dice.deal(1, g))
        asked += _lockstep([racer, fast], {1: ref}, rs, Dice.deal(1, g))
    assert asked > 1000


class ReferenceDeep(DeepWinPlayer):
    """``win-deep`` on the straightforward route: its rollouts played by ReferenceWin."""

    def __init__(self, ruleset: Ruleset, seed: int, **kw: Any) -> None:
        super().__init__(ruleset, seed, **kw)
        self._ref = ReferenceWin(ruleset)
        self._fast = [ReferenceWin(ruleset) for _ in range(ruleset.players)]

    def score(self, seat: int, positions: Sequence[Position],
              next_roller: int) -> Sequence[float]:
        return self._ref.score(seat, positions, next_roller)


def test_win_deep_decides_like_the_reference() -> None:
    """win-deep (8 rollouts here, to be quick) chooses as on the straightforward route: its
    rollouts' players and its scores are the fast ones."""
    rs = Ruleset(players=2)
    racer = RACERS["racer"](rs, 2)
    fast = DeepWinPlayer(rs, seed=3, rollouts=8)
    ref = ReferenceDeep(rs, seed=3, rollouts=8)
    assert _lockstep([fast, racer], {0: ref}, rs, Dice.deal(1, 0)) > 20


_K3 = SheetLayout.plain("k3", "aadd", closed_rows_to_end=3, penalty_boxes=5)
_K1 = SheetLayout.plain("k1", "ada", 6, lock_threshold=2, penalty_boxes=2, closed_rows_to_end=1)


@pytest.mark.parametrize("layout", [OFFICIAL, MIXX_A, _K3, _K1], ids=lambda la: la.name)
def test_is_finished_ends_the_game_where_the_rules_core_does(layout: SheetLayout) -> None:
    """race.is_finished (the win players' end of the game) is the rules core's end, also
    on layouts that end after 3 closed colours and 5 penalties, or after 1 and 2: at every
    state of random 3-player games, finished exactly when the game is over."""
    closed_counts_played_on = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = new_game(ruleset=Ruleset(players=3), layout=layout)
        while True:
            assert race.is_finished(state.sheets, state.closed) == state.is_over, \
                state.describe()
            if state.is_over:
                break
            closed_counts_played_on.add(len(state.closed))
            roll = random_roll(rng, state.dice_in_play)
            plans = legal_plans(state, roll)
            marking = [p for p in plans if not p.penalty]
            if not marking:
                choice = plans[0]  # the penalty
            elif rng.random() < 0.85:  # fill rows up so that they close
                choice = min(marking, key=lambda p: sum(skip(state.sheets[state.active], m)
                                                        for m in p.marks))
            else:
                choice = rng.choice(marking)
            state = state.play_plan(roll, choice)
    # the games went on after every closed-colour count short of the layout's end
    assert closed_counts_played_on == set(range(layout.closed_rows_to_end))


def test_win_decides_like_the_reference_at_a_table_of_three() -> None:
    """Rollouts of the win advice play win in every seat: at a table of three, on seeded
    deals, every seat's every decision is the straightforward route's (the fast forced
    penalty count, the written-out summaries and the flat feature rows included)."""
    rs = Ruleset(players=3)
    fast = [WinPlayer(rs) for _ in range(3)]
    ref = ReferenceWin(rs)
    asked = sum(_lockstep(fast, {0: ref, 1: ref, 2: ref}, rs, Dice.deal(35, g))
                for g in range(3))
    assert asked > 200
