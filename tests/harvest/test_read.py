"""The read stage: redacted, clipped store rows; replay sessions dropped; timestamps as stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import DateTime
from sqlalchemy.dialects import sqlite

from harvesters.records import Batch, EventRecord, FileCursor, SessionRecord, SkippedLine
from sleepd.harvest.read import BatchRedactor, prepare
from sleepd.paths import REPLAY_DIR_PREFIX
from sleepd.store.records import stored_timestamp

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
    prepared = prepare(batch(sessions, events), BatchRedactor(b"salt"), "main")
    assert [s.external_id for s in prepared.sessions] == ["real"]
    assert prepared.replay_sessions_skipped == 1
    assert [row.session_external_id for row in prepared.events] == ["real", "real"]
    texts = [row.text for row in prepared.events]
    assert AWS not in texts[0] and "[REDACTED:" in texts[0] and texts[1] == "plain words"
    assert AWS not in (prepared.sessions[0].title or "")
    assert sum(prepared.redactions.values()) == 2  # the prompt and the title
    assert prepared.text_bytes == sum(len(t) for t in texts)
    assert prepared.events[0].ts == "2025-11-17 10:00:00.000000"


def test_without_a_redactor_text_is_kept_as_read() -> None:
    prepared = prepare(batch([SessionRecord("claude", "s")], [event("s", "e", AWS)]), None, "main")
    assert prepared.events[0].text == AWS
    assert prepared.redactions == {}


def test_a_file_that_vanished_is_a_problem_not_rows() -> None:
    gone = batch([], [])
    gone.skipped = [SkippedLine("/t/a.jsonl", 0, 0, "file vanished before it was read")]
    prepared = prepare(gone, BatchRedactor(b"salt"), "main")
    assert prepared.problem is not None and prepared.problem.startswith("file vanished")
    assert prepared.missing and prepared.events == []


def test_values_are_stored_as_read_none_as_null_and_flags_as_booleans(db_engine: object) -> None:
    """Edge values that look like nothing ("0", "", 0) stay values; missing ones are NULL."""
    from sqlalchemy import select, text

    from sleepd.harvest.report import SourceReport
    from sleepd.harvest.write import GroupWriter
    from sleepd.store.models import Event

    bare = event("s1", "bare", "hello")
    edge = event("s1", "edge", "world")
    edge.tool_name, edge.call_id, edge.message_id, edge.raw_type, edge.raw = "0", "", "0", "", "0"
    edge.exit_code, edge.is_error, edge.is_sidechain, edge.is_meta = 0, True, True, True
    failed = event("s1", "failed", "oops")
    failed.exit_code = 2
    prepared = prepare(
        batch([SessionRecord(source="claude", external_id="s1")], [bare, edge, failed]),
        None,
        "main",
    )
    writer = GroupWriter(db_engine, "claude", SourceReport("claude"))  # type: ignore[arg-type]
    writer.add(prepared)
    writer.flush()
    nullable = ("tool_name", "call_id", "exit_code", "message_id", "raw_type", "raw")
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


def test_portable_inserts_get_python_values() -> None:
    """Other databases get booleans and datetimes as Python's, None as None."""
    from sleepd.store.dialect import decode_row
    from sleepd.store.ingest import EVENT_INSERT_COLUMNS
    from sleepd.store.models import Event

    prepared = prepare(batch([], [event("s1", "e", "t")]), None, "main")
    row = (7, 1, 3, *prepared.events[0][1:])
    decoded = decode_row(Event.__table__, EVENT_INSERT_COLUMNS, row)  # type: ignore[arg-type]
    assert decoded["tool_name"] is None and decoded["exit_code"] is None
    assert decoded["raw"] is None and decoded["is_error"] is False
    assert decoded["ts"] == datetime(2025, 11, 17, 10, 0)
    assert decoded["text"] == "t" and decoded["session_id"] == 7


def test_a_clip_never_leaves_part_of_a_secret() -> None:
    """Redaction runs on the whole text; the clip comes after, whatever the limit."""
    key_body = "\n".join("Kf93pQ7wZ" * 7 for _ in range(6))
    key = f"-----BEGIN RSA PRIVATE KEY-----\n{key_body}\n-----END RSA PRIVATE KEY-----"
    text = "x" * 900 + key
    for limit in (950, 1024, 1100, 1400):
        long = event("s", "e1", text)
        short = event("s", "e2", text)
        short.clip_bytes = 920
        prepared = prepare(batch([], [long, short]), BatchRedactor(b"salt"), "main", limit)
        for row in prepared.events:
            assert "Kf93pQ7wZ" not in row.text
            assert row.text_size >= 900


def test_escaped_secrets_are_found_and_stored_decoded() -> None:
    escaped = '{"cmd": "export T=\\u0067hp_' + "R4nd0mL00k1ngT0k3nF0rT3st1ngX9yZ8w7v" + '"}'
    plain = '{"path": "C:\\\\Users\\\\me"}'
    prepared = prepare(
        batch([], [event("s", "e1", escaped), event("s", "e2", plain)]),
        BatchRedactor(b"salt"),
        "main",
    )
    first, second = (row.text for row in prepared.events)
    assert "R4nd0mL00k1ngT0k3nF0rT3st1ngX9yZ8w7v" not in first and "[REDACTED:" in first
    assert second == plain  # nothing found: kept exactly as read


#: Secrets a rule finds only with the boundary after them: a field's end is one, but a
#: record's fields are searched joined, where the next field follows.
KEY_VALUE_SECRETS = ("api_key: a8f3K29dLq0Zx7Wm4Np2", "token=AbC123xyz987QWErty55")
_EVENT_FIELDS = ("tool_name", "call_id", "message_id", "raw_type", "external_id")
_SESSION_FIELDS = ("external_id", "project_path", "git_branch", "model", "agent_version", "title")


@pytest.mark.parametrize("secret", KEY_VALUE_SECRETS)
def test_each_short_field_is_redacted_as_it_would_be_alone(secret: str) -> None:
    redactor = BatchRedactor(b"salt")
    [(alone, rules)] = redactor.scan([secret])
    [(alone_as_name, _)] = redactor.scan([secret], names=True)
    assert rules and secret not in alone and secret not in alone_as_name
    for name in _EVENT_FIELDS:
        ev = EventRecord("s", "e", "tool_call", "assistant", text="t", tool_name="Bash")
        ev.call_id, ev.message_id, ev.raw_type = "toolu_01", "msg_01", "block:x"
        setattr(ev, name, secret)
        assert redactor.redact([ev], []) == {rules[0]: 1}
        assert getattr(ev, name) == alone, name
    for name in _SESSION_FIELDS:
        session = SessionRecord("claude", "s", project_path="/w", git_branch="main", title="t")
        setattr(session, name, secret)
        assert sum(redactor.redact([], [session]).values()) == 1
        assert getattr(session, name) == alone_as_name, name
    meta = {"branch": secret, "after": "x", "deeper": [{"title": secret}, "y"]}
    state = {"sessions": {"s": {"branch": secret, "project": "/w"}}, "queued": [secret, "z"]}
    assert sum(redactor.redact([], [SessionRecord("claude", "s", meta=meta)], state).values()) == 4
    assert meta["branch"] == alone_as_name and meta["after"] == "x"
    assert meta["deeper"] == [{"title": alone_as_name}, "y"]
    assert state["sessions"]["s"]["branch"] == alone_as_name
    assert state["queued"] == [alone_as_name, "z"]
