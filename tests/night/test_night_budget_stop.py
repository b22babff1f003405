"""A night cut short (token cap, stop event) ends cleanly and leaves a consistent store."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.dream.night import NightOptions, run_night
from sleepd.store.engine import make_engine
from sleepd.store.migrate import upgrade
from sleepd.store.models import BudgetEntry, Night

from .support import (
    HARMLESS_EDIT,
    BackendCapture,
    ScriptedOptimizer,
    add_tasks,
    assert_rollouts_complete,
    candidates,
    integrity_ok,
    rollouts,
    small_config,
)


def assert_consistent(engine: Engine, night_id: int) -> None:
    assert integrity_ok(engine)
    with Session(engine) as db:
        assert_rollouts_complete(rollouts(db, night_id))
        for row in candidates(db):
            assert row.status != "pending_gate" or row.reason, f"candidate {row.id} has no reason"


def ledger_tokens(db: Session, night_id: int) -> int:
    total = db.scalar(
        select(
            func.coalesce(
                func.sum(
                    BudgetEntry.input_tokens
                    + BudgetEntry.output_tokens
                    + BudgetEntry.cache_read_tokens
                    + BudgetEntry.cache_write_tokens
                ),
                0,
            )
        ).where(BudgetEntry.night_id == night_id)
    )
    return int(total or 0)


@pytest.fixture
def uncapped_tokens(tmp_path: Path, project: Path, capture: BackendCapture) -> int:
    """Tokens a whole night spends on the same tasks, measured in a store of its own."""
    other = make_engine(f"sqlite:///{tmp_path / 'measure.db'}")
    upgrade(other)
    add_tasks(other, project)
    result = run_night(other, small_config(), NightOptions(skip_harvest=True, backend="sim"))
    assert result.status == "completed"
    with Session(other) as db:
        spent = ledger_tokens(db, result.night_id)
    other.dispose()
    return spent


@pytest.mark.parametrize("share", [0.15, 0.6])
def test_token_cap_hit_midway_stops_the_night_within_the_cap(
    engine: Engine, project: Path, uncapped_tokens: int, share: float
) -> None:
    add_tasks(engine, project)
    cap = int(uncapped_tokens * share)
    result = run_night(
        engine,
        small_config(),
        NightOptions(skip_harvest=True, backend="sim", max_tokens=cap),
    )
    assert result.status == "stopped"
    assert result.stop_reason is not None and "tokens" in result.stop_reason
    with Session(engine) as db:
        night = db.get(Night, result.night_id)
        assert night is not None
        assert (night.status, night.stop_reason) == ("stopped", result.stop_reason)
        spent = ledger_tokens(db, result.night_id)
        assert 0 < spent <= cap
        assert night.tokens == spent
        assert rollouts(db, result.night_id), "the cap was meant to hit midway, not at once"
    assert_consistent(engine, result.night_id)


@pytest.mark.parametrize("when", ["reflecting", "gating"])
def test_stop_event_after_the_first_replay_ends_the_night_as_stopped(
    engine: Engine, project: Path, capture: BackendCapture, when: str
) -> None:
    add_tasks(engine, project)
    capture.wrap = lambda backends: {
        **backends,
        "optimizer": ScriptedOptimizer([[HARMLESS_EDIT]]),
    }
    stop = threading.Event()
    seen: list[str] = []

    def on_event(message: str) -> None:
        seen.append(message)
        if when in message:
            stop.set()

    result = run_night(
        engine,
        small_config(),
        NightOptions(skip_harvest=True, backend="sim", stop=stop, on_event=on_event),
    )
    assert any(when in m for m in seen)
    assert result.status == "stopped"
    assert result.stop_reason and "stop" in result.stop_reason
    with Session(engine) as db:
        night = db.get(Night, result.night_id)
        assert night is not None and night.status == "stopped" and night.stop_reason
        assert night.ended_at is not None
        stored = rollouts(db, result.night_id)
        assert {r.split for r in stored} == {"train"}, "no validation replay after the stop"
        if when == "gating":  # saved but never gated: inconclusive, so the next night retries
            [waiting] = candidates(db)
            assert waiting.status == "inconclusive" and "stopped" in (waiting.reason or "")
    assert_consistent(engine, result.night_id)
