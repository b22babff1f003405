"""daemon_status tells a live daemon from a dead or stopped one."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from datetime import timedelta
from typing import Any

from sleepd.daemon import daemon_status as lazy_daemon_status
from sleepd.daemon.heartbeat import Heartbeat, daemon_status
from sleepd.store.engine import write_session
from sleepd.store.models import DaemonHeartbeat, utcnow


def test_never_started(db_engine: Any) -> None:
    status = daemon_status(db_engine)
    assert status["running"] is False and status["state"] == "never-started"
    assert lazy_daemon_status is daemon_status


def test_live_beat_then_stop(db_engine: Any) -> None:
    beat = Heartbeat(db_engine)
    nxt = utcnow() + timedelta(hours=5)
    beat.start(watch_mode="off", next_night_at=nxt)
    beat.beat(state="running", watch_mode="inotify")
    status = daemon_status(db_engine)
    assert status["running"] is True
    assert status["pid"] == os.getpid()
    assert status["watch_mode"] == "inotify"
    assert status["next_night_at"] == nxt.isoformat()
    beat.beat(state="stopped", stopped=True)
    status = daemon_status(db_engine)
    assert status["running"] is False and status["state"] == "stopped"


def test_stale_heartbeat_is_dead(db_engine: Any) -> None:
    with write_session(db_engine) as db:
        old = utcnow() - timedelta(minutes=10)
        db.add(
            DaemonHeartbeat(
                hostname=socket.gethostname(),
                pid=os.getpid(),
                version="0",
                started_at=old,
                heartbeat_at=old,
                state="running",
            )
        )
    status = daemon_status(db_engine)
    assert status["running"] is False and status["state"] == "dead"


def test_fresh_heartbeat_of_a_vanished_pid_is_dead(db_engine: Any) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    gone_pid = int(proc.stdout)
    with write_session(db_engine) as db:
        db.add(
            DaemonHeartbeat(
                hostname=socket.gethostname(), pid=gone_pid, version="0", state="running"
            )
        )
    assert daemon_status(db_engine)["running"] is False


def test_other_host_is_judged_by_age_alone(db_engine: Any) -> None:
    with write_session(db_engine) as db:
        db.add(
            DaemonHeartbeat(hostname="elsewhere.invalid", pid=999999, version="0", state="running")
        )
    status = daemon_status(db_engine)
    assert status["running"] is True and status["hostname"] == "elsewhere.invalid"
