"""Job-run rows the daemon writes itself: postponed nights and forced stops.

Normal runs are recorded by `sleepd.jobs`; these cover what happens around them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from sleepd.store.engine import write_session
from sleepd.store.models import JobRun, Night, utcnow


def record_skipped_run(
    engine: Engine, job: str, trigger: str, reason: str, detail: dict[str, Any] | None = None
) -> int:
    now = utcnow()
    with write_session(engine) as db:
        row = JobRun(
            job=job,
            trigger=trigger,
            started_at=now,
            ended_at=now,
            outcome="skipped",
            reason=reason,
            detail=detail or {},
        )
        db.add(row)
        db.flush()
        return row.id


def record_forced_stop(engine: Engine, since: datetime, reason: str) -> int:
    """Close night rows a stop interrupted mid-step; returns how many job runs it closed.

    Used only when the night thread did not finish its step before the exit
    deadline: the database keeps every committed step, and says it was stopped.
    """
    now = utcnow()
    with write_session(engine) as db:
        runs = db.scalars(
            select(JobRun).where(
                JobRun.job == "night", JobRun.outcome == "running", JobRun.started_at >= since
            )
        ).all()
        for run in runs:
            run.outcome = "stopped"
            run.reason = reason
            run.ended_at = now
        db.execute(
            update(Night)
            .where(Night.status == "running", Night.started_at >= since)
            .values(status="stopped", stop_reason=reason, ended_at=now)
        )
        return len(runs)
