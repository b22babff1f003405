"""Run the harvesters, redact what they read, and store it incrementally.

Each batch (records plus the file cursor after them) is one transaction, so a
kill at any moment loses and duplicates nothing. Unchanged files are skipped on
their stat alone, which keeps a re-harvest of an unchanged tree cheap.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from harvesters.records import Batch, EventRecord, SourceFile
from sleepd import paths
from sleepd.config import Config
from sleepd.errors import SleepdError
from sleepd.harvest_report import HarvestReport, SourceReport
from sleepd.sources import enabled_sources, roots_for
from sleepd.store import ingest
from sleepd.store.engine import write_session
from sleepd.store.models import TranscriptFile

HARVEST_LOCK = "harvest.lock"
HARVEST_LOCK_WAIT_S = 600
ProgressFn = Callable[[str, int, int], None]


class DiskFullError(SleepdError):
    """The database could not grow; what was stored before stays stored."""


def make_redactor() -> Any:
    """One redactor per process with a per-home salt, so equal secrets stay equal."""
    from sleepd.redaction import Redactor

    return Redactor(salt=_redaction_salt())


def _redaction_salt() -> bytes:
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


class _LazyRedactor:
    """Redacts every stored string of a batch and counts hits per rule.

    The rule set is compiled on first use, so a re-harvest of an unchanged tree
    never pays for it.
    """

    def __init__(self) -> None:
        self._redactor: Any = None
        self.counts: dict[str, int] = {}

    def batch(self, events: list[EventRecord], sessions: list[Any]) -> None:
        if self._redactor is None:
            self._redactor = make_redactor()
        # One redact_many call per batch: the keyword search runs once over
        # all the strings, and rules only on the few strings with a hit.
        slots: list[tuple[Any, str]] = []
        for ev in events:
            if ev.text:
                slots.append((ev, "text"))
            if ev.raw:
                slots.append((ev, "raw"))
        slots.extend((session, "title") for session in sessions if session.title)
        texts = [getattr(owner, name) for owner, name in slots]
        results = self._redactor.redact_many(texts)
        for (owner, name), (new_text, rules) in zip(slots, results, strict=True):
            if rules:  # every change comes with a rule id
                setattr(owner, name, str(new_text))
            for rule in rules:
                self.counts[rule] = self.counts.get(rule, 0) + 1

    def take_counts(self) -> dict[str, int]:
        counts, self.counts = self.counts, {}
        return counts


def _is_replay(project_path: str | None) -> bool:
    return bool(project_path) and paths.REPLAY_DIR_PREFIX in str(project_path)


def harvest(
    engine: Engine,
    cfg: Config,
    *,
    source: str = "all",
    only_paths: Iterable[str] | None = None,
    progress: ProgressFn | None = None,
) -> HarvestReport:
    """Harvest every enabled source (or just `only_paths`) into the database.

    One harvest at a time per home (a file lock): the daemon's sweep, a watch
    event and a night's own harvest never interleave their cursors.
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
        return _harvest_locked(engine, cfg, source, only_paths, progress, started)
    finally:
        lock.release()


def _harvest_locked(
    engine: Engine,
    cfg: Config,
    source: str,
    only_paths: Iterable[str] | None,
    progress: ProgressFn | None,
    started: float,
) -> HarvestReport:
    from harvesters.registry import load_harvester_class

    wanted = {str(Path(p).resolve()) for p in only_paths} if only_paths is not None else None
    redactor = _LazyRedactor() if cfg.harvest.redact else None
    report = HarvestReport(sources={})
    for name in enabled_sources(cfg, source):
        src_report = SourceReport(source=name)
        report.sources[name] = src_report
        harvester = load_harvester_class(name)(roots_for(name, cfg))
        files = list(_discover(harvester, src_report))
        if wanted is not None:
            files = [f for f in files if str(Path(f.path).resolve()) in wanted]
        _harvest_files(engine, cfg, harvester, name, files, src_report, redactor, progress)
    with write_session(engine) as db:
        ingest.link_parent_sessions(db)
    report.duration_s = time.perf_counter() - started
    return report


def _discover(harvester: Any, report: SourceReport) -> Iterable[SourceFile]:
    try:
        yield from harvester.discover()
    except OSError as exc:
        report.errors += 1
        report.error_messages.append(f"cannot list {exc.filename or 'a root'}: {exc.strerror}")


def _harvest_files(
    engine: Engine,
    cfg: Config,
    harvester: Any,
    source: str,
    files: list[SourceFile],
    report: SourceReport,
    redactor: _LazyRedactor | None,
    progress: ProgressFn | None,
) -> None:
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
    session_cache: dict[str, int] = {}
    seq_cache: dict[int, int] = {}
    for index, source_file in enumerate(files, start=1):
        report.files_scanned += 1
        if progress is not None:
            progress(source, index, len(files))
        try:
            st = os.stat(source_file.path)
        except FileNotFoundError:
            report.files_missing += 1
            continue
        except OSError as exc:
            _note_error(report, f"cannot stat {source_file.path}: {exc.strerror}")
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
            continue
        report.files_changed += 1
        try:
            _harvest_one(
                engine,
                cfg,
                harvester,
                source,
                source_file,
                report,
                redactor,
                session_cache,
                seq_cache,
            )
        except (OperationalError, sqlite3.OperationalError) as exc:
            if _is_disk_full(exc):
                raise DiskFullError(
                    "the disk holding the database is full; harvest stopped, nothing stored "
                    "was lost — free space and run `sleepd harvest` again"
                ) from None
            raise
        except OSError as exc:
            _note_error(report, f"cannot read {source_file.path}: {exc.strerror or exc}")


def _is_disk_full(exc: Exception) -> bool:
    """SQLITE_FULL, whether it came through SQLAlchemy or straight from the driver."""
    orig = getattr(exc, "orig", exc)
    return isinstance(orig, sqlite3.OperationalError) and "full" in str(orig).lower()


def _note_error(report: SourceReport, message: str) -> None:
    report.errors += 1
    if len(report.error_messages) < 50:
        report.error_messages.append(message)


def _harvest_one(
    engine: Engine,
    cfg: Config,
    harvester: Any,
    source: str,
    source_file: SourceFile,
    report: SourceReport,
    redactor: _LazyRedactor | None,
    session_cache: dict[str, int],
    seq_cache: dict[int, int],
) -> None:
    with write_session(engine) as db:
        file_row = ingest.get_or_create_file(db, source_file.path, source, source_file.role)
        cursor = ingest.cursor_from_row(file_row) if file_row.inode or file_row.offset else None
    batches = harvester.read(
        source_file,
        cursor,
        batch_lines=cfg.harvest.batch_lines,
        max_text_bytes=cfg.harvest.max_text_bytes,
    )
    for batch in batches:
        _store_batch(engine, source, batch, report, redactor, session_cache, seq_cache)


FILE_LEVEL_REASONS = ("file vanished", "unreadable")


def _file_level_problem(batch: Batch) -> str | None:
    """The reader reports a file it could not open as one skip at line 0."""
    for item in batch.skipped:
        if item.line_no == 0 and item.reason.startswith(FILE_LEVEL_REASONS):
            return item.reason
    return None


def _store_batch(
    engine: Engine,
    source: str,
    batch: Batch,
    report: SourceReport,
    redactor: _LazyRedactor | None,
    session_cache: dict[str, int],
    seq_cache: dict[int, int],
) -> None:
    problem = _file_level_problem(batch)
    if problem is not None:
        with write_session(engine) as db:
            file_row = ingest.get_or_create_file(db, batch.path, source, "main")
            file_row.status = "missing" if problem == "file vanished" else "error"
            file_row.last_error = problem[:500]
        if problem == "file vanished":
            report.files_missing += 1
        else:
            _note_error(report, f"cannot read {batch.path}: {problem}")
        return
    replay_ids = {s.external_id for s in batch.sessions if _is_replay(s.project_path)}
    sessions = [s for s in batch.sessions if s.external_id not in replay_ids]
    events = [e for e in batch.events if e.session_external_id not in replay_ids]
    report.replay_sessions_skipped += len(replay_ids)
    if redactor is not None and (events or sessions):
        redactor.batch(events, sessions)
    with write_session(engine) as db:
        file_row = ingest.get_or_create_file(db, batch.path, source, "main")
        if batch.reset:
            ingest.reset_file(db, file_row)
            session_cache.clear()
            seq_cache.clear()
            report.files_reset += 1
        report.sessions_new += ingest.upsert_sessions(
            db, source, sessions, file_row.id, session_cache
        )
        inserted, touched = ingest.insert_events(
            db, source, events, file_row.id, session_cache, seq_cache
        )
        ingest.refresh_event_counts(db, touched)
        ingest.record_skips(db, file_row, batch.skipped)
        ingest.store_cursor(file_row, batch.cursor)
        if redactor is not None:
            counts = redactor.take_counts()
            ingest.add_redaction_counts(db, source, counts)
            report.redactions += sum(counts.values())
    report.events_new += inserted
    report.malformed_lines += len(batch.skipped)
    report.truncated_lines += batch.truncated_lines
    report.bytes_read += batch.bytes_read
