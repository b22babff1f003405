"""Turn a harvester's batches into redacted rows the writer can insert as they are.

This is the CPU-heavy half of a harvest (parse, redact, shape rows), so it imports
no database code: it runs in the harvesting process for small harvests and in
worker processes for large ones (`sleepd.harvest_feed`). Rows are plain tuples
because they cross a process boundary: pickling tuples of strings and ints costs a
quarter of what pickling record objects does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harvesters.base import DEFAULT_MAX_TEXT_BYTES, clip_events, clip_text
from harvesters.records import (
    FILE_UNREADABLE,
    FILE_VANISHED,
    Batch,
    EventRecord,
    FileCursor,
    SessionRecord,
    SkippedLine,
)
from harvesters.records import SourceFile as SourceFileRecord
from sleepd.paths import REPLAY_DIR_PREFIX

#: Event columns carried in each row after the session's external id, in order.
EVENT_ROW_COLUMNS: tuple[str, ...] = (
    "external_id",
    "ts",
    "role",
    "kind",
    "tool_name",
    "call_id",
    "text",
    "text_size",
    "is_error",
    "exit_code",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_creation_tokens",
    "message_id",
    "is_sidechain",
    "is_meta",
    "raw_type",
    "raw",
    "byte_offset",
    "line_no",
)

#: How a row spells NULL, and the columns that spell it so. Python's sqlite3 binds an
#: int, float or str at once, but sends every None and bool through its adaptation
#: protocol (a failed attribute lookup that makes and clears an exception, per value):
#: a typical event row, with six or seven of them, took three times as long to bind.
#: So flags travel as 0/1, and a missing value as a value of the other type, which
#: never occurs in that column: 0 in a text column, "" in an integer column. The insert
#: turns it back into NULL (`sleepd.store.dialect.insert_ignore_rows`).
NULL_IN_TEXT = 0
NULL_IN_INT = ""
EVENT_CODED_NULLS: dict[str, int | str] = {
    "tool_name": NULL_IN_TEXT,
    "call_id": NULL_IN_TEXT,
    "exit_code": NULL_IN_INT,
    "message_id": NULL_IN_TEXT,
    "raw_type": NULL_IN_TEXT,
    "raw": NULL_IN_TEXT,
}

#: A reader reports a file it could not open as one skip at line 0 with one of these.
FILE_LEVEL_REASONS = (FILE_VANISHED, FILE_UNREADABLE)


@dataclass(slots=True)
class PreparedBatch:
    """One batch, redacted, with events as rows: `(session_external_id, *EVENT_ROW_COLUMNS)`,
    NULLs spelled as `EVENT_CODED_NULLS` says."""

    path: str
    source: str
    cursor: FileCursor
    sessions: list[SessionRecord] = field(default_factory=list)
    event_rows: list[tuple[Any, ...]] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)
    reset: bool = False
    bytes_read: int = 0
    truncated_lines: int = 0
    replay_sessions_skipped: int = 0
    redactions: dict[str, int] = field(default_factory=dict)
    problem: str | None = None  # the whole file could not be read (vanished, unreadable)
    text_bytes: int = 0
    role: str = "main"


@dataclass(frozen=True, slots=True)
class ReadLimits:
    batch_lines: int
    max_text_bytes: int


#: Event fields that hold strings read from a transcript, each stored as it comes out.
_EVENT_STRINGS = (
    "text",
    "raw",
    "tool_name",
    "call_id",
    "message_id",
    "raw_type",
    "external_id",
    "session_external_id",
)
#: Session fields likewise; `meta` is a small JSON tree, walked string by string.
_SESSION_STRINGS = (
    "external_id",
    "project_path",
    "git_branch",
    "model",
    "agent_version",
    "title",
    "parent_external_id",
)
#: No rule finds a secret in fewer characters (`sleepd.redaction.engine.MIN_TEXT_LENGTH`).
_SHORTEST_SECRET = 8
#: A JSON tree deeper than this is stored as one placeholder string (the reader already
#: refuses deeper lines; meta and parse state are shallow).
_TREE_DEPTH = 64
_TOO_DEEP = "[nested too deep]"
#: JSON and JavaScript escapes a secret can hide behind inside a decoded string (a JSON
#: document in a string, like Codex function-call arguments or a raw line).
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(/))")


def _unescape_one(match: re.Match[str]) -> str:
    code = match.group(1) or match.group(2)
    if code is None:
        return "/"
    point = int(code, 16)
    return match.group(0) if 0xD800 <= point <= 0xDFFF else chr(point)


def unescaped(text: str) -> str:
    """`text` with its escapes written out (nested ones too, a few levels deep)."""
    for _ in range(3):
        decoded = _ESCAPE.sub(_unescape_one, text)
        if decoded == text:
            break
        text = decoded
    return text


class BatchRedactor:
    """The one redaction chokepoint of a harvest: every string a batch would store.

    Event texts, raw lines, ids and names, session fields, session meta and the parse
    state kept in the file's cursor all pass here after JSON decoding and before any
    clipping, so a cut never leaves part of a secret and no field is forgotten. A
    string holding escapes is also redacted in its decoded form; when that finds a
    secret, the redacted decoded form is what is stored. Hits are counted per rule.
    The rule set is compiled on first use, so a harvest that finds nothing new never
    pays for it.
    """

    def __init__(self, salt: bytes) -> None:
        self._salt = salt
        self._redactor: Any = None

    def compile(self) -> Any:
        if self._redactor is None:
            from sleepd.redaction import Redactor

            self._redactor = Redactor(salt=self._salt)
        return self._redactor

    def redact_strings(self, texts: list[str], counts: dict[str, int]) -> list[str]:
        """Each text redacted (one keyword search over them all), hits added to `counts`."""
        redactor = self.compile()
        out = list(texts)
        for number, (new_text, rules) in enumerate(redactor.redact_many(texts)):
            text = str(new_text) if rules else texts[number]
            if "\\" in text and _ESCAPE.search(text):
                decoded, more = redactor.redact(unescaped(text))
                if more:
                    text = decoded
                    rules = [*rules, *more]
            out[number] = text
            for rule in rules:
                counts[rule] = counts.get(rule, 0) + 1
        return out

    def redact(
        self,
        events: list[EventRecord],
        sessions: list[SessionRecord],
        state: dict[str, Any] | None = None,
    ) -> dict[str, int]:
        """Redact the batch in place; returns hits per rule."""
        slots: list[tuple[Any, str]] = []
        texts: list[str] = []
        for owner, names in [
            *((ev, _EVENT_STRINGS) for ev in events),
            *((session, _SESSION_STRINGS) for session in sessions),
        ]:
            for name in names:
                value = getattr(owner, name)
                if isinstance(value, str):
                    if len(value) >= _SHORTEST_SECRET:
                        slots.append((owner, name))
                        texts.append(value)
                elif value is not None:  # a hostile file's number or list: not a name
                    setattr(owner, name, None)
        trees: list[Any] = [session.meta for session in sessions]
        if state is not None:
            trees.append(state)
        tree_strings: list[str] = []
        for tree in trees:
            _strings_of(tree, tree_strings, 0)
        counts: dict[str, int] = {}
        redacted = self.redact_strings([*texts, *tree_strings], counts)
        for (owner, name), text in zip(slots, redacted, strict=False):
            setattr(owner, name, text)
        replacements = iter(redacted[len(texts) :])
        for session in sessions:
            session.meta = _rebuilt(session.meta, replacements, 0)
        if state is not None:
            rebuilt = _rebuilt(state, replacements, 0)
            state.clear()
            state.update(rebuilt)
        return counts


def _strings_of(value: Any, out: list[str], depth: int) -> None:
    """Every string of a JSON tree (dict keys too), in the order `_rebuilt` takes them."""
    if isinstance(value, str):
        out.append(value)
    elif depth >= _TREE_DEPTH:
        return
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(str(key))
            _strings_of(item, out, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings_of(item, out, depth + 1)


def _rebuilt(value: Any, strings: Iterator[str], depth: int) -> Any:
    if isinstance(value, str):
        return next(strings)
    if depth >= _TREE_DEPTH and isinstance(value, dict | list | tuple):
        return _TOO_DEEP
    if isinstance(value, dict):
        rebuilt: dict[str, Any] = {}
        for item in value.values():
            key = next(strings)
            rebuilt[key] = _rebuilt(item, strings, depth + 1)
        return rebuilt
    if isinstance(value, list | tuple):
        return [_rebuilt(item, strings, depth + 1) for item in value]
    return value


def clip_tree(value: Any, max_bytes: int) -> Any:
    """A JSON tree's long strings clipped (after redaction), like event texts."""
    if isinstance(value, str):
        return clip_text(value, max_bytes)[0] if len(value) > max_bytes // 4 else value
    if isinstance(value, dict):
        return {key: clip_tree(item, max_bytes) for key, item in value.items()}
    if isinstance(value, list):
        return [clip_tree(item, max_bytes) for item in value]
    return value


def is_replay(project_path: str | None) -> bool:
    """Sessions sleepd's own dream rollouts created: never harvested."""
    return bool(project_path) and REPLAY_DIR_PREFIX in str(project_path)


def prepare(
    batch: Batch, redactor: BatchRedactor | None, max_text_bytes: int = DEFAULT_MAX_TEXT_BYTES
) -> PreparedBatch:
    """Redact everything the batch would store, then clip it, then shape the rows."""
    problem = _file_level_problem(batch)
    if problem is not None:
        return PreparedBatch(batch.path, batch.source, batch.cursor, problem=problem)
    replay_ids = {s.external_id for s in batch.sessions if is_replay(s.project_path)}
    sessions = batch.sessions
    events = batch.events
    if replay_ids:
        sessions = [s for s in sessions if s.external_id not in replay_ids]
        events = [e for e in events if e.session_external_id not in replay_ids]
    counts: dict[str, int] = {}
    if redactor is not None:
        counts = redactor.redact(events, sessions, batch.cursor.state)
    clip_events(events, max_text_bytes)
    for session in sessions:
        session.meta = clip_tree(session.meta, max_text_bytes)
    batch.cursor.state = clip_tree(batch.cursor.state, max_text_bytes)
    rows = [_event_row(ev) for ev in events]
    return PreparedBatch(
        path=batch.path,
        source=batch.source,
        cursor=batch.cursor,
        sessions=sessions,
        event_rows=rows,
        skipped=batch.skipped,
        reset=batch.reset,
        bytes_read=batch.bytes_read,
        truncated_lines=batch.truncated_lines,
        replay_sessions_skipped=len(replay_ids),
        redactions=counts,
        text_bytes=sum(len(row[7]) for row in rows),
    )


def _event_row(ev: EventRecord) -> tuple[Any, ...]:
    """The row, with NULLs and flags spelled as `EVENT_CODED_NULLS` says (cheap to bind)."""
    tool_name, call_id, exit_code = ev.tool_name, ev.call_id, ev.exit_code
    message_id, raw_type, raw = ev.message_id, ev.raw_type, ev.raw
    return (
        ev.session_external_id,
        ev.external_id,
        stored_timestamp(ev.timestamp),
        ev.role,
        ev.kind,
        NULL_IN_TEXT if tool_name is None else tool_name,
        NULL_IN_TEXT if call_id is None else call_id,
        ev.text,
        ev.text_size or len(ev.text),
        1 if ev.is_error else 0,
        NULL_IN_INT if exit_code is None else exit_code,
        ev.input_tokens,
        ev.output_tokens,
        ev.cache_read_tokens,
        ev.cache_creation_tokens,
        NULL_IN_TEXT if message_id is None else message_id,
        1 if ev.is_sidechain else 0,
        1 if ev.is_meta else 0,
        NULL_IN_TEXT if raw_type is None else raw_type,
        NULL_IN_TEXT if raw is None else raw,
        ev.byte_offset,
        ev.line_no,
    )


def stored_timestamp(value: datetime | None) -> str | None:
    """A timestamp as SQLAlchemy's SQLite DateTime stores it: naive UTC, ISO with µs."""
    if value is None:
        return None
    if value.tzinfo is UTC:  # what harvesters produce; formatting a naive one is 2x faster
        return value.replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.isoformat(sep=" ", timespec="microseconds")


def _file_level_problem(batch: Batch) -> str | None:
    for item in batch.skipped:
        if item.line_no == 0 and item.reason.startswith(FILE_LEVEL_REASONS):
            return item.reason
    return None


@dataclass(frozen=True, slots=True)
class ReadJob:
    """Read one file from `cursor`, stopping after about `max_bytes` (0: to the end)."""

    source: str
    roots: tuple[str, ...]
    file: SourceFileRecord
    cursor: FileCursor | None
    limits: ReadLimits
    salt: bytes | None  # None: redaction off
    max_bytes: int = 0
    new_bytes: int = 0  # what the plan expects to read (a hint for scheduling)


@dataclass(slots=True)
class ReadResult:
    job: ReadJob
    batches: list[PreparedBatch]
    more: bool = False  # stopped at max_bytes; continue from the last batch's cursor
    error: str | None = None  # the file could not be read (OSError)


def prepared_batches(harvester: Any, job: ReadJob) -> Iterator[PreparedBatch]:
    """Every prepared batch of one file, streamed."""
    redactor = redactor_for(job.salt)
    for batch in harvester.read(
        job.file,
        job.cursor,
        batch_lines=job.limits.batch_lines,
        max_text_bytes=0,  # whole: clipped here, after redaction
    ):
        prepared = prepare(batch, redactor, job.limits.max_text_bytes)
        prepared.role = job.file.role
        yield prepared


def read_error(job: ReadJob, exc: Exception) -> str:
    """One line for a file that could not be read or parsed (the rest of it waits)."""
    if isinstance(exc, OSError):
        return f"cannot read {job.file.path}: {exc.strerror or exc}"
    return f"cannot parse {job.file.path}: {type(exc).__name__}: {exc}"[:500]


#: One compiled rule set per salt, and one harvester per source, for each process.
_redactors: dict[bytes, BatchRedactor] = {}
_harvesters: dict[tuple[str, tuple[str, ...]], Any] = {}


def redactor_for(salt: bytes | None) -> BatchRedactor | None:
    """None when redaction is off."""
    if salt is None:
        return None
    redactor = _redactors.get(salt)
    if redactor is None:
        redactor = _redactors[salt] = BatchRedactor(salt)
    return redactor


def compile_redactor(salt: bytes | None) -> None:
    """Compile the rules now (before forking workers, which then share them)."""
    redactor = redactor_for(salt)
    if redactor is not None:
        redactor.compile()


def read_in_worker(job: ReadJob) -> ReadResult:
    """Worker-process entry: read up to `job.max_bytes` of one file, prepared."""
    key = (job.source, job.roots)
    harvester = _harvesters.get(key)
    if harvester is None:
        from harvesters.registry import load_harvester_class

        harvester = load_harvester_class(job.source)([Path(r) for r in job.roots])
        _harvesters[key] = harvester
    out: list[PreparedBatch] = []
    read = 0
    try:
        for prepared in prepared_batches(harvester, job):
            out.append(prepared)
            read += prepared.bytes_read
            if job.max_bytes and read >= job.max_bytes and prepared.problem is None:
                return ReadResult(job, out, more=True)
    except Exception as exc:  # one bad file never stops the rest
        return ReadResult(job, out, error=read_error(job, exc))
    return ReadResult(job, out)


def read_bundle(jobs: list[ReadJob]) -> list[ReadResult]:
    """Worker-process entry: `read_in_worker` of each job, returned through the pool.

    Small files travel several to a call (`sleepd.harvest_feed` bundles them): each
    call to a worker costs about as much CPU as parsing 40 KB of transcript.
    """
    return [read_in_worker(job) for job in jobs]


def roots_key(roots: Sequence[Path]) -> tuple[str, ...]:
    return tuple(str(r) for r in roots)
