"""A migrated store in the private home (where the CLI finds it), a project with an
AGENTS.md managed section, and the adoption of one learned rule through the real path."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.documents.versions import content_hash
from sleepd.review.adopt import adopt_proposal
from sleepd.review.textfile import document_diff
from sleepd.store.engine import read_session, write_session
from sleepd.store.fastread import as_utc
from sleepd.store.models import AuditEntry, DocumentVersion, Night, Proposal, TargetDocument

AGENTS_V1 = "# AGENTS.md\n\nBe brief.\n\n<!-- sleepd:begin -->\n<!-- sleepd:end -->\n"
RULE = "- Before deploying, run `make check` and read its last line."


@pytest.fixture
def engine(db_engine: Engine) -> Engine:
    return db_engine


@pytest.fixture
def cfg() -> Config:
    """The config file the CLI reads too: a verdict from 6 episodes a side keeps the
    synthetic histories small."""
    import os

    from sleepd.config import load_config

    Path(os.environ["SLEEPD_CONFIG"]).write_text(
        "[watch]\nmin_episodes = 6\n\n[mining]\nsimilarity_threshold = 0.2\n",
        encoding="utf-8",
    )
    return load_config()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "billing"
    root.mkdir()
    (root / "AGENTS.md").write_text(AGENTS_V1, encoding="utf-8")
    return root


@dataclass
class Adopted:
    proposal_id: int
    document_id: int
    version_id: int
    at: datetime
    path: Path


AdoptFn = Callable[..., Adopted]


def stage_proposal(
    engine: Engine,
    project: Path,
    path: Path,
    new_content: str,
    *,
    kind: str = "agents",
    simulated: bool = False,
    provenance: dict[str, Any] | None = None,
) -> int:
    """A pending proposal as a night stages it (its night, base version, provenance)."""
    base = path.read_text(encoding="utf-8") if path.exists() else ""
    with write_session(engine) as db:
        document = db.query(TargetDocument).filter_by(path=str(path)).one_or_none()
        if document is None:
            document = TargetDocument(
                project_path=str(project),
                path=str(path),
                kind=kind,
                editable="managed_section" if kind != "skill" else "body",
            )
            db.add(document)
            db.flush()
        night = Night(simulated=simulated, status="completed", project_path=str(project))
        db.add(night)
        version = DocumentVersion(
            document_id=document.id,
            content_hash=content_hash(base),
            content=base,
            origin="observed",
        )
        db.add(version)
        db.flush()
        proposal = Proposal(
            night_id=night.id,
            document_id=document.id,
            base_version_id=version.id,
            base_hash=version.content_hash,
            new_content=new_content,
            new_hash=content_hash(new_content),
            diff=document_diff(base, new_content, str(path)),
            p_value=0.004,
            val_lift=0.25,
            simulated=simulated,
            gate={"outcome": "accept"},
            provenance=provenance or {},
        )
        db.add(proposal)
        db.flush()
        return proposal.id


@pytest.fixture
def adopt(engine: Engine, project: Path) -> AdoptFn:
    """Stage and adopt a rule into the project's AGENTS.md through `adopt_proposal`."""

    def _adopt(
        clusters: list[int], *, simulated: bool = False, rule: str = RULE, tasks: Any = ()
    ) -> Adopted:
        path = project / "AGENTS.md"
        live = path.read_text(encoding="utf-8")
        new = live.replace("<!-- sleepd:end -->", f"{rule}\n<!-- sleepd:end -->")
        pid = stage_proposal(
            engine,
            project,
            path,
            new,
            simulated=simulated,
            provenance={"clusters": clusters, "tasks": list(tasks)},
        )
        result = adopt_proposal(engine, pid, actor="tester")
        with read_session(engine) as db:
            entry = db.scalars(
                select(AuditEntry).where(
                    AuditEntry.action == "adopt", AuditEntry.object_id == str(pid)
                )
            ).one()
            at = as_utc(entry.at)
            assert at is not None
        return Adopted(pid, 0, result.adopted_version_id, at, path)

    return _adopt


@pytest.fixture
def cli(capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """`sleepd ARGS` in this process through the real `main()`."""
    from sleepd.cli.app import main

    def _run(*args: str) -> tuple[int, str, str]:
        capfd.readouterr()
        monkeypatch.setattr(sys, "argv", ["sleepd", *args])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capfd.readouterr()
        return code, out, err

    return _run
