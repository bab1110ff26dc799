"""The symmetry group of a solitaire variant.

Two kinds of relabelling leave the game unchanged (SOLVER.md):

* permuting rows of the same direction (red <-> yellow, green <-> blue), and
* the die flip d -> 7-d, which maps the white sum S to 14-S and a colour sum
  n to 14-n, so the number at position p of an ascending row (2+p) becomes
  the number at position p of a descending row (12-p).  Together with a
  permutation that sends every ascending row to a descending one and back, it
  maps the game onto itself; that exists when there are as many ascending as
  descending rows.

Row states are positional (last position, count), so a group element acts on
a state by permuting its rows only.  An element is a tuple ``g`` with
``g[i]`` the row that row ``i`` goes to; the state ``x`` maps to ``y`` with
``y[g[i]] = x[i]``.  The official game has a group of order 8.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from .variant import Variant

__all__ = [
    "Permutation",
    "closed_set_orbits",
    "map_mask",
    "stabiliser",
    "symmetry_group",
    "trivial_group",
]

Permutation = tuple[int, ...]


@lru_cache(maxsize=32)
def symmetry_group(variant: Variant) -> tuple[Permutation, ...]:
    """Every row permutation that is a symmetry of ``variant``, identity first."""
    dirs = variant.directions
    group: list[Permutation] = []
    for perm in itertools.permutations(range(variant.rows)):
        keeps = all(dirs[perm[i]] is dirs[i] for i in range(variant.rows))
        flips = all(dirs[perm[i]] is not dirs[i] for i in range(variant.rows))
        if keeps or flips:
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
