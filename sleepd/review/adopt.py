"""Adoption: write an accepted proposal into its document, safely, and record it.

Guarantees, in order: the live document is stored as a backup version before it is
touched; a document that changed since the proposal was staged is refused unless the
two sets of changes are apart, and then only merged when the caller allows it; the
write is atomic and confined to the document's project; every adoption leaves a
version row, an audit entry and stale marks on sibling proposals. The night's
auto-adopt calls the same function, so both paths keep the same promises.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, field, replace

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd import crashpoint
from sleepd.documents.identity import not_here_reason
from sleepd.documents.merge import three_way_merge
from sleepd.errors import ConflictError, SleepdError
from sleepd.review.intents import Intent, remove_intent, write_intent
from sleepd.review.queue import load_proposal
from sleepd.review.records import add_version, audit, ensure_backup
from sleepd.review.textfile import (
    LiveDocument,
    content_hash,
    document_diff,
    read_live,
    undo_write,
    write_document,
)
from sleepd.review.validate import document_problems
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import DocumentVersion, Proposal, TargetDocument, utcnow
from sleepd.watch.rules import sync_from_versions


class InvalidDocumentError(SleepdError):
    """An edited document that fails validation (frontmatter, size)."""


class MergeRequired(ConflictError):
    """The document changed since staging but apart from the proposal: merging needs a yes."""

    def __init__(self, plan: AdoptionPlan) -> None:
        super().__init__(
            f"{plan.path} changed since proposal #{plan.proposal_id} was staged; the changes "
            "do not overlap and can be merged: review the merge, then pass --yes-merge"
        )
        self.plan = plan


@dataclass(frozen=True)
class AdoptionPlan:
    """What adoption will write, decided against the document as it is now."""

    proposal_id: int
    document_id: int
    path: str
    project: str
    live_hash: str | None
    proposed: str
    content: str
    edited: bool
    merged: bool
    merge_diff: str = ""


@dataclass(frozen=True)
class AdoptionResult:
    proposal_id: int
    path: str
    adopted_version_id: int
    backup_version_id: int | None
    merged: bool
    edited: bool
    stale_proposal_ids: list[int] = field(default_factory=list)


def _require_pending(proposal: Proposal) -> None:
    if proposal.status != "pending":
        raise ConflictError(f"proposal #{proposal.id} is {proposal.status}, not pending")


def plan_adoption(
    engine: Engine, proposal_id: int, *, edited_content: str | None = None
) -> AdoptionPlan:
    """Decide what to write; ConflictError when the live document moved in the way."""
    with read_session(engine) as db:
        proposal, document = load_proposal(db, proposal_id)
        _require_pending(proposal)
        base = db.get(DocumentVersion, proposal.base_version_id)
        base_text = base.content if base is not None else ""
        content = proposal.new_content if edited_content is None else edited_content
        if edited_content is not None:
            problems = document_problems(document.kind, edited_content, path=document.path)
            if problems:
                raise InvalidDocumentError("; ".join(problems))
        path, project, document_id = document.path, document.project_path, document.id
        identity = document.repo_identity
        base_hash = proposal.base_hash
        edited = edited_content is not None and content_hash(content) != proposal.new_hash
    elsewhere = not_here_reason(project, identity)
    if elsewhere is not None:
        raise ConflictError(
            f"{elsewhere}; accept proposal #{proposal_id} on the machine that has it "
            "(list, show and reject work from any machine)"
        )
    live = read_live(path)
    plan = AdoptionPlan(
        proposal_id=proposal_id,
        document_id=document_id,
        path=path,
        project=project,
        live_hash=live.hash,
        proposed=content,
        content=content,
        edited=edited,
        merged=False,
    )
    if live.hash in (base_hash, content_hash(content)):
        return plan
    if live.text is None:
        if base_text == "":
            return plan
        raise ConflictError(
            f"{path} was deleted since proposal #{proposal_id} was staged; refusing to recreate it"
        )
    result = three_way_merge(base_text, live.text, content)
    if not result.ok or result.text is None:
        raise ConflictError(
            f"{path} changed since proposal #{proposal_id} was staged and the changes overlap "
            f"({len(result.conflicts)} conflicting hunk(s)); refusing to adopt"
        )
    return replace(
        plan,
        content=result.text,
        merged=True,
        merge_diff=document_diff(live.text, result.text, path),
    )


def _still_as_planned(plan: AdoptionPlan) -> LiveDocument:
    live = read_live(plan.path)
    if live.hash != plan.live_hash:
        raise ConflictError(f"{plan.path} changed again while adopting; nothing was written")
    return live


def execute_adoption(
    engine: Engine, plan: AdoptionPlan, *, actor: str, reason: str | None = None
) -> AdoptionResult:
    """Back up, announce, write atomically, record; survives a kill at any point.

    The backup is committed first. Inside the recording transaction (which holds the
    database's write lock, so adoptions of one document cannot interleave) an intent
    record is written, then the file is renamed into place, then the rows are added;
    the intent is removed after the commit. A kill in between leaves the intent for
    `recover.reconcile` (the next command): new file + pending proposal becomes the
    recorded adoption with its backup. A failure that is not a kill puts the old file
    back before the error is raised.
    """
    live = _still_as_planned(plan)
    with write_session(engine) as db:
        backup = ensure_backup(db, plan.document_id, live)
        backup_id = backup.id if backup is not None else None
    crashpoint.reach("adopt:backed-up")
    intent: Intent | None = None
    try:
        with write_session(engine) as db:
            proposal, document = load_proposal(db, plan.proposal_id)
            _require_pending(proposal)
            live = _still_as_planned(plan)
            intent = Intent.new(
                "adopt",
                path=document.path,
                project=document.project_path,
                from_hash=live.hash,
                to_hash=content_hash(plan.content),
                content=plan.content,
                detail={
                    "proposal_id": plan.proposal_id,
                    "document_id": document.id,
                    "backup_version_id": backup_id,
                    "merged": plan.merged,
                    "edited": plan.edited,
                    "proposed": plan.proposed if plan.edited else None,
                    "actor": actor,
                    "reason": reason,
                },
            )
            write_intent(intent)
            crashpoint.reach("adopt:intent-written")
            real = write_document(document.path, plan.content, document.project_path)
            crashpoint.reach("adopt:file-written")
            adopted_id, stale_ids = record_adoption(
                db, intent, mode=stat.S_IMODE(real.stat().st_mode)
            )
            crashpoint.reach("adopt:recorded")
        crashpoint.reach("adopt:committed")
    except BaseException:
        if intent is not None:
            undo_write(intent, live)
        raise
    remove_intent(intent)
    return AdoptionResult(
        proposal_id=plan.proposal_id,
        path=plan.path,
        adopted_version_id=adopted_id,
        backup_version_id=backup_id,
        merged=plan.merged,
        edited=plan.edited,
        stale_proposal_ids=stale_ids,
    )


def record_adoption(
    db: Session, intent: Intent, *, mode: int | None, recovered: bool = False
) -> tuple[int, list[int]]:
    """The rows of an adoption whose file is written: version, decision, audit, stale marks."""
    detail = intent.detail
    proposal, document = load_proposal(db, int(detail["proposal_id"]))
    _require_pending(proposal)
    if detail.get("edited") and detail.get("proposed") is not None:
        proposal.new_content = str(detail["proposed"])
        proposal.new_hash = content_hash(proposal.new_content)
    adopted = add_version(
        db, document.id, intent.content, origin="adopted", proposal_id=proposal.id, mode=mode
    )
    reason = detail.get("reason")
    if recovered:
        reason = ((reason or "") + " (recorded after an interrupted adoption)").strip()
    proposal.status = "accepted"
    proposal.decided_at = utcnow()
    proposal.decided_by = str(detail.get("actor") or "sleepd")
    proposal.decision_reason = reason
    proposal.edited_by_reviewer = bool(detail.get("edited"))
    proposal.adopted_version_id = adopted.id
    document.last_adopted_version_id = adopted.id
    sync_from_versions(
        db,
        document,
        action="adopt",
        new_version_id=adopted.id,
        new_content=intent.content,
        backup_version_id=_int_or_none(detail.get("backup_version_id")),
        proposal=proposal,
    )
    stale_ids = _mark_siblings_stale(db, document, proposal.id)
    audit(
        db,
        actor=str(detail.get("actor") or "sleepd"),
        action="adopt",
        object_type="proposal",
        object_id=proposal.id,
        detail={
            "document_id": document.id,
            "path": document.path,
            "from_hash": intent.from_hash,
            "to_hash": adopted.content_hash,
            "backup_version_id": detail.get("backup_version_id"),
            "adopted_version_id": adopted.id,
            "merged": bool(detail.get("merged")),
            "edited_by_reviewer": bool(detail.get("edited")),
            "stale_proposals": stale_ids,
            "intent": intent.id,
            "recovered": recovered,
        },
    )
    db.flush()
    return adopted.id, stale_ids


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None


def _mark_siblings_stale(db: Session, document: TargetDocument, adopted_id: int) -> list[int]:
    """Other pending proposals were built on the document before this adoption."""
    siblings = db.scalars(
        select(Proposal).where(
            Proposal.document_id == document.id,
            Proposal.status == "pending",
            Proposal.id != adopted_id,
        )
    ).all()
    for sibling in siblings:
        sibling.status = "stale"
        sibling.decided_at = utcnow()
        sibling.decided_by = "sleepd"
        sibling.decision_reason = f"its document changed when proposal #{adopted_id} was adopted"
    return [s.id for s in siblings]


def adopt_proposal(
    engine: Engine,
    proposal_id: int,
    *,
    actor: str,
    allow_merge: bool = False,
    edited_content: str | None = None,
    reason: str | None = None,
) -> AdoptionResult:
    """Plan and adopt in one call; MergeRequired when a merge is possible but not allowed."""
    plan = plan_adoption(engine, proposal_id, edited_content=edited_content)
    if plan.merged and not allow_merge:
        raise MergeRequired(plan)
    return execute_adoption(engine, plan, actor=actor, reason=reason)


def reject_proposal(
    engine: Engine, proposal_id: int, *, actor: str, reason: str | None = None
) -> None:
    with write_session(engine) as db:
        proposal, document = load_proposal(db, proposal_id)
        _require_pending(proposal)
        proposal.status = "rejected"
        proposal.decided_at = utcnow()
        proposal.decided_by = actor
        proposal.decision_reason = reason or None
        audit(
            db,
            actor=actor,
            action="reject",
            object_type="proposal",
            object_id=proposal.id,
            detail={"document_id": document.id, "path": document.path, "reason": reason or ""},
        )
