"""The seam for everything dialect-specific: pragmas, full-text search, upserts.

Everything else in sleepd speaks portable SQLAlchemy; SQLite is the default
store and PostgreSQL works by URL (without FTS5, search falls back to LIKE).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, Table, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import Insert

SQLITE_PRAGMAS: tuple[tuple[str, str], ...] = (
    ("journal_mode", "WAL"),
    ("synchronous", "NORMAL"),
    ("foreign_keys", "ON"),
    ("busy_timeout", "30000"),
    ("temp_store", "MEMORY"),
)

FTS_TABLE = "events_fts"


#: The FTS5 index over event text (created by the initial migration). New events are
#: indexed in bulk by `index_new_events`, in the transaction that inserts them (three times
#: faster than a per-row trigger); deletes and text updates are kept in sync by triggers.
def is_sqlite(bind: Engine | Connection) -> bool:
    return bind.dialect.name == "sqlite"


def install_sqlite_hooks(engine: Engine) -> None:
    """Pragmas on every new connection; sleepd, not the driver, issues BEGIN.

    The stdlib driver's implicit transactions cannot begin IMMEDIATE, so we take
    over: writers begin IMMEDIATE (no lock upgrade deadlocks), readers DEFERRED.
    """

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        try:
            for name, value in SQLITE_PRAGMAS:
                cursor.execute(f"PRAGMA {name}={value}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.info.get("sleepd_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


def last_event_id(conn: Connection) -> int:
    """Rowids only grow, so events inserted after this call have larger ids."""
    return int(conn.exec_driver_sql("SELECT coalesce(max(id), 0) FROM events").scalar() or 0)


def index_new_events(conn: Connection, after_id: int) -> None:
    """Add events with id > `after_id` to the full-text index (SQLite; no-op elsewhere)."""
    if is_sqlite(conn):
        conn.exec_driver_sql(
            f"INSERT INTO {FTS_TABLE}(rowid, text) SELECT id, text FROM events WHERE id > ?",
            (after_id,),
        )


def has_fts(conn: Connection) -> bool:
    if not is_sqlite(conn):
        return False
    row = conn.exec_driver_sql(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (FTS_TABLE,)
    ).first()
    return row is not None


def insert_ignore(table: Table, bind: Engine | Connection) -> Insert:
    """INSERT that skips rows violating a unique constraint (idempotent ingest)."""
    if bind.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table).on_conflict_do_nothing()
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table).on_conflict_do_nothing()


def insert_ignore_many(conn: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> int:
    """Insert rows, skipping unique-constraint duplicates; returns how many were inserted.

    On SQLite this is the hot path of a harvest, so it goes straight to the driver's
    `executemany` (SQLAlchemy's per-row parameter processing costs more than the
    insert itself); elsewhere the portable statement, counting before and after.
    """
    if not rows:
        return 0
    if is_sqlite(conn):
        columns = list(rows[0])
        sql = (
            f"INSERT OR IGNORE INTO {table.name} ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' for _ in columns)})"
        )
        stamps = [i for i, c in enumerate(columns) if isinstance(table.c[c].type, DateTime)]
        params = [tuple(r[c] for c in columns) for r in rows]
        if stamps:
            params = [_bind_stamps(p, stamps) for p in params]
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.executemany(sql, params)
            return int(cursor.rowcount)
        finally:
            cursor.close()
    from sqlalchemy import func, select

    before = conn.execute(select(func.count()).select_from(table)).scalar_one()
    conn.execute(insert_ignore(table, conn), list(rows))
    after = conn.execute(select(func.count()).select_from(table)).scalar_one()
    return int(after - before)


def _bind_stamps(values: tuple[Any, ...], stamps: list[int]) -> tuple[Any, ...]:
    """Timestamps as SQLAlchemy's SQLite DateTime stores them: naive UTC, ISO with µs."""
    out = list(values)
    for i in stamps:
        value = out[i]
        if isinstance(value, datetime):
            if value.tzinfo is not None:
                value = value.astimezone(UTC).replace(tzinfo=None)
            out[i] = value.isoformat(sep=" ", timespec="microseconds")
    return tuple(out)


def upsert_add(
    table: Table,
    bind: Engine | Connection,
    keys: Sequence[str],
    add_column: str,
) -> Insert:
    """INSERT … ON CONFLICT(keys) DO UPDATE SET add_column = add_column + excluded."""
    stmt: Any
    if bind.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        stmt = pg_insert(table)
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        stmt = sqlite_insert(table)
    result: Insert = stmt.on_conflict_do_update(
        index_elements=list(keys),
        set_={add_column: table.c[add_column] + stmt.excluded[add_column]},
    )
    return result


def fts_match_query(query: str) -> str:
    """Quote each term so user input is never FTS5 syntax (no injection, no errors)."""
    terms = [t for t in query.split() if t]
    return " ".join('"' + t.replace('"', '""') + '"' for t in terms)


def alembic_include_object(
    obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any
) -> bool:
    """FTS5 tables are made by this seam, not by the models; autogenerate skips them."""
    return not (type_ == "table" and name is not None and name.startswith(FTS_TABLE))
