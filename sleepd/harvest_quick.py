"""The unchanged-tree shortcut of `sleepd harvest`: answer from stat() alone.

A harvest of a tree where nothing changed reads no transcript bytes anyway;
what it costs is starting Python and importing the database layer. For the
common SQLite setup this module decides "nothing changed" with the stdlib
driver and one stat per file, and records the (empty) run in `job_runs` the
way `sleepd.jobs.recorded_job` would, so `status` still sees a fresh harvest.
Any doubt — a new, changed or vanished file, another database, a schema behind
head — returns None and the full harvest runs.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from datetime import UTC, datetime
from typing import Any

from sleepd import paths
from sleepd.config import Config
from sleepd.harvest_report import HarvestReport, SourceReport
from sleepd.processes import owner
from sleepd.sources import enabled_sources, roots_for
from sleepd.store.fastread import ReadOnlyDb, db_to_utc_param, sqlite_file_missing
from sleepd.store.schema_version import HEAD_REVISION

_CURSOR_SQL = (
    "SELECT path, size, mtime_ns, inode, device, offset FROM transcript_files WHERE source = :s"
)


def unchanged_report(cfg: Config, source: str = "all") -> HarvestReport | None:
    """A report with zero new events when every file matches its cursor, else None."""
    started = time.perf_counter()
    url = paths.database_url(cfg.database_url or None)
    if not url.startswith("sqlite:///") or sqlite_file_missing(url):
        return None
    from harvesters.registry import load_harvester_class

    db = ReadOnlyDb(url)
    try:
        if db.scalar("SELECT version_num FROM alembic_version") != HEAD_REVISION:
            return None
        report = HarvestReport(sources={})
        for name in enabled_sources(cfg, source):
            known = {row[0]: tuple(row[1:]) for row in db.rows(_CURSOR_SQL, {"s": name})}
            scanned = 0
            for found in load_harvester_class(name)(roots_for(name, cfg)).discover():
                cursor = known.get(found.path)
                if cursor is None:
                    return None
                st = os.stat(found.path)
                size, mtime_ns, inode, device, offset = cursor
                if (size, mtime_ns, inode, device) != (
                    st.st_size,
                    st.st_mtime_ns,
                    st.st_ino,
                    st.st_dev,
                ) or offset > st.st_size:
                    return None
                scanned += 1
            report.sources[name] = SourceReport(source=name, files_scanned=scanned)
    except (OSError, sqlite3.Error):
        return None
    finally:
        db.close()
    report.duration_s = time.perf_counter() - started
    return report


def record_unchanged_run(cfg: Config, report: HarvestReport, trigger: str = "manual") -> None:
    """One finished `job_runs` row, as a full harvest would have written."""
    url = paths.database_url(cfg.database_url or None)
    now = db_to_utc_param(datetime.now(UTC))
    detail: dict[str, Any] = {**report.to_dict(), "owner": owner(), "shortcut": "unchanged"}
    conn = sqlite3.connect(url[len("sqlite:///") :], timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO job_runs (job, trigger, started_at, ended_at, outcome, reason, detail) "
            "VALUES ('harvest', ?, ?, ?, 'ok', NULL, ?)",
            (trigger, now, now, json.dumps(detail)),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
