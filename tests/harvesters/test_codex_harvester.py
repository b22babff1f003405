"""Handcrafted Codex rollouts for every format generation and odd case in FORMATS.md."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import orjson
import pytest

from harvesters.codex import GOAL_SET, CodexHarvester, decode_tool_output
from harvesters.records import Batch, EventRecord, FileCursor, SourceFile

SID = "019a0000-0000-7000-8000-000000000001"
T = "2025-11-17T21:30:28.000Z"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"

MakeJsonl = Callable[[Path, Iterable[Any]], Path]


def env(kind: str, payload: dict[str, Any], ts: str = T) -> dict[str, Any]:
    return {"timestamp": ts, "type": kind, "payload": payload}


META = env(
    "session_meta",
    {"id": SID, "timestamp": T, "cwd": "/src", "cli_version": "0.77.0", "git": {"branch": "dev"}},
)


def item(kind: str, **fields: Any) -> dict[str, Any]:
    return env("response_item", {"type": kind, **fields})


def user(text: str) -> dict[str, Any]:
    return item("message", role="user", content=[{"type": "input_text", "text": text}])


def rollout(tmp_path: Path, name: str = "rollout-2025-11-17T15-30-28-x.jsonl") -> Path:
    return tmp_path / "sessions" / "2025" / "11" / "17" / name


def read(path: Path, cursor: FileCursor | None = None, role: str = "main") -> list[Batch]:
    file = SourceFile(str(path), "codex", role)  # type: ignore[arg-type]
    return list(CodexHarvester([path.parent]).read(file, cursor))


def events(batches: list[Batch]) -> list[EventRecord]:
    return [e for b in batches for e in b.events]


def test_user_prompt_twins_count_once_and_injected_context_is_meta(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = rollout(tmp_path)
    make_jsonl(
        path,
        [
            META,
            user("<environment_context>\n<cwd>/src</cwd>\n</environment_context>"),
            user("# AGENTS.md instructions for /src\n<INSTRUCTIONS>..."),
            user("add a flag"),
            env("event_msg", {"type": "user_message", "message": "add a flag", "images": []}),
            item("message", role="developer", content=[{"type": "input_text", "text": "rules"}]),
        ],
    )
    got = events(read(path))
    assert [(e.kind, e.is_meta) for e in got] == [
        ("meta", True),
        ("meta", True),
        ("user_prompt", False),
        ("meta", True),
    ]
    assert got[2].text == "add a flag" and got[2].session_external_id == SID


def test_calls_and_outputs_join_by_call_id_with_both_exit_code_encodings(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = rollout(tmp_path)
    json_out = orjson.dumps({"output": "ok\n", "metadata": {"exit_code": 0}}).decode()
    make_jsonl(
        path,
        [
            META,
            item("function_call", name="shell", arguments='{"command":["ls"]}', call_id="c1"),
            item("function_call_output", call_id="c1", output=json_out),
            item("function_call", name="shell_command", arguments='{"command":"x"}', call_id="c2"),
        ],
    )
    first = read(path)
    assert [(e.kind, e.call_id, e.exit_code) for e in events(first)] == [
        ("tool_call", "c1", None),
        ("tool_result", "c1", 0),
        ("tool_call", "c2", None),  # emitted now, its output comes in a later pass
    ]
    with path.open("ab") as fh:
        plain = "Exit code: 1\nWall time: 0.2 seconds\nOutput:\nx: not found"
        fh.write(orjson.dumps(item("function_call_output", call_id="c2", output=plain)) + b"\n")
    later = events(read(path, first[-1].cursor))
    assert [(e.kind, e.call_id, e.exit_code, e.is_error) for e in later] == [
        ("tool_result", "c2", 1, True),
        ("error", "c2", 1, True),
    ]
    assert later[0].text == plain
    assert later[0].session_external_id == SID  # known from cursor.state, not the header


def test_decode_tool_output_variants() -> None:
    assert decode_tool_output("Process exited with code 3\nboom") == (
        "Process exited with code 3\nboom",
        3,
        False,
    )
    assert decode_tool_output([{"type": "input_text", "text": "Exit code: 0"}])[1] == 0
    assert decode_tool_output({"content": "denied", "success": False}) == ("denied", None, True)
    assert decode_tool_output('{"not": "tool json"}')[1] is None


def test_a_command_the_sandbox_stopped_is_a_failed_call() -> None:
    """Codex 0.44 (a real rollout of wild sample 44, not in the repository): the sandbox
    refused `git checkout -b`; the output names the exit code inside Rust's debug print."""
    denied = (
        "failed in sandbox MacosSeatbelt with execution error: Denied { output: "
        'ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: "", '
        'truncated_after_lines: None }, stderr: StreamOutput { text: "fatal: cannot lock ref '
        "'refs/heads/001-build': Unable to create '.git/refs/heads/001-build.lock': "
        'Operation not permitted\\n", truncated_after_lines: None } } }'
    )
    assert decode_tool_output(denied) == (denied, 128, True)
    # the shorter form of later versions, with what the command printed or nothing
    killed = "failed in sandbox: sandbox error: command was killed by a signal"
    assert decode_tool_output(killed) == (killed, None, True)
    assert decode_tool_output("failed in sandbox: ")[2] is True
    # the words inside an ordinary output are no failure
    assert decode_tool_output("grep hit: execution error: handled above")[2] is False


#: entireio/git-sync's history (MIT, not in the repository): later Codex versions write the
#: sandbox's refusal as a plain string, no flag, the note inside the message of a process
#: it could not create, or a message of its own.
SANDBOX_IN_A_MESSAGE = (
    "exec_command failed for `/bin/zsh -lc 'git add cmd/git-sync/main.go README.md'`: "
    'CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: '
    '128, stdout: StreamOutput { text: \\"\\", truncated_after_lines: None }, stderr: '
    "StreamOutput { text: \\\"fatal: Unable to create '/Users/soph/Work/git-sync/.git/index."
    "lock': Operation not permitted\\\\n\\\", truncated_after_lines: None } }, "
    'network_policy_decision: None }))" }'
)
SANDBOX_DENIED_MESSAGE = (
    "exec_command failed for `/bin/zsh -lc 'env GOCACHE=/tmp/go-build go mod tidy'`: "
    'SandboxDenied { message: "go: downloading golang.org/x/term v0.37.0\\ngo: '
    'github.com/soph/git-sync/internal/syncer imports", output: ExecToolCallOutput { exit_code: '
    "1 } }"
)


def test_a_sandbox_refusal_written_as_a_plain_string_is_a_failed_call() -> None:
    assert decode_tool_output(SANDBOX_IN_A_MESSAGE) == (SANDBOX_IN_A_MESSAGE, 128, True)
    assert decode_tool_output(SANDBOX_DENIED_MESSAGE) == (SANDBOX_DENIED_MESSAGE, 1, True)
    # the words in what a command printed are no refusal
    quoted = 'grep: exec_command failed for `x`: CreateProcess { message: "Codex(Sandbox(Denied'
    assert decode_tool_output(quoted)[2] is False


def test_aborted_turn_is_an_interrupt_and_tokens_use_last_usage_once(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = rollout(tmp_path)
    usage = {
        "total_token_usage": {"input_tokens": 500, "cached_input_tokens": 300, "output_tokens": 40},
        "last_token_usage": {"input_tokens": 200, "cached_input_tokens": 150, "output_tokens": 15},
    }
    count = env("event_msg", {"type": "token_count", "info": usage, "rate_limits": None})
    make_jsonl(
        path,
        [
            META,
            env("event_msg", {"type": "token_count", "info": None}),
            count,
            count,  # Codex repeats identical token_count lines
            env("event_msg", {"type": "turn_aborted", "reason": "interrupted"}),
        ],
    )
    got = events(read(path))
    assert [(e.kind, e.raw_type) for e in got] == [
        ("meta", "token_count"),
        ("interrupt", "turn_aborted"),
    ]
    assert (got[0].input_tokens, got[0].cache_read_tokens, got[0].output_tokens) == (50, 150, 15)
    assert got[1].text == "interrupted"


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("interrupted", "interrupt"),
        ("replaced", "interrupt"),  # by what the person sent next
        (None, "interrupt"),  # an older build's record with no reason
        ("review_ended", "meta"),  # Codex ended the review thread it ran: no one's stop
        ("budget_limited", "error"),  # the goal's token budget ran out: a limit's stop
    ],
)
def test_a_turn_codex_ended_early_is_the_persons_stop_only_when_they_stopped_it(
    tmp_path: Path, make_jsonl: MakeJsonl, reason: str | None, kind: str
) -> None:
    from sleepd.mining.episodes import EventView, is_interrupt, is_service_error

    path = rollout(tmp_path)
    payload: dict[str, Any] = {"type": "turn_aborted", "turn_id": "t1"}
    if reason is not None:
        payload["reason"] = reason
    make_jsonl(path, [META, env("event_msg", payload)])
    [got] = events(read(path))
    assert got.kind == kind
    view = EventView(
        id=1, seq=0, kind=got.kind, role=got.role, text=got.text, raw_type=got.raw_type
    )
    assert is_interrupt(view) is (kind == "interrupt")
    assert is_service_error(view) is (kind == "error")


def goal(objective: Any, status: str = "active", turn_id: str | None = None) -> dict[str, Any]:
    """Codex's record of the thread's goal (`thread_goal_updated`), as codex-rs writes it."""
    state = {"thread_id": SID, "objective": objective, "status": status, "token_budget": None}
    state |= {"tokens_used": 0, "time_used_seconds": 0, "created_at": 1, "updated_at": 1}
    payload = {"type": "thread_goal_updated", "thread_id": SID, "turn_id": turn_id, "goal": state}
    return env("event_msg", payload)


def prompts(got: list[EventRecord]) -> list[str]:
    return [e.text for e in got if e.kind == "user_prompt"]


def test_a_goal_the_person_set_is_their_request(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    # Codex's `/goal <objective>` writes no user message: a session started so holds its
    # request only in the goal's record, and each turn after opens with Codex's own
    # <goal_context> (codex-rs: "uses goal objective as preview", first_user_message None)
    path = rollout(tmp_path)
    context = "<goal_context>\nContinue working toward the active thread goal.\n</goal_context>"
    make_jsonl(
        path,
        [
            META,
            goal("optimize the benchmark"),
            env("event_msg", {"type": "task_started", "turn_id": "t1"}),
            user(context),
            item("message", role="assistant", content=[{"type": "output_text", "text": "On it."}]),
            goal("optimize the benchmark", turn_id="t1"),  # its progress: the same objective
            goal("optimize the benchmark", status="complete", turn_id="t1"),
            env("event_msg", {"type": "task_complete", "turn_id": "t1"}),
            # edited by the person, as later builds write it (camelCase keys)
            env(
                "event_msg",
                {
                    "type": "thread_goal_updated",
                    "threadId": SID,
                    "turnId": None,
                    "goal": {
                        "threadId": SID,
                        "objective": "optimize the benchmark and keep the API",
                        "status": "active",
                        "tokensUsed": 0,
                        "timeUsedSeconds": 0,
                    },
                },
            ),
        ],
    )
    got = events(read(path))
    assert prompts(got) == [
        "/goal optimize the benchmark",
        "/goal optimize the benchmark and keep the API",
    ]
    assert {e.raw_type for e in got if e.kind == "user_prompt"} == {GOAL_SET}
    progress = [e for e in got if e.raw_type == GOAL_SET and e.kind == "meta"]
    assert len(progress) == 2


def test_a_goal_the_agent_set_restates_the_persons_message(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = rollout(tmp_path)
    call = item(
        "function_call", name="create_goal", call_id="g1", arguments='{"objective":"ship v2"}'
    )
    make_jsonl(
        path,
        [
            META,
            user("keep working until v2 ships; set that as your goal"),
            call,
            goal("ship v2", turn_id="t1"),
            item("function_call_output", call_id="g1", output='{"goal":{"status":"active"}}'),
            env("event_msg", {"type": "task_complete", "turn_id": "t1"}),
            goal("ship v2, then write the release notes"),  # the person's own, later
        ],
    )
    assert prompts(events(read(path))) == [
        "keep working until v2 ships; set that as your goal",
        "/goal ship v2, then write the release notes",
    ]


@pytest.mark.parametrize(
    "record",
    [
        goal(""),
        goal("   "),
        goal(None),
        goal(["optimize"]),
        goal({"text": "optimize"}),
        env("event_msg", {"type": "thread_goal_updated", "goal": "optimize the benchmark"}),
        env("event_msg", {"type": "thread_goal_updated"}),
    ],
)
def test_a_goal_record_with_no_objective_is_no_request(
    tmp_path: Path, make_jsonl: MakeJsonl, record: dict[str, Any]
) -> None:
    path = rollout(tmp_path)
    make_jsonl(path, [META, record])
    got = events(read(path))
    assert prompts(got) == []
    assert [e.kind for e in got] == ["meta"]


def test_a_long_goal_leaves_the_readers_state_small(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    # the state travels with every batch and is stored with the file's cursor
    path = rollout(tmp_path)
    objective = "make the benchmark faster " * 40_000
    make_jsonl(path, [META, goal(objective), goal(objective, status="paused")])
    batches = read(path)
    assert len(prompts(events(batches))) == 1
    assert len(orjson.dumps(batches[-1].cursor.state)) < 2_000


def test_a_goal_read_in_two_passes_is_one_request(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    # the objective seen is part of the reader's state, kept in the cursor between passes
    path = rollout(tmp_path)
    make_jsonl(path, [META, goal("optimize the benchmark")])
    first = read(path)
    with path.open("ab") as handle:
        handle.write(orjson.dumps(goal("optimize the benchmark", status="paused")) + b"\n")
    later = read(path, first[-1].cursor)
    assert prompts(events(first)) == ["/goal optimize the benchmark"]
    assert prompts(events(later)) == []


def test_a_completed_turn_is_kept_as_the_turns_end(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    """Codex's `task_complete` (0.104 and later; the shape of the real records in the
    fixtures) says the agent's turn is over: mining must find it after the harvest."""
    from sleepd.mining.episodes import EventView, ends_the_agents_turn

    path = rollout(tmp_path)
    done = {
        "type": "task_complete",
        "turn_id": "019df425-f0c5-7bc0-9edb-75d5968313f3",
        "last_agent_message": None,
        "completed_at": 1777917629,
        "duration_ms": 9260,
    }
    make_jsonl(path, [META, user("commit"), env("event_msg", done)])
    last = events(read(path))[-1]
    view = EventView(1, 1, last.kind, last.role, last.text, raw_type=last.raw_type)
    assert ends_the_agents_turn(view)


@pytest.mark.parametrize(
    ("written", "stored"),
    [("turn_started", "task_started"), ("turn_complete", "task_complete")],
)
def test_a_turns_bounds_under_the_names_codex_also_reads_are_stored_as_it_writes_them(
    tmp_path: Path, make_jsonl: MakeJsonl, written: str, stored: str
) -> None:
    """Codex's `EventMsg` reads `turn_started` and `turn_complete` as aliases of the
    `task_started` and `task_complete` it writes: a build that writes them bounds its turns
    all the same, and mining finds the bounds under one name (bench/versions_real.py
    moved four turns typed into a running turn, hindermath/TinyCalc among them)."""
    from sleepd.mining.episodes import TURN_START_TYPE, EventView, ends_the_agents_turn

    path = rollout(tmp_path)
    record = {"type": written, "turn_id": "019cc3c3-849e-75f0-827a-7146c6cab7e8"}
    make_jsonl(path, [META, user("commit"), env("event_msg", record)])
    last = events(read(path))[-1]
    assert last.raw_type == f"event_msg:{stored}"
    view = EventView(1, 1, last.kind, last.role, last.text, raw_type=last.raw_type)
    assert ends_the_agents_turn(view) is (stored == "task_complete")
    assert (last.raw_type == TURN_START_TYPE) is (stored == "task_started")


def test_bare_header_rollout_from_mid_2025(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    path = rollout(tmp_path)
    make_jsonl(
        path,
        [
            {"id": SID, "timestamp": T, "instructions": None, "git": {"branch": "old"}},
            {"record_type": "state", "previous_response_id": "r1"},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
            {"type": "local_shell_call", "call_id": "c9", "action": {"command": ["false"]}},
            {"type": "function_call_output", "call_id": "c9", "output": "Exit code: 1"},
        ],
    )
    batches = read(path)
    assert [(e.kind, e.call_id) for e in events(batches)] == [
        ("user_prompt", None),
        ("tool_call", "c9"),
        ("tool_result", "c9"),
        ("error", "c9"),
    ]
    [session] = batches[-1].sessions
    assert (session.external_id, session.git_branch) == (SID, "old")


def test_early_single_json_rollout_is_read_whole_and_again_only_when_changed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "sessions" / "rollout-2025-04-20-abc.json"
    path.parent.mkdir(parents=True)
    doc: dict[str, Any] = {
        "session": {"timestamp": "2025-04-20T10:00:00Z", "id": "ts-1", "instructions": ""},
        "items": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "ok"}],
            },
        ],
    }
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    [file] = CodexHarvester([tmp_path / "sessions"]).discover()
    assert file.role == "legacy"
    [first] = read(path, role="legacy")
    assert [(e.external_id, e.kind) for e in first.events] == [
        ("#0", "user_prompt"),
        ("#1", "assistant_text"),
    ]
    assert first.sessions[0].external_id == "ts-1" and not first.reset
    [same] = read(path, first.cursor, role="legacy")
    assert same.events == [] and not same.reset
    doc["items"].append(doc["items"][0])
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    [changed] = read(path, first.cursor, role="legacy")
    assert changed.reset and len(changed.events) == 3


def test_new_2026_types_and_unknown_types_never_fail(tmp_path: Path, make_jsonl: MakeJsonl) -> None:
    path = rollout(tmp_path)
    command = {"type": "CommandExecution", "command": "make", "exit_code": 7, "status": "failed"}
    make_jsonl(
        path,
        [
            META | {"ordinal": 0},
            env("world_state", {"full": True, "state": {}}) | {"ordinal": 1},
            env("event_msg", {"type": "item_completed", "item": command}),
            env("event_msg", {"type": "item_completed", "item": {"type": "UserMessage"}}),
            env("teleport", {"where": "mars"}),
            env("compacted", {"message": "summary of earlier turns"}),
        ],
    )
    got = events(read(path))
    assert [(e.kind, e.raw_type, e.exit_code) for e in got] == [
        ("meta", "item_completed:CommandExecution", 7),
        ("error", "item_completed:CommandExecution", 7),
        ("raw", "teleport", None),
        ("summary", "compacted", None),
    ]
    assert got[2].raw is not None and "mars" in got[2].raw


def test_archived_rollouts_are_found_and_a_live_copy_wins(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    live = rollout(tmp_path, "rollout-a.jsonl")
    make_jsonl(live, [META])
    make_jsonl(tmp_path / "archived_sessions" / "rollout-a.jsonl", [META])
    make_jsonl(tmp_path / "archived_sessions" / "rollout-b.jsonl", [META])
    harvester = CodexHarvester([tmp_path / "sessions", tmp_path / "archived_sessions"])
    found = [(Path(f.path).name, f.role) for f in harvester.discover()]
    assert found == [("rollout-a.jsonl", "main"), ("rollout-b.jsonl", "archived")]


def test_truncated_rollout_resets_and_forgets_the_old_session_state(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = rollout(tmp_path)
    make_jsonl(path, [META, user("one")])
    cursor = read(path)[-1].cursor
    assert cursor.state["sid"] == SID
    other = META | {"payload": META["payload"] | {"id": "other-session"}}
    replacement = path.with_suffix(".tmp")
    make_jsonl(replacement, [other])
    os.replace(replacement, path)
    batches = read(path, cursor)
    assert batches[0].reset
    assert batches[-1].cursor.state["sid"] == "other-session"


def test_unreadable_single_json_rollout_is_a_file_problem_like_any_other(tmp_path: Path) -> None:
    """Gone or unreadable, a `.json` rollout gets the reader's line-0 reasons, not a malformed
    line: the writer marks the file, and its cursor stays where it was."""
    gone = tmp_path / "sessions" / "2025" / "04" / "17" / "rollout-2025-04-17-gone.json"
    gone.parent.mkdir(parents=True)
    [missing] = read(gone)
    assert [(s.line_no, s.reason) for s in missing.skipped] == [(0, "file vanished")]
    unreadable = gone.with_name("rollout-2025-04-17-dir.json")
    unreadable.mkdir()  # a directory where a file should be: even root cannot read it
    [broken] = read(unreadable)
    assert [s.line_no for s in broken.skipped] == [0]
    assert broken.skipped[0].reason.startswith("unreadable: ")
    assert broken.events == []


# Line 61 of the cyspbot checkpoint 4d_22222ed5984d (Codex Desktop code mode, held-out set 2):
# the script completed, but the command it ran exited 1; only the inner exec result says so.
CODE_MODE_OUTPUT = [
    {"type": "input_text", "text": "Script completed\nWall time 0.2 seconds\nOutput:\n"},
    {
        "type": "input_text",
        "text": '{"chunk_id":"82611a","wall_time_seconds":0.017927042,"exit_code":1,'
        '"original_token_count":84,"output":"\\u2009ERR_PNPM_UNSUPPORTED_ENGINE\\u2009 '
        'Unsupported environment (bad pnpm and/or Node.js version)\\n"}',
    },
]


def test_code_mode_exec_result_inside_an_output_list_carries_the_exit_code() -> None:
    text, code, failed = decode_tool_output(CODE_MODE_OUTPUT)
    assert code == 1 and not failed
    assert "ERR_PNPM_UNSUPPORTED_ENGINE" in text and "chunk_id" not in text
    assert text.startswith("Script completed")


def test_code_mode_first_failing_exec_result_decides() -> None:
    ok = {"type": "input_text", "text": '{"chunk_id":"a","exit_code":0,"output":"fine"}'}
    bad = {"type": "input_text", "text": '{"chunk_id":"b","exit_code":2,"output":"no such file"}'}
    assert decode_tool_output([ok, bad])[1] == 2
    assert decode_tool_output([ok])[1] == 0
    # a part that merely looks like JSON, or holds a boolean exit code, decides nothing
    odd = {"type": "input_text", "text": '{"output": "x", "exit_code": true}'}
    assert decode_tool_output([odd])[1] is None
    assert decode_tool_output([{"type": "input_text", "text": "{not json"}])[1] is None


def test_code_mode_failure_is_a_tool_error_in_the_real_session(tmp_path: Path) -> None:
    name = "chikachow__cyspbot__entire-checkpoints__4d_22222ed5984d_0_full.jsonl"
    path = rollout(tmp_path, "rollout-2026-06-01T00-00-00-0197ffff-0000-7000-8000-0000001.jsonl")
    path.parent.mkdir(parents=True)
    path.write_bytes((FIXTURES / "codex" / name).read_bytes())
    batch = events(read(path, None))
    errors = [e for e in batch if e.kind == "tool_result" and e.is_error]
    assert any(e.exit_code == 1 and "ERR_PNPM_UNSUPPORTED_ENGINE" in (e.text or "") for e in errors)


def test_what_the_desktop_app_tells_the_model_is_no_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # Codex Desktop 0.14x opens a thread with the plugins it could install (a real
    # rollout of the wild sample: teslamint/entirecontext), in a user message
    plugins = (
        "<recommended_plugins>\nHere is a list of plugins that are available but not "
        "installed.\n\n- Airtable (airtable@openai-curated-remote)\n</recommended_plugins>"
    )
    path = rollout(tmp_path)
    make_jsonl(path, [META, user(plugins), user("fix the flaky parser test")])
    got = events(read(path))
    assert [(e.kind, e.is_meta) for e in got] == [("meta", True), ("user_prompt", False)]


@pytest.mark.parametrize(
    "injected",
    [
        # wild sample 25 (not in the repository, Ogekuri/G 2025-12-17 line 119)
        "Warning: apply_patch was requested via shell_command. Use the apply_patch tool "
        "instead of exec_command.",
        "Warning: update_plan was requested via exec_command. Use the update_plan tool "
        "instead of shell command.",
        "Warning: The maximum number of exec processes you can keep open is 60 and you "
        "currently have 61 processes open.",
        "Warning: Your account was flagged for potentially high-risk cyber activity and this "
        "request was routed to a fallback model.",
        '<SUBAGENT_NOTIFICATION>{"agent": "a1", "status": "done"}</SUBAGENT_NOTIFICATION>',
        '<hook_prompt hook_run_id="h1">check the lint</hook_prompt>',
        "<goal_context>ship the release</goal_context>",
        "<skill>\n<name>review</name>\n</skill>",
        # jdx/mise (its maintainer's history, line 281; MIT), Codex desktop app: an
        # automation's wake-up, written as a user message on its schedule
        "<heartbeat>\n  <automation_id>monitor-mise-pr-10870</automation_id>\n  "
        "<current_time_iso>2026-07-08T19:24:24.898Z</current_time_iso>\n  <instructions>\n"
        "Monitor https://github.com/jdx/mise/pull/10870 for actionable PR activity.",
        # a multi-agent board's notice in the form rollouts before 0.15x wrote it
        "<agent_message_board_notification>\nNew post 7 in discussion 2. Use read_post "
        "to read it.\n</agent_message_board_notification>",
        # the recommended plugins, as rollouts before their tag wrote them
        "Here is a list of plugins that are available but not installed.\n\n- Airtable",
    ],
)
def test_what_codex_writes_as_a_user_message_is_no_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl, injected: str
) -> None:
    path = rollout(tmp_path)
    make_jsonl(path, [META, user("fix the parser"), user(injected)])
    got = events(read(path))
    assert [(e.kind, e.is_meta) for e in got] == [("user_prompt", False), ("meta", True)]


@pytest.mark.parametrize(
    "typed",
    [
        "Warning: timeSinceFirst is not defined",  # a browser console's line, pasted
        "Warning: apply_patch keeps failing on the lockfile, can you look?",
        "<skills> should be a folder, not a file",
        "<heartbeat> never fires when the laptop sleeps, can we poll instead?",
    ],
)
def test_a_persons_warning_or_tag_is_still_a_prompt(
    tmp_path: Path, make_jsonl: MakeJsonl, typed: str
) -> None:
    path = rollout(tmp_path)
    make_jsonl(path, [META, user(typed)])
    assert [(e.kind, e.is_meta) for e in events(read(path))] == [("user_prompt", False)]


def user_with_kinds(texts: list[str], kinds: list[Any]) -> dict[str, Any]:
    """A user message as Codex 0.15x writes it, with its own kind for each content item."""
    content = [{"type": "input_text", "text": text} for text in texts]
    metadata = {"content_item_kinds": kinds}
    return item(
        "message",
        role="user",
        content=content,
        internal_chat_message_metadata_passthrough=metadata,
    )


@pytest.mark.parametrize(
    ("kinds", "items", "typed"),
    [
        pytest.param(["user.text"], 1, True, id="the person's text"),
        pytest.param(["user.heartbeat"], 1, False, id="an automation's wake-up"),
        pytest.param(["agent_message_board.notification"], 1, False, id="a board's notice"),
        pytest.param(
            ["environments.environment_context", "additional_content.ide"],
            2,
            False,
            id="context only",
        ),
        pytest.param(
            ["environments.environment_context", "user.text"], 2, True, id="context and text"
        ),
        pytest.param(["images.preparation_error"], 1, True, id="media put in for the person's"),
        pytest.param(["unknown"], 1, True, id="no one known"),
        pytest.param(
            ["agent_message_board.notification"] * 2, 1, True, id="kinds not one per item"
        ),
        pytest.param([7], 1, True, id="a kind that is no name"),
    ],
)
def test_codexs_own_kinds_say_who_put_a_message_in(
    tmp_path: Path, make_jsonl: MakeJsonl, kinds: list[Any], items: int, typed: bool
) -> None:
    # words no text rule knows, so only the kinds can tell
    texts = ["run the nightly checks and open a pull request", "with the usual labels"]
    path = rollout(tmp_path)
    make_jsonl(path, [META, user_with_kinds(texts[:items], kinds)])
    (got,) = events(read(path))
    assert (got.kind, got.is_meta) == (("user_prompt", False) if typed else ("meta", True))


def test_an_approval_check_thread_is_a_subagent_of_its_parent(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    parent = "019f5042-7614-75b3-9074-80fc693cf395"
    meta = env(
        "session_meta",
        {
            "id": SID,
            "timestamp": T,
            "cwd": "/src",
            "cli_version": "0.144.0-alpha.4",
            "parent_thread_id": parent,
            "source": {"subagent": {"other": "guardian"}},
            "thread_source": "subagent",
        },
    )
    path = rollout(tmp_path)
    make_jsonl(path, [meta, user("The following is the Codex agent history added since …")])
    (session,) = [s for b in read(path) for s in b.sessions]
    assert (session.kind, session.parent_external_id) == ("subagent", parent)


def test_a_rollout_without_its_header_is_a_session_of_its_own(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Wild sample 5 (jerometremblay/codex_log_viewer, not in the repository): seven
    "conversation only" exports start at `task_started` or at a `response_item`, with no
    `session_meta`; 746 records and 58 typed turns were read and stored as nothing, with
    no notice. The session is the id Codex put in the file name."""
    sid = "a5cd1d2e-0f4b-4c1e-9d6a-2b3c4d5e6f70"
    path = rollout(tmp_path, f"rollout-2026-02-14T00-24-46-{sid}.jsonl")
    make_jsonl(
        path,
        [
            env("event_msg", {"type": "task_started", "turn_id": "t1"}, "2026-02-14T00:24:46Z"),
            user("in the json, i have doubles"),
            env("turn_context", {"cwd": "/home/j/logs", "model": "gpt-5.3-codex"}),
            item("message", role="assistant", content=[{"type": "output_text", "text": "ok"}]),
        ],
    )
    batches = read(path)
    got = events(batches)
    assert {e.session_external_id for e in got} == {sid}
    assert [e.text for e in got if e.kind == "user_prompt"] == ["in the json, i have doubles"]
    (session,) = {s.external_id: s for b in batches for s in b.sessions}.values()
    assert session.external_id == sid and session.project_path == "/home/j/logs"
    assert session.meta.get("header") == "missing"
    # a name without Codex's id: the file's own name stands in
    other = rollout(tmp_path, "conversation-export.jsonl")
    make_jsonl(other, [user("hello there")])
    assert {e.session_external_id for e in events(read(other))} == {"conversation-export"}


def test_what_codex_resume_replays_is_the_other_sessions_history(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    """Wild sample 5 (Hoper-J/cpolar-connect, Codex 0.36, not in the repository): the
    resumed rollout has its own header, then the resumed session's header, then that
    session's turns replayed within milliseconds; "检查目前项目的设计" became two tasks and
    looked recurring."""
    old = "9cd28a74-da7e-4458-a91a-fffec2be9d7a"
    new = "613a9a68-8816-40b2-a2d4-041ade599da6"
    path = rollout(tmp_path, f"rollout-2025-09-16T14-12-31-{new}.jsonl")
    at = "2025-09-16T06:12:37.{:03d}Z"
    make_jsonl(
        path,
        [
            env("session_meta", {"id": new, "cwd": "/u/app"}, "2025-09-16T06:12:31.309Z"),
            env("session_meta", {"id": old, "cwd": "/u/app"}, at.format(389)),
            {**user("检查目前项目的设计"), "timestamp": at.format(390)},
            {**user("可以，开始实施"), "timestamp": at.format(527)},
            {
                **item(
                    "message", role="assistant", content=[{"type": "output_text", "text": "ok"}]
                ),
                "timestamp": at.format(530),
            },
            {**user("now add a dry-run flag to status"), "timestamp": "2025-09-16T06:14:02.000Z"},
        ],
    )
    batches = read(path)
    got = events(batches)
    assert [e.text for e in got if e.kind == "user_prompt"] == ["now add a dry-run flag to status"]
    history = [e for e in got if (e.raw_type or "").startswith("history:")]
    assert [(e.text, e.is_meta) for e in history][:2] == [
        ("检查目前项目的设计", True),
        ("可以，开始实施", True),
    ]
    assert {e.session_external_id for e in got} == {new}
    (session,) = [s for b in batches for s in b.sessions][-1:]
    assert session.meta.get("resumed_from") == old


def test_a_tool_search_is_a_call_and_its_result_names_the_tools_found(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # Codex 0.14x searches its tool catalogue before calling a connector's tool; the
    # shapes are a real session's, the catalogue shortened.
    path = rollout(tmp_path)
    found = {
        "type": "namespace",
        "name": "mcp__codex_apps__github",
        "description": "Access repositories, issues, and pull requests.",
        "tools": [
            {"type": "function", "name": "_create_issue", "description": "Create an issue."},
            {"type": "function", "name": "_get_issue", "description": "Fetch an issue."},
        ],
    }
    query = {"query": "GitHub create issue issue create repository", "limit": 8}
    make_jsonl(
        path,
        [
            META,
            user("open an issue for the flaky test"),
            item("tool_search_call", call_id="call_ts1", status="completed", arguments=query),
            item("tool_search_output", call_id="call_ts1", status="completed", tools=[found]),
        ],
    )
    got = [e for e in events(read(path)) if e.kind in ("tool_call", "tool_result")]
    assert [(e.kind, e.tool_name, e.call_id, e.is_error) for e in got] == [
        ("tool_call", "tool_search", "call_ts1", False),
        ("tool_result", None, "call_ts1", False),
    ]
    assert "create issue" in got[0].text
    assert got[1].text == (
        "mcp__codex_apps__github._create_issue\nmcp__codex_apps__github._get_issue"
    )


def test_a_tool_search_output_of_any_shape_never_fails(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    path = rollout(tmp_path)
    make_jsonl(
        path,
        [
            META,
            item("tool_search_output", call_id="call_a", tools=5),
            item("tool_search_output", call_id="call_b", tools=[{"name": "x", "tools": 7}, "y"]),
            item("tool_search_output", call_id="call_c", tools={"name": "z"}, status="failed"),
        ],
    )
    got = [e for e in events(read(path)) if e.kind == "tool_result"]
    assert [(e.call_id, e.is_error) for e in got] == [
        ("call_a", False),
        ("call_b", False),
        ("call_c", True),
    ]
    assert got[1].text == "x"


def test_a_call_the_person_refused_is_a_failed_call() -> None:
    """The VS Code extension's answer when the person declines to approve a command."""
    assert decode_tool_output("exec command rejected by user") == (
        "exec command rejected by user",
        None,
        True,
    )
    assert decode_tool_output("patch rejected by user")[2] is True


def test_a_call_codex_could_not_run_as_made_is_a_failed_call() -> None:
    """Blind set 16 (JaydenXsoe/ocodex, a rollout of August 2025, outside the repository):
    Codex answers a call whose arguments or tool name it cannot take in plain text, with
    no flag; the model's malformed call failed."""
    for output in (
        "failed to parse function arguments: missing field `command` at line 1 column 53",
        "failed to parse function arguments: unknown field `metadata`, expected `explanation`"
        " or `plan` at line 1 column 11",
        "unsupported call: shell<|channel|>",
    ):
        assert decode_tool_output(output) == (output, None, True)
    # a command's output that quotes such words is output
    quoted = "src/tools.rs:12: // failed to parse function arguments: see #12"
    assert decode_tool_output(quoted)[2] is False


def test_a_failed_commands_end_is_kept_and_its_twins_are_not(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # anmol0b/Trezo-Ai e31ed1dc26 (Codex 0.120): the model stopped polling `cargo test` while
    # it ran; the exit (101) is written only in the command's `exec_command_end` event
    path = rollout(tmp_path)
    output = "   Compiling x v0.1.0\n" * 400 + (
        "error: failed to get `anchor-lang` as a dependency of package `cfo_oracle v0.1.0`\n"
    )
    end = {"type": "exec_command_end", "call_id": "c1", "process_id": "24629"}
    make_jsonl(
        path,
        [
            META,
            env("event_msg", {**end, "exit_code": 101, "aggregated_output": output}),
            env("event_msg", {**end, "call_id": "c2", "exit_code": 0, "aggregated_output": "ok"}),
            env("event_msg", {**end, "call_id": "c3", "exit_code": "?", "aggregated_output": "x"}),
        ],
    )
    got = events(read(path))
    assert [(e.kind, e.raw_type, e.call_id, e.exit_code) for e in got] == [
        ("meta", "event_msg:exec_command_end", "c1", 101)
    ]
    kept = got[0]
    assert kept.is_meta and not kept.is_error
    assert kept.text.endswith(
        "error: failed to get `anchor-lang` as a dependency of package `cfo_oracle v0.1.0`\n"
    )
    assert len(kept.text) <= 4000 and kept.text.startswith("   Compiling")  # whole lines


def test_a_failed_commands_end_keeps_the_error_lines_the_model_never_saw(
    tmp_path: Path, make_jsonl: MakeJsonl
) -> None:
    # the same session, line 24: `rg --files` over a home folder lists 1,020 hits and exits 2
    # for two folders it could not read, named among the hits, far from the output's end
    path = rollout(tmp_path)
    unreadable = (
        "rg: /Users/a/Library/Containers/com.apple.InternalFiltersXPC/Data/Documents: "
        "Interrupted system call (os error 4)"
    )
    hits = [f"/Users/a/src/p{n}/README.md" for n in range(600)]
    output = "\n".join([*hits[:100], unreadable, *hits[100:]]) + "\n"
    end = {"type": "exec_command_end", "call_id": "c1", "process_id": "3587"}
    make_jsonl(path, [META, env("event_msg", {**end, "exit_code": 2, "aggregated_output": output})])
    kept = events(read(path))[0]
    head, tail = kept.text.split("\n…\n")
    assert head == unreadable
    assert tail.endswith("/Users/a/src/p599/README.md\n") and unreadable not in tail
