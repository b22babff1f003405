"""`sleepd status`: empty homes, the JSON schema, and `--check` for monitoring."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from sleepd.store.engine import write_session
from sleepd.store.models import DaemonHeartbeat, JobRun, Night, TranscriptFile

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "status.schema.json").read_text()
)


def run_sleepd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from sleepd.cli.app import main; main()", *args],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )


def run_status(*args: str) -> subprocess.CompletedProcess[str]:
    return run_sleepd("status", *args)


def test_status_json_on_an_empty_home_has_zero_counts(isolated_home: Path) -> None:
    proc = run_status("--json")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["database"]["initialised"] is False
    assert report["harvest"]["sources"]["claude"]["sessions"] == 0
    assert report["gate"]["proposals"]["pending"] == 0
    assert not (isolated_home / "sleepd-home" / "sleepd.db").exists()  # status never creates it


def healthy(engine: Any) -> None:
    now = datetime.now(UTC)
    with write_session(engine) as db:
        db.add(
            TranscriptFile(
                source="claude", path="/x/a.jsonl", parse_state={}, last_harvested_at=now
            )
        )
        db.add(
            TranscriptFile(source="codex", path="/x/b.jsonl", parse_state={}, last_harvested_at=now)
        )
        db.add(JobRun(job="harvest", trigger="sweep", outcome="ok", ended_at=now, detail={}))
        db.add(
            DaemonHeartbeat(
                hostname=socket.gethostname(),
                pid=os.getpid(),
                version="t",
                heartbeat_at=now,
                state="running",
                watch_mode="inotify",
                detail={},
            )
        )
        db.add(Night(status="completed", ended_at=now, summary={}))


@pytest.mark.both_dbs
def test_status_json_validates_with_data_and_check_passes_when_healthy(db_engine: Any) -> None:
    healthy(db_engine)
    proc = run_status("--json", "--check")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["check"] == {"ok": True, "failures": []}
    assert report["daemon"]["running"] is True
    assert report["daemon"]["watch_mode"] == "inotify"
    assert report["harvest"]["sources"]["claude"]["files"] == 1


def _age_harvest(engine: Any) -> None:
    old = datetime.now(UTC) - timedelta(days=3)
    with write_session(engine) as db:
        for row in db.query(TranscriptFile):
            row.last_harvested_at = old


def _kill_daemon(engine: Any) -> None:
    with write_session(engine) as db:
        for row in db.query(DaemonHeartbeat):
            row.heartbeat_at = datetime.now(UTC) - timedelta(hours=1)


def _fail_night(engine: Any) -> None:
    with write_session(engine) as db:
        db.add(
            Night(
                status="failed",
                stop_reason="boom: backend unreachable",
                started_at=datetime.now(UTC) + timedelta(seconds=5),
                ended_at=datetime.now(UTC),
                summary={},
            )
        )


@pytest.mark.parametrize(
    ("breakage", "expected"),
    [
        (_age_harvest, "harvest is stale"),
        (_kill_daemon, "daemon is not running"),
        (_fail_night, "last night failed"),
    ],
)
def test_check_fails_for_each_monitoring_case(db_engine: Any, breakage: Any, expected: str) -> None:
    healthy(db_engine)
    breakage(db_engine)
    proc = run_status("--json", "--check")
    assert proc.returncode == 8
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["check"]["ok"] is False
    assert any(expected in f for f in report["check"]["failures"])
    assert proc.stderr.strip().startswith("sleepd: check failed:")
    assert proc.stderr.strip().count("\n") == 0


def test_check_fails_on_an_empty_home(isolated_home: Path) -> None:
    proc = run_status("--check")
    assert proc.returncode == 8
    assert "daemon is not running" in proc.stderr


def test_human_view_marks_simulated_nights(db_engine: Any) -> None:
    healthy(db_engine)
    with write_session(db_engine) as db:
        db.add(
            Night(
                status="completed",
                simulated=True,
                ended_at=datetime.now(UTC),
                started_at=datetime.now(UTC) + timedelta(seconds=10),
                summary={},
            )
        )
    proc = run_status()
    assert proc.returncode == 0, proc.stderr
    assert "SIMULATED" in proc.stdout


@pytest.mark.both_dbs
def test_status_counts_the_sessions_a_program_started(db_engine: Any) -> None:
    from sleepd.store.models import Session

    with write_session(db_engine) as db:
        for n, origin in enumerate(["cli", "sdk-cli", "exec", "claude-desktop", "mcp", None]):
            meta = {"origin": origin} if origin else {}
            db.add(Session(source="claude", external_id=f"s{n}", kind="main", meta=meta))
    proc = run_status("--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["mining"]["sessions_started_by_programs"] == 3
    human = run_status()
    assert "started by a program" in human.stdout and "not for tasks" in human.stdout


@pytest.mark.both_dbs
def test_status_tells_tool_errors_from_the_agents_service_failing(db_engine: Any) -> None:
    """A tool's failure is the agent's work; an API error, a retry notice or a usage
    limit is its service failing (a real Claude Code session held 110 `api_error`
    records and 31 tool errors), and a turn the person aborted is neither."""
    from sleepd.store.models import Event, Session

    errors = [
        ("tool", None, "<tool_use_error>File does not exist.</tool_use_error>"),
        ("tool", None, "Exit code 1\nnpm ERR! missing script: lint"),
        ("system", "api_error", '{"cause":{}}'),
        ("assistant", None, "API Error: Connection error."),
        ("system", "stream_error", "stream disconnected before completion"),
        ("system", "turn_aborted", "<turn_aborted>"),
    ]
    with write_session(db_engine) as db:
        session = Session(source="claude", external_id="s1", kind="main")
        db.add(session)
        db.flush()
        for seq, (role, raw_type, text) in enumerate(errors, start=1):
            db.add(
                Event(
                    session_id=session.id,
                    seq=seq,
                    external_id=f"e{seq}",
                    role=role,
                    kind="error",
                    text=text,
                    is_error=True,
                    raw_type=raw_type,
                )
            )
    proc = run_status("--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    claude = report["harvest"]["sources"]["claude"]
    assert (claude["tool_errors"], claude["service_errors"]) == (2, 3)
    human = " ".join(run_status().stdout.replace("│", " ").split())
    assert "tool errors 2" in human and "agent service errors (API, limits) 3" in human


def test_status_counts_the_sessions_the_next_mining_pass_reads_again(db_engine: Any) -> None:
    from sleepd.config import Config
    from sleepd.mining.reading import reading_rules
    from sleepd.store.models import Session

    today = reading_rules(Config().mining)
    stamps = [today, "", "0.0.1:older", f"{today}+unasked", "99.0:newer", ""]
    with write_session(db_engine) as db:
        for n, stamp in enumerate(stamps):
            db.add(
                Session(
                    source="claude",
                    external_id=f"s{n}",
                    kind="main",
                    mined_with=stamp,
                    mined_through_seq=0 if n == 5 else 3,  # the last never mined
                )
            )
    proc = run_status("--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["mining"]["sessions_to_read_again"] == 3
    human = " ".join(run_status().stdout.replace("│", " ").split())
    assert "to be read again 3 sessions read by other rules" in human


def test_a_last_line_cut_off_for_a_day_is_named_and_a_fresh_one_only_counted(
    isolated_home: Path,
) -> None:
    # wild sample 5 (not in the repository) had two files whose last record was cut off
    # for good (a NUL-filled block, a copy cut mid-record): held silently forever before
    from tests.watch.sessions import claude_session

    start = datetime.now(UTC) - timedelta(days=3)
    project = isolated_home / "work" / "shop"
    cut = claude_session(project, start, "fix the flaky login test", success=True)
    fresh = claude_session(project, start, "deploy the billing service", success=True)
    for path in (cut, fresh):
        with path.open("ab") as handle:
            handle.write(b'{"type":"user","message":{"role":"user","content":"and then')
    old = (datetime.now(UTC) - timedelta(days=2)).timestamp()
    os.utime(cut, (old, old))
    harvested = run_sleepd("harvest", "--json")
    assert harvested.returncode == 0, harvested.stderr
    proc = run_status("--json")
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    claude = report["harvest"]["sources"]["claude"]
    assert claude["unfinished_last_lines"] == 2
    assert claude["stale_unfinished"] == [str(cut)]
    assert any(str(cut) in w and "cut off" in w for w in report["warnings"])
    human = run_status()
    assert "files ending mid-line (held)" in human.stdout
    # a harvest killed inside a file leaves a cursor without an mtime short of the file's
    # end: the next harvest reads on from it, so nothing there is held or cut off
    import sqlite3

    db = sqlite3.connect(isolated_home / "sleepd-home" / "sleepd.db")
    with db:
        db.execute("UPDATE transcript_files SET mtime_ns = 0 WHERE path = ?", (str(cut),))
    db.close()
    after = json.loads(run_status("--json").stdout)
    assert after["harvest"]["sources"]["claude"]["unfinished_last_lines"] == 1
    assert after["harvest"]["sources"]["claude"]["stale_unfinished"] == []
    assert not any("cut off" in w for w in after["warnings"])


def test_human_view_says_how_episodes_ended_and_which_patterns_recur(
    db_engine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outcomes and the share left `unknown` are what say whether mining could read
    a person's sessions; `--json` had them and the human view did not."""
    monkeypatch.setenv("COLUMNS", "200")  # one line each, as a wide terminal shows them
    from sleepd.store.models import Episode, FailurePattern, Session

    with write_session(db_engine) as db:
        session = Session(source="claude", external_id="s1", kind="main", meta={})
        helper = Session(source="claude", external_id="s1:agent-a1", kind="subagent", meta={})
        db.add_all([session, helper])
        db.flush()
        # the work before the session's first request (a greeting) and a subagent's task
        # are no one's requests: they count nowhere
        db.add(Episode(session_id=session.id, start_seq=0, end_seq=0, outcome="unknown"))
        db.add(
            Episode(session_id=helper.id, start_seq=0, end_seq=0, outcome="unknown",
                    intent_text="Explore the repository")
        )  # fmt: skip
        # a planning whose plan was taken as the next request is one request with it
        db.add(
            Episode(session_id=session.id, start_seq=100, end_seq=100, outcome="success",
                    intent_text="plan the dark theme", plan_handed_on=True)
        )  # fmt: skip
        outcomes = ["success"] * 5 + ["mixed"] * 2 + ["failure", "abandoned", "unknown"]
        for seq, outcome in enumerate(outcomes, start=1):
            db.add(
                Episode(session_id=session.id, start_seq=seq, end_seq=seq, outcome=outcome,
                        intent_text=f"request {seq}")
            )  # fmt: skip
        for n, count in enumerate([3, 2, 1]):
            db.add(FailurePattern(signature_hash=f"h{n}", signature=f"sig {n}", count=count))
    human = run_status()
    assert human.returncode == 0, human.stderr
    text = " ".join(human.stdout.split())
    assert (
        "5 success, 2 success after a correction, 1 failure, 1 abandoned, 1 unknown (10%)" in text
    )
    assert "episodes 10 " in text
    assert "3, of which 2 seen twice or more" in text


def test_the_files_holding_malformed_lines_are_named_with_their_counts(
    isolated_home: Path,
) -> None:
    """A history's store counted 32,256 malformed lines and no command said where they
    were: the count alone cannot tell a few torn writes from a file sleepd cannot read."""
    from tests.watch.sessions import claude_session

    start = datetime.now(UTC) - timedelta(days=1)
    project = isolated_home / "work" / "shop"
    torn = claude_session(project, start, "fix the flaky login test", success=True)
    junk = claude_session(project, start, "deploy the billing service", success=True)
    claude_session(project, start, "rename the logger", success=True)
    with torn.open("ab") as handle:
        handle.write(b"{not a record\n")
    with junk.open("ab") as handle:
        handle.write(b'{\n  "info": {\n    "id": "ses_1"\n  }\n}\n')
    assert run_sleepd("harvest", "--json").returncode == 0
    report = json.loads(run_status("--json").stdout)
    jsonschema.validate(report, SCHEMA)
    claude = report["harvest"]["sources"]["claude"]
    assert claude["malformed_lines"] == 6 and claude["files_with_malformed_lines"] == 2
    assert claude["malformed_files"] == [
        {"path": str(junk), "lines": 5},
        {"path": str(torn), "lines": 1},
    ]
    # (a path wider than the terminal is folded onto the next line, whole)
    human = "".join(run_status().stdout.split())
    said = f"claude: the 6 malformed lines skipped are in 2 files; the most are in {junk} (5), "
    assert "".join(f"{said}{torn} (1)".split()) in human
    assert report["harvest"]["sources"]["codex"]["malformed_files"] == []
