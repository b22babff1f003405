"""Engine and session factories with SQLite tuned for a daemon plus CLI readers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from sleepd import paths
from sleepd.store.dialect import install_postgresql_hooks, install_sqlite_hooks
from sleepd.store.urls import driver_url, require_driver, sqlite_file_for


def ensure_sqlite_file(db_file: Path) -> None:
    """Create the database file 0600 before SQLite does (it would honour the umask).

    An existing file is never opened here: closing a descriptor of a file drops the
    process's locks on it, SQLite's included (see `integrity._read_header`)."""
    paths.ensure_private_dir(db_file.parent)
    try:
        fd = os.open(db_file, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
    except FileExistsError:
        pass
    else:
        os.close(fd)  # a file made just now: no connection can hold a lock on it
    for suffix in ("", "-wal", "-shm"):
        candidate = db_file.with_name(db_file.name + suffix)
        try:
            if candidate.stat().st_mode & 0o077:
                candidate.chmod(0o600)
        except FileNotFoundError:
            pass


def make_engine(
    url: str | None = None, *, create_file: bool = True, allow_damaged: bool = False
) -> Engine:
    """An engine on `url`; a SQLite file marked or found damaged is refused (see
    `store.integrity`) unless `allow_damaged` (only `sleepd db check` asks)."""
    url = url or paths.database_url()
    db_file = sqlite_file_for(url)
    if db_file is not None:
        from sleepd.store import integrity

        if allow_damaged:
            integrity.remember(db_file)
        else:
            integrity.check_openable(db_file)
        if create_file:
            ensure_sqlite_file(db_file)
        engine = create_engine(
            url,
            connect_args={"timeout": 30, "check_same_thread": False},
        )
        install_sqlite_hooks(engine)
        return engine
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        install_sqlite_hooks(engine)
        return engine
    require_driver(url)
    engine = create_engine(driver_url(url), pool_pre_ping=True)
    install_postgresql_hooks(engine)
    return engine


@contextmanager
def write_connection(engine: Engine) -> Iterator[Connection]:
    """One short write transaction on a Core connection, begun IMMEDIATE on SQLite."""
    with engine.connect() as conn:
        conn.info["sleepd_begin"] = "IMMEDIATE"
        try:
            with conn.begin():
                yield conn
        finally:
            conn.info.pop("sleepd_begin", None)


@contextmanager
def write_session(engine: Engine) -> Iterator[Session]:
    """`write_connection` with an ORM session on it; commits on success."""
    with (
        write_connection(engine) as conn,
        Session(
            bind=conn, expire_on_commit=False, join_transaction_mode="conditional_savepoint"
        ) as session,
    ):
        yield session
        session.flush()


@contextmanager
def read_session(engine: Engine) -> Iterator[Session]:
    """A read-only view: a deferred transaction, always rolled back."""
    with Session(bind=engine, expire_on_commit=False) as session:
        try:
            yield session
        finally:
            session.rollback()
