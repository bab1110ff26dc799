"""Are the dice fair?  Goodness-of-fit tests of recorded rolls against the exact distributions.

The tests (each a chi-square and a G-test, ``scipy.stats.power_divergence``):

* **each die** (white 1, white 2, red, yellow, green, blue): faces 1..6 uniform,
  over the rolls in which that die was rolled (a colour's die leaves play when
  its row closes, R9, so the coloured dice may have fewer rolls);
* **the white sum** (R5): 2..12 against the exact triangular distribution;
* **white i + colour** for each white die i and each colour (R6): 2..12 against the
  same triangular law.  ``white 1 + red`` and ``white 2 + red`` share the red die,
  so they are not independent: each pairing is its own test and they are never
  pooled as if independent (the Holm correction below is valid under any dependence).

Cells whose exact expected count is below 5 are merged with their neighbours (in
the natural order of faces or sums) until every cell expects at least 5; a test
left with fewer than two cells is not run (too few rolls) and the report says so.

Some programs write the white dice sorted.  When every one of at least 20 rolls
has white 1 <= white 2 (or every one >=), the per-white-die and white + colour
tests would flag fair dice, so they are replaced by one test of both white dice
pooled (2N faces, uniform under fairness, whatever their order), and the report
says why.

**Verdict**: the p-values of all tests run (of the chosen statistic, chi-square by
default) are adjusted by Holm's step-down method; a test whose adjusted p-value is
at most ``alpha`` (0.05 by default, family-wise) flags the dice as not fair.

p-values and statistics are floats (this is statistics, not exact probability);
the expected counts are exact fractions.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import stats  # type: ignore[import-untyped]

from ..errors import ParseError
from ..files import read_text_bounded
from ..model import COLOURS, Roll
from ..notation import parse_roll, roll_from_json
from .outcomes import white_sum_distribution

__all__ = [
    "CSV_COLUMNS",
    "FairnessReport",
    "FitTest",
    "dice_fairness",
    "parse_rolls",
    "read_rolls",
]

#: The columns of the CSV form, in this order (empty cells for dice not in play).
CSV_COLUMNS = ("white1", "white2", "red", "yellow", "green", "blue")
#: Smallest expected count per cell.
MIN_EXPECTED = 5
#: Rolls from which "every roll has white 1 <= white 2" is taken to mean sorted whites.
SORTED_WHITES_MIN = 20
_METHODS = ("chi2", "g")
#: Largest rolls file read (checked before reading it).
MAX_ROLLS_BYTES = 32 * 1024 * 1024
#: Most rolls tested (far more than any recorded series; the tests' power is long saturated).
MAX_ROLLS = 1_000_000

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class FitTest:
    """One goodness-of-fit test: cells, observed and exact expected counts, both statistics."""

    name: str
    rolls: int
    cells: tuple[str, ...]
    observed: tuple[int, ...]
    expected: tuple[Fraction, ...]
    chi2: float
    chi2_p: float
    g: float
    g_p: float
    merged: bool
    adjusted_p: float
    rejected: bool

    @property
    def df(self) -> int:
        """Degrees of freedom: cells - 1."""
        return len(self.cells) - 1

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rolls": self.rolls, "cells": list(self.cells),
                "observed": list(self.observed), "expected": [str(e) for e in self.expected],
                "chi2": self.chi2, "chi2_p": self.chi2_p, "g": self.g, "g_p": self.g_p,
                "df": self.df, "merged": self.merged, "adjusted_p": self.adjusted_p,
                "rejected": self.rejected}


@dataclass(frozen=True, slots=True)
class FairnessReport:
    """Every test run, the notes on tests not run, and the plain verdict."""

    rolls: int
    alpha: float
    method: str
    tests: tuple[FitTest, ...]
    notes: tuple[str, ...]

    @property
    def flagged(self) -> tuple[FitTest, ...]:
        """The tests that reject fairness after Holm's correction."""
        return tuple(t for t in self.tests if t.rejected)

    @property
    def fair(self) -> bool:
        """True when no test rejects (and at least one test could be run)."""
        return bool(self.tests) and not self.flagged

    @property
    def verdict(self) -> str:
        """The plain verdict in one sentence."""
        if not self.tests:
            return f"no verdict: {self.rolls} rolls are too few for any test"
        m = len(self.tests)
        how = (f"family-wise alpha {self.alpha:g}, Holm over {m} tests, "
               f"{'chi-square' if self.method == 'chi2' else 'G-test'}")
        if not self.flagged:
            return f"fair: no test rejects fair dice ({how})"
        names = ", ".join(f"{t.name} (adjusted p = {t.adjusted_p:.3g})" for t in self.flagged)
        return f"NOT fair: {names} ({how})"

    def to_json(self) -> dict[str, Any]:
        return {"rolls": self.rolls, "alpha": self.alpha, "method": self.method,
                "fair": self.fair, "verdict": self.verdict,
                "tests": [t.to_json() for t in self.tests], "notes": list(self.notes)}


# -- reading rolls ---------------------------------------------------------------------------------

def read_rolls(path: str | Path) -> tuple[Roll, ...]:
    """Rolls from a JSON or CSV file (by extension; otherwise by its first character)."""
    p = Path(path)
    text = read_text_bounded(p, MAX_ROLLS_BYTES, "rolls")
    fmt = {".json": "json", ".csv": "csv"}.get(p.suffix.lower())
    return parse_rolls(text, fmt)


def parse_rolls(text: str, fmt: str | None = None) -> tuple[Roll, ...]:
    """Rolls from text: ``fmt`` ``"json"`` or ``"csv"``, or None to tell by the first character.

    JSON: a list of rolls (``{"white": [3, 5], "red": 1, ...}`` or ``"w:3,5/r:1"``), an
    object ``{"rolls": [...]}``, or a game record (its turns' rolls).  CSV: a header
    naming the columns white1, white2, red, yellow, green, blue (any order), then one
    roll per line, empty cells for the dice not in play.
    """
    if not isinstance(text, str):
        raise ParseError(f"rolls must be text, not {type(text).__name__}")
    text = text.removeprefix("\ufeff")  # a byte-order mark, as spreadsheets write
    if fmt is None:
        fmt = "json" if text.lstrip()[:1] in ("[", "{") else "csv"
    if fmt == "json":
        return _rolls_json(text)
    if fmt == "csv":
        return _rolls_csv(text)
    raise ParseError(f"unknown rolls format {fmt!r}; expected json or csv")


def _rolls_json(text: str) -> tuple[Roll, ...]:
    try:
        data = json.loads(text)
    except ValueError as exc:  # JSONDecodeError, or a number too long to convert
        raise ParseError(f"rolls file is not valid JSON: {exc}") from None
    except RecursionError:
        raise ParseError("rolls file is not valid JSON: nested too deeply") from None
    if isinstance(data, dict) and "format" in data:
        from ..record import GameRecord

        record = GameRecord.from_json(data)
        for k, turn in enumerate(record.turns):
            if not 0 <= turn.active < len(record.players):
                raise ParseError(f"turn {k + 1}: the active player {_short(turn.active)} does "
                                 f"not exist; the record names {len(record.players)}")
        _check_count(len(record.turns))
        return tuple(t.roll for t in record.turns)
    if isinstance(data, dict):
        if set(data) != {"rolls"}:
            raise ParseError('a JSON rolls file is a list of rolls, {"rolls": [...]} '
                             "or a game record")
        data = data["rolls"]
    if not isinstance(data, list):
        raise ParseError('a JSON rolls file is a list of rolls, {"rolls": [...]} or a game record')
    _check_count(len(data))
    out = []
    seen: dict[Roll, Roll] = {}  # one object per distinct roll keeps a million rolls small
    for k, item in enumerate(data):
        try:
            roll = parse_roll(item) if isinstance(item, str) else roll_from_json(item)
        except ParseError as exc:
            raise ParseError(f"roll {k + 1} (JSON item {k}): {exc}") from None
        out.append(seen.setdefault(roll, roll))
    return tuple(out)


def _short(value: int) -> str:
    text = str(value)
    return text if len(text) <= 12 else f"{text[:6]}...({len(text)} digits)"


def _check_count(count: int) -> None:
    if count > MAX_ROLLS:
        raise ParseError(f"{count:,} rolls; at most {MAX_ROLLS:,} are tested")


def _rolls_csv(text: str) -> tuple[Roll, ...]:
    reader = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    out: list[Roll] = []
    seen: dict[tuple[int | None, ...], Roll] = {}  # one object per distinct roll
    index: list[int] = []
    try:
        for row in reader:
            line = reader.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if header is None:
                header = [cell.strip().lower() for cell in row]
                unknown = [h for h in header if h not in CSV_COLUMNS]
                missing = [c for c in CSV_COLUMNS[:2] if c not in header]
                dup = {h for h in header if header.count(h) > 1}
                if unknown or missing or dup:
                    raise ParseError(
                        f"line {line}: the CSV header must name the columns "
                        f"{', '.join(CSV_COLUMNS)} (white1 and white2 required)"
                        + (f"; unknown {', '.join(unknown)}" if unknown else "")
                        + (f"; repeated {', '.join(sorted(dup))}" if dup else ""))
                index = [header.index(c) if c in header else -1 for c in CSV_COLUMNS]
                continue
            if len(row) != len(header):
                raise ParseError(f"line {line}: expected {len(header)} cells, found {len(row)}")
            dice: list[int | None] = []
            for name, i in zip(CSV_COLUMNS, index, strict=True):
                cell = row[i].strip() if i >= 0 else ""
                if not cell:
                    if name.startswith("white"):
                        raise ParseError(f"line {line}: the {name} die is missing")
                    dice.append(None)
                elif cell in ("1", "2", "3", "4", "5", "6"):
                    dice.append(int(cell))
                else:
                    raise ParseError(
                        f"line {line}: R1: a die shows 1 to 6; the {name} cell is {cell!r}")
            w1, w2, r, y, g, b = dice
            assert w1 is not None and w2 is not None
            if len(out) == MAX_ROLLS:
                raise ParseError(f"line {line}: more than {MAX_ROLLS:,} rolls; at most "
                                 f"{MAX_ROLLS:,} are tested")
            key = (w1, w2, r, y, g, b)
            roll = seen.get(key)
            if roll is None:
                roll = seen[key] = Roll((w1, w2), (r, y, g, b))
            out.append(roll)
    except csv.Error as exc:
        raise ParseError(f"line {reader.line_num}: malformed CSV: {exc}") from None
    if header is None:
        raise ParseError("the CSV rolls file is empty; it needs a header line "
                         f"{','.join(CSV_COLUMNS)}")
    return tuple(out)


# -- the tests -------------------------------------------------------------------------------------

def _as_array(rolls: Sequence[Roll]) -> IntArray:
    if isinstance(rolls, (str, bytes)) or not isinstance(rolls, Sequence):
        raise ParseError("dice_fairness needs a sequence of Roll values")
    arr = np.zeros((len(rolls), 6), dtype=np.int64)
    for k, r in enumerate(rolls):
        if not isinstance(r, Roll):
            raise ParseError(f"roll {k + 1} is not a Roll: {r!r}")
        arr[k, 0], arr[k, 1] = r.white
        for i, d in enumerate(r.coloured):
            arr[k, 2 + i] = 0 if d is None else d
    return arr


_FACE = {str(f): Fraction(1, 6) for f in range(1, 7)}
_SUM = {str(s): p for s, p in white_sum_distribution().probabilities().items()}


@dataclass(frozen=True, slots=True)
class _Raw:
    name: str
    rolls: int
    cells: tuple[str, ...]
    observed: tuple[int, ...]
    expected: tuple[Fraction, ...]
    merged: bool


def _cells(name: str, values: IntArray, law: dict[str, Fraction],
           notes: list[str]) -> _Raw | None:
    n = int(values.size)
    labels = list(law)
    counts = [int(np.count_nonzero(values == int(label))) for label in labels]
    expected = [p * n for p in law.values()]
    cells: list[tuple[list[str], int, Fraction]] = []
    cur: tuple[list[str], int, Fraction] = ([], 0, Fraction(0))
    for label, o, e in zip(labels, counts, expected, strict=True):
        cur = (cur[0] + [label], cur[1] + o, cur[2] + e)
        if cur[2] >= MIN_EXPECTED:
            cells.append(cur)
            cur = ([], 0, Fraction(0))
    if cur[0]:
        if cells:
            last = cells.pop()
            cells.append((last[0] + cur[0], last[1] + cur[1], last[2] + cur[2]))
        else:
            cells.append(cur)
    if len(cells) < 2:
        notes.append(f"{name}: not tested, {n} values are too few "
                     f"(each cell must expect at least {MIN_EXPECTED})")
        return None
    merged = len(cells) < len(labels)
    return _Raw(name, n, tuple(_label(c[0]) for c in cells), tuple(c[1] for c in cells),
                tuple(c[2] for c in cells), merged)


def _label(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else f"{labels[0]}-{labels[-1]}"


def _statistic(raw: _Raw, kind: str) -> tuple[float, float]:
    f_obs = np.array(raw.observed, dtype=float)
    f_exp = np.array([float(e) for e in raw.expected])
    lam = "pearson" if kind == "chi2" else "log-likelihood"
    res = stats.power_divergence(f_obs, f_exp, lambda_=lam)
    return float(res.statistic), float(res.pvalue)


def _holm(pvalues: Sequence[float]) -> list[float]:
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def dice_fairness(rolls: Sequence[Roll], alpha: float = 0.05,
                  method: str = "chi2") -> FairnessReport:
    """Test recorded ``rolls`` for fair dice (see the module docstring for the tests).

    ``method`` picks the statistic the verdict uses (``"chi2"`` or ``"g"``); both are
    reported.
    """
    if method not in _METHODS:
        raise ParseError(f"method must be chi2 or g, not {method!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or \
            not (math.isfinite(alpha) and 0 < alpha < 1):
        raise ParseError(f"alpha must lie strictly between 0 and 1, not {alpha!r}")
    arr = _as_array(rolls)
    n = len(arr)
    notes: list[str] = []
    raws: list[_Raw | None] = []
    w1, w2 = arr[:, 0], arr[:, 1]
    sorted_whites = n >= SORTED_WHITES_MIN and (bool(np.all(w1 <= w2)) or bool(np.all(w1 >= w2)))
    if sorted_whites:
        notes.append(
            f"the white dice look sorted (white 1 {'<=' if np.all(w1 <= w2) else '>='} white 2 "
            f"in all {n} rolls): the white dice are tested pooled, and the white 1 / white 2 "
            "and white + colour tests, which need the dice in rolled order, are not run")
        raws.append(_cells("white dice (pooled)", np.concatenate([w1, w2]), _FACE, notes))
    else:
        raws.append(_cells("white 1 die", w1, _FACE, notes))
        raws.append(_cells("white 2 die", w2, _FACE, notes))
    for i, c in enumerate(COLOURS):
        col = arr[:, 2 + i]
        raws.append(_cells(f"{c.value} die", col[col > 0], _FACE, notes))
    raws.append(_cells("white sum", w1 + w2, _SUM, notes))
    if not sorted_whites:
        for i, c in enumerate(COLOURS):
            col = arr[:, 2 + i]
            present = col > 0
            for k, w in ((1, w1), (2, w2)):
                raws.append(_cells(f"white {k} + {c.value}", (w + col)[present], _SUM, notes))
    done = [r for r in raws if r is not None]
    chi = [_statistic(r, "chi2") for r in done]
    gee = [_statistic(r, "g") for r in done]
    chosen = [c[1] for c in chi] if method == "chi2" else [g[1] for g in gee]
    adjusted = _holm(chosen)
    tests = tuple(
        FitTest(r.name, r.rolls, r.cells, r.observed, r.expected, c[0], c[1], g[0], g[1],
                r.merged, a, a <= alpha)
        for r, c, g, a in zip(done, chi, gee, adjusted, strict=True))
    return FairnessReport(n, float(alpha), method, tests, tuple(notes))

