"""Where every value lives: the flat table layout and the row geometry arrays.

All tables of a variant share one flat float64 array.  For every set ``C`` of
closed rows that leaves the game running (fewer than ``closed_rows_to_end``
rows) there is a table ``W_C`` over the open rows and the penalties:

    V(state) = sum of row_points(marks) over the closed rows + W_C(open codes, s, penalties)

(``s``: the crossed step cells of every row, closed ones included; their points
T(final s) are part of ``W_C``.)

``W_C`` has shape ``(N,) * k + (S, P)`` in C order, with ``N`` open codes per row,
``k`` open rows (in increasing row index), ``P`` penalty boxes and ``S`` totals of
crossed step cells (Qwixx Connected, the Steps: 0 .. 11, since the fifth group scores
T(total), CS2; ``S`` = 1 on every other sheet).  The ``S * P`` values of one row
configuration (its **lanes**, lane ``s * P + p``) are innermost, so that they share
cache lines; a mark on a step cell reads lane ``s * P + p + P`` of where it leads.

On a sheet with a bonus bar (Qwixx Bonus, pad A, BA1) the lanes are the bar's fields up
to the last one taken, 0 .. 12 (:mod:`.bar`); a mark on a boxed cell moves them, and the
kernel plays those marks in :mod:`.bar` (``step_shift`` sends them out of every lane).

On a sheet with chain pairs (Qwixx Connected, the Chain, CC1) the lanes are the count
of the closed row: lane ``c * P + p`` for a closed row of ``c`` crosses (it still gains
partner crosses, CC2; every table of one closed row at most, :mod:`.chain`); the table
of open rows has ``P`` lanes only (its strides say so; ``lanes`` is the others').

On a sheet with an X-Change track (Qwixx X-Change, XC1) the lanes are the last field
used instead of the step totals: lane ``(f + 1) * P + p`` for field ``f`` (``-1``: none
used), ``len(exchange) + 1`` of them (the two never share a sheet).  No mark moves a
lane by itself; an exchange reads the lane of its field (:mod:`.kernel`), and every
configuration is solved in all of them (``closed_steps`` holds the top field lane).

The table model of K players (1 in solitaire) stores K such arrays, one
per level ``L`` (the value when ``L`` other players roll before this player's
next own roll), one after the other.  The value of table ``C`` at open codes
``c``, level ``L``, step total ``s`` and penalties ``p`` is at

    L * level_size + offsets[C] + sum(strides[C, r] * c[r] for r open) + s * P + p

(``strides[C, r]`` is 0 for closed rows; ``offsets[C]`` is -1 when ``C`` ends the game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..keys import (
    ROW_CODE_BY_MASK,
    RowState,
    decode_open_code,
    open_code,
    row_codes,
    uses_row_codes,
)
from .bar import bar_geometry
from .double_a import DoubleALayout
from .variant import Variant, row_points

__all__ = ["Layout"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False, slots=True)
class Layout:
    """The table layout and the per-row lookup arrays the kernel uses."""

    variant: Variant
    #: Levels per configuration: the players of the table model (1 = solitaire).
    players: int
    #: Stored tables, by closed-row mask, in storage order.
    masks: tuple[int, ...]
    #: ``offsets[mask]``: where table ``mask`` starts in the flat array, -1 if not stored.
    offsets: IntArray
    #: ``strides[mask, row]``: the flat stride of ``row``'s code in table ``mask``.
    strides: IntArray
    #: Values per row configuration: penalty counts times step totals (``lanes``).
    lanes: int
    #: ``step_shift[row, q]``: the lanes a mark at position q of the row moves by (the
    #: penalty boxes on a step cell, else 0).
    step_shift: IntArray
    #: ``step_points[s]``: T(s), the points of s crossed step cells (CS2), for s up to two
    #: beyond the last total (0 on a sheet without steps).
    step_points: FloatArray
    #: ``step_lo[row, code]``, ``step_hi[row, code]``: the fewest and most step cells an
    #: open row at ``code`` can hold; ``closed_steps[mask]``: the step cells of the rows
    #: of ``mask`` (all 0 on a sheet without steps).
    step_lo: IntArray
    step_hi: IntArray
    closed_steps: IntArray
    #: Total number of values (the number of stored states, every level).
    size: int
    #: Values per level (the solitaire table's size).
    level_size: int
    #: ``code_last[code]``: position of the rightmost mark, -1 for the empty row.
    code_last: IntArray
    #: ``code_marks[code]``: number of marks.
    code_marks: IntArray
    #: ``next_code[code, q]``: the code after marking position q < L-1, -1 if illegal (R7)
    #: (rows of single cells; on a sheet with double cells, row 0's: see ``row_next_code``).
    next_code: IntArray
    #: ``row_next_code[row, code, q]``: the same for each row (a double cell adds 2
    #: crosses, DB1); -1 also where ``code`` is a state the row cannot reach.
    row_next_code: IntArray
    #: ``row_skip[row, code]``: True where the row cannot reach open code ``code`` (only on
    #: a sheet with double cells, whose codes are the pairs any row reaches).
    row_skip: npt.NDArray[np.bool_]
    #: ``code_by_mask[row][mask]``: the row code of row ``row`` holding the marks ``mask``
    #: (open code, or beyond the open codes once locked).
    code_by_mask: tuple[Sequence[int], ...]
    #: ``pos_of[row, n]``: the position of number n (0..12, 0..16 with 8-sided dice) in the
    #: row, -1 if not shown.
    pos_of: IntArray
    #: ``number_at[row, q]``: the number at position q of the row.
    number_at: IntArray
    #: ``die_at[row, q]``: the die (= the row it locks) whose colour the cell has, -1 if none.
    die_at: IntArray
    #: ``points[marks]``: row points for 0..L+1 marks (and beyond, harmlessly).
    points: FloatArray

    @classmethod
    def of(cls, variant: Variant, players: int = 1) -> Layout:
        """The layout of ``variant``'s tables for a table of ``players`` (1 = solitaire)."""
        m = variant.rows
        n_codes = variant.open_codes
        length = variant.row_length
        penalties = variant.penalty_boxes
        lanes = (penalties * variant.step_layers * variant.field_layers * variant.bar_layers
                 * variant.chain_layers)
        masks = tuple(
            mask for mask in range(1 << m) if mask.bit_count() < variant.closed_rows_to_end
        )
        offsets = np.full(1 << m, -1, dtype=np.int64)
        strides = np.zeros((1 << m, m), dtype=np.int64)
        size = 0
        for mask in masks:
            open_rows = [r for r in range(m) if not mask >> r & 1]
            offsets[mask] = size
            # (a chain pad's table of open rows has no closed row's count: P lanes)
            stride = lanes if mask or not variant.has_chain else penalties
            for r in reversed(open_rows):
                strides[mask, r] = stride
                stride *= n_codes
            size += stride

        code_last = np.empty(n_codes, dtype=np.int64)
        code_marks = np.empty(n_codes, dtype=np.int64)
        next_code = np.full((n_codes, length), -1, dtype=np.int64)
        row_skip = np.zeros((m, n_codes), dtype=np.bool_)
        code_by_mask: tuple[Sequence[int], ...]
        if uses_row_codes(variant.sheet):
            codes = row_codes(variant.sheet)
            row_next_code = np.full((m, n_codes, length), -1, dtype=np.int64)
            for code, (last, marks) in enumerate(codes.states):
                code_last[code] = -1 if last is None else last
                code_marks[code] = marks
                start = 0 if last is None else last + 1
                for r in range(m):
                    row_skip[r, code] = not codes.valid[r][code]
                    if row_skip[r, code]:
                        continue
                    for q in range(start, length - variant.lock_cells):
                        row_next_code[r, code, q] = codes.index[
                            (q, marks + variant.weight_at(r, q))]
            next_code[:] = row_next_code[0]
            code_by_mask = codes.by_mask
        else:
            for code in range(n_codes):
                last, marks = decode_open_code(code)
                code_last[code] = -1 if last is None else last
                code_marks[code] = marks
                start = 0 if last is None else last + 1
                for q in range(start, length - 1):
                    next_code[code, q] = open_code(q, marks + 1)
            row_next_code = np.ascontiguousarray(np.broadcast_to(next_code, (m, *next_code.shape)))
            code_by_mask = (ROW_CODE_BY_MASK,) * m
        pos_of = np.full((m, variant.top_number + 1), -1, dtype=np.int64)
        number_at = np.empty((m, length), dtype=np.int64)
        die_at = np.empty((m, length), dtype=np.int64)
        for r in range(m):
            for q in range(length):
                n = variant.number_at(r, q)
                number_at[r, q] = n
                pos_of[r, n] = q
                die_at[r, q] = variant.die_at(r, q)
        points = np.array([row_points(k) for k in range(variant.max_marks + 3)],
                          dtype=np.float64)
        step_shift = np.zeros((m, length), dtype=np.int64)
        step_lo = np.zeros((m, n_codes), dtype=np.int64)
        step_hi = np.zeros((m, n_codes), dtype=np.int64)
        closed_steps = np.zeros(1 << m, dtype=np.int64)
        if variant.has_steps:
            is_step = [[int(variant.is_step_at(r, q)) for q in range(length)] for r in range(m)]
            step_shift[:] = np.array(is_step, dtype=np.int64) * penalties
            for r in range(m):
                for code in range(1, n_codes):
                    last, marks = int(code_last[code]), int(code_marks[code])
                    before = sum(is_step[r][:last])  # step cells left of the last mark
                    others = marks - 1  # marks left of the last mark
                    step_lo[r, code] = is_step[r][last] + max(0, others - (last - before))
                    step_hi[r, code] = is_step[r][last] + min(others, before)
            for mask in range(1 << m):
                closed_steps[mask] = sum(sum(is_step[r]) for r in range(m) if mask >> r & 1)
        step_points = np.array([row_points(t) for t in range(variant.step_layers + 2)],
                               dtype=np.float64) if variant.has_steps \
            else np.zeros(variant.field_layers + 2)
        if variant.has_exchange:  # every configuration holds every field lane (XC2)
            closed_steps[:] = variant.field_layers - 1
        if variant.has_bar:  # the bar lanes (:mod:`.bar`)
            step_points = np.zeros(variant.bar_layers + 2)
            boxed_lo, boxed_hi, excluded = bar_geometry(variant, n_codes, lanes)
            step_lo[:], step_hi[:], step_shift[:] = boxed_lo, boxed_hi, excluded
            closed_steps[1:] = variant.bar_layers - 1
        if variant.has_second_crosses:  # its own codes and tables (:mod:`.double_a`)
            size = DoubleALayout.of(variant.sheet).size
        if variant.sheet.symbols:  # Bonus B: its own index (:mod:`.bonus_b`)
            from .bonus_b import BonusBLayout  # (it builds on Layout: imported here)

            size = BonusBLayout.of(variant.sheet).size
        return cls(
            variant=variant,
            players=players,
            masks=masks,
            offsets=offsets,
            strides=strides,
            size=size * players,
            level_size=size,
            lanes=lanes,
            step_shift=step_shift,
            step_points=step_points,
            step_lo=step_lo,
            step_hi=step_hi,
            closed_steps=closed_steps,
            code_last=code_last,
            code_marks=code_marks,
            next_code=next_code,
            row_next_code=row_next_code,
            row_skip=row_skip,
            code_by_mask=code_by_mask,
            pos_of=pos_of,
            number_at=number_at,
            die_at=die_at,
            points=points,
        )

    def open_rows(self, mask: int) -> list[int]:
        """The open rows of table ``mask``, in increasing order."""
        return [r for r in range(self.variant.rows) if not mask >> r & 1]

    def table_size(self, mask: int) -> int:
        """The number of values in table ``mask``."""
        k = self.variant.rows - mask.bit_count()
        lanes = self.lanes if mask or not self.variant.has_chain else self.variant.penalty_boxes
        return int(self.variant.open_codes**k * lanes)

    def locate(self, rows: Sequence[RowState], penalties: int, before_me: int = 0,
               steps: int = 0, last_field: int = -1, bar: int = 0) -> tuple[int, int]:
        """``(index, closed_points)`` of a running game's position: where its table
        value lives in the flat array, and the points of its closed rows (the
        position's value is their sum).  ``rows`` are the rows' compact states
        (:class:`qwixx_math.keys.RowState`, as :func:`~qwixx_math.keys.decode_key` gives
        them) and must leave the game running; ``before_me`` is the level (0 .. players-1),
        ``steps`` the crossed step cells (CS2; 0 on a sheet without steps), ``last_field``
        the last X-Change field used (XC2; -1: none, as on a sheet without a track), ``bar``
        the bonus bar's lane (BA1: the fields up to the last one taken, :mod:`.bar`)."""
        mask = 0
        closed_points = 0
        for i, r in enumerate(rows):
            if r.closed:
                mask |= 1 << i
                closed_points += row_points(r.count)
        index = (before_me * self.level_size + int(self.offsets[mask])
                 + (steps + last_field + 1 + bar) * self.variant.penalty_boxes + penalties)
        space = row_codes(self.variant.sheet) if uses_row_codes(self.variant.sheet) else None
        for i, r in enumerate(rows):
            if not r.closed:
                code = open_code(r.last, r.count) if space is None else space.code(i, r)
                index += int(self.strides[mask, i]) * code
        return index, closed_points

