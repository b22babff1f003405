"""A password typed in an agent's shell command never reaches the database.

The commands sit where real sessions keep them: a Claude Code Bash call's JSON input,
its output echoing the command back, and a Codex function call whose arguments are JSON
written inside the JSON line (escaped twice on disk). Values are made up.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from e2e_support import (
    claude_prompt,
    claude_tool_result,
    claude_tool_use,
    codex_prompt,
    query,
    write_lines,
)

from sleepd.harvest import harvest

CLAUDE_SID = "c0000000-0000-4000-8000-000000000001"
MYSQL_PW = "Qv7!mysqlPw"
SSHPASS_PW = "LongRagHaltsLied"
SUDO_PW = "Shr1mpSudo"
CURL_PW = "Cu7lAdm1nPw"
SECRETS = (MYSQL_PW, SSHPASS_PW, SUDO_PW, CURL_PW)


def claude_session(home: Path) -> Path:
    prompt = claude_prompt(CLAUDE_SID, "c0000000-0000-4000-8000-0000000000a1", "load the dump")
    command = (
        f'docker exec -i db mysql -uroot -p"{MYSQL_PW}" app < dump.sql && '
        f"echo '{SUDO_PW}' | sudo -S systemctl restart app"
    )
    call = claude_tool_use(
        prompt, "c0000000-0000-4000-8000-0000000000a2", "toolu_cmd_1", {"command": command}
    )
    result = claude_tool_result(
        call,
        "c0000000-0000-4000-8000-0000000000a3",
        f"+ {command}\nERROR 1045 (28000): Access denied for user 'root'",
        is_error=True,
    )
    path = home / "claude" / "projects" / "-work-demo" / f"{CLAUDE_SID}.jsonl"
    return write_lines(path, [prompt, call, result])


def codex_session(home: Path) -> Path:
    meta = {
        "timestamp": "2026-06-05T05:00:00.000Z",
        "type": "session_meta",
        "payload": {"id": "019e5ec2-0000-7000-8000-0000000000c1", "cwd": "/work/demo"},
    }
    arguments = json.dumps(
        {
            "command": [
                "bash",
                "-lc",
                f"sshpass -p '{SSHPASS_PW}' ssh deploy@10.0.0.5 'curl -su admin:{CURL_PW} "
                "http://localhost:9200/_cat/health'",
            ],
            "workdir": "/work/demo",
        }
    )
    call = {
        "timestamp": "2026-06-05T05:00:01.000Z",
        "type": "response_item",
        "payload": {
            "type": "function_call",
            "name": "shell",
            "arguments": arguments,
            "call_id": "call_cmd_1",
        },
    }
    path = home / "codex" / "sessions" / "2026" / "06" / "05" / "rollout-cmd.jsonl"
    return write_lines(path, [meta, codex_prompt("check the cluster"), call])


def test_passwords_in_shell_commands_never_reach_the_database(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    files = [claude_session(isolated_home), codex_session(isolated_home)]
    on_disk = b"".join(path.read_bytes() for path in files)
    assert all(secret.encode() in on_disk for secret in SECRETS)

    harvest(store, cfg)

    stored = "\n".join(
        f"{text}\n{raw or ''}" for text, raw in query(db_file, "SELECT text, raw FROM events")
    )
    for rule in ("mysql-password-flag", "sudo-password-pipe", "sshpass-password"):
        assert f"[REDACTED:{rule}:" in stored
    assert "curl -su admin:[REDACTED:curl-user-password:" in stored
    for secret in SECRETS:
        assert secret not in stored
    for candidate in Path(db_file).parent.glob("sleepd.db*"):
        blob = candidate.read_bytes()
        assert not any(secret.encode() in blob for secret in SECRETS), candidate.name
    # The commands themselves stay readable around the placeholders.
    assert "docker exec -i db mysql -uroot -p" in stored
    assert "ssh deploy@10.0.0.5" in stored
