"""a side full-text index for scripts written without spaces (CJK, Thai, …)

`unicode61` keeps a run of Han, kana or Hangul as one token, so `sleepd search 最新`
found nothing inside a sentence. Events whose text holds such a script get a second
entry of unigrams and bigrams (`sleepd.store.cjk_index`); most events are plain ASCII
and get none. The upgrade fills the index from the events already stored (only the
texts with a character above U+0DFF are read).

Revision ID: 0004_cjk_search_index
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004_cjk_search_index"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return  # elsewhere search matches substrings, which finds these words already
    from sleepd.store import cjk_index

    for statement in (*cjk_index.DROP, cjk_index.CREATE_TABLE, *cjk_index.TRIGGERS):
        bind.exec_driver_sql(statement)
    cjk_index.rebuild(bind.connection.driver_connection)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    from sleepd.store import cjk_index

    for statement in cjk_index.DROP:
        bind.exec_driver_sql(statement)
