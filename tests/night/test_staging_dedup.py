"""The same resulting document is one proposal, however many nights accept it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from sleepd.documents.edits import Edit, EditBudget, apply_edits
from sleepd.dream.gate import GatePolicy, decide
from sleepd.dream.reflect import CandidateEdit, fingerprint
from sleepd.dream.staging import save_candidates, stage_proposal
from sleepd.dream.targets import prepare
from sleepd.store.engine import write_session
from sleepd.store.models import Candidate, Night, Proposal

from .support import small_config


@pytest.mark.both_dbs
def test_an_identical_proposal_is_staged_once(engine: Engine, project: Path) -> None:
    cfg = small_config()
    decision = decide(
        {f"t{i}": [0.0, 0.0, 1.0] for i in range(8)},
        {f"t{i}": [1.0, 1.0, 1.0] for i in range(8)},
        GatePolicy(max_looks=1),
    )
    ids = []
    for key in ("c1", "c2"):  # two nights, two candidates, one resulting document
        with write_session(engine) as db:
            night = Night(status="running")
            db.add(night)
            db.flush()
            target = prepare(db, cfg, str(project))
            edits = [Edit("append", "", "- Run the tests before declaring a task done.")]
            content = apply_edits(
                target.working_content, edits, editable=target.spec.editable, budget=EditBudget()
            ).content
            candidate = CandidateEdit(key, content, edits, "", fingerprint(edits))
            candidate_ids = save_candidates(db, night.id, target, [candidate])
            ids.append(
                stage_proposal(
                    db,
                    night.id,
                    target,
                    candidate,
                    candidate_ids[key],
                    decision,
                    val_lift=0.3,
                    test_lift=None,
                    cost_usd=0.0,
                    simulated=True,
                    superseded=[],
                    ablation=[{"text": "x", "contribution": 0.1, "verdict": "kept"}],
                )
            )
            second_candidate = candidate_ids[key]
    assert ids[0] == ids[1]
    with write_session(engine) as db:
        assert db.scalar(select(func.count()).select_from(Proposal)) == 1
        proposal = db.get(Proposal, ids[0])
        assert proposal is not None and len(proposal.provenance["restaged_by"]) == 1
        assert proposal.provenance["baseline_hash"] != proposal.base_hash  # new document
        assert proposal.provenance["ablation"][0]["verdict"] == "kept"
        row = db.get(Candidate, second_candidate)
        assert row is not None and row.status == "superseded"
        assert f"#{ids[0]}" in (row.reason or "")


def test_review_shows_before_and_after_for_a_new_document(engine: Engine, project: Path) -> None:
    """The base is the empty file, the baseline rollouts ran on the scaffold: review pairs
    them anyway, with rollout counts, the alpha used and the look."""
    from sleepd.backends.base import ModelResponse
    from sleepd.documents.versions import content_hash
    from sleepd.dream.judges import Judgement
    from sleepd.dream.replay import ReplayTask, RolloutResult
    from sleepd.dream.staging import save_decision, save_rollouts
    from sleepd.store.models import Task

    cfg = small_config()
    with write_session(engine) as db:
        night = Night(status="running")
        db.add(night)
        db.flush()
        target = prepare(db, cfg, str(project))
        assert target.base_content == "" and target.working_content  # a new document
        edits = [Edit("append", "", "- Run the tests before declaring a task done.")]
        content = apply_edits(
            target.working_content, edits, editable=target.spec.editable, budget=EditBudget()
        ).content
        candidate = CandidateEdit("c1", content, edits, "", fingerprint(edits))
        ids = save_candidates(db, night.id, target, [candidate])
        tasks = []
        for i in range(8):
            row = Task(project_path=str(project), intent=f"val task {i}", split="val")
            db.add(row)
            db.flush()
            tasks.append(ReplayTask(str(row.id), row.intent, "val"))
        results = []
        for task in tasks:
            for k, (before, after) in enumerate(((0.0, 1.0), (1.0, 1.0), (0.0, 0.0))):
                for arm, doc, score in (
                    ("baseline", target.working_content, before),
                    ("c1", content, after),
                ):
                    response = ModelResponse("answer", "sim", "sim-1", simulated=True)
                    judgement = Judgement(score, score >= 0.5, {"judge": "model"})
                    results.append(
                        RolloutResult(task, arm, k, content_hash(doc), response, judgement)
                    )
        save_rollouts(db, night.id, results, ids)
        scores = {t.id: [0.0, 0.0, 1.0] for t in tasks}
        decision = decide(scores, {t.id: [1.0, 1.0, 1.0] for t in tasks}, GatePolicy())
        save_decision(db, night.id, target.document_id, ids["c1"], decision, 3)
        proposal_id = stage_proposal(
            db, night.id, target, candidate, ids["c1"], decision,
            val_lift=0.33, test_lift=None, cost_usd=0.0, simulated=True, superseded=[],
        )  # fmt: skip

    from sleepd.review.evidence import gather_evidence

    evidence = gather_evidence(engine, proposal_id)
    assert len(evidence.tasks) == 8
    for row in evidence.tasks:
        assert (row.before, row.after, row.before_n, row.after_n) == (1 / 3, 2 / 3, 3, 3)
    assert evidence.gate.alpha_used == decision.alpha_used and evidence.gate.look == 1
    assert evidence.gate.max_looks == 3 and evidence.gate.rounds == 3

    import json

    from typer.testing import CliRunner

    from sleepd.cli.app import app

    shown = CliRunner().invoke(app, ["review", "show", str(proposal_id), "--json"])
    assert shown.exit_code == 0, (shown.stdout, shown.stderr)
    data = json.loads(shown.stdout)
    assert data["alpha"] == decision.alpha_used and data["look"] == 1 and data["max_looks"] == 3
    assert all(t["before"] is not None and t["before_n"] == 3 for t in data["evidence"]["tasks"])
    text = CliRunner().invoke(app, ["review", "show", str(proposal_id)], env={"COLUMNS": "200"})
    assert "runs before" in text.stdout and "How the gate decided" in text.stdout
