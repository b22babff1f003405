"""Normalized record types every harvester yields.

Harvesters know nothing of the database: they turn transcript bytes into these
plain records, and `sleepd.harvest` redacts and stores them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

SessionKind = Literal["main", "subagent", "fork"]
EventRole = Literal["user", "assistant", "tool", "system"]
EventKind = Literal[
    "user_prompt",
    "assistant_text",
    "thinking",
    "tool_call",
    "tool_result",
    "error",
    "interrupt",
    "summary",
    "meta",
    "raw",
]


#: `raw_type` of a user prompt typed while the agent ran and sent into its running turn.
STEERING = "steering"

#: Why a whole file was not read: the reason of its one `SkippedLine` at line 0.
FILE_VANISHED = "file vanished"
FILE_UNREADABLE = "unreadable"


def open_failure_reason(exc: OSError) -> str:
    """The line-0 skip reason for a file that could not be opened."""
    return FILE_VANISHED if isinstance(exc, FileNotFoundError) else f"{FILE_UNREADABLE}: {exc}"


@dataclass(slots=True)
class FileCursor:
    """Where the last pass stopped in one transcript file.

    `offset` is the byte offset just after the last complete line consumed.
    `head_hash` hashes the first bytes so a replaced file with the same inode
    and a larger size is still recognised; `tail_hash` the bytes just before
    `offset`, so a file truncated and regrown past it is recognised too.
    `state` carries the little parse context a later pass needs (e.g. a Codex
    session id from the header line).
    """

    path: str
    device: int
    inode: int
    size: int
    offset: int
    head_hash: str
    line_no: int = 0
    mtime_ns: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    tail_hash: str = ""  # of the bytes just before `offset`: a resume point is verified


@dataclass(slots=True)
class SessionRecord:
    source: str
    external_id: str
    kind: SessionKind = "main"
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
class EventRecord:
    """One normalized event; `external_id` is unique within its session."""

    session_external_id: str
    external_id: str
    kind: EventKind
    role: EventRole
    timestamp: datetime | None = None
    text: str = ""
    text_size: int = 0
    tool_name: str | None = None
    call_id: str | None = None
    is_error: bool = False
    exit_code: int | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0
    message_id: str | None = None
    is_sidechain: bool = False
    is_meta: bool = False
    byte_offset: int = 0
    line_no: int = 0
    raw_type: str | None = None
    raw: str | None = None
    #: Most bytes `text` and `raw` keep once clipped (0: the harvest's limit). Clipping
    #: comes after redaction (`harvesters.base.clip_events`), so a cut never leaves part
    #: of a secret that a whole one would have had replaced.
    clip_bytes: int = 0


@dataclass(slots=True)
class SkippedLine:
    path: str
    line_no: int
    byte_offset: int
    reason: str


@dataclass(slots=True)
class Batch:
    """Records read from one stretch of a file, ending at a line boundary.

    The store commits the records and `cursor` in one transaction, so a kill
    between batches neither loses nor duplicates anything.
    """

    path: str
    source: str
    cursor: FileCursor
    sessions: list[SessionRecord] = field(default_factory=list)
    events: list[EventRecord] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)
    reset: bool = False
    bytes_read: int = 0
    lines_read: int = 0
    truncated_lines: int = 0
    #: No line of the batch held a NUL escape, so none of its strings holds NUL (False:
    #: not known, the store's writer looks).
    nul_free: bool = False


@dataclass(slots=True)
class SourceFile:
    path: str
    source: str
    role: Literal["main", "subagent", "archived", "legacy"] = "main"
