"""The one rule for reading numbers and names (qwixx_math.parsing, docs/notation.md), issue 32
item 9: each reproducer of the issue is refused, and Hypothesis checks the helpers against
slow obvious readers and the notation against the rule."""

from __future__ import annotations

import contextlib
import io
import math
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import sheets

from qwixx_math import cli
from qwixx_math.errors import InvalidStateError, ParseError
from qwixx_math.layouts import LAYOUTS, layout_named
from qwixx_math.model import Sheet
from qwixx_math.notation import format_sheet, parse_mark, parse_roll, parse_sheet
from qwixx_math.parsing import MAX_DIGITS, parse_count, parse_decimal, parse_name
from qwixx_math.policies import PolicySpec

#: Characters that tempt a lenient reader: other scripts' digits, whitespace of all
#: kinds, signs, underscores, upper case.
TRICKY = "0123456789-+_ .eE\t\n\r\x0b\x0c\u00a0\u2003\u3000\u0663\u06f5\u0967\uff13oO"


def reference_count(text: str) -> int | None:
    """The number ``text`` writes by the rule, read character by character, or None."""
    sign, digits = 1, text
    if digits[:1] in ("-", "+"):
        sign, digits = (-1 if digits[0] == "-" else 1), digits[1:]
    if not 1 <= len(digits) <= MAX_DIGITS:
        return None
    value = 0
    for ch in digits:
        if ch not in "0123456789":
            return None
        value = value * 10 + "0123456789".index(ch)
    return sign * value


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet=TRICKY, max_size=8) | st.text(max_size=8)
       | st.integers().map(str), low=st.none() | st.integers(-5, 5),
       high=st.none() | st.integers(5, 10**12))
def test_parse_count_reads_exactly_ascii_whole_numbers(text: str, low: int | None,
                                                       high: int | None) -> None:
    expected = reference_count(text)
    if expected is not None and (low is None or expected >= low) \
            and (high is None or expected <= high):
        assert parse_count(text, "--games", low, high) == expected
    else:
        with pytest.raises(ParseError, match=r"^--games: "):
            parse_count(text, "--games", low, high)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=TRICKY, max_size=10) | st.text(max_size=6)
       | st.floats(allow_nan=False).map(str))
def test_parse_decimal_reads_only_finite_ascii_decimals(text: str) -> None:
    try:
        value = parse_decimal(text, "--alpha")
    except ParseError as exc:
        assert str(exc).startswith("--alpha: ")
        return
    assert text.isascii() and not any(ch.isspace() or ch == "_" for ch in text)
    assert math.isfinite(value) and value == float(text)


NAMES = ("official", "mixx-a", "mixx-b")


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(NAMES).flatmap(
    lambda n: st.sampled_from([n, n.upper(), f" {n}", f"{n} ", n.capitalize(), n + "\n"]))
    | st.text(max_size=8))
def test_parse_name_reads_names_exactly(text: str) -> None:
    if text in NAMES:
        assert parse_name(text, "layout", NAMES) == text
        assert layout_named(text).name == text
        return
    with pytest.raises(ParseError, match="expected one of official, mixx-a, mixx-b") as err:
        parse_name(text, "layout", NAMES)
    if text.strip().lower() in NAMES:  # a near miss names the spelling to write
        assert f"write {text.strip().lower()!r}" in str(err.value)
    if text in LAYOUTS:  # a published pad outside NAMES (Hypothesis draws strings it finds
        assert layout_named(text).name == text  # in the code, such as 'bonus-a')
        return
    with pytest.raises(ParseError, match="unknown layout"):
        layout_named(text)


@pytest.mark.parametrize("name", ["Optimal", "optimal ", " optimal", "OPTIMAL",
                                  "threshold-\u0663", "threshold- 3", "Seed-Tips",
                                  "threshold-3\n"])
def test_policy_names_are_read_exactly(name: str) -> None:
    with pytest.raises(ParseError, match="unknown policy"):
        PolicySpec.parse(name)


@pytest.mark.parametrize("text", ["red :2", "r:2\n/y:3", "R:2", "r:2/Y:3", "r:\u0662",
                                  "r:2,3,4,5,6,12,LOCK", "r:2\t", "\u00a0r:2", "r:2/p:\u0661",
                                  "P:1"])
def test_sheets_outside_the_rule_are_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_sheet(text)


@pytest.mark.parametrize("text", ["W:1,2", "w:1,2/R:3", "w:1 ,2\n", "w:\u0661,2",
                                  "white :1,2"])
def test_rolls_outside_the_rule_are_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_roll(text)


SEPARATORS = re.compile(r"([/,|]|:)")


@settings(max_examples=150, deadline=None)
@given(sheet=sheets(), pads=st.lists(st.sampled_from(["", " ", "  "]), min_size=40,
                                     max_size=40))
def test_spaces_around_the_separators_read_as_the_canonical_sheet(
        sheet: Sheet, pads: list[str]) -> None:
    """Spaces after ':' and around '/', ',' read as the canonical text does."""
    pieces = SEPARATORS.split(format_sheet(sheet))
    out = [pads[-1]]
    for i, piece in enumerate(pieces):
        pad = pads[i % len(pads)]
        if piece in ("/", ","):
            out.append(f"{pad}{piece}{pad}")
        elif piece == ":":
            out.append(f":{pad}")
        else:
            out.append(piece)
    assert parse_sheet("".join(out) + pads[0]) == sheet


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet="rygbpwl:,/-|0123456789 \t\nRGP\u00a0\u0663", max_size=20))
@example(text="Gb2")  # Big Points' bonus marks were read case-blind (found by this test)
@example(text="RY5")
def test_accepted_notation_keeps_the_rule(text: str) -> None:
    """Whatever the sheet, roll and mark readers accept is lower case, ASCII, and spaced
    by the ASCII space only."""
    for reader in (parse_sheet, parse_roll, parse_mark):
        try:
            reader(text)
        except ParseError:
            continue
        except InvalidStateError:  # well formed, but no game reaches it
            pass
        assert text.isascii() and text == text.lower()
        assert not any(ch.isspace() and ch != " " for ch in text)


def run_cli(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli.main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, err.getvalue()


@pytest.mark.parametrize("argv", [
    ("solve", "--layout", "OFFICIAL"),
    ("solve", "--layout", " official"),
    ("advise", "--sheet", "r:2", "--roll", "w:1,2", "--top", " 3"),
    ("advise", "--sheet", "r:2", "--roll", "w:1,2", "--top", "\u0663"),
    ("advise", "--sheet", "red :2", "--roll", "w:1,2"),
    ("advise", "--sheet", "r:2\n/y:3", "--roll", "w:1,2"),
    ("distribution", "--policy", "Optimal"),
    ("distribution", "--policy", "threshold-\u0663"),
    ("policies", "--policy", "optimal "),
])
def test_the_command_line_refuses_what_the_rule_refuses(argv: tuple[str, ...]) -> None:
    code, err = run_cli(*argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert lines and "Traceback" not in err
    assert "expected" in lines[-1] or "must be" in lines[-1], err


def test_a_sheet_without_key_value_parts_shows_the_notation() -> None:
    code, err = run_cli("advise", "--sheet", "r2,3/g12", "--roll", "w:1,2")
    assert code == 2
    assert "'r:2,3,5/g:12,11/p:1'" in err  # an example of the notation, not just 'key:value'
