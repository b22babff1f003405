"""Secrets never reach the database, and replay transcripts are never harvested."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e_support import claude_prompt, claude_tool_result, claude_tool_use, query, write_lines
from typer.testing import CliRunner

from sleepd.cli.app import app
from sleepd.harvest import harvest

SID = "5e55e55e-0000-4000-8000-000000000001"
AWS = "AKIAQ2RXS3V4W5Y6Z7AB"
GHP_INPUT = "ghp_" + "R4nd0mL00k1ngT0k3nF0rT3st1ngX9yZ8w7v"
GHP_RAW = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
ANTHROPIC = "sk-ant-api03-" + "Qw3rTy-uI0p_AsDfGh1jKl" * 4 + "ZxCvB" + "AA"
URL_PASSWORD = "Tr0ub4dor3xyzzy"
PRIVATE_KEY_BODY = "MIIEowIBAAKCAQEA7bq9" + "x1Yz" * 11
PRIVATE_KEY = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    + "\n".join([PRIVATE_KEY_BODY, "Kf93" * 16, "pQ7w" * 16])
    + "\n-----END RSA PRIVATE KEY-----"
)
SECRETS = (AWS, GHP_INPUT, GHP_RAW, ANTHROPIC, URL_PASSWORD, PRIVATE_KEY_BODY)


def planted_session(home: Path) -> Path:
    """A Claude session with secrets in a prompt, a JSON tool input, a tool output, a raw line."""
    prompt = claude_prompt(
        SID,
        "5e55e55e-0000-4000-8000-0000000000a1",
        f"deploy with AKIA key {AWS} and {ANTHROPIC} please",
        cwd="/work/secretive",
    )
    call = claude_tool_use(
        prompt,
        "5e55e55e-0000-4000-8000-0000000000a2",
        "toolu_planted_1",
        {
            "command": f"git clone https://deploy-bot:{URL_PASSWORD}@git.example.com/r.git",
            "env": {"GITHUB_TOKEN": GHP_INPUT},
        },
    )
    result = claude_tool_result(
        call, "5e55e55e-0000-4000-8000-0000000000a3", f"cat id_rsa\n{PRIVATE_KEY}\n"
    )
    unknown = {
        "type": "future-record-kind",
        "uuid": "5e55e55e-0000-4000-8000-0000000000a4",
        "sessionId": SID,
        "timestamp": "2026-06-05T05:00:03.000Z",
        "note": f"token {GHP_RAW}",
    }
    path = home / "claude" / "projects" / "-work-secretive" / f"{SID}.jsonl"
    write_lines(path, [prompt, call, result, unknown])
    return path


def test_planted_secrets_never_reach_text_raw_or_the_search_index(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    path = planted_session(isolated_home)
    assert all(s.encode() in path.read_bytes() for s in SECRETS)
    report = harvest(store, cfg)
    assert report.sources["claude"].events_new == 4

    stored = "\n".join(
        f"{text}\n{raw or ''}" for text, raw in query(db_file, "SELECT text, raw FROM events")
    )
    assert "[REDACTED:" in stored
    raw_rows = query(db_file, "SELECT raw FROM events WHERE raw IS NOT NULL")
    assert raw_rows and "[REDACTED:github-pat:" in raw_rows[0][0]
    for secret in SECRETS:
        assert secret not in stored
    # The whole database file (FTS index pages included) holds none of them either.
    for candidate in db_file.parent.glob("sleepd.db*"):
        blob = candidate.read_bytes()
        assert not any(s.encode() in blob for s in SECRETS), candidate.name

    counts = dict(query(db_file, "SELECT rule, count FROM redaction_counts WHERE source='claude'"))
    assert counts == {
        "aws-access-token": 1,
        "anthropic-api-key": 1,
        "github-pat": 2,
        "url-basic-auth": 1,
        "private-key": 1,
    }
    assert report.sources["claude"].redactions == 6

    runner = CliRunner()
    for secret in (AWS, GHP_INPUT, "Tr0ub4dor3xyzzy", ANTHROPIC):
        found = runner.invoke(app, ["search", secret, "--json"])
        assert found.exit_code == 0, found.stderr
        assert json.loads(found.stdout) == [], secret
    placeholder = runner.invoke(app, ["search", "REDACTED", "--json"])
    hits = json.loads(placeholder.stdout)
    assert {h["session_external_id"] for h in hits} == {SID}
    assert len(hits) >= 3


def test_replay_sessions_are_never_stored(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    replay_sid = "0e0e0e0e-0000-4000-8000-000000000001"
    replay_cwd = "/tmp/sleepd-replay-abc123/workspace"
    write_lines(
        isolated_home / "claude" / "projects" / "-tmp-sleepd-replay-abc123" / f"{replay_sid}.jsonl",
        [
            claude_prompt(replay_sid, f"0e0e0e0e-0000-4000-8000-00000000000{i}", "x", replay_cwd)
            for i in range(3)
        ],
    )
    real_sid = "0f0f0f0f-0000-4000-8000-000000000001"
    write_lines(
        isolated_home / "claude" / "projects" / "-work-real" / f"{real_sid}.jsonl",
        [claude_prompt(real_sid, "0f0f0f0f-0000-4000-8000-000000000002", "real work")],
    )
    report = harvest(store, cfg).sources["claude"]
    assert report.replay_sessions_skipped == 1
    assert report.sessions_new == 1 and report.events_new == 1
    assert query(db_file, "SELECT external_id FROM sessions") == [(real_sid,)]
    assert query(db_file, "SELECT count(*) FROM events WHERE text = 'x'") == [(0,)]


TYPED = f"also push the image with token {GHP_INPUT} please"


def queued_session(shape: str, sid: str) -> list[dict[str, Any]]:
    """A session with a message typed while the agent ran, in one of two shapes."""

    def prompt(n: int, text: str) -> dict[str, Any]:
        return claude_prompt(sid, f"{sid[:-12]}{n:04d}{sid[-8:]}", text, cwd="/work/secretive")

    def queue(operation: str, content: str | None = None) -> dict[str, Any]:
        record: dict[str, Any] = {
            "type": "queue-operation",
            "operation": operation,
            "timestamp": "2026-06-05T05:00:01.000Z",
            "sessionId": sid,
        }
        if content is not None:
            record["content"] = content
        return record

    attachment = {  # Claude Code 2.1's record telling a queued message's text
        "type": "attachment",
        "uuid": f"{sid[:-12]}0a00{sid[-8:]}",
        "parentUuid": None,
        "sessionId": sid,
        "timestamp": "2026-06-05T05:00:02.000Z",
        "cwd": "/work/secretive",
        "attachment": {
            "type": "queued_command",
            "prompt": TYPED,
            "source_uuid": f"{sid[:-12]}0b00{sid[-8:]}",
            "commandMode": "prompt",
            "origin": {"kind": "human"},
        },
    }
    task = '{"task_id":"b35ae24","description":"Mount the share","task_type":"local_bash"}'
    if shape == "told twice by the source":  # in the enqueue and in its attachment
        return [
            prompt(1, "build the release"),
            queue("enqueue", TYPED),
            attachment,
            queue("remove"),
        ]
    # a notice's dequeue took the message's place, and it came back as its own record
    return [
        prompt(1, "build the release"),
        queue("enqueue", task),
        queue("enqueue", TYPED),
        queue("dequeue"),
        prompt(2, TYPED),
        queue("enqueue", "then tag it"),
        queue("remove"),
    ]


@pytest.mark.parametrize("shape", ["told twice by the source", "came back as its own record"])
def test_a_queued_message_holding_a_secret_is_told_once_wherever_a_pass_ends(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, shape: str
) -> None:
    """The queue a pass leaves is stored through the redaction chokepoint, so the next pass
    reads the message back with its secret taken out: it must still know it again."""
    told: dict[int, list[str]] = {}
    for cut in range(len(queued_session(shape, SID)) + 1):
        sid = f"5e55e55e-0000-4000-8000-{cut + 100:012d}"
        records = queued_session(shape, sid)
        path = isolated_home / "claude" / "projects" / "-work-secretive" / f"{sid}.jsonl"
        write_lines(path, records[:cut])
        harvest(store, cfg)
        with path.open("ab") as handle:
            handle.write(b"".join(json.dumps(r).encode() + b"\n" for r in records[cut:]))
        harvest(store, cfg)
        told[cut] = [
            str(text)
            for (text,) in query(
                db_file,
                "SELECT e.text FROM events e JOIN sessions s ON s.id = e.session_id "
                "WHERE s.external_id = ? AND e.kind = 'user_prompt' ORDER BY e.seq",
                (sid,),
            )
        ]
    assert all(GHP_INPUT not in text for texts in told.values() for text in texts)
    assert len({tuple(texts) for texts in told.values()}) == 1, told  # as one pass reads it
    assert len(told[0]) == (3 if shape == "came back as its own record" else 2)
