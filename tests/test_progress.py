"""The progress bar: phases in a player's words, a clock that runs without progress reports,
an estimate of the time left once progress moves, and no internal keys; the warm-up that
tells compiling from loading.  Texts only: no timing is asserted."""

from __future__ import annotations

import io
import threading

import pytest

from qwixx_math.solver import Variant
from qwixx_math.solver.progress import ProgressBar, format_time_left
from qwixx_math.solver.warmup import (
    COMPILING,
    COMPILING_EVERY_RUN,
    LOADING,
    WARM_UP_VARIANT,
    solving_label,
    warm_up,
)


class Terminal(io.StringIO):
    """A fake terminal that signals every write."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0
        self.wrote = threading.Condition()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        with self.wrote:
            self.writes += 1
            self.wrote.notify_all()
        return super().write(text)

    def wait_for_writes(self, n: int, timeout: float = 30.0) -> bool:
        with self.wrote:
            return self.wrote.wait_for(lambda: self.writes >= n, timeout)


def lines(stream: io.StringIO) -> list[str]:
    """Every redraw of the line, without the padding that wipes a longer one."""
    return [part.rstrip() for part in stream.getvalue().replace("\n", "\r").split("\r") if part]


def test_phases_progress_and_time_left() -> None:
    stream = Terminal()
    bar = ProgressBar("loading the solver", stream, interval=0.0, tick=False)
    bar.phase("solving the official game")
    bar(0, 100)
    bar(30, 100)
    bar(60, 100)
    bar(100, 100)
    bar.close()
    drawn = lines(stream)
    assert drawn[0].startswith("loading the solver ") and drawn[0].endswith(" s")
    assert "[" not in drawn[0]  # no bar before any progress
    assert drawn[1].startswith("solving the official game ") and "[" not in drawn[1]
    assert drawn[2].startswith("solving the official game [" + "." * 30 + "]   0%")
    assert "left" not in drawn[2]  # one report is no estimate
    assert "  30%" in drawn[3] and drawn[3].endswith(" left")
    assert "  60%" in drawn[4] and drawn[4].endswith(" left")
    assert "100%" in drawn[5] and "left" not in drawn[5] and drawn[5].endswith(" s")
    assert stream.getvalue().endswith("\n") and stream.getvalue().count("\n") == 1


def test_one_hundred_percent_only_when_done() -> None:
    stream = Terminal()
    bar = ProgressBar("solving the official game", stream, interval=0.0, tick=False)
    bar(0, 1000)
    bar(999, 1000)
    bar.close()
    assert " 99%" in lines(stream)[-1] and "100%" not in stream.getvalue()


def test_a_shorter_line_wipes_the_longer_one_before_it() -> None:
    stream = Terminal()
    bar = ProgressBar("a rather long first phase of the work", stream, tick=False)
    bar.phase("short")
    bar.close()
    redraws = stream.getvalue().split("\r")
    assert len(redraws[2]) >= len(redraws[1])


def test_the_clock_runs_while_a_phase_reports_nothing() -> None:
    stream = Terminal()
    bar = ProgressBar(COMPILING, stream, interval=0.01)
    try:
        assert stream.wait_for_writes(4 * 2)  # each redraw is one write (and a flush)
    finally:
        bar.close()
    drawn = lines(stream)
    assert len(drawn) >= 3 and all(line.startswith(COMPILING + "  ") for line in drawn)
    writes = stream.writes
    assert not stream.wait_for_writes(writes + 1, timeout=0.05)  # closed: the clock stopped


def test_time_left_in_words() -> None:
    assert format_time_left(0.4) == "under a second left"
    assert format_time_left(11.2) == "about 12 s left"
    assert format_time_left(59.5) == "about 60 s left"
    assert format_time_left(200) == "about 3 min left"


@pytest.mark.parametrize("variant", [Variant(), WARM_UP_VARIANT,
                                     Variant.from_letters("ad", 4, 2, 2, 1)])
def test_labels_never_show_internal_keys(variant: Variant) -> None:
    label = solving_label(variant)
    assert variant.key not in label and "-" not in label
    assert label.startswith("solving ")
    assert (label == "solving the official game") == variant.is_official


def test_warm_up_shows_loading_or_compiling_in_words() -> None:
    stream = Terminal()
    bar = ProgressBar("preparing", stream, interval=0.0, tick=False)
    first = warm_up(bar)  # compiles or loads, depending on this machine's numba cache
    second = warm_up(bar)  # now in memory: nothing compiles
    bar.close()
    assert not second.compiled
    drawn = lines(stream)
    assert LOADING in drawn[1]
    shown = {COMPILING, COMPILING_EVERY_RUN} & {line.split("  ")[0] for line in drawn}
    assert bool(shown) == first.compiled
    assert all(WARM_UP_VARIANT.key not in line for line in drawn)


def test_a_stream_that_is_no_terminal_gets_plain_lines_for_long_work_only() -> None:
    from qwixx_math.solver.progress import lines_off_terminal, progress_bar

    log = io.StringIO()  # not a terminal
    assert progress_bar(None, "solving", log) is None  # the Python default: terminals only
    bar = progress_bar(True, "solving", log)  # Python's progress=True: the bar (a notebook)
    assert bar is not None and not bar.lines
    bar.close()
    lines_off_terminal(True)  # as the command line does
    try:
        quick = progress_bar(True, "solving", log)
    finally:
        lines_off_terminal(False)
    assert quick is not None and quick.lines
    log.seek(0)
    log.truncate()
    quick(1, 2)
    quick.close()
    assert log.getvalue() == ""  # work under quiet_for seconds says nothing

    long = ProgressBar("compiling", log, tick=False, lines=True, quiet_for=0.0,
                       line_every=1e9)
    long(1, 4)
    long(2, 4)  # the same phase again within line_every: no new line
    long.phase("solving the official game")
    long(3, 4)
    long.close()
    written = log.getvalue()
    assert "\r" not in written
    shown = written.splitlines()
    assert [line.split("  ")[0].split(" [")[0] for line in shown] == [
        "compiling", "solving the official game", "solving the official game"]
    assert shown[-1].startswith("solving the official game [") and " 75%" in shown[-1]
