"""The validation toolkit: check another Qwixx program's games against the reference rules.

* :func:`validate_file` / :func:`validate_record` replay a game record and report
  every violation with its turn, player and rule id (:class:`ValidationReport`),
  including the claimed scores, end of game and winners, and name the
  :class:`~qwixx_math.ruleset.Ruleset` switch (dialect) that explains them.
* :func:`read_record` / :func:`load_record` read records strictly (the JSON Schema
  of :func:`record_schema`), raising :class:`RecordError` with the JSON path.
* :mod:`~qwixx_math.validation.conformance` writes and checks the language-neutral
  conformance corpus; :func:`generate_records` writes random legal records.

See ``docs/validation.md``.
"""

from .conformance import check_corpus, corpus_files, emit_corpus
from .dialects import DialectFinding, Switch, diagnose
from .generate import game_seed, generate_records
from .reader import RecordError, load_record, parse_record_text, read_record
from .replay import Replay, check_record
from .schema import record_schema
from .validate import (
    ValidationReport,
    validate_data,
    validate_file,
    validate_record,
    validate_text,
)
from .violations import Step, Violation

__all__ = [
    "DialectFinding",
    "RecordError",
    "Replay",
    "Step",
    "Switch",
    "ValidationReport",
    "Violation",
    "check_corpus",
    "check_record",
    "corpus_files",
    "diagnose",
    "emit_corpus",
    "game_seed",
    "generate_records",
    "load_record",
    "parse_record_text",
    "read_record",
    "record_schema",
    "validate_data",
    "validate_file",
    "validate_record",
    "validate_text",
]
