"""Keep what mining stored grouped by project root (`sleepd.projects`).

Episodes, their tasks and failure-pattern occurrences carry the project they were
mined under. That is the project root of the session's recorded cwd, and a root can
change after mining: a database mined before worktrees were grouped, a worktree
removed, a sibling Conductor workspace created. Each mining pass with work to do
checks the stored projects against the roots of the sessions' own paths and moves the
rows that differ, with the scope of their request clusters, so old and new episodes of
one repository count together. The check reads one row per (session path, stored
project) pair; rows are written only when a root changed.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select, update
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.recurrence import COMMAND_SCOPE, CROSS_PROJECT_SCOPE
from sleepd.store.models import Episode, PatternOccurrence, Session, Task, TaskCluster

RootFn = Callable[[str | None], str | None]


def reroot_stored(db: DbSession, root_of: RootFn) -> set[int]:
    """Move stored episodes, tasks and occurrences to their sessions' project roots;
    returns the ids of the request clusters whose members moved (to refresh)."""
    pairs = db.execute(
        select(Session.project_path, Episode.project_path)
        .join(Episode, Episode.session_id == Session.id)
        .distinct()
    ).all()
    touched: set[int] = set()
    moves: list[tuple[str, str]] = []
    for recorded, stored in pairs:
        root = root_of(recorded)
        if root == stored:
            continue
        sessions = select(Session.id).where(Session.project_path.is_not_distinct_from(recorded))
        moved = db.execute(
            select(Episode.id, Episode.cluster_id).where(
                Episode.session_id.in_(sessions),
                Episode.project_path.is_not_distinct_from(stored),
            )
        ).all()
        touched.update(cid for _, cid in moved if cid is not None)
        episode_ids = [eid for eid, _ in moved]
        for start in range(0, len(episode_ids), 500):
            chunk = episode_ids[start : start + 500]
            db.execute(update(Task).where(Task.episode_id.in_(chunk)).values(project_path=root))
            db.execute(
                update(PatternOccurrence)
                .where(PatternOccurrence.episode_id.in_(chunk))
                .values(project_path=root)
            )
            db.execute(update(Episode).where(Episode.id.in_(chunk)).values(project_path=root))
        if (stored or "") != CROSS_PROJECT_SCOPE:
            moves.append((stored or "", root or ""))
    if moves:
        _rescope_clusters(db, moves)
    return touched


def _rescope_clusters(db: DbSession, moves: list[tuple[str, str]]) -> None:
    """Clusters formed within a moved project (a slash command's ones too) follow it, the
    moves applied in order; cross-project ones stay."""
    for cluster in db.scalars(select(TaskCluster)):
        centroid = cluster.centroid or {}
        scope = centroid.get("scope")
        if not isinstance(scope, str):
            continue
        project, mark, command = scope.partition(COMMAND_SCOPE)
        for old, new in moves:
            if project == old:
                project = new
        if f"{project}{mark}{command}" != scope:
            cluster.centroid = {**centroid, "scope": f"{project}{mark}{command}"}
