"""Small writes every decision shares: stored versions and the audit log."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from sleepd.review.textfile import LiveDocument, content_hash
from sleepd.store.models import AuditEntry, DocumentVersion


def find_version(db: Session, document_id: int, digest: str) -> DocumentVersion | None:
    """The newest stored version of this document with this content hash."""
    return db.scalars(
        select(DocumentVersion)
        .where(DocumentVersion.document_id == document_id, DocumentVersion.content_hash == digest)
        .order_by(DocumentVersion.id.desc())
        .limit(1)
    ).first()


def add_version(
    db: Session,
    document_id: int,
    text: str,
    *,
    origin: str,
    mode: int | None = None,
    proposal_id: int | None = None,
) -> DocumentVersion:
    version = DocumentVersion(
        document_id=document_id,
        content_hash=content_hash(text),
        content=text,
        mode=mode,
        origin=origin,
        proposal_id=proposal_id,
    )
    db.add(version)
    db.flush()
    return version


def ensure_backup(db: Session, document_id: int, live: LiveDocument) -> DocumentVersion | None:
    """Make sure the live content is stored before anything overwrites it."""
    if live.text is None:
        return None
    existing = find_version(db, document_id, content_hash(live.text))
    if existing is not None:
        return existing
    return add_version(db, document_id, live.text, origin="backup", mode=live.mode)


def audit(
    db: Session,
    *,
    actor: str,
    action: str,
    object_type: str,
    object_id: int | str | None,
    detail: dict[str, Any],
) -> None:
    db.add(
        AuditEntry(
            actor=actor,
            action=action,
            object_type=object_type,
            object_id=None if object_id is None else str(object_id),
            detail=detail,
        )
    )
