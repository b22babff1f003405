"""A request whose only object is an item outside the repository is no replay task.

Lines from entireio/cli's history (MIT; rebuilt from its public `entire/checkpoints/v1`
branch, not in the repository) and sam-fakhreddine/wfc (in the labelled set), beside
constructed ones of the same forms and the requests that must stay tasks.
"""

from __future__ import annotations

import pytest

from sleepd.mining.commands import parse_command
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.turns import TurnInput, TurnKind, classify_turn, needs_context
from sleepd.mining.turns.outside import (
    acts_only_outside,
    names_only_an_outside_item,
    works_a_review_command,
)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: a pull request, a ticket, or a pull request's review, and a look
        "can you review pr 227 for me?",
        "/review 158",
        "/github-pr-review",
        "/workflows:review https://github.com/entireio/cli/pull/6/files",
        "have a look at linear ENT-260\n\nlet's debug this",
        "let's debug - ENT-207 in linear",
        "have a look at linear https://linear.app/entirehq/issue/ENT-212/entire-explain "
        "- let's discuss",
        "this is PR https://github.com/entireio/cli/pull/104 \n\nLet's review this together",
        "let's start with #89, check out his branch",
        # sam-fakhreddine/wfc (labelled set): a command that works a pull request's comments
        "/wfc-pr-comments #36",
        # constructed: the same forms elsewhere
        "work on #89",
        "fix issue 42",
        "/fix-issue 42",
        "please look into JIRA ticket PAY-1234",
        "check https://gitlab.com/acme/api/-/merge_requests/17",
        "what's the status of https://github.com/acme/api/actions/runs/123456789?",
        # entireio/git-sync's history: a look, then a talk about it
        "can you look at https://github.com/entireio/git-sync/issues/46 and then chat",
    ],
)
def test_a_request_naming_only_an_item_outside_the_repository_is_no_replay_task(
    text: str,
) -> None:
    assert names_only_an_outside_item(text)


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli: work of its own beside the item, which a checkout holds
        "main branch tests failing - why? https://github.com/entireio/cli/actions/runs/2166219120",
        "let's review this branch/PR - https://github.com/entireio/cli/pull/88",
        "can you review PR 284 and I think we already have code that checks if git commits "
        "are setup on each session, or?",
        # constructed: what is asked is said, or no item outside is named
        "fix issue #12: the parser drops trailing commas",
        "look at PR 5 and fix the failing test in parser.py",
        "convert the files to UTF-8",
        "fix UTF-8 decoding",
        "review the changes in this branch",
        "/review",
        "/release 1.2.0",
        "/phase 3",
        "do #1 first",
        "# Plan 2\nImplement the cache",
        "",
    ],
)
def test_a_request_with_work_of_its_own_stays_a_task(text: str) -> None:
    assert not names_only_an_outside_item(text)


def test_an_outside_item_leans_on_no_exchange() -> None:
    """Only the replay leaves it out: the turn is read as any other (a request that leans
    on the exchange is read as going on with it once the agent has worked, and this one
    does not lean on it), and it opens a new request where nothing came before it."""
    for text in ("can you review pr 227 for me?", "have a look at linear ENT-260"):
        assert not needs_context(text)
        first = TurnInput(text=text, command=parse_command(text), has_episode=False)
        assert classify_turn(first, lexicon_for()).kind is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    ("name", "works_a_review"),
    [
        ("github-pr-review", True),
        ("wfc-pr-comments", True),
        ("address-pr-feedback", True),
        ("pr-review-threads", True),
        ("review", False),
        ("code-review-checklist", False),
        ("release", False),
    ],
)
def test_a_command_named_for_a_pull_requests_review(name: str, works_a_review: bool) -> None:
    assert works_a_review_command(name) is works_a_review


@pytest.mark.parametrize(
    "text",
    [
        # entireio/cli's history (outside the repository)
        "log a linear bug and let's move on",
        "respond to the PR comments",
        # the labelled set (tests/fixtures/real_sessions)
        "update the github issue with what we know, then close it if that is correct to do so",
        "make a pr, reply to the thread",
        "post a reply to that thread",
        "okay let's open a PR",
        "create draft PR",
        # constructed: the same acts said otherwise
        "Approve and merge this pull request",
        "file a bug in jira for this",
        "close PR#112 with a comment on what happened",
        "open an issue upstream",
        "request Copilot review",
        "fetch the open issues on github",
        "Okay, you can comment on the issue for me.",
        # entireio/git-sync's history: the issue's own text after the act, however long
        "open an issue that we need to make an FAQ in the README that answers these "
        "questions\n\ndoes it shallow clones/syncs or full clones? " + "does it keep tags? " * 20,
        "file a bug: the parser drops commas",
    ],
)
def test_a_request_whose_only_work_is_an_act_in_a_tracker_or_a_forge(text: str) -> None:
    """With the network cut a replay cannot file, answer or merge anything; with it on,
    it would, for real."""
    assert acts_only_outside(text)


@pytest.mark.parametrize(
    "text",
    [
        # work in the checkout beside the act, or the same words about the code
        "fix the parser and open a PR",
        "create an issue and fix it",
        "commit and create PR in each repo",
        "open the issue list page and fix the sorting",
        "create an issue template for bug reports",
        "create an issue about the flaky test and fix the test",
        "open an issue template that asks for the version",
        "write a PR description for these changes",
        "add a comment to the parse function",
        "add comments to the code",
        "report bugs found by the linter into report.md",
        "list the bugs in parser.py",
        "merge main into this branch",
        "close the modal when the user presses escape",
        "fix the bug",
        "update the README",
        # a command's template says what it does
        "/create-pr",
        "",
    ],
)
def test_an_act_beside_work_in_the_checkout_stays_a_task(text: str) -> None:
    assert not acts_only_outside(text)
