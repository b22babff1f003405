"""mining: an episode whose plan was taken into another episode is no request of its own

Claude Code's "Yes, and clear context" takes the agent's plan by handing it back as the
next request ("Implement the following plan: …"), in the same session or in a new one.
The planning episode and the one its plan was handed to are one request: clustered as
two, every such plan looked recurring (two sessions) and made two tasks, one of them
holding only the planning. The flag keeps the planning episode out of clustering and
tasks; the episode the plan went to holds the request and its work. Episodes read
before this revision carry FALSE until their sessions are read again (the mining code's
digest changes with it, so the next pass reads every session again). A plain ADD
COLUMN with a server default: no table copy.

Revision ID: 0027_episode_plan_handed_on
Revises: 0026_replay_site_branch
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027_episode_plan_handed_on"
down_revision: str | None = "0026_replay_site_branch"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "episodes",
        sa.Column("plan_handed_on", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("episodes") as batch:
        batch.drop_column("plan_handed_on")
