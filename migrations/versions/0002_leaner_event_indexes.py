"""leaner event indexes and full-text index for faster harvests

Three single-column indexes on events (ts, kind, call_id) served no query that the
(session_id, seq) index does not already serve, yet every harvested event paid for
them; errors, the one kind counted across sessions, get a small partial index. The
full-text index stops keeping per-row token counts (`columnsize=0`): only BM25
ranking reads them and search orders by time.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ERRORS_ONLY = sa.text("kind = 'error'")

#: The full-text index as this revision makes it (frozen here, like 0001's).
FTS_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS events_fts_ad AFTER DELETE ON events BEGIN "
    "INSERT INTO events_fts(events_fts, rowid, text) VALUES('delete', old.id, old.text); END",
    "CREATE TRIGGER IF NOT EXISTS events_fts_au AFTER UPDATE OF text ON events BEGIN "
    "INSERT INTO events_fts(events_fts, rowid, text) VALUES('delete', old.id, old.text); "
    "INSERT INTO events_fts(rowid, text) VALUES (new.id, new.text); END",
)
FTS_0002 = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5("
    "text, content='events', content_rowid='id', tokenize='unicode61 remove_diacritics 2', "
    "columnsize=0)",
    *FTS_TRIGGERS,
    "INSERT INTO events_fts(events_fts) VALUES('rebuild')",
)
FTS_0001 = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5("
    "text, content='events', content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
    *FTS_TRIGGERS,
    "INSERT INTO events_fts(events_fts) VALUES('rebuild')",
)
FTS_DROP = (
    "DROP TRIGGER IF EXISTS events_fts_au",
    "DROP TRIGGER IF EXISTS events_fts_ad",
    "DROP TABLE IF EXISTS events_fts",
)


def _run_if_sqlite(statements: Sequence[str]) -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        for statement in statements:
            bind.exec_driver_sql(statement)


def upgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_events_ts"))
        batch_op.drop_index(batch_op.f("ix_events_kind"))
        batch_op.drop_index(batch_op.f("ix_events_call_id"))
    op.create_index(
        "ix_events_errors",
        "events",
        ["session_id"],
        unique=False,
        sqlite_where=ERRORS_ONLY,
        postgresql_where=ERRORS_ONLY,
    )
    _run_if_sqlite(FTS_DROP)
    _run_if_sqlite(FTS_0002)


def downgrade() -> None:
    _run_if_sqlite(FTS_DROP)
    _run_if_sqlite(FTS_0001)
    op.drop_index("ix_events_errors", table_name="events")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_events_call_id"), ["call_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_events_kind"), ["kind"], unique=False)
        batch_op.create_index(batch_op.f("ix_events_ts"), ["ts"], unique=False)
