"""The statements that store harvested records and their file cursors.

The store defines the records it takes (`sleepd.store.records`) and knows nothing
of transcript formats. Callers write a batch's events together with the cursor
after them in one transaction, so a kill at any moment loses and duplicates
nothing. The statements are plain SQL run through `sleepd.store.writedb.WriteDb`,
the stdlib driver on a SQLite file, so storing a few new lines imports no
SQLAlchemy; the SQL is portable, with the few dialect differences (conflict
handling, the SQLite full-text index) spelled out here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from sleepd.store.fastread import as_utc, stored_datetime, stored_json
from sleepd.store.records import CursorRow, EventRow, SessionRow, SkipRow
from sleepd.store.resumed import ResumedCopies, as_history
from sleepd.store.rewritten import RewrittenCopies, last_timed_event
from sleepd.store.writedb import FTS_TABLE, WriteDb, utcnow

#: Skipped lines kept per file for diagnosis; the count is always exact.
MAX_SKIPPED_ROWS_PER_FILE = 200
#: Ids or paths per `IN (...)` list, well under every database's parameter limit.
IN_CHUNK = 500


@dataclass
class FileRef:
    """What the writer needs of a transcript file's row while a group is open."""

    id: int
    malformed_lines: int


def chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """`items` IN_CHUNK at a time, for `IN (...)` lists under every database's limit."""
    for start in range(0, len(items), IN_CHUNK):
        yield items[start : start + IN_CHUNK]


def in_list(values: Sequence[Any], prefix: str = "v") -> tuple[str, dict[str, Any]]:
    """`:v0, :v1, …` and their parameters, for an `IN (...)` list."""
    params = {f"{prefix}{n}": value for n, value in enumerate(values)}
    return ", ".join(f":{name}" for name in params), params


def file_refs(db: WriteDb, source: str, files: dict[str, str], host: str) -> dict[str, FileRef]:
    """Rows for every path in `files` (path -> role) on machine `host`, creating the ones
    not stored yet (a cursor belongs to one machine's file)."""
    found = _stored_files(db, list(files), host)
    missing = [path for path in files if path not in found]
    if missing:
        now = utcnow()
        db.many(
            "INSERT INTO transcript_files (source, host_id, path, role, device, inode, size, "
            '"offset", line_no, head_hash, tail_hash, mtime_ns, parse_state, status, '
            "malformed_lines, resets, first_seen_at) VALUES (:source, :host, :path, :role, "
            "0, 0, 0, 0, 0, '', '', 0, :state, 'ok', 0, 0, :now)",
            [
                {
                    "source": source,
                    "host": host,
                    "path": p,
                    "role": files[p],
                    "state": {},
                    "now": now,
                }
                for p in missing
            ],
        )
        found.update(_stored_files(db, missing, host))
    return found


def _stored_files(db: WriteDb, paths: list[str], host: str) -> dict[str, FileRef]:
    found: dict[str, FileRef] = {}
    for chunk in chunks(paths):
        marks, params = in_list(chunk)
        for path, file_id, malformed in db.rows(
            "SELECT path, id, malformed_lines FROM transcript_files "
            f"WHERE host_id = :host AND path IN ({marks})",
            {**params, "host": host},
        ):
            found[path] = FileRef(file_id, malformed)
    return found


def start_generation(db: WriteDb, ref: FileRef) -> None:
    """The file was rotated, truncated or replaced: what it held stays stored (the
    source deleting its history deletes none of ours); its new content is read from
    the start as a new generation, whose events already stored are skipped as
    duplicates. Malformed lines are counted afresh for the new content."""
    db.run(
        "UPDATE transcript_files SET malformed_lines = 0, resets = resets + 1 WHERE id = :id",
        {"id": ref.id},
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
#: Every column a new session row is given.
_SESSION_COLUMNS = ("source", "external_id", "kind", "file_id", *_MERGED)


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
    if rec.started_at and (started is None or as_utc(rec.started_at) < as_utc(started)):
        changes["started_at"] = rec.started_at
    if rec.ended_at and (ended is None or as_utc(rec.ended_at) > as_utc(ended)):
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
    db: WriteDb,
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
    columns = ("id", "external_id", "kind", "file_id", *_MERGED)
    for chunk in chunks(names):
        marks, params = in_list(chunk)
        for found in db.rows(
            f"SELECT {', '.join(columns)} FROM sessions "
            f"WHERE source = :source AND external_id IN ({marks})",
            {**params, "source": source},
        ):
            row = dict(zip(columns, found, strict=True))
            row["started_at"] = stored_datetime(row["started_at"])
            row["ended_at"] = stored_datetime(row["ended_at"])
            row["meta"] = stored_json(row["meta"])
            stored[row["external_id"]] = row
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
    now = utcnow()
    if new:
        db.many(
            f"INSERT INTO sessions ({', '.join(_SESSION_COLUMNS)}, event_count, "
            "mined_through_seq, created_at, updated_at) VALUES "
            f"({', '.join(':' + c for c in _SESSION_COLUMNS)}, 0, 0, :now, :now)",
            [{**row, "now": now} for row in new.values()],
        )
        for chunk in chunks(list(new)):
            marks, params = in_list(chunk)
            for ext, session_id in db.rows(
                "SELECT external_id, id FROM sessions "
                f"WHERE source = :source AND external_id IN ({marks})",
                {**params, "source": source},
            ):
                cache[ext] = session_id
    for ext, values in stored.items():
        cache[ext] = values["id"]
    for session_id, changes in changed.items():
        sets = ", ".join(f"{column} = :{column}" for column in changes)
        db.run(
            f"UPDATE sessions SET {sets}, updated_at = :now WHERE id = :sid",
            {**changes, "now": now, "sid": session_id},
        )
    return created


def prime_seqs(db: WriteDb, session_ids: Iterable[int], seq_cache: dict[int, int]) -> None:
    """Load the last sequence number of each session not in `seq_cache` (0 if none)."""
    wanted = sorted({sid for sid in session_ids if sid not in seq_cache})
    for chunk in chunks(wanted):
        for sid in chunk:
            seq_cache[sid] = 0
        marks, params = in_list(chunk)
        for session_id, last in db.rows(
            f"SELECT session_id, max(seq) FROM events WHERE session_id IN ({marks}) "
            "GROUP BY session_id",
            params,
        ):
            seq_cache[session_id] = int(last or 0)


#: Columns of an inserted event row: the writer's three, then an `EventRow`'s after its first.
EVENT_INSERT_COLUMNS = ("session_id", "seq", "file_id", *EventRow._fields[1:])
_TEXT_AT = EVENT_INSERT_COLUMNS.index("text")
_INSERT_EVENTS_SQLITE = (
    f"INSERT OR IGNORE INTO events ({', '.join(EVENT_INSERT_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in EVENT_INSERT_COLUMNS)})"
)
_LAST_EVENT_ID = "SELECT coalesce(max(id), 0) FROM events"


def insert_event_rows(
    db: WriteDb,
    rows: list[EventRow],
    file_id: int,
    session_cache: dict[str, int],
    seq_cache: dict[int, int],
    latest_cache: dict[int, dict[int, str | None]],
    copied_from: dict[int, int],
) -> tuple[int, dict[int, int], int, int]:
    """Insert event rows, skipping ones already stored (same session, external id) and
    copies the source wrote again under new ids (`sleepd.store.rewritten`), keeping a
    resumed session's copy of another session's records as context
    (`sleepd.store.resumed`), and add them to the full-text index; returns how many,
    how many per session, how many copies skipped and how many kept as context.

    `latest_cache` holds, per file and session, the latest event time taken from the file;
    `copied_from`, per session, where its head is copied from (`ResumedCopies`).

    The session id (from
    `upsert_sessions`) and a dense per-session sequence number (from `prime_seqs`)
    are assigned here, where the database is known.
    """
    if not rows:
        return 0, {}, 0, 0
    final: list[tuple[Any, ...]] = []
    per_session: dict[int, int] = {}
    starts: dict[int, int] = {}
    rewritten = RewrittenCopies(db, file_id)
    resumed = ResumedCopies(db, copied_from)
    resumed.start(rows, session_cache, seq_cache)
    latest = latest_cache.setdefault(file_id, {})
    for index, row in enumerate(rows):
        session_id = session_cache[row[0]]
        if resumed.copied(session_id, row):
            row = as_history(row)
        ts = row[2]
        if ts is not None:
            if session_id not in latest:
                # a session with nothing stored has nothing to look up
                stored = seq_cache[session_id] > 0
                latest[session_id] = last_timed_event(db, session_id, file_id) if stored else None
            last = latest[session_id]
            if last is None or ts > last or (ts == last and session_id not in rewritten.known):
                latest[session_id] = ts
                if rewritten.known:
                    rewritten.taken(session_id, row)
            elif rewritten.is_copy(session_id, row, islice(rows, index), session_cache):
                continue
        if session_id not in starts:
            starts[session_id] = seq_cache[session_id]
        seq = seq_cache[session_id] + 1
        seq_cache[session_id] = seq
        per_session[session_id] = per_session.get(session_id, 0) + 1
        final.append((session_id, seq, file_id, *row[1:]))
    before = last_event_id(db)
    inserted = _insert_ignore(db, final)
    if inserted == len(final) and last_event_id(db) == before + inserted:
        # n new rows, all above `before`, the largest `before + n`: exactly those ids.
        index_event_texts(db, before + 1, [row[_TEXT_AT] for row in final])
    else:
        index_new_events(db, before)
    if inserted != len(final):
        # Some were duplicates (a rotated or replaced file read again, lines copied from
        # another file): the rows stored number on from where each session stood, with no
        # gap, and the caller recounts these sessions (-1: how many is not known).
        _renumber(db, before, starts)
        for session_id in per_session:
            del seq_cache[session_id]
        prime_seqs(db, per_session, seq_cache)
        return inserted, dict.fromkeys(per_session, -1), rewritten.skipped, resumed.copies
    return inserted, per_session, rewritten.skipped, resumed.copies


def _insert_ignore(db: WriteDb, rows: list[tuple[Any, ...]]) -> int:
    """Insert rows in EVENT_INSERT_COLUMNS order, skipping duplicates; how many went in.

    On SQLite the hot path of a harvest: the driver's `executemany` with timestamps in
    stored text form and flags as 0/1. Elsewhere the portable statement, whose
    returned ids count exactly what was inserted, whatever other writers do.
    """
    if db.driver is not None:
        cursor = db.driver.cursor()
        try:
            cursor.executemany(_INSERT_EVENTS_SQLITE, rows)
            return int(cursor.rowcount)
        finally:
            cursor.close()
    from sleepd.store.dialect import insert_ignore_rows
    from sleepd.store.models import Event
    from sleepd.store.writedb import EngineWriteDb

    assert isinstance(db, EngineWriteDb)
    return insert_ignore_rows(db.conn, Event.__table__, EVENT_INSERT_COLUMNS, rows)  # type: ignore[arg-type]


def last_event_id(db: WriteDb) -> int:
    """Rowids only grow, so events inserted after this call have larger ids."""
    return int(db.scalar(_LAST_EVENT_ID) or 0)


def index_event_texts(db: WriteDb, first_id: int, texts: list[str]) -> None:
    """Index (SQLite) events whose ids are `first_id`, `first_id + 1`, … with these
    texts: the writer knows the text it just inserted, so FTS5 need not read it back."""
    if db.driver is None or not texts:
        return
    cursor = db.driver.cursor()
    try:
        cursor.executemany(
            f"INSERT INTO {FTS_TABLE}(rowid, text) VALUES (?, ?)",
            zip(range(first_id, first_id + len(texts)), texts, strict=True),
        )
    finally:
        cursor.close()
    if not all(t.isascii() for t in texts) and _has_cjk_index(db):
        from sleepd.store import cjk_index

        cjk_index.index_rows(db.driver, enumerate(texts, start=first_id))


def index_new_events(db: WriteDb, after_id: int) -> None:
    """Index (SQLite) the events with id > `after_id`."""
    if db.driver is None:
        return
    db.driver.execute(
        f"INSERT INTO {FTS_TABLE}(rowid, text) SELECT id, text FROM events WHERE id > ?",
        (after_id,),
    )
    if _has_cjk_index(db):
        from sleepd.store import cjk_index

        cjk_index.index_events_after(db.driver, after_id)


def _has_cjk_index(db: WriteDb) -> bool:
    """Whether the side index for space-free scripts exists (migration 0004 on)."""
    from sleepd.store.cjk_index import CJK_TABLE

    sql = "SELECT 1 FROM sqlite_master WHERE type='table' AND name=:name"
    return db.scalar(sql, {"name": CJK_TABLE}) is not None


def _renumber(db: WriteDb, before: int, starts: dict[int, int]) -> None:
    """Give the events inserted after id `before` dense sequence numbers, in id order.

    Each new number is at most the old one and taken in ascending order, so no two
    rows of a session ever share one on the way.
    """
    rows = db.rows(
        "SELECT id, session_id, seq FROM events WHERE id > :before ORDER BY id",
        {"before": before},
    )
    last = dict(starts)
    changes = []
    for event_id, session_id, seq in rows:
        last[session_id] = last.get(session_id, 0) + 1
        if seq != last[session_id]:
            changes.append({"eid": event_id, "seq": last[session_id]})
    db.many("UPDATE events SET seq = :seq WHERE id = :eid", changes)


def add_event_counts(db: WriteDb, added: dict[int, int]) -> None:
    """Bring sessions' event counts up to date: add what is known, recount the rest (-1).

    Adding spares a count over every touched session's events per group.
    """
    now = utcnow()
    db.many(
        "UPDATE sessions SET event_count = event_count + :n, updated_at = :now WHERE id = :sid",
        [{"sid": sid, "n": n, "now": now} for sid, n in added.items() if n >= 0],
    )
    refresh_event_counts(db, {sid for sid, n in added.items() if n < 0})


def refresh_event_counts(db: WriteDb, session_ids: set[int]) -> None:
    now = utcnow()
    for chunk in chunks(sorted(session_ids)):
        marks, params = in_list(chunk)
        db.run(
            "UPDATE sessions SET event_count = (SELECT count(events.id) FROM events "
            "WHERE events.session_id = sessions.id), updated_at = :now "
            f"WHERE sessions.id IN ({marks})",
            {**params, "now": now},
        )


def record_skips(db: WriteDb, ref: FileRef, skipped: list[SkipRow]) -> None:
    """Keep the first MAX_SKIPPED_ROWS_PER_FILE skipped lines; count every one."""
    if not skipped:
        return
    room = max(0, MAX_SKIPPED_ROWS_PER_FILE - ref.malformed_lines)
    now = utcnow()
    db.many(
        "INSERT INTO skipped_lines (file_id, line_no, byte_offset, reason, at) "
        "VALUES (:file_id, :line_no, :byte_offset, :reason, :now)",
        [
            {
                "file_id": ref.id,
                "line_no": item.line_no,
                "byte_offset": item.byte_offset,
                "reason": item.reason[:500],
                "now": now,
            }
            for item in skipped[:room]
        ],
    )
    ref.malformed_lines += len(skipped)


def store_cursors(db: WriteDb, cursors: dict[int, tuple[CursorRow, int]]) -> None:
    """Each file's new cursor and malformed-line count (file id -> (cursor, count))."""
    now = utcnow()
    db.many(
        "UPDATE transcript_files SET device = :device, inode = :inode, size = :size, "
        '"offset" = :offset, line_no = :line_no, head_hash = :head_hash, '
        "tail_hash = :tail_hash, mtime_ns = :mtime_ns, parse_state = :parse_state, "
        "malformed_lines = :malformed, status = 'ok', last_error = NULL, "
        "last_harvested_at = :now WHERE id = :file_id",
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
                "now": now,
            }
            for file_id, (cursor, malformed) in cursors.items()
        ],
    )


def mark_file_problem(db: WriteDb, file_id: int, problem: str, *, missing: bool) -> None:
    """The whole file could not be read this pass (gone, if `missing`); its cursor stays."""
    db.run(
        "UPDATE transcript_files SET status = :status, last_error = :error WHERE id = :id",
        {"status": "missing" if missing else "error", "error": problem[:500], "id": file_id},
    )


def add_redaction_counts(db: WriteDb, source: str, counts: dict[str, int]) -> None:
    db.many(
        "INSERT INTO redaction_counts (source, rule, count) VALUES (:source, :rule, :count) "
        "ON CONFLICT (source, rule) DO UPDATE SET count = redaction_counts.count + "
        "excluded.count",
        [{"source": source, "rule": r, "count": n} for r, n in counts.items() if n],
    )


def link_parent_sessions(db: WriteDb) -> int:
    """Resolve subagent/fork parents whose parent session has now been seen.

    One statement: it runs in every harvest write group's transaction, and a
    subagent whose parent is never harvested stays an orphan for good, so a query
    per orphan would be paid again and again.
    """
    parent_id = (
        "(SELECT parent.id FROM sessions AS parent WHERE parent.source = sessions.source "
        "AND parent.external_id = sessions.parent_external_id AND parent.id != sessions.id)"
    )
    return db.run(
        f"UPDATE sessions SET parent_session_id = {parent_id}, updated_at = :now "
        "WHERE parent_external_id IS NOT NULL AND parent_session_id IS NULL "
        f"AND {parent_id} IS NOT NULL",
        {"now": utcnow()},
    )
