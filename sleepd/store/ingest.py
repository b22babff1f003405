"""Write one harvested batch and its cursor in a single transaction.

A kill at any moment either commits a whole batch with its cursor or nothing,
so a later pass neither loses nor duplicates events.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session as OrmSession

from harvesters.records import EventRecord, FileCursor, SessionRecord
from harvesters.records import SkippedLine as SkippedRecord
from sleepd.store.dialect import (
    index_new_events,
    insert_ignore_many,
    last_event_id,
    upsert_add,
)
from sleepd.store.models import (
    Event,
    RedactionCount,
    Session,
    SkippedLine,
    TranscriptFile,
    utcnow,
)

#: Skipped lines kept per file for diagnosis; the count is always exact.
MAX_SKIPPED_ROWS_PER_FILE = 200


@dataclass
class BatchOutcome:
    sessions_new: int = 0
    events_new: int = 0
    sessions_touched: set[int] = field(default_factory=set)


def cursor_from_row(row: TranscriptFile) -> FileCursor:
    return FileCursor(
        path=row.path,
        device=row.device,
        inode=row.inode,
        size=row.size,
        offset=row.offset,
        head_hash=row.head_hash,
        line_no=row.line_no,
        mtime_ns=row.mtime_ns,
        state=dict(row.parse_state or {}),
    )


def get_or_create_file(db: OrmSession, path: str, source: str, role: str) -> TranscriptFile:
    row = db.scalar(select(TranscriptFile).where(TranscriptFile.path == path))
    if row is None:
        row = TranscriptFile(path=path, source=source, role=role, parse_state={})
        db.add(row)
        db.flush()
    return row


def reset_file(db: OrmSession, file_row: TranscriptFile) -> None:
    """The file was truncated or replaced: forget what it contributed, then re-read it."""
    touched = set(
        db.scalars(select(Event.session_id).where(Event.file_id == file_row.id).distinct())
    )
    db.execute(delete(Event).where(Event.file_id == file_row.id))
    db.execute(delete(SkippedLine).where(SkippedLine.file_id == file_row.id))
    file_row.malformed_lines = 0
    file_row.resets += 1
    refresh_event_counts(db, touched)


def _merge_session(row: Session, rec: SessionRecord) -> None:
    if rec.started_at and (
        row.started_at is None or _aware(rec.started_at) < _aware(row.started_at)
    ):
        row.started_at = rec.started_at
    if rec.ended_at and (row.ended_at is None or _aware(rec.ended_at) > _aware(row.ended_at)):
        row.ended_at = rec.ended_at
    for attr in ("project_path", "git_branch", "agent_version", "title", "parent_external_id"):
        value = getattr(rec, attr)
        if value and not getattr(row, attr):
            setattr(row, attr, value)
    if rec.model:
        row.model = rec.model
    if rec.agent_version:
        row.agent_version = rec.agent_version
    if rec.meta:
        row.meta = {**(row.meta or {}), **rec.meta}


def _aware(value: datetime) -> datetime:
    from datetime import UTC

    return value if value.tzinfo else value.replace(tzinfo=UTC)


def upsert_sessions(
    db: OrmSession,
    source: str,
    records: Iterable[SessionRecord],
    file_id: int,
    cache: dict[str, int],
) -> int:
    created = 0
    for rec in records:
        row = db.scalar(
            select(Session).where(Session.source == source, Session.external_id == rec.external_id)
        )
        if row is None:
            row = Session(
                source=source,
                external_id=rec.external_id,
                kind=rec.kind,
                file_id=file_id,
                project_path=rec.project_path,
                git_branch=rec.git_branch,
                model=rec.model,
                agent_version=rec.agent_version,
                started_at=rec.started_at,
                ended_at=rec.ended_at,
                parent_external_id=rec.parent_external_id,
                title=rec.title,
                meta=dict(rec.meta),
            )
            db.add(row)
            db.flush()
            created += 1
        else:
            _merge_session(row, rec)
        cache[rec.external_id] = row.id
    return created


def session_id_for(db: OrmSession, source: str, external_id: str, cache: dict[str, int]) -> int:
    if external_id in cache:
        return cache[external_id]
    found = db.scalar(
        select(Session.id).where(Session.source == source, Session.external_id == external_id)
    )
    if found is None:
        row = Session(source=source, external_id=external_id, meta={})
        db.add(row)
        db.flush()
        found = row.id
    cache[external_id] = found
    return found


def insert_events(
    db: OrmSession,
    source: str,
    events: list[EventRecord],
    file_id: int,
    session_cache: dict[str, int],
    seq_cache: dict[int, int],
) -> tuple[int, set[int]]:
    """Insert events, skipping ones already stored (same session and external id)."""
    if not events:
        return 0, set()
    rows: list[dict[str, Any]] = []
    touched: set[int] = set()
    for ev in events:
        session_id = session_id_for(db, source, ev.session_external_id, session_cache)
        touched.add(session_id)
        if session_id not in seq_cache:
            seq_cache[session_id] = (
                db.scalar(
                    select(func.coalesce(func.max(Event.seq), 0)).where(
                        Event.session_id == session_id
                    )
                )
                or 0
            )
        seq_cache[session_id] += 1
        rows.append(
            {
                "session_id": session_id,
                "seq": seq_cache[session_id],
                "external_id": ev.external_id,
                "ts": ev.timestamp,
                "role": ev.role,
                "kind": ev.kind,
                "tool_name": ev.tool_name,
                "call_id": ev.call_id,
                "text": ev.text,
                "text_size": ev.text_size or len(ev.text),
                "is_error": ev.is_error,
                "exit_code": ev.exit_code,
                "input_tokens": ev.input_tokens,
                "output_tokens": ev.output_tokens,
                "cache_read_tokens": ev.cache_read_tokens,
                "cache_creation_tokens": ev.cache_creation_tokens,
                "message_id": ev.message_id,
                "is_sidechain": ev.is_sidechain,
                "is_meta": ev.is_meta,
                "raw_type": ev.raw_type,
                "raw": ev.raw,
                "file_id": file_id,
                "byte_offset": ev.byte_offset,
                "line_no": ev.line_no,
            }
        )
    conn = db.connection()
    before = last_event_id(conn)
    inserted = insert_ignore_many(conn, Event.__table__, rows)  # type: ignore[arg-type]
    if inserted:
        index_new_events(conn, before)
    if inserted != len(rows):
        # Some were duplicates: re-sync seq counters so the next batch continues densely.
        for session_id in touched:
            seq_cache[session_id] = (
                db.scalar(
                    select(func.coalesce(func.max(Event.seq), 0)).where(
                        Event.session_id == session_id
                    )
                )
                or 0
            )
    return inserted, touched


def refresh_event_counts(db: OrmSession, session_ids: set[int]) -> None:
    if not session_ids:
        return
    counted = select(func.count(Event.id)).where(Event.session_id == Session.id).scalar_subquery()
    db.execute(
        update(Session)
        .where(Session.id.in_(session_ids))
        .values(event_count=counted, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )


def record_skips(db: OrmSession, file_row: TranscriptFile, skipped: list[SkippedRecord]) -> None:
    if not skipped:
        return
    room = max(0, MAX_SKIPPED_ROWS_PER_FILE - file_row.malformed_lines)
    for item in skipped[:room]:
        db.add(
            SkippedLine(
                file_id=file_row.id,
                line_no=item.line_no,
                byte_offset=item.byte_offset,
                reason=item.reason[:500],
            )
        )
    file_row.malformed_lines += len(skipped)


def store_cursor(file_row: TranscriptFile, cursor: FileCursor) -> None:
    file_row.device = cursor.device
    file_row.inode = cursor.inode
    file_row.size = cursor.size
    file_row.offset = cursor.offset
    file_row.line_no = cursor.line_no
    file_row.head_hash = cursor.head_hash
    file_row.mtime_ns = cursor.mtime_ns
    file_row.parse_state = dict(cursor.state)
    file_row.status = "ok"
    file_row.last_error = None
    file_row.last_harvested_at = utcnow()


def add_redaction_counts(db: OrmSession, source: str, counts: dict[str, int]) -> None:
    if not counts:
        return
    bind = db.connection()
    stmt = upsert_add(RedactionCount.__table__, bind, ("source", "rule"), "count")  # type: ignore[arg-type]
    db.execute(stmt, [{"source": source, "rule": r, "count": n} for r, n in counts.items() if n])


def link_parent_sessions(db: OrmSession) -> int:
    """Resolve subagent/fork parents whose parent session has now been seen."""
    orphans = db.execute(
        select(Session.id, Session.source, Session.parent_external_id).where(
            Session.parent_external_id.is_not(None), Session.parent_session_id.is_(None)
        )
    ).all()
    linked = 0
    for session_id, source, parent_external in orphans:
        parent_id = db.scalar(
            select(Session.id).where(
                Session.source == source, Session.external_id == parent_external
            )
        )
        if parent_id is not None and parent_id != session_id:
            db.execute(
                update(Session).where(Session.id == session_id).values(parent_session_id=parent_id)
            )
            linked += 1
    return linked
