"""The JSON Schema (draft 2020-12) of game records, shipped as package data.

The library itself never needs a JSON Schema engine: :func:`read_record` checks
the same format in code (and the relations between fields that a schema cannot
express).  The schema is for other programs and their tests.

>>> record_schema()["$id"]
'urn:qwixx-math:game-record:1'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["SCHEMA_RESOURCE", "record_schema", "schema_text"]

#: The schema's file inside the package.
SCHEMA_RESOURCE = "data/game-record.schema.json"


def schema_text() -> str:
    """The schema file's text, as shipped."""
    return resources.files("qwixx_math").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")


@cache
def _schema() -> str:
    return schema_text()


def record_schema() -> dict[str, Any]:
    """The game-record JSON Schema as a fresh dict (safe to modify)."""
    data: dict[str, Any] = json.loads(_schema())
    return data
