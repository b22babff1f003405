"""Requests whose object is the changes at hand: what the session has written so far.

"/simplify", "/review", "/requesting-code-review", "let's review the code we've created
for this branch", "can you do meaningful commits?": typed after the agent wrote code, they
act on that code. A replay works in a checkout of the commit at the episode's start, which
holds what was committed by then and nothing the session left uncommitted; there such a
request has nothing to act on (`working_tree.left_uncommitted` says when). The same words
opening a session act on the branch as it was committed, which a checkout holds.
"""

from __future__ import annotations

import re

from sleepd.mining.commands import parse_command

#: A command named for going over the changes at hand: a review, a simplification, a
#: clean-up, a commit, or the run of the plan the conversation wrote ("/simplify",
#: "/code-review", "/commit-commands:commit", "/superpowers:execute-plan").
_OVER_THE_CHANGES_COMMAND = re.compile(
    r"(^|[-_:])(review|simplify|simplifier|cleanup|clean-up|tidy|polish|commit|"
    r"execute-plan|executing-plans)([-_:]|$)",
    re.IGNORECASE,
)

#: The same said in words: the act, then the changes named as this session's or this
#: branch's ("review the code we've created for this branch", "review the changes in the
#: branch now once more as a whole", "do meaningful commits").
_OVER_THE_CHANGES = re.compile(
    r"^\W*((ok|okay|so|now|great|alright)\W+)*((can|could|would) you\s+|let'?s\s+|please\s+)*"
    r"(("
    r"(review|simplify|clean up|tidy up|polish|go over|look over|double[- ]check)\s+"
    r"(all\s+)?(the|our|your|these|this|my)\s+(code|changes|work|diff|implementation)"
    r"(\s+(we|you|i)('ve|\s+have)?\s+(made|created|written|done|added|wrote|did)"
    r"|\s+(in|on|of)\s+(this|the)\s+branch)?"
    r"(\s+(so far|now|again|once more|as a whole|for this branch|in this branch))*"
    r")|("
    r"(do|make)\s+(some\s+)?(meaningful|atomic|logical|small|individual|separate|proper)\s+"
    r"commits"
    r"))\W*$",
    re.IGNORECASE,
)


def works_over_the_changes(region: str) -> bool:
    """Whether the request's object is the changes at hand (module docstring): a command
    so named with nothing after it, or words that name only those changes."""
    command = parse_command(region)
    if command is not None:
        name = command.name.rsplit("/", 1)[-1]
        return not command.args.strip() and bool(_OVER_THE_CHANGES_COMMAND.search(name))
    return bool(_OVER_THE_CHANGES.match(region))


#: A merge's conflicts to resolve or a rebase to do, and nothing else ("got merge conflicts
#: from parent alex/ent-221-phase-aware-git-hooks", "we need to fix merge conflicts from
#: our parent branch (on origin)", "can you rebase soph/progress-indicators onto
#: soph/smart-subdivision"): work on the state of the person's branches.
_BRANCH_STATE = re.compile(
    r"^\W*((ok|okay|so|now|great|alright|hmm)\W+)*"
    r"((can|could|would) you\s+|let'?s\s+|please\s+|we (need|have) to\s+|(i|we) (got|have|had)\s+|"
    r"there (are|is)\s+|now\s+|also\s+)*"
    r"(((fix|resolve|handle|solve|address|deal with|sort out|got|get|have|had)\s+)?"
    r"((the|some|these|those|all|any)\s+)?(git\s+)?merge\s+conflicts?"
    r"|(do\s+a\s+)?rebase(\s+(for|of))?(\s+(?!the\b)[\w./-]+)?(\s+(onto|on)\s+[\w./-]+)?)"
    r"(\s+(from|with|in|on|against|onto)\s+((the|our|my)\s+)?(parent\s+)?[\w./-]+(\s+branch)?)*"
    r"(\s*\((on|from|in)\s+[\w./-]+\))?(\s+(please|now|first|again|too))*\W*$",
    re.IGNORECASE,
)


def works_the_branch_state(region: str) -> bool:
    """Whether the request is only a merge's conflicts to resolve or a rebase to do: the
    conflicts are in the person's working tree mid-merge and the branches in their
    repository, neither of which a checkout of one commit holds."""
    return len(region) <= 300 and bool(_BRANCH_STATE.match(region))
