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
from tests.mining.history_lines import STASHED_RED_STEP


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


STASHED_COMMAND = (
    "git stash push internal/planner/planner.go && go test ./internal/planner/ -run "
    "'TestObjectsToPushTransitiveMissing' -v 2>&1 | tail -20; git stash pop"
)


@pytest.mark.parametrize(
    ("said", "description"),
    [
        # entireio/git-sync's history, as written
        (
            "Let me verify my test actually catches the bug by temporarily reverting the fix.",
            "Confirm test fails on unpatched code",
        ),
        (
            "Let me verify the test catches a regression by temporarily reverting the "
            "optimization.",
            "Confirm test catches regression",
        ),
        ("", "Confirm integration failures are pre-existing"),
        # sam-fakhreddine/wfc (a labelled fixture: both `benign`)
        ("", "Verify RAG/retriever failures are pre-existing (not caused by our changes)"),
        ("Two groups of new failures. Let me check if they're pre-existing on PR #17:", ""),
        # hostile variations
        ("Checking whether these also fail on main.", "Run the suite on main"),
        ("I'll stash my changes and confirm the test fails against the original code.", ""),
    ],
)
def test_a_run_on_the_code_as_it_was_before_the_change_expects_its_failures(
    said: str, description: str
) -> None:
    command = json.dumps({"command": STASHED_COMMAND, "description": description})
    events = [_text(1, said), _call(2, "Bash", command), _result(3, 2, STASHED_RED_STEP)]
    assert judge_errors(events).verdicts[3].kind == "benign"


@pytest.mark.parametrize(
    ("said", "command"),
    [
        # the same words before a run of the changed code hope for no failure
        # (sam-fakhreddine/wfc line 362, labelled `root`)
        (
            "Now run the full suite to confirm no new failures beyond the pre-existing ones:",
            "uv run pytest tests/ -q --tb=no 2>&1 | tail -8",
        ),
        (
            "",
            "uv run pytest tests/ -q | grep FAILED | grep -v retriever  # check if failures are"
            " pre-existing or new",
        ),
        # a stash that is only popped sets nothing aside
        (
            "Let me confirm the failures are pre-existing.",
            "git stash pop && go test ./... 2>&1 | tail -20",
        ),
        # the change set aside with nothing said about why: a failure as any other
        ("Running the tests.", STASHED_COMMAND),
        # stashing to clear the way for a pull says nothing of failures expected
        (
            "Let me stash my changes and pull the latest main, then run the tests.",
            "git stash && git pull --rebase origin main && go test ./... 2>&1 | tail -20",
        ),
    ],
)
def test_a_run_of_the_changed_code_or_an_unexplained_stash_keeps_its_failures(
    said: str, command: str
) -> None:
    events = [
        _text(1, said),
        _call(2, "Bash", json.dumps({"command": command})),
        _result(3, 2, STASHED_RED_STEP),
    ]
    assert judge_errors(events).verdicts[3].kind == "root"


def test_putting_the_change_back_failing_is_a_failure_whatever_was_expected() -> None:
    """entireio/cli's history (MIT, not in the repository): the lint run on the code as it
    was went as expected, and `git stash pop` then could not put the change back."""
    command = json.dumps(
        {
            "command": 'git stash && mise run lint 2>&1 | grep -c "issues:" ; git stash pop',
            "description": "Check if ireturn lint errors exist on base branch",
        }
    )
    said = (
        "The strategy files are in the diff, but let me check whether the `ireturn` errors "
        "are from pre-existing code in those files (not my changes)."
    )
    popped = (
        "Exit code 1\nerror: Your local changes to the following files would be overwritten "
        "by merge:\n\tcmd/entire/cli/strategy/auto_commit.go\nPlease commit your changes or "
        "stash them before you merge.\nAborting\nThe stash entry is kept in case you need it "
        "again."
    )
    events = [_text(1, said), _call(2, "Bash", command), _result(3, 2, popped, exit_code=1)]
    assert judge_errors(events).verdicts[3].kind == "root"
    # the run it meant, failing on the old code as expected, is its answer
    as_meant = [*events[:2], _result(3, 2, STASHED_RED_STEP)]
    assert judge_errors(as_meant).verdicts[3].kind == "benign"


#: entireio/cli's history (MIT, not in the repository): manual tests of the CLI's answer
#: to a mistyped command, then a command it should know, which it did not.
UNKNOWN = (
    'Unknown command "{0}" for "entire".\nSee "entire --help" for a list of available '
    "commands.\nExit code: 1"
)


def test_a_mistyped_command_tried_on_purpose_is_benign_and_a_valid_one_is_not() -> None:
    def call(i: int, name: str, description: str) -> EventView:
        command = f'/tmp/entire-test {name} 2>&1; echo "Exit code: $?"'
        return _call(i, "Bash", json.dumps({"command": command, "description": description}))

    events = [
        _text(1, "All tests pass. Let me verify the changes work correctly with manual testing."),
        call(2, "unknowncommand", "Test unknown command shows suggestion"),
        _result(3, 2, UNKNOWN.format("unknowncommand")),
        _text(4, "Let me also test with a typo that has a suggestion."),
        call(5, "sessio", "Test unknown command with similar match"),
        _result(6, 5, UNKNOWN.format("sessio")),
        call(7, "sessions", "Test with valid command to confirm it works"),
        _result(8, 7, UNKNOWN.format("sessions")),
    ]
    verdicts = judge_errors(events).verdicts
    assert verdicts[3].kind == "benign" and verdicts[6].kind == "benign"
    # the words before announced the typo, not this call, which says it should work
    assert verdicts[8].kind == "root"


def test_a_check_the_agent_calls_negative_is_benign() -> None:
    """JanDeDobbeleer/oh-my-posh's history (MIT, not in the repository; a blind labeller
    read it as benign): the suite passes, then a check run under a setting that must fail
    it, named a negative check in the description and in what the command echoes."""
    command = json.dumps(
        {
            "command": "cd /d/oh-my-posh/e2e && go test -count=1 ./... 2>&1 | tail -2 && "
            'echo "--- negative check ---"; OMP_E2E_REQUIRE=zsh go test -count=1 -run '
            "'TestSmoke/zsh' . 2>&1 | tail -4",
            "description": "Windows verification: full suite, DSR unit tests, negative check",
        }
    )
    output = (
        "ok  \tgithub.com/jandedobbeleer/oh-my-posh/e2e\t15.769s\n--- negative check ---\n"
        "        smoke_test.go:40: shell zsh is required by OMP_E2E_REQUIRE but unavailable: "
        "zsh is not supported on this platform, skipping\nFAIL\n"
        "FAIL\tgithub.com/jandedobbeleer/oh-my-posh/e2e\t0.097s\nFAIL"
    )
    said = _text(1, "Reviewing the new pieces, then verifying on both platforms:")
    events = [said, _call(2, "Bash", command), _result(3, 2, output)]
    assert judge_errors(events).verdicts[3].kind == "benign"
    # a check that is negative about nothing stays a failure
    plain = json.dumps({"command": "go test ./... 2>&1 | tail -4", "description": "Run tests"})
    events = [said, _call(2, "Bash", plain), _result(3, 2, output)]
    assert judge_errors(events).verdicts[3].kind == "root"


def test_an_option_tried_without_its_value_is_benign_and_with_a_valid_one_is_not() -> None:
    """entireio/cli's history (MIT, not in the repository): the CLI's answer to `--agent`
    given no value was what the agent tested; to a valid value it was a failure."""
    out = (
        "Missing agent name. Available agents:\n\n  claude-code    (default)\n  gemini\n\n"
        "Usage: entire enable --agent <agent-name>\n---exit: 1\n"
        "Shell cwd was reset to /Users/dip/Repositories/cli"
    )

    def call(i: int, args: str, description: str) -> EventView:
        command = f'cd /tmp/r && /tmp/entire-test enable {args} 2>&1; echo "---exit: $?"'
        return _call(i, "Bash", json.dumps({"command": command, "description": description}))

    events = [
        call(1, "--agent", "Build and test --agent without value"),
        _result(2, 1, out),
        call(3, "--agent claude-code", "Test --agent with valid value"),
        _result(4, 3, out),
    ]
    verdicts = judge_errors(events).verdicts
    assert verdicts[2].kind == "benign" and verdicts[4].kind == "root"
