"""The lenient replay behind the validator: every violation of a record, not just the first.

:func:`qwixx_math.record.replay` stops at the first broken rule.  The validator
must report them all, so it replays the record *leniently*:

* every legality judgement is the reference core's (``GameState.with_roll``,
  ``with_action1``, ``with_action2``, ``legal_action1``, ``legal_action2`` and the
  ``rule``/``player`` of :class:`~qwixx_math.errors.IllegalMoveError`); nothing
  here re-implements a rule of play;
* after an illegal choice the replay continues from the state **the other
  program evidently had**: its illegal mark is applied (the cross is set, a last
  number closes the row, the active player who marked something takes no
  penalty), a turn taken by the wrong player is that player's turn, a die rolled
  for a closed colour is ignored, claimed penalty boxes are adopted.  One bug then
  gives one violation instead of a cascade (a lock with four marks would
  otherwise make every later roll without that die an R4 violation).  Such states
  are built with ``Sheet.unchecked``/``GameState.make`` and never leave this
  package; they may break R8, which the core's constructors would refuse;
* each player's action-1 choice is judged against the *legal* choices of the
  others (an illegal close does not close the colour for the other players'
  judgement, but does in the state that follows);
* turns after the end of the game are reported once and not replayed;
* with a ``limit``, violations past the first ``limit`` are only counted
  (``Replay.omitted``), not described: time and memory stay linear in the
  number of turns however many rules a record breaks;
* a ``partial`` record (one that stops before the game ends, e.g. a game still
  being played) is not faulted for ending early.

The small piece of rule logic repeated here is the end-of-game check after an
illegal mark (the core never applies illegal marks); it mirrors
``GameState.with_action1``/``with_action2`` line for line, and the tests check
that on legal records this replay and the core's agree state for state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..big_points import BonusMark
from ..bonus_b import active_symbols
from ..display import printable
from ..errors import IllegalMoveError
from ..layouts import OFFICIAL, SheetLayout
from ..model import COLOURS, PENALTY_POINTS, Colour, LuckyMark, Mark, Roll, Sheet, row_points
from ..notation import format_mark, format_roll
from ..record import GameRecord, TurnRecord
from ..rules import (
    GameState,
    Phase,
    closes,
    legal_action1,
    legal_action2,
    new_game,
)
from ..ruleset import Ruleset
from .violations import Step, Violation

__all__ = ["Replay", "allowed_action1", "check_record"]

_END_REASONS = {"R13": "a player marked their fourth penalty box",
                "R14": "a second colour was closed"}


@dataclass(frozen=True, slots=True)
class Replay:
    """The outcome of a lenient replay.

    ``violations`` in the order of the game; ``final`` the state after the last
    replayed turn (the other program's evident state); ``end_turn`` the turn (from
    1) in which the game ended, None if it did not; ``replayed`` the number of
    turns replayed (turns after the end are not); ``omitted`` the number of
    violations found after the ``limit`` of :func:`check_record` and not described;
    ``adopted_penalties`` per player, the penalty boxes the record claims beyond
    the rules' (negative: fewer) that ``final`` holds (empty: none adopted).
    """

    violations: tuple[Violation, ...]
    final: GameState
    end_turn: int | None
    replayed: int
    omitted: int = 0
    adopted_penalties: tuple[int, ...] = ()


class _Found:
    """The violations found so far: the first ``limit`` kept, the rest only counted."""

    __slots__ = ("kept", "limit", "omitted")

    def __init__(self, limit: int | None) -> None:
        self.kept: list[Violation] = []
        self.limit = limit
        self.omitted = 0

    @property
    def full(self) -> bool:
        """True once ``limit`` violations are kept: describe no more, count them."""
        return self.limit is not None and len(self.kept) >= self.limit

    def append(self, violation: Violation) -> None:
        if self.full:
            self.omitted += 1
        else:
            self.kept.append(violation)


# -- lenient steps --------------------------------------------------------------------------------

def _with_cross(sheet: Sheet, mark: Mark) -> Sheet:
    """``sheet`` with ``mark`` crossed whether or not the rules allow it (a cell its layout
    does not print cannot be crossed: the sheet stays as it is); an X-Change field the
    mark names is used when it lies right of the last one used (XC2), else the track
    stays as it is."""
    if isinstance(mark, BonusMark):  # Big Points: the bonus cell, whatever BP1-BP4 say
        rows = [sheet.bonus_rows[0], sheet.bonus_rows[1]]
        if sheet.layout.bonus_rows:
            rows[mark.row] |= 1 << mark.column
        return Sheet.unchecked(sheet.masks, sheet.penalties, sheet.layout, sheet.used_fields,
                               sheet.seconds, sheet.bar_taken, sheet.bar_void,
                               (rows[0], rows[1]))
    used = sheet.used_fields
    if mark.field is not None and mark.field > sheet.last_field \
            and mark.field < len(sheet.layout.exchange):
        used = (*used, mark.field)
    pos = sheet.layout.pos[mark.colour.index][mark.number] if mark.crosses else -1
    if pos < 0:
        return Sheet.unchecked(sheet.masks, sheet.penalties, sheet.layout, used, sheet.seconds,
                               sheet.bar_taken, sheet.bar_void, sheet.bonus_rows)
    if mark.second:  # a second cross (DA1), the box under a crossed number only
        if not sheet.layout.second_crosses or pos == sheet.layout.row_length(mark.colour) - 1 \
                or not sheet.masks[mark.colour.index] >> pos & 1:
            return sheet
        return sheet.seconded(mark.colour.index, pos)
    # with its chain partner, if any (CC1); a Bonus A sheet keeps its bar, no forced crosses
    crossed = sheet.marked(mark.colour.index, pos)
    return Sheet.unchecked(crossed.masks, crossed.penalties, crossed.layout, used,
                           crossed.seconds, crossed.bar_taken, crossed.bar_void,
                           crossed.bonus_rows)


def _after_action1(rolled: GameState, choices: tuple[Mark | None, ...]
                   ) -> tuple[GameState, list[tuple[int, IllegalMoveError]], list[Mark | None]]:
    """The state after action 1, each illegal choice with the core's error, the legal choices."""
    after, refused = rolled.with_simultaneous_action1(choices)  # the core drops them
    legal_only = list(choices)
    illegal: list[tuple[int, IllegalMoveError]] = []
    for exc in refused:
        assert exc.player is not None
        illegal.append((exc.player, exc))
        legal_only[exc.player] = None
    if not illegal:
        return after, illegal, legal_only
    sheets = list(after.sheets)
    closed = set(after.closed)
    for player, _ in illegal:
        mark = choices[player]
        assert mark is not None
        for cross in mark.cells if isinstance(mark, LuckyMark) else (mark,):  # LG4: two
            sheets[player] = _with_cross(sheets[player], cross)
            if closes(rolled.layout, cross):
                closed.add(cross.colour)
    # As GameState.with_action1: the end check after every action-1 mark (R14, R15).
    state = rolled.after_action1(sheets, frozenset(closed), tuple(choices))
    return state, illegal, legal_only


def _legal_action1(rolled: GameState, player: int, legal_only: Sequence[Mark | None]
                   ) -> tuple[Mark, ...]:
    """``player``'s legal action-1 marks given the other players' legal choices."""
    return tuple(allowed_action1(rolled, player, legal_only, legal_action1(rolled, player)))


def allowed_action1(rolled: GameState, player: int, choices: Sequence[Mark | None],
                    candidates: Sequence[Mark]) -> list[Mark]:
    """The ``candidates`` that ``player`` may choose in action 1, the other players'
    ``choices`` as given: those :meth:`GameState.with_action1` accepts, or refuses
    naming another player only."""
    out = []
    for mark in candidates:
        trial = list(choices)
        trial[player] = mark
        try:
            rolled.with_action1(trial)
        except IllegalMoveError as exc:
            if exc.player == player:
                continue
        out.append(mark)
    return out


def _lenient_action2(state: GameState, mark: Mark) -> GameState:
    """``state`` (phase ACTION2, or OVER after an end in action 1) with ``mark`` crossed anyway."""
    sheets = list(state.sheets)
    sheets[state.active] = _with_cross(sheets[state.active], mark)
    closed = state.closed | {mark.colour} if closes(state.layout, mark) else state.closed
    ended_by = state.ended_by
    if state.phase is Phase.OVER:
        return GameState.make(state.ruleset, tuple(sheets), state.active, closed, Phase.OVER,
                              None, None, ended_by, state.turn)
    return state.end_turn(sheets, closed)


def _with_penalties(state: GameState, penalties: tuple[int, ...]) -> GameState:
    """``state`` with the penalty boxes the other program claims (its evident state)."""
    sheets = tuple(Sheet.unchecked(s.masks, p, s.layout, s.used_fields, s.seconds,
                                   s.bar_taken, s.bar_void, s.bonus_rows)
                   for s, p in zip(state.sheets, penalties, strict=True))
    n = len(sheets)
    four = any(p >= state.layout.penalty_boxes for p in penalties)
    if state.phase is Phase.OVER:
        if state.ended_by == "R13" and not four:  # the other program plays on
            return GameState.make(state.ruleset, sheets, (state.active + 1) % n, state.closed,
                                  Phase.ROLL, None, None, None, state.turn + 1)
        return GameState.make(state.ruleset, sheets, state.active, state.closed, Phase.OVER,
                              None, None, state.ended_by, state.turn)
    if four:
        return GameState.make(state.ruleset, sheets, state.active, state.closed, Phase.OVER,
                              None, None, "R13", state.turn)
    return GameState.make(state.ruleset, sheets, state.active, state.closed, state.phase,
                          state.roll, state.action1, state.ended_by, state.turn)


# -- messages -------------------------------------------------------------------------------------

def _strip_rule(exc: IllegalMoveError) -> str:
    text = str(exc)
    prefix = f"{exc.rule}: "
    return text[len(prefix):] if text.startswith(prefix) else text


def _choices(legal: Sequence[Mark]) -> tuple[str, ...]:
    return ("-", *(format_mark(m) for m in legal))


def _colours(colours: frozenset[Colour]) -> str:
    return ", ".join(c.value for c in COLOURS if c in colours) or "none"


def _breakdown(sheet: Sheet) -> str:
    rows = " + ".join(f"{c.value} {sheet.row_score(c)}" for c in COLOURS)
    if sheet.layout.steps:
        rows += f" + steps {sheet.steps_score} ({sheet.steps_crossed} step cells)"
    if sheet.layout.symbols:  # Bonus B (BB8)
        on = active_symbols(sheet)
        return (f"{rows}{' + the lowest row again (square)' if 'square' in on else ''}"
                f"{' + 13 (octagon)' if 'octagon' in on else ''} - "
                f"{0 if 'star' in on else PENALTY_POINTS} x {sheet.penalties} penalty box(es)"
                f"{' (star)' if 'star' in on else ''} = {sheet.score}")
    return (f"{rows} - {PENALTY_POINTS} x {sheet.penalties} penalty box(es) = {sheet.score}")


def _score_gap(gap: int, *, penalties_known: bool, passive_passes: int,
               ref_penalties: int, sheet: Sheet, claimed: int | None = None
               ) -> tuple[str, str]:
    """The rule and words that best explain a claimed score ``gap`` (claimed - reference;
    ``claimed`` the claimed total itself, when known)."""
    boxes = abs(gap) // PENALTY_POINTS
    if not penalties_known and gap % PENALTY_POINTS == 0:
        if gap < 0 and passive_passes >= boxes:
            return "R11", (f"{-gap} points less is {boxes} penalty box(es) more than the rules "
                           f"give, and the player passed as a non-active player "
                           f"{passive_passes} time(s): non-active players never take a penalty "
                           f"(the rules' total: {_breakdown(sheet)})")
        if gap > 0 and ref_penalties >= boxes:
            return "R11", (f"{gap} points more is {boxes} penalty box(es) fewer than the rules "
                           f"give: the active player who marks nothing in either action takes "
                           f"a penalty (the rules' total: {_breakdown(sheet)})")
    layout = sheet.layout
    if layout.chain and claimed is not None:
        found = _chain_gap(sheet, claimed)
        if found is not None:
            return found
    if layout.bar:  # Qwixx Bonus A: the forced crosses count like any other (BA1-BA3)
        return "BA1", (f"a cross on a boxed cell forces a cross in the row of the next bonus "
                       f"bar field (BA1-BA3), and forced crosses score like any other (R16): "
                       f"{_breakdown(sheet)}")
    if layout.symbols:  # Qwixx Bonus B: forced crosses and the symbols' rewards (BB1-BB8)
        return "BB8", (f"a symbol activates when both its cells are crossed (BB1): the circle "
                       f"and the diamond force crosses (BB2, BB3) that score like any other, "
                       f"the square doubles the lowest row (BB4), the octagon gives "
                       f"+13 (BB5), the star makes penalties worth 0 (BB6): "
                       f"{_breakdown(sheet)}")
    if layout.steps:  # Qwixx Connected Steps: a fifth group T(crossed step cells) (CS2)
        return "CS2", (f"the step cells score a fifth group n(n+1)/2 for n crossed step "
                       f"cells, each also counting in its row (CS2), added to the rows "
                       f"(R16) minus {PENALTY_POINTS} per penalty box (R17): "
                       f"{_breakdown(sheet)}")
    if layout.bonus_rows:  # Qwixx Big Points: a row counts its bonus row's crosses (BP9)
        return "BP9", (f"a colour row scores n(n+1)/2 for n = its crosses (the lock box "
                       f"included) + the crosses of its bonus row (RY for red and yellow, GB "
                       f"for green and blue), n at most 15 (BP9), minus {PENALTY_POINTS} per "
                       f"penalty box (R17): {_breakdown(sheet)}")
    if layout.second_crosses:  # Qwixx Double A: second crosses count, scores to 16 (DA7)
        return "DA7", (f"rows score n(n+1)/2 for n crosses, second crosses and the lock box "
                       f"included, n at most 16 (DA7), minus {PENALTY_POINTS} per penalty box "
                       f"(R17): {_breakdown(sheet)}")
    if layout.has_doubles:  # Qwixx Double B: double cells (DB1), scores to 16 crosses (DB3)
        single = sum(row_points(m.bit_count() + (1 if m & layout.last_bit[i] else 0))
                     for i, m in enumerate(sheet.masks)) - PENALTY_POINTS * sheet.penalties
        if claimed == single != sheet.score:
            return "DB1", (f"the claimed score counts each double cell as one cross; a double "
                           f"cell gives two crosses (DB1): {_breakdown(sheet)}")
        return "DB3", (f"rows score n(n+1)/2 for n crosses, a double cell giving two and the "
                       f"lock box one (DB3), minus {PENALTY_POINTS} per penalty box (R17): "
                       f"{_breakdown(sheet)}")
    return "R16", (f"rows score n(n+1)/2 for n marks, the lock box counting as a mark (R16), "
                   f"minus {PENALTY_POINTS} per penalty box (R17): {_breakdown(sheet)}")


def _chain_gap(sheet: Sheet, claimed: int) -> tuple[str, str] | None:
    """The rule and words when the ``claimed`` total of a Connected Chain sheet is its
    total without one cell of one or two crossed pairs: the other program left out (or
    did not score) a forced partner cross (CC1, CC5), or one in a closed row (CC2)."""
    layout = sheet.layout

    def name(cell: tuple[int, int]) -> str:
        return f"{layout.locks[cell[0]].value} {layout.numbers[cell[0]][cell[1]]}"

    pairs = [pair for pair in layout.chain
             if all(sheet.masks[layout.locks[r].index] >> p & 1 for r, p in pair)]
    options = [(pair, cell) for pair in pairs for cell in pair]
    for count in (1, 2):
        for i, first in enumerate(options):
            for second in (options[i + 1:] if count == 2 else [first]):
                if count == 2 and first[0] == second[0]:
                    continue
                left = {first, second}
                masks = list(sheet.masks)
                for _, (r, p) in left:
                    masks[layout.locks[r].index] &= ~(1 << p)
                without = Sheet.unchecked((masks[0], masks[1], masks[2], masks[3]),
                                          sheet.penalties, layout)
                if without.score != claimed:
                    continue
                named = " and ".join(f"{name(cell)} of the chain pair {name(pair[0])} / "
                                     f"{name(pair[1])}" for pair, cell in sorted(left))
                if any(layout.locks[r] in sheet.locked for _, (r, _p) in left):
                    return "CC2", (f"the claimed score leaves out {named}, in a closed row: a "
                                   f"partner cross is made even in a closed row (CC2) and "
                                   f"counts for its score (CC5): {_breakdown(sheet)}")
                return "CC1", (f"the claimed score leaves out {named}: crossing a chain cell "
                               f"crosses its partner too (CC1), both cells of a pair are "
                               f"crossed or neither (CC7), and partner crosses score (CC5): "
                               f"{_breakdown(sheet)}")
    return None


def _frontier_rule(exc: IllegalMoveError, mark: Mark | None, sheet: Sheet,
                   partners: set[tuple[int, int]]) -> tuple[str, str]:
    """The rule and words of a refused mark: on a Connected Chain sheet, a mark left of a
    frontier that a partner cross moved there cites CC3 (else the core's rule)."""
    text = _strip_rule(exc)
    if exc.rule != "R7" or mark is None or not partners:
        return exc.rule, text
    layout = sheet.layout
    ci = mark.colour.index
    front = sheet.masks[ci].bit_length() - 1
    if (ci, front) not in partners or layout.pos[ci][mark.number] >= front:
        return exc.rule, text
    number = layout.numbers[layout.row_of[ci]][front]
    partner = layout.chain_partner(mark.colour, number)
    assert partner is not None
    return "CC3", (f"{text} ({mark.colour.value} {number} was crossed as the chain partner of "
                   f"{partner[0].value} {partner[1]}: a partner cross right of its row's "
                   f"frontier becomes the new frontier, CC3)")


def _partner_cells(before: Sheet, after: Sheet, marks: Sequence[Mark | None]
                   ) -> set[tuple[int, int]]:
    """The cells (lock colour index, position) crossed from ``before`` to ``after`` other
    than the voluntary ``marks``: the forced partner crosses (CC1)."""
    layout = after.layout
    own = {(m.colour.index, layout.pos[m.colour.index][m.number]) for m in marks
           if m is not None}
    return {(ci, p) for ci in range(len(COLOURS))
            for p in range((after.masks[ci] & ~before.masks[ci]).bit_length())
            if (after.masks[ci] & ~before.masks[ci]) >> p & 1 and (ci, p) not in own}


def _left_out(mark: Mark | None, sheet: Sheet, gap: int, could_take_penalty: bool
              ) -> tuple[str, str] | None:
    """The rule and words when a claimed score ``gap`` (claimed - reference) is the
    player's illegal action-1 ``mark`` left out: the other program logged the mark but
    refused it (and, for an active player with no other mark, took a penalty box)."""
    if mark is None or not mark.crosses or isinstance(mark, BonusMark):
        return None
    pos = sheet.layout.pos[mark.colour.index][mark.number]
    if pos < 0:
        return None
    masks = list(sheet.masks if not mark.second else sheet.seconds)
    masks[mark.colour.index] &= ~(1 << pos)
    if mark.second:
        without = Sheet.unchecked(sheet.masks, sheet.penalties, sheet.layout,
                                  seconds=(masks[0], masks[1], masks[2], masks[3]),
                                  bonus_rows=sheet.bonus_rows)
    else:
        without = Sheet.unchecked((masks[0], masks[1], masks[2], masks[3]), sheet.penalties,
                                  sheet.layout, seconds=sheet.seconds,
                                  bonus_rows=sheet.bonus_rows)
    loss = without.score - sheet.score
    lock = " and its lock box" if closes(sheet.layout, mark) else ""
    if gap == loss:
        return "R16", (f"the claimed score leaves out this player's action-1 mark "
                       f"{mark.describe()}{lock}, which the record makes although it is illegal "
                       f"(reported above): the record's program refused it but logged it; with "
                       f"it the rules' total is {_breakdown(sheet)}")
    if could_take_penalty and gap == loss - PENALTY_POINTS:
        return "R16", (f"the claimed score leaves out this player's action-1 mark "
                       f"{mark.describe()}{lock}, which the record makes although it is illegal "
                       f"(reported above), and takes a penalty box for it: the record's program "
                       f"refused the mark but logged it; with it the rules' total is "
                       f"{_breakdown(sheet)}")
    return None


def _penalty_message(player: int, turn: TurnRecord, before: int, claimed: int,
                     reference: int) -> str:
    got, due = claimed - before, reference - before
    marks = [m for m in (turn.action1[player],
                         turn.action2 if player == turn.active else None) if m is not None]
    if player != turn.active and got > due:
        return (f"player {player} was not the active player but is given {got - due} penalty "
                f"box(es) this turn; non-active players never take a penalty")
    if player == turn.active and due == 1 and got == 0:
        return ("the active player marked nothing in either action and takes a penalty box; "
                "the record gives none")
    if player == turn.active and due == 0 and got > 0 and marks:
        done = ", ".join(format_mark(m) for m in marks)
        return (f"the active player marked {done}, so takes no penalty; the record gives "
                f"{got}")
    return (f"the record claims {claimed} penalty box(es) after this turn; the rules give "
            f"{reference}")


# -- the replay -----------------------------------------------------------------------------------

def _check_roll(roll: Roll, closed_in: dict[Colour, int], layout: SheetLayout = OFFICIAL
                ) -> tuple[Roll, list[tuple[str, str]]]:
    """The roll the replay uses (dice of closed colours dropped) and the roll's problems."""
    problems: list[tuple[str, str]] = []
    dice = list(roll.coloured)
    for colour in COLOURS:
        die = dice[colour.index]
        if colour not in layout.locks:
            if die is not None:
                problems.append(("R4", f"layout {layout.name} has no {colour.value} row, so "
                                       f"no {colour.value} die; the roll {format_roll(roll)} "
                                       "shows one"))
                dice[colour.index] = None
            continue
        if die is None and colour not in closed_in:
            problems.append(("R4", f"the {colour.value} die is in play and must be rolled; the "
                                   f"roll {format_roll(roll)} lacks it"))
        elif die is not None and colour in closed_in:
            problems.append(("R9", f"{colour.value} was closed in turn {closed_in[colour]}: its "
                                   f"die left play, but the roll {format_roll(roll)} shows it"))
            dice[colour.index] = None
    return Roll(roll.white, (dice[0], dice[1], dice[2], dice[3]), roll.faces), problems


def check_record(record: GameRecord, ruleset: Ruleset | None = None, *,
                 limit: int | None = None, partial: bool = False) -> Replay:
    """Replay ``record`` leniently under ``ruleset`` (default: the record's) and find every
    violation (see the module docstring).  ``record`` must be well formed (see
    :func:`~qwixx_math.validation.reader.read_record`).

    ``limit``: describe at most this many violations and count the rest
    (``Replay.omitted``).  ``partial``: the record may stop before the game ends.
    """
    rs = record.ruleset if ruleset is None else ruleset
    n = rs.players
    state = new_game(ruleset=rs, first=record.first, layout=record.layout)
    out = _Found(limit)
    closed_in: dict[Colour, int] = {}
    end_turn: int | None = None
    offsets = [0] * n  # claimed minus reference score differences already reported
    passive_passes = [0] * n
    adopted = [0] * n  # claimed minus the rules' penalty boxes, taken into the state
    partners: list[set[tuple[int, int]]] = [set() for _ in range(n)]  # forced crosses (CC1)
    replayed = 0
    for k, turn in enumerate(record.turns, start=1):
        if state.is_over:
            rule = state.ended_by or "R13"
            out.append(Violation(k, Step.TURN, None, rule,
                                 f"the game ended in turn {end_turn} ({_END_REASONS[rule]}); "
                                 f"the record goes on with {len(record.turns) - k + 1} more "
                                 f"turn(s) from turn {k}"))
            break
        replayed = k
        if turn.active != state.active:
            out.append(Violation(k, Step.TURN, turn.active, "R12",
                                 f"it is player {state.active}'s turn (play passes to the left), "
                                 f"but player {turn.active} rolls"))
            state = GameState.make(rs, state.sheets, turn.active, state.closed, Phase.ROLL,
                                   None, None, None, state.turn)
        before = state
        roll, problems = _check_roll(turn.roll, closed_in, record.layout)
        for rule, message in problems:
            out.append(Violation(k, Step.ROLL, turn.active, rule, message))
        if problems:  # roll with the dice of closed colours dropped, missing dice left out
            rolled = GameState.make(rs, state.sheets, state.active, state.closed,
                                    Phase.ACTION1, roll, None, None, state.turn)
        else:
            rolled = state.with_roll(roll)
        after1, illegal, legal_only = _after_action1(rolled, turn.action1)
        for player, exc in illegal:
            if out.full:  # the legal choices cost a replay each: only count it
                out.omitted += 1
                continue
            legal = _choices(_legal_action1(rolled, player, legal_only))
            rule, text = _frontier_rule(exc, turn.action1[player], rolled.sheets[player],
                                        partners[player])
            out.append(Violation(k, Step.ACTION1, player, rule,
                                 f"{text}; legal: {', '.join(legal)}",
                                 format_mark(turn.action1[player]), legal))
        if after1.phase is Phase.OVER:
            state = after1
            if turn.action2 is not None:
                rule = after1.ended_by or "R14"
                out.append(Violation(
                    k, Step.ACTION2, turn.active, "R15",
                    f"the game ended in action 1 ({_END_REASONS[rule]}) and no action 2 "
                    f"follows (action2_after_game_end is false), but the record marks "
                    f"{turn.action2.describe()}; legal: -", format_mark(turn.action2), ("-",)))
                state = _lenient_action2(after1, turn.action2)
        else:
            try:
                state = after1.with_action2(turn.action2)
            except IllegalMoveError as exc:
                assert turn.action2 is not None
                legal = _choices(legal_action2(after1))
                a = turn.active
                rule, text = _frontier_rule(exc, turn.action2, after1.sheets[a], partners[a] | (
                    _partner_cells(before.sheets[a], after1.sheets[a], (turn.action1[a],))
                    if record.layout.chain else set()))
                out.append(Violation(k, Step.ACTION2, turn.active, rule,
                                     f"{text}; legal: {', '.join(legal)}",
                                     format_mark(turn.action2), legal))
                state = _lenient_action2(after1, turn.action2)
        if turn.penalties is not None:
            for i in range(n):
                claimed, reference = turn.penalties[i], state.sheets[i].penalties
                if claimed != reference:
                    out.append(Violation(k, Step.PENALTIES, i, "R11", _penalty_message(
                        i, turn, before.sheets[i].penalties, claimed, reference)))
                    adopted[i] += claimed - reference
            state = _with_penalties(state, turn.penalties)
        for i in range(n):
            if i != turn.active and turn.action1[i] is None:
                passive_passes[i] += 1
            if record.layout.chain:
                partners[i] |= _partner_cells(before.sheets[i], state.sheets[i], (
                    turn.action1[i] if i < len(turn.action1) else None,
                    turn.action2 if i == turn.active else None))
        if turn.scores is not None:
            refused = {player: turn.action1[player] for player, _ in illegal}
            for i in range(n):
                gap = turn.scores[i] - state.sheets[i].score - offsets[i]
                if gap:
                    passive = 1 if i != turn.active and turn.action1[i] is None else 0
                    due = state.sheets[i].penalties - before.sheets[i].penalties
                    left_out = _left_out(refused.get(i), state.sheets[i], gap,
                                         i == turn.active and turn.action2 is None)
                    rule, why = left_out or _score_gap(
                        gap, penalties_known=turn.penalties is not None,
                        passive_passes=passive, ref_penalties=due, sheet=state.sheets[i],
                        claimed=turn.scores[i])
                    change = turn.scores[i] - before.sheets[i].score - offsets[i]
                    out.append(Violation(
                        k, Step.SCORES, i, rule,
                        f"the claimed score {turn.scores[i]} changes by {change:+d} this turn; "
                        f"the rules give {change - gap:+d}: {why}"))
                    offsets[i] += gap
        for colour in state.closed - before.closed:
            closed_in[colour] = k
        if state.is_over and end_turn is None:
            end_turn = k
    _check_end(record, state, end_turn, offsets, passive_passes, out, partial, adopted)
    return Replay(tuple(out.kept), state, end_turn, replayed, out.omitted,
                  tuple(adopted) if any(adopted) else ())


def _who(i: int, names: Sequence[str]) -> str:
    """``player 1 (P2)``, as :meth:`Violation.describe` names the player of a violation."""
    return f"player {i} ({printable(names[i])})" if i < len(names) else f"player {i}"


def _check_end(record: GameRecord, state: GameState, end_turn: int | None, offsets: list[int],
               passive_passes: list[int], out: _Found, partial: bool,
               adopted: Sequence[int] = ()) -> None:
    """The record's end against the game's (R13, R14) and the claimed result (R11-R18);
    a ``partial`` record may end before the game does.  ``adopted``: the penalty boxes
    per player the state holds beyond the rules' (the record's claims, reported)."""
    last = len(record.turns)
    result = record.result
    if not state.is_over and (not partial or (result is not None and result.ended_by)):
        most = max(s.penalties for s in state.sheets)
        rule = result.ended_by if result is not None and result.ended_by else "R14"
        out.append(Violation(
            last, Step.END, None, rule,
            f"the record ends after turn {last} but the game is not over: no player has "
            f"{state.layout.penalty_boxes} penalty boxes (the most is {most}, R13) and "
            f"{len(state.closed)} colour(s) are closed ({_colours(state.closed)}; R14 ends the "
            f"game at {state.layout.closed_rows_to_end})"))
    if result is None:
        return
    if state.is_over and result.ended_by != state.ended_by:
        rule = state.ended_by or "R13"
        claimed = result.ended_by or "nothing (null)"
        out.append(Violation(
            last, Step.RESULT, None, rule,
            f"the record claims the game ended by {claimed}, but it ended by {rule} "
            f"({_END_REASONS[rule]}) in turn {end_turn}"))
    # with a penalty claim every turn, the state holds the claimed boxes: a score gap is
    # then no penalty box the record forgot or invented
    penalties_known = bool(record.turns) and all(t.penalties is not None for t in record.turns)
    for i, claimed_score in enumerate(result.scores):
        sheet = state.sheets[i]
        gap = claimed_score - sheet.score - offsets[i]
        extra = adopted[i] if i < len(adopted) else 0
        if gap and extra and claimed_score - offsets[i] == Sheet.unchecked(
                sheet.masks, sheet.penalties - extra, sheet.layout,
                seconds=sheet.seconds, bonus_rows=sheet.bonus_rows).score:
            continue  # the claim counts the rules' penalty boxes (the turns' claims are wrong)
        if gap:
            rule, why = _score_gap(gap, penalties_known=penalties_known,
                                   passive_passes=passive_passes[i],
                                   ref_penalties=sheet.penalties, sheet=sheet,
                                   claimed=claimed_score)
            earlier = (f" ({offsets[i]:+d} of it reported in earlier turns)"
                       if offsets[i] else "")
            out.append(Violation(
                last, Step.RESULT, i, rule,
                f"the claimed final score {claimed_score} differs from the rules' "
                f"{sheet.score} by {gap + offsets[i]:+d}{earlier}: {why}"))
    best = max(result.scores)
    by_claims = tuple(i for i, s in enumerate(result.scores) if s == best)
    if tuple(sorted(result.winners)) != by_claims:
        names = ", ".join(_who(w, record.players) for w in sorted(result.winners))
        out.append(Violation(
            last, Step.RESULT, None, "R18",
            f"the record claims winner(s) {names}, but the highest claimed total {best} "
            f"belongs to {', '.join(_who(w, record.players) for w in by_claims)} "
            f"(equal totals share the win)"))
