"""The learned rules of a managed region: what they are, where they came from, how they do.

A rule is one line of a document's editable region (a bullet with its indented
continuation lines is one rule); headings, markers and blank lines are not rules. A rule
is identified by its text with whitespace normalised, so moving it or re-indenting it
keeps its history.

`sync_rules` runs inside the transaction that records an adoption or a rollback: rules
the change added get a row with the provenance of the proposal (night, tasks, clusters),
rules it removed are closed (by a deletion proposal, another adoption, or a rollback),
and a rule a rollback restores gets its old row back. Lines that were in the document
before sleepd tracked it, or were written by hand, get a row without a proposal: they
are listed but never proposed for deletion (sleepd deletes only what it learned).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.documents.targets import Editable, editable_region
from sleepd.store.models import (
    DocumentVersion,
    LearnedRule,
    Proposal,
    TargetDocument,
    Task,
    utcnow,
)

_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def rule_hash(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()


def region_text(content: str, editable: str) -> str:
    span = editable_region(content, _editable(editable))
    return "" if span is None else content[span[0] : span[1]]


def _editable(value: str) -> Editable:
    return "body" if value == "body" else "managed_section"


def rules_in(content: str, editable: str) -> list[str]:
    """The rules of the editable region, in order (see the module docstring)."""
    rules: list[str] = []
    for line in region_text(content, editable).splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "<!--", "```")) or stripped == "---":
            continue
        continuation = line[:1] in (" ", "\t") and not _BULLET.match(line)
        if continuation and rules:
            rules[-1] += "\n" + line.rstrip()
        else:
            rules.append(line.rstrip())
    return rules


def document_without(content: str, editable: str, rules: Sequence[str]) -> str:
    """The document with these rules' lines removed from its editable region only."""
    span = editable_region(content, _editable(editable))
    if span is None:
        return content
    start, end = span
    inside = content[start:end]
    for rule in rules:
        if rule + "\n" in inside:
            inside = inside.replace(rule + "\n", "", 1)
        else:
            inside = inside.replace(rule, "", 1)
    return content[:start] + inside + content[end:]


def _provenance(db: Session, proposal: Proposal | None) -> dict[str, Any]:
    if proposal is None:
        return {}
    data = proposal.provenance or {}
    tasks = [int(t) for t in data.get("tasks", []) if isinstance(t, int)]
    clusters = [int(c) for c in data.get("clusters", []) if isinstance(c, int)]
    if not clusters and tasks:
        clusters = sorted(
            {
                c
                for c in db.scalars(select(Task.cluster_id).where(Task.id.in_(tasks)))
                if c is not None
            }
        )
    return {
        "proposal_id": proposal.id,
        "night_id": proposal.night_id,
        "task_ids": tasks,
        "cluster_ids": clusters,
        "simulated": bool(proposal.simulated),
    }


def sync_rules(
    db: Session,
    document: TargetDocument,
    before: str,
    after: str,
    *,
    action: str,
    version_id: int | None,
    proposal: Proposal | None = None,
) -> None:
    """Record the rules a change (`adopt` or `rollback`) added and removed."""
    now = utcnow()
    present = {rule_hash(t): t for t in rules_in(after, document.editable)}
    previous = {rule_hash(t) for t in rules_in(before, document.editable)}
    active = {
        r.text_hash: r
        for r in db.scalars(
            select(LearnedRule).where(
                LearnedRule.document_id == document.id, LearnedRule.removed_at.is_(None)
            )
        )
    }
    deleting = bool(proposal is not None and (proposal.provenance or {}).get("kind") == "delete")
    for digest, row in active.items():
        if digest not in present:
            row.removed_at = now
            row.removed_reason = "deleted" if deleting else action
            row.removed_by_proposal_id = proposal.id if proposal is not None else None
    learned = _provenance(db, proposal) if action == "adopt" and not deleting else {}
    for digest, text in present.items():
        if digest in active:
            continue
        restored = None
        if action == "rollback" or digest in previous:
            restored = db.scalars(
                select(LearnedRule)
                .where(LearnedRule.document_id == document.id, LearnedRule.text_hash == digest)
                .order_by(LearnedRule.id.desc())
                .limit(1)
            ).first()
        if restored is not None:
            restored.removed_at = None
            restored.removed_reason = None
            restored.removed_by_proposal_id = None
            continue
        fields = learned if digest not in previous else {}
        db.add(
            LearnedRule(
                document_id=document.id,
                text_hash=digest,
                text=text,
                added_at=now,
                added_version_id=version_id,
                **fields,
            )
        )
    db.flush()


def sync_from_versions(
    db: Session,
    document: TargetDocument,
    *,
    action: str,
    new_version_id: int | None,
    new_content: str,
    backup_version_id: int | None,
    proposal: Proposal | None = None,
) -> None:
    """`sync_rules` with the replaced content read from the change's backup version."""
    backup = db.get(DocumentVersion, backup_version_id) if backup_version_id else None
    sync_rules(
        db,
        document,
        backup.content if backup is not None else "",
        new_content,
        action=action,
        version_id=new_version_id,
        proposal=proposal,
    )


def measurable_rules(
    db: Session, document_id: int, content: str, editable: str, limit: int
) -> list[tuple[int, str]]:
    """Learned rules (with a proposal) present in `content`, least recently measured first."""
    present = {rule_hash(t): t for t in rules_in(content, editable)}
    rows = db.scalars(
        select(LearnedRule).where(
            LearnedRule.document_id == document_id,
            LearnedRule.removed_at.is_(None),
            LearnedRule.proposal_id.is_not(None),
        )
    ).all()
    chosen = [r for r in rows if r.text_hash in present]
    chosen.sort(key=lambda r: (r.last_measured_at is not None, r.last_measured_at or r.added_at))
    return [(r.id, present[r.text_hash]) for r in chosen[:limit]]


def record_contribution(
    db: Session, rule_id: int, contribution: float | None, night_id: int
) -> None:
    row = db.get(LearnedRule, rule_id)
    if row is None:
        return
    row.last_contribution = None if contribution is None else round(contribution, 4)
    row.last_measured_at = utcnow()
    row.last_measured_night_id = night_id
    row.measurements = (row.measurements or 0) + 1


@dataclass
class RuleView:
    """One rule as `sleepd rules` shows it."""

    id: int | None
    document: str
    text: str
    learned: bool
    proposal_id: int | None
    night_id: int | None
    added_at: datetime | None
    age_days: float | None
    tasks: int
    clusters: list[int] = field(default_factory=list)
    p_value: float | None = None
    val_lift: float | None = None
    simulated: bool = False
    last_contribution: float | None = None
    last_measured_at: datetime | None = None
    measurements: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RegionView:
    document: str
    size: int
    budget: int
    rules: list[RuleView]

    @property
    def over_budget(self) -> bool:
        return self.size > self.budget

    def to_dict(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "size": self.size,
            "budget": self.budget,
            "over_budget": self.over_budget,
            "rules": [r.to_dict() for r in self.rules],
        }


def list_rules(
    engine: Engine, *, budget: int, target: str | None = None, now: datetime | None = None
) -> list[RegionView]:
    """Every managed region's rules (live document, else its reference version)."""
    from sleepd.review.textfile import read_live
    from sleepd.store.engine import read_session
    from sleepd.store.fastread import as_utc

    now = now or datetime.now(UTC)
    out: list[RegionView] = []
    with read_session(engine) as db:
        documents = db.scalars(select(TargetDocument).order_by(TargetDocument.id)).all()
        for document in documents:
            if target is not None and document.path != target:
                continue
            content = read_live(document.path).text
            if content is None and document.last_adopted_version_id is not None:
                version = db.get(DocumentVersion, document.last_adopted_version_id)
                content = version.content if version is not None else None
            if content is None:
                continue
            rows = {
                r.text_hash: r
                for r in db.scalars(
                    select(LearnedRule)
                    .where(LearnedRule.document_id == document.id)
                    .order_by(LearnedRule.id)
                )
            }
            views = []
            for text in rules_in(content, document.editable):
                row = rows.get(rule_hash(text))
                proposal = db.get(Proposal, row.proposal_id) if row and row.proposal_id else None
                added = as_utc(row.added_at) if row is not None else None
                views.append(
                    RuleView(
                        id=row.id if row is not None else None,
                        document=document.path,
                        text=text,
                        learned=bool(row is not None and row.proposal_id is not None),
                        proposal_id=row.proposal_id if row is not None else None,
                        night_id=row.night_id if row is not None else None,
                        added_at=added,
                        age_days=None
                        if added is None
                        else round((now - added).total_seconds() / 86400, 1),
                        tasks=len(row.task_ids or []) if row is not None else 0,
                        clusters=list(row.cluster_ids or []) if row is not None else [],
                        p_value=proposal.p_value if proposal is not None else None,
                        val_lift=proposal.val_lift if proposal is not None else None,
                        simulated=bool(row.simulated) if row is not None else False,
                        last_contribution=row.last_contribution if row is not None else None,
                        last_measured_at=as_utc(row.last_measured_at) if row else None,
                        measurements=row.measurements if row is not None else 0,
                    )
                )
            size = len(region_text(content, document.editable))
            out.append(RegionView(document.path, size, budget, views))
    return out
