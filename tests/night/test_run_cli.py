"""`sleepd run` from the command line: a JSON plan, and a clear failure without a backend."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
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
    result = CliRunner().invoke(app, ["run", "--dry-run", "--json", "--backend", "sim"])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    data = json.loads(result.stdout)
    assert data["status"] == "completed"
    [planned] = data["projects"]
    assert planned["project"] == str(project) and planned["status"] == "planned"
    assert planned["plan"]["train_rollouts"] > 0 and planned["plan"]["optimizer_calls"] > 0
    assert planned["plan"]["backend_usable"] is True
    assert planned["plan"]["forecast_usd"] is not None
    assert "validation tasks x" in planned["plan"]["detect_sentence"]
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
        # Refused before it started: no night exists, the job run says why.
        assert db.scalar(select(Night)) is None
        job = db.scalar(select(JobRun).where(JobRun.job == "night"))
        assert job is not None and job.outcome == "refused"
        assert "no model backend" in (job.reason or "")


def _no_backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir(exist_ok=True)
    for key in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("PATH", str(empty_bin))  # no `claude`, no `codex`


def test_dry_run_says_plainly_that_no_backend_is_usable(
    engine: Engine,
    project: Path,
    tmp_path: Path,
    capture: BackendCapture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    add_tasks(engine, project)
    _no_backend(monkeypatch, tmp_path)
    result = CliRunner().invoke(app, ["run", "--dry-run", "--backend", "auto"])
    out = result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), out
    assert result.exit_code != 0, out  # the real run would fail: the dry run says so
    assert "no backend is usable" in out.lower(), out
    assert "validation tasks x" in out, out
    data = CliRunner().invoke(app, ["run", "--dry-run", "--backend", "auto", "--json"])
    [planned] = json.loads(data.stdout)["projects"]
    assert planned["plan"]["backend_usable"] is False
    assert "no model backend" in planned["plan"]["backend_problem"]
    assert planned["plan"]["forecast_usd"] is None


def test_status_check_reports_a_night_that_could_not_start(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_backend(monkeypatch, tmp_path)
    refused = CliRunner().invoke(app, ["run", "--backend", "auto"])
    assert refused.exit_code != 0
    done = CliRunner().invoke(app, ["status", "--check", "--json"])
    assert done.exit_code != 0
    report = json.loads(done.stdout)
    failures = " ".join(report["check"]["failures"])
    assert "could not start" in failures and "no model backend" in failures


def test_two_simulated_runs_in_one_home_both_complete(
    engine: Engine, project: Path, capture: BackendCapture
) -> None:
    """The simulator's batch ids are unique: a second run must not hit the unique constraint."""
    add_tasks(engine, project)
    for _ in range(2):
        result = CliRunner().invoke(app, ["run", "--backend", "sim", "--json"])
        assert result.exit_code in (0, 4), (result.stdout, result.stderr, result.exception)
        assert json.loads(result.stdout)["status"] in ("completed", "stopped")
    with Session(engine) as db:
        nights = list(db.scalars(select(Night)))
        assert len(nights) == 2 and all(n.status != "failed" for n in nights)
