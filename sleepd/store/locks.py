"""Single-writer locks that reach as far as the database does.

A SQLite database lives on one machine, so a file lock in `SLEEPD_HOME` keeps one
harvest (or one night of a project) at a time. A PostgreSQL database is shared by many
machines, and a file lock on one of them guards nothing on another: there the lock is
a PostgreSQL advisory lock, held by a connection kept open for the purpose. The server
drops it when that connection ends, so a killed process never leaves a stale lock.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sleepd import paths

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def lock_key(name: str) -> int:
    """The 64-bit advisory-lock key of `name` (stable across machines and versions)."""
    return int.from_bytes(hashlib.sha256(f"sleepd:{name}".encode()).digest()[:8], signed=True)


@contextmanager
def hold(engine: Engine | None, name: str, file_name: str, wait_s: float) -> Iterator[bool]:
    """Hold the lock `name` for the block, waiting up to `wait_s`; yields whether it was
    taken (the block runs either way, so the caller says why it gives up).

    `file_name` is the lock file in `SLEEPD_HOME` a SQLite store uses; `engine` None
    means a SQLite file written through the stdlib driver.
    """
    if engine is not None and engine.dialect.name == "postgresql":
        with _advisory(engine, lock_key(name), wait_s) as taken:
            yield taken
        return
    with _file_lock(paths.home_dir(create=True) / file_name, wait_s) as taken:
        yield taken


#: How often a wait for a file lock held elsewhere tries again (seconds).
_FILE_LOCK_POLL_S = 0.05


@contextmanager
def _file_lock(path: Path, wait_s: float) -> Iterator[bool]:
    """`flock` on `path` for the block, trying until `wait_s` has passed; yields whether
    it was taken. The kernel drops the lock with the process, so a killed harvest never
    leaves a stale one; the file itself stays (removing it would race a waiter)."""
    import fcntl
    import os
    import time

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + max(0.0, wait_s)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(_FILE_LOCK_POLL_S)
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextmanager
def _advisory(engine: Engine, key: int, wait_s: float) -> Iterator[bool]:
    from sqlalchemy.exc import OperationalError

    conn = engine.connect()
    try:
        params = {"k": key}
        if wait_s <= 0:
            try_sql = "SELECT pg_try_advisory_lock(%(k)s)"
            taken = bool(conn.exec_driver_sql(try_sql, params).scalar())
        else:
            # The server waits (no polling): lock_timeout bounds the wait for this statement.
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = {max(1, int(wait_s * 1000))}")
            try:
                conn.exec_driver_sql("SELECT pg_advisory_lock(%(k)s)", params)
                taken = True
            except OperationalError as exc:  # 55P03 lock_not_available: the wait ran out
                if getattr(exc.orig, "sqlstate", None) != "55P03":
                    raise
                taken = False
                conn.rollback()
        conn.commit()  # a session lock outlives the transaction; no transaction idles
        if not taken:
            yield False
            return
        try:
            yield True
        finally:
            conn.exec_driver_sql("SELECT pg_advisory_unlock(%(k)s)", params)
            conn.commit()
    finally:
        conn.close()


def project_night(engine: Engine, project: str) -> AbstractContextManager[bool]:
    """The lock of one project's night: on one machine at a time (no wait: a night that
    finds it taken leaves the project to the night already at it)."""
    digest = hashlib.sha256(project.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return hold(engine, f"night:{project}", f"night-{digest}.lock", 0)


#: How long a pass waits for another machine's pass of the same kind (PostgreSQL).
TEAM_PASS_WAIT_S = 600


@contextmanager
def team_pass(engine: Engine, name: str, wait_s: float = TEAM_PASS_WAIT_S) -> Iterator[bool]:
    """One pass of `name` at a time across the machines sharing a PostgreSQL database
    (an advisory lock); on SQLite nothing to do (one machine, one writer at a time)."""
    if engine.dialect.name != "postgresql":
        yield True
        return
    with _advisory(engine, lock_key(name), wait_s) as taken:
        yield taken
