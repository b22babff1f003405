"""The seam for everything dialect-specific: pragmas, full-text search, upserts.

Everything else in sleepd speaks portable SQLAlchemy; SQLite is the default
store; PostgreSQL is the team store (a tsvector column for search, advisory locks,
row-level security: migration 0008, `sleepd.store.locks`, docs/team.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, Table, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import Insert

from sleepd.store.records import NUL_STAND_IN
from sleepd.store.writedb import FTS_TABLE, SQLITE_PRAGMAS


#: The FTS5 index over event text (made by the migrations), and for texts in scripts
#: written without spaces a side index (`sleepd.store.cjk_index`); queries are built in
#: `sleepd.search`. New events are indexed in bulk in the transaction that inserts them
#: (`sleepd.store.ingest.index_event_texts`, or `index_new_events` when their ids are not
#: known): three times faster than a per-row trigger. Deletes and text updates are kept
#: in sync by triggers.
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


def install_postgresql_hooks(engine: Engine) -> None:
    """Every string bound to a statement on PostgreSQL has NUL replaced.

    PostgreSQL's text refuses NUL, and strings reach the store from outside sleepd
    beyond the harvest (a model's answer stored as a rollout's output, a reason a
    provider gave): one NUL would fail the statement, and a night with it. JSON values
    are bound as JSON text, where NUL is an escape PostgreSQL's `json` keeps. SQLite
    keeps NUL as it is.
    """

    @event.listens_for(engine, "before_cursor_execute", retval=True)
    def _without_nul(
        conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool
    ) -> tuple[str, Any]:
        return statement, _params_without_nul(parameters)


def _params_without_nul(parameters: Any) -> Any:
    if isinstance(parameters, dict):
        if any(isinstance(v, str) and "\x00" in v for v in parameters.values()):
            return {k: _text_without_nul(v) for k, v in parameters.items()}
        return parameters
    if isinstance(parameters, list | tuple):
        if any(isinstance(item, dict | list | tuple) for item in parameters):
            return type(parameters)(_params_without_nul(item) for item in parameters)
        if any(isinstance(v, str) and "\x00" in v for v in parameters):
            return type(parameters)(_text_without_nul(v) for v in parameters)
    return parameters


def _text_without_nul(value: Any) -> Any:
    return value.replace("\x00", NUL_STAND_IN) if isinstance(value, str) else value


@contextmanager
def bulk_write_cache(conn: Connection, kib: int) -> Iterator[None]:
    """A larger page cache for one bulk transaction, then the usual one again.

    Full-text segment merges and index pages stay in memory instead of being
    re-read; a daemon that idles between harvests does not keep the memory.
    """
    if not is_sqlite(conn):
        yield
        return
    before = conn.exec_driver_sql("PRAGMA cache_size").scalar()
    conn.exec_driver_sql(f"PRAGMA cache_size=-{int(kib)}")
    try:
        yield
    finally:
        conn.exec_driver_sql(f"PRAGMA cache_size={int(before or -2000)}")


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


def insert_ignore_rows(
    conn: Connection,
    table: Table,
    columns: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
) -> int:
    """Insert rows (tuples in `columns` order), skipping unique-constraint duplicates.

    Returns how many were inserted. On SQLite this is the hot path of a harvest, so it
    goes straight to the driver's `executemany`, with timestamps already in the text form
    SQLAlchemy's SQLite DateTime stores and flags as 0/1; elsewhere the portable
    statement, counting before and after.
    """
    if not rows:
        return 0
    if is_sqlite(conn):
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT OR IGNORE INTO {table.name} ({', '.join(columns)}) VALUES ({marks})"
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.executemany(sql, rows)
            return int(cursor.rowcount)
        finally:
            cursor.close()
    # Elsewhere (PostgreSQL): multi-row INSERT … ON CONFLICT DO NOTHING RETURNING id,
    # batched by SQLAlchemy's insertmanyvalues; the returned ids count exactly what was
    # inserted, whatever other writers do meanwhile.
    dicts = [decode_row(table, columns, row) for row in rows]
    stmt = insert_ignore(table, conn).returning(table.c.id)
    return len(conn.execute(stmt, dicts).all())


def decode_row(table: Table, columns: Sequence[str], row: tuple[Any, ...]) -> dict[str, Any]:
    """A row as the portable statement takes it: booleans and datetimes as Python's."""
    out: dict[str, Any] = {}
    for column, value in zip(columns, row, strict=True):
        kind = table.c[column].type
        if isinstance(kind, DateTime) and isinstance(value, str):
            value = datetime.fromisoformat(value)
        elif isinstance(kind, Boolean) and type(value) is int:
            value = bool(value)
        out[column] = value
    return out


#: PostgreSQL-only schema the migrations make and the models do not describe: the
#: search column and its index, and the owner column of row-level security (0008).
POSTGRES_ONLY_COLUMNS = frozenset({"text_tsv", "owner_role"})
POSTGRES_ONLY_INDEXES = frozenset({"ix_events_text_tsv"})


def alembic_include_object(
    obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any
) -> bool:
    """FTS5 tables and the PostgreSQL search and ownership columns are made by the
    migrations, not by the models; autogenerate and `db check` skip them."""
    if name is None or not reflected or compare_to is not None:
        return True
    if type_ == "table":
        return not name.startswith(FTS_TABLE)
    if type_ == "column":
        return name not in POSTGRES_ONLY_COLUMNS
    if type_ == "index":
        return name not in POSTGRES_ONLY_INDEXES
    return True
