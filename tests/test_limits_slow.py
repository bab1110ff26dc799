"""The size and fault cases of issue 10, at full size (`pytest -m slow tests/test_limits_slow.py`).

A 2 GB file is refused before it is read; 2,000 turns of five illegal marks each are
checked with a capped report and bounded memory; a record longer than the reader's bound
and a million-roll file stay within bounds; a writer killed with ``kill -9`` in the middle
of an atomic write leaves a temporary file that the next write removes; a damaged cached
result is recomputed by the public entry point.  No test asserts a time.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from test_bad_input import SMALL, _illegal_turns

from qwixx_math.cli import main
from qwixx_math.dice.fairness import MAX_ROLLS, read_rolls
from qwixx_math.errors import ParseError
from qwixx_math.policies import score_distribution
from qwixx_math.policies.store import result_path
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import CacheWarning
from qwixx_math.solver.cache import TEMP_PREFIX, atomic_write
from qwixx_math.validation import validate_file
from qwixx_math.validation.reader import MAX_TURNS

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command", ["validate", "review", "dice-test"])
def test_a_2_gb_file_is_refused_before_it_is_read(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as f:  # sparse: no disk space, no time
        f.truncate(2 * 1024**3)
    tracemalloc.start()
    code = main([command, str(big)])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    err = capsys.readouterr().err
    assert code == 2 and "2,147,483,648 bytes; at most" in err
    assert peak < 10 * 2**20


def test_many_violations_take_bounded_memory_and_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "many.json"
    path.write_text(json.dumps(_illegal_turns(MAX_TURNS)))
    tracemalloc.start()
    code = main(["validate", str(path)])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out = capsys.readouterr().out
    assert code == 1
    assert "INVALID: 10,001 violation(s)" in out and "9,001 more violation(s) not shown" in out
    assert "dialect: not diagnosed" in out
    assert len(out) < 400_000 and peak < 150 * 2**20


def test_a_game_that_never_ends_is_bounded_by_the_reader(tmp_path: Path) -> None:
    record = _illegal_turns(MAX_TURNS * 10)  # like the 48 MB game that never ended
    path = tmp_path / "endless.json"
    path.write_text(json.dumps(record))
    with pytest.raises(ParseError, match=f"at most {MAX_TURNS} are read|bytes|too big|larger"):
        validate_file(path)


def test_a_million_rolls_are_read_within_bounds(tmp_path: Path) -> None:
    rng = random.Random(3)
    path = tmp_path / "rolls.csv"
    lines = ["white1,white2,red,yellow,green,blue"]
    lines += [",".join(str(rng.randint(1, 6)) for _ in range(6)) for _ in range(MAX_ROLLS)]
    path.write_text("\n".join(lines) + "\n")
    tracemalloc.start()
    rolls = read_rolls(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(rolls) == MAX_ROLLS and peak < 200 * 2**20
    path.write_text("\n".join(lines) + "\n1,1,1,1,1,1\n")
    with pytest.raises(ParseError, match="at most 1,000,000"):
        read_rolls(path)


_WRITER = """
import sys, time
from pathlib import Path
from qwixx_math.solver.cache import atomic_write

def slow(f):
    f.write(b"x" * 1_000_000)
    f.flush()
    print("writing", flush=True)
    time.sleep(60)

atomic_write(Path(sys.argv[1]), slow)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9")
def test_a_writer_killed_mid_write_leaves_a_temporary_the_next_write_removes(
        tmp_path: Path) -> None:
    target = tmp_path / "solitaire-v1-test.qxt"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, "-c", _WRITER, str(target)], env=env,
                             stdout=subprocess.PIPE, cwd=ROOT)
    assert child.stdout is not None and child.stdout.readline() == b"writing\n"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    left = [p for p in tmp_path.iterdir() if p.name.startswith(TEMP_PREFIX)]
    assert len(left) == 1 and left[0].stat().st_size == 1_000_000 and not target.exists()
    atomic_write(tmp_path / "other.bin", lambda f: f.write(b"ok"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.bin"]


def test_every_damaged_cached_distribution_is_recomputed(tmp_path: Path) -> None:
    ruleset = Ruleset(players=1)
    first = score_distribution("seed-tips", ruleset, SMALL, cache=tmp_path)
    path = result_path(tmp_path, SMALL, False, "seed-tips", "distribution")
    good = path.read_bytes()
    rng = random.Random(5)
    for _ in range(20):
        damaged = bytearray(good)
        damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        if bytes(damaged) == good:
            continue
        path.write_bytes(bytes(damaged))
        with pytest.warns(CacheWarning):
            again = score_distribution("seed-tips", ruleset, SMALL, cache=tmp_path)
        assert (again.score_min, again.probabilities) == (first.score_min, first.probabilities)
        assert path.exists()  # rewritten
