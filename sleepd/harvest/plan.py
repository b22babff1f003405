"""Plan: which transcript files changed since their stored cursors, from stat() alone.

Unchanged files are skipped on their stat, so a re-harvest of an unchanged tree reads
no transcript bytes: it costs one stat per file and one query per source. The
cursors are read through the stdlib driver for SQLite (`sleepd.store.fastread`), so
the check imports no SQLAlchemy; `unchanged_report` is the same check answering the
whole question before `sleepd harvest` loads the database layer at all.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from harvesters.records import FileCursor, SourceFile
from sleepd import paths
from sleepd.config import Config
from sleepd.harvest.report import HarvestReport, SourceReport, note_error
from sleepd.processes import owner
from sleepd.sources import enabled_sources, roots_for
from sleepd.store.fastread import ReadOnlyDb, db_to_utc_param, sqlite_file_missing
from sleepd.store.schema_version import HEAD_REVISION

if TYPE_CHECKING:  # imported where used: the unchanged-tree answer reads no file
    from sleepd.harvest.read import ReadJob
    from sleepd.store.writedb import WriteTarget

ProgressFn = Callable[[str, int, int], None]

#: Cursors are this machine's (`sleepd.hosts`): keyed by (host id, path).
_STAT_SQL = (
    'SELECT path, size, mtime_ns, inode, device, "offset" FROM transcript_files '
    "WHERE source = :s AND host_id = :h"
)
_CURSOR_SQL = (
    'SELECT path, device, inode, size, "offset", head_hash, tail_hash, line_no, mtime_ns, '
    "parse_state FROM transcript_files WHERE host_id = :h AND path IN ({marks})"
)
#: Paths per `IN (...)` list, well under every database's parameter limit.
_IN_CHUNK = 500


def unchanged(stored: tuple[Any, ...] | None, st: os.stat_result) -> bool:
    """Whether a file's stat matches its stored cursor `(size, mtime_ns, inode, device,
    offset)`: the one test that lets a file go unread."""
    if stored is None:
        return False
    size, mtime_ns, inode, device, offset = stored
    return (size, mtime_ns, inode, device) == (
        st.st_size,
        st.st_mtime_ns,
        st.st_ino,
        st.st_dev,
    ) and offset <= st.st_size


def stored_stats(
    db: ReadOnlyDb, source: str, paths: list[str] | None = None
) -> dict[str, tuple[Any, ...]]:
    """What each stored file looked like when last read, by path: every file of `source`,
    or only `paths` when they are few (a watch harvest of one file in a long history)."""
    from sleepd.hosts import host_id

    params: dict[str, Any] = {"s": source, "h": host_id()}
    sql = _STAT_SQL
    if paths is not None and len(paths) <= _IN_CHUNK:
        names = {f"p{n}": path for n, path in enumerate(paths)}
        sql += f" AND path IN ({', '.join(':' + name for name in names) or 'NULL'})"
        params.update(names)
    return {row[0]: tuple(row[1:]) for row in db.rows(sql, params)}


@dataclass
class SourcePlan:
    """The changed files of one source, their cursors, and how many new bytes they hold."""

    source: str
    jobs: list[ReadJob] = field(default_factory=list)
    new_bytes: int = 0
    unchanged: int = 0
    total: int = 0


def plan_source(
    db: ReadOnlyDb,
    cfg: Config,
    source: str,
    roots: tuple[str, ...],
    files: list[SourceFile],
    report: SourceReport,
    salt: bytes | None,
    progress: ProgressFn | None = None,
) -> SourcePlan:
    """Stat every file against its stored cursor; a job for each one that changed."""
    from sleepd.harvest.read import REDACTED_STATE, ReadJob, ReadLimits

    known = stored_stats(db, source, [f.path for f in files])
    plan = SourcePlan(source, total=len(files))
    changed: list[tuple[SourceFile, os.stat_result]] = []
    for source_file in files:
        report.files_scanned += 1
        try:
            st = os.stat(source_file.path)
        except FileNotFoundError:
            report.files_missing += 1
            continue
        except OSError as exc:
            note_error(report, f"cannot stat {source_file.path}: {exc.strerror}")
            continue
        if unchanged(known.get(source_file.path), st):
            plan.unchanged += 1
            if progress is not None:
                progress(source, plan.unchanged, plan.total)
            continue
        report.files_changed += 1
        changed.append((source_file, st))
    # Whole cursors (with parse state) only for the files about to be read.
    cursors = stored_cursors(db, [f.path for f, _ in changed if f.path in known])
    limits = ReadLimits(cfg.harvest.batch_lines, cfg.harvest.max_text_bytes)
    for source_file, st in changed:
        cursor = cursors.get(source_file.path)
        resumes = cursor is not None and cursor.inode == st.st_ino and cursor.offset <= st.st_size
        new_bytes = st.st_size - (cursor.offset if resumes and cursor else 0)
        plan.new_bytes += new_bytes
        # the mark is the store's, not the harvester's: it says the state passed redaction
        redacted = cursor is not None and cursor.state.pop(REDACTED_STATE, None) is True
        plan.jobs.append(
            ReadJob(source, roots, source_file, cursor, limits, salt, new_bytes, redacted)
        )
    return plan


def stored_cursors(db: ReadOnlyDb, wanted: list[str]) -> dict[str, FileCursor]:
    """The cursors of `wanted` paths that were ever read (a row without one has none)."""
    from sleepd.hosts import host_id

    found: dict[str, FileCursor] = {}
    host = host_id()
    for start in range(0, len(wanted), _IN_CHUNK):
        chunk = wanted[start : start + _IN_CHUNK]
        names = {f"p{n}": path for n, path in enumerate(chunk)}
        sql = _CURSOR_SQL.format(marks=", ".join(f":{name}" for name in names))
        for path, device, inode, size, offset, head, tail, line_no, mtime_ns, state in db.rows(
            sql, {**names, "h": host}
        ):
            if not (inode or offset):
                continue
            if isinstance(state, str | bytes):
                state = orjson.loads(state) if state else {}
            found[path] = FileCursor(
                path=path,
                device=device,
                inode=inode,
                size=size,
                offset=offset,
                head_hash=head or "",
                line_no=line_no,
                mtime_ns=mtime_ns,
                state=dict(state or {}),
                tail_hash=tail or "",
            )
    return found


def discover(harvester: Any, report: SourceReport) -> Iterable[SourceFile]:
    try:
        yield from harvester.discover()
    except OSError as exc:
        note_error(report, f"cannot list {exc.filename or 'a root'}: {exc.strerror}")


def discover_paths(
    harvester: Any, paths: Sequence[str], report: SourceReport
) -> Iterable[SourceFile]:
    """The files `discover` lists where `paths` lie: the daemon hands a few changed files
    to a harvest many times an hour, and listing a long history for each costs far more
    than reading them. A harvester narrows its listing with `discover_paths` (same
    files, same order, only the folders holding the paths); one without it, or one that
    answers None for these paths, gets the whole listing. The caller keeps the files
    that are the paths asked for."""
    narrow = getattr(harvester, "discover_paths", None)
    if narrow is not None:
        try:
            listed: list[SourceFile] | None = narrow(paths)
        except OSError as exc:
            note_error(report, f"cannot list {exc.filename or 'a root'}: {exc.strerror}")
            return []
        if listed is not None:
            return listed
    return discover(harvester, report)


def roots_key(roots: Iterable[Path]) -> tuple[str, ...]:
    return tuple(str(r) for r in roots)


# ---- the unchanged-tree shortcut of `sleepd harvest` ----------------------------------


def unchanged_report(
    cfg: Config, source: str = "all", found: dict[str, list[SourceFile]] | None = None
) -> HarvestReport | None:
    """A report of zero new events when every file matches its cursor, else None.

    For a SQLite store only, answered before SQLAlchemy is imported. Any doubt — a
    new, changed or vanished file, another database, a schema behind head — returns
    None and the full harvest runs (which makes the same check file by file).
    `found`, when given, receives each source's files as listed here, so the harvest
    that follows need not list them again.
    """
    started = time.perf_counter()
    url = paths.database_url(cfg.database_url or None)
    if not url.startswith("sqlite:///") or sqlite_file_missing(url):
        return None
    from harvesters.registry import load_harvester_class

    try:
        db = ReadOnlyDb(url)
    except Exception:  # a damaged or unreadable file: the full path reports it properly
        return None
    try:
        if db.scalar("SELECT version_num FROM alembic_version") != HEAD_REVISION:
            return None
        if _read_by_other_rules(db, cfg, enabled_sources(cfg, source)):
            return None  # files to read again (`harvest.reread`): the full harvest does it
        report = HarvestReport(sources={})
        for name in enabled_sources(cfg, source):
            known = stored_stats(db, name)
            files = list(load_harvester_class(name)(roots_for(name, cfg)).discover())
            if found is not None:
                found[name] = files
            scanned = 0
            for file in files:
                if not unchanged(known.get(file.path), os.stat(file.path)):
                    return None
                scanned += 1
            report.sources[name] = SourceReport(source=name, files_scanned=scanned)
    except (OSError, sqlite3.Error):
        return None
    finally:
        db.close()
    report.duration_s = time.perf_counter() - started
    return report


def _read_by_other_rules(db: ReadOnlyDb, cfg: Config, sources: Iterable[str]) -> bool:
    """A file of these sources that another harvest read waits to be read again."""
    from sleepd.harvest.reading import harvest_rules
    from sleepd.hosts import host_id

    names = {f"s{n}": name for n, name in enumerate(sources)}
    if not names:
        return False
    stale = db.scalar(
        "SELECT 1 FROM transcript_files WHERE host_id = :h AND read_with != :r "
        f"AND source IN ({', '.join(':' + name for name in names)}) LIMIT 1",
        {"h": host_id(), "r": harvest_rules(cfg), **names},
    )
    return stale is not None


def sqlite_target_at_head(cfg: Config) -> WriteTarget | None:
    """A `WriteTarget` on the configured SQLite file when it exists at head, else None
    (another database, a new file, a schema behind head: `open_store` decides those)."""
    from sleepd.store.writedb import WriteTarget

    url = paths.database_url(cfg.database_url or None)
    if not url.startswith("sqlite:///") or sqlite_file_missing(url):
        return None
    try:
        db = ReadOnlyDb(url)
    except Exception:  # damaged or unreadable: `open_store` says so properly
        return None
    try:
        if db.scalar("SELECT version_num FROM alembic_version") != HEAD_REVISION:
            return None
    except sqlite3.Error:
        return None
    finally:
        db.close()
    return WriteTarget(url)


def record_unchanged_run(cfg: Config, report: HarvestReport, trigger: str = "manual") -> None:
    """One finished `job_runs` row, as `sleepd.jobs.run_harvest_job` would have written."""
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
