"""The regression watch: did real work get better, stay the same, or get worse after an
adoption?

For each adoption, live episodes of the document's project are split by their session's
start at the adoption time (counted by the database, one grouped query per adoption):
*before* (the version it replaced was in force, at most `watch.window_days` back) and
*after* (until the document changed again, or now). Only sessions whose agent read the
document count (see `linking`); for a skill, the *after* side keeps the sessions that
loaded it, and the *before* side keeps the sessions that loaded the older skill, or every
session of a Claude Code user when the adoption created the skill. An episode counts with
a known outcome: `success` against `failure` or `mixed` (it needed a correction);
`abandoned` and `unknown` episodes say nothing and are left out.

Two comparisons, each Fisher's exact test one-sided both ways (`stats`): the task clusters
the adoption was meant to help (recorded by its night: the clusters of the training tasks
that failed, else of every task it replayed) and the
project's other recurring clusters, pooled. A verdict needs `watch.min_episodes` on each
side; "looks worse" when either comparison is significantly worse at `watch.alpha`,
"helping" when the target clusters are significantly better and nothing looks worse,
otherwise "no evidence yet". Live sessions are not a controlled trial: docs/watch.md says
what this can and cannot show.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sleepd.store.fastread import db_to_utc_param
from sleepd.watch.linking import (
    Change,
    Document,
    Reader,
    changes,
    documents,
    project_filter,
    read_filter,
)
from sleepd.watch.stats import RateComparison, Verdict, fisher_one_sided, verdict_for


@dataclass(frozen=True)
class WatchSettings:
    alpha: float = 0.05
    min_episodes: int = 8
    window_days: float = 30.0
    min_recurrence: int = 2

    @classmethod
    def from_config(cls, cfg: Any) -> WatchSettings:
        return cls(
            alpha=cfg.watch.alpha,
            min_episodes=cfg.watch.min_episodes,
            window_days=cfg.watch.window_days,
            min_recurrence=cfg.mining.min_recurrence,
        )


@dataclass(frozen=True)
class Arm:
    """One comparison (target clusters, or the other recurring clusters)."""

    clusters: list[int]
    comparison: RateComparison
    verdict: Verdict

    def to_dict(self) -> dict[str, Any]:
        return {"clusters": self.clusters, **self.comparison.to_dict(), "verdict": self.verdict}


@dataclass
class AdoptionWatch:
    """The watch's figures for one adoption."""

    proposal_id: int | None
    document_id: int
    path: str
    project: str
    kind: str
    version_id: int | None
    adopted_at: datetime
    until: datetime | None  # the document changed again (None: still in force)
    in_force: bool
    simulated: bool
    sessions_after: int  # main sessions of the project after the adoption
    sessions_read_after: int  # of which their agent read the document
    target: Arm
    others: Arm
    verdict: Verdict
    reason: str
    rollback_command: str | None
    per_cluster: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "proposal_id": self.proposal_id,
            "document_id": self.document_id,
            "path": self.path,
            "project": self.project,
            "kind": self.kind,
            "version_id": self.version_id,
            "adopted_at": self.adopted_at.isoformat(),
            "until": None if self.until is None else self.until.isoformat(),
            "in_force": self.in_force,
            "simulated": self.simulated,
            "sessions_after": self.sessions_after,
            "sessions_read_after": self.sessions_read_after,
            "target": self.target.to_dict(),
            "others": self.others.to_dict(),
            "per_cluster": self.per_cluster,
            "verdict": self.verdict,
            "reason": self.reason,
            "rollback_command": self.rollback_command,
        }


#: (cluster id, "before" or "after") -> (successes, episodes with a known outcome)
Counts = dict[tuple[int, str], tuple[int, int]]


def watch_adoptions(
    db: Reader, settings: WatchSettings, *, now: datetime | None = None
) -> list[AdoptionWatch]:
    """Every adoption of every managed document, newest first, with its verdict."""
    now = now or datetime.now(UTC)
    out: list[AdoptionWatch] = []
    for document in documents(db):
        timeline = changes(db, document.id)
        for i, change in enumerate(timeline):
            if change.action == "adopt":
                out.append(_watch_one(db, document, timeline, i, settings, now))
    out.sort(key=lambda w: w.adopted_at, reverse=True)
    return out


def _proposal(db: Reader, proposal_id: int | None) -> tuple[bool, dict[str, Any]]:
    if proposal_id is None:
        return False, {}
    rows = db.rows("SELECT simulated, provenance FROM proposals WHERE id = :p", {"p": proposal_id})
    if not rows:
        return False, {}
    simulated, provenance = rows[0]
    data = provenance if isinstance(provenance, dict) else json.loads(provenance or "{}")
    return bool(simulated), data if isinstance(data, dict) else {}


def target_clusters(db: Reader, provenance: dict[str, Any]) -> list[int]:
    """The clusters an adoption was meant to help: recorded by the night, else the
    clusters of the tasks it replayed."""
    recorded = provenance.get("clusters")
    if isinstance(recorded, list) and recorded:
        return sorted({int(c) for c in recorded if isinstance(c, int)})
    tasks = [int(t) for t in provenance.get("tasks", []) if isinstance(t, int)]
    if not tasks:
        return []
    marks = ", ".join(f":t{i}" for i in range(len(tasks)))
    rows = db.rows(
        f"SELECT DISTINCT cluster_id FROM tasks WHERE id IN ({marks}) AND cluster_id IS NOT NULL",
        {f"t{i}": t for i, t in enumerate(tasks)},
    )
    return sorted(int(r[0]) for r in rows)


def _episode_counts(
    db: Reader,
    document: Document,
    *,
    before_from: datetime,
    start: datetime,
    end: datetime,
    created: bool,
) -> Counts:
    """Known outcomes of the sessions that read the document, by cluster and side, counted
    by the database (a session is on the side of its start)."""
    where, params = project_filter(db, document.project)
    read_after, p_after = read_filter(document)
    read_before, p_before = read_filter(document, baseline_all_claude=created)
    params.update(p_after)
    params.update(p_before)
    params.update(
        start=db_to_utc_param(start), before_from=db_to_utc_param(before_from),
        end=db_to_utc_param(end),
    )  # fmt: skip
    rows = db.rows(
        "SELECT e.cluster_id, CASE WHEN s.started_at >= :start THEN 'after' ELSE 'before' END, "
        "sum(CASE WHEN e.outcome = 'success' THEN 1 ELSE 0 END), count(*) "
        f"FROM episodes e JOIN sessions s ON s.id = e.session_id WHERE {where} "
        "AND e.cluster_id IS NOT NULL AND e.outcome IN ('success', 'failure', 'mixed') "
        "AND s.started_at >= :before_from AND s.started_at < :end "
        f"AND ((s.started_at >= :start AND {read_after}) "
        f"OR (s.started_at < :start AND {read_before})) "
        "GROUP BY e.cluster_id, CASE WHEN s.started_at >= :start THEN 'after' ELSE 'before' END",
        params,
    )
    return {(int(c), str(side)): (int(ok or 0), int(n)) for c, side, ok, n in rows}


def _sessions_after(
    db: Reader, document: Document, start: datetime, end: datetime
) -> tuple[int, int]:
    """Main sessions of the project since the adoption, and how many read the document."""
    where, params = project_filter(db, document.project)
    read, p_read = read_filter(document)
    params.update(p_read)
    params.update(start=db_to_utc_param(start), end=db_to_utc_param(end))
    rows = db.rows(
        f"SELECT count(*), coalesce(sum(CASE WHEN {read} THEN 1 ELSE 0 END), 0) "
        f"FROM sessions s WHERE {where} AND s.started_at >= :start AND s.started_at < :end",
        params,
    )
    total, read_count = rows[0] if rows else (0, 0)
    return int(total or 0), int(read_count or 0)


def _watch_one(
    db: Reader,
    document: Document,
    timeline: Sequence[Change],
    index: int,
    settings: WatchSettings,
    now: datetime,
) -> AdoptionWatch:
    change = timeline[index]
    start = change.at
    until = timeline[index + 1].at if index + 1 < len(timeline) else None
    previous = timeline[index - 1].at if index > 0 else None
    before_from = start - timedelta(days=settings.window_days)
    if previous is not None and previous > before_from:
        before_from = previous
    end = until or now
    created = document.kind == "skill" and change.backup_version_id is None
    counts = _episode_counts(
        db, document, before_from=before_from, start=start, end=end, created=created
    )
    sessions_after, read_after = _sessions_after(db, document, start, end)
    simulated, provenance = _proposal(db, change.proposal_id)
    targets = target_clusters(db, provenance)
    seen: dict[int, int] = {}
    for (cluster, _side), (_ok, n) in counts.items():
        seen[cluster] = seen.get(cluster, 0) + n
    others = sorted(c for c, n in seen.items() if c not in targets and n >= settings.min_recurrence)
    target_arm = _arm(counts, targets, settings)
    other_arm = _arm(counts, others, settings)
    verdict, reason = _overall(target_arm, other_arm, settings)
    in_force = until is None and document.current_version_id == change.version_id
    return AdoptionWatch(
        proposal_id=change.proposal_id,
        document_id=document.id,
        path=document.path,
        project=document.project,
        kind=document.kind,
        version_id=change.version_id,
        adopted_at=start,
        until=until,
        in_force=in_force,
        simulated=simulated,
        sessions_after=sessions_after,
        sessions_read_after=read_after,
        target=target_arm,
        others=other_arm,
        verdict=verdict,
        reason=reason,
        rollback_command=rollback_command(document) if in_force else None,
        per_cluster=_per_cluster(counts, targets, others),
    )


def _side(counts: Counts, clusters: Sequence[int], side: str) -> tuple[int, int]:
    ok = sum(counts.get((c, side), (0, 0))[0] for c in clusters)
    n = sum(counts.get((c, side), (0, 0))[1] for c in clusters)
    return ok, n


def _arm(counts: Counts, clusters: Sequence[int], settings: WatchSettings) -> Arm:
    comparison = fisher_one_sided(
        *_side(counts, clusters, "before"), *_side(counts, clusters, "after")
    )
    verdict = verdict_for(comparison, alpha=settings.alpha, min_episodes=settings.min_episodes)
    return Arm(list(clusters), comparison, verdict)


def _overall(target: Arm, others: Arm, settings: WatchSettings) -> tuple[Verdict, str]:
    def figures(arm: Arm) -> str:
        c = arm.comparison
        return (
            f"{c.before_success}/{c.before_total} before, {c.after_success}/{c.after_total} after"
        )

    if target.verdict == "looks worse":
        p = target.comparison.p_worse
        return "looks worse", (
            f"the clusters it was meant to help got worse: {figures(target)} "
            f"(one-sided Fisher p={p:.3g} <= {settings.alpha:g})"
        )
    if others.verdict == "looks worse":
        p = others.comparison.p_worse
        return "looks worse", (
            f"the project's other recurring clusters got worse: {figures(others)} "
            f"(one-sided Fisher p={p:.3g} <= {settings.alpha:g})"
        )
    if target.verdict == "helping":
        p = target.comparison.p_better
        return "helping", (
            f"the clusters it was meant to help got better: {figures(target)} "
            f"(one-sided Fisher p={p:.3g} <= {settings.alpha:g})"
        )
    c = target.comparison
    if min(c.before_total, c.after_total) < settings.min_episodes:
        return "no evidence yet", (
            f"{figures(target)} in the clusters it was meant to help; a verdict needs "
            f"{settings.min_episodes} episodes with a known outcome on each side"
        )
    return "no evidence yet", (
        f"{figures(target)} in the clusters it was meant to help: no significant change "
        f"(p better {c.p_better:.3g}, p worse {c.p_worse:.3g})"
    )


def _per_cluster(counts: Counts, targets: list[int], others: list[int]) -> list[dict[str, Any]]:
    rows = []
    for cluster in [*targets, *others]:
        before_ok, before_n = counts.get((cluster, "before"), (0, 0))
        after_ok, after_n = counts.get((cluster, "after"), (0, 0))
        rows.append(
            {
                "cluster_id": cluster,
                "targeted": cluster in targets,
                "before_success": before_ok,
                "before_total": before_n,
                "after_success": after_ok,
                "after_total": after_n,
            }
        )
    return rows


def rollback_command(document: Document) -> str:
    """The exact command that undoes an adoption still in force (the document's last
    change): `sleepd rollback` restores what that adoption replaced."""
    return f"sleepd rollback --target {shlex.quote(document.path)}"


def in_force_worse(watches: Sequence[AdoptionWatch]) -> list[AdoptionWatch]:
    """Adoptions still in force that look worse: what `status --check` fails on."""
    return [w for w in watches if w.in_force and w.verdict == "looks worse"]


def watch_figures(db: Reader, cfg: Any, *, now: datetime | None = None) -> dict[str, Any]:
    """The `watch` section of `sleepd status`."""
    watches = watch_adoptions(db, WatchSettings.from_config(cfg), now=now)
    counts = {v: 0 for v in ("helping", "no evidence yet", "looks worse")}
    for w in watches:
        if w.in_force:
            counts[w.verdict] += 1
    return {
        "adoptions": [w.to_dict() for w in watches[:10]],
        "in_force": counts,
        "looks_worse": [
            {
                "proposal_id": w.proposal_id,
                "path": w.path,
                "reason": w.reason,
                "rollback_command": w.rollback_command,
            }
            for w in in_force_worse(watches)
        ],
        "auto_rollback": bool(cfg.watch.auto_rollback),
    }


def watch_for_proposal(
    db: Reader, settings: WatchSettings, proposal_id: int, *, now: datetime | None = None
) -> AdoptionWatch | None:
    """The watch's verdict on one adopted proposal (None: it was never adopted)."""
    for w in watch_adoptions(db, settings, now=now):
        if w.proposal_id == proposal_id:
            return w
    return None
