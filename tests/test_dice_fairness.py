"""The dice-fairness tests: file formats, statistics by hand, power and false alarms (seeded)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats  # type: ignore[import-untyped]

from qwixx_math.dice import dice_fairness, parse_rolls, read_rolls
from qwixx_math.dice.fairness import CSV_COLUMNS, MIN_EXPECTED, _holm
from qwixx_math.errors import ParseError, QwixxError
from qwixx_math.model import Roll
from qwixx_math.notation import roll_to_json
from qwixx_math.record import random_game

BIASED = [3 / 20] * 5 + [1 / 4]  # a die that shows 6 a quarter of the time


def sample(seed: int, n: int, biased_column: int | None = None,
           absent: dict[int, int] | None = None) -> list[Roll]:
    """``n`` rolls of six dice; ``absent[column] = k``: that die is out of play after roll k."""
    rng = np.random.default_rng(seed)
    dice = rng.integers(1, 7, size=(n, 6))
    if biased_column is not None:
        dice[:, biased_column] = rng.choice(np.arange(1, 7), size=n, p=BIASED)
    out = []
    for k, row in enumerate(dice.tolist()):
        coloured = [None if absent and k >= absent.get(2 + i, n) else row[2 + i]
                    for i in range(4)]
        r, y, g, b = coloured
        out.append(Roll((row[0], row[1]), (r, y, g, b)))
    return out


def test_a_fair_sample_passes() -> None:
    report = dice_fairness(sample(1, 1000))
    assert report.fair and report.verdict.startswith("fair")
    assert len(report.tests) == 15 and not report.notes


def test_a_biased_die_is_flagged() -> None:
    report = dice_fairness(sample(2, 1000, biased_column=2))
    assert not report.fair and report.verdict.startswith("NOT fair")
    assert "red die" in {t.name for t in report.flagged}


def test_power_and_false_alarms() -> None:
    """At 1000 rolls a die with P(6) = 1/4 is flagged nearly always; fair dice rarely."""
    power = sum(not dice_fairness(sample(100 + s, 1000, biased_column=3)).fair for s in range(25))
    alarms = sum(not dice_fairness(sample(500 + s, 1000)).fair for s in range(40))
    assert power >= 24
    assert alarms <= 6  # alpha 0.05 family-wise: about 2 expected


@pytest.mark.slow
def test_power_at_500_rolls() -> None:
    power = sum(not dice_fairness(sample(s, 500, biased_column=2)).fair for s in range(200))
    alarms = sum(not dice_fairness(sample(1000 + s, 500)).fair for s in range(200))
    assert power >= 160 and alarms <= 20


def test_removed_colours_use_only_the_rolls_they_were_in() -> None:
    rolls = sample(3, 600, absent={5: 200, 4: 450})  # blue gone after 200 rolls, green 450
    tests = {t.name: t for t in dice_fairness(rolls).tests}
    assert tests["blue die"].rolls == 200 and tests["green die"].rolls == 450
    assert tests["white 1 + blue"].rolls == 200 and tests["red die"].rolls == 600
    assert sum(tests["blue die"].observed) == 200


def test_statistics_by_hand() -> None:
    rolls = sample(4, 300)
    red = [r.coloured[0] for r in rolls]
    test = next(t for t in dice_fairness(rolls).tests if t.name == "red die")
    observed = [red.count(f) for f in range(1, 7)]
    assert list(test.observed) == observed
    assert test.expected == (Fraction(50),) * 6
    chi2 = sum(Fraction((o - 50) ** 2, 50) for o in observed)
    assert test.chi2 == pytest.approx(float(chi2))
    assert test.chi2_p == pytest.approx(stats.chi2.sf(float(chi2), 5))
    g = 2 * sum(o * math.log(o / 50) for o in observed if o)
    assert test.g == pytest.approx(g)
    assert test.g_p == pytest.approx(stats.chi2.sf(g, 5))


def test_white_sum_cells_are_merged_below_five() -> None:
    rolls = sample(5, 60)
    test = next(t for t in dice_fairness(rolls).tests if t.name == "white sum")
    assert test.merged and all(e >= MIN_EXPECTED for e in test.expected)
    assert sum(test.observed) == 60 and sum(test.expected) == 60
    # 60 * (1+2)/36 = 5 for 2-3, 60 * 3/36 = 5 for 4 and for 10, 60 * (2+1)/36 = 5 for 11-12
    assert test.cells == ("2-3", "4", "5", "6", "7", "8", "9", "10", "11-12")
    too_few = dice_fairness(sample(6, 8))
    assert any("too few" in n for n in too_few.notes)


def test_no_rolls_gives_no_verdict() -> None:
    report = dice_fairness([])
    assert not report.tests and not report.fair and report.verdict.startswith("no verdict")


def test_sorted_whites_are_not_mistaken_for_bias() -> None:
    rolls = [Roll(tuple(sorted(r.white)), r.coloured) for r in sample(7, 1000)]  # type: ignore[arg-type]
    report = dice_fairness(rolls)
    names = {t.name for t in report.tests}
    assert "white dice (pooled)" in names and "white 1 die" not in names
    assert not any("+" in n for n in names)
    assert report.fair and "sorted" in report.notes[0]
    pooled = next(t for t in report.tests if t.name == "white dice (pooled)")
    assert pooled.rolls == 2000


def test_holm_by_hand() -> None:
    assert _holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert _holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_both_methods() -> None:
    rolls = sample(8, 1000, biased_column=0)
    for method in ("chi2", "g"):
        report = dice_fairness(rolls, method=method)
        assert "white 1 die" in {t.name for t in report.flagged}
        chosen = [t.chi2_p if method == "chi2" else t.g_p for t in report.tests]
        assert [t.adjusted_p for t in report.tests] == pytest.approx(_holm(chosen))


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"alpha": 0}, "alpha"), ({"alpha": 1.5}, "alpha"), ({"alpha": float("nan")}, "alpha"),
    ({"method": "ks"}, "method"),
])
def test_bad_arguments(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ParseError, match=match):
        dice_fairness(sample(9, 10), **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        dice_fairness(["w:1,2"])  # type: ignore[list-item]


# -- file formats ---------------------------------------------------------------------------------

def test_json_forms() -> None:
    rolls = sample(10, 20, absent={3: 10})
    text = json.dumps([roll_to_json(r) for r in rolls])
    assert parse_rolls(text) == tuple(rolls)
    assert parse_rolls(json.dumps({"rolls": [str(r) for r in rolls]})) == tuple(rolls)
    record = random_game(players=3, seed=4)
    got = parse_rolls(json.dumps(record.to_json()))
    assert got == tuple(t.roll for t in record.turns) and got


def test_csv_form(tmp_path: object) -> None:
    rolls = sample(11, 30, absent={4: 12})
    lines = [",".join(reversed(CSV_COLUMNS))]
    for r in rolls:
        cells = [str(d) if d is not None else "" for d in (*r.white, *r.coloured)]
        lines.append(",".join(reversed(cells)))
    text = "\n".join(lines) + "\n\n"
    assert parse_rolls(text) == tuple(rolls)
    assert parse_rolls("white1,white2,red\n3,4,5\n") == (Roll.of(3, 4, red=5),)


def test_read_rolls_from_files(tmp_path: pytest.TempPathFactory) -> None:
    from pathlib import Path

    base = Path(str(tmp_path))
    rolls = sample(12, 5)
    (base / "r.json").write_text(json.dumps([roll_to_json(r) for r in rolls]))
    (base / "r.txt").write_text("white1,white2\n1,2\n")
    assert read_rolls(base / "r.json") == tuple(rolls)
    assert read_rolls(base / "r.txt") == (Roll((1, 2)),)
    with pytest.raises(ParseError, match="cannot read"):
        read_rolls(base / "missing.csv")


@pytest.mark.parametrize(("text", "fmt", "match"), [
    ("white1,white2,red\n1,2,3\n1,7,3\n", None, "line 3: R1"),
    ("white1,white2,red\n1,2,3\n\n1,2\n", None, "line 4: expected 3 cells"),
    ("white1,white2,red\n,2,3\n", None, "line 2: the white1 die is missing"),
    ("white1,purple\n1,2\n", None, "line 1: .*unknown purple"),
    ("white1,white1,white2\n", None, "repeated white1"),
    ("red,yellow\n1,2\n", None, "white1 and white2 required"),
    ("", None, "empty"),
    ("white1,white2\n1,x\n", "csv", "line 2: R1"),
    ('white1,white2\n"1,2\n', "csv", "line"),
    ("[1, 2", None, "not valid JSON"),
    ('[{"white": [1, 2]}, {"white": [1]}]', None, "roll 2"),
    ('[{"white": [1, 2], "red": 9}]', None, "roll 1.*R1"),
    ('{"turns": []}', None, "list of rolls"),
    ('{"format": "other"}', None, "game record"),
    ("3", "json", "list of rolls"),
    ("x", "yaml", "unknown rolls format"),
])
def test_malformed_files_name_the_problem(text: str, fmt: str | None, match: str) -> None:
    with pytest.raises(ParseError, match=match):
        parse_rolls(text, fmt)


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.text(alphabet="white12,3456789redyllowgnbu\n\"", max_size=80),
    st.recursive(st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=4),
                 lambda c: st.lists(c, max_size=4)
                 | st.dictionaries(st.sampled_from(["white", "red", "rolls", "format",
                                                    "turns", "blue"]), c, max_size=4),
                 max_leaves=12).map(json.dumps)))
def test_fuzz_parse_rolls(text: str) -> None:
    try:
        rolls = parse_rolls(text)
    except QwixxError:
        return
    assert all(isinstance(r, Roll) for r in rolls)
    dice_fairness(rolls)
