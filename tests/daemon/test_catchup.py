"""The overdue rule and the history it reads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sleepd.daemon.catchup import (
    NightHistory,
    load_night_history,
    night_overdue,
    succeeded_recently,
)
from sleepd.store.engine import write_session
from sleepd.store.models import DaemonHeartbeat, JobRun

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
GRACE = 6.0


def _h(hours: float) -> datetime:
    return NOW - timedelta(hours=hours)


def test_fresh_install_is_not_overdue() -> None:
    assert not night_overdue(NightHistory(None, None, None), NOW, GRACE).due
    assert not night_overdue(NightHistory(None, None, _h(1)), NOW, GRACE).due


def test_overdue_after_24h_plus_grace_since_last_success() -> None:
    assert not night_overdue(NightHistory(_h(29.9), _h(29.9), _h(100)), NOW, GRACE).due
    verdict = night_overdue(NightHistory(_h(30.1), _h(30.1), _h(100)), NOW, GRACE)
    assert verdict.due and "30.1 h" in verdict.reason


def test_never_succeeded_counts_from_the_first_daemon_start() -> None:
    assert night_overdue(NightHistory(None, None, _h(31)), NOW, GRACE).due
    assert not night_overdue(NightHistory(None, None, _h(29)), NOW, GRACE).due


def test_a_recent_failed_attempt_blocks_a_catch_up_loop() -> None:
    history = NightHistory(_h(72), _h(2), _h(200))  # last success 3 days ago, failed 2 h ago
    verdict = night_overdue(history, NOW, GRACE)
    assert not verdict.due and "attempted" in verdict.reason
    assert night_overdue(NightHistory(_h(72), _h(7), _h(200)), NOW, GRACE).due


def test_grace_is_respected() -> None:
    history = NightHistory(_h(26), _h(26), _h(100))
    assert night_overdue(history, NOW, 0.0).due
    assert not night_overdue(history, NOW, 6.0).due


def test_succeeded_recently() -> None:
    assert succeeded_recently(NightHistory(_h(3), _h(3), None), NOW)
    assert not succeeded_recently(NightHistory(_h(13), _h(13), None), NOW)
    assert not succeeded_recently(NightHistory(None, _h(1), None), NOW)


def test_history_from_job_runs(db_engine: object) -> None:
    with write_session(db_engine) as db:  # type: ignore[arg-type]
        db.add(JobRun(job="night", trigger="schedule", started_at=_h(50), outcome="ok"))
        db.add(JobRun(job="night", trigger="schedule", started_at=_h(26), outcome="failed"))
        db.add(JobRun(job="night", trigger="retry", started_at=_h(5), outcome="skipped"))
        db.add(JobRun(job="harvest", trigger="sweep", started_at=_h(1), outcome="ok"))
        db.add(DaemonHeartbeat(hostname="h", pid=1, version="0", started_at=_h(400)))
        db.add(DaemonHeartbeat(hostname="h", pid=2, version="0", started_at=_h(10)))
    history = load_night_history(db_engine)
    assert history.last_success_at == _h(50)
    assert history.last_attempt_at == _h(26)  # skipped is not an attempt
    assert history.first_daemon_start_at == _h(400)
    assert night_overdue(history, NOW, GRACE).due
