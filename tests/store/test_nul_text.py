"""A NUL in any string the store writes is stored, never refused.

PostgreSQL's text refuses NUL; strings reach the store from outside sleepd beyond the
harvest (a model's answer stored as a rollout's output, a reason a provider gave), so
the engine replaces it in every bound string there. SQLite keeps it as it is.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import insert, select

from sleepd.store.models import JobRun
from sleepd.store.records import NUL_STAND_IN


@pytest.mark.both_dbs
def test_a_nul_in_a_written_string_is_stored(db_engine: Any, db_kind: str) -> None:
    reason = "the answer held \x00 a NUL"
    with db_engine.begin() as conn:
        conn.execute(insert(JobRun).values(job="night", outcome="failed", reason=reason))
        conn.execute(
            insert(JobRun),
            [{"job": "night", "reason": f"many \x00 {n}"} for n in range(3)],
        )
    with db_engine.connect() as conn:
        stored = conn.scalars(select(JobRun.reason).order_by(JobRun.id)).all()
    nul = "\x00" if db_kind == "sqlite" else NUL_STAND_IN
    assert stored == [reason.replace("\x00", nul), *(f"many {nul} {n}" for n in range(3))]
