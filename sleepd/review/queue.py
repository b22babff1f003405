"""Proposals as plain views for the interactive queue, `review list` and `review show`."""

from __future__ import annotations

import getpass
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.errors import NotFoundError
from sleepd.store.engine import read_session
from sleepd.store.models import Proposal, TargetDocument

PROPOSAL_STATES = ("pending", "accepted", "rejected", "stale", "superseded")


@dataclass(frozen=True)
class ProposalView:
    id: int
    status: str
    project: str
    document_id: int
    document_path: str
    document_kind: str
    night_id: int | None
    created_at: datetime
    gate_outcome: str
    p_value: float | None
    alpha: float | None  # the level the gate decided at (after looks and candidates)
    look: int | None
    max_looks: int | None
    val_lift: float | None
    test_lift: float | None
    cost_usd: float
    simulated: bool
    safety_flags: list[Any]
    base_version_id: int
    base_hash: str
    new_hash: str
    diff: str
    decided_at: datetime | None
    decided_by: str | None
    decision_reason: str | None
    edited_by_reviewer: bool
    adopted_version_id: int | None

    def to_dict(self, *, with_diff: bool = True) -> dict[str, Any]:
        data = asdict(self)
        if not with_diff:
            data.pop("diff")
        return data


def reviewer_name() -> str:
    """Who decided: the login name, recorded with every decision and audit entry."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def view_of(proposal: Proposal, document: TargetDocument) -> ProposalView:
    gate = proposal.gate or {}
    return ProposalView(
        id=proposal.id,
        status=proposal.status,
        project=document.project_path,
        document_id=document.id,
        document_path=document.path,
        document_kind=document.kind,
        night_id=proposal.night_id,
        created_at=proposal.created_at,
        gate_outcome=str(gate.get("outcome", "accept")),
        p_value=proposal.p_value,
        alpha=gate.get("alpha_used", gate.get("alpha")),
        look=gate.get("look"),
        max_looks=gate.get("max_looks"),
        val_lift=proposal.val_lift,
        test_lift=proposal.test_lift,
        cost_usd=proposal.cost_usd,
        simulated=proposal.simulated,
        safety_flags=list(proposal.safety_flags or []),
        base_version_id=proposal.base_version_id,
        base_hash=proposal.base_hash,
        new_hash=proposal.new_hash,
        diff=proposal.diff,
        decided_at=proposal.decided_at,
        decided_by=proposal.decided_by,
        decision_reason=proposal.decision_reason,
        edited_by_reviewer=proposal.edited_by_reviewer,
        adopted_version_id=proposal.adopted_version_id,
    )


def load_proposal(db: Session, proposal_id: int) -> tuple[Proposal, TargetDocument]:
    proposal = db.get(Proposal, proposal_id)
    if proposal is None:
        raise NotFoundError(f"no proposal #{proposal_id}; `sleepd review list` shows them")
    document = db.get(TargetDocument, proposal.document_id)
    if document is None:  # cascade makes this unreachable unless the database is damaged
        raise NotFoundError(f"proposal #{proposal_id} points at a missing document")
    return proposal, document


def get_proposal(engine: Engine, proposal_id: int) -> ProposalView:
    with read_session(engine) as db:
        return view_of(*load_proposal(db, proposal_id))


def list_proposals(engine: Engine, *, status: str | None = "pending") -> list[ProposalView]:
    """Proposals oldest first (the order a person should decide them), optionally one status."""
    query = select(Proposal, TargetDocument).join(
        TargetDocument, TargetDocument.id == Proposal.document_id
    )
    if status is not None:
        query = query.where(Proposal.status == status)
    with read_session(engine) as db:
        rows = db.execute(query.order_by(Proposal.created_at, Proposal.id)).all()
        return [view_of(p, d) for p, d in rows]


def proposed_content(engine: Engine, proposal_id: int) -> str:
    """The full proposed document (what `e` opens in the editor)."""
    with read_session(engine) as db:
        proposal, _document = load_proposal(db, proposal_id)
        return proposal.new_content
