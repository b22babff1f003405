"""A command whose text acts on the conversation itself is no replay task.

The expansions are the opening lines of real commands in the labelled set
(tests/fixtures/real_sessions: Denubis's `/transcript` in two versions,
isaacmorgado's `/checkpoint`, Smartagent-so's `/recover-from-checkpoint`), of
moredip/session-share's `/publish-session` and of PowerAppsDarren's `zwrapup` skill,
beside commands whose text acts on the repository.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.mine import mine
from sleepd.mining.turns.conversation import acts_on_the_conversation
from sleepd.store.engine import read_session
from sleepd.store.models import Task

from .builders import LATER, T0, SessionBuilder
from .test_command_families import command

_TRANSCRIPT = (
    "# Archive Transcript\n\nGenerate a short (3-7 word) title summarizing this conversation, "
    "then archive it.\n\nBased on the full conversation so far, create a concise title."
)


@pytest.mark.parametrize(
    "expansion",
    [
        _TRANSCRIPT,
        "# Archive Transcript with Research Metadata\n\nYou are helping the user create a "
        "research-grade archive of this conversation using the IDW2025 reproducibility framework.",
        "Save session progress and generate a continuation prompt.\n\n## Instructions\n\nPerform "
        "these two actions:\n\n### 1. Update CLAUDE.md",
        "# Von Checkpoint wiederherstellen\n\nStelle den Session-Kontext nach einem Crash wieder "
        "her.\n\n## Aufgaben\n\n1. **Session-Status lesen**",
        "Publish the current session transcript by running:\n\n```bash\npython3 publish.py\n```",
        "Base directory for this skill: C:\\Users\\x\\.claude\\skills\\zwrapup\n\n# zwrapup - Wrap "
        "Up AI Session\n\nComprehensive session cleanup that commits work, documents progress",
        # constructed
        "Write a handoff document summarizing this session for the next agent.",
        "Export this chat to docs/chats/ as markdown.",
    ],
)
def test_a_commands_text_acting_on_the_conversation(expansion: str) -> None:
    assert acts_on_the_conversation(expansion)


@pytest.mark.parametrize(
    "expansion",
    [
        # the labelled set: commands over the repository
        "<objective>\nList all pending todos, allow selection, load full context for the selected "
        "todo, and route to appropriate action.\n</objective>",
        "Base directory for this skill: C:\\Users\\darren\\.claude\\skills\\taskmaster\n\n# "
        "TaskMaster - Install & Manage Task Master AI",
        # constructed: the same words about the code
        "Create a git commit for the changes made in this session.",
        "Save the session token to the keychain and refresh it on expiry.",
        "Persist the session state in redis.",
        "Export the chat history of the support widget to CSV.",
        "Summarize the diff of the current branch in CHANGELOG.md.",
        # the words past the command's opening are not its purpose
        "Review the changed code for reuse and quality.\n"
        + "- check naming\n" * 60
        + "Finally, summarize this conversation.",
    ],
)
def test_a_commands_text_acting_on_the_repository(expansion: str) -> None:
    assert not acts_on_the_conversation(expansion)


@pytest.mark.both_dbs
def test_a_recurring_command_on_the_conversation_makes_no_task(engine: Engine, cfg: Config) -> None:
    """Denubis ran `/transcript` at the end of every session (eight replay tasks of the
    labelled set's 37); a replay would archive its own few turns."""
    for day in range(2):
        for name, text in (
            ("transcript", _TRANSCRIPT),
            ("release", "Bump the version in package.json"),
        ):
            b = SessionBuilder(start=T0 + timedelta(days=day, hours=len(name)))
            b.prompt("add a --json flag to the export command").say("Added the flag.")
            b.prompt(command(name, "patch" if name == "release" else ""))
            b.meta(text)
            b.bash("npm version patch", "v1.2.4").say("Done.")
            b.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        intents = {task.intent.splitlines()[0] for task in db.scalars(select(Task))}
    assert "/release patch" in intents
    assert not any(intent.startswith("/transcript") for intent in intents)


def test_a_command_ordering_a_skill_on_the_conversation_makes_no_task(
    engine: Engine, cfg: Config
) -> None:
    """The command's own text only orders its skill loaded; the skill's text, which the
    agent loads next, is what it acts on (`command_text`)."""
    wrapup = (
        "Base directory for this skill: C:\\Users\\x\\.claude\\skills\\zwrapup\n\n# zwrapup - "
        "Wrap Up AI Session\n\nComprehensive session cleanup that commits work, documents progress"
    )
    for day in range(2):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt("add a --json flag to the export command").say("Added the flag.")
        b.prompt(command("wrapup"))
        b.meta("Invoke the zwrapup skill and follow it exactly as presented to you\n")
        b.call("Skill", '{"skill": "zwrapup"}', f"k{day}").result(f"k{day}", "Launching skill")
        b.meta(wrapup)
        b.bash("git add -A && git commit -m wip", "[main 1a2b3c] wip").say("Wrapped up.")
        b.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        intents = [task.intent for task in db.scalars(select(Task))]
    assert intents and not any(intent.startswith("/wrapup") for intent in intents)
