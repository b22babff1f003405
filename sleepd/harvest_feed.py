"""Hand the writer prepared batches in file order, from worker processes when the work is big.

SQLite has one writer, so the harvesting process stores and indexes while workers parse
and redact. Threads do not help here (measured: the parse holds the GIL), processes do.
Small harvests — the daemon's usual few appended lines — stay in-process: starting a
worker costs more than the work. Order is kept exactly as a serial harvest would write
it, so a parallel harvest stores the same database as a serial one.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

from sleepd.harvest_prepare import (
    BatchRedactor,
    PreparedBatch,
    ReadJob,
    ReadResult,
    prepared_batches,
    read_in_worker,
)

AUTO_MAX_WORKERS = 4
#: Bytes of one file a worker reads before handing its batches back.
WORKER_CHUNK_BYTES = 8 << 20
#: Bytes of transcript queued to workers ahead of the writer: enough to keep them busy
#: while a group commits, small enough to bound what waits in memory.
READ_AHEAD_BYTES = 48 << 20
PR_SET_PDEATHSIG = 1
PARENT_POLL_S = 0.5


@dataclass(slots=True)
class FeedItem:
    """One prepared batch of the `index`-th job, or the reason that file could not be read."""

    index: int
    batch: PreparedBatch | None = None
    error: str | None = None
    notice: str | None = None  # about the harvest itself, e.g. workers lost


WORKERS_LOST = "a harvest worker process died; the rest of this harvest was read in-process"


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS
        return os.cpu_count() or 1


def worker_count(
    configured: int, pending_bytes: int, threshold_bytes: int, cpus: int | None = None
) -> int:
    """How many worker processes to parse with; 0 means in-process.

    `configured` 0 is auto: a worker per CPU beyond the writer's own, at most
    AUTO_MAX_WORKERS, and none on one or two CPUs. Measured on a 2-vCPU machine
    (bench/harvest.py), workers competing with the writer for the same two cores
    were no faster than parsing in-process, so there the writer parses itself.
    """
    if pending_bytes < threshold_bytes:
        return 0
    if configured > 0:
        return configured
    cpus = usable_cpus() if cpus is None else cpus
    return min(cpus - 1, AUTO_MAX_WORKERS) if cpus >= 3 else 0


StartFn = Callable[[int], None]


def feed(
    jobs: list[ReadJob],
    harvesters: dict[str, Any],
    workers: int,
    on_start: StartFn | None = None,
) -> Iterator[FeedItem]:
    """Prepared batches of every job, in job order; `on_start(i)` before job i's first.

    `harvesters` maps each job's source to its harvester (used in-process only:
    workers build their own from the job).
    """
    started = on_start or (lambda index: None)
    if workers <= 0 or len(jobs) == 0:
        yield from _feed_inline(jobs, harvesters, started)
    else:
        yield from _feed_parallel(jobs, harvesters, workers, started)


def _feed_inline(
    jobs: list[ReadJob], harvesters: dict[str, Any], started: StartFn, offset: int = 0
) -> Iterator[FeedItem]:
    redactors: dict[bytes, BatchRedactor] = {}
    for index, job in enumerate(jobs, start=offset):
        started(index)
        redactor = None
        if job.salt is not None:
            redactor = redactors.setdefault(job.salt, BatchRedactor(job.salt))
        try:
            for batch in prepared_batches(harvesters[job.source], job, redactor):
                yield FeedItem(index, batch)
        except OSError as exc:
            yield FeedItem(index, error=f"cannot read {job.file.path}: {exc.strerror or exc}")


def _chunk_of(job: ReadJob) -> int:
    return min(job.new_bytes, WORKER_CHUNK_BYTES) if job.new_bytes else WORKER_CHUNK_BYTES


def _init_worker(parent_pid: int) -> None:
    """Ctrl-C is the harvesting process's to handle, and a worker never outlives it.

    A harvest killed with SIGKILL cannot shut its pool down, so each worker watches
    its parent itself: at once on Linux (the kernel's parent-death signal), and by
    polling everywhere else.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    if os.getppid() != parent_pid:
        os._exit(0)
    watcher = threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True)
    watcher.start()


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - no prctl: the poll covers it
        pass


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_S)
    os._exit(0)


def _feed_parallel(
    jobs: list[ReadJob], harvesters: dict[str, Any], workers: int, started: StartFn
) -> Iterator[FeedItem]:
    """Workers read ahead (a few files each) while the caller stores, in job order.

    If the pool breaks (a worker killed, say by the out-of-memory killer), the rest is
    read in-process from where the stored batches end: slower, never wrong.
    """
    try:
        # spawn, not fork: the daemon harvests from a scheduler thread, and forking a
        # threaded process can copy a held lock into the child.
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker,
            initargs=(os.getpid(),),
        )
    except OSError as exc:
        yield FeedItem(0, notice=f"could not start worker processes ({exc}); reading in-process")
        yield from _feed_inline(jobs, harvesters, started)
        return
    in_flight = 0  # bytes of the queued jobs: workers stay busy while a group is written
    queued: deque[tuple[int, ReadJob, Future[ReadResult]]] = deque()
    next_job = 0
    last_started = -1

    def submit(job: ReadJob) -> Future[ReadResult]:
        # A broken pool refuses new work; the refusal surfaces, in job order, below.
        try:
            return pool.submit(read_in_worker, job)
        except BrokenProcessPool as exc:
            refused: Future[ReadResult] = Future()
            refused.set_exception(exc)
            return refused

    def top_up() -> None:
        nonlocal next_job, in_flight
        while next_job < len(jobs) and (len(queued) < 2 * workers or in_flight < READ_AHEAD_BYTES):
            job = replace(jobs[next_job], max_bytes=WORKER_CHUNK_BYTES)
            queued.append((next_job, job, submit(job)))
            in_flight += _chunk_of(job)
            next_job += 1

    try:
        top_up()
        while queued:
            index, job, future = queued.popleft()
            in_flight -= _chunk_of(job)
            try:
                result = future.result()
            except BrokenProcessPool:
                rest = [replace(job, max_bytes=0), *jobs[index + 1 :]]
                yield FeedItem(index, notice=WORKERS_LOST)
                yield from _feed_inline(rest, harvesters, started, offset=index)
                return
            if result.more and result.batches:
                # The rest of this file goes first, so batches stay in file order.
                read = sum(batch.bytes_read for batch in result.batches)
                more = replace(
                    job, cursor=result.batches[-1].cursor, new_bytes=max(0, job.new_bytes - read)
                )
                queued.appendleft((index, more, submit(more)))
                in_flight += _chunk_of(more)
            top_up()
            if index != last_started:
                started(index)
                last_started = index
            for batch in result.batches:
                yield FeedItem(index, batch)
            if result.error is not None:
                yield FeedItem(index, error=result.error)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
