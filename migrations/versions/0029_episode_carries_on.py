"""mining: an episode that carries on another session's request names it

A conversation resumed or forked into a new file goes on with the request its first file
ended in. That request's episode ended where its file did, so its outcome was the file's
ending: a request that failed at the resume and was fixed in the new file read as a
failure, and made a failure task. The episode that carries the request on in the new
file now names the request's episode, and the outcome read over both files is that
episode's (`mining.read_back`). Episodes read before this revision name none until their
sessions are read again (the mining code's digest changes with it, so the next pass
reads every session again). On SQLite the episodes table is copied (a row per request);
the events are not.

Revision ID: 0029_episode_carries_on
Revises: 0028_cursors_read_on
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029_episode_carries_on"
down_revision: str | None = "0028_cursors_read_on"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FK = "fk_episodes_carries_on_episode_id_episodes"


def upgrade() -> None:
    # (SQLite cannot add a reference to a table in place: batch mode copies `episodes`,
    # a row per request, never the events)
    with op.batch_alter_table("episodes") as batch:
        batch.add_column(sa.Column("carries_on_episode_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            _FK, "episodes", ["carries_on_episode_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_episodes_carries_on_episode_id", ["carries_on_episode_id"])


def downgrade() -> None:
    with op.batch_alter_table("episodes") as batch:
        batch.drop_index("ix_episodes_carries_on_episode_id")
        batch.drop_constraint(_FK, type_="foreignkey")
        batch.drop_column("carries_on_episode_id")
