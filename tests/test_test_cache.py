"""The tests' own solver cache (tests/conftest.py): a temporary directory shared by the
whole session, its xdist workers and its subprocesses, never the user's cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import qwixx_math
from qwixx_math.jit import numba_cache_dir
from qwixx_math.solver import cache_dir

ROOT = Path(qwixx_math.__file__).resolve().parent.parent

PROBE = '''
import os
from pathlib import Path

def test_probe():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    cache = os.environ["QWIXX_MATH_CACHE"]
    assert Path(cache).is_dir()
    Path(os.environ["PROBE_OUT"], worker).write_text(cache)

def test_probe_2():
    test_probe()

def test_probe_3():
    test_probe()

def test_probe_4():
    test_probe()
'''


def test_this_session_has_a_cache_and_numba_follows_it() -> None:
    assert os.environ.get("QWIXX_MATH_CACHE")
    assert cache_dir() == Path(os.environ["QWIXX_MATH_CACHE"])
    if not os.environ.get("NUMBA_CACHE_DIR"):
        assert numba_cache_dir().is_relative_to(cache_dir())
    child = subprocess.run([sys.executable, "-c", "import os; "
                            "print(os.environ['QWIXX_MATH_CACHE'])"],
                           capture_output=True, text=True, check=True, timeout=60)
    assert child.stdout.strip() == os.environ["QWIXX_MATH_CACHE"]


def run_probe(tmp_path: Path, *args: str) -> tuple[dict[str, str], Path]:
    """pytest on a copy of tests/conftest.py and a probe, without QWIXX_MATH_CACHE and
    with HOME and XDG_CACHE_HOME in tmp_path: the caches the probe saw, and the home."""
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(ROOT / "tests" / "conftest.py", suite / "conftest.py")
    (suite / "test_probe.py").write_text(PROBE)
    out = tmp_path / "out"
    out.mkdir()
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items()
           if k not in ("QWIXX_MATH_CACHE", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME")
           and not k.startswith("PYTEST_")}
    env.update(PYTHONPATH=str(ROOT), HOME=str(home), PROBE_OUT=str(out),
               XDG_CACHE_HOME=str(home / ".cache"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-c", os.devnull, "--rootdir", str(suite), *args, str(suite)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return {p.name: p.read_text() for p in out.iterdir()}, home


def test_without_qwixx_math_cache_the_tests_use_a_removed_temporary_one(
        tmp_path: Path) -> None:
    seen, home = run_probe(tmp_path)
    assert list(seen) == ["main"]
    cache = Path(seen["main"])
    assert not cache.is_relative_to(home) and not cache.is_relative_to(tmp_path)
    assert not cache.exists()  # removed at the end of the session
    assert not home.exists()   # nothing written in the user's home


@pytest.mark.slow  # starts two xdist workers: about 10 s on a busy 2-core machine
def test_xdist_workers_share_one_temporary_cache(tmp_path: Path) -> None:
    seen, _ = run_probe(tmp_path, "-n", "2")
    assert sorted(seen) == ["gw0", "gw1"]
    assert seen["gw0"] == seen["gw1"]
    assert not Path(seen["gw0"]).exists()
