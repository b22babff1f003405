"""Redact every string inside a JSON-like payload before it goes to a model."""

from __future__ import annotations

from typing import Any

from sleepd.redaction.engine import RedactionStats, Redactor


def redact_obj(obj: Any, redactor: Redactor, stats: RedactionStats | None = None) -> Any:
    """A copy of ``obj`` with every string value redacted; keys are kept as they are.

    Dicts, lists and tuples are walked (tuples come back as lists, as JSON
    would have them); numbers, booleans and None pass through unchanged.
    """
    sink = stats if stats is not None else RedactionStats()
    return _walk(obj, redactor, sink)


def _walk(obj: Any, redactor: Redactor, stats: RedactionStats) -> Any:
    if isinstance(obj, str):
        return redactor.redact_counted(obj, stats)
    if isinstance(obj, dict):
        return {key: _walk(value, redactor, stats) for key, value in obj.items()}
    if isinstance(obj, list | tuple):
        return [_walk(item, redactor, stats) for item in obj]
    return obj
