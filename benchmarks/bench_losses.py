"""How a player's games are lost: the endings of its losses and the penalties it takes.

    python benchmarks/bench_losses.py                        # win vs greedy, 800 games
    python benchmarks/bench_losses.py --against racer --games 2000 --seed 3
    python benchmarks/bench_losses.py --model CANDIDATE.json  # a WinModel in win's place

A seat-rotated arena match (``qwixx_math.arena.match.play_match``, the rules core the
referee) between the measured player and one opponent.  Printed, for the measured
player: its wins, ties and losses; each by how the game ended (a fourth penalty, R13,
or a second colour closed, R14) and by whom; and every penalty it took, split into
*forced* (its own roll offered no legal mark at all: nothing in action 1 and then
nothing in action 2, R11) and *chosen* (a legal mark was declined), and by whether it
led on score when it took it.  The figures in research/NOTEBOOK.md ("The forced-penalty
inputs") come from it.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable

from qwixx_math.arena.match import play_match
from qwixx_math.arena.registry import make_player
from qwixx_math.model import Mark
from qwixx_math.players.base import Player
from qwixx_math.players.win import WinModel, WinPlayer
from qwixx_math.rules import GameState, legal_action1, legal_action2
from qwixx_math.ruleset import Ruleset


class Watched:
    """A player that notes every penalty it takes as the active player (forced or chosen,
    ahead or not, its count of penalties before it)."""

    def __init__(self, inner: Player, name: str) -> None:
        self.inner = inner
        self.name = name
        self.penalties: Counter[tuple[str, str, int]] = Counter()
        self._could_mark_in_action1 = False

    def new_game(self, seat: int, state: GameState) -> None:
        self.inner.new_game(seat, state)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        if seat == state.active:
            self._could_mark_in_action1 = bool(legal_action1(state, seat))
        return self.inner.action1(seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        mark = self.inner.action2(seat, state)
        assert state.action1 is not None
        if mark is None and state.action1[seat] is None:
            forced = not self._could_mark_in_action1 and not legal_action2(state)
            lead = state.sheets[seat].score - max(
                s.score for j, s in enumerate(state.sheets) if j != seat)
            self.penalties[("forced" if forced else "chosen", "ahead" if lead > 0 else
                            "not ahead", state.sheets[seat].penalties)] += 1
        return mark

    def game_over(self, seat: int, state: GameState) -> None:
        self.inner.game_over(seat, state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="win")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--games", type=int, default=800)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--model", default=None, help="a WinModel JSON file for win")
    args = ap.parse_args()
    rs = Ruleset(players=2)
    make: Callable[[], Player]
    if args.model is not None:
        model = WinModel.from_file(args.model)

        def make() -> Player:
            return WinPlayer(rs, model)
    else:
        def make() -> Player:
            return make_player(args.player, rs, 1)
    me = Watched(make(), args.player)
    result = play_match([me, make_player(args.against, rs, 2)], args.games, args.seed, rs)
    print(f"{args.player} vs {args.against}, {args.games} games, seed {args.seed} "
          f"({result.seconds:.0f} s)")
    outcome: Counter[tuple[str, str]] = Counter()
    for g in result.games:
        share = g.share(0)
        res = "win" if share == 1 else ("tie" if share > 0 else "loss")
        by = "both" if len(g.enders) > 1 else (
            args.player if 0 in g.enders else (args.against if g.enders else "nobody"))
        outcome[(res, f"{g.ended_by} by {by}")] += 1
    for res in ("win", "tie", "loss"):
        n = sum(v for (r, _), v in outcome.items() if r == res)
        parts = ", ".join(f"{how} {v}" for (r, how), v in sorted(outcome.items()) if r == res)
        print(f"  {res:4} {n:5}: {parts}")
    total = sum(me.penalties.values())
    print(f"  penalties taken: {total} in {args.games} games")
    for kind in ("forced", "chosen"):
        for lead in ("ahead", "not ahead"):
            row = [me.penalties[(kind, lead, k)] for k in range(4)]
            print(f"    {kind:6} {lead:9}: {sum(row):5}  (as its 1st..4th: "
                  f"{', '.join(map(str, row))})")


if __name__ == "__main__":
    main()
