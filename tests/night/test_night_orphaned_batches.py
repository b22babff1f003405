"""A batch a killed night paid for is collected by the next night and accounted for."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from sleepd.backends.base import ChatMessage, ModelRequest
from sleepd.backends.sim import SimBackend, SimWorld
from sleepd.config import load_config
from sleepd.dream.night import NightOptions, run_night
from sleepd.store.engine import write_session
from sleepd.store.models import BatchJob, BudgetEntry, Night


def test_next_night_settles_an_orphaned_batch(
    engine: Engine, no_mining: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim = SimBackend(SimWorld(0, 10))
    requests = [
        ModelRequest(
            messages=[ChatMessage("user", f"fix the pytest failure {i}")],
            metadata={"rollout": i, "custom_id": f"r{i}"},
        )
        for i in range(3)
    ]
    batch_id = sim.submit_batch(requests)
    with write_session(engine) as db:
        dead = Night(status="failed", stop_reason="killed", summary={})
        db.add(dead)
        db.flush()
        dead_id = dead.id
        db.add(
            BatchJob(
                night_id=dead_id,
                backend="sim",
                role="target",
                provider_batch_id=batch_id,
                request_map={},
            )
        )

    def backends(cfg: Any, override: str | None) -> dict[str, Any]:
        return dict.fromkeys(("miner", "target", "judge", "optimizer"), sim)

    monkeypatch.setattr("sleepd.dream.night.build_backends", backends)
    result = run_night(engine, load_config(), NightOptions(backend="sim", skip_harvest=True))
    assert result.summary["steps"]["orphaned_batches_settled"] == 1
    with write_session(engine) as db:
        job = db.scalar(select(BatchJob))
        assert job is not None and job.status == "collected-late"
        charged = db.scalar(
            select(func.count(BudgetEntry.id)).where(BudgetEntry.night_id == dead_id)
        )
        assert charged == len(requests)
