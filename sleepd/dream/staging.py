"""The night's reads and writes: tasks in, candidates, rollouts, decisions and proposals out.

Kept apart from the orchestration so `night.py` reads as the pipeline it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session as OrmSession

from sleepd.backends.outbound import scrub_text, scrub_value
from sleepd.documents.diff import unified_diff
from sleepd.documents.edits import Edit
from sleepd.documents.versions import content_hash
from sleepd.dream.gate import GateDecision
from sleepd.dream.reflect import CandidateEdit
from sleepd.dream.replay import ReplayTask, RolloutResult
from sleepd.dream.targets import PreparedTarget
from sleepd.projects import roots_in_store
from sleepd.store.models import (
    AuditEntry,
    Candidate,
    DocumentVersion,
    Episode,
    Event,
    GateDecisionRecord,
    Night,
    Proposal,
    Rollout,
    Session,
    Signal,
    Task,
)

SPLITS = ("train", "val", "test")
#: Rollout output kept per row: enough to show a trajectory in review.
MAX_STORED_OUTPUT = 20_000


def projects_with_tasks(db: OrmSession, only: str | None, min_tasks: int) -> list[str]:
    """Projects with enough active tasks, busiest first."""
    stmt = (
        select(Task.project_path, func.count(Task.id))
        .where(Task.active.is_(True), Task.project_path.is_not(None))
        .group_by(Task.project_path)
        .having(func.count(Task.id) >= min_tasks)
        .order_by(func.count(Task.id).desc(), Task.project_path)
    )
    if only:
        # a worktree of the repository names the repository (`sleepd.projects`)
        roots = roots_in_store(db)
        stmt = stmt.where(Task.project_path == roots(only))
    return [str(p) for p, _n in db.execute(stmt).all()]


def load_tasks(db: OrmSession, project: str, per_split: int) -> dict[str, list[ReplayTask]]:
    """Active tasks by split, at most `per_split` each; validation and test only ever hold
    real mined tasks. A split takes one task of each kind of request before a second of
    any (`_kinds_in_turn`)."""
    out: dict[str, list[ReplayTask]] = {s: [] for s in SPLITS}
    rows = db.scalars(
        select(Task).where(Task.project_path == project, Task.active.is_(True)).order_by(Task.id)
    )
    for task in _kinds_in_turn(list(rows)):
        if task.split not in out or len(out[task.split]) >= per_split:
            continue
        if task.split in ("val", "test") and task.origin != "mined":
            continue
        out[task.split].append(
            ReplayTask(
                id=str(task.id),
                intent=task.intent,
                split=task.split,
                context=dict(task.context or {}),
                judge_spec=dict(task.judge_spec or {}),
                corrections=user_corrections(db, task.episode_id) if task.split == "train" else (),
            )
        )
    return out


def _kinds_in_turn(tasks: Sequence[Task]) -> list[Task]:
    """The tasks (in id order) reordered so that every kind of request (a task cluster)
    gives its first task before any gives its second, and so on. People send one request
    again and again when they try out their setup ("search web for googles latest AI worlds
    model"): in id order those would fill a night's split and leave out the other kinds of
    request."""
    seen: dict[int, int] = {}
    ranked = []
    for task in tasks:
        kind = task.cluster_id if task.cluster_id is not None else -task.id
        seen[kind] = seen.get(kind, -1) + 1
        ranked.append((seen[kind], task.id, task))
    return [task for _, _, task in sorted(ranked, key=lambda row: row[:2])]


#: Corrections per training task shown to the optimizer, and their length.
MAX_CORRECTIONS, MAX_CORRECTION_CHARS = 3, 600


def user_corrections(db: OrmSession, episode_id: int | None) -> tuple[str, ...]:
    """What the user typed to correct the agent in the task's original episode.

    Read from the miner's `user_correction` signals (redacted text, as stored). Only ever
    asked for training tasks: the optimizer must not learn from held-out episodes.
    """
    if episode_id is None:
        return ()
    event_ids: list[int] = []
    for ids in db.scalars(
        select(Signal.event_ids).where(
            Signal.episode_id == episode_id, Signal.kind == "user_correction"
        )
    ):
        event_ids.extend(int(i) for i in ids or [] if isinstance(i, int))
    if not event_ids:
        return ()
    texts = db.scalars(
        select(Event.text).where(Event.id.in_(event_ids[:20])).order_by(Event.seq)
    ).all()
    return tuple(t[:MAX_CORRECTION_CHARS] for t in texts if t)[:MAX_CORRECTIONS]


def rejected_memory(db: OrmSession, document_id: int) -> tuple[set[str], list[str]]:
    """Fingerprints and short descriptions of edits the gate rejected before."""
    rows = db.execute(
        select(Candidate.fingerprint, Candidate.rationale, Candidate.edits)
        .where(Candidate.document_id == document_id, Candidate.status == "rejected")
        .order_by(Candidate.id.desc())
        .limit(50)
    ).all()
    fingerprints = {fp for fp, _r, _e in rows}
    descriptions = []
    for _fp, rationale, edits in rows[:10]:
        texts = [str(e.get("text", "")) for e in (edits or []) if isinstance(e, dict)]
        descriptions.append((" / ".join(t for t in texts if t) or rationale or "")[:300])
    return fingerprints, [d for d in descriptions if d]


def take_carried_candidates(
    db: OrmSession, target: PreparedTarget, max_looks: int
) -> list[CandidateEdit]:
    """Inconclusive candidates on this very document version, for another look.

    Candidates a killed night left waiting for the gate are taken too, at the look
    they were waiting for.
    Candidates built on an older version are marked stale: their evidence is
    about a document that no longer exists.
    """
    rows = db.scalars(
        select(Candidate)
        .join(Night, Night.id == Candidate.night_id)
        .where(
            Candidate.document_id == target.document_id,
            or_(
                Candidate.status == "inconclusive",
                and_(Candidate.status == "pending_gate", Night.status != "running"),
            ),
        )
        .order_by(Candidate.id)
    ).all()
    carried: list[CandidateEdit] = []
    for row in rows:
        tested = row.status == "inconclusive"  # an untested one has spent no look yet
        base = db.get(DocumentVersion, row.base_version_id)
        base_content = base.content if base is not None else None
        same_base = base_content is not None and (
            content_hash(base_content) == content_hash(target.base_content)
        )
        if not same_base:
            row.status, row.reason = "stale", "the document changed since this candidate"
            continue
        if tested and row.look >= max_looks:
            row.status, row.reason = "rejected", "evidence never arrived within the allowed looks"
            continue
        carried.append(
            CandidateEdit(
                key=f"carry{row.id}",
                content=row.content,
                edits=[Edit(**e) for e in row.edits],
                rationale=row.rationale,
                fingerprint=row.fingerprint,
                carried_from=row.id,
                look=row.look + 1 if tested else row.look,
            )
        )
    return carried


def save_candidates(
    db: OrmSession, night_id: int, target: PreparedTarget, candidates: Sequence[CandidateEdit]
) -> dict[str, int]:
    ids: dict[str, int] = {}
    for c in candidates:
        row = Candidate(
            night_id=night_id,
            document_id=target.document_id,
            base_version_id=target.base_version_id,
            carried_from_id=c.carried_from,
            edits=c.edits_as_dicts(),
            rationale=c.rationale,
            content=c.content,
            content_hash=content_hash(c.content),
            fingerprint=c.fingerprint,
            status="pending_gate",
            look=c.look,
            safety_flags=[f.__dict__ for f in c.safety_flags],
            rejected_edits=c.rejected_edits,
        )
        db.add(row)
        db.flush()
        ids[c.key] = row.id
        if c.carried_from is not None:
            previous = db.get(Candidate, c.carried_from)
            if previous is not None:
                previous.status = "carried"
                previous.reason = f"re-tested as candidate {row.id} (look {c.look})"
    return ids


def save_rollouts(
    db: OrmSession, night_id: int, results: Sequence[RolloutResult], candidate_ids: dict[str, int]
) -> None:
    db.add_all(
        Rollout(
            night_id=night_id,
            task_id=int(r.task.id),
            candidate_id=candidate_ids.get(r.arm),
            document_hash=r.document_hash,
            arm=r.arm[:32],
            split=r.task.split,
            rollout_index=r.rollout_index,
            score=r.score,
            success=r.judgement.success,
            judge_detail=scrub_value(r.judgement.detail),
            output=_stored_output(r.response.text),
            input_tokens=r.response.input_tokens,
            output_tokens=r.response.output_tokens,
            cost_usd=r.response.cost_usd
            + (r.judgement.judge_response.cost_usd if r.judgement.judge_response else 0.0),
            latency_s=r.response.latency_s,
            failure_kind=str(r.response.failure) if r.response.failure else None,
            backend=r.response.backend,
            model=r.response.model,
            simulated=r.response.simulated,
        )
        for r in results
    )


def _stored_output(text: str) -> str:
    """A rollout's output as stored: redacted, then cut. What an agent printed in a
    checkout of the user's repository (a committed key, its own environment) never passed
    the harvest's redaction. Twice the kept length is redacted, so no secret is cut before
    it is read."""
    return scrub_text(text[: 2 * MAX_STORED_OUTPUT])[:MAX_STORED_OUTPUT]


CANDIDATE_STATUS = {"accept": "accepted", "reject": "rejected", "inconclusive": "inconclusive"}


def save_decision(
    db: OrmSession,
    night_id: int,
    document_id: int,
    candidate_id: int | None,
    decision: GateDecision,
    rounds: int,
    *,
    calibration: bool = False,
    futile: bool = False,
) -> None:
    row = db.get(Candidate, candidate_id) if candidate_id is not None else None
    db.add(
        GateDecisionRecord(
            candidate_id=candidate_id,
            document_id=document_id,
            night_id=night_id,
            outcome=decision.outcome,
            statistic=decision.statistic,
            p_value=decision.p_value,
            alpha=decision.alpha_used,
            calibration=calibration,
            val_lift=decision.mean_delta,
            rounds=rounds,
            look=row.look if row is not None else 1,
            reason=decision.reason,
            detail=decision.to_dict(),
        )
    )
    if row is not None:
        # A futility stop rejects tonight without banning the edit for good: it may
        # simply have been unlucky in its first rounds.
        row.status = "futile" if futile else CANDIDATE_STATUS[decision.outcome]
        row.reason = decision.reason


def mark_undecided(db: OrmSession, candidate_ids: Sequence[int]) -> None:
    """Candidates the night stopped before gating: inconclusive, so the next night retries."""
    for candidate_id in candidate_ids:
        row = db.get(Candidate, candidate_id)
        if row is not None and row.status == "pending_gate":
            row.status = "inconclusive"
            row.reason = "the night stopped before this candidate was gated"


def provenance(
    db: OrmSession,
    night_id: int,
    candidate: CandidateEdit,
    candidate_id: int,
    decision: GateDecision,
) -> dict[str, Any]:
    """sessions → episodes → tasks → trajectories → edits → verdict."""
    task_rows = db.execute(
        select(Rollout.task_id, Rollout.id, Rollout.split, Rollout.score).where(
            Rollout.night_id == night_id, Rollout.candidate_id.is_(None)
        )
    ).all()
    task_ids = sorted({t for t, _i, _s, _sc in task_rows})
    failing = [i for _t, i, split, score in task_rows if split == "train" and (score or 0) < 0.5]
    episodes = db.execute(
        select(Task.id, Episode.id, Session.external_id)
        .join(Episode, Episode.id == Task.episode_id)
        .join(Session, Session.id == Episode.session_id)
        .where(Task.id.in_(task_ids))
    ).all()
    failing_tasks = {
        t for t, _i, split, score in task_rows if split == "train" and (score or 0) < 0.5
    }
    clusters = [
        (int(t), int(c))
        for t, c in db.execute(select(Task.id, Task.cluster_id).where(Task.id.in_(task_ids)))
        if c is not None
    ]
    # The clusters it was meant to help (the watch compares their live outcomes): those of
    # the training tasks that failed, else every task the night replayed.
    meant = sorted({c for t, c in clusters if t in failing_tasks}) or sorted(
        {c for _t, c in clusters}
    )
    return {
        "sessions": sorted({s for _t, _e, s in episodes}),
        "episodes": sorted({e for _t, e, _s in episodes}),
        "tasks": task_ids,
        "clusters": meant,
        "trajectories": failing[:20],
        "candidate_id": candidate_id,
        "edits": candidate.edits_as_dicts(),
        "rationale": candidate.rationale,
        "verdict": {
            "outcome": decision.outcome,
            "p_value": decision.p_value,
            "reason": decision.reason,
        },
    }


def stage_proposal(
    db: OrmSession,
    night_id: int,
    target: PreparedTarget,
    candidate: CandidateEdit,
    candidate_id: int,
    decision: GateDecision,
    *,
    val_lift: float,
    test_lift: float | None,
    cost_usd: float,
    simulated: bool,
    superseded: Sequence[int],
    ablation: Sequence[dict[str, Any]] = (),
) -> int:
    """A pending proposal for this candidate, or the pending one with the same result.

    `ablation` holds the leave-one-out figures of a multi-edit candidate (evidence).
    """
    path = str(target.spec.path)
    new_hash = content_hash(candidate.content)
    same = db.scalar(
        select(Proposal).where(
            Proposal.document_id == target.document_id,
            Proposal.status == "pending",
            Proposal.base_hash == content_hash(target.base_content),
            Proposal.new_hash == new_hash,
        )
    )
    if same is not None:
        # The same resulting document is one proposal: tonight's evidence is noted on it.
        same.provenance = {
            **(same.provenance or {}),
            "restaged_by": [*(same.provenance or {}).get("restaged_by", []), night_id],
        }
        row = db.get(Candidate, candidate_id)
        if row is not None:
            row.status, row.reason = "superseded", f"same document as pending proposal #{same.id}"
        return same.id
    proposal = Proposal(
        candidate_id=candidate_id,
        night_id=night_id,
        document_id=target.document_id,
        base_version_id=target.base_version_id,
        base_hash=content_hash(target.base_content),
        new_content=candidate.content,
        new_hash=new_hash,
        diff=unified_diff(
            target.base_content, candidate.content, old_label=f"a{path}", new_label=f"b{path}"
        ),
        status="pending",
        p_value=decision.p_value,
        val_lift=round(val_lift, 6),
        test_lift=None if test_lift is None else round(test_lift, 6),
        cost_usd=round(cost_usd, 6),
        simulated=simulated,
        gate=decision.to_dict(),
        provenance={
            **provenance(db, night_id, candidate, candidate_id, decision),
            "baseline_hash": content_hash(target.working_content),
            "ablation": list(ablation),
        },
        safety_flags=[f.__dict__ for f in candidate.safety_flags],
    )
    db.add(proposal)
    db.flush()
    for other in superseded:
        row = db.get(Candidate, other)
        if row is not None:
            row.status, row.reason = "superseded", "another candidate had the larger lift"
    db.add(
        AuditEntry(
            actor="night",
            action="stage",
            object_type="proposal",
            object_id=str(proposal.id),
            detail={"night": night_id, "document": path, "simulated": simulated},
        )
    )
    return proposal.id


def orphaned_batches(db: OrmSession) -> list[tuple[int, int | None, str, str]]:
    """(row id, night id, backend, provider batch id) of batches whose night is over."""
    from sleepd.store.models import BatchJob, Night

    rows = db.execute(
        select(BatchJob.id, BatchJob.night_id, BatchJob.backend, BatchJob.provider_batch_id)
        .outerjoin(Night, Night.id == BatchJob.night_id)
        .where(BatchJob.status == "submitted", Night.status != "running")
    ).all()
    return [(r[0], r[1], r[2], r[3]) for r in rows]
