"""watch: learned rules with their provenance and last measured contribution

Issue #20: every learned rule of a managed region keeps where it came from (night,
proposal, tasks, clusters), when it was added and removed, and the leave-one-out
contribution a night last measured. A new table: nothing existing is copied.

Revision ID: 0009_watch_learned_rules
Revises: 0008_pg_team
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_watch_learned_rules"
down_revision: str | None = "0008_pg_team"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "learned_rules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("text_hash", sa.String(length=64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("proposal_id", sa.Integer(), nullable=True),
        sa.Column("night_id", sa.Integer(), nullable=True),
        sa.Column("task_ids", sa.JSON(), nullable=False),
        sa.Column("cluster_ids", sa.JSON(), nullable=False),
        sa.Column("simulated", sa.Boolean(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("added_version_id", sa.Integer(), nullable=True),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("removed_reason", sa.String(length=32), nullable=True),
        sa.Column("removed_by_proposal_id", sa.Integer(), nullable=True),
        sa.Column("last_contribution", sa.Float(), nullable=True),
        sa.Column("last_measured_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_measured_night_id", sa.Integer(), nullable=True),
        sa.Column("measurements", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["added_version_id"],
            ["document_versions.id"],
            name=op.f("fk_learned_rules_added_version_id_document_versions"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["target_documents.id"],
            name=op.f("fk_learned_rules_document_id_target_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["last_measured_night_id"],
            ["nights.id"],
            name=op.f("fk_learned_rules_last_measured_night_id_nights"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["night_id"],
            ["nights.id"],
            name=op.f("fk_learned_rules_night_id_nights"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["proposal_id"],
            ["proposals.id"],
            name=op.f("fk_learned_rules_proposal_id_proposals"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["removed_by_proposal_id"],
            ["proposals.id"],
            name=op.f("fk_learned_rules_removed_by_proposal_id_proposals"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_learned_rules")),
    )
    with op.batch_alter_table("learned_rules", schema=None) as batch_op:
        batch_op.create_index(
            "ix_learned_rules_document_hash", ["document_id", "text_hash"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("learned_rules", schema=None) as batch_op:
        batch_op.drop_index("ix_learned_rules_document_hash")
    op.drop_table("learned_rules")
