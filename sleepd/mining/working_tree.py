"""Whether a session had left changes uncommitted when an episode began.

A replay works in a checkout of the commit at the episode's start (`replay_site`): what
the session's agent wrote and nobody committed before then is not in it. For most
requests that makes the replay's start a little older than the person's; for one whose
object is those very changes ("/simplify", "/review" after the agent wrote code:
`turns.changes`) it leaves nothing to act on.

Read from the session's own records: the agent's calls that write a file (Claude Code's
file tools, Codex's `apply_patch`), its subagents' too, and the commits made after them,
by the agent's shell or by the person's own `! git commit`. A commit that failed commits
nothing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.carried import conversation_mates
from sleepd.mining.commands import LOCAL_COMMAND_TAGS
from sleepd.mining.json_text import json_value
from sleepd.mining.signals import written_paths
from sleepd.mining.signatures import EDIT_TOOLS, PATCH_TOOL, SHELL_TOOLS
from sleepd.mining.tasks import files_mentioned
from sleepd.store.models import Episode, Event, Session

#: Tools that write a file in the working tree (lower-cased).
_WRITING_TOOLS = (*EDIT_TOOLS, PATCH_TOOL)

#: How a patch opens, when a shell ran Codex's patch tool.
_PATCH_MARK = "*** Begin Patch"

#: A file a patch adds ("*** Add File: docs/plan.md").
_ADDED_FILE = re.compile(r"^\*\*\* Add File: (.+?)\s*$", re.MULTILINE)

#: A commit, as a shell runs it ("git commit -m …", "git -C app commit", "git add -A &&
#: git commit"), not a command that only names one ("git log --grep commit").
_GIT_COMMIT = re.compile(r"\bgit\s+(-C\s+\S+\s+|-c\s+\S+\s+|--?[\w-]+(=\S+)?\s+)*commit\b")


def left_uncommitted(db: DbSession, episodes: Sequence[Episode]) -> dict[int, frozenset[str]]:
    """The episodes that began after the session's agent, or a subagent it ran, wrote a
    file that no commit (the agent's, a subagent's or the person's) took up before the
    episode's request, each with the paths of the files among them that the session made
    (Claude Code's `Write`, a patch's `Add File`), which no checkout of the episode's
    commit holds. The session's own records are placed by their order; a subagent's, in a
    session of its own, by their time (where neither tells, the episode is taken to hold
    nothing left)."""
    if not episodes:
        return {}
    session_ids = {e.session_id for e in episodes}
    children: dict[int, int] = {
        child: parent
        for child, parent in db.execute(
            select(Session.id, Session.parent_session_id).where(
                Session.parent_session_id.in_(session_ids), Session.kind == "subagent"
            )
        )
        if parent is not None
    }
    mates = conversation_mates(db, session_ids)
    writes: dict[int, list[tuple[Moment, frozenset[str]]]] = defaultdict(list)
    commits: dict[int, list[Moment]] = defaultdict(list)
    commit_calls: dict[str, list[tuple[int, Moment]]] = {}
    rows = db.execute(
        select(Event.session_id, Event.seq, Event.ts, Event.kind, Event.role, Event.tool_name,
               Event.call_id, Event.text)
        .where(
            Event.session_id.in_(session_ids | set(children) | set(mates)),
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
    for session_id, seq, ts, kind, role, tool_name, call_id, text in rows:
        name = (tool_name or "").lower()
        # a subagent's record, or one of another file of the conversation, has no place in
        # the session's order, only its time
        owners = [(children.get(session_id, session_id), None if session_id in children else seq)]
        if session_id not in session_ids and session_id not in children:
            owners = []
        owners += [(mate, None) for mate in mates.get(session_id, ())]
        for owner, place in owners:
            moment = Moment(place, ts)
            if kind == "tool_call" and (name in _WRITING_TOOLS or _PATCH_MARK in (text or "")):
                writes[owner].append((moment, _made(tool_name, text or "")))
            elif kind == "tool_call" and call_id and _GIT_COMMIT.search(text or ""):
                commit_calls.setdefault(call_id, []).append((owner, moment))
            elif role == "user" and _GIT_COMMIT.search(text or ""):
                commits[owner].append(moment)  # the person's own `! git commit`
    if commit_calls:
        failed = set(
            db.scalars(
                select(Event.call_id).where(
                    Event.session_id.in_(session_ids | set(children) | set(mates)),
                    Event.kind == "tool_result",
                    Event.call_id.in_(list(commit_calls)),
                    Event.is_error.is_(True),
                )
            )
        )
        for call_id, made_by in commit_calls.items():
            if call_id not in failed:
                for owner, moment in made_by:
                    commits[owner].append(moment)
    left: dict[int, frozenset[str]] = {}
    for episode in episodes:
        made = _left(
            writes.get(episode.session_id, []),
            commits.get(episode.session_id, []),
            Moment(episode.start_seq, episode.started_at),
        )
        if made is not None:
            left[episode.id] = made
    return left


def _made(tool_name: str | None, text: str) -> frozenset[str]:
    """The paths of the files a writing call made: a `Write`'s (it makes or replaces a
    whole file), a patch's added files (in Codex's tool, or in a shell's JSON argv)."""
    if tool_name == "Write":
        return frozenset(written_paths(tool_name, text))
    patch = text
    if not text.lstrip().startswith(_PATCH_MARK):
        value = json_value(text)
        argv = value.get("command") if isinstance(value, dict) else None
        patch = "\n".join(a for a in argv if isinstance(a, str)) if isinstance(argv, list) else text
    return frozenset(path.strip() for path in _ADDED_FILE.findall(patch[:20000]))


def names_a_file_made(request: str, made: frozenset[str]) -> bool:
    """Whether the request names one of the files the session made and left uncommitted
    ("implement the plan in docs/plans/sync.md" after the agent wrote it), by its path
    or its name: a replay's checkout does not hold it."""
    if not made:
        return False
    tails = {path.replace("\\", "/").rstrip("/") for path in made}
    for named in files_mentioned(request):
        named = named.lstrip("./")
        if any(tail == named or tail.endswith("/" + named) for tail in tails):
            return True
    return False


@dataclass(frozen=True)
class Moment:
    """Where a record falls: its place in the session's order (None for a subagent's), and
    its time."""

    seq: int | None
    ts: datetime | None

    def before(self, other: Moment) -> bool | None:
        """Whether this came first; None where neither order nor time can tell."""
        if self.seq is not None and other.seq is not None:
            return self.seq < other.seq
        if self.ts is not None and other.ts is not None:
            return _naive(self.ts) < _naive(other.ts)
        return None


def _naive(ts: datetime) -> datetime:
    return ts.astimezone(UTC).replace(tzinfo=None) if ts.tzinfo else ts


def _left(
    writes: Sequence[tuple[Moment, frozenset[str]]], commits: Sequence[Moment], request: Moment
) -> frozenset[str] | None:
    """The files made by the writes before the request that no commit after them and
    before the request took up; None when every such write was taken up (or none came)."""
    committed = [c for c in commits if c.before(request)]
    left: frozenset[str] | None = None
    for write, made in writes:
        if write.before(request) is not True:
            continue
        if not any(write.before(c) is True for c in committed):
            if any(write.before(c) is None for c in committed):
                continue  # a subagent's write and a commit without a time: cannot tell
            left = (left or frozenset()) | made
    return left
