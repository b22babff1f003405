"""How far each project is from a night that can test an edit, in numbers.

A night replays a project only when it has at least `dream.min_tasks` active mined
tasks, at least one of them in train and `gate.min_tasks` in validation. Tasks come
from recurring requests, so the way to more tasks is more history: the estimate
divides the tasks still missing by the rate at which this project's sessions have
yielded tasks so far (and, when the sessions span days, turns that into days). It is
a rough guide, said as such, never a promise.

Reads through any object with `rows(sql, params)` (`sleepd.store.fastread.ReadOnlyDb`),
so `sleepd status` can show it without loading SQLAlchemy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sleepd.projects import SESSION_REMOTES_SQL, store_roots
from sleepd.store.fastread import as_utc


@dataclass(frozen=True)
class Readiness:
    project: str
    sessions: int
    tasks: dict[str, int] = field(default_factory=dict)
    needed_total: int = 0
    needed_val: int = 0
    more_tasks: int = 0
    more_sessions: int | None = None
    more_days: float | None = None

    @property
    def total(self) -> int:
        return sum(self.tasks.values())

    @property
    def ready(self) -> bool:
        return self.more_tasks == 0

    def sentence(self) -> str:
        """One line a person can act on."""
        t = self.tasks
        have = (
            f"{self.total} mined task{'s' if self.total != 1 else ''} "
            f"(train {t.get('train', 0)}, validation {t.get('val', 0)}, "
            f"sealed test {t.get('test', 0)}) from {self.sessions} "
            f"session{'s' if self.sessions != 1 else ''}"
        )
        if self.ready:
            return f"ready: {have}"
        need = "; ".join(self.shortfalls())
        if self.more_sessions is None:
            more = (
                "no request has recurred yet, so there is no rate to estimate from; "
                "tasks appear once you ask for similar things in several sessions"
            )
        else:
            more = (
                f"roughly {self.more_sessions} more session{'s' if self.more_sessions != 1 else ''}"
            )
            if self.more_days is not None:
                more += f" ({days_text(self.more_days)} at your pace)"
            more += f" to mine about {self.more_tasks} more"
        return f"not ready: {have}; {need}; {more}"

    def shortfalls(self) -> list[str]:
        """What keeps a night from this project, each said against what it needs: a
        night needs `needed_total` tasks, at least 1 in train and `needed_val` in
        validation."""
        t = self.tasks
        out: list[str] = []
        if t.get("val", 0) < self.needed_val:
            out.append(
                f"validation has {t.get('val', 0)} of the {self.needed_val} tasks a night needs"
            )
        if t.get("train", 0) < 1:
            out.append("train has none, and a night needs 1")
        if self.total < self.needed_total:
            out.append(f"{self.total} of the {self.needed_total} tasks a night needs in all")
        return out


def days_text(days: float) -> str:
    """A rough wait in plain words, with its own "about"; past a year only that (a pace
    read from two dates far apart says little about the months ahead)."""
    if days < 1.5:
        return "about a day"
    if days < 14:
        return f"about {round(days)} days"
    if days < 120:
        return f"about {round(days / 7)} weeks"
    if days < 365:
        return f"about {round(days / 30.4)} months"
    return "more than a year"


def project_readiness(db: Any, cfg: Any, *, limit: int = 20) -> list[Readiness]:
    """Readiness of the projects with the most sessions or tasks, ready ones first."""
    tasks: dict[str, dict[str, int]] = {}
    for project, split, count in db.rows(
        "SELECT project_path, split, count(*) FROM tasks "
        "WHERE active = TRUE AND project_path IS NOT NULL GROUP BY project_path, split"
    ):
        tasks.setdefault(str(project), dict.fromkeys(("train", "val", "test"), 0))[str(split)] = (
            int(count)
        )
    sessions: dict[str, tuple[int, Any, Any]] = {}
    roots = store_roots(db.rows(SESSION_REMOTES_SQL))
    for path, n, first, last in db.rows(
        # a subagent's transcript is part of its parent's session, not a session of its own
        "SELECT project_path, count(*), min(started_at), max(started_at) FROM sessions "
        "WHERE project_path IS NOT NULL AND kind <> 'subagent' GROUP BY project_path"
    ):
        # sessions recorded in a repository's worktrees count for the repository
        root = str(roots(str(path)))
        seen = sessions.get(root)
        if seen is None:
            sessions[root] = (int(n), first, last)
        else:
            sessions[root] = (seen[0] + int(n), _earlier(seen[1], first), _later(seen[2], last))
    projects = set(tasks) | set(sessions)
    out = [
        _readiness(
            p, tasks.get(p, dict.fromkeys(("train", "val", "test"), 0)), sessions.get(p), cfg
        )
        for p in projects
    ]
    out.sort(key=lambda r: (not r.ready, -r.total, -r.sessions, r.project))
    return out[:limit]


def _earlier(a: Any, b: Any) -> Any:
    return _pick(a, b, later=False)


def _later(a: Any, b: Any) -> Any:
    return _pick(a, b, later=True)


def _pick(a: Any, b: Any, *, later: bool) -> Any:
    """The earlier (later) of two stored timestamps; a missing one never wins."""
    first, second = as_utc(a), as_utc(b)
    if first is None:
        return b
    if second is None:
        return a
    if later:
        return b if second > first else a
    return b if second < first else a


def _readiness(
    project: str, tasks: dict[str, int], seen: tuple[int, Any, Any] | None, cfg: Any
) -> Readiness:
    n_sessions, first, last = seen or (0, None, None)
    need_val = int(cfg.gate.min_tasks)
    need_total = max(int(cfg.dream.min_tasks), need_val + 1)
    val_share = float(cfg.mining.val_fraction)
    train_share = max(0.05, 1.0 - val_share - float(cfg.mining.test_fraction))
    total = sum(tasks.values())
    more = max(
        math.ceil(max(0, need_val - tasks.get("val", 0)) / val_share),
        math.ceil(max(0, 1 - tasks.get("train", 0)) / train_share),
        need_total - total,
        0,
    )
    more_sessions = more_days = None
    if more and total and n_sessions:
        more_sessions = math.ceil(more * n_sessions / total)
        start, end = as_utc(first), as_utc(last)
        if start is not None and end is not None and (end - start).days >= 1:
            per_day = n_sessions / ((end - start).total_seconds() / 86400)
            more_days = more_sessions / per_day
    return Readiness(
        project, n_sessions, tasks, need_total, need_val, more, more_sessions, more_days
    )


def not_ready_reason(engine: Any, cfg: Any, project: str | None = None) -> str:
    """Why a night found nothing to replay, with the busiest project's numbers."""
    from sleepd.search import EngineReader

    reader = EngineReader(engine)
    rows = project_readiness(reader, cfg, limit=50)
    if project is not None:
        root = store_roots(reader.rows(SESSION_REMOTES_SQL))(project)
        rows = [r for r in rows if r.project == root]
    waiting = [r for r in rows if not r.ready]
    if not waiting:
        return "no project has enough mined tasks yet: no sessions with a project harvested"
    best = waiting[0]
    others = f" ({len(waiting) - 1} other projects have fewer)" if len(waiting) > 1 else ""
    return f"no project has enough mined tasks yet; {best.project}: {best.sentence()}{others}"
