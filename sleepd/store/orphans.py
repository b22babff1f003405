"""Close runs whose process died (kill -9, power loss) so nothing stays "running" forever.

Each night and job run records the pid and host that runs it; a later run on
the same host that finds such a row with a dead pid marks it as failed
(`sleepd.store.job_runs.close_orphaned_runs`, here for callers holding an ORM session).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleepd.processes import owner
from sleepd.store.job_runs import DIED
from sleepd.store.job_runs import close_orphaned_runs as close_orphans_in

if TYPE_CHECKING:
    from sqlalchemy.orm import Session as OrmSession

__all__ = ["DIED", "close_orphaned_runs", "owner"]


def close_orphaned_runs(db: OrmSession) -> int:
    from sleepd.store.writedb import EngineWriteDb

    return close_orphans_in(EngineWriteDb(db.connection()))
