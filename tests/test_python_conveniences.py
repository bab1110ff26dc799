"""Python conveniences of issue 35: distributions as numpy arrays with plot(), seat values
one call away, and the progress= of the long entry points."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from qwixx_math import ParseError, QwixxError, Sheet
from qwixx_math.policies import ScoreDistribution, policy_value, score_distribution
from qwixx_math.solver import solve
from qwixx_math.solver.variant import Variant
from qwixx_math.table import TableAdvisor, seat_values

HAND = ScoreDistribution("hand", "k", False, -3, (0.25, 0.0, 0.5, 0.25))
SMALL = Variant.from_letters("ad", 5, 2, 2, 2)  # two rows of 5 numbers: solved in ms


def test_distribution_arrays_match_the_tuple_form() -> None:
    scores, probabilities = HAND.score_array, HAND.probability_array
    assert scores.dtype == np.int64 and probabilities.dtype == np.float64
    assert scores.tolist() == [-3, -2, -1, 0] == list(HAND.scores)
    assert probabilities.tolist() == [0.25, 0.0, 0.5, 0.25]
    assert float(scores @ probabilities) == HAND.mean == -1.25
    with pytest.raises(ValueError):
        probabilities[0] = 1.0  # read-only: the distribution is a value
    assert HAND.probabilities == (0.25, 0.0, 0.5, 0.25)  # the old API is unchanged


def test_plot_draws_one_bar_per_score_or_the_cdf() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = HAND.plot()
    assert [p.get_height() for p in ax.patches] == [0.25, 0.0, 0.5, 0.25]
    assert [p.get_x() + p.get_width() / 2 for p in ax.patches] == [-3, -2, -1, 0]
    assert ax.get_xlabel() == "final score"
    _, mine = plt.subplots()
    assert HAND.plot(mine, cumulative=True) is mine
    assert mine.lines[0].get_ydata().tolist() == [0.25, 0.25, 0.75, 1.0]
    plt.close("all")


def test_plot_without_matplotlib_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(QwixxError, match=r"pip install 'qwixx_math\[plot\]'"):
        HAND.plot()


def test_seat_values_one_call_away() -> None:
    advisor = TableAdvisor.for_ruleset(players=2, progress=False)
    long_way = advisor.table.seat_values
    assert seat_values(2, progress=False) == long_way == advisor.seat_values
    empty = Sheet.EMPTY
    assert long_way == tuple(advisor.value(empty, before_me=k) for k in (0, 1))
    with pytest.raises(ParseError, match="R3"):
        seat_values(6)
    with pytest.raises(ParseError):
        seat_values(2, layout="nonsense")


@pytest.mark.parametrize("work", ["solve", "policy_value", "score_distribution"])
def test_progress_true_draws_the_bar_on_stderr_even_off_a_terminal(
        work: str, capsys: pytest.CaptureFixture[str]) -> None:
    """In Jupyter stderr is no terminal: progress=None stays silent, progress=True draws."""
    calls = {
        "solve": lambda p: solve(variant=SMALL, cache=False, progress=p),
        "policy_value": lambda p: policy_value("fewest-skips", variant=SMALL, cache=False,
                                               progress=p),
        "score_distribution": lambda p: score_distribution("optimal", variant=SMALL,
                                                           cache=False, progress=p),
    }
    calls[work](None)
    assert capsys.readouterr().err == ""
    calls[work](False)
    assert capsys.readouterr().err == ""
    calls[work](True)
    err = capsys.readouterr().err
    assert "\r" in err and err.endswith("\n") and "100%" in err
