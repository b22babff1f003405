"""Mining groups a repository's worktrees into one project, and regroups stored rows."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.dream.staging import projects_with_tasks
from sleepd.mining.figures import task_rows, top_patterns
from sleepd.mining.mine import mine
from sleepd.readiness import project_readiness
from sleepd.search import EngineReader
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import Episode, PatternOccurrence, Task, TaskCluster
from tests.git_repos import git, repo_with_commit

from .builders import LATER, T0, SessionBuilder


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return repo_with_commit(tmp_path / "code" / "app")


def install_session(
    engine: Engine, cwd: Path | str, day: int, intent: str, remote: str | None = None
) -> None:
    b = SessionBuilder(project=str(cwd), start=T0 + timedelta(days=day))
    if remote is not None:
        b.session_meta["repository_url"] = remote  # as Codex records it
    b.prompt(intent).bash("npm install", "EACCES: permission denied", exit_code=1)
    b.bash("pnpm install", "done").prompt("thanks, works now")
    b.save(engine)


def stored_projects(engine: Engine) -> dict[str, set[str | None]]:
    with read_session(engine) as db:
        return {
            "episodes": set(db.scalars(select(Episode.project_path))),
            "tasks": set(db.scalars(select(Task.project_path))),
            "occurrences": set(db.scalars(select(PatternOccurrence.project_path))),
            "scopes": {(c.centroid or {}).get("scope") for c in db.scalars(select(TaskCluster))},
        }


def all_under(project: str) -> dict[str, set[str | None]]:
    """What `stored_projects` reads when every row was mined under `project`."""
    return {key: {project} for key in ("episodes", "tasks", "occurrences", "scopes")}


@pytest.mark.both_dbs
def test_sessions_in_worktrees_are_one_project(
    engine: Engine, cfg: Config, repo: Path, tmp_path: Path
) -> None:
    linked = tmp_path / "conductor" / "workspaces" / "app" / "davao"
    git(repo, "worktree", "add", "-q", "-b", "davao", str(linked))
    install_session(engine, repo, 0, "install the dependencies with pnpm")
    install_session(engine, linked, 1, "please install deps via pnpm")
    install_session(engine, repo / ".claude" / "worktrees" / "gone", 2, "install deps using pnpm")
    report = mine(engine, cfg, now=LATER)
    assert report.recurring_clusters == 1 and report.tasks_new == 3
    assert stored_projects(engine) == all_under(str(repo))
    (row,) = project_readiness(EngineReader(engine), cfg)
    assert (row.project, row.sessions, row.total) == (str(repo), 3, 3)
    with read_session(engine) as db:
        # naming the worktree picks the repository's tasks and patterns
        assert projects_with_tasks(db, str(linked), 1) == [str(repo)]
    assert len(task_rows(engine, min_recurrence=2, project=str(linked))) == 3
    (pattern,) = top_patterns(engine, project=str(linked), now=LATER)
    assert pattern.count == 3


def test_rows_stored_under_a_worktree_move_to_the_repository(
    engine: Engine, cfg: Config, repo: Path
) -> None:
    worktree = repo / ".worktrees" / "feature" / "login"
    install_session(engine, worktree, 0, "install the dependencies with pnpm")
    install_session(engine, repo, 1, "please install deps via pnpm")
    mine(engine, cfg, now=LATER)
    with write_session(engine) as db:  # as a sleepd that did not group worktrees stored them
        for model in (Episode, Task, PatternOccurrence):
            db.execute(update(model).values(project_path=str(worktree)))
        for cluster in db.scalars(select(TaskCluster)):
            cluster.centroid = {**(cluster.centroid or {}), "scope": str(worktree)}
    install_session(engine, repo, 2, "install deps using pnpm")
    report = mine(engine, cfg, now=LATER)
    assert report.clusters_new == 0  # the new request joined the moved cluster
    assert stored_projects(engine) == all_under(str(repo))
    with read_session(engine) as db:
        (cluster,) = db.scalars(select(TaskCluster))
        assert cluster.projects == [str(repo)] and cluster.size == 3


@pytest.mark.both_dbs
def test_removed_codex_worktrees_join_the_checkout_of_their_remote(
    engine: Engine, cfg: Config, repo: Path, tmp_path: Path
) -> None:
    """Codex's worktrees are gone once their tasks end, and nothing in their path names
    the checkout; the remote every session recorded does."""
    gone = tmp_path / ".codex" / "worktrees"
    install_session(
        engine, gone / "a80e" / "app", 0, "install the dependencies", "https://github.com/o/app.git"
    )
    install_session(
        engine, gone / "4af4" / "app", 1, "please install deps", "git@github.com:o/app.git"
    )
    report = mine(engine, cfg, now=LATER)
    assert stored_projects(engine)["episodes"] == {str(gone / "app")}  # no checkout known yet
    assert report.tasks_new == 2
    install_session(engine, repo, 2, "install deps again", "https://github.com/O/app")
    mine(engine, cfg, now=LATER)
    assert stored_projects(engine) == all_under(str(repo))
    (row,) = project_readiness(EngineReader(engine), cfg)
    assert (row.project, row.sessions, row.total) == (str(repo), 3, 3)
    # naming a removed worktree names the checkout it joined
    assert len(task_rows(engine, min_recurrence=2, project=str(gone / "ffff" / "app"))) == 3
    with read_session(engine) as db:
        assert projects_with_tasks(db, str(gone / "a80e" / "app"), 1) == [str(repo)]
