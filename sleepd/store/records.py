"""The records the store takes from a harvest, defined by the store.

Plain tuples and dataclasses with no database import, so the processes that build
them (harvest workers) never load SQLAlchemy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

#: The widths (characters) of the store's string columns a transcript fills: PostgreSQL
#: refuses a longer value (SQLite would keep it), so a harvest fits each to its column.
ID_CHARS = 256  # external and parent ids, call and message ids, tool names
RAW_TYPE_CHARS = 64
BRANCH_CHARS = 512
MODEL_CHARS = 128
VERSION_CHARS = 64
PATH_CHARS = 4096
ERROR_CLASS_CHARS = 256  # a failure pattern's error class, read from a tool's output
#: What a NUL character becomes in a stored string: PostgreSQL's text refuses NUL, and
#: both databases hold the same text.
NUL_STAND_IN = "\ufffd"


class EventRow(NamedTuple):
    """One event to store; `ts` in `stored_timestamp` form, flags as 0/1, None for NULL.

    A tuple, not an object: millions are made, shipped between processes and bound."""

    session_external_id: str
    external_id: str
    ts: str | None
    role: str
    kind: str
    tool_name: str | None
    call_id: str | None
    text: str
    text_size: int
    is_error: int
    exit_code: int | None
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_creation_tokens: int
    message_id: str | None
    is_sidechain: int
    is_meta: int
    raw_type: str | None
    raw: str | None
    byte_offset: int
    line_no: int


@dataclass(slots=True)
class SessionRow:
    """What one batch says about a session; merged into the stored row (`upsert_sessions`)."""

    external_id: str
    kind: str = "main"
    project_path: str | None = None
    git_branch: str | None = None
    model: str | None = None
    agent_version: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    parent_external_id: str | None = None
    title: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class SkipRow:
    """A line that could not be used, kept for diagnosis."""

    line_no: int
    byte_offset: int
    reason: str


@dataclass(slots=True)
class CursorRow:
    """Where the next pass over a file starts, and how to tell the file is the same one."""

    device: int
    inode: int
    size: int
    offset: int
    line_no: int
    head_hash: str
    tail_hash: str
    mtime_ns: int
    parse_state: dict[str, Any] = field(default_factory=dict)


def stored_timestamp(value: datetime | None) -> str | None:
    """A timestamp as SQLAlchemy's SQLite DateTime stores it: naive UTC, ISO with µs."""
    if value is None:
        return None
    if value.tzinfo is UTC:  # the common case: drop the zone and format the naive value
        return value.replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.isoformat(sep=" ", timespec="microseconds")
