"""``lookahead``: one turn of lookahead, each plan's sheet valued by the nearest solved table.

Every choice is the legal one (the rules core's :func:`~qwixx_math.rules.turn_outcomes`,
:func:`~qwixx_math.rules.action1_outcomes`, :func:`~qwixx_math.rules.legal_action2`, so
forced crosses, second crosses, bonus crosses and chain partners are applied by the core)
whose resulting position has the highest **evaluation**: its score when the game is over,
else ``evaluation.value(sheet, closed)``, an estimate of the expected final score from there
playing on alone.  The decisions are those of ``solo`` (:mod:`qwixx_math.players.solo`):

* **Active player, action 1**: the action 1 of the best whole plan (the others assumed to
  pass, their choices are not known yet).
* **Passive player**: passing or the white sum, whichever leaves the better position.
* **Active player, action 2**, once everybody's action 1 is known: "no mark" (a penalty when
  action 1 marked nothing) or each legal action-2 mark, valued after the turn.

Ties go to the rules core's order (no mark first; :func:`~qwixx_math.rules.plan_key`).

The evaluation (:func:`evaluation_for`) is the pad's own exact solver table where the solver
plays the pad; then the player **is** ``solo``, the optimal solitaire policy.  Where it does not
(VARIANTS.md §10.2), the value of a solved sheet standing in for it, corrected by what the
table cannot see (chosen by the feature the solver refuses, :func:`stand_in_name`, so that a
layout file of another Chain sheet gets the Chain's).  The Chain and Double A keep their
stand-ins though the solver now plays them (issue 34): the benchmark's lower bounds were
measured with them and are checked against the exact values; ``solo`` plays their exact
tables.

* **Double A** (``double-a``): the Double B table (both count crosses to 16 and lock at 7).
  Each row becomes a Double B row with the same rightmost cross and, where one exists, the
  same number of crosses (second crosses counted); the crosses a Double B row that far cannot
  hold are added as points at the end: ``T(C + e) - T(C)`` for ``e`` crosses more than the
  stand-in holds, ``C`` the stand-in's count plus :data:`FUTURE_SHARE` of the cells right of
  its rightmost cross (a rough expected final count).
* **Connected Chain** (``connected-chain``): the official table on the rows' crosses
  (partner crosses included, so the plans see the cells a partner jumps), plus a share
  (:data:`CHAIN_SHARE`) of what one more cross adds to the partner row for each pair whose
  partner lies left of its row's rightmost cross while the other cell is still reachable
  (a free cross to come, CC2).
* **Bonus B** (``bonus-b``): the official table on the rows' crosses, plus what the active
  symbols add to the score now (square, octagon, star), plus a share
  (:data:`SYMBOL_SHARE`) of rough points (:data:`SYMBOL_POINTS`) for each symbol that can
  still be completed: a third with no cell crossed, two thirds with one.
* **Big Points** (``big-points``): the official table on the colour rows, plus for each
  colour row ``T(min(C + b, 15)) - T(min(C, 15))`` for its bonus row's ``b`` crosses, ``C``
  the row's count plus :data:`FUTURE_SHARE` of its open cells; future bonus crosses are not
  valued.

Every such evaluation is a heuristic: the player's simulated mean is an ESTIMATE of a
**lower bound** of the pad's optimal value (``benchmarks/bench_strong_pads.py``), never a
value.  The tables are the solitaire ones of the game's R15 option (solved on first use, then
loaded from the cache).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import ParseError
from ..layouts import (
    BP_SCORE_CAP,
    DA_SCORE_CAP,
    DOUBLE_B,
    OFFICIAL,
    SheetLayout,
    layout_named,
)
from ..model import COLOURS, Colour, Mark, Sheet
from ..rules import (
    GameState,
    Phase,
    action1_choices,
    action1_outcomes,
    legal_action2,
    plan_key,
    turn_outcomes,
)
from ..ruleset import Ruleset

__all__ = ["CHAIN_SHARE", "FUTURE_SHARE", "PLAYERS", "SYMBOL_POINTS", "SYMBOL_SHARE", "Evaluation",
           "LookaheadPlayer", "evaluation_for", "make", "stand_in_name"]

#: The share of a row's cells right of its rightmost cross that the corrections count as
#: crosses still to come (a rough expected final count; tuned on other seeds than the
#: benchmark's, see benchmarks/bench_strong_pads.py).
FUTURE_SHARE = 0.25

#: Rough points of each Bonus B symbol once active (circle, diamond, square, octagon, star:
#: two forced crosses, four, the lowest row again, 13, the penalties), and the share of them
#: the evaluation adds for a symbol that can still be completed (tuned like FUTURE_SHARE).
SYMBOL_POINTS = (8.0, 12.0, 12.0, 13.0, 5.0)
SYMBOL_SHARE = 1.0
#: The share of a free partner cross's worth the Chain evaluation adds (tuned likewise).
CHAIN_SHARE = 1.0

#: ``(sheet, closed colours) -> estimated expected final score`` of a game not over.
Value = Callable[[Sheet, frozenset[Colour]], float]


@dataclass(frozen=True)
class Evaluation:
    """How a pad's positions are valued: ``value(sheet, closed)`` for a game not over."""

    #: What the value is, in words ("exact table of official", "double-b table, ...").
    name: str
    #: True when ``value`` is the pad's own exact solver table (the player is then optimal
    #: in solitaire).
    exact: bool
    value: Value


def _table_value(layout: SheetLayout, ruleset: Ruleset, progress: bool | None) -> Value:
    """The exact solitaire table of ``layout`` (ParseError when the solver refuses it)."""
    from ..advice import Advisor  # imports the solver (numba): only when asked for

    lookup = Advisor.for_ruleset(ruleset, progress=progress, layout=layout).lookup

    def value(sheet: Sheet, closed: frozenset[Colour]) -> float:
        return lookup(sheet, closed, 0)

    return value


def _future(count: int, mask: int, length: int) -> float:
    """A rough expected final count of an open row: its crosses and :data:`FUTURE_SHARE` of
    the cells right of its rightmost cross."""
    return count + FUTURE_SHARE * (length - mask.bit_length())


def _extra_points(count: float, extra: int, cap: int) -> float:
    """Points ``extra`` more crosses add to a row of ``count`` crosses scoring to ``cap``."""
    def t(n: float) -> float:
        n = min(max(n, 0.0), cap)
        return n * (n + 1) / 2

    return t(count + extra) - t(count)


def _official_masks(sheet: Sheet) -> Sheet:
    """The official sheet with the same crosses (positions) and penalties."""
    return Sheet.unchecked(sheet.masks, sheet.penalties)


def _reachable(sheet: Sheet, closed: frozenset[Colour], row: int, position: int) -> bool:
    """Whether a voluntary cross can still reach the cell: its row (by layout row index) is
    open and the cell lies right of the row's rightmost cross."""
    colour = sheet.layout.locks[row]
    mask = sheet.masks[colour.index]
    return not (colour in closed or mask & sheet.layout.lock_bits[colour.index]
                or mask.bit_length() > position)


def _free_partners(sheet: Sheet, closed: frozenset[Colour]) -> float:
    """:data:`CHAIN_SHARE` of, for each chain pair not crossed with a cell still reachable
    and its partner left of the partner row's rightmost cross (a cross that brings a free
    one, CC2), the partner row's crosses plus one (what one more cross adds to T)."""
    layout = sheet.layout
    total = 0.0
    for pair in layout.chain:
        for (row, position), (other, spot) in (pair, pair[::-1]):
            colour = layout.locks[other]
            mask = sheet.masks[colour.index]
            if mask >> spot & 1:
                break  # the pair is crossed
            if _reachable(sheet, closed, row, position) and mask.bit_length() > spot:
                total += layout.count[colour.index][mask] + 1
                break
    return CHAIN_SHARE * total


def _chain(official: Value) -> Value:
    def value(sheet: Sheet, closed: frozenset[Colour]) -> float:
        return official(_official_masks(sheet), closed) + _free_partners(sheet, closed)

    return value


def _symbol_hopes(sheet: Sheet, closed: frozenset[Colour]) -> float:
    """:data:`SYMBOL_SHARE` of :data:`SYMBOL_POINTS` of each symbol not yet active whose
    cells are all crossed or still reachable (right of an open row's rightmost cross), half
    of it with no cell crossed yet."""
    layout = sheet.layout
    masks = sheet.masks
    total = 0.0
    for points, cells in zip(SYMBOL_POINTS, layout.symbols, strict=True):
        crossed = 0
        for row, position in cells:
            if masks[layout.locks[row].index] >> position & 1:
                crossed += 1
            elif not _reachable(sheet, closed, row, position):
                break  # this cell can no longer be crossed by choice
        else:
            if crossed < len(cells):
                total += points * (1 + crossed) / (1 + len(cells))
    return SYMBOL_SHARE * total


def _bonus_b(official: Value) -> Value:
    def value(sheet: Sheet, closed: frozenset[Colour]) -> float:
        plain = _official_masks(sheet)
        return (official(plain, closed) + sheet.score - plain.score
                + _symbol_hopes(sheet, closed))

    return value


def _big_points(official: Value) -> Value:
    length = len(OFFICIAL.numbers[0])

    def value(sheet: Sheet, closed: frozenset[Colour]) -> float:
        plain = _official_masks(sheet)
        total = official(plain, closed)
        for colour in COLOURS:
            ci = colour.index
            extra = sheet.bonus_rows[ci // 2].bit_count()
            if not extra:
                continue
            mask = sheet.masks[ci]
            count = plain.count(colour)
            if not (colour in closed or mask & OFFICIAL.lock_bits[ci]):
                total += _extra_points(_future(count, mask, length), extra, BP_SCORE_CAP)
            else:
                total += _extra_points(count, extra, BP_SCORE_CAP)
        return total

    return value


def _stand_in_rows(proxy: SheetLayout) -> list[dict[tuple[int, int], int]]:
    """Per colour of ``proxy``: (rightmost position, crosses) -> a mask of ``proxy`` with that
    rightmost position and the number of crosses nearest to it (fewer on a tie)."""
    out: list[dict[tuple[int, int], int]] = []
    for colour in COLOURS:
        ci = colour.index
        length = len(proxy.numbers[proxy.row_of[ci]])
        counts = proxy.count[ci]
        allowed_lock = proxy.lock_threshold
        by_last: dict[int, dict[int, int]] = {}
        for mask in range(1, 1 << length):
            top = mask.bit_length() - 1
            if mask & proxy.lock_bits[ci] and counts[mask & ~proxy.lock_bits[ci]] < allowed_lock:
                continue  # no game reaches it (R8)
            by_last.setdefault(top, {}).setdefault(counts[mask], mask)
        table: dict[tuple[int, int], int] = {}
        for top, found in by_last.items():
            for n in range(0, 2 * length + 2):
                best = min(found, key=lambda c: (abs(c - n), c))
                table[(top, n)] = found[best]
        out.append(table)
    return out


def _double_a(double_b: Value) -> Value:
    rows = _stand_in_rows(DOUBLE_B)
    length = len(DOUBLE_B.numbers[0])

    def value(sheet: Sheet, closed: frozenset[Colour]) -> float:
        masks = [0, 0, 0, 0]
        correction = 0.0
        counts = []
        for colour in COLOURS:
            ci = colour.index
            mask = sheet.masks[ci]
            n = sheet.count(colour)
            counts.append(n)
            if mask:
                masks[ci] = rows[ci][(mask.bit_length() - 1, n)]
        proxy = Sheet.unchecked((masks[0], masks[1], masks[2], masks[3]), sheet.penalties,
                                DOUBLE_B)
        for colour in COLOURS:
            ci = colour.index
            n, stand = counts[colour.index], DOUBLE_B.count[ci][masks[ci]]
            if masks[ci] & DOUBLE_B.lock_bits[ci] or colour in closed:
                correction += _extra_points(0, min(n, DA_SCORE_CAP), DA_SCORE_CAP) - \
                    _extra_points(0, stand, DA_SCORE_CAP)
            elif n != stand:
                correction += _extra_points(_future(stand, masks[ci], length), n - stand,
                                            DA_SCORE_CAP)
        return double_b(proxy, closed) + correction

    return value


#: The pads the solver refuses (and the Chain and Double A, module docstring) and the solved
#: sheet that stands in for each.
STAND_INS: dict[str, tuple[SheetLayout, Callable[[Value], Value], str]] = {
    "double-a": (DOUBLE_B, _double_a,
                 "the double-b table on rows of the same rightmost cross and crosses"),
    "connected-chain": (OFFICIAL, _chain, "the official table on the rows' crosses"),
    "bonus-b": (OFFICIAL, _bonus_b,
                "the official table on the rows' crosses plus the active symbols' points"),
    "big-points": (OFFICIAL, _big_points,
                   "the official table on the colour rows plus the bonus rows' points"),
}


def stand_in_name(layout: SheetLayout) -> str | None:
    """The pad of :data:`STAND_INS` whose stand-in values ``layout``, by the feature the
    solver refuses (second crosses, chain pairs, symbols, bonus rows; so a layout file of
    another Chain sheet, or of Big Points locking at 6, gets its pad's stand-in), or None.
    A ParseError when the layout has such a feature on rows the stand-in tables cannot read
    (four rows of 11 cells, 6-sided dice)."""
    if not isinstance(layout, SheetLayout):
        raise ParseError(f"expected a SheetLayout, not {layout!r}")
    found = ("double-a" if layout.second_crosses else "connected-chain" if layout.chain
             else "bonus-b" if layout.symbols else "big-points" if layout.bonus_rows else None)
    if found is not None and not (
            layout.faces == 6 and layout.lock_cells == 1 and len(layout.locks) == len(COLOURS)
            and all(len(row) == len(OFFICIAL.numbers[0]) for row in layout.numbers)):
        raise ParseError(f"layout {layout.name}: the lookahead player values a {found} sheet "
                         "with a table of four rows of 11 cells and 6-sided dice; this sheet "
                         "has other rows or dice")
    return found


def evaluation_for(layout: SheetLayout | str = OFFICIAL, ruleset: Ruleset | None = None,
                   progress: bool | None = None) -> Evaluation:
    """How the ``lookahead`` player values positions on ``layout`` (a SheetLayout or a
    published name) under ``ruleset`` (default: solitaire, official options): the pad's own
    exact table when the solver plays it, else the stand-in of the module docstring (the
    four pads of :data:`STAND_INS`, :func:`stand_in_name`, the Chain among them).  Solves
    or loads the table it needs.  A pad neither solved nor stood in for is a ParseError (the
    solver's)."""
    if isinstance(layout, str):
        layout = layout_named(layout)
    if not isinstance(layout, SheetLayout):
        raise ParseError(f"expected a SheetLayout or a pad's name, not {layout!r}")
    if ruleset is None:
        ruleset = Ruleset(1)
    if not isinstance(ruleset, Ruleset):
        raise ParseError(f"ruleset must be a Ruleset, not {type(ruleset).__name__}")
    if progress is not None and not isinstance(progress, bool):
        raise ParseError(f"progress must be True, False or None, not {progress!r}")
    name = stand_in_name(layout)
    if name is not None:
        proxy, build, words = STAND_INS[name]
        return Evaluation(f"{words} (a stand-in for {name}: an estimate)", False,
                          build(_table_value(proxy, ruleset, progress)))
    return Evaluation(f"the exact table of {layout.name}", True,
                      _table_value(layout, ruleset, progress))


class LookaheadPlayer:
    """The ``lookahead`` player (see the module docstring).  Deterministic.  It values the
    positions of each layout it meets with :func:`evaluation_for` (built on first use), or
    with ``evaluation`` when given (any layout: for tests and other sheets)."""

    name = "lookahead"

    def __init__(self, ruleset: Ruleset | None = None, evaluation: Evaluation | None = None,
                 progress: bool | None = None) -> None:
        if ruleset is not None and not isinstance(ruleset, Ruleset):
            raise ParseError(f"ruleset must be a Ruleset, not {type(ruleset).__name__}")
        if evaluation is not None and not isinstance(evaluation, Evaluation):
            raise ParseError(f"evaluation must be an Evaluation, not {evaluation!r}")
        self.ruleset = ruleset
        self.evaluation = evaluation
        self.progress = progress
        self._built: dict[tuple[SheetLayout, bool], Evaluation] = {}

    def evaluation_of(self, state: GameState) -> Evaluation:
        """The evaluation of ``state``'s layout and R15 option."""
        if self.evaluation is not None:
            return self.evaluation
        key = (state.layout, state.ruleset.action2_after_action1_end)
        found = self._built.get(key)
        if found is None:
            found = evaluation_for(state.layout, state.ruleset, self.progress)
            self._built[key] = found
        return found

    def _worth(self, after: GameState, seat: int, value: Value) -> float:
        sheet = after.sheets[seat]
        if after.phase is Phase.OVER:
            return float(sheet.score)
        return value(sheet, after.closed)

    def new_game(self, seat: int, state: GameState) -> None:
        self.evaluation_of(state)  # build (solve or load) the table before the first roll

    def action1(self, seat: int, state: GameState) -> Mark | None:
        value = self.evaluation_of(state).value
        layout = state.layout
        best: Mark | None = None
        best_key: tuple[float, object] | None = None
        if seat == state.active:
            for after, plans in turn_outcomes(state).items():
                worth = self._worth(after, seat, value)
                for plan in plans:
                    key = (-worth, plan_key(layout, plan))
                    if best_key is None or key < best_key:
                        best, best_key = plan.action1, key
            return best
        best_worth = -float("inf")
        for a1, after in action1_outcomes(state, seat, action1_choices(state, None, seat)):
            worth = self._worth(after, seat, value)
            if worth > best_worth:  # the first of equal worth: passing, then core order
                best, best_worth = a1, worth
        return best

    def action2(self, seat: int, state: GameState) -> Mark | None:
        value = self.evaluation_of(state).value
        best: Mark | None = None
        best_worth = -float("inf")
        for a2 in (None, *legal_action2(state)):
            worth = self._worth(state.with_action2(a2), seat, value)
            if worth > best_worth:
                best, best_worth = a2, worth
        return best

    def game_over(self, seat: int, state: GameState) -> None:
        pass


def make(ruleset: Ruleset, seed: int) -> LookaheadPlayer:
    """The registry's factory (deterministic: ``seed`` is not used)."""
    return LookaheadPlayer(ruleset)


#: The arena's name for this player.
PLAYERS: dict[str, Callable[[Ruleset, int], LookaheadPlayer]] = {"lookahead": make}
