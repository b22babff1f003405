"""The budget ledger in the database: one row per model call, written as it happens."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from sleepd.backends.budget import LedgerEntry
from sleepd.store.engine import write_session
from sleepd.store.models import BudgetEntry


class DbLedger:
    """Implements `sleepd.backends.budget.Ledger` over `budget_ledger`."""

    def __init__(self, engine: Engine, night_id: int | None, *, batched: bool = False) -> None:
        self.engine = engine
        self.night_id = night_id
        self.batched = batched

    def record(self, entry: LedgerEntry) -> None:
        with write_session(self.engine) as db:
            db.add(
                BudgetEntry(
                    night_id=self.night_id,
                    role=entry.role,
                    backend=entry.backend,
                    model=entry.model,
                    input_tokens=entry.input_tokens,
                    output_tokens=entry.output_tokens,
                    cache_read_tokens=entry.cache_read_tokens,
                    cache_write_tokens=entry.cache_write_tokens,
                    cost_usd=entry.cost_usd,
                    batched=self.batched,
                    simulated=entry.simulated,
                    failure_kind=entry.failure,
                )
            )
