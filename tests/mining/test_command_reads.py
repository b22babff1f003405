"""A later read of a command that ran on is that command's result (errors/reads.py)."""

from __future__ import annotations

import json

from sleepd.mining.episodes import EventView
from sleepd.mining.errors import judge_errors
from sleepd.mining.errors.reads import command_reads
from sleepd.mining.signatures import signature_of

#: M-Thisness/M-Claude 343e3472 lines 300-303 (set 19): an ssh run in the background on
#: Windows, read with `TaskOutput` once it had failed (Claude Code 2.1.6)
STARTED = (
    "Command running in background with ID: bdea11d. Output is being written to: "
    "C:\\Users\\Mischa\\AppData\\Local\\Temp\\claude\\C--Users-Mischa\\tasks\\bdea11d.output"
)
FAILED_READ = (
    "<retrieval_status>success</retrieval_status>\n\n<task_id>bdea11d</task_id>\n\n"
    "<task_type>local_bash</task_type>\n\n<status>failed</status>\n\n<exit_code>255"
    "</exit_code>\n\n<output>\nssh: connect to host zima.thisness.us port 22: Connection "
    "timed out\n</output>"
)
SSH = "ssh: connect to host zima.thisness.us port 22: Connection timed out"


def _call(i: int, tool: str, text: str) -> EventView:
    return EventView(i, i, "tool_call", "assistant", text, tool, f"c{i}", message_id=f"m{i}")


def _result(i: int, call: int, text: str, exit_code: int | None = None) -> EventView:
    return EventView(i, i, "tool_result", "user", text, None, f"c{call}", exit_code=exit_code)


def _background(command: str, read_tool: str, read: str, key: str = "task_id") -> list[EventView]:
    return [
        _call(1, "Bash", json.dumps({"command": command, "run_in_background": True})),
        _result(2, 1, STARTED),
        _call(3, read_tool, json.dumps({key: "bdea11d", "block": True, "timeout": 15000})),
        _result(4, 3, read),
    ]


def test_a_background_commands_failure_read_later_is_the_commands() -> None:
    events = _background("ssh zima 'ls /mnt'", "TaskOutput", FAILED_READ)
    read = command_reads(events, {e.call_id: e for e in events if e.kind == "tool_call"})[4]
    assert (read.tool_name, read.command, read.exit_code, read.output) == (
        "Bash",
        "ssh zima 'ls /mnt'",
        255,
        SSH,
    )
    verdict = judge_errors(events).verdicts[4]
    assert verdict.kind == "root" and verdict.read == read
    # signed as the same failure of a command that ended at once: one pattern
    later = signature_of(read.output, read.tool_name, read.exit_code)
    at_once = signature_of(f"Exit code 255\n{SSH}", "Bash", 255)
    assert later.digest == at_once.digest and later.full == at_once.full


def test_a_background_search_that_found_nothing_answers() -> None:
    """`grep` that matched nothing exits 1, run in the background as in the foreground."""
    empty = FAILED_READ.replace("255", "1").replace(f"\n{SSH}\n", "")
    events = _background("grep -rn TODO src", "TaskOutput", empty)
    assert judge_errors(events).verdicts[4].kind == "benign"
    found_a_fault = FAILED_READ.replace("255", "2").replace(SSH, "grep: src: Permission denied")
    assert judge_errors(_background("grep -rn TODO src", "TaskOutput", found_a_fault)).verdicts[
        4
    ].kind == ("root")


def test_the_older_bash_output_read_says_it_alike() -> None:
    """Claude Code before 2.1 read a background shell with `BashOutput` (`bash_id`), its
    output split into stdout and stderr."""
    older = (
        "<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<stdout>\n> app@0.1.0 test\n"
        "</stdout>\n\n<stderr>\nError: Cannot find module 'vitest'\n</stderr>\n\n"
        "<timestamp>2025-11-17T11:48:34.596Z</timestamp>"
    )
    events = _background("npm test", "BashOutput", older, key="bash_id")
    read = judge_errors(events).verdicts[4].read
    assert read is not None and read.exit_code == 1 and read.command == "npm test"
    assert read.output == "> app@0.1.0 test\nError: Cannot find module 'vitest'"


def test_a_read_whose_start_fell_in_an_earlier_episode_is_still_the_shells() -> None:
    events = [_call(3, "TaskOutput", '{"task_id": "bdea11d"}'), _result(4, 3, FAILED_READ)]
    read = judge_errors(events).verdicts[4].read
    assert read is not None and (read.tool_name, read.command, read.exit_code) == ("Bash", "", 255)


def test_a_codex_code_mode_scripts_failure_read_with_wait_is_the_scripts() -> None:
    """jdx/mise's Codex history (outside the repository): `exec` ran a script on ("Script
    running with cell ID 10") and `wait` read its end; its compile error had been a pattern
    under `wait` beside the same one under `exec`."""
    script = 'const r = await tools.exec_command({cmd: "cargo build"});\ntext(r.output);'
    ended = (
        "Script completed\nWall time 13.0 seconds\nOutput:\n\n   Compiling mise v2026.7.5\n"
        "error[E0308]: mismatched types\n    --> src/file.rs:1412:5"
    )
    events = [
        _call(1, "exec", script),
        _result(2, 1, "Script running with cell ID 10\nWall time 1.0 seconds\nOutput:\n"),
        _call(3, "wait", '{"cell_id":"10","yield_time_ms":1000,"max_tokens":20000}'),
        _result(4, 3, ended, exit_code=101),
    ]
    verdict = judge_errors(events).verdicts[4]
    assert verdict.kind == "root" and verdict.read is not None
    assert (verdict.read.tool_name, verdict.read.command) == ("exec", "cargo build")
    later = signature_of(verdict.read.output, verdict.read.tool_name, 101)
    assert later.digest == signature_of(ended, "exec_command", 101).digest


def test_what_is_no_read_of_a_command() -> None:
    """A subagent's task read with `TaskOutput`, TaskOutput's own refusal, a multi-agent
    `wait` (JSON), and a read naming an id no command started: none is a command's result."""
    agent = FAILED_READ.replace("local_bash", "local_agent")
    cases = [
        ("TaskOutput", '{"task_id": "bdea11d"}', agent),
        ("TaskOutput", '{"task_id": "x1"}', "<tool_use_error>No task found with ID: x1"),
        ("wait", '{"ids": ["a1"], "timeout_ms": 30000}', '{"status": {"a1": "errored"}}'),
        ("Read", '{"file_path": "/w/bdea11d.output"}', FAILED_READ),
    ]
    for tool, call, text in cases:
        events = [_call(1, tool, call), _result(2, 1, text)]
        assert command_reads(events, {"c1": events[0]}) == {}, tool
