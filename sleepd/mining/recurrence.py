"""The clustering step against the store: join, create, and refresh cluster figures.

Cluster keys are made once, from the scope and the founding episode, and never
change; a cluster's split follows from its key (see `splits`). The scope is the
project, or "*" when `MiningConfig.cross_project` is on; it is kept in the
centroid JSON so a cluster is only ever joined from its own scope.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from scipy import sparse
from sqlalchemy import Select, Table, bindparam, case, func, select, update
from sqlalchemy import text as sql_text
from sqlalchemy.orm import Session as DbSession

from sleepd.config import MiningConfig
from sleepd.mining.clusters import CHUNK_SIZE, ClusterPlanner, medoid, row_sum
from sleepd.mining.commands import family_name
from sleepd.mining.recurring import recurs
from sleepd.mining.requests import people_s_requests
from sleepd.mining.splits import split_for_key
from sleepd.mining.templates import (
    TEMPLATE_CHARS,
    TEMPLATE_MIN_CHARS,
    group_by_lines,
    templates_of,
)
from sleepd.mining.vectors import IntentVectorizer, decode_centroid, encode_centroid
from sleepd.store.fastread import as_utc
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


def intent_episodes(cfg: MiningConfig) -> Select[int, str, str | None, int]:
    """Episodes that are people's requests (`mining.requests`)."""
    return (
        select(Episode.id, Episode.intent_text, Episode.project_path, Episode.session_id)
        .join(Session, Session.id == Episode.session_id)
        .where(*people_s_requests(cfg))
    )


#: Enough of an intent to read a slash command's name from.
COMMAND_CHARS = 200
#: Separates a scope's project from the slash command whose runs it holds.
COMMAND_SCOPE = "\x1f/"


def scope_of(project_path: str | None, cfg: MiningConfig, intent: str = "") -> str:
    """Where an intent's cluster is looked for: its project (or every project), and for a
    custom slash command only among runs of the same command. The command's name is the
    task's family: `/release patch` and `/release minor` are one kind of request,
    `/bmad-dev-story` and `/bmad-create-story` two, however alike their words look."""
    scope = CROSS_PROJECT_SCOPE if cfg.cross_project else (project_path or "")
    name = family_name(intent)
    return scope if name is None else f"{scope}{COMMAND_SCOPE}{name.lower()}"


def cluster_new_episodes(db: DbSession, cfg: MiningConfig) -> ClusterResult:
    """Cluster the intent episodes that have no cluster yet, a chunk at a time: only
    ids are listed up front; texts are read and vectorised per chunk."""
    result = ClusterResult()
    pending = db.execute(
        intent_episodes(cfg)
        .with_only_columns(
            Episode.id,
            Episode.project_path,
            func.substr(Episode.intent_text, 1, COMMAND_CHARS),
            func.length(Episode.intent_text),
        )
        .where(Episode.cluster_id.is_(None))
        .order_by(Episode.id)
    ).all()
    if not pending:
        return result
    vectorizer = IntentVectorizer()
    newest = db.scalars(
        intent_episodes(cfg)
        .with_only_columns(Episode.id)
        .order_by(Episode.id.desc())
        .limit(IDF_SAMPLE)
    ).all()
    vectorizer.fit_idf_chunks(_texts(db, chunk) for chunk in _chunks(list(newest), TEXT_CHUNK))
    clusters = list(db.scalars(select(TaskCluster).order_by(TaskCluster.id)))
    scopes = {
        episode_id: scope_of(project, cfg, head or "") for episode_id, project, head, _ in pending
    }
    long_ones: dict[str, list[int]] = defaultdict(list)
    for episode_id, _, _, length in pending:
        if (length or 0) >= TEMPLATE_MIN_CHARS and COMMAND_SCOPE not in scopes[episode_id]:
            long_ones[scopes[episode_id]].append(episode_id)
    for scope, ids in long_ones.items():
        for episode_id, founder in _templates_in_scope(db, cfg, scope, ids, clusters).items():
            scopes[episode_id] = f"{scope}{COMMAND_SCOPE}{TEMPLATE_MARK}{founder}"
    by_scope: dict[str, list[int]] = defaultdict(list)
    for episode_id, *_ in pending:
        by_scope[scopes[episode_id]].append(episode_id)
    for scope, ids in by_scope.items():
        own = [c for c in clusters if (c.centroid or {}).get("scope") == scope]
        _cluster_scope(db, cfg, vectorizer, scope, ids, own, result)
    return result


#: A template's scope, after COMMAND_SCOPE: its family, as a slash command's name is.
TEMPLATE_MARK = "#template-"
#: The newest long requests of a scope that a new one is compared with (besides the
#: templates its clusters already hold).
TEMPLATE_HISTORY = 3000


def _templates_in_scope(
    db: DbSession,
    cfg: MiningConfig,
    scope: str,
    pending: Sequence[int],
    clusters: Sequence[TaskCluster],
) -> dict[int, int]:
    """The pending long requests of `scope` that expand a prompt template, with the
    template's founding request (`templates`): compared with the scope's newest long
    requests and with the founders of the templates it already has."""
    prefix = f"{scope}{COMMAND_SCOPE}{TEMPLATE_MARK}"
    known: set[int] = set()
    for cluster in clusters:
        held = (cluster.centroid or {}).get("scope")
        if isinstance(held, str) and held.startswith(prefix) and held[len(prefix) :].isdigit():
            known.add(int(held[len(prefix) :]))
    long_requests = (
        intent_episodes(cfg)
        .with_only_columns(Episode.id)
        .where(
            func.length(Episode.intent_text) >= TEMPLATE_MIN_CHARS,
            ~Episode.intent_text.startswith("/"),
        )
    )
    if scope != CROSS_PROJECT_SCOPE:
        same = Episode.project_path == scope
        long_requests = long_requests.where(
            same if scope else (Episode.project_path.is_(None) | same)
        )
    newest = db.scalars(long_requests.order_by(Episode.id.desc()).limit(TEMPLATE_HISTORY)).all()
    ids = sorted(known.union(newest, pending))

    def texts() -> Iterator[tuple[int, str]]:
        for chunk in _chunks(ids, TEXT_CHUNK):
            query = select(Episode.id, func.substr(Episode.intent_text, 1, TEMPLATE_CHARS))
            rows: dict[int, str | None] = {
                i: text for i, text in db.execute(query.where(Episode.id.in_(list(chunk))))
            }
            yield from ((i, rows[i] or "") for i in chunk if i in rows)

    expansions = templates_of(group_by_lines(texts()))
    return {i: expansions[i] for i in pending if i in expansions}


#: Intent texts read and vectorised at a time (the vectorizer reads 2,000 characters).
TEXT_CHUNK = 500
TEXT_CHARS = 2000


def _chunks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _texts(db: DbSession, ids: Sequence[int]) -> list[str]:
    query = select(Episode.id, func.substr(Episode.intent_text, 1, TEXT_CHARS)).where(
        Episode.id.in_(list(ids))
    )
    rows: dict[int, str | None] = {i: text for i, text in db.execute(query)}
    return [request_of(rows.get(i) or "") for i in ids]


#: Claude Code's first message after a plan is accepted with a fresh context.
_PLAN_LEAD = re.compile(r"\s*(implement the following plan|please implement this plan):?\s*", re.I)
_HEADING = re.compile(r"^\s*#{1,6}\s*")
_PLAN_TITLE = re.compile(r"^(?:implementation\s+)?plan\s*[:\-–—]\s*", re.I)
#: What is compared of an accepted plan: its title and first paragraph.
PLAN_REQUEST_CHARS = 400


def request_of(intent: str) -> str:
    """The part of an intent that says what was asked, for comparing requests.

    An accepted plan ("Implement the following plan: # Plan: <title> ## Context …
    ## Files to modify … ## Verification …") is compared by its title and first
    paragraph: every plan shares that frame and its section names, and any two plans
    of one repository share file names, so compared whole they looked like one request
    asked twice. Any other intent is compared as typed.
    """
    lead = _PLAN_LEAD.match(intent)
    if lead is None:
        return intent
    title = ""
    paragraph: list[str] = []
    for line in intent[lead.end() :].splitlines():
        text = line.strip()
        if not text:
            if paragraph:
                break
            continue
        if _HEADING.match(line):
            if paragraph:
                break
            if not title:
                title = _PLAN_TITLE.sub("", _HEADING.sub("", text))
            continue
        if not title:
            title = text
            continue
        paragraph.append(text)
    return f"{title}\n{' '.join(paragraph)}"[:PLAN_REQUEST_CHARS].strip()


def _cluster_scope(
    db: DbSession,
    cfg: MiningConfig,
    vectorizer: IntentVectorizer,
    scope: str,
    ids: Sequence[int],
    existing: Sequence[TaskCluster],
    result: ClusterResult,
) -> None:
    centroids = None
    if existing:
        stacked = sparse.vstack(
            [decode_centroid(c.centroid, vectorizer.n_features) for c in existing], format="csr"
        )
        centroids = vectorizer.weigh(stacked)
    planner = ClusterPlanner(centroids, cfg.similarity_threshold)
    # running sums of raw member vectors per target, so no chunk is kept once planned
    join_sums: dict[int, tuple[sparse.csr_matrix, int]] = {}
    group_sums: list[tuple[sparse.csr_matrix, int]] = []
    founders: list[tuple[int, str]] = []
    for chunk in _chunks(ids, CHUNK_SIZE):
        texts = _texts(db, chunk)
        raw = vectorizer.raw(texts)
        before_rows = planner.rows_seen
        before_groups = {i: len(g) for i, g in enumerate(planner.plan.groups)}
        planner.add(vectorizer.weigh(raw))
        for row, target in planner.plan.joins.items():
            if row >= before_rows:
                total, n = join_sums.get(target, (None, 0))
                add = raw[row - before_rows]
                join_sums[target] = (add if total is None else total + add, n + 1)
        for index, group in enumerate(planner.plan.groups):
            fresh = [r for r in group[before_groups.get(index, 0) :] if r >= before_rows]
            if not fresh:
                continue
            block = row_sum(raw[[r - before_rows for r in fresh]])
            if index >= len(group_sums):
                group_sums.append((block, len(fresh)))
                founders.append((chunk[fresh[0] - before_rows], texts[fresh[0] - before_rows]))
            else:
                total, n = group_sums[index]
                group_sums[index] = (total + block, n + len(fresh))
    assignments: dict[int, int] = {}
    for row, target in planner.plan.joins.items():
        assignments[ids[row]] = existing[target].id
    for target, (total, n) in join_sums.items():
        _grow_centroid(existing[target], total, n, scope)
        result.touched.add(existing[target].id)
    for group, (total, n), (founder_id, founder_text) in zip(
        planner.plan.groups, group_sums, founders, strict=True
    ):
        key = _cluster_key(scope, founder_id, founder_text)
        cluster = TaskCluster(
            key=key,
            representative_intent=founder_text[:2000],
            split=split_for_key(key, cfg.val_fraction, cfg.test_fraction),
            centroid={},
            projects=[],
        )
        _grow_centroid(cluster, total, n, scope)
        db.add(cluster)
        db.flush()
        assignments.update({ids[r]: cluster.id for r in group})
        result.touched.add(cluster.id)
        result.clusters_new += 1
    _assign(db, assignments)
    result.episodes_clustered += len(ids)


def _cluster_key(scope: str, founder_id: int, founder_text: str) -> str:
    digest = hashlib.sha256(f"{scope}\n{founder_id}\n{founder_text}".encode()).hexdigest()
    return "c" + digest[:23]


def _grow_centroid(cluster: TaskCluster, total: sparse.csr_matrix, n: int, scope: str) -> None:
    """Running mean of raw member vectors; the stored centroid keeps its top features.
    `total` is the sum of the `n` new members' raw vectors."""
    old = cluster.centroid or {}
    n_old = int(old.get("n", 0))
    if n_old:
        total = total + decode_centroid(old, total.shape[1]) * n_old
    count = n_old + n
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
        stats, projects = _figures(db, chunk)
        clusters = {
            c.id: c for c in db.scalars(select(TaskCluster).where(TaskCluster.id.in_(chunk)))
        }
        for cluster_id in set(clusters) - {row[0] for row in stats}:
            # every episode it held now reads otherwise (`persist`, reading again): it
            # stays, empty, so its key keeps its split for what may join it later
            emptied = clusters[cluster_id]
            emptied.size = emptied.session_count = 0
            emptied.projects = []
            emptied.success_rate = None
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


#: A cluster's figures over every member's episodes on a team's PostgreSQL (migration
#: `0024_team_cluster_figures`): a member's own query sees only their own episodes.
_TEAM_FIGURES = (
    "SELECT cluster_id, size, sessions, first_seen, last_seen, scored, known, projects "
    "FROM sleepd_cluster_figures(:ids)"
)


def _figures(
    db: DbSession, chunk: Sequence[int]
) -> tuple[list[tuple[Any, ...]], dict[int, set[str]]]:
    """Per cluster of `chunk`: (id, size, sessions, first, last, success score, episodes
    with a known outcome), and the projects its episodes came from. Sessions are counted
    by conversation: a session that carries on another's conversation counts as the one
    it began in (`Session.conversation_session_id`)."""
    projects: dict[int, set[str]] = defaultdict(set)
    if db.get_bind().dialect.name == "postgresql":
        rows = db.execute(sql_text(_TEAM_FIGURES), {"ids": list(chunk)}).all()
        for row in rows:
            projects[row[0]].update(p for p in row[7] or () if p)
        return [tuple(row[:7]) for row in rows], projects
    known = Episode.outcome.in_(("success", "failure", "mixed"))
    score = case((Episode.outcome == "success", 1.0), (Episode.outcome == "mixed", 0.5), else_=0.0)
    stats = db.execute(
        select(
            Episode.cluster_id,
            func.count(Episode.id),
            # one conversation counts once, in however many files it went on
            func.count(
                func.distinct(func.coalesce(Session.conversation_session_id, Episode.session_id))
            ),
            func.min(Episode.started_at),
            func.max(Episode.started_at),
            func.sum(case((known, score), else_=0.0)),
            func.sum(case((known, 1), else_=0)),
        )
        .join(Session, Session.id == Episode.session_id)
        .where(Episode.cluster_id.in_(chunk))
        .group_by(Episode.cluster_id)
    ).all()
    for cluster_id, project in db.execute(
        select(Episode.cluster_id, Episode.project_path)
        .where(Episode.cluster_id.in_(chunk))
        .distinct()
    ):
        if project and cluster_id is not None:
            projects[cluster_id].add(project)
    return [tuple(row) for row in stats], projects


def _refresh_medoids(
    db: DbSession, vectorizer: IntentVectorizer, clusters: Sequence[TaskCluster]
) -> None:
    grown = [c for c in clusters if c.size > 2]
    if not grown:
        return
    texts: dict[int, list[str]] = defaultdict(list)
    rows = db.execute(
        select(Episode.cluster_id, func.substr(Episode.intent_text, 1, TEXT_CHARS))
        .where(Episode.cluster_id.in_([c.id for c in grown]))
        .order_by(Episode.id.desc())
    )
    for cluster_id, text in rows:
        if cluster_id is not None and len(texts[cluster_id]) < MEDOID_SAMPLE:
            texts[cluster_id].append(text)
    ordered = [c for c in grown if len(texts.get(c.id, [])) > 2]
    # one vectorizer pass per group of clusters holding up to TEXT_CHUNK * 2 texts
    group: list[TaskCluster] = []
    for index, cluster in enumerate(ordered):
        group.append(cluster)
        held = sum(len(texts[c.id]) for c in group)
        if held >= TEXT_CHUNK * 2 or index == len(ordered) - 1:
            matrix = vectorizer.raw([t for c in group for t in texts[c.id]])
            offset = 0
            for member in group:
                members = texts[member.id]
                block = matrix[offset : offset + len(members)]
                offset += len(members)
                member.representative_intent = members[medoid(block)][:2000]
            group = []


def is_recurring(cluster: TaskCluster, cfg: MiningConfig) -> bool:
    return recurs(cluster.size, cluster.session_count, cfg.min_recurrence)
