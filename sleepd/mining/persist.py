"""Write one session's episodes, signals and failure-pattern occurrences.

Called inside the batch's write transaction, so a session is either mined whole
(episodes, signals, patterns and its new `mined_through_seq`) or not at all.
Re-segmenting from the last episode's start makes a re-run idempotent: existing
episodes are updated in place (unique `session_id, start_seq`), never duplicated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.episodes import (
    Decider,
    EpisodeDraft,
    EventView,
    TurnRecord,
    segment,
    segment_subagent,
)
from sleepd.mining.errors import (
    EpisodeErrors,
    NoiseFilter,
    judge_errors,
    program_of,
    reads_a_pipe,
    session_noise,
)
from sleepd.mining.lexicon import Lexicon
from sleepd.mining.loading import SessionWork, lead_start, read_again_next_pass
from sleepd.mining.plan_handback import only_planned, plan_handed_back_elsewhere
from sleepd.mining.read_back import CarriedRequest, asked, released, reread
from sleepd.mining.signals import (
    Outcome,
    SignalDraft,
    derive_outcome,
    detect_signals,
    plan_taken_afresh,
    refused_plan,
)
from sleepd.mining.signatures import (
    PATCH_TOOL,
    Signature,
    example_of,
    is_shell_tool,
    signature_of,
)
from sleepd.mining.turns import TURN_KINDS, TurnKind
from sleepd.mining.turns.text import ATTACHMENT
from sleepd.store.fastread import as_utc
from sleepd.store.models import (
    Episode,
    Event,
    FailurePattern,
    PatternOccurrence,
    Session,
    Signal,
    Task,
)
from sleepd.store.records import ERROR_CLASS_CHARS

#: Tools that start a subagent; their input holds the subagent's prompt.
SPAWN_TOOLS = frozenset({"Task", "Agent", "spawn_agent"})


@dataclass
class SessionResult:
    episodes_new: int = 0
    signals_new: int = 0
    occurrences_new: int = 0
    #: typed turns the rules read as hard (a model decides them when model-assisted)
    hard_turns: int = 0
    touched_cluster_ids: set[int] = field(default_factory=set)
    #: patterns that lost occurrences to a reading again: their figures are recounted
    touched_pattern_ids: set[int] = field(default_factory=set)
    #: episodes an earlier reading found that this one does not
    episodes_gone: int = 0
    #: tasks of the episodes read again, set aside for the task step to weigh again
    tasks_set_aside: int = 0
    #: requests of other sessions this one carries on, read whole here
    #: (`read_back.link_carried` lends each its outcome once its episode is found)
    carried: list[CarriedRequest] = field(default_factory=list)


@dataclass
class PatternCache:
    """Failure patterns looked up once per batch (signature hash → row)."""

    rows: dict[str, FailurePattern] = field(default_factory=dict)

    def get(self, db: DbSession, digest: str) -> FailurePattern | None:
        if digest not in self.rows:
            found = db.scalars(
                select(FailurePattern).where(FailurePattern.signature_hash == digest)
            ).first()
            if found is None:
                return None
            self.rows[digest] = found
        return self.rows[digest]


def mine_session(
    db: DbSession,
    work: SessionWork,
    events: Sequence[EventView],
    lexicon: Lexicon,
    *,
    idle_before: datetime,
    patterns: PatternCache,
    noise: NoiseFilter | None = None,
    decide: Decider | None = None,
    carried: Sequence[EventView] = (),
) -> SessionResult:
    """Read one session's events into episodes, signals and pattern occurrences, and store
    them; `carried` is the conversation it carries on from another (`mining.carried`)."""
    result = SessionResult()
    noise = (noise or NoiseFilter()).merged(session_noise(events))
    last_ts = as_utc(work.last_ts)
    session_over = last_ts is None or last_ts < idle_before
    earlier = _forget_reading(db, work, result) if work.read_again else None
    drafts = _drafts(work, events, lexicon, decide, earlier.verdicts if earlier else None, carried)
    if drafts:
        drafts[-1].closed = drafts[-1].closed or session_over
    existing: dict[int, Episode] = {}
    if earlier is not None:
        existing = earlier.episodes
    elif work.resume_from is not None or work.is_subagent:
        existing = {
            ep.start_seq: ep
            for ep in db.scalars(
                select(Episode).where(
                    Episode.session_id == work.id,
                    Episode.start_seq.in_([d.start_seq for d in drafts] or [-1]),
                )
            )
        }
    parent_id = _parent_episode(db, work, drafts[0]) if drafts and work.is_subagent else None
    rows: list[tuple[Episode, EpisodeDraft, list[SignalDraft], EpisodeErrors, bool]] = []
    # episodes read before: whether this reading holds the same turns and ends where it did
    readings: dict[int, bool] = {}
    for index, draft in enumerate(drafts):
        following = drafts[index + 1] if index + 1 < len(drafts) else None
        next_turn = following.intent_turn if following is not None else None
        # the plan the episode ends on opened another session: looked for at once, and
        # whatever came after in this one (the person may come back to it days later);
        # the outcome reads it only once the session has ended on it
        elsewhere = plan_handed_back_elsewhere(db, work, draft)
        handed_back = elsewhere and following is None and session_over
        errors = judge_errors(draft.events)
        # a request carried on from another session is judged as read whole, over both
        # (`read_back`); its failures here are still this session's (`errors`)
        judged = draft.whole or draft
        signals = detect_signals(
            judged,
            lexicon,
            session_over=session_over,
            is_last=following is None,
            next_turn=next_turn,
            errors=errors if judged is draft else judge_errors(judged.events),
            plan_handed_back=handed_back,
        )
        outcome = derive_outcome(signals)
        if draft.has_intent and not readable(draft.request_text):
            outcome = Outcome("unknown", "unreadable_request", 0.0, (draft.intent.id,))
        episode = existing.pop(draft.start_seq, None)
        is_new = episode is None
        if episode is None:
            episode = Episode(session_id=work.id, start_seq=draft.start_seq)
            db.add(episode)
            result.episodes_new += 1
        elif episode.cluster_id is not None:
            result.touched_cluster_ids.add(episode.cluster_id)
        request_before = episode.intent_text
        before = None if is_new else _task_reading(episode)
        read_before = None if is_new else (asked(episode.turns), episode.end_seq)
        _fill_episode(episode, draft, work, outcome, parent_id)
        episode.plan_handed_on = _plan_handed_on(
            draft, next_turn, elsewhere=elsewhere, session_over=session_over, work=work
        )
        if episode.plan_handed_on and not is_new:
            _hand_on(db, episode, result)
        elif earlier is not None and not is_new:
            _carry_over(episode, request_before, earlier, result)
        elif before is not None and before != _task_reading(episode):
            # an episode read on (its session came back after it had closed): a task made
            # of it is weighed again, by what the episode says now, once it closes again
            result.tasks_set_aside += len(set_aside_tasks(db, [episode.id]))
        if is_new or earlier is not None:
            result.hard_turns += sum(1 for turn in episode.turns or [] if turn.get("hard"))
        rows.append((episode, draft, signals, errors, is_new))
        if read_before is not None:
            readings[episode.id] = read_before == (asked(episode.turns), episode.end_seq)
    if earlier is not None and existing:
        _retire(db, list(existing.values()), result)
    if earlier is not None and earlier.bounds != {(d.start_seq, d.end_seq) for d in drafts}:
        # the episodes start or end elsewhere now: its subagents are read again too, to
        # find the episode that spawns each of them in the new reading
        read_again_next_pass(
            db, and_(Session.parent_session_id == work.id, Session.kind == "subagent")
        )
    db.flush()
    for episode, draft, signals, errors, is_new in rows:
        result.signals_new += _replace_signals(db, episode, signals, is_new=is_new)
        added, stale = _record_patterns(
            db, episode, draft, work, patterns, errors, noise, is_new=is_new
        )
        result.occurrences_new += added
        result.touched_pattern_ids |= stale
    _read_back(db, work, rows, readings, result)
    return result


def _read_back(
    db: DbSession,
    work: SessionWork,
    rows: Sequence[tuple[Episode, EpisodeDraft, list[SignalDraft], EpisodeErrors, bool]],
    readings: Mapping[int, bool],
    result: SessionResult,
) -> None:
    """The outcomes read over two files (`read_back`): the requests this session carries
    on wait for the pass to find their episodes; its own last request, read as when
    another session's reading was lent to it (the same turns, ending where it did), takes
    that reading again; one read otherwise is no longer lent to until its carrier reads it
    again."""
    for episode, draft, *_ in rows:
        whole = draft.whole
        if whole is not None:
            result.carried.append(
                CarriedRequest(
                    episode_id=episode.id,
                    session_id=work.id,
                    parent_session_id=work.parent_session_id,
                    request_event_id=whole.intent.id,
                    request_text=whole.intent.text,
                    carried_turns=draft.carried_turns,
                    carried_until=as_utc(draft.carried_until),
                    refinements=tuple(whole.refinements),
                )
            )
    if not readings:
        return
    requests = [episode for episode, draft, *_ in rows if draft.intent_text]
    last = requests[-1] if requests else None
    kept = [last] if last is not None and readings.get(last.id) else []
    left = [episode_id for episode_id in readings if not kept or episode_id != kept[0].id]
    lent = reread(db, kept, left)
    result.touched_cluster_ids |= {e.cluster_id for e in lent if e.cluster_id is not None}
    result.tasks_set_aside += len(set_aside_tasks(db, [e.id for e in lent]))


#: What stands for words that are not there: a redaction's marker, or an attachment's.
_PLACEHOLDER = re.compile(
    r"\[[A-Z][A-Z0-9_ ]*\]|<[a-z_-]*redacted[^>]*>|" + ATTACHMENT.pattern, re.I
)


def readable(intent_text: str) -> bool:
    """The request has words of its own (not only redaction or attachment placeholders):
    without them nobody can tell what was asked, so the outcome stays unknown."""
    return bool(re.search(r"\w{2,}", _PLACEHOLDER.sub(" ", intent_text)))


def _drafts(
    work: SessionWork,
    events: Sequence[EventView],
    lexicon: Lexicon,
    decide: Decider | None = None,
    remembered: Mapping[int, TurnKind] | None = None,
    carried: Sequence[EventView] = (),
) -> list[EpisodeDraft]:
    if work.is_subagent:
        draft = segment_subagent(events)
        return [draft] if draft is not None else []
    return segment(
        events,
        lexicon,
        resume_at=work.resume_from,
        lead_holds_start=lead_start(work) <= 1,
        decide=decide,
        remembered=remembered,
        carried=carried,
    )


@dataclass
class EarlierReading:
    """What an earlier reading of a session left that a new one reuses."""

    #: its episodes by start_seq: one the new reading also starts there is updated in place
    episodes: dict[int, Episode]
    #: the kinds the miner model gave its hard turns, by event id
    verdicts: dict[int, TurnKind]
    #: the episodes whose tasks were set aside for the task step to weigh again
    with_tasks: set[int]
    #: where its episodes started and ended
    bounds: set[tuple[int, int]] = field(default_factory=set)


def _forget_reading(db: DbSession, work: SessionWork, result: SessionResult) -> EarlierReading:
    """Take back an earlier reading's failure-pattern occurrences (the new reading records
    its own, under its own signatures), set its tasks aside, and return its episodes and
    model verdicts."""
    episodes = {
        ep.start_seq: ep for ep in db.scalars(select(Episode).where(Episode.session_id == work.id))
    }
    verdicts: dict[int, TurnKind] = {}
    for episode in episodes.values():
        stored = episode.turns if isinstance(episode.turns, list) else []
        for turn in (t for t in stored if isinstance(t, dict)):
            event_id, kind = turn.get("event_id"), turn.get("kind")
            if turn.get("by_model") and isinstance(event_id, int) and kind in TURN_KINDS:
                verdicts[event_id] = TurnKind(kind)
    ids = [ep.id for ep in episodes.values()]
    with_tasks: set[int] = set()
    if ids:
        owners = set_aside_tasks(db, ids)
        with_tasks = set(owners)
        result.tasks_set_aside += len(owners)
        result.touched_pattern_ids |= set(
            db.scalars(
                select(PatternOccurrence.pattern_id)
                .where(PatternOccurrence.episode_id.in_(ids))
                .distinct()
            )
        )
        db.execute(delete(PatternOccurrence).where(PatternOccurrence.episode_id.in_(ids)))
    bounds = {(ep.start_seq, ep.end_seq) for ep in episodes.values()}
    return EarlierReading(episodes, verdicts, with_tasks, bounds)


def _carry_over(
    episode: Episode, request_before: str, earlier: EarlierReading, result: SessionResult
) -> None:
    """An episode read again where it was read before keeps its cluster, so a task made
    of it again keeps its split; one with no task whose request now reads otherwise is
    clustered again."""
    if episode.id in earlier.with_tasks or episode.cluster_id is None:
        return
    if episode.intent_text != request_before:
        result.touched_cluster_ids.add(episode.cluster_id)
        episode.cluster_id = None


def _plan_handed_on(
    draft: EpisodeDraft,
    next_turn: TurnRecord | None,
    *,
    elsewhere: bool,
    session_over: bool,
    work: SessionWork,
) -> bool:
    """Whether the episode only planned, and its plan was taken as the next request or
    may still be: while its session runs and no session has taken its plan up yet, the
    plan's fate is open, and clustered as a request of its own meanwhile it would make
    the request it hands on look asked twice (a task made of the other episode then on
    that count stays). A later pass decides: a plan not taken makes it a request."""
    taken = elsewhere or bool(plan_taken_afresh(draft, next_turn, handed_back_elsewhere=False))
    waiting = next_turn is None and not session_over and refused_plan(draft) is not None
    return (taken or waiting) and only_planned(draft, work.project_path)


def _hand_on(db: DbSession, episode: Episode, result: SessionResult) -> None:
    """An episode whose plan was taken as the next request is no request of its own: the
    episode the plan went to holds the request and its work. It leaves the cluster it was
    in (its failure-pattern occurrences too), and a task made of it before is retired,
    with the variants made of that task (the other episode's task replays the request)."""
    if episode.cluster_id is not None:
        result.touched_cluster_ids.add(episode.cluster_id)
        episode.cluster_id = None
        db.execute(
            update(PatternOccurrence)
            .where(PatternOccurrence.episode_id == episode.id)
            .values(cluster_id=None)
        )
    set_aside_tasks(db, [episode.id])  # a reading again set them aside already
    db.execute(
        update(Task)
        .where(Task.episode_id == episode.id, Task.origin == "mined")
        .values(episode_id=None, retired_because="plan_handed_on")
        .execution_options(synchronize_session=False)
    )


def set_aside_tasks(db: DbSession, episode_ids: Sequence[int]) -> list[int]:
    """Take these episodes' tasks, and the variants made of them, out of the nights (kept,
    with their rollouts, inactive, still their episodes'): the task step weighs each
    again by today's rules, takes back one it makes as it was, and retires the others
    (a task's text never changes under the nights that replayed it). Returns each task's
    episode."""
    rows = db.execute(
        select(Task.id, Task.episode_id).where(
            Task.episode_id.in_(episode_ids), Task.origin == "mined", Task.active.is_(True)
        )
    ).all()
    if rows:
        aside = [task_id for task_id, _ in rows]
        db.execute(
            update(Task)
            .where(or_(Task.id.in_(aside), Task.derived_from_task_id.in_(aside)))
            .where(Task.active.is_(True))
            .values(active=False)
            .execution_options(synchronize_session=False)  # no task is loaded here
        )
    return [episode_id for _, episode_id in rows if episode_id is not None]


def _retire(db: DbSession, gone: Sequence[Episode], result: SessionResult) -> None:
    """Episodes the new reading does not find (a turn read as a request is now a
    follow-up): their tasks, set aside already, are no episode's any more, and the
    episodes go with their signals."""
    ids = [ep.id for ep in gone]
    result.episodes_gone += len(ids)
    result.touched_cluster_ids |= {ep.cluster_id for ep in gone if ep.cluster_id is not None}
    db.execute(
        update(Task)
        .where(Task.episode_id.in_(ids))
        .values(episode_id=None, retired_because="episode_gone")
        .execution_options(synchronize_session=False)
    )
    db.execute(
        update(Episode).where(Episode.parent_episode_id.in_(ids)).values(parent_episode_id=None)
    )
    db.execute(
        update(Episode)
        .where(Episode.carries_on_episode_id.in_(ids))
        .values(carries_on_episode_id=None)
    )
    released(db, [ep.carries_on_episode_id for ep in gone if ep.carries_on_episode_id is not None])
    db.execute(delete(Signal).where(Signal.episode_id.in_(ids)))
    for episode in gone:
        db.delete(episode)


def recount_patterns(db: DbSession, pattern_ids: set[int]) -> None:
    """Each pattern's count and first and last time from its occurrences; a pattern left
    with none (every failure it held now reads otherwise) goes."""
    ids = sorted(pattern_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        figures = {
            pattern_id: (count, first, last)
            for pattern_id, count, first, last in db.execute(
                select(
                    PatternOccurrence.pattern_id,
                    func.count(PatternOccurrence.id),
                    func.min(PatternOccurrence.ts),
                    func.max(PatternOccurrence.ts),
                )
                .where(PatternOccurrence.pattern_id.in_(chunk))
                .group_by(PatternOccurrence.pattern_id)
            )
        }
        for pattern in db.scalars(select(FailurePattern).where(FailurePattern.id.in_(chunk))):
            if pattern.id not in figures:
                db.delete(pattern)
                continue
            count, first, last = figures[pattern.id]
            pattern.count = count
            pattern.first_seen = as_utc(first)
            pattern.last_seen = as_utc(last)


def _shown_as(
    sig: Signature, tool: str | None, text: str, exit_code: int | None, *, program: str, piped: bool
) -> dict[str, Any]:
    """How a pattern shows the occurrence it is shown by: its signature, tool, error class
    (read from a tool's output: as long as the output made it) and example."""
    return {
        "signature": sig.full,
        "tool_name": tool,
        "error_class": sig.error_class and sig.error_class[:ERROR_CLASS_CHARS],
        "example": example_of(text, exit_code, program=program, piped=piped),
    }


def _task_reading(episode: Episode) -> tuple[Any, ...]:
    """What a task is made of, of an episode: its request and refinements, its bounds, its
    outcome and whether it had ended."""
    return (
        episode.intent_text,
        tuple(episode.refinements or ()),
        episode.end_seq,
        episode.outcome,
        episode.outcome_rule,
        bool(episode.is_closed),
    )


def _fill_episode(
    episode: Episode,
    draft: EpisodeDraft,
    work: SessionWork,
    outcome: Outcome,
    parent_id: int | None,
) -> None:
    episode.end_seq = draft.end_seq
    episode.intent_event_id = draft.intent.id
    episode.intent_text = draft.intent_text[:20000]
    episode.project_path = work.project_path
    episode.started_at = as_utc(draft.started_at)
    episode.ended_at = as_utc(draft.ended_at)
    episode.feedback_count = len(draft.feedback)
    episode.outcome = outcome.outcome
    episode.outcome_rule = outcome.rule
    episode.outcome_confidence = outcome.confidence
    episode.outcome_event_ids = list(outcome.event_ids)
    read = [(draft.intent.seq, turn) for turn in _stored_opening(episode, draft)] + [
        (
            t.event.seq,
            {
                "event_id": t.event.id,
                "kind": t.kind.value,
                "confidence": t.decision.confidence,
                "hard": t.decision.hard,
                "by_model": t.decision.by_model,
                "why": list(t.decision.reasons),
            },
        )
        for t in ([draft.intent_turn] if draft.intent_turn else [])
        + draft.feedback
        + draft.housekeeping
    ]
    episode.turns = [turn for _, turn in sorted(read, key=lambda pair: pair[0])]
    episode.refinements = [text[:2000] for text in draft.refinements][:20]
    episode.is_closed = draft.closed
    if parent_id is not None:
        episode.parent_episode_id = parent_id


def _stored_opening(episode: Episode, draft: EpisodeDraft) -> list[dict[str, Any]]:
    """The reading of the episode's opening turn an earlier pass stored, when this pass
    read the session on from that turn (a session that grew is read from its last
    episode's request, which it opens without reading again): kept, or the episode lost
    how its request was read (whether it was hard to tell from a follow-up, or a model's
    verdict), which decides whether a one-off failure is a task."""
    if (
        draft.intent_turn is not None
        or draft.carries_on is not None  # its first turn, if typed, is read anew
        or not isinstance(episode.turns, list)
    ):
        return []
    return [
        turn
        for turn in episode.turns
        if isinstance(turn, dict) and turn.get("event_id") == draft.intent.id
    ][:1]


def _replace_signals(
    db: DbSession, episode: Episode, signals: Sequence[SignalDraft], *, is_new: bool
) -> int:
    """Swap an episode's signals for the fresh set; return the net number added."""
    before = 0
    if not is_new:
        before = db.scalar(select(func.count()).where(Signal.episode_id == episode.id)) or 0
        db.execute(delete(Signal).where(Signal.episode_id == episode.id))
    if signals:
        db.execute(
            insert(Signal),
            [
                {
                    "episode_id": episode.id,
                    "kind": s.kind,
                    "polarity": s.polarity,
                    "confidence": s.confidence,
                    "event_ids": s.event_ids,
                    "detail": (s.detail or None) and s.detail[:500],
                }
                for s in signals
            ],
        )
    return len(signals) - before


def _record_patterns(
    db: DbSession,
    episode: Episode,
    draft: EpisodeDraft,
    work: SessionWork,
    patterns: PatternCache,
    errors: EpisodeErrors,
    noise: NoiseFilter,
    *,
    is_new: bool,
) -> tuple[int, set[int]]:
    """Root errors only: knock-on errors belong to their cause, benign exits are answers.
    Returns how many occurrences were added, and the patterns that lost one: an episode
    read on (its session grew) keeps the occurrences this reading makes again and loses
    the others, since a later event can make an error benign ("as expected")."""
    calls = {e.call_id: e.tool_name for e in draft.events if e.kind == "tool_call" and e.call_id}
    roots = set(errors.roots())
    failed = [e for e in draft.events if e.id in roots]
    stored: dict[tuple[int, int], int] = {}
    if not is_new:
        stored = {
            (pattern_id, event_id): occurrence_id
            for occurrence_id, pattern_id, event_id in db.execute(
                select(
                    PatternOccurrence.id, PatternOccurrence.pattern_id, PatternOccurrence.event_id
                ).where(PatternOccurrence.episode_id == episode.id)
            )
        }
    kept: set[tuple[int, int]] = set()
    added = 0
    for event in failed:
        tool = event.tool_name or calls.get(event.call_id or "")
        verdict = errors.verdicts[event.id]
        command, output, exit_code = verdict.command, event.text, event.exit_code
        if verdict.read is not None:
            # a read of a command that ran on: the command's failure, under its own tool
            tool, output, exit_code = (
                verdict.read.tool_name,
                verdict.read.output,
                verdict.read.exit_code,
            )
        ran, piped = program_of(command), reads_a_pipe(command)
        if ran == PATCH_TOOL and is_shell_tool(tool):
            tool = PATCH_TOOL  # Codex before its own tool ran patches through the shell
        text = noise.strip(output)
        sig = signature_of(text, tool, exit_code, program=ran, piped=piped)
        if not sig.text and not sig.error_class:
            continue
        pattern = patterns.get(db, sig.digest)
        ts = as_utc(event.ts)
        if pattern is None:
            pattern = FailurePattern(
                signature_hash=sig.digest,
                count=0,
                first_seen=ts,
                last_seen=ts,
                **_shown_as(sig, tool, text, exit_code, program=ran, piped=piped),
            )
            db.add(pattern)
            db.flush()
            patterns.rows[sig.digest] = pattern
        elif ts is not None and (pattern.first_seen is None or ts < as_utc(pattern.first_seen)):
            # the pattern is shown by its earliest occurrence, whichever the passes read
            # first: one pass over a history and many over it as it grew show the same
            shown = _shown_as(sig, tool, text, exit_code, program=ran, piped=piped)
            for column, value in shown.items():
                setattr(pattern, column, value)
            pattern.first_seen = ts
        kept.add((pattern.id, event.id))
        if (pattern.id, event.id) in stored:
            continue
        db.add(
            PatternOccurrence(
                pattern_id=pattern.id,
                event_id=event.id,
                episode_id=episode.id,
                cluster_id=episode.cluster_id,
                project_path=work.project_path,
                ts=ts,
            )
        )
        pattern.count += 1
        if ts is not None:
            first, last = as_utc(pattern.first_seen), as_utc(pattern.last_seen)
            pattern.first_seen = ts if first is None else min(first, ts)
            pattern.last_seen = ts if last is None else max(last, ts)
        added += 1
    gone = {key: occurrence for key, occurrence in stored.items() if key not in kept}
    if gone:
        db.execute(delete(PatternOccurrence).where(PatternOccurrence.id.in_(list(gone.values()))))
    return added, {pattern_id for pattern_id, _ in gone}


def _parent_episode(db: DbSession, work: SessionWork, draft: EpisodeDraft) -> int | None:
    """The parent episode whose Task/Agent call spawned this subagent, else by time."""
    if work.parent_session_id is None:
        return None
    probe = re.split(r'["\\\n]', draft.intent.text.strip())[0][:60]
    if len(probe) >= 12:
        spawn_seq = db.scalar(
            select(Event.seq)
            .where(
                Event.session_id == work.parent_session_id,
                Event.kind == "tool_call",
                Event.tool_name.in_(SPAWN_TOOLS),
                Event.text.contains(probe, autoescape=True),
            )
            .order_by(Event.seq)
            .limit(1)
        )
        if spawn_seq is not None:
            found = _episode_covering(db, work.parent_session_id, seq=spawn_seq)
            if found is not None:
                return found
    started = as_utc(draft.started_at)
    if started is None:
        return None
    return db.scalar(
        select(Episode.id)
        .where(
            Episode.session_id == work.parent_session_id,
            Episode.parent_episode_id.is_(None),
            Episode.started_at <= started,
        )
        .order_by(Episode.started_at.desc())
        .limit(1)
    )


def _episode_covering(db: DbSession, session_id: int, *, seq: int) -> int | None:
    return db.scalar(
        select(Episode.id)
        .where(Episode.session_id == session_id, Episode.start_seq <= seq)
        .order_by(Episode.start_seq.desc())
        .limit(1)
    )
