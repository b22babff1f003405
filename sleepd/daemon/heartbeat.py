"""The daemon's heartbeat row: lets `status` tell a live daemon from a dead one.

One row per daemon start, updated every HEARTBEAT_INTERVAL_S; a row whose beat
is older than STALE_AFTER_S, or whose pid is gone on this host, is not running.
"""

from __future__ import annotations

import os
import socket
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd import __version__
from sleepd.processes import pid_alive
from sleepd.store.engine import read_session, write_session
from sleepd.store.fastread import as_utc
from sleepd.store.models import DaemonHeartbeat, utcnow

HEARTBEAT_INTERVAL_S = 30.0
STALE_AFTER_S = 120.0


class Heartbeat:
    """Writes this process's heartbeat row."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.row_id: int | None = None
        self.started_at: datetime | None = None

    def start(self, *, watch_mode: str, next_night_at: datetime | None) -> int:
        now = utcnow()
        with write_session(self.engine) as db:
            row = DaemonHeartbeat(
                hostname=socket.gethostname(),
                pid=os.getpid(),
                version=__version__,
                started_at=now,
                heartbeat_at=now,
                state="starting",
                watch_mode=watch_mode,
                next_night_at=next_night_at,
                detail={},
            )
            db.add(row)
            db.flush()
            self.row_id = row.id
        self.started_at = now
        return self.row_id

    def beat(
        self,
        *,
        state: str | None = None,
        watch_mode: str | None = None,
        next_night_at: datetime | None = None,
        detail: dict[str, Any] | None = None,
        stopped: bool = False,
    ) -> None:
        if self.row_id is None:
            return
        with write_session(self.engine) as db:
            row = db.get(DaemonHeartbeat, self.row_id)
            if row is None:
                return
            row.heartbeat_at = utcnow()
            if state is not None:
                row.state = state
            if watch_mode is not None:
                row.watch_mode = watch_mode
            if next_night_at is not None:
                row.next_night_at = next_night_at
            if detail is not None:
                row.detail = {**(row.detail or {}), **detail}
            if stopped:
                row.stopped_at = row.heartbeat_at


def daemon_status(engine: Engine, now: datetime | None = None) -> dict[str, Any]:
    """The latest daemon's state, judged by heartbeat age and (on this host) its pid."""
    now = now or utcnow()
    with read_session(engine) as db:
        row = db.scalar(select(DaemonHeartbeat).order_by(DaemonHeartbeat.id.desc()).limit(1))
        if row is not None:
            db.expunge(row)  # keep the loaded values past the read transaction's rollback
    if row is None:
        return {
            "running": False,
            "state": "never-started",
            "pid": None,
            "hostname": None,
            "last_heartbeat": None,
            "heartbeat_age_s": None,
            "watch_mode": None,
            "next_night_at": None,
        }
    beat_at = as_utc(row.heartbeat_at) or now
    age = (now - beat_at).total_seconds()
    live_state = row.stopped_at is None and row.state not in ("stopped", "failed")
    running = live_state and age <= STALE_AFTER_S
    if running and row.hostname == socket.gethostname():
        running = pid_alive(row.pid)
    state = row.state if running or not live_state else "dead"
    next_night = as_utc(row.next_night_at)
    return {
        "running": running,
        "state": state,
        "pid": row.pid,
        "hostname": row.hostname,
        "last_heartbeat": beat_at.isoformat(),
        "heartbeat_age_s": round(age, 1),
        "watch_mode": row.watch_mode,
        "next_night_at": next_night.isoformat() if next_night else None,
    }
