"""Auto-rollback is off by default, never touches a simulated proposal, and is audited."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.store.engine import read_session
from sleepd.store.models import AuditEntry
from sleepd.watch.autorollback import auto_rollback

from .conftest import AGENTS_V1, RULE, AdoptFn
from .test_regression_watch import run_scenario


def _audits(engine: Engine, action: str) -> list[AuditEntry]:
    with read_session(engine) as db:
        rows = list(db.scalars(select(AuditEntry).where(AuditEntry.action == action)))
        db.expunge_all()
        return rows


@pytest.mark.parametrize("simulated", [False, True])
def test_a_worse_adoption_is_rolled_back_only_when_allowed_and_real(
    simulated: bool, engine: Engine, cfg: Config, project: Path, adopt: AdoptFn
) -> None:
    def adopt_as(clusters: list[int]) -> object:
        return adopt(clusters, simulated=simulated)

    adopted, _ = run_scenario(engine, cfg, project, adopt_as, "worse")  # type: ignore[arg-type]
    agents = project / "AGENTS.md"
    assert RULE in agents.read_text()
    assert auto_rollback(engine, cfg) == []  # off by default
    cfg.watch.auto_rollback = True
    (done,) = auto_rollback(engine, cfg)
    if simulated:
        assert done.action == "left alone" and "simulated" in done.reason
        assert RULE in agents.read_text() and _audits(engine, "watch_rollback") == []
        return
    assert done.action == "rolled back" and done.proposal_id == adopted.proposal_id
    assert agents.read_text() == AGENTS_V1
    (entry,) = _audits(engine, "watch_rollback")
    assert entry.actor == "sleepd-watch" and entry.object_id == str(adopted.proposal_id)
    assert entry.detail["target"]["verdict"] == "looks worse"
    assert len(_audits(engine, "rollback")) == 1
    assert auto_rollback(engine, cfg) == []  # no longer in force: nothing more to do


def test_a_hand_edit_since_the_adoption_is_left_alone(
    engine: Engine, cfg: Config, project: Path, adopt: AdoptFn
) -> None:
    run_scenario(engine, cfg, project, adopt, "worse")
    agents = project / "AGENTS.md"
    agents.write_text(agents.read_text() + "\nA note by hand.\n")
    cfg.watch.auto_rollback = True
    (done,) = auto_rollback(engine, cfg)
    assert done.action == "left alone" and "hand edit" in done.reason
    assert "A note by hand." in agents.read_text()
