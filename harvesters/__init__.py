"""Transcript harvesters: bytes on disk to normalized records, nothing more.

This package knows nothing of the database, the CLI, redaction or the dream;
`sleepd.harvest` drives it. Import the concrete harvesters through
`harvesters.registry` so new sources plug in as entry points.
"""

from harvesters.base import Harvester
from harvesters.records import (
    Batch,
    EventRecord,
    FileCursor,
    SessionRecord,
    SkippedLine,
    SourceFile,
)
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
