"""A failure the agent asked for is an answer, not a failure pattern (issue #14: no
knock-on or benign error in the top-10 patterns).

Two general rules: a call the agent announced would fail (testing an error message,
the red step of test-first work), and a stop or kill whose target had stopped already.
The real lines are from the labelled set; the rest are hostile variations, and the
near misses (the agent wondering *why* something fails) must stay real failures.
"""

from __future__ import annotations

import json

import pytest

from sleepd.mining.episodes import EventView
from sleepd.mining.errors import announced_failures, is_benign_exit, judge_errors


def _text(i: int, text: str) -> EventView:
    return EventView(i, i, "assistant_text", "assistant", text)


def _prompt(i: int, text: str) -> EventView:
    return EventView(i, i, "user_prompt", "user", text)


def _call(i: int, tool: str, text: str) -> EventView:
    return EventView(i, i, "tool_call", "assistant", text, tool, f"c{i}", message_id=f"m{i}")


def _result(i: int, call: int, text: str, **extra: object) -> EventView:
    return EventView(i, i, "tool_result", "user", text, None, f"c{call}", **extra)  # type: ignore[arg-type]


NO_PR = (
    "Exit code 1\n❌ No PR found for the current branch.\n\nTo use this tool, either:\n"
    "  1. Run it from a branch that has an associated PR, or\n  2. Provide a PR explicitly"
)


def test_an_error_case_the_agent_announced_is_benign() -> None:
    # claude-code-log cb2e607c lines 175-177
    events = [
        _text(1, "Perfect! Now let me test the error case when there's no PR:"),
        _call(2, "Bash", '{"command": "cd /tmp && coderabbit-extract"}'),
        _result(3, 2, NO_PR, is_error=True, exit_code=1),
    ]
    assert judge_errors(events).verdicts[3].kind == "benign"


def test_the_red_step_of_test_first_work_is_benign_even_when_polled() -> None:
    # codemie-code rollout lines 261-272: the exit code comes from a later write_stdin
    events = [
        _text(
            1,
            "The failing expectation is in place. I'm running just that focused test now to "
            "confirm it fails for the intended reason before changing production code.",
        ),
        _call(2, "exec_command", '{"cmd": "npm test -- --run x.test.ts"}'),
        _result(3, 2, "Process running with session ID 83395"),
        _call(4, "write_stdin", '{"session_id": 83395, "chars": ""}'),
        _result(5, 4, "Process exited with code 1\nOutput:\nFAIL x.test.ts", exit_code=1),
    ]
    assert judge_errors(events).verdicts[5].kind == "benign"


@pytest.mark.parametrize(
    "said",
    [
        "The tests fail. Let me check why it fails.",
        "Let me run the tests to see if they pass now.",
        "I fixed the import; verify that it works:",
        "",
    ],
)
def test_an_unannounced_failure_stays_a_root_failure(said: str) -> None:
    events = [
        _text(1, said),
        _call(2, "Bash", '{"command": "npm test"}'),
        _result(3, 2, "Exit code 1\nFAIL src/app.test.ts", is_error=True, exit_code=1),
    ]
    assert judge_errors(events).verdicts[3].kind == "root"


def test_the_announcement_ends_at_the_persons_next_turn() -> None:
    events = [
        _text(1, "Now let me test the error case:"),
        _prompt(2, "skip that, just run the build"),
        _call(3, "Bash", '{"command": "npm run build"}'),
        _result(4, 3, "Exit code 2\nerror TS2304", is_error=True, exit_code=2),
    ]
    assert announced_failures(events) == set()
    assert judge_errors(events).verdicts[4].kind == "root"


def test_stopping_what_had_stopped_already_is_benign() -> None:
    # claude-code-log 7acd37a8 line 163: KillShell on a shell that had exited
    events = [
        _call(1, "KillShell", '{"shell_id": "dce0af"}'),
        _result(
            2, 1, "Shell dce0af is not running, so cannot be killed (status: killed)", is_error=True
        ),
        _call(3, "KillShell", '{"shell_id": "abc123"}'),
        _result(4, 3, "Error: permission denied", is_error=True),
    ]
    verdicts = judge_errors(events).verdicts
    assert verdicts[2].kind == "benign"
    assert verdicts[4].kind == "root"


@pytest.mark.parametrize(
    ("command", "benign"),
    [("pkill -f 'vite --port 5173'", True), ("killall node", True), ("kill 12345", False)],
)
def test_pkill_finding_no_process_is_an_answer(command: str, benign: bool) -> None:
    assert is_benign_exit(command, 1, "") is benign


def test_hostile_announcements_do_not_hang_or_raise() -> None:
    said = ("confirm that " * 5_000) + "it fails" + ("\x00" * 1_000)
    events = [
        _text(1, said),
        _call(2, "Bash", '{"command": "false"}'),
        _result(3, 2, "Exit code 1", is_error=True, exit_code=1),
    ]
    assert judge_errors(events).verdicts[3].kind in ("root", "benign")


def test_a_probe_that_echoes_the_failure_it_expects_is_benign() -> None:
    """Blind set 15 (kept outside the repository; the values here are made up, the shapes
    are its): the agent probes how a failure is handled, and says so in what the command
    echoes, not in its words before the call nor in a description."""
    refusal = json.dumps(
        {
            "command": "gh api repos/o/r/branches/main/protection --jq .\n"
            'echo "=== RE-INJECTING THE SAME FAULT (expect refusal this time) ==="\n'
            "git push origin HEAD:main 2>&1 | tail -5"
        }
    )
    refused = (
        '{"enforce_admins":true}\n\n=== RE-INJECTING THE SAME FAULT (expect refusal this time)'
        " ===\nremote: error: GH006: Protected branch update failed for refs/heads/main.\n"
        " ! [remote rejected] HEAD -> main (protected branch hook declined)\n"
        "error: failed to push some refs to 'github.com:o/r.git'\n"
    )
    events = [_call(1, "Bash", refusal), _result(2, 1, refused)]
    assert judge_errors(events).verdicts[2].kind == "benign"
    safely = json.dumps(
        {
            "command": 'echo "P3: git log with an unknown sha - does it fail safely?"\n'
            "git log --oneline deadbeef..HEAD 2>&1 | head -3"
        }
    )
    unknown = (
        "P3: git log with an unknown sha - does it fail safely?\nfatal: ambiguous argument "
        "'deadbeef..HEAD': unknown revision or path not in the working tree.\n"
    )
    assert judge_errors([_call(1, "Bash", safely), _result(2, 1, unknown)]).verdicts[2].kind == (
        "benign"
    )
    # an echo that expects nothing leaves the failure a failure
    plain = json.dumps({"command": 'echo "pushing"\ngit push origin HEAD:main 2>&1 | tail -5'})
    verdicts = judge_errors([_call(1, "Bash", plain), _result(2, 1, refused)]).verdicts
    assert verdicts[2].kind == "root"
