"""Text sleepd writes itself, not harvested, is stored redacted too: a job's reason and
detail (often an exception's message, a file's parse error), what a rollout's agent printed
in a checkout of the user's repository, the daemon's log (a night's reason:
tests/night/test_night_failures.py). An exception from git can quote a remote with its
token; an agent that read a committed key can print it."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from sleepd.backends.outbound import reset_for_tests

TOKEN = "ghp_Q7f9k2LmZ8xP3vR1T5nB4cY6dF0hJ2sA8eWq"
REMOTE = f"https://x-access-token:{TOKEN}@github.com/acme/app.git"
STRIPE = "sk_live_51QxT2L5BseYEbCapAp3Mziqr4DTtdQupz4a1kTNaGiW52DqWLPRbzZvZ"


@pytest.fixture(autouse=True)
def _fresh_outbound_redactor() -> None:
    reset_for_tests()


def test_a_failed_jobs_reason_is_stored_redacted(db_engine: Any) -> None:
    from sleepd import jobs
    from sleepd.store.engine import read_session
    from sleepd.store.models import JobRun

    with pytest.raises(RuntimeError), jobs.recorded_job(db_engine, "harvest", "manual") as job:
        job.detail = {"claude": {"error_messages": [f"cannot parse x.jsonl: {REMOTE}"]}}
        raise RuntimeError(f"git fetch {REMOTE} failed: exit 128")
    with read_session(db_engine) as db:
        reason, detail = db.execute(select(JobRun.reason, JobRun.detail)).one()
    assert reason is not None and reason.startswith("RuntimeError: git fetch https://")
    assert TOKEN not in reason and "[REDACTED:" in reason
    [message] = detail["claude"]["error_messages"]
    assert message.startswith("cannot parse x.jsonl: https://") and TOKEN not in message


def test_a_rollouts_output_and_judge_detail_are_stored_redacted(db_engine: Any) -> None:
    from sleepd.backends.base import ModelResponse
    from sleepd.dream.judges import Judgement
    from sleepd.dream.replay import ReplayTask, RolloutResult
    from sleepd.dream.staging import MAX_STORED_OUTPUT, save_rollouts
    from sleepd.store.engine import read_session, write_session
    from sleepd.store.models import Night, Rollout, Task

    # one key inside the kept length, one across its end: read before the output is cut
    head = f"I found the key in config.py: STRIPE_KEY={STRIPE}\n"
    tail = "STRIPE_KEY="
    padding = "x" * (MAX_STORED_OUTPUT - len(head) - len(tail) - 11) + "\n"
    text = f"{head}{padding}{tail}{STRIPE}\nmore"
    assert text[MAX_STORED_OUTPUT - 10 : MAX_STORED_OUTPUT] == STRIPE[:10]
    with write_session(db_engine) as db:
        night = Night(status="running")
        task = Task(project_path="/p", intent="fix the tests", split="val")
        db.add_all([night, task])
        db.flush()
        result = RolloutResult(
            ReplayTask(str(task.id), task.intent, "val"),
            "baseline",
            0,
            "hash",
            ModelResponse(text, "claude-cli", "m"),
            Judgement(1.0, True, {"judge": "tests", "checks_skipped": f"bad spec near {STRIPE}"}),
        )
        save_rollouts(db, night.id, [result], {})
    with read_session(db_engine) as db:
        output, detail = db.execute(select(Rollout.output, Rollout.judge_detail)).one()
    assert len(output) <= MAX_STORED_OUTPUT
    assert STRIPE[:10] not in output and output.count("[REDACTED:") >= 1
    assert STRIPE[:16] not in str(detail)
    assert detail["judge"] == "tests"


@pytest.mark.parametrize("journal", [False, True])
def test_the_daemons_log_is_written_redacted(
    journal: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the terminal or to journald, and in the log file."""
    from sleepd.daemon.logging_setup import LOG_FILENAME, configure_logging

    if journal:  # systemd names the stream; one it cannot check is trusted
        monkeypatch.setenv("JOURNAL_STREAM", "8:12345")
    else:
        monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    stream = io.StringIO()
    logger = configure_logging(log_dir=tmp_path / "logs", stream=stream)
    try:
        raise RuntimeError(f"git fetch {REMOTE} failed")
    except RuntimeError:
        logger.getChild("night").exception("night failed (token %s)", TOKEN)
    for handler in logger.handlers:
        handler.flush()
    console, logged = stream.getvalue(), (tmp_path / "logs" / LOG_FILENAME).read_text()
    assert console.startswith("<3>") == journal  # the journal's priority prefix
    for written in (console, logged):
        assert "night failed" in written and "RuntimeError" in written
        assert TOKEN not in written and "[REDACTED:" in written
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    logging.getLogger("sleepd").handlers.clear()
