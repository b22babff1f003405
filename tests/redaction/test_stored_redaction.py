"""`sleepd db redact`: today's rules over what earlier harvests stored."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from sleepd.redaction import Redactor
from sleepd.redaction.stored import redact_stored
from sleepd.search import search_events

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))
from seed_rows import seed_events

# made-up values in the shapes wild sample 6 had stored as typed
PASSWORD = "Hallo22berg9!"
TOKEN = "zq-k41mq0z7x2pq8v0c3n6b5m1l9k8j7h6g5f4d3s2a1"


@pytest.mark.both_dbs
def test_stored_secrets_are_rewritten_once_and_stay_searchable(db_engine: Any) -> None:
    with db_engine.begin() as conn:
        seed_events(
            conn,
            [
                ("assistant_text", f"Your password `{PASSWORD}` is in users/ann/user.nix"),
                ("meta", f"login with password: {PASSWORD} then run nixos-rebuild"),
                ("thinking", f"keep the existing token value `{TOKEN}` in settings"),
                ("user_prompt", "nothing secret about this deploy checklist"),
                ("user_prompt", f"数据库 password: {PASSWORD} 已更新"),
            ],
        )
        conn.execute(
            text("UPDATE sessions SET title = :t, meta = :m WHERE id = 1"),
            {"t": f"password: {PASSWORD}", "m": json.dumps({"note": f"token `{TOKEN}`"})},
        )
        conn.execute(
            text(
                "INSERT INTO failure_patterns (id, signature_hash, signature, example, count) "
                "VALUES (1, 'h', 'Bash | - | x', :e, 2)"
            ),
            {"e": f"export db_password={PASSWORD}"},
        )
        if conn.dialect.name == "sqlite":
            conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))
    redactor = Redactor(salt=b"t")
    first = redact_stored(db_engine, redactor, batch_rows=2)  # several batches
    assert first.changed == {"events": 4, "sessions": 1, "failure_patterns": 1}
    assert set(first.by_rule) == {"password-plain", "secret-named-before-quotes"}
    with db_engine.connect() as conn:
        stored = " ".join(
            str(v)
            for row in conn.execute(
                text(
                    "SELECT e.text, s.title, s.meta, p.example FROM events e, sessions s, "
                    "failure_patterns p"
                )
            )
            for v in row
        )
    assert PASSWORD not in stored and TOKEN not in stored
    assert "[REDACTED:" in stored
    # the index follows the rewritten texts
    assert [h.kind for h in search_events(db_engine, "nixos-rebuild")] == ["meta"]
    assert search_events(db_engine, "checklist")
    assert [h.kind for h in search_events(db_engine, "数据库")] == ["user_prompt"]
    # a second pass finds nothing left to rewrite
    assert redact_stored(db_engine, redactor).changed == {}


@pytest.mark.both_dbs
def test_a_stored_parse_state_is_rewritten_too(db_engine: Any) -> None:
    # a cursor's parse state holds pending events and queued messages a later harvest
    # stores, and that harvest does not search a state marked redacted again
    state = {
        "pending": [{"text": f"login with password: {PASSWORD}", "kind": "user_prompt"}],
        "queued": [f"keep the existing token value `{TOKEN}` in settings"],
        "sleepd:redacted": True,
    }
    with db_engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO transcript_files (id, source, path, role, device, inode, size, "
                '"offset", line_no, head_hash, mtime_ns, parse_state, status, malformed_lines, '
                "resets, first_seen_at, tail_hash, host_id) VALUES (1, 'claude', '/p/a.jsonl', "
                "'main', 1, 2, 3, 3, 1, 'h', 4, :state, 'ok', 0, 0, :now, 't', 'host')"
            ),
            {"state": json.dumps(state), "now": "2026-12-02 00:00:00"},
        )
    report = redact_stored(db_engine, Redactor(salt=b"t"))
    assert report.changed.get("transcript_files") == 1
    with db_engine.connect() as conn:
        stored = str(conn.execute(text("SELECT parse_state FROM transcript_files")).scalar())
    assert PASSWORD not in stored and TOKEN not in stored
    assert "[REDACTED:" in stored and "sleepd:redacted" in stored


@pytest.mark.both_dbs
def test_what_sleepd_wrote_itself_is_rewritten_too(db_engine: Any) -> None:
    """Rows an older version wrote as they came: a job's reason and detail, a night's stop
    reason, a rollout's output and judge detail, a file's last error."""
    from sleepd.store.engine import write_session
    from sleepd.store.models import JobRun, Night, Rollout, Task

    remote = "https://x-access-token:ghp_Q7f9k2LmZ8xP3vR1T5nB4cY6dF0hJ2sA8eWq@github.com/a.git"
    with write_session(db_engine) as db:
        night = Night(status="failed", stop_reason=f"CheckoutError: git clone {remote}")
        task = Task(project_path="/p", intent="fix it", split="val")
        db.add_all([night, task])
        db.flush()
        job = JobRun(job="night", trigger="manual", outcome="failed")
        job.reason = f"RuntimeError: git fetch {remote}"
        job.detail = {"errors": [f"cannot parse a.jsonl: password: {PASSWORD}"]}
        rollout = Rollout(night_id=night.id, task_id=task.id, document_hash="h", split="val")
        rollout.rollout_index = 0
        rollout.output = f"keep the existing token value `{TOKEN}` in settings"
        rollout.judge_detail = {"checks_skipped": f"near {remote}"}
        db.add_all([job, rollout])
    with db_engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO transcript_files (id, source, path, role, device, inode, size, "
                '"offset", line_no, head_hash, mtime_ns, parse_state, status, malformed_lines, '
                "resets, first_seen_at, tail_hash, host_id, last_error) VALUES (1, 'claude', "
                "'/p/a.jsonl', 'main', 1, 2, 3, 3, 1, 'h', 4, '{}', 'error', 0, 0, :now, 't', "
                "'host', :error)"
            ),
            {"now": "2026-12-02 00:00:00", "error": f"cannot parse /p/a.jsonl: {remote}"},
        )
    report = redact_stored(db_engine, Redactor(salt=b"t"))
    assert report.changed == {"transcript_files": 1, "job_runs": 1, "nights": 1, "rollouts": 1}
    with db_engine.connect() as conn:
        stored = " ".join(
            str(conn.execute(text(f"SELECT {columns} FROM {table}")).all())
            for table, columns in (
                ("transcript_files", "last_error"),
                ("job_runs", "reason, detail"),
                ("nights", "stop_reason"),
                ("rollouts", "output, judge_detail"),
            )
        )
    assert "ghp_Q7f9k2" not in stored and PASSWORD not in stored and TOKEN not in stored
    assert stored.count("[REDACTED:") >= 6
    assert redact_stored(db_engine, Redactor(salt=b"t")).changed == {}
