"""``qwixx-math generate``'s count (issue 32, item 6): ASCII digits only, at most
``MAX_GAMES`` records and ``MAX_FILES`` files, refused before anything is generated or
written; a fuzz of ``--games`` with and without ``--out``."""

from __future__ import annotations

import contextlib
import io
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from qwixx_math.cli import main
from qwixx_math.commands.generate import MAX_FILES, MAX_GAMES
from qwixx_math.record import GameRecord

COUNTS = (st.integers(-5, MAX_GAMES + 5).map(str)
          | st.sampled_from([str(MAX_FILES), str(MAX_FILES + 1), str(MAX_GAMES),
                             str(MAX_GAMES + 1), "1000000", " 2", "2 ", "\u0662", "\uff12",
                             "+3", "1_0", "1e3", "", "0x10", "9" * 31])
          | st.text(alphabet="0123456789 +-_\u0660\u0661", max_size=8))


def run(argv: list[str]) -> tuple[int, list[int], str]:
    """Exit code, the counts ``generate_records`` was called with (it generates nothing
    here), and stderr."""
    calls: list[int] = []

    def records(games: int, *args: object) -> Iterator[GameRecord]:
        calls.append(games)
        return iter(())

    err = io.StringIO()
    with mock.patch("qwixx_math.commands.generate.generate_records", records), \
            contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: not a whole number
            code = exc.code if isinstance(exc.code, int) else 2
    return code, calls, err.getvalue()


@settings(max_examples=150, deadline=None)
@given(count=COUNTS, to_files=st.booleans())
def test_fuzz_games(count: str, to_files: bool) -> None:
    """A count is accepted exactly when it is ASCII digits (an optional sign) within the
    limit of its destination; a refused one generates nothing, creates no directory
    and exits with 2 and an error (never a traceback)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        argv = ["generate", f"--games={count}", "--seed", "1"]
        if to_files:
            argv += ["--out", str(out)]
        code, calls, err = run(argv)
        limit = MAX_FILES if to_files else MAX_GAMES
        valid = re.fullmatch(r"[+-]?[0-9]{1,30}", count) is not None
        accepted = valid and 0 <= int(count) <= limit
        assert code == (0 if accepted else 2), (count, err)
        assert calls == ([int(count)] if accepted else [])
        if not accepted:
            assert "error" in err and "Traceback" not in err and not out.exists()
