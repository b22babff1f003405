"""APScheduler 3.x wiring: the nightly cron, the harvest sweep, one-off runs.

In-memory job store (the database's job_runs, not APScheduler, is the memory of
what ran); coalesce + max_instances=1 so a backlog never runs twice at once; a
generous misfire grace so a night delayed by a suspend still runs when it can.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sleepd.config import ScheduleConfig

NIGHT_JOB = "night"
SWEEP_JOB = "harvest-sweep"
CATCHUP_JOB = "night-catchup"
RETRY_JOB = "night-retry"
SWEEP_JITTER_S = 30


def _timezone(schedule: ScheduleConfig) -> Any:
    if schedule.timezone == "local":
        from tzlocal import get_localzone

        return get_localzone()
    from zoneinfo import ZoneInfo

    return ZoneInfo(schedule.timezone)


def build_scheduler(max_workers: int = 4) -> Any:
    from apscheduler.executors.pool import ThreadPoolExecutor
    from apscheduler.jobstores.memory import MemoryJobStore
    from apscheduler.schedulers.background import BackgroundScheduler

    return BackgroundScheduler(
        jobstores={"default": MemoryJobStore()},
        executors={"default": ThreadPoolExecutor(max_workers)},
        job_defaults={"coalesce": True, "max_instances": 1},
        daemon=True,
    )


def night_trigger(schedule: ScheduleConfig) -> Any:
    from apscheduler.triggers.cron import CronTrigger

    hour, minute = (int(part) for part in schedule.time.split(":"))
    return CronTrigger(
        hour=hour,
        minute=minute,
        timezone=_timezone(schedule),
        jitter=int(schedule.jitter_minutes * 60) or None,
    )


def sweep_trigger(schedule: ScheduleConfig) -> Any:
    from apscheduler.triggers.interval import IntervalTrigger

    seconds = schedule.harvest_interval_minutes * 60
    return IntervalTrigger(seconds=seconds, jitter=min(SWEEP_JITTER_S, seconds // 10) or None)


def apply_schedule(
    scheduler: Any,
    schedule: ScheduleConfig,
    *,
    night: Callable[[str], None],
    sweep: Callable[[str], None],
    sweep_now: bool,
) -> None:
    """(Re)schedule the nightly run and the sweep; safe to call again after a reload."""
    scheduler.add_job(
        night,
        night_trigger(schedule),
        args=["schedule"],
        id=NIGHT_JOB,
        name="nightly run",
        replace_existing=True,
        coalesce=True,
        max_instances=1,
        misfire_grace_time=max(1, int(schedule.misfire_grace_hours * 3600)),
    )
    extra: dict[str, Any] = {}
    if sweep_now:
        extra["next_run_time"] = datetime.now().astimezone()
    scheduler.add_job(
        sweep,
        sweep_trigger(schedule),
        args=["sweep"],
        id=SWEEP_JOB,
        name="harvest sweep",
        replace_existing=True,
        coalesce=True,
        max_instances=1,
        misfire_grace_time=schedule.harvest_interval_minutes * 60,
        **extra,
    )


def run_once(
    scheduler: Any, func: Callable[[str], None], job_id: str, trigger: str, delay_s: float = 0
) -> None:
    """A one-off run (catch-up, retry) on the scheduler's pool; replaces a pending one."""
    when = datetime.now().astimezone() + timedelta(seconds=delay_s)
    scheduler.add_job(
        func,
        "date",
        run_date=when,
        args=[trigger],
        id=job_id,
        replace_existing=True,
        coalesce=True,
        max_instances=1,
        misfire_grace_time=None,
    )


def next_night_at(scheduler: Any) -> datetime | None:
    job = scheduler.get_job(NIGHT_JOB)
    return getattr(job, "next_run_time", None) if job is not None else None
