"""Run the harvesters, redact what they read, and store it incrementally.

Unchanged files are skipped on their stat alone, which keeps a re-harvest of an
unchanged tree cheap. Changed files are parsed and redacted by `harvest_prepare`
(in worker processes when there is a lot to read, `harvest_feed`) and stored by
`harvest_writer` in transactions that carry their file cursors, so a kill at any
moment loses and duplicates nothing.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from harvesters.records import FileCursor, SourceFile
from sleepd import harvest_feed, paths
from sleepd.config import Config
from sleepd.errors import SleepdError
from sleepd.gc_pacing import harvest_pace
from sleepd.harvest_feed import feed, worker_count
from sleepd.harvest_prepare import ReadJob, ReadLimits, roots_key
from sleepd.harvest_report import HarvestReport, SourceReport
from sleepd.harvest_writer import GroupWriter, note_error
from sleepd.sources import enabled_sources, roots_for
from sleepd.store import ingest
from sleepd.store.checkpointer import WalCheckpointer
from sleepd.store.engine import write_connection
from sleepd.store.models import TranscriptFile

HARVEST_LOCK = "harvest.lock"
HARVEST_LOCK_WAIT_S = 600
ProgressFn = Callable[[str, int, int], None]


class DiskFullError(SleepdError):
    """The database could not grow; what was stored before stays stored."""


def redaction_salt() -> bytes:
    """The per-home salt of redaction placeholders, so equal secrets stay equal."""
    salt_file = paths.home_dir(create=True) / "redaction.salt"
    try:
        return salt_file.read_bytes()
    except FileNotFoundError:
        salt = os.urandom(16)
        fd = os.open(salt_file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(salt)
        return salt
    except FileExistsError:  # pragma: no cover - a concurrent first run
        return salt_file.read_bytes()


def harvest(
    engine: Engine,
    cfg: Config,
    *,
    source: str = "all",
    only_paths: Iterable[str] | None = None,
    progress: ProgressFn | None = None,
    parallel: bool = False,
) -> HarvestReport:
    """Harvest every enabled source (or just `only_paths`) into the database.

    One harvest at a time per home (a file lock): the daemon's sweep, a watch
    event and a night's own harvest never interleave their cursors. With
    `parallel`, a big harvest may parse in worker processes (`harvest.workers`):
    forked from a single-threaded caller on Linux, spawned otherwise. Spawned ones
    re-import the caller's main module, so it is off unless asked for: the CLI and
    the daemon ask; a script that asks must keep its own work under
    `if __name__ == "__main__":`.
    """
    from filelock import FileLock, Timeout

    started = time.perf_counter()
    lock = FileLock(str(paths.home_dir(create=True) / HARVEST_LOCK), timeout=HARVEST_LOCK_WAIT_S)
    try:
        lock.acquire()
    except Timeout:
        raise SleepdError(
            f"another harvest has held {HARVEST_LOCK} for {HARVEST_LOCK_WAIT_S} s; try again later"
        ) from None
    try:
        with harvest_pace():
            return _harvest_locked(engine, cfg, source, only_paths, progress, started, parallel)
    finally:
        lock.release()


def _harvest_locked(
    engine: Engine,
    cfg: Config,
    source: str,
    only_paths: Iterable[str] | None,
    progress: ProgressFn | None,
    started: float,
    parallel: bool,
) -> HarvestReport:
    from harvesters.registry import load_harvester_class

    wanted = {str(Path(p).resolve()) for p in only_paths} if only_paths is not None else None
    salt = redaction_salt() if cfg.harvest.redact else None
    report = HarvestReport(sources={})
    harvesters: dict[str, Any] = {}
    plans: list[_ReadPlan] = []
    for name in enabled_sources(cfg, source):
        src_report = SourceReport(source=name)
        report.sources[name] = src_report
        roots = roots_for(name, cfg)
        harvester = harvesters[name] = load_harvester_class(name)(roots)
        files = list(_discover(harvester, src_report))
        if wanted is not None:
            files = [f for f in files if str(Path(f.path).resolve()) in wanted]
        plans.append(
            _plan_reads(engine, cfg, name, roots_key(roots), files, src_report, salt, progress)
        )
    # One pass over every source's changed files, so workers (if the work is big
    # enough for them) parse the next source while this one is being stored.
    _read_and_store(engine, cfg, harvesters, plans, report, progress, parallel)
    with write_connection(engine) as conn:
        ingest.link_parent_sessions(conn)
    report.duration_s = time.perf_counter() - started
    return report


def _discover(harvester: Any, report: SourceReport) -> Iterable[SourceFile]:
    try:
        yield from harvester.discover()
    except OSError as exc:
        report.errors += 1
        report.error_messages.append(f"cannot list {exc.filename or 'a root'}: {exc.strerror}")


@dataclass
class _ReadPlan:
    """The changed files of one source, their cursors, and how many new bytes they hold."""

    source: str
    jobs: list[ReadJob]
    new_bytes: int
    unchanged: int
    total: int


def _plan_reads(
    engine: Engine,
    cfg: Config,
    source: str,
    roots: tuple[str, ...],
    files: list[SourceFile],
    report: SourceReport,
    salt: bytes | None,
    progress: ProgressFn | None,
) -> _ReadPlan:
    with engine.connect() as conn:
        known = {
            row.path: row
            for row in conn.execute(
                select(
                    TranscriptFile.path,
                    TranscriptFile.size,
                    TranscriptFile.mtime_ns,
                    TranscriptFile.inode,
                    TranscriptFile.device,
                    TranscriptFile.offset,
                ).where(TranscriptFile.source == source)
            )
        }
    plan = _ReadPlan(source, jobs=[], new_bytes=0, unchanged=0, total=len(files))
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
        row = known.get(source_file.path)
        if (
            row is not None
            and row.size == st.st_size
            and row.mtime_ns == st.st_mtime_ns
            and row.inode == st.st_ino
            and row.device == st.st_dev
            and row.offset <= st.st_size
        ):
            plan.unchanged += 1
            if progress is not None:
                progress(source, plan.unchanged, plan.total)
            continue
        report.files_changed += 1
        changed.append((source_file, st))
    # Whole cursors (with parse state) only for the files about to be read.
    cursors = _stored_cursors(engine, [f.path for f, _ in changed if f.path in known])
    limits = ReadLimits(cfg.harvest.batch_lines, cfg.harvest.max_text_bytes)
    for source_file, st in changed:
        cursor = cursors.get(source_file.path)
        resumes = cursor is not None and cursor.inode == st.st_ino and cursor.offset <= st.st_size
        new_bytes = st.st_size - (cursor.offset if resumes and cursor else 0)
        plan.new_bytes += new_bytes
        plan.jobs.append(
            ReadJob(source, roots, source_file, cursor, limits, salt, new_bytes=new_bytes)
        )
    return plan


def _stored_cursors(engine: Engine, paths: list[str]) -> dict[str, FileCursor]:
    found: dict[str, FileCursor] = {}
    with engine.connect() as conn:
        for start in range(0, len(paths), ingest.IN_CHUNK):
            for row in conn.execute(
                select(
                    TranscriptFile.path,
                    TranscriptFile.device,
                    TranscriptFile.inode,
                    TranscriptFile.size,
                    TranscriptFile.offset,
                    TranscriptFile.head_hash,
                    TranscriptFile.tail_hash,
                    TranscriptFile.line_no,
                    TranscriptFile.mtime_ns,
                    TranscriptFile.parse_state,
                ).where(TranscriptFile.path.in_(paths[start : start + ingest.IN_CHUNK]))
            ):
                if row.inode or row.offset:  # never read: no cursor yet
                    found[row.path] = ingest.cursor_from_row(row)
    return found


def _read_and_store(
    engine: Engine,
    cfg: Config,
    harvesters: dict[str, Any],
    plans: list[_ReadPlan],
    report: HarvestReport,
    progress: ProgressFn | None,
    parallel: bool,
) -> None:
    jobs = [job for plan in plans for job in plan.jobs]
    # Where each job puts the progress bar of its source.
    positions = [
        (plan.source, plan.unchanged + n, plan.total)
        for plan in plans
        for n in range(1, len(plan.jobs) + 1)
    ]
    workers = 0
    if parallel:
        workers = worker_count(
            cfg.harvest.workers,
            sum(plan.new_bytes for plan in plans),
            cfg.harvest.parallel_min_mb * 1_000_000,
        )
    # A big harvest's WAL checkpoints run in a thread, off the writer's critical path.
    checkpointer = WalCheckpointer.for_engine(engine) if workers else None
    writers = {
        plan.source: GroupWriter(engine, plan.source, report.sources[plan.source], checkpointer)
        for plan in plans
    }
    method = harvest_feed.start_method() if workers else None
    for plan in plans:
        report.sources[plan.source].workers = workers if plan.jobs else 0
        report.sources[plan.source].worker_start = (method or "") if plan.jobs else ""

    def started(index: int) -> None:
        if progress is not None:
            progress(*positions[index])

    current: GroupWriter | None = None
    try:
        for item in feed(jobs, harvesters, workers, started, method):
            if checkpointer is not None:
                checkpointer.start()  # once; forked workers are started by the first item
            writer = writers[jobs[item.index].source]
            if writer is not current:
                if current is not None:
                    current.flush()  # sources are stored one after the other
                current = writer
            if item.notice is not None:
                report.notices.append(item.notice)
            elif item.error is not None:
                note_error(writer.report, item.error)
            elif item.batch is not None:
                writer.add(item.batch)
        if current is not None:
            current.flush()
    except BaseException as exc:
        for writer in writers.values():
            writer.abort()  # an open group is rolled back: nothing half-stored
        if isinstance(exc, OperationalError | sqlite3.OperationalError) and _is_disk_full(exc):
            raise DiskFullError(
                "the disk holding the database is full; harvest stopped, nothing stored "
                "was lost — free space and run `sleepd harvest` again"
            ) from None
        raise
    finally:
        problem = checkpointer.stop() if checkpointer is not None else None
        if problem is not None:
            report.notices.append(f"{problem}; SQLite checkpoints at the next write instead")


def _is_disk_full(exc: Exception) -> bool:
    """SQLITE_FULL, whether it came through SQLAlchemy or straight from the driver."""
    orig = getattr(exc, "orig", exc)
    return isinstance(orig, sqlite3.OperationalError) and "full" in str(orig).lower()
