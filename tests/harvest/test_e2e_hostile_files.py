"""Hostile files: none stops, blocks or misleads a harvest, and one bad file never
stops the rest.

Each case lays a good transcript beside the hostile one and checks the good one is
stored, the hostile one is counted, and a second harvest behaves the same.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import orjson
import pytest
from e2e_support import claude_prompt, codex_prompt, integrity, line, query

from harvesters.reader import MAX_DEPTH
from sleepd.harvest import harvest

GOOD_SID = "900d900d-0000-4000-8000-000000000001"
HARVEST_DEADLINE_S = 120


def project(home: Path) -> Path:
    folder = home / "claude" / "projects" / "-work-hostile"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def good_file(home: Path) -> Path:
    path = project(home) / f"{GOOD_SID}.jsonl"
    path.write_bytes(
        line(claude_prompt(GOOD_SID, "900d900d-0000-4000-8000-0000000000a1", "the good prompt"))
    )
    return path


def harvest_within_deadline(store: Any, cfg: Any) -> Any:
    """Harvest in a thread and give up waiting after a deadline (a block is a failure)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["report"] = harvest(store, cfg)
        except BaseException as exc:  # reported below
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(HARVEST_DEADLINE_S)
    assert not worker.is_alive(), "the harvest blocked"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["report"]


def stored_texts(db_file: Path) -> list[str]:
    return [text for (text,) in query(db_file, "SELECT text FROM events ORDER BY id")]


def nested(depth: int) -> bytes:
    """Objects and arrays in turn, `depth` levels deep, as JSON text."""
    opening = b"".join(b"[" if level % 2 else b'{"a":' for level in range(depth))
    closing = b"".join(b"]" if level % 2 else b"}" for level in reversed(range(depth)))
    return opening + b"1" + closing


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 5000])
def test_a_deeply_nested_line_is_one_malformed_line(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, depth: int
) -> None:
    good_file(isolated_home)
    hostile = project(isolated_home) / "900d900d-0000-4000-8000-0000000000d1.jsonl"
    sid = "900d900d-0000-4000-8000-0000000000d1"
    deep = nested(depth)
    record = {**claude_prompt(sid, "900d900d-0000-4000-8000-0000000000d2", "after the deep one")}
    hostile.write_bytes(
        b'{"type":"user","sessionId":"%s","deep":%s}\n' % (sid.encode(), deep) + line(record)
    )
    # and the same in a Codex rollout, in a function call's input
    codex = isolated_home / "codex" / "sessions" / "2026" / "06" / "05"
    codex.mkdir(parents=True)
    header = {"type": "session_meta", "payload": {"id": "019e0000-0000-7000-8000-0000000000d3"}}
    (codex / "rollout-2026-06-05T05-00-00-019e0000-0000-7000-8000-0000000000d3.jsonl").write_bytes(
        line(header)
        + b'{"type":"response_item","payload":{"type":"function_call","arguments":%s}}\n' % deep
        + line(codex_prompt("codex after the deep one"))
    )

    report = harvest_within_deadline(store, cfg).totals()
    assert (report["malformed_lines"], report["errors"]) == (2, 0)
    texts = stored_texts(db_file)
    assert {"the good prompt", "after the deep one", "codex after the deep one"} <= set(texts)
    reasons = [r for (r,) in query(db_file, "SELECT reason FROM skipped_lines")]
    assert reasons == [f"JSON nested deeper than {MAX_DEPTH} levels"] * 2
    assert harvest_within_deadline(store, cfg).totals()["events_new"] == 0
    assert integrity(db_file) == "ok"


def test_a_deep_subagent_meta_file_is_ignored(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    sub = project(isolated_home) / GOOD_SID / "subagents"
    sub.mkdir(parents=True)
    (sub / "agent-a1.jsonl").write_bytes(
        line(claude_prompt(GOOD_SID, "900d900d-0000-4000-8000-0000000000b1", "sub task"))
    )
    (sub / "agent-a1.meta.json").write_bytes(
        b'{"agentType":' + b"[" * 900 + b"]" * 900 + b',"description":{"x":1}}'
    )
    report = harvest_within_deadline(store, cfg).totals()
    assert report["errors"] == 0
    assert "sub task" in stored_texts(db_file)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_named_like_a_transcript_never_blocks_the_harvest(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    good_file(isolated_home)
    folder = project(isolated_home)
    os.mkfifo(folder / "900d900d-0000-4000-8000-0000000000f1.jsonl")
    os.mkfifo(folder / "fifo-target")
    os.symlink(folder / "fifo-target", folder / "900d900d-0000-4000-8000-0000000000f2.jsonl")
    sub = folder / GOOD_SID / "subagents"
    sub.mkdir(parents=True)
    (sub / "agent-f3.jsonl").write_bytes(
        line(claude_prompt(GOOD_SID, "900d900d-0000-4000-8000-0000000000f3", "sub beside a fifo"))
    )
    os.mkfifo(sub / "agent-f3.meta.json")
    codex = isolated_home / "codex" / "sessions" / "2026"
    codex.mkdir(parents=True)
    os.mkfifo(codex / "rollout-2026-06-05T05-00-00-019e0000-0000-7000-8000-0000000000f4.json")

    report = harvest_within_deadline(store, cfg)
    totals = report.totals()
    assert totals["errors"] == 3  # the two FIFO transcripts and the FIFO rollout
    messages = [m for r in report.sources.values() for m in r.error_messages]
    assert all("not a regular file" in m for m in messages)
    assert {"the good prompt", "sub beside a fifo"} <= set(stored_texts(db_file))
    assert harvest_within_deadline(store, cfg).totals()["events_new"] == 0


def test_symlinks_are_never_followed_out_of_the_transcript_roots(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, tmp_path: Path
) -> None:
    good_file(isolated_home)
    folder = project(isolated_home)
    outside = tmp_path / "outside"
    outside.mkdir()
    secret_sid = "900d900d-0000-4000-8000-0000000000e1"
    (outside / "private.jsonl").write_bytes(
        line(claude_prompt(secret_sid, "900d900d-0000-4000-8000-0000000000e2", "outside text"))
    )
    os.symlink(outside / "private.jsonl", folder / f"{secret_sid}.jsonl")
    os.symlink("/dev/zero", folder / "900d900d-0000-4000-8000-0000000000e3.jsonl")
    os.symlink(outside, isolated_home / "claude" / "projects" / "-linked-project")
    # A link that stays inside the roots is a transcript like any other.
    inside_sid = "900d900d-0000-4000-8000-0000000000e4"
    other = isolated_home / "claude" / "projects" / "-work-other"
    other.mkdir()
    (other / "real.jsonl").write_bytes(
        line(claude_prompt(inside_sid, "900d900d-0000-4000-8000-0000000000e5", "linked inside"))
    )
    os.symlink(other / "real.jsonl", folder / f"{inside_sid}.jsonl")

    report = harvest_within_deadline(store, cfg)
    texts = stored_texts(db_file)
    assert "outside text" not in texts
    assert {"the good prompt", "linked inside"} <= set(texts)
    messages = [m for r in report.sources.values() for m in r.error_messages]
    assert len(messages) == 3  # the file link, the device link, the linked project's file
    assert all("a link out of the transcript folders" in m for m in messages)
    assert harvest_within_deadline(store, cfg).totals()["events_new"] == 0


def test_a_file_whose_parse_fails_is_one_error_and_the_rest_is_stored(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever goes wrong inside one file's parse (a harvester bug a hostile file finds)
    costs that file, never the harvest."""
    from harvesters.claude_code import ClaudeCodeHarvester

    good_file(isolated_home)
    bad_sid = "900d900d-0000-4000-8000-0000000000c1"
    (project(isolated_home) / f"{bad_sid}.jsonl").write_bytes(
        line(claude_prompt(bad_sid, "900d900d-0000-4000-8000-0000000000c2", "breaks the parser"))
    )
    real = ClaudeCodeHarvester.read

    def fails_on_one(self: Any, file: Any, cursor: Any, **kwargs: Any) -> Any:
        if bad_sid in file.path:
            raise TypeError("unexpected shape")
        return real(self, file, cursor, **kwargs)

    monkeypatch.setattr(ClaudeCodeHarvester, "read", fails_on_one)
    report = harvest_within_deadline(store, cfg)
    assert report.totals()["errors"] == 1
    [message] = [m for r in report.sources.values() for m in r.error_messages]
    assert message.startswith("cannot parse ") and "unexpected shape" in message
    assert stored_texts(db_file) == ["the good prompt"]

    monkeypatch.setattr(ClaudeCodeHarvester, "read", real)
    harvest_within_deadline(store, cfg)
    assert sorted(stored_texts(db_file)) == ["breaks the parser", "the good prompt"]


def test_a_parse_failure_quoting_a_secret_is_stored_redacted(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file's error is stored text (the harvest job keeps the report's messages): a
    parser's message that quotes the line it failed on is redacted as the line would be."""
    from harvesters.claude_code import ClaudeCodeHarvester

    token = "ghp_Q7f9k2LmZ8xP3vR1T5nB4cY6dF0hJ2sA8eWq"
    good_file(isolated_home)

    def fails(self: Any, file: Any, cursor: Any, **kwargs: Any) -> Any:
        raise ValueError(f'unexpected record {{"cmd": "git push https://{token}@github.com"}}')

    monkeypatch.setattr(ClaudeCodeHarvester, "read", fails)
    report = harvest_within_deadline(store, cfg)
    [message] = [m for r in report.sources.values() for m in r.error_messages]
    assert message.startswith("cannot parse ") and "unexpected record" in message
    assert token not in message and "[REDACTED:" in message


def test_fields_of_the_wrong_type_are_dropped_not_stored_or_fatal(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    sid = "900d900d-0000-4000-8000-0000000000a9"
    record = claude_prompt(sid, "900d900d-0000-4000-8000-0000000000aa", "typed oddly")
    record.update(gitBranch={"not": "a name"}, cwd=["a", "list"], version=12)
    (project(isolated_home) / f"{sid}.jsonl").write_bytes(
        line(record)
        + line({"type": "ai-title", "sessionId": sid, "aiTitle": {"x": 1}})
        + line({"type": "pr-link", "sessionId": sid, "prUrl": [1, 2]})
    )
    codex = isolated_home / "codex" / "sessions" / "2026"
    codex.mkdir(parents=True)
    header = {
        "type": "session_meta",
        "payload": {
            "id": "019e0000-0000-7000-8000-0000000000ab",
            "cwd": {"x": 1},
            "cli_version": 3,
            "timestamp": [1],
            "git": {"branch": ["x"], "repository_url": {"u": 1}, "commit_hash": 7},
        },
    }
    (codex / "rollout-2026-06-05T05-00-00-019e0000-0000-7000-8000-0000000000ab.jsonl").write_bytes(
        line(header) + line(codex_prompt("codex typed oddly"))
    )
    report = harvest_within_deadline(store, cfg).totals()
    assert report["errors"] == 0
    assert {"typed oddly", "codex typed oddly"} <= set(stored_texts(db_file))
    rows = query(db_file, "SELECT git_branch, project_path, agent_version, title FROM sessions")
    assert all(value is None for row in rows for value in row)


@pytest.mark.parametrize("source", ["claude", "codex", "codex-document"])
def test_a_record_the_parser_trips_on_costs_that_line_not_the_file(
    isolated_home: Path,
    cfg: Any,
    store: Any,
    db_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    source: str,
) -> None:
    """A harvester that raises on one record (a shape nobody foresaw) skips and counts that
    line; the lines after it are stored, and the next harvest does not trip on it again."""
    from harvesters.claude_code import _ClaudeFile
    from harvesters.codex import _CodexFile

    trip = "a shape nobody foresaw"
    if source == "claude":
        sid = "900d900d-0000-4000-8000-0000000000e1"
        path = project(isolated_home) / f"{sid}.jsonl"
        path.write_bytes(
            b"".join(
                line(claude_prompt(sid, f"900d900d-0000-4000-8000-0000000000e{n}", text))
                for n, text in enumerate(["before it", trip, "after it"], start=2)
            )
        )
        owner, method = _ClaudeFile, "_user"
    else:
        folder = isolated_home / "codex" / "sessions" / "2026"
        folder.mkdir(parents=True)
        prompts = [codex_prompt(t) for t in ["before it", trip, "after it"]]
        if source == "codex":
            path = folder / "rollout-2026-06-05T05-00-00-019e0000-0000-7000-8000-0000000000e1.jsonl"
            path.write_bytes(b"".join(line(prompt) for prompt in prompts))
        else:  # the 2025 TypeScript CLI's single JSON document: its items are the lines
            session = {"id": "019e0000-0000-7000-8000-0000000000e1", "timestamp": "2025-04-20"}
            path = folder / "rollout-2025-04-20-typed.json"
            items = [prompt["payload"] for prompt in prompts]
            path.write_bytes(orjson.dumps({"session": session, "items": items}))
        owner, method = _CodexFile, "_message"
    real = getattr(owner, method)

    def trips(self: Any, *args: Any) -> Any:
        if trip in orjson.dumps(args, default=str).decode():
            raise TypeError("unhashable type: 'dict'")
        return real(self, *args)

    monkeypatch.setattr(owner, method, trips)
    report = harvest_within_deadline(store, cfg).totals()
    assert (report["errors"], report["malformed_lines"]) == (0, 1)
    texts = stored_texts(db_file)
    assert "before it" in texts and "after it" in texts and trip not in texts
    [(line_no, reason)] = query(db_file, "SELECT line_no, reason FROM skipped_lines")
    assert line_no == (1 if source == "codex-document" else 2) and "TypeError" in reason

    assert harvest_within_deadline(store, cfg).totals()["events_new"] == 0


def with_lone_surrogate(record_json: str) -> bytes:
    """The record with one more field holding a lone UTF-16 surrogate escape: orjson
    refuses the line, so the stdlib parser reads it, and keeps integers of any size."""
    assert record_json.endswith("}")
    return (record_json[:-1] + ', "note": "\\ud800"}\n').encode()


@pytest.mark.both_dbs
def test_numbers_no_column_can_hold_cost_the_figure_not_the_harvest(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """An exit code or a token count past what the store's integer columns hold (32 bits
    on PostgreSQL, 64 on SQLite; over 64 bits the parse state cannot be encoded either)
    is stored as no figure; the event and every line after it are stored."""
    import json

    sid = "900d900d-0000-4000-8000-0000000000f1"
    answer = {
        "type": "assistant",
        "sessionId": sid,
        "uuid": "900d900d-0000-4000-8000-0000000000f3",
        "timestamp": "2026-06-05T05:00:01.000Z",
        "message": {
            "id": "msg_01huge",
            "role": "assistant",
            "model": "claude-x",
            "content": [{"type": "text", "text": "an answer with a huge bill"}],
            "usage": {"input_tokens": 10**30, "output_tokens": 2**40},
        },
    }
    (project(isolated_home) / f"{sid}.jsonl").write_bytes(
        line(claude_prompt(sid, "900d900d-0000-4000-8000-0000000000f2", "ask"))
        + with_lone_surrogate(json.dumps(answer))
        + line(claude_prompt(sid, "900d900d-0000-4000-8000-0000000000f4", "after the bill"))
    )
    folder = isolated_home / "codex" / "sessions" / "2026"
    folder.mkdir(parents=True)
    outputs = [
        {
            "timestamp": "2026-06-05T05:00:02.000Z",
            "type": "response_item",
            "payload": {
                "type": "function_call_output",
                "call_id": f"call_{n}",
                "output": json.dumps({"output": "ran", "metadata": {"exit_code": code}}),
            },
        }
        for n, code in enumerate([10**30, 2**40, -(2**35)])
    ]
    usage = {
        "timestamp": "2026-06-05T05:00:03.000Z",
        "type": "event_msg",
        "payload": {
            "type": "token_count",
            "info": {
                "total_token_usage": {"input_tokens": 10**30},
                "last_token_usage": {"input_tokens": 10**30, "output_tokens": 5},
            },
        },
    }
    (folder / "rollout-2026-06-05T05-00-00-019e0000-0000-7000-8000-0000000000f5.jsonl").write_bytes(
        line(codex_prompt("run it"))
        + b"".join(with_lone_surrogate(json.dumps(o)) for o in outputs)
        + with_lone_surrogate(json.dumps(usage))
        + line(codex_prompt("after the huge exit codes"))
    )
    report = harvest_within_deadline(store, cfg).totals()
    assert (report["errors"], report["malformed_lines"]) == (0, 0)
    texts = stored_texts(db_file)
    assert {"an answer with a huge bill", "after the bill", "after the huge exit codes"} <= set(
        texts
    )
    exit_codes = query(db_file, "SELECT exit_code FROM events WHERE kind = 'tool_result'")
    assert exit_codes == [(None,), (None,), (None,)]
    [tokens] = query(db_file, "SELECT max(input_tokens), max(output_tokens) FROM events")
    assert tokens == (0, 5)
    assert harvest_within_deadline(store, cfg).totals()["events_new"] == 0


@pytest.mark.both_dbs
def test_nul_characters_in_any_field_are_stored_without_stopping_the_harvest(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    import json

    """NUL may sit in a prompt, a tool's output, a name or a session field (a binary file
    printed, a hostile line); PostgreSQL's text refuses it, SQLite keeps it."""
    sid = "900d900d-0000-4000-8000-0000000000b1"
    prompt = claude_prompt(sid, "900d900d-0000-4000-8000-0000000000b2", "before\x00after")
    prompt.update(gitBranch="main\x00x", cwd="/work/nul\x00dir")
    answer = {
        "type": "assistant",
        "sessionId": sid,
        "uuid": "900d900d-0000-4000-8000-0000000000b3",
        "timestamp": "2026-06-05T05:00:01.000Z",
        "message": {
            "id": "msg_01nul",
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_nul\x00", "name": "Ba\x00sh",
                 "input": {"command": "cat bin\x00ary"}},
            ],
        },
    }  # fmt: skip
    (project(isolated_home) / f"{sid}.jsonl").write_bytes(
        line(prompt)
        + line(answer)
        + line(claude_prompt(sid, "900d900d-0000-4000-8000-0000000000b4", "the next turn"))
    )
    codex = isolated_home / "codex" / "sessions" / "2026"
    codex.mkdir(parents=True)
    header = {
        "type": "session_meta",
        "timestamp": "2026-06-05T05:00:00.000Z",
        "payload": {"id": "019e0000-0000-7000-8000-0000000000b5", "originator": "cli\x00x"},
    }
    (codex / "rollout-2026-06-05T05-00-00-019e0000-0000-7000-8000-0000000000b5.jsonl").write_bytes(
        line(header) + line(codex_prompt("codex\x00prompt"))
    )
    report = harvest_within_deadline(store, cfg).totals()
    assert report["errors"] == 0
    texts = stored_texts(db_file)
    assert {"the next turn", "before\ufffdafter", "codex\ufffdprompt"} <= set(texts)
    branches = {b for (b,) in query(db_file, "SELECT git_branch FROM sessions") if b}
    assert branches == {"main\ufffdx"}
    [(meta,)] = query(db_file, "SELECT meta FROM sessions WHERE source = 'codex'")
    stored_meta = json.loads(meta) if isinstance(meta, str) else meta
    assert stored_meta["originator"] == "cli\ufffdx"
    assert harvest_within_deadline(store, cfg).totals()["events_new"] == 0


@pytest.mark.both_dbs
def test_names_and_ids_longer_than_their_columns_are_stored_cut_not_fatal(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """A tool name, a call or message id, a record type, a branch, a model or a version
    longer than the store's column for it (PostgreSQL refuses an over-long value; SQLite
    keeps it) is stored cut to the column; the harvest goes on, and a second one finds
    nothing new."""
    sid = "900d900d-0000-4000-8000-0000000000c7"
    prompt = claude_prompt(sid, "900d900d-0000-4000-8000-0000000000c8", "ask")
    prompt.update(gitBranch="b" * 900, version="v" * 100)
    answer = {
        "type": "assistant",
        "sessionId": sid,
        "uuid": "u" * 400,
        "timestamp": "2026-06-05T05:00:01.000Z",
        "message": {
            "id": "m" * 400,
            "role": "assistant",
            "model": "claude-" + "x" * 300,
            "content": [{"type": "tool_use", "id": "t" * 400, "name": "N" * 400,
                         "input": {"command": "ls"}}],
        },
    }  # fmt: skip
    odd_type = {"type": "y" * 200, "sessionId": sid, "uuid": "900d900d-0000-4000-8000-0000000000c9"}
    (project(isolated_home) / f"{sid}.jsonl").write_bytes(
        line(prompt)
        + line(answer)
        + line(odd_type)
        + line(claude_prompt(sid, "w" * 300 + "1", "one long id"))
        + line(claude_prompt(sid, "w" * 300 + "2", "another long id with the same head"))
        + line(
            {
                **claude_prompt(sid, "900d900d-0000-4000-8000-0000000000ca", "after the long ones"),
                "version": "v" * 100,
            }
        )
    )
    report = harvest_within_deadline(store, cfg).totals()
    assert report["errors"] == 0
    texts = stored_texts(db_file)
    assert {"after the long ones", "one long id", "another long id with the same head"} <= set(
        texts
    )
    [(name, call)] = query(
        db_file, "SELECT tool_name, call_id FROM events WHERE kind = 'tool_call'"
    )
    assert (len(name), len(call)) == (256, 256)
    [(raw_type,)] = query(db_file, "SELECT raw_type FROM events WHERE kind = 'raw'")
    assert len(raw_type) == 64
    [(branch, version, model)] = query(
        db_file, "SELECT git_branch, agent_version, model FROM sessions"
    )
    assert (len(branch), len(version), len(model)) == (512, 64, 128)
    assert harvest_within_deadline(store, cfg).totals()["events_new"] == 0
