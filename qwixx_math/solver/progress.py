"""A tiny text progress bar for the solve (stderr, terminals only)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar", "progress_bar"]


class ProgressBar:
    """Redraws ``label [#####.....]  45%  12.3 s`` on one line; call it with (done, total)."""

    def __init__(self, label: str, stream: TextIO, width: int = 30, interval: float = 0.1) -> None:
        self.label = label
        self.stream = stream
        self.width = width
        self.interval = interval
        self._start = time.perf_counter()
        self._last_draw = -1.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self._last_draw < self.interval:
            return
        self._last_draw = now
        fraction = done / total if total > 0 else 1.0
        filled = round(self.width * fraction)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {100 * fraction:3.0f}%  {now - self._start:5.1f} s"
        )
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """End the bar's line (if anything was drawn)."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def progress_bar(
    enabled: bool | None, label: str, stream: TextIO | None = None
) -> ProgressBar | None:
    """A bar on ``stream`` (stderr by default), or None.

    ``enabled=None`` means: only when the stream is a terminal.
    """
    out = stream if stream is not None else sys.stderr
    if enabled is None:
        isatty = getattr(out, "isatty", None)
        enabled = bool(isatty and isatty())
    return ProgressBar(label, out) if enabled else None
