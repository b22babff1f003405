"""Open the configured database the way each kind of command needs it."""

from __future__ import annotations

import sys

from sqlalchemy.engine import Engine

from sleepd import paths
from sleepd.config import Config
from sleepd.errors import DatabaseBehindError
from sleepd.store import migrate, revision_cache
from sleepd.store.engine import make_engine, sqlite_file_for
from sleepd.store.schema_version import HEAD_REVISION


def database_url(cfg: Config) -> str:
    return paths.database_url(cfg.database_url or None)


def database_exists(cfg: Config) -> bool:
    db_file = sqlite_file_for(database_url(cfg))
    return db_file is None or db_file.exists()


def current_revision_fast(engine: Engine) -> str | None:
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    try:
        with engine.connect() as conn:
            value = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except DBAPIError:
        return None
    return str(value) if value is not None else None


def open_store(cfg: Config, *, write: bool = False) -> Engine:
    """An engine on a database at head.

    A brand-new database (no revision yet) is initialised by writers, since no
    data can be lost and no daemon can hold it. A database behind head is never
    migrated here: the user (or the daemon that owns it) upgrades explicitly.
    """
    if write:
        paths.home_dir(create=True)
    url = database_url(cfg)
    db_file = sqlite_file_for(url)
    # Taken before connecting: a write during the check makes the next command check again.
    key = revision_cache.identity(db_file, HEAD_REVISION) if db_file is not None else None
    engine = make_engine(url)
    if revision_cache.known_at_head(key):
        return engine  # this very file was found at head, and nothing has touched it since
    if current_revision_fast(engine) == HEAD_REVISION:
        revision_cache.remember_at_head(key)
        return engine  # the common case, without loading Alembic
    state = migrate.db_state(engine)
    if state.at_head:
        return engine
    if state.empty and write:
        migrate.upgrade(engine)
        print(f"sleepd: initialised database at revision {state.head}", file=sys.stderr)
        return engine
    engine.dispose()
    if state.empty:
        raise DatabaseBehindError("database is not initialised; run `sleepd db upgrade`")
    raise DatabaseBehindError(
        f"database is at revision {state.current}, this sleepd expects {state.head}; "
        "stop the daemon, then run `sleepd db upgrade`"
    )
