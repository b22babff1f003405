"""mining: a session that carries on another's conversation names where it began

A kind of request recurs when it was asked in two sessions or more; one session asking
again is working on the same thing. A conversation resumed or forked into a new file is
one conversation in two sessions, so a request asked again after the resume counted two
sessions and looked recurring, and made a task. A session that carries on another's
conversation now names the session that conversation began in, and a cluster counts
conversations (`mining.recurrence`); on a team's PostgreSQL the figures function counts
them so too. Sessions read before this revision name none until they are read again (the
mining code's digest changes with it, so the next pass reads every session again). On
SQLite the sessions table is copied (a row per session); the events are not.

Revision ID: 0030_session_conversation
Revises: 0029_episode_carries_on
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0030_session_conversation"
down_revision: str | None = "0029_episode_carries_on"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FK = "fk_sessions_conversation_session_id_sessions"
_INDEX = "ix_sessions_conversation_session_id"
#: `0024_team_cluster_figures`'s function, with the sessions it counts (`{sessions}`)
_FIGURES = """
CREATE OR REPLACE FUNCTION sleepd_cluster_figures(wanted integer[])
RETURNS TABLE (
    cluster_id integer,
    size bigint,
    sessions bigint,
    first_seen timestamptz,
    last_seen timestamptz,
    scored double precision,
    known bigint,
    projects text[]
)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, public
AS $$
    SELECT e.cluster_id,
           count(e.id),
           count(DISTINCT {sessions}),
           min(e.started_at),
           max(e.started_at),
           sum(CASE e.outcome WHEN 'success' THEN 1.0 WHEN 'mixed' THEN 0.5 ELSE 0.0 END),
           sum(CASE WHEN e.outcome IN ('success', 'failure', 'mixed') THEN 1 ELSE 0 END),
           array_remove(array_agg(DISTINCT e.project_path), NULL)
    FROM public.episodes e
    JOIN public.sessions s ON s.id = e.session_id
    WHERE e.cluster_id = ANY (wanted)
    GROUP BY e.cluster_id
$$
"""


def upgrade() -> None:
    # (SQLite cannot add a reference to a table in place: batch mode copies `sessions`)
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("conversation_session_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            _FK, "sessions", ["conversation_session_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index(_INDEX, ["conversation_session_id"])
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        conversation = "coalesce(s.conversation_session_id, e.session_id)"
        bind.exec_driver_sql(_FIGURES.format(sessions=conversation))


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        bind.exec_driver_sql(_FIGURES.format(sessions="e.session_id"))
    with op.batch_alter_table("sessions") as batch:
        batch.drop_index(_INDEX)
        batch.drop_constraint(_FK, type_="foreignkey")
        batch.drop_column("conversation_session_id")
