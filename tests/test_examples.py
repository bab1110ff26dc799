"""Every script in examples/ runs to completion (exit code 0) in a fresh interpreter.

Each script runs in a subprocess from the repository root, with the repository
on ``PYTHONPATH`` (so the scripts work from a plain checkout as well as from an
installed package), under a time limit.  None is skipped.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qwixx_math.record import random_game, replay
from qwixx_math.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "examples").glob("*.py"))
#: Seconds before a script counts as hung.  Examples finish in well under 10 s once the
#: tables are cached; from an empty cache a script may compile the kernels and wait for another
#: test process (``pytest -n``) that is solving the table it needs (the cache's file lock), on
#: a busy shared machine.  A guard against hangs, not a timing assertion.
TIME_LIMIT = 900


def script_env() -> dict[str, str]:
    """The environment with the repository first on ``PYTHONPATH``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_there_are_examples() -> None:
    """examples/ holds at least the rules core's random game."""
    assert ROOT / "examples" / "random_game.py" in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_example_runs(script: Path) -> None:
    """The script exits with code 0 and prints something (with no input: a script that
    reads standard input, such as the arena bot, sees its end at once)."""
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=script_env(),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=TIME_LIMIT, check=False)
    assert done.returncode == 0, f"{script.name} exited {done.returncode}:\n{done.stderr}"
    assert done.stdout.strip(), f"{script.name} printed nothing"


def test_random_game_example_output() -> None:
    """examples/random_game.py prints the game turn by turn and ends with the scores and the
    winners, which agree with replaying the same seeded game."""
    done = subprocess.run([sys.executable, "examples/random_game.py", "--players", "2",
                           "--seed", "5"], cwd=ROOT, env=script_env(), capture_output=True,
                          text=True, timeout=TIME_LIMIT, check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "Qwixx, 2 player(s), seed 5: Kari, Ola"
    assert lines[-1].startswith("Winner(s): ")
    turns = [line for line in lines if line.startswith("Turn ")]
    assert turns and turns[0].startswith("Turn 1: Kari rolls w:")
    ended = next(line for line in lines if line.startswith("The game ended after"))
    assert ended.startswith(f"The game ended after {len(turns)} turns by ")
    spec = importlib.util.spec_from_file_location("random_game_example",
                                                  ROOT / "examples" / "random_game.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    record = random_game(ruleset=Ruleset(2), seed=5, chooser=module.small_skips,
                         names=["Kari", "Ola"])
    final = replay(record)[-1]
    assert len(turns) == len(record.turns)
    assert lines[-1] == "Winner(s): " + ", ".join(record.players[i] for i in final.winners)
    for name, score in zip(record.players, final.scores, strict=True):
        assert any(line.startswith(f"  {name:<6} ") and line.endswith(f" = {score}")
                   for line in lines)
