"""Write ``tests/data/perft.json`` from an independent brute-force reading of RULES.md.

This script deliberately imports nothing from ``qwixx_math``: it has its own
sheet representation (the numbers marked in each row, in the order written),
its own move enumeration (every action-1 row or none, times every white die
with every coloured die in play or none) and its own turn logic, written from
the rule texts of RULES.md and the dialect switches documented in
``qwixx_math/ruleset.py``.  ``tests/test_rules_perft.py`` recomputes every
figure with the library (``legal_plans``, ``turn_outcomes``) and compares.

Run from the repository root::

    python tests/data/make_perft.py            # rewrites tests/data/perft.json
    python tests/data/make_perft.py --check    # only compares with the stored file

Positions are written as text, one line per position::

    <sheet of player 0> | <sheet of player 1> ... ; closed:<letters or -> ; active:<i> ; <next>

where each sheet is in the canonical text notation of docs/notation.md
(``r:2,3/y:-/g:12,11/b:-/p:0``, a closed row ending in ``12,lock`` /
``2,lock``), and ``<next>`` is ``roll`` (the game goes on; ``active`` is the
player to roll next) or ``over R13`` / ``over R14`` (the game ended; ``active``
is the player whose turn ended it).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("perft.json")

LETTERS = ("r", "y", "g", "b")
NAMES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
#: The numbers of each row, left to right (R2).
ROW = {
    "r": tuple(range(2, 13)),
    "y": tuple(range(2, 13)),
    "g": tuple(range(12, 1, -1)),
    "b": tuple(range(12, 1, -1)),
}


# -- rulesets -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    players: int
    action2_after_game_end: bool = False
    die_removal: str = "immediate"  # or "end_of_turn"
    end_check: str = "after_actions"  # or "sequential", "end_of_turn"
    simultaneous_close: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "action2_after_game_end": self.action2_after_game_end,
            "die_removal": self.die_removal,
            "end_check": self.end_check,
            "simultaneous_close": self.simultaneous_close,
        }


# -- sheets ---------------------------------------------------------------------------------------
# A sheet is (rows, penalties) where rows maps a letter to the tuple of numbers marked, in order.

Sheet = tuple[tuple[tuple[int, ...], ...], int]


def parse_sheet(text: str) -> Sheet:
    """Read the (canonical or abbreviated) text notation of a sheet; only for our own inputs."""
    rows: dict[str, tuple[int, ...]] = {c: () for c in LETTERS}
    pen = 0
    for part in text.split("/"):
        key, _, body = part.partition(":")
        key, body = key.strip(), body.strip()
        if key == "p":
            pen = int(body)
            continue
        if body == "-":
            continue
        numbers = tuple(int(x) for x in body.split(",") if x.strip() != "lock")
        rows[key] = numbers
    sheet = (tuple(rows[c] for c in LETTERS), pen)
    for c, numbers in zip(LETTERS, sheet[0], strict=True):
        for k, n in enumerate(numbers):
            assert ok_to_mark(numbers[:k], c, n), f"bad input sheet {text!r}"
    return sheet


def format_sheet(sheet: Sheet) -> str:
    parts = []
    for c, numbers in zip(LETTERS, sheet[0], strict=True):
        items = [str(n) for n in numbers]
        if numbers and numbers[-1] == ROW[c][-1]:
            items.append("lock")
        parts.append(f"{c}:{','.join(items) or '-'}")
    parts.append(f"p:{sheet[1]}")
    return "/".join(parts)


def ok_to_mark(numbers: tuple[int, ...], c: str, n: int) -> bool:
    """True when ``n`` may be written in row ``c`` holding ``numbers`` (R7, R8)."""
    return why_not(numbers, c, n) is None


def why_not(numbers: tuple[int, ...], c: str, n: int) -> str | None:
    row = ROW[c]
    if n not in row:
        return "R2"
    if numbers and row.index(n) <= row.index(numbers[-1]):
        return "R7"  # not strictly right of every mark already there (incl. a locked row)
    if n == row[-1] and len(numbers) < 5:
        return "R8"
    return None


def add_mark(sheet: Sheet, c: str, n: int) -> Sheet:
    rows = list(sheet[0])
    i = LETTERS.index(c)
    rows[i] = rows[i] + (n,)
    return (tuple(rows), sheet[1])


def add_penalty(sheet: Sheet) -> Sheet:
    return (sheet[0], sheet[1] + 1)


# -- positions and turns --------------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    sheets: tuple[Sheet, ...]
    closed: frozenset[str]
    active: int
    over: str | None = None  # None, "R13" or "R14"

    def text(self) -> str:
        closed = "".join(c for c in LETTERS if c in self.closed) or "-"
        nxt = f"over {self.over}" if self.over else "roll"
        sheets = " | ".join(format_sheet(s) for s in self.sheets)
        return f"{sheets} ; closed:{closed} ; active:{self.active} ; {nxt}"


Roll = tuple[int, int, dict[str, int]]  # white 1, white 2, coloured dice in play
Mark = tuple[str, int] | None


class Illegal(Exception):
    def __init__(self, rule: str) -> None:
        super().__init__(rule)
        self.rule = rule


def play(rules: Rules, pos: Position, roll: Roll, choices: list[Mark], a2: Mark) -> Position:
    """The position after a whole turn, straight from RULES.md; raises Illegal."""
    if pos.over:
        raise Illegal(pos.over)
    w1, w2, dice = roll
    if set(dice) != {c for c in LETTERS if c not in pos.closed}:
        raise Illegal("R4")  # R4/R9: exactly the dice of the open colours are rolled
    n = len(pos.sheets)
    a = pos.active
    s = w1 + w2
    sheets = list(pos.sheets)
    closed = set(pos.closed)
    closers: dict[str, int] = {}
    game_ended_in_action1 = False
    # Action 1 (R5): every player may mark the white sum in one open row.  The marks are
    # simultaneous; the dialect "sequential" looks at them in turn order from the active player.
    for k in range(n):
        p = (a + k) % n
        m = choices[p]
        if m is None:
            continue
        if game_ended_in_action1:  # only reachable with end_check == "sequential"
            raise Illegal("R14")
        c, num = m
        if num != s:
            raise Illegal("R5")
        if c in pos.closed:
            raise Illegal("R9")
        rule = why_not(sheets[p][0][LETTERS.index(c)], c, num)
        if rule:
            raise Illegal(rule)
        if num == ROW[c][-1]:
            if c in closers and not rules.simultaneous_close:
                raise Illegal("R10")
            closers.setdefault(c, p)
            closed.add(c)
        sheets[p] = add_mark(sheets[p], c, num)
        if rules.end_check == "sequential" and len(closed) >= 2:
            game_ended_in_action1 = True
    ended: str | None = None
    if rules.end_check != "end_of_turn" and len(closed) >= 2:
        ended = "R14"
        if not rules.action2_after_game_end:
            # R15 (default): the game is over before action 2; no penalty for the active player.
            if a2 is not None:
                raise Illegal("R15")
            return Position(tuple(sheets), frozenset(closed), a, "R14")
    # Action 2 (R6): one white die plus one coloured die in play, active player only.
    if a2 is not None:
        c, num = a2
        if c not in dice:
            raise Illegal("R9")  # closed before this turn: the die was not rolled
        if c in closed and rules.die_removal == "immediate":
            raise Illegal("R9")  # closed in action 1: its die left play at once
        if num not in (w1 + dice[c], w2 + dice[c]):
            raise Illegal("R6")
        rule = why_not(sheets[a][0][LETTERS.index(c)], c, num)
        if rule:
            raise Illegal(rule)
        sheets[a] = add_mark(sheets[a], c, num)
        if num == ROW[c][-1]:
            closed.add(c)
    elif choices[a] is None:
        sheets[a] = add_penalty(sheets[a])  # R11
    if ended is None:
        if len(closed) >= 2:
            ended = "R14"
        elif any(sh[1] >= 4 for sh in sheets):
            ended = "R13"
    if ended:
        return Position(tuple(sheets), frozenset(closed), a, ended)
    return Position(tuple(sheets), frozenset(closed), (a + 1) % n, None)


def candidate_plans(pos: Position, roll: Roll) -> list[tuple[Mark, Mark]]:
    """Every (action 1, action 2) pair worth trying, legal or not, without duplicates."""
    w1, w2, dice = roll
    a1s: list[Mark] = [None] + [(c, w1 + w2) for c in LETTERS]
    a2s: list[Mark] = [None]
    for c in LETTERS:
        if c in dice:
            for w in (w1, w2):
                if (c, w + dice[c]) not in a2s:
                    a2s.append((c, w + dice[c]))
    return [(x, y) for x in a1s for y in a2s]


def plan_text(a1: Mark, a2: Mark) -> str:
    def one(m: Mark) -> str:
        return "-" if m is None else f"{m[0]}{m[1]}"

    return f"{one(a1)}/{one(a2)}"


def outcomes(rules: Rules, pos: Position, roll: Roll,
             others: list[Mark]) -> dict[str, Position]:
    """Every legal plan of the active player (others' action-1 choices fixed) -> position."""
    out: dict[str, Position] = {}
    for a1, a2 in candidate_plans(pos, roll):
        choices = list(others)
        choices[pos.active] = a1
        with contextlib.suppress(Illegal):
            out[plan_text(a1, a2)] = play(rules, pos, roll, choices, a2)
    return out


def all_rolls(pos: Position) -> list[Roll]:
    """All 6^(2+k) ordered rolls of the two whites and the k coloured dice in play."""
    in_play = [c for c in LETTERS if c not in pos.closed]
    rolls = []
    for dice in itertools.product(range(1, 7), repeat=2 + len(in_play)):
        rolls.append((dice[0], dice[1], dict(zip(in_play, dice[2:], strict=True))))
    return rolls


def reachable(rules: Rules, pos: Position, depth: int) -> tuple[set[Position], dict[int, int]]:
    """Positions after ``depth`` turns over all rolls and plans (other players pass).

    A game that ends earlier stays in its final position.  Also returns, for
    the first turn, the number of distinct positions reachable at the end from
    rolls with each white sum (the per-move breakdown).
    """
    frontier = {pos}
    by_sum: dict[int, set[Position]] = {}
    for level in range(depth):
        nxt: set[Position] = set()
        for p in frontier:
            if p.over:
                nxt.add(p)
                continue
            others: list[Mark] = [None] * len(p.sheets)
            for roll in all_rolls(p):
                got = set(outcomes(rules, p, roll, others).values())
                nxt |= got
                if level == 0:
                    by_sum.setdefault(roll[0] + roll[1], set()).update(got)
        frontier = nxt
    # The breakdown: positions at the end that descend from first turns with each white sum.
    if depth == 1:
        return frontier, {s: len(qs) for s, qs in sorted(by_sum.items())}
    breakdown: dict[int, int] = {}
    for s, starts in sorted(by_sum.items()):
        layer = set(starts)
        for _ in range(depth - 1):
            nxt = set()
            for p in layer:
                if p.over:
                    nxt.add(p)
                    continue
                others = [None] * len(p.sheets)
                for roll in all_rolls(p):
                    nxt |= set(outcomes(rules, p, roll, others).values())
            layer = nxt
        breakdown[s] = len(layer)
    return frontier, breakdown


# -- the hand-picked cases ------------------------------------------------------------------------

def parse_roll(text: str) -> Roll:
    w1 = w2 = 0
    dice: dict[str, int] = {}
    for part in text.split("/"):
        key, _, body = part.partition(":")
        if key == "w":
            w1, w2 = (int(x) for x in body.split(","))
        else:
            dice[key] = int(body)
    return (w1, w2, dice)


def parse_mark(text: str) -> Mark:
    return None if text == "-" else (text[0], int(text[1:]))


@dataclass(frozen=True)
class TurnCase:
    name: str
    why: str
    rules: Rules
    sheets: tuple[str, ...]
    closed: str
    active: int
    roll: str
    others: tuple[str, ...] | None = None  # one per player; the active player's is ignored


E = "r:-/y:-/g:-/b:-/p:0"
OFFICIAL = "official rules"

TURN_CASES = [
    TurnCase("empty-solitaire", "fresh solitaire sheet, five distinct dice", Rules(1),
             (E,), "-", 0, "w:3,5/r:1/y:2/g:6/b:4"),
    TurnCase("empty-doubles", "fresh sheet, equal whites: action 2 makes one number per colour",
             Rules(1), (E,), "-", 0, "w:4,4/r:4/y:1/g:6/b:2"),
    TurnCase("empty-two-players", "fresh 2-player game; the other player passes",
             Rules(2), (E, E), "-", 0, "w:1,6/r:2/y:5/g:3/b:6"),
    TurnCase("kari-ola-mia", "RULES.md worked example: Ola marks red 5, Mia passes",
             Rules(3), (E, E, "r:6"), "-", 0, "w:4,1/r:3/y:6/g:5/b:6", ("-", "r5", "-")),
    TurnCase("mid-game", "mid-game solitaire sheet",
             Rules(1), ("r:2,4,5/y:3/g:12,10,9,7/b:11/p:1",), "-", 0, "w:2,5/r:3/y:6/g:1/b:5"),
    TurnCase("red-lock-ready", "red has 5 marks and white 6+6 / red 6 offer red 12 (R8)",
             Rules(1), ("r:2,3,4,5,6/y:2/g:-/b:-",), "-", 0, "w:6,6/r:6/y:6/g:6/b:6"),
    TurnCase("red-four-marks", "red has 4 marks: red 12 only after an action-1 red mark (R8)",
             Rules(1), ("r:2,3,5,7/y:2/g:-/b:-",), "-", 0, "w:5,6/r:6/y:1/g:2/b:3"),
    TurnCase("same-row-twice", "action 2 in the action-1 row must lie right of it (R7)",
             Rules(1), ("r:2/y:-/g:-/b:-",), "-", 0, "w:3,4/r:2/y:2/g:2/b:2"),
    TurnCase("green-closed", "green closed by someone: no green die, no green marks (R9)",
             Rules(2), ("r:2,3/g:12,11,10,9,8,2,lock", "y:4,5,6"), "g", 1, "w:2,1/r:5/y:3/b:1"),
    TurnCase("triple-close", "RULES.md: green closed, white 6+6, red and yellow close at once",
             Rules(3), ("r:2/y:2/g:12,11,10,9,8,2,lock", "r:2,3,4,5,6", "y:2,3,4,5,6,7"), "g", 0,
             "w:6,6/r:1/y:1/b:1", ("-", "r12", "y12")),
    TurnCase("triple-close-a2", "as triple-close, action2_after_game_end: the turn completes",
             Rules(3, action2_after_game_end=True),
             ("r:2/y:2/g:12,11,10,9,8,2,lock", "r:2,3,4,5,6", "y:2,3,4,5,6,7"), "g", 0,
             "w:6,6/r:1/y:1/b:1", ("-", "r12", "y12")),
    TurnCase("triple-close-sequential", "as triple-close, end_check=sequential: Mia may not mark",
             Rules(3, end_check="sequential"),
             ("r:2/y:2/g:12,11,10,9,8,2,lock", "r:2,3,4,5,6", "y:2,3,4,5,6,7"), "g", 0,
             "w:6,6/r:1/y:1/b:1", ("-", "r12", "-")),
    TurnCase("later-mark-after-actions",
             "official: the active player's red 12 closes the second colour; player 1's blue 12 "
             "(not a close) stands too", Rules(2),
             ("r:2,3,4,5,6/y:3", "b:-"), "g", 0, "w:6,6/r:1/y:2/b:3", ("-", "b12")),
    TurnCase("later-mark-sequential",
             "end_check=sequential: after the active player's red 12 ends the game, player 1's "
             "blue 12 is refused, so every plan closing red is illegal with it",
             Rules(2, end_check="sequential"),
             ("r:2,3,4,5,6/y:3", "b:-"), "g", 0, "w:6,6/r:1/y:2/b:3", ("-", "b12")),
    TurnCase("close-in-action1-end-of-turn",
             "end_check=end_of_turn: the second colour closes in action 1, action 2 follows",
             Rules(2, end_check="end_of_turn"),
             ("r:3,4,5/b:12,11,10,9,8/y:2,3", "r:2,3,4,5,6/g:12,11,10,9,8,2,lock"), "g", 0,
             "w:6,6/r:5/y:1/b:1", ("-", "r12")),
    TurnCase("simultaneous-close", "two players close red together in action 1 (R10)",
             Rules(2), ("r:2,3,4,5,6", "r:3,4,5,6,7"), "-", 0, "w:6,6/r:6/y:2/g:3/b:4",
             ("-", "r12")),
    TurnCase("no-simultaneous-close", "simultaneous_close=False: the active player's close wins",
             Rules(2, simultaneous_close=False), ("r:2,3,4,5,6", "r:3,4,5,6,7"), "-", 0,
             "w:6,6/r:6/y:2/g:3/b:4", ("-", "r12")),
    TurnCase("die-stays-end-of-turn",
             "die_removal=end_of_turn: red closed by another player in action 1, red die usable",
             Rules(2, die_removal="end_of_turn"), ("r:2,3,4/y:5", "r:2,3,4,5,6"), "-", 0,
             "w:6,6/r:1/y:1/g:1/b:1", ("-", "r12")),
    TurnCase("die-leaves-immediately", "the same position under the official die removal (R9)",
             Rules(2), ("r:2,3,4/y:5", "r:2,3,4,5,6"), "-", 0, "w:6,6/r:1/y:1/g:1/b:1",
             ("-", "r12")),
    TurnCase("third-penalty", "solitaire with 3 penalties: passing ends the game (R13)",
             Rules(1), ("r:2,3,4,5,6,7,8,9,10,11/y:-/g:-/b:-/p:3",), "-", 0,
             "w:1,1/r:1/y:6/g:6/b:6"),
    TurnCase("own-closed-row", "the active player closed green; blue one mark from closing",
             Rules(4), ("g:12,11,10,9,8,2,lock/b:12,11,10,9,8/r:5", E, E, "b:12,11"), "g", 0,
             "w:1,1/r:3/y:4/b:1", ("-", "-", "r2", "y2")),
    TurnCase("five-players", "5 players, others' fixed choices mark the white sum in four rows",
             Rules(5), (E, "r:2,3", "g:12", "y:10", "b:9"), "-", 2, "w:2,5/r:6/y:4/g:5/b:1",
             ("r7", "y7", "-", "g7", "b7")),
    TurnCase("end-of-turn-penalty-close",
             "end_check=end_of_turn with action 2 after the end: R11 still applies",
             Rules(2, end_check="end_of_turn"),
             ("r:2/b:12", "y:2,3,4,5,6/r:2,3,4,5,6"), "-", 0, "w:6,6/r:2/y:2/g:2/b:2",
             ("-", "r12")),
    TurnCase("blue-last-needs-five", "blue 2 with 4 and 5 blue marks in two rows (R8)",
             Rules(1), ("b:12,11,10,9/g:12,11,10,9,8",), "-", 0, "w:1,1/r:1/y:1/g:1/b:1"),
]


@dataclass(frozen=True)
class DepthCase:
    name: str
    why: str
    rules: Rules
    sheets: tuple[str, ...]
    closed: str
    active: int
    depth: int


DEPTH_CASES = [
    DepthCase("d1-empty-solitaire", "every roll of a fresh solitaire game", Rules(1),
              (E,), "-", 0, 1),
    DepthCase("d1-near-end", "green closed, red and blue one mark from a possible close",
              Rules(1), ("r:2,3,4,5,6,7,8/g:12,11,10,9,8,2,lock/b:12,11,10,9,8,7/p:2",),
              "g", 0, 1),
    DepthCase("d1-two-players", "2 players, green closed by player 1, the other passes",
              Rules(2), ("r:2,3,4,5,6/y:8,9,10/b:12", "g:12,11,10,9,8,7,2,lock"), "g", 0, 1),
    DepthCase("d2-endgame", "two turns of a solitaire endgame: four numbers left, 3 penalties",
              Rules(1), ("r:2,3,4,5,6,7,8,9,10/y:2,3,4,5,6,7,8,9,10,11/g:12,11,10,9,8,2,lock/"
                         "b:12,11,10,9,8,7,6,5,4,3/p:3",), "g", 0, 2),
    DepthCase("d2-two-player-endgame",
              "two turns of a 2-player endgame (each player rolls once; the other passes)",
              Rules(2), ("r:2,3,4,5,6,7,8,9,10,11/y:8,9,10,11/b:12,11,10,9,8,7,6,5,4/p:3",
                         "y:2,3,4,5,6,7,8,9,10/g:12,11,10,9,8,7,6,2,lock/b:12,11,10,9,8,7/p:1"),
              "g", 0, 2),
    DepthCase("d2-late-solitaire",
              "two turns of a late solitaire game (green closed, few numbers left)",
              Rules(1), ("r:2,3,4,5,6,7,8,9,10/y:2,3,4,5,6,9,10,11/g:12,11,10,9,8,2,lock/"
                         "b:12,11,10,9,8,7,6,5/p:2",), "g", 0, 2),
    DepthCase("d2-late-solitaire-a2", "as d2-late-solitaire with action2_after_game_end",
              Rules(1, action2_after_game_end=True),
              ("r:2,3,4,5,6,7,8,9,10/y:2,3,4,5,6,9,10,11/g:12,11,10,9,8,2,lock/"
               "b:12,11,10,9,8,7,6,5/p:2",), "g", 0, 2),
]


def start_position(case: TurnCase | DepthCase) -> tuple[Position, dict[str, object]]:
    """The case's start position, and the fields every entry begins with."""
    pos = Position(tuple(parse_sheet(s) for s in case.sheets),
                   frozenset(c for c in case.closed if c in LETTERS), case.active)
    return pos, {
        "name": case.name,
        "why": case.why,
        "ruleset": case.rules.to_json(),
        "start": pos.text(),
        "sheets": [format_sheet(s) for s in pos.sheets],
        "closed": "".join(c for c in LETTERS if c in pos.closed) or "-",
        "active": pos.active,
    }


def turn_entry(case: TurnCase) -> dict[str, object]:
    pos, head = start_position(case)
    roll = parse_roll(case.roll)
    n = len(case.sheets)
    others: list[Mark] = [parse_mark(m) for m in case.others] if case.others else [None] * n
    others[pos.active] = None
    plans = outcomes(case.rules, pos, roll, others)
    return {
        **head,
        "roll": case.roll,
        "others": ["-" if m is None else f"{m[0]}{m[1]}" for m in others],
        "plans": len(plans),
        "outcomes": len(set(plans.values())),
        "divide": {k: v.text() for k, v in sorted(plans.items())},
    }


def depth_entry(case: DepthCase) -> dict[str, object]:
    pos, head = start_position(case)
    got, breakdown = reachable(case.rules, pos, case.depth)
    return {
        **head,
        "depth": case.depth,
        "rolls_per_turn": 6 ** (2 + 4 - len(pos.closed)),
        "positions": len(got),
        "sheets_reached": len({p.sheets for p in got}),
        "over": len([p for p in got if p.over]),
        "by_first_white_sum": {str(k): v for k, v in breakdown.items()},
    }


DESCRIPTION = {
    "about": "Perft-style regression table for the rules core, written by tests/data/make_perft.py "
             "from an independent brute-force reading of RULES.md (no qwixx_math import).",
    "position_text": "'<sheet 0> | <sheet 1> ... ; closed:<letters or -> ; active:<i> ; <next>' "
                     "with sheets in the canonical text notation; <next> is 'roll' (active = the "
                     "player to roll next) or 'over R13'/'over R14' (active = whose turn ended it)",
    "turns": "For a fixed position, roll and the other players' action-1 choices ('others', one "
             "per player, the active player's entry ignored): 'plans' = number of distinct legal "
             "turn plans (ACTION1/ACTION2 text, '-' = not taken) of the active player, "
             "'outcomes' = number of distinct resulting positions, 'divide' = each plan and the "
             "position it leads to.",
    "depths": "From a position about to roll: 'positions' = distinct positions after 'depth' "
              "turns over all 6^(2+k) ordered rolls (k coloured dice in play) and every legal "
              "plan of the active player, the other players always passing; a game that ends "
              "earlier stays in its final position. 'sheets_reached' = distinct tuples of "
              "sheets among them, 'over' = how many are finished games. 'by_first_white_sum' = "
              "for each white sum of the first roll, the number of distinct final positions "
              "descending from rolls with that sum (the per-move breakdown).",
}


def build() -> dict[str, Any]:
    return {
        "description": DESCRIPTION,
        "turns": [turn_entry(c) for c in TURN_CASES],
        "depths": [depth_entry(c) for c in DEPTH_CASES],
    }


def main(argv: list[str]) -> int:
    data = build()
    text = json.dumps(data, indent=1, sort_keys=False) + "\n"
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text() == text
        print("perft.json is up to date" if same else "perft.json differs from the oracle")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(data['turns'])} turn cases, {len(data['depths'])} depth cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
