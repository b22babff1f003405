"""Every field of a real record, given a value of the wrong type, costs at most that field.

The records are real lines of the labelled sessions in the repository, one or two of
each shape (record type, and the type of its content or payload). Each field down to a
few levels is replaced in turn by an object, a list, a number, a flag, null and a
string, the way a hostile file, a format change or a half-written line could hold it.
A harvester reading such a line must neither raise nor give up on the line: every line
is still read (none is skipped as a record it could not read) and the prompt after each
one is stored.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from harvesters.claude_code import ClaudeCodeHarvester
from harvesters.codex import CodexHarvester
from harvesters.records import SourceFile

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"
WRONG = ({"x": 1}, [1, "x"], 7, True, None, "text")
#: Fields this deep at most are replaced (deeper ones are strings of tool inputs).
DEPTH = 4
PATHS_PER_RECORD = 60
SID = "900d900d-0000-4000-8000-00000000d0d0"


def shape(source: str, record: dict[str, Any]) -> tuple[str, ...]:
    if source == "claude":
        content = (record.get("message") or {}).get("content")
        first = content[0].get("type") if isinstance(content, list) and content else None
        return (str(record.get("type")), type(content).__name__, str(first))
    payload = record.get("payload") or {}
    return (str(record.get("type")), str(payload.get("type")))


def real_records(source: str) -> list[dict[str, Any]]:
    """Up to two real records of each shape, from every labelled transcript."""
    chosen: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for path in sorted((CORPUS / source).glob("*.jsonl")):
        for raw in path.read_bytes().splitlines():
            try:
                record = orjson.loads(raw)
            except orjson.JSONDecodeError:
                continue
            if isinstance(record, dict):
                kept = chosen.setdefault(shape(source, record), [])
                if len(kept) < 2:
                    kept.append(record)
    return [record for kept in chosen.values() for record in kept]


def field_paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if len(prefix) >= DEPTH:
        return
    items = value.items() if isinstance(value, dict) else enumerate(value[:3])
    for key, item in items:
        yield (*prefix, key)
        if isinstance(item, dict | list):
            yield from field_paths(item, (*prefix, key))


def variants(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for path in list(field_paths(record))[:PATHS_PER_RECORD]:
        for wrong in WRONG:
            variant = copy.deepcopy(record)
            holder = variant
            for key in path[:-1]:
                holder = holder[key]
            if type(holder[path[-1]]) is type(wrong):
                continue
            holder[path[-1]] = copy.deepcopy(wrong)
            yield variant


def claude_sentinel(number: int) -> dict[str, Any]:
    return {
        "type": "user",
        "sessionId": SID,
        "uuid": f"900d900d-0000-4000-8000-{number:012d}",
        "timestamp": "2026-06-05T05:00:00.000Z",
        "message": {"role": "user", "content": f"sentinel {number}"},
    }


def codex_sentinel(number: int) -> dict[str, Any]:
    return {
        "timestamp": "2026-06-05T05:00:00.000Z",
        "type": "response_item",
        "payload": {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": f"sentinel {number}"}],
        },
    }


CODEX_HEADER = {
    "timestamp": "2026-06-05T05:00:00.000Z",
    "type": "session_meta",
    "payload": {"id": "019e0000-0000-7000-8000-00000000d0d0", "cwd": "/work/typed"},
}


@pytest.mark.parametrize("source", ["claude", "codex"])
def test_a_field_of_the_wrong_type_never_costs_the_line_or_the_next(
    tmp_path: Path, source: str
) -> None:
    sentinel = claude_sentinel if source == "claude" else codex_sentinel
    lines: list[bytes] = [] if source == "claude" else [orjson.dumps(CODEX_HEADER)]
    count = 0
    for record in real_records(source):
        for variant in variants(record):
            lines.append(orjson.dumps(variant))
            lines.append(orjson.dumps(sentinel(count)))
            count += 1
    assert count > 1000  # the shapes of every labelled session, not a handful
    if source == "claude":
        folder = tmp_path / "projects" / "-work-typed"
        harvester: Any = ClaudeCodeHarvester([tmp_path / "projects"])
        path = folder / f"{SID}.jsonl"
    else:
        folder = tmp_path / "sessions"
        harvester = CodexHarvester([folder])
        path = folder / "rollout-2026-06-05T05-00-00-019e0000-0000-7000-8000-00000000d0d0.jsonl"
    folder.mkdir(parents=True)
    path.write_bytes(b"\n".join(lines) + b"\n")

    texts: set[str] = set()
    skipped: list[str] = []
    for batch in harvester.read(SourceFile(str(path), source, "main"), None, batch_lines=500):
        texts.update(event.text for event in batch.events)
        skipped.extend(item.reason for item in batch.skipped)
    assert skipped == []
    missing = [n for n in range(count) if f"sentinel {n}" not in texts]
    assert missing == []


@pytest.mark.parametrize(
    "stamp", ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+01:00", "2026-02-30T00:00:00Z"]
)
def test_a_time_no_clock_can_show_is_no_time_and_costs_nothing_else(
    tmp_path: Path, stamp: str
) -> None:
    """A time past year 9999 or before year 1 once its offset is applied reads as no time."""
    folder = tmp_path / "projects" / "-work-typed"
    folder.mkdir(parents=True)
    path = folder / f"{SID}.jsonl"
    odd = {**claude_sentinel(1), "timestamp": stamp}
    path.write_bytes(orjson.dumps(odd) + b"\n" + orjson.dumps(claude_sentinel(2)) + b"\n")
    harvester = ClaudeCodeHarvester([tmp_path / "projects"])
    [batch] = harvester.read(SourceFile(str(path), "claude", "main"), None)
    assert batch.skipped == []
    assert [(e.text, e.timestamp is None) for e in batch.events] == [
        ("sentinel 1", True),
        ("sentinel 2", False),
    ]


def test_a_legacy_codex_document_with_items_of_the_wrong_type_reads_every_item(
    tmp_path: Path,
) -> None:
    """The 2025 TypeScript CLI's single JSON document: its items are the response items of
    the real rollouts, each field swapped in turn as above, each followed by a prompt."""
    items: list[Any] = []
    count = 0
    for record in real_records("codex"):
        payload = record.get("payload")
        if record.get("type") != "response_item" or not isinstance(payload, dict):
            continue
        for variant in variants(payload):
            items.append(variant)
            items.append(codex_sentinel(count)["payload"])
            count += 1
    assert count > 200
    session = {"id": "019e0000-0000-7000-8000-00000000d0d1", "timestamp": "2025-04-20T10:00:00Z"}
    folder = tmp_path / "sessions"
    folder.mkdir()
    path = folder / "rollout-2025-04-20-typed.json"
    path.write_bytes(orjson.dumps({"session": session, "items": items}))
    [batch] = CodexHarvester([folder]).read(SourceFile(str(path), "codex", "legacy"), None)
    assert batch.skipped == []
    texts = {event.text for event in batch.events}
    assert [n for n in range(count) if f"sentinel {n}" not in texts] == []


def test_a_time_no_clock_has_reached_yet_is_no_time_and_never_ends_a_session(
    tmp_path: Path,
) -> None:
    """A record dated years ahead (a hostile line, a clock set wrong) has no time and does
    not become the session's end; a time a few hours ahead (another machine's clock, a
    zone written as UTC) is believed."""
    soon = (datetime.now(UTC) + timedelta(hours=3)).isoformat()
    stamps = ["2026-06-05T05:00:00+00:00", "9999-12-31T00:00:00+00:00", soon]
    folder = tmp_path / "projects" / "-work-typed"
    folder.mkdir(parents=True)
    path = folder / f"{SID}.jsonl"
    path.write_bytes(
        b"".join(
            orjson.dumps({**claude_sentinel(n), "timestamp": stamp}) + b"\n"
            for n, stamp in enumerate(stamps)
        )
    )
    [batch] = ClaudeCodeHarvester([tmp_path / "projects"]).read(
        SourceFile(str(path), "claude", "main"), None
    )
    times = [e.timestamp.isoformat() if e.timestamp else None for e in batch.events]
    assert times == [stamps[0], None, soon]
    [session] = batch.sessions
    assert (session.started_at, session.ended_at) == (
        datetime.fromisoformat(stamps[0]),
        datetime.fromisoformat(soon),
    )

    codex = tmp_path / "sessions"
    codex.mkdir()
    rollout = codex / "rollout-2026-06-05T05-00-00-019e0000-0000-7000-8000-00000000d0d0.jsonl"
    lines = [CODEX_HEADER] + [
        {**codex_sentinel(n), "timestamp": stamp} for n, stamp in enumerate(stamps[:2])
    ]
    rollout.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    [batch] = CodexHarvester([codex]).read(SourceFile(str(rollout), "codex", "main"), None)
    assert [e.timestamp is None for e in batch.events] == [False, True]
    assert batch.sessions[0].ended_at == datetime.fromisoformat(stamps[0])
