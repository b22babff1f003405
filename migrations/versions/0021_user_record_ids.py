"""harvest: the ids of a person's records, to find a resumed session's copied history

Claude Code 2.0 and 2.1, resuming a conversation, could start a new session file that
opens with the conversation so far, each record under its own uuid and the new session's
id. The harvest now keeps such a copy as context (`sleepd.store.resumed`), and finds the
session it came from by the id of the copy's first record of a person's side. This
partial index holds those ids only (role `user`: prompts, command wrappers, interrupts),
a small share of the events, so the other events do not pay for it.

Copies stored before this revision stay as they were stored.

Revision ID: 0021_user_record_ids
Revises: 0020_failure_mark_pattern_keys
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_user_record_ids"
down_revision: str | None = "0020_failure_mark_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

USER_ONLY = sa.text("role = 'user'")


def upgrade() -> None:
    op.create_index(
        "ix_events_user_ids",
        "events",
        ["external_id"],
        unique=False,
        sqlite_where=USER_ONLY,
        postgresql_where=USER_ONLY,
    )


def downgrade() -> None:
    op.drop_index("ix_events_user_ids", table_name="events")
