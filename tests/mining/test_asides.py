"""A follow-up that says nothing of the work is no refinement of a replay task.

The lines are from entireio/cli's and entireio/git-sync's histories (MIT; rebuilt from
their public `entire/checkpoints/v1` branches, not in the repository), where a blind
review of the replay tasks marked them as adding nothing a replay could use, beside
constructed ones of the same forms and the follow-ups that must stay.
"""

from __future__ import annotations

import pytest

from sleepd.mining.task_mining import refines_the_work
from sleepd.mining.tasks import intent_parts, task_intent
from sleepd.mining.turns.asides import is_aside
from sleepd.mining.turns.pastes import is_run_pasted

_GIT_PUSH = (
    "❯ git push\n"
    "[entire] Pushing session logs to https://github.com/example/cli.git...\n"
    "[entire] Syncing with remote session logs...\n"
    "[entire] Warning: failed to push sessions after sync: non-fast-forward"
)


@pytest.mark.parametrize(
    "text",
    [
        # where the work stands
        "what is remaining?",
        "is there any further work for this PR?",
        "So everything done?",
        "Whats next?",
        "ok, what's the state on replicate",
        # a go-on, and why
        "ok let's keep going",
        "ok, let's continue going through this",
        "let's get back to the review please",
        "can you resume, I think this disconnected",
        # the offer taken, named only by pointing at it
        "yes, add the fix",
        "yeah let's add that",
        "yes, do option 1",
        # for the person themselves
        "can you give me a command to test replicate with kubernetes and then linux",
        "how do I run the full docker test again?",
        "do you have a link to the docs?",
        "can you give me a short PR description",
        # a chore on the branch, a closing step after a word
        "can you just squash all commits into one?",
        "check out main, pull the latest",
        "no just commit and push",
        # a run on the person's machine, pasted back
        _GIT_PUSH,
        "❯ cat /tmp/hook-from-settings*.txt 2>/dev/null\nHook from settings.json fired at Mon",
        "❯ GITSYNC_MAX=2000 go run ./cmd/git-sync replicate --all-refs\ntime=… level=INFO",
        # constructed: the same forms said otherwise
        "are we done?",
        "anything left?",
        "ok, keep going please",
        "show me the command to run the linter",
        "user@host:~/app$ npm run build\n> app@1.0.0 build\n> vite build",
    ],
)
def test_a_follow_up_that_says_nothing_of_the_work_refines_nothing(text: str) -> None:
    assert is_aside(text)
    assert not refines_the_work(text)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli and git-sync: follow-ups a blind review kept as refinements
        "put it in handleGeminiSessionEnd",
        "do we not have the logging set up properly for gemini?",
        "does gemini have a hooks setup?",
        "can we add a simple tests assuming we have tests for logging?",
        "Two issues to fix:\n  1. Unused variable stopHookCount at line 485\n  2. Long test",
        "I'd like to do a loop: \n\n- pick a claim\n- verify the claim against main branch",
        # a paste that asks, or is no run
        "❯ npm test\nFAIL src/app.test.ts\nwhy does this fail?",
        "❯ This branch represents a PR against main. I got some feedback to address:\n- x",
        "❯ /cd app/frontend\nthen fix the header",
        # constructed: what there is to do, beside the same words
        "what's next on the roadmap should go into docs/ROADMAP.md",
        "keep going, and add tests for the parser",
        "give me the command and then fix the Makefile target",
        "yes, add the retry to the fetch loop",
        "squash the duplicate rows in the report table",
    ],
)
def test_a_follow_up_with_something_of_the_work_stays(text: str) -> None:
    assert not is_aside(text)
    assert refines_the_work(text)


def test_a_run_pasted_needs_a_command_and_what_it_printed() -> None:
    assert is_run_pasted(_GIT_PUSH)
    assert not is_run_pasted("❯ git push")  # nothing printed: a command, not its run
    assert not is_run_pasted("git push\nEverything up-to-date")  # no prompt


def test_a_follow_up_saying_again_what_was_said_is_folded_in_once() -> None:
    """git-sync: "can you review again" twice; entireio/cli: the request sent again as a
    follow-up, word for word."""
    request = "great, new change. while creating sub session folders we follow /0, /1"
    folded = task_intent(
        request,
        ["can you review again", "Can you review  again", request, "and the gemini hooks?"],
    )
    assert intent_parts(folded) == (request, 2)
