"""The daemon's night rules, in process: never twice, postpone politely, catch up."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from sleepd.config import Config
from sleepd.daemon import main as daemon_main
from sleepd.daemon import scheduler as sched
from sleepd.daemon.main import Daemon, DaemonJobs
from sleepd.daemon.notify import Notifier
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import DaemonHeartbeat, JobRun, utcnow


class Recorder:
    def __init__(self) -> None:
        self.nights: list[dict[str, Any]] = []
        self.harvests: list[dict[str, Any]] = []
        self.started = threading.Event()  # a night has begun
        self.release = threading.Event()  # nights may end (cleared: they wait for the test)
        self.release.set()

    def night(self, engine: Any, cfg: Any, *, trigger: str, stop: Any = None) -> int:
        self.nights.append({"trigger": trigger, "stop": stop, "thread": threading.current_thread()})
        self.started.set()
        self.release.wait(120)  # the test sets it; the bound only ends a test that hangs
        return 1

    def harvest(self, engine: Any, cfg: Any, *, trigger: str, paths: Any = None) -> int:
        self.harvests.append({"trigger": trigger, "paths": paths})
        return 1


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def daemon(db_engine: Any, recorder: Recorder) -> Iterator[Daemon]:
    d = Daemon(
        Config(),
        db_engine,
        jobs=DaemonJobs(harvest=recorder.harvest, night=recorder.night),
        notifier=Notifier(None),
        roots_for=lambda _cfg: [],
    )
    d.scheduler.start(paused=True)  # real job store behaviour, but nothing fires
    yield d
    d.scheduler.shutdown(wait=False)


def _runs(engine: Any) -> list[tuple[str, str, str | None]]:
    with read_session(engine) as db:
        return [
            (r.trigger, r.outcome, r.reason)
            for r in db.scalars(select(JobRun).where(JobRun.job == "night").order_by(JobRun.id))
        ]


def _add_success(engine: Any, hours_ago: float) -> None:
    at = utcnow() - timedelta(hours=hours_ago)
    with write_session(engine) as db:
        db.add(JobRun(job="night", trigger="schedule", started_at=at, ended_at=at, outcome="ok"))


def test_scheduled_night_runs_on_its_own_thread_with_the_stop_event(
    daemon: Daemon, recorder: Recorder
) -> None:
    daemon.night("schedule")
    [call] = recorder.nights
    assert call["trigger"] == "schedule"
    assert call["stop"] is daemon.stop_night
    assert call["thread"].name == "sleepd-night"


def test_scheduled_night_skipped_after_a_recent_success(
    daemon: Daemon, recorder: Recorder, db_engine: Any
) -> None:
    _add_success(db_engine, hours_ago=2)
    daemon.night("schedule")
    assert recorder.nights == []
    [(trigger, outcome, reason)] = _runs(db_engine)[1:]
    assert (trigger, outcome) == ("schedule", "skipped") and "already succeeded" in (reason or "")


def test_a_second_night_while_one_runs_is_skipped(
    daemon: Daemon, recorder: Recorder, db_engine: Any
) -> None:
    recorder.release.clear()
    first = threading.Thread(target=daemon.night, args=("schedule",))
    first.start()
    try:
        assert recorder.started.wait(120), "the scheduled night never began"
        daemon.night("catchup")  # while the first is still running, whatever the machine's speed
    finally:
        recorder.release.set()
        first.join(120)
    assert [n["trigger"] for n in recorder.nights] == ["schedule"]
    assert ("catchup", "skipped", "another night is already running") in _runs(db_engine)


def test_on_battery_the_night_is_postponed_and_retried(
    daemon: Daemon, recorder: Recorder, db_engine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    daemon.cfg.schedule.only_on_ac_power = True
    monkeypatch.setattr(daemon_main, "postpone_reason", lambda **_k: "on battery power")
    daemon.night("schedule")
    assert recorder.nights == []
    [(_trigger, outcome, reason)] = _runs(db_engine)
    assert outcome == "skipped" and reason == "postponed: on battery power"
    retry = daemon.scheduler.get_job(sched.RETRY_JOB)
    assert retry is not None and retry.args == ("retry",)

    # Past the misfire grace the daemon gives up instead of retrying forever.
    assert daemon._postponed_since is not None
    daemon._postponed_since -= timedelta(hours=daemon.cfg.schedule.misfire_grace_hours + 1)
    daemon.scheduler.remove_job(sched.RETRY_JOB)
    daemon.night("retry")
    assert "gave up" in (_runs(db_engine)[-1][2] or "")
    assert daemon.scheduler.get_job(sched.RETRY_JOB) is None


def test_catch_up_is_scheduled_only_when_overdue(daemon: Daemon, db_engine: Any) -> None:
    with write_session(db_engine) as db:
        db.add(
            DaemonHeartbeat(
                hostname="h", pid=1, version="0", started_at=utcnow() - timedelta(days=5)
            )
        )
    _add_success(db_engine, hours_ago=20)
    assert daemon.maybe_catch_up("start") is False
    assert daemon.scheduler.get_job(sched.CATCHUP_JOB) is None
    _add_success(db_engine, hours_ago=0)  # irrelevant order: newest wins
    with write_session(db_engine) as db:
        for run in db.scalars(select(JobRun)):
            run.started_at = utcnow() - timedelta(hours=40)
    assert daemon.maybe_catch_up("clock jump") is True
    job = daemon.scheduler.get_job(sched.CATCHUP_JOB)
    assert job is not None and job.args == ("catchup",)


def test_schedule_uses_config_time_and_timezone(daemon: Daemon) -> None:
    daemon.cfg.schedule.time = "04:15"
    daemon.cfg.schedule.timezone = "Europe/Berlin"
    daemon.cfg.schedule.jitter_minutes = 0
    daemon._schedule(sweep_now=False)
    trigger = daemon.scheduler.get_job(sched.NIGHT_JOB).trigger
    nxt = trigger.get_next_fire_time(None, utcnow())
    assert (nxt.hour, nxt.minute, str(nxt.tzinfo)) == (4, 15, "Europe/Berlin")
    job = daemon.scheduler.get_job(sched.NIGHT_JOB)
    assert job.coalesce is True and job.max_instances == 1
    assert job.misfire_grace_time == int(daemon.cfg.schedule.misfire_grace_hours * 3600)


def test_watch_harvest_passes_the_changed_paths(daemon: Daemon, recorder: Recorder) -> None:
    daemon.harvest_changed(["/t/a.jsonl", "/t/b.jsonl"])
    assert recorder.harvests == [{"trigger": "watch", "paths": ["/t/a.jsonl", "/t/b.jsonl"]}]


def test_reload_reschedules_from_the_config_file(
    daemon: Daemon, isolated_home: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleepd.config import load_config

    daemon._load_config = load_config
    daemon._schedule(sweep_now=False)
    (isolated_home / "config.toml").write_text(
        '[schedule]\ntime = "05:05"\njitter_minutes = 0\ntimezone = "UTC"\n'
    )
    daemon.reload()
    nxt = daemon.scheduler.get_job(sched.NIGHT_JOB).trigger.get_next_fire_time(None, utcnow())
    assert (nxt.hour, nxt.minute) == (5, 5)

    (isolated_home / "config.toml").write_text('[schedule]\ntime = "25:99"\n')
    daemon.reload()  # a bad file keeps the running config
    assert daemon.cfg.schedule.time == "05:05"
