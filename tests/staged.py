"""A pending proposal in the store as a night stages it, for the review and watch tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from sleepd.documents.versions import content_hash
from sleepd.review.textfile import document_diff
from sleepd.store.engine import write_session
from sleepd.store.models import DocumentVersion, Night, Proposal, TargetDocument


@dataclass(frozen=True)
class Staged:
    proposal_id: int
    document_id: int
    base_version_id: int


def stage_proposal(
    engine: Engine,
    project: Path,
    path: Path,
    new_content: str,
    *,
    base: str | None = None,
    kind: str = "skill",
    editable: str = "managed_section",
    **fields: Any,
) -> Staged:
    """Stage `base -> new_content` for the document at `path` (its row made on first use):
    a completed night, the base version as observed (the live file unless `base` is
    given), the diff and the gate's figures; `fields` set any other proposal column
    (`simulated`, `provenance`, `p_value`, ...)."""
    live = path.read_bytes().decode() if path.exists() else ""
    base_text = base if base is not None else live
    with write_session(engine) as db:
        document = db.query(TargetDocument).filter_by(path=str(path)).one_or_none()
        if document is None:
            document = TargetDocument(
                project_path=str(project), path=str(path), kind=kind, editable=editable
            )
            db.add(document)
            db.flush()
        night = Night(
            simulated=fields.get("simulated", False),
            status="completed",
            project_path=str(project),
        )
        db.add(night)
        version = DocumentVersion(
            document_id=document.id,
            content_hash=content_hash(base_text),
            content=base_text,
            origin="observed",
        )
        db.add(version)
        db.flush()
        values: dict[str, Any] = {
            "p_value": 0.004,
            "val_lift": 0.25,
            "test_lift": 0.2,
            "cost_usd": 0.12,
            "gate": {"outcome": "accept", "alpha": 0.05},
            "provenance": {"sessions": [], "verdict": "accept"},
            **fields,
        }
        proposal = Proposal(
            night_id=night.id,
            document_id=document.id,
            base_version_id=version.id,
            base_hash=version.content_hash,
            new_content=new_content,
            new_hash=content_hash(new_content),
            diff=document_diff(base_text, new_content, str(path)),
            **values,
        )
        db.add(proposal)
        db.flush()
        return Staged(proposal.id, document.id, version.id)
