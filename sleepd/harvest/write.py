"""Write: prepared batches into group transactions, many batches and their cursors a commit.

A commit per batch made a large harvest pay for hundreds of commits and hundreds of
small full-text merges; grouping batches (across files) until about
`GROUP_TEXT_BYTES` of text or `GROUP_EVENTS` events pays for them once. Each group
carries every cursor it advances, so a kill at any moment still leaves the database
as some prefix of the harvest: nothing lost, nothing doubled.

Inside the open group, batches are written as they arrive, a few at a time
(`WRITE_TEXT_BYTES`), not all at the commit, so memory stays bounded and, with
workers, SQLite works while they parse what comes next.
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sleepd import crashpoint
from sleepd.harvest.read import PreparedBatch
from sleepd.harvest.report import SourceReport, note_clipped, note_error
from sleepd.hosts import host_id
from sleepd.store import ingest
from sleepd.store.records import CursorRow
from sleepd.store.writedb import WriteDb, WriteTarget

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

GROUP_TEXT_BYTES = 24 << 20
GROUP_EVENTS = 20_000
GROUP_BATCHES = 1_000
#: A group open this long is committed at its next write: the write lock is held while
#: batches arrive, and other writers (a review, the daemon) should not wait long for it.
GROUP_SECONDS = 5.0
#: Batches are written into the open group once this much text (or this many batches)
#: has arrived.
WRITE_TEXT_BYTES = 2 << 20
WRITE_BATCHES = 200
#: Page cache while a group is written (KiB): about the group's own size.
GROUP_CACHE_KIB = 64 * 1024


@dataclass
class _Caches:
    """Session ids, each session's last sequence number, the latest event time taken
    from each file for each session, and where each session's head is copied from
    (`sleepd.store.resumed`), seen this harvest (valid after a commit)."""

    sessions: dict[str, int] = field(default_factory=dict)
    seqs: dict[int, int] = field(default_factory=dict)
    latest: dict[int, dict[int, str | None]] = field(default_factory=dict)  # file, session
    copied_from: dict[int, int] = field(default_factory=dict)

    def forget_ends(self) -> None:
        """Sessions may have grown elsewhere: read their ends again."""
        self.seqs.clear()
        self.latest.clear()
        self.copied_from.clear()

    def clear(self) -> None:
        self.sessions.clear()
        self.forget_ends()


class GroupWriter:
    """Writes the prepared batches of one source into group transactions."""

    def __init__(self, store: WriteTarget | Engine, source: str, report: SourceReport) -> None:
        self.target = store if isinstance(store, WriteTarget) else WriteTarget.for_engine(store)
        self.source = source
        self.report = report
        self._pending: list[PreparedBatch] = []  # arrived, not yet written
        self._pending_text = 0
        self._group: _OpenGroup | None = None
        self._caches = _Caches()
        self.host = host_id()

    def add(self, batch: PreparedBatch) -> None:
        if batch.reset and self._pending:
            self._write_pending()  # a reset batch leads its own write: it runs first
        self._pending.append(batch)
        self._pending_text += batch.text_bytes
        if self._pending_text >= WRITE_TEXT_BYTES or len(self._pending) >= WRITE_BATCHES:
            self._write_pending()
        group = self._group
        if group is not None and (
            group.text >= GROUP_TEXT_BYTES
            or group.events >= GROUP_EVENTS
            or group.batches >= GROUP_BATCHES
            or time.monotonic() - group.opened >= GROUP_SECONDS
        ):
            self.flush()

    def flush(self) -> None:
        """Write what has arrived and commit the group."""
        self._write_pending()
        group, self._group = self._group, None
        if group is None:
            return
        try:
            # a subagent and its parent, both stored, are linked by the commit that stores
            # the second of them: a harvest killed between commits leaves no pair unlinked
            # for a later harvest, which may find nothing new to read, to put right
            ingest.link_parent_sessions(group.db)
        except BaseException as exc:
            self._caches.clear()
            group.roll_back(exc)
            raise
        try:
            group.commit()
        except BaseException:
            self._caches.clear()
            raise
        crashpoint.reach("harvest:group-committed")
        group.tally.add_to(self.report)

    def abort(self) -> None:
        """Roll the open group back (the harvest is stopping on an error)."""
        group, self._group = self._group, None
        self._pending, self._pending_text = [], 0
        if group is not None:
            self._caches.clear()
            group.roll_back(RuntimeError("harvest stopped"))

    def _write_pending(self) -> None:
        if not self._pending:
            return
        batches = self._pending
        self._pending, self._pending_text = [], 0
        group = self._group
        if group is None:
            group = self._group = _OpenGroup.begin(self.target)
            if not group.db.is_sqlite:
                # Other machines may have added to these sessions since the last group.
                self._caches.forget_ends()
        try:
            tally = self._write(group.db, batches)
        except BaseException as exc:
            # Ids cached from the rolled-back transaction would point at nothing.
            self._caches.clear()
            self._group = None
            group.roll_back(exc)
            raise
        group.tally.merge(tally)
        group.text += sum(b.text_bytes for b in batches)
        group.events += sum(len(b.events) for b in batches)
        group.batches += len(batches)

    def _write(self, db: WriteDb, batches: list[PreparedBatch]) -> _Tally:
        tally = _Tally()
        files = ingest.file_refs(db, self.source, {b.path: b.role for b in batches}, self.host)
        readable: list[PreparedBatch] = []
        for batch in batches:
            if batch.problem is None:
                readable.append(batch)
            else:
                ingest.mark_file_problem(
                    db, files[batch.path].id, batch.problem, missing=batch.missing
                )
                tally.problems.append((batch.path, batch.problem, batch.missing))
        if readable and readable[0].reset:
            ingest.start_generation(db, files[readable[0].path])
            self._caches.forget_ends()
            tally.files_reset += 1
        # Sessions and sequence numbers for the whole group, in a few statements.
        tally.sessions_new = ingest.upsert_sessions(
            db,
            self.source,
            [(rec, files[b.path].id) for b in readable for rec in b.sessions],
            dict.fromkeys(row.session_external_id for b in readable for row in b.events),
            self._caches.sessions,
        )
        ingest.prime_seqs(
            db,
            (self._caches.sessions[row.session_external_id] for b in readable for row in b.events),
            self._caches.seqs,
        )
        cursors: dict[int, tuple[CursorRow, int]] = {}
        added: dict[int, int] = {}  # events per session; -1: recount it
        redactions: dict[str, int] = {}
        for batch in readable:
            ref = files[batch.path]
            inserted, per_session, copies, history = ingest.insert_event_rows(
                db,
                batch.events,
                ref.id,
                self._caches.sessions,
                self._caches.seqs,
                self._caches.latest,
                self._caches.copied_from,
            )
            for session_id, count in per_session.items():
                before = added.get(session_id, 0)
                added[session_id] = -1 if min(before, count) < 0 else before + count
            ingest.record_skips(db, ref, batch.skipped)
            cursors[ref.id] = (batch.cursor, ref.malformed_lines)
            for rule, count in batch.redactions.items():
                redactions[rule] = redactions.get(rule, 0) + count
            tally.events_new += inserted
            tally.rewritten_copies += copies
            tally.resumed_history += history
            tally.malformed_lines += len(batch.skipped)
            tally.truncated_lines += batch.truncated_lines
            if batch.truncated_lines:
                tally.clipped.append((batch.path, batch.truncated_lines))
            tally.bytes_read += batch.bytes_read
            tally.replay_sessions_skipped += batch.replay_sessions_skipped
        ingest.store_cursors(db, cursors)
        ingest.add_event_counts(db, added)
        ingest.add_redaction_counts(db, self.source, redactions)
        tally.redactions = sum(redactions.values())
        return tally


@dataclass
class _OpenGroup:
    """A group transaction being written: its connection, and what it holds so far."""

    stack: ExitStack
    db: WriteDb
    opened: float = field(default_factory=time.monotonic)
    tally: _Tally = field(default_factory=lambda: _Tally())
    text: int = 0
    events: int = 0
    batches: int = 0

    @classmethod
    def begin(cls, target: WriteTarget) -> _OpenGroup:
        stack = ExitStack()
        try:
            db = stack.enter_context(target.transaction(cache_kib=GROUP_CACHE_KIB))
            if target.is_postgres:  # one group at a time on all machines sharing it
                from sleepd.store.locks import lock_key

                db.run("SELECT pg_advisory_xact_lock(:k)", {"k": lock_key("harvest-write")})
        except BaseException as exc:
            stack.__exit__(type(exc), exc, exc.__traceback__)  # rolls back, never commits
            raise
        return cls(stack, db)

    def commit(self) -> None:
        self.stack.close()

    def roll_back(self, exc: BaseException) -> None:
        self.stack.__exit__(type(exc), exc, exc.__traceback__)


@dataclass
class _Tally:
    """What one group added; it reaches the report only once the group is committed."""

    sessions_new: int = 0
    events_new: int = 0
    files_reset: int = 0
    malformed_lines: int = 0
    truncated_lines: int = 0
    bytes_read: int = 0
    replay_sessions_skipped: int = 0
    rewritten_copies: int = 0
    resumed_history: int = 0
    redactions: int = 0
    problems: list[tuple[str, str, bool]] = field(default_factory=list)  # path, reason, gone
    clipped: list[tuple[str, int]] = field(default_factory=list)  # path, lines stored clipped

    def merge(self, other: _Tally) -> None:
        _add_counts(self, other)
        self.problems.extend(other.problems)
        self.clipped.extend(other.clipped)

    def add_to(self, report: SourceReport) -> None:
        _add_counts(report, self)
        for path, lines in self.clipped:
            note_clipped(report, path, lines)
        for path, problem, missing in self.problems:
            if missing:
                report.files_missing += 1
            else:
                note_error(report, f"cannot read {path}: {problem}")


#: The figures a tally counts, under the same names in a SourceReport.
_COUNTS = (
    "sessions_new",
    "events_new",
    "files_reset",
    "malformed_lines",
    "truncated_lines",
    "bytes_read",
    "replay_sessions_skipped",
    "rewritten_copies",
    "resumed_history",
    "redactions",
)


def _add_counts(target: _Tally | SourceReport, source: _Tally) -> None:
    for name in _COUNTS:
        setattr(target, name, getattr(target, name) + getattr(source, name))
