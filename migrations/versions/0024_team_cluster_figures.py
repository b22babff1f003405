"""mining: a cluster's figures count every member's episodes on a team's PostgreSQL

Issue #14: a kind of request recurs when it was asked at least `mining.min_recurrence`
times in two sessions or more, and a team shares one PostgreSQL so that one night learns
from everyone's recurring tasks (docs/team.md). But episodes are each member's own
(row-level security, `0008_pg_team`), and a mining pass recomputed a cluster's size,
sessions, projects and success rate from the episodes its member may read: the same
request asked by two people made a cluster of size 1, whoever refreshed it last, and
never a task. This function gives the figures over every member's episodes, and nothing
else of them: it runs as the owner of the tables (`SECURITY DEFINER`, a fixed
`search_path`), returns counts, times, project paths (which clusters already share) and
success sums per cluster asked for, and reads no text.

PostgreSQL only; SQLite has one owner. Downgrade drops the function.

Revision ID: 0024_team_cluster_figures
Revises: 0023_file_reading_rules
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0024_team_cluster_figures"
down_revision: str | None = "0023_file_reading_rules"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FUNCTION = "sleepd_cluster_figures"
CREATE = f"""
CREATE OR REPLACE FUNCTION {FUNCTION}(wanted integer[])
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
           count(DISTINCT e.session_id),
           min(e.started_at),
           max(e.started_at),
           sum(CASE e.outcome WHEN 'success' THEN 1.0 WHEN 'mixed' THEN 0.5 ELSE 0.0 END),
           sum(CASE WHEN e.outcome IN ('success', 'failure', 'mixed') THEN 1 ELSE 0 END),
           array_remove(array_agg(DISTINCT e.project_path), NULL)
    FROM public.episodes e
    WHERE e.cluster_id = ANY (wanted)
    GROUP BY e.cluster_id
$$
"""


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    # left executable by every role that may connect (PostgreSQL's default for a function):
    # docs/team.md lets only the team connect, and the figures are the clusters' own
    bind.exec_driver_sql(CREATE)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        bind.exec_driver_sql(f"DROP FUNCTION IF EXISTS {FUNCTION}(integer[])")
