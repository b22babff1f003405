"""mining: each session keeps the identity of the rules that read it

Issue #14: mining is incremental, so a session was read once, by the sleepd of that day,
and an upgrade that reads people better reached only the sessions harvested after it.
`sessions.mined_with` now names the rules that read the session (`sleepd.mining.reading`),
and a pass reads again, from the first event, each session read by other rules.

Sessions stored before this revision carry "" (read by rules that left no name), so the
first pass after the upgrade reads the whole history again, once. A plain ADD COLUMN: no
table copy, so a big store upgrades in an instant.

Revision ID: 0022_session_reading_rules
Revises: 0021_user_record_ids
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022_session_reading_rules"
down_revision: str | None = "0021_user_record_ids"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "sessions",
        sa.Column("mined_with", sa.String(length=64), nullable=False, server_default=""),
    )


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("mined_with")
