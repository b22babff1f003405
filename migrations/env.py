"""Alembic environment: runs against the connection sleepd hands it."""

from __future__ import annotations

from typing import Any

from alembic import context

from sleepd.store.dialect import alembic_include_object as include_object
from sleepd.store.models import Base

target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        from sleepd.store.engine import make_engine

        engine = make_engine(context.config.get_main_option("sqlalchemy.url"))
        with engine.connect() as conn:
            _run(conn)
        engine.dispose()
    else:
        _run(connection)


def _run(connection: Any) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        include_object=include_object,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("sleepd migrations run online only")
run_migrations_online()
