"""Helpers for the end-to-end harvest tests: lay the corpus out, copy it, dump the database.

The corpus layout tables live with the harvester unit tests; they are loaded from there so a
new sample only needs one entry.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from harvesters.claude_code import ClaudeCodeHarvester
from harvesters.codex import CodexHarvester
from harvesters.records import EventRecord, SessionRecord

TESTS_DIR = Path(__file__).resolve().parents[1]
_UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _load_harvester_fixtures() -> Any:
    spec = importlib.util.spec_from_file_location(
        "harvesters_test_layout", TESTS_DIR / "harvesters" / "conftest.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_LAYOUT = _load_harvester_fixtures()
CORPUS: Path = _LAYOUT.CORPUS
layout_for: Callable[[Path], Path | None] = _LAYOUT.layout_for
corpus_files: Callable[[], list[Path]] = _LAYOUT.corpus_files
jsonl_bytes: Callable[[Any], bytes] = _LAYOUT.jsonl_bytes


def lay_out_corpus(home: Path) -> list[Path]:
    """Copy the corpus under `home` (`claude/projects/...`, `codex/sessions/...`)."""
    placed = []
    for sample in corpus_files():
        rel = layout_for(sample)
        if rel is None:
            continue
        target = home / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample, target)
        placed.append(target)
    return placed


def _rewrite_uuids(data: bytes, copy: int) -> bytes:
    """Give every UUID a copy-specific twin, the same in every file, so links survive."""

    def twin(match: re.Match[bytes]) -> bytes:
        digest = hashlib.sha256(match.group(0) + b"/%d" % copy).hexdigest()
        return (
            f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}".encode()
        )

    return _UUID.sub(twin, data)


def lay_out_copies(home: Path, copies: int) -> int:
    """Lay the corpus out `copies` times as distinct sessions (ids rewritten); returns bytes."""
    total = 0
    for sample in corpus_files():
        rel = layout_for(sample)
        if rel is None:
            continue
        data = sample.read_bytes()
        for copy in range(copies):
            tool, root, *rest = rel.parts
            rest_path = _rewrite_uuids("/".join(rest).encode(), copy).decode()
            # a distinct project folder per copy keeps the agent-<id> files of 2.0.x apart
            first, _, tail = rest_path.partition("/")
            target = home / tool / root / f"{first}-copy{copy}" / tail
            if tool == "codex":
                target = home / tool / root / f"copy{copy}" / rest_path
            target.parent.mkdir(parents=True, exist_ok=True)
            content = _rewrite_uuids(data, copy)
            target.write_bytes(content)
            total += len(content)
    return total


def canonical_dump(db_file: Path) -> dict[str, list[tuple[Any, ...]]]:
    """What a harvest stored, free of row ids and clock times, in a stable order."""
    conn = sqlite3.connect(db_file)
    try:
        sessions = conn.execute(
            "SELECT s.source, s.external_id, s.kind, s.project_path, s.event_count, "
            "p.external_id FROM sessions s LEFT JOIN sessions p ON p.id = s.parent_session_id "
            "ORDER BY s.source, s.external_id"
        ).fetchall()
        events = conn.execute(
            "SELECT s.source, s.external_id, e.external_id, e.seq, e.kind, e.text, e.raw, "
            "e.is_error, e.exit_code, e.input_tokens, e.output_tokens, e.cache_read_tokens, "
            "e.cache_creation_tokens FROM events e JOIN sessions s ON s.id = e.session_id "
            "ORDER BY s.source, s.external_id, e.seq"
        ).fetchall()
        files = conn.execute(
            'SELECT path, source, size, "offset", line_no, malformed_lines FROM transcript_files '
            "ORDER BY path"
        ).fetchall()
        redactions = conn.execute(
            "SELECT source, rule, count FROM redaction_counts ORDER BY source, rule"
        ).fetchall()
    finally:
        conn.close()
    return {"sessions": sessions, "events": events, "files": files, "redactions": redactions}


#: Each session's stored event count against its events (both databases).
_DRIFTED = (
    "SELECT s.external_id, s.event_count, count(e.id) FROM sessions s "
    "LEFT JOIN events e ON e.session_id = s.id GROUP BY s.id, s.external_id, s.event_count "
    "HAVING s.event_count != count(e.id)"
)


def integrity(db_file: Path | str) -> str:
    """SQLite's integrity check, FTS5's check of the index against the events, and each
    session's stored event count against its events; on PostgreSQL (`db_file` is then its
    URL) the event counts."""
    if isinstance(db_file, str):
        drifted = query(db_file, _DRIFTED)
        return f"event counts drifted (session, stored, real): {drifted[:5]}" if drifted else "ok"
    conn = sqlite3.connect(db_file)
    try:
        result = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
        if result != "ok":
            return result
        try:
            conn.execute("INSERT INTO events_fts(events_fts) VALUES('integrity-check')")
        except sqlite3.DatabaseError as exc:
            return f"full-text index: {exc}"
        drifted = conn.execute(_DRIFTED).fetchall()
        if drifted:
            return f"event counts drifted (session, stored, real): {drifted[:5]}"
        return "ok"
    finally:
        conn.close()


def query(db_file: Path | str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of `sql` (with `?` marks) on the SQLite file, or on the database a URL names."""
    if isinstance(db_file, str):
        from sqlalchemy import text

        from sleepd.store.engine import make_engine

        for n in range(len(params)):
            sql = sql.replace("?", f":p{n}", 1)
        engine = make_engine(db_file)
        try:
            with engine.connect() as c:
                rows = c.execute(text(sql), {f"p{n}": v for n, v in enumerate(params)}).all()
                return [tuple(r) for r in rows]
        finally:
            engine.dispose()
    conn = sqlite3.connect(db_file)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def session_prompts(db_file: Path | str, session: str) -> list[str]:
    """The typed prompts stored for the session with this external id, in order."""
    rows = query(
        db_file,
        "SELECT e.text FROM events e JOIN sessions s ON s.id = e.session_id "
        "WHERE s.external_id = ? AND e.kind = 'user_prompt' ORDER BY e.seq",
        (session,),
    )
    return [text for (text,) in rows]


def append_bytes(path: Path, data: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(data)


def claude_prompt(session_id: str, uuid: str, text: str, cwd: str = "/work/demo") -> dict[str, Any]:
    """A Claude Code user-prompt record as the CLI writes it."""
    return {
        "parentUuid": None,
        "isSidechain": False,
        "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": uuid,
        "timestamp": "2026-06-05T05:00:00.000Z",
        "cwd": cwd,
        "sessionId": session_id,
        "version": "2.1.152",
        "gitBranch": "main",
        "userType": "external",
    }


def _claude_assistant(
    parent: dict[str, Any], uuid: str, message_id: str, block: dict[str, Any], timestamp: str
) -> dict[str, Any]:
    """A Claude Code assistant record holding one content block, answering `parent`."""
    return {
        "parentUuid": parent["uuid"],
        "type": "assistant",
        "uuid": uuid,
        "sessionId": parent["sessionId"],
        "cwd": parent["cwd"],
        "timestamp": timestamp,
        "message": {
            "id": message_id,
            "role": "assistant",
            "model": "claude-opus-4-7",
            "content": [block],
            "usage": {"input_tokens": 5, "output_tokens": 7},
        },
    }


def claude_answer(
    parent: dict[str, Any],
    uuid: str,
    text: str,
    *,
    timestamp: str = "2026-06-05T05:00:01.000Z",
) -> dict[str, Any]:
    """A Claude Code assistant record saying `text`, answering `parent`."""
    block = {"type": "text", "text": text}
    return _claude_assistant(parent, uuid, f"msg_{uuid[:8]}", block, timestamp)


def claude_tool_use(
    parent: dict[str, Any],
    uuid: str,
    call_id: str,
    tool_input: dict[str, Any],
    *,
    name: str = "Bash",
    timestamp: str = "2026-06-05T05:00:01.000Z",
) -> dict[str, Any]:
    """A Claude Code assistant record calling one tool, answering `parent`."""
    block = {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
    return _claude_assistant(parent, uuid, f"msg_{call_id}", block, timestamp)


def claude_tool_result(
    call: dict[str, Any],
    uuid: str,
    content: str,
    *,
    is_error: bool = False,
    timestamp: str = "2026-06-05T05:00:02.000Z",
) -> dict[str, Any]:
    """The user record holding the result of `call`'s tool use."""
    block: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": call["message"]["content"][0]["id"],
        "content": content,
    }
    if is_error:
        block["is_error"] = True
    return {
        "parentUuid": call["uuid"],
        "type": "user",
        "uuid": uuid,
        "sessionId": call["sessionId"],
        "cwd": call["cwd"],
        "timestamp": timestamp,
        "message": {"role": "user", "content": [block]},
    }


def codex_prompt(text: str) -> dict[str, Any]:
    """A Codex user message response item."""
    return {
        "timestamp": "2026-06-05T05:00:00.000Z",
        "type": "response_item",
        "payload": {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": text}],
        },
    }


def line(record: dict[str, Any]) -> bytes:
    return orjson.dumps(record) + b"\n"


def write_lines(path: Path, records: list[Any]) -> Path:
    """Write records (dicts, or raw bytes/str lines) as a JSONL file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(jsonl_bytes(records))
    return path


def read_directly(home: Path) -> dict[str, tuple[list[SessionRecord], list[EventRecord]]]:
    """Run the harvester classes over the tree, as the expectation."""
    harvesters = {
        "claude": ClaudeCodeHarvester([home / "claude" / "projects"]),
        "codex": CodexHarvester(
            [home / "codex" / "sessions", home / "codex" / "archived_sessions"]
        ),
    }
    out = {}
    for source, harvester in harvesters.items():
        sessions: dict[str, SessionRecord] = {}
        events: list[EventRecord] = []
        for file in harvester.discover():
            for batch in harvester.read(file, None):
                for s in batch.sessions:
                    sessions.setdefault(s.external_id, s)
                events.extend(batch.events)
        out[source] = (list(sessions.values()), events)
    return out
