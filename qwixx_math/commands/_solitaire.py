"""Options shared by the commands that use the solitaire solver's table
(``advise``, ``distribution``, ``policies``, ``simulate``, ``solve``)."""

from __future__ import annotations

import argparse
import sys

from ..errors import ParseError
from ..layouts import SheetLayout
from ..ruleset import LuckyCandidates, LuckyMode, Ruleset
from ..solver import Variant
from ..solver.api import solved_variant
from ..solver.cache import cache_dir, table_filename
from ..solver.engine import check_table_model

__all__ = ["add_lucky_options", "add_solver_options", "announce_solve", "solitaire_ruleset",
           "solve_cost", "table_solve_cost"]

#: What a solitaire table cost to solve from an empty cache, as docs/variants.md reports
#: each pad's benchmark (CPU seconds, the steadier figure on the shared 2-core machine, and
#: peak memory), by layout name; ``longo:A,B`` under ``"longo:A,B"``, every staircase under
#: ``"connected-steps"``.
_SOLVE_COSTS = {
    "double-b": "97-107 s CPU, 1.5 GB of memory",
    "double-b-alt": "56-58 s CPU, 1.1 GB of memory",
    "double-a": "about 2,800 s CPU (about 50 min wall on 2 busy cores), 6.5-7.3 GB of "
                "memory and 6.3 GB of disk",
    "connected-steps": "290-470 s CPU, 4.1 GB of memory and disk",
    "connected-chain": "240-250 s CPU, 0.9 GB of memory",
    "longo": "280-290 s CPU, 2.7 GB of memory",
    "longo:A,B": "320-400 s CPU, 2.7 GB of memory",
    "x-change": "220-290 s CPU, 3.4 GB of memory and disk",
    "bonus-a": "228 s wall, 372 s CPU on 2 nearly idle cores, 4.4 GB of memory",
    "bonus-b": "2,820 s CPU (about 24 min on 2 idle cores), 5.6 GB of memory and disk",
}


#: What the official sheet's table-model table of N players cost to solve from an empty
#: cache, as docs/table.md reports bench_table.py (wall seconds at load 7.4 to 9.9, peak
#: memory), by N.  No other pad's table-model solve has been measured.
_TABLE_COSTS = {2: "124 s wall, 817 MiB", 3: "157 s wall, 1139 MiB",
                4: "151 s wall, 1460 MiB", 5: "140 s wall, 1782 MiB"}


def table_solve_cost(layout: SheetLayout, players: int) -> str:
    """What solving ``layout``'s table-model table of ``players`` (2 to 5) took where
    docs/table.md measured it (the official sheet), else that it is not measured, with
    the size against the solitaire table and that one's cost where known."""
    if layout.is_official and players in _TABLE_COSTS:
        return (f"measured at {_TABLE_COSTS[players]} of memory on a loaded 2-core machine "
                "(docs/table.md)")
    solitaire = solve_cost(layout)
    known = (f"; the solitaire table took {solitaire} (docs/variants.md)"
             if solitaire is not None else "")
    return (f"its cost is not measured: it holds {players} times the values of the "
            f"solitaire table (docs/table.md){known}")


def solve_cost(layout: SheetLayout) -> str | None:
    """What solving ``layout``'s solitaire table took where docs/variants.md measured it
    (None for a pad not listed there: the official sheet, Mixx, a layout file)."""
    name = layout.name
    if layout.lucky and name.startswith("longo:"):
        name = "longo:A,B"
    elif name.startswith("connected-steps"):
        name = "connected-steps"
    return _SOLVE_COSTS.get(name)


def announce_solve(layout: SheetLayout, ruleset: Ruleset, quiet: bool, players: int = 1
                   ) -> None:
    """Before a command that needs ``layout``'s table (solitaire, or the table model of
    ``players`` > 1): if the table is not in the cache, say on stderr that it is solved
    first and what that took when measured, so that a user of Double A is not left for
    hours with a bare progress line (nothing with ``quiet``, for a solitaire pad without
    figures, for a pad the table model refuses (the refusal follows), or when the table
    is cached).  A table-model table is always announced: what table, for how many
    players, and its measured cost or that it is not measured."""
    cost = solve_cost(layout) if players == 1 else table_solve_cost(layout, players)
    if quiet or cost is None:
        return
    variant = solved_variant(Variant(layout), ruleset)  # the table solve() names
    try:
        check_table_model(variant, players)
    except ParseError:
        return  # solve() refuses it, naming the rule
    directory = cache_dir()
    if (directory / table_filename(variant, ruleset.action2_after_action1_end,
                                   players)).exists():
        return
    if players == 1:
        print(f"note: the exact table of the {layout.name} sheet is not in the cache "
              f"({directory}); it is solved first, once, then cached: measured at {cost} "
              "(docs/variants.md); --quiet hides this note and the progress", file=sys.stderr)
        return
    print(f"note: the table model's table of the {layout.name} sheet for a table of "
          f"{players} players is not in the cache ({directory}); it is solved first, once, "
          f"then cached: {cost}; --quiet hides this note and the progress", file=sys.stderr)


def add_solver_options(parser: argparse.ArgumentParser, quiet_help: str = "no progress bar"
                       ) -> None:
    """Add ``--action2-after-game-end`` (the R15 Option), ``--xc-field-without-cross``
    (the XC4 Option), the lucky Options (:func:`add_lucky_options`) and ``--quiet``."""
    parser.add_argument("--action2-after-game-end", action="store_true",
                        help="R15 Option: the active player still takes action 2 after "
                             "action 1 ended the game")
    parser.add_argument("--xc-field-without-cross", action="store_true",
                        help="XC4 Option (Qwixx X-Change): an X-Change field may be spent "
                             "alone as the action-1 cross")
    add_lucky_options(parser)
    parser.add_argument("--quiet", action="store_true", help=quiet_help)


def add_lucky_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--lg-lucky-mode`` and ``--lg-lucky-candidates`` (the LG4 and LG5 Options of
    Qwixx Longo's lucky numbers, ``--layout longo:A,B``)."""
    parser.add_argument("--lg-lucky-mode", choices=[m.value for m in LuckyMode],
                        default=LuckyMode.INSTEAD.value,
                        help="LG4 Option (Qwixx Longo, --layout longo:A,B): the lucky cross "
                             "is the action-1 cross (instead, the default) or may follow it "
                             "(additional)")
    parser.add_argument("--lg-lucky-candidates", choices=[c.value for c in LuckyCandidates],
                        default=LuckyCandidates.OPEN_ROWS.value,
                        help="LG5 Option (Qwixx Longo): the fewest crosses among the open "
                             "rows (open_rows, the default) or among those with a next cell "
                             "(open_with_next_cell)")


def solitaire_ruleset(args: argparse.Namespace, players: int = 1) -> Ruleset:
    """The ruleset the options of :func:`add_solver_options` describe (one player
    unless ``players`` says otherwise)."""
    return Ruleset(players=players, action2_after_game_end=args.action2_after_game_end,
                   xc_field_without_cross=args.xc_field_without_cross,
                   lg_lucky_mode=LuckyMode(args.lg_lucky_mode),
                   lg_lucky_candidates=LuckyCandidates(args.lg_lucky_candidates))
