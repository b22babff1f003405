"""Handcrafted Claude Code files for the odd cases FORMATS.md names."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from harvesters.claude_code import ClaudeCodeHarvester
from harvesters.records import Batch, EventRecord, FileCursor, SourceFile

SID = "11111111-2222-4333-8444-555555555555"

MakeJsonl = Callable[[Path, Iterable[Any]], Path]


def rec(kind: str, uuid: str, content: Any = None, **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "type": kind,
        "uuid": uuid,
        "sessionId": SID,
        "timestamp": "2026-01-02T03:04:05.000Z",
        "cwd": "/work/app",
        "gitBranch": "main",
        "version": "2.1.92",
    }
    if kind == "user":
        base["message"] = {"role": "user", "content": content}
    base.update(extra)
    return base


def reply(uuid: str, mid: str, blocks: list[dict], out: int, **extra: Any) -> dict[str, Any]:
    usage = {"input_tokens": 3, "output_tokens": out, "cache_read_input_tokens": 100}
    message = {"id": mid, "model": "claude-opus-4-6", "content": blocks, "usage": usage}
    return rec("assistant", uuid, message=message, **extra)


def read(
    path: Path, cursor: FileCursor | None = None, *, now: str | None = None, **kwargs: Any
) -> list[Batch]:
    """The file's batches; `now`: what the harvester's clock reads (else the real time)."""
    clock = None if now is None else (lambda: datetime.fromisoformat(now))
    harvester = ClaudeCodeHarvester([path.parents[1]], clock=clock)
    role = "subagent" if path.name.startswith("agent-") else "main"
    return list(harvester.read(SourceFile(str(path), "claude", role), cursor, **kwargs))  # type: ignore[arg-type]


def events(batches: list[Batch]) -> list[EventRecord]:
    return [e for b in batches for e in b.events]


def session_file(tmp_path: Path) -> Path:
    return tmp_path / "projects" / "-work-app" / f"{SID}.jsonl"


def test_split_message_counts_usage_once_even_across_passes(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    text = {"type": "text", "text": "Looking."}
    call = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}
    make_jsonl(path, [reply("a1", "msg_1", [text], out=5)])
    first = read(path)
    assert [(e.output_tokens, e.cache_read_tokens) for e in events(first)] == [(5, 100)]
    # the same API response continues in a later pass with the final output count
    with path.open("ab") as fh:
        fh.write(orjson.dumps(reply("a2", "msg_1", [call], out=140)) + b"\n")
        fh.write(orjson.dumps(reply("a3", "msg_1", [call | {"id": "toolu_2"}], out=140)) + b"\n")
    second = events(read(path, first[-1].cursor))
    assert sum(e.output_tokens for e in second) == 135  # only what grew: 140 - 5
    assert sum(e.cache_read_tokens + e.input_tokens for e in second) == 0
    assert {e.message_id for e in second} == {"msg_1"}


def test_split_message_puts_what_grew_on_the_record_that_reported_it(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            reply("a1", "msg_1", [{"type": "thinking", "thinking": "hmm"}], out=2),
            reply("a2", "msg_1", [{"type": "text", "text": "done"}], out=90),
        ],
    )
    got = events(read(path))
    assert [(e.kind, e.output_tokens, e.input_tokens) for e in got] == [
        ("thinking", 2, 3),
        ("assistant_text", 88, 0),
    ]
    # read a record at a time, each event carries the same figures
    cursor = None
    one_by_one: list[Any] = []
    for _ in range(2):
        batches = read(path, cursor, batch_lines=1)
        one_by_one.extend(events(batches[:1]))
        cursor = batches[0].cursor
    assert [(e.output_tokens, e.input_tokens) for e in one_by_one] == [(2, 3), (88, 0)]


def test_repeated_uuid_is_kept_once(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    path = session_file(tmp_path)
    prompt = rec("user", "u1", "fix the tests")
    make_jsonl(path, [prompt, prompt, rec("user", "u2", "and lint")])
    got = events(read(path))
    assert [(e.external_id, e.text) for e in got] == [("u1", "fix the tests"), ("u2", "and lint")]


def continues(batches: list[Batch]) -> list[Any]:
    return [s.meta.get("continues") for b in batches for s in b.sessions if s.external_id == SID]


def test_a_file_opening_on_an_answer_to_another_files_record_names_that_record(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """A resume written into a new file without the conversation (1.0.x): its first record
    answers the old file's last record, by which mining finds what it carries on."""
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", "now the other page", parentUuid="old-last")])
    assert continues(read(path)) == ["old-last"]


@pytest.mark.parametrize(
    "first",
    [
        {"parentUuid": None},  # a root: a session of its own
        {},  # no parent field at all
        {"parentUuid": "x" * 300},  # longer than any id the store keeps as written
        {"parentUuid": ["not", "an", "id"]},
    ],
)
def test_a_file_opening_on_a_root_names_no_record_it_continues(
    tmp_path: Path, make_jsonl: MakeJsonl, first: dict[str, Any]
) -> None:
    path = session_file(tmp_path)
    opening = rec("user", "u1", "fix the tests")
    opening.pop("parentUuid", None)
    make_jsonl(path, [{**opening, **first}, rec("user", "u2", "and lint", parentUuid="u0")])
    assert not any(continues(read(path)))


def test_only_a_sessions_first_record_can_name_what_it_continues(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """A record later in the file that answers a record not in it (a rewind to a deleted
    branch, a compaction's lost parent) continues nothing; nor does a file read on."""
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", "fix the tests", parentUuid=None)])
    batches = read(path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "fix the tests", parentUuid=None),
            rec("user", "u2", "and lint", parentUuid="gone"),
        ],
    )
    more = read(path, batches[-1].cursor)
    assert not any(continues(batches + more))


@pytest.mark.parametrize("passes", [1, 2], ids=["read in one pass", "head read first"])
def test_a_session_after_an_earlier_sessions_records_names_the_last_of_them(
    tmp_path: Path, make_jsonl: MakeJsonl, passes: int
) -> None:
    """(From a review.) A file that opens with an earlier session's records under their
    own session id (they stay that session's), then this session's first record answering
    the last of them, names that record however the harvest's passes fell."""
    earlier = "8a5d0d23-b010-4b48-a41c-af16f4d65f57"
    head = [
        rec("user", "h1", "add a dark mode toggle", sessionId=earlier, parentUuid=None),
        reply("h2", "m1", [{"type": "text", "text": "Added."}], 5, sessionId=earlier),
    ]
    own = rec("user", "n1", "the toggle doesn't persist, fix it", parentUuid="h2")
    path = session_file(tmp_path)
    batches: list[Batch] = []
    if passes == 2:
        make_jsonl(path, head)
        batches = read(path)
    make_jsonl(path, [*head, own])
    batches += read(path, batches[-1].cursor if batches else None)
    assert "h2" in continues(batches)


def test_a_fork_names_the_copy_it_goes_on_from(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    """A fork's copies are stored with the session they came from; the fork's first record
    answers the last of them: the point it was forked at, exactly."""
    origin = "22222222-3333-4444-8555-666666666666"
    forked = {"sessionId": origin, "messageUuid": "c1"}
    path = session_file(tmp_path)
    copies = [
        rec("user", "c1", "add a dark mode toggle", parentUuid=None, forkedFrom=forked),
        reply("c2", "m1", [{"type": "text", "text": "Added."}], 5, forkedFrom=forked),
    ]
    make_jsonl(path, [*copies, rec("user", "f1", "now the other page", parentUuid="c2")])
    assert continues(read(path)) == ["c2"]


def test_a_file_an_earlier_sleepd_read_names_nothing_it_continues(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """(From a review.) A cursor an earlier sleepd left holds no mark that the session's
    head was read: the first record read after the upgrade is not the session's first."""
    path = session_file(tmp_path)
    first = [rec("user", "u1", "fix the tests", parentUuid=None)]
    make_jsonl(path, first)
    cursor = read(path)[-1].cursor
    for info in cursor.state.get("sessions", {}).values():
        info.pop("head_read", None)
    make_jsonl(path, [*first, rec("user", "u2", "and lint", parentUuid="u1")])
    assert not any(continues(read(path, cursor)))


def test_compaction_gives_a_marker_and_a_summary_never_a_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    boundary = rec(
        "system",
        "s1",
        subtype="compact_boundary",
        content="Conversation compacted",
        compactMetadata={"trigger": "auto", "preTokens": 1234},
        parentUuid=None,
    )
    summary = rec(
        "user",
        "u1",
        "This session is being continued from a previous conversation. Summary: ...",
        isCompactSummary=True,
        isVisibleInTranscriptOnly=True,
    )
    old_summary = {"type": "summary", "summary": "Fixing CI", "leafUuid": "leaf-1"}
    make_jsonl(path, [old_summary, boundary, summary])
    got = events(read(path))
    assert [(e.kind, e.raw_type) for e in got] == [
        ("summary", "summary"),
        ("meta", "compact_boundary"),
        ("summary", "compact_summary"),
    ]
    assert "preTokens=1234" in got[1].text
    assert got[0].session_external_id == SID  # a summary before the first sessionId waits


def test_summary_only_file_is_not_a_session(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    path = session_file(tmp_path)
    make_jsonl(path, [{"type": "summary", "summary": "Title", "leafUuid": "x"}])
    batches = read(path)
    assert [b.sessions for b in batches] == [[]]
    assert events(batches) == []


def test_interrupts_meta_injections_and_prompts_are_told_apart(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "Caveat: The messages below were generated by the user", isMeta=True),
            rec("user", "u2", "<command-name>/clear</command-name>"),
            rec("user", "u3", "<local-command-stdout>done</local-command-stdout>"),
            rec("user", "u4", [{"type": "text", "text": "[Request interrupted by user]"}]),
            rec(
                "user",
                "u5",
                [
                    {"type": "text", "text": "<ide_opened_file>a.py</ide_opened_file>"},
                    {"type": "text", "text": "make it faster"},
                ],
            ),
            rec("user", "u6", "<system-reminder>be brief</system-reminder>"),
            rec("user", "u7", "expanded skill body", isMeta=True),
        ],
    )
    got = events(read(path))
    assert [(e.external_id, e.kind, e.is_meta) for e in got] == [
        ("u1", "meta", True),
        ("u2", "meta", True),
        ("u3", "meta", True),
        ("u4", "interrupt", False),
        ("u5:0", "meta", True),
        ("u5:1", "user_prompt", False),
        ("u6", "meta", True),
        ("u7", "meta", True),
    ]


def test_a_message_cut_into_blocks_around_its_mentions_is_one_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # ujuc/agent-stuff 35_5fa75ae8fb_1 line 37 (Zed's agent bridge): the words around an
    # @-mention, the mention and the mentioned file's text, each a block of one message
    path = session_file(tmp_path)
    context = '\n<context ref="file:///Users/u/docs/template.md">\n# 공통 템플릿\n</context>'
    make_jsonl(
        path,
        [
            rec(
                "user",
                "u1",
                [
                    {"type": "text", "text": "Agent를 이용해서 문서를 작성할때 "},
                    {"type": "text", "text": "[@template.md](file:///Users/u/docs/template.md)"},
                    {"type": "text", "text": " 을 사용하여 방안을 마련해줘."},
                    {"type": "text", "text": context},
                ],
            ),
            # pieces with no space between them are kept apart on lines of their own
            rec("user", "u2", [{"type": "text", "text": "fix the build"}, "then run the tests"]),
            # typed alone, the same tag is the person's own words
            rec("user", "u3", '<context ref="notes">what I know so far</context> summarise it'),
        ],
    )
    got = [(e.external_id, e.kind, e.text) for e in events(read(path))]
    assert got == [
        (
            "u1:0",
            "user_prompt",
            "Agent를 이용해서 문서를 작성할때 [@template.md](file:///Users/u/docs/template.md)"
            " 을 사용하여 방안을 마련해줘.",
        ),
        ("u1:3", "meta", context),
        ("u2:0", "user_prompt", "fix the build\nthen run the tests"),
        ("u3", "user_prompt", '<context ref="notes">what I know so far</context> summarise it'),
    ]


def test_the_persons_words_after_a_reminder_the_program_wrote_before_them_are_the_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # JanDeDobbeleer/oh-my-posh (MIT), Claude Code 2.1.215 in the desktop app: a background
    # task's reminder written into the same string, ahead of what the person typed
    path = session_file(tmp_path)
    reminder = (
        "<system-reminder>\nThe user started your suggested background task task_71faea4b "
        '("Include .mdx files in markdownlint CI glob") in a separate local session.\n'
        "</system-reminder>\n\n"
    )
    typed = "Can we somehow create a guide on which gradients are supported?"
    human = {"origin": {"kind": "human"}, "promptSource": "sdk"}
    make_jsonl(
        path,
        [
            rec("user", "u1", reminder + typed, **human),
            # the reminder alone, or ahead of what the program wrote, stays the program's
            rec("user", "u2", reminder.strip(), **human),
            rec("user", "u3", reminder + "<task-notification>done</task-notification>", **human),
            rec("user", "u4", reminder + "a notice", origin={"kind": "task-notification"}),
        ],
    )
    got = [(e.external_id, e.kind, e.text) for e in events(read(path))]
    # the reminder is kept as the program's record beside the prompt: nothing is dropped
    assert got[:2] == [("u1:ahead", "meta", reminder), ("u1", "user_prompt", typed)]
    assert [(eid, kind) for eid, kind, _ in got[2:]] == [
        ("u2", "meta"),
        ("u3:ahead", "meta"),
        ("u3", "meta"),
        ("u4", "meta"),
    ]


def test_tool_results_errors_exit_codes_and_persisted_output(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    persisted = (
        "<persisted-output>\nOutput too large (2.5MB). Full output saved to: /x/tool-results/t3.txt"
        "\n\nPreview (first 2KB):\nabc\n</persisted-output>"
    )
    make_jsonl(
        path,
        [
            rec(
                "user",
                "r1",
                [{"type": "tool_result", "tool_use_id": "t1", "content": "Exit code 2\nboom"}],
            ),
            rec(
                "user",
                "r2",
                [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t2",
                        "is_error": True,
                        "content": [
                            {"type": "text", "text": "<tool_use_error>no</tool_use_error>"}
                        ],
                    }
                ],
            ),
            rec("user", "r3", [{"type": "tool_result", "tool_use_id": "t3", "content": persisted}]),
        ],
    )
    got = events(read(path))
    assert [(e.external_id, e.kind, e.call_id, e.is_error, e.exit_code) for e in got] == [
        ("r1", "tool_result", "t1", True, 2),
        ("r1:error", "error", "t1", True, 2),
        ("r2", "tool_result", "t2", True, None),
        ("r2:error", "error", "t2", True, None),
        ("r3", "tool_result", "t3", False, None),
    ]
    assert got[4].raw_type == "persisted-output"
    assert got[4].text_size == int(2.5 * (1 << 20))


def test_a_result_its_record_reports_unsuccessful_is_an_error(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Claude Code's task tools leave `is_error` out and say `{"success": false, "error":
    "Task not found"}` beside the block; the block shows only the error."""
    path = session_file(tmp_path)

    def result(uuid: str, call: str, text: str, outcome: Any) -> dict[str, Any]:
        block = {"type": "tool_result", "tool_use_id": call, "content": text}
        return rec("user", uuid, [block], toolUseResult=outcome)

    make_jsonl(
        path,
        [
            result("r1", "t1", "Task not found", {"success": False, "error": "Task not found"}),
            # success, an error of another call, and shapes a hostile line may give
            result("r2", "t2", "Updated task #4 status", {"success": True, "taskId": "4"}),
            result("r3", "t3", "Updated task #5", {"success": False, "error": "Task not found"}),
            result("r4", "t4", "ok", {"success": "false", "error": "ok"}),
            result("r5", "t5", "ok", {"success": False, "error": ["ok"]}),
            result("r6", "t6", "ok", [{"success": False, "error": "ok"}]),
        ],
    )
    got = [(e.external_id, e.is_error) for e in events(read(path))]
    assert got == [
        ("r1", True),
        ("r1:error", True),
        ("r2", False),
        ("r3", False),
        ("r4", False),
        ("r5", False),
        ("r6", False),
    ]


def test_inline_old_sidechain_is_flagged(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", "search the repo for X", isSidechain=True)])
    [event] = events(read(path))
    assert event.is_sidechain and event.kind == "user_prompt"


def test_unknown_type_is_kept_raw_and_bookkeeping_updates_the_session(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "hello"),
            {"type": "hologram", "sessionId": SID, "payload": {"x": 1}},
            {"type": "custom-title", "customTitle": "My run", "sessionId": SID},
            {"type": "file-history-snapshot", "messageId": "m", "snapshot": {}},
            # Claude Code 2.1.23x bookkeeping, as real sessions write it
            {
                "type": "file-history-delta",
                "messageId": "m2",
                "snapshotMessageId": "m",
                "trackingPath": "cli-tool/SKILL.md",
                "backup": {"backupFileName": None, "version": 1},
                "timestamp": "2026-07-19T15:02:47.709Z",
            },
            {"type": "atis-latch", "atis": "", "sessionId": SID},
            # the desktop app's (2.1.209, JanDeDobbeleer/oh-my-posh's history, MIT)
            {"type": "mode", "mode": "normal", "sessionId": SID},
        ],
    )
    batches = read(path)
    got = events(batches)
    assert [(e.kind, e.raw_type) for e in got] == [("user_prompt", None), ("raw", "hologram")]
    assert got[1].raw is not None and '"hologram"' in got[1].raw
    [session] = batches[-1].sessions
    assert session.title == "My run" and session.project_path == "/work/app"
    assert session.started_at is not None and session.started_at.utcoffset() is not None


def test_huge_text_is_clipped_and_keeps_its_size(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", "é" * 10_000)])
    [event] = events(read(path, max_text_bytes=1000))
    assert event.text_size == 20_000
    assert len(event.text.encode()) < 1100 and "truncated" in event.text


def test_discovers_both_subagent_layouts_and_workflows(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    project = tmp_path / "projects" / "-work-app"
    make_jsonl(project / f"{SID}.jsonl", [rec("user", "u1", "hi")])
    make_jsonl(project / "agent-1a2b3c4d.jsonl", [rec("user", "x", "task", isSidechain=True)])
    make_jsonl(project / SID / "subagents" / "agent-abc1234.jsonl", [])
    make_jsonl(project / SID / "subagents" / "workflows" / "wf1" / "agent-def5678.jsonl", [])
    (project / SID / "subagents" / "agent-abc1234.meta.json").write_text('{"agentType":"x"}')
    (project / SID / "tool-results").mkdir()
    (project / SID / "tool-results" / "t.txt").write_text("big")
    found = [
        (Path(f.path).relative_to(project).as_posix(), f.role)
        for f in ClaudeCodeHarvester([tmp_path / "projects"]).discover()
    ]
    assert found == [
        (f"{SID}.jsonl", "main"),
        ("agent-1a2b3c4d.jsonl", "subagent"),
        (f"{SID}/subagents/agent-abc1234.jsonl", "subagent"),
        (f"{SID}/subagents/workflows/wf1/agent-def5678.jsonl", "subagent"),
    ]
    [batch] = read(project / "agent-1a2b3c4d.jsonl")
    [session] = batch.sessions
    assert session.external_id == f"{SID}:agent-1a2b3c4d"
    assert session.parent_external_id == SID and session.kind == "subagent"


def test_missing_root_and_vanished_file_do_not_raise(tmp_path: Path) -> None:
    harvester = ClaudeCodeHarvester([tmp_path / "nope"])
    assert list(harvester.discover()) == []
    [batch] = read(session_file(tmp_path))
    assert [s.reason for s in batch.skipped] == ["file vanished"]


def queue_op(operation: str, content: Any = None) -> dict[str, Any]:
    op: dict[str, Any] = {
        "type": "queue-operation",
        "operation": operation,
        "timestamp": "2026-01-02T03:05:00.000Z",
        "sessionId": SID,
    }
    if content is not None:
        op["content"] = content
    return op


def test_queued_message_sent_into_the_running_turn_is_a_steering_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """enqueue+dequeue comes back as a user record; enqueue+remove was steering."""
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "add a cache to the loader"),
            queue_op("enqueue", [{"type": "text", "text": "and keep it under 100 lines"}]),
            queue_op("dequeue"),
            queue_op("enqueue", "no, not in utils.py"),
            queue_op("enqueue", "forget this one"),
            queue_op("popAll"),
        ],
    )
    first = read(path)
    prompts = [e.text for e in events(first) if e.kind == "user_prompt"]
    assert prompts == ["add a cache to the loader"]  # nothing consumed as steering yet
    # The queue survives the pass: a later `remove` still knows what was typed.
    with path.open("ab") as fh:
        fh.write(orjson.dumps(queue_op("enqueue", "use the config's path instead")) + b"\n")
        fh.write(orjson.dumps(queue_op("remove")) + b"\n")
    later = [e for e in events(read(path, first[-1].cursor)) if e.kind == "user_prompt"]
    assert [(e.text, e.raw_type, e.is_meta) for e in later] == [
        ("use the config's path instead", "steering", False)
    ]


def test_a_queue_kept_before_its_keys_were_kept_is_still_known(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """A cursor stored by an older harvester keeps the queued texts alone: the next pass
    knows them by their texts, as before."""
    import dataclasses

    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", "add a cache"), queue_op("enqueue", "keep it small")])
    first = read(path)
    state = dict(first[-1].cursor.state)
    assert state.pop("queued_keys")
    older = dataclasses.replace(first[-1].cursor, state=state)
    with path.open("ab") as fh:
        fh.write(orjson.dumps(rec("user", "u2", "keep it small")) + b"\n")  # came back
        fh.write(orjson.dumps(queue_op("enqueue", "and log misses")) + b"\n")
        fh.write(orjson.dumps(queue_op("remove")) + b"\n")
    assert steering_texts(read(path, older)) == ["and log misses"]


def test_a_message_an_older_harvester_told_is_not_told_again_by_its_attachment(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Claude Code 2.1.217 writes enqueue(text), remove, then the attachment. An older
    harvester kept what it told as a digest of the text with its spaces; read on after
    the upgrade, the attachment is still that message."""
    import dataclasses
    import hashlib

    typed = "also run the linter before you push\n"
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", "build the release"), queue_op("enqueue", typed)])
    first = read(path)
    with path.open("ab") as fh:
        fh.write(orjson.dumps(queue_op("remove")) + b"\n")
    told = read(path, first[-1].cursor)
    assert steering_texts(told) == [typed]
    state = dict(told[-1].cursor.state)
    state["told"] = [hashlib.sha256(typed.encode()).hexdigest()[:16]]  # the older digest
    older = dataclasses.replace(told[-1].cursor, state=state)
    attachment = {
        "type": "attachment",
        "uuid": "att-1",
        "parentUuid": "u1",
        "sessionId": SID,
        "timestamp": "2026-01-02T03:05:01.000Z",
        "attachment": {
            "type": "queued_command",
            "prompt": typed,
            "source_uuid": "src-1",
            "commandMode": "prompt",
            "origin": {"kind": "human"},
        },
    }
    with path.open("ab") as fh:
        fh.write(orjson.dumps(attachment) + b"\n")
    assert steering_texts(read(path, older)) == []


def test_a_forks_copy_of_a_message_typed_ahead_tells_nothing(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """A fork copies the first session's records, not its queue's: the copied attachment
    of a message typed ahead is the first session's record, whose own file tells the
    message from its queue. Told from the copy too, that session had the message twice
    (polecatspeaks/StarCar's sessions, cut in two by bench/carried_real.py's fork)."""
    origin = "22222222-3333-4444-8555-666666666666"
    path = session_file(tmp_path)
    copied = {
        "type": "attachment",
        "uuid": "att-1",
        "parentUuid": "u0",
        "sessionId": SID,
        "timestamp": "2026-01-02T03:05:01.000Z",
        "forkedFrom": {"sessionId": origin, "messageUuid": "att-1"},
        "attachment": {
            "type": "queued_command",
            "prompt": "and deploy it",
            "commandMode": "prompt",
            "origin": {"kind": "human"},
        },
    }
    own = {**copied, "uuid": "att-2", "parentUuid": "att-1"}
    del own["forkedFrom"]
    own["attachment"] = {**copied["attachment"], "prompt": "and tag it"}
    make_jsonl(path, [copied, own])
    assert steering_texts(read(path)) == ["and tag it"]


# Claude Code 2.1.112 (dougnukem/orpheus, Entire checkpoint 17/b6bbc6c891, lines 34, 39
# and 40, byte for byte; MIT): the enqueue has no text, the attachment holds it.
ORPHEUS_ENQUEUE = (
    '{"type":"queue-operation","operation":"enqueue","timestamp":"2026-04-17T15:30:08.242Z",'
    '"sessionId":"4601cee9-10d9-4afc-889d-253b74f14046"}'
)
ORPHEUS_QUEUED_COMMAND = (
    '{"parentUuid":"1b742973-67f6-404c-801b-93913718fa99","isSidechain":false,"attachment":'
    '{"type":"queued_command","prompt":[{"type":"text","text":"Also only publish a new nightly '
    'build if there have been changes to main since last nightly build"}],"source_uuid":'
    '"4ec0ea38-78b4-4936-93f7-eb2715001f76","commandMode":"prompt"},"type":"attachment","uuid":'
    '"2b6347f3-4938-4b1a-8c98-2b7098132585","timestamp":"2026-04-17T15:30:09.884Z","userType":'
    '"external","entrypoint":"claude-vscode","cwd":"/Users/ddaniels/Dropbox/orpheus","sessionId":'
    '"4601cee9-10d9-4afc-889d-253b74f14046","version":"2.1.112","gitBranch":"main"}'
)
ORPHEUS_REMOVE = (
    '{"type":"queue-operation","operation":"remove","timestamp":"2026-04-17T15:30:09.884Z",'
    '"sessionId":"4601cee9-10d9-4afc-889d-253b74f14046"}'
)
ORPHEUS_TEXT = (
    "Also only publish a new nightly build if there have been changes to main since last "
    "nightly build"
)


def steering_texts(batches: list[Batch]) -> list[str]:
    return [e.text for e in events(batches) if e.kind == "user_prompt" and e.raw_type == "steering"]


@pytest.mark.parametrize(
    "order",
    [
        pytest.param((ORPHEUS_ENQUEUE, ORPHEUS_QUEUED_COMMAND, ORPHEUS_REMOVE), id="text-first"),
        pytest.param((ORPHEUS_ENQUEUE, ORPHEUS_REMOVE, ORPHEUS_QUEUED_COMMAND), id="remove-first"),
    ],
)
def test_a_queued_message_whose_text_is_only_in_its_attachment_is_a_steering_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl, order: tuple[str, ...]
) -> None:
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", "publish nightly builds"), *map(orjson.loads, order)])
    assert steering_texts(read(path)) == [ORPHEUS_TEXT]


def test_a_queued_message_written_twice_is_one_steering_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Earlier versions (melagiri/code-insights, 2.1.1xx) wrote the text in the enqueue and
    again in an attachment after the remove; an attachment with nothing waiting, or one
    for bash-mode input, adds nothing."""
    path = session_file(tmp_path)
    attachment = orjson.loads(ORPHEUS_QUEUED_COMMAND)
    attachment["attachment"]["prompt"] = "not direct master"
    bash = orjson.loads(ORPHEUS_QUEUED_COMMAND)
    bash["attachment"].update(prompt="git status", commandMode="bash")
    make_jsonl(
        path,
        [
            rec("user", "u1", "create feature branch and add the documentation"),
            queue_op("enqueue", "not direct master"),
            queue_op("remove"),
            attachment,
            attachment,
            queue_op("enqueue"),
            bash,
            queue_op("remove"),
        ],
    )
    assert steering_texts(read(path)) == ["not direct master"]


# FSM1/cipher-box (Entire checkpoint ba/8f57dd43e3, lines 2 and 7, byte for byte; MIT):
# Claude Code queues a background task's notice like a typed message.
CIPHER_BOX_TASK_ENQUEUE = (
    '{"type":"queue-operation","operation":"enqueue","timestamp":"2026-02-20T23:51:27.528Z",'
    '"sessionId":"98766c04-3c5c-47ab-a5c4-04c60afb6bc1","content":"{\\"task_id\\":\\"b4d9efa\\",'
    '\\"description\\":\\"entire status\\",\\"task_type\\":\\"local_bash\\"}"}'
)
CIPHER_BOX_REMOVE = (
    '{"type":"queue-operation","operation":"remove","timestamp":"2026-02-20T23:51:27.878Z",'
    '"sessionId":"98766c04-3c5c-47ab-a5c4-04c60afb6bc1"}'
)


def test_a_background_tasks_queued_notice_is_not_a_person_steering(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Notices Claude Code queues itself (a background task's JSON, a
    `<task-notification>`) pass through the queue like typed messages; consumed by the
    turn they are no one's words, and a message typed after them still is."""
    path = session_file(tmp_path)
    notification = queue_op(
        "enqueue",
        "<task-notification> <task-id>b6efdf7</task-id> <status>completed</status> "
        '<summary>Background command "Test through nginx locally" completed (exit code 0)'
        "</summary> </task-notification>",
    )
    make_jsonl(
        path,
        [
            rec("user", "u1", "check the entire status"),
            orjson.loads(CIPHER_BOX_TASK_ENQUEUE),
            notification,
            queue_op("enqueue", "and show me the hook"),
            orjson.loads(CIPHER_BOX_REMOVE),
            queue_op("remove"),
            queue_op("remove"),
        ],
    )
    assert steering_texts(read(path)) == ["and show me the hook"]


def test_a_background_shells_queued_end_is_not_a_person_steering(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "open the front end"),
            queue_op("enqueue", BASH_NOTIFICATION),
            queue_op("remove"),
            rec("user", "u2", BASH_NOTIFICATION),
        ],
    )
    assert steering_texts(read(path)) == []
    kinds = [(e.kind, e.is_meta) for e in events(read(path))]
    assert ("user_prompt", False) not in kinds[1:]


def test_a_task_notice_left_in_the_queue_never_takes_a_typed_messages_place(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Wild sample 23 (sam-fakhreddine/wfc, Claude Code 2.1.4x, not in the repository): a
    background task's notice is queued and never removed; each message the person typed
    afterwards is removed two seconds after its enqueue. Taking the oldest item for each
    `remove` had given every steering prompt the text of the message before it."""
    path = session_file(tmp_path)
    task = '{"task_id":"b38e795","description":"Delete 4 remote branches","task_type":"local_bash"}'
    make_jsonl(
        path,
        [
            rec("user", "u1", "clean up the merged branches"),
            queue_op("enqueue", task),
            queue_op(
                "enqueue", "note that the repo is going to be different than what is installed"
            ),
            queue_op("remove"),
            queue_op("enqueue", "put that in your memory"),
            queue_op("remove"),
        ],
    )
    assert steering_texts(read(path)) == [
        "note that the repo is going to be different than what is installed",
        "put that in your memory",
    ]


def test_a_message_that_came_back_as_its_own_record_is_no_longer_queued(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """FSM1/cipher-box's history (MIT, Claude Code 2.1.49, not in the repository): two
    background tasks' notices were queued, then the person's message; each `dequeue` took a
    notice in the message's place, and the message came back as a user record of its own.
    Still queued, it was told again as steering by the next textless `remove`, and the
    message that `remove` took ("ok push it up and lets get a pr ready") was lost."""
    path = session_file(tmp_path)
    notice = "<task-notification>\n<task-id>b510c81</task-id>\n</task-notification>"
    task = '{"task_id":"b35ae24","description":"Mount the share","task_type":"local_bash"}'
    make_jsonl(
        path,
        [
            rec("user", "u1", "add debug logging to the rename path"),
            queue_op("enqueue", task),
            queue_op("enqueue", notice),
            queue_op("enqueue", "Im just referring to the logging that was modified"),
            queue_op("dequeue"),
            rec("user", "u2", "Im just referring to the logging that was modified"),
            queue_op("dequeue"),
            queue_op("enqueue", "ok push it up and lets get a pr ready"),
            queue_op("remove"),
        ],
    )
    assert steering_texts(read(path)) == ["ok push it up and lets get a pr ready"]


# entireio/cli (Entire checkpoint 00/c9e2351016/3, line 6; MIT): the message of a
# UserPromptSubmit hook that blocked the prompt, which Claude Code 2.1.29 writes as a plain
# user record with string content.
ENTIRE_HOOK_BLOCK = (
    'Operation stopped by hook: Another session is active: "[Request interrupted by user for '
    'tool use]"\n\nYou can continue here, but checkpoints from both sessions will be '
    "interleaved.\n\nTo resume the other session instead, exit Claude and run: claude -r "
    "0a93878f-dc30-4a5d-882f-3cd81cd3d499\n\nTo suppress this warning in future sessions, "
    "run:\n  entire enable --disable-multisession-warning\n\nPress the up arrow key to get "
    "your prompt back."
)


# thomas0369/claude_ai (wild sample 36, not in the repository; MIT), Claude Code 2.0.19:
# a Stop hook that blocked the agent's stop, its reason handed back as a plain user record.
STOP_HOOK_FEEDBACK = (
    "Stop hook feedback:\nYou have 6 incomplete todo items. You must complete all tasks "
    "before stopping:\n\n  - [in_progress] Create immersive game mode with auto-hiding HUD"
)


def test_a_stop_hooks_feedback_is_not_a_typed_prompt(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", STOP_HOOK_FEEDBACK),
            rec("user", "u2", "SubagentStop hook feedback:\nRun the linter first."),
            rec("user", "u3", "why does the stop hook feedback keep showing up?"),
        ],
    )
    kinds = [(e.kind, e.is_meta) for e in events(read(path))]
    assert kinds == [("meta", True), ("meta", True), ("user_prompt", False)]


def test_the_records_of_a_turns_end_are_kept_as_its_end(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Claude Code's Stop hook progress, its hooks' summary and the turn's timing are the
    agent's turn ending (duet f7_fb5396fe00_2 and napoli-matcha 92_9ec269b1ce_1, real
    shapes): mining must find them after the harvest, and never a subagent's stop."""
    from sleepd.mining.episodes import EventView, ends_the_agents_turn

    path = session_file(tmp_path)
    stop = {"type": "hook_progress", "hookEvent": "Stop", "hookName": "Stop", "command": "x"}
    sub = {"type": "hook_progress", "hookEvent": "SubagentStop", "hookName": "SubagentStop"}
    # Claude Code 2.1.112 writes the Stop hook's result, with nothing printed, as an
    # attachment (dougnukem/orpheus 17_b6bbc6c891_1): bench/versions_real's hunt found
    # it ended no turn, its empty `content` having stood for the whole record
    stop_result = {
        "type": "hook_success",
        "hookName": "Stop",
        "toolUseID": "3fcd53b0-b29f-4600-8035-d02885a0376f",
        "hookEvent": "Stop",
        "content": "",
        "stdout": "{}\n",
        "stderr": "",
        "exitCode": 0,
        "command": "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/stop.py",
        "durationMs": 62,
    }
    sub_result = {**stop_result, "hookName": "SubagentStop", "hookEvent": "SubagentStop"}
    # one that printed something (handgemacht-ai/claude-code-log ef958aa1, 2.1.114): its
    # `content` is what it printed, and still the record says which hook it was
    printed = {**stop_result, "content": "Status set to idle: worktrees"}
    make_jsonl(
        path,
        [
            rec("user", "u1", "commit"),
            rec("progress", "p1", data=stop, toolUseID="t1", parentToolUseID="t1"),
            rec("progress", "p2", data=sub, toolUseID="t2", parentToolUseID="t2"),
            rec("attachment", "a1", attachment=stop_result),
            rec("attachment", "a2", attachment=sub_result),
            rec("attachment", "a3", attachment=printed),
            rec(
                "system",
                "s1",
                subtype="stop_hook_summary",
                hookCount=1,
                hookInfos=[{"command": "entire hooks claude-code stop", "durationMs": 481}],
                hookErrors=[],
                preventedContinuation=False,
                stopReason="",
                hasOutput=False,
                level="suggestion",
            ),
            rec("system", "s2", subtype="turn_duration", durationMs=35742, isMeta=False),
        ],
    )
    stored = events(read(path))[1:]
    views = [
        EventView(i, i, e.kind, e.role, e.text, is_sidechain=e.is_sidechain, raw_type=e.raw_type)
        for i, e in enumerate(stored)
    ]
    assert [ends_the_agents_turn(v) for v in views] == [
        True, False, True, False, True, True, True
    ]  # fmt: skip
    assert "Status set to idle: worktrees" in stored[4].text  # what it printed is kept


# flop-labs/technocore-chat (wild sample 38, not in the repository; Apache-2.0), Claude Code
# 2.1.227 in the desktop app: its CI monitor writes a pull request's new review comments as a
# user record (`origin.kind` says "human", `promptSource` "sdk"); no person typed it.
CI_MONITOR_EVENT = (
    "<ci-monitor-event>flop-labs/flop-core PR #1280 has 3 new review comments:\n"
    "- chatgpt-codex-connector[bot] (commented): \n### 💡 Codex Review\n\nHere are some "
    "automated review suggestions for this pull request.</ci-monitor-event>"
)


# isaacmorgado/claude-sovereign (wild sample 53, not in the repository; MIT), Claude Code
# 2.0.76: a background shell that was killed is reported as a user record (and queued first
# when the agent is busy); no person typed it.
BASH_NOTIFICATION = (
    "<bash-notification>\n<shell-id>be3f734</shell-id>\n<output-file>/tmp/claude/tasks/"
    "be3f734.output</output-file>\n<status>killed</status>\n<summary>Background command "
    '"Start Next.js frontend dev server" was killed.</summary>\nRead the output file to '
    "retrieve the output.\n</bash-notification>"
)


@pytest.mark.parametrize(
    ("injected", "typed"),
    [
        pytest.param(ENTIRE_HOOK_BLOCK, "fix tests", id="a blocking hook's message"),
        pytest.param(BASH_NOTIFICATION, "open the front end", id="a background shell's end"),
        pytest.param(
            BASH_NOTIFICATION.replace("bash-notification", "monitor-notification"),
            "open the front end",
            id="a notice of a kind not yet seen",
        ),
        pytest.param(
            CI_MONITOR_EVENT, "address the review comments", id="the desktop app's CI monitor"
        ),
    ],
)
def test_a_record_claude_code_injected_is_not_a_typed_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl, injected: str, typed: str
) -> None:
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", injected), rec("user", "u2", typed)])
    kinds = [(e.kind, e.is_meta) for e in events(read(path))]
    assert kinds == [("meta", True), ("user_prompt", False)]


# teslamint/entirecontext (Entire checkpoint 39/01M0CV5D1MQXCRJBJXKV1JQ939/0, line 381; MIT):
# with agent teams, Claude Code writes a teammate session's message as a plain user record
# with string content behind this preamble; the person typed none of it.
TEAMMATE_MESSAGE = (
    'Another Claude session sent a message:\n<teammate-message teammate_id="design-review" '
    'color="blue">\n{"type":"idle_notification","from":"design-review","idleReason":'
    '"available","summary":"[to main] MCP 2.0 migration design review — VERDICT: REVISE"}\n'
    "</teammate-message>\n\nThis came from another Claude session — not typed by your user, "
    "but very likely working on their behalf."
)


# Claude Code 2.1.2xx delivers what another session, a team's lead, a channel or its own
# background agents say as user records, in these forms (constructed here after the
# strings Claude Code writes; each is written with no `origin` and no `isMeta`, as a
# version that does not mark them, or a record stored before the marks, would have it).
PEER_MESSAGES = [
    pytest.param(TEAMMATE_MESSAGE, id="an agent team member's message"),
    pytest.param(
        '<cross-session-message from="uds:/run/user/1000/cc-socks/4411.sock" '
        'from-name="api-worker">\nmigration done, 3 tables left\n</cross-session-message>',
        id="SendMessage's tag",
    ),
    pytest.param(
        "Another Claude session sent a message while you were working:\n"
        '<cross-session-message from="s2">tests pass on my side</cross-session-message>',
        id="another session's message while the agent worked",
    ),
    pytest.param(
        "A peer session sent a message while you were working:\nthe schema changed",
        id="a peer's message while the agent worked",
    ),
    pytest.param(
        '<agent-message from="review-security">\nthree findings\n</agent-message>',
        id="a team member's message in its tag",
    ),
    pytest.param(
        "The coordinator sent a message while you were working:\nstop after the parser"
        "\n\nAddress this before completing your current task.",
        id="the lead's message to a member",
    ),
    pytest.param(
        '<channel source="webhook" severity="high">\nbuild 812 failed on main\n</channel>',
        id="a channel's event",
    ),
    pytest.param(
        "A message arrived from telegram while you were working:\ndeploy it\n\n"
        "IMPORTANT: This is NOT from your user — it came from an external channel.",
        id="a channel's event while the agent worked",
    ),
    pytest.param(
        "A background agent completed a task:\n<task-notification>…</task-notification>",
        id="a background agent's end",
    ),
    pytest.param(
        'Background agent "Research task. Say "done" when\nevery service is audited" was '
        "stopped by the user.",
        id="one background agent stopped",
    ),
    pytest.param(
        '2 background agents were stopped by the user: "audit every service", "migrate '
        'the handlers".',
        id="several background agents stopped",
    ),
]


@pytest.mark.parametrize("injected", PEER_MESSAGES)
def test_what_another_session_or_agent_says_is_not_a_typed_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl, injected: str
) -> None:
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [rec("user", "u1", "migrate the schema"), rec("user", "u2", injected)],
    )
    kinds = [(e.kind, e.is_meta) for e in events(read(path))]
    assert kinds == [("user_prompt", False), ("meta", True)]


@pytest.mark.parametrize(
    "typed",
    [
        "Background agent keeps timing out, can you look?",
        "The coordinator sent a message to the wrong queue, fix the routing",
        "Another Claude session sent a message that broke the parser: fix it",
        "A message arrived from the webhook with no body; handle that case",
        "<channel> is missing from the RSS feed, add it",
    ],
)
def test_a_person_writing_about_sessions_and_agents_is_still_typing(
    tmp_path: Path, make_jsonl: MakeJsonl, typed: str
) -> None:
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", typed)])
    assert [(e.kind, e.is_meta) for e in events(read(path))] == [("user_prompt", False)]


def test_a_record_marked_synthetic_is_not_a_typed_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Claude Code marks another session's message delivered here `isSynthetic`, whatever
    words it carries."""
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "migrate the schema"),
            rec("user", "u2", "the tables are done, start on the views", isSynthetic=True),
            rec("user", "u3", "and the indexes", isSynthetic=False),
        ],
    )
    kinds = [(e.kind, e.is_meta) for e in events(read(path))]
    assert kinds == [("user_prompt", False), ("meta", True), ("user_prompt", False)]


@pytest.mark.parametrize("entrypoint", ["cli", "sdk-cli", "claude-desktop"])
def test_how_a_session_was_started_is_kept_as_its_origin(
    tmp_path: Path, make_jsonl: MakeJsonl, entrypoint: str
) -> None:
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "review the diff", entrypoint=entrypoint),
            # a later record cannot change how the session was started
            rec("user", "u2", "and the tests", entrypoint="cli" if entrypoint != "cli" else "x"),
        ],
    )
    (session,) = [s for b in read(path) for s in b.sessions]
    assert session.meta["origin"] == entrypoint


#: The opening prompt of a real session Goose drove through Claude Code 2.0.76 (no
#: entrypoint written; isaacmorgado/claude-sovereign, not in the repository): Goose's own
#: conversation, serialized as JSON, handed over as one prompt.
GOOSE_HISTORY = (
    '[{"role":"user","content":[{"type":"text","text":"What do you have access to? can you '
    'access the CLI within Goose?"}]},{"role":"assistant","content":[{"type":"text","text":'
    '"I have access to a wide range of capabilities!"}]},{"role":"user","content":[{"type":'
    '"text","text":"ok, list the files here"}]}]'
)


@pytest.mark.parametrize(
    ("records", "origin"),
    [
        # the opening prompt is a program's serialized conversation: a program started it
        ([("u1", GOOSE_HISTORY, {"parentUuid": None})], "serialized-history"),
        # the session's own entrypoint, where written, says more than the prompt
        ([("u1", GOOSE_HISTORY, {"parentUuid": None, "entrypoint": "cli"})], "cli"),
        # a person's session: a JSON pasted later, or JSON that is no conversation
        (
            [("u1", "why does the API reject this?", {"parentUuid": None}),
             ("u2", GOOSE_HISTORY, {"parentUuid": "a1"})],
            None,
        ),
        ([("u1", '[{"role": "admin"}, {"name": "x"}]', {"parentUuid": None})], None),
        ([("u1", '[{"role": "user", "content": "hi"', {"parentUuid": None})], None),
    ],
)  # fmt: skip
def test_a_session_opened_by_a_serialized_conversation_was_started_by_a_program(
    tmp_path: Path, make_jsonl: MakeJsonl, records: list[tuple[str, str, dict]], origin: str | None
) -> None:
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", uuid, text, **extra) for uuid, text, extra in records])
    (session,) = [s for b in read(path) for s in b.sessions]
    assert session.meta.get("origin") == origin


def test_an_entrypoint_that_is_no_string_is_not_kept(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    path = session_file(tmp_path)
    make_jsonl(path, [rec("user", "u1", "hi", entrypoint={"sdk": True})])
    (session,) = [s for b in read(path) for s in b.sessions]
    assert "origin" not in session.meta


def test_turns_written_with_an_earlier_sessions_id_under_this_sessions_answers_join_it(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # Claude Code 1.0.57 continuing a conversation that ran out of context (a real file in
    # wild sample 28, not in the repository): the summary and the person's turns carry the
    # old session's id, the agent's answers the file's own, each turn replying to one
    old = "dc5528c8-03bd-47f4-b62d-e1ea71f7408b"
    path = session_file(tmp_path)
    text = {"type": "text", "text": "The fix has been applied."}
    make_jsonl(
        path,
        [
            rec("user", "u0", "This session is being continued from a previous conversation",
                sessionId=old, isCompactSummary=True),
            reply("a1", "msg_1", [text], out=5, parentUuid="u0"),
            rec("user", "u1", "the behavior is still unstable", sessionId=old, parentUuid="a1"),
            reply("a2", "msg_2", [text], out=5, parentUuid="u1"),
            rec("user", "u2", "the values are still wrong", sessionId=old, parentUuid="a2"),
        ],
    )  # fmt: skip
    batches = read(path)
    by_id = {e.external_id: e.session_external_id for e in events(batches)}
    assert by_id["u1"] == by_id["u2"] == by_id["a1"] == SID
    # the summary it continued from (no parent) is the old session's, as before
    assert {s.external_id for b in batches for s in b.sessions} == {old, SID}
    # read a line at a time (each batch a commit of its own), the same
    one_by_one = {e.external_id: e.session_external_id for e in events(read(path, batch_lines=1))}
    assert one_by_one == by_id


def test_an_earlier_sessions_records_replayed_at_the_head_stay_that_sessions(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    old = "dc5528c8-03bd-47f4-b62d-e1ea71f7408b"
    path = session_file(tmp_path)
    text = {"type": "text", "text": "Done."}
    make_jsonl(
        path,
        [
            rec("user", "p1", "add a health check", sessionId=old),
            reply("p2", "msg_1", [text], out=5, sessionId=old, parentUuid="p1"),
            rec("user", "n1", "now add metrics", parentUuid="p2"),
            reply("n2", "msg_2", [text], out=5, parentUuid="n1"),
        ],
    )
    by_id = {e.external_id: e.session_external_id for e in events(read(path))}
    assert by_id["p1"] == by_id["p2"] == old
    assert by_id["n1"] == by_id["n2"] == SID


#: The planning session's id, and the records Claude Code 2.1.12 opened the new session's
#: file with when a plan was taken with "clear context" (entireio/cli's history, blind set
#: 82, not in the repository): the start hook and the plan as the person's prompt under
#: the planning session's id, the new session's agent answering under its own.
PLANNING = "2a8af1a8-f8cc-4816-a463-12df7a999930"
PLAN = "Implement the following plan:\n\n# Review: TokenUsage Implementation Across Strategies"


def _handoff(answered_at: str = "2026-01-19T03:24:34.866Z", answers: str = "p1") -> list[Any]:
    hook = {"type": "hook_progress", "hookEvent": "SessionStart", "hookName": "SessionStart:clear"}
    thinking = {"type": "text", "text": "The user wants me to implement the plan."}
    call = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}
    done = {"type": "text", "text": "Done. I've implemented the plan."}
    stop = {"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse"}
    return [
        rec("progress", "h1", sessionId=PLANNING, parentUuid=None, data=stop | hook,
            timestamp="2026-01-19T03:24:29.405Z"),
        rec("user", "p1", PLAN, sessionId=PLANNING, parentUuid="h1",
            timestamp="2026-01-19T03:24:29.420Z"),
        reply("a1", "msg_1", [thinking, call], out=5, parentUuid=answers, timestamp=answered_at),
        rec("user", "r1", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "go.mod"}],
            parentUuid="a1", timestamp="2026-01-19T03:24:37.000Z"),
        # a hook's record after the call, still under the planning session's id
        rec("progress", "h2", sessionId=PLANNING, parentUuid="r1", data=stop,
            timestamp="2026-01-19T03:24:38.252Z"),
        reply("a2", "msg_2", [done], out=9, parentUuid="h2", timestamp="2026-01-19T03:26:57.866Z"),
    ]  # fmt: skip


def test_a_plan_taken_with_a_clear_context_opens_the_new_session(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = make_jsonl(session_file(tmp_path), _handoff())
    batches = read(path)
    by_id = {e.external_id: e.session_external_id for e in events(batches)}
    assert set(by_id.values()) == {SID}
    assert {s.external_id for b in batches for s in b.sessions} == {SID}
    prompts = [e for e in events(batches) if e.kind == "user_prompt"]
    assert [p.text for p in prompts] == [PLAN]
    (session,) = {s.external_id: s for b in batches for s in b.sessions}.values()
    assert session.started_at is not None and session.started_at.isoformat().startswith(
        "2026-01-19T03:24:29"
    )
    # read a line at a time (each batch a commit of its own), the same
    one_by_one = {e.external_id: e.session_external_id for e in events(read(path, batch_lines=1))}
    assert one_by_one == by_id


def test_a_head_written_before_the_agent_answered_waits_for_the_answer(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """A harvest that reads the file between the prompt and the answer stores nothing of the
    head yet; the next, once the answer is written, stores it with the new session."""
    records = _handoff()
    path = make_jsonl(session_file(tmp_path), records[:2])
    first = read(path, now=SOON)
    assert events(first) == []
    with path.open("ab") as fh:
        for record in records[2:]:
            fh.write(orjson.dumps(record) + b"\n")
    later = events(read(path, first[-1].cursor, now=LATE))
    assert {e.external_id: e.session_external_id for e in later}["p1"] == SID


#: Clock readings for a head written at 03:24:29 (`_handoff`): before its answer could
#: still come, and long after it could.
SOON = "2026-01-19T03:25:00+00:00"
LATE = "2026-01-19T04:00:00+00:00"


def test_a_held_head_is_read_again_until_it_can_no_longer_be_answered(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """A session that ended before its agent wrote a word (a crash after the handoff):
    the file never grows again, and its head is stored with the id it carries once no
    answer can come soon after, by the next harvest after that (no harvest skips it)."""
    path = make_jsonl(session_file(tmp_path), _handoff()[:2])
    (first,) = read(path, now=SOON)
    assert events([first]) == []
    assert first.cursor.mtime_ns == 0  # no harvest finds the file unchanged
    (still,) = read(path, first.cursor, now=SOON)
    assert events([still]) == [] and still.cursor.mtime_ns == 0
    (settled,) = read(path, still.cursor, now=LATE)
    by_id = {e.external_id: e.session_external_id for e in events([settled])}
    assert by_id == {"h1": PLANNING, "p1": PLANNING}
    assert [s.external_id for s in settled.sessions] == [PLANNING]
    assert settled.cursor.mtime_ns == path.stat().st_mtime_ns
    assert "held" not in settled.cursor.state
    # read again, nothing more: the head was stored once
    assert events(read(path, settled.cursor, now=LATE)) == []


def test_a_held_head_before_an_unfinished_last_line_is_settled_too(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # a crash can leave half a record after the head: the file's last complete line
    # is the end that counts, or the head was never settled and the file read forever
    path = make_jsonl(session_file(tmp_path), _handoff()[:2])
    with path.open("ab") as fh:
        fh.write(b'{"type": "assistant", "uuid": "a1", "mess')
    (first,) = read(path, now=SOON)
    assert events([first]) == [] and first.cursor.mtime_ns == 0
    (settled,) = read(path, first.cursor, now=LATE)
    assert {e.external_id: e.session_external_id for e in events([settled])} == {
        "h1": PLANNING,
        "p1": PLANNING,
    }
    assert settled.cursor.mtime_ns == path.stat().st_mtime_ns
    assert settled.cursor.offset < path.stat().st_size  # the half record waits, as always


def test_a_head_read_long_after_it_was_written_is_settled_at_the_end_of_the_file(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # a first harvest of an old history: the head's answer, if any, is in the file, so
    # only the file's end settles it, however many batches it is read in
    path = make_jsonl(session_file(tmp_path), _handoff())
    by_id = {e.external_id: e.session_external_id for e in events(read(path, batch_lines=1))}
    assert by_id["p1"] == SID
    crashed = make_jsonl(session_file(tmp_path / "b"), _handoff()[:2])
    batches = read(crashed, batch_lines=1)
    assert {e.external_id: e.session_external_id for e in events(batches)} == {
        "h1": PLANNING,
        "p1": PLANNING,
    }


def test_a_held_head_with_a_hostile_field_keeps_a_small_state(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    records = _handoff()
    for record in records[:2]:
        record["cwd"] = "/work/" + "a" * 1_000_000
    path = make_jsonl(session_file(tmp_path), records[:2])
    (batch,) = read(path)
    assert len(orjson.dumps(batch.cursor.state)) < 50_000
    with path.open("ab") as fh:
        for record in records[2:]:
            fh.write(orjson.dumps(record) + b"\n")
    later = read(path, batch.cursor)
    assert {e.session_external_id for e in events(later)} == {SID}


@pytest.mark.parametrize(
    ("answered_at", "answers"),
    [
        # the file's agent answers something else: the head is not its session's
        ("2026-01-19T03:24:34.866Z", "h1x"),
        # an answer dated hours after the head: a prompt copied from an earlier session
        ("2026-01-19T09:24:34.866Z", "p1"),
    ],
)
def test_a_head_not_answered_at_once_by_the_files_agent_keeps_its_id(
    tmp_path: Path, make_jsonl: MakeJsonl, answered_at: str, answers: str
) -> None:
    path = make_jsonl(session_file(tmp_path), _handoff(answered_at, answers))
    by_id = {e.external_id: e.session_external_id for e in events(read(path))}
    assert by_id["p1"] == by_id["h1"] == PLANNING
    assert {s for e, s in by_id.items() if e.startswith("a")} == {SID}


def test_an_api_error_written_without_its_flag_is_the_services_error(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Claude Code 2.0.1 (wild sample 51) wrote "API Error: 400 …" as a `<synthetic>`
    message without `isApiErrorMessage`; its "No response requested." is no error."""

    def synthetic(uuid: str, text: str) -> dict[str, Any]:
        message = {"id": uuid, "model": "<synthetic>", "content": [{"type": "text", "text": text}]}
        return rec("assistant", uuid, message=message)

    path = make_jsonl(
        session_file(tmp_path),
        [
            rec("user", "u1", "fix the checkout"),
            synthetic(
                "a1", 'API Error: 400 {"type":"error","error":{"type":"invalid_request_error"}}'
            ),
            synthetic("a2", "No response requested."),
        ],
    )
    got = {e.external_id: (e.kind, e.is_error) for e in events(read(path))}
    assert got["a1"] == ("error", True)
    assert got["a2"] == ("assistant_text", False)


def test_an_earlier_sessions_prompts_copied_under_this_sessions_answers_stay_its(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Claude Code 1.0.x resuming a session into a new file (wild sample 51): the earlier
    session's prompts keep their ids and times, the answers carry this session's id and the
    time of the resume, each prompt replying to the answer before it. A prompt dated before
    the answer it replies to was not typed after it: it stays the earlier session's, so a
    harvest of both files stores it once; what the person typed after the resume is this
    session's."""
    old = "8a5d0d23-b010-4b48-a41c-af16f4d65f57"
    resumed_at = "2025-09-16T12:02:10.249Z"
    path = session_file(tmp_path)
    text = {"type": "text", "text": "Done."}
    make_jsonl(
        path,
        [
            rec("user", "p1", "design the sync system", sessionId=old,
                timestamp="2025-09-16T10:54:16.956Z"),
            reply("a1", "msg_1", [text], out=5, parentUuid="p1", timestamp=resumed_at),
            rec("user", "p2", "save it to my google drive", sessionId=old, parentUuid="a1",
                timestamp="2025-09-16T11:51:53.988Z"),
            reply("a2", "msg_2", [text], out=5, parentUuid="p2", timestamp=resumed_at),
            rec("user", "n1", "ok we are in rclone, set up autosync", parentUuid="a2",
                timestamp="2025-09-16T12:02:39.329Z"),
        ],
    )  # fmt: skip
    by_id = {e.external_id: e.session_external_id for e in events(read(path))}
    assert by_id["p1"] == by_id["p2"] == old
    assert by_id["n1"] == SID


@pytest.mark.parametrize(
    "marks",
    [
        # polecatspeaks/StarCar (wild sample 57, not in the repository; MIT), Claude Code
        # 2.1.218: a background agent's end, with the program as its source
        pytest.param(
            {"origin": {"kind": "task-notification"}, "promptSource": "system"}, id="a notice"
        ),
        # a kind of record not seen yet, written by the program
        pytest.param({"origin": {"kind": "scheduled-loop"}}, id="a kind not yet seen"),
        pytest.param({"promptSource": "system"}, id="the system as its source"),
    ],
)
def test_a_record_claude_code_says_it_wrote_itself_is_not_a_typed_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl, marks: dict[str, Any]
) -> None:
    """Whatever its text: here a line that would otherwise read as a request."""
    path = session_file(tmp_path)
    typed = {"origin": {"kind": "human"}, "promptSource": "typed"}
    make_jsonl(
        path,
        [
            rec("user", "u1", "Review the design doc and list the gaps", **marks),
            rec("user", "u2", "review the design", **typed),
            # the desktop app's CI monitor says "human" and "sdk": its text decides
            rec("user", "u3", CI_MONITOR_EVENT, origin={"kind": "human"}, promptSource="sdk"),
        ],
    )
    kinds = [(e.kind, e.is_meta) for e in events(read(path))]
    assert kinds == [("meta", True), ("user_prompt", False), ("meta", True)]


def test_an_attached_or_read_document_is_a_placeholder_not_its_base64(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """A PDF comes as a `document` block, beside the prompt or in a Read tool's result:
    what is stored says what it was, as an image does; a plain-text document keeps its
    words, as context."""
    pdf = "JVBERi0xLjcKJeLjz9MK" * 2000
    document = {
        "type": "document",
        "source": {"type": "base64", "media_type": "application/pdf", "data": pdf},
    }
    plain = {"type": "document", "source": {"type": "text", "data": "meeting notes: ship v2"}}
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", [document, {"type": "text", "text": "summarise this paper"}]),
            rec("user", "u2", [plain, {"type": "text", "text": "what did we decide?"}]),
            rec(
                "user", "u3", [{"type": "tool_result", "tool_use_id": "t1", "content": [document]}]
            ),
        ],
    )
    found = events(read(path))
    assert all(pdf[:40] not in (e.text or "") for e in found)
    prompts = [e.text for e in found if e.kind == "user_prompt"]
    size = len(pdf) * 3 // 4
    assert prompts == [
        f"[document: application/pdf, {size} bytes]\nsummarise this paper",
        "what did we decide?",
    ]
    [context] = [e for e in found if e.raw_type == "block:document"]
    assert context.is_meta and context.text == "meeting notes: ship v2"
    [result] = [e for e in found if e.kind == "tool_result"]
    assert result.text == f"[document: application/pdf, {size} bytes]"


# Claude Code 2.1.219 (JanDeDobbeleer/oh-my-posh, a session of its maintainer's history,
# line 287, byte for byte; MIT): a message typed while the agent ran and consumed mid-turn
# leaves no queue record and no user record, only this attachment, marked as typed by a
# person.
POSH_QUEUED_COMMAND = (
    '{"parentUuid":"b8eaee72-920d-427c-82cc-c6134e6eaf14","isSidechain":false,"attachment":'
    '{"type":"queued_command","prompt":"hide the table on content for generated indexes. When '
    'using front matter, it\'s possible to use hide_table_of_contents: true","source_uuid":'
    '"59d59525-c158-4056-9049-143b9edc8df4","commandMode":"prompt","origin":{"kind":"human"},'
    '"timestamp":"2026-07-29T04:58:10.413Z"},"type":"attachment","uuid":'
    '"18c1d9c5-2969-4e42-a634-afeaf1ac9f44","timestamp":"2026-07-29T04:58:10.413Z","userType":'
    '"external","entrypoint":"claude-desktop","cwd":"D:\\\\oh-my-posh","sessionId":'
    '"6b6f4218-0b12-4d55-b930-462903683bea","version":"2.1.219","gitBranch":"themes-svg"}'
)
POSH_TEXT = (
    "hide the table on content for generated indexes. When using front matter, it's possible "
    "to use hide_table_of_contents: true"
)


def test_a_message_typed_mid_turn_with_no_queue_record_is_a_steering_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    attachment = orjson.loads(POSH_QUEUED_COMMAND)
    make_jsonl(path, [rec("user", "u1", "let segment docs edit their source"), attachment])
    assert steering_texts(read(path)) == [POSH_TEXT]


def test_a_persons_message_told_by_its_queue_record_and_its_attachment_counts_once(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """2.1.217/2.1.218 (polecatspeaks/StarCar, flop-labs/technocore-chat) write the text in
    the enqueue, then the attachment marked "human" beside the remove, before or after it;
    the same attachment written twice counts once, and a program's message (a background
    task's notice) is never a person's."""
    attachment = orjson.loads(POSH_QUEUED_COMMAND)
    notice = orjson.loads(POSH_QUEUED_COMMAND)
    notice["attachment"].update(
        prompt="<task-notification><status>completed</status></task-notification>",
        source_uuid="0f0e",
    )
    for order in (
        [queue_op("enqueue", POSH_TEXT), queue_op("remove"), attachment, attachment],
        [queue_op("enqueue", POSH_TEXT), attachment, queue_op("remove")],
    ):
        path = session_file(tmp_path)
        make_jsonl(path, [rec("user", "u1", "let segment docs edit their source"), *order, notice])
        assert steering_texts(read(path)) == [POSH_TEXT]


@pytest.mark.parametrize("kind", ["peer", "channel", "task-notification", "coordinator"])
def test_a_waiting_message_another_session_or_a_channel_sent_is_not_the_persons(
    tmp_path: Path, make_jsonl: MakeJsonl, kind: str
) -> None:
    """A message another session (Claude Code 2.1.224's `SendMessage`), a channel or a
    background task put in while the agent ran, its attachment marked with that origin: not
    the person's steering, even where a `remove` with no text left a person's message
    waiting for its words, and its words fill no such message."""
    peer = orjson.loads(POSH_QUEUED_COMMAND)
    peer["attachment"].update(
        prompt="the schema migration is done on my side", origin={"kind": kind}, source_uuid="p1"
    )
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "let segment docs edit their source"),
            queue_op("enqueue"),
            queue_op("remove"),
            peer,
        ],
    )
    assert steering_texts(read(path)) == []
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "let segment docs edit their source"),
            queue_op("enqueue"),
            peer,
            queue_op("remove"),
        ],
    )
    assert "the schema migration is done on my side" not in steering_texts(read(path))


def test_an_attachment_not_marked_as_typed_by_a_person_still_needs_its_queue_record(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    attachment = orjson.loads(POSH_QUEUED_COMMAND)
    del attachment["attachment"]["origin"]
    make_jsonl(path, [rec("user", "u1", "let segment docs edit their source"), attachment])
    assert steering_texts(read(path)) == []


_NOTICE = (
    "<task-notification>\n<task-id>ab2b3b6a8a3d07c85</task-id>\n<status>completed</status>\n"
    "</task-notification>"
)
_PROPOSAL = (
    "Proposal B had some really great design for the segment catalog, and I really want that "
    "implemented first."
)


def test_a_remove_that_names_a_notice_tells_no_persons_message_again(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """JanDeDobbeleer/oh-my-posh (Claude Code 2.1.217; MIT): a stale notice sits in
    the queue, so the `dequeue` of the person's message takes the notice; the message comes
    back as its user record, and the next notice's `remove`, which names the notice, must
    not tell the message a second time."""
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "compare the two proposals"),
            queue_op("enqueue", _NOTICE.replace("ab2b", "0000")),
            queue_op("enqueue", _PROPOSAL),
            queue_op("dequeue"),
            rec("user", "u2", _PROPOSAL),
            queue_op("enqueue", _NOTICE),
            queue_op("remove", _NOTICE),
        ],
    )
    prompts = [e.text for e in events(read(path)) if e.kind == "user_prompt"]
    assert prompts == ["compare the two proposals", _PROPOSAL]


def test_a_remove_that_names_a_persons_message_tells_that_one(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = session_file(tmp_path)
    make_jsonl(
        path,
        [
            rec("user", "u1", "compare the two proposals"),
            queue_op("enqueue", "use the config's path instead"),
            queue_op("enqueue", "and keep it short"),
            queue_op("remove", "and keep it short"),
            queue_op("remove", "use the config's path instead"),
        ],
    )
    assert steering_texts(read(path)) == ["and keep it short", "use the config's path instead"]


# JanDeDobbeleer/oh-my-posh (its maintainer's history, a desktop-app session; MIT), Claude
# Code 2.1.217, lines 2, 3 and 548 byte for byte: the desktop app continued a conversation in
# a new session, whose file opens with the enqueue of the message just sent, then holds the
# whole conversation so far (its records' own ids and times under the new session's id),
# then the message as the new session's first record of its own.
CONTINUED = "d1ffb512-fc49-422a-bffe-ac6962a37c74"
CONTINUED_OPENING = (
    '{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-23T08:20:55.030Z",'
    '"sessionId":"d1ffb512-fc49-422a-bffe-ac6962a37c74","content":"Can we make Render accept '
    "both trusted and untrusted? That would avoid having to use a second function for this? "
    'And we make it explicit for everyone."}'
)
CONTINUED_DEQUEUE = (
    '{"type":"queue-operation","operation":"dequeue","timestamp":"2026-07-23T08:20:55.081Z",'
    '"sessionId":"d1ffb512-fc49-422a-bffe-ac6962a37c74"}'
)
CONTINUED_MESSAGE = (
    '{"parentUuid":"4754ac0c-df2a-4381-8579-74500bbd0870","isSidechain":false,"promptId":'
    '"dc886056-d8ff-4516-80bf-4cc734571425","type":"user","message":{"role":"user","content":'
    '"Can we make Render accept both trusted and untrusted? That would avoid having to use a '
    'second function for this? And we make it explicit for everyone."},"uuid":'
    '"d5fa810d-0c92-4109-9375-2b80d3ed3c4d","timestamp":"2026-07-23T08:20:55.184Z",'
    '"permissionMode":"auto","origin":{"kind":"human"},"promptSource":"sdk","userType":'
    '"external","entrypoint":"claude-desktop","cwd":"D:\\\\oh-my-posh","sessionId":'
    '"d1ffb512-fc49-422a-bffe-ac6962a37c74","version":"2.1.217","gitBranch":"next"}'
)


def copied(kind: str, uuid: str, at: str, content: Any = None, **extra: Any) -> dict[str, Any]:
    """A record of the earlier session as the continuation copied it: its own id and time,
    the new session's id."""
    return rec(kind, uuid, content, sessionId=CONTINUED, timestamp=at, **extra)


def continued_file(tmp_path: Path) -> Path:
    return tmp_path / "projects" / "-D--oh-my-posh" / f"{CONTINUED}.jsonl"


def continued_records() -> list[Any]:
    text = {"type": "text", "text": "Fixed and committed."}
    call = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "go test"}}
    failed = {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "is_error": True,
        "content": "Exit code 1\n--- FAIL: TestPath",
    }
    return [
        CONTINUED_OPENING,
        CONTINUED_DEQUEUE,
        copied("user", "3e546ff6", "2026-07-22T20:19:28.890Z", "Investigate this report"),
        reply("c2", "msg_c2", [call], out=5, sessionId=CONTINUED,
              timestamp="2026-07-22T20:20:01.000Z"),
        copied("user", "c3", "2026-07-22T20:20:09.000Z", [failed]),
        reply("c4", "msg_c4", [text], out=5, sessionId=CONTINUED,
              timestamp="2026-07-23T08:16:30.000Z"),
        CONTINUED_MESSAGE,
    ]  # fmt: skip


def test_a_conversation_the_desktop_app_copied_into_a_new_session_is_history_there(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """The copies are the earlier session's turns and work, stored with it from its own
    file: here they are context, so no task is mined twice and no error counted twice."""
    path = make_jsonl(continued_file(tmp_path), continued_records())
    batches = read(path)
    got = events(batches)
    prompts = [e.text for e in got if e.kind == "user_prompt"]
    assert prompts == [
        "Can we make Render accept both trusted and untrusted? That would avoid having to use "
        "a second function for this? And we make it explicit for everyone."
    ]
    assert not [e for e in got if e.is_error or e.kind in ("error", "tool_call")]
    history = {e.external_id: e.raw_type for e in got if (e.raw_type or "").startswith("history:")}
    assert history["3e546ff6"] == "history:user_prompt"
    assert {"c2", "c3", "c4"} <= {key.split(":")[0] for key in history}
    session = [s for b in batches for s in b.sessions][-1]
    assert session.started_at is not None
    assert session.started_at.isoformat().startswith("2026-07-23T08:20:55")


def test_a_continued_sessions_copies_read_in_a_later_pass_are_still_history(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """The opening is remembered in the cursor: a pass that starts mid-copy still knows."""
    records = continued_records()
    path = make_jsonl(continued_file(tmp_path), records[:3])
    first = read(path)
    cursor = first[-1].cursor
    with path.open("ab") as handle:
        for record in records[3:]:
            line = record if isinstance(record, str) else orjson.dumps(record).decode()
            handle.write(line.encode() + b"\n")
    later = events(read(path, cursor))
    assert [e.kind for e in later if e.kind in ("user_prompt", "error")] == ["user_prompt"]
    answer = [e.raw_type for e in later if e.external_id == "c4"]
    assert answer and all((kind or "").startswith("history:") for kind in answer)


@pytest.mark.parametrize(
    "opening",
    [
        # a desktop session's start hook runs when the app starts the process, before the
        # first message is sent (dougnukem/orpheus: minutes before it)
        pytest.param("hook", id="start hooks before the first message"),
        # a plan's "Implement the following plan:" dated at the plan, minutes before the new
        # session's start hook (ClusterCockpit/cc-backend, Claude Code 2.1.x)
        pytest.param("plan", id="a plan carried into a new session"),
    ],
)
def test_a_record_dated_before_the_opening_of_a_session_that_copied_nothing_stays_its_own(
    tmp_path: Path, make_jsonl: MakeJsonl, opening: str
) -> None:
    started = {"type": "hook_success", "hookEvent": "SessionStart", "content": ""}
    hook = rec(
        "attachment", "h1", timestamp="2026-07-23T08:16:55.000Z", sessionId=CONTINUED,
        attachment=started,
    )  # fmt: skip
    if opening == "hook":
        records: list[Any] = [CONTINUED_OPENING, CONTINUED_DEQUEUE, hook, CONTINUED_MESSAGE]
    else:
        start = rec("progress", "p0", timestamp="2026-07-23T08:28:04.680Z", sessionId=CONTINUED,
                    data={"type": "hook_progress", "hookEvent": "SessionStart"})  # fmt: skip
        plan = copied("user", "u1", "2026-07-23T08:21:15.868Z",
                      "Implement the following plan:\n\n# Fix the leaks")  # fmt: skip
        records = [start, plan]
    got = events(read(make_jsonl(continued_file(tmp_path), records)))
    # the start hook is context either way; no turn or work is taken for a copy
    assert [e.kind for e in got if not e.is_meta] == ["user_prompt"]


def test_an_opening_dated_in_the_future_makes_nothing_after_it_a_copy(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """A hostile or broken clock on the first record cannot turn a session into history:
    a time later than this machine's clock is no time, and the next dated record opens."""
    future = orjson.loads(CONTINUED_OPENING)
    future["timestamp"] = "2999-01-01T00:00:00.000Z"
    records = [future, *continued_records()[2:]]
    got = events(read(make_jsonl(continued_file(tmp_path), records)))
    assert not [e for e in got if (e.raw_type or "").startswith("history:")]
