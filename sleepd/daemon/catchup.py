"""The overdue rule: when a missed night should run now rather than wait a day.

Pure functions over a small history summary, so the rule is tested without a
clock or a database; `load_night_history` reads that summary from the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sleepd.store.fastread import as_utc

NIGHT_PERIOD = timedelta(hours=24)
#: After any real attempt (even a failed one) wait this long before catching up again,
#: so a night that keeps failing cannot loop and spend the budget every hour.
RETRY_AFTER = timedelta(hours=6)
#: A scheduled night this soon after a successful one is skipped (never twice a day).
RECENT_SUCCESS = timedelta(hours=12)
SUCCESS_OUTCOMES = frozenset({"ok"})
NOT_AN_ATTEMPT = frozenset({"skipped"})


@dataclass(frozen=True)
class NightHistory:
    last_success_at: datetime | None
    last_attempt_at: datetime | None
    first_daemon_start_at: datetime | None


@dataclass(frozen=True)
class Verdict:
    due: bool
    reason: str


def night_overdue(history: NightHistory, now: datetime, grace_hours: float) -> Verdict:
    """Overdue: no success within 24 h + grace of the last success (or of the first start).

    A brand-new install is never overdue (its anchor is the daemon's first start),
    so installing sleepd does not spend money at once; the schedule comes first.
    """
    anchor = history.last_success_at or history.first_daemon_start_at
    if anchor is None:
        return Verdict(False, "no night history yet")
    limit = NIGHT_PERIOD + timedelta(hours=grace_hours)
    age = now - anchor
    what = "last successful night" if history.last_success_at else "first daemon start"
    if age <= limit:
        return Verdict(False, f"{what} {_hours(age)} ago is within {_hours(limit)}")
    if history.last_attempt_at is not None and now - history.last_attempt_at < RETRY_AFTER:
        return Verdict(
            False, f"overdue, but a night was attempted {_hours(now - history.last_attempt_at)} ago"
        )
    return Verdict(True, f"{what} was {_hours(age)} ago (limit {_hours(limit)})")


def succeeded_recently(history: NightHistory, now: datetime) -> bool:
    return history.last_success_at is not None and now - history.last_success_at < RECENT_SUCCESS


def _hours(delta: timedelta) -> str:
    return f"{delta.total_seconds() / 3600:.1f} h"


def load_night_history(engine: Any) -> NightHistory:
    """Summarise `job_runs` (every night, however started) and the daemon's first start."""
    from sqlalchemy import func, select

    from sleepd.store.engine import read_session
    from sleepd.store.models import DaemonHeartbeat, JobRun

    with read_session(engine) as db:
        last_success = db.scalar(
            select(func.max(JobRun.started_at)).where(
                JobRun.job == "night", JobRun.outcome.in_(SUCCESS_OUTCOMES)
            )
        )
        last_attempt = db.scalar(
            select(func.max(JobRun.started_at)).where(
                JobRun.job == "night", JobRun.outcome.not_in(NOT_AN_ATTEMPT)
            )
        )
        first_start = db.scalar(select(func.min(DaemonHeartbeat.started_at)))
    return NightHistory(as_utc(last_success), as_utc(last_attempt), as_utc(first_start))
