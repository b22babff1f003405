"""Which sessions read a document: a skill only when its transcript shows it loaded;
AGENTS.md is read by every Codex session and by no Claude Code session."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.store.fastread import ReadOnlyDb
from sleepd.watch.linking import Document, changes, documents, link_sessions
from tests.staged import stage_proposal

from .conftest import AdoptFn
from .sessions import DEPLOY, claude_session, codex_session, harvest_and_mine


def _reader(engine: Engine) -> ReadOnlyDb:
    return ReadOnlyDb(engine.url.render_as_string(hide_password=False))


def test_skill_loading_and_agents_md_readers(
    engine: Engine, cfg: Config, project: Path, adopt: AdoptFn
) -> None:
    skill = project / ".claude" / "skills" / "sleepd-learned" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: sleepd-learned\ndescription: lessons\n---\n# Learned\n")
    from sleepd.review.adopt import adopt_proposal

    body = skill.read_text() + "- Run `make check` first.\n"
    staged = stage_proposal(engine, project, skill, body, editable="body")
    adopt_proposal(engine, staged.proposal_id, actor="tester")
    agents = adopt([])
    start = agents.at + timedelta(minutes=1)
    by_tool = claude_session(project, start, DEPLOY[0], success=True, skill="sleepd-learned")
    typed = claude_session(
        project, start, DEPLOY[1], success=True, skill="sleepd-learned", typed_command=True
    )
    other = claude_session(project, start, DEPLOY[2], success=True, skill="another-skill")
    plain = claude_session(project, start, DEPLOY[0], success=False)
    codex = codex_session(project, start, DEPLOY[1], success=True)
    elsewhere = codex_session(project.parent / "other", start, DEPLOY[1], success=True)
    before = codex_session(project, agents.at - timedelta(days=1), DEPLOY[1], success=True)
    harvest_and_mine(engine, cfg, datetime.now(UTC) + timedelta(days=1))

    db = _reader(engine)
    docs = {Path(d.path).name: d for d in documents(db)}
    ids = _external_ids(engine)

    def exposures(document: Document) -> dict[str, tuple[str, int | None]]:
        return {
            ids[s.id]: (s.exposure, s.version_id)
            for s in link_sessions(db, document, changes(db, document.id))
        }

    skill_links = exposures(docs["SKILL.md"])
    assert skill_links[by_tool.stem][0] == "loaded"
    assert skill_links[typed.stem][0] == "loaded"
    assert skill_links[other.stem][0] == "not_loaded"
    assert skill_links[plain.stem][0] == "not_loaded"
    assert _codex_id(elsewhere) not in skill_links  # another project
    agents_links = exposures(docs["AGENTS.md"])
    assert agents_links[plain.stem][0] == "not_a_reader"
    assert agents_links[_codex_id(codex)] == ("every_session", agents.version_id)
    assert agents_links[_codex_id(before)] == ("every_session", None)  # before the adoption


def _codex_id(path: Path) -> str:
    """The session id at the end of `rollout-<time>-<id>.jsonl`."""
    return path.stem.split("-", 6)[-1]


def _external_ids(engine: Engine) -> dict[int, str]:
    from sqlalchemy import select

    from sleepd.store.engine import read_session
    from sleepd.store.models import Session

    with read_session(engine) as db:
        return {i: e for i, e in db.execute(select(Session.id, Session.external_id))}


def test_sessions_in_the_projects_worktrees_count_for_it(engine: Engine, tmp_path: Path) -> None:
    from sqlalchemy import text

    from sleepd.watch.linking import project_sessions
    from tests.git_repos import git, repo_with_commit

    repo = repo_with_commit(tmp_path / "code" / "billing")
    workspace = tmp_path / "conductor" / "workspaces" / "billing" / "davao"
    git(repo, "worktree", "add", "-q", "-b", "davao", str(workspace))
    paths = {
        1: repo,
        2: repo / "web",
        3: workspace,
        4: workspace.parent / "amman",  # an archived sibling workspace
        5: tmp_path / "code" / "billing-old",  # a look-alike name, another project
    }
    with engine.begin() as conn:
        for sid, path in paths.items():
            conn.execute(
                text(
                    "INSERT INTO sessions (id, source, external_id, kind, event_count, meta, "
                    "mined_through_seq, created_at, updated_at, project_path, started_at) "
                    "VALUES (:i, 'claude', :e, 'main', 0, '{}', 0, '2026-01-01', "
                    "'2026-01-01', :p, '2026-01-02 00:00:00')"
                ),
                {"i": sid, "e": f"s{sid}", "p": str(path)},
            )
    found = {sid for sid, _source, _at in project_sessions(_reader(engine), str(repo))}
    assert found == {1, 2, 3, 4}
