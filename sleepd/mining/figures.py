"""Read-only mining figures: for `sleepd status` and `sleepd patterns`.

Portable SQL through a `sleepd.store.fastread` reader, so `sleepd patterns` on a
SQLite home imports no SQLAlchemy.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sleepd.mining.recurring import recurs, recurs_sql
from sleepd.mining.tasks import intent_parts
from sleepd.mining.templates import template_founder, template_titles, typed_part
from sleepd.projects import SESSION_REMOTES_SQL, store_roots
from sleepd.store.fastread import as_reader, as_utc, stored_datetime

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


_TOP_SQL = (
    "SELECT p.id, p.signature, p.tool_name, p.error_class, p.example, p.last_seen, c.n "
    "FROM failure_patterns p JOIN (SELECT pattern_id, COUNT(id) AS n "
    "FROM pattern_occurrences{where} GROUP BY pattern_id HAVING COUNT(id) >= :min_count) c "
    "ON c.pattern_id = p.id ORDER BY c.n DESC, p.id LIMIT :limit"
)
_OCCURRENCES_SQL = (
    "SELECT pattern_id, ts, project_path, cluster_id FROM pattern_occurrences "
    "WHERE pattern_id IN ({marks}){project}"
)


def top_patterns(
    db: Any,
    *,
    project: str | None = None,
    limit: int = 20,
    now: datetime | None = None,
    min_count: int = 2,
) -> list[PatternRow]:
    """Most frequent failure patterns (in `project` when given), with a 7-day trend.

    Only patterns seen at least `min_count` times: a failure that happened once is
    not a pattern (pass 1 for all). `db` is a `sleepd.store.fastread` reader or a
    SQLAlchemy engine."""
    now = now or datetime.now(UTC)
    recent_from, previous_from = now - TREND_WINDOW, now - 2 * TREND_WINDOW
    reader = as_reader(db)
    params: dict[str, Any] = {"min_count": min_count, "limit": limit}
    if project:
        params["project"] = _root_named(reader, project)
    where = " WHERE project_path = :project" if project else ""
    patterns = reader.rows(_TOP_SQL.format(where=where), params)
    if not patterns:
        return []
    recent: dict[int, int] = defaultdict(int)
    previous: dict[int, int] = defaultdict(int)
    projects: dict[int, set[str]] = defaultdict(set)
    clusters: dict[int, set[int]] = defaultdict(set)
    marks = {f"i{n}": row[0] for n, row in enumerate(patterns)}
    sql = _OCCURRENCES_SQL.format(
        marks=", ".join(f":{name}" for name in marks),
        project=" AND project_path = :project" if project else "",
    )
    for pattern_id, ts, proj, cluster in reader.rows(sql, {**params, **marks}):
        stamp = as_utc(ts)
        if stamp is not None:
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
            id=pattern_id,
            signature=signature,
            tool_name=tool_name,
            error_class=error_class,
            count=int(n),
            last_7d=recent[pattern_id],
            previous_7d=previous[pattern_id],
            trend=trend_word(recent[pattern_id], previous[pattern_id]),
            projects=sorted(projects[pattern_id]),
            clusters=sorted(clusters[pattern_id]),
            example=(example or "")[:300],
            last_seen=stored_datetime(last_seen),
        )
        for pattern_id, signature, tool_name, error_class, example, last_seen, n in patterns
    ]


_TASKS_SQL = (
    "SELECT t.id, t.split, t.origin, t.outcome, t.cluster_id, t.episode_id, t.project_path, "
    "t.intent, t.active, t.created_at, c.size, c.session_count, c.centroid "
    "FROM tasks t LEFT OUTER JOIN task_clusters c ON c.id = t.cluster_id{where} "
    "ORDER BY t.id LIMIT :limit"
)
_TASK_KEYS = (
    "id",
    "split",
    "origin",
    "outcome",
    "cluster_id",
    "episode_id",
    "project_path",
    "intent",
    "active",
    "created_at",
)


def task_rows(
    db: Any,
    *,
    min_recurrence: int,
    split: str | None = None,
    project: str | None = None,
    limit: int = 200,
    retired: bool = False,
) -> list[dict[str, Any]]:
    """Mined tasks by id, each marked recurring when its cluster was asked at least
    `min_recurrence` times in two sessions or more (never a judge spec's internals); the
    tasks in the nights, and with `retired` those retired too (`persist`, reading again).

    `db` is a `sleepd.store.fastread` reader or a SQLAlchemy engine."""
    reader = as_reader(db)
    where, params = _task_filter(reader, split, project, retired)
    params["limit"] = limit
    rows = []
    founders: dict[int, int] = {}  # task id -> its template's founding episode
    for values in reader.rows(_TASKS_SQL.format(where=where), params):
        row = dict(zip(_TASK_KEYS, values[:10], strict=True))
        row["active"] = bool(row["active"])
        row["created_at"] = stored_datetime(row["created_at"])
        size, sessions, centroid = values[10:]
        row["recurring"] = recurs(size or 0, sessions or 0, min_recurrence)
        founder = template_founder(_scope_of(centroid))
        row["template"] = (
            None if founder is None else {"founder_episode": founder, "typed": "", "title": ""}
        )
        if founder is not None:
            founders[row["id"]] = founder
        rows.append(row)
    _fill_typed(reader, rows, founders)
    return rows


def task_counts(
    db: Any,
    *,
    min_recurrence: int,
    split: str | None = None,
    project: str | None = None,
    retired: bool = False,
) -> tuple[int, int]:
    """How many tasks `task_rows` would list with no limit, and how many of them are
    recurring (the same rule as `task_rows`), so a cut list can still say the whole."""
    reader = as_reader(db)
    where, params = _task_filter(reader, split, project, retired)
    params["n"] = min_recurrence
    total, recurring = next(
        iter(
            reader.rows(
                f"SELECT count(*), coalesce(sum(CASE WHEN {recurs_sql('c')} "
                "THEN 1 ELSE 0 END), 0) FROM tasks t "
                f"LEFT OUTER JOIN task_clusters c ON c.id = t.cluster_id{where}",
                params,
            )
        )
    )
    return int(total or 0), int(recurring or 0)


def _root_named(reader: Any, project: str) -> str | None:
    """The project a `--project` path names: a worktree names its repository, a removed
    Codex worktree the checkout it joined (`sleepd.projects.store_roots`)."""
    return store_roots(reader.rows(SESSION_REMOTES_SQL))(project)


def _task_filter(
    reader: Any, split: str | None, project: str | None, retired: bool
) -> tuple[str, dict[str, Any]]:
    """The WHERE clause and its parameters that pick tasks by split and project, and
    those in the nights only unless `retired`."""
    filters: list[str] = [] if retired else ["t.active = TRUE"]
    params: dict[str, Any] = {}
    if split is not None:
        filters.append("t.split = :split")
        params["split"] = split
    if project:
        filters.append("t.project_path = :project")
        params["project"] = _root_named(reader, project)
    return (" WHERE " + " AND ".join(filters)) if filters else "", params


def _scope_of(centroid: Any) -> object:
    """A cluster's scope from its stored centroid (JSON text on SQLite, a dict elsewhere)."""
    if isinstance(centroid, str):
        try:
            centroid = json.loads(centroid)
        except ValueError:
            return None
    return centroid.get("scope") if isinstance(centroid, dict) else None


def _fill_typed(reader: Any, rows: list[dict[str, Any]], founders: dict[int, int]) -> None:
    """The words typed into each template-family task (`founders`: task id → the
    template's founding episode): its lines outside the lines that the founding request
    and another run of the template share."""
    clusters = sorted({row["cluster_id"] for row in rows if row["id"] in founders})
    runs: dict[int, list[tuple[int, str]]] = defaultdict(list)  # cluster -> newest runs
    for cluster_id in clusters:
        for episode_id, text in reader.rows(
            "SELECT id, intent_text FROM episodes WHERE cluster_id = :c ORDER BY id DESC LIMIT 3",
            {"c": cluster_id},
        ):
            runs[cluster_id].append((int(episode_id), text or ""))
    wanted = sorted(set(founders.values()))
    texts: dict[int, str] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ", ".join(f":f{n}" for n in range(len(chunk)))
        sql = f"SELECT id, intent_text FROM episodes WHERE id IN ({marks})"
        for episode_id, text in reader.rows(sql, {f"f{n}": v for n, v in enumerate(chunk)}):
            texts[int(episode_id)] = text or ""
    titles = template_titles(texts)
    for row in rows:
        founder = founders.get(row["id"])
        if founder is None:
            continue
        others = [
            text
            for episode_id, text in runs.get(row["cluster_id"], [])
            if episode_id not in (founder, row["episode_id"])
        ]
        references = [texts.get(founder, ""), *others[:1]]
        request, _ = intent_parts(row["intent"] or "")  # the refinements are no typed words
        row["template"]["typed"] = typed_part(request, [r for r in references if r])
        row["template"]["title"] = titles.get(founder, "")


_NOTHING_MINED = "nothing mined yet (run `sleepd mine` after `sleepd harvest`)"


def why_no_tasks(db: Any, *, min_recurrence: int) -> str:
    """Why `sleepd tasks list` shows nothing, in one line a person can act on: nothing
    mined yet, filters that match none of the tasks there are, or episodes none of which
    became a task (a task is a request that recurred, or one that failed clearly)."""
    reader = as_reader(db)
    episodes = int(reader.scalar("SELECT count(*) FROM episodes") or 0)
    if not episodes:
        return f"no tasks: {_NOTHING_MINED}"
    tasks = int(reader.scalar("SELECT count(*) FROM tasks WHERE active = TRUE") or 0)
    if tasks:
        return f"no task matches --split/--project ({tasks} {_plural(tasks, 'task')} in all)"
    failed = int(reader.scalar("SELECT count(*) FROM episodes WHERE outcome = 'failure'") or 0)
    kinds = int(reader.scalar("SELECT count(*) FROM task_clusters WHERE size > 0") or 0)
    recurred = int(
        reader.scalar(
            f"SELECT count(*) FROM task_clusters WHERE {recurs_sql()}",
            {"n": min_recurrence},
        )
        or 0
    )
    retired = int(reader.scalar("SELECT count(*) FROM tasks WHERE active = FALSE") or 0)
    return (
        f"no tasks yet: of {episodes} {_plural(episodes, 'episode')} mined, {failed} ended in "
        f"failure, and {recurred} of {kinds} kinds of request recurred (asked {min_recurrence} "
        "times or more, in two sessions or more); a task is a request the agent took up "
        "that recurred, or one that failed clearly and was read surely as a request of its own"
        + (
            f"; {retired} {_plural(retired, 'task')} retired when newer rules read "
            "their sessions again (`--retired` lists them)"
            if retired
            else ""
        )
    )


def why_no_patterns(db: Any, *, project: str | None, show_all: bool) -> str:
    """Why `sleepd patterns` shows nothing, in one line: nothing mined yet, no failure
    found (in the project asked for), or failures seen once only, which the default list
    leaves out."""
    reader = as_reader(db)
    if not int(reader.scalar("SELECT count(*) FROM episodes") or 0):
        return f"no failure patterns: {_NOTHING_MINED}"
    where, params = "", {}
    if project:
        where, params = " WHERE project_path = :project", {"project": _root_named(reader, project)}
    seen = int(
        reader.scalar(f"SELECT count(DISTINCT pattern_id) FROM pattern_occurrences{where}", params)
        or 0
    )
    scope = " in this project" if project else ""
    if not seen or show_all:
        return (
            f"no failure patterns{scope}: no failure found "
            "(knock-on and benign tool errors make none)"
        )
    return (
        f"no recurring failure patterns{scope}: {seen} {_plural(seen, 'pattern')} seen once "
        "(`--all` lists them)"
    )


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"
