"""cursor tail hash: a resume point is verified by the bytes just before it

A transcript truncated and regrown past the stored offset with the same first 4 KB
was resumed at the old offset, losing the new lines there. The cursor now also keeps
a hash of the bytes before its offset; cursors stored before have none (empty) and
are checked by their head alone until their next pass stores one.

Revision ID: 0005_cursor_tail_hash
Revises: 0004_cjk_search_index
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_cursor_tail_hash"
down_revision: str | None = "0004_cjk_search_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("transcript_files") as batch:
        batch.add_column(
            sa.Column("tail_hash", sa.String(length=64), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("transcript_files") as batch:
        batch.drop_column("tail_hash")
