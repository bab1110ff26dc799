"""The conformance corpus: language-neutral JSON cases for checking another Qwixx program.

Three files, written deterministically by the reference core (sorted keys, one
case per line, no timestamps) and shipped in ``qwixx_math/data/conformance/``:

``legality.json``
    cases ``{id, description, rule_ids, ruleset, state, roll, step, action1,
    action2, player, legal, rule, legal_moves}``: from ``state`` (a game state in
    the ``roll`` phase, the JSON form of :class:`~qwixx_math.rules.GameState`)
    the active player rolls ``roll``; ``step`` says what is judged: the roll
    itself (``"roll"``), every player's action-1 choice ``action1``
    (``"action1"``), or, after those legal choices, the active player's
    ``action2`` (``"action2"``).  ``legal`` is the verdict; when false, ``rule``
    is the rule id broken and ``player`` the player whose choice breaks it (the
    first in turn order, starting with the active player; a case never has two
    illegal choices).  ``legal_moves`` lists, sorted, the marks ``player`` could
    legally have chosen at that step (null for rolls and malformed marks).
``transitions.json``
    cases ``{id, description, rule_ids, ruleset, state, roll, action1, action2,
    result_state, scores, winners, game_over, ended_by}``: a whole legal turn and
    the state that follows, with every score, the winners (R18) and the end of
    the game.
``manifest.json``
    the corpus format and version, each file's case count and SHA-256, and how
    many cases exercise each rule id and each ruleset switch.

The cases are the hand-written ones of :mod:`~qwixx_math.validation.corpus_cases`
(every rule id where checkable, every switch, the edge cases other programs get
wrong; their expectations are written by hand and checked against the core
here) and seeded random ones for breadth, from games of uniformly random players
and of players who fill their rows (so that colours close and games end by R14).
``docs/validation.md`` documents the protocol.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..big_points import BonusMark
from ..errors import IllegalMoveError, InvalidStateError, ParseError, QwixxError
from ..layouts import MIXX_A, MIXX_B, OFFICIAL, SheetLayout, layout_named
from ..model import COLOURS, MARKS, LuckyMark, Mark, Roll, Sheet
from ..notation import (
    format_sheet,
    mark_from_json,
    mark_to_json,
    parse_action1,
    parse_mark,
    parse_roll,
    parse_sheet,
    roll_from_json,
    roll_to_json,
)
from ..record import random_game, replay, uniform_chooser
from ..rules import GameState, Phase, closes, legal_action1, legal_action2, mark_key
from ..ruleset import DieRemoval, EndCheck, Ruleset
from .corpus_cases import (
    HAND_BIG_POINTS_LEGALITY,
    HAND_BIG_POINTS_TRANSITIONS,
    HAND_BONUS_A_LEGALITY,
    HAND_BONUS_A_TRANSITIONS,
    HAND_BONUS_B_LEGALITY,
    HAND_BONUS_B_TRANSITIONS,
    HAND_CHAIN_LEGALITY,
    HAND_CHAIN_TRANSITIONS,
    HAND_DOUBLE_A_LEGALITY,
    HAND_DOUBLE_A_TRANSITIONS,
    HAND_DOUBLE_LEGALITY,
    HAND_DOUBLE_TRANSITIONS,
    HAND_LEGALITY,
    HAND_LONGO_LEGALITY,
    HAND_LONGO_TRANSITIONS,
    HAND_MIXX_LEGALITY,
    HAND_MIXX_TRANSITIONS,
    HAND_STEPS_LEGALITY,
    HAND_STEPS_TRANSITIONS,
    HAND_TRANSITIONS,
    HAND_XC_LEGALITY,
    HAND_XC_TRANSITIONS,
    LegalitySpec,
    TransitionSpec,
)
from .replay import allowed_action1

__all__ = [
    "CORPUS_FILES",
    "CORPUS_FORMAT",
    "CORPUS_VERSION",
    "CorpusCheck",
    "CorpusError",
    "check_corpus",
    "corpus_files",
    "emit_corpus",
    "judge_legality",
    "judge_transition",
    "shipped_corpus",
]

CORPUS_FORMAT = "qwixx-math/conformance"
CORPUS_VERSION = 1
LEGALITY = "legality.json"
TRANSITIONS = "transitions.json"
MANIFEST = "manifest.json"
#: The corpus files, in the order they are written.
CORPUS_FILES = (LEGALITY, TRANSITIONS, MANIFEST)
#: Rule ids of RULES.md, then those of the variant pads with cases (VARIANTS.md §7, Double B).
RULE_IDS = (*(f"R{i}" for i in range(1, 19)), "DB1", "DB2", "DB3", "DB4", "CS1", "CS2",
            "CC1", "CC2", "CC3", "CC4", "CC5", "CC7",
            *(f"XC{i}" for i in range(1, 7)), *(f"DA{i}" for i in range(1, 8)),
            "BA1", "BA2", "BA3", "BA4", "BA5", "BA6", "BA8", *(f"LG{i}" for i in range(1, 7)),
            *(f"BB{i}" for i in range(1, 10)), *(f"BP{i}" for i in range(1, 10)))

_RULE_PREFIX = re.compile(r"((?:R|DB|XC|DA|BA|LG|BB|BP)\d+): ")
_STEPS = ("roll", "action1", "action2")


class CorpusError(QwixxError):
    """A corpus that cannot be built (the core disagrees with a hand-written case) or read."""


# -- judging a case with the reference core ------------------------------------------------------

def _rule_of(exc: Exception) -> str:
    if isinstance(exc, IllegalMoveError | InvalidStateError):
        return exc.rule
    match = _RULE_PREFIX.match(str(exc))
    if match is None:
        raise CorpusError(f"the core's error names no rule: {exc}")
    return match.group(1)


def _marks_json(marks: Sequence[Mark], layout: SheetLayout = OFFICIAL) -> list[dict[str, Any]]:
    if layout.faces != 6 or layout.bonus_rows:  # Longo (LG1), Big Points: layout order
        ordered = sorted(marks, key=lambda m: (isinstance(m, LuckyMark), mark_key(layout, m),
                                               str(m)))
        return [m for m in (mark_to_json(x) for x in ordered) if m is not None]
    return [m for m in (mark_to_json(x) for x in sorted(marks)) if m is not None]


def _legal_action1_moves(rolled: GameState, player: int,
                         choices: Sequence[Mark | None]) -> list[Mark]:
    """Marks ``player`` may choose in action 1, the other choices as given (second
    crosses, DA1, only on a pad with second-cross boxes; on a sheet with lucky numbers,
    the lucky crosses too: LG3, LG4)."""
    s = rolled.roll.white_sum if rolled.roll is not None else 0
    seconds = rolled.layout.second_crosses
    candidates: list[Mark] = []
    for colour in COLOURS:
        candidates.append(MARKS[colour.index][s])
        if seconds:
            candidates.append(Mark(colour, s, second=True))
    if rolled.sheets[player].layout.bonus_rows:  # Big Points: the bonus cells (BP2)
        candidates += [m for m in legal_action1(rolled, player) if isinstance(m, BonusMark)]
    if rolled.sheets[player].layout.lucky:
        candidates += [m for m in legal_action1(rolled, player) if isinstance(m, LuckyMark)]
    return allowed_action1(rolled, player, choices, candidates)


def judge_legality(case: dict[str, Any]) -> dict[str, Any]:
    """The reference core's verdict on a legality case: ``{legal, rule, player, legal_moves}``."""
    state = GameState.from_json(case["state"])
    if state.phase is not Phase.ROLL:
        raise CorpusError(f"case {case.get('id')}: the state must be in the roll phase")
    step = case["step"]
    if step not in _STEPS:
        raise CorpusError(f"case {case.get('id')}: unknown step {step!r}")
    active = state.active

    def verdict(legal: bool, rule: str | None, player: int,
                moves: list[Mark] | None) -> dict[str, Any]:
        return {"legal": legal, "rule": rule, "player": player,
                "legal_moves": _marks_json(moves, state.layout) if moves is not None else None}

    try:
        rolled = state.with_roll(roll_from_json(case["roll"], state.layout.faces))
    except (ParseError, IllegalMoveError) as exc:
        return verdict(False, _rule_of(exc), active, None)
    if step == "roll":
        return verdict(True, None, active, None)
    choices: list[Mark | None] = []
    for i, raw in enumerate(case["action1"]):
        try:
            choices.append(mark_from_json(raw, rolled.sheets[0].layout.top_number))
        except ParseError as exc:
            return verdict(False, _rule_of(exc), i, None)
    if step == "action1":
        try:
            rolled.with_action1(choices)
        except IllegalMoveError as exc:
            assert exc.player is not None
            return verdict(False, exc.rule, exc.player,
                           _legal_action1_moves(rolled, exc.player, choices))
        player = case["player"]
        return verdict(True, None, player, _legal_action1_moves(rolled, player, choices))
    after = rolled.with_action1(choices)
    mark = mark_from_json(case["action2"], rolled.sheets[0].layout.top_number)
    if after.phase is Phase.OVER:
        return verdict(mark is None, None if mark is None else "R15", active, [])
    moves = list(legal_action2(after))
    try:
        after.with_action2(mark)
    except IllegalMoveError as exc:
        return verdict(False, exc.rule, active, moves)
    return verdict(True, None, active, moves)


def judge_transition(case: dict[str, Any]) -> dict[str, Any]:
    """The reference core's outcome of a transition case's turn."""
    state = GameState.from_json(case["state"])
    top = state.layout.top_number  # 16 on Longo (LG1)
    choices = [mark_from_json(m, top) for m in case["action1"]]
    after = state.play_turn(roll_from_json(case["roll"], state.layout.faces), choices,
                            mark_from_json(case["action2"], top))
    return {"result_state": after.to_json(), "scores": list(after.scores),
            "winners": list(after.winners), "game_over": after.is_over,
            "ended_by": after.ended_by}


# -- building -------------------------------------------------------------------------------------

def _hand_state(sheets: tuple[str, ...], active: int, switches: dict[str, object],
                layout: str = "official") -> GameState:
    ruleset = Ruleset.from_json({"players": len(sheets), **switches})
    lay = layout_named(layout)
    parsed = tuple(Sheet.empty(lay) if s == "-" else parse_sheet(s, lay) for s in sheets)
    closed = frozenset().union(*(s.locked for s in parsed))
    return GameState(ruleset, parsed, active=active, closed=closed)


def _raw_or(text: str, parse: Any, to_json: Any) -> Any:
    if text.startswith(("{", "[")):
        return json.loads(text)
    return to_json(parse(text))


def _choices_json(text: str) -> Any:
    return _raw_or(text, parse_action1, lambda cs: [mark_to_json(m) for m in cs])


def _mark_json(text: str) -> Any:
    return None if text.strip() == "-" else mark_to_json(parse_mark(text))


def _hand_legality(spec: LegalitySpec) -> dict[str, Any]:
    state = _hand_state(spec.sheets, spec.active, spec.ruleset, spec.layout)
    case: dict[str, Any] = {
        "id": spec.slug, "description": spec.description, "rule_ids": sorted(spec.rules),
        **_layout_field(state),
        "ruleset": state.ruleset.to_json(), "state": state.to_json(),
        "roll": _raw_or(spec.roll, parse_roll, roll_to_json), "step": spec.step,
        "action1": _choices_json(spec.action1) if spec.step != "roll" else None,
        "action2": _mark_json(spec.action2) if spec.step == "action2" else None,
        "player": spec.player,
    }
    found = judge_legality(case)
    expected_legal = spec.expect == "legal"
    if (found["legal"] != expected_legal or found["player"] != spec.player
            or (not expected_legal and found["rule"] != spec.expect)):
        raise CorpusError(f"hand case {spec.slug}: expected {spec.expect} for player "
                          f"{spec.player}, the core says {found}")
    case.update(found)
    return case


def _hand_transition(spec: TransitionSpec) -> dict[str, Any]:
    state = _hand_state(spec.sheets, spec.active, spec.ruleset, spec.layout)
    case: dict[str, Any] = {
        "id": spec.slug, "description": spec.description, "rule_ids": sorted(spec.rules),
        **_layout_field(state),
        "ruleset": state.ruleset.to_json(), "state": state.to_json(),
        "roll": roll_to_json(parse_roll(spec.roll)), "action1": _choices_json(spec.action1),
        "action2": _mark_json(spec.action2),
    }
    found = judge_transition(case)
    after = GameState.from_json(found["result_state"])
    lay = state.layout
    expected_sheets = tuple(format_sheet(Sheet.empty(lay) if s == "-" else parse_sheet(s, lay))
                            for s in spec.expect_sheets)
    problems = []
    if tuple(format_sheet(s) for s in after.sheets) != expected_sheets:
        problems.append(f"sheets {[format_sheet(s) for s in after.sheets]}")
    if tuple(found["scores"]) != spec.expect_scores:
        problems.append(f"scores {found['scores']}")
    if found["ended_by"] != spec.expect_ended_by:
        problems.append(f"ended_by {found['ended_by']}")
    if spec.expect_active is not None and (after.is_over or after.active != spec.expect_active):
        problems.append(f"next active player {after.active} (over: {after.is_over})")
    if spec.expect_winners is not None and tuple(found["winners"]) != spec.expect_winners:
        problems.append(f"winners {found['winners']}")
    if problems:
        raise CorpusError(f"hand case {spec.slug}: the core gives {'; '.join(problems)}")
    case.update(found)
    return case


#: The rulesets of the random cases: the official game for 1 to 5 players, then each
#: switch (and two combinations) for 3 players.
_RANDOM_RULESETS: tuple[Ruleset, ...] = (
    *(Ruleset(players=p) for p in range(1, 6)),
    Ruleset(players=3, die_removal=DieRemoval.END_OF_TURN),
    Ruleset(players=3, end_check=EndCheck.SEQUENTIAL),
    Ruleset(players=3, end_check=EndCheck.END_OF_TURN),
    Ruleset(players=3, simultaneous_close=False),
    Ruleset(players=3, action2_after_game_end=True),
    Ruleset(players=4, die_removal=DieRemoval.END_OF_TURN, action2_after_game_end=True),
    Ruleset(players=4, end_check=EndCheck.SEQUENTIAL, simultaneous_close=False),
)
_RANDOM_SEED = 20_240_601
_GAMES_PER_RULESET = 2
_ACTION1_PER_GAME = 4
_ACTION2_PER_GAME = 4
_TRANSITIONS_PER_GAME = 2  # plus the game's last turn


def _dense_chooser(state: GameState, player: int, legal: Sequence[Mark],
                   rng: random.Random) -> Mark | None:
    """A player who fills rows: the legal mark skipping the fewest numbers (a last number
    skips none), if it skips at most one, nine times in ten; else nothing.  Games of such
    players close colours, which uniformly random players rarely do."""
    best: Mark | None = None
    best_gap = 99
    layout = state.layout
    for mark in legal:
        gap = 0 if closes(layout, mark) else \
            layout.pos[mark.colour.index][mark.number] \
            - state.sheets[player].masks[mark.colour.index].bit_length()
        if gap < best_gap:
            best, best_gap = mark, gap
    return best if best_gap <= 1 and rng.random() < 0.9 else None


def _random_mark(rng: random.Random, number: int) -> Mark:
    return MARKS[rng.randrange(len(COLOURS))][number]


def _random_action1(rng: random.Random, state: GameState, roll: Roll,
                    recorded: tuple[Mark | None, ...]) -> dict[str, Any] | None:
    """One action-1 case: a recorded turn with one player's choice replaced at random."""
    n = state.players
    player = rng.randrange(n)
    choices = list(recorded)
    r = rng.random()
    choices[player] = (None if r < 0.15 else
                       _random_mark(rng, roll.white_sum) if r < 0.8 else
                       _random_mark(rng, rng.randint(2, 12)))
    rolled = state.with_roll(roll)
    try:
        rolled.with_action1(choices)
    except IllegalMoveError as exc:
        assert exc.player is not None
        player = exc.player
        alone = list(choices)
        alone[player] = None
        try:  # keep only cases with a single illegal choice
            rolled.with_action1(alone)
        except IllegalMoveError:
            return None
    return {"roll": roll_to_json(roll), "step": "action1",
            "action1": [mark_to_json(m) for m in choices], "action2": None, "player": player}


def _random_action2(rng: random.Random, state: GameState, roll: Roll,
                    recorded: tuple[Mark | None, ...]) -> dict[str, Any]:
    colour = COLOURS[rng.randrange(len(COLOURS))]
    die = roll.die(colour)
    r = rng.random()
    if r < 0.1:
        mark: Mark | None = None
    elif die is not None and r < 0.8:
        mark = MARKS[colour.index][roll.white[rng.randrange(2)] + die]
    else:
        mark = MARKS[colour.index][rng.randint(2, 12)]
    return {"roll": roll_to_json(roll), "step": "action2",
            "action1": [mark_to_json(m) for m in recorded], "action2": mark_to_json(mark),
            "player": state.active}


def _random_roll_case(rng: random.Random, state: GameState, roll: Roll) -> dict[str, Any]:
    raw = roll_to_json(roll)
    closed = [c for c in COLOURS if c in state.closed]
    in_play = [c for c in COLOURS if c not in state.closed]
    r = rng.random()
    if r < 0.35 and closed:
        raw[closed[rng.randrange(len(closed))].value] = rng.randint(1, 6)
    elif r < 0.7 and in_play:
        del raw[in_play[rng.randrange(len(in_play))].value]
    elif r < 0.8:
        raw["white"][rng.randrange(2)] = rng.choice((0, 7))
    return {"roll": raw, "step": "roll", "action1": None, "action2": None,
            "player": state.active}


def _layout_field(state: GameState) -> dict[str, Any]:
    """``{"layout": key}`` for a case on another layout than the official one, else {}."""
    return {} if state.layout.is_official else {"layout": state.layout.key}


#: The random Qwixx Mixx cases: (ruleset, layout), after the official ones.
_RANDOM_MIXX: tuple[tuple[Ruleset, SheetLayout], ...] = (
    (Ruleset(players=2), MIXX_A),
    (Ruleset(players=3, die_removal=DieRemoval.END_OF_TURN), MIXX_A),
    (Ruleset(players=2), MIXX_B),
    (Ruleset(players=3, action2_after_game_end=True), MIXX_B),
)
_RANDOM_MIXX_SEED = 20_261_201


def _random_cases(mixx: bool = False) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The random cases: the official game's (``mixx=False``), or Qwixx Mixx's."""
    rng = random.Random(_RANDOM_MIXX_SEED if mixx else _RANDOM_SEED)
    legality: list[dict[str, Any]] = []
    transitions: list[dict[str, Any]] = []
    plan = _RANDOM_MIXX if mixx else tuple((rs, OFFICIAL) for rs in _RANDOM_RULESETS)
    seed0 = _RANDOM_MIXX_SEED if mixx else _RANDOM_SEED
    for r_index, (ruleset, layout) in enumerate(plan):
        for g in range(_GAMES_PER_RULESET):
            record = random_game(seed=seed0 + 100 * r_index + g, ruleset=ruleset,
                                 chooser=_dense_chooser if g % 2 else uniform_chooser,
                                 layout=layout)
            states = replay(record)
            turns = record.turns
            label = ", ".join([*([] if layout.is_official else [layout.name]),
                               f"{ruleset.players} player(s)",
                               *_switches(ruleset.to_json())])
            picks = [rng.randrange(len(turns)) for _ in range(_TRANSITIONS_PER_GAME)]
            for k in [*picks, len(turns) - 1]:
                turn = turns[k]
                transitions.append({
                    "description": f"random game ({label}), turn {k + 1}",
                    **_layout_field(states[k]),
                    "ruleset": ruleset.to_json(), "state": states[k].to_json(),
                    "roll": roll_to_json(turn.roll),
                    "action1": [mark_to_json(m) for m in turn.action1],
                    "action2": mark_to_json(turn.action2)})
            jobs = (["action1"] * _ACTION1_PER_GAME + ["action2"] * _ACTION2_PER_GAME
                    + ["roll"])
            for job in jobs:
                k = rng.randrange(len(turns))
                turn, state = turns[k], states[k]
                if job == "action1":
                    built = None
                    while built is None:
                        built = _random_action1(rng, state, turn.roll, turn.action1)
                elif job == "action2":
                    built = _random_action2(rng, state, turn.roll, turn.action1)
                else:
                    built = _random_roll_case(rng, state, turn.roll)
                built.update({"description": f"random game ({label}), turn {k + 1}, "
                                             f"{job} varied at random",
                              **_layout_field(state),
                              "ruleset": ruleset.to_json(), "state": state.to_json()})
                legality.append(built)
    _STEP_RULE = {"roll": "R4", "action1": "R5", "action2": "R6"}
    prefix = "mixx-random" if mixx else "random"
    for i, case in enumerate(legality, start=1):
        case["id"] = f"{prefix}-{i:04d}"
        case.update(judge_legality(case))
        case["rule_ids"] = sorted({_STEP_RULE[case["step"]]}
                                  | ({case["rule"]} if case["rule"] else set()))
    for i, case in enumerate(transitions, start=1):
        case["id"] = f"{prefix}-{i:04d}"
        case.update(judge_transition(case))
        case["rule_ids"] = _transition_rules(case)
    return legality, transitions


def _transition_rules(case: dict[str, Any]) -> list[str]:
    """The rules a random turn exercises: marks, scores and the next player always; R8/R9
    when a colour closes, R11 for a penalty, the end of the game and R18 when it ends."""
    before, after = case["state"], case["result_state"]
    rules = {"R5", "R6", "R7", "R12", "R16", "R17"}
    if after["closed"] != before["closed"]:
        rules |= {"R8", "R9"}
    if any(a["penalties"] != b["penalties"]
           for a, b in zip(after["sheets"], before["sheets"], strict=True)):
        rules.add("R11")
    if case["ended_by"]:
        rules |= {case["ended_by"], "R18"}
    return sorted(rules)


def _switches(ruleset_json: dict[str, Any]) -> list[str]:
    default = Ruleset(players=ruleset_json["players"])
    official = default.to_json()
    return [f"{k}={json.dumps(v).strip(chr(34))}" for k, v in sorted(ruleset_json.items())
            # a field to_json leaves out has its default (X-Change Options false,
            # da_same_turn true, Longo's Options instead and open_rows)
            if v != official.get(k, getattr(default, k, None))]


def _dump_cases(cases: list[dict[str, Any]]) -> str:
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
             for c in cases]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def corpus_files() -> dict[str, str]:
    """The corpus as freshly generated: file name -> text (deterministic)."""
    legality = [_hand_legality(s) for s in HAND_LEGALITY]
    transitions = [_hand_transition(s) for s in HAND_TRANSITIONS]
    random_legality, random_transitions = _random_cases()
    legality += random_legality
    transitions += random_transitions
    # Qwixx Mixx after the official game, so the official cases stay as they were
    legality += [_hand_legality(s) for s in HAND_MIXX_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_MIXX_TRANSITIONS]
    mixx_legality, mixx_transitions = _random_cases(mixx=True)
    legality += mixx_legality
    transitions += mixx_transitions
    # Qwixx Double B last (VARIANTS.md §7)
    legality += [_hand_legality(s) for s in HAND_DOUBLE_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_DOUBLE_TRANSITIONS]
    # Qwixx Connected Steps after Double B (VARIANTS.md §4)
    legality += [_hand_legality(s) for s in HAND_STEPS_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_STEPS_TRANSITIONS]
    # Qwixx Connected, the Chain, after the Steps (VARIANTS.md §5)
    legality += [_hand_legality(s) for s in HAND_CHAIN_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_CHAIN_TRANSITIONS]
    # Qwixx X-Change (VARIANTS.md §9)
    legality += [_hand_legality(s) for s in HAND_XC_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_XC_TRANSITIONS]
    # Qwixx Double A after X-Change (VARIANTS.md §6)
    legality += [_hand_legality(s) for s in HAND_DOUBLE_A_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_DOUBLE_A_TRANSITIONS]
    # Qwixx Bonus A (VARIANTS.md §2)
    legality += [_hand_legality(s) for s in HAND_BONUS_A_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_BONUS_A_TRANSITIONS]
    legality += [_hand_legality(s) for s in HAND_BIG_POINTS_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_BIG_POINTS_TRANSITIONS]
    # Qwixx Longo last (VARIANTS.md §8)
    legality += [_hand_legality(s) for s in HAND_LONGO_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_LONGO_TRANSITIONS]
    # Qwixx Bonus B after Longo (VARIANTS.md §3), appended so earlier case ids keep their order
    legality += [_hand_legality(s) for s in HAND_BONUS_B_LEGALITY]
    transitions += [_hand_transition(s) for s in HAND_BONUS_B_TRANSITIONS]
    for name, cases in ((LEGALITY, legality), (TRANSITIONS, transitions)):
        ids = [c["id"] for c in cases]
        if len(set(ids)) != len(ids):
            raise CorpusError(f"{name}: duplicate case ids")
    texts = {LEGALITY: _dump_cases(legality), TRANSITIONS: _dump_cases(transitions)}
    rules: dict[str, dict[str, int]] = {r: {"legality": 0, "transitions": 0} for r in RULE_IDS}
    switches: dict[str, dict[str, int]] = {}
    for kind, cases in (("legality", legality), ("transitions", transitions)):
        for case in cases:
            exercised = set(case["rule_ids"])
            if case.get("rule"):
                exercised.add(case["rule"])
            for rule in exercised:
                rules[rule][kind] += 1
            for switch in _switches(case["ruleset"]):
                switches.setdefault(switch, {"legality": 0, "transitions": 0})[kind] += 1
    uncovered = [r for r, counts in rules.items() if not any(counts.values())]
    if uncovered:
        raise CorpusError(f"no case exercises {', '.join(uncovered)}")
    manifest = {
        "format": CORPUS_FORMAT, "version": CORPUS_VERSION,
        "files": {name: {"cases": len(cases),
                         "sha256": hashlib.sha256(texts[name].encode()).hexdigest()}
                  for name, cases in ((LEGALITY, legality), (TRANSITIONS, transitions))},
        "rules": rules, "switches": dict(sorted(switches.items())),
        "layouts": {kind: dict(sorted(Counter(c.get("layout", OFFICIAL.name)
                                               for c in cases).items()))
                    for kind, cases in (("legality", legality), ("transitions", transitions))},
        "regenerate": "qwixx-math conformance --emit DIR",
        "protocol": "docs/validation.md",
    }
    texts[MANIFEST] = json.dumps(manifest, sort_keys=True, indent=2) + "\n"
    return texts


def emit_corpus(directory: str | Path) -> tuple[Path, ...]:
    """Write the freshly generated corpus into ``directory`` (created if needed)."""
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in corpus_files().items():
            path = out / name
            path.write_bytes(text.encode("ascii"))
            written.append(path)
    except OSError as exc:
        raise CorpusError(f"cannot write the corpus to {out}: {exc.strerror or exc}") from None
    return tuple(written)


def shipped_corpus() -> dict[str, str]:
    """The corpus checked in with the package: file name -> text."""
    root = resources.files("qwixx_math").joinpath("data").joinpath("conformance")
    return {name: root.joinpath(name).read_bytes().decode("ascii") for name in CORPUS_FILES}


# -- checking -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CorpusCheck:
    """The outcome of replaying a corpus through the reference core."""

    legality: int
    transitions: int
    failures: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.failures


def _read_corpus(directory: str | Path | None) -> dict[str, str]:
    if directory is None:
        return shipped_corpus()
    texts = {}
    for name in CORPUS_FILES:
        path = Path(directory) / name
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CorpusError(f"cannot read {path}: {exc}") from None
    return texts


def _load_cases(texts: dict[str, str], name: str) -> list[dict[str, Any]]:
    try:
        cases = json.loads(texts[name])
    except json.JSONDecodeError as exc:
        raise CorpusError(f"{name}: not valid JSON at line {exc.lineno}, column "
                          f"{exc.colno}: {exc.msg}") from None
    if not isinstance(cases, list) or not all(isinstance(c, dict) for c in cases):
        raise CorpusError(f"{name}: must be a JSON array of case objects")
    return cases


def check_corpus(directory: str | Path | None = None) -> CorpusCheck:
    """Replay every case of the corpus in ``directory`` (default: the shipped one) through
    the reference core; each disagreement is one entry of ``failures``."""
    texts = _read_corpus(directory)
    failures: list[str] = []
    try:
        manifest = json.loads(texts[MANIFEST])
    except json.JSONDecodeError as exc:
        raise CorpusError(f"{MANIFEST}: not valid JSON: {exc.msg}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != CORPUS_FORMAT \
            or manifest.get("version") != CORPUS_VERSION:
        raise CorpusError(f"{MANIFEST}: not a {CORPUS_FORMAT} version {CORPUS_VERSION} corpus")
    listed_files = manifest.get("files")
    if not isinstance(listed_files, dict):
        raise CorpusError(f"{MANIFEST}: 'files' must be an object")
    counts = {}
    for name, judge, keys in (
            (LEGALITY, judge_legality, ("legal", "rule", "player", "legal_moves")),
            (TRANSITIONS, judge_transition,
             ("result_state", "scores", "winners", "game_over", "ended_by"))):
        cases = _load_cases(texts, name)
        counts[name] = len(cases)
        listed = listed_files.get(name)
        if not isinstance(listed, dict):
            listed = {}
        if listed.get("sha256") != hashlib.sha256(texts[name].encode()).hexdigest():
            failures.append(f"{name}: SHA-256 differs from the manifest")
        if listed.get("cases") != len(cases):
            failures.append(f"{name}: {len(cases)} cases, the manifest says "
                            f"{listed.get('cases')}")
        for case in cases:
            try:
                found = judge(case)
            except (QwixxError, LookupError, TypeError, ValueError, AttributeError) as exc:
                failures.append(f"{name} {case.get('id')}: cannot replay: {exc!r}")
                continue
            for key in keys:
                if case.get(key) != found[key]:  # (a malformed case is a failure too)
                    failures.append(f"{name} {case.get('id')}: {key} is {case.get(key)!r}, "
                                    f"the reference core gives {found[key]!r}")
    return CorpusCheck(counts[LEGALITY], counts[TRANSITIONS], tuple(failures))
