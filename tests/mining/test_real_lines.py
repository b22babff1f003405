"""Each class of misreading from issue #14, tested on lines people really typed.

Lines are quoted from the real transcripts in tests/fixtures/real_sessions (file and
line given) or, where the issue quotes a session that is not in the repository, from
the issue's own account of it. The agent's words before a turn are kept as short as
the rule needs; the turn's text is the person's, unchanged.
"""

from __future__ import annotations

import json

import pytest

from sleepd.mining.commands import SlashCommand, family_name, parse_command, runs_saved_prompt
from sleepd.mining.episodes import EventView, is_interrupt, is_typed_prompt, segment
from sleepd.mining.errors import (
    COMMAND_READ_CHARS,
    is_benign_exit,
    is_failed_result,
    judge_errors,
    noise_lines,
    program_of,
    remote_of,
    session_noise,
)
from sleepd.mining.lexicon import Feedback, lexicon_for
from sleepd.mining.signatures import signature_of
from sleepd.mining.task_mining import refines_the_work
from sleepd.mining.tasks import full_command
from sleepd.mining.turns import (
    TurnDecision,
    TurnInput,
    TurnKind,
    agent_asks,
    agent_awaits_verdict,
    agent_claims_done,
    agent_gave_steps,
    answers_point_by_point,
    classify_turn,
    feedback_region,
    has_pasted_error,
    is_bare_answer,
    names_listed_item_by_number,
    names_own_object,
    needs_context,
    orients_only,
    picks_listed_item,
    points_back,
    takes_up_findings,
    yes_and_more,
)
from sleepd.mining.turns.agent import offered_act
from sleepd.mining.turns.closing import is_closing_step
from sleepd.mining.turns.corrections import (
    affirms_what_agent_denied,
    fixes_what_was_said_to_pass,
    says_what_was_meant,
)
from sleepd.mining.turns.failures import reports_failure
from sleepd.mining.turns.pastes import is_program_output, words_after_a_paste
from sleepd.mining.turns.requests import says_something_new

from .builders import DONE, SessionBuilder, kind_of, views

ASKS = "I can set it up with Vite or with a tiny Python server. Which one would you like?"


# --- slash commands are real intents ------------------------------------------------


def test_a_custom_command_with_arguments_is_a_task_and_keeps_its_name() -> None:
    # issue #14: the prompt that was dropped as a wrapper, as Claude Code stores it
    text = (
        "<command-message>orchestrator</command-message>\n"
        "<command-name>/orchestrator</command-name>\n"
        "<command-args>create TODO app by Next.js</command-args>"
    )
    command = parse_command(text)
    assert command is not None and command.intent == "/orchestrator create TODO app by Next.js"
    assert kind_of(text) is TurnKind.NEW_TASK


def test_a_custom_command_without_arguments_is_a_task() -> None:
    # melagiri 82_b981cea660 line 378 (with args) and marot spotter subagent line 4
    assert kind_of("<command-name>/release</command-name><command-args>patch</command-args>") is (
        TurnKind.NEW_TASK
    )
    assert kind_of("<command-name>/handgemacht:create-beads</command-name>") is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("text", "name", "args"),
    [
        # entireio/cli's history (MIT, not in the repository; blind sets 55 and 57 labelled
        # each a new task, and the rules had read each as going on with the last one)
        ("and /github-pr-review", "github-pr-review", ""),
        ("okay, now /github-pr-review", "github-pr-review", ""),
        ("yes. /release patch", "release", "patch"),
    ],
)
def test_a_custom_command_typed_after_a_word_or_two_is_still_the_command(
    text: str, name: str, args: str
) -> None:
    command = parse_command(text)
    assert command is not None and (command.name, command.args) == (name, args)
    assert kind_of(text) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # a command named as the means of other work, or asked about (blind sets 41 to 57)
        "rewrite my comment to the suggested reply but use /writing-clearly-and-concisely",
        "let's implement the fix in a new branch, run /simplify when done",
        "do we have any /github-pr-review action?",
        # a built-in after other words runs nothing; a path is no command
        "and then /clear",
        "ok /src/app",
    ],
)
def test_a_command_named_inside_a_request_is_not_run(text: str) -> None:
    assert parse_command(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # 4379d1bf line 2, 4379d1bf line 13, 82_b981cea660 line 373, ef958aa1 line 179
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n"
        "<command-args></command-args>",
        "<command-name>/model</command-name>\n<command-message>model</command-message>\n"
        "<command-args></command-args>",
        "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n"
        "<command-args></command-args>",
        "<command-name>/exit</command-name>\n<command-message>exit</command-message>\n"
        "<command-args></command-args>",
        # marot spotter tool_heavy line 9 (typed as plain text), 326189cf line 6 (bash mode)
        "/mcp",
        "<bash-input>uv run ty check</bash-input>",
        # wild sample 25 (not in the repository, kiliman/claude-transcript test2 line 502):
        # a memory added with Claude Code's `#` shortcut
        "<user-memory-input>When committing to git repo, always use the conventional-commits "
        "convention for log message</user-memory-input>",
        # melagiri 99_… line 3
        "Hello",
        # one owner's history (M-Thisness/M-Claude, not in the repository, Claude Code
        # 2.1.6): the options dialog Claude Code opens by itself at a usage limit, which had
        # made a replay task
        "<command-name>/rate-limit-options</command-name>\n"
        "            <command-message>rate-limit-options</command-message>\n"
        "            <command-args></command-args>",
    ],
)
def test_built_ins_bash_mode_and_greetings_are_housekeeping(text: str) -> None:
    assert kind_of(text) is TurnKind.HOUSEKEEPING


def test_a_mode_switch_alone_is_housekeeping_and_with_a_request_a_task() -> None:
    # wild sample 15 (not in the repository): Claude Code's plan mode, switched on alone
    bare = (
        "<command-name>/plan</command-name>\n            <command-message>plan</command-message>\n"
        "            <command-args></command-args>"
    )
    assert kind_of(bare) is TurnKind.HOUSEKEEPING
    asked = "<command-name>/plan</command-name><command-args>add a dark theme</command-args>"
    assert kind_of(asked) is TurnKind.NEW_TASK


@pytest.mark.parametrize("setting", ["", "clear", "pause", "resume", "edit", "Clear"])
def test_a_goal_alone_or_with_its_setting_is_housekeeping(setting: str) -> None:
    # Claude Code 2.1.139's /goal (and Codex's): alone it shows the goal, `clear` stops
    # it, Codex's `pause`, `resume` and `edit` manage it; none is a request
    text = f"<command-name>/goal</command-name><command-args>{setting}</command-args>"
    assert kind_of(text) is TurnKind.HOUSEKEEPING
    assert kind_of(f"/goal {setting}".strip()) is TurnKind.HOUSEKEEPING


def test_a_goal_with_a_condition_is_a_request() -> None:
    condition = "all tests in test/auth pass and the lint step is clean"
    text = f"<command-name>/goal</command-name><command-args>{condition}</command-args>"
    assert kind_of(text) is TurnKind.NEW_TASK
    # a condition that opens with a setting's word is still a condition
    assert kind_of("/goal clear the backlog of flaky tests") is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text", ["claude -c", "claude -r", "claude --resume 4f07053f", "codex resume", "claude"]
)
def test_the_agents_launcher_typed_into_the_session_is_housekeeping(text: str) -> None:
    # wild sample 15 (not in the repository): "claude -c", then "claude -r", typed into a
    # session after the agent explained how to resume one
    agent = "To continue a specific session: exit and run `claude -r <session-id>`."
    assert kind_of(text, agent_text=agent) is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 13 (not in the repository): the agent ran it for the person
        "claude mcp add serena -- uvx --from git+https://github.com/oraios/serena serena",
        "codex exec 'fix the failing tests'",
    ],
)
def test_a_command_line_with_work_in_it_is_no_launcher(text: str) -> None:
    assert kind_of(text) is not TurnKind.HOUSEKEEPING


def test_a_path_is_not_a_command() -> None:
    assert parse_command("/usr/bin/env python3 fails with exit 127") is None


# --- a word is not a verdict --------------------------------------------------------


def test_a_word_inside_a_request_is_not_approval() -> None:
    # issue #14: "with the correct animations" was read as approval
    text = "Make the cards flip with the correct animations when a pair is found"
    assert kind_of(text) is not TurnKind.APPROVAL


def test_praise_then_a_failure_is_a_correction_not_an_approval() -> None:
    # issue #14: logged as approval of an earlier episode; the request was lost
    text = "(this looks correct). But the X field in the summary doesn't look right. Try to fix"
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "merged",  # melagiri 82_b981cea660 line 329
        "approved",  # melagiri 82_b981cea660 line 407
        "proceed",  # melagiri 82_b981cea660 line 430
        "Excellent work, thank you!",  # a7da6a22 line 314
    ],
)
def test_plain_verdicts_are_approvals(text: str) -> None:
    assert kind_of(text) is TurnKind.APPROVAL


# --- failure reports are not new tasks ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # issue #14's three reports
        "I'm getting: Access to script at 'file:///game.js' from origin 'null' has been "
        "blocked by CORS policy",
        "Nothing happens when I press new game",
        "The script didn't write the file",
        # a history outside the repository (entireio/cli, MIT), in the progressive
        "I built the binary again and started Claude but nothing is happening. Isn't it "
        "supposed to fire after 30s?",
        # 82_b981cea660 line 117, 9e953218 lines 70, 81 and 102, 37f83ec9 line 294
        'API 422: {"success":false,"error":"The operation was aborted due to timeout"}',
        "The redirection doesn't work :( we might need to move it to @vercel.json ?",
        "Still doesn't work, maybe there's a step needed to have the submodule checked out "
        "during Vercel build?",
        "FGS: Loading module from \u201chttps://www.danieldemmel.me/tokenizer.js\u201d was "
        "blocked because of a disallowed MIME type (\u201ctext/html\u201d).",
        "Oh no, we lost the session navigation section from the combined transcript somehow :(",
        # ef958aa1 line 117
        "Well, the subagents seem to be either stuck or done... can you check?",
        # jcleira/entire-local f9_85592be1d6 lines 38 and 21 (set 20): "it don't work" as
        # people type it in a hurry or in a second language, "doesn't look well"
        "I mean, it just don't work I see all the markdown",
        "it doesn't look well: --- [pasted TUI screen]",
        # jcleira 90_fd1086eb5d line 236: a state said with an intensifier
        "that doesn look like my terminal the fonts are really off there",
    ],
)
def test_failure_reports_are_corrections(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "don't work on the tests yet, just read them",  # a prohibition, not a report
        "this is really good, thanks",
        "it looks fine to me now",
    ],
)
def test_what_reads_like_those_reports_but_is_none(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


# Corrections the rules had missed in histories outside the repository (entireio/cli,
# entireio/git-sync, JanDeDobbeleer/oh-my-posh, melagiri/code-insights, jdx/mise; all MIT),
# each after the agent's words as they were, shortened. Where a history's repository grants
# no licence, the line is one of our own in the same form (marked "modelled on").
_CHECK_IT = "Want to verify by checking the session state file for `28c304f6` directly?"
_COMMIT_IT = (
    "Clean diff. The changes redirect logging to the correct session's log file. "
    "Should I commit this?"
)
_ANSWERED = (
    "Claude Code's `user-prompt-submit` hook data doesn't include the prompt text, so we'd "
    "need to extract it from the transcript file at that point."
)


@pytest.mark.parametrize(
    ("text", "agent_text", "acted"),
    [
        # sets the agent itself right, after an answer that changed nothing
        (
            'you are not correct: "In addition to the common input fields, UserPromptSubmit '
            'hooks receive the prompt field containing the text the user submitted."',
            _ANSWERED,
            False,
        ),
        # the state meets what was settled before
        (
            "it asks for my username and password again. i dont want that. and it has ./ in "
            "front of git-sync..i thought we found a way to include it in the script",
            "So the screenshot looks vendor-neutral, but the output is real `git-sync` output.",
            True,
        ),
        # a pasted run, then the verdict on it
        (
            "\u276f printf 'protocol=https\\nhost=localhost:8080\\n' | git credential fill\n"
            "Username for 'https://localhost:8080': test\n\nI don't think this is working as "
            "it should",
            "If `no-thin` is missing from the output, something else is producing the error.",
            True,
        ),
        # no to the offer to commit, and the work rolled back
        (
            "nah let's roll back, they don't really need to exist in the future state",
            _COMMIT_IT,
            True,
        ),
        ("lint fail \U0001f62d", "No response requested.", True),
        # a "when" clause that tells what did not happen is no hypothesis
        (
            "Weird, it was there before and just when starting this session didn't appear.",
            "The hooks are running correctly though: the session start hook succeeded.",
            True,
        ),
        # a negation that reaches the praise word is no verdict of "correct"
        (
            "[image: image/png, 35330 bytes] The transient prompt does not seem to end in the "
            "correct color.",
            "Your left prompt segments are 10-20 cells and can afford hue steps.",
            True,
        ),
        ("I've still got a shadow, no condensation commit", _CHECK_IT, True),
        # what the change did to what worked, a case it leaves out
        (
            "hmm, the amend has broken our entire checkpoints \U0001f62c\n\ncan we amend again "
            "and re-add the checkpoint trailer? Entire-Checkpoint: 4a4241ca5b3d",
            "Done. Force pushed `e94d49d` to `alex/explain-raw-transcript`.",
            True,
        ),
        # what the result does wrongly, however tersely said
        ("it's not adding the trailer properly??", "Let me look at how trailers are added.", True),
        (
            "When using streaming, the placeholder background color also isn't correctly "
            "calculated as a gradient.",
            "Full repo suite, lint, markdownlint all clean.",
            True,
        ),
        ("argghh build failing: lint", "Done. Linked PR #163 to ENT-64 on Linear.", True),
        ("pr run failed, can you check", "Both files pass markdownlint and Vale.", True),
        (
            "we fail build \U0001f62d",
            "Yes, line 77 reads so. That was the fix from e06a3602.",
            True,
        ),
        # what hangs, an expectation the result did not meet
        # (modelled on a line of an unlicensed history)
        (
            "[image: image/png, 40960 bytes]\nSeems to get stuck on loading?",
            "Everything is deployed and the service was restarted with the new code!",
            True,
        ),
        (
            "I would have expected to see more checkpoints than what ./entire explain is "
            "showing (7)",
            "Created ENT-129 (Linear) for the future refactor into a shared gitutil package.",
            True,
        ),
        # what stops the work, a measure of the result found wrong
        (
            "it is being blocked by 'block-local-merge-to-main' but the current branch is "
            "not main/master",
            "Unignored .claude/hooks/ in .gitignore so enforcement scripts are shared.",
            True,
        ),
        # (under a post the agent drafted: its answer, no work of its tools)
        (
            "this is too big.. make it small and natural",
            "Want me to post this directly to the issue, adjust the tone, or add anything?",
            False,
        ),
        # the agent's claim denied, the result said not to work in the other order, and the
        # person repairing what the agent took the point for
        # (modelled on a line of an unlicensed history)
        (
            "Not true. You changed the cdn settings an hour ago!!",
            "If Option A, you can share the credentials here. Which would you prefer?",
            True,
        ),
        # (modelled on a line of an unlicensed history)
        (
            "[image: image/png, 70000 bytes]\nSeems not to work?",
            "If it still doesn't list every track, we may need to dig further. Let me know "
            "how it goes!",
            True,
        ),
        (
            "sorry, my point is: the entire cli writes the `.entire/.gitignore` when doing "
            "`entire enable` and that is not including the logs folder right now",
            "The `logs/` entry is already in `.entire/.gitignore` (line 5).",
            True,
        ),
        # a doubt that the fix took (whose "that fixed it" is no praise), a screenshot
        # captioned with trouble
        # (modelled on a line of an unlicensed history)
        (
            "[image: image/png, 60000 bytes]\nNot sure if the fix worked?",
            "All changes are in GitHub. The working tree is clean - everything is committed "
            "and pushed!",
            True,
        ),
        # (modelled on a line of an unlicensed history)
        (
            "[image: image/png, 90000 bytes]\nissue with the chat page?",
            "Now the table shows both totals and per-item counts! \U0001f389",
            True,
        ),
        # how the result should be, after a grant of what works
        # (modelled on a line of an unlicensed history)
        (
            "Links work, but the map should get the coordinates of the station and center on "
            "them, not on its name.",
            "Done. Station names in the table are now links that open them on the map.\n\n"
            "**Deployment**: live in ~1 minute.",
            True,
        ),
        # failures the person got, what the work does not do, part of the result missing,
        # a measure still wrong
        ("we got test failz", "Done - added a correction noting the fix was in 3696270.", True),
        (
            "the test isn't really checking the metadata in the entire/sessions commits",
            "Added two helper functions: readMetadataJSON() and readMetadataJSONRaw().",
            True,
        ),
        (
            "I see the formatting change but not the 'last seen' strings",
            "Updated the list view: times are formatted and sessions show when they were last "
            "seen.",
            True,
        ),
        (
            "[image: image/png, 4814 bytes]\nstill too hard.",
            "Softened the gradient stops so the transition reads smoother.",
            True,
        ),
        # what did not happen, opening the turn (modelled on a line of an unlicensed
        # history), and an error the agent itself met
        (
            "Did not deploy? https://github.com/acme/app/actions/runs/1",
            "Pushed the fix; the deploy workflow will pick it up.",
            True,
        ),
        ("I thinkt you got an API error?", "Let me check the remaining tests.", True),
        # what the person saw on running it, a state the rename should have changed
        (
            "when I run `entire list` it's still using `Checkpoints` as a term, can you double "
            "check all usages?",
            "New metadata always writes `steps_count`; old metadata is read through a fallback.",
            True,
        ),
        (
            "ummm, so I guess this skip-check doesn't handle the 'update' commit case?",
            "Summary of changes: 1. Removed redundant check 2. Skip commits early. Ready to "
            "commit when you are.",
            True,
        ),
        # a run made again after the fix, and what it still shows (an "if" with "again now",
        # no guess in it); a screenshot said to be of an error (modelled on a line of an
        # unlicensed history)
        (
            "if I run again now I still see 38 commits in gtrrz-victor/opt-disable-multisession"
            "-warning",
            "The new `getCommitsReachableFromMain()` approach builds a full set of main's "
            "commits and filters them all out, which handles the merge case properly.",
            True,
        ),
        (
            "[image: image/png, 150000 bytes]\nFor error on github action deploy:",
            "Both prompts now carry the unit note and the sensor guidance.",
            True,
        ),
        ("[image: image/png, 150000 bytes]\nhere's the error", "Done. The deploy is live.", True),
        # nothing changed on trying again (modelled on a line of an unlicensed history),
        # what the work left out of where it belongs, and what the check never even did
        (
            "[image: image/png, 34000 bytes]\nI did a hard refresh and tried again. No changes.",
            "The fix is live! It should now show the whole answer. Want me to test it?",
            True,
        ),
        (
            "the latest changes and updates aren't present in the github PR. Update the "
            "description and add relevant comments and then i will merge",
            "So both sections now use the same list layout. Want to merge?",
            True,
        ),
        (
            "env GOCACHE=/tmp/go-build go test ./internal/syncer -run 'TestRun_SSHDockerSync'"
            "\n\nthis is super quick, there isn't even a container running",
            "Notably, this commit includes internal/syncer/ssh_docker_test.go and mise.toml.",
            True,
        ),
        # why the agent left out what it proposed (an adverb between), the work said to go
        # past what was asked, and a "no" typed without its comma before taking it back
        (
            "why exactly didn't you do the proposed Create cmd/entire/cli/agent/transcript.go "
            "with the wrapper functions",
            "The code is now much cleaner and keeps agent-independent code free of "
            "agent-specific conditionals!",
            True,
        ),
        (
            "i think you've done more than is necessary, could we just run cargo package? "
            "would that have failed?",
            "Changes are on branch `codex/release-plz-preflight` and are not staged.",
            True,
        ),
        (
            "no remove this again, the risk someone assumes it's a stable link is to big",
            "Now you have bidirectional linking: the trailer and the `commit_sha` field.",
            True,
        ),
        # the program's own message as what the person meets
        (
            "debug: I am seeing\n`failed to generate summary: failed to parse summary JSON: "
            "unexpected end of JSON input (response: )` when running `./entire explain -c "
            "c1c35c964733 --generate --no-pager`",
            "Done.  **Draft PR created:** https://github.com/entireio/cli/pull/121",
            True,
        ),
        ("I'm getting: `could not resolve host: registry.local`", "Pushed the fix.", True),
        # what the work was to give back and did not (modelled on a line of an unlicensed
        # history)
        (
            "I noticed when I asked the MCP server how many tracks there are, the reponse was "
            "not given. Should we make an index for querying devices by name?",
            "The fix is live: the assistant now lists tracks and sensors.",
            True,
        ),
        # one thing found wrong, announced after a grant (modelled on a line of an
        # unlicensed history)
        (
            "[image: image/png, 101000 bytes]\nSeems to work fine. One issue. is that the "
            "server does not seems to read the data from the live devices table. ?",
            "Deployed: the assistant now answers from the device tables.",
            True,
        ),
        # the result found wrong, "right" typed with its letters swapped
        (
            "that warn does not sound rigth, we are finding the sessions we will restore.",
            "All tests pass. Added stderr warnings for all three skip paths in "
            "`classifySessionsForRestore`.",
            True,
        ),
        # several said to fail now, after the agent said they pass
        (
            "can you explain why they fail now?",
            "All tests pass now. Fixed by replacing `env.runEntireCmd` with "
            "`env.RunCLIWithError` in `setup_claude_hooks_test.go`.",
            True,
        ),
    ],
)
def test_corrections_found_in_histories_outside_the_repository(
    text: str, agent_text: str, acted: bool
) -> None:
    assert kind_of(text, agent_text=agent_text, agent_acted=acted) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # a guess of what a run would show, and a question about one
        "if I run it again it would still show 38 commits, right?",
        "if I run it now, will it pick up the new config?",
        "if I try again now it'll probably still show the old count",
        # a screenshot for something other than trouble
        "[image: image/png, 150000 bytes]\nfor reference, the layout I want",
        "[image: image/png, 150000 bytes]\nabout the header: make it sticky",
        # nothing to change, and an absence asked for
        "No changes needed, thanks.",
        "make sure the secrets aren't present in the logs",
        "there isn't even a need to mock it, just call the real server",
        "is there even a container running?",
        # a suggestion, praise, and a "no" that is no verdict
        "why don't you try the cache first?",
        "you've done more than enough, thanks",
        "no remove button needed on that page",
        # what the person looks at, not a message met
        "I'm seeing how the retry handles a failed upload, nice",
        "we're getting closer to the invalid-input cases, keep going",
        # how they are meant to fail, and whether they do
        "they fail if the token is missing, which is right",
        "make sure they fail when coverage drops",
        "do they fail on windows?",
        # a give-back that must not happen, and one set as a condition
        "make sure the answer was not given away in the hint",
        "if the response was not returned in 5s, retry",
        # one more thing asked for, and the person's own trouble
        "Seems to work fine. One issue: can you also add a legend?",
        "works. one problem though - I don't know the API key for staging",
    ],
)
def test_near_misses_of_the_corrections_found_in_histories(text: str) -> None:
    agent_text = "Done. The commits are filtered against main now."
    assert kind_of(text, agent_text=agent_text, agent_acted=True) is not TurnKind.CORRECTION


def test_numbered_findings_are_no_plan_of_their_own() -> None:
    # entireio/cli: the manual test the agent set out, reported back item by item
    text = (
        "1. the sessions file doesn't appear until the first prompt (by design I think)\n"
        "2. I note the state change in the file from active -> idle \nLogs don't seem to "
        "show the state transitions anymore though?\nFeb  9 09:56:27.990 |DEBU| hook "
        "completed success=true hook=pre-task duration_ms=46 component=hooks "
        "agent=claude-code hook_type=subagent strategy=manual-commit\nFeb  9 09:56:48.839 "
        "|DEBU| hook invoked hook=post-task"
    )
    agent_text = (
        "6. Stale cleanup: create a fake session state file with no matching shadow branch. "
        "Run `entire status`; the stale file should get cleaned up automatically."
    )
    previous = "okay, so I've got that test repo open, what do I need to test manually?"
    assert kind_of(text, agent_text=agent_text, previous_text=previous) is TurnKind.CORRECTION
    # a plan of steps the person sets out for a new defect is still a task of its own
    plan = (
        "The artifact detail page shows a broken image. The image is uploaded to Supabase "
        "storage but not displaying.\n\n1. Show me apps/web/src/app/artifacts/[id]/page.tsx "
        "and how it renders the image\n2. Check what the actual storageUrl looks like\n"
        "3. Fix the image rendering so the uploaded file shows"
    )
    assert kind_of(plan, previous_text=previous) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        "If you are wrong about the cause, say so and we look again.",  # a condition
        "I thought we could cache the lookups, can you add that?",  # a suggestion
        "make lint fail on warnings",  # asks for a behaviour
        "lint fail on warnings would be better",
        "I still see why you did it that way, fine.",
        "when running in CI, make sure the banner isn't shown",  # a requirement
        "find the pages that have broken links",  # a thing to look for
        "we don't need to handle the empty case",
        "fix the build failing tests",  # names the failing tests as its work
        "I'm stuck on this one, any ideas?",  # the person, not the result
        "the rename stuck",
        "is it too big to fit?",  # a question, no verdict
        "make the pr run fail when coverage drops",
        "not sure if it works on windows, can you check?",  # a doubt, nothing tried
        "Links work, but the map should also show the station name",  # more of it
        "we got rid of the failures",
        "I see your point but not sure it matters",
        "is it still too slow?",
        "Did you deploy?",
        "make it so you get an error if the token expires",
        "[image: image/png, 97177 bytes] add an error page like this",
        "is it true that the hook runs twice?",
        "my question is whether we need this at all",
        # (a precision read of the histories' corrections: good news, the person's own
        # doubt, a failure foreseen)
        "just for confirmation: so once this finishes the repo is completely cloned to the "
        "target, there is nothing missing",
        "so could we now do the integration tests with write but still not sure how we make "
        "this portal being dependent on a remote github",
        "this means tests would also fail on my machine if I hadn't gemini installed",
        "make sure when I run it it's still using the cache",  # a requirement
    ],
)
def test_what_reads_like_those_corrections_but_is_none(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


def test_a_negated_praise_word_is_no_approval() -> None:
    assert kind_of("not sure if that fixed it") is not TurnKind.APPROVAL
    assert (
        lexicon_for().classify("I don't know the correct way to set this up")
        is not Feedback.APPROVAL
    )
    assert kind_of("The banner does not end in the correct color.") is not TurnKind.APPROVAL


def test_a_hypothetical_is_not_a_failure_report() -> None:
    # melagiri 92_f1e62ce401 line 27 (labelled follow_up)
    text = "will this work if the session apis are failing in between due to rate limit errors?"
    assert kind_of(text, agent_text=ASKS) is not TurnKind.CORRECTION


def test_a_complaint_before_the_agent_did_anything_is_a_request() -> None:
    # 37f83ec9 line 12: the agent had only explained the code (labelled new_task)
    text = (
        "oh, I didn't find those cross-session navigation links helpful, can you please "
        "replace them with a simple list of sessions?"
    )
    assert kind_of(text, agent_acted=False) is not TurnKind.CORRECTION


def test_the_lexicon_reads_only_the_typed_words_around_a_paste() -> None:
    log = "\n".join(
        f"2026-01-0{i % 9 + 1}T10:00:00 srv  slot {i}: thanks, perfect" for i in range(50)
    )
    region = feedback_region("these are the logs on the server.. what is happening?\n\n" + log)
    assert "perfect" not in region and region.startswith("these are the logs")


# --- follow-ups are not tasks -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # issue #14: a refinement of the running task
        ("That's good. But the darker highlight should still stay on the selected row", DONE),
        # 7acd37a8 lines 64 and 99: picks an offered option; says yes and extends
        ("ok, fine, let's do vite", ASKS),
        ("yes please, and let's make it cross-browser", ASKS),
        # 82_b981cea660 line 100: reports doing what the agent asked
        ("done, changed to 128k", "Set the context size to 128k in the config and restart?"),
    ],
)
def test_follow_ups_refine_the_running_task(text: str, agent_text: str) -> None:
    assert kind_of(text, agent_text=agent_text) is TurnKind.FOLLOW_UP


def test_a_self_contained_new_request_after_the_agent_finished_is_a_task() -> None:
    # 7acd37a8 line 169
    assert kind_of("Let's also Migrate to AudioWorklet") is TurnKind.NEW_TASK


def test_what_is_typed_into_a_running_turn_steers() -> None:
    # melagiri 82_b981cea660 line 156 (queued while the agent ran)
    assert kind_of("test it out", agent_text="", queued=True) is TurnKind.STEERING
    # a reply that opens by taking up the agent's words, then redirects how it works
    redirect = "ok, use pnpm instead of npm for all of it from now on"
    assert kind_of(redirect, agent_text="", queued=True) is TurnKind.STEERING


# --- where the turn sits: after a result, a question, a plan or an open invitation ----

#: melagiri 27_8e6d172470, the agent's words before line 62 (options offered)
OPTIONS = (
    "**Option B — Just bump the string to `'3.0.2'`** (quick fix, but same problem next "
    "release)\n\nI'd recommend **Option A** so this never drifts again. Want me to make that "
    "change?"
)
#: melagiri 92_f1e62ce401, the agent's words before line 65 (a plan waiting for the go-ahead)
PLAN = (
    "Here's the plan — 3 small changes:\n\n1. **`cli/src/analysis/native-runner.ts`** — "
    "Accept optional `model` in constructor\n2. **`batch-native-analysis.sh`** — Add "
    "`--model` flag\n\nShall I go ahead?"
)


@pytest.mark.parametrize(
    ("text", "agent_text", "extra"),
    [
        # 4d5611e5 line 280: the agent's turn had ended mid-work hours earlier
        ("continue", "Good - the duplicate helpers are now unused. Let me remove them.", {}),
        # 92_f1e62ce401 line 218: resumes after the usage limit, eight hours later
        ("limits are reset. continue where you left off", DONE, {"gap_s": 28369.0}),
        # 27_8e6d172470 line 62: picks an offered option
        ("yes, Option A", OPTIONS, {}),
        # 27_8e6d172470 line 70: queued, asks for one more step
        ("should we bump it to 3.0.3?", "Let me verify it builds.", {"queued": True}),
        # polecatspeaks/StarCar 25_071b0849bd lines 666 and 370 (set 19): queued, a reply
        # to what the agent said that goes on with the task
        (
            "ok this is a good start, how sustainable and scalable is this harness?",
            "Harness landed. Running the first sweep now.",
            {"queued": True},
        ),
        (
            "correct, I think at this stage it's a bit too much as we'll be moving fast and "
            "breaking a lot of things. I'm ok with a delay on the user facing documentation CI "
            "getting backed up. That documentation is vital, but it's also really needing only "
            "to be checked at the PR stage as a gate.",
            "Checking the user documentation next.",
            {"queued": True},
        ),
    ],
)
def test_going_on_with_the_task_is_a_follow_up_not_steering(
    text: str, agent_text: str, extra: dict[str, object]
) -> None:
    assert kind_of(text, agent_text=agent_text, **extra) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        "yes, this is good",  # melagiri b0_c9bbbf540c line 177
        "ok, this works",  # melagiri b0_c9bbbf540c line 184
    ],
)
def test_an_acceptance_word_before_a_verdict_is_approval(text: str) -> None:
    asks = "Does this flow work, or would you add/remove any gates or steps?"
    assert kind_of(text, agent_text=asks) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # 92_f1e62ce401 line 65: redirects the proposed plan before any change
        ("not in the code.. just our script that we wrote @batch-native-analysis.sh", PLAN),
        # 82_b981cea660 line 95: questions the agent's suggestion
        (
            "why 32768? i want more context like 128k",
            "Could you restart it with a larger context?\n\nllama-server -m <model> -c 32768",
        ),
    ],
)
def test_pushing_back_on_a_plan_steers(text: str, agent_text: str) -> None:
    assert kind_of(text, agent_text=agent_text) is TurnKind.STEERING


def test_after_an_interrupt_a_retry_steers() -> None:
    # kfischer b3edadab line 58: typed right after the person's own interrupt
    text = "Ok ultrathink and try again"
    assert kind_of(text, agent_text="", after_interrupt=True) is TurnKind.STEERING


def test_a_request_after_an_open_invitation_is_a_task() -> None:
    # kfischer b3edadab line 55: the agent greeted back and asked what to do
    text = (
        "Ok ultrathink and come up with a chain of cause and effect relationships spanning "
        "at least 20 steps"
    )
    assert kind_of(text, agent_text="Hey Okarin! What can I help you with?") is TurnKind.NEW_TASK


def test_a_request_on_another_subject_after_an_answer_is_a_task() -> None:
    # codemie rollout line 22: the agent had listed its tools (an answer, no question)
    answer = (
        "- Image generation/editing skill\n- OpenAI docs research skill\n\nIn this repo, "
        "`AGENTS.md` also says to prefer codebase-memory MCP graph tools for code discovery."
    )
    text = "let's update the defailt context compart to 90 in env var"
    turn = kind_of(text, agent_text=answer, context="show tools\n" + answer)
    assert turn is TurnKind.NEW_TASK
    # the same words typed while the agent was still mid-work go on with its task
    assert kind_of(text, agent_text=answer, agent_ended=False) is not TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # melagiri 2c_b7af912872 line 244: the reported test run covered one package
        ("not just cli, run all tests", "Build: PASSED ✓\nTests: 322/322 PASSED ✓\n\nProceed?"),
        # melagiri 27_8e6d172470 line 34: the suggested fix did not change the version
        ("see it is still 3.0.0", "The `--force` cache clean should resolve it."),
        # melagiri e9_ceca70a2e5 line 284: the release plan misses files
        (
            "yes, look at the previous version bump PRs for files changed. it is not just 1 "
            "package.json, there are multiple places. verify",
            "**Process:**\n1. Create `release/v3.5.1` branch\n2. Bump version in "
            "`cli/package.json`\n\nShall I proceed?",
        ),
    ],
)
def test_a_result_or_plan_that_falls_short_is_a_correction(text: str, agent_text: str) -> None:
    assert kind_of(text, agent_text=agent_text) is TurnKind.CORRECTION


def test_a_suggestion_with_a_negated_verb_is_not_a_failure_report() -> None:
    # melagiri 6e_7ca5ebf80f line 314 (labelled new_task)
    text = (
        "So, now go back and look at the design for dispatch.. instead of one blog post for "
        "one AI session - can we not build blog posts based on related learnings.. like select "
        "few learnings and then ask the user to provide additional context in the UI and "
        "generate a blog post for that?"
    )
    assert kind_of(text) is not TurnKind.CORRECTION


# --- knock-on and benign errors are not failure patterns ----------------------------


def _call(i: int, tool: str, text: str, message: str = "m1") -> EventView:
    return EventView(i, i, "tool_call", "assistant", text, tool, f"c{i}", message_id=message)


def _result(i: int, call: int, text: str, **extra: object) -> EventView:
    return EventView(i, i, "tool_result", "user", text, None, f"c{call}", **extra)  # type: ignore[arg-type]


def test_sibling_errors_point_to_their_cause() -> None:
    # marot spotter subagent agent-a2898e3: one Read fails, the parallel calls are cancelled
    events = [
        _call(1, "Read", '{"file_path": "/home/USER/projects/spotter/assets/css/app.css"}'),
        _call(2, "Glob", '{"pattern": "assets/**/*.css"}'),
        _result(3, 1, "<tool_use_error>File does not exist.</tool_use_error>", is_error=True),
        _result(4, 2, "<tool_use_error>Sibling tool call errored</tool_use_error>", is_error=True),
    ]
    verdicts = judge_errors(events).verdicts
    assert verdicts[3].kind == "root"
    assert verdicts[4].kind == "knock_on" and verdicts[4].cause_id == 3


def test_calls_cancelled_with_a_refused_one_are_knock_on_and_the_refusal_benign() -> None:
    # 7acd37a8 lines 53-55
    events = [
        _call(1, "Bash", '{"command": "python3 -m http.server 8000"}'),
        _call(2, "Bash", '{"command": "npx serve ."}'),
        _result(
            3,
            1,
            "The user doesn't want to proceed with this tool use. The tool use was rejected "
            "(eg. if it was a file edit, the new_string was NOT written to the file).",
            is_error=True,
        ),
        _result(
            4,
            2,
            "The user doesn't want to take this action right now. STOP what you are doing and "
            "wait for the user to tell you how to proceed.",
            is_error=True,
        ),
    ]
    verdicts = judge_errors(events).verdicts
    assert verdicts[3].kind == "benign"
    assert verdicts[4].kind == "knock_on" and verdicts[4].cause_id == 3


#: JanDeDobbeleer/oh-my-posh's history (MIT, not in the repository), Claude Code 2.1.209 in
#: the desktop app: the auto-mode classifier's model was down, so Claude Code ran neither
#: this Bash call nor five Agent calls of another session (`toolDenialKind`
#: "automode-unavailable")
AUTO_MODE_DOWN = (
    "claude-opus-4-8[1m] is temporarily unavailable, so auto mode cannot determine the safety "
    "of Bash right now. Wait briefly and then try this action again. If it keeps failing, "
    "continue with other tasks that don't require this action and come back to it later. "
    "Note: reading files, searching code, and other read-only operations do not require the "
    "classifier and can still be used."
)


@pytest.mark.parametrize(
    "output",
    [
        AUTO_MODE_DOWN,
        # the same outage as the tool's own result words it ("toolUseResult")
        "Error: " + AUTO_MODE_DOWN.replace("claude-opus-4-8[1m]", "claude-sonnet-5[1m]"),
        # Claude Code's other words for a classifier with no verdict (its error reference,
        # 2.1.1xx and later)
        "Permission for this action was denied by the Claude Code auto mode classifier. "
        "Reason: Auto mode could not evaluate this action and is blocking it for safety — "
        "run with --debug for details. If you have other tasks that don't depend on this "
        "action, continue working on those.",
        "Permission for this action was denied by the Claude Code auto mode classifier. "
        "Reason: Classifier unavailable. If you have other tasks that don't depend on this "
        "action, continue working on those.",
        "The server-side auto mode classifier gave no verdict (error), so auto mode cannot "
        "determine the safety of Bash. This is a transient failure of the check, not a "
        "judgment about the action: a later response may get a verdict.",
        "Auto mode classifier transcript exceeded context window",
    ],
)
def test_a_call_the_harness_could_not_judge_is_no_failure_of_the_call(output: str) -> None:
    assert _verdict_on(output) == "benign"


@pytest.mark.parametrize(
    "output",
    [
        # the classifier's verdict against the call is a refusal of it, like a hook's
        # (keparlak/NumWordify, a labelled fixture: `root`)
        "Permission for this action was denied by the Claude Code auto mode classifier. "
        "Reason: Blocked by classifier. If you have other tasks that don't depend on this "
        "action, continue working on those.",
        # the words printed by a command, not said by the harness in place of the call
        "Exit code 1\ngrep: docs/errors.md: " + AUTO_MODE_DOWN[:90],
        "FAIL: test_outage (" + AUTO_MODE_DOWN[:90] + ")",
        # a service of the person's own that says it is down fails the call
        "Error: payments-api is temporarily unavailable, please retry later",
    ],
)
def test_what_only_quotes_an_outage_of_the_harness_stays_a_failure(output: str) -> None:
    assert _verdict_on(output) == "root"


#: Histories outside the repository (MIT): Codex refusing to run a call, each stored with no
#: error flag and no exit code. jakobtfaber/dsa110-FLITS: a PreToolUse hook of the person's
#: blocked 116 shell calls, the most frequent failure of that history.
HOOK_BLOCKED = (
    "Command blocked by PreToolUse hook: rtk-codex-guard: shell command should use RTK "
    "compact output.\n\nSuggested command:\nrtk git status --short --branch"
)
#: entireio/git-sync: the sandbox policy refused the command.
POLICY_REJECTED = (
    "exec_command failed for `/bin/zsh -lc 'rm -rf .gocache /tmp/auth.test.exe && git status "
    "--short'`: CreateProcess { message: \"Rejected(\\\"`/bin/zsh -lc 'rm -rf .gocache "
    '/tmp/auth.test.exe && git status --short\'` rejected: blocked by policy\\")" }'
)
#: entireio/entire-graph: the automatic approval review could not reach its model.
REVIEW_FAILED = (
    "exec_command failed for `/bin/zsh -lc 'entire trail show 10'`: CreateProcess { message: "
    '"Rejected(\\"This action was rejected due to unacceptable risk.\\\\nReason: Automatic '
    'approval review failed: {\\\\n  \\\\"type\\\\": \\\\"error\\\\",\\\\n  '
    '\\\\"status\\\\": 400\\\\n}\\\\nThe agent must not attempt to achieve the same '
    'outcome via workaround.\\")" }'
)


@pytest.mark.parametrize(
    ("output", "kind"),
    [
        (HOOK_BLOCKED, "root"),
        (POLICY_REJECTED, "root"),
        # jdx/mise: the same refusal under code mode's header over what its script threw
        (
            "Script failed\nWall time 0.0 seconds\nOutput:\n\nScript error:\n" + POLICY_REJECTED,
            "root",
        ),
        # an outage of the reviewer, like Claude Code's auto-mode classifier down
        (REVIEW_FAILED, "benign"),
    ],
)
def test_a_call_codex_refused_to_run_is_an_error_stored_unflagged(output: str, kind: str) -> None:
    events = [
        _call(1, "shell_command", '{"command": "git status --short --branch"}'),
        _result(2, 1, output),
    ]
    assert is_failed_result(events[1], events[0])
    assert judge_errors(events).verdicts[2].kind == kind


@pytest.mark.parametrize(
    "output",
    [
        # a command's output that mentions a hook or a rejection
        "hooks/pre-commit: Command blocked by PreToolUse hook: see the docs",
        'grep: exec_command failed for `x`: CreateProcess { message: "Rejected(',
        "The PR was rejected by review; see comments.",
    ],
)
def test_words_about_a_refusal_are_no_refusal(output: str) -> None:
    events = [_call(1, "shell_command", '{"command": "cat notes.txt"}'), _result(2, 1, output)]
    assert not is_failed_result(events[1], events[0])


def _verdict_on(output: str) -> str:
    """The verdict on a failed result of a Bash call."""
    events = [
        _call(1, "Bash", '{"command": "gh pr merge 12"}'),
        _result(2, 1, output, is_error=True),
    ]
    return judge_errors(events).verdicts[2].kind


@pytest.mark.parametrize(
    ("tool", "output"),
    [
        # every real session on this machine (not in the repository): the person pressed
        # Esc while the command ran; Claude Code keeps what it had printed after the marker
        ("Bash", "[Request interrupted by user for tool use]\nCollecting cupy-cuda12x"),
        ("Bash", "Exit code 137\n[Request interrupted by user for tool use]"),
        ("TodoWrite", "Interrupted by user"),
        (
            "ExitPlanMode",
            "The agent proposed a plan that was rejected by the user. The user chose to stay "
            "in plan mode rather than proceed with implementation.\n\nRejected plan:\n## Plan",
        ),
    ],
)
def test_a_call_the_person_stopped_or_turned_down_is_no_failure_of_the_tool(
    tool: str, output: str
) -> None:
    events = [
        _call(1, tool, '{"command": "pip install cupy-cuda12x"}'),
        _result(2, 1, output, is_error=True),
    ]
    assert judge_errors(events).verdicts[2].kind == "benign"


@pytest.mark.parametrize(
    ("tool", "output"),
    [
        # anmol0b/Trezo-Ai e31ed1dc26 line 156: Codex 0.120 stopped `cargo test` when the
        # person interrupted the turn, and flagged nothing
        ("exec_command", "aborted by user after 33.4s"),
        # the same stop as codex-rs words it for a shell tool
        ("shell_command", "Wall time: 12.0 seconds\naborted by user"),
    ],
)
def test_a_codex_call_the_person_stopped_is_read_as_stopped(tool: str, output: str) -> None:
    events = [_call(1, tool, '{"cmd": "cargo test"}'), _result(2, 1, output)]
    assert is_failed_result(events[1], events[0])
    assert judge_errors(events).verdicts[2].kind == "benign"
    # a program that prints the words among others stopped for reasons of its own
    said = _result(2, 1, "Install aborted by user after missing file.\nexit 1")
    assert not is_failed_result(said, events[0])


def test_a_failure_that_only_mentions_an_interrupt_is_still_a_failure() -> None:
    events = [
        _call(1, "Bash", '{"command": "pytest"}'),
        _result(
            2,
            1,
            "Exit code 1\nE   KeyboardInterrupt\nFAILED test_a.py - Interrupted by user",
            is_error=True,
        ),
    ]
    assert judge_errors(events).verdicts[2].kind == "root"


@pytest.mark.parametrize(
    ("command", "exit_code", "output", "benign"),
    [
        # AcidicSoil codex rollout line 235: `rg -n OLLAMA` found nothing
        ("rg -n OLLAMA src", 1, "", True),
        ("grep -r 'TODO' src | head -5", 0, "", False),  # exit 0 is not an error at all
        ("cd app && grep -q needle file.txt", 1, "", True),
        ("diff -u a.txt b.txt", 1, "--- a.txt\n+++ b.txt\n-error\n+fixed", True),
        ("test -f dist/index.html", 1, "Exit code 1", True),
        # melagiri 82_b981cea660 line 137: `kill …; lsof -ti:7890` (the port is free)
        ("kill -9 $(lsof -ti:7890); lsof -ti:7890", 1, "Exit code 1", True),
        ("grep -r needle missing-dir", 2, "grep: missing-dir: No such file or directory", False),
        ("grep needle file.txt && npm test", 1, "npm ERR! Test failed", False),
        ("rg pattern", 1, "rg: src: IO error for operation on src: No such file", False),
        # wild sample 4 (public sessions, not in the repository): the command that another
        # program runs decides (ssh's remote command, `adb shell`, a shell's `-c` string)
        ('ssh root@65.108.24.131 "which aws"', 1, "Exit code 1\nUbuntu 24.04.4 LTS", True),
        (
            'ssh root@simplemap.safecast.org "ss -tlnp | grep safecast-new-map"',
            1,
            "Exit code 1\nUbuntu 24.04.4 LTS",
            True,
        ),
        (
            "ssh -p 2222 -i ~/.ssh/key deploy@host 'tail -5 /var/log/nginx/access.log | grep x'",
            1,
            "",
            True,
        ),
        (
            'ssh root@simplemap.safecast.org "cat /etc/nginx/sites-enabled/map.conf"',
            1,
            "Exit code 1\nUbuntu 24.04.4 LTS\ncat: /etc/nginx/sites-enabled/map.conf: No such "
            "file or directory",
            False,
        ),
        ('adb -s emulator-5554 shell "getprop | grep -i testharness" 2>&1', 1, "", True),
        ("bash -lc 'cd app && test -d node_modules'", 1, "", True),
        ("docker exec -u root web sh -c 'pgrep nginx'", 1, "", True),
        ("kubectl exec api-0 -- test -f /tmp/ready", 1, "", True),
        ("ssh host make test", 1, "make: *** [test] Error 1", False),
        # Codex exec_command results: the shell's own lookup, and git's unset config key
        ("command -v beads", 1, "Chunk ID: a35931\nProcess exited with code 1\nOutput:", True),
        ("git config --get core.hooksPath", 1, "", True),
        # a key read bare, which is how people and agents ask (entireio/cli's history
        # outside the repository: a chain of four unset gc and fetch keys, two patterns
        # signed "---" by its own separators); with a value it is set, and may fail
        (
            'git -C /Users/alex/cli config gc.auto 2>&1; echo "---"; '
            "git -C /Users/alex/cli config --global gc.autoPackLimit 2>&1",
            1,
            "Exit code 1\n---\n---\n---",
            True,
        ),
        ("git config user.name 2>/dev/null", 1, "", True),
        ("git config user.name 'A B'", 1, "error: could not lock config file", False),
        ("git config --list", 1, "fatal: not in a git directory", False),
        ("git show-ref --verify --quiet refs/heads/feature", 1, "", True),
        ("git push origin main", 1, "error: failed to push some refs", False),
        # a listing that answers "none" (real sessions not in the repository: `ssh-add -L`
        # asked three times whether the agent held keys), not the same program adding one
        ("ssh-add -L", 1, "The agent has no identities.", True),
        ("ssh-add -l 2>&1", 1, "The agent has no identities.", True),
        ("crontab -l", 1, "no crontab for dev", True),
        ("ssh-add ~/.ssh/id_ed25519", 1, "Could not add identity", False),
        ("crontab jobs.txt", 1, '"jobs.txt":1: bad minute\nerrors in crontab file', False),
        # a login banner's "Memory usage: 23%" is not a usage message
        ("ssh box 'grep -c x /var/log/app.log'", 1, "Memory usage: 23%\nSwap usage: 0%", True),
        ("grep", 1, "usage: grep [-abcdDEFGHhIiJLlMmnOopqRSsUVvwXxZz] [-A num]", False),
        # Claude Code 1.0: a bare "Error" and no code for a command that printed nothing
        # (real sessions not in the repository: six grep searches had become a pattern)
        ('grep -rn "vsla_set_f64" src/', None, "Error", True),
        ("cmake --build build", None, "Error", False),
    ],
)
def test_benign_exit_codes_per_command_family(
    command: str, exit_code: int | None, output: str, benign: bool
) -> None:
    assert is_benign_exit(command, exit_code, output) is benign


def test_shell_init_noise_is_never_a_signature() -> None:
    noise = "bash: /home/dev/.bashrc: line 12: /opt/conda/etc/profile.d/conda.sh: No such file"
    outputs = [(f"{noise}\nok {i}", False) for i in range(4)] + [
        (f"{noise}\nModuleNotFoundError: No module named 'yaml'", True)
    ]
    assert noise in noise_lines(outputs)
    # a line that only failures print is the failure itself, not noise
    failing = [(f"ModuleNotFoundError: No module named 'yaml' {i}", True) for i in range(5)]
    assert not noise_lines(failing)


def test_a_failures_example_is_the_same_whatever_noise_a_pass_knew() -> None:
    """A PowerShell failure's lines end in CRLF (a Windows Codex session's
    `Invoke-WebRequest`). Its example was kept with them by a pass that knew no noise
    lines, and without them by one that knew some: the same failure shown two ways."""
    from sleepd.mining.errors import NoiseFilter
    from sleepd.mining.signatures import example_of

    noise = "bash: /home/dev/.bashrc: line 12: /opt/conda/etc/profile.d/conda.sh: No such file"
    output = (
        "Invoke-WebRequest : 404: Not Found\r\n"
        "At line:1 char:1\r\n"
        "+ Invoke-WebRequest -Uri https://example.com/missing\r\n"
    )
    knowing = NoiseFilter(frozenset({noise}))
    assert knowing.strip(output) == NoiseFilter().strip(output) == output
    assert knowing.strip(f"{noise}\r\n{output}") == output
    assert example_of(knowing.strip(output), 1) == example_of(NoiseFilter().strip(output), 1)


def test_a_remote_machines_login_banner_is_its_noise() -> None:
    """Wild sample 4 (a public session, not in the repository): every `ssh root@host …`
    printed the host's banner first, a minority of the session's shell outputs, and a
    failure with no other line was signed "Ubuntu <n>.<n> LTS"."""
    calls, results = [], []
    commands = [(f"ls -la src/{i}", f"file{i}.ts", 0) for i in range(6)]
    commands += [(f'ssh root@box "systemctl is-active app{i}"', "Ubuntu 24.04.4 LTS\nactive", 0)
                 for i in range(2)]  # fmt: skip
    commands += [("ssh root@box \"psql -c 'select 1'\"", "Ubuntu 24.04.4 LTS", 2)]
    for n, (command, output, code) in enumerate(commands):
        calls.append(_call(2 * n, "Bash", json.dumps({"command": command})))
        results.append(_result(2 * n + 1, 2 * n, output, exit_code=code))
    assert "Ubuntu 24.04.4 LTS" in session_noise([*calls, *results])
    assert "Ubuntu 24.04.4 LTS" not in noise_lines([(r.text, False) for r in results])


def test_program_of_reads_through_what_runs_a_command() -> None:
    assert program_of("ssh -i key root@h \"cd /srv && psql -c 'x' | grep y\"") == "grep"
    assert program_of("bash -lc 'npm test'") == "npm"
    assert program_of("docker exec -w /app web npm run build") == "npm"
    assert program_of("command -v beads") == "command -v"
    assert program_of("") == ""
    assert remote_of("ssh -p 22 root@h uptime") == "ssh root@h"
    assert remote_of("ls -la") == ""


# --- missed errors ------------------------------------------------------------------


def test_codex_patch_verification_failure_is_an_error_without_the_flag() -> None:
    result = _result(
        1,
        0,
        "apply_patch verification failed: Failed to find expected lines in "
        "/work/app/src/SqlEditor.tsx:\nuseEffect(() => {",
        is_error=False,
    )
    assert is_failed_result(result)


def test_tool_use_error_results_are_errors_wherever_they_occur() -> None:
    # b25638d7 (Claude subagent-era Write without a Read), stored without is_error
    result = _result(
        1,
        0,
        "<tool_use_error>File has not been read yet. Read it first before writing to it."
        "</tool_use_error>",
        is_error=False,
        is_sidechain=True,
    )
    assert is_failed_result(result)
    assert judge_errors([result]).verdicts[1].kind == "root"


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 54 (maxxentropy/claudeops, Claude Code 1.0.56, not in the repository):
        # a Write before a Read, answered without the `<tool_use_error>` wrapper
        "File has not been read yet. Read it first before writing to it.",
        "File has been modified since read, either by the user or by a linter.",
        "No changes to make: old_string and new_string are exactly the same.",
    ],
)
def test_claude_codes_own_answer_without_its_wrapper_is_no_persons_words(text: str) -> None:
    call = _call(1, "Write", '{"file_path": "C:\\repo\\.claude\\settings.local.json"}')
    result = _result(2, 1, text, is_error=True)
    assert judge_errors([call, result]).verdicts[2].kind == "root"


def test_a_failure_hidden_by_a_pipe_is_an_error() -> None:
    # melagiri 25_… (`git log --oneline --all -- cli/src/commands/sync.ts | head -10`, exit 0)
    # and marot spotter subagent (`find` on a directory that does not exist)
    for text in (
        "fatal: empty filename in tree entry",
        "find: \u2018/home/USER/projects/spotter-worktrees/spotter-dov/assets/css\u2019: "
        "No such file or directory",
    ):
        assert is_failed_result(_result(1, 0, text, exit_code=0))
    # a search hit that mentions an error is output, not a failure
    assert not is_failed_result(_result(1, 0, "src/app.py:12: raise ValueError('fatal: x')"))


@pytest.mark.parametrize(
    "text",
    [
        # MSBuild and the .NET analyzers behind `| tail`, their messages in Turkish (held-out
        # set 39, read after its score): the coded diagnostic, whatever its language
        "C:\\Users\\dev\\NumberToWordsConverter.cs(269,37): error CS0103: 'ScaleWord' ad\u0131 "
        "ge\u00e7erli ba\u011flamda yok [C:\\Users\\dev\\NumWordify.csproj]\n    5 Uyar\u0131\n"
        "    5 Hata\n\nGe\u00e7en S\u00fcre 00:00:07.12",
        "MSBUILD : error MSB1009: Proje dosyas\u0131 yok.",
        "error CA1304: 'NumberToWordsConverter(string)' \u00f6\u011fesinin "
        "davran\u0131\u015f\u0131\n"
        "=== SUMMARY ===\n    0 Uyar\u0131\n    44 Hata",
        "src/app.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
        # xUnit's failed test over its localized summary
        "  NumWordify.Tests.Options_do_not_silently_drop_a_currency_code [FAIL]\n"
        "Ba\u015far\u0131s\u0131z! - Ba\u015far\u0131s\u0131z: 1, Ba\u015far\u0131l\u0131: 2",
        # a Python traceback whose head was cut off by `| tail`
        '  File "/usr/lib/python3.14/json/decoder.py", line 363, in raw_decode\n'
        '    raise JSONDecodeError("Expecting value", s, err.value) from None\n'
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
        "=== pypi technocore-mcp ===\n404",
    ],
)
def test_a_coded_diagnostic_or_failed_test_behind_a_pipe_is_an_error(text: str) -> None:
    command = "dotnet build 2>&1 | tail -20"
    result = _result(2, 1, text, exit_code=0)
    assert is_failed_result(result, _bash(1, command))
    assert judge_errors([_bash(1, command), result]).verdicts[2].kind == "root"


@pytest.mark.parametrize(
    "text",
    [
        # a search hit that quotes such a diagnostic inside a line of JSON
        'examples/codex.jsonl:261:{"output":"src/a.ts(3,5): error TS2322: Type x"}',
        "docs/errors.md:12: error CS0103 means a name is not in scope",
        "warning CS0168: The variable 'e' is declared but never used",
        "    [FAIL] count: 0",
    ],
)
def test_what_quotes_a_diagnostic_is_no_failure(text: str) -> None:
    command = "cat notes.txt | head -20"
    assert not is_failed_result(_result(2, 1, text, exit_code=0), _bash(1, command))


#: isaacmorgado/claude-sovereign (sessions of an owner of set 22, in its repository, not
#: copied here): a test script's own summary, shown through `| tail -20`, that nothing failed.
PASSING_SUMMARY = (
    "  \u2713 Plugin handles license lookup\n\n"
    + "=" * 50
    + "\n=== FINAL E2E TEST RESULTS ===\n"
    + "=" * 50
    + "\n\u2713 Passed: 50\n\u2717 Failed: 0\n\u25cb Skipped: 0\n\u2500 Total: 50\n"
    + "=" * 50
    + "\n\n\u2705 ALL TESTS PASSED - Ready for production"
)


@pytest.mark.parametrize(
    ("command", "output", "failed"),
    [
        # histories outside the repository (FSM1/cipher-box, melagiri/code-insights, MIT):
        # pnpm's error code behind a pipe, which hid its exit
        (
            "pnpm --filter web exec biome check --write src/a.tsx 2>&1 | tail -10",
            "undefined\n/Users/michael/Code/cipher-box/apps/web:\n\u2009"
            'ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL\u2009 Command "biome" not found',
            True,
        ),
        (
            "pnpm --filter web typecheck 2>&1 | tail -20",
            "\u2009ERR_PNPM_RECURSIVE_RUN_NO_SCRIPT\u2009 None of the selected packages has a "
            '"typecheck" script',
            True,
        ),
        # a labelled fixture (chikachow/cyspbot): pnpm's failed look for a newer pnpm, on the
        # way of a check that passed
        (
            "corepack pnpm node --run check | tail -20",
            "Scope: all 7 workspace projects\n\u2009ERR_PNPM_META_FETCH_FAIL\u2009 GET "
            "https://registry.npmjs.org/pnpm: request to https://registry.npmjs.org/pnpm "
            "failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org\n\nDone in 152ms using "
            "pnpm v10.33.0\nAll matched files use the correct format.",
            False,
        ),
    ],
)
def test_pnpms_error_code_behind_a_pipe_is_a_failure(
    command: str, output: str, failed: bool
) -> None:
    call = _call(1, "Bash", json.dumps({"command": command}))
    assert is_failed_result(_result(2, 1, output, exit_code=0), call) is failed


@pytest.mark.parametrize(
    ("command", "output", "failed"),
    [
        # the cross-marked zero count, plain or coloured, is the summary's "none failed"
        ("node tests/final-e2e.test.js 2>&1 | tail -20", PASSING_SUMMARY, False),
        (
            "npx tsx scripts/test-female-analysis.ts 2>&1 | tail -50",
            "  \x1b[32m\u2713\x1b[0m Passed: 87\n  \x1b[31m\u2717\x1b[0m Failed: 0\n"
            "  \x1b[33m\u26a0\x1b[0m Warnings: 13\n\n  Total: 87 tests\n  Success Rate: 100.0%",
            False,
        ),
        # a summary's "Total Failed: 0" and a status listing's "Jobs failed: 0" are counts,
        # not a tool saying it failed
        (
            "node tests/phase1-complete.test.js 2>&1 | tail -30",
            "PHASE 1 COMPLETE TEST SUMMARY\nTotal Passed: 188\nTotal Failed: 0\nTotal Tests:  188",
            False,
        ),
        (
            "python3 check_endpoints.py",
            "architect (1ememx9x9kg61c):\n  Ready: 0\n  Unhealthy: 1\n  Jobs in queue: 3\n"
            "  Jobs failed: 0",
            False,
        ),
        # a linter's cross-marked summary that counts no error, only warnings (Vale in
        # JanDeDobbeleer/oh-my-posh's history, MIT, not in the repository: five such checks
        # of one document made a recurring pattern), coloured or plain, and ESLint's
        (
            "vale AGENTS.md .agents/skills/segment-docs 2>&1 | tail -6",
            " 45:17  \x1b[33mwarning\x1b[0m  Consider replacing 'only'. It   agentic.communal\n"
            "                 is communal vs agentic.\n\n"
            "\u2716 \x1b[31m0 errors\x1b[0m, \x1b[33m24 warnings\x1b[0m and \x1b[34m0 "
            "suggestions\x1b[0m in 13 files.",
            False,
        ),
        ("npx eslint src | tail -3", "\u2716 5 problems (0 errors, 5 warnings)", False),
        # the same summaries counting errors
        (
            "vale README.md | tail -2",
            "\u2716 1 error, 5 warnings and 0 suggestions in 1 file.",
            True,
        ),
        ("npx eslint src | tail -3", "\u2716 3 problems (3 errors, 0 warnings)", True),
        # one failure counted, a test's own cross, a tool's "… failed:" with its reason: failed
        (
            "npx tsx scripts/test-female-analysis.ts 2>&1 | tail -40",
            "  \x1b[32m\u2713\x1b[0m Passed: 16\n  \x1b[31m\u2717\x1b[0m Failed: 1\n\n"
            "  Total: 17 tests\n  Success Rate: 94.1%",
            True,
        ),
        ("npm test 2>&1 | tail -5", "  \u2717 renders the login form\n\n1 passing", True),
        ("python3 poll.py", "write_stdin failed: Unknown process id 3", True),
        ("make 2>&1 | tail -3", "Build failed: 2 errors", True),
    ],
)
def test_a_summary_that_counts_no_failure_is_no_failure(
    command: str, output: str, failed: bool
) -> None:
    call = _call(1, "Bash", json.dumps({"command": command}))
    assert is_failed_result(_result(2, 1, output, exit_code=0), call) is failed


def test_a_program_refusing_its_arguments_is_an_error_whatever_the_exit_code() -> None:
    # entireio 60_61721bc409 line 19 (macOS grep, behind `| while read …`), teslamint
    # BP_01M0DCC9VQ4C line 274 (a typer program's usage error) and Y4_01M0EPDW7YQ6 line 116
    # (`python -m pytest … | tail -30` where pytest is not installed)
    for text in (
        "grep: invalid option -- P\nusage: grep [-abcdDEFGHhIiJLlMmnOopqRSsUVvwXxZz] "
        "[-A num] [-B num] [-C[num]]\n\t[-e pattern] [-f file] [--binary-files=value]",
        "Usage: ec decision create [OPTIONS] {title}\nTry 'ec decision create --help' for "
        "help.\n\u256d\u2500 Error \u2500\u2500\u256e\n\u2502 No such option: --title "
        "(Possible options: --rationale) \u2502",
        "/opt/homebrew/Caskroom/miniconda/base/bin/python: No module named pytest",
    ):
        assert is_failed_result(_result(1, 0, text, exit_code=0))
    # a program's help asked for, and search hits that name such messages, are output
    for text in (
        "usage: grep [-abcdDEFGHhIiJLlMmnOopqRSsUVvwXxZz] [-A num] [-B num]",
        'src/opts.c:10:    fprintf(stderr, "%s: invalid option", prog);',
        "docs/cli.md:4: Try 'sleepd --help' for help.",
        "tests/test_imports.py:3: # python: No module named pytest",
    ):
        assert not is_failed_result(_result(1, 0, text, exit_code=0))


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # yutakobayashidev/repiq 24_723c7a3c59 line 128: a Go (cobra) CLI refuses a flag,
        # prints its usage, and `|| echo` hides the exit
        (
            'which entire && entire --version || echo "entire not found"',
            "/etc/profiles/per-user/yuta/bin/entire\nUsage:\n  entire [flags]\n\n"
            'Use "entire [command] --help" for more information about a command.\n\n'
            "Error: Invalid usage: unknown flag: --version\nentire not found",
        ),
        # the same capitalised line as click and a Rust program's main print it
        (
            "mytool sync --dry 2>&1 | tail -3",
            "Usage: mytool sync [OPTIONS]\nError: No such option: --dry",
        ),
        ("cargo run -q 2>&1 | tail -2", "Error: config file not found: ./app.toml"),
    ],
)
def test_a_capitalised_error_line_behind_a_pipe_is_an_error(command: str, output: str) -> None:
    result = _result(2, 1, output)
    assert is_failed_result(result, _bash(1, command))
    assert judge_errors([_bash(1, command), result]).verdicts[2].kind == "root"


def test_a_usage_text_nobody_asked_for_is_an_error() -> None:
    """Blind set 15 (kept outside the repository; values made up, shapes its): git answers
    a misplaced flag with its usage text, and the pipe hides the exit."""
    usage = "usage: git revert [--[no-]edit] [-n] [-m <parent-number>] [-s] <commit>...\n"
    result = _result(2, 1, usage)
    wrong = _bash(1, "git revert --no-edit b6443c1 -q 2>&1 | head -3")
    assert is_failed_result(result, wrong)
    assert judge_errors([wrong, result]).verdicts[2].kind == "root"
    # the same text asked for is the answer
    for asked in ("git revert -h 2>&1 | head -3", "git help revert | head", "prog --help | cat"):
        assert not is_failed_result(result, _bash(1, asked))


def test_a_search_tool_that_found_nothing_is_benign() -> None:
    """Blind set 15 (kept outside; values made up): an MCP code search flags "no results"
    as an error, as grep's exit 1 says no match: an answer, not a failure."""
    call = _call(1, "mcp__code-search__search_code", json.dumps({"query": "retry budget"}))
    # (several lines, and tool words, so that it cannot pass for what a person typed)
    hint = "\nTry a broader query, or check the repository filter."
    for head in ("No results found for your query.", "No matches found.", "Found 0 results"):
        text = head + hint
        result = _result(2, 1, text, is_error=True)
        assert judge_errors([call, result]).verdicts[2].kind == "benign"
    # a real failure of the same tool stays a failure, so does a search that found nothing
    # because it failed, and so do a shell's own words
    broken = _result(
        2, 1, "No results found: the search index is unreachable" + hint, is_error=True
    )
    assert judge_errors([call, broken]).verdicts[2].kind == "root"
    failed = _result(2, 1, "Error: index not built for this repository" + hint, is_error=True)
    assert judge_errors([call, failed]).verdicts[2].kind == "root"
    shell = _result(2, 1, "No results found for your query.", is_error=True, exit_code=2)
    assert judge_errors([_bash(1, "./search.sh retry"), shell]).verdicts[2].kind == "root"


def test_a_call_codex_could_not_run_as_made_is_a_root_error() -> None:
    """Blind set 16 (kept outside; shapes its): stored unflagged before the harvest flagged
    them, Codex's answers to a malformed call are the agent's failures, not a person's words."""
    call = _call(1, "shell<|channel|>", json.dumps({"cmd": ["bash", "-lc", "ls"]}))
    for text in (
        "unsupported call: shell<|channel|>",
        "failed to parse function arguments: missing field `command` at line 1 column 53",
    ):
        for result in (_result(2, 1, text), _result(2, 1, text, is_error=True)):
            assert is_failed_result(result)
            assert judge_errors([call, result]).verdicts[2].kind == "root"


def test_node_dying_of_an_uncaught_error_behind_a_pipe_is_an_error() -> None:
    """Blind set 17 (kept outside; shapes its, values made up): Node's report of an
    uncaught exception, its exit hidden by a background run and an echo or by `| head`, and
    Node refusing an option under its Windows path."""
    crash = (
        "file:///C:/w/app/dist/index.js:2\nObject.defineProperty(exports, 'x', {});\n"
        "                      ^\n\nReferenceError: exports is not defined in ES module scope\n"
        "    at file:///C:/w/app/dist/index.js:2:23\n\nNode.js v22.1.0\nExit: 1"
    )
    coded = (
        "node:internal/modules/esm/resolve:978\n    if (flag) { throw new ERR_X(); }\n"
        "                               ^\n\nError [ERR_INPUT_TYPE_NOT_ALLOWED]: --input-type "
        "can only be used with string input"
    )
    for command, output in (
        ('node dist/index.js &\nPID=$!\nsleep 2\nkill $PID\necho "Exit: $?"', crash),
        ("node --input-type=commonjs dist/index.js 2>&1 | head -5", coded),
        ('node -e "1" --cwd C:/w 2>&1 || echo NOT SET', "C:\\nvm\\node.exe: bad option: --cwd"),
    ):
        result = _result(2, 1, output)
        assert is_failed_result(result, _bash(1, command)), command
        assert judge_errors([_bash(1, command), result]).verdicts[2].kind == "root"
    # a `claude -p` that answered, then reported its own session-end hook crashing
    answered = (
        '[{"type":"result","subtype":"success","result":"Hello there friend"}]\n'
        "SessionEnd hook [node /u/lib/cli/dist/index.js session-end] failed:\n"
        "file:///u/lib/cli/dist/db/queue.js:25\nSqliteError: FOREIGN KEY constraint failed\n"
        "    at enqueue (file:///u/lib/cli/dist/db/queue.js:25:69)\n\nNode.js v22.1.0"
    )
    ran = _bash(1, 'claude -p --output-format json <<< "say hello" 2>&1 | head -20')
    assert not is_failed_result(_result(2, 1, answered), ran)
    # a log that quotes a version line or an error code is output
    for output in ("Using Node.js v22.1.0 from nvm", "docs: see Error [ERR_X]: in the guide"):
        assert not is_failed_result(_result(2, 1, output), _bash(1, "cat notes.txt | head"))


def test_a_tools_refusal_in_its_own_sentence_behind_a_pipe_is_an_error() -> None:
    """Blind set 23 (kept outside; shape its, values made up): create-next-app refusing a
    folder name, its exit hidden by `| tail -10`; and the same refusal as other tools word it."""
    for command, output in (
        (
            "npx create-next-app@latest . --ts --yes 2>&1 | tail -10",
            'Could not create a project called "Notes" because of npm naming restrictions:\n'
            "    * name can no longer contain capital letters",
        ),
        ("node scripts/build.js 2>&1 | tail -3", "Cannot find module 'esbuild'\nRequire stack:"),
        (
            "apt-get install -y foo 2>&1 | tail -2",
            "Reading state information...\nE: Unable to locate package foo",
        ),
        (
            "pip install nosuchpkg 2>&1 | tail -1",
            "Could not find a version that satisfies the requirement nosuchpkg",
        ),
    ):
        result = _result(2, 1, output)
        assert is_failed_result(result, _bash(1, command)), command
        assert judge_errors([_bash(1, command), result]).verdicts[2].kind == "root"
    # the words inside a line, or a sentence that is no refusal, are what the command printed
    for output in ("the agent Could not create it, said the log", "Cannot. Stop.", "Unable to"):
        assert not is_failed_result(_result(2, 1, output), _bash(1, "cat notes.txt | tail"))


def test_a_type_checkers_findings_and_an_empty_path_behind_a_pipe_are_errors() -> None:
    """Held-out set 24 (TensorTemplar/slopometry; its tool errors read after its scoring):
    pyrefly's findings behind `| head -50` and `| tail -20`, and a loop whose variable
    expanded to nothing, every grep handed an empty path."""
    pyrefly = (
        " INFO Found `/u/slopometry/pyproject.toml` marking project root\n"
        "ERROR Could not find import of `conftest` [missing-import]\n"
        " --> tests/test_cli_calculator.py:3:1"
    )
    empty = (
        "===  ===\n===  ===\ngrep: : No such file or directory\ngrep: : No such file or directory"
    )
    for command, output in (
        ("uv run pyrefly check 2>&1 | head -50", pyrefly),
        (
            "npx pyright 2>&1 | tail -3",
            "  /u/a.py:3:1 - error: Import could not be resolved\n"
            "3 errors, 0 warnings, 0 informations",
        ),
        ('for f in a.py b.py; do echo "=== $f ==="; grep -n "#" "$f" | head -20; done', empty),
    ):
        result = _result(2, 1, output)
        assert is_failed_result(result, _bash(1, command)), command
        assert judge_errors([_bash(1, command), result]).verdicts[2].kind == "root"
    # a log that quotes a finding inside a line, and a path that is there, are output
    for output in ("see ERROR Could not find import [missing-import] in the log", "grep: a.py"):
        assert not is_failed_result(_result(2, 1, output), _bash(1, "cat notes.txt | tail"))


def test_an_error_word_inside_a_line_behind_a_pipe_is_output() -> None:
    # a log line and a search hit that carry the word are what the command printed
    for output in (
        "2026-01-02 10:00:01 Error: retrying upstream",
        "src/app.ts:3:  throw new Error: bad",
        "  Error: shown indented in a stack",
    ):
        result = _result(2, 1, output)
        assert not is_failed_result(result, _bash(1, "tail -1 app.log | cat"))


#: anmol0b/Trezo-Ai e31ed1dc26 line 24: `rg --files` over a home folder on macOS lists its
#: 1,020 hits and exits 2 for folders it could not read (two lines; paths shortened here)
UNREADABLE_HOME = (
    "/Users/a/Developer/app/README.md\n"
    "rg: /Users/a/Library/Containers/com.apple.InternalFiltersXPC/Data/Documents: "
    "Interrupted system call (os error 4)\n"
    "/Users/a/Documents/New project/README.md\n"
)


@pytest.mark.parametrize(
    ("command", "exit_code", "output", "benign"),
    [
        ("rg --files -g 'README*' /Users/a", 2, UNREADABLE_HOME, True),
        (
            "find / -name docker-compose.yml",
            1,
            "find: '/proc/1/map_files': Permission denied\n/srv/app/docker-compose.yml\n"
            "find: '/root': Permission denied",
            True,
        ),
        (
            "grep -r TODO /etc",
            2,
            "grep: /etc/shadow: Permission denied\n/etc/a.conf:3:# TODO",
            True,
        ),
        # nothing found: the walk's errors are all it said
        ("find / -name x.yml", 1, "find: '/root': Permission denied", False),
        # a path the agent named that is not there is an error of its own
        (
            "rg -n compact node_modules/opencode-ai src",
            2,
            "rg: node_modules/opencode-ai: No such file or directory (os error 2)\n"
            "src/a.ts:1:compact",
            False,
        ),
        # not a walk: a copy that could not read one of its files failed
        ("cp -r src /backup", 1, "cp: src/key.pem: Permission denied\n", False),
    ],
)
def test_a_search_that_found_past_unreadable_paths_answered(
    command: str, exit_code: int, output: str, benign: bool
) -> None:
    assert is_benign_exit(command, exit_code, output) is benign


@pytest.mark.parametrize(
    ("command", "exit_code", "output", "benign"),
    [
        # SproutSeeds/coda 0199b26c lines 97 and 1100 (Codex, macOS): is it there? no
        (
            "ls .specify/templates/commands",
            1,
            "ls: .specify/templates/commands: No such file or directory",
            True,
        ),
        ("ls package.json", 1, "ls: package.json: No such file or directory", True),
        # yutakobayashidev/repiq f4_784ee5a009 line 75: lsd, one path of two not there
        (
            "ls -la ~/ghq/repiq/CLAUDE.md ~/ghq/repiq/.claude/",
            2,
            "lsd: /home/yuta/ghq/repiq/CLAUDE.md: No such file or directory (os error 2).\n"
            "drwxr-xr-x yuta users 4 KB Mon Feb 16 12:00:00 2026 settings.json",
            True,
        ),
        ("ls -la ops", 2, "ls: cannot access 'ops': No such file or directory", True),
        # the shell refused the glob before ls ran; a path it may not read; not a probe
        ("ls CHANGELOG*", 1, "(eval):1: no matches found: CHANGELOG*", False),
        ("ls -la /root", 2, "ls: cannot open directory '/root': Permission denied", False),
        ("cat notes.md", 1, "cat: notes.md: No such file or directory", False),
        # maxnoobineating e0ddd92b line 53: the same answer shown through a pager, which
        # hid the status (is_error false); not when more than the probe ran, nor a reader
        (
            "ls -la /root/esp32/get-started/hello_world/build 2>&1 | head -30",
            None,
            "ls: cannot access '/root/esp32/get-started/hello_world/build': No such file or "
            "directory",
            True,
        ),
        (
            "ls -la /root 2>&1 | head",
            None,
            "ls: cannot open directory '/root': Permission denied",
            False,
        ),
        (
            "ls x | head; cat x/a.md",
            None,
            "ls: cannot access 'x': No such file or directory",
            False,
        ),
        ("ls x | grep y", None, "ls: cannot access 'x': No such file or directory", False),
        ("cat notes.md | head", None, "cat: notes.md: No such file or directory", False),
    ],
)
def test_a_path_looked_up_that_is_not_there_is_an_answer(
    command: str, exit_code: int | None, output: str, benign: bool
) -> None:
    assert is_benign_exit(command, exit_code, output) is benign


NO_REMOTE = (
    "Exit code: 1\nWall time: 0.9 seconds\nOutput:\nNow using node v22.20.0 (npm v10.9.3)\n"
    "fatal: 'origin' does not appear to be a git repository\n"
    "fatal: Could not read from remote repository.\n\n"
    "Please make sure you have the correct access rights\nand the repository exists.\n"
)


@pytest.mark.parametrize(
    ("command", "output", "kind"),
    [
        # Prometheus-AGS/prometheus-parking-lot-rs 019af581 line 26 (set 13, Codex): which
        # feature branches does the remote have? there is no remote: none
        ("git ls-remote --heads origin | grep -E 'refs/heads/[0-9]+-parking'", NO_REMOTE, "benign"),
        # the same question when the network is down failed; fetching is no question
        (
            "git ls-remote --heads origin",
            "ssh: Could not resolve hostname github.com: Temporary failure in name resolution\n"
            "fatal: Could not read from remote repository.",
            "root",
        ),
        ("git fetch --all --prune", NO_REMOTE, "root"),
    ],
)
def test_a_question_about_a_remote_that_does_not_exist_is_answered(
    command: str, output: str, kind: str
) -> None:
    call = _call(1, "shell_command", json.dumps({"command": command}))
    result = _result(2, 1, output, exit_code=1)
    assert judge_errors([call, result]).verdicts[2].kind == kind


@pytest.mark.parametrize(
    ("command", "output", "kind"),
    [
        # PowerAppsDarren/bible-structure ee315055 lines 22-23 (set 37, read after it was
        # scored): does the repository, named with git's -C, have these remotes yet? git's
        # "No such remote" and the command's own fallback word beside it: none, the answer
        (
            'git -C "C:\\src\\src-darren\\model-repo" remote get-url alt 2>&1 || echo "NOT_FOUND"',
            "error: No such remote 'alt'\nNOT_FOUND",
            "benign",
        ),
        (
            "git -c core.pager=cat --no-pager remote get-url asgard 2>&1 || echo 'missing'",
            "error: No such remote 'asgard'\nmissing",
            "benign",
        ),
        # the fallback's words are the agent's; other trouble beside them is git's
        (
            'git -C repo remote get-url origin 2>&1 || echo "NOT_FOUND"',
            "fatal: not a git repository (or any of the parent directories): .git\nNOT_FOUND",
            "root",
        ),
        # an option's value is no subcommand: pushing to a remote named "remote" asks nothing
        (
            "git -C remote push remote main 2>&1 || echo failed",
            "error: No such remote 'remote'\nfailed",
            "root",
        ),
    ],
)
def test_a_remote_asked_after_gits_own_options_and_with_a_fallback_is_answered(
    command: str, output: str, kind: str
) -> None:
    call = _call(1, "Bash", json.dumps({"command": command}))
    result = _result(2, 1, output, exit_code=0)
    assert judge_errors([call, result]).verdicts[2].kind == kind


@pytest.mark.parametrize(
    ("command", "exit_code", "output", "benign"),
    [
        # git's questions read the same after git's own options (`git -C path grep`)
        ('git -C "C:\\src\\app" grep -n TODO', 1, "", True),
        ("git --no-pager diff --exit-code -- src/", 1, "diff --git a/src/x b/src/x", True),
        ("git -C app push origin main", 1, "error: failed to push some refs", False),
        # PowerAppsDarren/bible-structure f2a2abf9 line 35 (set 37, read after it was
        # scored): `ssh-add -l` run to see whether the key is loaded; its documented exit 2,
        # no agent to ask, is that answer
        ("ssh-add -l 2>&1", 2, "Could not open a connection to your authentication agent.", True),
        ("ssh-add -l", 2, "Error connecting to agent: No such file or directory", True),
        (
            "ssh-add ~/.ssh/id_ed25519",
            2,
            "Could not open a connection to your authentication agent.",
            False,
        ),
        (
            "ssh-add -l",
            2,
            "Could not open a connection to your authentication agent.\nerror: x",
            False,
        ),
    ],
)
def test_questions_read_the_same_whatever_options_reach_the_program(
    command: str, exit_code: int, output: str, benign: bool
) -> None:
    assert is_benign_exit(command, exit_code, output) is benign


@pytest.mark.parametrize(
    ("command", "output", "benign"),
    [
        # ivanma9/ship 019ce327 lines 127 and 126 (set 12, Codex 0.114): while a Playwright
        # run goes on, the agent asks whether its process still runs, and polls the
        # project's progress script, which answers "not yet" with exit 1
        ("ps -p 36591 -o pid=,stat=,etime=,command=", "", True),
        ("kill -0 $SERVER_PID", "", True),
        ("./scripts/watch-tests.sh --once", "\x1b[1;33mWaiting for tests to start...\x1b[0m", True),
        # a Codex history outside the repository (jdx/mise, MIT): the logs of a CI run
        # asked for before it finished
        (
            "gh run view 28551206590 --log-failed",
            "run 28551206590 is still in progress; logs will be available when it is complete",
            True,
        ),
        # killing a process, or a wait that ended in an error, is no question
        ("kill -9 36591", "kill: (36591) - No such process", False),
        ("./scripts/wait-db.sh", "Waiting for the database... timed out, error", False),
        ("./scripts/wait-db.sh", "Waiting for the database...\nconnection refused", False),
    ],
)
def test_a_poll_that_answers_not_yet_or_no_such_process_is_benign(
    command: str, output: str, benign: bool
) -> None:
    assert is_benign_exit(command, 1, output) is benign


@pytest.mark.parametrize(
    "output",
    [
        # Monotoba/OpenPrintKit 97b66f6c lines 145 and 397 (Codex 0.34): `apply_patch` run
        # through the shell, answered in plain text with no exit code
        "error: Failed to find expected lines in /home/randy/projects/python-3/OpenPrintKit/"
        "README.md:\n🧰 Project Structure",
        "error: invalid hunk at line 4, '' is not a valid hunk header. Valid hunk headers: "
        "'*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
    ],
)
def test_a_patch_the_shell_could_not_apply_is_an_error(output: str) -> None:
    command = "apply_patch << 'PATCH'\n*** Begin Patch\n*** Update File: README.md\n@@"
    call = _call(1, "shell", json.dumps({"command": ["bash", "-lc", command]}))
    result = _result(2, 1, output)
    assert is_failed_result(result, call)
    assert judge_errors([call, result]).verdicts[2].kind == "root"
    # a search hit that quotes the message is output
    assert not is_failed_result(_result(2, 1, "src/patch.rs:12: error: invalid hunk at line"))


def test_coloured_and_linter_diagnostics_behind_a_pipe_are_an_error() -> None:
    # f/awesome-chatgpt-prompts af_bec17cde9f line 150 (`npx tsc --noEmit --pretty 2>&1 |
    # head -30`: tsc colours its diagnostics) and JanDeDobbeleer 27_d853466055 line 207
    # (`… golangci-lint run 2>&1 | tail -3`)
    tsc = (
        "\x1b[96msrc/__tests__/api/admin-categories.test.ts\x1b[0m:\x1b[93m29\x1b[0m:"
        "\x1b[93m39\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2345: \x1b[0mArgument of type "
        "'null' is not assignable to parameter of type 'NextMiddleware'.\n\n\x1b[7m29\x1b[0m"
        "     vi.mocked(auth).mockResolvedValue(null);\n"
    )
    lint = "config\\segment.go\n^\n1 issues:\n* gofmt: 1"
    for command, output in (
        ("npx tsc --noEmit --pretty 2>&1 | head -30", tsc),
        ("gofmt -l . ; golangci-lint run 2>&1 | tail -3", lint),
    ):
        result = _result(2, 1, output)
        assert is_failed_result(result, _bash(1, command))
        assert judge_errors([_bash(1, command), result]).verdicts[2].kind == "root"
    # a clean type check, and a linter that found nothing, behind the same pipes
    assert not is_failed_result(_result(2, 1, ""), _bash(1, "npx tsc --noEmit 2>&1 | head"))
    clean = "0 issues."
    assert not is_failed_result(_result(2, 1, clean), _bash(1, "golangci-lint run | tail -3"))


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # handgemacht-ai 37f83ec9 line 225 (pytest asked for a file that is not there; the
        # real call kept its exit code, here a pipe takes it)
        (
            "uv run pytest test/test_combined_transcript_link.py -v 2>&1 | tail -20",
            "ERROR: file or directory not found: test/test_combined_transcript_link.py\n\n\n"
            "============================= test session starts ==============================\n"
            "platform darwin -- Python 3.12.7, pytest-8.4.0, pluggy-1.6.0\n"
            "============================ no tests ran in 0.01s =============================",
        ),
        # pytest's own formats for an error outside a test (a collection error), with and
        # without -q, and its short summary line
        (
            "python -m pytest tests/ 2>&1 | tail -5",
            "ERROR tests/test_api.py - ModuleNotFoundError: No module named 'httpx'\n"
            "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n"
            "=============================== 1 error in 0.21s ===============================",
        ),
        ("pytest -q 2>&1 | tail -2", "1 error in 0.21s"),
        # pip and twine refusing, behind `|| echo`
        (
            "pip install 'sleepd==9.9' || echo done",
            "ERROR: Could not find a version that satisfies the requirement sleepd==9.9\ndone",
        ),
        (
            "twine upload dist/* 2>&1 | tail -3",
            "Uploading sleepd-0.1.0.tar.gz\nERROR    HTTPError: 403 Forbidden from "
            "https://upload.example/legacy/",
        ),
        # shapes from blind set 7 (outside the repository; the values here are made up):
        # pytest's report with its summary line cut off by `tail`, only its "E" line and
        # the raising file and line; a fixture's error through `grep`; and an upload's
        # error page, the server's HTML, through `tail`
        (
            "pytest tests/test_cards.py -v 2>&1 | tail -30",
            '>       assert "legacy_flag" not in names\n'
            "E       AssertionError: assert 'legacy_flag' not in ['id', 'deck_id']\n\n"
            "tests/test_cards.py:179: AssertionError\n"
            "=============================== warnings summary ===",
        ),
        (
            "pytest tests/test_cards.py::test_drill -v 2>&1 | grep ERROR | head -15",
            "tests/test_cards.py::test_drill ERROR          [100%]\n"
            "______________ ERROR at setup of test_drill ______________\n"
            "self = <sqlalchemy.engine.base.Connection object at 0x10a0>",
        ),
        (
            "uvx twine upload --verbose dist/* 2>&1 | tail -8",
            "         information.</title>\n          </head>\n          <body>\n"
            "           <h1>400 File already exists ('sleepd-0.1.0-py3-none-any.whl', \n",
        ),
    ],
)
def test_test_and_packaging_errors_behind_a_pipe_are_an_error(command: str, output: str) -> None:
    result = _result(2, 1, output)
    assert is_failed_result(result, _bash(1, command))


def test_passing_runs_and_logged_errors_behind_a_pipe_are_not_an_error() -> None:
    # a run whose summary has passes and no error, and an application's log lines
    passing = "tests/test_api.py ....\n============================== 4 passed in 0.30s =="
    assert not is_failed_result(_result(2, 1, passing), _bash(1, "pytest 2>&1 | tail -3"))
    # a page that only names an error code in its text, and source that raises one
    page = "<html><head><title>Status codes</title></head><body><h1>Errors</h1>404 …"
    assert not is_failed_result(_result(2, 1, page), _bash(1, "curl -s https://x | head"))
    source = "    raise ValueError('bad')\nE = 3  # the exponent\nsrc/a.py:12: raise …"
    assert not is_failed_result(_result(2, 1, source), _bash(1, "rg -n raise src | head"))
    logged = "ERROR:root:retrying the upload\n  ERROR: indented, in a quoted block\n"
    assert not is_failed_result(_result(2, 1, logged), _bash(1, "cat app.log | tail -2"))


def _bash(i: int, command: str) -> EventView:
    return _call(i, "Bash", json.dumps({"command": command}))


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # PackmindHub 5d_74e4f052ad line 123: the tests fail, `tail` exits 0
        (
            "bun test src/ 2>&1 | tail -5",
            " 1606 pass\n 24 fail\n 16 errors\n 3713 expect() calls\n"
            "Ran 1630 tests across 96 files. [11.66s]",
        ),
        # PackmindHub 17_252607bde7 line 39: the wrapper's usage error, `head` exits 0
        (
            "rtk bun run test 2>&1 | head -100",
            "error: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS] <COMMAND>\n\n"
            "For more information, try '--help'.",
        ),
        # PackmindHub 5d_74e4f052ad line 43: the linter's summary
        (
            "bun run lint 2>&1 | tail -10",
            "Checked 282 files in 156ms. No fixes applied.\nFound 1 error.\n"
            "check \u2501\u2501\u2501\n\n  \u00d7 Some errors were emitted while running checks.\n"
            '  \n\nerror: script "lint" exited with code 1',
        ),
    ],
)
def test_a_failure_a_pipe_hid_from_the_exit_code_is_an_error(command: str, output: str) -> None:
    result = _result(2, 1, output)
    assert not is_failed_result(result)  # no flag, no exit code: only the output tells
    assert is_failed_result(result, _bash(1, command))
    assert judge_errors([_bash(1, command), result]).verdicts[2].kind == "root"


def test_a_failure_codex_code_mode_prints_without_an_exit_code_is_an_error() -> None:
    # chikachow 4d_22222ed5984d line 142 (Codex code mode: the script prints the output only)
    call = _call(
        1,
        "exec",
        'const r = await tools.exec_command({"cmd":"gh pr review 83 --approve --body \\"No '
        'reportable findings.\\"","workdir":"/Users/cysp/src/cyspbot"});\ntext(r.output);\n',
    )
    result = _result(
        2,
        1,
        "Script completed\nWall time 3.5 seconds\nOutput:\n\nfailed to create review: GraphQL: "
        "Review Can not approve your own pull request (addPullRequestReview)\n",
    )
    verdict = judge_errors([call, result]).verdicts[2]
    assert verdict.kind == "root" and verdict.command.startswith("gh pr review 83")


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # a history outside the repository (entireio/cli, MIT): go test's failure, `tail`
        # exits 0
        (
            "go test ./cmd/entire/cli/... 2>&1 | tail -20",
            "ok  \tentire.io/cli/cmd/entire/cli/agent\t(cached)\n"
            "--- FAIL: TestShadow_CommitBeforeStop (1.15s)\nFAIL\n"
            "FAIL\tgithub.com/entireio/cli/cmd/entire/cli/integration_test\t23.693s\nFAIL",
        ),
        # the same, cut to its last line by `tail -100` of a -v run
        ("go test ./... -v 2>&1 | tail -100", "--- PASS: TestB (0.00s)\nPASS\nFAIL"),
        # mise refusing a config it does not trust, behind `| tail` (held-out set 38's
        # format, read after it was scored)
        (
            "mise run lint 2>&1 | tail -5",
            "mise ERROR error parsing config file: ~/src/app/mise.toml\n"
            "mise ERROR Config files in ~/src/app/mise.toml are not trusted.\n"
            "mise ERROR Run with --verbose or MISE_VERBOSE=1 for more information",
        ),
        # a Rust program's panic behind `|| true`, and a GraphQL API's errors behind a pipe
        (
            "hk test --list --step newlines || true",
            "thread 'main' (14442390) panicked at src/settings.rs:101:30:\n"
            "Failed to load configuration",
        ),
        (
            "gh api graphql -f query=@q.graphql | tee out.json",
            '{"errors":[{"message":"A query attribute must be specified and must be a string."}]}',
        ),
        # the shell refusing every part of a loop, under the headings it echoed
        (
            'for f in README.md go.mod; do echo "===== $f ====="; '
            "gh api repos/a/b/contents/$f?ref=x | head; done",
            "===== README.md =====\n"
            "zsh:1: no matches found: repos/a/b/contents/README.md?ref=x\n"
            "===== go.mod =====\nzsh:1: no matches found: repos/a/b/contents/go.mod?ref=x",
        ),
    ],
)
def test_a_failed_test_a_panic_or_a_refusal_a_command_hid_is_an_error(
    command: str, output: str
) -> None:
    result = _result(2, 1, output)
    assert not is_failed_result(result)
    assert is_failed_result(result, _bash(1, command))


@pytest.mark.parametrize(
    "output",
    [
        # prose and passing runs that mention the same words
        "see ERROR Could not find import in the log",
        "=== RUN   TestFail_Reports\n--- PASS: TestFail_Reports (0.00s)\nPASS\nok  \tx/y\t0.1s",
        '{"data":{"repository":{"issues":{"totalCount":0}}}}',
        "===== README.md =====\n# mise-php\nzsh:1: no matches found: *.lock",
    ],
)
def test_the_same_words_in_output_that_did_not_fail_are_no_error(output: str) -> None:
    assert not is_failed_result(_result(2, 1, output), _bash(1, "sh run.sh | tail"))


def test_a_codex_desktop_script_in_javascript_hides_the_exit_code_too() -> None:
    """Codex Desktop's code mode writes its script as JavaScript: a bare `cmd` key with a
    template literal, or several commands mapped over a list (held-out set 38's format,
    read after it was scored)."""
    literal = _call(
        1,
        "exec",
        "const r = await tools.exec_command({\n  cmd: `gh api graphql -f query='q' | rg "
        "'1765'`,\n  workdir: \"/Users/x/mise\"\n});\ntext(r.output);\n",
    )
    output = (
        "Script completed\nWall time 0.4 seconds\nOutput:\ngh: By the time this query "
        "traverses to the replies connection, it is requesting up to 1,000,000 nodes"
    )
    verdict = judge_errors([literal, _result(2, 1, output)]).verdicts[2]
    assert verdict.kind == "root" and verdict.command.startswith("gh api graphql")
    mapped = _call(
        1,
        "exec",
        'const cmds=["mise ls-remote vfox:jdx/vfox-php | tail -30","ls"];\n'
        "const out=await Promise.all(cmds.map(async cmd=>(await tools.exec_command({cmd,"
        'workdir:"/x"})).output)); out.forEach(text);',
    )
    refused = (
        "Script completed\nOutput:\nmise ERROR [vfox-jdx-vfox-php] plugin not installed\n"
        "mise ERROR Run with --verbose or MISE_VERBOSE=1 for more information\nREADME.md"
    )
    assert is_failed_result(_result(2, 1, refused), mapped)
    assert not is_failed_result(_result(2, 1, "Script completed\nOutput:\nREADME.md"), mapped)


def test_a_file_that_holds_a_code_mode_script_runs_nothing() -> None:
    """A file written or edited may hold a script's words: its tool hid no exit code, and
    the lines of the file it shows back are no failure."""
    write = _call(
        1,
        "Write",
        json.dumps({"file_path": "/w/run.js", "content": 'tools.exec_command({"cmd": "ls"})'}),
    )
    shown = "File created successfully at: /w/run.js\nerror: the old runner is gone"
    assert not is_failed_result(_result(2, 1, shown), write)


def test_a_wrapper_that_reports_a_failed_step_in_words_is_an_error() -> None:
    # PackmindHub d7_791c619932 line 121: `rtk git add … && rtk git commit …`, not flagged
    text = "ok \u2713 2 files changed, 10 insertions(+), 4 deletions(-)\nFAILED: git commit\n"
    assert is_failed_result(_result(1, 0, text + "$ bun test src/\nbun test v1.3.5 (1e86cebd)"))


def test_error_words_in_output_that_did_not_fail_are_not_an_error() -> None:
    # PackmindHub 17_252607bde7 line 57: a test logs the error it provokes; the summary
    # says nothing failed
    passing = _result(
        2,
        1,
        '317 | \t\t\t\tsubmitJobError: new Error("Database connection failed"),\n'
        "                              ^\nerror: Database connection failed\n"
        "      at <anonymous> (/Users/cedricteyton/Code/agents-md-evaluator/src/api/routes/"
        "evaluation.test.ts:317:25)\n\n 1329 pass\n 0 fail\n 2901 expect() calls\n"
        "Ran 1329 tests across 60 files. [820.00ms]",
    )
    assert not is_failed_result(passing, _bash(1, "bun test src/ --timeout 10000 2>&1 | tail -20"))
    # chikachow 08_1cbadb653608 line 46: source code printed by `sed` (no pipe) …
    source = "    console.error({\n      error: {\n        message: logMessage(error),\n"
    assert not is_failed_result(_result(2, 1, source), _bash(1, "sed -n '1,240p' src/a.ts"))
    # … and behind a pipe: an indented `error:` is code, a `path:line:` hit is a match
    grep_hits = "src/lib/log.ts:12:  error: vi.fn(),\nsrc/app.py:40: raise error: bad input"
    assert not is_failed_result(_result(2, 1, grep_hits), _bash(1, "rg -n 'error' src | head"))
    # melagiri 25_a0928becb5 line 668: a request made to fail on purpose, exit code intact
    curl = "failed to decode request: invalid GZIP data\nHTTP 400"
    assert not is_failed_result(_result(2, 1, curl), _bash(1, "curl -s -X POST -d 'test' 2>&1"))


def test_a_tool_error_line_is_not_the_persons_words_on_a_refusal() -> None:
    # PackmindHub 17_252607bde7 line 6: Read on a directory; one short line, like the
    # words a person types when refusing a call, but a tool's errno answer
    call = _call(1, "Read", '{"file_path": "/Users/cedricteyton/Code/agents-md-evaluator"}')
    result = _result(
        2,
        1,
        "EISDIR: illegal operation on a directory, read "
        "'/Users/cedricteyton/Code/agents-md-evaluator'",
        is_error=True,
    )
    assert judge_errors([call, result]).verdicts[2].kind == "root"


@pytest.mark.parametrize(
    "output",
    [
        # blind set 83 (JonSnow1807/RealityGuard, not in the repository; MIT), Claude Code
        # 1.0.120, which wrote a failed command's output with no exit code
        "fatal: pathspec 'neural_blur.py' did not match any files",
        "error: pathspec 'release' did not match any file(s) known to git",
        "mv: could not rename build to dist",
        "zsh: parse error near `)'",
        "SyntaxError: Unexpected token '}'",
    ],
)
def test_a_programs_one_line_failure_is_not_the_persons_words(output: str) -> None:
    call = _bash(1, "git add neural_blur.py adaptive_neural_blur.py")
    assert judge_errors([call, _result(2, 1, output, is_error=True)]).verdicts[2].kind == "root"


def test_the_persons_words_on_a_refused_call_stay_a_refusal() -> None:
    call = _bash(1, "git commit -am 'wip'")
    words = _result(2, 1, "please add the migration too first", is_error=True)
    assert judge_errors([call, words]).verdicts[2].kind == "benign"


# --- set 2 (promoted to tuning data): discussion turns, closing steps, judged answers ----

#: FSM1 04_6f4c1b3b1e line 174: the agent's reasoning, then its question (no change made)
REASONING = (
    "If/when multi-writer becomes a goal in v3, switching file IPNS keys to random would be "
    "part of that larger rework.\n\nWant me to capture this as a design note or todo for v3 "
    "planning?"
)


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # handgemacht 03eb5929 line 18: an opinion on the idea, then a request of its own
        (
            "I very much like this idea, and I used it already with some success in the clmail "
            "project. Can you list, in 5 bullet points, what are the strengths of this proposal?",
            "Is there something you'd like to do with this — flesh it out further, try applying "
            "it to a project, or something else?",
        ),
        # handgemacht a7da6a22 line 229: an observation, then "Propose."
        (
            "I saw in passing that in case of BadZipFile we don't do anything (pass); wouldn't be "
            "a way to report that in the manifest? Propose.",
            "- Updated all entry points to handle tar archives\n\nWould you like me to commit "
            "these changes?",
        ),
        # melagiri dc_2d3772f669 line 68: closes the agent's question, then a new subject
        (
            "yea, i already had working config and sync in my machine, so i didn't use init.. "
            "but let's see how users will do it.. \n\nNow, explain me the telemetry part.. what "
            "are we capturing, how are we capturing, what value/insight we can generate from "
            "each type or the data captures?",
            "you could reintroduce it then — or fold it into `code-insights config set`. What's "
            "your call?",
        ),
    ],
)
def test_a_stance_then_a_request_of_its_own_is_a_task(text: str, agent_text: str) -> None:
    # (in all three the agent had only answered: it changed nothing in that episode)
    assert kind_of(text, agent_text=agent_text, agent_acted=False) is TurnKind.NEW_TASK


def test_a_stated_requirement_then_an_update_of_the_plan_is_a_follow_up() -> None:
    # chikachow 08_1cbadb653608 line 68: "I intend …" adds a use case to the running plan
    text = (
        "I intend to use this extracted application from other gcp-deployed services, with "
        "requests towards the token-broker being authorised with a gcp oidc token. Update the "
        "implementation plan and design to accommodate this use case\nConsider this revised "
        "use case as part of holistic design"
    )
    plan = "Implementation plan:\n1. Extract the token broker\n2. Deploy it to Cloud Run"
    assert kind_of(text, agent_text=plan) is not TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        "commit",  # PackmindHub 5d_74e4f052ad line 92, entireio (Codex) 6c_fb81c05ca9 line 118
        "commi",  # PackmindHub d7_791c619932 line 110 (a typo)
        "commit and push",  # entireio 33_3a75930344 line 78
    ],
)
def test_a_bare_closing_step_after_the_work_is_a_follow_up(text: str) -> None:
    done = "Done. Changes made:\n\n1. Removed the descriptive sentence at the top"
    assert kind_of(text, agent_text=done) is TurnKind.FOLLOW_UP


def test_a_request_after_the_agent_says_it_is_ready_for_the_next_task_is_a_task() -> None:
    # FSM1 04_6f4c1b3b1e line 159 ("in the …" opens it, but the agent had closed its work)
    ready = "On `main`, up to date (our fix already merged). Ready for the next task."
    text = (
        "in the metadata schemas doc, section 14 ipns key derivation, there no mention of "
        "folder ipns records. why?"
    )
    assert kind_of(text, agent_text=ready) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("text", "agent_text", "extra"),
    [
        # FSM1 04_6f4c1b3b1e line 175: judges the agent's reasoning before any change
        (
            "so unless I am misunderstanding the recovery process, but the recovery tool would "
            "have to traverse the tree in any case to obtain file and folder metadata, so this "
            "jsutification really does not make a lot of sense to me.",
            REASONING,
            {"agent_acted": False},
        ),
        # chikachow 08_1cbadb653608 line 136 (a curly apostrophe, as typed)
        (
            "That can\u2019t be right, any single request will only pertain to one of those "
            "principals, either a github actions principal or a Google service account principal",
            "So the updated design should be: **Cloud Run IAM as the coarse outer gate**.",
            {"agent_acted": False},
        ),
        # entireio 33_3a75930344 line 104: the pushed plugin does not show its commands
        ("I don't see the entire commands in opencode", "Committed and pushed.", {}),
        # chikachow 5b_cfea8c08dd5b line 173: right after the person's interrupt
        (
            "Seemed to hang?",
            "I'm writing two local Git config entries now.",
            {"after_interrupt": True, "agent_ended": False},
        ),
    ],
)
def test_corrections_of_set_2_are_corrections(
    text: str, agent_text: str, extra: dict[str, object]
) -> None:
    assert kind_of(text, agent_text=agent_text, **extra) is TurnKind.CORRECTION


def test_asking_what_is_wrong_is_not_a_verdict() -> None:
    # chikachow 5b_cfea8c08dd5b line 68: asks for a diagnosis of what the agent reported
    fetched = (
        "SSH fetch failed due missing GitHub SSH auth in this environment, so I fetched the "
        "public HTTPS ref and updated `origin/main` from that."
    )
    text = "Figure out what\u2019s wrong with the ssh key configuration"
    assert kind_of(text, agent_text=fetched) is not TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["Fix that gh auth", "Set that credential helper globally"])
def test_a_step_on_what_the_agent_just_named_is_a_follow_up(text: str) -> None:
    # chikachow 5b_cfea8c08dd5b lines 191 and 235: "that X" is the X the agent reported
    report = (
        "The remaining blocker is `gh` auth itself: the token in default is invalid. "
        "Git is now configured to use HTTPS plus `gh` as the credential helper."
    )
    assert kind_of(text, agent_text=report) is TurnKind.FOLLOW_UP


def test_after_an_interrupt_an_answer_to_the_agents_question_goes_on_with_the_task() -> None:
    # FSM1 04_6f4c1b3b1e line 55: the person stopped the first choice and picked another
    todos = "| 8 | Move rootFolderKey to IPFS vault record | crypto |\n\nReply with a number to "
    todos += "view details, or:\n- `q` to exit"
    assert kind_of("6", agent_text=todos, after_interrupt=True) is TurnKind.FOLLOW_UP


def test_reload_plugins_is_housekeeping() -> None:
    # entireio 6c_fb81c05ca9 lines 35 and 57
    text = (
        "<command-name>/reload-plugins</command-name>\n<command-message>reload-plugins"
        "</command-message>\n<command-args></command-args>"
    )
    assert kind_of(text) is TurnKind.HOUSEKEEPING


def test_the_agents_own_ctrl_c_is_not_a_failure() -> None:
    # chikachow 5b_cfea8c08dd5b line 128: the agent stops the hanging `ssh-add -l` it polls
    call = _call(1, "write_stdin", '{"session_id":84229,"chars":"\\u0003","yield_time_ms":1000}')
    result = _result(
        2,
        1,
        "Chunk ID: 9ada39\nWall time: 0.0008 seconds\nProcess exited with code 130\n"
        "Original token count: 0\nOutput:",
        exit_code=130,
    )
    assert judge_errors([call, result]).verdicts[2].kind == "benign"
    # polling the same process without sending a stop: its exit 130 is its own
    poll = _call(1, "write_stdin", '{"session_id":84229,"chars":"","yield_time_ms":1000}')
    assert judge_errors([poll, result]).verdicts[2].kind == "root"


def test_codex_turn_aborted_message_is_an_interrupt() -> None:
    # entireio (Codex) 01_da544acf74 line 20: the only trace of the person's interrupt
    aborted = EventView(
        5,
        5,
        "meta",
        "user",
        "<turn_aborted>\nThe user interrupted the previous turn on purpose. Any running "
        "unified exec processes may still be running in the background.\n</turn_aborted>",
        is_meta=True,
    )
    assert is_interrupt(aborted)
    assert not is_interrupt(EventView(6, 6, "meta", "user", "<environment_context>…"))


@pytest.mark.parametrize(
    "text",
    [
        "[Request interrupted by user for tool use]",
        "[Request cancelled by user]",
        "This session is being continued from a previous conversation that ran out of "
        "context. The conversation is summarized below:",
    ],
)
def test_claudes_markers_stored_as_prompts_are_not_typed(text: str) -> None:
    # stored as user prompts by a harvest that did not know them: mining reads them with
    # the harvester's own names for them, an interrupt marker as an interrupt
    stored = EventView(7, 7, "user_prompt", "user", text)
    assert not is_typed_prompt(stored)
    assert is_interrupt(stored) is text.startswith("[Request")


@pytest.mark.parametrize(
    "text",
    [
        '<cross-session-message from="s2">tests pass on my side</cross-session-message>',
        "The coordinator sent a message while you were working:\nstop after the parser",
        '2 background agents were stopped by the user: "audit", "migrate".',
    ],
)
def test_another_sessions_message_stored_as_a_prompt_is_not_typed(text: str) -> None:
    # stored as a prompt by a harvest that did not know these forms of Claude Code's:
    # mining reads them with the harvester's names for them
    assert not is_typed_prompt(EventView(7, 7, "user_prompt", "user", text))
    assert is_typed_prompt(EventView(8, 8, "user_prompt", "user", "stop after the parser"))


def test_asking_for_the_closing_step_after_the_done_claim_accepts_the_work() -> None:
    # entireio (Codex) 10_196f206d8a line 129, after the fix was verified; the file stops
    # in that step's commit, and the episode was a success to the person
    done = "Fixed and re-verified with the same installer: `Found 4 skills`. Tests pass."
    turn = TurnInput("okay let's open a PR", has_episode=True, agent_text=done, agent_worked=True)
    decision = classify_turn(turn, lexicon_for())
    assert decision.kind is TurnKind.FOLLOW_UP and decision.approves_previous


def test_ok_then_a_request_of_its_own_after_the_done_claim_is_a_task() -> None:
    # FSM1 04_6f4c1b3b1e line 212 (git housekeeping asked of the agent, after its PR)
    done = "Done. Todo added and PR created: https://github.com/FSM1/cipher-box/pull/180"
    assert kind_of("ok lets get back to main", agent_text=done) is TurnKind.NEW_TASK
    # "ok" alone, or with a step on the work, goes on with it
    assert kind_of("ok, and add a test for it", agent_text=done) is TurnKind.FOLLOW_UP


def test_changing_a_thing_the_agent_just_named_is_a_follow_up() -> None:
    # PackmindHub 5d_74e4f052ad line 56 (with its screenshot), after the agent's report
    report = (
        "The changes are:\n\n1. **`PackmindProductTourModal.tsx`**: Replaced the placeholder "
        "iframe with the `ArcadeEmbed` component, and widened the modal from `max-w-2xl` to "
        "`max-w-4xl` for a better viewing experience."
    )
    text = (
        "[image: image/png, 66273 bytes]\n"
        "make the modal bigger and remove the button at the bottom right corner"
    )
    assert kind_of(text, agent_text=report) is TurnKind.FOLLOW_UP
    # the same words about a thing the agent did not name are a request of their own
    other = "I've updated the README badges and the tests pass. The change is in place."
    assert kind_of(text, agent_text=other) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("text", "needs"),
    [
        ("Did yo commit?", True),  # Safecast/safecast-map-MCP, a resumed session's opening
        ("commit and push", True),
        ("[image: image/png, 175660 bytes] commit", True),
        ("[document: application/pdf, 91311 bytes]\ncommit", True),
        ("yes", True),
        ("继续", True),
        ("go ahead please", True),
        ("release v0.6.4", False),
        ("fix tests", False),
        ("/release minor", False),
        ("ok lets get back to main", False),
        ("yes, and make it cross-browser", True),  # "it" is named only before it
        ("Did you see the CORS error on the login page when we deployed to staging?", False),
        # polecatspeaks/StarCar (set 19) opens sessions this way; they recurred and became
        # replay tasks with nothing in them to do
        (
            "good morning buddy, it's 24 July 26 at 0546 local philly time. Please pick up "
            "where we left off.",
            True,
        ),
        ("pick up where we left off", True),
        ("Limits are reset. Continue where we left off.", True),
        ("continue from the last session", True),
        ("Please continue the work from yesterday", True),
        ("mach da weiter, wo wir aufgehört haben", True),
        ("继续上次的工作", True),
        ("pick up where we left off and add the CSV export", False),
        ("Continue where we left off. Also add tests for the parser.", False),
        ("continue where we left off. Can you also fix the login page?", False),
        ("Continue where we left off. Why does the build fail on arm64?", False),
        # claude-code-log 7acd37a8: picks a project up again, and names what to do with it
        (
            "OK, so this was just so you know what there is now, but after more than a decade I "
            "want to pick it up again and fix the broken APIs.",
            False,
        ),
        ("continue the migration to AudioWorklet from the last session", False),
        # entireio/cli's history: a session opened by asking where the work stands, the
        # work named only by its ticket, had become a replay task
        (
            "okay, so we were working on ENT-109 (linear) on this branch... I have lost track "
            "of where we're up to.",
            True,
        ),
        ("I lost track of where we are", True),
        ("remind me where we left off", True),
        ("hmm, I lost track of where we are. add the csv export", False),
        # entireio/cli's history: a plan step's command whose arguments name neither the
        # plan's file nor work of their own runs the plan the conversation wrote
        ("/superpowers:execute-plan use subagent", True),
        (
            "/superpowers:write-plan first. check we have good test coverage so we don't "
            "break things as well",
            True,
        ),
        ("/superpowers:execute-plan", True),
        # the labelled set (procrypto/Personal_AI_Infrastructure): the plan named by its file
        ("/gsd:execute-plan .planning/phases/03-slack-listener-threads/03-03-PLAN.md", False),
        ("/superpowers:write-plan for adding rate limiting to the API client in client.go", False),
        ("/workflows:plan right now, if we detect a session conflict, we display a warning", False),
        ("can you remind me where we are with the migration?", False),
        # entireio/cli's history (outside the repository): a session opened with the yes to
        # an offer of the session before had become a replay task; a plan, a design or a fix
        # named as revised, proposed or agreed lives in that exchange
        ("yes please, draft the revised plan", True),
        # a yes to each of two questions is nothing else
        ("yes and yes", True),
        ("yes to both", True),
        ("implement the proposed design", True),
        ("go with the recommended fix", True),
        ("use the revised plan in docs/plans/export.md", False),
        ("write a plan for the new export feature", False),
        ("add an updated version field to the manifest", False),
        ("upgrade node to the recommended version", False),
    ],
)
def test_a_request_needs_the_exchange_before_it_only_when_bare(text: str, needs: bool) -> None:
    assert needs_context(text) is needs


# --- set 3, read as tuning data: back-references, lettered options, "still an issue" ----


def test_the_rest_is_a_back_reference_but_the_rest_api_is_not() -> None:
    # ClusterCockpit cc-backend 0c_3347168c79 line 30: a second change stated in full;
    # "the REST and NATS API" had been read as "the rest" (of the work)
    answered = "Server started; the dashboard loads the node list."
    text = (
        "Change for both the REST and NATS API that the healthstate update is only "
        "performed if a node is not in down state"
    )
    assert kind_of(text, agent_text=answered) is TurnKind.NEW_TASK
    assert kind_of("do the rest of the handlers the same way", agent_text=answered) is (
        TurnKind.FOLLOW_UP
    )


@pytest.mark.parametrize(
    "text",
    [
        "alternatively keep the old layout if it reads better.",
        "then update the issue with this scope and the plan.",
        "in that case skip the migration",
        "otherwise leave the config as it was",
    ],
)
def test_an_opening_that_goes_on_from_what_was_said_points_back(text: str) -> None:
    assert points_back(text)
    assert kind_of(text) is TurnKind.FOLLOW_UP
    # the same words further in point at nothing ("add a then-clause …")
    assert not points_back("add a then clause to the parser's if statements")


@pytest.mark.parametrize(
    "text",
    [
        # kiliman claude-transcript test2.jsonl line 51 (wild sample 25)
        "yes, in a previous session we remove the react web app in favor of generating static "
        "PNG files. Can you update the README to reflect the current state of the app?",
        # scotthamilton77 claude-code-sidekick test data, 9a21ba7d line 160 (wild sample 41)
        "I just ran a `ps ux` in another terminal window and see the following - can you tell "
        "if any of these might be older processes that were kicked off by sidekick?",
        # ebridges wakil checkpoint 0b/f9c9929e9c0b (wild sample 39)
        "going back through your memory of previous sessions, where did things land on "
        'building a "porcelain" API of workflows over the low-level skills',
    ],
)
def test_what_lies_outside_the_exchange_is_no_back_reference(text: str) -> None:
    # "previous", "another" and "earlier" point back at the running exchange ("try another
    # approach"), but not when they name another session or another terminal window
    assert kind_of(text) is TurnKind.NEW_TASK
    for follow_up in ("try another approach", "do it the same way as in the previous file"):
        assert kind_of(follow_up) is TurnKind.FOLLOW_UP
    settled = "compare the schema with the one we settled on earlier"
    assert points_back(settled)
    assert not points_back(f"{settled} in this session")


@pytest.mark.parametrize(
    "text",
    [
        # cc-backend 95_a89a7127c5 line 120 and 52_552d244fc5 line 72
        "Update documentation and config schema accordingly",
        "Also add a section in the README.md discussing and documenting the new db options.",
        "Also update the ReleaseNotes with the changes",
    ],
)
def test_a_step_on_what_was_just_done_is_a_follow_up(text: str) -> None:
    assert kind_of(text) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # kcosr chat-to-html examples/codex.jsonl line 339 (wild sample 43)
        "Now set both UI and code fonts to Menlo and repeat.",
        # qiushiyan duet examples/codex-session.jsonl line 238 (wild sample 43)
        "Per your suggestion, I've updated the relevant files. Please recheck the files "
        "(summarized below for targeted updates). If you observe anything off track or "
        "unintended regressions, elaborate your disagreements. Spec is updated. Recap of the "
        "changes: the transfer service is transactional, the banner queries only the pending "
        "transfer, and the docs name the new owner-only actions in full for every role.",
    ],
)
def test_a_step_done_again_or_advice_taken_up_goes_on_with_the_task(text: str) -> None:
    # "… and repeat", "recheck", "per your suggestion": the step or the advice is the
    # exchange's own
    assert kind_of(text) is TurnKind.FOLLOW_UP


def test_that_opening_a_clause_points_at_nothing() -> None:
    # kcosr chat-to-html examples/codex.jsonl line 356 (wild sample 43): "indicate that the
    # agent needs …" is a conjunction; "update that config file" points back
    assert names_own_object(
        "Update AGENT.md to better indicate that the agent needs to install tools to build, "
        "run vitest, etc."
    )
    assert not names_own_object("update that config file to use tabs")


def test_tell_me_what_you_see_asks_the_person() -> None:
    # odogrd DiploCaption 1bb17dfd line 90 (wild sample 30): the agent asked for a report in
    # the imperative, and "Yes, the secret … is set correctly. I asked …" answers it
    assert agent_asks(
        "Open the Secrets tab: there is a secret named **`ANTHROPIC_API_KEY`** Tell me what "
        "you see there (don't share the actual key value, just whether it exists or not)."
    )
    assert not agent_asks("The build passed; I will tell you what it changed once it is deployed.")


def test_what_no_replay_could_act_on_alone_is_no_new_task() -> None:
    # wild sample 33: a source file pasted with no request (its first lines, kept), and a
    # question about where the agent runs, after "What would you like to work on?"; the task
    # miner's needs_context already said neither stands alone
    pasted = "\n".join(
        [
            "import React, { useState, useMemo, useEffect, useRef, useCallback } from 'react';",
            "import { BarChart, Bar, XAxis, YAxis, CartesianGrid, Tooltip } from 'recharts';",
            "",
            "// TNFD-aligned metrics and UK-specific data structures",
            "const TNFD_METRICS = {",
            "  land: {",
            "    naturalHabitat: { target: 15, unit: '%', status: 'good' },",
            "    soilHealth: { target: 4.5, unit: 'SOC %', status: 'warning' },",
            "    erosionRisk: { target: 2, unit: 't/ha/yr', status: 'good' },",
            "    peatlandExposure: { target: 0, unit: 'ha', status: 'critical' }",
            "  },",
            "  water: {",
            "    withdrawalEfficiency: { target: 90, unit: '%', status: 'good' },",
            "    floodRisk: { target: 'low', unit: 'risk level', status: 'good' },",
            "  },",
            "};",
        ]
    )
    assert needs_context(pasted)
    assert kind_of(pasted) is TurnKind.FOLLOW_UP
    invited = (
        "You're in `/home/roi12` on a Linux system. This directory isn't a git repository.\n\n"
        "What would you like to work on?"
    )
    assert kind_of("are you in the docker container?", agent_text=invited) is TurnKind.FOLLOW_UP
    assert kind_of("add a healthcheck to the docker container", agent_text=invited) is (
        TurnKind.NEW_TASK
    )


_PORT_CHANGED = (
    "Updated to port 9337. **Important**: You'll also need to update the redirect URI in your "
    "Google Cloud Console OAuth2 credentials to match `http://localhost:9337/oauth2callback`."
)


def test_did_that_reports_doing_what_the_agent_asked() -> None:
    # scotthamilton77's whole history (wild sample 41's author, not in the repository):
    # "did that" answers the agent's instruction, so the turn goes on with the task (the
    # "another terminal tab" after it points nowhere)
    text = (
        'did that, and am running in another terminal tab that tells me "Local OAuth callback '
        'server started on http://localhost:9337/oauth2callback".  This terminal is running '
        "in WSL ubuntu so it should be accessible by my windows browser (chrome) right?  But "
        "when I copy that exact URL into my browser it says :site can't be reached - localhost "
        'refused to connect" with ERR_CONNECTION_REFUSED.'
    )
    assert points_back(text[:40])
    assert kind_of(text, agent_text=_PORT_CHANGED) is not TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        "I opened http://localhost:9337/oauth2callback and chrome says localhost refused to "
        "connect",
        "ERR_CONNECTION_REFUSED on http://localhost:9337",
        "connection refused on port 9337",
    ],
)
def test_what_a_browser_says_of_a_missing_server_is_a_failure_report(text: str) -> None:
    assert kind_of(text, agent_text=_PORT_CHANGED) is TurnKind.CORRECTION


def test_these_changes_in_another_language_point_back_at_the_work() -> None:
    # Viniciuscarvalho/FitToday f4_473875393c_7 line 71: "commit these changes and push,
    # then run ./deploy.sh …" in Portuguese, after the agent's edits: the task's closing
    # steps, as the English words read
    agent = "Termos atualizado. Próximos passos: faça a build e submeta a nova versão."
    text = "faça o commit dessas alterações e push e depois rode o ./deploy.sh appstore -release"
    assert kind_of(text, agent_text=agent) is TurnKind.FOLLOW_UP
    for other in ("haz commit de estos cambios", "ajoute ces modifications", "diese Änderungen"):
        assert points_back(other)
    # the words alone, with no demonstrative, point at nothing
    assert not points_back("faça o commit das alterações do formulário de login")
    assert not points_back("ajoute des modifications au changelog")


def test_naming_one_of_the_agents_options_points_back() -> None:
    # the same history: the agent had laid out its next three tasks and offered to build
    # them; "with option A" picks one of the options it gave earlier
    offered = (
        "**Next 3 Tasks:** 1. Create the email query 2. Chain all 9 stages 3. A CLI tool\n\n"
        "Would you like me to implement this minimal testing infrastructure?"
    )
    text = (
        "Let's update the tasks.md with phase 3.5.2 with option A so that the details of the "
        "plan don't get lost."
    )
    assert kind_of(text, agent_text=offered) is TurnKind.FOLLOW_UP
    assert points_back("go with option 2") and points_back("with Option B please")
    # an article after "option" names no option of the agent's
    assert not points_back("add an option a user can set in the settings page")


def test_a_new_piece_of_work_after_done_is_still_a_task() -> None:
    # the same opening with nothing that points at the work just done stands alone
    assert kind_of("Also add a section in the README.md documenting the db options.") is (
        TurnKind.NEW_TASK
    )


def test_yes_to_lettered_options_takes_the_option_and_yes_to_a_plan_approves() -> None:
    # dougnukem orpheus 17_b6bbc6c891 lines 96 and 104: "yes" to the agent's clarifying
    # question, whose last words recommend one of its lettered options
    options = (
        "Question 2: how should the nightly cask be named?\n\n"
        "**A** `orpheus@nightly`, the Homebrew @ syntax.\n"
        "**B** `orpheus-nightly`, a separate cask.\n\n"
        "My recommendation: **B** (`orpheus-nightly`): the @ syntax is mostly used for "
        "pinned major versions."
    )
    plan = (
        "Here's the plan:\n\n1. **Bump version** to 3.0.3\n2. **Add changelog entry**\n\n"
        "Shall I proceed?"
    )
    assert kind_of("yes", agent_text=options) is TurnKind.FOLLOW_UP
    assert kind_of("yes", agent_text=plan) is TurnKind.APPROVAL

    # lettered options earlier in the message, then a plan whose only question is whether
    # to go ahead with all of it: a yes takes the plan
    both = (
        "**Option A:** ship the fix alone. **Option B:** wait for the refactor.\n\nGoing with "
        "A. Ready to:\n  1. Commit changes to master\n  2. Push to origin\n  3. Publish "
        "v4.8.3 to npm\n\nProceed?\n```"
    )
    assert kind_of("yes", agent_text=both) is TurnKind.APPROVAL
    assert kind_of("yes", agent_text=options + "\n\nWhich one?") is TurnKind.FOLLOW_UP


#: reality2-roycdavies/cosmic-bing-wallpaper docs/transcripts part 2, line 575: options for
#: the person to take, then an act the agent offers to do itself
_OPTIONS_THEN_AN_OFFER = (
    "To get auto-start, you need to either:\n\n**Option 1: Use the tray install recipe**\n"
    "```bash\njust install-with-tray\n```\n\n**Option 2: Manually create autostart entry**\n\n"
    "Would you like me to update `install-appimage.sh` to optionally set up autostart too?"
)


@pytest.mark.parametrize("reply", ["yes, that would be good", "yes please", "that'd be great"])
def test_a_yes_to_the_offer_after_options_accepts_the_offer(reply: str) -> None:
    """Options laid out, then one act offered: a "yes" answers the last question, and "that
    would be good" says yes as "that would be great" does."""
    assert kind_of(reply, agent_text=_OPTIONS_THEN_AN_OFFER) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    "reply",
    [
        # procrypto/Personal_AI_Infrastructure cef0d477 line 402, after "Fixed and HMR
        # reloaded. Try refreshing the browser"
        "ok seems good so far, shall we move on",
        "seems to work now",
        "everything seems fine",
    ],
)
def test_seems_good_is_a_verdict_as_looks_good_is(reply: str) -> None:
    agent = "Fixed and HMR reloaded. Try refreshing the browser - the warning should be gone."
    assert kind_of(reply, agent_text=agent) is TurnKind.APPROVAL


#: reality2-roycdavies/cosmic-bing-wallpaper docs/transcripts part 2, line 154: the offer,
#: then the commit message it means in a code block
_OFFER_WITH_MESSAGE_BELOW = (
    "Ready to commit. Files to commit (21 files).\n\nWould you like me to commit with this "
    "message?\n\n```\nAdd Bing wallpaper manager for COSMIC desktop\n\nFeatures:\n- Shell "
    "script for simple wallpaper fetch and apply\n```"
)


@pytest.mark.parametrize(
    "reply",
    [
        # the reply there: the offer taken, and what the person will do after it
        "yes, commit, and then I will push",
        "yes, commit it. I'll test it after",
    ],
)
def test_a_yes_with_the_persons_own_next_step_accepts_the_offer(reply: str) -> None:
    """What the person says they will do themselves asks nothing more of the agent; the
    code block under the offer is what the offer shows, not the end of its words."""
    assert kind_of(reply, agent_text=_OFFER_WITH_MESSAGE_BELOW) is TurnKind.APPROVAL


def test_a_yes_with_more_work_for_the_agent_is_no_plain_acceptance() -> None:
    reply = "yes, commit, and then push it and open a pull request"
    assert kind_of(reply, agent_text=_OFFER_WITH_MESSAGE_BELOW) is not TurnKind.APPROVAL


def test_it_worked_is_a_verdict_and_what_it_did_asks_nothing() -> None:
    # isaacmorgado/claude-sovereign SPLICE 1ce597af line 132, typed while the agent waited
    # on its own question
    waits = "Waiting for your test results. Did the clip name change on the timeline?"
    reply = "it worked and changed the timeline clip"
    assert kind_of(reply, agent_text=waits, queued=True) is TurnKind.APPROVAL
    assert kind_of(reply, agent_text=waits) is TurnKind.APPROVAL
    # the past set against now is no verdict on the work
    assert kind_of("it worked before, now it crashes on start", agent_text=waits) is (
        TurnKind.CORRECTION
    )
    assert kind_of("it worked locally", agent_text=waits) is not TurnKind.APPROVAL
    # a verdict, then a request: more work
    assert kind_of("perfect, and add a footer", agent_text=waits) is not TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # admarble/sequant 5c_90033d6aec line 26, after the agent's assessment
        "Can you also assess for overcomplexity?",
        "could we also run it against the staging data?",
    ],
)
def test_can_you_also_asks_more_of_the_same_work(text: str) -> None:
    answer = "The codebase is in good shape: 3 modules have no tests and the CLI lacks --help."
    assert kind_of(text, agent_text=answer) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "piece",
    [
        # punt-labs/langlearn-tts c4_c60eee7180 lines 710 and 718, queued after "changelog"
        "which has to incorporate any improvements made in punt-tts",
        "that affect our surface area.",
    ],
)
def test_a_queued_piece_that_ends_the_persons_sentence_is_a_follow_up(piece: str) -> None:
    """A message sent in pieces while the agent runs: the piece ends the person's own
    sentence and redirects nothing."""
    running = "Session voice set to **charlie**."
    turn = kind_of(piece, agent_text=running, queued=True, previous_text="changelog")
    assert turn is TurnKind.FOLLOW_UP


@pytest.mark.parametrize("text", ["which one is faster?", "that is the wrong branch"])
def test_a_queued_question_or_verdict_is_no_piece_of_a_sentence(text: str) -> None:
    # (a queued question about the work is a follow-up of its own kind, not a piece)
    turn = TurnInput(
        text=text,
        has_episode=True,
        agent_text="Session voice set to **charlie**.",
        agent_worked=True,
        queued=True,
        previous_text="changelog",
    )
    assert "finishes its own message" not in classify_turn(turn, lexicon_for()).reasons


def test_a_request_queued_for_after_the_running_work_is_the_next_task() -> None:
    running = "Updating the install script now."
    # reality2-roycdavies/cosmic-bing-wallpaper docs/transcripts part 2, line 793
    queued = (
        "When done wiht this, since this is intended as an educational piece, please add a "
        "new markdown file alongside the README that describes how the app was built"
    )
    assert kind_of(queued, agent_text=running, queued=True) is TurnKind.NEW_TASK
    # the closing step so queued stays the task's own
    closing = "once you're done, commit and push"
    assert kind_of(closing, agent_text=running, queued=True) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # polecatspeaks/StarCar 25_071b0849bd lines 605, 469 and 485
        "can't you just pull from the entire transcript?",
        'ok lets look at this from less of a code does thing pov and more from a "whats the '
        'right truth to tell"',
        "so again, let's take a slightly different view, or adjust our thinking a bit.",
        # maxnoobineating/UbuntuDevcontainer_Dotfiles cc1b59bf line 49
        "just tell me how to install from source",
        "why not simply reuse the existing parser?",
    ],
)
def test_asking_for_another_way_to_go_about_it_steers(text: str) -> None:
    working = "I'll build a parser for the transcript format first, then map each state."
    assert kind_of(text, agent_text=working) is TurnKind.STEERING


@pytest.mark.parametrize(
    "text",
    [
        "look at this from the server log and tell me what failed",
        "can you just run the tests?",
        "I can't just delete it, it is used by the CLI",
    ],
)
def test_near_misses_of_another_way_are_no_steering(text: str) -> None:
    working = "I'll build a parser for the transcript format first, then map each state."
    assert kind_of(text, agent_text=working) is not TurnKind.STEERING


def test_an_error_page_the_result_shows_is_a_failure_report() -> None:
    # nisargpatel28/artifact-hub 5b983582 line 842, after the agent's fix of the 404
    shown = "The home page at localhost:3000 shows Next.js default 404."
    assert kind_of(shown) is TurnKind.CORRECTION
    # what to build names the same page: a request
    for request in (
        "add a route that shows a 404 page for unknown slugs",
        "make the page show a 404 for unknown ids",
        "the settings page should show an error page when the API is down",
    ):
        assert kind_of(request) is not TurnKind.CORRECTION, request


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # reality2-roycdavies/cosmic-bing-wallpaper docs/transcripts part 2, line 888: the
        # agent said the systemd files look right and asked where the person saw the path
        (
            "yes, but that is specific to this installation on this machine",
            "The systemd files look correct now. Can you show me where you're seeing that path?",
        ),
        # the same session, line 404: the agent put the icon in the app launcher
        (
            "OK, that is good, but I'm thinking up in the top right where there are little "
            "icons for things like wifi and bluetooth",
            "Done. Now everything uses the full app ID, so the panel shows the correct icon.",
        ),
        # polecatspeaks/StarCar ff_3a1a7f8196 line 683
        (
            "you're correct 100%, but playwright gives the adversary better tooling to dig out "
            "those majors for us",
            "A tool that answers what colour it is does not answer what colour it should be.",
        ),
    ],
)
def test_granting_the_point_then_setting_a_fact_against_it_is_a_correction(
    text: str, agent: str
) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # entireio/git-sync (MIT), a session's findings of a review run over the agent's
        # branch, pasted back after its report
        (
            "1. High: `replicate --all-refs` still weakens replicate’s failure semantics and "
            "can return success after only a partial mirror. `--all-refs` is wired through "
            "`allRefsFlag(..., &req.Policy.BestEffort)` for every sync-like command",
            "- `SetNotesRef` test fixture helper (3 lines × 6 tests; inline is clearer in test "
            "context)\n\nReady to push?",
        ),
        (
            "1. Medium: credential-helper lookups are keyed to the original remote, not the "
            "host that actually returned 401, so redirected smart-HTTP setups can miss or\n"
            "     poison credentials.\n  2. Medium: helper fallback only exists on GET "
            "/info/refs; authenticated POST RPCs still fail hard",
            "**Efficiency reviewer**: signed off clean, no changes needed.\n\nNet result on "
            "the cleanup commit: -291 / +210 lines (mostly test consolidation).",
        ),
        # the same marks as other review tools print them
        ("- [P1] Guard the nil config before setting gpgsign — internal/git/config.go:88", DONE),
        ("**Critical**: the migration drops the sessions table before copying it", DONE),
    ],
)
def test_review_findings_pasted_on_the_work_are_a_correction(text: str, agent: str) -> None:
    """A review's findings marked by severity say what is wrong in the work under review."""
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # a priority set on work to do, not a finding
        ("1. High priority: add the login page\n2. Low priority: dark mode", DONE),
        # the agent's own review taken up
        (
            "1. Medium: the helper could share one cache between the two hosts",
            "Review done. Findings:\n1. Medium: the helper could share one cache between the "
            "two hosts\n2. Low: a stale comment\nWant me to fix them?",
        ),
        # a review that finds the work good first, then suggests more (the labelled
        # set's Japanese plan review: "the approach is good … two points to add")
        ("Looks good overall. 1. Medium: mention the flag's meaning in one sentence", DONE),
    ],
)
def test_near_misses_of_review_findings_are_no_correction(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # the issue's own example: more of the work asked, a follow-up
        "That's good. But the darker highlight should still stay on the selected row",
        "ok lets do this, but lets come up with a way to avoid this next time",
        "yes, but only on mobile",
        "ok, but it works now",
        "yes, but can you also add a footer?",
        "sure, but first commit the changes",
    ],
)
def test_a_but_that_asks_or_limits_is_no_objection(text: str) -> None:
    agent = "Done. Now everything uses the full app ID, so the panel shows the correct icon."
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


def test_a_yes_to_a_question_between_options_picks_one() -> None:
    asks = _OPTIONS_THEN_AN_OFFER.rsplit("\n\n", 1)[0] + "\n\nShould I set up option 1 or 2?"
    assert kind_of("yes", agent_text=asks) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    ("reply", "agent"),
    [
        # sam-fakhreddine/wfc 27_4530103976 line 66, after the agent's plan; "now" between the words
        ("Ok now do that", "Next: once CI passes on PR #44, merge it. Want me to do that?"),
        # polecatspeaks/StarCar 25_071b0849bd line 507, to the agent's proposal to send it on
        ("send it!", "The comment is drafted. Should I post it to the PR now?"),
    ],
)
def test_a_go_ahead_in_a_few_words_accepts_the_proposal(reply: str, agent: str) -> None:
    assert kind_of(reply, agent_text=agent) is TurnKind.APPROVAL


def test_the_offer_asked_for_in_its_own_words_or_copied_back_is_an_approval() -> None:
    # nakamura-shuta/tij 3c_79e00521d9 line 683: "please implement" to "SoW updated. Shall I
    # proceed to implementation?"; another act asked for politely is no acceptance
    asks = "SoW 更新完了。実装に進めますか？"
    assert kind_of("実装してください", agent_text=asks) is TurnKind.APPROVAL
    assert kind_of("テストを書いてください", agent_text=asks) is not TurnKind.APPROVAL
    # hindermath/TinyCalc 019cc3c3 line 269 (Codex): the offered next step copied
    # back whole, its "z. B." list and the "oder" inside the brackets included
    offer = (
        "Exit-Code: `255`\n\nWenn du möchtest, kann ich als nächsten Schritt die Ursache "
        "eingrenzen (z. B. `docfx --logLevel verbose`, `docfx metadata` separat, oder "
        "DocFX-Version prüfen)."
    )
    copied = (
        "als nächsten Schritt die Ursache eingrenzen (z. B. docfx --logLevel verbose, docfx\n"
        "  metadata separat, oder DocFX-Version prüfen)."
    )
    assert kind_of(copied, agent_text=offer) is TurnKind.APPROVAL
    # a reply that opens like the offer and goes on with more is no copy; an "or" between
    # two acts is a choice
    more = "als nächsten Schritt die Tests für den Parser, den Lexer und die CLI schreiben"
    assert kind_of(more, agent_text=offer) is not TurnKind.APPROVAL
    choice = "If you want, I can add tests or update the README."
    assert kind_of("add tests or update the README", agent_text=choice) is not TurnKind.APPROVAL


def test_still_an_issue_reports_a_failure() -> None:
    # oh-my-posh 5f_7d1158f007 line 45, thirteen minutes after the agent's fix
    text = (
        "still an issue here https://github.com/JanDeDobbeleer/oh-my-posh/actions/runs/29260087477"
    )
    assert kind_of(text) is TurnKind.CORRECTION


# --- set 4, read as tuning data: what the person wanted instead, offers taken as made ----


def test_not_this_but_that_after_the_agent_acted_is_a_correction() -> None:
    # entireio/cli 8e_0a64736bc7 line 112: typed after rejecting the agent's comment call and
    # interrupting; the agent had attached the document to the Linear project
    text = (
        "not as a comment, but as a document attached to the issue directly. you've attached "
        "it to the project..."
    )
    attached = "The working documentation is at: https://linear.app/entirehq/document/ent-98"
    assert kind_of(text, agent_text=attached, after_interrupt=True) is TurnKind.CORRECTION
    # a hedge is no contrast between what was done and what was wanted
    hedge = "not sure, but maybe the document should go to the issue"
    assert kind_of(hedge, agent_text=attached, after_interrupt=True) is TurnKind.STEERING


def test_asking_to_keep_what_the_agent_was_changing_is_a_correction() -> None:
    # JanDeDobbeleer/oh-my-posh 14_328c112325 line 76: typed right after interrupting the
    # agent, which had bumped the Makefile version and was moving on to the release notes
    text = "1.5.4 is not yet released. The version can stay there"
    bumping = "Now update the ReleaseNotes.md with a new 1.5.5 section:"
    assert kind_of(text, agent_text=bumping, after_interrupt=True) is TurnKind.CORRECTION
    # a requirement that something stays in place while the page scrolls keeps nothing back
    sticky = "The version badge can stay there when the page scrolls"
    assert kind_of(sticky, agent_text=bumping, after_interrupt=True) is TurnKind.STEERING


def test_still_an_issue_reaches_back_past_a_stray_turn() -> None:
    # JanDeDobbeleer/oh-my-posh 5f_7d1158f007 lines 5-45: the agent fixed the release
    # pipeline, "git s" (a shell alias typed into the prompt) opened an episode that was
    # interrupted four seconds later with no work, then the fix was reported still failing
    b = (
        SessionBuilder()
        .prompt(
            "The release pipeline fails because we did a recent change, and now apparently "
            "Go Releaser cannot work anymore."
        )
        .bash("git diff HEAD~1 -- .github/workflows/release.yml")
        .call("Edit", '{"file_path": ".gitignore"}', "e1")
        .result("e1", "The file .gitignore has been updated.")
        .say("Added `/src/gomodcache` to .gitignore. The change is uncommitted on `next`.")
        .prompt("git s")
        .interrupt()
        .prompt(
            "still an issue here https://github.com/JanDeDobbeleer/oh-my-posh/actions/runs/"
            "29260087477/job/86850737756"
        )
    )
    episodes = segment(views(b), lexicon_for())
    assert [t.kind for e in episodes for t in e.feedback][-1] is TurnKind.CORRECTION


def test_a_result_not_good_enough_is_a_correction_of_the_answer() -> None:
    # entireio/cli 31_b75032f0ff line 16: the agent had only written example secrets in
    # its answer (no file changed), and the person judges them
    examples = (
        "These follow the correct formats:\n- AWS access key IDs start with `AKIA` and are 20 "
        "characters\n- AWS secret keys are 40 characters"
    )
    text = (
        "The AWS keys aren't realistic enough, they contain the word EXAMPLE.  Also, please "
        "give me an example JTW."
    )
    assert kind_of(text, agent_text=examples, agent_acted=False) is TurnKind.CORRECTION


def test_a_failure_of_the_code_as_it_was_after_an_answer_is_a_new_request() -> None:
    # ClusterCockpit/cc-backend 9e_c86e3669e1 line 19: the agent had answered a question
    # about the option's default (no change made); the next turn reports another bug
    answer = (
        "The default is `false`. `EnableJobTaggers` is a plain `bool` field with no explicit "
        "default set."
    )
    text = (
        "Currently a segvault occurs when the option enable-job-taggers is set to true but the "
        "tagger rules directories are missing. Analyse the problem and fix it."
    )
    context = "What is the default of enable-job-taggers?\n" + answer
    turn = kind_of(text, agent_text=answer, agent_acted=False, context=context)
    assert turn is TurnKind.NEW_TASK


def test_a_closing_step_on_all_the_recent_changes_is_a_follow_up() -> None:
    # PackmindHub/context-evaluator 4a_ff29dfc8d7 line 101, after the agent's summary
    summary = "2. **`ContextTreeView.tsx`** (line 95): Changed the badge label to `Copilot`."
    assert kind_of("commit all your recent changes", agent_text=summary) is TurnKind.FOLLOW_UP


def test_yes_with_the_offer_in_the_persons_words_approves_it() -> None:
    # ClusterCockpit/cc-backend 52_552d244fc5 line 93
    offer = (
        "In the worst case you'd only cache `cache-size-mb` worth of unique data.  Want me to "
        "clarify this nuance in the README sizing guidelines?"
    )
    text = "Yes please add a clarification to the README"
    assert kind_of(text, agent_text=offer, agent_acted=False) is TurnKind.APPROVAL
    # a yes that adds to the offer, or picks one side of an either/or, goes on with the task
    more = "Yes please add a clarification to the README and a worked example for 64 GB"
    assert kind_of(more, agent_text=offer, agent_acted=False) is TurnKind.FOLLOW_UP
    choice = "Want me to clarify this in the README, or is the answer enough?"
    assert kind_of("yes clarify the README", agent_text=choice) is TurnKind.FOLLOW_UP


def test_praise_then_the_persons_own_next_step_is_an_approval() -> None:
    # entireio/cli 31_b75032f0ff line 23: nothing more is asked of the agent
    assert kind_of("Great.  I'll see if these end up in the transcript.") is TurnKind.APPROVAL
    # praise then a request of the agent's is still a new request
    assert kind_of("Great. I'll merge it, can you add tests for the auth module?") is not (
        TurnKind.APPROVAL
    )


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # entireio/cli e0_32154c0b18 line 45: a question on an alternative to the code just
        # written (the agent's last words named /dev/null, not io.Discard)
        (
            "what do io.Discard does ?",
            "The key difference: - `cmd.Stdout = nil` → inherits parent's stdout - "
            "`cmd.Stdout = devNull` → explicitly discards output",
        ),
        # JanDeDobbeleer/oh-my-posh 09_11216ed051 line 54: a step on the review just given
        (
            "Add a commen tusing the writing clearly skills",
            "**Fix direction**: use a delimiter that can't collide with user content.",
        ),
    ],
)
def test_a_short_turn_after_the_agent_finished_leans_on_the_exchange(
    text: str, agent_text: str
) -> None:
    assert kind_of(text, agent_text=DONE + "\n\n" + agent_text) is TurnKind.FOLLOW_UP


def test_a_request_long_enough_to_stand_alone_after_done_is_still_a_task() -> None:
    # handgemacht-ai, labelled new_task: fourteen words name what to do and where
    text = "Approve and merge this pull request into the mainline branch using the rebase method"
    assert kind_of(text) is TurnKind.NEW_TASK
    # written without spaces, a request is counted by its characters, not as one word
    # (constructed: "change the login page's error messages to Chinese and add a retry button")
    assert kind_of("请把登录页面的错误提示改成中文并且加上重试按钮") is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # aunshx/checkpoint-scout session bcc98d22, events 601 and 730 (an unlabelled public
        # session, not in the repository), each right after the agent pushed and deployed
        "there are errors during deploy",
        "Errors in deployment",
    ],
)
def test_errors_reported_in_a_place_are_failure_reports(text: str) -> None:
    pushed = "Pushed `a177b83`. The `Deploy Dashboard` workflow will trigger automatically."
    assert kind_of(text, agent_text=pushed) is TurnKind.CORRECTION


def test_after_the_persons_approval_a_short_turn_starts_something_else() -> None:
    # melagiri 2c_b7af912872 line 310 (labelled new_task): the person had accepted the work
    assert kind_of("linked post for this?", previous=TurnKind.APPROVAL) is TurnKind.NEW_TASK
    # a question on what the agent did still leans on the exchange ("Did yo commit?", an
    # unlabelled public session, f80e1c19, not in the repository)
    assert kind_of("Did yo commit?", previous=TurnKind.APPROVAL) is TurnKind.FOLLOW_UP


def test_a_polite_closing_step_is_still_a_closing_step() -> None:
    # an unlabelled public session (aabc0550, not in the repository), after the agent's fix
    assert kind_of("can you commit and push") is TurnKind.FOLLOW_UP
    assert needs_context("can you commit and push")


# --- set 5, read as tuning data: verdicts with no cue word of their own ---------------


def test_saying_one_did_not_want_what_the_agent_did_is_a_correction() -> None:
    # tslateman/duet f7_fb5396fe00 line 109: the agent had deleted two hook files
    removed = (
        "The `.git/hooks/pre-push` (Entire CLI's wrapper) still exists but no longer chains "
        "to the vamp hook since `pre-push.pre-entire` is gone."
    )
    text = "woah, I didn't want to delete .git/hooks/pre-push.pre-entire"
    assert kind_of(text, agent_text=removed) is TurnKind.CORRECTION
    # the same words before the agent changed anything judge nothing of its work
    assert kind_of(text, agent_text=removed, agent_acted=False) is not TurnKind.CORRECTION
    # wanting it is no verdict
    assert kind_of("I want to delete the old pre-push hook too", agent_text=removed) is not (
        TurnKind.CORRECTION
    )


def test_a_result_too_long_is_a_correction() -> None:
    # tslateman/duet f7_fb5396fe00 line 172: the agent had written a README summary ("Done.")
    text = (
        "the philosophy section of the readme is too long... really i just want a oneliner, "
        "maybe stylized like a quote"
    )
    assert kind_of(text, agent_text="Done.") is TurnKind.CORRECTION
    # asking whether it is too long asks; it does not judge
    assert kind_of("is the philosophy section too long?", agent_text="Done.") is not (
        TurnKind.CORRECTION
    )
    # a cost of an approach is no verdict on what was written
    costly = "the other approach is too costly, add the summary to the readme as well"
    assert kind_of(costly, agent_text="Done.") is not TurnKind.CORRECTION


def test_resetting_the_commit_just_made_undoes_it() -> None:
    # tslateman/duet 8d_8e47a114e5 line 129: right after the agent committed the README
    text = (
        "reset the commit! we should run the prettier formatter on the README before "
        "committing it. just the readme, not all md"
    )
    committed = "Clean. Every description is now the first sentence — no truncation."
    assert kind_of(text, agent_text=committed) is TurnKind.CORRECTION
    # resetting a thing of the program is a request, not an undo
    counter = "reset the counter when the page reloads and show it in the header"
    assert kind_of(counter, agent_text=committed) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # tslateman/duet 8d_8e47a114e5 line 221, after "Filed: <issue URL>"
        "hey... we probably should NOT file issues in this way - we ought to check guidelines "
        "first",
        # theogbrand/napoli-matcha 0c_c3173e5050 line 24, typed while the agent wrote the section
        "Edit plan to NOT mention Instructor in the CLAUDE.md file. Use Instructor as a model "
        "example, that's all.",
    ],
)
def test_a_negation_in_capitals_after_the_agent_acted_is_a_correction(text: str) -> None:
    assert kind_of(text, agent_text="Filed: https://github.com/o/r/issues/1") is (
        TurnKind.CORRECTION
    )


def test_should_not_after_the_agent_acted_forbids_what_it_did() -> None:
    # wild sample 23 (sam-fakhreddine/wfc bc_4015b08f79 line 1534), after the agent had
    # written the prompts into the code
    inlined = "I moved the reviewer prompts into reviewers.py as string constants."
    for text in ("We should not inline prompts", "you shouldn't have deleted the fixtures"):
        assert kind_of(text, agent_text=inlined) is TurnKind.CORRECTION
    # before the agent did anything it is how the work is to be done (PackmindHub
    # context-evaluator 4a_ff29dfc8d7 line 5, the session's first request)
    first = classify_turn(
        TurnInput(text='We should not display "AGENTS.md" for GitHub Copilot instructions'),
        lexicon_for(),
    )
    assert first.kind is TurnKind.NEW_TASK
    # nor is a "should not" further into a request
    assert kind_of("add a cache; it should not grow past 1 GB", agent_text=inlined) is not (
        TurnKind.CORRECTION
    )


def test_a_deferral_or_a_message_in_capitals_is_no_shouted_reversal() -> None:
    assert kind_of("add the migration, but do NOT apply it yet") is not TurnKind.CORRECTION
    assert kind_of("PLEASE ADD THE MIGRATION AND DO NOT APPLY IT") is not TurnKind.CORRECTION
    # lower case is not a stress
    assert kind_of("edit the plan to not mention Instructor in the intro") is not (
        TurnKind.CORRECTION
    )


# --- the pause alone decides nothing ---------------------------------------------------


def test_a_long_pause_does_not_make_a_turn_a_new_task() -> None:
    # A rule that read a self-contained turn ten minutes after the agent finished as a new
    # task fixed six tuning turns (ClusterCockpit/cc-backend 75_36f551d54 line 94 below)
    # but, on unlabelled sessions, turned mostly reports on the result and questions about
    # it into new tasks: people pause to try what the agent did. It is gone.
    built = (
        "Frontend built successfully. Reload the `/config` page in your browser — the "
        "PlotRenderOptions (line width, plots per row, colored backgrounds, color blind mode, "
        "and resampling settings) should now appear in the Admin Options section."
    )
    context = "Add the plot render options to the config page\n" + built
    text = "Add resample-config option to the current config"
    assert kind_of(text, agent_text=built, context=context, gap_s=2243.0) is TurnKind.FOLLOW_UP
    # a report on the result after the pause stays a correction
    report = "the resampling options do not show up on the config page"
    assert kind_of(report, agent_text=built, context=context, gap_s=2243.0) is (TurnKind.CORRECTION)


def _decide(text: str, agent_text: str = DONE, **extra: object) -> TurnDecision:
    turn = TurnInput(text=text, has_episode=True, agent_text=agent_text, agent_worked=True, **extra)  # type: ignore[arg-type]
    return classify_turn(turn, lexicon_for())


def test_steering_by_position_alone_is_hard_and_a_redirect_in_words_is_not() -> None:
    # handgemacht-ai/claude-code-log f852ad25 line 10, after rejecting the plan and
    # interrupting: it fixes two facts of the plan (a follow-up), read as steering
    facts = (
        "So the Github link is https://github.com/daaain/danieldemmel.me-next/blob/main/public/"
        "tokenizer.html and the v3 upgrade is already done, otherwise all good"
    )
    decision = _decide(facts, agent_text="- No input validation", after_interrupt=True)
    assert decision.kind is TurnKind.STEERING and decision.hard
    # melagiri code-insights: "do not stash.. there is a parallel session running"
    said = _decide("do not stash.. there is a parallel session running", after_interrupt=True)
    assert said.kind is TurnKind.STEERING and not said.hard


def test_a_pronoun_in_a_long_turn_is_no_certain_reference_to_the_previous_one() -> None:
    # tslateman/duet f7_fb5396fe00 line 122: "it" is philosophy.md, named in the turn itself
    text = (
        "i want to expand philosophy.md\nright now it focuses on going back and forth with "
        "the human-AI, but I also want to highlight another relationship. multiple humans "
        'adopting duet can themselves form a duet by "singing" their part in prompts to the '
        "model"
    )
    assert _decide(text).hard
    # a short step on a thing the agent named: chikachow "Fix that gh auth"
    short = _decide("Fix that gh auth", agent_text="The remaining blocker is gh auth.")
    assert short.kind is TurnKind.FOLLOW_UP and short.confidence > _decide(text).confidence


def test_a_turn_no_cue_decided_is_left_to_the_model() -> None:
    """Where the rules read a turn by position and a pronoun alone, or fall through to the
    last default after the agent finished, they were right on few turns of new authors:
    such turns are hard, for the model-assisted path."""
    # held-out set 3 (JanDeDobbeleer/oh-my-posh), a correction read as going on with the task
    on_main = _decide(
        "but I'm on main here, I added it nromally.",
        agent_text="The file is uncommitted on `next`. Want me to commit it there?",
    )
    assert on_main.kind is TurnKind.FOLLOW_UP and on_main.hard
    # held-out set 5 (tslateman/duet 8d_8e47a114e5 line 138): "this" is the formatting the
    # agent had just done (once read as a new subject; now as what was just made, put
    # somewhere), and the reading still rests on the pronoun alone
    hook = _decide(
        "can we add this as a git hook rule?",
        agent_text="Done. README is formatted — ready to commit when you are.",
    )
    assert hook.kind is TurnKind.FOLLOW_UP and hook.hard


def test_a_pronoun_after_a_thing_the_turn_named_points_at_that_thing() -> None:
    # wild sample 23 (sam-fakhreddine/wfc): "it" is the readme, named just before it
    assert points_back("rework the readme it is no longer uptodate.") is False
    assert points_back("when our install script refreshes settings, can it also remove") is False
    assert points_back("i want to expand philosophy.md right now it focuses on") is False
    after_merge = _decide(
        "rework the readme it is no longer uptodate.",
        agent_text="Done. PR #15 is closed.",
        previous=TurnKind.APPROVAL,
    )
    assert after_merge.kind is TurnKind.NEW_TASK
    # with nothing named before it, the pronoun points at the exchange
    assert points_back("make it smaller and move it left") is True
    assert points_back("it still crashes on start") is True
    # other back-references stay, whatever the turn named
    assert points_back("do the same for the footer") is True
    assert points_back("rework the readme again, it is out of date") is True
    # a demonstrative standing alone points back too (handgemacht-ai 37f83ec9 line 324)
    assert points_back("could we reuse session_nav.html for that? looks like it") is True
    # the thing named may be the agent's: the turn is still read as refining it
    assert (
        kind_of("make the modal wider so it fits the table", agent_text="I added the modal.")
        is TurnKind.FOLLOW_UP
    )


# --- a shell command typed into the agent's box ------------------------------------------


def _kinds(b: SessionBuilder) -> list[tuple[str, TurnKind]]:
    episodes = segment(views(b), lexicon_for())
    typed = [(t.event.text, t.kind) for e in episodes for t in [*e.feedback, *e.housekeeping]]
    return sorted(typed, key=lambda pair: pair[0])


def _answered() -> SessionBuilder:
    # theogbrand/napoli-matcha 0c_c3173e5050 lines 5-19: the agent answers how to run the
    # tests; the person types the command as a prompt and interrupts at once (then reruns
    # it in bash mode)
    return (
        SessionBuilder()
        .prompt("how do I run the tests?")
        .call("Read", '{"file_path": "package.json"}', "r1")
        .result("r1", '{"scripts": {"test:pr": "vitest run tests/pr_creation_test.ts"}}')
        .say("**Run specific test suites:**\n```bash\nnpm run test:pr\n```")
    )


def test_a_shell_command_stopped_at_once_was_meant_for_the_shell() -> None:
    b = _answered().prompt("npm run test:pr").interrupt()
    assert ("npm run test:pr", TurnKind.HOUSEKEEPING) in _kinds(b)


@pytest.mark.parametrize("typed", ["ls!", "! git status", "!ls"])
def test_a_shell_command_with_the_bash_mode_mark_astray_was_meant_for_the_shell(
    typed: str,
) -> None:
    # wild sample 36 (not in the repository): "ls!" typed as a prompt, stopped at once,
    # then run in bash mode
    b = _answered().prompt(typed).interrupt()
    assert (typed, TurnKind.HOUSEKEEPING) in _kinds(b)


def test_a_shell_command_the_agent_ran_or_a_request_stopped_at_once_stays_a_turn() -> None:
    # sent and not stopped: the agent runs it for the person
    ran = _answered().prompt("npm run test:pr").bash("npm run test:pr", "2 passed")
    assert ("npm run test:pr", TurnKind.FOLLOW_UP) in _kinds(ran)
    # stopped after the agent had started on it: the agent was asked, then stopped
    started = _answered().prompt("npm run test:pr").bash("npm run test:pr").interrupt()
    assert ("npm run test:pr", TurnKind.FOLLOW_UP) in _kinds(started)
    # a request in words, stopped at once, is no shell command
    words = _answered().prompt("run the pr tests please").interrupt()
    assert ("run the pr tests please", TurnKind.HOUSEKEEPING) not in _kinds(words)


def test_a_warned_consequence_is_no_failure_report() -> None:
    # theogbrand/napoli-matcha 97_9785bbb493 line 47, queued while the agent wrote the test
    writing = "Let me create a test that runs the main loop with a test markdown file."
    text = (
        "Ensure that when @request_queue/pr_creation_test.md is ran as a test, the status is "
        'always set as "Backlog" or the test will not work.'
    )
    assert kind_of(text, agent_text=writing, queued=True) is TurnKind.FOLLOW_UP
    # said as what happens, it reports a failure
    report = 'The status is not set as "Backlog", so the test does not work.'
    assert kind_of(report, agent_text=writing, queued=True) is TurnKind.CORRECTION


def test_a_full_width_question_mark_ends_a_question() -> None:
    # own case: a Chinese offer ("shall I help you build it, starting with data
    # augmentation?") answered with a variation of it
    offer = "环境已配置好 ✅\n\n现在可以开始写代码了，需要我帮你从数据增强模块开始搭建吗？"
    assert kind_of("帮我把py文件创建好，里面不要写内容", agent_text=offer) is TurnKind.FOLLOW_UP


def test_an_amount_of_data_too_large_is_no_verdict() -> None:
    # own case, after a push: a count of the data, not a quality of the result
    text = (
        "Now build Stage 2. Important: 2,774 candidates is too many to classify within "
        "reasonable cost, apply a prioritization filter first."
    )
    assert kind_of(text, agent_text="Pushed. `main` is now tracking `origin/main`.") is not (
        TurnKind.CORRECTION
    )


def test_a_tools_own_timeout_notice_and_a_warning_in_place_of_output_are_errors() -> None:
    # ujuc/agent-stuff 35_… line 94 (held-out set 6): Zed's agent bridge (`mcp__acp__Bash`)
    # answers a `git commit` stuck on a hook's [Y/n] prompt with this, no error flag
    timed_out = (
        "Timed out. New output:\n\nYou have an active Claude Code session.\n"
        "Link this commit to Claude Code session context? [Y/n]\n\n"
    )
    # shunkakinoki/dotfiles f4_… line 71 (held-out set 6): Read with an offset past the end
    past_end = (
        "<system-reminder>Warning: the file exists but is shorter than the provided offset "
        "(107). The file has 52 lines.</system-reminder>"
    )
    for text in (timed_out, past_end, "Command timed out after 2m 0s"):
        assert is_failed_result(_result(1, 0, text, is_error=False)), text
        assert judge_errors([_result(1, 0, text, is_error=False)]).verdicts[1].kind == "root"
    # Output that talks about timeouts, a reminder that is no warning, and a warning
    # beside real output are results, not failures.
    for text in (
        "Timeout - no requests received in 30s",
        "retrying after the request timed out\nok",
        "timeout: 30s\nretries: 3",
        "<system-reminder>This memory is 3 days old. Memories are point-in-time "
        "observations, not live state.</system-reminder>",
        "1\tline one\n2\tline two\n<system-reminder>Warning: the file is large.</system-reminder>",
        # maxnoobineating/UbuntuDevcontainer_Dotfiles e0ddd92b line 43: Read of an empty
        # file, no offset asked for, answers with the same warning at the first line
        "<system-reminder>Warning: the file exists but is shorter than the provided offset "
        "(1). The file has 1 lines.</system-reminder>",
    ):
        assert not is_failed_result(_result(1, 0, text, is_error=False)), text


@pytest.mark.parametrize(
    "text",
    [
        # unlabelled public sessions (senlongyugood, Kite814): "git push failed", "my
        # data_utils.py can't run in the simclr environment"
        "git push失败",
        "我的data_utils.py用simclr环境运行不了",
        # our own, one per language and shape
        "还是报错",
        "页面打不开了",
        "ボタンを押しても動かない",
        "ビルドが失敗しました",
        "まだ表示されません",
        "여전히 안 돼요",
        "빌드 실패했어요",
        "저장 버튼이 작동하지 않아요",
        # wild sample 9 (not in the repository): "I open the program and still no change"
        "我打开程序还是没有变化。请给出文件具体路径。",
        "改了配置但是不起作用",
        # wild sample 10 (not in the repository): "I ran the preprocessing and it's too slow"
        "데이터 전처리 실행했는데 너무 느려",
        "ビルドが遅すぎる",
        # wild sample 14 (not in the repository), after the agent's fix was committed:
        # "hasn't it changed?"
        "変わってない？",
        "まだ反映されてないです",
        # a real Codex history (7567491/Feishu_ClaudeCode, not in the repository), each
        # after the agent said its fix was done: "I said 'send readme.md' in the chat, and
        # there was no response", "sent it again, still no reaction whatsoever, do an
        # RCA …", "still only read permission, no edit permission", "why did the md-sending
        # code produce duplicates again", "the conversation reported an error: <pasted>"
        '刚才我在"AI之初"对话里发言"发送readme.md，结果没有响应',
        "刚才又发送了，还是没有任何反应，查看所有必要信息，进行rca",
        "还是只有阅读权限没有编辑权限",
        "查看飞书对话的日志，刚才发送md文件的代码为什么又发生了重复",
        "对话报错：根据git状态，我看到有一个README文件被修改了。",
    ],
)
def test_failure_reports_in_chinese_japanese_and_korean_are_corrections(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # a real Codex history (7567491/Feishu_ClaudeCode, not in the repository): "read the
        # readme", "look at the readme", "look at all the code", "read every script in the
        # ./teacher folder", and the labelled set's "open M-Claude repo"
        "阅读readme",
        "查看readme",
        "查看所有代码",
        "阅读./teacher目录里的全部脚本",
        "open M-Claude repo",
        # our own, the same asks in other words
        "Read CLAUDE.md",
        "please read the whole codebase",
        "familiarize yourself with the codebase",
        "look at the docs folder",
        "READMEを読んで",
    ],
)
def test_a_look_at_the_project_is_no_task(text: str) -> None:
    assert orients_only(text)
    assert needs_context(text)


@pytest.mark.parametrize(
    "text",
    [
        "read the README and tell me how to install it",
        "review the code",  # a review is work
        "查看所有日志，告诉我有哪些问题",  # look at the logs and tell me the problems
        "查看日志",  # logs are looked at for a reason
        "阅读readme，然后修复测试",  # read the readme, then fix the tests
        "open a PR",
        "open the settings page and add a dark mode toggle",
        "read CLAUDE.md. Run bun test",
        "look at the code, why does it crash?",
        "分析项目运行健康度",  # analyse the project's health
    ],
)
def test_a_look_with_something_asked_of_it_is_work(text: str) -> None:
    assert not orients_only(text)


def test_the_work_asked_after_a_look_at_the_project_is_a_new_task() -> None:
    # the same history: the agent summed up the README, and the person asks for the work
    summary = "这个项目是一个飞书机器人后台，README 说明了安装、配置和部署步骤。"
    work = '写入AGENTS.md:"中文对话，用最简单的方法完成任务 不要创建新文件，除非我告诉你这么做"'
    assert kind_of(work, summary, orienting=True) is TurnKind.NEW_TASK
    assert kind_of("查看所有日志，告诉我有哪些问题", summary, orienting=True) is TurnKind.NEW_TASK
    # another look, an acknowledgement, or a turn about what was read goes on with it
    assert kind_of("查看readme", summary, orienting=True) is not TurnKind.NEW_TASK
    assert kind_of("ok", summary, orienting=True) is not TurnKind.NEW_TASK
    assert kind_of("what does it say about that?", summary, orienting=True) is not (
        TurnKind.NEW_TASK
    )


@pytest.mark.parametrize(
    "text",
    [
        "添加错误处理",  # add error handling
        "实现失败重试机制",  # implement retry on failure
        "エラーハンドリングを追加して",  # add error handling
        "失敗したテストを直して",  # fix the failing tests: a request, not a report
        "오류 처리 추가해줘",  # add error handling
        "실패했던 테스트 고쳐줘",  # fix the tests that failed
        "좋아요, 이제 README 업데이트해줘",  # good, now update the README
        "还是不要改配置了，先看日志",  # better not change the config; look at the logs first
        "按钮点击后没有任何反应的话，显示一个提示",  # if a click has no effect, show a hint
        "没有响应时自动重试三次",  # retry three times when there is no response
    ],
)
def test_error_words_in_a_cjk_request_are_no_failure_report(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


# --- an app's standing instructions are not the request ---------------------------------

#: The blocks Conductor writes before the first prompt of a workspace (a real session of
#: the wild sample, obsessiondb/chkit; the workspace path and prefix as recorded).
CONDUCTOR_PREAMBLE = (
    "<system_instruction>\n"
    "You are working inside Conductor, a Mac app that lets the user run many coding agents "
    "in parallel.\n"
    "Your work should take place in the /Users/marc/conductor/workspaces/chkit/seoul-v1 "
    "directory (unless otherwise directed), which has been set up for you to work in.\n"
    "Each workspace has a .context directory (gitignored) where you can save files to "
    "collaborate with other agents.\n"
    "The target branch for this workspace is main. Use this for actions like creating new "
    "PRs, bisecting, etc., unless you're told otherwise.\n"
    "</system_instruction>\n\n\n"
    "<system-instruction>\n"
    "To do immediately, before using any skills or any other tools (one time only):\n\n"
    "Rename the branch using `git branch -m`. Do not check the current branch name.\n"
    "</system-instruction>\n\n"
)


@pytest.mark.parametrize(
    "request_text",
    ["check why the deploy on main fails and fix it", "Please review the changes in this tree"],
)
def test_the_request_after_an_apps_instructions_is_the_intent(request_text: str) -> None:
    b = SessionBuilder().prompt(CONDUCTOR_PREAMBLE + request_text).say(DONE)
    (episode,) = segment(views(b), lexicon_for())
    assert episode.intent_text == request_text


@pytest.mark.parametrize(
    ("typed", "asked"),
    [
        # Codex desktop, a pasted screenshot and the in-app browser (real, wild sample:
        # blackgirlbytes/planetfall-seed-signalkit)
        (
            "\n# Files mentioned by the user:\n\n## codex-clipboard-5f689072.png: /var/folders/"
            "by/T/codex-clipboard-5f689072.png\n\n# In app browser:\n- The user has the in-app "
            "browser open.\n- Current URL: http://127.0.0.1:5173/leaderboard\n\n"
            "## My request for Codex:\none of the leaderboard scores has an overlap with it\n\n"
            '\n\n<image name=[Image #1] path="/var/folders/by/T/codex-clipboard-5f689072.png">'
            "\n</image>",
            "one of the leaderboard scores has an overlap with it\n\n\n\n[Image #1]",
        ),
        # the Codex app (savekirk/session-bridge, MIT, a history outside the repository): the
        # picture itself inside the tag, which the harvest stores as its placeholder; left
        # there, the tags had read as a program's output
        (
            "\n# Files mentioned by the user:\n\n## Screenshot 2026-04-10 at 13.58.20.png: "
            "/var/folders/20/T/Screenshot 2026-04-10 at 13.58.20.png\n\n## My request for "
            "Codex:\nUse the attached image a inspiration to redesign the session details.\n"
            "\n<image name=[Image #1]>\n[image: image/png, 91380 bytes]\n</image>",
            "Use the attached image a inspiration to redesign the session details.\n\n[Image #1]",
        ),
        # Codex's VS Code extension (FORMATS.md): the open file and tabs, then the request
        (
            "# Context from my IDE setup:\n\n## Active file: go.mod\n\n## Open tabs:\n- go.mod\n\n"
            "## My request for Codex:\n幫我檢查一下 go.mod 裡面 為何 go版本是 1.24?",
            "幫我檢查一下 go.mod 裡面 為何 go版本是 1.24?",
        ),
    ],
)
def test_the_request_after_codexs_context_heading_is_the_intent(typed: str, asked: str) -> None:
    b = SessionBuilder().prompt(typed).say(DONE)
    (episode,) = segment(views(b), lexicon_for())
    assert episode.intent_text == asked


# --- wild sample 4 (public sessions, not in the repository), read after a blind scoring ---


@pytest.mark.parametrize(
    "text",
    [
        # blackgirlbytes/planetfall-seed-signalkit, after "Done - press M for bird's-eye view"
        "it doesnt stay in birds eye view when im doing entire checkpoint",
        "the links dont work",
        "the panels don't align with the map",
    ],
)
def test_a_state_the_result_fails_to_keep_is_a_failure_report(text: str) -> None:
    done = "Done - press M for bird's-eye view and pan around. Ready for your playtest."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["please don't run the tests", "dont stay on main, use a branch", "don't align it"]
)
def test_a_prohibition_is_not_a_failure_report(text: str) -> None:
    done = "Done - press M for bird's-eye view and pan around. Ready for your playtest."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # the labelled set (real lines), each read as a verdict before: a praise word
        # inside a request
        "delete that comment and post a reply in the correct thread",
        "And lets go with the latest C release that works everywhere",
        # the word of praise as the request's verb or its attribute
        "correct the typo in the footer",
        'wherever the string "Equipe" appears in the template, correct it to "Équipe"',
        "please correct the date format in the export",
        "perfect the fade-in animation on the hero",
        "use the correct port for the staging server",
        "make sure the dates are correct in the export",
    ],
)
def test_a_word_of_praise_inside_a_request_is_no_verdict(text: str) -> None:
    assert kind_of(text) is not TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        "Correct, go ahead",
        "perfect!",
        "that is correct",
        "Perfect, thanks",
        # a verb of the work as the subject of the verdict, and a joining word before it
        "Deploy works now, perfect",
        "build is green, thanks!",
        "Build successful, thanks!",
        "Deploy done, perfect",
        "Test fine now, thanks",
        "now it works, thanks",
        "and thanks!",
    ],
)
def test_the_word_of_praise_as_the_verdict_still_approves(text: str) -> None:
    assert kind_of(text) is TurnKind.APPROVAL


#: The agent's report in Italian (blind set 84, lushanoperera/claude-code, not in the
#: repository: "I changed the string, making it translatable").
ITALIAN_DONE = (
    'Ho modificato la stringa "Leggi di più" rendendola traducibile con gettext. Ora utilizza '
    "la funzione `__()` di WordPress."
)


def test_an_italian_request_naming_its_own_file_after_the_agent_finished_is_new() -> None:
    # blind set 84: "change … so that the posts shown are only the term's own children"
    text = (
        "modifica wp-content/themes/hello-villa-stuart/inc/features/service-categories.php in "
        "modo che i post mostrati siano solo quelli direttamente figli del term corrente"
    )
    assert kind_of(text, agent_text=ITALIAN_DONE) is TurnKind.NEW_TASK
    # and in English, the same request read the same way
    english = (
        "modify wp-content/themes/hello-villa-stuart/inc/features/service-categories.php so "
        "that the posts shown are only the direct children of the current term"
    )
    assert kind_of(english, agent_text=DONE) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # blind set 84: "update CLAUDE.md if needed and then commit the changes"
        "aggiorna CLAUDE.md se necessario e poi committa le modifiche",
        "update CLAUDE.md if needed and then commit the changes",
    ],
)
def test_committing_the_changes_goes_on_with_the_task_in_italian_as_in_english(
    text: str,
) -> None:
    assert kind_of(text, agent_text=ITALIAN_DONE) is TurnKind.FOLLOW_UP


def test_a_verdict_after_an_ok_of_its_own_is_an_approval() -> None:
    # Safecast/safecast-map-MCP, after the agent fixed the deploy workflow
    fixed = "I fixed the deploy workflow and pushed it. The deploy job should go through now."
    assert kind_of("OK. Deploy works now!!", agent_text=fixed) is TurnKind.APPROVAL
    assert kind_of("Yes! that fixed it", agent_text=fixed) is TurnKind.APPROVAL
    assert kind_of("ok, now add tests", agent_text=fixed) is not TurnKind.APPROVAL


@pytest.mark.parametrize(
    "agent",
    [
        # Real-s/mini-simclr-assignment (Codex, wild sample 4): "generated a weekly plan"
        "已生成一份一周计划文件：weekly-plan.md。里面按第 1 天到第 7 天拆好了每天目标。",
        "ログイン画面のバリデーションを修正しました。",
        "로그인 화면의 검증을 수정했습니다.",
        "He actualizado el README con los nuevos pasos.",
        "Adicionei a validação no formulário de login.",
        "J'ai corrigé la validation du formulaire.",
        "Ich habe die Validierung im Login-Formular behoben.",
        "Готово: я исправил проверку формы входа.",
        # wild sample 14 (not in the repository): "setup complete!", "changed."
        "設定完成！\n\n現在你可以在 Zed 中按 cmd+g cmd+g 快速開啟 lazygit 查看 Git Graph。",
        "改好了。原来的硬约束换成任务路由规则。",
        # and a commit the agent names as its report (Codex, in Japanese)
        "効果: クリックで選択ハイライトが出ません。\n\nコミット\n- 34d48bb fix: 日付フィールド内の"
        "文字選択を無効化\n\n他の箇所でも同様の挙動が気になるところがあれば、適用できます。",
        "Committed: 1a2b3c4 (fix the date picker).",
        # wild sample 16 (not in the repository): "added an icon to the Compare button"
        "已给中间的 `Compare` 按钮加上 `lucide-react` 图标：\n\n- `apps/web/app/page.tsx:12` 引入",
        # a curly apostrophe, as GPT models write one (an unlabelled Codex session, not in
        # the repository)
        "Great call. I\u2019ve now added a full G-code Hooks editor in the PDL Editor tab.",
        # wild sample 57 (not in the repository): a past participle opening the report, and
        # the simple past, as Claude Code 0.2 wrote them
        "Created CLAUDE.md with information about the shell history organization tool. The "
        "file includes:\n\n1. Repository purpose description\n2. List of main files",
        "I added a `--dry-run` flag to the sync script and documented it in the README.",
        "Summary of the work:\n- Removed the unused `legacy/` folder\n- Renamed `util.js`",
        # blind set 84 (lushanoperera/claude-code, Claude Code 1.0.57, in Italian): "I changed
        # the string, making it translatable"; every other language the feedback lexicon reads
        'Ho modificato la stringa "Leggi di più" rendendola traducibile con gettext.',
        "Il file `style.css` è stato aggiornato con il nuovo nome del tema.",
        "Fatto! La pagina di archivio ora mostra solo i post della categoria.",
        "Dosyayı güncelledim ve testleri ekledim.",
        "Ik heb de validatie aan het loginformulier toegevoegd.",
        "Dodałem walidację do formularza logowania.",
        "Sudah diperbaiki: validasi formulir login.",
        "Tôi đã sửa lỗi xác thực trong biểu mẫu đăng nhập.",
    ],
)
def test_a_done_claim_in_another_language_is_one(agent: str) -> None:
    assert agent_claims_done(agent)
    # a request on another subject after it opens a task of its own
    assert kind_of("我如何使用torch自动下载CIFAR-10 并且使用这个数据集", agent_text=agent) is (
        TurnKind.NEW_TASK
    )


@pytest.mark.parametrize(
    "agent",
    [
        # the tuning set's reports, each read as no done claim before: what the changed code
        # now does, an adverb between (ClusterCockpit/cc-backend)
        "The idle+down case now explicitly returns `down` before the individual `idle` check "
        "fires.",
        # a thing named, then what was done to it (FSM1/cipher-box)
        "PR created: https://github.com/FSM1/cipher-box/pull/178",
        # a short verdict on the whole (apanloco/random; punt-labs)
        "All committed. You're ready to push to GitHub and connect it to Render.",
        "Beads synced, everything pushed. The release is live.",
        # the checks came back clean (entireio/cli)
        "`Contains ##: false` — the `#` markers are gone. Headings now render as styled text "
        "without raw markdown syntax. The build passes and markdown rendering is clean.",
        # a participle opening the report (MythologIQ/Zo-Qore, a Codex session)
        "Recreated `docs/architecture/CORE_RUNTIME_ARCHITECTURE.md`. If you want any edits or "
        "a tighter version, say the word.",
        # Korean's bare noun, Japanese "done." and "it now shows", German participles
        "PR #235 머지 완료. `release/v0.16.0` 브랜치 삭제됨, 로컬은 fast-forward로 `main`에 반영.",
        "完了です。\n\n- **gitleaks**: Passed -- コミット時にシークレットの漏洩を検知",
        "pydantic の license が `MIT` と正しく表示されるようになりました。",
        "## Problem behoben\n\n**Fix:** Pfad korrigiert in `~/.claude/settings.json`",
    ],
)
def test_a_done_claim_in_the_words_agents_report_with_is_one(agent: str) -> None:
    assert agent_claims_done(agent)


@pytest.mark.parametrize(
    "agent",
    [
        # a plan's headings, a failure the agent reports, work still to do
        "Files to be created:\n- `sleepd/a.py`\n- `tests/test_a.py`",
        "What gets pushed:\n- `main`",
        "The build still fails on the linker step.",
        "The tests now fail with a timeout in the parser.",
        "Der Fehler muss noch korrigiert werden.",
        "작업 완료 후 알려드리겠습니다.",
        "Next, I need to check the config loader.",
        "Nothing was committed.",
        "Let me know when you're all set and I'll run the migration.",
        # not yet, or asked of the person ("Have you changed …?")
        "Non ho ancora modificato nulla: vuoi che proceda?",
        "Hai aggiornato il file .env prima di avviare il server?",
        "Ho letto il file; ora lo modifico.",
        # "not successful" in Indonesian and Dutch
        "Build tidak berhasil: modul tidak ditemukan.",
        "De migratie was niet succesvol.",
    ],
)
def test_a_plan_or_a_failure_near_those_words_is_no_done_claim(agent: str) -> None:
    assert not agent_claims_done(agent)


@pytest.mark.parametrize(
    "agent",
    [
        "He actualizado el README. Lamentablemente, no pude arreglar el test de integración.",
        "Atualizei o README, mas infelizmente não consegui corrigir o teste.",
        "J'ai corrigé le formulaire, mais je n'ai pas réussi à faire passer le test e2e.",
        "Ich habe das Formular behoben. Leider konnte ich den E2E-Test nicht reparieren.",
        "Ho modificato il template, ma non sono riuscito a far passare i test.",
        "已修改登录表单，但无法修复集成测试。",
        "フォームを修正しましたが、E2E テストは修正できませんでした。",
        "폼을 수정했지만 테스트는 수정하지 못했습니다.",
        "Я исправил форму, но не удалось исправить тест.",
        "Formu güncelledim ama maalesef test hâlâ başarısız.",
    ],
)
def test_a_done_claim_that_gives_up_in_the_same_words_is_none(agent: str) -> None:
    # the agent's giving up is read in each language whose done claim is read, as in
    # English ("I updated the README. Unfortunately I couldn't fix the test.")
    assert not agent_claims_done(agent)


@pytest.mark.parametrize(
    "text", ["konnnitiha", "konnichiwa", "こんにちは", "你好", "안녕하세요", "Привет!", "oi"]
)
def test_a_greeting_in_another_language_is_housekeeping(text: str) -> None:
    # wild sample 5 (not in the repository): a session opened with the romaji "konnnitiha"
    turn = TurnInput(text=text, command=None, has_episode=False, agent_text="")
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize("text", ["Hello Jarvis.", "hi there!", "hey claude"])
def test_a_greeting_to_someone_is_housekeeping(text: str) -> None:
    # wild sample 22 (not in the repository): a session opened with "Hello Jarvis."
    turn = TurnInput(text=text, command=None, has_episode=False, agent_text="")
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize("text", ["你好,你是誰?", "hi, who are you?", "hello there, who are you"])
def test_a_greeting_asking_who_the_agent_is_is_housekeeping(text: str) -> None:
    # wild sample 42 (not in the repository, Luyun1224/osce-lesson-system): the session's
    # first words, "Hello, who are you?"
    turn = TurnInput(text=text, command=None, has_episode=False, agent_text="")
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize(
    "text", ["hey continue", "Hey Jarvis, fix the login page", "hi, who are you going to ask?"]
)
def test_a_greeting_before_a_request_is_no_greeting(text: str) -> None:
    turn = TurnInput(text=text, command=None, has_episode=False, agent_text="")
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 6 (public sessions, not in the repository), after the agent's done claim
        "still same, looks the text is being cut",
        "there is 3 items and only load 2",
        "it keeps crashing",
        "where all my number in the old dashboard?",
        "the changes are not reflected on the page",
        "where did my tests go?",
    ],
)
def test_a_result_that_contradicts_the_done_claim_is_a_failure_report(text: str) -> None:
    done = "Done: the dashboard now loads the new stages and the list renders the items."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["where is my config file stored?", "keep going", "only show 3 items per page"]
)
def test_a_question_or_a_request_with_those_words_is_not_one(text: str) -> None:
    done = "Done: the dashboard now loads the new stages and the list renders the items."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["what model are you?", "which model is this session using"])
def test_asking_the_assistant_about_itself_is_meta_talk(text: str) -> None:
    # wild sample 6 (not in the repository), twice in one session, mid-task
    assert kind_of(text) is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # wild sample 5 (public sessions, not in the repository): the agent offered one
        # thing, the person asked for another that names its files
        (
            "update system_notes.md and changelog with changes since last update.",
            "Tests included.\n\nWant me to add a toolbar button for “Refresh Issues” and "
            "optionally auto-refresh when switching tabs or changing fields?",
        ),
        # wild sample 6: a report of the last change, then a request on another file
        (
            "Can you review my codebase and update the constitution file in "
            ".specify/memory/constitution.md",
            "Updated the loaders; the banners now show after each redirect.",
        ),
    ],
)
def test_a_request_that_names_its_own_object_stands_alone(text: str, agent: str) -> None:
    assert names_own_object(text)
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK


def test_a_request_pointing_back_or_taking_the_offer_does_not() -> None:
    # the labelled set (cb2e607c line 79): "these" points at what the agent just listed
    assert not names_own_object("Please add these in @README.md but also how to install with uv")
    # taking up the agent's own offer, in the person's words
    offer = "Tests pass.\n\nWant me to add a toolbar button for refresh_issues to the main window?"
    text = "add the toolbar button for refresh_issues to the main window"
    assert names_own_object(text)
    assert kind_of(text, agent_text=offer) is not TurnKind.NEW_TASK


def test_a_long_request_after_the_agent_ended_its_turn_stands_alone() -> None:
    # wild sample 5 (Codex, spec-kit's prompt expanded into the message; not in the
    # repository): no done claim before it, but forty words and more that point at nothing
    # in the exchange carry an intent of their own
    text = (
        "## User Input\n\n```text\nClarification gate for use case 05: Rules: - Do NOT ask "
        "questions that are already answered in: ./Use cases/UC-05.md - Only ask about "
        "decisions that change the data model, the API or the acceptance tests - Ask at most "
        "five questions, one at a time, and record each answer in the spec\n```\n\nYou **MUST** "
        "consider the user input before proceeding (if not empty).\n\n## Outline\n\n1. **Setup**: "
        "Run `.specify/scripts/bash/setup-plan.sh --json` from repo root and parse JSON for "
        "FEATURE_SPEC, IMPL_PLAN, SPECS_DIR, BRANCH. For single quotes in args like \"I'm "
        'Groot", use escape syntax.\n2. **Load context**: Read FEATURE_SPEC and the constitution.'
    )
    agent = "The spec covers the UC-05 flows and its acceptance tests."
    assert not agent_claims_done(agent)
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # wild sample 4 (not in the repository)
        (
            "the tracks are not starting at the beginning of the island or closer to the "
            "beginning of the island i feel like they should be",
            "I moved the camera closer to the tracks. Tell me what it looks like.",
        ),
        # wild sample 6
        (
            "its okay still kinda boring. I would like a calendar to drop down",
            "- **Taller bar** with better breathing room\n\nLet me know what you think!",
        ),
    ],
)
def test_a_result_described_as_not_right_when_a_verdict_was_asked_is_a_correction(
    text: str, agent: str
) -> None:
    assert agent_awaits_verdict(agent)
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


def test_a_request_when_a_verdict_was_asked_is_not_a_correction() -> None:
    agent = "I moved the camera closer to the tracks. Tell me what it looks like."
    assert kind_of("now add a second level with two tracks", agent_text=agent) is not (
        TurnKind.CORRECTION
    )


@pytest.mark.parametrize(
    "agent",
    ["Ready. Let me know what you’d like to work on.", "Go ahead, what do you need?"],
)
def test_an_open_invitation_in_other_words_opens_a_new_task(agent: str) -> None:
    # wild sample 6 (not in the repository), curly apostrophe as typed by the agent
    text = "I think we should not be placing my password into the user file we uploaded"
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 6 (not in the repository): the agent's commands run, their output pasted
        "~ ✗ sudo umount /dev/sda1 /dev/sda2\numount: /dev/sda1: not mounted.\n"
        "umount: /run/media/vwestberg/GIT: target is busy.",
        "cp: cannot stat 'build/app.js': No such file or directory",
        "$ ./deploy.sh\nbash: ./deploy.sh: Permission denied",
    ],
)
def test_a_unix_tools_own_error_line_is_a_pasted_error(text: str) -> None:
    agent = "Unmount both partitions first:\n\n```bash\nsudo umount /dev/sda1 /dev/sda2\n```"
    assert has_pasted_error(text)
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["title: cannot be empty", "Note: you cannot deploy on Fridays", "Step 2: cannot skip"]
)
def test_a_requirement_in_that_shape_is_no_pasted_error(text: str) -> None:
    assert not has_pasted_error(text)


@pytest.mark.parametrize(
    "text",
    [
        # a history outside the repository (entireio/cli, MIT): Go's test failure pasted back
        # after "Fixed."
        "--- FAIL: TestGeminiCLIHookInstallation (0.05s)\n"
        "    --- FAIL: TestGeminiCLIHookInstallation/localDev_mode_uses_go_run (0.01s)\n"
        "        agent_test.go:650: localDev hooks should use 'go run', but settings.json "
        "doesn't contain it\nFAIL",
        "ok  \tgithub.com/x/cli/strategy\t0.31s\nFAIL\tgithub.com/x/cli/session\t0.41s",
        "FAIL src/parser.test.ts\n  ● parses an empty file",
        # the same history: a log line at error level behind its time stamp and tag
        "2026-02-13T08:45:11+01:00 [wingman] ERROR claude CLI failed after 59ms: exit 1",
        '{"time":"2026-02-15T15:06:04+11:00","level":"ERROR","msg":"push failed"}',
        # melagiri/code-insights (MIT): a CLI's failure line behind a cross
        "code-insights dashboard\n✖ Failed to start dashboard server.\n"
        "Cannot find package '@hono/node-server'",
        # the formats of argparse, the C library and the dynamic loader
        "$ python cli.py train sd15\nusage: cli.py [-h] {data,train,gen} ...\n"
        "cli.py: error: argument cmd: invalid choice: 'sd15'",
        "❯ sudo sysctl -w kern.tty.ptmx_max=4096\nsysctl: kern.tty.ptmx_max=4096: Invalid argument",
        "/usr/local/bin/app: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.39' not found "
        "(required by /usr/local/bin/app)",
        "./app: error while loading shared libraries: libssl.so.3: cannot open shared object",
    ],
)
def test_a_failed_test_a_log_at_error_level_and_a_programs_error_line_are_pasted_errors(
    text: str,
) -> None:
    agent = "Fixed. The hooks now use the wrapper script, and the tests pass."
    assert has_pasted_error(text)
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "FAIL the build when the linter finds anything",
        "[ ] ERROR handling for uploads",
        "[TODO] ERROR handling in the importer",
        "make the log print level ERROR in red",
        "Subject: errors in the report page",
    ],
)
def test_a_request_or_a_checklist_in_those_words_is_no_pasted_error(text: str) -> None:
    assert not has_pasted_error(text)


@pytest.mark.parametrize(
    "text",
    [
        # a history outside the repository (melagiri/code-insights, MIT): the person ran the
        # command the agent suggested and pasted what it printed, with no word of their own
        "node cli/dist/index.js insights check --analyze\n"
        "[1/4] There is a new repo in market - https://github ... done (127s)\n"
        "[2/4] We were working on core insights CLI command with --nativ... ... failed\n"
        "  [Code Insights] spawnSync claude ETIMEDOUT\n"
        "Analyzed 2 sessions.",
        'unset ANTHROPIC_API_KEY && echo "Say hi" | claude -p --output-format json --bare\n'
        '"result":"Not logged in · Please run /login"\n'
        "node cli/dist/index.js insights check --analyze\n"
        "  [Code Insights] Command failed: claude -p --output-format json "
        "--append-system-prompt-file /var/folders/3p/T/ci-prompt-1774921837843.txt --bare\n"
        "Analyzed 0 sessions.",
        # the same words of Node's in the other places they are printed
        "npm run dev\nError: connect ECONNREFUSED 127.0.0.1:5432",
        "[server] getaddrinfo ENOTFOUND api.example.com",
        "ENOENT: no such file or directory, open '/app/config.json'",
        "Installing dependencies... failed",
    ],
)
def test_nodes_error_lines_pasted_back_are_a_correction(text: str) -> None:
    agent = "Try running `node cli/dist/index.js insights check --analyze` again and tell me."
    assert has_pasted_error(text)
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "read EXIF data from the uploads and show it",
        "open ENOENT.md and summarise it",
        "handle ECONNREFUSED when the database is down",
        "the retry after a Command failed: message should back off",
        "the spinner shows ... failed while it waits, make it say failing",
        "list the steps... failed ones first",
    ],
)
def test_nodes_words_in_a_request_are_no_pasted_error(text: str) -> None:
    assert not has_pasted_error(text)


@pytest.mark.parametrize("text", ["同意", "可以", "没问题", "いいです", "네", "좋아요"])
def test_a_bare_acceptance_in_cjk_accepts_the_proposal(text: str) -> None:
    # wild sample 7 (not in the repository): "同意" to "do you agree with this judgement?"
    agent = "DRA 资源不参与 share 计算，这是 capacity plugin 的问题。\n\n你同意这个判断吗？"
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


def test_an_acceptance_word_inside_a_request_is_no_approval() -> None:
    agent = "DRA 资源不参与 share 计算。\n\n你同意这个判断吗？"
    assert kind_of("可以，但是先把 share 算法的单元测试补上", agent_text=agent) is not (
        TurnKind.APPROVAL
    )


@pytest.mark.parametrize(
    "agent",
    [
        # wild sample 7 (not in the repository): the agent's answer to a greeting
        "Xin chào! 👋 Tôi là Claude Code. Tôi có thể giúp gì cho bạn hôm nay?",
        "你好！有什么我可以帮你的吗？",
        "こんにちは！何かお手伝いできることはありますか？",
        "안녕하세요! 무엇을 도와드릴까요?",
        "¡Hola! ¿En qué te puedo ayudar?",
        "Olá! Como posso ajudar?",
        "Привет! Чем могу помочь?",
    ],
)
def test_an_open_invitation_in_another_language_opens_a_new_task(agent: str) -> None:
    text = "ban dang hoat dong tren may nao va tai khoan nao"
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # wild sample 5 (not in the repository): the agent changed nothing, it gave steps;
        # the person ran them and reports the result
        (
            "index.htmlにはアクセスできるようになりましたが、画像送信ボタンなどが表示されません。",
            "1. サーバを再起動する\n2. ブラウザで /ui を開く\n\n上記手順を試して、結果を教えて"
            "ください。",
        ),
        (
            "the page loads now but the upload button doesn't show up",
            "Run this and reload the page:\n\n```bash\nnpm run dev\n```",
        ),
    ],
)
def test_a_failure_after_the_agents_steps_is_a_correction_though_it_changed_nothing(
    text: str, agent: str
) -> None:
    assert agent_gave_steps(agent)
    assert kind_of(text, agent_text=agent, agent_acted=False) is TurnKind.CORRECTION


def test_a_complaint_before_any_work_or_advice_stays_a_request() -> None:
    agent = "I looked at the upload page: it is served by web/upload.tsx."
    text = "the upload button doesn't show up on mobile"
    assert kind_of(text, agent_text=agent, agent_acted=False) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 8 (public sessions, not in the repository)
        'Now this one (index):1 Uncaught TypeError: Failed to resolve module specifier "@a/b".',
        "09:20:46.091 Running build in Portland, USA (West)\n09:20:49.185 Restored build cache\n"
        "09:21:01.767 > Build error occurred\n"
        '09:21:01.788 Error: Command "rm -rf .next && npm run build:fast" exited with 1',
        "  ┌────────────────────┐\n  │  LIVE TEST RESULTS │\n  └────────────────────┘\n"
        "   Check      Status        Finding\n   Pilot Tab  ❌ NOT FOUND  Not present in HTML",
    ],
)
def test_pasted_output_that_shows_a_failure_is_a_pasted_error(text: str) -> None:
    assert has_pasted_error(text)
    assert kind_of(text, agent_text="Deployed: the new build is live.") is TurnKind.CORRECTION


def test_a_pasted_log_or_report_is_not_read_as_typed_words() -> None:
    log = "\n".join(
        f"09:20:{n:02d}.091 step {n} of the build finished without trouble" for n in range(30)
    )
    box = "\n".join(["  ┌────────┐", "  │ report │", "  ├────────┤", "  └────────┘"] * 5)
    assert feedback_region(log) == ""
    assert feedback_region(box) == ""


@pytest.mark.parametrize(
    "text",
    [
        # wild samples 5 and 8 (not in the repository): requests after the agent's answer
        "Vérifie le constitution.md pour voir si cela produira une application robuste",
        "创建虚拟环境，配置必要的依赖",
        "分析项目运行健康度",
        "Проверь конфигурацию nginx на сервере",
    ],
)
def test_a_request_in_another_language_after_an_answer_is_a_new_task(text: str) -> None:
    answer = "The dashboard reads its figures from the metrics table, refreshed every minute."
    assert kind_of(text, agent_text=answer) is TurnKind.NEW_TASK


def test_a_go_on_after_a_question_is_left_to_the_model() -> None:
    # wild sample 4 (not in the repository): "继续" after "这部分设计如何？" ("how is this
    # part of the design?"): going on, or accepting the design; a model reads it
    asked = _decide("继续", agent_text="SD 卡对于系统调试不是必需的。\n\n这部分设计如何？")
    assert asked.kind is TurnKind.FOLLOW_UP and asked.hard
    # so is one after a report with no question: the blind sets read such a go-on as often
    # as an approval of what was done
    plain = _decide("continue", agent_text="Stopped after step 2 of 5; the rest is queued.")
    assert plain.kind is TurnKind.FOLLOW_UP and plain.hard


def test_a_codex_skill_invoked_by_name_is_a_new_task() -> None:
    # wild sample 9 (not in the repository): Codex writes `$skill-creator` as a link
    text = (
        "[$skill-creator](/Users/kane/.codex/skills/.system/skill-creator/SKILL.md) BA_Pro "
        "skill cho dự án này"
    )
    after = "Đã thêm `hotel/room-mapping`, để bạn có bộ làm việc sát thực tế hơn."
    assert kind_of(text, agent_text=after) is TurnKind.NEW_TASK


#: entireio/entire-graph's history (MIT, not in the repository): Codex's `/review` hands its
#: reviewer's output back as a message of the person's
CODEX_REVIEW_RESULT = (
    "<user_action>\n  <context>User initiated a review task. Here's the full review output "
    "from reviewer model. User may select one or more comments to resolve.</context>\n  "
    "<action>review</action>\n  <results>\n  The semantic-diff runner lacks the automation "
    "declaration required by the existing runner configuration pattern, preventing it from "
    "executing.\n\nReview comment:\n\n- [P2] Add the trail-prompt automation block — "
    "/Users/krk/Desktop/GitStore/entire-graph/.entire/runners/trail-semantic-diff.json:15-15"
    "\n  </results>\n</user_action>"
)


def test_codexs_review_result_is_the_review_command_not_a_paste() -> None:
    command = parse_command(CODEX_REVIEW_RESULT)
    assert command is not None and command.intent == "/review"
    b = SessionBuilder().prompt("Draft the five runners").say(DONE).prompt(CODEX_REVIEW_RESULT)
    episodes = segment(views(b), lexicon_for())
    assert [e.intent_text for e in episodes] == ["Draft the five runners", "/review"]
    # the words in a message that only quotes such a record are read as typed
    quoted = "what does <user_action> mean in this log?"
    assert parse_command(quoted) is None


@pytest.mark.parametrize(
    ("text", "family"),
    [
        # a history outside the repository (jakobtfaber/dsa110-FLITS, MIT): Codex 0.13x
        # writes the skill as typed, then the skill's text as a message of its own; typed
        # right after the person stopped the agent, it had read as steering
        ("$handoff", "$handoff"),
        ("$review-pr 12 and summarise it", "$review-pr"),
    ],
)
def test_a_codex_skill_typed_by_name_is_a_new_task(text: str, family: str) -> None:
    stopped = "I'll keep polling the fit until it converges."
    assert kind_of(text, agent_text=stopped, after_interrupt=True) is TurnKind.NEW_TASK
    assert family_name(text) == family


@pytest.mark.parametrize(
    "text", ["$PATH is wrong on this machine", "$5 a month is too much", "$foo is not defined"]
)
def test_a_dollar_sign_before_a_variable_or_a_price_runs_no_skill(text: str) -> None:
    assert family_name(text) is None


@pytest.mark.parametrize(
    "agent",
    [
        "全部推送成功！你看看群里现在效果怎么样？",
        "修正しました。いかがでしょうか。",
        "수정했습니다. 확인해 보세요.",
    ],
)
def test_a_verdict_asked_for_in_another_language_is_one(agent: str) -> None:
    assert agent_awaits_verdict(agent)


@pytest.mark.parametrize(
    "agent",
    [
        # wild sample 9 (not in the repository)
        "If you want, I can help you drop this directly into your notebook cell.",
        "Let me know if you’d like me to help drop this directly into your notebook.",
    ],
)
def test_a_yes_restating_an_offer_without_a_question_mark_accepts_it(agent: str) -> None:
    text = "Yes, please help drop directly in notebook"
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL
    more = "Yes, please drop it in the notebook and also plot the residuals by gender"
    assert kind_of(more, agent_text=agent) is not TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 10 (not in the repository), after the agent suggested ROUND()
        "I changed it to round in AA 50 but that didn't correct it",
        "tried the new flag, it didn't help",
        "the patch doesn't solve the timeout",
    ],
)
def test_a_fix_that_failed_to_do_its_job_is_a_failure_report(text: str) -> None:
    agent = "Use ROUND() in AA50, or make AF39 a formula that points to AA50 directly."
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["can you help me with the export?", "don't help me, just list"])
def test_help_in_a_request_is_no_failure_report(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


def test_a_long_paragraph_typed_without_a_line_break_is_read() -> None:
    # wild sample 10 (not in the repository): 474 characters on one line, which had been
    # dropped as if it were a pasted line of output, so nothing in it was read
    text = (
        "wait what? What do you mean its not accessbible? Look at the tech stack md document, "
        "it is one of the MCP's i have installed and we made sure all MCP's where running "
        "properly before moving on. So lets fixure that out first because this is a very "
        "important MCP to have, you are like a hiogh school kid, but when you use the MCP's you "
        "are simply a connector of information and in there you are superior at, so the MCP's "
        "are 100% the single most important tools you need to use"
    )
    assert "\n" not in text and len(text) > 400
    assert feedback_region(text)
    agent = "Context7 is not accessible in this session. Should I proceed with implementation?"
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


def test_a_long_line_of_output_is_still_not_read_as_words() -> None:
    blob = "eyJhbGciOiJIUzI1NiJ9" * 30
    minified = '{"a":1,"b":[1,2,3],"c":{"d":"e"}}' * 15
    assert feedback_region(blob) == ""
    assert feedback_region(minified) == ""


def test_a_saved_prompt_run_by_its_path_and_an_accepted_codex_plan_are_new_tasks() -> None:
    # wild sample 11 (not in the repository)
    after = "The spec documentation is up to date; no open questions for now."
    assert kind_of(".codex/prompts/plan.md", agent_text=after) is TurnKind.NEW_TASK
    plan = (
        "PLEASE IMPLEMENT THIS PLAN:\n# Multi-File Physics Pipeline Plan\n\n## Summary\n"
        "Split the pipeline; on `Error: missing constant` the loader fails fast.\n"
    )
    assert kind_of(plan, agent_text="<proposed_plan>…</proposed_plan>") is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 11 (not in the repository): what the agent's compose stack served
        "Internal Server Error\nThe server encountered an internal error and was unable to "
        "complete your request.",
        'cyber-bot@host:~/abphish$ ./abphish_bin\ntime="2026-07-03T07:48:01Z" level=fatal '
        'msg="unable to open database file"',
    ],
)
def test_a_server_error_page_or_a_fatal_log_line_is_a_pasted_error(text: str) -> None:
    assert has_pasted_error(text)


def test_yes_pls_to_an_offer_accepts_it() -> None:
    offer = "Want me to add something like `Bash(cat * | python3 *)` to your settings?"
    assert kind_of("yes pls", agent_text=offer) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 12 (public sessions, not in the repository)
        "rien ne s'affiche",
        'ultrathink o erro ainda persiste "│ 2  │ atuar_pay-frontend │ default │"',
        # our own, one per language
        "la page ne fonctionne toujours pas",
        "el botón no funciona",
        "o login não funciona",
        "der Export funktioniert immer noch nicht",
        "il salvataggio non funziona",
        "кнопка не работает",
    ],
)
def test_failure_reports_in_european_languages_are_corrections(text: str) -> None:
    done = "Listo: el formulario ya guarda los datos. C'est corrigé. Fertig."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


def test_a_request_in_those_languages_is_no_report() -> None:
    for text in ("no worries, add the export", "crea un formulario de contacto", "non merci"):
        assert kind_of(text) is not TurnKind.CORRECTION, text


def test_wild_sample_13_lines() -> None:
    # wild sample 13 (not in the repository)
    asked = "Can you restart the app and share a screenshot of the localhost version?"
    assert kind_of("that has improved it but still no sidebar", agent_text=asked) is (
        TurnKind.CORRECTION
    )
    offer = "Mình làm cả hai phần nhé, đúng không?\nNếu đúng, trả lời: “đúng, làm cả hai”."
    assert kind_of("đúng", agent_text=offer) is TurnKind.APPROVAL
    first = TurnInput(text="。", has_episode=False)
    assert classify_turn(first, lexicon_for()).kind is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize(
    "agent",
    [
        "The regression came in with commit 3f2a1bc, which changed the parser.",
        "コミットはまだしていません。",
        "我还没有改好，需要先确认配置。",
    ],
)
def test_a_commit_named_in_passing_or_work_not_finished_is_no_done_claim(agent: str) -> None:
    assert not agent_claims_done(agent)


def test_keeps_failing_says_the_earlier_attempt_changed_nothing() -> None:
    # wild sample 14 (not in the repository), after the agent wired a search tool in
    agent = "I added a `google_search` tool and enabled `network_access=true`."
    text = "the script works but the model keeps crashing on the first request"
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION
    assert kind_of("keep going", agent_text=agent) is not TurnKind.CORRECTION


#: Wild sample 13 (not in the repository): "go on with the plan", then a stretch of the
#: agent's terminal transcript pasted back from another session.
_PASTED_TRANSCRIPT = (
    "SEGUE COM  O PLANO    ⎿ \xa0Found 3 lines (ctrl+o to expand)\n\n"
    '● Search(pattern: "export interface Service", path: "frontend/src/lib/api.ts")\n'
    "  ⎿ \xa0Found 15 lines (ctrl+o to expand)\n\n"
    "● Agora vou criar o modal ViewServiceModal e integrar completamente o módulo de serviços:\n"
    "● Write(frontend/src/components/modals/ViewServiceModal.tsx)\n"
    "  ⎿ \xa0Wrote 263 lines to frontend/src/components/modals/ViewServiceModal.tsx"
)


def test_a_go_ahead_over_a_pasted_agent_transcript_is_no_task() -> None:
    assert feedback_region(_PASTED_TRANSCRIPT) == "SEGUE COM  O PLANO"
    assert needs_context(_PASTED_TRANSCRIPT)
    assert needs_context("continua\n● Preciso adicionar as importações também em Barbers:")
    # a request of its own over the same paste is one
    own = "fix the modal's close button, it does nothing\n" + _PASTED_TRANSCRIPT.split("\n", 2)[2]
    assert not needs_context(own)


@pytest.mark.parametrize(
    "text",
    [
        "proceed with the plan",
        "continue to the next step",
        "go ahead with the changes",
        "segue com o plano",
        "继续执行计划",
        "按计划执行",
    ],
)
def test_going_on_with_what_the_exchange_holds_is_no_task(text: str) -> None:
    assert needs_context(text)


@pytest.mark.parametrize(
    "text",
    [
        "continue optimising the login page's first paint",
        "继续优化登录页面的性能",
        "plan the migration to pnpm",
    ],
)
def test_going_on_with_something_named_is_a_task(text: str) -> None:
    assert not needs_context(text)


#: Wild sample 16 (not in the repository): the agent's turn cut off by the usage limit.
_LIMIT = "You've hit your limit · resets 6pm (Europe/Berlin)"


def _after_the_limit(first: str, then: str) -> list[TurnKind]:
    b = (
        SessionBuilder()
        .prompt(first)
        .bash("ls ~/.claude/skills", "commit-and-push\nplaywright-skill")
        .service_error(_LIMIT)
        .prompt(then)
    )
    episodes = segment(views(b), lexicon_for())
    return [t.kind for e in episodes for t in e.feedback]


def test_a_request_sent_again_after_the_usage_limit_is_steering() -> None:
    ask = "install relevant skills from this folder awesome-claude-code-toolkit"
    assert _after_the_limit(ask, ask) == [TurnKind.STEERING]
    # a bare "continue" or "try again" there is the same retry in one word (wild samples
    # 30 and 41, labelled blind: "continue" after "Request timed out" and after "Session
    # limit reached"); a reply that says more is read as anywhere else, as the labelled
    # set has "Limits are reset. Continue where we left off." (a follow-up)
    assert _after_the_limit(ask, "continue") == [TurnKind.STEERING]
    assert _after_the_limit(ask, "try again") == [TurnKind.STEERING]
    assert _after_the_limit(ask, "Limits are reset. Continue where we left off.") == [
        TurnKind.FOLLOW_UP
    ]
    # the agent's own words typed back are no request sent again
    agent = "I'll install commit-and-push and playwright-skill from the toolkit next."
    context = f"{ask}\n{agent}"
    assert (
        kind_of(
            "install commit-and-push and playwright-skill from the toolkit",
            agent_text=agent,
            context=context,
            after_service_error=True,
        )
        is not TurnKind.STEERING
    )
    assert (
        kind_of(ask, agent_text=agent, context=context, after_service_error=True)
        is TurnKind.STEERING
    )
    assert _after_the_limit(ask, "now add a README that lists every skill") != [TurnKind.STEERING]


def test_a_verdict_word_inside_a_name_is_no_verdict() -> None:
    # wild sample 16 (not in the repository): "awesome" in a repository's name
    lexicon = lexicon_for()
    assert lexicon.classify("install the skills from awesome-claude-code-toolkit") is not (
        Feedback.APPROVAL
    )
    assert lexicon.classify("see perfect_hash.py and the fix/broken-link branch") is Feedback.NONE
    assert lexicon.classify("awesome, thanks") is Feedback.APPROVAL
    assert lexicon.classify("this is broken") is Feedback.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 16 (not in the repository), after the agent wired text-to-speech in
        "I didn't hear the tell me a joke",
        "Okay, please go ahead and try to do the debug because I still don't hear any words spoken",
    ],
)
def test_not_hearing_what_the_agent_made_is_a_failure_report(text: str) -> None:
    agent = "I've updated the hook so the TTS reads your prompt aloud before each response."
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


#: Wild sample 18 (not in the repository): the agent's report before each reply below.
_COLORS_DONE = (
    "I've updated LS_COLORS. You should see all file colors (executables, archives, images, "
    "etc.) plus directories in bright cyan."
)


@pytest.mark.parametrize(
    "text",
    [
        "nope",
        "i lost all folder colors",
        "Much of the report still doesn't have citations. Please use the fact-checker agent to "
        "verify the veracity of claims",
        "Cannot apply unknown utility class `border-primary-400/40`",
        # the agent took the request for another one
        "No, I want to confirm my code is correct or not.",
        "про иконки и в форме оплаты я говорил про эту страницу http://localhost:8008/buybacks/0c9",
        "你搞錯了，我現在是要在測試服務器使用這個機器人，所以使用env test。",
    ],
)
def test_failure_reports_and_misread_requests_of_wild_sample_18_are_corrections(
    text: str,
) -> None:
    assert kind_of(text, agent_text=_COLORS_DONE) is TurnKind.CORRECTION


def test_the_persons_own_deletion_or_the_agents_inexperience_is_no_failure_report() -> None:
    # handgemacht-ai claude-code-log 7acd37a8 line 47: the person says what they did
    own = (
        "OK, so this was just so you know what there is now, but after more than a decade I "
        "want to pick it up again and fix the broken APIs. Also, I deleted config.ru, as a "
        "first step let's figure out what would be the simplest way to serve it up on localhost"
    )
    assert kind_of(own, agent_text=_COLORS_DONE) is not TurnKind.CORRECTION
    # wild sample 18 (not in the repository): picks "plan first" from the agent's menu
    offer = "**[t] Plan first** – draft the plan\n**[e] Execute directly** – start now"
    plan = "plan first please. what do you recommend, since you've not worked on this project yet?"
    assert kind_of(plan, agent_text=offer) is not TurnKind.CORRECTION
    # a bare "no" to the agent's offer declines the offer, it judges nothing
    asks = "Updated the plan. Want me to align the plan's Spec path to the new spec file as well?"
    assert kind_of("no", agent_text=asks) is not TurnKind.CORRECTION
    # "I meant to ask" adds to the request, it judges nothing
    more = "I meant to ask: can you also add a dark mode toggle?"
    assert kind_of(more, agent_text=_COLORS_DONE) is not TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["как дела", "how are you?", "ça va ?"])
def test_asking_how_the_agent_is_is_a_greeting(text: str) -> None:
    assert kind_of(text, agent_text="Done. Next?") is TurnKind.HOUSEKEEPING


def test_a_request_sent_again_after_an_api_error_and_a_model_switch_is_steering() -> None:
    # wild sample 20 (not in the repository): "API Error: Request was aborted", then
    # `/model`, then the same request again
    ask = (
        "Scan my code base and come up with a plan for refactoring code so that we organize "
        "things based off of functionality."
    )
    b = (
        SessionBuilder()
        .prompt(ask)
        .service_error("API Error: Request was aborted.")
        .prompt("<command-name>/model</command-name><command-args></command-args>")
        .prompt(ask)
    )
    episodes = segment(views(b), lexicon_for())
    assert [t.kind for e in episodes for t in e.feedback] == [TurnKind.STEERING]


def test_a_compilers_diagnostics_pasted_after_the_fix_are_a_correction() -> None:
    # wild sample 20 (not in the repository): Xcode's "file:line:column message"
    pasted = (
        "/Users/ojash/Documents/SwiftMedia/SwiftMedia/KeyboardHandlingView.swift\n"
        "/Users/ojash/Documents/SwiftMedia/SwiftMedia/KeyboardHandlingView.swift:166:131 "
        "Value of type 'ScrubbingConfig' has no member 'description'"
    )
    fixed = "The shortcuts should now work correctly with both the default keys and custom ones."
    assert kind_of(pasted, agent_text=fixed) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 19 (not in the repository), each after the agent's fix
        '"text": "Error calling StealthMole API: [Errno 8] nodename nor servname provided, or '
        'not known"',
        "MCP연결이 되지 않습니다.",
        "nao quero mexer na supabase por enquanto, quero apenas montar o backend. desfaca essa "
        "alteracao",
        "attenzione importanto il db ho letto questo errore: ERROR 1406 (22001) at line 19 in "
        "file: '/docker-entrypoint-initdb.d/dump.sql': Data too long for column",
        "2025-05-04 01:06:08,856 - ticktick_mcp.src.server - ERROR - MCP SSE endpoint failed",
    ],
)
def test_failure_reports_and_undo_requests_of_wild_sample_19_are_corrections(text: str) -> None:
    fixed = "이제 올바른 Python 경로를 사용하고 있습니다. I've updated the config; restart the app."
    assert kind_of(text, agent_text=fixed) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    ["설치하지 않아도 되지 않나요? README만 고쳐줘", "undo.py 파일을 추가해줘", "添加撤销功能"],
)
def test_a_korean_negation_or_an_undo_word_in_a_request_is_no_correction(text: str) -> None:
    assert kind_of(text, agent_text="I've updated the README.") is not TurnKind.CORRECTION


#: Wild sample 19 (not in the repository): a Dockerfile pasted as the whole message.
_DOCKERFILE = """FROM python:3.10-slim
COPY --from=ghcr.io/astral-sh/uv:latest /uv /uvx /bin/
WORKDIR /app
COPY requirements.txt .
RUN uv pip install -r requirements.txt --system
# Copy the application
COPY . .
# Install the package
RUN uv pip install -e . --system
ENV TICKTICK_CLIENT_ID=""
ENV TICKTICK_CLIENT_SECRET=""
# Set the default command (can be overridden)
CMD ["uv", "run", "-m", "ticktick_mcp.cli", "run", "--transport", "sse", "--port", "3434"]"""


def test_a_file_pasted_with_no_request_is_no_task() -> None:
    assert needs_context(_DOCKERFILE)
    # with a request typed before or after it, it is one
    assert not needs_context("prepare this to deploy on fly.io\n" + _DOCKERFILE)
    assert not needs_context(_DOCKERFILE + "\n\nwhy does this image not start the server?")
    # an instruction written as JSON is an instruction (wild sample 13)
    spec = (
        '{\n  "sequence": "META",\n  "id": "WS-CODEX-META-RUNNER",\n'
        + "".join(
            f'  "step{n}": "run the acceptance check {n} and report [OK]/[MISSING]",\n'
            for n in range(10)
        )
        + "}"
    )
    assert not needs_context(spec)


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 21 (not in the repository): the agent took the request for another
        "no what I am saying is actually building it. So I can see how it works and break it "
        "down once it's built.",
        "不用上下文呀，每次上下文压缩不都是回来自动获取的吗？我说的是handoff",
    ],
)
def test_saying_what_was_meant_is_a_correction(text: str) -> None:
    agent = "You don't need a new design for that: the context is rebuilt after each compaction."
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "crea el pr",  # wild sample 22 (not in the repository), after the agent's change
        "ok, faz o commit e push",
        "erstelle den PR",
        "fais le commit",
        "提交并推送",
        "コミットして",
        "커밋해줘",
    ],
)
def test_a_closing_step_in_another_language_is_a_follow_up(text: str) -> None:
    done = "Listo. Cambios realizados:\n\n1. Moví el menú de ajustes a components/settings"
    assert kind_of(text, agent_text=done) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # a history outside the repository (PackmindHub/context-evaluator, Apache-2.0): the
        # changelog's entry as a step of the closing, twice opening a session and made a task
        # that no replay could do (the work it commits is not in the repository)
        "commit and update @CHANGELOG.md",
        "commit and update changelog.md",
        # what the first step acts on, before the next
        "commit the changes and open a pr",
        "stage all changes and commit",
    ],
)
def test_a_chain_of_closing_steps_is_a_closing_step_and_no_task(text: str) -> None:
    assert kind_of(text) is TurnKind.FOLLOW_UP
    assert needs_context(text)


@pytest.mark.parametrize(
    "text",
    [
        "update the changelog and fix the bug in the parser",
        "commit and update the changelog with a section on the new export API",
        "commit the changes to the readme and push",
    ],
)
def test_a_closing_chain_with_work_of_its_own_stays_a_request(text: str) -> None:
    assert not needs_context(text)


def test_a_closing_step_with_an_object_of_its_own_is_no_bare_step() -> None:
    text = "crea el pr para la nueva feature de pagos con stripe y el webhook de facturas"
    assert kind_of(text, agent_text="Listo. He actualizado el README.") is not TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 22 (not in the repository), each after the agent's change
        "Warning: timeSinceFirst is not defined",  # a browser console's line, pasted
        "why won't you run it?",
        "no like use that to go through the file and give me a command to use that file",
        "wenn ich docfx alleine aufrufe kommen die folgenden 2 warnungen:",
        "me sale este error al compilar el proyecto",
        "j'ai cette erreur quand je lance le build",
    ],
)
def test_failure_reports_of_wild_sample_22_are_corrections(text: str) -> None:
    done = "I've updated the dashboard and the docfx config; the build should now be clean."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild samples 22 and 24 (not in the repository): the agent's act held up to it
        "por que subiste cosas de doordash ?? eso ya estaba en producción o no ?",
        "pero comenzaste en la misma rama que ya teniamos cambios!",
        "nvm fuck i wanted the one that was i dint mean to revert",
        # the same cues in English and the other languages people write in
        "but you started on the branch that already had our changes!",
        "why did you push the doordash changes?? they were already live",
        "I didn't ask for a new test file",
        "pourquoi as-tu supprimé le fichier ?",
        "warum hast du die Datei gelöscht?",
        "por que você apagou o arquivo?",
        "perché hai cancellato il file?",
    ],
)
def test_an_act_of_the_agent_held_up_to_it_is_a_correction(text: str) -> None:
    done = "Done: I pushed the changes to feature/payments and opened the pull request."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "why did you choose redis?",  # a question about a choice, asked calmly
        "But you need to also update the docs",  # a step more, no past act
        "por qué existe este archivo?",  # "existe" is the present, no one's past act
        "por que insiste en eso?",
    ],
)
def test_questions_and_steps_near_those_cues_are_no_corrections(text: str) -> None:
    done = "Done: I pushed the changes to feature/payments and opened the pull request."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "why don't you try the other API first?",  # a suggestion, not a complaint
        "if the variable is not defined use a default value",
        "no liked posts should be shown on the profile page",
    ],
)
def test_suggestions_and_requests_near_those_words_are_no_corrections(text: str) -> None:
    done = "I've updated the dashboard."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 23 (not in the repository): Codex saved prompts run by their path, with
        # their arguments after them as a slash command takes them
        ".codex/prompts/specify.md .arguments/specify-arg-1.json",
        ".codex/prompts/specify.md please drop in .arguments/specify-arg-1.md as the $ARGUMENTS",
        ".codex/prompts/constitution.md SOURCE OF TRUTH Use the following Tech Stack Decision "
        "Record:\n- Next.js 15\n- Postgres",
    ],
)
def test_a_saved_prompt_run_by_its_path_with_arguments_is_a_task(text: str) -> None:
    after = "I've written the constitution to .specify/memory/constitution.md."
    assert kind_of(text, agent_text=after) is TurnKind.NEW_TASK
    assert family_name(text) in ("specify", "constitution")


def test_a_sentence_about_a_saved_prompt_is_no_run_of_it() -> None:
    assert family_name(".codex/prompts/plan.md is wrong, fix the second step") is None


@pytest.mark.parametrize(
    ("text", "family"),
    [
        # wild sample 28 (not in the repository): a Codex skill run by typing its folder
        # (rocxteady/Resting 2026-04-14, sent four times), and the same with its SKILL.md
        (".agents/skills/speckit-git-commit", "speckit-git-commit"),
        (".claude/skills/review/SKILL.md only the api package", "review"),
    ],
)
def test_a_skill_run_by_its_path_is_a_task_of_its_family(text: str, family: str) -> None:
    after = "Implemented T001-T004; the feature task ledger is checked off."
    assert kind_of(text, agent_text=after) is TurnKind.NEW_TASK
    assert family_name(text) == family
    assert family_name(".agents/skills/speckit-git-commit is broken") is None
    assert family_name("look at .agents/skills/speckit-git-commit") is None


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 29 (not in the repository): Spec Kit prompts Codex wrote into the
        # message whole, with no header (Kocoro-lab/Shannon 2026-01-10), once with a long
        # argument that pushes the template's "You **MUST** …" out of the kept part
        "\n## User Input\n\n```text\n\n```\n\nYou **MUST** consider the user input before "
        "proceeding (if not empty).\n\n## Outline\n\n1. **Setup**: Run `.specify/scripts/bash/"
        "setup-plan.sh --json` from repo root",
        "\n## User Input\n\n```text\n**Feature Branch**: `001-embedded-tauri-startup` "
        + "The app must start in embedded mode. " * 300,
        # wild sample 27: with its YAML header
        "---\ndescription: Perform a non-destructive cross-artifact consistency analysis.\n---\n"
        "\n## User Input\n\n```text\n$ARGUMENTS\n```",
    ],
)
def test_a_saved_prompt_written_into_the_message_is_a_task(text: str) -> None:
    asked = "Do you want me to recreate the spec from your original description?"
    assert kind_of(text, agent_text=asked) is TurnKind.NEW_TASK
    stopped = kind_of(text, agent_text="Running the setup script…", after_interrupt=True)
    assert stopped is TurnKind.NEW_TASK  # sent after an interrupt, still a command run


def test_a_heading_named_user_input_in_prose_is_no_saved_prompt() -> None:
    text = "The form should have a section called\n## User Input\nwith a text field"
    assert not runs_saved_prompt(text)


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 29 (not in the repository, ikn7/sentinelPI, French): after the agent
        # set the server up; the real line's typo ("je n'y accpas") is left unread
        "je n'y accède pas depuis une autre machine du même lan",
        "toujours pas, vérifie que ça écoute pas juste sur localhost",
        "I can't access it from another machine on the same network",
        "no puedo acceder desde otra máquina de la red",
        "não consigo acessar de outra máquina",
        "ich kann immer noch nicht darauf zugreifen",
    ],
)
def test_a_result_the_person_cannot_reach_is_a_correction(text: str) -> None:
    done = "The dashboard now runs on port 8000; open http://localhost:8000."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 30 (not in the repository): a failure the person met with the result
        "but 'just fmt' fails for me",  # jessitron/claude-log, after the agent formatted
        "It seems I cannot remove the default styles",  # odogrd/DiploCaption
        "the tests fail when I run them",
        "I can't log in with the new password",
        # wild sample 31 (Claude Code sessions kept as test data in codex-logbook)
        "it doesn't sound quite like music. you know, music should have overlapping themes",
        "all of texts now sound the same",
    ],
)
def test_a_failure_the_person_met_is_a_correction(text: str) -> None:
    done = "Done: formatting is fixed and the styles page lets you manage your styles."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # the tuning set's failure reports read as follow-ups before: what the person saw on
        # trying the work (entireio/cli, after the agent's steps to open the GIF) is no
        # hypothesis, though it opens with "when"
        (
            "when I do that it opens and stay on the first frame",
            "VHS doesn't have a preview mode — it just renders the output file. After `make "
            "demo`, open the GIF:\n\n```\nopen demo.gif\n```",
        ),
        ("when I click save, nothing happens", "The save button now posts the form."),
        # a result other than the one expected (reality2-roycdavies/cosmic-bing-wallpaper)
        (
            "better.  It results in a different icon than if installed as AppImage",
            "Fixed and pushed. Now `just install-local` should work.",
        ),
        ("the page is stuck on the loading spinner", "The dashboard now loads the runs."),
        # exasperation at what the agent keeps missing (procrypto/Personal_AI_Infrastructure)
        (
            "why can you not keep track of the locaiotn for more than /clear ",
            "COMPLETED: No .planning directory - run /gsd:new-project first",
        ),
        ("Why do you keep adding comments to every line?", "I've added the parser."),
        # content that does not belong in the result (cosmic-bing-wallpaper)
        (
            "Also, in the release, it talks about the shell script for downloading the bing "
            "image, but this is not relevant for the AppImage release.",
            "The release notes update was made directly on GitHub (via `gh release edit`).",
        ),
    ],
)
def test_what_the_person_saw_on_trying_the_work_is_a_correction(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "use a different font than Arial for the headings",
        "commit and stay on the same branch",
        "when I run it, print the version first",
        "why can't you just use pnpm?",
        "make sure the changelog is relevant to users",
    ],
)
def test_requests_near_those_words_are_no_corrections(text: str) -> None:
    assert kind_of(text, agent_text="Fixed and pushed.") is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # sets 21 and 22, read once their blind scoring was done: what the result says
        # back (isaacmorgado/claude-sovereign 0ca5dba1 line 100)
        (
            "It flitters, then says no clip found",
            "Reload and test. It will now try different parameter combinations and show the "
            "specific error for each attempt.",
        ),
        # a dotted name the runtime calls no function, after a prefix (1ce597af line 27)
        (
            "label error: clip.setName is not a function",
            "Reload the plugin and try again. The debug output will now show the raw TickTime "
            "object structure.",
        ),
        # where it alone works (e9a997ea line 123)
        (
            "It only loads in premiere pro beta (beta). ensure that it works in previous "
            "versions as well.",
            "**Step 3: Open in Premiere Pro** - Go to **Window → Extensions → SPLICE**\n\nDoes "
            "it load now?",
        ),
        # a step the agent gave that is not there (e9a997ea line 138)
        (
            "there is no setting called plugins",
            "**Step 1:** Open Preferences → Plugins and enable developer mode.\n\nDid you "
            "enable developer mode and restart?",
        ),
        # the result asked back as it was (savekirk/session-bridge 64_b5e5660349_1 line 498)
        (
            "For initial load without any loaded checkpoint, show the loading checkpoints text "
            "as it used to be",
            "I also updated the UI tests to match the native-progress behavior.\n\nVerification: "
            "`pnpm test` passed.",
        ),
        # a part said to have no business with it (27_787ded68f8 line 769)
        (
            "[sessionsTreeView.ts](src/components/sessionsTreeView.ts) should have nothing to do "
            "with active sessions",
            "kept `CheckpointSessionSelection` in sessionsTreeView.ts as the single contract.",
        ),
        # a report in the person's words, then the host's own status lines (e9a997ea line 134)
        (
            "I recieved the following error. Action: Plugin Load\ncom.splice.premiere\nPlugin "
            "Load Failed.\nNo applications are connected to the service.",
            "Click **Load**.\n\nDoes it load now?",
        ),
    ],
)
def test_failure_reports_of_sets_21_and_22_are_corrections(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


def test_no_but_after_the_result_is_a_correction_and_to_an_offer_a_decline() -> None:
    # isaacmorgado/claude-sovereign 1ce597af line 183: "No but …" with no comma, right after
    # the agent's result; to an offer, the same words decline it
    done = "Done. Labels are now short: `★ Best Take 1`, `Take 2`.\n\nReload and test again."
    text = "No but I still want the description of it just much shorter"
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION
    offer = "The labels are short now. Want me to add the description back as a tooltip?"
    assert kind_of("No but thanks, I'll add it myself later", agent_text=offer) is not (
        TurnKind.CORRECTION
    )


def test_a_pasted_console_log_is_judged_by_its_frames_and_the_words_after_it() -> None:
    # 1ce597af lines 50 and 58: a plugin's console log pasted back, its stack frames giving
    # the line alone; then a log with the person's verdict in the paragraphs after it
    frames = (
        "js/slice7-apply.js:64 SPLICE DEBUG: Clip 0 starts at 0.00s (ticks=0, raw={})\n"
        "js/slice7-apply.js:89 SPLICE label error: Error: Script action failed to execute.\n"
        "    at VideoClipTrackItem.value (uxp://uxp-internal/middleware/index.js:1)\n"
        "    at e.exports.<anonymous> (js/slice7-apply.js:75)"
    )
    log = "\n".join(
        f"js/slice7-apply.js:{n} SPLICE DEBUG: Track {n % 3} has {n % 2} clip(s)"
        for n in range(40, 60)
    )
    verdict = log + "\n\nthe timeline name didn't change.\n\nSpawn 5 agents to look for the fix"
    agent = "Reload and test again. The names should now show on the timeline."
    assert kind_of(frames, agent_text=agent) is TurnKind.CORRECTION
    assert words_after_a_paste(verdict).startswith("the timeline name didn't change.")
    assert kind_of(verdict, agent_text=agent) is TurnKind.CORRECTION
    # prose before the last paragraph is no paste: its words are read from the top
    spec = "Please build the importer.\n\nIt reads CSV files.\nOne row per line.\n\nThanks"
    assert words_after_a_paste(spec) == ""


def test_words_typed_straight_under_a_paste_or_after_its_closing_bracket_are_read() -> None:
    # JaydenXsoe/ocodex 2025-08-24 line 121: `cargo run`'s output pasted back, and the
    # verdict typed on its last line, after the bracket that closes the printed results
    run = (
        'cargo run -p orchestrator -- --prompt "Build a script that can have a simple number '
        'guessing game in python, put the script in the Apps directory in root"\n'
        "warning: unused import: `anyhow`\n"
        " --> orchestrator/src/worker_example.rs:2:14\n"
        "  |\n"
        "2 | use anyhow::{anyhow, Result};\n"
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.02s\n"
        "Orchestrated from prompt: [\n"
        "    TaskResult {\n"
        "        task_id: 1,\n"
        "        success: true,\n"
        '        output: Object { "info": String("unknown action") },\n'
        "    },\n"
    )
    verdict = (
        "it seems that the orchestrator does not work as intended, it doesn't spin up any "
        "agents and run the prompted task"
    )
    agent = "Added the orchestrator crate with a planner and a demo worker. Next options: …"
    assert words_after_a_paste(run + "] " + verdict) == verdict
    assert kind_of(run + "] " + verdict, agent_text=agent) is TurnKind.CORRECTION
    # on lines of their own right under the paste, no blank line between
    assert words_after_a_paste(run + "]\n" + verdict) == verdict
    assert kind_of(run + "]\n" + verdict, agent_text=agent) is TurnKind.CORRECTION
    # a question under the same paste asks, and prose with no paste above has no tail
    question = run + "] what does the info field mean here?"
    assert words_after_a_paste(question) == "what does the info field mean here?"
    assert kind_of(question, agent_text=agent) is not TurnKind.CORRECTION
    prose = "Build the importer.\nIt reads CSV files.\nOne row per line.\nThanks"
    assert words_after_a_paste(prose) == ""


def test_what_a_run_printed_pasted_back_reports_on_the_running_task() -> None:
    # isaacmorgado/claude-sovereign 0ca5dba1 lines 108 and 123: the plugin's console pasted
    # back after the agent's "Reload and test", a report on the task, not a request of its
    # own however long
    console = "\n".join(
        [
            "SPLICE: Project: found",
            "InlineScript 1:6 SPLICE: getActiveSequence(): found",
            "InlineScript 1:6 SPLICE: Sequence: Sequence 01",
            "InlineScript 1:6 SPLICE: Video tracks: 3",
            "InlineScript 1:6 SPLICE: Track methods: subscribeToEvent, addEventListener, "
            "removeEventListener, dispatchEvent, constructor, name, setMute, getTrackItems",
        ]
    )
    panel = (
        "Found 1 clip(s)\n\nRead Timeline Clips\n\nProject: found\ngetActiveSequence(): found\n"
        "Sequence: Sequence 01\nVideo tracks: 3\n\nTrack methods: subscribeToEvent, "
        "addEventListener, removeEventListener, dispatchEvent, constructor, name, setMute"
    )
    agent = "Reload and test. It will now log every method the track offers."
    for text in (console, panel):
        assert is_program_output(text)
        assert kind_of(text, agent_text=agent) is TurnKind.FOLLOW_UP
    # a paste with a question of the person's own asks something new; prose is no output;
    # a paste before the agent did anything is a request
    assert not is_program_output(panel + "\n\nis there a better way to read them?")
    assert not is_program_output("Please build it.\nIt reads CSV.\nOne row per line.\nThanks.")
    turn = TurnInput(text=console, command=None, has_episode=False, agent_text="")
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        "there is no option called --dry-run, please add one",
        "make it return null when the list is empty",
        "we only deploy on fridays, so schedule the job for then",
        # handgemacht-ai/claude-code-log 7acd37a8 line 59, after an interrupt: steering
        "I have both Node and Python, but I don't want to make it only work for me",
    ],
)
def test_requests_near_the_words_of_sets_21_and_22_are_no_corrections(text: str) -> None:
    assert kind_of(text, agent_text="Fixed and pushed.") is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "I can't remove it myself, can you do it?",  # a request, not a report
        "if the upload fails, show a message",  # a requirement
        "make sure the buttons look the same on mobile",
        "i cant delete the default ruleset as it is set by my organisation",  # a constraint
        "does it sound like a good plan?",
    ],
)
def test_near_those_words_a_request_or_a_requirement_is_no_correction(text: str) -> None:
    done = "Done: formatting is fixed and the styles page lets you manage your styles."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "how many token credits do you have",  # wild sample 29 (ttiimmothy/dotfiles)
        "how much context do you have left?",
    ],
)
def test_a_question_about_the_assistants_budget_is_housekeeping(text: str) -> None:
    assert kind_of(text, agent_text="I can help with code in this repository.") is (
        TurnKind.HOUSEKEEPING
    )


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 28 (not in the repository): a fix reported not to have held
        "we still have these failures: ── Failed tests ──────────\nFailure "
        "(test_latent_vec_series_equivalence.R:270:5): series() behaves identically",
        "these tickets were all created in a tasks/ directory. They should have been a "
        "tickets/ parent directory.",
        "the behavior is still unstable and now the mouse gets stuck to the max slider knob",
        "the starting threshold values are still -1000000 10000000",
        "the logo is still blurry",
        # a test framework's failure pasted as it printed it
        'XCTUnwrap failed: expected non-nil value of type "URL" on the line 22 of '
        "Tests/RestingTests/Localization/LocalizationResourceTests.swift",
        # wild sample 41 (not in the repository, natori-hrj/dotfiles): a GitHub Actions
        # step's failure, pasted after the agent's deployment write-up
        "google-github-actions/auth failed with: the GitHub Action workflow must specify "
        'exactly one of "workload_identity_provider" or "credentials_json"! If you are '
        "specifying input values via GitHub secrets, ensure the secret is being injected "
        "into the environment. By default, secrets are not passed to workflows triggered "
        "from forks, including Dependabot.",
    ],
)
def test_a_fix_that_did_not_hold_is_a_correction(text: str) -> None:
    done = "Fixed: both methods now return the same class, and the tests should pass."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "which files should have been in the release? list them",
        "is the build still running?",
        "we still have these two endpoints to add: /health and /metrics",
        "the tests are still running, tell me when they finish",
        "the page is still fine, but add a footer",
    ],
)
def test_near_those_words_a_request_is_no_correction(text: str) -> None:
    done = "Fixed: both methods now return the same class, and the tests should pass."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


def test_a_pull_requests_failing_checks_pasted_are_a_correction() -> None:
    # wild sample 23 (not in the repository): GitHub's checks list, pasted after the push
    pasted = (
        "failing checks\n\n    CI / Lint & Format Check (pull_request)\n"
        "    CI / Lint & Format Check (pull_request)Failing after 10s\n"
        "    Validate WFC Skills / Run Tests (pull_request)Failing after 20s\n    Required\n"
    )
    pushed = "Pushed to the branch; the PR is updated and CI is running."
    assert kind_of(pasted, agent_text=pushed) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 25 (not in the repository): Codex's warning to the model, written
        # as a user message (Ogekuri/G 2025-12-17 line 119), stored so by older harvests
        "Warning: apply_patch was requested via shell_command. Use the apply_patch tool "
        "instead of exec_command.",
        "Warning: The maximum number of unified exec processes you can keep open is 60 and you "
        "currently have 61 processes open.",
        # Claude Code's placeholder after a `#` memory (kiliman/claude-transcript line 503)
        "(no content)",
    ],
)
def test_what_the_tools_wrote_as_a_user_message_is_no_turn(text: str) -> None:
    b = (
        SessionBuilder()
        .prompt("add a health check endpoint")
        .say("Done: /health returns 200.")
        .prompt(text)
        .say("Noted.")
    )
    episodes = segment(views(b), lexicon_for())
    assert [e.intent.text for e in episodes] == ["add a health check endpoint"]
    assert [t.kind for e in episodes for t in e.feedback] == []


def test_a_pasted_warning_is_still_a_turn() -> None:
    b = (
        SessionBuilder()
        .prompt("add a health check endpoint")
        .say("Done: /health returns 200.")
        .prompt("Warning: timeSinceFirst is not defined")
    )
    episodes = segment(views(b), lexicon_for())
    assert [t.kind for e in episodes for t in e.feedback] == [TurnKind.CORRECTION]


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 25 (not in the repository), each after the agent's work
        "pourquoi speckit n'a pas répondu en français !",
        "I thought we already planned phase 9?",
        "cosa è questo errore? … PYTHONPATH=src python3 -m git_alias.core ver … Version "
        "mismatch between pyproject.toml and __init__.py",
        # the same cues in English and the other languages
        "why didn't the migration run on staging?",
        "what is this error?\nVersion mismatch between pyproject.toml and __init__.py",
        "¿por qué no se guardó el archivo?",
        "por que não salvou o arquivo?",
        "warum hat der Build nicht funktioniert?",
        "perché non ha salvato il file?",
        "I thought you had fixed that already",
    ],
)
def test_a_result_not_as_expected_is_a_correction(text: str) -> None:
    done = "I've updated the speckit config and the migration; the build passes now."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "why didn't we use redis for this?",  # questions a choice
        "¿por qué no pruebas con redis?",  # a suggestion
        "I thought about it more, let's keep the queue",
    ],
)
def test_choices_and_suggestions_near_those_cues_are_no_corrections(text: str) -> None:
    done = "I've updated the speckit config and the migration; the build passes now."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 25 (not in the repository, kiliman/claude-transcript lines 351, 471)
        "Nice...please commit",
        "works great... please commit",
        "great, commit and push",
    ],
)
def test_a_verdict_then_the_closing_step_is_a_follow_up(text: str) -> None:
    done = "Done: the monitor now redraws the graph every second and the tests pass."
    assert kind_of(text, agent_text=done) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize("text", ["great, thanks", "perfect", "works great"])
def test_a_verdict_alone_is_still_an_approval(text: str) -> None:
    done = "Done: the monitor now redraws the graph every second and the tests pass."
    assert kind_of(text, agent_text=done) is TurnKind.APPROVAL


def test_a_linter_that_fixed_all_it_found_did_not_fail() -> None:
    # wild sample 23 (not in the repository): `ruff check --fix … 2>&1 | tail`, exit 0
    fixed = _result(2, 1, "Found 3 errors (3 fixed, 0 remaining).")
    assert not is_failed_result(fixed, _bash(1, "ruff check --fix . 2>&1 | tail -5"))
    left = _result(2, 1, "Found 8 errors (7 fixed, 1 remaining).")
    assert is_failed_result(left, _bash(1, "ruff check --fix . 2>&1 | tail -5"))


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 26 (not in the repository), each after the agent's work
        "Tu n'as pas compris, tu devais remplir le constitution.md, pas créer une spec.",
        "dependency failed to start: container lms-go-minio-1 has no healthcheck configured",
        "=> ERROR [worker builder 4/6] RUN go mod download  0.6s\n------\n"
        " > [worker builder 4/6] RUN go mod download:",
        "Refused to apply style from 'https://cdn.jsdelivr.net/npm/tailwindcss@3.4.4/dist/"
        "tailwind.min.css' because its MIME type ('text/plain') is not a supported stylesheet "
        "MIME type",
        "ok it shouldnt look like this, there should be something like where they could click "
        "on it and it would expand the options",
        "We made a boo boo, we should have done those the tests before committing as bumping "
        "the version changed Cargo.lock :(",
        "je n'ai pas l'interface ui, juste le html pourquoi ?",
        "нет локализация будет позже если я тебя правильно понял, я тебя просил работать со "
        "мной на русском",
        # the same cues in English and the other languages
        "you misunderstood: the constitution, not a spec",
        "I specified Go templates, not React",
        "no entendiste, te pedí solo el backend",
        "você não entendeu, eu pedi só o backend",
        "non hai capito, ti avevo chiesto solo il backend",
    ],
)
def test_the_agent_misreading_or_a_wrong_result_is_a_correction(text: str) -> None:
    done = "J'ai rempli la spec et lancé le build ; tout est prêt. I've updated the service."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


def test_saying_the_agent_is_misunderstanding_corrects_it_even_mid_turn() -> None:
    # wild sample 58 (not in the repository): typed while the agent planned its work
    working = (
        "My plan: pre-create the stubs and registration myself, so each agent then owns a "
        "disjoint file set.\n\nLet me read the normative contract first."
    )
    text = (
        "You're misunderstanding when I say skip tests. I mean skip the tests on models and "
        "quantization values for the ollama model and let's just get the work done."
    )
    assert kind_of(text, agent_text=working, queued=True) is TurnKind.CORRECTION
    done = "I've updated the service and the tests pass."
    for said in ("you've misunderstood the brief: one page, not three", "You are misreading it"):
        assert kind_of(said, agent_text=done) is TurnKind.CORRECTION
    # the person's own misreading judges nothing the agent did
    mine = "I think I misunderstood your question, let me rephrase: which port does it use?"
    assert kind_of(mine, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "it should not be possible to delete admins",  # a requirement, not a verdict
        "you should have access to the bucket now, try again",
        "Tu devrais aussi ajouter un test pour la page d'accueil",  # a suggestion
        "je n'ai pas le temps de tester, fais-le",  # the person's own time, not the result
        "I specified the port in .env, can you use it?",  # a fact given, no contrast
    ],
)
def test_requirements_and_notes_near_those_cues_are_no_corrections(text: str) -> None:
    done = "I've updated the service and the tests pass."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["--dangerously-skip-permissions", "--model opus"])
def test_the_launchers_options_typed_into_the_session_are_housekeeping(text: str) -> None:
    # wild sample 27 (not in the repository, frankentag/notebooklm_clone): the first turn
    turn = TurnInput(text=text, command=None, has_episode=False, agent_text="")
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.HOUSEKEEPING


def test_an_option_before_a_request_is_a_request() -> None:
    turn = TurnInput(text="--verbose please fix the login page", has_episode=False)
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.NEW_TASK


def test_a_verdict_then_make_a_commit_is_the_tasks_closing_step() -> None:
    """Real (deder01/config_files, sample 32): "great, make a commit" after the agent
    fixed three shell start-up errors accepts the work and asks for its closing step."""
    fixed = (
        "All three errors should be gone now:\n- GREP_OPTIONS removed\n- brew eval guarded\n"
        "- fzf path changed to $HOME\n\nOpen a new terminal to verify."
    )
    assert kind_of("great, make a commit", agent_text=fixed) is TurnKind.FOLLOW_UP
    assert kind_of("make a commit", agent_text=fixed) is TurnKind.FOLLOW_UP


def test_opening_with_what_was_meant_is_a_correction() -> None:
    """Real (maxnoobineating's dotfiles, sample 32): asked how to change directory "with the
    same chat session", the agent explained the shell's `cd`; "I mean claude" says it took
    the question for another. "I mean, …" with its comma is a filler, not that."""
    answer = (
        "Each Bash tool call is a fresh shell: `cd` doesn't persist between calls. But you "
        "can chain commands with `&&`. Want me to run `cd /vim && sudo make install`?"
    )
    assert kind_of("I mean claude", agent_text=answer) is TurnKind.CORRECTION
    assert kind_of("I mean, that works for now", agent_text=answer) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # a history outside the repository (entireio/cli, MIT): a point made, nothing said
        # to be misread
        "I mean we need to accept that sometimes an agent is killed without calling the "
        "hooks at the end, or if a machine is rebooting.",
        'I mean this is already the "everything else PR" so why the heck not.',
    ],
)
def test_i_mean_before_a_clause_of_its_own_is_no_correction(text: str) -> None:
    agent = (
        "Sessions whose state file outlives the agent stay marked active. I can check "
        "whether the agent process is still running instead. Want me to?"
    )
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION
    # what was meant, named, still says the agent took the request for another
    assert (
        kind_of("I mean not git config but git hooks, can you validate that?", agent_text=agent)
        is TurnKind.CORRECTION
    )


@pytest.mark.parametrize(
    "text",
    [
        # a history outside the repository (entireio/cli, MIT): cases weighed, not seen
        "and if that other session _did_ have any changes in a shadow branch, we would see "
        "this same error - legitimately?",
        "so, if i install the hook it should work properly? or same error even then?",
        "can this somehow create wrong branches when a rebase runs in between?",
        "but while that test is running my local git config is messed up, right?",
        # a history outside the repository (jdx/mise, MIT), a Codex session
        "couldn't it block for a long time? does it wait for the user to complete the flow?",
    ],
)
def test_a_question_that_weighs_a_case_reports_no_failure(text: str) -> None:
    agent = (
        "The check now errors only when the session has checkpoints and its shadow branch "
        "exists. All tests pass."
    )
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # what the clauses before the weighed case say is still read
        "I just had an error when doing resume and it printed the command and then the "
        "error, but can you check where it would make sense to raise a SilentError?",
        # a guess at the cause of a failure seen presumes that failure (oh-my-posh, MIT)
        "Could it be that the gradients are too far apart, meaning it cannot create a "
        "proper gradient coloring in this case? What am I missing?",
        "why would it still fail after your fix?",
    ],
)
def test_a_failure_seen_beside_or_behind_a_question_is_still_a_correction(text: str) -> None:
    agent = "Done: resume now prints only the error. Tests pass."
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


def test_a_request_to_test_a_failure_case_or_to_repeat_the_work_reports_none() -> None:
    """A history outside the repository (entireio/cli, MIT): "wrong agent name" is the case
    the test is to check, and "the same thing" is the work done again elsewhere."""
    agent = (
        "Extracted the shared logic into `printAgentError`; `printMissingAgentError` and "
        "`printWrongAgentError` are now thin wrappers."
    )
    assert kind_of("add test to check we print wrong agent name", agent_text=agent) is not (
        TurnKind.CORRECTION
    )
    assert kind_of("now do the same thing in stanza_test.go", agent_text=agent) is not (
        TurnKind.CORRECTION
    )
    assert kind_of("still the same error when I run it", agent_text=agent) is (TurnKind.CORRECTION)


@pytest.mark.parametrize(
    "text",
    [
        # sample 32: the output of a command the agent recommended, pasted with its prompt
        "╰─❯ apt install --upgrade python3\nReading package lists... Done\nBuilding dependency "
        "tree... Done\nReading state information... Done\npython3 is already the newest "
        "version (3.10.6-1~22.04.1).\nThe following packages were automatically installed "
        "and are no longer required:\n  fonts-droid-fallback fonts-noto-mono fonts-urw-base35 "
        "ghostscript gsfonts libcupsfilters1 libfontenc1 libgs9 libgs9-common libijs-0.35\n"
        "Use 'apt autoremove' to remove them.\n0 upgraded, 0 newly installed, 0 to remove.",
        "user@devbox:~/app$ npm run build\n\n> app@1.0.0 build\n> vite build\n\nvite v5.2.0 "
        "building for production...\n✓ 412 modules transformed.\ndist/index.html 0.46 kB\n"
        "dist/assets/index.js 143.20 kB │ gzip: 46.11 kB\n✓ built in 2.31s",
    ],
)
def test_a_command_the_person_ran_pasted_with_its_output_is_no_new_task(text: str) -> None:
    steps = (
        "**My recommendation:** Just upgrade system Python with apt for now:\n```bash\n"
        "apt install --upgrade python3\n```\nThen run the build again."
    )
    assert kind_of(text, agent_text=steps) is TurnKind.FOLLOW_UP


def test_the_persons_own_slip_is_no_correction() -> None:
    """Real (deder01/config_files, sample 32): "I didn't mean to interrupt you, continue"
    after stopping the agent by mistake owns the person's slip and sends it on; "i dint
    mean to revert" (sample 24) still says the agent did what was not asked."""
    working = "Let me check the submodule status and update each one."
    kind = kind_of("I didn't mean to interrupt you, continue", working, after_interrupt=True)
    assert kind is TurnKind.STEERING
    assert kind_of("i dint mean to revert", working) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # sample 30: the timeline the agent had just built
        "neat!! Hmm, I have trouble with my trackpad: when I want to scroll up/down in that "
        "timeline, to see the different agents, it zooms instead",
        "we are running into issues when deploying",
        "I'm still having problems.",
    ],
)
def test_trouble_the_person_meets_with_the_result_is_a_failure_report(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "I am having trouble understanding the architecture, can you explain?",
        "I have an issue: the app needs a dark mode",
    ],
)
def test_trouble_understanding_or_an_issue_to_raise_is_no_report(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


_VERCEL_PAGE = (
    "This Serverless Function has crashed.\n\nYour connection is working correctly.\n\n"
    "Vercel is working correctly.\n\n500: INTERNAL_SERVER_ERROR\nCode: FUNCTION_INVOCATION_FAILED"
    "\nID: lhr1::vgdc4-1753371124834-75fce12336dc"
)


@pytest.mark.parametrize(
    "text",
    [
        # all from sample 33 (17871787/claude_code_agent), after the agent's deploys
        "there seems to be some functionality missing",
        _VERCEL_PAGE,
        "I have some features now but it still isn't as good as the local host version - "
        "should we deploy the original Dash app on Render?",
        "that is better but the buttons on the sidebar don't do anything - can we create some "
        "functionality",
    ],
)
def test_what_the_deployed_result_lacks_or_does_wrong_is_a_failure_report(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


def test_a_long_pasted_log_is_read_for_its_error_at_the_end() -> None:
    """A build or deploy log (sample 33: Render's, 10 KB) ends with what failed."""
    log = "==> Cloning from https://github.com/a/dash-app\n"
    log += "".join(f"  Downloading package{n}-1.0-py3-none-any.whl (10 kB)\n" for n in range(250))
    log += (
        'Traceback (most recent call last):\n  File "/opt/render/project/src/app.py", line 287\n'
        "AttributeError: module 'dash.html' has no attribute 'Style'\n"
        "==> Running 'gunicorn app:app'"
    )
    assert len(log) > 12_000  # past the head that was searched alone
    assert kind_of(log) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["please don't do anything yet, just read the code", "Don't do anything until I say"]
)
def test_telling_the_agent_not_to_do_anything_is_no_report(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "i want to deploy via vercel",  # sample 33
        "I want to update my spec to remove this queue separation and just have a codex queue",
        "i want to expand philosophy.md right now it focuses on going back and forth",
    ],
)
def test_a_goal_the_person_states_after_the_work_is_a_new_task(text: str) -> None:
    assert kind_of(text) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # acting on the agent's proposal (sample 22)
        (
            "I want you to execute all necessary cmds to fully implement your recommended stack",
            "Recommended stack for legion-windows: Tailscale for remote access, Caddy in front "
            "and Docker Compose for the services. I'll go through it piece by piece.",
        ),
        # a wish to know, about the work at hand
        (
            "I want to know why the second run is slower",
            "The first run took 12 s and the second 19 s; I'm profiling both runs now.",
        ),
        # a closing step with where it goes (sample 33)
        ("i need to make a commit to github", DONE),
    ],
)
def test_a_wish_that_leans_on_the_work_is_no_goal_of_its_own(text: str, agent_text: str) -> None:
    assert kind_of(text, agent_text=agent_text) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    ("text", "closing"),
    [
        # a Codex history outside the repository (jdx/mise, MIT): after the agent's report
        # on a discussion, the pull request for the fix and the word back to the thread
        ("make a pr to fix, reply to discussion", True),
        ("make a pr and reply to the thread", True),
        ("make a pr to fix", True),
        # where it goes or how its message reads (stop 79's histories, outside the
        # repository: "make a pr in the relevant repo", "Commit it now — …")
        ("make a pr in the relevant repo", True),
        ("raise a PR against main", True),
        ("create a PR for this", True),
        ("commit it now — use a conventional message", True),
        # a fix named of its own is work of its own
        ("make a pr to fix the login page", False),
        ("make a pr for the login page redesign", False),
        ("make a pr and reply to every open issue about the installer", False),
    ],
)
def test_a_pull_request_for_the_fix_and_a_reply_to_the_thread_close_the_task(
    text: str, closing: bool
) -> None:
    report = (
        "The discussion reports that `mise use` drops the pin when the lockfile is stale. "
        "Root cause: `Toolset::resolve` ignores locked versions for prereleases."
    )
    assert (kind_of(text, agent_text=report) is TurnKind.FOLLOW_UP) is closing


def test_a_goal_stated_as_the_answer_to_the_agents_question_answers_it() -> None:
    asked = "Should I upgrade vim first, or keep 8.2 and patch the plugin?"
    assert kind_of("I want to update vim first", agent_text=asked) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # sample 34 (MoonYetis, a slot machine's images on a VPS), after the agent's fixes
        "no aparecen las imagenes aun",
        "sigue sin verse las imagenes, lo que me llama la atencion es que la seccion Paytable "
        "si se ven las imagenes con normalidad",
        "no entiendo vamos varias horas y nada, sigue sin aparecer las imagenes",
        # sample 34 (CleanExpo): the agent's own service error, pasted back
        "We are breaking trying to perform this task:\n  ⎿  API Error (Request timed out.) · "
        "Retrying in 1 seconds… (attempt 1/10)",
    ],
)
def test_a_spanish_still_not_or_the_agents_pasted_api_error_is_a_failure_report(
    text: str,
) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "agent_text",
    [
        # sample 34: the agent reports in Spanish, in the passive, with "exitosamente"
        "Archivo creado exitosamente en `/var/www/html/js/modal-wallet.js` con la función "
        "`showWalletModalClean`.",
        "Mejoras aplicadas con éxito. El modal ahora es más accesible.",
        "¡Listo! Se ha actualizado el archivo index.html.",
        "O arquivo foi criado com sucesso.",
        "Die Datei wurde erfolgreich erstellt.",
    ],
)
def test_an_agent_reporting_in_another_language_claims_done(agent_text: str) -> None:
    from sleepd.mining.turns import agent_claims_done

    assert agent_claims_done(agent_text)


def test_a_snippet_the_agent_handed_over_pasted_back_reports_on_the_task() -> None:
    """Sample 34 (MoonYetis): the agent gave console checks to run; the person pasted the
    first back with what the browser printed."""
    agent = (
        "**2. Verificar si las extensiones están disponibles:**\n```javascript\n"
        "console.log('UniSat available:', typeof window.unisat !== 'undefined');\n"
        "console.log('OKX available:', typeof window.okxwallet !== 'undefined');\n```\n"
        "Ejecuta estos comandos mientras pruebas las extensiones."
    )
    pasted = (
        "console.log('UniSat available:', typeof window.unisat !== 'undefined');\n"
        "console.log('OKX available:', typeof window.okxwallet !== 'undefined');\n"
        "VM1172:1 UniSat available: true\nVM1172:2 OKX available: true\nundefined\n"
        "(index):8520 🔗 Main Connect button clicked - opening wallet modal\n"
        "(index):3503 SlotMachine initialized with 3 reels and 5 paylines, ready to spin and "
        "waiting for the wallet"
    )
    assert kind_of(pasted, agent_text=agent) is TurnKind.FOLLOW_UP
    # a long request of the person's own after the same answer stays a task
    own = (
        "Now build a leaderboard page for the slot machine that lists the top 20 wallets by "
        "winnings this week, with their avatars, and link it from the main menu of the site"
    )
    assert kind_of(own, agent_text=agent) is TurnKind.NEW_TASK


def test_a_request_that_names_its_file_before_its_verb_is_a_task() -> None:
    """Sample 34: one of a run of scripted edits, each naming its file before its verb,
    after the agent's report on the same functions."""
    text = (
        "En el archivo /var/www/html/js/wallet-integration-v3.js elimina la función "
        "showWalletModalClean si existe y reemplaza su uso por window.showWalletModalClean"
        "(availableWallets) en la función connectWallet. No cambies nada más en el archivo."
    )
    done = (
        "Mejoras aplicadas exitosamente. La función `showWalletModalClean` ahora incluye "
        "cierre con Escape y enfoque automático, y `connectWallet` la usa para la selección."
    )
    context = (
        "En el archivo wallet-integration-v3.js la función showWalletModalClean y "
        f"connectWallet usan availableWallets. {done}"
    )
    assert kind_of(text, agent_text=done, context=context) is TurnKind.NEW_TASK


# --- sample 35 ------------------------------------------------------------------------
# Lines from wild sample 35 (ISC-licensed sessions kept out of the repository, see
# docs/mining.md): a thinking cue, a resend after an interrupt, a documentation step.

_OFFERS_FIXES = (
    "The review found 7 critical issues in the coordinator. Would you like me to address "
    "these critical issues now?"
)


def _resent_after_interrupt(first: str, again: str) -> list[TurnKind]:
    b = (
        SessionBuilder()
        .prompt("Authority Conflicts: Multiple recovery coordinators create race conditions")
        .bash("npm test", "42 passed")
        .say(_OFFERS_FIXES)
        .prompt(first)
        .interrupt()
        .prompt(again)
    )
    episodes = segment(views(b), lexicon_for())
    return [t.kind for e in episodes for t in e.feedback]


def test_words_sent_again_at_once_with_a_thinking_cue_steer() -> None:
    """Sample 35: the answer stopped at once and sent again with "think hard" added. (Its
    labeller read the first "Yes immediately please" as a follow-up; LABELS.md has since
    settled a bare yes to the agent's offer as an approval, as sample 51's labeller read
    the same line.)"""
    kinds = _resent_after_interrupt(
        "Yes immediately please", "Yes immediately please, think hard and continue"
    )
    assert kinds == [TurnKind.APPROVAL, TurnKind.STEERING]
    # sample 33: the answer completed after the interrupt says more: it answers
    kinds = _resent_after_interrupt(
        "1 creat new", "1 creat new, 2 linox system with cloude, 3 private?"
    )
    assert kinds[-1] is TurnKind.FOLLOW_UP
    # an answer that is not the same words is read for what it says
    assert (
        _resent_after_interrupt("Yes immediately please", "no, only the first two")[-1]
        is not TurnKind.STEERING
    )


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("continue, ultrathink", "continue"),
        ("Ok ultrathink and try again", "Ok try again"),
        ("think hard create a plan for a tui app", "create a plan for a tui app"),
        # the person's own "think hard" is no cue
        ("I think hard mode is broken", "I think hard mode is broken"),
        ("we need to think hard about the cache", "we need to think hard about the cache"),
    ],
)
def test_a_thinking_cue_is_read_past(text: str, region: str) -> None:
    assert " ".join(feedback_region(text).split()) == region


@pytest.mark.parametrize(
    "text",
    [
        "update AGENT_CONTEXT.md and other relevant documentation",
        "Update AGENT_CONTEXT.md and other relevant documenation, think hard",
        "Update the release notes with latest changes",
        "now update the README to reflect the changes and commit",
    ],
)
def test_a_documentation_step_after_the_work_goes_on_with_the_task(text: str) -> None:
    """Sample 35, twice (two sessions): after the agent's changes, the write-up of them."""
    done = (
        "All four checklist items are complete: LRU eviction, error boundaries and the "
        "modular transition, with the unit tests passing."
    )
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.FOLLOW_UP


def test_a_documentation_request_with_a_subject_of_its_own_is_a_task() -> None:
    # sample 33: a request that names where the content comes from stands alone
    text = (
        "can you update the complete_codebase.md file in Github with the markdown file on my "
        "c drive"
    )
    done = "Deployed: the app is live on Vercel with the new dashboard."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.NEW_TASK


def test_an_acceptance_typed_while_the_agent_runs_accepts_what_it_announced() -> None:
    """Sample 35 (the desktop app, Claude Code 2.1.87): queued after the agent flagged
    what it would do next; it redirects nothing."""
    announced = (
        "Flagging something before continuing: the scaffolded `todos/CLAUDE.md` and "
        "`todos/AGENTS.md` were injected by create-next-app. I'll delete them."
    )
    assert kind_of("Ok go ahead", agent_text=announced, queued=True) is TurnKind.APPROVAL
    # a queued constraint or a stop still steers
    for text in ("stop", "use pnpm instead"):
        assert kind_of(text, agent_text=announced, queued=True) is TurnKind.STEERING


def test_a_request_naming_a_kebab_case_command_and_rules_it_gives_next_is_a_task() -> None:
    """Sample 36 (not in the repository): after the agent's review of other work, a request
    that names the command it changes ("the push-pr command") and points ahead at rules
    it then spells out ("these rules. It should check …") stands alone."""
    text = (
        "can we update the push-pr command to follow these rules. It should check to see if "
        "theres an active PR (non merged or closed) for my current branch. If so it should "
        "commit changes to the current branch and push to remote for that same PR."
    )
    review = (
        "**Suggestion**: Consider renaming to `comboUtils.test.ts` to match the module under "
        "test.\n\n### Positive Notes\n- Cleaning up the dead reducer files is good housekeeping."
    )
    assert names_own_object(text)
    assert kind_of(text, agent_text=review) is TurnKind.NEW_TASK
    # a demonstrative that points back still does; a hyphenated word is no name
    assert not names_own_object("can we update the push-pr command to follow these rules.")
    assert not names_own_object("please make this a follow-up task for the team")


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 36 (not in the repository), after the agent said the app was ready
        "server ist offline. Starte den Server, öffne einen Browser und scanne die console "
        "log für fehler.",
        "the server is offline again",
        "el servidor está caído otra vez",
        "le site est toujours hors ligne",
        "the dev server is still unresponsive",
    ],
)
def test_a_thing_reported_down_is_a_failure_report(text: str) -> None:
    ready = "The server is ready at http://localhost:3000 — open it in your browser."
    assert kind_of(text, agent_text=ready, agent_acted=True) is TurnKind.CORRECTION


def test_a_question_whether_it_is_down_or_an_offline_feature_is_no_report() -> None:
    ready = "The server is ready at http://localhost:3000 — open it in your browser."
    for text in ("Is the site offline?", "add an offline mode to the app"):
        assert kind_of(text, agent_text=ready, agent_acted=True) is not TurnKind.CORRECTION


def test_the_agents_offer_taken_up_in_its_words_is_no_command_run() -> None:
    """Sample 36 (not in the repository): the words of the agent's offer typed back alone
    take it up; a pasted run is a line of the agent's followed by what it printed."""
    offer = (
        "Want me to dig deeper into any specific phase, build detection rules, or generate "
        "a formal incident report?"
    )
    turn = TurnInput(
        text="generate a formal incident report",
        has_episode=True,
        agent_text=offer,
        agent_worked=True,
    )
    assert "pastes a command it ran" not in classify_turn(turn, lexicon_for()).reasons


_FAILED_TEST = (
    "── Failed tests ──────────────────────────────────\n"
    "Error (test_latent_vec_extra.R:29:3): as.array reconstructs the full 4D data correctly\n"
    "Error in `dim(x) <- length(x)`: invalid first argument, must be vector (list or atomic)"
)


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 28 (not in the repository): an R package's tests, one item at a time
        f"let's now turn to this test failure: {_FAILED_TEST}",
        "I want to focus on 4 skipped tests, firs tis this: ── Skipped tests (4) ──────\n"
        "• Expected file size is too small - skipping compression test (1): "
        "test-scale_and_performance.R:187:5 --> we need to see why it's skipped and make the "
        "test pass or otherwise fix the test if and only if it has faulty assumptions",
    ],
)
def test_a_failure_taken_up_as_the_next_piece_of_work_is_no_correction(text: str) -> None:
    done = "All done: the vignette builds again and `devtools::check()` reports 0 errors."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


def test_the_same_failure_pasted_without_that_opening_is_a_correction() -> None:
    done = "All done: the vignette builds again and `devtools::check()` reports 0 errors."
    assert kind_of(_FAILED_TEST, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild samples 34 and 32 (not in the repository)
        "stop, cancel this loop",
        "wait, I think I've got vim 9.0 source already? and apparently already :make 'd",
        "hold on — the staging database is shared, don't migrate it",
    ],
)
def test_a_stop_or_wait_typed_to_the_agent_steers(text: str) -> None:
    working = "Retrying the image upload (attempt 7 of 20)…"
    assert kind_of(text, agent_text=working) is TurnKind.STEERING


def test_stopping_a_thing_of_its_own_is_a_request() -> None:
    working = "The dev server is running on port 3002 and the watcher rebuilds on save."
    assert kind_of("stop the dev server and run the unit tests", agent_text=working) is not (
        TurnKind.STEERING
    )


def test_a_failure_report_around_a_long_web_address_is_read() -> None:
    # wild sample 38 (not in the repository, anshyyy/aire): one line, most of it a query URL
    url = (
        "https://tinz-backend.example.azurewebsites.net/api/products?page=1&limit=20"
        "&q=running%20sneaker&categoryId=7dfd2ebb-cd6f-48a4-a74e-f46a9f90de9d&category=Footwear"
        "&brand=Nike&isFeatured=true&minPrice=999.99&maxPrice=2999.99&color=Red&size=42&tags="
        + "&sort=price"
        * 20
    )
    asked = "Now run it again:\n\n```\nnpm run seed\n```"
    text = f"for this im getting an empty {url}"
    assert kind_of(text, agent_text=asked, agent_acted=True) is TurnKind.CORRECTION


def test_a_long_line_of_output_is_still_no_typed_words() -> None:
    blob = "aGVsbG8gd29ybGQ" * 60  # base64 output, a line with no spaces
    assert feedback_region(f"{blob}\nthanks") == "thanks"


@pytest.mark.parametrize(
    ("agent_text", "reply"),
    [
        # wild sample 38 (not in the repository): the agent asked about the first option
        (
            "You have two options:\n\n**Option 1 — Pin to an older working version** (quick "
            "fix): change `speech_to_text: ^7.0.0` to `7.2.0`.\n\n**Option 2 — Upgrade to a "
            "newer version** that may have the fix.\n\nWould you like me to apply Option 1?",
            "yes option 1",
        ),
        ("A) keep the cache\nB) drop it\n\nWhich do you prefer?", "B"),
    ],
)
def test_naming_one_of_the_options_laid_out_picks_it(agent_text: str, reply: str) -> None:
    assert kind_of(reply, agent_text=agent_text, agent_acted=True) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    ("agent_text", "reply"),
    [
        # wild sample 38 (not in the repository): a review, then an offer to fix its findings
        (
            "1. **`findAdmin` lacks the try/catch** the other methods have.\n2. **Double "
            "lookups** in update and delete.\n\nWant me to:\n- Fix the `findAdmin` "
            "inconsistency?\n- Optimize the double lookups in update/delete?",
            "fix this",
        ),
        # wild sample 30 (not in the repository, jessitron/claude-log)
        (
            "`just fmt` will fail for anyone without prettier installed globally. Want me to "
            "note it as a known issue, or should we fix it by adding prettier as a dev "
            "dependency?",
            "fix it",
        ),
        # wild sample 38: the review listed them, the person takes them up
        (
            "The review is complete. Here's what I found:\n**3 Critical Issues:** race in the "
            "merge\n**5 High Severity Issues:** no disk persistence",
            "hi lets try to fix all the crictical and high severity issues?",
        ),
    ],
)
def test_taking_the_agent_up_on_what_it_found_is_no_correction(agent_text: str, reply: str) -> None:
    assert kind_of(reply, agent_text=agent_text, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "reply",
    ["you didn't fix the critical issues", "the critical issues are still there, fix them"],
)
def test_saying_the_findings_were_not_fixed_is_a_correction(reply: str) -> None:
    fixed = "Done: I fixed the 3 critical issues the review found and the tests pass."
    assert kind_of(reply, agent_text=fixed, agent_acted=True) is TurnKind.CORRECTION


def test_fix_it_after_the_agent_offered_nothing_is_still_a_failure_report() -> None:
    broken = "I've updated the login form; the submit handler now posts to /api/session."
    assert kind_of(
        "the login button does nothing. fix it", agent_text=broken, agent_acted=True
    ) is (TurnKind.CORRECTION)


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 34 (not in the repository): the agent said it was solved
        "no entiendo a que te refieres con que ya está solucionado, veo a moonyetis.io sin "
        "imagenes aún",
        "veo la página sin imágenes todavía",
        "o que você quer dizer com já está resolvido? a página continua sem imagens",
        "was meinst du mit es ist schon behoben?",
    ],
)
def test_disputing_a_done_claim_in_other_languages_is_a_correction(text: str) -> None:
    solved = "Listo, ya está solucionado: las imágenes del rodillo se cargan desde /assets."
    assert kind_of(text, agent_text=solved, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "¿a qué te refieres con que hay que reiniciar el servidor antes?",
        "sin embargo quiero agregar un botón de exportar",
    ],
)
def test_asking_what_the_agent_meant_is_no_dispute(text: str) -> None:
    solved = "Listo, ya está solucionado: las imágenes del rodillo se cargan desde /assets."
    assert kind_of(text, agent_text=solved, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # Turkish, as wild sample 38's keparlak/NumWordify session (not in the repository)
        # writes to the agent: the same readings as the English words
        ("resimler hala görünmüyor", TurnKind.CORRECTION),
        ("build hata veriyor", TurnKind.CORRECTION),
        ("teşekkürler, şimdi çalışıyor", TurnKind.APPROVAL),
        ("evet", TurnKind.APPROVAL),
        ("tamam, devam et", TurnKind.APPROVAL),
    ],
)
def test_turkish_verdicts_read_as_their_english_words(text: str, kind: TurnKind) -> None:
    offer = "I've added the NuGet publish step. Shall I open the pull request?"
    assert kind_of(text, agent_text=offer, agent_acted=True) is kind


@pytest.mark.parametrize(
    ("text", "agent_text", "kind"),
    [
        # wild sample 28 (not in the repository): a run of acceptance words is acceptance
        ("yes, go ahead", "Shall I leave plan mode and commit?", TurnKind.APPROVAL),
        ("ok sure, do it", "Shall I leave plan mode and commit?", TurnKind.APPROVAL),
        # wild sample 39 (not in the repository, gmeligio/flutter-docker-image)
        ("Yes. Do that", "Shall I leave plan mode and commit?", TurnKind.APPROVAL),
        # wild sample 23 (not in the repository): the person picks step 5 of the list
        (
            "lets target 5 and see what happens",
            "### Next Steps\n1. **Merge PR #77**\n2. **Run against all 30 skills**\n"
            "3. **Add batch CLI**\n4. **Fix remaining test cases**\n"
            "5. **Install as wfc-skill-fixer skill** for easy invocation",
            TurnKind.FOLLOW_UP,
        ),
    ],
)
def test_acceptance_runs_and_list_picks(text: str, agent_text: str, kind: TurnKind) -> None:
    assert kind_of(text, agent_text=agent_text, agent_acted=True, previous=TurnKind.APPROVAL) is (
        kind
    )


def test_a_number_that_is_a_figure_picks_no_item() -> None:
    steps = "Next steps:\n1. Merge the PR\n2. Deploy to staging\n3. Tell the team"
    assert not picks_listed_item("wait 2 minutes then retry", steps)
    assert picks_listed_item("do 2", steps)


@pytest.mark.parametrize(
    "text",
    [
        "5 new pages: pricing, about, blog, careers and contact",
        # wild sample 38 (not in the repository): a site checker's score card pasted after
        # the work was done, opening with its score
        "60\nPartial · other\ntechnocore.chat\n✓\nllms.txt\n×\nai-plugin.json",
    ],
)
def test_a_number_opening_a_longer_message_is_no_go_ahead(text: str) -> None:
    assert kind_of(text, agent_acted=True) is TurnKind.NEW_TASK


_WAKIL_DONE = (
    "Done. Everything is committed on branch `fix/entity-revision-truncation-errors` as a "
    "single Conventional Commit, with tests and a docs/TROUBLESHOOTING.md entry."
)


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 39 (not in the repository, ebridges/wakil): failure reports
        "type check has failed on the PR",
        "with that configuration, hermes timed out on the enrich and switched to running the "
        "command directly. can we increase the MCP timeout for this tool?",
        'When I reran the enrich, it appears to have removed the "Compiled truth" section and '
        'replaced it with "Timeline / Log".',
        "This is too confident:",
        # the agent's words quoted back, then set right
        "> that data loss would have landed without anyone seeing the diff first.\n\nActually, "
        "the intention of landing changes like this via PRs allows for review of the ingest.",
    ],
)
def test_reports_and_disputes_of_a_new_author_are_corrections(text: str) -> None:
    assert kind_of(text, agent_text=_WAKIL_DONE, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "add a retry when the request timed out twice in a row",
        "> the cache is rebuilt on every start\n\nActually, can you also cache the schema?",
        "> Step 3: run the migrations\n\nok, do step 3 now",
        # a pasted run, then a "no" that answers nothing
        "> npm test\n> 12 passed\n\nNo errors now!",
    ],
)
def test_a_request_about_a_timeout_or_a_quote_is_no_correction(text: str) -> None:
    assert kind_of(text, agent_text=_WAKIL_DONE, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild samples 30 and 39, and the labelled set: the work accepted, more of it asked
        "great! copy the db, good idea. Do that for me",
        'OK. Good. Now verify "whether the image set lives in config/version.json" and let me '
        "know what's missing to verify.",
        "beautiful, can we put 1 or 2 lines of summarizing the philosophy's metaphor into the "
        "readme? ok to link back to philosophy.md for the full version",
        # wild sample 30 (not in the repository): "working!" is the verdict
        "working! Can you make the lower bound of the date range such that the first event "
        "is at the beginning of the range? Currently there is a gap of several minutes before "
        "the first event appears on the timeline, which wastes space on the chart.",
    ],
)
def test_a_verdict_then_a_request_for_more_of_the_work_is_a_follow_up(text: str) -> None:
    assert kind_of(text, agent_acted=True) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text", ["working directory is wrong, use /srv/app", "working on the parser is slow"]
)
def test_working_before_a_noun_or_on_is_no_verdict(text: str) -> None:
    assert kind_of(text, agent_acted=True) is not TurnKind.APPROVAL


def test_correct_the_thing_is_the_verb_not_a_verdict() -> None:
    # wild sample 39 (not in the repository, ebridges/wakil): the agent's review of five PRs
    review = (
        "Nothing blocking across all 5. The only nuance is #109's description overstating its "
        "own fix. Let me know if you'd like me to merge them in sequence (running tests after "
        "each) once you're ready."
    )
    text = (
        "Correct the overstatement in #109 Merge #109, #110, and #111 in sequence, running "
        "tests after each; then complete the rest."
    )
    decision = classify_turn(
        TurnInput(text=text, has_episode=True, agent_text=review, agent_worked=True),
        lexicon_for(),
    )
    assert decision.kind is TurnKind.FOLLOW_UP
    assert not decision.approves_previous  # no verdict on the review was given


@pytest.mark.parametrize(
    "text",
    [
        # the labelled set and wild sample 30: the verdict closes it, the next work is set
        "Merged both PRs. i think we should do a release now. bump the version to 3.5.1?",
        "ok that's great! Let's make a small code change - like put \"jess was here\" "
        "somewhere in the header",
    ],
)
def test_a_verdict_then_a_next_piece_of_work_is_a_new_task(text: str) -> None:
    assert kind_of(text, agent_acted=True) is TurnKind.NEW_TASK


def test_a_pasted_finding_queued_with_a_fix_to_make_adds_a_step() -> None:
    # wild sample 38 (not in the repository, flop-labs/technocore-chat): a site checker's
    # finding, queued while the agent worked on the others
    finding = (
        "Goal: Signaling your preference of either allowing or disallowing certain categories "
        "of AI actions.\nIssue: No Content Signals found in robots.txt\nFix: Add "
        "Content-Signal directives to your robots.txt declaring preferences for ai-train, "
        "search, and ai-input."
    )
    working = "Scope is now six changes for 0.3.1. Let me size the OpenAPI work before editing."
    assert kind_of(finding, agent_text=working, queued=True) is TurnKind.FOLLOW_UP
    hint = "Goal: keep it small.\nNote: prefer the standard library over new dependencies."
    assert kind_of(hint, agent_text=working, queued=True) is TurnKind.STEERING


def test_findings_taken_up_whatever_words_end_in_nt() -> None:
    review = "Review done. I found **5 High Severity Issues:** in the client and the front end."
    assert takes_up_findings("now fix the important issues in the client", review)
    assert not takes_up_findings("you didnt fix the issues in the client", review)


def test_turkish_no_problem_is_no_complaint() -> None:
    offer = "I've added the NuGet publish step. Shall I open the pull request?"
    assert kind_of("teşekkürler, sorun olmadı", agent_text=offer, agent_acted=True) is (
        TurnKind.APPROVAL
    )


# --- wild sample 41 (not in the repository), read after a blind scoring ---


@pytest.mark.parametrize(
    "text",
    [
        # scotthamilton77/claude-code-sidekick, typed while the agent set up a symlink
        "let's not create links - find another way",
        "why not use the existing parser instead",
    ],
)
def test_not_after_an_instruction_word_is_no_failure_report(text: str) -> None:
    working = "The test needs the script in the tests directory. Let me see if there's a symlink:"
    kind = kind_of(text, agent_text=working, agent_ended=False)
    assert kind is not TurnKind.CORRECTION
    # the same verbs, said of what happened, still report a failure
    assert kind_of("the links were not created", agent_text=working, agent_ended=False) is (
        TurnKind.CORRECTION
    )


def test_a_hedged_verdict_reads_as_the_plain_one() -> None:
    # wild sample 41 (scotthamilton77/claude-code-sidekick): "It does seem to be working";
    # "seem to be" had also hidden the failure in its negation
    asked = "I'll keep monitoring it. Want me to check it periodically, or verify at the end?"
    assert kind_of("It does seem to be working", agent_text=asked) is TurnKind.APPROVAL
    assert kind_of("It doesn't seem to be working", agent_text=asked) is TurnKind.CORRECTION
    assert kind_of("the modal does not appear to be rendering", agent_text=asked) is (
        TurnKind.CORRECTION
    )


def test_no_visible_difference_reports_that_the_change_did_nothing() -> None:
    # wild sample 41 (not in the repository, JeedaveyFCRA/poc), after the agent changed a
    # margin: "there was no visual difference. what other others do i have"
    done = "I've updated the margin bottom from 0 to 2px to add spacing between the label."
    for text in (
        "there was no visual difference. what other options do i have",
        "no visible change",
    ):
        assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


def test_a_request_after_an_invitation_worded_at_length_is_a_new_task() -> None:
    # wild sample 41 (not in the repository, JeedaveyFCRA/poc): the agent's invitation
    # ends on a list and "let me know what specific task you'd like me to focus on"
    ready = (
        "I'm ready to help you work within the vioverse-refactor directory. What would you "
        "like me to do? I can:\n- Review the current refactor structure and organization\n"
        "- Work on specific components in the indesign-web-components folder\n- Implement "
        "new features or refactor existing code\n- Fix issues or bugs you've identified\n"
        "- Create new files or modify existing ones\n\nPlease let me know what specific "
        "task you'd like me to focus on within the `/home/u/vioverse-refactor/` directory."
    )
    text = "Hello can you give me the specs in violation-details: INDIVIDUAL VIOLATION BOX SPECS"
    assert kind_of(text, agent_text=ready) is TurnKind.NEW_TASK


def test_a_greeting_opens_a_new_exchange() -> None:
    # wild sample 38 (not in the repository): "hi seed the products, fill 2 products with
    # their variants and everything", after the agent's report on other work
    report = "The recording state is kept in TransferManager and sent with each chunk."
    hello = "hi seed the products, fill 2 products with their variants and everything"
    assert kind_of(hello, agent_text=report) is TurnKind.NEW_TASK
    # a greeting that opens a complaint is still a complaint, and a bare one is no request
    assert kind_of("hey... the transfer still fails", agent_text=report) is TurnKind.CORRECTION
    assert kind_of("hello there", agent_text=report) is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 41 (not in the repository, scotthamilton77/claude-code-sidekick)
        "benchmark-classification.ts has a typescript error in the imports",
        "the build has errors",
        # wild sample 36 (not in the repository)
        "server not running, browser shows error",
    ],
)
def test_a_thing_said_to_hold_an_error_is_a_failure_report(text: str) -> None:
    done = "Done! The benchmark now runs all 40 emails through the pipeline and prints a table."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["make sure it has error handling for bad input", "it has no errors now"]
)
def test_error_words_that_report_nothing_wrong(text: str) -> None:
    done = "Done! The benchmark now runs all 40 emails through the pipeline and prints a table."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


def test_asking_whether_the_agent_hung_reports_a_hang() -> None:
    # wild sample 41 (MereWhiplash/sannai's real_session.jsonl fixture, not in the
    # repository): typed right after the person's interrupt
    working = "Since the Unity project is in a subdirectory, the paths need adjusting:"
    for text in ("Did you hang there?", "did it crash?"):
        assert (
            kind_of(text, agent_text=working, after_interrupt=True, agent_ended=False)
            is TurnKind.CORRECTION
        )


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 41 (TensorTemplar/slopometry's transcript fixture, not in the
        # repository), answering the agent's "Does this direction resonate?"
        "lets think a bit more about what the plan evolution should ultimately show - it "
        "seems that we need to put this in contrast with something that is missing",
        "hmm, you are claude and that session was just now. As a user i do not actually see "
        "why and when you decided to work under todo tracking and when outside of it",
        "please figure out what is missing from the report",
    ],
)
def test_what_is_sought_or_asked_about_is_no_failure_report(text: str) -> None:
    asked = "This immediately tells you the split. Does this direction resonate?"
    assert kind_of(text, agent_text=asked) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 41 (not in the repository, natori-hrj/dotfiles): "toggling seems to
        # work, but the background and text colours don't work well"
        "切り替わりの動作はしてそうなのですが背景やテキストカラーとかうまく動作していないです。",
        # "in light mode @natori's colour is the background's, so it can't be seen"
        "ライトモード時に@natoriのカラーが背景と同色になってしまっているので見えなくなります。",
        "ボタンが動作しません",
    ],
)
def test_japanese_reports_that_a_thing_does_not_operate_or_cannot_be_seen(text: str) -> None:
    done = "ダークモードの切り替えを修正しました。ボタンでテーマが切り替わります。"
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


def test_thanks_then_a_request_in_japanese_is_a_follow_up_that_approves() -> None:
    # natori-hrj/dotfiles: "Thank you. Can you make the transition more stylish?"
    done = "テーマ切り替えのアニメーションを追加しました。"
    text = "ありがとうございます。切り替わり方をもっとおしゃれな感じにできますか？"
    assert kind_of(text, agent_text=done) is TurnKind.FOLLOW_UP
    assert kind_of("ありがとうございます。", agent_text=done) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 42 (not in the repository, jnarowski/agentcmd's Codex fixture), each
        # typed right after the person stopped the agent
        "No teams or leads are loading into the pane now",
        "I am not seeing a network request when I load the TeamSheet. Is it supposed to "
        "trigger a network request?",
    ],
)
def test_what_none_of_a_kind_does_or_what_the_person_is_not_seeing_is_a_report(
    text: str,
) -> None:
    working = "I'll wire the TeamSheet to the new leads endpoint and move the fetch into a hook."
    assert (
        kind_of(text, agent_text=working, after_interrupt=True, agent_ended=False)
        is TurnKind.CORRECTION
    )


@pytest.mark.parametrize(
    "text", ["no errors are showing now", "no matter what is shown there, keep the header"]
)
def test_good_news_or_no_matter_what_is_no_report(text: str) -> None:
    done = "Done: the TeamSheet now loads teams and leads from the new endpoint."
    assert kind_of(text, agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 42 (not in the repository), typed after an interrupt
        "Can you auto accept all changes for the rest of this session?",
        "please stop asking me for permission",
    ],
)
def test_asking_the_agent_to_change_how_its_tools_are_approved_is_housekeeping(
    text: str,
) -> None:
    working = "Let me update the hook and the component."
    assert (
        kind_of(text, agent_text=working, after_interrupt=True, agent_ended=False)
        is TurnKind.HOUSEKEEPING
    )


@pytest.mark.parametrize(
    "text",
    ["don't ask for permission, just fix the login bug", "approve all", "accept all changes"],
)
def test_an_approval_word_with_a_request_or_a_proposal_taken_is_no_setting(text: str) -> None:
    # "approve all" answers a proposal; a request after the setting is the turn's point
    offer = "I can apply these 5 edits to the login flow. Shall I apply them?"
    assert kind_of(text, agent_text=offer) is not TurnKind.HOUSEKEEPING


def test_a_request_on_this_work_points_back_at_it() -> None:
    # wild sample 42 (not in the repository): after the agent's answer on the data flow
    answer = "The TeamSheet fetches through useTeams, which calls /api/teams on mount."
    text = (
        "can you create a pull request for this work and then checkout a new branch from "
        "main feat/lead-filters"
    )
    assert kind_of(text, agent_text=answer) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 41 (not in the repository, natori-hrj/dotfiles): "It's solved. Thank you"
        "解決しました。ありがとうございます",
        "Perfect. Thank you very much!",
        "That fixed it. Thanks so much for your help!",
        "해결됐어요. 감사합니다",
    ],
)
def test_a_verdict_then_thanks_asks_for_nothing_more(text: str) -> None:
    done = "Done! The toggle now switches the theme and the colours stay readable."
    assert kind_of(text, agent_text=done) is TurnKind.APPROVAL


def test_a_verdict_then_thanks_then_a_request_asks_for_more() -> None:
    done = "Done! The toggle now switches the theme and the colours stay readable."
    assert kind_of("Perfect. Thanks! Now add a dark mode", agent_text=done) is (TurnKind.FOLLOW_UP)


# --- wild sample 44 (blind, not in the repository) -----------------------------------

RETEST = (
    "Fix applied: optimized memory management for large files.\n\nPlease re-test:\n"
    "1. npm run dev\n2. Load your large Telegram export file\n3. Verify correct user count\n\n"
    'Type "approved" if it works, or report issues'
)


@pytest.mark.parametrize(
    "text",
    [
        # one person's four answers to the agent's "Type 'approved' if it works"
        "crashed again i think",
        "ran out of memory about 60% through adter finding thousands of users",
        "it only found 24 users in test stage 5 the file shuld have hundreds of users",
        "the output has a lot of users with empty names or names which are just punctuation",
        # the same reports in other words
        "it segfaulted on the big file",
        "failed again",
        "the worker got OOM killed halfway",
    ],
)
def test_a_run_that_died_or_gave_wrong_output_is_a_failure_report(text: str) -> None:
    assert kind_of(text, agent_text=RETEST, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # a failure named as what to handle, not one that happened
        "add handling for when the worker runs out of memory",
        "if it crashed, restart it and log why",
        "failed logins should lock the account after five tries",
    ],
)
def test_a_failure_named_as_work_to_do_is_no_report(text: str) -> None:
    assert kind_of(text, agent_text=RETEST, agent_acted=True) is not TurnKind.CORRECTION


def test_taking_the_agents_point_is_an_approval() -> None:
    """Typed while the agent ran, after it said the env var was not needed after all."""
    said = (
        "The default `../../data/observe.db` already resolves correctly, so you don't "
        "actually need the env var. But no harm being explicit. Updated:"
    )
    assert kind_of("oh ok you're right!", agent_text=said, queued=True) is TurnKind.APPROVAL
    for text in ("makes sense", "fair enough, thanks", "ah, got it"):
        assert kind_of(text, agent_text=said) is TurnKind.APPROVAL
    # a point taken with a "but" that reports a failure is a correction; a bare sound is
    # no verdict
    assert kind_of("you're right, but the test still fails", agent_text=said) is (
        TurnKind.CORRECTION
    )
    assert kind_of("oh", agent_text=said) is not TurnKind.APPROVAL


@pytest.mark.parametrize("text", ["claude mcp", "claude mcp list", "codex login"])
def test_the_agents_own_subcommand_typed_into_the_session_is_for_the_shell(text: str) -> None:
    # typed after the person stopped the agent: meant for the terminal, not the agent
    turn_kind = kind_of(text, agent_text="Now let me create the backend API:", after_interrupt=True)
    assert turn_kind is TurnKind.HOUSEKEEPING


def test_a_request_that_names_the_cli_is_no_shell_command() -> None:
    assert kind_of("claude, add an mcp server for github") is not TurnKind.HOUSEKEEPING


def test_a_report_of_the_persons_own_edits_then_commit_closes_the_task() -> None:
    done = "Updated README.md with the new setup steps and the TypeScript build commands."
    text = "I made some additional updates to the README. You can commit now"
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.FOLLOW_UP
    # a new request between the report and the closing step stands on its own
    other = "I fixed the typo. Now add a license file for the package. Then commit"
    assert kind_of(other, agent_text=done, agent_acted=True) is not TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 44: what the person saw after the agent said it would now work
        "when logging out and in again after installing with the tray using 'just', the tray "
        "icon isn't there",
        "in the system tray, when selecting Daily Update.  It doesn't switch between on and off",
    ],
)
def test_a_thing_not_there_or_not_switching_is_a_failure_report(text: str) -> None:
    done = "The tray should now start automatically on your next login."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "isn't there a simpler way to do this?",
        "won't there be any issues with this approach?",
        "Also do not apply linting for the tests",
        "do not open a PR, just commit to the branch",
        "remember to not run the migrations",
    ],
)
def test_a_question_or_a_prohibition_is_no_failure_report(text: str) -> None:
    done = "The tray should now start automatically on your next login."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 44, each typed while the agent was still at work
        "we will need to update instructions on how to get from github and install",
        "in that educational summary, also make note of the testing that has been done.  this "
        "is important",
        "is there a way to install the app and tray-app using 'just'?",
        # wild sample 57 (not in the repository)
        "ok we need to expand the north star a bit, we omitted user facing documentation",
        # hostile: the same in other words
        "you will need to cover the offline case in the docs as well",
    ],
)
def test_more_work_typed_while_the_agent_runs_is_a_step_of_the_task(text: str) -> None:
    working = "Now let me update the README with tray mode instructions:"
    assert kind_of(text, agent_text=working, queued=True) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 58 (not in the repository): typed while the agent watched CI
        "approved #33 in chat and in the issue itself for provenence.",
        "looks good, merged it",
    ],
)
def test_a_verdict_typed_while_the_agent_runs_is_an_approval(text: str) -> None:
    working = "Now let me update the README with tray mode instructions:"
    assert kind_of(text, agent_text=working, queued=True) is TurnKind.APPROVAL


def test_a_constraint_typed_while_the_agent_runs_still_steers() -> None:
    working = "Now let me update the README with tray mode instructions:"
    for text in (
        "use pnpm instead of npm for all of it",
        "remember to resolve any merge issues",
        "hold on, I need a minute to check the server",
        # what the work may leave out, opened as an added step would be
        "and we don't need backward compatibility, it only adds complexity",
        "no need to update the docs for this",
    ):
        assert kind_of(text, agent_text=working, queued=True) is TurnKind.STEERING
    # a need said outright is a step of the work
    need = "and we need to add a migration note to the changelog"
    assert kind_of(need, agent_text=working, queued=True) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # wild samples 44 and 57 (not in the repository)
        "great! Next, please investigate the practices of this codebase",
        "Thank you. Now where are we in our open print kit project?",
        "perfect, now can you polish the whole website so its ready to go live",
        "great! \nNow, when it's in rewind mode, can you let me scroll right and left",
        # hostile: the same turn in other words
        "Nice, next let's write the onboarding emails",
    ],
)
def test_a_verdict_then_now_or_next_turns_to_new_work(text: str) -> None:
    """Over samples 44–57, eight of ten such turns were labelled new tasks: "now" or "next"
    after the verdict turns to the next piece of work. Still marked hard, for the model."""
    turn = TurnInput(
        text=text,
        has_episode=True,
        agent_text="Opened the pull request with the rewind feature.",
        agent_worked=True,
    )
    decision = classify_turn(turn, lexicon_for())
    assert decision.kind is TurnKind.NEW_TASK and decision.hard


@pytest.mark.parametrize(
    "text",
    [
        # the labelled set and wild sample 44: something handed over, the work checked
        "thanks. Now here is the claude code session id [8850d460] that entire will need",
        'OK. Good. Now verify "whether the image set lives in config/version.json"',
        "cool! reference that in CLAUDE.md would you?",
        "great, now test it on the staging server",
    ],
)
def test_a_verdict_then_more_of_the_same_work_stays_a_follow_up(text: str) -> None:
    turn = TurnInput(
        text=text,
        has_episode=True,
        agent_text="Opened the pull request with the rewind feature.",
        agent_worked=True,
    )
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.FOLLOW_UP


def test_the_agents_claim_doubted_or_a_mismatch_noted_is_a_correction() -> None:
    """Wild sample 44: after "Tests pass (224/224) and formatting is clean. Ready for PR."
    and after the agent built an AppImage."""
    claimed = "Tests pass (224/224) and formatting is clean. Ready for PR."
    assert kind_of("does formatting really succeed?", agent_text=claimed, agent_acted=True) is (
        TurnKind.CORRECTION
    )
    noted = (
        "note the following name discrepancy when building the app image.  === AppImage "
        "built successfully ===\nOutput: cosmic-bing-wallpaper-x86_64.AppImage"
    )
    assert kind_of(noted, agent_text="Built the AppImage.", agent_acted=True) is (
        TurnKind.CORRECTION
    )
    # a question about what something is, and a request to find mismatches, judge nothing
    for text in ("is it really necessary to keep both files?", "check for naming mismatches"):
        assert kind_of(text, agent_text=claimed, agent_acted=True) is not TurnKind.CORRECTION


POWERLINE_STATUS = (
    "\uf312 \ue0b0 \uf015 ~ \ue0b0   systemctl --user status cosmic-bing-wallpaper-tray.service"
    "      \ue0b2 ✔\n\n○ cosmic-bing-wallpaper-tray.service - Bing Wallpaper system tray\n"
    "     Loaded: loaded (/home/u/.config/systemd/user/cosmic-bing-wallpaper-tray.service; "
    "enabled; preset: enabled)\n"
)


def test_a_service_status_that_shows_it_dead_is_a_pasted_error() -> None:
    """Wild sample 44: a powerline prompt, `systemctl --user status`, and the service dead."""
    text = POWERLINE_STATUS + "     Active: inactive (dead) since Fri 2026-01-16 08:30:21 NZDT\n"
    done = "All good - everything is already pushed and up to date with origin/main."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


def test_a_command_pasted_from_a_powerline_prompt_is_a_report_on_the_task() -> None:
    text = POWERLINE_STATUS + "     Active: active (running) since Fri 2026-01-16 08:30:21 NZDT\n"
    done = "All good - everything is already pushed and up to date with origin/main."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.FOLLOW_UP


def test_that_looks_great_is_a_verdict_on_the_work() -> None:
    """Wild sample 44: the verdict accepts the work, then "Let's start preparing …" sets
    the next piece of work (its labeller: a new task)."""
    turn = TurnInput(
        text=(
            "That looks great! Let's start preparing this for pull request. Write up the change "
            "as a markdown file, describing what all we changed and why."
        ),
        has_episode=True,
        agent_text="That shifts the lower bound inward by 2% of the range.",
        agent_worked=True,
    )
    decision = classify_turn(turn, lexicon_for())
    assert decision.kind is TurnKind.NEW_TASK
    assert decision.approves_previous and decision.hard
    # a verdict, then "Now, I need to …" of the person's own: the next piece of work
    turn = TurnInput(
        text="OK, works now. Now, I need to create a tag with the version number",
        has_episode=True,
        agent_text="Fixed the build script; the AppImage builds again.",
        agent_worked=True,
    )
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.NEW_TASK


# --- Codex's refusal, as the VS Code extension writes it (wild sample 45) -------------------


def test_a_codex_command_the_person_refused_is_a_benign_error() -> None:
    events = [
        _call(1, "shell", '{"command": ["powershell", "-Command", "Get-Content spec.md"]}'),
        _result(2, 1, "exec command rejected by user", is_error=True),
    ]
    assert judge_errors(events).verdicts[2].kind == "benign"
    # stored unflagged by an earlier harvest: still the person's refusal
    unflagged = [events[0], _result(2, 1, "exec command rejected by user")]
    assert judge_errors(unflagged).verdicts[2].kind == "benign"


def test_a_codex_command_the_sandbox_stopped_is_a_root_error_even_stored_unflagged() -> None:
    denied = (
        "failed in sandbox MacosSeatbelt with execution error: Denied { output: "
        'ExecToolCallOutput { exit_code: 128, stderr: StreamOutput { text: "fatal: cannot '
        "lock ref 'refs/heads/001-build'\" } } }"
    )
    events = [_call(1, "shell", '{"command": ["git", "checkout", "-b", "001-build"]}')]
    verdicts = judge_errors([*events, _result(2, 1, denied)]).verdicts
    assert verdicts[2].kind == "root"
    killed = "failed in sandbox: sandbox error: command was killed by a signal"
    assert judge_errors([*events, _result(2, 1, killed)]).verdicts[2].kind == "root"


def test_what_the_person_types_after_refusing_a_codex_command_steers() -> None:
    """Python-AI-Solutions/agentic-neurodata-conversion (wild sample 45, not in the
    repository): the person declined the agent's PowerShell call, then said how to work."""
    b = (
        SessionBuilder()
        .prompt("read the spec file and summarise it for me")
        .call("shell", '{"command": ["powershell", "-Command", "Get-Content spec.md"]}', "x1")
        .result("x1", "exec command rejected by user", error=True)
        .prompt("use terminal instead of powershell then")
    )
    kinds = dict(_kinds(b))
    assert kinds["use terminal instead of powershell then"] is TurnKind.STEERING


def test_swapping_the_means_after_an_answer_steers() -> None:
    """Wild sample 45: the agent had explained why it read files with PowerShell."""
    answer = (
        "You don't have to stick to PowerShell. A few other options: `type .\\path\\to\\file`, "
        "`more`, a Python one-liner. Any of those will show the file's contents."
    )
    assert kind_of("use terminal instead of powershell then", agent_text=answer) is (
        TurnKind.STEERING
    )
    # after the agent's done claim the same words ask for a change of the work: not steering
    assert kind_of("use the REST API instead of GraphQL for the export") is not TurnKind.STEERING
    # the answer to the agent's question is an answer, not a redirect
    asked = "Should I read it with PowerShell or with the terminal?"
    assert kind_of("use terminal instead of powershell", agent_text=asked) is not (
        TurnKind.STEERING
    )


# --- wild sample 46: an older Codex rollout's author pasting the tool's own output ---------


def test_a_prompt_that_shows_its_folder_is_no_slash_command() -> None:
    pasted = (
        "/work $ ping www.googleapis.com\nPING www.googleapis.com (172.217.165.10): 56 data "
        "bytes\n^C it seems ping works for outbound connections, but curl is not installed"
    )
    assert parse_command(pasted) is None
    assert parse_command("/app # ls -la") is None
    assert parse_command("/release patch") is not None  # a command with arguments still is
    done = "Outbound requests now go through the proxy; web search should work."
    assert kind_of(pasted, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # a process result as JSON, its escapes kept, and Rust's debug print of one
        'l_id\\":\\"call_c1\\",\\"stderr\\":\\"sandbox error: command was killed by a '
        'signal\\",\\"exit_code\\":-1,\\"duration\\":{\\"secs\\":0}',
        '"stderr": String("error: unexpected argument \'--ask-for-approval\' found\\n\\n  '
        "tip: to pass '--ask-for-approval' as a value, use '-- --ask-for-approval'\\n\"),\n"
        '            "stdout": String(""),',
        "seems that the ocodex-labs/shared folder is not connected to the /work/ dir in the "
        "docker containers",
    ],
)
def test_a_pasted_process_result_that_failed_is_a_correction(text: str) -> None:
    done = "The orchestrator now starts each worker with write access. Try it again."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


def test_a_pasted_process_result_that_succeeded_is_no_error() -> None:
    assert not has_pasted_error('{"exit_code": 0, "stdout": "ok", "stderr": ""}')


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 46 (German; not in the repository), after the agent said the voice
        # server now reads its summaries aloud
        "kann nichts hören",
        "Kannst du das bitte auch in die Tat umsetzen? Ich sehe deine Zusammenfassung auf dem "
        "Screen. Ich höre aber nichts.",
        "Nur Stille. System Ton funktioniert aber. Das ist frustrierend",
        # the same in other languages people write to agents in
        "je n'entends rien",
        "no oigo nada",
    ],
)
def test_nothing_heard_or_seen_is_a_failure_report_in_other_languages(text: str) -> None:
    done = "Ottie sollte dir gerade die Zusammenfassung vorlesen. Hast du sie gehört?"
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


def test_es_geht_nicht_darum_is_no_failure_report() -> None:
    """'Es geht nicht darum, dass …' is 'it is not about …', not 'it does not work'."""
    text = (
        "Kannst du bitte sicherstellen, dass Ottie sich häufiger meldet mit einem "
        "Zwischenstatus? Es geht nicht darum, dass er mir jede technische Zeile vorliest."
    )
    done = "Ottie sollte dir gerade die Zusammenfassung vorlesen."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


# --- wild sample 47 (not in the repository) ---------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Im using your suggested commands and they both exit immediately. I think you need to "
        "confirm the entry points.",
        "I tried to run the gui using your instructions and got: (.venv) randy@development"
        "~/projects/OpenPrintKit>python -m opk.gui",
    ],
)
def test_a_run_that_quit_at_once_or_a_try_and_what_it_got_is_a_failure_report(text: str) -> None:
    done = "Run `opk-gui` to start the GUI; it opens the printer profile editor."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    ["make it exit immediately on error", "I tried it and got it working, thanks"],
)
def test_asking_for_a_quick_exit_or_a_try_that_worked_is_no_report(text: str) -> None:
    done = "Run `opk-gui` to start the GUI; it opens the printer profile editor."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


def test_a_command_pasted_from_a_zsh_prompt_is_a_report_on_the_task() -> None:
    text = (
        "neilhart@NEILs-MacBook-Pro token-analysis-autopilot % npm run cli run --new-engine\n\n"
        "> token-analysis-autopilot@0.1.0 cli\n> tsx src/cli.ts run --new-engine\n\n"
        "Analysed 1,204 sessions in 3.2 s\n"
        "Top models by tokens: claude-opus-4 812,331 input 95,112 output; claude-sonnet-4 "
        "401,877 input 41,006 output; gpt-5 120,554 input 9,981 output\n"
        "Cache hit rate 71 percent, estimated cost 14.20 dollars, report written to "
        "token-report.json in the current folder"
    )
    done = "The new engine is wired in behind `--new-engine`; run it to compare the figures."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        # wild sample 45: existence probes with their errors silenced, in a login shell
        # that prints nvm's line first
        ("ls Dockerfile* 2>/dev/null", 1, "Now using node v22.20.0 (npm v10.9.3)"),
        ("bash -lc 'ls -d specs/*-orchestrator-architecture 2>/dev/null'", 2, ""),
        # wild sample 44: a unit that is not running answers `status` with exit 3
        ("systemctl --user status cosmic-bing-wallpaper-tray.service", 3, "inactive (dead)"),
    ],
)
def test_a_question_whose_status_is_the_answer_is_benign(
    command: str, code: int, output: str
) -> None:
    assert is_benign_exit(command, code, output)


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        # zsh refuses the glob itself: the probe never ran (the labelled set reads it root)
        ("ls -d ~/.claude/projects/*tmp* 2>/dev/null", 1, "(eval):1: no matches found: *tmp*"),
        ("systemctl --user start tray.service", 3, "Job for tray.service failed"),
    ],
)
def test_a_probe_that_did_not_run_or_a_command_that_failed_stays_root(
    command: str, code: int, output: str
) -> None:
    assert not is_benign_exit(command, code, output)


@pytest.mark.parametrize(
    "text", ["c'est le serveur linear qui n'apparait pas", "ça ne se lance toujours pas"]
)
def test_a_thing_that_does_not_appear_or_start_is_a_failure_report_in_french(text: str) -> None:
    """Wild sample 48 (a French Codex session, not in the repository)."""
    done = "J'ai ajouté le serveur MCP Linear à la configuration ; redémarre Codex."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


# --- wild samples 45–48 (not in the repository), read after the fact -----------------------


@pytest.mark.parametrize("text", ["да", "да, давай", "хорошо", "ок"])
def test_a_bare_russian_yes_to_an_offer_accepts_it(text: str) -> None:
    """Wild sample 48: "да" to the agent's "Хотите, чтобы я …?" (its labeller: approval)."""
    offer = "Хотите, чтобы я переформулировал оставшиеся задачи в tasks.md под текущий стек?"
    assert kind_of(text, agent_text=offer, agent_acted=True) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("нет, это не работает", Feedback.CORRECTION),
        ("всё ещё не работает", Feedback.CORRECTION),
        ("неправильно", Feedback.CORRECTION),
        ("откати это", Feedback.CORRECTION),
        ("спасибо, всё работает", Feedback.APPROVAL),
        ("отлично", Feedback.APPROVAL),
        ("продолжай", Feedback.CONTINUATION),
        ("잘못됐어요", Feedback.CORRECTION),
        ("여전히 오류가 나요", Feedback.CORRECTION),
    ],
)
def test_the_lexicon_reads_russian_and_korean_verdicts(text: str, expected: Feedback) -> None:
    assert lexicon_for().classify(text) is expected


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 48 (Russian): "I did ask you to work with me in Russian"
        "я же просил на русском",
        # the same complaint in other languages people write to agents in
        "ich habe doch gesagt, auf Deutsch",
        "je t'ai demandé de répondre en français",
        "te dije que en español",
        "eu pedi em português",
        "잘못됐어요",
    ],
)
def test_saying_what_was_asked_again_is_a_correction_in_other_languages(text: str) -> None:
    done = "I've translated the settings page and the tray menu."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 46 (Codex, after the agent changed the sandbox flags)
        "seems that --sandbox for the agents under orchestrator still have read-only mode on",
        "there are no results from the ocodex prompt",
        # the same state, said of other things
        "the docs still say v1",
        "the page still shows the old header",
        # wild samples 44 and 46: the state named around "still"
        "it seems still that the web search capability doesn't fully analyze the example",
        "there seems to be a bunch of out of date context in readme still - can we massively "
        "simplify the main readme.md in the root and focus it purely on the install steps",
    ],
)
def test_a_state_that_outlived_the_fix_is_a_failure_report(text: str) -> None:
    done = "Updated the orchestrator to pass --sandbox workspace-write to every agent."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "I still have a question about the API",
        "we still have to add the tests",
        "the darker highlight should still stay on",
        "make sure the page still shows the header",
        "if there are no results, show an empty state",
        "keep the wrong-answer counter but still hide it from the menu",
        "fix the broken link but still keep the header",
        "remove stale entries, still keeping the last 10",
    ],
)
def test_a_question_a_duty_or_a_requirement_with_still_is_no_report(text: str) -> None:
    done = "Updated the orchestrator to pass --sandbox workspace-write to every agent."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild samples 45–48 (three owners; their labellers: follow-ups)
        "Yes, and we also need to collect and add any updates to our system-spec.md and "
        "project-status.md. We also need to ensure we implement the api for crud operations "
        "on the printer profiles, and that the tests cover it, then update the README.",
        "Ja, bitte implementiere das schnellere Modell und das Streaming, und behalte auch im "
        "Hinterkopf, dass wir noch die Fallback-Solution haben mit dem alten Modell, falls das "
        "neue nicht antwortet oder zu langsam ist.",
        "proceed to add opk rules and opk workspace init subcommands. Then update the README "
        "usage as needed. Run tests for confirmation, and be sure to commit and push when the "
        "whole suite is green on your side.",
        "да а также в корневом package.json уточни команды, нужно чтобы npm run start "
        "запускал в дев режиме, а билд запускал релиз и релиз должен появляться в папке "
        "release рядом с исходниками",
    ],
)
def test_a_yes_then_more_of_the_work_is_a_follow_up(text: str) -> None:
    done = (
        "Done: the printer profiles are added and all 36 tests pass. If you want, I can go "
        "deeper and wire the remaining subcommands into the CLI."
    )
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # the person's own next step, or a statement after the yes
        "yes! on to the timeline bug! Probably we should clear context first",
        "yes, in a previous session we removed the react web app in favor of static PNG files",
        "yes, let's now build the release and publish it",
        # an "ok" only acknowledges
        "ok, and now a different thing: the login page needs a dark mode",
        "yes",
    ],
)
def test_a_yes_then_a_statement_or_a_next_step_is_no_yes_then_more(text: str) -> None:
    assert not yes_and_more(text)


# --- wild sample 49 (not in the repository) ---------------------------------------------


def test_codexs_implement_the_plan_accepts_the_proposed_plan() -> None:
    """Codex's plan mode sends "Implement the plan." when the person accepts its plan."""
    plan = "<proposed_plan>\n# EdgeRunner\n\n## Summary\nBuild a reusable Rust trading engine …"
    assert kind_of("Implement the plan.", agent_text=plan, agent_acted=True) is (TurnKind.APPROVAL)
    assert kind_of("确认", agent_text="资料如下，确认后我会提交注册：…确认提交吗？") is (
        TurnKind.APPROVAL
    )


@pytest.mark.parametrize(
    "text",
    [
        "I don't think that's it. It's something else, I hold down function and it records",
        "don't think that's the problem, the mic works in other apps",
        "that's not the program, it's the one that starts at login",
    ],
)
def test_rejecting_the_agents_answer_as_the_wrong_one_is_a_correction(text: str) -> None:
    answer = (
        "That's the whisper server, started at login via ~/Library/LaunchAgents/"
        "com.voicemode.whisper.plist. What's not working — is it not transcribing?"
    )
    assert kind_of(text, agent_text=answer, agent_acted=True) is TurnKind.CORRECTION


def test_a_verdict_after_an_acknowledgment_is_read_after_it() -> None:
    text = (
        "ah, of course\nTHANKS!! it works perfectly, even hosted ok random.example.se now\n"
        "awaiting my friends input :)"
    )
    answer = "Render just serves the static HTML file; the randomness never touches Render."
    assert kind_of(text, agent_text=answer, agent_acted=True) is TurnKind.APPROVAL
    # a request after that verdict still asks for more
    more = "ah, of course\nTHANKS!! it works perfectly. Now add a dark mode please"
    assert kind_of(more, agent_text=answer, agent_acted=True) is not TurnKind.APPROVAL


def test_a_question_then_how_to_answer_it_asks_the_person() -> None:
    answer = (
        "注册已经成功了。你现在可以开始找搭子。\n\n你想找什么样的人？直接自然语言描述就行，例如：\n\n"
        "`找个北京周末能一起徒步/打网球的搭子`"
    )
    assert agent_asks(answer)
    assert agent_asks("Which repository should I use? For example: `org/app`")
    assert not agent_asks("Registered. For example, you can now search for partners.")


@pytest.mark.parametrize(
    "agent_text",
    [
        # a GSD checkpoint (wild sample 44) and its plain form
        'Type **"approved"** to continue, or describe any issues to fix.',
        'Type "approved" if user scan works correctly\n════════════\n```',
        # wild sample 45 (German): "waiting for your decision which way we go"
        "8. Warte auf deine Entscheidung welchen Weg wir gehen\n\n**COMPLETED:** Ottie spricht "
        "via MCP - warte auf Entscheidung für permanente Lösung.",
        "Both options are ready. Waiting for your decision.",
    ],
)
def test_a_checkpoint_that_waits_on_the_person_asks(agent_text: str) -> None:
    assert agent_asks(agent_text)
    reply = "there should be tests built into this codebase already. did we build new tests?"
    assert kind_of(reply, agent_text=agent_text, agent_acted=True) is TurnKind.FOLLOW_UP


def test_a_report_that_names_typing_or_waiting_asks_nothing() -> None:
    assert not agent_asks("Fixed the parser; you can type faster now without lag.")
    assert not agent_asks("The job is waiting for the runner; it starts in a minute.")
    assert not agent_asks("I can't say anything to confirm this without the logs.")


def test_a_bare_please_to_an_offer_accepts_it() -> None:
    """Wild sample 49 (Codex): "please" alone to the agent's "Want me to …?"."""
    offer = "Want me to add the missing spec tasks to tasks.md now?"
    assert kind_of("please", agent_text=offer, agent_acted=True) is TurnKind.APPROVAL


@pytest.mark.parametrize("text", ["ok, franchement top", "c'est top", "impeccable, merci"])
def test_french_praise_is_an_approval(text: str) -> None:
    assert lexicon_for().classify(text) is Feedback.APPROVAL


def test_top_of_the_page_is_no_praise() -> None:
    assert lexicon_for().classify("move the button to the top") is not Feedback.APPROVAL


def test_keep_doing_after_the_service_stopped_retries() -> None:
    """Wild sample 49: "keep doing" typed into a session resumed after it stopped."""
    assert kind_of("keep doing", agent_text="", after_service_error=True) is TurnKind.STEERING


@pytest.mark.parametrize("text", ["/statusline", "/statusline show the git branch and the model"])
def test_statusline_makes_the_agent_work(text: str) -> None:
    """Wild sample 50 (a dotfiles repository): `/statusline` starts an agent that reads the
    shell's settings and writes the status line script (its labeller: a new task)."""
    command = parse_command(text)
    assert command is not None and command.is_task


@pytest.mark.parametrize("text", ["好，开始重构", "可以，开始实施", "ok, let's start"])
def test_a_go_ahead_to_start_what_was_offered_accepts_it(text: str) -> None:
    """Wild sample 50 (Chinese, Codex): "OK, start refactoring" to "如果你确认，我下一步就直接
    按这个结构改仓库文件" (if you confirm, I'll change the files to this structure next)."""
    offer = "推荐落地结构：…\n\n如果你确认，我下一步就直接按这个结构改仓库文件。"
    assert kind_of(text, agent_text=offer, agent_acted=True) is TurnKind.APPROVAL


def test_vietnamese_typed_without_its_accents_greets_and_goes_on() -> None:
    """Wild sample 50: "xin chao" (hello) opens a session, "tiep tuc di" (go on) after the
    usage limit stopped the agent; people often type Vietnamese without its accents."""
    first = TurnInput(text="xin chao", has_episode=False)
    assert classify_turn(first, lexicon_for()).kind is TurnKind.HOUSEKEEPING
    assert kind_of("tiep tuc di", agent_text="", after_service_error=True) is TurnKind.STEERING
    assert kind_of("tiếp tục đi", agent_text="", after_service_error=True) is TurnKind.STEERING


def test_a_named_thing_that_hangs_is_a_failure_report() -> None:
    done = "The install script now checks for conflicting dotfiles before linking them."
    text = "the install script hangs at the checking for conflicts stage"
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


def test_still_as_even_is_no_state_that_outlived_the_fix() -> None:
    """One person's history (not in the repository): an answer to the agent's question."""
    text = (
        "There is some. Many repos have some documentation but not much. Fewer still have "
        "had detailed agent-centric helper files which give top level context."
    )
    asked = "What's your current artifact situation? Do you already have scattered notes?"
    assert kind_of(text, agent_text=asked, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild samples 44 and 47: what the agent should have known or done
        "I'm on Ubuntu 22.04. You should know this... I'm not headless I am typing the terminal "
        "in a gui session.",
        "you run it, until it actually works",
    ],
)
def test_holding_the_agent_to_what_it_should_have_known_or_done_is_a_correction(
    text: str,
) -> None:
    done = "Run `opk-gui` with QT_QPA_PLATFORM=offscreen since this machine looks headless."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    ["retry the upload until it works, then report the id", "you should know that the API moved"],
)
def test_a_plain_until_it_works_or_a_heads_up_is_no_correction(text: str) -> None:
    done = "The uploader now retries on 503 with a backoff."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 50: the agent's last attempt named, a question about it
        "when you tried executing bash commands and updating files right now you reported "
        "errors. why? do I need to authorize you?",
        "you said the tests pass, but which ones ran?",
    ],
)
def test_naming_the_agents_last_act_or_words_refers_back(text: str) -> None:
    assert points_back(" ".join(text.split()[:12]))


def test_you_in_a_request_of_its_own_refers_to_nothing() -> None:
    assert not points_back("when you add the login page, use the shared layout")


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 51: an application's error line, pasted after "it runs in production"
        "Error loading dashboard: Failed to fetch",
        "TypeError: Failed to fetch",
        "Error saving settings: 403 Forbidden",
    ],
)
def test_an_applications_error_line_is_a_pasted_error(text: str) -> None:
    done = "The dashboard is running in production behind Traefik with automatic certificates."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["Error handling: add retries with a backoff", "Error messages: make them friendlier"]
)
def test_a_heading_that_names_error_handling_is_no_pasted_error(text: str) -> None:
    done = "The uploader is in place."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "handle the Failed to fetch error when the user is offline",
        "catch TypeError: Failed to fetch and show a banner instead",
        "please add retries for Failed to load resource errors",
        "can you gracefully handle HTTP 503 from the upstream API",
        "return status 404 for unknown ids",
        "respond with HTTP 404 when the record is missing",
        # the error as the condition of what to do (the last stop's open case)
        "show a toast when we get Failed to fetch",
        "log a warning whenever we see TypeError: Cannot read properties of undefined",
    ],
)
def test_an_error_named_in_a_request_to_handle_it_is_no_pasted_error(text: str) -> None:
    done = "The dashboard is running in production behind Traefik with automatic certificates."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "please handle this:\nTypeError: Failed to fetch\n    at load (app.js:3:4)",
        "show me what you get when it fails:\nTypeError: Failed to fetch\n    at load (app.js:3:4)",
        # the error met, not asked about
        "I get Failed to fetch when I open the page",
    ],
)
def test_a_paste_below_a_request_to_handle_it_is_still_a_pasted_error(text: str) -> None:
    done = "The dashboard is running in production behind Traefik with automatic certificates."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 51 (Spanish): "the old version is still showing", after "the site
        # now serves the right version"
        "se sigue mostrando la version antigua",
        "sigue apareciendo el mismo mensaje",
        "o banner antigo continua aparecendo",
        "l'ancienne version s'affiche toujours",
        # wild sample 51: "it doesn't go anywhere", typed fast
        "i typed the url inmy browser, it dosent go anywhere, nothing yet",
    ],
)
def test_what_still_shows_or_goes_nowhere_after_the_fix_is_a_failure_report(text: str) -> None:
    done = "El sitio ahora está sirviendo la versión correcta del 1 de julio."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


def test_what_still_shows_fine_is_no_failure_report() -> None:
    done = "Cambié el encabezado y reinicié nginx."
    assert kind_of("se sigue viendo bien en el móvil?", agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["Yes immediately please", "ok, right away", "yes now"])
def test_a_yes_with_a_word_of_urgency_accepts_the_offer(text: str) -> None:
    """Wild sample 51: "Yes immediately please" to "Would you like me to address these
    critical issues before proceeding with the commit?"."""
    offer = "Would you like me to address these critical issues before proceeding with the commit?"
    assert kind_of(text, agent_text=offer, agent_acted=True) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # definitelyreal/speakfree line 111 (set 11): the agent looked at the wrong program
        "Wait it's a different program. What's the program that si running at my system start "
        "that shows the microphone icon?",
        # procrypto/Personal_AI_Infrastructure cef0d477 line 99 (set 13)
        "no there is no sidebar - are we definitely referencing the right documentation?",
        # yutakobayashidev/repiq f4_784ee5a009 line 121 (set 9): "I'm telling you to make it
        # inside dotnix/claude/rules; never from there"
        "dotnix/claude/rulesの中に作れって言ってる、そこからは決して",
    ],
)
def test_the_wrong_target_doubt_or_an_instruction_said_again_corrects(text: str) -> None:
    done = "I've updated the config in the project folder and restarted the service."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


def test_disbelief_at_what_the_agent_did_corrects() -> None:
    """procrypto/Personal_AI_Infrastructure 0b0c92fe line 37 (set 13): typed right after the
    person stopped the agent, with the agent's words pasted after it."""
    said = "I've changed to the web-terminal folder and I'm ready for your next request."
    text = (
        "wait,what. ⏺ The /cd changed directory but my first acknowledgment was just echoing "
        "the command"
    )
    assert kind_of(text, agent_text=said, agent_acted=True, after_interrupt=True) is (
        TurnKind.CORRECTION
    )
    # "wait, what about …" asks about more
    ask = "wait, what about the tests?"
    assert kind_of(ask, agent_text=said, agent_acted=True) is not TurnKind.CORRECTION


def test_another_approach_or_option_is_no_correction() -> None:
    done = "I've updated the config in the project folder and restarted the service."
    for text in ("it's a different approach, lets try it", "that is another option to consider"):
        assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


def test_the_persons_diagnosis_of_what_went_wrong_reports_a_failure() -> None:
    """procrypto/Personal_AI_Infrastructure cef0d477 line 259 (set 13): "the problem is ssl"
    after the agent's attempts to reach the service."""
    tried = "I've updated the webhook URL and restarted the server; the request still times out."
    assert kind_of("the problem is ssl", agent_text=tried, agent_acted=True) is TurnKind.CORRECTION
    # a problem named as the subject of new work opens no report
    ask = "there is a problem with the design I want to discuss"
    assert kind_of(ask, agent_text=tried, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # Monotoba/OpenPrintKit 97b66f6c line 234 (set 11), after the agent's README change
        "OK, I have a CI badge that says failing. Can you figure this out?",
        # dspurkayastha/Apollo bd_84f5776d75_17 line 102 (set 9), after the new view
        "i think the final qc never really completes",
    ],
)
def test_a_status_read_off_or_work_that_never_ends_reports_a_failure(text: str) -> None:
    done = "I've added the badges and the docs links to the README; the change is pushed."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION
    # a request for a badge that shows a state reports nothing
    ask = "create a badge that shows the build status"
    assert kind_of(ask, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


def test_an_offer_in_the_persons_language_copied_back_accepts_it() -> None:
    """hindermath/TinyCalc 019cc379 line 431 (set 12, Codex 0.111): the agent offers in German
    what it would do next; the person says yes and copies the offer back word for word."""
    offer = (
        "Ergebnis: **0 Warnungen, 0 Fehler** (für `MicroCalc.Core`).\n\nWenn du willst, mache "
        "ich als Nächstes das Gleiche für `MicroCalc.Tui` und schalte danach `CS1591` in "
        "`Release` als Fehler für produktive Projekte scharf."
    )
    text = (
        "ja, bitte als Nächstes das Gleiche für MicroCalc.Tui und schalte danach CS1591 in "
        "Release als Fehler\n  für produktive Projekte scharf."
    )
    assert kind_of(text, agent_text=offer, agent_acted=True) is TurnKind.APPROVAL
    # more than the offer ("… und dokumentiere es im README") asks for more of the work
    more = "ja, bitte das Gleiche für MicroCalc.Tui, und dokumentiere die neuen Regeln im README"
    assert kind_of(more, agent_text=offer, agent_acted=True) is not TurnKind.APPROVAL
    # the same in French and Spanish offers
    for said, reply in (
        ("Si tu veux, je peux ajouter les tests pour le parseur.", "oui, ajouter les tests"),
        ("Si quieres, puedo añadir las pruebas del parser.", "sí, añadir las pruebas"),
    ):
        assert kind_of(reply, agent_text=said, agent_acted=True) is TurnKind.APPROVAL, reply


@pytest.mark.parametrize("text", ["yes to both", "Yes to all", "ok, all of them"])
def test_a_yes_to_every_offer_at_once_accepts_them(text: str) -> None:
    """Monotoba/OpenPrintKit 97b66f6c lines 702-1035 (set 11): "yes to both", "yes to all"
    to the agent's offers of more work, nine times, each an acceptance with nothing new."""
    offer = (
        "Want me to map a few more fields (e.g., extrusion multipliers, cooling) or wire these "
        "into the GUI so the PDL editor can preview generated profiles with current settings?"
    )
    assert kind_of(text, agent_text=offer, agent_acted=True) is TurnKind.APPROVAL
    # a yes that adds a step of its own goes on with the task
    more = "yes, perform both steps and close PR#112 with a comment on what happened"
    assert kind_of(more, agent_text=offer, agent_acted=True) is not TurnKind.APPROVAL


@pytest.mark.parametrize("text", ["terrific", "fantastic, thanks", "wonderful!"])
def test_more_words_of_praise_approve(text: str) -> None:
    """Wild sample 51: "terrific" after the agent reported the viewer fixed."""
    assert lexicon_for().classify(text) is Feedback.APPROVAL


def test_outstanding_work_to_do_is_no_praise() -> None:
    assert lexicon_for().classify("do we have any plans outstanding") is not Feedback.APPROVAL


def test_asking_whether_to_restart_to_see_the_change_follows_up() -> None:
    """Wild sample 51: "do I need to restart or is there hot reload?" after the agent
    reported the viewer's new blend modes done."""
    done = "Done: the viewer now blends the edge weights; run the dev server to see it."
    text = "do I need to restart or is there hot reload?"
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.FOLLOW_UP
    assert not points_back("we need to restart the worker when it crashes")


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 52 (Portuguese, spaced as typed): "the sales screen isn't loading the
        # sales list", "everything stopped working again" (with its typo)
        "a tela de vendas não  esta carregando  a Lista de Vendas",
        "parou de funcoonar tudo novamente",
        "la lista no está cargando",
        "dejó de funcionar el login",
        # wild sample 52: the wrong thing still there in place of the right one
        "I'm afriad there is still a line rather than page break between title page and abstract",
    ],
)
def test_what_is_not_loading_or_stopped_working_is_a_failure_report(text: str) -> None:
    done = "A página de vendas agora deve carregar corretamente sem erros JavaScript."
    assert kind_of(text, agent_text=done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    ["we still prefer tabs instead of spaces", "keep the v1 API still instead of removing it"],
)
def test_a_preference_with_still_rather_than_is_no_failure_report(text: str) -> None:
    done = "I switched the formatter config."
    assert kind_of(text, agent_text=done, agent_acted=True) is not TurnKind.CORRECTION


def test_a_session_that_opens_with_the_agents_work_reads_its_first_turn_against_it() -> None:
    """Wild sample 51: a Claude Code 1.0.x session resumed into a new file opens with the
    agent's answers of the earlier session (copied there), then "ok we are in rclone, …",
    which reports doing what the agent asked and goes on with the file transfer."""
    b = (
        SessionBuilder()
        .bash("python3 -m http.server 8888", "Serving HTTP on 0.0.0.0 port 8888")
        .say(
            "Install rclone and run `rclone config` to connect your Google Drive. "
            "Tell me once you are in rclone."
        )
        .prompt("ok we are in rclone, save the file to drive and set up autosync")
    )
    [episode] = [e for e in segment(views(b), lexicon_for()) if e.intent_turn is not None]
    assert episode.intent_turn.decision.kind is TurnKind.FOLLOW_UP
    # with nothing before it, the first turn is the session's first request
    alone = SessionBuilder().prompt("save the file to drive and set up autosync")
    [first] = segment(views(alone), lexicon_for())
    assert first.intent_turn is not None
    assert first.intent_turn.decision.kind is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 53: the agent's claimed results doubted
        "I don't trust you, also did you try all of these: 1. Perceptual Priority Processing",
        "I am even skeptical about this one, thoroughly test the baseline and then this neural "
        "approximation",
        "Still looks too good to be true, test more carefully for any other issues we might "
        "have missed",
        "So what is different about that system, and I am still a bit skeptical so test again "
        "and then tell me",
    ],
)
def test_doubting_the_agents_result_is_a_correction(text: str) -> None:
    claim = "Breakthrough: the pipeline now runs at 19,300 FPS on the benchmark."
    assert kind_of(text, agent_text=claim, agent_acted=True) is TurnKind.CORRECTION


def test_doubting_an_approach_is_no_correction() -> None:
    text = "I'm skeptical of adding Redis, can we keep it in memory?"
    assert kind_of(text, agent_text="I added a Redis cache.", agent_acted=True) is not (
        TurnKind.CORRECTION
    )


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 53, after the person stopped the agent
        "why are you doing work? you should be creating a prd document, not creating projects.",
        "fucke me... start over. do you see the /prdq slash command? is that a thing?",
    ],
)
def test_work_thrown_away_or_set_against_what_was_wanted_is_a_correction(text: str) -> None:
    working = "I'll create the project structure now."
    assert kind_of(text, agent_text=working, after_interrupt=True) is TurnKind.CORRECTION


def test_starting_over_with_something_new_is_no_correction() -> None:
    assert kind_of("let's start over with a new design") is not TurnKind.CORRECTION


def test_a_thing_that_should_have_been_otherwise_is_a_failure_report() -> None:
    # wild sample 53 (jchidley/dotfiles)
    text = (
        "recheck the documentation for helix and my installation. The runtime directory "
        "should have been populated"
    )
    assert kind_of(text) is TurnKind.CORRECTION


def test_a_condition_before_the_agents_next_act_steers() -> None:
    # wild sample 53 (jchidley/dotfiles), after the agent laid out the changes it would make
    text = (
        "before you apply these changes, note that there are some other differences between "
        ".bashrc and the template"
    )
    plan = "Here are the changes I propose to .bashrc. Shall I apply them?"
    assert kind_of(text, agent_text=plan, agent_acted=True) is TurnKind.STEERING


@pytest.mark.parametrize("text", ["Okay start", "좋아", "좋아 ", "응", "그래", "진행해줘"])
def test_a_bare_go_ahead_accepts_the_offer(text: str) -> None:
    # wild sample 53: "Okay start" to the agent's plan; Korean "good" / "yes" / "go ahead"
    offer = "The event-based privacy system is designed. Shall I start building it?"
    assert kind_of(text, agent_text=offer, agent_acted=True) is TurnKind.APPROVAL


@pytest.mark.parametrize("text", ["exit", "quit", ":q", "bye", "login", "Exit."])
def test_a_word_that_leaves_the_program_is_housekeeping(text: str) -> None:
    # wild sample 53: "login" typed after API key errors; "exit" typed to leave (Claude Code
    # 0.2.x sessions of jchidley/dotfiles)
    assert kind_of(text) is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize("text", ["exit the loop when the list is empty", "login page is broken"])
def test_the_same_word_in_a_request_or_a_report_is_not_housekeeping(text: str) -> None:
    assert kind_of(text) is not TurnKind.HOUSEKEEPING


@pytest.mark.parametrize("text", ["clear", "Clear", "cls"])
def test_clear_typed_as_a_word_is_the_built_in_without_its_slash(text: str) -> None:
    # a history outside the repository (PackmindHub/context-evaluator, Apache-2.0):
    # "clear" typed after the agent's report, the way a shell's screen is cleared
    assert kind_of(text) is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("clear", "The retry now waits on the lock. Is that clear?"),
        ("clear", "The cache holds stale entries. Should I clear it?"),
        ("clear the cache and rerun the tests", DONE),
    ],
)
def test_clear_that_answers_or_asks_is_not_housekeeping(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is not TurnKind.HOUSEKEEPING


@pytest.mark.parametrize(
    ("command", "exit_code", "text"),
    [
        # wild sample 54 (gtr36/personal-health-graph, zsh on macOS): a lookup's own "not
        # found" lines are its answer
        ("which node npm pnpm bun 2>/dev/null", 1, "Exit code 1\nnode not found\nnpm not found"),
        ("which npm", 1, "Exit code 1\nwhich: no npm in (/usr/bin:/bin)"),
        # the chain stopped at the lookup, before the versions were asked
        ("which node && which npm && node --version", 1, "Exit code 1\nnode not found"),
        # wild sample 54 (maxnoobineating): grep found no line, so `&& ls` never ran
        ('ls -la /root/x/ | grep -E "^\\." && ls -la /root/x/', 1, "Exit code 1"),
        # wild sample 54 (ROI-DANINO, Claude Code 1.0): flagged with no code written
        ("which docker git npm node", None, "/usr/local/bin/npm\n/usr/local/bin/node"),
    ],
)
def test_a_lookup_or_a_question_that_stopped_the_chain_is_benign(
    command: str, exit_code: int | None, text: str
) -> None:
    assert is_benign_exit(command, exit_code, text)


@pytest.mark.parametrize(
    ("command", "exit_code", "text"),
    [
        ("which npm", 1, "Exit code 1\nzsh: permission denied: which"),
        ("grep -q foo f && rm f", 1, "Exit code 1\nrm: cannot remove 'f': Permission denied"),
        ("npm --version", None, "boom"),
        ("make && make install", 1, "Exit code 1"),
    ],
)
def test_a_failure_of_its_own_in_such_a_chain_is_not_benign(
    command: str, exit_code: int | None, text: str
) -> None:
    assert not is_benign_exit(command, exit_code, text)


def test_the_shell_named_by_its_path_saying_command_not_found_is_a_failure() -> None:
    # wild sample 54 (ROI-DANINO/linox-n8n): `ps aux | head -5` in a container without ps,
    # exit 0 through the pipe
    result = _result(2, 1, "/bin/bash: line 1: ps: command not found", exit_code=0)
    assert is_failed_result(result, _bash(1, "ps aux | head -5"))


def test_dash_failing_to_run_a_program_is_a_failure() -> None:
    # kcosr/chat-to-html examples/codex.jsonl line 289 (set 27's tool errors, read after its
    # blind scoring): `python -m http.server 8000 &` in a container without `python`; the
    # background `&` leaves exit 0
    codex = "Exit code: 0\nWall time: 0 seconds\nOutput:\n/bin/sh: 1: python: not found\n"
    result = _result(2, 1, codex, exit_code=0)
    assert is_failed_result(result, _bash(1, "python -m http.server 8000 &"))
    # the same line under Codex's header, from a command that hid nothing it could see
    assert is_failed_result(result, _bash(1, "python -m http.server 8000"))
    # a lookup's own "not found" answer stays an answer
    lookup = _result(2, 1, "python: not found", exit_code=0)
    assert not is_failed_result(lookup, _bash(1, "type python"))


def test_a_command_sent_to_the_background_hides_its_failure_from_the_exit_code() -> None:
    """`&` returns the status of starting the command: only the output tells."""
    output = (
        "Error: listen EADDRINUSE: address already in use :::3000\n"
        "    at Server.setupListenHandle [as _listen2] (node:net:1817:16)"
    )
    result = _result(2, 1, output, exit_code=0)
    assert is_failed_result(result, _bash(1, "node server.js &"))
    # in the foreground an exit status of 0 stands: the lines are what it printed
    assert not is_failed_result(result, _bash(1, "node server.js"))


def test_a_dev_servers_error_overlay_pasted_is_a_pasted_error() -> None:
    # wild sample 54 (thomas0369/claude_ai): Next.js's overlay copied after a request
    text = (
        "improve test mode!!!! Runtime Error\n\n\nA <Select.Item /> must have a value prop "
        "that is not an empty string.\n\ncomponents/ui/select.tsx (116:3) @ _c8\n\n\n"
        "  114 |   React.ComponentPropsWithoutRef<typeof SelectPrimitive.Item>\n"
        "> 116 |   <SelectPrimitive.Item\n      |   ^\nCall Stack\n21\n\n"
        "Show 19 ignore-listed frame(s)\n"
    )
    assert kind_of(text) is TurnKind.CORRECTION


def test_naming_an_error_overlay_to_build_is_no_pasted_error() -> None:
    assert kind_of("add a Runtime Error boundary to the page") is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 54 (isaacmorgado, jchidley)
        "the changes you made do not appear. Clear the cache and restart the dev server.",
        "that should be put into the user's claude.md not the project one",
        "this belongs in utils, not in the component",
    ],
)
def test_what_was_done_not_showing_or_put_in_the_wrong_place_is_a_correction(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


def test_a_prohibition_after_what_was_done_is_no_failure_report() -> None:
    assert kind_of("do what you did, do not push") is not TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["are you working now?", "you there?", "testing 1 2 3"])
def test_asking_whether_the_agent_answers_at_all_is_housekeeping(text: str) -> None:
    # wild sample 54 (maxxentropy/claudeops): "are you working now?" opening a session
    # after a run of API errors
    assert kind_of(text) is TurnKind.HOUSEKEEPING


@pytest.mark.parametrize("text", ["is it working now?", "are you working on the parser now?"])
def test_asking_about_the_result_or_the_work_is_not_housekeeping(text: str) -> None:
    assert kind_of(text) is not TurnKind.HOUSEKEEPING


def test_try_now_after_the_agents_setup_steps_goes_on_with_the_task() -> None:
    # wild sample 55 (isaacmorgado/claude-sovereign): the agent listed how to connect the
    # browser extension; the person did it
    steps = (
        "The extension isn't connected yet. Here's how to set it up:\n\n**Step 1: Install "
        "the extension** Open Chrome and go to the store page.\n**Step 2: Restart Chrome**"
    )
    turn = kind_of("try now", agent_text=steps, agent_acted=True, agent_ended=True)
    assert turn is TurnKind.FOLLOW_UP


def test_a_tool_saying_what_it_needs_is_not_there_is_a_failure() -> None:
    # wild sample 55: the Chrome extension's MCP tool, unflagged
    text = (
        "Browser extension is not connected. Please ensure the Claude browser extension is "
        "installed and running (https://claude.ai/chrome), and that you are logged in."
    )
    assert is_failed_result(_result(2, 1, text))
    assert not is_failed_result(_result(2, 1, "The server is not running yet; starting it."))


@pytest.mark.parametrize("text", ["$foo is not defined", "Uncaught x.map is not a function"])
def test_a_runtime_message_on_its_own_line_is_still_a_pasted_error(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["." * 12_000, "Thanks! Great work" + "." * 12_000])
def test_a_run_of_dots_is_read_like_any_other_text(text: str) -> None:
    # each of two patterns once spent seconds on such a run (a quadratic backtrack)
    assert kind_of(text) is not TurnKind.CORRECTION


@pytest.mark.parametrize("blank", ["\n" * 12_000, " \n" * 6_000, "\n- " * 4_000])
def test_a_run_of_blank_lines_is_read_like_any_other_text(blank: str) -> None:
    # line-start patterns once ran on through every line below each line start (a search
    # quadratic, for lettered options cubic, in the number of lines): the same readings,
    # in the person's text and in the agent's
    assert kind_of("fix the parser" + blank) is kind_of("fix the parser")
    assert kind_of("thanks", agent_text="Done, the tests pass." + blank) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 56 (maxxentropy/claudeops, thomas0369/claude_ai)
        "you can see it in the prompt, but it is not visible to me ( which is the whole point "
        "of this)",
        "this is the output... why is the command being blocked? UserPromptSubmit operation "
        "blocked by hook",
        "it passed, but still there is the svg that is rotating that looks like process",
    ],
)
def test_what_is_not_visible_why_it_is_blocked_and_what_is_still_there_are_reports(
    text: str,
) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "make sure the debug panel is not visible in production",
        "make sure the debug panel does not show in production",
        "why is the sidebar collapsible?",
        "if still there is no data, show a placeholder",
    ],
)
def test_a_requirement_or_a_plain_why_is_no_failure_report(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


def test_a_process_managers_log_with_a_status_code_is_a_pasted_error() -> None:
    # wild sample 56 (sttrsttr/riskbot): pm2's lines of a failed Discord request
    text = "0|riskbot | status: 403, 0|riskbot | method: 'POST', 0|riskbot | url: 'https://x'"
    assert kind_of(text) is TurnKind.CORRECTION


def test_going_back_with_a_pasted_error_on_the_line_is_still_a_pasted_error() -> None:
    text = "return to the previous version, Uncaught TypeError: x is undefined"
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "agent",
    [
        "I made a mistake in the last step; let me look at the config again.",
        "Created by the build: `dist/`. Do you want me to add it to .gitignore?",
    ],
)
def test_a_past_tense_that_claims_nothing_is_no_done_claim(agent: str) -> None:
    """Neither claims the work done: "made" is no verb of a done claim, and the question at
    the end is the agent's last word."""
    assert not agent_claims_done(agent) or agent_asks(agent)


def test_a_request_pasted_as_a_quote_block_is_read_not_dropped() -> None:
    """Wild sample 57 (not in the repository): every line of the request is a quote ("> …"),
    written elsewhere and pasted; it had read as a turn with no words."""
    text = (
        "> O arquivo de configuração mcp.json foi perdido no reinício.\n"
        "> Por favor, recrie o arquivo de configuração agora e registre o nosso servidor:\n"
        "> - Nome: mongo"
    )
    first = TurnInput(text=text, command=None, has_episode=False, agent_text="")
    assert classify_turn(first, lexicon_for()).kind is TurnKind.NEW_TASK
    # a quote of the agent's words answered below it is still left out of the reading
    assert feedback_region("> I renamed the module\n\nno, that broke the imports") == (
        "no, that broke the imports"
    )


@pytest.mark.parametrize(
    "text",
    [
        "commit with appropriate message",
        'Faça o git commit e push das alterações no CLAUDE.md com a mensagem "Docs: regras"',
        'git commit and push -m "wip: visual tweaks"',
        "push the changes of the README with the message 'docs: install steps'",
    ],
)
def test_a_closing_step_with_its_commit_message_is_still_the_closing_step(text: str) -> None:
    assert kind_of(text) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 57 (not in the repository): after the agent's sketch of a layout
        "Go ahead with the implementation",
        "proceed with the changes",
        "go ahead with the plan",
    ],
)
def test_the_go_ahead_for_the_proposal_as_it_stands_is_an_approval(text: str) -> None:
    sketch = "Updated rule:\n- Conversation rows show only avatar/logo.\n- No names appear."
    assert kind_of(text, agent_text=sketch) is TurnKind.APPROVAL
    # picking one of several is a follow-up
    assert kind_of("go ahead with option 2", agent_text=sketch) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 57 (not in the repository), after the agent's steps to install and log in
        "it wont let me since it keeps saying loop claude.ai\nVerify you are human by "
        "completing the action below.",
        # hostile: the same report in other words
        "it keeps asking me to log in again",
        "the installer doesn't let me pick a folder",
    ],
)
def test_steps_that_did_not_work_for_the_person_are_a_failure_report(text: str) -> None:
    steps = (
        "To set it up:\n1. Install the Claude extension from the Chrome Web Store\n"
        "2. Navigate to [claude.ai](https://claude.ai)\n3. Log in with your credentials\n\n"
        "Would you like me to help troubleshoot if you run into issues during setup?"
    )
    assert kind_of(text, agent_text=steps, agent_acted=False) is TurnKind.CORRECTION
    # the agent's plan for its own work is no steps for the person
    plan = "I'll:\n1. Add the model\n2. Create the endpoint\n\nShall I start?"
    assert kind_of("don't let me forget the docs", agent_text=plan, agent_acted=False) is not (
        TurnKind.CORRECTION
    )


@pytest.mark.parametrize("text", ["claude?", "Claude??", "codex?"])
def test_the_agent_called_by_name_alone_is_housekeeping(text: str) -> None:
    # wild sample 57 (not in the repository): "claude?" after the agent's login errors
    assert kind_of(text) is TurnKind.HOUSEKEEPING
    assert kind_of("claude? fix the build") is not TurnKind.HOUSEKEEPING


_OFFERS_THE_NEXT_STEP = (
    "Step 1 is done: the parser is in place and tests pass. Shall I move on to step 2, the "
    "exporter?"
)


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 58 (not in the repository): German and Turkish
        "ja, mach das",
        "önerinle devam edelim",
        # hostile: "yes, do it" and "go with your suggestion" in the other languages
        "oui, fais-le",
        "sí, hazlo",
        "sim, faça isso",
        "sì, fallo",
        "да, сделай это",
        "はい、お願いします",
        "네, 해주세요",
        "好的，做吧",
        "let's go with your suggestion",
    ],
)
def test_yes_do_it_in_any_language_accepts_the_proposal(text: str) -> None:
    assert kind_of(text, agent_text=_OFFERS_THE_NEXT_STEP) is TurnKind.APPROVAL
    # a request after the same words is no bare acceptance
    assert kind_of("mach das Logo größer", agent_text=_OFFERS_THE_NEXT_STEP) is not (
        TurnKind.APPROVAL
    )


def test_the_offered_act_named_without_a_yes_accepts_it() -> None:
    # wild sample 58 (not in the repository)
    offer = (
        "A Node process (PID 91170) is already using port 3001. Would you like me to kill it "
        "so your server can start?"
    )
    assert kind_of("kill it", agent_text=offer) is TurnKind.APPROVAL
    # more than the offer, or another act, goes on with the task
    assert kind_of("kill it and restart the server on 3002", agent_text=offer) is (
        TurnKind.FOLLOW_UP
    )
    assert kind_of("kill the other one", agent_text=offer) is TurnKind.FOLLOW_UP
    # the labelled set: a bare closing step stays the task's step
    assert kind_of("commit it", agent_text="Want me to commit these changes?") is (
        TurnKind.FOLLOW_UP
    )


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 58 (not in the repository), and wild sample 51 (not in the repository)
        "I'm getting an IP for the one running on sdf1 so it can be referenced directly.",
        "the effects we're seeing are extremely subtle if anything; what can we do to make them "
        "stronger?",
    ],
)
def test_what_the_person_is_fetching_or_describing_is_no_failure_report(text: str) -> None:
    assert kind_of(text, agent_acted=True) is not TurnKind.CORRECTION
    assert kind_of("i'm getting a 500 on /api/users", agent_acted=True) is TurnKind.CORRECTION
    assert kind_of("still seeing the old page", agent_acted=True) is TurnKind.CORRECTION


_CLAIMED_DONE = "That failed; I changed the code and it should be done."


@pytest.mark.parametrize("dash", ["—", "–", "-", ","])
def test_no_before_any_dash_says_no_to_the_result(dash: str) -> None:
    """An em dash after "no" is how many people type it (and the demo's simulated corrections
    do); it had read as a new request once the agent's "I changed …" counted as done."""
    text = f"no {dash} run `npm run typecheck` before saying it's done"
    assert kind_of(text, agent_text=_CLAIMED_DONE, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # wild sample 57 (not in the repository)
        "Do not add the full names",
        # hostile: constraints on the work just reported
        "don't edit the database by hand; use `alembic revision --autogenerate`",
        "never commit straight to main",
    ],
)
def test_a_constraint_after_the_agents_report_is_no_new_task(text: str) -> None:
    assert kind_of(text, agent_text=_CLAIMED_DONE, agent_acted=True) is not TurnKind.NEW_TASK


#: set 21 (savekirk/session-bridge): the agent's sketch of a chat row, each agent's name
#: beside its avatar, then "Do not add the full names"
_SKETCH_WITH_NAMES = (
    "- Agent row: use agent logo if available. Always show the resolved agent name next to the "
    "avatar, for example `Claude Code`.\n\nIf you want, I can refine this into a wireframe."
)


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        ("Do not add the full names", _SKETCH_WITH_NAMES),
        ("Do not add the full name of the agent as well", _SKETCH_WITH_NAMES),
        # hostile: the same form on other work
        ("never commit straight to main", "Committed the fix to main as 3f2a1c0."),
        ("don't add a footer", "Added a footer with the links and the copyright line."),
    ],
)
def test_forbidding_what_the_agent_just_showed_rejects_it(text: str, agent_text: str) -> None:
    """Forbidding an act on what the agent's result shows is a verdict on that part of it,
    as the labellers read it, not a constraint on later work."""
    assert kind_of(text, agent_text=agent_text, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "don't edit the database by hand; use `alembic revision --autogenerate`",
        # a reminder or a reassurance about what the agent named forbids nothing
        "don't forget to add a footer to the other pages",
        "don't worry about the footer",
        # the words every report shares name nothing the agent showed
        "don't touch the test files",
    ],
)
def test_forbidding_what_the_agent_never_did_is_no_verdict(text: str) -> None:
    agent_text = "Added a footer with the links and the copyright line. The tests pass."
    assert kind_of(text, agent_text=agent_text, agent_acted=True) is not TurnKind.CORRECTION


#: the agent's answer to another reading of the request
_ANSWERED_OTHER_READING = (
    "The TUI lists sessions in a table. Use the arrow keys to move and Enter to open one. "
    "Anything else you want to explore?"
)


@pytest.mark.parametrize(
    "text",
    [
        # jcleira/entire-local 90_fd1086eb5d line 166, after the agent answered with next steps
        "I mean, actions in the TUI what entire CLI commands I can issue",
        # hostile: the same repair in other words and languages
        "no, I meant the other config file",
        "what I meant is the header, not the footer",
        "je veux dire : les actions dans le TUI",
    ],
)
def test_restating_what_was_meant_repairs_the_agents_reading(text: str) -> None:
    """A person restating what they meant says the agent got the request wrong."""
    assert kind_of(text, agent_text=_ANSWERED_OTHER_READING) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "I mean, it works, but can you also add a dark mode?",
        "I mean, can you also add a dark mode?",
        "I mean it, great job",
        "I mean, that's fine for now",
    ],
)
def test_the_filler_i_mean_is_no_repair(text: str) -> None:
    assert kind_of(text, agent_text=_ANSWERED_OTHER_READING) is not TurnKind.CORRECTION


#: jcleira/entire-local f9_85592be1d6 line 60: the agent answers a report that the markdown
#: shows raw by saying it renders, and asks back
_EXPLAINS_AWAY = (
    "Wait, looking at the screenshot more carefully, I can see the markdown IS being rendered "
    "in the Prompt section. Could you clarify what specifically looks wrong?"
)


@pytest.mark.parametrize(
    "text",
    [
        # the reply to it (line 65)
        'none of them, please don\'t yoiu see all the "#"?',
        # JanDeDobbeleer/oh-my-posh 5f_7d1158f007 line 66, after the agent said the change
        # sat uncommitted on another branch
        "but I'm on main here, I added it nromally.",
        # hostile: the same insistence in other words
        "nothing, the page is exactly the same as before",
    ],
)
def test_insisting_after_a_correction_keeps_the_verdict(text: str) -> None:
    """The person reported a failure, the agent explained it away or asked back: a reply
    that opens against that answer keeps the verdict."""
    turn = kind_of(text, agent_text=_EXPLAINS_AWAY, previous=TurnKind.CORRECTION)
    assert turn is TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "previous"),
    [
        ("but can you also make the headers bold?", TurnKind.CORRECTION),
        ("but what about the Context section?", TurnKind.CORRECTION),
        ("nope, works now, thanks", TurnKind.CORRECTION),
        # no complaint stood before it: a "but" alone judges nothing
        ("but I'm on main here, I added it nromally.", TurnKind.FOLLOW_UP),
    ],
)
def test_a_but_that_asks_or_withdraws_is_no_insistence(text: str, previous: TurnKind) -> None:
    turn = kind_of(text, agent_text=_EXPLAINS_AWAY, previous=previous)
    assert turn is not TurnKind.CORRECTION


def test_an_attachment_alone_is_no_request() -> None:
    """A pasted image or an attached PDF with no words asks nothing anyone could replay."""
    from sleepd.mining.persist import readable

    assert not readable("[document: application/pdf, 91311 bytes]")
    assert not readable("[image: image/png, 66273 bytes]")
    assert readable("[document: application/pdf, 91311 bytes]\nsummarise this paper")
    # Claude Code's own placeholders, where the person pasted into the prompt box
    assert not readable("[Image #1]")
    assert not readable("[Pasted text #1 +36 lines]")
    assert readable("[Image #1] the header overlaps the logo")


def test_a_pasted_placeholder_is_no_words_of_the_persons() -> None:
    """Durban-Designer/vsla dc7e9081 line 42: Claude Code writes "[Image #1]" into the typed
    text where a screenshot was pasted; the turn's words are the rest, as the clustering of
    requests reads them too."""
    from sleepd.mining.turns.text import has_words, word_count

    assert word_count("[Image #1] You made them all yollieblue101") == 5
    assert word_count("[Pasted text #1 +36 lines]\nfix these") == 2
    assert not has_words("[Image #1] [Image #2]")
    assert has_words("[Image #1] still broken")


def test_github_refusing_an_api_call_behind_a_pipe_is_an_error() -> None:
    """Set 8 (admarble/sequant 31_2247b8093c lines 29-30): `gh api …/issues/405/comments
    --jq … 2>/dev/null | head -300` printed GitHub's 404 body and exited 0."""
    body = (
        '{"message":"Not Found","documentation_url":"https://docs.github.com/rest/issues/'
        'comments#list-issue-comments","status":"404"}'
    )
    command = "gh api repos/tonypls/sequant/issues/405/comments --jq '.[].body' 2>/dev/null"
    call = _bash(1, command + " | head -300")
    assert is_failed_result(_result(2, 1, body), call)
    assert judge_errors([call, _result(2, 1, body)]).verdicts[2].kind == "root"
    # gh's own line for it, and curl asking the same API
    assert is_failed_result(_result(2, 1, "gh: Not Found (HTTP 404)"), _bash(1, "gh api x || true"))
    curl = _bash(1, "curl -s https://api.github.com/repos/o/r")
    assert is_failed_result(_result(2, 1, body.replace("404", "403")), curl)
    # a body that only quotes such a message further down, and a listing of issues, are not
    listing = '[{"number":405,"title":"docs","state":"open","message":"Not Found in docs"}]'
    assert not is_failed_result(_result(2, 1, listing), _bash(1, "gh api repos/o/r/issues"))
    quoted = 'grep result:\n  docs.md: {"message":"Not Found","documentation_url":"https://docs.github.com/"}'
    assert not is_failed_result(_result(2, 1, quoted), _bash(1, "rg -n Not docs | head"))


def test_a_relative_clause_describing_what_to_build_is_no_failure_report() -> None:
    """Set 8 (admarble/sequant c3_f64b6697ce line 72): "that shows" opens a relative
    clause of the request, not a report of what the work shows."""
    answer = "Here is the assessment: the plugin layer is solid, the state layer is thin."
    for request in (
        "can you create a diagram that shows our ideal architecture design?",
        "add an endpoint that returns the users of a team",
        "write a script that prints the totals per day",
    ):
        assert kind_of(request, agent_text=answer) is TurnKind.NEW_TASK, request
    # "that" as the thing the agent made, alone or after a conjunction, still reports
    for report in ("that shows an error now", "but that returns 404", "hmm, that throws"):
        assert kind_of(report, agent_text=DONE) is TurnKind.CORRECTION, report


def test_a_pasted_terminal_that_opens_with_a_command_is_no_command() -> None:
    """Set 8 (admarble/sequant 2d_0decedb231 line 36): a run of `/sequant:setup` in
    another terminal pasted whole, Claude Code's marks and all, is not that command typed
    here."""
    pasted = (
        "/sequant:setup ⏺ I'll run the Sequant setup. Let me start by checking prerequisites"
        " and detecting your project.\n  ⎿  Running PreToolUse hook…"
    )
    assert parse_command(pasted) is None
    assert parse_command("/sequant:setup --force") == SlashCommand("sequant:setup", "--force")
    assert parse_command("/fix the ● bullet rendering") == SlashCommand(
        "fix", "the ● bullet rendering"
    )


def test_a_pipe_far_into_a_long_command_still_hides_its_exit() -> None:
    """A command is read whole for the pipe that takes its status: test ids made this one
    longer than the line a task shows (blind set 7's shape; made-up names), and a script's
    pipe may sit on its second line."""
    ids = " ".join(f"tests/test_cards.py::test_card_model_keeps_its_{n}_column" for n in "ab")
    long = f"pytest {ids} -v 2>&1 | tail -30"
    output = (
        "E       AssertionError: assert 'legacy' not in names\n"
        "tests/test_cards.py:9: AssertionError"
    )
    assert len(long) > 120
    assert is_failed_result(_result(2, 1, output), _bash(1, long))
    script = "cd app\nnpm test 2>&1 | tail -5"
    assert is_failed_result(_result(2, 1, " 3 failing\n"), _bash(1, script))
    # the same outputs from commands that kept their exit status (0) are no failure, and a
    # here-document's body is data: its `||` and `|` hide nothing
    assert not is_failed_result(_result(2, 1, output), _bash(1, f"pytest {ids} -v"))
    heredoc = "cat > check.sh <<'EOF'\nrun || exit 1\ngrep x | wc -l\nEOF\nbash check.sh"
    assert not is_failed_result(_result(2, 1, output), _bash(1, heredoc))


def test_the_last_command_of_a_long_chain_decides_a_benign_exit() -> None:
    """ClusterCockpit b9_544ef2c54f line 29: the chain's last command, past the 120
    characters a task shows of it, is an `ls` of a path that may not be there (exit 2, its
    error thrown away): the answer to a probe, not a failure."""
    root = "/Users/jan/prg/ClusterCockpit/cc-backend/internal"
    command = (
        f'find {root}/graph/generated -maxdepth 1 -name "*.go" | head -5 && '
        f"ls {root}/api/docs.go 2>/dev/null && ls {root}/api/docs/ 2>/dev/null"
    )
    output = f"Exit code 2\n{root}/graph/generated/generated.go\n{root}/api/docs.go"
    call, result = _bash(1, command), _result(2, 1, output, exit_code=2, is_error=True)
    assert judge_errors([call, result]).verdicts[2].kind == "benign"


def test_a_status_the_command_printed_of_itself_is_read() -> None:
    """Set 9 (yutakobayashidev/repiq 24_723c7a3c59 line 151): `…; echo "exit: $?"` keeps
    the shell's status at 0 and prints the real one last; a printed 0 is no failure, and a
    search's printed 1 is its "no match"."""
    hook = '.git/hooks/commit-msg.pre-entire /tmp/test-msg2.txt 2>&1; echo "exit: $?"'
    output = (
        "bug: pre-commit's script is installed in migration mode\n"
        "run `pre-commit install -f --hook-type commit-msg` to fix this\n\n"
        "commitizen check.........................................................Passed\n"
        "exit: 1"
    )
    call, result = _bash(1, hook), _result(2, 1, output)
    assert is_failed_result(result, call)
    assert judge_errors([call, result]).verdicts[2].kind == "root"
    passed = output.replace("exit: 1", "exit: 0")
    assert not is_failed_result(_result(2, 1, passed), call)
    search = _bash(1, 'grep -q "x" notes.md; echo "Exit code: $?"')
    verdict = judge_errors([search, _result(2, 1, "Exit code: 1")]).verdicts[2]
    assert verdict.kind == "benign"
    # a pre-commit hook that passed, and the printed status, never name the failure
    signed = signature_of(output, "Bash").text
    assert "Passed" not in signed and "exit: 1" not in signed and signed


def test_a_printed_status_is_read_past_the_echos_own_exit_0() -> None:
    """jdx/mise's Codex history (outside the repository): `git merge-base --is-ancestor X
    origin/main; echo $?` printed "1", "not an ancestor", an answer, and Codex reported the
    echo's own exit 0; the printed status was read only where no exit came with the
    result, so the answer had been a root failure (two of them one pattern, "<n>")."""
    command = "git merge-base --is-ancestor c80f993e753826a0 origin/main; echo $?"
    call = _call(1, "exec_command", json.dumps({"cmd": command}))
    output = "Chunk ID: 399cda\nWall time: 0.0000 seconds\nProcess exited with code 0\nOutput:\n1\n"
    verdict = judge_errors([call, _result(2, 1, output, exit_code=0)]).verdicts[2]
    assert verdict.kind == "benign"
    # a printed status that is a failure of its command stays one
    build = _call(1, "exec_command", json.dumps({"cmd": "cargo build; echo $?"}))
    failed = "Process exited with code 0\nOutput:\nerror[E0425]: cannot find value `x`\n101\n"
    assert judge_errors([build, _result(2, 1, failed, exit_code=0)]).verdicts[2].kind == "root"


def test_npm_10s_error_block_behind_a_pipe_is_an_error() -> None:
    """Set 9 (dspurkayastha/Apollo bd_84f5776d75 17, line 80): `npx tsc … | head -40`
    where npx could not even fetch tsc; npm 10 writes "npm error", not "npm ERR!"."""
    output = (
        "npm error code EACCES\nnpm error syscall mkdir\nnpm error path /Volumes/DEV_EXT\n"
        "npm error errno EACCES"
    )
    call = _bash(1, "npx tsc --noEmit --project apps/web/tsconfig.json 2>&1 | head -40")
    assert is_failed_result(_result(2, 1, output), call)


def test_no_commit_yet_is_the_answer_to_a_question_about_history() -> None:
    """Set 9 (repiq 21_80385332df line 39): `git log` in a repository made minutes before
    answers that there is no history yet; a failure of another kind beside it still counts."""
    command = 'git log --oneline -5 2>&1; echo "---"; git remote -v 2>&1; echo "---"; ls -la 2>&1'
    output = (
        "fatal: your current branch 'main' does not have any commits yet\n---\n---\n"
        "drwxr-xr-x yuta users 4.0 KB Wed Feb 25 03:39:54 2026 ."
    )
    call, result = _bash(1, command), _result(2, 1, output)
    assert is_failed_result(result, call)
    assert judge_errors([call, result]).verdicts[2].kind == "benign"
    worse = output + "\nls: cannot access 'src': Permission denied"
    assert judge_errors([call, _result(2, 1, worse)]).verdicts[2].kind == "root"


@pytest.mark.parametrize(
    "text",
    [
        # set 9 (yutakobayashidev/repiq 24_723c7a3c59 line 40, f4_784ee5a009 line 107)
        "違う、単純にP5を消すだけで良かっ足",
        "いや別にシンボリックリンクなくても読み込まれるよ",
        # the same "no," in Chinese and Korean (made up)
        "不对，应该只删掉P5",
        "아니, P5만 지우면 돼",
    ],
)
def test_a_no_in_a_language_without_spaces_says_no_to_the_result(text: str) -> None:
    done = "Done. I rewrote the epic list and removed P5 and P6 from the plan."
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION
    # "いやー" is a sigh of delight, and "違う観点" a different angle: no "no"
    assert kind_of("いやー、すごい！完璧", agent_text=done) is not TurnKind.CORRECTION
    assert kind_of("違う観点でも見てほしい", agent_text=done) is not TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["うん", "じゃあそうしよう", "じゃあして", "それでお願いします"])
def test_a_plain_japanese_yes_to_an_offer_accepts_it(text: str) -> None:
    """Set 9 (repiq 21_80385332df lines 147, 165, 329): "yeah", "then let's do that",
    "then do it", said to the agent's offer."""
    offer = "SoW を更新しました。実装に進めますか？"
    assert kind_of(text, agent_text=offer) is TurnKind.APPROVAL


def test_a_failure_the_call_said_it_expected_is_benign_unless_it_could_not_start() -> None:
    """Set 9 (repiq 21_80385332df lines 270-271 and 261-262): the agent's own description
    of a Bash call says what it expects ("Test commit-msg hook rejects bad message"); the
    hook's refusal is then the answer, but a `cz: command not found` is not what it tested."""
    repo = "/home/yuta/ghq/github.com/yutakobayashidev/repiq"

    def call(command: str, description: str) -> EventView:
        return _call(1, "Bash", json.dumps({"command": command, "description": description}))

    commit = (
        f"nix develop {repo} -c sh -c 'git add flake.nix && git commit -m \"bad message\" 2>&1';"
        ' echo "exit: $?"'
    )
    hook = call(commit, "Test commit-msg hook rejects bad message")
    refused = (
        "commitizen check.........................................................Failed\n"
        "- hook id: commitizen\n- exit code: 14\n\ncommit validation: failed!\nexit: 1"
    )
    assert judge_errors([hook, _result(2, 1, refused)]).verdicts[2].kind == "benign"
    check = call(
        f'nix develop {repo} -c sh -c \'echo "bad message" | cz check\' 2>&1; echo "exit: $?"',
        "Test commitizen rejects bad commit message",
    )
    missing = "sh: line 1: cz: command not found\nexit: 127"
    assert judge_errors([check, _result(2, 1, missing)]).verdicts[2].kind == "root"
    # the same refusal with a description that expects nothing is a failure
    plain = call(commit, "Commit the flake")
    assert judge_errors([plain, _result(2, 1, refused)]).verdicts[2].kind == "root"


def test_a_regression_the_person_names_corrects() -> None:
    """procrypto/Personal_AI_Infrastructure 0b0c92fe line 25 (set 13): queued while the
    agent ran, after it had lost the folder it was told to work in."""
    said = (
        "SUMMARY: No GSD project initialized in current directory\nANALYSIS: The `.planning/`"
        " directory doesn't exist in this feature branch."
    )
    assert (
        kind_of("you had it a second ago", agent_text=said, agent_acted=True, queued=True)
        is TurnKind.CORRECTION
    )
    for text in ("it was working a minute ago", "this worked fine before your change"):
        assert kind_of(text, agent_text=said, agent_acted=True) is TurnKind.CORRECTION
    # what made it work, or what the agent had to do, is no regression
    for text in ("it was working before I restarted the server", "you had to restart it"):
        assert kind_of(text, agent_text=said, agent_acted=True) is not TurnKind.CORRECTION


def test_denying_what_the_agent_wrote_corrects() -> None:
    """MythologIQ/Zo-Qore 019b7b12 line 97 (set 14): the agent had written the project's
    personas into the README, Synapse among them."""
    said = (
        "Added a Modules section with the primary persona/service entry points and key "
        "registry/lifecycle/config paths in `README.md`."
    )
    text = (
        "Synapse is not an agent persona, in fact Sentry should providing oversight of that module."
    )
    assert kind_of(text, agent_text=said, agent_acted=True) is TurnKind.CORRECTION
    # a denial of something the agent never said, or the person's own hedge, judges nothing
    other = "Synapse is not a priority for this release, add the Vault module next."
    assert kind_of(other, agent_text=said, agent_acted=True) is not TurnKind.CORRECTION
    hedge = "i think it is not a persona thing, just add the section for the modules"
    assert kind_of(hedge, agent_text=said, agent_acted=True) is not TurnKind.CORRECTION


def test_claude_codes_powershell_tool_is_read_as_a_shell() -> None:
    # polecatspeaks/StarCar 25_071b0849bd line 617 (Claude Code 2.1.218 on Windows): a
    # PowerShell script whose `git ls-tree -r -l … --name-only` refused its options, the
    # script's status that of its last line (is_error false)
    script = json.dumps(
        {
            "command": 'Write-Host "=== checkpoint branch tree ==="\n'
            "git ls-tree -r -l entire/checkpoints/v1 --name-only | Select-Object -First 40\n"
            "(git ls-tree -r entire/checkpoints/v1 --name-only | Measure-Object).Count"
        }
    )
    output = (
        "=== checkpoint branch tree ===\n"
        "error: options '--name-only' and '-l' cannot be used together\n\n53"
    )
    events = [_call(1, "PowerShell", script), _result(2, 1, output, is_error=False)]
    assert judge_errors(events).verdicts[2].kind == "root"
    # one failure, whichever shell tool ran it
    failed = "Exit code 128\nfatal: not a git repository (or any of the parent directories): .git"
    assert signature_of(failed, "PowerShell").digest == signature_of(failed, "Bash").digest


def test_a_poll_answering_that_its_background_command_failed_is_its_failure() -> None:
    # M-Thisness/M-Claude 343e3472 line 303 (set 19): `TaskOutput` of an ssh run in the
    # background, unflagged
    polled = (
        "<retrieval_status>success</retrieval_status>\n\n<task_id>bdea11d</task_id>\n\n"
        "<task_type>local_bash</task_type>\n\n<status>failed</status>\n\n<exit_code>255"
        "</exit_code>\n\n<output>\nssh: connect to host zima.thisness.us port 22: Connection "
        "timed out\n</output>"
    )
    events = [
        _call(1, "TaskOutput", '{"task_id": "bdea11d", "block": true, "timeout": 15000}'),
        _result(2, 1, polled),
    ]
    assert judge_errors(events).verdicts[2].kind == "root"
    # the older `BashOutput` says it the same way
    assert is_failed_result(_result(1, 0, "<status>failed</status>\n\n<exit_code>1</exit_code>"))
    # a task still running or done, a poll that timed out, a file that mentions the tag
    for text in (
        "<status>running</status>\n\n<stdout>\n> vite\n</stdout>",
        "<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<stderr>\nUninstalled 1 "
        "executable\n</stderr>",
        "<retrieval_status>timeout</retrieval_status>\n\n<task_id>b1</task_id>\n\n<status>"
        "running</status>",
        "     1\t<job>\n     2\t  <status>failed</status>\n     3\t</job>",
        # FSM1/cipher-box's history (outside the repository): a subagent's research report,
        # read once it completed, quoting the deployment's error on a line of its own
        "<retrieval_status>success</retrieval_status>\n\n<task_id>aef9ffc</task_id>\n\n"
        "<task_type>local_agent</task_type>\n\n<status>completed</status>\n\n<output>\nI now "
        "have complete understanding of the issue.\n\n## Migration Failure Research Report\n"
        '\n```\nMigration failed: QueryFailedError relation "shares" does not exist\n```',
    ):
        assert not is_failed_result(_result(1, 0, text)), text
    # a subagent's task that failed is a failure, as a command's is
    agent_failed = polled.replace("local_bash", "local_agent").replace("<exit_code>255", "<x>")
    assert is_failed_result(_result(1, 0, agent_failed))
    # the envelope is a background read's: a command that printed a file opening so went
    # through, and the read of a failed task under another tool's name is that tool's answer
    printed = _call(1, "Bash", '{"command": "cat status.xml"}')
    assert not is_failed_result(_result(2, 1, "<status>failed</status>\n<id>7</id>"), printed)
    assert is_failed_result(_result(2, 1, polled), _call(1, "TaskOutput", '{"task_id": "b"}'))


@pytest.mark.parametrize(
    ("command", "exit_code", "output", "benign"),
    [
        # alexinslc/rekap 16_46c831b166 line 130 (set 21, scored blind): `gh pr checks` while
        # the checks run, its documented exit 8 ("Checks pending")
        (
            "gh pr checks 112 2>&1",
            8,
            "Exit code 8\nSocket Security: Project Report\tpending\t0\thttps://socket.dev\t\n"
            "Test\tpending\t0\thttps://github.com/alexinslc/rekap/actions/runs/24298678461",
            True,
        ),
        ("gh pr checks 112", 1, "Exit code 1\nTest\tfail\t0\thttps://example.com/run/1", False),
        ("gh run view 1", 8, "Exit code 8\nsomething", False),
        # rekap 16_46c831b166 line 86: `gofmt -d`, which since Go 1.26 exits 1 when it
        # prints a difference
        (
            "gofmt -s -d internal/collectors/uptime_test.go",
            1,
            "Exit code 1\ndiff internal/collectors/uptime_test.go.orig "
            "internal/collectors/uptime_test.go\n--- internal/collectors/uptime_test.go.orig\n"
            '+++ internal/collectors/uptime_test.go\n@@ -43,8 +43,8 @@\n-\t\t\tname: "a",\n'
            '+\t\t\tname:     "a",',
            True,
        ),
        ("gofmt -d bad.go", 1, "Exit code 1\nbad.go:3:1: expected declaration, found x", False),
        ("gofmt -l .", 1, "Exit code 1\na.go", False),
    ],
)
def test_a_status_that_answers_the_question_asked(
    command: str, exit_code: int, output: str, benign: bool
) -> None:
    assert is_benign_exit(command, exit_code, output) is benign


def test_a_fetch_whose_model_refused_the_page_as_too_long_failed() -> None:
    # isaacmorgado/claude-sovereign 0ca5dba1 line 67 (set 22, scored blind): WebFetch of a
    # 1.4 MB page, unflagged, its whole answer the model's refusal
    events = [
        _call(1, "WebFetch", '{"url": "https://developer.adobe.com/premiere-pro/uxp/", '
              '"prompt": "Show the methods available on the Project class"}'),
        _result(2, 1, "Prompt is too long"),
    ]  # fmt: skip
    assert judge_errors(events).verdicts[2].kind == "root"
    # the words inside an answer are not that refusal
    page = "The API returns 413 when the prompt is too long; trim the input first."
    assert not is_failed_result(_result(1, 0, page))


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        # qiushiyan/duet examples/codex-session.jsonl line 63 (set 27): zsh read the
        # parentheses of a Next.js route folder as a glob, so rg never searched
        (
            'rg -n "afterAcceptInvitation|teams" src/lib/server/auth.ts src/app/(auth)/org/invite'
            " -g '*.ts'",
            1,
            "Chunk ID: 8dc40a\nWall time: 0.0000 seconds\nProcess exited with code 1\n"
            "Original token count: 13\nOutput:\n"
            "zsh:1: no matches found: src/app/(auth)/org/invite\n",
        ),
        # the same file, line 399: the refusal comes after the output of the command before it
        (
            "nl -ba src/features/billing/schemas.ts | sed -n '1,70p' && rg -n ownerEmail "
            "src/app/(portal) -g '*.ts'",
            1,
            '     1\timport { z } from "zod";\n     2\t\n'
            + "".join(f"    {n}\t  seat: z.number(),\n" for n in range(3, 40))
            + "zsh:1: unknown sort specifier\n",
        ),
        # a directory that is not there refused by bash, and a search program missing
        ("cd web && grep -rn TODO .", 1, "bash: line 1: cd: web: No such file or directory"),
        ("cd web; ls dist", 2, "zsh:cd:1: no such file or directory: web\nls: dist: No such file"),
        ("rg -n TODO src", 1, "sh: 1: rg: not found"),
        ("grep -rn TODO src/(app)", 1, "(eval):1: unknown file attribute: a"),
    ],
)
def test_a_question_the_shell_refused_to_put_is_not_benign(
    command: str, code: int, output: str
) -> None:
    """A search's or a probe's exit 1 answers "no" only when it ran: a line where the shell
    itself refused the command (a glob, a missing directory or program) makes it an error."""
    assert not is_benign_exit(command, code, output)


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        # what the shell says of itself on every call of some machines is no refusal
        ("grep -rn TODO src", 1, "bash: warning: here-document at line 3 delimited by end-of-file"),
        ("rg -n TODO src", 1, "bash: no job control in this shell"),
        # bash's `type` says "not found" as its answer; a match that names a shell file
        ("type rg", 1, "bash: type: rg: not found"),
        ("grep -rn zsh src", 1, ""),
    ],
)
def test_a_shell_line_that_refuses_nothing_leaves_the_answer_benign(
    command: str, code: int, output: str
) -> None:
    assert is_benign_exit(command, code, output)


#: qiushiyan/duet examples/codex-session.jsonl line 94 (set 27): the agent had ended on its
#: own review of the docs; the person pastes an issue and asks for an analysis of it.
_PASTED_ISSUE = (
    'I received this following github issue titled "additional permissions for org admins"\n\n'
    "full content is\n\n```\nCurrently, only owners can manage billing and add seats (we "
    "think). A user was an admin and expected the ability to start subscription and add "
    "seats, but was unable to.\n\nOwners should be able to transfer ownership.\n```\n\n"
    "can you verify our existing implementation based on this statement, whether it is 100% "
    "true or not, analyze what would be a reasonable UX/UI improvement to make."
)
_REVIEW_ENDED = (
    "One mismatch I noticed: `docs/auth.md` says sessions expire after 30 days, but "
    "src/lib/server/auth.ts configures `expiresIn` as 90 days. I'll treat the code as runtime "
    "truth and the doc as stale unless we update it."
)


def test_a_long_request_that_brings_its_own_material_is_new_though_it_points() -> None:
    """A pointing word ("this following issue") points at the issue pasted below it, not
    at the exchange; nor does a review brief laid out over its own lines ("Review it
    critically. For each point: …") hang on the agent's last answer."""
    assert (
        kind_of(_PASTED_ISSUE, agent_text=_REVIEW_ENDED, agent_acted=True, agent_ended=True)
        is TurnKind.NEW_TASK
    )
    brief = (
        "Based on our discussion, I've drafted a spec for this feature. Review it critically.\n\n"
        "For each point:\n- If you agree: add technical suggestions, caveats, or risks.\n"
        "- If you disagree: give reasons and a concrete alternative.\n\n"
        "Weigh technical merit and UX goals together. Challenge assumptions and propose "
        "alternatives whenever they would lead to a better outcome.\n\n---\n\n"
        "# Spec: admin billing\n\nAdmins manage billing; owners keep custody."
    )
    assert (
        kind_of(brief, agent_text=_REVIEW_ENDED, agent_acted=True, agent_ended=True)
        is TurnKind.NEW_TASK
    )


def test_a_long_request_that_points_without_material_of_its_own_goes_on_with_the_task() -> None:
    """chikachow/cyspbot checkpoint 08/1cbadb653608: three lines that point at the plan being
    made ("this extracted application", "this revised use case") refine it."""
    text = (
        "I intend to use this extracted application from other gcp-deployed services, with "
        "requests towards the token-broker being authorised with a gcp oidc token. Update the "
        "implementation plan and design to accommodate this use case\nConsider this revised use "
        "case as part of holistic design\nInclude specific design of the gcp native platform "
        "services like secret manager"
    )
    assert (
        kind_of(text, agent_text=_REVIEW_ENDED, agent_acted=True, agent_ended=True)
        is not TurnKind.NEW_TASK
    )


def test_pointing_at_what_the_agent_used_and_denying_it_is_a_correction() -> None:
    """Durban-Designer/vsla 6dc88126 line 15 (set 30; the address replaced): stopped while
    it rewrote the commits' author, the person denies the address it was writing, though
    the agent's words never named it; typed after the stop, still a correction."""
    agent = (
        "I'll help you update the commits to use the correct author. Let me first check your "
        "GitHub configuration and then fix the commit history."
    )
    for text in (
        "Thats not my email though its royce@example.com",
        "that isn't the right branch, we work on develop",
        "this is not our repo",
    ):
        assert (
            kind_of(text, agent_text=agent, agent_acted=True, after_interrupt=True)
            is TurnKind.CORRECTION
        ), text
    # waving a worry away denies nothing the agent did
    for text in ("That's not a problem, go on", "It's not the end of the world, carry on"):
        assert kind_of(text, agent_text=agent, agent_acted=True) is not TurnKind.CORRECTION, text


def _agent_says(i: int, text: str) -> EventView:
    return EventView(i, i, "assistant_text", "assistant", text, None, None)


def test_a_permission_prompt_the_person_closed_with_a_stop_is_no_failure() -> None:
    """MQFacultyOfArts/PromptGrimoireTool spike-1 lines 47-49 (set 32, Claude Code 2.1.6 in
    VS Code): the person stopped the agent while its permission prompt was open; the
    extension writes the closed prompt as the call's error."""
    events = [
        _call(1, "Bash", json.dumps({"command": "uv run python -m promptgrimoire &"})),
        _result(
            2,
            1,
            "Tool permission request failed: AbortError\nError: Tool permission request failed: "
            "AbortError",
            is_error=True,
        ),
    ]
    assert judge_errors(events).verdicts[2].kind == "benign"
    # an abort inside the tool's own work is still its failure
    fetch = [
        _call(1, "WebFetch", '{"url": "https://example.com"}'),
        _result(2, 1, "AbortError: The operation was aborted due to timeout", is_error=True),
    ]
    assert judge_errors(fetch).verdicts[2].kind == "root"


def test_a_failure_the_agent_meant_to_see_is_judged_by_its_next_words() -> None:
    """Denubis/claude-code-research-transcript-hook a0688338 lines 41-66 (set 32): testing
    its CLI's error messages, the agent announced "Test error message when no input
    provided" and met another error ("The `isatty()` check isn't working …": a failure);
    later an unannounced run printed the message it wanted ("Now that's the correct error
    message."): the error path checked on purpose."""

    def run(command: str, description: str) -> EventView:
        return _call(1, "Bash", json.dumps({"command": command, "description": description}))

    wrong = "Exit code 1\nError: Invalid JSON input: Expecting value: line 1 column 1 (char 0)"
    events = [
        run(
            'claude-research-transcript --local --title "Test" 2>&1',
            "Test error message when no input provided",
        ),
        _result(2, 1, wrong, exit_code=1, is_error=True),
        _agent_says(
            3,
            "The `isatty()` check isn't working because stdin is being piped (empty). Let me fix "
            "that to handle both TTY and empty piped stdin.",
        ),
    ]
    assert judge_errors(events).verdicts[2].kind == "root"
    # the same announcement, with nothing said against the result, stays the expected failure
    assert judge_errors(events[:2]).verdicts[2].kind == "benign"
    right = (
        "Exit code 1\nError: Empty stdin. Either pipe JSON via stdin (hook mode) or use "
        "--transcript and --session-id arguments"
    )
    probe = run(
        'claude-research-transcript --local --title "Test" < /dev/null 2>&1',
        "Test with /dev/null as stdin after full reinstall",
    )
    confirmed = [
        probe,
        _result(2, 1, right, exit_code=1, is_error=True),
        _agent_says(3, "Now that's the correct error message. Let me test the manual path."),
    ]
    assert judge_errors(confirmed).verdicts[2].kind == "benign"
    # "as expected" further on, about something else, confirms nothing
    later = _agent_says(
        3, "Perfect! Let's run a final test to verify everything is working as expected:"
    )
    assert (
        judge_errors([probe, _result(2, 1, right, exit_code=1, is_error=True), later])
        .verdicts[2]
        .kind
        == "root"
    )


def test_a_path_probe_that_provides_for_its_own_no_hides_no_failure() -> None:
    """JanDeDobbeleer/oh-my-posh 09_11216ed051 line 31 and nisargpatel28/artifact-hub
    5b983582 (set 17): `ls` asked whether a path exists and `||` gave its "no" an answer
    ("NOT EXECUTED - safe", "no __tests__ dir (good)"); unflagged and unlabelled, they had
    been read as hidden failures."""
    probe = _bash(
        1,
        "bash -c 'x=\"\\$(touch /tmp/omp_test_exec_marker)\"'\n"
        'ls -la /tmp/omp_test_exec_marker 2>&1 || echo "NOT EXECUTED - safe"\n'
        "rm -f /tmp/omp_test_exec_marker",
    )
    said = (
        "$(touch /tmp/omp_test_exec_marker)\nls: cannot access '/tmp/omp_test_exec_marker': No "
        "such file or directory\nNOT EXECUTED - safe"
    )
    assert not is_failed_result(_result(2, 1, said), probe)
    build = _bash(
        1,
        'cd apps/api && rm -rf dist && pnpm build 2>&1 && echo "---" && (ls '
        'dist/apps/api/src/__tests__/ 2>&1 || echo "no __tests__ dir (good)")',
    )
    printed = (
        "$ tsc\n---\nls: cannot access 'dist/apps/api/src/__tests__/': No such file or "
        "directory\nno __tests__ dir (good)"
    )
    assert not is_failed_result(_result(2, 1, printed), build)
    # a listing piped on wanted what it lists (bestlove1211/opencode c4bee496, wild set):
    # Git Bash ate the backslashes, and the missing path is a failure
    listing = _bash(1, "ls -la C:\\Users\\tvi\\ | grep -i opencode | grep -v node_modules")
    lost = "ls: cannot access 'C:Userstvi ': No such file or directory"
    assert is_failed_result(_result(2, 1, lost), listing)
    # and another program's "no such file" behind the same fallback is still its failure
    other = _bash(1, "cat notes.md || echo missing")
    assert is_failed_result(_result(2, 1, "cat: notes.md: No such file or directory"), other)


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        # MQFacultyOfArts/PromptGrimoireTool ffc93f57 lines 1751-1753 and 1793-1795 (set
        # 32b): the agent's Bash commands open with a comment line; the comment had hidden
        # the whole command, so grep's "no match" read as a failure
        ("# Check if Noto Sans Deseret is available on the system\nfc-list | grep -i deseret", 1,
         "Exit code 1"),
        ("# What does fonts-noto metapackage include?\napt-cache depends fonts-noto 2>/dev/null "
         '| head -40\necho "---"\n# What Noto is currently installed?\ndpkg -l | grep fonts-noto',
         1, "Exit code 1\nfonts-noto\n  Depends: fonts-noto-core\n---"),
        ("grep -rn TODO src  # anything left?", 1, ""),
    ],
)  # fmt: skip
def test_a_comment_in_a_command_hides_nothing_of_it(command: str, code: int, output: str) -> None:
    assert is_benign_exit(command, code, output)


def test_shell_words_drop_comments_as_a_shell_does() -> None:
    from sleepd.mining.errors.shell import shell_words

    assert shell_words("# Check it\nfc-list | grep -i x") == ["fc-list", "|", "grep", "-i", "x"]
    assert shell_words("make test  # all of it\nmake lint") == ["make", "test", ";", "make", "lint"]
    # a "#" inside a word or quotes opens no comment
    assert shell_words("git log --format=%h#%s") == ["git", "log", "--format=%h#%s"]
    assert shell_words('grep "#include" x') == ["grep", "#include", "x"]
    assert shell_words("echo ${#arr} $#") == ["echo", "${#arr}", "$#"]


def test_a_coverage_gate_that_failed_the_run_is_a_failure_behind_a_pipe() -> None:
    """Denubis/claude-code-research-transcript-hook 8b2825a0 lines 356-357 (set 32b, read
    after scoring): `uv run pytest -v 2>&1 | tail -30`, every test passed, and pytest-cov
    failed the run below its threshold; the pipe hid the exit."""
    run = _bash(1, "uv run pytest -v 2>&1 | tail -30")
    tail = (
        "TOTAL                                         382    110    152     24    69%\n"
        "Coverage HTML written to dir htmlcov\n"
        "FAIL Required test coverage of 80.0% not reached. Total coverage: 69.29%\n"
        "============================== 53 passed in 0.22s =============================="
    )
    assert is_failed_result(_result(2, 1, tail), run)
    report = _bash(1, "coverage report --fail-under=80 | tail -3")
    said = "TOTAL 382 110 69%\nCoverage failure: total of 69 is less than fail-under=80"
    assert is_failed_result(_result(2, 1, said), report)
    # a gate that was met is no failure
    met = tail.replace(
        "FAIL Required test coverage of 80.0% not reached. Total coverage: 69.29%",
        "Required test coverage of 80.0% reached. Total coverage: 91.02%",
    )
    assert not is_failed_result(_result(2, 1, met), run)


def test_an_mcp_servers_error_in_its_json_result_is_a_failure_signed_by_its_words() -> None:
    """MQFacultyOfArts/PromptGrimoireTool ffc93f57 lines 35, 70, 262 and 319 (set 32b, read
    after scoring): Serena's tools answer unflagged, inside '{"result": "…"}'; signed as
    JSON, every such error had been the one signature '{<q>:<q>}'."""
    search = _call(1, "mcp__serena__search_for_pattern", '{"substring_pattern": "latex"}')
    no_match = (
        '{"result":"Error executing tool: ValueError - Error: No matches of search expression '
        "found in file 'tests/unit/test_latex_packages.py'.\"}"
    )
    too_long = (
        '{"result":"The answer is too long (789836 characters). Please try a more specific '
        'tool query or raise the max_answer_chars parameter."}'
    )
    for text in (no_match, too_long):
        assert is_failed_result(_result(2, 1, text), search)
    signed = {
        signature_of(t, "mcp__serena__search_for_pattern", None).text for t in (no_match, too_long)
    }
    assert len(signed) == 2 and not any(s.startswith("{") for s in signed)
    # a result that is the answer is none
    found = '{"result":"{\\"src/latex.py\\": [\\"  12: def render_latex(\\"]}"}'
    assert not is_failed_result(_result(2, 1, found), search)


def test_a_call_that_checks_how_bad_input_is_handled_expects_its_refusal() -> None:
    """Denubis/claude-code-research-transcript-hook 8b2825a0 lines 503-506 (set 32b, read
    after scoring): "Check CLI behavior with empty JSON input", then with invalid JSON; the
    CLI's refusals are what was checked."""

    def run(command: str, description: str) -> EventView:
        return _call(1, "Bash", json.dumps({"command": command, "description": description}))

    probe = run(
        "echo '{}' | claude-research-transcript 2>&1 | head -5",
        "Check CLI behavior with empty JSON input",
    )
    refused = "Error: Missing transcript_path or session_id in input"
    assert judge_errors([probe, _result(2, 1, refused, exit_code=1)]).verdicts[2].kind == "benign"
    # the behaviour with a new flag is no bad input
    plain = run("claude-research-transcript --local 2>&1", "Check the behavior with the new flag")
    assert judge_errors([plain, _result(2, 1, refused, exit_code=1)]).verdicts[2].kind == "root"


def test_trouble_said_to_remain_after_the_attempt_is_a_failure_report() -> None:
    """MQFacultyOfArts/PromptGrimoireTool ffc93f57 line 1478 (set 32b, read as tuning data):
    after the agent's committed fix and its offer to test it further, "nope, there's still
    alignment problems." says the fix did not hold; it had read as an answer."""
    offer = (
        "This ensures word index 5 in the UI maps to word index 5 in the export.\n\n"
        "Would you like me to test this against the production workspace content to "
        "verify the markers are now correctly positioned?"
    )
    for text in (
        "nope, there's still alignment problems.",
        "still getting the same errors after the rebuild",
        "it still has issues with long urls",
    ):
        assert kind_of(text, agent_text=offer) is TurnKind.CORRECTION, text
    # a question whether trouble remains, and remaining work named, report nothing
    for text in ("are there still issues?", "fix the remaining issues too"):
        assert kind_of(text, agent_text=offer) is not TurnKind.CORRECTION, text


def test_disliking_what_was_shown_or_dismay_at_it_is_a_correction() -> None:
    """Set 32b (read as tuning data): Denubis 8b2825a0 line 517, "Ok, I don't like this
    behaviour: ```/transcript …```" after the agent's done claim; MQFacultyOfArts ffc93f57
    line 1199, "sorry, what the fuck? I spent so much time making the markers go down
    properly. Why aren't we doing that?" right after the person stopped the agent. Each
    judges the result without naming a failure; both had read as going on with the task."""
    done = "All 81 tests pass with 80.23% coverage. The CLI now auto-discovers the transcript."
    pasted = (
        "Ok, I don't like this behaviour:\n\n```/transcript\nBased on this conversation, I'll "
        'generate a title and archive it.\nTitle: "Fix CLI Auto-Discovery"\n```'
    )
    assert kind_of(pasted, agent_text=done) is TurnKind.CORRECTION
    working = "This is a word index mismatch. Let me check the word counting:"
    dismay = (
        "sorry, what the fuck? I spent so much time making the markers go down properly. "
        "Why aren't we doing that?"
    )
    assert kind_of(dismay, agent_text=working, after_interrupt=True) is TurnKind.CORRECTION
    # MQFacultyOfArts ffc93f57 line 2073: an oath opening the turn, after the agent's offer
    offered = "There are no code changes to commit. Would you like me to: 1. Commit the deletions"
    oath = "crap. We were working on something. go look in the log of the prior convo."
    assert kind_of(oath, agent_text=offered) is TurnKind.CORRECTION
    assert kind_of("Damn, that was fast. Now add the tests", agent_text=done) is not (
        TurnKind.CORRECTION
    )
    # a dislike of an idea still to be tried, or of something else, judges no result
    proposes = "I could switch the exporter to LuaLaTeX. Want me to try that?"
    for text in ("I don't like this idea, let's keep pdflatex", "I don't like to wait, be quick"):
        assert kind_of(text, agent_text=proposes) is not TurnKind.CORRECTION, text


def test_pythons_missing_module_pasted_from_a_terminal_is_a_pasted_error() -> None:
    """MQFacultyOfArts/PromptGrimoireTool 8c497bed line 325 (set 32, read as tuning data):
    after the agent's summary of the spike, the person pastes what the app's start printed
    in their terminal; `python -m` writes the missing module alone, with no exception name."""
    summary = "| Sync within <100ms | `test_sync_happens_within_100ms` |"
    pasted = (
        "❮ uv run python -m promptgrimoire\n\n/home/brian/people/Brian/PromptGrimoire/.venv/bin/"
        "python3: No module named promptgrimoire.__main__; 'promptgrimoire' is a package and "
        "cannot be directly executed"
    )
    assert kind_of(pasted, agent_text=summary) is TurnKind.CORRECTION
    # the same app started fine is no report
    started = (
        "❮ uv run python -m promptgrimoire\n\nPromptGrimoire v0.1.0\nStarting application on "
        "http://localhost:8080"
    )
    assert kind_of(started, agent_text=summary) is not TurnKind.CORRECTION


def test_praise_with_a_word_of_degree_is_a_verdict() -> None:
    """MQFacultyOfArts/PromptGrimoireTool 8c497bed line 337 (set 32, read as tuning data):
    "ok. That's really cool." after the agent showed the spike working accepts it; it had
    read as going on with the task."""
    shown = "Both tabs now show the same text within 100ms. The spike works end to end."
    for text in ("ok. That's really cool.", "this is so much better", "That is impressive!"):
        assert kind_of(text, agent_text=shown) is TurnKind.APPROVAL, text
    # praise with more asked, and advice, are no bare verdict
    for text in (
        "that's really cool, but can you also add a dark mode?",
        "it is really good practice to add tests",
    ):
        assert kind_of(text, agent_text=shown) is not TurnKind.APPROVAL, text


def test_a_result_that_is_only_the_shells_refusal_is_a_failure_behind_a_pipe() -> None:
    """ClusterCockpit/cc-backend 14_328c112325 line 25 and jcleira/entire-local f9_85592be1d6
    line 102 (labelled root), qiushiyan/duet's Codex session lines 330-333 (route-group
    folders unquoted under `nl -ba … | sed`): zsh refused a glob that matched nothing, so
    nothing of the line ran, and the pipe's last command exited 0."""
    changelog = 'ls *.md CHANGELOG* 2>/dev/null; find . -name "CHANGELOG*" | grep -v .git'
    glamour = "/Users/arvos/go/pkg/mod/glamour*"
    route = "src/app/(auth)/org/[orgSlug]/page.tsx"
    cases = [
        ("Bash", {"command": changelog}, "(eval):1: no matches found: CHANGELOG*"),
        (
            "Bash",
            {"command": f'find {glamour} -name "dark*.go" | head -5'},
            f"(eval):1: no matches found: {glamour}",
        ),
        (
            "exec_command",
            {"cmd": f"nl -ba {route} | sed -n '1,200p'"},
            "Chunk ID: e825a4\nWall time: 0.0000 seconds\nProcess exited with code 0\n"
            f"Original token count: 22\nOutput:\nzsh:1: no matches found: {route}",
        ),
    ]
    for tool, command, output in cases:
        call = _call(1, tool, json.dumps(command))
        assert is_failed_result(_result(2, 1, output, exit_code=0), call), output
    # a refusal among the answers the line printed (a count that printed 0 after it) may be
    # the answer the line looked for (FSM1/cipher-box ba_8f57dd43e3 line 58)
    counts = json.dumps(
        {"command": "ls .planning/phases/13/*-UAT.md 2>/dev/null | wc -l; ls x | wc -l"}
    )
    answered = "       5\n(eval):1: no matches found: .planning/phases/13/*-UAT.md\n       0"
    assert not is_failed_result(_result(2, 1, answered, exit_code=0), _call(1, "Bash", counts))


def test_a_command_cut_inside_a_quote_keeps_its_program() -> None:
    # Codex 0.2x's `["apply_patch", "*** Begin Patch …"]` (JaydenXsoe/ocodex's labelled
    # sessions): a long patch is one quoted argument, and the command is read only to its
    # first characters, so the quote is cut; the patch's lines are no commands
    command = full_command(
        json.dumps({"command": ["apply_patch", "*** Begin Patch\n*** Update File: a.rs\n" * 400]})
    )
    assert program_of(command[:COMMAND_READ_CHARS]) == "apply_patch"
    assert program_of('echo "unterminated') == "echo"
    assert program_of("cat x | grep 'foo") == "grep"
    # an argument list that hands a shell its script is the script; other lists keep each
    # argument one word
    for argv, program in (
        (["bash", "-lc", "pytest -q && echo ok"], "echo"),
        (["powershell.exe", "-NoProfile", "-Command", "rg --files | rg speckit"], "rg"),
        (["C:\\Windows\\System32\\cmd.exe", "/c", "dir"], "dir"),
        (["rg", "-n", "foo bar", "src"], "rg"),
    ):
        assert program_of(full_command(json.dumps({"command": argv}))) == program, argv
    assert full_command(json.dumps({"command": ["rg", "-n", "foo bar", "src"]})) == (
        "rg -n 'foo bar' src"
    )


def test_a_search_that_reads_a_pipe_is_told_from_one_over_files() -> None:
    from sleepd.mining.errors import reads_a_pipe

    for command, piped in (
        ("npm run build 2>&1 | grep error", True),
        ('ssh host "journalctl -u app | grep -i fail"', True),
        ("rg -n 'foo bar' src", False),
        ("cat a | grep x && rg y src", False),  # the chain ends with a search over files
        ("grep -rn TODO . | head -20", True),  # head reads grep's lines
    ):
        assert reads_a_pipe(command) is piped, command


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # held-out set 28 (ebridges/wakil, in the repository): the agent wrote the act
        # hyphenated, the person with a space
        (
            "yes force push",
            "Your local `main` has now diverged from `origin/main` since this rewrites the "
            "pushed commit. Want me to force-push to sync `origin/main` to this new history?",
        ),
        # the other way round, and another compound (hostile cases)
        ("yes, re-run them", "Two tests were flaky. Want me to re run the tests?"),
        ("yes, do the dry-run", "Should I do a dry run of the migration?"),
    ],
)
def test_a_yes_restating_a_hyphenated_offer_accepts_it(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # promoted set 24 (TensorTemplar/slopometry, in the repository), to the agent's
        # "Want me to prototype this as a new analysis in the `latest` output?"
        "good idea, lets proceed like that and the stop hook can show you that as well so "
        "you get to consider it",
        # hostile cases: the go-ahead with more work joined by "and"
        "great, go ahead and also add a footer",
        "sounds good, proceed and make sure the tests cover the empty case as well",
    ],
)
def test_a_go_ahead_with_more_work_joined_by_and_is_a_follow_up(text: str) -> None:
    agent = "This feels tractable. Want me to prototype this as a new analysis?"
    assert kind_of(text, agent_text=agent) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        "good idea, lets proceed like that",
        "perfect, it works and the tests pass too",
        "great, that works and it also fixed the flicker",
        "great job and thanks again too",
    ],
)
def test_a_verdict_that_goes_on_reporting_or_thanking_stays_one(text: str) -> None:
    agent = "Want me to prototype this as a new analysis?"
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # Durban-Designer/vsla (in the repository): the screen after the agent's report
        (
            "[image: image/png, 257534 bytes]\n[Image #1]",
            "Your git config is now set correctly. All commits in this repository already show "
            '"Durban-Designer" as the author.',
        ),
        # a 984 MB history outside the repository (isaacmorgado/claude-sovereign, MIT): the
        # screen after "Done! … Let me know if the refresh fixes it", showing the same error
        (
            "[image: image/png, 116342 bytes]",
            'Done! I\'ve updated the Vercel token. Now click "Refresh MCP Servers" in your '
            "settings panel. Let me know if the refresh fixes it or if you still see the "
            "connection error!",
        ),
    ],
)
def test_a_screenshot_sent_alone_after_the_work_reports_on_it(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


def test_a_screenshot_that_answers_another_question_or_comes_with_words_is_read_by_them() -> None:
    asked = "I drafted two layouts. Which of the two do you prefer for the header?"
    assert kind_of("[Image #1]", agent_text=asked) is not TurnKind.CORRECTION
    assert kind_of("[Image #1] works now, thanks!") is TurnKind.APPROVAL


@pytest.mark.parametrize(
    ("agent", "awaits"),
    [
        ("Let me know if the refresh fixes it or if you still see the error!", True),
        ("Rebuilt the app. Let me know if the new build works for you.", True),
        ("Let me know if the users table exists in your database.", False),
    ],
)
def test_asking_whether_the_change_worked_awaits_a_verdict(agent: str, awaits: bool) -> None:
    assert agent_awaits_verdict(agent) is awaits


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # savekirk/session-bridge (in the repository), after the agent's report
        (
            "Should be aligned with just the avatar in the middle",
            "Adjusted the conversation row layout so the message body is vertically centered "
            "against the avatar-plus-time column. The change is in "
            "src/components/sessionDetailsPanel.ts: each `.turn` now uses centered grid "
            "alignment, the avatar/time stack no longer has a top offset.\n\n"
            "Verification: `pnpm test` passed.",
        ),
        # reality2-roycdavies/cosmic-bing-wallpaper (in the repository)
        (
            "the installation instructions for the released appimage should mention the installer",
            "Pushed: Updated README with installation instructions. The repo is up to date "
            "with origin/main.",
        ),
        # a 984 MB history outside the repository (isaacmorgado/claude-sovereign, MIT)
        (
            "the live images should be for when you open the contributing ratios pop up, not "
            "the drop downs",
            "All the implementation from the previous session is complete and working. "
            "Here's the summary: 1. Smart Drawer System - FaceOverlay component.",
        ),
        # the same history: what should be, set against what the agent made of it
        (
            "The buttons should have that neon blue but the hover animations should stay with "
            "white lettering. Apply this globally",
            "Done. All changes complete: Updated global colors to neon blue (#00f3ff): "
            "--accent: #00f3ff, --accent-hover: #67f9ff.",
        ),
        # hostile: a dotted file name does not end the statement's sentence
        (
            "the README.md should mention the installer. Thanks",
            "Pushed: Updated README.md with installation instructions.",
        ),
    ],
)
def test_how_the_result_should_be_said_right_after_it_was_reported_is_a_correction(
    text: str, agent: str
) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "the footer should also show the version",  # adds to the result
        "we should add a footer with the version",  # a plan, not the result described
        "should it be aligned left?",  # a question
        # what the person expects of it: a check to make (the same history)
        "this should work after signing up and paying in STRIPE, I want to make sure all "
        "API endpoints work correctly",
    ],
)
def test_a_should_that_adds_plans_asks_or_expects_is_no_correction(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # Denubis/claude-code-research-transcript-hook a0688338 (in the repository), after
        # the agent reported the transcript archived
        "that error is not a good error",
        "this layout isn't very clear",  # a hostile case of the same verdict
    ],
)
def test_a_turn_that_opens_by_finding_what_was_made_wanting_is_a_correction(text: str) -> None:
    done = (
        "The transcript was archived successfully. The archive includes:\n- HTML files for "
        "viewing (`index.html`, `page-001.html`)\n- Session metadata (`session.meta.json`)"
    )
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "the cache is not a good idea here, drop it from the plan",  # a plan judged
        "I know the tests were not very clear before, can you add docstrings to them?",
    ],
)
def test_wanting_said_of_a_plan_or_of_how_things_were_is_no_such_verdict(text: str) -> None:
    agent = "I could add a cache in front of the parser. Want me to?"
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # kcosr/chat-to-html's Codex session (in the repository), after the agent served
        # the generated HTML
        "Check the usage instructions, you generated them but wrote this to the files: "
        "chat-to-html - Convert",
        "you fixed the header but broke the footer",  # hostile cases of the same fault
        "you ran the migration but never seeded the table",
    ],
)
def test_what_the_agent_did_set_against_what_it_then_did_is_a_correction(text: str) -> None:
    done = "You can view the generated HTML files at http://localhost:8000/output/claude.html"
    assert kind_of(text, agent_text=done) is TurnKind.CORRECTION


def test_what_the_agent_did_then_a_but_that_asks_for_more_is_no_correction() -> None:
    done = "I added the tests for the parser and they pass."
    asked = kind_of("you added the tests, but can you also add docs?", agent_text=done)
    assert asked is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # Durban-Designer/vsla dc7e9081 (in the repository): a screenshot and this, after
        # the agent's history rewrite
        (
            "[Image #1] You made them all yollieblue101",
            "Force pushed: updated both main and feature branches on GitHub.\n\nAll commits "
            'should now show "Durban-Designer" on GitHub instead of "yollieblue101". The '
            "history rewrite is complete and pushed to your repository.",
        ),
        # hostile: the same report in other words
        (
            "it's still showing the spinner",
            "I replaced the spinner with a progress bar. Reload the page to see it.",
        ),
    ],
)
def test_seeing_the_state_the_agent_said_was_gone_is_a_correction(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # a 984 MB history outside the repository (isaacmorgado/claude-sovereign, MIT):
        # after "All OpenVPN client functionality has been completely removed", an order
        "uninstall all traces of OpenVPN Server",
        "yes remove the OpenVPN client config backups too",  # a yes with more
        "what else did the OpenVPN client leave behind?",  # a question
    ],
)
def test_naming_what_was_gone_in_an_order_or_a_question_is_no_such_report(text: str) -> None:
    agent = "Done: I removed the OpenVPN client and its config backups from your router."
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION
    # (the same words stated, not ordered, are the report)
    assert kind_of("the OpenVPN client is still there", agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # admarble/sequant c3_f64b6697ce (in the repository)
        (
            "can you create a diagram that shows our ideal architecture design?",
            "Batch 3 (after #503 + #504 merge) └── #508 In-process MCP engine\n\n**Start with "
            "batch 1.** Want me to kick it off?",
        ),
        # randlee/claude-history (in the repository)
        (
            "oh, can you make a LICENSE file with the MIT license?",
            "You will need to push this to a git repo first though, since Render deploys from "
            "GitHub. Want me to `git init` and set things up for an initial commit?",
        ),
        # a 984 MB history outside the repository (isaacmorgado/claude-sovereign, MIT)
        (
            "Write me a guide on when to use each agent",
            "5. **Give context > Assume it knows**\n\nWant me to help craft prompts "
            "specifically for your plugin's AI features?",
        ),
    ],
)
def test_asking_for_something_new_instead_of_the_offer_is_a_new_task(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # melagiri/code-insights dc_2d3772f669 (in the repository): changes to what is there
        "I want to make some changes, i don't want monthly-rotating machine ids",
        # points back at the exchange
        "Create a document that I can refer to with this implementation. break it down",
        "can you add a test for that too?",
        # what the agent offered, in the person's words
        "can you make a commit for these changes with a good message?",
    ],
)
def test_making_more_of_the_same_or_the_offer_itself_is_no_new_task(text: str) -> None:
    agent = "The telemetry now hashes the machine id. Want me to commit these changes?"
    assert kind_of(text, agent_text=agent) is not TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # nakamura-shuta/tij 3c_79e00521d9 (in the repository): "tell me the next task candidates"
        "次のタスク候補教えて下さい",
        "下一个任务是什么",  # hostile: the same ask in Chinese
    ],
)
def test_a_request_typed_in_cjk_after_an_open_invitation_is_a_new_task(text: str) -> None:
    invitation = "Hello! 何かお手伝いできることはありますか？"
    assert kind_of(text, agent_text=invitation) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # sam-fakhreddine/wfc 17_db6fe79ce7 (in the repository): "them" stands for what the
        # message named in the plural
        "check for merge conflicts and fix them",
        # reality2-roycdavies/cosmic-bing-wallpaper (in the repository): an "it" that
        # stands for nothing
        "how can we make it so that when the app is first run, it gets an icon in the panel?",
        "is it possible to add a dark mode toggle",  # hostile cases of the same
        "it would be nice to have a footer with the version",
    ],
)
def test_a_pronoun_that_stands_for_nothing_before_the_message_points_nowhere(text: str) -> None:
    assert not points_back(" ".join(text.split()[:12]))


@pytest.mark.parametrize(
    "text",
    [
        "make it smaller",
        "fix them",
        "it seems broken now",
        "rerun them please",
        # what "them" stands for is what the exchange made, named in the plural
        "use both of the ones you showed and merge them",
    ],
)
def test_a_pronoun_that_stands_for_the_exchange_still_points_back(text: str) -> None:
    assert points_back(text)


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # maxnoobineating/UbuntuDevcontainer_Dotfiles 9fb21847 (in the repository) line 17,
        # after the agent answered where a vim mapping is defined
        (
            "how to test if one identifier is a valid coc doHover target?",
            "Once you know the file, you can jump to it directly in Vim with `:edit "
            "<filename>` or search for the mapping pattern using `/` to find the exact line.",
        ),
        # tslateman/duet 8d_8e47a114e5_1 (in the repository) line 23, after a list of duets
        (
            "is AI a tool for the team, or is the team a tool for AI?",
            'Lady Gaga — "Sine from Above" (2020)\n\nHe\'s one of the most prolific '
            "collaborators in pop music history — this list barely scratches the surface.",
        ),
        # hostile: the same shape in other words
        (
            "where can I find the session history file in the codex folder?",
            "The migration adds the column with a default, so existing rows keep working.",
        ),
    ],
)
def test_a_question_of_its_own_after_an_answer_is_a_new_task(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent, context=agent) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # real follow-up questions after an answer (tuning set): more of the same, a
        # question on the answer's own subject, one that weighs it
        "does iterm have anything similar?",
        "how about ./build?",
        "what about the vim mapping in insert mode?",
        "why is the mapping defined twice?",
        "what else should I check?",
        "is the mapping file loaded before the plugin?",  # names what the answer named
        # entireio/cli sessions outside the repository (MIT): questions on the work in
        # hand, in words that share none with the agent's last answer
        "do we have test coverage for this?",
        "what can be a reason I can't enable that?",
        "does the method has tests so far?",
        "is there a reason the gc is getting invoked more often now?",
        "do we need to do a superpowers write-plan or is what we have sufficient?",
    ],
)
def test_a_question_on_the_answer_goes_on_with_it(text: str) -> None:
    agent = (
        "`:verbose map <leader>w` shows what the mapping does and the file where it is "
        "defined. Use `:scriptnames` to list the plugin files Vim loaded, in order."
    )
    assert kind_of(text, agent_text=agent, context=agent) is not TurnKind.NEW_TASK


def test_a_message_sent_again_edited_before_any_reply_is_the_same_request() -> None:
    # ebridges/wakil 08_f089f917b408_0 (in the repository) lines 10 and 16: the request
    # sent, then 18 s later rewound (no reply on its branch) and sent again with the ask
    # added; the agent only answered the second
    first = (
        "this repo had a README.md that was overwritten when i fetched from origin.  \n\n"
        "I ran this sequence of commands.  When it did not work, I deleted the remote repo "
        "and recreated it.\n\n```\n 5103  2026-07-09 10:49  git init .\n 5105  2026-07-09 "
        "10:49  git add README.md\n 5108  2026-07-09 11:28  git remote add origin "
        "git@github.com:ebridges/wakil.git\n 5109  2026-07-09 11:30  git push\n## here's "
        "where I recreated the repo\n 5113  2026-07-09 11:32  git branch -u origin/main main"
        "\n 5114  2026-07-09 11:32  git remote set-head origin -a\n 5115  2026-07-09 11:32  "
        "git fetch origin\n 5118  2026-07-09 11:32  git pull\n```"
    )
    second = first.replace(
        "origin.  \n\n", "origin.  I'd like to restore that README if possible\n\n"
    )
    b = (
        SessionBuilder()
        .prompt(first)
        .prompt(second)
        .say("README.md has been restored to your working directory with the original content.")
    )
    (episode,) = segment(views(b), lexicon_for())
    assert [t.kind for t in episode.feedback] == [TurnKind.FOLLOW_UP]
    # another request typed before any reply is no resend, nor is a message cut shorter
    # or two words sent twice
    for other in (
        "then deploy the site to the staging server and send me the link",
        "this repo had a README.md that was overwritten",
    ):
        b = SessionBuilder().prompt(first).prompt(other).say("Done: both are in place.")
        reasons = [
            r
            for e in segment(views(b), lexicon_for())
            for t in e.feedback
            for r in t.decision.reasons
        ]
        assert "restates its request before any reply" not in reasons, other
    b = SessionBuilder().prompt("fix tests").prompt("fix tests").say("Fixed.")
    reasons = [
        r for e in segment(views(b), lexicon_for()) for t in e.feedback for r in t.decision.reasons
    ]
    assert "restates its request before any reply" not in reasons
    # nor a message sent again after the agent answered it
    b = SessionBuilder().prompt(first).say("Which README do you mean?").prompt(second)
    reasons = [
        r for e in segment(views(b), lexicon_for()) for t in e.feedback for r in t.decision.reasons
    ]
    assert "restates its request before any reply" not in reasons


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # entireio/cli sessions outside the repository (MIT)
        (
            "let's fix it. write the test first, I assume it's a local change in committed.go?",
            "**Likelihood:** Very low - requires a multi-session checkpoint.\n\nWant me to fix "
            "it now, or track it as a follow-up?",
        ),
        ("yes, fix it", "The flag is parsed twice in `root.go`. Should I fix that?"),
        # melagiri/code-insights, outside the repository (MIT): a yes to the agent's plan
        (
            "yes, fix this, add to your memory and mark it as v3.0.2",
            "**Plan:**\n\n1. Add `hono` to `cli/package.json`\n2. Run `pnpm install`\n\n"
            "Shall I proceed?",
        ),
    ],
)
def test_a_yes_to_fixing_what_the_agent_proposed_is_no_failure_report(
    text: str, agent: str
) -> None:
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


def test_a_yes_to_fixing_that_says_what_is_still_wrong_reports_it() -> None:
    agent = "I changed the parser. Want me to fix the tests too?"
    assert kind_of("yes fix them, the build still fails on main", agent_text=agent) is (
        TurnKind.CORRECTION
    )
    # and unasked, "fix this" after a report of the work still says it is broken
    assert kind_of("fix this", agent_text="Done: the page now loads the new header.") is (
        TurnKind.CORRECTION
    )


def test_a_request_after_the_offer_to_go_on_to_the_next_task_is_a_new_task() -> None:
    # Monotoba/OpenPrintKit's Codex session 97b66f6c (in the repository) line 185: the agent
    # asks whether to go on to the next piece of work, and the person names one
    agent = (
        "Current status:\n- Tests: 36 passed locally (`PYTHONPATH=. pytest -q`).\n\n"
        "Want me to proceed to the next feature/task now?"
    )
    text = "Can you add links to the project docs I added a few minutes ago in the readme?"
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK
    # the next step of the agent's own plan is no invitation to something new
    plan = "Step 1 is done: the schema is migrated. Want me to proceed to the next step?"
    assert kind_of("yes, and use the new column names", agent_text=plan) is not (TurnKind.NEW_TASK)


@pytest.mark.parametrize(
    "text",
    [
        # JanDeDobbeleer/oh-my-posh, a session outside the repository (MIT): the result
        # found "not right"
        "[image: image/png, 7597 bytes]\nThe gradient coloring works, but it doesn't seem to "
        "correctly color the power line starting symbol. The end symbol is correct, but the "
        "starting symbol is not right.",
        # hostile: two words between the negation and the verb, and the verdicts alone
        "it doesn't seem to correctly render the start symbol",
        "the starting symbol is not right",
        "that's not correct, the end symbol moved too",
        "the header isn't quite right",
    ],
)
def test_the_result_found_not_right_is_a_correction(text: str) -> None:
    agent = "Done: the powerline segment now draws the gradient from the start symbol to the end."
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "make sure the header is not right-aligned",  # a requirement
        "if that is not correct, use the older symbol",  # a condition
        "should the end symbol be correct now, or is it not right yet?",  # a question
    ],
)
def test_not_right_in_a_requirement_or_a_condition_is_no_report(text: str) -> None:
    agent = "Done: the powerline segment now draws the gradient from the start symbol to the end."
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


# Blind set 41 (stop 71): sessions of histories outside the repository, labelled blind by
# helpers and then read for rules. JanDeDobbeleer/oh-my-posh, entireio/git-sync,
# ClusterCockpit/cc-backend, melagiri/code-insights and jdx/mise are MIT.

_GRADIENT_DONE = (
    "Committed as `f3878096`. Delta now scales with cell count — small segments get a "
    "subtle sheen instead of a hard two-tone jump."
)


@pytest.mark.parametrize(
    "text",
    [
        # oh-my-posh: a verdict softened by "seems to be", on the result just committed
        "[image: image/png, 1167 bytes]\nThis still seems to be an issue. If you look at the "
        "screenshots, I have the impression that it jumps to dark straight away",
        "[image: image/png, 1219 bytes]\nThe transition seems to be a bit too strong if you "
        "look at smaller segments.",
        # hostile: the same hedges in other words
        "the footer appears to be missing on mobile",
        "it still looks to be broken after the reload",
    ],
)
def test_a_verdict_said_with_seems_to_be_is_the_same_verdict(text: str) -> None:
    assert kind_of(text, agent_text=_GRADIENT_DONE) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "it seems to be working now, thanks",
        "It seems to be a good idea to add tests for the small segments",
        "can you check if it seems to be too slow on windows?",
    ],
)
def test_seems_to_be_in_praise_an_opinion_or_a_question_is_no_report(text: str) -> None:
    assert kind_of(text, agent_text=_GRADIENT_DONE) is not TurnKind.CORRECTION


def test_a_linters_finding_behind_its_task_runners_name_is_a_pasted_error() -> None:
    # entireio/git-sync: mise's `[lint:go]` before each line of golangci-lint's output,
    # pasted right after the agent committed
    lint = (
        "[lint:go] golangci-lint has version 2.11.4 built with go1.26.1\n"
        "[lint:shellcheck] Finished in 239.4ms\n"
        "[lint:go] cmd/git-sync/main.go:45:9: error returned from external package is "
        "unwrapped: sig: func (*github.com/spf13/cobra.Command).ExecuteContext(ctx "
        "context.Context) error (wrapcheck)\n"
        "[lint:go]       return err\n"
        "[lint:go] 1 issues:\n"
        "[lint:go] * wrapcheck: 1"
    )
    assert has_pasted_error(lint)
    assert kind_of(lint, agent_text="Committed as `f5cbb41` on `soph/move-to-cobra`.") is (
        TurnKind.CORRECTION
    )
    # a level behind such a name still reads, and a clean run's lines are no error
    assert has_pasted_error("[lint:licenses] $ licenses\n[lint:licenses] ERROR task failed")
    assert not has_pasted_error("[build] compiling 12 files\n[build] done in 3s\n[test] 40 passed")


def test_a_branch_commit_and_pull_request_are_the_closing_steps_of_the_work() -> None:
    # entireio/git-sync: after a simplification pass left its changes uncommitted
    agent = "Behavior is unchanged; this was quality-only. The changes remain uncommitted."
    assert kind_of("can you create a branch, commit and open a PR?", agent_text=agent) is (
        TurnKind.FOLLOW_UP
    )
    assert kind_of("commit, push and open a PR", agent_text=agent) is TurnKind.FOLLOW_UP
    # a branch for something named is work of its own, not a step on this work
    assert kind_of("create a branch for the dark mode feature", agent_text=agent) is not (
        TurnKind.CORRECTION
    )


def test_this_bugfix_points_back_at_the_work_just_done() -> None:
    # ClusterCockpit/cc-backend: the release notes for the fix the agent had just made
    agent = "Fixed: the WAL is now rotated on a clean shutdown. Build and tests pass."
    text = "Update the releasenotes with this bugfix. Leave the version as is."
    assert points_back(text) and points_back("add the hotfix to the changelog for this hotfix")
    assert kind_of(text, agent_text=agent) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # melagiri/code-insights: the person's own step reported after the verdict
        ("looks great. merged the PR", TurnKind.APPROVAL),
        ("great. merged the PR and deleted the branch", TurnKind.APPROVAL),
        ("perfect. tested it locally and it works", TurnKind.APPROVAL),
        # hostile: the report, then something asked of the agent
        ("great. merged the PR, can you start on the next issue?", TurnKind.FOLLOW_UP),
        ("thanks. deployed it to staging, now add the metrics page", TurnKind.FOLLOW_UP),
    ],
)
def test_what_the_person_did_after_a_verdict_asks_for_nothing(text: str, kind: TurnKind) -> None:
    agent = "PR #120 is updated with the pie chart height fix. Ready for your merge."
    assert kind_of(text, agent_text=agent) is kind


def test_a_go_ahead_to_fix_what_the_agent_laid_out_is_no_failure_report() -> None:
    # jdx/mise: the agent laid out the build failure and its workaround; "ok fix it"
    agent = (
        "There has not been a successful post-fix COPR build. The likely workaround is to "
        "append `-fPIE` to `LDFLAGS` for the COPR build."
    )
    go_ahead = "ok fix it, `ssh bamboo` if you need a linux box to test"
    assert kind_of(go_ahead, agent_text=agent) is not TurnKind.CORRECTION
    assert kind_of("yes, fix it", agent_text=agent) is not TurnKind.CORRECTION
    # "fix it" as the verdict on what broke still reports it
    assert kind_of("it broke again, fix it", agent_text=DONE) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # jdx/mise, entireio/git-sync, JanDeDobbeleer/oh-my-posh (blind set 41), and a
        # tuning-set line: acting on a pull request's review, however often it recurs
        "address pr feedback",
        "address pr feedback and failing pr checks if any",
        "can you look at the copilot comments?",
        "have a look at the review comments",
        "Review the comments made on this PR by copilot and implement the recommendations",
        # entireio/cli's history (stop 75: a replay task a blind judge found leaning on the
        # conversation)
        "let's start working our way through the PR feedback",
        # entireio/cli's history again (stop 80): the same said as what there is to do
        "and now we have some new PR comments to respond to? check with pagination",
        "there are review comments to address",
    ],
)
def test_acting_on_a_pull_requests_review_is_a_task_not_replayed(text: str) -> None:
    agent = "Pushed `a1b2c3d` to the branch; the pull request is open and checks are running."
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK
    # the review lies outside the repository: the task miner makes no replay of it
    assert needs_context(text)
    # comments that are no review's, or that go somewhere, are work of their own
    for other in (
        "we have new comments to respond to in the docs",
        "copy the pr comments to the release notes",
    ):
        assert not needs_context(other)


@pytest.mark.parametrize(
    ("text", "replayable"),
    [
        # melagiri/code-insights' history (MIT, not in the repository; stop 75: three
        # replay tasks a blind judge found leaning on the conversation): a plan or a design
        # the agent wrote in the exchange, taken up
        ('run the plan with @"technical-architect (agent)" and get their approval', False),
        (
            "i am good with the plan.. if the implementation agents require wireframes, build "
            "it.. and then proceed to implementation.",
            False,
        ),
        (
            'run the design for a review with @"technical-architect (agent)" and '
            '@"ux-engineer (agent)"',
            False,
        ),
        # a plan in the repository, named by its file; a plan asked for; a design of a thing
        ("implement the plan in docs/plans/sync.md", True),
        ("Look at @docs/superpowers/specs/codebase-knowledge-design.md and build it", True),
        ("write a plan for migrating the store to PostgreSQL", True),
        ("review the design of the settings page and make it responsive", True),
    ],
)
def test_a_plan_taken_up_as_the_conversation_left_it_is_no_replay_task(
    text: str, replayable: bool
) -> None:
    assert needs_context(text) is not replayable


def test_code_comments_or_a_review_still_unaddressed_are_not_a_review_task() -> None:
    agent = "Pushed `a1b2c3d` to the branch; the pull request is open and checks are running."
    assert not needs_context("fix the comments in utils.py")
    assert kind_of("the copilot comments are still not addressed", agent_text=agent) is (
        TurnKind.CORRECTION
    )


def test_a_result_described_and_said_to_want_fixing_is_a_correction() -> None:
    # melagiri/code-insights (blind set 41): a grant, the part that is wrong, then "this
    # should be fixed", right after the agent reported the change
    agent = "- **PromptQuality separation** — Prompt quality insights render as standalone cards"
    text = (
        "[image: image/png, 679189 bytes]\nSummary, Learnings and Decisions all are compact and "
        "can be expanded to view more details.. but prompt quality shows always in expanded "
        "view..this should be fixed"
    )
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION
    # deferred, asked or conditional, it reports nothing
    for other in ("this should be fixed in a later PR", "should this be fixed?"):
        assert kind_of(other, agent_text=agent) is not TurnKind.CORRECTION
    assert kind_of("if it needs fixing, tell me", agent_text=agent) is not TurnKind.CORRECTION


def test_a_not_joined_by_and_to_a_wish_is_no_failure() -> None:
    # melagiri/code-insights (blind set 41): "… make the reviewer persona dynamic and not
    # stick to 1 or 2" asks for a design; the "not" goes with "need to make"
    agent = "Want me to implement all 4 changes? Or would you like to adjust the scope?"
    text = (
        "i am seeing this requires multiple ways.. We need to make the reviewer persona "
        "dynamic and not stick to 1 or 2. Or probably use the built in codereview skill"
    )
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION
    assert kind_of("the page is not loading", agent_text=DONE) is TurnKind.CORRECTION


def test_what_worked_before_and_is_gone_now_is_a_regression_report() -> None:
    # JanDeDobbeleer/oh-my-posh (blind set 42): "could" tells what the person could do
    # before, no hypothesis; the question asks whether it is really gone
    agent = "Lazy-load property fully preserved — confirmed by smoke test; both render correctly."
    text = (
        "previously the prompt displayed black and I could start typing, that seems to be gone now?"
    )
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION
    # a hypothesis still reports nothing
    assert kind_of("would it still fail if the token expired?", agent_text=agent) is not (
        TurnKind.CORRECTION
    )


def test_trouble_seen_in_the_result_is_a_report_and_a_fix_to_make_is_not() -> None:
    # JanDeDobbeleer/oh-my-posh and jdx/mise (blind set 42)
    agent = "Rewrote the history; the old commits stay recoverable with `git checkout <sha>`."
    seen = (
        "[image: image/png, 20480 bytes]\nIt picked up my POSH_CONFIG and I can see some issues "
        "in the rendering. Can you investigate what's happening?"
    )
    assert kind_of(seen, agent_text=agent) is TurnKind.CORRECTION
    assert kind_of("I see some issues with this approach", agent_text=agent) is not (
        TurnKind.CORRECTION
    )
    # what a step is for names no failure of the work ("make a pr to fix this")
    found = "The backends are listed in the wrong order; `aqua` should come first."
    text = (
        "did you find any discussions about pi that might answer? if not, just make a pr to "
        "fix this"
    )
    assert kind_of(text, agent_text=found) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("agent", "text"),
    [
        # JanDeDobbeleer/oh-my-posh (blind set 42): the offer's own verb and a pronoun
        (
            "Skip an efficiency section — one sentence suffices. Want me to add it (trivial "
            "task, would do directly)?",
            "Yes, please add it.",
        ),
        # the same history: an offer written as readiness, waiting on the person's word
        (
            "The template half remains as analyzed: the hook, a schema addition, tests, and "
            "docs. Ready to implement on your go.",
            "go ahead and implement it",
        ),
        # entireio/git-sync: the offer as "If you want, I can …", taken in two words
        ("If you want, I can fix that specific bug next.", "fix it"),
    ],
)
def test_the_offer_taken_in_its_own_short_words_is_an_approval(agent: str, text: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


def test_the_offer_taken_with_more_or_another_act_is_not_an_approval() -> None:
    offer = "Skip an efficiency section. Want me to add it (trivial task, would do directly)?"
    assert kind_of("Yes, please remove it.", agent_text=offer) is not TurnKind.APPROVAL
    assert kind_of("yes add it and the tests", agent_text=offer) is not TurnKind.APPROVAL
    ready = "The hook, tests, and docs remain. Ready to implement on your go."
    assert kind_of("go ahead and implement it with a feature flag", agent_text=ready) is not (
        TurnKind.APPROVAL
    )


def test_ship_it_after_the_work_is_its_closing_step_and_to_an_offer_takes_it() -> None:
    # entireio/git-sync (blind set 42 and its history): "ship it" after the agent's report
    # is the order to commit, push and open the pull request
    assert kind_of("ship it", agent_text="Done. Version bumped to 0.4.2.") is TurnKind.FOLLOW_UP
    assert kind_of("lgtm, ship it", agent_text="Done. Version bumped to 0.4.2.") is (
        TurnKind.FOLLOW_UP
    )
    # to the agent's offer to ship, it accepts the offer
    offer = "Release config reviewed. Want me to ship it?"
    assert kind_of("ship it", agent_text=offer) is TurnKind.APPROVAL


def test_a_review_asked_for_again_while_the_agent_is_at_it_is_no_new_task() -> None:
    # jdx/mise (blind set 42): "address pr feedback" typed mid-turn, while the agent works on
    # the review the person had just asked for
    turn = TurnInput(
        text="address pr feedback",
        command=None,
        has_episode=True,
        agent_text="Looking at the review comments on the pull request now.",
        agent_worked=True,
        agent_ended=False,
        previous_text="address feedback on jdx/mise#10705",
    )
    assert classify_turn(turn, lexicon_for()).kind is not TurnKind.NEW_TASK


def test_an_offer_before_the_codex_apps_action_lines_is_the_agents_last_word() -> None:
    # jdx/mise (blind set 43, Codex Desktop): the app's action line after the question;
    # "fix it" takes the offer, whose words hold "fix"
    offer = (
        "The only actionable feedback is a failed `lint` check.\n\nMay I apply the formatting "
        "fix, run lint, commit, and push it to the PR branch?\n\n"
        '::git-create-branch{cwd="/Users/jdx/.codex/worktrees/e48d/mise" branch="codex/pr-11029"}'
    )
    assert kind_of("fix it", agent_text=offer) is TurnKind.APPROVAL
    # a step of its own, more than the offer, or another act is no plain yes
    assert kind_of("commit it", agent_text=offer) is TurnKind.FOLLOW_UP
    assert kind_of("fix it and add tests", agent_text=offer) is not TurnKind.APPROVAL
    assert kind_of("revert it", agent_text=offer) is not TurnKind.APPROVAL


def test_the_screenshot_the_agent_asked_for_is_an_answer() -> None:
    # melagiri/code-insights (blind set 43): "this is what it shows" under the screenshot the
    # agent asked for names nothing that went wrong
    asked = (
        "If Socket flags something unexpected I'd want to see it. Can you paste or screenshot "
        "the findings?"
    )
    text = "[image: image/png, 795281 bytes]\n this is what it shows"
    assert kind_of(text, agent_text=asked) is TurnKind.FOLLOW_UP
    assert kind_of("it shows a 500 error now", agent_text=asked) is TurnKind.CORRECTION


@pytest.mark.parametrize("text", ["yes, let's do this", "let's do this then", "ok, let's do that"])
def test_lets_do_this_to_the_agents_proposal_accepts_it(text: str) -> None:
    # entireio/git-sync (blind set 43 and its history): "yes, let's do this" to "If you
    # want, I can patch `ValidateEndpoints` to handle userinfo and default-port variants too."
    offer = "If you want, I can patch `ValidateEndpoints` to handle userinfo and default ports too."
    assert kind_of(text, agent_text=offer) is TurnKind.APPROVAL


def test_lets_do_this_with_more_of_the_persons_own_is_no_plain_yes() -> None:
    offer = "If you want, I can patch `ValidateEndpoints` to handle userinfo and default ports too."
    assert kind_of("let's do this for the footer too", agent_text=offer) is not (TurnKind.APPROVAL)


# Blind sets 44 and 45 (stop 72): sessions of histories outside the repository, labelled
# blind by helpers and then read for rules. entireio/cli, entireio/git-sync,
# melagiri/code-insights, JanDeDobbeleer/oh-my-posh and jdx/mise are MIT.

_QUOTED_STRUCT = (
    'The field is `agent_type` (JSON: `"agent_type"`).\n\n'
    "From `cmd/entire/cli/strategy/manual_commit_types.go:25`:\n```go\n"
    'AgentType string `json:"agent_type,omitempty"` // Agent type identifier\n```\n\n'
    "There's also a related `agent` field for the human-readable name."
)


def test_a_code_block_the_agent_quoted_hands_the_person_no_steps() -> None:
    # entireio/cli: the agent had only answered where a field is stored, quoting its Go
    # struct; the report is about the code as it was (labelled new_task)
    text = (
        "can you check this code is actually working? because I just tested and I don't "
        "see it in metadata.json nor the trailer on the commit"
    )
    assert not agent_gave_steps(_QUOTED_STRUCT)
    assert kind_of(text, agent_text=_QUOTED_STRUCT, agent_acted=False) is not TurnKind.CORRECTION
    # commands handed over are steps the person ran: the failure is the agent's advice
    steps = "Enable it first:\n```bash\nentire enable\n```\nThen commit again."
    assert agent_gave_steps(steps)
    assert kind_of(text, agent_text=steps, agent_acted=False) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("agent_text", "gave"),
    [
        ("Run:\n```\nnpm ci\n```", True),  # an unnamed block may be a command
        ("```sh\nmake\n```\n\nand\n```go\nfunc x() {}\n```\nthat's the fix", True),
        ("```go\nfunc x() {}\n```\n\n```python\nprint(1)\n```\nBoth are in place.", False),
        # the tail opens inside a long Go block: its closing fence opens nothing
        ("```go\n" + "x := 1\n" * 400 + "```\nThat is the struct.", False),
        ("```bash\n" + "echo x\n" * 400 + "```\nRun the above.", True),
        ("inline ```bash in a sentence``` is no block", False),
    ],
)
def test_only_a_block_of_commands_opened_in_the_last_words_hands_over_steps(
    agent_text: str, gave: bool
) -> None:
    assert agent_gave_steps(agent_text) is gave


_E2E_DONE = (
    "Each test now validates the full checkpoint structure including metadata, transcript "
    "validity, content hash integrity, and prompt content."
)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: the agent had extended other tests than the ones meant
        "those additions are also good, but what I actually meant are the tests in "
        "cmd/entire/cli/e2e_test",
        # hostile: the same repair in other words
        "ok but I meant the footer, not the header",
        "nice work, but what I really meant was the public API",
    ],
)
def test_what_was_meant_after_a_granted_point_is_a_repair(text: str) -> None:
    assert kind_of(text, agent_text=_E2E_DONE) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # agrees: the agent read it right ("But that's what I meant, I want to see it …")
        "That's what I meant: I want to see it in the agent for user awareness",
        "yes, that is exactly what I was talking about",
        "looks good, but I meant to ask: does it run on windows?",
        "nice, but i mean, can you also add tests for it?",
    ],
)
def test_a_but_before_what_was_meant_that_agrees_or_asks_is_no_repair(text: str) -> None:
    assert kind_of(text, agent_text=_E2E_DONE) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "agent_text",
    [
        # entireio/cli: the agent's diagnosis, asked for in the turn before
        "So there are two issues:\n1. `session.State` in `session/state.go` is missing "
        "`AgentType`\n2. The conversion functions don't copy `AgentType`",
        "**Confirmed: This is a real bug.** The formula needs to subtract `pureUserRemoved` "
        "from both `totalCommitted` and `AgentLines`.",
        "Found the root cause: the cache key ignores the locale.",
    ],
)
def test_a_bare_fix_it_after_the_agents_diagnosis_takes_it_up(agent_text: str) -> None:
    for text in ("can we fix this?", "can you fix it?", "fix it please"):
        assert kind_of(text, agent_text=agent_text) is TurnKind.FOLLOW_UP, text


@pytest.mark.parametrize(
    "agent_text",
    [
        "Done: the cache key now includes the locale.",
        "All tests pass and there are no issues left.",
        "I've updated the formula; the problem should be gone now.",
    ],
)
def test_a_bare_fix_it_after_a_claim_of_success_is_still_a_report(agent_text: str) -> None:
    assert kind_of("can we fix this?", agent_text=agent_text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: a test for the fix the agent had just made
        "can we add a test (probably integration?) that tests this works end2end?",
        # hostile: the same pointing in other words
        "please confirm that runs on windows",
        "can you verify this actually passes in CI?",
        "check whether this passes on python 3.9",
    ],
)
def test_a_check_that_what_was_just_made_works_points_back(text: str) -> None:
    assert points_back(text)


@pytest.mark.parametrize(
    "text",
    [
        "this works, thanks",
        "add a test for the parser that checks the tokenizer handles tabs",
        "check if this repo has a license",
    ],
)
def test_this_as_a_verdict_or_a_thing_named_does_not_point_back(text: str) -> None:
    assert not points_back(text)


_NUMBERED_QUESTIONS = (
    "Two decisions for you:\n\n1. **Naming** — `agency` vs `driver` vs `attribution`? The "
    "audit recommends `agency`.\n\n2. **Scope containment** — Should the affinity map ship "
    "in this PR, or defer to the Progress feature PR?\n\n3. **Anything in the audit findings "
    "you disagree with or want to adjust?**"
)


def test_answers_to_numbered_questions_point_by_point_are_a_follow_up() -> None:
    # melagiri/code-insights: long answers to the agent's three questions (labelled
    # follow_up); by its length alone it had read as a request of its own
    text = (
        "1. driver is preferred for me. more clear, and yes avoids confusion with friction "
        "attributions.\n2. will the results be less accurate or effective without affinity "
        "map? Progress is a feature which is planned to be released only after 2-3 weeks. So, "
        "seek the llm expert and the technical architect for their views and decide the best "
        "option, then go ahead with the implementation of everything the audit found\n"
        "3. nothing else"
    )
    assert answers_point_by_point(text, _NUMBERED_QUESTIONS)
    assert kind_of(text, agent_text=_NUMBERED_QUESTIONS) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # a numbered list of its own, after the agent asked nothing numbered
        ("1. add a dark mode\n2. add a settings page", "Done: the header is in place."),
        # one point only
        ("1. driver is preferred", _NUMBERED_QUESTIONS),
        # numbered steps the agent listed, with no question among them
        ("1. yes\n2. no", "Done:\n1. Added the parser\n2. Added the tests"),
    ],
)
def test_a_numbered_reply_that_answers_no_numbered_questions_is_not_point_by_point(
    text: str, agent_text: str
) -> None:
    assert not answers_point_by_point(text, agent_text)


_DUPLICATE_FILED = (
    "Done. ENT-260 is marked as a duplicate of ENT-258, with the root cause documented and "
    "PR #184 linked as the fix. The file is reset to clean state — no local changes."
)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: the next issue of the person's own list, after the agent closed one
        "next one: https://linear.app/entirehq/issue/ENT-259/code-attribution-is-broken-on-"
        "the-deferred-condense-at-stop",
        # hostile: the same in other words
        "ok, next ticket - ENT-301",
        "Next issue. The sidebar collapses whenever the window is resized below 900px.",
    ],
)
def test_the_next_piece_of_work_named_in_the_turn_is_a_task(text: str) -> None:
    assert kind_of(text, agent_text=_DUPLICATE_FILED) is TurnKind.NEW_TASK


@pytest.mark.parametrize("text", ["next", "next one please", "next item: the header", "next!"])
def test_a_bare_next_goes_on_with_the_agents_list(text: str) -> None:
    agent = "Fixed 1 of 4 review findings (the nil check). Shall I go on with the next?"
    assert kind_of(text, agent_text=agent) is not TurnKind.NEW_TASK


_SCRIPTS_DONE = (
    "Both scripts follow the same structure as the original with `--keep` flag support for "
    "inspection."
)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: the tests the first request was to fix still fail, after the agent
        # went on to write scripts
        'unrelated to the scripts, but tests are still failing run "mise run test:ci"',
        "unrelated to the refactor, but the build keeps breaking on windows",
    ],
)
def test_unrelated_to_the_last_step_but_still_failing_is_a_report(text: str) -> None:
    assert kind_of(text, agent_text=_SCRIPTS_DONE, acted_before=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    ["unrelated to the scripts, but can you add a readme?", "unrelated, but the logo is blue"],
)
def test_unrelated_before_a_request_or_a_plain_remark_is_a_new_subject(text: str) -> None:
    assert kind_of(text, agent_text=_SCRIPTS_DONE, acted_before=True) is TurnKind.NEW_TASK


_OLD_BINARY = (
    "The hooks in .claude/settings.json run the installed `entire` binary, not the one you "
    "just built. So every prompt "
    "submit is still running the old code that doesn't set the last interaction field.\n\n"
    "Install the new binary and submit a prompt — then `./entire status` should show the "
    "active time."
)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: the person expects the agent's explanation to be wrong (it was)
        "doesn't every userPromptSubmit update the 'last interaction'?",
        "emm - doesn't the .claude config in here call go run in this folder?",
        # hostile: the same challenge in other words, and after a first question
        "wait, isn't the installed binary the one from the build?",
        "hm. Didn't the status command show the active time before?",
    ],
)
def test_a_negative_question_against_the_agents_words_disputes_them(text: str) -> None:
    assert kind_of(text, agent_text=_OLD_BINARY) is TurnKind.CORRECTION
    # an explanation is work enough to dispute, with nothing changed yet
    assert kind_of(text, agent_text=_OLD_BINARY, agent_acted=False) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "isn't there a library that does this already?",
        "isn't it better to install it with mise?",
        "doesn't it make sense to add a flag for it?",
        "Isn't it too much to reinstall the binary every time?",
        # a negative question about nothing the agent said
        "doesn't the footer look odd on mobile?",
    ],
)
def test_a_negative_question_that_asks_a_way_or_weighs_one_disputes_nothing(text: str) -> None:
    assert kind_of(text, agent_text=_OLD_BINARY) is not TurnKind.CORRECTION


_ALL_GREEN = (
    "All tests pass — unit tests, integration tests, and race detection all green. The full "
    "implementation is complete."
)


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # entireio/cli: right after the agent called the tests green
        ("fix test", _ALL_GREEN),
        # entireio/cli: the command the person ran, quoted, after "Build, tests, and lint all
        # pass."
        (
            '"mise run test:ci" fails',
            "Removed the settings type.\n\nBuild, tests, and lint all pass.",
        ),
        # hostile: the same in other words
        ("please fix the build", "Done. The build passes and the binary is in ./dist."),
        ("`make check` failed", "Everything is in place."),
    ],
)
def test_a_check_the_agent_called_green_found_failing_is_a_report(
    text: str, agent_text: str
) -> None:
    assert kind_of(text, agent_text=agent_text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "agent_text"),
    [
        # no claim about that check: a request (labelled new_task in blind set 45)
        ("fix lint", "It builds successfully on darwin, linux and windows."),
        ("fix tests", ""),
        ("fix the tests in parser_test.go", _ALL_GREEN),
        ('make sure "lint" fails on warnings', _ALL_GREEN),
    ],
)
def test_fixing_a_check_nobody_called_green_is_no_report(text: str, agent_text: str) -> None:
    assert not fixes_what_was_said_to_pass(text, agent_text)
    assert kind_of(text, agent_text=agent_text) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: wishes for the work, typed while the agent explored
        "we also want to think about how subagents fit into this model",
        "I think we want to get rid of current-session mechanics as well, it's not helpful in "
        "the multi-session world",
        # hostile: the same in other words
        "i also need to keep the old flag working",
    ],
)
def test_a_wish_for_the_work_typed_into_the_running_turn_adds_a_step(text: str) -> None:
    agent = "Let me do targeted exploration of the code paths I'll need to modify."
    assert kind_of(text, agent_text=agent, queued=True, agent_ended=False) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text", ["use pnpm instead of npm for all of it", "we want to stop here, too slow"]
)
def test_a_redirect_typed_into_the_running_turn_still_steers(text: str) -> None:
    agent = "Let me do targeted exploration of the code paths I'll need to modify."
    assert kind_of(text, agent_text=agent, queued=True, agent_ended=False) is TurnKind.STEERING


_FINDINGS = (
    "**Headline findings:**\n\n- **CRITICAL — Open redirect** in `internal/auth/auth.go`.\n"
    "- **CRITICAL — NATS API has zero authentication** in `internal/api/nats.go`.\n"
    "- **HIGH — CORS** allows any origin.\n\nThe two CRITICALs are the priorities. Tell me "
    "which findings you'd like fixed and I'll implement them."
)


@pytest.mark.parametrize("text", ["Fix 1-3", "do 2 and 4", "fix #1, #3 please", "address 1 to 3"])
def test_findings_picked_by_number_are_an_answer_not_a_request(text: str) -> None:
    # ClusterCockpit/cc-backend: the agent's audit, then the person's pick (labelled
    # follow_up)
    assert is_bare_answer(text)
    assert kind_of(text, agent_text=_FINDINGS) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize("text", ["fix 1-3 in the parser tests", "do 2 things: lint and test"])
def test_a_number_inside_a_request_of_its_own_is_no_pick(text: str) -> None:
    assert not is_bare_answer(text)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: after the agent replaced a duplicated test helper (labelled follow_up)
        "do we have more functions like this in tests that are duplicated?",
        "are there any other pages that are broken the same way?",
        "can you find more places where the cache is missing?",
    ],
)
def test_a_question_that_asks_to_look_for_more_reports_nothing(text: str) -> None:
    agent = "The fix was straightforward: `RunCLIWithError` does the same thing, so I replaced it."
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "do we have more functions like this? the login test is still broken",
        "the helper is duplicated in three files, can you check?",
    ],
)
def test_a_report_beside_a_search_question_is_still_read(text: str) -> None:
    agent = "The fix was straightforward: `RunCLIWithError` does the same thing, so I replaced it."
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


def test_never_mind_a_side_question_then_the_closing_step_is_no_new_subject() -> None:
    # entireio/cli: the agent had gone to check a slow test; the person drops that and
    # closes the work (labelled follow_up; typed after stopping the agent, it steers)
    text = "never mind, we'll look at it later. \n\ncommit, push and open a draft PR"
    agent = "Let me check if our changes affected integration test timing."
    assert kind_of(text, agent_text=agent) is TurnKind.FOLLOW_UP
    assert kind_of(text, agent_text=agent, after_interrupt=True) is TurnKind.STEERING
    assert kind_of("never mind, let's add a dark mode instead", agent_text=agent) is (
        TurnKind.NEW_TASK
    )


@pytest.mark.parametrize("text", ["push, raise a draft PR", "open a draft pull request"])
def test_a_draft_pull_request_is_a_closing_step(text: str) -> None:
    # entireio/cli: after a turn the agent closed with "No response requested."
    assert is_closing_step(text)
    assert kind_of(text, agent_text="No response requested.") is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    ["oki doki", "okey-dokey", "okie dokie!", "I'm good with the plan", "we are ok with that"],
)
def test_acceptance_in_the_words_people_type_is_an_approval(text: str) -> None:
    # entireio/git-sync: "oki doki" after the agent's answer that settled the question
    agent = "Pull refs sit one explicit opt-in beyond even `--all-refs`. Want me to proceed?"
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text", ["okay, document the flags", "I'm good with the plan but not the name"]
)
def test_an_acceptance_word_before_more_is_no_bare_approval(text: str) -> None:
    agent = "Pull refs sit one explicit opt-in beyond even `--all-refs`. Want me to proceed?"
    assert kind_of(text, agent_text=agent) is not TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: a stricter requirement for the test just written (labelled follow_up)
        "the test should check the content of CLIVersion is the same as used while compiling "
        "the binary",
        # entireio/cli: a counterfactual, under the agent's offer to look (labelled follow_up)
        "yeah let's check existing tests, I hope there isn't one since it should have failed "
        "but we should definetly have one testing the scenario",
        # entireio/cli: whether another change already fixes it (labelled follow_up)
        "does PR#68 https://github.com/entireio/cli/pull/68 fix this?",
        # hostile: the same in other words
        "it would have crashed without the guard, right?",
    ],
)
def test_a_comparison_a_counterfactual_or_a_whether_reports_nothing(text: str) -> None:
    agent = "Want me to check if existing tests already cover this scenario?"
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    ["it's still the same", "the build has failed again", "the page looks the same as before"],
)
def test_the_same_state_or_a_failure_met_is_still_a_report(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


# Blind sets 51 and 52 were drawn and labelled before this section; its lines come from the
# earlier sets (43, 49, 50) only.

_OFFER_THEN_DETAIL = [
    # entireio/cli: the offer, then what the findings are (labelled approval)
    (
        "yeah, address all of them",
        "Want me to address these? The Copilot comments on #1, #2, and #4 are straightforward "
        "comment/doc fixes. #3 (migration logic) and #5 (dead field) are worth looking at more "
        "carefully.",
    ),
    # entireio/cli: the offer, then how the agent would go about it (labelled approval)
    (
        "yes, add instrumentation and quantify the issues",
        "Do you want me to proceed to **Phase 2 (Pattern Analysis)** and **Phase 3 (Hypothesis "
        "Testing)** to quantify these issues and propose targeted fixes? I would add timing "
        "instrumentation to confirm which operations are actually slow before proposing fixes.",
    ),
    # JanDeDobbeleer/oh-my-posh: the offer, then what it would include (labelled approval)
    (
        "go ahead, including the rename",
        "Want me to apply the repo-side removals now? It's all on the `next` branch and "
        "reversible — I'd do everything above including the `packages/msix` rename unless "
        "you'd rather keep the directory name.",
    ),
]


@pytest.mark.parametrize(("text", "agent"), _OFFER_THEN_DETAIL)
def test_yes_to_an_offer_followed_by_its_detail_is_an_approval(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


@pytest.mark.parametrize(("text", "agent"), _OFFER_THEN_DETAIL)
def test_yes_and_work_beyond_the_offer_and_its_detail_is_no_bare_approval(
    text: str, agent: str
) -> None:
    assert kind_of(f"{text}, then bump the version and publish", agent_text=agent) is not (
        TurnKind.APPROVAL
    )


@pytest.mark.parametrize(
    "agent",
    [
        # another way set beside the offer: the reply picks one
        "Want me to address these? Or I can leave #3 for a follow-up PR.",
        "Want me to address these? Alternatively we could revert the migration.",
        # more than a sentence or two after it: the question is no longer the last word
        "Want me to address these? One. Two. Three. Four.",
        # detail too long to leave the question the last word
        "Want me to address these? " + "The comments are about naming and docs. " * 10,
    ],
)
def test_an_offer_is_not_found_behind_another_way_or_a_long_tail(agent: str) -> None:
    assert offered_act(agent) is None


def test_an_offer_is_found_behind_a_short_detail() -> None:
    agent = "Want me to address these? #3 and #5 need a closer look."
    assert offered_act(agent) == "address these"


def test_yes_to_ready_then_go_ahead_is_an_approval() -> None:
    # JanDeDobbeleer/oh-my-posh: "Ready to commit (…) — go ahead?" (labelled approval)
    agent = "Ready to commit (conventional-commit, `fix(terminal):` scope) — go ahead?"
    assert kind_of("yes, commit it", agent_text=agent) is TurnKind.APPROVAL
    assert kind_of("yes, commit it and open a release PR", agent_text=agent) is not (
        TurnKind.APPROVAL
    )
    assert offered_act("Ready to ship. Go ahead?") == "ship"


def test_words_while_the_agent_still_works_on_an_approved_offer_are_no_new_subject() -> None:
    # entireio/cli: "yeah, address all of them", the agent says "Now let me apply all 5
    # fixes." and the person adds a word while it works (labelled follow_up)
    text = "and make sure this is tested"
    agent = "Good, I have the full picture. Now let me apply all 5 fixes."
    assert (
        kind_of(text, agent_text=agent, previous=TurnKind.APPROVAL, agent_ended=False)
        is not TurnKind.NEW_TASK
    )


_NUMBERED_POINTS = (
    "That's a sharp observation. **What discovery mechanisms are you thinking about?**\n\n"
    "1. **LSP-powered discovery** - Before writing code, use `workspaceSymbol` to search\n"
    '2. **CLAUDE.md documentation** - Maintain a "key utilities" section listing helpers\n'
    "3. **Pre-commit detection** - Let Claude write, then have `dupl` catch it\n"
    "4. **Combination approach** - LSP for real-time discovery + documentation"
)


def test_a_long_message_on_a_numbered_point_of_the_agent_takes_it_up() -> None:
    # entireio/cli: the person answers the agent's second point at length, then lists
    # their own answers (labelled follow_up)
    text = (
        "the problem with 2. is that it only applies to helpers, and helpers that are "
        "documented. often times we do things in functions which aren't even exposed as "
        "helpers!\n\nthere's a even harder problem where two code chunks do the same thing "
        "functionally but aren't expressed in quite the same way, so not sure if even the "
        "heuristic detections will help.\n\nbuuuuut let's do what we can...\n\n1. to do this "
        "it's an instructions thing, hey? yes if possible\n2. I think this is the weakest "
        "option, let's skip\n3. git hooks and agent instructions? yes"
    )
    assert names_listed_item_by_number(" ".join(text.split()[:15]), _NUMBERED_POINTS)
    assert kind_of(text, agent_text=_NUMBERED_POINTS) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "head",
    ["the problem with 2. is that", "about point 3, I think", "option #4 sounds best", "(1) is"],
)
def test_a_number_written_as_a_reference_names_the_agents_item(head: str) -> None:
    assert names_listed_item_by_number(head, _NUMBERED_POINTS)


@pytest.mark.parametrize(
    "head",
    [
        # a list of the person's own
        "Check what files have changed: 1. Run: git status 2. Run: git diff",
        # a figure or a line, not an item
        "The comment on line 2 says uncomment the line below",
        "we have 3 services and 4 queues",
        # an item the agent's list does not have
        "the problem with 7. is that",
    ],
)
def test_numbers_that_are_no_reference_to_the_agents_list_name_no_item(head: str) -> None:
    assert not names_listed_item_by_number(head, _NUMBERED_POINTS)
    assert not names_listed_item_by_number("the problem with 2. is that", "No list here.")


def test_a_long_message_that_calls_itself_a_follow_up_is_one() -> None:
    # entireio/cli: after the agent's architecture document (labelled follow_up)
    text = (
        'one follow up: in case of "stash" -> new session, reset shadow branch when file '
        "changes happen -> can we reliable figure out when those file changes happen? Or "
        "would we rather track at the beginning of the new session that there is no overlap "
        "and by that keep a flag on the property that anything that would cause a checkpoint "
        "on the shadow branch will reset it?"
    )
    agent = "I've created the new architecture document describing the single-branch approach."
    assert kind_of(text, agent_text=agent) is TurnKind.FOLLOW_UP


_NO_LINT_ISSUES = "No lint issues — everything is clean already."


def test_saying_it_does_happen_after_the_agent_said_it_does_not_is_a_correction() -> None:
    # entireio/cli: "golangci-lint does fire a few times" right after the agent's claim
    # (labelled correction)
    assert affirms_what_agent_denied("golangci-lint does fire a few times", _NO_LINT_ISSUES)
    assert kind_of("golangci-lint does fire a few times", agent_text=_NO_LINT_ISSUES) is (
        TurnKind.CORRECTION
    )
    assert affirms_what_agent_denied("the hook did run twice.", "The hook never runs twice.")


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # a question, not a statement
        ("does golangci-lint fire?", _NO_LINT_ISSUES),
        ("it does fail?", _NO_LINT_ISSUES),
        # the person's own wish or a request with "do" in it
        ("I do want it to fail on warnings", _NO_LINT_ISSUES),
        ("can you do the fix?", _NO_LINT_ISSUES),
        ("let's do the hint if it's small", _NO_LINT_ISSUES),
        # "do" in another language
        ("Corrija o script do deploy.sh, para eu poder utilizar", _NO_LINT_ISSUES),
        # the agent denied nothing
        ("golangci-lint does fire a few times", "Ran golangci-lint over the package."),
        # a verb of no event
        ("the config does look fine", _NO_LINT_ISSUES),
    ],
)
def test_no_contradiction_is_read_where_nothing_is_affirmed_against_a_denial(
    text: str, agent: str
) -> None:
    assert not affirms_what_agent_denied(text, agent)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/git-sync: after the agent reported its heuristic (labelled correction)
        "not sure I like the euristic though",
        # hostile: the same dislike in other words
        "I don't like the new spacing",
        "I'm not a fan of how the table looks",
        "we don't love the output format",
    ],
)
def test_a_dislike_of_the_result_in_hedged_words_is_a_correction(text: str) -> None:
    agent = "Done: a genuine all-decimal abbreviated hash is left as-is. The tests pass."
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["I don't like the idea of a cache, let's keep it simple", "not sure I like to wait"]
)
def test_a_dislike_of_an_idea_or_of_waiting_is_no_verdict_on_the_result(text: str) -> None:
    agent = "Done: a genuine all-decimal abbreviated hash is left as-is. The tests pass."
    assert kind_of(text, agent_text=agent) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # JaydenXsoe/ocodex: after the agent's demo of its orchestrator (labelled correction)
        "it seems that the number guessing game is hardcoded, I want the orchestrator to spin "
        "up the ocodex binary using terminal cmds",
        # hostile: what was made, found unusable
        "the pdf is a bunch of nulls",
        "the exported csv is truncated",
        "the output is garbage",
    ],
)
def test_what_was_made_found_unusable_is_a_failure_report(text: str) -> None:
    assert reports_failure(text)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: typed while the agent worked (each labelled follow_up)
        "why is this different for gemini vs claude??",
        "that's the _right thing to do_, yes?",
        "hmm, we should be seeing some lastInteractions come through now yes?",
        # hostile: the same in other words
        "what does the second flag do?",
        "the cache is cleared on logout, right?",
    ],
)
def test_a_question_about_the_work_typed_while_it_runs_is_a_follow_up(text: str) -> None:
    agent = "Let me see which code path the agent commit uses."
    assert kind_of(text, agent_text=agent, queued=True, agent_ended=False) is (TurnKind.FOLLOW_UP)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: about how the agent works (labelled steering)
        "are you using your LSP as well?",
        "ceremony being followed?",
        # a redirect, not a question
        "use pnpm instead of npm for all of it",
    ],
)
def test_a_question_on_how_it_works_typed_while_it_runs_still_steers(text: str) -> None:
    agent = "Let me see which code path the agent commit uses."
    assert kind_of(text, agent_text=agent, queued=True, agent_ended=False) is TurnKind.STEERING


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # entireio/cli: both offers taken at once (labelled approval)
        (
            "yes and yes",
            "Want me to post these findings to Linear? And should we move on to planning?",
        ),
        # JanDeDobbeleer/oh-my-posh: the offer taken, with what it is named in a word
        # (labelled approval)
        ("go with the fix", "Go ahead with a fix, and if so which direction?"),
        ("proceed with the plan", "Here is the plan: 1. add the flag 2. wire it. Proceed?"),
    ],
)
def test_an_acceptance_of_each_offer_or_of_the_offer_named_is_an_approval(
    text: str, agent: str
) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


def test_a_verdict_then_the_report_that_it_is_merged_is_an_approval() -> None:
    # melagiri/code-insights: after the agent's PR was reviewed (labelled approval)
    agent = "PR #221 is ready: all checks green, review comments addressed."
    assert kind_of("great. this is merged", agent_text=agent) is TurnKind.APPROVAL
    assert kind_of("great. this is merged, now bump the version", agent_text=agent) is not (
        TurnKind.APPROVAL
    )


_FINDINGS = (
    "### Findings\n1. **JSON protocol** warning\n2. **rm** pattern\n3. **MCP** matcher\n"
    "4. **Anchoring**\n5. **Hook order**\n6. **Docs**\n\nWant me to address these findings?"
)


def test_yes_to_every_item_by_its_count_takes_the_offer() -> None:
    # melagiri/code-insights: "yes, address all 6" (labelled approval)
    assert kind_of("yes, address all 6", agent_text=_FINDINGS) is TurnKind.APPROVAL
    assert not picks_listed_item("yes, address all 6", _FINDINGS)
    assert picks_listed_item("yes, address 6", _FINDINGS)


def test_another_way_named_after_go_with_is_no_acceptance() -> None:
    agent = "Go ahead with a fix, and if so which direction?"
    assert kind_of("go with the other approach", agent_text=agent) is not TurnKind.APPROVAL


_PLAN = (
    "Implement the following plan:\n\n# Plan: Configure GoReleaser Pro for Homebrew Tap\n\n"
    "## Goal\nUpdate `.goreleaser.yaml` to publish the cask to the tap with a GitHub App token."
)


def test_an_accepted_plan_handed_over_after_the_agent_was_stopped_is_a_new_task() -> None:
    # entireio/cli: Claude Code writes the accepted plan as the next message, here after
    # the person stopped the agent (labelled new_task)
    agent = "Use `actions/create-github-app-token` to generate a short-lived token."
    assert kind_of(_PLAN, agent_text=agent, after_interrupt=True, agent_ended=False) is (
        TurnKind.NEW_TASK
    )


def test_the_same_plan_sent_again_is_read_as_a_message_sent_again() -> None:
    agent = "Use `actions/create-github-app-token` to generate a short-lived token."
    again = kind_of(
        _PLAN, agent_text=agent, after_interrupt=True, agent_ended=False, previous_text=_PLAN
    )
    assert again is not TurnKind.NEW_TASK


_NEW_CHANGE = (
    "great, new change. while creating sub session folders inside checkpoint root folder, we "
    "follow the next pattern: <session-id>-<n>; use the agent's session id instead"
)


def test_a_word_that_closes_the_last_thing_then_new_change_says_it_is_new() -> None:
    # entireio/cli: after the agent's report (labelled new_task, once typed after the
    # person stopped the agent)
    agent = "All tests pass and the folders are created as planned."
    assert says_something_new(_NEW_CHANGE)
    assert kind_of(_NEW_CHANGE, agent_text=agent) is TurnKind.NEW_TASK
    assert kind_of(_NEW_CHANGE, agent_text=agent, after_interrupt=True) is TurnKind.NEW_TASK
    # the same words sent again right after stopping the agent steer (labelled steering)
    again = kind_of(_NEW_CHANGE, agent_text=agent, after_interrupt=True, previous_text=_NEW_CHANGE)
    assert again is TurnKind.STEERING


def test_ok_never_mind_then_the_closing_step_says_nothing_new() -> None:
    assert not says_something_new("ok, never mind. commit and push")
    assert says_something_new("ok, never mind, let's add a dark mode instead")


#: Hoper-J/cpolar-connect, a Codex rollout that carries on another (2025-09-16T14-12-31,
#: line 324; labelled new_task): "continue that later; the commands' descriptions seem
#: inconsistent", after the agent's test plan ending "shall I draft these tests?"
_PUT_OFF = "等下再继续，目前每个命令的描述风格似乎不一致"
_TEST_PLAN_OFFER = (
    "**覆盖率目标与顺序**\n- 第一阶段: `tunnel.py` 解析路径。\n\n"
    "需要我起草这些测试的骨架文件（fixtures 和 mocks），并逐步补齐第一阶段用例吗？"
)


def test_putting_the_running_work_off_turns_to_something_new() -> None:
    assert kind_of(_PUT_OFF, agent_text=_TEST_PLAN_OFFER) is TurnKind.NEW_TASK
    assert says_something_new(_PUT_OFF)
    assert says_something_new("ok let's come back to this later. Can you add a dark mode?")
    assert says_something_new("park that for now, the settings page needs a search box")
    assert says_something_new("先放一放，帮我看看登录页")


@pytest.mark.parametrize(
    "text",
    [
        "we'll continue that later.",  # nothing turned to
        "let's continue tomorrow",
        "Let's continue later, commit and push",  # the closing step of the work
        "continue with the tests",  # goes on, puts nothing off
        "等下再继续",
        # (from a review) the work itself scheduled, or turned back to after the put-off
        "finish it later please",
        "continue later with the rest of the tests",
        "continue the rest later; right now the toggle still doesn't persist",
        "pause this and explain why the test failed",
        "put it aside and fix the typo in the header you just added",
        "等下再继续，先把刚才改的文件提交了",
        "先放一放，把刚才的测试跑一下",
        "let's come back to it later. thanks!",
        # (from a second review) the work's failure, a goodbye, an order's "first"
        "let's come back to this later. the login page is broken after your change",
        "I'll come back to this later. Why did the test fail though?",
        "ok let's continue tomorrow, please commit everything first",
        "let's continue tomorrow. thanks for all the help today!",
    ],
)
def test_putting_off_with_nothing_new_or_a_closing_step_after_it_says_nothing_new(
    text: str,
) -> None:
    assert not says_something_new(text)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: after the agent's report (each labelled follow_up)
        "commit this, then push + a draft PR",
        "push and draft PR please",
        # hostile: the same steps in other words
        "commit it, then push and a pull request",
        "commit everything & push",
    ],
)
def test_closing_steps_with_what_they_act_on_and_a_draft_pr_are_closing_steps(
    text: str,
) -> None:
    assert is_closing_step(text)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli's history (outside the repository): steps typed while a task ran,
        # which its replay task had kept as refinements of the work
        "commit please, then push and open a PR",
        "continue merge, then push",
        "complete the merge and push",
        "yes, then commit, push",
        "force push",
        # hostile: the same steps in other words
        "ok, finish the rebase and force-push",
        "then push",
    ],
)
def test_a_step_then_its_push_or_a_merge_under_way_is_a_closing_step(text: str) -> None:
    assert is_closing_step(text)
    assert not refines_the_work(text)


@pytest.mark.parametrize(
    "text",
    [
        "commit this feature and add tests",
        "commit this, then add a README",
        "then fix the parser",
        "continue the merge sort implementation",
        "complete the merge function",
        "force push the fix for parser.py",
    ],
)
def test_a_closing_step_beside_work_of_its_own_is_no_bare_step(text: str) -> None:
    assert not is_closing_step(text)
    assert refines_the_work(text)


@pytest.mark.parametrize(
    "text", ["link the PR", "respond to the PR comments", "log a linear bug for this"]
)
def test_an_act_in_the_tracker_typed_while_a_task_ran_refines_no_work(text: str) -> None:
    """entireio/cli's history: its replay tasks listed "link the PR" among the refinements
    of the work; a replay cannot link anything, and the work is judged without it."""
    assert not refines_the_work(text)


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # entireio/cli: after the agent explained the shadow branches (labelled follow_up)
        (
            "and can you check if there is maybe a bug with marking a session as "
            "inactive/finished in that setup?",
            "- If there are new changes since the last commit, they'll checkpoint to the new "
            "shadow branch\n- If there aren't, `SaveChanges` will be a no-op",
        ),
        # entireio/git-sync: after the agent's answer on SHA-256 targets (labelled follow_up)
        (
            "and if we pick up sync later this would also work?",
            "It should refuse a SHA-256-only push target with a clear error rather than try to "
            "implement translation itself.",
        ),
    ],
)
def test_a_request_that_adds_to_the_answer_is_no_new_subject(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is not TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # entireio/cli: the agent's reading confirmed (labelled approval)
        (
            "that was the idea, yes",
            "So the lane should only show sessions that touched main? Is that the intent?",
        ),
        # melagiri/code-insights: to the agent's check before it goes on (labelled
        # approval)
        ("i am good", "Anything you want to change before I write the plan?"),
        # hostile: the same in other words
        ("that's exactly what I meant", "Do you mean the lane should follow the branch?"),
        ("we're fine", "Any concerns before I merge it?"),
    ],
)
def test_a_confirmation_of_the_agents_reading_is_an_approval(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


def test_whats_next_goes_on_with_the_task() -> None:
    # entireio/git-sync: after the agent's report of one step of its plan (labelled
    # follow_up)
    agent = "Step 2 is done: the prune test covers both modes, and the suite is green."
    assert kind_of("Whats next?", agent_text=agent) is TurnKind.FOLLOW_UP
    assert kind_of("ok, what's the next step?", agent_text=agent) is TurnKind.FOLLOW_UP


def test_a_marked_question_typed_while_it_runs_is_a_follow_up() -> None:
    # entireio/cli: queued while the agent worked (labelled follow_up)
    agent = "Let me simplify the save path."
    assert (
        kind_of(
            "Q: when would needSave ever be false?",
            agent_text=agent,
            queued=True,
            agent_ended=False,
        )
        is TurnKind.FOLLOW_UP
    )


@pytest.mark.parametrize(
    "text",
    [
        # entireio/git-sync: after the agent finished the last issue (labelled new_task)
        "ok then maaybe work on https://github.com/entireio/git-sync/issues/47",
        # hostile: the same with a tracker key or a number
        "let's pick up ENT-312",
        "can you work on #58",
    ],
)
def test_work_on_an_issue_named_by_its_link_or_key_is_a_new_task(text: str) -> None:
    agent = "Done: the retry now backs off, and the integration test passes."
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK


def test_work_on_the_running_thing_names_no_issue() -> None:
    agent = "Done: the retry now backs off, and the integration test passes."
    assert kind_of("ok then work on the tests", agent_text=agent) is not TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # entireio/git-sync (Codex): after the agent's README video change (labelled
        # correction)
        "when merged the videos dont show up",
        # entireio/cli: after the agent's fix to the checkpoint list (labelled correction)
        "in /Users/soph/Work/entire/test/test1234 the cli now shows no checkpoints, can you check?",
        # hostile: the same in other words
        "when deployed the page doesn't load",
        "the list returns zero sessions",
    ],
)
def test_what_the_result_does_not_do_when_used_is_a_failure_report(text: str) -> None:
    assert reports_failure(text)
    agent = "Done: the change is pushed and the PR is updated."
    assert kind_of(text, agent_text=agent) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "the page lists no errors",
        "a grep for RunGitCommand returns no matches",
        "lint shows no warnings",
    ],
)
def test_good_news_or_a_search_that_found_nothing_reports_no_failure(text: str) -> None:
    assert not reports_failure(text)


def test_a_condition_set_in_a_request_reports_no_failure() -> None:
    agent = "Done: the change is pushed and the PR is updated."
    assert kind_of("make the CI fail when the tests don't run", agent_text=agent) is not (
        TurnKind.CORRECTION
    )


def test_what_the_person_is_talking_about_and_not_is_what_was_meant() -> None:
    # melagiri/code-insights: typed after stopping the agent, which was reworking
    # the whole report (labelled correction)
    assert says_what_was_meant("i am talking about the facets, not the whole report")
    assert not says_what_was_meant("I'm talking about the new page")


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli and entireio/git-sync: after the agent's report (each labelled
        # new_task)
        "can you review the changes",
        "can you review the changes in the branch now once more as a whole",
        "can you review the faq changes in this branch, can you look at them as an engineer",
        # hostile: the same in other words
        "ok, now do a code review of the diff",
        "please review this PR",
    ],
)
def test_a_review_of_the_work_as_a_whole_is_a_new_task(text: str) -> None:
    agent = "Done: the FAQ has two new entries and the README links them."
    assert kind_of(text, agent_text=agent) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: a part just made, or the review asked again (labelled follow_up)
        "can you review the tests again?",
        "can you review the changes again",
        "can you review the added tests that they don't duplicate testing",
    ],
)
def test_a_review_of_a_part_or_asked_again_is_no_review_of_the_work(text: str) -> None:
    turn = TurnInput(
        text=text,
        has_episode=True,
        agent_text="Done: added the tests for the FAQ links, and the changes pass.",
        agent_worked=True,
    )
    assert "asks for a review of the work" not in classify_turn(turn, lexicon_for()).reasons


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: after the agent changed the code (each labelled follow_up)
        "can we add some simple tests?",
        "add test to check we print wrong agent name",
        # hostile: the same in other words
        "ok, could you write a few unit tests",
        "let's also add integration tests",
    ],
)
def test_tests_asked_for_after_the_agent_changed_things_test_its_work(text: str) -> None:
    agent = "The warning now names the agent the session was started with."
    assert kind_of(text, agent_text=agent) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        # blind set 83 (JonSnow1807/RealityGuard, not in the repository; MIT), after the
        # agent reported the system built and tested (labelled follow_up)
        "Have you documented and pushed these to my github under my name only with no "
        "reference of you",
        # entireio/cli's history (not in the repository): the same ask, with its mark
        "has that skill filtering been applied to entire explain as well?",
        # hostile: the same in other words
        "did you also run the integration tests",
        "ok have you committed it",
    ],
)
def test_asking_whether_the_agent_did_a_step_goes_on_with_its_task(text: str) -> None:
    agent = "Built the event privacy filter and its benchmark; all checks pass."
    assert kind_of(text, agent_text=agent) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        "Have you heard of htmx? Build the settings page with it instead of React",
        "Did you know the billing service has its own queue? Move the invoice jobs onto it",
    ],
)
def test_a_question_that_brings_something_new_is_not_asking_whether_it_was_done(
    text: str,
) -> None:
    agent = "Built the event privacy filter and its benchmark; all checks pass."
    turn = TurnInput(text=text, has_episode=True, agent_text=agent, agent_worked=True)
    assert "asks whether the agent did it" not in classify_turn(turn, lexicon_for()).reasons


def test_a_long_spec_of_tests_of_its_own_is_not_read_as_tests_of_the_work() -> None:
    text = (
        "Add tests and fix any rough edges.\n\n1. In apps/api, create "
        "src/__tests__/artifacts.test.ts using vitest:\n   - Test POST /api/artifacts requires a "
        "title\n   - Test GET returns the list in order\n2. In apps/web, add a smoke test that "
        "renders the dashboard"
    )
    turn = TurnInput(
        text=text, has_episode=True, agent_text="Deployed to staging.", agent_worked=True
    )
    assert "tests the work just done" not in classify_turn(turn, lexicon_for()).reasons


def test_what_a_change_is_for_reports_no_failure() -> None:
    # entireio/cli: a request with its purpose after "so" (labelled follow_up)
    assert not reports_failure("can you make the log so it shows a normal log format with paging?")
    assert not reports_failure("I changed the flag, so that it shows the warning")
    # what it shows, said as what the person saw, is still a report
    assert reports_failure("it shows an error")
    assert reports_failure("so it shows an error now")


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        # jdx/mise (Codex): the fix put up for approval (labelled approval)
        (
            "fix it",
            "Plan: introduce a named type alias for the consumed lockfile keys, then run Clippy "
            "and `mise run lint-fix`, commit, and push.\n\nApprove this focused fix?",
        ),
        # entireio/cli: one offer after numbered steps, then a sentence of its detail
        # (labelled approval)
        (
            "yes, please do",
            "5. **Calculate tokens** from both transcripts\n6. **Store in metadata.json** when "
            "writing checkpoint\n\nWant me to implement this? The token stats would be added to "
            "`metadata.json` alongside the existing fields.",
        ),
        # entireio/git-sync: an "or" that names no other act (labelled approval)
        (
            "yes, apply that",
            "Suggested phrasing: …\n\nWant me to apply that, or pick a different one?",
        ),
    ],
)
def test_a_yes_to_one_act_put_up_is_an_approval(text: str, agent: str) -> None:
    assert kind_of(text, agent_text=agent) is TurnKind.APPROVAL


def test_a_yes_to_one_of_two_acts_is_no_bare_approval() -> None:
    agent = "Suggested phrasing: …\n\nWant me to apply that, or revert the FAQ instead?"
    assert kind_of("yes, apply that", agent_text=agent) is not TurnKind.APPROVAL


@pytest.mark.parametrize(
    ("command", "output", "failed"),
    [
        # the histories' misses, found by a blind labeller among shell results that name an
        # error and were read as none (stop 75). entireio/git-sync (MIT): go vet's report
        # of a test file that no longer compiles
        (
            "go vet ./... 2>&1 | head -30",
            "# entire.io/entire/git-sync/internal/gitproto\n"
            "# [entire.io/entire/git-sync/internal/gitproto]\n"
            "vet: internal/gitproto/push_test.go:150:17: not enough arguments in call to PushPack",
            True,
        ),
        # JanDeDobbeleer/oh-my-posh (MIT): markdownlint-cli2's findings behind a tail
        (
            "npx markdownlint-cli2 website/docs/configuration/colors.mdx 2>&1 | tail -20",
            "Summary: 6 issues in 1 file\nwebsite/docs/configuration/colors.mdx:350:121 error "
            "MD013/line-length Line length [Expected: 120; Actual: 128]",
            True,
        ),
        # entireio/cli (MIT): golangci-lint's count behind mise's task name, its verdict cut
        (
            "mise run lint 2>&1 | tail -30",
            "[lint:go] cmd/entire/cli/wingman.go:265:5: Error return value of `f.WriteString` "
            "is not checked (errcheck)\n[lint:go] \t_, _ = f.WriteString(sessionID)\n"
            "[lint:go] \t   ^\n[lint:go] 2 issues:\n[lint:go] * errcheck: 2",
            True,
        ),
        # jq refusing what it was piped, over ssh (the words of a history whose repository
        # grants no licence, in the program's fixed form)
        (
            "ssh root@host 'curl -s http://localhost:3333/mcp | jq -r .result.content'",
            "Ubuntu 24.04.4 LTS\njq: parse error: Invalid numeric literal at line 1, column 8",
            True,
        ),
        (
            "cat pr-comments.json | jq '.[].body'",
            'jq: error (at <stdin>:0): Cannot index string with "body"',
            True,
        ),
        # argparse's refusal and the AWS CLI's error, behind a tail
        (
            "python deploy.py 2>&1 | tail -3",
            "usage: deploy.py [-h] --env ENV\n"
            "deploy.py: error: the following arguments are required: --env",
            True,
        ),
        (
            "aws cloudfront update-distribution --id E1 --if-match X --distribution-config "
            "file:///tmp/cf.json 2>&1 | tail -3",
            "An error occurred (InvalidOriginReadTimeout) when calling the UpdateDistribution "
            "operation: Your request of setting originReadTimeout is not within the valid range.",
            True,
        ),
        # a program's complaint over its usage text (gh, in a history whose repository
        # grants no licence, in the program's fixed words)
        (
            "gh run view --log-failed 2>&1 | tail -100",
            "run or job ID required when not running interactively\n\nUsage:  gh run view "
            "[<run-id>] [flags]\n\nFlags:\n  -a, --attempt uint      The attempt number",
            True,
        ),
        # near misses: the usage asked for; a search hit and a source line that name an
        # error, a clean count
        (
            "gh run view --help 2>&1 | head -5",
            "View a summary of a workflow run.\n\nUsage:  gh run view [<run-id>] [flags]",
            False,
        ),
        ("grep -rn 'error:' src | head", "src/cli.py:42:    parser.error: str = ''", False),
        (
            "rg -n 'error MD013' docs | head",
            "docs/lint.md:12: error MD013 means a long line",
            False,
        ),
        ("mise run lint 2>&1 | tail -3", "[lint:go] 0 issues.\nFinished in 2.10s", False),
        (
            "cat notes.md | head -3",
            "Use jq: it reports a parse error when the input is not JSON",
            False,
        ),
    ],
)
def test_a_programs_own_error_line_is_a_failure_wherever_the_exit_was_hidden(
    command: str, output: str, failed: bool
) -> None:
    call = _call(1, "Bash", json.dumps({"command": command}))
    assert is_failed_result(_result(2, 1, output), call) is failed


def test_the_status_a_command_printed_is_read_above_claude_codes_cwd_note() -> None:
    """entireio/cli's history (MIT): `…; echo "---exit: $?"` after a `cd`, and Claude Code's
    note that it reset the shell's directory written under the printed status."""
    command = json.dumps(
        {
            "command": "cd /tmp/test-enable-repo && /tmp/entire-test enable --agent claude-code "
            '2>&1; echo "---exit: $?"',
            "description": "Test --agent with valid value",
        }
    )
    out = (
        "Missing agent name. Available agents:\n\n  claude-code    (default)\n  gemini\n\n"
        "Usage: entire enable --agent <agent-name>\n---exit: {0}\n"
        "Shell cwd was reset to /Users/dip/Repositories/cli"
    )
    call = _call(1, "Bash", command)
    assert is_failed_result(_result(2, 1, out.format(1)), call)
    assert not is_failed_result(_result(2, 1, out.format(0)), call)


#: A release checked against the registry before publishing, `npm view … || true`, as npm
#: 10 answers under Codex's exec wrapper (the answer's own words, for a made-up version).
_NPM_VERSION_404 = (
    "Chunk ID: e97718\nWall time: 0.7612 seconds\nProcess exited with code {code}\n"
    "Original token count: 151\nOutput:\n"
    "npm error code E404\nnpm error 404 No match found for version 9.9.9\nnpm error 404\n"
    "npm error 404  'left-pad@9.9.9' is not in this registry.\nnpm error 404\n"
    "npm error 404 Note that you can also install from a\n"
    "npm error 404 tarball, folder, http url, or git url.\n"
    '{{\n  "error": {{\n    "code": "E404",\n'
    '    "summary": "No match found for version 9.9.9",\n'
    '    "detail": "\'left-pad@9.9.9\' is not in this registry.\\n\\nNote that you can also '
    'install from a\\ntarball, folder, http url, or git url."\n  }}\n}}\n'
    "npm error A complete log of this run can be found in: "
    "/home/USER/.npm/_logs/2026-06-18T05_08_54_955Z-debug-0.log\n"
)


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("npm view left-pad@9.9.9 version --json || true", _NPM_VERSION_404.format(code=0)),
        (
            "npm view @scope/core@9.9.9 version --json; npm view left-pad@9.9.9 version --json",
            _NPM_VERSION_404.format(code=1),
        ),
        # npm 8's wording of the same answer, and pnpm's
        (
            "npm info left-pad-nope",
            "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/"
            "left-pad-nope - Not found\nnpm ERR! 404\nnpm ERR! 404  'left-pad-nope@*' is not "
            "in this registry.\n",
        ),
        (
            "pnpm view nope-pkg",
            "ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/nope-pkg: Not Found - 404",
        ),
        # is there a pull request for the branch? none
        (
            "gh pr view --json url,title,body,state",
            "Chunk ID: 23dda7\nProcess exited with code 1\nOutput:\n"
            'no pull requests found for branch "main"\n',
        ),
    ],
)
def test_a_lookup_answered_not_there_is_benign(command: str, output: str) -> None:
    """Asking the registry whether a version was published, or GitHub whether the branch
    has a pull request, and hearing "no" is an answer, as grep's exit 1 is: a release
    checked before publishing would otherwise make its "not in this registry" a recurring
    failure pattern."""
    code = 0 if "exited with code 0" in output else 1
    call = _call(1, "exec_command", json.dumps({"cmd": command}))
    result = _result(2, 1, output, exit_code=code)
    assert is_failed_result(result, call)
    assert judge_errors([call, result]).verdicts[2].kind == "benign"


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # the lookup failed for another reason: no network, no login, a bad flag
        (
            "npm view left-pad version",
            "npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/"
            "left-pad failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org",
        ),
        (
            "npm view left-pad@9.9.9 version",
            "npm error code E404\nnpm error 404 No match found for version 9.9.9\n"
            "npm error code E401\nnpm error Unable to authenticate, need: Basic realm",
        ),
        (
            "gh pr view --json url",
            'no pull requests found for branch "main"\nerror connecting to api.github.com',
        ),
        # the same words from a command that asked nothing of the registry
        (
            "npm publish",
            "npm error code E404\nnpm error 404 Not Found - PUT "
            "https://registry.npmjs.org/@scope%2fpkg - Not found",
        ),
        (
            "npm install left-pad-nope",
            "npm error code E404\nnpm error 404 Not Found - GET "
            "https://registry.npmjs.org/left-pad-nope - Not found",
        ),
        # a pull request asked for by its number that is not there is a wrong number
        (
            "gh pr view 123",
            "GraphQL: Could not resolve to a PullRequest with the number "
            "of 123. (repository.pullRequest)",
        ),
    ],
)
def test_a_lookup_that_failed_otherwise_stays_a_failure(command: str, output: str) -> None:
    call = _call(1, "exec_command", json.dumps({"cmd": command}))
    result = _result(2, 1, output, exit_code=1)
    assert judge_errors([call, result]).verdicts[2].kind == "root"


#: The shape of Codex's GitHub connector answering a call it could not make (a token the
#: organization's SAML enforcement blocks), written unflagged under its "Wall time" header.
_CONNECTOR_403 = (
    'Wall time: 2.7441 seconds\nOutput:\n{"error":"GitHub API error 403: {\\"message\\":'
    '\\"Resource protected by organization SAML enforcement. You must grant your OAuth token '
    'access to this organization.\\",\\"status\\":\\"403\\"}","error_code":"FORBIDDEN"}'
)


def test_a_connectors_error_object_is_a_failed_result() -> None:
    call = _call(1, "mcp__codex_apps__github._fetch_pr", '{"repo": "o/r", "pr_number": 12}')
    result = _result(2, 1, _CONNECTOR_403)
    assert is_failed_result(result, call)
    assert judge_errors([call, result]).verdicts[2].kind == "root"
    assert signature_of(_CONNECTOR_403, call.tool_name).text.startswith("GitHub API error <n>")
    # an object whose error is empty reports none
    assert not is_failed_result(_result(2, 1, 'Output:\n{"error": null, "data": []}'), call)
    # a shell that prints such an object speaks through its exit code
    shell = _call(1, "exec_command", '{"cmd": "cat fixtures/forbidden.json"}')
    printed = _result(2, 1, '{"error": "forbidden", "status": 403}', exit_code=0)
    assert not is_failed_result(printed, shell)


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # a pull request body whose markdown backticks the shell ran as commands: it exited
        # 0 and posted the mangled body
        (
            'gh pr create --title "Retry" --body "Adds `retry.max_attempts: 3` to the config"',
            "Chunk ID: 3f1333\nWall time: 0.0000 seconds\nProcess exited with code 0\n"
            "Output:\nzsh:1: command not found: retry.max_attempts:\n"
            "https://github.com/o/r/pull/12\n",
        ),
        # backticks in a double-quoted search pattern
        (
            'rg -n "`@scope/core`|packages/core" packages',
            "zsh:1: no such file or directory: @scope/core\n"
            'packages/core/package.json:2:  "name": "@scope/core",\n',
        ),
        ("cat notes.txt; bash -c 'gti status'", "notes\nbash: line 1: gti: command not found"),
    ],
)
def test_a_line_the_shell_refused_in_part_failed_whatever_its_exit(
    command: str, output: str
) -> None:
    call = _call(1, "exec_command", json.dumps({"cmd": command}))
    result = _result(2, 1, output, exit_code=0)
    assert is_failed_result(result, call)
    assert judge_errors([call, result]).verdicts[2].kind == "root"


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # a glob that matched nothing: `ls dir/*.md | wc -l` asks whether there are any
        (
            "ls .planning/phases/*-PLAN.md | wc -l",
            "       0\n(eval):1: no matches found: /Users/USER/app/.planning/phases/*-PLAN.md",
        ),
        # a shell's start-up file complaining is the machine's noise, not this line's
        ("git status --short", "/Users/USER/.zshrc:12: command not found: compdef\n M a.py"),
        # a log the command printed that quotes a shell's complaint, indented
        ("cat job.log", "step 3 printed:\n    zsh:1: command not found: foo\nstep 4 ok"),
    ],
)
def test_a_glob_that_matched_nothing_or_anothers_complaint_is_no_failure(
    command: str, output: str
) -> None:
    call = _call(1, "exec_command", json.dumps({"cmd": command}))
    assert not is_failed_result(_result(2, 1, output, exit_code=0), call)


def test_a_lookup_beside_another_package_command_answers_nothing() -> None:
    """`npm view x && npm publish` failing with the registry's 404 is the publish
    failing (a scope that does not exist), not the lookup's "not there"."""
    output = (
        "npm error code E404\nnpm error 404 Not Found - PUT https://registry.npmjs.org/"
        "@nope%2fpkg - Not found\nnpm error 404\nnpm error 404  '@nope/pkg@1.0.0' is not in "
        "this registry.\n"
    )
    for command in ("npm view @nope/pkg version || true && npm publish", "npm view x; npm i y"):
        call = _call(1, "exec_command", json.dumps({"cmd": command}))
        result = _result(2, 1, output, exit_code=1)
        assert judge_errors([call, result]).verdicts[2].kind == "root"


@pytest.mark.parametrize("text", ["commit then", "commit it then", "ok commit then", "commit"])
def test_a_closing_step_typed_while_the_agent_works_adds_a_step(text: str) -> None:
    # PackmindHub/context-evaluator's history (blind set 81, labelled follow_up): "commit
    # then", queued while the agent implemented a plan; a step for when it is done
    agent = "Now let me update the remediation modal and run the tests."
    assert is_closing_step(text)
    assert kind_of(text, agent_text=agent, queued=True, agent_ended=False) is (TurnKind.FOLLOW_UP)
    # what redirects the running work still steers
    assert kind_of("use pnpm instead", agent_text=agent, queued=True, agent_ended=False) is (
        TurnKind.STEERING
    )


@pytest.mark.parametrize(
    ("text", "reports"),
    [
        # entireio/cli's history (blind set 81, labelled follow_up): typed while the agent
        # looked into a failing CI run; it asks the agent to find out
        ("does it fail locally?", False),
        ("is the build failing on main too?", False),
        ("do the tests crash on linux as well?", False),
        # a question of why takes the failure as met; a report beside the question is one
        ("why does the build still fail?", True),
        ("it fails locally", True),
        ("does it fail locally? it fails for me every time", True),
    ],
)
def test_a_question_of_whether_it_fails_reports_no_failure(text: str, reports: bool) -> None:
    assert reports_failure(text) is reports


@pytest.mark.parametrize(
    "output",
    [
        # entireio/cli's history (blind set 81): `go build ./... 2>&1 | head -30`, exit 0
        "# entire.io/cli/cmd/entire/cli\ncmd/entire/cli/explain.go:275:95: too many arguments "
        "in call to formatCheckpointOutput\n\thave (*checkpoint.CheckpointSummary, string)\n"
        "\twant (*checkpoint.ReadCommittedResult, string)",
        "# github.com/entireio/cli/cmd/entire/cli/strategy\ncmd/entire/cli/strategy/"
        'manual_commit_hooks.go:12:2: "time" imported and not used',
        # a test binary's package, as `go vet` and `go test` name it
        "# example.com/app/store [example.com/app/store.test]\nstore/db_test.go:9:2: undefined: x",
    ],
)
def test_gos_compile_errors_behind_a_pipe_are_a_failure(output: str) -> None:
    call = _call(1, "Bash", json.dumps({"command": "go build ./... 2>&1 | head -30"}))
    result = _result(2, 1, output)
    assert judge_errors([call, result]).verdicts[2].kind == "root"


@pytest.mark.parametrize(
    "output",
    [
        # a markdown heading over a Go line, a build with nothing to say
        "# Notes\nmain.go:12:3: see the loop here",
        "",
        "ok  \texample.com/app/store\t0.41s",
    ],
)
def test_a_heading_or_a_quiet_build_is_no_compile_error(output: str) -> None:
    call = _call(1, "Bash", json.dumps({"command": "go build ./... 2>&1 | head -30"}))
    assert 2 not in judge_errors([call, _result(2, 1, output)]).verdicts


def test_a_golangci_finding_behind_a_pipe_is_a_failure() -> None:
    # entireio/cli's history (blind set 82): `golangci-lint run ./x/ 2>&1 | head -30`, exit 0
    output = (
        "cmd/entire/cli/agent/openclaw/transcript.go:119:18: string `message` has 3 "
        'occurrences, make it a constant (goconst)\n\t\tif msg.Type == "message" {\n\t\t   ^\n'
        "cmd/entire/cli/agent/openclaw/hooks.go:103:12: G306: Expect WriteFile permissions "
        "to be 0600 or less (gosec)"
    )
    call = _call(1, "Bash", json.dumps({"command": "golangci-lint run ./x/ 2>&1 | head -30"}))
    assert judge_errors([call, _result(2, 1, output)]).verdicts[2].kind == "root"
    # a test's log line of that shape is indented under its test, and a passing run says so
    passing = "=== RUN   TestX\n    x_test.go:12: loaded (cache)\n--- PASS: TestX (0.00s)\nPASS"
    call = _call(3, "Bash", json.dumps({"command": "go test ./... 2>&1 | tail"}))
    assert 4 not in judge_errors([call, _result(4, 3, passing)]).verdicts


def test_the_code_a_linter_quotes_under_its_finding_does_not_sign() -> None:
    # entireio/cli's history: dupl's findings quote the duplicated code, whose words
    # ("t.Fatalf(…)", "return fmt.Errorf(…)") had signed unrelated findings alike
    output = (
        "cmd/entire/cli/reset_test.go:17: 17-67 lines are duplicate of "
        "`cmd/entire/cli/clean_test.go:16-66` (dupl)\n"
        "func setupResetTestRepo(t *testing.T) {\n\tif err != nil {\n"
        '\t\tt.Fatalf("failed to init git repo: %v", err)\n\t}\n'
    )
    signed = signature_of(output, "Bash", 1, program="golangci-lint").text
    assert signed == "<path>: <n>-<n> lines are duplicate of <q> (dupl)"
    # go test's own lines are indented under their test, and still sign its failure
    failing = (
        "--- FAIL: TestEnableDisable (0.01s)\n    --- FAIL: TestEnableDisable/manual-commit "
        "(0.00s)\n        setup_test.go:45: hook failed: exit status 1 (stderr)\nFAIL"
    )
    signed = signature_of(failing, "Bash", 1, program="go").text
    assert signed == "<path>: hook failed: exit status <n> (stderr)"
