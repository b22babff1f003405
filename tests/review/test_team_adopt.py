"""Many machines, one database: a proposal is written only where its project exists and
is the same repository; reviewing it works from any machine."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.engine import Engine

from sleepd.documents.identity import repo_identity
from sleepd.errors import ConflictError
from sleepd.review.adopt import adopt_proposal, reject_proposal
from sleepd.store.engine import write_session
from sleepd.store.models import TargetDocument

from .conftest import SKILL_V1, CliFn, StageFn

NEW = SKILL_V1.replace("Run the tests first.", "Run `make test` first.")


def _git_repo(path: Path, message: str) -> str:
    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=path, check=True, capture_output=True,
        )  # fmt: skip

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", message)
    identity = repo_identity(path)
    assert identity is not None and len(identity) == 40
    return identity


def _record(engine: Engine, document_id: int, identity: str | None) -> None:
    with write_session(engine) as db:
        db.execute(
            update(TargetDocument)
            .where(TargetDocument.id == document_id)
            .values(repo_identity=identity)
        )


def test_accept_writes_only_into_the_same_repository(
    engine: Engine, stage: StageFn, project: Path, skill_path: Path
) -> None:
    identity = _git_repo(project, "first")
    staged = stage(skill_path, NEW)
    _record(engine, staged.document_id, "0" * 40)  # the night saw another repository
    with pytest.raises(ConflictError, match="not the repository"):
        adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert skill_path.read_text() == SKILL_V1  # nothing written

    _record(engine, staged.document_id, identity)
    adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert skill_path.read_text() == NEW


def test_a_machine_without_the_project_can_review_but_not_write(
    engine: Engine, stage: StageFn, project: Path, skill_path: Path, cli: CliFn
) -> None:
    staged = stage(skill_path, NEW)
    other = stage(skill_path, NEW.replace("Fridays", "weekends"))
    shutil.rmtree(project)  # this machine has no checkout of it
    with pytest.raises(ConflictError, match="not on this machine"):
        adopt_proposal(engine, staged.proposal_id, actor="alice")
    assert not project.exists()
    listed = cli("review", "list", "--json")
    assert listed.returncode == 0
    assert {p["id"] for p in json.loads(listed.stdout)} >= {staged.proposal_id, other.proposal_id}
    assert cli("review", "show", str(staged.proposal_id)).returncode == 0
    reject_proposal(engine, other.proposal_id, actor="bob", reason="not for us")
