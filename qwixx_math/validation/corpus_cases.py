"""The hand-written cases of the conformance corpus, with their expected outcomes.

Each case states its expectation from RULES.md by hand (a rule id, or the sheets
and scores after a turn); :mod:`~qwixx_math.validation.conformance` builds the
corpus entry with the reference core and refuses to write it if the core
disagrees, so these cases check the core as well as other programs.

Notation (see ``docs/notation.md``): sheets ``r:2,3/g:12`` (``-`` an empty
sheet), rolls ``w:3,5/r:1/y:2/g:6/b:4``, action-1 choices ``y5,r5,-`` (one per
player), marks ``g9`` (``-`` no mark).  A roll or action-1 text starting with
``{`` or ``[`` is raw JSON (for malformed input).  Closed colours are the
colours locked on some sheet.

The Qwixx Mixx cases (:data:`HAND_MIXX_LEGALITY`, :data:`HAND_MIXX_TRANSITIONS`) name
their ``layout``; their sheets are read on it (rows by lock colour, see
docs/mixx.md).  They come after the official cases, so those stay as they were.

The Qwixx Double B cases (:data:`HAND_DOUBLE_LEGALITY`, :data:`HAND_DOUBLE_TRANSITIONS`;
VARIANTS.md §7, rules DB1-DB4) come last, on the layout ``double-b`` (and
``double-b-alt`` for the Option ``db_desc_cells``).

The Qwixx Connected Steps cases (:data:`HAND_STEPS_LEGALITY`, :data:`HAND_STEPS_TRANSITIONS`;
VARIANTS.md §4, rules CS1-CS2) come after them, on the layout ``connected-steps`` (S2's
sheet 1: steps R2 Y3 Y4 R5 G8 B7 B6 G5 R10 Y11 G2).  A wrong score (CS2) cannot be a move,
so CS2 shows here in transitions' scores; a record claiming one is the validator's case.

The Qwixx X-Change cases (:data:`HAND_XC_LEGALITY`, :data:`HAND_XC_TRANSITIONS`;
VARIANTS.md §9, rules XC1-XC6) come next, on the layout ``x-change``.

The Qwixx Double A cases (:data:`HAND_DOUBLE_A_LEGALITY`, :data:`HAND_DOUBLE_A_TRANSITIONS`;
VARIANTS.md §6, rules DA1-DA7) come next, on the layout ``double-a``; a second cross
is written ``b6+`` (a mark) and ``b:12,10,9,8,6+`` (a sheet whose blue 6 is doubled).

The Qwixx Bonus A cases (:data:`HAND_BONUS_A_LEGALITY`, :data:`HAND_BONUS_A_TRANSITIONS`;
VARIANTS.md §2, rules BA1-BA8) come next, on the layout ``bonus-a``; a sheet's bonus bar
is written ``/bar:xxxx--------`` (``x`` taken, ``v`` void, ``-`` free).

The Qwixx Longo cases (:data:`HAND_LONGO_LEGALITY`, :data:`HAND_LONGO_TRANSITIONS`;
VARIANTS.md §8, rules LG1-LG6) come last, on the layouts ``longo`` and ``longo:5,13`` (the
lucky numbers of §8.3 example 1).  Their rolls are of 8-sided dice (``d8|``); a plain mark
above 12 is written as raw JSON (the text notation reads 2..12), a lucky cross ``*y10``.

The Qwixx Bonus B cases (:data:`HAND_BONUS_B_LEGALITY`, :data:`HAND_BONUS_B_TRANSITIONS`;
VARIANTS.md §3, rules BB1-BB9) are appended after them, on the layout ``bonus-b``; a sheet
needs no new notation (a symbol is active when both its cells are crossed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["HAND_BIG_POINTS_LEGALITY", "HAND_BIG_POINTS_TRANSITIONS",
           "HAND_BONUS_A_LEGALITY", "HAND_BONUS_A_TRANSITIONS", "HAND_BONUS_B_LEGALITY",
           "HAND_BONUS_B_TRANSITIONS", "HAND_CHAIN_LEGALITY",
           "HAND_CHAIN_TRANSITIONS", "HAND_DOUBLE_A_LEGALITY",
           "HAND_DOUBLE_A_TRANSITIONS", "HAND_DOUBLE_LEGALITY",
           "HAND_DOUBLE_TRANSITIONS", "HAND_LEGALITY", "HAND_LONGO_LEGALITY",
           "HAND_LONGO_TRANSITIONS", "HAND_MIXX_LEGALITY", "HAND_MIXX_TRANSITIONS",
           "HAND_STEPS_LEGALITY", "HAND_STEPS_TRANSITIONS", "HAND_TRANSITIONS",
           "HAND_XC_LEGALITY", "HAND_XC_TRANSITIONS", "LegalitySpec", "TransitionSpec"]


@dataclass(frozen=True, slots=True)
class LegalitySpec:
    """One hand-written legality case: is this roll / action-1 choice / action 2 legal?

    ``expect`` is ``"legal"`` or the rule id the choice breaks; ``player`` the
    player whose choice is judged (for action 2 and rolls: the active player).
    """

    slug: str
    description: str
    rules: tuple[str, ...]
    sheets: tuple[str, ...]
    roll: str
    step: str
    expect: str
    action1: str = ""
    action2: str = "-"
    player: int = 0
    active: int = 0
    ruleset: dict[str, object] = field(default_factory=dict)
    layout: str = "official"


@dataclass(frozen=True, slots=True)
class TransitionSpec:
    """One hand-written turn and what the rules say follows.

    ``expect_sheets`` (text, one per player), ``expect_scores`` and
    ``expect_ended_by`` (None while the game goes on) are written by hand, and
    optionally the next active player and the winners.
    """

    slug: str
    description: str
    rules: tuple[str, ...]
    sheets: tuple[str, ...]
    roll: str
    action1: str
    action2: str
    expect_sheets: tuple[str, ...]
    expect_scores: tuple[int, ...]
    expect_ended_by: str | None = None
    active: int = 0
    ruleset: dict[str, object] = field(default_factory=dict)
    expect_active: int | None = None
    expect_winners: tuple[int, ...] | None = None
    layout: str = "official"


_ALL = "w:6,6/r:1/y:1/g:1/b:1"
_R5 = "r:2,3,4,5,6"
_R4 = "r:2,3,4,5"
_Y5 = "y:2,3,4,5,6"
_GREEN_CLOSED = "g:12,11,10,9,8,2,lock"
_E = "r:-/y:-/g:-/b:-/p:0"

HAND_LEGALITY: tuple[LegalitySpec, ...] = (
    # R1 dice
    LegalitySpec("r01-white-die-7", "a white die shows 1 to 6; 7 is no die face", ("R1",),
                 ("-", "-"), '{"white": [7, 1], "red": 1, "yellow": 1, "green": 1, "blue": 1}',
                 "roll", "R1"),
    LegalitySpec("r01-colour-die-0", "a coloured die shows 1 to 6; 0 is no die face", ("R1",),
                 ("-", "-"), '{"white": [3, 2], "red": 0, "yellow": 1, "green": 1, "blue": 1}',
                 "roll", "R1"),
    # R2 sheet
    LegalitySpec("r02-no-number-13", "a row holds the numbers 2 to 12; 13 is on no row",
                 ("R2",), ("-", "-"), "w:6,6/r:1/y:1/g:1/b:1", "action1", "R2",
                 action1='[{"colour": "red", "number": 13}, null]'),
    LegalitySpec("r02-green-reads-12-to-2", "green reads 12, 11, ..., 2: green 9 is right of "
                 "green 10", ("R2", "R7"), ("g:12,10", "-"), "w:4,5/r:1/y:1/g:1/b:1",
                 "action1", "legal", action1="g9,-"),
    LegalitySpec("r02-green-11-left-of-10", "green reads 12, 11, ..., 2: green 11 is left of "
                 "green 10", ("R2", "R7"), ("g:12,10", "-"), "w:5,6/r:1/y:1/g:1/b:1",
                 "action1", "R7", action1="g11,-"),
    # R4 roll
    LegalitySpec("r04-every-die-in-play-is-rolled", "the blue die is in play and must be rolled",
                 ("R4",), ("-", "-"), "w:3,4/r:1/y:2/g:3", "roll", "R4"),
    LegalitySpec("r04-closed-die-not-rolled", "red is closed: a roll without the red die is "
                 "complete", ("R4", "R9"), (_R5 + ",12,lock", "-"), "w:3,4/y:2/g:3/b:4",
                 "roll", "legal"),
    LegalitySpec("r09-closed-die-rolled", "red is closed: its die left play and cannot be "
                 "rolled", ("R4", "R9"), (_R5 + ",12,lock", "-"), "w:3,4/r:1/y:2/g:3/b:4",
                 "roll", "R9"),
    # R5 action 1
    LegalitySpec("r05-everyone-marks-the-white-sum", "white 3 and 5: both players may mark an "
                 "8, the passive player included", ("R5",), ("-", "-"),
                 "w:3,5/r:1/y:1/g:1/b:1", "action1", "legal", action1="r8,g8", player=1),
    LegalitySpec("r05-active-not-white-sum", "action 1 marks the white sum 8, not 9",
                 ("R5",), ("-", "-"), "w:3,5/r:1/y:1/g:1/b:1", "action1", "R5",
                 action1="r9,-"),
    LegalitySpec("r05-passive-not-white-sum", "the passive player's action 1 also marks the "
                 "white sum", ("R5",), ("-", "-"), "w:3,5/r:1/y:1/g:1/b:1", "action1", "R5",
                 action1="-,y7", player=1),
    # R6 action 2
    LegalitySpec("r06-white-plus-colour", "white 5 with green 4: the active player may mark "
                 "green 9", ("R6",), ("-", "-"), "w:5,3/r:1/y:1/g:4/b:1", "action2", "legal",
                 action1="-,-", action2="g9"),
    LegalitySpec("r06-either-white-die", "white 3 with green 4 makes green 7",
                 ("R6",), ("-", "-"), "w:5,3/r:1/y:1/g:4/b:1", "action2", "legal",
                 action1="-,-", action2="g7"),
    LegalitySpec("r06-not-white-plus-colour", "white + green makes 7 or 9, not 10", ("R6",),
                 ("-", "-"), "w:5,3/r:1/y:1/g:4/b:1", "action2", "R6", action1="-,-",
                 action2="g10"),
    LegalitySpec("r06-white-sum-is-not-action-2", "the white sum 8 is no white + colour sum "
                 "in red", ("R6",), ("-", "-"), "w:5,3/r:1/y:1/g:4/b:1", "action2", "R6",
                 action1="-,-", action2="r8"),
    # R7 left to right
    LegalitySpec("r07-skipped-number-is-lost", "red 5 then red 7 marked: red 6 is gone for good",
                 ("R7",), ("r:5,7", "-"), "w:3,3/r:1/y:1/g:1/b:1", "action1", "R7",
                 action1="r6,-"),
    LegalitySpec("r07-left-of-marks", "red 5 then red 7 marked: red 4 is gone for good",
                 ("R7",), ("r:5,7", "-"), "w:2,2/r:1/y:1/g:1/b:1", "action1", "R7",
                 action1="r4,-"),
    LegalitySpec("r07-no-number-twice", "red 7 is already marked", ("R7",), ("r:5,7", "-"),
                 "w:3,4/r:1/y:1/g:1/b:1", "action1", "R7", action1="r7,-"),
    LegalitySpec("r07-same-row-in-order", "action 1 red 6, then action 2 red 8 right of it",
                 ("R7",), ("-", "-"), "w:3,3/r:5/y:1/g:1/b:1", "action2", "legal",
                 action1="r6,-", action2="r8"),
    LegalitySpec("r07-same-row-out-of-order", "action 1 is written first: action 2 red 5 is "
                 "left of the action-1 red 6", ("R7",), ("-", "-"), "w:3,3/r:2/y:1/g:1/b:1",
                 "action2", "R7", action1="r6,-", action2="r5"),
    LegalitySpec("r07-same-row-same-number", "action 1 red 6, then action 2 red 6 again",
                 ("R7",), ("-", "-"), "w:3,3/r:3/y:1/g:1/b:1", "action2", "R7",
                 action1="r6,-", action2="r6"),
    # R8 last number
    LegalitySpec("r08-four-marks-no-lock", "red 12 needs 5 marks in red before it; 4 are not "
                 "enough", ("R8",), (_R4, "-"), _ALL, "action1", "R8", action1="r12,-"),
    LegalitySpec("r08-five-marks-lock", "red 12 with 5 marks in red before it closes red",
                 ("R8",), (_R5, "-"), _ALL, "action1", "legal", action1="r12,-"),
    LegalitySpec("r08-marks-not-positions", "5 marks with gaps (2, 4, 6, 8, 10) are 5 marks",
                 ("R8",), ("r:2,4,6,8,10", "-"), _ALL, "action1", "legal", action1="r12,-"),
    LegalitySpec("r08-green-lock", "green 2 with 5 green marks before it", ("R8",),
                 ("g:12,11,10,9,8", "-"), "w:1,1/r:1/y:1/g:1/b:1", "action1", "legal",
                 action1="g2,-"),
    LegalitySpec("r08-blue-four-marks", "blue 2 needs 5 blue marks; 4 are not enough",
                 ("R8",), ("b:12,11,10,9", "-"), "w:1,1/r:1/y:1/g:1/b:1", "action1", "R8",
                 action1="b2,-"),
    LegalitySpec("r08-action-1-mark-counts", "4 red marks, action 1 red 7 makes 5: action 2 "
                 "may mark red 12", ("R8",), (_R4, "-"), "w:6,1/r:6/y:1/g:1/b:1", "action2",
                 "legal", action1="r7,-", action2="r12"),
    LegalitySpec("r08-four-marks-action-2", "4 red marks and no action-1 mark: action 2 may "
                 "not mark red 12", ("R8",), (_R4, "-"), "w:6,1/r:6/y:1/g:1/b:1", "action2",
                 "R8", action1="-,-", action2="r12"),
    LegalitySpec("r08-passive-four-marks", "the passive player's 4 red marks are not enough",
                 ("R8",), ("-", _R4), _ALL, "action1", "R8", action1="-,r12", player=1),
    # R9 closing
    LegalitySpec("r09-closed-for-every-player", "red was closed by player 1: player 0 may no "
                 "longer mark red", ("R9",), ("r:2,3", _R5 + ",12,lock"),
                 "w:4,4/y:1/g:1/b:1", "action1", "R9", action1="r8,-"),
    LegalitySpec("r09-closed-row-of-the-closer", "player 0 closed red; the row takes no more "
                 "marks", ("R9",), (_R5 + ",12,lock", "-"), "w:4,4/y:1/g:1/b:1", "action1",
                 "R9", action1="r8,-"),
    LegalitySpec("r09-no-die-no-action-2", "green was closed before this turn: no green die, "
                 "no action 2 in green", ("R9",), ("g:12", _GREEN_CLOSED),
                 "w:3,4/r:1/y:1/b:1", "action2", "R9", action1="-,-", action2="g7"),
    LegalitySpec("r09-die-closed-in-action-1", "player 1 closes red in action 1: the red die "
                 "leaves play at once, so player 0's action 2 cannot use it", ("R9",),
                 ("r:2,3", _R5), "w:6,6/r:1/y:1/g:1/b:1", "action2", "R9", action1="-,r12",
                 action2="r7"),
    LegalitySpec("switch-die-removal-end-of-turn", "die_removal=end_of_turn: the red die "
                 "closed in action 1 stays usable in action 2", ("R9",), ("r:2,3", _R5),
                 "w:6,6/r:1/y:1/g:1/b:1", "action2", "legal", action1="-,r12", action2="r7",
                 ruleset={"die_removal": "end_of_turn"}),
    LegalitySpec("switch-die-removal-closer-row", "die_removal=end_of_turn: the die stays, but "
                 "the closer's own row is closed", ("R9",), (_R5, "-"),
                 "w:6,6/r:6/y:1/g:1/b:1", "action2", "R9", action1="r12,-", action2="r12",
                 ruleset={"die_removal": "end_of_turn"}),
    # R10 simultaneous closing
    LegalitySpec("r10-two-players-close-red", "both players have 5 red marks: both may close "
                 "red at once", ("R10",), (_R5, _R5), _ALL, "action1", "legal",
                 action1="r12,r12", player=1),
    LegalitySpec("r10-four-marks-while-another-closes", "player 1 has 4 red marks: no red 12, "
                 "even while player 0 closes red", ("R8", "R10"), (_R5, _R4), _ALL, "action1",
                 "R8", action1="r12,r12", player=1),
    LegalitySpec("switch-simultaneous-close-false", "simultaneous_close=false: player 0 (the "
                 "active player, first in turn order) closes red; player 1 may not",
                 ("R10",), (_R5, _R5), _ALL, "action1", "R10", action1="r12,r12", player=1,
                 ruleset={"simultaneous_close": False}),
    LegalitySpec("switch-simultaneous-close-turn-order", "simultaneous_close=false: turn order "
                 "starts with the active player 1, so player 0 is the second closer",
                 ("R10", "R12"), (_R5, _R5), _ALL, "action1", "R10", action1="r12,r12",
                 player=0, active=1, ruleset={"simultaneous_close": False}),
    # R14 / R15 end of the game
    LegalitySpec("r14-third-colour-at-once", "green is closed; white 6+6: player 1 closes red "
                 "and player 2 yellow in the same instant", ("R14",),
                 ("-", _R5, _Y5 + "/" + _GREEN_CLOSED), "w:6,6/r:1/y:1/b:1", "action1",
                 "legal", action1="-,r12,y12", player=2),
    LegalitySpec("switch-end-check-sequential", "end_check=sequential: player 1's red 12 ends "
                 "the game before player 2 marks", ("R14",),
                 ("-", _R5, _Y5 + "/" + _GREEN_CLOSED), "w:6,6/r:1/y:1/b:1", "action1",
                 "R14", action1="-,r12,y12", player=2, ruleset={"end_check": "sequential"}),
    LegalitySpec("r15-no-action-2-after-the-end", "player 1 closes a second colour in action 1: "
                 "the game ends before action 2", ("R14", "R15"), ("-", _R5 + "/" + _GREEN_CLOSED),
                 "w:6,6/r:1/y:2/b:3", "action2", "R15", action1="-,r12", action2="y8"),
    LegalitySpec("r15-pass-after-the-end", "after the end in action 1, no action 2 is the only "
                 "choice", ("R15",), ("-", _R5 + "/" + _GREEN_CLOSED), "w:6,6/r:1/y:2/b:3",
                 "action2", "legal", action1="-,r12", action2="-"),
    LegalitySpec("switch-action2-after-game-end", "action2_after_game_end=true: the active "
                 "player still takes action 2", ("R15",), ("-", _R5 + "/" + _GREEN_CLOSED),
                 "w:6,6/r:1/y:2/b:3", "action2", "legal", action1="-,r12", action2="y8",
                 ruleset={"action2_after_game_end": True}),
    LegalitySpec("switch-end-check-end-of-turn", "end_check=end_of_turn: the end is checked "
                 "after the turn, so action 2 follows", ("R14", "R15"),
                 ("-", _R5 + "/" + _GREEN_CLOSED), "w:6,6/r:1/y:2/b:3", "action2", "legal",
                 action1="-,r12", action2="y8", ruleset={"end_check": "end_of_turn"}),
    LegalitySpec("switch-action2-after-end-die-removed", "action2_after_game_end=true, but red "
                 "closed in action 1 and its die left play", ("R9", "R15"),
                 ("-", _R5 + "/" + _GREEN_CLOSED), "w:6,6/r:1/y:2/b:3", "action2", "R9",
                 action1="-,r12", action2="r7", ruleset={"action2_after_game_end": True}),
    # R3 solitaire
    LegalitySpec("r03-solitaire-both-actions", "one player: the single player is the active "
                 "player and takes both actions", ("R3", "R6"), ("-",), "w:2,3/r:4/y:1/g:1/b:1",
                 "action2", "legal", action1="r5", action2="r7"),
)

HAND_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("kari-ola-mia", "RULES.md: Kari rolls white 4 and 1, red 3, yellow 6, "
                   "green 5, blue 6; Kari marks yellow 5, Ola red 5, Mia (red 6 marked) passes "
                   "at no cost; Kari combines white 4 with blue 6 for blue 10",
                   ("R5", "R6", "R11"), ("-", "-", "r:6"), "w:4,1/r:3/y:6/g:5/b:6", "y5,r5,-",
                   "b10", ("y:5/b:10", "r:5", "r:6"), (2, 1, 1), expect_active=1),
    TransitionSpec("score-example-74", "RULES.md: 6 red (21) + 4 yellow (10) + 9 green with "
                   "its lock (45) + 2 blue (3) = 79, one penalty: 74", ("R16", "R17"),
                   ("r:2,3,4,5,6/y:2,3,4/g:12,11,10,9,8,7,6,2,lock/b:12,11/p:1", "-"),
                   "w:3,4/r:1/y:2/b:1", "r7,-", "y5",
                   ("r:2,3,4,5,6,7/y:2,3,4,5/g:12,11,10,9,8,7,6,2,lock/b:12,11/p:1", _E),
                   (74, 0)),
    TransitionSpec("score-example-70", "RULES.md: 4 red (10) + 3 yellow (6) + 8 green (36) "
                   "+ 7 blue (28) = 80; the active player marks nothing: a second penalty, 70",
                   ("R11", "R16", "R17"),
                   ("r:2,3,4,5/y:2,3,4/g:12,11,10,9,8,7,6,5/b:12,11,10,9,8,7,6/p:1", "-"),
                   "w:1,1/r:1/y:1/g:1/b:1", "-,-", "-",
                   ("r:2,3,4,5/y:2,3,4/g:12,11,10,9,8,7,6,5/b:12,11,10,9,8,7,6/p:2", _E),
                   (70, 0)),
    TransitionSpec("r10-simultaneous-close", "both players close red at once; each gets the "
                   "lock box, which counts as a mark: 7 marks, 28 points", ("R8", "R10", "R16"),
                   (_R5, _R5), _ALL, "r12,r12", "-",
                   (_R5 + ",12,lock", _R5 + ",12,lock"), (28, 28)),
    TransitionSpec("r08-lock-counts-action-1-mark", "4 red marks; action 1 red 7 makes 5, so "
                   "action 2 red 12 closes red: 6 numbers and the lock, 28 points",
                   ("R8", "R16"), (_R4, "-"), "w:6,1/r:6/y:1/g:1/b:1", "r7,-", "r12",
                   ("r:2,3,4,5,7,12,lock", _E), (28, 0)),
    TransitionSpec("r14-third-colour-at-once", "RULES.md: green is closed, two white sixes: "
                   "player 1 closes red while player 2 closes yellow; three colours closed, the "
                   "game is over (no penalty: it ended before the turn was complete)",
                   ("R10", "R14", "R15"), ("-", _R5, _Y5 + "/" + _GREEN_CLOSED),
                   "w:6,6/r:1/y:1/b:1", "-,r12,y12", "-",
                   (_E, _R5 + ",12,lock", _Y5 + ",12,lock/" + _GREEN_CLOSED), (0, 28, 56), "R14",
                   expect_winners=(2,)),
    TransitionSpec("r11-passive-never-penalised", "everyone passes: only the active player "
                   "takes a penalty", ("R11", "R12"), ("-", "-", "-"),
                   "w:1,1/r:1/y:1/g:1/b:1", "-,-,-", "-",
                   ("p:1", _E, _E), (-5, 0, 0)),
    TransitionSpec("r11-penalty-although-a-mark-was-legal", "one player marks nothing although "
                   "red 2 was free: a penalty all the same", ("R3", "R11"), ("-",),
                   "w:1,1/r:1/y:1/g:1/b:1", "-", "-", ("p:1",), (-5,)),
    TransitionSpec("r11-action-2-only-no-penalty", "the active player marks only in action 2: "
                   "no penalty", ("R11",), ("-", "-"), "w:1,1/r:1/y:1/g:1/b:5", "-,-", "b6",
                   ("b:6", _E), (1, 0)),
    TransitionSpec("r13-fourth-penalty-ends", "a fourth penalty box ends the game at once",
                   ("R13", "R17", "R18"), ("p:3", "r:2"), "w:1,1/r:1/y:1/g:1/b:1", "-,-", "-",
                   ("p:4", "r:2"), (-20, 1), "R13"),
    TransitionSpec("r14-second-colour-in-action-2", "a second colour closed in action 2 ends the "
                   "game", ("R8", "R14"), (_R5 + "/" + _GREEN_CLOSED, "-"),
                   "w:6,5/r:6/y:1/b:1", "-,-", "r12",
                   (_R5 + ",12,lock/" + _GREEN_CLOSED, _E), (28 + 28, 0), "R14"),
    TransitionSpec("r15-mid-turn-end", "player 1 closes a second colour in action 1: the game "
                   "ends in the middle of the turn, before action 2; the active player, who "
                   "marked nothing, takes no penalty", ("R14", "R15", "R11"),
                   ("-", _R5 + "/" + _GREEN_CLOSED), "w:6,6/r:1/y:2/b:3", "-,r12", "-",
                   (_E, _R5 + ",12,lock/" + _GREEN_CLOSED), (0, 56), "R14"),
    TransitionSpec("switch-action2-after-game-end", "action2_after_game_end=true: the game "
                   "ends in action 1, and the active player still marks yellow 8 in action 2",
                   ("R15",), ("-", _R5 + "/" + _GREEN_CLOSED), "w:6,6/r:1/y:2/b:3", "-,r12",
                   "y8", ("y:8", _R5 + ",12,lock/" + _GREEN_CLOSED), (1, 56), "R14",
                   ruleset={"action2_after_game_end": True}),
    TransitionSpec("switch-action2-after-game-end-penalty", "action2_after_game_end=true: the "
                   "turn is completed, so the active player marking nothing takes a penalty",
                   ("R11", "R15"), ("-", _R5 + "/" + _GREEN_CLOSED), "w:6,6/r:1/y:2/b:3",
                   "-,r12", "-", ("p:1", _R5 + ",12,lock/" + _GREEN_CLOSED), (-5, 56), "R14",
                   ruleset={"action2_after_game_end": True}),
    TransitionSpec("switch-end-check-end-of-turn", "end_check=end_of_turn: the game ends after "
                   "action 2", ("R14", "R15"), ("-", _R5 + "/" + _GREEN_CLOSED),
                   "w:6,6/r:1/y:2/b:3", "-,r12", "y8",
                   ("y:8", _R5 + ",12,lock/" + _GREEN_CLOSED), (1, 56), "R14",
                   ruleset={"end_check": "end_of_turn"}),
    TransitionSpec("switch-die-removal-end-of-turn", "die_removal=end_of_turn: player 1 closes "
                   "red in action 1, player 0 still marks red 7 with the red die",
                   ("R9",), ("r:2,3", _R5), "w:6,6/r:1/y:1/g:1/b:1", "-,r12", "r7",
                   ("r:2,3,7", _R5 + ",12,lock"), (6, 28),
                   ruleset={"die_removal": "end_of_turn"}),
    TransitionSpec("switch-end-check-sequential", "end_check=sequential: the active player's "
                   "yellow 12 closes a second colour; the others may not mark after it",
                   ("R14",), (_Y5 + "/" + _GREEN_CLOSED, "-", "-"), "w:6,6/r:1/y:1/b:1",
                   "y12,-,-", "-", (_Y5 + ",12,lock/" + _GREEN_CLOSED, _E, _E), (56, 0, 0),
                   "R14", ruleset={"end_check": "sequential"}),
    TransitionSpec("switch-simultaneous-close-false", "simultaneous_close=false: a single "
                   "closer is fine", ("R10",), (_R5, _R4), _ALL, "r12,-", "-",
                   (_R5 + ",12,lock", _R4), (28, 10), ruleset={"simultaneous_close": False}),
    TransitionSpec("r12-play-passes-left", "after player 2 (of 3) play passes to player 0",
                   ("R12",), ("-", "-", "-"), "w:2,3/r:1/y:1/g:1/b:1", "-,-,r5", "-",
                   (_E, _E, "r:5"), (0, 0, 1), active=2, expect_active=0),
    TransitionSpec("r03-solitaire-next-turn", "one player: the single player rolls again",
                   ("R3", "R12"), ("-",), "w:2,3/r:4/y:1/g:1/b:1", "r5", "r7",
                   ("r:5,7",), (3,), expect_active=0),
    TransitionSpec("r18-shared-win", "the fourth penalty ends the game with equal totals, -10 "
                   "each: both players win", ("R13", "R17", "R18"), ("r:2,3,4,5/p:3", "p:2"),
                   "w:1,1/r:1/y:1/g:1/b:1", "-,-", "-", ("r:2,3,4,5/p:4", "p:2"), (-10, -10),
                   "R13", expect_winners=(0, 1)),
    TransitionSpec("r07-same-row-both-actions", "action 1 red 6, then action 2 red 8 in the "
                   "same row", ("R7",), ("-", "-"), "w:3,3/r:5/y:1/g:1/b:1", "r6,-", "r8",
                   ("r:6,8", _E), (3, 0)),
)


# -- Qwixx Mixx ------------------------------------------------------------------------------------
# Mixx A rows by lock colour: r = row 1 (2..12: yellow 2-4, blue 5-7, green 8-10, red 11-12),
# y = row 2 (2..12: red 2-3, green 4-7, blue 8-9, yellow 10-12), g = row 3 (12..2: blue 12-10,
# yellow 9-7, red 6-4, green 3-2), b = row 4 (12..2: green 12-11, red 10-7, yellow 6-5,
# blue 4-2).  Mixx B red: 10 6 2 8 3 4 12 5 9 7 11 (the last closes the row).

_A, _B = "mixx-a", "mixx-b"
_A_RED_CLOSED = "r:2,3,4,5,6,12,lock"

HAND_MIXX_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("mixx-a-white-sum-any-row", "Mixx A: the white sum 5 may be marked in any row, "
                 "whatever the cell's colour (row 2's 5 is green)", ("R5",), ("-", "-"),
                 "w:2,3/r:1/y:1/g:1/b:1", "action1", "legal", action1="r5,y5", player=1,
                 layout=_A),
    LegalitySpec("mixx-a-action2-in-a-cell-of-the-die", "Mixx A: white 2 + blue 3 marks row "
                 "1's blue 5", ("R6",), ("-", "-"), "w:2,3/r:1/y:1/g:1/b:3", "action2",
                 "legal", action1="-,-", action2="r5", layout=_A),
    LegalitySpec("mixx-a-action2-not-the-cell-colour", "Mixx A: row 2's 5 is green; white + "
                 "green makes 3 or 4, not 5 (white + blue's 5 goes only in a blue cell)",
                 ("R6",), ("-", "-"), "w:2,3/r:1/y:1/g:1/b:3", "action2", "R6",
                 action1="-,-", action2="y5", layout=_A),
    LegalitySpec("mixx-a-action2-blue-in-row-2", "Mixx A: white 3 + blue 6 = 9, a blue cell "
                 "of row 2", ("R6",), ("-", "-"), "w:2,3/r:1/y:1/g:1/b:6", "action2", "legal",
                 action1="-,-", action2="y9", layout=_A),
    LegalitySpec("mixx-a-closing-row-1-removes-the-red-die", "Mixx A: row 1 ends in red 12, "
                 "so closing it takes the red die out of play", ("R9",), (_A_RED_CLOSED, "-"),
                 "w:3,4/r:1/y:2/g:3/b:4", "roll", "R9", layout=_A),
    LegalitySpec("mixx-a-red-cells-still-take-the-white-sum", "Mixx A: with the red die out, "
                 "row 2's red 3 still takes the white sum", ("R5", "R9"), (_A_RED_CLOSED, "-"),
                 "w:1,2/y:1/g:1/b:1", "action1", "legal", action1="-,y3", player=1,
                 layout=_A),
    LegalitySpec("mixx-a-red-cells-no-action-2-without-the-red-die", "Mixx A: with the red "
                 "die out, no action 2 in row 2's red 3", ("R6", "R9"), ("-", _A_RED_CLOSED),
                 "w:1,2/y:1/g:1/b:1", "action2", "R9", action1="-,-", action2="y3",
                 layout=_A),
    LegalitySpec("mixx-b-left-to-right-in-print-order", "Mixx B's red row reads 10 6 2 ...: "
                 "red 6 is left of red 2", ("R2", "R7"), ("r:10,2", "-"),
                 "w:3,3/r:1/y:1/g:1/b:1", "action1", "R7", action1="r6,-", layout=_B),
    LegalitySpec("mixx-b-skip-in-print-order", "Mixx B: red 2 may follow red 10 (skipping 6)",
                 ("R2", "R7"), ("r:10", "-"), "w:1,1/r:1/y:1/g:1/b:1", "action1", "legal",
                 action1="r2,-", layout=_B),
    LegalitySpec("mixx-b-last-number-needs-five", "Mixx B: red 11 closes red and needs 5 red "
                 "marks before it", ("R8",), ("r:10,6,2,8", "-"), "w:5,6/r:1/y:1/g:1/b:1",
                 "action1", "R8", action1="r11,-", layout=_B),
)

HAND_MIXX_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("mixx-a-close-row-1", "Mixx A: white 6+6 closes row 1 (red 12): red is "
                   "closed, 7 marks with the lock score 28", ("R8", "R9", "R16"),
                   ("r:2,3,4,5,6", "-"), "w:6,6/r:1/y:1/g:1/b:1", "r12,-", "-",
                   (_A_RED_CLOSED, "-"), (28, 0), expect_active=1, layout=_A),
    TransitionSpec("mixx-a-action2-in-another-row", "Mixx A: white 2 + blue 3 marks row 1's "
                   "blue 5 in action 2", ("R6", "R11"), ("-", "-"), "w:2,3/r:1/y:1/g:1/b:3",
                   "-,-", "r5", ("r:5", "-"), (1, 0), layout=_A),
    TransitionSpec("mixx-b-two-rows-close", "Mixx B: green 3 (white sum) and blue 4 (white 1 + "
                   "blue 3) close two rows: the game ends", ("R8", "R14", "R16"),
                   ("g:8,2,10,12,6/b:5,7,11,9,12", "-"), "w:1,2/r:1/y:1/g:1/b:3", "g3,-",
                   "b4", ("g:8,2,10,12,6,3,lock/b:5,7,11,9,12,4,lock", "-"), (56, 0), "R14",
                   layout=_B),
)

_DB = "double-b"
_DB_ALT = "double-b-alt"

HAND_DOUBLE_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("db1-four-numbers-lock", "Double B: red 3, 5, 9, 11 are double cells, 8 "
                 "crosses: red 12 may close red with four numbers before it", ("DB1", "DB2"),
                 ("r:3,5,9,11", "-"), _ALL, "action1", "legal", action1="r12,-", layout=_DB),
    LegalitySpec("db1-six-single-cells-no-lock", "Double B: red 2, 4, 6, 7, 8, 10 are single "
                 "cells, 6 crosses (the official sheet would lock): red 12 needs 7",
                 ("DB1", "DB2"), ("r:2,4,6,7,8,10", "-"), _ALL, "action1", "DB2",
                 action1="r12,-", layout=_DB),
    LegalitySpec("db2-lock-at-seven-crosses", "Double B: red 3, 5, 6, 7, 8 hold 2+2+1+1+1 = 7 "
                 "crosses: red 12 is allowed", ("DB2",), ("r:3,5,6,7,8", "-"), _ALL, "action1",
                 "legal", action1="r12,-", layout=_DB),
    LegalitySpec("db2-lock-with-six-crosses", "Double B: red 3, 5, 6, 7 hold 6 crosses: red 12 "
                 "needs 7", ("DB2",), ("r:3,5,6,7", "-"), _ALL, "action1", "DB2",
                 action1="r12,-", layout=_DB),
    LegalitySpec("db2-action2-lock-counts-action-1", "Double B: the action-1 cross on a double "
                 "cell counts for the action-2 lock (red 3, 5, 6, 7 then red 9: 8 crosses)",
                 ("DB1", "DB2"), ("r:3,5,6,7", "-"), "w:6,3/r:6/y:1/g:1/b:1", "action2",
                 "legal", action1="r9,-", action2="r12", layout=_DB),
    LegalitySpec("db2-green-option-default", "Double B (db_desc_cells 10,8,6,4): green 11, 9, 7, "
                 "5, 3 hold 5 crosses, green 2 needs 7", ("DB1", "DB2"), ("g:11,9,7,5,3", "-"),
                 "w:1,1/r:1/y:1/g:1/b:1", "action1", "DB2", action1="g2,-", layout=_DB),
    LegalitySpec("db2-green-option-alternative", "Double B (db_desc_cells 11,9,5,3): the same "
                 "green row holds 9 crosses, green 2 may close it", ("DB1", "DB2"),
                 ("g:11,9,7,5,3", "-"), "w:1,1/r:1/y:1/g:1/b:1", "action1", "legal",
                 action1="g2,-", layout=_DB_ALT),
)

HAND_DOUBLE_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("db3-close-with-doubles", "Double B: red 3, 5, 9, 11 (8 crosses) and red 12 "
                   "with its lock: 10 crosses, 55 points", ("DB1", "DB2", "DB3"),
                   ("r:3,5,9,11", "-"), _ALL, "r12,-", "-", ("r:3,5,9,11,12,lock", "-"),
                   (55, 0), expect_active=1, layout=_DB),
    TransitionSpec("db3-double-cell-two-crosses", "Double B: yellow 3 is a double cell: one "
                   "number, 2 crosses, 3 points",
                   ("DB1", "DB3"), ("-", "-"), "w:1,2/r:1/y:1/g:1/b:1", "y3,-", "-",
                   ("y:3", "-"), (3, 0), layout=_DB),
    TransitionSpec("db4-penalty-unchanged", "Double B: the active player who marks nothing "
                   "takes a penalty box (R11 unchanged, DB4); red 3, 5 still score 10",
                   ("DB4", "R11"), ("r:3,5", "-"), "w:1,2/r:1/y:1/g:1/b:1", "-,-", "-",
                   ("r:3,5/p:1", "-"), (5, 0), layout=_DB),
)

_CS = "connected-steps"

HAND_STEPS_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("cs1-step-cell-is-ordinary", "Connected Steps: red 2 is a step cell, marked "
                 "with the white sum like any cell", ("CS1",), ("-", "-"),
                 "w:1,1/r:1/y:1/g:1/b:1", "action1", "legal", action1="r2,-", layout=_CS),
    LegalitySpec("cs1-skipped-step-is-lost", "Connected Steps: red 5 is marked, so the step "
                 "cell red 2 left of it is lost (R7 unchanged)", ("CS1", "R7"), ("r:5", "-"),
                 "w:1,1/r:1/y:1/g:1/b:1", "action1", "R7", action1="r2,-", layout=_CS),
    LegalitySpec("cs1-steps-count-once-for-the-lock", "Connected Steps: red 2, 3, 4, 5 (two "
                 "of them steps) are 4 marks: red 12 still needs 5 (R8 unchanged)",
                 ("CS1", "R8"), ("r:2,3,4,5", "-"), _ALL, "action1", "R8", action1="r12,-",
                 layout=_CS),
)

HAND_STEPS_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("cs2-step-cells-score-a-fifth-group", "Connected Steps: red 2 then red 5, "
                   "both steps: red T(2) = 3 plus steps T(2) = 3", ("CS2",), ("r:2", "-"),
                   "w:2,3/r:1/y:1/g:1/b:1", "r5,-", "-", ("r:2,5", "-"), (6, 0),
                   expect_active=1, layout=_CS),
    TransitionSpec("cs2-only-step-cells-count", "Connected Steps: red 3 is no step (red 3 + "
                   "steps 1 = 4); the passive player's yellow 3 is one (1 + 1 = 2)",
                   ("CS1", "CS2"), ("r:2", "-"), "w:1,2/r:1/y:1/g:1/b:1", "r3,y3", "-",
                   ("r:2,3", "y:3"), (4, 2), expect_active=1, layout=_CS),
    TransitionSpec("cs2-worked-example-128", "Connected Steps, VARIANTS.md §4.3 example 2: "
                   "blue 6 is the eleventh step: 10 + 10 + 36 + 6 + 66 = 128", ("CS2", "R16"),
                   ("r:2,5,10,11/y:3,4,5,11/g:12,10,8,5,4,3,2,lock/b:9,7", "-"),
                   "w:3,3/r:1/y:1/b:1", "b6,-", "-",
                   ("r:2,5,10,11/y:3,4,5,11/g:12,10,8,5,4,3,2,lock/b:9,7,6", "-"), (128, 0),
                   expect_active=1, layout=_CS),
)

_CC = "connected-chain"
_YELLOW_CLOSED = "y:2,4,5,7,9,10,12,lock"

#: Qwixx Connected, the Chain (VARIANTS.md §5, rules CC1-CC7) on sheet A (pairs R6-Y6,
#: R11-Y11, Y3-G11, Y8-G6, G9-B9, G4-B4).  Every case is legal or breaks a plain rule (R7,
#: R8, R9) that the pad's rule makes bite; a partner cross is never a move of its own, so
#: CC1, CC2, CC3 and CC7 show in the transitions' sheets.  CC4 and CC6 are rules of the
#: sheet data (a layout with a chain cell on a last number, or in two pairs, is refused),
#: never of a move.
HAND_CHAIN_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("cc1-chain-cell-is-a-cell", "Connected Chain: yellow 6 is a chain cell, "
                 "crossed with the white sum like any cell", ("CC1",), ("-", "-"),
                 "w:3,3/r:1/y:1/g:1/b:1", "action1", "legal", action1="y6,-", layout=_CC),
    LegalitySpec("cc1-partner-cell-is-taken", "Connected Chain: red 6 was crossed as the "
                 "partner of yellow 6 (CC1), so it cannot be crossed again", ("CC1", "R7"),
                 ("r:6/y:6", "-"), "w:3,3/r:1/y:1/g:1/b:1", "action1", "R7", action1="r6,-",
                 layout=_CC),
    LegalitySpec("cc2-voluntary-cross-in-a-closed-row", "Connected Chain: yellow is closed; "
                 "only a forced partner cross may enter it (CC2), not a voluntary yellow 8",
                 ("CC2", "R9"), (_YELLOW_CLOSED, "-"), "w:4,4/r:1/g:1/b:1", "action1", "R9",
                 action1="-,y8", player=1, layout=_CC),
    LegalitySpec("cc3-jumped-cell-is-lost", "Connected Chain: red 6 (the partner of yellow 6) "
                 "moved red's frontier past red 5, which is lost (CC3, R7)", ("CC3", "R7"),
                 ("r:2,3,4,6/y:2,3,6/g:11", "-"), "w:2,3/r:1/y:1/g:1/b:1", "action1", "R7",
                 action1="r5,-", layout=_CC),
    LegalitySpec("cc3-right-of-the-jumped-frontier", "Connected Chain: right of red 6 (the "
                 "partner of yellow 6) red 7 may be crossed (CC3)", ("CC3",),
                 ("r:2,3,4,6/y:2,3,6/g:11", "-"), "w:3,4/r:1/y:1/g:1/b:1", "action1",
                 "legal", action1="r7,-", layout=_CC),
    LegalitySpec("cc5-partners-count-for-the-lock", "Connected Chain: red 2, 3, 6, 11 with "
                 "red 6 and 11 partners of yellow 6 and 11, plus red 5: 5 crosses, so red 12 "
                 "may close the row (CC5)", ("CC5", "R8"), ("r:2,3,5,6,11/y:6,11", "-"),
                 _ALL, "action1", "legal", action1="r12,-", layout=_CC),
    LegalitySpec("cc5-four-crosses-with-partners", "Connected Chain: red 3, 6, 11 with the "
                 "partners counted is 3 crosses: red 12 still needs 5 (CC5, R8)",
                 ("CC5", "R8"), ("r:3,6,11/y:6,11", "-"), _ALL, "action1", "R8",
                 action1="r12,-", layout=_CC),
)

HAND_CHAIN_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("cc1-partners-in-action-1", "Connected Chain: yellow 6 forces red 6, red 6 "
                   "forces yellow 6, for the active and the passive player alike (CC1)",
                   ("CC1", "CC7"), ("-", "r:2"), "w:3,3/r:1/y:1/g:1/b:1", "y6,r6", "-",
                   ("r:6/y:6", "r:2,6/y:6"), (2, 4), expect_active=1, layout=_CC),
    TransitionSpec("cc2-partner-left-of-the-frontier", "Connected Chain: yellow 3 forces "
                   "green 11, left of green's frontier 9 (CC2: no R7 for a partner)",
                   ("CC1", "CC2"), ("g:12,10,9/b:9", "-"), "w:1,2/r:1/y:1/g:1/b:1", "y3,-",
                   "-", ("y:3/g:12,11,10,9/b:9", "-"), (1 + 10 + 1, 0), expect_active=1,
                   layout=_CC),
    TransitionSpec("cc2-worked-example-73", "Connected Chain, VARIANTS.md §5.3 example 2: green "
                   "6 forces yellow 8 into the closed yellow row, 9 crosses: 15 + 45 + 10 + 3 "
                   "= 73", ("CC2", "CC5", "R16"),
                   ("r:2,3,4,5,7/" + _YELLOW_CLOSED + "/g:12,10,8/b:12,11", "-"),
                   "w:3,3/r:1/g:1/b:1", "g6,-", "-",
                   ("r:2,3,4,5,7/y:2,4,5,7,8,9,10,12,lock/g:12,10,8,6/b:12,11", "-"), (73, 0),
                   expect_active=1, layout=_CC),
    TransitionSpec("cc3-frontier-jump", "Connected Chain, VARIANTS.md §5.3 example 1: yellow 6 "
                   "forces red 6, red's new frontier (red 5 is lost)", ("CC1", "CC3"),
                   ("r:2,3,4/y:2,3/g:11", "-"), "w:3,3/r:1/y:1/g:1/b:1", "y6,-", "-",
                   ("r:2,3,4,6/y:2,3,6/g:11", "-"), (10 + 6 + 1, 0), expect_active=1,
                   layout=_CC),
    TransitionSpec("cc4-partner-never-locks", "Connected Chain: red 11 forces yellow 11 into a "
                   "yellow row of 5 crosses; yellow stays open, no lock (CC4)", ("CC1", "CC4"),
                   ("y:2,4,5,7,9", "-"), "w:5,6/r:1/y:1/g:1/b:1", "r11,-", "-",
                   ("r:11/y:2,4,5,7,9,11", "-"), (1 + 21, 0), expect_active=1, layout=_CC),
)

_XC = "x-change"
#: White 5 + 6 = 11: the fields (11, 3) (field 2) and (11, 9) (field 7) exchange it.
_W11 = "w:5,6/r:1/y:1/g:1/b:1"
_SPEND: dict[str, object] = {"xc_field_without_cross": True}

#: Qwixx X-Change (VARIANTS.md §9, rules XC1-XC6) on the layout ``x-change``: a sheet's
#: ``x:`` part lists the fields used, a mark ``r3@x2`` crosses red 3 for the white sum
#: through field 2, ``x2`` spends field 2 alone (XC4 Option).
HAND_XC_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("xc1-exchange-the-white-sum", "X-Change: white sum 11, field 2 (11, 3): "
                 "red 3 instead of 11", ("XC1",), ("-", "-"), _W11, "action1", "legal",
                 action1="r3@x2,-", layout=_XC),
    LegalitySpec("xc1-pair-lacks-the-white-sum", "X-Change: field 0 is (8, 5); it cannot "
                 "exchange the white sum 11", ("XC1",), ("-", "-"), _W11, "action1", "XC1",
                 action1="r5@x0,-", layout=_XC),
    LegalitySpec("xc1-only-the-pair-s-other-number", "X-Change: field 2 exchanges 11 for 3, "
                 "not for 4", ("XC1",), ("-", "-"), _W11, "action1", "XC1",
                 action1="r4@x2,-", layout=_XC),
    LegalitySpec("xc2-skip-fields-to-the-right", "X-Change: after field 1, field 7 (11, 9) "
                 "may be used, losing fields 2-6", ("XC2",), ("x:1", "-"), _W11, "action1",
                 "legal", action1="y9@x7,-", layout=_XC),
    LegalitySpec("xc2-no-field-left-of-the-last", "X-Change: after field 7, field 2 is lost",
                 ("XC2",), ("x:7", "-"), _W11, "action1", "XC2", action1="r3@x2,-",
                 layout=_XC),
    LegalitySpec("xc2-each-field-once", "X-Change: field 2 is used already", ("XC2",),
                 ("x:2", "-"), _W11, "action1", "XC2", action1="r3@x2,-", layout=_XC),
    LegalitySpec("xc3-a-passive-player-exchanges", "X-Change: the non-active player exchanges "
                 "for themselves while the active player crosses the plain 11",
                 ("XC1", "XC3"), ("-", "x:0"), _W11, "action1", "legal", action1="r11,g3@x2",
                 player=1, layout=_XC),
    LegalitySpec("xc4-no-field-alone-by-default", "X-Change: a field is crossed only with a "
                 "cross of its exchanged number (xc_field_without_cross=False)", ("XC4",),
                 ("-", "-"), _W11, "action1", "XC4", action1="x2,-", layout=_XC),
    LegalitySpec("xc4-field-alone-under-the-option", "X-Change: under "
                 "xc_field_without_cross a field may be spent alone", ("XC4",), ("-", "-"),
                 _W11, "action1", "legal", action1="x2,-", ruleset=_SPEND, layout=_XC),
    LegalitySpec("xc4-the-exchanged-cross-must-land", "X-Change: red 3 is left of red 4, so "
                 "field 2 cannot land in red (R7)", ("XC4", "R7"), ("r:4", "-"), _W11,
                 "action1", "R7", action1="r3@x2,-", layout=_XC),
    LegalitySpec("xc5-no-exchange-in-action2", "X-Change: exchanges are made in action 1 only "
                 "(xc_in_action2=False)", ("XC5",), ("-", "-"), _W11, "action2", "XC5",
                 action1="-,-", action2="r3@x2", layout=_XC),
    LegalitySpec("xc5-action2-after-an-exchange", "X-Change: after red 3 through field 2, "
                 "white + red 1 = 7 in action 2 as usual", ("XC5", "R6"), ("-", "-"), _W11,
                 "action2", "legal", action1="r3@x2,-", action2="r7", layout=_XC),
)

HAND_XC_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("xc6-an-exchange-spares-the-penalty", "X-Change: the active player "
                   "crosses red 3 through field 2 and passes action 2: no penalty (V6)",
                   ("XC1", "XC6"), ("-", "-"), _W11, "r3@x2,-", "-", ("r:3/x:2", "-"),
                   (1, 0), expect_active=1, layout=_XC),
    TransitionSpec("xc2-the-skipped-fields-are-lost", "X-Change: field 7 after field 1; the "
                   "track's last field is then 7", ("XC2",), ("r:2/x:1", "-"), _W11,
                   "y9@x7,-", "-", ("r:2/y:9/x:1,7", "-"), (2, 0), expect_active=1,
                   layout=_XC),
    TransitionSpec("xc3-each-player-their-own-track", "X-Change: both players exchange 11 "
                   "through different fields; the dice and the other sheet are untouched",
                   ("XC1", "XC3"), ("-", "x:0"), _W11, "r3@x2,b9@x7", "-",
                   ("r:3/x:2", "b:9/x:0,7"), (1, 1), expect_active=1, layout=_XC),
    TransitionSpec("xc4-a-field-spent-alone-spares-the-penalty", "X-Change, "
                   "xc_field_without_cross: field 2 spent alone is the active player's cross; "
                   "no penalty", ("XC4", "XC6"), ("-", "-"), _W11, "x2,-", "-", ("x:2", "-"),
                   (0, 0), expect_active=1, ruleset=_SPEND, layout=_XC),
)

_LG = "longo"
_LUCKY = "longo:5,13"  # VARIANTS.md §8.3 example 1's lucky numbers
_D8 = "d8|w:5,8/r:1/y:2/g:3/b:4"  # white sum 13, a lucky number of _LUCKY
_EXAMPLE_1 = "r:2,4,5,7,9,10/y:6,9/g:16,15/b:16,12,8"
_NO_NEXT = "r:13,14/y:2,3,4/g:16,15,14/b:16,15,14"  # red fewest; its next cell 15 needs 6


def _longo_mark(colour: str, number: int) -> str:
    """Raw JSON action-1 choices: ``colour number`` for player 0, player 1 passing (the text
    notation reads plain numbers to 12 only)."""
    return f'[{{"colour": "{colour}", "number": {number}}}, null]'


HAND_LONGO_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("lg1-eight-sided-dice", "Longo: six 8-sided dice; 8 is a face", ("LG1",),
                 ("-", "-"), "d8|w:8,8/r:8/y:8/g:8/b:8", "roll", "legal", layout=_LG),
    LegalitySpec("lg1-die-9", "Longo: a die of 8 sides shows 1 to 8; 9 is no face", ("LG1",),
                 ("-", "-"), '{"white": [9, 1], "red": 1, "yellow": 1, "green": 1, "blue": 1, '
                 '"faces": 8}', "roll", "LG1", layout=_LG),
    LegalitySpec("lg1-white-sum-16", "Longo: white 8 and 8 make 16, the first green cell",
                 ("LG1",), ("-", "-"), "d8|w:8,8/r:1/y:1/g:1/b:1", "action1", "legal",
                 action1=_longo_mark("green", 16), layout=_LG),
    LegalitySpec("lg2-lock-number-needs-6", "Longo, VARIANTS.md §8.3 example 2: yellow 3, 5, "
                 "8, 11, 13 are 5 crosses; the lock number 15 needs 6", ("LG2",),
                 ("y:3,5,8,11,13", "-"), "d8|w:7,8/r:1/y:1/g:1/b:1", "action1", "LG2",
                 action1=_longo_mark("yellow", 15), layout=_LG),
    LegalitySpec("lg2-lock-number-with-6", "Longo: yellow 3, 5, 8, 11, 13, 14 are 6 crosses; "
                 "the lock number 15 may close yellow", ("LG2",), ("y:3,5,8,11,13,14", "-"),
                 "d8|w:7,8/r:1/y:1/g:1/b:1", "action1", "legal",
                 action1=_longo_mark("yellow", 15), layout=_LG),
    LegalitySpec("lg3-lucky-cross-fewest-row", "Longo, VARIANTS.md §8.3 example 1: white sum "
                 "13 is lucky: instead of a 13, the next yellow cell 10 (yellow and green tie "
                 "at 2 crosses)", ("LG3", "LG4"), (_EXAMPLE_1, "-"), _D8, "action1", "legal",
                 action1="*y10,-", layout=_LUCKY),
    LegalitySpec("lg3-lucky-cross-not-fewest", "Longo: blue has 3 crosses, not the fewest (2): "
                 "no lucky cross in blue", ("LG3",), (_EXAMPLE_1, "-"), _D8, "action1", "LG3",
                 action1="*b7,-", layout=_LUCKY),
    LegalitySpec("lg3-lucky-cross-skips", "Longo: the lucky cross takes the next cell of its "
                 "row (yellow 10), never a later one", ("LG3",), (_EXAMPLE_1, "-"), _D8,
                 "action1", "LG3", action1="*y11,-", layout=_LUCKY),
    LegalitySpec("lg3-not-a-lucky-sum", "Longo: white sum 12 is not lucky (5, 13): no lucky "
                 "cross", ("LG3",), (_EXAMPLE_1, "-"), "d8|w:4,8/r:1/y:2/g:3/b:4", "action1",
                 "LG3", action1="*y10,-", layout=_LUCKY),
    LegalitySpec("lg3-passive-player-lucky", "Longo: any player may take the lucky cross (as "
                 "R5): the passive player's empty sheet ties all four rows", ("LG3", "R5"),
                 (_EXAMPLE_1, "-"), _D8, "action1", "legal", action1="-,*g16", player=1,
                 layout=_LUCKY),
    LegalitySpec("lg4-instead-no-second-cross", "Longo (lg_lucky_mode instead): the lucky "
                 "cross replaces the white-sum cross; red 13 and then yellow 10 is refused",
                 ("LG4",), (_EXAMPLE_1, "-"), _D8, "action1", "LG4", action1="r13+*y10,-",
                 layout=_LUCKY),
    LegalitySpec("lg4-additional-second-cross", "Longo (lg_lucky_mode additional): yellow 13, "
                 "then the lucky cross green 14 (green alone has the fewest after it)",
                 ("LG4", "LG3"), (_EXAMPLE_1, "-"), _D8, "action1", "legal",
                 action1="y13+*g14,-", ruleset={"lg_lucky_mode": "additional"}, layout=_LUCKY),
    LegalitySpec("lg4-additional-fewest-after-first", "Longo (additional): after yellow 13 "
                 "yellow has 3 crosses, so the fewest is green alone: yellow 14 is refused",
                 ("LG4", "LG3"), (_EXAMPLE_1, "-"), _D8, "action1", "LG3",
                 action1="y13+*y14,-", ruleset={"lg_lucky_mode": "additional"}, layout=_LUCKY),
    LegalitySpec("lg5-fewest-without-next-cell", "Longo (lg_lucky_candidates open_rows): red "
                 "(13, 14) has the fewest crosses but its next cell 15 needs 6: no lucky cross",
                 ("LG5",), (_NO_NEXT, "-"), "d8|w:1,4/r:1/y:1/g:1/b:1", "action1", "LG5",
                 action1="*y5,-", layout=_LUCKY),
    LegalitySpec("lg5-open-with-next-cell", "Longo (lg_lucky_candidates open_with_next_cell): "
                 "the fewest among the rows with a next cell: yellow 5", ("LG5",),
                 (_NO_NEXT, "-"), "d8|w:1,4/r:1/y:1/g:1/b:1", "action1", "legal",
                 action1="*y5,-", ruleset={"lg_lucky_candidates": "open_with_next_cell"},
                 layout=_LUCKY),
)

HAND_LONGO_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("lg3-worked-example-1-turn", "Longo, VARIANTS.md §8.3 example 1: the lucky "
                   "cross green 14 instead of a 13; a voluntary cross, so no penalty",
                   ("LG3", "LG4", "R11"), (_EXAMPLE_1,), _D8, "*g14", "-",
                   ("r:2,4,5,7,9,10/y:6,9/g:16,15,14/b:16,12,8",), (36,), layout=_LUCKY),
    TransitionSpec("lg4-additional-two-crosses", "Longo (additional): yellow 13 and the lucky "
                   "green 14 in one action 1", ("LG4",), (_EXAMPLE_1, "-"), _D8,
                   "y13+*g14,-", "-", ("r:2,4,5,7,9,10/y:6,9,13/g:16,15,14/b:16,12,8", "-"),
                   (39, 0), ruleset={"lg_lucky_mode": "additional"}, expect_active=1,
                   layout=_LUCKY),
    TransitionSpec("lg2-lock-number-closes", "Longo: yellow 15, a lock number, closes yellow "
                   "with its lock: 8 crosses, 36 points", ("LG2", "LG6"),
                   ("y:3,5,8,11,13,14", "-"), "d8|w:7,8/r:1/y:1/g:1/b:1",
                   _longo_mark("yellow", 15), "-", ("y:3,5,8,11,13,14,15,lock", "-"), (36, 0),
                   expect_active=1, layout=_LG),
    TransitionSpec("lg6-fifteen-crosses-120", "Longo, VARIANTS.md §8.3 example 1: green 16 to "
                   "4 and the lock number 3 with the lock: 15 crosses, T(15) = 120",
                   ("LG2", "LG6"), ("g:16,15,14,13,12,11,10,9,8,7,6,5,4",),
                   "d8|w:1,2/r:1/y:1/g:1/b:1", "g3", "-",
                   ("g:16,15,14,13,12,11,10,9,8,7,6,5,4,3,lock",), (120,), layout=_LG),
)

_DA = "double-a"

HAND_DOUBLE_A_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("da1-second-cross-any-player", "Double A: white sum 6 doubles blue 6 (the "
                 "active player's latest) and red 6 (player 1's latest, a non-active player)",
                 ("DA1", "DA2"), ("b:12,10,9,8,6", "r:2,6"), "w:3,3/r:1/y:1/g:1/b:1",
                 "action1", "legal", action1="b6+,r6+", player=1, layout=_DA),
    LegalitySpec("da1-second-cross-needs-a-cross", "Double A: red 6 is not crossed, so it has "
                 "no second cross to take", ("DA1",), ("r:2,3", "-"), "w:3,3/r:1/y:1/g:1/b:1",
                 "action1", "DA1", action1="r6+,-", layout=_DA),
    LegalitySpec("da1-one-second-cross-per-box", "Double A: blue 6 already holds its second "
                 "cross", ("DA1",), ("b:12,10,9,8,6+", "-"), "w:3,3/r:1/y:1/g:1/b:1",
                 "action1", "DA1", action1="b6+,-", layout=_DA),
    LegalitySpec("da3-only-the-latest-number", "Double A (da_scope latest): blue 9 is not the "
                 "rightmost crossed blue number (blue 6 is), so it cannot be doubled",
                 ("DA2", "DA3"), ("b:12,10,9,8,6", "-"), "w:4,5/r:1/y:1/g:1/b:1", "action1",
                 "DA3", action1="b9+,-", layout=_DA),
    LegalitySpec("da1-action2-white-and-row-die", "Double A: white 3 + red 4 = 7 doubles red 7, "
                 "the latest red number, in action 2", ("DA1",), ("r:2,3,7", "-"),
                 "w:3,1/r:4/y:1/g:1/b:1", "action2", "legal", action1="-,-", action2="r7+",
                 layout=_DA),
    LegalitySpec("da1-action2-other-die", "Double A: white + red makes 4 or 2, not 7 (white + "
                 "yellow does, but a second cross in red needs the red die)", ("DA1", "R6"),
                 ("r:2,3,7", "-"), "w:3,1/r:1/y:4/g:1/b:1", "action2", "R6", action1="-,-",
                 action2="r7+", layout=_DA),
    LegalitySpec("da4-same-turn-default", "Double A (da_same_turn true): blue 6 crossed in "
                 "action 1 is doubled in action 2 by white 3 + blue 3", ("DA4",),
                 ("b:12,10,9,8", "-"), "w:3,3/r:1/y:1/g:1/b:3", "action2", "legal",
                 action1="b6,-", action2="b6+", layout=_DA),
    LegalitySpec("da4-same-turn-false", "Double A (da_same_turn false): blue 6 crossed in "
                 "action 1 cannot be doubled in the same turn", ("DA4",),
                 ("b:12,10,9,8", "-"), "w:3,3/r:1/y:1/g:1/b:3", "action2", "DA4",
                 action1="b6,-", action2="b6+", ruleset={"da_same_turn": False}, layout=_DA),
    LegalitySpec("da5-lock-counts-second-crosses", "Double A: blue 12, 10, 9, 8, 6, 6+, 5 hold "
                 "7 crosses: blue 2 may close blue", ("DA5",), ("b:12,10,9,8,6+,5", "-"),
                 "w:1,1/r:1/y:1/g:1/b:1", "action1", "legal", action1="b2,-", layout=_DA),
    LegalitySpec("da5-lock-with-six-crosses", "Double A: blue 12, 10, 9, 8, 6, 6+ hold 6 "
                 "crosses: blue 2 needs 7", ("DA5",), ("b:12,10,9,8,6+", "-"),
                 "w:1,1/r:1/y:1/g:1/b:1", "action1", "DA5", action1="b2,-", layout=_DA),
    LegalitySpec("da5-five-numbers-no-lock", "Double A: five blue numbers (the official sheet "
                 "would lock) are 5 crosses: blue 2 needs 7", ("DA5",), ("b:12,10,9,8,6", "-"),
                 "w:1,1/r:1/y:1/g:1/b:1", "action1", "DA5", action1="b2,-", layout=_DA),
)

HAND_DOUBLE_A_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("da6-second-cross-is-a-cross", "Double A: the active player's only cross is "
                   "the second cross under blue 6: no penalty (DA6); 6 crosses, 21 points",
                   ("DA1", "DA6", "DA7"), ("b:12,10,9,8,6", "-"), "w:3,3/r:1/y:1/g:1/b:1",
                   "b6+,-", "-", ("b:12,10,9,8,6+", "-"), (21, 0), expect_active=1,
                   layout=_DA),
    TransitionSpec("da7-score-capped-at-16", "Double A: green 12 to 3 all doubled are 20 "
                   "crosses, scored T(16) = 136", ("DA1", "DA7"),
                   ("g:12+,11+,10+,9+,8+,7+,6+,5+,4+,3", "-"), "w:1,2/r:1/y:1/g:1/b:1",
                   "g3+,-", "-", ("g:12+,11+,10+,9+,8+,7+,6+,5+,4+,3+", "-"), (136, 0),
                   expect_active=1, layout=_DA),
)


_BA = "bonus-a"
#: Bonus A, VARIANTS.md §2.3 example 1 after its four-link chain (red 6 -> yellow 5 ->
#: green 11 -> blue 12): bar fields 0-3 taken.
_BA_CHAIN = "r:3,4,6/y:2,3,4,5/g:12,11/b:12/bar:xxxx--------"
#: Red closed by a forced cross (BA4): every sheet's untaken red fields 0, 5, 8 are void (BA6).
_BA_RED_SHUT = "r:2,4,5,7,8,10,11,12,lock/y:2,3,4,5/bar:x----v--v---"
#: Nine bar fields taken, blue's three void (blue closed): the bar is used up (BA5).  A game
#: reaches it: B10 -> field 0, R2; R3 -> 1, Y2; G11 -> 2, G10; blue closed by player 1;
#: R6 -> 4, G9; Y5 -> 5, R7; Y8 -> 7, Y9; G7 -> 8, R8; G4 -> 9, Y10; Y11 -> 11, G3 (each
#: forced cross on its row's next cell, BA2).
_BA_FULL = ("r:2,3,6,7,8/y:2,5,8,9,10,11/g:12,11,10,9,7,4,3/b:12,10/"
            "bar:xxxvxxvxxxvx")
_BA_BLUE_SHUT = "b:12,11,9,7,6,4,3,2,lock/bar:---v--v---v-"

#: Qwixx Bonus, pad A (VARIANTS.md §2, rules BA1-BA8; boxed red 3, 6, 9, yellow 5, 8, 11,
#: green 11, 7, 4, blue 10, 8, 5; bar R Y G B G R B Y R Y B G).  A forced cross is never a
#: move of its own, so a legality case is legal or breaks a plain rule (R7, R9) that a forced
#: cross made bite; the forced crosses and the bar show in the transitions' sheets.
HAND_BONUS_A_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("ba1-boxed-cell-is-a-cell", "Bonus A: red 3 is a boxed cell, crossed with the "
                 "white sum like any cell", ("BA1",), ("-", "-"), "w:1,2/r:1/y:1/g:1/b:1",
                 "action1", "legal", action1="r3,-", layout=_BA),
    LegalitySpec("ba1-forced-cell-is-taken", "Bonus A: red 3 took bar field 0 (red), whose "
                 "forced cross is red 4: red 4 cannot be crossed again", ("BA1", "R7"),
                 ("r:3,4/bar:x-----------", "-"), "w:2,2/r:1/y:1/g:1/b:1", "action1", "R7",
                 action1="r4,-", layout=_BA),
    LegalitySpec("ba2-right-of-the-forced-cross", "Bonus A: the forced yellow 5 went on "
                 "yellow's next cell; yellow 6 right of it may be crossed", ("BA2",),
                 (_BA_CHAIN, "-"), "w:3,3/r:1/y:1/g:1/b:1", "action1", "legal",
                 action1="y6,-", layout=_BA),
    LegalitySpec("ba2-forced-cross-is-on-the-sheet", "Bonus A: yellow 5 was crossed by force "
                 "(BA2), so a voluntary yellow 5 breaks R7", ("BA2", "R7"), (_BA_CHAIN, "-"),
                 "w:2,3/r:1/y:1/g:1/b:1", "action1", "R7", action1="y5,-", layout=_BA),
    LegalitySpec("ba3-right-of-the-chain", "Bonus A: green 11 came second in the chain (BA3); "
                 "green 10 right of it may be crossed", ("BA3",), (_BA_CHAIN, "-"),
                 "w:4,6/r:1/y:1/g:1/b:1", "action1", "legal", action1="g10,-", layout=_BA),
    LegalitySpec("ba3-chain-cross-is-on-the-sheet", "Bonus A: green 11, forced by the chain's "
                 "second link (BA3), cannot be crossed again", ("BA3", "R7"), (_BA_CHAIN, "-"),
                 "w:5,6/r:1/y:1/g:1/b:1", "action1", "R7", action1="g11,-", layout=_BA),
    LegalitySpec("ba4-another-row-after-a-forced-close", "Bonus A: red was closed by a forced "
                 "cross (BA4); player 1 crosses yellow 3", ("BA4", "BA6"),
                 (_BA_RED_SHUT, "y:2/bar:v----v--v---"), "w:1,2/y:1/g:1/b:1", "action1",
                 "legal", action1="-,y3", player=1, layout=_BA),
    LegalitySpec("ba4-forced-close-closes-the-row", "Bonus A: red was closed by a forced cross "
                 "(BA4), for every player", ("BA4", "R9"),
                 (_BA_RED_SHUT, "y:2/bar:v----v--v---"), "w:1,2/y:1/g:1/b:1", "action1", "R9",
                 action1="-,r3", player=1, layout=_BA),
    LegalitySpec("ba5-boxed-cell-on-a-full-bar", "Bonus A: no bar field is left; red 9 (boxed) "
                 "is still an ordinary cross", ("BA5",), (_BA_FULL, _BA_BLUE_SHUT),
                 "w:4,5/r:1/y:1/g:1", "action1", "legal", action1="r9,-", layout=_BA),
)

HAND_BONUS_A_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("ba3-four-link-chain", "Bonus A, VARIANTS.md §2.3 example 1: red 6 -> field "
                   "1 yellow 5 -> field 2 green 11 -> field 3 blue 12; the bar scores nothing",
                   ("BA1", "BA2", "BA3", "BA8"), ("r:3,4/y:2,3,4/g:12/bar:x-----------", "-"),
                   "w:3,3/r:1/y:1/g:1/b:1", "r6,-", "-", (_BA_CHAIN, "-"), (6 + 10 + 3 + 1, 0),
                   expect_active=1, layout=_BA),
    TransitionSpec("ba2-forced-cross-lapses", "Bonus A: yellow 5 takes field 0 (red), but red "
                   "12 needs 5 crosses: the field is used, the cross lapses (BA2)",
                   ("BA1", "BA2"), ("r:2,4,11", "-"), "w:2,3/r:1/y:1/g:1/b:1", "y5,-", "-",
                   ("r:2,4,11/y:5/bar:x-----------", "-"), (6 + 1, 0), expect_active=1,
                   layout=_BA),
    TransitionSpec("ba4-forced-cross-closes", "Bonus A: yellow 5 forces red 12, which closes "
                   "red (BA4); when action 1 ends every sheet's untaken red fields are void "
                   "(BA6)", ("BA1", "BA4", "BA6"), ("r:2,4,5,7,8,10,11/y:2,3,4", "-"),
                   "w:2,3/r:1/y:1/g:1/b:1", "y5,-", "-", (_BA_RED_SHUT, "bar:v----v--v---"),
                   (45 + 10, 0), expect_active=1, layout=_BA),
    TransitionSpec("ba5-full-bar-gives-nothing", "Bonus A: red 9 is boxed but no bar field is "
                   "left (BA5): no forced cross", ("BA5", "BA6"), (_BA_FULL, _BA_BLUE_SHUT),
                   "w:4,5/r:1/y:1/g:1", "r9,-", "-",
                   ("r:2,3,6,7,8,9/y:2,5,8,9,10,11/g:12,11,10,9,7,4,3/b:12,10/"
                    "bar:xxxvxxvxxxvx", _BA_BLUE_SHUT),
                   (21 + 21 + 28 + 3, 45), expect_active=1, layout=_BA),
)


_BB = "bonus-b"
#: Bonus B, VARIANTS.md §3.3 example 1 after the circle (G9 with Y11 crossed): blue had the
#: fewest crosses, forced blue 11 and 10; blue 10 completed the square (R8, B10).
_BB_CIRCLE = "r:2,4,8/y:3,5,11/g:12,9/b:12,11,10"
#: Bonus B, §3.3 example 2 after the diamond (B7 with Y7 crossed; green closed by player 1):
#: forced red 6, yellow 8, blue 6.
_BB_DIAMOND = "r:2,3,4,5,6/y:2,7,8/g:12,10/b:12,11,9,7,6"
_BB_GREEN_SHUT = "g:12,11,10,9,8,2,lock"
#: Red closed by the diamond's forced red 12 (BB3, BB7).
_BB_RED_SHUT = "r:2,3,4,5,6,7,8,9,10,11,12,lock/y:2,7,8/b:12,7,6"

#: Qwixx Bonus, pad B (VARIANTS.md §3, rules BB1-BB9; circle Y11 G9, diamond Y7 B7, square
#: R8 B10, octagon R6 B4, star Y3 G5).  A forced cross is never a move of its own, so a
#: legality case is legal or breaks a plain rule (R7, R9) that a forced cross made bite; the
#: forced crosses and the symbols' rewards show in the transitions' sheets and scores.
HAND_BONUS_B_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("bb1-symbol-cell-is-a-cell", "Bonus B: green 9 (circle) is crossed with the "
                 "white sum like any cell", ("BB1",), ("y:11", "-"), "w:4,5/r:1/y:1/g:1/b:1",
                 "action1", "legal", action1="g9,-", layout=_BB),
    LegalitySpec("bb1-symbol-cell-once", "Bonus B: yellow 11 is a symbol cell crossed "
                 "already; it cannot be crossed again", ("BB1", "R7"), ("y:11", "-"),
                 "w:5,6/r:1/y:1/g:1/b:1", "action1", "R7", action1="y11,-", layout=_BB),
    LegalitySpec("bb2-right-of-the-circle-crosses", "Bonus B: the circle forced blue 11 and "
                 "10 (BB2); blue 9 right of them may be crossed", ("BB2",), (_BB_CIRCLE, "-"),
                 "w:4,5/r:1/y:1/g:1/b:1", "action1", "legal", action1="b9,-", layout=_BB),
    LegalitySpec("bb2-circle-cross-is-on-the-sheet", "Bonus B: blue 11 was crossed by the "
                 "circle (BB2), so a voluntary blue 11 breaks R7", ("BB2", "R7"),
                 (_BB_CIRCLE, "-"), "w:5,6/r:1/y:1/g:1/b:1", "action1", "R7",
                 action1="b11,-", layout=_BB),
    LegalitySpec("bb3-right-of-the-diamond-crosses", "Bonus B: the diamond forced yellow 8 "
                 "(BB3); yellow 9 right of it may be crossed", ("BB3",),
                 (_BB_DIAMOND, _BB_GREEN_SHUT), "w:4,5/r:1/y:1/b:1", "action1", "legal",
                 action1="y9,-", layout=_BB),
    LegalitySpec("bb3-diamond-cross-is-on-the-sheet", "Bonus B: yellow 8 was crossed by the "
                 "diamond (BB3), so a voluntary yellow 8 breaks R7", ("BB3", "R7"),
                 (_BB_DIAMOND, _BB_GREEN_SHUT), "w:4,4/r:1/y:1/b:1", "action1", "R7",
                 action1="y8,-", layout=_BB),
    LegalitySpec("bb7-another-row-after-a-forced-close", "Bonus B: red was closed by a forced "
                 "cross (BB7); player 1 crosses yellow 3", ("BB7",), (_BB_RED_SHUT, "y:2"),
                 "w:1,2/y:1/g:1/b:1", "action1", "legal", action1="-,y3", player=1,
                 layout=_BB),
    LegalitySpec("bb7-forced-close-closes-the-row", "Bonus B: red was closed by a forced cross "
                 "(BB7), for every player", ("BB7", "R9"), (_BB_RED_SHUT, "y:2"),
                 "w:1,2/y:1/g:1/b:1", "action1", "R9", action1="-,r3", player=1, layout=_BB),
)

HAND_BONUS_B_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("bb2-circle-and-square", "Bonus B, VARIANTS.md §3.3 example 1: green 9 "
                   "activates the circle; blue has the fewest crosses: forced blue 11, 10; "
                   "blue 10 completes the square (BB7), which doubles the lowest row (green 3)",
                   ("BB1", "BB2", "BB4", "BB7", "BB8"), ("r:2,4,8/y:3,5,11/g:12/b:12", "-"),
                   "w:4,5/r:1/y:1/g:1/b:1", "g9,-", "-", (_BB_CIRCLE, "-"),
                   (6 + 6 + 3 + 6 + 3, 0), expect_active=1, layout=_BB),
    TransitionSpec("bb2-circle-tie-first-in-colour-order", "Bonus B: after green 9 red and "
                   "blue tie with two crosses and a next cell (yellow has one but no next "
                   "cell): the circle's crosses go to red, the first in colour order",
                   ("BB2",), ("r:2,3/y:11/g:12,11/b:12,11", "-"), "w:4,5/r:1/y:1/g:1/b:1",
                   "g9,-", "-", ("r:2,3,4,5/y:11/g:12,11,9/b:12,11", "-"),
                   (10 + 1 + 6 + 3, 0), expect_active=1, layout=_BB),
    TransitionSpec("bb2-circle-open-rows-lapses", "Bonus B, bb_fewest_candidates=open_rows: "
                   "yellow has the fewest crosses but no next cell: both crosses lapse",
                   ("BB2",), ("r:2,3/y:11/g:12,11/b:12,11", "-"), "w:4,5/r:1/y:1/g:1/b:1",
                   "g9,-", "-", ("r:2,3/y:11/g:12,11,9/b:12,11", "-"), (3 + 1 + 6 + 3, 0),
                   ruleset={"bb_fewest_candidates": "open_rows"}, expect_active=1,
                   layout=_BB),
    TransitionSpec("bb3-diamond", "Bonus B, VARIANTS.md §3.3 example 2: blue 7 in action 2 "
                   "activates the diamond: forced red 6, yellow 8, green skipped (closed), "
                   "blue 6", ("BB1", "BB3"), ("r:2,3,4,5/y:2,7/g:12,10/b:12,11,9",
                                               _BB_GREEN_SHUT),
                   "w:3,4/r:1/y:1/b:4", "-,-", "b7", (_BB_DIAMOND, _BB_GREEN_SHUT),
                   (15 + 6 + 3 + 15, 28), expect_active=1, layout=_BB),
    TransitionSpec("bb9-nesting-closes-a-second-row", "Bonus B: the diamond's forced red 12 "
                   "closes red (BB7); with green closed the game ends (R14), checked after "
                   "the whole nesting (yellow 8, blue 6 still crossed, BB9)",
                   ("BB3", "BB7", "BB9"), ("r:2,3,4,5,6,7,8,9,10,11/y:2,7/b:12",
                                           _BB_GREEN_SHUT),
                   "w:1,2/r:1/y:1/b:6", "-,-", "b7", (_BB_RED_SHUT, _BB_GREEN_SHUT),
                   (78 + 6 + 6, 28), expect_ended_by="R14", layout=_BB),
    TransitionSpec("bb4-square-doubles-the-lowest-row", "Bonus B: blue 10 completes the "
                   "square: the lowest row (green or blue, 1 point) counts twice",
                   ("BB4", "BB8"), ("r:8,9/y:2,4,5/g:12", "-"), "w:4,6/r:1/y:1/g:1/b:1",
                   "b10,-", "-", ("r:8,9/y:2,4,5/g:12/b:10", "-"), (3 + 6 + 1 + 1 + 1, 0),
                   expect_active=1, layout=_BB),
    TransitionSpec("bb5-octagon-13-points", "Bonus B: blue 4 completes the octagon: +13",
                   ("BB5", "BB8"), ("r:6/b:12", "-"), "w:2,2/r:1/y:1/g:1/b:1", "b4,-", "-",
                   ("r:6/b:12,4", "-"), (1 + 3 + 13, 0), expect_active=1, layout=_BB),
    TransitionSpec("bb6-star-penalties-score-0", "Bonus B: green 5 completes the star: the "
                   "two penalty boxes score 0", ("BB6", "BB8"), ("y:3/p:2", "-"),
                   "w:2,3/r:1/y:1/g:1/b:1", "g5,-", "-", ("y:3/g:5/p:2", "-"), (1 + 1, 0),
                   expect_active=1, layout=_BB),
)

_BP = "big-points"
#: VARIANTS.md §1.3 example 3: Sarah holds red 2, 5, yellow 3 and RY3 (eligible via Y3).
_BP_SARAH = "r:2,5/y:3/ry:3"
#: Red closed (five crosses, then red 12); RY4 is eligible through red 4 (BP6).
_BP_RED_SHUT = "r:2,3,4,5,6,12,lock"

#: Qwixx Big Points (VARIANTS.md §1, rules BP1-BP9; bonus rows RY 2..12 between red and
#: yellow, GB 12..2 between green and blue).  A bonus cross is ``ry5`` / ``gb8``.
HAND_BIG_POINTS_LEGALITY: tuple[LegalitySpec, ...] = (
    LegalitySpec("bp2-white-sum-bonus-cell", "Big Points, VARIANTS.md §1.3 example 3: white "
                 "sum 5 crosses RY5 (eligible via red 5) instead of a colour cell",
                 ("BP1", "BP2"), (_BP_SARAH, "-"), "w:2,3/r:3/y:3/g:1/b:1", "action1",
                 "legal", action1="ry5,-", layout=_BP),
    LegalitySpec("bp2-any-player", "Big Points: the other player crosses GB11 with the white "
                 "sum (eligible via green 11)", ("BP1", "BP2"), ("-", "g:12,11/gb:12"),
                 "w:5,6/r:1/y:1/g:1/b:1", "action1", "legal", action1="-,gb11", player=1,
                 layout=_BP),
    LegalitySpec("bp1-needs-an-adjacent-cross", "Big Points: neither red 3 nor yellow 3 is "
                 "crossed, so RY3 is not eligible", ("BP1",), ("r:2", "-"),
                 "w:1,2/r:1/y:1/g:1/b:1", "action1", "BP1", action1="ry3,-", layout=_BP),
    LegalitySpec("bp2-not-the-white-sum", "Big Points: white sum 2 cannot cross RY5",
                 ("BP2",), (_BP_SARAH, "-"), "w:1,1/r:1/y:1/g:1/b:1", "action1", "BP2",
                 action1="ry5,-", layout=_BP),
    LegalitySpec("bp4-skipped-bonus-cell-is-lost", "Big Points: RY6 is crossed, so RY5 left "
                 "of it is lost", ("BP4",), ("r:2,5,6/y:3/ry:3,6", "-"),
                 "w:2,3/r:1/y:1/g:1/b:1", "action1", "BP4", action1="ry5,-", layout=_BP),
    LegalitySpec("bp3-same-colour-die", "Big Points: white 2 + red 3 = 5 crosses RY5 in "
                 "action 2, red 5 being crossed (bp_colour_trigger same_colour)", ("BP3",),
                 (_BP_SARAH, "-"), "w:2,6/r:3/y:6/g:1/b:1", "action2", "legal",
                 action1="-,-", action2="ry5", layout=_BP),
    LegalitySpec("bp3-other-colour-die", "Big Points: white 2 + yellow 3 = 5, but yellow 5 is "
                 "not crossed (bp_colour_trigger same_colour)", ("BP3",), (_BP_SARAH, "-"),
                 "w:2,6/r:6/y:3/g:1/b:1", "action2", "BP3", action1="-,-", action2="ry5",
                 layout=_BP),
    LegalitySpec("bp3-either-adjacent", "Big Points (bp_colour_trigger either_adjacent): "
                 "white 2 + yellow 3 = 5 crosses RY5, red 5 being crossed", ("BP3",),
                 (_BP_SARAH, "-"), "w:2,6/r:6/y:3/g:1/b:1", "action2", "legal",
                 action1="-,-", action2="ry5", ruleset={"bp_colour_trigger": "either_adjacent"},
                 layout=_BP),
    LegalitySpec("bp6-closed-row-keeps-its-bonus-row", "Big Points: red is closed, RY4 (via "
                 "red 4) is still crossed with the white sum", ("BP6",), (_BP_RED_SHUT, "-"),
                 "w:2,2/y:1/g:1/b:1", "action1", "legal", action1="ry4,-", layout=_BP),
    LegalitySpec("bp6-closed-die-is-out", "Big Points: red is closed, so only white + yellow "
                 "can make RY4 in action 2, and yellow 4 is not crossed", ("BP6", "BP3"),
                 (_BP_RED_SHUT, "-"), "w:1,5/y:3/g:1/b:1", "action2", "BP3", action1="-,-",
                 action2="ry4", layout=_BP),
    LegalitySpec("bp5-bonus-crosses-not-for-the-lock", "Big Points: red 2, 3, 4, 5 and RY "
                 "2, 3, 4, 5: four colour crosses, red 12 needs five", ("BP5", "R8"),
                 ("r:2,3,4,5/ry:2,3,4,5", "-"), "w:6,6/r:1/y:1/g:1/b:1", "action1", "R8",
                 action1="r12,-", layout=_BP),
)

HAND_BIG_POINTS_TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec("bp7-bonus-cross-no-penalty", "Big Points: the active player's only cross "
                   "is RY5 in action 2: no penalty (BP7); red 2+2 and yellow 1+2 crosses "
                   "score 10 + 6 (BP9)", ("BP3", "BP7", "BP9"), (_BP_SARAH, "-"),
                   "w:2,6/r:3/y:6/g:1/b:1", "-,-", "ry5", ("r:2,5/y:3/ry:3,5", "-"), (16, 0),
                   expect_active=1, layout=_BP),
    TransitionSpec("bp9-score-capped-at-15", "Big Points: red 2 to 12 and its lock (12) plus "
                   "RY 2 to 6 (5) are 17 crosses, scored T(15) = 120; yellow scores its 5 bonus "
                   "crosses, T(5) = 15", ("BP5", "BP8", "BP9"),
                   ("r:2,3,4,5,6,7,8,9,10,11/ry:2,3,4,5,6", "-"), "w:6,6/r:1/y:1/g:1/b:1",
                   "r12,-", "-", ("r:2,3,4,5,6,7,8,9,10,11,12,lock/ry:2,3,4,5,6", "-"),
                   (135, 0), expect_active=1, layout=_BP),
)
