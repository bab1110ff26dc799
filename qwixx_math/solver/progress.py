"""A text progress bar for long work (stderr), in phases a player understands.

On a terminal, one line, redrawn in place::

    compiling the solver (first run only)   8.4 s
    solving the official game [#########.....................]  30%  21.0 s, about 28 s left

A bar goes through *phases* (:meth:`ProgressBar.phase`), each with its own text;
the clock counts from the bar's start.  A phase that reports no progress (numba
compiling) still shows a running clock: a daemon thread redraws the line at most
every ``interval`` seconds (numba's compiler and the nogil kernels release the GIL
often enough for it).  Once a phase reports progress, the line shows the fraction
done and an estimate of the time left: the time so far in the phase divided by
the progress made in it, smoothed so that it does not jump from one batch to the
next, and counting down between reports.

Where the stream is not a terminal (a log file, a pipe, CI), the same lines are
written one under the other instead (``lines=True``), and only for work that runs
longer than ``quiet_for`` seconds: then the current phase once, and again at most
every ``line_every`` seconds, so a log of a 15-minute computation shows that it
runs and how far it got without a line per batch.  The command line shows progress
this way by default (``--quiet`` turns it off; :func:`lines_off_terminal`).  The
Python functions draw only on a terminal unless ``progress=True``, which draws the
bar on any stream (a notebook redraws it in place).
"""

from __future__ import annotations

import math
import sys
import threading
import time
from typing import TextIO

__all__ = ["ProgressBar", "format_time_left", "lines_off_terminal", "progress_bar"]

#: Whether ``progress=True`` writes plain lines to a stream that is not a terminal (the
#: command line's choice) instead of a bar redrawn in place (a notebook's).
_lines_off_terminal = False


def lines_off_terminal(on: bool = True) -> None:
    """Make ``progress=True`` write plain lines where the stream is not a terminal (the
    command line calls this once: a log or a pipe then gets readable lines)."""
    global _lines_off_terminal
    _lines_off_terminal = on


#: Weight of a new estimate of the phase's end against the running one.
_SMOOTHING = 0.3


def format_time_left(seconds: float) -> str:
    """``about 12 s left``, ``about 3 min left``, ``under a second left``."""
    if seconds < 1:
        return "under a second left"
    if seconds < 90:
        return f"about {math.ceil(seconds)} s left"
    return f"about {round(seconds / 60)} min left"


class ProgressBar:
    """One line on ``stream`` in phases; call it with ``(done, total)`` to report progress.

    ``label`` is the first phase's text.  ``tick``: run the thread that keeps the
    clock going (tests of the drawing turn it off).  Call :meth:`close` at the end.
    """

    # the current phase (see _set_phase)
    _label: str
    _fraction: float | None  # None: no progress reported in this phase yet
    _first_report: tuple[float, float] | None  # (time, fraction) of its first report
    _end_estimate: float | None  # smoothed estimate of when the phase ends

    def __init__(self, label: str, stream: TextIO, width: int = 30, interval: float = 0.2,
                 tick: bool = True, lines: bool = False, quiet_for: float = 2.0,
                 line_every: float = 15.0) -> None:
        self.stream = stream
        self.width = width
        self.interval = interval
        self.lines = lines
        self.quiet_for = quiet_for
        self.line_every = line_every
        self._printed_label: str | None = None
        self._lock = threading.Lock()
        self._start = time.perf_counter()
        self._last_draw = -math.inf
        self._drawn_length = 0
        self._drawn = False
        self._closed = False
        self._set_phase(label)
        self._draw(time.perf_counter())
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if tick:
            self._ticker = threading.Thread(target=self._tick, name="progress-clock",
                                            daemon=True)
            self._ticker.start()

    @property
    def label(self) -> str:
        """The text of the current phase."""
        return self._label

    def phase(self, text: str) -> None:
        """Begin a new phase: new text, no progress yet; redrawn at once."""
        with self._lock:
            self._set_phase(text)
            self._draw(time.perf_counter())

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        fraction = min(max(done / total, 0.0), 1.0) if total > 0 else 1.0
        with self._lock:
            first = self._fraction is None
            self._update_estimate(now, fraction)
            self._fraction = fraction
            if first or fraction >= 1.0 or now - self._last_draw >= self.interval:
                self._draw(now)

    def close(self) -> None:
        """Stop the clock and end the bar's line (if anything was drawn)."""
        self._stop.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join()
        with self._lock:
            if self._drawn and not self._closed:
                if self.lines:
                    self._write(self._line(time.perf_counter()) + "\n")
                else:
                    self._draw(time.perf_counter())
                    self._write("\n")
            self._closed = True

    # ------------------------------------------------------------------ internals

    def _set_phase(self, text: str) -> None:
        self._label = text
        self._fraction = None
        self._first_report = None
        self._end_estimate = None

    def _update_estimate(self, now: float, fraction: float) -> None:
        if self._first_report is None:
            self._first_report = (now, fraction)
            return
        t0, f0 = self._first_report
        if fraction <= f0 or fraction >= 1.0:
            return
        end = now + (now - t0) * (1.0 - fraction) / (fraction - f0)
        previous = self._end_estimate
        self._end_estimate = end if previous is None else previous + _SMOOTHING * (end - previous)

    def _line(self, now: float) -> str:
        clock = f"{now - self._start:5.1f} s"
        if self._fraction is None:
            return f"{self._label}  {clock}"
        filled = round(self.width * self._fraction)
        bar = "#" * filled + "." * (self.width - filled)
        percent = math.floor(100 * self._fraction + 1e-9)  # 100% only when done
        line = f"{self._label} [{bar}] {percent:3d}%  {clock}"
        if self._end_estimate is not None and self._fraction < 1.0:
            line += ", " + format_time_left(max(0.0, self._end_estimate - now))
        return line

    def _draw(self, now: float) -> None:
        if self._closed:
            return
        if self.lines:
            self._print_line(now)
            return
        line = self._line(now)
        pad = " " * max(0, self._drawn_length - len(line))  # wipe a longer previous line
        self._write(f"\r{line}{pad}")
        self._drawn_length = len(line)
        self._last_draw = now
        self._drawn = True

    def _print_line(self, now: float) -> None:
        """Line mode: a new line for a new phase, else at most every ``line_every`` s."""
        if now - self._start < self.quiet_for:
            return
        if self._printed_label == self._label and now - self._last_draw < self.line_every:
            return
        self._write(self._line(now) + "\n")
        self._printed_label = self._label
        self._last_draw = now
        self._drawn = True

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval / 2):
            with self._lock:
                now = time.perf_counter()
                if now - self._last_draw < self.interval:
                    continue
                try:
                    self._draw(now)
                except (OSError, ValueError):  # the stream went away: stop the clock
                    return


def progress_bar(
    enabled: bool | None, label: str, stream: TextIO | None = None
) -> ProgressBar | None:
    """A bar on ``stream`` (stderr by default), or None.

    ``enabled=None`` means: only when the stream is a terminal.  ``True`` on a stream
    that is not a terminal draws the bar too, or writes plain lines after
    :func:`lines_off_terminal` (see the module's docstring).
    """
    out = stream if stream is not None else sys.stderr
    isatty = getattr(out, "isatty", None)
    terminal = bool(isatty and isatty())
    if enabled is None:
        enabled = terminal
    return ProgressBar(label, out, lines=_lines_off_terminal and not terminal) \
        if enabled else None
