"""The coach's advice panel and end-of-game review, as JSON for the page.

* **Plans ranked** by the exact table value (:class:`~qwixx_math.table.TableAdvisor` for
  the table's size and sheet): every legal choice of the player with its expected final
  score (EV, exact in the table model, so no interval) and its EV loss against the best,
  classed like GNU Backgammon's tutor (:func:`tutor`).
* **Win chance** (2 to 5 players, the official sheet): the ``win`` player's network
  (:class:`~qwixx_math.players.win.WinPlayer`), one forward pass for every choice: an
  *estimate* without an interval (docs/winning.md reports its calibration); a choice
  after which the game is over gets its exact share.
* **Win rollouts** only on request (:func:`~qwixx_math.winadvice.advise_win`, about a
  second): the share of the win of every choice with its standard error and 95% interval.
* **Review**: :func:`~qwixx_math.review.review_players` with the table advisor, so every
  decision is valued by the table model of the game's size (the review's own
  solitaire-only note does not apply and is replaced).
"""

from __future__ import annotations

import threading
from typing import Any

from ..errors import ParseError
from ..model import Mark, Sheet, TurnPlan
from ..players.win import WinPlayer
from ..record import GameRecord
from ..review import review_players
from ..rules import GameState, Phase
from ..ruleset import Ruleset
from ..table import TableAdvisor
from ..winadvice import advise_win

__all__ = ["TUTOR_LEVELS", "advice_json", "review_json", "table_advisor", "tutor"]

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


def table_advisor(state: GameState) -> TableAdvisor:
    """The table advisor of ``state``'s size, R15 option and sheet (solved on first use,
    20-60 s; then from the cache).  One thread solves, the others wait."""
    with _lock:
        return TableAdvisor.for_ruleset(state.ruleset, players=state.players, progress=False,
                                        layout=state.layout)


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


def _win_chances(state: GameState, player: int, plans: list[TurnPlan]) -> list[float] | None:
    """The win model's share of the win after each plan, or None where it has none."""
    if state.players < 2 or not state.layout.is_official:
        return None
    positions: list[tuple[tuple[Sheet, ...], frozenset[Any]]] = []
    for plan in plans:
        after = _after(state, player, plan)
        positions.append((after.sheets, after.closed))
    win = _win_player(state.ruleset)
    with _score_lock:  # the player's summary cache is shared
        return [float(v) for v in win.score(player, positions, (state.active + 1) % state.players)]


def advice_json(state: GameState, player: object, rollouts: bool = False,
                seed: int = 0) -> dict[str, Any]:
    """``player``'s decision in ``state`` (phase action1 or action2), every choice ranked by
    the table EV, with the tutor's class, the win model's chance and (``rollouts``) the
    rollouts' share of the win with its 95% interval."""
    if not isinstance(player, int) or isinstance(player, bool) \
            or not 0 <= player < state.players:
        raise ParseError(f"player must be a seat number from 0 to {state.players - 1}, "
                         f"not {player!r}")
    if state.phase is Phase.ROLL:
        raise ParseError("nothing to decide before the roll: roll the dice first")
    advisor = table_advisor(state)
    advice = advisor.advise_player(state, player)  # refuses a finished game, a passive a2
    plans = [r.plan for r in advice.plans]
    chances = _win_chances(state, player, plans)
    rows = []
    for k, ranked in enumerate(advice.plans):
        row = ranked.to_json(state.layout)
        row["tutor"] = tutor(ranked.loss)
        row["win_model"] = chances[k] if chances is not None else None
        rows.append(row)
    out: dict[str, Any] = {
        "player": player, "passive": advice.passive, "phase": state.phase.value,
        "model": advice.model, "plans": rows,
        "win_model": ("the win player's network: an estimate without an interval "
                      "(docs/winning.md reports its calibration)" if chances is not None
                      else "no win model for this table (it knows 2 to 5 players on the "
                           "official sheet)"),
        "rollouts": None,
    }
    if rollouts:
        if chances is None:
            raise ParseError("win rollouts need 2 to 5 players on the official sheet")
        win = advise_win(state, player, seed=seed)
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


def review_json(record: GameRecord, state: GameState, top: int = 5) -> dict[str, Any]:
    """Every player's decisions of ``record`` (whose last state is ``state``) valued by the
    table model: the EV loss of each, with the tutor's class."""
    if not record.turns:
        raise ParseError("no turn has been played yet: nothing to review")
    advisor = table_advisor(state)
    reviews = []
    for review in review_players(record, None, advisor):
        data = review.to_json(top)
        data["note"] = f"each decision is valued by {advisor.model}"
        for d in data["all_decisions"]:
            d["tutor"] = tutor(d["loss"])
        for d in data["costliest"]:
            d["tutor"] = tutor(d["loss"])
        reviews.append(data)
    return {"model": advisor.model, "over": state.is_over, "reviews": reviews}
