"""Read-only mining figures: for `sleepd status` and `sleepd patterns`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from sleepd.store.engine import read_session
from sleepd.store.models import (
    FailurePattern,
    PatternOccurrence,
)

TREND_WINDOW = timedelta(days=7)


@dataclass
class PatternRow:
    id: int
    signature: str
    tool_name: str | None
    error_class: str | None
    count: int
    last_7d: int
    previous_7d: int
    trend: str
    projects: list[str]
    clusters: list[int]
    example: str
    last_seen: datetime | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def trend_word(recent: int, previous: int) -> str:
    if recent == previous:
        return "flat" if recent else "quiet"
    if previous == 0:
        return "new"
    return "rising" if recent > previous else "falling"


def top_patterns(
    engine: Engine,
    *,
    project: str | None = None,
    limit: int = 20,
    now: datetime | None = None,
    min_count: int = 2,
) -> list[PatternRow]:
    """Most frequent failure patterns (in `project` when given), with a 7-day trend.

    Only patterns seen at least `min_count` times: a failure that happened once is
    not a pattern (pass 1 for all)."""
    now = now or datetime.now(UTC)
    recent_from, previous_from = now - TREND_WINDOW, now - 2 * TREND_WINDOW
    occ = PatternOccurrence
    with read_session(engine) as db:
        counts = select(occ.pattern_id, func.count(occ.id).label("n")).group_by(occ.pattern_id)
        if project:
            counts = counts.where(occ.project_path == project)
        counts = counts.having(func.count(occ.id) >= min_count)
        counts_sq = counts.subquery()
        patterns = db.execute(
            select(FailurePattern, counts_sq.c.n)
            .join(counts_sq, counts_sq.c.pattern_id == FailurePattern.id)
            .order_by(counts_sq.c.n.desc(), FailurePattern.id)
            .limit(limit)
        ).all()
        ids = [p.id for p, _ in patterns]
        recent: dict[int, int] = defaultdict(int)
        previous: dict[int, int] = defaultdict(int)
        projects: dict[int, set[str]] = defaultdict(set)
        clusters: dict[int, set[int]] = defaultdict(set)
        query = select(occ.pattern_id, occ.ts, occ.project_path, occ.cluster_id).where(
            occ.pattern_id.in_(ids)
        )
        if project:
            query = query.where(occ.project_path == project)
        for pattern_id, ts, proj, cluster in db.execute(query):
            if ts is not None:
                stamp = ts if ts.tzinfo else ts.replace(tzinfo=UTC)
                if stamp >= recent_from:
                    recent[pattern_id] += 1
                elif stamp >= previous_from:
                    previous[pattern_id] += 1
            if proj:
                projects[pattern_id].add(proj)
            if cluster is not None:
                clusters[pattern_id].add(cluster)
        return [
            PatternRow(
                id=p.id,
                signature=p.signature,
                tool_name=p.tool_name,
                error_class=p.error_class,
                count=int(n),
                last_7d=recent[p.id],
                previous_7d=previous[p.id],
                trend=trend_word(recent[p.id], previous[p.id]),
                projects=sorted(projects[p.id]),
                clusters=sorted(clusters[p.id]),
                example=p.example[:300],
                last_seen=p.last_seen,
            )
            for p, n in patterns
        ]
