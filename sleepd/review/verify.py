"""`sleepd verify`: is every adopted document still what sleepd last wrote?

A hand edit or tampering is reported and its content stored as an "observed"
version, so a night never builds a proposal on a document it does not know.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.errors import ConflictError
from sleepd.review.records import add_version
from sleepd.review.textfile import read_live
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import DocumentVersion, TargetDocument

CHECK_STATES = ("ok", "changed", "missing", "unreadable", "damaged")


@dataclass(frozen=True)
class DocumentCheck:
    document_id: int
    path: str
    status: str
    expected_hash: str
    observed_hash: str | None
    observed_version_id: int | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _check_one(engine: Engine, document_id: int) -> DocumentCheck | None:
    with write_session(engine) as db:
        document = db.get(TargetDocument, document_id)
        if document is None or document.last_adopted_version_id is None:
            return None
        expected = db.get(DocumentVersion, document.last_adopted_version_id)
        if expected is None:
            return None
        base = DocumentCheck(document.id, document.path, "ok", expected.content_hash, None)
        try:
            live = read_live(document.path)
        except ConflictError as exc:
            return DocumentCheck(**{**asdict(base), "status": "unreadable", "detail": str(exc)})
        if live.text is None:
            return DocumentCheck(**{**asdict(base), "status": "missing"})
        if live.hash == expected.content_hash:
            lost = _lost_proposal_lines(db, expected, live.text)
            if lost:
                return DocumentCheck(
                    **{
                        **asdict(base),
                        "status": "damaged",
                        "observed_hash": live.hash,
                        "detail": f"{len(lost)} line(s) the adopted proposal added are not whole"
                        f" lines of the document (glued or cut): {lost[0][:80]!r}",
                    }
                )
            return DocumentCheck(**{**asdict(base), "observed_hash": live.hash})
        known = db.scalars(
            select(DocumentVersion).where(
                DocumentVersion.document_id == document.id,
                DocumentVersion.content_hash == live.hash,
                DocumentVersion.id > expected.id,
            )
        ).first()
        observed = known or add_version(
            db, document.id, live.text, origin="observed", mode=live.mode
        )
        return DocumentCheck(
            **{
                **asdict(base),
                "status": "changed",
                "observed_hash": live.hash,
                "observed_version_id": observed.id,
            }
        )


def _lost_proposal_lines(db: Any, adopted: DocumentVersion, text: str) -> list[str]:
    """Lines the adopted proposal added that are not whole lines of `text`.

    An adoption writes every line its proposal added, as a line of its own, whatever
    merge it went through; one that is missing or glued to a neighbour means the
    adopted content itself is wrong, even though the file matches it byte for byte.
    """
    from sleepd.store.models import Proposal

    if adopted.origin != "adopted" or adopted.proposal_id is None:
        return []
    proposal = db.get(Proposal, adopted.proposal_id)
    if proposal is None:
        return []
    base = db.get(DocumentVersion, proposal.base_version_id)
    base_lines = {line.rstrip("\r\n") for line in (base.content if base else "").splitlines()}
    present = {line.rstrip("\r\n") for line in text.splitlines()}
    added = [
        line.rstrip("\r\n")
        for line in proposal.new_content.splitlines()
        if line.strip() and line.rstrip("\r\n") not in base_lines
    ]
    return [line for line in added if line not in present]


def verify_documents(engine: Engine) -> list[DocumentCheck]:
    """Check every document sleepd adopted into; records unseen changes as observed versions."""
    with read_session(engine) as db:
        ids = list(
            db.scalars(
                select(TargetDocument.id)
                .where(TargetDocument.last_adopted_version_id.is_not(None))
                .order_by(TargetDocument.id)
            )
        )
    checks = [_check_one(engine, document_id) for document_id in ids]
    return [c for c in checks if c is not None]
