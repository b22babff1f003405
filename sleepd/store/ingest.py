"""The statements that store harvested records and their file cursors.

The store defines the records it takes (`sleepd.store.records`) and knows nothing
of transcript formats. Callers write a batch's
events together with the cursor after them in one transaction, so a kill at any
moment loses and duplicates nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.engine import Connection

from sleepd.store.dialect import (
    index_event_texts,
    index_new_events,
    insert_ignore_rows,
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
from sleepd.store.records import CursorRow, EventRow, SessionRow, SkipRow

#: Skipped lines kept per file for diagnosis; the count is always exact.
MAX_SKIPPED_ROWS_PER_FILE = 200
#: Ids or paths per `IN (...)` list, well under every database's parameter limit.
IN_CHUNK = 500


@dataclass
class FileRef:
    """What the writer needs of a transcript file's row while a group is open."""

    id: int
    malformed_lines: int


def file_refs(
    conn: Connection, source: str, files: dict[str, str], host: str
) -> dict[str, FileRef]:
    """Rows for every path in `files` (path -> role) on machine `host`, creating the ones
    not stored yet (a cursor belongs to one machine's file)."""
    found = _stored_files(conn, list(files), host)
    missing = [path for path in files if path not in found]
    if missing:
        conn.execute(
            insert(TranscriptFile),
            [
                {"path": p, "host_id": host, "source": source, "role": files[p], "parse_state": {}}
                for p in missing
            ],
        )
        found.update(_stored_files(conn, missing, host))
    return found


def _stored_files(conn: Connection, paths: list[str], host: str) -> dict[str, FileRef]:
    found: dict[str, FileRef] = {}
    for chunk in _chunks(paths):
        for row in conn.execute(
            select(TranscriptFile.path, TranscriptFile.id, TranscriptFile.malformed_lines).where(
                TranscriptFile.host_id == host, TranscriptFile.path.in_(chunk)
            )
        ):
            found[row.path] = FileRef(row.id, row.malformed_lines)
    return found


def _chunks(items: list[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(items), IN_CHUNK):
        yield items[start : start + IN_CHUNK]


def start_generation(conn: Connection, ref: FileRef) -> None:
    """The file was rotated, truncated or replaced: what it held stays stored (the
    source deleting its history deletes none of ours); its new content is read from
    the start as a new generation, whose events already stored are skipped as
    duplicates. Malformed lines are counted afresh for the new content."""
    conn.execute(
        update(TranscriptFile)
        .where(TranscriptFile.id == ref.id)
        .values(malformed_lines=0, resets=TranscriptFile.resets + 1)
    )
    ref.malformed_lines = 0


#: Session columns a later record of the same session can change.
_MERGED = (
    "started_at",
    "ended_at",
    "project_path",
    "git_branch",
    "agent_version",
    "title",
    "parent_external_id",
    "model",
    "meta",
)


def _merged(row: dict[str, Any], rec: SessionRow, file_id: int) -> dict[str, Any]:
    """The columns `rec` changes on a session: earliest start, latest end, first
    non-empty descriptive fields, latest model and agent version, meta merged.

    A bare row (made because events named the session before any record did) takes
    its kind and file from the first record, so it ends as if the record came first.
    """
    changes: dict[str, Any] = {}
    if row["file_id"] is None:
        changes["file_id"] = file_id
        changes["kind"] = rec.kind
    started, ended = row["started_at"], row["ended_at"]
    if rec.started_at and (started is None or _aware(rec.started_at) < _aware(started)):
        changes["started_at"] = rec.started_at
    if rec.ended_at and (ended is None or _aware(rec.ended_at) > _aware(ended)):
        changes["ended_at"] = rec.ended_at
    for attr in ("project_path", "git_branch", "agent_version", "title", "parent_external_id"):
        value = getattr(rec, attr)
        if value and not row[attr]:
            changes[attr] = value
    if rec.model and rec.model != row["model"]:
        changes["model"] = rec.model
    if rec.agent_version and rec.agent_version != row["agent_version"]:
        changes["agent_version"] = rec.agent_version
    if rec.meta:
        meta = {**(row["meta"] or {}), **rec.meta}
        if meta != row["meta"]:
            changes["meta"] = meta
    return changes


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _new_session(
    source: str, external_id: str, rec: SessionRow | None, file_id: int | None
) -> dict[str, Any]:
    if rec is None:  # only events name it: a bare row, filled in when a record arrives
        return {
            "source": source,
            "external_id": external_id,
            "kind": "main",
            "file_id": None,
            **dict.fromkeys(_MERGED),
            "meta": {},
        }
    return {
        "source": source,
        "external_id": external_id,
        "kind": rec.kind,
        "file_id": file_id,
        "project_path": rec.project_path,
        "git_branch": rec.git_branch,
        "model": rec.model,
        "agent_version": rec.agent_version,
        "started_at": rec.started_at,
        "ended_at": rec.ended_at,
        "parent_external_id": rec.parent_external_id,
        "title": rec.title,
        "meta": dict(rec.meta),
    }


def upsert_sessions(
    conn: Connection,
    source: str,
    records: list[tuple[SessionRow, int]],
    referenced: Iterable[str],
    cache: dict[str, int],
) -> int:
    """Create or merge every session of a group, in one pass over the database.

    `records` are the group's session records in order, each with the file that
    carried it; `referenced` names sessions its events point at, which get a bare
    row if nothing else made one. Fills `cache` (external id -> id) and returns
    how many sessions a record created.
    """
    named = [rec.external_id for rec, _ in records]
    names = list(dict.fromkeys([*named, *(x for x in referenced if x not in cache)]))
    stored: dict[str, dict[str, Any]] = {}
    columns = [getattr(Session, c) for c in ("id", "external_id", "kind", "file_id", *_MERGED)]
    for chunk in _chunks(names):
        for found in conn.execute(
            select(*columns).where(Session.source == source, Session.external_id.in_(chunk))
        ):
            stored[found.external_id] = dict(found._mapping)
    new: dict[str, dict[str, Any]] = {}
    changed: dict[int, dict[str, Any]] = {}
    for rec, file_id in records:
        ext = rec.external_id
        current = stored.get(ext) or new.get(ext)
        if current is None:
            new[ext] = _new_session(source, ext, rec, file_id)
            continue
        changes = _merged(current, rec, file_id)
        current.update(changes)
        if changes and "id" in current:
            changed.setdefault(current["id"], {}).update(changes)
    created = len(new)
    for ext in names:
        if ext not in stored and ext not in new:
            new[ext] = _new_session(source, ext, None, None)
    if new:
        conn.execute(insert(Session), list(new.values()))
        for chunk in _chunks(list(new)):
            for ext, session_id in conn.execute(
                select(Session.external_id, Session.id).where(
                    Session.source == source, Session.external_id.in_(chunk)
                )
            ):
                cache[ext] = session_id
    for ext, values in stored.items():
        cache[ext] = values["id"]
    for session_id, changes in changed.items():
        conn.execute(update(Session).where(Session.id == session_id).values(**changes))
    return created


def prime_seqs(conn: Connection, session_ids: Iterable[int], seq_cache: dict[int, int]) -> None:
    """Load the last sequence number of each session not in `seq_cache` (0 if none)."""
    wanted = sorted({sid for sid in session_ids if sid not in seq_cache})
    for chunk in _chunks(wanted):
        for sid in chunk:
            seq_cache[sid] = 0
        for session_id, last in conn.execute(
            select(Event.session_id, func.max(Event.seq))
            .where(Event.session_id.in_(chunk))
            .group_by(Event.session_id)
        ):
            seq_cache[session_id] = int(last or 0)


#: Columns of an inserted event row: the writer's three, then an `EventRow`'s after its first.
EVENT_INSERT_COLUMNS = ("session_id", "seq", "file_id", *EventRow._fields[1:])
_TEXT_AT = EVENT_INSERT_COLUMNS.index("text")


def insert_event_rows(
    conn: Connection,
    rows: list[EventRow],
    file_id: int,
    session_cache: dict[str, int],
    seq_cache: dict[int, int],
) -> tuple[int, dict[int, int]]:
    """Insert event rows, skipping ones already stored (same session, external id), and
    add them to the full-text index; returns how many, and how many per session.

    The session id (from
    `upsert_sessions`) and a dense per-session sequence number (from `prime_seqs`)
    are assigned here, where the database is known.
    """
    if not rows:
        return 0, {}
    final: list[tuple[Any, ...]] = []
    per_session: dict[int, int] = {}
    starts: dict[int, int] = {}
    for row in rows:
        session_id = session_cache[row[0]]
        if session_id not in starts:
            starts[session_id] = seq_cache[session_id]
        seq = seq_cache[session_id] + 1
        seq_cache[session_id] = seq
        per_session[session_id] = per_session.get(session_id, 0) + 1
        final.append((session_id, seq, file_id, *row[1:]))
    before = last_event_id(conn)
    inserted = insert_ignore_rows(
        conn,
        Event.__table__,  # type: ignore[arg-type]
        EVENT_INSERT_COLUMNS,
        final,
    )
    if inserted == len(final) and last_event_id(conn) == before + inserted:
        # n new rows, all above `before`, the largest `before + n`: exactly those ids.
        index_event_texts(conn, before + 1, [row[_TEXT_AT] for row in final])
    else:
        index_new_events(conn, before)
    if inserted != len(final):
        # Some were duplicates (a rotated or replaced file read again, lines copied from
        # another file): the rows stored number on from where each session stood, with no
        # gap, and the caller recounts these sessions (-1: how many is not known).
        _renumber(conn, before, starts)
        for session_id in per_session:
            del seq_cache[session_id]
        prime_seqs(conn, per_session, seq_cache)
        return inserted, dict.fromkeys(per_session, -1)
    return inserted, per_session


def _renumber(conn: Connection, before: int, starts: dict[int, int]) -> None:
    """Give the events inserted after id `before` dense sequence numbers, in id order.

    Each new number is at most the old one and taken in ascending order, so no two
    rows of a session ever share one on the way.
    """
    rows = conn.execute(
        select(Event.id, Event.session_id, Event.seq).where(Event.id > before).order_by(Event.id)
    ).all()
    last = dict(starts)
    changes = []
    for event_id, session_id, seq in rows:
        last[session_id] = last.get(session_id, 0) + 1
        if seq != last[session_id]:
            changes.append({"eid": event_id, "seq": last[session_id]})
    if changes:
        conn.execute(
            update(Event).where(Event.id == bindparam("eid")).values(seq=bindparam("seq")),
            changes,
        )


def add_event_counts(conn: Connection, added: dict[int, int]) -> None:
    """Bring sessions' event counts up to date: add what is known, recount the rest (-1).

    Adding spares a count over every touched session's events per group.
    """
    known = [{"sid": sid, "n": n} for sid, n in added.items() if n >= 0]
    if known:
        conn.execute(
            update(Session)
            .where(Session.id == bindparam("sid"))
            .values(event_count=Session.event_count + bindparam("n"), updated_at=utcnow()),
            known,
        )
    refresh_event_counts(conn, {sid for sid, n in added.items() if n < 0})


def refresh_event_counts(conn: Connection, session_ids: set[int]) -> None:
    if not session_ids:
        return
    counted = select(func.count(Event.id)).where(Event.session_id == Session.id).scalar_subquery()
    for chunk in _chunks(sorted(session_ids)):
        conn.execute(
            update(Session)
            .where(Session.id.in_(chunk))
            .values(event_count=counted, updated_at=utcnow())
        )


def record_skips(conn: Connection, ref: FileRef, skipped: list[SkipRow]) -> None:
    """Keep the first MAX_SKIPPED_ROWS_PER_FILE skipped lines; count every one."""
    if not skipped:
        return
    room = max(0, MAX_SKIPPED_ROWS_PER_FILE - ref.malformed_lines)
    kept = [
        {
            "file_id": ref.id,
            "line_no": item.line_no,
            "byte_offset": item.byte_offset,
            "reason": item.reason[:500],
        }
        for item in skipped[:room]
    ]
    if kept:
        conn.execute(insert(SkippedLine), kept)
    ref.malformed_lines += len(skipped)


def store_cursors(conn: Connection, cursors: dict[int, tuple[CursorRow, int]]) -> None:
    """Each file's new cursor and malformed-line count (file id -> (cursor, count))."""
    if not cursors:
        return
    now = utcnow()
    conn.execute(
        update(TranscriptFile)
        .where(TranscriptFile.id == bindparam("file_id"))
        .values(
            device=bindparam("device"),
            inode=bindparam("inode"),
            size=bindparam("size"),
            offset=bindparam("offset"),
            line_no=bindparam("line_no"),
            head_hash=bindparam("head_hash"),
            tail_hash=bindparam("tail_hash"),
            mtime_ns=bindparam("mtime_ns"),
            parse_state=bindparam("parse_state", type_=TranscriptFile.__table__.c.parse_state.type),
            malformed_lines=bindparam("malformed"),
            status="ok",
            last_error=None,
            last_harvested_at=now,
        ),
        [
            {
                "file_id": file_id,
                "device": cursor.device,
                "inode": cursor.inode,
                "size": cursor.size,
                "offset": cursor.offset,
                "line_no": cursor.line_no,
                "head_hash": cursor.head_hash,
                "tail_hash": cursor.tail_hash,
                "mtime_ns": cursor.mtime_ns,
                "parse_state": dict(cursor.parse_state),
                "malformed": malformed,
            }
            for file_id, (cursor, malformed) in cursors.items()
        ],
    )


def mark_file_problem(conn: Connection, file_id: int, problem: str, *, missing: bool) -> None:
    """The whole file could not be read this pass (gone, if `missing`); its cursor stays."""
    conn.execute(
        update(TranscriptFile)
        .where(TranscriptFile.id == file_id)
        .values(status="missing" if missing else "error", last_error=problem[:500])
    )


def add_redaction_counts(conn: Connection, source: str, counts: dict[str, int]) -> None:
    if not counts:
        return
    stmt = upsert_add(RedactionCount.__table__, conn, ("source", "rule"), "count")  # type: ignore[arg-type]
    conn.execute(stmt, [{"source": source, "rule": r, "count": n} for r, n in counts.items() if n])


def link_parent_sessions(conn: Connection) -> int:
    """Resolve subagent/fork parents whose parent session has now been seen.

    One statement: it runs after every harvest, and a subagent whose parent is
    never harvested stays an orphan for good, so a query per orphan would be paid
    again and again.
    """
    parent = Session.__table__.alias("parent")
    parent_id = (
        select(parent.c.id)
        .where(
            parent.c.source == Session.source,
            parent.c.external_id == Session.parent_external_id,
            parent.c.id != Session.id,
        )
        .scalar_subquery()
    )
    result = conn.execute(
        update(Session)
        .where(
            Session.parent_external_id.is_not(None),
            Session.parent_session_id.is_(None),
            parent_id.is_not(None),
        )
        .values(parent_session_id=parent_id)
    )
    return int(result.rowcount or 0)
