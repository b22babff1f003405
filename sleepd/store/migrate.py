"""Alembic driven from code, so an installed wheel migrates without alembic.ini."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from sleepd import paths
from sleepd.errors import DatabaseBehindError


def alembic_config(engine: Engine, connection: Any = None) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(paths.migrations_dir()))
    # ConfigParser interpolates `%`: a URL-quoted socket path or password must be escaped.
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    cfg.set_main_option("sqlalchemy.url", url)
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision(engine: Engine) -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@dataclass(frozen=True)
class DbState:
    current: str | None
    head: str | None

    @property
    def at_head(self) -> bool:
        return self.current == self.head

    @property
    def empty(self) -> bool:
        return self.current is None


def db_state(engine: Engine) -> DbState:
    return DbState(current=current_revision(engine), head=head_revision(engine))


def upgrade(engine: Engine, revision: str = "head") -> None:
    from alembic import command

    _migrate(engine, lambda cfg: command.upgrade(cfg, revision))


def downgrade(engine: Engine, revision: str = "base") -> None:
    from alembic import command

    _migrate(engine, lambda cfg: command.downgrade(cfg, revision))


def _migrate(engine: Engine, step: Callable[[Any], None]) -> None:
    """Run Alembic in one transaction.

    On SQLite, a migration that rebuilds a table (copy, drop, rename) must not fire the
    foreign-key actions of the drop (rows of other tables set to NULL or deleted), so
    foreign keys are off while it runs, as SQLite's own procedure for schema changes
    says, and `foreign_key_check` must find nothing before the commit.
    """
    from sleepd.store import revision_cache

    revision_cache.forget()
    with engine.connect() as conn:
        driver: Any = None
        if conn.dialect.name == "sqlite":
            driver = conn.connection.driver_connection
            driver.execute("PRAGMA foreign_keys=OFF")  # outside a transaction, or ignored
        try:
            with conn.begin():
                step(alembic_config(engine, conn))
                if driver is not None:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").first()
                    if broken is not None:
                        raise RuntimeError(f"migration broke a foreign key: {tuple(broken)}")
        finally:
            if driver is not None:
                driver.execute("PRAGMA foreign_keys=ON")


def pending_differences(engine: Engine) -> list[Any]:
    """Model vs database differences as autogenerate sees them (empty when in sync)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from sleepd.store.dialect import alembic_include_object as include_object
    from sleepd.store.models import Base

    with engine.connect() as conn:
        ctx = MigrationContext.configure(
            conn,
            opts={"include_object": include_object, "compare_type": True, "render_as_batch": True},
        )
        return list(compare_metadata(ctx, Base.metadata))


def require_head(engine: Engine) -> None:
    """Refuse to run on a database behind head; say how to upgrade."""
    state = db_state(engine)
    if state.at_head:
        return
    if state.empty:
        raise DatabaseBehindError(
            f"database {engine.url.render_as_string()} is not initialised; run `sleepd db upgrade`"
        )
    raise DatabaseBehindError(
        f"database is at revision {state.current}, code expects {state.head}; "
        "stop the daemon, then run `sleepd db upgrade`"
    )
