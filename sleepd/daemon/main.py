"""The daemon loop: lock, schedule, watch, beat, catch up, stop cleanly.

The main thread only sleeps on an event and does cheap periodic work (heartbeat,
systemd watchdog ping, wake-from-suspend check, watcher health); jobs run on the
scheduler's pool and each night on a fresh low-priority thread.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sleepd import paths
from sleepd.config import Config, load_config
from sleepd.daemon import scheduler as sched
from sleepd.daemon.catchup import load_night_history, night_overdue, succeeded_recently
from sleepd.daemon.clock import ClockJumpDetector
from sleepd.daemon.debounce import Debouncer
from sleepd.daemon.etiquette import lower_thread_priority, postpone_reason
from sleepd.daemon.heartbeat import HEARTBEAT_INTERVAL_S, Heartbeat
from sleepd.daemon.lock import DaemonLock
from sleepd.daemon.logging_setup import configure_logging
from sleepd.daemon.notify import Notifier
from sleepd.daemon.records import record_forced_stop, record_skipped_run
from sleepd.daemon.signals import SignalFlags
from sleepd.daemon.watcher import TranscriptWatcher
from sleepd.errors import ConfigError, ExitCode
from sleepd.store.models import utcnow

log = logging.getLogger("sleepd.daemon")

#: SIGTERM must end the process well inside systemd's TimeoutStopSec (30 s) and our 10 s.
STOP_GRACE_S = 8.0
RETRY_POSTPONED_S = 30 * 60
DAEMON_TRIGGERS = ("schedule", "catchup", "retry", "sweep", "watch")

HarvestFn = Callable[..., int]
NightFn = Callable[..., int]


@dataclass
class DaemonJobs:
    """The job functions the daemon runs (sleepd.jobs by default; tests inject others)."""

    harvest: HarvestFn
    night: NightFn


def default_jobs() -> DaemonJobs:
    from sleepd import jobs

    return DaemonJobs(harvest=jobs.run_harvest_job, night=jobs.run_night_job)


def watch_roots(cfg: Config) -> list[Any]:
    from sleepd.sources import enabled_sources, roots_for

    return [root for source in enabled_sources(cfg) for root in roots_for(source, cfg)]


class Daemon:
    def __init__(
        self,
        cfg: Config,
        engine: Any,
        *,
        jobs: DaemonJobs,
        notifier: Notifier,
        config_loader: Callable[[], Config] = load_config,
        roots_for: Callable[[Config], list[Any]] = watch_roots,
        stop_grace_s: float = STOP_GRACE_S,
    ) -> None:
        self.cfg = cfg
        self.engine = engine
        self.jobs = jobs
        self.notifier = notifier
        self._load_config = config_loader
        self._roots_for = roots_for
        #: How long a stop waits for a running job before recording it as stopped.
        self.stop_grace_s = stop_grace_s
        self.flags = SignalFlags()
        self.stop_night = threading.Event()
        self.heartbeat = Heartbeat(engine)
        self.scheduler = sched.build_scheduler()
        self.watcher: TranscriptWatcher | None = None
        self.debouncer: Debouncer | None = None
        self._harvest_lock = threading.Lock()
        self._night_lock = threading.Lock()
        self._night_thread: threading.Thread | None = None
        self._postponed_since: datetime | None = None
        self._clock = ClockJumpDetector()
        self.started_at = utcnow()
        #: Set when a job met SQLite's corruption errors: the daemon stops writing and exits.
        self.damaged: str | None = None

    def _stop_if_damaged(self, exc: BaseException) -> None:
        """A damaged database stops the daemon (exit 8) before anything writes to it again."""
        from sleepd.store.integrity import is_corruption, mark_damaged, sqlite_cause

        cause = sqlite_cause(exc)
        if cause is None or not is_corruption(cause):
            return
        where = mark_damaged(str(cause))
        self.damaged = f"the database {where or ''} is damaged ({cause}); run `sleepd db check`"
        log.error("%s; stopping without writing to it", self.damaged)
        self.flags.request_stop("database damaged")

    # --- jobs ------------------------------------------------------------------

    def sweep(self, trigger: str) -> None:
        with self._harvest_lock:
            if self.flags.stop_signal:
                return
            try:
                self.jobs.harvest(self.engine, self.cfg, trigger=trigger, paths=None)
            except Exception as exc:
                self._stop_if_damaged(exc)
                raise

    def harvest_changed(self, changed: list[str]) -> None:
        with self._harvest_lock:
            if self.flags.stop_signal:
                return
            log.info("harvesting %d changed file(s)", len(changed))
            try:
                self.jobs.harvest(self.engine, self.cfg, trigger="watch", paths=changed)
            except Exception as exc:
                self._stop_if_damaged(exc)
                raise

    def night(self, trigger: str) -> None:
        """Run one night unless one is running, one just succeeded, or etiquette says wait."""
        if self.flags.stop_signal:
            return
        if not self._night_lock.acquire(blocking=False):
            record_skipped_run(self.engine, "night", trigger, "another night is already running")
            return
        try:
            now = utcnow()
            history = load_night_history(self.engine)
            if trigger != "catchup" and succeeded_recently(history, now):
                assert history.last_success_at is not None
                record_skipped_run(
                    self.engine,
                    "night",
                    trigger,
                    f"a night already succeeded at {history.last_success_at.isoformat()}",
                )
                return
            if self._postpone(trigger, now):
                return
            self._postponed_since = None
            self.notifier.status(f"night running ({trigger})")
            thread = threading.Thread(
                target=self._night_body, args=(trigger,), name="sleepd-night", daemon=True
            )
            self._night_thread = thread
            thread.start()
            thread.join()
        finally:
            self._night_lock.release()
            self.notifier.status(self._status_line())

    def _night_body(self, trigger: str) -> None:
        applied = lower_thread_priority()
        log.info("night starting (trigger %s; %s)", trigger, ", ".join(applied) or "priority kept")
        try:
            run_id = self.jobs.night(self.engine, self.cfg, trigger=trigger, stop=self.stop_night)
            log.info("night finished (job_run %s)", run_id)
        except Exception as exc:
            self._stop_if_damaged(exc)
            log.exception("night failed")

    def _postpone(self, trigger: str, now: datetime) -> bool:
        s = self.cfg.schedule
        reason = postpone_reason(
            only_on_ac_power=s.only_on_ac_power,
            only_when_idle=s.only_when_idle,
            idle_cpu_percent=s.idle_cpu_percent,
        )
        if reason is None:
            return False
        since = self._postponed_since or now
        if now - since >= timedelta(hours=s.misfire_grace_hours):
            self._postponed_since = None
            record_skipped_run(
                self.engine, "night", trigger, f"gave up after waiting since {since}: {reason}"
            )
            log.warning("night given up: %s", reason)
            return True
        self._postponed_since = since
        record_skipped_run(
            self.engine, "night", trigger, f"postponed: {reason}", {"retry_in_s": RETRY_POSTPONED_S}
        )
        log.info("night postponed %d min: %s", RETRY_POSTPONED_S // 60, reason)
        sched.run_once(self.scheduler, self.night, sched.RETRY_JOB, "retry", RETRY_POSTPONED_S)
        return True

    def maybe_catch_up(self, why: str) -> bool:
        if self._night_lock.locked() or self.flags.stop_signal:
            return False
        verdict = night_overdue(
            load_night_history(self.engine), utcnow(), self.cfg.schedule.catchup_grace_hours
        )
        log.log(
            logging.INFO if verdict.due else logging.DEBUG,
            "catch-up check (%s): %s",
            why,
            verdict.reason,
        )
        if verdict.due:
            sched.run_once(self.scheduler, self.night, sched.CATCHUP_JOB, "catchup")
        return verdict.due

    # --- lifecycle -----------------------------------------------------------------

    def _start_watcher(self) -> str:
        if not self.cfg.harvest.watch:
            return "off"
        self.debouncer = Debouncer(self.harvest_changed, self.cfg.harvest.debounce_seconds)
        self.debouncer.start()
        self.watcher = TranscriptWatcher(self._roots_for(self.cfg), self.debouncer.add)
        return self.watcher.start()

    def _stop_watcher(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        if self.debouncer is not None:
            self.debouncer.stop()
            self.debouncer = None

    @property
    def watch_mode(self) -> str:
        return self.watcher.mode if self.watcher is not None else "off"

    def _status_line(self) -> str:
        nxt = sched.next_night_at(self.scheduler)
        when = nxt.isoformat(timespec="minutes") if nxt else "none"
        return f"idle; watch {self.watch_mode}; next night {when}"

    def _schedule(self, *, sweep_now: bool) -> None:
        sched.apply_schedule(
            self.scheduler,
            self.cfg.schedule,
            night=self.night,
            sweep=self.sweep,
            sweep_now=sweep_now,
        )

    def reload(self) -> None:
        try:
            cfg = self._load_config()
        except ConfigError as exc:
            log.error("config reload failed, keeping the old config: %s", exc)
            return
        self.cfg = cfg
        self._schedule(sweep_now=False)
        self._stop_watcher()
        self._start_watcher()
        log.info("config reloaded; %s", self._status_line())
        self.heartbeat.beat(watch_mode=self.watch_mode, next_night_at=self._next_night())
        self.notifier.status(self._status_line())

    def _next_night(self) -> datetime | None:
        return sched.next_night_at(self.scheduler)

    def _tick(self) -> None:
        jump = self._clock.check()
        if jump is not None:
            log.info("wall clock jumped %+.0f s (suspend/resume?); re-checking schedule", jump)
            self.scheduler.wakeup()
            self.maybe_catch_up("clock jump")
        if self.watcher is not None and self.watcher.check():
            sched.run_once(self.scheduler, self.sweep, "sweep-new-root", "sweep")
        self.heartbeat.beat(
            state="running",
            watch_mode=self.watch_mode,
            next_night_at=self._next_night(),
            detail={"night_running": self._night_lock.locked()},
        )

    def run(self) -> int:
        self.flags.install()
        from apscheduler.events import EVENT_JOB_MISSED

        def on_missed(event: Any) -> None:
            # Job errors are logged (with traceback) by APScheduler's executor itself.
            log.warning("job %s missed its time", event.job_id)
            if event.job_id == sched.NIGHT_JOB:
                self.maybe_catch_up("missed")

        self.scheduler.add_listener(on_missed, EVENT_JOB_MISSED)
        self._schedule(sweep_now=True)
        self.scheduler.start()
        self.heartbeat.start(watch_mode="off", next_night_at=self._next_night())
        mode = self._start_watcher()
        self.maybe_catch_up("start")
        self.heartbeat.beat(state="running", watch_mode=mode, next_night_at=self._next_night())
        self.notifier.ready(self._status_line())
        log.info("sleepd daemon started (pid %d); %s", os.getpid(), self._status_line())
        tick_s = HEARTBEAT_INTERVAL_S
        watchdog_s = self.notifier.watchdog_interval_s()
        if watchdog_s is not None:
            tick_s = min(tick_s, watchdog_s)
        next_beat = time.monotonic() + HEARTBEAT_INTERVAL_S
        while self.flags.stop_signal is None:
            self.flags.wake.wait(tick_s)
            self.flags.wake.clear()
            if self.flags.stop_signal is not None:
                break
            self.notifier.watchdog()
            if self.flags.reload:
                self.flags.reload = False
                self.reload()
            if time.monotonic() >= next_beat:
                next_beat = time.monotonic() + HEARTBEAT_INTERVAL_S
                try:
                    self._tick()
                except Exception as exc:
                    self._stop_if_damaged(exc)
                    log.exception("periodic check failed")
        return self.shutdown(self.flags.stop_signal or "stop")

    def shutdown(self, why: str) -> int:
        """Finish the current step, record the stop, exit; forced only past the deadline."""
        deadline = time.monotonic() + self.stop_grace_s
        log.info("stopping (%s)", why)
        self.notifier.stopping(f"stopping ({why})")
        self.stop_night.set()
        self._stop_watcher()
        self.scheduler.shutdown(wait=False)
        thread = self._night_thread
        if thread is not None and thread.is_alive():
            thread.join(max(0.0, deadline - time.monotonic()))
        while self._harvest_lock.locked() and time.monotonic() < deadline:
            time.sleep(0.05)
        stuck = (thread is not None and thread.is_alive()) or self._harvest_lock.locked()
        reason = f"daemon stopped by {why}"
        if self.damaged is not None:
            log.info("stopped (nothing recorded: the database is damaged)")
            return int(ExitCode.CHECK_FAILED)
        if stuck:
            closed = record_forced_stop(self.engine, self.started_at, reason + " mid-step")
            log.warning(
                "a job did not finish within %g s; recorded %d stop(s)", self.stop_grace_s, closed
            )
        self.heartbeat.beat(state="stopped", stopped=True, detail={"stop_reason": reason})
        log.info("stopped")
        return 0 if not stuck else -1


def run_daemon(
    *, verbose: bool = False, jobs: DaemonJobs | None = None, stop_grace_s: float = STOP_GRACE_S
) -> int:
    """`sleepd daemon`: returns the exit status; raises SleepdError for the CLI to report.

    `stop_grace_s` is how long a stop waits for a stuck job (tests that stop one on
    purpose set it short; the service keeps `STOP_GRACE_S`)."""
    from sleepd.daemon.service import load_service_env
    from sleepd.store.open import open_store

    load_service_env()  # secrets (API keys, a DB password) kept out of the unit / plist
    cfg = load_config()
    paths.home_dir(create=True)
    lock = DaemonLock()
    lock.acquire()  # LockedError names the running daemon's pid
    try:
        configure_logging(verbose=verbose, log_dir=paths.log_dir())
        engine = open_store(cfg, write=True)
        daemon = Daemon(
            cfg,
            engine,
            jobs=jobs or default_jobs(),
            notifier=Notifier.from_env(unset=True),
            stop_grace_s=stop_grace_s,
        )
        status = daemon.run()
    finally:
        lock.release()
    if status < 0:
        _exit_now(0)  # a job thread is stuck mid-step; everything is recorded, don't wait
    return status


def _exit_now(code: int) -> None:
    for handler in logging.getLogger("sleepd").handlers:
        handler.flush()
    os._exit(code)
