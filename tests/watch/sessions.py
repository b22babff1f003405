"""Synthetic live sessions in the real on-disk formats, harvested and mined for real.

Each session is one request: the agent runs a command, says it is done, and the person
either approves ("thanks, that works": a success) or pushes back (a correction: a
failure). Claude Code sessions may load a skill (a `Skill` tool call) or type `/name`.
"""

from __future__ import annotations

import itertools
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.demo.samples import ClaudeLog
from sleepd.store.engine import read_session
from sleepd.store.models import Episode, Session

APPROVAL = "thanks, that works perfectly"
CORRECTION = "no, that's wrong: it still fails the same way, the deploy did not go through"

DEPLOY = (
    "deploy the billing service to the staging cluster",
    "please deploy the billing service to staging",
    "deploy billing service to the staging cluster again",
)
FLAKY = (
    "fix the flaky login test in the auth module",
    "the login test in the auth module is flaky again, fix it",
    "please fix the flaky auth login test",
)

_counter = itertools.count(1)


def _ts(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + (
        f"{moment.microsecond // 1000:03d}Z"
    )


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def codex_session(project: Path, start: datetime, prompt: str, *, success: bool) -> Path:
    """A Codex rollout under $CODEX_HOME/sessions (Codex reads AGENTS.md every session)."""
    n = next(_counter)
    sid = f"0199{n:04d}-aaaa-7bbb-8ccc-{n:012d}"
    clock = start
    lines: list[dict[str, Any]] = []

    def add(kind: str, payload: dict[str, Any]) -> None:
        nonlocal clock
        lines.append({"timestamp": _ts(clock), "type": kind, "payload": payload})
        clock += timedelta(milliseconds=1)

    add(
        "session_meta",
        {
            "id": sid,
            "timestamp": _ts(start),
            "cwd": str(project),
            "originator": "codex_cli_rs",
            "cli_version": "0.58.0",
            "source": "cli",
            "git": {"branch": "main"},
        },
    )
    add("turn_context", {"cwd": str(project), "model": "gpt-5-codex"})

    def user(text: str) -> None:
        add(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
        )

    user(prompt)
    add(
        "response_item",
        {
            "type": "function_call",
            "name": "shell",
            "call_id": f"call_{n}",
            "arguments": json.dumps({"command": ["bash", "-lc", "make deploy"]}),
        },
    )
    add(
        "response_item",
        {
            "type": "function_call_output",
            "call_id": f"call_{n}",
            "output": json.dumps({"output": "ok", "metadata": {"exit_code": 0}}),
        },
    )
    add(
        "response_item",
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Done, it is deployed and verified."}],
        },
    )
    user(APPROVAL if success else CORRECTION)
    home = Path(os.environ["CODEX_HOME"])
    day = start.astimezone(UTC)
    name = f"rollout-{day:%Y-%m-%dT%H-%M-%S}-{sid}.jsonl"
    return _write(home / "sessions" / f"{day:%Y/%m/%d}" / name, lines)


def claude_session(
    project: Path,
    start: datetime,
    prompt: str,
    *,
    success: bool,
    skill: str | None = None,
    typed_command: bool = False,
) -> Path:
    """A Claude Code transcript under $CLAUDE_CONFIG_DIR/projects; with `skill`, the agent
    loads it by a Skill tool call (or, with `typed_command`, the person types /skill)."""
    n = next(_counter)
    sid = f"5e55{n:04d}-aaaa-4bbb-8ccc-{n:012d}"
    log = ClaudeLog(
        session=sid,
        cwd=str(project),
        version="2.1.92",
        clock=start,
        step=timedelta(milliseconds=1),
        uuid=lambda index: f"{n:08d}-0000-4000-8000-{index:012d}",
    )
    add = log.add

    def assistant(content: list[dict[str, Any]], k: int) -> None:
        log.assistant(f"msg_{n:08d}_{k}", content, {"input_tokens": 100, "output_tokens": 20})

    if skill is not None and typed_command:
        add(
            "user",
            {
                "role": "user",
                "content": f"<command-message>{skill}</command-message>\n"
                f"<command-name>/{skill}</command-name>\n<command-args>{prompt}</command-args>",
            },
        )
    else:
        add("user", {"role": "user", "content": prompt})
    if skill is not None and not typed_command:
        assistant(
            [{"type": "tool_use", "id": f"toolu_s{n}", "name": "Skill", "input": {"skill": skill}}],
            0,
        )
        add(
            "user",
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": f"toolu_s{n}",
                        "content": f"Launching skill: {skill}",
                    }
                ],
            },
            toolUseResult={"success": True, "commandName": skill},
        )
    assistant(
        [{"type": "tool_use", "id": f"toolu_b{n}", "name": "Bash", "input": {"command": "make"}}],
        1,
    )
    add(
        "user",
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": f"toolu_b{n}", "content": "ok"}],
        },
    )
    assistant([{"type": "text", "text": "Done, it is deployed and verified."}], 2)
    add("user", {"role": "user", "content": APPROVAL if success else CORRECTION})
    home = Path(os.environ["CLAUDE_CONFIG_DIR"])
    slug = str(project).replace("/", "-").replace("_", "-")
    return _write(home / "projects" / slug / f"{sid}.jsonl", log.records)


def harvest_and_mine(engine: Engine, cfg: Config, now: datetime) -> None:
    """The real harvest path (files → redaction → store) and a mining pass at `now`."""
    from sleepd.harvest import harvest
    from sleepd.mining.mine import mine

    harvest(engine, cfg)
    mine(engine, cfg, now=now)


def cluster_of(engine: Engine, prompt: str) -> int:
    """The mined cluster of the episodes that asked `prompt`."""
    with read_session(engine) as db:
        ids = db.scalars(
            select(Episode.cluster_id).where(Episode.intent_text.contains(prompt[:30]))
        ).all()
    found = {i for i in ids if i is not None}
    assert len(found) == 1, f"{prompt!r} landed in clusters {found}"
    return found.pop()


def outcomes(engine: Engine) -> dict[str, int]:
    with read_session(engine) as db:
        rows = db.execute(select(Episode.outcome)).scalars().all()
    counts: dict[str, int] = {}
    for outcome in rows:
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def session_count(engine: Engine) -> int:
    with read_session(engine) as db:
        return len(db.scalars(select(Session.id)).all())
