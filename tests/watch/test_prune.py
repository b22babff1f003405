"""A night measures each learned rule and proposes deleting the stale ones, gated.

The night runs on the simulated world (a test double) with tasks inserted as if mined,
as the other night tests do (each task names its branch, so the simulated target reads
them as git-workflow tasks): it succeeds more often when the document says to create a
feature branch, and less often when it says to commit straight to the current branch.
Both rules were adopted through the real path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import TargetConfig
from sleepd.dream.gate import GatePolicy, decide
from sleepd.dream.night import NightOptions, run_night
from sleepd.dream.prune import deletion_policy, stale_rules
from sleepd.review.adopt import adopt_proposal
from sleepd.store.engine import read_session
from sleepd.store.models import Candidate, GateDecisionRecord, LearnedRule, Proposal

from .conftest import AdoptFn

HELPFUL = "- Never commit directly to `main`; create a feature branch first."
STALE = "- Commit small fixes straight to the current branch."


def _night_config(project: Path) -> Any:
    from night.support import small_config

    cfg = small_config()
    cfg.dream.rollouts_per_task = 3
    cfg.targets = [
        TargetConfig(str(project), str(project / "AGENTS.md"), "agents", "managed_section")
    ]
    return cfg


def test_a_stale_rule_is_proposed_for_deletion_and_the_deletion_is_gated(
    engine: Engine,
    project: Path,
    adopt: AdoptFn,
    monkeypatch: pytest.MonkeyPatch,
    cli: Any,
) -> None:
    from night.support import add_tasks

    monkeypatch.setattr("sleepd.dream.night._Night.harvest_and_mine", lambda self: None)
    adopted = adopt([], rule=f"{HELPFUL}\n{STALE}")
    add_tasks(engine, project, train=4, val=12, test=0, topics=("pytest",))
    result = run_night(
        engine, _night_config(project), NightOptions(skip_harvest=True, backend="sim")
    )
    assert result.status == "completed", result.stop_reason

    with read_session(engine) as db:
        rules = {r.text: r for r in db.scalars(select(LearnedRule))}
        assert rules[HELPFUL].measurements == rules[STALE].measurements == 1
        assert rules[HELPFUL].last_contribution > 0  # type: ignore[operator]
        assert rules[STALE].last_contribution <= 0  # type: ignore[operator]
        assert rules[HELPFUL].proposal_id == rules[STALE].proposal_id == adopted.proposal_id
        deletions = [
            p for p in db.scalars(select(Proposal)) if (p.provenance or {}).get("kind") == "delete"
        ]
        assert len(deletions) == 1
        deletion = deletions[0]
        assert deletion.status == "pending"  # in the review queue: a person decides
        assert deletion.provenance["rules"] == [rules[STALE].id]
        assert STALE not in deletion.new_content and HELPFUL in deletion.new_content
        gate = db.scalars(
            select(GateDecisionRecord).where(
                GateDecisionRecord.candidate_id == deletion.candidate_id
            )
        ).one()
        assert gate.outcome == "accept" and gate.night_id == result.night_id
        assert gate.detail["n_informative"] >= 6
        candidate = db.get(Candidate, deletion.candidate_id)
        assert candidate is not None and candidate.edits == [{"op": "delete", "anchor": STALE}]
        deletion_id = deletion.id

    code, out, _ = cli("review", "show", str(deletion_id), "--no-pager")
    assert code == 0 and STALE in out

    adopt_proposal(engine, deletion_id, actor="reviewer")
    with read_session(engine) as db:
        rules = {r.text: r for r in db.scalars(select(LearnedRule))}
        assert rules[STALE].removed_reason == "deleted"
        assert rules[STALE].removed_by_proposal_id == deletion_id
        assert rules[HELPFUL].removed_at is None
    text = (project / "AGENTS.md").read_text()
    assert STALE not in text and HELPFUL in text


def test_the_deletion_gate_refuses_harm_and_thin_evidence() -> None:
    policy = deletion_policy(GatePolicy(), margin=0.1)
    same = {f"t{i}": [1.0, 0.0, 1.0] for i in range(8)}
    worse = {f"t{i}": [0.0, 0.0, 0.0] for i in range(8)}
    better = {f"t{i}": [1.0, 1.0, 1.0] for i in range(8)}
    assert decide(same, worse, policy).outcome == "reject"
    assert decide(same, better, policy).outcome == "accept"
    thin = {t: v for t, v in list(same.items())[:3]}
    assert decide(thin, {t: better[t] for t in thin}, policy).outcome != "accept"


def test_stale_means_vanished_or_over_budget() -> None:
    measured = [(1, "a" * 50, 0.2), (2, "b" * 50, 0.0), (3, "c" * 50, 0.05), (4, "d", None)]
    assert stale_rules(measured, 160, budget=1000) == [(2, "b" * 50)]
    assert stale_rules(measured, 160, budget=100) == [(2, "b" * 50), (3, "c" * 50)]


def test_a_candidate_past_the_region_budget_is_not_gated(project: Path) -> None:
    from types import SimpleNamespace

    from sleepd.documents.targets import TargetSpec
    from sleepd.dream.night import ProjectOutcome, _Night
    from sleepd.dream.reflect import CandidateEdit
    from sleepd.dream.targets import PreparedTarget

    cfg = _night_config(project)
    cfg.watch.region_budget_chars = 200
    base = (project / "AGENTS.md").read_text()
    spec = TargetSpec(project / "AGENTS.md", "agents", "managed_section")
    target = PreparedTarget(spec, 1, 1, base, base)

    def candidate(key: str, rule: str) -> CandidateEdit:
        content = base.replace("<!-- sleepd:end -->", f"{rule}\n<!-- sleepd:end -->")
        return CandidateEdit(key, content, [], "", key)

    small, big = candidate("small", HELPFUL), candidate("big", "- " + "x" * 250)
    outcome = ProjectOutcome(str(project), "started")
    said: list[str] = []
    night = SimpleNamespace(cfg=cfg, say=said.append)
    kept = _Night.within_budget(night, [small, big], target, outcome)  # type: ignore[arg-type]
    assert kept == [small]
    assert outcome.reflect["over_region_budget"] == 1 and "budget" in said[0]
