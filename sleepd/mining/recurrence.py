"""The clustering step against the store: join, create, and refresh cluster figures.

Cluster keys are made once, from the scope and the founding episode, and never
change; a cluster's split follows from its key (see `splits`). The scope is the
project, or "*" when `MiningConfig.cross_project` is on; it is kept in the
centroid JSON so a cluster is only ever joined from its own scope.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from scipy import sparse
from sqlalchemy import Select, Table, bindparam, case, func, select, update
from sqlalchemy.orm import Session as DbSession

from sleepd.config import MiningConfig
from sleepd.mining.clusters import medoid, plan_clusters, row_sum
from sleepd.mining.persist import as_utc
from sleepd.mining.splits import split_for_key
from sleepd.mining.vectors import IntentVectorizer, decode_centroid, encode_centroid
from sleepd.store.models import Episode, PatternOccurrence, Session, TaskCluster

#: idf is fitted on at most this many of the newest intents.
IDF_SAMPLE = 5000
#: Members read to pick a cluster's medoid.
MEDOID_SAMPLE = 100
CROSS_PROJECT_SCOPE = "*"


@dataclass
class ClusterResult:
    clusters_new: int = 0
    episodes_clustered: int = 0
    touched: set[int] = field(default_factory=set)


def intent_episodes() -> Select[int, str, str | None, int]:
    """Episodes that carry a real user intent (main sessions, no subagent work)."""
    return (
        select(Episode.id, Episode.intent_text, Episode.project_path, Episode.session_id)
        .join(Session, Session.id == Episode.session_id)
        .where(
            Session.kind != "subagent",
            Episode.parent_episode_id.is_(None),
            Episode.intent_text != "",
        )
    )


def scope_of(project_path: str | None, cfg: MiningConfig) -> str:
    return CROSS_PROJECT_SCOPE if cfg.cross_project else (project_path or "")


def cluster_new_episodes(db: DbSession, cfg: MiningConfig) -> ClusterResult:
    result = ClusterResult()
    pending = db.execute(
        intent_episodes().where(Episode.cluster_id.is_(None)).order_by(Episode.id)
    ).all()
    if not pending:
        return result
    vectorizer = IntentVectorizer()
    sample = db.scalars(
        intent_episodes()
        .with_only_columns(Episode.intent_text)
        .order_by(Episode.id.desc())
        .limit(IDF_SAMPLE)
    ).all()
    vectorizer.fit_idf(list(sample))
    by_scope: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for episode_id, text, project, _session in pending:
        by_scope[scope_of(project, cfg)].append((episode_id, text))
    clusters = list(db.scalars(select(TaskCluster).order_by(TaskCluster.id)))
    for scope, items in by_scope.items():
        own = [c for c in clusters if (c.centroid or {}).get("scope") == scope]
        _cluster_scope(db, cfg, vectorizer, scope, items, own, result)
    return result


def _cluster_scope(
    db: DbSession,
    cfg: MiningConfig,
    vectorizer: IntentVectorizer,
    scope: str,
    items: Sequence[tuple[int, str]],
    existing: Sequence[TaskCluster],
    result: ClusterResult,
) -> None:
    raw = vectorizer.raw([text for _, text in items])
    weighted = vectorizer.weigh(raw)
    centroids = None
    if existing:
        stacked = sparse.vstack(
            [decode_centroid(c.centroid, vectorizer.n_features) for c in existing], format="csr"
        )
        centroids = vectorizer.weigh(stacked)
    plan = plan_clusters(weighted, centroids, cfg.similarity_threshold)
    assignments: dict[int, int] = {}
    members: dict[int, list[int]] = defaultdict(list)
    for row, target in plan.joins.items():
        members[existing[target].id].append(row)
    by_id = {c.id: c for c in existing}
    for cluster_id, rows in members.items():
        _grow_centroid(by_id[cluster_id], raw[rows], scope)
        assignments.update({items[r][0]: cluster_id for r in rows})
        result.touched.add(cluster_id)
    for group in plan.groups:
        founder_id, founder_text = items[group[0]]
        key = _cluster_key(scope, founder_id, founder_text)
        cluster = TaskCluster(
            key=key,
            representative_intent=founder_text[:2000],
            split=split_for_key(key, cfg.val_fraction, cfg.test_fraction),
            centroid={},
            projects=[],
        )
        _grow_centroid(cluster, raw[group], scope)
        db.add(cluster)
        db.flush()
        assignments.update({items[r][0]: cluster.id for r in group})
        result.touched.add(cluster.id)
        result.clusters_new += 1
    _assign(db, assignments)
    result.episodes_clustered += len(items)


def _cluster_key(scope: str, founder_id: int, founder_text: str) -> str:
    digest = hashlib.sha256(f"{scope}\n{founder_id}\n{founder_text}".encode()).hexdigest()
    return "c" + digest[:23]


def _grow_centroid(cluster: TaskCluster, raw_rows: sparse.csr_matrix, scope: str) -> None:
    """Running mean of raw member vectors; the stored centroid keeps its top features."""
    old = cluster.centroid or {}
    n_old = int(old.get("n", 0))
    total = row_sum(raw_rows)
    if n_old:
        total = total + decode_centroid(old, raw_rows.shape[1]) * n_old
    count = n_old + raw_rows.shape[0]
    cluster.centroid = encode_centroid(total / count, count, scope)


def _assign(db: DbSession, assignments: dict[int, int]) -> None:
    """Set cluster ids (episode id → cluster id) on episodes and their pattern occurrences."""
    if not assignments:
        return
    conn = db.connection()
    rows = [{"eid": e, "cid": c} for e, c in assignments.items()]
    episodes = cast(Table, Episode.__table__)
    occurrences = cast(Table, PatternOccurrence.__table__)
    conn.execute(
        update(episodes)
        .where(episodes.c.id == bindparam("eid"))
        .values(cluster_id=bindparam("cid")),
        rows,
    )
    conn.execute(
        update(occurrences)
        .where(occurrences.c.episode_id == bindparam("eid"))
        .values(cluster_id=bindparam("cid")),
        rows,
    )


def refresh_clusters(db: DbSession, cluster_ids: Iterable[int]) -> None:
    """Recompute size, sessions, projects, first/last seen, success rate and medoid."""
    ids = sorted(set(cluster_ids))
    vectorizer: IntentVectorizer | None = None
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        known = Episode.outcome.in_(("success", "failure", "mixed"))
        score = case(
            (Episode.outcome == "success", 1.0), (Episode.outcome == "mixed", 0.5), else_=0.0
        )
        stats = db.execute(
            select(
                Episode.cluster_id,
                func.count(Episode.id),
                func.count(func.distinct(Episode.session_id)),
                func.min(Episode.started_at),
                func.max(Episode.started_at),
                func.sum(case((known, score), else_=0.0)),
                func.sum(case((known, 1), else_=0)),
            )
            .where(Episode.cluster_id.in_(chunk))
            .group_by(Episode.cluster_id)
        ).all()
        projects: dict[int, set[str]] = defaultdict(set)
        for cluster_id, project in db.execute(
            select(Episode.cluster_id, Episode.project_path)
            .where(Episode.cluster_id.in_(chunk))
            .distinct()
        ):
            if project and cluster_id is not None:
                projects[cluster_id].add(project)
        clusters = {
            c.id: c for c in db.scalars(select(TaskCluster).where(TaskCluster.id.in_(chunk)))
        }
        for cluster_id, size, sessions, first, last, scored, n_known in stats:
            cluster = clusters[cluster_id]
            cluster.size = size
            cluster.session_count = sessions
            cluster.first_seen = as_utc(first)
            cluster.last_seen = as_utc(last)
            cluster.projects = sorted(projects[cluster_id])
            cluster.success_rate = (float(scored) / n_known) if n_known else None
        vectorizer = vectorizer or IntentVectorizer()
        _refresh_medoids(db, vectorizer, [clusters[c] for c in chunk if c in clusters])


def _refresh_medoids(
    db: DbSession, vectorizer: IntentVectorizer, clusters: Sequence[TaskCluster]
) -> None:
    grown = [c for c in clusters if c.size > 2]
    if not grown:
        return
    texts: dict[int, list[str]] = defaultdict(list)
    rows = db.execute(
        select(Episode.cluster_id, Episode.intent_text)
        .where(Episode.cluster_id.in_([c.id for c in grown]))
        .order_by(Episode.id.desc())
    )
    for cluster_id, text in rows:
        if cluster_id is not None and len(texts[cluster_id]) < MEDOID_SAMPLE:
            texts[cluster_id].append(text)
    ordered = [c for c in grown if len(texts.get(c.id, [])) > 2]
    if not ordered:
        return
    matrix = vectorizer.raw([t for c in ordered for t in texts[c.id]])  # one pass for all
    offset = 0
    for cluster in ordered:
        members = texts[cluster.id]
        block = matrix[offset : offset + len(members)]
        offset += len(members)
        cluster.representative_intent = members[medoid(block)][:2000]


def is_recurring(cluster: TaskCluster, cfg: MiningConfig) -> bool:
    return cluster.size >= cfg.min_recurrence and cluster.session_count >= 2
