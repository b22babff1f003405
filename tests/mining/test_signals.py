"""Each outcome signal, and the outcome rule."""

from __future__ import annotations

import json
import unicodedata

import pytest

from sleepd.mining.episodes import segment
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.signals import (
    Outcome,
    SignalDraft,
    derive_outcome,
    detect_signals,
    replaced,
    run_status,
)

from .builders import SessionBuilder, views


def signals_of(b: SessionBuilder, *, over: bool = False) -> list[SignalDraft]:
    episodes = segment(views(b), lexicon_for())
    assert len(episodes) == 1
    return detect_signals(episodes[0], lexicon_for(), session_over=over, is_last=True)


def kinds(signals: list[SignalDraft]) -> list[str]:
    return sorted(s.kind for s in signals)


def test_recovered_tool_error() -> None:
    b = SessionBuilder().prompt("Install deps").bash("npm install", "EACCES", exit_code=1)
    b.bash("pnpm install")
    sigs = signals_of(b)
    assert kinds(sigs) == ["tool_error_recovered"]
    assert sigs[0].polarity == 0 and sigs[0].detail == "exit 1"


def test_unrecovered_last_error_and_abandoned_session() -> None:
    b = SessionBuilder().prompt("Deploy to staging").bash("./deploy.sh", "boom", exit_code=2)
    sigs = signals_of(b, over=True)
    # the transcript stops on the failed result: nobody can tell how it ended
    assert kinds(sigs) == ["cut_off", "tool_error"]
    outcome = derive_outcome(sigs)
    assert (outcome.outcome, outcome.rule) == ("unknown", "stopped_mid_work")
    assert "cut_off" not in kinds(signals_of(b, over=False))
    # the agent answered and gave up: a failure, justified by its words
    b.say("I couldn't get the deploy script to work: the staging host refuses the key.")
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "agent_gave_up")
    assert outcome.event_ids == (views(b)[-1].id,)


@pytest.mark.parametrize(
    "question",
    [
        # wild samples 54 and 55 (not in the repository)
        "where are we",
        "Hi Claude, please describe your current execution environment. Check and report",
        "can you help me understand what each file is doing",
        "how to know where the current mapping is defined in vim?",
        # a yes-or-no question after what the person did (its clangd settings pasted after)
        "I added these for esp project, but are any of these going to affect any other use "
        'cases?     "clangd.arguments": [       "--background-index",       "--clang-tidy",',
        "does the parser still accept tabs?",
    ],
)
def test_a_question_answered_after_a_failed_lookup_is_no_failure(question: str) -> None:
    """The answer is the deliverable: a file the agent failed to read on the way, with the
    answer after it and no complaint, does not fail the episode; a change asked for does."""
    b = SessionBuilder().prompt(question)
    b.bash("cat ~/.config/app.toml", "No such file", exit_code=1)
    b.say("You are in a WSL2 environment: the OS version and the cgroup output show it.")
    outcome = derive_outcome(signals_of(b, over=True))
    assert outcome.outcome == "success"
    b = SessionBuilder().prompt("Fix the deploy script").bash("./deploy.sh", "boom", exit_code=2)
    # (no claim that the work is done: a claim after the error is its own rule)
    b.say("The deploy script reads its target from STAGE_HOST.")
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "unrecovered_error")


@pytest.mark.parametrize(
    "request_text",
    [
        "can you fix the deploy script?",
        "would you make the deploy script target staging?",
        "Fix the deploy script, and does it need the old key?",
    ],
)
def test_work_asked_as_a_question_still_fails_on_its_error(request_text: str) -> None:
    b = SessionBuilder().prompt(request_text).bash("./deploy.sh", "boom", exit_code=2)
    # (no claim that the work is done: a claim after the error is its own rule)
    b.say("The deploy script reads its target from STAGE_HOST.")
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "unrecovered_error")


@pytest.mark.parametrize(
    "last_words",
    [
        # wild sample 27 (not in the repository): Spec Kit prompts run with no arguments
        'ERROR "No feature description provided"',
        "I still don't have the feature description that should follow `/speckit.specify`. "
        "Please run the command again with the actual description so I can generate it.",
        # wild sample 29: stopped for a missing file
        "I can't proceed yet: the feature spec file is missing. Do you want me to recreate "
        "the spec from your original description?",
    ],
)
def test_an_agent_that_stopped_for_want_of_input_failed(last_words: str) -> None:
    b = SessionBuilder().prompt("/speckit.specify").say(last_words)
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "agent_gave_up")


@pytest.mark.parametrize(
    "last_words",
    [
        # work done and reported, its check not run (modelled on a line of one of the
        # histories read outside the repository): the work is not given up
        "Removed the redundant conversions in refs.go. I tried to rerun the linter, but it "
        "failed on a network fetch, so I couldn't verify the full lint pass from this sandbox.",
        "Done. An error page now shows when the API returns ERROR codes.",
        "Fixed: the job can continue after a restart; I can proceed to the next task if you like.",
    ],
)
def test_words_near_those_in_a_finished_answer_are_no_giving_up(last_words: str) -> None:
    b = SessionBuilder().prompt("add an error page").say(last_words)
    assert derive_outcome(signals_of(b, over=True)).outcome == "success"


def test_failing_tests_then_passing() -> None:
    b = SessionBuilder().prompt("Fix the parser tests")
    failing = "FAILED tests/test_parser.py::test_x - AssertionError\n=== 1 failed in 0.1s ==="
    b.bash("pytest", failing)
    b.bash("pytest", "=== 12 passed in 0.3s ===")
    sigs = signals_of(b)
    assert kinds(sigs) == ["test_failure_recovered", "tests_passed"]
    assert derive_outcome(sigs).outcome == "success"


def test_status_per_runner() -> None:
    assert run_status("--- FAIL: TestParse (0.00s)") == "failed"
    assert run_status("Tests:       2 failed, 10 passed, 12 total") == "failed"
    assert run_status("test result: FAILED. 3 passed; 1 failed") == "failed"
    assert run_status("test parser::it_works ... FAILED") == "failed"
    assert run_status("ok  \tgithub.com/x/y\t0.012s") == "passed"
    assert run_status("test result: ok. 4 passed; 0 failed") == "passed"
    assert run_status("Tests:       10 passed, 10 total") == "passed"
    assert run_status("all good") is None


def test_correction_then_approval_is_success_after_correction() -> None:
    b = SessionBuilder().prompt("Install deps").bash("npm install")
    b.prompt("no, use pnpm not npm").bash("pnpm install").prompt("thanks, works now")
    sigs = signals_of(b)
    assert kinds(sigs) == ["approval", "user_correction"]
    outcome = derive_outcome(sigs)
    assert (outcome.outcome, outcome.rule) == ("mixed", "approved_after_correction")
    assert len(outcome.event_ids) == 2


def test_approval_then_correction_is_failure_and_drops_the_approval() -> None:
    b = SessionBuilder().prompt("Fix the header").say("done").prompt("perfect")
    b.prompt("wait, that's wrong on mobile")
    sigs = signals_of(b)
    assert kinds(sigs) == ["user_correction"]
    assert derive_outcome(sigs).outcome == "failure"


def test_plain_approval_is_success() -> None:
    b = SessionBuilder().prompt("Write the changelog").say("done").prompt("lgtm")
    outcome = derive_outcome(signals_of(b))
    assert (outcome.outcome, outcome.rule, outcome.confidence) == ("success", "approved", 0.9)


def test_interrupt_retry_and_undo() -> None:
    b = SessionBuilder().prompt("Run the migration")
    b.bash("alembic upgrade head", "locked", exit_code=1, call_id="a1")
    b.bash("alembic upgrade head", "locked", exit_code=1, call_id="a2")
    b.bash("git revert HEAD", "reverted")
    b.interrupt()
    b.prompt("undo that")
    found = kinds(signals_of(b))
    assert "retry" in found and "interrupt" in found
    assert found.count("undo") == 2  # the command and the user's request
    assert "user_correction" in found


@pytest.mark.parametrize(
    ("command", "undo"),
    [
        ('git -C "C:\\src\\app" reset --hard HEAD~1', True),
        ("git -c core.hooksPath=/dev/null --no-pager revert HEAD", True),
        ("git -C app checkout -b feature", False),
        ("git -C reset status", False),  # a folder named "reset" is no undo
    ],
)
def test_an_undo_reads_the_same_after_gits_own_options(command: str, undo: bool) -> None:
    b = SessionBuilder().prompt("Tidy the release branch").bash(command, "ok").say("Done.")
    assert ("undo" in kinds(signals_of(b))) is undo


def test_no_signals_is_unknown() -> None:
    b = SessionBuilder().prompt("Explain this function").say("It parses dates.")
    outcome = derive_outcome(signals_of(b))
    assert (outcome.outcome, outcome.rule, outcome.event_ids) == ("unknown", "no_clear_signal", ())


def test_a_correction_the_person_went_on_from_is_not_their_last_word() -> None:
    # melagiri 92_f1e62ce401 lines 275-428: a failure report (line 349), the fix, then
    # "commit, push to master and release patch" and the release; labelled success (a
    # success after a correction is `mixed`)
    b = SessionBuilder().prompt("/release patch").bash("npm publish", "+ @code-insights/cli@4.8.3")
    b.say("Released v4.8.3.")
    b.prompt(
        "i just synced latest - and it added many ---CONVERSATION User--- messages we saw "
        "earlier back into the sessions list.. check sqlite db and investigate"
    )
    b.bash("pnpm test", "Tests  559 passed (559)")
    b.say(
        "Done. Here's what I did: soft-deleted 22 polluting sessions and added a filter. "
        "Want me to commit this fix directly to master, or go through a PR?"
    )
    b.prompt("commit, push to master and release patch")
    b.bash(
        "gh release create v4.8.4", "https://github.com/melagiri/code-insights/releases/tag/v4.8.4"
    )
    b.say("**Released @code-insights/cli v4.8.4**\n\nNow you can safely run the batch analysis.")
    sigs = signals_of(b, over=True)
    assert "went_on" in kinds(sigs) and "user_correction" in kinds(sigs)
    outcome = derive_outcome(sigs)
    assert outcome.outcome == "mixed" and outcome.rule == "went_on_after_correction"
    # without the follow-up the correction stays the last word: a failure
    b2 = SessionBuilder().prompt("/release patch").bash("npm publish", "+ @code-insights/cli@4.8.3")
    b2.say("Released v4.8.3.")
    b2.prompt(
        "i just synced latest - and it added many ---CONVERSATION User--- messages we saw "
        "earlier back into the sessions list.. check sqlite db and investigate"
    )
    assert derive_outcome(signals_of(b2, over=True)).outcome == "failure"


def test_an_interrupt_the_person_typed_after_redirected_the_work_and_did_not_abandon_it() -> None:
    # cc-backend bf_29af79b268: the person stopped the agent, said how to go on, and the
    # agent finished; labelled success (it had been read as abandoned)
    b = SessionBuilder().prompt("Fix the memory escalation in flattenCheckpointFile")
    b.bash("go test ./pkg/metricstore/...", "ok  \tpkg/metricstore\t0.4s")
    b.interrupt()
    b.prompt("use sort.Slice in place instead of the sorting writer")
    b.bash("go test ./pkg/metricstore/...", "ok  \tpkg/metricstore\t0.5s")
    b.say("I've replaced the sorting writer with an in-place sort.Slice; the tests pass.")
    b.prompt("Now port the archive reader to the same batching")
    episodes = segment(views(b), lexicon_for())
    sigs = detect_signals(episodes[0], lexicon_for(), session_over=True, is_last=False)
    (interrupt,) = [s for s in sigs if s.kind == "interrupt"]
    assert interrupt.polarity == 0  # still on record, no longer a verdict
    assert derive_outcome(sigs).outcome == "success"
    # stopped after the person's last word, with nothing more from them, it is left behind
    left = SessionBuilder().prompt("Fix the memory escalation in flattenCheckpointFile")
    left.bash("go test ./pkg/metricstore/...", "ok  \tpkg/metricstore\t0.4s")
    left.interrupt()
    sigs = signals_of(left, over=True)
    assert [s.polarity for s in sigs if s.kind == "interrupt"] == [-1]
    assert derive_outcome(sigs).outcome == "abandoned"


def _first_of_two(b: SessionBuilder) -> tuple[SignalDraft | None, Outcome]:
    first, second = segment(views(b), lexicon_for())
    sigs = detect_signals(
        first, lexicon_for(), session_over=False, is_last=False, next_turn=second.intent_turn
    )
    outcome = derive_outcome(sigs)
    return next((s for s in sigs if s.kind == "started_over"), None), outcome


def test_asking_for_the_same_thing_again_as_a_new_task_is_a_failure() -> None:
    # wild sample 22 (not in the repository): a custom command run again at once after
    # the agent's answer ("/jarvisOn" twice; "/publish-session" twice); labelled failure
    command = (
        "<command-message>publish-session</command-message>\n"
        "<command-name>/publish-session</command-name>"
    )
    b = SessionBuilder().prompt(command)
    b.say("I've published the session: https://example.invalid/s/1")
    b.prompt(command)
    b.say("Done.")
    started_over, outcome = _first_of_two(b)
    assert started_over is not None
    assert (outcome.outcome, outcome.rule) == ("failure", "started_over")


@pytest.mark.parametrize(
    "request_text",
    [
        # jdx/mise (a Codex history outside the repository): the same chore on the same
        # pull request, after new review comments came (labelled success)
        "address pr feedback",
        "address pr feedback and failing pr checks",
        # entireio/cli: a custom skill command run again after a new bugbot comment
        "<command-message>github-pr-review</command-message>\n"
        "<command-name>/github-pr-review</command-name>",
        "/pr-comments",
    ],
)
def test_acting_on_a_review_again_is_the_next_round_not_a_start_over(request_text: str) -> None:
    b = SessionBuilder().prompt(request_text)
    b.bash("gh pr view 812 --comments", "2 review comments")
    b.say("Addressed both review comments, pushed; e2e and lint pass.")
    b.prompt(request_text)
    b.say("Done.")
    started_over, outcome = _first_of_two(b)
    assert started_over is None
    assert outcome.outcome == "success"


def test_a_command_run_again_with_other_arguments_is_moving_on() -> None:
    # wild sample 22's spec-kit runs: "Phase 1", then "Phase 2": the next step, not a retry
    command = (
        "<command-message>speckit.implement</command-message>\n"
        "<command-name>/speckit.implement</command-name>\n<command-args>{}</command-args>"
    )
    b = SessionBuilder().prompt(command.format("Phase 1"))
    b.say("I've implemented phase 1; all 12 tests pass.")
    b.prompt(command.format("Phase 2"))
    b.say("Done.")
    started_over, outcome = _first_of_two(b)
    assert started_over is None
    assert outcome.outcome == "success"


def test_a_command_run_again_with_its_arguments_said_more_plainly_is_a_failure() -> None:
    """SproutSeeds/coda 0199b26c lines 3 and 33 (set 11, Codex 0.44): a saved prompt run by
    its path with an arguments file; the agent only summarised the files, and the person ran
    the prompt again with the same file and words on how to use it (labelled failure)."""
    b = SessionBuilder().prompt(".codex/prompts/constitution.md arguments/constitution-arg-1.md")
    b.say("Here is a summary of the constitution template and the arguments file.")
    b.prompt(
        ".codex/prompts/constitution.md use this arguments/constitution-arg-1.md as the "
        "User input: $ARGUMENTS"
    )
    b.say("Constitution v1.0.0 written; templates synced.")
    started_over, outcome = _first_of_two(b)
    assert started_over is not None
    assert (outcome.outcome, outcome.rule) == ("failure", "started_over")
    # the same typed in Codex's IDE extension, which writes what the editor showed before
    # the words: the requests are the words
    ide = "# Context from my IDE setup:\n\n## Open tabs:\n- spec.md: spec.md\n\n"
    ide += "## My request for Codex:\n"
    in_ide = SessionBuilder()
    in_ide.prompt(ide + ".codex/prompts/constitution.md arguments/constitution-arg-1.md")
    in_ide.say("Here is a summary of the constitution template and the arguments file.")
    in_ide.prompt(
        ide + ".codex/prompts/constitution.md use this arguments/constitution-arg-1.md as "
        "the User input: $ARGUMENTS"
    )
    in_ide.say("Constitution v1.0.0 written; templates synced.")
    started_over, outcome = _first_of_two(in_ide)
    assert (outcome.outcome, outcome.rule) == ("failure", "started_over")
    # the same for a slash command; a different argument is the next step
    for again, failed in (("spec.md, the whole file as the input", True), ("plan.md", False)):
        slash = SessionBuilder().prompt(REVERT.format("spec.md"))
        slash.say("I've read spec.md.")
        slash.prompt(REVERT.format(again))
        slash.say("Done.")
        started_over, _ = _first_of_two(slash)
        assert (started_over is not None) is failed, again


def test_the_same_command_run_again_after_working_on_its_result_is_no_failure() -> None:
    """Wild sample 49 (jacmanh/taskly, not in the repository): `/speckit.analyze`, the
    person settles one finding and asks for the rest to be fixed, the agent fixes them,
    then the person runs `/speckit.analyze` again: a re-check (its labeller: success)."""
    command = (
        "<command-message>speckit.analyze</command-message>\n"
        "<command-name>/speckit.analyze</command-name>"
    )
    b = SessionBuilder().prompt(command)
    b.say("Analysis: C1 conflicts with the plan; I1–I3 are inconsistencies. Want fixes?")
    b.prompt("for C1 keep the plan's version, and fix the rest")
    b.call("Edit", "tasks.md", "e1").result("e1", "ok")
    b.say("Done: C1 follows the plan and I1–I3 are fixed in tasks.md.")
    b.prompt(command)
    b.say("No issues found.")
    started_over, outcome = _first_of_two(b)
    assert started_over is None
    assert outcome.outcome == "success"


REVERT = (
    "<command-message>gh:revert</command-message>\n"
    "<command-name>/gh:revert</command-name>\n<command-args>{}</command-args>"
)


def test_a_bare_command_run_again_with_what_the_agent_asked_for_is_a_failure() -> None:
    # wild sample 24 (pc-style/tui 91e00a2c lines 78 and 87, not in the repository): the
    # bare command ended on the agent's question; the person ran it again with the commit
    b = SessionBuilder().prompt(REVERT.format(""))
    b.say("Which commit should I revert? The last three are 85ab0f6, 1c2d3e4 and 9f8e7d6.")
    b.prompt(REVERT.format("85ab0f6 the most recent one"))
    b.say("Reverted 85ab0f6.")
    started_over, outcome = _first_of_two(b)
    assert started_over is not None
    assert (outcome.outcome, outcome.rule) == ("failure", "started_over")
    # a command whose name no typed command has (a digit first) is read from its message
    # (found by the review: its stored "/name args" form does not parse)
    digit = REVERT.replace("gh:revert", "2fa")
    b = SessionBuilder().prompt(digit.format(""))
    b.say("Which account should I reset? Say its e-mail address.")
    b.prompt(digit.format("ana@example.test"))
    b.say("Reset.")
    assert _first_of_two(b)[1].rule == "started_over"


def test_a_bare_command_that_did_its_work_then_run_with_arguments_is_moving_on() -> None:
    # the bare run ended on a done claim, not a question: the run with arguments is more work
    b = SessionBuilder().prompt(REVERT.format(""))
    b.say("I've reverted the last commit (85ab0f6) and pushed.")
    b.prompt(REVERT.format("1c2d3e4"))
    b.say("Reverted 1c2d3e4.")
    started_over, outcome = _first_of_two(b)
    assert started_over is None
    assert outcome.outcome == "success"


def test_a_correction_the_person_moved_on_from_is_a_success_after_a_correction() -> None:
    """People read a correction, the agent's reply, then the person's next task with no
    further complaint as the fix accepted: every such episode in the labelled set and the
    blind samples (seven, e.g. wild sample 30: "When the system is scraping, add a progress
    bar", a report that it did not show, a fix, then a new request)."""
    b = SessionBuilder().prompt("When the system is scraping, add a progress bar")
    b.call("Edit", "ScrapeView.tsx", "e1").result("e1", "ok")
    b.say("The view now shows a progress bar while the scraper runs.")
    b.prompt("the progress bar doesn't show up when I start a scrape")
    b.call("Edit", "ScrapeView.tsx", "e2").result("e2", "ok")
    b.say("The bar listens to the scraper's events now, so it appears as soon as one starts.")
    b.prompt("Add a way to add and edit users in the Utenti tab")
    episodes = segment(views(b), lexicon_for())
    assert len(episodes) == 2
    sigs = detect_signals(
        episodes[0],
        lexicon_for(),
        session_over=True,
        is_last=False,
        next_turn=episodes[1].intent_turn,
    )
    assert "user_correction" in kinds(sigs) and "moved_on" in kinds(sigs)
    outcome = derive_outcome(sigs)
    assert outcome.outcome == "mixed"
    assert outcome.rule == "corrected_then_moved_on"


@pytest.mark.parametrize(
    "last_words",
    [
        # wild sample 26 (Codex, a spec-kit prompt in a rootkit project): the whole answer
        "I\u2019m sorry, but I can\u2019t assist with that.",
        # the same words with a straight apostrophe, and a give-up as models write it
        "I'm sorry, but I can't assist with that.",
        "I couldn\u2019t get the build to pass: the linker still cannot find libssl.",
        # wild sample 53 (Claude Code): the refusal opens a long answer that ends on an offer
        "I can't help with this request. There are several issues:\n\n**Legal/Ethical "
        "Concerns:**\n1. **Unauthorized API access** - probing a commercial service's "
        "endpoints …\n\n" + "More reasons follow. " * 100 + "\n\nWhat I can help with: "
        "building your own scoring function from published measurements. Want me to start?",
        # SproutSeeds/coda (Codex rollout 2025-10-04, line 1113): the act asked for, not done
        "I can\u2019t push from here, but you can finish it in a couple of commands:\n\n"
        '1. `git add .`\n2. `git status -sb`\n3. `git commit -m "…"`\n4. `git push`',
        "I couldn't complete the migration: the schema has a foreign key I can't drop.",
        "I was unable to build the wasm target; wasm-pack is not installed.",
    ],
)
def test_an_agent_that_refuses_or_gives_up_fails_the_task(last_words: str) -> None:
    b = SessionBuilder().prompt("Create or update the feature specification").say(last_words)
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "agent_gave_up")


def test_a_turned_down_plan_is_the_persons_refusal_and_a_stopped_call_is_not() -> None:
    # every real session on this machine (not in the repository): Claude Code's result for
    # a plan the person turned down; errors.py reads it as the person's act, and so do
    # the signals (one refusal, as for a refused edit)
    b = SessionBuilder().prompt("Plan the migration of the settings page")
    b.call("ExitPlanMode", '{"plan": "## Plan"}', "p1")
    b.result(
        "p1",
        "The agent proposed a plan that was rejected by the user. The user chose to stay in "
        "plan mode rather than proceed with implementation.\n\nRejected plan:\n## Plan",
        error=True,
    )
    assert [s.kind for s in signals_of(b) if s.kind == "tool_rejected"] == ["tool_rejected"]
    # a call the person stopped while it ran is an interrupt, not a refusal of the call
    stopped = SessionBuilder().prompt("Install the GPU wheels")
    stopped.bash(
        "pip install cupy-cuda12x", "[Request interrupted by user for tool use]", exit_code=1
    )
    assert "tool_rejected" not in kinds(signals_of(stopped))


def _dashboard_corrected() -> SessionBuilder:
    """The agent serves the dashboard; the person says it is still not reachable."""
    b = SessionBuilder().prompt("Expose the dashboard on the LAN").bash("./serve.sh")
    b.say("The dashboard is served on port 8502.")
    return b.prompt("still not reachable, check that it does not listen on localhost only")


def test_a_correction_the_agent_answered_with_nothing_failing_after_is_mixed() -> None:
    """Wild sample 44 (not in the repository): "toujours pas, vérifie que ça écoute pas juste
    sur localhost", the agent opens the port and says to try again, and the session ends."""
    b = _dashboard_corrected()
    b.bash("ufw allow 8502")
    b.say("Port 8502 is open in the firewall. Try again from the other machine.")
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("mixed", "answered_after_correction")
    # an error after the answer to the correction, or a transcript that stops mid-work,
    # still fails it or leaves it unknown
    b.bash("curl http://192.168.1.28:8502", "Connection refused", exit_code=7)
    assert derive_outcome(signals_of(b, over=True)).outcome in ("failure", "unknown")


@pytest.mark.parametrize(
    "stopped",
    [
        # wild samples 50, 51 and 56 (not in the repository): every reply an error, a
        # usage limit in the middle of the work, a context too long to go on
        'API Error: 400 {"type":"error","error":{"type":"invalid_request_error"}}',
        "API Error: Request timed out.",
        "5-hour limit reached ∙ resets 8pm",
        "Prompt is too long",
    ],
)
def test_a_session_that_ends_on_the_agents_service_failing_left_the_request_undone(
    stopped: str,
) -> None:
    b = SessionBuilder().prompt("Make the frontend and backend fully functional")
    b.bash("npm run build").service_error(stopped)
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "stopped_by_its_service")
    # the agent never answered at all: the same
    bare = SessionBuilder().prompt("analyze the confidence algorithm").service_error(stopped)
    assert derive_outcome(signals_of(bare, over=True)).outcome == "failure"
    # while the session goes on, nothing is decided yet
    assert "service_stopped" not in kinds(signals_of(b, over=False))


def test_work_reported_done_before_the_service_failed_is_not_undone() -> None:
    """Wild sample 58 (not in the repository): the QE report done (101 of 101 tests pass),
    then the usage limit."""
    b = SessionBuilder().prompt("Run the quality checks on the latest changes")
    b.bash("npm test", "101 passing")
    b.say("Done: the QE report is written and all 101 tests pass.")
    b.bash("git status").service_error("You've hit your limit · resets 11pm (UTC)")
    assert derive_outcome(signals_of(b, over=True)).outcome != "failure"


def test_a_correction_answered_then_cut_by_the_service_is_not_a_quiet_end() -> None:
    b = _dashboard_corrected()
    b.say("It listens on 0.0.0.0 now; let me check the firewall.")
    b.service_error("Prompt is too long")
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "corrected")


def test_the_command_that_replaced_a_failed_one_is_its_evidence() -> None:
    """npm refused, a look around, then pnpm did the job: the recovery cites pnpm's result,
    not the `ls` that happened to work first."""
    b = SessionBuilder().prompt("Install deps").bash("npm install", "EACCES", exit_code=1)
    b.bash("ls", "package.json").bash("pnpm install", "Done in 2.1s")
    sigs = signals_of(b)
    recovered = next(s for s in sigs if s.kind == "tool_error_recovered")
    assert recovered.event_ids[-1] == views(b)[-1].id
    # nothing stood in for it: the first call that worked is cited, as before
    b = SessionBuilder().prompt("Install deps").bash("npm install", "EACCES", exit_code=1)
    b.bash("ls", "package.json")
    recovered = next(s for s in signals_of(b) if s.kind == "tool_error_recovered")
    assert recovered.event_ids[-1] == views(b)[-1].id


def test_a_test_run_that_failed_was_the_right_command() -> None:
    failed = "FAILED tests/test_cli.py::test_help - AssertionError\n===== 1 failed, 9 passed ====="
    assert not replaced(failed, "uv run pytest tests/ -x -q", "uv run pytest tests/ -q")
    assert replaced("error: unrecognized arguments: --timeout=10",
                    "uv run pytest tests/ --timeout=10", "uv run pytest tests/")  # fmt: skip


# --- a turn the agent ended after its last call, with no closing words kept ---------------

#: The records Claude Code and Codex write once the agent's turn is over, as the harvest
#: stores them: a Stop hook's progress and the hooks' summary (tslateman/duet
#: f7_fb5396fe00_2, the last lines), the turn's timing (theogbrand/napoli-matcha
#: 92_9ec269b1ce_1 line 10), Codex's `task_complete`.
TURN_ENDS = [
    (
        "progress:hook_progress",
        '{"type":"hook_progress","hookEvent":"Stop","hookName":"Stop",'
        '"command":"entire hooks claude-code stop"}',
    ),
    (
        "system:stop_hook_summary",
        '{"subtype":"stop_hook_summary","hookCount":1,"hookErrors":[],"stopReason":"",'
        '"level":"suggestion"}',
    ),
    ("system:turn_duration", '{"subtype":"turn_duration","durationMs":35742}'),
    ("event_msg:task_complete", '{"turn_id":"019d","last_agent_message":null}'),
    # the Stop hook's result as Claude Code 2.1.112 writes it (dougnukem/orpheus
    # 17_b6bbc6c891_1), stored with its fields since it printed nothing
    (
        "attachment:hook_success",
        '{"type":"hook_success","hookName":"Stop","toolUseID":"3fcd53b0-b29f-4600-8035-'
        'd02885a0376f","hookEvent":"Stop","content":"","stdout":"{}\\n","stderr":"",'
        '"exitCode":0,"command":"python3 ${CLAUDE_PLUGIN_ROOT}/hooks/stop.py","durationMs":62}',
    ),
]


def _committed() -> SessionBuilder:
    # a snapshot taken by a Stop hook: the commit and its check are there, the agent's
    # closing words are not (duet f7_fb5396fe00_2, `/commit-commands:commit`)
    b = SessionBuilder().prompt("commit the README changes")
    b.bash('git add README.md && git commit -m "docs: tighten README"', "[main 104de38] docs")
    return b.bash("git status", "nothing to commit, working tree clean")


@pytest.mark.parametrize(("raw_type", "text"), TURN_ENDS)
def test_a_turn_ended_after_its_last_call_is_not_a_transcript_cut_off(
    raw_type: str, text: str
) -> None:
    assert derive_outcome(signals_of(_committed(), over=True)).rule == "stopped_mid_work"
    ended = _committed().record(raw_type, text)
    sigs = signals_of(ended, over=True)
    assert "cut_off" not in kinds(sigs)
    outcome = derive_outcome(sigs)
    assert (outcome.outcome, outcome.rule) == ("success", "answered_without_complaint")
    # justified by the agent's last act and the record that ended its turn
    assert outcome.event_ids == (views(ended)[-2].id, views(ended)[-1].id)


def test_a_turn_set_working_again_after_its_end_is_read_from_its_last_act() -> None:
    # the turn ended after a passing run, then a background task's end set the agent
    # working again, and the transcript stops mid-call: nothing tells how it ended
    b = SessionBuilder().prompt("fix tests").bash("go test ./...", "ok  \tapp\t0.2s")
    b.record(*TURN_ENDS[2]).meta("<task-notification>build finished</task-notification>")
    b.bash("go test ./...", "--- FAIL: TestReset", exit_code=1)
    sigs = signals_of(b, over=True)
    # (the first turn's end is no last word of the work that came after it)
    assert "answered" not in kinds(sigs)
    outcome = derive_outcome(sigs)
    assert (outcome.outcome, outcome.rule) == ("unknown", "stopped_mid_work")
    # and once that turn ended too, its failed last call decides
    outcome = derive_outcome(signals_of(b.record(*TURN_ENDS[2]), over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "unrecovered_error")


@pytest.mark.parametrize(
    ("raw_type", "text"),
    [
        # a subagent's end, and a hook run after one call: the main agent works on
        ("progress:hook_progress", '{"type":"hook_progress","hookEvent":"SubagentStop"}'),
        ("progress:hook_progress", '{"type":"hook_progress","hookEvent":"PostToolUse"}'),
        ("attachment:hook_success", '{"type":"hook_success","hookEvent":"SubagentStop"}'),
        ("attachment:file", '{"type":"file","content":"\\"hookEvent\\":\\"Stop\\""}'),
        ("progress:bash_progress", '{"type":"bash_progress","output":"Stop"}'),
        ("system:compact_boundary", "Conversation compacted"),
    ],
)
def test_records_that_end_no_turn_leave_the_transcript_cut_off(raw_type: str, text: str) -> None:
    outcome = derive_outcome(signals_of(_committed().record(raw_type, text), over=True))
    assert (outcome.outcome, outcome.rule) == ("unknown", "stopped_mid_work")


def test_a_turn_ended_on_a_failed_call_is_a_failure() -> None:
    b = SessionBuilder().prompt("fix tests")
    b.bash("go test ./...", "--- FAIL: TestReset", exit_code=1)
    outcome = derive_outcome(signals_of(b.record(*TURN_ENDS[0]), over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "unrecovered_error")


def test_a_call_refused_just_before_a_quiet_end_is_no_success() -> None:
    # as when the agent had said something and then the person refused its last call:
    # nothing tells how the person took the work
    b = SessionBuilder().prompt("What about the other improvements? Which do you recommend?")
    b.call("ExitPlanMode", '{"plan":"# Remaining improvements"}', "c1")
    b.result("c1", "The user doesn't want to proceed with this tool use.", error=True)
    outcome = derive_outcome(signals_of(b.record(*TURN_ENDS[1]), over=True))
    assert outcome.outcome == "unknown"
    said = SessionBuilder().prompt("What about the other improvements? Which do you recommend?")
    said.say("I recommend WAL buffering and the partial index.")
    said.call("ExitPlanMode", '{"plan":"# Remaining improvements"}', "c1")
    said.result("c1", "The user doesn't want to proceed with this tool use.", error=True)
    assert derive_outcome(signals_of(said, over=True)).outcome == "unknown"


# --- an interrupt that stopped the person's own command ---------------------------------


def _answered_then_ran_it() -> SessionBuilder:
    # theogbrand/napoli-matcha 0c_c3173e5050_5: the command asked for, the agent's answer,
    # the command typed into the agent's box and stopped at once, then run with `!`
    b = SessionBuilder().prompt("give me the command to run the test suite in this project")
    b.say("Run all tests with:\n\n```bash\nnpm run test\n```\n\nOnly the PR suite: npm run test:pr")
    b.prompt("npm run test:pr")
    return b.interrupt()


def test_an_interrupt_of_the_persons_own_command_does_not_abandon_the_work() -> None:
    b = _answered_then_ran_it()
    b.prompt("<bash-input>npm run test:pr</bash-input>")
    b.interrupt()
    sigs = signals_of(b, over=True)
    assert "interrupt" not in kinds(sigs) and "abandoned" not in kinds(sigs)
    assert derive_outcome(sigs).outcome == "success"


def test_an_interrupt_of_the_agents_work_still_counts() -> None:
    # the same line typed and left to run: the agent worked on it, and the stop is the
    # person's verdict on that work
    b = SessionBuilder().prompt("give me the command to run the test suite in this project")
    b.say("Run all tests with: npm run test")
    b.prompt("run it")
    b.bash("npm run test", "…")
    b.interrupt()
    sigs = signals_of(b, over=True)
    assert "interrupt" in kinds(sigs) and "abandoned" in kinds(sigs)
    # and an own command run after the agent was stopped does not undo that stop
    b.prompt("<bash-input>git status</bash-input>")
    assert "abandoned" in kinds(signals_of(b, over=True))


# --- a done claim the record denies -----------------------------------------------------

INIT_CLAIM = (
    "I've created a basic CLAUDE.md file for this empty repository. Since there are no "
    "existing files, configuration, or code structure to analyze, the file provides a "
    "minimal template."
)
#: Claude Code 2.0's answer to a write the person had not granted (d-kimuson
#: claude-code-viewer 1af7fc5e, line 26)
NOT_GRANTED = (
    "Claude requested permissions to write to /path/to/Demo/CLAUDE.md, but you haven't "
    "granted it yet."
)


def _write(b: SessionBuilder, path: str, cid: str, *, fails: bool) -> SessionBuilder:
    b.call("Write", json.dumps({"file_path": path, "content": "# CLAUDE.md\n"}), cid)
    return b.result(
        cid, NOT_GRANTED if fails else f"File created successfully at: {path}", error=fails
    )


def test_a_done_claim_naming_a_file_never_written_is_a_failure() -> None:
    b = _write(SessionBuilder().prompt("/init"), "/path/to/Demo/CLAUDE.md", "w1", fails=True)
    outcome = derive_outcome(signals_of(b.say(INIT_CLAIM), over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "claim_contradicted")
    assert outcome.event_ids == (views(b)[-3].id, views(b)[-1].id)


@pytest.mark.parametrize(
    "name",
    [
        "résumé.md",
        "re\u0301sume\u0301.md",  # decomposed, as macOS spells some names
        "ﾒﾓ.md",  # half-width kana
        "ｒｅａｄｍｅ.md",  # full-width letters
    ],
)
def test_a_claim_naming_a_file_never_written_is_read_whatever_its_characters(name: str) -> None:
    """The file's name from the call and the agent's claim are read alike (found by the
    review): a name spelt decomposed, in half-width kana or full-width letters, and claimed
    in composed form, is the same name."""
    b = _write(SessionBuilder().prompt("write the notes"), f"/repo/{name}", "w1", fails=True)
    claim = f"I've created {unicodedata.normalize('NFC', name)} with the notes."
    outcome = derive_outcome(signals_of(b.say(claim), over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "claim_contradicted")
    # written after all under its composed name (the same file on macOS): no contradiction
    b = _write(SessionBuilder().prompt("write the notes"), f"/repo/{name}", "w1", fails=True)
    _write(b, f"/repo/{unicodedata.normalize('NFKC', name)}", "w2", fails=False)
    assert derive_outcome(signals_of(b.say(claim), over=True)).rule != "claim_contradicted"


@pytest.mark.parametrize(
    "writes",
    [
        # written after all, before the claim
        [True, False],
        # written first, then one more change of it refused: the file is there
        [False, True],
    ],
)
def test_a_file_written_at_some_point_does_not_deny_the_claim(writes: list[bool]) -> None:
    b = SessionBuilder().prompt("/init")
    for n, fails in enumerate(writes):
        _write(b, "/path/to/Demo/CLAUDE.md", f"w{n}", fails=fails)
    assert derive_outcome(signals_of(b.say(INIT_CLAIM), over=True)).outcome == "success"


def test_a_failed_write_the_claim_does_not_name_leaves_the_claim() -> None:
    b = _write(SessionBuilder().prompt("/init"), "/path/to/Demo/NOTES.md", "w1", fails=True)
    outcome = derive_outcome(signals_of(b.say(INIT_CLAIM), over=True))
    assert outcome.rule != "claim_contradicted"
    # nor does a name that only contains it
    b = _write(SessionBuilder().prompt("/init"), "/repo/AUDE.md", "w1", fails=True)
    assert derive_outcome(signals_of(b.say(INIT_CLAIM), over=True)).rule != "claim_contradicted"


def test_a_codex_patch_that_never_applied_denies_the_claim() -> None:
    patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-old\n+new\n*** End Patch"
    b = SessionBuilder().prompt("rename the flag in src/app.py")
    b.call("apply_patch", patch, "p1")
    b.result(
        "p1",
        "apply_patch verification failed: Failed to find expected lines in src/app.py",
        error=True,
    )
    b.say("Done: app.py now reads the new flag name.")
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("failure", "claim_contradicted")


def test_a_large_write_mining_reads_cut_still_names_its_file() -> None:
    """PackmindHub/context-evaluator (blind set 82, labelled success): an Edit of a card
    component fails, the agent writes the whole file with Write, and its summary names the
    file. Mining reads a long input as its head and tail (`loading.HEAD_CHARS`), which is no
    JSON: the written file is read from the head, and the claim stands."""
    from sleepd.mining.loading import CUT_MARK

    path = "/Users/me/app/frontend/src/components/RemediationHistoryCard.tsx"
    b = SessionBuilder().prompt("tidy the remediation card's buttons")
    b.call("Edit", json.dumps({"file_path": path, "old_string": "x", "new_string": "y"}), "e1")
    b.result("e1", "<tool_use_error>String to replace not found in file.", error=True)
    whole = json.dumps({"file_path": path, "content": "line\n" * 4000})
    b.call("Write", whole[:6000] + CUT_MARK + whole[-6000:], "w1")
    b.result("w1", f"The file {path} has been updated successfully.")
    b.say("Done. **`RemediationHistoryCard.tsx`**: the quick actions are one compact row.")
    outcome = derive_outcome(signals_of(b, over=True))
    assert (outcome.outcome, outcome.rule) == ("success", "done_claim")


def test_a_write_call_with_hostile_input_denies_nothing() -> None:
    # nested past any real input, and not JSON at all: read as naming no file
    b = SessionBuilder().prompt("/init")
    b.call("Write", "[" * 100_000 + "]" * 100_000, "w1")
    b.result("w1", NOT_GRANTED, error=True)
    b.call("Edit", '{"file_path": ', "w2")
    b.result("w2", NOT_GRANTED, error=True)
    assert derive_outcome(signals_of(b.say(INIT_CLAIM), over=True)).rule != "claim_contradicted"


# --- a plan taken with a fresh context ----------------------------------------------------

_REFUSED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)
_PLAN = "# Plan: Invert Telemetry Flag Logic\n\n## Goal\nChange `--no-telemetry` to `--telemetry`."


def _planned(b: SessionBuilder) -> SessionBuilder:
    # entireio/cli's history (Claude Code 2.1.12): the plan written, the plan tool answered
    # with a refusal and a stop, and the plan handed back at once as the next request
    b.prompt("I want to invert that flag logic: telemetry on by default")
    b.say("Now I have a clear understanding. Let me write the plan.")
    b.call("ExitPlanMode", json.dumps({"plan": _PLAN}), "plan-1")
    b.result("plan-1", _REFUSED, error=True)
    return b._add("interrupt", "user", "[Request interrupted by user for tool use]")


def _plan_episode_signals(b: SessionBuilder, *, over: bool = True) -> list[SignalDraft]:
    """The first episode's signals, with the turn that opened the next one, if any."""
    episodes = segment(views(b), lexicon_for())
    following = episodes[1].intent_turn if len(episodes) > 1 else None
    return detect_signals(
        episodes[0],
        lexicon_for(),
        session_over=over,
        is_last=following is None,
        next_turn=following,
    )


def test_a_plan_handed_back_at_once_was_taken_not_refused() -> None:
    b = _planned(SessionBuilder())
    b.prompt(f"Implement the following plan:\n\n{_PLAN}")
    b.say("I'll implement the plan to invert the telemetry flag logic.")
    assert len(segment(views(b), lexicon_for())) == 2
    sigs = _plan_episode_signals(b)
    assert "tool_rejected" not in kinds(sigs) and "interrupt" not in kinds(sigs)
    outcome = derive_outcome(sigs)
    assert (outcome.outcome, outcome.rule) == ("success", "approved")


def test_a_plan_refused_and_then_asked_for_otherwise_stays_refused() -> None:
    # the refusal, then a new request of the person's own: the plan was not taken
    b = _planned(SessionBuilder())
    b.prompt("forget the flag; add a --verbose option to the status command instead")
    sigs = _plan_episode_signals(b)
    assert "tool_rejected" in kinds(sigs) and "approval" not in kinds(sigs)
    # nor is any other call refused before a plan handed back
    other = SessionBuilder().prompt("invert the telemetry flag")
    other.call("Bash", json.dumps({"command": "rm -rf build"}), "rm-1")
    other.result("rm-1", _REFUSED, error=True)
    other.interrupt()
    other.prompt(f"Implement the following plan:\n\n{_PLAN}")
    assert "approval" not in kinds(_plan_episode_signals(other))


# --- a transcript that stops right after the agent's checks passed -------------------------

#: entireio/cli's history (blind set 82, not in the repository): table tests added, run,
#: and the file stops on the passing run, before the agent's closing words.
_TABLE_TESTS = "This is a fairly subtle function now.  Let's add a few table tests."
_GO_TEST = "go test ./cmd/entire/cli/ -run TestShellCompletionTarget -v 2>&1"
_PASSED = (
    "=== RUN   TestShellCompletionTarget\n=== RUN   TestShellCompletionTarget/zsh\n"
    "--- PASS: TestShellCompletionTarget (0.00s)\n"
    "    --- PASS: TestShellCompletionTarget/zsh (0.00s)\nPASS\n"
    "ok  \tgithub.com/entireio/cli/cmd/entire/cli\t0.012s"
)
_EDIT = '{"file_path":"cmd/entire/cli/setup_test.go","old_string":"a","new_string":"b"}'


def _tested() -> SessionBuilder:
    b = SessionBuilder().prompt(_TABLE_TESTS)
    b.call("Edit", _EDIT, "e1").result("e1", "The file setup_test.go has been updated.")
    return b.bash(_GO_TEST, _PASSED)


def test_a_transcript_stopped_after_its_checks_passed_is_a_success() -> None:
    """The final tool results show the work done, as a person reads them (LABELS.md): the
    agent changed the code, its tests then passed, and nothing after them failed."""
    b = _tested()
    sigs = signals_of(b, over=True)
    assert "cut_off" not in kinds(sigs)
    outcome = derive_outcome(sigs)
    assert (outcome.outcome, outcome.rule) == ("success", "checked_then_stopped")
    assert outcome.event_ids == (views(b)[-1].id,)  # the passing run
    # a command that works after the run leaves it so ("git rebase --continue")
    b.bash("git rebase --continue 2>&1", "Successfully rebased and updated refs/heads/x.")
    assert derive_outcome(signals_of(b, over=True)).rule == "checked_then_stopped"
    # and a session that goes on is read from what came next, as ever
    assert "checked_then_stopped" not in kinds(signals_of(_tested(), over=False))
    # a Codex patch is a change as an edit is
    patch = (
        "*** Begin Patch\n*** Update File: cmd/entire/cli/setup_test.go\n@@\n-a\n+b\n*** End Patch"
    )
    codex = SessionBuilder().prompt(_TABLE_TESTS).call("apply_patch", patch, "p1").result("p1")
    codex.bash(_GO_TEST, _PASSED)
    assert derive_outcome(signals_of(codex, over=True)).rule == "checked_then_stopped"


def test_a_transcript_stopped_without_a_passing_check_of_the_last_change_stays_unknown() -> None:
    def rule(b: SessionBuilder) -> str:
        return derive_outcome(signals_of(b, over=True)).rule

    # no change: a passing run says nothing of work the agent did
    assert rule(SessionBuilder().prompt(_TABLE_TESTS).bash(_GO_TEST, _PASSED)) == "stopped_mid_work"
    # a change after the run: what was checked is not the work it stopped on
    b = _tested().call("Edit", _EDIT, "e2").result("e2", "The file setup_test.go has been updated.")
    assert rule(b) == "stopped_mid_work"
    # a call still running when the transcript stops (a commit, a subagent)
    b = _tested().call("Bash", '{"command":"git commit -m \\"tests\\""}', "c9")
    assert rule(b) == "stopped_mid_work"
    b = _tested().call("Task", '{"description":"Add the bash case"}', "t1")
    assert rule(b) == "stopped_mid_work"
    # something failing after the run
    b = _tested().bash("mise run lint", "cmd/setup_test.go:12:2: errcheck", exit_code=1)
    assert rule(b) != "checked_then_stopped"
    b = _tested().bash("go test ./...", "--- FAIL: TestReset (0.00s)\nFAIL", exit_code=1)
    assert rule(b) != "checked_then_stopped"
