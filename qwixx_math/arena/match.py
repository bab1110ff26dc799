"""The referee: seeded matches of 2 to 5 players through the rules core.

A match of ``games`` games between ``n`` players is ``games / n`` **deals**; deal
``d`` is played ``n`` times, once in each **rotation** ``r = 0 .. n-1``, in which
player ``i`` (in the order the players were given) sits in seat ``(i + r) % n``.
Seat 0 rolls first.  Every rotation of a deal rolls the same dice turn by turn
(:meth:`Dice.deal <qwixx_math.play.Dice.deal>`), so every player meets the same luck
from every seat.  Game ``g`` (counted from 1) is deal ``(g - 1) // n``, rotation
``(g - 1) % n``.

Every game is played by the library's one game loop, :func:`qwixx_math.play.play`:
each turn rolls, asks every seat's action 1 from the same ``ACTION1`` state,
applies them with :meth:`GameState.with_simultaneous_action1`, asks the active
seat's action 2 from the resulting ``ACTION2`` state and applies it with
:meth:`GameState.with_action2`.  The rules core alone decides legality: a choice
it refuses is a :class:`~qwixx_math.arena.faults.Fault` with the rule id of the
:class:`~qwixx_math.errors.IllegalMoveError`, and that seat passes for that
choice.  So are a player's protocol faults (malformed or late replies, a
program that exits, a built-in player that raises).  Under the dialect switches
``simultaneous_close=False`` and ``end_check=sequential`` a mark that is legal
on its own can be refused because of another player's simultaneous choice;
that seat passes too, but it is no fault (nobody could know).

Every game of a match is played on one sheet layout (``layout``, the official
sheet by default; :mod:`qwixx_math.layouts`: ``mixx-a``, ``mixx-b``,
``double-b``, ``longo``, ``longo:5,13``, ...): every seat gets an empty sheet of it,
the dice have the layout's faces (8 on a Longo sheet, LG1), and the rules core reads
it for every choice (Longo's two lock numbers, LG2, and its lucky crosses, LG3-LG5).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalMoveError, ParseError, check_whole_number
from ..layouts import LAYOUTS, OFFICIAL, SheetLayout, layout_named
from ..model import Mark
from ..play import Dice, play
from ..players.base import Player
from ..rules import GameState, legal_action1, new_game
from ..ruleset import Ruleset, ruleset_for
from .faults import CRASH, MALFORMED, Fault, PlayerFault

__all__ = ["MAX_GAMES", "MAX_PLAYERS", "MIN_PLAYERS", "GameResult", "MatchResult",
           "Progress", "check_games", "check_layout", "play_match"]

#: Players at an arena table (R3: the official game is for 2 to 5).
MIN_PLAYERS = 2
MAX_PLAYERS = 5
#: Games a match may have.
MAX_GAMES = 10_000_000

#: ``progress(done, total)`` after each game.
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a match.  Tuples indexed by *player* (the order given) unless named
    by seat.

    ``seats[s]`` is the player in seat ``s``; ``scores`` the final totals;
    ``winners`` the players with the highest total (ties share the win, R18);
    ``turns`` the turns played; ``ended_by`` ``"R13"`` (a fourth penalty) or
    ``"R14"`` (a second colour closed); ``enders`` the players whose fourth penalty
    or whose closing in the last turn ended the game; ``rows_closed`` the colours
    each player locked; ``final`` the final state (sheets by seat).
    """

    game: int
    deal: int
    rotation: int
    seats: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    ended_by: str
    enders: tuple[int, ...]
    rows_closed: tuple[int, ...]
    final: GameState = field(repr=False, compare=False)

    def share(self, player: int) -> float:
        """The player's share of the win: 1/k for each of k winners, else 0."""
        return 1.0 / len(self.winners) if player in self.winners else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "deal": self.deal, "rotation": self.rotation,
                "seats": list(self.seats), "scores": list(self.scores),
                "winners": list(self.winners), "turns": self.turns,
                "ended_by": self.ended_by, "enders": list(self.enders),
                "rows_closed": list(self.rows_closed)}


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A whole match: the players' names (in the order given), its seed and ruleset,
    every game in order, every fault in order, the seconds it took, the sheet layout
    played and the players' notes (``notes[i]``: what player ``i`` says of how it plays
    this layout, e.g. a fallback; ``""`` for nothing)."""

    players: tuple[str, ...]
    seed: int
    ruleset: Ruleset
    games: tuple[GameResult, ...]
    faults: tuple[Fault, ...]
    seconds: float = field(default=0.0, compare=False)
    layout: SheetLayout = OFFICIAL
    notes: tuple[str, ...] = ()

    @property
    def deals(self) -> int:
        return len(self.games) // len(self.players)


class _Referee:
    """Plays the games of one match and collects the faults."""

    def __init__(self, players: Sequence[Player], names: tuple[str, ...], ruleset: Ruleset,
                 layout: SheetLayout) -> None:
        self.players = players
        self.names = names
        self.ruleset = ruleset
        self.layout = layout
        self.faults: list[Fault] = []
        self.game = 0
        self.seated: Sequence[Player] = players
        self.order: tuple[int, ...] = ()

    def fault(self, seat: int, request: str, turn: int, rule: str, message: str) -> None:
        player = self.order[seat]
        self.faults.append(Fault(self.game, turn, seat, player, self.names[player],
                                 request, rule, message))

    def ask(self, request: str, seat: int, state: GameState) -> Mark | None:
        """A seat's choice, or None after a fault (recorded)."""
        player = self.seated[seat]
        try:
            if request == "action1":
                mark = player.action1(seat, state)
            else:
                mark = player.action2(seat, state)
        except PlayerFault as exc:
            self.fault(seat, request, state.turn + 1, exc.rule, str(exc))
            return None
        except Exception as exc:  # a player's bug must not stop the match
            self.fault(seat, request, state.turn + 1, CRASH,
                       f"{CRASH}: {type(exc).__name__}: {exc}")
            return None
        if mark is not None and not isinstance(mark, Mark):
            self.fault(seat, request, state.turn + 1, MALFORMED,
                       f"{MALFORMED}: answered {mark!r}, not a Mark or None")
            return None
        return mark

    def tell(self, request: str, seat: int, state: GameState) -> None:
        """new_game or game_over (no answer)."""
        player = self.seated[seat]
        turn = state.turn + 1 if request == "game_over" else 0
        try:
            if request == "new_game":
                player.new_game(seat, state)
            else:
                player.game_over(seat, state)
        except PlayerFault as exc:
            self.fault(seat, request, turn, exc.rule, str(exc))
        except Exception as exc:  # a player's bug must not stop the match
            self.fault(seat, request, turn, CRASH, f"{CRASH}: {type(exc).__name__}: {exc}")

    def refused(self, request: str, state: GameState, seat: int, mark: Mark,
                exc: IllegalMoveError) -> None:
        """The rules core refused a seat's choice: a fault, unless the mark was legal on its
        own and refused for another seat's simultaneous choice (R10, R14 sequential)."""
        if request == "action2" or mark not in legal_action1(state, seat):
            self.fault(seat, request, state.turn + 1, exc.rule, str(exc))

    def play(self, game: int, deal: int, rotation: int, dice: Dice) -> GameResult:
        n = len(self.players)
        self.game = game
        order = tuple((s - rotation) % n for s in range(n))  # order[seat] = player
        self.order = order
        self.seated = [self.players[i] for i in order]
        state = new_game(ruleset=self.ruleset, layout=self.layout)
        for seat in range(n):
            self.tell("new_game", seat, state)
        played = play([_Seat(self, seat) for seat in range(n)], state, dice,
                      refused=self.refused)
        state = played.final
        for seat in range(n):
            self.tell("game_over", seat, state)
        return _result(game, deal, rotation, order, played.turns[-1].start, state)


class _Seat:
    """A seated player as :func:`~qwixx_math.play.play` sees it: the referee asks it, so a
    protocol fault is recorded and the seat passes."""

    __slots__ = ("name", "referee", "seat")

    def __init__(self, referee: _Referee, seat: int) -> None:
        self.referee = referee
        self.seat = seat
        self.name = referee.names[referee.order[seat]]

    def new_game(self, seat: int, state: GameState) -> None:
        self.referee.tell("new_game", seat, state)

    def action1(self, seat: int, state: GameState) -> Mark | None:
        return self.referee.ask("action1", seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return self.referee.ask("action2", seat, state)

    def game_over(self, seat: int, state: GameState) -> None:
        self.referee.tell("game_over", seat, state)


def _result(game: int, deal: int, rotation: int, order: tuple[int, ...], before: GameState,
            final: GameState) -> GameResult:
    """The result of a game that went from ``before`` (its last turn's start) to ``final``."""
    n = len(order)
    seat_of = [0] * n
    for seat, player in enumerate(order):
        seat_of[player] = seat
    sheets = final.sheets
    scores = tuple(sheets[seat_of[i]].score for i in range(n))
    best = max(scores)
    winners = tuple(i for i in range(n) if scores[i] == best)
    assert final.ended_by is not None
    if final.ended_by == "R13":
        enders = tuple(i for i in range(n) if sheets[seat_of[i]].penalties >= 4)
    else:
        enders = tuple(i for i in range(n)
                       if sheets[seat_of[i]].locked - before.sheets[seat_of[i]].locked)
    rows = tuple(len(sheets[seat_of[i]].locked) for i in range(n))
    return GameResult(game, deal, rotation, order, scores, winners, final.turn + 1,
                      final.ended_by, enders, rows, final)


def check_games(games: object, players: int) -> int:
    """``games`` if it is a whole number of deals for ``players`` players; ParseError if not."""
    games = check_whole_number("games", games, 1, MAX_GAMES)
    if games % players:
        low = games - games % players
        options = f"{low} or {low + players}" if low else str(players)
        raise ParseError(f"games must be a multiple of the {players} players, so that each "
                         f"sits in every seat equally often on the same dice: try {options}, "
                         f"not {games}")
    return games


def check_layout(layout: object) -> SheetLayout:
    """The sheet layout ``layout`` names (a :class:`~qwixx_math.layouts.SheetLayout`, a
    published name or a spelled-out layout key); ParseError listing the names if none.

    >>> check_layout("double-b").lock_threshold
    7
    >>> check_layout("double")
    Traceback (most recent call last):
    ...
    qwixx_math.errors.ParseError: unknown layout 'double'; expected one of official, ...
    """
    if not isinstance(layout, (SheetLayout, str)):
        raise ParseError(f"a layout is a SheetLayout or one of {', '.join(LAYOUTS)}, "
                         f"not {type(layout).__name__}")
    return layout_named(layout)


def play_match(players: Sequence[Player], games: int, seed: int,
               ruleset: Ruleset | None = None, progress: Progress | None = None,
               names: Sequence[str] | None = None,
               layout: SheetLayout | str = OFFICIAL) -> MatchResult:
    """Play ``games`` games (a multiple of the number of players; see the module
    docstring) with dice from ``seed``, under ``ruleset`` (default: the official game
    for this many players), every seat on an empty sheet of ``layout`` (a SheetLayout
    or a layout name, default the official sheet; see :func:`check_layout`).  ``names``
    name the players in the reports (default: their ``name``).  The players are not
    closed afterwards.  A player with a ``note`` attribute (text) has it in
    :attr:`MatchResult.notes`."""
    players = list(players)
    layout = check_layout(layout)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ParseError(f"R3: an arena match is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {len(players)}")
    for p in players:
        if not isinstance(p, Player):
            raise ParseError(f"{p!r} is not a Player (qwixx_math.players.base.Player)")
    n = len(players)
    games = check_games(games, n)
    seed = check_whole_number("seed", seed, 0, 2**63 - 1)
    ruleset = ruleset_for(ruleset, n)
    if names is None:
        names = [p.name for p in players]
    elif len(names) != n or not all(isinstance(x, str) for x in names):
        raise ParseError(f"names must be {n} strings, one per player")
    start = time.perf_counter()
    referee = _Referee(players, tuple(names), ruleset, layout)
    results: list[GameResult] = []
    for deal in range(games // n):
        dice = Dice.deal(seed, deal)
        for rotation in range(n):
            results.append(referee.play(len(results) + 1, deal, rotation, dice))
            if progress is not None:
                progress(len(results), games)
    notes = tuple(_note(p) for p in players)
    return MatchResult(tuple(names), seed, ruleset, tuple(results),
                       tuple(referee.faults), time.perf_counter() - start, layout, notes)


def _note(player: Player) -> str:
    """What ``player`` says of how it plays (its ``note``, if it is text)."""
    note = getattr(player, "note", "")
    return note if isinstance(note, str) else ""
