"""Run the examples in every module docstring of qwixx_math (docs/*.md run via --doctest-glob)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import qwixx_math

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(qwixx_math.__path__, "qwixx_math.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
