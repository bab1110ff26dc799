"""Seeded random games on every pad, every chooser and several rulesets, and their hashes.

``random_game`` promises that a seed always gives the same game.  The rules core's quick
paths must keep the legal moves and their order exactly, or a chooser (which picks by
index into the legal list) would play other games.  :func:`game_hashes` plays the same
seeded games on every pad (and a few variants of them), under rulesets that switch on
every dialect switch and pad Option, with choosers that pass a lot (``uniform``), close
rows (``small-skips``) and skip far (``rightmost``); the hash of each record's JSON (every
roll, every choice, the result) is stored in ``tests/data/replay_hashes.json`` by
``tests/data/make_replay_hashes.py`` and compared by ``tests/test_rules_replay.py``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Sequence

from qwixx_math.big_points import BonusMark
from qwixx_math.layouts import LAYOUTS, MIXX_A, SheetLayout, layout_named
from qwixx_math.model import Mark
from qwixx_math.record import Chooser, GameRecord, random_game, uniform_chooser
from qwixx_math.rules import GameState
from qwixx_math.ruleset import (
    BonusTrigger,
    CircleCandidates,
    DieRemoval,
    EndCheck,
    LuckyCandidates,
    LuckyMode,
    Ruleset,
)

#: Every published pad, Longo with lucky numbers, Big Points needing 6 crosses before the
#: last number (BP5's literal reading) and Mixx A with second crosses (Double A's general
#: route, cells not of their row's colour).
PADS: dict[str, SheetLayout] = {
    **LAYOUTS,
    "longo:5,13": layout_named("longo:5,13"),
    "big-points-6": dataclasses.replace(LAYOUTS["big-points"], name="big-points-6",
                                        lock_threshold=6),
    "mixx-a-seconds": dataclasses.replace(MIXX_A, name="mixx-a-seconds", second_crosses=True,
                                          lock_threshold=7),
}

#: The official rules; every dialect switch off its default with every pad's Options; the
#: R15 Option with the other end checks.
RULESETS: dict[str, Ruleset] = {
    "official": Ruleset(4),
    "dialects": Ruleset(3, die_removal=DieRemoval.END_OF_TURN, end_check=EndCheck.SEQUENTIAL,
                        simultaneous_close=False, xc_field_without_cross=True,
                        lg_lucky_mode=LuckyMode.ADDITIONAL,
                        lg_lucky_candidates=LuckyCandidates.OPEN_WITH_NEXT_CELL,
                        da_same_turn=False, bb_fewest_candidates=CircleCandidates.OPEN_ROWS,
                        bp_colour_trigger=BonusTrigger.EITHER_ADJACENT),
    "r15": Ruleset(2, action2_after_game_end=True, end_check=EndCheck.END_OF_TURN),
}


def _skipped(state: GameState, player: int, mark: Mark) -> int:
    """How many cells ``mark`` skips in its row (0 for a bonus cross or a field alone)."""
    if isinstance(mark, BonusMark) or not mark.crosses:
        return 0
    ci = mark.colour.index
    return state.layout.pos[ci][mark.number] - state.sheets[player].masks[ci].bit_length()


def small_skips(state: GameState, player: int, legal: Sequence[Mark],
                rng: random.Random) -> Mark | None:
    """The first legal mark skipping the fewest cells if it skips at most one, else pass
    (rows close, games run long)."""
    if not legal:
        return None
    best = min(legal, key=lambda m: _skipped(state, player, m))
    return best if _skipped(state, player, best) <= 1 else None


def rightmost(state: GameState, player: int, legal: Sequence[Mark],
              rng: random.Random) -> Mark | None:
    """The last legal mark, or pass one time in three (a chooser by position in the list)."""
    return legal[-1] if legal and rng.random() < 2 / 3 else None


CHOOSERS: dict[str, Chooser] = {"uniform": uniform_chooser, "small-skips": small_skips,
                                "rightmost": rightmost}


def cases() -> list[tuple[str, SheetLayout, Ruleset, Chooser]]:
    """(name, pad, ruleset, chooser) of every combination the pad accepts (Big Points needs
    ``bp_lock_marks`` equal to its lock threshold, BP5)."""
    out = []
    for pad, layout in PADS.items():
        for rs_name, ruleset in RULESETS.items():
            if layout.bonus_rows:
                ruleset = dataclasses.replace(ruleset, bp_lock_marks=layout.lock_threshold)
            for ch_name, chooser in CHOOSERS.items():
                out.append((f"{pad}/{rs_name}/{ch_name}", layout, ruleset, chooser))
    return out


def record_hash(record: GameRecord) -> str:
    """SHA-256 of the record's JSON (every roll, every choice and the result)."""
    text = json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def game_hashes(games: int) -> dict[str, str]:
    """Per case, the hash of the hashes of ``games`` seeded games (seeds 0 to games - 1)."""
    out = {}
    for name, layout, ruleset, chooser in cases():
        digest = hashlib.sha256()
        for seed in range(games):
            digest.update(record_hash(random_game(ruleset=ruleset, seed=seed, chooser=chooser,
                                                  layout=layout)).encode())
        out[name] = digest.hexdigest()
    return out

