"""full-text index without token positions (detail=none)

Search matches each term anywhere in an event (`sleepd search` ANDs the terms and
orders by time); nothing asks the index for phrases, NEAR or ranking, which are what
token positions are for. Without them the index is about half the size and a harvest
spends about 40 % less time indexing. A term that is several tokens to the index
("exit-code", "src/main.rs") is matched as a substring of the text instead of as a
phrase (`sleepd.search.plan_query`).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The full-text index as this revision makes it (frozen here, like 0001's and 0002's).
FTS_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS events_fts_ad AFTER DELETE ON events BEGIN "
    "INSERT INTO events_fts(events_fts, rowid, text) VALUES('delete', old.id, old.text); END",
    "CREATE TRIGGER IF NOT EXISTS events_fts_au AFTER UPDATE OF text ON events BEGIN "
    "INSERT INTO events_fts(events_fts, rowid, text) VALUES('delete', old.id, old.text); "
    "INSERT INTO events_fts(rowid, text) VALUES (new.id, new.text); END",
)
FTS_0003 = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5("
    "text, content='events', content_rowid='id', tokenize='unicode61 remove_diacritics 2', "
    "columnsize=0, detail=none)",
    *FTS_TRIGGERS,
    "INSERT INTO events_fts(events_fts) VALUES('rebuild')",
)
FTS_0002 = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5("
    "text, content='events', content_rowid='id', tokenize='unicode61 remove_diacritics 2', "
    "columnsize=0)",
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
    _run_if_sqlite(FTS_DROP)
    _run_if_sqlite(FTS_0003)


def downgrade() -> None:
    _run_if_sqlite(FTS_DROP)
    _run_if_sqlite(FTS_0002)
