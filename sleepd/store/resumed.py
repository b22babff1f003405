"""History a resumed session's new file copies from the session it resumed.

Claude Code 2.0 and 2.1, resuming a conversation (`--resume`, `--continue`), could start
a new session file and write the conversation so far into it first, each record with
its own uuid and time but under the new session's id, and then the new work
(anthropics/claude-code#8524 and #12235 report the new id; a 2.1.12 session of
entireio/cli's public checkpoint history is such a copy). The store's key, (session,
external id), cannot see it: stored as the new session's own, every request of the
conversation was mined a second time and looked recurring, and its failures and its
tokens were counted twice.

A copy is what a source cannot write by chance: records whose ids, given by the source
(not made from their place in a file), are already stored under another session of the
same source, at the head of a session. The session a copy comes from is found by the
first record a person's side wrote (role `user`: prompts, command wrappers, interrupts;
a partial index keeps those ids, a small share of the events); from there records are
taken as copies while each one is stored in that session (under its id, or under the id
of the record it was made from: a message typed ahead is told from its queue in one file
and from its attachment in a copy that leaves the queue out). The first that is not ends
the copy, unless it is a person's record stored in yet another session (a copy of a
resumed session holds records of two). What comes after is the session's own.

Copies are kept as context, `history:<kind>` meta with no error and no tokens, as the
harvesters keep the history they know to be copied. Which of the two files is stored
first decides which session keeps the work; either way it is counted once. A session
with a record of its own stored is not looked at again, so a nightly append costs one
look per session. A copy harvested before this rule stays as it was stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sleepd.store.records import EventRow
from sleepd.store.writedb import WriteDb

#: `copied_from` value of a session whose records are its own from here on.
OWN = 0
#: How an id made from a record's place in its file opens (`harvesters.base.line_id`):
#: two files can share one without sharing a record.
_PLACE_ID = "@"
HISTORY_PREFIX = "history:"

_HOLDER = (
    "SELECT e.session_id FROM events e JOIN sessions s ON s.id = e.session_id "
    "WHERE e.role = 'user' AND e.external_id = :id AND e.session_id <> :session "
    "AND s.source = (SELECT source FROM sessions WHERE id = :session) "
    "ORDER BY e.id LIMIT 1"
)
_IN_SESSION = "SELECT 1 FROM events WHERE session_id = :session AND external_id = :id"
_OWN_STORED = (
    "SELECT 1 FROM events WHERE session_id = :session "
    "AND (raw_type IS NULL OR raw_type NOT LIKE 'history:%') LIMIT 1"
)


def _source_given(external_id: str) -> bool:
    return not external_id.startswith(_PLACE_ID)


def is_history(raw_type: str | None) -> bool:
    """Whether an event is context copied from another session (`as_history`)."""
    return (raw_type or "").startswith(HISTORY_PREFIX)


def as_history(row: EventRow) -> EventRow:
    """The row as context: a copy's failures and tokens belong to the session it came from."""
    return row._replace(
        kind="meta",
        is_meta=1,
        is_error=0,
        raw_type=f"{HISTORY_PREFIX}{row.raw_type or row.kind}",
        input_tokens=0,
        output_tokens=0,
        cache_read_tokens=0,
        cache_creation_tokens=0,
    )


class ResumedCopies:
    """Finds, in one insert, the rows that copy another session's stored records.

    `copied_from` is the harvest's memory across inserts: per session id, the session
    its head is copied from (negated until the first copy is met), or `OWN` once its own
    records have begun.
    """

    def __init__(self, db: WriteDb, copied_from: dict[int, int]) -> None:
        self.db = db
        self.copied_from = copied_from
        self.copies = 0

    def start(
        self, rows: Iterable[EventRow], session_of: Mapping[str, int], seq_of: Mapping[int, int]
    ) -> None:
        """Decide, for each session of this insert not decided yet, where its head is
        copied from, by its first record of a person's side here. A session with none
        here stays undecided (its rows are its own) until an insert that has one."""
        first: dict[int, str] = {}
        for row in rows:
            session_id = session_of[row.session_external_id]
            if session_id in self.copied_from or session_id in first:
                continue
            if row.role == "user" and _source_given(row.external_id):
                first[session_id] = row.external_id
        for session_id, external_id in first.items():
            if seq_of.get(session_id, 0) > 0 and self.db.scalar(
                _OWN_STORED, {"session": session_id}
            ):
                self.copied_from[session_id] = OWN
            else:
                self.copied_from[session_id] = -self._holder(session_id, external_id)

    def copied(self, session_id: int, row: EventRow) -> bool:
        """Whether `row` is a copy of a record stored in the session this one's head is
        copied from (counted). After the first copy, the first row that is none ends the
        copy; before it, the new file's own bookkeeping (a start hook's record) does not,
        and a person's record that is no copy means there is none."""
        holder = self.copied_from.get(session_id, OWN)
        if holder == OWN:
            return False
        if not _source_given(row.external_id) or is_history(row.raw_type):
            # no identity across files, or already known as copied: neither copy nor end
            return False
        begun, holder = holder > 0, abs(holder)
        if not self._stored_in(holder, row.external_id):
            holder = self._holder(session_id, row.external_id) if row.role == "user" else OWN
            if holder == OWN:
                if begun or row.role == "user":
                    self.copied_from[session_id] = OWN
                return False
        self.copied_from[session_id] = holder
        self.copies += 1
        return True

    def _stored_in(self, session_id: int, external_id: str) -> bool:
        """Whether the session holds the event, or another the harvest made of the same
        record (`<uuid>` beside `<uuid>:steering`): a message typed ahead is told from its
        queue's records in one file and from its attachment in a copy without them."""
        if self.db.scalar(_IN_SESSION, {"session": session_id, "id": external_id}):
            return True
        record = external_id.split(":", 1)[0]
        return record != external_id and bool(
            self.db.scalar(_IN_SESSION, {"session": session_id, "id": record})
        )

    def _holder(self, session_id: int, external_id: str) -> int:
        found = self.db.scalar(_HOLDER, {"id": external_id, "session": session_id})
        return int(found) if found else OWN
