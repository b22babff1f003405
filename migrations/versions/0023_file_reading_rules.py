"""harvest: each transcript file keeps the identity of the harvest that read it

Issue #14: the harvest read each line once, so a line an older sleepd misread (a record
no person typed stored as their prompt, a goal objective stored as a meta record) kept
that reading after an upgrade. `transcript_files.read_with` now names the harvest that
read the file (`sleepd.harvest.reading`), and a harvest reads again, in place, each file
still on disk that other rules read (`sleepd.harvest.reread`).

Files stored before this revision carry "", so the first harvest after the upgrade reads
again every file still on disk, once. A plain ADD COLUMN: no table copy.

Revision ID: 0023_file_reading_rules
Revises: 0022_session_reading_rules
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023_file_reading_rules"
down_revision: str | None = "0022_session_reading_rules"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "transcript_files",
        sa.Column("read_with", sa.String(length=64), nullable=False, server_default=""),
    )


def downgrade() -> None:
    with op.batch_alter_table("transcript_files") as batch:
        batch.drop_column("read_with")
