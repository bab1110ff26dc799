"""Qwixx X-Change played (issue 34, VARIANTS.md §9.2): the exchange in action 1 (XC1), the
track used left to right (XC2) by any player for themselves (XC3), the Option
``xc_field_without_cross`` (XC4), the refused Option ``xc_in_action2`` (XC5) and the
penalty (XC6, V6), through the public API of the rules core; the builtin players on
the pad."""

from __future__ import annotations

import random

import pytest
from test_arena_layouts import OWN_TABLE

from qwixx_math.arena.match import play_match
from qwixx_math.arena.registry import make_player, player_names
from qwixx_math.errors import IllegalMoveError, ParseError
from qwixx_math.layouts import LAYOUTS, X_CHANGE
from qwixx_math.model import COLOURS, Colour, Mark, Roll, Sheet, TurnPlan
from qwixx_math.notation import parse_mark, parse_sheet
from qwixx_math.rules import (
    GameState,
    Phase,
    can_mark,
    legal_action1,
    legal_plans,
    new_game,
    random_roll,
    turn_outcomes,
    why_not_mark,
)
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver.cache import cache_dir, table_filename
from qwixx_math.solver.variant import Variant

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE
SPEND = Ruleset(2, xc_field_without_cross=True)


def _cached(players: int, ruleset: Ruleset) -> bool:
    """Whether the x-change solver table of ``players`` under ``ruleset``'s XC4 Option is
    in the table cache (the tests never solve it)."""
    variant = Variant(X_CHANGE).with_field_without_cross(ruleset.xc_field_without_cross)
    return (cache_dir() / table_filename(variant, False, players)).exists()


def _rolled(sheets: tuple[str, ...], roll: str, ruleset: Ruleset | None = None,
            active: int = 0) -> GameState:
    """A game on the pad with these sheets (text), in action 1 of ``roll``."""
    rs = ruleset or Ruleset(len(sheets))
    built = tuple(parse_sheet(s, X_CHANGE) for s in sheets)
    closed = frozenset(c for s in built for c in s.locked)
    return GameState(rs, built, active=active, closed=closed).with_roll(Roll.parse(roll))


# -- XC1: the exchange in action 1 -----------------------------------------------------------------

def test_legal_action1_lists_exchanges_after_the_plain_mark_of_the_same_cell() -> None:
    """White sum 11: plain 11 in every row, red/yellow/green/blue 3 through field 2 (11,3)
    and 9 through field 7 (11,9); sorted by row, left to right, the plain mark first."""
    state = _rolled(("r:-", "r:-"), "w:5,6/r:1/y:1/g:1/b:1")
    texts = [str(m) for m in legal_action1(state, 0)]
    assert texts == ["r3@x2", "r9@x7", "r11", "y3@x2", "y9@x7", "y11",
                     "g11", "g9@x7", "g3@x2", "b11", "b9@x7", "b3@x2"]
    # the same cell through the plain white sum and an exchange: white sum 8 on field 0
    # (8,5) and field 5 (8,6): red 8 plain, no exchange gives 8, so only 5 and 6 appear
    state = _rolled(("r:-", "r:-"), "w:4,4/r:1/y:1/g:1/b:1")
    red = [str(m) for m in legal_action1(state, 0) if m.colour is R]
    assert red == ["r5@x0", "r6@x5", "r8"]


def test_an_exchange_crosses_the_other_number_and_uses_the_field() -> None:
    state = _rolled(("r:2", "r:-"), "w:5,6/r:1/y:1/g:1/b:1")
    after = state.with_action1([Mark(R, 3, 2), None])
    assert after.sheets[0].marks(R) == (2, 3) and after.sheets[0].used_fields == (2,)
    assert str(after.sheets[0]) == "x-change|r:2,3/y:-/g:-/b:-/x:2/p:0"
    assert after.action1 == (Mark(R, 3, 2), None)
    assert GameState.from_json(after.to_json()) == after


@pytest.mark.parametrize(("sheet", "mark", "rule", "words"), [
    ("r:2/x:1", Mark(R, 4, 2), "XC1", "exchanges the white sum 11 for 3, not 4"),
    ("r:2/x:1", Mark(R, 5, 0), "XC1", "is not right of field 1"),      # XC2 first
    ("r:2", Mark(R, 5, 0), "XC1", "the white sum 11 is neither"),     # field 0 is (8, 5)
    ("r:2/x:1", Mark(R, 3, 9), "XC1", "fields 0 to 8"),
    ("r:2/x:1", Mark(R, 9, 1), "XC2", "not right of field 1"),         # field 1 is used
    ("r:2,4/x:1", Mark(R, 3, 2), "R7", "red 3 is left of red 4"),     # the cross obeys R7
])
def test_illegal_exchanges_name_the_rule(sheet: str, mark: Mark, rule: str,
                                         words: str) -> None:
    state = _rolled((sheet, "r:-"), "w:5,6/r:1/y:1/g:1/b:1")
    if words == "is not right of field 1":
        rule = "XC2"
    with pytest.raises(IllegalMoveError) as info:
        state.with_action1([mark, None])
    assert info.value.rule == rule and words in str(info.value) and info.value.player == 0


def test_xc2_skipped_fields_are_lost() -> None:
    """Example 1 of §9.3: after field 1, white sum 11 offers fields 2 and 7; using field 7
    loses fields 2-6 (a later white sum 11 can only use ... nothing left with 11 but 7)."""
    state = _rolled(("r:2/x:1", "r:-"), "w:5,6/r:1/y:1/g:1/b:1")
    far = state.with_action1([Mark(Y, 9, 7), None]).with_action2(None)
    assert far.sheets[0].used_fields == (1, 7) and far.sheets[0].last_field == 7
    again = far.with_roll(Roll.parse("w:5,6/r:1/y:1/g:1/b:1"))
    assert not [m for m in legal_action1(again, 0) if m.field is not None]
    with pytest.raises(IllegalMoveError, match="XC2"):
        again.with_action1([Mark(R, 3, 2), None])
    assert why_not_mark(again, 0, R, 3, field=2) is not None
    assert why_not_mark(again, 0, R, 3, field=2)[0] == "XC2"  # type: ignore[index]


def test_any_player_exchanges_for_themselves_only_xc3() -> None:
    """The non-active player exchanges too (XC1: any player); the other sheet, the roll
    and the other player's choices are untouched (XC3)."""
    state = _rolled(("r:-", "g:12/x:0"), "w:5,6/r:1/y:1/g:1/b:1")
    after = state.with_action1([Mark(R, 11), Mark(G, 3, 2)])
    assert after.sheets[1].used_fields == (0, 2) and after.sheets[0].used_fields == ()
    assert after.roll == state.roll and after.sheets[0].marks(R) == (11,)
    # player 0's exchange options do not depend on player 1's track
    assert legal_action1(state, 0) == legal_action1(
        _rolled(("r:-", "g:12"), "w:5,6/r:1/y:1/g:1/b:1"), 0)


def test_an_exchange_cannot_cross_a_closed_colour_or_break_the_lock_rule() -> None:
    # red closed by player 1: no red exchange for player 0 (R9)
    state = _rolled(("r:-", "r:2,3,4,5,6,12"), "w:5,6/y:1/g:1/b:1")
    assert all(m.colour is not R for m in legal_action1(state, 0))
    with pytest.raises(IllegalMoveError, match="R9"):
        state.with_action1([Mark(R, 3, 2), None])


def test_an_exchange_is_a_voluntary_cross_no_penalty_xc6() -> None:
    state = _rolled(("r:-", "r:-"), "w:5,6/r:1/y:1/g:1/b:1")
    done = state.with_action1([Mark(R, 3, 2), None]).with_action2(None)
    assert done.sheets[0].penalties == 0
    passed = state.with_action1([None, None]).with_action2(None)
    assert passed.sheets[0].penalties == 1


# -- XC4: a field spent alone ----------------------------------------------------------------------

def test_xc4_default_a_field_is_never_spent_alone() -> None:
    state = _rolled(("r:-", "r:-"), "w:5,6/r:1/y:1/g:1/b:1")
    assert not any(not m.crosses for m in legal_action1(state, 0))
    with pytest.raises(IllegalMoveError) as info:
        state.with_action1([Mark.spend(2), None])
    assert info.value.rule == "XC4" and "xc_field_without_cross" in str(info.value)


def test_xc4_option_a_field_spent_alone_spares_the_penalty() -> None:
    """§9.3 example 2's position: white sum 8, no row takes a 5 or a 6 any more; under
    the Option, field 0 or field 5 may be spent alone, and it spares the penalty (V6)."""
    sheet = "r:6/y:7/g:12,5/b:4/p:3"
    state = _rolled((sheet, "r:-"), "w:4,4/r:1/y:1/g:1/b:1", SPEND)
    moves = [str(m) for m in legal_action1(state, 0)]
    assert moves == ["r8", "y8", "x0", "x5"]
    spent = state.with_action1([Mark.spend(5), None]).with_action2(None)
    assert spent.sheets[0].used_fields == (5,) and spent.sheets[0].penalties == 3
    assert not spent.is_over
    assert spent.sheets[0].masks == state.sheets[0].masks
    # the default refuses both fields: only the plain 8s
    default = _rolled((sheet, "r:-"), "w:4,4/r:1/y:1/g:1/b:1")
    assert [str(m) for m in legal_action1(default, 0)] == ["r8", "y8"]
    assert TurnPlan(Mark.spend(0), None) in legal_plans(state)
    assert TurnPlan(Mark.spend(0), None) not in legal_plans(default)


# -- XC5: action 2 ---------------------------------------------------------------------------------

def test_xc5_the_action2_option_is_refused_and_an_action2_exchange_is_illegal() -> None:
    with pytest.raises(ParseError) as info:
        Ruleset(2, xc_in_action2=True)
    assert info.value.rule == "XC5"
    with pytest.raises(ParseError) as info:
        Ruleset.from_json({"xc_in_action2": True})
    assert info.value.rule == "XC5"
    state = _rolled(("r:-", "r:-"), "w:5,6/r:1/y:1/g:1/b:1").with_action1([None, None])
    with pytest.raises(IllegalMoveError) as err:
        state.with_action2(Mark(R, 3, 2))
    assert err.value.rule == "XC5"
    assert why_not_mark(state, 0, R, 3, field=2) == (
        "XC5", "red 3 (X-Change field 2): an exchange is made in action 1 only "
               "(xc_in_action2=False)")


def test_the_options_round_trip_through_the_ruleset_json() -> None:
    assert Ruleset.from_json(SPEND.to_json()) == SPEND
    assert "xc_field_without_cross" not in Ruleset(2).to_json()
    assert not SPEND.is_official


# -- why_not_mark and can_mark ---------------------------------------------------------------------

def test_why_not_mark_asks_about_exchanges() -> None:
    state = _rolled(("r:2/x:1", "r:-"), "w:5,6/r:1/y:1/g:1/b:1")
    assert can_mark(state, 0, R, 3, field=2)
    assert why_not_mark(state, 0, R, 3) == ("R5", "action 1 marks the white sum 11, not 3")
    assert why_not_mark(state, 0, R, 3, field=0)[0] == "XC2"  # type: ignore[index]
    assert why_not_mark(state, 0, R, 4, field=2)[0] == "XC1"  # type: ignore[index]
    # before the roll: whether some white sum can reach the cell through the field
    before = GameState(Ruleset(2), state.sheets)
    assert can_mark(before, 0, R, 3, field=2) and can_mark(before, 0, R, 11, field=2)
    assert why_not_mark(before, 0, R, 4, field=2)[0] == "XC1"  # type: ignore[index]
    assert why_not_mark(before, 0, R, 3, field=1)[0] == "XC2"  # type: ignore[index]


# -- the rules core against a brute force ----------------------------------------------------------

def _all_action1(layout_top: int = 12) -> list[Mark]:
    """Every action-1 choice there is: plain marks, exchange marks, spends."""
    out = [Mark(c, n) for c in COLOURS for n in range(2, layout_top + 1)]
    out += [Mark(c, n, k) for c in COLOURS for n in range(2, layout_top + 1)
            for k in range(len(X_CHANGE.exchange))]
    out += [Mark.spend(k) for k in range(len(X_CHANGE.exchange))]
    return out


def _random_states(ruleset: Ruleset, games: int, seed: int) -> list[GameState]:
    """Rolled states of random games on the pad (every plan equally likely)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = new_game(ruleset=ruleset, layout=X_CHANGE)
        while not state.is_over:
            rolled = state.with_roll(random_roll(rng, state.dice_in_play))
            out.append(rolled)
            outcomes = turn_outcomes(rolled)
            state = rng.choice(sorted(outcomes, key=str))
    return out


@pytest.mark.parametrize("ruleset", [Ruleset(2), SPEND], ids=["default", "spend"])
def test_legal_action1_is_exactly_what_with_action1_accepts(ruleset: Ruleset) -> None:
    """Slow and obvious: every conceivable action-1 choice of either player tried alone
    in ``with_action1``; the accepted ones are exactly legal_action1's."""
    candidates = _all_action1()
    states = _random_states(ruleset, 2, 34)
    assert len(states) > 20
    exchanges = 0
    for state in states[::3]:
        for player in (0, 1):
            accepted = set()
            for mark in candidates:
                choices: list[Mark | None] = [None, None]
                choices[player] = mark
                try:
                    state.with_action1(choices)
                except IllegalMoveError:
                    continue
                accepted.add(mark)
            listed = legal_action1(state, player)
            assert set(listed) == accepted and len(listed) == len(accepted)
            exchanges += sum(m.field is not None for m in listed)
    assert exchanges > 0


def test_random_games_use_the_track_and_keep_it_consistent() -> None:
    """Turn outcomes on random games: every state reached is a valid GameState (its JSON
    reads back equal), and fields get used."""
    states = _random_states(Ruleset(2), 3, 7)
    used = max(len(s.sheets[p].used_fields) for s in states for p in (0, 1))
    assert used >= 2
    for state in states[::5]:
        assert GameState.from_json(state.to_json()) == state
        for after in turn_outcomes(state):
            assert after.phase in (Phase.ROLL, Phase.OVER)


# -- the builtin players play the pad ------------------------------------------------------------

@pytest.mark.parametrize("ruleset", [Ruleset(2), SPEND], ids=["default", "spend"])
@pytest.mark.parametrize("name", player_names())
def test_every_builtin_player_plays_the_pad_without_a_fault(name: str, ruleset: Ruleset
                                                            ) -> None:
    """Players that know no exchange never make one; the ones built on a solver table
    (the solver solves the pad: minutes, 3.4 GB) only when their table is cached, as on
    Longo (the table model refuses the pad, XC1: its stand-in plays)."""
    if name in OWN_TABLE and not _cached(OWN_TABLE[name], ruleset):
        pytest.skip(f"the x-change table of {name} is not in the cache")
    players = [make_player(name, ruleset, 1, layout=X_CHANGE),
               make_player("random", ruleset, 2, layout=X_CHANGE)]
    result = play_match(players, 2, 5, ruleset, layout=X_CHANGE)
    assert result.faults == ()


def test_players_play_under_the_spend_option() -> None:
    players = [make_player(name, SPEND, 3, layout=X_CHANGE) for name in ("random", "greedy")]
    result = play_match(players, 4, 9, SPEND, layout=X_CHANGE)
    assert result.faults == ()


def test_the_pad_is_published() -> None:
    assert LAYOUTS["x-change"] is X_CHANGE
    assert new_game(1, layout="x-change").sheets[0] == Sheet.empty(X_CHANGE)
    assert parse_mark("r3@x2") == Mark(R, 3, 2) and parse_mark("x2") == Mark.spend(2)
