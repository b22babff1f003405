"""mining: a retired task keeps why today's rules no longer make it

Reading a history again (`0022`) retires the tasks today's rules make otherwise or not at
all; `sleepd tasks show` could only say that it happened. `tasks.retired_because` now
keeps which rule retired it (a short code, `sleepd.mining.task_mining.RETIRED_BECAUSE`),
so a person who upgrades sees why a task left the nights. Tasks retired before this
revision carry "" and read as before. A plain ADD COLUMN: no table copy.

Revision ID: 0025_task_retired_because
Revises: 0024_team_cluster_figures
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025_task_retired_because"
down_revision: str | None = "0024_team_cluster_figures"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "tasks",
        sa.Column("retired_because", sa.String(length=32), nullable=False, server_default=""),
    )


def downgrade() -> None:
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("retired_because")
