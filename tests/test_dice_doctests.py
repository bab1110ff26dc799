"""The examples in the docstrings of qwixx_math.dice run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["qwixx_math.dice", "qwixx_math.dice.distribution", "qwixx_math.dice.outcomes",
           "qwixx_math.dice.events", "qwixx_math.dice.markov", "qwixx_math.dice.fairness"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name != "qwixx_math.dice.fairness":
        assert result.attempted > 0
