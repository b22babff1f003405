"""replay: a task's site keeps the branch its work tree was on when the request was typed

A session's branch is the one recorded when it began. A session that made a branch and
committed to it before a later request (`git checkout -b fix/…`, a commit, "/code-review")
was on another branch by then: HEAD's reflog in its work tree says which, and the replay's
checkout names that branch, with the main line where it left it. Sites recorded before
this revision carry NULL and keep the session's branch. A plain ADD COLUMN: no table copy.

Revision ID: 0026_replay_site_branch
Revises: 0025_task_retired_because
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026_replay_site_branch"
down_revision: str | None = "0025_task_retired_because"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("task_replay_sites", sa.Column("branch", sa.String(length=255), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("task_replay_sites") as batch:
        batch.drop_column("branch")
