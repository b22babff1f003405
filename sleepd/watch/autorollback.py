"""Optional auto-rollback: undo an adoption the watch finds "looks worse" (off by default).

Only with `watch.auto_rollback = true`; never for an adoption whose proposal came from a
simulated night (the simulator is a test double: its results decide nothing about real
work), and never over a hand edit (the live document must still be the adopted version).
The rollback is the ordinary `review.rollback` (backed up, atomic, recoverable after a
kill); a `watch_rollback` audit entry records why, with the figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine

from sleepd.review.records import audit
from sleepd.review.rollback import execute_rollback, plan_rollback
from sleepd.review.textfile import read_live
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import DocumentVersion
from sleepd.watch.linking import EngineReader
from sleepd.watch.report import AdoptionWatch, WatchSettings, in_force_worse, watch_adoptions

ACTOR = "sleepd-watch"


@dataclass(frozen=True)
class AutoRollback:
    proposal_id: int | None
    path: str
    action: str  # "rolled back" or "left alone"
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def auto_rollback(engine: Engine, cfg: Any, *, now: datetime | None = None) -> list[AutoRollback]:
    """Roll back every adoption in force that looks worse, when the config allows it."""
    if not cfg.watch.auto_rollback:
        return []
    watches = watch_adoptions(EngineReader(engine), WatchSettings.from_config(cfg), now=now)
    return [_one(engine, w) for w in in_force_worse(watches)]


def _one(engine: Engine, watch: AdoptionWatch) -> AutoRollback:
    if watch.simulated:
        return AutoRollback(
            watch.proposal_id,
            watch.path,
            "left alone",
            "adopted from a simulated night: never rolled back automatically",
        )
    with read_session(engine) as db:
        version = db.get(DocumentVersion, watch.version_id) if watch.version_id else None
        adopted_hash = version.content_hash if version is not None else None
    if read_live(watch.path).hash != adopted_hash:
        return AutoRollback(
            watch.proposal_id,
            watch.path,
            "left alone",
            "the document changed since the adoption (a hand edit): roll back by hand",
        )
    plan = plan_rollback(engine, target_path=watch.path)
    result = execute_rollback(engine, plan, actor=ACTOR)
    with write_session(engine) as db:
        audit(
            db,
            actor=ACTOR,
            action="watch_rollback",
            object_type="proposal",
            object_id=watch.proposal_id,
            detail={
                "path": watch.path,
                "reason": watch.reason,
                "target": watch.target.to_dict(),
                "others": watch.others.to_dict(),
                "restored_version_id": result.restored_version_id,
                "backup_version_id": result.backup_version_id,
            },
        )
    return AutoRollback(watch.proposal_id, watch.path, "rolled back", watch.reason)
