"""No module of qwixx_math reads an underscore name defined in another module.

A module's underscore names are its own business: what another module needs is a named
public method or function of its owner. This test parses every module of the package with
`ast` (nothing is imported) and fails, listing ``file:line name``, on

(a) ``from X import _name`` where X is another qwixx_math module or package,
(b) ``module._name`` where ``module`` is bound to an imported qwixx_math module, and
(c) any attribute read ``obj._name`` whose ``_name`` the same module does not define as an
    attribute (a member of one of its class bodies, a ``__slots__`` entry or an attribute
    assignment target; a module-level ``_name`` does not count).

Dunder names (``__init__``, ``__name__``...) are never private. Modules whose names start with
an underscore (``commands/_args.py``) are fine to import from: the names inside are public.
Another library's names (``argparse._SubParsersAction``, read on a name imported from outside
qwixx_math) are that library's business, not this test's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = "qwixx_math"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE

# Attribute names that look private but are documented public API of the standard library
# (namedtuple's methods and fields, enum's sunder names).
STDLIB_PUBLIC = frozenset(
    {"_replace", "_asdict", "_fields", "_value_", "_name_", "_missing_", "_ignore_"}
)

# Modules allowed to break the rule, with the reason. Keep it empty.
EXCEPTIONS: dict[str, str] = {}

# Modules another engineer is moving out of the package: while they are here, the rule applies.
NEVER_EXCEPTED = (
    "qwixx_math.players.winfit",
    "qwixx_math.players.winsearch",
    "qwixx_math.players.rotation",
)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of the module at ``path`` inside the package at ``root``."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module name an ``ImportFrom`` reads from."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _attribute_names(tree: ast.Module) -> set[str]:
    """Every name the module defines that an attribute read can reach: the members of its
    class bodies (methods, nested classes, class attributes, fields), ``__slots__``
    entries, and attribute assignment targets (``self._x = ...``).  Module-level functions
    and variables do not count: ``obj._helper`` is not this module's ``_helper()``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(item.name)
                elif isinstance(item, ast.Assign | ast.AnnAssign):
                    targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                    names.update(t.id for t in targets if isinstance(t, ast.Name))
                    if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets) \
                            and item.value is not None:
                        names.update(c.value for c in ast.walk(item.value)
                                     if isinstance(c, ast.Constant) and isinstance(c.value, str))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.attr)
    return names


def violations(source: str, module: str, is_package: bool, modules: set[str]) -> Iterator[str]:
    """``line: message`` for each underscore name ``module`` reads from elsewhere.

    ``modules`` is the set of dotted names of the package's modules and packages.
    """
    tree = ast.parse(source)
    defined = _attribute_names(tree)
    bound: set[str] = set()  # local names bound to a qwixx_math module
    external: set[str] = set()  # local names imported from outside qwixx_math
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                if alias.name.split(".")[0] == PACKAGE:
                    bound.add(local)
                else:
                    external.add(local)
        elif isinstance(node, ast.ImportFrom):
            source_module = _resolve(module, is_package, node)
            if source_module.split(".")[0] != PACKAGE:
                external.update(alias.asname or alias.name for alias in node.names)
                continue
            for alias in node.names:
                full = f"{source_module}.{alias.name}"
                if full in modules:
                    bound.add(alias.asname or alias.name)
                elif _is_private(alias.name) and source_module != module:
                    yield f"{node.lineno}: from {source_module} import {alias.name}"
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _is_private(node.attr):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in bound:
            yield f"{node.lineno}: {node.value.id}.{node.attr} (another module's private name)"
        elif isinstance(node.value, ast.Name) and node.value.id in external:
            continue
        elif node.attr not in defined and node.attr not in STDLIB_PUBLIC:
            yield f"{node.lineno}: .{node.attr} (not defined in this module)"


def _package_modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _all_violations() -> list[str]:
    modules = _package_modules()
    found = []
    for name, path in modules.items():
        if name in EXCEPTIONS:
            continue
        source = path.read_text(encoding="utf-8")
        is_package = path.name == "__init__.py"
        rel = path.relative_to(ROOT.parent)
        found += [f"{rel}:{v}" for v in violations(source, name, is_package, set(modules))]
    return found


def test_no_private_names_across_modules() -> None:
    found = _all_violations()
    assert not found, "underscore names read across modules:\n" + "\n".join(found)


def test_exceptions_are_real_modules_and_exclude_moved_research() -> None:
    modules = _package_modules()
    assert set(EXCEPTIONS) <= set(modules)
    for name in NEVER_EXCEPTED:
        assert name not in EXCEPTIONS


def test_checker_flags_synthetic_violations() -> None:
    modules = {"qwixx_math", "qwixx_math.rules", "qwixx_math.players", "qwixx_math.players.win"}
    source = (
        "from qwixx_math.rules import _closes, closes\n"
        "from ..rules import _roll_for\n"
        "from qwixx_math import rules\n"
        "import qwixx_math.rules as r\n"
        "import argparse\n"
        "argparse._SubParsersAction\n"
        "rules._choices(1)\n"
        "r._choices(1)\n"
        "def f(layout):\n"
        "    return layout._pos(0, 1)\n"
        "class A:\n"
        "    __slots__ = ('_own',)\n"
        "    def g(self):\n"
        "        self._mine = 1\n"
        "        return self._mine, self._own, self.__class__, self._replace\n"
        "def _after(state):\n"
        "    return state._after(1)\n"
    )
    found = list(violations(source, "qwixx_math.players.win", False, modules))
    assert found == [
        "1: from qwixx_math.rules import _closes",
        "2: from qwixx_math.rules import _roll_for",
        "7: rules._choices (another module's private name)",
        "8: r._choices (another module's private name)",
        "10: ._pos (not defined in this module)",
        "17: ._after (not defined in this module)",
    ]


def test_checker_allows_own_private_names_and_private_modules() -> None:
    modules = {"qwixx_math", "qwixx_math.commands", "qwixx_math.commands._args"}
    source = (
        "from ._args import layout_from_args\n"
        "from . import _args\n"
        "_cache = {}\n"
        "def _helper():\n"
        "    return _cache\n"
        "_args.layout_from_args\n"
    )
    assert list(violations(source, "qwixx_math.commands.solve", False, modules)) == []
