"""A failed call is missing data: never a zero score, never grounds for rejecting an edit."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.dream.night import NightOptions, run_night
from sleepd.store.models import BudgetEntry, GateDecisionRecord

from .support import (
    BackendCapture,
    FlakyBackend,
    add_tasks,
    custom_id,
    failing_target,
    rollouts,
    small_config,
    stable_share,
)

FAIL_SHARE = 0.4  # well above the gate's 20 % missing-data limit


def test_timeouts_are_stored_as_missing_scores_and_make_the_gate_inconclusive(
    engine: Engine, project: Path, monkeypatch: pytest.MonkeyPatch, no_mining: None
) -> None:
    spy = BackendCapture(wrap=failing_target(lambda r: stable_share(custom_id(r)) < FAIL_SHARE))
    monkeypatch.setattr("sleepd.dream.night.build_backends", spy)
    add_tasks(engine, project)
    result = run_night(engine, small_config(), NightOptions(skip_harvest=True, backend="sim"))
    assert result.status == "completed", result.stop_reason
    flaky = spy.last["target"]
    assert isinstance(flaky, FlakyBackend) and flaky.failed

    with Session(engine) as db:
        stored = rollouts(db, result.night_id)
        failed = [r for r in stored if r.failure_kind is not None]
        assert len(failed) == len(flaky.failed)
        for row in failed:
            assert row.failure_kind == "timeout"
            assert row.score is None and row.success is None
        assert all(r.score is not None for r in stored if r.failure_kind is None)
        timeouts = db.scalars(
            select(BudgetEntry).where(
                BudgetEntry.night_id == result.night_id, BudgetEntry.failure_kind == "timeout"
            )
        ).all()
        assert len(timeouts) == len(flaky.failed)

        # The baseline's validation mean skips the failures; zeros would pull it down.
        scored = [
            r.score
            for r in stored
            if r.split == "val" and r.arm == "baseline" and r.score is not None
        ]
        project_summary = result.summary["projects"][0]
        assert project_summary["val_before"] == pytest.approx(sum(scored) / len(scored), abs=1e-6)

        decisions = db.scalars(
            select(GateDecisionRecord).where(GateDecisionRecord.night_id == result.night_id)
        ).all()
        assert decisions, "the candidates were meant to reach the gate"
        for decision in decisions:
            assert decision.outcome == "inconclusive", decision.reason
            assert "failed" in decision.reason
            assert decision.detail["missing_fraction"] > 0.2


def test_a_failed_nights_reason_is_stored_redacted(
    engine: Engine, project: Path, monkeypatch: pytest.MonkeyPatch, no_mining: None
) -> None:
    """The reason is the exception's message, and git's can quote a remote with its token."""
    from sleepd.backends.outbound import reset_for_tests
    from sleepd.store.models import Night

    token = "ghp_Q7f9k2LmZ8xP3vR1T5nB4cY6dF0hJ2sA8eWq"

    def broken(*args: object, **kwargs: object) -> list[str]:
        raise RuntimeError(f"git fetch https://x-access-token:{token}@github.com/a/b.git: 128")

    reset_for_tests()
    monkeypatch.setattr("sleepd.dream.night.projects_with_tasks", broken)
    with pytest.raises(RuntimeError):
        run_night(engine, small_config(), NightOptions(skip_harvest=True, backend="sim"))
    with Session(engine) as db:
        night = db.scalars(select(Night)).one()
    assert night.status == "failed" and night.stop_reason is not None
    assert night.stop_reason.startswith("RuntimeError: git fetch https://")
    assert token not in night.stop_reason and "[REDACTED:" in night.stop_reason
