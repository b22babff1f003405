"""Transcripts with a secret planted in every field a harvester reads (and some it should
ignore), each planted value unique to its field, so a find can name where it came from.

`plant_corpus` writes Claude Code and Codex files under the test's CLAUDE_CONFIG_DIR and
CODEX_HOME: hostile sessions built here, plus a copy of the bundled sample sessions
(which mine into replayable tasks) with secrets in their branches, intents and
repository URLs, so a night sends prompts built from planted fields.
"""

from __future__ import annotations

import json
import random
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sleepd.paths import package_data_dir

from .secrets_kit import EXTRA, KINDS, Secret, json_escaped, make_secrets

#: A clip boundary to straddle: error texts are cut at 500 characters (and 8 KB, 16 KB).
CLIP_PADS = (480, 8150, 16350)


@dataclass(frozen=True)
class Planted:
    location: str
    secret: Secret


class Planter:
    """Hands out a fresh secret of a rotating kind for each field, and remembers where."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.planted: list[Planted] = []
        self._kinds = [s.kind for s in make_secrets(seed)]
        self._turn = 0

    def secret(self, location: str, *, evident: bool = False) -> Secret:
        """A new secret for `location`; `evident`: one recognisable with no context."""
        while True:
            kind = self._kinds[self._turn % len(self._kinds)]
            self._turn += 1
            fresh = next(s for s in make_secrets(self.rng.randrange(2**62)) if s.kind == kind)
            if evident and not fresh.self_evident:
                continue
            self.planted.append(Planted(location, fresh))
            return fresh

    def text(self, location: str, n: int = 3) -> str:
        """Prose holding `n` secrets of rotating kinds, each in a form its kind is known by."""
        parts = ["Here is the setup I use:"]
        for _ in range(n):
            parts.append(self.secret(location).assignment())
        parts.append("Why does the deploy fail?")
        return "\n".join(parts)


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _ts(i: int) -> str:
    return f"2026-11-20T10:{i // 60 % 60:02d}:{i % 60:02d}.000Z"


def _claude_session(p: Planter, project_dir: Path, cwd: str) -> None:
    rng = p.rng
    sid = _uuid(rng)
    lines: list[dict[str, Any]] = []
    branch = f"fix/{p.secret('claude.gitBranch', evident=True).value}"
    env = {"sessionId": sid, "cwd": cwd, "version": "2.1.140", "gitBranch": branch}
    parent = None

    def add(record: dict[str, Any]) -> None:
        nonlocal parent
        uid = _uuid(rng)
        record = {
            "parentUuid": parent,
            "isSidechain": False,
            "userType": "external",
            **env,
            "uuid": uid,
            "timestamp": _ts(len(lines)),
            **record,
        }
        parent = uid
        lines.append(record)

    lines.append(
        {
            "type": "pr-link",
            "sessionId": sid,
            "prNumber": 7,
            "prUrl": "https://deploy:"
            + p.secret("claude.pr-link.url", evident=True).value
            + "@github.com/acme/api/pull/7",
            "prRepository": "acme/api",
            "timestamp": _ts(0),
        }
    )
    add({"type": "user", "message": {"role": "user", "content": p.text("claude.user.string")}})
    tool_id = "toolu_" + _uuid(rng).replace("-", "")[:20]
    bash = p.secret("claude.tool_use.command", evident=True)
    write = p.secret("claude.tool_use.write-json", evident=True)
    add(
        {
            "type": "assistant",
            "message": {
                "id": "msg_" + _uuid(rng)[:8],
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "thinking", "thinking": p.text("claude.thinking", 2)},
                    {"type": "text", "text": p.text("claude.assistant.text", 2)},
                    {
                        "type": "tool_use",
                        "id": tool_id,
                        "name": "Bash",
                        "input": {
                            "command": f'curl -H "Authorization: Bearer {bash.value}" '
                            "https://api.example.com",
                            "description": "call the API",
                        },
                    },
                    {
                        "type": "tool_use",
                        "id": tool_id + "w",
                        "name": "Write",
                        "input": {
                            "file_path": "/tmp/cfg.json",
                            "content": json.dumps({"env": {write.name or "KEY": write.value}}),
                        },
                    },
                ],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
        }
    )
    key_block = p.secret("claude.tool_result.error-clipped")
    while "PRIVATE KEY" not in key_block.value:
        p.planted.pop()
        key_block = p.secret("claude.tool_result.error-clipped")
    pad = "E" * CLIP_PADS[len(lines) % len(CLIP_PADS)]
    add(
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": tool_id,
                        "content": f"error: {pad}\n{key_block.value}\nexit 1",
                        "is_error": True,
                    },
                    {
                        "type": "tool_result",
                        "tool_use_id": tool_id + "w",
                        "content": [
                            {"type": "text", "text": p.text("claude.tool_result.blocks", 2)}
                        ],
                    },
                ],
            },
        }
    )
    add(
        {
            "type": "system",
            "subtype": "api_error",
            "level": "error",
            "content": p.text("claude.system.content", 1),
            "error": {"status": 401, "message": p.secret("claude.system.error").assignment()},
        }
    )
    add(
        {
            "type": "attachment",
            "attachment": {
                "type": "queued_command",
                "prompt": p.text("claude.attachment.queued", 1),
            },
        }
    )
    add(
        {
            "type": "user",
            "isCompactSummary": True,
            "isVisibleInTranscriptOnly": True,
            "message": {
                "role": "user",
                "content": "This session is being continued from a previous conversation.\n\n"
                "Summary:\n" + p.text("claude.compact-summary", 2),
            },
        }
    )
    escaped = p.secret("claude.unknown-record.escaped", evident=True)
    odd = p.secret("claude.unknown-record.plain")
    lines.append({"type": "ai-title", "aiTitle": p.text("claude.ai-title", 1), "sessionId": sid})
    lines.append(
        {"type": "custom-title", "customTitle": p.text("claude.custom-title", 1), "sessionId": sid}
    )
    lines.append(
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "timestamp": _ts(90),
            "sessionId": sid,
            "content": p.text("claude.queue-operation", 2),
        }
    )
    lines.append({"type": "summary", "summary": p.text("claude.summary", 1), "leafUuid": parent})
    lines.append(
        {
            "type": "brand-new-record-type",
            "sessionId": sid,
            "payload": {"note": odd.assignment(), "escaped": "ESCAPED_HERE"},
        }
    )
    path = project_dir / f"{sid}.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for record in lines:
            raw = json.dumps(record)
            raw = raw.replace("ESCAPED_HERE", json_escaped(escaped.value))
            handle.write(raw + "\n")
    subagents = project_dir / sid / "subagents"
    subagents.mkdir(parents=True)
    (subagents / "agent-a1b2c3d.meta.json").write_text(
        json.dumps(
            {
                "agentType": "general-purpose",
                "description": p.text("claude.subagent.meta-description", 1),
            }
        )
    )
    sub_lines = [
        {
            "parentUuid": None,
            "isSidechain": True,
            "agentId": "a1b2c3d",
            **env,
            "type": "user",
            "uuid": _uuid(rng),
            "timestamp": _ts(100),
            "message": {"role": "user", "content": p.text("claude.subagent.prompt", 1)},
        }
    ]
    (subagents / "agent-a1b2c3d.jsonl").write_text(
        "\n".join(json.dumps(r) for r in sub_lines) + "\n"
    )


def _codex_session(p: Planter, root: Path) -> None:
    rng = p.rng
    sid = _uuid(rng)
    day = root / "sessions" / "2026" / "11" / "20"
    day.mkdir(parents=True, exist_ok=True)
    token = p.secret("codex.session_meta.repository_url", evident=True).value
    branch = p.secret("codex.session_meta.branch", evident=True).value
    call = "call_" + _uuid(rng)[:12]
    escaped = p.secret("codex.function_call.escaped-arguments", evident=True)
    args = json.dumps({"command": ["bash", "-lc", "deploy --token ESCAPED_HERE"]})
    long_error = p.secret("codex.error-event.clipped")
    while "PRIVATE KEY" not in long_error.value:
        p.planted.pop()
        long_error = p.secret("codex.error-event.clipped")
    records: list[dict[str, Any]] = [
        {
            "timestamp": _ts(0),
            "type": "session_meta",
            "payload": {
                "id": sid,
                "timestamp": _ts(0),
                "cwd": "/home/dev/acme-web",
                "originator": "codex_cli_rs",
                "cli_version": "0.60.1",
                "instructions": p.text("codex.session_meta.instructions", 1),
                "git": {
                    "commit_hash": "0" * 40,
                    "branch": f"feat/{branch}",
                    "repository_url": f"https://x-access-token:{token}@github.com/acme/web.git",
                },
            },
        },
        {
            "timestamp": _ts(1),
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": p.text("codex.user.input_text")}],
            },
        },
        {
            "timestamp": _ts(2),
            "type": "event_msg",
            "payload": {"type": "user_message", "message": p.text("codex.event.user_message")},
        },
        {
            "timestamp": _ts(3),
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "call_id": call,
                "arguments": args,
            },
        },
        {
            "timestamp": _ts(4),
            "type": "response_item",
            "payload": {
                "type": "function_call_output",
                "call_id": call,
                "output": json.dumps(
                    {
                        "output": p.text("codex.function_call_output", 2),
                        "metadata": {"exit_code": 1},
                    }
                ),
            },
        },
        {
            "timestamp": _ts(5),
            "type": "event_msg",
            "payload": {"type": "error", "message": "E" * 480 + "\n" + long_error.value},
        },
        {
            "timestamp": _ts(6),
            "type": "response_item",
            "payload": {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": p.text("codex.reasoning", 1)}],
            },
        },
        {
            "timestamp": _ts(7),
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": p.text("codex.assistant", 1)}],
            },
        },
        {
            "timestamp": _ts(8),
            "type": "some_future_item",
            "payload": {"secret_note": p.secret("codex.unknown-item").assignment()},
        },
    ]
    path = day / f"rollout-2026-11-20T10-00-00-{sid}.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            raw = json.dumps(record)
            # the arguments string is JSON inside JSON: the escape is doubled on disk
            raw = raw.replace("ESCAPED_HERE", json_escaped(escaped.value).replace("\\", "\\\\"))
            handle.write(raw + "\n")


def _planted_samples(p: Planter, claude_root: Path, codex_root: Path) -> None:
    """The bundled samples (they mine into replayable tasks), secrets in intents/branches."""
    samples = package_data_dir() / "samples"
    shutil.copytree(samples / "claude" / "projects", claude_root, dirs_exist_ok=True)
    shutil.copytree(samples / "codex", codex_root, dirs_exist_ok=True)
    for path in sorted(claude_root.rglob("*.jsonl")):
        out = []
        branch = f"fix/{p.secret('samples.claude.gitBranch', evident=True).value}"
        intent_secret = p.secret("samples.claude.intent", evident=True)
        done = False
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "gitBranch" in record:
                record["gitBranch"] = branch
            message = record.get("message") or {}
            if (
                not done
                and record.get("type") == "user"
                and isinstance(message.get("content"), str)
            ):
                message["content"] += f" (token {intent_secret.value} )"
                done = True
            out.append(json.dumps(record))
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
    for path in sorted(codex_root.rglob("*.jsonl")):
        out = []
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            payload = record.get("payload") or {}
            if record.get("type") == "session_meta":
                git = payload.setdefault("git", {})
                git["branch"] = "fix/" + p.secret("samples.codex.branch", evident=True).value
                token = p.secret("samples.codex.repository_url", evident=True).value
                git["repository_url"] = f"https://oauth2:{token}@gitlab.example.com/a/b.git"
            out.append(json.dumps(record))
        path.write_text("\n".join(out) + "\n", encoding="utf-8")


def plant_corpus(claude_dir: Path, codex_dir: Path, seed: int) -> Planter:
    p = Planter(seed)
    projects = claude_dir / "projects"
    for i, cwd in enumerate(("/home/dev/acme-api", "/home/dev/acme-api", "/home/dev/tools")):
        project = projects / cwd.replace("/", "-")
        project.mkdir(parents=True, exist_ok=True)
        _claude_session(p, project, cwd)
        if i < 2:
            _codex_session(p, codex_dir)
    _planted_samples(p, projects, codex_dir)
    return p


def iter_files(root: Path) -> Iterator[Path]:
    if root.is_file():
        yield root
        return
    if root.is_dir():
        for path in root.rglob("*"):
            if path.is_file() and not path.is_symlink():
                yield path


__all__ = ["EXTRA", "KINDS", "Planted", "Planter", "iter_files", "plant_corpus"]
