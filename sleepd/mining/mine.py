"""One mining pass: episodes + signals + patterns, then clusters, then tasks.

Sessions are mined in batches, one write transaction per batch, so a kill never
leaves a half-mined session (its episodes, signals, pattern occurrences and
`mined_through_seq` commit together). A re-run over unchanged data adds nothing.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, select, text
from sqlalchemy.engine import Engine

from sleepd.config import Config, MiningConfig
from sleepd.mining.carried import continuations_found, join_conversations, split_carried
from sleepd.mining.errors import NoiseFilter, noise_lines
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.loading import (
    SessionWork,
    attach_resume_points,
    load_events,
    newest_first,
    read_again_next_pass,
    recent_shell_outputs,
    sessions_to_mine,
)
from sleepd.mining.persist import PatternCache, mine_session, recount_patterns, set_aside_tasks
from sleepd.mining.read_back import CarriedRequest, link_carried
from sleepd.mining.reading import left_unasked, reading_rules
from sleepd.mining.recurring import recurs_sql
from sleepd.mining.requests import people_s_requests
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import Episode, FailurePattern, Session, Task, TaskCluster

#: A session quiet this long is over: its last episode closes.
IDLE_CLOSE = timedelta(hours=2)
SESSION_BATCH = 100
#: A batch stops growing past this many events (a session is never split), so the
#: events held in memory stay bounded however long the history is.
EVENT_BATCH = 5_000


@dataclass
class MineReport:
    episodes_new: int = 0
    episodes_total: int = 0
    signals_new: int = 0
    clusters_total: int = 0
    clusters_new: int = 0
    recurring_clusters: int = 0
    patterns_total: int = 0
    tasks_new: int = 0
    tasks_by_split: dict[str, int] = field(default_factory=dict)
    duration_s: float = 0.0
    sessions_mined: int = 0
    #: sessions read before by other rules, read again from their first event
    sessions_read_again: int = 0
    #: episodes the earlier readings found that the new ones do not, and the tasks of
    #: the sessions read again that today's rules make otherwise or not at all
    episodes_gone: int = 0
    tasks_retired: int = 0
    miner_fallbacks: int = 0
    #: hard user turns the miner model was asked about (model-assisted mining only)
    hard_turns: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def mine(
    engine: Engine, cfg: Config, *, now: datetime | None = None, backend: Any = None
) -> MineReport:
    """Mine everything harvested since the last pass.

    Machines sharing a PostgreSQL database take turns (`store.locks.team_pass`): two
    passes at once would race to create the same clusters and failure patterns.
    """
    from sleepd.errors import SleepdError
    from sleepd.store.locks import TEAM_PASS_WAIT_S, team_pass

    with team_pass(engine, "mine") as taken:
        if not taken:
            raise SleepdError(
                f"another machine's mining pass has run for {TEAM_PASS_WAIT_S} s; try again later"
            )
        return _mine_pass(engine, cfg, now=now, backend=backend)


def _mine_pass(
    engine: Engine, cfg: Config, *, now: datetime | None = None, backend: Any = None
) -> MineReport:
    started = time.perf_counter()
    now = now or datetime.now(UTC)
    idle_before = now - IDLE_CLOSE
    mining = cfg.mining
    lexicon = lexicon_for(tuple(mining.correction_patterns), tuple(mining.approval_patterns))
    report = MineReport()
    rules = reading_rules(mining)
    with read_session(engine) as db:
        work = sessions_to_mine(db, idle_before, rules)
    if work:
        # (a session's new records may be the conversation a session read before continues)
        with write_session(engine) as db:
            if continuations_found(db, {item.id for item in work}):
                work = sessions_to_mine(db, idle_before, rules)
    with read_session(engine) as db:
        idle = not work and not _unclustered(db, mining) and not _set_aside_waits(db)
    if idle:
        # Nothing new: no clustering or task step (and none of their imports) to pay for.
        return _finish(engine, cfg, report, started)
    from sleepd.mining.project_roots import reroot_stored
    from sleepd.mining.recurrence import cluster_new_episodes
    from sleepd.mining.task_mining import mine_tasks
    from sleepd.projects import roots_in_store

    with read_session(engine) as db:
        roots = roots_in_store(db)
    for item in work:
        item.project_path = roots(item.project_path)  # worktrees count as their repository

    with read_session(engine) as db:
        noise = NoiseFilter(noise_lines(recent_shell_outputs(db)))
    judge = None
    if mining.model_assisted and backend is not None:
        from sleepd.mining.hard_turns import TurnJudge

        judge = TurnJudge(backend, mining.model_max_turns)
        work = newest_first(work)
    set_aside = 0
    with write_session(engine) as db:
        set_aside += _refresh(db, reroot_stored(db, roots), mining)
    hard_found = 0
    # requests carried on from other sessions whose episodes are not found yet, by the
    # session still to be read in the pass that may hold them: looked for once it is
    waiting: dict[int, list[CarriedRequest]] = defaultdict(list)
    to_come = {item.id for item in work}
    for batch in _batches(work):
        to_come.difference_update(item.id for item in batch)
        carried_here: list[CarriedRequest] = []
        with write_session(engine) as db:
            attach_resume_points(db, batch)
            split = split_carried(db, batch, load_events(db, batch))
            touched_by_conversations = join_conversations(db, split.carried_from)
            patterns = PatternCache()
            recount: set[int] = set()
            touched: set[int] = set(touched_by_conversations)
            for item in batch:
                unasked = judge.stats.skipped if judge is not None else 0
                result = mine_session(
                    db,
                    item,
                    split.own[item.id],
                    lexicon,
                    idle_before=idle_before,
                    patterns=patterns,
                    noise=noise,
                    decide=judge,
                    carried=split.carried[item.id],
                )
                report.episodes_new += result.episodes_new
                report.signals_new += result.signals_new
                report.episodes_gone += result.episodes_gone
                set_aside += result.tasks_set_aside
                hard_found += result.hard_turns
                touched |= result.touched_cluster_ids
                recount |= result.touched_pattern_ids
                carried_here += result.carried
                session = db.get(Session, item.id)
                assert session is not None
                session.mined_through_seq = item.max_seq
                session.mined_with = left_unasked(rules) if _asks_later(judge, unasked) else rules
            db.flush()
            for item in batch:
                carried_here += waiting.pop(item.id, [])
            later, lent = link_carried(db, _once(carried_here), to_come)
            for carried, sessions in later:
                for session_id in sessions:
                    waiting[session_id].append(carried)
            touched |= {e.cluster_id for e in lent if e.cluster_id is not None}
            set_aside += len(set_aside_tasks(db, [e.id for e in lent]))
            recount_patterns(db, recount)
            set_aside += _refresh(db, touched, mining)
        report.sessions_mined += len(batch)
        report.sessions_read_again += sum(item.read_again for item in batch)
    with write_session(engine) as db:
        clustered = cluster_new_episodes(db, mining)
        report.clusters_new = clustered.clusters_new
        set_aside += _refresh(db, clustered.touched, mining)
    with write_session(engine) as db:
        tasks = mine_tasks(db, mining, backend=backend)
        report.tasks_new = tasks.tasks_new
        report.tasks_retired = max(set_aside - tasks.taken_back, 0)
        report.miner_fallbacks = tasks.miner.fallbacks
    # the turns the rules read as hard: counted where no model re-read them, else those
    # the judge was handed (asked, or over its per-pass cap)
    if judge is not None:
        stats = judge.stats.to_dict()
        report.hard_turns = {"found": stats["asked"] + stats["skipped"], **stats}
    else:
        report.hard_turns = {"found": hard_found}
    return _finish(engine, cfg, report, started)


def _once(requests: list[CarriedRequest]) -> list[CarriedRequest]:
    """Each carried request once (one waits for every session that may hold it)."""
    return list({carried.episode_id: carried for carried in requests}.values())


#: Ids per `IN (...)` list.
_IN_CHUNK = 500


def _refresh(db: Any, cluster_ids: set[int], cfg: MiningConfig) -> int:
    """Refresh the figures of the clusters a step touched, in that step's own commit, so a
    pass cut short after it leaves no cluster's figures stale. The tasks of a cluster
    that stopped recurring are set aside for the task step to weigh again: made on its
    count, they had outlived it when only some of its sessions were read again. Returns
    how many tasks were set aside."""
    from sleepd.mining.recurrence import is_recurring, refresh_clusters

    ids = sorted(cluster_ids)
    clusters: list[TaskCluster] = []
    for start in range(0, len(ids), _IN_CHUNK):
        chunk = ids[start : start + _IN_CHUNK]
        clusters += db.scalars(select(TaskCluster).where(TaskCluster.id.in_(chunk))).all()
    recurred = {c.id for c in clusters if is_recurring(c, cfg)}
    refresh_clusters(db, ids)
    ended = sorted(c.id for c in clusters if c.id in recurred and not is_recurring(c, cfg))
    aside = 0
    for start in range(0, len(ended), _IN_CHUNK):
        members = db.scalars(
            select(Episode.id).where(Episode.cluster_id.in_(ended[start : start + _IN_CHUNK]))
        ).all()
        aside += len(set_aside_tasks(db, members))
    return aside


def read_everything_again(engine: Engine) -> int:
    """Mark every mined session as read by rules that left no name, so the next pass reads
    it again from its first event (`sleepd mine --again`); returns how many."""
    with write_session(engine) as db:
        return read_again_next_pass(
            db, and_(Session.mined_through_seq > 0, Session.mined_with != "")
        )


def _asks_later(judge: Any, skipped_before: int) -> bool:
    """The per-pass cap left some of this session's hard turns to the rules, while the
    model answers (this pass had it decide a turn): a later pass is to ask them. A model
    that decided nothing (every call failed, or none is allowed) is not asked again and
    again for the same turns."""
    if judge is None or judge.stats.skipped <= skipped_before:
        return False
    return bool(judge.stats.decided)


def _batches(work: list[SessionWork]) -> Iterator[list[SessionWork]]:
    """Sessions in batches of at most SESSION_BATCH sessions and about EVENT_BATCH events."""
    batch: list[SessionWork] = []
    events = 0
    for item in work:
        size = item.max_seq
        if batch and (len(batch) >= SESSION_BATCH or events + size > EVENT_BATCH):
            yield batch
            batch, events = [], 0
        batch.append(item)
        events += max(size, 1)
    if batch:
        yield batch


def _unclustered(db: Any, cfg: MiningConfig) -> bool:
    """A request still waits for its cluster (a pass was cut short): the selection
    clustering reads (`mining.requests`), without importing the clustering."""
    query = (
        select(Episode.id)
        .join(Session, Session.id == Episode.session_id)
        .where(Episode.cluster_id.is_(None), *people_s_requests(cfg))
    )
    return db.scalar(query.limit(1)) is not None


def _set_aside_waits(db: Any) -> bool:
    """A task set aside when its session was read again waits for the task step (a pass
    was cut short after the reading): retired tasks are no episode's."""
    waiting = select(Task.id).where(
        Task.origin == "mined", Task.active.is_(False), Task.episode_id.is_not(None)
    )
    return db.scalar(waiting.limit(1)) is not None


def _finish(engine: Engine, cfg: Config, report: MineReport, started: float) -> MineReport:
    with read_session(engine) as db:
        figures = _totals(db, cfg)
    report.episodes_total = figures["episodes"]
    report.clusters_total = figures["clusters"]
    report.recurring_clusters = figures["recurring_clusters"]
    report.patterns_total = figures["patterns"]
    report.tasks_by_split = figures["tasks_by_split"]
    report.duration_s = round(time.perf_counter() - started, 3)
    return report


def _totals(db: Any, cfg: Config) -> dict[str, Any]:
    by_split: dict[str, int] = defaultdict(int)
    for split, count in db.execute(
        select(Task.split, func.count(Task.id)).where(Task.active.is_(True)).group_by(Task.split)
    ):
        by_split[split] = count
    return {
        "episodes": db.scalar(select(func.count(Episode.id))) or 0,
        "clusters": db.scalar(select(func.count(TaskCluster.id)).where(TaskCluster.size > 0)) or 0,
        "recurring_clusters": db.scalar(
            select(func.count(TaskCluster.id)).where(
                text(recurs_sql()).bindparams(n=cfg.mining.min_recurrence)
            )
        )
        or 0,
        "patterns": db.scalar(select(func.count(FailurePattern.id))) or 0,
        "tasks_by_split": {s: by_split.get(s, 0) for s in ("train", "val", "test")},
    }
