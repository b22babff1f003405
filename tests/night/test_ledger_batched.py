"""Ledger rows are written a round at a time, in the same transaction as the round's rollouts."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.backends.budget import LedgerEntry
from sleepd.dream.night import NightOptions, run_night
from sleepd.store.ledger import DbLedger
from sleepd.store.models import BudgetEntry, Rollout

from .support import BackendCapture, add_tasks, small_config


def entry() -> LedgerEntry:
    return LedgerEntry("target", "sim", "m", 10, 5, 0, 0, 0.01, 0.1, True, None)


def test_rows_wait_for_a_flush_and_are_written_together(engine: Engine) -> None:
    ledger = DbLedger(engine, None)
    for _ in range(50):
        ledger.record(entry())
    with Session(engine) as db:
        assert db.scalar(select(func.count()).select_from(BudgetEntry)) == 0
    assert ledger.flush() == 50 and ledger.flush() == 0
    with Session(engine) as db:
        assert db.scalar(select(func.count()).select_from(BudgetEntry)) == 50


def test_a_night_records_every_call_in_the_ledger(
    engine: Engine, project: Path, capture: BackendCapture
) -> None:
    add_tasks(engine, project)
    result = run_night(engine, small_config(), NightOptions(skip_harvest=True, backend="sim"))
    assert result.status == "completed", result.stop_reason
    with Session(engine) as db:
        rollouts = db.scalar(select(func.count()).select_from(Rollout)) or 0
        ledger = db.scalar(
            select(func.count()).select_from(BudgetEntry).where(BudgetEntry.role == "target")
        )
    assert rollouts > 0 and ledger == rollouts
