"""Store prepared batches in group transactions: many batches, their cursors, one commit.

A commit per batch made a large harvest pay for hundreds of commits and hundreds of
small full-text merges; grouping batches (across files) until about
`GROUP_TEXT_BYTES` of text or `GROUP_EVENTS` events pays for them once. Each group
carries every cursor it advances, so a kill at any moment still leaves the database
as some prefix of the harvest: nothing lost, nothing doubled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.engine import Connection, Engine

from harvesters.records import FILE_VANISHED, FileCursor
from sleepd.harvest_prepare import PreparedBatch
from sleepd.harvest_report import SourceReport
from sleepd.store import ingest
from sleepd.store.dialect import bulk_write_cache
from sleepd.store.engine import write_connection

GROUP_TEXT_BYTES = 24 << 20
GROUP_EVENTS = 20_000
GROUP_BATCHES = 1_000
#: Page cache while a group is written (KiB): about the group's own size.
GROUP_CACHE_KIB = 64 * 1024


@dataclass
class _Caches:
    """Session ids and last sequence numbers seen this harvest (valid after a commit)."""

    sessions: dict[str, int] = field(default_factory=dict)
    seqs: dict[int, int] = field(default_factory=dict)

    def clear(self) -> None:
        self.sessions.clear()
        self.seqs.clear()


class GroupWriter:
    """Collects prepared batches of one source and writes them a group at a time."""

    def __init__(self, engine: Engine, source: str, report: SourceReport) -> None:
        self.engine = engine
        self.source = source
        self.report = report
        self._pending: list[PreparedBatch] = []
        self._pending_text = 0
        self._pending_events = 0
        self._caches = _Caches()

    def add(self, batch: PreparedBatch) -> None:
        if batch.reset and self._pending:
            self.flush()  # a reset opens its own group, so it runs before the group's inserts
        self._pending.append(batch)
        self._pending_text += batch.text_bytes
        self._pending_events += len(batch.event_rows)
        if (
            self._pending_text >= GROUP_TEXT_BYTES
            or self._pending_events >= GROUP_EVENTS
            or len(self._pending) >= GROUP_BATCHES
        ):
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        batches = self._pending
        self._pending, self._pending_text, self._pending_events = [], 0, 0
        try:
            with (
                write_connection(self.engine) as conn,
                bulk_write_cache(conn, GROUP_CACHE_KIB),
            ):
                tally = self._write(conn, batches)
        except BaseException:
            # Ids cached from the rolled-back transaction would point at nothing.
            self._caches.clear()
            raise
        tally.add_to(self.report)

    def _write(self, conn: Connection, batches: list[PreparedBatch]) -> _Tally:
        tally = _Tally()
        files = ingest.file_refs(conn, self.source, {b.path: b.role for b in batches})
        readable: list[PreparedBatch] = []
        for batch in batches:
            if batch.problem is None:
                readable.append(batch)
            else:
                ingest.mark_file_problem(conn, files[batch.path].id, batch.problem)
                tally.problems.append((batch.path, batch.problem))
        if readable and readable[0].reset:
            ingest.reset_file(conn, files[readable[0].path])
            self._caches.seqs.clear()
            tally.files_reset += 1
        # Sessions and sequence numbers for the whole group, in a few statements.
        tally.sessions_new = ingest.upsert_sessions(
            conn,
            self.source,
            [(rec, files[b.path].id) for b in readable for rec in b.sessions],
            dict.fromkeys(row[0] for b in readable for row in b.event_rows),
            self._caches.sessions,
        )
        ingest.prime_seqs(
            conn,
            (self._caches.sessions[row[0]] for b in readable for row in b.event_rows),
            self._caches.seqs,
        )
        cursors: dict[int, tuple[FileCursor, int]] = {}
        added: dict[int, int] = {}  # events per session; -1: recount it
        redactions: dict[str, int] = {}
        for batch in readable:
            ref = files[batch.path]
            inserted, per_session = ingest.insert_event_rows(
                conn, batch.event_rows, ref.id, self._caches.sessions, self._caches.seqs
            )
            for session_id, count in per_session.items():
                before = added.get(session_id, 0)
                added[session_id] = -1 if min(before, count) < 0 else before + count
            ingest.record_skips(conn, ref, batch.skipped)
            cursors[ref.id] = (batch.cursor, ref.malformed_lines)
            for rule, count in batch.redactions.items():
                redactions[rule] = redactions.get(rule, 0) + count
            tally.events_new += inserted
            tally.malformed_lines += len(batch.skipped)
            tally.truncated_lines += batch.truncated_lines
            tally.bytes_read += batch.bytes_read
            tally.replay_sessions_skipped += batch.replay_sessions_skipped
        ingest.store_cursors(conn, cursors)
        ingest.add_event_counts(conn, added)
        ingest.add_redaction_counts(conn, self.source, redactions)
        tally.redactions = sum(redactions.values())
        return tally


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
    redactions: int = 0
    problems: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)

    def add_to(self, report: SourceReport) -> None:
        report.sessions_new += self.sessions_new
        report.events_new += self.events_new
        report.files_reset += self.files_reset
        report.malformed_lines += self.malformed_lines
        report.truncated_lines += self.truncated_lines
        report.bytes_read += self.bytes_read
        report.replay_sessions_skipped += self.replay_sessions_skipped
        report.redactions += self.redactions
        for path, problem in self.problems:
            if problem == FILE_VANISHED:
                report.files_missing += 1
            else:
                note_error(report, f"cannot read {path}: {problem}")


def note_error(report: SourceReport, message: str) -> None:
    report.errors += 1
    if len(report.error_messages) < 50:
        report.error_messages.append(message)
