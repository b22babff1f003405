"""Read-only SQL for the commands people wait for (`status`, `search`, `nights`,
`review list`, `tasks list`, `patterns`).

Importing SQLAlchemy and the models costs several hundred milliseconds; for a
SQLite file the stdlib driver answers the same portable SQL in a few. The seam is
`Reader`: `ReadOnlyDb` reads a SQLite file through the stdlib driver, and
`EngineReader` puts the store's own SQLAlchemy engine (PostgreSQL, or any caller
that holds an engine) behind the same two methods. `open_reader` picks one from the
configured URL. Values come back as the driver gives them; `stored_datetime`,
`stored_json` and `stored_bool` turn them into what the ORM would have returned.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, overload
from urllib.parse import quote


class Reader(Protocol):
    """What read-only queries go through: `ReadOnlyDb` or `EngineReader`."""

    @property
    def is_sqlite(self) -> bool: ...

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Sequence[Any]]: ...

    def scalar(self, sql: str, params: dict[str, Any] | None = None) -> Any: ...

    def close(self) -> None: ...


class EngineReader:
    """A SQLAlchemy engine behind the `Reader` interface (PostgreSQL; callers holding one)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    @property
    def is_sqlite(self) -> bool:
        return bool(self.engine.dialect.name == "sqlite")

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Sequence[Any]]:
        from sqlalchemy import text

        with self.engine.connect() as conn:
            return list(conn.execute(text(sql), params or {}).all())

    def scalar(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        result = self.rows(sql, params)
        return result[0][0] if result else None

    def close(self) -> None:
        """The engine is the caller's: left open."""


def as_reader(db: Any) -> Reader:
    """`db` itself when it is a reader, else the SQLAlchemy engine it is, wrapped."""
    return db if hasattr(db, "rows") else EngineReader(db)


class ReadOnlyDb:
    """`rows` and `scalar` over plain SQL with named `:params`.

    A SQLite file through the stdlib driver; PostgreSQL straight through psycopg (its
    URL is a libpq URI), so these commands do not import SQLAlchemy there either; any
    other URL through SQLAlchemy.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._sqlite: sqlite3.Connection | None = None
        self._pg: Any = None
        self._engine: Any = None
        db_file = _sqlite_file(url)
        if db_file is not None:
            from sleepd.store.integrity import check_openable

            check_openable(db_file)  # a damaged or marked file is refused, not read
            self._sqlite = sqlite3.connect(
                f"file:{quote(str(db_file))}?mode=ro", uri=True, timeout=5
            )
            self._sqlite.execute("PRAGMA busy_timeout=5000")
            return
        from sleepd.store.urls import driver_url, is_postgres, require_driver

        require_driver(url)
        if is_postgres(url) and driver_url(url).startswith("postgresql+psycopg://"):
            import psycopg

            self._pg = psycopg.connect(libpq_uri(url), autocommit=True)
            self._pg.execute("SET default_transaction_read_only = on")
            return
        from sqlalchemy import create_engine

        self._engine = create_engine(driver_url(url))

    @property
    def is_sqlite(self) -> bool:
        """SQLite through the stdlib driver (other dialects go through SQLAlchemy)."""
        if self._sqlite is not None:
            return True
        return self._pg is None and self._engine.dialect.name == "sqlite"

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Sequence[Any]]:
        if self._sqlite is not None:
            return self._sqlite.execute(sql, params or {}).fetchall()
        if self._pg is not None:
            return list(self._pg.execute(pyformat(sql), params or {}).fetchall())
        from sqlalchemy import text

        with self._engine.connect() as conn:
            return list(conn.execute(text(sql), params or {}).all())

    def scalar(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        result = self.rows(sql, params)
        return result[0][0] if result else None

    def close(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()
        if self._pg is not None:
            self._pg.close()
        if self._engine is not None:
            self._engine.dispose()


_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


def pyformat(sql: str) -> str:
    """Portable SQL with `:name` parameters in psycopg's `%(name)s` style."""
    return _NAMED.sub(r"%(\1)s", sql.replace("%", "%%"))


def libpq_uri(url: str) -> str:
    """A PostgreSQL URL as libpq takes it (no SQLAlchemy driver suffix in the scheme)."""
    _scheme, _sep, rest = url.partition("://")
    return f"postgresql://{rest}"


def _sqlite_file(url: str) -> Path | None:
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        return None
    rest = url[len(prefix) :].split("?", 1)[0]
    if rest in ("", ":memory:"):
        return None
    return Path(rest).expanduser()


def open_reader(cfg: Any, *, missing_ok: bool = True) -> Reader | None:
    """A reader on the configured database at head; None while its SQLite file does not
    exist (or, with `missing_ok` false, the refusal `open_store` gives a reader then).

    A SQLite file is read through the stdlib driver (after the same damage and
    revision checks `open_store` makes); any other URL through the store's engine.
    """
    from sleepd import paths

    url = paths.database_url(cfg.database_url or None)
    if _sqlite_file(url) is None:
        from sleepd.store.open import open_store

        return EngineReader(open_store(cfg))
    if sqlite_file_missing(url):
        if missing_ok:
            return None
        from sleepd.errors import DatabaseBehindError

        raise DatabaseBehindError("database is not initialised; run `sleepd db upgrade`")
    db = ReadOnlyDb(url)
    try:
        require_head(db)
    except BaseException:
        db.close()
        raise
    return db


def stored_datetime(value: Any) -> datetime | None:
    """A stored timestamp as the ORM returns it (SQLite gives text; naive stays naive)."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def stored_json(value: Any) -> Any:
    """A JSON column's value (SQLite gives text; PostgreSQL the decoded value)."""
    if isinstance(value, str | bytes):
        return json.loads(value)
    return value


def stored_bool(value: Any) -> bool | None:
    """A boolean column's value (SQLite gives 0 or 1)."""
    return None if value is None else bool(value)


def sqlite_file_missing(url: str) -> bool:
    db_file = _sqlite_file(url)
    return db_file is not None and not db_file.exists()


@overload
def as_utc(value: datetime) -> datetime: ...
@overload
def as_utc(value: Any) -> datetime | None: ...
def as_utc(value: Any) -> datetime | None:
    """A stored time, aware. Everything sleepd stores is UTC, and the store hands times
    back naive (SQLite's ORM columns), as ISO-ish text (SQLite's raw rows) or aware
    (PostgreSQL): the one place that makes them alike."""
    if value is None:
        return None
    parsed = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def db_to_utc_param(value: datetime) -> str:
    """A UTC timestamp in the form SQLAlchemy stores in SQLite (for comparisons)."""
    return value.astimezone(UTC).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")


def no_version_table(exc: BaseException) -> bool:
    """SQLite's "no such table" or PostgreSQL's "relation … does not exist"."""
    text = str(exc)
    return "alembic_version" in text and ("no such table" in text or "does not exist" in text)


def require_head(db: ReadOnlyDb) -> None:
    """Refuse, as `open_store` does, a database whose schema is not this sleepd's."""
    from sleepd.errors import DatabaseBehindError
    from sleepd.store.schema_version import HEAD_REVISION

    try:
        current = db.scalar("SELECT version_num FROM alembic_version")
    except Exception as exc:  # no such table: never initialised; anything else is itself
        if not no_version_table(exc):
            raise
        current = None
    if current == HEAD_REVISION:
        return
    if current is None:
        raise DatabaseBehindError("database is not initialised; run `sleepd db upgrade`")
    raise DatabaseBehindError(
        f"database is at revision {current}, this sleepd expects {HEAD_REVISION}; "
        "stop the daemon, then run `sleepd db upgrade`"
    )
