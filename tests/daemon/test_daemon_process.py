"""`sleepd daemon` as a real process in a temporary home."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from sleepd.daemon.main import STOP_GRACE_S
from sleepd.store.engine import make_engine, read_session, write_session
from sleepd.store.migrate import upgrade
from sleepd.store.models import DaemonHeartbeat, JobRun, Night, utcnow

from .daemon_launcher import STUBBORN_GRACE_S

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).with_name("daemon_launcher.py")
CONFIG = """
[schedule]
harvest_interval_minutes = 1
jitter_minutes = 0
[harvest]
debounce_seconds = 0.2
[backends]
default = "sim"
"""
CLAUDE_LINE = {
    "type": "user",
    "uuid": "0b4f6a43-7c83-4c55-9d0c-1f1b2f0d8a11",
    "parentUuid": None,
    "sessionId": "5e0c7a56-1111-4b4b-9a9a-222233334444",
    "timestamp": "2026-01-05T10:00:00.000Z",
    "cwd": "/home/dev/project",
    "version": "2.0.0",
    "message": {"role": "user", "content": "please add a --json flag to the export command"},
}
pytestmark = pytest.mark.slow


@pytest.fixture
def home(isolated_home: Path) -> Path:
    (isolated_home / "config.toml").write_text(CONFIG)
    (isolated_home / "claude" / "projects" / "-home-dev-project").mkdir(parents=True)
    return isolated_home


@pytest.fixture
def engine(home: Path) -> Iterator[Any]:
    eng = make_engine(f"sqlite:///{home / 'sleepd-home' / 'sleepd.db'}")
    upgrade(eng)
    yield eng
    eng.dispose()


def _start(args: list[str]) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM")}
    return subprocess.Popen(
        [sys.executable, *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def start_daemon() -> subprocess.Popen[str]:
    return _start(["-m", "sleepd.daemon"])


def _wait_for(what: str, check: Callable[[], Any], timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def _wait_running(engine: Any, proc: subprocess.Popen[str]) -> None:
    def running() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"daemon exited early: {proc.communicate()[1]}")
        with read_session(engine) as db:
            return (
                db.scalar(select(DaemonHeartbeat.state).where(DaemonHeartbeat.pid == proc.pid))
                == "running"
            )

    _wait_for("the daemon to start", running, 30)


def _stop(proc: subprocess.Popen[str], timeout: float = 10) -> tuple[int, float, str]:
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        _out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _out, err = proc.communicate()
        raise AssertionError(f"daemon did not exit within {timeout} s: {err}") from None
    return proc.returncode, time.monotonic() - started, err


def _job_runs(engine: Any, **where: Any) -> list[JobRun]:
    with read_session(engine) as db:
        rows = db.scalars(select(JobRun).filter_by(**where).order_by(JobRun.id)).all()
        for row in rows:
            db.expunge(row)
        return list(rows)


def test_live_harvest_second_daemon_refused_and_clean_stop(home: Path, engine: Any) -> None:
    proc = start_daemon()
    try:
        _wait_running(engine, proc)

        second = start_daemon()
        _out, err = second.communicate(timeout=30)
        assert second.returncode == 6
        assert f"pid {proc.pid}" in err and err.count("\n") == 1 and "Traceback" not in err

        transcript = home / "claude" / "projects" / "-home-dev-project" / "s.jsonl"
        appended_at = time.monotonic()
        with transcript.open("a") as fh:
            fh.write(json.dumps(CLAUDE_LINE) + "\n")

        def watch_run() -> JobRun | None:
            for run in _job_runs(engine, job="harvest", trigger="watch"):
                if run.outcome != "running":
                    return run
            return None

        run = _wait_for("a watch-triggered harvest", watch_run, 5)
        assert time.monotonic() - appended_at < 5
        if run.outcome == "ok":  # the harvest itself works: the line is in the database
            assert run.detail, "harvest report missing"
            from sleepd.store.models import Event

            with read_session(engine) as db:
                texts = db.scalars(select(Event.text)).all()
            assert any("--json flag" in (t or "") for t in texts)
        else:
            pytest.xfail(f"watch harvest ran but the harvest pipeline failed: {run.reason}")
    finally:
        code, elapsed, err = _stop(proc)
    assert code == 0, err
    assert elapsed < 10
    with read_session(engine) as db:
        beat = db.scalar(select(DaemonHeartbeat).where(DaemonHeartbeat.pid == proc.pid))
        assert beat is not None and beat.state == "stopped" and beat.stopped_at is not None
        assert beat.watch_mode in ("inotify", "polling")


def _seed_old_success(engine: Any, days: float = 3) -> None:
    old = utcnow() - timedelta(days=days)
    with write_session(engine) as db:
        db.add(JobRun(job="night", trigger="schedule", started_at=old, ended_at=old, outcome="ok"))


def test_overdue_night_runs_on_start_and_sigterm_stops_it_cleanly(engine: Any) -> None:
    _seed_old_success(engine)
    proc = _start([str(LAUNCHER), "cooperative"])
    try:
        _wait_running(engine, proc)

        def night_started() -> bool:
            with read_session(engine) as db:
                return bool(
                    db.scalar(select(Night.tasks_replayed).where(Night.trigger == "catchup"))
                )

        _wait_for("the catch-up night to make progress", night_started, 20)
    finally:
        code, elapsed, err = _stop(proc)
    assert code == 0, err
    assert elapsed < 10
    [run] = _job_runs(engine, job="night", trigger="catchup")
    assert run.outcome == "stopped" and run.ended_at is not None
    with read_session(engine) as db:
        night = db.scalar(select(Night).where(Night.trigger == "catchup"))
        assert night is not None
        assert night.status == "stopped" and night.ended_at is not None
        beat = db.scalar(select(DaemonHeartbeat).where(DaemonHeartbeat.pid == proc.pid))
        assert beat is not None and beat.state == "stopped"


def test_stuck_night_is_recorded_as_stopped_and_exit_is_still_prompt(engine: Any) -> None:
    # The launcher's daemon waits STUBBORN_GRACE_S for the stuck night, not the service's
    # STOP_GRACE_S: the stop takes the grace plus the daemon's own shutdown work, and the
    # service's grace plus that same work must stay inside the 10 s a stop may take.
    _seed_old_success(engine)
    proc = _start([str(LAUNCHER), "stubborn"])
    try:
        _wait_running(engine, proc)
        _wait_for(
            "the stuck night to start",
            lambda: _job_runs(engine, job="night", trigger="catchup", outcome="running"),
            20,
        )
    finally:
        code, elapsed, err = _stop(proc)
    assert code == 0, err
    assert elapsed >= STUBBORN_GRACE_S  # it did wait for the night before giving up
    assert STOP_GRACE_S + (elapsed - STUBBORN_GRACE_S) < 10
    assert f"did not finish within {STUBBORN_GRACE_S:g} s" in err
    [run] = _job_runs(engine, job="night", trigger="catchup")
    assert run.outcome == "stopped" and "SIGTERM" in (run.reason or "")
    with read_session(engine) as db:
        night = db.scalar(select(Night).where(Night.trigger == "catchup"))
        assert night is not None and night.status == "stopped"


def test_no_catch_up_when_a_night_succeeded_yesterday(engine: Any) -> None:
    _seed_old_success(engine, days=0.5)
    proc = _start([str(LAUNCHER), "cooperative", "verbose"])
    try:
        _wait_running(engine, proc)  # the start's catch-up verdict comes before "running"
    finally:
        code, _elapsed, err = _stop(proc)
    assert code == 0, err
    [verdict] = [line for line in err.splitlines() if "catch-up check (start)" in line]
    assert " DEBUG " in verdict  # a verdict of "not due" is logged at DEBUG, "due" at INFO
    assert _job_runs(engine, job="night", trigger="catchup") == []


@pytest.mark.skipif(
    importlib.util.find_spec("sleepd.dream.night") is None,
    reason="the real night (sleepd.dream.night) is not in this build yet",
)
def test_real_command_runs_an_overdue_night_on_start(engine: Any) -> None:
    _seed_old_success(engine)
    proc = start_daemon()
    try:
        _wait_running(engine, proc)
        _wait_for(
            "a catch-up night row",
            lambda: _job_runs(engine, job="night", trigger="catchup"),
            20,
        )
    finally:
        code, _elapsed, err = _stop(proc, timeout=15)
    assert code == 0, err
