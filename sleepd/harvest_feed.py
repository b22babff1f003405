"""Hand the writer prepared batches in file order, from worker processes when the work is big.

SQLite has one writer, so the harvesting process stores and indexes while workers parse
and redact. Threads do not help here (measured: the parse holds the GIL), processes do.
Small harvests — the daemon's usual few appended lines — stay in-process: starting a
worker costs more than the work. Order is kept exactly as a serial harvest would write
it, so a parallel harvest stores the same database as a serial one.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
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

from sleepd.gc_pacing import pace_for_harvest
from sleepd.harvest_prepare import (
    PreparedBatch,
    ReadJob,
    ReadResult,
    compile_redactor,
    prepared_batches,
    read_bundle,
    read_error,
    read_in_worker,
)

AUTO_MAX_WORKERS = 4
#: Bytes of one file a worker reads before handing its batches back.
WORKER_CHUNK_BYTES = 8 << 20
#: Bytes of transcript queued to workers ahead of the writer: enough to keep them busy
#: while a group commits, small enough to bound what waits in memory.
READ_AHEAD_BYTES = 48 << 20
#: Small files are handed to a worker together, up to this many bytes or files a call.
BUNDLE_BYTES = 2 << 20
BUNDLE_JOBS = 64
#: How much lower than the writer's the workers' scheduling priority is.
WORKER_NICENESS = 10
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

    `configured` 0 is auto: one worker per CPU, at most AUTO_MAX_WORKERS, none on a
    single CPU. The writer parses too whenever it would otherwise wait (it steals
    jobs no worker has started), so it needs no CPU of its own.
    """
    if pending_bytes < threshold_bytes:
        return 0
    if configured > 0:
        return configured
    cpus = usable_cpus() if cpus is None else cpus
    return min(cpus, AUTO_MAX_WORKERS) if cpus >= 2 else 0


StartFn = Callable[[int], None]


def feed(
    jobs: list[ReadJob],
    harvesters: dict[str, Any],
    workers: int,
    on_start: StartFn | None = None,
    method: str | None = None,
) -> Iterator[FeedItem]:
    """Prepared batches of every job, in job order; `on_start(i)` before job i's first.

    `harvesters` maps each job's source to its harvester (used in-process only:
    workers build their own from the job). `method` starts the workers (default:
    `start_method()`).
    """
    started = on_start or (lambda index: None)
    if workers <= 0 or len(jobs) == 0:
        yield from _feed_inline(jobs, harvesters, started)
    else:
        yield from _feed_parallel(jobs, harvesters, workers, started, method or start_method())


def _feed_inline(
    jobs: list[ReadJob], harvesters: dict[str, Any], started: StartFn, offset: int = 0
) -> Iterator[FeedItem]:
    for index, job in enumerate(jobs, start=offset):
        started(index)
        try:
            for batch in prepared_batches(harvesters[job.source], job):
                yield FeedItem(index, batch)
        except Exception as exc:  # one bad file never stops the rest
            yield FeedItem(index, error=read_error(job, exc))


@dataclass(slots=True)
class _Slot:
    """One queued call: jobs `index`, `index + 1`, … (a bundle of small files, or one
    file or part of one), submitted to the pool, or read here (`results`) if stolen."""

    index: int
    jobs: list[ReadJob]
    future: Future[list[ReadResult]]
    size: int  # bytes counted in flight
    results: list[ReadResult] | None = None


def _rest_of(job: ReadJob, result: ReadResult) -> ReadJob:
    """The job that reads on from where `result`, of `job`, stopped."""
    read = sum(batch.bytes_read for batch in result.batches)
    return replace(job, cursor=result.batches[-1].cursor, new_bytes=max(0, job.new_bytes - read))


def _chunk_of(job: ReadJob) -> int:
    return min(job.new_bytes, WORKER_CHUNK_BYTES) if job.new_bytes else WORKER_CHUNK_BYTES


def next_bundle(jobs: list[ReadJob], start: int) -> list[ReadJob]:
    """The jobs of the next call to a worker, from `jobs[start]` on.

    A big file is one call, read `WORKER_CHUNK_BYTES` at a time. Small files (most
    transcripts) go together up to `BUNDLE_BYTES`: a call costs about 0.6 ms of CPU,
    so one per small file cost a harvest of the bench tree (451 files) 0.3 s. A
    bundled file is read to its end, even if it has grown since it was planned.
    """
    first = jobs[start]
    if not 0 < first.new_bytes < BUNDLE_BYTES:
        return [replace(first, max_bytes=WORKER_CHUNK_BYTES)]
    bundle = [replace(first, max_bytes=0)]
    size = first.new_bytes
    for job in jobs[start + 1 : start + BUNDLE_JOBS]:
        if not 0 < job.new_bytes < BUNDLE_BYTES or size + job.new_bytes > BUNDLE_BYTES:
            break
        bundle.append(replace(job, max_bytes=0))
        size += job.new_bytes
    return bundle


class _NotStarted(BrokenProcessPool):
    """The pool could not start its worker processes."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(f"could not start worker processes ({cause}); reading in-process")


def start_method() -> str:
    """`fork` on Linux when the caller runs a single thread, `spawn` otherwise.

    A forked worker starts in milliseconds with the caller's imports and compiled
    redaction rules; a spawned one pays about 0.3 s of CPU for them, which on a
    two-core machine is CPU taken from the harvest itself. Forking a process with
    other threads can copy a lock another thread holds into the child, so the
    daemon (scheduler and watcher threads) spawns, and so does macOS, where forking
    is unsafe for system libraries.
    """
    if (
        sys.platform.startswith("linux")
        and threading.active_count() == 1
        and "fork" in multiprocessing.get_all_start_methods()
    ):
        return "fork"
    return "spawn"


def _init_worker(parent_pid: int) -> None:
    """Ctrl-C is the harvesting process's to handle, and a worker never outlives it.

    A harvest killed with SIGKILL cannot shut its pool down, so each worker watches
    its parent itself: at once on Linux (the kernel's parent-death signal), and by
    polling everywhere else.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    pace_for_harvest()
    _yield_to_the_writer()
    _die_with_parent()
    if os.getppid() != parent_pid:
        os._exit(0)
    watcher = threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True)
    watcher.start()


def _yield_to_the_writer() -> None:
    """Workers run at a lower priority than the process that stores their batches.

    The writer (SQLite, one at a time) is the harvest's critical path; with as many
    workers as CPUs it would otherwise wait in the run queue behind a worker that is
    already ahead of it (measured on 2 CPUs: 0.35 s of waiting per 100 MB, 0.18 s
    with this). A worker is only ever ahead by the read-ahead, so it loses nothing.
    """
    with contextlib.suppress(AttributeError, OSError):  # no nice() here: run as is
        os.nice(WORKER_NICENESS)


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
    jobs: list[ReadJob], harvesters: dict[str, Any], workers: int, started: StartFn, method: str
) -> Iterator[FeedItem]:
    """Workers read ahead (a few files each) while the caller stores, in job order.

    When the next file's batches are not ready, the caller reads a later file itself
    instead of waiting (`steal`). If the pool breaks (a worker killed, say by the
    out-of-memory killer), the rest is read in-process from where the stored batches
    end: slower, never wrong.
    """
    if method == "fork":
        # Compiled once here, inherited by every worker instead of compiled in each.
        for salt in {job.salt for job in jobs}:
            compile_redactor(salt)
    try:
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context(method),
            initializer=_init_worker,
            initargs=(os.getpid(),),
        )
    except OSError as exc:
        yield FeedItem(0, notice=str(_NotStarted(exc)))
        yield from _feed_inline(jobs, harvesters, started)
        return
    in_flight = 0  # bytes of the queued jobs: workers stay busy while a group is written
    queued: deque[_Slot] = deque()
    next_job = 0
    last_started = -1

    def submit(bundle: list[ReadJob]) -> Future[list[ReadResult]]:
        # A broken pool refuses new work, and the pool starts its processes on the first
        # submit (where fork can fail: process limit, memory); either refusal surfaces,
        # in job order, below.
        refused: Future[list[ReadResult]] = Future()
        try:
            return pool.submit(read_bundle, bundle)
        except BrokenProcessPool as exc:
            refused.set_exception(exc)
        except OSError as exc:
            refused.set_exception(_NotStarted(exc))
        return refused

    def queue(index: int, bundle: list[ReadJob], *, first: bool = False) -> None:
        nonlocal in_flight
        size = sum(map(_chunk_of, bundle))
        slot = _Slot(index, bundle, submit(bundle), size)
        if first:
            queued.appendleft(slot)
        else:
            queued.append(slot)
        in_flight += size

    def top_up() -> None:
        nonlocal next_job
        while next_job < len(jobs) and (len(queued) < 2 * workers or in_flight < READ_AHEAD_BYTES):
            bundle = next_bundle(jobs, next_job)
            queue(next_job, bundle)
            next_job += len(bundle)

    def steal() -> bool:
        """Read the next job not yet handed to the workers, here, rather than wait idle
        for the head.

        At most one stolen result waits at a time: the writer fills its idle moments,
        it does not race the workers for the whole read-ahead. Only jobs never
        submitted are taken: cancelling a submitted one leaves a cancelled future that,
        should the pool break later, kills the pool's manager thread (Python 3.11).
        """
        nonlocal next_job, in_flight
        if next_job >= len(jobs) or any(slot.results is not None for slot in queued):
            return False
        job = replace(jobs[next_job], max_bytes=WORKER_CHUNK_BYTES)
        result = read_in_worker(job)
        taken: Future[list[ReadResult]] = Future()
        taken.set_result([result])
        queued.append(_Slot(next_job, [job], taken, _chunk_of(job), [result]))
        in_flight += _chunk_of(job)
        next_job += 1
        if result.more and result.batches:
            queue(next_job - 1, [_rest_of(job, result)])
        return True

    try:
        top_up()
        while queued:
            slot = queued[0]
            if slot.results is None and not slot.future.done() and steal():
                continue
            queued.popleft()
            in_flight -= slot.size
            try:
                results = slot.results if slot.results is not None else slot.future.result()
            except (BrokenProcessPool, OSError, pickle.UnpicklingError, EOFError) as exc:
                _stop_workers(pool)
                rest = [replace(job, max_bytes=0) for job in slot.jobs]
                rest += jobs[slot.index + len(slot.jobs) :]
                yield FeedItem(slot.index, notice=_lost_notice(exc))
                yield from _feed_inline(rest, harvesters, started, offset=slot.index)
                return
            last = results[-1]
            if last.more and last.batches and slot.results is None:
                # The rest of this file goes first, so batches stay in file order (only
                # a call of one job stops early: bundled files are read to their end).
                queue(slot.index + len(results) - 1, [_rest_of(slot.jobs[-1], last)], first=True)
            top_up()
            for offset, result in enumerate(results):
                index = slot.index + offset
                if index != last_started:
                    started(index)
                    last_started = index
                for batch in result.batches:
                    yield FeedItem(index, batch)
                if result.error is not None:
                    yield FeedItem(index, error=result.error)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _stop_workers(pool)  # after a clean shutdown, none is left


def _lost_notice(exc: BaseException) -> str:
    if isinstance(exc, _NotStarted):
        return str(exc)
    if isinstance(exc, BrokenProcessPool):
        return WORKERS_LOST
    return (
        f"a worker's result could not be read back ({exc}); "
        "the rest of this harvest was read in-process"
    )


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the workers of a broken pool that are still alive.

    The pool kills them itself when it breaks, unless its manager thread dies first
    (on Python 3.11 it can, over a cancelled future still listed as pending); the
    survivors would then wait for work forever, and the interpreter for them at exit.
    """
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            if process.is_alive():
                process.kill()
