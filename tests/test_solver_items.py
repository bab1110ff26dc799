"""The solver's list of configurations to solve (kernel.level_items) against a plain
Python enumeration: every configuration by division, canonical when no image under
the table's stabiliser has a smaller flat index, grouped by its number of marks,
without those that have a row at a lower frozen code (engine.frozen_codes)."""

from __future__ import annotations

import numpy as np
import pytest

from qwixx_math.solver import Variant, kernel
from qwixx_math.solver.engine import frozen_codes
from qwixx_math.solver.layout import Layout
from qwixx_math.solver.symmetry import closed_set_orbits, stabiliser, symmetry_group

VARIANTS = [
    ("aadd", 3, 1, 1, 2),  # the official group of order 8
    ("ad", 5, 3, 2, 1),  # a frozen row (one mark on the 4th number) to skip
    ("aad", 5, 3, 2, 2),  # no flip, frozen codes to skip, one-closed tables in two orbits
    ("a", 6, 2, 3, 1),  # one row, the trivial group
]


def reference(strides_row: list[int], open_rows: list[int], perms: list[list[int]],
              code_marks: list[int], skip: set[int]) -> tuple[list[int], list[int], int]:
    k, n = len(open_rows), len(code_marks)
    by_level: dict[int, list[int]] = {}
    canonical = 0
    for config in range(n ** k):
        codes = [(config // n ** (k - 1 - t)) % n for t in range(k)]
        own = sum(strides_row[r] * c for r, c in zip(open_rows, codes, strict=True))
        if any(sum(strides_row[g[r]] * c for r, c in zip(open_rows, codes, strict=True)) < own
               for g in perms):
            continue
        canonical += 1
        if not skip & set(codes):
            by_level.setdefault(sum(code_marks[c] for c in codes), []).append(config)
    levels = k * max(code_marks) + 1
    items = [x for level in range(levels) for x in by_level.get(level, [])]
    starts = [0]
    for level in range(levels):
        starts.append(starts[-1] + len(by_level.get(level, [])))
    return items, starts, canonical


@pytest.mark.parametrize("spec", VARIANTS)
def test_level_items_match_a_plain_enumeration(spec: tuple[str, int, int, int, int]) -> None:
    variant = Variant.from_letters(*spec)
    layout = Layout.of(variant)
    group = symmetry_group(variant)
    lower = frozen_codes(variant, layout)[1]
    skip = np.zeros((variant.rows, variant.open_codes), dtype=np.bool_)
    skip[:, lower] = True
    for rep, _ in closed_set_orbits(variant, group):
        open_rows = np.array(layout.open_rows(rep), dtype=np.int64)
        perms = np.array(stabiliser(variant, rep, group), dtype=np.int64)
        perms = perms.reshape(-1, variant.rows)
        items, starts, canonical = kernel.level_items(
            layout.strides[rep], open_rows, perms, layout.code_marks, skip)
        want = reference([int(x) for x in layout.strides[rep]], open_rows.tolist(),
                         perms.tolist(), [int(x) for x in layout.code_marks], set(lower))
        assert (items.tolist(), starts.tolist(), canonical) == want
        # without a skip list: kernel.canonical_items, every canonical configuration
        all_items, all_starts = kernel.canonical_items(
            layout.strides[rep], open_rows, perms, layout.code_marks)
        want_all = reference([int(x) for x in layout.strides[rep]], open_rows.tolist(),
                             perms.tolist(), [int(x) for x in layout.code_marks], set())
        assert (all_items.tolist(), all_starts.tolist(), len(all_items)) == want_all
    assert bool(lower) == (spec[1:3] == (5, 3))  # the skip is exercised where expected
