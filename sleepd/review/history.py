"""`sleepd history`: every stored version of the managed documents, newest first."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.review.rollback import resolve_document
from sleepd.store.engine import read_session
from sleepd.store.models import DocumentVersion, TargetDocument
from sleepd.watch.linking import EngineReader
from sleepd.watch.report import WatchSettings, watch_adoptions


@dataclass(frozen=True)
class VersionRow:
    id: int
    document_id: int
    path: str
    created_at: datetime
    origin: str
    hash: str
    size: int
    mode: int | None
    proposal_id: int | None
    current: bool
    #: an adopted version's live verdict (`sleepd.watch`): helping / no evidence yet / looks worse
    watch: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def list_history(
    engine: Engine, *, target_path: str | None = None, watch: WatchSettings | None = None
) -> list[VersionRow]:
    """Versions of one document (--target) or of all; `current` marks the reference version.

    With `watch` settings, each adopted version carries the watch's verdict on it.
    """
    verdicts: dict[int, dict[str, Any]] = {}
    if watch is not None:
        for w in watch_adoptions(EngineReader(engine), watch):
            if w.version_id is not None:
                verdicts.setdefault(w.version_id, w.to_dict())
    with read_session(engine) as db:
        query = select(DocumentVersion, TargetDocument).join(
            TargetDocument, TargetDocument.id == DocumentVersion.document_id
        )
        if target_path is not None:
            query = query.where(TargetDocument.id == resolve_document(db, target_path).id)
        rows = db.execute(query.order_by(DocumentVersion.id.desc())).all()
        return [
            VersionRow(
                id=v.id,
                document_id=d.id,
                path=d.path,
                created_at=v.created_at,
                origin=v.origin,
                hash=v.content_hash,
                size=len(v.content.encode("utf-8")),
                mode=v.mode,
                proposal_id=v.proposal_id,
                current=d.last_adopted_version_id == v.id,
                watch=verdicts.get(v.id),
            )
            for v, d in rows
        ]
