"""A Codex thread built line by line, mined as `sleepd harvest` and `sleepd mine` do.

The rollouts follow codex-rs's record shapes: a session's meta, the person's messages
as response items, and the agent running one command and reporting its work done.
Tests of what the person does to a thread after the fact (a rollback, an undo) add their
own records between these.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e_support import query, write_lines

from sleepd.harvest import harvest

SESSION = "019e2000-0000-7000-8000-000000000001"


def rollout(home: Path) -> Path:
    name = f"rollout-2026-06-05T05-00-00-{SESSION}.jsonl"
    return home / "codex" / "sessions" / "2026" / "06" / "05" / name


def envelope(kind: str, payload: dict[str, Any], second: int) -> dict[str, Any]:
    return {
        "timestamp": f"2026-06-05T05:{second // 60:02d}:{second % 60:02d}.000Z",
        "type": kind,
        "payload": payload,
    }


def meta() -> dict[str, Any]:
    return envelope(
        "session_meta",
        {
            "id": SESSION,
            "timestamp": "2026-06-05T05:00:00.000Z",
            "cwd": "/work/demo",
            "cli_version": "0.152.0",
        },
        0,
    )


def said(text: str, second: int) -> dict[str, Any]:
    content = [{"type": "input_text", "text": text}]
    return envelope(
        "response_item", {"type": "message", "role": "user", "content": content}, second
    )


def answered(text: str, second: int) -> list[dict[str, Any]]:
    """The agent runs one command and reports the work done."""
    call = {
        "type": "function_call",
        "name": "shell",
        "call_id": f"call-{second}",
        "arguments": '{"command":["make","test"]}',
    }
    output = {
        "type": "function_call_output",
        "call_id": f"call-{second}",
        "output": '{"output":"ok","metadata":{"exit_code":0}}',
    }
    words = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text}],
    }
    return [
        envelope("response_item", call, second + 1),
        envelope("response_item", output, second + 2),
        envelope("response_item", words, second + 3),
    ]


def episodes(db_file: Path | str) -> list[tuple[str, str]]:
    rows = query(
        db_file,
        "SELECT intent_text, outcome FROM episodes WHERE parent_episode_id IS NULL "
        "ORDER BY start_seq",
    )
    return [(str(text), str(outcome)) for text, outcome in rows]


def mined(home: Path, store: Any, cfg: Any, records: list[dict[str, Any]]) -> None:
    from sleepd.mining.mine import mine

    write_lines(rollout(home), records)
    harvest(store, cfg)
    mine(store, cfg)
