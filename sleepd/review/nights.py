"""`sleepd nights`: one row per night, with stable keys so the JSONL is a training log."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from sleepd.store.engine import read_session
from sleepd.store.models import Night, Proposal

#: The keys of every row, in order; scripts may rely on them.
NIGHT_KEYS = (
    "id",
    "started_at",
    "ended_at",
    "duration_s",
    "status",
    "stop_reason",
    "trigger",
    "project",
    "backend",
    "simulated",
    "dry_run",
    "tasks_replayed",
    "candidates_proposed",
    "accepted",
    "rejected",
    "inconclusive",
    "adopted",
    "val_before",
    "val_after",
    "test_before",
    "test_after",
    "rollouts",
    "tokens",
    "cost_usd",
    "replay_mode",
    "low_fidelity_excluded",
)


def replay_of(summary: dict[str, Any] | None) -> tuple[str | None, int]:
    """The night's replay mode (text, tools or mixed) and its low-fidelity exclusions."""
    projects = (summary or {}).get("projects") or []
    used: set[str] = set()
    excluded = 0
    for project in projects if isinstance(projects, list) else []:
        replay = project.get("replay") if isinstance(project, dict) else None
        if isinstance(replay, dict) and replay.get("used"):
            used.add(str(replay["used"]))
            fidelity = replay.get("fidelity") or {}
            excluded += int(fidelity.get("excluded_low_fidelity") or 0)
    if not used:
        return None, excluded
    return (used.pop() if len(used) == 1 else "mixed"), excluded


def _row(night: Night, adopted: int) -> dict[str, Any]:
    duration = (
        round((night.ended_at - night.started_at).total_seconds(), 3)
        if night.ended_at is not None
        else None
    )
    row = {
        "id": night.id,
        "started_at": night.started_at.isoformat(),
        "ended_at": night.ended_at.isoformat() if night.ended_at else None,
        "duration_s": duration,
        "status": night.status,
        "stop_reason": night.stop_reason,
        "trigger": night.trigger,
        "project": night.project_path,
        "backend": night.backend,
        "simulated": night.simulated,
        "dry_run": night.dry_run,
        "tasks_replayed": night.tasks_replayed,
        "candidates_proposed": night.candidates_proposed,
        "accepted": night.accepted,
        "rejected": night.rejected,
        "inconclusive": night.inconclusive,
        "adopted": adopted,
        "val_before": night.val_before,
        "val_after": night.val_after,
        "test_before": night.test_before,
        "test_after": night.test_after,
        "rollouts": night.rollouts,
        "tokens": night.tokens,
        "cost_usd": night.cost_usd,
    }
    row["replay_mode"], row["low_fidelity_excluded"] = replay_of(night.summary)
    assert tuple(row) == NIGHT_KEYS
    return row


def night_rows(engine: Engine, *, limit: int | None = None) -> list[dict[str, Any]]:
    """The last `limit` nights, oldest first (the order of a log)."""
    with read_session(engine) as db:
        query = select(Night).order_by(Night.started_at.desc(), Night.id.desc())
        if limit is not None:
            query = query.limit(limit)
        nights = list(db.scalars(query))
        counts = db.execute(
            select(Proposal.night_id, func.count(Proposal.id))
            .where(Proposal.status == "accepted", Proposal.night_id.is_not(None))
            .group_by(Proposal.night_id)
        )
        adopted = {night_id: count for night_id, count in counts}
        return [_row(n, int(adopted.get(n.id, 0))) for n in reversed(nights)]
