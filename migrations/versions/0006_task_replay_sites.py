"""where a task can be replayed with tools (repository, commit, test commands, fidelity)

Revision ID: 0006_task_replay_sites
Revises: 0005_cursor_tail_hash
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_task_replay_sites"
down_revision: str | None = "0005_cursor_tail_hash"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "task_replay_sites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("task_id", sa.Integer(), nullable=False),
        sa.Column("repo_root", sa.String(length=4096), nullable=True),
        sa.Column("commit", sa.String(length=64), nullable=True),
        sa.Column("commit_source", sa.String(length=16), nullable=False),
        sa.Column("test_commands", sa.JSON(), nullable=False),
        sa.Column("failing_tests", sa.JSON(), nullable=False),
        sa.Column("agent", sa.String(length=16), nullable=True),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("fidelity", sa.Float(), nullable=True),
        sa.Column("fidelity_rollouts", sa.Integer(), nullable=False),
        sa.Column("fidelity_matched", sa.Integer(), nullable=False),
        sa.Column("fidelity_night_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["fidelity_night_id"],
            ["nights.id"],
            name=op.f("fk_task_replay_sites_fidelity_night_id_nights"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["task_id"],
            ["tasks.id"],
            name=op.f("fk_task_replay_sites_task_id_tasks"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_task_replay_sites")),
    )
    with op.batch_alter_table("task_replay_sites", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_task_replay_sites_task_id"), ["task_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("task_replay_sites", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_task_replay_sites_task_id"))
    op.drop_table("task_replay_sites")
