"""`sleepd mine` with nothing pending, answered from a few stdlib queries.

A mining pass pays for its imports (SciPy, SQLAlchemy and the mining stages) even when it
finds nothing to do, so an idle pass is answered before any of them is loaded. A pass has
work exactly when

1. a session has events past its `mined_through_seq`, has an open episode and has been
   quiet for IDLE_CLOSE, or was read by other rules, none newer (the pass's own selection,
   `loading.sessions_to_mine`), or
2. the stages after that one (clustering, tasks) may have work, or the sessions are to be
   read again: no pass completed since the last one started, or the mining settings, the
   rules that read sessions (`reading.reading_rules`) or the database file changed since,
   or something else changed the tables a pass writes.

(2) is a small record in SLEEPD_HOME: `run_pass` deletes it before a pass writes anything and
writes it once the pass completed, with the pass's report and a fingerprint of the tables it
writes. An interrupted pass therefore leaves no record, and the next `sleepd mine` runs in full.

When neither holds, the answer is the last pass's totals with nothing new, and the run is
recorded in `job_runs` as a full pass would be. Any doubt (a database other than a SQLite
file, a schema not at head, a damaged file, an unreadable record, a query error) means a
full pass.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sleepd import paths
from sleepd.config import Config
from sleepd.mining.reading import OTHER_STAMPS_SQL, count_to_read_again, reading_rules
from sleepd.store.records import stored_timestamp

#: A session quiet this long is over: its last episode closes (`mining.mine` uses the same).
IDLE_CLOSE = timedelta(hours=2)
RECORD_NAME = "mining-pass.json"
#: Report keys that count one pass's work (besides every `*_new`): zero when nothing ran.
PER_PASS_KEYS = (
    "sessions_mined",
    "sessions_read_again",
    "episodes_gone",
    "tasks_retired",
    "miner_fallbacks",
)

_NEW_EVENTS_SQL = (
    "SELECT 1 FROM sessions s WHERE s.mined_through_seq < "
    "(SELECT max(e.seq) FROM events e WHERE e.session_id = s.id) LIMIT 1"
)
_IDLE_SQL = (
    "SELECT 1 FROM sessions s WHERE s.id IN (SELECT session_id FROM episodes WHERE NOT is_closed)"
    " AND (SELECT max(e.ts) FROM events e WHERE e.session_id = s.id) < ? LIMIT 1"
)
#: What a pass writes, summed up; any change by anyone means the record no longer holds.
_FINGERPRINT_SQL = (
    "SELECT count(*), max(id), total(is_closed), count(cluster_id) FROM episodes",
    "SELECT count(*), max(id), total(size), total(session_count) FROM task_clusters",
    "SELECT count(*), max(id), total(active) FROM tasks",
    "SELECT split, origin, active, count(*) FROM tasks GROUP BY split, origin, active"
    " ORDER BY split, origin, active",
    "SELECT count(*), max(id) FROM failure_patterns",
    "SELECT max(id) FROM signals",
    "SELECT max(id) FROM pattern_occurrences",
)


def idle_report(cfg: Config, *, now: datetime | None = None) -> dict[str, Any] | None:
    """The report of a pass that would find nothing to do, or None when one might."""
    started = time.perf_counter()
    db_file = _sqlite_file(cfg)
    if db_file is None:
        return None
    record = _read_record()
    if record is None or record.get("key") != _key(cfg, db_file):
        return None
    cutoff = stored_timestamp((now or datetime.now(UTC)) - IDLE_CLOSE)
    try:
        conn = _read_only(db_file)
        try:
            if not _at_head(conn):
                return None
            if conn.execute(_NEW_EVENTS_SQL).fetchone() is not None:
                return None
            if conn.execute(_IDLE_SQL, (cutoff,)).fetchone() is not None:
                return None
            if _read_by_other_rules(conn, reading_rules(cfg.mining)):
                return None
            if _fingerprint(conn) != record.get("fingerprint"):
                return None
        finally:
            conn.close()
    except (sqlite3.Error, OSError):
        return None
    last = record.get("report")
    if not isinstance(last, dict):
        return None
    report = {
        key: 0 if key.endswith("_new") or key in PER_PASS_KEYS else value
        for key, value in last.items()
    }
    report["duration_s"] = round(time.perf_counter() - started, 3)
    return report


def run_pass(
    engine: Any, cfg: Config, *, backend: Any = None, now: datetime | None = None
) -> dict[str, Any]:
    """A full mining pass (`mining.mine.mine`), with the record kept true around it."""
    from sleepd.mining.mine import mine

    forget_pass()
    report = mine(engine, cfg, now=now, backend=backend).to_dict()
    db_file = _sqlite_file(cfg)
    if db_file is not None:
        try:
            conn = _read_only(db_file)
            try:
                fingerprint = _fingerprint(conn)
            finally:
                conn.close()
            _write_record({"key": _key(cfg, db_file), "fingerprint": fingerprint, "report": report})
        except (sqlite3.Error, OSError, TypeError, ValueError):
            pass  # no record: the next `sleepd mine` runs in full
    return report


def forget_pass() -> None:
    """Drop the record; a pass about to write calls this first."""
    (paths.home_dir() / RECORD_NAME).unlink(missing_ok=True)


def record_idle_run(cfg: Config, report: dict[str, Any], trigger: str = "manual") -> None:
    """One finished `job_runs` row, as `jobs.recorded_job` would have written for a pass."""
    from sleepd.processes import owner

    db_file = _sqlite_file(cfg)
    if db_file is None:
        return
    now = stored_timestamp(datetime.now(UTC))
    detail = {**report, "owner": owner(), "shortcut": "nothing pending"}
    conn = sqlite3.connect(db_file, timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO job_runs (job, trigger, started_at, ended_at, outcome, reason, detail) "
            "VALUES ('mine', ?, ?, ?, 'ok', NULL, ?)",
            (trigger, now, now, json.dumps(detail)),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()


def _sqlite_file(cfg: Config) -> Path | None:
    """The configured SQLite file when it exists and is not marked or found damaged."""
    from sleepd.store import integrity
    from sleepd.store.urls import sqlite_file_for

    db_file = sqlite_file_for(paths.database_url(cfg.database_url or None))
    if db_file is None or not db_file.is_file():
        return None
    if integrity.marker_for(db_file).exists() or integrity.header_problem(db_file):
        return None
    return db_file


def _read_only(db_file: Path) -> sqlite3.Connection:
    from urllib.parse import quote

    conn = sqlite3.connect(f"file:{quote(str(db_file))}?mode=ro", uri=True, timeout=5)
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def _at_head(conn: sqlite3.Connection) -> bool:
    from sleepd.store.schema_version import HEAD_REVISION

    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return row is not None and row[0] == HEAD_REVISION


def _fingerprint(conn: sqlite3.Connection) -> list[list[Any]]:
    return [[list(row) for row in conn.execute(sql).fetchall()] for sql in _FINGERPRINT_SQL]


def _read_by_other_rules(conn: sqlite3.Connection, rules: str) -> bool:
    """A mined session is to be read again (`loading.sessions_to_mine`'s rule)."""
    stamps = conn.execute(OTHER_STAMPS_SQL, {"rules": rules}).fetchall()
    return count_to_read_again(stamps, rules) > 0


def _key(cfg: Config, db_file: Path) -> dict[str, Any]:
    """What the record is only valid for: this database file, settings, code and schema."""
    from sleepd import __version__
    from sleepd.store.schema_version import HEAD_REVISION

    st = db_file.stat()
    return {
        "database": str(db_file.resolve()),
        "device": st.st_dev,
        "inode": st.st_ino,
        "settings": hashlib.sha256(repr(cfg.mining).encode()).hexdigest(),
        # new rules read every session again: the pass that does so is never idle
        "code": reading_rules(cfg.mining),
        "version": __version__,
        "head": HEAD_REVISION,
    }


def _read_record() -> dict[str, Any] | None:
    try:
        data = json.loads((paths.home_dir() / RECORD_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write_record(record: dict[str, Any]) -> None:
    """Atomically, owner-only: a reader sees the old record, the new one, or none."""
    home = paths.home_dir(create=True)
    target = home / RECORD_NAME
    tmp = home / f".{RECORD_NAME}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
