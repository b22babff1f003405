"""Transcript harvesters: bytes on disk to normalized records, nothing more.

This package knows nothing of the database, the CLI, redaction or the dream;
`sleepd.harvest` drives it. Import the concrete harvesters through
`harvesters.registry` so new sources plug in as entry points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harvesters.base import Harvester
from harvesters.records import (
    Batch,
    EventRecord,
    FileCursor,
    SessionRecord,
    SkippedLine,
    SourceFile,
)

if TYPE_CHECKING:
    from harvesters.registry import available_sources, load_harvester_class

__all__ = [
    "Batch",
    "EventRecord",
    "FileCursor",
    "Harvester",
    "SessionRecord",
    "SkippedLine",
    "SourceFile",
    "available_sources",
    "load_harvester_class",
]


def __getattr__(name: str) -> Any:
    """The registry's functions, imported on first use: importing a record type (as
    every harvest does) need not load the registry."""
    if name in ("available_sources", "load_harvester_class"):
        from harvesters import registry

        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
