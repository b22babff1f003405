"""Write transactions for the store's own statements, on whichever database it is.

A harvest's statements (`sleepd.store.ingest`, `sleepd.store.job_runs`) are plain SQL
with `:name` parameters run through `WriteDb`. On a SQLite file that is the stdlib
driver, so the commands and the daemon harvest without importing SQLAlchemy or the
models (several hundred milliseconds for a harvest of a few KB); any other database
(PostgreSQL) goes through the store's SQLAlchemy engine. Values are given as Python's
(datetimes, dicts, booleans, None) and each side stores them as the models would:
on SQLite timestamps as naive UTC text with microseconds, JSON as `json.dumps` text.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sleepd.store.records import stored_timestamp
from sleepd.store.urls import sqlite_file_for

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

#: Set on every SQLite connection sleepd opens (the engine's hook sets the same).
SQLITE_PRAGMAS: tuple[tuple[str, str], ...] = (
    ("journal_mode", "WAL"),
    ("synchronous", "NORMAL"),
    ("foreign_keys", "ON"),
    ("busy_timeout", "30000"),
    ("temp_store", "MEMORY"),
)
#: SQLite's own page cache size (KiB, negative), restored after a bulk transaction.
DEFAULT_CACHE_SIZE = -2000
#: The FTS5 index over event text (made by the migrations).
FTS_TABLE = "events_fts"

Params = Mapping[str, Any]


def utcnow() -> datetime:
    return datetime.now(UTC)


def _sqlite_value(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value)
    if isinstance(value, datetime):
        return stored_timestamp(value)
    return value


def _sqlite_params(params: Params | None) -> dict[str, Any]:
    return {k: _sqlite_value(v) for k, v in (params or {}).items()}


class WriteDb:
    """One open write transaction: `rows`, `run` and `many` over `:name` SQL.

    `driver` is the stdlib connection on SQLite (the harvest's hot inserts use it
    directly), None elsewhere.
    """

    is_sqlite: bool
    driver: sqlite3.Connection | None

    def rows(self, sql: str, params: Params | None = None) -> list[Sequence[Any]]:
        raise NotImplementedError

    def run(self, sql: str, params: Params | None = None) -> int:
        """Run one statement; how many rows it changed."""
        raise NotImplementedError

    def many(self, sql: str, params: Sequence[Params]) -> None:
        raise NotImplementedError

    def scalar(self, sql: str, params: Params | None = None) -> Any:
        found = self.rows(sql, params)
        return found[0][0] if found else None


class SqliteWriteDb(WriteDb):
    """The stdlib driver on a SQLite file."""

    is_sqlite = True

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.driver = conn

    def rows(self, sql: str, params: Params | None = None) -> list[Sequence[Any]]:
        assert self.driver is not None
        return self.driver.execute(sql, _sqlite_params(params)).fetchall()

    def run(self, sql: str, params: Params | None = None) -> int:
        assert self.driver is not None
        return int(self.driver.execute(sql, _sqlite_params(params)).rowcount)

    def many(self, sql: str, params: Sequence[Params]) -> None:
        assert self.driver is not None
        if params:
            self.driver.executemany(sql, [_sqlite_params(p) for p in params])


class EngineWriteDb(WriteDb):
    """A SQLAlchemy connection (PostgreSQL, or a SQLite database that is no file)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.is_sqlite = conn.dialect.name == "sqlite"
        self.driver = conn.connection.driver_connection if self.is_sqlite else None

    def _params(self, params: Params | None) -> dict[str, Any]:
        if self.is_sqlite:
            return _sqlite_params(params)
        from psycopg.types.json import Json

        return {k: Json(v) if isinstance(v, dict | list) else v for k, v in (params or {}).items()}

    def rows(self, sql: str, params: Params | None = None) -> list[Sequence[Any]]:
        from sqlalchemy import text

        return list(self.conn.execute(text(sql), self._params(params)).all())

    def run(self, sql: str, params: Params | None = None) -> int:
        from sqlalchemy import text

        return int(self.conn.execute(text(sql), self._params(params)).rowcount or 0)

    def many(self, sql: str, params: Sequence[Params]) -> None:
        from sqlalchemy import text

        if params:
            self.conn.execute(text(sql), [self._params(p) for p in params])


def connect_sqlite(db_file: Path) -> sqlite3.Connection:
    """A stdlib connection set up as the engine's are; sleepd issues BEGIN itself."""
    conn = sqlite3.connect(str(db_file), timeout=30, isolation_level=None, check_same_thread=False)
    try:
        for name, value in SQLITE_PRAGMAS:
            conn.execute(f"PRAGMA {name}={value}")
    except BaseException:
        conn.close()
        raise
    return conn


class WriteTarget:
    """Where a harvest writes: a SQLite file through the stdlib driver, or an engine.

    Built from the store's engine (`for_engine`) or, by the commands that start
    without SQLAlchemy, from a SQLite URL (`for_sqlite_url`).
    """

    def __init__(self, url: str, engine: Engine | None = None) -> None:
        self.url = url
        self.engine = engine
        self.sqlite_file = sqlite_file_for(url) if engine is None else None
        self._driver: sqlite3.Connection | None = None
        if engine is None and self.sqlite_file is None:
            raise ValueError(f"not a SQLite file URL: {url}")

    @classmethod
    def for_engine(cls, engine: Engine) -> WriteTarget:
        url = engine.url.render_as_string(hide_password=False)
        if engine.dialect.name == "sqlite" and sqlite_file_for(url) is not None:
            return cls(url)
        return cls(url, engine)

    @property
    def is_sqlite(self) -> bool:
        return self.engine is None or self.engine.dialect.name == "sqlite"

    @property
    def is_postgres(self) -> bool:
        return self.engine is not None and self.engine.dialect.name == "postgresql"

    @contextmanager
    def transaction(self, *, cache_kib: int = 0) -> Iterator[WriteDb]:
        """One write transaction (IMMEDIATE on SQLite): committed when the block ends,
        rolled back when it raises. `cache_kib`: a larger page cache for a bulk write."""
        if self.engine is not None:
            from sleepd.store.dialect import bulk_write_cache
            from sleepd.store.engine import write_connection

            with write_connection(self.engine) as conn:
                if cache_kib:
                    with bulk_write_cache(conn, cache_kib):
                        yield EngineWriteDb(conn)
                else:
                    yield EngineWriteDb(conn)
            return
        driver = self._connection()
        if cache_kib:
            driver.execute(f"PRAGMA cache_size=-{int(cache_kib)}")
        try:
            driver.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteWriteDb(driver)
            except BaseException:
                if driver.in_transaction:  # SQLite may have rolled it back already (disk full)
                    driver.execute("ROLLBACK")
                raise
            driver.execute("COMMIT")
        finally:
            if cache_kib:
                driver.execute(f"PRAGMA cache_size={DEFAULT_CACHE_SIZE}")

    def _connection(self) -> sqlite3.Connection:
        """The one stdlib connection this target writes through, opened on first use.

        Kept open between transactions: the last connection to close checkpoints the
        write-ahead log into the database, which a harvest should pay once, not per
        group.
        """
        if self._driver is None:
            from sleepd.store.integrity import check_openable

            assert self.sqlite_file is not None
            check_openable(self.sqlite_file)
            self._driver = connect_sqlite(self.sqlite_file)
        return self._driver

    def close(self) -> None:
        """Close the stdlib connection, if one was opened (an engine is the caller's)."""
        if self._driver is not None:
            self._driver.close()
            self._driver = None
