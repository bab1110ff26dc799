"""Drawn sheets: a score sheet of any layout as an SVG picture or as text (issue 35).

:func:`sheet_svg` draws one sheet: every cell of the layout in its colour, the marks
(crosses), the lock boxes, the penalty boxes, the closed colours (rows greyed and struck
through), an optional roll (as dice) and an optional plan (its cells outlined and numbered
1 and 2).  :func:`state_svg` draws every sheet of a :class:`~qwixx_math.rules.GameState`,
:func:`advice_svg` the sheet an :class:`~qwixx_math.advice.Advice` was given for, with its
best plan.  :func:`sheet_text` is the same drawing in plain text (``qwixx-math show``
without ``--svg``).  ``Sheet``, ``GameState`` and ``Advice`` show themselves as these
pictures in Jupyter (their ``_repr_svg_``).

The SVG is built as text (no dependency) and every element a program may look for
carries stable attributes (``docs/drawing.md``):

* ``<g class="cell">``, one per printed cell: ``data-row`` (the row's lock colour),
  ``data-colour`` (the cell's colour), ``data-number``, ``data-position`` (0 = leftmost),
  ``data-marked`` and ``data-markable`` (``true``/``false``: whether R7, R8 and R9 let the
  sheet mark it now), and ``data-plan`` (``1`` or ``2``: the action of the plan that marks
  it) on a planned cell, and on a Connected Steps sheet ``data-step`` (``true`` on a step
  cell, which is framed by a ``<rect class="step">``; VARIANTS.md §4, CS2), on a Bonus A
  sheet ``data-boxed`` (``true`` on a boxed cell, framed by a ``<rect class="boxed">``,
  BA1), on a Bonus B sheet ``data-symbol`` (the symbol's name on a symbol cell, which shows
  it as a ``<text class="symbol">`` glyph, BB1), on a sheet with double cells (Double B)
  ``data-double`` (``true`` on a double cell, framed twice by a ``<rect class="double">``,
  DB1);
* on a Bonus A sheet, ``<g class="bar-field">`` per bonus bar field (``data-index``,
  ``data-colour``, ``data-state``: ``taken``, ``void`` or ``free``; BA1, BA6);
* ``<g class="row">`` per row (``data-row``, ``data-closed``), ``<g class="lock">``
  (``data-row``, ``data-locked``), ``<g class="penalty">`` per box (``data-index``,
  ``data-marked``; ``data-plan="penalty"`` on the box a penalty plan crosses),
  ``<g class="die">`` per die (``data-colour``: ``white`` or a colour, ``data-face``);
  ``<text class="score">`` the total and, on a Connected Steps sheet,
  ``<text class="steps-score">`` the points of the step cells;
* on a Connected Chain sheet (VARIANTS.md §5, CC1), each chain cell is circled
  (``<circle class="chain-cell">`` in its cell, whose ``data-partner`` names the partner,
  e.g. ``yellow 6``) and each pair is linked by a ``<line class="chain">`` from the edge of
  one cell to the edge of the other, ``data-cells`` naming both (``red 6/yellow 6``) and
  ``data-crossed`` (``true`` when both are crossed, ``false`` when neither).
* on a Qwixx X-Change sheet ``<g class="exchange">`` the track, a ``<g class="field">`` per
  field (``data-index``, ``data-pair``, ``data-used``, ``data-lost``, ``data-plan="1"`` on
  the field a plan's exchange uses).

>>> from qwixx_math.notation import parse_sheet
>>> svg = sheet_svg(parse_sheet("r:2,3/g:12/p:1"), plan="r5/-")
>>> svg.count('class="cell"'), svg.count('data-marked="true"'), svg.count('data-plan="1"')
(44, 4, 1)

(4 crossed boxes: three cells and a penalty box.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from .big_points import BONUS_ROW_NAMES, BonusMark, bonus_number
from .bonus_b import active_symbols
from .errors import ParseError
from .layouts import BONUS_ROW_CELLS, SYMBOL_NAMES, Confidence, SheetLayout
from .model import COLOURS, Colour, Mark, Roll, Sheet, TurnPlan
from .notation import colour_set, format_bar, format_plan, format_roll, parse_plan, parse_roll

__all__ = ["advice_svg", "sheet_svg", "sheet_text", "state_svg"]

#: Side of a cell, in SVG user units (pixels at 100%).
CELL = 40
_GAP = 4  # between cells
_PAD = 6  # inside a row's band
_MARGIN = 12
_ROW_GAP = 6
_LABEL = 64  # the row name column
_DIE = 30

#: (band, cell tint, text) of each colour, by Colour.index.
_PALETTE: tuple[tuple[str, str, str], ...] = (
    ("#d7263d", "#fbd5da", "#9e1328"),  # red
    ("#e8b600", "#fdf0b8", "#7a5e00"),  # yellow
    ("#2e9e4f", "#d3efdb", "#1b6630"),  # green
    ("#2a62b8", "#d4e1f6", "#173f7d"),  # blue
)
_INK = "#1f1f1f"
_PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
         4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
         6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2))}


# ------------------------------------------------------------------------------- inputs

def _sheet_arg(sheet: object) -> Sheet:
    if not isinstance(sheet, Sheet):
        raise ParseError(f"a drawing needs a Sheet, not {type(sheet).__name__} "
                         "(Sheet.parse('r:2,3') reads the text form)")
    return sheet


def _roll_arg(roll: Roll | str | None, sheet: Sheet) -> Roll | None:
    """The roll (text is read with the dice of the sheet's layout: 8-sided on Longo)."""
    if roll is None or isinstance(roll, Roll):
        return roll
    if isinstance(roll, str):
        return parse_roll(roll, sheet.layout.faces)
    raise ParseError(f"roll must be a Roll, its text ('w:3,5/r:1') or None, not {roll!r}")


def _plan_arg(plan: TurnPlan | str | None, sheet: Sheet) -> TurnPlan | None:
    """The plan (text is parsed); each mark must be a cell of the sheet's layout (R2).
    Whether the plan is legal is the rules core's business (``qwixx-math show`` asks it)."""
    if plan is None:
        return None
    if isinstance(plan, str):
        plan = parse_plan(plan, sheet.layout.top_number)
    if not isinstance(plan, TurnPlan):
        raise ParseError(f"plan must be a TurnPlan, its text ('r8/g9') or None, not {plan!r}")
    layout = sheet.layout
    for mark in plan.marks:
        if isinstance(mark, BonusMark):  # Big Points: a bonus cell (BP1)
            if not layout.bonus_rows:
                raise ParseError(f"the plan crosses {mark.describe()}, but the {layout.name} "
                                 "sheet has no bonus rows", rule="BP1")
            continue
        if mark.field is not None and mark.field >= len(layout.exchange):
            raise ParseError(f"the plan uses X-Change field {mark.field}, which the "
                             f"{layout.name} sheet does not print", rule="XC1")
        if not mark.crosses:
            continue
        if not (mark.colour in layout.locks and layout.shows(mark.colour, mark.number)):
            raise ParseError(f"the plan marks {mark.describe()}, which the {layout.name} "
                             "sheet does not print", rule="R2")
    return plan


def _closed_arg(sheet: Sheet, closed: Iterable[Colour | str]) -> frozenset[Colour]:
    return colour_set(closed, "closed colours") | sheet.locked


def _planned(plan: TurnPlan | None) -> dict[tuple[Colour, int], int]:
    """(row, number) -> the action (1 or 2) of the plan that marks it."""
    if plan is None:
        return {}
    out: dict[tuple[Colour, int], int] = {}
    for action, mark in ((1, plan.action1), (2, plan.action2)):
        if mark is not None and not isinstance(mark, BonusMark):
            out[(mark.colour, mark.number)] = action
    return out


def _planned_bonus(plan: TurnPlan | None) -> dict[tuple[int, int], int]:
    """(bonus row, column) -> the action (1 or 2) of the plan that crosses it (BP1)."""
    if plan is None:
        return {}
    return {(m.row, m.column): action for action, m in ((1, plan.action1), (2, plan.action2))
            if isinstance(m, BonusMark)}


def _bonus_row_parts(sheet: Sheet, row: int, top: float, plan: TurnPlan | None
                     ) -> tuple[list[str], float]:
    """Big Points: the bonus row ``row`` (0 RY, 1 GB) drawn at height ``top`` as round
    cells between the columns of the rows it joins (BP1): ``<g class="bonus-row">`` with a
    ``<g class="bonus-cell">`` per cell (``data-number``, ``data-column``, ``data-marked``,
    ``data-plan``)."""
    planned = _planned_bonus(plan)
    name = BONUS_ROW_NAMES[row]
    mask = sheet.bonus_rows[row]
    band_h = CELL + 2 * _PAD
    band_w = _LABEL + 2 * _PAD + BONUS_ROW_CELLS * (CELL + _GAP)
    out = [f'<g{_attrs(**{"class": "bonus-row"}, data_bonus_row=name)}>',
           f'<rect x="{_MARGIN}" y="{top}" width="{band_w}" height="{band_h}" rx="8" '
           f'fill="#eeeeee"/>',
           _text(_MARGIN + 8, top + band_h / 2, name.upper(), 14, _INK, anchor="start",
                 weight="bold")]
    x = _MARGIN + _LABEL + _PAD
    for column in range(BONUS_ROW_CELLS):
        number = bonus_number(row, column)
        marked = bool(mask >> column & 1)
        action = planned.get((row, column))
        cy = top + _PAD
        out.append(f'<g{_attrs(**{"class": "bonus-cell"}, data_bonus_row=name)}'
                   f'{_attrs(data_number=number, data_column=column)}'
                   f'{_attrs(data_marked=str(marked).lower(), data_plan=action)}>')
        out.append(f'<circle cx="{x + CELL / 2}" cy="{cy + CELL / 2}" r="{CELL / 2 - 1}" '
                   f'fill="#ffffff" stroke="{_INK}" stroke-width="1.5"/>')
        faded = _skipped(mask, column) and not (marked or action)
        out += _number_cell(x, cy, number, 16, _INK, faded, marked)
        out += _plan_outline(f'<circle class="plan" cx="{x + CELL / 2}" cy="{cy + CELL / 2}" '
                             f'r="{CELL / 2 + 2}" fill="none" stroke="{_INK}" stroke-width="4" '
                             'stroke-dasharray="7 3"/>', x, cy, action)
        out.append("</g>")
        x += CELL + _GAP
    out.append("</g>")
    return out, top + band_h + _ROW_GAP


def _bonus_row_line(sheet: Sheet, row: int, plan: TurnPlan | None) -> str:
    """Big Points: the text line of bonus row ``row`` (0 RY, 1 GB): ``[ 4]`` crossed,
    ``< 5>`` planned, ``.`` passed over (BP4).

    >>> from qwixx_math.notation import parse_sheet
    >>> print(_bonus_row_line(parse_sheet("big-points|r:2,4/ry:4"), 0, None))
    RY       .    .  [ 4]   5    6    7    8    9   10   11   12
    """
    planned = _planned_bonus(plan)
    mask = sheet.bonus_rows[row]
    cells = []
    for column in range(BONUS_ROW_CELLS):
        number = bonus_number(row, column)
        if mask >> column & 1:
            cells.append(f"[{number:>2}]")
        elif (row, column) in planned:
            cells.append(f"<{number:>2}>")
        elif _skipped(mask, column):
            cells.append(f" {'.':>2} ")
        else:
            cells.append(f" {number:>2} ")
    return f"{BONUS_ROW_NAMES[row].upper():<7}{' '.join(cells)}".rstrip()


def _skipped(mask: int, position: int) -> bool:
    """Whether the cell at ``position`` was passed over: a mark stands right of it (R7)."""
    return not mask >> position & 1 and position < mask.bit_length()


def _markable(sheet: Sheet, row: Colour, number: int, closed: frozenset[Colour]) -> bool:
    return row not in closed and sheet.allows(row, number)


# -------------------------------------------------------------------------------- SVG

def _attrs(**values: object) -> str:
    return "".join(f" {name.replace('_', '-')}={quoteattr(str(v))}"
                   for name, v in values.items() if v is not None)


def _text(x: float, y: float, text: str, size: int = 16, fill: str = _INK,
          anchor: str = "middle", weight: str = "normal", cls: str | None = None,
          opacity: str | None = None) -> str:
    return (f"<text{_attrs(x=x, y=y, font_size=size, fill=fill, text_anchor=anchor)}"
            f"{_attrs(font_weight=weight, dominant_baseline='central', opacity=opacity)}"
            f"{_attrs(**{'class': cls})}>{escape(text)}</text>")


def _cross(x: float, y: float, size: float, colour: str = _INK, width: float = 4) -> str:
    a, b = 0.2 * size, 0.8 * size
    return (f'<path class="mark" d="M{x + a} {y + a} L{x + b} {y + b} M{x + b} {y + a} '
            f'L{x + a} {y + b}" stroke="{colour}" stroke-width="{width}" '
            'stroke-linecap="round" fill="none"/>')


def _number_cell(x: float, cy: float, number: int, size: int, ink: str, faded: bool,
                 marked: bool) -> list[str]:
    """A cell's number (pale when ``faded``: skipped or closed, and not marked nor planned)
    and its cross when ``marked``; the cell's square is at (``x``, ``cy``)."""
    out = [_text(x + CELL / 2, cy + CELL / 2, str(number), size, ink, weight="bold",
                 opacity="0.35" if faded else None)]
    if marked:
        out.append(_cross(x, cy, CELL))
    return out


def _plan_outline(outline: str, x: float, cy: float, action: int | None) -> list[str]:
    """The ``outline`` of a planned cell and its badge (the plan's action, 1 or 2); nothing
    for a cell the plan leaves alone."""
    if action is None:
        return []
    return [outline, _badge(x + CELL - 1, cy + 1, str(action))]


def _second_box(x: float, y: float, crossed: bool) -> str:
    """The second-cross box in the lower right corner of a Double A cell (DA1), crossed
    when the number holds its second cross."""
    size = CELL / 3
    bx, by = x + CELL - size - 1, y + CELL - size - 1
    box = (f'<g class="second" data-second="{str(crossed).lower()}"><rect x="{bx}" y="{by}" '
           f'width="{size}" height="{size}" rx="2" fill="#ffffff" stroke="{_INK}" '
           'stroke-width="1"/>')
    return box + (_cross(bx, by, size, width=2) if crossed else "") + "</g>"


def _badge(x: float, y: float, label: str) -> str:
    return (f'<circle cx="{x}" cy="{y}" r="8" fill="{_INK}"/>'
            + _text(x, y, label, 11, "#ffffff", weight="bold"))


def _width(sheet: Sheet) -> int:
    longest = max(len(row) for row in sheet.layout.numbers)
    return 2 * _MARGIN + _LABEL + 2 * _PAD + longest * (CELL + _GAP) + CELL + 70


def _sheet_parts(sheet: Sheet, top: float, closed: frozenset[Colour],
                 plan: TurnPlan | None, title: str | None) -> tuple[list[str], float]:
    """The SVG elements of one sheet from height ``top``, and the height below them."""
    layout = sheet.layout
    planned = _planned(plan)
    out: list[str] = [f'<g{_attrs(**{"class": "sheet"}, data_layout=layout.key)}>']
    y = top
    if title is not None:
        out.append(_text(_MARGIN, y + 10, title, 15, anchor="start", weight="bold",
                         cls="title"))
        y += 24
    band_h = CELL + 2 * _PAD
    centres: dict[tuple[int, int], tuple[float, float]] = {}  # chain cells (CC1)
    for numbers, colours in zip(layout.numbers, layout.colours, strict=True):
        row = colours[-1]
        band, _, dark = _PALETTE[row.index]
        is_closed = row in closed
        length = len(numbers)
        band_w = _LABEL + 2 * _PAD + length * (CELL + _GAP) + CELL
        out.append(f'<g{_attrs(**{"class": "row"}, data_row=row.value)}'
                   f'{_attrs(data_closed=str(is_closed).lower())}'
                   f'{_attrs(opacity="0.45" if is_closed else None)}>')
        out.append(f'<rect x="{_MARGIN}" y="{y}" width="{band_w}" height="{band_h}" rx="8" '
                   f'fill="{band}"/>')
        out.append(_text(_MARGIN + 8, y + band_h / 2, row.value, 14, "#ffffff",
                         anchor="start", weight="bold"))
        mask = sheet.masks[row.index]
        x = _MARGIN + _LABEL + _PAD
        for position, (number, cell_colour) in enumerate(zip(numbers, colours, strict=True)):
            marked = bool(mask >> position & 1)
            action = planned.get((row, number))
            markable = not marked and _markable(sheet, row, number, closed)
            _, tint, ink = _PALETTE[cell_colour.index]
            cy = y + _PAD
            step = (str(bool(layout.step_mask[row.index] >> position & 1)).lower()
                    if layout.steps else None)
            partner = layout.chain_partner(row, number) if layout.chain else None
            boxed = (str(bool(layout.box_mask[row.index] >> position & 1)).lower()
                     if layout.bar else None)
            symbol = layout.symbol_of(row, number) if layout.symbols else None
            double = (str(layout.weights[row.index][position] == 2).lower()
                      if layout.has_doubles else None)
            out.append(
                f'<g{_attrs(**{"class": "cell"}, data_row=row.value)}'
                f'{_attrs(data_colour=cell_colour.value, data_number=number)}'
                f'{_attrs(data_position=position, data_marked=str(marked).lower())}'
                f'{_attrs(data_markable=str(markable).lower(), data_plan=action)}'
                f'{_attrs(data_step=step, data_boxed=boxed, data_symbol=symbol)}'
                f'{_attrs(data_double=double)}'
                f'{_attrs(data_partner=None if partner is None else _cell_name(*partner))}>')
            out.append(f'<rect x="{x}" y="{cy}" width="{CELL}" height="{CELL}" rx="5" '
                       f'fill="{tint}" stroke="{ink}" stroke-width="1"/>')
            if partner is not None:  # a Connected Chain cell: circled (CC1)
                centres[(row.index, position)] = (x + CELL / 2, cy + CELL / 2)
                out.append(f'<circle class="chain-cell" cx="{x + CELL / 2}" '
                           f'cy="{cy + CELL / 2}" r="{CELL / 2 - 3}" fill="none" '
                           f'stroke="{_INK}" stroke-width="2"/>')
            if step == "true":  # a Connected Steps step cell: framed (CS2)
                out.append(f'<rect class="step" x="{x + 3}" y="{cy + 3}" width="{CELL - 6}" '
                           f'height="{CELL - 6}" rx="3" fill="none" stroke="{_INK}" '
                           'stroke-width="2.5"/>')
            if double == "true":  # a Double B double cell: a second, inner frame (DB1)
                out.append(f'<rect class="double" x="{x + 3}" y="{cy + 3}" '
                           f'width="{CELL - 6}" height="{CELL - 6}" rx="3" fill="none" '
                           f'stroke="{ink}" stroke-width="1"/>')
            if boxed == "true":  # a Bonus A boxed cell: a heavy square frame (BA1)
                out.append(f'<rect class="boxed" x="{x + 2}" y="{cy + 2}" width="{CELL - 4}" '
                           f'height="{CELL - 4}" fill="none" stroke="{_INK}" '
                           'stroke-width="3"/>')
            if symbol is not None:  # a Bonus B symbol cell: its glyph in a corner (BB1)
                out.append(f'<text class="symbol" x="{x + 4}" y="{cy + 13}" font-size="12" '
                           f'fill="{_INK}">{_SYMBOL_GLYPHS[symbol]}</text>')
            faded = (is_closed or _skipped(mask, position)) and not (marked or action)
            out += _number_cell(x, cy, number, 18, ink, faded, marked)
            if layout.second_crosses and position < length - 1:  # Double A (DA1)
                out.append(_second_box(x, cy, bool(sheet.seconds[row.index] >> position & 1)))
            out += _plan_outline(f'<rect class="plan" x="{x - 2}" y="{cy - 2}" '
                                 f'width="{CELL + 4}" height="{CELL + 4}" rx="6" fill="none" '
                                 f'stroke="{_INK}" stroke-width="4" stroke-dasharray="7 3"/>',
                                 x, cy, action)
            out.append("</g>")
            x += CELL + _GAP
        locked = sheet.is_locked(row)
        cx, cy = x + CELL / 2, y + band_h / 2
        out.append(f'<g{_attrs(**{"class": "lock"}, data_row=row.value)}'
                   f'{_attrs(data_locked=str(locked).lower())}>')
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL / 2 - 2}" fill="#ffffff" '
                   f'stroke="{dark}" stroke-width="2"/>')
        out.append(_padlock(cx, cy, dark))
        if locked:
            out.append(_cross(x, y + _PAD, CELL))
        out.append("</g>")
        if is_closed:
            out.append(f'<line x1="{_MARGIN}" y1="{y + band_h / 2}" x2="{_MARGIN + band_w}" '
                       f'y2="{y + band_h / 2}" stroke="{_INK}" stroke-width="3"/>')
        out.append("</g>")
        out.append(_text(_MARGIN + band_w + 10, y + band_h / 2,
                         f"{sheet.row_score(row)}", 16, dark, anchor="start",
                         weight="bold", cls="row-score"))
        y += band_h + _ROW_GAP
        if layout.bonus_rows and row.index in (0, 2):  # Big Points: RY, GB below (BP1)
            bonus_parts, y = _bonus_row_parts(sheet, row.index // 2, y, plan)
            out.extend(bonus_parts)
    out.extend(_chain_links(sheet, centres))
    if layout.exchange:  # Qwixx X-Change: the track under the rows
        track, y = _exchange_parts(sheet, y, plan)
        out.extend(track)
    if layout.bar:  # Bonus A: the bonus bar under the rows
        y = _bar_parts(sheet, out, y)
    y += 4
    out.append(_text(_MARGIN, y + 14, "penalties", 14, anchor="start"))
    x = _MARGIN + 80
    next_box = sheet.penalties if plan is not None and plan.penalty else None
    for i in range(layout.penalty_boxes):
        marked = i < sheet.penalties
        out.append(f'<g{_attrs(**{"class": "penalty"}, data_index=i)}'
                   f'{_attrs(data_marked=str(marked).lower())}'
                   f'{_attrs(data_plan="penalty" if i == next_box else None)}>')
        out.append(f'<rect x="{x}" y="{y}" width="28" height="28" rx="4" fill="#ffffff" '
                   f'stroke="{_INK}"{_attrs(stroke_width=4 if i == next_box else 1.5)}'
                   f'{_attrs(stroke_dasharray="7 3" if i == next_box else None)}/>')
        if marked:
            out.append(_cross(x, y, 28, width=3))
        out.append("</g>")
        x += 34
    if layout.steps:
        out.append(_text(x + 20, y + 14, f"steps {sheet.steps_score}", 16, anchor="start",
                         weight="bold", cls="steps-score"))
        x += 90
    out.append(_text(x + 20, y + 14, f"score {sheet.score}", 16, anchor="start",
                     weight="bold", cls="score"))
    out.append("</g>")
    return out, y + 28 + _MARGIN


def _cell_name(row: Colour, number: int) -> str:
    return f"{row.value} {number}"


def _chain_links(sheet: Sheet, centres: dict[tuple[int, int], tuple[float, float]]
                 ) -> list[str]:
    """The lines linking the chain pairs of ``sheet`` (CC1), from the edge of one cell to
    the edge of the other (``centres``: each chain cell's centre by (lock colour index,
    position))."""
    layout = sheet.layout
    out = []
    for pair in layout.chain:
        (c1, p1), (c2, p2) = [(layout.locks[r], p) for r, p in pair]
        (x1, y1), (x2, y2) = centres[(c1.index, p1)], centres[(c2.index, p2)]
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
        dx, dy = (x2 - x1) / length * CELL / 2, (y2 - y1) / length * CELL / 2
        crossed = bool(sheet.masks[c1.index] >> p1 & 1)
        names = f"{_cell_name(c1, layout.numbers[pair[0][0]][p1])}/" \
                f"{_cell_name(c2, layout.numbers[pair[1][0]][p2])}"
        out.append(f'<line class="chain"{_attrs(data_cells=names)}'
                   f'{_attrs(data_crossed=str(crossed).lower())} x1="{x1 + dx:.1f}" '
                   f'y1="{y1 + dy:.1f}" x2="{x2 - dx:.1f}" y2="{y2 - dy:.1f}" '
                   f'stroke="{_INK}" stroke-width="3"/>')
    return out


def _planned_field(plan: TurnPlan | None) -> int | None:
    """The X-Change field the plan's action 1 uses, if any."""
    return None if plan is None or plan.action1 is None else plan.action1.field


def _exchange_parts(sheet: Sheet, top: float, plan: TurnPlan | None
                    ) -> tuple[list[str], float]:
    """The X-Change track (VARIANTS.md §9.1) from height ``top``: one ``<g class="field">``
    per field (``data-index``, ``data-pair``, ``data-used``, ``data-lost``: left of the
    last field used and not used, XC2; ``data-plan="1"`` on the field the plan uses)."""
    layout = sheet.layout
    band_h = CELL + 2 * _PAD
    band_w = _LABEL + 2 * _PAD + len(layout.exchange) * (CELL + _GAP)
    out = [f'<g{_attrs(**{"class": "exchange"})}>',
           f'<rect x="{_MARGIN}" y="{top}" width="{band_w}" '
           f'height="{band_h}" rx="8" fill="#8a8a8a"/>',
           _text(_MARGIN + 8, top + band_h / 2, "x-change", 13, "#ffffff", anchor="start",
                 weight="bold")]
    used = set(sheet.used_fields)
    planned = _planned_field(plan)
    x = _MARGIN + _LABEL + _PAD
    for index, (a, b) in enumerate(layout.exchange):
        is_used = index in used
        lost = not is_used and index < sheet.last_field
        cy = top + _PAD
        out.append(f'<g{_attrs(**{"class": "field"}, data_index=index, data_pair=f"{a}/{b}")}'
                   f'{_attrs(data_used=str(is_used).lower(), data_lost=str(lost).lower())}'
                   f'{_attrs(data_plan="1" if index == planned else None)}>')
        out.append(f'<rect x="{x}" y="{cy}" width="{CELL}" height="{CELL}" rx="5" '
                   f'fill="#f2f2f2" stroke="{_INK}" stroke-width="1"/>')
        out.append(_text(x + CELL / 2, cy + CELL / 2, f"{a}/{b}", 13, _INK, weight="bold",
                         opacity="0.35" if lost else None))
        if is_used:
            out.append(_cross(x, cy, CELL))
        if index == planned:
            out.append(f'<rect class="plan" x="{x - 2}" y="{cy - 2}" width="{CELL + 4}" '
                       f'height="{CELL + 4}" rx="6" fill="none" stroke="{_INK}" '
                       'stroke-width="4" stroke-dasharray="7 3"/>')
            out.append(_badge(x + CELL - 1, cy + 1, "1"))
        out.append("</g>")
        x += CELL + _GAP
    out.append("</g>")
    return out, top + band_h + _ROW_GAP
def _bar_parts(sheet: Sheet, out: list[str], y: float) -> float:
    """Append a Bonus A sheet's bonus bar (BA1, BA6) at height ``y``: one ``<g
    class="bar-field">`` per field, ``data-state`` taken, void or free; the height below."""
    out.append(_text(_MARGIN, y + 14, "bonus", 14, anchor="start"))
    x = _MARGIN + 80
    for k, colour in enumerate(sheet.layout.bar):
        state = ("taken" if sheet.bar_taken >> k & 1 else "void" if sheet.bar_void >> k & 1
                 else "free")
        out.append(f'<g{_attrs(**{"class": "bar-field"}, data_index=k)}'
                   f'{_attrs(data_colour=colour.value, data_state=state)}>')
        out.append(f'<rect x="{x}" y="{y}" width="28" height="28" rx="4" '
                   f'fill="{_PALETTE[colour.index][1]}" stroke="{_INK}" stroke-width="1.5"/>')
        if state == "taken":
            out.append(_cross(x, y, 28, width=3))
        elif state == "void":
            out.append(f'<line x1="{x}" y1="{y + 14}" x2="{x + 28}" y2="{y + 14}" '
                       f'stroke="{_INK}" stroke-width="3"/>')
        out.append("</g>")
        x += 34
    return y + 36


def _padlock(cx: float, cy: float, colour: str) -> str:
    return (f'<path d="M{cx - 6} {cy - 1} v-4 a6 6 0 0 1 12 0 v4" fill="none" '
            f'stroke="{colour}" stroke-width="2.5"/>'
            f'<rect x="{cx - 9}" y="{cy - 1}" width="18" height="12" rx="2" fill="{colour}"/>')


def _dice_parts(roll: Roll, top: float) -> tuple[list[str], float]:
    out = [_text(_MARGIN, top + _DIE / 2, "roll", 14, anchor="start")]
    x = _MARGIN + _LABEL
    dice: list[tuple[str, int, str, str]] = [("white", d, "#ffffff", _INK) for d in roll.white]
    for colour in COLOURS:
        face = roll.die(colour)
        if face is not None:
            pip = _INK if colour is Colour.YELLOW else "#ffffff"
            dice.append((colour.value, face, _PALETTE[colour.index][0], pip))
    for name, face, fill, pip in dice:
        out.append(f'<g{_attrs(**{"class": "die"}, data_colour=name, data_face=face)}>')
        out.append(f'<rect x="{x}" y="{top}" width="{_DIE}" height="{_DIE}" rx="6" '
                   f'fill="{fill}" stroke="{_INK}" stroke-width="1.5"/>')
        if roll.faces == 6:
            for col, line in _PIPS[face]:
                out.append(f'<circle cx="{x + 7 + 8 * col}" cy="{top + 7 + 8 * line}" '
                           f'r="2.6" fill="{pip}"/>')
        else:  # an eight-sided die shows numerals (Qwixx Longo, LG1)
            out.append(_text(x + _DIE / 2, top + _DIE / 2, str(face), 14, pip, weight="bold"))
        out.append("</g>")
        x += _DIE + 8
    out.append(_text(x + 8, top + _DIE / 2, format_roll(roll), 13, "#555555", anchor="start"))
    return out, top + _DIE + 10


def _document(parts: Sequence[str], width: float, height: float, label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" class="qwixx" role="img"'
            f'{_attrs(aria_label=label)} font-family="Helvetica, Arial, sans-serif">'
            + "".join(parts) + "</svg>")


def sheet_svg(sheet: Sheet, *, closed: Iterable[Colour | str] = (),
              roll: Roll | str | None = None, plan: TurnPlan | str | None = None,
              title: str | None = None) -> str:
    """``sheet`` as an SVG document (text).

    ``closed``: colours closed by anyone (the sheet's own locks count anyway); ``roll``: a
    roll drawn as dice above the sheet; ``plan``: a plan whose cells are outlined and
    numbered with their action (a penalty plan outlines the next penalty box).  Roll and
    plan may be given as text.  The plan is drawn as given: its marks must be cells of
    the layout (R2), and its legality is not checked (``legal_plans`` does that).
    """
    sheet = _sheet_arg(sheet)
    if title is not None and not isinstance(title, str):
        raise ParseError(f"title must be text, not {title!r}")
    return _draw(sheet, _closed_arg(sheet, closed), _roll_arg(roll, sheet), _plan_arg(plan, sheet),
                 title, ())


def _draw(sheet: Sheet, closed: frozenset[Colour], roll: Roll | None, plan: TurnPlan | None,
          title: str | None, footer: Sequence[str]) -> str:
    """The document of :func:`sheet_svg`, with ``footer`` lines under it."""
    parts: list[str] = []
    y: float = _MARGIN
    if roll is not None:
        dice, y = _dice_parts(roll, y)
        parts += dice
    if title is None and not sheet.layout.is_official:
        title = _sheet_title(sheet.layout)
    body, y = _sheet_parts(sheet, y, closed, plan, title)
    parts += body
    lines = list(footer)
    if plan is not None:
        lines.insert(0, f"plan {format_plan(plan)}: {plan.describe(sheet.layout)}")
    for line in lines:
        parts.append(_text(_MARGIN, y + 4, line, 14, anchor="start", cls="caption"))
        y += 22
    return _document(parts, _width(sheet), y + 6 if lines else y, f"Qwixx sheet {sheet}")


def state_svg(state: object, player: int | None = None) -> str:
    """Every sheet of a :class:`~qwixx_math.rules.GameState` (or only ``player``'s), with the
    colours closed in the game and the roll of the turn, when there is one."""
    from .rules import GameState

    if not isinstance(state, GameState):
        raise ParseError(f"state_svg needs a GameState, not {type(state).__name__}")
    if player is not None and not (isinstance(player, int) and not isinstance(player, bool)
                                   and 0 <= player < state.players):
        raise ParseError(f"player {player!r} does not exist (the game has {state.players} "
                         "players, numbered from 0)")
    parts: list[str] = []
    y: float = _MARGIN
    if state.roll is not None:
        dice, y = _dice_parts(state.roll, y)
        parts += dice
    seats = range(state.players) if player is None else (player,)
    layout = "" if state.layout.is_official else f", {_sheet_title(state.layout)}"
    for seat in seats:
        who = f"player {seat}{' (active)' if seat == state.active else ''}"
        body, y = _sheet_parts(state.sheets[seat], y, state.closed, None, f"{who}{layout}")
        parts += body
    return _document(parts, _width(state.sheets[0]), y, state.describe())


def advice_svg(advice: object, top: int = 1) -> str:
    """The sheet an :class:`~qwixx_math.advice.Advice` was given for, the roll, and its best
    plan outlined; ``top`` > 1 lists that many choices under it.  The advice must know its
    position (``advice.state``, set by the advisors); else ParseError."""
    from .advice import Advice

    if not isinstance(advice, Advice):
        raise ParseError(f"advice_svg needs an Advice, not {type(advice).__name__}")
    if not isinstance(top, int) or isinstance(top, bool) or top < 1:
        raise ParseError(f"top must be a whole number >= 1, not {top!r}")
    state = advice.state
    if state is None:
        raise ParseError("this Advice does not know the position it was given for; draw it "
                         "with sheet_svg(sheet, roll=roll, plan=advice.best.plan)")
    sheet = state.sheets[advice.player]
    best = advice.best
    title = (f"player {advice.player}{' (passive)' if advice.passive else ''}: best "
             f"{best.plan} (expected {best.expected_score:.2f})")
    plan = None if advice.passive and best.plan.action1 is None else best.plan
    footer = [f"{rank}. {r.plan}: expected {r.expected_score:.2f}, loss {r.loss:.2f}"
              for rank, r in enumerate(advice.plans[:top], start=1)][1:]
    return _draw(sheet, state.closed | sheet.locked, state.roll, plan, title, footer)


# ------------------------------------------------------------------------------- text

def _sheet_title(layout: SheetLayout) -> str:
    """``double-b sheet``; a layout no source transcribed from the printed pad says so
    (VARIANTS.md §0.3): ``connected-steps sheet (reconstructed layout)``, ``house sheet
    (unknown layout)``."""
    if layout.confidence in (Confidence.RECONSTRUCTED, Confidence.UNKNOWN):
        return f"{layout.name} sheet ({layout.confidence.value} layout)"
    return f"{layout.name} sheet"


def sheet_text(sheet: Sheet, *, closed: Iterable[Colour | str] = (),
               roll: Roll | str | None = None, plan: TurnPlan | str | None = None) -> str:
    """The drawing of :func:`sheet_svg` in plain text: ``[ 5]`` a marked cell, ``< 5>`` a
    planned one (the plan's action after the row), ``.`` a cell passed over (R7: it can
    never be marked); a layout whose rows mix colours prefixes each number with its cell's
    colour (``[ y2]``).

    >>> from qwixx_math.notation import parse_sheet
    >>> print(sheet_text(parse_sheet("r:2,4/p:1"), plan="r5/-"))
    red    [ 2]   .  [ 4] < 5>   6    7    8    9   10   11   12   lock    3 points  (plan 1: r5)
    yellow   2    3    4    5    6    7    8    9   10   11   12   lock    0 points
    green   12   11   10    9    8    7    6    5    4    3    2   lock    0 points
    blue    12   11   10    9    8    7    6    5    4    3    2   lock    0 points
    penalties [x] [ ] [ ] [ ]   score -2
    plan r5/-: mark red 5 with the white sum
    """
    sheet = _sheet_arg(sheet)
    shut = _closed_arg(sheet, closed)
    shown_roll = _roll_arg(roll, sheet)
    shown_plan = _plan_arg(plan, sheet)
    layout = sheet.layout
    planned = _planned(shown_plan)
    mixed = any(len(set(colours)) > 1 for colours in layout.colours)
    width = 3 if mixed else 2
    lines: list[str] = []
    if not layout.is_official:
        lines.append(_sheet_title(layout))
    if shown_roll is not None:
        lines.append(f"roll {format_roll(shown_roll)}")
    for numbers, colours in zip(layout.numbers, layout.colours, strict=True):
        row = colours[-1]
        mask = sheet.masks[row.index]
        cells = []
        notes = []
        for position, (number, colour) in enumerate(zip(numbers, colours, strict=True)):
            label = f"{colour.letter if mixed else ''}{number}"
            action = planned.get((row, number))
            if sheet.seconds[row.index] >> position & 1:  # a second cross (DA1)
                cells.append(f"{{{label:>{width}}}}")
            elif mask >> position & 1:
                cells.append(f"[{label:>{width}}]")
            elif action is not None:
                cells.append(f"<{label:>{width}}>")
                notes.append(f"plan {action}: {Mark(row, number)}")
            elif _skipped(mask, position):
                cells.append(f" {'.':>{width}} ")
            else:
                cells.append(f" {label:>{width}} ")
        lock = "[lock]" if sheet.is_locked(row) else "lock"
        state = "  closed" if row in shut else ""
        note = f"  ({', '.join(notes)})" if notes else ""
        points = sheet.row_score(row)
        lines.append(f"{row.value:<7}{' '.join(cells)}  {lock:<6} {points:>2} "
                     f"point{'' if points == 1 else 's'}{state}{note}")
        if layout.bonus_rows and row.index in (0, 2):  # Big Points: RY, GB below (BP1)
            lines.append(_bonus_row_line(sheet, row.index // 2, shown_plan))
    if layout.has_doubles:
        lines.append(_doubles_line(layout))
    if layout.steps:
        lines.append(_steps_line(sheet))
    if layout.chain:
        lines.append(_chain_line(sheet))
    if layout.exchange:
        lines.append(_exchange_line(sheet, _planned_field(shown_plan)))
    if layout.symbols:  # Bonus B: each symbol, its two cells, active or not (BB1)
        lines.append(_symbols_line(sheet))
    if layout.bar:  # Bonus A: each field's colour letter and x taken, v void, - free
        lines.append("bonus  " + " ".join(
            f"{c.letter.upper()}{format_bar(sheet)[k]}" for k, c in enumerate(layout.bar)))
    boxes = " ".join("[x]" if i < sheet.penalties else "[ ]"
                     for i in range(layout.penalty_boxes))
    penalty_note = "  (plan: a penalty)" if shown_plan is not None and shown_plan.penalty else ""
    lines.append(f"penalties {boxes}   score {sheet.score}{penalty_note}")
    if shown_plan is not None:
        lines.append(f"plan {format_plan(shown_plan)}: {shown_plan.describe(layout)}")
    return "\n".join(lines)


#: The glyphs drawn on Bonus B's symbol cells (BB1), by symbol name.
_SYMBOL_GLYPHS = {"circle": "\u25cb", "diamond": "\u25c7", "square": "\u25a1",
                  "octagon": "\u2bc3", "star": "\u2606"}


def _symbols_line(sheet: Sheet) -> str:
    """Bonus B: ``symbols  circle Y11 G9 active  diamond Y7 B7 -  ...`` (BB1)."""
    layout = sheet.layout
    on = active_symbols(sheet)
    parts = []
    for name, pair in zip(SYMBOL_NAMES, layout.symbols, strict=True):
        cells = " ".join(f"{layout.locks[r].letter.upper()}{layout.numbers[r][p]}"
                         for r, p in pair)
        parts.append(f"{name} {cells} {'active' if name in on else '-'}")
    return "symbols  " + "  ".join(parts)


def _chain_line(sheet: Sheet) -> str:
    """The text line of a Connected Chain sheet's pairs (CC1), ``[R6-Y6]`` a crossed pair.

    >>> from qwixx_math.notation import parse_sheet
    >>> print(_chain_line(parse_sheet("connected-chain|r:6/y:6")))
    chain  [R6-Y6] R11-Y11 Y3-G11 Y8-G6 G9-B9 G4-B4
    """
    layout = sheet.layout
    pairs = []
    for pair in layout.chain:
        text = "-".join(f"{layout.locks[r].letter.upper()}{layout.numbers[r][p]}"
                        for r, p in pair)
        r, p = pair[0]
        pairs.append(f"[{text}]" if sheet.masks[layout.locks[r].index] >> p & 1 else text)
    return f"chain  {' '.join(pairs)}"


def _exchange_line(sheet: Sheet, planned: int | None = None) -> str:
    """The text line of the X-Change track: ``[9/7]`` a field used, ``.`` a field lost
    (left of the last one used, XC2), ``<11/3>`` the field a plan uses.

    >>> from qwixx_math.notation import parse_sheet
    >>> print(_exchange_line(parse_sheet("x-change|r:3/x:1,2")))
    x-change   .    [9/7]  [11/3]  7/4    10/3   8/6    10/5   11/9   6/4    2 used
    """
    cells = []
    for index, (a, b) in enumerate(sheet.layout.exchange):
        pair = f"{a}/{b}"
        if index in sheet.used_fields:
            cells.append(f"[{pair}]")
        elif index == planned:
            cells.append(f"<{pair}>")
        elif index < sheet.last_field:
            cells.append(f" {'.':^{len(pair)}} ")
        else:
            cells.append(f" {pair} ")
    return f"x-change {' '.join(f'{c:^6}' for c in cells)}  {len(sheet.used_fields)} used"


def _doubles_line(layout: SheetLayout) -> str:
    """The text line of a Double B sheet's double cells, row by row (DB1).

    >>> from qwixx_math.layouts import DOUBLE_B
    >>> print(_doubles_line(DOUBLE_B))
    double cells (2 crosses each)  red 3 5 9 11  yellow 3 5 9 11  green 10 8 6 4  blue 10 8 6 4
    """
    rows = []
    for lock, numbers, weights in zip(layout.locks, layout.numbers, layout.weights,
                                      strict=True):
        doubled = [str(n) for n, w in zip(numbers, weights, strict=True) if w == 2]
        if doubled:
            rows.append(f"{lock.value} {' '.join(doubled)}")
    return "double cells (2 crosses each)  " + "  ".join(rows)


def _steps_line(sheet: Sheet) -> str:
    """The text line of a Connected Steps sheet's step cells, left to right by column
    (``[R2]`` crossed), with their count and points (CS2).

    >>> from qwixx_math.notation import parse_sheet
    >>> print(_steps_line(parse_sheet("connected-steps|r:2,5/y:3")))
    steps  [R2] [Y3] Y4 [R5] G8 B7 B6 G5 R10 Y11 G2   3 crossed  6 points
    """
    layout = sheet.layout
    cells = []
    for row, p in sorted(layout.steps, key=lambda cell: (cell[1], cell[0])):
        lock = layout.locks[row]
        label = f"{lock.letter.upper()}{layout.numbers[row][p]}"
        cells.append(f"[{label}]" if sheet.masks[lock.index] >> p & 1 else label)
    return (f"steps  {' '.join(cells)}   {sheet.steps_crossed} crossed  "
            f"{sheet.steps_score} point{'' if sheet.steps_score == 1 else 's'}")
