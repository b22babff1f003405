"""The pipeline's jobs as module-level functions that take plain values.

`sleepd harvest`, `sleepd run` and the daemon's scheduler all call these, so a
job behaves the same however it was started, and every run lands in `job_runs`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from sleepd.dream.night import NightOptions, NightResult

from sleepd.config import Config
from sleepd.processes import owner
from sleepd.store import job_runs
from sleepd.store.writedb import WriteTarget


class JobRecorder:
    """A handle on one job_runs row; outcome and detail are set as the job goes."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self.outcome = "ok"
        self.reason: str | None = None
        self.detail: dict[str, Any] = {}
        self.night_id: int | None = None


@contextmanager
def recorded_job(store: Engine | WriteTarget, job: str, trigger: str) -> Iterator[JobRecorder]:
    """Record the start at once and the end whatever happens (error, interrupt).

    `store`: the store's engine, or a SQLite file's `WriteTarget` (a command that
    starts without SQLAlchemy)."""
    target = store if isinstance(store, WriteTarget) else WriteTarget.for_engine(store)
    with target.transaction() as db:
        recorder = JobRecorder(job_runs.start_run(db, job, trigger, owner()))
    failing = False
    try:
        yield recorder
    except BaseException as exc:
        failing = True
        if recorder.outcome != "refused":
            recorder.outcome = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
        recorder.reason = recorder.reason or f"{type(exc).__name__}: {exc}"[:500]
        raise
    finally:
        try:
            _finish(target, recorder)
        except Exception:
            # The job already failed (a full disk, say) and its record cannot be written
            # either: the first error is the one the user sees; the row stays "running"
            # until `close_orphaned_runs` closes it. A successful job still raises.
            if not failing:
                raise
        finally:
            if target is not store:
                target.close()


def _finish(target: WriteTarget, recorder: JobRecorder) -> None:
    from sleepd.backends.outbound import scrub_optional, scrub_value

    # a reason is often an exception's message, and the detail holds the messages of the
    # files a harvest could not read: either can quote a secret (a git remote's token, the
    # line a parser failed on), so both are stored redacted, as every harvested text is
    reason = scrub_optional(recorder.reason)
    detail = scrub_value({**recorder.detail, "owner": owner()})
    with target.transaction() as db:
        job_runs.finish_run(
            db,
            recorder.run_id,
            recorder.outcome,
            reason,
            detail,
            recorder.night_id,
        )


def run_harvest_job(
    store: Engine | WriteTarget,
    cfg: Config,
    *,
    trigger: str,
    paths: list[str] | None = None,
    source: str = "all",
    progress: Callable[[str, int, int], None] | None = None,
    jobs: int | None = None,
    listed: dict[str, list[Any]] | None = None,
) -> int:
    """Harvest (everything, or only `paths`) with `jobs` parsing processes (default: the
    config's `harvest.workers`); returns the job_run id. `listed`: the sources' files
    as the caller just listed them (see `sleepd.harvest.run.harvest`). `store`: as
    `sleepd.harvest.run.harvest` takes it."""
    from sleepd.harvest import harvest

    with recorded_job(store, "harvest", trigger) as job:
        # The CLI and the daemon run under a guarded main: worker processes are safe.
        report = harvest(
            store,
            cfg,
            source=source,
            only_paths=paths,
            progress=progress,
            jobs=cfg.harvest.workers if jobs is None else jobs,
            listed=listed,
        )
        job.detail = report.to_dict()
        if report.totals()["errors"]:
            job.reason = f"{report.totals()['errors']} file error(s)"
    return job.run_id


def night_job(engine: Engine, cfg: Config, options: NightOptions) -> tuple[int, NightResult]:
    """One whole night, recorded in job_runs; returns (job_run id, the night's result).

    The only implementation of a night job: the CLI and the daemon both call it. A night
    refused before it starts (no usable backend) leaves a "refused" job run with the
    reason, which `sleepd status --check` reports, and no night row.
    """
    from sleepd.dream.night import run_night
    from sleepd.errors import NoBackendError

    with recorded_job(engine, "night", options.trigger) as job:
        try:
            result = run_night(engine, cfg, options)
        except NoBackendError as exc:
            job.outcome, job.reason = "refused", str(exc)[:500]
            raise
        job.night_id = result.night_id
        job.outcome = result.job_outcome
        job.reason = result.stop_reason
        job.detail = {"night_id": result.night_id, "status": result.status, **result.summary}
    return job.run_id, result


def run_night_job(
    engine: Engine,
    cfg: Config,
    *,
    trigger: str,
    stop: threading.Event | None = None,
    project: str | None = None,
    backend: str | None = None,
    dry_run: bool = False,
) -> int:
    """The daemon's night: `night_job` with plain values; returns the job_run id."""
    from sleepd.dream.night import NightOptions

    options = NightOptions(
        trigger=trigger, project=project, backend=backend, dry_run=dry_run, stop=stop
    )
    run_id, _result = night_job(engine, cfg, options)
    return run_id
