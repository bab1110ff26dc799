"""``qwixx-math layouts``: the pads the library knows, with how sure it is of each.

    qwixx-math layouts [--json]
    qwixx-math layouts --show NAME|FILE

Without ``--show`` it lists every published layout: its name, its confidence label
(VARIANTS.md §0.3: checked, stated, reconstructed, unknown), what it adds to the official
sheet (double cells, step cells) and its source.  ``--show`` prints one layout in the JSON
form of a layout file (docs/layouts.md): a published one, as a start for a pad of your own,
or a file, which is checked field by field first (a malformed field: exit code 2).
"""

from __future__ import annotations

import argparse
import json

from ..layouts import LAYOUTS, SheetLayout
from ._args import layout_arg

__all__ = ["describe", "register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "layouts",
        help="list the pads (layouts) with their confidence labels, or show one as JSON",
        description=(
            "List the published score pads (--layout NAME) with how sure the project is "
            "of each (checked, stated, reconstructed, unknown; VARIANTS.md) and its source. "
            "--show NAME|FILE prints one layout in the JSON form of a layout file (a file "
            "is checked first). See docs/layouts.md."),
    )
    p.add_argument("--show", type=layout_arg, metavar="NAME|FILE",
                   help="print this layout as a layout file's JSON")
    p.add_argument("--json", action="store_true", help="the list as JSON")
    p.set_defaults(func=run)


def describe(layout: SheetLayout) -> str:
    """How ``layout`` differs from the official sheet, in a few words.

    >>> describe(LAYOUTS["mixx-b"]), describe(LAYOUTS["connected-steps"])
    ('numbers mixed', '11 step cells')
    """
    extras = []
    if any(len(set(colours)) > 1 for colours in layout.colours):
        extras.append("colours mixed")
    if any(list(numbers) not in (sorted(numbers), sorted(numbers, reverse=True))
           for numbers in layout.numbers):
        extras.append("numbers mixed")
    if layout.has_doubles:
        extras.append(f"double cells, lock at {layout.lock_threshold} crosses")
    if layout.steps:
        extras.append(f"{len(layout.steps)} step cells")
    if layout.chain:
        extras.append(f"{len(layout.chain)} chain pairs")
    if layout.faces != 6:
        extras.append(f"{layout.faces}-sided dice, rows of {max(map(len, layout.numbers))}")
    if layout.lock_cells != 1:
        extras.append(f"{layout.lock_cells} lock numbers at {layout.lock_threshold} crosses")
    if layout.bonus_rows:  # Big Points (BP1)
        extras.append("bonus rows RY and GB, rows score to 15 crosses")
    return ", ".join(extras) or "the official cells"


def run(args: argparse.Namespace) -> int:
    if isinstance(args.show, SheetLayout):
        print(json.dumps(args.show.to_json(), indent=2, ensure_ascii=False))
        return 0
    if args.json:
        print(json.dumps([la.to_json() for la in LAYOUTS.values()], indent=2,
                         ensure_ascii=False))
        return 0
    width = max(len(name) for name in LAYOUTS)
    for name, layout in LAYOUTS.items():
        print(f"{name:<{width}}  {layout.confidence.value:<13}  {describe(layout)}")
        print(f"{'':<{width}}  {layout.source}")
    return 0
