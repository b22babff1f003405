"""Whether a session had left changes uncommitted when an episode began.

A replay works in a checkout of the commit at the episode's start (`replay_site`): what
the session's agent wrote and nobody committed before then is not in it. For most
requests that makes the replay's start a little older than the person's; for one whose
object is those very changes ("/simplify", "/review" after the agent wrote code:
`turns.changes`) it leaves nothing to act on.

Read from the session's own records: the agent's calls that write a file (Claude Code's
file tools, Codex's `apply_patch`) and the commits made after them, by the agent's shell
or by the person's own `! git commit`. A commit that failed commits nothing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.commands import LOCAL_COMMAND_TAGS
from sleepd.mining.signatures import EDIT_TOOLS, PATCH_TOOL, SHELL_TOOLS
from sleepd.store.models import Episode, Event

#: Tools that write a file in the working tree (lower-cased).
_WRITING_TOOLS = (*EDIT_TOOLS, PATCH_TOOL)

#: How a patch opens, when a shell ran Codex's patch tool.
_PATCH_MARK = "*** Begin Patch"

#: A commit, as a shell runs it ("git commit -m …", "git -C app commit", "git add -A &&
#: git commit"), not a command that only names one ("git log --grep commit").
_GIT_COMMIT = re.compile(r"\bgit\s+(-C\s+\S+\s+|-c\s+\S+\s+|--?[\w-]+(=\S+)?\s+)*commit\b")


def left_uncommitted(db: DbSession, episodes: Sequence[Episode]) -> set[int]:
    """The ids of the episodes that began after the session's agent wrote a file that no
    commit took up before the episode's request."""
    if not episodes:
        return set()
    session_ids = {e.session_id for e in episodes}
    last_write: dict[int, list[int]] = defaultdict(list)
    commits: dict[int, list[int]] = defaultdict(list)
    commit_calls: dict[str, tuple[int, int]] = {}
    rows = db.execute(
        select(Event.session_id, Event.seq, Event.kind, Event.role, Event.tool_name,
               Event.call_id, Event.text)
        .where(
            Event.session_id.in_(session_ids),
            or_(
                func.lower(Event.tool_name).in_(_WRITING_TOOLS),
                # an older Codex ran its patch tool through the shell
                func.lower(Event.tool_name).in_(SHELL_TOOLS) & Event.text.contains(_PATCH_MARK),
                func.lower(Event.tool_name).in_(SHELL_TOOLS) & Event.text.contains("commit"),
                Event.text.startswith(LOCAL_COMMAND_TAGS[0]) & Event.text.contains("commit"),
            ),
            Event.kind.in_(("tool_call", "user_prompt", "meta")),
        )
        .order_by(Event.session_id, Event.seq)
    )  # fmt: skip
    for session_id, seq, kind, role, tool_name, call_id, text in rows:
        name = (tool_name or "").lower()
        if kind == "tool_call" and (name in _WRITING_TOOLS or _PATCH_MARK in (text or "")):
            last_write[session_id].append(seq)
        elif kind == "tool_call" and call_id and _GIT_COMMIT.search(text or ""):
            commit_calls[call_id] = (session_id, seq)
        elif role == "user" and _GIT_COMMIT.search(text or ""):
            commits[session_id].append(seq)  # the person's own `! git commit`
    if commit_calls:
        failed = set(
            db.scalars(
                select(Event.call_id).where(
                    Event.session_id.in_(session_ids),
                    Event.kind == "tool_result",
                    Event.call_id.in_(list(commit_calls)),
                    Event.is_error.is_(True),
                )
            )
        )
        for call_id, (session_id, seq) in commit_calls.items():
            if call_id not in failed:
                commits[session_id].append(seq)
    left: set[int] = set()
    for episode in episodes:
        writes = [s for s in last_write.get(episode.session_id, []) if s < episode.start_seq]
        if not writes:
            continue
        committed = [s for s in commits.get(episode.session_id, []) if s < episode.start_seq]
        if not committed or max(committed) < max(writes):
            left.add(episode.id)
    return left
