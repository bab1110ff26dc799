"""The built-in players against slow obvious definitions: greedy by brute force over the
rules core's legal plans, greedy = the fewest-skips policy in solitaire, solo's action 2
by playing every choice out."""

from __future__ import annotations

import pytest
from strategies import all_rulesets, play_game

from qwixx_math.arena import open_players, play_match
from qwixx_math.model import Colour, Mark, Sheet, TurnPlan
from qwixx_math.players.greedy import GreedyPlayer
from qwixx_math.rules import GameState, Phase, legal_action1, legal_action2, legal_plans
from qwixx_math.ruleset import Ruleset

MARK = 1 / 8


def row_numbers(colour: Colour) -> list[int]:
    return list(range(2, 13)) if colour in (Colour.RED, Colour.YELLOW) else \
        list(range(12, 1, -1))


def skips(sheet: Sheet, marks: list[Mark]) -> list[int]:
    """The numbers each mark passes over, marking them in order on ``sheet`` (by the
    printed numbers, not the masks)."""
    done = {c: list(sheet.marks(c)) for c in Colour}
    out = []
    for m in marks:
        row = row_numbers(m.colour)
        start = row.index(done[m.colour][-1]) + 1 if done[m.colour] else 0
        out.append(row.index(m.number) - start)
        done[m.colour].append(m.number)
    return out


def plan_h(sheet: Sheet, plan: TurnPlan) -> float:
    if plan.penalty:
        return -1000.0
    return sum(MARK - k for k in skips(sheet, list(plan.marks)))


def first_best(scored: list[tuple[float, TurnPlan]]) -> TurnPlan:
    best = max(h for h, _ in scored)
    return next(p for h, p in scored if h == best)


def brute_active(state: GameState) -> Mark | None:
    """greedy's definition: the first legal plan (others passing) of highest h."""
    sheet = state.sheets[state.active]
    return first_best([(plan_h(sheet, p), p) for p in legal_plans(state)]).action1


def brute_action2(before: GameState, after1: GameState) -> Mark | None:
    """The best completion of the action 1 played, among the legal plans with the others'
    actual action-1 choices."""
    assert after1.action1 is not None
    a = after1.active
    sheet = before.sheets[a]
    others = list(after1.action1)
    plans = [p for p in legal_plans(before, others=others) if p.action1 == after1.action1[a]]
    return first_best([(plan_h(sheet, p), p) for p in plans]).action2


def brute_passive(state: GameState, seat: int) -> Mark | None:
    sheet = state.sheets[seat]
    scored = [(0.0, TurnPlan())] + [(MARK - skips(sheet, [m])[0], TurnPlan(m))
                                    for m in legal_action1(state, seat)]
    return first_best(scored).action1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_against_brute_force(players: int) -> None:
    """On every state of seeded games under every ruleset, greedy's choices are the brute-
    force definition's (for the active player, passive players and action 2)."""
    greedy = GreedyPlayer()
    checked = 0
    for k, ruleset in enumerate(all_rulesets(players)):
        for seed in range(2 if players == 2 else 1):
            game = play_game(ruleset, 100 * k + seed, "small_skips")
            for t in game.turns:
                rolled = t.rolled
                for seat in range(players):
                    want = brute_active(rolled) if seat == rolled.active else \
                        brute_passive(rolled, seat)
                    assert greedy.action1(seat, rolled) == want, (rolled.describe(), seat)
                if t.after1.phase is Phase.ACTION2:
                    got = greedy.action2(t.after1.active, t.after1)
                    assert got == brute_action2(rolled, t.after1), t.after1.describe()
                    checked += 1
    assert checked > 100


def test_greedy_is_the_fewest_skips_policy_in_solitaire() -> None:
    """In solitaire, greedy's action 1 then action 2 is the plan of the fewest-skips
    policy of qwixx_math.policies, turn by turn."""
    from qwixx_math.policies import make_policy

    policy = make_policy("fewest-skips")
    greedy = GreedyPlayer()
    for seed in range(12):
        game = play_game(Ruleset(1, action2_after_game_end=seed % 2 == 1), seed, "small_skips")
        for t in game.turns:
            want = policy.choose(t.before, t.record.roll)
            a1 = greedy.action1(0, t.rolled)
            after1 = t.rolled.with_action1([a1])
            a2 = greedy.action2(0, after1) if after1.phase is Phase.ACTION2 else None
            assert TurnPlan(a1, a2) == want, t.rolled.describe()


def test_greedy_and_random_play_without_faults() -> None:
    for names in (["greedy", "random"], ["greedy", "greedy", "random", "random", "greedy"]):
        n = len(names)
        with open_players(names, Ruleset(n), 1) as players:
            result = play_match(players, 2 * n, 1)
        assert result.faults == ()


@pytest.fixture(scope="module")
def solo_players() -> list[object]:
    from qwixx_math.players.solo import make

    return [make(Ruleset(2), 0, progress=False)]


def test_solo_action2_plays_every_choice_out(solo_players: list[object]) -> None:
    """solo's action 2 is the best of playing each legal choice out through the rules core
    and valuing the resulting state (Advisor.state_value); its action 1 is the advisor's."""
    from qwixx_math.players.solo import SoloPlayer

    solo = solo_players[0]
    assert isinstance(solo, SoloPlayer)
    advisor = solo.advisor
    checked = 0
    for seed in range(6):
        game = play_game(Ruleset(2), seed, "small_skips")
        for t in game.turns:
            a = t.rolled.active
            assert solo.action1(a, t.rolled) == advisor.advise(t.rolled).best.plan.action1
            passive = 1 - a
            assert solo.action1(passive, t.rolled) == \
                advisor.advise_passive(t.rolled, passive).best.plan.action1
            if t.after1.phase is not Phase.ACTION2:
                continue
            scored = [(advisor.state_value(t.after1.with_action2(m), a), m)
                      for m in (None, *legal_action2(t.after1))]
            best = max(v for v, _ in scored)
            assert solo.action2(a, t.after1) == next(m for v, m in scored if v == best)
            checked += 1
    assert checked > 50


def test_solo_plays_a_match(solo_players: list[object]) -> None:
    from qwixx_math.players.solo import SoloPlayer

    solo = solo_players[0]
    assert isinstance(solo, SoloPlayer)
    with open_players(["greedy"], Ruleset(2), 0) as (greedy,):
        result = play_match([solo, greedy], 4, 2)
    assert result.faults == ()
    assert all(g.final.is_over for g in result.games)


def test_table_player_plays_legal_games_and_follows_table_advice() -> None:
    """The ``table`` player's choices are the table advisor's best, and the referee never
    finds a fault in them."""
    from qwixx_math.arena.registry import make_player
    from qwixx_math.notation import parse_roll
    from qwixx_math.rules import new_game
    from qwixx_math.table import TableAdvisor

    ruleset = Ruleset(2)
    players = [make_player(name, ruleset, seed) for seed, name in enumerate(["table", "greedy"])]
    result = play_match(players, 6, 5, ruleset)
    assert result.faults == () and len(result.games) == 6
    advisor = TableAdvisor.for_ruleset(ruleset, players=2, progress=False)
    state = new_game(ruleset=ruleset).with_roll(parse_roll("w:3,4/r:1/y:2/g:5/b:6"))
    player = players[0]
    assert player.action1(0, state) == advisor.advise(state).best.plan.action1
    assert player.action1(1, state) == advisor.advise_passive(state, 1).best.plan.action1
