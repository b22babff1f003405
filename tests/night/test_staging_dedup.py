"""The same resulting document is one proposal, however many nights accept it."""

from __future__ import annotations

from pathlib import Path

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
