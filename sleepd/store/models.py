"""SQLAlchemy 2 models for the whole pipeline.

Portable SQL only (SQLite and PostgreSQL); dialect-specific pieces (pragmas,
FTS5, upserts) live behind `sleepd.store.dialect`. Timestamps are stored as
timezone-aware UTC. JSON columns hold small structured detail, never bulk text.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {  # noqa: RUF012
        datetime: DateTime(timezone=True),
        dict[str, Any]: JSON,
        list[Any]: JSON,
    }


# --- harvest ---------------------------------------------------------------


class TranscriptFile(Base):
    """One transcript file and the incremental cursor of the last pass."""

    __tablename__ = "transcript_files"
    #: A cursor belongs to one machine's file: the same path on two hosts is two files.
    __table_args__ = (UniqueConstraint("host_id", "path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(String(32), index=True)
    #: The harvesting machine (`sleepd.hosts.host_id`).
    host_id: Mapped[str] = mapped_column(String(64), default="", server_default="")
    path: Mapped[str] = mapped_column(String(4096))
    role: Mapped[str] = mapped_column(String(16), default="main")
    device: Mapped[int] = mapped_column(BigInteger, default=0)
    inode: Mapped[int] = mapped_column(BigInteger, default=0)
    size: Mapped[int] = mapped_column(BigInteger, default=0)
    offset: Mapped[int] = mapped_column(BigInteger, default=0)
    line_no: Mapped[int] = mapped_column(Integer, default=0)
    head_hash: Mapped[str] = mapped_column(String(64), default="")
    #: Hash of the bytes just before `offset`: a resume point is verified by content.
    tail_hash: Mapped[str] = mapped_column(String(64), default="", server_default="")
    mtime_ns: Mapped[int] = mapped_column(BigInteger, default=0)
    parse_state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="ok")
    last_error: Mapped[str | None] = mapped_column(Text)
    malformed_lines: Mapped[int] = mapped_column(Integer, default=0)
    resets: Mapped[int] = mapped_column(Integer, default=0)
    #: the harvest that read the file (`harvest.reading`); "" before 0023
    read_with: Mapped[str] = mapped_column(String(64), default="", server_default="")
    first_seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_harvested_at: Mapped[datetime | None]


class SkippedLine(Base):
    """A transcript line the harvester could not use, kept for diagnosis."""

    __tablename__ = "skipped_lines"

    id: Mapped[int] = mapped_column(primary_key=True)
    file_id: Mapped[int] = mapped_column(
        ForeignKey("transcript_files.id", ondelete="CASCADE"), index=True
    )
    line_no: Mapped[int] = mapped_column(Integer)
    byte_offset: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(512))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Session(Base):
    __tablename__ = "sessions"
    __table_args__ = (UniqueConstraint("source", "external_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(String(32))
    external_id: Mapped[str] = mapped_column(String(256))
    kind: Mapped[str] = mapped_column(String(16), default="main")
    file_id: Mapped[int | None] = mapped_column(
        ForeignKey("transcript_files.id", ondelete="SET NULL"), index=True
    )
    parent_external_id: Mapped[str | None] = mapped_column(String(256))
    parent_session_id: Mapped[int | None] = mapped_column(
        ForeignKey("sessions.id", ondelete="SET NULL"), index=True
    )
    project_path: Mapped[str | None] = mapped_column(String(4096), index=True)
    git_branch: Mapped[str | None] = mapped_column(String(512))
    model: Mapped[str | None] = mapped_column(String(128))
    agent_version: Mapped[str | None] = mapped_column(String(64))
    title: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime | None] = mapped_column(index=True)
    ended_at: Mapped[datetime | None]
    event_count: Mapped[int] = mapped_column(Integer, default=0)
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)
    mined_through_seq: Mapped[int] = mapped_column(Integer, default=0)
    #: the rules that read the session (`mining.reading`); "" before any, or before 0022
    mined_with: Mapped[str] = mapped_column(String(64), default="", server_default="")
    #: the session its conversation began in, when it carries on another session's
    #: conversation (resumed or forked into a new file, `mining.carried`): recurrence
    #: counts one conversation once, however many files it went on in
    conversation_session_id: Mapped[int | None] = mapped_column(
        ForeignKey("sessions.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    events: Mapped[list[Event]] = relationship(back_populates="session", passive_deletes=True)


class Event(Base):
    """One normalized transcript event; text is redacted before it lands here."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("session_id", "external_id"),
        Index("ix_events_session_seq", "session_id", "seq"),
        # Errors are the one kind counted across sessions (status); a partial index
        # keeps that fast without every harvested event paying for an index on kind.
        Index(
            "ix_events_errors",
            "session_id",
            sqlite_where=text("kind = 'error'"),
            postgresql_where=text("kind = 'error'"),
        ),
        # A resumed session's copy of another session is found by the ids of a person's
        # records (`sleepd.store.resumed`): a small share of the events.
        Index(
            "ix_events_user_ids",
            "external_id",
            sqlite_where=text("role = 'user'"),
            postgresql_where=text("role = 'user'"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    external_id: Mapped[str] = mapped_column(String(256))
    ts: Mapped[datetime | None]
    role: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(24))
    tool_name: Mapped[str | None] = mapped_column(String(256))
    call_id: Mapped[str | None] = mapped_column(String(256))
    text: Mapped[str] = mapped_column(Text, default="")
    text_size: Mapped[int] = mapped_column(Integer, default=0)
    is_error: Mapped[bool] = mapped_column(Boolean, default=False)
    exit_code: Mapped[int | None] = mapped_column(Integer)
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cache_read_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cache_creation_tokens: Mapped[int] = mapped_column(Integer, default=0)
    message_id: Mapped[str | None] = mapped_column(String(256))
    is_sidechain: Mapped[bool] = mapped_column(Boolean, default=False)
    is_meta: Mapped[bool] = mapped_column(Boolean, default=False)
    raw_type: Mapped[str | None] = mapped_column(String(64))
    raw: Mapped[str | None] = mapped_column(Text)
    file_id: Mapped[int | None] = mapped_column(
        ForeignKey("transcript_files.id", ondelete="SET NULL"), index=True
    )
    byte_offset: Mapped[int] = mapped_column(BigInteger, default=0)
    line_no: Mapped[int] = mapped_column(Integer, default=0)

    session: Mapped[Session] = relationship(back_populates="events")


class RedactionCount(Base):
    __tablename__ = "redaction_counts"
    __table_args__ = (UniqueConstraint("source", "rule"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(String(32))
    rule: Mapped[str] = mapped_column(String(128))
    count: Mapped[int] = mapped_column(Integer, default=0)


# --- mining ------------------------------------------------------------------


class TaskCluster(Base):
    """Recurring intents; ids stay stable from night to night."""

    __tablename__ = "task_clusters"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    representative_intent: Mapped[str] = mapped_column(Text, default="")
    size: Mapped[int] = mapped_column(Integer, default=0)
    session_count: Mapped[int] = mapped_column(Integer, default=0)
    projects: Mapped[list[Any]] = mapped_column(default=list)
    first_seen: Mapped[datetime | None]
    last_seen: Mapped[datetime | None]
    success_rate: Mapped[float | None] = mapped_column(Float)
    split: Mapped[str] = mapped_column(String(8), default="train")
    centroid: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Episode(Base):
    """A user intent plus the agent's work until the next new intent."""

    __tablename__ = "episodes"
    __table_args__ = (UniqueConstraint("session_id", "start_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), index=True
    )
    parent_episode_id: Mapped[int | None] = mapped_column(
        ForeignKey("episodes.id", ondelete="SET NULL")
    )
    intent_event_id: Mapped[int | None] = mapped_column(
        ForeignKey("events.id", ondelete="SET NULL")
    )
    start_seq: Mapped[int] = mapped_column(Integer)
    end_seq: Mapped[int] = mapped_column(Integer)
    intent_text: Mapped[str] = mapped_column(Text, default="")
    project_path: Mapped[str | None] = mapped_column(String(4096), index=True)
    started_at: Mapped[datetime | None]
    ended_at: Mapped[datetime | None]
    feedback_count: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[str] = mapped_column(String(16), default="unknown")
    outcome_rule: Mapped[str | None] = mapped_column(String(128))
    #: how sure the outcome rule is (0 for unknown) and the events that justify it
    outcome_confidence: Mapped[float | None] = mapped_column(Float)
    outcome_event_ids: Mapped[list[Any] | None] = mapped_column(JSON)
    #: each typed turn of the episode: {"event_id", "kind", "confidence"}
    turns: Mapped[list[Any] | None] = mapped_column(JSON)
    #: follow-ups that refine the request (folded into its task's intent)
    refinements: Mapped[list[Any] | None] = mapped_column(JSON)
    cluster_id: Mapped[int | None] = mapped_column(
        ForeignKey("task_clusters.id", ondelete="SET NULL"), index=True
    )
    is_closed: Mapped[bool] = mapped_column(Boolean, default=False)
    #: it wrote nothing but the plan it ends on, and the plan was taken as the next
    #: request ("Implement the following plan: …", here or in a new session) or may still
    #: be (its session runs): that episode holds the request and its work, so this one
    #: is clustered nowhere and makes no task (`mining.plan_handback`)
    plan_handed_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the episode of another session whose request this one carries on (a conversation
    #: resumed or forked into a new file, `mining.carried`): that episode's outcome is the
    #: one this episode reads over both files (`mining.read_back`)
    carries_on_episode_id: Mapped[int | None] = mapped_column(
        ForeignKey("episodes.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Signal(Base):
    """An outcome signal with the events it rests on and a confidence."""

    __tablename__ = "signals"

    id: Mapped[int] = mapped_column(primary_key=True)
    episode_id: Mapped[int] = mapped_column(
        ForeignKey("episodes.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(32), index=True)
    polarity: Mapped[int] = mapped_column(Integer, default=0)
    confidence: Mapped[float] = mapped_column(Float, default=0.5)
    event_ids: Mapped[list[Any]] = mapped_column(default=list)
    detail: Mapped[str | None] = mapped_column(Text)


class FailurePattern(Base):
    __tablename__ = "failure_patterns"
    __table_args__ = (UniqueConstraint("signature_hash"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    signature_hash: Mapped[str] = mapped_column(String(64))
    signature: Mapped[str] = mapped_column(Text)
    tool_name: Mapped[str | None] = mapped_column(String(256))
    error_class: Mapped[str | None] = mapped_column(String(256))
    example: Mapped[str] = mapped_column(Text, default="")
    count: Mapped[int] = mapped_column(Integer, default=0)
    first_seen: Mapped[datetime | None]
    last_seen: Mapped[datetime | None]


class PatternOccurrence(Base):
    __tablename__ = "pattern_occurrences"
    __table_args__ = (UniqueConstraint("pattern_id", "event_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    pattern_id: Mapped[int] = mapped_column(
        ForeignKey("failure_patterns.id", ondelete="CASCADE"), index=True
    )
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    episode_id: Mapped[int | None] = mapped_column(
        ForeignKey("episodes.id", ondelete="CASCADE"), index=True
    )
    cluster_id: Mapped[int | None] = mapped_column(
        ForeignKey("task_clusters.id", ondelete="SET NULL")
    )
    project_path: Mapped[str | None] = mapped_column(String(4096), index=True)
    ts: Mapped[datetime | None]


class Task(Base):
    """A replayable task; the judge spec is never shown to the optimizer."""

    __tablename__ = "tasks"
    __table_args__ = (UniqueConstraint("episode_id", "origin"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    episode_id: Mapped[int | None] = mapped_column(
        ForeignKey("episodes.id", ondelete="SET NULL"), index=True
    )
    cluster_id: Mapped[int | None] = mapped_column(
        ForeignKey("task_clusters.id", ondelete="SET NULL"), index=True
    )
    derived_from_task_id: Mapped[int | None] = mapped_column(
        ForeignKey("tasks.id", ondelete="CASCADE")
    )
    project_path: Mapped[str | None] = mapped_column(String(4096), index=True)
    intent: Mapped[str] = mapped_column(Text)
    context: Mapped[dict[str, Any]] = mapped_column(default=dict)
    judge_spec: Mapped[dict[str, Any]] = mapped_column(default=dict)
    split: Mapped[str] = mapped_column(String(8), index=True)
    origin: Mapped[str] = mapped_column(String(16), default="mined")
    outcome: Mapped[str] = mapped_column(String(16), default="unknown")
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: why a reading again retired it (`task_mining.RETIRED_BECAUSE`); "" while in use
    retired_because: Mapped[str] = mapped_column(String(32), default="", server_default="")


class TaskReplaySite(Base):
    """Where a task can be replayed with tools: repository, commit, the project's tests.

    Found at mining time from the session (Codex records the commit; for Claude Code the
    branch's commit at the session's start is resolved from the local repository). The
    replay fidelity (share of rollouts under the original document that reproduce the
    original outcome) is kept here too: a task below the threshold is not gated.
    """

    __tablename__ = "task_replay_sites"

    id: Mapped[int] = mapped_column(primary_key=True)
    task_id: Mapped[int] = mapped_column(
        ForeignKey("tasks.id", ondelete="CASCADE"), unique=True, index=True
    )
    repo_root: Mapped[str | None] = mapped_column(String(4096))
    commit: Mapped[str | None] = mapped_column(String(64))
    commit_source: Mapped[str] = mapped_column(String(16), default="")
    #: the branch the work tree was on at the request, where HEAD's reflog said it; None
    #: for the session's own branch
    branch: Mapped[str | None] = mapped_column(String(255))
    test_commands: Mapped[list[Any]] = mapped_column(default=list)
    failing_tests: Mapped[list[Any]] = mapped_column(default=list)
    agent: Mapped[str | None] = mapped_column(String(16))
    problem: Mapped[str | None] = mapped_column(Text)
    fidelity: Mapped[float | None] = mapped_column(Float)
    fidelity_rollouts: Mapped[int] = mapped_column(Integer, default=0)
    fidelity_matched: Mapped[int] = mapped_column(Integer, default=0)
    fidelity_night_id: Mapped[int | None] = mapped_column(
        ForeignKey("nights.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# --- documents -----------------------------------------------------------------


class TargetDocument(Base):
    __tablename__ = "target_documents"
    __table_args__ = (UniqueConstraint("path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    project_path: Mapped[str] = mapped_column(String(4096), index=True)
    path: Mapped[str] = mapped_column(String(4096))
    kind: Mapped[str] = mapped_column(String(16))
    #: The repository the document belongs to (its first commit), so a machine adopts
    #: only into the same project, not merely the same path.
    repo_identity: Mapped[str | None] = mapped_column(String(64))
    editable: Mapped[str] = mapped_column(String(24), default="managed_section")
    managed: Mapped[bool] = mapped_column(Boolean, default=True)
    last_adopted_version_id: Mapped[int | None] = mapped_column(
        ForeignKey("document_versions.id", ondelete="SET NULL", use_alter=True)
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DocumentVersion(Base):
    """Every version of a target, stored before anything edits it."""

    __tablename__ = "document_versions"

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(
        ForeignKey("target_documents.id", ondelete="CASCADE"), index=True
    )
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    content: Mapped[str] = mapped_column(Text)
    mode: Mapped[int | None] = mapped_column(Integer)
    origin: Mapped[str] = mapped_column(String(16), default="observed")
    proposal_id: Mapped[int | None] = mapped_column(
        ForeignKey("proposals.id", ondelete="SET NULL", use_alter=True)
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# --- the night -------------------------------------------------------------------


class Night(Base):
    __tablename__ = "nights"

    id: Mapped[int] = mapped_column(primary_key=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    ended_at: Mapped[datetime | None]
    status: Mapped[str] = mapped_column(String(16), default="running")
    stop_reason: Mapped[str | None] = mapped_column(Text)
    trigger: Mapped[str] = mapped_column(String(16), default="manual")
    project_path: Mapped[str | None] = mapped_column(String(4096))
    backend: Mapped[str | None] = mapped_column(String(64))
    simulated: Mapped[bool] = mapped_column(Boolean, default=False)
    dry_run: Mapped[bool] = mapped_column(Boolean, default=False)
    tasks_replayed: Mapped[int] = mapped_column(Integer, default=0)
    candidates_proposed: Mapped[int] = mapped_column(Integer, default=0)
    accepted: Mapped[int] = mapped_column(Integer, default=0)
    rejected: Mapped[int] = mapped_column(Integer, default=0)
    inconclusive: Mapped[int] = mapped_column(Integer, default=0)
    val_before: Mapped[float | None] = mapped_column(Float)
    val_after: Mapped[float | None] = mapped_column(Float)
    test_before: Mapped[float | None] = mapped_column(Float)
    test_after: Mapped[float | None] = mapped_column(Float)
    rollouts: Mapped[int] = mapped_column(Integer, default=0)
    tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    summary: Mapped[dict[str, Any]] = mapped_column(default=dict)


class Candidate(Base):
    """A proposed edit set for one document, with its gate history."""

    __tablename__ = "candidates"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"), index=True)
    document_id: Mapped[int] = mapped_column(
        ForeignKey("target_documents.id", ondelete="CASCADE"), index=True
    )
    base_version_id: Mapped[int] = mapped_column(
        ForeignKey("document_versions.id", ondelete="CASCADE")
    )
    carried_from_id: Mapped[int | None] = mapped_column(
        ForeignKey("candidates.id", ondelete="SET NULL")
    )
    edits: Mapped[list[Any]] = mapped_column(default=list)
    rationale: Mapped[str] = mapped_column(Text, default="")
    content: Mapped[str] = mapped_column(Text)
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    fingerprint: Mapped[str] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(16), default="pending_gate", index=True)
    look: Mapped[int] = mapped_column(Integer, default=1)
    safety_flags: Mapped[list[Any]] = mapped_column(default=list)
    rejected_edits: Mapped[list[Any]] = mapped_column(default=list)
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Rollout(Base):
    """One dream rollout of a task under a document version."""

    __tablename__ = "rollouts"
    __table_args__ = (Index("ix_rollouts_night_task", "night_id", "task_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    task_id: Mapped[int] = mapped_column(ForeignKey("tasks.id", ondelete="CASCADE"), index=True)
    candidate_id: Mapped[int | None] = mapped_column(
        ForeignKey("candidates.id", ondelete="CASCADE"), index=True
    )
    document_hash: Mapped[str] = mapped_column(String(64))
    arm: Mapped[str] = mapped_column(String(32), default="baseline")
    split: Mapped[str] = mapped_column(String(8))
    rollout_index: Mapped[int] = mapped_column(Integer)
    score: Mapped[float | None] = mapped_column(Float)
    success: Mapped[bool | None] = mapped_column(Boolean)
    judge_detail: Mapped[dict[str, Any]] = mapped_column(default=dict)
    output: Mapped[str] = mapped_column(Text, default="")
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    latency_s: Mapped[float] = mapped_column(Float, default=0.0)
    failure_kind: Mapped[str | None] = mapped_column(String(32))
    backend: Mapped[str] = mapped_column(String(64), default="")
    model: Mapped[str | None] = mapped_column(String(128))
    simulated: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class GateDecisionRecord(Base):
    __tablename__ = "gate_decisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    candidate_id: Mapped[int | None] = mapped_column(
        ForeignKey("candidates.id", ondelete="CASCADE"), index=True
    )
    document_id: Mapped[int | None] = mapped_column(
        ForeignKey("target_documents.id", ondelete="CASCADE")
    )
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"), index=True)
    outcome: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    statistic: Mapped[float | None] = mapped_column(Float)
    p_value: Mapped[float | None] = mapped_column(Float)
    alpha: Mapped[float | None] = mapped_column(Float)
    look: Mapped[int] = mapped_column(Integer, default=1)
    calibration: Mapped[bool] = mapped_column(Boolean, default=False)
    val_lift: Mapped[float | None] = mapped_column(Float)
    test_lift: Mapped[float | None] = mapped_column(Float)
    reason: Mapped[str] = mapped_column(Text, default="")
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Proposal(Base):
    """A candidate that passed the gate, waiting for a person."""

    __tablename__ = "proposals"

    id: Mapped[int] = mapped_column(primary_key=True)
    candidate_id: Mapped[int | None] = mapped_column(
        ForeignKey("candidates.id", ondelete="SET NULL"), index=True
    )
    night_id: Mapped[int | None] = mapped_column(ForeignKey("nights.id", ondelete="SET NULL"))
    document_id: Mapped[int] = mapped_column(
        ForeignKey("target_documents.id", ondelete="CASCADE"), index=True
    )
    base_version_id: Mapped[int] = mapped_column(
        ForeignKey("document_versions.id", ondelete="CASCADE")
    )
    base_hash: Mapped[str] = mapped_column(String(64))
    new_content: Mapped[str] = mapped_column(Text)
    new_hash: Mapped[str] = mapped_column(String(64))
    diff: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="pending", index=True)
    p_value: Mapped[float | None] = mapped_column(Float)
    val_lift: Mapped[float | None] = mapped_column(Float)
    test_lift: Mapped[float | None] = mapped_column(Float)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    simulated: Mapped[bool] = mapped_column(Boolean, default=False)
    gate: Mapped[dict[str, Any]] = mapped_column(default=dict)
    provenance: Mapped[dict[str, Any]] = mapped_column(default=dict)
    safety_flags: Mapped[list[Any]] = mapped_column(default=list)
    decided_at: Mapped[datetime | None]
    decided_by: Mapped[str | None] = mapped_column(String(128))
    decision_reason: Mapped[str | None] = mapped_column(Text)
    edited_by_reviewer: Mapped[bool] = mapped_column(Boolean, default=False)
    adopted_version_id: Mapped[int | None] = mapped_column(
        ForeignKey("document_versions.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# --- money, jobs, audit ------------------------------------------------------------


class BudgetEntry(Base):
    __tablename__ = "budget_ledger"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int | None] = mapped_column(
        ForeignKey("nights.id", ondelete="SET NULL"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    role: Mapped[str] = mapped_column(String(16))
    backend: Mapped[str] = mapped_column(String(64))
    model: Mapped[str | None] = mapped_column(String(128))
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cache_read_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cache_write_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    batched: Mapped[bool] = mapped_column(Boolean, default=False)
    simulated: Mapped[bool] = mapped_column(Boolean, default=False)
    failure_kind: Mapped[str | None] = mapped_column(String(32))


class BatchJob(Base):
    """A provider batch, resumable after a restart from its stored id."""

    __tablename__ = "batch_jobs"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int | None] = mapped_column(ForeignKey("nights.id", ondelete="SET NULL"))
    backend: Mapped[str] = mapped_column(String(64))
    role: Mapped[str] = mapped_column(String(16))
    provider_batch_id: Mapped[str] = mapped_column(String(256), unique=True)
    status: Mapped[str] = mapped_column(String(32), default="submitted")
    request_map: Mapped[dict[str, Any]] = mapped_column(default=dict)
    submitted_at: Mapped[datetime] = mapped_column(default=utcnow)
    completed_at: Mapped[datetime | None]


class JobRun(Base):
    __tablename__ = "job_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    job: Mapped[str] = mapped_column(String(32), index=True)
    trigger: Mapped[str] = mapped_column(String(32), default="manual")
    started_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    ended_at: Mapped[datetime | None]
    outcome: Mapped[str] = mapped_column(String(16), default="running")
    reason: Mapped[str | None] = mapped_column(Text)
    night_id: Mapped[int | None] = mapped_column(ForeignKey("nights.id", ondelete="SET NULL"))
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)


class DaemonHeartbeat(Base):
    """Lets `status` tell a live daemon from a dead one."""

    __tablename__ = "daemon_heartbeats"

    id: Mapped[int] = mapped_column(primary_key=True)
    hostname: Mapped[str] = mapped_column(String(256))
    pid: Mapped[int] = mapped_column(Integer)
    version: Mapped[str] = mapped_column(String(32))
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    heartbeat_at: Mapped[datetime] = mapped_column(default=utcnow)
    stopped_at: Mapped[datetime | None]
    state: Mapped[str] = mapped_column(String(16), default="running")
    watch_mode: Mapped[str | None] = mapped_column(String(16))
    next_night_at: Mapped[datetime | None]
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)


class AuditEntry(Base):
    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    actor: Mapped[str] = mapped_column(String(128))
    action: Mapped[str] = mapped_column(String(64), index=True)
    object_type: Mapped[str] = mapped_column(String(32))
    object_id: Mapped[str | None] = mapped_column(String(64))
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)


# --- learned rules -------------------------------------------------------------------


class LearnedRule(Base):
    """One learned rule (a line of a managed region) and where it came from.

    Written when an adoption or rollback changes a managed document (the rules it adds
    and removes), and when a night measures a rule's leave-one-out contribution. A rule
    deleted and later restored keeps its row (and its provenance).
    """

    __tablename__ = "learned_rules"
    __table_args__ = (Index("ix_learned_rules_document_hash", "document_id", "text_hash"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("target_documents.id", ondelete="CASCADE"))
    text_hash: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    proposal_id: Mapped[int | None] = mapped_column(ForeignKey("proposals.id", ondelete="SET NULL"))
    night_id: Mapped[int | None] = mapped_column(ForeignKey("nights.id", ondelete="SET NULL"))
    #: the tasks and clusters the night replayed when it proposed the rule
    task_ids: Mapped[list[Any]] = mapped_column(default=list)
    cluster_ids: Mapped[list[Any]] = mapped_column(default=list)
    simulated: Mapped[bool] = mapped_column(Boolean, default=False)
    added_at: Mapped[datetime] = mapped_column(default=utcnow)
    added_version_id: Mapped[int | None] = mapped_column(
        ForeignKey("document_versions.id", ondelete="SET NULL")
    )
    removed_at: Mapped[datetime | None]
    removed_reason: Mapped[str | None] = mapped_column(String(32))
    removed_by_proposal_id: Mapped[int | None] = mapped_column(
        ForeignKey("proposals.id", ondelete="SET NULL")
    )
    last_contribution: Mapped[float | None] = mapped_column(Float)
    last_measured_at: Mapped[datetime | None]
    last_measured_night_id: Mapped[int | None] = mapped_column(
        ForeignKey("nights.id", ondelete="SET NULL")
    )
    measurements: Mapped[int] = mapped_column(Integer, default=0)
