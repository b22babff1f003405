"""Close runs whose process died (kill -9, power loss) so nothing stays "running" forever.

Each night and job run records the pid and host that runs it; a later run on
the same host that finds such a row with a dead pid marks it as failed.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from sleepd.processes import owner, pid_alive

__all__ = ["DIED", "close_orphaned_runs", "owner"]
from sleepd.store.models import JobRun, Night, utcnow

DIED = "the process running this died before it finished (killed or crashed)"


def _dead(detail: dict[str, Any] | None) -> bool:
    if not detail or detail.get("host") != socket.gethostname():
        return False
    pid = detail.get("pid")
    if not isinstance(pid, int) or pid == os.getpid():
        return False
    return not pid_alive(pid)


def close_orphaned_runs(db: OrmSession) -> int:
    closed = 0
    for night in db.scalars(select(Night).where(Night.status == "running")):
        if _dead((night.summary or {}).get("owner")):
            night.status, night.stop_reason, night.ended_at = "failed", DIED, utcnow()
            closed += 1
    for run in db.scalars(select(JobRun).where(JobRun.outcome == "running")):
        if _dead((run.detail or {}).get("owner")):
            run.outcome, run.reason, run.ended_at = "failed", DIED, utcnow()
            closed += 1
    return closed
