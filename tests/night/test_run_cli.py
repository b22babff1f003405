"""`sleepd run` from the command line: a JSON plan, and a clear failure without a backend."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from sleepd.cli.app import app
from sleepd.store.models import JobRun, Night, Rollout

from .support import BackendCapture, add_tasks

SLEEPD = Path(sys.executable).with_name("sleepd")


def test_run_dry_run_json_returns_the_night_id_and_a_plan(
    engine: Engine, project: Path, capture: BackendCapture
) -> None:
    add_tasks(engine, project)
    result = CliRunner().invoke(app, ["run", "--dry-run", "--json"])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    data = json.loads(result.stdout)
    assert data["status"] == "completed"
    [planned] = data["projects"]
    assert planned["project"] == str(project) and planned["status"] == "planned"
    assert planned["plan"]["train_rollouts"] > 0 and planned["plan"]["optimizer_calls"] > 0
    assert capture.built == []
    with Session(engine) as db:
        night = db.get(Night, data["night_id"])
        assert night is not None and night.dry_run and night.status == "completed"
        job = db.scalar(select(JobRun).where(JobRun.night_id == night.id))
        assert job is not None and job.outcome == "ok"
        assert db.scalar(select(Rollout)) is None


def test_run_without_any_backend_fails_with_one_line_reason(engine: Engine, tmp_path: Path) -> None:
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["PATH"] = str(empty_bin)  # no `claude`, no `codex`
    done = subprocess.run(
        [str(SLEEPD), "run", "--backend", "auto"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr
    [reason] = [line for line in lines if "error" in line]
    assert "no model backend available" in reason
    with Session(engine) as db:
        night = db.scalar(select(Night).order_by(Night.id.desc()))
        assert night is not None and night.status == "failed"
        assert "no model backend" in (night.stop_reason or "")
