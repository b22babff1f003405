"""The daemon's scheduled night runs tools mode too, and leaves the user's tree alone.

The same world as `test_tools_night` (Codex sessions at a recorded commit of a real git
repository with a real test suite, run by `python -m unittest` here, simulated `claude`
and `codex` on PATH), but the night is the one the daemon's scheduler starts:
`Daemon.night("schedule")` with the daemon's own job functions
(`sleepd.jobs.run_night_job`), on its night thread.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from sleepd.config import load_config
from sleepd.daemon.main import Daemon, default_jobs
from sleepd.daemon.notify import Notifier
from sleepd.store.engine import read_session
from sleepd.store.models import JobRun, Night, Proposal, Rollout

from .conftest import tree_digest
from .test_tools_night import tools_world

pytestmark = pytest.mark.slow


def test_the_daemons_scheduled_night_replays_with_tools_and_keeps_the_tree(
    agents: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db_engine: Any
) -> None:
    # The suite runs as `python -m unittest` here (as in `sleepd demo`), a tenth of
    # pytest's start-up per rollout: what this test adds to test_tools_night is the
    # daemon's path to the night, not the runner, which test_tools_night covers.
    world = tools_world(tmp_path, monkeypatch, runner="unittest")
    cfg = load_config()
    assert cfg.replay.mode == "tools" and cfg.backends.default == "sim"
    before = tree_digest(world.repo)

    daemon = Daemon(
        cfg, db_engine, jobs=default_jobs(), notifier=Notifier(None), roots_for=lambda _c: []
    )
    daemon.scheduler.start(paused=True)  # the real job store; the night is fired by hand
    try:
        daemon.night("schedule")
    finally:
        daemon.scheduler.shutdown(wait=False)

    assert tree_digest(world.repo) == before  # the user's tree and .git, byte for byte
    home = Path(os.environ["SLEEPD_HOME"])
    assert list((home / "replay-checkouts").iterdir()) == []
    with read_session(db_engine) as db:
        [job] = db.scalars(select(JobRun).where(JobRun.job == "night")).all()
        [night] = db.scalars(select(Night)).all()
        proposals = [p.new_content for p in db.scalars(select(Proposal))]
        tool_rollouts = [
            r.judge_detail
            for r in db.scalars(select(Rollout))
            if (r.judge_detail or {}).get("mode") == "tools"
        ]
        summary = dict(night.summary or {})
        trigger, outcome = night.trigger, job.outcome
        why = (job.reason, night.stop_reason)
    assert trigger == "schedule" and outcome == "ok", why
    [project] = summary["projects"]
    assert project["replay"]["used"] == "tools", project
    assert project["status"] == "staged" and len(proposals) == 1
    assert "pytest -q" in proposals[0]
    assert {d["consumer"] for d in tool_rollouts} == {"claude", "codex"}
    runs = [json.loads(p.read_text()) for p in agents.glob("*.json")]
    assert runs and all(Path(r["cwd"]).resolve() != world.repo.resolve() for r in runs)
