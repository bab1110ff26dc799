"""The exact distribution of the final score under a policy (forward propagation).

Starting from the empty sheet with probability 1, every state's probability is
pushed to the states its roll's chosen plans lead to, with the exact per-state
weights of :mod:`.engine` (the same sweep as the evaluation), in the order of
play: tables with fewer closed rows first, levels of fewer marks first, fewer
penalties first.  The solver's layout forgets a closed row's marks (they never
change a decision), but the final score needs them, so the probability of a
state with closed rows is kept per *closed-points slot* (the sum of the
closed rows' points: 28, 36, 45, 55, 66 or 78 in the official game).  A game
that ends adds its probability to the histogram of its (integer) final score.

The probabilities are float64 (exact rationals would need a common denominator
of 36^turns x 6^(4 turns)); the histogram sums to 1 within ~1e-15 and its
mean equals V_pi(start).  Ties between plans of equal priority are broken by
the rules core's order of legal plans, so for the optimal policy the
distribution is that of *this* optimal policy: another tie-break gives the same
mean but may shift probability between scores where two plans of exactly equal
value lead to different futures.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ParseError, QwixxError
from ..solver.engine import ProgressCallback
from ..solver.variant import Variant
from . import engine
from .geometry import geometry, readonly_table
from .spec import PolicySpec

__all__ = ["PERCENTILES", "ScoreDistribution", "forward_distribution"]

#: The percentiles reported.
PERCENTILES: tuple[int, ...] = (1, 5, 10, 25, 50, 75, 90, 95, 99)
#: Configurations whose cells are computed in one parallel batch (buffers ~85 KB each).
BATCH = 512
#: Configurations per work unit of a thread.
CHUNK = 8


@dataclass(frozen=True, slots=True)
class ScoreDistribution:
    """``probabilities[i]`` is P(final score = ``score_min + i``)."""

    policy: str
    variant_key: str
    action2_after_action1_end: bool
    score_min: int
    probabilities: tuple[float, ...]
    seconds: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:
        if not self.probabilities:
            raise ParseError("a score distribution needs at least one score")

    @property
    def scores(self) -> range:
        return range(self.score_min, self.score_min + len(self.probabilities))

    @property
    def total(self) -> float:
        """The sum of the probabilities (1 up to rounding)."""
        return math.fsum(self.probabilities)

    @property
    def mean(self) -> float:
        return math.fsum(s * q for s, q in zip(self.scores, self.probabilities, strict=True))

    @property
    def variance(self) -> float:
        mu = self.mean
        return math.fsum((s - mu) ** 2 * q
                         for s, q in zip(self.scores, self.probabilities, strict=True))

    @property
    def sd(self) -> float:
        """The standard deviation."""
        return math.sqrt(self.variance)

    def cdf(self, score: int) -> float:
        """P(final score <= ``score``)."""
        n = max(0, min(len(self.probabilities), score - self.score_min + 1))
        return math.fsum(self.probabilities[:n])

    def percentile(self, q: float) -> int:
        """The smallest score s with P(score <= s) >= q/100 (q in (0, 100])."""
        if isinstance(q, bool) or not isinstance(q, (int, float)) or not 0 < q <= 100:
            raise ParseError(f"a percentile is a number in (0, 100], not {q!r}")
        running = 0.0
        target = q / 100 - 1e-12  # rounding of the cumulative sum
        for s, p in zip(self.scores, self.probabilities, strict=True):
            running += p
            if running >= target:
                return s
        return self.scores[-1]

    def percentiles(self, qs: Sequence[int] = PERCENTILES) -> dict[int, int]:
        return {q: self.percentile(q) for q in qs}

    @property
    def mode(self) -> int:
        return self.score_min + int(np.argmax(self.probabilities))

    def support(self) -> tuple[int, int]:
        """The lowest and highest score of positive probability."""
        nz = [s for s, p in zip(self.scores, self.probabilities, strict=True) if p > 0]
        return nz[0], nz[-1]

    def summary(self) -> dict[str, Any]:
        """Mean, sd, percentiles and a few tail probabilities."""
        return {
            "mean": self.mean,
            "sd": self.sd,
            "total_probability": self.total,
            "mode": self.mode,
            "min": self.support()[0],
            "max": self.support()[1],
            "percentiles": {str(q): v for q, v in self.percentiles().items()},
            "p_score_le_0": self.cdf(0),
            "p_score_ge_100": 1.0 - self.cdf(99),
            "p_score_ge_150": 1.0 - self.cdf(149),
        }

    # -- numpy and matplotlib (issue 35) ------------------------------------------------------
    @property
    def score_array(self) -> npt.NDArray[np.int64]:
        """The scores as a numpy array (the same values as :attr:`scores`)."""
        return np.arange(self.score_min, self.score_min + len(self.probabilities),
                         dtype=np.int64)

    @property
    def probability_array(self) -> npt.NDArray[np.float64]:
        """The probabilities as a (read-only) numpy array aligned with :attr:`score_array`."""
        out = np.array(self.probabilities, dtype=np.float64)
        out.flags.writeable = False
        return out

    def plot(self, ax: Any = None, *, cumulative: bool = False, **bar: Any) -> Any:
        """Draw the distribution on a matplotlib ``ax`` (a new figure's when None) and return
        the axes: a bar per score (``bar`` goes to ``ax.bar``), the mean and the 5th, 50th
        and 95th percentiles; ``cumulative`` draws P(score <= s) instead.  Needs matplotlib
        (``pip install 'qwixx_math[plot]'``); without it, a QwixxError says so."""
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            raise QwixxError("plot() needs matplotlib: pip install 'qwixx_math[plot]'"
                             ) from None
        if ax is None:
            _, ax = plt.subplots(figsize=(9, 4.5))
        scores, probabilities = self.score_array, self.probability_array
        if cumulative:
            ax.step(scores, np.cumsum(probabilities), where="post", **bar)
            ax.set_ylabel("P(final score <= s)")
        else:
            bar.setdefault("width", 1.0)
            bar.setdefault("color", "#4a7ab5")
            ax.bar(scores, probabilities, **bar)
            ax.set_ylabel("probability")
        ax.axvline(self.mean, color="black", linewidth=1.2, label=f"mean {self.mean:.2f}")
        for q in (5, 50, 95):
            ax.axvline(self.percentile(q), color="grey", linestyle="--", linewidth=0.8)
        low, high = self.support()
        ax.set_xlim(low - 2, high + 2)
        ax.set_xlabel("final score")
        ax.set_title(f"{self.policy} policy: sd {self.sd:.2f}, percentiles 5/50/95 = "
                     f"{self.percentile(5)}/{self.percentile(50)}/{self.percentile(95)}")
        ax.legend()
        return ax

    def to_json(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "variant": self.variant_key,
            "action2_after_game_end": self.action2_after_action1_end,
            **self.summary(),
            "histogram": {str(s): p for s, p in zip(self.scores, self.probabilities,
                                                    strict=True) if p > 0},
        }


def forward_distribution(
    spec: PolicySpec,
    variant: Variant,
    action2_after_action1_end: bool,
    vstar: npt.NDArray[np.float64] | None = None,
    progress: ProgressCallback | None = None,
) -> tuple[ScoreDistribution, int]:
    """The final-score distribution from the empty sheet, and the number of
    configurations the game can reach under the policy."""
    start = time.perf_counter()
    geo = geometry(variant)
    lay = geo.layout
    table = readonly_table(vstar, lay.size, spec.needs_table)
    ncp_all = len(geo.cp_value)
    n_cp = np.ones(1 << variant.rows, dtype=np.int64)
    fwd_offsets = np.full(1 << variant.rows, -1, dtype=np.int64)
    size = 0
    for mask in lay.masks:
        n_cp[mask] = 1 if mask == 0 else ncp_all
        fwd_offsets[mask] = size
        size += lay.table_size(mask) * int(n_cp[mask])
    mass = np.zeros(size)
    mass[0] = 1.0  # the empty sheet: no closed row, every code 0, no penalty
    hist = np.zeros(geo.score_max - geo.score_min + 1)
    args = geo.engine_args(action2_after_action1_end)
    order = list(reversed(geo.masks_backward))  # fewer closed rows first
    total = sum(len(geo.items(mask)[0]) for mask in order)
    done = 0
    reached = 0
    if progress is not None:
        progress(0, total)
    # the optimal policy decides per lane (penalties, times the step totals on a sheet with
    # steps, CS2): its buffers hold a layer per lane, so fewer configurations per batch
    n_layers = lay.lanes if spec.needs_table else 1
    batch_size = max(CHUNK, BATCH * variant.penalty_boxes // lay.lanes) \
        if spec.needs_table else BATCH
    for mask in order:
        items, level_start = geo.items(mask)
        open_rows = geo.open_rows(mask)
        n_cells = engine.cell_count(len(open_rows), variant.faces)
        buf_weights = np.empty((batch_size, n_layers, n_cells), dtype=np.int64)
        buf_out = np.empty((batch_size, n_layers, n_cells, 4), dtype=np.int64)
        buf_tb = np.empty((batch_size, n_layers, n_cells), dtype=np.int64)
        for level in range(len(level_start) - 1):
            batch = items[level_start[level]:level_start[level + 1]]
            if len(batch) == 0:
                continue
            active = engine.forward_active(
                lay.offsets, lay.strides, variant.open_codes, lay.lanes, mass,
                fwd_offsets, n_cp, mask, open_rows, batch)
            reached += len(active)
            # configurations of one level never feed one another: their cells are computed
            # in parallel, then their probability is pushed on (serially: shared targets)
            for first in range(0, len(active), batch_size):
                part = active[first:first + batch_size]
                engine.forward_weights(args, int(spec.kind), float(spec.param), table, mask,
                                       open_rows, part, buf_weights, buf_out, buf_tb, CHUNK)
                engine.forward_scatter(args, mass, fwd_offsets, n_cp, geo.cp_value, geo.cp_add,
                                       hist, geo.score_min, mask, open_rows, part, buf_weights,
                                       buf_out)
            done += len(batch)
            if progress is not None:
                progress(done, total)
    dist = ScoreDistribution(spec.name, variant.key, action2_after_action1_end, geo.score_min,
                             tuple(float(x) for x in hist), time.perf_counter() - start)
    return dist, reached
