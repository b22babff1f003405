"""The CPU half of a harvest: redacted row tuples, replay sessions dropped, timestamps as stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import DateTime
from sqlalchemy.dialects import sqlite

from harvesters.records import Batch, EventRecord, FileCursor, SessionRecord, SkippedLine
from sleepd.harvest_prepare import (
    EVENT_ROW_COLUMNS,
    BatchRedactor,
    prepare,
    stored_timestamp,
)
from sleepd.paths import REPLAY_DIR_PREFIX

AWS = "AKIAQ2RXS3V4W5Y6Z7AB"


def sqlalchemy_stores(value: datetime) -> str:
    dialect = sqlite.dialect()
    process = DateTime().dialect_impl(dialect).bind_processor(dialect)
    assert process is not None
    return str(process(value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value))


@pytest.mark.parametrize(
    "value",
    [
        datetime(2025, 11, 17, 10, 0, 0, 123000, tzinfo=UTC),
        datetime(2025, 11, 17, 23, 30, 5, tzinfo=timezone(timedelta(hours=-5))),
        datetime(2025, 11, 17, 10, 0, 0),
    ],
)
def test_timestamps_are_stored_as_sqlalchemy_would_store_them(value: datetime) -> None:
    assert stored_timestamp(value) == sqlalchemy_stores(value)
    assert stored_timestamp(None) is None


def test_each_timestamp_is_stored_as_its_own() -> None:
    a, b = datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
    got = [stored_timestamp(x) for x in (a, a, b, a, None, b)]
    assert got == [
        "2025-01-01 00:00:00.000000",
        "2025-01-01 00:00:00.000000",
        "2025-01-02 03:04:05.000006",
        "2025-01-01 00:00:00.000000",
        None,
        "2025-01-02 03:04:05.000006",
    ]


def batch(sessions: list[SessionRecord], events: list[EventRecord]) -> Batch:
    cursor = FileCursor(path="/t/a.jsonl", device=1, inode=2, size=10, offset=10, head_hash="h")
    return Batch(
        path="/t/a.jsonl", source="claude", cursor=cursor, sessions=sessions, events=events
    )


def event(session: str, external_id: str, text: str) -> EventRecord:
    return EventRecord(
        session_external_id=session,
        external_id=external_id,
        kind="user_prompt",
        role="user",
        timestamp=datetime(2025, 11, 17, 10, 0, tzinfo=UTC),
        text=text,
    )


def test_rows_are_redacted_and_replay_sessions_dropped() -> None:
    sessions = [
        SessionRecord("claude", "real", project_path="/work/app", title=f"key {AWS}"),
        SessionRecord("claude", "dream", project_path=f"/tmp/{REPLAY_DIR_PREFIX}x1"),
    ]
    events = [
        event("real", "e1", f"deploy with {AWS} now"),
        event("dream", "e2", "a rollout sleepd itself ran"),
        event("real", "e3", "plain words"),
    ]
    prepared = prepare(batch(sessions, events), BatchRedactor(b"salt"))
    assert [s.external_id for s in prepared.sessions] == ["real"]
    assert prepared.replay_sessions_skipped == 1
    assert [row[0] for row in prepared.event_rows] == ["real", "real"]
    text_at = 1 + EVENT_ROW_COLUMNS.index("text")
    texts = [row[text_at] for row in prepared.event_rows]
    assert AWS not in texts[0] and "[REDACTED:" in texts[0] and texts[1] == "plain words"
    assert AWS not in (prepared.sessions[0].title or "")
    assert sum(prepared.redactions.values()) == 2  # the prompt and the title
    assert prepared.text_bytes == sum(len(t) for t in texts)
    assert prepared.event_rows[0][1 + EVENT_ROW_COLUMNS.index("ts")] == "2025-11-17 10:00:00.000000"


def test_without_a_redactor_text_is_kept_as_read() -> None:
    prepared = prepare(batch([SessionRecord("claude", "s")], [event("s", "e", AWS)]), None)
    assert prepared.event_rows[0][1 + EVENT_ROW_COLUMNS.index("text")] == AWS
    assert prepared.redactions == {}


def test_a_file_that_vanished_is_a_problem_not_rows() -> None:
    gone = batch([], [])
    gone.skipped = [SkippedLine("/t/a.jsonl", 0, 0, "file vanished before it was read")]
    prepared = prepare(gone, BatchRedactor(b"salt"))
    assert prepared.problem is not None and prepared.problem.startswith("file vanished")
    assert prepared.event_rows == []


@pytest.mark.parametrize(
    "rows",
    [
        [("s1", "e1", "2025-11-17 10:00:00.000000", "user", "user_prompt", None, None, "hé",
          3, False, None, 1, 2, 3, 4, None, False, True, "steering", None, 0, 1)],
        [("s1", datetime(2025, 11, 17, tzinfo=UTC))],
    ],
)  # fmt: skip
def test_a_batch_crosses_to_the_writer_unchanged(rows: list[tuple[object, ...]]) -> None:
    """Workers send batches pickled (rows of ints and strings: pickle writes no memo
    entries for them, where marshal looked every shared 0 up in its reference table)."""
    import pickle

    cursor = FileCursor("p", 1, 2, 3, 3, "h", state={"usage": {"m": [1, 2, 3, 4]}})
    batch = prepare(Batch(path="p", source="claude", cursor=cursor), None)
    batch.event_rows, batch.role, batch.text_bytes = rows, "subagent", 7
    copy = pickle.loads(pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL))
    assert copy == batch
    assert copy.event_rows == rows and all(type(r) is tuple for r in copy.event_rows)


def test_rows_bind_nulls_and_flags_as_codes_that_store_as_before(db_engine: object) -> None:
    """Rows spell NULL as a value of the other type (cheap for sqlite3 to bind); what is
    stored is what binding None and bools stored: NULL, and 0/1 read back as booleans."""
    from sqlalchemy import select, text

    from sleepd.harvest_report import SourceReport
    from sleepd.harvest_writer import GroupWriter
    from sleepd.store.models import Event

    bare = event("s1", "bare", "hello")
    edge = event("s1", "edge", "world")
    edge.tool_name, edge.call_id, edge.message_id, edge.raw_type, edge.raw = "0", "", "0", "", "0"
    edge.exit_code, edge.is_error, edge.is_sidechain, edge.is_meta = 0, True, True, True
    failed = event("s1", "failed", "oops")
    failed.exit_code = 2
    prepared = prepare(
        batch([SessionRecord(source="claude", external_id="s1")], [bare, edge, failed]), None
    )
    nullable = ("tool_name", "call_id", "exit_code", "message_id", "raw_type", "raw")
    bare_row = dict(zip(EVENT_ROW_COLUMNS, prepared.event_rows[0][1:], strict=True))
    assert all(type(bare_row[c]) in (int, str) for c in nullable)  # codes, not None
    writer = GroupWriter(db_engine, "claude", SourceReport("claude"))  # type: ignore[arg-type]
    writer.add(prepared)
    writer.flush()
    with db_engine.connect() as conn:  # type: ignore[attr-defined]
        stored = {e.external_id: e for e in conn.execute(select(Event)).all()}
        types = dict(
            conn.execute(
                text(
                    "SELECT external_id, typeof(tool_name) || typeof(call_id) || "
                    "typeof(exit_code) || typeof(message_id) || typeof(raw_type) || "
                    "typeof(raw) || typeof(is_error) FROM events"
                )
            ).all()
        )
    assert types["bare"] == "null" * 6 + "integer"
    assert types["edge"] == "text" * 2 + "integer" + "text" * 3 + "integer"
    assert [getattr(stored["bare"], c) for c in nullable] == [None] * 6
    assert stored["bare"].is_error is False and stored["bare"].is_meta is False
    assert [getattr(stored["edge"], c) for c in nullable] == ["0", "", 0, "0", "", "0"]
    assert (stored["edge"].is_error, stored["edge"].is_sidechain, stored["edge"].is_meta) == (
        True,
        True,
        True,
    )
    assert stored["failed"].exit_code == 2


def test_portable_inserts_decode_the_null_codes() -> None:
    """Other databases get the plain values back: None, booleans, datetimes."""
    from sleepd.harvest_prepare import EVENT_CODED_NULLS
    from sleepd.store.dialect import decode_row
    from sleepd.store.ingest import EVENT_INSERT_COLUMNS
    from sleepd.store.models import Event

    prepared = prepare(batch([], [event("s1", "e", "t")]), None)
    row = (7, 1, 3, *prepared.event_rows[0][1:])
    decoded = decode_row(Event.__table__, EVENT_INSERT_COLUMNS, row, EVENT_CODED_NULLS)  # type: ignore[arg-type]
    assert decoded["tool_name"] is None and decoded["exit_code"] is None
    assert decoded["raw"] is None and decoded["is_error"] is False
    assert decoded["ts"] == datetime(2025, 11, 17, 10, 0)
    assert decoded["text"] == "t" and decoded["session_id"] == 7


class _GivesUp:
    """A checkpointer whose WAL is past the limit and whose settle times out."""

    def __init__(self) -> None:
        self.running = True
        self.wal_frames = 10**9
        self.settled = 0

    def settle(self) -> bool:
        self.settled += 1
        self.running = False
        return False


def test_a_group_checkpoints_for_itself_once_the_thread_gave_up(
    db_engine: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sleepd.harvest_writer as harvest_writer
    from sleepd.harvest_report import SourceReport

    deferred: list[object] = []
    monkeypatch.setattr(harvest_writer, "defer_autocheckpoint", deferred.append)
    checkpointer = _GivesUp()
    writer = harvest_writer.GroupWriter(
        db_engine,  # type: ignore[arg-type]
        "claude",
        SourceReport("claude"),
        checkpointer,  # type: ignore[arg-type]
    )
    writer.add(prepare(batch([SessionRecord(source="claude", external_id="s1")], []), None))
    writer.flush()
    assert checkpointer.settled == 1 and deferred == []
