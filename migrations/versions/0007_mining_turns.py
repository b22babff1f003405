"""mining: turn kinds, outcome confidence and evidence, refinements per episode

Issue #14: every typed turn of an episode is kept with its kind (new_task,
follow_up, correction, approval, steering, housekeeping); an episode's outcome
carries a confidence and the event ids that justify it; follow-ups that refine a
request are kept so its task can fold them in. All nullable: episodes mined before
this revision read as "no turns recorded".

Revision ID: 0007_mining_turns
Revises: 0006_task_replay_sites
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_mining_turns"
down_revision: str | None = "0006_task_replay_sites"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN: no table copy, so a big store upgrades in an instant
    op.add_column("episodes", sa.Column("outcome_confidence", sa.Float(), nullable=True))
    op.add_column("episodes", sa.Column("outcome_event_ids", sa.JSON(), nullable=True))
    op.add_column("episodes", sa.Column("turns", sa.JSON(), nullable=True))
    op.add_column("episodes", sa.Column("refinements", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("episodes") as batch:
        batch.drop_column("refinements")
        batch.drop_column("turns")
        batch.drop_column("outcome_event_ids")
        batch.drop_column("outcome_confidence")
