"""Full-text search over harvested event text (FTS5 on SQLite, LIKE elsewhere)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, text
from sqlalchemy.engine import Engine

from sleepd.store.dialect import FTS_TABLE, fts_match_query, has_fts, like_pattern
from sleepd.store.models import Event, Session


@dataclass(frozen=True)
class SearchHit:
    event_id: int
    session_external_id: str
    source: str
    project_path: str | None
    ts: datetime | None
    kind: str
    snippet: str


def search_events(
    engine: Engine,
    query: str,
    *,
    project: str | None = None,
    source: str | None = None,
    limit: int = 20,
) -> list[SearchHit]:
    if not query.strip():
        return []
    stmt = (
        select(
            Event.id,
            Session.external_id,
            Session.source,
            Session.project_path,
            Event.ts,
            Event.kind,
            Event.text,
        )
        .join(Session, Session.id == Event.session_id)
        .order_by(Event.ts.desc())
        .limit(limit)
    )
    terms = query.split()
    with engine.connect() as conn:
        substrings = terms
        if has_fts(conn):
            match, substrings = fts_match_query(terms)
            if match:
                stmt = stmt.where(
                    Event.id.in_(
                        select(text("rowid"))
                        .select_from(text(FTS_TABLE))
                        .where(text(f"{FTS_TABLE} MATCH :match"))
                    )
                ).params(match=match)
        for term in substrings:
            stmt = stmt.where(Event.text.ilike(like_pattern(term), escape="\\"))
        if project:
            stmt = stmt.where(Session.project_path == project)
        if source:
            stmt = stmt.where(Session.source == source)
        rows = conn.execute(stmt).all()
    return [SearchHit(r[0], r[1], r[2], r[3], r[4], r[5], _snippet(r[6], query)) for r in rows]


def _snippet(body: str, query: str, width: int = 160) -> str:
    lowered = body.lower()
    positions = [lowered.find(t.lower()) for t in query.split()]
    found = [p for p in positions if p >= 0]
    start = max(0, (min(found) if found else 0) - width // 3)
    piece = body[start : start + width].replace("\n", " ")
    return ("…" if start else "") + piece + ("…" if start + width < len(body) else "")
