"""Read-only SQL for the commands that must start fast (`sleepd status`).

Importing SQLAlchemy costs several hundred milliseconds; for a SQLite file the
stdlib driver answers the same portable SQL in a few. Other URLs go through
SQLAlchemy as usual.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote


class ReadOnlyDb:
    """`rows` and `scalar` over plain SQL with named `:params`."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._sqlite: sqlite3.Connection | None = None
        self._engine: Any = None
        db_file = _sqlite_file(url)
        if db_file is not None:
            from sleepd.store.integrity import check_openable

            check_openable(db_file)  # a damaged or marked file is refused, not read
            self._sqlite = sqlite3.connect(
                f"file:{quote(str(db_file))}?mode=ro", uri=True, timeout=5
            )
            self._sqlite.execute("PRAGMA busy_timeout=5000")
        else:
            from sqlalchemy import create_engine

            from sleepd.store.urls import driver_url, require_driver

            require_driver(url)
            self._engine = create_engine(driver_url(url))

    @property
    def is_sqlite(self) -> bool:
        """SQLite through the stdlib driver (other dialects go through SQLAlchemy)."""
        return self._sqlite is not None or self._engine.dialect.name == "sqlite"

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Sequence[Any]]:
        if self._sqlite is not None:
            return self._sqlite.execute(sql, params or {}).fetchall()
        from sqlalchemy import text

        with self._engine.connect() as conn:
            return list(conn.execute(text(sql), params or {}).all())

    def scalar(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        result = self.rows(sql, params)
        return result[0][0] if result else None

    def close(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()
        if self._engine is not None:
            self._engine.dispose()


def _sqlite_file(url: str) -> Path | None:
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        return None
    rest = url[len(prefix) :].split("?", 1)[0]
    if rest in ("", ":memory:"):
        return None
    return Path(rest).expanduser()


def sqlite_file_missing(url: str) -> bool:
    db_file = _sqlite_file(url)
    return db_file is not None and not db_file.exists()


def as_utc(value: Any) -> datetime | None:
    """Timestamps come back as datetimes (PostgreSQL) or ISO-ish strings (SQLite)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    parsed = datetime.fromisoformat(str(value))
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
