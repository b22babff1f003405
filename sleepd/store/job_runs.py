"""The `job_runs` rows of the pipeline's jobs, as plain SQL on a `WriteDb`.

`sleepd.jobs.recorded_job` starts and finishes every job's row through these, so a
harvest on a SQLite file records its run without importing SQLAlchemy. Starting a
run first closes runs whose process died (`close_orphaned_runs`), as every job does.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from sleepd.processes import pid_alive
from sleepd.store.fastread import stored_json
from sleepd.store.writedb import WriteDb, utcnow

DIED = "the process running this died before it finished (killed or crashed)"


def _dead(detail: Any) -> bool:
    """Whether the run's recorded owner was a process on this host that is gone."""
    if not isinstance(detail, dict) or detail.get("host") != socket.gethostname():
        return False
    pid = detail.get("pid")
    if not isinstance(pid, int) or pid == os.getpid():
        return False
    return not pid_alive(pid)


def close_orphaned_runs(db: WriteDb) -> int:
    """Mark failed the nights and job runs still "running" whose process died."""
    now = utcnow()
    closed = 0
    for night_id, summary in db.rows("SELECT id, summary FROM nights WHERE status = 'running'"):
        if _dead((stored_json(summary) or {}).get("owner")):
            db.run(
                "UPDATE nights SET status = 'failed', stop_reason = :why, ended_at = :now "
                "WHERE id = :id",
                {"why": DIED, "now": now, "id": night_id},
            )
            closed += 1
    for run_id, detail in db.rows("SELECT id, detail FROM job_runs WHERE outcome = 'running'"):
        if _dead((stored_json(detail) or {}).get("owner")):
            db.run(
                "UPDATE job_runs SET outcome = 'failed', reason = :why, ended_at = :now "
                "WHERE id = :id",
                {"why": DIED, "now": now, "id": run_id},
            )
            closed += 1
    return closed


def start_run(db: WriteDb, job: str, trigger: str, owner: dict[str, Any]) -> int:
    """A "running" row for a job that starts now; its id."""
    close_orphaned_runs(db)
    run_id = db.scalar(
        "INSERT INTO job_runs (job, trigger, started_at, outcome, detail) "
        "VALUES (:job, :trigger, :now, 'running', :detail) RETURNING id",
        {"job": job, "trigger": trigger, "now": utcnow(), "detail": {"owner": owner}},
    )
    return int(run_id)


def finish_run(
    db: WriteDb,
    run_id: int,
    outcome: str,
    reason: str | None,
    detail: dict[str, Any],
    night_id: int | None,
) -> None:
    db.run(
        "UPDATE job_runs SET ended_at = :now, outcome = :outcome, reason = :reason, "
        "detail = :detail, night_id = :night WHERE id = :id",
        {
            "now": utcnow(),
            "outcome": outcome,
            "reason": reason,
            "detail": detail,
            "night": night_id,
            "id": run_id,
        },
    )
