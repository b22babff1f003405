"""WAL checkpoints from a thread while a bulk writer's commits skip them."""

from __future__ import annotations

import time
from pathlib import Path

from sleepd.store.checkpointer import WalCheckpointer
from sleepd.store.dialect import defer_autocheckpoint
from sleepd.store.engine import make_engine, write_connection


def copied_pages(db_file: Path) -> int:
    """Pages in the database file itself: what checkpoints have copied out of the WAL."""
    return db_file.stat().st_size // 4096


def write_pages(engine, rows: int, defer: bool) -> None:  # type: ignore[no-untyped-def]
    with write_connection(engine) as conn:
        if defer:
            defer_autocheckpoint(conn)
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS t (x)")
        for _ in range(rows):
            conn.exec_driver_sql("INSERT INTO t VALUES (randomblob(4000))")


def test_deferred_commits_leave_the_frames_for_the_thread(tmp_path: Path) -> None:
    db_file = tmp_path / "w.db"
    engine = make_engine(f"sqlite:///{db_file}")
    write_pages(engine, 2000, defer=True)  # ~2000 pages, over the default 1000
    assert copied_pages(db_file) < 10  # the commit copied nothing
    checkpointer = WalCheckpointer(db_file, interval_s=0.01)
    checkpointer.start()
    deadline = time.monotonic() + 10
    while checkpointer.passes < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert checkpointer.running
    write_pages(engine, 50, defer=True)  # committed while it runs: the last pass takes it
    assert checkpointer.stop() is None
    assert not checkpointer.running
    assert copied_pages(db_file) >= 2050  # everything copied, by the thread
    engine.dispose()


def test_the_pool_gives_a_deferred_connection_back_with_checkpoints_on(tmp_path: Path) -> None:
    db_file = tmp_path / "p.db"
    engine = make_engine(f"sqlite:///{db_file}")
    write_pages(engine, 1500, defer=True)
    assert copied_pages(db_file) < 10
    with engine.connect() as conn:  # the pool has one connection: the same one
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    write_pages(engine, 10, defer=False)  # an ordinary commit checkpoints again
    assert copied_pages(db_file) >= 1500
    engine.dispose()


def test_a_checkpointer_that_cannot_work_says_why_and_raises_nothing(tmp_path: Path) -> None:
    not_a_database = tmp_path / "plain.txt"
    not_a_database.write_text("hello, this is not SQLite\n" * 200)
    checkpointer = WalCheckpointer(not_a_database, interval_s=0.01)
    checkpointer.start()
    deadline = time.monotonic() + 10
    while checkpointer.running and time.monotonic() < deadline:
        time.sleep(0.01)
    problem = checkpointer.stop()
    assert problem is not None and "WAL checkpoint failed" in problem
    assert WalCheckpointer(not_a_database).stop() is None  # never started: nothing to stop


def test_only_sqlite_files_get_one(tmp_path: Path) -> None:
    assert WalCheckpointer.for_engine(make_engine(f"sqlite:///{tmp_path / 'f.db'}")) is not None
    assert WalCheckpointer.for_engine(make_engine("sqlite://")) is None


def test_a_settled_wal_starts_over_at_the_next_write(tmp_path: Path) -> None:
    """Waiting for the thread to catch up bounds the WAL: SQLite writes it from its start
    again when a write transaction begins with every frame copied."""
    db_file = tmp_path / "s.db"
    engine = make_engine(f"sqlite:///{db_file}")
    write_pages(engine, 2000, defer=True)
    checkpointer = WalCheckpointer(db_file, interval_s=0.01)
    checkpointer.start()
    assert checkpointer.settle()
    assert checkpointer.wal_frames >= 2000
    write_pages(engine, 10, defer=True)
    assert checkpointer.settle()
    assert checkpointer.wal_frames < 100  # the 10 new pages, from the WAL's start
    assert checkpointer.stop() is None
    assert not checkpointer.settle(timeout=1)  # stopped: nothing to wait for
    engine.dispose()


def test_a_reader_that_blocks_the_copy_makes_commits_checkpoint_again(tmp_path: Path) -> None:
    import sqlite3

    db_file = tmp_path / "r.db"
    engine = make_engine(f"sqlite:///{db_file}")
    write_pages(engine, 10, defer=True)
    reader = sqlite3.connect(db_file, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM t").fetchone()  # holds the old snapshot
    write_pages(engine, 500, defer=True)
    checkpointer = WalCheckpointer(db_file, interval_s=0.01)
    checkpointer.start()
    assert not checkpointer.settle(timeout=0.3)
    assert not checkpointer.running  # group commits no longer leave checkpoints to it
    reader.execute("COMMIT")
    reader.close()
    assert checkpointer.stop() is None
    engine.dispose()
