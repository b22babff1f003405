"""Evidence for `v` / `review show`: per-task scores, example trajectories, sessions."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine

from sleepd.documents.versions import content_hash
from sleepd.review.evidence import gather_evidence
from sleepd.store.engine import write_session
from sleepd.store.models import Candidate, GateDecisionRecord, Proposal, Rollout, Task
from sleepd.store.models import Session as TranscriptSession

from .conftest import SKILL_V1, StageFn

NEW = SKILL_V1 + "\nTag the release.\n"


def test_evidence_pairs_baseline_and_candidate_rollouts(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, NEW)
    with write_session(engine) as db:
        proposal = db.get(Proposal, staged.proposal_id)
        assert proposal is not None and proposal.night_id is not None
        night_id = proposal.night_id
        session = TranscriptSession(source="claude", external_id="abc", project_path="/p")
        candidate = Candidate(
            night_id=night_id,
            document_id=staged.document_id,
            base_version_id=staged.base_version_id,
            content=NEW,
            content_hash=content_hash(NEW),
            fingerprint="f",
        )
        tasks = [Task(intent="deploy to staging", split="val"), Task(intent="tag", split="test")]
        db.add_all([session, candidate, *tasks])
        db.flush()
        proposal.candidate_id = candidate.id
        proposal.provenance = {"sessions": [session.id, "external-ref"], "verdict": "accept"}
        scores = {  # task index -> (baseline scores, candidate scores)
            0: ([0.0, 0.0, 1.0], [1.0, 1.0, 1.0]),
            1: ([0.5, 0.5, 0.5], [0.5, 1.0, 0.5]),
        }
        for index, (before, after) in scores.items():
            for k, score in enumerate(before):
                db.add(
                    Rollout(
                        night_id=night_id,
                        task_id=tasks[index].id,
                        document_hash=content_hash(SKILL_V1),
                        split=tasks[index].split,
                        rollout_index=k,
                        score=score,
                        output=f"before {index}/{k}",
                    )
                )
            for k, score in enumerate(after):
                db.add(
                    Rollout(
                        night_id=night_id,
                        task_id=tasks[index].id,
                        candidate_id=candidate.id,
                        document_hash=content_hash(NEW),
                        split=tasks[index].split,
                        rollout_index=k,
                        score=score,
                        output=f"after {index}/{k}",
                    )
                )
        db.add(
            GateDecisionRecord(
                candidate_id=candidate.id, night_id=night_id, outcome="accept", reason="3/3 up"
            )
        )
        task_ids = [t.id for t in tasks]
        session_id = session.id

    evidence = gather_evidence(engine, staged.proposal_id)
    table = {
        (t.task_id, t.split): (t.before, t.after, t.before_n, t.after_n) for t in evidence.tasks
    }
    assert table == {
        (task_ids[0], "val"): (1 / 3, 1.0, 3, 3),
        (task_ids[1], "test"): (0.5, 2 / 3, 3, 3),
    }
    assert evidence.failing is not None and evidence.failing.output == "before 0/0"
    assert evidence.passing is not None and evidence.passing.score == 1.0
    assert evidence.gate_reason == "3/3 up"
    assert evidence.sessions[0]["external_id"] == "abc" and evidence.sessions[0]["id"] == session_id
    assert evidence.sessions[1] == {"id": "external-ref"}
    from rich.console import Console

    from sleepd.review.render import render_evidence

    console = Console(record=True, width=120, color_system=None)
    render_evidence(console, evidence)
    shown = console.export_text()
    assert "deploy to staging" in shown and "0.33" in shown and "before 0/0" in shown
    assert "abc" in shown and "external-ref" in shown  # the sessions table
    assert "{'" not in shown
    # before/after with run counts under plain-word headers, and how the gate decided
    assert "runs before" in shown and "runs after" in shown and "+0.67" in shown
    assert "How the gate decided" in shown and "look (night)" in shown
