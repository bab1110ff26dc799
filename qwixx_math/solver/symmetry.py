"""The symmetry group of a solitaire variant, found by search.

A symmetry relabels the rows (each row's lock colour, and so its die), the
colours of the cells with them, and possibly flips every die, d -> 7-d (which
maps the white sum S to 14-S and every colour sum n to 14-n; with 8-sided dice,
Qwixx Longo, d -> 9-d and n -> 18-n), so that the sheet
is mapped onto itself: the cell at position p of row i, showing n in the colour
of die d, goes to position p of row g[i], which must show n (or 14-n when
flipped) in the colour of die g[d].  Then every turn of a position maps to a
turn of its image with the same marks at the same positions, so the value is
unchanged (the property tests check this on every layout).

:func:`symmetry_group` tries every row permutation with and without the flip
(4! x 2 = 48 candidates at most).  The official sheet has a group of order 8
(red <-> yellow, green <-> blue, and the flip with red <-> green, yellow <->
blue); Qwixx Mixx A has order 2 (the flip with rows 1 <-> 3 and 2 <-> 4,
colours red <-> green and yellow <-> blue); Mixx B has none but the identity.
A double cell (DB1) must go to a double cell at the same position: Double B
keeps red <-> yellow and green <-> blue (order 4), ``double-b-alt`` (the same
positions doubled in every row) the flip too (order 8).

Row states are positional (last position, count), so a group element acts on
a state by permuting its rows only.  An element is a tuple ``g`` with
``g[i]`` the row that row ``i`` goes to; the state ``x`` maps to ``y`` with
``y[g[i]] = x[i]``.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from .variant import Variant

__all__ = [
    "Permutation",
    "closed_set_orbits",
    "is_symmetry",
    "map_mask",
    "stabiliser",
    "symmetry_group",
    "trivial_group",
]

Permutation = tuple[int, ...]


def is_symmetry(variant: Variant, perm: Permutation, flip: bool) -> bool:
    """Whether relabelling row (and die) ``i`` as ``perm[i]``, with every die flipped
    when ``flip``, maps ``variant``'s sheet onto itself (the X-Change track too: the
    flip must map every field's pair onto itself, XC1; rows do not touch the track), the
    boxed cells and the bonus bar (BA1: a row whose colour is on the bar keeps its place),
    the chain pairs (CC1), and the lucky numbers onto themselves (LG3: the fewest crosses
    are the same after any row permutation)."""
    top = 2 * variant.faces + 2
    if flip and any({top - a, top - b} != {a, b} for a, b in variant.sheet.exchange):
        return False
    if any(perm[r] != r for r in variant.bar_rows):
        return False  # the bonus bar's fields keep their colours (BA1)
    if flip and {top - n for n in variant.lucky} != set(variant.lucky):
        return False  # the flip maps a lucky white sum S to top - S (LG3)
    pairs = set(variant.sheet.chain)
    if {tuple(sorted(((perm[r1], p1), (perm[r2], p2)))) for (r1, p1), (r2, p2) in pairs} \
            != pairs:
        return False  # a chain pair must go to a chain pair (CC1)
    for i in range(variant.rows):
        for p in range(variant.row_length):
            n = variant.number_at(i, p)
            d = variant.die_at(i, p)
            if variant.number_at(perm[i], p) != (2 * variant.faces + 2 - n if flip else n):
                return False
            if variant.die_at(perm[i], p) != (perm[d] if d >= 0 else -1):
                return False
            if variant.weight_at(perm[i], p) != variant.weight_at(i, p):
                return False  # a double cell must go to a double cell (DB1)
            if variant.is_step_at(perm[i], p) != variant.is_step_at(i, p):
                return False  # a step cell must go to a step cell (CS2)
            if variant.is_boxed_at(perm[i], p) != variant.is_boxed_at(i, p):
                return False  # a boxed cell must go to a boxed cell (BA1)
    return True


@lru_cache(maxsize=32)
def symmetry_group(variant: Variant) -> tuple[Permutation, ...]:
    """Every row permutation that is a symmetry of ``variant`` (with or without the
    die flip), identity first."""
    group: list[Permutation] = []
    for perm in itertools.permutations(range(variant.rows)):
        if any(is_symmetry(variant, perm, flip) for flip in (False, True)):
            group.append(perm)
    return tuple(group)


def map_mask(perm: Permutation, mask: int) -> int:
    """The image of a set of rows (a bit mask) under ``perm``."""
    out = 0
    for i, j in enumerate(perm):
        if mask >> i & 1:
            out |= 1 << j
    return out


def trivial_group(variant: Variant) -> tuple[Permutation, ...]:
    """The group of the identity only (to solve without exploiting symmetry)."""
    return (tuple(range(variant.rows)),)


def stabiliser(
    variant: Variant, mask: int, group: tuple[Permutation, ...] | None = None
) -> tuple[Permutation, ...]:
    """The elements of ``group`` (default: the symmetry group) that fix the row set ``mask``."""
    if group is None:
        group = symmetry_group(variant)
    return tuple(g for g in group if map_mask(g, mask) == mask)


def closed_set_orbits(
    variant: Variant, group: tuple[Permutation, ...] | None = None
) -> list[tuple[int, list[tuple[int, Permutation]]]]:
    """The sets of closed rows that leave the game running, grouped into orbits.

    Returns ``[(representative, [(mask, g), ...]), ...]`` where every ``mask`` of
    the orbit (the representative included, with the identity) is
    ``map_mask(g, representative)``.  Orbits are listed with more closed rows
    first (the order the solver needs), then by representative.  ``group``
    defaults to the symmetry group.
    """
    if group is None:
        group = symmetry_group(variant)
    seen: set[int] = set()
    orbits: list[tuple[int, list[tuple[int, Permutation]]]] = []
    masks = [
        mask
        for mask in range(1 << variant.rows)
        if mask.bit_count() < variant.closed_rows_to_end
    ]
    masks.sort(key=lambda mask: (-mask.bit_count(), mask))
    for rep in masks:
        if rep in seen:
            continue
        members: list[tuple[int, Permutation]] = []
        for g in group:
            image = map_mask(g, rep)
            if image not in seen:
                seen.add(image)
                members.append((image, g))
        orbits.append((rep, members))
    return orbits
