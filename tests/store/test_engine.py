"""The engine's pragmas, transaction modes and file permissions."""

from __future__ import annotations

import stat
import threading
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from sleepd.store.engine import make_engine, read_session, write_session
from sleepd.store.models import AuditEntry


def test_pragmas_on_every_new_connection(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    for _ in range(3):
        with engine.connect() as conn:
            conn.invalidate()  # force a brand-new DBAPI connection next time
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000


def test_database_file_is_private(tmp_path: Path) -> None:
    db_file = tmp_path / "home" / "sleepd.db"
    engine = make_engine(f"sqlite:///{db_file}")
    with engine.connect() as conn:
        conn.exec_driver_sql("CREATE TABLE t (x)")
    assert stat.S_IMODE(db_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(db_file.parent.stat().st_mode) == 0o700


def test_reader_sees_committed_data_while_writer_holds_a_transaction(db_engine) -> None:  # type: ignore[no-untyped-def]
    with write_session(db_engine) as db:
        db.add(AuditEntry(actor="test", action="first", object_type="x", detail={}))
    writer_inside = threading.Event()
    release = threading.Event()

    def writer() -> None:
        with write_session(db_engine) as db:
            db.add(AuditEntry(actor="test", action="second", object_type="x", detail={}))
            db.flush()
            writer_inside.set()
            release.wait(5)

    thread = threading.Thread(target=writer)
    thread.start()
    assert writer_inside.wait(5)
    with read_session(db_engine) as db:
        actions = set(db.scalars(select(AuditEntry.action)))
    release.set()
    thread.join()
    assert actions == {"first"}  # committed row visible, the open write is not
    with read_session(db_engine) as db:
        assert db.scalar(select(func.count(AuditEntry.id))) == 2


def test_writers_begin_immediate(db_engine) -> None:  # type: ignore[no-untyped-def]
    """A second writer waits (busy timeout) instead of failing on lock upgrade."""
    with db_engine.connect() as conn:
        conn.info["sleepd_begin"] = "IMMEDIATE"
        with conn.begin():
            # IMMEDIATE takes the RESERVED lock at BEGIN: another IMMEDIATE must be refused.
            other = make_engine(str(db_engine.url))
            raw = other.raw_connection()
            try:
                raw.driver_connection.execute("PRAGMA busy_timeout=50")  # type: ignore[union-attr]
                with pytest.raises(Exception, match="locked"):
                    raw.driver_connection.execute("BEGIN IMMEDIATE")  # type: ignore[union-attr]
            finally:
                raw.close()
                other.dispose()
            conn.execute(text("SELECT 1"))


def test_write_session_rolls_back_on_error(db_engine) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuntimeError), write_session(db_engine) as db:
        db.add(AuditEntry(actor="test", action="doomed", object_type="x", detail={}))
        db.flush()
        raise RuntimeError("boom")
    with read_session(db_engine) as db:
        assert db.scalar(select(func.count(AuditEntry.id))) == 0
