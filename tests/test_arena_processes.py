"""The arena's processes and command line from outside (issue 32): an external program and
whatever it starts end with the match, also when the arena is stopped by SIGINT or
SIGTERM; bad counts and JSON are refused before any work, with exit code 2 and no
traceback.  Every subprocess has a timeout, and the teardown kills (by pid) any process
a test started that is still there."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from qwixx_math.arena import ExternalPlayer, open_players, play_match
from qwixx_math.cli import main
from qwixx_math.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "arena_bot.py"
#: Seconds any one wait of these tests may take before it counts as a hang.
LIMIT = 60.0


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (Linux /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def gone_within(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def read_pid(path: Path, seconds: float = LIMIT) -> int:
    """The pid written to ``path`` (waiting for the whole line)."""
    deadline = time.monotonic() + seconds
    while True:
        text = path.read_text() if path.exists() else ""
        if text.endswith("\n"):
            return int(text)
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} was not written within {seconds} s")
        time.sleep(0.05)


class Forking:
    """``exec:sh -c '...'``: a shell that writes its pid, starts ``sleep 120`` in the
    background (writing its pid) and becomes the example bot (same pid as the shell)."""

    def __init__(self, directory: Path, tag: str) -> None:
        self.bot_file = directory / f"{tag}-bot.pid"
        self.child_file = directory / f"{tag}-child.pid"
        script = (f"echo $$ > {shlex.quote(str(self.bot_file))}; "
                  f"sleep 120 & echo $! > {shlex.quote(str(self.child_file))}; "
                  f"exec {shlex.quote(sys.executable)} {shlex.quote(str(BOT))}")
        self.name = "exec:" + shlex.join(["sh", "-c", script])

    def pids(self) -> list[int]:
        return [read_pid(self.bot_file), read_pid(self.child_file)]


@pytest.fixture
def started(tmp_path: Path) -> Iterator[list[int]]:
    """A list the test adds its processes' pids to; those still alive are killed after."""
    pids: list[int] = []
    yield pids
    for directory_pid in tmp_path.glob("*.pid"):
        text = directory_pid.read_text()
        if text.endswith("\n"):
            pids.append(int(text))
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def _default_sigint() -> None:
    # a test run started in the background ignores SIGINT, and so would the arena
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def arena(*argv: str, stderr: int) -> subprocess.Popen[str]:
    """``qwixx-math ARGV`` in a subprocess, its stdout a pipe, SIGINT not ignored."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "qwixx_math", *argv], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=stderr, text=True,
                            preexec_fn=_default_sigint)


def test_forking_bots_end_with_the_match(tmp_path: Path, started: list[int]) -> None:
    """Two bots that each start a background child: after the match neither the bots nor
    their children are left (they were: 4 of 4 processes, issue 32)."""
    bots = [Forking(tmp_path, "a"), Forking(tmp_path, "b")]
    names = [b.name for b in bots]
    with open_players(names, Ruleset(2), 1) as players:
        result = play_match(players, 2, 1, names=names)
        pids = [pid for b in bots for pid in b.pids()]
        started.extend(pids)
        assert all(alive(pid) for pid in pids)
    assert result.faults == ()
    assert [pid for pid in pids if not gone_within(pid)] == []


@pytest.mark.skipif(signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
                    reason="SIGINT is ignored in this run (started in the background)")
def test_sigint_in_process(tmp_path: Path, started: list[int],
                           capsys: pytest.CaptureFixture[str]) -> None:
    """The command's SIGINT handler, in this process (the subprocess versions below are
    slow): exit code 130, one line, the bots ended, the previous handler back."""
    bot = Forking(tmp_path, "i")
    before = signal.getsignal(signal.SIGINT)

    def interrupt() -> None:  # always interrupts, so that the match cannot run on for hours
        try:
            bot.pids()
            time.sleep(0.3)
        finally:
            os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=interrupt, daemon=True)
    timer.start()
    code = main(["arena", "greedy", bot.name, "--games", "100000", "--quiet"])
    timer.join(LIMIT)
    pids = bot.pids()
    started.extend(pids)
    out, err = capsys.readouterr()
    assert code == 130 and out == ""
    assert err == ("qwixx-math arena: stopped by SIGINT (Ctrl-C); every external player was "
                   "ended; no report\n")
    assert signal.getsignal(signal.SIGINT) is before
    assert [pid for pid in pids if not gone_within(pid)] == []


@pytest.mark.slow
def test_a_child_holding_stderr_does_not_hold_up_a_pipe(tmp_path: Path,
                                                         started: list[int]) -> None:
    """``qwixx-math arena ... 2>&1 | cat``: the bot's child inherits the arena's stderr,
    the pipe; the pipe reaches its end when the arena exits, not when the child would
    (it sleeps 120 s; the wait is bounded by LIMIT)."""
    bot = Forking(tmp_path, "p")
    proc = arena("arena", "greedy", bot.name, "--games", "2", "--quiet",
                 stderr=subprocess.STDOUT)
    started.append(proc.pid)
    try:
        out, _ = proc.communicate(timeout=LIMIT)
    finally:
        started.extend(bot.pids())
    assert proc.returncode == 0 and "faults: none" in out and "Traceback" not in out
    assert all(gone_within(pid) for pid in bot.pids())


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_arena_ends_its_bots(tmp_path: Path, started: list[int],
                                       sig: signal.Signals) -> None:
    """SIGINT (Ctrl-C) or SIGTERM during a match: one line on stderr, exit code
    128 + the signal (130, 143), no report, and every bot and its children ended (the
    bot was left running, and SIGINT printed a KeyboardInterrupt traceback, issue 32)."""
    bot = Forking(tmp_path, "s")
    proc = arena("arena", "greedy", bot.name, "--games", "100000", "--quiet",
                 stderr=subprocess.PIPE)
    started.append(proc.pid)
    pids = bot.pids()  # the match has begun
    started.extend(pids)
    time.sleep(0.5)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=LIMIT)
    assert proc.returncode == 128 + sig
    assert out == ""
    assert err.splitlines() == [f"qwixx-math arena: stopped by {sig.name}"
                                f"{' (Ctrl-C)' if sig == signal.SIGINT else ''}; every "
                                "external player was ended; no report"]
    assert [pid for pid in pids if not gone_within(pid)] == []


@pytest.mark.slow  # the same cases run in-process in test_arena_cli.py
@pytest.mark.parametrize(("argv", "message"), [
    # issue 32, item 1: a RecursionError traceback, exit 1
    (["arena", "greedy", "greedy", "--ruleset", "[" * 1000],
     "qwixx-math arena: error: --ruleset is not JSON: nested too deeply"),
    # item 6: hours of work, or gigabytes of files, accepted
    (["arena", "greedy", "greedy", "--games", "10000000"],
     "qwixx-math arena: error: --games must be between 1 and 100000, not 10000000"),
    (["generate", "--games", "1000000", "--seed", "1", "--out", "OUT"],
     "qwixx-math generate: error: --games must be between 0 and 100000, not 1000000"),
    (["generate", "--games", "10001", "--seed", "1", "--out", "OUT"],
     "qwixx-math generate: error: --games with --out writes at most 10000 files"),
    # item 9: spaces and non-ASCII digits were read as numbers
    (["arena", "greedy", "greedy", "--games", " 2"],
     "qwixx-math arena: error: argument --games: expected a whole number in ASCII digits"),
    (["arena", "greedy", "greedy", "--games", "\u0662"],
     "qwixx-math arena: error: argument --games: expected a whole number in ASCII digits"),
])
def test_refused_before_any_work(tmp_path: Path, started: list[int], argv: list[str],
                                 message: str) -> None:
    """Exit code 2, the error as the last line of stderr (argparse prints its usage
    before it), nothing on stdout, no traceback, no output directory."""
    argv = [str(tmp_path / "OUT") if a == "OUT" else a for a in argv]
    proc = arena(*argv, stderr=subprocess.PIPE)
    started.append(proc.pid)
    out, err = proc.communicate(timeout=LIMIT)
    assert proc.returncode == 2 and out == ""
    assert "Traceback" not in err and err.splitlines()[-1].startswith(message)
    if "usage:" not in err:
        assert len(err.splitlines()) == 1
    assert not (tmp_path / "OUT").exists()


def test_processes_that_ignore_sigterm_are_killed(tmp_path: Path, started: list[int]) -> None:
    """A program that neither reads its input nor heeds SIGTERM, with a child that ignores
    SIGTERM too: close() ends both (SIGKILL after the grace)."""
    bot_file, child_file = tmp_path / "bot.pid", tmp_path / "child.pid"
    script = (f"trap '' TERM; echo $$ > {shlex.quote(str(bot_file))}; "
              f"sleep 120 & echo $! > {shlex.quote(str(child_file))}; exec sleep 121")
    player = ExternalPlayer(shlex.join(["sh", "-c", script]))
    try:
        pids = [read_pid(bot_file), read_pid(child_file)]
        started.extend(pids)
        assert all(alive(pid) for pid in pids)
    finally:
        player.close()
    assert player.stopped == "the match is over"
    assert [pid for pid in pids if not gone_within(pid)] == []
