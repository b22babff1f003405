"""Rollback: put a document back exactly as a stored version had it.

The default target is the version the last adoption replaced (its backup); a
document the last adoption created (a new managed skill, say) is removed again. The
live content is stored first, so rolling back never loses a hand edit either, and
the restored content becomes the document's new reference for `sleepd verify`.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd import crashpoint
from sleepd.errors import ConflictError, ExitCode, NotFoundError, SleepdError
from sleepd.review.intents import Intent, remove_intent, write_intent
from sleepd.review.records import add_version, audit, ensure_backup
from sleepd.review.textfile import (
    content_hash,
    document_diff,
    read_live,
    remove_document,
    undo_write,
    write_document,
)
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import AuditEntry, DocumentVersion, TargetDocument
from sleepd.watch.rules import sync_from_versions


class AmbiguousTargetError(SleepdError):
    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class RollbackPlan:
    document_id: int
    path: str
    project: str
    version_id: int | None  # None: the document did not exist; rolling back removes it
    content: str
    live_hash: str | None
    diff: str

    @property
    def removes(self) -> bool:
        return self.version_id is None

    @property
    def is_noop(self) -> bool:
        if self.removes:
            return self.live_hash is None
        return not self.diff and self.live_hash is not None


@dataclass(frozen=True)
class RollbackResult:
    path: str
    restored_version_id: int | None  # None: removed, as before its first adoption
    new_version_id: int | None
    backup_version_id: int | None


def _same_path(a: str, b: str) -> bool:
    return a == b or Path(a).resolve() == Path(b).resolve()


def resolve_document(db: Session, target_path: str | None) -> TargetDocument:
    """The document named by --target, or the only one sleepd has adopted into."""
    documents = db.scalars(select(TargetDocument).order_by(TargetDocument.id)).all()
    if target_path is not None:
        for document in documents:
            if _same_path(document.path, target_path):
                return document
        raise NotFoundError(f"{target_path} is not a document sleepd manages")
    adopted = [d for d in documents if d.last_adopted_version_id is not None]
    if not adopted:
        raise NotFoundError("nothing has been adopted yet, so there is nothing to roll back")
    if len(adopted) > 1:
        names = ", ".join(d.path for d in adopted)
        raise AmbiguousTargetError(f"several documents were adopted ({names}); pass --target")
    return adopted[0]


def version_before_last_adoption(db: Session, document: TargetDocument) -> DocumentVersion | None:
    """The backup the last adoption recorded (None: the adoption created the document);
    older data falls back to the prior version."""
    last = db.scalars(
        select(DocumentVersion)
        .where(DocumentVersion.document_id == document.id, DocumentVersion.origin == "adopted")
        .order_by(DocumentVersion.id.desc())
        .limit(1)
    ).first()
    if last is None:
        raise NotFoundError(f"nothing was ever adopted into {document.path}")
    entry = db.scalars(
        select(AuditEntry)
        .where(
            AuditEntry.action == "adopt",
            AuditEntry.object_type == "proposal",
            AuditEntry.object_id == str(last.proposal_id),
        )
        .order_by(AuditEntry.id.desc())
        .limit(1)
    ).first()
    if entry is not None:
        backup_id = entry.detail.get("backup_version_id")
        if backup_id is None:
            return None  # it did not exist before: rolling back removes it
        backup = db.get(DocumentVersion, backup_id)
        if backup is not None:
            return backup
    earlier = db.scalars(
        select(DocumentVersion)
        .where(
            DocumentVersion.document_id == document.id,
            DocumentVersion.id < last.id,
            DocumentVersion.content_hash != last.content_hash,
        )
        .order_by(DocumentVersion.id.desc())
        .limit(1)
    ).first()
    if earlier is None:
        raise NotFoundError(f"no version of {document.path} before its last adoption")
    return earlier


def plan_rollback(
    engine: Engine, *, target_path: str | None = None, to_version: int | None = None
) -> RollbackPlan:
    with read_session(engine) as db:
        if to_version is not None:
            version = db.get(DocumentVersion, to_version)
            if version is None:
                raise NotFoundError(f"no version #{to_version}; `sleepd history` lists them")
            document = db.get(TargetDocument, version.document_id)
            if document is None or (
                target_path is not None and not _same_path(document.path, target_path)
            ):
                raise NotFoundError(f"version #{to_version} is not a version of {target_path}")
        else:
            document = resolve_document(db, target_path)
            version = version_before_last_adoption(db, document)
        path, project = document.path, document.project_path
        document_id = document.id
        version_id = version.id if version is not None else None
        content = version.content if version is not None else ""
    live = read_live(path)
    return RollbackPlan(
        document_id=document_id,
        path=path,
        project=project,
        version_id=version_id,
        content=content,
        live_hash=live.hash,
        diff=document_diff(live.text or "", content, path),
    )


def execute_rollback(engine: Engine, plan: RollbackPlan, *, actor: str) -> RollbackResult:
    """Back up the live document, restore the version byte for byte (or remove a
    document the last adoption created), record it; survives a kill at any point (an
    intent record is written before the file changes, see `review.intents`)."""
    live = read_live(plan.path)
    if live.hash != plan.live_hash:
        raise ConflictError(f"{plan.path} changed while rolling back; nothing was written")
    with write_session(engine) as db:
        backup = ensure_backup(db, plan.document_id, live)
        backup_id = backup.id if backup is not None else None
    crashpoint.reach("rollback:backed-up")
    intent: Intent | None = None
    try:
        with write_session(engine) as db:
            document = db.get(TargetDocument, plan.document_id)
            if document is None:
                raise NotFoundError(f"{plan.path} is no longer a managed document")
            if read_live(plan.path).hash != plan.live_hash:
                raise ConflictError(f"{plan.path} changed while rolling back; nothing was written")
            intent = Intent.new(
                "rollback",
                path=document.path,
                project=document.project_path,
                from_hash=live.hash,
                to_hash=None if plan.removes else content_hash(plan.content),
                content=plan.content,
                detail={
                    "document_id": document.id,
                    "restored_version_id": plan.version_id,
                    "backup_version_id": backup_id,
                    "actor": actor,
                },
            )
            write_intent(intent)
            crashpoint.reach("rollback:intent-written")
            mode = None
            if plan.removes:
                remove_document(document.path, document.project_path)
            else:
                real = write_document(document.path, plan.content, document.project_path)
                mode = stat.S_IMODE(real.stat().st_mode)
            crashpoint.reach("rollback:file-written")
            new_id = record_rollback(db, intent, mode=mode)
            crashpoint.reach("rollback:recorded")
        crashpoint.reach("rollback:committed")
    except BaseException:
        if intent is not None:
            undo_write(intent, live)
        raise
    remove_intent(intent)
    return RollbackResult(plan.path, plan.version_id, new_id, backup_id)


def record_rollback(
    db: Session, intent: Intent, *, mode: int | None, recovered: bool = False
) -> int | None:
    """The rows of a rollback whose file is in place; the new version's id (None: removed)."""
    detail = intent.detail
    document = db.get(TargetDocument, int(detail["document_id"]))
    if document is None:
        raise NotFoundError(f"{intent.path} is no longer a managed document")
    restored = None
    if intent.to_hash is None:
        # No reference any more: `verify` has nothing to compare until the next adoption.
        document.last_adopted_version_id = None
    else:
        restored = add_version(db, document.id, intent.content, origin="rollback", mode=mode)
        document.last_adopted_version_id = restored.id
    backup_id = detail.get("backup_version_id")
    sync_from_versions(
        db,
        document,
        action="rollback",
        new_version_id=restored.id if restored is not None else None,
        new_content=intent.content if intent.to_hash is not None else "",
        backup_version_id=backup_id if isinstance(backup_id, int) else None,
    )
    audit(
        db,
        actor=str(detail.get("actor") or "sleepd"),
        action="rollback",
        object_type="document",
        object_id=document.id,
        detail={
            "path": document.path,
            "from_hash": intent.from_hash,
            "to_hash": restored.content_hash if restored is not None else None,
            "removed": intent.to_hash is None,
            "restored_version_id": detail.get("restored_version_id"),
            "new_version_id": restored.id if restored is not None else None,
            "backup_version_id": detail.get("backup_version_id"),
            "intent": intent.id,
            "recovered": recovered,
        },
    )
    db.flush()
    return restored.id if restored is not None else None
