"""Events a source wrote a second time: the same moment and content under a new id.

Claude Code, resuming a session on a later day, has written the session's earlier
records into its file again, with new uuids and their original timestamps (2.1.11;
anthropics/claude-code#5034 shows the same with stream-json input). The store's key,
(session, external id), cannot see such a copy, and a copy stored makes prompts that no
one typed a second time and counts every tool result twice.

A copy is what cannot repeat by chance: the same file and session, the same timestamp
to the microsecond, and the same role, kind, call id, message id, text, record type and
raw line, for the events a person or the agent made, the records of what a person ran
among them (a slash command, its caveat and output, which mining reads as turns); the
CLI's bookkeeping records (hook progress, queue operations: meta with a record type)
legitimately repeat within a millisecond, and are left alone. Only an event older than the latest
one already taken from its file for its session is compared (and, once a session is
being compared, one as old), so an ordinary append costs one comparison per event; an
event that merely arrives out of order differs in content and is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sleepd.store.records import EventRow, stored_timestamp
from sleepd.store.writedb import WriteDb

_STORED = (
    "SELECT ts, role, kind, call_id, message_id, text, raw_type, raw, external_id FROM events "
    "WHERE session_id = :session AND file_id = :file AND ts >= :since AND ts < :until"
)
_STORED_ID = "SELECT 1 FROM events WHERE session_id = :session AND external_id = :id"
_LAST_TIMED = (
    "SELECT ts FROM events WHERE session_id = :session AND file_id = :file "
    "AND ts IS NOT NULL ORDER BY seq DESC LIMIT 1"
)
#: What two events must share to be one: EventRow fields, and the events columns read.
_Key = tuple[str, str, str, str | None, str | None, str, str | None, str | None]


def _as_text(value: Any) -> str | None:
    """A timestamp as `EventRow.ts` holds it, whichever driver read it."""
    if value is None or isinstance(value, str):
        return value
    assert isinstance(value, datetime)
    return stored_timestamp(value)


def _row_key(row: EventRow) -> _Key:
    assert row.ts is not None
    return (
        row.ts,
        row.role,
        row.kind,
        row.call_id,
        row.message_id,
        row.text,
        row.raw_type,
        row.raw,
    )


def last_timed_event(db: WriteDb, session_id: int, file_id: int) -> str | None:
    """The time of the last event stored from this file for this session that has one."""
    return _as_text(db.scalar(_LAST_TIMED, {"session": session_id, "file": file_id}))


class _Known:
    """One session's events of this file at or after `since`: stored, and taken in this
    insert; each under the external id it was taken with."""

    def __init__(self, since: str) -> None:
        self.since = since
        self.ids: dict[_Key, str] = {}


class RewrittenCopies:
    """Finds, within one insert of one file's events, those that copy an event of the same
    file stored or taken before them. (Subagents started together write the same first
    prompt at the same instant, each in a file of its own: those are not copies.)

    The caller keeps the latest event time per (file, session) and calls in only for an
    event older than it; `taken` for the events after, once a session is being compared.
    """

    def __init__(self, db: WriteDb, file_id: int) -> None:
        self.db = db
        self.file_id = file_id
        self.known: dict[int, _Known] = {}
        self.skipped = 0

    def is_copy(
        self,
        session_id: int,
        row: EventRow,
        earlier: Iterable[EventRow],
        session_of: Mapping[str, int],
    ) -> bool:
        """Whether `row` copies an event stored or taken before it. `earlier`: this
        insert's rows before `row` (read once, the first time its session is compared);
        `session_of` maps their session's external id to its id."""
        assert row.ts is not None
        if row.kind == "meta" and row.raw_type is not None:
            # bookkeeping (hook progress, queue operations) repeats within a millisecond
            # on its own; a copy of it is harmless, a lost one is not. (A slash command and
            # what the CLI wrote around it are meta too, with no record type: a copy of
            # one would be read as the command typed again.)
            return False
        known = self.known.get(session_id)
        if known is None:
            if self.db.scalar(_STORED_ID, {"session": session_id, "id": row.external_id}):
                # stored under this very id (a rotated or replaced file read again): the
                # insert's own key keeps one, and nothing need be loaded to compare it (once
                # loaded, the stored events answer this themselves)
                return False
            known = self.known[session_id] = _Known(row.ts)
            self._load(session_id, known, row.ts, None)
            for event in earlier:
                if event.ts is not None and session_of[event.session_external_id] == session_id:
                    known.ids.setdefault(_row_key(event), event.external_id)
        elif row.ts < known.since:
            self._load(session_id, known, row.ts, known.since)
            known.since = row.ts
        first_id = known.ids.setdefault(_row_key(row), row.external_id)
        if first_id == row.external_id:
            return False  # new
        self.skipped += 1
        return True

    def taken(self, session_id: int, row: EventRow) -> None:
        """Remember an in-order event of a session being compared."""
        known = self.known.get(session_id)
        if known is not None and row.ts is not None:
            known.ids.setdefault(_row_key(row), row.external_id)

    def _load(self, session_id: int, known: _Known, since: str, until: str | None) -> None:
        params: dict[str, Any] = {
            "session": session_id,
            "file": self.file_id,
            "since": datetime.fromisoformat(since),
            # a bound past any stored time when the whole rest is wanted
            "until": datetime.fromisoformat(until) if until else datetime(9999, 1, 1),
        }
        for ts, role, kind, call_id, message_id, text, raw_type, raw, external_id in self.db.rows(
            _STORED, params
        ):
            stamp = _as_text(ts)
            assert stamp is not None
            key: _Key = (stamp, role, kind, call_id, message_id, text or "", raw_type, raw)
            known.ids.setdefault(key, external_id)
