"""Run: one harvest, start to end — plan, read, write — under the harvest lock.

Unchanged files are skipped on their stat alone (`plan`), changed ones are read and
redacted (`read`, serially or with worker processes) and stored in transactions
that carry their file cursors (`write`), so a kill at any moment loses and
duplicates nothing, and a run after a kill stores what one clean run would have.
"""

from __future__ import annotations

import gc
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from harvesters.records import SourceFile
from sleepd import paths
from sleepd.config import Config
from sleepd.errors import SleepdError
from sleepd.harvest.plan import SourcePlan, discover, discover_paths, plan_source, roots_key
from sleepd.harvest.read import feed
from sleepd.harvest.report import DiskFullError, HarvestReport, SourceReport, note_error
from sleepd.harvest.reread import last_file_id, read_again, stamp_new_files
from sleepd.harvest.write import GroupWriter
from sleepd.sources import enabled_sources, roots_for
from sleepd.store.fastread import ReadOnlyDb
from sleepd.store.writedb import WriteTarget

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

HARVEST_LOCK = "harvest.lock"
HARVEST_LOCK_WAIT_S = 600
AUTO_MAX_WORKERS = 4
ProgressFn = Callable[[str, int, int], None]


def redaction_salt() -> bytes:
    """The per-home salt of redaction placeholders, so equal secrets stay equal."""
    salt_file = paths.home_dir(create=True) / "redaction.salt"
    try:
        return salt_file.read_bytes()
    except FileNotFoundError:
        salt = os.urandom(16)
        try:
            fd = os.open(salt_file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:  # a concurrent first run wrote it
            return salt_file.read_bytes()
        with os.fdopen(fd, "wb") as handle:
            handle.write(salt)
        return salt


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS
        return os.cpu_count() or 1


@contextmanager
def machine_harvest_lock(engine: Engine | None) -> Iterator[None]:
    """The one-harvest-per-machine lock (`store.locks`), held for the block; a harvest
    of this machine that still holds it after HARVEST_LOCK_WAIT_S is one clear error.
    Anything else that rewrites harvested rows (`sleepd db redact`) takes it too."""
    from sleepd.hosts import host_id
    from sleepd.store.locks import hold

    with hold(engine, f"harvest:{host_id()}", HARVEST_LOCK, HARVEST_LOCK_WAIT_S) as taken:
        if not taken:
            raise SleepdError(
                f"another harvest on this machine has run for {HARVEST_LOCK_WAIT_S} s; "
                "try again later"
            )
        yield


def worker_count(
    jobs: int, pending_bytes: int, threshold_bytes: int, cpus: int | None = None
) -> int:
    """How many worker processes parse; 0 means in this process.

    `jobs` 1 is serial; 0 is one per CPU (at most AUTO_MAX_WORKERS, none on one CPU).
    Below `threshold_bytes` of new transcript, starting workers costs more than the work.
    """
    if jobs == 1 or pending_bytes < threshold_bytes:
        return 0
    if jobs > 1:
        return jobs
    cpus = usable_cpus() if cpus is None else cpus
    return min(cpus, AUTO_MAX_WORKERS) if cpus >= 2 else 0


def harvest(
    store: Engine | WriteTarget,
    cfg: Config,
    *,
    source: str = "all",
    only_paths: Iterable[str] | None = None,
    progress: ProgressFn | None = None,
    jobs: int = 1,
    listed: dict[str, list[SourceFile]] | None = None,
) -> HarvestReport:
    """Harvest every enabled source (or just `only_paths`) into the database.

    `store`: the store's engine, or (for a command that starts without SQLAlchemy) a
    SQLite file's `WriteTarget`; a SQLite file is written through the stdlib driver
    either way. `listed`: sources' files as a caller just listed them (`plan.unchanged_report`),
    used instead of listing them again; each is still stat'ed against its cursor.

    One harvest at a time per machine (`store.locks`: a file lock beside a SQLite store,
    an advisory lock on PostgreSQL, where many machines harvest into one database): the
    daemon's sweep, a watch event and a night's own harvest never interleave their
    cursors. `jobs` above 1 parses
    a big harvest in that many spawned worker processes (0: one per CPU); they
    re-import the caller's main module, so a script that asks for them keeps its own
    work under `if __name__ == "__main__":`.
    """
    started = time.perf_counter()
    target = store if isinstance(store, WriteTarget) else WriteTarget.for_engine(store)
    try:
        with machine_harvest_lock(target.engine):
            report = _harvest_locked(target, cfg, source, only_paths, progress, jobs, listed or {})
    finally:
        if target is not store:
            target.close()
    report.duration_s = time.perf_counter() - started
    return report


def _harvest_locked(
    target: WriteTarget,
    cfg: Config,
    source: str,
    only_paths: Iterable[str] | None,
    progress: ProgressFn | None,
    jobs: int,
    listed: dict[str, list[SourceFile]],
) -> HarvestReport:
    from harvesters.registry import load_harvester_class

    asked = list(only_paths) if only_paths is not None else None
    wanted = {os.path.realpath(p) for p in asked} if asked is not None else None
    salt = redaction_salt() if cfg.harvest.redact else None
    report = HarvestReport(sources={})
    plans: list[SourcePlan] = []
    db = ReadOnlyDb(target.url)
    try:
        for name in enabled_sources(cfg, source):
            src_report = report.sources[name] = SourceReport(source=name)
            roots = roots_for(name, cfg)
            files = listed.get(name)
            if files is None:
                harvester = load_harvester_class(name)(roots)
                if asked is None:
                    files = list(discover(harvester, src_report))
                else:
                    files = list(discover_paths(harvester, asked, src_report))
            if wanted is not None:
                files = [f for f in files if os.path.realpath(f.path) in wanted]
            plans.append(
                plan_source(db, cfg, name, roots_key(roots), files, src_report, salt, progress)
            )
        newest = last_file_id(db)  # the files stored after it are read by today's rules
    finally:
        db.close()
    if any(plan.jobs for plan in plans):
        with _older_objects_left_alone():
            _read_and_store(target, cfg, plans, report, progress, jobs)
        stamp_new_files(target, cfg, newest)  # read from their first line by today's rules
    if asked is None:
        # what other rules read, read again where it still lies (`harvest.reread`)
        read_again(target, cfg, report, salt, [plan.source for plan in plans])
    return report


@contextmanager
def _older_objects_left_alone() -> Iterator[None]:
    """The objects alive before the read (modules, the store's metadata, the caller's
    state) are left out of garbage collection while it runs, and given back after.

    A read allocates a great many objects, so the collector's full passes run during
    it, and each would walk every older object again although none of them is
    released by the read. Given back when it ends, any of them that has since become
    garbage is collected as usual: nothing is kept alive that would not have been.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _read_and_store(
    target: WriteTarget,
    cfg: Config,
    plans: list[SourcePlan],
    report: HarvestReport,
    progress: ProgressFn | None,
    jobs: int,
) -> None:
    """Every source's changed files in one pass, so workers parse the next source's
    files while this one's are being stored."""
    work = [job for plan in plans for job in plan.jobs]
    positions = [  # where each job puts the progress bar of its source
        (plan.source, plan.unchanged + n, plan.total)
        for plan in plans
        for n in range(1, len(plan.jobs) + 1)
    ]
    workers = worker_count(
        jobs, sum(plan.new_bytes for plan in plans), cfg.harvest.parallel_min_mb * 1_000_000
    )
    writers = {
        plan.source: GroupWriter(target, plan.source, report.sources[plan.source]) for plan in plans
    }
    for plan in plans:
        report.sources[plan.source].workers = workers if plan.jobs else 0
        report.sources[plan.source].worker_start = "spawn" if workers and plan.jobs else ""

    def started(index: int) -> None:
        if progress is not None:
            progress(*positions[index])

    current: GroupWriter | None = None
    try:
        for item in feed(work, workers, started):
            writer = writers[work[item.index].source]
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
        if _is_disk_full(exc):
            raise DiskFullError(
                "the disk holding the database is full; harvest stopped, nothing stored "
                "was lost — free space and run `sleepd harvest` again"
            ) from None
        raise


def _is_disk_full(exc: BaseException) -> bool:
    """SQLITE_FULL, whether it came through SQLAlchemy or straight from the driver."""
    orig = getattr(exc, "orig", exc)
    return isinstance(orig, sqlite3.OperationalError) and "full" in str(orig).lower()
