"""``qwixx-math advise``: rank every legal choice for a sheet and a roll, or for a game state.

    qwixx-math advise --sheet S --roll R [--passive] [--layout L]    (solitaire model)
    qwixx-math advise --players N --sheet S --roll R [--passive --before-me K]
    qwixx-math advise --state FILE [--player P] [--roll R] [--players N]
    qwixx-math advise --objective win --state FILE [--player P] [--rollouts K] [--seed S]
                      [--opponents NAME[,NAME...]] [--own-player NAME]

Without ``--players`` the sheet form ranks by the solitaire model, as it always
did.  ``--players N`` ranks by the exact table value of N players
(:mod:`qwixx_math.table`, ``docs/table.md``); ``--state`` always does, with N the
state's number of players.  The output names the model.  ``--objective win`` ranks
a state's choices by their estimated share of the win, by rollouts on common dice,
beside the exact table EV (:mod:`qwixx_math.winadvice`, docs/winning.md).

``--layout official|mixx-a|mixx-b`` (docs/mixx.md) names the printed sheet: a
sheet text that names its layout (``mixx-a|r:2/p:0``) or a state must be of that
layout (else exit 2); without ``--layout`` the sheet's or state's own layout is
used.  ``--objective win`` works on the official sheet only (its rollouts play the
arena's players, which are official-only).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..advice import Advice, Advisor
from ..errors import IllegalMoveError, ParseError
from ..files import read_text_bounded
from ..model import Roll, Sheet
from ..notation import format_roll, format_sheet, parse_roll, parse_sheet
from ..rules import GameState, Phase
from ..ruleset import Ruleset
from ..table import TableAdvisor, check_before_me, check_players
from ..winadvice import advise_win
from ._args import add_layout_argument, ascii_int, check_layout, layout_from_args, path_arg
from ._solitaire import add_solver_options, solitaire_ruleset

#: Largest game-state file read (a state is a few hundred bytes).
MAX_STATE_BYTES = 1 << 20


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "advise",
        help="rank every legal plan for a sheet and a roll by expected final score",
        description=(
            "Rank every legal plan (action-1 mark, action-2 mark, or neither = penalty) "
            "by the expected final score afterwards. Without --players: optimal solitaire "
            "play, opponents not modelled. With --players N (or --state): the exact table "
            "value of N players, where this player may mark the white sum of each other "
            "player's roll and the others never close a row or take a penalty. Colours "
            "whose die is missing from the roll are taken as closed (by another player "
            "when the sheet has no lock there). The solver table is built on first use "
            "(20 to 40 seconds per table) and cached. With --objective win and --state: "
            "every choice's share of the win (ties shared), estimated by rollouts on common "
            "dice played by arena players (win by default), with its standard error and 95% "
            "interval, beside the exact table EV (docs/winning.md)."
        ),
    )
    p.add_argument("--sheet", help="the sheet, e.g. 'r:2,3/y:-/g:12/b:-/p:0'")
    p.add_argument("--roll", help="the roll, e.g. 'w:3,5/r:1/y:2/g:6/b:4'")
    p.add_argument("--passive", action="store_true",
                   help="advise a non-active player (white sum only, no penalty)")
    p.add_argument("--players", type=ascii_int(), default=None, metavar="N",
                   help="rank by the exact value at a table of N players (1 to 5)")
    p.add_argument("--before-me", type=ascii_int(), default=None, metavar="K",
                   help="with --players and --passive: the other players' rolls before "
                        "this player's next own roll, this one included (1 to N-1)")
    p.add_argument("--state", type=path_arg, metavar="FILE",
                   help="a game state (GameState JSON, docs/notation.md) in any phase")
    p.add_argument("--player", type=ascii_int(), default=None, metavar="P",
                   help="with --state: the player to advise (0-based; default the active one)")
    p.add_argument("--top", type=ascii_int(), default=None, metavar="N",
                   help="show only the N best plans")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--objective", choices=("ev", "win"), default="ev",
                   help="ev (default): rank by expected final score; win: with --state, rank "
                        "by the share of the win estimated by rollouts on common dice, beside "
                        "the exact table EV")
    p.add_argument("--rollouts", type=ascii_int(), default=None, metavar="K",
                   help="with --objective win: rollouts per choice (default: as many as fit "
                        "a budget of players' decisions, under a second, at least 2)")
    p.add_argument("--seed", type=ascii_int(), default=None, metavar="S",
                   help="with --objective win: the seed of the rollouts' dice (default 0)")
    p.add_argument("--opponents", default=None, metavar="NAME[,NAME...]",
                   help="with --objective win: the arena player (e.g. win, racer, greedy) of "
                        "every other seat in the rollouts, or one per other seat in seat "
                        "order (default win)")
    p.add_argument("--own-player", default=None, metavar="NAME",
                   help="with --objective win: the arena player of the advised seat's later "
                        "decisions in the rollouts (default win)")
    add_layout_argument(p, "the sheet text or the state")
    add_solver_options(p, "no progress bar while solving")
    p.set_defaults(func=run)


def position(sheet: Sheet, roll_text: str, ruleset: Ruleset, passive: bool = False,
             seat: int | None = None) -> GameState:
    """The state of ``sheet`` after ``roll`` (closed colours read off the roll).

    The sheet is player ``seat``'s in a game of ``ruleset.players`` whose active
    player 0 rolled and whose other sheets are empty (an empty sheet cannot change
    what this player may do).  Without ``seat``: an active player in a one-player
    game, or (``passive``) player 1 of a two-player game.
    """
    roll = parse_roll(roll_text)
    closed = frozenset(c for c in sheet.layout.locks if roll.die(c) is None)
    for colour in sheet.locked:
        if colour not in closed:
            raise IllegalMoveError(
                "R9", f"the sheet closed {colour.value}, so its die left play, but the roll "
                      f"has it ({format_roll(roll)})")
    if seat is None:
        seat = 1 if passive else 0
        # a colour closed that this sheet did not lock was closed by another player: a
        # one-player game cannot have it (R9), so the sheet plays in a two-player game
        others_closed = bool(closed - sheet.locked)
        ruleset = Ruleset(players=2 if passive or others_closed else 1,
                          action2_after_game_end=ruleset.action2_after_game_end)
    empty = Sheet.empty(sheet.layout)
    sheets = tuple(sheet if i == seat else empty for i in range(ruleset.players))
    return GameState(ruleset, sheets, closed=closed | sheet.locked).with_roll(roll)


def _sheet_advice(args: argparse.Namespace, progress: bool | None
                  ) -> tuple[Advice, GameState, Sheet, dict[str, object]]:
    if args.sheet is None or args.roll is None:
        raise ParseError("give --sheet and --roll (or --state FILE)")
    if args.player is not None:
        raise ParseError("--player goes with --state; with --sheet the sheet is the player's")
    sheet = parse_sheet(args.sheet, layout_from_args(args))
    layout = sheet.layout
    if args.players is None:
        if args.before_me is not None:
            raise ParseError("--before-me needs --players N (the solitaire model has no "
                             "other players)")
        ruleset = solitaire_ruleset(args)
        rolled = position(sheet, args.roll, ruleset, args.passive)
        advisor = Advisor.for_ruleset(ruleset, progress=progress, layout=layout)
        advice = advisor.advise_passive(rolled, 1) if args.passive else advisor.advise(rolled)
        return advice, rolled, sheet, {}
    n = check_players(args.players)
    if args.passive:
        if args.before_me is None:
            raise ParseError("--passive with --players needs --before-me K: the other "
                             "players' rolls before your next own roll, this one included")
        k = check_before_me(args.before_me, n)
        if k == 0:
            raise ParseError("R12: --before-me 0 means this is your own roll; drop --passive")
    else:
        k = 0 if args.before_me is None else check_before_me(args.before_me, n)
        if k != 0:
            raise ParseError("R12: on your own roll no other player rolls before it; "
                             "--before-me K > 0 needs --passive")
    ruleset = Ruleset(players=n, action2_after_game_end=args.action2_after_game_end)
    # player 0 rolls now; the player at seat k has k rolls (this one included) before theirs
    rolled = position(sheet, args.roll, ruleset, seat=k)
    advisor = TableAdvisor.for_ruleset(ruleset, players=n, progress=progress, layout=layout)
    advice = advisor.advise_passive(rolled, k) if args.passive else advisor.advise(rolled)
    return advice, rolled, sheet, {"players": n, "before_me": k}


def _read_state(path: str) -> GameState:
    text = read_text_bounded(path, MAX_STATE_BYTES, "game state")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"the state file {path} is not JSON: {exc}") from None
    return GameState.from_json(data)


def _load_state(args: argparse.Namespace) -> tuple[GameState, Roll | None]:
    """The state of ``--state`` and the roll of ``--roll``, checked against the options."""
    if args.sheet is not None or args.passive or args.before_me is not None:
        raise ParseError("--state gives every sheet and whose turn it is; drop --sheet, "
                         "--passive and --before-me")
    state = _read_state(args.state)
    check_layout(args, state.layout, "the state")
    n = state.players
    if args.players is not None and check_players(args.players) != n:
        raise ParseError(f"R3: --players {args.players} but the state has {n} players")
    if args.action2_after_game_end and not state.ruleset.action2_after_game_end:
        raise ParseError("R15: the state's ruleset forbids action 2 after the game ends; "
                         "drop --action2-after-game-end")
    roll = None
    if args.roll is not None:
        if state.phase is not Phase.ROLL:
            raise ParseError(f"the state is in the {state.phase.value} phase; --roll goes "
                             "with a state in the roll phase")
        roll = parse_roll(args.roll)
    elif state.phase is Phase.ROLL:
        raise ParseError("the state waits for the roll: give --roll")
    return state, roll


def _state_advice(args: argparse.Namespace, progress: bool | None
                  ) -> tuple[Advice, GameState, Sheet, dict[str, object]]:
    state, roll = _load_state(args)
    n = state.players
    player = state.active if args.player is None else args.player
    advisor = TableAdvisor.for_ruleset(state.ruleset, players=n, progress=progress,
                                       layout=state.layout)
    advice = advisor.advise_player(state, player, roll)
    rolled = state if roll is None else state.with_roll(roll)
    extra: dict[str, object] = {"players": n, "phase": rolled.phase.value}
    if advice.passive:
        extra["before_me"] = (player - state.active) % n
    return advice, rolled, rolled.sheets[player], extra


_WIN_OPTIONS = ("rollouts", "seed", "opponents", "own_player")


def _win_run(args: argparse.Namespace, progress: bool | None) -> int:
    """``--objective win``: the choices ranked by their estimated share of the win."""
    if args.state is None:
        raise ParseError("--objective win needs --state FILE: the chance to win depends on "
                         "every sheet at the table and whose turn it is")
    state, roll = _load_state(args)
    if not state.layout.is_official:
        raise ParseError(f"--objective win works on the official sheet only (its rollouts "
                         f"play the arena's players); the state is of layout "
                         f"{state.layout.name}: use --objective ev")
    opponents: str | list[str] = "win"
    if args.opponents is not None:
        names = [name.strip() for name in args.opponents.split(",")]
        opponents = names[0] if len(names) == 1 else names
    advice = advise_win(state, args.player, roll=roll, rollouts=args.rollouts,
                        seed=0 if args.seed is None else args.seed, opponents=opponents,
                        own="win" if args.own_player is None else args.own_player,
                        progress=progress)
    rolled = state if roll is None else state.with_roll(roll)
    sheet = rolled.sheets[advice.player]
    roll_text = format_roll(rolled.roll) if rolled.roll is not None else "-"
    if args.json:
        out = advice.to_json()
        if args.top is not None:
            out["choices"] = out["choices"][: args.top]
        out.update({"sheet": format_sheet(sheet), "roll": roll_text,
                    "players": rolled.players})
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return 0
    print(f"player {advice.player}   sheet {format_sheet(sheet)}   roll {roll_text}"
          f"{'   (passive player)' if advice.passive else ''}   objective: win")
    print(advice.to_text(args.top))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.top is not None and args.top < 1:
        raise ParseError("--top must be at least 1")
    progress = False if args.quiet else None
    if args.objective == "win":
        return _win_run(args, progress)
    given = [f"--{name.replace('_', '-')}" for name in _WIN_OPTIONS
             if getattr(args, name) is not None]
    if given:
        raise ParseError(f"{', '.join(given)}: only with --objective win")
    if args.state is not None:
        advice, rolled, sheet, extra = _state_advice(args, progress)
    else:
        advice, rolled, sheet, extra = _sheet_advice(args, progress)
    shown = advice.plans if args.top is None else advice.plans[: args.top]
    roll_text = format_roll(rolled.roll) if rolled.roll is not None else None
    if args.json:
        out = Advice(advice.player, advice.passive, shown, advice.model,
                     advice.layout).to_json()
        if args.state is None:
            del out["player"]
        out["sheet"] = format_sheet(sheet)
        out["roll"] = roll_text
        out.update(extra)
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return 0
    who = f"player {advice.player}   " if args.state is not None else ""
    print(f"{who}sheet {format_sheet(sheet)}   roll {roll_text or '-'}"
          f"{'   (passive player)' if advice.passive else ''}")
    print(f"{'rank':>4}  {'plan':<9} {'expected':>9} {'loss':>8}  in words")
    for rank, ranked in enumerate(shown, start=1):
        print(f"{rank:>4}  {ranked.plan!s:<9} {ranked.expected_score:9.3f} "
              f"{ranked.loss:8.3f}  {ranked.describe(advice.layout)}")
    if args.top is not None and len(shown) < len(advice.plans):
        print(f"({len(advice.plans) - len(shown)} more plans; drop --top to see them)")
    if "players" in extra:
        after = ""
        before = extra.get("before_me")
        if advice.passive and isinstance(before, int):
            after = f"; {before - 1} other roll(s) before this player's own after this one"
        print(f"Expected final score by the model: {advice.model}{after}.")
    else:
        print("Expected final score under optimal solitaire play afterwards; opponents are "
              "not modelled.")
    return 0
