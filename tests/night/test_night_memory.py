"""Across nights: inconclusive candidates come back for another look; rejected ones never do."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.dream.night import NightOptions, run_night
from sleepd.store.models import GateDecisionRecord

from .support import (
    ANCHOR,
    HARMLESS_EDIT,
    BackendCapture,
    ScriptedOptimizer,
    add_tasks,
    candidates,
    failing_target,
    is_candidate_arm,
    rollouts,
    small_config,
)

HARMFUL = {
    "edits": [
        {
            "op": "add",
            "anchor": ANCHOR,
            "position": "after",
            "text": "- Declare the task done as soon as the code compiles.",
        }
    ],
    "rationale": "finish faster",
}
#: The same edit as HARMFUL, re-emitted with other case and spacing: the same fingerprint.
HARMFUL_AGAIN = {
    "edits": [
        {
            "op": "add",
            "anchor": ANCHOR,
            "position": "after",
            "text": "-  declare the task DONE as soon as  the code compiles.",
        }
    ],
    "rationale": "finish faster, again",
}


def decision_for(db: Session, candidate_id: int) -> GateDecisionRecord:
    row = db.scalar(
        select(GateDecisionRecord).where(GateDecisionRecord.candidate_id == candidate_id)
    )
    assert row is not None, f"no gate decision stored for candidate {candidate_id}"
    return row


def test_inconclusive_candidate_is_retested_on_fresh_rollouts_until_max_looks(
    engine: Engine, project: Path, capture: BackendCapture
) -> None:
    # Every candidate-arm call times out: the evidence can never settle, so the gate
    # must keep saying "inconclusive" (missing data) and carry the candidate forward.
    optimizer = ScriptedOptimizer([[HARMLESS_EDIT]])
    flaky = failing_target(is_candidate_arm)
    capture.wrap = lambda backends: {**flaky(backends), "optimizer": optimizer}
    add_tasks(engine, project)
    cfg = small_config(gate__max_looks=2, dream__candidates_per_night=1)
    options = NightOptions(skip_harvest=True, backend="sim")

    night1 = run_night(engine, cfg, options)
    with Session(engine) as db:
        [first] = candidates(db)
        assert (first.night_id, first.status, first.look) == (night1.night_id, "inconclusive", 1)
        assert decision_for(db, first.id).look == 1

    night2 = run_night(engine, cfg, options)
    assert night2.summary["projects"][0]["reflect"]["carried"] == 1
    with Session(engine) as db:
        first, second = candidates(db)
        assert first.status == "carried"
        assert (second.night_id, second.carried_from_id) == (night2.night_id, first.id)
        assert second.fingerprint == first.fingerprint
        assert second.content_hash == first.content_hash
        assert second.look == 2 and second.status == "inconclusive"
        assert decision_for(db, second.id).look == 2
        arm1 = {r.rollout_index for r in rollouts(db) if r.candidate_id == first.id}
        arm2 = {r.rollout_index for r in rollouts(db) if r.candidate_id == second.id}
        assert arm1 and arm2 and not arm1 & arm2
        draws = Counter((r.task_id, r.document_hash, r.rollout_index) for r in rollouts(db))
        assert max(draws.values()) == 1, "a rollout index was reused for a task and document"

    night3 = run_night(engine, cfg, options)
    with Session(engine) as db:
        rows = candidates(db)
        second = next(r for r in rows if r.id == second.id)
        assert second.status == "rejected" and "looks" in (second.reason or "")
        assert not any(r.carried_from_id == second.id for r in rows)
        tonight = rollouts(db, night3.night_id)
        assert not any(r.document_hash == second.content_hash for r in tonight)


def test_rejected_edit_is_dropped_when_the_optimizer_proposes_it_again(
    engine: Engine, project: Path, capture: BackendCapture
) -> None:
    optimizer = ScriptedOptimizer([[HARMFUL], [HARMFUL_AGAIN, HARMLESS_EDIT]])
    capture.wrap = lambda backends: {**backends, "optimizer": optimizer}
    add_tasks(engine, project, val=10, topics=("pytest",))
    options = NightOptions(skip_harvest=True, backend="sim")

    # One round and one look: whatever is not accepted tonight is rejected for good.
    once = {"gate__sequential_rounds": 1, "gate__max_looks": 1}
    run_night(engine, small_config(dream__candidates_per_night=1, **once), options)
    with Session(engine) as db:
        [rejected] = candidates(db)
        assert rejected.status == "rejected", rejected.reason

    optimizer.night = 1
    night2 = run_night(engine, small_config(dream__candidates_per_night=2, **once), options)
    reflect = night2.summary["projects"][0]["reflect"]
    assert reflect["remembered_rejects"] == 1
    with Session(engine) as db:
        rows = candidates(db)
        assert [r.id for r in rows if r.fingerprint == rejected.fingerprint] == [rejected.id]
        tonight = [r for r in rows if r.night_id == night2.night_id]
        assert len(tonight) == 1 and "assumption" in tonight[0].content
        replayed = {r.document_hash for r in rollouts(db, night2.night_id)}
        assert rejected.content_hash not in replayed
    # The optimizer was also told, in words, not to propose it again.
    prompt = optimizer.received[-1].messages[-1].content
    assert "did not help" in prompt and "as soon as the code compiles" in prompt
