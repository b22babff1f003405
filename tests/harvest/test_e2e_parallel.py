"""A harvest parsed by worker processes stores exactly what an in-process one stores."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from pathlib import Path
from typing import Any

import psutil
import pytest
from e2e_support import canonical_dump, integrity, lay_out_copies

import sleepd.harvest_feed as harvest_feed
from sleepd.harvest import harvest
from sleepd.harvest_feed import worker_count
from sleepd.store.engine import make_engine
from sleepd.store.migrate import upgrade


@pytest.fixture
def two_copies(isolated_home: Path) -> Path:
    lay_out_copies(isolated_home, 2)
    return isolated_home


def inline_dump(home: Path, cfg: Any) -> dict[str, Any]:
    """The same tree harvested in-process into a second database of the same home."""
    clean = home / "inline.db"
    engine = make_engine(f"sqlite:///{clean}")
    upgrade(engine)
    cfg.harvest.parallel_min_mb = 10**6
    report = harvest(engine, cfg)
    engine.dispose()
    assert all(r.workers == 0 for r in report.sources.values())
    return canonical_dump(clean)


@pytest.fixture(params=["fork", "spawn"])
def two_workers(cfg: Any, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Any:
    """Two workers whatever the size, in small chunks: every file larger than 32 KiB is
    read in several pieces, each resumed from the cursor the previous piece ended on.
    Both ways of starting them: forked (a single-threaded caller on Linux) and spawned."""
    if request.param not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {request.param} on this platform")
    monkeypatch.setattr(harvest_feed, "start_method", lambda: request.param)
    monkeypatch.setattr(harvest_feed, "WORKER_CHUNK_BYTES", 32 * 1024)
    cfg.harvest.parallel_min_mb = 0
    cfg.harvest.workers = 2
    return cfg


def test_workers_store_what_an_in_process_harvest_stores(
    two_copies: Path, two_workers: Any, store: Any, db_file: Path
) -> None:
    cfg = two_workers
    report = harvest(store, cfg, parallel=True)
    assert [r.workers for r in report.sources.values()] == [2, 2]
    assert {r.worker_start for r in report.sources.values()} == {harvest_feed.start_method()}
    assert report.notices == []
    assert report.totals()["errors"] == 0
    assert integrity(db_file) == "ok"
    parallel = canonical_dump(db_file)
    assert len(parallel["events"]) > 2000
    assert parallel == inline_dump(two_copies, cfg)


def test_a_killed_worker_costs_speed_not_data(
    two_copies: Path, two_workers: Any, store: Any, db_file: Path
) -> None:
    cfg = two_workers
    killed: list[int] = []

    def kill_a_worker(source: str, done: int, total: int) -> None:
        if killed or done < 3:
            return
        workers = [
            child
            for child in psutil.Process(os.getpid()).children()
            if "resource_tracker" not in " ".join(child.cmdline())
        ]
        if workers:
            os.kill(workers[0].pid, signal.SIGKILL)
            killed.append(workers[0].pid)

    report = harvest(store, cfg, progress=kill_a_worker, parallel=True)
    assert killed, "no worker process was found to kill"
    assert report.notices == [harvest_feed.WORKERS_LOST]
    assert integrity(db_file) == "ok"
    assert canonical_dump(db_file) == inline_dump(two_copies, cfg)


def test_workers_that_cannot_start_cost_speed_not_data(
    two_copies: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fork() refused (a process limit, no memory): the harvest reads in-process."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    cfg.harvest.parallel_min_mb, cfg.harvest.workers = 0, 2
    monkeypatch.setattr(harvest_feed, "start_method", lambda: "fork")

    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    with monkeypatch.context() as patched:
        patched.setattr(os, "fork", refuse)
        report = harvest(store, cfg, parallel=True)
    assert report.notices == [
        "could not start worker processes ([Errno 11] Resource temporarily unavailable); "
        "reading in-process"
    ]
    assert report.totals()["errors"] == 0
    assert integrity(db_file) == "ok"
    assert canonical_dump(db_file) == inline_dump(two_copies, cfg)


def test_workers_yield_the_cpu_to_the_writer(
    two_copies: Path, two_workers: Any, store: Any
) -> None:
    """The writer is the critical path: workers run at a lower priority."""
    niceness: dict[int, int] = {}  # the last one seen of each worker

    def look(source: str, done: int, total: int) -> None:
        for child in psutil.Process(os.getpid()).children():
            with contextlib.suppress(psutil.NoSuchProcess):
                if "resource_tracker" not in " ".join(child.cmdline()):
                    niceness[child.pid] = child.nice()

    harvest(store, two_workers, progress=look, parallel=True)
    expected = min(os.getpriority(os.PRIO_PROCESS, 0) + harvest_feed.WORKER_NICENESS, 19)
    # A spawned worker runs at the writer's priority while its interpreter starts,
    # until the pool's initializer lowers it: only its last figure is judged.
    assert niceness and set(niceness.values()) == {expected}


def test_a_library_caller_gets_workers_only_when_it_asks(
    two_copies: Path, two_workers: Any, store: Any
) -> None:
    """Spawned workers re-import the caller's main module: never unasked."""
    report = harvest(store, two_workers)
    assert [r.workers for r in report.sources.values()] == [0, 0]
    assert report.totals()["events_new"] > 2000


def test_workers_start_only_for_big_harvests() -> None:
    mb = 1_000_000
    assert worker_count(0, 5 * mb, 16 * mb) == 0  # the daemon's usual few appended lines
    assert worker_count(3, 20 * mb, 16 * mb) == 3
    assert worker_count(1, 0, 0) == 1
    # Auto: a worker per CPU (the writer parses too when it would wait), none on one CPU.
    assert [worker_count(0, 20 * mb, 16 * mb, cpus=n) for n in (1, 2, 3, 8, 64)] == [0, 2, 3, 4, 4]


def test_workers_are_forked_only_from_a_single_threaded_caller_on_linux(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(harvest_feed.sys, "platform", "linux")
    monkeypatch.setattr(harvest_feed.threading, "active_count", lambda: 1)
    expected = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    assert harvest_feed.start_method() == expected
    monkeypatch.setattr(harvest_feed.sys, "platform", "darwin")
    assert harvest_feed.start_method() == "spawn"


def test_a_caller_with_other_threads_spawns_its_workers() -> None:
    """The daemon harvests beside its scheduler and watcher threads."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert harvest_feed.start_method() == "spawn"
    finally:
        stop.set()
        other.join()


def _job(name: str, new_bytes: int) -> Any:
    from harvesters.records import SourceFile
    from sleepd.harvest_prepare import ReadJob, ReadLimits

    return ReadJob(
        "claude", (), SourceFile(name, "claude"), None, ReadLimits(10, 10), None, 0, new_bytes
    )


def test_small_files_travel_to_a_worker_together() -> None:
    """A call to a worker costs about as much as parsing 40 KB: small files are bundled,
    up to BUNDLE_BYTES or BUNDLE_JOBS, and read to their end; a big file goes alone."""
    mb = 1 << 20
    jobs = [_job("a", mb // 2), _job("b", mb // 2), _job("c", mb), _job("d", 3 * mb)]
    first = harvest_feed.next_bundle(jobs, 0)
    assert [j.file.path for j in first] == ["a", "b", "c"]
    assert {j.max_bytes for j in first} == {0}
    alone = harvest_feed.next_bundle(jobs, 3)
    assert [(j.file.path, j.max_bytes) for j in alone] == [("d", harvest_feed.WORKER_CHUNK_BYTES)]
    many = [_job(str(n), 10) for n in range(harvest_feed.BUNDLE_JOBS + 5)]
    assert len(harvest_feed.next_bundle(many, 0)) == harvest_feed.BUNDLE_JOBS
    # A file of unknown size (nothing planned) is not bundled.
    assert len(harvest_feed.next_bundle([_job("z", 0), _job("y", 10)], 0)) == 1


def test_a_parallel_harvest_checkpoints_from_a_thread_and_leaves_the_wal_copied(
    two_copies: Path, two_workers: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleepd.store.checkpointer import WalCheckpointer

    made: list[WalCheckpointer] = []
    real = WalCheckpointer.for_engine

    def recorded(engine: Any) -> WalCheckpointer | None:
        checkpointer = real(engine)
        assert checkpointer is not None
        made.append(checkpointer)
        return checkpointer

    monkeypatch.setattr(WalCheckpointer, "for_engine", staticmethod(recorded))
    report = harvest(store, two_workers, parallel=True)
    assert report.notices == []
    [checkpointer] = made
    assert checkpointer.passes > 0 and not checkpointer.running and checkpointer.error is None
    assert not [t for t in threading.enumerate() if t.name == "sleepd-wal-checkpoint"]
    # The thread's last pass copied the WAL into the database file (a read copies nothing),
    # and the pool's connections checkpoint again.
    with store.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
        page_size = conn.exec_driver_sql("PRAGMA page_size").scalar()
    assert db_file.stat().st_size >= pages * page_size
    assert integrity(db_file) == "ok"
    assert canonical_dump(db_file) == inline_dump(two_copies, two_workers)


def test_an_in_process_harvest_starts_no_checkpoint_thread(
    two_copies: Path, cfg: Any, store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleepd.store.checkpointer import WalCheckpointer

    monkeypatch.setattr(WalCheckpointer, "start", lambda self: pytest.fail("started"))
    cfg.harvest.parallel_min_mb = 10**6
    report = harvest(store, cfg, parallel=True)
    assert [r.workers for r in report.sources.values()] == [0, 0]


def test_a_parallel_harvest_keeps_its_wal_bounded(
    two_copies: Path, two_workers: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past WAL_LIMIT_FRAMES a new group waits for the thread to copy everything, so the
    WAL starts over instead of growing to the size of the whole harvest."""
    import sleepd.harvest_writer as harvest_writer
    from sleepd.store.checkpointer import WalCheckpointer

    monkeypatch.setattr(harvest_writer, "GROUP_EVENTS", 300)
    # Every group is past the limit (the thread's frame count lags a fast harvest's commits).
    monkeypatch.setattr(harvest_writer, "WAL_LIMIT_FRAMES", -1)
    made: list[WalCheckpointer] = []
    real = WalCheckpointer.for_engine
    settled: list[bool] = []

    def recorded(engine: Any) -> WalCheckpointer | None:
        checkpointer = real(engine)
        assert checkpointer is not None
        settle = checkpointer.settle
        monkeypatch.setattr(checkpointer, "settle", lambda: settled.append(settle()) or True)
        made.append(checkpointer)
        return checkpointer

    monkeypatch.setattr(WalCheckpointer, "for_engine", staticmethod(recorded))
    harvest(store, two_workers, parallel=True)
    with store.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
    assert settled and all(settled)
    assert made[0].wal_frames < pages  # the WAL started over at least once
    assert canonical_dump(db_file) == inline_dump(two_copies, two_workers)
