"""`sleepd nights`: one row per night, with stable keys so the JSONL is a training log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sleepd.store.fastread import as_reader, stored_bool, stored_datetime, stored_json

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


#: The night's stored figures, selected in this order by `_NIGHT_SQL`.
_FIGURES = (
    "tasks_replayed",
    "candidates_proposed",
    "accepted",
    "rejected",
    "inconclusive",
    "val_before",
    "val_after",
    "test_before",
    "test_after",
    "rollouts",
    "tokens",
    "cost_usd",
)
_NIGHT_SQL = (
    "SELECT id, started_at, ended_at, status, stop_reason, trigger, project_path, backend, "
    f"simulated, dry_run, {', '.join(_FIGURES)}, summary "
    "FROM nights ORDER BY started_at DESC, id DESC"
)
_ADOPTED_SQL = (
    "SELECT night_id, COUNT(id) FROM proposals "
    "WHERE status = 'accepted' AND night_id IS NOT NULL GROUP BY night_id"
)


def _row(values: Sequence[Any], adopted: int) -> dict[str, Any]:
    (
        night_id,
        started,
        ended,
        status,
        stop_reason,
        trigger,
        project,
        backend,
        simulated,
        dry_run,
        *figures,
        summary,
    ) = values
    started_at = stored_datetime(started)
    ended_at = stored_datetime(ended)
    assert started_at is not None
    duration = round((ended_at - started_at).total_seconds(), 3) if ended_at is not None else None
    row = {
        "id": night_id,
        "started_at": started_at.isoformat(),
        "ended_at": ended_at.isoformat() if ended_at else None,
        "duration_s": duration,
        "status": status,
        "stop_reason": stop_reason,
        "trigger": trigger,
        "project": project,
        "backend": backend,
        "simulated": stored_bool(simulated),
        "dry_run": stored_bool(dry_run),
        **dict(zip(_FIGURES, figures, strict=True)),
        "adopted": adopted,
    }
    row["replay_mode"], row["low_fidelity_excluded"] = replay_of(stored_json(summary))
    assert row.keys() == set(NIGHT_KEYS)
    return {key: row[key] for key in NIGHT_KEYS}  # the documented key order


def night_rows(db: Any, *, limit: int | None = None) -> list[dict[str, Any]]:
    """The last `limit` nights, oldest first (the order of a log).

    `db` is a `sleepd.store.fastread` reader or a SQLAlchemy engine."""
    reader = as_reader(db)
    sql = _NIGHT_SQL + (" LIMIT :limit" if limit is not None else "")
    nights = reader.rows(sql, {"limit": limit} if limit is not None else {})
    adopted = {int(night_id): int(count) for night_id, count in reader.rows(_ADOPTED_SQL)}
    return [_row(n, adopted.get(int(n[0]), 0)) for n in reversed(nights)]
