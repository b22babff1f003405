"""Run the real daemon loop with a stand-in night, for tests that need a long night.

Usage: python daemon_launcher.py cooperative|stubborn [verbose]
  cooperative: a night of many short steps that checks the stop event between them
  stubborn:    a night stuck in one long step (ignores the stop event); the daemon
               waits STUBBORN_GRACE_S for it, not the service's STOP_GRACE_S, so the
               test does not sit through the full grace for a job that never ends
The harvest job is the real one.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

from sleepd import jobs
from sleepd.daemon.main import STOP_GRACE_S, DaemonJobs, run_daemon
from sleepd.store.engine import write_session
from sleepd.store.models import Night, utcnow

STEPS = 600
STEP_S = 0.1
STUBBORN_GRACE_S = 1.0


def stand_in_night(
    engine: Any, cfg: Any, *, trigger: str, stop: threading.Event | None = None
) -> int:
    stubborn = sys.argv[1] == "stubborn"
    with jobs.recorded_job(engine, "night", trigger) as job:
        with write_session(engine) as db:
            night = Night(trigger=trigger, status="running", simulated=True)
            db.add(night)
            db.flush()
            night_id = night.id
        job.night_id = night_id
        for _step in range(STEPS):
            if stubborn:
                time.sleep(60)
            if stop is not None and stop.is_set():
                with write_session(engine) as db:
                    row = db.get(Night, night_id)
                    assert row is not None
                    row.status, row.stop_reason, row.ended_at = (
                        "stopped",
                        "stop requested",
                        utcnow(),
                    )
                job.outcome, job.reason = "stopped", "stop requested"
                return job.run_id
            with write_session(engine) as db:
                row = db.get(Night, night_id)
                assert row is not None
                row.tasks_replayed += 1
            time.sleep(STEP_S)
        with write_session(engine) as db:
            row = db.get(Night, night_id)
            assert row is not None
            row.status, row.ended_at = "ok", utcnow()
    return job.run_id


if __name__ == "__main__":
    sys.exit(
        run_daemon(
            verbose="verbose" in sys.argv[2:],  # logs every catch-up verdict
            jobs=DaemonJobs(harvest=jobs.run_harvest_job, night=stand_in_night),
            stop_grace_s=STUBBORN_GRACE_S if sys.argv[1] == "stubborn" else STOP_GRACE_S,
        )
    )
