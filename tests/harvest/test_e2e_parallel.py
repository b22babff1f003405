"""A harvest parsed by worker processes stores exactly what an in-process one stores."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import psutil
import pytest
from e2e_support import canonical_dump, integrity, lay_out_copies

import sleepd.harvest.read as harvest_read
from sleepd.harvest import harvest
from sleepd.harvest.run import worker_count
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
    report = harvest(engine, cfg)
    engine.dispose()
    assert all(r.workers == 0 for r in report.sources.values())
    return canonical_dump(clean)


def worker_processes() -> list[psutil.Process]:
    return [
        child
        for child in psutil.Process(os.getpid()).children()
        if "resource_tracker" not in " ".join(child.cmdline())
    ]


@pytest.fixture
def many_calls(cfg: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Workers whatever the size, one file a call, little read-ahead, and the larger
    files streamed by the harvesting process itself: every path of the feed is taken."""
    monkeypatch.setattr(harvest_read, "BUNDLE_FILES", 1)
    monkeypatch.setattr(harvest_read, "READ_AHEAD_BYTES", 1)
    monkeypatch.setattr(harvest_read, "WORKER_FILE_MAX_BYTES", 256 * 1024)
    cfg.harvest.parallel_min_mb = 0
    return cfg


def test_workers_store_what_an_in_process_harvest_stores(
    two_copies: Path, many_calls: Any, store: Any, db_file: Path
) -> None:
    cfg = many_calls
    report = harvest(store, cfg, jobs=2)
    assert [r.workers for r in report.sources.values()] == [2, 2]
    assert {r.worker_start for r in report.sources.values()} == {"spawn"}
    assert report.notices == []
    assert report.totals()["errors"] == 0
    assert integrity(db_file) == "ok"
    parallel = canonical_dump(db_file)
    assert len(parallel["events"]) > 2000
    assert parallel == inline_dump(two_copies, cfg)
    assert worker_processes() == []  # the pool is gone with the harvest


def test_a_killed_worker_costs_speed_not_data(
    two_copies: Path, many_calls: Any, store: Any, db_file: Path
) -> None:
    """Every worker is killed as the first file's batches arrive. With a read-ahead of
    one call, files remain that no worker has finished, so the loss is certain (not a
    race on when the pool notices): the rest is read in-process, nothing is lost."""
    killed: list[int] = []

    def kill_the_workers(source: str, done: int, total: int) -> None:
        if killed:
            return
        for worker in worker_processes():
            os.kill(worker.pid, signal.SIGKILL)
            killed.append(worker.pid)

    report = harvest(store, many_calls, progress=kill_the_workers, jobs=2)
    assert killed, "no worker process was found to kill"
    assert report.notices == [harvest_read.WORKERS_LOST]
    assert report.totals()["errors"] == 0
    assert integrity(db_file) == "ok"
    assert canonical_dump(db_file) == inline_dump(two_copies, many_calls)


def test_workers_that_cannot_start_cost_speed_not_data(
    two_copies: Path, many_calls: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Processes refused (a process limit, no memory): the harvest reads in-process."""
    import multiprocessing.context

    def refuse(self: Any, process_obj: Any) -> Any:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "_Popen", refuse)
    report = harvest(store, many_calls, jobs=2)
    assert report.notices == [
        "could not start worker processes ([Errno 11] Resource temporarily unavailable); "
        "reading in-process"
    ]
    assert report.totals()["errors"] == 0
    assert integrity(db_file) == "ok"
    assert canonical_dump(db_file) == inline_dump(two_copies, many_calls)


def test_a_library_caller_gets_workers_only_when_it_asks(
    two_copies: Path, many_calls: Any, store: Any
) -> None:
    """Spawned workers re-import the caller's main module: never unasked."""
    report = harvest(store, many_calls)
    assert [r.workers for r in report.sources.values()] == [0, 0]
    assert report.totals()["events_new"] > 2000


def test_workers_start_only_for_big_harvests_and_when_asked() -> None:
    mb = 1_000_000
    assert worker_count(2, 5 * mb, 16 * mb) == 0  # the daemon's usual few appended lines
    assert worker_count(2, 50 * mb, 16 * mb) == 2
    assert worker_count(1, 500 * mb, 16 * mb) == 0  # serial unless asked
    assert worker_count(0, 50 * mb, 16 * mb, cpus=8) == 4  # auto: one per CPU, capped
    assert worker_count(0, 50 * mb, 16 * mb, cpus=1) == 0


def test_small_files_travel_to_a_worker_together() -> None:
    from harvesters.records import SourceFile
    from sleepd.harvest.read import BUNDLE_BYTES, BUNDLE_FILES, ReadJob, ReadLimits, bundles

    def job(size: int) -> ReadJob:
        return ReadJob(
            "claude", (), SourceFile("p", "claude"), None, ReadLimits(10, 10), None, size
        )

    small, big = BUNDLE_BYTES // 10, BUNDLE_BYTES * 4
    assert bundles([job(small)] * 3 + [job(big)] + [job(small)]) == [(0, 3), (3, 1), (4, 1)]
    assert bundles([job(10)] * (BUNDLE_FILES + 1)) == [(0, BUNDLE_FILES), (BUNDLE_FILES, 1)]
