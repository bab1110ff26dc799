"""A seeded random game of Qwixx, printed turn by turn, with the final scores and winners.

    python examples/random_game.py                  # three players, seed 2
    python examples/random_game.py --players 5 --seed 7 --uniform

Every player marks only numbers that skip at most one box of their row (the
active player accepts up to three rather than take a penalty), so rows fill up
and close; ``--uniform`` makes everyone choose uniformly among passing and their
legal marks instead.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from qwixx_math.model import COLOURS, Mark
from qwixx_math.notation import format_mark, format_roll, format_sheet
from qwixx_math.record import Chooser, random_game, replay, uniform_chooser
from qwixx_math.rules import GameState, Phase
from qwixx_math.ruleset import Ruleset

NAMES = ("Kari", "Ola", "Mia", "Jonas", "Ingrid")


def small_skips(state: GameState, player: int, legal: Sequence[Mark],
                rng: random.Random) -> Mark | None:
    """Mark the legal number that skips the fewest boxes, if it skips at most one (three for
    an active player who would otherwise take a penalty); closing a row skips nothing."""
    sheet = state.sheets[player]

    def skipped(mark: Mark) -> int:
        return 0 if mark.closes else mark.position - sheet.masks[mark.colour.index].bit_length()

    if not legal:
        return None
    best = min(legal, key=lambda m: (skipped(m), rng.random()))
    facing_penalty = (state.phase is Phase.ACTION2 and state.action1 is not None
                      and state.action1[player] is None)
    return best if skipped(best) <= (3 if facing_penalty else 1) else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3, choices=range(1, 6))
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--uniform", action="store_true", help="choose uniformly at random")
    args = parser.parse_args(argv)

    names = NAMES[:args.players]
    chooser: Chooser = uniform_chooser if args.uniform else small_skips
    record = random_game(ruleset=Ruleset(args.players), seed=args.seed, chooser=chooser,
                         names=names)
    states = replay(record)
    print(f"Qwixx, {args.players} player(s), seed {args.seed}: {', '.join(names)}")
    for k, (turn, after) in enumerate(zip(record.turns, states[1:], strict=True), start=1):
        roller = names[turn.active]
        choices = ", ".join(f"{names[i]} {format_mark(m)}" for i, m in enumerate(turn.action1))
        print(f"\nTurn {k}: {roller} rolls {format_roll(turn.roll)} "
              f"(white sum {turn.roll.white_sum})")
        print(f"  action 1: {choices}")
        before = states[k - 1]
        if before.with_roll(turn.roll).with_action1(turn.action1).is_over:
            print("  action 2: none, the game ended in action 1 (R14, R15)")
        else:
            print(f"  action 2: {roller} {format_mark(turn.action2)}")
        for name, sheet in zip(names, after.sheets, strict=True):
            print(f"    {name:<6} {format_sheet(sheet)}")
        if after.closed:
            print(f"  closed: {', '.join(c.value for c in COLOURS if c in after.closed)}")
    final = states[-1]
    reason = {"R13": "a fourth penalty (R13)", "R14": "a second closed colour (R14)"}
    print(f"\nThe game ended after {len(record.turns)} turns by "
          f"{reason.get(final.ended_by or '', final.ended_by)}.")
    for name, sheet in zip(names, final.sheets, strict=True):
        rows = " + ".join(f"{sheet.row_score(c)}" for c in COLOURS)
        print(f"  {name:<6} {rows} - {5 * sheet.penalties} = {sheet.score}")
    print(f"Winner(s): {', '.join(names[i] for i in final.winners)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
