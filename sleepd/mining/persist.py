"""Write one session's episodes, signals and failure-pattern occurrences.

Called inside the batch's write transaction, so a session is either mined whole
(episodes, signals, patterns and its new `mined_through_seq`) or not at all.
Re-segmenting from the last episode's start makes a re-run idempotent: existing
episodes are updated in place (unique `session_id, start_seq`), never duplicated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.episodes import (
    Decider,
    EpisodeDraft,
    EventView,
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
from sleepd.mining.loading import SessionWork
from sleepd.mining.plan_handback import plan_handed_back_elsewhere
from sleepd.mining.signals import Outcome, SignalDraft, derive_outcome, detect_signals
from sleepd.mining.signatures import (
    PATCH_TOOL,
    example_of,
    is_shell_tool,
    signature_of,
)
from sleepd.mining.turns.text import ATTACHMENT
from sleepd.store.models import Episode, Event, FailurePattern, PatternOccurrence, Signal
from sleepd.store.records import ERROR_CLASS_CHARS

#: Tools that start a subagent; their input holds the subagent's prompt.
SPAWN_TOOLS = frozenset({"Task", "Agent", "spawn_agent"})


def as_utc(value: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; the store keeps UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


@dataclass
class SessionResult:
    episodes_new: int = 0
    signals_new: int = 0
    occurrences_new: int = 0
    #: typed turns the rules read as hard (a model decides them when model-assisted)
    hard_turns: int = 0
    touched_cluster_ids: set[int] = field(default_factory=set)


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
) -> SessionResult:
    result = SessionResult()
    noise = (noise or NoiseFilter()).merged(session_noise(events))
    last_ts = as_utc(work.last_ts)
    session_over = last_ts is None or last_ts < idle_before
    drafts = _drafts(work, events, lexicon, decide)
    if drafts:
        drafts[-1].closed = drafts[-1].closed or session_over
    existing: dict[int, Episode] = {}
    if work.resume_from is not None or work.is_subagent:
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
    for index, draft in enumerate(drafts):
        following = drafts[index + 1] if index + 1 < len(drafts) else None
        errors = judge_errors(draft.events)
        signals = detect_signals(
            draft,
            lexicon,
            session_over=session_over,
            is_last=following is None,
            next_turn=following.intent_turn if following is not None else None,
            errors=errors,
            plan_handed_back=following is None
            and session_over
            and plan_handed_back_elsewhere(db, work, draft),
        )
        outcome = derive_outcome(signals)
        if draft.has_intent and not readable(draft.intent_text):
            outcome = Outcome("unknown", "unreadable_request", 0.0, (draft.intent.id,))
        episode = existing.get(draft.start_seq)
        is_new = episode is None
        if episode is None:
            episode = Episode(session_id=work.id, start_seq=draft.start_seq)
            db.add(episode)
            result.episodes_new += 1
        elif episode.cluster_id is not None:
            result.touched_cluster_ids.add(episode.cluster_id)
        _fill_episode(episode, draft, work, outcome, parent_id)
        if is_new:
            result.hard_turns += sum(1 for turn in episode.turns or [] if turn.get("hard"))
        rows.append((episode, draft, signals, errors, is_new))
    db.flush()
    for episode, draft, signals, errors, is_new in rows:
        result.signals_new += _replace_signals(db, episode, signals, is_new=is_new)
        result.occurrences_new += _record_patterns(
            db, episode, draft, work, patterns, errors, noise, is_new=is_new
        )
    return result


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
) -> list[EpisodeDraft]:
    if work.is_subagent:
        draft = segment_subagent(events)
        return [draft] if draft is not None else []
    return segment(events, lexicon, first_is_intent=work.resume_from is not None, decide=decide)


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
    episode.turns = [
        {
            "event_id": t.event.id,
            "kind": t.kind.value,
            "confidence": t.decision.confidence,
            "hard": t.decision.hard,
            "by_model": t.decision.by_model,
            "why": list(t.decision.reasons),
        }
        for t in sorted(
            ([draft.intent_turn] if draft.intent_turn else [])
            + draft.feedback
            + draft.housekeeping,
            key=lambda t: t.event.seq,
        )
    ]
    episode.refinements = [text[:2000] for text in draft.refinements][:20]
    episode.is_closed = draft.closed
    if parent_id is not None:
        episode.parent_episode_id = parent_id


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
) -> int:
    """Root errors only: knock-on errors belong to their cause, benign exits are answers."""
    calls = {e.call_id: e.tool_name for e in draft.events if e.kind == "tool_call" and e.call_id}
    roots = set(errors.roots())
    failed = [e for e in draft.events if e.id in roots]
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
                signature=sig.full,
                tool_name=tool,
                # read from a tool's output: as long as the output made it
                error_class=sig.error_class and sig.error_class[:ERROR_CLASS_CHARS],
                example=example_of(text, exit_code, program=ran, piped=piped),
                count=0,
                first_seen=ts,
                last_seen=ts,
            )
            db.add(pattern)
            db.flush()
            patterns.rows[sig.digest] = pattern
        if not is_new and db.scalar(
            select(PatternOccurrence.id).where(
                PatternOccurrence.pattern_id == pattern.id, PatternOccurrence.event_id == event.id
            )
        ):
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
    return added


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
