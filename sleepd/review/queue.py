"""Proposals as plain views for the interactive queue, `review list` and `review show`.

`list_proposals` is portable SQL through a `sleepd.store.fastread` reader, so
`review list` on a SQLite home imports no SQLAlchemy; the rest loads the models.
"""

from __future__ import annotations

import getpass
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sleepd.errors import NotFoundError
from sleepd.store.fastread import as_reader, stored_bool, stored_datetime, stored_json

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from sqlalchemy.orm import Session

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


def load_proposal(db: Session, proposal_id: int) -> tuple[Proposal, TargetDocument]:
    from sleepd.store.models import Proposal, TargetDocument

    proposal = db.get(Proposal, proposal_id)
    if proposal is None:
        raise NotFoundError(f"no proposal #{proposal_id}; `sleepd review list` shows them")
    document = db.get(TargetDocument, proposal.document_id)
    if document is None:  # cascade makes this unreachable unless the database is damaged
        raise NotFoundError(f"proposal #{proposal_id} points at a missing document")
    return proposal, document


def get_proposal(db: Any, proposal_id: int) -> ProposalView:
    """One proposal's view; `db` is a `sleepd.store.fastread` reader or an engine."""
    rows = as_reader(db).rows(_LIST_SQL + " WHERE p.id = :id", {"id": proposal_id})
    if not rows:
        raise NotFoundError(f"no proposal #{proposal_id}; `sleepd review list` shows them")
    return _view_of_row(rows[0])


_LIST_SQL = (
    "SELECT p.id, p.status, d.project_path, d.id, d.path, d.kind, p.night_id, p.created_at, "
    "p.gate, p.p_value, p.val_lift, p.test_lift, p.cost_usd, p.simulated, p.safety_flags, "
    "p.base_version_id, p.base_hash, p.new_hash, p.diff, p.decided_at, p.decided_by, "
    "p.decision_reason, p.edited_by_reviewer, p.adopted_version_id "
    "FROM proposals p JOIN target_documents d ON d.id = p.document_id"
)


def list_proposals(db: Any, *, status: str | None = "pending") -> list[ProposalView]:
    """Proposals oldest first (the order a person should decide them), optionally one status.

    `db` is a `sleepd.store.fastread` reader or a SQLAlchemy engine."""
    sql = _LIST_SQL + (" WHERE p.status = :status" if status is not None else "")
    rows = as_reader(db).rows(
        sql + " ORDER BY p.created_at, p.id", {"status": status} if status is not None else {}
    )
    return [_view_of_row(row) for row in rows]


def _view_of_row(row: Any) -> ProposalView:
    (
        proposal_id,
        status,
        project,
        document_id,
        document_path,
        document_kind,
        night_id,
        created_at,
        gate_value,
        p_value,
        val_lift,
        test_lift,
        cost_usd,
        simulated,
        safety_flags,
        base_version_id,
        base_hash,
        new_hash,
        diff,
        decided_at,
        decided_by,
        decision_reason,
        edited_by_reviewer,
        adopted_version_id,
    ) = row
    gate = stored_json(gate_value) or {}
    created = stored_datetime(created_at)
    assert created is not None
    return ProposalView(
        id=proposal_id,
        status=status,
        project=project,
        document_id=document_id,
        document_path=document_path,
        document_kind=document_kind,
        night_id=night_id,
        created_at=created,
        gate_outcome=str(gate.get("outcome", "accept")),
        p_value=p_value,
        alpha=gate.get("alpha_used", gate.get("alpha")),
        look=gate.get("look"),
        max_looks=gate.get("max_looks"),
        val_lift=val_lift,
        test_lift=test_lift,
        cost_usd=cost_usd,
        simulated=bool(stored_bool(simulated)),
        safety_flags=list(stored_json(safety_flags) or []),
        base_version_id=base_version_id,
        base_hash=base_hash,
        new_hash=new_hash,
        diff=diff,
        decided_at=stored_datetime(decided_at),
        decided_by=decided_by,
        decision_reason=decision_reason,
        edited_by_reviewer=bool(stored_bool(edited_by_reviewer)),
        adopted_version_id=adopted_version_id,
    )


def proposed_content(engine: Engine, proposal_id: int) -> str:
    """The full proposed document (what `e` opens in the editor)."""
    from sleepd.store.engine import read_session

    with read_session(engine) as db:
        proposal, _document = load_proposal(db, proposal_id)
        return proposal.new_content
