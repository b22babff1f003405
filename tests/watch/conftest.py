"""A migrated store in the private home (where the CLI finds it), a project with an
AGENTS.md managed section, and the adoption of one learned rule through the real path."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.review.adopt import adopt_proposal
from sleepd.store.engine import read_session
from sleepd.store.fastread import as_utc
from sleepd.store.models import AuditEntry
from tests.staged import stage_proposal

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
            kind="agents",
            simulated=simulated,
            provenance={"clusters": clusters, "tasks": list(tasks)},
        ).proposal_id
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
def cli() -> Any:
    """`sleepd ARGS` in this process through the console script's entry point."""
    from cli_here import sleepd_here

    def _run(*args: str) -> tuple[int, str, str]:
        ran = sleepd_here(*args)
        return ran.returncode, ran.stdout, ran.stderr

    return _run
