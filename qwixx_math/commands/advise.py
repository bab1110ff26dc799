"""``qwixx-math advise``: rank every legal choice for sheets and a roll, or for a game state.

    qwixx-math advise --sheet S --roll R [--closed C] [--passive] [--layout L]  (solitaire)
    qwixx-math advise --players N --sheet S --roll R [--closed C] [--passive [--before-me K]]
    qwixx-math advise --players N --sheet S1 ... --sheet SN --me K --roll R
                      [--passive [--before-me K]] [--objective ev|win]
    qwixx-math advise --state FILE [--player P] [--roll R] [--players N]
                      [--objective ev|win]
    win options: [--rollouts K | --budget D] [--seed S] [--opponents NAME[,NAME...]]
                 [--own-player NAME]

One ``--sheet`` and no ``--players``: the solitaire model, as it always was.
``--players N`` with one ``--sheet``: the exact table value of N players
(:mod:`qwixx_math.table`, ``docs/table.md``), the other sheets empty.  One ``--sheet``
per seat in seat order with ``--me K`` (counted from 1): the whole table; the active
seat is K itself, or with ``--passive`` the seat ``--before-me`` rolls before K
(default 1 at a table of 2).  ``--state`` gives the whole table as a file.  The
closed colours are read from the sheets' locks (and, with one ``--sheet``, from
``--closed C``: the colours other players closed, as ``value --closed`` takes them),
never from the roll: a roll without the die of an open colour is an error that
names the die (R4).

``--objective win`` (2 to 5 players; every sheet: ``--state`` or one ``--sheet`` per
seat) ranks the choices by their share of the win, beside the exact table EV and the
``win`` model's estimate (:mod:`qwixx_math.winadvice`, docs/advice.md): by default the
rollouts go on until the first choice is separated from the second at 95% or a budget
of players' decisions (about 2 seconds) runs out, and the output says which;
``--rollouts K`` plays exactly K per choice instead.  The same position gives the same
answer on any machine: the budget counts decisions, not seconds, and the seed is 0
unless ``--seed`` is given.

Every count has an upper limit checked before any work: ``--players`` 1 to 5,
``--me`` 1 to 5, ``--before-me`` 0 to 4, ``--player`` 0 to 4, ``--top`` 1 to
:data:`MAX_TOP`, ``--rollouts`` 2 to :data:`~qwixx_math.winadvice.MAX_ROLLOUTS`,
``--budget`` 1 to :data:`~qwixx_math.winadvice.MAX_BUDGET`, ``--seed`` 0 to 2**63-1,
and a state's file (1 MiB) and ``turn``
(:data:`~qwixx_math.position.MAX_STATE_TURN`).

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

from ..advice import Advice, Advisor, in_words
from ..errors import ParseError
from ..model import Roll, Sheet
from ..notation import format_roll, format_sheet, parse_colours, parse_roll, parse_sheet
from ..position import position, read_state, sheet_position
from ..rules import GameState, Phase
from ..ruleset import MAX_PLAYERS
from ..table import TableAdvisor, check_players
from ..winadvice import (
    MAX_BUDGET,
    MAX_ROLLOUTS,
    SEPARATE_BUDGET,
    WinAdvice,
    advise_win,
    advise_win_separated,
)
from ._args import (
    add_layout_argument,
    add_rollout_arguments,
    ascii_int,
    check_layout,
    layout_from_args,
    path_arg,
    rollout_players,
)
from ._solitaire import add_solver_options, announce_solve, solitaire_ruleset

#: The most plans ``--top`` may ask for (a turn has at most a few dozen choices).
MAX_TOP = 1000
#: The largest ``--seed``.
MAX_SEED = 2**63 - 1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "advise",
        help="rank every legal plan for sheets and a roll by expected final score or "
             "chance to win",
        description=(
            "Rank every legal plan (action-1 mark, action-2 mark, or neither = penalty) "
            "by the expected final score afterwards. Without --players: optimal solitaire "
            "play, opponents not modelled. With --players N (or --state): the exact table "
            "value of N players, where this player may mark the white sum of each other "
            "player's roll and the others never close a row or take a penalty. Give one "
            "--sheet per seat with --me K for the whole table. Closed colours are read "
            "from the sheets' locks: the roll must show the die of every open colour. "
            "The solver table is built on first use (20 to 40 seconds per table) and "
            "cached. With --objective win (--state, or one --sheet per seat): every "
            "choice's share of the win, estimated by rollouts on common dice played by "
            "arena players (win by default) until the first choice is separated from the "
            "second at 95% or a budget of players' decisions (about 2 s) runs out, "
            "beside the exact table EV and the win model's estimate (docs/advice.md)."
        ),
    )
    p.add_argument("--sheet", action="append", default=None, metavar="S",
                   help="a sheet, e.g. 'r:2,3/y:-/g:12/b:-/p:0'; one per seat in seat order "
                        "with --me K (at most 5)")
    p.add_argument("--roll", help="the roll, e.g. 'w:3,5/r:1/y:2/g:6/b:4' (every open "
                                  "colour's die; a colour is closed only by a sheet's lock)")
    p.add_argument("--closed", default=None, metavar="C",
                   help="with one --sheet: colours other players closed, e.g. 'g,b' (the "
                        "rows the sheet locked are closed anyway); with one --sheet per "
                        "seat or --state the sheets say it")
    p.add_argument("--me", type=ascii_int(), default=None, metavar="K",
                   help="with one --sheet per seat: your seat, counted from 1 (1 to N)")
    p.add_argument("--passive", action="store_true",
                   help="advise a non-active player (white sum only, no penalty)")
    p.add_argument("--players", type=ascii_int(), default=None, metavar="N",
                   help="rank by the exact value at a table of N players (1 to 5)")
    p.add_argument("--before-me", type=ascii_int(), default=None, metavar="K",
                   help="with --players and --passive: the other players' rolls before "
                        "this player's next own roll, this one included (1 to N-1; "
                        "default 1 at a table of 2)")
    p.add_argument("--state", type=path_arg, metavar="FILE",
                   help="a game state (GameState JSON, docs/notation.md) in any phase")
    p.add_argument("--player", type=ascii_int(), default=None, metavar="P",
                   help="with --state: the player to advise (0-based; default the active one)")
    p.add_argument("--top", type=ascii_int(), default=None, metavar="N",
                   help=f"show only the N best plans (1 to {MAX_TOP})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--objective", choices=("ev", "win"), default="ev",
                   help="ev (default): rank by expected final score; win: rank by the share "
                        "of the win estimated by rollouts on common dice, beside the exact "
                        "table EV (--state, or one --sheet per seat)")
    add_rollout_arguments(
        p, f"exactly K rollouts per choice (2 to {MAX_ROLLOUTS}; default: until the first "
           "choice is separated from the second, within --budget)", "the advised seat",
        budget_help=f"the players' decisions the rollouts may spend (1 to {MAX_BUDGET}; "
                    f"default {SEPARATE_BUDGET}, about 2 s)")
    add_layout_argument(p, "the sheet text or the state")
    add_solver_options(p, "no progress bar while solving")
    p.set_defaults(func=run)


def _passive_before_me(args: argparse.Namespace, n: int) -> int:
    """The rolls before this player's own (0 on their own roll), from --passive and
    --before-me at a table of ``n`` (R12)."""
    if not args.passive:
        if args.before_me not in (None, 0):
            raise ParseError("R12: on your own roll no other player rolls before it; "
                             "--before-me K > 0 needs --passive")
        return 0
    if n < 2:
        raise ParseError("R12: a passive player needs another player to roll: --players 2 "
                         "or more")
    if args.before_me is None:
        if n == 2:
            return 1  # its only legal value
        raise ParseError(f"--passive at a table of {n} needs --before-me K: the other "
                         f"players' rolls before your next own roll, this one included "
                         f"(1 to {n - 1})")
    if args.before_me == 0:
        raise ParseError("R12: --before-me 0 means this is your own roll; drop --passive")
    if not 1 <= args.before_me <= n - 1:
        raise ParseError(f"R12: at a table of {n} a passive player's --before-me is 1 to "
                         f"{n - 1} (the other players' rolls before your next own roll, this "
                         f"one included), not {args.before_me}")
    return int(args.before_me)


def _sheets(args: argparse.Namespace) -> list[Sheet]:
    sheets = [parse_sheet(text, layout_from_args(args)) for text in args.sheet]
    for i, sheet in enumerate(sheets):
        check_layout(args, sheet.layout, f"sheet {i + 1}" if len(sheets) > 1 else "the sheet")
    return sheets


def _table(args: argparse.Namespace) -> tuple[GameState, int]:
    """The position of one ``--sheet`` per seat with ``--me``, and the advised seat."""
    n = len(args.sheet)
    if args.players is None:
        raise ParseError(f"{n} --sheet options: give --players {n} (one --sheet per seat "
                         f"in seat order) and --me K")
    if check_players(args.players) != n:
        raise ParseError(f"R3: --players {args.players} but {n} --sheet options; give one "
                         "--sheet per seat in seat order")
    if args.me is None:
        raise ParseError(f"one --sheet per seat: say which is yours with --me K (1 to {n})")
    if not 1 <= args.me <= n:
        raise ParseError(f"R3: --me {args.me}: the seats are 1 to {n}")
    if args.roll is None:
        raise ParseError("give --roll")
    seat = args.me - 1
    k = _passive_before_me(args, n)
    ruleset = solitaire_ruleset(args, n)
    return position(_sheets(args), args.roll, active=(seat - k) % n, ruleset=ruleset), seat


def _sheet_advice(args: argparse.Namespace, progress: bool | None
                  ) -> tuple[Advice, GameState, dict[str, object]]:
    if args.sheet is None or args.roll is None:
        raise ParseError("give --sheet and --roll (or --state FILE)")
    if args.player is not None:
        raise ParseError("--player goes with --state; with --sheet give --me K and one "
                         "--sheet per seat")
    if len(args.sheet) > 1:
        if args.closed is not None:
            raise ParseError("--closed goes with one --sheet; with one --sheet per seat the "
                             "sheets' locks say which colours are closed")
        rolled, seat = _table(args)
        n = rolled.players
        advisor = TableAdvisor.for_ruleset(rolled.ruleset, players=n, progress=progress,
                                           layout=rolled.layout)
        advice = advisor.advise_player(rolled, seat)
        extra: dict[str, object] = {"players": n, "me": seat + 1}
        if advice.passive:
            extra["before_me"] = (seat - rolled.active) % n
        return advice, rolled, extra
    if args.me is not None:
        raise ParseError("--me goes with one --sheet per seat; a single --sheet is yours")
    (sheet,) = _sheets(args)
    layout = sheet.layout
    if args.players is None:
        if args.before_me is not None:
            raise ParseError("--before-me needs --players N (the solitaire model has no "
                             "other players)")
        # passive, or colours closed by others: a two-player game, the other sheet empty
        others = parse_colours(args.closed or "-") - sheet.locked
        ruleset = solitaire_ruleset(args, 2 if args.passive or others else 1)
        rolled = sheet_position(sheet, args.roll, players=ruleset.players,
                                seat=1 if args.passive else 0, ruleset=ruleset,
                                closed=others)
        announce_solve(layout, ruleset, args.quiet)
        solo = Advisor.for_ruleset(ruleset, progress=progress, layout=layout)
        advice = solo.advise_passive(rolled, 1) if args.passive else solo.advise(rolled)
        return advice, rolled, {}
    n = check_players(args.players)
    k = _passive_before_me(args, n)
    ruleset = solitaire_ruleset(args, n)
    # player 0 rolls now; the player at seat k has k rolls (this one included) before theirs
    rolled = sheet_position(sheet, args.roll, players=n, seat=k, ruleset=ruleset,
                            closed=args.closed or "-")
    announce_solve(layout, ruleset, args.quiet, n)
    advisor = TableAdvisor.for_ruleset(ruleset, players=n, progress=progress, layout=layout)
    advice = advisor.advise_passive(rolled, k) if args.passive else advisor.advise(rolled)
    return advice, rolled, {"players": n, "before_me": k}


def _load_state(args: argparse.Namespace) -> tuple[GameState, Roll | None]:
    """The state of ``--state`` and the roll of ``--roll``, checked against the options."""
    if args.sheet is not None or args.passive or args.before_me is not None \
            or args.me is not None or args.closed is not None:
        raise ParseError("--state gives every sheet and whose turn it is; drop --sheet, "
                         "--me, --closed, --passive and --before-me")
    state = read_state(args.state)
    check_layout(args, state.layout, "the state")
    n = state.players
    if args.players is not None and check_players(args.players) != n:
        raise ParseError(f"R3: --players {args.players} but the state has {n} players")
    if args.action2_after_game_end and not state.ruleset.action2_after_game_end:
        raise ParseError("R15: the state's ruleset forbids action 2 after the game ends; "
                         "drop --action2-after-game-end")
    if args.player is not None and args.player >= n:
        raise ParseError(f"player {args.player} does not exist (the game has {n} players, "
                         "numbered from 0)")
    roll = None
    if args.roll is not None:
        if state.phase is not Phase.ROLL:
            raise ParseError(f"the state is in the {state.phase.value} phase; --roll goes "
                             "with a state in the roll phase")
        roll = parse_roll(args.roll, state.layout.faces)
    elif state.phase is Phase.ROLL:
        raise ParseError("the state waits for the roll: give --roll")
    return state, roll


def _state_advice(args: argparse.Namespace, progress: bool | None
                  ) -> tuple[Advice, GameState, dict[str, object]]:
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
    return advice, rolled, extra


_WIN_OPTIONS = ("rollouts", "budget", "seed", "opponents", "own_player")


def _win_run(args: argparse.Namespace, progress: bool | None) -> int:
    """``--objective win``: the choices ranked by their estimated share of the win."""
    if args.rollouts is not None and args.budget is not None:
        raise ParseError("--rollouts K plays exactly K rollouts per choice; --budget D goes "
                         "with the default (until separated): give one of them")
    if args.state is not None:
        state, roll = _load_state(args)
        player = args.player
    elif args.sheet is not None and len(args.sheet) > 1:
        if args.closed is not None:
            raise ParseError("--closed goes with one --sheet; with one --sheet per seat the "
                             "sheets' locks say which colours are closed")
        if args.player is not None:
            raise ParseError("--player goes with --state; with --sheet give --me K")
        state, player = _table(args)
        roll = None
    else:
        raise ParseError("--objective win needs every sheet at the table: --state FILE, or "
                         "--players N with one --sheet per seat and --me K (the chance to "
                         "win depends on every sheet)")
    if not state.layout.is_official:
        raise ParseError(f"--objective win works on the official sheet only (its rollouts "
                         f"play the arena's players); the sheets are of layout "
                         f"{state.layout.name}: use --objective ev")
    opponents, own = rollout_players(args)
    seed = 0 if args.seed is None else args.seed
    advice: WinAdvice
    if args.rollouts is not None:
        advice = advise_win(state, player, roll=roll, rollouts=args.rollouts, seed=seed,
                            opponents=opponents, own=own, progress=progress)
    else:
        advice = advise_win_separated(
            state, player, roll=roll, seed=seed, opponents=opponents, own=own,
            progress=progress, budget=SEPARATE_BUDGET if args.budget is None else args.budget)
    rolled = state if roll is None else state.with_roll(roll)
    sheet = rolled.sheets[advice.player]
    roll_text = format_roll(rolled.roll) if rolled.roll is not None else "-"
    shown = advice.choices if args.top is None else advice.choices[: args.top]
    words = [in_words(rolled, advice.player, c.ranked) for c in shown]
    if args.json:
        out = advice.to_json()
        out["choices"] = out["choices"][: len(shown)]
        for choice, text in zip(out["choices"], words, strict=True):
            choice["description"] = text
        out.update({"sheet": format_sheet(sheet), "roll": roll_text,
                    "players": rolled.players,
                    "sheets": [format_sheet(s) for s in rolled.sheets]})
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return 0
    seat = (f"seat {advice.player + 1}" if args.state is None
            else f"player {advice.player}")
    print(f"{seat}   sheet {format_sheet(sheet)}   roll {roll_text}"
          f"{'   (passive player)' if advice.passive else ''}   objective: win")
    print(advice.to_text(args.top, words))
    return 0


#: Every count option: its lowest and highest value, checked before any work starts.
_LIMITS = {"players": (1, MAX_PLAYERS), "me": (1, MAX_PLAYERS),
           "before_me": (0, MAX_PLAYERS - 1), "player": (0, MAX_PLAYERS - 1),
           "top": (1, MAX_TOP), "rollouts": (2, MAX_ROLLOUTS), "budget": (1, MAX_BUDGET),
           "seed": (0, MAX_SEED)}


def _check_counts(args: argparse.Namespace) -> None:
    """ParseError for a count option out of its documented range (R3 for a table size,
    R12 for a number of rolls)."""
    for name, (low, high) in _LIMITS.items():
        value = getattr(args, name)
        if value is not None and not low <= value <= high:
            rule = {"players": "R3: ", "before_me": "R12: "}.get(name, "")
            shown = f"{value:.3g}" if abs(value) >= 10**9 else str(value)
            if name == "player":
                raise ParseError(f"player {shown} does not exist (--player is 0 to {high}: "
                                 f"a table has at most {MAX_PLAYERS} players, numbered from 0)")
            raise ParseError(f"{rule}--{name.replace('_', '-')} must be {low} to {high}, "
                             f"not {shown}")


def run(args: argparse.Namespace) -> int:
    progress = not args.quiet
    _check_counts(args)
    if args.sheet is not None and len(args.sheet) > MAX_PLAYERS:
        raise ParseError(f"R3: {len(args.sheet)} --sheet options; a table has at most "
                         f"{MAX_PLAYERS} players")
    if args.objective == "win":
        return _win_run(args, progress)
    given = [f"--{name.replace('_', '-')}" for name in _WIN_OPTIONS
             if getattr(args, name) is not None]
    if given:
        raise ParseError(f"{', '.join(given)}: only with --objective win")
    if args.state is not None:
        advice, rolled, extra = _state_advice(args, progress)
    else:
        advice, rolled, extra = _sheet_advice(args, progress)
    sheet = rolled.sheets[advice.player]
    shown = advice.plans if args.top is None else advice.plans[: args.top]
    words = [in_words(rolled, advice.player, ranked) for ranked in shown]
    roll_text = format_roll(rolled.roll) if rolled.roll is not None else None
    if args.json:
        out = Advice(advice.player, advice.passive, shown, advice.model,
                     advice.layout).to_json()
        for plan, text in zip(out["plans"], words, strict=True):
            plan["description"] = text
        if args.state is None and "me" not in extra:
            del out["player"]
        out["sheet"] = format_sheet(sheet)
        out["roll"] = roll_text
        out.update(extra)
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return 0
    who = (f"player {advice.player}   " if args.state is not None
           else f"seat {advice.player + 1}   " if "me" in extra else "")
    print(f"{who}sheet {format_sheet(sheet)}   roll {roll_text or '-'}"
          f"{'   (passive player)' if advice.passive else ''}")
    print(f"{'rank':>4}  {'plan':<9} {'expected':>9} {'loss':>8}  in words")
    for rank, (ranked, text) in enumerate(zip(shown, words, strict=True), start=1):
        print(f"{rank:>4}  {ranked.plan!s:<9} {ranked.expected_score:9.3f} "
              f"{ranked.loss:8.3f}  {text}")
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
    print("In words: what a plan skips, closes and ends, if the other players pass.")
    return 0
