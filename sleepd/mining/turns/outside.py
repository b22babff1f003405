"""Requests whose only object is an item of a service outside the repository.

"have a look at linear ENT-260, let's debug this", "can you review pr 227 for me?",
`/review 158`, `/github-pr-review`: what the request acts on is a ticket, a pull request,
its review or a CI run, kept by a tracker or a forge and named only by its id or address.
A replay works in a checkout of the repository with the network cut, where that item is
not, and nothing in the request says what to do without it; such a request is an episode
of the session like any other, but no replay task. A request that says something of its
own beside the item ("fix issue #12: the parser drops trailing commas", "main branch
tests failing - why? <run URL>") names work a checkout can hold, and stays one.
"""

from __future__ import annotations

import re

from sleepd.mining.commands import parse_command
from sleepd.mining.turns.text import THEN_WORK, WORD

#: The address of a tracker's issue, a forge's pull or merge request or its review, or a
#: CI run or job.
_ITEM_URL = re.compile(
    r"https?://\S*?(linear\.app/\S*?/issue/|atlassian\.net/browse/|/issues/\d|/pull/\d|"
    r"/pulls/\d|/merge_requests/\d|/actions/runs/\d|/-/(jobs|pipelines)/\d|"
    r"app\.clickup\.com/t/|app\.shortcut\.com/\S*?/story/|youtrack\.\S*?/issue/)\S*",
    re.IGNORECASE,
)
#: A tracker's key ("ENT-260", "PROJ-12"), an item only beside a tracker's name: "UTF-8"
#: and "ES-2015" are no tickets.
_TRACKER_KEY = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b")
_TRACKER_NAMED = re.compile(
    r"\b(linear|jira|youtrack|shortcut|clickup|asana|ticket|tickets|story)\b", re.IGNORECASE
)
#: An item by its number: "pr 227", "pull request #12", "issue 4", "#89".
_NUMBERED_ITEM = re.compile(
    r"\b(prs?|pull\s+requests?|mrs?|merge\s+requests?|issues?|tickets?|story)\s*"
    r"(number\s*|no\.?\s*)?#?\d+\b|(?<![\w&/])#\d+\b",
    re.IGNORECASE,
)
#: Words that say nothing of what to do beyond looking at an item: the small words of any
#: short request, the look itself, and the item's kind. Not `references.GENERIC_WORDS`,
#: whose verbs of work ("add", "write", "update") would say what to do with the item.
_ABOUT_AN_ITEM = frozenset(
    WORD.findall(
        "a an the to for of on in at up out with and or so now then please pls can could would "
        "you me us we i my our let lets let's go get have has is are it its this that here "
        "look looking check see review reviews reviewing debug investigate discuss dig into "
        "take start starting begin work working handle address fix resolve go through what "
        "about whats what's status think thoughts together quick quickly for just also "
        "chat talk "
        "linear jira youtrack shortcut clickup asana ticket tickets story issue issues pr prs "
        "pull request requests mr merge comments comment feedback"
    )
)
#: Someone else's branch is the forge's too ("check out his branch"); "this branch" is
#: the checkout's own.
_THEIR_BRANCH = re.compile(r"\b(his|her|their)\s+branch(es)?\b", re.IGNORECASE)
#: A slash command whose name says it acts on a pull request, an issue or a review, and
#: so takes such an item by its number ("/review 158", "/fix-issue 42").
_ITEM_COMMAND = re.compile(r"(^|[-_:])(pr|prs|pull|review|issue|issues|ticket|bug)([-_:]|$)")
#: A command whose name says it works through a pull request's review
#: (`/github-pr-review`, `/pr-comments`, `/address-pr-feedback`): the review is the forge's.
_REVIEW_COMMAND = re.compile(
    r"(pr|pull[-_]?request|review)[-_:]?(reviews?|comments?|feedback|threads?)\b", re.IGNORECASE
)
#: Longer than this, a request is taken to say something of its own.
MAX_CHARS = 300


def works_a_review_command(name: str) -> bool:
    """Whether a slash command's name says it works through a pull request's review."""
    return bool(_REVIEW_COMMAND.search(name))


def names_only_an_outside_item(text: str) -> bool:
    """Whether the request's only object is an item outside the repository (module
    docstring): a slash command that works a pull request's review, one whose arguments
    are only such an item, or words that name one and ask nothing beyond a look at it."""
    command = parse_command(text)
    if command is not None:
        name = command.name.lower()
        if works_a_review_command(name):
            return True
        args = command.args.strip()
        if not args:
            return False
        if args.lstrip("#").isdigit():
            return bool(_ITEM_COMMAND.search(name))
        return _only_an_item(args)
    return _only_an_item(text)


def _only_an_item(text: str) -> bool:
    if len(text) > MAX_CHARS:
        return False
    rest, found = _ITEM_URL.subn(" ", text)
    if _TRACKER_NAMED.search(rest):
        rest, keys = _TRACKER_KEY.subn(" ", rest)
        found += keys
    rest, numbered = _NUMBERED_ITEM.subn(" ", rest)
    if not found + numbered:
        return False
    rest = _THEIR_BRANCH.sub(" ", rest)
    return all(word.lower() in _ABOUT_AN_ITEM for word in WORD.findall(rest))


#: An act done in a tracker or a forge, not in the checkout: filing, updating, closing or
#: answering an issue or a ticket, opening, submitting, approving or merging a pull
#: request, asking for a review. The verb, then a few small words, then the item's kind;
#: "open the issue list page" reaches the kind too, and its other words keep it work.
_OUTSIDE_ACT = re.compile(
    r"\b(log|file|open|create|make|raise|submit|report|update|edit|close|reopen|comment(\s+on)?|"
    r"reply(\s+to|\s+on)?|respond(\s+to|\s+on)?|post(\s+on|\s+to|\s+in)?|leave|request|"
    r"ask(\s+for)?|approve|merge|label|assign|link|triage|fetch|list|add)"
    r"((\s+|\s*,\s*|\s+(and|&)\s+)(approve|merge|close|reopen|update|a|an|the|this|that|"
    r"these|those|it|them|my|our|new|draft|follow[-\s]?up|comprehensive|separate|open|"
    r"some|all|any|few|linear|jira|github|gitlab|copilot|\w+'s))*"
    r"\s+(pull\s+requests?|merge\s+requests?|prs?|mrs?|issues?|tickets?|bugs?|"
    r"stor(y|ies)|epics?|reviews?|comments?|replies|reply|threads?)\b",
    re.IGNORECASE,
)
#: Words that say nothing of work in the checkout beside such an act: the small words of a
#: request, the item's kind and home, and what is written into it ("with what we know").
#: Not `_ABOUT_AN_ITEM`: its "fix", "handle" and "work" are work in the checkout.
_ABOUT_AN_ACT = frozenset(
    WORD.findall(
        "a an the to for of on in at up out with and or so now then please pls can could would "
        "you me us we i my our let lets let's go get have has is are it its this that here "
        "there if be do done just also ok okay yes sure for me it them one ones which what "
        "know found learned findings summary status progress notes details observations "
        "agree correct right move on next later first title description linear jira github "
        "happened why how when "
        "gitlab copilot tracker repo repository upstream issue issues ticket tickets bug bugs "
        "story stories epic epics pr prs pull request requests mr merge review reviews "
        "comment comments reply replies thread threads draft new open close reopen approve "
        "submit post"
    )
)


#: The words of the item an act makes, after it ("open an issue that we need to make an
#: FAQ …", "file a bug saying …").
_ITEMS_TEXT = re.compile(
    r"\s*(:|\s(that|saying|which says|about|describing|explaining|to say|asking)\b)", re.IGNORECASE
)


def acts_only_outside(text: str) -> bool:
    """Whether the request's only work is an act in a tracker or a forge ("log a linear
    bug and let's move on", "update the github issue with what we know, then close it",
    "create a PR"): with the network cut a replay cannot do it, and with the network on it
    would do it for real. A request with work of its own beside the act ("fix the parser
    and open a PR") stays a task."""
    if parse_command(text) is not None:
        return False
    # what follows "open an issue that …" is the item's own text, however long
    opening = _OUTSIDE_ACT.search(text[:MAX_CHARS])
    if (
        opening is not None
        and _ITEMS_TEXT.match(text, opening.end())
        and not THEN_WORK.search(text, opening.end())
    ):
        text = text[: opening.end()]
    if len(text) > MAX_CHARS:
        return False
    rest, acts = _OUTSIDE_ACT.subn(" ", text)
    if not acts:
        return False
    rest = _NUMBERED_ITEM.sub(" ", _ITEM_URL.sub(" ", rest))
    rest = _TRACKER_KEY.sub(" ", rest)
    return all(word.lower() in _ABOUT_AN_ACT for word in WORD.findall(rest))
