"""The coach's advice panel and end-of-game review, as JSON for the page.

* **Plans ranked** by the exact table value (:class:`~qwixx_math.table.TableAdvisor` for
  the table's size, sheet and R15 option): every legal choice of the player with its
  expected final score (EV, exact in the table model, so no interval) and its EV loss
  against the best, classed like GNU Backgammon's tutor (:func:`tutor`).  The choices
  are the rules core's under the game's whole ruleset; the table model's later turns
  count the R15 option only, which is all that changes them: in that model the others
  never close a row nor end the game, so the dialect switches (R9 die removal, R10
  simultaneous close, R14 end check) never come into play (:func:`rules_note`).
* **Win chance** (2 to 5 players, the official sheet and rules): the ``win`` player's
  network (:class:`~qwixx_math.players.win.WinPlayer`), one forward pass for every
  choice: an *estimate* without an interval (docs/winning.md reports its calibration);
  a choice after which the game is over gets its exact share.  Elsewhere
  :func:`win_model_unavailable` says why there is none.
* **Win rollouts** only on request (:func:`~qwixx_math.winadvice.advise_win`, about a
  second): the share of the win of every choice with its standard error and 95%
  interval; the rollouts play the game's own ruleset through the rules core.
* **No advice** on a sheet the solver has no table for: the library's typed error
  (its message and rule id) becomes the panel's ``unavailable`` note, not a failure.
* **Cached** (:class:`AdviceCache`): the answer for one state and seat is computed once
  and served again as the same bytes (the state is immutable, so it cannot go stale).
* **Review**: :func:`~qwixx_math.review.review_players` with the table advisor, so every
  decision is valued by the table model of the game's size (the review's own
  solitaire-only note does not apply and is replaced).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ..errors import ParseError, QwixxError
from ..layouts import SheetLayout
from ..model import Mark, Sheet, TurnPlan
from ..players.win import WinPlayer
from ..record import GameRecord
from ..review import review_players
from ..rules import GameState, Phase
from ..ruleset import DieRemoval, EndCheck, Ruleset
from ..table import TableAdvisor
from ..winadvice import advise_win

__all__ = ["TABLE_WAIT", "TUTOR_LEVELS", "AdviceCache", "TableBuilding", "advice_json",
           "review_json", "rules_note", "table_advisor", "tutor", "win_model_unavailable"]

#: Seconds an advice request waits for its table before it answers "building" (a cached
#: table loads in well under a second; a first solve takes minutes on a new pad).
TABLE_WAIT = 3.0

#: The tutor's classes of an EV loss, in points of expected final score: (upper bound of the
#: loss, class).  GNU Backgammon marks a loss of 0.04 / 0.08 / 0.16 of a game "doubtful" /
#: "bad" / "very bad"; a Qwixx game is scored in points, and these bounds are our choice
#: (docs/coach.md): a tenth of a point is noise at the table, two points lose games.
TUTOR_LEVELS: tuple[tuple[float, str], ...] = (
    (1e-9, "best"), (0.1, "fine"), (0.5, "doubtful"), (2.0, "bad"), (float("inf"), "very bad"))

_lock = threading.Lock()
_score_lock = threading.Lock()
_win_players: dict[Ruleset, WinPlayer] = {}


def tutor(loss: float) -> str:
    """The tutor's class of an EV loss (:data:`TUTOR_LEVELS`).

    >>> tutor(0.0), tutor(0.05), tutor(0.3), tutor(1.0), tutor(7.5)
    ('best', 'fine', 'doubtful', 'bad', 'very bad')
    """
    for bound, name in TUTOR_LEVELS:
        if loss <= bound:
            return name
    return TUTOR_LEVELS[-1][1]  # pragma: no cover - the last bound is infinite


class TableBuilding(QwixxError):
    """The table advice needs is being solved in the background (its first use on this
    pad, table size and R15 option); ask again later."""


_tables: dict[tuple[Ruleset, SheetLayout], Future[TableAdvisor]] = {}
_builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach-table")


def table_advisor(state: GameState, wait: float | None = None) -> TableAdvisor:
    """The table advisor of ``state``'s size, R15 option and sheet: loaded from the cache,
    or solved on first use (20 s on the official sheet, minutes on a new pad) by one
    background thread.  ``wait``: the seconds to wait for it (None: as long as it takes);
    past that, :class:`TableBuilding` (the solve goes on).  A pad the solver refuses
    raises the library's typed error (e.g. DB1), every time."""
    key = (state.ruleset, state.layout)
    with _lock:
        future = _tables.get(key)
        if future is None:
            future = _tables[key] = _builder.submit(
                TableAdvisor.for_ruleset, state.ruleset, players=state.players,
                progress=False, layout=state.layout)
    try:
        return future.result(timeout=wait)
    except QwixxError:  # refused or failed: the next request asks again
        with _lock:
            if _tables.get(key) is future:
                del _tables[key]
        raise
    except TimeoutError:
        raise TableBuilding(
            f"the table for {state.players} player(s) on the {state.layout.name} sheet is "
            "being solved (its first use: a few minutes, then it is cached); ask again "
            "shortly") from None


def _dialect_switches(ruleset: Ruleset) -> list[str]:
    """The dialect switches of ``ruleset`` that are not the official rule, in words."""
    out = []
    if ruleset.die_removal is not DieRemoval.IMMEDIATE:
        out.append(f"die removal {ruleset.die_removal.value} (R9)")
    if not ruleset.simultaneous_close:
        out.append("no simultaneous close (R10)")
    if ruleset.end_check is not EndCheck.AFTER_ACTIONS:
        out.append(f"end check {ruleset.end_check.value} (R14)")
    return out


def rules_note(ruleset: Ruleset) -> str:
    """What the table EVs take from ``ruleset``, in words for the panel.

    >>> rules_note(Ruleset(2))
    'official rules'
    >>> rules_note(Ruleset(2, end_check=EndCheck.SEQUENTIAL))  # doctest: +NORMALIZE_WHITESPACE
    'dialect: end check sequential (R14). The choices follow it; the table model values
    later turns with no action 2 after the game ends, and the dialect switches do not
    change its values (in it the others never close a row nor end the game)'
    """
    a2 = ruleset.action2_after_action1_end
    switches = _dialect_switches(ruleset)
    if not switches:
        return "official rules" + (", R15 Option (action 2 after the game ends)"
                                   if ruleset.action2_after_game_end else "")
    return (f"dialect: {', '.join(switches)}. The choices follow it; the table model values "
            f"later turns with{'' if a2 else ' no'} action 2 after the game ends, and the "
            "dialect switches do not change its values (in it the others never close a row "
            "nor end the game)")


def win_model_unavailable(state: GameState) -> str | None:
    """Why the win network gives no chance in ``state``, or None when it does: it knows
    2 to 5 players on the official sheet under the official rules (it was fitted to
    those games; under an Option or a dialect switch its numbers would be of another
    game)."""
    if state.players < 2:
        return "no win model for one player (a solitaire game has no winner to predict)"
    if not state.layout.is_official:
        return f"no win model for the {state.layout.name} sheet (it knows the official sheet)"
    if not state.ruleset.is_official:
        changed = _dialect_switches(state.ruleset)
        if state.ruleset.action2_after_game_end:
            changed.insert(0, "the R15 Option")
        return (f"no win model under {', '.join(changed)}: it was fitted to games of the "
                "official rules; ask for win rollouts, which play these rules")
    return None


def _win_player(ruleset: Ruleset) -> WinPlayer:
    with _lock:
        player = _win_players.get(ruleset)
        if player is None:
            player = _win_players[ruleset] = WinPlayer(ruleset)
        return player


def _after(state: GameState, player: int, plan: TurnPlan) -> GameState:
    """The state after ``player``'s choice ``plan`` (the others passing in action 1; a passive
    player's choice leaves the active player's action 2 out)."""
    if state.phase is Phase.ACTION2:
        return state.with_action2(plan.action2)
    choices: list[Mark | None] = [None] * state.players
    choices[player] = plan.action1
    after = state.with_action1(choices)
    if player == state.active and after.phase is Phase.ACTION2:
        after = after.with_action2(plan.action2)
    return after


def _win_chances(state: GameState, player: int, plans: list[TurnPlan]) -> list[float]:
    """The win model's share of the win after each plan (where
    :func:`win_model_unavailable` is None)."""
    positions: list[tuple[tuple[Sheet, ...], frozenset[Any]]] = []
    for plan in plans:
        after = _after(state, player, plan)
        positions.append((after.sheets, after.closed))
    win = _win_player(state.ruleset)
    with _score_lock:  # the player's summary cache is shared
        return [float(v) for v in win.score(player, positions, (state.active + 1) % state.players)]


def _check_player(state: GameState, player: object) -> int:
    if not isinstance(player, int) or isinstance(player, bool) \
            or not 0 <= player < state.players:
        raise ParseError(f"player must be a seat number from 0 to {state.players - 1}, "
                         f"not {player!r}")
    return player


def advice_json(state: GameState, player: object, rollouts: bool = False,
                seed: int = 0) -> dict[str, Any]:
    """``player``'s decision in ``state`` (phase action1 or action2), every choice ranked by
    the table EV, with the tutor's class, the win model's chance and (``rollouts``) the
    rollouts' share of the win with its 95% interval.

    On a sheet or table the solver has no table for, the answer has no plans and its
    ``unavailable`` field is the library's reason (with ``rule``, its rule id)."""
    seat = _check_player(state, player)
    if state.phase is Phase.ROLL:
        raise ParseError("nothing to decide before the roll: roll the dice first")
    out: dict[str, Any] = {
        "player": seat, "passive": None, "phase": state.phase.value, "model": None,
        "rules": rules_note(state.ruleset), "plans": [], "win_model": None, "rollouts": None,
        "unavailable": None, "rule": None, "building": False,
    }
    try:
        advisor = table_advisor(state, TABLE_WAIT)
    except TableBuilding as exc:  # not kept by AdviceCache: the next request looks again
        out["unavailable"] = f"no advice yet: {exc}"
        out["building"] = True
        return out
    except QwixxError as exc:  # no table for this sheet (e.g. DB1), or the cache failed
        out["unavailable"] = f"no advice here: {exc}"
        out["rule"] = getattr(exc, "rule", None)
        return out
    advice = advisor.advise_player(state, seat)  # refuses a finished game, a passive a2
    plans = [r.plan for r in advice.plans]
    missing = win_model_unavailable(state)
    chances = _win_chances(state, seat, plans) if missing is None else None
    rows = []
    for k, ranked in enumerate(advice.plans):
        row = ranked.to_json(state.layout)
        row["tutor"] = tutor(ranked.loss)
        row["win_model"] = chances[k] if chances is not None else None
        rows.append(row)
    out.update({
        "passive": advice.passive, "model": advice.model, "plans": rows,
        "win_model": missing or ("the win player's network: an estimate without an interval "
                                 "(docs/winning.md reports its calibration)"),
    })
    if rollouts:
        if state.players < 2 or not state.layout.is_official:
            raise ParseError("win rollouts need 2 to 5 players on the official sheet")
        win = advise_win(state, seat, seed=seed)
        by_plan = {str(c.plan): c for c in win.choices}
        for row in rows:
            c = by_plan[row["plan"]]
            row["win"] = c.win
            row["win_se"] = c.se
            row["win_ci95"] = list(c.ci95)
            row["win_exact"] = c.exact
        out["rollouts"] = {"count": win.rollouts, "seed": win.seed,
                           "players": list(win.rollout_players)}
    return out


class AdviceCache:
    """The advice of a state and seat (no rollouts) as JSON bytes, computed once.

    A state is immutable and the advice a function of it, so an answer never goes
    stale; the cache keeps the ``size`` most recent ones.  Requests for one key that
    arrive together wait for the first one's answer instead of computing it again
    (twenty clients asking about one position cost one computation).  An error is not
    kept: the next request computes again.
    """

    def __init__(self, size: int = 256) -> None:
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise ParseError(f"the advice cache size must be a whole number >= 1, not {size!r}")
        self.size = size
        self._lock = threading.Lock()
        self._done: OrderedDict[tuple[GameState, int], bytes] = OrderedDict()
        self._busy: dict[tuple[GameState, int], threading.Lock] = {}

    def __len__(self) -> int:
        return len(self._done)

    def get(self, state: GameState, player: object) -> bytes:
        """:func:`advice_json` of ``state`` and ``player`` as UTF-8 JSON."""
        key = (state, _check_player(state, player))
        while True:
            with self._lock:
                found = self._done.get(key)
                if found is not None:
                    self._done.move_to_end(key)
                    return found
                busy = self._busy.get(key)
                if busy is None:
                    busy = self._busy[key] = threading.Lock()
                    busy.acquire()
                    break
            with busy:  # another thread computes this key: wait, then look again
                pass
        try:
            answer = advice_json(*key)
            data = json.dumps(answer, allow_nan=False).encode()
            if answer["building"]:  # the table is still being solved: not an answer to keep
                return data
            with self._lock:
                self._done[key] = data
                while len(self._done) > self.size:
                    self._done.popitem(last=False)
            return data
        finally:
            with self._lock:
                del self._busy[key]
            busy.release()


def review_json(record: GameRecord, state: GameState, top: int = 5) -> dict[str, Any]:
    """Every player's decisions of ``record`` (whose last state is ``state``) valued by the
    table model: the EV loss of each, with the tutor's class.  On a sheet the solver has no
    table for, no reviews and the library's reason in ``unavailable`` (its rule id in
    ``rule``), as :func:`advice_json` answers."""
    if not record.turns:
        raise ParseError("no turn has been played yet: nothing to review")
    try:
        advisor = table_advisor(state)
    except QwixxError as exc:  # no table for this sheet (e.g. BP1): say why, as the advice does
        return {"model": None, "over": state.is_over, "rules": rules_note(state.ruleset),
                "reviews": [], "unavailable": f"no review here: {exc}",
                "rule": getattr(exc, "rule", None)}
    reviews = []
    for review in review_players(record, None, advisor):
        data = review.to_json(top)
        data["note"] = f"each decision is valued by {advisor.model}"
        for d in data["all_decisions"]:
            d["tutor"] = tutor(d["loss"])
        for d in data["costliest"]:
            d["tutor"] = tutor(d["loss"])
        reviews.append(data)
    return {"model": advisor.model, "over": state.is_over, "rules": rules_note(state.ruleset),
            "reviews": reviews, "unavailable": None, "rule": None}
