"""Fuzz every ``qwixx-math`` command: only the documented exit codes, never a traceback.

The commands are discovered from :func:`qwixx_math.cli.build_parser` (a new command is
fuzzed without touching this file) and run in-process through :func:`qwixx_math.cli.main`
with hypothesis-drawn arguments: the command's own option strings and choices, arbitrary
text, small numbers, and files holding arbitrary bytes, JSON values, near-miss game
records, CSV text and rolls.  What may come back: exit code 0 or 2 (argparse's usage
errors and ``--help`` included), and 1 only where the command documents it (``validate``:
violations, ``dice-test``: not fair, ``conformance --check``: disagreement).  Any other
exception escaping ``main`` fails the test.

The expensive work behind ``solve``, ``policies``, ``distribution``, ``simulate`` and
``generate`` (solving, evaluating, simulating, writing many records) and the full corpus
behind ``conformance`` is replaced by a sentinel: reaching it means every check of the
arguments passed, which is all a fuzzer can learn there in milliseconds.  ``advise`` and
``review`` run for real (the cached table loads in 0.1 s).  Every example runs in a fresh
temporary directory, which is also the cache directory; arbitrary text that names an
absolute path or climbs out with ``..`` is not drawn, so nothing is written elsewhere.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import json_values, mutated_json

from qwixx_math import cli
from qwixx_math.record import random_game
from qwixx_math.ruleset import Ruleset

#: Commands that document exit code 1 (see each one's --help).
EXIT_ONE = {"validate", "dice-test", "conformance"}


class Reached(Exception):
    """The fuzzed arguments passed every check and reached the expensive work."""


def _sentinel(*_args: Any, **_kwargs: Any) -> Any:
    raise Reached


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


SUBPARSERS = _subparsers()
COMMANDS = sorted(SUBPARSERS)


def _vocabulary(parser: argparse.ArgumentParser) -> list[str]:
    """The command's option strings and every value of its choices."""
    words: list[str] = []
    for action in parser._actions:
        words += action.option_strings
        if action.choices:
            words += [str(c) for c in action.choices]
    return words


def _safe_text(text: str) -> bool:
    return not text.startswith(("/", "~", "\\")) and ".." not in text and ":" not in text[:3]


VALID_RECORD = random_game(players=2, seed=7, ruleset=Ruleset(players=2)).to_json()
TEXT = st.text(max_size=12).filter(_safe_text)
NOTATION = st.sampled_from(["r:2,3/y:-/g:-/b:-/p:0", "r:-/y:-/g:-/b:-/p:0", "w:3,5/r:1/y:2/g:6/b:4",
                            "w:1,1/r:1/y:1/g:1/b:1", "r:2,3,4,5,6,12", "g:12,11", "-", "red",
                            "w:3,5", "\u0663", "\x1b[31m", "\u202e", "1e999", "nan"])
NUMBERS = st.integers(-3, 12).map(str)
FILE_CONTENT = st.one_of(
    st.binary(max_size=200),
    json_values().map(lambda v: json.dumps(v).encode()),
    mutated_json(st.just(VALID_RECORD)).map(lambda v: json.dumps(v, allow_nan=True).encode()),
    st.just(json.dumps(VALID_RECORD).encode()),
    st.just(b"\xef\xbb\xbfwhite1,white2\n1,2\n3,4\n"),
    st.text(alphabet="0123456789,\n\r\" wr", max_size=80).map(
        lambda t: ("white1,white2,red,yellow,green,blue\n" + t).encode()),
    st.just(b'{"white": [' + b"9" * 5000 + b', 1]}'),
    st.just(b"[" * 10_000),
)
SUFFIXES = st.sampled_from([".json", ".csv", ".txt", ".png", ""])


@st.composite
def invocations(draw: st.DrawFn, command: str) -> tuple[list[str], list[tuple[str, bytes]]]:
    """An argument list for ``command`` and the files it refers to (name, content)."""
    files = [(f"f{i}{draw(SUFFIXES)}", draw(FILE_CONTENT)) for i in range(draw(st.integers(0, 2)))]
    tokens = st.one_of(st.sampled_from(_vocabulary(SUBPARSERS[command]) or ["-"]), TEXT,
                       NOTATION, NUMBERS, st.sampled_from([n for n, _ in files] or ["x"]),
                       st.sampled_from(["-", "", "missing.json", "sub/x.png", "out"]))
    return [command, *draw(st.lists(tokens, max_size=7))], files


@contextlib.contextmanager
def _sandbox(monkeypatch: pytest.MonkeyPatch, own_cache: bool) -> Iterator[Path]:
    """A fresh working directory (and, if ``own_cache``, cache directory), the expensive
    work replaced by :class:`Reached`."""
    with tempfile.TemporaryDirectory() as tmp, monkeypatch.context() as m:
        m.chdir(tmp)
        if own_cache:
            m.setenv("QWIXX_MATH_CACHE", str(Path(tmp) / "cache"))
        m.setattr("qwixx_math.commands.solve.solve", _sentinel)
        m.setattr("qwixx_math.commands.policies.policy_value", _sentinel)
        m.setattr("qwixx_math.commands.distribution.score_distribution", _sentinel)
        m.setattr("qwixx_math.commands.simulate.simulate", _sentinel)
        m.setattr("qwixx_math.commands.conformance.check_corpus", _sentinel)
        m.setattr("qwixx_math.commands.conformance.emit_corpus", _sentinel)
        m.setattr("qwixx_math.commands.generate.generate_records", _sentinel)
        m.setattr("qwixx_math.commands.coach.serve", _sentinel)  # would serve until Ctrl-C
        m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"format": 1}')))
        yield Path(tmp)


def run_fuzzed(monkeypatch: pytest.MonkeyPatch, argv: list[str],
               files: list[tuple[str, bytes]]) -> tuple[int | str | None, str]:
    """Run ``argv`` in a sandbox; the exit code (``"reached"`` for the sentinel) and stderr."""
    out, err = io.StringIO(), io.StringIO()
    # advise and review load the real solver table from the usual cache directory
    with _sandbox(monkeypatch, own_cache=argv[0] not in ("advise", "review")) as tmp:
        for name, content in files:
            (tmp / name).write_bytes(content)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code: int | str | None = cli.main(argv)
            except SystemExit as exc:  # argparse: --help, --version (0) or a usage error (2)
                code = exc.code
            except Reached:
                code = "reached"
    return code, err.getvalue()


def check(command: str, code: int | str | None, err: str) -> None:
    allowed: set[int | str | None] = {0, 2, "reached"}
    if command in EXIT_ONE:
        allowed.add(1)
    assert code in allowed, f"exit code {code!r}; stderr: {err[-2000:]}"
    for line in err.splitlines():
        assert len(line) <= 1500, f"an error line of {len(line)} characters"
        assert "\x1b" not in line and "\u202e" not in line, f"raw control text in {line!r}"
    assert "Traceback" not in err


#: Examples per test; ``QWIXX_FUZZ_EXAMPLES=500`` for a longer hunt (not derandomized then).
EXAMPLES = int(os.environ.get("QWIXX_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 25,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_answers_arbitrary_arguments(command: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    @FUZZ
    @given(invocations(command))
    def fuzz(case: tuple[list[str], list[tuple[str, bytes]]]) -> None:
        argv, files = case
        code, err = run_fuzzed(monkeypatch, argv, files)
        check(command, code, err)

    fuzz()


@pytest.mark.parametrize("command", ["validate", "review", "dice-test"])
def test_file_commands_answer_arbitrary_files(command: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The file is the positional argument, so every example reaches the reader."""
    @FUZZ
    @given(FILE_CONTENT, SUFFIXES, st.booleans())
    def fuzz(content: bytes, suffix: str, json_out: bool) -> None:
        name = f"input{suffix}"
        argv = [command, name, *(["--json"] if json_out else []),
                *(["--quiet"] if command == "review" else [])]
        code, err = run_fuzzed(monkeypatch, argv, [(name, content)])
        check(command, code, err)
        if code == 2:
            assert err.strip(), "exit code 2 without a message"

    fuzz()


LUCKY_SHEETS = st.one_of(
    st.sampled_from(["r:2", "r:14/y:2,3,4/g:16,15,14/b:16,15,14/p:2", "r:2,3,4,5,6,7,16",
                     "r:2,3,4,5,6,7/y:2,3,4,5,6,7/p:3", "longo:5,13|r:2", "g:16,15,2"]),
    st.text(alphabet="rygbpl:,/-|0123456789 ", max_size=30))


def test_prob_answers_the_lucky_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    """``prob``'s --lg-lucky-mode and --lg-lucky-candidates (LG4, LG5) with lucky layouts,
    good and bad, and arbitrary sheets: an answer (0) or a typed error (2), never a
    traceback; a bad Option value is argparse's usage error (2) naming the flag."""
    @FUZZ
    @given(LUCKY_SHEETS,
           st.sampled_from(["longo:5,13", "longo:2,16", "longo:8,10", "longo", "official",
                            "longo:13,5", "longo:5", "official:5,13", "longo:1,17"]),
           st.sampled_from(["instead", "additional", "both", "", "INSTEAD"]),
           st.sampled_from(["open_rows", "open_with_next_cell", "open", "-"]),
           st.sampled_from([None, "w:2,3/r:1/y:1/g:1/b:1", "w:8,8/r:8/y:8/g:8/b:8", "w:9,1"]))
    def fuzz(sheet: str, layout: str, mode: str, candidates: str, roll: str | None) -> None:
        argv = ["prob", f"--sheet={sheet}", f"--layout={layout}", f"--lg-lucky-mode={mode}",
                f"--lg-lucky-candidates={candidates}", "--json"]
        if roll is not None:
            argv.append(f"--roll={roll}")
        code, err = run_fuzzed(monkeypatch, argv, [])
        check("prob", code, err)
        if mode not in ("instead", "additional") or candidates not in ("open_rows",
                                                                       "open_with_next_cell"):
            assert code == 2 and "--lg-lucky-" in err

    fuzz()


#: The variant Options' flags (qwixx_math.validation.options), each with good, refused and
#: malformed values; None: the flag alone (a yes/no switch).
VARIANT_FLAG_VALUES = st.sampled_from([
    ("--da-scope", ["latest", "own_track", "LATEST", "", "\u0663"]),
    ("--da-same-turn", [None, "false"]), ("--no-da-same-turn", [None, "1"]),
    ("--bp-colour-trigger", ["same_colour", "either_adjacent", "either", "-"]),
    ("--bp-lock-marks", ["5", "6", "7", "\u0665", " 5", "5.0", "-6"]),
    ("--bb-fewest-candidates", ["open_rows", "open_with_next_cell", "open", ""]),
    ("--bb-diamond-order", ["colour_order", "player_choice", "color_order"]),
    ("--cc-partner-moves-frontier", [None]), ("--no-cc-partner-moves-frontier", [None]),
    ("--xc-field-without-cross", [None, "yes"]), ("--no-xc-field-without-cross", [None]),
    ("--xc-in-action2", [None]), ("--no-xc-in-action2", [None]),
    ("--lg-lucky-mode", ["instead", "additional", "both"]),
    ("--lg-lucky-candidates", ["open_rows", "open_with_next_cell", "open"]),
])
VARIANT_COMMANDS = {
    "prob": ["prob", "--sheet=r:2/y:-/g:-/b:-/p:0"],
    "generate": ["generate", "--games=1", "--seed=1", "--players=2"],
    "validate": ["validate", "game.json"],
    "arena": ["arena", "greedy", "random", "--games=2", "--quiet"],
    "coach": ["coach", "--no-browser"],
}


def test_the_variant_flags_answer_bad_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every variant Option's flag on every command that takes it, with good, refused and
    malformed values and the pads' layouts: an answer (0, or 1 from ``validate``) or a typed
    error (2), never a traceback; a malformed value is argparse's usage error naming the
    flag, a value not played the Ruleset's error naming its rule."""
    refused = {("--da-scope", "own_track"): "DA2", ("--bb-diamond-order", "player_choice"): "BB3",
               ("--no-cc-partner-moves-frontier", None): "CC3", ("--xc-in-action2", None): "XC5"}

    @FUZZ
    @given(st.sampled_from(sorted(VARIANT_COMMANDS)), st.lists(VARIANT_FLAG_VALUES.flatmap(
        lambda fv: st.tuples(st.just(fv[0]), st.sampled_from(fv[1]))), min_size=1, max_size=3),
        st.sampled_from([None, "official", "double-a", "big-points", "bonus-b", "x-change",
                         "longo:5,13"]))
    def fuzz(command: str, flags: list[tuple[str, str | None]], layout: str | None) -> None:
        argv = list(VARIANT_COMMANDS[command])
        if layout is not None and command != "prob":
            argv.append(f"--layout={layout}")
        for flag, value in flags:
            argv += [flag] if value is None else [f"{flag}={value}"]
        code, err = run_fuzzed(monkeypatch, argv,
                               [("game.json", json.dumps(VALID_RECORD).encode())])
        check(command, code, err)
        if code == 2:
            assert err.strip(), "exit code 2 without a message"
        if len(flags) == 1 and flags[0] in refused:
            assert code == 2 and f"{refused[flags[0]]}: " in err

    fuzz()


def test_the_commands_are_all_fuzzed() -> None:
    """Discovery found the commands (a broken discovery would fuzz nothing)."""
    assert {"advise", "validate", "dice-test", "distribution", "generate", "review",
            "solve"} <= set(COMMANDS)


def _bonus_pad(to_end: int) -> bytes:
    """A tiny Bonus-B-like layout file (tests/test_solver_bonus_b.py's pad): two rows of
    five, every cell a symbol cell; ``to_end`` 3 closed rows on three rows is refused (BB1)."""
    rows = [{"numbers": [2, 3, 4, 5, 6], "colours": "red"},
            {"numbers": [12, 11, 10, 9, 8], "colours": "yellow"}]
    if to_end == 3:
        rows.append({"numbers": [2, 3, 4, 5, 6], "colours": "green"})
    cells = {"circle": [["red", 1], ["yellow", 1]], "diamond": [["red", 2], ["yellow", 4]],
             "square": [["red", 0], ["yellow", 2]], "octagon": [["red", 3], ["yellow", 3]],
             "star": [["red", 4], ["yellow", 0]]}
    return json.dumps({"name": "bb-fuzz", "rows": rows, "lock_threshold": 2,
                       "penalty_boxes": 2, "closed_rows_to_end": to_end,
                       "symbols": cells}).encode()


BONUS_SHEETS = st.one_of(
    st.sampled_from(["p:0", "r:2/y:-/p:0", "r:2,3,4/y:12,11/p:1", "r:3,4,5,6", "y:12,11,10,9",
                     "r:2/y:9/p:2", "g:2", "bonus-b|r:2", "r:2,2", "p:5"]),
    st.text(alphabet="rygbp:,/-|0123456789 ", max_size=24))


def test_the_bonus_b_solver_commands_answer_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """``value``, ``advise``, ``solve``, ``review`` on a Bonus-B-like layout file (solved
    by the exact solver) or one it refuses (BB1), with arbitrary sheets, rolls, players and
    the circle's Option: an answer (0) or a typed error (2), never a traceback; the refused
    pad names BB1."""
    @FUZZ
    @given(st.sampled_from(["value", "advise", "solve", "review"]), st.sampled_from([2, 3]),
           BONUS_SHEETS,
           st.sampled_from([None, "w:1,2/r:1/y:3", "w:6,6/r:6/y:6", "w:1,2", "w:1,2/r:1/y:3/g:2",
                            "w:9,9/r:1/y:1"]),
           st.sampled_from([None, "1", "2", "0"]))
    def fuzz(command: str, to_end: int, sheet: str, roll: str | None, players: str | None
             ) -> None:
        argv = [command, "--layout=pad.json", "--quiet"]
        if command == "review":
            argv.append("game.json")
        elif command != "solve":
            argv.append(f"--sheet={sheet}")
            if command == "advise" and roll is not None:
                argv.append(f"--roll={roll}")
        if players is not None and command != "solve":
            argv.append(f"--players={players}")
        code, err = run_fuzzed(monkeypatch, argv, [("pad.json", _bonus_pad(to_end)),
                                                   ("game.json", json.dumps(VALID_RECORD)
                                                    .encode())])
        check(command, code, err)
        if code == 2:
            assert err.strip(), "exit code 2 without a message"
        if to_end == 3 and command == "value" and sheet == "p:0" and players in (None, "1"):
            assert code == 2 and "BB1: " in err, err
        if to_end == 2 and command == "value" and sheet == "p:0" and players in (None, "1"):
            assert code == 0, err

    fuzz()
